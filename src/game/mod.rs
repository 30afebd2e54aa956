//! Automated full games: the engine shared by every ruleset.
//!
//! A ruleset plugs in by implementing [`GameModel`] (what the game is: its players, how it can
//! end, what is measured each turn) and [`GamePlay`] (one worker's buffers, playing one game at a
//! time from a seeded [`Dice`]). The engine never looks inside a game's state: it seeds one stream
//! per game from (seed, stream, game index), plays games in parallel in a fixed chunk order,
//! aggregates online, streams one row per game (and optionally one per player per turn) to parquet,
//! draws the charts, and replays a single game with its turn-by-turn log.
//!
//! Decisions are taken by policies: named, parameterised strategies chosen per player in the
//! experiment file. Each ruleset defines the decision points of its own policies (a Rust trait
//! of its own); [`policy::PolicyCatalog`] gives every ruleset the same way of naming them,
//! documenting their parameters and reading those parameters from TOML.

pub mod charts;
#[cfg(test)]
mod competent_tests;
pub mod experiment;
pub mod ladder;
pub mod policy;
pub mod provenance;
pub mod replay;
pub mod report;
pub mod rows;
pub mod run;
pub mod search;
pub mod summary;
pub mod sweep;
pub mod tables;
pub mod tally;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod toy;
pub mod tune;

use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;
use std::fmt;

/// What one game produced. Buffers are sized once by [`GameRecord::new`] and reused by every game
/// a worker plays, so playing a game allocates nothing here.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Turns played (1 = the game ended after its first turn).
    pub turns: u32,
    /// Index into [`GameModel::endings`].
    pub ending: usize,
    /// Each player's share of the win: 1 for a sole winner, 1/k each for k joint winners, 0 for
    /// the others; all 0 when everyone loses (e.g. Rome falls in República de Roma).
    pub win_share: Vec<f64>,
    /// Each player's final score (VP, influence), the number the end conditions rank.
    pub score: Vec<f64>,
    /// Ruleset-specific per-game quantities, named by [`GameModel::game_columns`].
    pub extra: Vec<f64>,
}

impl GameRecord {
    pub fn new(players: usize, extra: usize) -> GameRecord {
        GameRecord {
            turns: 0,
            ending: 0,
            win_share: vec![0.0; players],
            score: vec![0.0; players],
            extra: vec![0.0; extra],
        }
    }

    pub fn clear(&mut self) {
        self.turns = 0;
        self.ending = 0;
        self.win_share.fill(0.0);
        self.score.fill(0.0);
        self.extra.fill(0.0);
    }
}

/// Receives the measurements taken at the end of every turn of a game.
pub trait TurnObserver {
    /// `per_player[p * metrics + m]` is metric `m` ([`GameModel::turn_metrics`]) of player `p`;
    /// `global[g]` is [`GameModel::global_metrics`]`[g]`. `turn` counts from 1.
    fn turn(&mut self, turn: u32, per_player: &[f64], global: &[f64]);
}

/// An observer that ignores everything (benches, tests).
pub struct NoObserver;

impl TurnObserver for NoObserver {
    fn turn(&mut self, _: u32, _: &[f64], _: &[f64]) {}
}

/// The turn-by-turn log of a replayed game. While games run in bulk the log is off and
/// `line` is never called: callers test [`GameLog::on`] first, so nothing is formatted.
pub trait GameLog {
    fn on(&self) -> bool;
    fn line(&mut self, text: fmt::Arguments);
}

/// The log of games played in bulk: off.
pub struct NoLog;

impl GameLog for NoLog {
    fn on(&self) -> bool {
        false
    }
    fn line(&mut self, _: fmt::Arguments) {}
}

/// A log kept in memory (replays, tests).
#[derive(Default)]
pub struct TextLog {
    pub lines: Vec<String>,
}

impl GameLog for TextLog {
    fn on(&self) -> bool {
        true
    }
    fn line(&mut self, text: fmt::Arguments) {
        self.lines.push(text.to_string());
    }
}

/// Writes a log line only when the log is on: `log!(log, "turn {t}: {} declares war", name)`.
#[macro_export]
macro_rules! game_log {
    ($log:expr, $($arg:tt)*) => {
        if $log.on() {
            $log.line(format_args!($($arg)*));
        }
    };
}

/// A fully specified game: scenario, rule options and a policy for every player.
pub trait GameModel: Send + Sync {
    /// The players (nations, factions) in a fixed order: every per-player vector follows it.
    fn players(&self) -> &[String];
    /// The policy each player follows, as written in the experiment (name and parameters), for reports.
    fn player_policies(&self) -> &[String];
    /// The keys that name the players in `[game.policies]` (and in `alea tune` and `alea ladder`).
    fn policy_keys(&self) -> Vec<String> {
        summary::player_keys(self.players())
    }
    /// The ways a game can end, e.g. "700 VP", "turn cap". [`GameRecord::ending`] indexes this.
    fn endings(&self) -> &[&'static str];
    /// Named groups of endings whose combined share is reported beside the endings themselves,
    /// e.g. ("Rome falls (any cause)", [the three falls]).
    fn ending_groups(&self) -> &[(&'static str, &'static [usize])] {
        &[]
    }
    /// Per-player quantities measured at the end of every turn; the first is the score.
    fn turn_metrics(&self) -> &[&'static str];
    /// Quantities of the whole game measured at the end of every turn (may be empty).
    fn global_metrics(&self) -> &[&'static str] {
        &[]
    }
    /// Names of [`GameRecord::extra`].
    fn game_columns(&self) -> &[&'static str] {
        &[]
    }
    /// The most turns a game can last (the turn cap): sizes the per-turn aggregates.
    fn max_turns(&self) -> u32;
    /// A label for turn `t` in logs and charts, e.g. "522 AUC".
    fn turn_label(&self, turn: u32) -> String {
        format!("turn {turn}")
    }
    /// One line per fact worth stating about the set-up (scenario, assumptions, policies).
    fn describe(&self) -> Vec<String>;
    /// A warning every title of the run carries (printed summary, summary.json, charts), e.g.
    /// that the data is synthetic.
    fn banner(&self) -> Option<&'static str> {
        None
    }
    /// Whether each case's summary carries a χ² test of the per-player win shares against 1/n
    /// (players are seats of identical empires, so any difference is seat order). Off unless a
    /// game asks for it.
    fn tests_equal_seats(&self) -> bool {
        false
    }
    /// A worker: buffers for one game at a time, reused for every game the worker plays.
    fn worker(&self) -> Box<dyn GamePlay + '_>;
}

/// One worker playing games one after another.
pub trait GamePlay {
    /// Plays one whole game from the scenario's start with `dice` (the game's own stream), filling
    /// `record` (already cleared), calling `observer` once at the end of every turn and writing to
    /// `log` when it is on. Must always end (the turn cap bounds every game).
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    );
}

/// Everything a ruleset needs to build a game: the experiment's `[game]` table and its options.
pub struct GameSetup<'a> {
    /// The experiment file (for error messages and for paths relative to it).
    pub source: &'a str,
    /// The `[game]` table, minus `ruleset` and `options`.
    pub fields: Fields<'a>,
    /// The ruleset's rule options, defaults overridden by `[game.options]`.
    pub options: Options,
}

/// How a ruleset builds a game from an experiment.
pub type GameBuilder = fn(&GameSetup) -> Result<Box<dyn GameModel>>;

/// A column name built from a scenario (e.g. one per nation), as the `'static` name
/// [`GameModel::game_columns`] hands out. Each distinct name is leaked once per process, however
/// many times a game is built (`alea tune` builds one per candidate).
pub fn column_name(name: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = names.get(name.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.into_boxed_str());
    names.insert(leaked);
    leaked
}

#[cfg(test)]
mod column_name_tests {
    #[test]
    fn a_name_is_kept_once() {
        let a = super::column_name("vp_test_column".to_string());
        let b = super::column_name(format!("vp_test_{}", "column"));
        assert_eq!(a, "vp_test_column");
        assert!(std::ptr::eq(a, b), "the second copy was leaked again");
    }
}
