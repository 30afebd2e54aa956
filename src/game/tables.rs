//! The small tables of a game experiment, one row per case and player (or ending, or turn):
//!
//! - `summary.csv`: the case's key, `player`, `policy`, `games`, `win_rate`, `win_se`, `ci_low`,
//!   `ci_high` (95% Wilson), `mean_score`, `sd_score`, `min_score`, `max_score`, and the case's
//!   `mean_turns` and `sd_turns` (the same on each of its players' rows);
//! - `endings.csv`: the case's key, `ending`, `games` (of the case), `count`, `share`, `ci_low`,
//!   `ci_high` (95% Wilson);
//! - `turn-summary.csv`: the case's key, `turn`, `player`, `games_running` (games that played
//!   that turn), then `<metric>_mean` and `<metric>_sd` per turn metric over those games, and
//!   `global_<name>_mean` / `_sd` per global metric (the same on each player's row);
//! - `summary.json`: everything in summary.csv and endings.csv, plus the game-length histogram,
//!   the extras and each case's set-up, for scripts.

use super::experiment::GameExperiment;
use super::rows::Union;
use super::summary::CaseSummary;
use crate::battle::experiment::axis_value_text;
use crate::battle::sweep::{axis_cell, axis_type};
use crate::error::{AleaError, Result};
use crate::output::{write_atomic, Cell, ColType, OutputDir, TableWriter};
use serde_json::{json, Value as Json};

/// The columns that tell cases apart: `variant`, then with a sweep `point` and the swept fields.
pub fn key_columns(exp: &GameExperiment) -> Vec<(String, ColType)> {
    let mut cols = vec![("variant".to_string(), ColType::Str)];
    if !exp.axes.is_empty() {
        cols.push(("point".to_string(), ColType::Int));
        for axis in &exp.axes {
            cols.push((axis.field.clone(), axis_type(&axis.values)));
        }
    }
    cols
}

/// The key cells of case (v, p), matching [`key_columns`].
pub fn key_cells(exp: &GameExperiment, v: usize, p: usize) -> Vec<Cell> {
    let mut cells = vec![Cell::Str(exp.variants[v].name.clone())];
    if !exp.axes.is_empty() {
        cells.push(Cell::Int(p as i64));
        for (axis, value) in exp.axes.iter().zip(exp.point(p)) {
            cells.push(axis_cell(value, axis_type(&axis.values)));
        }
    }
    cells
}

/// A swept value as JSON: numbers and booleans as such, anything else as its text.
fn value_json(value: &toml::Value) -> Json {
    match value {
        toml::Value::Integer(i) => json!(i),
        toml::Value::Float(f) => json!(f),
        toml::Value::Boolean(b) => json!(b),
        other => json!(axis_value_text(other)),
    }
}

/// The swept fields of point `p` and their values, as JSON.
pub fn point_json(exp: &GameExperiment, p: usize) -> Json {
    let mut map = serde_json::Map::new();
    for (axis, value) in exp.axes.iter().zip(exp.point(p)) {
        map.insert(axis.field.clone(), value_json(value));
    }
    Json::Object(map)
}

fn float(x: f64) -> Cell {
    if x.is_finite() {
        Cell::Float(x)
    } else {
        Cell::Null
    }
}

fn columns(
    key: &[(String, ColType)],
    rest: impl IntoIterator<Item = (String, ColType)>,
) -> Vec<(String, ColType)> {
    key.iter().cloned().chain(rest).collect()
}

fn named(names: &[&str], t: ColType) -> Vec<(String, ColType)> {
    names.iter().map(|n| (n.to_string(), t)).collect()
}

/// Writes summary.csv, endings.csv, turn-summary.csv and summary.json; returns their names.
pub fn write_all(
    exp: &GameExperiment,
    cases: &[CaseSummary],
    union: &Union,
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let key = key_columns(exp);
    let mut summary = TableWriter::create(
        None,
        Some(&dir.path("summary.csv")),
        columns(
            &key,
            [
                ("player".to_string(), ColType::Str),
                ("policy".to_string(), ColType::Str),
                ("games".to_string(), ColType::Int),
            ]
            .into_iter()
            .chain(named(
                &[
                    "win_rate",
                    "win_se",
                    "ci_low",
                    "ci_high",
                    "mean_score",
                    "sd_score",
                    "min_score",
                    "max_score",
                    "mean_turns",
                    "sd_turns",
                ],
                ColType::Float,
            )),
        ),
    )?;
    let mut endings = TableWriter::create(
        None,
        Some(&dir.path("endings.csv")),
        columns(
            &key,
            [
                ("ending".to_string(), ColType::Str),
                ("games".to_string(), ColType::Int),
                ("count".to_string(), ColType::Int),
            ]
            .into_iter()
            .chain(named(&["share", "ci_low", "ci_high"], ColType::Float)),
        ),
    )?;
    let mut turn_cols = vec![
        ("turn".to_string(), ColType::Int),
        ("player".to_string(), ColType::Str),
        ("games_running".to_string(), ColType::Int),
    ];
    for m in &union.metrics {
        turn_cols.push((format!("{m}_mean"), ColType::Float));
        turn_cols.push((format!("{m}_sd"), ColType::Float));
    }
    for g in &union.globals {
        turn_cols.push((format!("global_{g}_mean"), ColType::Float));
        turn_cols.push((format!("global_{g}_sd"), ColType::Float));
    }
    let mut turns = TableWriter::create(
        None,
        Some(&dir.path("turn-summary.csv")),
        columns(&key, turn_cols),
    )?;
    for case in cases {
        let cells = key_cells(exp, case.variant, case.point);
        for p in &case.players {
            let mut row = cells.clone();
            row.extend([
                Cell::Str(p.name.clone()),
                Cell::Str(p.policy.clone()),
                Cell::Int(case.games as i64),
            ]);
            row.extend(
                [
                    p.win_rate,
                    p.win_se,
                    p.ci_low,
                    p.ci_high,
                    p.mean_score,
                    p.sd_score,
                    p.min_score,
                    p.max_score,
                    case.mean_turns,
                    case.sd_turns,
                ]
                .map(float),
            );
            summary.push(row)?;
        }
        for e in &case.endings {
            let mut row = cells.clone();
            row.extend([
                Cell::Str(e.name.clone()),
                Cell::Int(case.games as i64),
                Cell::Int(e.count as i64),
            ]);
            row.extend([e.share, e.ci_low, e.ci_high].map(float));
            endings.push(row)?;
        }
        let stats = &case.tally.turns;
        for turn in 1..=case.max_turns {
            let running = stats.running[turn as usize - 1];
            if running == 0 {
                break;
            }
            for (p, player) in case.players.iter().enumerate() {
                let mut row = cells.clone();
                row.extend([
                    Cell::Int(turn as i64),
                    Cell::Str(player.name.clone()),
                    Cell::Int(running as i64),
                ]);
                for m in &union.metrics {
                    match case.metrics.iter().position(|x| x == m) {
                        Some(k) => {
                            let (_, mean, sd) = stats.player_metric(turn, p, k);
                            row.extend([float(mean), float(sd)]);
                        }
                        None => row.extend([Cell::Null, Cell::Null]),
                    }
                }
                for g in &union.globals {
                    match case.globals.iter().position(|x| x == g) {
                        Some(k) => {
                            let (_, mean, sd) = stats.global_metric(turn, k);
                            row.extend([float(mean), float(sd)]);
                        }
                        None => row.extend([Cell::Null, Cell::Null]),
                    }
                }
                turns.push(row)?;
            }
        }
    }
    summary.finish()?;
    endings.finish()?;
    turns.finish()?;
    let text = serde_json::to_string_pretty(&summary_json(exp, cases))
        .map_err(|e| AleaError::Internal(e.to_string()))?;
    write_atomic(&dir.path("summary.json"), (text + "\n").as_bytes())?;
    Ok([
        "summary.csv",
        "endings.csv",
        "turn-summary.csv",
        "summary.json",
    ]
    .map(String::from)
    .to_vec())
}

/// summary.json: the experiment and every case. Nothing in it depends on the machine or the
/// thread count, so two runs with one seed give the same file.
pub fn summary_json(exp: &GameExperiment, cases: &[CaseSummary]) -> Json {
    json!({
        "alea_version": env!("CARGO_PKG_VERSION"),
        "experiment": exp.name,
        "title": exp.title,
        "description": exp.description,
        "experiment_file": exp.source,
        "experiment_sha256": exp.sha256,
        "ruleset": exp.ruleset.slug,
        "scenario": exp.scenario_label(),
        "seed": exp.seed,
        "policies": exp.policies_note(),
        "games_per_case": exp.games,
        "per_turn_rows": exp.per_turn_rows,
        "win_rate_ci": "95% Wilson score interval over the games (win_se: observed standard error of the mean win share)",
        "variants": exp.variants.iter().map(|v| v.name.clone()).collect::<Vec<_>>(),
        "axes": exp.axes.iter().map(|a| json!({
            "field": a.field,
            "values": a.values.iter().map(value_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "cases": cases.iter().map(|c| c.to_json(point_json(exp, c.point))).collect::<Vec<_>>(),
    })
}
