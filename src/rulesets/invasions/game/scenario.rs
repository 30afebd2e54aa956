//! Scenario I (350 AD) of Invasions: `rulebook.toml` (every printed fact) and `abstraction.toml` (the
//! Area-level stand-ins for the missing components, digest §5.4, §6.2, §6.3), read, checked and turned
//! into flat tables indexed by small integers, ready for a game engine.
//!
//! Names in the files (Areas, provinces, sea zones, nation keys) become indices here; nothing downstream
//! compares strings. Every value of the abstraction keeps its provenance so a run can say which results
//! rest on placeholders (`Scenario::stand_ins`).

use super::files::{AbstractionFile, RulebookFile};
use super::load::Loader;
use crate::error::Result;
use crate::game::provenance;
pub use crate::game::provenance::{Provenance, StandIn};
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::land::Terrain;
use std::path::Path;

pub type AreaId = u8;
pub type ProvinceId = u16;
pub type SeaId = u8;
pub type NationId = u8;
pub type PlayerId = u8;

/// Where the bundled files live, as error messages name them.
pub const BUNDLED_DIR: &str = "scenarios/invasions/scenario-1";
pub(super) const RULEBOOK: &str = "rulebook.toml";
pub(super) const ABSTRACTION: &str = "abstraction.toml";
/// A nation's Areas are kept as the bits of a u64 (`state.rs`).
pub const MAX_AREAS: usize = 64;
/// An Area's provinces are kept as the bits of a u64 (the holdings index, `state.rs`).
pub const MAX_AREA_PROVINCES: usize = 64;

/// In the order of `Terrain::NAMES`.
pub(super) const TERRAINS: [Terrain; 6] = [
    Terrain::Plain,
    Terrain::Steppe,
    Terrain::Desert,
    Terrain::Forest,
    Terrain::Mountain,
    Terrain::Swamp,
];
/// Map symbols the text shows without saying what they mean ("lost": a glyph lost in extraction).
pub(super) const MARKS: [&str; 5] = [
    "leaf",
    "dragon",
    "camel",
    "camel-removed-by-extension",
    "lost",
];
pub(super) const STATUSES: [(&str, Status); 3] = [
    ("barbarian", Status::Barbarian),
    ("kingdom", Status::Kingdom),
    ("empire", Status::Empire),
];

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
    /// A strait's sea zone (`abstraction.toml [straits]`): enemy naval stacks there may blockade it
    /// (XXV.F). `None` for land borders and straits given no zone.
    pub sea: Option<SeaId>,
}

impl AreaLink {
    /// The sea zone where naval stacks may blockade this border (XXV.F): a strait's, given one.
    pub fn blockade_zone(&self) -> Option<usize> {
        self.sea
            .filter(|_| self.crossing == Crossing::Strait)
            .map(usize::from)
    }
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
    /// Oriens and Aegyptus (an Area's religion, never a nation's at start).
    Monophysite,
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
    /// Fleets it brings on entering: (sea zone, fleets), one naval stack a zone.
    pub fleets: Vec<(SeaId, u8)>,
}

/// The three Administration sets, in the order of `SetCosts`.
pub const SETS: [&str; 3] = ["passive", "military", "reform"];
/// Gold each set costs, in the order of `SETS`.
pub type SetCosts = [u8; 3];

pub struct Scenario {
    pub title: String,
    pub year: u16,
    pub turns: u8,
    pub turns_with_islam: u8,
    pub scoring_turns: Vec<u8>,
    pub roman_split_turn: u8,
    pub limes_last_turn: u8,
    /// Provinces with a Roman Limes (abstraction.toml `[limes]`, a placeholder).
    pub limes: Vec<ProvinceId>,
    /// The local units (unit type, count) each Limes still standing becomes in the Purchases
    /// after the last Limes turn (abstraction.toml `[limes]` local_units, a placeholder for Roman
    /// aid P and Byzantine aid R); empty: none.
    pub limes_local_units: Vec<(u8, u8)>,
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
    /// The chance that a player's event card brings a heresy to an Area (abstraction.toml
    /// `[events]` heresy_chance; 0 when absent or under the null model).
    pub heresy_chance: f64,
    /// The chances that a player's event card is the *Alliance* or the *Barbarian Coalition*
    /// event (abstraction.toml `[events]` alliance_chance, coalition_chance; 0 when absent).
    pub alliance_chance: f64,
    pub coalition_chance: f64,
    pub revolt_areas: [[AreaId; 10]; 2],
    /// abstraction.toml `[objective_balance]`: a factor per player on its nations' objective VP,
    /// applied by [`Scenario::choose_objective_values`] when an experiment asks for it.
    pub objective_balance: Option<Vec<f64>>,
    /// abstraction.toml `[leaders]` (a placeholder: the Time Track's leaders are not in the text).
    pub leaders: super::leaders::Leaders,
    /// abstraction.toml `[religion]` (religion.rs): each Area's religion, and the nations whose
    /// card lists the conversion bonus (XXXI.B).
    pub area_religion: Vec<Religion>,
    pub conversion_bonus: Vec<bool>,
    /// abstraction.toml `[calamities]` (calamities.rs; a placeholder).
    pub calamities: super::calamities::Calamities,
    pub(super) stand_ins: Vec<StandIn>,
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
        Scenario::parse(
            &rulebook.display().to_string(),
            &provenance::read(rulebook)?,
            &abstraction.display().to_string(),
            &provenance::read(abstraction)?,
        )
    }

    pub fn parse(rb_name: &str, rb_text: &str, ab_name: &str, ab_text: &str) -> Result<Scenario> {
        let (rb, ab): (RulebookFile, AbstractionFile) =
            provenance::parse_pair(rb_name, rb_text, ab_name, ab_text)?;
        Loader {
            rb: rb_name,
            ab: ab_name,
            stand_ins: Vec::new(),
        }
        .build(&rb, &ab)
    }

    /// Every value of the abstraction that is assumed or a placeholder, placeholders first.
    pub fn stand_ins(&self) -> Vec<&StandIn> {
        provenance::sorted(&self.stand_ins)
    }

    /// One line per stand-in, for a run's report.
    pub fn stand_in_summary(&self) -> String {
        provenance::summary(&self.stand_ins)
    }

    /// The objectives' VP as written (`balanced` false: the `[objective_balance]` table, unused,
    /// leaves the stand-in summary) or times each player's factor, rounded to the nearest whole VP
    /// and at least 1. False when `balanced` is asked and the scenario has no such table.
    pub fn choose_objective_values(&mut self, balanced: bool) -> bool {
        let Some(factors) = self.objective_balance.clone().filter(|_| balanced) else {
            self.stand_ins.retain(|s| s.field != "objective_balance");
            return !balanced;
        };
        for n in self.nations.iter_mut() {
            let f = factors[n.player as usize];
            for o in n.objectives.iter_mut() {
                o.vp = ((o.vp as f64 * f).round() as u16).max(1);
            }
        }
        true
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
