//! Mount breeding (rules §6, L795-L815; digest §4.8 and its §4.19 row): 750 DEN buy +1 to +5 PM
//! for the nation's mounted units, and the horse (CAB) production of its home land is multiplied
//! by 0.9 / 0.7 / 0.5 / 0.3 / 0.2 from the next collection on (whoever holds the land: the herds
//! are there). The text prices the breeding once and gives the level as a choice, so a nation
//! buys it once a game at the level its policy wants (`mount_breeding`, 0: never), in the
//! constructions phase, with DEN above its reserve and wages; it then scores the §4.19 row
//! "Mount breeding" (0 / 1 / 1 PV, 0 / 75 / 50 IDR) under the works' source. Which units are
//! "mounted" is option `mount_breeding_units`: the horse units (cavalry and chariots, whose
//! horses the CAB factor cuts; default), the cavalry alone, or every mounted class (cavalry,
//! camelry, chariots, elephants). An army moves at its slowest kind's PM, so the breeding speeds
//! only armies without infantry (and the mercenaries' reach and the bred kinds' own allowance).
//! A policy buys only where it scores PV (not barbarians) or where every kind it raises is bred.

use super::economy;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, DEN};
use super::state::State;
use super::{Game, Kind};
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// DEN the breeding costs (L801).
pub const BREEDING_DEN: i64 = 750;
/// Highest level: +5 PM (L813).
pub const MAX_LEVEL: u8 = 5;
/// CAB production in tenths by level (L805-L815; level 0: unchanged).
pub const CAB_TENTHS: [i64; MAX_LEVEL as usize + 1] = [10, 9, 7, 5, 3, 2];

/// Which units the breeding speeds (option `mount_breeding_units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bred {
    Horses,
    Cavalry,
    AllMounted,
}

impl Bred {
    pub fn from_options(options: &Options) -> Bred {
        match options.choice("mount_breeding_units") {
            "cavalry" => Bred::Cavalry,
            "all-mounted" => Bred::AllMounted,
            _ => Bred::Horses,
        }
    }

    /// Whether battle-code unit `unit` is bred.
    pub fn includes(self, unit: u8) -> bool {
        let u = &data().units[unit as usize];
        match self {
            Bred::Horses => u.animal_kind == "horses",
            Bred::Cavalry => u.class == "cavalry",
            Bred::AllMounted => u.class != "infantry",
        }
    }
}

/// PM a month of `kind` raised by country `c`: the table's (L2030-L2074) plus its breeding level
/// if the kind is bred.
pub fn movement(g: &Game, st: &State, c: CountryId, kind: &Kind) -> u32 {
    let level = st.nations[c as usize].mounts;
    if level > 0 && g.bred.includes(kind.unit) {
        kind.movement + level as u32
    } else {
        kind.movement
    }
}

/// Land `l`'s CAB yield `cab` after its nation's breeding (rounded down).
pub fn cab_yield(st: &State, l: usize, cab: i64) -> i64 {
    cab * CAB_TENTHS[st.nations[l].mounts.min(MAX_LEVEL) as usize] / 10
}

/// Whether `c`'s policy buys the breeding now: a level wanted, none bought, its home held, the
/// DEN spare, and something gained (the row's PV, or a faster army: every kind it raises bred).
pub fn wants(g: &Game, st: &State, c: CountryId, p: &Scripted) -> bool {
    let nat = &st.nations[c as usize];
    let spare = nat.stock[DEN] - economy::den_to_keep(g, st, c, p);
    let kinds = &g.kinds[c as usize][..g.nkinds[c as usize] as usize];
    let scores = pv::MOUNT_BREEDING.pv(g.culture[c as usize]) > 0;
    let faster = kinds.iter().all(|k| g.bred.includes(k.unit));
    p.mount_breeding > 0
        && nat.mounts == 0
        && st.lands[c as usize].owner == c
        && spare >= BREEDING_DEN
        && (scores || faster)
}

/// Phase 7: every nation whose policy wants it buys its breeding.
pub fn purchases(g: &Game, st: &mut State, plans: &[Scripted]) {
    for c in 0..st.nations.len() as CountryId {
        let p = &plans[c as usize];
        if !wants(g, st, c, p) {
            continue;
        }
        st.spend(c, DEN, BREEDING_DEN);
        st.nations[c as usize].mounts = p.mount_breeding.min(MAX_LEVEL);
        st.apply(c, pv::WORKS, pv::MOUNT_BREEDING, g.culture[c as usize]);
        st.counts.mounts_bred += 1;
    }
}
