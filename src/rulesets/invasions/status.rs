//! Nation-status tests (digest §4.2-§4.4, §4.19; §8.4's last calculator): a Barbarian nation's
//! forced transition to Kingdom (VII, D10 + m ≤ age), a Kingdom's test for Empire (VIII,
//! D10 + m ≥ 8) and a bankrupt old Empire's collapse (XIV.K, D10 + m ≥ 9). Q15 (which Civilized
//! Areas count for the Empire test) and Q16 (how treasury tens count) are rule options.

use super::game::procedures::{
    CollapseTest, Decline, EmpireAreaBonus, EmpireTest, KingdomTest, TreasuryTens,
};
use super::wording;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str =
    "nation status tests: forced Kingdom (D10 + m <= age), Empire (D10 + m >= 8), Empire collapse (D10 + m >= 9)";
pub const OUTCOMES: &[&str] = &["passed", "failed"];
const TEST: Key = keys::choice("test", &["kingdom", "empire", "collapse"])
    .required()
    .help("\"kingdom\": a Barbarian nation of age 5+ (passed = becomes a Kingdom); \"empire\": a Kingdom controlling 3+ Areas (passed = becomes an Empire); \"collapse\": a bankrupt Empire of age 9+ (passed = it collapses)");
const EVENT: Key = keys::int("event", -5, 5)
    .default_int(0)
    .help("any other modifier");
const KINGDOM_AGE: Key = keys::int("age", 5, 7)
    .default_int(5)
    .help("kingdom: the nation's age");
const TREASURY: Key = keys::int("treasury", 0, 40)
    .default_int(0)
    .help("kingdom: gold in the treasury");
const HORDE: Key =
    keys::flag("horde_in_barbarian_area").help("kingdom: a horde in a Barbarian Area (+2)");
const CIVILIZED_AREAS: Key = keys::int("civilized_areas", 0, 20)
    .default_int(0)
    .help("empire: Civilized Areas controlled");
const BARBARIAN_AREAS: Key = keys::int("barbarian_areas", 0, 20)
    .default_int(0)
    .help("empire: Barbarian Areas controlled (each counts half)");
const LEADER_BONUS: Key = keys::int("leader_bonus", 0, 3)
    .default_int(0)
    .help("empire: the best leader's combat bonus (2+ gives +1)");
const DECLINE: Key = keys::choice("decline", &["none", "simple", "double"])
    .default_choice("none")
    .help("empire or collapse: the nation in decline (+1, +2)");
const HOLDS: Key =
    keys::flag("holds_roma_or_constantinople").help("empire: holds Roma or Constantinopolis (+3)");
const CLIENTS: Key = keys::int("clients", 0, 10)
    .default_int(0)
    .help("empire: client nations");
const COLLAPSE_AGE: Key = keys::int("age", 9, 12)
    .default_int(9)
    .help("collapse: the Empire's age");
const CALAMITIES: Key = keys::int("calamities", 0, 10)
    .default_int(0)
    .help("collapse: calamities this turn");
const CAPITAL_LOST: Key =
    keys::flag("capital_lost").help("collapse: the capital was conquered last turn (+2)");
const OTHER_AREAS: Key = keys::int("other_areas", 0, 30)
    .default_int(0)
    .help("collapse: controlled Areas other than the capital's (-1 each)");

const KINGDOM_KEYS: &[Key] = &[TEST, EVENT, KINGDOM_AGE, TREASURY, HORDE];
const EMPIRE_KEYS: &[Key] = &[
    TEST,
    EVENT,
    CIVILIZED_AREAS,
    BARBARIAN_AREAS,
    LEADER_BONUS,
    DECLINE,
    HOLDS,
    CLIENTS,
];
const COLLAPSE_KEYS: &[Key] = &[
    TEST,
    EVENT,
    COLLAPSE_AGE,
    DECLINE,
    CALAMITIES,
    CAPITAL_LOST,
    OTHER_AREAS,
];

/// Every test's keys; `age` is declared once per test that has one, with that test's range.
pub const KEYS: &[Key] = &[
    TEST,
    EVENT,
    KINGDOM_AGE,
    TREASURY,
    HORDE,
    CIVILIZED_AREAS,
    BARBARIAN_AREAS,
    LEADER_BONUS,
    HOLDS,
    CLIENTS,
    COLLAPSE_AGE,
    DECLINE,
    CALAMITIES,
    CAPITAL_LOST,
    OTHER_AREAS,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    Kingdom,
    Empire,
    Collapse,
}

/// One test with its modifier terms resolved.
#[derive(Clone, Debug)]
pub struct StatusTest {
    pub test: Test,
    /// Kingdom: the nation's age (success when D10 + m ≤ age).
    pub age: i32,
    /// Named modifier terms.
    pub terms: Vec<(&'static str, i32)>,
    schema: Schema,
}

impl StatusTest {
    pub fn modifier(&self) -> i32 {
        self.terms.iter().map(|t| t.1).sum()
    }

    /// Faces of the D10 (1..=10) that pass.
    fn passes(&self, d10: i32) -> bool {
        let total = d10 + self.modifier();
        match self.test {
            Test::Kingdom => total <= self.age,
            Test::Empire => total >= 8,
            Test::Collapse => total >= 9,
        }
    }

    /// §4.19: (age − m)/10, (3 + m)/10, (2 + m)/10, each clamped.
    pub fn p_pass(&self) -> f64 {
        (1..=10).filter(|&d| self.passes(d)).count() as f64 / 10.0
    }
}

fn decline(fields: &Fields) -> Result<Decline> {
    Ok(match DECLINE.choice(fields)? {
        "simple" => Decline::Simple,
        "double" => Decline::Double,
        _ => Decline::None,
    })
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let test = match TEST.opt_choice(fields)? {
        Some("kingdom") => Test::Kingdom,
        Some("empire") => Test::Empire,
        Some(_) => Test::Collapse,
        None => return Err(TEST.missing(fields)),
    };
    // The rules live in the game's procedures; the calculator only reads their inputs.
    let mut terms: Vec<(&'static str, i32)> = Vec::new();
    let mut age = 0;
    match test {
        Test::Kingdom => {
            keys::only(fields, KINGDOM_KEYS, "to a kingdom test")?;
            age = KINGDOM_AGE.int(fields)? as i32;
            let kingdom = KingdomTest {
                age: age as u8,
                treasury: TREASURY.int(fields)? as u8,
                horde_in_barbarian_area: HORDE.bool(fields)?,
                tens: TreasuryTens::from_options(&options),
            };
            terms.extend(kingdom.terms());
        }
        Test::Empire => {
            keys::only(fields, EMPIRE_KEYS, "to an empire test")?;
            let empire = EmpireTest {
                civilized_areas: CIVILIZED_AREAS.int(fields)? as u8,
                barbarian_areas: BARBARIAN_AREAS.int(fields)? as u8,
                leader_combat: LEADER_BONUS.int(fields)? as u8,
                decline: decline(fields)?,
                holds_roma_or_constantinopolis: HOLDS.bool(fields)?,
                clients: CLIENTS.int(fields)? as u8,
                area_bonus: EmpireAreaBonus::from_options(&options),
            };
            if !empire.required() {
                return Err(AleaError::input(
                    fields.source,
                    "civilized_areas",
                    empire.civilized_areas,
                    format!(
                        "at least 3 Areas in all for the test (Barbarian Areas count 1/2; {} given)",
                        empire.barbarian_areas
                    ),
                ));
            }
            terms.extend(empire.terms());
        }
        Test::Collapse => {
            keys::only(fields, COLLAPSE_KEYS, "to a collapse test")?;
            age = COLLAPSE_AGE.int(fields)? as i32;
            let collapse = CollapseTest {
                age: age as u8,
                decline: decline(fields)?,
                calamities: CALAMITIES.int(fields)? as u8,
                capital_lost_last_turn: CAPITAL_LOST.bool(fields)?,
                other_areas: OTHER_AREAS.int(fields)? as u8,
            };
            terms.extend(collapse.terms());
        }
    }
    terms.push(("event", EVENT.int(fields)? as i32));
    terms.retain(|t| t.1 != 0);
    Ok(Box::new(StatusTest {
        test,
        age,
        terms,
        schema: Schema::new(OUTCOMES),
    }))
}

impl Simulate for StatusTest {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        out.outcome = if self.passes(dice.d10() as i32) { 0 } else { 1 };
    }
}

impl BattleModel for StatusTest {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = self.p_pass();
        ex.outcomes = vec![p, 1.0 - p];
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let (what, rule) = match self.test {
            Test::Kingdom => (
                "forced transition to Kingdom",
                format!("D10 + m <= age {}", self.age),
            ),
            Test::Empire => ("test for Empire", "D10 + m >= 8".to_string()),
            Test::Collapse => ("Empire collapse", "D10 + m >= 9".to_string()),
        };
        vec![format!(
            "{what}: {rule}, m = {:+} ({})",
            self.modifier(),
            wording::modifiers(&self.terms)
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_agrees, assert_input_error, model};
    use super::*;

    fn p(text: &str) -> f64 {
        model(text, build).unwrap().exact().unwrap().outcomes[0]
    }

    #[test]
    fn t24_formula_checks() {
        // Kingdom: age 5, treasury 12 (−1), horde in a Barbarian Area (+2): m = +1 → D10 ≤ 4.
        let k = "test = \"kingdom\"\nage = 5\ntreasury = 12\nhorde_in_barbarian_area = true\n";
        assert!((p(k) - 0.4).abs() < 1e-12);
        // Q16's round-up reading: 12 gold counts −2, m = 0 → 0.5.
        assert!(
            (p(&format!(
                "{k}[options]\nkingdom_treasury_tens = \"rounded-up\"\n"
            )) - 0.5)
                .abs()
                < 1e-12
        );
        // Empire: 3 Civilized Areas (+2), leader combat 2 (+1), Roma (+3): m = 6 → 0.9; the
        // summary's "beyond the first three" reading: m = 4 → 0.7.
        let e = "test = \"empire\"\ncivilized_areas = 3\nleader_bonus = 2\nholds_roma_or_constantinople = true\n";
        assert!((p(e) - 0.9).abs() < 1e-12);
        assert!(
            (p(&format!(
                "{e}[options]\nempire_area_bonus = \"beyond-three\"\n"
            )) - 0.7)
                .abs()
                < 1e-12
        );
        // Collapse: age 11 (+2), double Decline (+2), 1 calamity (+1), 2 other Areas (−2): m = 3 → 0.5.
        let c = "test = \"collapse\"\nage = 11\ndecline = \"double\"\ncalamities = 1\nother_areas = 2\n";
        assert!((p(c) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn section_4_19_formulas_hold_across_modifiers() {
        for event in -5..=5 {
            for age in 5..=7 {
                let want = ((age - event) as f64 / 10.0).clamp(0.0, 1.0);
                let got = p(&format!(
                    "test = \"kingdom\"\nage = {age}\nevent = {event}\n"
                ));
                assert!((got - want).abs() < 1e-12, "kingdom age {age} m {event}");
            }
            // 2 Civilized Areas (no bonus yet) and 2 Barbarian ones (+2): m = 2 + event.
            let want = ((3 + 2 + event) as f64 / 10.0).clamp(0.0, 1.0);
            let got = p(&format!(
                "test = \"empire\"\ncivilized_areas = 2\nbarbarian_areas = 2\nevent = {event}\n"
            ));
            assert!((got - want).abs() < 1e-12, "empire m {event}");
            let want = ((2 + event) as f64 / 10.0).clamp(0.0, 1.0);
            let got = p(&format!("test = \"collapse\"\nevent = {event}\n"));
            assert!((got - want).abs() < 1e-12, "collapse m {event}");
        }
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let cases = [
            "test = \"kingdom\"\nage = 6\ntreasury = 25\n",
            "test = \"empire\"\ncivilized_areas = 4\ndecline = \"simple\"\n",
            "test = \"collapse\"\nage = 12\ncapital_lost = true\nother_areas = 3\n",
            "test = \"empire\"\ncivilized_areas = 1\nbarbarian_areas = 4\nclients = 1\n",
        ];
        for (i, text) in cases.iter().enumerate() {
            assert_agrees(
                model(text, build).unwrap().as_ref(),
                50_000,
                5,
                i as u64,
                text,
            );
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(build, "test = \"kingdom\"\nage = 3\n", "age");
        assert_input_error(
            build,
            "test = \"empire\"\ncivilized_areas = 2\n",
            "civilized_areas",
        );
        assert_input_error(build, "age = 9\n", "test");
    }
}
