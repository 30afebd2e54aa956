//! Special populations (digest §4.5.7, rules L5229-L5241; T13 and T14 of §7.1): the recruits of
//! Roma and Esparta take the morale and pay the morale cost of their population's rows (the
//! rulebook file's `population_morale`): Roma's city 20% morale A at B's cost and the rest B at
//! C's, its Italics (the rest of the country) its kinds' own; Esparta's city all A at D's cost,
//! the rest 20% A at B's, 50% B at C's and 30% C at D's (`economy::special_recruits` splits them).
//!
//! The model: a nation's units of a kind stay one count (`Units`), with the share of them at each
//! morale class beside it (`Mix`, one per nation: losses, desertion and moves take every class
//! alike). A battle side fights each class of a kind as a group of its own (the battle code takes
//! one morale per group) and its losses are summed back into the kind; the siege code takes the
//! men-weighted morale value. Readings: how much of a purchase the city's POB raises (option
//! special_city_pob: the sheets give no city POB) and A42's cap of 5 units of morale A and 10 of B
//! (option elite_cap: per purchase phase by default). A special purchase within the recruits its
//! policy's share of POB, its resources and its food allow raises first the city's part, then the
//! rest, each cut down to what the caps and its DEN (its morale cost at the rows' cost classes,
//! with the first wages kept back) allow.
//!
//! Not played: wages stay 1/20 of the kind's printed morale cost (the classes' cost classes are
//! not kept per unit); the target shortlist's yardstick (`military::strength`) and the
//! army_factors proxy count the kind's own morale. The praetorian guard needs no play: no nation
//! raises a guard on the graph (§4.5.4), Roma's Roman A troops are in its mix here and its home
//! garrison never leaves home.

use super::economy::{self, wage};
use super::policy::Scripted;
use super::scenario::{CountryId, DEN};
use super::state::{State, KINDS};
use super::{Game, Kind};
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// Morale classes A-D.
pub const MORALES: usize = 4;
/// Per kind, the share of a nation's units at each morale class (0 = A); a row of zeros is all at
/// the kind's own morale.
pub type Mix = [[f64; MORALES]; KINDS];
pub const NO_MIX: Mix = [[0.0; MORALES]; KINDS];
/// The period A42's cap counts units in (option elite_cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EliteCap {
    PerPurchase,
    PerGame,
    None,
}

/// The readings of the special populations.
#[derive(Clone, Copy, Debug)]
pub struct Ruling {
    /// Every recruit of a special country comes from its capital's POB (option special_city_pob
    /// = all), else the capital's share of its listed cities.
    pub all_from_capital: bool,
    pub cap: EliteCap,
}

impl Ruling {
    pub fn new(options: &Options) -> Ruling {
        Ruling {
            all_from_capital: options.choice("special_city_pob") == "all",
            cap: match options.choice("elite_cap") {
                "per-game" => EliteCap::PerGame,
                "none" => EliteCap::None,
                _ => EliteCap::PerPurchase,
            },
        }
    }
}

/// The shares of a kind's units at each morale class: its row, or all at the kind's own morale.
pub fn shares(kind: &Kind, row: &[f64; MORALES]) -> [f64; MORALES] {
    if row.iter().sum::<f64>() > 0.0 {
        return *row;
    }
    let mut own = [0.0; MORALES];
    own[kind.morale] = 1.0;
    own
}

/// The morale classes a kind's units fight at with their shares (empty classes left out): one
/// battle-code group each, in class order.
pub fn classes(kind: &Kind, row: &[f64; MORALES]) -> impl Iterator<Item = (usize, f64)> {
    let s = shares(kind, row);
    (0..MORALES)
        .filter(move |&m| s[m] > 0.0)
        .map(move |m| (m, s[m]))
}

/// The siege code's morale value of a kind's units: the men-weighted value of its classes.
pub fn morale_value(kind: &Kind, row: &[f64; MORALES]) -> f64 {
    let v = &data().morale.value;
    let table = if kind.regular {
        &v.regular
    } else {
        &v.irregular
    };
    classes(kind, row).map(|(m, s)| s * table[m] as f64).sum()
}

/// Morale cost in DEN of one unit of `kind`'s quality at morale class `class` (L1740-L1744).
pub fn morale_cost(kind: &Kind, class: usize) -> i64 {
    let cost = &data().morale.cost;
    let table = if kind.regular {
        &cost.regular
    } else {
        &cost.irregular
    };
    table[class] as i64
}

/// Whether country `c` has a special population.
pub fn special(g: &Game, c: CountryId) -> bool {
    g.scenario
        .special
        .population_morale
        .iter()
        .any(|r| r.country == c)
}

/// The share of a special country's recruits raised from its capital's POB (option
/// special_city_pob): the capital's share of its listed cities, the sheets giving no city's POB,
/// or all of them.
pub fn capital_share(g: &Game, c: CountryId) -> f64 {
    if g.special.all_from_capital {
        return 1.0;
    }
    let cities = &g.scenario.countries[c as usize].cities;
    1.0 / (cities.end - cities.start).max(1) as f64
}

/// `n` recruits of `kind` from the capital's POB or the rest: the units at each morale class and
/// their morale cost in DEN, by the population's rows, or at the kind's own morale and cost where
/// it has none (Rome's Italics).
pub fn recruits(
    g: &Game,
    c: CountryId,
    kind: &Kind,
    from_capital: bool,
    n: u32,
) -> ([u32; MORALES], i64) {
    economy::special_recruits(g, c, from_capital, n, kind.regular).unwrap_or_else(|| {
        let mut by = [0; MORALES];
        by[kind.morale] = n;
        (by, n as i64 * morale_cost(kind, kind.morale))
    })
}

/// Units of morale A and B country `c` may still raise in the cap's period (at most 5 A and 10 B,
/// L1712: the data's morale limits).
fn elite_left(g: &Game, st: &State, c: CountryId) -> [u32; 2] {
    if g.special.cap == EliteCap::None {
        return [u32::MAX; 2];
    }
    let raised = st.nations[c as usize].elite_raised;
    let limits = &data().morale.limits;
    [
        limits.max_a.saturating_sub(raised[0]),
        limits.max_b.saturating_sub(raised[1]),
    ]
}

/// The purchases phase begins: A42's per-purchase count starts again.
pub fn new_purchase(g: &Game, st: &mut State) {
    if g.special.cap == EliteCap::PerPurchase {
        for n in &mut st.nations {
            n.elite_raised = [0; 2];
        }
    }
}

/// Buys up to `n` units of kind `k` for country `c` as its special population: the capital's
/// share first, then the rest, each cut down to what A42's caps and the DEN above the policy's
/// keep (with the first wages kept back) allow. False (nothing bought) where `c` has no special
/// population; `n` must be affordable at the kind's other resources.
pub fn buy(g: &Game, st: &mut State, c: CountryId, k: usize, n: i64, p: &Scripted) -> bool {
    if !special(g, c) {
        return false;
    }
    let kind = g.kinds[c as usize][k];
    let base_den = kind.cost[DEN] - morale_cost(&kind, kind.morale);
    let from_city = (n as f64 * capital_share(g, c)).round() as i64;
    for (from_capital, most) in [(true, from_city), (false, n - from_city)] {
        for m in (1..=most).rev() {
            let (by, morale_den) = recruits(g, c, &kind, from_capital, m as u32);
            let left = elite_left(g, st, c);
            let den = base_den * m + morale_den;
            let spare = st.nations[c as usize].stock[DEN] - economy::den_to_keep(g, st, c, p);
            if by[0] > left[0] || by[1] > left[1] || den + m * wage(kind.cost[DEN]) > spare {
                continue;
            }
            pay(g, st, c, k, m, den, by);
            break;
        }
    }
    true
}

/// Pays for `m` units of kind `k` at `den` DEN in all (the kind's other resources as printed),
/// puts them in training and mixes their classes `by` into the kind's shares.
pub fn pay(g: &Game, st: &mut State, c: CountryId, k: usize, m: i64, den: i64, by: [u32; MORALES]) {
    let kind = g.kinds[c as usize][k];
    for (r, &cost) in kind.cost.iter().enumerate() {
        if r != DEN && cost > 0 {
            let paid = st.spend(c, r, cost * m);
            debug_assert_eq!(paid, cost * m, "bought units must be affordable");
        }
    }
    let paid = st.spend(c, DEN, den);
    debug_assert_eq!(paid, den, "bought units must be affordable");
    let before = st.all_units(c)[k];
    let nation = &mut st.nations[c as usize];
    let old = shares(&kind, &nation.mix[k]);
    let total = before + m as f64;
    for class in 0..MORALES {
        nation.mix[k][class] = (old[class] * before + by[class] as f64) / total;
    }
    nation.training[k] += m as f64;
    nation.elite_raised[0] += by[0];
    nation.elite_raised[1] += by[1];
    st.ledger.men_raised += m as f64 * kind.men;
}
