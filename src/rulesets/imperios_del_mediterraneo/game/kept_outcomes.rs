//! One target's part of a scripted player's scan ([`Play::scan`]): each count of its troops
//! (with the fleets to carry them by sea) through the exact chain calculator, and what that
//! comes to ([`Outcome`]). The same target, hand and defence come back often (every player of a
//! mirror ring meets the same boards), so the outcome is kept in a small direct-mapped table per
//! worker ([`Outcomes`]) by everything it is a function of: the expedition's key without troops
//! and fleets, the kinds of the troops tried and of the fleets that may carry them, the card
//! budget, the cards that go with every count, and the policy's parameters and bonus. A slot
//! holds its whole key, so a collision is a miss, never a wrong answer; the table is allocated
//! once and bounded (a map of every outcome met grew to 200,000 entries, saved instructions and
//! lost time to memory stalls).

use super::key::{self, Key};
use super::military::{Cards, Defence, Plan, MAX_PLAN};
use super::policy::{Scripted, Style};
use super::scenario::Scenario;
use super::turn::Play;

/// Slots of the table: a power of two (the index is a hash's top bits). 32,768 slots of 128
/// bytes are 4 MiB a worker, in the shared cache (mirror ring, 20,000 games a case, user CPU
/// against main under load 6-8: 1,024 and 4,096 slots -3 to -5%, fewer kept than missed; 16,384
/// -7%; 32,768 and 65,536 -13%, the larger one for twice the memory).
const SLOTS: usize = 32_768;
/// Most sets of parameters the table tells apart; a new one past this empties it.
pub(super) const MAX_POLICIES: usize = 8;
/// Most troops (and fleets) whose kinds a table key holds, four bits each (a kind is below
/// `MAX_KINDS` = 16); a larger budget is computed each time.
pub(super) const MAX_KEPT_COUNT: usize = 8;

const _: () = assert!(super::military::MAX_KINDS <= 16, "a kind fits four bits");

/// One target's troop counts tried: the best value and its troops and fleets (value -inf and no
/// cards when no count was tried), and the first best value that passes θ and τ with its troops
/// and fleets (None: no count passes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub best: (f64, usize, usize),
    pub passing: Option<(f64, usize, usize)>,
}

/// One target of a scan, as [`Play::target_outcome`] tries it.
pub struct Target<'a> {
    /// The expedition's key without Troop and Fleet cards (`key::key_without_cards`).
    pub key: Key,
    /// The plan without Troop and Fleet cards, and the defence predicted against it.
    pub bare: &'a Plan,
    pub defence: &'a Defence,
    /// The troops in the order they are taken, and the fleets.
    pub troops: &'a Cards,
    pub fleets: &'a Cards,
    /// The kinds of the troops tried and of the fleets that may carry them ([`kinds_word`]).
    pub kinds: u64,
    /// By sea: for each count of troops, the fleets that carry them and their key bytes
    /// (`Play::carriers`); None by land.
    pub carriers: Option<&'a [Option<(usize, Key)>; MAX_PLAN + 1]>,
    pub budget: u32,
    pub is_city: bool,
    /// The policy's VP on top for a city ([`Style::Aggressor`]), and which of its bonuses that
    /// is (0: none, 1: a rival's city, 2: the VP leader's).
    pub bonus: f64,
    pub bonus_class: u8,
    /// The policy's place in the worker's table ([`Outcomes::policy`]; None: not kept).
    pub policy: Option<u8>,
}

/// A slot: the whole key of a kept outcome and the outcome (an empty slot's key is
/// [`Key::NONE`], which no expedition has). Two cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    key: Key,
    /// The troops' kinds and the fleets' kinds, four bits each.
    kinds: u64,
    /// How many troops and fleets `kinds` holds, the budget, the cards that go with every
    /// count, the policy's place in [`Outcomes::policies`] and the bonus class, a byte each.
    rest: u64,
    best: f64,
    passing: f64,
    /// The best's troops and fleets, the passing one's (troops 0: none passes).
    counts: [u8; 4],
}

const EMPTY: Slot = Slot {
    key: Key::NONE,
    kinds: 0,
    rest: 0,
    best: 0.0,
    passing: 0.0,
    counts: [0; 4],
};

/// The outcomes kept by a worker (with its expedition cache: every entry is a function of its
/// key, the decks and the rule options), allocated on first use.
#[derive(Default)]
pub struct Outcomes {
    slots: Vec<Slot>,
    /// The policies' parameters the outcomes were computed with (θ, τ, card cost, and the
    /// aggressor's two bonuses, as bits): a slot names one by its place.
    policies: Vec<[u64; 5]>,
    /// Outcomes found kept (tests check that some are, so their checks ran).
    pub hits: u64,
}

/// What of a policy its outcomes read: θ, τ, the card cost and its bonuses (as bits, so equal
/// means the same numbers).
fn policy_bits(g: &Scripted) -> [u64; 5] {
    let (rival, leader) = match g.style {
        Style::Aggressor { leader, rival } => (rival, leader),
        _ => (0.0, 0.0),
    };
    [g.theta, g.tau, g.card_cost, rival, leader].map(f64::to_bits)
}

impl Outcomes {
    /// The place of `g`'s parameters in the table's list, added if new (emptying the table
    /// when the list is full); None when the budget is too large for a key.
    pub fn policy(&mut self, g: &Scripted, budget: u32) -> Option<u8> {
        if budget as usize > MAX_KEPT_COUNT {
            return None;
        }
        if self.slots.is_empty() {
            self.slots = vec![EMPTY; SLOTS];
            self.policies = Vec::with_capacity(MAX_POLICIES);
        }
        let bits = policy_bits(g);
        if let Some(i) = self.policies.iter().position(|b| *b == bits) {
            return Some(i as u8);
        }
        if self.policies.len() == MAX_POLICIES {
            self.policies.clear();
            self.slots.fill(EMPTY);
        }
        self.policies.push(bits);
        Some(self.policies.len() as u8 - 1)
    }

    /// Slots holding an outcome.
    #[cfg(test)]
    pub(super) fn filled(&self) -> usize {
        self.slots.iter().filter(|s| s.key != Key::NONE).count()
    }
}

/// The kinds of `attacker`'s first `n` cards of `cards`, four bits each, first lowest.
fn kinds(s: &Scenario, attacker: usize, cards: &[u8], n: usize) -> u64 {
    let deck = &s.decks[s.empires[attacker].deck];
    cards[..n]
        .iter()
        .rev()
        .fold(0, |w, &c| w << 4 | deck.cards[c as usize] as u64)
}

/// The kinds of the troops `attacker` tries with `budget` cards and, by sea, of the fleets that
/// may carry them (those past the budget never do): [`Target::kinds`].
pub fn kinds_word(
    s: &Scenario,
    attacker: usize,
    troops: &Cards,
    fleets: Option<&Cards>,
    budget: u32,
) -> u64 {
    let n_troops = troops.len().min(budget as usize);
    let n_fleets = fleets.map_or(0, |f| f.len().min(budget as usize));
    kinds(s, attacker, troops.as_slice(), n_troops)
        | kinds(s, attacker, fleets.map_or(&[], |f| f.as_slice()), n_fleets) << 32
}

/// The rest of a table key ([`Slot::rest`]).
fn rest_word(t: &Target, policy: u8) -> u64 {
    let n_troops = t.troops.len().min(t.budget as usize);
    let n_fleets = if t.carriers.is_some() {
        t.fleets.len().min(t.budget as usize)
    } else {
        0
    };
    let extras = t.bare.leaders.len() + t.bare.attack.len();
    u64::from_le_bytes([
        n_troops as u8,
        n_fleets as u8,
        t.budget as u8,
        extras as u8,
        policy,
        t.bonus_class,
        0,
        0,
    ])
}

/// The slot of a table key: a multiplicative hash's top bits.
fn slot_of(k: &Key, kinds: u64, rest: u64) -> usize {
    let h = k.words().iter().chain([&kinds, &rest]).fold(0u64, |h, &w| {
        (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    });
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}

impl Play<'_> {
    /// [`Self::counts_outcome`] of target `t` in player `p`'s scan with policy `g`, kept in the
    /// worker's table (test builds compute it anyway and check the kept one).
    pub(super) fn target_outcome(&mut self, p: usize, g: &Scripted, t: &Target) -> Outcome {
        let Some(policy) = t.policy else {
            return self.counts_outcome(p, g, t);
        };
        let (kinds, rest) = (t.kinds, rest_word(t, policy));
        let i = slot_of(&t.key, kinds, rest);
        let slot = &self.cache.outcomes.slots[i];
        let kept = (slot.key == t.key && slot.kinds == kinds && slot.rest == rest).then(|| {
            let [bt, bf, pt, pf] = slot.counts.map(usize::from);
            Outcome {
                best: (slot.best, bt, bf),
                passing: (pt > 0).then_some((slot.passing, pt, pf)),
            }
        });
        if let Some(o) = kept {
            self.cache.outcomes.hits += 1;
            if !cfg!(test) {
                return o;
            }
        }
        let o = self.counts_outcome(p, g, t);
        if let Some(k) = kept {
            assert_eq!(k, o, "seat {p}: a kept target outcome is stale");
        }
        let (passing, pt, pf) = o.passing.unwrap_or((0.0, 0, 0));
        self.cache.outcomes.slots[i] = Slot {
            key: t.key,
            kinds,
            rest,
            best: o.best.0,
            passing,
            counts: [o.best.1 as u8, o.best.2 as u8, pt as u8, pf as u8],
        };
        o
    }

    /// Each count of target `t`'s troops, 1 to the budget (with the fleets that carry them by
    /// sea), through the exact chain: the value of each (expected VP and bonus less the cards
    /// spent) and what the counts come to.
    pub(super) fn counts_outcome(&mut self, p: usize, g: &Scripted, t: &Target) -> Outcome {
        let s = self.s();
        let with_cards = |n_troops: usize, n_fleets: usize| {
            let mut plan = *t.bare;
            let cards = t.troops.as_slice()[..n_troops].iter();
            for &c in cards.chain(&t.fleets.as_slice()[..n_fleets]) {
                plan.cards.push(c);
            }
            plan
        };
        let mut out = Outcome {
            best: (f64::NEG_INFINITY, 0, 0),
            passing: None,
        };
        // The cache key grows with the troops (see `key::add_card`).
        let mut troops_key = t.key;
        for n_troops in 1..=t.troops.len().min(t.budget as usize) {
            key::add_card(s, p, &mut troops_key, t.troops.as_slice()[n_troops - 1]);
            let (k, n_fleets) = match t.carriers {
                Some(carriers) => match &carriers[n_troops] {
                    Some((n_fleets, fleets_key)) => (troops_key.plus(fleets_key), *n_fleets),
                    None => continue,
                },
                None => (troops_key, 0),
            };
            // The plan itself only for a new expedition.
            let (chance, vp) = match self.cache.known(&k) {
                Some(e) => e,
                None => self.cache.chance_keyed(
                    &k,
                    s,
                    &self.st,
                    &self.game.rules.options,
                    p,
                    &with_cards(n_troops, n_fleets),
                    t.defence,
                ),
            };
            let reward = if t.is_city {
                t.bonus * chance
            } else {
                3.0 * chance
            };
            let spent = n_troops + n_fleets + t.bare.leaders.len() + t.bare.attack.len();
            let value = vp + reward - g.card_cost * spent as f64;
            // Within one target the first of equal values is kept (its tie key is the same).
            let better = out.passing.is_none_or(|(v, _, _)| value > v);
            if chance >= g.theta && value >= g.tau && better {
                out.passing = Some((value, n_troops, n_fleets));
            }
            if value > out.best.0 {
                out.best = (value, n_troops, n_fleets);
            }
        }
        out
    }
}
