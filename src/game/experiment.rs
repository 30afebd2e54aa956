//! Game experiment files: many automated games of one scenario, under one or more named rule
//! variants, optionally over a sweep of up to two of the game's fields.
//!
//! ```toml
//! name = "mare-nostrum-punic-balance"   # output folder out/<name> (default: the file's stem)
//! title = "Punic balance"
//! description = "…"                     # optional
//! games = 100000                        # games per point and variant (default 10000)
//! seed = 1
//! per_turn_rows = false                 # true: also write turns.parquet
//!
//! [game]                                # read by the ruleset's game builder
//! ruleset = "mare-nostrum"
//! policies_from = "experiments/tuned/mare-nostrum.toml"   # optional: tables merged under [game]
//!                                       # (what `alea tune` writes); [game]'s own keys win
//! scenario = "scenarios/mare-nostrum/segunda-guerra-punica.toml"
//! turn_cap = 100
//! [game.options]                        # the ruleset's rule options
//! [game.policies]                       # one policy per player (see game::policy)
//! default = "economist"
//! [game.assumptions]                    # the scenario's assumed values, overridden
//!
//! [[sweep]]                             # at most two; `field` is a dotted path inside [game]
//! field = "assumptions.starting_stability"
//! values = ["high", "medium", "low"]    # or from/to/step whole numbers
//!
//! [[variants]]                          # optional; `set` takes dotted paths inside [game]
//! name = "no VP for investing at Optimal"
//! options = { optimal_investment_vp = false }
//!
//! [charts]
//! metric = "vp"                         # the turn metric drawn over turns (default: the first)
//! baseline = "defaults"                 # optional: a variant each case's win rates are compared
//!                                       # with (difference and its 95% CI, printed and drawn)
//! ```
//!
//! Every (variant, point) is a case: its own [`GameModel`], built by the ruleset from the `[game]`
//! table with the variant's and the point's values set, and its own random stream.

use super::GameModel;
use super::GameSetup;
use crate::battle::experiment::{
    axis_value_text, grid_len, grid_point, output_name, parse_axes, parse_seed, parse_variants,
    Axis, AxisFile, Experiment, Variant, VariantFile, MAX_TRIALS,
};
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::rulesets::{find_ruleset, Ruleset};
use crate::spec::{toml_error, value_text, Fields};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// Games per case when the file does not say.
pub const DEFAULT_GAMES: u64 = 10_000;
/// Variants × points: each builds a model and plays all its games.
pub const MAX_CASES: usize = 1_000;
pub const MAX_AXES: usize = 2;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameExperimentFile {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    games: Option<i64>,
    seed: Option<i64>,
    per_turn_rows: Option<bool>,
    game: Table,
    #[serde(default)]
    sweep: Vec<AxisFile>,
    #[serde(default)]
    variants: Vec<VariantFile>,
    charts: Option<GameChartsFile>,
    /// Read by `alea tune` (see [`super::tune`]); ignored by `alea run`.
    tune: Option<Table>,
    /// Read by `alea ladder` (see [`super::ladder`]); ignored by `alea run`.
    ladder: Option<Table>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameChartsFile {
    /// The per-player turn metric drawn over turns (default: the model's first, its score).
    pub metric: Option<String>,
    /// A variant's name: every other variant's win rates are also given as differences from
    /// this one's at the same point (player by player, with a 95% normal interval).
    pub baseline: Option<String>,
}

/// How a ruleset is found by its slug (the real registry, or a test's).
pub type RulesetLookup = fn(&str, &str, &str) -> Result<&'static Ruleset>;

#[derive(Clone)]
pub struct GameExperiment {
    pub path: PathBuf,
    pub source: String,
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    pub games: u64,
    pub seed: u64,
    pub per_turn_rows: bool,
    /// The `[game]` table as written.
    pub game: Table,
    pub ruleset: &'static Ruleset,
    pub axes: Vec<Axis>,
    pub variants: Vec<Variant>,
    pub charts: GameChartsFile,
    pub sha256: String,
    /// The `[tune]` table, when the file has one.
    pub tune: Option<Table>,
    /// The `[ladder]` table, when the file has one.
    pub ladder: Option<Table>,
    /// What `[game] policies_from` brought, when given: the file and whether its policies are a
    /// tuned equilibrium (see [`tuning_note`]).
    pub policies_from: Option<String>,
}

/// The key of `[game]` naming a file of policies (and other `[game]` values) to merge in.
pub const POLICIES_FROM: &str = "policies_from";

/// The table of a policies file that says how it was tuned (not merged into `[game]`).
pub const TUNING: &str = "tuning";

/// What a policies file says about its policies, for every summary: whether they are a tuned
/// equilibrium, and within what margin.
pub fn tuning_note(path: &str, tuning: Option<&Table>, overridden: &[String]) -> String {
    let Some(t) = tuning else {
        return format!(
            "policies from {path} (not written by alea tune: not shown to be competent play)"
        );
    };
    let num = |k: &str| {
        t.get(k)
            .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
    };
    let gain = num("largest_gain").unwrap_or(f64::NAN);
    let margin = num("margin").unwrap_or(f64::NAN);
    let seat = t
        .get("largest_gain_seat")
        .and_then(|v| v.as_str())
        .unwrap_or("?");
    let objective = t
        .get("objective")
        .and_then(|v| v.as_str())
        .unwrap_or("win share");
    let ends_checked = t.get("ends_checked").and_then(|v| v.as_bool()) == Some(true);
    // With ends, convergence is a sampled and an ends round in a row within the margin.
    let judged = if ends_checked {
        "the last two rounds (one of sampled candidates, one trying each number at both ends of its range one at a time)"
    } else {
        "the last round"
    };
    let measured = match t.get("validation").and_then(|v| v.as_integer()) {
        Some(n) => format!(", measured on {n} fresh games"),
        None => String::new(),
    };
    let mut note = if t.get("converged").and_then(|v| v.as_bool()) == Some(true) {
        format!(
            "policies tuned by alea tune ({path}): converged, no single player gained more than {margin} ({objective}{measured}) by changing its own policy in {judged} (largest gain {gain:.4}, {seat}); win rates here are the balance under that competent play, within the margin and the ranges searched"
        )
    } else if t.get("ends").and_then(|v| v.as_bool()) == Some(true)
        && gain <= margin
        && ends_checked
    {
        format!(
            "policies from alea tune ({path}) but NOT converged: the last round, which tried each number at both ends of its range, stayed within the margin {margin} ({objective}; largest gain {gain:.4}, {seat}) but no sampled round after its moves confirmed it; these win rates measure these policies, not yet the scenario's balance"
        )
    } else if t.get("ends").and_then(|v| v.as_bool()) == Some(true) && gain <= margin {
        format!(
            "policies from alea tune ({path}) but NOT converged: the last round stayed within the margin {margin} ({objective}; largest gain {gain:.4}, {seat}) but no round trying each number at both ends of its range confirmed it; these win rates measure these policies, not yet the scenario's balance"
        )
    } else {
        format!(
            "policies from alea tune ({path}) but NOT converged: {seat} still gained {gain:.4} ({objective}, margin {margin}); these win rates measure these policies, not yet the scenario's balance"
        )
    };
    if !overridden.is_empty() {
        note += &format!(
            "; the experiment overrides the tuned policy of {}",
            overridden.join(", ")
        );
    }
    note
}

/// Reads a policies file (what `alea tune` writes: `[policies]` and any other `[game]` tables,
/// and a `[tuning]` table that says how they were found, returned apart).
/// `source` and `field` name where the path was given, for errors.
pub fn read_policies_file(source: &str, field: &str, path: &str) -> Result<(Table, Option<Table>)> {
    let mut table = read_policies_table(source, field, path)?;
    let tuning = match table.remove(TUNING) {
        None => None,
        Some(Value::Table(t)) => Some(t),
        Some(v) => {
            return Err(AleaError::input(
                path,
                TUNING,
                value_text(&v),
                "a table (alea tune writes it)",
            ))
        }
    };
    Ok((table, tuning))
}

fn read_policies_table(source: &str, field: &str, path: &str) -> Result<Table> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        AleaError::input(
            source,
            field,
            format!("\"{path}\" ({e})"),
            "a readable TOML file of policies, e.g. one `alea tune` wrote (out/<name>/tuned-policies.toml)",
        )
    })?;
    toml::from_str(&text).map_err(|e| toml_error(path, "policies file", &text, &e))
}

/// `base` with every value of `over` set on it (tables merge key by key; `over` wins).
pub fn merged(mut base: Table, over: &Table) -> std::result::Result<Table, String> {
    for (k, v) in over {
        merge_dotted(&mut base, k, v.clone())?;
    }
    Ok(base)
}

/// A battle or a game experiment, told apart by its `[battle]` or `[game]` table.
pub enum AnyExperiment {
    Battle(Box<Experiment>),
    Game(Box<GameExperiment>),
}

/// Loads an experiment file of either kind.
pub fn load_any(path: &Path) -> Result<AnyExperiment> {
    let source = path.display().to_string();
    let text = read_text(path)?;
    // A file that is not valid TOML gets the battle loader's error, which says where.
    let table: Option<Table> = text.parse().ok();
    let has = |key: &str| table.as_ref().is_some_and(|t| t.contains_key(key));
    match (has("battle"), has("game")) {
        (true, true) => Err(AleaError::invalid(
            &source,
            "an experiment has either a [battle] table or a [game] table, not both",
        )),
        (false, true) => Ok(AnyExperiment::Game(Box::new(GameExperiment::load(path)?))),
        (false, false) if table.is_some() => Err(AleaError::invalid(
            &source,
            "missing the [battle] table (a battle experiment) or the [game] table (a game experiment)",
        )),
        _ => Ok(AnyExperiment::Battle(Box::new(Experiment::load(path)?))),
    }
}

fn read_text(path: &Path) -> Result<String> {
    let source = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        AleaError::invalid(&source, format!("cannot read the experiment file: {e}"))
    })?;
    String::from_utf8(bytes)
        .map_err(|_| AleaError::invalid(&source, "the experiment file is not UTF-8 text"))
}

/// Sets `value` at the dotted path `dotted` of `table`; a table set onto a table merges into it
/// key by key, so `set = { policies = { rome = "naval" } }` keeps the other policies.
pub fn merge_dotted(
    table: &mut Table,
    dotted: &str,
    value: Value,
) -> std::result::Result<(), String> {
    let (parent, key) = crate::spec::dotted_parent(table, dotted)?;
    match (parent.get_mut(key), value) {
        (Some(Value::Table(old)), Value::Table(new)) => {
            for (k, v) in new {
                merge_dotted(old, &k, v)?;
            }
        }
        (_, value) => {
            parent.insert(key.to_string(), value);
        }
    }
    Ok(())
}

impl GameExperiment {
    pub fn load(path: &Path) -> Result<GameExperiment> {
        GameExperiment::load_with(path, find_ruleset)
    }

    /// Loads with another ruleset registry (tests plug a toy game in this way).
    pub fn load_with(path: &Path, lookup: RulesetLookup) -> Result<GameExperiment> {
        let source = path.display().to_string();
        let text = read_text(path)?;
        let file: GameExperimentFile =
            toml::from_str(&text).map_err(|e| toml_error(&source, "experiment file", &text, &e))?;
        let name = output_name(&source, path, file.name)?;
        let games = match file.games {
            None => DEFAULT_GAMES,
            Some(g) if (1..=MAX_TRIALS as i64).contains(&g) => g as u64,
            Some(g) => {
                return Err(AleaError::input(
                    &source,
                    "games",
                    g,
                    format!("a whole number from 1 to {MAX_TRIALS}"),
                ))
            }
        };
        let seed = parse_seed(&source, file.seed)?;
        let slug = match file.game.get("ruleset") {
            Some(Value::String(s)) => s.as_str(),
            None => {
                return Err(AleaError::invalid(
                    &source,
                    "[game] has no `ruleset` (one of the slugs `alea list` shows)",
                ))
            }
            Some(v) => {
                return Err(AleaError::input(
                    &source,
                    "game.ruleset",
                    value_text(v),
                    "a ruleset's slug, e.g. \"mare-nostrum\"",
                ))
            }
        };
        let ruleset = lookup(&source, "game.ruleset", slug)?;
        let mut game = file.game.clone();
        let policies_from = match game.remove(POLICIES_FROM) {
            None => None,
            Some(Value::String(from)) => {
                let field = format!("game.{POLICIES_FROM}");
                let (base, tuning) = read_policies_file(&source, &field, &from)?;
                let empty = Table::new();
                let mine = game
                    .get("policies")
                    .and_then(Value::as_table)
                    .unwrap_or(&empty);
                let theirs = base
                    .get("policies")
                    .and_then(Value::as_table)
                    .unwrap_or(&empty);
                let overridden: Vec<String> = mine
                    .keys()
                    .filter(|k| theirs.contains_key(*k))
                    .cloned()
                    .collect();
                game = merged(base, &game).map_err(|m| AleaError::invalid(&from, m))?;
                Some(tuning_note(&from, tuning.as_ref(), &overridden))
            }
            Some(v) => {
                return Err(AleaError::input(
                    &source,
                    format!("game.{POLICIES_FROM}"),
                    value_text(&v),
                    "the path of a policies file, e.g. \"experiments/tuned/mare-nostrum.toml\"",
                ))
            }
        };
        if ruleset.game.is_none() {
            return Err(AleaError::input(
                &source,
                "game.ruleset",
                format!("\"{}\"", ruleset.slug),
                format!(
                    "a ruleset with automated games: the {} ruleset has no automated games yet",
                    ruleset.slug
                ),
            ));
        }
        if file.sweep.len() > MAX_AXES {
            return Err(AleaError::input(
                &source,
                "sweep",
                format!("{} axes", file.sweep.len()),
                format!("at most {MAX_AXES} axes"),
            ));
        }
        let axes = parse_axes(
            &source,
            &file.sweep,
            "a dotted field inside [game], e.g. \"assumptions.starting_stability\"",
        )?;
        for (i, a) in axes.iter().enumerate() {
            if a.field == "ruleset" || a.field.starts_with("ruleset.") {
                return Err(AleaError::input(
                    &source,
                    format!("sweep[{i}].field"),
                    format!("\"{}\"", a.field),
                    "a field inside [game] other than `ruleset` (one experiment, one ruleset)",
                ));
            }
        }
        let variants = parse_variants(&source, file.variants)?;
        for (i, v) in variants.iter().enumerate() {
            if let Some(key) = v
                .set
                .keys()
                .find(|k| *k == "ruleset" || k.starts_with("ruleset."))
            {
                return Err(AleaError::input(
                    &source,
                    format!("variants[{i}].set.{key}"),
                    value_text(&v.set[key]),
                    "a field inside [game] other than `ruleset` (one experiment, one ruleset)",
                ));
            }
        }
        let charts = file.charts.unwrap_or_default();
        if let Some(b) = &charts.baseline {
            if !variants.iter().any(|v| &v.name == b) {
                let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                return Err(AleaError::input(
                    &source,
                    "charts.baseline",
                    format!(
                        "\"{b}\"{}",
                        crate::error::did_you_mean(b, names.iter().copied())
                    ),
                    format!("the name of a variant: {}", names.join(", ")),
                ));
            }
        }
        let cases = grid_len(&axes) * variants.len();
        if cases > MAX_CASES {
            return Err(AleaError::input(
                &source,
                "sweep",
                format!("{cases} cases"),
                format!("at most {MAX_CASES} (sweep points × variants)"),
            ));
        }
        Ok(GameExperiment {
            path: path.to_path_buf(),
            title: file.title.unwrap_or_else(|| name.clone()),
            name,
            description: file.description,
            games,
            seed,
            per_turn_rows: file.per_turn_rows.unwrap_or(false),
            game,
            ruleset,
            axes,
            variants,
            charts,
            sha256: crate::output::sha256_hex(text.as_bytes()),
            source,
            tune: file.tune,
            ladder: file.ladder,
            policies_from,
        })
    }

    /// Whether the players' policies are a tuned equilibrium, said in every summary.
    pub fn policies_note(&self) -> String {
        self.policies_from.clone().unwrap_or_else(|| {
            "policies as written in the experiment, not tuned: these win rates measure these policies, not the scenario's balance under competent play (see alea tune)".into()
        })
    }

    /// The experiment's name, file and hash, as every manifest records them.
    pub fn manifest_source(&self) -> crate::output::ManifestSource<'_> {
        crate::output::ManifestSource {
            name: &self.name,
            file: &self.source,
            sha256: &self.sha256,
        }
    }

    /// Writes manifest.json (the run's facts: the file and its hash, the seed, the games played,
    /// the wall time and threads) beside `files`, and commits `dir` into place.
    pub fn commit_with_manifest(
        &self,
        dir: crate::output::OutputDir,
        mut files: Vec<String>,
        games: u64,
        seconds: f64,
    ) -> Result<(PathBuf, Vec<String>)> {
        let facts = serde_json::json!({ "seed": self.seed, "games": games });
        crate::output::write_manifest(&dir, &self.manifest_source(), facts, seconds, None, None)?;
        files.push("manifest.json".into());
        Ok((dir.commit()?, files))
    }

    /// Number of sweep points (1 without a sweep).
    pub fn grid_len(&self) -> usize {
        grid_len(&self.axes)
    }

    /// Number of (variant, point) cases.
    pub fn cases(&self) -> usize {
        self.grid_len() * self.variants.len()
    }

    /// The axis values of sweep point `p` (the last axis varies fastest).
    pub fn point(&self, p: usize) -> Vec<&Value> {
        grid_point(&self.axes, p)
    }

    /// The random stream of case (variant `v`, point `p`): every case draws its own dice.
    pub fn stream(&self, v: usize, p: usize) -> u64 {
        (v * self.grid_len() + p) as u64
    }

    /// The `[game]` table of variant `v` at point `p`: the variant's values, then the point's.
    pub fn table_at(&self, v: usize, p: usize) -> Result<Table> {
        let variant = &self.variants[v];
        let mut table = self.game.clone();
        let source = self.case_source(v, p);
        let mut set = |field: &str, value: Value| {
            merge_dotted(&mut table, field, value).map_err(|m| AleaError::invalid(&source, m))
        };
        for (k, value) in &variant.set {
            set(k, value.clone())?;
        }
        for (k, value) in &variant.options {
            set(&format!("options.{k}"), value.clone())?;
        }
        for (axis, value) in self.axes.iter().zip(self.point(p)) {
            set(&axis.field, value.clone())?;
        }
        Ok(table)
    }

    /// `variant "x", field = value`: what tells case (v, p) apart (empty for a lone case).
    pub fn case_label(&self, v: usize, p: usize) -> String {
        let mut parts = Vec::new();
        if self.variants.len() > 1 {
            parts.push(format!("variant \"{}\"", self.variants[v].name));
        }
        for (axis, value) in self.axes.iter().zip(self.point(p)) {
            parts.push(format!("{} = {}", axis.field, axis_value_text(value)));
        }
        parts.join(", ")
    }

    /// The source named in errors about case (v, p): `exp.toml [game] (variant "x", turn_cap = 5)`.
    /// A variant that changes anything is named even when it is the only one.
    pub fn case_source(&self, v: usize, p: usize) -> String {
        let variant = &self.variants[v];
        let mut label = self.case_label(v, p);
        if self.variants.len() == 1 && !(variant.options.is_empty() && variant.set.is_empty()) {
            let name = format!("variant \"{}\"", variant.name);
            label = if label.is_empty() {
                name
            } else {
                format!("{name}, {label}")
            };
        }
        if label.is_empty() {
            format!("{} [game]", self.source)
        } else {
            format!("{} [game] ({label})", self.source)
        }
    }

    /// Builds the game of case (v, p) with the ruleset's builder. The builder sees the experiment
    /// file's path as its source (to find files relative to it); its errors about that source
    /// come back naming the case.
    pub fn build(&self, v: usize, p: usize) -> Result<Box<dyn GameModel>> {
        self.build_from(&self.table_at(v, p)?, self.case_source(v, p))
    }

    /// Builds a game from a `[game]` table of this experiment's (e.g. the first case's with
    /// some values changed); errors about the experiment file name `case` instead.
    pub fn build_from(&self, table: &Table, case: String) -> Result<Box<dyn GameModel>> {
        let fields = Fields::new(&case, table);
        let empty = Table::new();
        let options = Options::resolve(self.ruleset.options, fields.table("options", &empty)?)?;
        let rest = fields.table_without(&["ruleset", "options"]);
        let setup = GameSetup {
            source: &self.source,
            fields: Fields::new(&self.source, &rest),
            options,
        };
        let builder = self
            .ruleset
            .game
            .expect("checked when the experiment was loaded");
        builder(&setup).map_err(|e| match e {
            AleaError::Input {
                source,
                field,
                value,
                allowed,
            } if source == self.source => AleaError::Input {
                source: case,
                field,
                value,
                allowed,
            },
            AleaError::Invalid { source, message } if source == self.source => AleaError::Invalid {
                source: case,
                message,
            },
            other => other,
        })
    }

    /// The variant called `name`.
    pub fn find_variant(&self, source: &str, field: &str, name: &str) -> Result<usize> {
        self.variants
            .iter()
            .position(|v| v.name == name)
            .ok_or_else(|| {
                let names: Vec<String> = self
                    .variants
                    .iter()
                    .map(|v| format!("\"{}\"", v.name))
                    .collect();
                AleaError::input(
                    source,
                    field,
                    format!("\"{name}\""),
                    format!("one of the experiment's variants: {}", names.join(", ")),
                )
            })
    }

    /// What the games are of, for chart titles: the ruleset and the scenario file's stem.
    pub fn scenario_label(&self) -> String {
        match self.game.get("scenario").and_then(Value::as_str) {
            Some(s) => {
                let stem = Path::new(s)
                    .file_stem()
                    .and_then(|x| x.to_str())
                    .unwrap_or(s);
                format!("{} · {stem}", self.ruleset.title)
            }
            None => self.ruleset.title.to_string(),
        }
    }
}
