//! Major ("pharaonic") constructions (digest §4.7, rules §21 L3790; §4.19 row L4324): pyramids,
//! colosseums and the like, for the civilized only (L4100: not B/C, nor barbarians, L4108). The
//! referee sets their cost and time (§6.1 item 4); the table scores PV = material cost / 100 and
//! rebellion index = material cost / 150 when one is finished.
//!
//! The referee's ruling is three options: `major_construction_materials` (the stone and/or wood
//! of one; 0, the default, is a referee who offers none: nothing in the text prices one, and an
//! assumed price would decide the game, as the PV scale with the materials), and, when offered,
//! `major_construction_den` and `major_construction_months` (assumed: a city's DEN per material
//! point, 1,500 for 1,500, and a city's 12 months). One under way at a time (L681), at home, paid
//! at the start (stone before wood), built month by month (none while the capital is besieged,
//! L3676; lost with the home, like the other works); its PV and IDR count under the `works`
//! source. Its stone is kept from the black market's buyers and bought there when short (the
//! turn's limit a turn, as the roads' is).

use super::economy;
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, MAD, PIE};
use super::state::{State, R};
use super::Game;
use crate::game::GameLog;
use crate::game_log;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// The referee's ruling on a major construction (options `major_construction_materials`,
/// `major_construction_den`, `major_construction_months`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Stone and/or wood of one (0: none offered).
    pub materials: i64,
    pub den: i64,
    pub months: u8,
}

impl Ruling {
    pub fn new(options: &Options) -> Ruling {
        Ruling {
            materials: options.int("major_construction_materials"),
            den: options.int("major_construction_den"),
            months: options.int("major_construction_months").clamp(1, 255) as u8,
        }
    }

    /// PV and rebellion index a finished one scores (L4324: material cost / 100 and / 150,
    /// rounded down; the same in every culture column).
    pub fn score(&self) -> (i32, i32) {
        (
            (self.materials / MATERIALS_PER_PV) as i32,
            (self.materials / MATERIALS_PER_IDR) as i32,
        )
    }
}

/// Material cost per PV point and per rebellion-index point of the table's row (L4324).
pub const MATERIALS_PER_PV: i64 = 100;
pub const MATERIALS_PER_IDR: i64 = 150;

/// Whether `c` may start one now: offered, civilized, at home, none under way.
pub fn may_build(g: &Game, st: &State, c: CountryId) -> bool {
    g.major_works.materials > 0
        && g.culture[c as usize] == Culture::Civilized
        && st.lands[c as usize].owner == c
        && st.nations[c as usize].major_work_left == 0
}

/// Whether `c`'s policy wants one: a share of its spare DEN for it (`major_works_share`).
fn wanted(g: &Game, st: &State, c: CountryId, p: &Scripted) -> bool {
    p.major_works_share > 0.0 && may_build(g, st, c)
}

/// Stone `c` keeps from the black market's buyers for the one it wants (its materials less the
/// wood it holds beyond what the other works keep are not counted: stone is the cheaper).
pub fn stone_wanted(g: &Game, st: &State, c: CountryId, p: &Scripted) -> i64 {
    if wanted(g, st, c, p) {
        g.major_works.materials
    } else {
        0
    }
}

/// Whether `c` starts one now from stocks `stock`: wanted, its DEN within the policy's share of
/// the DEN above reserve and wages, and its stone and wood in stock.
pub fn planned_from(g: &Game, st: &State, c: CountryId, p: &Scripted, stock: &[i64; R]) -> bool {
    if !wanted(g, st, c, p) {
        return false;
    }
    let r = g.major_works;
    let budget = economy::share_of_spare(g, st, c, p, stock[DEN], p.major_works_share);
    r.den <= budget && stock[PIE] + stock[MAD] >= r.materials
}

/// 7 CONSTRUCCIONES after the works and the roads: each country whose policy wants one and can
/// pay it starts it.
pub fn constructions(g: &Game, st: &mut State, plans: &[Scripted], log: &mut dyn GameLog) {
    if g.major_works.materials <= 0 {
        return;
    }
    for c in 0..st.nations.len() as CountryId {
        let stock = st.nations[c as usize].stock;
        if !planned_from(g, st, c, &plans[c as usize], &stock) {
            continue;
        }
        let r = g.major_works;
        st.spend(c, DEN, r.den);
        let stone = st.spend(c, PIE, r.materials);
        let wood = st.spend(c, MAD, r.materials - stone);
        st.works[c as usize].wood.major_building = wood;
        st.nations[c as usize].major_work_left = r.months;
        st.counts.major_works_started += 1;
        game_log!(
            log,
            "{} starts a major construction ({} DEN, {} PIE/MAD, {} months)",
            g.scenario.countries[c as usize].name,
            r.den,
            r.materials,
            r.months
        );
    }
}

/// One month of building: lost with the home, paused while the capital is besieged, scored
/// when finished.
pub fn month(g: &Game, st: &mut State, besieged: &[bool], log: &mut dyn GameLog) {
    for c in 0..st.nations.len() {
        let left = st.nations[c].major_work_left;
        if left == 0 {
            continue;
        }
        if st.lands[c].owner != c as CountryId {
            st.nations[c].major_work_left = 0;
            st.works[c].wood.major_building = 0;
            continue;
        }
        if besieged[c] {
            continue;
        }
        st.nations[c].major_work_left = left - 1;
        if left == 1 {
            let (pv, idr) = g.major_works.score();
            st.add_pv(c as CountryId, super::pv::WORKS, pv);
            st.nations[c].idr += idr;
            st.counts.major_works_built += 1;
            // It stands with the land and owes its wood's January upkeep (`wood.rs`).
            let wood = &mut st.works[c].wood;
            wood.majors += 1;
            wood.major += std::mem::take(&mut wood.major_building);
            game_log!(
                log,
                "{} finishes a major construction (+{pv} PV, +{idr} rebellion index)",
                g.scenario.countries[c].name
            );
        }
    }
}
