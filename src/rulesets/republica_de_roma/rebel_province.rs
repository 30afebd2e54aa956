//! The Senate attacks a rebel governor's province (advanced rule 2.03, L1006-L1033; digest §3.13, T14).
//!
//! The province fights like a war whose numbers come from its armies: land strength = initial land
//! strength + provincial troops (half, rounded up, without a garrison legion) + garrison legions +
//! 2 per veteran + the governor's MIL (capped at that strength, A-25); fleet support = initial naval
//! strength + provincial fleets; naval strength = initial naval strength + provincial fleets + MIL.
//! A naval battle comes first when the fleet support exceeds the province's undeveloped initial
//! land strength (the rule; A-31's alternative compares with the current land strength, as the
//! rulebook's example does). There is no war card, so no Disaster or Standoff numbers.

use super::battle::{ARMY_KEYS, ROME};
use super::provincial::{FLEETS, GARRISON, GOVERNOR_MILITARY, INITIAL_NAVAL, TROOPS};
use crate::battle::keys::{self, Key};
use crate::battle::BattleModel;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::{Table, Value};

/// The province's numbers as a war's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RebelStrength {
    pub land: u32,
    pub fleet_support: u32,
    pub naval: u32,
    pub naval_first: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct RebelProvince {
    pub initial_land: u32,
    pub undeveloped_land: u32,
    pub initial_naval: u32,
    pub troops: u32,
    pub fleets: u32,
    pub garrison: u32,
    pub veterans: u32,
    pub governor_military: u32,
}

impl RebelProvince {
    pub fn strength(&self, compare_current_land: bool) -> RebelStrength {
        let troops = if self.garrison + self.veterans > 0 {
            self.troops
        } else {
            self.troops.div_ceil(2)
        };
        let without_mil = self.initial_land + troops + self.garrison + 2 * self.veterans;
        let land = without_mil + self.governor_military.min(without_mil);
        let fleet_support = self.initial_naval + self.fleets;
        let threshold = if compare_current_land {
            land
        } else {
            self.undeveloped_land
        };
        RebelStrength {
            land,
            fleet_support,
            naval: self.initial_naval + self.fleets + self.governor_military,
            naval_first: fleet_support > 0 && fleet_support > threshold,
        }
    }
}

const INITIAL_LAND: Key = keys::int("initial_land", 0, 100)
    .default_int(0)
    .help("the province's initial land strength");
const UNDEVELOPED_LAND: Key = keys::int("undeveloped_land", 0, 100)
    .absent("initial_land")
    .help("the land strength of the province undeveloped");
const VETERANS: Key = keys::int("veterans", 0, 100)
    .default_int(0)
    .help("veteran legions among the garrison");
const STAGE: Key = keys::choice("stage", &["naval", "land"])
    .absent("naval first when the fleet support exceeds the undeveloped land strength")
    .help("which battle");

pub const KEYS: &[Key] = &keys::join::<16>(&[
    &keys::placed(ARMY_KEYS, ROME),
    &keys::placed(
        [
            INITIAL_LAND,
            UNDEVELOPED_LAND,
            INITIAL_NAVAL,
            TROOPS,
            FLEETS,
            GARRISON,
            VETERANS,
            GOVERNOR_MILITARY.default_int(0),
        ],
        &["province"],
    ),
    &[STAGE],
]);

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let p = fields.table("province", &empty)?;
    let initial_land = INITIAL_LAND.int(&p)? as u32;
    let province = RebelProvince {
        initial_land,
        undeveloped_land: UNDEVELOPED_LAND
            .opt_int(&p)?
            .map_or(initial_land, |v| v as u32),
        initial_naval: INITIAL_NAVAL.int(&p)? as u32,
        troops: TROOPS.int(&p)? as u32,
        fleets: FLEETS.int(&p)? as u32,
        garrison: GARRISON.int(&p)? as u32,
        veterans: VETERANS.int(&p)? as u32,
        governor_military: GOVERNOR_MILITARY.opt_int(&p)?.unwrap_or(0) as u32,
    };
    let s = province.strength(options.choice("rebel_naval_first_compares") == "current-land");
    // Which battle: the one the rules call for next, unless the file says (e.g. the land battle
    // after the naval one was won).
    let stage = STAGE
        .opt_choice(fields)?
        .unwrap_or(if s.naval_first { "naval" } else { "land" });
    // The province as a war card: no Disaster or Standoff numbers (no card), no spoils.
    let mut war = Table::new();
    war.insert("land_strength".into(), Value::Integer(s.land as i64));
    war.insert(
        "naval_strength".into(),
        Value::Integer(if stage == "naval" {
            s.naval.max(1) as i64
        } else {
            0
        }),
    );
    war.insert(
        "fleet_support".into(),
        Value::Integer(s.fleet_support.min(super::battle::MAX_UNITS) as i64),
    );
    war.insert("revolt".into(), Value::Boolean(true));
    let mut table = fields.table_without(&["province", "stage"]);
    table.insert("war".into(), Value::Table(war));
    let inner = Fields::new(fields.source, &table);
    if stage == "naval" {
        if s.fleet_support == 0 {
            return Err(AleaError::input(
                fields.source,
                "stage",
                "\"naval\"",
                "\"land\": the province has no fleet to fight",
            ));
        }
        super::battle::build_naval(&inner, options)
    } else {
        super::battle::build_land(&inner, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t14_rebel_sardinia_corsica() {
        // Developed; 1 provincial troop, 5 provincial fleets, initial land 1, naval 0, no garrison.
        let mut p = RebelProvince {
            initial_land: 1,
            undeveloped_land: 1,
            initial_naval: 0,
            troops: 1,
            fleets: 5,
            garrison: 0,
            veterans: 0,
            governor_military: 0,
        };
        let s = p.strength(false);
        assert_eq!(s.land, 2); // 1 + ceil(1/2)
        assert_eq!(s.fleet_support, 5);
        assert!(s.naval_first); // 5 > 2
        assert!(p.strength(true).naval_first);
        // Rome wins the naval battle and the Sardinian fleets fall from 5 to 2: the land battle
        // then needs 2 fleets of support against a land strength of 2.
        p.fleets = 2;
        let after = p.strength(false);
        assert_eq!((after.land, after.fleet_support), (2, 2));
    }
}
