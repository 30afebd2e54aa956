//! Land interception (digest §3.7, L5567-L5587) on the region graph: a holder's field army that
//! stood idle at home for a whole month under a named leader may try, once, to intercept an army
//! marching on its lands when that army's leg this month comes within range (abstraction.toml
//! `[intrigue]`: a leg into its node, or into a land neighbour at most `range_hexes` hexes away
//! without a strait). The roll is the battle code's (`interception::land_modifier`,
//! `land_succeeds`, option interception_bands, A36): 1D10 + strategic + 3 if only mounted troops
//! intercept - 3 if a supply convoy goes with them (`supply.rs`) + 1 in own territory - distance. A
//! successful interception is a field battle through the battle code in the marcher's node (no
//! retreat before combat: no army retreats before combat here, L2897); the interceptors stay
//! (return) home, and a beaten marcher falls back home with its truce.

use super::battles::{self, has_troops, Side};
use super::leaders;
use super::military::{self, UNREACHABLE};
use super::policy::Scripted;
use super::scenario::CountryId;
use super::state::{Mission, State, Units, KINDS};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::data::data;
use crate::rulesets::mediterraneo_sanguinolento::interception::{
    land_chance, land_modifier, land_succeeds,
};

/// Whether every unit of `units` is cavalry, camelry or chariots (+3, L5575).
pub fn mounted_only(g: &Game, c: CountryId, units: &Units) -> bool {
    let d = data();
    let kinds = &g.kinds[c as usize];
    has_troops(units)
        && (0..KINDS).filter(|&k| units[k] > 1e-9).all(|k| {
            matches!(
                d.units[kinds[k].unit as usize].class.as_str(),
                "cavalry" | "camelry" | "chariots"
            )
        })
}

/// Hexes from an army standing in node `x` to an army on the leg `from` -> `to`: the same-node
/// distance if the leg starts or ends in `x`, else the shortest land link (no strait) from `x` to
/// either end within range; None out of range.
pub fn distance(g: &Game, x: CountryId, from: CountryId, to: CountryId) -> Option<i32> {
    let data = g.scenario.intrigue;
    if x == from || x == to {
        return Some(data.same_node_distance as i32);
    }
    g.scenario
        .links(x)
        .iter()
        .filter(|l| !l.sea && l.strait == 0 && l.hexes <= data.range_hexes)
        .filter(|l| l.to == from || l.to == to)
        .map(|l| l.hexes as i32)
        .min()
}

/// Whether `o`'s field army may try an interception now: idle at its home for a whole month, with
/// troops and a named leader commanding there.
fn may_intercept(g: &Game, st: &State, o: CountryId, month: u32) -> bool {
    let n = &st.nations[o as usize];
    st.lands[o as usize].owner == o
        && n.at == o
        && n.mission == Mission::Idle
        && n.idle_months >= 1
        && has_troops(&n.field)
        && leaders::home_lead(g, st, o, month).is_named()
}

/// After `c`'s field army moved this month on its land march on `target`: the holder's try to
/// intercept it. Returns whether `c` was beaten (it then falls back home).
#[allow(clippy::too_many_arguments)]
pub fn check(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    target: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> bool {
    let o = st.lands[target as usize].owner;
    let at = st.nations[c as usize].at;
    let p = &plans[o as usize];
    if o == c || at == target || p.intercept > 1.0 || !may_intercept(g, st, o, month) {
        return false;
    }
    let next = st.roads.next(g, at, target);
    if next == UNREACHABLE {
        return false;
    }
    let Some(dist) = distance(g, o, at, next) else {
        return false;
    };
    let lead = leaders::home_lead(g, st, o, month);
    let m = land_modifier(
        lead.strategic as i32,
        mounted_only(g, o, &st.nations[o as usize].field),
        super::supply::has_convoy(g, st, o),
        st.lands[at as usize].owner == o,
        dist,
    );
    // Cheap gates before the battle code's odds: a roll that cannot succeed, or a factor ratio
    // below the policy's min_ratio (as for a march).
    let ratio = military::strength(g, o, &st.nations[o as usize].field)
        / (military::strength(g, c, &st.nations[c as usize].field) + 1e-9);
    if land_chance(m, g.interception_literal) == 0.0 || ratio < p.min_ratio {
        return false;
    }
    let interceptors = Side {
        mix: st.nations[o as usize].mix,
        mercs: st.nations[o as usize].mercs,
        ..Side::new(o, st.nations[o as usize].field, lead)
    };
    let marchers = Side {
        mix: st.nations[c as usize].mix,
        mercs: st.nations[c as usize].mercs,
        unsupplied: st.nations[c as usize].unsupplied,
        fatigue: st.nations[c as usize].march.fatigue,
        ..Side::new(
            c,
            st.nations[c as usize].field,
            leaders::field_lead(g, st, c, month),
        )
    };
    let win = military::winter(g, month);
    let odds = battles::odds(
        g,
        at,
        None,
        win,
        [interceptors, marchers],
        p.odds_trials,
        dice,
    );
    if odds < p.intercept {
        return false;
    }
    // Once: the try uses up the month of waiting, whatever the roll.
    st.nations[o as usize].idle_months = 0;
    st.counts.interceptions_tried += 1;
    if !land_succeeds(dice.d(10), m, g.interception_literal) {
        return false;
    }
    st.counts.interceptions_succeeded += 1;
    let fought = battles::field_battle(
        g,
        at,
        win,
        military::weather_at(g, st, at),
        [interceptors, marchers],
        dice,
    );
    st.counts.battles += 1;
    // The interceptor attacks: `settle` takes it as the first side.
    military::settle(g, st, o, c, &fought, None);
    let sides = [interceptors, marchers];
    leaders::after_battle(g, st, &sides, &fought, month, dice);
    game_log!(
        log,
        "month {month}: {} intercepts {} in {} ({} hexes): {}",
        g.scenario.countries[o as usize].name,
        g.scenario.countries[c as usize].name,
        g.scenario.countries[at as usize].name,
        dist,
        match fought.winner {
            Some(0) => "the interceptor wins",
            Some(_) => "the marcher wins",
            None => "undecided",
        }
    );
    if fought.winner == Some(0) {
        military::fall_back(st, plans, c, o);
        return true;
    }
    false
}

/// The end of a month: each field army idle at home counts one more whole month there.
pub fn count_idle_months(st: &mut State) {
    for (c, n) in st.nations.iter_mut().enumerate() {
        if n.at as usize == c && n.mission == Mission::Idle {
            n.idle_months = n.idle_months.saturating_add(1);
        } else {
            n.idle_months = 0;
        }
    }
}
