//! The scenario file (`scenarios/mare-nostrum/*.toml`): nations as printed, the assumed map, the
//! independents and their leaders, read and checked into flat tables the game indexes by number.

use crate::error::{AleaError, Result};
use serde::Deserialize;
use std::collections::HashMap;
use toml::{Table, Value};

mod assumptions;
mod independents;
mod map;
mod nations;
#[cfg(test)]
mod tests;

use assumptions::Assumptions;
pub use assumptions::ASSUMPTION_KEYS;
use independents::{independent_alliances, independents, initial_leaders, replacement_leaders};
use map::{land_borders, map_provinces, sea_links, Codes};
use nations::{alliances, nation, split_totals};

/// The eight stability levels, best first (digest §5.6).
pub const STABILITY: [&str; 8] = [
    "optimal",
    "very-high",
    "high",
    "medium",
    "low",
    "very-low",
    "fiasco",
    "collapse",
];
pub const FIASCO: u8 = 6;
pub const COLLAPSE: u8 = 7;
pub const LEVELS: [&str; 6] = ["A", "B", "C", "D", "E", "F"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    scenario: ScenarioHead,
    assumptions: Table,
    nation: Vec<NationFile>,
    map: MapFile,
    independent: Vec<IndependentFile>,
    independent_leaders: LeadersFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioHead {
    key: String,
    title: String,
    start_year_auc: i32,
    #[allow(dead_code)]
    provenance: String,
    #[allow(dead_code)]
    lines: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NationFile {
    key: String,
    name: String,
    provenance: String,
    #[allow(dead_code)]
    lines: String,
    provinces: Vec<String>,
    capital_city: Option<String>,
    card_limit: u32,
    cards_in_hand: u32,
    strategy_level: String,
    leaders: u32,
    infantry: u32,
    cavalry: u32,
    mercenary_infantry: u32,
    mercenary_cavalry: u32,
    fleets: u32,
    ppu: u32,
    ppr: u32,
    harvests: u32,
    mines: u32,
    deposits: u32,
    herds: u32,
    trade_points: u32,
    treasury: TreasuryFile,
    commercial_alliances: Vec<String>,
    military_alliances: Vec<String>,
    independent_military_alliances: Vec<String>,
    mercenaries: String,
    unit_upkeep: u32,
    assumed: NationAssumed,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TreasuryFile {
    t: i64,
    g: i64,
    r: i64,
    cb: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NationAssumed {
    provenance: String,
    #[allow(dead_code)]
    why: String,
    capital_province: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    provenance: String,
    #[allow(dead_code)]
    why: String,
    seas: Vec<SeaFile>,
    sea_links: Vec<String>,
    land: Vec<String>,
    province: Vec<ProvinceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeaFile {
    key: String,
    #[allow(dead_code)]
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvinceFile {
    code: String,
    #[allow(dead_code)]
    region: String,
    #[serde(default)]
    ports: Vec<String>,
}

#[derive(Deserialize)]
struct IndependentFile {
    code: String,
    provenance: String,
    #[serde(flatten)]
    rest: Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeadersFile {
    #[allow(dead_code)]
    provenance: String,
    #[allow(dead_code)]
    lines: String,
    initial: Vec<InitialLeader>,
    replacement: Vec<ReplacementLeader>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InitialLeader {
    count: u32,
    level: String,
    infantry: u32,
    cavalry: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplacementLeader {
    d20: [u32; 2],
    level: String,
    infantry: u32,
    cavalry: u32,
}

/// Talents, grain, resources, horses.
pub type Goods = [i64; 4];
pub const T: usize = 0;
pub const G: usize = 1;
pub const R: usize = 2;
pub const CB: usize = 3;

#[derive(Clone, Debug)]
pub struct NationData {
    pub key: String,
    pub name: String,
    pub provinces: Vec<usize>,
    pub capital: usize,
    pub has_capital_city: bool,
    pub card_limit: u32,
    pub cards: u32,
    /// 0 = A (best) .. 5 = F.
    pub strategy: u8,
    pub leaders: u32,
    /// infantry, cavalry, mercenary infantry, mercenary cavalry.
    pub units: [u32; 4],
    pub fleets: u32,
    pub ppu: u32,
    pub ppr: u32,
    pub harvests: u32,
    pub mines: u32,
    pub deposits: u32,
    pub herds: u32,
    pub trade_points: u32,
    pub treasury: Goods,
    pub commercial: Vec<usize>,
    pub military: Vec<usize>,
    pub independent_allies: Vec<usize>,
    pub mercenary_infantry_allowed: bool,
    pub mercenary_cavalry_allowed: bool,
    pub unit_upkeep: i64,
}

/// Starting figures of one province, after the nation totals are split over its provinces.
#[derive(Clone, Debug, Default)]
pub struct ProvinceData {
    pub code: String,
    /// Owning nation; `None` = independent.
    pub owner: Option<usize>,
    pub ppu: u32,
    pub ppr: u32,
    pub harvests: u32,
    pub mines: u32,
    pub deposits: u32,
    pub herds: u32,
    pub garrison: u32,
    /// Independents' own troops: infantry, cavalry.
    pub troops: [u32; 2],
    /// Bit i = the city's port opens on sea i.
    pub ports: u16,
}

#[derive(Clone, Copy, Debug)]
pub struct IndependentLeaderRow {
    pub low: u32,
    pub high: u32,
    pub level: u8,
    pub troops: [u32; 2],
}

pub struct Scenario {
    pub key: String,
    pub title: String,
    pub start_year: i32,
    pub nations: Vec<NationData>,
    pub provinces: Vec<ProvinceData>,
    pub seas: Vec<String>,
    /// Land borders: (a, b, extra segments: 0 plain, 1 river/mountain/strait, kind).
    pub land: Vec<(usize, usize, Border)>,
    pub sea_links: Vec<(usize, usize)>,
    pub initial_leaders: Vec<(u8, [u32; 2])>,
    pub replacement_leaders: Vec<IndependentLeaderRow>,
    pub starting_stability: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Border {
    Plain,
    River,
    Mountain,
    Strait,
}

fn err(
    source: &str,
    field: impl Into<String>,
    value: impl std::fmt::Display,
    allowed: &str,
) -> AleaError {
    AleaError::input(source, field, value, allowed)
}

fn provenance_ok(source: &str, field: &str, p: &str) -> Result<()> {
    if ["rulebook", "assumed", "external"].contains(&p) {
        Ok(())
    } else {
        Err(err(
            source,
            field,
            format!("\"{p}\""),
            "\"rulebook\", \"assumed\" or \"external\"",
        ))
    }
}

fn level(source: &str, field: &str, text: &str) -> Result<u8> {
    LEVELS
        .iter()
        .position(|l| *l == text)
        .map(|i| i as u8)
        .ok_or_else(|| err(source, field, format!("\"{text}\""), "a strategy level A-F"))
}

/// Splits `total` over `n` shares proportional to `weights`, largest remainder, ties to the first.
pub fn largest_remainder(total: u32, weights: &[u32]) -> Vec<u32> {
    let sum: u64 = weights.iter().map(|&w| w as u64).sum();
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let mut out: Vec<u32> = weights
        .iter()
        .map(|&w| (total as u64 * w as u64 / sum) as u32)
        .collect();
    let mut rest = total - out.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse((total as u64 * weights[i] as u64) % sum));
    for &i in order.iter().cycle() {
        if rest == 0 {
            break;
        }
        out[i] += 1;
        rest -= 1;
    }
    out
}

impl Scenario {
    /// Reads a scenario; `overrides` are the experiment's `[game.assumptions]` (named `field` there).
    /// The parts are checked in the file's order, so the first error reported is the first there.
    pub fn load(
        path: &str,
        text: &str,
        overrides: &Table,
        field: &str,
        exp: &str,
    ) -> Result<Scenario> {
        let file: File = toml::from_str(text)
            .map_err(|e| crate::spec::toml_error(path, "scenario file", text, &e))?;
        let assumptions = Assumptions::merge(&file.assumptions, overrides, path, field, exp)?;
        provenance_ok(path, "map.provenance", &file.map.provenance)?;
        let seas: Vec<String> = file.map.seas.iter().map(|s| s.key.clone()).collect();
        let (mut provinces, codes) = map_provinces(path, &file.map, &seas)?;
        let land = land_borders(path, &file.map, &codes)?;
        let sea_links = sea_links(path, &file.map, &seas)?;
        let mut nations = (0..file.nation.len())
            .map(|ni| nation(path, ni, &file.nation, &codes, &mut provinces))
            .collect::<Result<Vec<_>>>()?;
        alliances(path, &file.nation, &mut nations)?;
        independents(path, &file, &assumptions, &codes, &mut provinces)?;
        independent_alliances(path, &file.nation, &codes, &provinces, &mut nations)?;
        split_totals(&nations, &mut provinces, assumptions.garrisons()?);
        let starting_stability = assumptions.starting_stability()?;
        assumptions.units_start()?;
        let leaders = &file.independent_leaders;
        let initial_leaders = initial_leaders(path, &leaders.initial)?;
        let replacement_leaders = replacement_leaders(path, &leaders.replacement)?;
        Ok(Scenario {
            key: file.scenario.key,
            title: file.scenario.title,
            start_year: file.scenario.start_year_auc,
            nations,
            provinces,
            seas,
            land,
            sea_links,
            initial_leaders,
            replacement_leaders,
            starting_stability,
        })
    }
}
