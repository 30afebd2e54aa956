//! The defender's interceptions decided as the expedition reaches each point (digest §3.3,
//! A-24's recommended reading, rule option `interception_timing = "as-reached"`): the chain is
//! played a point at a time (its straits, then by sea the departure port and the naval leg, then
//! the arrival), and at each point the defender, seeing the attacker's surviving cards (their
//! count by role when the game is not omniscient) and the earlier battles' results, decides
//! whether to intercept there, unless it already used that kind of interception (at most one land
//! and one naval per expedition). Every step is the calculator's own ([`Cache::play_between`]);
//! the exact chance a defender reads is the calculator's from that point on
//! ([`Cache::chance_from`]).

use super::military::{self, Cards, Defence, Plan};
use super::policy::{Policy, Scripted, Style};
use super::scenario::TROOP;
use super::turn::Play;
use crate::dice::Dice;
use crate::rulesets::imperios_del_mediterraneo::expedition::{Played, Point, Reached};

/// Where defender's routes reach: straits to the land point after the naval leg, to the land
/// point before it, to a port of its own (u8::MAX: out of reach), as `interception_reach` gives.
pub(super) type Reach = (u8, u8, u8);

/// Adds one stretch of the chain played to what the expedition did so far.
fn add_stretch(total: &mut Played, part: &Played) {
    total.failed = part.failed;
    total.vp[0] += part.vp[0];
    total.vp[1] += part.vp[1];
    total.margin = part.margin;
    total.recovered |= part.recovered;
    total.leaders_recovered += part.leaders_recovered;
    for k in 0..2 {
        if part.intercepted[k] {
            total.intercepted[k] = true;
            total.interceptor_recovered[k] = part.interceptor_recovered[k];
            total.won_battle_cards[k] = part.won_battle_cards[k];
        }
    }
    total.alive_at_target = part.alive_at_target;
    total.leaders_at_target = part.leaders_at_target;
    total.fought_at_target = part.fought_at_target;
    total.fled |= part.fled;
    total.special_battle = total.special_battle.or(part.special_battle);
    total.killed |= part.killed;
    total.reached = part.reached;
}

impl Play<'_> {
    /// Plays attacker `p`'s expedition `plan` on defender `q`'s city point by point, `q`
    /// deciding each interception as it is reached (`reach`: where its routes go; None: it may
    /// not intercept). The interceptors' cards leave `q`'s hand when committed and are in
    /// `defence` at the end, as the at-declaration reading leaves them.
    pub(super) fn play_as_reached(
        &mut self,
        p: usize,
        q: usize,
        plan: &Plan,
        defence: &mut Defence,
        reach: Option<Reach>,
        dice: &mut Dice,
    ) -> Played {
        let s = self.s();
        let game = self.game;
        let o = &game.rules.options;
        let mut at = self.cache.built(s, &self.st, o, p, plan, defence).whole();
        let points: &[Point] = if plan.naval {
            &[Point::Departure, Point::Sea, Point::Arrival]
        } else {
            &[Point::Arrival]
        };
        let mut total = Played::default();
        let mut from = Point::Start;
        let (mut land_used, mut sea_used) = (false, false);
        for &point in points {
            let part = self.cache.play_between(
                s,
                &self.st,
                o,
                p,
                plan,
                defence,
                dice,
                at,
                from,
                Some(point),
            );
            add_stretch(&mut total, &part);
            let Some(r) = part.reached else {
                return total;
            };
            at = r;
            from = point;
            let Some((after, before, sea)) = reach else {
                continue;
            };
            let straits = match point {
                Point::Departure if !land_used => before,
                Point::Arrival if !land_used && at.lands => after,
                Point::Sea if !sea_used => sea,
                _ => u8::MAX,
            };
            if straits == u8::MAX {
                continue;
            }
            let cards =
                self.interceptor_at(q, p, plan, point, at, (after, before, sea), defence, dice);
            if cards.is_empty() {
                continue;
            }
            self.take_from_hand(q, &cards);
            let mut sent = cards;
            self.roll_route(q, &mut sent, straits, dice);
            if point == Point::Sea {
                sea_used = true;
                defence.naval = sent;
                defence.naval_straits = straits;
            } else {
                land_used = true;
                defence.intercept = sent;
                defence.straits = straits;
                defence.land_first = point == Point::Departure && !sent.is_empty();
            }
        }
        let part = self
            .cache
            .play_between(s, &self.st, o, p, plan, defence, dice, at, from, None);
        add_stretch(&mut total, &part);
        total
    }

    /// The cards defender `q` sends to intercept at `point` (empty: none), the expedition there
    /// as `at`. The random player (and the search player, whose interceptions are its rollout
    /// policy's) flips a coin to intercept and one for each card of the role; the scripted
    /// players send their strongest (at most `max_cards`), at the departure port only where the
    /// exact chance for the attacker from there on is lower than with the land interception at
    /// the arrival (their fleets at sea in both, ties to fewer straits); P2 only where this
    /// interception lowers the attacker's exact chance from that point on by its delta (later
    /// points not counted).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn interceptor_at(
        &mut self,
        q: usize,
        a: usize,
        plan: &Plan,
        point: Point,
        at: Reached,
        (after, before, sea): Reach,
        defence: &Defence,
        dice: &mut Dice,
    ) -> Cards {
        let s = self.s();
        let naval = point == Point::Sea;
        let mut cards = Cards::default();
        match self.pol[q] {
            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                if dice.below(2) == 0 {
                    let role = if naval { super::scenario::FLEET } else { TROOP };
                    for &c in &self.st.players[q].hand {
                        if military::is(s, q, c, role) && dice.below(2) == 0 {
                            cards.push(c);
                        }
                    }
                }
                cards
            }
            Policy::Scripted(g) => {
                let strongest = self.strongest(q, &g, naval);
                if strongest.is_empty() {
                    return cards;
                }
                let seen = self.seen_from(a, plan, at);
                let game = self.game;
                let o = &game.rules.options;
                let with = if naval {
                    Defence {
                        naval: strongest,
                        ..*defence
                    }
                } else {
                    Defence {
                        intercept: strongest,
                        land_first: point == Point::Departure,
                        ..*defence
                    }
                };
                if point == Point::Departure && after != u8::MAX {
                    // Here or at the arrival: its fleets at sea in both when it reaches the sea.
                    let fleets = if sea != u8::MAX {
                        self.strongest(q, &g, true)
                    } else {
                        Cards::default()
                    };
                    let here = Defence {
                        naval: fleets,
                        ..with
                    };
                    let there = Defence {
                        land_first: false,
                        ..here
                    };
                    let (h, _) = self
                        .cache
                        .chance_from(s, &self.st, o, a, &seen, &here, point, at.spent);
                    let (t, _) = self
                        .cache
                        .chance_from(s, &self.st, o, a, &seen, &there, point, at.spent);
                    if !(h < t || (h == t && before < after)) {
                        return cards;
                    }
                }
                if let Style::Turtle { delta, .. } = g.style {
                    let (open, _) = self
                        .cache
                        .chance_from(s, &self.st, o, a, &seen, defence, point, at.spent);
                    let (held, _) = self
                        .cache
                        .chance_from(s, &self.st, o, a, &seen, &with, point, at.spent);
                    if open - held < delta {
                        return cards;
                    }
                }
                strongest
            }
        }
    }

    /// `q`'s strongest Troop (or, `naval`, Fleet) cards in hand, at most `max_cards`.
    fn strongest(&self, q: usize, g: &Scripted, naval: bool) -> Cards {
        let s = self.s();
        let hand = &self.st.players[q].hand;
        let mut sorted = Cards::default();
        if naval {
            military::strongest_at_sea(s, q, hand, &mut sorted);
        } else {
            military::strongest_first(s, q, hand, TROOP, false, &mut sorted);
        }
        let mut out = Cards::default();
        for &c in sorted.as_slice().iter().take(g.max_cards as usize) {
            out.push(c);
        }
        out
    }

    /// Attacker `a`'s expedition where it stands (`at`), as a defender sees it: the plan's
    /// surviving cards (their counts by role, the cards estimated when the game is not
    /// omniscient), its leaders if they are with it, no strait left.
    pub(super) fn seen_from(&self, a: usize, plan: &Plan, at: Reached) -> Plan {
        let s = self.s();
        let mut order = Cards::default();
        military::calculator_order(s, s.empires[a].deck, plan.cards.as_slice(), &mut order);
        let mut left = Plan {
            cards: Cards::default(),
            straits: 0,
            ..*plan
        };
        for (i, &c) in order.as_slice().iter().enumerate() {
            if at.alive & (1 << i) != 0 {
                left.cards.push(c);
            }
        }
        if !at.leaders {
            left.leaders = Cards::default();
        }
        self.seen_plan(a, &left)
    }
}
