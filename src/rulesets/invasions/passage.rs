//! Overrun (*Desbordamiento*, XVIII.E, L1131-1138) and forced passage (*Paso a la fuerza*, XVIII.F,
//! L1140-1149); digest §3.5, T16, T17. No dice: what a moving stack can do on its way, province by
//! province. Overrun (preferred when possible): ≥ 6 units against a single enemy unit, +1 step, at
//! least 2 steps left on entering. Forced passage: ≥ 2× the enemy units; the forcing stack stops and
//! fights. Neither against a Limes, a fortified city or across a strait. Otherwise: a battle.
//! The exact answer is a point mass; the simulation replays the same steps.

use crate::battle::keys::{self, Key, Type};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str =
    "overrun or forced passage: what a moving stack can do on its way (deterministic)";
pub const OUTCOMES: &[&str] = &["overrun", "forced_passage", "battle"];
use super::{ATTACKER, SIDES};
const UNITS: Key = keys::int("units", 1, 30)
    .default_int(1)
    .help("units in the moving stack");
const STEPS: Key = keys::int("steps", 1, 6)
    .default_int(4)
    .help("movement steps left before entering the first province");
const ENEMY_UNITS: Key = keys::int("enemy_units", 0, 30)
    .default_int(0)
    .help("enemy units there that did not flee");
const HORDE: Key = keys::flag("horde").help(
    "an enemy horde is there (counts as 1 unit against a forced passage; never overrun alone, Q38)",
);
const LIMES: Key =
    keys::flag("limes").help("a Roman Limes with supporting units is there (blocks both)");
const FORTIFIED: Key =
    keys::flag("fortified").help("an enemy fortified city is there (blocks both)");
const STRAIT: Key = keys::flag("strait").help(
    "the province is entered across a strait (blocks both; the crossing takes all the steps)",
);
const PROVINCES: Key = Key::new(
    "provinces",
    Type::Tables(
        &[ENEMY_UNITS, HORDE, LIMES, FORTIFIED, STRAIT],
        1,
        MAX_PROVINCES,
    ),
)
.required()
.help("one table per province entered, in order");

pub const KEYS: &[Key] = &[UNITS.at(ATTACKER), STEPS.at(ATTACKER), PROVINCES];

const MAX_PROVINCES: usize = 6;

#[derive(Clone, Copy, Debug, Default)]
pub struct Province {
    pub enemy_units: u32,
    pub horde: bool,
    pub limes: bool,
    pub fortified: bool,
    pub strait: bool,
}

impl Province {
    fn hostile(&self) -> bool {
        self.enemy_units > 0 || self.horde
    }

    fn blocks(&self) -> bool {
        self.limes || self.fortified || self.strait
    }
}

/// Whether `units` may overrun `p` with `steps` steps left on entering.
pub fn can_overrun(units: u32, steps: u32, p: &Province, lone_horde: bool) -> bool {
    let single = (p.enemy_units == 1 && !p.horde) || (lone_horde && p.enemy_units == 0 && p.horde);
    units >= 6 && single && !p.blocks() && steps >= 2
}

/// Whether `units` may force a passage through `p`.
pub fn can_force(units: u32, p: &Province) -> bool {
    let defenders = p.enemy_units + p.horde as u32;
    units >= 2 * defenders && !p.blocks()
}

/// The result of the move: (outcome index, steps spent, overruns, province where it stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub outcome: usize,
    pub steps: u32,
    pub overruns: u32,
    pub stopped_at: Option<usize>,
}

pub struct Passage {
    pub units: u32,
    pub steps: u32,
    pub provinces: Vec<Province>,
    pub lone_horde: bool,
    result: Move,
    schema: Schema,
}

impl Passage {
    pub fn new(
        units: u32,
        steps: u32,
        provinces: Vec<Province>,
        lone_horde: bool,
    ) -> Result<Passage> {
        let result = walk(units, steps, &provinces, lone_horde)?;
        let mut schema = Schema::new(OUTCOMES);
        schema.count("steps_spent", steps as usize);
        schema.count("overruns", provinces.len());
        Ok(Passage {
            units,
            steps,
            provinces,
            lone_horde,
            result,
            schema,
        })
    }
}

/// Walks the path.
pub fn walk(units: u32, steps: u32, provinces: &[Province], lone_horde: bool) -> Result<Move> {
    let mut left = steps;
    let mut overruns = 0;
    let mut met_enemy = false;
    for (i, p) in provinces.iter().enumerate() {
        let field = format!("provinces[{i}]");
        if left == 0 {
            return Err(AleaError::input(
                "passage",
                field,
                "a province beyond the stack's reach",
                format!("a path the {steps} steps can cover"),
            ));
        }
        if p.limes && p.enemy_units == 0 {
            return Err(AleaError::input(
                "passage",
                format!("{field}.limes"),
                true,
                "a Limes with supporting units (enemy_units >= 1); an unsupported Limes is battle = \"limes\"",
            ));
        }
        let entering = left;
        left -= if p.strait { left } else { 1 };
        if !p.hostile() {
            continue;
        }
        met_enemy = true;
        if can_overrun(units, entering, p, lone_horde) {
            left -= 1;
            overruns += 1;
            continue;
        }
        let outcome = if can_force(units, p) { 1 } else { 2 };
        return Ok(Move {
            outcome,
            steps: steps - left,
            overruns,
            stopped_at: Some(i),
        });
    }
    if !met_enemy {
        return Err(AleaError::input(
            "passage",
            "provinces",
            "a path without enemies",
            "at least one province with enemy_units >= 1 or a horde",
        ));
    }
    Ok(Move {
        outcome: 0,
        steps: steps - left,
        overruns,
        stopped_at: None,
    })
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let a = fields.table(SIDES[0], &empty)?;
    let units = UNITS.int(&a)? as u32;
    let steps = STEPS.int(&a)? as u32;
    let mut provinces = Vec::new();
    for t in keys::entries(fields, &PROVINCES)? {
        provinces.push(Province {
            enemy_units: ENEMY_UNITS.int(&t)? as u32,
            horde: HORDE.bool(&t)?,
            limes: LIMES.bool(&t)?,
            fortified: FORTIFIED.bool(&t)?,
            strait: STRAIT.bool(&t)?,
        });
    }
    if provinces.is_empty() {
        return Err(PROVINCES.missing(fields));
    }
    let passage = Passage::new(units, steps, provinces, options.flag("overrun_lone_horde"))
        .map_err(|e| match e {
            AleaError::Input {
                field,
                value,
                allowed,
                ..
            } => AleaError::Input {
                source: fields.source.to_string(),
                field,
                value,
                allowed,
            },
            other => other,
        })?;
    Ok(Box::new(passage))
}

impl Simulate for Passage {
    fn trial(&self, _dice: &mut Dice, out: &mut Trial) {
        out.outcome = self.result.outcome;
        out.counts[0] = self.result.steps;
        out.counts[1] = self.result.overruns;
    }
}

impl BattleModel for Passage {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        ex.outcomes[self.result.outcome] = 1.0;
        ex.counts[0] = Pmf::point(self.result.steps as usize);
        ex.counts[1] = Pmf::point(self.result.overruns as usize);
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let mut v = vec![format!(
            "{}: moving stack of {} units with {} steps left",
            SIDES[0], self.units, self.steps
        )];
        for (i, p) in self.provinces.iter().enumerate() {
            let mut what = vec![format!("{} enemy units", p.enemy_units)];
            for (on, name) in [
                (p.horde, "a horde"),
                (p.limes, "a Limes"),
                (p.fortified, "a fortified city"),
                (p.strait, "entered across a strait"),
            ] {
                if on {
                    what.push(name.to_string());
                }
            }
            v.push(format!("province {}: {}", i + 1, what.join(", ")));
        }
        v
    }

    fn notes(&self) -> Vec<String> {
        let r = self.result;
        let mut v = vec![format!(
            "no dice: {} overrun{}, {} step{} spent{}",
            r.overruns,
            if r.overruns == 1 { "" } else { "s" },
            r.steps,
            if r.steps == 1 { "" } else { "s" },
            match r.stopped_at {
                Some(i) => format!(
                    "; the stack stops in province {} ({})",
                    i + 1,
                    if r.outcome == 1 {
                        "forced passage: it fights those defenders in the combat step, other stacks may pass"
                    } else {
                        "battle"
                    }
                ),
                None => String::new(),
            }
        )];
        if r.stopped_at.is_some_and(|i| i + 1 < self.provinces.len()) {
            v.push("the provinces after the stop are not reached".to_string());
        }
        v.push("policy: overrun whenever possible, else forced passage when possible".to_string());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{
        assert_agrees, assert_input_error, input_error,
    };

    fn lone(n: u32) -> Province {
        Province {
            enemy_units: n,
            ..Province::default()
        }
    }

    #[test]
    fn t16_two_overruns_cost_four_steps() {
        // 7 units; Adiabene (1) + overrun (1) + Akkad (1) + overrun (1) = 4 steps: infantry (3 + 1) spent.
        let m = walk(7, 4, &[lone(1), lone(1)], false).unwrap();
        assert_eq!(m.outcome, 0);
        assert_eq!(m.steps, 4);
        assert_eq!(m.overruns, 2);
        // With only 3 steps the second overrun is impossible (1 step left on entering Akkad): 7 ≥ 2 → forced passage.
        let m = walk(7, 3, &[lone(1), lone(1)], false).unwrap();
        assert_eq!((m.outcome, m.steps, m.overruns), (1, 3, 1));
    }

    #[test]
    fn t17_forced_passage_needs_twice_the_defenders() {
        assert!(can_force(2, &lone(1)));
        assert!(!can_force(1, &lone(1)));
        assert!(can_force(6, &lone(3))); // 4 + a +2 leader
        assert!(!can_force(5, &lone(3)));
        assert_eq!(walk(6, 4, &[lone(3)], false).unwrap().outcome, 1);
        assert_eq!(walk(5, 4, &[lone(3)], false).unwrap().outcome, 2);
    }

    #[test]
    fn blocks_and_hordes() {
        for p in [
            Province {
                limes: true,
                ..lone(1)
            },
            Province {
                fortified: true,
                ..lone(1)
            },
            Province {
                strait: true,
                ..lone(1)
            },
        ] {
            assert!(!can_overrun(8, 4, &p, false));
            assert!(!can_force(8, &p));
            assert_eq!(walk(8, 4, &[p], false).unwrap().outcome, 2);
        }
        // Q38: a lone horde is not overrun by default, but may be forced (it counts as one unit).
        let horde = Province {
            horde: true,
            ..lone(0)
        };
        assert_eq!(walk(6, 4, &[horde], false).unwrap().outcome, 1);
        assert_eq!(walk(6, 4, &[horde], true).unwrap().outcome, 0);
        // A strait takes all the steps.
        let m = walk(
            8,
            4,
            &[Province {
                strait: true,
                ..lone(1)
            }],
            false,
        )
        .unwrap();
        assert_eq!(m.steps, 4);
        // Errors: no enemy, out of steps.
        assert!(walk(6, 4, &[lone(0)], false).is_err());
        assert!(walk(6, 1, &[lone(0), lone(1)], false).is_err());
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let cases = [
            (7, 4, vec![lone(1), lone(1)]),
            (6, 4, vec![lone(3)]),
            (2, 3, vec![lone(0), lone(1)]),
            (3, 2, vec![lone(2)]),
            (
                8,
                5,
                vec![
                    lone(1),
                    lone(0),
                    Province {
                        fortified: true,
                        ..lone(1)
                    },
                ],
            ),
        ];
        for (stream, (u, s, p)) in cases.into_iter().enumerate() {
            let m = Passage::new(u, s, p, false).unwrap();
            assert_agrees(&m, 1_000, 17, stream as u64, &stream.to_string());
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(
            build,
            "[[provinces]]\nenemy_units = 31",
            "provinces[0].enemy_units",
        );
        let err = input_error(
            build,
            "[attacker]\nsteps = 1\n[[provinces]]\n[[provinces]]\nenemy_units = 1",
        );
        assert!(err.to_string().starts_with("b.toml"), "{err}");
    }
}
