//! A province fights the war that attacks it (advanced rule 2.02, L923-L953; digest §3.12).
//!
//! Strength = the province's printed initial strength + garrison legions + provincial troops (at
//! full strength only with a garrison present, else half, rounded up, as a group) + the governor's
//! MIL, capped at that strength. The roll is read as for any battle (Disaster and Standoff
//! numbers included). Casualties fall as "2 provincial troops, then 1 garrison legion" in turn; without
//! a garrison two troops make one casualty (L943-L945). Disaster and Standoff take half and a quarter,
//! rounded up, of the casualties that would destroy the army. Defeat kills the governor and allies the
//! province with the war; a Victory without the war's fleet support counts as a Stalemate (L941).

use super::battle::{Kind, RomanBattle, DEFEAT, STALEMATE, STANDOFF, VICTORY, WEIGHTS_3D6};
use super::battle::{AGAINST_WAR, COMMANDER, COMMANDER_MILITARY, NAVAL_VICTORY};
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::{Table, Value};

const OUTCOMES: [&str; 5] = ["victory", "stalemate", "defeat", "disaster", "standoff"];

pub struct Provincial {
    engine: RomanBattle,
    initial: u32,
    troops: u32,
    garrison: u32,
    fleets: u32,
    /// The war needs a naval battle the province cannot fight: automatic Defeat (L941).
    automatic_defeat: bool,
    lacks_support: bool,
    /// The battle is the naval one: only provincial fleets fight and take losses.
    naval: bool,
    troops_fighting: u32,
    war_line: String,
    dice_notes: Vec<String>,
    schema: Schema,
    columns: Columns,
}

/// Where the quantities sit in the schema, fixed by `build` as it names them.
struct Columns {
    troops_lost: usize,
    garrison_lost: usize,
    fleets_lost: usize,
    killed: usize,
    captured: usize,
    allied: usize,
    war_gain: usize,
    influence: usize,
    veteran_gained: usize,
}

/// Troops and garrison legions lost to `casualties` (L943-L945).
pub fn casualties(troops: u32, garrison: u32, casualties: u32) -> (u32, u32) {
    if garrison == 0 {
        return ((2 * casualties).min(troops), 0);
    }
    let (mut t, mut g) = (0, 0);
    for i in 0..casualties {
        let wants_legion = i % 3 == 2;
        let (troop_left, legion_left) = (t < troops, g < garrison);
        match (wants_legion, troop_left, legion_left) {
            (true, _, true) | (false, false, true) => g += 1,
            (false, true, _) | (true, true, false) => t += 1,
            _ => break,
        }
    }
    (t, g)
}

const PROVINCE: &[&str] = &["province"];
const INITIAL_STRENGTH: Key = keys::int("initial_strength", 0, 100)
    .default_int(0)
    .help("the province's initial land strength");
pub const INITIAL_NAVAL: Key = keys::int("initial_naval", 0, 100)
    .default_int(0)
    .help("the province's initial naval strength (A-32)");
pub const TROOPS: Key = keys::int("troops", 0, 100)
    .default_int(0)
    .help("provincial troops (at full strength only with a garrison, else half)");
pub const FLEETS: Key = keys::int("fleets", 0, 100)
    .default_int(0)
    .help("provincial fleets");
pub const GARRISON: Key = keys::int("garrison", 0, 100)
    .default_int(0)
    .help("Senate legions garrisoning the province");
const GOVERNOR: Key = Key::new("governor", COMMANDER.ty)
    .absent("a governor of MIL 0 (or governor_military)")
    .help("the governor (gives his MIL)");
pub const GOVERNOR_MILITARY: Key = keys::int("governor_military", 0, 10)
    .absent("the named governor's MIL")
    .help("the governor's Military rating");

pub const KEYS: &[Key] = &keys::join::<20>(&[
    &keys::placed(
        [
            INITIAL_STRENGTH,
            INITIAL_NAVAL,
            TROOPS,
            FLEETS,
            GARRISON,
            GOVERNOR,
            GOVERNOR_MILITARY,
        ],
        PROVINCE,
    ),
    &AGAINST_WAR,
]);

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let province = fields.table("province", &empty)?;
    let (initial, troops, fleets, garrison) = (
        INITIAL_STRENGTH.int(&province)? as u32,
        TROOPS.int(&province)? as u32,
        FLEETS.int(&province)? as u32,
        GARRISON.int(&province)? as u32,
    );
    let initial_naval = INITIAL_NAVAL.int(&province)? as u32;
    let troop_strength = if garrison > 0 {
        troops
    } else {
        troops.div_ceil(2)
    };
    let strength = initial + garrison + troop_strength;
    if strength == 0 {
        return Err(AleaError::input(
            fields.source,
            "province.initial_strength",
            0,
            "a province with some strength (initial_strength, garrison or troops)",
        ));
    }
    // The war side comes from the ordinary battle: a stand-in army with the governor as commander,
    // re-derived below with the province's strength as its troops.
    let mut table = fields.table_without(&["province"]);
    let mut rome = Table::new();
    rome.insert("legions".into(), Value::Integer(1));
    rome.insert(
        "fleets".into(),
        Value::Integer(super::battle::MAX_UNITS as i64),
    );
    if let Some(g) = GOVERNOR.text(&province)? {
        rome.insert(COMMANDER.name.into(), Value::String(g.to_string()));
    }
    if let Some(m) = GOVERNOR_MILITARY.opt_int(&province)? {
        rome.insert(COMMANDER_MILITARY.name.into(), Value::Integer(m));
    }
    table.insert("rome".into(), Value::Table(rome));
    let war_fields = Fields::new(fields.source, &table);
    let probe = RomanBattle::build_kind(&war_fields, options.clone(), Kind::Land, true)?;
    let war_has_fleet =
        probe.war_naval > 0 && !NAVAL_VICTORY.bool(&fields.table("war", &empty)?)?;
    // A war with a fleet is met at sea first (L941): the province's fleets and initial naval strength
    // against the war's naval strength; a province with no fleet at all loses outright.
    let naval = war_has_fleet && fleets + initial_naval > 0;
    let base = if naval {
        RomanBattle::build_kind(&war_fields, options, Kind::Naval, false)?
    } else {
        probe
    };
    let troops_fighting = if naval {
        fleets + initial_naval
    } else {
        strength
    };
    let war_line = base.describe().get(1).cloned().unwrap_or_default();
    // The base battle's notes after the first (its modifier was the stand-in army's).
    let dice_notes: Vec<String> = base.notes().into_iter().skip(1).collect();
    let engine = base.with_army(troops_fighting, 0, troops_fighting);
    let mut schema = Schema::new(&OUTCOMES);
    let columns = Columns {
        troops_lost: schema.count("troops_lost", troops as usize),
        garrison_lost: schema.count("garrison_lost", garrison as usize),
        fleets_lost: schema.count("fleets_lost", fleets as usize),
        killed: schema.scalar("governor/killed"),
        captured: schema.scalar("governor/captured"),
        allied: schema.scalar("province_allied"),
        war_gain: schema.scalar_bounded(
            "war_strength_gain",
            (initial + troops + fleets).max(1) as f64,
        ),
        influence: schema
            .scalar_bounded("influence_gain", engine.printed.div_ceil(2).max(1) as f64),
        veteran_gained: schema.scalar("veteran_gained"),
    };
    Ok(Box::new(Provincial {
        lacks_support: !naval && fleets < engine.fleet_support,
        naval,
        troops_fighting,
        war_line,
        dice_notes,
        engine,
        initial,
        troops,
        garrison,
        fleets,
        automatic_defeat: war_has_fleet && !naval,
        schema,
        columns,
    }))
}

/// What one roll does to the province.
struct Effect {
    result: usize,
    troops: u32,
    garrison: u32,
    fleets: u32,
}

impl Provincial {
    /// Casualties that would destroy the land army.
    fn capacity(&self) -> u32 {
        self.garrison
            + if self.garrison > 0 {
                self.troops
            } else {
                self.troops.div_ceil(2)
            }
    }

    fn effect(&self, roll: usize, drm: i32) -> Effect {
        if self.automatic_defeat {
            return Effect {
                result: DEFEAT,
                troops: 0,
                garrison: 0,
                fleets: 0,
            };
        }
        let land_capacity = if self.naval { 0 } else { self.capacity() };
        let (mut result, land, fleets) =
            self.engine
                .resolve_army(roll, drm, land_capacity, self.fleets, 0);
        if result == VICTORY && self.lacks_support {
            result = STALEMATE;
        }
        let (troops, garrison) = casualties(self.troops, self.garrison, land);
        Effect {
            result,
            troops,
            garrison,
            fleets,
        }
    }

    fn war_gain(&self, e: &Effect) -> f64 {
        (self.initial + (self.troops - e.troops) + (self.fleets - e.fleets)) as f64
    }

    fn rolls(&self) -> Vec<(usize, i32, f64)> {
        let mut out = Vec::new();
        for roll in 3..=18usize {
            for &(drm, p) in &self.engine.drms {
                out.push((roll, drm, p * WEIGHTS_3D6[roll - 3] as f64 / 216.0));
            }
        }
        out
    }
}

impl Simulate for Provincial {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        let roll = (dice.d(6) + dice.d(6) + dice.d(6)) as usize;
        let drm = self.engine.drm_for_troops(self.troops_fighting, dice);
        let e = self.effect(roll, drm);
        out.outcome = e.result;
        out.counts[c.troops_lost] = e.troops;
        out.counts[c.garrison_lost] = e.garrison;
        out.counts[c.fleets_lost] = e.fleets;
        let (killed, captured) = if e.result == DEFEAT {
            (true, false)
        } else {
            self.engine
                .cup
                .draw(e.troops + e.garrison + e.fleets, e.result == VICTORY, dice)
        };
        out.scalars[c.killed] = killed as u32 as f64;
        out.scalars[c.captured] = captured as u32 as f64;
        if e.result == DEFEAT {
            out.scalars[c.allied] = 1.0;
            out.scalars[c.war_gain] = self.war_gain(&e);
        }
        if e.result == VICTORY && !killed {
            out.scalars[c.influence] = self.engine.printed.div_ceil(2) as f64;
        }
        if matches!(e.result, VICTORY | STALEMATE | STANDOFF) && e.garrison < self.garrison {
            out.scalars[c.veteran_gained] = 1.0;
        }
    }
}

impl BattleModel for Provincial {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns;
        for (roll, drm, w) in self.rolls() {
            let e = self.effect(roll, drm);
            ex.outcomes[e.result] += w;
            ex.counts[c.troops_lost].add_mass(e.troops as usize, w);
            ex.counts[c.garrison_lost].add_mass(e.garrison as usize, w);
            ex.counts[c.fleets_lost].add_mass(e.fleets as usize, w);
            let (killed, captured) = if e.result == DEFEAT {
                (1.0, 0.0)
            } else {
                let f = self
                    .engine
                    .cup
                    .fate(e.troops + e.garrison + e.fleets, e.result == VICTORY);
                (f.killed, f.captured)
            };
            ex.scalars[c.killed] += w * killed;
            ex.scalars[c.captured] += w * captured;
            if e.result == DEFEAT {
                ex.scalars[c.allied] += w;
                ex.scalars[c.war_gain] += w * self.war_gain(&e);
            }
            if e.result == VICTORY {
                ex.scalars[c.influence] +=
                    w * (1.0 - killed) * self.engine.printed.div_ceil(2) as f64;
            }
            if matches!(e.result, VICTORY | STALEMATE | STANDOFF) && e.garrison < self.garrison {
                ex.scalars[c.veteran_gained] += w;
            }
        }
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let war = self.war_line.clone();
        vec![
            format!(
                "province: initial strength {}, {} garrison legions, {} provincial troops{}, {} provincial fleets",
                self.initial,
                self.garrison,
                self.troops,
                if self.garrison == 0 && self.troops > 0 { " (at half strength: no garrison)" } else { "" },
                self.fleets
            ),
            war,
        ]
    }

    fn notes(&self) -> Vec<String> {
        let drms: Vec<String> = self
            .engine
            .drms
            .iter()
            .map(|(d, _)| format!("{d:+}"))
            .collect();
        let mut n =
            vec![format!(
            "drm = the province's {} {} + the governor's MIL (capped) − the war's strength = {}",
            if self.naval { "naval strength" } else { "strength" },
            self.troops_fighting,
            drms.join(" or ")
        )];
        n.extend(self.dice_notes.iter().cloned());
        if self.lacks_support {
            n.push(format!("the province lacks the war's fleet support ({}): a Victory counts as a Stalemate (L941)", self.engine.fleet_support));
        }
        if self.automatic_defeat {
            n.push(
                "the war needs a naval battle the province cannot fight: automatic Defeat (L941)"
                    .into(),
            );
        }
        if self.naval {
            n.push("the war has a fleet: this is the naval battle (provincial fleets + initial naval strength, A-32); a Victory puts the Naval Victory marker on the war (L953)".into());
        }
        n.push("no Unrest change: a province's defeat is not Rome's (L947)".into());
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    #[test]
    fn t13_provincial_casualty_order() {
        // 8 casualties with a garrison present: 6 provincial troops and 2 garrison legions.
        assert_eq!(casualties(10, 3, 8), (6, 2));
        // Without a garrison one casualty costs two troops.
        assert_eq!(casualties(5, 0, 1), (2, 0));
        assert_eq!(casualties(5, 0, 3), (5, 0));
        // When one kind runs out the other pays.
        assert_eq!(casualties(1, 4, 4), (1, 3));
    }

    fn provincial(text: &str) -> Box<dyn BattleModel> {
        let table: Table = text.parse().unwrap();
        build(
            &Fields::new("test", &table),
            Options::defaults(super::super::OPTIONS),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_province_that_cannot_fight_the_fleet_loses() {
        let p = provincial(
            "[province]\ninitial_strength = 3\ntroops = 4\n[war]\nname = \"1st Punic War\"",
        );
        let ex = p.exact().unwrap();
        assert!((ex.outcomes[DEFEAT] - 1.0).abs() < 1e-12);
        let war_gain = p.schema().scalar_index("war_strength_gain").unwrap();
        assert!((ex.scalars[war_gain] - 7.0).abs() < 1e-12);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let mut stream = 0;
        for war in ["1st Illyrian War", "Gladiator Revolt", "Syrian War"] {
            for province in [
                "initial_strength = 2\ntroops = 3\ngovernor_military = 2",
                "initial_strength = 4\ntroops = 6\ngarrison = 2\nfleets = 2\ngovernor = \"Cn. Pompeius Magnus\"",
                "initial_strength = 1\ngarrison = 5\nfleets = 3\ngovernor_military = 4",
            ] {
                let text = format!("[province]\n{province}\n[war]\nname = \"{war}\"\nnaval_victory = true");
                let p = provincial(&text);
                let run = McRun { trials: 60_000, seed: 66, stream, progress: &progress };
                agreement(p.schema(), &p.exact().unwrap(), &p.monte_carlo(&run), 5.0).unwrap_or_else(|e| panic!("{text}\n{e}"));
                stream += 1;
                // The same province meeting the 1st Punic War's fleet at sea.
                let text = format!("[province]\n{province}\ninitial_naval = 1\n[war]\nname = \"1st Punic War\"");
                let p = provincial(&text);
                let run = McRun { trials: 60_000, seed: 67, stream, progress: &progress };
                agreement(p.schema(), &p.exact().unwrap(), &p.monte_carlo(&run), 5.0).unwrap_or_else(|e| panic!("{text}\n{e}"));
                stream += 1;
            }
        }
    }
}
