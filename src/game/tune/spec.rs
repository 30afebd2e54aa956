//! The `[tune]` table: seats, their numbers and domains, objectives; checked against the game's
//! builder so a mistake is a one-line error naming its `[tune]` field.

use super::super::experiment::{merge_dotted, GameExperiment, POLICIES_FROM};
use super::super::GameModel;
use crate::error::{did_you_mean, AleaError, Result};
use crate::output::tidy;
use crate::spec::value_text;
use crate::stats::normal_ci95;
use toml::{Table, Value};

const DEFAULT_GAMES: u64 = 2_000;
const DEFAULT_CANDIDATES: usize = 16;
const DEFAULT_ROUNDS: usize = 4;
const DEFAULT_MARGIN: f64 = 0.01;
const DEFAULT_LOCAL_DIMS: usize = 3;

/// How a round's gains are held against the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvergeOn {
    /// Every seat's best gain, as measured, is at most the margin.
    Estimate,
    /// The upper end of every seat's 95% interval is at most the margin: stricter, and it needs
    /// enough validation games for the interval to be narrower than the margin.
    Upper,
}

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
    pub(super) fn interval(&self, mean: f64, se: f64) -> (f64, f64, f64) {
        let (lo, hi) = normal_ci95(mean, se);
        match self {
            Objective::Score => (mean, lo, hi),
            _ => (mean, lo.max(0.0), hi.min(1.0)),
        }
    }

    pub(super) fn label(&self) -> String {
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
    /// The game takes only whole numbers here (counts such as legions): candidates are whole
    /// numbers, written as integers.
    pub whole: bool,
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
    /// Each number's default in the seat's policy, where the policy declares one (`None` for
    /// shared seats and policy choices).
    pub defaults: Vec<Option<f64>>,
}

/// The `[tune]` table, checked against the game.
#[derive(Clone, Debug)]
pub struct TuneSpec {
    pub games: u64,
    /// Fresh games each validation plays (the winner's and the incumbent's): its precision is
    /// what the margin is held against, and it is paid once a seat, not once a candidate.
    pub validation: u64,
    pub candidates: usize,
    pub rounds: usize,
    pub margin: f64,
    pub converge_on: ConvergeOn,
    /// How far an adopted seat's numbers move from its incumbent towards the race's winner
    /// (1: all the way, plain best response; less damps the back-and-forth between seats).
    pub step: f64,
    /// The share of a seat's candidates (the incumbent aside) that are local moves: the
    /// incumbent with a few of its numbers changed a little, the first one the policy's defaults.
    pub local: f64,
    /// The most numbers a local move changes.
    pub local_dims: usize,
    /// Whether convergence also needs an ends round (one number at a time at an end of its range).
    pub ends: bool,
    pub seats: Vec<Seat>,
}

/// A seat's values: `None` leaves a number as the experiment has it (its policy's default).
pub(super) type Values = Vec<Option<f64>>;

pub(super) fn tune_error(
    exp: &GameExperiment,
    field: &str,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(&exp.source, format!("tune.{field}"), value, allowed)
}

pub(super) fn number(v: &Value) -> Option<f64> {
    v.as_float()
        .or_else(|| v.as_integer().map(|i| i as f64))
        .filter(|x| x.is_finite())
}

impl Dim {
    /// A tuned number from its `[tune]` entry `v` (at `field`).
    fn parse(exp: &GameExperiment, field: &str, key: &str, path: String, v: &Value) -> Result<Dim> {
        Ok(Dim {
            key: key.to_string(),
            path,
            domain: parse_numbers(exp, field, v)?,
            // Whole numbers are only what the game's builder asks for: see find_whole_numbers.
            whole: false,
        })
    }
}

fn parse_numbers(exp: &GameExperiment, field: &str, v: &Value) -> Result<Domain> {
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
pub(super) fn policy_value<'a>(game: &'a Table, key: &str) -> Option<&'a Value> {
    let policies = game.get("policies")?.as_table()?;
    policies.get(key).or_else(|| policies.get("default"))
}

pub(super) fn policy_name(v: &Value) -> Option<&str> {
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
            "validation",
            "candidates",
            "rounds",
            "margin",
            "converge_on",
            "step",
            "local",
            "local_dims",
            "ends",
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
        let validation = whole("validation", 10, 100_000_000, games as i64)? as u64;
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
        let converge_on = match table.get("converge_on") {
            None => ConvergeOn::Estimate,
            Some(Value::String(s)) if s == "estimate" => ConvergeOn::Estimate,
            Some(Value::String(s)) if s == "upper" => ConvergeOn::Upper,
            Some(v) => {
                return Err(tune_error(
                    exp,
                    "converge_on",
                    value_text(v),
                    "\"estimate\" (each seat's measured gain within the margin) or \"upper\" (the upper end of its 95% interval)",
                ))
            }
        };
        let step = match table.get("step") {
            None => 1.0,
            Some(v) => match number(v) {
                Some(x) if x > 0.0 && x <= 1.0 => x,
                _ => {
                    return Err(tune_error(
                        exp,
                        "step",
                        value_text(v),
                        "a number in (0, 1]: the share of the way from the incumbent to the best response",
                    ))
                }
            },
        };
        let local = match table.get("local") {
            None => 0.0,
            Some(v) => match number(v) {
                Some(x) if (0.0..=1.0).contains(&x) => x,
                _ => {
                    return Err(tune_error(
                        exp,
                        "local",
                        value_text(v),
                        "a number in [0, 1]: the share of candidates that are local moves of the incumbent",
                    ))
                }
            },
        };
        let local_dims = whole("local_dims", 1, 1000, DEFAULT_LOCAL_DIMS as i64)? as usize;
        let ends = match table.get("ends") {
            None => false,
            Some(Value::Boolean(b)) => *b,
            Some(v) => {
                return Err(tune_error(
                    exp,
                    "ends",
                    value_text(v),
                    "true or false: whether a round within the margin must be confirmed by a round moving one number at a time to an end of its range",
                ))
            }
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
                defaults: Vec::new(),
            };
            if let Some(names) = choice {
                seat.dims.push(Dim {
                    key: "policy".into(),
                    path: format!("policies.{key}.policy"),
                    domain: Domain::Names(names),
                    whole: false,
                });
            }
            for (param, dv) in t {
                match param.as_str() {
                    "policy" => {}
                    "objective" => {
                        seat.objective =
                            parse_objective(exp, base.as_ref(), &format!("{field}.objective"), dv)?
                    }
                    _ => seat.dims.push(Dim::parse(
                        exp,
                        &format!("{field}.{param}"),
                        param,
                        format!("policies.{key}.{param}"),
                        dv,
                    )?),
                }
            }
            let params = exp
                .ruleset
                .policies
                .and_then(|p| (p.params)(seat.policy.as_deref().unwrap_or_default()));
            seat.defaults = seat
                .dims
                .iter()
                .map(|d| {
                    let param = params?.iter().find(|p| p.name == d.key)?;
                    (!matches!(d.domain, Domain::Names(_))).then_some(param.default)
                })
                .collect();
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
                defaults: Vec::new(),
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
                seat.dims.push(Dim::parse(
                    exp,
                    &format!("{field}.{path}"),
                    path,
                    path.clone(),
                    dv,
                )?);
            }
            seat.defaults = vec![None; seat.dims.len()];
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
        let mut spec = TuneSpec {
            games,
            validation,
            candidates,
            rounds,
            margin,
            converge_on,
            step,
            local,
            local_dims,
            ends,
            seats,
        };
        spec.find_whole_numbers(exp)?;
        spec.check_against_builder(exp)?;
        Ok(spec)
    }

    /// Asks the game's builder which numbers must be whole (counts such as legions): a number
    /// the builder refuses as a fraction but takes as a whole number is tuned in whole numbers.
    fn find_whole_numbers(&mut self, exp: &GameExperiment) -> Result<()> {
        let base = normalised_base(exp, &self.seats)?;
        for seat in &mut self.seats {
            for d in 0..seat.dims.len() {
                let probe = match seat.dims[d].domain {
                    Domain::Range(lo, hi) => (lo + hi) / 2.0,
                    _ => continue,
                };
                let fraction = probe.floor() + 0.5;
                let mut values: Values = vec![None; seat.dims.len()];
                values[d] = Some(fraction);
                seat.dims[d].whole = false;
                let mut table = base.clone();
                apply(&mut table, seat, &values).map_err(|m| AleaError::invalid(&exp.source, m))?;
                let takes_fractions = exp.build_from(&table, exp.case_source(0, 0)).is_ok();
                seat.dims[d].whole = !takes_fractions;
            }
        }
        Ok(())
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
pub(super) fn normalised_base(exp: &GameExperiment, seats: &[Seat]) -> Result<Table> {
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
pub(super) fn apply(
    table: &mut Table,
    seat: &Seat,
    values: &Values,
) -> std::result::Result<(), String> {
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
            (_, Some(x)) if dim.whole => {
                merge_dotted(table, &dim.path, Value::Integer(x.round() as i64))?
            }
            (_, Some(x)) => merge_dotted(table, &dim.path, Value::Float(*x))?,
            (_, None) => {}
        }
    }
    Ok(())
}

/// The values a table gives a seat's numbers (`None` where it gives none).
pub(super) fn read_values(table: &Table, seat: &Seat) -> Values {
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

pub(super) fn values_label(seat: &Seat, values: &Values) -> String {
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
