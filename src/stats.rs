//! The confidence intervals both engines report: 95% normal intervals from a standard error
//! (battle charts' whiskers, the tuner's and the ladder's gains) and the constant behind them.

/// The 97.5% quantile of the standard normal: 95% intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% normal interval `(low, high)` of an estimate `mean` with standard error `se`.
pub fn normal_ci95(mean: f64, se: f64) -> (f64, f64) {
    (mean - Z95 * se, mean + Z95 * se)
}
