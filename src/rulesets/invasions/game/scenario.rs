//! Scenario I (350 AD) of Invasions: `rulebook.toml` (every printed fact) and `abstraction.toml` (the
//! Area-level stand-ins for the missing components, digest §5.4, §6.2, §6.3), read, checked and turned
//! into flat tables indexed by small integers, ready for a game engine.
//!
//! Names in the files (Areas, provinces, sea zones, nation keys) become indices here; nothing downstream
//! compares strings. Every value of the abstraction keeps its provenance so a run can say which results
//! rest on placeholders (`Scenario::stand_ins`).

use crate::error::{did_you_mean, AleaError, Result};
use crate::rulesets::invasions::army::{Status, TEMPLATES};
use crate::rulesets::invasions::land::Terrain;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

pub type AreaId = u8;
pub type ProvinceId = u16;
pub type SeaId = u8;
pub type NationId = u8;
pub type PlayerId = u8;

/// Where the bundled files live, as error messages name them.
pub const BUNDLED_DIR: &str = "scenarios/invasions/scenario-1";
const RULEBOOK: &str = "rulebook.toml";
const ABSTRACTION: &str = "abstraction.toml";
/// A nation's Areas are kept as the bits of a u64 (`state.rs`).
pub const MAX_AREAS: usize = 64;

/// In the order of `Terrain::NAMES`.
const TERRAINS: [Terrain; 6] = [
    Terrain::Plain,
    Terrain::Steppe,
    Terrain::Desert,
    Terrain::Forest,
    Terrain::Mountain,
    Terrain::Swamp,
];
/// Map symbols the text shows without saying what they mean ("lost": a glyph lost in extraction).
const MARKS: [&str; 5] = [
    "leaf",
    "dragon",
    "camel",
    "camel-removed-by-extension",
    "lost",
];
const STATUSES: [(&str, Status); 3] = [
    ("barbarian", Status::Barbarian),
    ("kingdom", Status::Kingdom),
    ("empire", Status::Empire),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Provenance {
    Rulebook,
    Assumed,
    Placeholder,
}

impl Provenance {
    pub const NAMES: [&'static str; 3] = ["rulebook", "assumed", "placeholder"];
    pub fn name(self) -> &'static str {
        Provenance::NAMES[self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaKind {
    Barbarian,
    Civilized,
}

#[derive(Clone, Debug)]
pub struct City {
    pub name: String,
    /// 0 = an empty city site, 1-3 a city.
    pub level: u8,
    pub fortified: bool,
    /// The walls' siege modifier (0 when unfortified).
    pub walls: i8,
}

#[derive(Clone, Debug)]
pub struct Province {
    pub name: String,
    /// The Area it is printed under.
    pub area: AreaId,
    /// False for the one province printed under an Area but in none on the main map (‡, L3002).
    pub counts_for_area: bool,
    pub terrain: Terrain,
    /// Income in half gold (the map prints ½).
    pub income_halves: u8,
    pub city: Option<City>,
    /// The sea zone of its port city or site.
    pub port: Option<SeaId>,
    /// An island with no sea zone for game purposes (†, L2948).
    pub no_sea_zone: bool,
    pub caravan: bool,
    /// Its line in the rulebook.
    pub line: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    Land,
    Strait,
}

#[derive(Clone, Copy, Debug)]
pub struct AreaLink {
    pub to: AreaId,
    pub crossing: Crossing,
    pub river: bool,
    pub mountains: bool,
}

#[derive(Clone, Debug)]
pub struct Area {
    pub name: String,
    pub kind: AreaKind,
    /// As printed: the Kingdom figure (a Barbarian Area's only one) and the Empire figure.
    pub kingdom_income: u8,
    pub empire_income: Option<u8>,
    /// A second figure printed in brackets, in halves (Arabia: 2½).
    pub alternative_halves: Option<u8>,
    /// The provinces that count for the Area (control, income).
    pub provinces: Vec<ProvinceId>,
    pub links: Vec<AreaLink>,
    /// Bit s: the Area has a port on sea zone s.
    pub coasts: u32,
}

#[derive(Clone, Debug)]
pub struct Sea {
    pub name: String,
    pub monopoly: u8,
    pub links: Vec<SeaId>,
    /// Port cities and sites, in rulebook order.
    pub ports: Vec<ProvinceId>,
}

#[derive(Clone, Debug)]
pub struct OffMapBox {
    pub name: String,
    pub bonus: u8,
    /// The Area it is entered from.
    pub area: AreaId,
}

#[derive(Clone, Debug)]
pub struct River {
    pub name: String,
    pub areas: Vec<AreaId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Religion {
    Catholic,
    Arian,
    Mazdean,
    Pagan,
    /// Not stated for a Civilized nation outside the rulebook's lists.
    Unstated,
}

/// One row of the Dramatis Personae (a "people"; the Goths' row covers two nations).
#[derive(Clone, Debug)]
pub struct People {
    pub key: String,
    pub latin: String,
    pub group: String,
    pub minor_kingdom: bool,
    pub inactive: bool,
    pub religion: Religion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Area(AreaId),
    Province(ProvinceId),
}

#[derive(Clone, Copy, Debug)]
pub struct Objective {
    pub target: Target,
    pub vp: u16,
}

/// A nation in play, in initiative order.
#[derive(Clone, Debug)]
pub struct Nation {
    pub key: String,
    pub people: u8,
    pub player: PlayerId,
    pub entry_turn: u8,
    pub status: Status,
    pub nomad: bool,
    pub capital: Option<ProvinceId>,
    pub horde: Option<ProvinceId>,
    /// Bit t: raids on turn t.
    pub raids: u16,
    /// The turn a raider settles as an active Barbarian (0 = never).
    pub active_from: u8,
    pub treasury: u8,
    /// (index into `army::TEMPLATES`, count).
    pub units: Vec<(u8, u8)>,
    /// Held on turn 1.
    pub controls: Vec<ProvinceId>,
    pub objectives: Vec<Objective>,
}

/// The three Administration sets, in the order of `SetCosts`.
pub const SETS: [&str; 3] = ["passive", "military", "reform"];
/// Gold each set costs, in the order of `SETS`.
pub type SetCosts = [u8; 3];

/// One table (or row) of the abstraction that is not printed: which file, where, what, why.
#[derive(Clone, Debug)]
pub struct StandIn {
    pub file: String,
    pub field: String,
    /// What a row is about (a nation key, a set), empty for a whole table.
    pub subject: String,
    pub provenance: Provenance,
    pub why: String,
}

pub struct Scenario {
    pub title: String,
    pub year: u16,
    pub turns: u8,
    pub turns_with_islam: u8,
    pub scoring_turns: Vec<u8>,
    pub roman_split_turn: u8,
    pub limes_last_turn: u8,
    /// In tie-break order.
    pub players: Vec<String>,
    /// (turn, year) where the text ties them.
    pub dates: Vec<(u8, u16)>,
    pub seas: Vec<Sea>,
    pub areas: Vec<Area>,
    pub provinces: Vec<Province>,
    pub boxes: Vec<OffMapBox>,
    pub rivers: Vec<River>,
    pub peoples: Vec<People>,
    pub nations: Vec<Nation>,
    pub monophysite_areas: Vec<AreaId>,
    /// Caravan provinces and the D10 faces (low, high) naming the exceptional one.
    pub caravans: Vec<(ProvinceId, u8, u8)>,
    pub caravan_gold: [u8; 2],
    pub attila_death_turn: u8,
    pub islam_turn: u8,
    pub theodosian_walls_turn: u8,
    /// Areas passing from Rome to Byzantium at the split.
    pub roman_split: Vec<AreaId>,
    pub kingdom_sets: SetCosts,
    pub empire_sets: SetCosts,
    /// Unit prices (unit type as an index into `army::TEMPLATES`, gold) for a Kingdom and an
    /// Empire, and the Romans' national units (capped a turn, L974).
    pub kingdom_prices: Vec<(u8, u8)>,
    pub empire_prices: Vec<(u8, u8)>,
    pub roman_national: Vec<(u8, u8)>,
    /// Cards of each Administration set (the draw procedure needs the real composition).
    pub administration_deck: [u8; 3],
    /// Public and private event cards.
    pub event_deck: [u8; 2],
    /// Diplomacy cards by name.
    pub diplomacy_deck: Vec<(String, u8)>,
    /// Events (abstraction.toml `[events]`): the chance that a player's event card of the turn
    /// starts a revolt (0 under the null model), and the Empires' rebel-Area table (XVI.C) as
    /// Area indices (West, East).
    pub revolt_chance: f64,
    pub revolt_areas: [[AreaId; 10]; 2],
    stand_ins: Vec<StandIn>,
}

// ---- The files as written -------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulebookFile {
    scenario: Head,
    date: Vec<DateRow>,
    seas: Rows<SeaRow>,
    area: Vec<AreaRow>,
    provinces: Rows<ProvinceRow>,
    walls: Walls,
    #[serde(rename = "box")]
    boxes: Vec<BoxRow>,
    rivers: Rows<RiverRow>,
    nations: Rows<PeopleRow>,
    nation_facts: NationFacts,
    religion: ReligionFile,
    caravans: Caravans,
    decks: Decks,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    key: String,
    title: String,
    year: u16,
    turns: u8,
    turns_with_islam: u8,
    scoring_turns: Vec<u8>,
    players: Vec<String>,
    roman_split_turn: u8,
    limes_last_turn: u8,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    first_step: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    skipped_on_turn_1: Vec<String>,
    provenance: String,
    lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DateRow {
    turn: u8,
    year: u16,
    provenance: String,
    lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rows<T> {
    provenance: String,
    lines: Option<String>,
    why: Option<String>,
    rows: Vec<T>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeaRow {
    name: String,
    monopoly: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaRow {
    name: String,
    kind: String,
    kingdom_income: u8,
    empire_income: Option<u8>,
    printed_alternative: Option<f64>,
    provenance: String,
    lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvinceRow {
    name: String,
    area: Option<String>,
    terrain: String,
    income: f64,
    city: Option<String>,
    level: Option<u8>,
    #[serde(default)]
    fortified: bool,
    port: Option<String>,
    #[serde(default)]
    no_sea_zone: bool,
    #[serde(default)]
    outside_area: bool,
    #[serde(default)]
    marks: Vec<String>,
    line: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Walls {
    provenance: String,
    lines: Option<String>,
    usual: i8,
    exceptions: Vec<WallRow>,
    theodosian: WallRow,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WallRow {
    city: String,
    modifier: i8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxRow {
    name: String,
    listed_under: String,
    bonus: Option<u8>,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    note: String,
    provenance: String,
    lines: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RiverRow {
    name: String,
    areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PeopleRow {
    key: String,
    latin: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    spanish: String,
    group: String,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    symbol: Option<String>,
    #[serde(default)]
    minor_kingdom: bool,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    line: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NationFacts {
    provenance: String,
    lines: Option<String>,
    empire_at_start: Vec<String>,
    kingdom_at_start: Vec<String>,
    minor_kingdoms_at_start: Vec<String>,
    inactive: Vec<String>,
    raiders_later_active: Vec<String>,
    raider_examples: Vec<String>,
    no_voluntary_kingdom: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReligionFile {
    provenance: String,
    lines: Option<String>,
    catholic: Vec<String>,
    mazdean: Vec<String>,
    arian: Vec<String>,
    other_barbarians: String,
    monophysite_areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Caravans {
    provenance: String,
    lines: Option<String>,
    provinces: Vec<String>,
    gold: u8,
    exceptional_gold: u8,
    exceptional_d10: Vec<CaravanFaces>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaravanFaces {
    province: String,
    faces: [u8; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Decks {
    provenance: String,
    lines: Option<String>,
    /// Read by people, not by the engine.
    #[allow(dead_code)]
    nation_cards: u8,
    administration: SetCostsRow,
    events: EventDeck,
    diplomacy: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDeck {
    public: u8,
    private: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbstractionFile {
    area_graph: AreaGraph,
    sea_graph: SeaGraph,
    time_track: TimeTrack,
    assignment: Assignment,
    entry: Rows<EntryRow>,
    start: Rows<StartRow>,
    roman_split: RomanSplit,
    forces: Forces,
    objectives: Rows<ObjectiveRow>,
    administration: Administration,
    purchases: Purchases,
    events: Events,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaGraph {
    provenance: String,
    why: Option<String>,
    links: Vec<LinkRow>,
    boxes: Vec<BoxLink>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkRow {
    a: String,
    b: String,
    kind: String,
    river: Option<String>,
    #[serde(default)]
    mountains: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxLink {
    #[serde(rename = "box")]
    name: String,
    area: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeaGraph {
    provenance: String,
    why: Option<String>,
    links: Vec<[String; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeTrack {
    provenance: String,
    why: Option<String>,
    attila_death_turn: u8,
    islam_turn: u8,
    theodosian_walls_turn: u8,
}

#[derive(Deserialize)]
struct Assignment {
    provenance: String,
    why: Option<String>,
    #[serde(flatten)]
    players: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryRow {
    nation: String,
    people: Option<String>,
    turn: u8,
    status: String,
    capital: Option<String>,
    horde: Option<String>,
    #[serde(default)]
    raids: Vec<u8>,
    #[serde(default)]
    active_from: u8,
    provenance: Option<String>,
    why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartRow {
    nation: String,
    controls: Vec<String>,
    provenance: Option<String>,
    why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RomanSplit {
    provenance: String,
    why: Option<String>,
    areas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Forces {
    provenance: String,
    why: Option<String>,
    empire: Force,
    kingdom: Force,
    minor_kingdom: Force,
    barbarian: Force,
    nomad: Force,
    raider: Force,
    rows: Vec<ForceRow>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Force {
    treasury: u8,
    units: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForceRow {
    nation: String,
    treasury: u8,
    units: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectiveRow {
    nation: String,
    target: String,
    vp: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Administration {
    provenance: String,
    why: Option<String>,
    kingdom: SetCostsRow,
    empire: SetCostsRow,
    known: Vec<KnownCost>,
    effects: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Purchases {
    provenance: String,
    why: Option<String>,
    kingdom: BTreeMap<String, u8>,
    empire: BTreeMap<String, u8>,
    roman_national: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetCostsRow {
    passive: u8,
    military: u8,
    reform: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownCost {
    status: String,
    set: String,
    cost: u8,
    provenance: String,
    why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Events {
    provenance: String,
    why: Option<String>,
    model: String,
    revolt_chance: Option<f64>,
}

// ---- Loading ---------------------------------------------------------------------------------------

impl Scenario {
    /// The files shipped in `scenarios/invasions/scenario-1/`.
    pub fn bundled() -> Result<Scenario> {
        let rulebook = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/invasions/scenario-1/rulebook.toml"
        ));
        let abstraction = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/invasions/scenario-1/abstraction.toml"
        ));
        Scenario::parse(
            &format!("{BUNDLED_DIR}/{RULEBOOK}"),
            rulebook,
            &format!("{BUNDLED_DIR}/{ABSTRACTION}"),
            abstraction,
        )
    }

    /// A folder holding `rulebook.toml` and `abstraction.toml`.
    pub fn from_dir(dir: &Path) -> Result<Scenario> {
        Scenario::from_files(&dir.join(RULEBOOK), &dir.join(ABSTRACTION))
    }

    /// The two files named separately (to swap in another abstraction, say).
    pub fn from_files(rulebook: &Path, abstraction: &Path) -> Result<Scenario> {
        // A scenario the user names is input: a missing file is exit code 2, like bad data.
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|e| {
                AleaError::invalid(
                    p.display().to_string(),
                    format!("cannot read the scenario file ({e})"),
                )
            })
        };
        Scenario::parse(
            &rulebook.display().to_string(),
            &read(rulebook)?,
            &abstraction.display().to_string(),
            &read(abstraction)?,
        )
    }

    pub fn parse(rb_name: &str, rb_text: &str, ab_name: &str, ab_text: &str) -> Result<Scenario> {
        let rb: RulebookFile = toml::from_str(rb_text)
            .map_err(|e| crate::spec::toml_error(rb_name, "scenario file", rb_text, &e))?;
        let ab: AbstractionFile = toml::from_str(ab_text)
            .map_err(|e| crate::spec::toml_error(ab_name, "scenario file", ab_text, &e))?;
        Loader {
            rb: rb_name,
            ab: ab_name,
            stand_ins: Vec::new(),
        }
        .build(&rb, &ab)
    }

    /// Every value of the abstraction that is assumed or a placeholder, placeholders first.
    pub fn stand_ins(&self) -> Vec<&StandIn> {
        let mut out: Vec<&StandIn> = self.stand_ins.iter().collect();
        out.sort_by_key(|s| std::cmp::Reverse(s.provenance));
        out
    }

    /// One line per stand-in, for a run's report.
    pub fn stand_in_summary(&self) -> String {
        let mut text = String::new();
        for s in self.stand_ins() {
            let p = s.provenance.name();
            let about = if s.subject.is_empty() {
                String::new()
            } else {
                format!(" {}", s.subject)
            };
            text.push_str(&format!(
                "{p:<11} {} [{}]{about}: {}\n",
                s.file, s.field, s.why
            ));
        }
        text
    }

    /// True when the VP values that decide a winner are placeholders.
    pub fn vp_rest_on_placeholders(&self) -> bool {
        self.stand_ins
            .iter()
            .any(|s| s.field == "objectives" && s.provenance == Provenance::Placeholder)
    }

    pub fn area(&self, name: &str) -> Option<AreaId> {
        self.areas
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as AreaId)
    }
    pub fn province(&self, name: &str) -> Option<ProvinceId> {
        let i = self.provinces.iter().position(|p| p.name == name)?;
        Some(i as ProvinceId)
    }
    pub fn nation(&self, key: &str) -> Option<NationId> {
        self.nations
            .iter()
            .position(|n| n.key == key)
            .map(|i| i as NationId)
    }
}

fn bad(file: &str, field: impl Into<String>, value: &str, allowed: impl Into<String>) -> AleaError {
    AleaError::input(file, field, format!("\"{value}\""), allowed)
}

/// Names of one kind (Areas, provinces, seas, nations) and their indices.
struct Index<'a> {
    what: &'static str,
    map: HashMap<&'a str, usize>,
    names: Vec<&'a str>,
}

impl<'a> Index<'a> {
    /// Fails on a name listed twice; `field(i)` names the i-th entry.
    fn new(
        file: &str,
        what: &'static str,
        names: impl IntoIterator<Item = &'a str>,
        field: impl Fn(usize) -> String,
    ) -> Result<Index<'a>> {
        let names: Vec<&'a str> = names.into_iter().collect();
        let mut map = HashMap::new();
        for (i, &name) in names.iter().enumerate() {
            if map.insert(name, i).is_some() {
                return Err(bad(file, field(i), name, format!("{what} listed once")));
            }
        }
        Ok(Index { what, map, names })
    }

    fn get(&self, file: &str, field: impl Into<String>, name: &str) -> Result<usize> {
        self.map.get(name).copied().ok_or_else(|| {
            let hint = did_you_mean(name, self.map.keys().copied());
            bad(file, field, name, format!("{}{hint}", self.what))
        })
    }
}

struct Loader<'f> {
    rb: &'f str,
    ab: &'f str,
    stand_ins: Vec<StandIn>,
}

/// The indices the abstraction refers to.
struct Names<'a> {
    areas: Index<'a>,
    provinces: Index<'a>,
    seas: Index<'a>,
    peoples: Index<'a>,
}

fn provenance(file: &str, field: &str, text: &str, allowed: &[Provenance]) -> Result<Provenance> {
    let names: Vec<&str> = allowed.iter().map(|p| p.name()).collect();
    allowed
        .iter()
        .copied()
        .find(|p| p.name() == text)
        .ok_or_else(|| bad(file, field, text, format!("one of {}", names.join(", "))))
}

fn present(file: &str, field: &str, text: Option<&str>, what: &str) -> Result<()> {
    match text {
        Some(t) if !t.trim().is_empty() => Ok(()),
        _ => Err(AleaError::input(file, field, "nothing", what)),
    }
}

impl<'f> Loader<'f> {
    fn rulebook_tag(&self, field: &str, p: &str, lines: &Option<String>) -> Result<()> {
        provenance(
            self.rb,
            &format!("{field}.provenance"),
            p,
            &[Provenance::Rulebook],
        )?;
        let what = "the rulebook lines, as \"Lnnn-Lnnn\"";
        present(self.rb, &format!("{field}.lines"), lines.as_deref(), what)
    }

    /// Checks a table of the abstraction and records it for the stand-in summary.
    fn stand_in(&mut self, field: &str, p: &str, why: &Option<String>) -> Result<Provenance> {
        let allowed = [Provenance::Assumed, Provenance::Placeholder];
        let prov = provenance(self.ab, &format!("{field}.provenance"), p, &allowed)?;
        let why = why.as_deref();
        present(
            self.ab,
            &format!("{field}.why"),
            why,
            "a reason for the stand-in",
        )?;
        self.stand_ins.push(StandIn {
            file: self.ab.to_string(),
            field: field.to_string(),
            subject: String::new(),
            provenance: prov,
            why: why.unwrap_or_default().to_string(),
        });
        Ok(prov)
    }

    /// A row that carries its own provenance (else its table's applies); `subject` names what
    /// the row is about for the summary.
    fn row_stand_in(
        &mut self,
        field: &str,
        subject: &str,
        p: &Option<String>,
        why: &Option<String>,
    ) -> Result<()> {
        match p {
            Some(p) => {
                self.stand_in(field, p, why)?;
                let last = self.stand_ins.last_mut().expect("just pushed");
                last.subject = subject.to_string();
                Ok(())
            }
            None if why.is_some() => Err(AleaError::input(
                self.ab,
                format!("{field}.provenance"),
                "nothing",
                "a provenance beside the row's why",
            )),
            None => Ok(()),
        }
    }

    fn build(mut self, rb: &RulebookFile, ab: &AbstractionFile) -> Result<Scenario> {
        self.rulebook_tags(rb)?;
        self.limits(rb, ab)?;
        let names = self.names(rb)?;
        let mut seas = self.seas(rb);
        let mut areas = self.areas(rb)?;
        let mut provinces = self.provinces(rb, &names)?;
        self.walls(rb, &mut provinces)?;
        self.fill_areas_and_ports(&mut areas, &mut seas, &provinces)?;
        let (caravans, caravan_gold) = self.caravans(rb, &names, &mut provinces)?;
        let rivers = self.rivers(rb, &names)?;
        let peoples = self.peoples(rb, &names)?;
        let monophysite_areas = self.area_list(
            self.rb,
            "religion.monophysite_areas",
            &rb.religion.monophysite_areas,
            &names,
        )?;
        self.area_graph(ab, &names, &rivers, &mut areas)?;
        let boxes = self.boxes(rb, ab, &names)?;
        self.sea_graph(ab, &names, &mut seas)?;
        let head = &rb.scenario;
        self.time_track(ab, head.turns)?;
        let nations = self.nations(rb, ab, &names, &peoples, &areas, &provinces)?;
        let split = &ab.roman_split;
        self.stand_in("roman_split", &split.provenance, &split.why)?;
        let roman_split = self.area_list(self.ab, "roman_split.areas", &split.areas, &names)?;
        let (kingdom_sets, empire_sets) = self.administration(ab)?;
        let pr = &ab.purchases;
        self.stand_in("purchases", &pr.provenance, &pr.why)?;
        let kingdom_prices = self.units("purchases.kingdom", &pr.kingdom)?;
        let empire_prices = self.units("purchases.empire", &pr.empire)?;
        let roman_national = self.units("purchases.roman_national", &pr.roman_national)?;
        let revolt_chance = self.events(ab)?;
        let mut s = Scenario {
            title: head.title.clone(),
            year: head.year,
            turns: head.turns,
            turns_with_islam: head.turns_with_islam,
            scoring_turns: head.scoring_turns.clone(),
            roman_split_turn: head.roman_split_turn,
            limes_last_turn: head.limes_last_turn,
            players: head.players.clone(),
            dates: rb.date.iter().map(|d| (d.turn, d.year)).collect(),
            seas,
            areas,
            provinces,
            boxes,
            rivers,
            peoples,
            nations,
            monophysite_areas,
            caravans,
            caravan_gold,
            attila_death_turn: ab.time_track.attila_death_turn,
            islam_turn: ab.time_track.islam_turn,
            theodosian_walls_turn: ab.time_track.theodosian_walls_turn,
            roman_split,
            kingdom_sets,
            empire_sets,
            kingdom_prices,
            empire_prices,
            roman_national,
            administration_deck: set_row(&rb.decks.administration),
            event_deck: [rb.decks.events.public, rb.decks.events.private],
            diplomacy_deck: rb.decks.diplomacy.clone().into_iter().collect(),
            revolt_chance,
            revolt_areas: [[0; 10]; 2],
            stand_ins: self.stand_ins,
        };
        if revolt_chance > 0.0 {
            s.revolt_areas = super::procedures::revolt_areas(&s)?;
        }
        Ok(s)
    }

    fn rulebook_tags(&self, rb: &RulebookFile) -> Result<()> {
        let h = &rb.scenario;
        self.rulebook_tag("scenario", &h.provenance, &h.lines)?;
        for (i, d) in rb.date.iter().enumerate() {
            self.rulebook_tag(&format!("date[{i}]"), &d.provenance, &d.lines)?;
        }
        self.rulebook_tag("seas", &rb.seas.provenance, &rb.seas.lines)?;
        for (i, a) in rb.area.iter().enumerate() {
            self.rulebook_tag(&format!("area[{i}]"), &a.provenance, &a.lines)?;
        }
        let p = &rb.provinces;
        self.rulebook_tag("provinces", &p.provenance, &p.lines)?;
        self.rulebook_tag("walls", &rb.walls.provenance, &rb.walls.lines)?;
        for (i, b) in rb.boxes.iter().enumerate() {
            self.rulebook_tag(&format!("box[{i}]"), &b.provenance, &b.lines)?;
        }
        self.rulebook_tag("rivers", &rb.rivers.provenance, &rb.rivers.lines)?;
        self.rulebook_tag("nations", &rb.nations.provenance, &rb.nations.lines)?;
        let f = &rb.nation_facts;
        self.rulebook_tag("nation_facts", &f.provenance, &f.lines)?;
        let r = &rb.religion;
        self.rulebook_tag("religion", &r.provenance, &r.lines)?;
        let c = &rb.caravans;
        self.rulebook_tag("caravans", &c.provenance, &c.lines)?;
        self.rulebook_tag("decks", &rb.decks.provenance, &rb.decks.lines)
    }

    /// Scenario I with its four players; the index types and bit sets hold these many (u8 Areas and
    /// nations, u32 coasts, u16 raids).
    fn limits(&self, rb: &RulebookFile, ab: &AbstractionFile) -> Result<()> {
        let h = &rb.scenario;
        if h.key != "scenario-1" || h.players.len() != 4 {
            let value = format!("{} with {} players", h.key, h.players.len());
            return Err(bad(
                self.rb,
                "scenario",
                &value,
                "scenario-1 with 4 players",
            ));
        }
        let checks = [
            (self.rb, "area", rb.area.len(), 255),
            (
                self.rb,
                "provinces.rows",
                rb.provinces.rows.len(),
                u16::MAX as usize,
            ),
            (self.rb, "seas.rows", rb.seas.rows.len(), 32),
            (self.rb, "nations.rows", rb.nations.rows.len(), 255),
            (self.ab, "entry.rows", ab.entry.rows.len(), 255),
            (self.rb, "scenario.turns", h.turns as usize, 15),
        ];
        for (file, field, n, most) in checks {
            if n > most {
                return Err(AleaError::input(file, field, n, format!("at most {most}")));
            }
        }
        for (i, &t) in h.scoring_turns.iter().enumerate() {
            turn(self.rb, format!("scenario.scoring_turns[{i}]"), t, h.turns)?;
        }
        Ok(())
    }

    fn names<'a>(&self, rb: &'a RulebookFile) -> Result<Names<'a>> {
        let rb_name = self.rb;
        Ok(Names {
            areas: Index::new(
                rb_name,
                "an Area of [[area]]",
                rb.area.iter().map(|a| a.name.as_str()),
                |i| format!("area[{i}].name"),
            )?,
            provinces: Index::new(
                rb_name,
                "a province of [provinces]",
                rb.provinces.rows.iter().map(|p| p.name.as_str()),
                |i| format!("provinces.rows[{i}].name"),
            )?,
            seas: Index::new(
                rb_name,
                "a sea zone of [seas]",
                rb.seas.rows.iter().map(|s| s.name.as_str()),
                |i| format!("seas.rows[{i}].name"),
            )?,
            peoples: Index::new(
                rb_name,
                "a nation key of [nations]",
                rb.nations.rows.iter().map(|n| n.key.as_str()),
                |i| format!("nations.rows[{i}].key"),
            )?,
        })
    }

    fn seas(&self, rb: &RulebookFile) -> Vec<Sea> {
        let row = |s: &SeaRow| Sea {
            name: s.name.clone(),
            monopoly: s.monopoly,
            links: Vec::new(),
            ports: Vec::new(),
        };
        rb.seas.rows.iter().map(row).collect()
    }

    fn areas(&self, rb: &RulebookFile) -> Result<Vec<Area>> {
        // The game keeps a nation's Areas as the bits of a u64.
        if rb.area.len() > MAX_AREAS {
            let n = rb.area.len();
            return Err(AleaError::input(
                self.rb,
                "area",
                format!("{n} Areas"),
                format!("at most {MAX_AREAS}"),
            ));
        }
        let mut out = Vec::new();
        for (i, a) in rb.area.iter().enumerate() {
            let kind = match (a.kind.as_str(), a.empire_income) {
                ("barbarian", None) => AreaKind::Barbarian,
                ("civilized", Some(_)) => AreaKind::Civilized,
                _ => {
                    let allowed = "\"barbarian\" (no empire_income) or \"civilized\" (with one)";
                    return Err(bad(self.rb, format!("area[{i}].kind"), &a.kind, allowed));
                }
            };
            let field = format!("area[{i}].printed_alternative");
            let alternative_halves = a.printed_alternative.map(|x| halves(self.rb, &field, x));
            out.push(Area {
                name: a.name.clone(),
                kind,
                kingdom_income: a.kingdom_income,
                empire_income: a.empire_income,
                alternative_halves: alternative_halves.transpose()?,
                provinces: Vec::new(),
                links: Vec::new(),
                coasts: 0,
            });
        }
        Ok(out)
    }

    fn provinces(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<Province>> {
        let rows = &rb.provinces.rows;
        let mut out = Vec::with_capacity(rows.len());
        for (i, p) in rows.iter().enumerate() {
            out.push(self.province(i, p, names)?);
        }
        Ok(out)
    }

    fn province(&self, i: usize, p: &ProvinceRow, names: &Names) -> Result<Province> {
        let f = |k: &str| format!("provinces.rows[{i}].{k}");
        let Some(area) = &p.area else {
            let allowed = names.areas.what;
            return Err(AleaError::input(self.rb, f("area"), "nothing", allowed));
        };
        let area = names.areas.get(self.rb, f("area"), area)? as AreaId;
        let terrain = Terrain::NAMES.iter().position(|t| *t == p.terrain);
        let terrain = terrain
            .map(|t| TERRAINS[t])
            .ok_or_else(|| bad(self.rb, f("terrain"), &p.terrain, Terrain::NAMES.join(", ")))?;
        let city = self.city(&f("city"), p)?;
        let port = match &p.port {
            Some(s) if city.is_some() => Some(names.seas.get(self.rb, f("port"), s)? as SeaId),
            Some(s) => return Err(bad(self.rb, f("port"), s, "a port where a city or site is")),
            None => None,
        };
        if let Some(m) = p.marks.iter().find(|m| !MARKS.contains(&m.as_str())) {
            return Err(bad(self.rb, f("marks"), m, MARKS.join(", ")));
        }
        Ok(Province {
            name: p.name.clone(),
            area,
            counts_for_area: !p.outside_area,
            terrain,
            income_halves: halves(self.rb, &f("income"), p.income)?,
            city,
            port,
            no_sea_zone: p.no_sea_zone,
            caravan: false,
            line: p.line,
        })
    }

    /// A city needs a level; a site (level 0) cannot be fortified. Walls come from the `[walls]` table.
    fn city(&self, field: &str, p: &ProvinceRow) -> Result<Option<City>> {
        match (&p.city, p.level) {
            (None, None) if !p.fortified => Ok(None),
            (Some(name), Some(level @ 0..=3)) if !p.fortified || level > 0 => Ok(Some(City {
                name: name.clone(),
                level,
                fortified: p.fortified,
                walls: 0,
            })),
            _ => {
                let value = format!("{:?} level {:?}", p.city, p.level);
                let allowed = "a city with a level 0-3 (fortified only from 1), or neither";
                Err(bad(self.rb, field, &value, allowed))
            }
        }
    }

    fn walls(&self, rb: &RulebookFile, provinces: &mut [Province]) -> Result<()> {
        let w = &rb.walls;
        for p in provinces.iter_mut() {
            if let Some(c) = p.city.as_mut().filter(|c| c.fortified) {
                c.walls = w.usual;
            }
        }
        for (i, e) in w.exceptions.iter().chain([&w.theodosian]).enumerate() {
            let field = if i < w.exceptions.len() {
                format!("walls.exceptions[{i}].city")
            } else {
                "walls.theodosian.city".to_string()
            };
            let city = provinces
                .iter_mut()
                .filter_map(|p| p.city.as_mut())
                .find(|c| c.name == e.city && c.fortified)
                .ok_or_else(|| bad(self.rb, field, &e.city, "a fortified city of [provinces]"))?;
            if i < w.exceptions.len() {
                city.walls = e.modifier;
            }
        }
        Ok(())
    }

    fn fill_areas_and_ports(
        &self,
        areas: &mut [Area],
        seas: &mut [Sea],
        provinces: &[Province],
    ) -> Result<()> {
        for (i, p) in provinces.iter().enumerate() {
            if p.counts_for_area {
                areas[p.area as usize].provinces.push(i as ProvinceId);
            }
            if let Some(s) = p.port {
                seas[s as usize].ports.push(i as ProvinceId);
                areas[p.area as usize].coasts |= 1 << s;
            }
        }
        match areas.iter().position(|a| a.provinces.is_empty()) {
            Some(i) => Err(bad(
                self.rb,
                format!("area[{i}].name"),
                &areas[i].name,
                "an Area at least one province of [provinces] counts for",
            )),
            None => Ok(()),
        }
    }

    #[allow(clippy::type_complexity)]
    fn caravans(
        &self,
        rb: &RulebookFile,
        names: &Names,
        provinces: &mut [Province],
    ) -> Result<(Vec<(ProvinceId, u8, u8)>, [u8; 2])> {
        let c = &rb.caravans;
        for (i, name) in c.provinces.iter().enumerate() {
            let p = names
                .provinces
                .get(self.rb, format!("caravans.provinces[{i}]"), name)?;
            provinces[p].caravan = true;
        }
        let mut out = Vec::new();
        let mut covered = [0u8; 11];
        for (i, row) in c.exceptional_d10.iter().enumerate() {
            let field = format!("caravans.exceptional_d10[{i}]");
            let p = names
                .provinces
                .get(self.rb, format!("{field}.province"), &row.province)?;
            let [low, high] = row.faces;
            if !provinces[p].caravan || !(1..=high).contains(&low) || high > 10 {
                let value = format!("{} {low}-{high}", row.province);
                let allowed = "a caravan province with faces low <= high in 1..10";
                return Err(bad(self.rb, field, &value, allowed));
            }
            covered[low as usize..=high as usize]
                .iter_mut()
                .for_each(|n| *n += 1);
            out.push((p as ProvinceId, low, high));
        }
        if covered[1..].iter().any(|&n| n != 1) {
            let allowed = "rows covering the faces 1..10 once each";
            return Err(bad(
                self.rb,
                "caravans.exceptional_d10",
                "a gap or overlap",
                allowed,
            ));
        }
        Ok((out, [c.gold, c.exceptional_gold]))
    }

    fn rivers(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<River>> {
        let mut out = Vec::new();
        for (i, r) in rb.rivers.rows.iter().enumerate() {
            let field = format!("rivers.rows[{i}].areas");
            out.push(River {
                name: r.name.clone(),
                areas: self.area_list(self.rb, &field, &r.areas, names)?,
            });
        }
        Ok(out)
    }

    fn area_list(
        &self,
        file: &str,
        field: &str,
        list: &[String],
        names: &Names,
    ) -> Result<Vec<AreaId>> {
        let area = |a: &String| names.areas.get(file, field, a).map(|i| i as AreaId);
        list.iter().map(area).collect()
    }

    fn people_keys(&self, field: &str, list: &[String], names: &Names) -> Result<Vec<usize>> {
        list.iter()
            .map(|k| names.peoples.get(self.rb, field, k))
            .collect()
    }

    fn peoples(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<People>> {
        const GROUPS: [&str; 6] = ["germanic", "nomad", "raider", "roman", "slavic", "other"];
        let facts = &rb.nation_facts;
        let inactive = self.people_keys("nation_facts.inactive", &facts.inactive, names)?;
        let minor = &facts.minor_kingdoms_at_start;
        let minor = self.people_keys("nation_facts.minor_kingdoms_at_start", minor, names)?;
        for (k, list) in [
            ("empire_at_start", &facts.empire_at_start),
            ("kingdom_at_start", &facts.kingdom_at_start),
            ("raiders_later_active", &facts.raiders_later_active),
            ("raider_examples", &facts.raider_examples),
            ("no_voluntary_kingdom", &facts.no_voluntary_kingdom),
        ] {
            self.people_keys(&format!("nation_facts.{k}"), list, names)?;
        }
        let religions = self.religions(rb, names)?;
        let mut out = Vec::new();
        for (i, n) in rb.nations.rows.iter().enumerate() {
            if !GROUPS.contains(&n.group.as_str()) {
                let field = format!("nations.rows[{i}].group");
                return Err(bad(self.rb, field, &n.group, GROUPS.join(", ")));
            }
            let barbarian = !matches!(n.group.as_str(), "roman" | "other");
            out.push(People {
                key: n.key.clone(),
                latin: n.latin.clone(),
                group: n.group.clone(),
                minor_kingdom: n.minor_kingdom || minor.contains(&i),
                inactive: inactive.contains(&i),
                religion: religions[i].unwrap_or(if barbarian {
                    Religion::Pagan
                } else {
                    Religion::Unstated
                }),
            });
        }
        Ok(out)
    }

    fn religions(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<Option<Religion>>> {
        let r = &rb.religion;
        if r.other_barbarians != "pagan" {
            return Err(bad(
                self.rb,
                "religion.other_barbarians",
                &r.other_barbarians,
                "\"pagan\"",
            ));
        }
        let mut out = vec![None; rb.nations.rows.len()];
        for (k, list, religion) in [
            ("catholic", &r.catholic, Religion::Catholic),
            ("mazdean", &r.mazdean, Religion::Mazdean),
            ("arian", &r.arian, Religion::Arian),
        ] {
            for p in self.people_keys(&format!("religion.{k}"), list, names)? {
                out[p] = Some(religion);
            }
        }
        Ok(out)
    }
}

/// A printed income (½ steps) in halves.
fn halves(file: &str, field: &str, x: f64) -> Result<u8> {
    let h = x * 2.0;
    if h.fract() == 0.0 && (0.0..=40.0).contains(&h) {
        Ok(h as u8)
    } else {
        let allowed = "a multiple of 0.5 from 0 to 20";
        Err(AleaError::input(file, field, x, allowed))
    }
}

// ---- The abstraction -------------------------------------------------------------------------------

impl<'f> Loader<'f> {
    fn area_graph(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
        rivers: &[River],
        areas: &mut [Area],
    ) -> Result<()> {
        let g = &ab.area_graph;
        self.stand_in("area_graph", &g.provenance, &g.why)?;
        for (i, l) in g.links.iter().enumerate() {
            let (a, link) = self.area_link(i, l, names, rivers)?;
            let b = link.to;
            if a == b || areas[a as usize].links.iter().any(|x| x.to == b) {
                let value = format!("{} - {}", l.a, l.b);
                let field = format!("area_graph.links[{i}]");
                return Err(bad(
                    self.ab,
                    field,
                    &value,
                    "two different Areas, linked once",
                ));
            }
            areas[a as usize].links.push(link);
            areas[b as usize].links.push(AreaLink { to: a, ..link });
        }
        Ok(())
    }

    /// Area `a` and its link to `b`.
    fn area_link(
        &self,
        i: usize,
        l: &LinkRow,
        names: &Names,
        rivers: &[River],
    ) -> Result<(AreaId, AreaLink)> {
        let f = |k: &str| format!("area_graph.links[{i}].{k}");
        let a = names.areas.get(self.ab, f("a"), &l.a)? as AreaId;
        let b = names.areas.get(self.ab, f("b"), &l.b)? as AreaId;
        let crossing = match l.kind.as_str() {
            "land" => Crossing::Land,
            "strait" => Crossing::Strait,
            other => return Err(bad(self.ab, f("kind"), other, "\"land\" or \"strait\"")),
        };
        if let Some(r) = &l.river {
            let drains = |river: &River| river.areas.contains(&a) && river.areas.contains(&b);
            if !rivers.iter().any(|river| river.name == *r && drains(river)) {
                let allowed = "a river of rulebook.toml [rivers] that drains both Areas";
                return Err(bad(self.ab, f("river"), r, allowed));
            }
        }
        let link = AreaLink {
            to: b,
            crossing,
            river: l.river.is_some(),
            mountains: l.mountains,
        };
        Ok((a, link))
    }

    fn boxes(
        &self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
    ) -> Result<Vec<OffMapBox>> {
        let links = &ab.area_graph.boxes;
        let mut out = Vec::new();
        for (i, b) in rb.boxes.iter().enumerate() {
            if !["barbarian", "civilized"].contains(&b.listed_under.as_str()) {
                let field = format!("box[{i}].listed_under");
                return Err(bad(
                    self.rb,
                    field,
                    &b.listed_under,
                    "\"barbarian\" or \"civilized\"",
                ));
            }
            let Some(link) = links.iter().find(|l| l.name == b.name) else {
                let allowed = "a box given its Area in area_graph.boxes";
                return Err(bad(self.ab, "area_graph.boxes", &b.name, allowed));
            };
            out.push(OffMapBox {
                name: b.name.clone(),
                bonus: b.bonus.unwrap_or(0),
                area: names.areas.get(self.ab, "area_graph.boxes", &link.area)? as AreaId,
            });
        }
        if let Some(l) = links
            .iter()
            .find(|l| !rb.boxes.iter().any(|b| b.name == l.name))
        {
            return Err(bad(
                self.ab,
                "area_graph.boxes",
                &l.name,
                "an off-map box of [[box]]",
            ));
        }
        Ok(out)
    }

    fn sea_graph(&mut self, ab: &AbstractionFile, names: &Names, seas: &mut [Sea]) -> Result<()> {
        let g = &ab.sea_graph;
        self.stand_in("sea_graph", &g.provenance, &g.why)?;
        for (i, [a, b]) in g.links.iter().enumerate() {
            let field = format!("sea_graph.links[{i}]");
            let x = names.seas.get(self.ab, &field, a)? as SeaId;
            let y = names.seas.get(self.ab, &field, b)? as SeaId;
            if x == y || seas[x as usize].links.contains(&y) {
                let allowed = "two different sea zones, linked once";
                return Err(bad(self.ab, field, &format!("{a} - {b}"), allowed));
            }
            seas[x as usize].links.push(y);
            seas[y as usize].links.push(x);
        }
        Ok(())
    }

    fn time_track(&mut self, ab: &AbstractionFile, turns: u8) -> Result<()> {
        let t = &ab.time_track;
        self.stand_in("time_track", &t.provenance, &t.why)?;
        for (k, v, zero_ok) in [
            ("attila_death_turn", t.attila_death_turn, false),
            ("islam_turn", t.islam_turn, true),
            ("theodosian_walls_turn", t.theodosian_walls_turn, false),
        ] {
            if !(v <= turns && (zero_ok || v > 0)) {
                let allowed = format!(
                    "a turn 1..{turns}{}",
                    if zero_ok { " or 0 (never)" } else { "" }
                );
                return Err(AleaError::input(
                    self.ab,
                    format!("time_track.{k}"),
                    v,
                    allowed,
                ));
            }
        }
        Ok(())
    }

    fn nations(
        &mut self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
        peoples: &[People],
        areas: &[Area],
        provinces: &[Province],
    ) -> Result<Vec<Nation>> {
        let entry = &ab.entry;
        self.stand_in("entry", &entry.provenance, &entry.why)?;
        let mut nations = Vec::new();
        for (i, row) in entry.rows.iter().enumerate() {
            let field = format!("entry.rows[{i}]");
            self.row_stand_in(&field, &row.nation, &row.provenance, &row.why)?;
            // Per-player and per-nation columns share one name pattern (vp_<source>_<key>).
            if rb
                .scenario
                .players
                .iter()
                .any(|p| p.eq_ignore_ascii_case(&row.nation))
            {
                let allowed = "a key that is not also a player's name";
                return Err(bad(
                    self.ab,
                    format!("{field}.nation"),
                    &row.nation,
                    allowed,
                ));
            }
            nations.push(self.entry(i, row, rb.scenario.turns, names, peoples, provinces)?);
        }
        let keys = Index::new(
            self.ab,
            "a nation of [entry]",
            entry.rows.iter().map(|r| r.nation.as_str()),
            |i| format!("entry.rows[{i}].nation"),
        )?;
        self.assignment(ab, &rb.scenario.players, &keys, &mut nations)?;
        self.start(ab, &keys, names, areas, &mut nations)?;
        self.forces(ab, &keys, peoples, &mut nations)?;
        self.objectives(ab, &keys, names, &mut nations)?;
        Ok(nations)
    }

    fn entry(
        &self,
        i: usize,
        row: &EntryRow,
        turns: u8,
        names: &Names,
        peoples: &[People],
        provinces: &[Province],
    ) -> Result<Nation> {
        let f = |k: &str| format!("entry.rows[{i}].{k}");
        let (people_field, people_key) = match &row.people {
            Some(p) => (f("people"), p),
            None => (f("nation"), &row.nation),
        };
        let people = names.peoples.get(self.ab, people_field, people_key)?;
        let mut raids = 0u16;
        for &t in &row.raids {
            raids |= 1 << turn(self.ab, f("raids"), t, turns)?;
        }
        let active_from = match row.active_from {
            0 => 0,
            t => turn(self.ab, f("active_from"), t, turns)?,
        };
        let nation = Nation {
            key: row.nation.clone(),
            people: people as u8,
            player: 0,
            entry_turn: turn(self.ab, f("turn"), row.turn, turns)?,
            status: status(self.ab, f("status"), &row.status)?,
            nomad: peoples[people].group == "nomad",
            capital: self.capital(&f("capital"), &row.capital, names, provinces)?,
            horde: self.optional_province(&f("horde"), &row.horde, names)?,
            raids,
            active_from,
            treasury: 0,
            units: Vec::new(),
            controls: Vec::new(),
            objectives: Vec::new(),
        };
        self.check_home(i, row, &nation, &peoples[people])?;
        Ok(nation)
    }

    fn optional_province(
        &self,
        field: &str,
        name: &Option<String>,
        names: &Names,
    ) -> Result<Option<ProvinceId>> {
        let Some(name) = name else { return Ok(None) };
        Ok(Some(
            names.provinces.get(self.ab, field, name)? as ProvinceId
        ))
    }

    /// A capital is a province with a city, not a site.
    fn capital(
        &self,
        field: &str,
        name: &Option<String>,
        names: &Names,
        provinces: &[Province],
    ) -> Result<Option<ProvinceId>> {
        let capital = self.optional_province(field, name, names)?;
        match capital.map(|c| &provinces[c as usize]) {
            Some(p) if p.city.as_ref().is_none_or(|c| c.level == 0) => {
                let allowed = "a province with a city (level 1-3)";
                Err(bad(self.ab, field, &p.name, allowed))
            }
            _ => Ok(capital),
        }
    }

    /// A Civilized nation needs a capital unless it is a minor or inactive kingdom; an active
    /// Barbarian needs a horde, a raider only once it settles.
    fn check_home(&self, i: usize, row: &EntryRow, n: &Nation, people: &People) -> Result<()> {
        let optional = people.minor_kingdom || people.inactive;
        let civilized = n.status != Status::Barbarian;
        let raider = n.raids != 0;
        let (key, value, allowed) = if !civilized && n.capital.is_some() {
            ("capital", shown(&row.capital), "no capital for a Barbarian")
        } else if !civilized && !raider && n.horde.is_none() {
            (
                "horde",
                shown(&row.horde),
                "a horde province for an active Barbarian",
            )
        } else if raider && n.horde.is_some() != (n.active_from > 0) {
            let value = n.active_from.to_string();
            (
                "active_from",
                value,
                "a turn when, and only when, a raider has a horde",
            )
        } else if civilized && n.horde.is_some() {
            (
                "horde",
                shown(&row.horde),
                "no horde for a Kingdom or Empire",
            )
        } else if civilized && n.capital.is_none() && !optional {
            let allowed = "a capital for a Kingdom or Empire that is not minor or inactive";
            ("capital", shown(&row.capital), allowed)
        } else {
            return Ok(());
        };
        Err(AleaError::input(
            self.ab,
            format!("entry.rows[{i}].{key}"),
            value,
            allowed,
        ))
    }

    fn assignment(
        &mut self,
        ab: &AbstractionFile,
        players: &[String],
        keys: &Index,
        nations: &mut [Nation],
    ) -> Result<()> {
        let a = &ab.assignment;
        self.stand_in("assignment", &a.provenance, &a.why)?;
        let mut assigned = vec![false; nations.len()];
        for (player, list) in &a.players {
            let field = format!("assignment.{player}");
            let Some(p) = players.iter().position(|x| x == player) else {
                let allowed = format!("one of the players {}", players.join(", "));
                return Err(bad(self.ab, field, player, allowed));
            };
            for key in list {
                let n = keys.get(self.ab, &field, key)?;
                if std::mem::replace(&mut assigned[n], true) {
                    return Err(bad(
                        self.ab,
                        field,
                        key,
                        "a nation given to one player only",
                    ));
                }
                nations[n].player = p as PlayerId;
            }
        }
        match assigned.iter().position(|&a| !a) {
            Some(n) => Err(bad(
                self.ab,
                "assignment",
                &nations[n].key,
                "every nation given a player",
            )),
            None => Ok(()),
        }
    }

    fn start(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        names: &Names,
        areas: &[Area],
        nations: &mut [Nation],
    ) -> Result<()> {
        let s = &ab.start;
        self.stand_in("start", &s.provenance, &s.why)?;
        let mut holder: HashMap<ProvinceId, usize> = HashMap::new();
        for (i, row) in s.rows.iter().enumerate() {
            let field = format!("start.rows[{i}]");
            self.row_stand_in(&field, &row.nation, &row.provenance, &row.why)?;
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            for name in &row.controls {
                let f = format!("{field}.controls");
                for p in self.area_or_province(&f, name, names, areas)? {
                    if holder.insert(p, n).is_some() {
                        return Err(bad(self.ab, f, name, "provinces held by one nation only"));
                    }
                    nations[n].controls.push(p);
                }
            }
            let first = nations[n].entry_turn == 1;
            if let Some(c) = nations[n]
                .capital
                .filter(|c| first && !nations[n].controls.contains(c))
            {
                let allowed = "a capital among the provinces the nation controls";
                return Err(bad(
                    self.ab,
                    format!("{field}.controls"),
                    names.provinces.names[c as usize],
                    allowed,
                ));
            }
        }
        Ok(())
    }

    /// An Area or a province, by name.
    fn target(&self, field: &str, name: &str, names: &Names) -> Result<Target> {
        if let Some(&a) = names.areas.map.get(name) {
            return Ok(Target::Area(a as AreaId));
        }
        match names.provinces.map.get(name) {
            Some(&p) => Ok(Target::Province(p as ProvinceId)),
            None => Err(bad(
                self.ab,
                field,
                name,
                "an Area or a province of rulebook.toml",
            )),
        }
    }

    /// An Area's counting provinces, or one province.
    fn area_or_province(
        &self,
        field: &str,
        name: &str,
        names: &Names,
        areas: &[Area],
    ) -> Result<Vec<ProvinceId>> {
        Ok(match self.target(field, name, names)? {
            Target::Area(a) => areas[a as usize].provinces.clone(),
            Target::Province(p) => vec![p],
        })
    }

    fn forces(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        peoples: &[People],
        nations: &mut [Nation],
    ) -> Result<()> {
        let f = &ab.forces;
        self.stand_in("forces", &f.provenance, &f.why)?;
        for n in nations.iter_mut() {
            let people = &peoples[n.people as usize];
            let force = match n.status {
                _ if n.raids != 0 => &f.raider,
                Status::Empire => &f.empire,
                Status::Kingdom if people.minor_kingdom || people.inactive => &f.minor_kingdom,
                Status::Kingdom => &f.kingdom,
                Status::Barbarian if n.nomad => &f.nomad,
                Status::Barbarian => &f.barbarian,
            };
            n.treasury = force.treasury;
            n.units = self.units("forces", &force.units)?;
        }
        for (i, row) in f.rows.iter().enumerate() {
            let field = format!("forces.rows[{i}]");
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            nations[n].treasury = row.treasury;
            nations[n].units = self.units(&format!("{field}.units"), &row.units)?;
        }
        Ok(())
    }

    fn units(&self, field: &str, units: &BTreeMap<String, u8>) -> Result<Vec<(u8, u8)>> {
        let mut out = Vec::new();
        for (name, &count) in units {
            let Some(t) = TEMPLATES.iter().position(|t| t.name == name) else {
                let known: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
                return Err(bad(
                    self.ab,
                    field,
                    name,
                    format!("a unit type: {}", known.join(", ")),
                ));
            };
            out.push((t as u8, count));
        }
        Ok(out)
    }

    fn objectives(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        names: &Names,
        nations: &mut [Nation],
    ) -> Result<()> {
        let o = &ab.objectives;
        self.stand_in("objectives", &o.provenance, &o.why)?;
        for (i, row) in o.rows.iter().enumerate() {
            let field = format!("objectives.rows[{i}]");
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            let target = self.target(&format!("{field}.target"), &row.target, names)?;
            nations[n].objectives.push(Objective { target, vp: row.vp });
        }
        Ok(())
    }

    fn administration(&mut self, ab: &AbstractionFile) -> Result<(SetCosts, SetCosts)> {
        let a = &ab.administration;
        self.stand_in("administration", &a.provenance, &a.why)?;
        let (kingdom, empire) = (set_row(&a.kingdom), set_row(&a.empire));
        for (i, k) in a.known.iter().enumerate() {
            self.known_cost(i, k, &kingdom, &empire)?;
        }
        if a.effects != "null" {
            let allowed = "\"null\" (the only model so far)";
            return Err(bad(self.ab, "administration.effects", &a.effects, allowed));
        }
        Ok((kingdom, empire))
    }

    /// A cost one of the text's examples fixes must be the one the table gives.
    fn known_cost(
        &mut self,
        i: usize,
        k: &KnownCost,
        kingdom: &SetCosts,
        empire: &SetCosts,
    ) -> Result<()> {
        let field = format!("administration.known[{i}]");
        let subject = format!("{} {}", k.status, k.set);
        self.row_stand_in(&field, &subject, &Some(k.provenance.clone()), &k.why)?;
        let table = match k.status.as_str() {
            "kingdom" => kingdom,
            "empire" => empire,
            other => {
                return Err(bad(
                    self.ab,
                    format!("{field}.status"),
                    other,
                    "kingdom or empire",
                ))
            }
        };
        let Some(set) = SETS.iter().position(|s| *s == k.set) else {
            return Err(bad(
                self.ab,
                format!("{field}.set"),
                &k.set,
                SETS.join(", "),
            ));
        };
        if table[set] != k.cost {
            let allowed = format!("the cost the table above gives ({})", table[set]);
            return Err(AleaError::input(
                self.ab,
                format!("{field}.cost"),
                k.cost,
                allowed,
            ));
        }
        Ok(())
    }

    /// The events model: "null" (no card acts) or "revolts" (a card starts a revolt with
    /// `revolt_chance`); returns that chance (0 under the null model).
    fn events(&mut self, ab: &AbstractionFile) -> Result<f64> {
        let e = &ab.events;
        self.stand_in("events", &e.provenance, &e.why)?;
        let allowed = "a probability 0..1 (the chance a player's event card starts a revolt)";
        match (e.model.as_str(), e.revolt_chance) {
            ("null", None) => Ok(0.0),
            ("null", Some(c)) => Err(bad(
                self.ab,
                "events.revolt_chance",
                &c.to_string(),
                "nothing with model = \"null\" (no card acts); model = \"revolts\" uses it",
            )),
            ("revolts", Some(c)) if (0.0..=1.0).contains(&c) => Ok(c),
            ("revolts", Some(c)) => Err(bad(
                self.ab,
                "events.revolt_chance",
                &c.to_string(),
                allowed,
            )),
            ("revolts", None) => Err(bad(self.ab, "events.revolt_chance", "nothing", allowed)),
            (other, _) => Err(bad(
                self.ab,
                "events.model",
                other,
                "\"null\" (no card acts) or \"revolts\" (cards start revolts at revolt_chance)",
            )),
        }
    }
}

/// A turn of the game, 1..=turns.
fn turn(file: &str, field: String, t: u8, turns: u8) -> Result<u8> {
    if (1..=turns).contains(&t) {
        Ok(t)
    } else {
        Err(AleaError::input(
            file,
            field,
            t,
            format!("a turn 1..{turns}"),
        ))
    }
}

fn status(file: &str, field: String, text: &str) -> Result<Status> {
    let found = STATUSES.iter().find(|(n, _)| *n == text).map(|&(_, s)| s);
    found.ok_or_else(|| bad(file, field, text, "barbarian, kingdom or empire"))
}

/// An optional name as an error message shows it.
fn shown(name: &Option<String>) -> String {
    name.as_ref()
        .map_or("nothing".to_string(), |n| format!("\"{n}\""))
}

/// A row keyed by Administration set, in the order of `SETS`.
fn set_row(r: &SetCostsRow) -> [u8; 3] {
    [r.passive, r.military, r.reform]
}
