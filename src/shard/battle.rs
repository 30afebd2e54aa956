//! Battle experiments in shards. With `method = "monte-carlo"` a shard plays its chunks of trials
//! of every point and keeps each chunk's tally (`points.bin`): a tally's scalar sums are floating
//! point, so the merge folds the chunks' tallies one by one in chunk order into an empty tally,
//! exactly as the single run does. With `"auto"` or `"exact"` a shard answers its whole points
//! and keeps their answers.

use super::codec::{Decoder, Encoder};
use super::{Job, Outcome, Part, ShardSet};
use crate::battle::experiment::{Experiment, MethodChoice};
use crate::battle::runner::{chunk_count, chunk_size, monte_carlo_chunks};
use crate::battle::sweep::{run_from, solve, validate, RunResult, RunSettings, StoredAnswers};
use crate::battle::{Estimates, McRun, Tally};
use crate::error::{AleaError, Result};
use crate::output::ManifestSource;
use crate::progress::Progress;
use crate::rulesets::LoadedBattle;

const POINTS: &str = "points.bin";
const MAGIC: &str = "alea battle points 1\n";

fn by_chunks(exp: &Experiment) -> bool {
    exp.method == MethodChoice::MonteCarlo
}

/// The partition, as the manifest states it.
fn partition(exp: &Experiment) -> String {
    let points = exp.grid_len() * exp.variants.len();
    if by_chunks(exp) {
        format!(
            "{points} point(s) of {} trials, {} chunk(s) of {} trials each (the last may be shorter); shard K of N plays global chunk g = (variant × {} + point) × {} + chunk when g mod N = K − 1",
            exp.trials,
            chunk_count(exp.trials),
            chunk_size(exp.trials),
            exp.grid_len(),
            chunk_count(exp.trials)
        )
    } else {
        format!(
            "{points} point(s), each answered whole (exact where possible); shard K of N answers point g = variant × {} + point when g mod N = K − 1",
            exp.grid_len()
        )
    }
}

/// Plays shard `job.part` of `exp` into `out/<name>/shards/K-of-N/`.
pub fn run_shard(exp: &Experiment, job: &Job) -> Result<Outcome> {
    let source = ManifestSource {
        name: &exp.name,
        file: &exp.source,
        sha256: &exp.sha256,
    };
    let settings = super::setting("trials", exp.trials);
    let started = match job.start(
        "battle",
        &source,
        &exp.path,
        exp.seed,
        settings,
        partition(exp),
    )? {
        Ok(s) => s,
        Err(done) => return Ok(done),
    };
    validate(exp)?;
    let grid = exp.grid_len();
    let points = (grid * exp.variants.len()) as u64;
    let mut out = Encoder::create(&started.dir.path(POINTS), MAGIC)?;
    let progress = Progress::new(points, "points", job.show_progress);
    for (v, variant) in exp.variants.iter().enumerate() {
        for p in 0..grid {
            let g = (v * grid + p) as u64;
            progress.inc(1);
            if by_chunks(exp) {
                let chunks = chunk_count(exp.trials);
                if !(0..chunks).any(|c| job.part.owns(g * chunks + c)) {
                    continue;
                }
                let loaded = exp.load_point(variant, &exp.point(p))?;
                let run = McRun {
                    trials: exp.trials,
                    seed: exp.seed,
                    stream: p as u64,
                    progress: &Progress::hidden(),
                };
                let mut written = Ok(());
                monte_carlo_chunks(
                    loaded.model.as_ref(),
                    loaded.model.schema(),
                    &run,
                    |c| job.part.owns(g * chunks + c),
                    |c, tally| {
                        if written.is_ok() {
                            written = write_chunk(&mut out, g, c, &tally);
                        }
                    },
                );
                written?;
            } else if job.part.owns(g) {
                let loaded = exp.load_point(variant, &exp.point(p))?;
                let e = solve(exp, &loaded, p, &Progress::hidden())?;
                out.u64(g)?;
                out.estimates(&e)?;
            }
        }
    }
    progress.finish();
    out.finish()?;
    started.finish()
}

fn write_chunk(out: &mut Encoder, g: u64, c: u64, tally: &Tally) -> Result<()> {
    out.u64(g)?;
    out.u64(c)?;
    out.battle_tally(tally)
}

/// Every point's answer, read back from the shards.
struct FromShards {
    shards: u64,
    points: Vec<Decoder>,
}

impl StoredAnswers for FromShards {
    fn answer(
        &mut self,
        exp: &Experiment,
        variant: usize,
        point: usize,
        loaded: &LoadedBattle,
    ) -> Result<Estimates> {
        let g = (variant * exp.grid_len() + point) as u64;
        let mismatch = |d: &Decoder, found: String, due: String| {
            d.damaged(&format!("{found} where the partition puts {due}"))
        };
        if !by_chunks(exp) {
            let d = &mut self.points[Part::owner(g, self.shards)];
            let at = d.u64()?;
            if at != g {
                return Err(mismatch(d, format!("point {at}"), format!("point {g}")));
            }
            return d.estimates();
        }
        let schema = loaded.model.schema();
        let chunks = chunk_count(exp.trials);
        let mut total = Tally::new(schema);
        for c in 0..chunks {
            let d = &mut self.points[Part::owner(g * chunks + c, self.shards)];
            let (at, at_chunk) = (d.u64()?, d.u64()?);
            if (at, at_chunk) != (g, c) {
                return Err(mismatch(
                    d,
                    format!("point {at} chunk {at_chunk}"),
                    format!("point {g} chunk {c}"),
                ));
            }
            total.merge(&d.battle_tally(schema)?);
        }
        if total.trials != exp.trials {
            return Err(AleaError::Internal(format!(
                "point {g}: the shards hold {} trials, not {}",
                total.trials, exp.trials
            )));
        }
        Ok(Estimates::from_tally(&total))
    }

    fn finish(&mut self) -> Result<()> {
        super::expect_end(&mut self.points)
    }
}

/// Writes `out/<name>/` from the shards, as [`crate::battle::sweep::run`] would have.
pub fn merge(exp: &Experiment, set: &ShardSet, settings: &RunSettings) -> Result<RunResult> {
    let mut source = FromShards {
        shards: set.manifest.shards,
        points: set.open_all(POINTS, MAGIC)?,
    };
    run_from(exp, settings, Some(&mut source))
}
