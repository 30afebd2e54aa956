//! 8 MOVIMIENTO, COMBATE, the choice: which target each field army free to march sets out for, by
//! the battle code's odds of the fights it would meet (field battle, siege and assault, or a
//! landing overseas), and the march's start.

use super::battles::{self, has_troops, Side, Walls};
use super::diplomacy;
use super::leaders;
use super::military::{defenders, defending_lead, militia_at, strength, winter, UNREACHABLE};
use super::policy::Scripted;
use super::sack;
use super::scenario::CountryId;
use super::state::{Mission, State, Units, KINDS};
use super::Game;
use crate::dice::Dice;

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
pub(super) fn fort_of(g: &Game, st: &State, t: CountryId) -> u32 {
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
        mix: st.nations[c as usize].mix,
        mercs: st.nations[c as usize].mercs,
        ..Side::new(
            c,
            attackers,
            leaders::prospective_lead(g, st, c, p, st.month),
        )
    };
    let month = turn * 2;
    if has_troops(&field) {
        let defender = Side {
            mix: st.nations[o as usize].mix,
            mercs: st.nations[o as usize].mercs,
            // Rome's Republican militia stands beside its home's defenders.
            republican: super::republican_militia::at(g, st, t, false),
            ..Side::new(o, field, defending_lead(g, st, t, st.month))
        };
        battles::odds(
            g,
            t,
            None,
            winter(g, month),
            [attacker, defender],
            p.odds_trials,
            dice,
        )
    } else if has_troops(&garrison)
        || militia_at(st, t) > 0.0
        || super::republican_militia::at(g, st, t, true) > 0.0
    {
        let defender = Side {
            mix: st.nations[o as usize].mix,
            // A standing militia holds a capital with no garrison.
            militia: if has_troops(&garrison) {
                0.0
            } else {
                militia_at(st, t)
            },
            republican: super::republican_militia::at(g, st, t, true),
            ..Side::new(o, garrison, leaders::defender_lead(g, st, t, st.month))
        };
        let fort = fort_of(g, st, t);
        let walls = Walls {
            fort,
            months: p.siege_months as u32,
            engine: super::engines::planned(g, st, c, p, fort),
        };
        battles::odds(
            g,
            t,
            Some(walls),
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
