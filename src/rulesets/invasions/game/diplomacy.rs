//! Diplomacy (XXX; digest §4.17) and the alliances it brings (XXVI; §4.13). Step 1.D: the
//! Civilized nations draw from the real deck (the rulebook's 18 cards), Kingdoms then Empires,
//! youngest first, a Kingdom its leader's diplomacy bonus, an Empire 1 + it; a draw from an empty
//! deck is lost. The cards whose mechanical effects the Area level can carry are played at once
//! (before any Military activation, as the rules require at the latest): *Tributus* (10 gold to a
//! threatening enemy for a one-turn non-aggression), *Unio* on a minor independent kingdom (a
//! D2 makes it the player's client) or as an alliance (alliances.rs), and *Matrimonium*,
//! *Mercenary*, *Foedus* and *Pactum* (diplomacy_cards.rs); *Corruption* waits in hand for a siege of the
//! nation's city. The rest stay in hand and, at End of Diplomacy, every unused
//! card is discarded for 1 gold; all cards go back to the deck (Q52; the option
//! `diplomacy_played_cards = "discarded"` keeps the played ones out for the rest of the game).

use super::policy::Policy;
use super::politics::Bond;
use super::procedures;
use super::state::{Phase, MAX_NATIONS, NONE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// Most diplomacy card kinds (the rulebook has 8).
pub const KINDS: usize = 8;
/// Most one-turn non-aggression pacts a turn holds.
pub const MAX_TRUCES: usize = 16;
/// *Tributus*: gold paid to the target (XXX.E).
pub const TRIBUTE_GOLD: i32 = 10;

/// Draws one card from `left` (cards of each kind still in the deck), each card equally likely;
/// `None` from an empty deck.
pub fn draw_card(left: &mut [u8; KINDS], dice: &mut Dice) -> Option<usize> {
    let total: u64 = left.iter().map(|&c| c as u64).sum();
    if total == 0 {
        return None;
    }
    let mut r = dice.below(total);
    for (k, c) in left.iter_mut().enumerate() {
        if r < *c as u64 {
            *c -= 1;
            return Some(k);
        }
        r -= *c as u64;
    }
    unreachable!("r < total")
}

/// The full deck as the scenario gives it, by kind (in the scenario's order).
pub fn full_deck(s: &super::scenario::Scenario) -> [u8; KINDS] {
    let mut deck = [0; KINDS];
    for (k, (_, c)) in s.diplomacy_deck.iter().enumerate().take(KINDS) {
        deck[k] = *c;
    }
    deck
}

/// The deck's kind named `name` (the scenario's `[diplomacy]` names), if it has one.
pub fn kind_named(s: &super::scenario::Scenario, name: &str) -> Option<usize> {
    s.diplomacy_deck.iter().position(|(n, _)| n == name)
}

impl Play<'_> {
    pub(super) fn invading(&self, n: usize) -> bool {
        let nation = &self.game.scenario.nations[n];
        self.st.status(n) == Some(Status::Barbarian)
            && (nation.entry_turn == self.st.turn || nation.active_from == self.st.turn)
    }

    /// Step 1.D: the draws in order, each card played at once where the policy wants it.
    pub fn diplomacy(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let s = &self.game.scenario;
        if s.diplomacy_deck.is_empty() {
            return;
        }
        let mut left = full_deck(s);
        for (l, out) in left.iter_mut().zip(self.st.cards_out) {
            *l -= out;
        }
        // No card changes a status or an age, so the order of the draws is fixed before the
        // first (checked in debug builds and tests): sorted once, not a scan of every nation
        // for each status and age.
        let (mut drawing, count) = self.drawers();
        for &(_, _, n) in &drawing[..count] {
            let n = n as usize;
            for _ in 0..self.diplomacy_draws(n) {
                let Some(k) = draw_card(&mut left, dice) else {
                    break;
                };
                self.st.counters.diplomacy_cards += 1;
                if !self.play_card(n, k, dice, log) {
                    self.st.nations[n].cards += 1;
                    self.st.nations[n].hand[k] += 1;
                } else if self.game.played_cards_discarded {
                    self.st.cards_out[k] += 1;
                }
            }
        }
        if super::totals::checking() {
            let after = self.drawers();
            drawing[count..].fill((0, 0, 0));
            assert_eq!(
                (drawing, count),
                after,
                "turn {}: Diplomacy's drawers changed while drawing",
                self.st.turn
            );
        }
    }

    /// Who draws diplomacy cards, in the rules' order: Kingdoms then Empires, youngest first
    /// (ages 1-12), then in nation order; as (Kingdom 0 or Empire 1, age, nation), the first
    /// `count`.
    fn drawers(&self) -> ([(u8, u8, u8); MAX_NATIONS], usize) {
        let mut drawing = [(0u8, 0u8, 0u8); MAX_NATIONS];
        let mut count = 0;
        for n in 0..self.st.nations.len() {
            let rank = match self.st.status(n) {
                Some(Status::Kingdom) => 0,
                Some(Status::Empire) => 1,
                _ => continue,
            };
            let age = self.st.nations[n].age;
            if (1..=12).contains(&age) && !self.game.inactive[n] {
                drawing[count] = (rank, age, n as u8);
                count += 1;
            }
        }
        drawing[..count].sort_unstable();
        (drawing, count)
    }

    /// Plays card `k` drawn by `n` if the policy wants it now; false when it stays in hand.
    pub fn play_card(
        &mut self,
        n: usize,
        k: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let s = &self.game.scenario;
        let is = |name: &str| kind_named(s, name) == Some(k);
        if is("tribute") {
            self.play_tribute(n, dice, log)
        } else if is("alliance") {
            self.play_alliance(n, dice, log)
        } else if is("marriage") {
            self.play_marriage(n, dice, log)
        } else if is("mercenary") {
            self.play_mercenary(n, dice, log)
        } else if is("foedus") {
            self.play_foedus_card(n, dice, log)
        } else if is("treaty") {
            self.play_pactum(n, dice, log)
        } else {
            // Corruption waits in hand for a siege (diplomacy_cards.rs); Nihil stays.
            false
        }
    }

    /// 3.B End of Diplomacy: every unused card is discarded for 1 gold; the pacts and alliances
    /// end with the turn (both Military activations are over).
    pub fn end_of_diplomacy(&mut self) {
        for n in 0..self.st.nations.len() {
            self.st.nations[n].hand = [0; KINDS];
            let cards = std::mem::take(&mut self.st.nations[n].cards);
            if cards > 0 {
                self.st.gain_gold(n, cards as i32);
            }
        }
        self.st.truce_count = 0;
        self.end_alliances();
    }

    /// Whether `a` and `b` have a one-turn non-aggression pact this turn.
    pub fn in_truce(&self, a: usize, b: usize) -> bool {
        super::politics::truce(&self.st, a, b)
    }

    /// The enemy (another player's nation in play, not invading, not inactive, not at peace with
    /// `n`) most threatening one of the Areas where `n` holds land: the most units in and next to
    /// the Area against `n`'s own there, and that ratio.
    pub(super) fn most_threatening(&self, n: usize) -> Option<(usize, f64)> {
        let g = self.game;
        let s = &g.scenario;
        // The Areas where `n` holds a province (the running totals), and those and their
        // neighbours: a nation with no unit there threatens none of them.
        let held = self.st.totals.areas_held[n];
        let mut near_held = held;
        let mut areas = held;
        while areas != 0 {
            let a = areas.trailing_zeros() as usize;
            areas &= areas - 1;
            for l in &s.areas[a].links {
                near_held |= 1 << l.to;
            }
        }
        let mut threat: Option<(usize, f64)> = None;
        for o in 0..self.st.nations.len() {
            if self.st.totals.unit_areas[o] & near_held == 0
                || g.player_of(o) == g.player_of(n)
                || self.st.status(o).is_none()
                || g.inactive[o]
                || self.invading(o)
                || super::politics::at_peace(&self.st, n, o)
            {
                continue;
            }
            let mut areas = held;
            while areas != 0 {
                let a = areas.trailing_zeros() as usize;
                areas &= areas - 1;
                let near: u32 = self.st.count(o, a)
                    + s.areas[a]
                        .links
                        .iter()
                        .map(|l| self.st.count(o, l.to as usize))
                        .sum::<u32>();
                let ratio = near as f64 / self.st.count(n, a).max(1) as f64;
                if near > 0 && threat.is_none_or(|t| ratio > t.1) {
                    threat = Some((o, ratio));
                }
            }
        }
        threat
    }

    /// *Tributus* (XXX.E): `n` pays 10 gold to the enemy most threatening one of its Areas
    /// ([`Self::most_threatening`]) when that threat is at least the policy's `tribute` and it
    /// can pay; the two are then mutually neutral until the turn's Military activations are over.
    fn play_tribute(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        if self.st.nations[n].treasury < TRIBUTE_GOLD || self.st.truce_count as usize >= MAX_TRUCES
        {
            return false;
        }
        let Some((o, ratio)) = self.most_threatening(n) else {
            return false;
        };
        let plays = match self.policy(n) {
            Policy::Scripted(p) => ratio >= p.tribute,
            Policy::Random => procedures::d2(dice),
        };
        if !plays {
            return false;
        }
        self.transfer_gold(n, o, TRIBUTE_GOLD);
        let k = self.st.truce_count as usize;
        self.st.truces[k] = (n as u8, o as u8);
        self.st.truce_count += 1;
        self.st.counters.truces += 1;
        game_log!(
            log,
            "{} pays {} {TRIBUTE_GOLD} gold for a truce (Tributus)",
            g.name(n),
            g.name(o)
        );
        true
    }

    /// *Unio* (XXX.B): on a minor independent kingdom (XXVII), a free RIM holding land in or next
    /// to an Area where `n` holds a province accepts on a D2 and becomes `n`'s client (so it
    /// pays its tribute this turn); with none, a one-turn alliance (XXVI, alliances.rs) offered
    /// to the enemy most threatening `n`'s land, which its player accepts as its policy's
    /// `alliance_accept` says (a random player on a D2).
    fn play_alliance(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let wants = match self.policy(n) {
            Policy::Scripted(p) => p.ally,
            Policy::Random => procedures::d2(dice),
        };
        if !wants || !super::politics::may_subjugate(&self.st, n) {
            return false;
        }
        let mut held = 0u64;
        for (p, &o) in self.st.owner.iter().enumerate() {
            if o == n as u8 {
                let a = s.provinces[p].area as usize;
                held |= 1 << a;
                for l in &s.areas[a].links {
                    held |= 1 << l.to;
                }
            }
        }
        let target = (0..self.st.nations.len()).find(|&t| {
            g.minor[t]
                && t != n
                && matches!(self.st.nations[t].phase, Phase::Active(_))
                && self.st.nations[t].bond == Bond::Free
                && self.st.nations[t].lord == NONE
                && self
                    .st
                    .owner
                    .iter()
                    .enumerate()
                    .any(|(p, &o)| o == t as u8 && held & (1 << s.provinces[p].area) != 0)
        });
        let Some(t) = target else {
            return self.offer_alliance(n, dice, log);
        };
        let accepted = procedures::d2(dice);
        game_log!(
            log,
            "{} offers {} an alliance (Unio): {}",
            g.name(n),
            g.name(t),
            if accepted { "accepted" } else { "refused" }
        );
        if accepted {
            self.submit(t, n, Bond::Client, log);
        }
        true
    }

    /// The alliance half of *Unio*: `n` (free to ally) offers it to the enemy most threatening
    /// its land (also free to ally); its player decides by its policy's `alliance_accept`, a random
    /// one on a D2. The card is played either way.
    fn offer_alliance(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        if !super::alliances::may_ally(&self.st, n) {
            return false;
        }
        let Some((t, _)) = self.most_threatening(n) else {
            return false;
        };
        if !super::alliances::may_ally(&self.st, t) {
            return false;
        }
        let accepted = match self.policy(t) {
            Policy::Scripted(p) => p.alliance_accept,
            Policy::Random => procedures::d2(dice),
        };
        let made = accepted && self.ally(n, t);
        game_log!(
            log,
            "{} offers {} an alliance (Unio): {}",
            g.name(n),
            g.name(t),
            if made { "accepted" } else { "refused" }
        );
        true
    }
}
