//! One roll of 3d6: the Disaster and Standoff numbers, the Combat Results Table, and what a result
//! costs (unrest, a captive's ransom).

use super::*;

/// A Combat Results Table row: lowest and highest modified total, result, units lost (`None` = all).
type CrtRow = (i32, i32, usize, Option<u32>);

/// The Combat Results Table's row for a modified total: the result and the units each side loses
/// (`None` = all of them). Built once from `scenarios/republica-de-roma/combat-results.toml`.
pub fn crt(total: i32) -> (usize, Option<u32>) {
    static TABLE: std::sync::OnceLock<Vec<CrtRow>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        data()
            .crt
            .iter()
            .map(|row| {
                let result = match row.result.as_str() {
                    "victory" => VICTORY,
                    "stalemate" => STALEMATE,
                    _ => DEFEAT,
                };
                let loss = match &row.losses {
                    Value::Integer(n) => Some(*n as u32),
                    _ => None,
                };
                (
                    row.min_total.unwrap_or(i32::MIN),
                    row.max_total.unwrap_or(i32::MAX),
                    result,
                    loss,
                )
            })
            .collect()
    });
    let &(_, _, result, loss) = table
        .iter()
        .find(|(lo, hi, _, _)| (*lo..=*hi).contains(&total))
        .expect("the Combat Results Table covers every total");
    (result, loss)
}

/// The Disaster or Standoff result of each unmodified 3d6 total (index = total), from the
/// (disaster, standoff) lists of a war and of its leaders. A total on both lists is a Disaster when
/// `disaster_wins`, a Standoff otherwise.
pub fn special_numbers<'a>(
    lists: impl Iterator<Item = (&'a [u32], &'a [u32])>,
    disaster_wins: bool,
) -> [Option<usize>; 19] {
    let mut special = [None; 19];
    for (disaster, standoff) in lists {
        for (list, what) in [(standoff, STANDOFF), (disaster, DISASTER)] {
            for &n in list {
                let slot = &mut special[n as usize];
                *slot = match (*slot, what) {
                    (Some(DISASTER), _) if disaster_wins => Some(DISASTER),
                    (Some(STANDOFF), DISASTER) if !disaster_wins => Some(STANDOFF),
                    _ => Some(what),
                };
            }
        }
    }
    special
}

/// The result and the units lost (legions, fleets) of one battle: an unmodified 3d6 `roll` checked
/// against the Disaster and Standoff numbers not yet `used` this turn (bit = total; L663-L665),
/// then `roll + drm` on the Combat Results Table. `halves` is Some(round up) for a commander who
/// halves losses.
pub fn resolve_roll(
    special: &[Option<usize>; 19],
    roll: usize,
    drm: i32,
    legions: u32,
    fleets: u32,
    used: u32,
    halves: Option<bool>,
) -> (usize, u32, u32) {
    let special = if used & (1 << roll) != 0 {
        None
    } else {
        special[roll]
    };
    let (result, lost_l, lost_f) = match special {
        Some(DISASTER) => (DISASTER, legions.div_ceil(2), fleets.div_ceil(2)),
        Some(_) => (STANDOFF, legions.div_ceil(4), fleets.div_ceil(4)),
        None => {
            let total = roll as i32 + drm;
            match crt(total) {
                (result, None) => (result, legions, fleets),
                (result, Some(n)) => (result, n.min(legions), n.min(fleets)),
            }
        }
    };
    let halve = |n: u32| match halves {
        Some(true) => n.div_ceil(2),
        Some(false) => n / 2,
        None => n,
    };
    (result, halve(lost_l), halve(lost_f))
}

/// A captive's ransom in talents: twice his Influence, at least 10 (L791).
pub fn ransom(influence: u32) -> f64 {
    (2 * influence).max(10) as f64
}

pub fn unrest(result: usize) -> f64 {
    match result {
        DEFEAT => 2.0,
        DISASTER => 1.0,
        VICTORY => -1.0,
        _ => 0.0,
    }
}
