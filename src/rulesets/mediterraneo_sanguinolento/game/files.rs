//! The two scenario files as written (serde shapes only; every check is in `scenario.rs`).
//! Schemas: the comments at the top of `scenarios/mediterraneo-sanguinolento/game/*.toml`.

use serde::Deserialize;
use std::collections::BTreeMap;

/// A resource table as written: `{ pob = 150, den = 150 }`.
pub type ResourceTable = BTreeMap<String, u32>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rows<T> {
    pub provenance: String,
    #[serde(default)]
    pub lines: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    pub rows: Vec<T>,
}

// ---- rulebook.toml ---------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulebookFile {
    pub calendar: CalendarTable,
    pub countries: Rows<CountryRow>,
    pub cultural_groups: GroupsTable,
    pub nation_flags: NationFlagsTable,
    pub special_rules: SpecialRulesTable,
    pub treasures: Rows<TreasureRow>,
    pub forage: Rows<ForageRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarTable {
    pub months_per_turn: u32,
    pub winter_months: Vec<u32>,
    pub collection_months: Vec<u32>,
    pub victory_pv: u32,
    pub no_player_attacks_on_turn: u32,
    pub printed_city_total: u32,
    pub provenance: String,
    pub lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountryRow {
    pub number: u32,
    pub name: String,
    pub culture: String,
    pub cities: Vec<String>,
    pub line: u32,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupsTable {
    pub provenance: String,
    pub lines: Option<String>,
    pub not_listed: Vec<String>,
    pub rows: Vec<GroupRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupRow {
    pub group: String,
    pub countries: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationFlagsTable {
    pub provenance: String,
    pub lines: Option<String>,
    pub roman: Vec<String>,
    pub italic: Vec<String>,
    pub hispanic: Vec<String>,
    pub carthaginian: Vec<String>,
    pub seleucid: Vec<String>,
}

/// `who` as written: one name (a country or a nation flag) or a list of them.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum Who {
    One(String),
    Many(Vec<String>),
}

impl Who {
    pub fn names(&self) -> &[String] {
        match self {
            Who::One(s) => std::slice::from_ref(s),
            Who::Many(v) => v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorRule {
    pub factor: f64,
    pub who: Who,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRule {
    pub levels: u32,
    pub who: Who,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenRule {
    pub den: u32,
    pub who: Who,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcedMarch {
    pub roman_iml: u32,
    pub italic_iml: u32,
    pub lines: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SacredRow {
    pub city: String,
    pub country: String,
    pub pv: i32,
    pub losers: Who,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PopulationRow {
    pub country: String,
    pub from: String,
    pub share: f64,
    pub morale: String,
    pub cost_as: String,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagRow {
    pub rule: String,
    pub who: Who,
    pub line: u32,
    /// The rule's numbers, under the keys `RULE_FLAGS` declares for it.
    #[serde(default)]
    pub numbers: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRulesTable {
    pub provenance: String,
    pub lines: Option<String>,
    pub falcata_first_segment: FactorRule,
    pub pilum_first_segment: FactorRule,
    pub corvus_boarding: FactorRule,
    pub greek_fortification_bonus: LevelRule,
    pub merchant_call_den: DenRule,
    pub forced_march_bonus: ForcedMarch,
    pub sacred_cities: Vec<SacredRow>,
    pub population_morale: Vec<PopulationRow>,
    pub flags: Vec<FlagRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForageRow {
    pub hex: String,
    pub com: u32,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreasureRow {
    pub city: String,
    pub den: u32,
    #[serde(default)]
    pub country: Option<String>,
    #[serde(default)]
    pub city_name: Option<String>,
    #[serde(default)]
    pub not_a_city: bool,
    #[serde(default)]
    pub note: Option<String>,
    pub line: u32,
}

// ---- abstraction.toml ------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbstractionFile {
    pub majors: MajorsTable,
    pub readings: ReadingsTable,
    pub nodes: Rows<NodeRow>,
    pub land_edges: Rows<LandEdgeRow>,
    pub sea_lanes: Rows<SeaLaneRow>,
    pub production: ProductionTable,
    pub start: StartTable,
    pub leaders: LeadersTable,
    pub trade: TradeTable,
    pub intrigue: IntrigueTable,
    pub mercenaries: MercenariesTable,
    /// The trade routes the map would draw (digest §4.9, §6.1); absent: none.
    #[serde(default)]
    pub trade_routes: Option<Rows<RouteRow>>,
    /// The ports' importance for trade by sea (digest §4.9); absent: every port 1.
    #[serde(default)]
    pub sea_trade: Option<SeaTradeTable>,
}

/// Trade by sea (`sea_trade.rs`): what the missing map prints of the ports.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaTradeTable {
    pub provenance: String,
    pub why: Option<String>,
    /// The port importance (1, 2 or 3, L914-L918) of every port of a country of that culture.
    pub port_importance: BTreeMap<String, i64>,
    /// Merchant ships also sail along the coast between land neighbours touching a common sea.
    pub coastal_legs: bool,
}

/// One trade route (L924-L953): its route cities in order and its three products.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteRow {
    pub name: String,
    pub provenance: String,
    pub why: Option<String>,
    pub products: Vec<String>,
    pub stops: Vec<StopRow>,
}

/// A route city; `by` = "land" or "sea": the leg from the previous one (none on the first).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRow {
    pub country: String,
    pub city: String,
    #[serde(default)]
    pub by: Option<String>,
}

/// The referee's roll for mercenaries (digest §4.5.9, §6.1 item 4).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MercenariesTable {
    pub provenance: String,
    pub why: Option<String>,
    /// Chance (0-1) a band comes with a named leader.
    pub leader_chance: f64,
    /// A hired client's or associate's unit costs this times its morale cost in DEN.
    pub partner_price: f64,
    pub bands: Vec<MercenaryRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MercenaryRow {
    pub unit: String,
    pub morale: String,
    pub regular: bool,
    pub weight: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntrigueTable {
    pub provenance: String,
    pub why: Option<String>,
    /// Hexes of a land link within which an army in one node reaches an army entering the other.
    pub range_hexes: u16,
    /// Hexes counted when the enemy's leg enters the interceptor's own node.
    pub same_node_distance: u16,
    /// Months a spy's report takes over a sea lane.
    pub sea_lane_months: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TradeTable {
    pub provenance: String,
    pub why: Option<String>,
    /// The commercial importance (A, B or C) of every city of a country of that culture.
    pub importance: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadersTable {
    pub provenance: String,
    pub why: Option<String>,
    /// The leader of every country's sheet that is its king, by culture.
    pub king: Vec<KingRow>,
    /// The class of the leaders searches, events and promotions bring.
    pub found_kind: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingRow {
    pub culture: String,
    /// "tactical-strategic", as the rules write a leader.
    pub leader: String,
    pub kind: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MajorsTable {
    pub provenance: String,
    pub why: Option<String>,
    pub countries: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadingsTable {
    pub provenance: String,
    pub why: Option<String>,
    pub group_of_unlisted: Vec<UnlistedRow>,
    pub greek_group: String,
    pub italic_countries: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnlistedRow {
    pub country: String,
    pub group: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeRow {
    pub country: String,
    pub lat: f64,
    pub lon: f64,
    pub terrain: String,
    pub zone: String,
    pub seas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandEdgeRow {
    pub a: String,
    pub b: String,
    pub hexes: u32,
    pub strait: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaLaneRow {
    pub a: String,
    pub b: String,
    pub hexes: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProductionTable {
    pub provenance: String,
    pub why: Option<String>,
    pub city: ResourceTable,
    pub city_man: BTreeMap<String, u32>,
    pub tribe: ResourceTable,
    pub rural: Vec<RuralRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuralRow {
    pub terrain: String,
    pub yields: ResourceTable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartTable {
    pub provenance: String,
    pub why: Option<String>,
    pub treasury_per_city: u32,
    pub treasury_minimum: u32,
    pub stock_per_city: ResourceTable,
    pub fortification: u32,
    pub army: Vec<ArmyRow>,
    /// The fleet type every coastal country starts with (absent: no fleets).
    #[serde(default)]
    pub fleet: Option<String>,
    /// Fleets of that type per listed city of a country whose node touches a sea.
    #[serde(default)]
    pub fleets_per_coastal_city: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyRow {
    pub culture: String,
    pub units: Vec<UnitRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    pub unit: String,
    pub per_city: u32,
    pub morale: String,
    pub regular: bool,
}
