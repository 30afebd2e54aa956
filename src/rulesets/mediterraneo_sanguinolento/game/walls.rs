//! Frontier walls (murallas, digest §4.7 row "Wall", rules §21.1.2bis L3816-L3818; §4.19's row
//! "per wall hex", L4300): fortifications laid hex by hex to bar the passage of enemy troops.
//!
//! On the region graph a wall is laid on the hexes of a land link (no strait) out of a node its
//! builder holds, on that node's side: the frontier the link crosses is read as being as many
//! hexes wide as the link is long (the map is missing, §6.1). Each hex costs as a fortification's
//! first level (150 DEN + 100 stone, L3804-L3812) and takes its month; one hex under way at a time
//! per country (walls are a construction type, L681), paid when started, lost if its builder no
//! longer holds the node; a finished hex scores its builder the row (1 PV, 75 / 50 / 25 rebellion
//! index by culture) and stays with the land, whoever holds it later. Once every hex of a link
//! stands, an army of another nation entering the node along it pays +2 PM (one level, L3818; by
//! option `wall_crossing` also none); the wall's holder passes freely. Readings and simplifications:
//! the hexes are built at level 1 (higher levels would add PM, not PV); of stone only (the wood the
//! rules allow would owe its January upkeep, `wood.rs`, which frontier walls do not record);
//! troops holding a wall as a fortress (a month in it) and the holder letting others pass are not
//! played; the policies' marching months and odds do not count walls. Barbarians may build them
//! (fortifications up to level 4, L4108); the referee's countries build none.

use super::economy;
use super::policy::Scripted;
use super::pv;
use super::roads::{link_index, origin};
use super::scenario::{CountryId, DEN, PIE};
use super::state::{Land, State, R};
use super::Game;
use crate::game::GameLog;
use crate::game_log;

/// PM an army of another nation pays to cross a closed frontier wall of level 1 (L3818).
pub const CROSSING_PM: u32 = 2;
/// A wall hex's price: a fortification's first level (DEN, stone) and its months.
pub const HEX_DEN: i64 = 150;
pub const HEX_STONE: i64 = 100;
pub const HEX_MONTHS: u8 = 1;

/// The frontier walls of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walls {
    /// Per scenario link (its origin's side): wall hexes standing.
    pub hexes: Vec<u16>,
    /// Per country: the link its hex under way stands on and the months left (0: none).
    pub under_way: Vec<(u32, u8)>,
}

impl Walls {
    pub fn new(links: usize, countries: usize) -> Walls {
        Walls {
            hexes: vec![0; links],
            under_way: vec![(0, 0); countries],
        }
    }

    /// Whether link `i`'s frontier is closed: a wall on every hex.
    pub fn closed(&self, g: &Game, i: usize) -> bool {
        self.hexes[i] >= g.scenario.links[i].hexes.max(1)
    }
}

/// PM nation `c`'s army pays beyond the leg's own to step from `from` into its land neighbour
/// `to`: a closed wall on `to`'s side of their link, held by another nation.
pub fn crossing(
    g: &Game,
    walls: &Walls,
    lands: &[Land],
    c: CountryId,
    from: CountryId,
    to: CountryId,
) -> u32 {
    if !g.wall_crossing || lands[to as usize].owner == c {
        return 0;
    }
    match link_index(&g.scenario, to, from) {
        Some(i) if walls.closed(g, i) => CROSSING_PM,
        _ => 0,
    }
}

/// The link country `c` playing `p` walls next: out of a node it holds, no strait, not yet
/// closed; a frontier (the neighbour held by another) before an inner link, one already begun
/// first, then the fewest hexes left, then the map's order. None when its policy builds no walls,
/// it does not hold its home, or it has a hex under way.
pub fn next_wall(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<usize> {
    if p.walls_share <= 0.0
        || st.lands[c as usize].owner != c
        || st.walls.under_way[c as usize].1 > 0
    {
        return None;
    }
    let s = &g.scenario;
    let mut best: Option<((bool, bool, u16), usize)> = None;
    for (u, land) in st.lands.iter().enumerate() {
        if land.owner != c {
            continue;
        }
        let (lo, hi) = (s.link_start[u] as usize, s.link_start[u + 1] as usize);
        for i in lo..hi {
            let l = &s.links[i];
            if l.sea || l.strait > 0 || st.walls.closed(g, i) {
                continue;
            }
            let inner = st.lands[l.to as usize].owner == c;
            let left = l.hexes.max(1) - st.walls.hexes[i];
            let key = (inner, st.walls.hexes[i] == 0, left);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// Stone `c` keeps from the black market's buyers for its next wall hex.
pub fn stone_wanted(g: &Game, st: &State, c: CountryId, p: &Scripted) -> i64 {
    next_wall(g, st, c, p).map_or(0, |_| HEX_STONE)
}

/// The hex `c` starts now: on its [`next_wall`], if the policy's share of its DEN above reserve
/// and wages (`walls_share`) and its stone pay for it.
pub fn planned(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<usize> {
    planned_from(g, st, c, p, &st.nations[c as usize].stock)
}

/// [`planned`] with `c`'s stocks `stock` (the search asks what is left after the turn's works
/// and road).
pub fn planned_from(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
    stock: &[i64; R],
) -> Option<usize> {
    let i = next_wall(g, st, c, p)?;
    let budget = economy::share_of_spare(g, st, c, p, stock[DEN], p.walls_share);
    (HEX_DEN <= budget && HEX_STONE <= stock[PIE]).then_some(i)
}

/// 7 CONSTRUCCIONES after the roads: each country starts the wall hex [`planned`] for it.
pub fn constructions(g: &Game, st: &mut State, plans: &[Scripted]) {
    for c in 0..st.nations.len() as CountryId {
        let Some(i) = planned(g, st, c, &plans[c as usize]) else {
            continue;
        };
        st.spend(c, DEN, HEX_DEN);
        st.spend(c, PIE, HEX_STONE);
        st.walls.under_way[c as usize] = (i as u32, HEX_MONTHS);
    }
}

/// One month of wall building: a hex whose builder no longer holds its node is lost, one in a
/// besieged home waits (L3676); a finished hex stands and scores its builder the row.
pub fn month(g: &Game, st: &mut State, besieged: &[bool], log: &mut dyn GameLog) {
    for c in 0..st.nations.len() {
        let (i, left) = st.walls.under_way[c];
        if left == 0 {
            continue;
        }
        let i = i as usize;
        let u = origin(&g.scenario, i);
        if st.lands[u as usize].owner != c as CountryId {
            st.walls.under_way[c] = (0, 0);
            continue;
        }
        if besieged[u as usize] {
            continue;
        }
        st.walls.under_way[c].1 = left - 1;
        if left > 1 {
            continue;
        }
        st.walls.hexes[i] += 1;
        st.counts.wall_hexes_built += 1;
        st.apply(
            c as CountryId,
            pv::FORTIFICATION,
            pv::WALL_HEX,
            g.culture[c],
        );
        if st.walls.closed(g, i) {
            game_log!(
                log,
                "{} closes its frontier wall {} - {}",
                g.scenario.countries[c].name,
                g.scenario.countries[u as usize].name,
                g.scenario.countries[g.scenario.links[i].to as usize].name
            );
        }
    }
}
