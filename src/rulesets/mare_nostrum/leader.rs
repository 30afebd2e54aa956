//! Leaders in battle: the best modifier, ageing and the after-battle age check (L740-L767, digest §4).

use crate::battle::keys::{self, Key};
use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leader {
    /// +0..+3, added to field-battle rolls.
    pub modifier: u32,
    pub age: u32,
    /// Named leaders from history cards check one fraction gentler (L767).
    pub historical: bool,
}

/// How the battle went for the leader's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderFate {
    Won,
    Lost,
    NoWinner,
}

/// The readings of the age check in force (A24, A25), resolved once so hot loops read plain fields.
#[derive(Clone, Copy, Debug)]
pub struct AgeCheck {
    strictly_below: bool,
    after_ageing: bool,
}

impl AgeCheck {
    pub fn new(options: &Options) -> AgeCheck {
        AgeCheck {
            strictly_below: options.choice("age_check_roll") == "strictly-below",
            after_ageing: options.choice("age_check_timing") == "after-ageing",
        }
    }

    /// Whether a d100 `roll` removes a leader whose threshold is `threshold`.
    #[inline]
    pub fn removes(&self, roll: u32, threshold: u32) -> bool {
        if self.strictly_below {
            roll < threshold
        } else {
            roll <= threshold
        }
    }
}

/// The digest's assumed age when a battle file gives none (the mean starting age is 30.4).
pub const DEFAULT_AGE: u32 = 30;

pub const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader: then nobody can win")
    .help("the best leader's modifier");
pub const LEADER_AGE: Key = keys::int("leader_age", 20, 120)
    .default_int(DEFAULT_AGE as i64)
    .help("that leader's age, for the age check");
pub const LEADER_HISTORICAL: Key =
    keys::flag("leader_historical").help("true for a named historical leader (gentler age check)");

impl Leader {
    /// Reads `leader`, `leader_age`, `leader_historical`; `None` when the side has no leader.
    pub fn parse(side: &Fields) -> Result<Option<Leader>> {
        if ![LEADER, LEADER_AGE, LEADER_HISTORICAL]
            .iter()
            .any(|k| k.has(side))
        {
            return Ok(None);
        }
        Ok(Some(Leader {
            modifier: LEADER.opt_int(side)?.unwrap_or(0) as u32,
            age: LEADER_AGE.int(side)? as u32,
            historical: LEADER_HISTORICAL.bool(side)?,
        }))
    }

    /// The age the check uses: +1 for the battle, +2 more for a lost one (A25: after, by default).
    pub fn checked_age(&self, fate: LeaderFate, check: &AgeCheck) -> u32 {
        if !check.after_ageing {
            return self.age;
        }
        self.age + 1 + if fate == LeaderFate::Lost { 2 } else { 0 }
    }

    /// `floor(age × fraction)`: d100 below it (A24) removes the leader.
    pub fn threshold(&self, fate: LeaderFate, check: &AgeCheck) -> u32 {
        let den = match fate {
            LeaderFate::Won => 5,
            LeaderFate::Lost => 3,
            LeaderFate::NoWinner => 4,
        } + self.historical as u32;
        self.checked_age(fate, check) / den
    }

    /// P(the leader leaves play) after a battle that went `fate` for his side.
    pub fn removal_probability(&self, fate: LeaderFate, check: &AgeCheck) -> f64 {
        let t = self.threshold(fate, check);
        (1..=100).filter(|&roll| check.removes(roll, t)).count() as f64 / 100.0
    }

    /// Rolls the after-battle age check.
    pub fn roll_removal(&self, fate: LeaderFate, check: &AgeCheck, dice: &mut Dice) -> bool {
        check.removes(dice.d(100), self.threshold(fate, check))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leader(age: u32, historical: bool) -> Leader {
        Leader {
            modifier: 0,
            age,
            historical,
        }
    }

    #[test]
    fn digest_d13_age_checks() {
        // A leader aged 35 before a battle: won → 36, floor(36/5) = 7 → 6%; lost → 38, 12 → 11%;
        // no winner → 36, 9 → 8%.
        let o = AgeCheck::new(&Options::defaults(super::super::OPTIONS));
        let l = leader(35, false);
        assert!((l.removal_probability(LeaderFate::Won, &o) - 0.06).abs() < 1e-12);
        assert!((l.removal_probability(LeaderFate::Lost, &o) - 0.11).abs() < 1e-12);
        assert!((l.removal_probability(LeaderFate::NoWinner, &o) - 0.08).abs() < 1e-12);
    }

    #[test]
    fn historical_leaders_check_one_grade_gentler() {
        let o = AgeCheck::new(&Options::defaults(super::super::OPTIONS));
        // age 49 → 50 after a win: normal floor(50/5) = 10 → 9%; historical floor(50/6) = 8 → 7%.
        assert!((leader(49, false).removal_probability(LeaderFate::Won, &o) - 0.09).abs() < 1e-12);
        assert!((leader(49, true).removal_probability(LeaderFate::Won, &o) - 0.07).abs() < 1e-12);
    }

    #[test]
    fn readings_change_the_check() {
        let mut t = toml::Table::new();
        t.insert("age_check_roll".into(), "at-or-below".into());
        t.insert("age_check_timing".into(), "before-ageing".into());
        let o = AgeCheck::new(
            &Options::resolve(super::super::OPTIONS, crate::spec::Fields::new("t", &t)).unwrap(),
        );
        // age 35, lost, before ageing: floor(35/3) = 11, at or below → 11%.
        assert!((leader(35, false).removal_probability(LeaderFate::Lost, &o) - 0.11).abs() < 1e-12);
        assert!((leader(35, false).removal_probability(LeaderFate::Won, &o) - 0.07).abs() < 1e-12);
    }
}
