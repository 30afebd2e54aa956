//! Running a game experiment: every case (variant × sweep point) played on its own stream, rows
//! streamed to parquet, then the tables, the charts and a manifest, all committed at once into
//! `out/<name>/`.

use super::charts::draw_all;
use super::experiment::GameExperiment;
use super::rows::{RowsWriter, Union};
use super::run::{play_games, GameSink};
use super::summary::CaseSummary;
use super::tables::{key_cells, key_columns, summary_json, write_all};
use super::tally::GameTally;
use super::GameModel;
use crate::error::{AleaError, Result};
use crate::output::OutputDir;
use crate::progress::Progress;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::time::Instant;

pub struct GameRunSettings {
    pub out_root: PathBuf,
    pub show_progress: bool,
}

pub struct GameRunResult {
    pub dir: PathBuf,
    pub files: Vec<String>,
    pub cases: Vec<CaseSummary>,
    pub games: u64,
    pub seconds: f64,
    /// summary.json's content.
    pub summary: Json,
    /// manifest.json's content: the run's facts (files, wall time, threads).
    pub manifest: Json,
}

impl GameRunResult {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// What `alea run --json` prints: the summary with the run's facts.
    pub fn to_json(&self) -> Json {
        let mut doc = self.summary.clone();
        doc["dir"] = json!(self.dir.display().to_string());
        doc["files"] = json!(self.files);
        doc["wall_time_seconds"] = self.manifest["wall_time_seconds"].clone();
        doc["games_per_second"] = self.manifest["games_per_second"].clone();
        doc["threads"] = self.manifest["threads"].clone();
        doc
    }
}

/// The turn metric drawn over turns: `[charts] metric`, else the first case's first.
fn chart_metric(exp: &GameExperiment, union: &Union) -> Result<String> {
    match &exp.charts.metric {
        Some(m) if union.metrics.contains(m) => Ok(m.clone()),
        Some(m) => Err(AleaError::input(
            &exp.source,
            "charts.metric",
            format!("\"{m}\""),
            format!(
                "one of the game's turn metrics: {}",
                union.metrics.join(", ")
            ),
        )),
        None => {
            union.metrics.first().cloned().ok_or_else(|| {
                AleaError::Internal("the game model measures nothing per turn".into())
            })
        }
    }
}

/// Where a run's games come from: played here, or read back from the shards that played them
/// ([`crate::shard::game`]). Either way case `case` hands its rows to `sink` chunk by chunk in
/// game order and returns its tally.
pub trait GameSource {
    fn case(
        &mut self,
        exp: &GameExperiment,
        case: usize,
        model: &dyn GameModel,
        progress: &Progress,
        sink: &mut dyn GameSink,
    ) -> Result<GameTally>;

    /// Called once every case is done (a merge checks that no shard holds more).
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Every game played here, now.
pub struct PlayHere;

impl GameSource for PlayHere {
    fn case(
        &mut self,
        exp: &GameExperiment,
        case: usize,
        model: &dyn GameModel,
        progress: &Progress,
        sink: &mut dyn GameSink,
    ) -> Result<GameTally> {
        let stream = exp.stream(case / exp.grid_len(), case % exp.grid_len());
        play_games(model, exp.games, exp.seed, stream, progress, sink)
    }
}

/// Every case of `exp` built, in case order (variant, then point): a bad point stops the run
/// before any game is played.
pub fn build_cases(exp: &GameExperiment) -> Result<Vec<Box<dyn GameModel>>> {
    let mut models: Vec<Box<dyn GameModel>> = Vec::with_capacity(exp.cases());
    for v in 0..exp.variants.len() {
        for p in 0..exp.grid_len() {
            models.push(exp.build(v, p)?);
        }
    }
    Ok(models)
}

pub fn run_games(exp: &GameExperiment, settings: &GameRunSettings) -> Result<GameRunResult> {
    run_games_from(exp, settings, &mut PlayHere)
}

/// [`run_games`] with the games taken from `source`.
pub fn run_games_from(
    exp: &GameExperiment,
    settings: &GameRunSettings,
    source: &mut dyn GameSource,
) -> Result<GameRunResult> {
    let started = Instant::now();
    let grid = exp.grid_len();
    let models = build_cases(exp)?;
    // A game on data that is not the real game's says so in every title: the printed summary,
    // summary.json and each chart.
    let bannered;
    let exp = match models.iter().find_map(|m| m.banner()) {
        Some(banner) if !exp.title.starts_with(banner) => {
            bannered = GameExperiment {
                title: format!("{banner} · {}", exp.title),
                ..exp.clone()
            };
            &bannered
        }
        _ => exp,
    };
    let mut union = Union::default();
    models.iter().for_each(|m| union.add(m.as_ref()));
    let metric = chart_metric(exp, &union)?;
    let dir = OutputDir::create(&settings.out_root, &exp.name)?;
    let mut rows = RowsWriter::create(&dir, &key_columns(exp), union.clone(), exp.per_turn_rows)?;
    let progress = Progress::new(
        exp.games * models.len() as u64,
        "games",
        settings.show_progress,
    );
    let mut cases = Vec::with_capacity(models.len());
    for (i, model) in models.iter().enumerate() {
        let (v, p) = (i / grid, i % grid);
        let label = exp.case_label(v, p);
        progress.set_message(if label.is_empty() {
            exp.name.clone()
        } else {
            label.clone()
        });
        rows.start_case(key_cells(exp, v, p), model.as_ref())?;
        let stream = exp.stream(v, p);
        let tally = source.case(exp, i, model.as_ref(), &progress, &mut rows)?;
        cases.push(CaseSummary::new(
            model.as_ref(),
            tally,
            (v, p),
            &exp.variants[v].name,
            label,
            stream,
        ));
    }
    progress.finish();
    source.finish()?;
    if let Some(name) = &exp.charts.baseline {
        if let Some(b) = exp.variants.iter().position(|v| &v.name == name) {
            super::summary::set_baseline_differences(&mut cases, b, grid, name);
        }
    }
    let (game_rows, turn_rows) = rows.finish()?;
    let mut files = vec!["games.parquet".to_string()];
    if turn_rows.is_some() {
        files.push("turns.parquet".into());
    }
    files.extend(write_all(exp, &cases, &union, &dir)?);
    files.extend(draw_all(exp, &cases, &metric, &dir)?);
    let seconds = started.elapsed().as_secs_f64();
    let games = exp.games * cases.len() as u64;
    let facts = json!({
        "ruleset": exp.ruleset.slug,
        "seed": exp.seed,
        "games_per_case": exp.games,
        "cases": cases.len(),
        "games": games,
        "rows": { "games.parquet": game_rows, "turns.parquet": turn_rows },
        "chart_metric": metric,
    });
    let listed: Vec<String> = files
        .iter()
        .cloned()
        .chain(["manifest.json".to_string()])
        .collect();
    let speed = ("games_per_second", games as f64 / seconds.max(1e-9));
    let manifest = crate::output::write_manifest(
        &dir,
        &exp.manifest_source(),
        facts,
        seconds,
        Some(speed),
        Some(&listed),
    )?;
    files.push("manifest.json".into());
    let path = dir.commit()?;
    Ok(GameRunResult {
        dir: path,
        files,
        summary: summary_json(exp, &cases),
        cases,
        games,
        seconds,
        manifest,
    })
}
