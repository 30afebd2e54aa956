//! Pirates and maritime pillage (digest §4.5.6, L1876-L1884; §3.9, L4447-L4452): a major's pirate
//! fleets (bought by `fleets::purchases`, morale D) sail once a turn, when there are 10 of them,
//! to pillage by landing a sea-lane neighbour of its home port as a land pillage does (1% of one
//! collection's production rounded up taken, as much destroyed from the holder's next
//! collection). The holder's fleets at its home may intercept them (the naval roll) and fight
//! them through the battle code. The pirates put in at their controller's port, who gets half
//! the loot (L1884); they are not recognised, so attacking a treaty partner breaks no treaty.
//! Piracy on maritime trade routes (30% of a route's collection profits, L4452) is in
//! `routes.rs`.

use super::fleets;
use super::naval::{self, Squadron};
use super::policy::Scripted;
use super::pv;
use super::sack::{pillage_effects, pillage_share, worth, worth_it, yields};
use super::scenario::CountryId;
use super::state::{State, Stock, R};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// Pirate fleets a maritime pillage needs (L4447).
pub const PILLAGE_FLEETS: f64 = 10.0;

/// The controller's half of a pillage's loot (L1884): half of each resource, rounded down.
pub fn controller_share(loot: &Stock) -> Stock {
    let mut out = [0i64; R];
    for r in 0..R {
        out[r] = loot[r] / 2;
    }
    out
}

/// The sea-lane neighbour of `c`'s home that its pirates would pillage this month: not its own,
/// yielding, the controller's half of the loot the most DEN worth, if that is worth the pillage
/// row's PV by the policy's `pillage_den_per_pv`.
pub fn target(g: &Game, st: &State, c: CountryId, p: &Scripted, month: u32) -> Option<CountryId> {
    let pv_lost = -pv::PILLAGE.pv(g.culture[c as usize]);
    let mut best: Option<(f64, CountryId)> = None;
    for l in g.scenario.links(c) {
        let t = l.to;
        if !l.sea || st.lands[t as usize].owner == c || !yields(st, t, month) {
            continue;
        }
        let half = worth(g, &controller_share(&pillage_share(g, t)));
        if worth_it(half, pv_lost, p.pillage_den_per_pv) && best.is_none_or(|(w, _)| half > w) {
            best = Some((half, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Every major with 10 pirate fleets in its port sends them on one maritime pillage this month.
pub fn raids(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    for &c in &g.majors {
        if st.nations[c as usize].pirates < PILLAGE_FLEETS || !fleets::has_port(g, st, c) {
            continue;
        }
        if let Some(t) = target(g, st, c, &plans[c as usize], month) {
            raid(g, st, c, t, month, dice, log);
        }
    }
}

/// `c`'s pirates sail to `t` through the storms, may be intercepted by its holder's fleets at
/// home, land with at least 10 fleets left and pillage, and sail home.
fn raid(
    g: &Game,
    st: &mut State,
    c: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    naval::storms(g, st, c, Squadron::Pirates, c, t, month, dice);
    let o = st.lands[t as usize].owner;
    let mut ashore = st.nations[c as usize].pirates >= PILLAGE_FLEETS;
    if ashore
        && o == t
        && st.nations[o as usize].fleets >= 1.0
        && fleets::intercepts(g, st, o, 0, dice)
    {
        ashore = naval::naval_battle(g, st, c, Squadron::Pirates, o, c, t, month, dice, log)
            && st.nations[c as usize].pirates >= PILLAGE_FLEETS;
    }
    if ashore {
        pillage(g, st, c, t, month, log);
    }
    naval::storms(g, st, c, Squadron::Pirates, t, c, month, dice);
}

/// The pirates of `c` pillage `t`: the holder's next collection loses 1%, the controller gains
/// half the 1% taken (the pirates put in at its port), and the pillage row.
fn pillage(
    g: &Game,
    st: &mut State,
    c: CountryId,
    t: CountryId,
    month: u32,
    log: &mut dyn GameLog,
) {
    let half = controller_share(&pillage_share(g, t));
    pillage_effects(g, st, c, t, &half);
    st.counts.maritime_pillages += 1;
    st.counts.maritime_pillage_den += worth(g, &half);
    game_log!(
        log,
        "month {month}: pirates of {} pillage {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name
    );
}
