//! Rome against a war: the land battle and the naval battle (L747-L792; digest §3.3-§3.8, §8).
//!
//! One roll of 3d6. An unmodified roll among the war's or its leaders' Disaster numbers is a
//! Disaster (half of every legion and fleet lost, rounded up), among the Standoff numbers a
//! Standoff (a quarter); otherwise the roll plus the modifier (troops + MIL capped at troops −
//! enemy strength) is read on the Combat Results Table. A Defeat kills the commander; otherwise one
//! mortality chit is drawn per unit lost.

use super::chits::Cup;
use super::data::{data, find, War};
use crate::battle::keys::{self, Key, Type};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::{draw_without_replacement, Dice};
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::{Table, Value};

mod exact;
mod file;
mod input;
mod roll;
mod simulate;
#[cfg(test)]
mod tests;

pub(crate) use exact::Branch;
pub use file::*;
pub use input::{build_land, build_naval};
pub use roll::{crt, ransom, resolve_roll, special_numbers, unrest};
pub(crate) use simulate::Sim;

const OUTCOMES: [&str; 5] = ["victory", "stalemate", "defeat", "disaster", "standoff"];
pub const VICTORY: usize = 0;
pub const STALEMATE: usize = 1;
pub const DEFEAT: usize = 2;
pub const DISASTER: usize = 3;
pub const STANDOFF: usize = 4;
/// 3d6 totals 3..=18, out of 216.
pub(super) const WEIGHTS_3D6: [u32; 16] =
    [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Land,
    Naval,
}

/// A war as fought: printed values, possibly overridden in the battle file.
#[derive(Clone, Debug)]
struct WarCard {
    name: String,
    series: String,
    land: u32,
    naval: u32,
    fleet_support: u32,
    disaster: Vec<u32>,
    standoff: Vec<u32>,
    spoils: u32,
    revolt: bool,
}

impl WarCard {
    fn from_data(w: &War) -> WarCard {
        WarCard {
            name: w.name.clone(),
            series: w.series.clone(),
            land: w.land,
            naval: w.naval,
            fleet_support: w.fleet_support,
            disaster: w.disaster.clone(),
            standoff: w.standoff.clone(),
            spoils: w.spoils,
            revolt: w.revolt,
        }
    }
}

struct Leader {
    name: String,
    strength: u32,
    disaster: Vec<u32>,
    standoff: Vec<u32>,
}

pub struct RomanBattle {
    kind: Kind,
    pub(super) regular: u32,
    pub(super) veteran: u32,
    fleets: u32,
    /// The modifier, with its probability (more than one when the commander's MIL is rolled).
    pub(super) drms: Vec<(i32, f64)>,
    /// What the modifier is made of, to recompute it for another army: MIL (a distribution),
    /// the Master of Horse's MIL, whether the cap is on their sum, and −enemy − omens.
    mil: Pmf,
    moh: u32,
    combined_cap: bool,
    base: i32,
    pub(super) fleet_support: u32,
    /// The war's printed naval strength (a land battle needs it beaten first).
    pub(super) war_naval: u32,
    /// The ransom if the commander is captured, when his Influence is given.
    ransom: Option<f64>,
    /// Per unmodified 3d6 total (index = total): Disaster, Standoff or neither.
    special: [Option<usize>; 19],
    halves_losses: Option<bool>, // Some(round_up)
    pub(super) gain: u32,
    /// Printed strength of what this battle fights (land or naval): the victory gain is half of it.
    pub(super) printed: u32,
    pub(super) spoils: u32,
    pub(super) cup: Cup,
    veteran_from_battle: bool,
    popularity_by_strength: bool,
    gain_requires_survival: bool,
    describe: Vec<String>,
    notes: Vec<String>,
    schema: Schema,
    pub(super) columns: Columns,
    /// The expected ransom's scalar, when the commander can be captured for one.
    ransom_column: Option<usize>,
}

/// Where a Roman battle's quantities sit in its schema, fixed by [`Columns::add`] as it names
/// them; the naval-then-land battle reports the same ones first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Columns {
    pub legions_lost: usize,
    pub veterans_lost: usize,
    pub fleets_lost: usize,
    pub killed: usize,
    pub captured: usize,
    pub unrest: usize,
    pub popularity: usize,
    pub influence: usize,
    pub spoils: usize,
    pub veteran_gained: usize,
    pub war_defeated: usize,
}

/// The most a Roman battle can lose or gain in one trial, which sizes its schema.
pub(super) struct Caps {
    pub legions: u32,
    pub veterans: u32,
    pub fleets: u32,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
}

impl Columns {
    /// Adds the quantities every Roman battle reports to `schema`.
    pub(super) fn add(schema: &mut Schema, caps: Caps) -> Columns {
        Columns {
            legions_lost: schema.count("legions_lost", caps.legions as usize),
            veterans_lost: schema.count("veteran_legions_lost", caps.veterans as usize),
            fleets_lost: schema.count("fleets_lost", caps.fleets as usize),
            killed: schema.scalar("commander/killed"),
            captured: schema.scalar("commander/captured"),
            unrest: schema.scalar_bounded("unrest_change", caps.unrest),
            popularity: schema.scalar_bounded("popularity_change", caps.popularity),
            influence: schema.scalar_bounded("influence_gain", caps.influence),
            spoils: schema.scalar_bounded("spoils", caps.spoils),
            veteran_gained: schema.scalar("veteran_gained"),
            war_defeated: schema.scalar("war_defeated"),
        }
    }

    /// The scalars, in schema order.
    pub(super) fn scalars(&self) -> [usize; 8] {
        [
            self.killed,
            self.captured,
            self.unrest,
            self.popularity,
            self.influence,
            self.spoils,
            self.veteran_gained,
            self.war_defeated,
        ]
    }

    /// Records one battle's figures in a trial.
    pub(super) fn record(&self, b: &Sim, out: &mut Trial) {
        out.counts[self.legions_lost] = b.lost_regular + b.lost_veteran;
        out.counts[self.veterans_lost] = b.lost_veteran;
        out.counts[self.fleets_lost] = b.lost_fleets;
        out.scalars[self.killed] = b.killed as u32 as f64;
        out.scalars[self.captured] = b.captured as u32 as f64;
        out.scalars[self.unrest] = b.unrest;
        out.scalars[self.popularity] = b.popularity;
        out.scalars[self.influence] = b.influence;
        out.scalars[self.spoils] = b.spoils;
        out.scalars[self.veteran_gained] = b.veteran_gained as u32 as f64;
        out.scalars[self.war_defeated] = b.war_defeated as u32 as f64;
    }
}

impl RomanBattle {
    /// The result and the units lost for an unmodified roll.
    #[cfg(test)]
    fn resolve(&self, roll: usize, drm: i32) -> (usize, u32, u32) {
        self.resolve_army(roll, drm, self.regular + self.veteran, self.fleets, 0)
    }

    /// The result and losses for an army of `legions` and `fleets` (survivors of an earlier battle).
    /// `used` marks (bit = roll) the Disaster and Standoff numbers already applied against this war
    /// this turn: each applies once per war per turn (L663-L665), after which the roll uses the CRT.
    pub(super) fn resolve_army(
        &self,
        roll: usize,
        drm: i32,
        legions: u32,
        fleets: u32,
        used: u32,
    ) -> (usize, u32, u32) {
        resolve_roll(
            &self.special,
            roll,
            drm,
            legions,
            fleets,
            used,
            self.halves_losses,
        )
    }

    /// The modifier for another army, drawing a rolled MIL if need be; allocates nothing.
    pub(super) fn drm_for_troops(&self, troops: u32, dice: &mut Dice) -> i32 {
        let m = if self.drms.len() == 1 {
            self.mil.0.iter().position(|&p| p > 0.0).unwrap_or(0) as u32
        } else {
            self.mil.sample(dice.uniform()) as u32
        };
        let used = if self.combined_cap {
            (m + self.moh).min(troops)
        } else {
            m.min(troops) + self.moh.min(troops)
        };
        self.base + troops as i32 + used as i32
    }

    fn popularity_loss(&self, lost_regular: u32, lost_veteran: u32) -> f64 {
        let counted = if self.popularity_by_strength {
            lost_regular + 2 * lost_veteran
        } else {
            lost_regular + lost_veteran
        };
        -((counted / 2) as f64)
    }

    pub(super) fn legions(&self) -> u32 {
        self.regular + self.veteran
    }

    pub(super) fn veterans(&self) -> u32 {
        self.veteran
    }

    pub(super) fn fleets(&self) -> u32 {
        self.fleets
    }
}

/// The modifier for each MIL value: troops + MIL (capped at troops) + `base`, with its probability.
fn modifiers(mil: &Pmf, moh: u32, combined_cap: bool, troops: u32, base: i32) -> Vec<(i32, f64)> {
    let used = |m: u32| {
        if combined_cap {
            (m + moh).min(troops)
        } else {
            m.min(troops) + moh.min(troops)
        }
    };
    mil.0
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 0.0)
        .map(|(m, &p)| (base + troops as i32 + used(m as u32) as i32, p))
        .collect()
}

/// The modifier that goes with MIL value `m` (for the explanation line).
fn drms_for(drms: &[(i32, f64)], m: u32, mil: &Pmf) -> i32 {
    let index = mil
        .0
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 0.0)
        .position(|(v, _)| v as u32 == m)
        .unwrap_or(0);
    drms[index].0
}

impl RomanBattle {
    /// The same battle fought by another army (the survivors of an earlier battle).
    pub(super) fn with_army(&self, regular: u32, veteran: u32, fleets: u32) -> RomanBattle {
        let troops = match self.kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        RomanBattle {
            regular,
            veteran,
            fleets,
            drms: modifiers(&self.mil, self.moh, self.combined_cap, troops, self.base),
            mil: self.mil.clone(),
            describe: Vec::new(),
            notes: Vec::new(),
            schema: Schema::default(),
            ransom: None,
            ransom_column: None,
            ..*self
        }
    }
}

impl BattleModel for RomanBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        self.describe.clone()
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}
