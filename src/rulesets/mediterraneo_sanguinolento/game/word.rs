//! Spreading the word for mercenaries (digest §4.5.9 method 2; rules §33, L4514-L4538): a nation
//! that spreads the word draws 200 POB a turn from each country bordering it, raised as troops of
//! its own kinds at morale C only, each unit at +25% money (its DEN cost: the kind's base DEN and
//! morale C's cost) and its printed metal and other resources; the text calls them unreliable
//! unless at least as many of the nation's own troops back them.
//!
//! On the region graph: the bordering countries are its home node's land neighbours (borders and
//! straits, `Game::neighbours`), whoever holds them; the men come from abroad (they are not its
//! POB: the arrivals it does not raise that turn go elsewhere, and the ledger counts the raised
//! men's POB as gained). They are raised into the nation's kind with the most combat factor a
//! unit, in training like any recruit, their morale C mixed into the kind's morale classes
//! (`special.rs`: one mix per kind). Backing: a turn's word recruits never outnumber the nation's
//! own units (field army, garrison, occupation troops and those in training before them), so they
//! never fight unbacked and their unreliability needs no rule of its own.
//!
//! Policy `spread_word`: the share of its spare DEN (above its reserve, the units' first wages
//! kept back) it spends a turn on them (0: never, the referee's countries).

use super::economy::{self, wage};
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, POB};
use super::special::{self, MORALES};
use super::state::State;
use super::Game;

/// POB arriving a turn from each bordering country (L4536).
pub const POB_PER_NEIGHBOUR: i64 = 200;
/// A word recruit's money, in percent of its DEN cost at morale C (L4536).
pub const MONEY_PERCENT: i64 = 125;
/// The only morale class they come at (C; 0 = A).
pub const MORALE: usize = 2;

/// POB arriving for country `c` this turn: 200 from each country bordering its home.
pub fn arriving(g: &Game, c: CountryId) -> i64 {
    POB_PER_NEIGHBOUR * g.neighbours[c as usize].len() as i64
}

/// The kind `c` raises them into: its strongest (the most combat factor a unit).
pub fn kind_index(g: &Game, c: CountryId) -> Option<usize> {
    let kinds = &g.kinds[c as usize][..g.nkinds[c as usize] as usize];
    (0..kinds.len()).max_by(|&a, &b| kinds[a].factor.total_cmp(&kinds[b].factor))
}

/// DEN one word recruit of kind `k` of `c` costs: the kind's base DEN and morale C's cost, +25%
/// (rounded up).
pub fn unit_den(g: &Game, c: CountryId, k: usize) -> i64 {
    let kind = &g.kinds[c as usize][k];
    let base = kind.cost[DEN] - special::morale_cost(kind, kind.morale);
    let at_c = base + special::morale_cost(kind, MORALE);
    (at_c * MONEY_PERCENT + 99) / 100
}

/// Units of kind `k` `c` playing `p` raises by the word this turn: within the arrivals' men, the
/// policy's share of its spare DEN (each unit's first wages kept back), its other resources, the
/// mouths it can feed and its own units (the backing).
pub fn units(g: &Game, st: &State, c: CountryId, k: usize, p: &Scripted) -> i64 {
    let kind = &g.kinds[c as usize][k];
    let den = unit_den(g, c, k);
    let spare = st.nations[c as usize].stock[DEN] - economy::den_to_keep(g, st, c, p);
    let budget = (spare.max(0) as f64 * p.spread_word.clamp(0.0, 1.0)).floor() as i64;
    let mut n = arriving(g, c) / kind.cost[POB].max(1);
    n = n.min(budget / (den + wage(kind.cost[DEN])).max(1));
    let stock = &st.nations[c as usize].stock;
    for (r, &cost) in kind.cost.iter().enumerate() {
        if r != POB && r != DEN && cost > 0 {
            n = n.min(stock[r].max(0) / cost);
        }
    }
    let own: f64 = st.all_units(c).iter().sum();
    n.min(economy::feedable(g, st, c, k))
        .min(own.floor() as i64)
        .max(0)
}

/// Phase 6, after the nation's own purchases: each nation holding its home whose policy spreads
/// the word raises what arrives.
pub fn purchases(g: &Game, st: &mut State, plans: &[Scripted]) {
    for &c in &g.majors {
        let p = &plans[c as usize];
        if p.spread_word <= 0.0 || st.lands[c as usize].owner != c {
            continue;
        }
        let Some(k) = kind_index(g, c) else { continue };
        let n = units(g, st, c, k, p);
        if n <= 0 {
            continue;
        }
        let men = g.kinds[c as usize][k].cost[POB] * n;
        st.gain(c, POB, men);
        let mut by = [0u32; MORALES];
        by[MORALE] = n as u32;
        special::pay(g, st, c, k, n, unit_den(g, c, k) * n, by);
        st.counts.word_units += n as f64;
        st.counts.word_den += (unit_den(g, c, k) * n) as f64;
    }
}
