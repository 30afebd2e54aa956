//! Revolt suppression (XVI.F, L1024-1036; digest §3.11, §8.4): D10 + modifiers ≥ 9 with the leader's
//! rerolls. On a failure the nation loses one unit present and, if that was its only unit there, the
//! leader dies on a failed D2 (Q31: the unit is lost, then the leader is tested). Q14's lost minus
//! signs are the option `lost_minus_signs`.

use super::wording;
use super::SIDES;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str =
    "revolt suppression: D10 + modifiers >= 9 with leader rerolls; a failure costs a unit";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
const UNITS: Key = keys::int("units", 0, 30)
    .default_int(0)
    .help("units of the nation in the rebel province (+1 each)");
const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader")
    .help("combat bonus of a leader present (= rerolls)");
const HERETICAL: Key = keys::flag("heretical").help(
    "the Area is heretical, or the capital's Area is and the province shares its religion without being heretical (-1)",
);
const RELIGION_DIFFERS: Key =
    keys::flag("religion_differs").help("the nation's religion differs from the Area's (-1)");

pub const KEYS: &[Key] = &[UNITS, LEADER, HERETICAL, RELIGION_DIFFERS];

/// P(one D10 + m ≥ 9) = clamp((2 + m)/10).
pub fn single_roll(m: i32) -> f64 {
    (2 + m).clamp(0, 10) as f64 / 10.0
}

/// P(suppressed) with `rerolls`: 1 − (1 − p)^(1 + rerolls).
pub fn p_suppress(m: i32, rerolls: u32) -> f64 {
    1.0 - (1.0 - single_roll(m)).powi(1 + rerolls as i32)
}

#[derive(Clone, Copy, Debug)]
pub struct Revolt {
    pub units: u32,
    pub leader: Option<u32>,
    pub heretical: bool,
    pub religion_differs: bool,
    /// Option lost_minus_signs = "as-extracted".
    pub as_extracted: bool,
}

struct Model {
    r: Revolt,
    schema: Schema,
}

impl Model {
    fn new(r: Revolt) -> Model {
        let mut schema = Schema::new(OUTCOMES);
        schema.count("units_lost", r.units.min(1) as usize);
        schema.scalar("leader_killed");
        Model { r, schema }
    }
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let r = Revolt {
        units: UNITS.int(fields)? as u32,
        leader: LEADER.opt_int(fields)?.map(|l| l as u32),
        heretical: HERETICAL.bool(fields)?,
        religion_differs: RELIGION_DIFFERS.bool(fields)?,
        as_extracted: options.choice("lost_minus_signs") == "as-extracted",
    };
    Ok(Box::new(Model::new(r)))
}

impl Revolt {
    pub fn modifier(&self) -> i32 {
        let sign = if self.as_extracted { 1 } else { -1 };
        self.units as i32 + sign * (self.heretical as i32 + self.religion_differs as i32)
    }

    fn rerolls(&self) -> u32 {
        self.leader.unwrap_or(0)
    }

    pub fn p(&self) -> f64 {
        p_suppress(self.modifier(), self.rerolls())
    }

    /// One suppression attempt: the D10 and the leader's rerolls; true when it succeeds.
    pub fn roll(&self, dice: &mut Dice) -> bool {
        let m = self.modifier();
        (0..=self.rerolls()).any(|_| dice.d10() as i32 + m >= 9)
    }

    /// P(leader killed): a failure with a single unit present, then a failed D2.
    pub fn p_leader_killed(&self) -> f64 {
        if self.leader.is_some() && self.units == 1 {
            0.5 * (1.0 - self.p())
        } else {
            0.0
        }
    }
}

impl Simulate for Model {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let r = &self.r;
        if r.roll(dice) {
            out.outcome = 0;
            return;
        }
        out.outcome = 1;
        out.counts[0] = r.units.min(1);
        if r.leader.is_some() && r.units == 1 && dice.d10() % 2 == 1 {
            out.scalars[0] = 1.0;
        }
    }
}

impl BattleModel for Model {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = self.r.p();
        ex.outcomes = vec![p, 1.0 - p];
        ex.counts[0] = if self.r.units > 0 {
            Pmf(vec![p, 1.0 - p])
        } else {
            Pmf::point(0)
        };
        ex.scalars[0] = self.r.p_leader_killed();
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let r = &self.r;
        let sign = if r.as_extracted { "+" } else { "-" };
        vec![
            format!(
                "{}: {} unit{} present (+{}), {}",
                SIDES[0],
                r.units,
                if r.units == 1 { "" } else { "s" },
                r.units,
                wording::leader_with_rerolls(r.leader)
            ),
            format!(
                "{}: the revolt; {}heretical Area{}, {}religion differs{}; modifier {:+}, need D10 >= {}",
                SIDES[1],
                if r.heretical { "" } else { "not " },
                if r.heretical { format!(" ({sign}1)") } else { String::new() },
                if r.religion_differs { "" } else { "no " },
                if r.religion_differs { format!(" ({sign}1)") } else { String::new() },
                r.modifier(),
                (9 - r.modifier()).max(1)
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        let mut v = vec![format!(
            "{} = revolt suppressed; {} = the revolt continues and one unit present is lost",
            SIDES[0], SIDES[1]
        )];
        if self.r.leader.is_some() && self.r.units == 1 {
            v.push("a single unit present: after a failure the unit is lost and the leader dies on a failed D2 (Q31)".to_string());
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{assert_agrees, assert_input_error, close};

    fn revolt(units: u32, leader: Option<u32>, h: bool, d: bool) -> Revolt {
        Revolt {
            units,
            leader,
            heretical: h,
            religion_differs: d,
            as_extracted: false,
        }
    }

    #[test]
    fn formulas() {
        // 1 − (1 − (2 + m)/10)^(1 + r) at a few points.
        close(p_suppress(0, 0), 0.2);
        close(p_suppress(2, 1), 1.0 - 0.6 * 0.6);
        close(p_suppress(-2, 3), 0.0);
        close(p_suppress(8, 0), 1.0);
        // 3 units, heretical, other religion: m = 3 − 1 − 1 = 1; leader 2 → 1 − 0.7³.
        let r = revolt(3, Some(2), true, true);
        assert_eq!(r.modifier(), 1);
        close(r.p(), 1.0 - 0.7f64.powi(3));
        // Q14 as extracted: +1 each.
        let mut r = r;
        r.as_extracted = true;
        assert_eq!(r.modifier(), 5);
        // One unit and a leader of bonus 1: P(killed) = ½ · (1 − p), p = 1 − 0.7².
        let r = revolt(1, Some(1), false, false);
        close(r.p_leader_killed(), 0.5 * 0.49);
        assert_eq!(revolt(2, Some(1), false, false).p_leader_killed(), 0.0);
        assert_eq!(revolt(1, None, false, false).p_leader_killed(), 0.0);
        let ex = Model::new(revolt(2, None, true, false)).exact().unwrap();
        close(ex.counts[0].mean(), 1.0 - single_roll(1));
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        for case in 0..24u32 {
            let mut r = revolt(
                case % 5,
                if case % 4 == 3 { None } else { Some(case % 4) },
                case % 2 == 0,
                case % 3 == 0,
            );
            r.as_extracted = case % 7 == 6;
            assert_agrees(&Model::new(r), 20_000, 14, case as u64, &case.to_string());
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(build, "units = -1", "`units`");
    }
}
