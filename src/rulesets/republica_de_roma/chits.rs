//! Mortality chits after a battle (L250, L785-L792; digest §3.8, §8.3).
//!
//! The cup holds `numbered` chits (ids and blanks, set aside when drawn) and `draw_two` chits (each
//! returned to the cup and replaced by two more draws). `n` chits are owed; the draw ends when the
//! chits set aside reach `n` plus the number of "draw 2" chits drawn, or the cup has no numbered chit
//! left. A given senator dies if his chit is set aside; after a result other than Victory he is
//! captured instead when his chit is the last of two or more set aside.

use crate::dice::Dice;
use crate::exact::Pmf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cup {
    /// Chits that are set aside when drawn (numbered and blank).
    pub numbered: u32,
    pub draw_two: u32,
}

/// What the chits did to one senator (the commander).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fate {
    pub killed: f64,
    pub captured: f64,
}

impl Cup {
    /// Distribution of M, the chits set aside, when `owed` chits are drawn.
    pub fn set_aside(&self, owed: u32) -> Pmf {
        let t = self.numbered;
        let k = self.draw_two as f64;
        let target = owed.min(t);
        let mut out = Pmf::zeros(t as usize + 1);
        if target == 0 {
            out.add_mass(0, 1.0);
            return out;
        }
        // mass[m][need]: chits set aside so far, chits owed so far (never above T).
        let mut mass = vec![vec![0.0; t as usize + 1]; t as usize + 1];
        mass[0][target as usize] = 1.0;
        for m in 0..=t as usize {
            // (m, need) leads to (m, need + 1) or (m + 1, need): ascending order is topological.
            for need in m..=t as usize {
                let p = mass[m][need];
                if p == 0.0 {
                    continue;
                }
                if m == need {
                    out.add_mass(m, p);
                    continue;
                }
                let left = (t as usize - m) as f64;
                if need == t as usize {
                    // A "draw 2" can no longer change what is owed: only numbered draws matter.
                    mass[m + 1][need] += p;
                } else {
                    let p_two = k / (left + k);
                    mass[m][need + 1] += p * p_two;
                    mass[m + 1][need] += p * (1.0 - p_two);
                }
            }
        }
        out
    }

    /// Exact fate of one senator when `owed` chits are drawn.
    pub fn fate(&self, owed: u32, victory: bool) -> Fate {
        let m = self.set_aside(owed);
        let t = self.numbered as f64;
        let drawn = m.mean() / t;
        let captured = if victory { 0.0 } else { m.tail(2) / t };
        Fate {
            killed: drawn - captured,
            captured,
        }
    }

    /// Draws the chits; returns (killed, captured) for the senator whose chit is among the numbered.
    pub fn draw(&self, owed: u32, victory: bool, dice: &mut Dice) -> (bool, bool) {
        let t = self.numbered;
        let mut need = owed.min(t);
        let (mut m, mut his_position) = (0, None);
        while m < need {
            let in_cup = (t - m + self.draw_two) as u64;
            let pick = dice.below(in_cup) as u32;
            if pick >= t - m {
                need = (need + 1).min(t);
                continue;
            }
            // Among the numbered chits still in the cup, his is one (if not yet drawn).
            if his_position.is_none() && pick == 0 {
                his_position = Some(m);
            }
            m += 1;
        }
        match his_position {
            None => (false, false),
            Some(p) if !victory && m >= 2 && p == m - 1 => (false, true),
            Some(_) => (true, false),
        }
    }
}

impl Cup {
    /// Draws `owed` chits and writes the chits set aside, in draw order, into `out` (0-based: the
    /// first 30 are senators 1..=30, the rest blank); returns how many. Same procedure as
    /// [`Cup::draw`]: a "draw 2" chit goes back and owes two more (L250).
    pub fn draw_chits(&self, owed: u32, dice: &mut Dice, out: &mut [u8; 64]) -> usize {
        let t = self.numbered.min(64);
        let mut left = [0u8; 64];
        for (i, x) in left.iter_mut().enumerate().take(t as usize) {
            *x = i as u8;
        }
        let mut need = owed.min(t);
        let mut m = 0u32;
        while m < need {
            let in_cup = (t - m + self.draw_two) as u64;
            let pick = dice.below(in_cup) as u32;
            if pick >= t - m {
                need = (need + 1).min(t);
                continue;
            }
            let remaining = (t - m) as usize;
            out[m as usize] = left[pick as usize];
            left[pick as usize] = left[remaining - 1];
            m += 1;
        }
        m as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 6e-6, "{a} vs {b}");
    }

    #[test]
    fn digest_reference_values() {
        // §8.3: P(drawn) / P(captured on a non-victory) for n chits and k "draw 2" chits.
        let table = [
            (1, 0, 0.02778, 0.0),
            (2, 0, 0.05556, 0.02778),
            (10, 0, 0.27778, 0.02778),
            (1, 1, 0.02941, 0.00079),
            (5, 1, 0.14734, 0.02857),
            (1, 2, 0.03125, 0.00163),
            (2, 2, 0.06257, 0.02941),
            (8, 2, 0.25213, 0.02941),
            (3, 4, 0.10783, 0.03125),
            (10, 4, 0.36963, 0.03125),
        ];
        for (n, k, drawn, captured) in table {
            let cup = Cup {
                numbered: 36 - k,
                draw_two: k,
            };
            let f = cup.fate(n, false);
            close(f.killed + f.captured, drawn);
            close(f.captured, captured);
            let v = cup.fate(n, true);
            close(v.killed, drawn);
            assert_eq!(v.captured, 0.0);
        }
        // k = 2, n = 1: E[M] = 1.06264 (the digest's Monte Carlo check gave 1.06265).
        assert!(
            (Cup {
                numbered: 34,
                draw_two: 2
            }
            .set_aside(1)
            .mean()
                - 1.06264)
                .abs()
                < 1e-5
        );
    }

    #[test]
    fn drawn_chit_lists_match_the_exact_fate() {
        let cup = Cup {
            numbered: 34,
            draw_two: 2,
        };
        let mut out = [0u8; 64];
        for (n, victory) in [(1, false), (6, true), (12, false)] {
            let exact = cup.fate(n, victory);
            let trials = 200_000;
            let (mut killed, mut captured) = (0, 0);
            for i in 0..trials {
                let mut dice = Dice::for_trial(4, n as u64, i);
                let m = cup.draw_chits(n, &mut dice, &mut out);
                // Senator 7's chit, as the one whose fate is asked.
                if let Some(p) = out[..m].iter().position(|&c| c == 6) {
                    if !victory && m >= 2 && p == m - 1 {
                        captured += 1;
                    } else {
                        killed += 1;
                    }
                }
            }
            for (p, hits) in [(exact.killed, killed), (exact.captured, captured)] {
                let q = hits as f64 / trials as f64;
                let se = (p * (1.0 - p) / trials as f64).sqrt();
                assert!(
                    (p - q).abs() <= 5.0 * se + 2.0 / trials as f64,
                    "n {n}: {p} vs {q}"
                );
            }
        }
    }

    #[test]
    fn simulated_draws_match_the_exact_fate() {
        let cup = Cup {
            numbered: 34,
            draw_two: 2,
        };
        for (n, victory) in [(1, false), (3, false), (6, true), (12, false)] {
            let exact = cup.fate(n, victory);
            let trials = 400_000;
            let (mut killed, mut captured) = (0, 0);
            for i in 0..trials {
                let mut dice = Dice::for_trial(3, n as u64, i);
                let (k, c) = cup.draw(n, victory, &mut dice);
                killed += k as u32;
                captured += c as u32;
            }
            for (p, hits) in [(exact.killed, killed), (exact.captured, captured)] {
                let q = hits as f64 / trials as f64;
                let se = (p * (1.0 - p) / trials as f64).sqrt();
                assert!(
                    (p - q).abs() <= 5.0 * se + 2.0 / trials as f64,
                    "n {n}: {p} vs {q}"
                );
            }
        }
    }
}
