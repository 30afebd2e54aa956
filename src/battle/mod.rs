//! What every battle of every ruleset exposes to the shared machinery.
//!
//! A battle declares a [`Schema`]: its outcome names, the integer quantities it reports as whole
//! distributions (losses, losses by unit type, …) and the real quantities it reports as expectations
//! (VP, P(leader removed), …). The exact solver fills an [`Exact`] over that schema; the simulator
//! fills one [`Trial`] per game of dice, which a [`Tally`] aggregates online. Both become
//! [`Estimates`], from which every report, table and chart is drawn, and the two are checked
//! against each other by [`agreement`].

//!
//! The battle engine's parts: [`experiment`] files (one battle or a grid of them under rule
//! variants), their [`sweep`] into tables, the [`runner`] that plays Monte Carlo trials in
//! parallel, the [`report`] a player reads, and the [`charts`] of an experiment.

pub mod charts;
pub mod experiment;
pub mod keys;
pub mod report;
pub mod runner;
pub mod sweep;

use crate::dice::Dice;
use crate::exact::Pmf;
use crate::progress::Progress;

/// Why an exact answer was not computed.
#[derive(Clone, Debug)]
pub struct Intractable(pub String);

/// One Monte Carlo request.
pub struct McRun<'a> {
    pub trials: u64,
    pub seed: u64,
    /// Separates the random streams of different computations in one experiment (e.g. sweep points).
    pub stream: u64,
    pub progress: &'a Progress,
}

/// A fully specified battle, ready to be answered exactly or by simulation.
pub trait BattleModel: Simulate + Send + Sync {
    fn schema(&self) -> &Schema;
    fn exact(&self) -> std::result::Result<Exact, Intractable>;
    /// The exact answer when the user asked for exact odds: a battle whose exact chain is long
    /// may work much longer (up to about a minute, with a progress bar when `visible`) before
    /// giving up, where `exact` gives up after a second or two and lets Monte Carlo answer.
    fn exact_patiently(&self, visible: bool) -> std::result::Result<Exact, Intractable> {
        let _ = visible;
        self.exact()
    }
    /// Plays `run.trials` battles with [`Simulate::trial`] on the shared deterministic runner.
    fn monte_carlo(&self, run: &McRun) -> Tally {
        crate::battle::runner::monte_carlo(self, self.schema(), run)
    }
    /// One line per side describing what was understood of the input.
    fn describe(&self) -> Vec<String>;
    /// Facts worth telling the user before they read the numbers (e.g. "the attacker cannot win").
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Most integer quantities a battle may record per trial.
pub const MAX_COUNTS: usize = 24;
/// Most real quantities a battle may record per trial.
pub const MAX_SCALARS: usize = 64;

/// The quantity every battle with two sides counts for each side as a whole distribution, and which
/// the reports, tables and charts show side by side: the count `side_column(side, LOSSES)`.
pub const LOSSES: &str = "losses";

/// The name of one side's quantity: `side_column("attacker", LOSSES)` is `attacker_losses`. Every
/// per-side count and scalar is named through it from its ruleset's `SIDES`, and the reports look
/// a side's losses up the same way, so a side's name is written once. Called when a schema is
/// built, never per trial.
pub fn side_column(side: &str, quantity: &str) -> String {
    format!("{side}_{quantity}")
}

/// An integer quantity reported as a distribution over `0..=max`.
#[derive(Clone, Debug)]
pub struct CountSpec {
    pub name: String,
    pub max: usize,
}

/// Names are hierarchical with `/` (e.g. `attacker_losses_by_type/cavalry`): JSON nests on it,
/// tables flatten it with `.`.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub outcomes: Vec<String>,
    pub counts: Vec<CountSpec>,
    pub scalars: Vec<String>,
    /// A bound on each scalar's absolute value in one trial (1 for probabilities).
    pub scalar_bounds: Vec<f64>,
}

impl Schema {
    pub fn new(outcomes: &[&str]) -> Schema {
        Schema {
            outcomes: outcomes.iter().map(|s| s.to_string()).collect(),
            ..Schema::default()
        }
    }

    /// Adds a count and returns its index.
    pub fn count(&mut self, name: impl Into<String>, max: usize) -> usize {
        self.counts.push(CountSpec {
            name: name.into(),
            max,
        });
        assert!(
            self.counts.len() <= MAX_COUNTS,
            "too many counts in a schema"
        );
        self.counts.len() - 1
    }

    /// Adds a scalar whose value in one trial lies in [-1, 1] (a yes/no event, a ±1 change).
    pub fn scalar(&mut self, name: impl Into<String>) -> usize {
        self.scalar_bounded(name, 1.0)
    }

    /// Adds a scalar whose value in one trial never exceeds `bound` in absolute value.
    pub fn scalar_bounded(&mut self, name: impl Into<String>, bound: f64) -> usize {
        self.scalars.push(name.into());
        self.scalar_bounds.push(bound);
        assert!(
            self.scalars.len() <= MAX_SCALARS,
            "too many scalars in a schema"
        );
        self.scalars.len() - 1
    }

    pub fn count_index(&self, name: &str) -> Option<usize> {
        self.counts.iter().position(|c| c.name == name)
    }

    pub fn scalar_index(&self, name: &str) -> Option<usize> {
        self.scalars.iter().position(|s| s == name)
    }

    pub fn outcome_index(&self, name: &str) -> Option<usize> {
        self.outcomes.iter().position(|s| s == name)
    }

    /// Where each side's losses (`side_column(side, LOSSES)`) are among the counts, in the order
    /// of `sides`; `None` for a side whose losses this battle does not count.
    pub fn side_losses(&self, sides: &[&str]) -> Vec<Option<usize>> {
        sides
            .iter()
            .map(|side| self.count_index(&side_column(side, LOSSES)))
            .collect()
    }
}

/// What one simulated battle produced.
#[derive(Clone, Debug)]
pub struct Trial {
    pub outcome: usize,
    pub counts: [u32; MAX_COUNTS],
    pub scalars: [f64; MAX_SCALARS],
}

impl Default for Trial {
    fn default() -> Self {
        Trial {
            outcome: 0,
            counts: [0; MAX_COUNTS],
            scalars: [0.0; MAX_SCALARS],
        }
    }
}

impl Trial {
    /// Zeroes what a schema with `counts` counts and `scalars` scalars uses.
    #[inline]
    pub fn clear(&mut self, counts: usize, scalars: usize) {
        self.outcome = 0;
        self.counts[..counts].fill(0);
        self.scalars[..scalars].fill(0.0);
    }
}

/// A simulator: plays one battle with the given dice.
pub trait Simulate: Sync {
    fn trial(&self, dice: &mut Dice, out: &mut Trial);
}

/// The exact answer over a schema.
#[derive(Clone, Debug)]
pub struct Exact {
    pub outcomes: Vec<f64>,
    pub counts: Vec<Pmf>,
    pub scalars: Vec<f64>,
}

impl Exact {
    pub fn zeros(schema: &Schema) -> Exact {
        Exact {
            outcomes: vec![0.0; schema.outcomes.len()],
            counts: schema
                .counts
                .iter()
                .map(|c| Pmf::zeros(c.max + 1))
                .collect(),
            scalars: vec![0.0; schema.scalars.len()],
        }
    }
}

/// Online aggregation of trials: memory depends on the schema, never on the number of trials.
#[derive(Clone, Debug)]
pub struct Tally {
    pub trials: u64,
    pub outcomes: Vec<u64>,
    offsets: Vec<usize>,
    /// (count index, histogram offset) of the counts that can vary (max > 0); a count that is
    /// always 0 is not recorded trial by trial, its one bin being the number of trials.
    varying: Vec<(usize, usize)>,
    hist: Vec<u64>,
    pub sums: Vec<f64>,
    pub sums_sq: Vec<f64>,
}

impl Tally {
    pub fn new(schema: &Schema) -> Tally {
        let mut offsets = Vec::with_capacity(schema.counts.len() + 1);
        let mut at = 0;
        for c in &schema.counts {
            offsets.push(at);
            at += c.max + 1;
        }
        offsets.push(at);
        let varying = (0..schema.counts.len())
            .filter(|&k| schema.counts[k].max > 0)
            .map(|k| (k, offsets[k]))
            .collect();
        Tally {
            trials: 0,
            outcomes: vec![0; schema.outcomes.len()],
            offsets,
            varying,
            hist: vec![0; at],
            sums: vec![0.0; schema.scalars.len()],
            sums_sq: vec![0.0; schema.scalars.len()],
        }
    }

    #[inline]
    pub fn record(&mut self, t: &Trial) {
        self.trials += 1;
        self.outcomes[t.outcome] += 1;
        for &(k, offset) in &self.varying {
            // Indexing checks the schema's bound: a count above its max is a simulator bug.
            self.hist[offset + t.counts[k] as usize] += 1;
        }
        let n = self.sums.len();
        for ((s, s2), &x) in self
            .sums
            .iter_mut()
            .zip(self.sums_sq.iter_mut())
            .zip(&t.scalars[..n])
        {
            *s += x;
            *s2 += x * x;
        }
    }

    /// Adds another tally of the same schema. Merging in a fixed order keeps results bit-identical.
    pub fn merge(&mut self, other: &Tally) {
        self.trials += other.trials;
        for (a, b) in self.outcomes.iter_mut().zip(&other.outcomes) {
            *a += b;
        }
        for (a, b) in self.hist.iter_mut().zip(&other.hist) {
            *a += b;
        }
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            *a += b;
        }
        for (a, b) in self.sums_sq.iter_mut().zip(&other.sums_sq) {
            *a += b;
        }
    }

    /// The counts of each value of count `k`.
    pub fn histogram(&self, k: usize) -> Vec<u64> {
        if self.offsets[k + 1] - self.offsets[k] == 1 {
            return vec![self.trials];
        }
        self.hist[self.offsets[k]..self.offsets[k + 1]].to_vec()
    }

    /// Every count's histogram bins end to end (what a shard stores: see [`crate::shard`]).
    pub(crate) fn bins(&self) -> &[u64] {
        &self.hist
    }

    pub(crate) fn bins_mut(&mut self) -> &mut [u64] {
        &mut self.hist
    }

    /// Number of counts in the schema.
    pub fn count_len(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// A number with, for Monte Carlo, its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Est {
    pub value: f64,
    pub se: Option<f64>,
}

impl Est {
    pub fn exact(value: f64) -> Est {
        Est { value, se: None }
    }
}

#[derive(Clone, Debug)]
pub struct PmfEst {
    pub mean: Est,
    pub pmf: Vec<Est>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Exact,
    MonteCarlo,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        }
    }
}

/// The answer to a battle, whichever way it was computed.
#[derive(Clone, Debug)]
pub struct Estimates {
    pub method: Method,
    pub trials: Option<u64>,
    pub outcomes: Vec<Est>,
    pub counts: Vec<PmfEst>,
    pub scalars: Vec<Est>,
}

fn proportion(hits: u64, n: u64) -> Est {
    let p = hits as f64 / n as f64;
    Est {
        value: p,
        se: Some((p * (1.0 - p) / n as f64).sqrt()),
    }
}

fn mean_of(sum: f64, sum_sq: f64, n: u64) -> Est {
    let n_f = n as f64;
    let mean = sum / n_f;
    let var = (sum_sq / n_f - mean * mean).max(0.0);
    Est {
        value: mean,
        se: Some((var / n_f).sqrt()),
    }
}

impl Estimates {
    pub fn from_exact(e: &Exact) -> Estimates {
        Estimates {
            method: Method::Exact,
            trials: None,
            outcomes: e.outcomes.iter().map(|&p| Est::exact(p)).collect(),
            counts: e
                .counts
                .iter()
                .map(|pmf| PmfEst {
                    mean: Est::exact(pmf.mean()),
                    pmf: pmf.0.iter().map(|&p| Est::exact(p)).collect(),
                })
                .collect(),
            scalars: e.scalars.iter().map(|&x| Est::exact(x)).collect(),
        }
    }

    pub fn from_tally(t: &Tally) -> Estimates {
        let n = t.trials.max(1);
        let counts = (0..t.offsets.len() - 1)
            .map(|k| {
                let h = t.histogram(k);
                let h = &h;
                let (s, s2) = h.iter().enumerate().fold((0.0, 0.0), |(s, s2), (v, &c)| {
                    let (v, c) = (v as f64, c as f64);
                    (s + v * c, s2 + v * v * c)
                });
                PmfEst {
                    mean: mean_of(s, s2, n),
                    pmf: h.iter().map(|&c| proportion(c, n)).collect(),
                }
            })
            .collect();
        Estimates {
            method: Method::MonteCarlo,
            trials: Some(t.trials),
            outcomes: t.outcomes.iter().map(|&c| proportion(c, n)).collect(),
            counts,
            scalars: t
                .sums
                .iter()
                .zip(&t.sums_sq)
                .map(|(&s, &s2)| mean_of(s, s2, n))
                .collect(),
        }
    }
}

/// Checks a Monte Carlo tally against the exact answer: every outcome probability, every loss
/// probability, every mean within `z` standard errors. For probabilities the standard error comes
/// from the exact value, so a rare event the simulation never saw is judged fairly. For means it is
/// the sample's, or, when the sample saw no variation at all, `sqrt(B·|E|/n)`, since
/// `Var(X) ≤ B·E|X|` when `|X| ≤ B`: a rare, large value the sample missed is judged fairly too.
pub fn agreement(schema: &Schema, exact: &Exact, tally: &Tally, z: f64) -> Result<(), String> {
    let n = tally.trials as f64;
    let mc = Estimates::from_tally(tally);
    let mut problems = Vec::new();
    // Two trials' worth of slack: a continuity allowance so that one sighting of a one-in-a-million
    // event in forty thousand trials is not mistaken for disagreement.
    let slack = 2.0 / n;
    let mut check_p = |what: String, p: f64, q: f64| {
        let se = (p * (1.0 - p) / n).sqrt();
        if (p - q).abs() > z * se + slack + 1e-9 {
            problems.push(format!(
                "{what}: exact {p:.6}, monte carlo {q:.6}, se {se:.2e}"
            ));
        }
    };
    for (i, name) in schema.outcomes.iter().enumerate() {
        check_p(
            format!("P({name})"),
            exact.outcomes[i],
            mc.outcomes[i].value,
        );
    }
    for (k, spec) in schema.counts.iter().enumerate() {
        for (v, est) in mc.counts[k].pmf.iter().enumerate() {
            check_p(
                format!("P({} = {v})", spec.name),
                exact.counts[k].get(v),
                est.value,
            );
        }
        if exact.counts[k].len() > spec.max + 1 && exact.counts[k].tail(spec.max + 1) > 1e-12 {
            check_p(
                format!("P({} > max)", spec.name),
                exact.counts[k].tail(spec.max + 1),
                0.0,
            );
        }
    }
    for (k, name) in schema.scalars.iter().enumerate() {
        let (e, m) = (exact.scalars[k], mc.scalars[k]);
        let bound = schema.scalar_bounds[k];
        let sample_se = m.se.unwrap_or(0.0);
        let se = if sample_se > 0.0 {
            sample_se
        } else {
            (bound * e.abs() / n).sqrt()
        };
        if (e - m.value).abs() > z * se + 2.0 * bound / n + 1e-9 {
            problems.push(format!(
                "E[{name}]: exact {e:.6}, monte carlo {:.6}, se {se:.2e}",
                m.value
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Test helper: the exact outcomes sum to 1 and a simulation of `trials` agrees with the exact
/// answer within 5 standard errors ([`agreement`]); a failure names `case`.
#[cfg(test)]
pub fn assert_agrees(m: &dyn BattleModel, trials: u64, seed: u64, stream: u64, case: &str) {
    let ex = m.exact().unwrap();
    let total: f64 = ex.outcomes.iter().sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "case {case}: outcomes sum to {total}"
    );
    let progress = crate::progress::Progress::hidden();
    let run = McRun {
        trials,
        seed,
        stream,
        progress: &progress,
    };
    if let Err(e) = agreement(m.schema(), &ex, &m.monte_carlo(&run), 5.0) {
        panic!("case {case}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coin_schema() -> Schema {
        let mut s = Schema::new(&["heads", "tails"]);
        s.count("heads_in_three", 3);
        s.scalar("value");
        s
    }

    /// The reports find a side's losses by the name the battle gave them, whatever the sides are
    /// called, and only among the counts (a scalar of the same name is not losses).
    #[test]
    fn side_losses_are_found_by_the_sides_names() {
        let mut s = Schema::new(&["red", "blue"]);
        s.count("margin", 3);
        let blue = s.count(side_column("blue", LOSSES), 4);
        s.scalar(side_column("red", LOSSES));
        assert_eq!(side_column("red", LOSSES), "red_losses");
        assert_eq!(s.side_losses(&["red", "blue"]), vec![None, Some(blue)]);
        assert_eq!(s.side_losses(&[]), Vec::<Option<usize>>::new());
    }

    #[test]
    fn tally_estimates_and_merges() {
        let schema = coin_schema();
        let mut a = Tally::new(&schema);
        let mut b = Tally::new(&schema);
        let mut t = Trial::default();
        for i in 0..100u32 {
            t.outcome = (i % 2) as usize;
            t.counts[0] = i % 4;
            t.scalars[0] = (i % 2) as f64;
            if i < 50 {
                a.record(&t)
            } else {
                b.record(&t)
            }
        }
        a.merge(&b);
        let e = Estimates::from_tally(&a);
        assert_eq!(e.trials, Some(100));
        assert_eq!(e.outcomes[0].value, 0.5);
        assert!((e.outcomes[0].se.unwrap() - 0.05).abs() < 1e-12);
        assert_eq!(e.counts[0].pmf[3].value, 0.25);
        assert_eq!(e.counts[0].mean.value, 1.5);
        assert_eq!(e.scalars[0].value, 0.5);
    }

    #[test]
    fn agreement_detects_a_wrong_exact_answer() {
        let schema = coin_schema();
        let mut tally = Tally::new(&schema);
        let mut dice = Dice::from_seed(9);
        let mut t = Trial::default();
        for _ in 0..20_000 {
            let heads = (0..3).filter(|_| dice.d(2) == 1).count() as u32;
            t.outcome = (heads < 2) as usize;
            t.counts[0] = heads;
            t.scalars[0] = heads as f64;
            tally.record(&t);
        }
        let mut exact = Exact::zeros(&schema);
        exact.counts[0] = Pmf::binomial(3, 0.5);
        exact.outcomes = vec![0.5, 0.5];
        exact.scalars[0] = 1.5;
        assert!(agreement(&schema, &exact, &tally, 5.0).is_ok());
        exact.counts[0] = Pmf::binomial(3, 0.45);
        assert!(agreement(&schema, &exact, &tally, 5.0).is_err());
    }
}
