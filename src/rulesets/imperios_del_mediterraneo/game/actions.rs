//! The action phase (digest §4.3): a player's expeditions or pass, and the defender's answer
//! to an expedition or a raid (its interception, its City Defence cards, the straits of its
//! route).

use super::military::{self, Cards, Defence, Plan};
use super::policy::{Policy, Style};
use super::scenario::{EffectKind, Event, Timing, CITY_DEFENCE, EMPIRE, TROOP};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::rulesets::imperios_del_mediterraneo::strait::roll_strait;

impl Play<'_> {
    /// One action phase; returns whether the player did anything but pass.
    /// `given`: the first expedition (or a pass) already chosen (a search rollout's candidate).
    pub(super) fn action_phase(
        &mut self,
        p: usize,
        given: Option<Option<Plan>>,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        if self.st.players[p].hand.is_empty() {
            return false;
        }
        let ems = match self.st.event {
            Event::TimeForDiplomacy => 0,
            Event::CampaignSeason => 2,
            _ => 1,
        };
        if self.st.event == Event::TimeForDiplomacy && self.has_texts(p) {
            // Up to two Empire cards, one after the other; the random player flips a
            // coin for each.
            let mut acted = false;
            for _ in 0..2 {
                if !self.wants_empire_card(p, dice) || !self.play_empire_card(p) {
                    break;
                }
                acted = true;
            }
            return acted;
        }
        let mut acted = false;
        for k in 0..ems {
            let chosen = match given {
                Some(choice) if k == 0 => Some(choice),
                _ if k == 0 => self.search_choice(p, dice),
                _ => None,
            };
            let plan = match (chosen, self.pol[p]) {
                (Some(choice), _) => choice,
                (None, Policy::Scripted(g)) => self.greedy_plan(p, &g),
                (None, _) => self.random_plan(p, dice),
            };
            match plan {
                Some(plan) => {
                    acted = true;
                    let wrecked = self.expedition(p, plan, dice, log);
                    if self.st.sudden_winner.is_some()
                        || (wrecked && self.game.rules.wreck_ends_phase)
                    {
                        return true;
                    }
                }
                None => {
                    // No expedition: play an Empire card instead (not in Campaign season).
                    if k == 0
                        && ems == 1
                        && self.has_texts(p)
                        && self.wants_empire_card(p, dice)
                        && self.play_empire_card(p)
                    {
                        return true;
                    }
                    if k == 0
                        && chosen.is_none()
                        && self.pol[p] == Policy::Random
                        && dice.below(2) == 0
                    {
                        // Change one card: discard one, draw one (the draw is optional, A-18).
                        let len = self.st.players[p].hand.len();
                        let i = dice.below(len as u64) as usize;
                        self.st.discard_at(p, i);
                        self.st.draw(p, 1);
                        return true;
                    }
                    break;
                }
            }
        }
        acted
    }

    /// Whether `p`'s deck has card texts (the hooks are skipped for a vanilla deck).
    fn has_texts(&self, p: usize) -> bool {
        let s = self.s();
        s.decks[s.empires[p].deck].has_effects
    }

    /// Whether player `p` plays an Empire card now: it holds one, and (the random player) its
    /// coin says so; the scripted players always do, as their text is all it can give.
    fn wants_empire_card(&self, p: usize, dice: &mut Dice) -> bool {
        self.best_empire_card(p).is_some()
            && (matches!(self.pol[p], Policy::Scripted(_)) || dice.below(2) == 0)
    }

    /// The Empire card (by hand position) of `p`'s hand whose effect gives the most (a card
    /// drawn counted as the scripted player's card worth, else 1 VP).
    fn best_empire_card(&self, p: usize) -> Option<usize> {
        let s = self.s();
        let d = &s.decks[s.empires[p].deck];
        let hand = &self.st.players[p].hand;
        let worth = match self.pol[p] {
            Policy::Scripted(g) => g.card_worth(hand.len()),
            _ => 1.0,
        };
        let value = |c: u8| {
            let k = &d.kinds[d.cards[c as usize] as usize];
            k.effect(EffectKind::VictoryPoints, Timing::EmpireEffect) as f64
                + worth * k.effect(EffectKind::DrawCards, Timing::EmpireEffect) as f64
        };
        (0..hand.len())
            .filter(|&i| military::is(s, p, hand[i], EMPIRE))
            .max_by(|&a, &b| value(hand[a]).total_cmp(&value(hand[b])).then(b.cmp(&a)))
    }

    /// The empire_effect hook: the action "play one Empire card" (§4.3): its VP and draws,
    /// then it is discarded. False if `p` holds none.
    pub(super) fn play_empire_card(&mut self, p: usize) -> bool {
        let Some(i) = self.best_empire_card(p) else {
            return false;
        };
        let s = self.s();
        let d = &s.decks[s.empires[p].deck];
        let k = &d.kinds[d.cards[self.st.players[p].hand[i] as usize] as usize];
        let vp = k.effect(EffectKind::VictoryPoints, Timing::EmpireEffect) as i32;
        let draws = k.effect(EffectKind::DrawCards, Timing::EmpireEffect) as usize;
        self.st.discard_at(p, i);
        self.st.add_vp(p, vp);
        self.st.draw(p, draws);
        self.st.counts.empire_cards += 1;
        true
    }

    /// Removes these cards from the player's hand (they are in play).
    pub(super) fn take_from_hand(&mut self, p: usize, cards: &Cards) {
        let hand = &mut self.st.players[p].hand;
        for &c in cards.as_slice() {
            if let Some(i) = hand.iter().position(|&x| x == c) {
                hand.swap_remove(i);
            }
        }
    }

    pub(super) fn return_or_discard(&mut self, p: usize, c: u8, back: bool) {
        let pl = &mut self.st.players[p];
        if back {
            pl.hand.push(c);
        } else {
            pl.discard.push(c);
        }
    }

    /// Player `p`'s land reach from its capital, into `self.reach` (kept while no city changed
    /// hands and no area's pacification changed).
    pub(super) fn compute_reach(&mut self, p: usize) {
        let s = self.s();
        let nodes = s.map.nodes();
        let (owner, pacified) = &mut self.reach_from[p];
        if *owner == self.st.owner && *pacified == self.st.pacified {
            return;
        }
        owner.clone_from(&self.st.owner);
        pacified.clone_from(&self.st.pacified);
        self.st.land_reach(s, p, s.empires[p].capital);
        self.reach[p * nodes..(p + 1) * nodes].copy_from_slice(&self.st.reach);
    }

    /// The defender's choice against an attack on its city: intercept by land at the city with
    /// its best troops (the scripted player, when it holds its capital and can reach the city;
    /// P2 only when that lowers the attacker's chance of `attack` by its delta), and its City
    /// Defence cards for the assault.
    pub(super) fn choose_defence(
        &mut self,
        q: usize,
        city: usize,
        attack: Option<(usize, &Plan)>,
        dice: &mut Dice,
    ) -> Defence {
        let s = self.s();
        let mut d = Defence {
            defence: self.defence_cards(q, dice),
            ..Defence::default()
        };
        if !self.st.holds_capital(s, q) {
            return d; // no interception without the capital.
        }
        self.compute_reach(q);
        let straits = self.reach[q * s.map.nodes() + city];
        if straits == u8::MAX {
            return d;
        }
        d.straits = straits;
        let hand = &self.st.players[q].hand;
        match self.pol[q] {
            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                if dice.below(2) == 0 {
                    for &c in hand {
                        if military::is(s, q, c, TROOP) && dice.below(2) == 0 {
                            d.intercept.push(c);
                        }
                    }
                }
            }
            Policy::Scripted(g) => {
                let mut troops = Cards::default();
                military::strongest_first(s, q, hand, TROOP, false, &mut troops);
                for &c in troops.as_slice().iter().take(g.max_cards as usize) {
                    d.intercept.push(c);
                }
                if let (Style::Turtle { delta, .. }, Some((a, plan))) = (g.style, attack) {
                    if !d.intercept.is_empty() && !self.interception_pays(a, plan, &d, delta) {
                        d.intercept = Cards::default();
                    }
                }
            }
        }
        d
    }

    pub(super) fn defence_cards(&self, q: usize, dice: &mut Dice) -> Cards {
        let s = self.s();
        let mut out = Cards::default();
        for &c in &self.st.players[q].hand {
            if military::is(s, q, c, CITY_DEFENCE)
                && (matches!(self.pol[q], Policy::Scripted(_)) || dice.below(2) == 0)
            {
                out.push(c);
            }
        }
        out
    }

    /// The interceptor rolls for the straits of its own route: lost cards are discarded.
    pub(super) fn interceptor_straits(&mut self, q: usize, d: &mut Defence, dice: &mut Dice) {
        for _ in 0..d.straits {
            if d.intercept.is_empty() {
                return;
            }
            match roll_strait(
                dice,
                self.st.weather,
                self.game.rules.options.int("bad_weather_wreck_ones") as u32,
            ) {
                None => {
                    for &c in d.intercept.as_slice() {
                        self.st.players[q].discard.push(c);
                    }
                    d.intercept = Cards::default();
                }
                Some(lost) => {
                    for _ in 0..lost {
                        if d.intercept.is_empty() {
                            break;
                        }
                        let i = dice.below(d.intercept.len() as u64) as usize;
                        let c = d.intercept.ids[i];
                        d.intercept.ids[i] = d.intercept.ids[d.intercept.len() - 1];
                        d.intercept.n -= 1;
                        self.st.players[q].discard.push(c);
                    }
                }
            }
        }
    }
}
