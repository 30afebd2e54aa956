//! The two scenario files as written (serde shapes only; every check is in `load.rs` and
//! `load_abstraction.rs`).

use serde::Deserialize;
use std::collections::BTreeMap;

// ---- The files as written -------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulebookFile {
    pub scenario: Head,
    pub date: Vec<DateRow>,
    pub seas: Rows<SeaRow>,
    pub area: Vec<AreaRow>,
    pub provinces: Rows<ProvinceRow>,
    pub walls: Walls,
    #[serde(rename = "box")]
    pub boxes: Vec<BoxRow>,
    pub rivers: Rows<RiverRow>,
    pub nations: Rows<PeopleRow>,
    pub nation_facts: NationFacts,
    pub religion: ReligionFile,
    pub caravans: Caravans,
    pub decks: Decks,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Head {
    pub key: String,
    pub title: String,
    pub year: u16,
    pub turns: u8,
    pub turns_with_islam: u8,
    pub scoring_turns: Vec<u8>,
    pub players: Vec<String>,
    pub roman_split_turn: u8,
    pub limes_last_turn: u8,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub first_step: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub skipped_on_turn_1: Vec<String>,
    pub provenance: String,
    pub lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DateRow {
    pub turn: u8,
    pub year: u16,
    pub provenance: String,
    pub lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rows<T> {
    pub provenance: String,
    pub lines: Option<String>,
    pub why: Option<String>,
    pub rows: Vec<T>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaRow {
    pub name: String,
    pub monopoly: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaRow {
    pub name: String,
    pub kind: String,
    pub kingdom_income: u8,
    pub empire_income: Option<u8>,
    pub printed_alternative: Option<f64>,
    pub provenance: String,
    pub lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceRow {
    pub name: String,
    pub area: Option<String>,
    pub terrain: String,
    pub income: f64,
    pub city: Option<String>,
    pub level: Option<u8>,
    #[serde(default)]
    pub fortified: bool,
    pub port: Option<String>,
    #[serde(default)]
    pub no_sea_zone: bool,
    #[serde(default)]
    pub outside_area: bool,
    #[serde(default)]
    pub marks: Vec<String>,
    pub line: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walls {
    pub provenance: String,
    pub lines: Option<String>,
    pub usual: i8,
    pub exceptions: Vec<WallRow>,
    pub theodosian: WallRow,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallRow {
    pub city: String,
    pub modifier: i8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxRow {
    pub name: String,
    pub listed_under: String,
    pub bonus: Option<u8>,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub note: String,
    pub provenance: String,
    pub lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverRow {
    pub name: String,
    pub areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeopleRow {
    pub key: String,
    pub latin: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub spanish: String,
    pub group: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub symbol: Option<String>,
    #[serde(default)]
    pub minor_kingdom: bool,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub line: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationFacts {
    pub provenance: String,
    pub lines: Option<String>,
    pub empire_at_start: Vec<String>,
    pub kingdom_at_start: Vec<String>,
    pub minor_kingdoms_at_start: Vec<String>,
    pub inactive: Vec<String>,
    pub raiders_later_active: Vec<String>,
    pub raider_examples: Vec<String>,
    pub no_voluntary_kingdom: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReligionFile {
    pub provenance: String,
    pub lines: Option<String>,
    pub catholic: Vec<String>,
    pub mazdean: Vec<String>,
    pub arian: Vec<String>,
    pub other_barbarians: String,
    pub monophysite_areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Caravans {
    pub provenance: String,
    pub lines: Option<String>,
    pub provinces: Vec<String>,
    pub gold: u8,
    pub exceptional_gold: u8,
    pub exceptional_d10: Vec<CaravanFaces>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaravanFaces {
    pub province: String,
    pub faces: [u8; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decks {
    pub provenance: String,
    pub lines: Option<String>,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    pub nation_cards: u8,
    pub administration: SetCostsRow,
    pub events: EventDeck,
    pub diplomacy: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventDeck {
    pub public: u8,
    pub private: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbstractionFile {
    pub area_graph: AreaGraph,
    pub sea_graph: SeaGraph,
    pub time_track: TimeTrack,
    pub assignment: Assignment,
    pub entry: Rows<EntryRow>,
    pub start: Rows<StartRow>,
    pub roman_split: RomanSplit,
    pub forces: Forces,
    pub objectives: Rows<ObjectiveRow>,
    /// Per-player factors on the objectives' VP, used when an experiment asks for
    /// `[game] objectives = "balanced"`.
    #[serde(default)]
    pub objective_balance: Option<ObjectiveBalance>,
    pub administration: Administration,
    pub purchases: Purchases,
    pub events: Events,
    /// Optional: an abstraction without it has no fleets (no naval moves or landings).
    pub fleets: Option<Rows<FleetRow>>,
    /// Optional: an abstraction without it has no Limes.
    pub limes: Option<LimesTable>,
    /// Optional: an abstraction without it has no leaders.
    pub leaders: Option<LeadersTable>,
    /// Optional: without it every Civilized Area but the Monophysite ones is Catholic, every
    /// Barbarian Area Pagan, and no nation scores for converting.
    pub religion: Option<ReligionTable>,
    /// Optional: without it no Administration card carries a calamity.
    pub calamities: Option<CalamitiesTable>,
    /// Optional: the sea zone of each strait of the Area graph (XXV.F); a strait without one
    /// cannot be blockaded.
    pub straits: Option<Rows<StraitRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalamitiesTable {
    pub provenance: String,
    pub why: Option<String>,
    /// The chance an Administration card carries a calamity.
    pub card_chance: f64,
    /// The share of calamities that are Heresy.
    pub heresy_share: f64,
    /// The other calamities, each as likely, with their stand-in effects (calamities.rs).
    #[serde(default)]
    pub others: Vec<CalamityRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalamityRow {
    pub name: String,
    /// "revolt", "age", "decline", "gold", "units" or "usurper".
    pub effect: String,
    /// Revolts, ageing steps, Decline levels, gold or units (usurper: revolts).
    pub amount: u32,
    /// The amount doubles when the victim holds land it sees as heretical (XXXI.C: heresy
    /// aggravates Intolerance and the Usurper).
    #[serde(default)]
    pub heresy_doubles: bool,
    pub provenance: Option<String>,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReligionTable {
    pub provenance: String,
    pub why: Option<String>,
    /// Civilized Areas whose religion is Mazdean (the rest Catholic, but the rulebook's
    /// Monophysite ones).
    pub mazdean_areas: Vec<String>,
    /// Nations whose card lists the conversion VP bonus.
    pub conversion_bonus: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadersTable {
    pub provenance: String,
    pub why: Option<String>,
    /// The intrinsic leader (Rex, King, Caesar) of every nation of a status: "barbarian",
    /// "kingdom", "empire"; a status not listed has none.
    pub intrinsic: std::collections::BTreeMap<String, RatingRow>,
    pub rows: Vec<LeaderRow>,
}

/// A leader's printed ratings (III.C).
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct RatingRow {
    pub combat: u8,
    #[serde(default)]
    pub stacking: u8,
    #[serde(default)]
    pub administration: u8,
    #[serde(default)]
    pub diplomacy: u8,
    #[serde(default)]
    pub campaign: u8,
}

/// A historical leader of the Time Track: his nation, name, the turns he is in play and ratings.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRow {
    pub nation: String,
    pub name: String,
    pub turns: Vec<u8>,
    pub combat: u8,
    #[serde(default)]
    pub stacking: u8,
    #[serde(default)]
    pub administration: u8,
    #[serde(default)]
    pub diplomacy: u8,
    #[serde(default)]
    pub campaign: u8,
    pub provenance: Option<String>,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimesTable {
    pub provenance: String,
    pub why: Option<String>,
    pub provinces: Vec<String>,
    /// The local units each Limes still standing becomes in the Purchases of the turn after the
    /// last Limes turn (Roman aid P, Byzantine aid R; absent: none).
    pub local_units: Option<std::collections::BTreeMap<String, u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetRow {
    pub nation: String,
    pub sea: String,
    pub fleets: u8,
    pub provenance: Option<String>,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaGraph {
    pub provenance: String,
    pub why: Option<String>,
    pub links: Vec<LinkRow>,
    pub boxes: Vec<BoxLink>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkRow {
    pub a: String,
    pub b: String,
    pub kind: String,
    pub river: Option<String>,
    #[serde(default)]
    pub mountains: bool,
}

/// A strait of the Area graph (`a`, `b`, either order) and the sea zone whose naval stacks may
/// blockade it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StraitRow {
    pub a: String,
    pub b: String,
    pub sea: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxLink {
    #[serde(rename = "box")]
    pub name: String,
    pub area: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaGraph {
    pub provenance: String,
    pub why: Option<String>,
    pub links: Vec<[String; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeTrack {
    pub provenance: String,
    pub why: Option<String>,
    pub attila_death_turn: u8,
    pub islam_turn: u8,
    pub theodosian_walls_turn: u8,
}

#[derive(Deserialize)]
pub struct Assignment {
    pub provenance: String,
    pub why: Option<String>,
    #[serde(flatten)]
    pub players: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryRow {
    pub nation: String,
    pub people: Option<String>,
    pub turn: u8,
    pub status: String,
    pub capital: Option<String>,
    pub horde: Option<String>,
    #[serde(default)]
    pub raids: Vec<u8>,
    #[serde(default)]
    pub active_from: u8,
    pub provenance: Option<String>,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRow {
    pub nation: String,
    pub controls: Vec<String>,
    pub provenance: Option<String>,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RomanSplit {
    pub provenance: String,
    pub why: Option<String>,
    pub areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forces {
    pub provenance: String,
    pub why: Option<String>,
    pub empire: Force,
    pub kingdom: Force,
    pub minor_kingdom: Force,
    pub barbarian: Force,
    pub nomad: Force,
    pub raider: Force,
    pub rows: Vec<ForceRow>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Force {
    pub treasury: u8,
    pub units: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceRow {
    pub nation: String,
    pub treasury: u8,
    pub units: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveBalance {
    pub provenance: String,
    pub why: Option<String>,
    pub factors: std::collections::BTreeMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveRow {
    pub nation: String,
    pub target: String,
    pub vp: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Administration {
    pub provenance: String,
    pub why: Option<String>,
    pub kingdom: SetCostsRow,
    pub empire: SetCostsRow,
    pub known: Vec<KnownCost>,
    pub effects: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purchases {
    pub provenance: String,
    pub why: Option<String>,
    pub kingdom: BTreeMap<String, u8>,
    pub empire: BTreeMap<String, u8>,
    pub roman_national: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetCostsRow {
    pub passive: u8,
    pub military: u8,
    pub reform: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownCost {
    pub status: String,
    pub set: String,
    pub cost: u8,
    pub provenance: String,
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Events {
    pub provenance: String,
    pub why: Option<String>,
    pub model: String,
    pub revolt_chance: Option<f64>,
    /// Under model "revolts": the chance a player's card brings a heresy (absent: none).
    pub heresy_chance: Option<f64>,
    /// Under model "revolts": the chance a player's card is the *Alliance* event (absent: never).
    pub alliance_chance: Option<f64>,
    /// Under model "revolts": the chance a player's card is the *Barbarian Coalition* event.
    pub coalition_chance: Option<f64>,
}
