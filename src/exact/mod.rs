//! Exact probability: finite distributions over counts, dice pools, sampling without replacement,
//! and small Markov chains over battle states.

pub mod lnfact;
pub mod markov;
pub mod pmf;

/// The exact solvers' state maps: short integer keys hashed millions of times, where the standard
/// SipHash (built to resist adversarial keys) would dominate the work.
pub type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;
pub use markov::StateDist;
pub use pmf::Pmf;

/// Hits scored by a pool of dice in which each die of class `i` hits independently with
/// probability `p_i`: the convolution of one binomial per class.
pub fn dice_pool_hits(classes: &[(usize, f64)]) -> Pmf {
    classes
        .iter()
        .filter(|(n, _)| *n > 0)
        .fold(Pmf::point(0), |acc, &(n, p)| {
            acc.convolve(&Pmf::binomial(n, p))
        })
}

/// Probability that a die with faces `1..=sides`, plus `modifier`, shows at least `target`.
pub fn p_at_least(sides: u32, modifier: i32, target: i32) -> f64 {
    let need = target - modifier; // natural face needed
    let hits = (sides as i32 - need + 1).clamp(0, sides as i32);
    hits as f64 / sides as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_face_count() {
        assert_eq!(p_at_least(10, 0, 9), 0.2);
        assert_eq!(p_at_least(10, 3, 8), 0.6);
        assert_eq!(p_at_least(10, 9, 9), 1.0);
        assert_eq!(p_at_least(10, -5, 9), 0.0);
        assert_eq!(p_at_least(6, 0, 4), 0.5);
    }

    #[test]
    fn pool_of_mixed_dice_has_additive_mean() {
        let pool = dice_pool_hits(&[(5, 0.3), (10, 0.2), (0, 0.9)]);
        assert!((pool.mean() - (1.5 + 2.0)).abs() < 1e-12);
        assert_eq!(pool.len(), 16);
    }
}
