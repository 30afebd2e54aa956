//! Trade routes and commercial leagues (digest §4.9, rules L924-L953) and the pirates' share of a
//! maritime route (digest §4.5.6, §3.9, L4447-L4452).
//!
//! The map's routes are missing (digest §6.1), so the routes are data: abstraction.toml
//! `[trade_routes]`, each an assumed row naming its route cities (one a country), the leg from the
//! previous city by land (a land border of the region graph: roads are taken to exist, L949) or by
//! sea (a sea lane: both ends are ports), and its three products.
//!
//! A route works while its league stands (L941, L953: "as soon as the conditions hold"): every
//! country holding one of its route cities is a member, there are at least three of them, every
//! major among them joins by its policy (`trade_leagues`), every referee's country among them holds
//! a trade treaty (equal-terms or better, the second diplomacy roll's 41-75 "accept trade routes if
//! asked", L572) with a major member, and no two members are at war (option `league_war`). A
//! league's forming is a treaty signed (+1 PV to each member, digest §4.10). The coinage technology
//! of L947 is missing and taken as known by all.
//!
//! Each collection every member earns 100 DEN and 100 of each of the route's products (L933-L935).
//! A major's pirate fleets sitting on a hex of a route's sea leg take 30% of the league's
//! collection profits (L4452), and their controller gets half of that loot (L1884, as for every
//! pirate loot; option `route_piracy_loot`).
//!
//! A member major's caravan may travel the route instead of selling manufactures: from its home's
//! route city along the route's land legs, it earns 50 points per hex from the previous point of
//! each route city it visits, at most 1,000 (L927), taken as units of the route product the black
//! market prices highest, brought home like a caravan's money.

use super::diplomacy::{self, EQUAL_TRADE};
use super::files::{RouteRow, Rows};
use super::load::{bad, quoted, Loader, Names};
use super::naval::{self, Squadron};
use super::pirates::controller_share;
use super::policy::Scripted;
use super::pv;
use super::scenario::{
    City, CityId, Country, CountryId, Link, Node, Resources, DEN, POB, RESOURCES,
};
use super::state::{Mission, State, Stock, R};
use super::trade::{self, Caravan, Leg, CARAVAN_PM};
use super::Game;
use crate::dice::Dice;
use crate::error::Result;
use crate::game::GameLog;
use crate::game_log;

/// What each member earns each collection (L933-L935).
pub const MEMBER_DEN: i64 = 100;
pub const MEMBER_PRODUCT: i64 = 100;
/// Points a trip earns per hex from the previous point: by caravan, by ship; and at most (L927).
pub const LAND_POINTS_PER_HEX: i64 = 50;
pub const SEA_POINTS_PER_HEX: i64 = 25;
pub const MAX_POINTS: i64 = 1000;
/// Countries a league needs at least (L941).
pub const MIN_MEMBERS: usize = 3;
/// The pirates' share of a route's collection profits, in tenths (L4452).
pub const PIRATES_TENTHS: i64 = 3;
/// Route cities a route may have (the leagues' member lists are fixed arrays).
pub const MAX_STOPS: usize = 8;
/// Products a route provides (L951).
pub const PRODUCTS: usize = 3;

/// A route city, and the leg to it from the previous one (none for the first).
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    pub country: CountryId,
    pub city: CityId,
    pub by_sea: bool,
    pub hexes: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub name: String,
    pub stops: Vec<Stop>,
    /// Resource indices (`RESOURCES`).
    pub products: [usize; PRODUCTS],
}

impl Route {
    pub fn has_sea_leg(&self) -> bool {
        self.stops.iter().skip(1).any(|s| s.by_sea)
    }
}

/// Points of a trip over legs `(by_sea, hexes)`: each leg's hexes times its points per hex, at
/// most 1,000 (L927).
pub fn trip_points(legs: impl Iterator<Item = (bool, u16)>) -> i64 {
    let points: i64 = legs
        .map(|(sea, hexes)| {
            let per_hex = if sea {
                SEA_POINTS_PER_HEX
            } else {
                LAND_POINTS_PER_HEX
            };
            per_hex * hexes as i64
        })
        .sum();
    points.min(MAX_POINTS)
}

/// What one member earns at a collection from a route providing `products` (L933-L935).
pub fn member_income(products: &[usize; PRODUCTS]) -> Stock {
    let mut out = [0i64; R];
    out[DEN] += MEMBER_DEN;
    for &p in products {
        out[p] += MEMBER_PRODUCT;
    }
    out
}

/// The pirates' 30% of an income, per resource rounded down (L4452).
pub fn pirates_cut(income: &Stock) -> Stock {
    income.map(|v| v * PIRATES_TENTHS / 10)
}

/// One route's league in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteState {
    pub open: bool,
    /// Closed for the rest of the game (options `league_war` = dissolves, `route_conquest` =
    /// closes).
    pub closed: bool,
}

/// A league's members: the distinct holders of the route cities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Members {
    pub list: [CountryId; MAX_STOPS],
    pub len: usize,
}

impl Members {
    pub fn as_slice(&self) -> &[CountryId] {
        &self.list[..self.len]
    }
}

/// The distinct holders of route `r`'s cities.
pub fn holders(st: &State, route: &Route) -> Members {
    let mut m = Members {
        list: [0; MAX_STOPS],
        len: 0,
    };
    for s in &route.stops {
        let h = st.lands[s.country as usize].owner;
        if !m.as_slice().contains(&h) {
            m.list[m.len] = h;
            m.len += 1;
        }
    }
    m
}

/// Whether major `p` and country `t` fight: war declared either way, or `p`'s field army marching
/// on, besieging or raiding land `t` holds.
fn at_war(g: &Game, st: &State, p: CountryId, t: CountryId) -> bool {
    let pi = g.major_index[p as usize];
    if pi != u8::MAX && st.relations[diplomacy::at(st, pi as usize, t)].war {
        return true;
    }
    let ti = g.major_index[t as usize];
    if ti != u8::MAX && st.relations[diplomacy::at(st, ti as usize, p)].war {
        return true;
    }
    match st.nations[p as usize].mission {
        Mission::March { target } | Mission::Siege { target, .. } | Mission::Pillage { target } => {
            st.lands[target as usize].owner == t
        }
        _ => false,
    }
}

/// Why a league does not stand, or its members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum League {
    Open(Members),
    TooFew,
    /// A major holding a route city does not join (its policy), or no major does.
    Unwilling,
    /// A referee's country holding a route city has no trade treaty with a major member.
    NoTreaty,
    War,
}

/// Route `route`'s league as the state and the policies stand.
pub fn league(g: &Game, st: &State, plans: &[Scripted], route: &Route) -> League {
    let m = holders(st, route);
    if m.len < MIN_MEMBERS {
        return League::TooFew;
    }
    let members = m.as_slice();
    let is_major = |c: CountryId| g.major_index[c as usize] != u8::MAX;
    if members
        .iter()
        .any(|&c| is_major(c) && plans[c as usize].trade_leagues < 0.5)
        || !members.iter().any(|&c| is_major(c))
    {
        return League::Unwilling;
    }
    for &t in members.iter().filter(|&&c| !is_major(c)) {
        let partner = members.iter().any(|&p| {
            let pi = g.major_index[p as usize];
            if pi == u8::MAX {
                return false;
            }
            let r = st.relations[diplomacy::at(st, pi as usize, t)];
            !r.war && r.level >= EQUAL_TRADE
        });
        if !partner {
            return League::NoTreaty;
        }
    }
    for &p in members.iter().filter(|&&c| is_major(c)) {
        if members.iter().any(|&t| t != p && at_war(g, st, p, t)) {
            return League::War;
        }
    }
    League::Open(m)
}

/// Re-reads every league (L953): a league that forms is a treaty signed (+1 PV to each member);
/// under option `league_war` = dissolves a war between members closes the route for the game,
/// under `route_conquest` = closes a route city's conquest does.
pub fn update(g: &Game, st: &mut State, plans: &[Scripted]) {
    for (i, route) in g.scenario.routes.iter().enumerate() {
        let mut rs = st.routes[i];
        if g.route_conquest_closes
            && route
                .stops
                .iter()
                .any(|s| st.lands[s.country as usize].owner != s.country)
        {
            rs.closed = true;
        }
        let league = if rs.closed {
            League::TooFew
        } else {
            league(g, st, plans, route)
        };
        if league == League::War && g.league_war_dissolves && rs.open {
            rs.closed = true;
        }
        let open = matches!(league, League::Open(_)) && !rs.closed;
        if open && !rs.open {
            st.counts.leagues_formed += 1;
            if let League::Open(m) = league {
                for &c in m.as_slice() {
                    st.apply(c, pv::DIPLOMACY, pv::PER_TREATY, g.culture[c as usize]);
                }
            }
        } else if !open && rs.open {
            st.counts.leagues_ended += 1;
        }
        rs.open = open;
        st.routes[i] = rs;
    }
}

/// The major whose pirates sit on route `route` this collection: not a member, its policy's
/// `route_piracy` at 0.5 or more, with a port and a pirate fleet in it, its home a sea leg's end
/// or a sea lane away from one; the one with the most pirate fleets (ties to the first major).
/// Returns it and the sea-leg end its pirates sail to.
pub fn pirate(
    g: &Game,
    st: &State,
    plans: &[Scripted],
    route: &Route,
    members: &Members,
) -> Option<(CountryId, CountryId)> {
    let mut best: Option<(f64, CountryId, CountryId)> = None;
    for &c in &g.majors {
        let fleets = st.nations[c as usize].pirates;
        if members.as_slice().contains(&c)
            || plans[c as usize].route_piracy < 0.5
            || fleets < 1.0
            || !super::fleets::has_port(g, st, c)
        {
            continue;
        }
        let reach = |end: CountryId| -> Option<CountryId> {
            if end == c {
                return Some(end);
            }
            g.scenario
                .links(c)
                .iter()
                .any(|l| l.sea && l.to == end)
                .then_some(end)
        };
        let mut to = None;
        for (k, s) in route.stops.iter().enumerate().skip(1) {
            if s.by_sea {
                to = to
                    .or_else(|| reach(route.stops[k - 1].country))
                    .or_else(|| reach(s.country));
            }
        }
        if let Some(end) = to {
            if best.is_none_or(|(f, _, _)| fleets > f) {
                best = Some((fleets, c, end));
            }
        }
    }
    best.map(|(_, c, end)| (c, end))
}

/// 9 COBROS: the leagues re-read, then each open route pays its members (less the pirates' 30%
/// where a major's pirates sit on it; they sail out and back through the storms).
pub fn collection(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    update(g, st, plans);
    for (i, route) in g.scenario.routes.iter().enumerate() {
        if !st.routes[i].open {
            continue;
        }
        let members = holders(st, route);
        let income = member_income(&route.products);
        let mut pirates = None;
        if route.has_sea_leg() {
            if let Some((c, end)) = pirate(g, st, plans, route, &members) {
                let home = c;
                // A pirate at a leg's end itself sails out to the leg's hexes and back.
                if end != home {
                    naval::storms(g, st, c, Squadron::Pirates, home, end, month, dice);
                }
                if st.nations[c as usize].pirates >= 1.0 {
                    pirates = Some((c, end));
                }
            }
        }
        let mut taken = [0i64; R];
        for &m in members.as_slice() {
            let cut = if pirates.is_some() {
                pirates_cut(&income)
            } else {
                [0; R]
            };
            for r in 0..R {
                let v = income[r] - cut[r];
                if v > 0 {
                    st.gain(m, r, v);
                }
                taken[r] += cut[r];
                if r == DEN {
                    st.counts.route_den += v as f64;
                } else if r != POB {
                    st.counts.route_goods += v as f64;
                }
            }
            st.counts.route_member_collections += 1;
        }
        if let Some((c, end)) = pirates {
            let loot = if g.route_loot_all {
                taken
            } else {
                controller_share(&taken)
            };
            for (r, &v) in loot.iter().enumerate() {
                if v > 0 {
                    st.gain(c, r, v);
                }
            }
            st.counts.route_piracies += 1;
            st.counts.route_pirate_den += super::sack::worth(g, &loot);
            game_log!(
                log,
                "month {month}: pirates of {} take 30% of the {} route's profits",
                g.scenario.countries[c as usize].name,
                route.name
            );
            if end != c {
                naval::storms(g, st, c, Squadron::Pirates, end, c, month, dice);
            }
        }
    }
}

/// An open route with a city of a country, as a trip from there sees it ([`open_routes_of`]).
pub struct RouteFrom<'a> {
    pub index: usize,
    pub route: &'a Route,
    /// The country's stop on the route.
    pub start: usize,
    /// The route product the black market prices highest, and its buying price a unit: what a
    /// trip along the route earns its points in (L927).
    pub product: usize,
    pub price: f64,
}

/// The open routes with a city of `c`: where its caravans (land legs) and merchant ships (sea
/// legs) may trade along a route.
pub fn open_routes_of<'a>(
    g: &'a Game,
    st: &'a State,
    c: CountryId,
) -> impl Iterator<Item = RouteFrom<'a>> + 'a {
    g.scenario
        .routes
        .iter()
        .enumerate()
        .filter(move |&(i, _)| st.routes[i].open)
        .filter_map(move |(index, route)| {
            let start = route.stops.iter().position(|s| s.country == c)?;
            let product = *route
                .products
                .iter()
                .max_by_key(|&&r| (trade::price_per_ten(r, false), std::cmp::Reverse(r)))?;
            Some(RouteFrom {
                index,
                route,
                start,
                product,
                price: trade::price_per_ten(product, false) as f64 / 10.0,
            })
        })
}

/// The best route trip for a caravan of major `c` at home: along an open route's land legs from
/// its home's route city (forward or backward, up to the first sea leg), the points of the cities
/// visited (L927) in the route product the black market prices highest; its value is those
/// goods' worth at the buying price per month of the trip there and back.
pub fn caravan_trip(g: &Game, st: &State, c: CountryId) -> Option<(f64, Caravan)> {
    if st.lands[c as usize].owner != c {
        return None;
    }
    let mut best: Option<(f64, Caravan)> = None;
    for RouteFrom {
        index: i,
        route,
        start,
        product,
        price,
    } in open_routes_of(g, st, c)
    {
        // Forward: legs start+1..; backward: legs start, start-1, ... (a leg is stored on its
        // later stop).
        for forward in [true, false] {
            let (mut k, mut hexes, mut pm, mut legs) = (start, 0u16, 0u32, 0usize);
            loop {
                let leg = if forward { k + 1 } else { k };
                if leg == 0 || leg >= route.stops.len() || route.stops[leg].by_sea {
                    break;
                }
                let (a, b) = (route.stops[leg - 1].country, route.stops[leg].country);
                let (a, b) = if forward { (a, b) } else { (b, a) };
                pm += st.roads.cost(g, a, b);
                hexes = hexes.saturating_add(route.stops[leg].hexes);
                legs += 1;
                k = if forward { k + 1 } else { k - 1 };
            }
            if legs == 0 {
                continue;
            }
            // Points per hex from the previous point summed over the legs: the land rate times
            // all their hexes (L927).
            let points = trip_points(std::iter::once((false, hexes)));
            let travel = pm.div_ceil(CARAVAN_PM).clamp(1, u8::MAX as u32) as u8;
            let value = points as f64 * price / (2.0 * travel as f64);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((
                    value,
                    Caravan {
                        leg: Leg::Out,
                        to: route.stops[k].country,
                        months_left: travel,
                        travel,
                        route: i as u8,
                        points,
                        product: product as u8,
                        ..Caravan::default()
                    },
                ));
            }
        }
    }
    best
}

/// Whether a caravan's route trip still pays on arrival: its route's league stands.
pub fn still_open(st: &State, route: u8) -> bool {
    st.routes.get(route as usize).is_some_and(|r| r.open)
}

impl Loader<'_> {
    /// abstraction.toml `[trade_routes]` (absent: no routes), checked against the region graph.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn routes(
        &mut self,
        table: Option<&Rows<RouteRow>>,
        names: &Names,
        countries: &[Country],
        cities: &[City],
        nodes: &[Node],
        link_start: &[u32],
        links: &[Link],
        production: &[Resources],
    ) -> Result<Vec<Route>> {
        let Some(t) = table else {
            return Ok(Vec::new());
        };
        self.stand_in("trade_routes", &t.provenance, t.why.as_deref())?;
        if t.rows.len() > 64 {
            return Err(bad(
                self.ab,
                "trade_routes.rows",
                format!("{} rows", t.rows.len()),
                "at most 64 routes",
            ));
        }
        let mut out: Vec<Route> = Vec::with_capacity(t.rows.len());
        for (i, row) in t.rows.iter().enumerate() {
            let field = |f: &str| format!("trade_routes.rows[{i}].{f}");
            self.stand_in(
                &format!("trade_routes.rows[{i}]"),
                &row.provenance,
                row.why.as_deref(),
            )?;
            if let Some(s) = self.stand_ins.last_mut() {
                s.subject = row.name.clone();
            }
            if row.name.is_empty() || out.iter().any(|r| r.name == row.name) {
                return Err(bad(
                    self.ab,
                    field("name"),
                    quoted(&row.name),
                    "a name no other route has",
                ));
            }
            if !(2..=MAX_STOPS).contains(&row.stops.len()) {
                return Err(bad(
                    self.ab,
                    field("stops"),
                    format!("{} stops", row.stops.len()),
                    format!("2 to {MAX_STOPS} route cities"),
                ));
            }
            let mut stops: Vec<Stop> = Vec::with_capacity(row.stops.len());
            for (k, s) in row.stops.iter().enumerate() {
                let sf = |f: &str| format!("trade_routes.rows[{i}].stops[{k}].{f}");
                let country = names.get(self.ab, sf("country"), &s.country)?;
                let range = countries[country as usize].cities.clone();
                let city = range
                    .clone()
                    .find(|&j| cities[j as usize].name == s.city)
                    .ok_or_else(|| {
                        let listed: Vec<&str> =
                            range.map(|j| cities[j as usize].name.as_str()).collect();
                        bad(
                            self.ab,
                            sf("city"),
                            quoted(&s.city),
                            format!("a city of {} ({})", s.country, listed.join(", ")),
                        )
                    })?;
                if stops.iter().any(|x| x.city == city) {
                    return Err(bad(
                        self.ab,
                        sf("city"),
                        quoted(&s.city),
                        "a city not already on the route",
                    ));
                }
                let (by_sea, hexes) = match (k, s.by.as_deref()) {
                    (0, None) => (false, 0),
                    (0, Some(by)) => {
                        return Err(bad(
                            self.ab,
                            sf("by"),
                            quoted(by),
                            "nothing on the first route city (a leg leads to a later one)",
                        ))
                    }
                    (_, by) => {
                        let sea = match by {
                            Some("land") => false,
                            Some("sea") => true,
                            other => {
                                return Err(bad(
                                    self.ab,
                                    sf("by"),
                                    quoted(other.unwrap_or("")),
                                    "\"land\" (a land border) or \"sea\" (a sea lane)",
                                ))
                            }
                        };
                        let from = stops[k - 1].country;
                        if from == country {
                            (sea, 1)
                        } else {
                            let (lo, hi) =
                                (link_start[from as usize], link_start[from as usize + 1]);
                            let link = links[lo as usize..hi as usize]
                                .iter()
                                .find(|l| l.to == country && l.sea == sea)
                                .ok_or_else(|| {
                                    bad(
                                        self.ab,
                                        sf("by"),
                                        quoted(if sea { "sea" } else { "land" }),
                                        format!(
                                            "a leg the region graph has: {} and {} share no {}",
                                            countries[from as usize].name,
                                            s.country,
                                            if sea { "sea lane" } else { "land border" }
                                        ),
                                    )
                                })?;
                            if sea
                                && (nodes[from as usize].seas == 0
                                    || nodes[country as usize].seas == 0)
                            {
                                return Err(bad(
                                    self.ab,
                                    sf("by"),
                                    quoted("sea"),
                                    "a sea leg between ports (both ends coastal, L949)",
                                ));
                            }
                            (sea, link.hexes)
                        }
                    }
                };
                stops.push(Stop {
                    country,
                    city,
                    by_sea,
                    hexes,
                });
            }
            let mut distinct: Vec<CountryId> = stops.iter().map(|s| s.country).collect();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() < MIN_MEMBERS {
                return Err(bad(
                    self.ab,
                    field("stops"),
                    format!("{} countries", distinct.len()),
                    format!("route cities in at least {MIN_MEMBERS} countries (L941)"),
                ));
            }
            if row.products.len() != PRODUCTS {
                return Err(bad(
                    self.ab,
                    field("products"),
                    format!("{} products", row.products.len()),
                    "exactly 3 products (L951)",
                ));
            }
            let mut products = [0usize; PRODUCTS];
            for (k, name) in row.products.iter().enumerate() {
                let r = RESOURCES
                    .iter()
                    .position(|x| x == name)
                    .filter(|&r| r != POB && r != DEN && !products[..k].contains(&r));
                products[k] = r.ok_or_else(|| {
                    bad(
                        self.ab,
                        format!("trade_routes.rows[{i}].products[{k}]"),
                        quoted(name),
                        "a tradeable resource not already listed: com, met, mad, pie, cab, cam, ele, esc or man",
                    )
                })?;
            }
            // L951: at least two of the products are produced by both end countries.
            let ends = [stops[0].country, stops[stops.len() - 1].country];
            let shared = products
                .iter()
                .filter(|&&r| ends.iter().all(|&e| production[e as usize][r] > 0))
                .count();
            if shared < 2 {
                return Err(bad(
                    self.ab,
                    field("products"),
                    format!("[{}]", row.products.join(", ")),
                    format!(
                        "at least two products both end countries ({} and {}) produce (L951)",
                        countries[ends[0] as usize].name, countries[ends[1] as usize].name
                    ),
                ));
            }
            out.push(Route {
                name: row.name.clone(),
                stops,
                products,
            });
        }
        Ok(out)
    }
}
