//! Fleets in the game beyond the starting ones: the majors' purchases of warfleets (the
//! scenario's fleet type), transports (FTR) and pirate fleets at the printed costs (digest
//! §3.1.3, §4.5.1, §4.5.6), built in the home port under the 30-naval-factor cap of L2691 and
//! launched after their crews' training (+3 months for fleets); the naval leaders (§4.13, L2362)
//! found by the leader search; and the naval interception roll (§3.7, L2463-L2467): 1D6 + the
//! naval leader's leadership - distance, judged by option interception_bands (A36).

use super::leaders::{self, Leader};
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, RESOURCES};
use super::state::{Shipyard, State, R};
use super::works::Work;
use super::Game;
use crate::dice::Dice;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;
use crate::rulesets::mediterraneo_sanguinolento::data::{data, Fleet};
use crate::rulesets::mediterraneo_sanguinolento::interception::naval_succeeds;

/// Naval leaders a nation can have at once (the game's bound, like `leaders::MAX_LEADERS`).
pub const MAX_ADMIRALS: usize = 2;
/// Naval factors (ram, per fleet, A3) under construction at once per coastal city or port
/// (L2691); a naval base doubles its port's (`port_cap`).
pub const FACTORS_PER_CITY: f64 = 30.0;
/// Morale classes of the crews: warfleets and transports regular C (as the naval battle plays
/// them), pirates morale D only (L1878), irregular (civilized troops are all regular "except
/// pirates", L4092).
pub const CREW_CLASS: usize = 2;
pub const PIRATE_CLASS: usize = 3;
/// The transport fleet type (digest §3.1.2).
pub const TRANSPORT: &str = "FTR";

/// The transport fleet's data.
pub fn transport() -> &'static Fleet {
    data().fleet(TRANSPORT).expect("naval-units.toml lists FTR")
}

/// What one fleet of `fleet` costs with a crew of morale class `class` (0 = A … 3 = D) and
/// quality `regular`: the printed creation cost (§3.1.3: POB, DEN, MET, MAD, the wood) and, for
/// warfleets, the crew's morale cost in DEN (§3.1.4, L1238).
pub fn fleet_cost(fleet: &Fleet, class: usize, regular: bool) -> [i64; R] {
    let mut cost = [0i64; R];
    for (name, &v) in &fleet.cost {
        let r = RESOURCES
            .iter()
            .position(|x| x == name)
            .expect("a fleet costs game resources");
        cost[r] += v as i64;
    }
    if fleet.morale_cost {
        let m = &data().morale.cost;
        cost[DEN] += if regular {
            m.regular[class]
        } else {
            m.irregular[class]
        } as i64;
    }
    cost
}

/// Months before a fleet bought with a crew of morale class `class` sails (§4.5.1: the class's
/// training, +3 for fleets).
pub fn training_months(class: usize) -> u32 {
    let t = &data().morale.training;
    t.months[class] + t.fleet_extra
}

/// Whether `c` has a port to build in: it holds its home, whose node touches a sea and has cities
/// (every coastal city is a port, L3850) or a port it built (`works.rs`).
pub fn has_port(g: &Game, st: &State, c: CountryId) -> bool {
    st.lands[c as usize].owner == c
        && g.scenario.nodes[c as usize].seas != 0
        && (!g.scenario.countries[c as usize].cities.is_empty()
            || st.works[c as usize].built(Work::Port) > 0)
}

/// Naval factors `c` may have under construction at once at home (L2691): 30 per city (each a
/// coastal city on a coastal node) and per port built, twice that in each of its naval bases.
pub fn port_cap(g: &Game, st: &State, c: CountryId) -> f64 {
    let w = &st.works[c as usize];
    let ports = g.scenario.countries[c as usize].cities.len() as f64 + w.built(Work::Port) as f64;
    FACTORS_PER_CITY * (ports + w.built(Work::NavalBase) as f64)
}

/// Whole fleets of cost `cost` that `c` can pay from its stocks, keeping `keep` DEN.
fn affordable(st: &State, c: CountryId, cost: &[i64; R], keep: i64) -> i64 {
    let stock = &st.nations[c as usize].stock;
    let mut n = i64::MAX;
    for r in 0..R {
        if cost[r] > 0 {
            let have = if r == DEN { stock[r] - keep } else { stock[r] };
            n = n.min(have.max(0) / cost[r]);
        }
    }
    n
}

/// 6 COMPRAS for fleets: each major with a port and nothing on its stocks orders what its policy
/// wants beyond what it has (warfleets per home city, transports, pirate fleets), as many as it
/// can pay keeping its DEN reserve and wages, within 30 ram factors per home city.
pub fn purchases(g: &Game, st: &mut State, plans: &[Scripted], month: u32) {
    let Some(warfleet) = g.scenario.fleet else {
        return;
    };
    for &c in &g.majors {
        if !has_port(g, st, c) || !st.nations[c as usize].shipyard.is_empty() {
            continue;
        }
        let p = &plans[c as usize];
        let cities = g.scenario.countries[c as usize].cities.len() as f64;
        let mut factors_left = port_cap(g, st, c);
        let n = &st.nations[c as usize];
        let orders = [
            (
                warfleet,
                CREW_CLASS,
                true,
                p.warfleets_per_city * cities - n.fleets,
            ),
            (
                transport(),
                CREW_CLASS,
                true,
                p.transports as f64 - n.transports,
            ),
            (
                warfleet,
                PIRATE_CLASS,
                false,
                p.pirate_fleets as f64 - n.pirates,
            ),
        ];
        let mut yard = Shipyard::default();
        for (i, (fleet, class, regular, wanted)) in orders.into_iter().enumerate() {
            let cost = fleet_cost(fleet, class, regular);
            let keep = super::economy::den_to_keep(g, st, c, p);
            let cap = (factors_left / fleet.ram.max(1) as f64).floor() as i64;
            let k = (wanted.floor() as i64)
                .min(cap)
                .min(affordable(st, c, &cost, keep));
            if k <= 0 {
                continue;
            }
            for (r, &v) in cost.iter().enumerate() {
                st.spend(c, r, v * k);
            }
            factors_left -= (k as u32 * fleet.ram) as f64;
            // A shipyard at home builds it 1 (FQ) or 2 months sooner (L1756).
            let sooner = super::works::shipyard_months(st, c, &fleet.code);
            let ready = month + training_months(class) - sooner;
            yard.ready = yard.ready.max(ready);
            let counts = &mut st.counts;
            match i {
                0 => {
                    yard.warfleets += k as f64;
                    counts.warfleets_bought += k as u32;
                }
                1 => {
                    yard.transports += k as f64;
                    counts.transports_bought += k as u32;
                }
                _ => {
                    yard.pirates += k as f64;
                    counts.pirate_fleets_bought += k as u32;
                }
            }
        }
        debug_assert!(yard.warfleets + yard.transports + yard.pirates >= 0.0);
        st.nations[c as usize].shipyard = yard;
    }
}

/// Fleets whose crews are trained join the home port (launched at the start of the turn whose
/// first month is at least their ready month); a yard whose port has fallen loses them.
pub fn launch(g: &Game, st: &mut State, month: u32) {
    let per_fleet = super::naval::SHIPS_PER_FLEET;
    for c in 0..st.nations.len() {
        let yard = st.nations[c].shipyard;
        if yard.is_empty() || month < yard.ready {
            continue;
        }
        let ships = (yard.warfleets + yard.transports + yard.pirates) * per_fleet;
        st.nations[c].shipyard = Shipyard::default();
        st.ledger.ships_built += ships;
        if !has_port(g, st, c as CountryId) {
            st.ledger.ships_lost += ships;
            continue;
        }
        let n = &mut st.nations[c];
        n.fleets += yard.warfleets;
        n.transports += yard.transports;
        n.pirates += yard.pirates;
    }
}

/// The naval leader in command of `c`'s fleets: the best living one by tactical, then strategic
/// value (A45's reading for the naval side), None without one.
pub fn admiral(st: &State, c: CountryId) -> Option<Leader> {
    st.nations[c as usize]
        .admirals
        .iter()
        .filter(|l| l.alive)
        .max_by_key(|l| (l.tactical, l.strategic))
        .copied()
}

/// The naval leader's "leadership" (liderazgo) in the interception roll (option
/// naval_interception_value): his tactical value by default, else his strategic one; 0 without one.
pub fn leadership(g: &Game, st: &State, c: CountryId) -> i32 {
    admiral(st, c).map_or(0, |l| {
        if g.options.choice("naval_interception_value") == "strategic" {
            l.strategic as i32
        } else {
            l.tactical as i32
        }
    })
}

/// The naval interception of `o`'s fleets at `distance` hexes: 1D6 + leadership - distance on
/// option interception_bands' reading (A36). Counts the roll.
pub fn intercepts(g: &Game, st: &mut State, o: CountryId, distance: i32, dice: &mut Dice) -> bool {
    st.counts.naval_interceptions_tried += 1;
    let m = leadership(g, st, o) - distance;
    naval_succeeds(dice.d(6), m, g.interception_literal)
}

/// Living naval leaders of `c`.
pub fn admirals(st: &State, c: CountryId) -> usize {
    st.nations[c as usize]
        .admirals
        .iter()
        .filter(|l| l.alive)
        .count()
}

/// Whether this turn's leader search of `c` is stated naval (L2254): it wants more naval leaders
/// (policy naval_leaders_wanted, a port to use them) and lacks at least as many of them as land
/// leaders.
pub fn search_naval(g: &Game, st: &State, c: CountryId, p: &Scripted) -> bool {
    let naval_short =
        (p.naval_leaders_wanted as usize).min(MAX_ADMIRALS) as i64 - admirals(st, c) as i64;
    let land_short = (p.leaders_wanted as usize).min(leaders::MAX_LEADERS) as i64
        - leaders::living(st, c) as i64;
    g.scenario.fleet.is_some() && has_port(g, st, c) && naval_short > 0 && naval_short >= land_short
}

/// A naval leader found by a search joins `c` (the new-leader tables, L2258-L2296) where a
/// slot is free.
pub fn add_admiral(g: &Game, st: &mut State, c: CountryId, dice: &mut Dice) {
    let found = leaders::roll_new(g, c, dice);
    let slots = &mut st.nations[c as usize].admirals;
    if let Some(slot) = slots.iter().position(|l| !l.alive) {
        slots[slot] = found;
        st.counts.naval_leaders_found += 1;
    }
}

/// Whether `c`'s crews are barbarian (-1 on the ram die, L2425).
pub fn barbarian(g: &Game, c: CountryId) -> bool {
    g.culture[c as usize] == Culture::Barbarian
}

/// Ships in every nation's ports (warfleets, transports, pirates, the damaged and the uncrewed;
/// not those on the stocks).
pub fn ships_afloat(st: &State) -> f64 {
    let per_fleet = super::naval::SHIPS_PER_FLEET;
    st.nations
        .iter()
        .map(|n| {
            (n.fleets + n.transports + n.pirates) * per_fleet + n.docks.ships() + n.sea.ships()
        })
        .sum()
}
