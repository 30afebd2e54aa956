//! The confidence intervals both engines report: 95% normal intervals from a standard error
//! (battle charts' whiskers, the tuner's and the ladder's gains) and the constant behind them; and
//! the χ² goodness-of-fit test the game summaries give seat order.

/// The 97.5% quantile of the standard normal: 95% intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% normal interval `(low, high)` of an estimate `mean` with standard error `se`.
pub fn normal_ci95(mean: f64, se: f64) -> (f64, f64) {
    (mean - Z95 * se, mean + Z95 * se)
}

/// A χ² goodness-of-fit test: the statistic, its degrees of freedom and the p-value
/// P(χ²_df ≥ statistic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u32,
    pub p_value: f64,
}

/// Pearson's χ² test of observed `counts` against equal shares (each expected = total / k), with
/// k − 1 degrees of freedom. `None` with fewer than two categories or nothing observed.
pub fn chi_square_uniform(counts: &[f64]) -> Option<ChiSquare> {
    let k = counts.len();
    let total: f64 = counts.iter().sum();
    if k < 2 || total.is_nan() || total <= 0.0 {
        return None;
    }
    let expected = total / k as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&o| (o - expected) * (o - expected) / expected)
        .sum();
    let df = (k - 1) as u32;
    Some(ChiSquare {
        statistic,
        df,
        p_value: chi_square_sf(statistic, df),
    })
}

/// P(χ²_df ≥ x), the upper tail of the χ² distribution: Q(df/2, x/2).
pub fn chi_square_sf(x: f64, df: u32) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(0.5 * df as f64, 0.5 * x)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[1..]
        .iter()
        .enumerate()
        .fold(C[0], |s, (i, c)| s + c / (x + 1.0 + i as f64));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), a > 0, x ≥ 0: the
/// power series of P below x = a + 1, the continued fraction of Q above (each converges fast
/// on its side; Numerical Recipes §6.2).
fn gamma_q(a: f64, x: f64) -> f64 {
    const EPS: f64 = 1e-15;
    const MAX_ITER: usize = 10_000;
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefactor = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..MAX_ITER {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * EPS {
                break;
            }
        }
        (1.0 - sum * log_prefactor.exp()).max(0.0)
    } else {
        // Modified Lentz.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..MAX_ITER {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < EPS {
                break;
            }
        }
        (log_prefactor.exp() * h).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_matches_factorials_and_root_pi() {
        for (x, g) in [(1.0, 1.0), (2.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0)] {
            assert!((ln_gamma(x) - f64::ln(g)).abs() < 1e-12, "{x}");
        }
        // Γ(1/2) = √π.
        assert!((ln_gamma(0.5) - 0.5 * std::f64::consts::PI.ln()).abs() < 1e-12);
    }

    #[test]
    fn chi_square_tail_matches_published_critical_values() {
        // Critical values from standard χ² tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
        for (x, df, p) in [
            (3.841, 1, 0.05),
            (6.635, 1, 0.01),
            (5.991, 2, 0.05),
            (7.815, 3, 0.05),
            (11.070, 5, 0.05),
            (14.067, 7, 0.05),
            (18.475, 7, 0.01),
        ] {
            let got = chi_square_sf(x, df);
            assert!((got - p).abs() < 2e-4, "χ²={x} df={df}: {got} vs {p}");
        }
        // Closed forms: df = 2 gives e^{−x/2}; df = 1 gives erfc(√(x/2)) = 2(1 − Φ(√x)).
        for x in [0.1, 1.0, 4.0, 30.0] {
            assert!(
                (chi_square_sf(x, 2) - (-x / 2.0).exp()).abs() < 1e-13,
                "{x}"
            );
        }
        assert!((chi_square_sf(Z95 * Z95, 1) - 0.05).abs() < 1e-12);
        assert_eq!(chi_square_sf(0.0, 3), 1.0);
    }

    #[test]
    fn chi_square_of_a_small_table_by_hand() {
        // Observed 30, 20, 10 of 60; expected 20 each: (100 + 0 + 100) / 20 = 10, df 2,
        // p = e^{−5} (df 2 closed form).
        let t = chi_square_uniform(&[30.0, 20.0, 10.0]).unwrap();
        assert!((t.statistic - 10.0).abs() < 1e-12);
        assert_eq!(t.df, 2);
        assert!((t.p_value - (-5.0f64).exp()).abs() < 1e-12);
        // Fractional counts (shared wins) are allowed: 2.5 and 1.5 of 4, expected 2:
        // (0.25 + 0.25) / 2 = 0.25.
        let t = chi_square_uniform(&[2.5, 1.5]).unwrap();
        assert!((t.statistic - 0.25).abs() < 1e-12 && t.df == 1);
        assert!(chi_square_uniform(&[5.0]).is_none());
        assert!(chi_square_uniform(&[0.0, 0.0]).is_none());
    }
}
