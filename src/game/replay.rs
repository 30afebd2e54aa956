//! Replaying one game of an experiment with its turn-by-turn log: the same model, seed and stream
//! as the bulk run, so game N replays exactly the row `game = N` of games.parquet.

use super::experiment::GameExperiment;
use super::run::{check_record, check_turn};
use super::tables::point_json;
use super::tally::Shape;
use super::{GameRecord, TextLog, TurnObserver};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use serde_json::{json, Value as Json};

/// One turn's measurements, as the observer received them.
pub struct ReplayTurn {
    pub turn: u32,
    pub label: String,
    pub per_player: Vec<f64>,
    pub global: Vec<f64>,
}

pub struct Replay {
    pub experiment: String,
    pub variant: String,
    pub point: usize,
    pub point_values: Json,
    pub game: u64,
    pub seed: u64,
    pub stream: u64,
    pub describe: Vec<String>,
    pub players: Vec<String>,
    pub policies: Vec<String>,
    pub endings: Vec<String>,
    pub metrics: Vec<String>,
    pub globals: Vec<String>,
    pub extras: Vec<String>,
    pub log: Vec<String>,
    pub turns: Vec<ReplayTurn>,
    pub record: GameRecord,
}

struct Keep {
    shape: Shape,
    turns: Vec<(u32, Vec<f64>, Vec<f64>)>,
    fault: Option<String>,
}

impl TurnObserver for Keep {
    fn turn(&mut self, turn: u32, per_player: &[f64], global: &[f64]) {
        let last = self.turns.last().map_or(0, |t| t.0);
        if self.fault.is_none() {
            self.fault = check_turn(&self.shape, last, turn, per_player, global);
        }
        if self.fault.is_none() {
            self.turns
                .push((turn, per_player.to_vec(), global.to_vec()));
        }
    }
}

/// Replays game `game` of the case (variant `variant` or the first, point `point` or 0).
pub fn replay(
    exp: &GameExperiment,
    variant: Option<&str>,
    point: Option<usize>,
    game: u64,
) -> Result<Replay> {
    let v = match variant {
        Some(name) => exp.find_variant("command line", "--variant", name)?,
        None => 0,
    };
    let grid = exp.grid_len();
    let p = point.unwrap_or(0);
    if p >= grid {
        return Err(AleaError::input(
            "command line",
            "--point",
            p,
            format!(
                "a sweep point from 0 to {} (the `point` column of games.parquet)",
                grid - 1
            ),
        ));
    }
    let model = exp.build(v, p)?;
    let shape = Shape::of(model.as_ref());
    let stream = exp.stream(v, p);
    let mut dice = Dice::for_trial(exp.seed, stream, game);
    let mut record = GameRecord::new(shape.players, shape.extras);
    let mut keep = Keep {
        shape,
        turns: Vec::new(),
        fault: None,
    };
    let mut log = TextLog::default();
    model
        .worker()
        .play(&mut dice, &mut record, &mut keep, &mut log);
    let observed = keep.turns.last().map_or(0, |t| t.0);
    if let Some(why) = keep
        .fault
        .or_else(|| check_record(&shape, &record, observed))
    {
        return Err(AleaError::Internal(format!(
            "the game model broke its contract in game {game} (seed {}, stream {stream}): {why}",
            exp.seed
        )));
    }
    let strings = |s: &[&'static str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    Ok(Replay {
        experiment: exp.name.clone(),
        variant: exp.variants[v].name.clone(),
        point: p,
        point_values: point_json(exp, p),
        game,
        seed: exp.seed,
        stream,
        describe: model.describe(),
        players: model.players().to_vec(),
        policies: model.player_policies().to_vec(),
        endings: strings(model.endings()),
        metrics: strings(model.turn_metrics()),
        globals: strings(model.global_metrics()),
        extras: strings(model.game_columns()),
        log: log.lines,
        turns: keep
            .turns
            .into_iter()
            .map(|(turn, per_player, global)| ReplayTurn {
                turn,
                label: model.turn_label(turn),
                per_player,
                global,
            })
            .collect(),
        record,
    })
}

impl Replay {
    /// The winner as games.parquet writes it: a player's name, "shared" or "none".
    pub fn winner(&self) -> String {
        let winners: Vec<&String> = self
            .players
            .iter()
            .zip(&self.record.win_share)
            .filter(|(_, &s)| s > 0.0)
            .map(|(name, _)| name)
            .collect();
        match winners.as_slice() {
            [] => "none".into(),
            [one] => (*one).clone(),
            _ => "shared".into(),
        }
    }

    pub fn to_json(&self) -> Json {
        let m = self.metrics.len();
        let named = |names: &[String], values: &[f64]| {
            names
                .iter()
                .zip(values)
                .map(|(n, v)| (n.clone(), json!(v)))
                .collect::<serde_json::Map<_, _>>()
        };
        json!({
            "experiment": self.experiment,
            "variant": self.variant,
            "point": self.point,
            "point_values": self.point_values,
            "game": self.game,
            "seed": self.seed,
            "stream": self.stream,
            "describe": self.describe,
            "log": self.log,
            "turns": self.turns.iter().map(|t| json!({
                "turn": t.turn,
                "label": t.label,
                "players": self.players.iter().enumerate().map(|(p, name)| {
                    (name.clone(), Json::Object(named(&self.metrics, &t.per_player[p * m..(p + 1) * m])))
                }).collect::<serde_json::Map<_, _>>(),
                "global": named(&self.globals, &t.global),
            })).collect::<Vec<_>>(),
            "record": {
                "turns": self.record.turns,
                "ending": self.endings[self.record.ending],
                "winner": self.winner(),
                "players": self.players.iter().enumerate().map(|(p, name)| json!({
                    "player": name,
                    "policy": self.policies.get(p),
                    "score": self.record.score[p],
                    "win_share": self.record.win_share[p],
                })).collect::<Vec<_>>(),
                "extra": named(&self.extras, &self.record.extra),
            },
        })
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mut case = format!("variant \"{}\"", self.variant);
        if let Some(map) = self.point_values.as_object().filter(|m| !m.is_empty()) {
            let values: Vec<String> = map.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            case += &format!(", point {} ({})", self.point, values.join(", "));
        }
        out += &format!(
            "{}: game {} ({case}; seed {}, stream {})\n",
            self.experiment, self.game, self.seed, self.stream
        );
        for line in &self.describe {
            out += &format!("  {line}\n");
        }
        out += "\n";
        for line in &self.log {
            out += &format!("{line}\n");
        }
        out += &format!(
            "\nended after {} turns: {}; winner: {}\n",
            self.record.turns,
            self.endings[self.record.ending],
            self.winner()
        );
        let width = self
            .players
            .iter()
            .map(|p| p.chars().count())
            .max()
            .unwrap_or(0);
        for (p, name) in self.players.iter().enumerate() {
            out += &format!(
                "  {name:<width$}  score {:>8}  win share {:.3}  ({})\n",
                trim_number(self.record.score[p]),
                self.record.win_share[p],
                self.policies.get(p).map_or("", String::as_str)
            );
        }
        for (name, value) in self.extras.iter().zip(&self.record.extra) {
            out += &format!("  {name}: {}\n", trim_number(*value));
        }
        out
    }
}

/// `12` for whole numbers, `12.5` otherwise.
pub fn trim_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}
