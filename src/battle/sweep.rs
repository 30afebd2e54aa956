//! Running an experiment: every point of the grid under every variant, exact or simulated, streamed
//! to `results.parquet`, `summary.csv` and `distributions.parquet`, then charted.

use crate::battle::experiment::{axis_value_text, Experiment, MethodChoice};
use crate::battle::McRun;
use crate::battle::{side_column, Estimates, Method, LOSSES};
use crate::error::{AleaError, Result};
use crate::output::{Cell, ColType, OutputDir, TableWriter};
use crate::progress::Progress;
use crate::rulesets::LoadedBattle;
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use toml::Value;

/// Points computed together before their rows are written.
const CHUNK_POINTS: usize = 512;

pub struct RunSettings {
    pub out_root: PathBuf,
    pub show_progress: bool,
}

/// What the charts need of each (variant, point): kept in memory, a few numbers per point.
#[derive(Clone, Debug, Default)]
pub struct PointSummary {
    /// Probability of each outcome, with its standard error (0 for exact).
    pub outcomes: Vec<(f64, f64)>,
    /// Each side's expected losses with their standard error, in the order of the ruleset's
    /// `sides` (`None` when the battle does not count that side's losses).
    pub losses: Vec<Option<(f64, f64)>>,
    /// Each side's loss distribution (empty when not counted), kept only for experiments without
    /// a sweep.
    pub loss_pmfs: Vec<Vec<f64>>,
    pub method: Option<Method>,
}

pub struct RunResult {
    pub dir: PathBuf,
    pub points: usize,
    pub exact_points: usize,
    pub simulated_points: usize,
    pub seconds: f64,
    pub files: Vec<String>,
    pub manifest: serde_json::Value,
}

fn column_name(schema_name: &str) -> String {
    schema_name.replace('/', ".")
}

/// The columns of `results.parquet`, from the schemas of every point (so batches share one schema).
struct Columns {
    axis_types: Vec<ColType>,
    outcomes: Vec<String>,
    counts: Vec<String>,
    scalars: Vec<String>,
}

impl Columns {
    fn add(list: &mut Vec<String>, name: &str) {
        if !list.iter().any(|n| n == name) {
            list.push(name.to_string());
        }
    }

    fn axis_columns(&self, exp: &Experiment) -> Vec<(String, ColType)> {
        let mut cols = vec![("variant".to_string(), ColType::Str)];
        for (axis, t) in exp.axes.iter().zip(&self.axis_types) {
            cols.push((axis.field.clone(), *t));
        }
        cols
    }

    /// The key, the method and the outcome probabilities: the head of both results and summary.
    fn outcome_columns(&self, exp: &Experiment) -> Vec<(String, ColType)> {
        let mut cols = self.axis_columns(exp);
        cols.push(("method".into(), ColType::Str));
        cols.push(("trials".into(), ColType::Int));
        for o in &self.outcomes {
            cols.push((format!("p_{o}"), ColType::Float));
            cols.push((format!("se_p_{o}"), ColType::Float));
        }
        cols
    }

    fn results(&self, exp: &Experiment) -> Vec<(String, ColType)> {
        let mut cols = self.outcome_columns(exp);
        for c in &self.counts {
            cols.push((format!("{}.mean", column_name(c)), ColType::Float));
            cols.push((format!("{}.mean_se", column_name(c)), ColType::Float));
        }
        for s in &self.scalars {
            cols.push((column_name(s), ColType::Float));
            cols.push((format!("{}_se", column_name(s)), ColType::Float));
        }
        cols
    }

    /// Each side's losses that some point of the experiment counts, in the ruleset's order.
    fn side_losses(&self, exp: &Experiment) -> Vec<String> {
        exp.ruleset
            .sides
            .iter()
            .map(|side| side_column(side, LOSSES))
            .filter(|c| self.counts.contains(c))
            .collect()
    }

    fn summary(&self, exp: &Experiment) -> Vec<(String, ColType)> {
        let mut cols = self.outcome_columns(exp);
        for c in self.side_losses(exp) {
            cols.push((format!("{c}.mean"), ColType::Float));
        }
        cols
    }

    fn distributions(&self, exp: &Experiment) -> Vec<(String, ColType)> {
        let mut cols = self.axis_columns(exp);
        cols.push(("quantity".into(), ColType::Str));
        cols.push(("value".into(), ColType::Int));
        cols.push(("probability".into(), ColType::Float));
        cols.push(("standard_error".into(), ColType::Float));
        cols
    }
}

/// The column type of a sweep axis: whole numbers, numbers, or text.
pub fn axis_type(values: &[Value]) -> ColType {
    if values.iter().all(|v| v.is_integer()) {
        ColType::Int
    } else if values.iter().all(|v| v.is_integer() || v.is_float()) {
        ColType::Float
    } else {
        ColType::Str
    }
}

/// One axis value as a cell of its column type.
pub fn axis_cell(v: &Value, t: ColType) -> Cell {
    match (v, t) {
        (Value::Integer(i), ColType::Int) => Cell::Int(*i),
        (Value::Integer(i), ColType::Float) => Cell::Float(*i as f64),
        (Value::Float(f), ColType::Float) => Cell::Float(*f),
        (other, _) => Cell::Str(axis_value_text(other)),
    }
}

/// Checks every point of the experiment and collects the union of their schemas.
pub(crate) fn validate(exp: &Experiment) -> Result<()> {
    columns(exp).map(|_| ())
}

fn columns(exp: &Experiment) -> Result<Columns> {
    let mut cols = Columns {
        axis_types: exp.axes.iter().map(|a| axis_type(&a.values)).collect(),
        outcomes: Vec::new(),
        counts: Vec::new(),
        scalars: Vec::new(),
    };
    for variant in &exp.variants {
        for p in 0..exp.grid_len() {
            let loaded = exp.load_point(variant, &exp.point(p))?;
            let schema = loaded.model.schema();
            schema
                .outcomes
                .iter()
                .for_each(|n| Columns::add(&mut cols.outcomes, n));
            schema
                .counts
                .iter()
                .for_each(|c| Columns::add(&mut cols.counts, &c.name));
            schema
                .scalars
                .iter()
                .for_each(|n| Columns::add(&mut cols.scalars, n));
        }
    }
    Ok(cols)
}

/// Answers one point: exact when asked or tractable, else Monte Carlo on stream `point`.
pub(crate) fn solve(
    exp: &Experiment,
    loaded: &LoadedBattle,
    point: usize,
    progress: &Progress,
) -> Result<Estimates> {
    let simulate = |progress: &Progress| {
        let run = McRun {
            trials: exp.trials,
            seed: exp.seed,
            stream: point as u64,
            progress,
        };
        Estimates::from_tally(&loaded.model.monte_carlo(&run))
    };
    match exp.method {
        MethodChoice::MonteCarlo => Ok(simulate(progress)),
        MethodChoice::Exact => loaded
            .model
            .exact_patiently(false)
            .map(|e| Estimates::from_exact(&e))
            .map_err(|why| {
                AleaError::invalid(
                    &exp.source,
                    format!(
                        "method = \"exact\" but {}: {}",
                        exp.point_source(&exp.variants[0], &exp.point(point)),
                        why.0
                    ),
                )
            }),
        MethodChoice::Auto => Ok(match loaded.model.exact() {
            Ok(e) => Estimates::from_exact(&e),
            Err(_) => simulate(&Progress::hidden()),
        }),
    }
}

fn summarize(loaded: &LoadedBattle, e: &Estimates, keep_pmfs: bool) -> PointSummary {
    let losses = loaded.model.schema().side_losses(loaded.ruleset.sides);
    PointSummary {
        outcomes: e
            .outcomes
            .iter()
            .map(|x| (x.value, x.se.unwrap_or(0.0)))
            .collect(),
        losses: losses
            .iter()
            .map(|k| k.map(|k| (e.counts[k].mean.value, e.counts[k].mean.se.unwrap_or(0.0))))
            .collect(),
        loss_pmfs: losses
            .iter()
            .map(|k| {
                k.filter(|_| keep_pmfs)
                    .map(|k| loss_pmf(e, k))
                    .unwrap_or_default()
            })
            .collect(),
        method: Some(e.method),
    }
}

/// The probabilities of a count's distribution.
pub fn loss_pmf(e: &Estimates, k: usize) -> Vec<f64> {
    e.counts[k].pmf.iter().map(|x| x.value).collect()
}

struct Writers {
    results: TableWriter,
    summary: TableWriter,
    distributions: TableWriter,
}

impl Writers {
    fn write_point(
        &mut self,
        exp: &Experiment,
        cols: &Columns,
        v: usize,
        p: usize,
        loaded: &LoadedBattle,
        e: &Estimates,
    ) -> Result<()> {
        let schema = loaded.model.schema();
        let mut key = vec![Cell::Str(exp.variants[v].name.clone())];
        for ((value, t), _) in exp
            .point(p)
            .into_iter()
            .zip(&cols.axis_types)
            .zip(&exp.axes)
        {
            key.push(axis_cell(value, *t));
        }
        let se = |x: &crate::battle::Est| Cell::Float(x.se.unwrap_or(0.0));
        let mut head = key.clone();
        head.push(Cell::Str(e.method.as_str().into()));
        head.push(e.trials.map_or(Cell::Null, |t| Cell::Int(t as i64)));
        let mut outcome_cells = Vec::new();
        for o in &cols.outcomes {
            match schema.outcome_index(o) {
                Some(i) => {
                    outcome_cells.extend([Cell::Float(e.outcomes[i].value), se(&e.outcomes[i])])
                }
                None => outcome_cells.extend([Cell::Null, Cell::Null]),
            }
        }
        let mut row = head.clone();
        row.extend(outcome_cells.iter().cloned());
        for c in &cols.counts {
            match schema.count_index(c) {
                Some(k) => row.extend([Cell::Float(e.counts[k].mean.value), se(&e.counts[k].mean)]),
                None => row.extend([Cell::Null, Cell::Null]),
            }
        }
        for s in &cols.scalars {
            match schema.scalar_index(s) {
                Some(k) => row.extend([Cell::Float(e.scalars[k].value), se(&e.scalars[k])]),
                None => row.extend([Cell::Null, Cell::Null]),
            }
        }
        self.results.push(row)?;
        let mut summary = head;
        summary.extend(outcome_cells);
        for c in cols.side_losses(exp) {
            summary.push(
                schema
                    .count_index(&c)
                    .map_or(Cell::Null, |k| Cell::Float(e.counts[k].mean.value)),
            );
        }
        self.summary.push(summary)?;
        for (k, spec) in schema.counts.iter().enumerate() {
            for (value, x) in e.counts[k].pmf.iter().enumerate() {
                if x.value == 0.0 {
                    continue;
                }
                let mut r = key.clone();
                r.push(Cell::Str(spec.name.clone()));
                r.push(Cell::Int(value as i64));
                r.push(Cell::Float(x.value));
                r.push(x.se.map_or(Cell::Null, Cell::Float));
                self.distributions.push(r)?;
            }
        }
        Ok(())
    }
}

/// Answers computed elsewhere: a merge reads each point's answer back from the shards that
/// computed it ([`crate::shard::battle`]).
pub trait StoredAnswers {
    /// The answer of point `point` of variant `variant` (loaded as `loaded`).
    fn answer(
        &mut self,
        exp: &Experiment,
        variant: usize,
        point: usize,
        loaded: &LoadedBattle,
    ) -> Result<Estimates>;
    /// Called once every point is answered (a merge checks that no shard holds more).
    fn finish(&mut self) -> Result<()>;
}

pub fn run(exp: &Experiment, settings: &RunSettings) -> Result<RunResult> {
    run_from(exp, settings, None)
}

/// [`run`], with every point's answer taken from `stored` when given instead of computed.
pub fn run_from(
    exp: &Experiment,
    settings: &RunSettings,
    mut stored: Option<&mut dyn StoredAnswers>,
) -> Result<RunResult> {
    let started = Instant::now();
    let cols = columns(exp)?;
    let dir = OutputDir::create(&settings.out_root, &exp.name)?;
    let mut writers = Writers {
        results: TableWriter::create(Some(&dir.path("results.parquet")), None, cols.results(exp))?,
        summary: TableWriter::create(None, Some(&dir.path("summary.csv")), cols.summary(exp))?,
        distributions: TableWriter::create(
            Some(&dir.path("distributions.parquet")),
            None,
            cols.distributions(exp),
        )?,
    };
    let grid = exp.grid_len();
    let total_points = grid * exp.variants.len();
    let simulate_all = exp.method == MethodChoice::MonteCarlo;
    let progress = if simulate_all {
        Progress::new(
            total_points as u64 * exp.trials,
            "battles",
            settings.show_progress,
        )
    } else {
        Progress::new(total_points as u64, "points", settings.show_progress)
    };
    let keep_pmfs = exp.axes.is_empty();
    let mut summaries = vec![PointSummary::default(); total_points];
    let (mut exact_points, mut simulated_points) = (0, 0);
    for (v, variant) in exp.variants.iter().enumerate() {
        progress.set_message(variant.name.clone());
        let mut first = 0;
        while first < grid {
            let last = (first + CHUNK_POINTS).min(grid);
            let compute = |p: usize| -> Result<(LoadedBattle, Estimates)> {
                let loaded = exp.load_point(variant, &exp.point(p))?;
                let e = solve(exp, &loaded, p, &progress)?;
                if !simulate_all {
                    progress.inc(1);
                }
                Ok((loaded, e))
            };
            // Simulation parallelises inside each point; exact points run side by side.
            let results: Vec<Result<(LoadedBattle, Estimates)>> =
                if let Some(stored) = stored.as_deref_mut() {
                    let mut read = Vec::with_capacity(last - first);
                    for p in first..last {
                        let loaded = exp.load_point(variant, &exp.point(p))?;
                        let e = stored.answer(exp, v, p, &loaded)?;
                        progress.inc(if simulate_all { exp.trials } else { 1 });
                        read.push(Ok((loaded, e)));
                    }
                    read
                } else if simulate_all {
                    (first..last).map(compute).collect()
                } else {
                    (first..last).into_par_iter().map(compute).collect()
                };
            for (p, r) in (first..last).zip(results) {
                let (loaded, e) = r?;
                match e.method {
                    Method::Exact => exact_points += 1,
                    Method::MonteCarlo => simulated_points += 1,
                }
                writers.write_point(exp, &cols, v, p, &loaded, &e)?;
                summaries[v * grid + p] = summarize(&loaded, &e, keep_pmfs);
            }
            first = last;
        }
    }
    progress.finish();
    if let Some(stored) = stored {
        stored.finish()?;
    }
    writers.results.finish()?;
    writers.summary.finish()?;
    writers.distributions.finish()?;
    let mut files = vec![
        "results.parquet".to_string(),
        "summary.csv".into(),
        "distributions.parquet".into(),
    ];
    files.extend(crate::battle::charts::draw_all(exp, &summaries, &dir)?);
    let seconds = started.elapsed().as_secs_f64();
    let source = crate::output::ManifestSource {
        name: &exp.name,
        file: &exp.source,
        sha256: &exp.sha256,
    };
    let facts = json!({
        "ruleset": exp.ruleset.slug,
        "battle": exp.kind.name,
        "method": match exp.method { MethodChoice::Auto => "auto", MethodChoice::Exact => "exact", MethodChoice::MonteCarlo => "monte-carlo" },
        "seed": exp.seed,
        "trials_per_simulated_point": exp.trials,
        "points": total_points,
        "exact_points": exact_points,
        "simulated_points": simulated_points,
        "variants": exp.variants.iter().map(|v| v.name.clone()).collect::<Vec<_>>(),
        "axes": exp.axes.iter().map(|a| json!({"field": a.field, "values": a.values.len()})).collect::<Vec<_>>(),
    });
    let manifest =
        crate::output::write_manifest(&dir, &source, facts, seconds, None, Some(&files))?;
    files.push("manifest.json".into());
    let path = dir.commit()?;
    Ok(RunResult {
        dir: path,
        points: total_points,
        exact_points,
        simulated_points,
        seconds,
        files,
        manifest,
    })
}
