//! Random streams and dice.
//!
//! Every trial (a battle, a game) draws from its own `Xoshiro256PlusPlus` stream whose seed is a hash
//! of (experiment seed, stream, trial index). Nothing depends on which thread runs the trial, so a
//! result is a function of the experiment and its seed alone.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// SplitMix64's finaliser: a bijective mixer with good avalanche.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of trial `index` in stream `stream` of an experiment seeded with `seed`.
#[inline]
pub fn trial_seed(seed: u64, stream: u64, index: u64) -> u64 {
    mix64(mix64(mix64(seed) ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03)) ^ index)
}

const TEN_POW_16: u64 = 10_000_000_000_000_000;

/// Dice drawn from one trial's stream.
///
/// d10s come sixteen at a time from one 64-bit word `x`. Lemire's test accepts `x` exactly when
/// `D = floor(x · 10^16 / 2^64)` is uniform on `0..10^16` (rejecting about 4 words in 10,000); the
/// sixteen decimal digits of `D` are then independent d10s, read from the top one multiply at a
/// time: `10 · x = digit · 2^64 + x'`.
#[derive(Clone)]
pub struct Dice {
    rng: Xoshiro256PlusPlus,
    fraction: u64,
    digits_left: u32,
}

/// `2^64 mod 10^16`: words whose `x · 10^16 mod 2^64` falls below it are rejected.
const TEN_POW_16_REJECT: u64 = TEN_POW_16.wrapping_neg() % TEN_POW_16;

impl Dice {
    pub fn for_trial(seed: u64, stream: u64, index: u64) -> Dice {
        Dice::from_seed(trial_seed(seed, stream, index))
    }

    pub fn from_seed(seed: u64) -> Dice {
        // Four SplitMix64 outputs fill the state (never all zero: mix64 is a bijection of distinct inputs).
        let mut state = [0u8; 32];
        for (i, chunk) in state.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(
                &mix64(seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
                    .to_le_bytes(),
            );
        }
        Dice {
            rng: Xoshiro256PlusPlus::from_seed(state),
            fraction: 0,
            digits_left: 0,
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Uniform in `0..n` without bias (Lemire's nearly divisionless method). `n` must be > 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = (self.rng.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.rng.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// A die with faces `1..=sides`.
    #[inline]
    pub fn d(&mut self, sides: u32) -> u32 {
        if sides == 10 {
            return self.d10();
        }
        self.below(sides as u64) as u32 + 1
    }

    /// A d10, 1..=10.
    #[inline]
    pub fn d10(&mut self) -> u32 {
        if self.digits_left == 0 {
            self.refill_d10s();
        }
        let m = (self.fraction as u128) * 10;
        self.fraction = m as u64;
        self.digits_left -= 1;
        (m >> 64) as u32 + 1
    }

    #[cold]
    fn refill_d10s(&mut self) {
        loop {
            let x = self.rng.next_u64();
            if x.wrapping_mul(TEN_POW_16) >= TEN_POW_16_REJECT {
                self.fraction = x;
                self.digits_left = 16;
                return;
            }
        }
    }

    /// How many of `n` d10s show at least `target` (a natural face, 1..=10; ≤ 1 always hits, > 10 never).
    #[inline]
    pub fn d10_at_least(&mut self, n: u32, target: i32) -> u32 {
        if target <= 1 {
            return n;
        }
        if target > 10 {
            return 0;
        }
        // The digit stream lives in locals for the loop, so the state is not stored back per die.
        let need = (target - 1) as u64; // a digit 0..9 hits when it is at least this
        let (mut fraction, mut left) = (self.fraction, self.digits_left);
        let mut hits = 0;
        for _ in 0..n {
            if left == 0 {
                self.refill_d10s();
                (fraction, left) = (self.fraction, self.digits_left);
            }
            let m = (fraction as u128) * 10;
            fraction = m as u64;
            left -= 1;
            hits += ((m >> 64) as u64 >= need) as u32;
        }
        (self.fraction, self.digits_left) = (fraction, left);
        hits
    }

    /// Uniform in [0, 1), 53 bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p` (resolution 2^-53).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.rng.next_u64() >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < p
    }
}

/// Removes `losses` items chosen uniformly at random without replacement from a population given
/// by class counts; returns how many of each class were removed.
// Always inlined: the result then stays in registers; returned through memory, its four narrow
// stores followed by one wide load stall store forwarding (measured: a sixth of a field battle).
#[inline(always)]
pub fn draw_without_replacement<const K: usize>(
    dice: &mut Dice,
    counts: [u32; K],
    losses: u32,
) -> [u32; K] {
    let mut left = counts;
    let mut total: u32 = left.iter().sum();
    if losses >= total {
        return counts;
    }
    if let Some(only) = counts.iter().position(|&c| c == total) {
        let mut taken = [0u32; K];
        taken[only] = losses;
        return taken;
    }
    let mut taken = [0u32; K];
    for _ in 0..losses {
        // Branch-free choice of the class: the number of cumulative boundaries `r` has passed.
        // (Branching on a random number mispredicts half the time; empty classes are skipped.)
        let r = dice.below(total as u64) as u32;
        let mut class = 0;
        let mut boundary = 0;
        for &count in &left[..K - 1] {
            boundary += count;
            class += (r >= boundary) as usize;
        }
        // Constant indices let the counts live in registers instead of memory.
        for c in 0..K {
            let hit = (c == class) as u32;
            left[c] -= hit;
            taken[c] += hit;
        }
        total -= 1;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_trial_same_dice() {
        let a: Vec<u32> = {
            let mut d = Dice::for_trial(7, 3, 11);
            (0..40).map(|_| d.d10()).collect()
        };
        let b: Vec<u32> = {
            let mut d = Dice::for_trial(7, 3, 11);
            (0..40).map(|_| d.d10()).collect()
        };
        assert_eq!(a, b);
        let c: Vec<u32> = {
            let mut d = Dice::for_trial(7, 3, 12);
            (0..40).map(|_| d.d10()).collect()
        };
        assert_ne!(a, c);
    }

    #[test]
    fn d10_digits_are_the_decimal_digits_of_lemires_draw() {
        // The sixteen faces drawn from one word are the digits of floor(x · 10^16 / 2^64).
        let mut d = Dice::from_seed(4);
        let mut copy = Dice::from_seed(4);
        let x = copy.next_u64();
        let big = ((x as u128 * TEN_POW_16 as u128) >> 64) as u64;
        let expected: Vec<u32> = format!("{big:016}")
            .bytes()
            .map(|b| (b - b'0') as u32 + 1)
            .collect();
        let got: Vec<u32> = (0..16).map(|_| d.d10()).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn d10_faces_are_uniform() {
        let mut d = Dice::from_seed(1);
        let n = 1_000_000;
        let mut counts = [0u32; 10];
        for _ in 0..n {
            counts[d.d10() as usize - 1] += 1;
        }
        // Each face ~ Binomial(n, 0.1): sd = 300; allow 5 sd.
        for c in counts {
            assert!((c as f64 - 100_000.0).abs() < 1_500.0, "{counts:?}");
        }
    }

    #[test]
    fn other_dice_cover_their_faces() {
        let mut d = Dice::from_seed(2);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let f = d.d(6) as usize;
            assert!((1..=6).contains(&f));
            seen[f] = true;
        }
        assert!(seen[1..].iter().all(|&s| s));
        assert_eq!(d.d10_at_least(5, 1), 5);
        assert_eq!(d.d10_at_least(5, 11), 0);
    }

    #[test]
    fn drawing_without_replacement_respects_counts() {
        let mut d = Dice::from_seed(3);
        for _ in 0..1000 {
            let taken = draw_without_replacement(&mut d, [3, 0, 2, 5], 7);
            assert_eq!(taken.iter().sum::<u32>(), 7);
            assert!(taken[0] <= 3 && taken[1] == 0 && taken[2] <= 2 && taken[3] <= 5);
        }
        assert_eq!(draw_without_replacement(&mut d, [1, 1], 5), [1, 1]);
    }
}
