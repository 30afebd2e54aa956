//! Reading the naval battle's input: one side's naval stack, the `[policy]` table and the system.
//! The landing reads the same keys through these functions.

use super::naval::{Kind, Policy, Refuse, Side, System, KINDS, REFUSALS, REROLLS, SEAS, SYSTEMS};
use super::SIDES;
use crate::battle::keys::{self, Key};
use crate::error::{AleaError, Result};
use crate::spec::Fields;

pub const FLEETS: Key = keys::int("fleets", 1, 2)
    .required()
    .help("fleets in the naval stack (at most 2)");
const ELITE: Key = keys::int("elite", 0, 2)
    .default_int(0)
    .help("how many of them are elite fleets (at most the side's fleets)");
const KIND: Key = keys::choice("kind", KINDS)
    .default_choice("empire")
    .help("the nation's status; Barbarian elite fleets are standard");
const ROME_BYZANTIUM: Key = keys::flag("rome_byzantium")
    .help("the nation is Rome or Byzantium (matters with naval_elite_fleets = \"rome-byzantium\")");
const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader")
    .help("combat bonus of a leader attached to the naval stack (= rerolls)");
const FULL_COASTAL_CONTROL: Key = keys::flag("full_coastal_control").help(
    "the side controls every coastal city of the sea zone (+2 rerolls in the Mediterranean / Pontus Euxinus only; not both sides)",
);
pub const CARRIED: Key = keys::int("carried", 0, 6)
    .default_int(0)
    .help("land units transported by the active stack, at most 3 per fleet");
/// One side's naval stack (the attacker's also carries).
pub const SIDE_KEYS: [Key; 6] = [
    FLEETS,
    ELITE,
    KIND,
    ROME_BYZANTIUM,
    LEADER,
    FULL_COASTAL_CONTROL,
];

const REROLLS_KEY: Key = keys::choice("rerolls", REROLLS)
    .default_choice("greedy")
    .help(
        "\"greedy\": the §8.5 protocol (alternate, attacker first, reroll the die of largest gain)",
    );
const THRESHOLD: Key = keys::number("reroll_threshold", 0.0, 4.0)
    .default_number(0.0)
    .help("τ: a die is rerolled only if its gain exceeds τ");
const REFUSE: Key = keys::choice("refuse", REFUSALS)
    .default_choice("never")
    .help("that side refuses the battle and counts as the loser");
pub const POLICY_KEYS: [Key; 3] = [REROLLS_KEY, THRESHOLD, REFUSE];

pub const SEA: Key = keys::choice("sea", SEAS)
    .default_choice("mediterranean")
    .help("a Mediterranean or Pontus Euxinus zone (Q47), or another");
const SYSTEM: Key = keys::choice("system", SYSTEMS)
    .default_choice("basic")
    .help(
    "\"basic\": one white die per fleet; \"advanced\": 2D6 on the combat table, column = fleets",
);
const ADVANCED_ROUNDS: Key = keys::int("advanced_rounds", 1, 2)
    .absent(
        "2 with system = \"advanced\" (the land battle's two rounds; naval stacks cannot retreat)",
    )
    .help("combat rounds of an advanced naval battle");
pub const SYSTEM_KEYS: [Key; 3] = [SEA, SYSTEM, ADVANCED_ROUNDS];

/// Reads one side's naval stack, and what it carries when `allow_carried`.
pub fn parse_side(f: &Fields, allow_carried: bool) -> Result<(Side, u8)> {
    let fleets = FLEETS.opt_int(f)?.ok_or_else(|| FLEETS.missing(f))? as u8;
    let at_most = |key: &Key, most: u8| -> Result<u8> {
        let n = key.int(f)? as u8;
        if n > most {
            return Err(AleaError::input(
                f.source,
                key.field(f),
                n,
                format!("a whole number from 0 to {most}"),
            ));
        }
        Ok(n)
    };
    let elite = at_most(&ELITE, fleets)?;
    let kind = Kind::parse(KIND.choice(f)?);
    let rome_byzantium = ROME_BYZANTIUM.bool(f)?;
    if rome_byzantium && kind == Kind::Barbarian {
        return Err(AleaError::input(
            f.source,
            ROME_BYZANTIUM.field(f),
            true,
            "false for a Barbarian nation (Rome and Byzantium are Civilized)",
        ));
    }
    let leader = LEADER.opt_int(f)?.map(|b| b as u8);
    let full_coastal_control = FULL_COASTAL_CONTROL.bool(f)?;
    let carried = if allow_carried {
        at_most(&CARRIED, 3 * fleets)?
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

/// Reads the `[policy]` table.
pub fn parse_policy(f: &Fields) -> Result<Policy> {
    let greedy = REROLLS_KEY.choice(f)? == "greedy";
    let threshold = THRESHOLD.number(f)?;
    let refuse = match REFUSE.choice(f)? {
        side if side == SIDES[0] => Refuse::Attacker,
        side if side == SIDES[1] => Refuse::Defender,
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
    let rounds = ADVANCED_ROUNDS.opt_int(fields)?;
    match SYSTEM.choice(fields)? {
        "advanced" => Ok(System::Advanced {
            rounds: rounds.unwrap_or(2) as u8,
        }),
        _ => {
            if rounds.is_some() {
                return Err(AleaError::input(
                    fields.source,
                    ADVANCED_ROUNDS.field(fields),
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
            FULL_COASTAL_CONTROL.field_in(SIDES[1]),
            true,
            "false when the attacker already controls every coastal city of the zone",
        ));
    }
    Ok(())
}
