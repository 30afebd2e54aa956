//! Mediterráneo sanguinolento: field battles (terrain roll, tactic matrices, days of three segments on
//! the casualty/morale table), assaults, sieges, naval combat, landings and interceptions.
//! Rules digest: `../shared/rules/mediterraneo-sanguinolento.md` §3 (combat), §7 (worked examples),
//! §8 (calculator specification). The tables live in `scenarios/mediterraneo-sanguinolento/`.

// Sides are indexed 0 (attacker) and 1 (defender) throughout; loops over 0..2 say so plainly.
#![allow(clippy::needless_range_loop)]

pub mod data;

pub mod army;
pub mod assault;
pub mod engine;
pub mod field;
pub mod game;
pub mod interception;
pub mod intrigue;
pub mod landing;
pub mod naval;
pub mod outcome;
pub mod siege;

use super::{BattleKind, Ruleset};
use crate::options::{OptionKind, OptionValue, RuleOption};

pub const SLUG: &str = "mediterraneo-sanguinolento";

/// The two sides of every battle of this ruleset, as keys, columns and reports name them.
pub const SIDES: [&str; 2] = ["attacker", "defender"];

pub const RULESET: Ruleset = Ruleset {
    slug: SLUG,
    title: "Mediterráneo sanguinolento",
    digest: "../shared/rules/mediterraneo-sanguinolento.md",
    battles: &[
        kind!("field", field, "hundreds of men"),
        kind!("assault", assault, "hundreds of men"),
        kind!("siege", siege, "hundreds of men"),
        kind!("naval", naval, "ships"),
        kind!("landing", landing, "hundreds of men"),
        kind!("interception", interception),
    ],
    sides: &SIDES,
    options: OPTIONS,
    game: Some(game::build),
    policies: crate::rulesets::policies!(game::policy::CATALOG),
};

/// The battles fought on the casualty/morale table with land units.
const LAND: &[&str] = &["field", "assault", "siege", "landing"];
const OPEN_FIELD: &[&str] = &["field", "landing"];
const NAVAL: &[&str] = &["naval"];

const fn choice(
    name: &'static str,
    reference: &'static str,
    summary: &'static str,
    values: &'static [&'static str],
    battles: &'static [&'static str],
) -> RuleOption {
    RuleOption {
        name,
        reference,
        summary,
        kind: OptionKind::Choice(values),
        default: OptionValue::Choice(values[0]),
        battles,
    }
}

const fn flag(
    name: &'static str,
    reference: &'static str,
    summary: &'static str,
    default: bool,
    battles: &'static [&'static str],
) -> RuleOption {
    RuleOption {
        name,
        reference,
        summary,
        kind: OptionKind::Bool,
        default: OptionValue::Bool(default),
        battles,
    }
}

pub const OPTIONS: &[RuleOption] = &[
    choice(
        "crt",
        "A6 (L6015, L6031)",
        "the two casualty/morale table entries that break its pattern: \"corrected\" = the pattern's values (block 3 row 6 casualties 10 10 15 15 15; block 2 row 7 morale 0.8 1.0 1.2 1.4 1.6), \"printed\" = as printed",
        &["corrected", "printed"],
        &["field", "assault", "siege", "landing", "naval"],
    ),
    choice(
        "land_matrix",
        "A18 (L2952-L3492, L5859)",
        "the 8 land matrix cells whose attacker codes differ from the mirror cell: \"symmetric\" = the mirror cell's codes (the rules say attacker and defender get the same result), \"printed\" = as printed for the actual defender row and attacker column",
        &["symmetric", "printed"],
        OPEN_FIELD,
    ),
    choice(
        "crt_block",
        "A4 (L3556, L5855, L5975-L6081)",
        "which of the table's 5 blocks a side reads: \"morale\" = its current average morale (floored, 1-5), \"first-digit\" = the code's first digit (the rejected alternative: both digits then move both results)",
        &["morale", "first-digit"],
        &["field", "assault", "siege", "landing", "naval"],
    ),
    choice(
        "morale_die",
        "A5 (L3556, L6081 vs L5863)",
        "\"shared\" = one 1D6 per side and segment read on both the casualty and the morale table, \"separate\" = a second 1D6 for the morale table",
        &["shared", "separate"],
        &["field", "assault", "siege", "landing", "naval"],
    ),
    choice(
        "formation_share_modifier",
        "A10 (L5345)",
        "the -2/-4 when the formation's unit type is only 50.1-75% / under 50% of the army: \"harder\" = subtracted from the breaker's 1D20 (literal), \"easier\" = added to it",
        &["harder", "easier"],
        LAND,
    ),
    choice(
        "formation_segment_modifier",
        "A11 (L5351)",
        "the break roll's -1 for each segment but the first: \"flat\" = -1 in segments 2 and 3, \"cumulative\" = -(segment - 1)",
        &["flat", "cumulative"],
        LAND,
    ),
    choice(
        "charge_bonus",
        "A12 (L5114, L5209, L5807)",
        "the +1 of charges, of chariots breaking a formation and of surprise: \"digit\" = a shift of the code's digit (like the formation rule's 3-4 to 2-3), \"die\" = +1 on that table's die roll",
        &["digit", "die"],
        LAND,
    ),
    choice(
        "overrun",
        "A13 (L5265)",
        "who can overrun at 20:1 in combat factors: \"either-side\" or \"attacker-only\"",
        &["either-side", "attacker-only"],
        OPEN_FIELD,
    ),
    choice(
        "winter_and_storm",
        "A14 (L4502, L5685)",
        "winter and storm (or snow) both halve factors: \"both\" = x0.25 together, \"once\" = x0.5 whichever applies",
        &["both", "once"],
        &["field", "assault", "siege", "landing", "naval"],
    ),
    flag(
        "auto_retreat_pursuit",
        "A16 (L3252, L3338, L3372, L3380-L3386)",
        "a side leaving on an automatic-retreat cell is pursued in column 1 when the other side has pursuit troops",
        true,
        OPEN_FIELD,
    ),
    choice(
        "flank_retry",
        "A17 (L2948)",
        "the flanking detachment's second try (segment 3 of day 1): \"plus-one\" = 1D6 <= strategic + 1, \"same\" = 1D6 <= strategic; either way it arrives on day 2",
        &["plus-one", "same"],
        OPEN_FIELD,
    ),
    flag(
        "mounted_archers_fire",
        "A19 (L5167, L5171)",
        "horse archers (CA) and camel archers (CMA) fire on the archery table like foot archers",
        true,
        LAND,
    ),
    choice(
        "retreat_screen",
        "A20 (L2904)",
        "\"25% or more cavalry than your enemy\" for a screened retreat: \"ratio\" = own mounted men >= 1.25 x the enemy's, \"share\" = own mounted men >= 25% of the enemy's men",
        &["ratio", "share"],
        OPEN_FIELD,
    ),
    flag(
        "floor_factor_casualties",
        "A22 (L22, L3572)",
        "floor each segment's casualties to whole combat factors before converting them to men (literal global rounding rule); off = keep fractional factors and floor only men",
        false,
        &["field", "assault", "siege", "landing", "naval"],
    ),
    choice(
        "siege_engine",
        "A23 (L3638, L3672, L3842)",
        "what a siege engine of level L does: \"level\" = lowers the effective fortification by L, \"one\" = by 1 whatever its level",
        &["level", "one"],
        &["assault", "siege"],
    ),
    choice(
        "archery_vs_city",
        "A25 (L5191-L5193)",
        "archers shooting at a fortified city: \"minus-3\" = -3 in all (city and fortification not cumulative), \"minus-6\" = -3 and -3",
        &["minus-3", "minus-6"],
        &["assault", "siege"],
    ),
    choice(
        "siege_food",
        "A26 (L402, L3658-L3660, L1134)",
        "who eats in a besieged city: \"garrison\" = only the garrison (1 COM per 200 men a month), \"garrison-and-population\" = the population too",
        &["garrison", "garrison-and-population"],
        &["siege"],
    ),
    choice(
        "naval_matrix",
        "A30 (L2505, L2515, L2581)",
        "the 6 naval matrix cells whose attacker codes differ from the mirror cell: \"symmetric\" = the mirror's codes (11-1-12* read as 11-11-12*), \"digest\" = the digest's per-cell reading (only 11-1-12* corrected), \"printed\" = as printed, 11-1-12* read as 11-11-12*",
        &["symmetric", "digest", "printed"],
        NAVAL,
    ),
    flag(
        "boarding_persists",
        "A28 (L2665-L2667)",
        "once an \"A\" or a won \"*\" roll starts boarding, the fleets stay grappled until the battle ends",
        true,
        NAVAL,
    ),
    RuleOption {
        name: "naval_retreat_target",
        reference: "A31 (L2663)",
        summary: "a naval retreat attempt succeeds on 1D6 >= this (+1 when the retreater's naval leader is the better tactician); the rules give no number",
        kind: OptionKind::Int { min: 1, max: 7 },
        default: OptionValue::Int(4),
        battles: NAVAL,
    },
    choice(
        "landing_leader_value",
        "A34 (L2054)",
        "the naval leader value a landing on rough coast rolls under (1D6 <= it): \"tactical\" or \"strategic\"",
        &["tactical", "strategic"],
        &["landing"],
    ),
    choice(
        "interception_bands",
        "A36 (L5587, L2467)",
        "interception success: \"open-ended\" = land 1D10 + mods >= 7, naval 1D6 + mods >= 3; \"literal\" = only results 7-10 (land) and 3-6 (naval) succeed",
        &["open-ended", "literal"],
        &["interception"],
    ),
    choice(
        "pilum",
        "A46 (L5122)",
        "the pilum (x1.15) and falcata (x1.1) bonus: \"first-segment\" = first segment of the battle, \"each-day\" = first segment of every day",
        &["first-segment", "each-day"],
        OPEN_FIELD,
    ),
    choice(
        "mounted_count",
        "A47 (L3542, L2897)",
        "how \"double the enemy's cavalry and camels\" is counted: \"men\" or \"units\"",
        &["men", "units"],
        OPEN_FIELD,
    ),
    choice(
        "retreat_order",
        "A72 (L2897)",
        "who decides first on a retreat before combat: \"defender-first\" or \"attacker-first\"",
        &["defender-first", "attacker-first"],
        OPEN_FIELD,
    ),
    RuleOption {
        name: "game_turn_cap",
        reference: "§1.4 (L4206: no time limit; the digest's proxy caps runs, e.g. 60 turns = 10 years)",
        summary: "full game: turns played before a game with nobody at 400 PV ends; the most PV then wins",
        kind: OptionKind::Int { min: 1, max: 600 },
        default: OptionValue::Int(60),
        battles: &[],
    },
    choice(
        "fortification_pv",
        "A75 (L4214 vs L4296)",
        "full game: PV for raising a city's walls: \"triangular\" (as many PV as the new level, the specific note) or \"per-level\" (1 PV a level, the table line)",
        &["triangular", "per-level"],
        &[],
    ),
    RuleOption {
        name: "civilized_max_fortification",
        reference: "§4.7, §4.18 (L3808: the civilized maximum depends on the missing technology rules)",
        summary: "full game: highest fortification level a civilized country may build (assumed: B/C's 6; barbarians 4 and B/C 6 are printed)",
        kind: OptionKind::Int { min: 1, max: 20 },
        default: OptionValue::Int(6),
        battles: &[],
    },
    choice(
        "population_feeding",
        "A40 (L1132-L1134 vs L5817-L5819)",
        "full game: feeding the population: \"half-yearly\" (January and July, 1 COM per 20 POB, rules §51) or \"yearly\" (June, 1 COM per 10 POB, rules §6.12)",
        &["half-yearly", "yearly"],
        &[],
    ),
    choice(
        "unfed_population_pv",
        "A76 (L5819 vs L4286)",
        "full game: PV for unfed population: \"per-50\" (-1 PV per 50 POB, the text twice) or \"table\" (-1/-1/-2 PV per 100 POB by culture)",
        &["per-50", "table"],
        &[],
    ),
    choice(
        "quarry_output",
        "A63 (L770-L775)",
        "full game: what a quarry (500 DEN, 700 PIE, 200 MET, 6 months) adds to its country's stone production each collection: \"ten-percent\" (A63's proposal, +10%) or \"none\" (the text gives no amount: no quarry is built)",
        &["ten-percent", "none"],
        &[],
    ),
    choice(
        "wood_upkeep",
        "§4.1 MAD wood (L751)",
        "full game: every January each construction with wood in it (works, wall levels, major constructions; finished, from the January after) owes its land's holder 1/5 of that wood, rounded up, or collapses: \"cheapest-kept\" (when the wood runs short the cheapest to restore are kept first; an unpaid wall level brings down the levels above it) or \"off\" (no upkeep)",
        &["cheapest-kept", "off"],
        &[],
    ),
    choice(
        "forced_march_die",
        "A49 (L5405-L5530: the forced-march table's die is not stated)",
        "full game: the forced-march roll: \"one-to-ten\" (A49: 1D10, 1-10, plus the modifiers, clamped to the table's 0-10) or \"zero-to-nine\" (the ten-sided die read 0-9)",
        &["one-to-ten", "zero-to-nine"],
        &[],
    ),
    choice(
        "forced_march_a_bonus",
        "A49 (L5544-L5546: 'only morale A-B' +1 and 'only morale A' +2)",
        "full game: an all-morale-A army's forced-march modifier: \"two\" (A49: +2 in place of A-B's +1) or \"three\" (both apply, +3)",
        &["two", "three"],
        &[],
    ),
    choice(
        "mount_breeding_units",
        "§4.8 (L795-L815: 'unidades montadas'; the CAB production pays)",
        "full game: the units mount breeding speeds: \"horses\" (cavalry and chariots, whose horses the CAB factor cuts), \"cavalry\" (ridden horses only) or \"all-mounted\" (cavalry, camelry, chariots, elephants)",
        &["horses", "cavalry", "all-mounted"],
        &[],
    ),
    choice(
        "army_supply",
        "L2108-L2120 (when the convoy must be with the troops)",
        "full game: how a field army beyond its holder's lands gets its 1 COM per 200 men a month: \"carried\" (from what it carries: 1 COM per 200 men, 5,000 per supply convoy marching with it at 8 PM, loaded from the stock on its own lands) or \"home-stock\" (from the home stock wherever it stands: no transport, no convoys)",
        &["carried", "home-stock"],
        &[],
    ),
    choice(
        "prospecting_result",
        "A64 (L743, L5827: the prospecting table is missing)",
        "full game: what a prospecting try (400 DEN, 1D20: hills +1, mountain +2, plain -1, desert -2) finds: \"a64-vein\" (A64's proposal: 15 or more adds 10% of the country's base metal production) or \"none\" (nothing can be found: nobody prospects)",
        &["a64-vein", "none"],
        &[],
    ),
    RuleOption {
        name: "road_den_per_hex",
        reference: "A65 (L3800: a road's price is not stated)",
        summary: "full game: DEN a road costs per hex of its link (A65's proposal: 100)",
        kind: OptionKind::Int { min: 0, max: 10000 },
        default: OptionValue::Int(100),
        battles: &[],
    },
    RuleOption {
        name: "road_pie_per_hex",
        reference: "A65 (L3800: a road's price is not stated)",
        summary: "full game: stone (PIE) a road costs per hex of its link (A65's proposal: 100)",
        kind: OptionKind::Int { min: 0, max: 10000 },
        default: OptionValue::Int(100),
        battles: &[],
    },
    choice(
        "road_months",
        "L3800 (two readings of a road's time in one paragraph)",
        "full game: months to build a road: \"half-length-plus-terrain\" ((hexes + their terrain PM) / 2, rounded up: the paragraph's first reading) or \"terrain-pm\" (as many months as its hexes' terrain PM: its last)",
        &["half-length-plus-terrain", "terrain-pm"],
        &[],
    ),
    RuleOption {
        name: "major_construction_materials",
        reference: "L3790, L4324, digest §6.1 item 4 (the referee sets a major construction's cost and time)",
        summary: "full game: stone and/or wood (PIE/MAD) of one major (\"pharaonic\") construction, which scores material cost / 100 PV and / 150 rebellion index when finished (civilized only, one at a time); 0: the referee offers none (nothing in the text prices one)",
        kind: OptionKind::Int { min: 0, max: 1_000_000 },
        default: OptionValue::Int(0),
        battles: &[],
    },
    RuleOption {
        name: "major_construction_den",
        reference: "L3790, digest §6.1 item 4 (set by the referee; assumed: a city's 1,500)",
        summary: "full game: DEN of one major construction when option major_construction_materials offers one (assumed: a city's 1,500)",
        kind: OptionKind::Int { min: 0, max: 1_000_000 },
        default: OptionValue::Int(1500),
        battles: &[],
    },
    RuleOption {
        name: "major_construction_months",
        reference: "L3790, digest §6.1 item 4 (set by the referee; assumed: a city's 12)",
        summary: "full game: months to build one major construction when option major_construction_materials offers one (assumed: a city's 12)",
        kind: OptionKind::Int { min: 1, max: 255 },
        default: OptionValue::Int(12),
        battles: &[],
    },
    choice(
        "siege_engine_time",
        "A23 (L3672, L3842: engines are built like fortifications)",
        "full game: when a besieger's siege engine counts: \"ready-at-siege\" (from the siege's start, A23's recommended reading, as the assault and siege calculators play it) or \"level-months\" (after as many months of siege as its level, as a fortification of that level is built)",
        &["ready-at-siege", "level-months"],
        &[],
    ),
    choice(
        "barbarian_extra_levy",
        "A57 (L4108: a barbarian's extra levy 40%, and 'at most 50%')",
        "full game: the most extra POB a barbarian nation may levy for troops: \"forty\" (A57: +40%, the normal levy) or \"fifty\" (+50%, the paragraph's maximum; no penalty for the 10% above is stated)",
        &["forty", "fifty"],
        &[],
    ),
    choice(
        "extra_levy_idr",
        "L4100, L4108 beside the §4.19 row L4362",
        "full game: an extra POB levy's rebellion index: \"table-and-text\" (the mass-recruitment row per 5% and the culture paragraphs' -1 per 10 extra POB (B/C) or per 20 (barbarians), which the digest lists as effects outside the table) or \"table\" (the row alone)",
        &["table-and-text", "table"],
        &[],
    ),
    choice(
        "militia_lands",
        "L5273 (a conquered country's militia: 1/3, 2/3, then full)",
        "full game: whose militia a holder may call: \"each-country\" (every country it holds has its own, from that country's last collection, where it is invaded: a conquered one's a third after its first collection, two thirds after its second, whole from its third) or \"home-only\" (the whole nation's last collection's militia at home, none in conquered countries)",
        &["each-country", "home-only"],
        &[],
    ),
    choice(
        "militia_size",
        "A69 (L1872)",
        "full game: a called militia's IL-ID units: \"pob-200\" (A69: 3 x floor(last collected POB / 200), an IL's POB) or \"base-kind\" (3 x the units of the country's first kind that POB makes available)",
        &["pob-200", "base-kind"],
        &[],
    ),
    choice(
        "militia_pv",
        "A50 (L1872 vs L4288)",
        "full game: PV each month the militia is mobilized: \"text\" (-2, the rule's; the table's IDR -50/-100/-120 either way) or \"table\" (-1/-1/-2 by culture)",
        &["text", "table"],
        &[],
    ),
    choice(
        "militia_pob_idr",
        "A50 (L4290-L4292)",
        "full game: the \"per 20 POB in militia\" rows: \"invaded-once\" (the while-invaded sub-row, -0.5/-1/-1 IDR per 20 POB, once at the call), \"invaded-monthly\" (that sub-row each month mobilized) or \"both-once\" (it and the plain row's -1/-2/-4, once at the call)",
        &["invaded-once", "invaded-monthly", "both-once"],
        &[],
    ),
    choice(
        "colony_hosts",
        "§4.7 (L3860-L3864, L4312)",
        "full game: which referee's country allows a major a colony (one per country, reached by its envoys, not at war with it): \"at-peace\" (any) or \"treaty\" (only one with a treaty with it, non-aggression or better)",
        &["at-peace", "treaty"],
        &[],
    ),
    choice(
        "colony_conquest",
        "§4.7 (L3860-L3864: the rules say nothing of a colony whose host falls)",
        "full game: a finished colony whose host is conquered by a third country stays its builder's (\"kept\": it is the builder's city) or yields to the conqueror (\"falls\"); one under way is lost with the host either way",
        &["kept", "falls"],
        &[],
    ),
    choice(
        "black_market_sale",
        "A52 (L1017)",
        "full game: black-market sale value, used for the gift cap and the wealth proxy: \"one-to-one\" (1 DEN a unit, ESC and ELE 3) or \"buying-price\" (the buying price, ESC and ELE a third of it)",
        &["one-to-one", "buying-price"],
        &[],
    ),
    choice(
        "black_market_limits",
        "A53 (L1021-L1058)",
        "full game: the black market's limits (COM 100, MAD 1,200, MET 1,500, PIE 2,000, CAB and CAM 800, MAN 1,000, ELE 20, ESC 100 units bought, and as many sold) hold \"per-turn\" for each country, or \"per-month\" (twice a turn's)",
        &["per-turn", "per-month"],
        &[],
    ),
    choice(
        "random_events",
        "A55 (L3872), §4.14",
        "full game: the event table (two D6 on the 6x6 grid) is rolled for \"every-country\" every month, or \"off\" (no events)",
        &["every-country", "off"],
        &[],
    ),
    choice(
        "weather",
        "§4.15 (L5663-L5799)",
        "full game: each climatic zone's weather is \"rolled\" every month on its 1D6 table (rain -1 to combat rolls; storm and snow halve factors and double movement costs), or always \"clear\"",
        &["rolled", "clear"],
        &[],
    ),
    choice(
        "currency_events",
        "§4.14 events I and K (L4018: most events act at the next collection)",
        "full game: currency devaluation (I, -1/3) and strong currency (K, +1/3) change the DEN of the \"next-collection\" or the \"treasury\" at once",
        &["next-collection", "treasury"],
        &[],
    ),
    choice(
        "commanding_leader",
        "A45 (L3546, L2707)",
        "full game: who commands where several named leaders are present and whose tactical value enters the leadership table: \"king-first\" (the highest-ranking: the king where he is present, else the best tactical value) or \"best-tactical\" (the best tactical value, then strategic)",
        &["king-first", "best-tactical"],
        &[],
    ),
    choice(
        "king_abroad",
        "L4336 (the row 'per month the king is away')",
        "full game: where the king must stand not to cost his nation the row's -1 PV (and -25/-25/-50 IDR) each month: \"home-country\" (his own country; a campaign in lands he conquered counts as away) or \"held-lands\" (any country his nation holds)",
        &["home-country", "held-lands"],
        &[],
    ),
    choice(
        "leader_command_limit",
        "A43 (L2162 vs L2200)",
        "full game: a commander leads at most his tactical value +2 (civilized), +0 (B/C) or -1 (barbarian) grand units (5,000 foot, 3,000 mounted; each chariot or elephant unit one): \"grand-units\" = beyond it his tactical value does not enter the leadership table (the battle code's one value a side: the whole side fights on 0), \"unlimited\" = he commands any number",
        &["grand-units", "unlimited"],
        &[],
    ),
    choice(
        "treaty_breach_pv",
        "A51 (L424, L4058 vs L4320)",
        "full game: PV for breaking a written treaty: \"text\" (-5, said twice) or \"table\" (-3/-4/-5 by culture); the table's IDR either way",
        &["text", "table"],
        &[],
    ),
    choice(
        "diplomacy_die",
        "A54 (L546-L562)",
        "full game: the first diplomacy roll's d100 reads \"zero-to-99\" (the bands 0-1 and 0-2 exist) or \"one-to-100\"; war on a natural 0 or 1 either way, then no treaty: 2 or less war, 3-5 envoy killed, 6-20 beaten; with a treaty: 10 or less downgrade, 11-20 no effect",
        &["zero-to-99", "one-to-100"],
        &[],
    ),
    choice(
        "same_race",
        "A60 (L588, L594, L4112)",
        "full game: \"same race\" in diplomacy (+5, different -5) is the same \"cultural-group\" of the culture table (no group: different) or the same \"culture\" (B, B/C, C)",
        &["cultural-group", "culture"],
        &[],
    ),
    choice(
        "treasure_cities",
        "A59 (L4410-L4430)",
        "full game: the treasure list's \"Tebas\" (6,000) and \"Alejandría\" (8,000) are the cities its \"recommended\" reading names (Medio Egipto's Tebas, Egipto's Alejandría) or their \"other-namesake\" (Greek Tebas, Sagartia's Alejandría); Gaugamela is no listed city either way",
        &["recommended", "other-namesake"],
        &[],
    ),
    choice(
        "gift_cap_period",
        "A58 (L4382-L4386)",
        "full game: the 2,000 DEN cap on gifts to the population counts per \"collection\" period or per \"year\"",
        &["collection", "year"],
        &[],
    ),
    choice(
        "assassination_pv",
        "A38 (L5076 vs L4294)",
        "full game: PV an assassination attempt costs the aggressor: \"specific\" (-5, the assassination rule) or \"table\" (0/-1/-2 by culture, the PV table's row); the row's rebellion index either way",
        &["specific", "table"],
        &[],
    ),
    choice(
        "naval_interception_value",
        "A34 (L2054, L2467: the same word, liderazgo)",
        "full game: the naval leader value added to the naval interception's 1D6 (1D6 + it - distance, bands by interception_bands): \"tactical\" (A34's reading of the landing roll's word) or \"strategic\" (the value §11 says modifies interceptions)",
        &["tactical", "strategic"],
        &[],
    ),
    choice(
        "war_intelligence",
        "§4.11 (L3738-L3778: what a player knows of an enemy army is what his spies report)",
        "full game: the policies' war-target odds see the defending field army \"omniscient\"ly (the exact figure; espionage then only costs DEN) or as \"spied\": the figure of the latest report arrived on that target, wrong by its band's share (up or down, drawn from the game's dice), and 100% wrong (none or twice) without one",
        &["omniscient", "spied"],
        &[],
    ),
    choice(
        "mercenary_casualties",
        "§4.5.9, L4522 (mercenaries take no more than 10% of the casualties, if possible)",
        "full game: \"capped\": after each fight the part of a side's mercenary bands' losses above 10% of the side's casualties (in men) moves onto its own troops left, in proportion to each kind's men left (as far as they go); \"uncapped\": they lose what the battle code's casualty order gives them (they come last in it)",
        &["capped", "uncapped"],
        &[],
    ),
    choice(
        "mercenary_upkeep",
        "§4.5.9, L4520 and the §2 calendar (a tenth of the price each year; the yearly payments are made in January)",
        "full game: a mercenary band's yearly upkeep (a tenth of its price) falls due each \"january\" after its purchase, with the ambassadors' upkeep, or on each \"anniversary\" of its purchase; unpaid, the band deserts",
        &["january", "anniversary"],
        &[],
    ),
    choice(
        "reasonable_defence",
        "§4.10, L448 (a client or associated state must be defended with a reasonable number of troops), digest §6.1 item 4 (a referee's judgement)",
        "full game: when a major's army arrives by land at a client, associated state or defensive ally of another major, the protector's field army (idle at home, within a month's move) meets it first, with 20% of a client's or 50% of an associate's most numerous kind lent beside it: on \"odds\" when the battle code gives the marcher at most even odds of winning that fight, \"always\" whenever it can, \"never\" (the help is not played)",
        &["odds", "always", "never"],
        &[],
    ),
    choice(
        "naval_losses",
        "A29 (L2695-L2699, L3694)",
        "full game: ships a naval battle puts out of action: \"damaged\" = those of a side whose fleet survives are damaged, sit in its home port and fight again once repaired (per group of up to 3 ships: 1/10 of the fleet's DEN cost, 1/3 of its MAD and MET, 1/4 of its crew's POB and the morale cost of option repair_morale); a destroyed fleet's are lost; \"sunk\" = every one is lost",
        &["damaged", "sunk"],
        &[],
    ),
    choice(
        "boarding_captures",
        "A32 (L2459)",
        "full game: ships boarding takes (the battle code's boarding casualties, floor(crew-factor casualties / crew factor per ship)): \"loser\" = only the loser's, taken by the winner uncrewed (the winner's boarding casualties are put out of action as in naval_losses; none are taken when nobody wins); \"both\" = each side takes what it boarded, whoever wins",
        &["loser", "both"],
        &[],
    ),
    choice(
        "repair_morale",
        "L2699 (besides the share of the cost, the crew's morale is paid; how much of it is not said)",
        "full game: the morale cost a repair of up to 3 ships pays: \"crew\" = the share of the crew it replaces (1/4 of the fleet's crew morale cost, rounded up), \"fleet\" = the whole fleet's crew morale cost",
        &["crew", "fleet"],
        &[],
    ),
    choice(
        "recruitment_permission",
        "§4.5.9, L4534 (a recruitment centre needs the host's permission, asked by diplomacy; which treaty grants it is not said)",
        "full game: the treaty with the host a major needs to set up a recruitment centre there: \"treaty\" = any treaty (non-aggression or better), \"trade\" = an equal-terms trade treaty or better, \"client\" = a client state or better (client, associated, province)",
        &["treaty", "trade", "client"],
        &[],
    ),
    choice(
        "recruitment_wait",
        "§4.5.9, L4534 (the text: no new hire in that country until 2 turns later; the digest: then wait 2 turns)",
        "full game: what the recruitment centre's 2 turns are: \"delivery\" = the troops hired join 2 turns after the hire (and the next hire there is made then), \"rehire\" = they join next turn like any recruit, and the next hire there is 2 turns after this one",
        &["delivery", "rehire"],
        &[],
    ),
    choice(
        "league_war",
        "§4.9, L941-L953 (a route works as soon as its league's conditions hold; the text is silent on a war between members)",
        "full game: a war between two members of a commercial league (war declared, or an army marching on, besieging or raiding a member) \"suspends\" its trade route while it lasts (the route works again once the conditions hold, L953), or \"dissolves\" the league: the route is closed for the rest of the game",
        &["suspends", "dissolves"],
        &[],
    ),
    choice(
        "route_conquest",
        "§4.9, L941-L943 (the countries the route passes through form the league and must have cities; the text is silent on a route city's conquest or a member's fall)",
        "full game: when a route city's country is conquered its new \"holder-joins\" the league in its place (a major by its policy's trade_leagues, a league needing 3 distinct holders), or the conquest \"closes\" the route for the rest of the game",
        &["holder-joins", "closes"],
        &[],
    ),
    choice(
        "route_piracy_loot",
        "§4.5.6, L1884 (the pirates' controller gets half the loot) and L4452 (pirates on a maritime route take 30% of its profits)",
        "full game: of the 30% of a league's collection profits its pirates take (L4452), the controller gets \"half\" (L1884, as for every pirate loot; the other half is the crews') or \"all\"",
        &["half", "all"],
        &[],
    ),
    choice(
        "sea_manufactures_41",
        "§4.9, L904-L906, A54b (the sea table's bands 36-41 and 41-45 overlap at 41 hexes)",
        "full game: what a lot of manufactures earns a month at a port 41 sea hexes away: \"upper\" = the 41-45 band's 500 x importance (A54b: 36-40 -> 400, 41-45 -> 500), \"lower\" = the 36-41 band's 400",
        &["upper", "lower"],
        &[],
    ),
    choice(
        "merchant_call_bonus",
        "L5225 (Cartago and Atenas earn 10 DEN each time a merchant ship of theirs puts in at a port not their own; the game buys fleets of 10 ships)",
        "full game: the 10 DEN of a call are earned \"fleet\" = once per merchant fleet putting in (the game's merchant unit), or \"ship\" = once per ship afloat in it (10 for a whole fleet)",
        &["fleet", "ship"],
        &[],
    ),
    choice(
        "leader_capture",
        "§4.13, L2192 (named leaders can be captured; no chance given: a referee's judgement, digest §6.1 item 4)",
        "full game: when a named leader alive after a lost fight's death roll (digest D8) is taken by the winner: \"exterminated\" = his side was exterminated or overrun, or his garrison surrendered (nobody is left to carry him off: 5/12 of an exterminated side's commanders, 35/36 of a surrendered garrison's); \"routed\" = also when his side was routed (broke and was pursued: 35/36 of a routed loser's, nearly every beaten commander here, where armies fight without retreat thresholds); \"never\"; the leaders at home of a country whose home falls are taken by its conqueror unless \"never\"; naval battles risk no leader in the battle code, so none are taken at sea",
        &["exterminated", "routed", "never"],
        &[],
    ),
];
