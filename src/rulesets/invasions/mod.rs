//! Invasions, Volume 1 (350-650 AD): every battle-like procedure of the rulebook.
//! Rules digest: `../shared/rules/invasions.md` §3 (combat), §3.15-§3.16, §7 (worked examples), §8.
//!
//! Each procedure lives in its own file and exposes `SUMMARY`, `OUTCOMES`, `KEYS` and `build`; the
//! land battles share the army model, the dice faces and the tables.

// Sides are indexed 0 (attacker) and 1 (defender) throughout; loops over 0..2 say so plainly.
#![allow(clippy::needless_range_loop)]

pub mod faces;
pub mod tables;
pub mod wording;

pub mod advanced;
pub mod allocation;
pub mod army;
pub mod basic;
pub mod flight;
pub mod game;
pub mod interception;
pub mod land;
pub mod landing;
pub mod limes;
pub mod naval;
pub mod naval_input;
pub mod outcome;
pub mod passage;
pub mod pillage_markers;
pub mod raid;
pub mod rerolls;
pub mod revolt;
pub mod siege;
pub mod status;
pub mod take_city;

use super::{BattleKind, Ruleset};
use crate::options::{OptionKind, OptionValue, RuleOption};

pub const SLUG: &str = "invasions";

/// The two sides of every Invasions battle, as keys, columns and reports name them.
pub const SIDES: [&str; 2] = ["attacker", "defender"];
/// The attacker's table alone and the defender's, as places of battle keys.
pub const ATTACKER: &[&str] = &[SIDES[0]];
pub const DEFENDER: &[&str] = &[SIDES[1]];

pub const RULESET: Ruleset = Ruleset {
    slug: SLUG,
    title: "Invasions vol. 1",
    digest: "../shared/rules/invasions.md",
    battles: &[
        kind!("basic", basic),
        kind!("advanced", advanced),
        kind!("siege", siege),
        kind!("naval", naval),
        kind!("landing", landing),
        kind!("raid", raid),
        kind!("revolt", revolt),
        kind!("interception", interception),
        kind!("flight", flight),
        kind!("limes", limes),
        kind!("passage", passage),
        kind!("status", status),
    ],
    sides: &SIDES,
    options: OPTIONS,
    game: Some(game::build),
    policies: crate::rulesets::policies!(game::policy::CATALOG),
};

const LAND: &[&str] = &["basic", "advanced"];

pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "forest_penalty",
        reference: "Q1 (L1388, L1819)",
        summary: "attacker's -1 in forest: \"barbarian-defender\" = only against a non-Nomad Barbarian defender, both systems; \"literal\" = basic as that, advanced against any defender that is not a Nomad Barbarian",
        kind: OptionKind::Choice(&["barbarian-defender", "literal"]),
        default: OptionValue::Choice("barbarian-defender"),
        battles: LAND,
    },
    RuleOption {
        name: "river_amphibious",
        reference: "XX.F, the mixed-situation rule (L1371, L1373, L1390, L1822)",
        summary: "attacker's river die when only some attackers are amphibious: \"one-amphibious-cancels\" = amphibious units are not subject to the river, and a penalty of the mixed-situation kind needs every attacking unit subject to it, so one amphibious unit cancels it; \"all-amphibious\" = the die goes only when every attacker is amphibious",
        kind: OptionKind::Choice(&["one-amphibious-cancels", "all-amphibious"]),
        default: OptionValue::Choice("one-amphibious-cancels"),
        battles: LAND,
    },
    RuleOption {
        name: "mixed_stack_bonus",
        reference: "Q2 (L1411-1412, L1837-1838)",
        summary: "Empire vs Barbarians and Nomads in steppe: \"one-unit\" = one qualifying unit suffices, both systems; \"all-units-in-basic\" = the basic text's every-unit condition",
        kind: OptionKind::Choice(&["one-unit", "all-units-in-basic"]),
        default: OptionValue::Choice("one-unit"),
        battles: LAND,
    },
    RuleOption {
        name: "elite_exchange_minimum",
        reference: "Q3 (L1590, L1612-1616)",
        summary: "elites needed for the elite exchange / +1: 2 by the rule; 4 reproduces the printed Argentoratum pool (3 Roman elites, no exchange)",
        kind: OptionKind::Int { min: 2, max: 4 },
        default: OptionValue::Int(2),
        battles: LAND,
    },
    RuleOption {
        name: "rerolls_in_fire_round",
        reference: "Q4 (L1364, L2046)",
        summary: "leaders' rerolls may also be used on the fire round (the advanced Adrianople example's aside)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: LAND,
    },
    RuleOption {
        name: "ambusher",
        reference: "Q5 (L1350-1358, L1674, L2027)",
        summary: "who may ambush in mountains: \"side-already-present\" (an intercepted stack ambushes its interceptors, as in both Adrianople examples) or \"defender\" (literal)",
        kind: OptionKind::Choice(&["side-already-present", "defender"]),
        default: OptionValue::Choice("side-already-present"),
        battles: LAND,
    },
    RuleOption {
        name: "ambush_recompute_advantages",
        reference: "Q5 (L1800)",
        summary: "recompute the cavalry and heavy advantages between the ambush volley and the return fire",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: LAND,
    },
    RuleOption {
        name: "fire_dice_rounding",
        reference: "Q6 (L1339-1341, L1486)",
        summary: "basic fire dice: \"per-category\" = archers/2, Franks/4, ambush infantry/4 each rounded up; \"pooled\" = the sum rounded once",
        kind: OptionKind::Choice(&["per-category", "pooled"]),
        default: OptionValue::Choice("per-category"),
        battles: LAND,
    },
    RuleOption {
        name: "tie_city_or_horde",
        reference: "Q7 (L1441)",
        summary: "a tie goes to the Defender when a fortified city or horde is present: \"defender-side\" = the Defender's city or horde; \"any-side\" = an attacking horde counts too",
        kind: OptionKind::Choice(&["defender-side", "any-side"]),
        default: OptionValue::Choice("defender-side"),
        battles: LAND,
    },
    RuleOption {
        name: "sum_leader_rerolls",
        reference: "Q8 (L1360-1366, L1442)",
        summary: "several leaders in one stack add their rerolls (default: only the best leader's combat bonus counts)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: LAND,
    },
    RuleOption {
        name: "fortified_city_bonus",
        reference: "Q9 (L1399, L2134)",
        summary: "who gets the fortified city's +1 die / +1: \"civilized-defender\" (XXIII.B) or \"any-defender\" (XX.F as printed)",
        kind: OptionKind::Choice(&["civilized-defender", "any-defender"]),
        default: OptionValue::Choice("civilized-defender"),
        battles: LAND,
    },
    RuleOption {
        name: "small_battle_count",
        reference: "Q10 (L1457)",
        summary: "units counted by the small-battle recovery rule: \"combat-units\" or \"with-horde-and-limes\"",
        kind: OptionKind::Choice(&["combat-units", "with-horde-and-limes"]),
        default: OptionValue::Choice("combat-units"),
        battles: LAND,
    },
    RuleOption {
        name: "both_wiped_out",
        reference: "Q11 (L1439)",
        summary: "both stacks destroyed: \"compare-eliminations\" (then the tie rules) or \"defender-wins\"",
        kind: OptionKind::Choice(&["compare-eliminations", "defender-wins"]),
        default: OptionValue::Choice("compare-eliminations"),
        battles: LAND,
    },
    RuleOption {
        name: "horde_needs_extra_hit_on_defence",
        reference: "Q12 (L1434, L2426-2433)",
        summary: "a defending horde is captured only if a hit is left over once all its nation's units are gone (default: losing with no unit of its nation left suffices)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: LAND,
    },
    RuleOption {
        name: "tie_break_bonus",
        reference: "Q28 (L1442)",
        summary: "the leader tie-break compares the \"printed\" combat bonus or the \"remaining-rerolls\"",
        kind: OptionKind::Choice(&["printed", "remaining-rerolls"]),
        default: OptionValue::Choice("printed"),
        battles: LAND,
    },
    RuleOption {
        name: "ambush_extra_units",
        reference: "Q33 (L1357, L1793)",
        summary: "the ambusher's extra fire counts \"infantry\" (non-archer, non-Frankish, non-cavalry) or \"all-other-units\" (advanced literal)",
        kind: OptionKind::Choice(&["infantry", "all-other-units"]),
        default: OptionValue::Choice("infantry"),
        battles: LAND,
    },
    RuleOption {
        name: "fire_minimum_one_die",
        reference: "Q41 (L1345, L1403)",
        summary: "the minimum of one die also applies to the basic fire round of a side that has firing units",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: LAND,
    },
    RuleOption {
        name: "advanced_fire_rounding",
        reference: "Q48 (L1791, L1904)",
        summary: "advanced fire modifiers: \"total\" = sum the halves exactly, round the total up; \"per-term\" = round each category up",
        kind: OptionKind::Choice(&["total", "per-term"]),
        default: OptionValue::Choice("total"),
        battles: LAND,
    },
    RuleOption {
        name: "advanced_fire_heavy_penalty",
        reference: "Q49 (L1975)",
        summary: "enemy heavy advantage in the advanced fire round: \"minus-two\" (rule) or \"lose-basic-die\" (a side whose basic fire pool would be emptied does not fire, as the advanced Argentoratum example says)",
        kind: OptionKind::Choice(&["minus-two", "lose-basic-die"]),
        default: OptionValue::Choice("minus-two"),
        battles: LAND,
    },
    RuleOption {
        name: "naval_red_swords",
        reference: "Q20 (L2240-2243)",
        summary: "red swords also hit at sea (default: they count only in plain, steppe or desert, so not at sea)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["naval", "landing"],
    },
    RuleOption {
        name: "naval_elite_fleets",
        reference: "Q20 (L2240-2243)",
        summary: "whose elite fleets take two hits: \"any-civilized\" or \"rome-byzantium\" only",
        kind: OptionKind::Choice(&["any-civilized", "rome-byzantium"]),
        default: OptionValue::Choice("any-civilized"),
        battles: &["naval", "landing"],
    },
    RuleOption {
        name: "naval_small_battle_recovery",
        reference: "Q22 (L1457, L1460)",
        summary: "the small-battle recovery rule applies at sea (2 fleets each: recover 1; a single fleet: none)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["naval", "landing"],
    },
    RuleOption {
        name: "assault_hits_per_reroll",
        reference: "Q23 (L2174)",
        summary: "an assault's 2 hits are taken again for every reroll (default: once per siege attempt)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["siege", "basic", "advanced"],
    },
    RuleOption {
        name: "maintained_siege_rerolls",
        reference: "Q24 (L2183)",
        summary: "a siege maintained by one unit in later campaigns keeps the leader's rerolls (default: no rerolls)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["siege"],
    },
    RuleOption {
        name: "terror_each_arrival",
        reference: "Q26 (L2162-2168)",
        summary: "Barbarian terror is tested at every arrival of a Barbarian leader's stack (default); false = once per city",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["siege"],
    },
    RuleOption {
        name: "flight_size_bonus",
        reference: "Q13 (L1253, L3398)",
        summary: "flight's +3: \"fleeing-side-double\" (literal: the fleeing side has twice the entering units) or \"entering-side-double\"",
        kind: OptionKind::Choice(&["fleeing-side-double", "entering-side-double"]),
        default: OptionValue::Choice("fleeing-side-double"),
        battles: &["flight"],
    },
    RuleOption {
        name: "lost_minus_signs",
        reference: "Q14 (L1215-1218, L1254-1255, L1030-1031)",
        summary: "modifiers whose minus sign the extraction lost: \"restored\" (confirmed by L1244) or \"as-extracted\" (read as bonuses)",
        kind: OptionKind::Choice(&["restored", "as-extracted"]),
        default: OptionValue::Choice("restored"),
        battles: &["interception", "flight", "revolt"],
    },
    RuleOption {
        name: "overrun_lone_horde",
        reference: "Q38 (L1133)",
        summary: "a stack of 6+ may overrun a lone horde (default: no, an overrun needs a single enemy unit)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["passage"],
    },
    RuleOption {
        name: "revolt_area_half",
        reference: "Q18 (L1002-1007 vs L3310-3313)",
        summary: "full game: an Empire's rebel Area is rolled on the table of \"capital\" (its capital's map half; a D2 only when none applies, e.g. the united Empire before the split: the main text) or \"d2\" (a D2 always picks the half, as the summary's table labels suggest)",
        kind: OptionKind::Choice(&["capital", "d2"]),
        default: OptionValue::Choice("capital"),
        battles: &[],
    },
    RuleOption {
        name: "foedus_vp_turns",
        reference: "Q30 (L2388)",
        summary: "full game: a federate scores its 3 VP per Foedus \"every-turn\" (\"cada turno\", at every turn's Scoring phase) or only on \"scoring-turns\"",
        kind: OptionKind::Choice(&["every-turn", "scoring-turns"]),
        default: OptionValue::Choice("every-turn"),
        battles: &[],
    },
    RuleOption {
        name: "heresy_expense_kingdom",
        reference: "Q45 (L915)",
        summary: "full game: a Kingdom pays 1 gold a turn per heretical Area \"mixed-only\" when it also holds land in a non-heretical Area (nothing when all its Areas are heretical), or \"always\" like an Empire",
        kind: OptionKind::Choice(&["mixed-only", "always"]),
        default: OptionValue::Choice("mixed-only"),
        battles: &[],
    },
    RuleOption {
        name: "diplomacy_played_cards",
        reference: "Q52 (XXX.A)",
        summary: "full game: diplomacy cards played during a turn are \"reshuffled\" into the deck with the unused ones at End of Diplomacy, or \"discarded\" for the rest of the game (only unused cards return)",
        kind: OptionKind::Choice(&["reshuffled", "discarded"]),
        default: OptionValue::Choice("reshuffled"),
        battles: &[],
    },
    RuleOption {
        name: "naval_intercepted_move",
        reference: "Q21 (L2232, L2244, L2249)",
        summary: "full game: a moving naval stack intercepted on its way (in a zone it enters, or where it stands) that fights the battle \"continues\" its move unless sunk (Q21: no displacement after a naval battle; only a refusal ends the move) or \"stops\" where it was intercepted (reading L2232's intercepted fleets do not move as the target's move ending)",
        kind: OptionKind::Choice(&["continues", "stops"]),
        default: OptionValue::Choice("continues"),
        battles: &[],
    },
    RuleOption {
        name: "game_battle_system",
        reference: "XXI (L1763), the advanced system is an optional rule",
        summary: "full game: land battles by the \"basic\" system (battle dice) or the optional \"advanced\" one (2D6 and the combat table)",
        kind: OptionKind::Choice(&["basic", "advanced"]),
        default: OptionValue::Choice("basic"),
        battles: &[],
    },
    RuleOption {
        name: "empire_area_bonus",
        reference: "Q15 (L542, L3292)",
        summary: "Empire test: +2 per Civilized Area \"from-the-third\" on (rule) or only \"beyond-three\" (player-aid summary)",
        kind: OptionKind::Choice(&["from-the-third", "beyond-three"]),
        default: OptionValue::Choice("from-the-third"),
        battles: &["status"],
    },
    RuleOption {
        name: "kingdom_treasury_tens",
        reference: "Q16 (L509)",
        summary: "Kingdom test's -1 per 10 gold: \"complete-tens\" (15 gold = -1) or \"rounded-up\" (the global rule: 15 gold = -2)",
        kind: OptionKind::Choice(&["complete-tens", "rounded-up"]),
        default: OptionValue::Choice("complete-tens"),
        battles: &["status"],
    },
];
#[cfg(test)]
mod land_tests;
#[cfg(test)]
mod test_support;
