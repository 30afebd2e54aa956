//! Rebellion indices per printed city and the cities' revolts (digest §4.16, rules §46
//! L5617-L5633; the §4.19 rows "Rebellion in a city" and "Rebellion in the capital" L4272-L4274,
//! "Suppressing a rebellion" L4364; A37, A66).
//!
//! Every country has 1,000 in its rural zone and 800 in each city (L5619; no sheet gives an
//! exception). The node's index (`revolt::index`: `Nation::idr` at home, `Land::idr` in a
//! province) is the rural zone's; each printed city keeps its own (`State::city_idr`).
//!
//! Which rows move a city's index: L5619 subtracts a row's points from "the amount stated" (the
//! 1,000 and the 800 alike) and names no zone per row. Option `city_index_rows` = "every-zone"
//! (default, that reading): every row that moves a node's index moves each of its cities' by as
//! much (the nation's own rows at home, a province's suffered rows, taxes and levies, gifts, its
//! enslaving, which L833 puts on the city's index); "rural-only": the node's rows move its rural
//! zone alone and a city's index moves only by the rows that name a place: its taxes (§47 L5641
//! names the provinces or cities taxed, `burdens.rs`) and the gifts the policy aims at it. A
//! revolt's own rows (the rebellion and suppressing rows, to the holder's home index as before)
//! are the exception: they never reach the cities in the count that scores them, else one city's
//! revolt would break every other at the next count. The sack, the destruction and the treasure
//! rows are the acting nation's (its home index), as before.
//!
//! Under "every-zone" the cities follow their node lazily: `zone_seen` keeps each node's holder
//! and rural index when its cities were last brought up to date; a city's index is its stored one
//! plus the node's moves since ([`city_index`]), made concrete by [`sync`] before an index is set
//! outright (a revolt, a conquest) and around the diplomacy phase (its annexations). A node
//! changing hands (L5631) leaves each city's index capped at the normal 800 (below-normal ones
//! stay), as the rural zone's is at 1,000.
//!
//! The count before each collection (L5633, `revolt::check`): a standing printed city at 0 or below
//! revolts: the holder scores "Rebellion in the capital" (the node's first listed city) or
//! "Rebellion in a city" by its culture (PV source revolt), and the city's share of the node's POB
//! (the scenario's city row, `destruction::city_share`: 150) rises, A37's POB / 200 units (option
//! `revolt_rebels` = "militia": that share of the militia the holder could call there), against
//! the troops that hold the node, fought as the node's revolt is. Suppressed: the suppressing row;
//! either way the city stays at 250 and its share yields 75% POB for a year (three collections),
//! except that under option `city_revolt_won` = "capital-frees" (default) the capital's rebels
//! winning in a province free it as the node's rebels do (the capital is what holds the node: its
//! walls and garrison are the node's); "disorder": a won city revolt only disorders the city.

use super::destruction::{self, Ruin};
use super::pv;
use super::revolt::{self, AFTER_REVOLT, REVOLT_COLLECTIONS};
use super::scenario::{CityId, CountryId, POB};
use super::state::{State, R};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// A city's index at the start and after an invasion resets a higher one (L5619, L5631).
pub const CITY_START_IDR: i32 = 800;

/// Printed city `city`'s index, in node `l` (see the module's note on `zone_seen`).
pub fn city_index(g: &Game, st: &State, l: CountryId, city: CityId) -> i32 {
    let (holder, seen) = st.zone_seen[l as usize];
    let stored = st.city_idr[city as usize];
    if st.lands[l as usize].owner != holder {
        stored.min(CITY_START_IDR)
    } else if g.revolt.every_zone {
        stored + revolt::index(st, l) - seen
    } else {
        stored
    }
}

/// The standing printed cities of node `l` (a destroyed city has no zone of its own left).
pub fn standing<'a>(g: &'a Game, st: &'a State, l: CountryId) -> impl Iterator<Item = CityId> + 'a {
    g.scenario.countries[l as usize]
        .cities
        .clone()
        .filter(move |&city| st.city_ruin[city as usize] == Ruin::Standing)
}

/// The lowest index among node `l`'s zones: its rural one and its standing cities'.
pub fn lowest_zone(g: &Game, st: &State, l: CountryId) -> i32 {
    standing(g, st, l)
        .map(|city| city_index(g, st, l, city))
        .fold(revolt::index(st, l), i32::min)
}

/// The zone of node `l` with the lowest index: `Some(city)` or `None` for the rural zone.
pub fn lowest_zone_of(g: &Game, st: &State, l: CountryId) -> (Option<CityId>, i32) {
    let mut best = (None, revolt::index(st, l));
    for city in standing(g, st, l) {
        let i = city_index(g, st, l, city);
        if i < best.1 {
            best = (Some(city), i);
        }
    }
    best
}

/// The lowest index a row moving node `l`'s index reaches: its lowest zone under option
/// `city_index_rows` = "every-zone", its rural zone's under "rural-only".
pub fn lowest_moved(g: &Game, st: &State, l: CountryId) -> i32 {
    if g.revolt.every_zone {
        lowest_zone(g, st, l)
    } else {
        revolt::index(st, l)
    }
}

/// A tax row's `idr` on node `l`'s standing cities under "rural-only" (§47 L5641 names the
/// cities taxed; under "every-zone" the node's own move reaches them).
pub fn cities_taxed(g: &Game, st: &mut State, l: CountryId, idr: i32) {
    if g.revolt.every_zone {
        return;
    }
    for city in g.scenario.countries[l as usize].cities.clone() {
        if st.city_ruin[city as usize] == Ruin::Standing {
            st.city_idr[city as usize] += idr;
        }
    }
}

/// Makes node `l`'s cities' indices concrete and records its holder and rural index.
pub fn sync_land(g: &Game, st: &mut State, l: CountryId) {
    let now = (st.lands[l as usize].owner, revolt::index(st, l));
    if st.zone_seen[l as usize] == now {
        return; // nothing moved since: the stored indices are the cities' own
    }
    for city in g.scenario.countries[l as usize].cities.clone() {
        st.city_idr[city as usize] = city_index(g, st, l, city);
    }
    st.zone_seen[l as usize] = now;
}

/// [`sync_land`] for every node.
pub fn sync(g: &Game, st: &mut State) {
    for l in 0..st.lands.len() as CountryId {
        sync_land(g, st, l);
    }
}

/// Node `l`'s rural index was just set outright (not by a row): its cities keep theirs.
pub fn rural_set(st: &mut State, l: CountryId) {
    st.zone_seen[l as usize] = (st.lands[l as usize].owner, revolt::index(st, l));
}

/// Node `l` has changed hands (its cities synced just before): each city above the normal 800
/// reverts to it (L5631).
pub fn changed_hands(g: &Game, st: &mut State, l: CountryId) {
    for city in g.scenario.countries[l as usize].cities.clone() {
        let i = &mut st.city_idr[city as usize];
        *i = (*i).min(CITY_START_IDR);
    }
    rural_set(st, l);
}

/// `idr` points on printed city `city` of node `l` alone (a row that names the city).
pub fn add_to_city(g: &Game, st: &mut State, l: CountryId, city: CityId, idr: i32) {
    sync_land(g, st, l);
    st.city_idr[city as usize] += idr;
}

/// Rebel units rising in city `city`'s share of node `l` (A37, option `revolt_rebels`).
pub fn rebels(g: &Game, st: &State, l: CountryId) -> f64 {
    let share = destruction::city_share(g, l as usize)[POB];
    if g.revolt.militia_rebels {
        let pob = st.lands[l as usize].pob_yield.max(1);
        super::militia::size(g, st, l) * share.min(pob) as f64 / pob as f64
    } else {
        (share / revolt::POB_PER_REBEL) as f64
    }
}

/// The count's cities (L5633): every standing printed city at 0 or below revolts, each counted
/// before any of them is settled. Called by `revolt::check` after the nodes' revolts, whose
/// outcome (a node freed) they see.
pub fn check(
    g: &Game,
    st: &mut State,
    at_zero: &[(CountryId, CityId, CountryId)],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    for &(l, city, counted_holder) in at_zero {
        let o = st.lands[l as usize].owner;
        if o != counted_holder {
            continue; // freed by its node's revolt in this count
        }
        let capital = g.capital[l as usize] == Some(city);
        let culture = g.culture[o as usize];
        let row = if capital {
            st.counts.capital_revolts += 1;
            pv::REBELLION_CAPITAL
        } else {
            st.counts.city_revolts += 1;
            pv::REBELLION_CITY
        };
        st.apply(o, pv::REVOLT, row, culture);
        let rebels = rebels(g, st, l);
        let held = revolt::fight_rebels(g, st, l, rebels, month, dice);
        if held {
            st.counts.revolts_suppressed += 1;
            st.apply(o, pv::REVOLT, pv::SUPPRESSING_REBELLION, culture);
        }
        let frees = !held && capital && o != l && g.revolt.capital_frees;
        if frees {
            revolt::free(g, st, l, month);
        } else {
            st.city_idr[city as usize] = AFTER_REVOLT;
            st.city_revolt_collections[city as usize] = REVOLT_COLLECTIONS;
        }
        game_log!(
            log,
            "month {month}: {} ({}) revolts against {}: {}",
            g.scenario.cities[city as usize].name,
            g.scenario.countries[l as usize].name,
            g.scenario.countries[o as usize].name,
            match (held, frees) {
                (true, _) => "suppressed",
                (false, false) => "the rebels win",
                (false, true) => "freed",
            }
        );
    }
}

/// The cities of the count (holder at the count), in node and city order.
pub fn at_zero(g: &Game, st: &State) -> Vec<(CountryId, CityId, CountryId)> {
    let mut out = Vec::new();
    for l in 0..st.lands.len() as CountryId {
        for city in standing(g, st, l) {
            if st.city_idr[city as usize] <= 0 {
                out.push((l, city, st.lands[l as usize].owner));
            }
        }
    }
    out
}

/// A collection of node `l`: each standing city a year after its revolt yields 75% of its POB
/// share (L5625).
pub fn cut(g: &Game, st: &State, l: usize, yields: &mut [i64; R]) {
    let share = destruction::city_share(g, l)[POB];
    for city in standing(g, st, l as CountryId) {
        if st.city_revolt_collections[city as usize] > 0 {
            yields[POB] = (yields[POB] - share / 4).max(0);
        }
    }
}

/// After a collection: a year after a revolt is a collection shorter.
pub fn collected(st: &mut State) {
    for left in &mut st.city_revolt_collections {
        *left = left.saturating_sub(1);
    }
}
