//! Raids (*Incursiones*, XI, L647-706; digest §3.10, §8.4): one D10 + modifiers read on a table.
//!
//! ≤ 4 failure (a raiding unit is lost for good), 5-6 Incursion − (+1 gold, +1 VP), 7-10 Incursion +
//! (one pillage marker, +3 VP), 11-12 as 7-10 and the raiders may settle. The pillage marker's gold
//! comes from the assumed pool of `scenarios/invasions/pillage-markers.toml` (see `pillage_markers.rs`).

use super::pillage_markers::pillage_markers;
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
    "raid on an empty city site: D10 + modifiers on the raid table (VP, gold, losses)";
pub const OUTCOMES: &[&str] = &["failure", "incursion_minus", "incursion_plus", "settle"];
const TARGET_UNITS: Key = keys::int("target_units", 0, 30)
    .default_int(0)
    .help("Civilized units in the target province (-1 each)");
const CROSSED_UNITS: Key = keys::int("crossed_units", 0, 30)
    .default_int(0)
    .help("Civilized units (fleets included) in the province or sea zone crossed by a deep raid (-1 each)");
const PREVIOUS: Key = keys::choice("previous", &["none", "minus", "plus"])
    .default_choice("none")
    .help("the marker the previous raid left on the target: minus (+1) or plus (+2)");
const UNITS: Key = keys::int("units", 1, 2)
    .default_int(2)
    .help("raiding units; a failure loses one of them");

pub const KEYS: &[Key] = &[TARGET_UNITS, CROSSED_UNITS, PREVIOUS, UNITS];

/// Outcome index of a modified result (L686-689).
pub fn band(result: i32) -> usize {
    match result {
        i32::MIN..=4 => 0,
        5..=6 => 1,
        7..=10 => 2,
        _ => 3,
    }
}

/// P(failure, Incursion −, Incursion +, settle) for total modifier `m`.
pub fn bands(m: i32) -> [f64; 4] {
    let mut p = [0.0; 4];
    for d in 1..=10 {
        p[band(d + m)] += 0.1;
    }
    p
}

pub struct Raid {
    pub target_units: u32,
    pub crossed_units: u32,
    /// 0 none, 1 minus, 2 plus.
    pub previous: u32,
    pub units: u32,
    schema: Schema,
}

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    let target_units = TARGET_UNITS.int(fields)? as u32;
    let crossed_units = CROSSED_UNITS.int(fields)? as u32;
    let previous = match PREVIOUS.choice(fields)? {
        "minus" => 1,
        "plus" => 2,
        _ => 0,
    };
    let units = UNITS.int(fields)? as u32;
    Ok(Box::new(Raid::new(
        target_units,
        crossed_units,
        previous,
        units,
    )))
}

impl Raid {
    pub fn new(target_units: u32, crossed_units: u32, previous: u32, units: u32) -> Raid {
        let mut schema = Schema::new(OUTCOMES);
        schema.count("units_lost", 1);
        schema.count("gold", pillage_markers().max_gold().max(1) as usize);
        schema.scalar_bounded("vp", 3.0);
        Raid {
            target_units,
            crossed_units,
            previous,
            units,
            schema,
        }
    }

    pub fn modifier(&self) -> i32 {
        self.previous as i32 - self.target_units as i32 - self.crossed_units as i32
    }

    /// Gold of one marker drawn from the full pool.
    fn marker_gold() -> Pmf {
        let mut pmf = Pmf::zeros(1);
        for (p, gold, _) in pillage_markers().draws(1) {
            pmf.add_mass(gold as usize, p);
        }
        pmf
    }
}

const VP: [f64; 4] = [0.0, 1.0, 3.0, 3.0];

impl Simulate for Raid {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let b = band(dice.d10() as i32 + self.modifier());
        out.outcome = b;
        out.scalars[0] = VP[b];
        match b {
            0 => out.counts[0] = 1,
            1 => out.counts[1] = 1,
            _ => out.counts[1] = pillage_markers().draw_gold(dice),
        }
    }
}

impl BattleModel for Raid {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = bands(self.modifier());
        ex.outcomes = p.to_vec();
        ex.counts[0] = Pmf(vec![1.0 - p[0], p[0]]);
        let mut gold = Pmf::zeros(self.schema.counts[1].max + 1);
        gold.add_mass(0, p[0]);
        gold.add_mass(1, p[1]);
        gold.add_scaled(&Raid::marker_gold(), p[2] + p[3]);
        ex.counts[1] = gold;
        ex.scalars[0] = p.iter().zip(VP).map(|(p, v)| p * v).sum();
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "{}: {} raiding unit{}; previous raid's marker on the target: {}",
                SIDES[0],
                self.units,
                if self.units == 1 { "" } else { "s" },
                ["none", "Incursion - (+1)", "Incursion + (+2)"][self.previous as usize]
            ),
            format!(
                "{}: {} Civilized unit{} in the target, {} on the deep raid's way; modifier {:+}",
                SIDES[1],
                self.target_units,
                if self.target_units == 1 { "" } else { "s" },
                self.crossed_units,
                self.modifier()
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        let markers = pillage_markers();
        vec![
            "settle = a result of 11-12: Incursion + and the raiders may remain in the target (their choice; they then fight any enemy units there)".to_string(),
            format!(
                "gold: 1 for Incursion -, one pillage marker for Incursion + or settle (pool {}, mean {:.2}); VP 1 / 3 / 3",
                markers.pool.provenance,
                markers.mean_gold()
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{assert_agrees, assert_input_error, close};

    fn assert_bands(m: i32, expected: [f64; 4]) {
        for (a, b) in bands(m).iter().zip(expected) {
            close(*a, b);
        }
    }

    #[test]
    fn t24_raid_vectors() {
        assert_bands(0, [0.4, 0.2, 0.4, 0.0]);
        assert_bands(2, [0.2, 0.2, 0.4, 0.2]);
        assert_bands(-2, [0.6, 0.2, 0.2, 0.0]);
        // The same through the modifiers: a previous Incursion + (+2); two defenders (−2).
        assert_eq!(Raid::new(0, 0, 2, 2).modifier(), 2);
        assert_eq!(Raid::new(1, 1, 0, 2).modifier(), -2);
        let ex = Raid::new(1, 1, 0, 2).exact().unwrap();
        close(ex.outcomes[0], 0.6);
    }

    #[test]
    fn expected_vp_and_gold() {
        // m = 0: E[VP] = 1·0.2 + 3·0.4 = 1.4; E[gold] = 0.2 + 0.4·E[marker].
        let ex = Raid::new(0, 0, 0, 2).exact().unwrap();
        close(ex.scalars[0], 1.4);
        close(
            ex.counts[1].mean(),
            0.2 + 0.4 * pillage_markers().mean_gold(),
        );
        close(ex.counts[0].mean(), 0.4);
        // m = +2: E[VP] = 0.2 + 3·0.6 = 2.0.
        close(Raid::new(0, 0, 2, 2).exact().unwrap().scalars[0], 2.0);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let mut stream = 0;
        for previous in 0..3 {
            for (target, crossed) in [(0, 0), (1, 0), (0, 1), (2, 1), (3, 3), (6, 0), (0, 7)] {
                let raid = Raid::new(target, crossed, previous, 1 + (stream % 2));
                assert_agrees(&raid, 30_000, 12, stream as u64, &stream.to_string());
                stream += 1;
            }
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(build, "previous = \"both\"", "previous");
    }
}
