//! Rome against Rome: the civil war battle (L831-L841) and the naval blockade of a rebel's
//! reinforcements (L996-L998); digest §3.13.
//!
//! The Senate always attacks. There is no war card, so no Disaster or Standoff numbers: the
//! roll plus (Senate troops + MIL capped at troops) − (rebel troops + MIL capped) is read on the
//! Combat Results Table. Both sides lose what the table says, except that a Senate defeat costs the
//! rebel nothing (L841) and "all" falls on the loser alone. In the civil war one pool of mortality
//! chits, one per legion lost on either side, can kill either commander (L835); the blockade draws
//! none and uses fleets without MIL.

use super::battle::{COMMANDER, COMMANDER_MILITARY, MASTER_OF_HORSE_MILITARY, MAX_UNITS};
use super::battle::{DEFEAT, VICTORY, WEIGHTS_3D6};
use super::chits::Cup;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::{draw_without_replacement, Dice};
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

const OUTCOMES: [&str; 3] = ["victory", "stalemate", "defeat"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fight {
    CivilWar,
    Blockade,
}

/// One side: legion tokens (regular, veteran) or fleets, and its MIL (a distribution when rolled).
struct Side {
    regular: u32,
    veteran: u32,
    mil: Pmf,
    name: String,
}

impl Side {
    fn tokens(&self) -> u32 {
        self.regular + self.veteran
    }
}

pub struct Civil {
    fight: Fight,
    sides: [Side; 2],
    /// (modifier, probability, the victor's gain) over the two MIL distributions: the gain is half
    /// the defender's strength rounded up, which moves with the rebel's MIL.
    drms: Vec<(i32, f64, f64)>,
    cup: Cup,
    defeat_kills_commander: bool,
    schema: Schema,
    columns: Columns,
}

/// Where the quantities sit in the schema, fixed by `build` as it names them; sides are 0
/// (Senate) and 1 (rebel).
struct Columns {
    lost: [usize; 2],
    fight: FightColumns,
}

enum FightColumns {
    CivilWar(WarColumns),
    Blockade { blocked: usize },
}

struct WarColumns {
    veterans_lost: [usize; 2],
    killed: [usize; 2],
    crushed: usize,
    gain: usize,
    unrest: usize,
}

/// Both sides of a civil war may hold every legion there is.
const MOST: i64 = MAX_UNITS as i64 * 2;
const SIDES: &[&str] = &["rome", "rebel"];
const LEGIONS: Key = keys::int("legions", 0, MOST)
    .default_int(0)
    .help("the side's legions");
const VETERAN_LEGIONS: Key = keys::int("veteran_legions", 0, MOST)
    .default_int(0)
    .help("veteran legions (each counts 2)");
const FLEETS: Key = keys::int("fleets", 0, MOST).default_int(0);

pub const CIVIL_WAR_KEYS: &[Key] = &keys::placed(
    [
        LEGIONS,
        VETERAN_LEGIONS,
        COMMANDER,
        COMMANDER_MILITARY,
        MASTER_OF_HORSE_MILITARY,
    ],
    SIDES,
);
pub const BLOCKADE_KEYS: &[Key] = &[
    FLEETS.at(&["rome"]).help("fleets in Rome's port"),
    FLEETS
        .at(&["rebel"])
        .help("the rebel's naval strength (initial naval strength + provincial and own fleets)"),
];

fn parse_side(f: &Fields, fight: Fight) -> Result<Side> {
    let (units, veteran) = match fight {
        Fight::Blockade => (FLEETS, 0),
        Fight::CivilWar => (LEGIONS, VETERAN_LEGIONS.int(f)? as u32),
    };
    let regular = units.int(f)? as u32;
    if regular + veteran == 0 {
        return Err(AleaError::input(
            f.source,
            units.field(f),
            0,
            format!("at least one {}", &units.name[..units.name.len() - 1]),
        ));
    }
    let mut mil = Pmf::point(0);
    let mut name = "a commander".to_string();
    if fight == Fight::Blockade {
        return Ok(Side {
            regular,
            veteran,
            mil,
            name,
        });
    }
    if let Some(wanted) = COMMANDER.text(f)? {
        let c = super::data::commander(f.source, &COMMANDER.field(f), wanted)?;
        (name, mil) = (c.name, c.mil);
    }
    if let Some(m) = COMMANDER_MILITARY.opt_int(f)? {
        mil = Pmf::point(m as usize);
    }
    let moh = MASTER_OF_HORSE_MILITARY.int(f)? as usize;
    if moh > 0 {
        mil = mil.convolve(&Pmf::point(moh));
    }
    Ok(Side {
        regular,
        veteran,
        mil,
        name,
    })
}

pub fn build_civil_war(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    build(fields, options, Fight::CivilWar)
}

pub fn build_blockade(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    build(fields, options, Fight::Blockade)
}

fn build(fields: &Fields, options: Options, fight: Fight) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let senate = parse_side(&fields.table("rome", &empty)?, fight)?;
    let rebel = parse_side(&fields.table("rebel", &empty)?, fight)?;
    let strength = |s: &Side, m: usize| {
        let troops = s.regular + 2 * s.veteran;
        troops
            + if fight == Fight::CivilWar {
                (m as u32).min(troops)
            } else {
                0
            }
    };
    let mut drms = Vec::new();
    for (ms, &ps) in senate.mil.0.iter().enumerate().filter(|(_, p)| **p > 0.0) {
        for (mr, &pr) in rebel.mil.0.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            let gain = strength(&rebel, mr).div_ceil(2) as f64;
            drms.push((
                strength(&senate, ms) as i32 - strength(&rebel, mr) as i32,
                ps * pr,
                gain,
            ));
        }
    }
    let max_gain = drms.iter().map(|d| d.2).fold(1.0, f64::max);
    let k = options.int("mortality_draw_two") as u32;
    let mut schema = Schema::new(&OUTCOMES);
    let what = if fight == Fight::Blockade {
        "fleets"
    } else {
        "legions"
    };
    let lost = [
        schema.count(format!("senate_{what}_lost"), senate.tokens() as usize),
        schema.count(format!("rebel_{what}_lost"), rebel.tokens() as usize),
    ];
    let columns = Columns {
        lost,
        fight: if fight == Fight::CivilWar {
            FightColumns::CivilWar(WarColumns {
                veterans_lost: [
                    schema.count("senate_veterans_lost", senate.veteran as usize),
                    schema.count("rebel_veterans_lost", rebel.veteran as usize),
                ],
                killed: [
                    schema.scalar("commander_killed/senate"),
                    schema.scalar("commander_killed/rebel"),
                ],
                crushed: schema.scalar("rebellion_crushed"),
                gain: schema.scalar_bounded("senate_commander_gain", max_gain),
                unrest: schema.scalar_bounded("unrest_change", 2.0),
            })
        } else {
            FightColumns::Blockade {
                blocked: schema.scalar("reinforcements_blocked"),
            }
        },
    };
    Ok(Box::new(Civil {
        fight,
        sides: [senate, rebel],
        drms,
        cup: Cup {
            numbered: 36 - k,
            draw_two: k,
        },
        defeat_kills_commander: options.flag("civil_war_defeat_kills_commander"),
        schema,
        columns,
    }))
}

/// Result and (Senate, rebel) units lost for a modified total, the Senate attacking with `senate`
/// units against `rebel` units: both sides lose the table's number, except that a Senate defeat
/// costs the rebel nothing (L841) and "all" falls on the loser alone (L835).
pub fn civil_losses(total: i32, senate: u32, rebel: u32) -> (usize, u32, u32) {
    let (result, loss) = super::battle::crt(total);
    match (result, loss) {
        (DEFEAT, None) => (result, senate, 0),
        (DEFEAT, Some(n)) => (result, n.min(senate), 0),
        (_, None) => (result, 0, rebel),
        (_, Some(n)) => (result, n.min(senate), n.min(rebel)),
    }
}

impl Civil {
    /// Result and (Senate, rebel) units lost for a modified total.
    fn resolve(&self, total: i32) -> (usize, u32, u32) {
        civil_losses(total, self.sides[0].tokens(), self.sides[1].tokens())
    }

    fn unrest(result: usize) -> f64 {
        match result {
            DEFEAT => 2.0,
            VICTORY => -1.0,
            _ => 0.0,
        }
    }

    fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        for roll in 3..=18 {
            for &(drm, p, gain) in &self.drms {
                let w = p * WEIGHTS_3D6[roll - 3] as f64 / 216.0;
                let (result, ls, lr) = self.resolve(roll as i32 + drm);
                ex.outcomes[result] += w;
                ex.counts[self.columns.lost[0]].add_mass(ls as usize, w);
                ex.counts[self.columns.lost[1]].add_mass(lr as usize, w);
                let c = match &self.columns.fight {
                    FightColumns::Blockade { blocked } => {
                        ex.scalars[*blocked] += if result == VICTORY { w } else { 0.0 };
                        continue;
                    }
                    FightColumns::CivilWar(c) => c,
                };
                for (s, lost) in [ls, lr].into_iter().enumerate() {
                    let side = &self.sides[s];
                    let vets = Pmf::hypergeometric(
                        side.tokens() as usize,
                        side.veteran as usize,
                        lost as usize,
                    );
                    ex.counts[c.veterans_lost[s]].add_scaled(&vets, w);
                }
                let drawn = self.cup.set_aside(ls + lr).mean() / self.cup.numbered as f64;
                let senate_dies = if result == DEFEAT && self.defeat_kills_commander {
                    1.0
                } else {
                    drawn
                };
                let rebel_dies = if result == VICTORY { 1.0 } else { drawn };
                ex.scalars[c.killed[0]] += w * senate_dies;
                ex.scalars[c.killed[1]] += w * rebel_dies;
                let crushed = result == VICTORY || lr == self.sides[1].tokens();
                ex.scalars[c.crushed] += w * crushed as u32 as f64;
                if result == VICTORY {
                    ex.scalars[c.gain] += w * (1.0 - drawn) * gain;
                }
                ex.scalars[c.unrest] += w * Self::unrest(result);
            }
        }
        ex
    }
}

impl Simulate for Civil {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let roll = (dice.d(6) + dice.d(6) + dice.d(6)) as i32;
        // Each side's MIL is drawn on its own so that the rebel's gain matches his rolled strength.
        let mut pick = |mil: &Pmf| mil.sample(dice.uniform());
        let (ms, mr) = (pick(&self.sides[0].mil), pick(&self.sides[1].mil));
        let strength = |s: &Side, m: usize| {
            let troops = s.regular + 2 * s.veteran;
            troops
                + if self.fight == Fight::CivilWar {
                    (m as u32).min(troops)
                } else {
                    0
                }
        };
        let drm = strength(&self.sides[0], ms) as i32 - strength(&self.sides[1], mr) as i32;
        let (result, ls, lr) = self.resolve(roll + drm);
        out.outcome = result;
        out.counts[self.columns.lost[0]] = ls;
        out.counts[self.columns.lost[1]] = lr;
        let c = match &self.columns.fight {
            FightColumns::Blockade { blocked } => {
                out.scalars[*blocked] = (result == VICTORY) as u32 as f64;
                return;
            }
            FightColumns::CivilWar(c) => c,
        };
        for (s, lost) in [ls, lr].into_iter().enumerate() {
            let side = &self.sides[s];
            out.counts[c.veterans_lost[s]] =
                draw_without_replacement(dice, [side.regular, side.veteran], lost)[1];
        }
        // One pool of chits; each commander has his own chit in it.
        let (senate_drawn, _) = self.cup.draw(ls + lr, true, dice);
        let total = ls + lr;
        let rebel_drawn = self.other_drawn(total, senate_drawn, dice);
        let senate_dies = senate_drawn || (result == DEFEAT && self.defeat_kills_commander);
        out.scalars[c.killed[0]] = senate_dies as u32 as f64;
        out.scalars[c.killed[1]] = (rebel_drawn || result == VICTORY) as u32 as f64;
        out.scalars[c.crushed] = (result == VICTORY || lr == self.sides[1].tokens()) as u32 as f64;
        if result == VICTORY && !senate_drawn {
            out.scalars[c.gain] = strength(&self.sides[1], mr).div_ceil(2) as f64;
        }
        out.scalars[c.unrest] = Self::unrest(result);
    }
}

impl Civil {
    /// Whether a second commander's chit was drawn in the same pool: the rebel's marginal chance is
    /// the same as the Senate commander's; a fresh draw keeps the simulation simple and exact in the
    /// marginals the report gives (the joint fate of the two commanders is not reported).
    fn other_drawn(&self, owed: u32, _first: bool, dice: &mut Dice) -> bool {
        self.cup.draw(owed, true, dice).0
    }
}

impl BattleModel for Civil {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        let unit = if self.fight == Fight::Blockade {
            "fleets"
        } else {
            "legions"
        };
        ["Senate", "rebel"]
            .iter()
            .zip(&self.sides)
            .map(|(who, s)| {
                let vets = if s.veteran > 0 {
                    format!(" + {} veteran", s.veteran)
                } else {
                    String::new()
                };
                let mil = if self.fight == Fight::Blockade {
                    String::new()
                } else {
                    format!("; {}, MIL {:.1}", s.name, s.mil.mean())
                };
                format!("{who}: {} {unit}{vets}{mil}", s.regular)
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let mut n = vec!["no war card, so no Disaster or Standoff numbers (A-28)".to_string()];
        if self.fight == Fight::Blockade {
            n.push("a Senate victory keeps the rebel's reinforcements in their province; anything else lands them in Italy".into());
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    fn civil(fight: Fight, text: &str) -> Box<dyn BattleModel> {
        let table: Table = text.parse().unwrap();
        let f = Fields::new("test", &table);
        build(&f, Options::defaults(super::super::OPTIONS), fight).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_senate_defeat_costs_the_rebel_nothing() {
        // 2 legions against 12 veterans: the Senate mostly loses, and then the rebel loses nothing.
        let c = civil(
            Fight::CivilWar,
            "[rome]\nlegions = 2\n[rebel]\nlegions = 12\ncommander_military = 3",
        );
        let ex = c.exact().unwrap();
        assert!(ex.outcomes[DEFEAT] > 0.9);
        let rebel_lost = c.schema().count_index("rebel_legions_lost").unwrap();
        assert!(ex.counts[rebel_lost].get(0) >= ex.outcomes[DEFEAT] - 1e-12);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let mut stream = 0;
        for (s, r) in [(5, 5), (12, 8), (3, 14), (20, 6)] {
            for cmd in [
                "commander_military = 2",
                "commander = \"Cn. Pompeius Magnus\"",
                "commander = \"P. Cornelius Scipio Africanus\"\nveteran_legions = 2",
            ] {
                let text = format!("[rome]\nlegions = {s}\n{cmd}\n[rebel]\nlegions = {r}\nveteran_legions = 1\ncommander_military = 3");
                let c = civil(Fight::CivilWar, &text);
                let run = McRun {
                    trials: 60_000,
                    seed: 44,
                    stream,
                    progress: &progress,
                };
                agreement(c.schema(), &c.exact().unwrap(), &c.monte_carlo(&run), 5.0)
                    .unwrap_or_else(|e| panic!("{text}\n{e}"));
                stream += 1;
            }
            let b = civil(
                Fight::Blockade,
                &format!("[rome]\nfleets = {s}\n[rebel]\nfleets = {r}"),
            );
            let run = McRun {
                trials: 60_000,
                seed: 44,
                stream,
                progress: &progress,
            };
            agreement(b.schema(), &b.exact().unwrap(), &b.monte_carlo(&run), 5.0).unwrap();
            stream += 1;
        }
    }
}
