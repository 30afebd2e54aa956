//! Online aggregation of games: a fixed-size tally per chunk of games, merged in chunk order.
//!
//! Every sum is kept in 128-bit fixed point (48 fractional bits): adding is integer addition,
//! which is exact, associative and commutative, so a tally is the same to the last bit however
//! the games were cut into chunks and in whatever order the chunks were merged. (Floating-point
//! sums would make the result depend on the chunking.) Each value is rounded once to a multiple
//! of 2^-48 ≈ 3.6e-15 on the way in, far below any estimate's standard error. A sum holds
//! magnitudes up to 2^79 ≈ 6e23: squares of values up to ten million over 10^10 games.

use super::{GameModel, GameRecord};

const FRAC_BITS: u32 = 48;
const SCALE: f64 = (1u64 << FRAC_BITS) as f64;
const TWO_32: f64 = 4_294_967_296.0;

/// `round(x · 2^48)` as an integer, without a library call. Most measurements are whole numbers
/// (VP, units, provinces), which need no rounding: shifted in directly, they give the same result.
#[inline]
fn to_fixed(x: f64) -> i128 {
    let whole = x as i32;
    if whole as f64 == x {
        return (whole as i128) << FRAC_BITS;
    }
    to_fixed_rounded(x)
}

/// [`to_fixed`] for any value: the high part converts by truncation and the rest, below 2^32,
/// rounds half away from zero. NaN gives 0.
#[inline]
fn to_fixed_rounded(x: f64) -> i128 {
    let y = x * SCALE; // exact: a power of two
    let high = (y * (1.0 / TWO_32)) as i64;
    let low = y - high as f64 * TWO_32;
    ((high as i128) << 32) + (low + 0.5f64.copysign(low)) as i64 as i128
}

/// A sum in 128-bit fixed point with 48 fractional bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExactSum(i128);

impl ExactSum {
    #[inline]
    pub fn add(&mut self, x: f64) {
        // Wrapping addition is still associative: merge order never matters.
        self.0 = self.0.wrapping_add(to_fixed(x));
    }

    #[inline]
    pub fn merge(&mut self, other: &ExactSum) {
        self.0 = self.0.wrapping_add(other.0);
    }

    pub fn value(&self) -> f64 {
        self.0 as f64 / SCALE
    }

    /// The fixed-point integer itself (what a shard stores, so a merge adds exactly).
    pub fn bits(&self) -> i128 {
        self.0
    }

    pub fn from_bits(bits: i128) -> ExactSum {
        ExactSum(bits)
    }
}

/// Sum and sum of squares of one quantity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    pub sum: ExactSum,
    pub squares: ExactSum,
}

impl Moments {
    #[inline]
    pub fn add(&mut self, x: f64) {
        self.sum.add(x);
        self.squares.add(x * x);
    }

    #[inline]
    pub fn merge(&mut self, other: &Moments) {
        self.sum.merge(&other.sum);
        self.squares.merge(&other.squares);
    }

    /// The mean over `n` values (NaN when there are none).
    pub fn mean(&self, n: u64) -> f64 {
        if n == 0 {
            f64::NAN
        } else {
            self.sum.value() / n as f64
        }
    }

    /// The sample variance over `n` values (NaN for fewer than 2).
    pub fn variance(&self, n: u64) -> f64 {
        if n < 2 {
            return f64::NAN;
        }
        let (s, q) = (self.sum.value(), self.squares.value());
        ((q - s * s / n as f64) / (n - 1) as f64).max(0.0)
    }

    /// The sample standard deviation over `n` values (NaN for fewer than 2).
    pub fn sd(&self, n: u64) -> f64 {
        self.variance(n).sqrt()
    }
}

/// The sizes of everything a tally counts, read once from the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub players: usize,
    pub endings: usize,
    pub max_turns: usize,
    /// Per-player metrics measured each turn.
    pub metrics: usize,
    pub globals: usize,
    pub extras: usize,
}

impl Shape {
    pub fn of(model: &dyn GameModel) -> Shape {
        Shape {
            players: model.players().len(),
            endings: model.endings().len(),
            max_turns: model.max_turns() as usize,
            metrics: model.turn_metrics().len(),
            globals: model.global_metrics().len(),
            extras: model.game_columns().len(),
        }
    }

    /// Values an observer receives per player per turn (`players × metrics`).
    pub fn per_player(&self) -> usize {
        self.players * self.metrics
    }

    /// Approximate heap bytes of one tally (to size the waves of chunks).
    pub fn tally_bytes(&self) -> usize {
        let moments = std::mem::size_of::<Moments>();
        let per_turn = (self.per_player() + self.globals) * moments + 8;
        self.max_turns * (per_turn + 8)
            + (2 * self.players + self.extras) * moments
            + 16 * self.players
            + 8 * self.endings
    }
}

/// What was measured at the end of each turn, over the games that played that turn.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStats {
    shape: Shape,
    /// `running[t - 1]`: games that played turn `t`.
    pub running: Vec<u64>,
    /// `player[(t - 1) * players * metrics + p * metrics + m]`.
    pub player: Vec<Moments>,
    /// `global[(t - 1) * globals + g]`.
    pub global: Vec<Moments>,
}

impl TurnStats {
    fn new(shape: Shape) -> TurnStats {
        TurnStats {
            shape,
            running: vec![0; shape.max_turns],
            player: vec![Moments::default(); shape.max_turns * shape.per_player()],
            global: vec![Moments::default(); shape.max_turns * shape.globals],
        }
    }

    /// Adds one game's measurements at the end of `turn` (1..=max_turns, checked by the caller).
    #[inline]
    pub fn observe(&mut self, turn: u32, per_player: &[f64], global: &[f64]) {
        let t = turn as usize - 1;
        self.running[t] += 1;
        let pm = self.shape.per_player();
        for (cell, &x) in self.player[t * pm..(t + 1) * pm].iter_mut().zip(per_player) {
            cell.add(x);
        }
        let g = self.shape.globals;
        for (cell, &x) in self.global[t * g..(t + 1) * g].iter_mut().zip(global) {
            cell.add(x);
        }
    }

    fn merge(&mut self, other: &TurnStats) {
        for (a, b) in self.running.iter_mut().zip(&other.running) {
            *a += b;
        }
        for (a, b) in self.player.iter_mut().zip(&other.player) {
            a.merge(b);
        }
        for (a, b) in self.global.iter_mut().zip(&other.global) {
            a.merge(b);
        }
    }

    /// Mean and SD of metric `m` of player `p` at turn `t` over the games still running then.
    pub fn player_metric(&self, turn: u32, p: usize, m: usize) -> (u64, f64, f64) {
        let t = turn as usize - 1;
        let n = self.running[t];
        let cell = &self.player[t * self.shape.per_player() + p * self.shape.metrics + m];
        (n, cell.mean(n), cell.sd(n))
    }

    /// Mean and SD of global metric `g` at turn `t` over the games still running then.
    pub fn global_metric(&self, turn: u32, g: usize) -> (u64, f64, f64) {
        let t = turn as usize - 1;
        let n = self.running[t];
        let cell = &self.global[t * self.shape.globals + g];
        (n, cell.mean(n), cell.sd(n))
    }
}

/// Everything aggregated over a set of games: fixed size, whatever the number of games.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTally {
    pub shape: Shape,
    pub games: u64,
    /// Per player: win share.
    pub win: Vec<Moments>,
    /// Per player: final score.
    pub score: Vec<Moments>,
    pub score_min: Vec<f64>,
    pub score_max: Vec<f64>,
    /// Per ending: games that ended so.
    pub endings: Vec<u64>,
    /// `length[t - 1]`: games that lasted `t` turns.
    pub length: Vec<u64>,
    /// Per [`GameModel::game_columns`] entry.
    pub extra: Vec<Moments>,
    pub turns: TurnStats,
}

impl GameTally {
    pub fn new(shape: Shape) -> GameTally {
        GameTally {
            shape,
            games: 0,
            win: vec![Moments::default(); shape.players],
            score: vec![Moments::default(); shape.players],
            score_min: vec![f64::INFINITY; shape.players],
            score_max: vec![f64::NEG_INFINITY; shape.players],
            endings: vec![0; shape.endings],
            length: vec![0; shape.max_turns],
            extra: vec![Moments::default(); shape.extras],
            turns: TurnStats::new(shape),
        }
    }

    /// Adds one finished game (already checked against the model's contract).
    #[inline]
    pub fn record(&mut self, r: &GameRecord) {
        self.games += 1;
        for p in 0..self.shape.players {
            self.win[p].add(r.win_share[p]);
            let s = r.score[p];
            self.score[p].add(s);
            self.score_min[p] = self.score_min[p].min(s);
            self.score_max[p] = self.score_max[p].max(s);
        }
        self.endings[r.ending] += 1;
        self.length[r.turns as usize - 1] += 1;
        for (cell, &x) in self.extra.iter_mut().zip(&r.extra) {
            cell.add(x);
        }
    }

    pub fn merge(&mut self, other: &GameTally) {
        debug_assert_eq!(self.shape, other.shape);
        self.games += other.games;
        for p in 0..self.shape.players {
            self.win[p].merge(&other.win[p]);
            self.score[p].merge(&other.score[p]);
            self.score_min[p] = self.score_min[p].min(other.score_min[p]);
            self.score_max[p] = self.score_max[p].max(other.score_max[p]);
        }
        for (a, b) in self.endings.iter_mut().zip(&other.endings) {
            *a += b;
        }
        for (a, b) in self.length.iter_mut().zip(&other.length) {
            *a += b;
        }
        for (a, b) in self.extra.iter_mut().zip(&other.extra) {
            a.merge(b);
        }
        self.turns.merge(&other.turns);
    }

    /// Mean game length in turns and its SD (NaN without games; SD NaN for fewer than 2).
    pub fn length_moments(&self) -> (f64, f64) {
        let (mut sum, mut squares) = (0u128, 0u128);
        for (t, &n) in self.length.iter().enumerate() {
            let t = (t + 1) as u128;
            sum += t * n as u128;
            squares += t * t * n as u128;
        }
        let n = self.games;
        let mean = if n == 0 {
            f64::NAN
        } else {
            sum as f64 / n as f64
        };
        let var = if n < 2 {
            f64::NAN
        } else {
            ((squares as f64 - (sum as f64) * (sum as f64) / n as f64) / (n - 1) as f64).max(0.0)
        };
        (mean, var.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sums_do_not_depend_on_order() {
        let xs: Vec<f64> = (0..1000)
            .map(|i| ((i * 7919) % 1013) as f64 / 3.0 - 100.0)
            .collect();
        let mut forward = ExactSum::default();
        xs.iter().for_each(|&x| forward.add(x));
        let mut backward = ExactSum::default();
        xs.iter().rev().for_each(|&x| backward.add(x));
        assert_eq!(forward, backward);
        let naive: f64 = xs.iter().sum();
        assert!((forward.value() - naive).abs() < 1e-6);
        let mut odd = ExactSum::default();
        odd.add(f64::NAN);
        assert_eq!(odd.value(), 0.0);
        for x in [1.0 / 3.0, -2.5, 2.5, 1e9 + 0.25, -7.0e6 * 7.0e6, 123.456] {
            let mut one = ExactSum::default();
            one.add(x);
            assert!((one.value() - x).abs() <= x.abs() * 1e-15 + 4e-15, "{x}");
        }
        let mut third = ExactSum::default();
        (0..3000).for_each(|_| third.add(1.0 / 3.0));
        assert_eq!(crate::output::tidy(third.value() / 3000.0), 0.333333333333);
    }

    #[test]
    fn whole_numbers_take_the_short_way_to_the_same_fixed_point() {
        let extremes = [i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX];
        for w in (-100_000..100_000).chain(extremes) {
            let x = w as f64;
            assert_eq!(to_fixed(x), to_fixed_rounded(x), "{x}");
            assert_eq!(to_fixed(x), (w as i128) << FRAC_BITS, "{x}");
        }
        for x in [
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.0f64.powi(31),
            -(2.0f64.powi(31)) - 1.0,
            1e12,
            f64::NAN,
        ] {
            assert_eq!(to_fixed(x), to_fixed_rounded(x), "{x}");
        }
    }

    #[test]
    fn moments_give_mean_and_sample_sd() {
        let mut m = Moments::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            m.add(x);
        }
        assert!((m.mean(8) - 5.0).abs() < 1e-12);
        assert!((m.variance(8) - 32.0 / 7.0).abs() < 1e-9);
        assert!(m.sd(1).is_nan() && m.mean(0).is_nan());
    }
}
