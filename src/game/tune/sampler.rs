//! The sampling distribution of one seat's values: the cross-entropy method, written small.

use super::spec::Domain;
use crate::dice::Dice;
use crate::output::tidy;

/// The sampling distribution of one seat's values (cross-entropy method).
#[derive(Clone, Debug)]
pub(super) enum Sampler {
    Normal {
        /// The grid candidates are drawn on: 1 for whole numbers.
        step: f64,
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
    pub(super) fn new(domain: &Domain, start: Option<f64>, whole: bool) -> Sampler {
        match domain {
            Domain::Range(lo, hi) => Sampler::Normal {
                // Whole numbers, or a thousandth of the range: tuned files stay readable.
                step: if whole { 1.0 } else { (hi - lo) / 1000.0 },
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

    pub(super) fn draw(&self, dice: &mut Dice) -> f64 {
        match self {
            Sampler::Normal {
                step,
                mean,
                sd,
                lo,
                hi,
            } => {
                // Box–Muller, on the grid, clamped to the range.
                let u1 = dice.uniform().max(f64::MIN_POSITIVE);
                let u2 = dice.uniform();
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                // tidy: no float noise such as 0.23900000000000002 in a tuned file.
                tidy((*lo + ((mean + sd * z - lo) / step).round() * step).clamp(*lo, *hi))
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
    pub(super) fn refit(&mut self, elite: &[f64]) {
        if elite.is_empty() {
            return;
        }
        match self {
            Sampler::Normal {
                mean, sd, lo, hi, ..
            } => {
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

/// Mean and standard error of a sample.
pub(super) fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, (var / n).sqrt())
}
