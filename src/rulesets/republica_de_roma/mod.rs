//! República de Roma: Rome's armies against the wars (rulebook §1.10; digest §3, §7, §8). Card
//! values and tables come from `scenarios/republica-de-roma/` (see its README for provenance).

pub mod armies;
pub mod battle;
pub mod campaign;
pub mod chits;
pub mod civil;
pub mod data;
pub mod game;
pub mod naval_land;
pub mod provincial;
pub mod rebel_province;

use super::{BattleKind, Ruleset};
use crate::options::{OptionKind, OptionValue, RuleOption};

const KEYS: &[&str] = &[
    "[rome] legions, veteran_legions, fleets: Rome's army (at most 25 legions; a veteran legion counts 2)",
    "[rome] commander: a statesman or senator by name or id (gives MIL and abilities), or commander_military = N",
    "[rome] master_of_horse_military: the Master of Horse's MIL when a Dictator commands",
    "[war] name: a war from the data, or land_strength, naval_strength, fleet_support, disaster_numbers, standoff_numbers, spoils, revolt",
    "[war] naval_victory: true once Rome has beaten the war's fleet (needed before a land battle against a war with a fleet)",
    "matching_wars: active wars of the series, 1..4 (multiplies the strength); enemy_leaders: leader names; evil_omens: cards in play",
];

const CAMPAIGN_KEYS: &[&str] = &[
    "the land battle's keys ([rome], [war], matching_wars, enemy_leaders, evil_omens), plus:",
    "phases: Combat phases to fight, 1..30 (default 3)",
    "reinforcement: \"none\" (default) or \"replace-losses\" (the Senate tops the army up each turn, 10 T a unit)",
    "reinforce_up_to: the legions to top up to (default: the army's starting legions; fleets back to the starting fleets)",
];

pub const RULESET: Ruleset = Ruleset {
    slug: "republica-de-roma",
    title: "República de Roma",
    digest: "../shared/rules/republica-de-roma.md",
    battles: &[
        BattleKind {
            name: "land",
            summary: "land battle against a war: 3d6 + troops + MIL − enemy strength on the CRT; Disaster and Standoff numbers",
            outcomes: &["victory", "stalemate", "defeat", "disaster", "standoff"],
            loss_unit: "legions",
            keys: &[],
            doc: KEYS,
            build: battle::build_land,
        },
        BattleKind {
            name: "naval",
            summary: "naval battle against a war's fleet: fleets instead of legions; legions aboard share the losses",
            outcomes: &["victory", "stalemate", "defeat", "disaster", "standoff"],
            loss_unit: "legions",
            keys: &[],
            doc: KEYS,
            build: battle::build_naval,
        },
        BattleKind {
            name: "naval-then-land",
            summary: "naval battle, then at once the land battle with the survivors (same army, same Combat phase)",
            outcomes: &["victory", "stalemate", "defeat", "disaster", "standoff", "naval_victory_only"],
            loss_unit: "legions",
            keys: &[],
            doc: KEYS,
            build: naval_land::build,
        },
        BattleKind {
            name: "campaign",
            summary: "one army against one war over several Combat phases: P(war defeated within N), with a reinforcement policy",
            outcomes: &["defeated", "commander_lost", "army_recalled", "undecided"],
            loss_unit: "legions",
            keys: &[],
            doc: CAMPAIGN_KEYS,
            build: campaign::build,
        },
        BattleKind {
            name: "civil-war",
            summary: "the Senate's army against a rebel's: CRT only, both sides take losses, one pool of mortality chits (L831-L841)",
            outcomes: &["victory", "stalemate", "defeat"],
            loss_unit: "legions",
            keys: &[],
            doc: &[
                "[rome] and [rebel]: legions, veteran_legions, commander (name or id) or commander_military, master_of_horse_military",
            ],
            build: civil::build_civil_war,
        },
        BattleKind {
            name: "blockade",
            summary: "naval blockade of a rebel's reinforcements: fleets only, no MIL, no chits; a Senate victory keeps them out (L996-L998)",
            outcomes: &["victory", "stalemate", "defeat"],
            loss_unit: "legions",
            keys: &[],
            doc: &["[rome] fleets: fleets in Rome's port", "[rebel] fleets: the rebel's naval strength (initial naval strength + provincial and own fleets)"],
            build: civil::build_blockade,
        },
        BattleKind {
            name: "armies",
            summary: "several armies against one war in one Combat phase, in order; each Disaster/Standoff number once (L663-L665)",
            outcomes: &["defeated", "stands"],
            loss_unit: "legions",
            keys: &[],
            doc: &[
                "[[armies]]: up to 4 tables like [rome] (legions, veteran_legions, fleets, commander...), in attack order",
                "[war], matching_wars, enemy_leaders, evil_omens: as for a land battle",
            ],
            build: armies::build,
        },
        BattleKind {
            name: "provincial",
            summary: "a province and its governor against the war attacking it (advanced rule 2.02, L923-L953)",
            outcomes: &["victory", "stalemate", "defeat", "disaster", "standoff"],
            loss_unit: "legions",
            keys: &[],
            doc: &[
                "[province] initial_strength, troops (provincial troops), fleets (provincial fleets), garrison (Senate legions), governor (name or id) or governor_military",
                "[war], matching_wars, enemy_leaders, evil_omens: as for a land battle",
            ],
            build: provincial::build,
        },
        BattleKind {
            name: "rebel-province",
            summary: "the Senate attacks a rebel governor's province: its armies make the war's numbers (advanced rule 2.03, L1006-L1033)",
            outcomes: &["victory", "stalemate", "defeat", "disaster", "standoff"],
            loss_unit: "legions",
            keys: &[],
            doc: &[
                "[rome]: the Senate's army, as for a land battle",
                "[province] initial_land, undeveloped_land, initial_naval, troops, fleets, garrison, veterans, governor_military",
                "stage: \"naval\" or \"land\" (default: naval first when the fleet support exceeds the undeveloped land strength)",
            ],
            build: rebel_province::build,
        },
    ],
    options: OPTIONS,
    game: Some(game::build),
    policy_help: Some(|| game::policy::CATALOG.help()),
};

const BOTH: &[&str] = &["land", "naval"];
/// Options that only the full game reads (`battles` lists battle kinds; a game reads every option).
const GAME: &[&str] = &[];

pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "matching_multiplies_naval",
        reference: "A-04 (L380)",
        summary: "matching wars multiply naval strength as well as land strength",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["naval"],
    },
    RuleOption {
        name: "leader_naval_strength",
        reference: "A-05 (L402, L724-L727)",
        summary: "an enemy leader adds to naval strength \"only-with-fleet\" (the war prints a naval strength) or \"always\"",
        kind: OptionKind::Choice(&["only-with-fleet", "always"]),
        default: OptionValue::Choice("only-with-fleet"),
        battles: &["naval"],
    },
    RuleOption {
        name: "mil_cap",
        reference: "A-15 (L571, L749)",
        summary: "the cap at troop strength applies to the \"combined\" MIL of Dictator and Master of Horse, or to \"each\"",
        kind: OptionKind::Choice(&["combined", "each"]),
        default: OptionValue::Choice("combined"),
        battles: BOTH,
    },
    RuleOption {
        name: "disaster_standoff_tie",
        reference: "A-16 (L761, L765)",
        summary: "a roll that is both a Disaster and a Standoff number counts as \"disaster\" or \"standoff\"",
        kind: OptionKind::Choice(&["disaster", "standoff"]),
        default: OptionValue::Choice("disaster"),
        battles: BOTH,
    },
    RuleOption {
        name: "popularity_loss_counts",
        reference: "A-18 (L781)",
        summary: "popularity lost per 2 legions counts legion \"tokens\" or \"strength\" (a veteran counts 2)",
        kind: OptionKind::Choice(&["tokens", "strength"]),
        default: OptionValue::Choice("tokens"),
        battles: BOTH,
    },
    RuleOption {
        name: "veterans_from_naval_battles",
        reference: "A-19 (L773)",
        summary: "a naval Stalemate, Standoff or Victory also turns a surviving legion aboard into a veteran",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: &["naval"],
    },
    RuleOption {
        name: "naval_land_gain",
        reference: "A-21 (L769)",
        summary: "victory gain when one general beats fleet and army in a turn: \"combined\" ceil((naval+land)/2) or \"separate\" halves",
        kind: OptionKind::Choice(&["combined", "separate"]),
        default: OptionValue::Choice("combined"),
        battles: &["naval-then-land"],
    },
    RuleOption {
        name: "campaign_mortality_phase",
        reference: "§8.3 multi-turn (L246-L250)",
        summary: "in a campaign, the commander draws a mortality chit in each later turn's Mortality phase",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["campaign"],
    },
    RuleOption {
        name: "civil_war_defeat_kills_commander",
        reference: "L757 with L831 (\"the normal procedure\") vs L841 (silent)",
        summary: "a Senate defeat in a civil war kills the Senate's commander, as a defeat against a war does",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: &["civil-war"],
    },
    RuleOption {
        name: "rebel_naval_first_compares",
        reference: "A-31 (L1021 vs L1029)",
        summary: "a rebel province's naval battle comes first when its fleet support exceeds its \"undeveloped-land\" initial strength (the rule) or its \"current-land\" strength (the example)",
        kind: OptionKind::Choice(&["undeveloped-land", "current-land"]),
        default: OptionValue::Choice("undeveloped-land"),
        battles: &["rebel-province"],
    },
    RuleOption {
        name: "evil_omen_modifier",
        reference: "A-20 (L1879)",
        summary: "combat modifier per Evil Omen in play (never applied to the Disaster/Standoff check)",
        kind: OptionKind::Int { min: 0, max: 3 },
        default: OptionValue::Int(1),
        battles: BOTH,
    },
    RuleOption {
        name: "victory_gain_requires_survival",
        reference: "A-52 (L769, L785)",
        summary: "the victor's Influence and Popularity gain needs him to survive the mortality chits",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: BOTH,
    },
    RuleOption {
        name: "mortality_draw_two",
        reference: "§3.14.2, L132, L250 (the rulebook leaves the 6 unnumbered chits open)",
        summary: "how many of the 36 mortality chits say \"draw 2\" (the rest are numbered or blank); the data source uses 2",
        kind: OptionKind::Int { min: 0, max: 6 },
        default: OptionValue::Int(2),
        battles: BOTH,
    },
    RuleOption {
        name: "halved_losses_rounding",
        reference: "statesman card (Fabius); rounding from the data source",
        summary: "a commander who halves losses rounds the halved legions and fleets \"up\" or \"down\"",
        kind: OptionKind::Choice(&["up", "down"]),
        default: OptionValue::Choice("up"),
        battles: BOTH,
    },
    RuleOption {
        name: "persuasion_autofail_min",
        reference: "A-01 (L420 vs L845)",
        summary: "full game: an unmodified persuasion roll of at least this fails (10: 10-12 fail; 11: only 11-12); one less after The Era Ends",
        kind: OptionKind::Int { min: 10, max: 11 },
        default: OptionValue::Int(10),
        battles: GAME,
    },
    RuleOption {
        name: "governor_term_end",
        reference: "A-08 (L331 vs L609)",
        summary: "full game: a governor comes home \"after-three-revenues\" (the marker would go below 1) or \"on-reaching-one\"",
        kind: OptionKind::Choice(&["after-three-revenues", "on-reaching-one"]),
        default: OptionValue::Choice("after-three-revenues"),
        battles: GAME,
    },
    RuleOption {
        name: "drought_wars",
        reference: "A-11 (L465, L469)",
        summary: "full game: drought wars add Unrest when \"active\" (Unprosecuted included) or whenever \"in-play\" (Inactive and Imminent too)",
        kind: OptionKind::Choice(&["active", "in-play"]),
        default: OptionValue::Choice("active"),
        battles: GAME,
    },
    RuleOption {
        name: "unprosecuted_box",
        reference: "A-12 (L747, L796-L801)",
        summary: "full game: an Unprosecuted war prosecuted again \"leaves\" the box, or \"stays\" in it",
        kind: OptionKind::Choice(&["leaves", "stays"]),
        default: OptionValue::Choice("leaves"),
        battles: GAME,
    },
    RuleOption {
        name: "four_wars_check",
        reference: "A-10 (L44, L845 vs L861, L867)",
        summary: "full game: four Active wars end the game at the \"end-of-combat\" phase or only at the \"end-of-turn\" (not checked)",
        kind: OptionKind::Choice(&["end-of-combat", "end-of-turn"]),
        default: OptionValue::Choice("end-of-combat"),
        battles: GAME,
    },
    RuleOption {
        name: "dictator_strength",
        reference: "A-23 (L557, L1292)",
        summary: "full game: the Dictator and Crisis tests read a war's \"effective\" strength (matching wars and leaders) or its \"printed\" strength",
        kind: OptionKind::Choice(&["effective", "printed"]),
        default: OptionValue::Choice("effective"),
        battles: GAME,
    },
    RuleOption {
        name: "imminent_activation",
        reference: "A-06 (L384-L388)",
        summary: "full game: each Mortality phase activates \"one-per-series\" Imminent war (lowest first) or \"all\" of them",
        kind: OptionKind::Choice(&["one-per-series", "all"]),
        default: OptionValue::Choice("one-per-series"),
        battles: GAME,
    },
    RuleOption {
        name: "hispania_ulterior_spoils",
        reference: "A-45 (L284); scenarios/republica-de-roma/README.md disagreement",
        summary: "full game: Hispania Ulterior's undeveloped spoils are the \"rulebook\" example's 2d6 - 3 or the \"data\" source's 1d6 - 3",
        kind: OptionKind::Choice(&["rulebook", "data"]),
        default: OptionValue::Choice("rulebook"),
        battles: GAME,
    },
    RuleOption {
        name: "civil_war_costs_20",
        reference: "A-60 (L327)",
        summary: "full game: a rebellion costs the Treasury 20 T a turn like an Active war",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(false),
        battles: GAME,
    },
    RuleOption {
        name: "majority_of",
        reference: "A-35 (L515)",
        summary: "full game: a trial's verdict needs a majority of the votes \"cast\" or of all votes \"present\"",
        kind: OptionKind::Choice(&["cast", "present"]),
        default: OptionValue::Choice("cast"),
        battles: GAME,
    },
    RuleOption {
        name: "revolution_cards",
        reference: "A-36 (L809 vs L813, L1126)",
        summary: "full game: a faction plays \"any\" number of statesmen and concessions in the Revolution phase, or \"one\"",
        kind: OptionKind::Choice(&["any", "one"]),
        default: OptionValue::Choice("any"),
        battles: GAME,
    },
    RuleOption {
        name: "game_end",
        reference: "§1.12.1 (L845); edition change 1 (L1396)",
        summary: "full game: the game ends with the \"era-ends-card\" (this edition) or at the end of the turn the \"deck-runs-out\" (the older edition)",
        kind: OptionKind::Choice(&["era-ends-card", "deck-runs-out"]),
        default: OptionValue::Choice("era-ends-card"),
        battles: GAME,
    },
    RuleOption {
        name: "dangerous_wars",
        reference: "L1313 (a war is Dangerous Active or not) vs the Normal list's neighbouring lines, which speak of Active wars (L1298-L1301)",
        summary: "full game: the Normal list's Dangerous line attacks a war \"in-play\" (Inactive and Imminent too, the rule text) or only an \"active\" one",
        kind: OptionKind::Choice(&["in-play", "active"]),
        default: OptionValue::Choice("in-play"),
        battles: GAME,
    },
    RuleOption {
        name: "prosecutions",
        reference: "L579-L605 vs L1271 (no prosecutions in the 1-2 player game)",
        summary: "full game: a Censor whose faction policy wants to may prosecute; false = the solitaire rule, none",
        kind: OptionKind::Bool,
        default: OptionValue::Bool(true),
        battles: GAME,
    },
];
