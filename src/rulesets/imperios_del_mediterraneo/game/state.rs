//! The state of one game (digest §2, §4): every player's VP, hand, draw pile and discard pile,
//! the owner and fortification markers of every city, the pacified areas, and the round's event.
//! Buffers are sized once per worker and reset for every game.

use super::scenario::{EdgeKind, Event, Scenario};
use super::Rules;
use crate::dice::Dice;
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where every [`State::map_version`] is drawn from: one counter for the whole process, so a
/// number is never given twice (a search restores copies of older states, and two workers'
/// states must not share a number by chance). 0 is never drawn: "nothing computed yet".
static MAP_VERSIONS: AtomicU64 = AtomicU64::new(1);

/// The owner of a city that holds neutral markers.
pub const NEUTRAL: u8 = u8::MAX;
/// Fortification markers per empire (L217-L218).
pub const MARKERS_PER_EMPIRE: u8 = 32;
/// Neutral fortification markers in the box (L219).
pub const NEUTRAL_MARKERS: u8 = 50;
/// Pacified-area markers in the box (L219-L220).
pub const PACIFIED_MARKERS: u8 = 25;
/// Every player starts at 10 VP (L282).
pub const START_VP: i32 = 10;
/// The Enraged Barbarians marker's top.
pub const MAX_ENRAGED: u8 = 3;

#[derive(Clone, Debug, Default)]
pub struct Player {
    pub vp: i32,
    /// Card indices into the player's deck.
    pub hand: Vec<u8>,
    pub draw: Vec<u8>,
    pub discard: Vec<u8>,
    /// Fortification markers not on the map.
    pub reserve: u8,
    /// Cities at the start of the turn (the progression baseline, L529-L531).
    pub start_cities: u8,
    /// The hand the next refill aims at: base ± the end-of-turn extras.
    pub hand_target: u8,
    pub passed: bool,
}

#[derive(Clone, Debug)]
pub struct State {
    pub players: Vec<Player>,
    /// Each city's owner and each area's pacification: changed only through
    /// [`State::set_owner`], [`State::set_pacified`] or [`State::map_changed`], which draw a
    /// new [`State::map_version`].
    pub owner: Vec<u8>,
    pub markers: Vec<u8>,
    pub pacified: Vec<bool>,
    /// A number for the current `owner` and `pacified`, new at each change of either (never
    /// reused, see `MAP_VERSIONS`; a copy of the state keeps its number with its contents):
    /// what is derived from them alone (the land reach, the targets) is kept while it is equal.
    pub map_version: u64,
    pub neutral_reserve: u8,
    pub pacified_reserve: u8,
    pub enraged: u8,
    pub weather: Weather,
    pub event: Event,
    pub turn: u8,
    pub round: u8,
    /// Where the game is inside a turn, so a copy of the state can play on from there (the
    /// search player's rollouts): the seat (a place in the game's seat order) that starts every
    /// round, the next seat to act in this round, whether everyone passed so far this round and
    /// in the previous one, the rounds played this turn.
    pub first: u8,
    pub seat: u8,
    pub round_passed: bool,
    pub prev_passed: bool,
    pub rounds_in_turn: u8,
    /// The player who reached the automatic-victory city count, if any.
    pub sudden_winner: Option<u8>,
    /// Counters for the per-game columns.
    pub counts: Counts,
    /// A scratch list for reachability (per node: straits on the best route, or u8::MAX).
    pub reach: Vec<u8>,
    pub queue: Vec<usize>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub rounds: u32,
    pub expeditions: u32,
    /// Expeditions against another empire's city (not the attacker's own lost capital).
    pub empire_attacks: u32,
    /// Per attacker: its expeditions against another empire's city, and of those the ones
    /// against a VP leader among the others (at declaration).
    pub empire_attacks_by: [u16; 8],
    pub leader_attacks_by: [u16; 8],
    pub conquests: u32,
    pub pacifications: u32,
    pub wrecks: u32,
    pub raids_taken: u32,
    /// Empire cards played as actions (decks with effects only).
    pub empire_cards: u32,
    /// Interceptions fought: at sea, and on land at the departure port before the sea; and
    /// expeditions declared by sea with a march after the naval leg.
    pub naval_interceptions: u32,
    pub departure_interceptions: u32,
    pub marches: u32,
    /// Optional rule 8.3: owners asked for passage who granted it, who refused it; refusals
    /// answered by an attack on the refusing city, by cancelling; interceptions given up on a
    /// refusal.
    pub passages_granted: u32,
    pub passages_refused: u32,
    pub refusals_attacked: u32,
    pub refusals_cancelled: u32,
    pub interceptions_refused: u32,
    /// City Defence and City Attack cards played by third parties in others' assaults (§4.9).
    pub third_party_cards: u32,
    /// Special Event (X) cards committed to an assault's window by anyone.
    pub special_cards: u32,
    /// Interceptors whose won battle fired their cards' end-of-combat texts.
    pub interceptor_texts: u32,
    /// Interception battles won by an attacker whose fighting cards have end-of-combat texts
    /// (VP or draws) that fired.
    pub attacker_battle_texts: u32,
    /// Attacking cards a land interceptor's start-of-battle texts killed.
    pub attacker_cards_killed: u32,
    /// Naval interceptors whose won battle fired their cards' end-of-combat texts.
    pub naval_interceptor_texts: u32,
    /// Special Event (X) cards committed to a pacification's window by anyone.
    pub pacification_special_cards: u32,
    /// Special Event (X) cards (anyone's) played in an interception's naval or field battle
    /// (option special_event_window = "first-battle"), of them at sea, and of them back in
    /// their owner's hand on the recovery roll.
    pub battle_special_cards: u32,
    pub naval_special_cards: u32,
    pub special_recovered: u32,
}

fn next_map_version() -> u64 {
    MAP_VERSIONS.fetch_add(1, Ordering::Relaxed)
}

pub fn shuffle(dice: &mut Dice, items: &mut [u8]) {
    for i in (1..items.len()).rev() {
        let j = dice.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

impl State {
    pub fn new(s: &Scenario) -> State {
        let n = s.empires.len();
        let deck = |p: usize| s.decks[s.empires[p].deck].cards.len();
        State {
            players: (0..n)
                .map(|p| Player {
                    hand: Vec::with_capacity(deck(p)),
                    draw: Vec::with_capacity(deck(p)),
                    discard: Vec::with_capacity(deck(p)),
                    ..Player::default()
                })
                .collect(),
            owner: vec![NEUTRAL; s.map.cities.len()],
            markers: vec![0; s.map.cities.len()],
            pacified: vec![false; s.map.areas.len()],
            map_version: next_map_version(),
            neutral_reserve: NEUTRAL_MARKERS,
            pacified_reserve: PACIFIED_MARKERS,
            enraged: 0,
            weather: Weather::Normal,
            event: Event::Prosperity,
            turn: 1,
            round: 1,
            first: 0,
            seat: 0,
            round_passed: false,
            prev_passed: false,
            rounds_in_turn: 0,
            sudden_winner: None,
            counts: Counts::default(),
            reach: vec![u8::MAX; s.map.nodes()],
            queue: Vec::with_capacity(s.map.nodes()),
        }
    }

    /// Back to the start of a game: tracks (L282-L284), capitals, decks shuffled; the empire
    /// building and the deal are the caller's (they take decisions).
    pub fn reset(&mut self, s: &Scenario, dice: &mut Dice) {
        for (p, pl) in self.players.iter_mut().enumerate() {
            let e = &s.empires[p];
            pl.vp = START_VP;
            pl.hand.clear();
            pl.discard.clear();
            pl.draw.clear();
            pl.draw.extend(0..s.decks[e.deck].cards.len() as u8);
            shuffle(dice, &mut pl.draw);
            pl.reserve = MARKERS_PER_EMPIRE;
            pl.hand_target = e.hand_size;
            pl.passed = false;
        }
        self.owner.fill(NEUTRAL);
        self.markers.fill(0);
        self.pacified.fill(false);
        self.map_changed();
        self.neutral_reserve = NEUTRAL_MARKERS;
        self.pacified_reserve = PACIFIED_MARKERS;
        self.enraged = 0;
        self.weather = Weather::Normal;
        self.turn = 1;
        self.round = 1;
        self.first = 0;
        self.seat = 0;
        self.round_passed = false;
        self.prev_passed = false;
        self.rounds_in_turn = 0;
        self.sudden_winner = None;
        self.counts = Counts::default();
        // Capitals: the token and one marker from the allotment (L276-L280); key cities: one
        // neutral marker (L284-L289).
        for (p, e) in s.empires.iter().enumerate() {
            self.set_owner(e.capital, p as u8);
            self.markers[e.capital] = 1;
            self.players[p].reserve -= 1;
        }
        for (c, city) in s.map.cities.iter().enumerate() {
            if city.key {
                self.markers[c] = 1;
                self.neutral_reserve -= 1;
            }
        }
    }

    /// City `city` now belongs to `owner` (a new map version).
    pub fn set_owner(&mut self, city: usize, owner: u8) {
        self.owner[city] = owner;
        self.map_changed();
    }

    /// Area `area` is now pacified or not (a new map version).
    pub fn set_pacified(&mut self, area: usize, pacified: bool) {
        self.pacified[area] = pacified;
        self.map_changed();
    }

    /// A new map version, after `owner` or `pacified` changed (tests that set them directly
    /// call this).
    pub fn map_changed(&mut self) {
        self.map_version = next_map_version();
    }

    pub fn cities_of(&self, p: usize) -> u8 {
        self.owner.iter().filter(|&&o| o as usize == p).count() as u8
    }

    pub fn key_cities_of(&self, s: &Scenario, p: usize) -> u8 {
        self.owner
            .iter()
            .zip(&s.map.cities)
            .filter(|(&o, c)| o as usize == p && c.key)
            .count() as u8
    }

    pub fn holds_capital(&self, s: &Scenario, p: usize) -> bool {
        self.owner[s.empires[p].capital] as usize == p
    }

    /// VP never below 1 (L572-L574, A-16).
    pub fn add_vp(&mut self, p: usize, delta: i32) {
        let v = &mut self.players[p].vp;
        *v = (*v + delta).max(1);
    }

    /// Draws up to `k` cards from the player's pile (nothing from an empty pile, A-65).
    pub fn draw(&mut self, p: usize, k: usize) {
        let pl = &mut self.players[p];
        for _ in 0..k {
            match pl.draw.pop() {
                Some(c) => pl.hand.push(c),
                None => break,
            }
        }
    }

    /// Discards the card at hand position `i`.
    pub fn discard_at(&mut self, p: usize, i: usize) {
        let pl = &mut self.players[p];
        let c = pl.hand.swap_remove(i);
        pl.discard.push(c);
    }

    /// A city changes hands (§3.7): the old owner's markers go back to its reserve, the new
    /// owner (a player, or neutral after a non-player conquest) puts the same number of its own
    /// (as many as it has, A-37). Checks automatic victory.
    pub fn transfer(&mut self, s: &Scenario, city: usize, to: u8) {
        let from = self.owner[city];
        let m = self.markers[city];
        if from == NEUTRAL {
            self.neutral_reserve += m;
        } else {
            self.players[from as usize].reserve += m;
        }
        let put = if to == NEUTRAL {
            m.min(self.neutral_reserve)
        } else {
            m.min(self.players[to as usize].reserve)
        }
        .max(1);
        if to == NEUTRAL {
            self.neutral_reserve = self.neutral_reserve.saturating_sub(put);
        } else {
            let r = &mut self.players[to as usize].reserve;
            *r = r.saturating_sub(put);
        }
        self.set_owner(city, to);
        self.markers[city] = put;
        if to != NEUTRAL
            && self.sudden_winner.is_none()
            && self.cities_of(to as usize) >= s.auto_win_cities
        {
            self.sudden_winner = Some(to);
        }
    }

    /// Marks in `reach` every node `p` can route through or reach by land from its capital
    /// (digest §3.1): from the capital through its own cities and pacified areas, with the fewest
    /// straits; a target (another's city, a neutral city, a hostile area) is reached but not
    /// passed. `reach[n]` = straits on the best route, u8::MAX if unreachable.
    pub fn land_reach(&mut self, s: &Scenario, p: usize, from: usize) {
        self.reach.fill(u8::MAX);
        self.queue.clear();
        self.reach[from] = 0;
        self.queue.push(from);
        // Fewest straits on 0/1 weights: a node goes back on the list whenever its count drops,
        // so every count ends at its minimum, the same whatever the order (a list, not the
        // re-scans of every node until none changes: the same counts, a fraction of the work).
        let mut head = 0;
        while head < self.queue.len() {
            let n = self.queue[head];
            head += 1;
            if !self.passable(s, p, n, from) {
                continue;
            }
            let d = self.reach[n];
            for &(m, kind) in &s.map.adjacent[n] {
                let nd = d + (kind == EdgeKind::Strait) as u8;
                if nd < self.reach[m] {
                    self.reach[m] = nd;
                    self.queue.push(m);
                }
            }
        }
    }

    /// Whether a route may go on from node `n`: the start, an own city or a pacified area.
    pub fn passable(&self, s: &Scenario, p: usize, n: usize, from: usize) -> bool {
        if n == from {
            return true;
        }
        if s.map.is_city(n) {
            self.owner[n] as usize == p
        } else {
            self.pacified[s.map.area(n)]
        }
    }
}

/// The event roll's modifier in round `r` (digest §4.5): the rounds already played this turn, +2
/// after a round everyone passed, +2 more from round 5 under optional rule 8.4.
pub fn event_modifier(rules: &Rules, round: u8, everyone_passed: bool) -> i32 {
    let mut m = round as i32 - 1;
    if everyone_passed {
        m += rules.all_pass_bonus;
    }
    if rules.shorter_game && round >= 5 {
        m += 2;
    }
    m
}
