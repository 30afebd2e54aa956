//! The key of an expedition ([`Key`]): every thing its outcome depends on, in bytes of a
//! declared [`layout`], so the exact chain calculator's results can be kept by what an
//! expedition is made of. A key is the sum of three parts (the attacker's cards, the target and
//! its route, the defence), each a function of its own inputs, so a caller trying many targets
//! and card sets builds each part once.

use super::military::{Cards, Defence, Plan, MAX_KINDS};
use super::scenario::{Scenario, SPECIAL};
use super::state::{State, NEUTRAL};
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;

/// The layout of a [`Key`]: the byte (or first byte of a run of [`MAX_KINDS`] bytes, a count
/// per card kind) that holds each thing an expedition's outcome depends on. Declared once; every
/// reader and writer of a key goes through these names.
pub mod layout {
    use super::MAX_KINDS;
    /// A yes/no fact: a bit (the mask) of a byte shared with others.
    pub type Flag = (usize, u8);
    /// The attacker's deck; the defender's (when it intercepts).
    pub const ATTACKER_DECK: usize = 0;
    pub const DEFENDER_DECK: usize = 1;
    /// The attacker's Troop, Fleet and Leader cards by kind.
    pub const ATTACKER_KINDS: usize = 2;
    /// City Attack dice for the attacker in the assault (its own and the third parties').
    pub const ATTACK_DICE: usize = ATTACKER_KINDS + MAX_KINDS;
    /// By sea; by sea with a march after the naval leg.
    pub const NAVAL: Flag = (19, 1);
    pub const MARCH: Flag = (19, 2);
    /// Straits on the land legs.
    pub const STRAITS: usize = 20;
    /// The weather where the land legs have straits (the normal weather's byte where none:
    /// it reads nowhere else).
    pub const WEATHER: usize = 21;
    /// 0 or 1 (an empty front slot has 255 here): the attacker chose a direct assault where
    /// its fleets allow it.
    pub const DIRECT: usize = 22;
    pub const BARBARIAN: usize = 23;
    pub const SIZE: usize = 24;
    /// The city's defence dice with its City Defence dice (the defender's and the third
    /// parties'), or the barbarian area's dice.
    pub const TARGET_DICE: usize = 25;
    pub const PLAYER_OWNER: usize = 26;
    /// Special Event (X) dice in the expedition's card window for the attacker and for the
    /// defender (anyone's), played where the option `special_event_window` says.
    pub const SPECIAL_ATTACK: usize = 27;
    pub const SPECIAL_DEFENCE: usize = 45;
    /// The land interceptor's Troop cards by kind.
    pub const LAND_KINDS: usize = 28;
    /// A land interception; fought at the departure port, before the naval battle.
    pub const LAND_INTERCEPTED: Flag = (LAND_KINDS + MAX_KINDS, 1);
    pub const LAND_FIRST: Flag = (LAND_KINDS + MAX_KINDS, 2);
    pub const NAVAL_INTERCEPTED: Flag = (46, 1);
    /// The point the chain starts at in the low bits (0: the start, every key of a whole
    /// expedition), for a defender's exact chance from a later point (A-24 as reached); and
    /// whether the window's X dice were spent in a battle before it.
    pub const FROM: usize = 47;
    pub const FROM_MASK: u8 = 3;
    pub const SPENT: Flag = (FROM, 4);
    /// The naval interceptor's cards by kind.
    pub const NAVAL_KINDS: usize = 48;
    /// Bytes in use.
    pub const BYTES: usize = NAVAL_KINDS + MAX_KINDS;
}
pub use layout::*;

/// Words of a [`Key`].
const WORDS: usize = layout::BYTES.div_ceil(8);

/// An expedition's description: the bytes of its declared `layout` held in little-endian words, so a
/// lookup hashes and compares a few integers (an array's own `Hash` and `==` would go through
/// every byte), and written word by word (bytes stored one by one and read back as words stall).
#[derive(Clone, Copy, Debug, Eq)]
pub struct Key([u64; WORDS]);

impl Key {
    /// Adds `v` to byte `i` (no byte ever passes 255: no carry into the next).
    #[inline]
    pub(super) fn add(&mut self, i: usize, v: u8) {
        self.0[i / 8] += (v as u64) << (8 * (i % 8));
    }
    #[inline]
    pub(super) fn byte(&self, i: usize) -> u8 {
        (self.0[i / 8] >> (8 * (i % 8))) as u8
    }
    /// Sets flag `f` when `on` (each flag is set at most once per key).
    #[inline]
    pub(super) fn set(&mut self, f: Flag, on: bool) {
        if on {
            self.add(f.0, f.1);
        }
    }
    #[inline]
    pub(super) fn has(&self, f: Flag) -> bool {
        self.byte(f.0) & f.1 != 0
    }
    /// The key's words (a hash reads them).
    #[inline]
    pub(super) fn words(&self) -> &[u64; WORDS] {
        &self.0
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        (0..WORDS).fold(0, |diff, i| diff | (self.0[i] ^ other.0[i])) == 0
    }
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for &w in &self.0 {
            state.write_u64(w);
        }
    }
}

/// Everything an expedition's outcome depends on: the sum of its [`attacker_part`] (its cards),
/// its [`target_part`] (where it goes, how) and its [`defence_part`] (against what).
pub fn key(
    s: &Scenario,
    st: &State,
    attacker: usize,
    plan: &Plan,
    defence: &Defence,
    weather: Weather,
    direct: bool,
) -> Key {
    let holder = holder(s, st, plan.target);
    target_part(s, st, plan, weather, direct)
        .plus(&defence_part(s, holder, plan.naval, defence))
        .plus(&attacker_part(s, attacker, plan))
}

/// `key` of `plan` without its Troop and Fleet cards, for a caller that tries several card
/// sets on one target against one defence (`Cache::chance` on the full plan is the same lookup):
/// add the cards one by one with [`add_card`].
pub fn key_without_cards(
    s: &Scenario,
    st: &State,
    attacker: usize,
    plan: &Plan,
    defence: &Defence,
) -> Key {
    let bare = Plan {
        cards: Cards::default(),
        ..*plan
    };
    key(s, st, attacker, &bare, defence, st.weather, true)
}

/// Adds one Troop or Fleet card of `attacker`'s deck to an expedition's key (its kind's count
/// byte): the key of a plan is its key without cards plus each of its cards, in any order.
#[inline]
pub fn add_card(s: &Scenario, attacker: usize, k: &mut Key, c: u8) {
    let deck = &s.decks[s.empires[attacker].deck];
    k.add(ATTACKER_KINDS + deck.cards[c as usize] as usize, 1);
}

/// The key bytes `attacker`'s Troop and Fleet `cards` add (their kinds' counts), to add to a key
/// with [`Key::plus`]: the same as [`add_card`] of each card in turn.
pub fn cards_key(s: &Scenario, attacker: usize, cards: &[u8]) -> Key {
    let mut k = Key::ZERO;
    for &c in cards {
        add_card(s, attacker, &mut k, c);
    }
    k
}

impl Key {
    /// No bytes: the sum's zero.
    pub const ZERO: Key = Key([0; WORDS]);
    /// A key no expedition has (its [`DIRECT`] byte is 0 or 1): an empty slot of a table.
    pub const NONE: Key = Key([u64::MAX; WORDS]);

    /// This key with the bytes of `cards` ([`cards_key`]) added, word by word (no byte passes
    /// 255: no carry).
    #[inline]
    pub fn plus(&self, cards: &Key) -> Key {
        Key(std::array::from_fn(|i| self.0[i] + cards.0[i]))
    }
}

/// The attacker's part of [`key`]: its deck, its Troop, Fleet and Leader cards by kind, its
/// City Attack dice and its Special Event dice (to which [`defence_part`] adds the third
/// parties').
pub fn attacker_part(s: &Scenario, attacker: usize, plan: &Plan) -> Key {
    let mut k = Key::ZERO;
    let ad = s.empires[attacker].deck;
    k.add(ATTACKER_DECK, ad as u8);
    let deck = &s.decks[ad];
    for &c in plan.cards.as_slice().iter().chain(plan.leaders.as_slice()) {
        add_card(s, attacker, &mut k, c);
    }
    for &c in plan.attack.as_slice() {
        let kind = &deck.kinds[deck.cards[c as usize] as usize];
        let at = if kind.is(SPECIAL) {
            SPECIAL_ATTACK
        } else {
            ATTACK_DICE
        };
        k.add(at, kind.dice);
    }
    k
}

/// The target's and the route's part of [`key`]: by land or sea, the march, the straits, the
/// weather, the direct assault, the city's size and dice (or the barbarian area's dice); the
/// plan's cards are not read, nor who defends it.
#[inline]
pub fn target_part(s: &Scenario, st: &State, plan: &Plan, weather: Weather, direct: bool) -> Key {
    let mut k = Key::ZERO;
    k.set(NAVAL, plan.naval);
    k.set(MARCH, plan.naval && plan.march);
    k.add(STRAITS, plan.straits);
    // The weather reads only in the straits' rolls (`strait::strait_outcomes`, the chain's
    // strait loops): with none, every weather gives the same expedition, kept under one key.
    let weather = if plan.straits > 0 {
        weather
    } else {
        Weather::Normal
    };
    k.add(WEATHER, weather as u8);
    k.add(DIRECT, direct as u8);
    let t = plan.target;
    if s.map.is_city(t) {
        k.add(SIZE, s.map.cities[t].size);
        k.add(TARGET_DICE, city_dice(s, st, t));
    } else {
        k.add(BARBARIAN, 1);
        k.add(TARGET_DICE, area_dice(s, st, t));
    }
    k
}

/// The defence's part of [`key`] against a target held by `owner` ([`NEUTRAL`] for a neutral
/// city or a barbarian area), by sea when `naval`: the third parties' City Defence, City
/// Attack and Special Event dice, and the owner's own dice, land interceptor (and whether it
/// fights first) and, by sea, naval interceptor. The same for every target of one owner.
pub fn defence_part(s: &Scenario, owner: u8, naval: bool, defence: &Defence) -> Key {
    let mut k = Key::ZERO;
    k.add(ATTACK_DICE, defence.third_attack);
    k.add(SPECIAL_ATTACK, defence.special_attack);
    k.add(SPECIAL_DEFENCE, defence.special_defence);
    k.add(TARGET_DICE, defence.third_defence);
    if owner == NEUTRAL {
        return k;
    }
    let (defence_dice, special) = defence_dice(s, owner, defence);
    k.add(TARGET_DICE, defence_dice);
    k.add(SPECIAL_DEFENCE, special);
    k.add(PLAYER_OWNER, 1);
    let at_sea = naval && !defence.naval.is_empty();
    if !defence.intercept.is_empty() || at_sea {
        let deck = s.empires[owner as usize].deck;
        let dd = &s.decks[deck];
        k.add(DEFENDER_DECK, deck as u8);
        if !defence.intercept.is_empty() {
            k.set(LAND_INTERCEPTED, true);
            k.set(LAND_FIRST, naval && defence.land_first);
            for &c in defence.intercept.as_slice() {
                k.add(LAND_KINDS + dd.cards[c as usize] as usize, 1);
            }
        }
        if at_sea {
            k.set(NAVAL_INTERCEPTED, true);
            for &c in defence.naval.as_slice() {
                k.add(NAVAL_KINDS + dd.cards[c as usize] as usize, 1);
            }
        }
    }
    k
}

/// Who holds `target` as [`defence_part`] takes it: its owner for a city, [`NEUTRAL`] for a
/// barbarian area.
pub fn holder(s: &Scenario, st: &State, target: usize) -> u8 {
    if s.map.is_city(target) {
        st.owner[target]
    } else {
        NEUTRAL
    }
}

/// A city's defence dice (§3.6): size + markers + 1 for a capital held by its own empire.
#[inline]
pub fn city_dice(s: &Scenario, st: &State, city: usize) -> u8 {
    let own_capital =
        st.owner[city] != NEUTRAL && s.empires[st.owner[city] as usize].capital == city;
    s.map.cities[city].size + st.markers[city] + own_capital as u8
}

/// The dice `owner`'s own cards add to its city's assault: its City Defence cards' and its
/// Special Event cards' (those played where `special_event_window` says).
pub fn defence_dice(s: &Scenario, owner: u8, d: &Defence) -> (u8, u8) {
    if owner == NEUTRAL {
        return (0, 0);
    }
    let deck = &s.decks[s.empires[owner as usize].deck];
    let (mut defence, mut special) = (0, 0);
    for &c in d.defence.as_slice() {
        let kind = &deck.kinds[deck.cards[c as usize] as usize];
        if kind.is(SPECIAL) {
            special += kind.dice;
        } else {
            defence += kind.dice;
        }
    }
    (defence, special)
}

/// A barbarian area's dice: printed strength + Enraged level (§3.8).
pub fn area_dice(s: &Scenario, st: &State, node: usize) -> u8 {
    s.map.areas[s.map.area(node)].strength + st.enraged
}
