//! Espionage (digest §4.11) and assassination (§3.9) in the game, once a turn before the march
//! orders, on the battle code's single rolls (`intrigue`):
//! - counter-espionage: a country whose policy wants it pays 50 DEN a month (above its reserve)
//!   and spies on it roll -3;
//! - espionage: a major whose policy spies and whose field army may march buys one report a turn
//!   (300 DEN) on its best-looking target's field army (general information, modifier 0), unless
//!   a report is still on its way; the 2D6 band's wrong share goes up or down by the game's dice;
//!   the report arrives after the travel (light cavalry over the cheapest land path, or
//!   abstraction.toml `[intrigue]` sea_lane_months without one; T11). Under option
//!   war_intelligence = spied the policy's war odds see the target's field army through it;
//! - assassination: once a turn a country whose policy wants it pays its stated DEN to try to
//!   kill the commanding named leader of the country at war with it (the holder of the land its
//!   field army marches on, besieges or raids, else of an army marching on its lands) whose
//!   tactical value is high enough: in his city (+1) when he commands at home, in a camp (-3) in
//!   the field; no guards are raised here. Every attempt costs the aggressor its PV (A38).

use super::leaders::{self, Who};
use super::military::{self, UNREACHABLE};
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, DEN};
use super::state::{Intel, Mission, State};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::data::data;
use crate::rulesets::mediterraneo_sanguinolento::intrigue::{
    assassination_modifier, assassination_succeeds, band, report_delay, spy_modifier, Information,
    COUNTER_ESPIONAGE_COST, SPY_COST, WRONG_SHARE,
};

/// The turn's intrigue for every country, in country order.
pub fn turn(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    months: [u32; 2],
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    for c in 0..st.nations.len() as CountryId {
        counter_espionage(st, &plans[c as usize], c);
    }
    for c in 0..st.nations.len() as CountryId {
        assassination(g, st, &plans[c as usize], c, months[0], dice, log);
    }
    for c in 0..st.nations.len() as CountryId {
        espionage(g, st, &plans[c as usize], c, months[0], dice);
    }
}

/// Whether `c` can pay `den` and keep its reserve.
fn affords(st: &State, p: &Scripted, c: CountryId, den: i64) -> bool {
    st.nations[c as usize].stock[DEN] >= p.reserve + den
}

/// Two months of counter-espionage, if the policy wants it and the treasury allows.
fn counter_espionage(st: &mut State, p: &Scripted, c: CountryId) {
    let on = p.counter_espionage >= 0.5 && affords(st, p, c, 2 * COUNTER_ESPIONAGE_COST);
    if on {
        st.spend(c, DEN, 2 * COUNTER_ESPIONAGE_COST);
        st.counts.counter_espionage_months += 2;
    }
    st.nations[c as usize].counter_espionage = on;
}

/// Months a report from `t` takes to reach `c`'s home (before [`report_delay`]): light cavalry's
/// monthly movement over the cheapest land path, or the sea lanes' months.
pub fn travel_months(g: &Game, st: &State, c: CountryId, t: CountryId) -> u32 {
    if st.roads.next(g, c, t) == UNREACHABLE {
        return g.scenario.intrigue.sea_lane_months;
    }
    let pm = st.roads.cost(g, c, t);
    let light_cavalry = data()
        .units
        .iter()
        .find(|u| u.code == "CL")
        .map_or(1, |u| u.movement.max(1));
    pm.div_ceil(light_cavalry)
}

/// The policy's report on `c`'s best-looking target, if it spies and may march.
fn espionage(g: &Game, st: &mut State, p: &Scripted, c: CountryId, month: u32, dice: &mut Dice) {
    if p.spy < 0.5 || !military::may_march(st, c) || !affords(st, p, c, SPY_COST) {
        return;
    }
    let intel = st.nations[c as usize].intel;
    if intel.target != CountryId::MAX && intel.arrives > month {
        return; // one on its way
    }
    let mut best: Option<(f64, CountryId)> = None;
    let breaks = p.break_treaties >= 0.5;
    military::targets(g, st, c, st.turn, p.overseas, breaks, |t, score| {
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, t));
        }
    });
    let Some((_, t)) = best else { return };
    let o = st.lands[t as usize].owner;
    st.spend(c, DEN, SPY_COST);
    st.counts.spying_bought += 1;
    let m = spy_modifier(
        g.culture[c as usize],
        g.culture[o as usize],
        Information::General,
        st.nations[o as usize].counter_espionage,
    );
    let total = (dice.d(6) + dice.d(6)) as i32 + m;
    let wrong = WRONG_SHARE[band(total)];
    let factor = if dice.chance(0.5) {
        1.0 + wrong
    } else {
        1.0 - wrong
    };
    st.nations[c as usize].intel = Intel {
        target: t,
        factor,
        arrives: month + report_delay(travel_months(g, st, c, t)),
    };
}

/// How `c`'s war odds see the field army defending `t`, as a multiple of the exact figure: 1
/// when omniscient (option war_intelligence) or for a random player; else the latest report
/// arrived on `t`, and without one 100% wrong (none or twice, by the dice).
pub fn seen_factor(g: &Game, st: &State, c: CountryId, t: CountryId, dice: &mut Dice) -> f64 {
    if !g.spied_intelligence || g.random[c as usize] {
        return 1.0;
    }
    let intel = st.nations[c as usize].intel;
    if intel.target == t && intel.arrives <= st.month {
        intel.factor
    } else if dice.chance(0.5) {
        2.0
    } else {
        0.0
    }
}

/// The country at war with `c` this turn: the holder of the land its field army marches on,
/// besieges or raids, else the first whose field army marches on or besieges `c`'s lands.
fn enemy_of(st: &State, c: CountryId) -> Option<CountryId> {
    let mission_target = |m: Mission| match m {
        Mission::March { target } | Mission::Siege { target, .. } | Mission::Pillage { target } => {
            Some(target)
        }
        _ => None,
    };
    if let Some(t) = mission_target(st.nations[c as usize].mission) {
        let o = st.lands[t as usize].owner;
        if o != c {
            return Some(o);
        }
    }
    (0..st.nations.len() as CountryId).find(|&o| {
        o != c
            && mission_target(st.nations[o as usize].mission)
                .is_some_and(|t| st.lands[t as usize].owner == c)
    })
}

/// One attempt by `c`, if its policy names a victim worth it and it can pay.
fn assassination(
    g: &Game,
    st: &mut State,
    p: &Scripted,
    c: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    if p.assassinate_tactical > 5 || !affords(st, p, c, p.assassination_den) {
        return;
    }
    let Some(o) = enemy_of(st, c) else { return };
    let in_field = leaders::field_away(st, o);
    let lead = if in_field {
        leaders::field_lead(g, st, o, month)
    } else {
        leaders::home_lead(g, st, o, month)
    };
    let Who::Named(slot) = lead.who else { return };
    if lead.tactical < p.assassinate_tactical {
        return;
    }
    st.spend(c, DEN, p.assassination_den);
    st.counts.assassinations_tried += 1;
    let city = !in_field && g.capital[o as usize].is_some();
    let m = assassination_modifier(p.assassination_den, in_field, city, 0.0, false);
    let natural = (dice.d(6) + dice.d(6)) as i32;
    let killed = assassination_succeeds(natural, m);
    if killed {
        st.counts.assassinations_succeeded += 1;
        leaders::dies(g, st, o, slot as usize, dice);
    }
    // The victim learns who tried, whatever the outcome (L5076).
    let culture = g.culture[c as usize];
    if g.assassination_by_table {
        st.apply(c, pv::INTRIGUE, pv::ASSASSINATION_ATTEMPT, culture);
    } else {
        st.add_pv(c, pv::INTRIGUE, pv::ASSASSINATION_TEXT);
        st.nations[c as usize].idr += pv::ASSASSINATION_ATTEMPT.idr(culture);
    }
    game_log!(
        log,
        "month {month}: {} tries to assassinate a leader of {} ({}-{}): {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[o as usize].name,
        lead.tactical,
        lead.strategic,
        if killed { "killed" } else { "failed" }
    );
}
