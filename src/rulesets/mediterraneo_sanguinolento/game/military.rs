//! 8 MOVIMIENTO, COMBATE on the region graph (digest §4.12, §6.2), month by month (the targets are
//! chosen in `targets.rs`): marches paying each leg's PM (terrain, straits, winter ×2), the field
//! battle against a defending army, the siege of the capital (the siege code's hunger and
//! surrender) and its assault (the assault code), conquest (§19) with its PV, and the PV of invasion
//! suffered (the armies' food: `supply.rs`; foraging on a leg: `forage.rs`).

use super::battles::{self, has_troops, Side, Walls};
use super::forage;
use super::leaders::{self, Lead};
use super::policy::Scripted;
use super::pv;
use super::sack;
use super::scenario::{CountryId, COM, MET};
use super::state::{Land, Mission, State, Units, KINDS, NO_UNITS};
use super::weather::{self, Weather};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::siege;

pub use super::roads::UNREACHABLE;
pub use super::supply::MEN_PER_COM;
use super::targets::fort_of;
pub use super::targets::{capacity, choose_targets, march, may_march, sea_target, targets};

/// Whether game month `month` is a winter month of the scenario's calendar (L4502).
pub fn winter(g: &Game, month: u32) -> bool {
    g.scenario.calendar.winter & (1 << State::calendar(month)) != 0
}

/// Combat factors of some units on open ground (the target shortlist's yardstick).
pub fn strength(g: &Game, c: CountryId, units: &Units) -> f64 {
    let kinds = &g.kinds[c as usize];
    (0..KINDS).map(|k| units[k] * kinds[k].factor).sum()
}

/// PM a field army moves in a month: its slowest kind's allowance (L2030-L2074, mount breeding's
/// PM included).
fn allowance(g: &Game, st: &State, c: CountryId, units: &Units) -> u32 {
    let kinds = &g.kinds[c as usize];
    (0..KINDS)
        .filter(|&k| units[k] > 1e-9)
        .map(|k| super::mounts::movement(g, st, c, &kinds[k]))
        .min()
        .unwrap_or(0)
}

/// The defenders of node `t`: its holder's field army if it stands there idle, and the troops
/// holding it (the home garrison, or a conquered country's occupation troops).
pub(super) fn defenders(st: &State, t: CountryId) -> (CountryId, Units, Units) {
    let o = st.lands[t as usize].owner;
    let n = &st.nations[o as usize];
    let field = if n.at == t && n.mission == Mission::Idle {
        n.field
    } else {
        NO_UNITS
    };
    (o, field, *garrison(st, t))
}

/// Whether a militia holds `t`'s capital, which has no garrison, against `c`'s army: Rome's
/// Republican militia at its home, the militia standing there for its holder, or called now
/// (`militia::join`).
#[allow(clippy::too_many_arguments)]
fn militia_holds(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
) -> bool {
    let o = st.lands[t as usize].owner;
    if militia_at(st, t) > 0.0 || super::republican_militia::at(g, st, t, true) > 0.0 {
        return true;
    }
    let sides = [
        side(g, st, c, month),
        Side {
            mix: st.nations[o as usize].mix,
            ..Side::new(o, NO_UNITS, leaders::defender_lead(g, st, t, month))
        },
    ];
    let assault = Some(Walls {
        fort: fort_of(g, st, t),
        ..Walls::default()
    });
    let win = winter(g, month);
    super::militia::join(g, st, plans, t, assault, win, sides, month, dice) > 0.0
}

/// The militia standing in node `t` for its holder (`militia.rs`).
pub fn militia_at(st: &State, t: CountryId) -> f64 {
    st.lands[t as usize].militia
}

/// The troops holding node `t` for its holder: the home garrison, or the occupation troops of a
/// conquered country.
pub fn garrison(st: &State, t: CountryId) -> &Units {
    let o = st.lands[t as usize].owner;
    if o == t {
        &st.nations[o as usize].garrison
    } else {
        &st.lands[t as usize].garrison
    }
}

pub fn garrison_mut(st: &mut State, t: CountryId) -> &mut Units {
    let o = st.lands[t as usize].owner;
    if o == t {
        &mut st.nations[o as usize].garrison
    } else {
        &mut st.lands[t as usize].garrison
    }
}

/// One month of phase 8 for every nation, in country order.
pub fn month(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let n = st.nations.len();
    let win = winter(g, month);
    if g.weather_rolled {
        weather::roll(&mut st.weather, State::calendar(month), dice);
    }
    super::supply::month(g, st, plans, win);
    super::forced_march::new_month(st);
    for c in 0..n as CountryId {
        if !has_troops(&st.nations[c as usize].field) {
            st.nations[c as usize].mission = Mission::Idle;
            continue;
        }
        match st.nations[c as usize].mission {
            Mission::Idle => {}
            Mission::Return if st.nations[c as usize].by_sea => {
                super::naval::sail_home(g, st, c, month, dice)
            }
            Mission::Return => step(g, st, plans, c, c, win, dice),
            Mission::March { target } if st.nations[c as usize].by_sea => {
                if st.nations[c as usize].at != target
                    && !super::naval::cross(g, st, plans, c, target, month, dice, log)
                {
                    continue;
                }
                arrive(g, st, plans, c, target, month, dice, log);
            }
            Mission::March { target } => {
                if st.nations[c as usize].at != target {
                    step(g, st, plans, c, target, win, dice);
                    if super::interception::check(g, st, plans, c, target, month, dice, log) {
                        continue;
                    }
                }
                if st.nations[c as usize].at == target {
                    arrive(g, st, plans, c, target, month, dice, log);
                }
            }
            Mission::Siege { target, months } => {
                siege_month(g, st, plans, c, target, months + 1, month, dice, log)
            }
            Mission::Pillage { target } => {
                let nat = &st.nations[c as usize];
                let units: f64 = nat.field.iter().sum();
                if nat.at == target
                    && units >= sack::PILLAGE_MIN_UNITS
                    && st.lands[target as usize].owner != c
                {
                    sack::pillage(g, st, c, target, month, log);
                }
                st.nations[c as usize].mission = Mission::Return;
                st.nations[c as usize].raid = false;
            }
        }
    }
    invasions(g, st);
    super::interception::count_idle_months(st);
}

/// How many times its PM a leg costs: doubled in winter (L4502) and doubled by storm or snow in the
/// zone entered (L5685); both together ×4, or ×2 with option winter_and_storm = "once" (A14).
pub fn movement_multiplier(g: &Game, winter: bool, severe: bool) -> u32 {
    match (winter, severe) {
        (false, false) => 1,
        (true, true) if g.winter_and_storm_both => 4,
        _ => 2,
    }
}

/// The month's weather in the zone of node `t`.
pub fn weather_at(g: &Game, st: &State, t: CountryId) -> Weather {
    st.weather[g.scenario.nodes[t as usize].zone as usize]
}

/// Moves `c`'s field army toward `to` with this month's PM, forcing the march where its policy
/// does (`forced_march.rs`); Return ends at home.
fn step(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    to: CountryId,
    win: bool,
    dice: &mut Dice,
) {
    let weather = st.weather;
    let units = st.nations[c as usize].field;
    let pm = super::supply::pace(g, st, c, allowance(g, st, c, &units));
    let mut forced = super::forced_march::Offer::new(g, st, plans, c, to, win);
    let forager = forage::Forager::new(g, st, &plans[c as usize], c, pm);
    let (roads, walls, counts, lands, ledger) = (
        &st.roads,
        &st.walls,
        &mut st.counts,
        &st.lands,
        &mut st.ledger,
    );
    let nat = &mut st.nations[c as usize];
    nat.progress += pm;
    while nat.at != to {
        let next = roads.next(g, nat.at, to);
        if next == UNREACHABLE {
            nat.mission = Mission::Idle;
            nat.progress = 0;
            return;
        }
        let severe = weather[g.scenario.nodes[next as usize].zone as usize].severe();
        let hexes = super::roads::link_index(&g.scenario, nat.at, next)
            .map_or(0, |i| g.scenario.links[i].hexes as i64);
        let com = forager.leg(g, lands, nat.supply.food, next, hexes);
        let cost = (roads.leg(g, nat.at, next).unwrap_or(u32::MAX / 4)
            + super::walls::crossing(g, walls, lands, c, nat.at, next))
            * movement_multiplier(g, win, severe)
            + if com > 0 {
                forage::PM_PER_HEX * hexes as u32
            } else {
                0
            };
        if nat.progress < cost {
            // A forced march hurries a march, not its foraging.
            if com == 0 && forced.force(nat, counts, next == to, cost - nat.progress, dice) {
                continue;
            }
            return;
        }
        nat.progress -= cost;
        nat.at = next;
        if com > 0 {
            forage::gather(nat, ledger, &mut counts.foraged_com, com);
        }
    }
    nat.progress = 0;
    if nat.mission == Mission::Return {
        nat.mission = Mission::Idle;
    }
}

/// Sends `c`'s field army home after a failed attack, with its truce against `o`.
pub fn fall_back(st: &mut State, plans: &[Scripted], c: CountryId, o: CountryId) {
    let turn = st.turn;
    let nat = &mut st.nations[c as usize];
    nat.mission = Mission::Return;
    nat.progress = 0;
    nat.truce = (o, turn + plans[c as usize].peace);
}

#[allow(clippy::too_many_arguments)]
fn arrive(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let (o, _, _) = defenders(st, t);
    if o == c {
        st.nations[c as usize].mission = Mission::Return;
        return;
    }
    // A client's, associate's or defensive ally's protector may meet an army arriving by land
    // first (alliances.rs).
    if !st.nations[c as usize].by_sea
        && super::alliances::defend(g, st, plans, c, o, t, month, dice, log)
    {
        return;
    }
    let (_, field, _) = defenders(st, t);
    if has_troops(&field) {
        let mut sides = [
            side(g, st, c, month),
            Side {
                mix: st.nations[o as usize].mix,
                mercs: st.nations[o as usize].mercs,
                ..Side::new(o, field, defending_lead(g, st, t, month))
            },
        ];
        let (win, weather) = (winter(g, month), weather_at(g, st, t));
        super::republican_militia::join(g, st, t, false, &mut sides[1]);
        sides[1].militia = super::militia::join(g, st, plans, t, None, win, sides, month, dice);
        let fought = if st.nations[c as usize].by_sea && !st.nations[c as usize].landed {
            let fleets = st.nations[c as usize].fleets;
            battles::landing_battle(g, t, win, weather, sides, fleets, dice)
        } else {
            battles::field_battle(g, t, win, weather, sides, dice)
        };
        st.nations[c as usize].landed = true;
        st.counts.battles += 1;
        settle(g, st, c, o, &fought, None);
        super::militia::lose(g, st, t, fought.militia_lost[1], month);
        super::republican_militia::lose(g, st, fought.republican_lost[1]);
        leaders::after_battle(g, st, &sides, &fought, month, dice);
        game_log!(
            log,
            "month {month}: {} attacks {} in {}: {}",
            g.scenario.countries[c as usize].name,
            g.scenario.countries[o as usize].name,
            g.scenario.countries[t as usize].name,
            match fought.winner {
                Some(0) => "the attacker wins",
                Some(_) => "the defender wins",
                None => "undecided",
            }
        );
        if fought.winner != Some(0) {
            fall_back(st, plans, c, o);
            return;
        }
        // The beaten defenders shut themselves in the node's cities.
        let beaten = std::mem::replace(&mut st.nations[o as usize].field, NO_UNITS);
        let held = garrison_mut(st, t);
        for k in 0..KINDS {
            held[k] += beaten[k];
        }
    }
    if st.nations[c as usize].raid {
        // A raid does not besiege: it spends next month pillaging the country (§3.9).
        st.nations[c as usize].mission = Mission::Pillage { target: t };
        return;
    }
    st.nations[c as usize].mission = Mission::Siege {
        target: t,
        months: 0,
    };
    let fort = fort_of(g, st, t);
    super::engines::start(g, st, c, &plans[c as usize], fort);
    // An undefended country falls at once.
    let (_, _, garrison) = defenders(st, t);
    if !has_troops(&garrison) && !militia_holds(g, st, plans, c, t, month, dice) {
        conquer(g, st, c, t, &plans[c as usize], month, log);
    }
}

/// `c`'s field army under its commander.
pub(super) fn side(g: &Game, st: &State, c: CountryId, month: u32) -> Side {
    Side {
        mix: st.nations[c as usize].mix,
        mercs: st.nations[c as usize].mercs,
        unsupplied: st.nations[c as usize].unsupplied,
        fatigue: st.nations[c as usize].march.fatigue,
        ..Side::new(
            c,
            st.nations[c as usize].field,
            leaders::field_lead(g, st, c, month),
        )
    }
}

/// The commander of the army defending node `t` in the field: its holder's field army's (at
/// home, whoever commands there).
pub(super) fn defending_lead(g: &Game, st: &State, t: CountryId, month: u32) -> Lead {
    leaders::field_lead(g, st, st.lands[t as usize].owner, month)
}

/// A month of siege of `t`'s capital; at the policy's month count, the assault.
#[allow(clippy::too_many_arguments)]
fn siege_month(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    t: CountryId,
    months: u8,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let (o, _, garrison) = defenders(st, t);
    if o == c {
        st.nations[c as usize].mission = Mission::Return;
        return;
    }
    if !has_troops(&garrison) && !militia_holds(g, st, plans, c, t, month, dice) {
        conquer(g, st, c, t, &plans[c as usize], month, log);
        return;
    }
    st.nations[c as usize].mission = Mission::Siege { target: t, months };
    let fort = fort_of(g, st, t);
    let kinds = &g.kinds[o as usize];
    // A militia holding the capital alone is the besieged: its mouths and its morale; Rome's
    // Republican militia is besieged with the garrison.
    let militia = if has_troops(&garrison) {
        0.0
    } else {
        militia_at(st, t)
    };
    let bodies = [
        (g.militia.kind, militia),
        (
            g.republican.kind,
            super::republican_militia::at(g, st, t, true),
        ),
    ];
    let men: f64 = (0..KINDS).map(|k| garrison[k] * kinds[k].men).sum::<f64>()
        + bodies.iter().map(|(k, u)| u * k.men).sum::<f64>();
    let value = super::special::morale_value;
    let mix = &st.nations[o as usize].mix;
    let morale = ((0..KINDS)
        .filter(|&k| garrison[k] > 1e-9)
        .map(|k| value(&kinds[k], &mix[k]) * garrison[k] * kinds[k].men)
        .sum::<f64>()
        + bodies
            .iter()
            .map(|(k, u)| value(k, &[0.0; 4]) * u * k.men)
            .sum::<f64>())
        / men.max(1.0);
    let pob = g.scenario.production[t as usize][super::scenario::POB];
    let food = st.nations[o as usize].stock[COM].max(0) as u32;
    // The engine helps the siege too (L3672).
    let engine = super::engines::ready(g, st, c, months as u32);
    let course = siege::timeline(
        fort.saturating_sub(super::engines::effect(g, engine)),
        false,
        morale,
        men as u32,
        pob,
        food,
        true,
        months as u32,
    );
    if course.surrender.is_some() {
        st.counts.surrenders += 1;
        game_log!(
            log,
            "month {month}: {} surrenders to {} ({})",
            g.scenario.countries[t as usize].name,
            g.scenario.countries[c as usize].name,
            course.why
        );
        // Its troops are the taker's slaves (L3576); its militia dies with the country.
        super::slaves::surrendered(st, c, State::men(&garrison, &g.men_per_unit(o)));
        conquer(g, st, c, t, &plans[c as usize], month, log);
        return;
    }
    if months < plans[c as usize].siege_months {
        return;
    }
    let mut sides = [
        side(g, st, c, month),
        Side {
            mix: st.nations[o as usize].mix,
            ..Side::new(o, garrison, leaders::defender_lead(g, st, t, month))
        },
    ];
    let walls = Walls {
        fort,
        months: months as u32,
        engine: super::engines::ready(g, st, c, months as u32),
    };
    let win = winter(g, month);
    super::republican_militia::join(g, st, t, true, &mut sides[1]);
    sides[1].militia = super::militia::join(g, st, plans, t, Some(walls), win, sides, month, dice);
    let fought = battles::assault(
        g,
        walls,
        winter(g, month),
        weather_at(g, st, t),
        sides,
        dice,
    );
    st.counts.assaults += 1;
    settle(g, st, c, o, &fought, Some(t));
    super::militia::lose(g, st, t, fought.militia_lost[1], month);
    super::republican_militia::lose(g, st, fought.republican_lost[1]);
    leaders::after_battle(g, st, &sides, &fought, month, dice);
    game_log!(
        log,
        "month {month}: {} assaults {} (walls {fort}, {months} months of siege): {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name,
        if fought.winner == Some(0) {
            "taken"
        } else {
            "repulsed"
        }
    );
    if fought.winner == Some(0) {
        conquer(g, st, c, t, &plans[c as usize], month, log);
    } else {
        fall_back(st, plans, c, o);
    }
}

/// Losses, loot, the battle PV and the year's "fought" flag after a fight between `c`'s field army
/// and `o`'s field army (or the troops holding node `assaulted`, in an assault); a militia's
/// losses are settled by the caller, which knows its country (`militia::lose`).
pub fn settle(
    g: &Game,
    st: &mut State,
    c: CountryId,
    o: CountryId,
    f: &battles::Fought,
    assaulted: Option<CountryId>,
) {
    for (k, who) in [c, o].into_iter().enumerate() {
        let mpu = g.men_per_unit(who);
        let stack = match assaulted {
            Some(t) if k == 1 => garrison_mut(st, t),
            _ => &mut st.nations[who as usize].field,
        };
        let mut men = 0.0;
        for kind in 0..KINDS {
            let lost = f.lost[k][kind].min(stack[kind]);
            stack[kind] -= lost;
            if stack[kind] < 1e-9 {
                stack[kind] = 0.0;
            }
            men += lost * mpu[kind];
        }
        st.ledger.men_lost += men;
        // The field army's mercenary bands (an assaulted garrison has none).
        if !(assaulted.is_some() && k == 1) {
            let mut band_men = 0.0;
            for (b, band) in st.nations[who as usize].mercs.iter_mut().enumerate() {
                let lost = f.merc_lost[k][b].min(band.units);
                band.units -= lost;
                band_men += lost * super::mercenaries::kind(g, band.source).map_or(0.0, |x| x.men);
                if band.units < 1e-9 {
                    *band = super::mercenaries::Band::NONE;
                }
            }
            st.ledger.men_lost += band_men;
            st.counts.mercenary_men_lost += band_men;
            st.counts.mercenary_casualties_moved += f.merc_moved[k];
        }
        st.nations[who as usize].fought_this_year = true;
        st.nations[who as usize].fought_month = st.month;
        if f.winner == Some(k) {
            super::slaves::captured(st, who, f.slaves[k]);
            st.gain(who, MET, f.metal[k].floor() as i64);
        }
    }
    super::supply::beaten(g, st, [c, o], f, assaulted);
    if let Some(w) = f.winner {
        let (winner, loser) = if w == 0 { (c, o) } else { (o, c) };
        let row = pv::battle_row(true, f.factors[w], f.factors[1 - w]);
        st.apply(winner, pv::BATTLES, row, g.culture[winner as usize]);
        let row = pv::battle_row(false, f.factors[1 - w], f.factors[w]);
        st.apply(loser, pv::BATTLES, row, g.culture[loser as usize]);
    }
}

/// `c` takes country `t` (all its cities, its last units there): PV for both sides, the land's
/// collection schedule restarts, and a home country's stock and garrison are gone with it.
pub fn conquer(
    g: &Game,
    st: &mut State,
    c: CountryId,
    t: CountryId,
    plan: &Scripted,
    month: u32,
    log: &mut dyn GameLog,
) {
    let o = st.lands[t as usize].owner;
    let (cc, co) = (g.culture[c as usize], g.culture[o as usize]);
    // The land's people keep their indices, the loser's rows apart (`revolt.rs`).
    super::city_revolt::sync_land(g, st, t);
    let carried = super::revolt::carried(st, t);
    st.apply(c, pv::CONQUEST, pv::CONQUERING_TERRITORY, cc);
    losing_rows(g, st, o, t);
    let mpu = g.men_per_unit(o);
    // The last units of the holder there end with the country (§19).
    let held = std::mem::replace(garrison_mut(st, t), NO_UNITS);
    st.ledger.men_lost += State::men(&held, &mpu);
    // Its militia dies defending it.
    if st.lands[t as usize].militia > 0.0 {
        super::militia::destroyed(g, st, t, month);
    }
    super::republican_militia::home_lost(g, st, t);
    if t == o {
        st.apply(o, pv::CONQUEST, pv::LOSING_MAIN_COUNTRY, co);
        let nat = &mut st.nations[o as usize];
        let left = State::men(&nat.training, &mpu);
        nat.training = NO_UNITS;
        nat.work = (0, 0);
        st.ledger.men_lost += left;
        st.transfer_stock(o, c);
        // The fleets in its port fall to the taker (L2459).
        super::repairs::port_taken(st, c, o);
    }
    st.lands[t as usize] = Land {
        owner: c,
        taken_month: month,
        collections: 0,
        garrison: NO_UNITS,
        ..st.lands[t as usize]
    };
    *super::revolt::index_mut(st, t) = carried;
    super::city_revolt::changed_hands(g, st, t);
    // The conqueror leaves its policy's share of the field army to hold it (§4.17 occupation).
    let share = plan.occupation.clamp(0.0, 1.0);
    let nat = &mut st.nations[c as usize];
    let mut left = NO_UNITS;
    for k in 0..KINDS {
        left[k] = nat.field[k] * share;
        nat.field[k] -= left[k];
    }
    let held = garrison_mut(st, t);
    for k in 0..KINDS {
        held[k] += left[k];
    }
    st.counts.conquests += 1;
    st.nations[c as usize].conquests += 1;
    st.nations[c as usize].mission = Mission::Return;
    game_log!(
        log,
        "month {month}: {} conquers {} from {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name,
        g.scenario.countries[o as usize].name
    );
    // The moment of conquest is the only moment to sack (L4404).
    sack::at_conquest(g, st, c, t, plan, month, log);
}

/// The rows `o` scores for losing country `t`: the territory and each of its cities.
pub fn losing_rows(g: &Game, st: &mut State, o: CountryId, t: CountryId) {
    let co = g.culture[o as usize];
    st.apply(o, pv::CONQUEST, pv::LOSING_TERRITORY, co);
    for _ in 0..g.scenario.countries[t as usize].cities.len() {
        st.apply(o, pv::CONQUEST, pv::LOSING_A_CITY, co);
    }
}

/// Nodes with an enemy field army standing in them on a mission against them (marching on them
/// or besieging them), one flag per country.
pub fn invaded(st: &State) -> [bool; 256] {
    let mut out = [false; 256];
    for n in &st.nations {
        if let Mission::March { target }
        | Mission::Siege { target, .. }
        | Mission::Pillage { target } = n.mission
        {
            if n.at == target && has_troops(&n.field) {
                out[target as usize] = true;
            }
        }
    }
    out
}

/// Capitals under siege this month, one flag per country (their works stop, L3676).
pub fn besieged(st: &State) -> [bool; 256] {
    let mut out = [false; 256];
    for n in &st.nations {
        if let Mission::Siege { target, .. } = n.mission {
            out[target as usize] = true;
        }
    }
    out
}

/// The PV of invasion suffered: a country with an enemy army in it this month (its holder's PV;
/// a province's index, `revolt::suffered`). The months are counted on the land's own country.
fn invasions(g: &Game, st: &mut State) {
    let invaded = invaded(st);
    for l in 0..st.nations.len() {
        if !invaded[l] {
            st.nations[l].invaded_months = 0;
            continue;
        }
        let row = if st.nations[l].invaded_months == 0 {
            pv::FIRST_MONTH_OF_INVASION
        } else {
            pv::FOLLOWING_MONTH_OF_INVASION
        };
        st.nations[l].invaded_months += 1;
        super::revolt::suffered(g, st, l as CountryId, pv::INVASION, row);
    }
    super::militia::month_end(g, st, &invaded);
    super::republican_militia::month_end(g, st, &invaded);
}
