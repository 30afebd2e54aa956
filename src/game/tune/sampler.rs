//! The sampling distribution of one seat's values: the cross-entropy method, written small.

use super::spec::Domain;
use crate::dice::Dice;
use crate::output::tidy;

/// A local move's standard deviation, as a share of the range.
const LOCAL_SD: f64 = 0.125;

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
        /// Numbers (a list of values), where a local move goes to a neighbour; not policy names.
        ordered: bool,
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
                ordered: true,
            },
            Domain::Names(n) => Sampler::Categorical {
                values: (0..n.len()).map(|i| i as f64).collect(),
                weights: vec![1.0 / n.len() as f64; n.len()],
                ordered: false,
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
            Sampler::Categorical {
                values, weights, ..
            } => {
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

    /// A value near `from` (a local move): a normal step of an eighth of the range on the grid,
    /// clamped; for a list of numbers, the next one up or down; for policy names, another one.
    pub(super) fn nudge(&self, from: Option<f64>, dice: &mut Dice) -> f64 {
        match self {
            Sampler::Normal {
                step, mean, lo, hi, ..
            } => {
                let at = from.unwrap_or(*mean);
                let moved = Sampler::Normal {
                    step: *step,
                    mean: at,
                    sd: (hi - lo) * LOCAL_SD,
                    lo: *lo,
                    hi: *hi,
                };
                moved.draw(dice)
            }
            Sampler::Categorical {
                values,
                ordered: true,
                ..
            } => {
                // The next value up or down in numeric order (the only one at either end).
                let mut sorted = values.clone();
                sorted.sort_by(f64::total_cmp);
                let Some(i) = from.and_then(|f| sorted.iter().position(|&v| v == f)) else {
                    return sorted[sorted.len() / 2];
                };
                match (i.checked_sub(1), sorted.get(i + 1)) {
                    (Some(down), Some(&up)) => {
                        if dice.uniform() < 0.5 {
                            sorted[down]
                        } else {
                            up
                        }
                    }
                    (Some(down), None) => sorted[down],
                    (None, Some(&up)) => up,
                    (None, None) => sorted[i],
                }
            }
            Sampler::Categorical { values, .. } => {
                let others: Vec<f64> = values
                    .iter()
                    .copied()
                    .filter(|v| Some(*v) != from)
                    .collect();
                if others.is_empty() {
                    return values[0];
                }
                others[((dice.uniform() * others.len() as f64) as usize).min(others.len() - 1)]
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
            Sampler::Categorical {
                values, weights, ..
            } => {
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
