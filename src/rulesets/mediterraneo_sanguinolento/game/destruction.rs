//! Destroying constructions (digest §4.17 "Destruction", rules §18 L3716-L3720) and a destroyed
//! city's population (§45.2 L5607-L5609).
//!
//! Any construction falls to 200 men (or their units' worth) of one army idle a whole month in the
//! country it stands in: here a field army that began and ended the month standing in the same node
//! (idle or besieging, neither marching nor raiding), fought no battle or assault that month and
//! counts at least [`MEN_TO_DESTROY`] men destroys one construction of that node a month.
//!
//! What a city is on the region graph: the scenario builds a node's production from its printed
//! cities and its countryside (abstraction.toml `[production]`: each city the `city` row, 150 POB
//! and 150 DEN, and its culture's `city_man`; the countryside its terrain's row), so a printed city
//! yields the scenario's city row of POB and DEN and an equal part of the node's MAN (all of it made
//! in the cities). The capital is the node itself (its walls are the ones the
//! sieges fight, its garrison holds it): only the other printed cities can be destroyed. A destroyed
//! city loses for good its walls (`city_fort` 0), its share of DEN and MAN and half its share of POB;
//! the other half goes to the countryside (the node keeps it) when the destroyer allows it (L5607:
//! the owner destroying its own city always allows it here; an enemy destroying to deny does not,
//! and the whole share is lost). The cut applies to every later collection of the node, whoever
//! holds it.
//!
//! The works (`works.rs`): one finished work of the node a month, whoever built it ([`destroy_work`]):
//! a production improvement, a new city (a city: the rows below, and its MAN for the MAN row), an
//! enlargement, a naval base, a port (a built port's coast keeps no port beside its cities), a
//! colony (its colonist's no more once none stands). It yields nothing from the next collection;
//! its wood goes with it (`wood.rs` owes no upkeep for it) and an enlargement whose new city fell
//! falls with it. A frontier wall (`walls.rs`) loses one hex of a link out of the node a month
//! ([`destroy_wall_hex`]); a wall with a hex down is open again. Neither has a row but the cities'.
//!
//! PV and IDR (§4.19): "destroying enemy cities" (1/0/-2 PV, 50/0/-50 IDR) when the city lies in a
//! node another nation holds, "destroying own cities" (-1/-2/-3 PV, -25/-50/-75 IDR) in one the
//! destroyer holds, by the destroyer's culture; by option `city_destruction_pv` the text's -1 (other
//! nation's) and -2 (own) PV for every culture with the table's IDR (the reading the digest gives for
//! the text beside the table, as for the militia, A50, and treaty breaches, A51), or the table's PV.
//! "MAN destroyed (N points)" (-(N/100) PV, -N IDR): by option `man_destroyed` the destroyer of a
//! city is charged the MAN of its share of one collection ("razed-city"), or nothing ("none": the
//! text names no procedure; the pillage's 1% destroyed is not charged either way).
//!
//! Roads: a destroyed road no longer halves the PM of its link for anyone (`roads.rs`); there is no
//! PV row for it. Only the rule is played: no policy destroys roads (an invader's path on the graph
//! is one link, and the road is as useful to the defender's own relief).
//!
//! The decisions (`raze_cities`, `raze_works`): a field army idle a whole month in a rival major's
//! node razes one of its open cities there to deny it the production for the rest of the game,
//! where the row costs its culture at most [`MAX_PV_COST`] PV, or else (`raze_works`) the finished
//! work there that yields its holder most a turn (`works::worth_per_turn`: a new city under the
//! same PV limit, a factory, an improvement; never a port, naval base or shipyard, which yield
//! nothing to price, nor a colony, which is not the holder's); never in a referee's country
//! (nobody to deny: PV thrown away) nor in a node it holds. No policy destroys a frontier wall: the
//! army that stands behind it has already crossed it.

use super::policy::Scripted;
use super::pv::{self, Row};
use super::scenario::{CityId, CountryId, DEN, MAN, POB};
use super::state::{Mission, State, R};
use super::works::{self, Work, WORKS};
use super::Game;
use crate::game::GameLog;
use crate::game_log;

/// Men of one army idle a whole month that destroy one construction (L3716).
pub const MEN_TO_DESTROY: f64 = 200.0;
/// The most PV a scripted razer gives up for a city (the text's -1 for another nation's).
pub const MAX_PV_COST: i32 = 1;

/// A printed city's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ruin {
    #[default]
    Standing,
    /// Destroyed; half its POB share went to the countryside.
    Rural,
    /// Destroyed; its whole POB share was lost (the destroyer did not allow the move).
    Emptied,
}

/// The readings of the destruction rows (options `city_destruction_pv`, `man_destroyed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The table's PV by culture, not the text's -1/-2.
    pub pv_by_table: bool,
    /// A destroyed city's MAN share of one collection scores the "MAN destroyed" row.
    pub man_row: bool,
}

impl Rules {
    pub fn from_options(city_pv: &str, man: &str) -> Rules {
        Rules {
            pv_by_table: city_pv == "table",
            man_row: man == "razed-city",
        }
    }
}

/// The text's PV: -2 for destroying one's own city, -1 another nation's (L3720).
pub const OWN_CITY_TEXT: i32 = -2;
pub const ENEMY_CITY_TEXT: i32 = -1;

/// The row (PV and IDR) of destroying a city, own or another nation's, under the game's reading.
pub fn city_row(g: &Game, own: bool) -> Row {
    let table = if own {
        pv::DESTROYING_OWN_CITY
    } else {
        pv::DESTROYING_ENEMY_CITY
    };
    if g.destruction.pv_by_table {
        table
    } else {
        let text = if own { OWN_CITY_TEXT } else { ENEMY_CITY_TEXT };
        Row {
            pv: [text; 3],
            idr: table.idr,
        }
    }
}

/// What one printed city of node `l` yields at a collection: POB, DEN (the scenario's city row)
/// and MAN (the node's, all made in its cities, shared equally).
pub fn city_share(g: &Game, l: usize) -> [i64; 3] {
    let k = g.scenario.countries[l].cities.len().max(1) as i64;
    let city = &g.scenario.city_yield;
    [
        city[POB] as i64,
        city[DEN] as i64,
        g.scenario.production[l][MAN] as i64 / k,
    ]
}

/// The printed cities of node `l` that can still be destroyed (not the capital, not in ruins).
pub fn open_cities<'a>(
    g: &'a Game,
    st: &'a State,
    l: CountryId,
) -> impl Iterator<Item = CityId> + 'a {
    let capital = g.capital[l as usize];
    g.scenario.countries[l as usize]
        .cities
        .clone()
        .filter(move |&city| Some(city) != capital && st.city_ruin[city as usize] == Ruin::Standing)
}

/// Removes node `l`'s destroyed cities' shares from a collection's yields (never below 0).
pub fn cut(g: &Game, st: &State, l: usize, yields: &mut [i64; R]) {
    let mut halves = 0;
    let mut razed = 0;
    for city in g.scenario.countries[l].cities.clone() {
        match st.city_ruin[city as usize] {
            Ruin::Standing => {}
            Ruin::Rural => {
                razed += 1;
                halves += 1;
            }
            Ruin::Emptied => {
                razed += 1;
                halves += 2;
            }
        }
    }
    if razed == 0 {
        return;
    }
    let [pob, den, man] = city_share(g, l);
    yields[POB] = (yields[POB] - pob * halves / 2).max(0);
    yields[DEN] = (yields[DEN] - den * razed).max(0);
    yields[MAN] = (yields[MAN] - man * razed).max(0);
}

/// Destroyed printed cities in the nodes `c` holds (the cities proxy leaves them out).
pub fn ruins_held(g: &Game, st: &State, c: CountryId) -> usize {
    st.lands
        .iter()
        .enumerate()
        .filter(|(_, land)| land.owner == c)
        .map(|(l, _)| {
            g.scenario.countries[l]
                .cities
                .clone()
                .filter(|&city| st.city_ruin[city as usize] != Ruin::Standing)
                .count()
        })
        .sum()
}

/// Country `c` destroys printed city `city`; `rural`: it lets half the POB go to the countryside.
/// The PV row by whether `c` holds the city's node, and the MAN row by option.
pub fn destroy_city(g: &Game, st: &mut State, c: CountryId, city: CityId, rural: bool) {
    let l = g.scenario.cities[city as usize].country as usize;
    debug_assert_eq!(st.city_ruin[city as usize], Ruin::Standing);
    st.city_ruin[city as usize] = if rural { Ruin::Rural } else { Ruin::Emptied };
    st.city_fort[city as usize] = 0;
    let own = st.lands[l].owner == c;
    st.apply(c, pv::DESTRUCTION, city_row(g, own), g.culture[c as usize]);
    if g.destruction.man_row {
        let man = city_share(g, l)[2];
        charge_man_destroyed(st, c, man);
        st.counts.man_destroyed += man as f64;
    }
    st.counts.cities_destroyed += 1;
    if own {
        st.counts.own_cities_destroyed += 1;
    }
    st.counts.constructions_destroyed += 1;
}

/// The "MAN destroyed (N points)" row: -(N/100) PV (whole hundreds) and -N IDR, every culture.
pub fn charge_man_destroyed(st: &mut State, c: CountryId, man: i64) {
    st.add_pv(c, pv::DESTRUCTION, -(man / 100) as i32);
    st.nations[c as usize].idr -= man as i32;
}

/// Destroys the road on land link `i` (both directions): its PM no longer halved.
pub fn destroy_road(g: &Game, st: &mut State, i: usize) {
    if st.roads.built[i] {
        st.roads.raze(g, i);
        st.counts.roads_destroyed += 1;
        st.counts.constructions_destroyed += 1;
    }
}

/// Country `c` destroys one finished work `w` of land `l` (built there: `Works::built`), and the
/// enlargements its fall leaves without a city. A new city scores the city rows as a printed one
/// (own or another nation's by who holds `l`) and its MAN for the MAN row.
pub fn destroy_work(g: &Game, st: &mut State, c: CountryId, l: CountryId, w: Work) {
    let works = &mut st.works[l as usize];
    debug_assert!(works.built(w) > 0);
    if works.built(w) == 0 {
        return;
    }
    works::lose_built(works, w.index(), 1);
    let orphans = works::drop_orphan_enlargements(g, works, l as usize);
    if w == Work::City {
        let own = st.lands[l as usize].owner == c;
        st.apply(c, pv::DESTRUCTION, city_row(g, own), g.culture[c as usize]);
        if g.destruction.man_row {
            let man = works::city_man(g.culture[l as usize], false);
            charge_man_destroyed(st, c, man);
            st.counts.man_destroyed += man as f64;
        }
    }
    st.counts.works_destroyed += 1 + orphans as u32;
    st.counts.constructions_destroyed += 1 + orphans as u32;
}

/// One hex of the frontier wall on scenario link `i` (its origin's side) is destroyed.
pub fn destroy_wall_hex(st: &mut State, i: usize) {
    if st.walls.hexes[i] > 0 {
        st.walls.hexes[i] -= 1;
        st.counts.wall_hexes_destroyed += 1;
        st.counts.constructions_destroyed += 1;
    }
}

/// The finished work `c` playing `p` razes this month where its army stands, if any (the module's
/// doc): the one that yields the node's holder most a turn, a new city only where its row costs at
/// most [`MAX_PV_COST`] PV.
pub fn work_to_raze(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
    plans: &[Scripted],
) -> Option<Work> {
    if p.raze_works < 0.5 {
        return None;
    }
    let at = st.nations[c as usize].at;
    let holder = st.lands[at as usize].owner;
    if holder == c || !g.majors.contains(&holder) {
        return None;
    }
    let city_allowed = -city_row(g, false).pv(g.culture[c as usize]) <= MAX_PV_COST;
    let works = &st.works[at as usize];
    WORKS
        .into_iter()
        .filter(|&w| works.built(w) > 0 && w != Work::Colony && (w != Work::City || city_allowed))
        .map(|w| {
            (
                w,
                works::worth_per_turn(g, st, at, &plans[holder as usize], w),
            )
        })
        .filter(|&(_, worth)| worth > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(w, _)| w)
}

/// Whether a mission keeps the field army standing where it is (no march, no raid).
fn standing(m: Mission) -> bool {
    matches!(m, Mission::Idle | Mission::Siege { .. })
}

/// Before the month's movement: where each field army stands and whether it stands still.
pub fn start_month(st: &mut State) {
    for n in &mut st.nations {
        n.month_start = (n.at, standing(n.mission));
    }
}

/// Country `c`'s field army spent game month `month` idle in one node with the men to destroy.
pub fn idle_month(g: &Game, st: &State, c: CountryId, month: u32) -> bool {
    let n = &st.nations[c as usize];
    n.month_start.1
        && standing(n.mission)
        && n.at == n.month_start.0
        && n.fought_month != month
        && State::men(&n.field, &g.men_per_unit(c)) >= MEN_TO_DESTROY
}

/// The city `c` playing `p` razes this month where its army stands, if any (the module's doc).
pub fn city_to_raze(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<CityId> {
    if p.raze_cities < 0.5 {
        return None;
    }
    let at = st.nations[c as usize].at;
    let holder = st.lands[at as usize].owner;
    if holder == c || !g.majors.contains(&holder) {
        return None;
    }
    if -city_row(g, false).pv(g.culture[c as usize]) > MAX_PV_COST {
        return None;
    }
    open_cities(g, st, at).next()
}

/// The end of a movement month: each field army idle all month destroys what its policy razes.
pub fn month(g: &Game, st: &mut State, plans: &[Scripted], month: u32, log: &mut dyn GameLog) {
    for c in 0..st.nations.len() as CountryId {
        if !idle_month(g, st, c, month) {
            continue;
        }
        if let Some(city) = city_to_raze(g, st, c, &plans[c as usize]) {
            destroy_city(g, st, c, city, false);
            game_log!(
                log,
                "month {month}: {} destroys {} ({})",
                g.scenario.countries[c as usize].name,
                g.scenario.cities[city as usize].name,
                g.scenario.countries[g.scenario.cities[city as usize].country as usize].name
            );
        } else if let Some(w) = work_to_raze(g, st, c, &plans[c as usize], plans) {
            let at = st.nations[c as usize].at;
            destroy_work(g, st, c, at, w);
            game_log!(
                log,
                "month {month}: {} destroys a {} in {}",
                g.scenario.countries[c as usize].name,
                w.name(),
                g.scenario.countries[at as usize].name
            );
        }
    }
}
