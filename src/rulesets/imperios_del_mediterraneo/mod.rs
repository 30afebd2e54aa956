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
    game: Some(game::build),
    policies: crate::rulesets::policies!(game::policy::CATALOG),
};

const BATTLES: &[&str] = &["field", "naval", "pacify", "expedition"];
/// Options only the full game reads.
const GAME_ONLY: &[&str] = &[];

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
        name: "recovery_scope",
        reference: "A-31 (L818-L826, L891-L893)",
        summary: "game: which cards discarded in a battle roll for recovery: \"all_discarded\" (every one, Leaders and third-party X cards included) or \"troop_fleet_leader_only\"; the two agree while no X card is played (the vanilla decks hold none)",
        kind: OptionKind::Choice(&["all_discarded", "troop_fleet_leader_only"]),
        default: OptionValue::Choice("all_discarded"),
        battles: GAME_ONLY,
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
    RuleOption {
        name: "round_counter_resets_each_turn",
        reference: "A-01 (L283-L284, L355-L356, L1121)",
        summary: "game: the round counter (and with it the event roll's +1 per round played) starts again at each turn",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "all_pass_bonus",
        reference: "A-02 (L357-L358, L598-L600)",
        summary: "game: added to the event roll after a round in which every player passed (Change card is not a pass)",
        kind: OptionKind::Int { min: 0, max: 6 },
        default: OptionValue::Int(2),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "progression_tie_card",
        reference: "A-12 (L488-L490, L497-L509)",
        summary: "game: hand-size extra for each player tied for the best progression (they get +2 VP each; the literal reading gives no card)",
        kind: OptionKind::Int { min: 0, max: 1 },
        default: OptionValue::Int(0),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "double_vp_turn",
        reference: "A-13, A-44 (L492-L495, L555-L556, L1077-L1082)",
        summary: "game: the turn whose end-of-turn VP are doubled with extra turns (8.2): \"last\" or \"third\"",
        kind: OptionKind::Choice(&["last", "third"]),
        default: OptionValue::Choice("last"),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "wreck_ends_action_phase",
        reference: "A-23 (L697-L712)",
        summary: "game: a wreck at a strait ends the whole action phase (a second Campaign-season expedition is forfeited)",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "neutral_attack_may_target_self",
        reference: "A-05 (L380-L392)",
        summary: "game: the player the Neutral Attack event picks may aim the neutral city at one of his own cities",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "pirates_may_target_self",
        reference: "A-09 (L442-L451)",
        summary: "game: the player the Pirates event picks may aim them at one of his own ports",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "shorter_game",
        reference: "8.4, A-46 (L1119-L1125)",
        summary: "game: optional rule 8.4, +2 more on the event roll from the 5th round of each turn",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "first_commands",
        reference: "8.1, A-43 (L1069-L1075)",
        summary: "game: optional rule 8.1, the VP leader (the earliest seat on a tie) picks who starts every round of the turn",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "interception_timing",
        reference: "A-24 (L749-L751), §3.3",
        summary: "game: when the defender decides its interceptions (at most one land and one naval per expedition, fought in route order): \"as-reached\" = at each point as the expedition reaches it (its departure port before the naval battle, the naval leg, the arrival), seeing the attacker's surviving cards and the earlier battles' results; \"at-declaration\" = both committed when the expedition is declared",
        kind: OptionKind::Choice(&["as-reached", "at-declaration"]),
        default: OptionValue::Choice("as-reached"),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "special_event_window",
        reference: "§3.0 card-play window (L767-L770, L843-L846, L926-L932, L1137-L1149), A-61",
        summary: "game: where the Special Event (X) cards committed to an expedition's card window (by the attacker, the defender and third parties, for either side) are played: \"first-battle\" = in the first combat of its chain that is fought (a naval or land interception's battle, else the assault or pacification), discarded there (after a battle each rolls for recovery); \"target\" = kept for the assault or pacification",
        kind: OptionKind::Choice(&["first-battle", "target"]),
        default: OptionValue::Choice("first-battle"),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "free_passage",
        reference: "8.3 (L1092-L1108)",
        summary: "game: optional rule 8.3, a route may pass other players' cities whose owners grant passage (asked in route order); refused, the attacker cancels (cards back to hand) or attacks that city; an interceptor refused never attacks",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME_ONLY,
    },
    RuleOption {
        name: "extra_turns",
        reference: "8.2 (L1077-L1082)",
        summary: "game: optional rule 8.2, turns played beyond the scenario's",
        kind: OptionKind::Int { min: 0, max: 2 },
        default: OptionValue::Int(0),
        battles: GAME_ONLY,
    },
];
