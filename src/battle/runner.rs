//! The parallel Monte Carlo runner of battles, on the shared chunked loop
//! ([`crate::parallel::in_chunks`]): one tally per chunk, merged in chunk order, each trial on its
//! own stream from (seed, stream, index), so a result is identical for any thread count.

use crate::battle::McRun;
use crate::battle::{Schema, Simulate, Tally, Trial};
use crate::dice::Dice;

/// Chunks per wave: enough to keep every core busy, few enough to bound memory.
const WAVE: u64 = 64;

pub fn chunk_size(trials: u64) -> u64 {
    (trials / 256).clamp(1_024, 262_144)
}

/// Chunks of trials of a run of `trials` (a shard plays some of them, see [`crate::shard`]).
pub fn chunk_count(trials: u64) -> u64 {
    trials.div_ceil(chunk_size(trials))
}

pub fn monte_carlo<S: Simulate + ?Sized>(sim: &S, schema: &Schema, run: &McRun) -> Tally {
    let mut total = Tally::new(schema);
    monte_carlo_chunks(sim, schema, run, |_| true, |_, part| total.merge(&part));
    total
}

/// The tallies of the chunks `keep` accepts, handed to `each` with their chunk index in chunk
/// order. Scalar sums are floating point, so a total is bit-identical only when the chunks'
/// tallies are merged one by one in chunk order into an empty tally, as [`monte_carlo`] does.
pub fn monte_carlo_chunks<S: Simulate + ?Sized>(
    sim: &S,
    schema: &Schema,
    run: &McRun,
    keep: impl Fn(u64) -> bool,
    mut each: impl FnMut(u64, Tally),
) {
    let chunk = chunk_size(run.trials);
    let merged = crate::parallel::in_chosen_chunks::<_, std::convert::Infallible>(
        run.trials,
        chunk,
        WAVE,
        keep,
        |trials| {
            let mut tally = Tally::new(schema);
            let mut trial = Trial::default();
            let first = trials.start;
            let count = trials.end - trials.start;
            for index in trials {
                let mut dice = Dice::for_trial(run.seed, run.stream, index);
                trial.clear(schema.counts.len(), schema.scalars.len());
                sim.trial(&mut dice, &mut trial);
                tally.record(&trial);
            }
            run.progress.inc(count);
            (first / chunk, tally)
        },
        |(c, part)| {
            each(c, part);
            Ok(())
        },
    );
    let Ok(()) = merged;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;

    struct ThreeDice;
    impl Simulate for ThreeDice {
        fn trial(&self, dice: &mut Dice, out: &mut Trial) {
            let sum: u32 = (0..3).map(|_| dice.d(6)).sum();
            out.outcome = (sum >= 11) as usize;
            out.counts[0] = sum;
            out.scalars[0] = sum as f64 / 3.0;
        }
    }

    fn schema() -> Schema {
        let mut s = Schema::new(&["low", "high"]);
        s.count("sum", 18);
        s.scalar("mean_face");
        s
    }

    fn run_with_threads(threads: usize) -> Tally {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let progress = Progress::hidden();
        let run = McRun {
            trials: 300_001,
            seed: 5,
            stream: 0,
            progress: &progress,
        };
        pool.install(|| monte_carlo(&ThreeDice, &schema(), &run))
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let a = run_with_threads(1);
        let b = run_with_threads(3);
        assert_eq!(a.trials, 300_001);
        assert_eq!(a.outcomes, b.outcomes);
        assert_eq!(a.histogram(0), b.histogram(0));
        assert_eq!(a.sums[0].to_bits(), b.sums[0].to_bits());
    }

    #[test]
    fn three_d6_matches_its_exact_distribution() {
        let s = schema();
        let tally = run_with_threads(2);
        let mut exact = crate::battle::Exact::zeros(&s);
        exact.counts[0] = crate::exact::Pmf::dice_sum(3, 6);
        exact.outcomes = vec![
            exact.counts[0].0[..11].iter().sum(),
            exact.counts[0].tail(11),
        ];
        exact.scalars[0] = 3.5;
        crate::battle::agreement(&s, &exact, &tally, 5.0).unwrap();
    }
}
