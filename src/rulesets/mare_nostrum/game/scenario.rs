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

impl Scenario {
    /// Reads a scenario; `overrides` are the experiment's `[game.assumptions]` (named `field` there).
    pub fn load(
        path: &str,
        text: &str,
        overrides: &Table,
        field: &str,
        exp: &str,
    ) -> Result<Scenario> {
        let file: File = toml::from_str(text)
            .map_err(|e| crate::spec::toml_error(path, "scenario file", text, &e))?;
        let mut assumptions = file.assumptions.clone();
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
                let (Some(base), Some(over)) = (
                    assumptions.get_mut(k).and_then(Value::as_table_mut),
                    v.as_table(),
                ) else {
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
                assumptions.insert(k.clone(), v.clone());
            }
        }
        // Where an assumption came from, for error messages.
        let origin = |k: &str| -> (String, String) {
            if overrides.contains_key(k) {
                (exp.to_string(), format!("{field}.{k}"))
            } else {
                (path.to_string(), format!("assumptions.{k}"))
            }
        };
        provenance_ok(path, "map.provenance", &file.map.provenance)?;
        let seas: Vec<String> = file.map.seas.iter().map(|s| s.key.clone()).collect();
        let _names: Vec<&String> = file.map.seas.iter().map(|s| &s.name).collect();
        let sea_index = |f: &str, key: &str| -> Result<usize> {
            seas.iter().position(|s| s == key).ok_or_else(|| {
                err(
                    path,
                    f,
                    format!("\"{key}\""),
                    &format!("a sea of map.seas: {}", seas.join(", ")),
                )
            })
        };
        // Provinces: every code once.
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut provinces = Vec::new();
        for (i, p) in file.map.province.iter().enumerate() {
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
                ports |= 1 << sea_index(&format!("map.province[{i}].ports"), s)?;
            }
            provinces.push(ProvinceData {
                code: p.code.clone(),
                ports,
                ..Default::default()
            });
        }
        let find = |f: &str, code: &str| -> Result<usize> {
            index.get(code).copied().ok_or_else(|| {
                err(
                    path,
                    f,
                    format!("\"{code}\""),
                    "a province code of [[map.province]]",
                )
            })
        };
        let mut land = Vec::new();
        for (i, e) in file.map.land.iter().enumerate() {
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
            let (a, b) = (find(&f, a)?, find(&f, b)?);
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
        let mut sea_links = Vec::new();
        for (i, e) in file.map.sea_links.iter().enumerate() {
            let f = format!("map.sea_links[{i}]");
            let (a, b) = e
                .split_once('-')
                .ok_or_else(|| err(path, &f, format!("\"{e}\""), "\"sea-sea\""))?;
            sea_links.push((sea_index(&f, a)?, sea_index(&f, b)?));
        }
        // Nations.
        let keys: Vec<&str> = file.nation.iter().map(|n| n.key.as_str()).collect();
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
        let mut nations = Vec::new();
        for (ni, n) in file.nation.iter().enumerate() {
            let f = |k: &str| format!("nation[{ni}].{k}");
            provenance_ok(path, &f("provenance"), &n.provenance)?;
            provenance_ok(path, &f("assumed.provenance"), &n.assumed.provenance)?;
            if keys[..ni].contains(&n.key.as_str()) {
                return Err(err(
                    path,
                    f("key"),
                    format!("\"{}\"", n.key),
                    "a nation key used once",
                ));
            }
            let mut owned = Vec::new();
            for code in &n.provinces {
                let p = find(&f("provinces"), code)?;
                if let Some(other) = provinces[p].owner {
                    return Err(err(
                        path,
                        f("provinces"),
                        format!("\"{code}\""),
                        &format!(
                            "a province of no other nation (also listed by {})",
                            keys[other]
                        ),
                    ));
                }
                provinces[p].owner = Some(ni);
                owned.push(p);
            }
            if owned.is_empty() {
                return Err(err(path, f("provinces"), "[]", "at least one province"));
            }
            let capital = find(&f("assumed.capital_province"), &n.assumed.capital_province)?;
            if !owned.contains(&capital) {
                return Err(err(
                    path,
                    f("assumed.capital_province"),
                    format!("\"{}\"", n.assumed.capital_province),
                    "one of the nation's own provinces",
                ));
            }
            let (mi, mc) = match n.mercenaries.as_str() {
                "all" => (true, true),
                "none" => (false, false),
                "cavalry-only" => (false, true),
                other => {
                    return Err(err(
                        path,
                        f("mercenaries"),
                        format!("\"{other}\""),
                        "\"all\", \"none\" or \"cavalry-only\"",
                    ))
                }
            };
            nations.push(NationData {
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
            });
        }
        for (ni, n) in file.nation.iter().enumerate() {
            for (k, list) in [
                ("commercial_alliances", &n.commercial_alliances),
                ("military_alliances", &n.military_alliances),
            ] {
                for key in list {
                    let f = format!("nation[{ni}].{k}");
                    let other = nation_index(&f, key)?;
                    let mutual = if k == "commercial_alliances" {
                        &file.nation[other].commercial_alliances
                    } else {
                        &file.nation[other].military_alliances
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
        // Independents: the provinces no nation owns, each listed once.
        let defaults = assumptions
            .get("independent")
            .and_then(Value::as_table)
            .cloned()
            .ok_or_else(|| {
                let (src, f) = origin("independent");
                err(&src, f, "nothing", "a table of default independent stats")
            })?;
        let mut listed = vec![false; provinces.len()];
        for (i, ind) in file.independent.iter().enumerate() {
            let f = format!("independent[{i}]");
            provenance_ok(path, &format!("{f}.provenance"), &ind.provenance)?;
            let p = find(&format!("{f}.code"), &ind.code)?;
            if let Some(o) = provinces[p].owner {
                return Err(err(
                    path,
                    format!("{f}.code"),
                    format!("\"{}\"", ind.code),
                    &format!("a province no nation owns (owned by {})", keys[o]),
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
            let pd = &mut provinces[p];
            pd.ppu = get("ppu")?;
            pd.ppr = get("ppr")?;
            pd.harvests = get("harvests")?;
            pd.mines = get("mines")?;
            pd.deposits = get("deposits")?;
            pd.herds = get("herds")?;
            pd.garrison = get("garrison")?.min(pd.ppu.max(1));
            pd.troops = [get("infantry")?, get("cavalry")?];
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
        for (ni, n) in file.nation.iter().enumerate() {
            for code in &n.independent_military_alliances {
                let f = format!("nation[{ni}].independent_military_alliances");
                let p = find(&f, code)?;
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
        // Split each nation's totals over its provinces (capital first on ties), and garrisons.
        let fraction = match assumptions
            .get("garrison_fraction")
            .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
        {
            Some(x) if (0.0..=1.0).contains(&x) => x,
            other => {
                let (src, f) = origin("garrison_fraction");
                return Err(err(
                    &src,
                    f,
                    other.map_or("nothing".into(), |v| v.to_string()),
                    "a number from 0 to 1",
                ));
            }
        };
        let capital_full = match assumptions
            .get("capital_garrison_full")
            .and_then(Value::as_bool)
        {
            Some(b) => b,
            None => {
                let (src, f) = origin("capital_garrison_full");
                return Err(err(&src, f, "not a boolean", "true or false"));
            }
        };
        for n in &nations {
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
        let stability_text = assumptions
            .get("starting_stability")
            .and_then(Value::as_str)
            .unwrap_or("");
        let starting_stability = STABILITY
            .iter()
            .position(|s| *s == stability_text)
            .ok_or_else(|| {
                let (src, f) = origin("starting_stability");
                err(
                    &src,
                    f,
                    format!("\"{stability_text}\""),
                    &format!("one of {}", STABILITY.join(", ")),
                )
            })? as u8;
        if assumptions.get("units_start").and_then(Value::as_str) != Some("capital") {
            let (src, f) = origin("units_start");
            return Err(err(
                &src,
                f,
                assumptions
                    .get("units_start")
                    .map_or("nothing".into(), crate::spec::value_text),
                "\"capital\"",
            ));
        }
        let mut initial_leaders = Vec::new();
        for (i, row) in file.independent_leaders.initial.iter().enumerate() {
            let l = level(
                path,
                &format!("independent_leaders.initial[{i}].level"),
                &row.level,
            )?;
            for _ in 0..row.count {
                initial_leaders.push((l, [row.infantry, row.cavalry]));
            }
        }
        let mut replacement_leaders = Vec::new();
        let mut covered = [0u32; 21];
        for (i, row) in file.independent_leaders.replacement.iter().enumerate() {
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
            replacement_leaders.push(IndependentLeaderRow {
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
