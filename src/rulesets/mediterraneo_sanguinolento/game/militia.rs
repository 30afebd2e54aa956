//! Militia (digest §4.5.5, rules §7.8 L1868-L1872, §39.17 L5273; PV table rows L4288-L4292;
//! A50, A69): the holder of an invaded country may call its militia, 3 x floor(POB of its last
//! collection / 200) units of light infantry, irregular, morale D (IL-ID, A69; option
//! `militia_size`), all its equipment free; a conquered country's is a third of that after its
//! first collection under its conqueror, two thirds after the second, whole from the third
//! (L5273; option `militia_lands`: "home-only" is the earlier reading, the whole nation's
//! collection at home and none in conquered lands). It never leaves the country and fights only
//! there, through the battle code: alone when nothing else defends the capital (the siege's
//! mouths and morale, the assault), beside the field army or the garrison (a conquered land's
//! occupation troops) where the battle code says it helps ([`join`]). It disbands at the end of
//! a month no invading army stands in the country, dies with the country's fall, and once
//! destroyed cannot be called for 3 years.
//!
//! Each month mobilized costs the text's -2 PV (A50's recommended reading; option `militia_pv`
//! = "table": the row's -1/-1/-2) and the row's IDR -50/-100/-120; each 20 POB called costs the
//! "while being invaded" sub-row's IDR -0.5/-1/-1 once, at the call (option `militia_pob_idr`).
//!
//! Men: the militia's men are the home's population beyond the levy (three times what the last
//! collection gave, so never the POB stock): they enter the ledger as `men_raised` at the call,
//! leave it as `men_lost` when they die and as `men_disbanded` when they go home.
//!
//! Not played: militia paid to rebel against another (L1872's note). The SPQR's Republican
//! militia is another rule (`republican_militia.rs`).

use super::battles::{self, has_troops, Side, Walls};
use super::policy::Scripted;
use super::pv::{self, Row};
use super::scenario::{CountryId, POB};
use super::state::State;
use super::{Game, Kind};
use crate::dice::Dice;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// Units of militia per unit the last collection's POB makes available (L1872).
pub const UNITS_PER_AVAILABLE: i64 = 3;
/// POB per available unit under A69's reading (an IL's 200 POB, digest §3.1.3).
pub const POB_PER_UNIT: i64 = 200;
/// Months a destroyed militia cannot be called again (L1872: 3 years).
pub const BARRED_MONTHS: u32 = 36;
/// Below this many units left after a fight, the militia is destroyed.
pub const DESTROYED_BELOW: f64 = 1.0;
/// POB per step of the "per 20 POB in militia" rows.
pub const POB_PER_STEP: i64 = 20;
/// The "per 20 POB in militia" row's IDR (culture columns B, B/C, C) and its "while being
/// invaded" sub-row's, in half points (-0.5 is -1 half point).
pub const PER_20_POB_IDR_HALVES: [i32; 3] = [-2, -4, -8];
pub const PER_20_POB_INVADED_IDR_HALVES: [i32; 3] = [-1, -2, -2];

/// A `militia_ratio` above this never calls the militia.
pub const NEVER_ABOVE: f64 = 10.0;

/// When the "per 20 POB in militia" rows are charged (option `militia_pob_idr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PobIdr {
    /// The "while being invaded" sub-row once, at the call (a militia is only called against an
    /// invasion; the plain row would be a militia called without one).
    InvadedOnce,
    /// The sub-row each month mobilized.
    InvadedMonthly,
    /// Both rows, once, at the call.
    BothOnce,
}

/// The militia's rule options and its kind.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// IL-ID: the battle code's unit, its men and its combat factor.
    pub kind: Kind,
    /// Available units counted at the country's first kind's POB cost (option militia_size =
    /// "base-kind"), not at an IL's 200 (A69).
    pub base_kind_size: bool,
    /// The month's PV by the table's row (option militia_pv = "table"), not the text's -2.
    pub table_pv: bool,
    pub pob_idr: PobIdr,
    /// The whole nation's collection at home, no militia in conquered lands (option
    /// militia_lands = "home-only"), not each country its own (L5273).
    pub home_only: bool,
}

impl Rules {
    pub fn new(options: &Options) -> Rules {
        let d = data();
        let il = d
            .units
            .iter()
            .position(|u| u.code == "IL")
            .expect("the unit table has IL") as u8;
        Rules {
            kind: Kind::new(il, 3, false),
            base_kind_size: options.choice("militia_size") == "base-kind",
            table_pv: options.choice("militia_pv") == "table",
            pob_idr: match options.choice("militia_pob_idr") {
                "invaded-monthly" => PobIdr::InvadedMonthly,
                "both-once" => PobIdr::BothOnce,
                _ => PobIdr::InvadedOnce,
            },
            home_only: options.choice("militia_lands") == "home-only",
        }
    }
}

/// The text's PV for each month mobilized (L1872).
pub const MONTH_PV_TEXT: i32 = -2;

/// Units of militia the holder of country `l` may call there: 3 x the units the land's last
/// collection's POB makes available (A69: at 200 POB a unit, or at the country's first kind's POB
/// cost), a conquered land's by [`conquered_share`] (L5273); under option militia_lands =
/// "home-only" the holder's whole last collection at home and none in conquered lands.
pub fn size(g: &Game, st: &State, l: CountryId) -> f64 {
    let land = &st.lands[l as usize];
    let home = land.owner == l;
    let (pob, share) = match (g.militia.home_only, home) {
        (true, false) => return 0.0,
        (true, true) => (st.nations[l as usize].pob_collected, 1.0),
        (false, true) => (land.pob_yield, 1.0),
        (false, false) => (land.pob_yield, conquered_share(land.collections)),
    };
    let per_unit = if g.militia.base_kind_size {
        g.kinds[l as usize][0].cost[POB].max(1)
    } else {
        POB_PER_UNIT
    };
    ((UNITS_PER_AVAILABLE * (pob.max(0) / per_unit)) as f64 * share).floor()
}

/// Share of a conquered country's militia its holder may call after `collections` collections
/// from it: none before the first, then 1/3, 2/3 and all (L5273).
pub fn conquered_share(collections: u8) -> f64 {
    match collections {
        0 => 0.0,
        1 => 1.0 / 3.0,
        2 => 2.0 / 3.0,
        _ => 1.0,
    }
}

/// IDR of `pob` POB put in militia by the half-point row `halves` (rounded toward zero).
pub fn pob_idr(pob: f64, halves: [i32; 3], culture: Culture) -> i32 {
    let steps = (pob / POB_PER_STEP as f64).floor() as i64;
    (steps * halves[pv::column(culture)] as i64 / 2) as i32
}

/// The IDR of calling `units` of militia (the rows charged at the call).
pub fn call_idr(g: &Game, units: f64, culture: Culture) -> i32 {
    let pob = units * g.militia.kind.men;
    let month = pv::MILITIA_MONTH.idr(culture);
    month
        + match g.militia.pob_idr {
            PobIdr::InvadedOnce => pob_idr(pob, PER_20_POB_INVADED_IDR_HALVES, culture),
            PobIdr::InvadedMonthly => 0,
            PobIdr::BothOnce => {
                pob_idr(pob, PER_20_POB_INVADED_IDR_HALVES, culture)
                    + pob_idr(pob, PER_20_POB_IDR_HALVES, culture)
            }
        }
}

/// Whether the holder of country `l` (`plan`'s player) would call its militia against
/// `invader`'s army arriving at or besieging it (if it fights, [`join`]): not with one standing
/// there, while barred, or with none to call; a random player tosses a coin; the policy calls
/// when the invading army's combat factors reach `militia_ratio` times its defenders' there
/// (walls not counted) and its rebellion index after the call's first month stays at
/// `militia_idr` or above.
pub fn wants(
    g: &Game,
    st: &State,
    plan: &Scripted,
    l: CountryId,
    invader: CountryId,
    month: u32,
    dice: &mut Dice,
) -> bool {
    let land = &st.lands[l as usize];
    let units = size(g, st, l);
    if land.militia > 0.0 || month < land.militia_barred_until || units < 1.0 {
        return false;
    }
    let (o, field, garrison) = super::military::defenders(st, l);
    if g.random[o as usize] {
        return dice.below(2) == 0;
    }
    if plan.militia_ratio > NEVER_ABOVE {
        return false;
    }
    let strength = super::military::strength;
    let attackers = strength(g, invader, &st.nations[invader as usize].field);
    let defenders = strength(g, o, &garrison) + strength(g, o, &field);
    let culture = g.culture[o as usize];
    attackers >= plan.militia_ratio * defenders
        && super::revolt::suffered_index(g, st, l) + call_idr(g, units, culture) >= plan.militia_idr
}

/// The holder of country `l` calls its militia there (its men raised, the call's IDR to the
/// holder; the month's PV and IDR are charged at the month's end by [`month_end`]).
pub fn call(g: &Game, st: &mut State, l: CountryId) {
    let units = size(g, st, l);
    let o = st.lands[l as usize].owner as usize;
    let culture = g.culture[o];
    let pob_rows = call_idr(g, units, culture) - pv::MILITIA_MONTH.idr(culture);
    st.lands[l as usize].militia = units;
    super::revolt::add_suffered(g, st, l, pob_rows);
    st.ledger.men_raised += units * g.militia.kind.men;
    st.counts.militia_calls += 1;
    st.counts.militia_conquered_calls += (o != l as usize) as u32;
}

/// The militia units that fight beside `sides[1]`, the troops of `node`'s holder there, against
/// the invading `sides[0]` (`assault`: the walls and months of siege of an assault on the
/// capital, None for the field battle): none for a side that does not hold the node; a militia
/// alone (no other defenders) always fights; else it fights only where the battle code's odds of the fight say
/// it lowers the invader's P(win), on the same dice both ways (the side's morale is the average
/// over its units, §3.2.5: many IL-ID beside better troops can make it flee sooner). A militia
/// not yet called is called when [`wants`] says so and it would fight; a random player tosses
/// coins.
#[allow(clippy::too_many_arguments)]
pub fn join(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    node: CountryId,
    assault: Option<Walls>,
    winter: bool,
    sides: [Side; 2],
    month: u32,
    dice: &mut Dice,
) -> f64 {
    let o = sides[1].country;
    if st.lands[node as usize].owner != o {
        return 0.0;
    }
    let standing = st.lands[node as usize].militia;
    let units = if standing > 0.0 {
        standing
    } else if wants(
        g,
        st,
        &plans[o as usize],
        node,
        sides[0].country,
        month,
        dice,
    ) {
        size(g, st, node)
    } else {
        return 0.0;
    };
    let fights = !has_troops(&sides[1].units)
        || if g.random[o as usize] {
            dice.below(2) == 0
        } else {
            let trials = plans[o as usize].odds_trials;
            helps(g, node, assault, winter, sides, units, trials, dice)
        };
    if !fights {
        return 0.0;
    }
    if standing <= 0.0 {
        call(g, st, node);
    }
    st.lands[node as usize].militia
}

/// Whether `units` of militia beside `sides[1]` lower the battle code's P(win) of `sides[0]`
/// in the fight, over `trials` fights each way on the same dice.
#[allow(clippy::too_many_arguments)]
pub fn helps(
    g: &Game,
    node: CountryId,
    assault: Option<Walls>,
    winter: bool,
    sides: [Side; 2],
    units: f64,
    trials: u32,
    dice: &mut Dice,
) -> bool {
    let seed = dice.next_u64();
    let odds = |militia: f64| {
        let mut s = sides;
        s[1].militia = militia;
        battles::odds(
            g,
            node,
            assault,
            winter,
            s,
            trials,
            &mut Dice::from_seed(seed),
        )
    };
    odds(units) < odds(0.0)
}

/// The militia of country `l` lost `units` in a fight; fewer than one unit left is a destroyed
/// militia.
pub fn lose(g: &Game, st: &mut State, l: CountryId, units: f64, month: u32) {
    let land = &mut st.lands[l as usize];
    if land.militia <= 0.0 {
        return;
    }
    let lost = units.clamp(0.0, land.militia);
    land.militia -= lost;
    let men = lost * g.militia.kind.men;
    st.ledger.men_lost += men;
    st.counts.militia_men_lost += men;
    if st.lands[l as usize].militia < DESTROYED_BELOW {
        destroyed(g, st, l, month);
    }
}

/// The militia of country `l` is destroyed (its last men die): barred for 3 years.
pub fn destroyed(g: &Game, st: &mut State, l: CountryId, month: u32) {
    let land = &mut st.lands[l as usize];
    let men = land.militia * g.militia.kind.men;
    land.militia = 0.0;
    land.militia_barred_until = month + BARRED_MONTHS;
    st.ledger.men_lost += men;
    st.counts.militia_men_lost += men;
    st.counts.militias_destroyed += 1;
}

/// At the end of a month: a militia mobilized this month costs its country's holder the month's
/// PV and IDR; then one whose country is no longer invaded disbands, its men going home.
pub fn month_end(g: &Game, st: &mut State, invaded: &[bool; 256]) {
    for l in 0..st.lands.len() {
        let units = st.lands[l].militia;
        if units <= 0.0 {
            continue;
        }
        let culture = g.culture[st.lands[l].owner as usize];
        // The rows of the land's militia are suffered there (`revolt.rs`).
        super::revolt::suffered(g, st, l as CountryId, pv::MILITIA, month_row(g));
        if g.militia.pob_idr == PobIdr::InvadedMonthly {
            let pob = units * g.militia.kind.men;
            let idr = pob_idr(pob, PER_20_POB_INVADED_IDR_HALVES, culture);
            super::revolt::add_suffered(g, st, l as CountryId, idr);
        }
        st.counts.militia_months += 1;
        if !invaded[l] {
            st.ledger.men_disbanded += units * g.militia.kind.men;
            st.lands[l].militia = 0.0;
        }
    }
}

/// The month's row: the table's IDR with the text's -2 PV (A50), or the table's PV too.
pub fn month_row(g: &Game) -> Row {
    if g.militia.table_pv {
        pv::MILITIA_MONTH
    } else {
        Row {
            pv: [MONTH_PV_TEXT; 3],
            idr: pv::MILITIA_MONTH.idr,
        }
    }
}
