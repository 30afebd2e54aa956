//! Experiment files: one battle, or a sweep over a grid of its parameters under one or more named
//! rule variants.
//!
//! ```toml
//! name = "quickstart"                      # output folder out/<name>; default: the file's stem
//! title = "Field battles, 1-30 a side"
//! method = "exact"                         # "auto" (default) | "exact" | "monte-carlo"
//! trials = 100000                          # Monte Carlo trials per point (monte-carlo or auto fallback)
//! seed = 1
//!
//! [battle]                                 # exactly a battle file
//! ruleset = "mare-nostrum"
//! battle = "field"
//! attacker = { infantry = 10, leader = 0 }
//! defender = { infantry = 10, leader = 0 }
//!
//! [[sweep]]                                # axes, in order: x, y, then series
//! field = "attacker.infantry"
//! from = 1
//! to = 30
//!
//! [[variants]]                             # optional; several are drawn side by side
//! name = "owner chooses casualties"
//! options = { casualty_allocation = "owner-choice" }
//! ```

use crate::error::{AleaError, Result};
use crate::rulesets::{load_battle, BattleKind, LoadedBattle, Ruleset};
use crate::spec::set_dotted;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// More points than this is a typo in a range, not an experiment.
pub const MAX_POINTS: usize = 200_000;
pub const MAX_TRIALS: u64 = 10_000_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MethodChoice {
    /// Exact where tractable, Monte Carlo otherwise.
    Auto,
    Exact,
    MonteCarlo,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    method: Option<MethodChoice>,
    trials: Option<i64>,
    seed: Option<i64>,
    battle: Table,
    #[serde(default)]
    sweep: Vec<AxisFile>,
    #[serde(default)]
    variants: Vec<VariantFile>,
    charts: Option<ChartsFile>,
}

/// One `[[sweep]]` entry as written; shared by battle and game experiments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisFile {
    pub field: String,
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub step: Option<i64>,
    pub values: Option<Vec<Value>>,
}

/// One `[[variants]]` entry as written; shared by battle and game experiments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    pub name: String,
    #[serde(default)]
    pub options: Table,
    #[serde(default)]
    pub set: Table,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartsFile {
    /// The sweep field on the x axis (default: the first axis).
    pub x: Option<String>,
    /// The sweep field on the heatmap's y axis (default: the second axis).
    pub y: Option<String>,
    /// The sweep field drawn as one line per value (default: the third axis).
    pub series: Option<String>,
    /// The outcome whose probability is drawn (default: the battle's first outcome).
    pub outcome: Option<String>,
    /// Values at which the axes not drawn are held (default: each axis's middle value).
    #[serde(default)]
    pub fixed: Table,
}

#[derive(Clone, Debug)]
pub struct Axis {
    pub field: String,
    pub values: Vec<Value>,
}

#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub options: Table,
    pub set: Table,
}

pub struct Experiment {
    pub path: PathBuf,
    pub source: String,
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    pub method: MethodChoice,
    pub trials: u64,
    pub seed: u64,
    pub battle: Table,
    pub axes: Vec<Axis>,
    pub variants: Vec<Variant>,
    pub charts: ChartsFile,
    pub ruleset: &'static Ruleset,
    pub kind: &'static BattleKind,
    pub sha256: String,
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Experiment {
    pub fn load(path: &Path) -> Result<Experiment> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| {
            AleaError::invalid(&source, format!("cannot read the experiment file: {e}"))
        })?;
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| AleaError::invalid(&source, "the experiment file is not UTF-8 text"))?;
        let file: ExperimentFile = toml::from_str(&text)
            .map_err(|e| crate::spec::toml_error(&source, "experiment file", &text, &e))?;
        let name = output_name(&source, path, file.name.clone())?;
        let trials = match file.trials {
            None => 100_000,
            Some(t) if (1..=MAX_TRIALS as i64).contains(&t) => t as u64,
            Some(t) => {
                return Err(AleaError::input(
                    &source,
                    "trials",
                    t,
                    format!("a whole number from 1 to {MAX_TRIALS}"),
                ))
            }
        };
        let seed = parse_seed(&source, file.seed)?;
        let axes = parse_axes(
            &source,
            &file.sweep,
            "a dotted field of the battle, e.g. \"attacker.infantry\"",
        )?;
        let variants = parse_variants(&source, file.variants)?;
        let points: usize = axes.iter().map(|a| a.values.len()).product::<usize>() * variants.len();
        if points > MAX_POINTS {
            return Err(AleaError::input(
                &source,
                "sweep",
                format!("{points} points"),
                format!("at most {MAX_POINTS} points (axes × variants)"),
            ));
        }
        let first = load_battle(&format!("{source} [battle]"), &file.battle)?;
        let exp = Experiment {
            path: path.to_path_buf(),
            title: file.title.unwrap_or_else(|| name.clone()),
            name,
            description: file.description,
            method: file.method.unwrap_or(MethodChoice::Auto),
            trials,
            seed,
            battle: file.battle,
            axes,
            variants,
            charts: file.charts.unwrap_or_default(),
            ruleset: first.ruleset,
            kind: first.kind,
            sha256: crate::output::sha256_hex(&bytes),
            source,
        };
        exp.check_charts()?;
        Ok(exp)
    }

    fn check_charts(&self) -> Result<()> {
        let names: Vec<&str> = self.axes.iter().map(|a| a.field.as_str()).collect();
        for (key, value) in [
            ("x", &self.charts.x),
            ("y", &self.charts.y),
            ("series", &self.charts.series),
        ] {
            if let Some(v) = value {
                if !names.contains(&v.as_str()) {
                    return Err(AleaError::input(
                        &self.source,
                        format!("charts.{key}"),
                        format!("\"{v}\""),
                        format!("one of the sweep fields: {}", names.join(", ")),
                    ));
                }
            }
        }
        if let Some(o) = &self.charts.outcome {
            if !self.kind.outcomes.contains(&o.as_str()) {
                return Err(AleaError::input(
                    &self.source,
                    "charts.outcome",
                    format!("\"{o}\""),
                    format!("one of {}", self.kind.outcomes.join(", ")),
                ));
            }
        }
        for key in self.charts.fixed.keys() {
            if !names.contains(&key.as_str()) {
                return Err(AleaError::input(
                    &self.source,
                    format!("charts.fixed.{key}"),
                    "…",
                    format!("one of the sweep fields: {}", names.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// Number of grid points (without variants).
    pub fn grid_len(&self) -> usize {
        grid_len(&self.axes)
    }

    /// The axis values of grid point `index` (the last axis varies fastest).
    pub fn point(&self, index: usize) -> Vec<&Value> {
        grid_point(&self.axes, index)
    }

    /// The battle table of one variant at one grid point.
    pub fn battle_at(&self, variant: &Variant, point: &[&Value]) -> Result<Table> {
        let mut table = self.battle.clone();
        let mut set = |field: &str, value: Value| {
            set_dotted(&mut table, field, value).map_err(|m| AleaError::invalid(&self.source, m))
        };
        for (k, v) in &variant.set {
            set(k, v.clone())?;
        }
        for (k, v) in &variant.options {
            set(&format!("options.{k}"), v.clone())?;
        }
        for (axis, v) in self.axes.iter().zip(point) {
            set(&axis.field, (*v).clone())?;
        }
        Ok(table)
    }

    /// The source name used in errors about one point, e.g. `quickstart.toml (variant "x", attacker.infantry = 3)`.
    /// The battle's name, or the names of the battles the variants switch between.
    pub fn battle_label(&self) -> String {
        let mut names = vec![self.kind.name.to_string()];
        for v in &self.variants {
            if let Some(toml::Value::String(b)) = v.set.get("battle") {
                if !names.contains(b) {
                    names.push(b.clone());
                }
            }
        }
        names.join(" / ")
    }

    pub fn point_source(&self, variant: &Variant, point: &[&Value]) -> String {
        let mut parts = vec![format!("variant \"{}\"", variant.name)];
        for (axis, v) in self.axes.iter().zip(point) {
            parts.push(format!("{} = {}", axis.field, value_text(v)));
        }
        format!("{} ({})", self.source, parts.join(", "))
    }

    pub fn load_point(&self, variant: &Variant, point: &[&Value]) -> Result<LoadedBattle> {
        let table = self.battle_at(variant, point)?;
        let loaded = load_battle(&self.point_source(variant, point), &table)?;
        // A variant may switch between battles of one ruleset that share their outcomes (e.g. the
        // basic and advanced systems side by side), never to another ruleset.
        if loaded.ruleset.slug != self.ruleset.slug || loaded.kind.outcomes != self.kind.outcomes {
            return Err(AleaError::invalid(
                &self.source,
                "a variant may not change the ruleset, nor switch to a battle with other outcomes",
            ));
        }
        Ok(loaded)
    }
}

pub fn axis_value_text(v: &Value) -> String {
    value_text(v)
}

/// The output folder's name: `name` from the file, else the file's stem; it must be a safe folder name.
pub fn output_name(source: &str, path: &Path, name: Option<String>) -> Result<String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("experiment")
        .to_string();
    let name = name.unwrap_or(stem);
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(AleaError::input(
            source,
            "name",
            format!("\"{name}\""),
            "letters, digits, - and _ only (it names the output folder)",
        ));
    }
    Ok(name)
}

/// `seed` from the file (default 1).
pub fn parse_seed(source: &str, seed: Option<i64>) -> Result<u64> {
    match seed {
        None => Ok(1),
        Some(s) if s >= 0 => Ok(s as u64),
        Some(s) => Err(AleaError::input(
            source,
            "seed",
            s,
            "a whole number from 0 up",
        )),
    }
}

/// The `[[sweep]]` axes, each checked, no field swept twice. `example` says what a field is,
/// for the error about an empty one.
pub fn parse_axes(source: &str, files: &[AxisFile], example: &str) -> Result<Vec<Axis>> {
    let mut axes: Vec<Axis> = Vec::new();
    for (i, a) in files.iter().enumerate() {
        let axis = axis(source, i, a, example)?;
        if axes.iter().any(|b| b.field == axis.field) {
            return Err(AleaError::input(
                source,
                format!("sweep[{i}].field"),
                format!("\"{}\"", axis.field),
                "a field not already swept",
            ));
        }
        axes.push(axis);
    }
    Ok(axes)
}

/// The `[[variants]]`, or one called "recommended" (the rules as the digest recommends) when
/// there are none; names must differ.
pub fn parse_variants(source: &str, files: Vec<VariantFile>) -> Result<Vec<Variant>> {
    let mut variants: Vec<Variant> = files
        .into_iter()
        .map(|v| Variant {
            name: v.name,
            options: v.options,
            set: v.set,
        })
        .collect();
    if variants.is_empty() {
        variants.push(Variant {
            name: "recommended".into(),
            options: Table::new(),
            set: Table::new(),
        });
    }
    for (i, v) in variants.iter().enumerate() {
        if variants[..i].iter().any(|w| w.name == v.name) {
            return Err(AleaError::input(
                source,
                format!("variants[{i}].name"),
                format!("\"{}\"", v.name),
                "a name not used by another variant",
            ));
        }
    }
    Ok(variants)
}

fn axis(source: &str, i: usize, a: &AxisFile, example: &str) -> Result<Axis> {
    let field = |f: &str| format!("sweep[{i}].{f}");
    if a.field.is_empty() || a.field.split('.').any(str::is_empty) {
        return Err(AleaError::input(
            source,
            field("field"),
            format!("\"{}\"", a.field),
            example,
        ));
    }
    let values = match (&a.values, a.from, a.to) {
        (Some(v), None, None) => {
            if v.is_empty() {
                return Err(AleaError::input(source, field("values"), "[]", "a non-empty list of values"));
            }
            v.clone()
        }
        (None, Some(from), Some(to)) => {
            let step = a.step.unwrap_or(1);
            if step <= 0 {
                return Err(AleaError::input(source, field("step"), step, "a whole number of 1 or more"));
            }
            if to < from {
                return Err(AleaError::input(source, field("to"), to, format!("at least `from` ({from}): the range is empty or inverted")));
            }
            if (to - from) / step + 1 > MAX_POINTS as i64 {
                return Err(AleaError::input(source, field("to"), to, format!("a range of at most {MAX_POINTS} values")));
            }
            (from..=to).step_by(step as usize).map(Value::Integer).collect()
        }
        _ => {
            return Err(AleaError::invalid(
                source,
                format!("sweep[{i}] (`{}`) needs either `from` and `to` (and optionally `step`), or `values`", a.field),
            ))
        }
    };
    Ok(Axis {
        field: a.field.clone(),
        values,
    })
}

/// Number of grid points of `axes` (1 without a sweep).
pub fn grid_len(axes: &[Axis]) -> usize {
    axes.iter().map(|a| a.values.len()).product()
}

/// The axis values of grid point `index` (the last axis varies fastest).
pub fn grid_point(axes: &[Axis], mut index: usize) -> Vec<&Value> {
    let mut out: Vec<&Value> = Vec::with_capacity(axes.len());
    for axis in axes.iter().rev() {
        out.push(&axis.values[index % axis.values.len()]);
        index /= axis.values.len();
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An experiment file in a folder of its own, removed when dropped.
    struct TestFile(#[allow(dead_code)] tempfile::TempDir, PathBuf);

    impl std::ops::Deref for TestFile {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.1
        }
    }

    fn write(name: &str, text: &str) -> TestFile {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        TestFile(dir, p)
    }

    const BASE: &str = "[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 5, leader = 0 }\ndefender = { infantry = 5, leader = 0 }\n";

    #[test]
    fn grids_enumerate_with_the_last_axis_fastest() {
        let p = write("grid.toml", &format!("{BASE}[[sweep]]\nfield = \"attacker.infantry\"\nfrom = 1\nto = 3\n[[sweep]]\nfield = \"attacker.leader\"\nvalues = [0, 2]\n"));
        let e = Experiment::load(&p).unwrap();
        assert_eq!(e.grid_len(), 6);
        let p3: Vec<String> = e.point(3).iter().map(|v| value_text(v)).collect();
        assert_eq!(p3, vec!["2", "2"]);
        let t = e.battle_at(&e.variants[0], &e.point(3)).unwrap();
        assert_eq!(t["attacker"]["infantry"].as_integer(), Some(2));
        assert_eq!(e.name, "grid");
    }

    #[test]
    fn bad_experiments_are_named_errors() {
        let cases = [
            ("inverted.toml", format!("{BASE}[[sweep]]\nfield = \"attacker.infantry\"\nfrom = 5\nto = 1\n"), "sweep[0].to"),
            ("empty.toml", format!("{BASE}[[sweep]]\nfield = \"attacker.infantry\"\nvalues = []\n"), "sweep[0].values"),
            ("unknown.toml", format!("trails = 5\n{BASE}"), "trails"),
            ("badchart.toml", format!("{BASE}[[sweep]]\nfield = \"attacker.infantry\"\nfrom = 1\nto = 2\n[charts]\nx = \"defender.infantry\"\n"), "charts.x"),
            ("malformed.toml", "name = [".to_string(), "not a valid experiment file"),
        ];
        for (name, text, expect) in cases {
            let err = Experiment::load(&write(name, &text)).err().expect(name);
            assert_eq!(err.exit_code(), 2, "{name}");
            assert!(err.to_string().contains(expect), "{name}: {err}");
        }
    }
}
