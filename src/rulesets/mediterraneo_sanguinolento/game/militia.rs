//! Militia (digest §4.5.5, rules §7.8 L1868-L1872; PV table rows L4288-L4292; A50, A69): a
//! nation whose home country is invaded may call its militia, 3 x floor(POB of the last
//! collection / 200) units of light infantry, irregular, morale D (IL-ID, A69; option
//! `militia_size`), all its equipment free. It never leaves the country and fights only there,
//! through the battle code: alone when nothing else defends the capital (the siege's mouths and
//! morale, the assault), beside the field army or the garrison where the battle code says it
//! helps ([`join`]). It disbands at the end of a month no invading army stands in the home,
//! dies with the home's fall, and once destroyed cannot be called for 3 years.
//!
//! Each month mobilized costs the text's -2 PV (A50's recommended reading; option `militia_pv`
//! = "table": the row's -1/-1/-2) and the row's IDR -50/-100/-120; each 20 POB called costs the
//! "while being invaded" sub-row's IDR -0.5/-1/-1 once, at the call (option `militia_pob_idr`).
//!
//! Men: the militia's men are the home's population beyond the levy (three times what the last
//! collection gave, so never the POB stock): they enter the ledger as `men_raised` at the call,
//! leave it as `men_lost` when they die and as `men_disbanded` when they go home.
//!
//! Not played: a conquered country's militia (L5273's 1/3, 2/3, full): a holder calls only its
//! home's militia (a conquered land is held by its occupation troops, and its people's arms
//! would be a revolt's, §4.16); militia paid to rebel against another (L1872's note), and the
//! Republican militia of the SPQR.

use super::battles::{self, has_troops, Side};
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
        }
    }
}

/// The text's PV for each month mobilized (L1872).
pub const MONTH_PV_TEXT: i32 = -2;

/// Units of militia country `c` may call: 3 x the units its last collection's POB makes
/// available (A69: at 200 POB a unit, or at its first kind's POB cost).
pub fn size(g: &Game, st: &State, c: CountryId) -> f64 {
    let per_unit = if g.militia.base_kind_size {
        g.kinds[c as usize][0].cost[POB].max(1)
    } else {
        POB_PER_UNIT
    };
    let pob = st.nations[c as usize].pob_collected.max(0);
    (UNITS_PER_AVAILABLE * (pob / per_unit)) as f64
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

/// Whether `o` would call its militia against `invader`'s army arriving at or besieging its
/// home (if it fights, [`join`]): not if it has one standing, while barred, or with none to
/// call; a random player tosses a coin; the policy calls when the invading army's combat factors
/// reach `militia_ratio` times its defenders' there (walls not counted) and its rebellion index
/// after the call's first month stays at `militia_idr` or above.
pub fn wants(
    g: &Game,
    st: &State,
    plan: &Scripted,
    o: CountryId,
    invader: CountryId,
    month: u32,
    dice: &mut Dice,
) -> bool {
    let nat = &st.nations[o as usize];
    let units = size(g, st, o);
    if nat.militia > 0.0 || month < nat.militia_barred_until || units < 1.0 {
        return false;
    }
    if st.lands[o as usize].owner != o {
        return false;
    }
    if g.random[o as usize] {
        return dice.below(2) == 0;
    }
    if plan.militia_ratio > NEVER_ABOVE {
        return false;
    }
    let strength = super::military::strength;
    let attackers = strength(g, invader, &st.nations[invader as usize].field);
    let mut defenders = strength(g, o, &nat.garrison);
    if nat.at == o && nat.mission == super::state::Mission::Idle {
        defenders += strength(g, o, &nat.field);
    }
    let culture = g.culture[o as usize];
    attackers >= plan.militia_ratio * defenders
        && nat.idr + call_idr(g, units, culture) >= plan.militia_idr
}

/// `o` calls its militia (its men raised, the call's IDR; the month's PV and IDR are charged at
/// the month's end by [`month_end`]).
pub fn call(g: &Game, st: &mut State, o: CountryId) {
    let units = size(g, st, o);
    let culture = g.culture[o as usize];
    let pob_rows = call_idr(g, units, culture) - pv::MILITIA_MONTH.idr(culture);
    let nat = &mut st.nations[o as usize];
    nat.militia = units;
    nat.idr += pob_rows;
    st.ledger.men_raised += units * g.militia.kind.men;
    st.counts.militia_calls += 1;
}

/// The militia units that fight beside `sides[1]`, its holder's troops at their home `node`,
/// against the invading `sides[0]` (`assault`: the walls and months of siege of an assault on the
/// capital, None for the field battle): none away from home; a militia alone (no other
/// defenders) always fights; else it fights only where the battle code's odds of the fight say
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
    assault: Option<(u32, u32)>,
    winter: bool,
    sides: [Side; 2],
    month: u32,
    dice: &mut Dice,
) -> f64 {
    let o = sides[1].country;
    if node != o || st.lands[node as usize].owner != o {
        return 0.0;
    }
    let standing = st.nations[o as usize].militia;
    let units = if standing > 0.0 {
        standing
    } else if wants(g, st, &plans[o as usize], o, sides[0].country, month, dice) {
        size(g, st, o)
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
        call(g, st, o);
    }
    st.nations[o as usize].militia
}

/// Whether `units` of militia beside `sides[1]` lower the battle code's P(win) of `sides[0]`
/// in the fight, over `trials` fights each way on the same dice.
#[allow(clippy::too_many_arguments)]
pub fn helps(
    g: &Game,
    node: CountryId,
    assault: Option<(u32, u32)>,
    winter: bool,
    sides: [Side; 2],
    units: f64,
    trials: u32,
    dice: &mut Dice,
) -> bool {
    let seed = dice.next_u64();
    let (fort, months) = assault.map_or((None, 0), |(f, m)| (Some(f), m));
    let odds = |militia: f64| {
        let mut s = sides;
        s[1].militia = militia;
        battles::odds(
            g,
            node,
            fort,
            months,
            winter,
            s,
            trials,
            &mut Dice::from_seed(seed),
        )
    };
    odds(units) < odds(0.0)
}

/// `c`'s militia lost `units` in a fight; fewer than one unit left is a destroyed militia.
pub fn lose(g: &Game, st: &mut State, c: CountryId, units: f64, month: u32) {
    let nat = &mut st.nations[c as usize];
    if nat.militia <= 0.0 {
        return;
    }
    let lost = units.clamp(0.0, nat.militia);
    nat.militia -= lost;
    let men = lost * g.militia.kind.men;
    st.ledger.men_lost += men;
    st.counts.militia_men_lost += men;
    if st.nations[c as usize].militia < DESTROYED_BELOW {
        destroyed(g, st, c, month);
    }
}

/// `c`'s militia is destroyed (its last men die): barred for 3 years.
pub fn destroyed(g: &Game, st: &mut State, c: CountryId, month: u32) {
    let nat = &mut st.nations[c as usize];
    let men = nat.militia * g.militia.kind.men;
    nat.militia = 0.0;
    nat.militia_barred_until = month + BARRED_MONTHS;
    st.ledger.men_lost += men;
    st.counts.militia_men_lost += men;
    st.counts.militias_destroyed += 1;
}

/// At the end of a month: a militia mobilized this month costs the month's PV and IDR; then one
/// whose home is no longer invaded (or no longer held) disbands, its men going home.
pub fn month_end(g: &Game, st: &mut State, invaded: &[bool; 256]) {
    for o in 0..st.nations.len() {
        if st.nations[o].militia <= 0.0 {
            continue;
        }
        let culture = g.culture[o];
        st.apply(o as CountryId, pv::MILITIA, month_row(g), culture);
        if g.militia.pob_idr == PobIdr::InvadedMonthly {
            let pob = st.nations[o].militia * g.militia.kind.men;
            st.nations[o].idr += pob_idr(pob, PER_20_POB_INVADED_IDR_HALVES, culture);
        }
        st.counts.militia_months += 1;
        if st.lands[o].owner != o as CountryId || !invaded[o] {
            let nat = &mut st.nations[o];
            st.ledger.men_disbanded += nat.militia * g.militia.kind.men;
            nat.militia = 0.0;
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
