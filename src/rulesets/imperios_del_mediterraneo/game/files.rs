//! The Core-IDM data files as written (serde shapes only; every check is in `load.rs`).

use serde::Deserialize;
use toml::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub provenance: String,
    pub why: String,
    pub tables: Option<String>,
    pub decks: Option<String>,
    pub base: Option<String>,
}

/// A map-and-scenario file: an explicit map (`[[city]]`, `[[barbarian]]`, `[[edge]]` and the
/// scenario's `[[scenario.empire]]`, digest §6.3), the mirror ring's sector template with its
/// scenario, or a perturbation naming its `base` file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub meta: Meta,
    pub ring: Option<Ring>,
    #[serde(default)]
    pub city: Vec<MapCityRow>,
    #[serde(default)]
    pub barbarian: Vec<MapBarbarianRow>,
    #[serde(default)]
    pub edge: Vec<EdgeRow>,
    pub scenario: Option<ScenarioHead>,
    pub perturbation: Option<Perturbation>,
}

/// A city of an explicit map: its territory (the board's colour or region) groups it with its
/// neighbours for the players' tie-breaks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapCityRow {
    pub id: String,
    pub territory: Option<String>,
    pub size: i64,
    pub port: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapBarbarianRow {
    pub id: String,
    pub territory: Option<String>,
    pub strength: i64,
}

/// An empire of an explicit map's scenario; what it leaves out is the `[scenario]`'s.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmpireRow {
    pub name: String,
    pub seat: i64,
    pub capital: String,
    pub fortifications: Option<i64>,
    pub hand_size: Option<i64>,
    pub deck: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ring {
    pub min_sectors: i64,
    pub max_sectors: i64,
    pub city: Vec<CityRow>,
    #[serde(default)]
    pub barbarian: Vec<BarbarianRow>,
    #[serde(default)]
    pub edge: Vec<EdgeRow>,
    #[serde(default)]
    pub link: Vec<EdgeRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CityRow {
    pub id: String,
    pub size: i64,
    pub port: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarbarianRow {
    pub id: String,
    pub strength: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeRow {
    pub a: String,
    pub b: String,
    pub kind: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioHead {
    pub turns: i64,
    pub auto_win_cities: i64,
    pub hand_size: i64,
    /// The ring's capital (a template city id); an explicit map names each empire's.
    pub capital: Option<String>,
    #[serde(default)]
    pub key_cities: Vec<String>,
    pub fortifications: i64,
    pub deck: String,
    #[serde(default)]
    pub empire: Vec<EmpireRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Perturbation {
    pub seat: i64,
    pub extra_city: Option<ExtraCity>,
    pub extra_fortifications: Option<i64>,
    pub extra_hand_size: Option<i64>,
    pub deck: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraCity {
    pub id: String,
    pub size: i64,
    pub port: bool,
    pub road_to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecksFile {
    pub meta: Meta,
    pub deck: Vec<DeckRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckRow {
    pub name: String,
    #[allow(dead_code)]
    pub why: String,
    pub card: Vec<CardRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardRow {
    pub name: String,
    pub types: Vec<String>,
    pub field: Option<Value>,
    pub naval: Option<Value>,
    pub assault: Option<Value>,
    pub dice: Option<i64>,
    pub copies: i64,
    /// The card's texts as effects: `{ effect = "combat_dice", amount = 1, timing =
    /// "on_resolution" }` (checked by the loader; `[]` for a vanilla card).
    pub effects: Vec<Value>,
    /// The card's Spanish text, once transcribed (read by people; effects are the engine's).
    #[allow(dead_code)]
    pub text: Option<String>,
    /// A Special Event (X) card's text is printed on the card (§5.3): a deck may give it an
    /// assumed one built from the generic effects, `provenance = "assumed"` with a `label`
    /// saying what it stands for.
    pub provenance: Option<String>,
    pub label: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    pub meta: Meta,
    pub event_table: EventTable,
    pub neutral_table: ForceTable,
    pub pirates_table: ForceTable,
    pub pacification_table: PacificationTable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventTable {
    pub name: String,
    pub provenance: String,
    pub why: String,
    pub lowest: i64,
    pub events: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceTable {
    pub name: String,
    pub provenance: String,
    pub why: String,
    pub rows: Vec<ForceRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceRow {
    pub fixed: i64,
    pub dice: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacificationTable {
    pub name: String,
    pub provenance: String,
    pub why: String,
    pub margin_step: i64,
    pub results: Vec<PacificationRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacificationRow {
    pub result: String,
    pub from: Option<i64>,
}
