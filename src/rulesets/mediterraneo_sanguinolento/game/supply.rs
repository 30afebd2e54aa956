//! Army supply (digest §4.4, rules §10 L2084-L2122; interception's -3, §3.7 L5575): a field army
//! beyond its holder's lands eats 1 COM per 200 men a month (rounded up, as before) from the food
//! it carries: 1 COM per 200 men on their backs, 5,000 points in each supply convoy (L2118-L2120).
//! It loads that food from its holder's stock while it stands on its holder's lands with an
//! offensive mission, and unloads it there when it is idle or going home. Reading of "the convoy
//! must be with the troops at least once a month" (L2116), option army_supply: "carried" (the
//! convoys march with the army, the text's "with the army", L2108: they are always with it, and
//! the food is what they took on at home) or "home-stock" (the old abstraction: the army is fed
//! from the home stock wherever it stands, no convoys). The unfed share fights at half
//! (`Side::unsupplied`, L2090); 3 consecutive months with an unfed share (winter months neither
//! count nor break the run) kill that share. A convoy costs 50 POB (its crew: men raised, lost
//! with it), 50 DEN, 100 CAB or 100 CAM and 200 MAD (L2120); an army with one moves at the
//! convoy's 8 PM (L2108) and, intercepting, takes -3 (L5575); an army beaten beyond its lands
//! loses its convoys and their food to the winner (L2110): into the winner's stock if the winner
//! stands on its own lands, else into the food it carries (up to what it can carry). The policy
//! turns an army abroad home while its food covers the way back and its margin (supply_margin).

use super::battles::{self, has_troops};
use super::policy::Scripted;
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, POB};
use super::state::{State, KINDS};
use super::Game;

/// Men per COM of offensive food a month, and per COM carried without a convoy (L2090, L2118).
pub const MEN_PER_COM: f64 = 200.0;
/// Points a convoy carries (L2120).
pub const CONVOY_LOAD: i64 = 5_000;
/// PM a convoy moves a month (L2108).
pub const CONVOY_PM: u32 = 8;
/// A convoy's price (L2120): POB (its crew), DEN, mounts (CAB, else CAM), MAD.
pub const CONVOY_POB: i64 = 50;
pub const CONVOY_DEN: i64 = 50;
pub const CONVOY_MOUNTS: i64 = 100;
pub const CONVOY_MAD: i64 = 200;
/// Consecutive non-winter months with an unfed share that kill it (L2090).
pub const STARVING_MONTHS: u8 = 3;
/// Convoys a field army may keep (the policy's range).
pub const MAX_CONVOYS: u8 = 3;

/// What a field army carries (`Nation::supply`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    /// COM carried (on the men's backs and in the convoys).
    pub food: i64,
    /// Supply convoys marching with the field army.
    pub convoys: u8,
    /// Consecutive non-winter months it has had an unfed share.
    pub hungry: u8,
}

/// How the army is fed beyond its lands (option army_supply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// From the food it carries, loaded on its holder's lands.
    Carried,
    /// From its holder's stock wherever it stands (no transport, no convoys).
    HomeStock,
}

impl Reading {
    pub fn from_option(v: &str) -> Reading {
        if v == "home-stock" {
            Reading::HomeStock
        } else {
            Reading::Carried
        }
    }
}

fn men(g: &Game, st: &State, c: CountryId) -> f64 {
    State::men(&st.nations[c as usize].field, &g.men_per_unit(c))
}

/// COM `c`'s field army eats a month beyond its lands.
pub fn monthly_need(g: &Game, st: &State, c: CountryId) -> i64 {
    (men(g, st, c) / MEN_PER_COM).ceil() as i64
}

/// COM `c`'s field army can carry: 1 per 200 men, 5,000 per convoy.
pub fn capacity(g: &Game, st: &State, c: CountryId) -> i64 {
    (men(g, st, c) / MEN_PER_COM).floor() as i64
        + st.nations[c as usize].supply.convoys as i64 * CONVOY_LOAD
}

/// COM carried by each country's field army (for the invariants: stock + this is what the ledger
/// accounts for).
pub fn carried(st: &State, c: CountryId) -> i64 {
    st.nations[c as usize].supply.food
}

/// Men in `c`'s convoys (their crews, raised from POB).
pub fn convoy_men(st: &State, c: CountryId) -> f64 {
    (st.nations[c as usize].supply.convoys as i64 * CONVOY_POB) as f64
}

/// Whether `c`'s field army has a convoy with it (8 PM; -3 intercepting).
pub fn has_convoy(g: &Game, st: &State, c: CountryId) -> bool {
    g.supply == Reading::Carried && st.nations[c as usize].supply.convoys > 0
}

/// PM `c`'s field army moves a month: its slowest kind's `pm`, at most a convoy's 8.
pub fn pace(g: &Game, st: &State, c: CountryId, pm: u32) -> u32 {
    if has_convoy(g, st, c) {
        pm.min(CONVOY_PM)
    } else {
        pm
    }
}

fn offensive(st: &State, c: CountryId) -> bool {
    use super::state::Mission;
    matches!(
        st.nations[c as usize].mission,
        Mission::March { .. } | Mission::Siege { .. } | Mission::Pillage { .. }
    )
}

/// The month's supply of every field army, before it moves (phase 8).
pub fn month(g: &Game, st: &mut State, plans: &[Scripted], winter: bool) {
    for c in 0..st.nations.len() as CountryId {
        let p = &plans[c as usize];
        let at = st.nations[c as usize].at;
        if !has_troops(&st.nations[c as usize].field) {
            unload(st, c);
            let s = &mut st.nations[c as usize];
            s.unsupplied = 0.0;
            s.supply.hungry = 0;
            continue;
        }
        if st.lands[at as usize].owner == c {
            let s = &mut st.nations[c as usize];
            s.unsupplied = 0.0;
            s.supply.hungry = 0;
            if g.supply == Reading::HomeStock {
                continue;
            }
            if offensive(st, c) {
                buy_convoys(st, c, p);
            }
            if offensive(st, c) || at != c {
                // Setting out, or on its own lands on the way: the road ahead may be enemy land.
                load(g, st, c, p);
                hold_back(g, st, c, p);
            } else {
                unload(st, c);
            }
            continue;
        }
        let need = monthly_need(g, st, c);
        let eaten = match g.supply {
            Reading::Carried => {
                let s = &mut st.nations[c as usize].supply;
                let eaten = need.min(s.food);
                s.food -= eaten;
                st.ledger.spent[COM] += eaten;
                eaten
            }
            Reading::HomeStock => st.spend(c, COM, need),
        };
        let unfed = if need > 0 {
            1.0 - eaten as f64 / need as f64
        } else {
            0.0
        };
        st.nations[c as usize].unsupplied = unfed;
        starve(g, st, c, unfed, winter);
        super::forage::standing(g, st, p, c);
        // Policy: an army abroad turns home while its food still covers the way back and its
        // margin (a march or siege that outruns its food only starves).
        let left = need * (months_home(g, st, c) + p.supply_margin as i64);
        let food = match g.supply {
            Reading::Carried => st.nations[c as usize].supply.food,
            Reading::HomeStock => st.nations[c as usize].stock[COM],
        };
        if offensive(st, c) && food < left {
            let n = &mut st.nations[c as usize];
            n.mission = super::state::Mission::Return;
            n.progress = 0;
            n.raid = false;
        }
    }
}

/// Policy: an army on its lands does not set out on a march its food cannot carry there and back
/// with its margin.
fn hold_back(g: &Game, st: &mut State, c: CountryId, p: &Scripted) {
    let n = &st.nations[c as usize];
    if !matches!(n.mission, super::state::Mission::March { .. }) || n.by_sea {
        return;
    }
    let there = months_to_target(g, st, c);
    let need = monthly_need(g, st, c);
    if st.nations[c as usize].supply.food < need * (2 * there + p.supply_margin as i64) {
        let n = &mut st.nations[c as usize];
        n.mission = super::state::Mission::Idle;
        n.progress = 0;
        n.raid = false;
        st.counts.marches_held_back += 1;
    }
}

/// Months `c`'s field army needs to reach its march's target by land (0: no march by land).
pub fn months_to_target(g: &Game, st: &State, c: CountryId) -> i64 {
    let n = &st.nations[c as usize];
    match n.mission {
        super::state::Mission::March { target } if !n.by_sea => {
            months_between(g, st, c, n.at, target)
        }
        _ => 0,
    }
}

/// Months `c`'s field army needs to march home by the cheapest land path at its pace (winter and
/// storms apart); 1 where no land path leads home (a crossing by sea).
pub fn months_home(g: &Game, st: &State, c: CountryId) -> i64 {
    months_between(g, st, c, st.nations[c as usize].at, c)
}

/// Months `c`'s field army needs from `a` to `b` by the cheapest land path at its pace; 1 where
/// none leads (a crossing by sea).
fn months_between(g: &Game, st: &State, c: CountryId, a: CountryId, b: CountryId) -> i64 {
    let units = st.nations[c as usize].field;
    let kinds = &g.kinds[c as usize];
    let slowest = (0..KINDS)
        .filter(|&k| units[k] > 1e-9)
        .map(|k| kinds[k].movement)
        .min()
        .unwrap_or(0);
    let pm = pace(g, st, c, slowest).max(1);
    let cost = st.roads.cost(g, a, b);
    if cost == u32::MAX {
        1
    } else {
        cost.div_ceil(pm) as i64
    }
}

/// The 3-month run of hunger (L2090): a non-winter month with an unfed share adds one, a fed month
/// ends the run, a winter month changes nothing; at the third the unfed share dies.
pub fn starve(g: &Game, st: &mut State, c: CountryId, unfed: f64, winter: bool) {
    let s = &mut st.nations[c as usize].supply;
    if unfed <= 0.0 {
        s.hungry = 0;
        return;
    }
    if winter {
        return;
    }
    s.hungry += 1;
    if s.hungry < STARVING_MONTHS {
        return;
    }
    s.hungry = 0;
    let mpu = g.men_per_unit(c);
    let field = &mut st.nations[c as usize].field;
    let mut dead = 0.0;
    for k in 0..KINDS {
        let gone = field[k] * unfed.min(1.0);
        field[k] -= gone;
        if field[k] < 1e-9 {
            field[k] = 0.0;
        }
        dead += gone * mpu[k];
    }
    st.ledger.men_lost += dead;
    st.counts.starved_men += dead;
}

/// Convoys wanted by `c`'s policy beyond those it has, bought while it can pay for them.
fn buy_convoys(st: &mut State, c: CountryId, p: &Scripted) {
    while st.nations[c as usize].supply.convoys < p.convoys.min(MAX_CONVOYS) {
        let stock = &st.nations[c as usize].stock;
        let mounts = if stock[CAB] >= CONVOY_MOUNTS {
            CAB
        } else {
            CAM
        };
        let price = [
            (POB, CONVOY_POB),
            (DEN, CONVOY_DEN),
            (mounts, CONVOY_MOUNTS),
            (MAD, CONVOY_MAD),
        ];
        if price.iter().any(|&(r, v)| stock[r] < v) {
            return;
        }
        for (r, v) in price {
            st.spend(c, r, v);
        }
        st.ledger.men_raised += CONVOY_POB as f64;
        st.nations[c as usize].supply.convoys += 1;
        st.counts.convoys_bought += 1;
    }
}

/// Convoys `c`'s policy wants beyond those it has.
pub fn missing(st: &State, c: CountryId, plan: &Scripted) -> i64 {
    plan.convoys
        .min(MAX_CONVOYS)
        .saturating_sub(st.nations[c as usize].supply.convoys) as i64
}

/// The wood and animals (CAB, or CAM where it has them) `c` lacks for the convoys its policy
/// still wants, and their DEN: what it may buy at the black market (`trade.rs`).
pub fn materials_wanted(st: &State, c: CountryId, plan: &Scripted) -> (i64, i64, i64) {
    let m = missing(st, c, plan);
    let s = &st.nations[c as usize].stock;
    let mad = (m * CONVOY_MAD - s[MAD]).max(0);
    let mounts = (m * CONVOY_MOUNTS - s[CAB].max(s[CAM])).max(0);
    (mad, mounts, m * CONVOY_DEN)
}

/// Units of `r` `c` keeps from the black market's buyers for the convoys its policy still wants.
pub fn kept(st: &State, c: CountryId, plan: &Scripted, r: usize) -> i64 {
    let missing = missing(st, c, plan);
    match r {
        CAB | CAM => missing * CONVOY_MOUNTS,
        MAD => missing * CONVOY_MAD,
        _ => 0,
    }
}

/// Tops up the food `c`'s army carries (within what it can carry) from its holder's stock, leaving
/// the stock the next half-yearly feeding of the population and the yearly army food: its policy's months of need at the target,
/// plus the march there and back and the margin.
pub fn load(g: &Game, st: &mut State, c: CountryId, p: &Scripted) {
    let months = p.carried_months as i64 + 2 * months_to_target(g, st, c) + p.supply_margin as i64;
    let want = capacity(g, st, c).min(monthly_need(g, st, c) * months);
    let feeding = st.nations[c as usize].pob_collected / super::economy::POB_PER_COM_HALF_YEARLY
        + super::economy::army_food(st, c);
    let n = &mut st.nations[c as usize];
    if n.supply.food > want {
        n.stock[COM] += n.supply.food - want;
        n.supply.food = want;
        return;
    }
    let spare = (n.stock[COM] - feeding).max(0);
    let take = (want - n.supply.food).min(spare);
    n.stock[COM] -= take;
    n.supply.food += take;
}

/// Returns the food `c`'s army carries to its holder's stock.
fn unload(st: &mut State, c: CountryId) {
    let n = &mut st.nations[c as usize];
    n.stock[COM] += n.supply.food;
    n.supply.food = 0;
}

/// After a fight between the field armies of `c` (side 0) and `o` (side 1, or the troops
/// holding node `assaulted`): a field army beaten beyond its holder's lands loses its convoys
/// (their crews dead) and their food to the winner (L2110).
pub fn beaten(
    g: &Game,
    st: &mut State,
    sides: [CountryId; 2],
    f: &battles::Fought,
    assaulted: Option<CountryId>,
) {
    let Some(w) = f.winner else { return };
    let (winner, loser) = (sides[w], sides[1 - w]);
    if w == 0 && assaulted.is_some() {
        return;
    }
    let at = st.nations[loser as usize].at;
    let convoys = st.nations[loser as usize].supply.convoys;
    if convoys == 0 || st.lands[at as usize].owner == loser {
        return;
    }
    let s = &mut st.nations[loser as usize].supply;
    let taken = s.food.min(convoys as i64 * CONVOY_LOAD);
    s.food -= taken;
    s.convoys = 0;
    // What the men cannot carry on their backs is lost with the convoys.
    let spilt = (st.nations[loser as usize].supply.food - capacity(g, st, loser)).max(0);
    st.nations[loser as usize].supply.food -= spilt;
    st.ledger.spent[COM] += spilt;
    st.ledger.men_lost += (convoys as i64 * CONVOY_POB) as f64;
    st.counts.convoys_lost += convoys as u32;
    let wat = st.nations[winner as usize].at;
    if st.lands[wat as usize].owner == winner {
        st.nations[winner as usize].stock[COM] += taken;
    } else {
        let room = (capacity(g, st, winner) - st.nations[winner as usize].supply.food).max(0);
        st.nations[winner as usize].supply.food += taken.min(room);
        st.ledger.spent[COM] += (taken - room).max(0);
    }
}
