//! Crossings by sea (digest §3.5, §3.6, §4.12, §4.15) on the region graph's sea lanes: an army
//! whose target lies out of reach by land sails from its home port with what its fleets carry,
//! in one month (a sea lane is at most about 20 hexes, within a month's fleet PM). Every fleet
//! that sails risks the storm of the month's weather (the battle code's
//! `naval::storm_loss_chance`: the storm number of the worse of the two ends' zones, +2 in
//! winter, +2 on the Atlantic or Indian ocean); a fleet hit loses 1D10 ships and the troops they
//! carried. The target's holder, if it is its home, intercepts with the fleets in its port on
//! 1D6 + its naval leader's leadership - 0 hexes (`fleets::intercepts`, A36) and the fleets
//! fight a naval battle through the battle code (`naval::build`, ram combat by its defaults);
//! the crossing goes on only if the attacker wins it, else the army is back in its port. Ashore,
//! the first fight is a landing (`battles::landing_battle`). Coming home, the army sails back
//! through the same storms.

use super::battles::has_troops;
use super::fleets;
use super::military::{fall_back, weather_at, winter};
use super::policy::Scripted;
use super::pv;
use super::repairs;
use super::scenario::{CountryId, SEAS};
use super::state::{Mission, State, KINDS};
use super::weather::Weather;
use super::works::Work;
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
pub(super) fn crossing_weather(g: &Game, st: &State, a: CountryId, b: CountryId) -> &'static str {
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
pub(super) fn ocean(g: &Game, a: CountryId, b: CountryId) -> bool {
    let oceans = SEAS
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(**s, "atlantic" | "indian"))
        .fold(0u8, |m, (i, _)| m | 1 << i);
    let common = g.scenario.nodes[a as usize].seas & g.scenario.nodes[b as usize].seas;
    common != 0 && common & !oceans == 0
}

/// Which of a nation's squadrons sails: the army's warfleets and transports, or its pirates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squadron {
    Army,
    Pirates,
}

/// The fleets of `c`'s squadron by kind: [warfleets or pirate fleets, transports].
pub fn squadron(st: &State, c: CountryId, sq: Squadron) -> [f64; 2] {
    let n = &st.nations[c as usize];
    match sq {
        Squadron::Army => [n.fleets, n.transports],
        Squadron::Pirates => [n.pirates, 0.0],
    }
}

/// Storms on `c`'s squadron sailing between `a` and `b` this month: each whole fleet risks
/// the storm and loses 1D10 ships; an army's troops aboard the sunk ships go down with them
/// (an even share of the army aboard).
#[allow(clippy::too_many_arguments)]
pub(super) fn storms(
    g: &Game,
    st: &mut State,
    c: CountryId,
    sq: Squadron,
    a: CountryId,
    b: CountryId,
    month: u32,
    dice: &mut Dice,
) {
    let weather = crossing_weather(g, st, a, b);
    let chance = battle::storm_loss_chance(weather, winter(g, month), ocean(g, a, b), false);
    let fleets = squadron(st, c, sq);
    let mut sunk = [0.0; 2];
    for kind in 0..2 {
        for _ in 0..fleets[kind].floor() as u32 {
            if dice.chance(chance) {
                sunk[kind] += dice.d(10) as f64;
            }
        }
    }
    let total = sunk[0] + sunk[1];
    if total == 0.0 {
        return;
    }
    let share = total / ((fleets[0].floor() + fleets[1].floor()) * SHIPS_PER_FLEET);
    lose_ships(g, st, c, sq, sunk, share);
    st.counts.ships_lost_to_storms += total;
}

/// `c`'s squadron loses `ships` of each kind (at most what it has), and its army `share` of the
/// troops aboard (none for pirates).
fn lose_ships(g: &Game, st: &mut State, c: CountryId, sq: Squadron, ships: [f64; 2], share: f64) {
    let mpu = g.men_per_unit(c);
    let n = &mut st.nations[c as usize];
    let mut gone = 0.0;
    let mut cut = |fleets: &mut f64, lost: f64| {
        let before = (*fleets * SHIPS_PER_FLEET).round();
        let after = (before - lost).max(0.0);
        gone += before - after;
        *fleets = after / SHIPS_PER_FLEET;
    };
    match sq {
        Squadron::Army => {
            cut(&mut n.fleets, ships[0]);
            cut(&mut n.transports, ships[1]);
        }
        Squadron::Pirates => cut(&mut n.pirates, ships[0] + ships[1]),
    }
    st.ledger.ships_lost += gone;
    if sq == Squadron::Pirates {
        return;
    }
    let n = &mut st.nations[c as usize];
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
    storms(g, st, c, Squadron::Army, from, t, month, dice);
    if !has_troops(&st.nations[c as usize].field) {
        back_home(st, c);
        return false;
    }
    let o = st.lands[t as usize].owner;
    // The holder's fleets sail out with 10 ships at least (L1246); storms may have left the
    // crossing fleets with fewer, but those still fight.
    if o == t
        && st.nations[o as usize].fleets >= 1.0
        && st.nations[c as usize].fleets + st.nations[c as usize].transports > 0.0
        && !refuses(g, st, &plans[o as usize], o, c)
        && fleets::intercepts(g, st, o, 0, dice)
    {
        let won = naval_battle(g, st, c, Squadron::Army, o, from, t, month, dice, log);
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

/// Whether `o`'s fleets stay in their naval base instead of meeting `c`'s crossing (L2382-L2384:
/// in a base they may refuse; in a mere port or coastal city they must fight): with a base at a
/// home it holds, when its warfleets' ram factors fall below its policy's `refuse_naval` times
/// the crossing fleets'. On the graph a refusal lets the crossing land (the fleet outside may only
/// blockade the base, L2382) and keeps the home fleets whole; they are lost with the port only if
/// the land falls (L2378: a base is not forced without holding the land).
pub fn refuses(g: &Game, st: &mut State, p: &Scripted, o: CountryId, c: CountryId) -> bool {
    let Some(fleet) = g.scenario.fleet else {
        return false;
    };
    if st.lands[o as usize].owner != o || st.works[o as usize].built(Work::NavalBase) == 0 {
        return false;
    }
    let ram = |f: [f64; 2]| f[0] * fleet.ram as f64 + f[1] * fleets::transport().ram as f64;
    let own = ram(squadron(st, o, Squadron::Army));
    let theirs = ram(squadron(st, c, Squadron::Army));
    let refused = own < p.refuse_naval * theirs;
    st.counts.naval_battles_refused += refused as u32;
    refused
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
    storms(g, st, c, Squadron::Army, from, c, month, dice);
    back_home(st, c);
}

/// The naval battle of `c`'s squadron `sq` (attacking: the army's fleets with the army aboard,
/// or its pirates) against `o`'s warfleets and transports in port, through the battle code: one
/// play of `naval::build` on the fleets as they stand (ram combat; crews of regular C morale,
/// pirates irregular D; barbarian ships for a barbarian country; each side's best naval leader
/// brings his tactical value to the leadership table). The ships each side has put out of action
/// are split between its kinds by their ships and settled by `repairs::settle`: boarded ones
/// taken by the enemy (A32, option boarding_captures), the rest damaged in port if its fleet
/// survived (A29, option naval_losses) or lost; the attacker's army goes down with its ships put
/// out of action; the PV of a battle won or lost by the fleets' ram factors. True if
/// the attacker wins.
#[allow(clippy::too_many_arguments)]
pub(super) fn naval_battle(
    g: &Game,
    st: &mut State,
    c: CountryId,
    sq: Squadron,
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
    let transport = fleets::transport();
    // The attacking fleets as the storms left them, single ships included; the holder's whole.
    let defending = squadron(st, o, Squadron::Army);
    let ships = [squadron(st, c, sq), defending.map(f64::floor)];
    let mut table = toml::Table::new();
    table.insert("weather".into(), crossing_weather(g, st, from, t).into());
    table.insert("winter".into(), winter(g, month).into());
    let mut led = false;
    for (i, who) in [c, o].into_iter().enumerate() {
        let mut side = toml::Table::new();
        let mut kinds = toml::Table::new();
        kinds.insert(fleet.code.clone(), ships[i][0].into());
        if ships[i][1] > 0.0 {
            kinds.insert(transport.code.clone(), ships[i][1].into());
        }
        side.insert("fleets".into(), kinds.into());
        side.insert("barbarian".into(), fleets::barbarian(g, who).into());
        if i == 0 && sq == Squadron::Pirates {
            side.insert("morale".into(), "D".into());
            side.insert("quality".into(), "irregular".into());
        }
        if let Some(admiral) = fleets::admiral(st, who) {
            side.insert("leader".into(), (admiral.tactical as i64).into());
            led = true;
        }
        table.insert(SIDES[i].into(), side.into());
    }
    let model = battle::build(&Fields::new("naval battle", &table), g.options.clone())
        .expect("a naval battle the game sets up is valid");
    let mut trial = Trial::default();
    model.trial(dice, &mut trial);
    let schema = model.schema();
    st.counts.naval_battles += 1;
    st.counts.naval_led_battles += led as u32;
    let winner = (trial.outcome < 2).then_some(trial.outcome);
    let count = |i: usize, what: &str| {
        schema
            .count_index(&side_column(SIDES[i], what))
            .map_or(0, |k| trial.counts[k]) as f64
    };
    let lost = [count(0, LOSSES), count(1, LOSSES)];
    // A32 by option boarding_captures: taken[i] = ships side i takes from the other.
    let boarded = [count(0, "captured"), count(1, "captured")];
    let taken = repairs::captures(boarded, winner, repairs::Captures::of(g));
    let to_enemy = [taken[1].min(lost[0]), taken[0].min(lost[1])];
    let kinds = [sq, Squadron::Army];
    let handed = [0, 1].map(|i| repairs::handed_over(ships[i], lost[i], to_enemy[i]));
    let mut factors = [0.0; 2];
    for (i, who) in [c, o].into_iter().enumerate() {
        let aboard = ships[i][0] + ships[i][1];
        let share = if i == 0 && aboard > 0.0 {
            lost[i] / (aboard * SHIPS_PER_FLEET)
        } else {
            0.0
        };
        // The army aboard the ships put out of action goes down with them.
        lose_ships(g, st, who, kinds[i], [0.0; 2], share);
        repairs::settle(
            g,
            st,
            who,
            kinds[i],
            ships[i],
            lost[i],
            to_enemy[i],
            handed[1 - i],
        );
        st.counts.ships_lost_in_battle += lost[i];
        st.nations[who as usize].fought_this_year = true;
        factors[i] = ships[i][0] * fleet.ram as f64 + ships[i][1] * transport.ram as f64;
    }
    if let Some(w) = winner {
        let (wc, lc) = if w == 0 { (c, o) } else { (o, c) };
        let row = pv::battle_row(true, factors[w], factors[1 - w]);
        st.apply(wc, pv::BATTLES, row, g.culture[wc as usize]);
        let row = pv::battle_row(false, factors[1 - w], factors[w]);
        st.apply(lc, pv::BATTLES, row, g.culture[lc as usize]);
    }
    game_log!(
        log,
        "month {month}: the {} of {} meet the fleets of {} off {}: {}",
        if sq == Squadron::Pirates {
            "pirates"
        } else {
            "fleets"
        },
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
