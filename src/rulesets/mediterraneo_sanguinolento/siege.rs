//! Siege (digest §3.4, §8.3): month by month, without dice. The effective fortification falls by 1 a
//! month (every 2 months when the port is supplied by sea); once it is 0 the garrison loses 1 morale
//! a month and surrenders at 0; food runs out when production and stores cannot feed the mouths, and
//! troops hold one month without food. With `assault_after = k` the besieger assaults after k months
//! at the level (and garrison morale) the siege has left.

use super::army::SIDE_KEYS;
use super::assault::{assault_battle, effective_level, FORT_LEVEL, SEA_SUPPLIED, SIEGE_ENGINE};
use super::field::{parse_armies, parse_context, CONTEXT_KEYS};
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str = "siege month by month (fortification, morale, food), optionally followed by an assault after k months";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;
const FOOD: Key = keys::int("food", 0, 10_000_000)
    .default_int(0)
    .help("COM stored in the city");
const CITY_POB: Key = keys::int("city_pob", 0, 10_000_000)
    .default_int(1000)
    .help("the city's population (produces POB/100 COM a month)");
const MONTHS: Key = keys::int("months", 1, 120)
    .default_int(24)
    .help("months the besieger stays");
const ASSAULT_AFTER: Key = keys::int("assault_after", 0, 120)
    .absent("no assault: the besieger waits")
    .help("assault after this many months instead of waiting (the assault reads the context keys and the sides' tactics)");

pub const KEYS: &[Key] = &keys::join::<40>(&[
    &[
        FORT_LEVEL,
        SEA_SUPPLIED,
        SIEGE_ENGINE,
        FOOD,
        CITY_POB,
        MONTHS,
        ASSAULT_AFTER,
    ],
    &CONTEXT_KEYS,
    &SIDE_KEYS,
]);

/// The siege's month-by-month course.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    /// Effective fortification level at the end of each month (index 0 = before the siege).
    pub levels: Vec<u32>,
    /// Garrison morale lost to the siege by the end of each month.
    pub morale_lost: Vec<u32>,
    /// Month the city surrenders, if within the months given.
    pub surrender: Option<u32>,
    pub why: &'static str,
}

#[allow(clippy::too_many_arguments)]
pub fn timeline(
    start_level: u32,
    sea_supplied: bool,
    garrison_morale: f64,
    garrison_men: u32,
    pob: u32,
    food: u32,
    population_eats: bool,
    months: u32,
) -> Timeline {
    let mut level = start_level as i64;
    let mut morale = garrison_morale;
    let mut stock = food as f64;
    let mut hungry = false;
    let mut t = Timeline {
        levels: vec![start_level],
        morale_lost: vec![0],
        surrender: None,
        why: "",
    };
    let mut lost = 0;
    for m in 1..=months {
        if !sea_supplied || m % 2 == 0 {
            level -= 1;
        }
        if level < 0 {
            level = 0;
            morale -= 1.0;
            lost += 1;
        } else if level == 0 && (!sea_supplied || m % 2 == 0) {
            // The month the walls reach 0 does not cost morale yet.
        }
        t.levels.push(level as u32);
        t.morale_lost.push(lost);
        if morale <= 0.0 {
            t.surrender = Some(m);
            t.why = "garrison morale reached 0 (L3666)";
            return t;
        }
        stock += pob as f64 / 100.0;
        let need = garrison_men as f64 / 200.0
            + if population_eats {
                pob as f64 / 200.0
            } else {
                0.0
            };
        if stock + 1e-9 < need {
            if hungry {
                t.surrender = Some(m);
                t.why = "a second month without food (L402, L3660)";
                return t;
            }
            hungry = true;
            stock = 0.0;
        } else {
            stock -= need;
            hungry = false;
        }
    }
    t
}

pub struct Siege {
    schema: Schema,
    fell: bool,
    month: u32,
    notes: Vec<String>,
    describe: Vec<String>,
}

impl Simulate for Siege {
    fn trial(&self, _dice: &mut Dice, out: &mut Trial) {
        out.clear(self.schema.counts.len(), self.schema.scalars.len());
        out.outcome = if self.fell { 0 } else { 1 };
        out.counts[0] = self.month;
    }
}

impl BattleModel for Siege {
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut e = Exact::zeros(&self.schema);
        e.outcomes[if self.fell { 0 } else { 1 }] = 1.0;
        e.counts[0].add_mass(self.month as usize, 1.0);
        Ok(e)
    }
    fn describe(&self) -> Vec<String> {
        self.describe.clone()
    }
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

/// The most men a besieged city holds (L400, L3678, digest D15): max(POB x level x 2, POB x 10).
pub fn siege_capacity(pob: u32, fort: u32) -> u32 {
    (pob * fort * 2).max(pob * 10)
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let armies = parse_armies(fields)?;
    let ctx = parse_context(fields)?;
    let fort = FORT_LEVEL.int(fields)? as u32;
    let sea = SEA_SUPPLIED.bool(fields)?;
    let engine = SIEGE_ENGINE.int(fields)? as u32;
    let food = FOOD.int(fields)? as u32;
    let pob = CITY_POB.int(fields)? as u32;
    let months = MONTHS.int(fields)? as u32;
    let assault_after = ASSAULT_AFTER.opt_int(fields)?.map(|k| k as u32);
    let engine_full = options.choice("siege_engine") == "level";
    let start = effective_level(&armies, fort, 0, false, engine, engine_full);
    let g = &armies[1];
    let units: f64 = g.groups.iter().map(|x| x.units).sum();
    let morale = g
        .groups
        .iter()
        .map(|x| x.units * x.morale_value() as f64)
        .sum::<f64>()
        / units.max(1e-9);
    let horizon = assault_after.unwrap_or(months);
    let t = timeline(
        start,
        sea,
        morale + start as f64,
        g.total_men(),
        pob,
        food,
        options.choice("siege_food") != "garrison",
        horizon,
    );
    let course: Vec<String> = t.levels.iter().map(|l| l.to_string()).collect();
    let mut notes = vec![format!(
        "fortification level month by month: {}",
        course.join(", ")
    )];
    let capacity = siege_capacity(pob, fort);
    if g.total_men() > capacity {
        notes.push(format!(
            "the garrison ({} men) exceeds the besieged city's capacity of {capacity} men (max(POB x level x 2, POB x 10), L400, L3678)",
            g.total_men()
        ));
    }
    if let Some(m) = t.surrender {
        notes.push(format!("the city surrenders in month {m}: {}", t.why));
    }
    match (assault_after, t.surrender) {
        (Some(k), None) => {
            let level = *t.levels.last().unwrap_or(&0);
            notes.push(format!("assault after {k} months of siege"));
            let mut b = assault_battle(armies, level, &ctx, &options, notes);
            let lost = *t.morale_lost.last().unwrap_or(&0) as i32 * 100;
            if let Some(c) = b.cases.first_mut() {
                c.plan.engine.start.loss[1] += lost;
            }
            Ok(Box::new(b))
        }
        _ => {
            let mut schema = Schema::new(OUTCOMES);
            schema.count("surrender_month", horizon as usize);
            Ok(Box::new(Siege {
                schema,
                fell: t.surrender.is_some(),
                month: t.surrender.unwrap_or(0),
                notes,
                describe: vec![
                    format!("besiegers: {}", armies[0].describe()),
                    format!("garrison: {}", armies[1].describe()),
                ],
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digest D15: POB 500 behind level 6 holds max(6,000, 5,000); behind level 3, 5,000.
    #[test]
    fn d15_siege_capacity() {
        assert_eq!(siege_capacity(500, 6), 6000);
        assert_eq!(siege_capacity(500, 3), 5000);
    }

    #[test]
    fn a_siege_grinds_walls_then_morale() {
        // Level 2, garrison morale 3 + 2: walls 1, 0, then morale 5 → 0 over five more months.
        let t = timeline(2, false, 5.0, 1000, 10_000, 1_000_000, false, 24);
        assert_eq!(&t.levels[..4], &[2, 1, 0, 0]);
        assert_eq!(t.surrender, Some(7));
        // Sea supply halves the pace.
        let s = timeline(2, true, 5.0, 1000, 10_000, 1_000_000, false, 24);
        assert_eq!(&s.levels[..5], &[2, 2, 1, 1, 0]);
        // No food: 2,000 men need 10 COM a month; a city of 500 produces 5: two hungry months.
        let f = timeline(10, false, 5.0, 2000, 500, 0, false, 24);
        assert_eq!(f.surrender, Some(2));
    }
}
