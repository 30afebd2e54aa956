//! The round events of a game (digest §4.5): the weather, Prosperity, Homecoming, Scarcity,
//! Enraged barbarians, and the non-player raids of Neutral Attack and Pirates (§3.10) through the
//! calculator's raid code.

use super::military::{self, Cards, Defence};
use super::policy::Policy;
use super::scenario::{Event, FLEET, LEADER, TROOP};
use super::state::{MAX_ENRAGED, NEUTRAL};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;

impl Play<'_> {
    pub fn resolve_event(&mut self, event: Event, dice: &mut Dice, log: &mut dyn GameLog) {
        self.st.weather = match event {
            Event::GoodWeather => Weather::Good,
            Event::BadWeather => Weather::Bad,
            _ => Weather::Normal,
        };
        let n = self.n();
        match event {
            Event::Prosperity => {
                for p in 0..n {
                    let draw = match self.pol[p] {
                        Policy::Scripted(_) => self.st.players[p].draw.len() >= 2,
                        // Cards while the pile lasts (digest §6.3 tie-break).
                        _ => dice.below(2) == 0,
                    };
                    if draw {
                        self.st.draw(p, 2);
                    } else {
                        self.st.add_vp(p, 2);
                    }
                }
            }
            Event::EnragedBarbarians => self.st.enraged = (self.st.enraged + 1).min(MAX_ENRAGED),
            Event::Homecoming => {
                for p in 0..n {
                    let s = self.s();
                    let pl = &self.st.players[p];
                    let mut pick: Option<usize> = None;
                    let mut seen = 0u64;
                    for (i, &c) in pl.discard.iter().enumerate() {
                        if !military::is(s, p, c, TROOP | FLEET | LEADER) {
                            continue;
                        }
                        seen += 1;
                        let better = match self.pol[p] {
                            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                                dice.below(seen) == 0
                            }
                            Policy::Scripted(_) => pick.is_none_or(|j| {
                                military::strength(s, p, c, false)
                                    > military::strength(s, p, pl.discard[j], false)
                            }),
                        };
                        if better {
                            pick = Some(i);
                        }
                    }
                    if let Some(i) = pick {
                        let pl = &mut self.st.players[p];
                        let c = pl.discard.swap_remove(i);
                        pl.hand.push(c);
                    }
                }
            }
            Event::Scarcity => {
                for p in 0..n {
                    let cards = self.st.players[p].hand.len();
                    // Fewer than 2 cards: the VP must go (T-19); at 1 VP the loss is free;
                    // else the scripted player compares 2 cards' worth with 2 VP (§6.3).
                    let lose_vp = cards < 2
                        || match self.pol[p] {
                            Policy::Scripted(g) => {
                                self.st.players[p].vp <= 1 || 2.0 * g.card_worth(cards) > 2.0
                            }
                            _ => dice.below(2) == 0,
                        };
                    if lose_vp {
                        self.st.add_vp(p, -2);
                    } else {
                        for _ in 0..2 {
                            let len = self.st.players[p].hand.len();
                            let i = dice.below(len as u64) as usize;
                            self.st.discard_at(p, i);
                        }
                    }
                }
            }
            Event::NeutralAttack => self.neutral_attack(false, dice, log),
            Event::Pirates => self.neutral_attack(true, dice, log),
            _ => {}
        }
    }

    /// Neutral Attack or Pirates (§3.10): a random player rolls on the table and picks the
    /// victim (the VP leader among the others for the greedy player; any for the random one).
    pub(super) fn neutral_attack(&mut self, pirates: bool, dice: &mut Dice, log: &mut dyn GameLog) {
        let s = self.s();
        let n = self.n();
        let chooser = dice.below(n as u64) as usize;
        let row = dice.d(6) as usize - 1;
        let force = if pirates {
            s.tables.pirates[row]
        } else {
            s.tables.neutral[row]
        };
        let may_self = if pirates {
            self.game.rules.pirates_may_target_self
        } else {
            self.game.rules.neutral_may_target_self
        };
        // (victim city, straits of the neutral city's attack).
        let mut best: Option<(usize, u8)> = None;
        let mut seen = 0u64;
        for c in 0..s.map.cities.len() {
            let o = self.st.owner[c];
            if o == NEUTRAL || (o as usize == chooser && !may_self) {
                continue;
            }
            let straits = if pirates {
                if !s.map.cities[c].port {
                    continue;
                }
                0
            } else {
                match self.neutral_source(c) {
                    Some(st) => st,
                    None => continue,
                }
            };
            seen += 1;
            let better = match self.pol[chooser] {
                Policy::Random | Policy::Mixture | Policy::Search(..) => dice.below(seen) == 0,
                Policy::Scripted(_) => best.is_none_or(|(b, _)| {
                    let key = |x: usize| {
                        (
                            self.st.players[self.st.owner[x] as usize].vp,
                            s.map.cities[x].size,
                            std::cmp::Reverse(self.tie_key(chooser, x)),
                        )
                    };
                    key(c) > key(b)
                }),
            };
            if better {
                best = Some((c, straits));
            }
        }
        let Some((city, straits)) = best else { return };
        let owner = self.st.owner[city] as usize;
        let mut defence = if pirates {
            Defence::default()
        } else {
            self.choose_defence(owner, city, None, dice)
        };
        if pirates {
            defence.defence = self.defence_cards(owner, dice);
        }
        self.take_from_hand(owner, &defence.intercept);
        self.take_from_hand(owner, &defence.defence);
        self.interceptor_straits(owner, &mut defence, dice);
        let r = military::raid(
            s,
            &self.st,
            &self.game.rules.options,
            pirates,
            force,
            straits as u32,
            city,
            &defence,
            dice,
        );
        game_log!(
            log,
            "  {} on {}: {}",
            if pirates { "pirates" } else { "neutral attack" },
            s.map.cities[city].name,
            if r.taken { "taken" } else { "held" }
        );
        // The interceptor's cards: back to hand on a 6, else discarded; City Defence discarded.
        let mut order = Cards::default();
        military::interceptor_order(s, owner, defence.intercept.as_slice(), &mut order);
        for (i, &c) in order.as_slice().iter().enumerate() {
            self.return_or_discard(owner, c, r.recovered & (1 << i) != 0);
        }
        for &c in defence.defence.as_slice() {
            self.st.players[owner].discard.push(c);
        }
        self.st.add_vp(owner, r.vp[1] as i32);
        if r.taken {
            self.st.counts.raids_taken += 1;
            self.st.transfer(s, city, NEUTRAL);
        }
    }

    /// The straits a neutral city's land attack on `city` crosses: a neutral city one road or
    /// strait away, or linked through pacified areas only; the fewest straits.
    pub(super) fn neutral_source(&self, city: usize) -> Option<u8> {
        let s = self.s();
        let mut best: Option<u8> = None;
        for &(m, k) in &s.map.adjacent[city] {
            let strait = (k == super::scenario::EdgeKind::Strait) as u8;
            if s.map.is_city(m) {
                if self.st.owner[m] == NEUTRAL {
                    best = Some(best.map_or(strait, |b| b.min(strait)));
                }
            } else if self.st.pacified[s.map.area(m)] {
                // One pacified area between them (longer chains are not on the ring).
                for &(x, _) in &s.map.adjacent[m] {
                    if x != city && s.map.is_city(x) && self.st.owner[x] == NEUTRAL {
                        best = Some(0);
                    }
                }
            }
        }
        best
    }
}
