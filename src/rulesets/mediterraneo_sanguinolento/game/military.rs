//! 8 MOVIMIENTO, COMBATE on the region graph (digest §4.12, §6.2), month by month: targets chosen by
//! the battle code's odds, marches paying each leg's PM (terrain, straits, winter ×2), the field
//! battle against a defending army, the siege of the capital (the siege code's hunger and
//! surrender) and its assault (the assault code), conquest (§19) with its PV, offensive food and
//! the PV of invasion suffered.

use super::battles::{self, has_troops, Side};
use super::diplomacy;
use super::leaders::{self, Lead};
use super::mercenaries::NO_BANDS;
use super::policy::Scripted;
use super::pv;
use super::sack;
use super::scenario::{CountryId, COM, ESC, MET};
use super::state::{Land, Mission, State, Units, KINDS, NO_UNITS};
use super::weather::{self, Weather};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::siege;

pub use super::roads::UNREACHABLE;
/// Men per COM of offensive food a month (L2090).
pub const MEN_PER_COM: f64 = 200.0;

/// Whether game month `month` is a winter month of the scenario's calendar (L4502).
pub fn winter(g: &Game, month: u32) -> bool {
    g.scenario.calendar.winter & (1 << State::calendar(month)) != 0
}

/// Combat factors of some units on open ground (the target shortlist's yardstick).
pub fn strength(g: &Game, c: CountryId, units: &Units) -> f64 {
    let kinds = &g.kinds[c as usize];
    (0..KINDS).map(|k| units[k] * kinds[k].factor).sum()
}

/// PM a field army moves in a month: its slowest kind's allowance (L2030-L2074).
fn allowance(g: &Game, c: CountryId, units: &Units) -> u32 {
    let kinds = &g.kinds[c as usize];
    (0..KINDS)
        .filter(|&k| units[k] > 1e-9)
        .map(|k| kinds[k].movement)
        .min()
        .unwrap_or(0)
}

/// The defenders of node `t`: its holder's field army if it stands there idle, and the troops
/// holding it (the home garrison, or a conquered country's occupation troops).
fn defenders(st: &State, t: CountryId) -> (CountryId, Units, Units) {
    let o = st.lands[t as usize].owner;
    let n = &st.nations[o as usize];
    let field = if n.at == t && n.mission == Mission::Idle {
        n.field
    } else {
        NO_UNITS
    };
    (o, field, *garrison(st, t))
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

/// Whether country `c`'s field army stands idle at its home with troops, free to pick a target.
pub fn may_march(st: &State, c: CountryId) -> bool {
    let nat = &st.nations[c as usize];
    st.lands[c as usize].owner == c
        && nat.mission == Mission::Idle
        && nat.at == c
        && has_troops(&nat.field)
}

/// Whether `t` is a target for `c` now: held by another, reachable by land, and not the holder
/// `c` keeps a truce with. (`t` must be a land neighbour of a country `c` holds.)
fn open_target(g: &Game, st: &State, c: CountryId, t: CountryId, turn: u32) -> bool {
    let n = st.nations.len();
    let o = st.lands[t as usize].owner;
    let truce = st.nations[c as usize].truce;
    o != c
        && g.next[c as usize * n + t as usize] != UNREACHABLE
        && !(truce.0 == o && turn < truce.1)
}

/// The scripted shortlist's score of target `t` for an army of `own` combat factors: own factors
/// over its defenders' (the garrison times its walls).
fn target_score(g: &Game, st: &State, own: f64, t: CountryId) -> f64 {
    let (o, f, gar) = defenders(st, t);
    let fort = fort_of(g, st, t).max(1) as f64;
    own / (strength(g, o, &f) + strength(g, o, &gar) * fort + 1e-9)
}

/// Every open target of `c` with its scripted score: land neighbours of the countries it holds
/// (once per neighbour link: a target bordering two of its lands is offered twice), then the
/// overseas targets of its home port, their score for the force its fleets carry weighted by
/// `overseas` (none at 0). The lands of a treaty partner are targets only if the policy
/// `breaks` treaties.
pub fn targets(
    g: &Game,
    st: &State,
    c: CountryId,
    turn: u32,
    overseas: f64,
    breaks: bool,
    mut offer: impl FnMut(CountryId, f64),
) {
    let field = &st.nations[c as usize].field;
    let own = strength(g, c, field);
    let allowed = |t: CountryId| breaks || !diplomacy::bound(g, st, c, st.lands[t as usize].owner);
    for l in 0..st.nations.len() {
        if st.lands[l].owner != c {
            continue;
        }
        for &t in &g.neighbours[l] {
            if open_target(g, st, c, t, turn) && allowed(t) {
                offer(t, target_score(g, st, own, t));
            }
        }
    }
    if overseas <= 0.0 {
        return;
    }
    let carried = strength(g, c, &carried(g, st, c, field));
    for l in g.scenario.links(c) {
        if sea_target(g, st, c, l.to, turn) && allowed(l.to) {
            offer(l.to, overseas * target_score(g, st, carried, l.to));
        }
    }
}

/// Whether `c` can cross the sea to `t` now: a sea lane from its home port (held, with a whole
/// fleet, 10 ships, to move, L1246), `t` out of reach by land, held by another, no truce.
pub fn sea_target(g: &Game, st: &State, c: CountryId, t: CountryId, turn: u32) -> bool {
    let n = st.nations.len();
    let o = st.lands[t as usize].owner;
    let truce = st.nations[c as usize].truce;
    g.scenario.fleet.is_some()
        && st.lands[c as usize].owner == c
        && st.nations[c as usize].fleets + st.nations[c as usize].transports >= 1.0
        && g.next[c as usize * n + t as usize] == UNREACHABLE
        && o != c
        && !(truce.0 == o && turn < truce.1)
        && g.scenario.links(c).iter().any(|l| l.sea && l.to == t)
}

/// Units `c`'s warfleets and transports carry (whole fleets, digest §3.1.8; 0 without fleets).
pub fn capacity(g: &Game, st: &State, c: CountryId) -> f64 {
    g.scenario.fleet.map_or(0.0, |f| {
        let n = &st.nations[c as usize];
        n.fleets.floor() * f.carries_units as f64
            + n.transports.floor() * super::fleets::transport().carries_units as f64
    })
}

/// The part of `units` `c`'s fleets carry: all of them, or an equal share of each kind.
fn carried(g: &Game, st: &State, c: CountryId, units: &Units) -> Units {
    let total: f64 = units.iter().sum();
    let share = if total > 0.0 {
        (capacity(g, st, c) / total).min(1.0)
    } else {
        0.0
    };
    units.map(|u| u * share)
}

/// Whether `t` is a land neighbour of a country `c` holds.
fn borders(g: &Game, st: &State, c: CountryId, t: CountryId) -> bool {
    (0..st.nations.len()).any(|l| st.lands[l].owner == c && g.neighbours[l].contains(&t))
}

/// The start of phase 8: every nation with its field army idle at home may pick a target.
pub fn choose_targets(g: &Game, st: &mut State, plans: &[Scripted], turn: u32, dice: &mut Dice) {
    let n = st.nations.len();
    for c in 0..n as CountryId {
        let p = &plans[c as usize];
        if !may_march(st, c) {
            continue;
        }
        // A target the search player named is marched on whatever the odds, if still open.
        let breaks = p.break_treaties >= 0.5;
        let named = p.target.filter(|&t| {
            ((borders(g, st, c, t) && open_target(g, st, c, t, turn))
                || (p.overseas > 0.0 && sea_target(g, st, c, t, turn)))
                && (breaks || !diplomacy::bound(g, st, c, st.lands[t as usize].owner))
        });
        if let Some(t) = named {
            set_out(g, st, c, t, p, turn);
            continue;
        }
        if !g.random[c as usize] && p.attack > 1.0 {
            continue;
        }
        // Candidates: land neighbours of every country it holds, held by another, reachable.
        let mut best: Option<(f64, CountryId)> = None;
        let mut count = 0u32;
        let random = g.random[c as usize];
        targets(g, st, c, turn, p.overseas, breaks, |t, score| {
            count += 1;
            let score = if random { dice.uniform() } else { score };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, t));
            }
        });
        let Some((score, target)) = best else {
            continue;
        };
        // A raid (pillage, §3.9) goes by land only (by sea it takes pirate fleets: super::pirates).
        let may_raid = |st: &State| {
            !sea_target(g, st, c, target, turn) && sack::wants_raid(g, st, c, target, p)
        };
        let (go, raid) = if random {
            let go = count > 0 && dice.chance(0.5);
            (go, go && dice.chance(0.5) && may_raid(st))
        } else if score < p.min_ratio {
            (false, false)
        } else {
            let odds = win_odds(g, st, c, target, p, turn, dice);
            if odds >= p.attack {
                (true, false)
            } else {
                // Not worth conquering at these odds: a raid if it wins the field fight at them
                // (none defending: it does) and the loot is worth its PV.
                let field_odds = if has_troops(&defenders(st, target).1) {
                    odds
                } else {
                    1.0
                };
                let raid = field_odds >= p.attack && may_raid(st);
                (raid, raid)
            }
        };
        if go {
            set_out(g, st, c, target, p, turn);
            st.nations[c as usize].raid = raid;
        }
    }
}

/// The field army sets out for `t` under the leader the policy sends with it: by land, or by
/// sea with what the fleets carry (the rest stays home in the garrison).
fn set_out(g: &Game, st: &mut State, c: CountryId, t: CountryId, p: &Scripted, turn: u32) {
    let by_sea = sea_target(g, st, c, t, turn);
    let o = st.lands[t as usize].owner;
    if diplomacy::bound(g, st, c, o) {
        diplomacy::break_treaty(g, st, c, o);
    }
    leaders::assign(g, st, c, p, st.month);
    march(st, c, t, p.garrison);
    if by_sea {
        let field = st.nations[c as usize].field;
        let aboard = carried(g, st, c, &field);
        let n = &mut st.nations[c as usize];
        for k in 0..KINDS {
            n.garrison[k] += field[k] - aboard[k];
        }
        n.field = aboard;
    }
    st.nations[c as usize].by_sea = by_sea;
    st.nations[c as usize].landed = false;
    st.nations[c as usize].raid = false;
}

/// The fortification of `t`'s capital (0 for a country without cities).
fn fort_of(g: &Game, st: &State, t: CountryId) -> u32 {
    g.capital[t as usize].map_or(0, |city| st.city_fort[city as usize] as u32)
}

/// The battle code's P(win) of the decisive fight for `t`: the field battle against its army,
/// else the assault on its garrison after the policy's siege months; 1 when nobody defends.
fn win_odds(
    g: &Game,
    st: &State,
    c: CountryId,
    t: CountryId,
    p: &Scripted,
    turn: u32,
    dice: &mut Dice,
) -> f64 {
    let (o, mut field, garrison) = defenders(st, t);
    // What its spies say of the defending field army (exact when omniscient, option
    // war_intelligence).
    let seen = super::intrigue::seen_factor(g, st, c, t, dice);
    for u in &mut field {
        *u *= seen;
    }
    let mut attackers = st.nations[c as usize].field;
    for u in &mut attackers {
        *u *= 1.0 - p.garrison.clamp(0.0, 1.0);
    }
    if sea_target(g, st, c, t, turn) {
        attackers = carried(g, st, c, &attackers);
    }
    let attacker = Side {
        mercs: st.nations[c as usize].mercs,
        country: c,
        units: attackers,
        unsupplied: 0.0,
        lead: leaders::prospective_lead(g, st, c, p, st.month),
    };
    let month = turn * 2;
    if has_troops(&field) {
        let defender = Side {
            mercs: st.nations[o as usize].mercs,
            country: o,
            units: field,
            unsupplied: 0.0,
            lead: defending_lead(g, st, t, st.month),
        };
        battles::odds(
            g,
            t,
            None,
            0,
            winter(g, month),
            [attacker, defender],
            p.odds_trials,
            dice,
        )
    } else if has_troops(&garrison) {
        let defender = Side {
            mercs: NO_BANDS,
            country: o,
            units: garrison,
            unsupplied: 0.0,
            lead: leaders::defender_lead(g, st, t, st.month),
        };
        let fort = Some(fort_of(g, st, t));
        let months = p.siege_months as u32;
        battles::odds(
            g,
            t,
            fort,
            months,
            winter(g, month),
            [attacker, defender],
            p.odds_trials,
            dice,
        )
    } else {
        1.0
    }
}

/// The field army sets out for `t`, leaving the policy's share of all troops at home.
pub fn march(st: &mut State, c: CountryId, t: CountryId, garrison_share: f64) {
    let share = garrison_share.clamp(0.0, 1.0);
    let n = &mut st.nations[c as usize];
    for k in 0..KINDS {
        let total = n.field[k] + n.garrison[k];
        n.garrison[k] = total * share;
        n.field[k] = total - n.garrison[k];
    }
    n.mission = Mission::March { target: t };
    n.progress = 0;
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
    offensive_food(g, st);
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
            Mission::Return => step(g, st, c, c, win),
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
                    step(g, st, c, target, win);
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

/// Moves `c`'s field army toward `to` with this month's PM; Return ends at home.
fn step(g: &Game, st: &mut State, c: CountryId, to: CountryId, win: bool) {
    let weather = st.weather;
    let units = st.nations[c as usize].field;
    let roads = &st.roads;
    let nat = &mut st.nations[c as usize];
    nat.progress += allowance(g, c, &units);
    while nat.at != to {
        let next = roads.next(g, nat.at, to);
        if next == UNREACHABLE {
            nat.mission = Mission::Idle;
            nat.progress = 0;
            return;
        }
        let severe = weather[g.scenario.nodes[next as usize].zone as usize].severe();
        let cost = roads.leg(g, nat.at, next).unwrap_or(u32::MAX / 4)
            * movement_multiplier(g, win, severe);
        if nat.progress < cost {
            return;
        }
        nat.progress -= cost;
        nat.at = next;
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
        let sides = [
            side(g, st, c, month),
            Side {
                mercs: st.nations[o as usize].mercs,
                country: o,
                units: field,
                unsupplied: 0.0,
                lead: defending_lead(g, st, t, month),
            },
        ];
        let (win, weather) = (winter(g, month), weather_at(g, st, t));
        let fought = if st.nations[c as usize].by_sea && !st.nations[c as usize].landed {
            let fleets = st.nations[c as usize].fleets;
            battles::landing_battle(g, t, win, weather, sides, fleets, dice)
        } else {
            battles::field_battle(g, t, win, weather, sides, dice)
        };
        st.nations[c as usize].landed = true;
        st.counts.battles += 1;
        settle(g, st, c, o, &fought, None);
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
    // An undefended country falls at once.
    let (_, _, garrison) = defenders(st, t);
    if !has_troops(&garrison) {
        conquer(g, st, c, t, &plans[c as usize], month, log);
    }
}

/// `c`'s field army under its commander.
pub(super) fn side(g: &Game, st: &State, c: CountryId, month: u32) -> Side {
    Side {
        mercs: st.nations[c as usize].mercs,
        country: c,
        units: st.nations[c as usize].field,
        unsupplied: st.nations[c as usize].unsupplied,
        lead: leaders::field_lead(g, st, c, month),
    }
}

/// The commander of the army defending node `t` in the field: its holder's field army's (at
/// home, whoever commands there).
fn defending_lead(g: &Game, st: &State, t: CountryId, month: u32) -> Lead {
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
    if !has_troops(&garrison) {
        conquer(g, st, c, t, &plans[c as usize], month, log);
        return;
    }
    st.nations[c as usize].mission = Mission::Siege { target: t, months };
    let fort = fort_of(g, st, t);
    let kinds = &g.kinds[o as usize];
    let men: f64 = (0..KINDS).map(|k| garrison[k] * kinds[k].men).sum();
    let morale = (0..KINDS)
        .filter(|&k| garrison[k] > 1e-9)
        .map(|k| {
            let v = &crate::rulesets::mediterraneo_sanguinolento::data::data()
                .morale
                .value;
            let table = if kinds[k].regular {
                &v.regular
            } else {
                &v.irregular
            };
            table[kinds[k].morale] as f64 * garrison[k] * kinds[k].men
        })
        .sum::<f64>()
        / men.max(1.0);
    let pob = g.scenario.production[t as usize][super::scenario::POB];
    let food = st.nations[o as usize].stock[COM].max(0) as u32;
    let course = siege::timeline(
        fort,
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
        conquer(g, st, c, t, &plans[c as usize], month, log);
        return;
    }
    if months < plans[c as usize].siege_months {
        return;
    }
    let sides = [
        side(g, st, c, month),
        Side {
            mercs: NO_BANDS,
            country: o,
            units: garrison,
            unsupplied: 0.0,
            lead: leaders::defender_lead(g, st, t, month),
        },
    ];
    let fought = battles::assault(
        g,
        fort,
        months as u32,
        winter(g, month),
        weather_at(g, st, t),
        sides,
        dice,
    );
    st.counts.assaults += 1;
    settle(g, st, c, o, &fought, Some(t));
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
/// and `o`'s field army (or the troops holding node `assaulted`, in an assault).
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
        if f.winner == Some(k) {
            st.gain(who, ESC, f.slaves[k].floor() as i64);
            st.gain(who, MET, f.metal[k].floor() as i64);
        }
    }
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
    st.apply(c, pv::CONQUEST, pv::CONQUERING_TERRITORY, cc);
    st.apply(o, pv::CONQUEST, pv::LOSING_TERRITORY, co);
    for _ in g.scenario.countries[t as usize].cities.clone() {
        st.apply(o, pv::CONQUEST, pv::LOSING_A_CITY, co);
    }
    let mpu = g.men_per_unit(o);
    // The last units of the holder there end with the country (§19).
    let held = std::mem::replace(garrison_mut(st, t), NO_UNITS);
    st.ledger.men_lost += State::men(&held, &mpu);
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
        pending: st.lands[t as usize].pending,
        sacked_until: st.lands[t as usize].sacked_until,
    };
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

/// Offensive food: a field army outside its holder's lands eats 1 COM per 200 men a month; the
/// unfed share fights at half (L2090).
pub fn offensive_food(g: &Game, st: &mut State) {
    for c in 0..st.nations.len() as CountryId {
        let nat = &st.nations[c as usize];
        if st.lands[nat.at as usize].owner == c || !has_troops(&nat.field) {
            st.nations[c as usize].unsupplied = 0.0;
            continue;
        }
        let men = State::men(&nat.field, &g.men_per_unit(c));
        let need = (men / MEN_PER_COM).ceil() as i64;
        let paid = st.spend(c, COM, need);
        st.nations[c as usize].unsupplied = if need > 0 {
            1.0 - paid as f64 / need as f64
        } else {
            0.0
        };
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

/// The PV of invasion suffered: a country holding its home with an enemy army in it this month.
fn invasions(g: &Game, st: &mut State) {
    let invaded = invaded(st);
    for o in 0..st.nations.len() {
        if st.lands[o].owner != o as CountryId || !invaded[o] {
            st.nations[o].invaded_months = 0;
            continue;
        }
        let row = if st.nations[o].invaded_months == 0 {
            pv::FIRST_MONTH_OF_INVASION
        } else {
            pv::FOLLOWING_MONTH_OF_INVASION
        };
        st.nations[o].invaded_months += 1;
        st.apply(o as CountryId, pv::INVASION, row, g.culture[o]);
    }
}
