//! `alea ladder`: is the game one of skill? Rungs of play from weakest to strongest; for every pair
//! of rungs and every seat, the seat plays the higher rung against the lower rung everywhere else,
//! and its win share is compared with its share when it plays the lower rung like everyone else.
//!
//! ```toml
//! [ladder]
//! games = 2000                 # games per (pair of rungs, seat), and for each baseline
//!
//! [[ladder.rungs]]             # lowest first
//! name = "random"
//! policy = "random"            # every player plays this policy
//! [[ladder.rungs]]
//! name = "scripted"            # no policy: [game.policies] as the experiment writes it
//! [[ladder.rungs]]
//! name = "tuned"
//! policies_from = "experiments/tuned/mare-nostrum.toml"   # each player's policy from that file
//! [[ladder.rungs]]
//! name = "search"
//! policy = { policy = "search", budget = 32 }
//! rollout_from = "tuned"       # each player's rollouts play its policy on that rung
//! games = 200                  # optional: games per seat when this rung is the higher one
//! ```                          # (a search rung costs far more a game than the others)
//!
//! The treatment (seat on the higher rung) and the baseline (everyone on the lower rung) play the
//! same game seeds (common random numbers), so the ratio of win shares is estimated from paired
//! games; its 95% interval is the delta method's for a ratio of paired means. The row with
//! `seat = "all"` pools the seats: the sum over seats of their shares on the higher rung over the
//! sum of their baseline shares. Memory holds the baseline's win shares, 8 bytes a game and player.

use super::experiment::{read_policies_file, GameExperiment};
use super::run::{play_games, ChunkRows, GameSink};
use crate::charts::{draw_heatmap, Heatmap, HeatmapPanel};
use crate::error::{did_you_mean, AleaError, Result};
use crate::output::{tidy, write_atomic, Cell, ColType, OutputDir, TableWriter};
use crate::progress::Progress;
use crate::spec::value_text;
use crate::stats::normal_ci95;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::time::Instant;
use toml::{Table, Value};

const DEFAULT_GAMES: u64 = 2_000;
/// The most games per cell: the baseline's shares are held in memory.
pub const MAX_GAMES: u64 = 1_000_000;
/// The stream every ladder game plays on (common random numbers across every configuration).
pub const STREAM: u64 = (1 << 40) + (1 << 39);

/// One rung: the policy of every player.
#[derive(Clone, Debug)]
pub struct Rung {
    pub name: String,
    /// Per player (in the game's order): the policy value written into `[game.policies]`;
    /// `None` leaves the player to the ruleset's default policy.
    pub policies: Vec<Option<Value>>,
    /// Games per seat when this rung is the higher one (default: the ladder's `games`).
    pub games: Option<u64>,
}

pub struct LadderSpec {
    pub games: u64,
    pub rungs: Vec<Rung>,
    pub keys: Vec<String>,
}

fn ladder_error(
    exp: &GameExperiment,
    field: &str,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(&exp.source, format!("ladder.{field}"), value, allowed)
}

/// Player `key`'s policy in a `[game]`-like table: its own, else `default`.
fn own_policy(table: &Table, key: &str) -> Option<Value> {
    let policies = table.get("policies")?.as_table()?;
    policies
        .get(key)
        .or_else(|| policies.get("default"))
        .cloned()
}

impl LadderSpec {
    pub fn parse(exp: &GameExperiment) -> Result<LadderSpec> {
        let table = exp.ladder.clone().ok_or_else(|| {
            AleaError::invalid(&exp.source, "no [ladder] table: list the rungs, lowest first, as [[ladder.rungs]] (see `alea ladder --help`)")
        })?;
        for (k, v) in &table {
            if k != "games" && k != "rungs" {
                let hint = did_you_mean(k, ["games", "rungs"]);
                return Err(ladder_error(
                    exp,
                    k,
                    format!("{}{hint}", value_text(v)),
                    "games or rungs",
                ));
            }
        }
        let games = match table.get("games") {
            None => DEFAULT_GAMES,
            Some(Value::Integer(g)) if (1..=MAX_GAMES as i64).contains(g) => *g as u64,
            Some(v) => {
                return Err(ladder_error(
                    exp,
                    "games",
                    value_text(v),
                    format!("a whole number from 1 to {MAX_GAMES}"),
                ))
            }
        };
        let base = exp.table_at(0, 0)?;
        let model = exp.build(0, 0)?;
        let keys = model.policy_keys();
        let written: Vec<Option<Value>> = keys.iter().map(|k| own_policy(&base, k)).collect();
        let list = match table.get("rungs") {
            Some(Value::Array(a)) if a.len() >= 2 => a.clone(),
            other => {
                return Err(ladder_error(
                    exp,
                    "rungs",
                    other.map_or("nothing".into(), value_text),
                    "at least two [[ladder.rungs]], lowest first",
                ))
            }
        };
        let mut rungs: Vec<Rung> = Vec::new();
        for (i, r) in list.iter().enumerate() {
            let field = format!("rungs[{i}]");
            let Value::Table(t) = r else {
                return Err(ladder_error(exp, &field, value_text(r), "a table with `name` and optionally `policy`, `policies_from` or `rollout_from`"));
            };
            let allowed = ["name", "policy", "policies_from", "rollout_from", "games"];
            if let Some(k) = t.keys().find(|k| !allowed.contains(&k.as_str())) {
                let hint = did_you_mean(k, allowed);
                return Err(ladder_error(
                    exp,
                    &format!("{field}.{k}"),
                    format!("{}{hint}", value_text(&t[k])),
                    format!("one of {}", allowed.join(", ")),
                ));
            }
            let name = match t.get("name") {
                Some(Value::String(s)) if !s.is_empty() && !rungs.iter().any(|r| &r.name == s) => {
                    s.clone()
                }
                other => {
                    return Err(ladder_error(
                        exp,
                        &format!("{field}.name"),
                        other.map_or("nothing".into(), value_text),
                        "a name of its own, e.g. \"tuned\"",
                    ))
                }
            };
            let rung_games = match t.get("games") {
                None => None,
                Some(Value::Integer(g)) if (2..=MAX_GAMES as i64).contains(g) => Some(*g as u64),
                Some(v) => {
                    return Err(ladder_error(
                        exp,
                        &format!("{field}.games"),
                        value_text(v),
                        format!("a whole number from 2 to {MAX_GAMES}"),
                    ))
                }
            };
            let policies = match (t.get("policy"), t.get("policies_from"), t.get("rollout_from")) {
                (None, None, None) => written.clone(),
                (Some(p), None, None) => vec![Some(p.clone()); keys.len()],
                (None, Some(Value::String(path)), None) => {
                    let (file, _) = read_policies_file(&exp.source, &format!("ladder.{field}.policies_from"), path)?;
                    keys.iter().zip(&written).map(|(k, w)| own_policy(&file, k).or_else(|| w.clone())).collect()
                }
                (Some(Value::Table(p)), None, Some(Value::String(from))) => {
                    let Some(source) = rungs.iter().find(|r| &r.name == from) else {
                        let names: Vec<&str> = rungs.iter().map(|r| r.name.as_str()).collect();
                        return Err(ladder_error(exp, &format!("{field}.rollout_from"), format!("\"{from}\""), format!("a rung listed before this one: {}", names.join(", "))));
                    };
                    source
                        .policies
                        .iter()
                        .map(|rollout| {
                            let mut p = p.clone();
                            if let Some(r) = rollout {
                                p.insert("rollout".into(), r.clone());
                            }
                            Some(Value::Table(p))
                        })
                        .collect()
                }
                _ => {
                    return Err(ladder_error(exp, &field, value_text(r), "one of: nothing (the experiment's policies), `policy` (every player), `policies_from` (a tuned file), or `policy` as a table with `rollout_from` (a search rung)"))
                }
            };
            let rung = Rung {
                name,
                policies,
                games: rung_games,
            };
            // Every rung must build: a bad policy is an error naming the rung.
            let mut t = base.clone();
            set_policies(&mut t, &keys, &rung.policies, None);
            exp.build_from(
                &t,
                format!("{} [ladder] {field} (rung \"{}\")", exp.source, rung.name),
            )?;
            rungs.push(rung);
        }
        Ok(LadderSpec { games, rungs, keys })
    }
}

/// `[game.policies]` with every player on `lower`'s policy, except `seat.0` on `seat.1`.
fn set_policies(
    table: &mut Table,
    keys: &[String],
    lower: &[Option<Value>],
    seat: Option<(usize, &Option<Value>)>,
) {
    let mut policies = Table::new();
    for (p, key) in keys.iter().enumerate() {
        let v = match seat {
            Some((s, v)) if s == p => v,
            _ => &lower[p],
        };
        if let Some(v) = v {
            policies.insert(key.clone(), v.clone());
        }
    }
    table.insert("policies".into(), Value::Table(policies));
}

/// Keeps every game's win shares (all players), in game order.
pub struct Shares {
    pub players: usize,
    pub values: Vec<f64>,
}

impl GameSink for Shares {
    fn chunk(&mut self, rows: &ChunkRows) -> Result<()> {
        debug_assert_eq!(rows.win.len(), rows.games() * self.players);
        self.values.extend_from_slice(&rows.win);
        Ok(())
    }
}

/// Ratio of paired means x̄ / ȳ with its 95% delta-method interval.
pub fn paired_ratio(x: &[f64], y: &[f64]) -> (f64, f64, f64) {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    if my <= 0.0 || x.len() < 2 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let r = mx / my;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
        sxy += (a - mx) * (b - my);
    }
    let var = ((sxx - 2.0 * r * sxy + r * r * syy) / (n - 1.0)).max(0.0) / (n * my * my);
    let (low, high) = normal_ci95(r, var.sqrt());
    (r, low, high)
}

/// One row of ladder.csv.
#[derive(Clone, Debug)]
pub struct LadderRow {
    pub higher: String,
    pub lower: String,
    /// A player's key, or "all".
    pub seat: String,
    pub games: u64,
    pub win_share: f64,
    pub baseline_share: f64,
    pub ratio: (f64, f64, f64),
}

pub struct LadderSettings {
    pub out_root: PathBuf,
    pub show_progress: bool,
}

pub struct LadderResult {
    pub dir: PathBuf,
    pub files: Vec<String>,
    pub rows: Vec<LadderRow>,
    pub summary: Json,
    pub seconds: f64,
}

/// One batch of games the ladder plays: the baseline of a lower rung (everyone on it), or a seat
/// on a higher rung against that lower rung.
pub struct Play {
    pub lo: usize,
    pub role: Role,
    /// The `[game]` table it plays.
    pub table: Table,
    pub games: u64,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Baseline,
    Seat { hi: usize, seat: usize },
}

/// Every play of the ladder, in the order it is played (and numbered, for shards): for each lower
/// rung, its baseline, then every higher rung and seat.
pub fn plan(exp: &GameExperiment, spec: &LadderSpec) -> Result<Vec<Play>> {
    let base = exp.table_at(0, 0)?;
    let l = spec.rungs.len();
    // Games of the cells where `hi` is the higher rung, and of the baseline of rung `lo`: enough for
    // every cell above it; a cell pairs its games with the baseline's first ones (the same seeds).
    let cell = |hi: usize| spec.rungs[hi].games.unwrap_or(spec.games);
    let baseline_games = |lo: usize| (lo + 1..l).map(cell).max().unwrap_or(spec.games);
    let mut plays = Vec::new();
    for lo in 0..l - 1 {
        let lower = &spec.rungs[lo];
        let mut table = base.clone();
        set_policies(&mut table, &spec.keys, &lower.policies, None);
        plays.push(Play {
            lo,
            role: Role::Baseline,
            table,
            games: baseline_games(lo),
            message: format!("baseline: everyone {}", lower.name),
        });
        for (hi, higher) in spec.rungs.iter().enumerate().skip(lo + 1) {
            for (seat, key) in spec.keys.iter().enumerate() {
                let mut table = base.clone();
                set_policies(
                    &mut table,
                    &spec.keys,
                    &lower.policies,
                    Some((seat, &higher.policies[seat])),
                );
                plays.push(Play {
                    lo,
                    role: Role::Seat { hi, seat },
                    table,
                    games: cell(hi),
                    message: format!("{key}: {} against {}", higher.name, lower.name),
                });
            }
        }
    }
    Ok(plays)
}

/// Where the ladder's games come from: played here, or read back from the shards that played them
/// ([`crate::shard::ladder`]). Plays are asked for in plan order.
pub trait LadderSource {
    /// Every game's win shares (all players, game after game) of play `index` of the plan.
    fn play(
        &mut self,
        exp: &GameExperiment,
        index: usize,
        play: &Play,
        players: usize,
        progress: &Progress,
    ) -> Result<Vec<f64>>;

    /// Called once every play is done (a merge checks that no shard holds more).
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Every game played here, now.
pub struct PlayHere;

impl LadderSource for PlayHere {
    fn play(
        &mut self,
        exp: &GameExperiment,
        _index: usize,
        play: &Play,
        players: usize,
        progress: &Progress,
    ) -> Result<Vec<f64>> {
        let model = exp.build_from(&play.table, exp.case_source(0, 0))?;
        let mut sink = Shares {
            players,
            values: Vec::with_capacity(play.games as usize * players),
        };
        play_games(
            model.as_ref(),
            play.games,
            exp.seed,
            STREAM,
            progress,
            &mut sink,
        )?;
        Ok(sink.values)
    }
}

/// Plays the ladder and writes `out/<name>/`: ladder.csv (and .parquet), the matrix chart
/// ladder-matrix and summary.json, committed together.
pub fn ladder(exp: &GameExperiment, settings: &LadderSettings) -> Result<LadderResult> {
    ladder_from(exp, settings, &mut PlayHere)
}

/// [`ladder`] with the games taken from `source`.
pub fn ladder_from(
    exp: &GameExperiment,
    settings: &LadderSettings,
    source: &mut dyn LadderSource,
) -> Result<LadderResult> {
    let started = Instant::now();
    let spec = LadderSpec::parse(exp)?;
    let plays = plan(exp, &spec)?;
    let dir = OutputDir::create(&settings.out_root, &exp.name)?;
    let players = spec.keys.len();
    let total: u64 = plays.iter().map(|p| p.games).sum();
    let progress = Progress::new(total, "games", settings.show_progress);
    let mut rows = Vec::new();
    let mut baseline = Vec::new();
    let (mut pooled_x, mut pooled_y) = (Vec::new(), Vec::new());
    for (i, play) in plays.iter().enumerate() {
        progress.set_message(play.message.clone());
        let shares = source.play(exp, i, play, players, &progress)?;
        let Role::Seat { hi, seat: s } = play.role else {
            baseline = shares;
            continue;
        };
        let (lower, higher) = (&spec.rungs[play.lo], &spec.rungs[hi]);
        let n = play.games;
        if s == 0 {
            pooled_x = vec![0.0; n as usize];
            pooled_y = vec![0.0; n as usize];
        }
        let x: Vec<f64> = shares.chunks_exact(players).map(|g| g[s]).collect();
        let y: Vec<f64> = baseline
            .chunks_exact(players)
            .take(n as usize)
            .map(|g| g[s])
            .collect();
        for g in 0..n as usize {
            pooled_x[g] += x[g];
            pooled_y[g] += y[g];
        }
        rows.push(LadderRow {
            higher: higher.name.clone(),
            lower: lower.name.clone(),
            seat: spec.keys[s].clone(),
            games: n,
            win_share: x.iter().sum::<f64>() / n as f64,
            baseline_share: y.iter().sum::<f64>() / n as f64,
            ratio: paired_ratio(&x, &y),
        });
        if s + 1 == players {
            rows.push(LadderRow {
                higher: higher.name.clone(),
                lower: lower.name.clone(),
                seat: "all".into(),
                games: n * players as u64,
                win_share: pooled_x.iter().sum::<f64>() / (n * players as u64) as f64,
                baseline_share: pooled_y.iter().sum::<f64>() / (n * players as u64) as f64,
                ratio: paired_ratio(&pooled_x, &pooled_y),
            });
        }
    }
    progress.finish();
    source.finish()?;
    let files = write_outputs(exp, &spec, &rows, &dir)?;
    let seconds = started.elapsed().as_secs_f64();
    let summary = summary_json(exp, &spec, &rows);
    let (path, files) = exp.commit_with_manifest(dir, files, total, seconds)?;
    Ok(LadderResult {
        dir: path,
        files,
        rows,
        summary,
        seconds,
    })
}

fn summary_json(exp: &GameExperiment, spec: &LadderSpec, rows: &[LadderRow]) -> Json {
    let pairs: Vec<Json> = rows
        .iter()
        .filter(|r| r.seat == "all")
        .map(|r| {
            json!({
                "higher": r.higher, "lower": r.lower,
                "win_share": tidy(r.win_share), "baseline_share": tidy(r.baseline_share),
                "ratio": tidy(r.ratio.0), "ci_low": tidy(r.ratio.1), "ci_high": tidy(r.ratio.2),
                "higher_beats_lower": r.ratio.1 > 1.0,
            })
        })
        .collect();
    let all_beat = rows
        .iter()
        .filter(|r| r.seat == "all")
        .all(|r| r.ratio.1 > 1.0);
    json!({
        "experiment": exp.name,
        "game": exp.scenario_label(),
        "seed": exp.seed,
        "games_per_cell": spec.games,
        "rungs": spec.rungs.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        "every_higher_rung_beats_every_lower": all_beat,
        "pairs": pairs,
    })
}

fn write_outputs(
    exp: &GameExperiment,
    spec: &LadderSpec,
    rows: &[LadderRow],
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let columns: Vec<(String, ColType)> = [
        ("game", ColType::Str),
        ("higher_rung", ColType::Str),
        ("lower_rung", ColType::Str),
        ("seat", ColType::Str),
        ("games", ColType::Int),
        ("win_share", ColType::Float),
        ("baseline_share", ColType::Float),
        ("ratio", ColType::Float),
        ("ci_low", ColType::Float),
        ("ci_high", ColType::Float),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_string(), t))
    .collect();
    let mut writer = TableWriter::create(
        Some(&dir.path("ladder.parquet")),
        Some(&dir.path("ladder.csv")),
        columns,
    )?;
    let game = exp.scenario_label();
    for r in rows {
        writer.push(vec![
            Cell::Str(game.clone()),
            Cell::Str(r.higher.clone()),
            Cell::Str(r.lower.clone()),
            Cell::Str(r.seat.clone()),
            Cell::Int(r.games as i64),
            Cell::Float(tidy(r.win_share)),
            Cell::Float(tidy(r.baseline_share)),
            Cell::Float(tidy(r.ratio.0)),
            Cell::Float(tidy(r.ratio.1)),
            Cell::Float(tidy(r.ratio.2)),
        ])?;
    }
    writer.finish()?;
    let mut files = vec!["ladder.csv".to_string(), "ladder.parquet".to_string()];
    let names: Vec<String> = spec.rungs.iter().map(|r| r.name.clone()).collect();
    let l = names.len();
    let mut values = vec![vec![f64::NAN; l]; l];
    let mut top: f64 = 2.0;
    for r in rows.iter().filter(|r| r.seat == "all") {
        let hi = names.iter().position(|n| *n == r.higher).expect("a rung");
        let lo = names.iter().position(|n| *n == r.lower).expect("a rung");
        values[hi][lo] = r.ratio.0;
        if r.ratio.0.is_finite() {
            top = top.max(r.ratio.0);
        }
    }
    let map = Heatmap {
        title: format!(
            "{}: skill ladder (win-share ratio, all seats pooled)",
            exp.scenario_label()
        ),
        x_label: "lower rung (everyone else)".into(),
        y_label: "higher rung (one seat)".into(),
        value_label: "win share ÷ baseline share".into(),
        x_values: (0..l).map(|i| i as f64).collect(),
        y_values: (0..l).map(|i| i as f64).collect(),
        panels: vec![HeatmapPanel {
            title: format!(
                "{} games per seat and pair (a rung may set its own); > 1: the higher rung wins more (95% CIs in ladder.csv)",
                spec.games
            ),
            values,
        }],
        value_range: (0.0, top),
        x_tick_labels: Some(names.clone()),
        y_tick_labels: Some(names),
    };
    let drawn = draw_heatmap(&map, &dir.path("ladder-matrix"))
        .map_err(|e| AleaError::Internal(format!("drawing ladder-matrix: {e}")))?;
    files.extend(
        drawn
            .iter()
            .filter_map(|p| p.file_name().and_then(|f| f.to_str()).map(String::from)),
    );
    let summary = summary_json(exp, spec, rows);
    let text =
        serde_json::to_string_pretty(&summary).map_err(|e| AleaError::Internal(e.to_string()))?;
    write_atomic(&dir.path("summary.json"), (text + "\n").as_bytes())?;
    files.push("summary.json".into());
    Ok(files)
}
