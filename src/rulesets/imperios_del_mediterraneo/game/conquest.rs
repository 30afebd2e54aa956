//! An expedition declared and resolved (digest §3.1-§3.9): the cards committed and what comes
//! back, the calculator's chain played, the VP, the conquest, and a won pacification's recovery
//! rolls and Pacification table result.

use super::military::{self, Cards, Defence, Plan};
use super::policy::Policy;
use super::scenario::{EffectKind, Pacification, Timing, FLEET, SPECIAL, TROOP};
use super::state::NEUTRAL;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::imperios_del_mediterraneo::battle::{
    barbarian_casualty_count, pacify_recovery, PacifyRecovery,
};
use crate::rulesets::imperios_del_mediterraneo::expedition::Fail;

impl Play<'_> {
    /// Declares and resolves an expedition; returns whether it was wrecked at a strait.
    pub(super) fn expedition(
        &mut self,
        p: usize,
        plan: Plan,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let plan = if plan.through.n > 0 {
            match self.ask_passage(p, plan, dice) {
                Some(plan) => plan,
                // Cancelled: its cards never left the hand.
                None => return false,
            }
        } else {
            plan
        };
        let s = self.s();
        self.st.counts.expeditions += 1;
        self.take_from_hand(p, &plan.cards);
        self.take_from_hand(p, &plan.leaders);
        self.take_from_hand(p, &plan.attack);
        let t = plan.target;
        let owner = if s.map.is_city(t) {
            self.st.owner[t]
        } else {
            NEUTRAL
        };
        let defender = (owner != NEUTRAL && owner as usize != p).then_some(owner as usize);
        if let Some(q) = defender {
            if t != s.empires[p].capital {
                let c = &mut self.st.counts;
                c.empire_attacks += 1;
                c.empire_attacks_by[p] += 1;
                if self.leads_others(q, p) {
                    self.st.counts.leader_attacks_by[p] += 1;
                }
            }
        }
        let as_reached = self.game.rules.intercept_as_reached;
        let mut reach = None;
        let mut defence = match defender {
            // A-24 as reached: only the City Defence cards now; where the interceptors can go
            // (8.3's owners asked) now, whether they go as the expedition reaches each point.
            Some(q) if as_reached => {
                let d = Defence {
                    defence: self.defence_cards(q, dice),
                    ..Defence::default()
                };
                reach = self.interception_reach(q, t, Some((p, &plan)), dice);
                d
            }
            Some(q) => self.choose_defence(q, t, Some((p, &plan)), dice),
            None => Defence::default(),
        };
        if let Some(q) = defender {
            self.take_from_hand(q, &defence.intercept);
            self.take_from_hand(q, &defence.naval);
            self.take_from_hand(q, &defence.defence);
            self.interceptor_straits(q, &mut defence, dice);
        }
        // Third parties play in an assault's window and in a pacification's (§3.8: a field
        // battle, its X cards only).
        let assault = s.map.is_city(t);
        {
            self.third_parties(p, defender, &mut defence, !assault);
            if s.empires.iter().any(|e| s.decks[e.deck].has_effects) {
                self.count_special(p, defender, &plan, &defence);
            }
        }
        let played = match defender {
            Some(q) if as_reached => self.play_as_reached(p, q, &plan, &mut defence, reach, dice),
            _ => self.cache.play(
                s,
                &self.st,
                &self.game.rules.options,
                p,
                &plan,
                &defence,
                dice,
            ),
        };
        game_log!(
            log,
            "  {} attacks {} with {} cards: {:?}",
            self.game.players[p],
            s.map.node_name(t),
            plan.cards.len(),
            played.failed
        );
        // The attacker's cards: those lost in battle and recovered go back, the rest are
        // discarded; cards never brought into a combat go back.
        let mut order = Cards::default();
        military::calculator_order(s, s.empires[p].deck, plan.cards.as_slice(), &mut order);
        let wrecked = played.failed == Some(Fail::Wrecked);
        let reached_target = matches!(played.failed, None | Some(Fail::Target));
        // A pacification is a field battle: its casualty and recovery rolls (the chain
        // calculator stops at the roll-off's winner and margin).
        let (pacify_back, pacify_leaders) = if reached_target && !s.map.is_city(t) {
            let area = super::key::area_dice(s, &self.st, t) as u32;
            let won = played.failed.is_none();
            let leaders = if played.leaders_at_target {
                plan.leaders.len() as u32
            } else {
                0
            };
            self.pacification_recovery(p, &order, played.alive_at_target, leaders, won, area, dice)
        } else {
            (0, 0)
        };
        for (i, &c) in order.as_slice().iter().enumerate() {
            let back = (played.recovered | pacify_back) & (1 << i) != 0;
            self.return_or_discard(p, c, back);
        }
        let fought = played.intercepted[0] || played.intercepted[1] || reached_target;
        let leaders_back = played.leaders_recovered + pacify_leaders;
        for (i, &c) in plan.leaders.as_slice().iter().enumerate() {
            self.return_or_discard(p, c, !fought || (i as u32) < leaders_back);
        }
        for &c in plan.attack.as_slice() {
            self.window_card_done(p, c, reached_target, played.special_battle, dice);
        }
        self.third_parties_done(p, reached_target, played.special_battle, dice);
        if let Some(q) = defender {
            let mut order = Cards::default();
            military::interceptor_order(s, q, defence.intercept.as_slice(), &mut order);
            for (i, &c) in order.as_slice().iter().enumerate() {
                // A fled interceptor (the flee hook), or one the expedition never met (it
                // failed before, or assaulted straight from the ships), takes its cards home.
                let back = played.fled
                    || !played.intercepted[1]
                    || played.interceptor_recovered[1] & (1 << i) != 0;
                self.return_or_discard(q, c, back);
            }
            // The naval interceptor, in the calculator's order (troops, then fleets, by kind);
            // never fought (the expedition ended before the sea), its cards go home.
            military::interceptor_order(s, q, defence.naval.as_slice(), &mut order);
            for (i, &c) in order.as_slice().iter().enumerate() {
                let back =
                    !played.intercepted[0] || played.interceptor_recovered[0] & (1 << i) != 0;
                self.return_or_discard(q, c, back);
            }
            for &c in defence.defence.as_slice() {
                self.window_card_done(q, c, reached_target, played.special_battle, dice);
            }
            self.st.add_vp(q, played.vp[1] as i32);
            // The end-of-combat hook of an interceptor that won its battle: its cards' VP and
            // draws (every card of an interceptor fights to the resolution).
            let won = match played.failed {
                Some(Fail::OnLand) if !played.fled => Some(defence.intercept),
                Some(Fail::AtSea) => Some(defence.naval),
                _ => None,
            };
            if let Some(cards) = won.filter(|_| s.decks[s.empires[q].deck].has_effects) {
                let fired = self.st.counts.interceptor_texts;
                self.interceptor_end_of_combat(q, &cards);
                if played.failed == Some(Fail::AtSea) {
                    self.st.counts.naval_interceptor_texts +=
                        self.st.counts.interceptor_texts - fired;
                }
            }
        }
        if wrecked {
            self.st.counts.wrecks += 1;
        }
        let c = &mut self.st.counts;
        c.attacker_cards_killed += played.killed.count_ones();
        c.naval_interceptions += played.intercepted[0] as u32;
        c.departure_interceptions += (played.intercepted[1] && defence.land_first) as u32;
        c.marches += (plan.naval && plan.march) as u32;
        if s.decks[s.empires[p].deck].has_effects {
            // The end-of-combat hook of each interception battle the attacker won (its VP are
            // the calculator's, in `played.vp`), then of a won assault or pacification.
            for fought in played.won_battle_cards {
                if fought != 0 && self.end_of_combat_draws(p, &order, fought) {
                    self.st.counts.attacker_battle_texts += 1;
                }
            }
            if played.failed.is_none() {
                self.end_of_combat_draws(p, &order, played.fought_at_target);
            }
        }
        self.st.add_vp(p, played.vp[0] as i32);
        if played.failed.is_none() {
            if s.map.is_city(t) {
                self.st.counts.conquests += 1;
                self.st.transfer(s, t, p as u8);
            } else {
                self.pacify(p, t, played.margin, dice);
            }
        }
        wrecked
    }

    /// Counts the Special Event (X) cards committed to this assault's or pacification's window.
    fn count_special(&mut self, p: usize, defender: Option<usize>, plan: &Plan, d: &Defence) {
        let s = self.s();
        let x = |q: usize, cards: &[u8]| {
            cards
                .iter()
                .filter(|&&c| military::is(s, q, c, SPECIAL))
                .count() as u32
        };
        let mut n = x(p, plan.attack.as_slice());
        if let Some(q) = defender {
            n += x(q, d.defence.as_slice());
        }
        for r in 0..self.n() {
            n += x(r, self.third[r].as_slice());
        }
        self.st.counts.special_cards += n;
        if !s.map.is_city(plan.target) {
            self.st.counts.pacification_special_cards += n;
        }
    }

    /// Optional rule 8.3: `p` asks each owner of a city its route passes, once and in route
    /// order; the expedition goes on as declared if all grant passage. At the first refusal it
    /// attacks the refusing city instead (its route cut there: the full sequence against that
    /// city) or is cancelled (None).
    pub(super) fn ask_passage(&mut self, p: usize, plan: Plan, dice: &mut Dice) -> Option<Plan> {
        let t = plan.through;
        let mut asked = 0u32;
        for i in 0..t.n as usize {
            let c = t.cities[i] as usize;
            let o = self.st.owner[c];
            if o == NEUTRAL || o as usize == p || asked & (1 << o) != 0 {
                continue;
            }
            asked |= 1 << o;
            if self.grants_passage(o as usize, p, dice) {
                self.st.counts.passages_granted += 1;
                continue;
            }
            self.st.counts.passages_refused += 1;
            let attack = Plan {
                target: c,
                straits: t.straits[i],
                through: military::Through::default(),
                ..plan
            };
            if self.attacks_refusal(p, &attack, dice) {
                self.st.counts.refusals_attacked += 1;
                return Some(attack);
            }
            self.st.counts.refusals_cancelled += 1;
            return None;
        }
        Some(plan)
    }

    /// Whether `owner` grants `asker` passage (8.3): the scripted players when the asker has
    /// at most `passage` VP more; the random player on a coin.
    pub(super) fn grants_passage(&mut self, owner: usize, asker: usize, dice: &mut Dice) -> bool {
        match self.pol[owner] {
            Policy::Scripted(g) => {
                self.st.players[asker].vp as f64 - self.st.players[owner].vp as f64 <= g.passage
            }
            _ => dice.below(2) == 0,
        }
    }

    /// Refused passage, whether `p` attacks the refusing city with the expedition's cards: the
    /// scripted players when that attack passes their θ and τ by the exact chain; the random
    /// player on a coin.
    fn attacks_refusal(&mut self, p: usize, attack: &Plan, dice: &mut Dice) -> bool {
        match self.pol[p] {
            Policy::Scripted(g) => {
                let defence = self.predicted_defence(attack.target, &g);
                let s = self.s();
                let options = &self.game.rules.options;
                let (chance, vp) = self.cache.chance(s, &self.st, options, p, attack, &defence);
                let spent = attack.cards.len() + attack.leaders.len() + attack.attack.len();
                chance >= g.theta && vp - g.card_cost * spent as f64 >= g.tau
            }
            _ => dice.below(2) == 0,
        }
    }

    /// The end-of-combat hook of a combat the attacker won (an interception battle, the assault
    /// or the pacification), in the game: the draws its fighting cards' texts give their owner
    /// (their VP are the calculator's, in its VP).
    /// Returns whether any of those cards has an end-of-combat text (VP or draws).
    pub(super) fn end_of_combat_draws(&mut self, p: usize, order: &Cards, fought: u32) -> bool {
        let s = self.s();
        let deck = &s.decks[s.empires[p].deck];
        let mut draws = 0;
        let mut fired = false;
        for (i, &c) in order.as_slice().iter().enumerate() {
            if fought & (1 << i) != 0 {
                let k = &deck.kinds[deck.cards[c as usize] as usize];
                let n = k.effect(EffectKind::DrawCards, Timing::OnEndOfCombat) as usize;
                draws += n;
                fired |= n > 0 || k.effect(EffectKind::VictoryPoints, Timing::OnEndOfCombat) > 0;
            }
        }
        self.st.draw(p, draws);
        fired
    }

    /// The end-of-combat texts of a winning interceptor's cards: their VP and draws to `q`.
    pub(super) fn interceptor_end_of_combat(&mut self, q: usize, cards: &Cards) {
        let s = self.s();
        let deck = &s.decks[s.empires[q].deck];
        let (mut vp, mut draws) = (0, 0);
        for &c in cards.as_slice() {
            let k = &deck.kinds[deck.cards[c as usize] as usize];
            vp += k.effect(EffectKind::VictoryPoints, Timing::OnEndOfCombat) as i32;
            draws += k.effect(EffectKind::DrawCards, Timing::OnEndOfCombat) as usize;
        }
        self.st.add_vp(q, vp);
        self.st.draw(q, draws);
        self.st.counts.interceptor_texts += (vp > 0 || draws > 0) as u32;
    }

    /// The recovery rolls of a pacification battle (§3.8) by the battle code's rule
    /// ([`pacify_recovery`]): the winner's casualty roll (a uniform fighting Troop card on the
    /// area's 1d6 <= its count, A-29) and that card's roll, or every card's roll (a lost battle;
    /// the survivors too under A-38's other reading). `order`: the expedition's cards as the
    /// calculator numbers them; `alive`: those that reached the area; `leaders`: the leaders
    /// there. Returns the cards (bits of `order`) and the number of leaders back in hand.
    #[allow(clippy::too_many_arguments)]
    pub fn pacification_recovery(
        &self,
        p: usize,
        order: &Cards,
        alive: u32,
        leaders: u32,
        won: bool,
        area_dice: u32,
        dice: &mut Dice,
    ) -> (u32, u32) {
        let s = self.s();
        let rules = &self.game.rules;
        let rule = pacify_recovery(
            won,
            rules.pacify_survivors_recover,
            rules.aside_fleets_recover,
        );
        let deck = &s.decks[s.empires[p].deck];
        let kind = |c: u8| &deck.kinds[deck.cards[c as usize] as usize];
        // The recovery hook: a card's text may lower the roll that brings it back.
        let recover_from = |c: u8| {
            if deck.has_effects {
                military::card_text(kind(c)).recover_from
            } else {
                6
            }
        };
        let mut back = 0u32;
        let mut leaders_back = 0;
        if rule == PacifyRecovery::Casualty {
            let mut fighting = [0usize; military::MAX_PLAN];
            let mut n = 0;
            for (i, &c) in order.as_slice().iter().enumerate() {
                if alive & (1 << i) != 0 && kind(c).is(TROOP) && kind(c).field.usable() {
                    fighting[n] = i;
                    n += 1;
                }
            }
            let count = barbarian_casualty_count(area_dice, &rules.options);
            if n > 0 && dice.d(6) <= count {
                let i = fighting[dice.below(n as u64) as usize];
                if dice.d(6) >= recover_from(order.ids[i]) {
                    back |= 1 << i;
                }
            }
            return (back, 0);
        }
        for (i, &c) in order.as_slice().iter().enumerate() {
            let rolls = rule == PacifyRecovery::Every || !kind(c).is(FLEET);
            if alive & (1 << i) != 0 && rolls && dice.d(6) >= recover_from(c) {
                back |= 1 << i;
            }
        }
        for _ in 0..leaders {
            leaders_back += (dice.d(6) == 6) as u32;
        }
        (back, leaders_back)
    }

    /// A won pacification (§3.8): the marker, the Pacification table's result.
    pub(super) fn pacify(&mut self, p: usize, node: usize, margin: i32, dice: &mut Dice) {
        let s = self.s();
        self.st.counts.pacifications += 1;
        if self.st.pacified_reserve > 0 {
            self.st.pacified_reserve -= 1;
            self.st.set_pacified(s.map.area(node), true);
        }
        let result = s
            .tables
            .pacification(dice.d(6), margin, self.st.enraged as u32);
        let (mut vp, cards) = result.reward();
        match result {
            // +2 and a random discard, or +1 (the random player flips a coin).
            Pacification::HardCampaign
                if !self.st.players[p].hand.is_empty()
                    && match self.pol[p] {
                        // The 1 VP when the hand is worth more than 1 VP a card (§6.3).
                        Policy::Scripted(g) => g.card_worth(self.st.players[p].hand.len()) < 1.0,
                        _ => dice.below(2) == 0,
                    } =>
            {
                vp = 2;
                let len = self.st.players[p].hand.len();
                let i = dice.below(len as u64) as usize;
                self.st.discard_at(p, i);
            }
            Pacification::Migration => {
                // Remove, if possible, a pacified marker from a connected area (A-40: the first).
                if let Some(&(m, _)) = s.map.adjacent[node]
                    .iter()
                    .find(|&&(m, _)| !s.map.is_city(m) && self.st.pacified[s.map.area(m)])
                {
                    self.st.set_pacified(s.map.area(m), false);
                    self.st.pacified_reserve += 1;
                }
            }
            Pacification::InstillFear => {
                // An extra marker on a connected hostile area, when there is one.
                if let Some(&(m, _)) = s.map.adjacent[node]
                    .iter()
                    .find(|&&(m, _)| !s.map.is_city(m) && !self.st.pacified[s.map.area(m)])
                {
                    if self.st.pacified_reserve > 0 {
                        self.st.pacified_reserve -= 1;
                        self.st.set_pacified(s.map.area(m), true);
                    }
                }
            }
            _ => {}
        }
        self.st.add_vp(p, vp);
        self.st.draw(p, cards as usize);
    }
}
