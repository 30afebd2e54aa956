//! Naval battle then land battle, with the same army in the same Combat phase (L751-L755).
//!
//! The army first fights the war's fleet (fleets are the troops; legions aboard share the losses).
//! If it wins, its commander is alive and free, legions remain and the surviving fleets still give
//! the war's fleet support, it fights the land battle at once with what survived (the general's
//! choice to go on is taken as yes).

use super::battle::{self, Caps, Kind, RomanBattle, VICTORY};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use std::collections::BTreeMap;

const OUTCOMES: [&str; 6] = [
    "victory",
    "stalemate",
    "defeat",
    "disaster",
    "standoff",
    "naval_victory_only",
];
const NAVAL_ONLY: usize = 5;

/// Where the quantities sit in the schema: a single battle's, then the naval victory and
/// whether the land battle was fought.
struct Columns {
    battle: battle::Columns,
    naval_won: usize,
    land_fought: usize,
}

pub struct NavalThenLand {
    naval: RomanBattle,
    land: RomanBattle,
    schema: Schema,
    columns: Columns,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(NavalThenLand::new(fields, options)?))
}

impl NavalThenLand {
    fn new(fields: &Fields, options: Options) -> Result<NavalThenLand> {
        let naval = RomanBattle::build_kind(fields, options.clone(), Kind::Naval, false)?;
        let mut land = RomanBattle::build_kind(fields, options.clone(), Kind::Land, true)?;
        // after both victories the gain is half the sum of the printed strengths, rounded up
        // (the naval half is paid at sea), or each battle's half separately.
        if options.choice("naval_land_gain") == "combined" {
            land.gain = (naval.printed + land.printed).div_ceil(2) - naval.printed.div_ceil(2);
        }
        let mut schema = Schema::new(&OUTCOMES);
        let legions = naval.legions();
        let gains = (naval.printed + land.printed).div_ceil(2) + 1;
        let caps = Caps {
            legions,
            veterans: naval.veterans(),
            fleets: naval.fleets(),
            unrest: 4.0,
            popularity: (gains + legions) as f64,
            influence: gains as f64,
            spoils: land.spoils.max(1) as f64,
        };
        let columns = Columns {
            battle: battle::Columns::add(&mut schema, caps),
            naval_won: schema.scalar("naval_victory"),
            land_fought: schema.scalar("land_battle_fought"),
        };
        Ok(NavalThenLand {
            naval,
            land,
            schema,
            columns,
        })
    }

    fn can_go_on(&self, legions_left: u32, fleets_left: u32) -> bool {
        legions_left > 0 && fleets_left >= self.land.fleet_support
    }

    fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns.battle;
        // The land battle's answer, laid out as the land battle lays it out.
        let lc = &self.land.columns;
        let naval = self.naval.solve_branches();
        let mut land_cache: BTreeMap<(u32, u32, u32), Exact> = BTreeMap::new();
        let (r0, v0, f0) = (self.naval.regular, self.naval.veteran, self.naval.fleets());
        for b in naval {
            let w = b.weight;
            let (reg_left, vet_left, fleets_left) =
                (r0 - b.lost_regular, v0 - b.lost_veteran, f0 - b.lost_fleets);
            ex.scalars[c.unrest] += w * b.unrest;
            ex.scalars[c.popularity] += w * b.popularity;
            ex.scalars[c.influence] += w * b.influence;
            ex.scalars[c.killed] += w * b.killed;
            ex.scalars[c.captured] += w * b.captured;
            if b.result == VICTORY {
                ex.scalars[self.columns.naval_won] += w;
            }
            let free = 1.0 - b.killed - b.captured;
            let goes_on = b.result == VICTORY && self.can_go_on(reg_left + vet_left, fleets_left);
            let stop_weight = if goes_on { w * (1.0 - free) } else { w };
            if stop_weight > 0.0 {
                let outcome = if b.result == VICTORY {
                    NAVAL_ONLY
                } else {
                    b.result
                };
                ex.outcomes[outcome] += stop_weight;
                ex.counts[c.legions_lost]
                    .add_mass((b.lost_regular + b.lost_veteran) as usize, stop_weight);
                ex.counts[c.veterans_lost].add_mass(b.lost_veteran as usize, stop_weight);
                ex.counts[c.fleets_lost].add_mass(b.lost_fleets as usize, stop_weight);
            }
            if !goes_on || free <= 0.0 {
                continue;
            }
            let land = land_cache
                .entry((reg_left, vet_left, fleets_left))
                .or_insert_with(|| self.land.with_army(reg_left, vet_left, fleets_left).solve());
            let wl = w * free;
            ex.scalars[self.columns.land_fought] += wl;
            for (o, &p) in land.outcomes.iter().enumerate() {
                ex.outcomes[o] += wl * p;
            }
            let shift = |pmf: &Pmf, by: u32, into: &mut Pmf| {
                for (v, &p) in pmf.0.iter().enumerate() {
                    into.add_mass(v + by as usize, wl * p);
                }
            };
            shift(
                &land.counts[lc.legions_lost],
                b.lost_regular + b.lost_veteran,
                &mut ex.counts[c.legions_lost],
            );
            shift(
                &land.counts[lc.veterans_lost],
                b.lost_veteran,
                &mut ex.counts[c.veterans_lost],
            );
            shift(
                &land.counts[lc.fleets_lost],
                b.lost_fleets,
                &mut ex.counts[c.fleets_lost],
            );
            for (k, l) in c.scalars().into_iter().zip(lc.scalars()) {
                ex.scalars[k] += wl * land.scalars[l];
            }
        }
        for (k, spec) in self.schema.counts.iter().enumerate() {
            ex.counts[k] = std::mem::replace(&mut ex.counts[k], Pmf::zeros(0)).padded(spec.max + 1);
        }
        ex
    }
}

impl Simulate for NavalThenLand {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let n = self.naval.simulate_once(
            dice,
            self.naval.regular,
            self.naval.veteran,
            self.naval.fleets(),
            None,
        );
        let mut total = n;
        out.outcome = if n.result == VICTORY {
            NAVAL_ONLY
        } else {
            n.result
        };
        out.scalars[self.columns.naval_won] = (n.result == VICTORY) as u32 as f64;
        let (reg_left, vet_left, fleets_left) = (
            self.naval.regular - n.lost_regular,
            self.naval.veteran - n.lost_veteran,
            self.naval.fleets() - n.lost_fleets,
        );
        if n.result == VICTORY
            && !n.killed
            && !n.captured
            && self.can_go_on(reg_left + vet_left, fleets_left)
        {
            let troops = reg_left + 2 * vet_left;
            let drm = self.land.drm_for_troops(troops, dice);
            let l = self
                .land
                .simulate_once(dice, reg_left, vet_left, fleets_left, Some(drm));
            out.outcome = l.result;
            out.scalars[self.columns.land_fought] = 1.0;
            total.absorb(&l);
        }
        self.columns.battle.record(&total, out);
    }
}

impl BattleModel for NavalThenLand {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        self.naval.describe()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = self.naval.notes();
        notes.push(format!(
            "after a naval victory the army fights the land battle at once if its commander is free, legions remain and {} fleets of support survive",
            self.land.fleet_support
        ));
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;
    use toml::Table;

    fn chain(text: &str) -> NavalThenLand {
        let table: Table = text.parse().unwrap();
        let f = Fields::new("test", &table);
        let empty = Table::new();
        let options =
            Options::resolve(super::super::OPTIONS, f.table("options", &empty).unwrap()).unwrap();
        NavalThenLand::new(&f, options).unwrap()
    }

    #[test]
    fn the_war_falls_only_through_both_battles() {
        let c = chain("[rome]\nlegions = 12\nfleets = 14\ncommander = \"P. Cornelius Scipio Africanus\"\n[war]\nname = \"1st Punic War\"");
        let ex = c.solve();
        assert!((ex.outcomes.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // The war falls only if both were won, so P(war defeated) = P(land victory) ≤ P(naval victory).
        let war = ex.scalars[c.columns.battle.war_defeated];
        assert!((war - ex.outcomes[VICTORY]).abs() < 1e-12);
        assert!(war > 0.0 && war < ex.scalars[c.columns.naval_won]);
        // Single naval battle, fought alone, wins as often as the chain's first step.
        let naval_alone = c.naval.solve();
        assert!((naval_alone.outcomes[VICTORY] - ex.scalars[c.columns.naval_won]).abs() < 1e-12);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let mut stream = 0;
        for (legions, veterans, fleets) in [(1, 0, 6), (6, 2, 10), (12, 0, 14), (10, 6, 25)] {
            for commander in [
                "commander_military = 0",
                "commander = \"P. Cornelius Scipio Africanus\"",
                "commander = \"Cn. Pompeius Magnus\"",
            ] {
                for options in [
                    "",
                    "[options]\nnaval_land_gain = \"separate\"\nmortality_draw_two = 0",
                ] {
                    let text = format!("[rome]\nlegions = {legions}\nveteran_legions = {veterans}\nfleets = {fleets}\n{commander}\n[war]\nname = \"1st Punic War\"\n{options}");
                    let c = chain(&text);
                    let run = McRun {
                        trials: 60_000,
                        seed: 21,
                        stream,
                        progress: &progress,
                    };
                    if let Err(e) = agreement(&c.schema, &c.solve(), &c.monte_carlo(&run), 5.0) {
                        panic!("{text}\n{e}");
                    }
                    stream += 1;
                }
            }
        }
    }
}
