//! Running totals per nation that Administration reads every turn (digest §4.8-§4.9): the units a
//! nation has (its Kingdom upkeep, its purchases' room) and the parts of its gross income that are
//! sums over provinces (cities, province income, Foedus provinces, ports). Recounting them took a
//! pass over every Area row and every province for each nation and each read; kept here, a read
//! is one lookup.
//!
//! Beside them, per nation, the sets other steps read instead of scanning the map: the Areas
//! where it holds a province (heresy expenses, threats, a change of status), its rebel provinces
//! (revolt expenses and suppression), the Areas where it has units (its leader's place, enemy
//! units per Area).
//!
//! One write path each: a nation's units change only through [`State::at_mut`]'s guard,
//! [`State::offmap_mut`]'s and the `State` methods that add, remove or clear units; a province's
//! owner, city level, pillage, revolt marker and Foedus federator only through the `State` methods
//! that take it out of the totals, change it and put it back ([`State::set_owner`] and the rest).
//! [`State::check_totals`] compares them with a recount ([`Totals::recount`]) at the end of every
//! activation in debug builds, and wherever they are read in a test that asks for it.

use super::scenario::Scenario;
use super::state::{total, State, Units, NONE};
use std::ops::{Deref, DerefMut};

/// The running totals, per nation (`trade_ports` per nation and sea zone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Units on the map and off it (raids).
    pub units: Vec<u32>,
    /// Income in half gold from the cities of the provinces it holds outside revolt (a pillaged
    /// city gives half, XIV.D).
    pub city_halves: Vec<i32>,
    /// The printed income of those provinces (a Kingdom's, XIV.E).
    pub province_halves: Vec<i32>,
    /// The printed income of the Foedus provinces its federates hold outside revolt (XXVIII.D).
    pub foedus_halves: Vec<i32>,
    /// Port cities (level above 0) it holds outside revolt, per sea zone: `[n * seas + sea]`.
    pub trade_ports: Vec<u8>,
    /// The sea zones where that count is above 0, as a bit set per nation (trade, XIV.G).
    pub trade_seas: Vec<u32>,
    /// Pillaged cities and sites it holds (in revolt or not): most Income steps find none to
    /// recover and skip the map.
    pub pillaged_held: Vec<i32>,
    /// The holdings index the Military phase's target scan reads (military.rs `choose`): per
    /// nation and Area, the provinces it holds there as a bit set over the Area's province list
    /// (`held[n * areas + a]`, bit j for `areas[a].provinces[j]`); per Area, the provinces nobody
    /// holds and the nations holding any.
    pub held: Vec<u64>,
    pub unheld: Vec<u64>,
    pub holders: Vec<u64>,
    /// Provinces it holds in revolt (most nations none: the revolt steps skip the map).
    pub rebels_held: Vec<i32>,
    /// Per nation and Area, the provinces it holds whose Area that is (in the Area's list or
    /// printed under it outside: `area_provinces[n * areas + a]`); per nation, the Areas where
    /// that count is above 0 as a bit set (heresy expenses, threats, the Areas a change of
    /// status touches), so that none of them scans the map for the nation's provinces.
    pub area_provinces: Vec<u16>,
    pub areas_held: Vec<u64>,
    /// Per nation, the Areas where it has units on the map, as a bit set (its leader's place).
    pub unit_areas: Vec<u64>,
    /// Area control's index (state.rs `controller_given_hordes`), per Area: the provinces with a
    /// city and those with a Foedus federator, as bit sets over the Area's province list, and
    /// the nations whose horde stands in it (any phase: the claim tests the phase).
    pub cities: Vec<u64>,
    pub federated: Vec<u64>,
    pub hordes: Vec<u64>,
}

impl Totals {
    /// Every total counted from scratch from the state's units and provinces.
    pub fn recount(s: &Scenario, st: &State) -> Totals {
        let nations = st.nations.len();
        let mut t = Totals {
            units: (0..nations).map(|n| st.units_recount(n)).collect(),
            city_halves: vec![0; nations],
            province_halves: vec![0; nations],
            foedus_halves: vec![0; nations],
            trade_ports: vec![0; nations * s.seas.len()],
            trade_seas: vec![0; nations],
            pillaged_held: vec![0; nations],
            held: vec![0; nations * s.areas.len()],
            unheld: vec![0; s.areas.len()],
            holders: vec![0; s.areas.len()],
            rebels_held: vec![0; nations],
            area_provinces: vec![0; nations * s.areas.len()],
            areas_held: vec![0; nations],
            unit_areas: (0..nations)
                .map(|n| {
                    (0..s.areas.len())
                        .filter(|&a| total(st.at(n, a)) > 0)
                        .fold(0u64, |bits, a| bits | 1 << a)
                })
                .collect(),
            cities: vec![0; s.areas.len()],
            federated: vec![0; s.areas.len()],
            hordes: vec![0; s.areas.len()],
        };
        for (n, ns) in st.nations.iter().enumerate() {
            if ns.horde != super::state::NO_PROVINCE {
                t.hordes[s.provinces[ns.horde as usize].area as usize] |= 1 << n;
            }
        }
        for p in 0..st.owner.len() {
            t.count_province(s, p, Counted::of(st, p), 1);
        }
        t
    }

    /// Adds (`sign` 1) or takes out (−1) province `p`'s share of its holder's and federator's
    /// income, as `facts` describe it.
    fn count_province(&mut self, s: &Scenario, p: usize, facts: Counted, sign: i32) {
        let (o, f) = (facts.owner, facts.foedus_for);
        self.index_province(s, p, facts, sign > 0);
        if o == NONE {
            // An unheld province yields nothing.
            return;
        }
        let province = &s.provinces[p];
        let areas = self.unheld.len();
        let a = province.area as usize;
        let in_area = &mut self.area_provinces[o as usize * areas + a];
        *in_area = (*in_area as i32 + sign) as u16;
        if *in_area > 0 {
            self.areas_held[o as usize] |= 1 << a;
        } else {
            self.areas_held[o as usize] &= !(1 << a);
        }
        if facts.pillaged {
            self.pillaged_held[o as usize] += sign;
        }
        if facts.revolt > 0 {
            self.rebels_held[o as usize] += sign;
            // A rebel province yields nothing to anybody (XVI.D).
            return;
        }
        let income = province.income_halves as i32;
        let o = o as usize;
        let level = facts.level as i32;
        self.city_halves[o] += sign * if facts.pillaged { level } else { 2 * level };
        self.province_halves[o] += sign * income;
        if level > 0 {
            if let Some(sea) = province.port {
                let seas = self.trade_ports.len() / self.units.len();
                let count = &mut self.trade_ports[o * seas + sea as usize];
                *count = (*count as i32 + sign) as u8;
                let bit = 1u32 << sea;
                if *count > 0 {
                    self.trade_seas[o] |= bit;
                } else {
                    self.trade_seas[o] &= !bit;
                }
            }
        }
        if f != NONE && f as usize != o {
            self.foedus_halves[f as usize] += sign * income;
        }
    }
}

/// What the totals count of a province: its holder, its federator, its city's level, its pillage
/// and revolt markers (a copy, so that a change need not take the totals out of the state).
#[derive(Clone, Copy)]
struct Counted {
    owner: u8,
    foedus_for: u8,
    level: u8,
    pillaged: bool,
    revolt: u8,
}

impl Counted {
    fn of(st: &State, p: usize) -> Counted {
        Counted {
            owner: st.owner[p],
            foedus_for: st.foedus_for[p],
            level: st.level[p],
            pillaged: st.pillaged[p],
            revolt: st.revolt[p],
        }
    }
}

impl Totals {
    /// Puts province `p`, as `facts` describe it, into the holdings index and Area control's
    /// index or takes it out.
    fn index_province(&mut self, s: &Scenario, p: usize, facts: Counted, add: bool) {
        let o = facts.owner;
        let province = &s.provinces[p];
        if !province.counts_for_area {
            // In no Area's list: no scan visits it.
            return;
        }
        let a = province.area as usize;
        let list = &s.areas[a].provinces;
        let j = list
            .iter()
            .position(|&q| q as usize == p)
            .expect("listed in its Area");
        let bit = 1u64 << j;
        for (set, marked) in [
            (&mut self.cities[a], facts.level > 0),
            (&mut self.federated[a], facts.foedus_for != NONE),
        ] {
            if marked {
                if add {
                    *set |= bit;
                } else {
                    *set &= !bit;
                }
            }
        }
        if o == NONE {
            if add {
                self.unheld[a] |= bit;
            } else {
                self.unheld[a] &= !bit;
            }
            return;
        }
        let row = &mut self.held[o as usize * s.areas.len() + a];
        if add {
            *row |= bit;
        } else {
            *row &= !bit;
        }
        let nation = 1u64 << o;
        if *row != 0 {
            self.holders[a] |= nation;
        } else {
            self.holders[a] &= !nation;
        }
    }
}

/// A nation's units in one Area (or off the map) open for writing: its running total follows the
/// change when the guard goes.
pub struct UnitsMut<'a> {
    row: &'a mut Units,
    total: &'a mut u32,
    before: u32,
    /// The nation's Areas with units and this row's bit there (none off the map).
    area: Option<(&'a mut u64, u64)>,
}

impl Deref for UnitsMut<'_> {
    type Target = Units;
    fn deref(&self) -> &Units {
        self.row
    }
}

impl DerefMut for UnitsMut<'_> {
    fn deref_mut(&mut self) -> &mut Units {
        self.row
    }
}

impl Drop for UnitsMut<'_> {
    fn drop(&mut self) {
        let now = total(self.row);
        *self.total = *self.total - self.before + now;
        if let Some((areas, bit)) = &mut self.area {
            if now > 0 {
                **areas |= *bit;
            } else {
                **areas &= !*bit;
            }
        }
    }
}

impl State {
    /// `n`'s units in Area `a`, to change (the nation's total follows).
    pub fn at_mut(&mut self, n: usize, a: usize) -> UnitsMut<'_> {
        let areas = self.areas();
        let row = &mut self.units[n * areas + a];
        UnitsMut {
            before: total(row),
            row,
            total: &mut self.totals.units[n],
            area: Some((&mut self.totals.unit_areas[n], 1 << a)),
        }
    }

    /// `moving` (some of `n`'s units in Area `from`) go to Area `to`: the nation's total stays.
    pub fn move_units(&mut self, n: usize, from: usize, to: usize, moving: &Units) {
        let areas = self.areas();
        for k in 0..moving.len() {
            self.units[n * areas + from][k] -= moving[k];
            self.units[n * areas + to][k] += moving[k];
        }
        for a in [from, to] {
            let bit = 1u64 << a;
            if total(&self.units[n * areas + a]) > 0 {
                self.totals.unit_areas[n] |= bit;
            } else {
                self.totals.unit_areas[n] &= !bit;
            }
        }
    }

    /// `n`'s units off the map (raids), to change (the nation's total follows).
    pub fn offmap_mut(&mut self, n: usize) -> UnitsMut<'_> {
        let row = &mut self.nations[n].offmap;
        UnitsMut {
            before: total(row),
            row,
            total: &mut self.totals.units[n],
            area: None,
        }
    }

    /// Changes province `p` by `f`, then takes what it was out of the totals and counts what it
    /// is: the one way its owner, city, pillage, revolt marker or federator changes. `f` writes
    /// the province's fields only (one write each caller), so the totals it does not read may lag
    /// until it returns.
    pub(super) fn change_province<R>(
        &mut self,
        s: &Scenario,
        p: usize,
        f: impl FnOnce(&mut State) -> R,
    ) -> R {
        let before = Counted::of(self, p);
        let r = f(self);
        let after = Counted::of(self, p);
        self.totals.count_province(s, p, before, -1);
        self.totals.count_province(s, p, after, 1);
        r
    }

    /// City `p` pillaged (XXII) or recovered.
    pub fn set_pillaged(&mut self, s: &Scenario, p: usize, pillaged: bool) {
        if self.pillaged[p] != pillaged {
            self.change_province(s, p, |st| st.pillaged[p] = pillaged);
        }
    }

    /// XIV.I: pillage markers leave `n`'s cities and sites (most turns it holds none).
    pub fn recover_pillage(&mut self, s: &Scenario, n: usize) {
        if self.totals.pillaged_held[n] == 0 {
            return;
        }
        for p in 0..self.owner.len() {
            if self.pillaged[p] && self.owner[p] == n as u8 {
                self.set_pillaged(s, p, false);
            }
        }
    }

    /// Province `p`'s revolt marker becomes `marker` (0 none, 1 Revolt −, 2 Revolt +, XVI.D);
    /// the count of rebel provinces follows.
    pub fn set_revolt(&mut self, s: &Scenario, p: usize, marker: u8) {
        let old = self.revolt[p];
        if old != marker {
            self.rebel_provinces = self.rebel_provinces + (marker > 0) as u32 - (old > 0) as u32;
            self.change_province(s, p, |st| st.revolt[p] = marker);
        }
    }

    /// Every total counted again from scratch (the start state; tests that set up a board by
    /// hand, with [`State::rebuild_control`]).
    pub fn rebuild_totals(&mut self, s: &Scenario) {
        self.totals = Totals::recount(s, self);
    }

    /// The running totals and the holdings index must equal a recount ([`checking`]).
    #[inline]
    pub fn check_totals(&self, s: &Scenario) {
        if checking() {
            assert_eq!(
                self.totals,
                Totals::recount(s, self),
                "turn {}: the running totals differ from a recount",
                self.turn
            );
            counted(0);
        }
    }
}

/// Whether the running totals and the index are compared with recounts where they are used:
/// always in debug builds; in a test build, on the thread of a test that asked for it
/// (`CHECK_TOTALS`); never in a release build.
#[inline]
pub fn checking() -> bool {
    #[cfg(test)]
    {
        CHECK_TOTALS.with(|on| on.get().is_some())
    }
    #[cfg(not(test))]
    {
        cfg!(debug_assertions)
    }
}

/// A check made: of the totals (`kind` 0), of a scan's attackable provinces (1) or of an Area's
/// controller claimed from the index (2, state.rs), counted for the test that asked.
#[inline]
pub fn counted(kind: usize) {
    #[cfg(test)]
    CHECK_TOTALS.with(|on| {
        if let Some(mut c) = on.get() {
            c[kind] += 1;
            on.set(Some(c));
        }
    });
    let _ = kind;
}

#[cfg(test)]
thread_local! {
    /// Set to `Some([0, 0, 0])` by a test: every check on this thread ([`checking`]) compares
    /// with a recount, and counts (totals, scans, Area claims).
    pub static CHECK_TOTALS: std::cell::Cell<Option<[u64; 3]>> = const { std::cell::Cell::new(None) };
}

#[cfg(test)]
mod tests {
    use super::super::game_tests::bundled_game;
    use super::super::policy::{Policy, Scripted};
    use super::super::turn::Play;
    use super::CHECK_TOTALS;
    use crate::dice::Dice;
    use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};

    /// Over random and scripted games the running unit and income totals and the holdings index
    /// equal a recount at every read (income, purchases), at the end of every activation and of
    /// every game; every target scan's attackable provinces from the index are those the
    /// per-province test finds (military.rs); and the income and units read from the totals are
    /// those a recount gives.
    #[test]
    fn running_totals_equal_a_recount_at_every_step() {
        CHECK_TOTALS.with(|c| c.set(Some([0, 0, 0])));
        for (policy, games) in [
            (Policy::Random, 300u64),
            (Policy::Scripted(Scripted::defaults()), 300),
        ] {
            let g = bundled_game(policy);
            let mut play = Play::new(&g);
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            let mut pillaged_or_rebel = 0;
            for i in 0..games {
                r.clear();
                play.play(
                    &mut Dice::for_trial(29, 0, i),
                    &mut r,
                    &mut NoObserver,
                    &mut NoLog,
                );
                play.st.check_totals(&g.scenario);
                pillaged_or_rebel += play.st.pillaged.iter().filter(|&&x| x).count()
                    + play.st.revolt.iter().filter(|&&x| x > 0).count();
                // A board whose totals were recounted gives the same income and units.
                let kept: Vec<_> = (0..play.st.nations.len())
                    .map(|n| (play.gross_halves(n), play.st.units_of(n)))
                    .collect();
                play.st.rebuild_totals(&g.scenario);
                let fresh: Vec<_> = (0..play.st.nations.len())
                    .map(|n| (play.gross_halves(n), play.st.units_of(n)))
                    .collect();
                assert_eq!(kept, fresh, "{policy:?} game {i}");
            }
            assert!(pillaged_or_rebel > 0, "the games pillage and revolt");
        }
        let [checks, scans, _] = CHECK_TOTALS.with(|c| c.take()).unwrap();
        // Each game has dozens of activations and reads a turn, and hundreds of target scans.
        assert!(checks > 600 * 100, "only {checks} checks");
        assert!(scans > 600 * 1000, "only {scans} scans checked");
    }

    /// Area control claimed from the index (cities, Foedus provinces and hordes per Area beside
    /// the holdings) is what the scan of the Area's provinces and of every nation's horde gives,
    /// at every claim of random and scripted games (state.rs asserts it while checking), and the
    /// kept control table of each finished board is the scan's, Area by Area.
    #[test]
    fn area_control_from_the_index_is_what_a_scan_finds() {
        CHECK_TOTALS.with(|c| c.set(Some([0, 0, 0])));
        let mut held = 0;
        for (policy, games) in [
            (Policy::Random, 100u64),
            (Policy::Scripted(Scripted::defaults()), 100),
        ] {
            let g = bundled_game(policy);
            let s = &g.scenario;
            let mut play = Play::new(&g);
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            for i in 0..games {
                r.clear();
                play.play(
                    &mut Dice::for_trial(37, 0, i),
                    &mut r,
                    &mut NoObserver,
                    &mut NoLog,
                );
                let st = &play.st;
                for a in 0..s.areas.len() {
                    let scanned = super::super::state::area_controller_by_scan(s, st, a);
                    assert_eq!(st.control[a], scanned, "{policy:?} game {i} Area {a}");
                    held += (scanned != super::super::state::NONE) as u32;
                }
            }
        }
        let [_, _, claims] = CHECK_TOTALS.with(|c| c.take()).unwrap();
        // Dozens of claims a turn; boards where Areas are controlled.
        assert!(claims > 200 * 100, "only {claims} claims checked");
        assert!(
            held > 200,
            "only {held} controlled Areas on the final boards"
        );
    }

    /// The per-nation sets the running totals keep are what a scan of the finished board finds,
    /// over random and scripted games: the Areas where a nation holds a province (by each
    /// province's Area, listed there or not), its rebel provinces, the Areas where it has units;
    /// and the enemy units per Area read through them are the plain sums over every Area.
    #[test]
    fn the_per_nation_sets_are_what_a_scan_of_the_board_finds() {
        for (policy, games) in [
            (Policy::Random, 150u64),
            (Policy::Scripted(Scripted::defaults()), 150),
        ] {
            let g = bundled_game(policy);
            let s = &g.scenario;
            let mut play = Play::new(&g);
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            let (mut rebels, mut enemies) = (0, 0);
            for i in 0..games {
                r.clear();
                play.play(
                    &mut Dice::for_trial(31, 0, i),
                    &mut r,
                    &mut NoObserver,
                    &mut NoLog,
                );
                let st = &play.st;
                for n in 0..st.nations.len() {
                    let held = (0..st.owner.len())
                        .filter(|&p| st.owner[p] == n as u8)
                        .fold(0u64, |m, p| m | 1 << s.provinces[p].area);
                    assert_eq!(
                        st.totals.areas_held[n], held,
                        "{policy:?} game {i} nation {n}"
                    );
                    let rebel = (0..st.owner.len())
                        .filter(|&p| st.owner[p] == n as u8 && st.revolt[p] > 0)
                        .count() as i32;
                    assert_eq!(st.totals.rebels_held[n], rebel, "game {i} nation {n}");
                    rebels += rebel;
                    let with_units = (0..s.areas.len())
                        .filter(|&a| st.rows(n)[a].iter().any(|&c| c > 0))
                        .fold(0u64, |m, a| m | 1 << a);
                    assert_eq!(st.totals.unit_areas[n], with_units, "game {i} nation {n}");
                    // Enemy units: the nations enemy_units counts, summed over every Area.
                    let enemy = play.enemy_units(n);
                    let mut plain = [0u32; 64];
                    for o in 0..st.nations.len() {
                        let counted = g.player_of(o) != g.player_of(n)
                            && st.status(o).is_some()
                            && !g.inactive[o]
                            && !super::super::politics::at_peace(st, n, o);
                        if counted {
                            for (a, sum) in plain.iter_mut().enumerate().take(s.areas.len()) {
                                *sum += st.count(o, a);
                            }
                        }
                    }
                    assert_eq!(enemy, plain, "game {i} nation {n}");
                    enemies += plain.iter().sum::<u32>();
                }
            }
            assert!(
                rebels > 0 && enemies > 0,
                "{policy:?}: boards with rebels and enemies"
            );
        }
    }
}
