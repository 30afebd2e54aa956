//! Game experiments in shards: a shard plays its chunks of every case and keeps each case's tally
//! (`tallies.bin`) and its chunks' rows (`rows.bin`, with the per-turn rows when the experiment
//! writes turns.parquet); the merge feeds them back to [`run_games_from`] in chunk order.

use super::codec::{Decoder, Encoder};
use super::{Job, Outcome, Part, ShardSet};
use crate::error::Result;
use crate::game::experiment::GameExperiment;
use crate::game::run::{chunk_count, chunk_size, play_chosen_games, ChunkRows, GameSink};
use crate::game::sweep::{build_cases, run_games_from, GameRunResult, GameRunSettings, GameSource};
use crate::game::tally::{GameTally, Shape};
use crate::game::GameModel;
use crate::progress::Progress;

const TALLIES: &str = "tallies.bin";
const TALLIES_MAGIC: &str = "alea game tallies 1\n";
const ROWS: &str = "rows.bin";
const ROWS_MAGIC: &str = "alea game rows 1\n";

/// The partition, as the manifest states it.
fn partition(exp: &GameExperiment) -> String {
    format!(
        "{} case(s) of {} games, {} chunk(s) of {} games each (the last may be shorter); shard K of N plays global chunk g = case × {} + chunk when g mod N = K − 1",
        exp.cases(),
        exp.games,
        chunk_count(exp.games),
        chunk_size(exp.games),
        chunk_count(exp.games)
    )
}

/// Writes each played chunk's rows, tagged with its case and chunk index.
struct ShardRows {
    out: Encoder,
    case: u64,
    chunk: u64,
    turn_rows: bool,
}

impl GameSink for ShardRows {
    fn wants_turn_rows(&self) -> bool {
        self.turn_rows
    }

    fn chunk(&mut self, rows: &ChunkRows) -> Result<()> {
        self.out.u64(self.case)?;
        self.out.u64(rows.first_game / self.chunk)?;
        self.out.chunk_rows(rows)
    }
}

/// Plays shard `job.part` of `exp` into `out/<name>/shards/K-of-N/`.
pub fn run_shard(exp: &GameExperiment, job: &Job) -> Result<Outcome> {
    let started = match job.start(
        "game",
        &exp.manifest_source(),
        &exp.path,
        exp.seed,
        super::setting("games", exp.games),
        partition(exp),
    )? {
        Ok(s) => s,
        Err(done) => return Ok(done),
    };
    let models = build_cases(exp)?;
    let chunks = chunk_count(exp.games);
    let Part { k, n } = job.part;
    let size = chunk_size(exp.games);
    let my_games: u64 = (0..models.len() as u64 * chunks)
        .filter(|&g| job.part.owns(g))
        .map(|g| (exp.games - (g % chunks) * size).min(size))
        .sum();
    let progress = Progress::new(my_games, "games", job.show_progress);
    progress.set_message(format!("{} shard {k}/{n}", exp.name));
    let mut tallies = Encoder::create(&started.dir.path(TALLIES), TALLIES_MAGIC)?;
    let mut rows = ShardRows {
        out: Encoder::create(&started.dir.path(ROWS), ROWS_MAGIC)?,
        case: 0,
        chunk: size,
        turn_rows: exp.per_turn_rows,
    };
    let grid = exp.grid_len();
    for (i, model) in models.iter().enumerate() {
        rows.case = i as u64;
        let first = i as u64 * chunks;
        let tally = play_chosen_games(
            model.as_ref(),
            exp.games,
            exp.seed,
            exp.stream(i / grid, i % grid),
            &|c| job.part.owns(first + c),
            &progress,
            &mut rows,
        )?;
        tallies.u64(i as u64)?;
        tallies.game_tally(&tally)?;
    }
    progress.finish();
    tallies.finish()?;
    rows.out.finish()?;
    started.finish()
}

/// The games of every case, read back from the shards.
struct FromShards {
    shards: u64,
    chunks: u64,
    tallies: Vec<Decoder>,
    rows: Vec<Decoder>,
}

impl GameSource for FromShards {
    fn case(
        &mut self,
        _exp: &GameExperiment,
        case: usize,
        model: &dyn GameModel,
        progress: &Progress,
        sink: &mut dyn GameSink,
    ) -> Result<GameTally> {
        let case = case as u64;
        for c in 0..self.chunks {
            let shard = Part::owner(case * self.chunks + c, self.shards);
            let d = &mut self.rows[shard];
            let (at_case, at_chunk) = (d.u64()?, d.u64()?);
            if (at_case, at_chunk) != (case, c) {
                return Err(d.damaged(&format!(
                    "case {at_case} chunk {at_chunk} where the partition puts case {case} chunk {c}"
                )));
            }
            let rows = d.chunk_rows()?;
            progress.inc(rows.games() as u64);
            sink.chunk(&rows)?;
        }
        let shape = Shape::of(model);
        let mut total = GameTally::new(shape);
        for d in &mut self.tallies {
            let at = d.u64()?;
            if at != case {
                return Err(d.damaged(&format!("the tally of case {at} where case {case} is due")));
            }
            total.merge(&d.game_tally(shape)?);
        }
        Ok(total)
    }

    fn finish(&mut self) -> Result<()> {
        super::expect_end(&mut self.rows)?;
        super::expect_end(&mut self.tallies)
    }
}

/// Writes `out/<name>/` from the shards, as [`crate::game::sweep::run_games`] would have.
pub fn merge(
    exp: &GameExperiment,
    set: &ShardSet,
    settings: &GameRunSettings,
) -> Result<GameRunResult> {
    let mut source = FromShards {
        shards: set.manifest.shards,
        chunks: chunk_count(exp.games),
        tallies: set.open_all(TALLIES, TALLIES_MAGIC)?,
        rows: set.open_all(ROWS, ROWS_MAGIC)?,
    };
    run_games_from(exp, settings, &mut source)
}
