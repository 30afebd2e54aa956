//! Finite probability mass functions over counts `0..len`.

use super::lnfact::ln_choose;

/// A probability mass function over the counts `0, 1, …, len-1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pmf(pub Vec<f64>);

impl Pmf {
    /// The distribution that is `value` with certainty.
    pub fn point(value: usize) -> Pmf {
        let mut p = vec![0.0; value + 1];
        p[value] = 1.0;
        Pmf(p)
    }

    /// All zero over `0..len` (an accumulator to add weighted mass into).
    pub fn zeros(len: usize) -> Pmf {
        Pmf(vec![0.0; len])
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, k: usize) -> f64 {
        self.0.get(k).copied().unwrap_or(0.0)
    }

    /// Number of successes in `n` independent trials of probability `p`.
    pub fn binomial(n: usize, p: f64) -> Pmf {
        Pmf::binomial_capped(n, p, n)
    }

    /// `min(Binomial(n, p), cap)`: the mass above `cap` is lumped on `cap`.
    /// Computed in log space so that very large `n` neither underflows nor costs more than `O(cap)`.
    pub fn binomial_capped(n: usize, p: f64, cap: usize) -> Pmf {
        let cap = cap.min(n);
        let mut out = vec![0.0; cap + 1];
        if p <= 0.0 {
            out[0] = 1.0;
            return Pmf(out);
        }
        if p >= 1.0 {
            out[cap] = 1.0;
            return Pmf(out);
        }
        let (lp, lq) = (p.ln(), (-p).ln_1p());
        let mut head = 0.0;
        for (k, slot) in out.iter_mut().enumerate().take(cap) {
            let v = (ln_choose(n, k) + k as f64 * lp + (n - k) as f64 * lq).exp();
            *slot = v;
            head += v;
        }
        out[cap] = if cap == n {
            (n as f64 * lp).exp()
        } else {
            (1.0 - head).max(0.0)
        };
        Pmf(out)
    }

    /// Marginal of one class in uniform sampling without replacement:
    /// `draws` items taken from `total`, of which `marked` are of the class.
    pub fn hypergeometric(total: usize, marked: usize, draws: usize) -> Pmf {
        assert!(
            marked <= total && draws <= total,
            "hypergeometric arguments out of range"
        );
        let mut out = vec![0.0; marked.min(draws) + 1];
        let lo = draws.saturating_sub(total - marked);
        let denom = ln_choose(total, draws);
        for (j, slot) in out.iter_mut().enumerate().skip(lo) {
            *slot = (ln_choose(marked, j) + ln_choose(total - marked, draws - j) - denom).exp();
        }
        Pmf(out)
    }

    /// Uniform over `lo..=hi` (a die with faces `lo..=hi`).
    pub fn uniform(lo: usize, hi: usize) -> Pmf {
        let mut out = vec![0.0; hi + 1];
        let w = 1.0 / (hi - lo + 1) as f64;
        for slot in &mut out[lo..=hi] {
            *slot = w;
        }
        Pmf(out)
    }

    /// Sum of `n` dice with faces `1..=sides` (3d6, 2d6, …).
    pub fn dice_sum(n: usize, sides: usize) -> Pmf {
        let die = Pmf::uniform(1, sides);
        (0..n).fold(Pmf::point(0), |acc, _| acc.convolve(&die))
    }

    /// Distribution of the sum of two independent counts.
    pub fn convolve(&self, other: &Pmf) -> Pmf {
        if self.is_empty() || other.is_empty() {
            return Pmf(Vec::new());
        }
        let mut out = vec![0.0; self.len() + other.len() - 1];
        for (i, &a) in self.0.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.0.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Pmf(out)
    }

    /// Distribution of `min(X, cap)`.
    pub fn capped(&self, cap: usize) -> Pmf {
        if self.len() <= cap + 1 {
            return self.clone();
        }
        let mut out = self.0[..=cap].to_vec();
        out[cap] += self.0[cap + 1..].iter().sum::<f64>();
        Pmf(out)
    }

    /// Adds `weight × other` into `self`, growing as needed.
    pub fn add_scaled(&mut self, other: &Pmf, weight: f64) {
        if self.len() < other.len() {
            self.0.resize(other.len(), 0.0);
        }
        for (slot, &p) in self.0.iter_mut().zip(&other.0) {
            *slot += weight * p;
        }
    }

    /// Adds `weight` at `value`, growing as needed.
    pub fn add_mass(&mut self, value: usize, weight: f64) {
        if self.len() <= value {
            self.0.resize(value + 1, 0.0);
        }
        self.0[value] += weight;
    }

    /// Pads with zeros (never truncates) to `len` entries.
    pub fn padded(mut self, len: usize) -> Pmf {
        if self.len() < len {
            self.0.resize(len, 0.0);
        }
        self
    }

    pub fn total(&self) -> f64 {
        self.0.iter().sum()
    }

    pub fn mean(&self) -> f64 {
        self.0.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
    }

    /// The value at which the cumulative probability first exceeds `u` (a uniform draw in [0, 1)):
    /// inverse-transform sampling.
    pub fn sample(&self, u: f64) -> usize {
        let mut u = u;
        let mut last = 0;
        for (v, &p) in self.0.iter().enumerate() {
            if p > 0.0 {
                if u < p {
                    return v;
                }
                last = v;
            }
            u -= p;
        }
        last
    }

    /// `P(X >= k)`.
    pub fn tail(&self, k: usize) -> f64 {
        self.0.iter().skip(k).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn binomial_matches_digest_d1() {
        // Mare Nostrum digest D1: 10 infantry hitting on 9+ → Binomial(10, 0.2).
        let expected = [
            0.107374, 0.268435, 0.301990, 0.201327, 0.088080, 0.026424, 0.005505,
        ];
        let pmf = Pmf::binomial(10, 0.2);
        for (k, e) in expected.iter().enumerate() {
            assert!(close(pmf.get(k), *e, 5e-7), "k={k}: {} vs {e}", pmf.get(k));
        }
        assert!(close(pmf.total(), 1.0, 1e-12));
        assert!(close(pmf.mean(), 2.0, 1e-12));
    }

    #[test]
    fn binomial_huge_n_does_not_underflow_when_capped() {
        let pmf = Pmf::binomial_capped(1_000_000, 0.1, 5);
        assert_eq!(pmf.len(), 6);
        assert!(close(pmf.get(5), 1.0, 1e-12));
        let pmf = Pmf::binomial(2_000, 0.5);
        assert!(close(pmf.total(), 1.0, 1e-9));
        assert!(close(pmf.mean(), 1_000.0, 1e-6));
    }

    #[test]
    fn capped_binomial_lumps_the_tail() {
        let full = Pmf::binomial(8, 0.1);
        let capped = Pmf::binomial_capped(8, 0.1, 4);
        assert!(close(capped.get(4), full.tail(4), 1e-12));
        for (a, b) in full.capped(4).0.iter().zip(&capped.0) {
            assert!(close(*a, *b, 1e-12));
        }
        for k in 0..4 {
            assert!(close(capped.get(k), full.get(k), 1e-12));
        }
    }

    #[test]
    fn hypergeometric_is_a_distribution_with_the_right_mean() {
        let h = Pmf::hypergeometric(15, 5, 4);
        assert!(close(h.total(), 1.0, 1e-12));
        assert!(close(h.mean(), 4.0 * 5.0 / 15.0, 1e-12));
        // C(5,2)C(10,2)/C(15,4) = 10·45/1365
        assert!(close(h.get(2), 450.0 / 1365.0, 1e-12));
        assert_eq!(Pmf::hypergeometric(4, 4, 2).0, vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn sampling_inverts_the_cumulative_distribution() {
        let pmf = Pmf(vec![0.0, 0.25, 0.0, 0.75]);
        assert_eq!(pmf.sample(0.0), 1);
        assert_eq!(pmf.sample(0.2499), 1);
        assert_eq!(pmf.sample(0.25), 3);
        assert_eq!(pmf.sample(0.999999), 3);
        // Rounding that leaves u above the total still lands on a value that can occur.
        assert_eq!(Pmf(vec![0.5, 0.5, 0.0]).sample(1.0), 1);
    }

    #[test]
    fn dice_sums_have_the_classic_shapes() {
        let two = Pmf::dice_sum(2, 6);
        assert!(close(two.get(7), 6.0 / 36.0, 1e-12));
        assert!(close(two.get(2), 1.0 / 36.0, 1e-12));
        let three = Pmf::dice_sum(3, 6);
        assert!(close(three.get(10), 27.0 / 216.0, 1e-12));
        assert!(close(three.mean(), 10.5, 1e-12));
    }

    #[test]
    fn convolution_of_binomials_is_binomial() {
        let a = Pmf::binomial(3, 0.3).convolve(&Pmf::binomial(4, 0.3));
        let b = Pmf::binomial(7, 0.3);
        for k in 0..8 {
            assert!(close(a.get(k), b.get(k), 1e-12));
        }
    }
}
