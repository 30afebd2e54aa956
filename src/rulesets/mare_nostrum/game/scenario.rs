//! The scenario file (`scenarios/mare-nostrum/*.toml`): nations as printed, the assumed map, the
//! independents and their leaders, read and checked into flat tables the game indexes by number.

use crate::error::{AleaError, Result};
use serde::Deserialize;
use std::collections::HashMap;
use toml::{Table, Value};

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

/// The assumed values an experiment may override (`[game.assumptions]`).
pub const ASSUMPTION_KEYS: &[&str] = &[
    "starting_stability",
    "garrison_fraction",
    "capital_garrison_full",
    "units_start",
    "independent",
];

/// The scenario's `[assumptions]` with the experiment's overrides applied, and where each came from.
struct Assumptions<'a> {
    table: Table,
    overrides: &'a Table,
    path: &'a str,
    field: &'a str,
    exp: &'a str,
}

impl<'a> Assumptions<'a> {
    /// Applies `overrides` (the experiment's `[game.assumptions]`, named `field` in `exp`): only
    /// the keys an experiment may override; `independent` is merged key by key.
    fn merge(
        file: &Table,
        overrides: &'a Table,
        path: &'a str,
        field: &'a str,
        exp: &'a str,
    ) -> Result<Assumptions<'a>> {
        let mut table = file.clone();
        for (k, v) in overrides {
            if !ASSUMPTION_KEYS.contains(&k.as_str()) {
                return Err(err(
                    exp,
                    format!("{field}.{k}"),
                    crate::spec::value_text(v),
                    &format!("one of {}", ASSUMPTION_KEYS.join(", ")),
                ));
            }
            if k == "independent" {
                let (Some(base), Some(over)) =
                    (table.get_mut(k).and_then(Value::as_table_mut), v.as_table())
                else {
                    return Err(err(
                        exp,
                        format!("{field}.{k}"),
                        crate::spec::value_text(v),
                        "a table such as { infantry = 3 }",
                    ));
                };
                for (kk, vv) in over {
                    base.insert(kk.clone(), vv.clone());
                }
            } else {
                table.insert(k.clone(), v.clone());
            }
        }
        Ok(Assumptions {
            table,
            overrides,
            path,
            field,
            exp,
        })
    }

    fn get(&self, k: &str) -> Option<&Value> {
        self.table.get(k)
    }

    /// Where an assumption came from, for error messages: (file, field).
    fn origin(&self, k: &str) -> (String, String) {
        if self.overrides.contains_key(k) {
            (self.exp.to_string(), format!("{}.{k}", self.field))
        } else {
            (self.path.to_string(), format!("assumptions.{k}"))
        }
    }

    /// The error for assumption `k`: `value` is not `allowed`.
    fn error(&self, k: &str, value: impl std::fmt::Display, allowed: &str) -> AleaError {
        let (src, f) = self.origin(k);
        err(&src, f, value, allowed)
    }

    /// The share of its PPU a non-capital city starts with as garrison, and whether a capital's
    /// garrison is full.
    fn garrisons(&self) -> Result<(f64, bool)> {
        let fraction = match self
            .get("garrison_fraction")
            .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
        {
            Some(x) if (0.0..=1.0).contains(&x) => x,
            other => {
                return Err(self.error(
                    "garrison_fraction",
                    other.map_or("nothing".into(), |v| v.to_string()),
                    "a number from 0 to 1",
                ))
            }
        };
        let capital_full = self
            .get("capital_garrison_full")
            .and_then(Value::as_bool)
            .ok_or_else(|| self.error("capital_garrison_full", "not a boolean", "true or false"))?;
        Ok((fraction, capital_full))
    }

    /// The starting stability level (index into [`STABILITY`]).
    fn starting_stability(&self) -> Result<u8> {
        let text = self
            .get("starting_stability")
            .and_then(Value::as_str)
            .unwrap_or("");
        STABILITY
            .iter()
            .position(|s| *s == text)
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.error(
                    "starting_stability",
                    format!("\"{text}\""),
                    &format!("one of {}", STABILITY.join(", ")),
                )
            })
    }

    /// Units start in the capital: the only reading the game models.
    fn units_start(&self) -> Result<()> {
        let value = self.get("units_start");
        if value.and_then(Value::as_str) == Some("capital") {
            return Ok(());
        }
        let shown = value.map_or("nothing".into(), crate::spec::value_text);
        Err(self.error("units_start", shown, "\"capital\""))
    }
}

/// The index of sea `key` in map.seas.
fn sea_index(path: &str, seas: &[String], f: &str, key: &str) -> Result<usize> {
    seas.iter().position(|s| s == key).ok_or_else(|| {
        err(
            path,
            f,
            format!("\"{key}\""),
            &format!("a sea of map.seas: {}", seas.join(", ")),
        )
    })
}

/// Province codes to their index in `[[map.province]]`.
struct Codes<'a> {
    path: &'a str,
    index: HashMap<String, usize>,
}

impl Codes<'_> {
    fn find(&self, f: &str, code: &str) -> Result<usize> {
        self.index.get(code).copied().ok_or_else(|| {
            err(
                self.path,
                f,
                format!("\"{code}\""),
                "a province code of [[map.province]]",
            )
        })
    }
}

/// `[[map.province]]`: every code once, each port on a sea of map.seas.
fn map_provinces<'a>(
    path: &'a str,
    map: &MapFile,
    seas: &[String],
) -> Result<(Vec<ProvinceData>, Codes<'a>)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut provinces = Vec::new();
    for (i, p) in map.province.iter().enumerate() {
        if index.insert(p.code.clone(), i).is_some() {
            return Err(err(
                path,
                format!("map.province[{i}].code"),
                format!("\"{}\"", p.code),
                "a province code listed once",
            ));
        }
        let mut ports = 0u16;
        for s in &p.ports {
            ports |= 1 << sea_index(path, seas, &format!("map.province[{i}].ports"), s)?;
        }
        provinces.push(ProvinceData {
            code: p.code.clone(),
            ports,
            ..Default::default()
        });
    }
    Ok((provinces, Codes { path, index }))
}

/// map.land: "A-B" or "A-B:kind", between two different provinces, each border once.
fn land_borders(path: &str, map: &MapFile, codes: &Codes) -> Result<Vec<(usize, usize, Border)>> {
    let mut land = Vec::new();
    for (i, e) in map.land.iter().enumerate() {
        let f = format!("map.land[{i}]");
        let (pair, kind) = e.split_once(':').unwrap_or((e, "plain"));
        let (a, b) = pair.split_once('-').ok_or_else(|| {
            err(
                path,
                &f,
                format!("\"{e}\""),
                "\"A-B\" or \"A-B:river|mountain|strait\"",
            )
        })?;
        let border = match kind {
            "plain" => Border::Plain,
            "river" => Border::River,
            "mountain" => Border::Mountain,
            "strait" => Border::Strait,
            _ => {
                return Err(err(
                    path,
                    &f,
                    format!("\"{e}\""),
                    "a border kind river, mountain or strait",
                ))
            }
        };
        let (a, b) = (codes.find(&f, a)?, codes.find(&f, b)?);
        if a == b
            || land
                .iter()
                .any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            return Err(err(
                path,
                &f,
                format!("\"{e}\""),
                "a border between two different provinces, listed once",
            ));
        }
        land.push((a, b, border));
    }
    Ok(land)
}

/// map.sea_links: "sea-sea" between seas of map.seas.
fn sea_links(path: &str, map: &MapFile, seas: &[String]) -> Result<Vec<(usize, usize)>> {
    let mut links = Vec::new();
    for (i, e) in map.sea_links.iter().enumerate() {
        let f = format!("map.sea_links[{i}]");
        let (a, b) = e
            .split_once('-')
            .ok_or_else(|| err(path, &f, format!("\"{e}\""), "\"sea-sea\""))?;
        links.push((sea_index(path, seas, &f, a)?, sea_index(path, seas, &f, b)?));
    }
    Ok(links)
}

/// `[[nation]]` number `ni`'s provinces, no other nation's (marked as its own), and its capital
/// among them.
fn owned_provinces(
    path: &str,
    ni: usize,
    file: &[NationFile],
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<(Vec<usize>, usize)> {
    let n = &file[ni];
    let f = |k: &str| format!("nation[{ni}].{k}");
    let mut owned = Vec::new();
    for code in &n.provinces {
        let p = codes.find(&f("provinces"), code)?;
        if let Some(other) = provinces[p].owner {
            return Err(err(
                path,
                f("provinces"),
                format!("\"{code}\""),
                &format!(
                    "a province of no other nation (also listed by {})",
                    file[other].key
                ),
            ));
        }
        provinces[p].owner = Some(ni);
        owned.push(p);
    }
    if owned.is_empty() {
        return Err(err(path, f("provinces"), "[]", "at least one province"));
    }
    let capital = codes.find(&f("assumed.capital_province"), &n.assumed.capital_province)?;
    if !owned.contains(&capital) {
        return Err(err(
            path,
            f("assumed.capital_province"),
            format!("\"{}\"", n.assumed.capital_province),
            "one of the nation's own provinces",
        ));
    }
    Ok((owned, capital))
}

/// Which mercenaries a nation may hire: (infantry, cavalry).
fn mercenaries(path: &str, field: String, text: &str) -> Result<(bool, bool)> {
    match text {
        "all" => Ok((true, true)),
        "none" => Ok((false, false)),
        "cavalry-only" => Ok((false, true)),
        other => Err(err(
            path,
            field,
            format!("\"{other}\""),
            "\"all\", \"none\" or \"cavalry-only\"",
        )),
    }
}

/// `[[nation]]` number `ni`: its key used once, its provinces and capital, its mercenaries and
/// strategy level. Alliances come later ([`alliances`]).
fn nation(
    path: &str,
    ni: usize,
    file: &[NationFile],
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<NationData> {
    let n = &file[ni];
    let f = |k: &str| format!("nation[{ni}].{k}");
    provenance_ok(path, &f("provenance"), &n.provenance)?;
    provenance_ok(path, &f("assumed.provenance"), &n.assumed.provenance)?;
    if file[..ni].iter().any(|x| x.key == n.key) {
        return Err(err(
            path,
            f("key"),
            format!("\"{}\"", n.key),
            "a nation key used once",
        ));
    }
    let (owned, capital) = owned_provinces(path, ni, file, codes, provinces)?;
    let (mi, mc) = mercenaries(path, f("mercenaries"), &n.mercenaries)?;
    Ok(NationData {
        key: n.key.clone(),
        name: n.name.clone(),
        provinces: owned,
        capital,
        has_capital_city: n.capital_city.is_some(),
        card_limit: n.card_limit,
        cards: n.cards_in_hand,
        strategy: level(path, &f("strategy_level"), &n.strategy_level)?,
        leaders: n.leaders,
        units: [
            n.infantry,
            n.cavalry,
            n.mercenary_infantry,
            n.mercenary_cavalry,
        ],
        fleets: n.fleets,
        ppu: n.ppu,
        ppr: n.ppr,
        harvests: n.harvests,
        mines: n.mines,
        deposits: n.deposits,
        herds: n.herds,
        trade_points: n.trade_points,
        treasury: [n.treasury.t, n.treasury.g, n.treasury.r, n.treasury.cb],
        commercial: Vec::new(),
        military: Vec::new(),
        independent_allies: Vec::new(),
        mercenary_infantry_allowed: mi,
        mercenary_cavalry_allowed: mc,
        unit_upkeep: n.unit_upkeep as i64,
    })
}

/// Commercial and military alliances: with another nation that lists this one back.
fn alliances(path: &str, file: &[NationFile], nations: &mut [NationData]) -> Result<()> {
    let keys: Vec<&str> = file.iter().map(|n| n.key.as_str()).collect();
    let nation_index = |f: &str, key: &str| -> Result<usize> {
        keys.iter().position(|k| *k == key).ok_or_else(|| {
            err(
                path,
                f,
                format!("\"{key}\""),
                &format!("a nation key: {}", keys.join(", ")),
            )
        })
    };
    for (ni, n) in file.iter().enumerate() {
        for (k, list) in [
            ("commercial_alliances", &n.commercial_alliances),
            ("military_alliances", &n.military_alliances),
        ] {
            for key in list {
                let f = format!("nation[{ni}].{k}");
                let other = nation_index(&f, key)?;
                let mutual = if k == "commercial_alliances" {
                    &file[other].commercial_alliances
                } else {
                    &file[other].military_alliances
                };
                if other == ni || !mutual.contains(&n.key) {
                    return Err(err(
                        path,
                        f,
                        format!("\"{key}\""),
                        "another nation that lists this one back (alliances are mutual)",
                    ));
                }
                if k == "commercial_alliances" {
                    nations[ni].commercial.push(other)
                } else {
                    nations[ni].military.push(other)
                }
            }
        }
    }
    Ok(())
}

/// `[[independent]]`: the provinces no nation owns, each listed once, with the default stats of
/// `[assumptions].independent` where the entry gives none; every province is a nation's or listed.
fn independents(
    path: &str,
    file: &File,
    assumptions: &Assumptions,
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<()> {
    let defaults = assumptions
        .get("independent")
        .and_then(Value::as_table)
        .cloned()
        .ok_or_else(|| {
            assumptions.error(
                "independent",
                "nothing",
                "a table of default independent stats",
            )
        })?;
    let mut listed = vec![false; provinces.len()];
    for (i, ind) in file.independent.iter().enumerate() {
        let f = format!("independent[{i}]");
        provenance_ok(path, &format!("{f}.provenance"), &ind.provenance)?;
        let p = codes.find(&format!("{f}.code"), &ind.code)?;
        if let Some(o) = provinces[p].owner {
            return Err(err(
                path,
                format!("{f}.code"),
                format!("\"{}\"", ind.code),
                &format!(
                    "a province no nation owns (owned by {})",
                    file.nation[o].key
                ),
            ));
        }
        if std::mem::replace(&mut listed[p], true) {
            return Err(err(
                path,
                format!("{f}.code"),
                format!("\"{}\"", ind.code),
                "an independent province listed once",
            ));
        }
        independent_stats(path, &f, ind, &defaults, &mut provinces[p])?;
    }
    for (p, pd) in provinces.iter().enumerate() {
        if pd.owner.is_none() && !listed[p] {
            return Err(err(
                path,
                "map.province",
                format!("\"{}\"", pd.code),
                "a province owned by a nation or listed as [[independent]]",
            ));
        }
    }
    Ok(())
}

/// One independent's figures: its own entry over the defaults.
fn independent_stats(
    path: &str,
    f: &str,
    ind: &IndependentFile,
    defaults: &Table,
    pd: &mut ProvinceData,
) -> Result<()> {
    let mut stats = defaults.clone();
    for (k, v) in &ind.rest {
        if k != "why" && k != "lines" && k != "source" {
            stats.insert(k.clone(), v.clone());
        }
    }
    let get = |k: &str| -> Result<u32> {
        match stats.get(k).and_then(Value::as_integer) {
            Some(v) if (0..=1000).contains(&v) => Ok(v as u32),
            other => Err(err(
                path,
                format!("{f}.{k}"),
                other.map_or("nothing".into(), |v| v.to_string()),
                "a whole number 0..1000 (here or in [assumptions].independent)",
            )),
        }
    };
    pd.ppu = get("ppu")?;
    pd.ppr = get("ppr")?;
    pd.harvests = get("harvests")?;
    pd.mines = get("mines")?;
    pd.deposits = get("deposits")?;
    pd.herds = get("herds")?;
    pd.garrison = get("garrison")?.min(pd.ppu.max(1));
    pd.troops = [get("infantry")?, get("cavalry")?];
    Ok(())
}

/// Nations' military alliances with independent provinces.
fn independent_alliances(
    path: &str,
    file: &[NationFile],
    codes: &Codes,
    provinces: &[ProvinceData],
    nations: &mut [NationData],
) -> Result<()> {
    for (ni, n) in file.iter().enumerate() {
        for code in &n.independent_military_alliances {
            let f = format!("nation[{ni}].independent_military_alliances");
            let p = codes.find(&f, code)?;
            if provinces[p].owner.is_some() {
                return Err(err(
                    path,
                    f,
                    format!("\"{code}\""),
                    "an independent province",
                ));
            }
            nations[ni].independent_allies.push(p);
        }
    }
    Ok(())
}

/// Splits each nation's totals over its provinces (capital first on ties), and sets garrisons:
/// `fraction` of a city's PPU, rounded up, or all of it in a capital when `capital_full`.
fn split_totals(
    nations: &[NationData],
    provinces: &mut [ProvinceData],
    (fraction, capital_full): (f64, bool),
) {
    for n in nations {
        let weights: Vec<u32> = n
            .provinces
            .iter()
            .map(|&p| if p == n.capital { 2 } else { 1 })
            .collect();
        // The capital counts double so it rounds up first and holds the largest city.
        let split = |total: u32| largest_remainder(total, &weights);
        let (ppu, ppr, h, m, d, hd) = (
            split(n.ppu),
            split(n.ppr),
            split(n.harvests),
            split(n.mines),
            split(n.deposits),
            split(n.herds),
        );
        for (i, &p) in n.provinces.iter().enumerate() {
            let pd = &mut provinces[p];
            pd.ppu = ppu[i];
            pd.ppr = ppr[i];
            pd.harvests = h[i];
            pd.mines = m[i];
            pd.deposits = d[i];
            pd.herds = hd[i];
            pd.garrison = if p == n.capital && capital_full {
                pd.ppu
            } else {
                (fraction * pd.ppu as f64).ceil() as u32
            };
        }
    }
}

/// The independents' leaders at the start: `count` of each row.
fn initial_leaders(path: &str, rows: &[InitialLeader]) -> Result<Vec<(u8, [u32; 2])>> {
    let mut leaders = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let l = level(
            path,
            &format!("independent_leaders.initial[{i}].level"),
            &row.level,
        )?;
        for _ in 0..row.count {
            leaders.push((l, [row.infantry, row.cavalry]));
        }
    }
    Ok(leaders)
}

/// The replacement leaders by d20 range: the rows cover 1..20 exactly once.
fn replacement_leaders(
    path: &str,
    rows: &[ReplacementLeader],
) -> Result<Vec<IndependentLeaderRow>> {
    let mut leaders = Vec::new();
    let mut covered = [0u32; 21];
    for (i, row) in rows.iter().enumerate() {
        let f = format!("independent_leaders.replacement[{i}]");
        let [low, high] = row.d20;
        if !(1..=20).contains(&low) || !(low..=20).contains(&high) {
            return Err(err(
                path,
                format!("{f}.d20"),
                format!("[{low}, {high}]"),
                "[low, high] with 1 <= low <= high <= 20",
            ));
        }
        for c in &mut covered[low as usize..=high as usize] {
            *c += 1;
        }
        leaders.push(IndependentLeaderRow {
            low,
            high,
            level: level(path, &format!("{f}.level"), &row.level)?,
            troops: [row.infantry, row.cavalry],
        });
    }
    if covered[1..].iter().any(|&c| c != 1) {
        return Err(err(
            path,
            "independent_leaders.replacement",
            "rows that miss or repeat a d20 face",
            "rows covering 1..20 exactly once",
        ));
    }
    Ok(leaders)
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

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "scenarios/mare-nostrum/segunda-guerra-punica.toml";

    fn load(text: &str) -> Result<Scenario> {
        Scenario::load("x.toml", text, &Table::new(), "game.assumptions", "e.toml")
    }

    /// Every row of the shipped scenario passes the checks `load` makes row by row, and the split
    /// over provinces keeps each nation's totals.
    #[test]
    fn every_row_of_the_shipped_scenario_is_valid() {
        let s = load(&std::fs::read_to_string(PATH).unwrap()).unwrap();
        assert_eq!(s.nations.len(), 13);
        for n in &s.nations {
            let total = |f: fn(&ProvinceData) -> u32| -> u32 {
                n.provinces.iter().map(|&p| f(&s.provinces[p])).sum()
            };
            let split = [
                total(|p| p.ppu),
                total(|p| p.ppr),
                total(|p| p.harvests),
                total(|p| p.mines),
                total(|p| p.deposits),
                total(|p| p.herds),
            ];
            let totals = [n.ppu, n.ppr, n.harvests, n.mines, n.deposits, n.herds];
            assert_eq!(split, totals, "{}", n.key);
            assert_eq!(s.provinces[n.capital].garrison, s.provinces[n.capital].ppu);
        }
        let faces: u32 = s
            .replacement_leaders
            .iter()
            .map(|r| r.high - r.low + 1)
            .sum();
        assert_eq!(faces, 20);
    }

    /// A bad row in any part of the file is reported with the file, the entry and the value.
    #[test]
    fn a_bad_row_in_any_part_names_the_file_its_entry_and_value() {
        let text = std::fs::read_to_string(PATH).unwrap();
        let cases = [
            ("code = \"IT2\"", "code = \"IT1\"", "map.province[1].code"),
            (
                "ports = [\"tyrrhenian\"]",
                "ports = [\"tyrrhenean\"]",
                "tyrrhenean",
            ),
            ("\"IT6-IT8:strait\"", "\"IT6-IT8:bridge\"", "map.land[10]"),
            (
                "\"western-tyrrhenian\"",
                "\"western-tyrrhenia\"",
                "map.sea_links[0]",
            ),
            (
                "mercenaries = \"none\"",
                "mercenaries = \"some\"",
                "nation[0].mercenaries",
            ),
            (
                "strategy_level = \"E\"",
                "strategy_level = \"G\"",
                "nation[0].strategy_level",
            ),
            (
                "commercial_alliances = [\"rome\"]",
                "commercial_alliances = []",
                "mutual",
            ),
            (
                "code = \"GL8\"   # Aquitani\nprovenance",
                "code = \"GL7\"   # Aquitani\nprovenance",
                "independent[1].code",
            ),
            (
                "garrison_fraction = 0.5",
                "garrison_fraction = 1.5",
                "assumptions.garrison_fraction",
            ),
            (
                "units_start = \"capital\"",
                "units_start = \"field\"",
                "assumptions.units_start",
            ),
            (
                "level = \"C\", infantry = 3, cavalry = 2",
                "level = \"Z\", infantry = 3, cavalry = 2",
                "initial[7].level",
            ),
            (
                "d20 = [20, 20]",
                "d20 = [19, 20]",
                "independent_leaders.replacement",
            ),
        ];
        for (from, to, named) in cases {
            assert!(text.contains(from), "{from}");
            let e = load(&text.replacen(from, to, 1)).err().unwrap().to_string();
            assert!(e.contains("x.toml") && e.contains(named), "{to}: {e}");
        }
    }
}
