//! 5 COMERCIO (digest §4.9, rules §6.10 L857-L1058): the black market and the manufactures
//! caravans of the majors (the players, L963: the referee's countries only receive caravans).
//!
//! The black market: each turn a major first sells the share `market_sell` of what its economy
//! has no use for (resources none of its unit kinds costs, beyond the stone and wood of the walls
//! its policy still wants and the animals and wood of the caravans it wants; never COM, which
//! feeds and buys PV as gifts; MAN only when it keeps no caravans), at the sale value of option
//! `black_market_sale` (A52); then it buys, with the share `market_buy` of its spare DEN, the
//! resources its coming purchases lack (the POB share and mix its policy recruits this turn), at
//! the printed buying prices (ELE and ESC cheaper for their producers). Each resource is bought at
//! most its printed limit, and sold at most as much, per turn (L1019-L1058; option `black_market_limits`, A53;
//! CAB and CAM share one limit, as printed). The goods change hands at once: the black market is
//! no country, so the next-turn delay of trade with countries (L961) is not applied to it.
//!
//! Caravans (L860, L866-L888; cost and speed in digest §3.1.3 and §3.1.6): a major keeps up to
//! its policy's `caravans` (each 50 POB, 50 DEN, 200 MAD, 100 CAB or 100 CAM). A caravan at home
//! loads up to five lots of 100 MAN and goes by land to the city that pays best per month of the
//! trip among the countries that hold a trade treaty (equal-terms or better) with its major (the
//! receiver's agreement of L860: a referee's country, or another major); it travels 8 PM a month over the region graph's
//! cheapest land route (the hexes of its legs price the manufactures, the band of L866-L878 times
//! the city's commercial importance, abstraction.toml `[trade]`); each month there it sells a lot
//! and earns that much DEN, and the receiver earns a third more (not taken from the merchant);
//! then it comes back the same way and banks the money (lost if its home has fallen). A caravan
//! whose receiver falls or loses the treaty comes back with what is left.

use super::diplomacy::{self, EQUAL_TRADE};
use super::economy;
use super::policy::Scripted;
use super::scenario::{CountryId, CAB, CAM, COM, DEN, ELE, ESC, MAD, MAN, MET, PIE, POB};
use super::state::{State, R};
use super::Game;

/// Caravans a country may keep (the policy's range).
pub const MAX_CARAVANS: usize = 3;
/// A caravan's cost (digest §3.1.3), besides 100 CAB or 100 CAM.
pub const CARAVAN_COST: [(usize, i64); 3] = [(POB, 50), (DEN, 50), (MAD, 200)];
pub const CARAVAN_ANIMALS: i64 = 100;
/// PM a caravan moves each month (digest §3.1.6).
pub const CARAVAN_PM: u32 = 8;
/// MAN a caravan sells each month at its city, and the most months it may stay (L860).
pub const MAN_LOT: i64 = 100;
pub const MAX_TRADING_MONTHS: i64 = 5;
/// The receiver earns a third of the merchant's profit on top of it (L860).
pub const RECEIVER_DIVISOR: i64 = 3;

/// DEN per lot of 100 MAN a month at a city `hexes` away by land, before its importance (L866-L878).
pub fn land_band(hexes: u32) -> i64 {
    match hexes {
        ..=15 => 100,
        16..=25 => 200,
        26..=35 => 300,
        36..=45 => 400,
        46..=55 => 500,
        _ => 600,
    }
}

/// What a caravan earns each month at a city `hexes` away by land of importance multiplier
/// `importance` (A 3, B 2, C 1), and what its receiver earns beside it.
pub fn monthly_profit(hexes: u32, importance: u8) -> (i64, i64) {
    let merchant = land_band(hexes) * importance as i64;
    (merchant, merchant / RECEIVER_DIVISOR)
}

/// Black-market buying price in DEN of 10 units of resource `r` (L967-L1013; ELE and
/// ESC cheaper for a country that produces them); 0: not sold there.
pub fn price_per_ten(r: usize, producer: bool) -> i64 {
    match (r, producer) {
        (MET, _) => 16,
        (COM, _) => 120,
        (MAN | MAD, _) => 12,
        (CAB | PIE | CAM, _) => 10,
        (ELE, true) => 60,
        (ELE, false) => 100,
        (ESC, true) => 30,
        (ESC, false) => 45,
        _ => 0,
    }
}

/// Units of resource `r` that may be bought, and as many sold, per turn (L1021-L1058); CAB and CAM
/// share theirs.
pub fn limit(r: usize) -> i64 {
    match r {
        COM => 100,
        MAD => 1200,
        MET => 1500,
        PIE => 2000,
        CAB | CAM => 800,
        MAN => 1000,
        ELE => 20,
        ESC => 100,
        _ => 0,
    }
}

/// Where a caravan is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leg {
    /// Not bought.
    #[default]
    None,
    Home,
    Out,
    Trading,
    Back,
}

/// One caravan of a major, and what it carries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Caravan {
    pub leg: Leg,
    /// The receiving country.
    pub to: CountryId,
    /// Months of road left (out or back), and the trip's months each way.
    pub months_left: u8,
    pub travel: u8,
    /// MAN carried, DEN earned and not yet banked.
    pub man: i64,
    pub den: i64,
    /// DEN it earns each month at its city, and its receiver's share.
    pub rate: i64,
    pub receiver: i64,
    /// A trip along a trade route (`routes.rs`): the route, the points it earns on arrival (units
    /// of resource `product`) and the goods it carries home once they are earned.
    pub route: u8,
    pub points: i64,
    pub goods: i64,
    pub product: u8,
}

/// The black market's units used this turn by one country (bought, sold) and the turn's limits'
/// multiple.
struct Market {
    bought: [i64; R],
    sold: [i64; R],
    times: i64,
}

impl Market {
    fn left(&self, used: &[i64; R], r: usize) -> i64 {
        let u = if r == CAB || r == CAM {
            used[CAB] + used[CAM]
        } else {
            used[r]
        };
        (limit(r) * self.times - u).max(0)
    }
}

/// Phase 5 for every major holding its home: sales, purchases at the black market, caravans
/// bought and sent.
pub fn phase(g: &Game, st: &mut State, plans: &[Scripted]) {
    // The leagues stand as soon as their conditions hold (L953).
    super::routes::update(g, st, plans);
    for (p, &c) in g.majors.iter().enumerate() {
        if st.lands[c as usize].owner != c {
            continue;
        }
        let plan = &plans[c as usize];
        let mut market = Market {
            bought: [0; R],
            sold: [0; R],
            times: if g.market_per_month { 2 } else { 1 },
        };
        sell(g, st, c, plan, &mut market);
        buy_upkeep_wood(g, st, c, plan, &mut market);
        buy_convoy_materials(g, st, c, plan, &mut market);
        buy(g, st, c, plan, &mut market);
        buy_work_materials(g, st, c, plan, &mut market);
        buy_road_stone(g, st, c, plan, &mut market);
        buy_major_work_stone(g, st, c, plan, &mut market);
        // Ships or caravans load the manufactures first, by the policy's ships_first.
        if plan.ships_first >= 0.5 {
            super::sea_trade::send(g, st, p);
            send_caravans(g, st, p, plan);
        } else {
            send_caravans(g, st, p, plan);
            super::sea_trade::send(g, st, p);
        }
    }
}

/// Units of `r` country `c` keeps from the black market's buyers: everything its unit kinds cost
/// and all its COM; the stone and wood of the walls and works its policy still wants; the wood and animals
/// of the caravans it still wants, and one CAB for an ambassador; MAN while it keeps caravans; the
/// wood its constructions owe next January (`wood.rs`); the slaves it frees or puts on works (`slaves.rs`).
pub fn kept(g: &Game, st: &State, c: CountryId, plan: &Scripted, r: usize) -> i64 {
    let kinds = &g.kinds[c as usize][..g.nkinds[c as usize] as usize];
    if r == COM || r == POB || r == DEN || kinds.iter().any(|k| k.cost[r] > 0) {
        return i64::MAX;
    }
    let n = &st.nations[c as usize];
    let wanted = (plan.caravans as usize).min(MAX_CARAVANS);
    let missing = n.caravans[..wanted]
        .iter()
        .filter(|v| v.leg == Leg::None)
        .count() as i64;
    let walls = || -> i64 {
        let Some(capital) = g.capital[c as usize] else {
            return 0;
        };
        let from = st.city_fort[capital as usize].max(n.work.0) + 1;
        let to = plan.fortify.min(g.max_fort(c));
        (from..=to).map(|l| economy::wall_cost(l).1).sum()
    };
    // A policy that builds works keeps a new city's stone or wood (`works.rs`).
    let works = if plan.works_share > 0.0 {
        super::works::MATERIALS_KEPT
    } else {
        0
    };
    let convoys = super::supply::kept(st, c, plan, r);
    convoys
        + match r {
            PIE => {
                walls()
                    + works
                    + super::roads::stone_wanted(g, st, c, plan)
                    + super::major_works::stone_wanted(g, st, c, plan)
                    + super::walls::stone_wanted(g, st, c, plan)
            }
            MAD => walls() + works + missing * CARAVAN_COST[2].1 + super::wood::owed(g, st, c),
            CAB => missing * CARAVAN_ANIMALS + 1,
            CAM => missing * CARAVAN_ANIMALS,
            ESC => super::slaves::kept(st, c, plan),
            MAN if wanted > 0 || plan.merchant_fleets > 0 => i64::MAX,
            _ => 0,
        }
}

fn sell(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    let share = plan.market_sell.clamp(0.0, 1.0);
    if share <= 0.0 {
        return;
    }
    for r in 0..R {
        if limit(r) == 0 {
            continue;
        }
        let keep = kept(g, st, c, plan, r);
        let surplus = st.nations[c as usize].stock[r].saturating_sub(keep);
        let amount = ((surplus as f64 * share) as i64).min(m.left(&m.sold, r));
        let den = (amount as f64 * g.sale[r]).floor() as i64;
        if amount <= 0 || den <= 0 {
            continue;
        }
        st.spend(c, r, amount);
        st.gain(c, DEN, den);
        m.sold[r] += amount;
        st.counts.market_sold_den += den as f64;
    }
}

/// Buys the wood its constructions owe next January that its stock lacks (`wood.rs`), first of
/// the purchases (they stand already: a collapse loses what was paid for them), as much as the
/// turn's limit sells, when it leaves the reserve and wages.
fn buy_upkeep_wood(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    if plan.market_buy <= 0.0 {
        return;
    }
    let lack = super::wood::owed(g, st, c) - st.nations[c as usize].stock[MAD];
    let need = lack.min(m.left(&m.bought, MAD));
    if need <= 0 {
        return;
    }
    let cost = cost_of(g, c, MAD, need);
    if st.nations[c as usize].stock[DEN] - cost < economy::den_to_keep(g, st, c, plan) {
        return;
    }
    purchase(g, st, c, m, MAD, need);
}

/// Buys the wood and horses the convoys its policy wants lack (`supply.rs`), before the recruits'
/// purchases (an army without its convoy carries a month's food: it cannot campaign), when the
/// turn's limits sell them all and its DEN above reserve and wages pays them and the convoys'
/// own DEN; the works do not count that wood as theirs (`works.rs`).
fn buy_convoy_materials(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    if plan.market_buy <= 0.0 || g.supply != super::supply::Reading::Carried {
        return;
    }
    let (mad, mounts, den) = super::supply::materials_wanted(st, c, plan);
    if mad + mounts == 0 || mad > m.left(&m.bought, MAD) || mounts > m.left(&m.bought, CAB) {
        return;
    }
    let cost = cost_of(g, c, MAD, mad) + cost_of(g, c, CAB, mounts);
    if st.nations[c as usize].stock[DEN] - cost - den < economy::den_to_keep(g, st, c, plan) {
        return;
    }
    for (r, n) in [(MAD, mad), (CAB, mounts)] {
        if n > 0 {
            purchase(g, st, c, m, r, n);
        }
    }
}

/// Buys the stone, wood and metal the best-paying work its policy wants lacks
/// (`works::materials_wanted`), when the works' share of its spare DEN pays the work and them and
/// the turn's limits sell them all (the works' payback test already priced them at these
/// prices): works come before roads, as they are started first.
fn buy_work_materials(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    if plan.market_buy <= 0.0 {
        return;
    }
    let Some((_, lack, budget)) = super::works::materials_wanted(g, st, c, plan) else {
        return;
    };
    if (0..R).any(|r| lack[r] > m.left(&m.bought, r)) {
        return;
    }
    let cost: i64 = (0..R).map(|r| cost_of(g, c, r, lack[r])).sum();
    if cost > budget {
        return;
    }
    for r in (0..R).filter(|&r| lack[r] > 0) {
        purchase(g, st, c, m, r, lack[r]);
    }
}

/// Buys the stone its next road lacks (`roads.rs`), within the turn's limit, when the road's DEN
/// and the stone's leave the reserve and wages.
fn buy_road_stone(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    if plan.market_buy <= 0.0 {
        return;
    }
    let Some(i) = super::roads::next_road(g, st, c, plan) else {
        return;
    };
    let (den, pie, _) = super::roads::price(g, i);
    let need = (pie - st.nations[c as usize].stock[PIE]).min(m.left(&m.bought, PIE));
    if need <= 0 {
        return;
    }
    let cost = cost_of(g, c, PIE, need);
    if st.nations[c as usize].stock[DEN] - cost - den < economy::den_to_keep(g, st, c, plan) {
        return;
    }
    purchase(g, st, c, m, PIE, need);
}

/// Buys the stone the major construction its policy wants lacks (`major_works.rs`), as much as
/// the turn's limit sells, when the construction's DEN and the stone's leave the reserve and
/// wages (what it buys is kept from the buyers until it has it all).
fn buy_major_work_stone(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    let wanted = super::major_works::stone_wanted(g, st, c, plan);
    if plan.market_buy <= 0.0 || wanted == 0 {
        return;
    }
    let stock = &st.nations[c as usize].stock;
    let need = (wanted - stock[PIE] - stock[MAD]).min(m.left(&m.bought, PIE));
    if need <= 0 {
        return;
    }
    let cost = cost_of(g, c, PIE, need);
    let den = g.major_works.den;
    if stock[DEN] - cost - den < economy::den_to_keep(g, st, c, plan) {
        return;
    }
    purchase(g, st, c, m, PIE, need);
}

/// `c` buys `n` units of `r` at the black market (the caller checked the turn's limit and its
/// DEN).
fn purchase(g: &Game, st: &mut State, c: CountryId, m: &mut Market, r: usize, n: i64) {
    let den = cost_of(g, c, r, n);
    st.spend(c, DEN, den);
    st.gain(c, r, n);
    m.bought[r] += n;
    st.counts.market_bought_den += den as f64;
}

/// DEN to buy `n` units of `r` at the black market.
pub fn cost_of(g: &Game, c: CountryId, r: usize, n: i64) -> i64 {
    let producer = g.scenario.production[c as usize][r] > 0;
    (n * price_per_ten(r, producer) + 9) / 10
}

/// Buys what this turn's purchases lack: kind by kind in the purchases' order, the units the
/// policy's POB share and mix want (and the food allows) beyond what the stocks pay for, as many
/// as the share `market_buy` of the DEN left after their morale costs buys.
fn buy(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, m: &mut Market) {
    let share = plan.market_buy.clamp(0.0, 1.0);
    if share <= 0.0 || plan.recruit <= 0.0 {
        return;
    }
    let nk = g.nkinds[c as usize] as usize;
    let pob = (st.nations[c as usize].stock[POB] as f64 * plan.recruit.min(1.0)) as i64;
    let shares = economy::mix(plan, nk);
    let mut stock = st.nations[c as usize].stock;
    let mut spare = stock[DEN] - economy::den_to_keep(g, st, c, plan);
    for k in 0..nk {
        let kind = g.kinds[c as usize][k];
        let wanted = ((pob as f64 * shares[k]) as i64 / kind.cost[POB].max(1))
            .min(economy::feedable(g, st, c, k));
        let per_unit = kind.cost[DEN] + economy::wage(kind.cost[DEN]);
        let mut paid = wanted;
        for r in (0..R).filter(|&r| r != POB && r != DEN && kind.cost[r] > 0) {
            paid = paid.min(stock[r] / kind.cost[r]);
        }
        paid = paid.min(spare.max(0) / per_unit.max(1)).max(0);
        spare -= paid * per_unit;
        for r in 0..R {
            stock[r] -= paid * kind.cost[r];
        }
        let extra = wanted - paid;
        if extra <= 0 || spare <= 0 {
            continue;
        }
        // Every unit beyond the stocks costs its morale cost and what it lacks at market prices.
        let market_per_unit: i64 = (0..R)
            .filter(|&r| r != POB && r != DEN && kind.cost[r] > 0)
            .filter(|&r| stock[r] < extra * kind.cost[r])
            .map(|r| cost_of(g, c, r, kind.cost[r]))
            .sum();
        let mut n = extra.min((spare as f64 * share) as i64 / (per_unit + market_per_unit).max(1));
        // No more units than the market's limits can still make up.
        for r in (0..R).filter(|&r| r != POB && r != DEN && kind.cost[r] > 0) {
            n = n.min((stock[r].max(0) + m.left(&m.bought, r)) / kind.cost[r]);
        }
        if n <= 0 {
            continue;
        }
        for r in (0..R).filter(|&r| r != POB && r != DEN && kind.cost[r] > 0) {
            let need = (n * kind.cost[r] - stock[r]).min(m.left(&m.bought, r));
            if need <= 0 || price_per_ten(r, false) == 0 {
                continue;
            }
            let den = cost_of(g, c, r, need);
            if st.nations[c as usize].stock[DEN] - den < economy::den_to_keep(g, st, c, plan) {
                continue;
            }
            purchase(g, st, c, m, r, need);
            stock[r] += need;
            stock[DEN] -= den;
            spare -= den;
        }
        spare -= n * per_unit;
        for r in 0..R {
            stock[r] -= n * kind.cost[r];
        }
    }
}

/// Land hexes from `a` to `b` along the cheapest land route, roads counted (None: no land route).
pub fn land_hexes(g: &Game, st: &State, a: CountryId, b: CountryId) -> Option<u32> {
    let mut at = a;
    let mut hexes = 0u32;
    while at != b {
        let next = st.roads.next(g, at, b);
        if next == u8::MAX {
            return None;
        }
        let link = g
            .scenario
            .links(at)
            .iter()
            .find(|l| !l.sea && l.to == next as CountryId)?;
        hexes += link.hexes as u32;
        at = next as CountryId;
    }
    Some(hexes)
}

/// Whether `t` receives the `p`-th major's caravans: a country holding its home and its cities,
/// with a trade treaty (equal-terms or better) with it (a referee's country, or a major that
/// signed one with it).
pub fn receives(g: &Game, st: &State, p: usize, t: CountryId) -> bool {
    let c = g.majors[p];
    let r = st.relations[diplomacy::at(st, p, t)];
    t != c
        && st.lands[t as usize].owner == t
        && !g.scenario.countries[t as usize].cities.is_empty()
        && !r.war
        && r.level >= EQUAL_TRADE
}

/// The best city for a caravan of `lots` lots from major `p`'s home: the most DEN per month of
/// the whole trip (out, trading, back); ties to the lower number.
pub fn destination(g: &Game, st: &State, p: usize, lots: i64) -> Option<Caravan> {
    let c = g.majors[p];
    let n = g.scenario.countries.len();
    let mut best: Option<(f64, Caravan)> = None;
    for t in 0..n as CountryId {
        if !receives(g, st, p, t) {
            continue;
        }
        let Some(hexes) = land_hexes(g, st, c, t) else {
            continue;
        };
        let pm = st.roads.cost(g, c, t);
        let travel = pm.div_ceil(CARAVAN_PM).clamp(1, u8::MAX as u32) as u8;
        let importance = g.scenario.importance[g.culture_index(t)];
        let (rate, receiver) = monthly_profit(hexes, importance);
        let value = (rate * lots) as f64 / (2.0 * travel as f64 + lots as f64);
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((
                value,
                Caravan {
                    leg: Leg::Out,
                    to: t,
                    months_left: travel,
                    travel,
                    man: lots * MAN_LOT,
                    den: 0,
                    rate,
                    receiver,
                    ..Caravan::default()
                },
            ));
        }
    }
    best.map(|(_, v)| v)
}

/// Buys the caravans the policy wants and can pay for (DEN above its reserve and next wages),
/// then sends every caravan at home with MAN to load to the best city.
fn send_caravans(g: &Game, st: &mut State, p: usize, plan: &Scripted) {
    let c = g.majors[p];
    let wanted = (plan.caravans as usize).min(MAX_CARAVANS);
    for i in 0..wanted {
        if st.nations[c as usize].caravans[i].leg != Leg::None {
            continue;
        }
        let keep = economy::den_to_keep(g, st, c, plan);
        let s = &st.nations[c as usize].stock;
        let animal = if s[CAB] >= s[CAM] { CAB } else { CAM };
        let spare = |r: usize| if r == DEN { s[r] - keep } else { s[r] };
        let affordable =
            CARAVAN_COST.iter().all(|&(r, v)| spare(r) >= v) && s[animal] >= CARAVAN_ANIMALS;
        if !affordable {
            break;
        }
        for (r, v) in CARAVAN_COST {
            st.spend(c, r, v);
        }
        st.spend(c, animal, CARAVAN_ANIMALS);
        st.nations[c as usize].caravans[i].leg = Leg::Home;
        st.counts.caravans_bought += 1;
    }
    for i in 0..wanted {
        if st.nations[c as usize].caravans[i].leg != Leg::Home {
            continue;
        }
        let lots = (st.nations[c as usize].stock[MAN] / MAN_LOT).min(MAX_TRADING_MONTHS);
        let sale = (lots > 0)
            .then(|| destination(g, st, p, lots))
            .flatten()
            .map(|t| {
                let value = (t.rate * lots) as f64 / (2.0 * t.travel as f64 + lots as f64);
                (value, t)
            });
        // A trip along a trade route of its league instead, when its goods are worth more a
        // month at the black market's buying price (routes.rs).
        let route = super::routes::caravan_trip(g, st, c);
        let trip = match (sale, route) {
            (Some(s), Some(r)) => Some(if r.0 > s.0 { r.1 } else { s.1 }),
            (s, r) => s.or(r).map(|x| x.1),
        };
        let Some(trip) = trip else {
            break;
        };
        // The MAN leaves the stock for the caravan's load (held, not spent, until sold).
        st.nations[c as usize].stock[MAN] -= trip.man;
        st.nations[c as usize].caravans[i] = trip;
        if trip.points > 0 {
            st.counts.route_caravan_trips += 1;
        } else {
            st.counts.caravan_trips += 1;
        }
    }
}

/// One month of every major's caravans on the road and at their cities.
pub fn month(g: &Game, st: &mut State) {
    for (p, &c) in g.majors.iter().enumerate() {
        for i in 0..MAX_CARAVANS {
            let mut v = st.nations[c as usize].caravans[i];
            match v.leg {
                Leg::None | Leg::Home => continue,
                Leg::Out => {
                    v.months_left -= 1;
                    if v.months_left == 0 {
                        v.leg = Leg::Trading;
                        // A route trip's points are earned at its last route city, if the league
                        // still stands (L927, L953).
                        if v.points > 0 && super::routes::still_open(st, v.route) {
                            v.goods = v.points;
                            st.ledger.gained[v.product as usize] += v.goods;
                            st.counts.route_caravan_goods += v.goods as f64;
                        }
                    }
                }
                Leg::Trading if v.man >= MAN_LOT && receives(g, st, p, v.to) => {
                    v.man -= MAN_LOT;
                    st.ledger.spent[MAN] += MAN_LOT;
                    v.den += v.rate;
                    st.ledger.gained[DEN] += v.rate;
                    st.gain(v.to, DEN, v.receiver);
                    st.counts.caravan_den += v.rate as f64;
                    if v.man < MAN_LOT {
                        (v.leg, v.months_left) = (Leg::Back, v.travel);
                    }
                }
                Leg::Trading => (v.leg, v.months_left) = (Leg::Back, v.travel),
                Leg::Back => {
                    v.months_left -= 1;
                    if v.months_left == 0 {
                        bank(st, c, &mut v);
                    }
                }
            }
            st.nations[c as usize].caravans[i] = v;
        }
    }
}

/// A caravan home: its money and unsold MAN into the stock, or lost if its home has fallen.
fn bank(st: &mut State, c: CountryId, v: &mut Caravan) {
    if st.lands[c as usize].owner == c {
        st.nations[c as usize].stock[DEN] += v.den;
        st.nations[c as usize].stock[MAN] += v.man;
        st.nations[c as usize].stock[v.product as usize] += v.goods;
    } else {
        st.ledger.spent[DEN] += v.den;
        st.ledger.spent[MAN] += v.man;
        st.ledger.spent[v.product as usize] += v.goods;
    }
    *v = Caravan {
        leg: Leg::Home,
        ..Caravan::default()
    };
}

/// Resources a country's caravans hold on the road (for the invariants: stock + this is what the
/// ledger accounts for).
pub fn carried(st: &State, c: CountryId) -> [i64; R] {
    let mut out = [0; R];
    for v in &st.nations[c as usize].caravans {
        out[MAN] += v.man;
        out[DEN] += v.den;
        out[v.product as usize] += v.goods;
    }
    let ships = super::sea_trade::carried(st, c);
    for r in 0..R {
        out[r] += ships[r];
    }
    out
}
