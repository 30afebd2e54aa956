//! Sack and pillage (digest §4.17, rules §29 L4400-L4452; sacred cities L5287-L5291; the §4.19 rows
//! L4276, L4278, L4280, L4334).
//!
//! Sack happens only at the moment of conquest, by the conqueror's choice (its policy's
//! `sack_den_per_pv`): each city of the conquered country is sacked if what it yields is worth at
//! least that many DEN per PV the sack costs the sacker (its §4.19 rows, and the sacred cities' -35
//! PV if it is one of their nations), and so is the country. A sacked country yields twice one
//! collection's production (POB 0) and then nothing to anybody for 12 months, and its sacker raises
//! troops from half its POB for a year; a sacked city yields its treasure the first time it is
//! sacked (the printed list), else twice a city's DEN production. The defender's stored supplies go
//! to the conqueror with the country whether or not it is sacked (its storage hexes, L5651).
//!
//! Pillage is a raid (a march that does not besiege): an army of at least 10 units that reaches an
//! enemy country and wins its field fight (or meets none) spends the next month there, takes 1% of
//! the country's production of one collection of every resource but POB, rounded UP (the
//! rulebook's only rounding up), and destroys another 1% (the holder's next collection yields 1%
//! less); then it goes home.

use super::destruction::Ruin;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CityId, CountryId, DEN, POB};
use super::state::{State, Stock, R};
use super::Game;
use crate::game::GameLog;
use crate::game_log;

/// Months a sacked country yields nothing to anybody (L4404).
pub const SACKED_MONTHS: u32 = 12;
/// Months its sacker raises troops from half its POB (L4404: a year).
pub const HALF_POB_MONTHS: u32 = 12;
/// Fewest military units a pillage needs (L4443).
pub const PILLAGE_MIN_UNITS: f64 = 10.0;

/// What sacking country `t` yields: twice one collection's production, POB 0 (L4404).
pub fn country_loot(g: &Game, t: CountryId) -> Stock {
    let mut out = [0i64; R];
    for (r, v) in out.iter_mut().enumerate() {
        if r != POB {
            *v = 2 * g.scenario.production[t as usize][r] as i64;
        }
    }
    out
}

/// DEN that sacking city `city` yields now, and whether that is its treasure: the printed treasure
/// the first time it is sacked and the DEN added to it since its last sack (`treasures.rs`),
/// else twice a city's DEN production (L4406-L4434).
pub fn city_loot(g: &Game, st: &State, city: CityId) -> (i64, bool) {
    let printed = if st.city_sacked[city as usize] {
        0
    } else {
        g.treasure[city as usize] as i64
    };
    let treasure = printed + st.treasure_added[city as usize];
    if treasure > 0 {
        (treasure, true)
    } else {
        (2 * g.scenario.city_yield[DEN] as i64, false)
    }
}

/// 1% of each resource of one collection's production of country `t`, rounded UP (L4441), POB
/// apart: what a pillage takes, and as much again what it destroys.
pub fn pillage_share(g: &Game, t: CountryId) -> Stock {
    let mut out = [0i64; R];
    for (r, v) in out.iter_mut().enumerate() {
        if r != POB {
            *v = (g.scenario.production[t as usize][r] as i64 + 99) / 100;
        }
    }
    out
}

/// DEN worth of a stock at the black market's sale value.
pub fn worth(g: &Game, stock: &Stock) -> f64 {
    (0..R).map(|r| stock[r] as f64 * g.sale[r]).sum()
}

/// PV sacker `c` loses by sacking city `city` (negative: it gains): the sacking-cities row, the
/// treasure row when it takes the treasure, and the sacred city's loss if `c` is one of its
/// nations.
pub fn city_pv_cost(g: &Game, c: CountryId, city: CityId, treasure: bool) -> i32 {
    let culture = g.culture[c as usize];
    let mut pv = pv::SACKING_CITIES.pv(culture);
    if treasure {
        pv += pv::STEALING_TREASURE.pv(culture);
    }
    for s in &g.scenario.special.sacred {
        if s.city == city && s.losers.contains(c) {
            pv += s.pv;
        }
    }
    -pv
}

/// Whether a policy that accepts `den_per_pv` DEN of loot per PV lost takes loot worth `worth`
/// at a cost of `pv_lost` PV (a sack that gains PV is always taken when it yields anything).
pub fn worth_it(worth: f64, pv_lost: i32, den_per_pv: f64) -> bool {
    if pv_lost <= 0 {
        worth > 0.0 || pv_lost < 0
    } else {
        worth >= den_per_pv * pv_lost as f64
    }
}

/// The conqueror `c` of country `t` sacks its cities and the country as its policy finds worth it
/// (called at the moment of conquest, after the land changed hands).
pub fn at_conquest(
    g: &Game,
    st: &mut State,
    c: CountryId,
    t: CountryId,
    p: &Scripted,
    month: u32,
    log: &mut dyn GameLog,
) {
    let culture = g.culture[c as usize];
    for city in g.scenario.countries[t as usize].cities.clone() {
        // A ruin has nothing left to take (destruction.rs).
        if st.city_ruin[city as usize] != Ruin::Standing {
            continue;
        }
        let (den, treasure) = city_loot(g, st, city);
        if !worth_it(
            den as f64,
            city_pv_cost(g, c, city, treasure),
            p.sack_den_per_pv,
        ) {
            continue;
        }
        sack_city(g, st, c, city, den, treasure);
        game_log!(
            log,
            "month {month}: {} sacks {} ({den} DEN{})",
            g.scenario.countries[c as usize].name,
            g.scenario.cities[city as usize].name,
            if treasure { ", its treasure" } else { "" }
        );
    }
    let loot = country_loot(g, t);
    let pv_lost = -pv::SACKING_COUNTRIES.pv(culture);
    if worth_it(worth(g, &loot), pv_lost, p.sack_den_per_pv) {
        sack_country(g, st, c, t, month);
        game_log!(
            log,
            "month {month}: {} sacks {} (twice a collection's production; nothing from it for {SACKED_MONTHS} months)",
            g.scenario.countries[c as usize].name,
            g.scenario.countries[t as usize].name
        );
    }
}

/// `c` sacks city `city` for `den` DEN (`treasure`: its treasure): the rows, the sacred cities'
/// PV for every nation they name, and the counters.
pub fn sack_city(g: &Game, st: &mut State, c: CountryId, city: CityId, den: i64, treasure: bool) {
    let culture = g.culture[c as usize];
    st.gain(c, DEN, den);
    st.apply(c, pv::SACK, pv::SACKING_CITIES, culture);
    if treasure {
        st.apply(c, pv::SACK, pv::STEALING_TREASURE, culture);
        st.counts.treasures_taken += 1;
    }
    st.city_sacked[city as usize] = true;
    st.treasure_added[city as usize] = 0;
    for s in &g.scenario.special.sacred {
        if s.city != city {
            continue;
        }
        for n in 0..st.nations.len() as CountryId {
            if s.losers.contains(n) {
                st.add_pv(n, pv::SACK, s.pv);
            }
        }
        st.counts.sacred_sacked += 1;
    }
    st.counts.cities_sacked += 1;
    st.counts.sack_den += den as f64;
}

/// `c` sacks country `t` in game month `month`: twice a collection's production (POB 0), nothing
/// from it for 12 months, half the sacker's POB for troops for a year, the row.
pub fn sack_country(g: &Game, st: &mut State, c: CountryId, t: CountryId, month: u32) {
    let loot = country_loot(g, t);
    for (r, &v) in loot.iter().enumerate() {
        if v > 0 {
            st.gain(c, r, v);
        }
    }
    st.apply(c, pv::SACK, pv::SACKING_COUNTRIES, g.culture[c as usize]);
    st.lands[t as usize].sacked_until = month + SACKED_MONTHS;
    st.nations[c as usize].half_pob_until = month + HALF_POB_MONTHS;
    st.counts.countries_sacked += 1;
    st.counts.sack_den += worth(g, &loot);
}

/// Whether country `t` yields at a collection in game month `month` (not within 12 months of its
/// sack).
pub fn yields(st: &State, t: CountryId, month: u32) -> bool {
    month > st.lands[t as usize].sacked_until
}

/// Whether `c` raises troops from half its POB in game month `month` (a year after its sack).
pub fn half_pob(st: &State, c: CountryId, month: u32) -> bool {
    month <= st.nations[c as usize].half_pob_until
}

/// `c`'s army pillages country `t` (a month spent there): it takes 1% of the production rounded
/// up, the holder's next collection loses another 1%, and the row.
pub fn pillage(
    g: &Game,
    st: &mut State,
    c: CountryId,
    t: CountryId,
    month: u32,
    log: &mut dyn GameLog,
) {
    let share = pillage_share(g, t);
    pillage_effects(g, st, c, t, &share);
    st.counts.pillages += 1;
    st.counts.pillage_den += worth(g, &share);
    game_log!(
        log,
        "month {month}: {} pillages {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name
    );
}

/// What every pillage does, by land or by sea (§3.9): `c` gains `gained` (the 1% taken, or the
/// share of it that reaches `c`), the holder's next collection of `t` loses another 1%, and `c`
/// takes the pillage row.
pub fn pillage_effects(g: &Game, st: &mut State, c: CountryId, t: CountryId, gained: &Stock) {
    for (r, &v) in gained.iter().enumerate() {
        if v > 0 {
            st.gain(c, r, v);
        }
    }
    let pending = &mut st.lands[t as usize].pending;
    for r in 0..R {
        if r != POB {
            pending.mult[r] = (pending.mult[r] - 0.01).max(0.0);
        }
    }
    st.apply(c, pv::SACK, pv::PILLAGE, g.culture[c as usize]);
}

/// Whether `c` would raid country `t` rather than leave it alone: its field army holds at least
/// 10 units and the loot is worth its policy's DEN per PV the pillage row costs.
pub fn wants_raid(g: &Game, st: &State, c: CountryId, t: CountryId, p: &Scripted) -> bool {
    let n = &st.nations[c as usize];
    let units: f64 = (0..n.field.len())
        .map(|k| n.field[k] + n.garrison[k])
        .sum::<f64>()
        * (1.0 - p.garrison.clamp(0.0, 1.0));
    if units < PILLAGE_MIN_UNITS {
        return false;
    }
    let pv_lost = -pv::PILLAGE.pv(g.culture[c as usize]);
    worth_it(
        worth(g, &pillage_share(g, t)),
        pv_lost,
        p.pillage_den_per_pv,
    )
}
