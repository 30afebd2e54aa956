//! Trade by sea (digest §4.9, rules L857-L920, L924-L953, L5225) and fishing fleets (digest §4.9
//! "Fishing fleets", rules §6.11 L1062-L1110): the majors' merchant fleets (FC) and fishing
//! fleets (FP).
//!
//! Merchant fleets: a major keeps up to its policy's `merchant_fleets` (the printed cost: 100 POB,
//! 100 DEN, 150 MAD; no crew morale; 3 months' training, L1734). A fleet at home loads up to five
//! lots of 100 MAN (the five months' limit of L860; its 2,000 points of cargo hold more, and a
//! fleet that storms have thinned carries a tenth of them per ship left) and sails over the sea
//! lanes (the cheapest path in hexes, FC's 26 PM a month) to the port of the country with a trade
//! treaty (equal-terms or better, as for caravans) that pays most a month of the whole trip: the
//! sea table's band by the path's hexes (L896-L912, A54b by option `sea_manufactures_41`) times
//! the port's importance (abstraction.toml `[sea_trade]`, placeholder). Each month there it sells
//! a lot and its receiver earns a third more (L860); home again it banks the money (L862). Instead
//! of selling it may sail a trade route's sea legs from its home's route city: 25 points a sea hex
//! (L927), at most 1,000, as the caravans do on the land legs (`routes.rs`).
//!
//! Calls (L5225): a merchant fleet of a nation the rulebook names (`merchant_call_den`: Cartago,
//! Atenas) earns 10 DEN each time it puts in at a port its nation does not hold: every lane of its
//! path ends in a port (ships may not stay more than 3 months at sea, L2056), so a trip's calls
//! are the foreign ports it passes through on the way out and back, and its destination once
//! (option `merchant_call_bonus`: per fleet, or per ship afloat in it). The money travels with the
//! fleet and is banked at home with the rest.
//!
//! Fishing fleets: a major keeps its policy's `fishing_fleets` (200 POB, 50 DEN, 125 MAD). They
//! fish 5 months, then spend 1 in port (L1066), each month at sea yielding the table's COM or DEN
//! (policy `fish_for_den`) of the richest sea their home port touches, less 1 COM (12 DEN) in rain
//! and 2 (24) in storm or snow (snow read as storm, as A33 reads it for the storm number), never
//! below 0; a fishing factory at home multiplies the catch by 1.3 (`works.rs`).
//!
//! Every fleet at sea in a month (merchants out or back, fishers out) risks the storm of the
//! battle code's `storm_loss_chance` (the worse weather of the lane's ends, winter, the ocean, +1
//! after its first month at sea) and loses 1D10 ships; a merchant fleet loses that share of what
//! it carries, and is gone with the rest when no ship is left. A nation whose home has fallen loses
//! its merchant and fishing fleets and what they carry (no captures: the port's warfleets are the
//! taker's, `repairs.rs`).

use super::economy;
use super::load::{bad, culture_code, every_culture, Loader};
use super::military::{weather_at, winter};
use super::naval::{crossing_weather, ocean, SHIPS_PER_FLEET};
use super::policy::Scripted;
use super::routes::{self, open_routes_of, trip_points, RouteFrom};
use super::scenario::{CountryId, Scenario, DEN, MAN, SEAS};
use super::state::{State, R};
use super::trade::{self, Leg, MAN_LOT, MAX_TRADING_MONTHS, RECEIVER_DIVISOR};
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;
use crate::error::Result;
use crate::rulesets::mediterraneo_sanguinolento::data::{data, Fleet};
use crate::rulesets::mediterraneo_sanguinolento::naval as battle;

/// Merchant fleets a nation may keep (the policy's range).
pub const MAX_MERCHANT_FLEETS: usize = 3;
/// Fishing fleets a nation may keep (the policy's range).
pub const MAX_FISHING_FLEETS: u8 = 10;
/// Fleet codes (digest §3.1.2).
pub const MERCHANT: &str = "FC";
pub const FISHING: &str = "FP";
/// Months a fishing fleet stays at sea before its month in port (L1066).
pub const FISHING_MONTHS: u8 = 5;
/// FC and FP are operational exactly 3 months after they are bought (no crew morale, L1734).
pub const TRAINING_MONTHS: u32 = 3;
/// Points of cargo one lot of MAN takes.
const LOT_POINTS: u32 = 100;

pub fn merchant() -> &'static Fleet {
    data().fleet(MERCHANT).expect("naval-units.toml lists FC")
}

pub fn fishing() -> &'static Fleet {
    data().fleet(FISHING).expect("naval-units.toml lists FP")
}

/// DEN per lot of 100 MAN a month at a port `hexes` away by sea, before its importance (L896-L912).
/// The printed bands 36-41 and 41-45 overlap at 41: `forty_one_low` reads it in the lower band,
/// else (A54b's recommendation) in the upper one.
pub fn sea_band(hexes: u32, forty_one_low: bool) -> i64 {
    match hexes {
        ..=15 => 100,
        16..=25 => 200,
        26..=35 => 300,
        36..=40 => 400,
        41 if forty_one_low => 400,
        41..=45 => 500,
        46..=50 => 600,
        51..=55 => 700,
        _ => 800,
    }
}

/// What a merchant fleet earns each month at a port `hexes` away of importance `importance`
/// (1-3), and what its receiver earns beside it (a third, L860).
pub fn sea_profit(hexes: u32, importance: u8, forty_one_low: bool) -> (i64, i64) {
    let merchant = sea_band(hexes, forty_one_low) * importance as i64;
    (merchant, merchant / RECEIVER_DIVISOR)
}

/// A fishing fleet's month in sea `sea` (index of `SEAS`): (COM, DEN) by the table of L1066-L1110.
pub fn fishing_yield(sea: usize) -> (i64, i64) {
    match SEAS[sea] {
        "atlantic" | "indian" => (5, 60),
        "mediterranean" => (4, 48),
        _ => (3, 36),
    }
}

/// What the month's weather takes from a fishing fleet's month: rain -1 COM (-12 DEN), storm -2
/// (-24); snow as storm (A33's reading).
pub fn fishing_penalty(w: Weather) -> (i64, i64) {
    match w {
        Weather::Clear => (0, 0),
        Weather::Rain => (1, 12),
        Weather::Storm | Weather::Snow => (2, 24),
    }
}

/// One fleet's month of fishing in `sea` in weather `w`, in COM or DEN, never below 0.
pub fn fishing_month(sea: usize, w: Weather, in_den: bool) -> i64 {
    let (base, penalty) = (fishing_yield(sea), fishing_penalty(w));
    if in_den {
        (base.1 - penalty.1).max(0)
    } else {
        (base.0 - penalty.0).max(0)
    }
}

/// The richest sea node `c` touches (its fishing waters), None when landlocked.
pub fn fishing_sea(s: &Scenario, c: CountryId) -> Option<usize> {
    let seas = s.nodes[c as usize].seas;
    (0..SEAS.len())
        .filter(|&i| seas & (1 << i) != 0)
        .max_by_key(|&i| (fishing_yield(i).0, std::cmp::Reverse(i)))
}

/// abstraction.toml `[sea_trade]`, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeaTradeData {
    /// Per culture (index of `scenario::CULTURES`): its ports' importance multiplier (1-3).
    pub port_importance: [u8; 3],
    /// Merchant ships may sail a land edge whose two nodes touch a common sea (coasting).
    pub coastal_legs: bool,
}

impl Default for SeaTradeData {
    fn default() -> SeaTradeData {
        SeaTradeData {
            port_importance: [1; 3],
            coastal_legs: false,
        }
    }
}

/// One merchant fleet of a major, and what it carries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Merchant {
    pub leg: Leg,
    /// Ships afloat (10 when launched).
    pub ships: u8,
    /// The receiving country (or the route's last city's).
    pub to: CountryId,
    /// Months at sea left (out or back), and the trip's months each way.
    pub months_left: u8,
    pub travel: u8,
    /// Months at sea since it left its last port stay (the storm's +1 after the first).
    pub at_sea: u8,
    /// MAN carried, DEN earned and not yet banked.
    pub man: i64,
    pub den: i64,
    /// DEN it earns each month at its port, and its receiver's share.
    pub rate: i64,
    pub receiver: i64,
    /// Foreign ports it puts in at on the way out (its destination included) and back.
    pub calls_out: u8,
    pub calls_back: u8,
    /// A trip along a trade route's sea legs: the route, its points, the goods earned, the product.
    pub route: u8,
    pub points: i64,
    pub goods: i64,
    pub product: u8,
}

/// A nation's merchant and fishing fleets, and those on its stocks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeaTrade {
    pub merchants: [Merchant; MAX_MERCHANT_FLEETS],
    /// Merchant fleets being built and the game month they join the port.
    pub merchant_yard: (u8, u32),
    /// Fishing fleets (tenths are single ships).
    pub fishing: f64,
    /// Fishing fleets being built and the month they join the port.
    pub fishing_yard: (u8, u32),
    /// Months the fishing fleets have been at sea in this cycle (5: the next is in port).
    pub months_out: u8,
}

impl SeaTrade {
    /// Ships afloat (in port or at sea; not those on the stocks).
    pub fn ships(&self) -> f64 {
        let merchants: f64 = self.merchants.iter().map(|m| m.ships as f64).sum();
        merchants + self.fishing * SHIPS_PER_FLEET
    }

    /// Merchant fleets afloat.
    pub fn merchant_fleets(&self) -> usize {
        self.merchants.iter().filter(|m| m.leg != Leg::None).count()
    }
}

/// The sea paths from each major's home over the sea lanes: hexes to every node (u16::MAX: none)
/// and the previous node on the cheapest path.
#[derive(Clone, Debug, Default)]
pub struct SeaPaths {
    pub hexes: Vec<u16>,
    pub prev: Vec<CountryId>,
}

/// What the sea trade reads from the game's options and scenario, fixed for a set of games.
#[derive(Clone, Debug, Default)]
pub struct SeaRules {
    /// Per major (index in `Game::majors`).
    pub paths: Vec<SeaPaths>,
    /// Option `sea_manufactures_41` = lower (A54b).
    pub forty_one_low: bool,
    /// Option `merchant_call_bonus` = ship: the call's DEN per ship afloat, not per fleet.
    pub call_per_ship: bool,
}

impl SeaRules {
    pub fn new(s: &Scenario, majors: &[CountryId], options: &crate::options::Options) -> SeaRules {
        SeaRules {
            paths: majors.iter().map(|&m| sea_paths(s, m)).collect(),
            forty_one_low: options.choice("sea_manufactures_41") == "lower",
            call_per_ship: options.choice("merchant_call_bonus") == "ship",
        }
    }
}

/// Cheapest paths in hexes from `from` over the sea lanes, and the coastal legs if the scenario
/// allows them (Dijkstra on the region graph).
pub fn sea_paths(s: &Scenario, from: CountryId) -> SeaPaths {
    let n = s.countries.len();
    let mut hexes = vec![u16::MAX; n];
    let mut prev = vec![from; n];
    let mut done = vec![false; n];
    hexes[from as usize] = 0;
    while let Some(a) = (0..n)
        .filter(|&i| !done[i] && hexes[i] != u16::MAX)
        .min_by_key(|&i| hexes[i])
    {
        done[a] = true;
        let coast = |to: CountryId| {
            s.sea_trade.coastal_legs && s.nodes[a].seas & s.nodes[to as usize].seas != 0
        };
        for l in s
            .links(a as CountryId)
            .iter()
            .filter(|l| l.sea || coast(l.to))
        {
            let d = hexes[a].saturating_add(l.hexes);
            if d < hexes[l.to as usize] {
                hexes[l.to as usize] = d;
                prev[l.to as usize] = a as CountryId;
            }
        }
    }
    SeaPaths { hexes, prev }
}

/// Foreign ports (nodes `c` does not hold) strictly between `c`'s home and `t` on its sea path.
fn foreign_between(g: &Game, st: &State, p: usize, t: CountryId) -> u8 {
    let c = g.majors[p];
    let prev = &g.sea.paths[p].prev;
    let mut at = prev[t as usize];
    let mut calls = 0u8;
    while at != c {
        calls += (st.lands[at as usize].owner != c) as u8;
        at = prev[at as usize];
    }
    calls
}

/// Whether `t` has a port a merchant fleet can trade at: its node touches a sea and it has cities.
fn port(g: &Game, t: CountryId) -> bool {
    g.scenario.nodes[t as usize].seas != 0 && !g.scenario.countries[t as usize].cities.is_empty()
}

/// Months a merchant fleet takes over `hexes` sea hexes (FC's PM a month, 1 PM a sea hex).
fn sea_months(hexes: u32) -> u8 {
    hexes
        .div_ceil(merchant().movement.max(1))
        .clamp(1, u8::MAX as u32) as u8
}

/// The lots of MAN a fleet of `ships` ships can carry: its cargo points per ship, at most the
/// five months' lots.
pub fn capacity(ships: u8) -> i64 {
    let points = merchant().carries_points * ships as u32 / SHIPS_PER_FLEET as u32;
    ((points / LOT_POINTS) as i64).min(MAX_TRADING_MONTHS)
}

/// The best sale for a merchant fleet of major `p` carrying `lots` lots: the port that pays most
/// DEN a month of the whole trip (out, trading, back); ties to the lower number.
pub fn destination(g: &Game, st: &State, p: usize, lots: i64) -> Option<(f64, Merchant)> {
    let paths = &g.sea.paths[p];
    let mut best: Option<(f64, Merchant)> = None;
    for t in 0..g.scenario.countries.len() as CountryId {
        let hexes = paths.hexes[t as usize];
        if hexes == u16::MAX || hexes == 0 || !port(g, t) || !trade::receives(g, st, p, t) {
            continue;
        }
        let travel = sea_months(hexes as u32);
        let importance = g.scenario.sea_trade.port_importance[g.culture_index(t)];
        let (rate, receiver) = sea_profit(hexes as u32, importance, g.sea.forty_one_low);
        let value = (rate * lots) as f64 / (2.0 * travel as f64 + lots as f64);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            let between = foreign_between(g, st, p, t);
            best = Some((
                value,
                Merchant {
                    leg: Leg::Out,
                    to: t,
                    months_left: travel,
                    travel,
                    man: lots * MAN_LOT,
                    rate,
                    receiver,
                    calls_out: between + 1,
                    calls_back: between,
                    ..Merchant::default()
                },
            ));
        }
    }
    best
}

/// The best trip along an open trade route's sea legs from `c`'s home's route city (forward or
/// backward, up to the first land leg): 25 points a sea hex (L927), at most 1,000, in the route
/// product the black market prices highest; valued as the caravans' route trips are.
pub fn route_trip(g: &Game, st: &State, c: CountryId) -> Option<(f64, Merchant)> {
    let mut best: Option<(f64, Merchant)> = None;
    for RouteFrom {
        index: i,
        route,
        start,
        product,
        price,
    } in open_routes_of(g, st, c)
    {
        for forward in [true, false] {
            let (mut k, mut hexes, mut legs, mut foreign) = (start, 0u32, 0usize, 0u8);
            loop {
                let leg = if forward { k + 1 } else { k };
                if leg == 0 || leg >= route.stops.len() || !route.stops[leg].by_sea {
                    break;
                }
                hexes += route.stops[leg].hexes as u32;
                legs += 1;
                k = if forward { k + 1 } else { k - 1 };
                let stop = route.stops[k].country;
                foreign += (st.lands[stop as usize].owner != c) as u8;
            }
            if legs == 0 {
                continue;
            }
            let points = trip_points(std::iter::once((true, hexes.min(u16::MAX as u32) as u16)));
            let travel = sea_months(hexes);
            let value = points as f64 * price / (2.0 * travel as f64);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                let last = route.stops[k].country;
                let last_foreign = (st.lands[last as usize].owner != c) as u8;
                best = Some((
                    value,
                    Merchant {
                        leg: Leg::Out,
                        to: last,
                        months_left: travel,
                        travel,
                        calls_out: foreign,
                        calls_back: foreign - last_foreign,
                        route: i as u8,
                        points,
                        product: product as u8,
                        ..Merchant::default()
                    },
                ));
            }
        }
    }
    best
}

/// Sends every merchant fleet of the `p`-th major at home: the better of a sale of the MAN it can
/// load and a route trip (phase 5, beside the caravans).
pub fn send(g: &Game, st: &mut State, p: usize) {
    let c = g.majors[p];
    if st.lands[c as usize].owner != c {
        return;
    }
    for i in 0..MAX_MERCHANT_FLEETS {
        let m = st.nations[c as usize].sea.merchants[i];
        if m.leg != Leg::Home {
            continue;
        }
        let lots = (st.nations[c as usize].stock[MAN] / MAN_LOT).min(capacity(m.ships));
        let sale = (lots > 0).then(|| destination(g, st, p, lots)).flatten();
        let route = route_trip(g, st, c);
        let trip = match (sale, route) {
            (Some(s), Some(r)) => Some(if r.0 > s.0 { r.1 } else { s.1 }),
            (s, r) => s.or(r).map(|x| x.1),
        };
        let Some(mut trip) = trip else {
            break;
        };
        trip.ships = m.ships;
        st.nations[c as usize].stock[MAN] -= trip.man;
        st.nations[c as usize].sea.merchants[i] = trip;
        if trip.points > 0 {
            st.counts.merchant_route_trips += 1;
        } else {
            st.counts.merchant_trips += 1;
        }
    }
}

/// What one fleet of `fleet` costs (the printed creation cost; FC and FP pay no crew morale).
fn cost(fleet: &Fleet) -> [i64; R] {
    super::fleets::fleet_cost(fleet, super::fleets::CREW_CLASS, true)
}

/// Whole fleets of cost `cost` `c` can pay keeping `keep` DEN.
fn affordable(st: &State, c: CountryId, cost: &[i64; R], keep: i64) -> i64 {
    let stock = &st.nations[c as usize].stock;
    (0..R)
        .filter(|&r| cost[r] > 0)
        .map(|r| {
            let have = if r == DEN { stock[r] - keep } else { stock[r] };
            have.max(0) / cost[r]
        })
        .min()
        .unwrap_or(0)
}

/// 6 COMPRAS: each major with a port orders the merchant and fishing fleets its policy wants
/// beyond what it has and builds, as many as it pays keeping its DEN reserve and wages.
pub fn purchases(g: &Game, st: &mut State, plans: &[Scripted], month: u32) {
    for &c in &g.majors {
        if !super::fleets::has_port(g, st, c) {
            continue;
        }
        let p = &plans[c as usize];
        let sea = st.nations[c as usize].sea;
        let orders = [
            (
                merchant(),
                (p.merchant_fleets as usize).min(MAX_MERCHANT_FLEETS) as i64
                    - sea.merchant_fleets() as i64
                    - sea.merchant_yard.0 as i64,
                sea.merchant_yard.0 == 0,
            ),
            (
                fishing(),
                p.fishing_fleets.min(MAX_FISHING_FLEETS) as i64
                    - sea.fishing.ceil() as i64
                    - sea.fishing_yard.0 as i64,
                sea.fishing_yard.0 == 0,
            ),
        ];
        for (i, (fleet, wanted, yard_free)) in orders.into_iter().enumerate() {
            if wanted <= 0 || !yard_free {
                continue;
            }
            let cost = cost(fleet);
            let keep = economy::den_to_keep(g, st, c, p);
            let k = wanted.min(affordable(st, c, &cost, keep));
            if k <= 0 {
                continue;
            }
            for (r, &v) in cost.iter().enumerate() {
                st.spend(c, r, v * k);
            }
            let sooner = super::works::shipyard_months(st, c, &fleet.code);
            let yard = (k as u8, month + TRAINING_MONTHS - sooner);
            let sea = &mut st.nations[c as usize].sea;
            if i == 0 {
                sea.merchant_yard = yard;
                st.counts.merchant_fleets_bought += k as u32;
            } else {
                sea.fishing_yard = yard;
                st.counts.fishing_fleets_bought += k as u32;
            }
        }
    }
}

/// Merchant and fishing fleets whose months of building are over join the home port (lost if it
/// has fallen).
pub fn launch(g: &Game, st: &mut State, month: u32) {
    for &c in &g.majors {
        let sea = st.nations[c as usize].sea;
        let port = super::fleets::has_port(g, st, c);
        if sea.merchant_yard.0 > 0 && month >= sea.merchant_yard.1 {
            let ships = sea.merchant_yard.0 as f64 * SHIPS_PER_FLEET;
            st.ledger.ships_built += ships;
            let s = &mut st.nations[c as usize].sea;
            s.merchant_yard = (0, 0);
            if port {
                let mut left = sea.merchant_yard.0;
                for m in s.merchants.iter_mut().filter(|m| m.leg == Leg::None) {
                    if left == 0 {
                        break;
                    }
                    *m = Merchant {
                        leg: Leg::Home,
                        ships: SHIPS_PER_FLEET as u8,
                        ..Merchant::default()
                    };
                    left -= 1;
                }
                st.ledger.ships_lost += left as f64 * SHIPS_PER_FLEET;
            } else {
                st.ledger.ships_lost += ships;
            }
        }
        let sea = st.nations[c as usize].sea;
        if sea.fishing_yard.0 > 0 && month >= sea.fishing_yard.1 {
            let fleets = sea.fishing_yard.0 as f64;
            st.ledger.ships_built += fleets * SHIPS_PER_FLEET;
            let s = &mut st.nations[c as usize].sea;
            s.fishing_yard = (0, 0);
            if port {
                s.fishing += fleets;
            } else {
                st.ledger.ships_lost += fleets * SHIPS_PER_FLEET;
            }
        }
    }
}

/// Ships of `ships` lost to a storm this month at sea between `a` and `b` (0: none): the storm's
/// chance, then 1D10 ships, at most those afloat.
fn storm(
    g: &Game,
    st: &State,
    a: CountryId,
    b: CountryId,
    month: u32,
    after_first: bool,
    dice: &mut Dice,
) -> u32 {
    let weather = crossing_weather(g, st, a, b);
    let chance = battle::storm_loss_chance(weather, winter(g, month), ocean(g, a, b), after_first);
    if dice.chance(chance) {
        dice.d(10)
    } else {
        0
    }
}

/// Call DEN a merchant fleet of `c` with `ships` ships earns for `calls` calls (L5225).
fn call_den(g: &Game, c: CountryId, calls: u8, ships: u8) -> i64 {
    let (den, who) = g.scenario.special.merchant_call;
    if calls == 0 || !who.contains(c) {
        return 0;
    }
    let per_call = den as i64 * if g.sea.call_per_ship { ships as i64 } else { 1 };
    per_call * calls as i64
}

/// Credits a merchant fleet's calls (carried home with its money).
fn calls(g: &Game, st: &mut State, c: CountryId, m: &mut Merchant, calls: u8) {
    let den = call_den(g, c, calls, m.ships);
    if den > 0 {
        m.den += den;
        st.ledger.gained[DEN] += den;
        st.counts.merchant_calls += calls as u32;
        st.counts.merchant_call_den += den as f64;
    }
}

/// A merchant fleet loses `sunk` of its ships and that share of its cargo; gone when none is left.
pub(super) fn sink(st: &mut State, m: &mut Merchant, sunk: u32) {
    let sunk = sunk.min(m.ships as u32) as i64;
    if sunk == 0 {
        return;
    }
    let ships = m.ships as i64;
    let lose = |v: &mut i64| {
        let lost = *v * sunk / ships;
        *v -= lost;
        lost
    };
    let (man, den, goods) = (lose(&mut m.man), lose(&mut m.den), lose(&mut m.goods));
    st.ledger.spent[MAN] += man;
    st.ledger.spent[DEN] += den;
    st.ledger.spent[m.product as usize] += goods;
    st.ledger.ships_lost += sunk as f64;
    st.counts.merchant_ships_lost += sunk as f64;
    st.counts.merchant_man_lost += man as f64;
    st.counts.merchant_den_lost += den as f64;
    m.ships -= sunk as u8;
    if m.ships == 0 {
        st.counts.merchant_fleets_sunk += 1;
        *m = Merchant::default();
    }
}

/// A merchant fleet home: its money, unsold MAN and goods into the stock.
fn bank(st: &mut State, c: CountryId, m: &mut Merchant) {
    let n = &mut st.nations[c as usize];
    n.stock[DEN] += m.den;
    n.stock[MAN] += m.man;
    n.stock[m.product as usize] += m.goods;
    *m = Merchant {
        leg: Leg::Home,
        ships: m.ships,
        ..Merchant::default()
    };
}

/// Everything `c` has at sea and in port is lost with its home (what they carry too).
fn lose_all(st: &mut State, c: CountryId) {
    let sea = std::mem::take(&mut st.nations[c as usize].sea);
    let ships = sea.ships();
    if ships == 0.0 && sea.merchant_yard.0 == 0 && sea.fishing_yard.0 == 0 {
        return;
    }
    for m in &sea.merchants {
        st.ledger.spent[MAN] += m.man;
        st.ledger.spent[DEN] += m.den;
        st.ledger.spent[m.product as usize] += m.goods;
    }
    st.ledger.ships_lost += ships;
    // The yards stay to be lost at launch (as the warfleets' are).
    let n = &mut st.nations[c as usize].sea;
    n.merchant_yard = sea.merchant_yard;
    n.fishing_yard = sea.fishing_yard;
}

/// One month of every major's merchant and fishing fleets.
pub fn month(g: &Game, st: &mut State, plans: &[Scripted], month: u32, dice: &mut Dice) {
    for (p, &c) in g.majors.iter().enumerate() {
        if st.lands[c as usize].owner != c {
            lose_all(st, c);
            continue;
        }
        for i in 0..MAX_MERCHANT_FLEETS {
            let mut m = st.nations[c as usize].sea.merchants[i];
            merchant_month(g, st, p, &mut m, month, dice);
            st.nations[c as usize].sea.merchants[i] = m;
        }
        fishing_month_of(g, st, c, &plans[c as usize], month, dice);
    }
}

fn merchant_month(
    g: &Game,
    st: &mut State,
    p: usize,
    m: &mut Merchant,
    month: u32,
    dice: &mut Dice,
) {
    let c = g.majors[p];
    match m.leg {
        Leg::None | Leg::Home => {}
        Leg::Out | Leg::Back => {
            let sunk = storm(g, st, c, m.to, month, m.at_sea > 0, dice);
            m.at_sea += 1;
            sink(st, m, sunk);
            if m.leg == Leg::None {
                return;
            }
            m.months_left -= 1;
            if m.months_left > 0 {
                return;
            }
            m.at_sea = 0;
            if m.leg == Leg::Back {
                let back = m.calls_back;
                calls(g, st, c, m, back);
                bank(st, c, m);
                return;
            }
            m.leg = Leg::Trading;
            let out = m.calls_out;
            calls(g, st, c, m, out);
            if m.points > 0 && routes::still_open(st, m.route) {
                m.goods = m.points;
                st.ledger.gained[m.product as usize] += m.goods;
                st.counts.merchant_route_goods += m.goods as f64;
            }
        }
        Leg::Trading if m.man >= MAN_LOT && trade::receives(g, st, p, m.to) => {
            m.man -= MAN_LOT;
            st.ledger.spent[MAN] += MAN_LOT;
            m.den += m.rate;
            st.ledger.gained[DEN] += m.rate;
            st.gain(m.to, DEN, m.receiver);
            st.counts.merchant_den += m.rate as f64;
            if m.man < MAN_LOT {
                (m.leg, m.months_left) = (Leg::Back, m.travel);
            }
        }
        Leg::Trading => (m.leg, m.months_left) = (Leg::Back, m.travel),
    }
}

/// A month of `c`'s fishing fleets: 5 at sea (the storm's risk, the table's output), then 1 in port.
fn fishing_month_of(
    g: &Game,
    st: &mut State,
    c: CountryId,
    plan: &Scripted,
    month: u32,
    dice: &mut Dice,
) {
    let sea = st.nations[c as usize].sea;
    if sea.fishing <= 0.0 {
        return;
    }
    let Some(waters) = fishing_sea(&g.scenario, c) else {
        return;
    };
    if sea.months_out >= FISHING_MONTHS {
        st.nations[c as usize].sea.months_out = 0;
        return;
    }
    // Storms: each whole fleet risks one (the ocean's +2 on the Atlantic or Indian waters).
    let weather = weather_at(g, st, c);
    let ocean = matches!(SEAS[waters], "atlantic" | "indian");
    let chance = battle::storm_loss_chance(
        crossing_weather(g, st, c, c),
        winter(g, month),
        ocean,
        sea.months_out > 0,
    );
    let mut sunk = 0.0;
    for _ in 0..sea.fishing.floor() as u32 {
        if dice.chance(chance) {
            sunk += dice.d(10) as f64;
        }
    }
    let sunk = sunk.min(sea.fishing * SHIPS_PER_FLEET);
    st.ledger.ships_lost += sunk;
    st.counts.fishing_ships_lost += sunk;
    let fleets = (sea.fishing - sunk / SHIPS_PER_FLEET).max(0.0);
    let s = &mut st.nations[c as usize].sea;
    s.fishing = if fleets < 1e-9 { 0.0 } else { fleets };
    s.months_out += 1;
    let in_den = plan.fish_for_den >= 0.5;
    let factory = super::works::fishing_multiplier(st, c);
    let catch = (fishing_month(waters, weather, in_den) as f64 * fleets * factory).floor() as i64;
    st.counts.fishing_fleet_months += fleets;
    if catch > 0 {
        st.gain(c, if in_den { DEN } else { super::scenario::COM }, catch);
        if in_den {
            st.counts.fishing_den += catch as f64;
        } else {
            st.counts.fishing_com += catch as f64;
        }
    }
}

/// Resources a country's merchant fleets carry (for the invariants, beside the caravans').
pub fn carried(st: &State, c: CountryId) -> [i64; R] {
    let mut out = [0; R];
    for m in &st.nations[c as usize].sea.merchants {
        out[MAN] += m.man;
        out[DEN] += m.den;
        out[m.product as usize] += m.goods;
    }
    out
}

impl Loader<'_> {
    /// abstraction.toml `[sea_trade]` (absent: every port of importance 1, sea lanes only): the
    /// port importance of each culture's countries (1-3, L914-L918) and the coastal legs.
    pub(super) fn sea_trade(
        &mut self,
        table: Option<&super::files::SeaTradeTable>,
    ) -> Result<SeaTradeData> {
        let Some(t) = table else {
            return Ok(SeaTradeData::default());
        };
        self.stand_in("sea_trade", &t.provenance, t.why.as_deref())?;
        let mut out = [None; 3];
        for (k, v) in &t.port_importance {
            let field = format!("sea_trade.port_importance.{k}");
            let c = culture_code(self.ab, field.clone(), k)?;
            if !(1..=3).contains(v) {
                return Err(bad(self.ab, field, v, "a port importance: 1, 2 or 3"));
            }
            out[c] = Some(*v as u8);
        }
        Ok(SeaTradeData {
            port_importance: every_culture(self.ab, "sea_trade.port_importance", out, "entry")?,
            coastal_legs: t.coastal_legs,
        })
    }
}
