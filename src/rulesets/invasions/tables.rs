//! The advanced system's tables (XXI.C fire table, XXI.F combat table; digest §3.2.1, §3.2.4).

/// Hits in half-hit units (value 3 = 1½), rows = modified 2D6 ≤2, 3, …, 11, ≥12; columns = 1..7+
/// units in the rolling stack (L1849-1863).
const COMBAT_HALVES: [[u8; 7]; 11] = [
    [0, 0, 0, 1, 1, 2, 2],
    [0, 0, 1, 1, 2, 3, 3],
    [0, 1, 1, 2, 3, 3, 4],
    [0, 1, 2, 2, 3, 4, 4],
    [0, 2, 2, 3, 4, 4, 5],
    [2, 2, 3, 3, 4, 5, 5],
    [2, 2, 3, 4, 5, 5, 6],
    [2, 3, 4, 4, 5, 6, 7],
    [2, 3, 4, 5, 6, 7, 8],
    [2, 3, 5, 5, 6, 7, 8],
    [2, 4, 5, 6, 7, 8, 9],
];

/// How a half hit is settled (L1863, L1983: up in plain, desert or steppe, dropped elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfHit {
    RoundUp,
    Drop,
}

impl HalfHit {
    pub fn for_terrain(open_terrain: bool) -> HalfHit {
        if open_terrain {
            HalfHit::RoundUp
        } else {
            HalfHit::Drop
        }
    }
}

/// Hits inflicted by a side whose modified 2D6 is `roll` with `units` units in its stack.
pub fn combat_hits(roll: i32, units: u32, half: HalfHit) -> u32 {
    if units == 0 {
        return 0;
    }
    let row = (roll.clamp(2, 12) - 2) as usize;
    let col = (units.min(7) - 1) as usize;
    let halves = COMBAT_HALVES[row][col] as u32;
    match half {
        HalfHit::RoundUp => halves.div_ceil(2),
        HalfHit::Drop => halves / 2,
    }
}

/// Largest number of hits the combat table can give a stack of `units` units.
pub fn max_combat_hits(units: u32) -> u32 {
    combat_hits(12, units, HalfHit::RoundUp)
}

/// Hits of the fire table for a modified 2D6 already rounded up (XXI.C, L1795-1799).
pub fn fire_hits(roll: i32, open_terrain: bool) -> u32 {
    match roll {
        i32::MIN..=7 => 0,
        8 => u32::from(open_terrain),
        9..=11 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::faces::two_d6;

    #[test]
    fn t10_combat_table_lookups() {
        use HalfHit::*;
        assert_eq!(combat_hits(13, 7, RoundUp), 5);
        assert_eq!(combat_hits(13, 9, Drop), 4);
        assert_eq!(combat_hits(6, 7, Drop), 2);
        assert_eq!(combat_hits(8, 3, RoundUp), 2);
        assert_eq!(combat_hits(8, 3, Drop), 1);
        assert_eq!(combat_hits(9, 4, RoundUp), 2);
        assert_eq!(combat_hits(11, 4, Drop), 2);
        assert_eq!(combat_hits(1, 1, RoundUp), 0);
        assert_eq!(combat_hits(7, 1, Drop), 1);
    }

    fn distribution(modifier: i32, units: u32, half: HalfHit) -> Vec<f64> {
        let mut p = vec![0.0; 6];
        for s in 2..=12 {
            p[combat_hits(s + modifier, units, half) as usize] += two_d6(s);
        }
        p
    }

    #[test]
    fn t10_exact_per_roll_distributions() {
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        let d = distribution(2, 7, HalfHit::RoundUp);
        assert!(close(
            &d,
            &[0.0, 0.0, 1.0 / 12.0, 1.0 / 3.0, 5.0 / 12.0, 1.0 / 6.0]
        ));
        let d = distribution(2, 6, HalfHit::RoundUp);
        assert!(close(
            &d,
            &[0.0, 0.0, 1.0 / 6.0, 5.0 / 12.0, 5.0 / 12.0, 0.0]
        ));
        let d = distribution(-1, 7, HalfHit::Drop);
        assert!(close(
            &d,
            &[0.0, 1.0 / 6.0, 5.0 / 9.0, 7.0 / 36.0, 1.0 / 12.0, 0.0]
        ));
        let d = distribution(0, 2, HalfHit::Drop);
        assert!(close(
            &d,
            &[5.0 / 18.0, 25.0 / 36.0, 1.0 / 36.0, 0.0, 0.0, 0.0]
        ));
        let d = distribution(0, 1, HalfHit::RoundUp);
        assert!(close(&d, &[5.0 / 12.0, 7.0 / 12.0, 0.0, 0.0, 0.0, 0.0]));
    }

    #[test]
    fn fire_table_matches_the_digest_distributions() {
        let dist = |m: i32, open: bool| {
            let mut p = [0.0; 3];
            for s in 2..=12 {
                p[fire_hits(s + m, open) as usize] += two_d6(s);
            }
            p
        };
        let close = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        assert!(close(dist(1, true), [5.0 / 12.0, 1.0 / 2.0, 1.0 / 12.0]));
        assert!(close(dist(2, true), [5.0 / 18.0, 5.0 / 9.0, 1.0 / 6.0]));
        assert!(close(dist(3, true), [1.0 / 6.0, 5.0 / 9.0, 5.0 / 18.0]));
        assert!(close(dist(5, true), [1.0 / 36.0, 7.0 / 18.0, 7.0 / 12.0]));
        assert!(close(dist(1, false), [7.0 / 12.0, 1.0 / 3.0, 1.0 / 12.0]));
    }
}
