//! Playing games in bulk: the game counterpart of [`crate::battle::runner`].
//!
//! Games are cut into chunks whose size depends only on the number of games. Chunks run on the
//! rayon pool in waves; each chunk has its own worker ([`GameModel::worker`]), record and tally,
//! and buffers its rows. After each wave the calling thread merges the tallies and hands the rows
//! to the sink, both in chunk order. Game `i` always plays from `Dice::for_trial(seed, stream, i)`,
//! and the tally's sums are exact (see [`super::tally`]), so results and files are the same for
//! any thread count; memory is bounded by one wave of chunks, whatever the number of games.

use super::tally::{GameTally, Shape, TurnStats};
use super::{GameModel, GameRecord, NoLog, TurnObserver};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::progress::Progress;

/// The most a wave of chunks may buffer (tallies and rows) before it is merged and written.
const WAVE_BYTES: usize = 256 << 20;
/// Chunks per wave at most: plenty to keep every core busy.
const MAX_WAVE: usize = 64;
/// Beyond this a model's turn cap is a bug, not a game: the per-turn tallies would not fit.
pub const MAX_TURNS: u32 = 100_000;

pub fn chunk_size(games: u64) -> u64 {
    (games / 256).clamp(16, 1024)
}

/// The per-turn rows of the games of one chunk: one row per game and turn.
#[derive(Default)]
pub struct TurnRows {
    pub game: Vec<u64>,
    pub turn: Vec<u32>,
    /// `rows × players × metrics`, as the observer received them.
    pub per_player: Vec<f64>,
    /// `rows × globals`.
    pub global: Vec<f64>,
}

impl TurnRows {
    pub fn len(&self) -> usize {
        self.game.len()
    }

    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }
}

/// The rows of one chunk of games, in game order: what games.parquet (and turns.parquet) get.
#[derive(Default)]
pub struct ChunkRows {
    /// Index of the chunk's first game.
    pub first_game: u64,
    pub turns: Vec<u32>,
    pub ending: Vec<u32>,
    /// `games × players`.
    pub win: Vec<f64>,
    /// `games × players`.
    pub score: Vec<f64>,
    /// `games × extras`.
    pub extra: Vec<f64>,
    /// Empty unless the sink wants per-turn rows.
    pub turn_rows: TurnRows,
}

impl ChunkRows {
    pub fn games(&self) -> usize {
        self.turns.len()
    }

    fn push(&mut self, r: &GameRecord) {
        self.turns.push(r.turns);
        self.ending.push(r.ending as u32);
        self.win.extend_from_slice(&r.win_share);
        self.score.extend_from_slice(&r.score);
        self.extra.extend_from_slice(&r.extra);
    }
}

/// Where the rows of played games go: called on the calling thread, chunk after chunk, in order.
pub trait GameSink {
    /// Whether chunks should keep one row per game (off for benches and tests of the tally).
    fn wants_game_rows(&self) -> bool {
        true
    }
    /// Whether chunks should keep one row per game and turn.
    fn wants_turn_rows(&self) -> bool {
        false
    }
    fn chunk(&mut self, rows: &ChunkRows) -> Result<()>;
}

/// A sink that keeps nothing: only the tally is wanted.
pub struct NoSink;

impl GameSink for NoSink {
    fn wants_game_rows(&self) -> bool {
        false
    }
    fn chunk(&mut self, _: &ChunkRows) -> Result<()> {
        Ok(())
    }
}

/// Feeds the turn-end measurements of one game to the chunk's tally (and rows), checking them.
struct Watch<'a> {
    stats: &'a mut TurnStats,
    rows: Option<&'a mut TurnRows>,
    shape: Shape,
    game: u64,
    last_turn: u32,
    fault: Option<String>,
}

impl TurnObserver for Watch<'_> {
    fn turn(&mut self, turn: u32, per_player: &[f64], global: &[f64]) {
        if self.fault.is_some() {
            return;
        }
        if let Some(why) = check_turn(&self.shape, self.last_turn, turn, per_player, global) {
            self.fault = Some(why);
            return;
        }
        self.last_turn = turn;
        self.stats.observe(turn, per_player, global);
        if let Some(rows) = self.rows.as_deref_mut() {
            rows.game.push(self.game);
            rows.turn.push(turn);
            rows.per_player.extend_from_slice(per_player);
            rows.global.extend_from_slice(global);
        }
    }
}

/// Why a turn's measurements break the [`super::TurnObserver`] contract, if they do.
pub(crate) fn check_turn(
    shape: &Shape,
    last_turn: u32,
    turn: u32,
    per_player: &[f64],
    global: &[f64],
) -> Option<String> {
    if turn != last_turn + 1 || turn as usize > shape.max_turns {
        return Some(format!(
            "observed turn {turn} after turn {last_turn} (turns must run 1, 2, … up to max_turns = {})",
            shape.max_turns
        ));
    }
    if per_player.len() != shape.per_player() || global.len() != shape.globals {
        return Some(format!(
            "turn {turn} measured {} per-player and {} global values instead of {} and {}",
            per_player.len(),
            global.len(),
            shape.per_player(),
            shape.globals
        ));
    }
    if per_player.iter().chain(global).any(|x| !x.is_finite()) {
        return Some(format!(
            "turn {turn} measured values that are not finite: {per_player:?}, {global:?}"
        ));
    }
    None
}

/// Why a finished game's record breaks the [`GameRecord`] contract, if it does.
pub(crate) fn check_record(shape: &Shape, r: &GameRecord, observed_turns: u32) -> Option<String> {
    if r.win_share.len() != shape.players
        || r.score.len() != shape.players
        || r.extra.len() != shape.extras
    {
        return Some(format!(
            "the record holds {} win shares, {} scores and {} extras instead of {}, {} and {}",
            r.win_share.len(),
            r.score.len(),
            r.extra.len(),
            shape.players,
            shape.players,
            shape.extras
        ));
    }
    if r.turns == 0 || r.turns as usize > shape.max_turns {
        return Some(format!(
            "the game lasted {} turns (allowed: 1 to max_turns = {})",
            r.turns, shape.max_turns
        ));
    }
    if r.turns != observed_turns {
        return Some(format!(
            "the game lasted {} turns but the observer saw {observed_turns}",
            r.turns
        ));
    }
    if r.ending >= shape.endings {
        return Some(format!(
            "ending {} does not exist ({} endings)",
            r.ending, shape.endings
        ));
    }
    let total: f64 = r.win_share.iter().sum();
    if r.win_share.iter().any(|s| !(0.0..=1.0).contains(s)) || total > 1.0 + 1e-9 {
        return Some(format!(
            "win shares {:?} are not shares of one win",
            r.win_share
        ));
    }
    if r.score.iter().chain(&r.extra).any(|x| !x.is_finite()) {
        return Some(format!(
            "scores {:?} or extras {:?} are not finite",
            r.score, r.extra
        ));
    }
    None
}

struct ChunkOut {
    tally: GameTally,
    rows: ChunkRows,
    fault: Option<(u64, String)>,
}

/// The most one chunk holds: its tally and, at worst (every game to the turn cap), its rows.
fn chunk_bytes(shape: &Shape, chunk: u64, game_rows: bool, turn_rows: bool) -> usize {
    let mut per_game = 0;
    if game_rows {
        per_game += 8 * (2 * shape.players + shape.extras + 2);
    }
    if turn_rows {
        per_game += 8 * shape.max_turns * (shape.per_player() + shape.globals + 2);
    }
    shape.tally_bytes() + chunk as usize * per_game
}

/// Chunks per wave: as many as fit in [`WAVE_BYTES`], at least one per thread. The wave size
/// never changes a result: chunks are merged in chunk order whatever the wave.
fn wave_chunks(shape: &Shape, chunk: u64, game_rows: bool, turn_rows: bool) -> usize {
    (WAVE_BYTES / chunk_bytes(shape, chunk, game_rows, turn_rows).max(1))
        .min(MAX_WAVE)
        .max(rayon::current_num_threads())
}

/// The most one wave of `games` games holds (the memory bound that tests check).
#[cfg(test)]
pub(crate) fn wave_bytes(shape: &Shape, games: u64, game_rows: bool, turn_rows: bool) -> usize {
    let chunk = chunk_size(games);
    wave_chunks(shape, chunk, game_rows, turn_rows)
        * chunk_bytes(shape, chunk, game_rows, turn_rows)
}

/// The tally of games `lo..hi` as one chunk (tests cut games in chunks of their own).
#[cfg(test)]
pub(crate) fn play_chunk_for_tests(
    model: &dyn GameModel,
    range: (u64, u64),
    (seed, stream): (u64, u64),
) -> GameTally {
    play_chunk(
        model,
        Shape::of(model),
        range,
        (seed, stream),
        (false, false),
    )
    .tally
}

fn play_chunk(
    model: &dyn GameModel,
    shape: Shape,
    (lo, hi): (u64, u64),
    (seed, stream): (u64, u64),
    (game_rows, turn_rows): (bool, bool),
) -> ChunkOut {
    let mut worker = model.worker();
    let mut record = GameRecord::new(shape.players, shape.extras);
    let mut tally = GameTally::new(shape);
    let mut rows = ChunkRows {
        first_game: lo,
        ..Default::default()
    };
    if game_rows {
        let n = (hi - lo) as usize;
        rows.turns.reserve(n);
        rows.ending.reserve(n);
        rows.win.reserve(n * shape.players);
        rows.score.reserve(n * shape.players);
        rows.extra.reserve(n * shape.extras);
    }
    for game in lo..hi {
        record.clear();
        let mut dice = Dice::for_trial(seed, stream, game);
        let mut watch = Watch {
            stats: &mut tally.turns,
            rows: turn_rows.then_some(&mut rows.turn_rows),
            shape,
            game,
            last_turn: 0,
            fault: None,
        };
        worker.play(&mut dice, &mut record, &mut watch, &mut NoLog);
        let fault = watch
            .fault
            .take()
            .or_else(|| check_record(&shape, &record, watch.last_turn));
        if let Some(why) = fault {
            return ChunkOut {
                tally,
                rows,
                fault: Some((game, why)),
            };
        }
        tally.record(&record);
        if game_rows {
            rows.push(&record);
        }
    }
    ChunkOut {
        tally,
        rows,
        fault: None,
    }
}

/// Plays games `0..games` of `model` on stream `stream`, hands their rows to `sink` in game order,
/// and returns their tally. A model that breaks its contract (an ending that does not exist, a
/// turn past its cap, …) is an internal error naming the game.
pub fn play_games(
    model: &dyn GameModel,
    games: u64,
    seed: u64,
    stream: u64,
    progress: &Progress,
    sink: &mut dyn GameSink,
) -> Result<GameTally> {
    play_chosen_games(model, games, seed, stream, &|_| true, progress, sink)
}

/// Chunks of games of a run of `games` (a shard plays some of them, see [`crate::shard`]).
pub fn chunk_count(games: u64) -> u64 {
    games.div_ceil(chunk_size(games))
}

/// [`play_games`] for only the chunks `keep` accepts (by chunk index): one shard's part of a
/// run. The chunks are the whole run's, so every game plays exactly as it does in a single run;
/// the tally is of the kept games, and the sink gets their rows, chunk by chunk in order.
pub fn play_chosen_games(
    model: &dyn GameModel,
    games: u64,
    seed: u64,
    stream: u64,
    keep: &dyn Fn(u64) -> bool,
    progress: &Progress,
    sink: &mut dyn GameSink,
) -> Result<GameTally> {
    let shape = Shape::of(model);
    if shape.max_turns == 0 || shape.max_turns > MAX_TURNS as usize || shape.endings == 0 {
        return Err(AleaError::Internal(format!(
            "a game model must have 1 to {MAX_TURNS} turns and at least one ending (it has {} and {})",
            shape.max_turns, shape.endings
        )));
    }
    let wants = (sink.wants_game_rows(), sink.wants_turn_rows());
    let chunk = chunk_size(games);
    let wave = wave_chunks(&shape, chunk, wants.0, wants.1) as u64;
    let mut total = GameTally::new(shape);
    crate::parallel::in_chosen_chunks(
        games,
        chunk,
        wave,
        keep,
        |range| {
            let out = play_chunk(
                model,
                shape,
                (range.start, range.end),
                (seed, stream),
                wants,
            );
            progress.inc(range.end - range.start);
            out
        },
        |part: ChunkOut| {
            if let Some((game, why)) = part.fault {
                return Err(AleaError::Internal(format!(
                    "the game model broke its contract in game {game} (seed {seed}, stream {stream}): {why}"
                )));
            }
            total.merge(&part.tally);
            if wants.0 || wants.1 {
                sink.chunk(&part.rows)?;
            }
            Ok(())
        },
    )?;
    Ok(total)
}
