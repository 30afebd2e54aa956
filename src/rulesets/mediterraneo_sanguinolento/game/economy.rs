//! The economy phases of the turn (digest §2, §4.2, §4.4-§4.7, §4.16, §4.19): payments and feeding,
//! desertion, purchases with their morale cost, the capital's walls, collection (with the conquered
//! countries' POB schedule and August's harvest), taxes, gifts to the population (a province's in
//! `revolt.rs`) and the year's peace PV. Every resource moves through `State::gain` / `State::spend`, so the ledger
//! sees it.

use super::policy::Scripted;
use super::pv::{self, column};
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, MET, PIE, POB};
use super::state::{State, KINDS};
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Gift cap per period, DEN worth at black-market sale value (L4382-L4386).
pub const GIFT_CAP: f64 = 2000.0;
/// A gift lot: 300 COM or 600 DEN (the table's rows).
pub const COM_LOT: i64 = 300;
pub const DEN_LOT: i64 = 600;
/// POB fed per COM: half-yearly 20 (rules §51) or yearly 10 (rules §6.12).
pub const POB_PER_COM_HALF_YEARLY: i64 = 20;
const POB_PER_COM_YEARLY: i64 = 10;
/// Wages are 1/20 of the creation (morale) cost, twice a year (L4070).
pub const WAGE_DIVISOR: f64 = 20.0;

fn culture(g: &Game, c: CountryId) -> Culture {
    g.culture[c as usize]
}

/// DEN owed by country `c` for one half-year's wages.
pub fn wages(g: &Game, st: &State, c: CountryId) -> i64 {
    let units = st.all_units(c);
    let kinds = &g.kinds[c as usize];
    let owed: f64 = (0..KINDS)
        .map(|k| units[k] * kinds[k].cost[DEN] as f64 / WAGE_DIVISOR)
        .sum();
    owed.ceil() as i64
}

/// Units of country `c`, for the yearly army food (1 COM a unit, L2088).
pub fn army_food(st: &State, c: CountryId) -> i64 {
    st.all_units(c).iter().sum::<f64>().ceil() as i64
}

/// 2 PAGOS and 3 DESERCIONES for the months of this turn: wages in January and July (unpaid units
/// desert), army food in January, population feeding by option `population_feeding`.
pub fn payments(g: &Game, st: &mut State, months: [u32; 2]) {
    for m in months {
        let cal = State::calendar(m);
        for c in 0..st.nations.len() as CountryId {
            if cal == 1 || cal == 7 {
                let owed = wages(g, st, c);
                let paid = st.spend(c, DEN, owed);
                if paid < owed {
                    let share = (owed - paid) as f64 / owed as f64;
                    let men = st.remove_share(c, share, &g.men_per_unit(c));
                    st.counts.deserted_men += men;
                }
            }
            if cal == 1 {
                let food = army_food(st, c);
                st.spend(c, COM, food);
            }
            let per = match (g.yearly_feeding, cal) {
                (false, 1 | 7) => POB_PER_COM_HALF_YEARLY,
                (true, 6) => POB_PER_COM_YEARLY,
                _ => continue,
            };
            feed_population(g, st, c, per);
        }
    }
}

fn feed_population(g: &Game, st: &mut State, c: CountryId, pob_per_com: i64) {
    let pob = st.nations[c as usize].pob_collected;
    let need = pob / pob_per_com;
    let short = need - st.spend(c, COM, need);
    if short <= 0 {
        return;
    }
    // Each COM not delivered: IDR -1; the unfed POB cost PV (A76).
    st.nations[c as usize].idr -= short as i32;
    let unfed = short * pob_per_com;
    st.nations[c as usize].unfed_pob += unfed;
    let pv = if g.unfed_table {
        let per_100 = [1, 1, 2][column(culture(g, c))];
        -((unfed / 100) as i32) * per_100
    } else {
        -((unfed / pv::UNFED_POB_PER_PV) as i32)
    };
    st.add_pv(c, pv::HUNGER_REBELLION, pv);
}

/// The recruitment mix over a country's kinds: heavy (first), middle, mounted (last).
pub fn mix(p: &Scripted, nkinds: usize) -> [f64; KINDS] {
    let heavy = p.heavy_share.clamp(0.0, 1.0);
    let mounted = p.mounted_share.clamp(0.0, 1.0);
    match nkinds {
        0 => [0.0; KINDS],
        1 => [1.0, 0.0, 0.0],
        2 => {
            let m = mounted.min(1.0);
            [1.0 - m, m, 0.0]
        }
        _ => {
            let total = (heavy + mounted).max(1.0);
            let (h, m) = (heavy / total, mounted / total);
            [h, 1.0 - h - m, m]
        }
    }
}

/// One unit's half-yearly wages, from its creation (morale) cost in DEN.
pub fn wage(den_cost: i64) -> i64 {
    (den_cost as f64 / WAGE_DIVISOR).ceil() as i64
}

/// DEN a country keeps whatever it buys, builds or gives: its policy's reserve and the army's
/// next wages, so that spending never leaves the next payment short (a payment comes in July
/// with no collection since the May-June purchases, L4070: unpaid troops desert).
pub fn den_to_keep(g: &Game, st: &State, c: CountryId, p: &Scripted) -> i64 {
    p.reserve + wages(g, st, c) + super::mercenaries::upkeep_due(st, c)
}

/// DEN a policy's `share` (at most all) of `den` above what `c` keeps allows a construction.
pub fn share_of_spare(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
    den: i64,
    share: f64,
) -> i64 {
    let spare = (den - den_to_keep(g, st, c, p)).max(0);
    (spare as f64 * share.min(1.0)) as i64
}

/// Whole units of kind `k` country `c` can pay for from `pob` men and its stocks above `reserve`
/// DEN, each with its first half-year's wages kept back.
pub fn affordable(g: &Game, st: &State, c: CountryId, k: usize, pob: i64, reserve: i64) -> i64 {
    let kind = &g.kinds[c as usize][k];
    let stock = &st.nations[c as usize].stock;
    let mut n = pob / kind.cost[POB].max(1);
    for (r, &cost) in kind.cost.iter().enumerate() {
        if r == POB || cost == 0 {
            continue;
        }
        let (have, cost) = if r == DEN {
            (stock[r] - reserve, cost + wage(cost))
        } else {
            (stock[r], cost)
        };
        n = n.min(have.max(0) / cost);
    }
    n.max(0)
}

/// Pays for `n` units of kind `k` (their men from POB, resources, morale cost in DEN) and puts
/// them in training.
pub fn buy(g: &Game, st: &mut State, c: CountryId, k: usize, n: i64) {
    let kind = g.kinds[c as usize][k];
    for (r, &cost) in kind.cost.iter().enumerate() {
        if cost > 0 {
            let paid = st.spend(c, r, cost * n);
            debug_assert_eq!(paid, cost * n, "bought units must be affordable");
        }
    }
    st.nations[c as usize].training[k] += n as f64;
    st.ledger.men_raised += n as f64 * kind.men;
}

/// Months of offensive food a new unit is budgeted for (the longest stretch between a collection
/// and the next feeding, August to January).
const CAMPAIGN_MONTHS: f64 = 4.0;

/// Units of kind `k` country `c` can still feed: the COM on hand beyond the next feeding of its
/// population, its army's yearly food and a campaign's offensive food, at one COM of army food
/// and four months of offensive food a unit. A policy never buys mouths it cannot feed.
pub fn feedable(g: &Game, st: &State, c: CountryId, k: usize) -> i64 {
    let n = &st.nations[c as usize];
    let mpu = g.men_per_unit(c);
    let men =
        State::men(&n.field, &mpu) + State::men(&n.garrison, &mpu) + State::men(&n.training, &mpu);
    let committed = n.pob_collected / POB_PER_COM_HALF_YEARLY
        + army_food(st, c)
        + (men / super::military::MEN_PER_COM * CAMPAIGN_MONTHS).ceil() as i64;
    let per_unit =
        1.0 + g.kinds[c as usize][k].men / super::military::MEN_PER_COM * CAMPAIGN_MONTHS;
    ((n.stock[COM] - committed).max(0) as f64 / per_unit).floor() as i64
}

/// 6 COMPRAS: each country turns its policy's share of the POB on hand into units of its kinds
/// (a special population's by `special.rs`).
pub fn purchases(g: &Game, st: &mut State, plans: &[Scripted]) {
    super::special::new_purchase(g, st);
    for c in 0..st.nations.len() as CountryId {
        if st.lands[c as usize].owner != c {
            continue; // a nation without its home has no city to raise troops in (L1242)
        }
        let p = &plans[c as usize];
        let nk = g.nkinds[c as usize] as usize;
        let mut pob = (st.nations[c as usize].stock[POB] as f64 * p.recruit.clamp(0.0, 1.0)) as i64;
        if super::sack::half_pob(st, c, st.month) {
            // A year after sacking a country it has half its POB for troops (L4404).
            pob = pob.min(st.nations[c as usize].stock[POB] / 2);
        }
        let shares = mix(p, nk);
        for k in 0..nk {
            let men = (pob as f64 * shares[k]) as i64;
            let keep = den_to_keep(g, st, c, p);
            let n = affordable(g, st, c, k, men, keep).min(feedable(g, st, c, k));
            // Rome's and Sparta's recruits come at their population's morale and cost.
            if n > 0 && !super::special::buy(g, st, c, k, n, p) {
                buy(g, st, c, k, n);
            }
        }
    }
}

/// Recruits of a special population (digest §4.5.7, rules L5233, L5241): `units` raised by
/// country `c` from its capital's POB (`from_capital`) or the rest of its POB, split by the
/// scenario's `population_morale` rows (largest remainders, ties in row order): the units at each
/// morale class (0 = A … 3 = D) and the DEN of morale cost they pay, each at its row's cost class.
/// None where the country has no such rows.
pub fn special_recruits(
    g: &Game,
    c: CountryId,
    from_capital: bool,
    units: u32,
    regular: bool,
) -> Option<([u32; 4], i64)> {
    let rows: Vec<_> = g
        .scenario
        .special
        .population_morale
        .iter()
        .filter(|r| r.country == c && r.from_capital == from_capital)
        .collect();
    if rows.is_empty() {
        return None;
    }
    let exact: Vec<f64> = rows.iter().map(|r| r.share * units as f64).collect();
    let mut counts: Vec<u32> = exact.iter().map(|x| x.floor() as u32).collect();
    let mut left = units - counts.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = exact[a] - exact[a].floor();
        let fb = exact[b] - exact[b].floor();
        fb.partial_cmp(&fa).unwrap().then(a.cmp(&b))
    });
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        counts[i] += 1;
        left -= 1;
    }
    let d = crate::rulesets::mediterraneo_sanguinolento::data::data();
    let table = if regular {
        &d.morale.cost.regular
    } else {
        &d.morale.cost.irregular
    };
    let mut by_morale = [0u32; 4];
    let mut den = 0i64;
    for (row, &n) in rows.iter().zip(&counts) {
        by_morale[row.morale as usize] += n;
        den += n as i64 * table[row.cost_as as usize] as i64;
    }
    Some((by_morale, den))
}

/// Recruits bought last turn become operational: with the field army if it is at home, else in
/// the garrison.
pub fn train(st: &mut State) {
    for (c, n) in st.nations.iter_mut().enumerate() {
        let home = n.at as usize == c && n.mission == super::state::Mission::Idle;
        for k in 0..KINDS {
            if home {
                n.field[k] += n.training[k];
            } else {
                n.garrison[k] += n.training[k];
            }
            n.training[k] = 0.0;
        }
    }
}

/// DEN and stone (PIE, then MAD) to build fortification level `level` (L3804-L3812).
pub fn wall_cost(level: u8) -> (i64, i64) {
    (150 * level as i64, 100 * level as i64)
}

/// 7 CONSTRUCCIONES: a country whose capital is below its policy's level starts the next level if
/// it can pay (one work of a kind at a time).
pub fn constructions(g: &Game, st: &mut State, plans: &[Scripted]) {
    for c in 0..st.nations.len() as CountryId {
        let Some(capital) = g.capital[c as usize] else {
            continue;
        };
        if st.lands[c as usize].owner != c || st.nations[c as usize].work.0 != 0 {
            continue;
        }
        let p = &plans[c as usize];
        let level = st.city_fort[capital as usize];
        if level >= p.fortify.min(g.max_fort(c)) {
            continue;
        }
        let next = level + 1;
        let (den, stone) = wall_cost(next);
        let n = &st.nations[c as usize];
        if n.stock[DEN] - den_to_keep(g, st, c, p) < den || n.stock[PIE] + n.stock[MAD] < stone {
            continue;
        }
        // Only the wood it can keep restoring every January (`wood.rs`).
        let wood = super::wood::spare_for_building(g, st, c, p.market_buy > 0.0);
        if n.stock[PIE] + wood < stone {
            continue;
        }
        st.spend(c, DEN, den);
        let from_pie = st.spend(c, PIE, stone);
        let from_mad = st.spend(c, MAD, (stone - from_pie).min(wood));
        // The level's wood owes its January upkeep once it stands (L751).
        st.works[c as usize].wood.walls[next as usize - 1] = from_mad;
        // Level N takes N months.
        st.nations[c as usize].work = (next, next);
    }
}

/// One month of work on the walls; a finished level gives its PV and IDR (T9, A75).
pub fn works_month(g: &Game, st: &mut State, besieged: &[bool]) {
    for c in 0..st.nations.len() as CountryId {
        let (level, left) = st.nations[c as usize].work;
        if level == 0 {
            continue;
        }
        if st.lands[c as usize].owner != c {
            st.nations[c as usize].work = (0, 0);
            continue;
        }
        if besieged[c as usize] {
            continue; // construction stops in a besieged city (L3676)
        }
        if left > 1 {
            st.nations[c as usize].work.1 = left - 1;
            continue;
        }
        finish_wall(g, st, c, level);
    }
}

/// The capital of `c` reaches `level`.
pub fn finish_wall(g: &Game, st: &mut State, c: CountryId, level: u8) {
    if let Some(capital) = g.capital[c as usize] {
        st.city_fort[capital as usize] = level;
    }
    st.nations[c as usize].work = (0, 0);
    let cul = culture(g, c);
    st.add_pv(
        c,
        pv::FORTIFICATION,
        pv::fortification_pv(level, g.triangular_fort_pv),
    );
    st.nations[c as usize].idr += pv::FORTIFICATION_LEVEL.idr(cul);
}

/// Share of a conquered country's POB its new owner collects: 10%, 20%, 30%, then all (L5273).
pub fn conquered_pob_percent(collections: u8) -> i64 {
    match collections {
        0 => 10,
        1 => 20,
        2 => 30,
        _ => 100,
    }
}

/// Whether a country taken in game month `taken` yields at a collection in game month `now`
/// (at least one month after the conquest, L4032).
pub fn collects(taken: u32, now: u32) -> bool {
    taken == 0 || now > taken
}

/// DEN production multiplier of a tax level, as a fraction (numerator, denominator).
fn tax_fraction(level: i8) -> (i64, i64) {
    match level {
        -2 => (1, 2),
        -1 => (2, 3),
        1 => (3, 2),
        2 => (2, 1),
        _ => (1, 1),
    }
}

/// The §4.19 row of tax level `level` (None for normal taxes).
pub fn tax_row(level: i8) -> Option<pv::Row> {
    match level {
        -2 => Some(pv::TAXES[0]),
        -1 => Some(pv::TAXES[1]),
        1 => Some(pv::TAXES[2]),
        2 => Some(pv::TAXES[3]),
        _ => None,
    }
}

/// The tax level a policy sets in April with rebellion index `idr` (the lowest the level reaches,
/// `burdens::lowest_taxed_index`): its level, except that a raise is made only if it leaves the
/// index at `tax_idr` or above (else the highest raise that does, or normal taxes).
pub fn tax_level(p: &Scripted, idr: i32, culture: Culture) -> i8 {
    let wanted = p.taxes.clamp(-2, 2);
    if wanted <= 0 {
        return wanted;
    }
    (1..=wanted)
        .rev()
        .find(|&l| tax_row(l).is_some_and(|r| idr + r.idr(culture) >= p.tax_idr))
        .unwrap_or(0)
}

/// 9 COBROS in game month `month` (April, August, December; revolts were checked just before,
/// `revolt::check`): unspent POB lapses (+1 POB income per 50, L713), every held country yields to its holder and every
/// colony to its collector (`colonies.rs`), then the policies' gifts; April sets the year's tax
/// level, December scores the year without fighting.
pub fn collection(g: &Game, st: &mut State, plans: &[Scripted], month: u32) {
    let cal = State::calendar(month);
    let n = st.nations.len();
    // A nation that holds no land has no people to tax or to please: no tax level, no tax row and
    // no year-without-fighting row (issue 22: a conquered major kept scoring both).
    let landless = |st: &State, c: usize| !st.lands.iter().any(|l| l.owner as usize == c);
    if cal == 4 {
        for c in 0..n {
            if landless(st, c) {
                st.nations[c].tax_level = 0;
                continue;
            }
            let lowest = super::burdens::lowest_taxed_index(g, st, c as CountryId, month);
            let level = tax_level(&plans[c], lowest, g.culture[c]);
            st.nations[c].tax_level = level;
            if let Some(row) = tax_row(level) {
                super::burdens::tax(g, st, c as CountryId, month, pv::TAXES_SOURCE, row);
            }
        }
    }
    for c in 0..n as CountryId {
        let unspent = st.nations[c as usize].stock[POB];
        st.spend(c, POB, unspent);
        st.nations[c as usize].pob_growth += unspent / 50;
        st.nations[c as usize].pob_collected = 0;
    }
    // POB each land gave its holder, for the levy's index per land (`levy.rs`).
    let mut pob_given = [0i64; 256];
    for l in 0..n {
        let land = st.lands[l];
        let owner = land.owner;
        if !collects(land.taken_month, month) || !super::sack::yields(st, l as CountryId, month) {
            continue;
        }
        let mut yields = land.pending.apply(&g.scenario.production[l]);
        // The land's finished works yield with it (`works.rs`), whoever holds it.
        let added = super::works::output(g, l, &st.works[l]);
        for r in 0..yields.len() {
            yields[r] += added[r];
        }
        st.counts.works_output += added.iter().sum::<i64>() as f64;
        // Its destroyed cities' shares are gone for good (`destruction.rs`).
        super::destruction::cut(g, st, l, &mut yields);
        super::city_revolt::cut(g, st, l, &mut yields);
        yields[MET] += super::prospecting::output(g, st, l);
        yields[CAB] = super::mounts::cab_yield(st, l, yields[CAB]);
        yields[POB] = super::enslave::pob_yield(st, l, yields[POB]);
        let o = owner as usize;
        if o == l {
            yields[POB] += st.nations[o].pob_growth;
        }
        if land.revolt_collections > 0 {
            yields[POB] = yields[POB] * 3 / 4; // a year after a revolt (L5625, `revolt.rs`)
        }
        st.lands[l].pob_yield = yields[POB];
        if o != l {
            yields[POB] = yields[POB] * conquered_pob_percent(land.collections) / 100;
            st.lands[l].collections = land.collections.saturating_add(1);
        }
        if cal == 4 {
            let (num, den) = tax_fraction(st.nations[o].tax_level);
            yields[DEN] = yields[DEN] * num / den;
        }
        if cal == 8 {
            yields[COM] = yields[COM] * 5 / 4; // the harvest, +25% (L4030)
        }
        for (r, &v) in yields.iter().enumerate() {
            if v > 0 {
                st.gain(owner, r, v);
            }
        }
        st.nations[o].pob_collected += yields[POB];
        pob_given[l] = yields[POB];
    }
    super::colonies::collection(g, st);
    super::levy::collection(g, st, plans, &pob_given[..n]);
    super::enslave::collection(g, st, plans, &pob_given[..n]);
    super::city_revolt::collected(st);
    for land in &mut st.lands {
        land.pending = super::events::Pending::NONE;
        land.revolt_collections = land.revolt_collections.saturating_sub(1);
    }
    for c in 0..n {
        let nation = &mut st.nations[c];
        if !g.gift_cap_per_year || cal == 12 {
            nation.gifts_this_period = 0;
        }
    }
    super::revolt::gifts(g, st, plans);
    gifts(g, st, plans, cal);
    super::diplomacy::buy_from_partners(g, st, plans, cal);
    if cal == 12 {
        for c in 0..n {
            if !st.nations[c].fought_this_year && !landless(st, c) {
                st.apply(
                    c as CountryId,
                    pv::PEACE,
                    pv::NOT_FIGHTING_IN_A_YEAR,
                    g.culture[c],
                );
            }
            st.nations[c].fought_this_year = false;
        }
    }
}

/// Months of campaigning between a collection in calendar month `cal` and the next feeding of
/// the population (January and July, paid before that month's movement).
pub fn campaign_months_to_feeding(cal: u32) -> i64 {
    let mut months = 0;
    let mut m = cal % 12 + 1;
    while m != 1 && m != 7 {
        months += 1;
        m = m % 12 + 1;
    }
    months
}

/// Food a country wants to keep after a collection in calendar month `cal`: its policy's multiple
/// of a half-year's feeding and army food, plus the offensive food its home army (field army,
/// garrison and recruits) would eat campaigning every month until that feeding, so that a war
/// never starves the population.
pub fn food_to_keep(g: &Game, st: &State, c: CountryId, p: &Scripted, cal: u32) -> i64 {
    let need = st.nations[c as usize].pob_collected / POB_PER_COM_HALF_YEARLY + army_food(st, c);
    let n = &st.nations[c as usize];
    let mpu = g.men_per_unit(c);
    let men =
        State::men(&n.field, &mpu) + State::men(&n.garrison, &mpu) + State::men(&n.training, &mpu);
    let campaign =
        (men / super::military::MEN_PER_COM).ceil() as i64 * campaign_months_to_feeding(cal);
    (need as f64 * p.food_stock.max(0.0)) as i64 + campaign
}

/// The gift rows of §4.19 (L4218-L4228): what is given, the lot and its row.
const GIFT_LOTS: [(usize, i64, pv::Row); 6] = [
    (COM, COM_LOT, pv::GIFT_300_COM),
    (DEN, DEN_LOT, pv::GIFT_600_DEN),
    (PIE, 600, pv::GIFT_600_PIE),
    (MAD, 600, pv::GIFT_600_MAD),
    (CAB, 800, pv::GIFT_800_CAB),
    (CAM, 600, pv::GIFT_600_CAM),
];

/// Gifts to the population after a collection, within the policy's share of the period's cap
/// (counted at black-market sale value, L4386): lot after lot, the one giving the most PV, then
/// rebellion index, per DEN of that value, from what lies above the food stock (COM), the
/// reserve and wages (DEN) and, where the policy gives goods, what it keeps (`trade::kept`).
/// The cap makes the DEN value the scarce thing, so the best ratio is the most PV it buys.
pub fn gifts(g: &Game, st: &mut State, plans: &[Scripted], cal: u32) {
    for c in 0..st.nations.len() as CountryId {
        let p = &plans[c as usize];
        if p.gifts <= 0.0 || st.lands[c as usize].owner != c {
            continue;
        }
        let cap = (GIFT_CAP * p.gifts.min(1.0)) as i64;
        let cul = culture(g, c);
        let col = column(cul);
        let goods = p.gift_goods >= 0.5;
        let mut floor = [i64::MAX; GIFT_LOTS.len()];
        for (i, &(r, _, _)) in GIFT_LOTS.iter().enumerate() {
            floor[i] = match r {
                COM => food_to_keep(g, st, c, p, cal),
                DEN => den_to_keep(g, st, c, p),
                _ if goods => super::trade::kept(g, st, c, p, r),
                _ => i64::MAX,
            };
        }
        loop {
            let given = st.nations[c as usize].gifts_this_period;
            let stock = &st.nations[c as usize].stock;
            let best = (0..GIFT_LOTS.len())
                .filter_map(|i| {
                    let (r, lot, row) = GIFT_LOTS[i];
                    let worth = (lot as f64 * g.sale[r]).ceil() as i64;
                    let fits = worth > 0
                        && given + worth <= cap
                        && floor[i] != i64::MAX
                        && stock[r] - lot >= floor[i];
                    fits.then(|| {
                        let per = |x: i32| x as f64 / worth as f64;
                        (i, worth, per(row.pv[col]), per(row.idr[col]))
                    })
                })
                .max_by(|a, b| {
                    (a.2, a.3)
                        .partial_cmp(&(b.2, b.3))
                        .unwrap()
                        .then(b.0.cmp(&a.0))
                });
            let Some((i, worth, _, _)) = best else {
                break;
            };
            let (r, lot, row) = GIFT_LOTS[i];
            st.spend(c, r, lot);
            st.nations[c as usize].gifts_this_period += worth;
            st.apply(c, pv::GIFTS, row, cul);
        }
    }
}
