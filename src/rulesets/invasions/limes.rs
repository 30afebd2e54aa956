//! An unsupported Limes (XVIII.I, L1170-1184; digest §3.4): no battle; the Limes is destroyed and, on
//! a passed D2, inflicts one hit on the invader (Q27: a normal hit the invader allocates: flip an
//! intact elite or eliminate a unit). The invader still has to stop in the province.

use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str = "unsupported Limes: destroyed, one hit on the invader on a passed D2";
pub const OUTCOMES: &[&str] = &["hit", "no_hit"];
use super::{ATTACKER, SIDES};
const UNITS: Key = keys::int("units", 1, 30)
    .default_int(1)
    .help("units of the invading stack");
const ELITES: Key = keys::int("elites", 0, 30)
    .default_int(0)
    .help("intact elites among them (a hit flips one instead of eliminating a unit)");
const HIT: Key = keys::choice("hit", &["flip", "eliminate"])
    .default_choice("flip")
    .help("\"flip\": an intact elite absorbs the hit if there is one; \"eliminate\": eliminate a non-elite unit when there is one");

pub const KEYS: &[Key] = &[UNITS.at(ATTACKER), ELITES.at(ATTACKER), HIT.at(&["policy"])];

#[derive(Clone, Copy, Debug)]
pub struct Limes {
    pub units: u32,
    pub elites: u32,
    pub flip: bool,
}

struct Model {
    l: Limes,
    schema: Schema,
}

impl Limes {
    pub fn new(units: u32, elites: u32, flip: bool) -> Limes {
        Limes {
            units,
            elites,
            flip,
        }
    }

    /// Units eliminated by the Limes's hit.
    pub fn eliminated_by_hit(&self) -> u32 {
        let elite_absorbs = self.elites > 0 && (self.flip || self.elites == self.units);
        if elite_absorbs {
            0
        } else {
            1
        }
    }
}

impl Model {
    fn new(l: Limes) -> Model {
        let mut schema = Schema::new(OUTCOMES);
        schema.count("units_eliminated", l.units.min(1) as usize);
        schema.scalar("elite_flipped");
        Model { l, schema }
    }
}

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let a = fields.table(SIDES[0], &empty)?;
    let units = UNITS.int(&a)? as u32;
    let elites = ELITES.int(&a)? as u32;
    if elites > units {
        return Err(AleaError::input(
            fields.source,
            ELITES.field(&a),
            elites,
            format!("at most the stack's {units} units"),
        ));
    }
    let flip = HIT.choice(&fields.table("policy", &empty)?)? == "flip";
    Ok(Box::new(Model::new(Limes::new(units, elites, flip))))
}

impl Simulate for Model {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        if dice.d10().is_multiple_of(2) {
            out.outcome = 0;
            let e = self.l.eliminated_by_hit();
            out.counts[0] = e;
            out.scalars[0] = (1 - e) as f64;
        } else {
            out.outcome = 1;
        }
    }
}

impl BattleModel for Model {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        ex.outcomes = vec![0.5, 0.5];
        let e = self.l.eliminated_by_hit();
        ex.counts[0] = if e == 1 {
            Pmf(vec![0.5, 0.5])
        } else {
            Pmf::point(0)
        };
        ex.scalars[0] = 0.5 * (1 - e) as f64;
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "{}: invading stack of {} units ({} intact elites); it must stop in the province",
                SIDES[0], self.l.units, self.l.elites
            ),
            format!(
                "{}: a Limes without supporting units, destroyed at once; D2 passed = 1 hit",
                SIDES[1]
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "policy: hit = {} (the hit {})",
            if self.l.flip { "flip" } else { "eliminate" },
            if self.l.eliminated_by_hit() == 0 {
                "flips an intact elite"
            } else {
                "eliminates a unit"
            }
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{assert_agrees, assert_input_error};

    #[test]
    fn one_hit_on_half_the_rolls() {
        let ex = Model::new(Limes::new(7, 0, true)).exact().unwrap();
        assert_eq!(ex.outcomes, vec![0.5, 0.5]);
        assert_eq!(ex.counts[0].mean(), 0.5);
        let ex = Model::new(Limes::new(3, 1, true)).exact().unwrap();
        assert_eq!(ex.counts[0].mean(), 0.0);
        assert_eq!(ex.scalars[0], 0.5);
        // Eliminate policy: a standard unit goes, unless every unit is an intact elite.
        assert_eq!(Limes::new(3, 1, false).eliminated_by_hit(), 1);
        assert_eq!(Limes::new(2, 2, false).eliminated_by_hit(), 0);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        for (case, (u, e, f)) in [
            (1, 0, true),
            (7, 0, true),
            (3, 1, true),
            (3, 1, false),
            (2, 2, false),
        ]
        .into_iter()
        .enumerate()
        {
            let m = Model::new(Limes::new(u, e, f));
            assert_agrees(&m, 20_000, 15, case as u64, &case.to_string());
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(build, "[attacker]\nunits = 0", "attacker.units");
    }
}
