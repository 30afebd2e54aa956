//! What `alea tune` writes: tuned-policies.toml (with its `[tuning]` table), tuning.csv and
//! .parquet, the chart tuning-rounds and summary.json.

use super::super::experiment::{merge_dotted, GameExperiment};
use super::spec::{policy_value, read_values, values_label, ConvergeOn, TuneSpec};
use super::SeatRound;
use crate::charts::{draw_line_chart, LineChart, Point, Series};
use crate::error::{AleaError, Result};
use crate::output::{tidy, write_atomic, Cell, ColType, OutputDir, TableWriter};
use serde_json::{json, Value as Json};
use toml::{Table, Value};

fn converge_label(spec: &TuneSpec) -> &'static str {
    match spec.converge_on {
        ConvergeOn::Estimate => "estimate",
        ConvergeOn::Upper => "upper",
    }
}

/// The rounds that judge the result: the last, and with a converged `ends` tune the round before
/// it too (convergence is a sampled and an ends round in a row within the margin).
fn judging_rounds(spec: &TuneSpec, history: &[SeatRound], converged: bool) -> (usize, usize) {
    let last = history.last().map_or(0, |r| r.round);
    let first = if converged && spec.ends && last > 1 {
        last - 1
    } else {
        last
    };
    (first, last)
}

/// The judging rounds' largest gain: how much a single seat could still win by deviating.
fn largest_gain<'a>(
    spec: &TuneSpec,
    history: &'a [SeatRound],
    converged: bool,
) -> Option<&'a SeatRound> {
    let (first, last) = judging_rounds(spec, history, converged);
    history
        .iter()
        .filter(|r| (first..=last).contains(&r.round))
        .max_by(|a, b| a.gain.0.total_cmp(&b.gain.0))
}

/// Whether an ends round within the margin confirmed the final table (a converged `ends` tune),
/// or, short of convergence, whether the last round was an ends round.
fn ends_checked(spec: &TuneSpec, history: &[SeatRound], converged: bool) -> bool {
    if converged {
        spec.ends
    } else {
        history.last().is_some_and(|r| r.search == "ends")
    }
}

pub(super) fn summary_json(
    exp: &GameExperiment,
    spec: &TuneSpec,
    table: &Table,
    history: &[SeatRound],
    converged: bool,
) -> Json {
    let largest = largest_gain(spec, history, converged);
    let judged = judging_rounds(spec, history, converged);
    let rounds = history.last().map_or(0, |r| r.round);
    let seats: Vec<Json> = spec
        .seats
        .iter()
        .map(|seat| {
            let values = read_values(table, seat);
            let latest = history.iter().rev().find(|r| r.seat == seat.name);
            json!({
                "seat": seat.name,
                "objective": seat.objective.label(),
                "policy": values_label(seat, &values),
                "value": latest.map(|r| tidy(r.objective.0)),
                "ci_low": latest.map(|r| tidy(r.objective.1)),
                "ci_high": latest.map(|r| tidy(r.objective.2)),
            })
        })
        .collect();
    json!({
        "experiment": exp.name,
        "seed": exp.seed,
        "rounds_played": rounds,
        "rounds_allowed": spec.rounds,
        "converged": converged,
        "margin": spec.margin,
        "converge_on": converge_label(spec),
        "step": spec.step,
        "games_per_candidate": spec.games,
        "validation_games": spec.validation,
        "candidates": spec.candidates,
        "ends_checked": ends_checked(spec, history, converged),
        "largest_gain": largest.map(|r| json!({
            "seat": r.seat, "round": r.round, "gain": tidy(r.gain.0), "ci_low": tidy(r.gain.1), "ci_high": tidy(r.gain.2),
        })),
        "judging_rounds": [judged.0, judged.1],
        "seats": seats,
    })
}

/// The `[game]` tables the tuned seats changed, as a policies file.
fn tuned_file(
    exp: &GameExperiment,
    spec: &TuneSpec,
    table: &Table,
    history: &[SeatRound],
    converged: bool,
) -> String {
    let mut out = Table::new();
    for seat in &spec.seats {
        let values = read_values(table, seat);
        match &seat.policy {
            Some(_) => {
                let policy = policy_value(table, &seat.name)
                    .cloned()
                    .unwrap_or(Value::Table(Table::new()));
                let _ = merge_dotted(&mut out, &format!("policies.{}", seat.name), policy);
            }
            None => {
                for (dim, v) in seat.dims.iter().zip(&values) {
                    if let Some(x) = v {
                        let value = if dim.whole {
                            Value::Integer(x.round() as i64)
                        } else {
                            Value::Float(tidy(*x))
                        };
                        let _ = merge_dotted(&mut out, &dim.path, value);
                    }
                }
            }
        }
    }
    let gain = largest_gain(spec, history, converged)
        .map(|r| {
            format!(
                "{} (seat {}, 95% CI {} to {})",
                tidy(r.gain.0),
                r.seat,
                tidy(r.gain.1),
                tidy(r.gain.2)
            )
        })
        .unwrap_or_default();
    let mut tuning = Table::new();
    tuning.insert("experiment".into(), Value::String(exp.source.clone()));
    tuning.insert("seed".into(), Value::Integer(exp.seed as i64));
    let rounds = history.last().map_or(0, |r| r.round);
    tuning.insert("rounds".into(), Value::Integer(rounds as i64));
    tuning.insert("converged".into(), Value::Boolean(converged));
    tuning.insert("margin".into(), Value::Float(spec.margin));
    tuning.insert("validation".into(), Value::Integer(spec.validation as i64));
    tuning.insert(
        "converge_on".into(),
        Value::String(converge_label(spec).into()),
    );
    tuning.insert("step".into(), Value::Float(spec.step));
    let ends_checked = ends_checked(spec, history, converged);
    tuning.insert("ends".into(), Value::Boolean(spec.ends));
    tuning.insert("ends_checked".into(), Value::Boolean(ends_checked));
    if let Some(r) = largest_gain(spec, history, converged) {
        let objective = spec
            .seats
            .iter()
            .find(|s| s.name == r.seat)
            .map(|s| s.objective.label());
        tuning.insert(
            "objective".into(),
            Value::String(objective.unwrap_or_default()),
        );
        tuning.insert("largest_gain".into(), Value::Float(tidy(r.gain.0)));
        tuning.insert("largest_gain_seat".into(), Value::String(r.seat.clone()));
        tuning.insert(
            "largest_gain_ci".into(),
            Value::Array(vec![
                Value::Float(tidy(r.gain.1)),
                Value::Float(tidy(r.gain.2)),
            ]),
        );
    }
    out.insert(
        super::super::experiment::TUNING.into(),
        Value::Table(tuning),
    );
    let last_round = match (converged && spec.ends, ends_checked) {
        (true, _) => "the last two rounds (sampled and local candidates; each number at both ends of its range, one at a time)",
        (false, true) => "the last round (each number at both ends of its range, one at a time)",
        (false, false) => "the last round",
    };
    format!(
        "# Tuned by `alea tune {}` (seed {}): {} round(s), {}; margin {} (gains measured on {} fresh games).\n# Largest gain a single seat still found in {last_round}: {gain}.\n# Load with [game] policies_from = \"<this file>\".\n{}",
        exp.source,
        exp.seed,
        history.last().map_or(0, |r| r.round),
        if converged { "converged" } else { "NOT converged (more rounds, games or candidates may help)" },
        spec.margin,
        spec.validation,
        toml::to_string(&out).unwrap_or_default()
    )
}

pub(super) fn write_outputs(
    exp: &GameExperiment,
    spec: &TuneSpec,
    table: &Table,
    history: &[SeatRound],
    converged: bool,
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    write_atomic(
        &dir.path("tuned-policies.toml"),
        tuned_file(exp, spec, table, history, converged).as_bytes(),
    )?;
    files.push("tuned-policies.toml".to_string());
    let columns: Vec<(String, ColType)> = [
        ("round", ColType::Int),
        ("seat", ColType::Str),
        ("policy", ColType::Str),
        ("objective", ColType::Float),
        ("ci_low", ColType::Float),
        ("ci_high", ColType::Float),
        ("incumbent_objective", ColType::Float),
        ("gain", ColType::Float),
        ("gain_ci_low", ColType::Float),
        ("gain_ci_high", ColType::Float),
        ("move_gain", ColType::Float),
        ("move_gain_ci_low", ColType::Float),
        ("adopted", ColType::Int),
        ("games", ColType::Int),
        ("search", ColType::Str),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_string(), t))
    .collect();
    let mut writer = TableWriter::create(
        Some(&dir.path("tuning.parquet")),
        Some(&dir.path("tuning.csv")),
        columns,
    )?;
    for r in history {
        writer.push(vec![
            Cell::Int(r.round as i64),
            Cell::Str(r.seat.clone()),
            Cell::Str(r.label.clone()),
            Cell::Float(tidy(r.objective.0)),
            Cell::Float(tidy(r.objective.1)),
            Cell::Float(tidy(r.objective.2)),
            Cell::Float(tidy(r.incumbent_objective)),
            Cell::Float(tidy(r.gain.0)),
            Cell::Float(tidy(r.gain.1)),
            Cell::Float(tidy(r.gain.2)),
            Cell::Float(tidy(r.move_gain.0)),
            Cell::Float(tidy(r.move_gain.1)),
            Cell::Int(r.adopted as i64),
            Cell::Int(r.games as i64),
            Cell::Str(r.search.to_string()),
        ])?;
    }
    writer.finish()?;
    files.extend(["tuning.csv".to_string(), "tuning.parquet".to_string()]);
    let series: Vec<Series> = spec
        .seats
        .iter()
        .map(|seat| Series {
            name: format!("{} ({})", seat.name, seat.objective.label()),
            points: history
                .iter()
                .filter(|r| r.seat == seat.name)
                .map(|r| {
                    Point::with_ci(r.round as f64, r.objective.0, r.objective.1, r.objective.2)
                })
                .collect(),
        })
        .collect();
    let chart = LineChart {
        title: format!(
            "{}: each seat's objective, round by round",
            exp.scenario_label()
        ),
        subtitle: Some(format!(
            "iterated best response; 95% CIs over {} validation games; {}",
            spec.validation,
            if converged {
                format!("converged: no seat gains more than {}", spec.margin)
            } else {
                "not converged".into()
            }
        )),
        x_label: "best-response round".into(),
        // One objective for every seat names itself; mixed ones are named in the legend.
        y_label: match spec
            .seats
            .iter()
            .map(|s| s.objective.label())
            .collect::<Vec<_>>()
        {
            labels if labels.iter().all(|l| *l == labels[0]) => labels[0].clone(),
            _ => "each seat's objective (see the legend)".into(),
        },
        series,
        y_range: None,
        legend_outside: spec.seats.len() > 6,
    };
    let drawn = draw_line_chart(&chart, &dir.path("tuning-rounds"))
        .map_err(|e| AleaError::Internal(format!("drawing tuning-rounds: {e}")))?;
    files.extend(
        drawn
            .iter()
            .filter_map(|p| p.file_name().and_then(|f| f.to_str()).map(String::from)),
    );
    let summary = summary_json(exp, spec, table, history, converged);
    let text =
        serde_json::to_string_pretty(&summary).map_err(|e| AleaError::Internal(e.to_string()))?;
    write_atomic(&dir.path("summary.json"), (text + "\n").as_bytes())?;
    files.push("summary.json".into());
    Ok(files)
}
