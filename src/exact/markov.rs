//! Small Markov chains over battle states: a distribution over states evolved step by step.
//!
//! States live in a `BTreeMap` rather than a hash map so that the order in which probabilities are
//! summed, and therefore every bit of the result, is the same on every run.

use std::collections::BTreeMap;

/// A probability distribution over states `S`.
#[derive(Clone, Debug)]
pub struct StateDist<S: Ord> {
    mass: BTreeMap<S, f64>,
}

impl<S: Ord + Clone> StateDist<S> {
    pub fn empty() -> Self {
        StateDist {
            mass: BTreeMap::new(),
        }
    }

    pub fn certain(state: S) -> Self {
        let mut mass = BTreeMap::new();
        mass.insert(state, 1.0);
        StateDist { mass }
    }

    pub fn add(&mut self, state: S, p: f64) {
        if p != 0.0 {
            *self.mass.entry(state).or_insert(0.0) += p;
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&S, f64)> {
        self.mass.iter().map(|(s, p)| (s, *p))
    }

    pub fn len(&self) -> usize {
        self.mass.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mass.is_empty()
    }

    pub fn total(&self) -> f64 {
        self.mass.values().sum()
    }

    /// One step of the chain: `transition(state, emit)` calls `emit(next, p)` for each successor.
    /// Absorbing states should emit themselves with probability 1.
    pub fn step(&self, mut transition: impl FnMut(&S, &mut dyn FnMut(S, f64))) -> Self {
        let mut next = StateDist {
            mass: BTreeMap::new(),
        };
        for (state, &p) in &self.mass {
            transition(state, &mut |s, q| next.add(s, p * q));
        }
        next
    }

    /// Probability of the states satisfying `pred`.
    pub fn probability(&self, pred: impl Fn(&S) -> bool) -> f64 {
        self.mass
            .iter()
            .filter(|(s, _)| pred(s))
            .map(|(_, p)| p)
            .sum()
    }

    /// Expectation of `f(state)`.
    pub fn expect(&self, f: impl Fn(&S) -> f64) -> f64 {
        self.mass.iter().map(|(s, p)| p * f(s)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamblers_ruin_absorbs_with_the_textbook_probability() {
        // Fair coin, start at 2, absorb at 0 and 4: P(reach 4) = 1/2.
        let mut d = StateDist::certain(2i32);
        for _ in 0..200 {
            d = d.step(|&s, emit| {
                if s == 0 || s == 4 {
                    emit(s, 1.0);
                } else {
                    emit(s - 1, 0.5);
                    emit(s + 1, 0.5);
                }
            });
        }
        assert!((d.probability(|&s| s == 4) - 0.5).abs() < 1e-12);
        assert!((d.total() - 1.0).abs() < 1e-12);
        assert!((d.expect(|&s| s as f64) - 2.0).abs() < 1e-12);
    }
}
