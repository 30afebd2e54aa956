//! Espionage (rules §20, digest §4.11) and assassination (rules §38, digest §3.9): the single
//! rolls of digest §8.6, exact by enumeration of the 2D6, written once here for the full game
//! and its tests.

use super::army::Culture;

/// DEN a month to spy on one nation (one a month, L3738-L3742).
pub const SPY_COST: i64 = 300;
/// DEN a month for counter-espionage, and what it does to a spy's roll.
pub const COUNTER_ESPIONAGE_COST: i64 = 50;
pub const COUNTER_ESPIONAGE: i32 = -3;

/// What is asked of a spy: specific information -3, general (how many in the country) 0,
/// generic (where is such a thing) +3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Information {
    Specific,
    General,
    Generic,
}

/// The modifier of a spy's 2D6: +2 on a barbarian country, +1 on a B/C one, -1 for a barbarian
/// spying on a civilized one, the kind of information, and counter-espionage.
pub fn spy_modifier(spy: Culture, target: Culture, info: Information, counter: bool) -> i32 {
    let target_mod = match target {
        Culture::Barbarian => 2,
        Culture::Mixed => 1,
        Culture::Civilized => 0,
    };
    let barbarian_on_civilized =
        -((spy == Culture::Barbarian && target == Culture::Civilized) as i32);
    let info_mod = match info {
        Information::Specific => -3,
        Information::General => 0,
        Information::Generic => 3,
    };
    target_mod + barbarian_on_civilized + info_mod + if counter { COUNTER_ESPIONAGE } else { 0 }
}

/// Share of the information that is wrong in each band: a modified 2D6 of 2 or less, 3-4, 5-6,
/// 7-8, 9, 10 or more.
pub const WRONG_SHARE: [f64; 6] = [1.0, 0.75, 0.5, 0.25, 0.1, 0.0];

/// The band of a modified 2D6 total (index into [`WRONG_SHARE`]).
pub fn band(total: i32) -> usize {
    match total {
        i32::MIN..=2 => 0,
        3..=4 => 1,
        5..=6 => 2,
        7..=8 => 3,
        9 => 4,
        _ => 5,
    }
}

/// P(each band) for a spy's modifier `m`, by enumeration of the 36 faces of 2D6.
pub fn band_distribution(m: i32) -> [f64; 6] {
    let mut p = [0.0; 6];
    for a in 1..=6 {
        for b in 1..=6 {
            p[band(a + b + m)] += 1.0 / 36.0;
        }
    }
    p
}

/// Months before a report arrives, from the months of travel between spy and target (light
/// cavalry by land, galleys by sea): none within one month's travel, else the whole trip (only
/// the outward one counts, L3742; T11: 5 months by ship -> 5 months).
pub fn report_delay(travel_months: u32) -> u32 {
    if travel_months <= 1 {
        0
    } else {
        travel_months
    }
}

/// The assassination roll's modifier: +1 per full 500 DEN spent, -3 in a military camp, +1 in a
/// city, -1 per full 1,000 guard men with the victim, +3 in a city the aggressor controls.
pub fn assassination_modifier(
    den: i64,
    camp: bool,
    city: bool,
    guard_men: f64,
    aggressor_city: bool,
) -> i32 {
    (den.max(0) / 500) as i32 - 3 * camp as i32 + city as i32 - (guard_men.max(0.0) / 1000.0) as i32
        + 3 * aggressor_city as i32
}

/// Whether a natural 2D6 of `natural` kills with modifier `m`: 13 or more, and never on a
/// natural 4 or less.
pub fn assassination_succeeds(natural: i32, m: i32) -> bool {
    natural > 4 && natural + m >= 13
}

/// P(the victim dies) for modifier `m`, by enumeration of the 2D6.
pub fn assassination_chance(m: i32) -> f64 {
    let mut hits = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            hits += assassination_succeeds(a + b, m) as u32;
        }
    }
    hits as f64 / 36.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digest §4.11's bands and modifiers, counted by hand.
    #[test]
    fn espionage_bands_by_hand() {
        // m = 0: P(<=2) = 1/36, P(3-4) = 5/36, P(5-6) = 9/36, P(7-8) = 11/36, P(9) = 4/36,
        // P(>=10) = 6/36.
        let p = band_distribution(0);
        let want = [1.0, 5.0, 9.0, 11.0, 4.0, 6.0].map(|x| x / 36.0);
        for k in 0..6 {
            assert!((p[k] - want[k]).abs() < 1e-12, "{k}: {p:?}");
        }
        // m = +8 (generic on a barbarian country, +3 +2, and more): always exact.
        assert!((band_distribution(8)[5] - 1.0).abs() < 1e-12);
        // m = -10: always 100% wrong.
        assert!((band_distribution(-10)[0] - 1.0).abs() < 1e-12);
        use Culture::*;
        assert_eq!(
            spy_modifier(Civilized, Barbarian, Information::General, false),
            2
        );
        assert_eq!(
            spy_modifier(Civilized, Mixed, Information::Generic, false),
            4
        );
        assert_eq!(
            spy_modifier(Barbarian, Civilized, Information::Specific, true),
            -7
        );
        assert_eq!(
            spy_modifier(Civilized, Civilized, Information::General, true),
            -3
        );
    }

    /// T11 (L3742): Alexandria to Dublin, 5 months by ship: the report comes 5 months later; within
    /// one month's travel at once.
    #[test]
    fn t11_spying_delay() {
        assert_eq!(report_delay(5), 5);
        assert_eq!(report_delay(1), 0);
        assert_eq!(report_delay(0), 0);
        assert_eq!(report_delay(2), 2);
    }

    /// Digest §3.9: 2D6 + m >= 13, a natural 4 or less fails.
    #[test]
    fn assassination_by_hand() {
        // m = 0: only 13+ on 2D6: never.
        assert_eq!(assassination_chance(0), 0.0);
        // m = 1: 12 -> 1/36.
        assert!((assassination_chance(1) - 1.0 / 36.0).abs() < 1e-12);
        // m = 8: natural >= 5: 1 - 6/36.
        assert!((assassination_chance(8) - 30.0 / 36.0).abs() < 1e-12);
        // m = 20: still the natural 2-4 fail.
        assert!((assassination_chance(20) - 30.0 / 36.0).abs() < 1e-12);
        assert_eq!(assassination_modifier(1499, false, true, 0.0, false), 3);
        assert_eq!(assassination_modifier(500, true, false, 2500.0, false), -4);
        assert_eq!(assassination_modifier(0, false, true, 0.0, true), 4);
    }
}
