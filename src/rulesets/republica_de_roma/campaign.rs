//! Campaign odds: one army against one war over several Combat phases (digest §8.3, multi-turn).
//!
//! Each turn after the first begins with the Mortality phase (one chit drawn, which can kill the
//! commander) and a Senate phase in which the reinforcement policy tops the army up (10 T a unit,
//! never above 25 legions or fleets); an army left without legions or without the war's fleet
//! support is then recalled. The army fights one land battle per turn. The campaign ends when the
//! war falls, the commander is lost (Defeat, killed or captured), the army is recalled, or the turns
//! run out. The war's state (strength, matching wars, leaders) is held fixed.

use super::battle::{Kind, RomanBattle, DEFEAT, VICTORY};
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::StateDist;
use crate::options::Options;
use crate::spec::Fields;
use std::collections::BTreeMap;

const OUTCOMES: [&str; 4] = ["defeated", "commander_lost", "army_recalled", "undecided"];
const DEFEATED: u8 = 0;
const COMMANDER_LOST: u8 = 1;
const RECALLED: u8 = 2;
const FIGHTING: u8 = 3;
const COST_PER_UNIT: f64 = 10.0;

/// Where the quantities sit in the schema, fixed by `build` as it names them.
struct Columns {
    phase_of_victory: usize,
    legions_lost: usize,
    fleets_lost: usize,
    raised: usize,
    talents: usize,
    unrest: usize,
    /// One per phase, the first phase first.
    defeated_by_phase: Vec<usize>,
}

pub struct Campaign {
    land: RomanBattle,
    phases: u32,
    /// Reinforcement targets (legions, fleets), or none.
    top_up: Option<(u32, u32)>,
    mortality_phase: bool,
    p_mortality: f64,
    schema: Schema,
    columns: Columns,
}

const PHASES: Key = keys::int("phases", 1, 30)
    .default_int(3)
    .help("Combat phases to fight");
const REINFORCEMENT: Key = keys::choice("reinforcement", &["none", "replace-losses"])
    .default_choice("none")
    .help("\"replace-losses\": the Senate tops the army up each turn, 10 T a unit");
const REINFORCE_UP_TO: Key = keys::int("reinforce_up_to", 1, super::battle::MAX_UNITS as i64)
    .absent("the army's starting legions (fleets back to the starting fleets)")
    .help("the legions to top up to");

/// The land battle's keys, and how the campaign goes on.
pub const KEYS: &[Key] = &keys::join::<23>(&[
    super::battle::KEYS,
    &[PHASES, REINFORCEMENT, REINFORCE_UP_TO],
]);

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let land = RomanBattle::build_kind(fields, options.clone(), Kind::Land, false)?;
    let phases = PHASES.int(fields)? as u32;
    let policy = REINFORCEMENT.choice(fields)?;
    let up_to = REINFORCE_UP_TO.opt_int(fields)?;
    if up_to.is_some() && policy == "none" {
        return Err(AleaError::input(
            fields.source,
            "reinforce_up_to",
            up_to.unwrap_or(0),
            "only with reinforcement = \"replace-losses\"",
        ));
    }
    let top_up = (policy == "replace-losses")
        .then(|| (up_to.map_or(land.legions(), |n| n as u32), land.fleets()));
    let mut schema = Schema::new(&OUTCOMES);
    let most = (phases * super::battle::MAX_UNITS * 2) as f64;
    let columns = Columns {
        phase_of_victory: schema.count("phase_of_victory", phases as usize),
        legions_lost: schema.scalar_bounded("legions_lost", most),
        fleets_lost: schema.scalar_bounded("fleets_lost", most),
        raised: schema.scalar_bounded("units_raised", most),
        talents: schema.scalar_bounded("talents_spent", most * COST_PER_UNIT),
        unrest: schema.scalar_bounded("unrest_change", 2.0 * phases as f64),
        defeated_by_phase: (1..=phases)
            .map(|k| schema.scalar(format!("defeated_by_phase/{k}")))
            .collect(),
    };
    let k = options.int("mortality_draw_two") as u32;
    let cup = super::chits::Cup {
        numbered: 36 - k,
        draw_two: k,
    };
    Ok(Box::new(Campaign {
        land,
        phases,
        top_up,
        mortality_phase: options.flag("campaign_mortality_phase"),
        p_mortality: cup.fate(1, true).killed,
        schema,
        columns,
    }))
}

impl Campaign {
    /// The army after the Senate phase: (regular, veteran, fleets, units raised).
    fn reinforced(&self, regular: u32, veteran: u32, fleets: u32) -> (u32, u32, u32, u32) {
        let Some((legions, target_fleets)) = self.top_up else {
            return (regular, veteran, fleets, 0);
        };
        let add_l = legions
            .saturating_sub(regular + veteran)
            .min(super::battle::MAX_UNITS - regular - veteran);
        let add_f = target_fleets
            .saturating_sub(fleets)
            .min(super::battle::MAX_UNITS - fleets);
        (regular + add_l, veteran, fleets + add_f, add_l + add_f)
    }

    fn can_fight(&self, regular: u32, veteran: u32, fleets: u32) -> bool {
        regular + veteran > 0 && fleets >= self.land.fleet_support
    }

    fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns;
        let mut branches: BTreeMap<(u32, u32, u32), Vec<super::battle::Branch>> = BTreeMap::new();
        let mut dist = StateDist::certain((
            FIGHTING,
            self.land.regular,
            self.land.veteran,
            self.land.fleets(),
        ));
        for phase in 1..=self.phases {
            let mut next = StateDist::empty();
            for (&(status, r, v, f), w) in dist.iter() {
                if status != FIGHTING {
                    next.add((status, r, v, f), w);
                    continue;
                }
                let (mut w, mut r, mut f) = (w, r, f);
                if phase > 1 {
                    if self.mortality_phase {
                        next.add((COMMANDER_LOST, 0, 0, 0), w * self.p_mortality);
                        w *= 1.0 - self.p_mortality;
                    }
                    let (r2, _, f2, raised) = self.reinforced(r, v, f);
                    ex.scalars[c.raised] += w * raised as f64;
                    ex.scalars[c.talents] += w * raised as f64 * COST_PER_UNIT;
                    (r, f) = (r2, f2);
                }
                if !self.can_fight(r, v, f) {
                    next.add((RECALLED, 0, 0, 0), w);
                    continue;
                }
                let list = branches
                    .entry((r, v, f))
                    .or_insert_with(|| self.land.with_army(r, v, f).solve_branches());
                for b in list.iter() {
                    let wb = w * b.weight;
                    ex.scalars[c.legions_lost] += wb * (b.lost_regular + b.lost_veteran) as f64;
                    ex.scalars[c.fleets_lost] += wb * b.lost_fleets as f64;
                    ex.scalars[c.unrest] += wb * b.unrest;
                    if b.result == VICTORY {
                        next.add((DEFEATED, 0, 0, 0), wb);
                        ex.counts[c.phase_of_victory].add_mass(phase as usize, wb);
                        continue;
                    }
                    if b.result == DEFEAT {
                        next.add((COMMANDER_LOST, 0, 0, 0), wb);
                        continue;
                    }
                    let lost = b.killed + b.captured;
                    next.add((COMMANDER_LOST, 0, 0, 0), wb * lost);
                    let promote = (b.veteran_gained > 0.0) as u32;
                    let state = (
                        FIGHTING,
                        r - b.lost_regular - promote,
                        v - b.lost_veteran + promote,
                        f - b.lost_fleets,
                    );
                    next.add(state, wb * (1.0 - lost));
                }
            }
            dist = next;
            ex.scalars[c.defeated_by_phase[phase as usize - 1]] =
                dist.probability(|s| s.0 == DEFEATED);
        }
        for (&(status, ..), w) in dist.iter() {
            ex.outcomes[status as usize] += w;
        }
        let defeated = ex.outcomes[DEFEATED as usize];
        ex.counts[c.phase_of_victory].add_mass(0, 1.0 - defeated);
        ex
    }
}

impl Simulate for Campaign {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        let (mut r, mut v, mut f) = (self.land.regular, self.land.veteran, self.land.fleets());
        let mut status = FIGHTING;
        for phase in 1..=self.phases {
            if phase > 1 {
                if self.mortality_phase && dice.chance(self.p_mortality) {
                    status = COMMANDER_LOST;
                    break;
                }
                let (r2, _, f2, raised) = self.reinforced(r, v, f);
                out.scalars[c.raised] += raised as f64;
                out.scalars[c.talents] += raised as f64 * COST_PER_UNIT;
                (r, f) = (r2, f2);
            }
            if !self.can_fight(r, v, f) {
                status = RECALLED;
                break;
            }
            let b = self.land.simulate_once(dice, r, v, f, None);
            out.scalars[c.legions_lost] += (b.lost_regular + b.lost_veteran) as f64;
            out.scalars[c.fleets_lost] += b.lost_fleets as f64;
            out.scalars[c.unrest] += b.unrest;
            if b.result == VICTORY {
                status = DEFEATED;
                out.counts[c.phase_of_victory] = phase;
                for k in phase..=self.phases {
                    out.scalars[c.defeated_by_phase[k as usize - 1]] = 1.0;
                }
                break;
            }
            if b.result == DEFEAT || b.killed || b.captured {
                status = COMMANDER_LOST;
                break;
            }
            let promote = b.veteran_gained as u32;
            (r, v, f) = (
                r - b.lost_regular - promote,
                v - b.lost_veteran + promote,
                f - b.lost_fleets,
            );
        }
        out.outcome = status as usize;
    }
}

impl BattleModel for Campaign {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        let mut d = self.land.describe();
        d.push(match self.top_up {
            None => format!("campaign: up to {} Combat phases, no reinforcements", self.phases),
            Some((l, f)) => format!("campaign: up to {} Combat phases, losses replaced up to {l} legions and {f} fleets (10 T a unit)", self.phases),
        });
        d
    }

    fn notes(&self) -> Vec<String> {
        let mut n = self.land.notes();
        if self.mortality_phase {
            n.push(format!(
                "each later turn the commander faces the Mortality phase: {:.2}% a turn",
                100.0 * self.p_mortality
            ));
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
    use toml::Table;

    fn campaign(text: &str) -> Box<dyn BattleModel> {
        let table: Table = text.parse().unwrap();
        let f = Fields::new("test", &table);
        let empty = Table::new();
        let options =
            Options::resolve(super::super::OPTIONS, f.table("options", &empty).unwrap()).unwrap();
        build(&f, options).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn one_phase_is_the_single_battle() {
        let text =
            "[rome]\nlegions = 9\ncommander_military = 4\n[war]\nname = \"Gladiator Revolt\"";
        let c = campaign(&format!("phases = 1\n{text}"));
        let ex = c.exact().unwrap();
        let table: Table = text.parse().unwrap();
        let f = Fields::new("t", &table);
        let land = RomanBattle::build_kind(
            &f,
            Options::defaults(super::super::OPTIONS),
            Kind::Land,
            false,
        )
        .unwrap()
        .solve();
        assert!((ex.outcomes[DEFEATED as usize] - land.outcomes[VICTORY]).abs() < 1e-12);
        assert!((ex.outcomes.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn more_phases_and_reinforcements_help() {
        let base = "[rome]\nlegions = 8\nfleets = 3\ncommander_military = 3\n[war]\nname = \"1st Illyrian War\"";
        let p = |phases: u32, policy: &str| {
            campaign(&format!("phases = {phases}\n{policy}\n{base}"))
                .exact()
                .unwrap()
                .outcomes[0]
        };
        assert!(p(3, "") > p(1, ""));
        assert!(p(5, "reinforcement = \"replace-losses\"") >= p(5, ""));
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let mut stream = 0;
        let plans = [
            ("phases = 4", ""),
            (
                "phases = 3\nreinforcement = \"replace-losses\"\nreinforce_up_to = 10",
                "",
            ),
            ("phases = 2", "[options]\ncampaign_mortality_phase = false"),
        ];
        for (legions, fleets, war) in [
            (6, 3, "1st Illyrian War"),
            (12, 5, "2nd Punic War"),
            (4, 0, "1st Gallic War"),
        ] {
            for (plan, options) in plans {
                let text = format!(
                    "{plan}\n[rome]\nlegions = {legions}\nfleets = {fleets}\ncommander = \"Cn. Pompeius Magnus\"\n[war]\nname = \"{war}\"\n{options}"
                );
                let c = campaign(&text);
                let run = McRun {
                    trials: 60_000,
                    seed: 33,
                    stream,
                    progress: &progress,
                };
                if let Err(e) =
                    agreement(c.schema(), &c.exact().unwrap(), &c.monte_carlo(&run), 5.0)
                {
                    panic!("{text}\n{e}");
                }
                stream += 1;
            }
        }
    }
}
