//! Extra POB levies (digest §4.3, §4.18; rules §26 L4092, L4100, L4108; §4.19 row "mass
//! recruitment, per 5%"): at a collection a nation may take more POB for troops than the
//! collection gave, up to +25% (civilized), +30% (B/C) or +40% (barbarians; the text also says
//! "at most 50%", A57: option `barbarian_extra_levy`), in steps of 5%. Each step scores the table's
//! row (-1/-2/-3 PV, -75/-100/-150 IDR by culture); the culture paragraphs add their own rebellion
//! index, -1 per 10 extra POB (B/C) or per 20 (barbarians), none stated for the civilized (option
//! `extra_levy_idr`: both, the digest lists the paragraphs' IDR as effects outside the table, or
//! the table's alone).
//!
//! Whose index the rows move: option `province_burdens` (`burdens.rs`), every land the levy
//! takes from (each its row per step and the paragraphs' IDR on its own share) or the home's.
//!
//! The extra POB joins the POB on hand for the turn's purchases (it expires unspent at the next
//! collection, as all POB does); the population counted for feeding and the militia is the
//! collection's.

use super::city_revolt;
use super::policy::Scripted;
use super::pv::{self, MASS_RECRUITMENT};
use super::revolt;
use super::scenario::{CountryId, POB};
use super::state::State;
use super::Game;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Percent of the collected POB each step of the levy takes (the table's row is per 5%).
pub const STEP_PERCENT: i64 = 5;

/// The extra levy's rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A barbarian's most extra POB in percent (option barbarian_extra_levy, A57: 40 or 50).
    pub barbarian_max: i64,
    /// The culture paragraphs' IDR per extra POB on top of the table's row (option
    /// extra_levy_idr = "table-and-text"), else the row alone.
    pub text_idr: bool,
}

impl Rules {
    pub fn new(options: &Options) -> Rules {
        Rules {
            barbarian_max: if options.choice("barbarian_extra_levy") == "fifty" {
                50
            } else {
                40
            },
            text_idr: options.choice("extra_levy_idr") != "table",
        }
    }
}

/// The most extra POB a culture may levy, in percent of its collection (L4092, L4100, L4108).
pub fn max_percent(rules: &Rules, culture: Culture) -> i64 {
    match culture {
        Culture::Civilized => 25,
        Culture::Mixed => 30,
        Culture::Barbarian => rules.barbarian_max,
    }
}

/// Extra POB per point of rebellion index the culture paragraphs charge (None: none stated).
pub fn pob_per_idr(culture: Culture) -> Option<i64> {
    match culture {
        Culture::Civilized => None,
        Culture::Mixed => Some(10),
        Culture::Barbarian => Some(20),
    }
}

/// Steps of 5% a policy levies: its share `extra_levy` of the culture's most, rounded down.
pub fn steps(rules: &Rules, culture: Culture, share: f64) -> i64 {
    let most = max_percent(rules, culture) / STEP_PERCENT;
    ((share.clamp(0.0, 1.0) * most as f64 + 1e-9).floor() as i64).min(most)
}

/// What `steps` steps of levy on `collected` POB give and cost: extra POB, PV and IDR.
pub fn levy(rules: &Rules, culture: Culture, collected: i64, steps: i64) -> (i64, i32, i32) {
    let extra = collected.max(0) * steps * STEP_PERCENT / 100;
    let pv = MASS_RECRUITMENT.pv(culture) * steps as i32;
    let mut idr = MASS_RECRUITMENT.idr(culture) * steps as i32;
    if rules.text_idr {
        if let Some(per) = pob_per_idr(culture) {
            idr -= (extra / per) as i32;
        }
    }
    (extra, pv, idr)
}

/// After a collection: each nation holding its home whose policy levies (`extra_levy`) takes the
/// extra POB and pays the rows, if the indices they move stay at its `tax_idr` floor or above:
/// under option `province_burdens` = "each-land" (`burdens.rs`) every land that gave it POB
/// (`pob_given`, by land), each charged the row per step and the paragraphs' IDR on its own
/// share of the extra; under "home-only" the home index, charged for the whole levy. The PV are
/// scored once.
pub fn collection(g: &Game, st: &mut State, plans: &[Scripted], pob_given: &[i64]) {
    for c in 0..st.nations.len() {
        let plan = &plans[c];
        if plan.extra_levy <= 0.0 || st.lands[c].owner != c as CountryId {
            continue;
        }
        let culture = g.culture[c];
        let steps = steps(&g.levy, culture, plan.extra_levy);
        let collected = st.nations[c].pob_collected;
        let (extra, pv, idr) = levy(&g.levy, culture, collected, steps);
        if extra <= 0 {
            continue;
        }
        // Each land's move ("each-land"; lands it takes nothing from keep theirs), kept at the
        // floor by the lowest zone it reaches (`city_revolt.rs`).
        let mut moves: [Option<i32>; 256] = [None; 256];
        for (l, &given) in pob_given.iter().enumerate() {
            if st.lands[l].owner as usize == c && given > 0 {
                moves[l] = Some(levy(&g.levy, culture, given, steps).2);
            }
        }
        let reached = |l: usize| city_revolt::lowest_moved(g, st, l as CountryId);
        let keeps_floor = if g.revolt.home_burdens {
            reached(c) + idr >= plan.tax_idr
        } else {
            (0..pob_given.len()).all(|l| moves[l].is_none_or(|m| reached(l) + m >= plan.tax_idr))
        };
        if !keeps_floor {
            continue;
        }
        if g.revolt.home_burdens {
            st.nations[c].idr += idr;
        } else {
            for (l, &m) in moves.iter().enumerate().take(pob_given.len()) {
                if let Some(m) = m {
                    *revolt::index_mut(st, l as CountryId) += m;
                }
            }
        }
        st.gain(c as CountryId, POB, extra);
        st.add_pv(c as CountryId, pv::LEVY, pv);
        st.counts.levies += 1;
        st.counts.levy_pob += extra as f64;
    }
}
