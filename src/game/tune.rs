//! `alea tune`: policy parameters tuned seat by seat against the others' current play (iterated
//! best response), for every ruleset with automated games.
//!
//! ```toml
//! [tune]
//! games = 2000         # games per candidate in the last halving rung, and per validation
//! candidates = 16      # candidates per seat per round (the incumbent among them)
//! rounds = 4           # best-response rounds at most
//! margin = 0.01        # stop once no seat gains more than this (objective units)
//! objective = "win"    # every seat's unless it says otherwise: "win", "score", or
//!                      # { avoid = "Rome falls (any cause)" } (1 − that ending's share)
//!
//! [tune.players.rome]  # a player, by its key in [game.policies]
//! policy = "aggressor" # the policy tuned (default: the player's policy in [game.policies]),
//!                      # or a list to choose among: policy = ["economist", "aggressor"]
//!                      # (every listed policy must take every parameter tuned beside it)
//! aggression = [0.0, 1.0]           # a range …
//! reserve = { values = [0, 60, 120] } # … or a list of values
//!
//! [tune.shared.senate] # a seat that is no player: numbers of [game] by dotted path
//! objective = { avoid = "Rome falls (any cause)" }
//! "senate.reserve" = [0, 100]
//! ```
//!
//! A round visits every seat in turn (players, then shared seats, each by key in order). For a
//! seat it draws candidates from a sampling distribution (the cross-entropy method: a normal per
//! range, a categorical per list, both refitted round by round to the best candidates), keeps the
//! incumbent among them, and races them by successive halving: every candidate alive plays the
//! same games (common random numbers, the same seeds for all), the worse half is dropped, and the
//! survivors play twice as many games, up to `games`. The winner then plays `games` fresh games
//! beside the incumbent, again on the same seeds; the paired difference is the seat's gain, with
//! its 95% interval. A positive gain is adopted. Once a round's largest gain is at most `margin`,
//! the seats are in an approximate equilibrium: no single seat gains more than `margin` by
//! changing its own parameters within the ranges searched (as far as the search found).
//!
//! Every game plays from a stream fixed by (seed, round, seat, rung), and tallies are exact, so the
//! result depends only on the file and its seed, never on the thread count.

use super::experiment::{merge_dotted, GameExperiment, POLICIES_FROM};
use super::run::{play_games, ChunkRows, GameSink};
use super::summary::Z95;
use super::GameModel;
use crate::charts::{draw_line_chart, LineChart, Point, Series};
use crate::dice::Dice;
use crate::error::{did_you_mean, AleaError, Result};
use crate::output::{tidy, write_atomic, Cell, ColType, OutputDir, TableWriter};
use crate::progress::Progress;
use crate::spec::value_text;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::time::Instant;
use toml::{Table, Value};

const DEFAULT_GAMES: u64 = 2_000;
const DEFAULT_CANDIDATES: usize = 16;
const DEFAULT_ROUNDS: usize = 4;
const DEFAULT_MARGIN: f64 = 0.01;
/// The fewest games a candidate plays in the first halving rung.
const MIN_RUNG_GAMES: u64 = 64;
/// Streams of the tuner's games start here, clear of `alea run`'s case streams.
const STREAM_BASE: u64 = 1 << 40;

/// What a seat maximises.
#[derive(Clone, Debug, PartialEq)]
pub enum Objective {
    /// The player's mean win share.
    Win,
    /// The player's mean final score.
    Score,
    /// 1 − the share of games that end in one of these endings (by index).
    Avoid { name: String, endings: Vec<usize> },
}

impl Objective {
    /// A 95% interval around `mean`, kept within [0, 1] where the objective is a share.
    fn interval(&self, mean: f64, se: f64) -> (f64, f64, f64) {
        let (lo, hi) = (mean - Z95 * se, mean + Z95 * se);
        match self {
            Objective::Score => (mean, lo, hi),
            _ => (mean, lo.max(0.0), hi.min(1.0)),
        }
    }

    fn label(&self) -> String {
        match self {
            Objective::Win => "win share".into(),
            Objective::Score => "mean score".into(),
            Objective::Avoid { name, .. } => format!("1 − P({name})"),
        }
    }
}

/// The values one tuned number may take.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    Range(f64, f64),
    Values(Vec<f64>),
    /// A choice among policies by name (`policy = ["economist", "aggressor"]`): the value is the
    /// index into the list.
    Names(Vec<String>),
}

/// One tuned number: its key in the `[tune]` table and its dotted path inside `[game]`.
#[derive(Clone, Debug)]
pub struct Dim {
    pub key: String,
    pub path: String,
    pub domain: Domain,
}

/// A seat of the best-response loop: a player's policy parameters or shared numbers of `[game]`.
#[derive(Clone, Debug)]
pub struct Seat {
    pub name: String,
    /// The player's index, for player seats.
    pub player: Option<usize>,
    /// For player seats: the policy whose parameters are tuned.
    pub policy: Option<String>,
    pub objective: Objective,
    pub dims: Vec<Dim>,
}

/// The `[tune]` table, checked against the game.
#[derive(Clone, Debug)]
pub struct TuneSpec {
    pub games: u64,
    pub candidates: usize,
    pub rounds: usize,
    pub margin: f64,
    pub seats: Vec<Seat>,
}

/// A seat's values: `None` leaves a number as the experiment has it (its policy's default).
type Values = Vec<Option<f64>>;

fn tune_error(
    exp: &GameExperiment,
    field: &str,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(&exp.source, format!("tune.{field}"), value, allowed)
}

fn number(v: &Value) -> Option<f64> {
    v.as_float()
        .or_else(|| v.as_integer().map(|i| i as f64))
        .filter(|x| x.is_finite())
}

fn parse_domain(exp: &GameExperiment, field: &str, v: &Value) -> Result<Domain> {
    let allowed =
        "a range [low, high] with low < high, or { values = [a, b, …] } (at least one number)";
    match v {
        Value::Array(a) => match a.as_slice() {
            [lo, hi] => match (number(lo), number(hi)) {
                (Some(lo), Some(hi)) if lo < hi => Ok(Domain::Range(lo, hi)),
                _ => Err(tune_error(exp, field, value_text(v), allowed)),
            },
            _ => Err(tune_error(exp, field, value_text(v), allowed)),
        },
        Value::Table(t) if t.len() == 1 => match t.get("values") {
            Some(Value::Array(a)) if !a.is_empty() => {
                let xs: Option<Vec<f64>> = a.iter().map(number).collect();
                xs.map(Domain::Values)
                    .ok_or_else(|| tune_error(exp, field, value_text(v), allowed))
            }
            _ => Err(tune_error(exp, field, value_text(v), allowed)),
        },
        _ => Err(tune_error(exp, field, value_text(v), allowed)),
    }
}

fn parse_objective(
    exp: &GameExperiment,
    model: &dyn GameModel,
    field: &str,
    v: &Value,
) -> Result<Objective> {
    let endings = model.endings();
    let groups = model.ending_groups();
    let mut names: Vec<&str> = groups.iter().map(|g| g.0).collect();
    names.extend(endings.iter().copied());
    let allowed = format!(
        "\"win\", \"score\", or {{ avoid = an ending or group of endings: {} }}",
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    match v {
        Value::String(s) if s == "win" => Ok(Objective::Win),
        Value::String(s) if s == "score" => Ok(Objective::Score),
        Value::Table(t) if t.len() == 1 && t.contains_key("avoid") => {
            let name = t["avoid"].as_str().unwrap_or_default();
            if let Some(g) = groups.iter().find(|g| g.0 == name) {
                return Ok(Objective::Avoid {
                    name: name.into(),
                    endings: g.1.to_vec(),
                });
            }
            if let Some(e) = endings.iter().position(|e| *e == name) {
                return Ok(Objective::Avoid {
                    name: name.into(),
                    endings: vec![e],
                });
            }
            let hint = did_you_mean(name, names.iter().copied());
            Err(tune_error(
                exp,
                &format!("{field}.avoid"),
                format!("{}{hint}", value_text(&t["avoid"])),
                allowed,
            ))
        }
        _ => Err(tune_error(exp, field, value_text(v), allowed)),
    }
}

/// The policy value player `key` has in `[game.policies]` (its own, else `default`).
fn policy_value<'a>(game: &'a Table, key: &str) -> Option<&'a Value> {
    let policies = game.get("policies")?.as_table()?;
    policies.get(key).or_else(|| policies.get("default"))
}

fn policy_name(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        Value::Table(t) => t.get("policy").and_then(Value::as_str),
        _ => None,
    }
}

impl TuneSpec {
    /// Reads and checks `exp`'s `[tune]` table: every player, parameter and range is tried on the
    /// game's builder, so a mistake is a one-line error naming the `[tune]` field.
    pub fn parse(exp: &GameExperiment) -> Result<TuneSpec> {
        let table = exp.tune.clone().ok_or_else(|| {
            AleaError::invalid(&exp.source, "no [tune] table: name the players to tune and their parameters' ranges (see `alea tune --help`)")
        })?;
        let base = exp.build(0, 0)?;
        let keys = base.policy_keys();
        let known = [
            "games",
            "candidates",
            "rounds",
            "margin",
            "objective",
            "players",
            "shared",
        ];
        for (k, v) in &table {
            if !known.contains(&k.as_str()) {
                let hint = did_you_mean(k, known.iter().copied());
                return Err(tune_error(
                    exp,
                    k,
                    format!("{}{hint}", value_text(v)),
                    format!("one of {}", known.join(", ")),
                ));
            }
        }
        let whole = |key: &str, lo: i64, hi: i64, default: i64| -> Result<i64> {
            match table.get(key) {
                None => Ok(default),
                Some(Value::Integer(i)) if (lo..=hi).contains(i) => Ok(*i),
                Some(v) => Err(tune_error(
                    exp,
                    key,
                    value_text(v),
                    format!("a whole number from {lo} to {hi}"),
                )),
            }
        };
        let games = whole("games", 10, 100_000_000, DEFAULT_GAMES as i64)? as u64;
        let candidates = whole("candidates", 2, 1024, DEFAULT_CANDIDATES as i64)? as usize;
        let rounds = whole("rounds", 1, 100, DEFAULT_ROUNDS as i64)? as usize;
        let margin = match table.get("margin") {
            None => DEFAULT_MARGIN,
            Some(v) => match number(v) {
                Some(m) if m >= 0.0 => m,
                _ => {
                    return Err(tune_error(
                        exp,
                        "margin",
                        value_text(v),
                        "a number ≥ 0 (objective units, e.g. 0.01 = one point of win share)",
                    ))
                }
            },
        };
        let objective = match table.get("objective") {
            None => Objective::Win,
            Some(v) => parse_objective(exp, base.as_ref(), "objective", v)?,
        };
        let empty = Table::new();
        let section = |name: &str| -> Result<&Table> {
            match table.get(name) {
                None => Ok(&empty),
                Some(Value::Table(t)) => Ok(t),
                Some(v) => Err(tune_error(
                    exp,
                    name,
                    value_text(v),
                    "a table of seats: [tune.players.<player>] or [tune.shared.<name>]",
                )),
            }
        };
        let mut seats = Vec::new();
        for (key, v) in section("players")? {
            let field = format!("players.{key}");
            let Some(player) = keys.iter().position(|k| k == key) else {
                let hint = did_you_mean(key, keys.iter().map(String::as_str));
                return Err(tune_error(
                    exp,
                    &field,
                    format!("a player \"{key}\"{hint}"),
                    format!("a player of the game: {}", keys.join(", ")),
                ));
            };
            let Value::Table(t) = v else {
                return Err(tune_error(
                    exp,
                    &field,
                    value_text(v),
                    "a table: the parameters' ranges, and optionally `policy` and `objective`",
                ));
            };
            let current = policy_value(&exp.game, key)
                .and_then(policy_name)
                .map(String::from);
            let (policy, choice) =
                match t.get("policy") {
                    Some(Value::String(p)) => (p.clone(), None),
                    Some(Value::Array(a)) if !a.is_empty() && a.iter().all(Value::is_str) => {
                        let names: Vec<String> = a
                            .iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect();
                        // Start from the experiment's policy when it is among the choices.
                        let start = current
                            .clone()
                            .filter(|c| names.contains(c))
                            .unwrap_or_else(|| names[0].clone());
                        (start, Some(names))
                    }
                    Some(other) => {
                        return Err(tune_error(
                            exp,
                            &format!("{field}.policy"),
                            value_text(other),
                            "a policy's name, or a list of names to choose among",
                        ))
                    }
                    None => match current {
                        Some(p) => (p, None),
                        None => return Err(tune_error(
                            exp,
                            &format!("{field}.policy"),
                            "nothing",
                            "the policy to tune: [game.policies] does not name one for this player",
                        )),
                    },
                };
            let mut seat = Seat {
                name: key.clone(),
                player: Some(player),
                policy: Some(policy),
                objective: objective.clone(),
                dims: Vec::new(),
            };
            if let Some(names) = choice {
                seat.dims.push(Dim {
                    key: "policy".into(),
                    path: format!("policies.{key}.policy"),
                    domain: Domain::Names(names),
                });
            }
            for (param, dv) in t {
                match param.as_str() {
                    "policy" => {}
                    "objective" => {
                        seat.objective =
                            parse_objective(exp, base.as_ref(), &format!("{field}.objective"), dv)?
                    }
                    _ => seat.dims.push(Dim {
                        key: param.clone(),
                        path: format!("policies.{key}.{param}"),
                        domain: parse_domain(exp, &format!("{field}.{param}"), dv)?,
                    }),
                }
            }
            seats.push(seat);
        }
        for (name, v) in section("shared")? {
            let field = format!("shared.{name}");
            let Value::Table(t) = v else {
                return Err(tune_error(exp, &field, value_text(v), "a table: dotted fields of [game] with their ranges, and optionally `objective`"));
            };
            let mut seat = Seat {
                name: name.clone(),
                player: None,
                policy: None,
                objective: objective.clone(),
                dims: Vec::new(),
            };
            for (path, dv) in t {
                if path == "objective" {
                    seat.objective =
                        parse_objective(exp, base.as_ref(), &format!("{field}.objective"), dv)?;
                    continue;
                }
                if path == "ruleset"
                    || path.starts_with("ruleset.")
                    || path.starts_with("policies.")
                    || path == POLICIES_FROM
                {
                    return Err(tune_error(exp, &format!("{field}.{path}"), value_text(dv), "a numeric field of [game] other than ruleset, policies and policies_from (tune a player's policy under [tune.players])"));
                }
                seat.dims.push(Dim {
                    key: path.clone(),
                    path: path.clone(),
                    domain: parse_domain(exp, &format!("{field}.{path}"), dv)?,
                });
            }
            if matches!(seat.objective, Objective::Win | Objective::Score) {
                return Err(tune_error(exp, &format!("{field}.objective"), value_text(t.get("objective").unwrap_or(&Value::String("win".into()))), "{ avoid = \"…\" }: a shared seat is no player, so it has no win share or score of its own"));
            }
            seats.push(seat);
        }
        if seats.is_empty() {
            return Err(AleaError::invalid(&exp.source, "[tune] names no seat: add [tune.players.<player>] or [tune.shared.<name>] with parameter ranges"));
        }
        for seat in &seats {
            if seat.dims.is_empty() {
                let field = match seat.player {
                    Some(_) => format!("players.{}", seat.name),
                    None => format!("shared.{}", seat.name),
                };
                return Err(tune_error(
                    exp,
                    &field,
                    "no parameter",
                    "at least one parameter with its range or values",
                ));
            }
        }
        let spec = TuneSpec {
            games,
            candidates,
            rounds,
            margin,
            seats,
        };
        spec.check_against_builder(exp)?;
        Ok(spec)
    }

    /// Builds the game with every tuned number at each end of its domain: an unknown parameter
    /// or a range the policy does not allow fails here, named by its `[tune]` field.
    fn check_against_builder(&self, exp: &GameExperiment) -> Result<()> {
        let base = normalised_base(exp, &self.seats)?;
        for seat in &self.seats {
            // Every policy a seat may choose, with every number at each end of its domain.
            let choice = seat
                .dims
                .iter()
                .position(|d| matches!(d.domain, Domain::Names(_)));
            let choices: Vec<Option<f64>> = match choice.map(|c| &seat.dims[c].domain) {
                Some(Domain::Names(n)) => (0..n.len()).map(|i| Some(i as f64)).collect(),
                _ => vec![None],
            };
            for (d, dim) in seat.dims.iter().enumerate() {
                let ends = match &dim.domain {
                    Domain::Range(lo, hi) => vec![*lo, *hi],
                    Domain::Values(v) => v.clone(),
                    Domain::Names(n) => (0..n.len()).map(|i| i as f64).collect(),
                };
                for x in ends {
                    for &pick in &choices {
                        let mut values: Values = vec![None; seat.dims.len()];
                        if let Some(c) = choice {
                            values[c] = pick;
                        }
                        values[d] = Some(x);
                        let mut table = base.clone();
                        apply(&mut table, seat, &values)
                            .map_err(|m| AleaError::invalid(&exp.source, m))?;
                        if let Err(e) = exp.build_from(&table, exp.case_source(0, 0)) {
                            let field = match seat.player {
                                Some(_) => format!("players.{}.{}", seat.name, dim.key),
                                None => format!("shared.{}.{}", seat.name, dim.key),
                            };
                            let (given, allowed) = match e {
                                AleaError::Input { value, allowed, .. } => (value, allowed),
                                other => (String::new(), other.to_string()),
                            };
                            let chosen = choice.map(|c| &seat.dims[c].domain);
                            let shown = match (&dim.domain, chosen, pick) {
                                // The builder's own words: they carry a did-you-mean.
                                (Domain::Names(_), _, _) if !given.is_empty() => given,
                                (Domain::Names(n), _, _) => format!("\"{}\"", n[x as usize]),
                                (_, Some(Domain::Names(n)), Some(i)) => {
                                    format!("{} (with policy \"{}\")", tidy(x), n[i as usize])
                                }
                                _ => tidy(x).to_string(),
                            };
                            return Err(tune_error(exp, &field, shown, allowed));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The experiment's first case with each player seat's policy written as a table of the tuned
/// policy (keeping the parameters the experiment gave it when the policy is the same).
fn normalised_base(exp: &GameExperiment, seats: &[Seat]) -> Result<Table> {
    let mut table = exp.table_at(0, 0)?;
    for seat in seats {
        let Some(policy) = &seat.policy else { continue };
        let mut t = Table::new();
        if let Some(Value::Table(given)) = policy_value(&table, &seat.name) {
            if given.get("policy").and_then(Value::as_str) == Some(policy) {
                t = given.clone();
            }
        }
        t.insert("policy".into(), Value::String(policy.clone()));
        merge_dotted(
            &mut table,
            &format!("policies.{}", seat.name),
            Value::Table(t),
        )
        .map_err(|m| AleaError::invalid(&exp.source, m))?;
    }
    Ok(table)
}

/// Writes a seat's values into a `[game]` table.
fn apply(table: &mut Table, seat: &Seat, values: &Values) -> std::result::Result<(), String> {
    for (dim, v) in seat.dims.iter().zip(values) {
        match (&dim.domain, v) {
            (Domain::Names(n), Some(i)) => {
                // Another policy starts from its own defaults: the old one's parameters go.
                let name = &n[*i as usize];
                if policy_value(table, &seat.name)
                    .as_ref()
                    .and_then(|v| policy_name(v))
                    != Some(name)
                {
                    let mut fresh = Table::new();
                    fresh.insert("policy".into(), Value::String(name.clone()));
                    let policies = table
                        .entry("policies")
                        .or_insert_with(|| Value::Table(Table::new()));
                    let Value::Table(policies) = policies else {
                        return Err("[game] policies is not a table".into());
                    };
                    policies.insert(seat.name.clone(), Value::Table(fresh));
                }
            }
            (_, Some(x)) => merge_dotted(table, &dim.path, Value::Float(*x))?,
            (_, None) => {}
        }
    }
    Ok(())
}

/// The values a table gives a seat's numbers (`None` where it gives none).
fn read_values(table: &Table, seat: &Seat) -> Values {
    seat.dims
        .iter()
        .map(|dim| {
            let mut node: Option<&Value> = None;
            let mut t = Some(table);
            for part in dim.path.split('.') {
                node = t.and_then(|t| t.get(part));
                t = node.and_then(Value::as_table);
            }
            match &dim.domain {
                Domain::Names(n) => node
                    .and_then(Value::as_str)
                    .and_then(|p| n.iter().position(|x| x == p))
                    .map(|i| i as f64),
                _ => node.and_then(number),
            }
        })
        .collect()
}

fn values_label(seat: &Seat, values: &Values) -> String {
    let mut policy = seat.policy.clone();
    let mut parts = Vec::new();
    for (d, v) in seat.dims.iter().zip(values) {
        match (&d.domain, v) {
            (Domain::Names(n), Some(i)) => policy = Some(n[*i as usize].clone()),
            (Domain::Names(_), None) => {}
            (_, Some(x)) => parts.push(format!("{}={}", d.key, tidy(*x))),
            // Left to the policy's default: not shown, as `alea run` shows policies.
            (_, None) => {}
        }
    }
    match policy {
        Some(p) if parts.is_empty() => p,
        Some(p) => format!("{p}({})", parts.join(", ")),
        None => parts.join(", "),
    }
}

/// Collects each game's objective value for one seat, in game order.
struct ObjectiveSink<'a> {
    objective: &'a Objective,
    player: Option<usize>,
    players: usize,
    values: Vec<f64>,
}

impl GameSink for ObjectiveSink<'_> {
    fn chunk(&mut self, rows: &ChunkRows) -> Result<()> {
        for g in 0..rows.games() {
            let p = self.player.unwrap_or(0);
            let x = match self.objective {
                Objective::Win => rows.win[g * self.players + p],
                Objective::Score => rows.score[g * self.players + p],
                Objective::Avoid { endings, .. } => {
                    (!endings.contains(&(rows.ending[g] as usize))) as u8 as f64
                }
            };
            self.values.push(x);
        }
        Ok(())
    }
}

/// Mean and standard error of a sample.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, (var / n).sqrt())
}

/// The sampling distribution of one seat's values (cross-entropy method).
#[derive(Clone, Debug)]
enum Sampler {
    Normal {
        mean: f64,
        sd: f64,
        lo: f64,
        hi: f64,
    },
    Categorical {
        values: Vec<f64>,
        weights: Vec<f64>,
    },
}

impl Sampler {
    fn new(domain: &Domain, start: Option<f64>) -> Sampler {
        match domain {
            Domain::Range(lo, hi) => Sampler::Normal {
                mean: start.unwrap_or((lo + hi) / 2.0).clamp(*lo, *hi),
                sd: (hi - lo) / 2.0,
                lo: *lo,
                hi: *hi,
            },
            Domain::Values(v) => Sampler::Categorical {
                values: v.clone(),
                weights: vec![1.0 / v.len() as f64; v.len()],
            },
            Domain::Names(n) => Sampler::Categorical {
                values: (0..n.len()).map(|i| i as f64).collect(),
                weights: vec![1.0 / n.len() as f64; n.len()],
            },
        }
    }

    fn draw(&self, dice: &mut Dice) -> f64 {
        match self {
            Sampler::Normal { mean, sd, lo, hi } => {
                // Box–Muller, clamped to the range.
                let u1 = dice.uniform().max(f64::MIN_POSITIVE);
                let u2 = dice.uniform();
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                // On a grid of a thousandth of the range: tuned files stay readable.
                let step = (*hi - *lo) / 1000.0;
                (*lo + ((mean + sd * z - lo) / step).round() * step).clamp(*lo, *hi)
            }
            Sampler::Categorical { values, weights } => {
                let mut u = dice.uniform();
                for (v, w) in values.iter().zip(weights) {
                    if u < *w {
                        return *v;
                    }
                    u -= w;
                }
                *values.last().expect("non-empty")
            }
        }
    }

    /// Moves half-way towards the elite's values.
    fn refit(&mut self, elite: &[f64]) {
        if elite.is_empty() {
            return;
        }
        match self {
            Sampler::Normal { mean, sd, lo, hi } => {
                let (m, _) = mean_se(elite);
                let spread = (elite.iter().map(|x| (x - m) * (x - m)).sum::<f64>()
                    / elite.len() as f64)
                    .sqrt();
                *mean = m;
                *sd = (0.5 * *sd + 0.5 * spread).max((*hi - *lo) * 0.02);
            }
            Sampler::Categorical { values, weights } => {
                for (v, w) in values.iter().zip(weights.iter_mut()) {
                    let share =
                        elite.iter().filter(|&&x| x == *v).count() as f64 / elite.len() as f64;
                    *w = 0.5 * *w + 0.5 * share;
                }
            }
        }
    }
}

/// One seat's result in one round.
#[derive(Clone, Debug)]
pub struct SeatRound {
    pub round: usize,
    pub seat: String,
    /// The seat's policy after the round, as a label.
    pub label: String,
    /// The objective of the seat's play after the round, on the validation games.
    pub objective: (f64, f64, f64),
    pub incumbent_objective: f64,
    /// The winner's paired gain over the incumbent (0 when the incumbent won the race).
    pub gain: (f64, f64, f64),
    pub adopted: bool,
    pub games: u64,
}

pub struct TuneSettings {
    pub out_root: PathBuf,
    pub show_progress: bool,
}

pub struct TuneResult {
    pub dir: PathBuf,
    pub files: Vec<String>,
    pub rounds: Vec<SeatRound>,
    pub converged: bool,
    pub summary: Json,
    pub seconds: f64,
}

/// The games of one evaluation: `games` games on one stream, the seat's per-game objective values.
fn evaluate(
    exp: &GameExperiment,
    table: &Table,
    seat: &Seat,
    games: u64,
    stream: u64,
    progress: &Progress,
) -> Result<Vec<f64>> {
    let model = exp.build_from(table, exp.case_source(0, 0))?;
    let mut sink = ObjectiveSink {
        objective: &seat.objective,
        player: seat.player,
        players: model.players().len(),
        values: Vec::with_capacity(games as usize),
    };
    play_games(model.as_ref(), games, exp.seed, stream, progress, &mut sink)?;
    Ok(sink.values)
}

/// The halving rungs: (candidates alive, games each plays), the last rung at `games`.
fn rungs(candidates: usize, games: u64) -> Vec<(usize, u64)> {
    let mut alive = Vec::new();
    let mut k = candidates;
    while k > 1 {
        alive.push(k);
        k = k.div_ceil(2);
    }
    let n = alive.len();
    alive
        .into_iter()
        .enumerate()
        .map(|(r, k)| (k, (games >> (n - 1 - r)).max(MIN_RUNG_GAMES.min(games))))
        .collect()
}

/// Games one seat's turn in a round plays (for the progress bar).
fn seat_games(spec: &TuneSpec) -> u64 {
    rungs(spec.candidates, spec.games)
        .iter()
        .map(|&(k, g)| k as u64 * g)
        .sum::<u64>()
        + 2 * spec.games
}

/// Runs the tuner and writes `out/<name>/`: tuned-policies.toml, tuning.csv (and .parquet),
/// the chart tuning-rounds and summary.json, committed together.
pub fn tune(exp: &GameExperiment, settings: &TuneSettings) -> Result<TuneResult> {
    let started = Instant::now();
    let spec = TuneSpec::parse(exp)?;
    let dir = OutputDir::create(&settings.out_root, &exp.name)?;
    let mut table = normalised_base(exp, &spec.seats)?;
    let mut samplers: Vec<Vec<Sampler>> = spec
        .seats
        .iter()
        .map(|seat| {
            let start = read_values(&table, seat);
            seat.dims
                .iter()
                .zip(start)
                .map(|(d, s)| Sampler::new(&d.domain, s))
                .collect()
        })
        .collect();
    let total = seat_games(&spec) * (spec.seats.len() * spec.rounds) as u64;
    let progress = Progress::new(total, "games", settings.show_progress);
    let mut history: Vec<SeatRound> = Vec::new();
    let mut converged = false;
    for round in 1..=spec.rounds {
        let mut largest = f64::NEG_INFINITY;
        for (s, seat) in spec.seats.iter().enumerate() {
            progress.set_message(format!("round {round}/{}: {}", spec.rounds, seat.name));
            let stream = STREAM_BASE + ((round as u64) << 20) + ((s as u64) << 4);
            let incumbent = read_values(&table, seat);
            let mut draw =
                Dice::for_trial(exp.seed, STREAM_BASE - 1, ((round as u64) << 20) + s as u64);
            let mut candidates: Vec<Values> = vec![incumbent.clone()];
            while candidates.len() < spec.candidates {
                let c: Values = samplers[s]
                    .iter()
                    .map(|sm| Some(sm.draw(&mut draw)))
                    .collect();
                candidates.push(c);
            }
            // Successive halving on common games: every rung replays from game 0.
            let mut alive: Vec<usize> = (0..candidates.len()).collect();
            let mut elite: Vec<usize> = Vec::new();
            let mut played = 0u64;
            for (rung, (_, games)) in rungs(candidates.len(), spec.games).into_iter().enumerate() {
                let mut scored: Vec<(usize, f64)> = Vec::with_capacity(alive.len());
                for &c in &alive {
                    let mut t = table.clone();
                    apply(&mut t, seat, &candidates[c])
                        .map_err(|m| AleaError::invalid(&exp.source, m))?;
                    let v = evaluate(exp, &t, seat, games, stream + rung as u64, &progress)?;
                    played += games;
                    scored.push((c, mean_se(&v).0));
                }
                scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                alive = scored
                    .iter()
                    .take(scored.len().div_ceil(2))
                    .map(|x| x.0)
                    .collect();
                if alive.len() <= 4 && elite.is_empty() {
                    elite = alive.clone();
                }
            }
            if elite.is_empty() {
                elite = alive.clone();
            }
            let winner = alive[0];
            for (d, sampler) in samplers[s].iter_mut().enumerate() {
                let xs: Vec<f64> = elite.iter().filter_map(|&c| candidates[c][d]).collect();
                sampler.refit(&xs);
            }
            // Validation on fresh games: the winner beside the incumbent, paired game by game.
            let validation = stream + 15;
            let inc_values = evaluate(exp, &table, seat, spec.games, validation, &progress)?;
            played += spec.games;
            let (inc_mean, inc_se) = mean_se(&inc_values);
            let mut record = SeatRound {
                round,
                seat: seat.name.clone(),
                label: values_label(seat, &incumbent),
                objective: seat.objective.interval(inc_mean, inc_se),
                incumbent_objective: inc_mean,
                gain: (0.0, 0.0, 0.0),
                adopted: false,
                games: 0,
            };
            if winner != 0 {
                let mut t = table.clone();
                apply(&mut t, seat, &candidates[winner])
                    .map_err(|m| AleaError::invalid(&exp.source, m))?;
                let win_values = evaluate(exp, &t, seat, spec.games, validation, &progress)?;
                played += spec.games;
                let diff: Vec<f64> = win_values
                    .iter()
                    .zip(&inc_values)
                    .map(|(a, b)| a - b)
                    .collect();
                let (gain, se) = mean_se(&diff);
                record.gain = (gain, gain - Z95 * se, gain + Z95 * se);
                if gain > 0.0 {
                    let (m, se) = mean_se(&win_values);
                    record.adopted = true;
                    record.label = values_label(seat, &candidates[winner]);
                    record.objective = seat.objective.interval(m, se);
                    table = t;
                }
            } else {
                progress.inc(spec.games);
            }
            record.games = played;
            largest = largest.max(record.gain.0);
            history.push(record);
        }
        if largest <= spec.margin {
            converged = true;
            break;
        }
    }
    progress.finish();
    let files = write_outputs(exp, &spec, &table, &history, converged, &dir)?;
    let seconds = started.elapsed().as_secs_f64();
    let summary = summary_json(exp, &spec, &table, &history, converged);
    let manifest = json!({
        "alea_version": env!("CARGO_PKG_VERSION"),
        "experiment": exp.name,
        "experiment_file": exp.source,
        "experiment_sha256": exp.sha256,
        "seed": exp.seed,
        "games": history.iter().map(|r| r.games).sum::<u64>(),
        "wall_time_seconds": (seconds * 1000.0).round() / 1000.0,
        "threads": rayon::current_num_threads(),
    });
    let text =
        serde_json::to_string_pretty(&manifest).map_err(|e| AleaError::Internal(e.to_string()))?;
    write_atomic(&dir.path("manifest.json"), (text + "\n").as_bytes())?;
    let mut files = files;
    files.push("manifest.json".into());
    let path = dir.commit()?;
    Ok(TuneResult {
        dir: path,
        files,
        rounds: history,
        converged,
        summary,
        seconds,
    })
}

/// The last round's largest gain: how much a single seat could still win by deviating.
fn last_round_gain(history: &[SeatRound]) -> Option<&SeatRound> {
    let last = history.last()?.round;
    history
        .iter()
        .filter(|r| r.round == last)
        .max_by(|a, b| a.gain.0.total_cmp(&b.gain.0))
}

fn summary_json(
    exp: &GameExperiment,
    spec: &TuneSpec,
    table: &Table,
    history: &[SeatRound],
    converged: bool,
) -> Json {
    let last = last_round_gain(history);
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
        "games_per_candidate": spec.games,
        "candidates": spec.candidates,
        "last_round_largest_gain": last.map(|r| json!({
            "seat": r.seat, "gain": tidy(r.gain.0), "ci_low": tidy(r.gain.1), "ci_high": tidy(r.gain.2),
        })),
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
                        let _ = merge_dotted(&mut out, &dim.path, Value::Float(tidy(*x)));
                    }
                }
            }
        }
    }
    let gain = last_round_gain(history)
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
    if let Some(r) = last_round_gain(history) {
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
    out.insert(super::experiment::TUNING.into(), Value::Table(tuning));
    format!(
        "# Tuned by `alea tune {}` (seed {}): {} round(s), {}; margin {}.\n# Largest gain a single seat still found in the last round: {gain}.\n# Load with [game] policies_from = \"<this file>\".\n{}",
        exp.source,
        exp.seed,
        history.last().map_or(0, |r| r.round),
        if converged { "converged" } else { "NOT converged (more rounds, games or candidates may help)" },
        spec.margin,
        toml::to_string(&out).unwrap_or_default()
    )
}

fn write_outputs(
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
        ("adopted", ColType::Int),
        ("games", ColType::Int),
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
            Cell::Int(r.adopted as i64),
            Cell::Int(r.games as i64),
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
            spec.games,
            if converged {
                format!("converged: no seat gains more than {}", spec.margin)
            } else {
                "not converged".into()
            }
        )),
        x_label: "best-response round".into(),
        y_label: "objective (win share, score or 1 − P(ending))".into(),
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
