//! Damaged ships, repairs and captures (digest §3.5.3, §3.5.5; rules §12.8, §12.14, L2459,
//! L2695-L2699): what a naval battle's losses become, what repairing and crewing cost, and the
//! fleets a besieger takes with the port.
//!
//! The battle code (`naval.rs` of the ruleset) reports, per side, the ships put out of action,
//! those boarded (A32: floor(crew-factor casualties / crew factor per ship)) and, of the rest,
//! those damaged (the side's fleet survives) or sunk (it was destroyed) (A29). Here:
//! * option `naval_losses` (A29): "damaged" keeps the damaged ships in the owner's home port, out
//!   of the fighting until repaired; "sunk" loses them;
//! * option `boarding_captures` (A32): "loser" gives the loser's boarded ships to the winner
//!   (uncrewed) and treats the winner's boarded ships as its other losses; "both" lets each side
//!   take what it boarded;
//! * a repair at its own home port costs, per group of up to 3 ships of one kind, 1/10 of the
//!   fleet's DEN cost, 1/3 of its MAD and MET, 1/4 of its crew's POB (each rounded up) and the
//!   morale cost of option `repair_morale`; a captured ship is crewed there at its share of the
//!   crew's morale cost only (no MAD, no DEN cost, L2459); policy `repair_ships` says what share
//!   of them a country repairs and crews each turn (phase 6, before the fleet purchases);
//! * a home port taken by a siege or an assault gives its fleets (damaged and uncrewed ones too)
//!   to the taker, uncrewed (L2459).
//!
//! Pirate ships are the warfleet type with irregular D crews: damaged pirates are repaired as
//! pirates; boarded or taken pirate ships become the captor's uncrewed warfleet ships.

use super::fleets::{self, CREW_CLASS, PIRATE_CLASS};
use super::naval::{Squadron, SHIPS_PER_FLEET};
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, MAD, MET, POB};
use super::state::{State, Stock, R};
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::data::{data, Fleet};

/// Ships one repair payment covers at most (L2699).
pub const REPAIR_GROUP: f64 = 3.0;
/// Kinds of damaged ships: the warfleets, the transports, the pirates.
pub const WAR: usize = 0;
pub const TRANSPORT: usize = 1;
pub const PIRATE: usize = 2;

/// Ships in a nation's home port that do not sail: damaged ones by kind (warfleet, transport,
/// pirate) and captured ones waiting for a crew (warfleet, transport); whole ships. `taken`
/// counts every ship it ever captured (the invariants bound the referee's fleets by it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Docks {
    pub damaged: [f64; 3],
    pub uncrewed: [f64; 2],
    pub taken: f64,
}

impl Docks {
    pub fn ships(&self) -> f64 {
        self.damaged.iter().sum::<f64>() + self.uncrewed.iter().sum::<f64>()
    }
}

/// How `boarding_captures` reads A32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Captures {
    /// Only the loser's boarded ships are taken, by the winner.
    Loser,
    /// Each side takes what it boarded.
    Both,
}

impl Captures {
    pub fn of(g: &Game) -> Captures {
        if g.options.choice("boarding_captures") == "both" {
            Captures::Both
        } else {
            Captures::Loser
        }
    }
}

/// Ships each side takes from the other ([attacker, defender]) from the battle code's boarded
/// counts `boarded` (`boarded[i]`: side i's ships boarded by the enemy) and the winner (0, 1;
/// None: nobody won), by the A32 reading.
pub fn captures(boarded: [f64; 2], winner: Option<usize>, reading: Captures) -> [f64; 2] {
    match (reading, winner) {
        (Captures::Both, _) => [boarded[1], boarded[0]],
        (Captures::Loser, Some(w)) => {
            let mut taken = [0.0; 2];
            taken[w] = boarded[1 - w];
            taken
        }
        (Captures::Loser, None) => [0.0; 2],
    }
}

/// The fleet type and crew of damaged-ship kind `kind` (warfleet, transport, pirate): (fleet,
/// morale class, regular).
fn kind_of(warfleet: &'static Fleet, kind: usize) -> (&'static Fleet, usize, bool) {
    match kind {
        WAR => (warfleet, CREW_CLASS, true),
        TRANSPORT => (fleets::transport(), CREW_CLASS, true),
        _ => (warfleet, PIRATE_CLASS, false),
    }
}

/// The morale cost in DEN of one fleet's crew of morale class `class` (0 for fleets without one).
pub fn crew_morale(fleet: &Fleet, class: usize, regular: bool) -> i64 {
    if !fleet.morale_cost {
        return 0;
    }
    let m = &data().morale.cost;
    (if regular {
        m.regular[class]
    } else {
        m.irregular[class]
    }) as i64
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// What repairing one group of up to 3 ships of `fleet` (crew of class `class`) costs (L2699):
/// 1/10 of its DEN creation cost, 1/3 of its MAD and MET, 1/4 of its crew (POB), each rounded up,
/// plus the crew's morale cost: its quarter (`whole_morale` false: the crew replaced) or all of it.
pub fn repair_price(fleet: &Fleet, class: usize, regular: bool, whole_morale: bool) -> Stock {
    let printed = |name: &str| fleet.cost.get(name).copied().unwrap_or(0) as i64;
    let mut price = [0i64; R];
    price[DEN] = ceil_div(printed("den"), 10);
    price[MAD] = ceil_div(printed("mad"), 3);
    price[MET] = ceil_div(printed("met"), 3);
    price[POB] = ceil_div(printed("pob"), 4);
    let morale = crew_morale(fleet, class, regular);
    price[DEN] += if whole_morale {
        morale
    } else {
        ceil_div(morale, 4)
    };
    price
}

/// DEN that crewing `ships` captured ships of `fleet` costs: their share of a regular C crew's
/// morale cost, rounded up (L2459: no MAD, no DEN cost).
pub fn crewing_price(fleet: &Fleet, ships: f64) -> i64 {
    let per_fleet = crew_morale(fleet, CREW_CLASS, true) as f64;
    (per_fleet * ships / SHIPS_PER_FLEET).ceil() as i64
}

/// Whole ships in `fleets` (tenths of fleets), guarding against float dust.
fn ships_in(fleets: f64) -> f64 {
    (fleets * SHIPS_PER_FLEET).round()
}

/// `n` whole ships out of `parts` ships of two kinds, by kind in proportion (the first kind
/// takes the rounding; never more of a kind than it has).
fn share(parts: [f64; 2], n: f64) -> [f64; 2] {
    let total = parts[0] + parts[1];
    if total <= 0.0 {
        return [0.0; 2];
    }
    let n = n.min(total);
    let first = (n * parts[0] / total).round().clamp(n - parts[1], parts[0]);
    [first, n - first]
}

/// `n` whole ships of a squadron of `fleets` ([main kind, transports], in fleets) by kind, in
/// proportion to their ships (the battle code's one mass).
pub fn split(fleets: [f64; 2], n: f64) -> [f64; 2] {
    share([ships_in(fleets[0]), ships_in(fleets[1])], n)
}

/// Of `out` ships a squadron of `fleets` had put out of action, the `to_enemy` ones the enemy
/// takes, by kind ([main kind, transports]).
pub fn handed_over(fleets: [f64; 2], out: f64, to_enemy: f64) -> [f64; 2] {
    share(split(fleets, out), to_enemy)
}

/// After a naval battle: side `who`, whose squadron `sq` fought with `ships` fleets of each kind
/// ([warfleets or pirates, transports]), had `out` ships put out of action in all (the battle
/// code's losses), of which `to_enemy` go over to the enemy, and it takes `taken` enemy ships by kind ([warfleet, transport]) (both
/// by [`captures`]). Removes the ships out of action from its fleets kind by kind in proportion
/// to the ships (the battle code's one mass); of those not taken by the enemy, a side whose fleet
/// survived keeps them damaged in its home port (A29, the battle code's `ships_damaged`; option
/// naval_losses = sunk: lost), else they are lost; the taken ships join its uncrewed ones. Ships
/// move between sides, never appear: the enemy's `to_enemy` is this side's `taken`.
#[allow(clippy::too_many_arguments)]
pub fn settle(
    g: &Game,
    st: &mut State,
    who: CountryId,
    sq: Squadron,
    ships: [f64; 2],
    out: f64,
    to_enemy: f64,
    taken: [f64; 2],
) {
    let total = ships_in(ships[0]) + ships_in(ships[1]);
    let out = out.min(total);
    let by_kind = split(ships, out);
    let survived = total - out > 0.0;
    let to_enemy = to_enemy.min(out);
    let damaged = if survived && g.options.choice("naval_losses") == "damaged" {
        out - to_enemy
    } else {
        0.0
    };
    let main_kind = if sq == Squadron::Pirates { PIRATE } else { WAR };
    let n = &mut st.nations[who as usize];
    let main = if sq == Squadron::Pirates {
        &mut n.pirates
    } else {
        &mut n.fleets
    };
    *main = (ships_in(*main) - by_kind[0]).max(0.0) / SHIPS_PER_FLEET;
    n.transports = (ships_in(n.transports) - by_kind[1]).max(0.0) / SHIPS_PER_FLEET;
    if damaged > 0.0 {
        let gone = share(by_kind, to_enemy);
        n.docks.damaged[main_kind] += by_kind[0] - gone[0];
        n.docks.damaged[TRANSPORT] += by_kind[1] - gone[1];
    }
    n.docks.uncrewed[WAR] += taken[0];
    n.docks.uncrewed[TRANSPORT] += taken[1];
    n.docks.taken += taken[0] + taken[1];
    st.ledger.ships_lost += out - to_enemy - damaged;
    st.counts.ships_damaged += damaged;
    st.counts.ships_boarded += taken[0] + taken[1];
}

/// L2459: the port of `o`'s home falls to `c`: every ship in it (fleets, transports, pirates,
/// damaged and uncrewed ones) goes over to `c`, uncrewed.
pub fn port_taken(st: &mut State, c: CountryId, o: CountryId) {
    if c == o {
        return;
    }
    let n = &mut st.nations[o as usize];
    let war = ships_in(n.fleets)
        + ships_in(n.pirates)
        + n.docks.damaged[WAR]
        + n.docks.damaged[PIRATE]
        + n.docks.uncrewed[WAR];
    let transports =
        ships_in(n.transports) + n.docks.damaged[TRANSPORT] + n.docks.uncrewed[TRANSPORT];
    n.fleets = 0.0;
    n.pirates = 0.0;
    n.transports = 0.0;
    n.docks.damaged = [0.0; 3];
    n.docks.uncrewed = [0.0; 2];
    let d = &mut st.nations[c as usize].docks;
    d.uncrewed[WAR] += war;
    d.uncrewed[TRANSPORT] += transports;
    d.taken += war + transports;
    st.counts.ships_taken_in_port += war + transports;
}

/// Whole groups of `price` that `c` can pay from its stocks, keeping `keep` DEN.
fn affordable(st: &State, c: CountryId, price: &Stock, keep: i64) -> i64 {
    let stock = &st.nations[c as usize].stock;
    (0..R)
        .filter(|&r| price[r] > 0)
        .map(|r| {
            let have = if r == DEN { stock[r] - keep } else { stock[r] };
            have.max(0) / price[r]
        })
        .min()
        .unwrap_or(i64::MAX)
}

/// Phase 6, before the fleet purchases: every country holding its home port repairs its policy's
/// `repair_ships` share of its damaged ships (whole groups of up to 3 ships, rounded to the
/// nearest group) and crews that share of its captured ships, as far as its stocks pay, keeping its
/// DEN reserve and wages. Repaired and crewed ships sail again at once.
pub fn phase(g: &Game, st: &mut State, plans: &[Scripted]) {
    let Some(warfleet) = g.scenario.fleet else {
        return;
    };
    let mut whole_morale = None;
    for c in 0..st.nations.len() as CountryId {
        let share = plans[c as usize].repair_ships.clamp(0.0, 1.0);
        if st.nations[c as usize].docks.ships() <= 0.0
            || share <= 0.0
            || !fleets::has_port(g, st, c)
        {
            continue;
        }
        let whole =
            *whole_morale.get_or_insert_with(|| g.options.choice("repair_morale") == "fleet");
        let keep = super::economy::den_to_keep(g, st, c, &plans[c as usize]);
        for kind in [WAR, TRANSPORT, PIRATE] {
            let ships = st.nations[c as usize].docks.damaged[kind];
            if ships <= 0.0 {
                continue;
            }
            let (fleet, class, regular) = kind_of(warfleet, kind);
            let price = repair_price(fleet, class, regular, whole);
            let wanted = ((ships / REPAIR_GROUP).ceil() * share).round() as i64;
            let groups = wanted.min(affordable(st, c, &price, keep));
            if groups <= 0 {
                continue;
            }
            for r in 0..R {
                st.spend(c, r, price[r] * groups);
            }
            let repaired = (groups as f64 * REPAIR_GROUP).min(ships);
            let n = &mut st.nations[c as usize];
            n.docks.damaged[kind] -= repaired;
            let fleets = match kind {
                WAR => &mut n.fleets,
                TRANSPORT => &mut n.transports,
                _ => &mut n.pirates,
            };
            *fleets = (ships_in(*fleets) + repaired) / SHIPS_PER_FLEET;
            st.counts.ships_repaired += repaired;
            st.counts.repair_groups += groups as u32;
            st.counts.repair_den += (price[DEN] * groups) as f64;
        }
        for kind in [WAR, TRANSPORT] {
            let ships = st.nations[c as usize].docks.uncrewed[kind];
            if ships <= 0.0 {
                continue;
            }
            let (fleet, _, _) = kind_of(warfleet, kind);
            let spare = (st.nations[c as usize].stock[DEN] - keep).max(0);
            let mut n = (ships * share).round();
            while n > 0.0 && crewing_price(fleet, n) > spare {
                n -= 1.0;
            }
            if n <= 0.0 {
                continue;
            }
            let den = crewing_price(fleet, n);
            st.spend(c, DEN, den);
            let nat = &mut st.nations[c as usize];
            nat.docks.uncrewed[kind] -= n;
            let fleets = if kind == WAR {
                &mut nat.fleets
            } else {
                &mut nat.transports
            };
            *fleets = (ships_in(*fleets) + n) / SHIPS_PER_FLEET;
            st.counts.ships_crewed += n;
            st.counts.crewing_den += den as f64;
        }
    }
}
