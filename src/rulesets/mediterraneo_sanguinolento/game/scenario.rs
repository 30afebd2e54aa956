//! The full game's scenario: `rulebook.toml` (the 160 countries and 296 cities as printed, the cultural
//! groups, the special rules, the city treasures; digest §5) and `abstraction.toml` (the region graph of
//! digest §6.2 and the country-sheet data the text lacks), read, checked and turned into flat tables
//! indexed by small integers.
//!
//! Names become indices here; nothing downstream compares strings. Every stand-in of the abstraction
//! keeps its provenance so a run can say which results rest on placeholders (`Scenario::stand_ins`).

use super::files::{AbstractionFile, RulebookFile};
use super::load::Loader;
use crate::error::Result;
use crate::game::provenance;
pub use crate::game::provenance::{Provenance, StandIn};
use crate::rulesets::mediterraneo_sanguinolento::army::{Culture, LeaderKind};
pub use crate::rulesets::mediterraneo_sanguinolento::data::Fleet;
use std::ops::Range;
use std::path::Path;

pub type CountryId = u8;
pub type CityId = u16;

pub const BUNDLED_DIR: &str = "scenarios/mediterraneo-sanguinolento/game";
pub(super) const RULEBOOK: &str = "rulebook.toml";
const ABSTRACTION: &str = "abstraction.toml";

/// The resources of the game (digest §4.1), in the order of `Resources`.
pub const RESOURCES: [&str; 11] = [
    "pob", "den", "com", "met", "mad", "pie", "cab", "cam", "ele", "esc", "man",
];
pub const POB: usize = 0;
pub const DEN: usize = 1;
pub const COM: usize = 2;
pub const MET: usize = 3;
pub const MAD: usize = 4;
pub const PIE: usize = 5;
pub const CAB: usize = 6;
pub const CAM: usize = 7;
pub const ELE: usize = 8;
pub const ESC: usize = 9;
pub const MAN: usize = 10;
pub type Resources = [u32; 11];

/// The culture codes as the country list prints them, in the order of `Culture`'s use here.
pub(super) const CULTURES: [(&str, Culture); 3] = [
    ("B", Culture::Barbarian),
    ("B/C", Culture::Mixed),
    ("C", Culture::Civilized),
];

/// The index into `CULTURES` of a culture (every culture has one).
pub(super) fn culture_index(culture: Culture) -> usize {
    CULTURES
        .iter()
        .position(|(_, c)| *c == culture)
        .unwrap_or(0)
}
pub const SEAS: [&str; 6] = [
    "atlantic",
    "mediterranean",
    "black",
    "red",
    "caspian",
    "indian",
];
pub const ZONES: [&str; 5] = ["A", "B", "C", "D", "E"];
/// The strait penalties the movement rules know (digest §4.12), 0 = a land border.
pub(super) const STRAITS: [u32; 4] = [0, 4, 5, 8];
/// The procedure rules `special_rules.flags` may name, with the keys of the numbers each must give.
pub const RULE_FLAGS: [(&str, &[&str]); 13] = [
    ("must_keep_base_legion", &[]),
    ("echelon_tactic", &[]),
    ("oblique_advance_tactic", &[]),
    ("wedge_tactic", &[]),
    ("italic_camps", &["fortification", "unmoved_fortification"]),
    ("roman_assault", &["assaulters_share", "wall_levels"]),
    (
        "thermopylae",
        &["min_ipf_units", "per_year", "overwhelm_ratio"],
    ),
    ("praetorian_guard", &[]),
    (
        "spqr_and_republican_militia",
        &[
            "leader_tactical",
            "leader_strategic",
            "militia_units",
            "militia_men_recovered_per_month",
        ],
    ),
    ("roman_eagles", &["pv_per_month"]),
    ("seleucid_satrapies", &[]),
    ("hindu_hostility_to_seleucids", &[]),
    (
        "elephant_camel_zones",
        &[
            "safe_up_to_zone",
            "losing_zone",
            "deadly_from_zone",
            "loss_dice",
            "loss_die_sides",
        ],
    ),
];

/// A set of countries, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountrySet([u64; 3]);

impl CountrySet {
    pub fn insert(&mut self, c: CountryId) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }
    pub fn contains(&self, c: CountryId) -> bool {
        self.0[c as usize / 64] & (1 << (c % 64)) != 0
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn union(self, other: CountrySet) -> CountrySet {
        CountrySet([0, 1, 2].map(|i| self.0[i] | other.0[i]))
    }
}

/// The battle code's nation flags (army.rs `NATIONS`), as sets of countries.
#[derive(Clone, Copy, Debug, Default)]
pub struct NationFlags {
    pub roman: CountrySet,
    pub italic: CountrySet,
    pub hispanic: CountrySet,
    pub greek: CountrySet,
    pub carthaginian: CountrySet,
    pub seleucid: CountrySet,
}

impl NationFlags {
    /// The set of a flag named as in `NATIONS`.
    pub fn get(&self, flag: &str) -> Option<CountrySet> {
        Some(match flag {
            "roman" => self.roman,
            "italic" => self.italic,
            "hispanic" => self.hispanic,
            "greek" => self.greek,
            "carthaginian" => self.carthaginian,
            "seleucid" => self.seleucid,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct Country {
    /// The printed number, 1-160.
    pub number: u16,
    pub name: String,
    pub culture: Culture,
    /// Index into `Scenario::groups`; None for the countries no group lists (the four Tribus).
    pub group: Option<u8>,
    /// Rulebook when the culture table lists the country, Assumed when the group is a reading.
    pub group_provenance: Provenance,
    pub cities: Range<CityId>,
    /// Its line in the rulebook.
    pub line: u32,
    /// Where the printed row needed reading (a missing comma, an odd space).
    pub note: Option<String>,
}

#[derive(Clone, Debug)]
pub struct City {
    pub name: String,
    pub country: CountryId,
    /// DEN to whoever sacks it first (0 = none, digest §5.5).
    pub treasure: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub to: CountryId,
    pub hexes: u16,
    /// Extra PM to cross (0 = a land border).
    pub strait: u8,
    pub sea: bool,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub lat: f64,
    pub lon: f64,
    /// Index into the battle code's hex terrains (battle-terrain.toml).
    pub terrain: u8,
    /// Climatic zone 0-4 = A-E.
    pub zone: u8,
    /// Bit s: touches `SEAS[s]`.
    pub seas: u8,
}

#[derive(Clone, Copy, Debug)]
pub struct Sacred {
    pub city: CityId,
    pub pv: i32,
    pub losers: CountrySet,
}

#[derive(Clone, Copy, Debug)]
pub struct PopulationMorale {
    pub country: CountryId,
    /// True for POB from the capital city (the country's first listed city), else the rest.
    pub from_capital: bool,
    pub share: f64,
    /// 0 = A … 3 = D.
    pub morale: u8,
    pub cost_as: u8,
}

#[derive(Clone, Debug)]
pub struct SpecialRules {
    pub falcata: (f64, CountrySet),
    pub pilum: (f64, CountrySet),
    pub corvus: (f64, CountrySet),
    pub greek_fortification: (u8, CountrySet),
    pub merchant_call: (u32, CountrySet),
    pub forced_march_roman_iml: u8,
    pub forced_march_italic_iml: u8,
    pub sacred: Vec<Sacred>,
    pub population_morale: Vec<PopulationMorale>,
    /// The rules of `RULE_FLAGS` the file names, with the countries they apply to.
    pub flags: Vec<RuleFlag>,
}

#[derive(Clone, Debug)]
pub struct RuleFlag {
    pub rule: &'static str,
    pub who: CountrySet,
    /// In the order of the rule's keys in `RULE_FLAGS`.
    pub numbers: Vec<f64>,
}

impl SpecialRules {
    pub fn flag(&self, rule: &str) -> Option<&RuleFlag> {
        self.flags.iter().find(|f| f.rule == rule)
    }

    /// A number of a procedure rule, by its key in `RULE_FLAGS`.
    pub fn number(&self, rule: &str, key: &str) -> Option<f64> {
        let flag = self.flag(rule)?;
        let (_, keys) = RULE_FLAGS.iter().find(|(r, _)| *r == rule)?;
        let i = keys.iter().position(|k| *k == key)?;
        flag.numbers.get(i).copied()
    }
}

#[derive(Clone, Debug)]
pub struct Treasure {
    /// As the treasure list prints it.
    pub printed: String,
    pub den: u32,
    /// None for a name that is no listed city (Gaugamela).
    pub city: Option<CityId>,
    pub line: u32,
    /// Where the owner is a reading (two cities of the name).
    pub note: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartUnit {
    /// Index into the battle code's land units (`data().units`).
    pub unit: u8,
    pub count: u32,
    pub morale: u8,
    pub regular: bool,
}

#[derive(Clone, Debug)]
pub struct Start {
    pub treasury: u32,
    /// Fleets of the scenario's [`Scenario::fleet`] type (coastal countries with cities only).
    pub fleets: u32,
    pub stock: Resources,
    pub fortification: u8,
    pub units: Vec<StartUnit>,
}

#[derive(Clone, Copy, Debug)]
pub struct Calendar {
    pub months_per_turn: u8,
    /// Bit m (1-12): a winter month / a collection month.
    pub winter: u16,
    pub collection: u16,
    pub victory_pv: u32,
    pub no_player_attacks_on_turn: u32,
    /// The text's own count of cities (it lists 296; ambiguity A61).
    pub printed_city_total: u32,
}

/// The leaders the country sheets would give (abstraction.toml `[leaders]`).
#[derive(Clone, Copy, Debug)]
pub struct LeadersData {
    /// Each country's king by culture (index of `CULTURES`): tactical, strategic, class.
    pub king: [(u8, u8, LeaderKind); 3],
    /// The class of leaders found by searches and events or promoted from unnamed.
    pub found_kind: LeaderKind,
}

pub struct Scenario {
    pub calendar: Calendar,
    pub countries: Vec<Country>,
    pub cities: Vec<City>,
    pub groups: Vec<String>,
    pub nations: NationFlags,
    pub special: SpecialRules,
    pub treasures: Vec<Treasure>,
    /// COM foraged per hex for 2 extra PM (rulebook.toml `[forage]`, L2092-L2106), by battle-code
    /// hex terrain (`Node::terrain`).
    pub forage: Vec<u32>,
    /// Indexed by country.
    pub nodes: Vec<Node>,
    pub(super) link_start: Vec<u32>,
    pub(super) links: Vec<Link>,
    pub majors: Vec<CountryId>,
    /// Per country, per collection.
    pub production: Vec<Resources>,
    /// What one listed city yields per collection (abstraction.toml `[production] city`; its DEN
    /// is what a sacked city without a treasure doubles, L4434).
    pub city_yield: Resources,
    pub start: Vec<Start>,
    /// The fleet type of every country's fleets (None: no fleets, nobody crosses the sea).
    pub fleet: Option<&'static Fleet>,
    pub leaders: LeadersData,
    /// Per culture (index of `CULTURES`): the commercial importance multiplier of its cities
    /// (A 3, B 2, C 1; abstraction.toml `[trade]`).
    pub importance: [u8; 3],
    /// The ports' importance and the merchant ships' coastal legs (abstraction.toml
    /// `[sea_trade]`; `sea_trade.rs`).
    pub sea_trade: super::sea_trade::SeaTradeData,
    /// The region-graph reading of interception's range and spies' travel (abstraction.toml
    /// `[intrigue]`).
    pub intrigue: IntrigueData,
    /// The referee's mercenary table (abstraction.toml `[mercenaries]`).
    pub mercenaries: super::mercenaries::MercenaryData,
    /// The trade routes (abstraction.toml `[trade_routes]`, assumed; digest §4.9).
    pub routes: Vec<super::routes::Route>,
    pub(super) stand_ins: Vec<StandIn>,
}

/// abstraction.toml `[intrigue]`, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntrigueData {
    pub range_hexes: u16,
    pub same_node_distance: u16,
    pub sea_lane_months: u32,
}

impl Scenario {
    /// The files shipped in `scenarios/mediterraneo-sanguinolento/game/`.
    pub fn bundled() -> Result<Scenario> {
        let rulebook = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/mediterraneo-sanguinolento/game/rulebook.toml"
        ));
        let abstraction = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/mediterraneo-sanguinolento/game/abstraction.toml"
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

    /// The two files named separately (a user's own abstraction beside the shipped rulebook, say).
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
        Loader::new(rb_name, ab_name).build(&rb, &ab)
    }

    /// The links out of a country's node (land borders, straits and sea lanes).
    pub fn links(&self, c: CountryId) -> &[Link] {
        let (lo, hi) = (self.link_start[c as usize], self.link_start[c as usize + 1]);
        &self.links[lo as usize..hi as usize]
    }

    pub fn country(&self, name: &str) -> Option<CountryId> {
        let i = self.countries.iter().position(|c| c.name == name)?;
        Some(i as CountryId)
    }

    /// The city `name` of `country` (city names repeat across countries: Tebas, Alejandría).
    pub fn city(&self, country: CountryId, name: &str) -> Option<CityId> {
        let range = self.countries[country as usize].cities.clone();
        range
            .into_iter()
            .find(|&i| self.cities[i as usize].name == name)
    }

    pub fn is_major(&self, c: CountryId) -> bool {
        self.majors.contains(&c)
    }

    /// Every table of the abstraction, placeholders first.
    pub fn stand_ins(&self) -> Vec<&StandIn> {
        provenance::sorted(&self.stand_ins)
    }

    /// One line per stand-in, for a run's report.
    pub fn stand_in_summary(&self) -> String {
        provenance::summary(&self.stand_ins)
    }

    /// The tables a game's results rest on that are placeholders, by field name.
    pub fn placeholders(&self) -> Vec<&str> {
        self.stand_ins
            .iter()
            .filter(|s| s.provenance == Provenance::Placeholder)
            .map(|s| s.field.as_str())
            .collect()
    }
}
