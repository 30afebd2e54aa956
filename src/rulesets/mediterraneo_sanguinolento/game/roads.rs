//! Roads (digest §4.7, rules §21.1.1 L3798-L3800; the movement table's ×1/2, L2006) and the land
//! routes every land move follows: armies, interceptors, caravans, trade routes' legs and
//! messengers.
//!
//! On the region graph a road is laid along one land link between two nodes its builder holds
//! (the rules lay roads hex to hex; a link is the graph's run of hexes between two nodes). Every
//! unit, whoever built the road, pays half the link's PM on it (rounded up), and the cheapest land
//! paths follow the roads. Price per hex by options `road_den_per_hex` and `road_pie_per_hex`
//! (A65: the text gives none; the digest proposes 100 DEN + 100 PIE); months by option
//! `road_months` (the text gives two readings). One road under way at a time per country (L681),
//! paid in full when started (7 CONSTRUCCIONES), built month by month, lost if its builder no
//! longer holds both ends; a finished road scores the "per road built" row of §4.19 and stays
//! whoever holds its land. Not played: roads across straits (a strait is water, and the rules'
//! roads bridge rivers only) and the trade routes' need of roads between their cities (L949). A
//! road destroyed (`destruction.rs`, L3716-L3720) halves nothing any more.

use std::sync::Arc;

use super::economy;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, Scenario, DEN, PIE};
use super::state::{State, R};
use super::Game;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

pub const UNREACHABLE: u8 = u8::MAX;

/// Cheapest land paths between every pair of nodes: `next[a * n + b]` the first node on the path
/// a → b (`UNREACHABLE` where no land path exists: islands), `cost[a * n + b]` its PM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LandRoutes {
    pub next: Vec<u8>,
    pub cost: Vec<u32>,
}

/// Dijkstra from every node over the land links, `leg(from, link index)` the PM of a link.
pub fn land_routes(s: &Scenario, leg: impl Fn(CountryId, usize) -> u32) -> LandRoutes {
    let n = s.countries.len();
    let mut next = vec![UNREACHABLE; n * n];
    let mut cost = vec![u32::MAX; n * n];
    for a in 0..n {
        let row = a * n;
        let mut done = vec![false; n];
        cost[row + a] = 0;
        next[row + a] = a as u8;
        while let Some(u) = (0..n)
            .filter(|&u| !done[u] && cost[row + u] != u32::MAX)
            .min_by_key(|&u| (cost[row + u], u))
        {
            done[u] = true;
            for i in land_links(s, u as CountryId) {
                let v = s.links[i].to as usize;
                let c = cost[row + u] + leg(u as CountryId, i);
                if c < cost[row + v] {
                    cost[row + v] = c;
                    next[row + v] = if u == a { v as u8 } else { next[row + u] };
                }
            }
        }
    }
    LandRoutes { next, cost }
}

/// Indices (into the scenario's link list) of the land links leaving `c`.
fn land_links(s: &Scenario, c: CountryId) -> impl Iterator<Item = usize> + '_ {
    let (lo, hi) = (s.link_start[c as usize], s.link_start[c as usize + 1]);
    (lo as usize..hi as usize).filter(move |&i| !s.links[i].sea)
}

/// The index of the land link `from` → `to`.
pub fn link_index(s: &Scenario, from: CountryId, to: CountryId) -> Option<usize> {
    land_links(s, from).find(|&i| s.links[i].to == to)
}

/// PM to go along link `i` from `from`: hexes × the entered node's terrain PM + the strait's PM,
/// the hexes' part halved (rounded up) on a road.
pub fn leg_pm(s: &Scenario, pm: &[u32], i: usize, road: bool) -> u32 {
    let l = &s.links[i];
    let hexes = l.hexes as u32 * pm[l.to as usize];
    let hexes = if road { hexes.div_ceil(2) } else { hexes };
    hexes + l.strait as u32
}

/// How road building is priced and timed (options `road_den_per_hex`, `road_pie_per_hex`,
/// `road_months`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoadRules {
    pub den_per_hex: i64,
    pub pie_per_hex: i64,
    /// Months = the terrain's PM of its hexes (L3800's second sentence) rather than (length +
    /// the terrain's PM) ÷ 2 (its first).
    pub months_as_terrain: bool,
}

/// Price and months of a road along link `i` (either direction): its hexes × the per-hex price;
/// the terrain's PM taken as the mean of the two directions' (a link's hexes lie in both nodes).
pub fn price(g: &Game, i: usize) -> (i64, i64, u8) {
    let s = &g.scenario;
    let l = &s.links[i];
    let hexes = l.hexes as u32;
    let back_pm = g.pm[origin(s, i) as usize];
    let terrain = (hexes * (g.pm[l.to as usize] + back_pm)).div_ceil(2);
    let months = if g.roads.months_as_terrain {
        terrain
    } else {
        (hexes + terrain).div_ceil(2)
    };
    (
        g.roads.den_per_hex * hexes as i64,
        g.roads.pie_per_hex * hexes as i64,
        months.clamp(1, u8::MAX as u32) as u8,
    )
}

/// The node link `i` leaves.
pub fn origin(s: &Scenario, i: usize) -> CountryId {
    let next_start = s.link_start.partition_point(|&start| start as usize <= i);
    (next_start - 1) as CountryId
}

/// The roads of a game: where they stand, the one each country has under way, and the land
/// routes they make.
#[derive(Clone, Debug)]
pub struct Roads {
    /// Per scenario link: a road stands on it (both directions of a road are set).
    pub built: Vec<bool>,
    /// Per country: the link its road under way follows and the months left (0: none).
    pub under_way: Vec<(u32, u8)>,
    /// The land routes with the roads built so far; None while there are none (the game's
    /// roadless tables serve). Shared between copies of the state until a road is finished.
    routes: Option<Arc<LandRoutes>>,
}

impl Roads {
    pub fn new(s: &Scenario) -> Roads {
        Roads {
            built: vec![false; s.links.len()],
            under_way: vec![(0, 0); s.countries.len()],
            routes: None,
        }
    }

    /// The first node on the cheapest land path a → b (`UNREACHABLE`: none).
    pub fn next(&self, g: &Game, a: CountryId, b: CountryId) -> u8 {
        let i = a as usize * g.scenario.countries.len() + b as usize;
        self.routes.as_ref().map_or(g.next[i], |r| r.next[i])
    }

    /// PM of the cheapest land path a → b (`u32::MAX`: none).
    pub fn cost(&self, g: &Game, a: CountryId, b: CountryId) -> u32 {
        let i = a as usize * g.scenario.countries.len() + b as usize;
        self.routes.as_ref().map_or(g.cost[i], |r| r.cost[i])
    }

    /// PM to step from `from` to its land neighbour `to`, a road's halving counted.
    pub fn leg(&self, g: &Game, from: CountryId, to: CountryId) -> Option<u32> {
        let i = link_index(&g.scenario, from, to)?;
        Some(leg_pm(&g.scenario, &g.pm, i, self.built[i]))
    }

    /// Destroys the road on link `i` and its reverse (`destruction.rs`): the land routes are
    /// recomputed from the roads left (the roadless tables when none is left).
    pub fn raze(&mut self, g: &Game, i: usize) {
        let s = &g.scenario;
        let back = link_index(s, s.links[i].to, origin(s, i)).expect("land links go both ways");
        self.built[i] = false;
        self.built[back] = false;
        self.routes = if self.built.iter().any(|&b| b) {
            let built = &self.built;
            Some(Arc::new(land_routes(s, |_, j| {
                leg_pm(s, &g.pm, j, built[j])
            })))
        } else {
            None
        };
    }

    /// Lays a road on link `i` and its reverse and shortens the land routes through it.
    fn lay(&mut self, g: &Game, i: usize) {
        let s = &g.scenario;
        let (u, v) = (origin(s, i), s.links[i].to);
        let back = link_index(s, v, u).expect("land links go both ways");
        self.built[i] = true;
        self.built[back] = true;
        let routes = Arc::make_mut(self.routes.get_or_insert_with(|| {
            Arc::new(LandRoutes {
                next: g.next.clone(),
                cost: g.cost.clone(),
            })
        }));
        shorten(routes, s.countries.len(), u, v, leg_pm(s, &g.pm, i, true));
        shorten(
            routes,
            s.countries.len(),
            v,
            u,
            leg_pm(s, &g.pm, back, true),
        );
    }
}

/// All-pairs cheapest paths after the link u → v got cheaper (now `w` PM): a path improves only
/// by going a → u, along the link, then v → b, each part already cheapest (weights are never
/// negative, so neither part uses the link itself and updating in place is safe).
fn shorten(r: &mut LandRoutes, n: usize, u: CountryId, v: CountryId, w: u32) {
    let (u, v) = (u as usize, v as usize);
    for a in 0..n {
        let to_u = r.cost[a * n + u];
        if to_u == u32::MAX {
            continue;
        }
        let first = if a == u { v as u8 } else { r.next[a * n + u] };
        for b in 0..n {
            let from_v = r.cost[v * n + b];
            if from_v == u32::MAX {
                continue;
            }
            let through = to_u + w + from_v;
            if through < r.cost[a * n + b] {
                r.cost[a * n + b] = through;
                r.next[a * n + b] = first;
            }
        }
    }
}

/// The road country `c` playing `p` builds next: the cheapest (fewest hexes, then the most PM
/// saved both ways, then the scenario's order) land link without a strait or a road between two
/// nodes it holds, when its policy builds roads, it holds its home, may build roads (not
/// barbarians, L4108) and has none under way.
pub fn next_road(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<usize> {
    if p.roads_share <= 0.0
        || st.lands[c as usize].owner != c
        || g.culture[c as usize] == Culture::Barbarian
        || st.roads.under_way[c as usize].1 > 0
    {
        return None;
    }
    let s = &g.scenario;
    let mut best: Option<((u16, i64), usize)> = None;
    for (u, land) in st.lands.iter().enumerate() {
        if land.owner != c {
            continue;
        }
        for i in land_links(s, u as CountryId) {
            let l = &s.links[i];
            let v = l.to as usize;
            if v < u || l.strait > 0 || st.roads.built[i] || st.lands[v].owner != c {
                continue;
            }
            let back = link_index(s, l.to, u as CountryId).expect("land links go both ways");
            let saved = (leg_pm(s, &g.pm, i, false) - leg_pm(s, &g.pm, i, true)
                + leg_pm(s, &g.pm, back, false)
                - leg_pm(s, &g.pm, back, true)) as i64;
            let key = (l.hexes, -saved);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// Stone `c` keeps from the black market's buyers (and buys there, `trade.rs`) for its next road.
pub fn stone_wanted(g: &Game, st: &State, c: CountryId, p: &Scripted) -> i64 {
    next_road(g, st, c, p).map_or(0, |i| price(g, i).1)
}

/// The road `c` starts now: its [`next_road`], if the policy's share of its DEN above reserve
/// and wages (`roads_share`) and its stone pay for it.
pub fn planned(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<usize> {
    planned_from(g, st, c, p, &st.nations[c as usize].stock)
}

/// [`planned`] with `c`'s stocks `stock` (the search asks what is left after the turn's works).
pub fn planned_from(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
    stock: &[i64; R],
) -> Option<usize> {
    let i = next_road(g, st, c, p)?;
    let (den, pie, _) = price(g, i);
    let budget = economy::share_of_spare(g, st, c, p, stock[DEN], p.roads_share);
    (den <= budget && pie <= stock[PIE]).then_some(i)
}

/// 7 CONSTRUCCIONES after the works: each country starts the road [`planned`] for it.
pub fn constructions(g: &Game, st: &mut State, plans: &[Scripted], log: &mut dyn GameLog) {
    for c in 0..st.nations.len() as CountryId {
        let Some(i) = planned(g, st, c, &plans[c as usize]) else {
            continue;
        };
        let (den, pie, months) = price(g, i);
        st.spend(c, DEN, den);
        st.spend(c, PIE, pie);
        st.roads.under_way[c as usize] = (i as u32, months);
        st.counts.roads_started += 1;
        game_log!(
            log,
            "{} starts a road {} - {} ({} hexes: {den} DEN, {pie} PIE, {months} months)",
            g.scenario.countries[c as usize].name,
            g.scenario.countries[origin(&g.scenario, i) as usize].name,
            g.scenario.countries[g.scenario.links[i].to as usize].name,
            g.scenario.links[i].hexes
        );
    }
}

/// One month of road building: a road whose builder no longer holds both its ends is lost; a
/// finished one is laid and scores its builder the §4.19 row.
pub fn month(g: &Game, st: &mut State, log: &mut dyn GameLog) {
    for c in 0..st.nations.len() {
        let (i, left) = st.roads.under_way[c];
        if left == 0 {
            continue;
        }
        let i = i as usize;
        let (u, v) = (origin(&g.scenario, i), g.scenario.links[i].to);
        let ours = |x: CountryId| st.lands[x as usize].owner == c as CountryId;
        if !ours(u) || !ours(v) {
            st.roads.under_way[c] = (0, 0);
            continue;
        }
        st.roads.under_way[c].1 = left - 1;
        if left == 1 {
            st.roads.lay(g, i);
            st.counts.roads_built += 1;
            st.apply(c as CountryId, pv::WORKS, pv::ROAD_BUILT, g.culture[c]);
            game_log!(
                log,
                "{} finishes its road {} - {}",
                g.scenario.countries[c].name,
                g.scenario.countries[u as usize].name,
                g.scenario.countries[v as usize].name
            );
        }
    }
}
