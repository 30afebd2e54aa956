//! Crossings by sea (digest §3.5, §3.6, §4.12, §4.15) on the region graph's sea lanes: an army
//! whose target lies out of reach by land sails from its home port with what its fleets carry,
//! in one month (a sea lane is at most about 20 hexes, within a month's fleet PM). Every fleet
//! that sails risks the storm of the month's weather (the battle code's
//! `naval::storm_loss_chance`: the storm number of the worse of the two ends' zones, +2 in
//! winter, +2 on the Atlantic or Indian ocean); a fleet hit loses 1D10 ships and the troops they
//! carried. The target's holder, if it is its home, intercepts with the fleets in its port on
//! 1D6 >= 3 (naval interception with no leader at distance 0, A36's reading) and the fleets
//! fight a naval battle through the battle code (`naval::build`, ram combat by its defaults);
//! the crossing goes on only if the attacker wins it, else the army is back in its port. Ashore,
//! the first fight is a landing (`battles::landing_battle`). Coming home, the army sails back
//! through the same storms.

use super::battles::has_troops;
use super::military::{fall_back, weather_at, winter};
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, SEAS};
use super::state::{Mission, State, KINDS};
use super::weather::Weather;
use super::Game;
use crate::battle::{side_column, Trial, LOSSES};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::naval as battle;
use crate::rulesets::mediterraneo_sanguinolento::SIDES;
use crate::spec::Fields;

/// Ships in a fleet (L1246).
pub const SHIPS_PER_FLEET: f64 = 10.0;
/// Naval interception succeeds on 1D6 + leadership - distance at least this (A36).
pub const INTERCEPTION: u32 = 3;

/// The battle code's weather name.
fn weather_name(w: Weather) -> &'static str {
    match w {
        Weather::Clear => "clear",
        Weather::Rain => "rain",
        Weather::Storm => "storm",
        Weather::Snow => "snow",
    }
}

/// The worse of the month's weather at `a` and `b` for a crossing (the higher storm number).
fn crossing_weather(g: &Game, st: &State, a: CountryId, b: CountryId) -> &'static str {
    let (wa, wb) = (
        weather_name(weather_at(g, st, a)),
        weather_name(weather_at(g, st, b)),
    );
    if battle::storm_number(wb) > battle::storm_number(wa) {
        wb
    } else {
        wa
    }
}

/// Whether the lane between `a` and `b` is on the Atlantic or the Indian ocean: the seas both
/// ends touch are only those.
fn ocean(g: &Game, a: CountryId, b: CountryId) -> bool {
    let oceans = SEAS
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(**s, "atlantic" | "indian"))
        .fold(0u8, |m, (i, _)| m | 1 << i);
    let common = g.scenario.nodes[a as usize].seas & g.scenario.nodes[b as usize].seas;
    common != 0 && common & !oceans == 0
}

/// Storms on `c`'s fleets sailing between `a` and `b` this month: ships sunk, and the troops
/// aboard the sunk ships with them (an even share of the army aboard).
pub(super) fn storms(
    g: &Game,
    st: &mut State,
    c: CountryId,
    a: CountryId,
    b: CountryId,
    month: u32,
    dice: &mut Dice,
) {
    let weather = crossing_weather(g, st, a, b);
    let chance = battle::storm_loss_chance(weather, winter(g, month), ocean(g, a, b), false);
    let fleets = st.nations[c as usize].fleets.floor();
    let mut sunk = 0.0;
    for _ in 0..fleets as u32 {
        if dice.chance(chance) {
            sunk += dice.d(10) as f64;
        }
    }
    if sunk == 0.0 {
        return;
    }
    let share = sunk / (fleets * SHIPS_PER_FLEET);
    lose_ships(g, st, c, sunk, share);
    st.counts.ships_lost_to_storms += sunk;
}

/// `c` loses `ships` and `share` of the army aboard.
fn lose_ships(g: &Game, st: &mut State, c: CountryId, ships: f64, share: f64) {
    let mpu = g.men_per_unit(c);
    let n = &mut st.nations[c as usize];
    n.fleets = ((n.fleets * SHIPS_PER_FLEET - ships).max(0.0)).round() / SHIPS_PER_FLEET;
    let mut men = 0.0;
    for k in 0..KINDS {
        let lost = n.field[k] * share.clamp(0.0, 1.0);
        n.field[k] -= lost;
        if n.field[k] < 1e-9 {
            n.field[k] = 0.0;
        }
        men += lost * mpu[k];
    }
    st.ledger.men_lost += men;
}

/// One month's crossing of `c`'s army to `t`: storms, then the holder's interception and naval
/// battle. True if the army lands at `t`; false if it is back in its home port (or lost).
#[allow(clippy::too_many_arguments)]
pub fn cross(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> bool {
    let from = st.nations[c as usize].at;
    storms(g, st, c, from, t, month, dice);
    if !has_troops(&st.nations[c as usize].field) {
        back_home(st, c);
        return false;
    }
    let o = st.lands[t as usize].owner;
    // The holder's fleets sail out with 10 ships at least (L1246); storms may have left the
    // crossing fleets with fewer, but those still fight.
    if o == t
        && st.nations[o as usize].fleets >= 1.0
        && st.nations[c as usize].fleets > 0.0
        && dice.d(6) >= INTERCEPTION
    {
        let won = naval_battle(g, st, c, o, from, t, month, dice, log);
        if !won {
            fall_back(st, plans, c, o);
            back_home(st, c);
            return false;
        }
    }
    st.nations[c as usize].at = t;
    st.counts.landings += 1;
    game_log!(
        log,
        "month {month}: {} lands in {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name
    );
    true
}

/// The army is in its home port again, idle.
fn back_home(st: &mut State, c: CountryId) {
    let n = &mut st.nations[c as usize];
    n.at = c;
    n.mission = Mission::Idle;
    n.by_sea = false;
    n.progress = 0;
}

/// `c`'s army sails home from overseas in a month, through the month's storms.
pub fn sail_home(g: &Game, st: &mut State, c: CountryId, month: u32, dice: &mut Dice) {
    let from = st.nations[c as usize].at;
    storms(g, st, c, from, c, month, dice);
    back_home(st, c);
}

/// The naval battle of `c`'s fleets (attacking, the army aboard) against `o`'s, through the
/// battle code: one play of `naval::build` on the fleets as they stand (ram combat, crews of
/// regular C morale, barbarian ships for a barbarian country). Ships lost on each side are gone
/// (none are captured or repaired here), the attacker's army aboard with its lost ships; the PV
/// of a battle won or lost by the fleets' ram factors. True if the attacker wins.
#[allow(clippy::too_many_arguments)]
fn naval_battle(
    g: &Game,
    st: &mut State,
    c: CountryId,
    o: CountryId,
    from: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> bool {
    let Some(fleet) = g.scenario.fleet else {
        return true;
    };
    // The crossing fleets as the storms left them, single ships included; the holder's whole.
    let fleets = [
        st.nations[c as usize].fleets,
        st.nations[o as usize].fleets.floor(),
    ];
    let mut table = toml::Table::new();
    table.insert("weather".into(), crossing_weather(g, st, from, t).into());
    table.insert("winter".into(), winter(g, month).into());
    for (i, who) in [c, o].into_iter().enumerate() {
        let mut side = toml::Table::new();
        let mut ships = toml::Table::new();
        ships.insert(fleet.code.clone(), fleets[i].into());
        side.insert("fleets".into(), ships.into());
        let barbarian = g.culture[who as usize]
            == crate::rulesets::mediterraneo_sanguinolento::army::Culture::Barbarian;
        side.insert("barbarian".into(), barbarian.into());
        table.insert(SIDES[i].into(), side.into());
    }
    let model = battle::build(&Fields::new("naval battle", &table), g.options.clone())
        .expect("a naval battle the game sets up is valid");
    let mut trial = Trial::default();
    model.trial(dice, &mut trial);
    let schema = model.schema();
    st.counts.naval_battles += 1;
    for (i, who) in [c, o].into_iter().enumerate() {
        let lost = schema
            .count_index(&side_column(SIDES[i], LOSSES))
            .map_or(0, |k| trial.counts[k]) as f64;
        let share = if i == 0 {
            lost / (fleets[0] * SHIPS_PER_FLEET)
        } else {
            0.0
        };
        lose_ships(g, st, who, lost, share);
        st.nations[who as usize].fought_this_year = true;
    }
    let winner = (trial.outcome < 2).then_some(trial.outcome);
    if let Some(w) = winner {
        let factors = [fleets[0] * fleet.ram as f64, fleets[1] * fleet.ram as f64];
        let (wc, lc) = if w == 0 { (c, o) } else { (o, c) };
        let row = pv::battle_row(true, factors[w], factors[1 - w]);
        st.apply(wc, pv::BATTLES, row, g.culture[wc as usize]);
        let row = pv::battle_row(false, factors[1 - w], factors[w]);
        st.apply(lc, pv::BATTLES, row, g.culture[lc as usize]);
    }
    game_log!(
        log,
        "month {month}: the fleets of {} meet those of {} off {}: {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[o as usize].name,
        g.scenario.countries[t as usize].name,
        match winner {
            Some(0) => "the attacker wins",
            Some(_) => "the defender wins",
            None => "undecided",
        }
    );
    winner == Some(0)
}
