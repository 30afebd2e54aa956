//! Production improvements (digest §4.8, rules §6.3-§6.13, §7.4), new cities and enlargements
//! (digest §4.7, rules §21 L3822-L3836), naval bases (L2374-L2386) and ports (L2390-L2395,
//! L3848-L3856): what a country builds at home besides its capital's walls (`economy.rs`); and
//! colonies abroad (`colonies.rs`), which stand in their host's works.
//!
//! A naval base doubles one port's naval construction cap (`fleets::port_cap`) and lets the fleets
//! in it refuse battle (`naval::refuses`); at most 2 a country and one per port (a coastal
//! country's cities are its ports). A port is built only where a coastal home has no city (every
//! coastal city is already a port, L3850): it is then the home's port. A second port raising a
//! coast's port importance is not played: the graph reads importance by culture.
//!
//! A work is paid in full when it starts (7 CONSTRUCCIONES), is built month by month at home (no
//! month counts while the capital is besieged, L3676; lost with the home country, like the walls),
//! one of each type under way at a time per country (L681). A finished work belongs to its
//! country's land: its output is part of that land's yield at every collection after it is
//! finished, whoever holds the land (a conqueror collects a country's production with its cities
//! and factories, so it collects theirs too: the factories stand in the conquered country's cities
//! and hexes and nothing in the rules carries them away). Barbarians build none (L4108: anything but
//! walls up to level 4 must be built for them by another culture, not played here); manufactures
//! factories are for the civilized only (L846), new cities and enlargements for B/C and C (L4100).
//!
//! Readings (the rules give one effect per improvement and no count): every improvement is built
//! once per country, but reforestation twice where the country has two forest hexes (L755-L758;
//! the region graph has no hexes: a node whose terrain is forest stands in for "at least two"),
//! the manufactures factory once per listed city (L846: "in the cities") and the enlargement once
//! per city, printed or new; new cities one at a time without a count (one per hex, L3852: the
//! graph has no hexes). Quarry output by option `quarry_output` (A63). Prospecting (its result
//! table is missing, A64) and mount breeding (no time, and PM of mounted units the region graph
//! does not use) are not played. Slaves put on a work (L833) end it sooner or cheaper (`slaves.rs`).
//! The wood a work is paid with is
//! recorded with its land for the January upkeep (L751, `wood.rs`): a work not restored collapses.

use super::colonies;
use super::economy;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, COM, DEN, MAD, MAN, MET, PIE, POB};
use super::state::{State, R};
use super::trade::price_per_ten;
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// What a country can build, in the order of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    MiningFactory,
    CropIntensification,
    Reforestation,
    Quarry,
    ManufacturesFactory,
    FishingFactory,
    Shipyard,
    City,
    Enlargement,
    Colony,
    NavalBase,
    Port,
}

pub const WORKS: [Work; 12] = [
    Work::MiningFactory,
    Work::CropIntensification,
    Work::Reforestation,
    Work::Quarry,
    Work::ManufacturesFactory,
    Work::FishingFactory,
    Work::Shipyard,
    Work::City,
    Work::Enlargement,
    Work::Colony,
    Work::NavalBase,
    Work::Port,
];
pub const TYPES: usize = WORKS.len();

/// A work's price and time (digest §4.7-§4.8 tables): DEN, stone or wood in any mix ("PIE y/o
/// MAD"), stone only, wood only, metal, months, and the builder's POB that must go (a colony's
/// settlers, L3862).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Price {
    pub pob: i64,
    pub den: i64,
    pub pie_or_mad: i64,
    pub pie: i64,
    pub mad: i64,
    pub met: i64,
    pub months: u8,
}

const fn price(den: i64, pie_or_mad: i64, pie: i64, mad: i64, met: i64, months: u8) -> Price {
    Price {
        pob: 0,
        den,
        pie_or_mad,
        pie,
        mad,
        met,
        months,
    }
}

impl Work {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Work::MiningFactory => "mining factory",
            Work::CropIntensification => "crop intensification",
            Work::Reforestation => "reforestation",
            Work::Quarry => "quarry",
            Work::ManufacturesFactory => "manufactures factory",
            Work::FishingFactory => "fishing factory",
            Work::Shipyard => "shipyard",
            Work::City => "city",
            Work::Enlargement => "city enlargement",
            Work::Colony => "colony",
            Work::NavalBase => "naval base",
            Work::Port => "port",
        }
    }

    /// The printed price and time (L735-L739, L755-L758, L770-L775, L846-L853, L1142-L1156,
    /// L1754-L1756, L3822-L3836; a colony as a city, L3862; a naval base L2384; a port
    /// L2394-L2395, L3854).
    pub fn price(self) -> Price {
        match self {
            Work::MiningFactory => price(700, 0, 500, 0, 400, 6),
            Work::CropIntensification => price(750, 500, 0, 0, 0, 6),
            Work::Reforestation => price(750, 0, 0, 500, 0, 12),
            Work::Quarry => price(500, 0, 700, 0, 200, 6),
            Work::ManufacturesFactory => price(750, 1000, 0, 0, 0, 6),
            Work::FishingFactory => price(500, 500, 0, 0, 0, 6),
            Work::Shipyard => price(1000, 800, 0, 0, 0, 6),
            Work::City => price(1500, 1500, 0, 0, 0, 12),
            Work::Enlargement => price(500, 800, 0, 0, 0, 6),
            Work::Colony => Price {
                pob: super::colonies::SETTLERS,
                ..Work::City.price()
            },
            Work::NavalBase => price(1000, 500, 0, 0, 0, 6),
            // "PIE ó MAD" (either): paid like "y/o", stone before wood.
            Work::Port => price(1000, 1000, 0, 0, 0, 6),
        }
    }
}

/// The works of one country's land: finished ones (they stay with the land) and the months left on
/// those its home nation has under way (0: none); a colony in it (`colonies.rs`) is its
/// `colonist`'s, under way or built; the wood in its constructions (`wood.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Works {
    pub built: [u8; TYPES],
    pub left: [u8; TYPES],
    pub colonist: Option<CountryId>,
    pub wood: super::wood::Wood,
    /// Lots of 100 slaves on each work under way (`slaves.rs`).
    pub slaves: [u8; TYPES],
}

impl Works {
    pub fn built(&self, w: Work) -> u8 {
        self.built[w.index()]
    }
}

/// MAN a new city (and an enlargement) yields per collection by the builder's culture (L3826,
/// L3834); barbarians build none.
pub fn city_man(culture: Culture, enlargement: bool) -> i64 {
    match (culture, enlargement) {
        (Culture::Civilized, false) => 75,
        (Culture::Mixed, false) => 50,
        (Culture::Civilized, true) => 65,
        (Culture::Mixed, true) => 45,
        (Culture::Barbarian, _) => 0,
    }
}

/// Stone and wood each a policy that builds works keeps from the black market's buyers: a new
/// city's, the dearest work.
pub const MATERIALS_KEPT: i64 = 1500;

/// Fishing output multiplier of a fishing factory (L1148).
pub const FISHING_FACTORY: f64 = 1.3;
/// MAN a manufactures factory yields per collection (L853, the digest's per-collection proposal).
pub const FACTORY_MAN: i64 = 175;
/// New city and enlargement yields of POB and DEN per collection (L3826, L3834).
pub const CITY_POB_DEN: i64 = 150;
pub const ENLARGEMENT_POB_DEN: i64 = 125;

/// What land `l`'s finished works add to its collection: +10% of its base production of MET
/// (mining), COM (crops), MAD (each reforestation) and PIE (quarry, option quarry_output), 175 MAN
/// a manufactures factory, and the new cities' and enlargements' POB, DEN and MAN (by the land's
/// own culture: the builder's, or the conquered country's for a city a conqueror holds).
pub fn output(g: &Game, l: usize, w: &Works) -> [i64; R] {
    let base = &g.scenario.production[l];
    let mut out = [0i64; R];
    let tenth = |r: usize, n: u8| base[r] as i64 * n as i64 / 10;
    out[MET] += tenth(MET, w.built(Work::MiningFactory));
    out[COM] += tenth(COM, w.built(Work::CropIntensification));
    out[MAD] += tenth(MAD, w.built(Work::Reforestation));
    if g.quarry_tenth {
        out[PIE] += tenth(PIE, w.built(Work::Quarry));
    }
    out[MAN] += FACTORY_MAN * w.built(Work::ManufacturesFactory) as i64;
    let culture = g.culture[l];
    let cities = w.built(Work::City) as i64;
    let enlarged = w.built(Work::Enlargement) as i64;
    out[POB] += CITY_POB_DEN * cities + ENLARGEMENT_POB_DEN * enlarged;
    out[DEN] += CITY_POB_DEN * cities + ENLARGEMENT_POB_DEN * enlarged;
    out[MAN] += city_man(culture, false) * cities + city_man(culture, true) * enlarged;
    out
}

/// `lost` of the finished works of type index `i` of a land fall (collapsed for want of wood,
/// `wood.rs`, or destroyed, `destruction.rs`): their share of the wood in them goes with them, and a
/// colony with none left standing or under way is its colonist's no more.
pub fn lose_built(works: &mut Works, i: usize, lost: u8) {
    let count = works.built[i] as i64;
    debug_assert!(lost as i64 <= count);
    works.wood.works[i] = works.wood.works[i] * (count - lost as i64) / count.max(1);
    works.built[i] -= lost;
    if i == Work::Colony.index() && works.built[i] == 0 && works.left[i] == 0 {
        works.colonist = None;
    }
}

/// The enlargements of land `l` beyond its cities (printed and new) fall with the new city they
/// enlarged; how many fell.
pub fn drop_orphan_enlargements(g: &Game, works: &mut Works, l: usize) -> u8 {
    let most = g.scenario.countries[l].cities.len() as u8 + works.built(Work::City);
    let n = works.built(Work::Enlargement);
    if n <= most {
        return 0;
    }
    lose_built(works, Work::Enlargement.index(), n - most);
    n - most
}

/// How many works of type `w` country `c` may ever have at home (None: no limit), and whether
/// its culture may build it at all.
pub fn allowed(g: &Game, c: CountryId, w: Work, built: &Works) -> bool {
    let culture = g.culture[c as usize];
    if culture == Culture::Barbarian {
        return false; // L4108
    }
    let cities = g.scenario.countries[c as usize].cities.len() as u8;
    let coastal = g.scenario.nodes[c as usize].seas != 0;
    // Every coastal city is a port (L3850); a built port stands where the home has none.
    let ports = if coastal {
        cities.saturating_add(built.built(Work::Port))
    } else {
        0
    };
    let most = match w {
        Work::ManufacturesFactory if culture != Culture::Civilized => 0,
        Work::ManufacturesFactory => cities,
        Work::Reforestation if g.hex[c as usize] == "BOSQUE" => 2,
        Work::Reforestation => 1,
        Work::FishingFactory | Work::Shipyard if ports == 0 => 0,
        Work::Colony if culture != Culture::Civilized => 0, // L3864
        Work::Colony => u8::MAX,
        Work::NavalBase => ports.min(MAX_NAVAL_BASES),
        Work::Port if coastal && cities == 0 => 1,
        Work::Port => 0,
        Work::Quarry if !g.quarry_tenth => 0, // no stated output: nothing to build it for
        Work::City => u8::MAX,
        Work::Enlargement => cities.saturating_add(built.built(Work::City)),
        _ => 1,
    };
    built.built(w) < most
}

/// Whether `c` can pay for `w` keeping `keep` DEN: stone, wood and metal from its stocks.
pub fn affordable(st: &State, c: CountryId, w: Work, keep: i64) -> bool {
    affordable_from(&st.nations[c as usize].stock, w, keep)
}

/// Naval bases a country may have (L2378).
pub const MAX_NAVAL_BASES: u8 = 2;

/// Whether stocks `s` pay for `w` keeping `keep` DEN.
fn affordable_from(s: &[i64; R], w: Work, keep: i64) -> bool {
    let p = w.price();
    s[POB] >= p.pob
        && s[DEN] - keep >= p.den
        && s[PIE] >= p.pie
        && s[MAD] >= p.mad
        && s[MET] >= p.met
        && (s[PIE] - p.pie) + (s[MAD] - p.mad) >= p.pie_or_mad
}

/// What [`start`] takes from stocks `s` for `w` (stone before wood where either will do), on a copy.
fn pay(s: &mut [i64; R], w: Work) {
    let p = w.price();
    let mut take = |r: usize, amount: i64| {
        let taken = amount.clamp(0, s[r]);
        s[r] -= taken;
        taken
    };
    take(POB, p.pob);
    take(DEN, p.den);
    take(PIE, p.pie);
    take(MAD, p.mad);
    take(MET, p.met);
    let from_pie = take(PIE, p.pie_or_mad);
    take(MAD, p.pie_or_mad - from_pie);
}

/// Pays for `w` (stone before wood where either will do) and puts it under way at home.
pub fn start(st: &mut State, c: CountryId, w: Work) {
    start_at(st, c, c, w);
}

/// `c` pays for `w` and puts it under way in `land` (its home, or a colony's host).
pub fn start_at(st: &mut State, c: CountryId, land: CountryId, w: Work) {
    let p = w.price();
    st.spend(c, POB, p.pob);
    st.spend(c, DEN, p.den);
    st.spend(c, PIE, p.pie);
    st.spend(c, MAD, p.mad);
    st.spend(c, MET, p.met);
    let from_pie = st.spend(c, PIE, p.pie_or_mad);
    let from_mad = st.spend(c, MAD, p.pie_or_mad - from_pie);
    debug_assert_eq!(
        from_pie + from_mad,
        p.pie_or_mad,
        "a work must be affordable"
    );
    let works = &mut st.works[land as usize];
    works.left[w.index()] = p.months;
    works.wood.building[w.index()] = p.mad + from_mad;
    if w == Work::Colony {
        works.colonist = Some(c);
    }
    st.counts.works_started += 1;
    st.counts.works_den += p.den as f64;
}

/// DEN worth of one unit of resource `r` at the black market's buying prices (POB: none).
fn buying_price(r: usize) -> f64 {
    if r == DEN {
        1.0
    } else {
        price_per_ten(r, false) as f64 / 10.0
    }
}

/// A work's cost in DEN: its DEN and its materials at the buying prices (stone for "PIE y/o MAD",
/// the cheaper).
pub fn cost_worth(w: Work) -> f64 {
    let p = w.price();
    p.den as f64
        + (p.pie + p.pie_or_mad) as f64 * buying_price(PIE)
        + p.mad as f64 * buying_price(MAD)
        + p.met as f64 * buying_price(MET)
}

/// DEN worth per game turn (half a collection period) of what `w` would add to `c`'s home at
/// the black market's buying prices (POB has no price and counts nothing); a fishing factory is
/// worth 30% of its fishing fleets' expected catch; a shipyard yields nothing to price.
pub fn worth_per_turn(g: &Game, st: &State, c: CountryId, plan: &Scripted, w: Work) -> f64 {
    let mut one = Works::default();
    let per_collection: f64 = match w {
        Work::FishingFactory => {
            let fleets = st.nations[c as usize].sea.fishing;
            let Some(sea) = super::sea_trade::fishing_sea(&g.scenario, c) else {
                return 0.0;
            };
            let (com, den) = super::sea_trade::fishing_yield(sea);
            let month = if plan.fish_for_den >= 0.5 {
                den as f64
            } else {
                com as f64 * buying_price(COM)
            };
            // Four months a collection period, five in six of them at sea.
            return (FISHING_FACTORY - 1.0) * fleets * month * 4.0 * 5.0 / 6.0 / 2.0;
        }
        Work::Shipyard | Work::NavalBase | Work::Port => return 0.0,
        _ => {
            // A colony yields as a city (L3862), to its builder.
            let w = if w == Work::Colony { Work::City } else { w };
            one.built[w.index()] = 1;
            let out = output(g, c as usize, &one);
            (0..R).map(|r| out[r] as f64 * buying_price(r)).sum()
        }
    };
    per_collection / 2.0
}

/// 7 CONSTRUCCIONES after the walls: each country at home whose policy gives works a share of its
/// spare DEN starts the works [`planned`] for it.
pub fn constructions(g: &Game, st: &mut State, plans: &[Scripted]) {
    for c in 0..st.nations.len() as CountryId {
        let (chosen, n) = planned(g, st, c, &plans[c as usize]);
        for &w in &chosen[..n] {
            if w != Work::Colony {
                start(st, c, w);
                super::slaves::on_work(g, st, c, &plans[c as usize], w);
            } else if let Some(host) = colonies::host(g, st, c, &plans[c as usize]) {
                start_at(st, c, host, w);
            }
        }
    }
}

/// The works country `c` playing `p` would start now (the first `n` of the array, in order): best
/// payback first, every work it may build, has no work of that type under way, can pay from the
/// policy's share of its spare DEN and its stocks (each start paid before the next is weighed),
/// and whose output pays its cost back (at the black market's buying prices) within the policy's
/// `works_payback` turns and before the game's turn cap, its months of building counted; a
/// shipyard, which yields nothing to price, is built when nothing else is and the policy keeps
/// fleets. None away from home or with no share for works. Reads the state only: the search
/// player asks it whether a works directive would change the turn.
pub fn planned(g: &Game, st: &State, c: CountryId, p: &Scripted) -> ([Work; TYPES], usize) {
    let (chosen, n, _) = planned_and_stock(g, st, c, p);
    (chosen, n)
}

/// [`planned`] and `c`'s stocks once those works are paid for (what the roads, built after the
/// works, may spend).
pub fn planned_and_stock(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
) -> ([Work; TYPES], usize, [i64; R]) {
    let mut chosen = [Work::City; TYPES];
    let mut started = 0;
    let stock = walk(g, st, c, p, |w, paid, _, _| {
        if paid {
            chosen[started] = w;
            started += 1;
        }
    });
    (chosen, started, stock)
}

/// The materials `c` lacks for the best-paying work its policy wants now whose DEN (and settlers)
/// it can pay from its works' share but whose stone, wood or metal its stocks cannot (after the
/// better works it can pay for), and the share's DEN left once that work's own DEN is counted:
/// what it may buy at the black market (`trade.rs`) before the constructions phase. Stone stands
/// for "PIE y/o MAD", the cheaper there.
pub fn materials_wanted(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
) -> Option<(Work, [i64; R], i64)> {
    let mut wanted = None;
    walk(g, st, c, p, |w, paid, stock, budget| {
        if paid || wanted.is_some() {
            return;
        }
        let price = w.price();
        let mut lack = [0i64; R];
        lack[PIE] = (price.pie - stock[PIE]).max(0);
        lack[MAD] = (price.mad - stock[MAD]).max(0);
        lack[MET] = (price.met - stock[MET]).max(0);
        let spare_pie_or_mad =
            (stock[PIE] + lack[PIE] - price.pie) + (stock[MAD] + lack[MAD] - price.mad);
        lack[PIE] += (price.pie_or_mad - spare_pie_or_mad).max(0);
        wanted = Some((w, lack, budget - price.den));
    });
    wanted
}

/// Walks the works `c` playing `p` would start now, best payback first (see [`planned`]), handing
/// each whose DEN the budget pays to `visit` with whether the stocks pay for it too, the stocks
/// and the budget before it; those are paid for on a copy of the stocks (the next ones see what
/// is left). Returns the stocks left.
fn walk(
    g: &Game,
    st: &State,
    c: CountryId,
    p: &Scripted,
    mut visit: impl FnMut(Work, bool, &[i64; R], i64),
) -> [i64; R] {
    let mut stock = st.nations[c as usize].stock;
    if p.works_share <= 0.0 || st.lands[c as usize].owner != c {
        return stock;
    }
    // The wood its policy's convoys still want is not the works' (an army cannot march without),
    // nor is the wood it cannot keep restoring every January (`wood.rs`).
    stock[MAD] -= super::supply::kept(st, c, p, MAD).min(stock[MAD]);
    stock[MAD] = stock[MAD].min(super::wood::spare_for_building(
        g,
        st,
        c,
        p.market_buy > 0.0,
    ));
    let (ranked, n) = ranked(g, st, c, p);
    let keep = economy::den_to_keep(g, st, c, p);
    let spare = (stock[DEN] - keep).max(0);
    let mut budget = (spare as f64 * p.works_share.min(1.0)) as i64;
    for &(_, w) in &ranked[..n] {
        let price = w.price();
        if price.den > budget || stock[DEN] - keep < price.den || stock[POB] < price.pob {
            continue;
        }
        // Last, as it is the dearest test: somewhere to found it.
        if w == Work::Colony && colonies::host(g, st, c, p).is_none() {
            continue;
        }
        let paid = affordable_from(&stock, w, keep);
        visit(w, paid, &stock, budget);
        if paid {
            pay(&mut stock, w);
            budget -= price.den;
        }
    }
    stock
}

/// The works `c` may start now that pay back within its policy's `works_payback` turns and before
/// the turn cap, best payback first (the `n` first of the array).
fn ranked(g: &Game, st: &State, c: CountryId, p: &Scripted) -> ([(f64, Work); TYPES], usize) {
    let turns_left = g.turn_cap.saturating_sub(st.turn) as f64;
    let works = st.works[c as usize];
    let mut ranked = [(f64::INFINITY, Work::City); TYPES];
    let mut n = 0;
    for w in WORKS {
        if works.left[w.index()] > 0 || !allowed(g, c, w, &works) {
            continue;
        }
        let building = (w.price().months as f64 / 2.0).ceil();
        let serves_fleets = match w {
            Work::Shipyard | Work::Port => Some(keeps_fleets(p)),
            Work::NavalBase => Some(works.built(w) < p.naval_bases && naval_cap_binds(g, st, c, p)),
            _ => None,
        };
        let payback = if let Some(wanted) = serves_fleets {
            // It serves only fleets ordered after it is finished (one is built in 2 turns).
            if !wanted || building + SHIPYARD_USE_TURNS > turns_left {
                continue;
            }
            f64::MAX // last
        } else {
            let worth = worth_per_turn(g, st, c, p, w);
            if worth <= 0.0 {
                continue;
            }
            let turns = cost_worth(w) / worth;
            if turns > p.works_payback || turns + building > turns_left {
                continue;
            }
            turns
        };
        ranked[n] = (payback, w);
        n += 1;
    }
    ranked[..n].sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.index().cmp(&b.1.index())));
    (ranked, n)
}

/// Turns a shipyard must stand before the turn cap to serve at least a few fleet orders.
const SHIPYARD_USE_TURNS: f64 = 6.0;

/// Whether the naval factors `c`'s policy wants (its warfleets per city, transports and pirate
/// fleets) exceed what its ports and naval bases may build at once (L2691): another base doubles
/// one more port's cap.
fn naval_cap_binds(g: &Game, st: &State, c: CountryId, p: &Scripted) -> bool {
    let Some(fleet) = g.scenario.fleet else {
        return false;
    };
    let cities = g.scenario.countries[c as usize].cities.len() as f64;
    let wanted = (p.warfleets_per_city * cities + p.pirate_fleets as f64) * fleet.ram as f64
        + p.transports as f64 * super::fleets::transport().ram as f64;
    wanted > super::fleets::port_cap(g, st, c)
}

fn keeps_fleets(p: &Scripted) -> bool {
    p.warfleets_per_city > 0.0
        || p.transports > 0
        || p.pirate_fleets > 0
        || p.merchant_fleets > 0
        || p.fishing_fleets > 0
}

/// One month of building at every home: works of a nation that lost its home are lost; none
/// advances while its capital is besieged (L3676); a finished one joins its land's works, a new
/// city and an enlargement with their §4.19 rows.
pub fn month(g: &Game, st: &mut State, besieged: &[bool]) {
    for c in 0..st.nations.len() {
        if st.works[c].left == [0; TYPES] {
            continue;
        }
        if st.lands[c].owner != c as CountryId {
            // A colony under way falls with its host like the host's own works.
            let works = &mut st.works[c];
            works.left = [0; TYPES];
            works.wood.building = [0; TYPES];
            works.slaves = [0; TYPES];
            if works.built(Work::Colony) == 0 {
                works.colonist = None;
            }
            continue;
        }
        if besieged[c] {
            continue;
        }
        for w in WORKS {
            let i = w.index();
            let left = st.works[c].left[i];
            if left == 0 {
                continue;
            }
            st.works[c].left[i] = left - 1;
            if left == 1 {
                finish(g, st, c as CountryId, w);
            }
        }
    }
}

/// Work `w` of `c` is finished: it counts from the next collection on.
pub fn finish(g: &Game, st: &mut State, c: CountryId, w: Work) {
    let works = &mut st.works[c as usize];
    works.built[w.index()] += 1;
    let wood = &mut works.wood;
    wood.works[w.index()] += std::mem::take(&mut wood.building[w.index()]);
    st.counts.works_finished += 1;
    super::slaves::work_ended(st, c, w);
    let culture = g.culture[c as usize];
    match w {
        Work::City => st.apply(c, pv::WORKS, pv::CITY_CONSTRUCTION, culture),
        Work::Enlargement => st.apply(c, pv::WORKS, pv::CITY_ENLARGEMENT, culture),
        Work::NavalBase => st.apply(c, pv::WORKS, pv::NAVAL_BASE_CONSTRUCTION, culture),
        Work::Port => st.apply(c, pv::WORKS, pv::PER_PORT_BUILT, culture),
        Work::MiningFactory
        | Work::CropIntensification
        | Work::Reforestation
        | Work::Quarry
        | Work::ManufacturesFactory
        | Work::FishingFactory
        | Work::Shipyard => st.apply(c, pv::WORKS, pv::IMPROVEMENT_BUILT, culture),
        // `c` is the host here: the builder scores the colony, the host its allowing it.
        Work::Colony => {
            if let Some(builder) = st.works[c as usize].colonist {
                let b = g.culture[builder as usize];
                st.apply(builder, pv::WORKS, pv::COLONY_CONSTRUCTION, b);
                st.apply(c, pv::WORKS, pv::ALLOWING_A_COLONY, culture);
            }
        }
    }
}

/// Months a fleet of type `code` ordered by `c` is built sooner: its shipyard's 1 for FQ, 2 for
/// the others (L1756), while it holds its home.
pub fn shipyard_months(st: &State, c: CountryId, code: &str) -> u32 {
    if st.lands[c as usize].owner != c || st.works[c as usize].built(Work::Shipyard) == 0 {
        return 0;
    }
    if code == "FQ" {
        1
    } else {
        2
    }
}

/// The fishing output multiplier of `c`'s fishing fleets: 1.3 with a fishing factory at its home
/// port while it holds it (L1148).
pub fn fishing_multiplier(st: &State, c: CountryId) -> f64 {
    if st.lands[c as usize].owner == c && st.works[c as usize].built(Work::FishingFactory) > 0 {
        FISHING_FACTORY
    } else {
        1.0
    }
}

/// New cities built in the lands `c` holds (the §1.4 cities proxy counts them).
pub fn new_cities(st: &State, c: CountryId) -> usize {
    st.lands
        .iter()
        .zip(&st.works)
        .filter(|(l, _)| l.owner == c)
        .map(|(_, w)| w.built(Work::City) as usize)
        .sum()
}
