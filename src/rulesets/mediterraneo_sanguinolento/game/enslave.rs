//! Enslaving POB (digest §4.1 "Slaves" source (a), rules L833; §4.19's rows "Enslaving 5% of own
//! POB" and "5% of others'", L4370-L4372; A68): at a collection a nation may turn a share of the
//! POB a land it holds has just yielded into slaves (ESC), in whole steps of 5% (the table's unit).
//!
//! "Own" and "others'": L833 allows it in a city or zone "own or conquered", and the table's second
//! row reads "of others": own POB is the holder's home land (its own people), others' POB a
//! conquered province of another people. The share is of what the land yielded the holder at this
//! collection (L833: the POB "available per collection"; a newly conquered province's 10/20/30%).
//! The text gives no ceiling: here at most [`MAX_STEPS`] steps (25%), the civilized extra levy's
//! most (L4092), the nearest ceiling the text puts on what a nation takes from its POB beyond the
//! collection (and at 425 IDR a civilized step, the index stops any policy well before).
//!
//! Each step: the row by the holder's culture (PV source slaves) on the index of the land it is
//! taken from (`revolt::index_mut`; a land at 0 revolts at the next check as any other), and by
//! option `enslave_idr` the text's -50 IDR per 1% taken (L833, which the digest lists among the
//! index's effects outside the table, as it does the levy's culture paragraphs) on top of the row
//! ("table-and-text", default), instead of it ("text") or not at all ("table").
//!
//! The permanent POB loss (A68, option `enslave_pob_loss`): "half" (A68's recommended reading, 1% of
//! the land's POB per 2% of it enslaved), "literal" (1% per 2 POB enslaved) or "none". It is kept
//! on the land (`Land::pob_lost_bp`, basis points of its POB) and every later collection of the
//! land, whoever holds it, yields that much less POB ([`pob_yield`]).
//!
//! The policy (`enslave_home`, `enslave_provinces`: shares of [`MAX_STEPS`], default 0) takes
//! slaves only for a use that pays: works waiting (it would start one now, not a colony) that it
//! puts slaves on (`slaves_on_works`), keeping some from the freeing (`slaves_freed` below 1,
//! which comes first in the turn), and no more steps than bring its stock to what those works take
//! ([`slaves_lacking`]: their most lots, over the shares it keeps and puts on works). A black-market sale never does here: 3 DEN a slave (A52) is a
//! fifth of a PV's worth of gifts for a man who would have been a recruit, and costs the row's PV,
//! its index and the land's POB for good. Freeing them again is no use: a lot of 100 freed scores
//! 0/1/1 PV, and a home of 4,000 POB gives 200 slaves a step for the row's -1/-2/-3 PV and
//! -350/-400/-425 IDR (the forced-on run in docs/games.md: -60 to -160 PV a major). It never takes a step that puts
//! the land's lowest zone (`city_revolt::lowest_moved`) below its `tax_idr` floor (as the levy and the taxes keep it).

use super::policy::Scripted;
use super::pv::{self, Row};
use super::revolt;
use super::scenario::{CountryId, ESC, POB};
use super::slaves;
use super::state::State;
use super::works::{self, Work};
use super::Game;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Percent of a land's collected POB each step enslaves (the §4.19 rows are per 5%).
pub const STEP_PERCENT: i64 = 5;
/// The most steps at one collection on one land (25%: see the module's doc).
pub const MAX_STEPS: i64 = 5;
/// The text's IDR per 1% enslaved (L833).
pub const TEXT_IDR_PER_PERCENT: i32 = -50;
/// Basis points of POB: a land's whole POB.
pub const WHOLE_BP: i64 = 10_000;

/// Enslaving 5% of own POB (L4370).
pub const OWN_POB: Row = pv::ENSLAVING_OWN;
/// Enslaving 5% of others' POB (L4372).
pub const OTHERS_POB: Row = pv::ENSLAVING_OTHERS;

/// What A68's permanent POB loss is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PobLoss {
    /// 1% of the land's POB per 2% of it enslaved (A68's recommended reading).
    Half,
    /// 1% of the land's POB per 2 POB enslaved (the sentence taken literally).
    Literal,
    None,
}

/// The enslaving rule's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The §4.19 row's IDR per step (option enslave_idr "table" or "table-and-text").
    pub table_idr: bool,
    /// The text's -50 IDR per 1% (option enslave_idr "text" or "table-and-text").
    pub text_idr: bool,
    pub pob_loss: PobLoss,
}

impl Rules {
    pub fn new(options: &Options) -> Rules {
        let idr = options.choice("enslave_idr");
        Rules {
            table_idr: idr != "text",
            text_idr: idr != "table",
            pob_loss: match options.choice("enslave_pob_loss") {
                "literal" => PobLoss::Literal,
                "none" => PobLoss::None,
                _ => PobLoss::Half,
            },
        }
    }
}

/// The row of enslaving in land `l` held by `holder`: own POB at home, others' in a province.
pub fn row(holder: CountryId, l: CountryId) -> Row {
    if holder == l {
        OWN_POB
    } else {
        OTHERS_POB
    }
}

/// Slaves `steps` steps take from `collected` POB (rounded down).
pub fn slaves(collected: i64, steps: i64) -> i64 {
    collected.max(0) * steps * STEP_PERCENT / 100
}

/// PV and IDR of `steps` steps of row `row` for a holder of culture `culture`.
pub fn cost(rules: &Rules, row: Row, culture: Culture, steps: i64) -> (i32, i32) {
    let s = steps as i32;
    let mut idr = 0;
    if rules.table_idr {
        idr += row.idr(culture) * s;
    }
    if rules.text_idr {
        idr += TEXT_IDR_PER_PERCENT * STEP_PERCENT as i32 * s;
    }
    (row.pv(culture) * s, idr)
}

/// Basis points of its POB a land whose whole yield is `land_pob` loses for good when `taken` of
/// it are enslaved (A68's readings).
pub fn pob_loss_bp(rules: &Rules, land_pob: i64, taken: i64) -> i64 {
    let bp = match rules.pob_loss {
        PobLoss::None => 0,
        // 1% per 2% of the land's POB: half the share taken.
        PobLoss::Half if land_pob > 0 => taken * WHOLE_BP / land_pob / 2,
        PobLoss::Half => 0,
        // 1% (100 bp) per 2 POB.
        PobLoss::Literal => taken * 50,
    };
    bp.min(WHOLE_BP)
}

/// Land `l`'s POB yield `pob` after the POB it lost for good to enslaving (rounded down).
pub fn pob_yield(st: &State, l: usize, pob: i64) -> i64 {
    pob * (WHOLE_BP - st.lands[l].pob_lost_bp as i64) / WHOLE_BP
}

/// Steps a policy's share `share` of [`MAX_STEPS`] asks for (rounded down).
pub fn wanted_steps(share: f64) -> i64 {
    ((share.clamp(0.0, 1.0) * MAX_STEPS as f64 + 1e-9).floor() as i64).min(MAX_STEPS)
}

/// The slaves `c` playing `plan` lacks for the works it would start now (not a colony): each takes
/// its most lots (`slaves::most_lots`), and the policy puts only its `slaves_on_works` share of its
/// lots on a work, after freeing its `slaves_freed` share (the freeing comes first in the turn), so
/// the stock that fills them is their lots over those shares, less the slaves it holds. 0 when it
/// puts none on works or frees them all: then enslaving has no use that pays.
pub fn slaves_lacking(g: &Game, st: &State, c: CountryId, plan: &Scripted) -> i64 {
    let kept = plan.slaves_on_works.min(1.0) * (1.0 - plan.slaves_freed.max(0.0));
    if kept <= 0.0 {
        return 0;
    }
    let (chosen, n) = works::planned(g, st, c, plan);
    let lots: i64 = chosen[..n]
        .iter()
        .filter(|&&w| w != Work::Colony)
        .map(|&w| slaves::most_lots(g, w.price().months))
        .sum();
    let wanted = ((lots * slaves::LOT) as f64 / kept).ceil() as i64;
    (wanted - st.nations[c as usize].stock[ESC].max(0)).max(0)
}

/// The steps a land's collection `collected` must give to bring `lacking` slaves: the fewest that
/// do, or `most` when even those fall short.
pub fn steps_for(collected: i64, lacking: i64, most: i64) -> i64 {
    (1..=most)
        .find(|&s| slaves(collected, s) >= lacking)
        .unwrap_or(most)
}

/// `holder` enslaves `steps` steps of land `l`'s collection `collected` (its whole yield
/// `land_pob`): the POB become ESC, the rows are scored, the land loses its POB for good.
pub fn enslave(
    g: &Game,
    st: &mut State,
    holder: CountryId,
    l: CountryId,
    collected: i64,
    land_pob: i64,
    steps: i64,
) {
    let taken = slaves(collected, steps).min(st.nations[holder as usize].stock[POB]);
    if taken <= 0 {
        return;
    }
    let culture = g.culture[holder as usize];
    let (pv, idr) = cost(&g.enslave, row(holder, l), culture, steps);
    st.spend(holder, POB, taken);
    st.gain(holder, ESC, taken);
    st.add_pv(holder, pv::SLAVES, pv);
    *revolt::index_mut(st, l) += idr;
    let land = &mut st.lands[l as usize];
    let lost = land.pob_lost_bp as i64 + pob_loss_bp(&g.enslave, land_pob, taken);
    land.pob_lost_bp = lost.min(WHOLE_BP) as u16;
    st.counts.pob_enslaved += taken as f64;
}

/// After a collection (`economy::collection`, `pob_given`: the POB each land gave its holder):
/// every nation whose policy enslaves and has a use for slaves takes its steps on its home and its
/// provinces, each step only while the land's index stays at its `tax_idr` floor or above.
pub fn collection(g: &Game, st: &mut State, plans: &[Scripted], pob_given: &[i64]) {
    for (l, &given) in pob_given.iter().enumerate() {
        if given <= 0 {
            continue;
        }
        let holder = st.lands[l].owner;
        let plan = &plans[holder as usize];
        let share = if holder as usize == l {
            plan.enslave_home
        } else {
            plan.enslave_provinces
        };
        if share <= 0.0 {
            continue;
        }
        let lacking = slaves_lacking(g, st, holder, plan);
        if lacking <= 0 {
            continue;
        }
        let culture = g.culture[holder as usize];
        let row = row(holder, l as CountryId);
        // The lowest zone the steps' index reaches (its cities too under city_index_rows).
        let index = super::city_revolt::lowest_moved(g, st, l as CountryId);
        let steps = (1..=steps_for(given, lacking, wanted_steps(share)))
            .rev()
            .find(|&s| index + cost(&g.enslave, row, culture, s).1 >= plan.tax_idr)
            .unwrap_or(0);
        if steps > 0 {
            let land_pob = st.lands[l].pob_yield;
            enslave(g, st, holder, l as CountryId, given, land_pob, steps);
        }
    }
}
