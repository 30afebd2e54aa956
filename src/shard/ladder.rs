//! `alea ladder` in shards: every play of the ladder's plan (each baseline, each seat on a higher
//! rung) is cut by chunks of games like a game experiment's cases; a shard keeps its chunks' win
//! shares (`shares.bin`), and the merge hands each play's shares, whole and in game order, to
//! [`ladder_from`].

use super::codec::{Decoder, Encoder};
use super::{Job, Outcome, Part, ShardSet};
use crate::error::Result;
use crate::game::experiment::GameExperiment;
use crate::game::ladder::{
    ladder_from, plan, LadderResult, LadderSettings, LadderSource, LadderSpec, Play, STREAM,
};
use crate::game::run::{chunk_count, chunk_size, play_chosen_games, ChunkRows, GameSink};
use crate::progress::Progress;

const SHARES: &str = "shares.bin";
const MAGIC: &str = "alea ladder shares 1\n";

/// Writes each played chunk's win shares, tagged with its play and chunk index.
struct ShardShares {
    out: Encoder,
    play: u64,
    chunk: u64,
}

impl GameSink for ShardShares {
    fn chunk(&mut self, rows: &ChunkRows) -> Result<()> {
        self.out.u64(self.play)?;
        self.out.u64(rows.first_game / self.chunk)?;
        self.out.f64s(&rows.win)
    }
}

/// Plays shard `job.part` of `exp`'s ladder into `out/<name>/shards/K-of-N/`.
pub fn run_shard(exp: &GameExperiment, job: &Job) -> Result<Outcome> {
    let spec = LadderSpec::parse(exp)?;
    let plays = plan(exp, &spec)?;
    let total: u64 = plays.iter().map(|p| p.games).sum();
    let mut settings = super::setting("games", spec.games);
    settings.insert("games_total".into(), total.into());
    let partition = format!(
        "{} plays (baselines and seats, in plan order), each cut into chunks of games as a game experiment's case is; shard K of N plays global chunk g (the plays' chunks numbered in order) when g mod N = K − 1",
        plays.len()
    );
    let started = match job.start(
        "ladder",
        &exp.manifest_source(),
        &exp.path,
        exp.seed,
        settings,
        partition,
    )? {
        Ok(s) => s,
        Err(done) => return Ok(done),
    };
    let progress = Progress::new(total.div_ceil(job.part.n), "games", job.show_progress);
    let mut sink = ShardShares {
        out: Encoder::create(&started.dir.path(SHARES), MAGIC)?,
        play: 0,
        chunk: 0,
    };
    let mut offset = 0;
    for (i, play) in plays.iter().enumerate() {
        let model = exp.build_from(&play.table, exp.case_source(0, 0))?;
        sink.play = i as u64;
        sink.chunk = chunk_size(play.games);
        play_chosen_games(
            model.as_ref(),
            play.games,
            exp.seed,
            STREAM,
            &|c| job.part.owns(offset + c),
            &progress,
            &mut sink,
        )?;
        offset += chunk_count(play.games);
    }
    progress.finish();
    sink.out.finish()?;
    started.finish()
}

/// Every play's shares, read back from the shards.
struct FromShards {
    shards: u64,
    /// The global index of the next play's first chunk.
    offset: u64,
    decoders: Vec<Decoder>,
}

impl LadderSource for FromShards {
    fn play(
        &mut self,
        _exp: &GameExperiment,
        index: usize,
        play: &Play,
        players: usize,
        progress: &Progress,
    ) -> Result<Vec<f64>> {
        let mut shares = Vec::with_capacity(play.games as usize * players);
        let chunks = chunk_count(play.games);
        for c in 0..chunks {
            let d = &mut self.decoders[Part::owner(self.offset + c, self.shards)];
            let (at, at_chunk) = (d.u64()?, d.u64()?);
            if (at, at_chunk) != (index as u64, c) {
                return Err(d.damaged(&format!(
                    "play {at} chunk {at_chunk} where the partition puts play {index} chunk {c}"
                )));
            }
            let part = d.f64s()?;
            progress.inc((part.len() / players.max(1)) as u64);
            shares.extend(part);
        }
        if shares.len() != play.games as usize * players {
            return Err(self.decoders[0].damaged(&format!(
                "play {index} has {} shares, not {} games × {players} players",
                shares.len(),
                play.games
            )));
        }
        self.offset += chunks;
        Ok(shares)
    }

    fn finish(&mut self) -> Result<()> {
        super::expect_end(&mut self.decoders)
    }
}

/// Writes `out/<name>/` from the shards, as [`crate::game::ladder::ladder`] would have.
pub fn merge(
    exp: &GameExperiment,
    set: &ShardSet,
    settings: &LadderSettings,
) -> Result<LadderResult> {
    let mut source = FromShards {
        shards: set.manifest.shards,
        offset: 0,
        decoders: set.open_all(SHARES, MAGIC)?,
    };
    ladder_from(exp, settings, &mut source)
}
