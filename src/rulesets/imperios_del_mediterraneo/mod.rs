//! Imperios del Mediterráneo (digest `../shared/rules/imperios-del-mediterraneo.md`): every combat
//! is one opposed roll of fixed factors plus dice, ties to the defender. Cards are data
//! (`scenarios/imperios-del-mediterraneo/cards.toml` holds assumed examples).

pub mod assault;
pub mod battle;
pub mod cards;
pub mod expedition;
pub mod forces;
pub mod game;
pub mod raid;
pub mod rolloff;
pub mod strait;
#[cfg(test)]
mod tests;

use super::{BattleKind, Ruleset};
use crate::options::{OptionKind, OptionValue, RuleOption};
use battle::{field, naval, pacify};

/// The two sides of every battle of this ruleset, as keys, outcomes and columns name them.
pub const SIDES: [&str; 2] = ["attacker", "defender"];
/// The attacker's table alone and the defender's, as places of battle keys.
pub const ATTACKER: &[&str] = &[SIDES[0]];
pub const DEFENDER: &[&str] = &[SIDES[1]];

pub const RULESET: Ruleset = Ruleset {
    slug: "imperios-del-mediterraneo",
    title: "Imperios del Mediterráneo",
    digest: "../shared/rules/imperios-del-mediterraneo.md",
    battles: &[
        kind!("field", field, "cards"),
        kind!("naval", naval, "cards"),
        kind!("assault", assault, "cards"),
        kind!("pacify", pacify, "cards"),
        kind!("strait", strait, "cards"),
        kind!("expedition", expedition, "cards"),
        kind!("raid", raid, "cards"),
    ],
    sides: &SIDES,
    options: OPTIONS,
    game: None,
    policy_help: None,
};

const BATTLES: &[&str] = &["field", "naval", "pacify", "expedition"];

pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "barbarian_casualty_count",
        reference: "A-29 (L798-L805, L871-L876)",
        summary: "the cards a barbarian area \"began the resolution with\" for the casualty roll: \"dice\" = its dice (strength + Enraged), \"zero\" = none (no casualty roll)",
        kind: OptionKind::Choice(&["dice", "zero"]),
        default: OptionValue::Choice("dice"),
        battles: &["field", "pacify", "expedition"],
    },
    RuleOption {
        name: "aside_fleets_recover",
        reference: "A-32 (L835-L837, L882-L886)",
        summary: "fleets set aside in a field battle the attacker loses are discarded with the expedition and roll for recovery",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["field"],
    },
    RuleOption {
        name: "pacify_survivors_get_recovery_roll",
        reference: "A-38 (L1000-L1005)",
        summary: "after a won pacification the attacker's surviving cards (discarded, the attack over) also roll for recovery; default: only the cards lost in the battle",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["pacify"],
    },
    RuleOption {
        name: "em_ends_without_troops",
        reference: "A-51 (L1206-L1208)",
        summary: "an expedition left with no Troop card after a battle ends even if it still has fleets",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: BATTLES,
    },
    RuleOption {
        name: "bad_weather_wreck_ones",
        reference: "A-08 (L435-L437)",
        summary: "1s on the 3 danger-check dice that wreck an expedition in bad weather (fewer 1s, at least one, cost a card)",
        kind: OptionKind::Int { min: 2, max: 3 },
        default: OptionValue::Int(2),
        battles: &["strait", "expedition", "raid"],
    },
    RuleOption {
        name: "pirates_intercepted",
        reference: "A-09 (L442-L451)",
        summary: "the city's owner may intercept pirates (default: no, they assault the city directly)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["raid"],
    },
    RuleOption {
        name: "fleets_assault_after_landing",
        reference: "A-33 (L907-L909, L689-L693)",
        summary: "the fleets join the assault after a landing too (the city has a port and the naval leg reached it)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["expedition"],
    },
    RuleOption {
        name: "dice_fc_for_direct_assault",
        reference: "A-22 (L685-L688)",
        summary: "a fleet's assault value printed as dice, for the direct-assault check (fleets' assault factors >= the city's size): \"min\" = each die counts 1, \"mean\" = 3.5, \"max\" = 6",
        kind: OptionKind::Choice(&["min", "mean", "max"]),
        default: OptionValue::Choice("min"),
        battles: &["expedition"],
    },
];
