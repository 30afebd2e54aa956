//! The one opposed roll every combat reduces to (digest §3.0, §8.1): each side's total is a
//! constant plus a number of d6; the attacker wins only with the strictly higher total.

use crate::exact::Pmf;

/// A side's total before the dice are thrown: fixed factors and the d6 it rolls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Total {
    pub fixed: i32,
    pub dice: u32,
}

impl Total {
    pub fn roll(&self, dice: &mut crate::dice::Dice) -> i32 {
        self.fixed + (0..self.dice).map(|_| dice.d(6) as i32).sum::<i32>()
    }
}

/// The exact roll-off: P(attacker wins), P(tie, which the defender wins) and the distribution of
/// the winning margin (attacker total − defender total, index = margin, 0 unused).
#[derive(Clone, Debug)]
pub struct RollOff {
    pub attacker_wins: f64,
    pub tie: f64,
    pub margin: Pmf,
}

/// Most roll-offs [`attacker_wins`] keeps per thread before it starts again.
const MAX_KNOWN: usize = 100_000;

/// [`roll_off`]'s P(attacker wins), kept per thread: the games' exact expedition chains ask for
/// the same few pairs of totals over and over (each value is `roll_off`'s own).
pub fn attacker_wins(a: Total, d: Total) -> f64 {
    use std::cell::RefCell;
    thread_local! {
        static KNOWN: RefCell<rustc_hash::FxHashMap<(Total, Total), f64>> = RefCell::default();
    }
    KNOWN.with_borrow_mut(|known| {
        if let Some(&p) = known.get(&(a, d)) {
            return p;
        }
        if known.len() >= MAX_KNOWN {
            known.clear();
        }
        let p = roll_off(a, d).attacker_wins;
        known.insert((a, d), p);
        p
    })
}

pub fn roll_off(a: Total, d: Total) -> RollOff {
    let pa = Pmf::dice_sum(a.dice as usize, 6);
    let pd = Pmf::dice_sum(d.dice as usize, 6);
    let mut win = 0.0;
    let mut tie = 0.0;
    let mut margin = Pmf::zeros(1);
    for (sa, &qa) in pa.0.iter().enumerate() {
        if qa == 0.0 {
            continue;
        }
        for (sd, &qd) in pd.0.iter().enumerate() {
            if qd == 0.0 {
                continue;
            }
            let m = (a.fixed + sa as i32) - (d.fixed + sd as i32);
            let q = qa * qd;
            if m > 0 {
                win += q;
                margin.add_mass(m as usize, q);
            } else if m == 0 {
                tie += q;
            }
        }
    }
    RollOff {
        attacker_wins: win,
        tie,
        margin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: Total, d: Total) -> f64 {
        roll_off(a, d).attacker_wins
    }

    fn t(fixed: i32, dice: u32) -> Total {
        Total { fixed, dice }
    }

    /// The kept chances are `roll_off`'s own, asked once or again (and in another order).
    #[test]
    fn kept_chances_are_the_roll_offs() {
        let totals: Vec<Total> = (0..4)
            .flat_map(|fixed| (0..5).map(move |dice| t(fixed, dice)))
            .collect();
        for pass in 0..2 {
            for (i, &a) in totals.iter().enumerate() {
                for &d in totals.iter().skip(pass * i % 3) {
                    assert_eq!(super::attacker_wins(a, d), p(a, d), "{a:?} {d:?}");
                }
            }
        }
    }

    /// Digest T-40: a + 1d6 against d + 1d6 by the difference k = a − d.
    #[test]
    fn t40_one_base_die_each() {
        let win = [0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36];
        let tie = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0];
        for (i, k) in (-5..=6).enumerate() {
            let r = roll_off(t(10 + k, 1), t(10, 1));
            assert!(
                (r.attacker_wins - win[i] as f64 / 36.0).abs() < 1e-12,
                "k = {k}"
            );
            assert!((r.tie - tie[i] as f64 / 36.0).abs() < 1e-12, "k = {k}");
        }
        assert!((p(t(20, 1), t(0, 1)) - 1.0).abs() < 1e-12);
    }

    /// Digest T-41: attacker a + 1d6 against n d6 with no base die (assault, pacification).
    #[test]
    fn t41_assault_matrix() {
        let rows: [(u32, [(u64, u64); 16]); 3] = [
            (
                1,
                [
                    (5, 12),
                    (7, 12),
                    (13, 18),
                    (5, 6),
                    (11, 12),
                    (35, 36),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                    (1, 1),
                ],
            ),
            (
                3,
                [
                    (5, 432),
                    (35, 1296),
                    (35, 648),
                    (7, 72),
                    (103, 648),
                    (155, 648),
                    (145, 432),
                    (575, 1296),
                    (721, 1296),
                    (287, 432),
                    (493, 648),
                    (545, 648),
                    (65, 72),
                    (613, 648),
                    (1261, 1296),
                    (427, 432),
                ],
            ),
            (
                6,
                [
                    (0, 1),
                    (1, 279936),
                    (1, 34992),
                    (1, 7776),
                    (5, 11664),
                    (55, 46656),
                    (11, 3888),
                    (1709, 279936),
                    (211, 17496),
                    (229, 10368),
                    (1325, 34992),
                    (8569, 139968),
                    (365, 3888),
                    (12799, 93312),
                    (559, 2916),
                    (7999, 31104),
                ],
            ),
        ];
        for (n, row) in rows {
            for (a, (num, den)) in row.into_iter().enumerate() {
                let got = p(t(a as i32, 1), t(0, n));
                assert!(
                    (got - num as f64 / den as f64).abs() < 1e-12,
                    "n = {n}, a = {a}: {got}"
                );
            }
        }
        // Spot checks of the other rows.
        assert!((p(t(4, 1), t(0, 2)) - 0.5).abs() < 1e-12);
        assert!((p(t(11, 1), t(0, 4)) - 0.5).abs() < 1e-12);
        assert!((p(t(15, 1), t(0, 5)) - 4249.0 / 7776.0).abs() < 1e-12);
        assert!((p(t(15, 1), t(0, 7)) - 8459.0 / 93312.0).abs() < 1e-12);
    }

    /// Digest T-42 to T-49.
    #[test]
    fn t42_to_t49_single_combats() {
        let close = |x: f64, num: f64, den: f64| (x - num / den).abs() < 1e-12;
        let r = roll_off(t(5, 2), t(6, 1));
        assert!(close(r.attacker_wins, 20.0, 27.0) && close(r.tie, 7.0, 72.0));
        let r = roll_off(t(8, 2), t(0, 3));
        assert!(close(r.attacker_wins, 1099.0, 1296.0) && close(r.tie, 35.0, 648.0));
        let r = roll_off(t(4, 1), t(0, 3));
        assert!(close(r.attacker_wins, 103.0, 648.0) && close(r.tie, 13.0, 162.0));
        assert!(close(p(t(12, 1), t(0, 6)), 365.0, 3888.0));
        let r = roll_off(t(0, 3), t(5, 1));
        assert!(close(r.attacker_wins, 287.0, 432.0) && close(r.tie, 125.0, 1296.0));
        assert!(close(p(t(0, 4), t(0, 3)), 23105.0, 31104.0));
        let r = roll_off(t(0, 3), t(0, 3));
        assert!(close(r.attacker_wins, 3527.0, 7776.0) && close(r.tie, 361.0, 3888.0));
        assert!(close(p(t(6, 1), t(5, 1)), 7.0, 12.0));
    }

    /// Digest T-54: the joint distribution of winning and the margin, 6 + 1d6 against 2d6.
    #[test]
    fn t54_margin_distribution() {
        let r = roll_off(t(6, 1), t(0, 2));
        let expect = [
            25.0 / 216.0,
            1.0 / 8.0,
            1.0 / 8.0,
            25.0 / 216.0,
            7.0 / 72.0,
            5.0 / 72.0,
            5.0 / 108.0,
            1.0 / 36.0,
            1.0 / 72.0,
            1.0 / 216.0,
        ];
        for (m, e) in expect.iter().enumerate() {
            assert!((r.margin.get(m + 1) - e).abs() < 1e-12, "margin {}", m + 1);
        }
        assert!((r.attacker_wins - 20.0 / 27.0).abs() < 1e-12);
        assert!((r.margin.total() - r.attacker_wins).abs() < 1e-12);
    }
}
