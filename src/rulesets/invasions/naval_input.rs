//! Reading the naval battle's input: one side's naval stack, the `[policy]` table and the system.
//! The landing reads the same keys through these functions.

use super::naval::{Kind, Policy, Refuse, Side, System, KINDS, REFUSALS, REROLLS, SYSTEMS};
use crate::error::{AleaError, Result};
use crate::spec::Fields;
use toml::Value;

/// Keys of one naval side (the attacker's also takes `carried`).
const SIDE_KEYS: &[&str] = &[
    "fleets",
    "elite",
    "kind",
    "rome_byzantium",
    "leader",
    "full_coastal_control",
];

/// Reads one side's naval stack.
pub fn parse_side(f: &Fields, allow_carried: bool, extra: &[&str]) -> Result<(Side, u8)> {
    let mut keys = SIDE_KEYS.to_vec();
    keys.extend_from_slice(extra);
    if allow_carried {
        keys.push("carried");
    }
    f.only(&keys)?;
    let fleets = match f.int_in("fleets", 1, 2)? {
        Some(n) => n as u8,
        None => {
            return Err(AleaError::input(
                f.source,
                f.field("fleets"),
                "missing",
                "1 or 2 (a naval stack holds at most 2 fleets)",
            ))
        }
    };
    let elite = f.int_in("elite", 0, fleets as i64)?.unwrap_or(0) as u8;
    let kind = Kind::parse(f.choice("kind", KINDS)?.unwrap_or("empire"));
    let rome_byzantium = f.bool("rome_byzantium")?.unwrap_or(false);
    if rome_byzantium && kind == Kind::Barbarian {
        return Err(AleaError::input(
            f.source,
            f.field("rome_byzantium"),
            true,
            "false for a Barbarian nation (Rome and Byzantium are Civilized)",
        ));
    }
    let leader = f.int_in("leader", 0, 3)?.map(|b| b as u8);
    let full_coastal_control = f.bool("full_coastal_control")?.unwrap_or(false);
    let carried = if allow_carried {
        f.int_in("carried", 0, 3 * fleets as i64)?.unwrap_or(0) as u8
    } else {
        0
    };
    Ok((
        Side {
            fleets,
            elite,
            kind,
            rome_byzantium,
            leader,
            full_coastal_control,
        },
        carried,
    ))
}

/// Reads the `[policy]` table (`extra` = further keys the caller reads itself).
pub fn parse_policy(f: &Fields, extra: &[&str]) -> Result<Policy> {
    let mut keys = vec!["rerolls", "reroll_threshold", "refuse"];
    keys.extend_from_slice(extra);
    f.only(&keys)?;
    let greedy = f.choice("rerolls", REROLLS)?.unwrap_or("greedy") == "greedy";
    let threshold = match f.raw("reroll_threshold") {
        None => 0.0,
        Some(Value::Integer(i)) if (0..=4).contains(i) => *i as f64,
        Some(Value::Float(x)) if (0.0..=4.0).contains(x) => *x,
        Some(v) => {
            return Err(AleaError::input(
                f.source,
                f.field("reroll_threshold"),
                v.to_string(),
                "a number from 0 to 4",
            ))
        }
    };
    let refuse = match f.choice("refuse", REFUSALS)?.unwrap_or("never") {
        "attacker" => Refuse::Attacker,
        "defender" => Refuse::Defender,
        _ => Refuse::Never,
    };
    Ok(Policy {
        greedy,
        threshold,
        refuse,
    })
}

/// Reads `system` and `advanced_rounds`.
pub fn parse_system(fields: &Fields) -> Result<System> {
    let rounds = fields.int_in("advanced_rounds", 1, 2)?;
    match fields.choice("system", SYSTEMS)?.unwrap_or("basic") {
        "advanced" => Ok(System::Advanced {
            rounds: rounds.unwrap_or(2) as u8,
        }),
        _ => {
            if rounds.is_some() {
                return Err(AleaError::input(
                    fields.source,
                    "advanced_rounds",
                    rounds.unwrap_or(0),
                    "nothing unless system = \"advanced\"",
                ));
            }
            Ok(System::Basic)
        }
    }
}

/// Both sides cannot control every coastal city of the same zone.
pub fn check_coastal(fields: &Fields, sides: &[Side; 2]) -> Result<()> {
    if sides[0].full_coastal_control && sides[1].full_coastal_control {
        return Err(AleaError::input(
            fields.source,
            "defender.full_coastal_control",
            true,
            "false when the attacker already controls every coastal city of the zone",
        ));
    }
    Ok(())
}
