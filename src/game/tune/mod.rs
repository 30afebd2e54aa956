//! `alea tune`: policy parameters tuned seat by seat against the others' current play (iterated
//! best response), for every ruleset with automated games.
//!
//! ```toml
//! [tune]
//! games = 2000         # games per candidate in the last halving rung
//! validation = 2000    # fresh games each validation plays (default: games)
//! candidates = 16      # candidates per seat per round (the incumbent among them)
//! rounds = 4           # best-response rounds at most
//! margin = 0.01        # stop once no seat gains more than this (objective units)
//! converge_on = "estimate" # held against the margin: each seat's measured gain, or "upper",
//!                      # the upper end of its 95% interval (stricter; needs more games)
//! step = 1.0           # share of the way an adopted seat moves towards its best response
//! local = 0.0          # share of the candidates that are local moves of the incumbent (the
//! local_dims = 3       # policy's defaults first, then 1 to local_dims numbers nudged)
//! ends = false         # once a round is within the margin, one more round whose candidates
//!                      # move one number at a time to an end of its range (or list)
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
//! range, a categorical per list, both refitted round by round to the best candidates), and with
//! `local` > 0 a share of them next to the incumbent (a few numbers moved by an eighth of their
//! range, or a list's value switched; the first, the policy's own defaults), keeps the
//! incumbent among them, and races them by successive halving: every candidate alive plays the
//! same games (common random numbers, the same seeds for all), the worse half is dropped, and the
//! survivors play twice as many games, up to `games`. The winner then plays `validation` fresh
//! games beside the incumbent, again on the same seeds; the paired difference is the seat's gain, with
//! its 95% interval. The seat adopts the winner only when that interval lies above 0: a move
//! within the noise would be a random walk that the other seats then chase. (On a tie, as when a
//! nation wins neither way, a score clearly better in the same sense is adopted: a nation that
//! never wins still moves towards the play that brings it closer.) With `step` < 1 the seat moves
//! only part of the way (numbers in a range; a policy choice switches), that damped move is
//! validated on the same games and adopted by the same test, and the full winner's gain still
//! measures the seat's distance from equilibrium. Once a round's largest gain (measured, or its
//! upper end with `converge_on = "upper"`) is at most `margin`, the seats are in an approximate
//! equilibrium: no single seat gains more than `margin` by changing its own parameters within the
//! ranges searched (as far as the search found). With `ends`, that round is followed by an ends
//! round: each seat races the incumbent against every single deviation that puts one of its
//! numbers at an end of its range (the first or last of a list, another policy of a choice), and
//! only when that round too stays within the margin are the seats said to have converged. A gain
//! an ends round finds beyond the margin is adopted as any other and another ends round follows;
//! once one stays within the margin, a sampled round checks the table the ends moves left, and
//! a sampled and an ends round in a row within the margin are convergence. Sampled candidates change
//! many numbers at once and local moves a few by a little, so a gain that needs one number moved
//! far (a rule change that makes one choice costly) can escape both; the ends round looks there.
//!
//! Every game plays from a stream fixed by (seed, round, seat, rung), and tallies are exact, so the
//! result depends only on the file and its seed, never on the thread count.

mod output;
mod sampler;
mod spec;

pub use spec::{ConvergeOn, Dim, Domain, Objective, Seat, TuneSpec};

use super::experiment::GameExperiment;
use super::run::{play_games, ChunkRows, GameSink};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::output::tidy;
use crate::output::OutputDir;
use crate::progress::Progress;
use crate::stats::normal_ci95;
use output::{summary_json, write_outputs};
use sampler::{mean_se, Sampler};
use serde_json::Value as Json;
use spec::{apply, normalised_base, read_values, values_label, Values};
use std::path::PathBuf;
use std::time::Instant;
use toml::Table;

/// The fewest games a candidate plays in the first halving rung.
const MIN_RUNG_GAMES: u64 = 64;
/// Streams of the tuner's games start here, clear of `alea run`'s case streams.
const STREAM_BASE: u64 = 1 << 40;

/// Collects each game's objective value for one seat, in game order.
struct ObjectiveSink<'a> {
    objective: &'a Objective,
    player: Option<usize>,
    players: usize,
    eval: Evaluation,
}

/// One candidate's games: its objective per game, and (for a player) its score per game, which
/// breaks ties: a nation that never wins still prefers the policy that brings it closer.
#[derive(Default)]
struct Evaluation {
    values: Vec<f64>,
    scores: Vec<f64>,
}

impl Evaluation {
    /// Mean objective, then mean score: what candidates are ranked by.
    fn key(&self) -> (f64, f64) {
        (mean_se(&self.values).0, mean_se(&self.scores).0)
    }
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
            self.eval.values.push(x);
            let score = match self.player {
                Some(p) => rows.score[g * self.players + p],
                None => 0.0,
            };
            self.eval.scores.push(score);
        }
        Ok(())
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
    /// The paired gain of the move the seat may adopt: the winner itself, or with `step` < 1
    /// the damped step towards it.
    pub move_gain: (f64, f64, f64),
    pub adopted: bool,
    pub games: u64,
    /// How the round's candidates were found: "sampled" (sampled and local moves) or "ends".
    pub search: &'static str,
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

/// The games of one evaluation: `games` games on one stream, the seat's per-game objective values
/// and scores.
fn evaluate(
    exp: &GameExperiment,
    table: &Table,
    seat: &Seat,
    games: u64,
    stream: u64,
    progress: &Progress,
) -> Result<Evaluation> {
    let model = exp.build_from(table, exp.case_source(0, 0))?;
    let mut sink = ObjectiveSink {
        objective: &seat.objective,
        player: seat.player,
        players: model.players().len(),
        eval: Evaluation {
            values: Vec::with_capacity(games as usize),
            scores: Vec::with_capacity(games as usize),
        },
    };
    play_games(model.as_ref(), games, exp.seed, stream, progress, &mut sink)?;
    Ok(sink.eval)
}

/// The mean paired per-game difference `a − b` with its 95% interval.
fn paired_gain(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let (gain, se) = mean_se(&d);
    let (low, high) = normal_ci95(gain, se);
    (gain, low, high)
}

/// `step` of the way from the incumbent's values to the winner's: numbers in a range move part
/// way (a number the incumbent leaves to its default moves all the way), choices switch.
fn damped(seat: &Seat, incumbent: &Values, winner: &Values, step: f64) -> Values {
    seat.dims
        .iter()
        .zip(incumbent.iter().zip(winner))
        .map(|(dim, (inc, win))| match (&dim.domain, inc, win) {
            (Domain::Range(..), Some(a), Some(b)) => Some(tidy(a + step * (b - a))),
            _ => *win,
        })
        .collect()
}

/// The local candidates of a seat's round: first the policy's defaults (when every number has
/// one and the incumbent is elsewhere), then the incumbent with 1 to `local_dims` of its numbers
/// nudged, each move a new one while the domains allow. A search that only samples the whole box rarely lands near a good incumbent in many
/// dimensions; these moves look next to it.
fn local_moves(
    spec: &TuneSpec,
    seat: &Seat,
    samplers: &[Sampler],
    incumbent: &Values,
    dice: &mut Dice,
) -> Vec<Values> {
    let wanted = (spec.local * (spec.candidates - 1) as f64).round() as usize;
    let mut moves = Vec::with_capacity(wanted);
    let n = seat.dims.len();
    // What the incumbent plays: its own value, else the policy's default.
    let at: Values = (0..n).map(|d| incumbent[d].or(seat.defaults[d])).collect();
    if wanted > 0 && seat.defaults.iter().all(Option::is_some) && at != seat.defaults {
        moves.push(seat.defaults.clone());
    }
    let most = spec.local_dims.min(n);
    // Distinct moves where the domains allow as many (a short list of values may not).
    let mut tries = 0;
    while moves.len() < wanted {
        tries += 1;
        let changed = 1 + ((dice.uniform() * most as f64) as usize).min(most - 1);
        let mut dims: Vec<usize> = (0..n).collect();
        // A partial Fisher–Yates shuffle: the first `changed` are the dimensions moved.
        for i in 0..changed {
            let j = i + ((dice.uniform() * (n - i) as f64) as usize).min(n - i - 1);
            dims.swap(i, j);
        }
        let mut c = incumbent.clone();
        for &d in &dims[..changed] {
            c[d] = Some(samplers[d].nudge(at[d], dice));
        }
        let fresh = c != *incumbent && !moves.contains(&c);
        if fresh || tries > 20 * wanted {
            moves.push(c);
        }
    }
    moves
}

/// The ends round's candidates: the incumbent with one number at an end of its range (the least
/// or greatest of a list, or another policy of a choice), each number in turn; only moves that
/// change what the seat plays.
fn end_moves(seat: &Seat, incumbent: &Values) -> Vec<Values> {
    let mut moves: Vec<Values> = Vec::new();
    for (d, dim) in seat.dims.iter().enumerate() {
        let at = incumbent[d].or(seat.defaults[d]);
        let ends: Vec<f64> = match &dim.domain {
            Domain::Range(lo, hi) => vec![*lo, *hi],
            Domain::Values(v) => {
                let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                vec![lo, hi]
            }
            Domain::Names(names) => (0..names.len()).map(|i| i as f64).collect(),
        };
        for x in ends {
            let mut c = incumbent.clone();
            c[d] = Some(x);
            if at != Some(x) && !moves.contains(&c) {
                moves.push(c);
            }
        }
    }
    moves
}

/// What follows a round: another round of a kind, or convergence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Sampled,
    Ends,
    Converged,
}

/// The rounds' schedule. Without `ends`, a round within the margin converges. With `ends`,
/// convergence needs a sampled round and an ends round in a row, each within the margin (the two
/// searches look in different places); a round that finds a gain beyond the margin is followed
/// by another round of its own kind, since the other kind found nothing on the table before it
/// or has yet to look (an ends round's one-number moves seldom open a gain that only sampled
/// candidates find, and five ends rounds in a row cost what five pairs of rounds did).
fn next_round(
    ends_enabled: bool,
    this_is_ends: bool,
    within_margin: bool,
    previous_passed: Option<bool>,
) -> Next {
    let this = if this_is_ends {
        Next::Ends
    } else {
        Next::Sampled
    };
    let other = if this_is_ends {
        Next::Sampled
    } else {
        Next::Ends
    };
    if !within_margin {
        return this;
    }
    if !ends_enabled || previous_passed == Some(!this_is_ends) {
        return Next::Converged;
    }
    other
}

/// Games one seat's turn in a round of `candidates` plays: the halving rungs and the validation.
fn round_games(spec: &TuneSpec, candidates: usize) -> u64 {
    rungs(candidates, spec.games)
        .iter()
        .map(|&(k, g)| k as u64 * g)
        .sum::<u64>()
        + if spec.step < 1.0 { 3 } else { 2 } * spec.validation
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

/// Games one seat's turn in a sampled round plays (for the progress bar).
fn seat_games(spec: &TuneSpec) -> u64 {
    round_games(spec, spec.candidates)
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
                .map(|(d, s)| Sampler::new(&d.domain, s, d.whole))
                .collect()
        })
        .collect();
    let total = seat_games(&spec) * (spec.seats.len() * spec.rounds) as u64;
    let progress = Progress::new(total, "games", settings.show_progress);
    let mut history: Vec<SeatRound> = Vec::new();
    let mut converged = false;
    let mut ends_round = false;
    // Whether the last round stayed within the margin, and if so, whether it was an ends round.
    let mut previous_passed: Option<bool> = None;
    for round in 1..=spec.rounds {
        let mut largest = f64::NEG_INFINITY;
        for (s, seat) in spec.seats.iter().enumerate() {
            let search = if ends_round { "ends" } else { "sampled" };
            progress.set_message(format!(
                "round {round}/{} ({search}): {}",
                spec.rounds, seat.name
            ));
            let stream = STREAM_BASE + ((round as u64) << 20) + ((s as u64) << 4);
            let incumbent = read_values(&table, seat);
            let mut candidates: Vec<Values> = vec![incumbent.clone()];
            if ends_round {
                candidates.extend(end_moves(seat, &incumbent));
                progress
                    .grow(round_games(&spec, candidates.len()).saturating_sub(seat_games(&spec)));
            } else {
                let mut draw =
                    Dice::for_trial(exp.seed, STREAM_BASE - 1, ((round as u64) << 20) + s as u64);
                candidates.extend(local_moves(
                    &spec,
                    seat,
                    &samplers[s],
                    &incumbent,
                    &mut draw,
                ));
                while candidates.len() < spec.candidates {
                    let c: Values = samplers[s]
                        .iter()
                        .map(|sm| Some(sm.draw(&mut draw)))
                        .collect();
                    candidates.push(c);
                }
            }
            // Successive halving on common games: every rung replays from game 0.
            let mut alive: Vec<usize> = (0..candidates.len()).collect();
            let mut elite: Vec<usize> = Vec::new();
            let mut played = 0u64;
            for (rung, (_, games)) in rungs(candidates.len(), spec.games).into_iter().enumerate() {
                let mut scored: Vec<(usize, (f64, f64))> = Vec::with_capacity(alive.len());
                for &c in &alive {
                    let mut t = table.clone();
                    apply(&mut t, seat, &candidates[c])
                        .map_err(|m| AleaError::invalid(&exp.source, m))?;
                    let v = evaluate(exp, &t, seat, games, stream + rung as u64, &progress)?;
                    played += games;
                    scored.push((c, v.key()));
                }
                scored.sort_by(|a, b| {
                    (b.1 .0.total_cmp(&a.1 .0))
                        .then(b.1 .1.total_cmp(&a.1 .1))
                        .then(a.0.cmp(&b.0))
                });
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
            // Single deviations say nothing about where the good policies lie as a whole.
            if !ends_round {
                for (d, sampler) in samplers[s].iter_mut().enumerate() {
                    let xs: Vec<f64> = elite.iter().filter_map(|&c| candidates[c][d]).collect();
                    sampler.refit(&xs);
                }
            }
            // Validation on fresh games: the winner beside the incumbent, paired game by game.
            let validation = stream + 15;
            let inc = evaluate(exp, &table, seat, spec.validation, validation, &progress)?;
            played += spec.validation;
            let (inc_mean, inc_se) = mean_se(&inc.values);
            let mut record = SeatRound {
                round,
                seat: seat.name.clone(),
                label: values_label(seat, &incumbent),
                objective: seat.objective.interval(inc_mean, inc_se),
                incumbent_objective: inc_mean,
                gain: (0.0, 0.0, 0.0),
                move_gain: (0.0, 0.0, 0.0),
                adopted: false,
                games: 0,
                search,
            };
            if winner != 0 {
                let mut t = table.clone();
                apply(&mut t, seat, &candidates[winner])
                    .map_err(|m| AleaError::invalid(&exp.source, m))?;
                let best = evaluate(exp, &t, seat, spec.validation, validation, &progress)?;
                played += spec.validation;
                record.gain = paired_gain(&best.values, &inc.values);
                // A damped step is validated on the same games: it is what may be adopted, while
                // the full best response's gain is what says how far from equilibrium the seat is.
                let mut moved = (candidates[winner].clone(), t, best);
                if spec.step < 1.0 {
                    let values = damped(seat, &incumbent, &candidates[winner], spec.step);
                    let mut t = table.clone();
                    apply(&mut t, seat, &values).map_err(|m| AleaError::invalid(&exp.source, m))?;
                    let step = evaluate(exp, &t, seat, spec.validation, validation, &progress)?;
                    played += spec.validation;
                    // A step too short to change a single game (a policy that cuts fractions)
                    // would stall the seat for good: it then moves all the way.
                    if step.values != inc.values || step.scores != inc.scores {
                        moved = (values, t, step);
                    }
                }
                let (moved, t, step) = moved;
                record.move_gain = paired_gain(&step.values, &inc.values);
                let score_gain = paired_gain(&step.scores, &inc.scores);
                // Adopted only when the gain is clear of noise (its 95% interval above 0); a tie
                // on the objective (a nation that wins neither way) goes to a clearly better score.
                if record.move_gain.1 > 0.0 || (record.move_gain.0 == 0.0 && score_gain.1 > 0.0) {
                    let (m, se) = mean_se(&step.values);
                    record.adopted = true;
                    record.label = values_label(seat, &moved);
                    record.objective = seat.objective.interval(m, se);
                    table = t;
                }
            } else {
                progress.inc(spec.validation * if spec.step < 1.0 { 2 } else { 1 });
            }
            record.games = played;
            largest = largest.max(match spec.converge_on {
                ConvergeOn::Estimate => record.gain.0,
                ConvergeOn::Upper => record.gain.2,
            });
            history.push(record);
        }
        let within_margin = largest <= spec.margin;
        match next_round(spec.ends, ends_round, within_margin, previous_passed) {
            Next::Converged => {
                converged = true;
                break;
            }
            next => {
                previous_passed = within_margin.then_some(ends_round);
                ends_round = next == Next::Ends;
            }
        }
    }
    progress.finish();
    let files = write_outputs(exp, &spec, &table, &history, converged, &dir)?;
    let seconds = started.elapsed().as_secs_f64();
    let summary = summary_json(exp, &spec, &table, &history, converged);
    let games = history.iter().map(|r| r.games).sum::<u64>();
    let (path, files) = exp.commit_with_manifest(dir, files, games, seconds)?;
    Ok(TuneResult {
        dir: path,
        files,
        rounds: history,
        converged,
        summary,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Player 0's seat on policy "a" with these numbers and defaults.
    fn player_seat(dims: Vec<(&str, Domain)>, defaults: Values) -> Seat {
        Seat {
            name: "p".into(),
            player: Some(0),
            policy: Some("a".into()),
            objective: Objective::Win,
            dims: dims
                .into_iter()
                .map(|(key, domain)| Dim {
                    key: key.into(),
                    path: format!("policies.p.{key}"),
                    domain,
                    whole: false,
                })
                .collect(),
            defaults,
        }
    }

    #[test]
    fn a_damped_step_moves_numbers_part_way_and_switches_choices() {
        let seat = player_seat(
            vec![
                ("policy", Domain::Names(vec!["a".into(), "b".into()])),
                ("x", Domain::Range(0.0, 10.0)),
                ("y", Domain::Values(vec![1.0, 2.0])),
                ("z", Domain::Range(0.0, 1.0)),
            ],
            vec![None; 4],
        );
        let incumbent = vec![Some(0.0), Some(2.0), Some(1.0), None];
        let winner = vec![Some(1.0), Some(8.0), Some(2.0), Some(0.7)];
        assert_eq!(
            damped(&seat, &incumbent, &winner, 0.5),
            vec![Some(1.0), Some(5.0), Some(2.0), Some(0.7)]
        );
        assert_eq!(damped(&seat, &incumbent, &winner, 1.0), winner);
    }

    /// The kinds of round a tune plays, given each round's verdict (within the margin or not),
    /// and whether it converged.
    fn schedule(ends: bool, verdicts: &[bool]) -> (Vec<&'static str>, bool) {
        let mut kinds = Vec::new();
        let mut this_is_ends = false;
        let mut previous = None;
        for &within in verdicts {
            kinds.push(if this_is_ends { "ends" } else { "sampled" });
            match next_round(ends, this_is_ends, within, previous) {
                Next::Converged => return (kinds, true),
                next => {
                    previous = within.then_some(this_is_ends);
                    this_is_ends = next == Next::Ends;
                }
            }
        }
        (kinds, false)
    }

    #[test]
    fn convergence_needs_a_sampled_and_an_ends_round_in_a_row_and_a_gain_repeats_its_kind() {
        // Without ends, the first round within the margin converges.
        assert_eq!(
            schedule(false, &[false, false, true]),
            (vec!["sampled"; 3], true)
        );
        // Sampled within, ends within: converged.
        assert_eq!(
            schedule(true, &[true, true]),
            (vec!["sampled", "ends"], true)
        );
        // An ends round's gain brings another ends round, not a sampled one; once the ends settle,
        // a sampled round checks what they left, and the two in a row converge.
        assert_eq!(
            schedule(true, &[true, false, false, true, true]),
            (vec!["sampled", "ends", "ends", "ends", "sampled"], true)
        );
        // A sampled round's gain after settled ends starts over: it needs an ends round again.
        assert_eq!(
            schedule(true, &[true, false, true, false, true, true]),
            (
                vec!["sampled", "ends", "ends", "sampled", "sampled", "ends"],
                true
            )
        );
        // Rounds run out before the two kinds agree: not converged.
        assert_eq!(
            schedule(true, &[true, false, true]),
            (vec!["sampled", "ends", "ends"], false)
        );
    }

    #[test]
    fn end_moves_put_one_number_at_a_time_at_each_end_of_its_domain() {
        let seat = player_seat(
            vec![
                ("policy", Domain::Names(vec!["a".into(), "b".into()])),
                ("x", Domain::Range(0.0, 10.0)),
                ("y", Domain::Values(vec![2.0, 1.0, 3.0])),
            ],
            vec![None, Some(4.0), Some(3.0)],
        );
        // The policy "a" (index 0); x left to its default 4; y at its greatest value.
        let incumbent = vec![Some(0.0), None, Some(3.0)];
        assert_eq!(
            end_moves(&seat, &incumbent),
            vec![
                vec![Some(1.0), None, Some(3.0)],
                vec![Some(0.0), Some(0.0), Some(3.0)],
                vec![Some(0.0), Some(10.0), Some(3.0)],
                vec![Some(0.0), None, Some(1.0)],
            ]
        );
    }

    #[test]
    fn local_moves_start_at_the_defaults_then_nudge_a_few_numbers_within_their_domains() {
        let seat = player_seat(
            vec![
                ("x", Domain::Range(0.0, 10.0)),
                ("y", Domain::Values(vec![1.0, 2.0, 3.0])),
                ("z", Domain::Range(0.0, 1.0)),
                ("w", Domain::Range(-5.0, 5.0)),
            ],
            vec![Some(5.0), Some(2.0), Some(0.5), Some(0.0)],
        );
        let spec = |local: f64, local_dims: usize| TuneSpec {
            games: 100,
            validation: 100,
            candidates: 41,
            rounds: 1,
            margin: 0.0,
            converge_on: ConvergeOn::Estimate,
            step: 1.0,
            local,
            local_dims,
            ends: false,
            seats: vec![seat.clone()],
        };
        let samplers: Vec<Sampler> = seat
            .dims
            .iter()
            .map(|d| Sampler::new(&d.domain, None, false))
            .collect();
        // z left to its default: a nudge starts from 0.5.
        let incumbent = vec![Some(9.0), Some(3.0), None, Some(-4.0)];
        let mut dice = Dice::for_trial(7, 1, 2);
        let moves = local_moves(&spec(0.5, 2), &seat, &samplers, &incumbent, &mut dice);
        assert_eq!(moves.len(), 20);
        assert_eq!(moves[0], seat.defaults);
        let mut changed_counts = [0usize; 5];
        let mut far = 0;
        for m in &moves[1..] {
            let changed: Vec<usize> = (0..4).filter(|&d| m[d] != incumbent[d]).collect();
            // A nudge may land on the incumbent's own value, so fewer may show as changed.
            assert!(changed.len() <= 2, "{m:?}");
            changed_counts[changed.len()] += 1;
            for &d in &changed {
                let x = m[d].unwrap();
                match &seat.dims[d].domain {
                    Domain::Range(lo, hi) => {
                        assert!((*lo..=*hi).contains(&x), "{m:?}");
                        let from = incumbent[d].or(seat.defaults[d]).unwrap();
                        // An eighth of the range as standard deviation: 5 of them is beyond chance.
                        if (x - from).abs() > 5.0 * (hi - lo) / 8.0 {
                            far += 1;
                        }
                    }
                    // A neighbour of 3 in [1, 2, 3]: 2.
                    Domain::Values(_) => assert_eq!(x, 2.0, "{m:?}"),
                    Domain::Names(_) => unreachable!(),
                }
            }
        }
        assert_eq!(far, 0, "{moves:?}");
        assert!(
            changed_counts[1] > 0 && changed_counts[2] > 0,
            "{changed_counts:?}"
        );
        // The same stream gives the same moves; no local share, no local moves; an incumbent at
        // the defaults is not offered again.
        let mut again = Dice::for_trial(7, 1, 2);
        assert_eq!(
            local_moves(&spec(0.5, 2), &seat, &samplers, &incumbent, &mut again),
            moves
        );
        assert!(local_moves(&spec(0.0, 2), &seat, &samplers, &incumbent, &mut dice).is_empty());
        let at_defaults = vec![Some(5.0), None, Some(0.5), None];
        let moves = local_moves(&spec(1.0, 1), &seat, &samplers, &at_defaults, &mut dice);
        assert_eq!(moves.len(), 40);
        assert!(moves.iter().all(|m| m != &seat.defaults));
    }
}
