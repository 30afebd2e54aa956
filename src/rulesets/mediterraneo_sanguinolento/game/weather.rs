//! Weather (digest §4.15, rules §50 L5663-L5799): each month every climatic zone A-E rolls 1D6 on
//! its table: clear, rain (-1 to combat and pursuit rolls), storm or snow (movement costs double,
//! combat factors halved), or no change (the previous month's weather; clear before the first).

use crate::dice::Dice;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weather {
    Clear,
    Rain,
    Storm,
    Snow,
}

impl Weather {
    /// Storm and snow double movement costs and halve combat factors.
    pub fn severe(self) -> bool {
        matches!(self, Weather::Storm | Weather::Snow)
    }
}

pub const ZONES: usize = 5;

/// The zone tables as printed (L5691-L5779): per zone, one row per 1D6 result, one letter per
/// month January-December: C clear, L rain, T storm, N snow, `=` no change (NC).
const TABLES: [[&str; 6]; ZONES] = [
    [
        "CCCCCCCCCCC=",
        "CCCCCCCCCCC=",
        "LCCCCCCCCCC=",
        "LLLCCCCCCC=L",
        "TLLCCCCCCLLL",
        "===CCCCCCLLT",
    ],
    [
        "==CCCCCCCC==",
        "CCCCCCCCC==L",
        "L==CCCCC==LL",
        "LL==CCCCCLLT",
        "TLLLCCCCCLTT",
        "NTLL==CCCTTN",
    ],
    [
        "===C==CCCCCC",
        "==CCCCCCCCC=",
        "LLLLCCCCCC=L",
        "LLLLLCCCC=LL",
        "TTLLLLCCCLLT",
        "NTTTLLLLLLTN",
    ],
    [
        "NNLLCCCCCCC=",
        "NNLLCCCCCC==",
        "NNTLCCCCC=LL",
        "NN=T=CCCC=LT",
        "NN=TLCCCCLTN",
        "NNN=L=CCCLNN",
    ],
    [
        "NNNLCCCCC===",
        "NNNTLCCCCLTN",
        "NNN=TCCCCLNN",
        "NNNN==CCCTNN",
        "NNNN==CCCTNN",
        "NNNN=====NNN",
    ],
];

/// The table's entry for `zone` (0 = A), calendar month 1-12 and die 1-6; None = no change.
pub fn entry(zone: usize, month: u32, die: u32) -> Option<Weather> {
    match TABLES[zone][die as usize - 1].as_bytes()[month as usize - 1] {
        b'C' => Some(Weather::Clear),
        b'L' => Some(Weather::Rain),
        b'T' => Some(Weather::Storm),
        b'N' => Some(Weather::Snow),
        _ => None,
    }
}

/// Rolls this month's weather of every zone in calendar month `month` over last month's.
pub fn roll(weather: &mut [Weather; ZONES], month: u32, dice: &mut Dice) {
    for (zone, w) in weather.iter_mut().enumerate() {
        if let Some(next) = entry(zone, month, dice.d(6)) {
            *w = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probability(zone: usize, month: u32, w: Weather, before: Weather) -> f64 {
        (1..=6)
            .filter(|&d| entry(zone, month, d).unwrap_or(before) == w)
            .count() as f64
            / 6.0
    }

    #[test]
    fn the_tables_read_as_printed() {
        // Zone A's April is always clear; zone D's January always snow; zone E's July keeps
        // June's weather on a 6.
        for d in 1..=6 {
            assert_eq!(entry(0, 4, d), Some(Weather::Clear));
            assert_eq!(entry(3, 1, d), Some(Weather::Snow));
        }
        assert_eq!(entry(4, 7, 6), None);
        assert_eq!(entry(1, 12, 6), Some(Weather::Snow));
        assert_eq!(entry(2, 1, 5), Some(Weather::Storm));
        // Zone C in January: NC on 1-2, rain on 3-4, storm 5, snow 6.
        assert_eq!(probability(2, 1, Weather::Rain, Weather::Clear), 2.0 / 6.0);
        assert_eq!(probability(2, 1, Weather::Clear, Weather::Clear), 2.0 / 6.0);
        assert_eq!(probability(2, 1, Weather::Rain, Weather::Rain), 4.0 / 6.0);
        for zone in 0..ZONES {
            for row in TABLES[zone] {
                assert_eq!(row.len(), 12);
                assert!(row.bytes().all(|b| b"CLTN=".contains(&b)));
            }
        }
    }

    #[test]
    fn the_roll_follows_the_tables_within_5_se() {
        // Zone B in November after a clear October: NC on 1-2 (clear), rain 3-4, storm 5-6.
        let n = 60_000u64;
        let mut counts = [0u64; 4];
        for i in 0..n {
            let mut w = [Weather::Clear; ZONES];
            roll(&mut w, 11, &mut Dice::for_trial(3, 0, i));
            counts[w[1] as usize] += 1;
        }
        for (k, w) in [Weather::Clear, Weather::Rain, Weather::Storm, Weather::Snow]
            .into_iter()
            .enumerate()
        {
            let p = probability(1, 11, w, Weather::Clear);
            let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-12);
            let got = counts[k] as f64 / n as f64;
            assert!((got - p).abs() <= 5.0 * se, "{w:?}: {got} vs {p}");
        }
    }
}
