//! games.parquet and turns.parquet: the rows of every game, streamed in batches as chunks finish.
//!
//! games.parquet: one row per game: the case's key (`variant`, `point` and the swept fields when
//! there is a sweep), `game` (the index `alea replay --game` takes), `turns`, `ending`, `winner`
//! (a player's name, "shared" or "none"), then `score_<key>` and `win_<key>` (the win share) per
//! player, then the ruleset's extra columns.
//!
//! turns.parquet (with `per_turn_rows = true`): one row per game, turn and player: the case's
//! key, `game`, `turn`, `player`, each per-player turn metric, and each global metric of that
//! turn as `global_<name>` (repeated on every player's row, so no row needs filtering out).
//!
//! When cases have different players or metrics, the columns are their union and a case's rows
//! hold null where they have no value.

use super::run::{ChunkRows, GameSink};
use super::summary::player_keys;
use super::GameModel;
use crate::error::{AleaError, Result};
use crate::output::{Cell, ColType, OutputDir, TableWriter, Values};

/// Rows gathered before a batch is written: large row groups, little memory.
const BATCH: usize = 65_536;

/// The names every case's columns are drawn from: the union over the cases, in first-seen order.
#[derive(Clone, Debug, Default)]
pub struct Union {
    pub players: Vec<String>,
    pub extras: Vec<String>,
    pub metrics: Vec<String>,
    pub globals: Vec<String>,
}

fn add_all(list: &mut Vec<String>, names: impl IntoIterator<Item = String>) {
    for n in names {
        if !list.contains(&n) {
            list.push(n);
        }
    }
}

/// Where each of a case's names sits in the union's list.
fn positions(union: &[String], names: &[String]) -> Vec<Option<usize>> {
    union
        .iter()
        .map(|u| names.iter().position(|n| n == u))
        .collect()
}

impl Union {
    pub fn add(&mut self, model: &dyn GameModel) {
        add_all(&mut self.players, player_keys(model.players()));
        add_all(
            &mut self.extras,
            model.game_columns().iter().map(|s| s.to_string()),
        );
        add_all(
            &mut self.metrics,
            model.turn_metrics().iter().map(|s| s.to_string()),
        );
        add_all(
            &mut self.globals,
            model.global_metrics().iter().map(|s| s.to_string()),
        );
    }
}

fn unique(columns: &[(String, ColType)], file: &str) -> Result<()> {
    for (i, (name, _)) in columns.iter().enumerate() {
        if columns[..i].iter().any(|(n, _)| n == name) {
            return Err(AleaError::Internal(format!(
                "{file} would have two columns called `{name}` (a swept field, player, metric or extra column shares a name)"
            )));
        }
    }
    Ok(())
}

#[derive(Default)]
struct GameColumns {
    game: Vec<i64>,
    turns: Vec<i64>,
    ending: Vec<u32>,
    winner: Vec<u32>,
    /// Per union player.
    score: Vec<Vec<f64>>,
    win: Vec<Vec<f64>>,
    /// Per union extra.
    extra: Vec<Vec<f64>>,
}

#[derive(Default)]
struct TurnColumns {
    game: Vec<i64>,
    turn: Vec<i64>,
    player: Vec<u32>,
    /// Per union metric.
    metric: Vec<Vec<f64>>,
    /// Per union global metric.
    global: Vec<Vec<f64>>,
}

/// The current case: its key cells and how its players and metrics map onto the columns.
#[derive(Default)]
struct Case {
    key: Vec<Cell>,
    players: usize,
    metrics: usize,
    globals: usize,
    extras: usize,
    player_at: Vec<Option<usize>>,
    extra_at: Vec<Option<usize>>,
    metric_at: Vec<Option<usize>>,
    global_at: Vec<Option<usize>>,
    ending_names: Vec<String>,
    /// The players' names, then "shared", then "none".
    winner_names: Vec<String>,
}

/// The sink of an experiment's runs: writes games.parquet and, when asked, turns.parquet.
pub struct RowsWriter {
    union: Union,
    games: TableWriter,
    turns: Option<TableWriter>,
    case: Case,
    game_cols: GameColumns,
    turn_cols: TurnColumns,
}

impl RowsWriter {
    /// `key` are the columns that tell cases apart (variant, point, swept fields).
    pub fn create(
        dir: &OutputDir,
        key: &[(String, ColType)],
        union: Union,
        per_turn: bool,
    ) -> Result<RowsWriter> {
        let mut cols = key.to_vec();
        for (name, t) in [
            ("game", ColType::Int),
            ("turns", ColType::Int),
            ("ending", ColType::Str),
            ("winner", ColType::Str),
        ] {
            cols.push((name.to_string(), t));
        }
        for p in &union.players {
            cols.push((format!("score_{p}"), ColType::Float));
            cols.push((format!("win_{p}"), ColType::Float));
        }
        for x in &union.extras {
            cols.push((x.clone(), ColType::Float));
        }
        unique(&cols, "games.parquet")?;
        let games = TableWriter::create(Some(&dir.path("games.parquet")), None, cols)?;
        let turns = if per_turn {
            let mut cols = key.to_vec();
            for (name, t) in [
                ("game", ColType::Int),
                ("turn", ColType::Int),
                ("player", ColType::Str),
            ] {
                cols.push((name.to_string(), t));
            }
            for m in &union.metrics {
                cols.push((m.clone(), ColType::Float));
            }
            for g in &union.globals {
                cols.push((format!("global_{g}"), ColType::Float));
            }
            unique(&cols, "turns.parquet")?;
            Some(TableWriter::create(
                Some(&dir.path("turns.parquet")),
                None,
                cols,
            )?)
        } else {
            None
        };
        let game_cols = GameColumns {
            score: vec![Vec::new(); union.players.len()],
            win: vec![Vec::new(); union.players.len()],
            extra: vec![Vec::new(); union.extras.len()],
            ..Default::default()
        };
        let turn_cols = TurnColumns {
            metric: vec![Vec::new(); union.metrics.len()],
            global: vec![Vec::new(); union.globals.len()],
            ..Default::default()
        };
        Ok(RowsWriter {
            union,
            games,
            turns,
            case: Case::default(),
            game_cols,
            turn_cols,
        })
    }

    /// The rows that follow belong to the case with these key cells, played by `model`.
    pub fn start_case(&mut self, key: Vec<Cell>, model: &dyn GameModel) -> Result<()> {
        self.flush()?;
        let strings = |s: &[&'static str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut winner_names = model.players().to_vec();
        winner_names.extend(["shared".to_string(), "none".to_string()]);
        self.case = Case {
            key,
            players: model.players().len(),
            metrics: model.turn_metrics().len(),
            globals: model.global_metrics().len(),
            extras: model.game_columns().len(),
            player_at: positions(&self.union.players, &player_keys(model.players())),
            extra_at: positions(&self.union.extras, &strings(model.game_columns())),
            metric_at: positions(&self.union.metrics, &strings(model.turn_metrics())),
            global_at: positions(&self.union.globals, &strings(model.global_metrics())),
            ending_names: strings(model.endings()),
            winner_names,
        };
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.flush_games()?;
        self.flush_turns()
    }

    fn flush_games(&mut self) -> Result<()> {
        let c = &self.case;
        let g = &mut self.game_cols;
        if !g.game.is_empty() {
            let mut values: Vec<Values> = c.key.iter().map(Values::Same).collect();
            values.push(Values::Int(&g.game));
            values.push(Values::Int(&g.turns));
            values.push(Values::Text {
                names: &c.ending_names,
                index: &g.ending,
            });
            values.push(Values::Text {
                names: &c.winner_names,
                index: &g.winner,
            });
            for (score, win) in g.score.iter().zip(&g.win) {
                values.push(Values::Float(score));
                values.push(Values::Float(win));
            }
            values.extend(g.extra.iter().map(|x| Values::Float(x)));
            self.games.push_columns(g.game.len(), &values)?;
            g.game.clear();
            g.turns.clear();
            g.ending.clear();
            g.winner.clear();
            g.score.iter_mut().chain(&mut g.win).for_each(Vec::clear);
            g.extra.iter_mut().for_each(Vec::clear);
        }
        Ok(())
    }

    fn flush_turns(&mut self) -> Result<()> {
        let c = &self.case;
        let t = &mut self.turn_cols;
        if let (Some(writer), false) = (&mut self.turns, t.game.is_empty()) {
            let mut values: Vec<Values> = c.key.iter().map(Values::Same).collect();
            values.push(Values::Int(&t.game));
            values.push(Values::Int(&t.turn));
            values.push(Values::Text {
                names: &c.winner_names,
                index: &t.player,
            });
            values.extend(t.metric.iter().map(|x| Values::Float(x)));
            values.extend(t.global.iter().map(|x| Values::Float(x)));
            writer.push_columns(t.game.len(), &values)?;
            t.game.clear();
            t.turn.clear();
            t.player.clear();
            t.metric.iter_mut().for_each(Vec::clear);
            t.global.iter_mut().for_each(Vec::clear);
        }
        Ok(())
    }

    /// Writes what is left and closes the files; returns the rows of games.parquet and turns.parquet.
    pub fn finish(mut self) -> Result<(u64, Option<u64>)> {
        self.flush()?;
        let games = self.games.finish()?;
        let turns = match self.turns {
            Some(t) => Some(t.finish()?),
            None => None,
        };
        Ok((games, turns))
    }

    fn add_games(&mut self, rows: &ChunkRows) {
        let c = &self.case;
        let g = &mut self.game_cols;
        let (np, nx) = (c.players, c.extras);
        for i in 0..rows.games() {
            g.game.push((rows.first_game + i as u64) as i64);
            g.turns.push(rows.turns[i] as i64);
            g.ending.push(rows.ending[i]);
            let shares = &rows.win[i * np..(i + 1) * np];
            let mut winners = shares.iter().enumerate().filter(|(_, &s)| s > 0.0);
            g.winner.push(match (winners.next(), winners.next()) {
                (None, _) => np as u32 + 1,
                (Some((p, _)), None) => p as u32,
                _ => np as u32,
            });
            for (k, at) in c.player_at.iter().enumerate() {
                let (score, win) = match at {
                    Some(p) => (rows.score[i * np + p], shares[*p]),
                    None => (f64::NAN, f64::NAN),
                };
                g.score[k].push(score);
                g.win[k].push(win);
            }
            for (k, at) in c.extra_at.iter().enumerate() {
                g.extra[k].push(at.map_or(f64::NAN, |x| rows.extra[i * nx + x]));
            }
        }
    }

    /// Adds the chunk's per-turn rows, writing a batch whenever one is full: a chunk can hold
    /// far more turn rows than a batch.
    fn add_turns(&mut self, rows: &ChunkRows) -> Result<()> {
        let r = &rows.turn_rows;
        for i in 0..r.len() {
            if self.turn_cols.game.len() >= BATCH {
                self.flush_turns()?;
            }
            let c = &self.case;
            let t = &mut self.turn_cols;
            let (pm, m, ng) = (c.players * c.metrics, c.metrics, c.globals);
            for p in 0..c.players {
                t.game.push(r.game[i] as i64);
                t.turn.push(r.turn[i] as i64);
                t.player.push(p as u32);
                let measured = &r.per_player[i * pm + p * m..i * pm + (p + 1) * m];
                for (k, at) in c.metric_at.iter().enumerate() {
                    t.metric[k].push(at.map_or(f64::NAN, |x| measured[x]));
                }
                for (k, at) in c.global_at.iter().enumerate() {
                    t.global[k].push(at.map_or(f64::NAN, |x| r.global[i * ng + x]));
                }
            }
        }
        Ok(())
    }
}

impl GameSink for RowsWriter {
    fn wants_turn_rows(&self) -> bool {
        self.turns.is_some()
    }

    fn chunk(&mut self, rows: &ChunkRows) -> Result<()> {
        self.add_games(rows);
        if self.game_cols.game.len() >= BATCH {
            self.flush_games()?;
        }
        if self.turns.is_some() {
            self.add_turns(rows)?;
        }
        Ok(())
    }
}
