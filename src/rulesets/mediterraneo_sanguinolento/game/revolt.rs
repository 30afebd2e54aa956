//! Rebellion indices per land and revolts (digest §4.16, rules §46 L5617-L5633; the §4.19 rows
//! L4268-L4274 and L4364; A37, A66).
//!
//! Every country node keeps its own index: its own country's (`Nation::idr`, 1,000 at the start)
//! while that country holds it, and the land's (`Land::idr`) while another holds it as a
//! province. A conquered country carries its index into the province, capped at the normal
//! 1,000 (L5631: above-normal indices revert to normal when invaded, below-normal ones stay), so
//! the invasion months it suffered stay with it. That is the node's rural zone: each printed city
//! keeps its own 800 and revolts on its own (`city_revolt.rs`).
//!
//! Which index a row moves: the acting nation's home index for what it does (the table's rows,
//! as before); the rows a province suffers (invasion months, its militia called and mobilized)
//! move the province's own index under option `province_index` = "suffered" (default), or the
//! holder's home index under "holder".
//!
//! Just before each collection (L5633) every index at 0 or below revolts: the holder scores the
//! rebellion row of where it broke out (main country or province, L4268-L4270), and as many
//! militia as possible rise and attack the holder's troops there (L5625): IL-ID units, POB / 200
//! of the land's last collection (A37; option `revolt_rebels` = "militia": the militia a holder
//! could call there, `militia::size`), against the home garrison or the province's occupation
//! troops, one field battle through the battle code. The holder wins: the suppressing row
//! (L4364), the index stays at 250 and the land yields 75% POB for a year (three collections,
//! L5625). The rebels win at home: the same index and year, no suppressing row. The rebels win in
//! a province: they free it for its own country (L5625 "to free the nation": the holder's
//! losing-territory and losing-a-city rows, its troops there lost, the freed country's index
//! normal again), or under option `revolt_won` = "held" the holder keeps it disordered (index
//! 250, a year at 75% POB).
//!
//! The policy keeps its provinces quiet with gifts to their population (`province_gift_idr`:
//! 600 DEN lots, the table's gift row, to the province whose lowest zone, rural or city, is the
//! lowest it holds while below that, within the period's gift cap shared with the home's gifts,
//! from the DEN above reserve and wages; under option `city_index_rows` = "rural-only" the lot
//! goes to that zone alone, else to the node and so to every zone of it).

use super::battles::{self, has_troops, Side};
use super::city_revolt::{self, CITY_START_IDR};
use super::economy;
use super::leaders::{self, Lead};
use super::military;
use super::policy::Scripted;
use super::pv::{self, Row};
use super::scenario::{CountryId, DEN};
use super::state::{Land, State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::options::Options;

/// The index a zone keeps after a revolt (L5625).
pub const AFTER_REVOLT: i32 = 250;
/// Collections at 75% POB after a revolt (a year).
pub const REVOLT_COLLECTIONS: u8 = 3;
/// POB per rebel unit under A37's reading (an IL's 200 POB).
pub const POB_PER_REBEL: i64 = 200;

/// The rebellion rule's options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// Rebels number the militia the holder could call there (option revolt_rebels =
    /// "militia"), not A37's POB / 200.
    pub militia_rebels: bool,
    /// A province whose rebels win stays with its holder (option revolt_won = "held").
    pub held: bool,
    /// Rows a province suffers move the holder's home index (option province_index = "holder").
    pub holder_rows: bool,
    /// Taxes and extra levies move the holder's home index alone (option province_burdens =
    /// "home-only", `burdens.rs`), not every land they reach.
    pub home_burdens: bool,
    /// Every row that moves a node's index moves its cities' too (option city_index_rows =
    /// "every-zone"; "rural-only": only the rows that name a city, `city_revolt.rs`).
    pub every_zone: bool,
    /// A capital's rebels winning in a province free it (option city_revolt_won =
    /// "capital-frees"; "disorder": every won city revolt only disorders the city).
    pub capital_frees: bool,
}

impl Rules {
    pub fn new(options: &Options) -> Rules {
        Rules {
            militia_rebels: options.choice("revolt_rebels") == "militia",
            held: options.choice("revolt_won") == "held",
            holder_rows: options.choice("province_index") == "holder",
            home_burdens: options.choice("province_burdens") == "home-only",
            every_zone: options.choice("city_index_rows") == "every-zone",
            capital_frees: options.choice("city_revolt_won") == "capital-frees",
        }
    }
}

/// The rebellion index of land `l`: its own country's while it holds it, else the province's.
pub fn index(st: &State, l: CountryId) -> i32 {
    if st.lands[l as usize].owner == l {
        st.nations[l as usize].idr
    } else {
        st.lands[l as usize].idr
    }
}

pub fn index_mut(st: &mut State, l: CountryId) -> &mut i32 {
    if st.lands[l as usize].owner == l {
        &mut st.nations[l as usize].idr
    } else {
        &mut st.lands[l as usize].idr
    }
}

/// The index the rows suffered in land `l` move (option `province_index`).
pub fn suffered_index(g: &Game, st: &State, l: CountryId) -> i32 {
    if g.revolt.holder_rows {
        st.nations[st.lands[l as usize].owner as usize].idr
    } else {
        index(st, l)
    }
}

/// Row `row` suffered in land `l`: its PV to the holder (its culture's column), its IDR to the
/// index option `province_index` names.
pub fn suffered(g: &Game, st: &mut State, l: CountryId, source: usize, row: Row) {
    let o = st.lands[l as usize].owner;
    let culture = g.culture[o as usize];
    st.add_pv(o, source, row.pv(culture));
    add_suffered(g, st, l, row.idr(culture));
}

/// `idr` points on the index rows suffered in land `l` move.
pub fn add_suffered(g: &Game, st: &mut State, l: CountryId, idr: i32) {
    if g.revolt.holder_rows {
        let o = st.lands[l as usize].owner;
        st.nations[o as usize].idr += idr;
    } else {
        *index_mut(st, l) += idr;
    }
}

/// The index land `t` carries to a conqueror: its own, capped at the normal (L5631).
pub fn carried(st: &State, t: CountryId) -> i32 {
    index(st, t).min(super::START_IDR)
}

/// Rebel units rising in land `l` (A37: POB / 200 of its last collection; option revolt_rebels).
pub fn rebels(g: &Game, st: &State, l: CountryId) -> f64 {
    if g.revolt.militia_rebels {
        super::militia::size(g, st, l)
    } else {
        (st.lands[l as usize].pob_yield.max(0) / POB_PER_REBEL) as f64
    }
}

/// Indices are counted just before each collection (L5633): every land at 0 or below revolts,
/// then every printed city (`city_revolt::check`). The count is taken once: the rows of one
/// revolt do not start another in the same count, nor reach the cities' indices.
pub fn check(g: &Game, st: &mut State, month: u32, dice: &mut Dice, log: &mut dyn GameLog) {
    city_revolt::sync(g, st);
    let cities_at_zero = city_revolt::at_zero(g, st);
    let mut at_zero = [false; 256];
    for l in 0..st.lands.len() {
        at_zero[l] = index(st, l as CountryId) <= 0;
    }
    for l in 0..st.lands.len() as CountryId {
        if !at_zero[l as usize] {
            continue;
        }
        let o = st.lands[l as usize].owner;
        let home = o == l;
        let culture = g.culture[o as usize];
        let row = if home {
            st.counts.revolts += 1;
            pv::REBELLION_MAIN_COUNTRY
        } else {
            st.counts.province_revolts += 1;
            pv::REBELLION_PROVINCE
        };
        st.apply(o, pv::REVOLT, row, culture);
        let held = fight(g, st, l, month, dice);
        if held {
            st.counts.revolts_suppressed += 1;
            st.apply(o, pv::REVOLT, pv::SUPPRESSING_REBELLION, culture);
        }
        if held || home || g.revolt.held {
            *index_mut(st, l) = AFTER_REVOLT;
            st.lands[l as usize].revolt_collections = REVOLT_COLLECTIONS;
        } else {
            free(g, st, l, month);
        }
        game_log!(
            log,
            "month {month}: {} revolts against {}: {}",
            g.scenario.countries[l as usize].name,
            g.scenario.countries[o as usize].name,
            match (held, home || g.revolt.held) {
                (true, _) => "suppressed",
                (false, true) => "the rebels win",
                (false, false) => "freed",
            }
        );
    }
    city_revolt::check(g, st, &cities_at_zero, month, dice, log);
    for l in 0..st.lands.len() as CountryId {
        city_revolt::rural_set(st, l);
    }
}

/// The rebels of land `l` attack its holder's troops there (the home garrison or the occupation
/// troops) in a field battle; true if the holder wins. No rebels: nothing to suppress; no troops:
/// the rebels win. The holder's losses are settled here (the rebels go home either way).
pub fn fight(g: &Game, st: &mut State, l: CountryId, month: u32, dice: &mut Dice) -> bool {
    let rebels = rebels(g, st, l);
    fight_rebels(g, st, l, rebels, month, dice)
}

/// [`fight`] with `rebels` units (a city's share, `city_revolt.rs`).
pub fn fight_rebels(
    g: &Game,
    st: &mut State,
    l: CountryId,
    rebels: f64,
    month: u32,
    dice: &mut Dice,
) -> bool {
    let o = st.lands[l as usize].owner;
    let troops = *military::garrison(st, l);
    if rebels < 1.0 {
        return true;
    }
    if !has_troops(&troops) {
        return false;
    }
    let quiet = Side {
        militia: rebels,
        ..Side::new(l, NO_UNITS, Lead::UNNAMED)
    };
    let holder = Side {
        country: o,
        units: troops,
        militia: 0.0,
        republican: 0.0,
        lead: leaders::defender_lead(g, st, l, month),
        mix: st.nations[o as usize].mix,
        ..quiet
    };
    let winter = military::winter(g, month);
    let weather = military::weather_at(g, st, l);
    let f = battles::field_battle(g, l, winter, weather, [quiet, holder], dice);
    let mpu = g.men_per_unit(o);
    let stack = military::garrison_mut(st, l);
    let mut men = 0.0;
    for k in 0..stack.len() {
        let lost = f.lost[1][k].min(stack[k]);
        stack[k] -= lost;
        men += lost * mpu[k];
    }
    st.ledger.men_lost += men;
    st.counts.revolt_men_lost += men;
    st.nations[o as usize].fought_this_year = true;
    f.winner == Some(1)
}

/// The rebels free province `l` for its own country: the holder's rows for the land and its
/// cities, its troops there lost, a standing militia gone with them, and the freed country's
/// indices normal (1,000 rural, 800 each city).
pub fn free(g: &Game, st: &mut State, l: CountryId, month: u32) {
    let o = st.lands[l as usize].owner;
    military::losing_rows(g, st, o, l);
    let left = std::mem::replace(&mut st.lands[l as usize].garrison, NO_UNITS);
    st.ledger.men_lost += State::men(&left, &g.men_per_unit(o));
    if st.lands[l as usize].militia > 0.0 {
        super::militia::destroyed(g, st, l, month);
    }
    st.lands[l as usize] = Land {
        owner: l,
        taken_month: month,
        collections: 0,
        revolt_collections: 0,
        ..st.lands[l as usize]
    };
    st.nations[l as usize].idr = super::START_IDR;
    for city in g.scenario.countries[l as usize].cities.clone() {
        st.city_idr[city as usize] = CITY_START_IDR;
    }
    city_revolt::rural_set(st, l);
    st.counts.provinces_freed += 1;
}

/// After a collection: each nation's policy gives 600 DEN lots to the population of the
/// province it holds with the lowest index while that is below its `province_gift_idr` (the
/// table's gift row, PV source gifts), within the period's gift cap and from the DEN above its
/// reserve and wages. Before the home's own gifts: a province lost costs more than a gift's PV.
pub fn gifts(g: &Game, st: &mut State, plans: &[Scripted]) {
    let mut holds_provinces = [false; 256];
    for (l, land) in st.lands.iter().enumerate() {
        holds_provinces[land.owner as usize] |= land.owner as usize != l;
    }
    for c in 0..st.nations.len() as CountryId {
        if !holds_provinces[c as usize] {
            continue;
        }
        let p = &plans[c as usize];
        let culture = g.culture[c as usize];
        loop {
            let lowest = (0..st.lands.len() as CountryId)
                .filter(|&l| l != c && st.lands[l as usize].owner == c)
                .map(|l| (l, city_revolt::lowest_zone_of(g, st, l)))
                .min_by_key(|&(_, (_, idr))| idr);
            let Some((l, (zone, idr))) = lowest else {
                break;
            };
            let nation = &st.nations[c as usize];
            if idr >= p.province_gift_idr
                || nation.gifts_this_period + economy::DEN_LOT > economy::GIFT_CAP as i64
                || nation.stock[DEN] - economy::DEN_LOT < economy::den_to_keep(g, st, c, p)
            {
                break;
            }
            st.spend(c, DEN, economy::DEN_LOT);
            st.nations[c as usize].gifts_this_period += economy::DEN_LOT;
            st.add_pv(c, pv::GIFTS, pv::GIFT_600_DEN.pv(culture));
            let gift = pv::GIFT_600_DEN.idr(culture);
            match zone {
                Some(city) if !g.revolt.every_zone => {
                    city_revolt::add_to_city(g, st, l, city, gift)
                }
                _ => st.lands[l as usize].idr += gift,
            }
            st.counts.province_gifts += 1;
        }
    }
}
