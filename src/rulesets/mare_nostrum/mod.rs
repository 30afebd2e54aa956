//! Mare Nostrum (rules V18-J2012): naval battle, field battle, assault and siege.
//! Rules digest: `../shared/rules/mare-nostrum.md` §3 (combat), §4.3 (age checks), §8, §9.

pub mod city;
pub mod field;
pub mod game;
mod leader;
pub mod naval;
pub mod pillage;
pub mod units;
mod winner;

pub use leader::{Leader, LeaderFate};
pub use winner::{decide, Sizes, Winner, WinnerRule};

use super::{BattleKind, Ruleset};
use crate::options::{OptionKind, OptionValue, RuleOption};

pub const SLUG: &str = "mare-nostrum";

/// The two sides of every Mare Nostrum battle, as keys, columns and reports name them.
pub const SIDES: [&str; 2] = ["attacker", "defender"];
/// The attacker's table alone and the defender's, as places of battle keys.
pub const ATTACKER: &[&str] = &[SIDES[0]];
pub const DEFENDER: &[&str] = &[SIDES[1]];
/// The winner of a field or naval battle, or nobody.
pub const OUTCOMES: &[&str] = &[SIDES[0], SIDES[1], "none"];

pub const RULESET: Ruleset = Ruleset {
    slug: SLUG,
    title: "Mare Nostrum",
    digest: "../shared/rules/mare-nostrum.md",
    battles: &[
        BattleKind {
            name: "field",
            summary: "field battle: one simultaneous exchange, up to 15 dice a side (rule 4.2)",
            outcomes: OUTCOMES,
            loss_unit: "units",
            keys: field::KEYS,
            build: field::build,
        },
        BattleKind {
            name: "naval",
            summary: "naval battle: one simultaneous exchange, up to 20 dice a side, port modifier (rule 4.1)",
            outcomes: OUTCOMES,
            loss_unit: "fleets",
            keys: naval::KEYS,
            build: naval::build,
        },
        BattleKind {
            name: "assault",
            summary: "assault on a city: attackers hit on 10, garrison on 9-10, up to 6 orders a turn (rule 4.3)",
            outcomes: &["taken", "held"],
            loss_unit: "units",
            keys: city::ASSAULT_KEYS,
            build: city::build_assault,
        },
        BattleKind {
            name: "siege",
            summary: "siege of a city: up to 10 attacking dice, both hit on 10, up to 5 orders a turn (rule 4.4)",
            outcomes: &["taken", "held"],
            loss_unit: "units",
            keys: city::SIEGE_KEYS,
            build: city::build_siege,
        },
        BattleKind {
            name: "pillage",
            summary: "pillage (raze): units beyond the province's PPR destroy one on a 10 each (L665-L667)",
            outcomes: &["destroyed", "spared"],
            loss_unit: "units",
            keys: pillage::KEYS,
            build: pillage::build,
        },
    ],
    sides: &SIDES,
    options: OPTIONS,
    game: Some(game::build),
    policies: crate::rulesets::policies!(game::policy::CATALOG),
};

const FIELD: &[&str] = &["field"];
const NAVAL: &[&str] = &["naval"];
const FIELD_NAVAL: &[&str] = &["field", "naval"];
const CITY: &[&str] = &["assault", "siege"];

pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "port_modifier",
        reference: "A1 (L679)",
        summary: "naval modifier per port in excess: \"ceil-half\" = +1 per 2 ports or fraction; \"floor-half\" = +1 per full 2 ports",
        kind: OptionKind::Choice(&["ceil-half", "floor-half"]),
        default: OptionValue::Choice("ceil-half"),
        battles: NAVAL,
    },
    RuleOption {
        name: "natural_one_misses",
        reference: "A2 (L677)",
        summary: "a natural 1 always misses in naval battles even when the port modifier would make it hit",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: NAVAL,
    },
    RuleOption {
        name: "ratio_basis",
        reference: "A4 (L689-L690, L706-L707)",
        summary: "units counted for the 2:1 rule: \"all-units\" at the start, or only the \"rolling-units\" (dice cap)",
        kind: OptionKind::Choice(&["all-units", "rolling-units"]),
        default: OptionValue::Choice("all-units"),
        battles: FIELD_NAVAL,
    },
    RuleOption {
        name: "more_than_double",
        reference: "A5 (L689, L706)",
        summary: "criterion 1 needs \"strict\" more than double the losses suffered, or \"inclusive\" (double suffices)",
        kind: OptionKind::Choice(&["strict", "inclusive"]),
        default: OptionValue::Choice("strict"),
        battles: FIELD_NAVAL,
    },
    RuleOption {
        name: "casualty_allocation",
        reference: "A8 (L685, L702, L704)",
        summary: "\"random\" = uniform over all units present; \"owner-choice\" = weakest first (infantry, veteran infantry, cavalry, veteran cavalry)",
        kind: OptionKind::Choice(&["random", "owner-choice"]),
        default: OptionValue::Choice("random"),
        battles: &["field", "assault", "siege"],
    },
    RuleOption {
        name: "veteran_bonus_stacks",
        reference: "A10 (L734-L736, L710)",
        summary: "a veteran's +1 adds to the leader's modifier (true) or only the larger of the two applies (false)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: FIELD,
    },
    RuleOption {
        name: "veteran_promotion",
        reference: "A11 (L708-L710)",
        summary: "which surviving units of the winner become veterans: \"random\" or \"best-first\" (cavalry first)",
        kind: OptionKind::Choice(&["random", "best-first"]),
        default: OptionValue::Choice("random"),
        battles: FIELD,
    },
    RuleOption {
        name: "assault_dice_cap",
        reference: "A13 (L714)",
        summary: "most dice the attackers roll in an assault; 0 = no cap (the siege cap of 10 is printed, this one is not)",
        kind: OptionKind::Int { min: 0, max: 1_000_000 },
        default: OptionValue::Int(0),
        battles: &["assault"],
    },
    RuleOption {
        name: "city_combat_order",
        reference: "A14 (L714, L722)",
        summary: "assault and siege fire \"simultaneous\" or \"attacker-first\" (the garrison fires with what survives)",
        kind: OptionKind::Choice(&["simultaneous", "attacker-first"]),
        default: OptionValue::Choice("simultaneous"),
        battles: CITY,
    },
    RuleOption {
        name: "siege_losses_from",
        reference: "A15 (L722)",
        summary: "siege losses fall on \"all-units\" present or only on the (at most 10) \"rolling-units\"",
        kind: OptionKind::Choice(&["all-units", "rolling-units"]),
        default: OptionValue::Choice("all-units"),
        battles: &["siege"],
    },
    RuleOption {
        name: "city_combat_is_battle",
        reference: "A17 (L742-L759, L956-L959)",
        summary: "treat each assault or siege order as a battle with no winner for the leader (+1 age, age check at 1/4)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: CITY,
    },
    RuleOption {
        name: "mutual_destruction",
        reference: "L718, L728 (not in the digest's list; its pseudocode and D10 occupy)",
        summary: "when the last garrison point and the last attacker fall in the same exchange: \"city-taken\" or \"city-held\"",
        kind: OptionKind::Choice(&["city-taken", "city-held"]),
        default: OptionValue::Choice("city-taken"),
        battles: CITY,
    },
    RuleOption {
        name: "occupation_costs_stability",
        reference: "A18 (L269, L453, L963)",
        summary: "the owner of an occupied city loses 1 stability",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: CITY,
    },
    RuleOption {
        name: "excess_kill_vp_without_winner",
        reference: "L957-L958 (§3.1, §3.2 post-battle 4)",
        summary: "the side that eliminated more units earns the excess-kill VP even when the battle has no winner",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: FIELD_NAVAL,
    },
    RuleOption {
        name: "stability_vs_independents",
        reference: "A20 (L267-L268)",
        summary: "\"loss-only\": beating an independent gives no stability, losing to one costs 1; \"both\": win +1 too; \"none\"",
        kind: OptionKind::Choice(&["loss-only", "both", "none"]),
        default: OptionValue::Choice("loss-only"),
        battles: FIELD,
    },
    RuleOption {
        name: "battle_vp_against_independents",
        reference: "A21 (L956-L957)",
        summary: "battles against a leader-led independent army earn the +5 win VP and the excess-kill VP",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: FIELD,
    },
    RuleOption {
        name: "age_check_roll",
        reference: "A24 (L750-L767)",
        summary: "a leader leaves play when d100 is \"strictly-below\" floor(age x fraction), or \"at-or-below\" it",
        kind: OptionKind::Choice(&["strictly-below", "at-or-below"]),
        default: OptionValue::Choice("strictly-below"),
        battles: &["field", "assault", "siege"],
    },
    RuleOption {
        name: "age_check_timing",
        reference: "A25 (L743-L756)",
        summary: "the after-battle age check uses the age \"after-ageing\" (+1, +3 if lost) or \"before-ageing\"",
        kind: OptionKind::Choice(&["after-ageing", "before-ageing"]),
        default: OptionValue::Choice("after-ageing"),
        battles: &["field", "assault", "siege"],
    },
    RuleOption {
        name: "optimal_investment_vp",
        reference: "A32 (L965)",
        summary: "full game: a stability gain at Optimal (investments included) earns +5 VP instead",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: GAME,
    },
    RuleOption {
        name: "free_trade_split",
        reference: "A35 (L1002)",
        summary: "full game: turn-1 free trade points, \"literal\" 66% up to nations and 33% down to independents, or \"two-thirds\" ceil(2n/3) and the rest",
        kind: OptionKind::Choice(&["literal", "two-thirds"]),
        default: OptionValue::Choice("literal"),
        battles: GAME,
    },
    RuleOption {
        name: "history_cards",
        reference: "§5.15, §7.2",
        summary: "full game: \"off\" (the deck is not printed) or an \"abstract\" deck of +20 T, +1 stability and +5 VP cards",
        kind: OptionKind::Choice(&["off", "abstract"]),
        default: OptionValue::Choice("off"),
        battles: GAME,
    },
];

/// Options read only by the full game.
const GAME: &[&str] = &[];
