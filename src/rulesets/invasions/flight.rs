//! Flight (*Huida*, XIX.B, L1246-1271; digest §3.6, §8.4): the province owner's D10 + modifiers ≥ 9
//! to slip away before a battle. Q13 (which side must be twice as big) and Q14 (the minus signs the
//! extraction lost) are rule options.

use super::wording;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str = "flight before a battle: D10 + modifiers >= 9";
pub const OUTCOMES: &[&str] = &["fled", "stayed"];
use super::{ATTACKER, DEFENDER, SIDES};
const LEADER: Key = keys::int("leader", 0, 3)
    .default_int(0)
    .help("combat bonus of the fleeing stack's leader (+bonus; counts even if he stays)");
const UNITS: Key = keys::int("units", 1, 30).default_int(1);
const CAVALRY: Key = keys::int("cavalry", 0, 30).default_int(0);
const FORTIFIED_CITY: Key =
    keys::flag("fortified_city").help("the departure province has a fortified city (+3)");
const CROSSING: Key = keys::choice("crossing", &["none", "river", "mountain", "strait"])
    .default_choice("none")
    .help("what the flight must cross first (-2)");

pub const KEYS: &[Key] = &[
    LEADER.at(DEFENDER),
    UNITS.at(DEFENDER).help("units of the fleeing side"),
    CAVALRY
        .at(DEFENDER)
        .help("cavalry among them (-1 if fewer than the attacker's)"),
    UNITS.at(ATTACKER).help("units of the entering stack"),
    CAVALRY.at(ATTACKER).help("cavalry among them"),
    FORTIFIED_CITY,
    CROSSING,
];

/// P(D10 + m ≥ 9) = clamp((2 + m)/10).
pub fn p_flee(m: i32) -> f64 {
    (2 + m).clamp(0, 10) as f64 / 10.0
}

/// One D10 against modifier `m`: true when the stack gets away.
pub fn flees(m: i32, dice: &mut Dice) -> bool {
    dice.d10() as i32 + m >= 9
}

/// The flight's inputs, rule options resolved.
#[derive(Clone, Copy, Debug)]
pub struct Flight {
    pub leader: u32,
    pub units: u32,
    pub cavalry: u32,
    pub enemy_units: u32,
    pub enemy_cavalry: u32,
    pub fortified_city: bool,
    pub crossing: bool,
    /// Option flight_size_bonus = "entering-side-double".
    pub entering_double: bool,
    /// Option lost_minus_signs = "as-extracted".
    pub as_extracted: bool,
}

struct Model {
    f: Flight,
    /// `f.modifier()`, computed once.
    m: i32,
    crossing_name: &'static str,
    schema: Schema,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let side = |key: &'static str| -> Result<(u32, u32)> {
        let t = fields.table(key, &empty)?;
        let units = UNITS.int(&t)? as u32;
        let cavalry = CAVALRY.int(&t)? as u32;
        if cavalry > units {
            return Err(AleaError::input(
                fields.source,
                CAVALRY.field(&t),
                cavalry,
                format!("at most the side's {units} units"),
            ));
        }
        Ok((units, cavalry))
    };
    let (units, cavalry) = side(SIDES[1])?;
    let (enemy_units, enemy_cavalry) = side(SIDES[0])?;
    let leader = LEADER.int(&fields.table(SIDES[1], &empty)?)? as u32;
    let crossing_name = CROSSING.choice(fields)?;
    let f = Flight {
        leader,
        units,
        cavalry,
        enemy_units,
        enemy_cavalry,
        fortified_city: FORTIFIED_CITY.bool(fields)?,
        crossing: crossing_name != "none",
        entering_double: options.choice("flight_size_bonus") == "entering-side-double",
        as_extracted: options.choice("lost_minus_signs") == "as-extracted",
    };
    Ok(Box::new(Model {
        f,
        m: f.modifier(),
        crossing_name,
        schema: Schema::new(OUTCOMES),
    }))
}

impl Flight {
    /// Every modifier, named, with whether it applies (L1250-1255); no allocation, so the full
    /// game can ask for it at every battle.
    fn terms(&self) -> [(&'static str, i32, bool); 5] {
        let sign = if self.as_extracted { 1 } else { -1 };
        let double = if self.entering_double {
            self.enemy_units >= 2 * self.units
        } else {
            self.units >= 2 * self.enemy_units
        };
        [
            ("leader", self.leader as i32, self.leader > 0),
            ("fortified city", 3, self.fortified_city),
            ("twice as many units", 3, double),
            ("less cavalry", sign, self.cavalry < self.enemy_cavalry),
            ("crossing", 2 * sign, self.crossing),
        ]
    }

    /// Each modifier that applies, named.
    pub fn breakdown(&self) -> Vec<(&'static str, i32)> {
        self.terms()
            .into_iter()
            .filter(|t| t.2)
            .map(|(name, m, _)| (name, m))
            .collect()
    }

    pub fn modifier(&self) -> i32 {
        self.terms().iter().filter(|t| t.2).map(|t| t.1).sum()
    }

    pub fn p(&self) -> f64 {
        p_flee(self.modifier())
    }

    /// One attempt: true when the stack gets away.
    pub fn roll(&self, dice: &mut Dice) -> bool {
        flees(self.modifier(), dice)
    }
}

impl Simulate for Model {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        out.outcome = if flees(self.m, dice) { 0 } else { 1 };
    }
}

impl BattleModel for Model {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = self.f.p();
        ex.outcomes = vec![p, 1.0 - p];
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let f = &self.f;
        vec![
            format!(
                "{}: entering stack of {} units ({} cavalry)",
                SIDES[0], f.enemy_units, f.enemy_cavalry
            ),
            format!(
                "{}: fleeing side of {} units ({} cavalry), leader bonus {}, {}fortified departure city, crossing {}",
                SIDES[1],
                f.units,
                f.cavalry,
                f.leader,
                if f.fortified_city { "" } else { "no " },
                self.crossing_name
            ),
            format!(
                "modifier {:+} ({}): D10 + modifier >= 9",
                f.modifier(),
                wording::modifiers(&f.breakdown())
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "the +3 for size needs the {} side to have twice the other's units (option flight_size_bonus)",
            if self.f.entering_double { "entering" } else { "fleeing" }
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{assert_agrees, assert_input_error, close};

    fn flight(
        leader: u32,
        units: u32,
        cav: u32,
        eu: u32,
        ecav: u32,
        fort: bool,
        cross: bool,
    ) -> Flight {
        Flight {
            leader,
            units,
            cavalry: cav,
            enemy_units: eu,
            enemy_cavalry: ecav,
            fortified_city: fort,
            crossing: cross,
            entering_double: false,
            as_extracted: false,
        }
    }

    #[test]
    fn formula_and_modifiers() {
        close(p_flee(0), 0.2);
        close(p_flee(-2), 0.0);
        close(p_flee(8), 1.0);
        close(p_flee(3), 0.5);
        // Leader 2 + fortified 3 − less cavalry 1 − crossing 2 = +2 → 0.4.
        let f = flight(2, 3, 0, 3, 1, true, true);
        assert_eq!(f.modifier(), 2);
        close(f.p(), 0.4);
        // Q13: 6 fleeing vs 3 entering gets +3 literally; 3 fleeing vs 6 entering only with the option.
        assert_eq!(flight(0, 6, 0, 3, 0, false, false).modifier(), 3);
        let mut g = flight(0, 3, 0, 6, 0, false, false);
        assert_eq!(g.modifier(), 0);
        g.entering_double = true;
        assert_eq!(g.modifier(), 3);
        // Q14 as extracted: the minus signs become plus signs.
        let mut h = flight(0, 3, 0, 3, 1, false, true);
        assert_eq!(h.modifier(), -3);
        h.as_extracted = true;
        assert_eq!(h.modifier(), 3);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        for case in 0..24u32 {
            let mut f = flight(
                case % 4,
                1 + case % 7,
                case % 3 % (1 + case % 7),
                1 + (case * 3) % 5,
                case % 2,
                case % 3 == 0,
                case % 5 < 2,
            );
            f.entering_double = case % 6 == 5;
            f.as_extracted = case % 8 == 7;
            let m = Model {
                f,
                m: f.modifier(),
                crossing_name: if f.crossing { "river" } else { "none" },
                schema: Schema::new(OUTCOMES),
            };
            assert_agrees(&m, 20_000, 13, case as u64, &case.to_string());
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(
            build,
            "[defender]\nunits = 2\ncavalry = 3",
            "defender.cavalry",
        );
    }
}
