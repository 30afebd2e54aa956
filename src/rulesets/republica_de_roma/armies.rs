//! Several armies against one war in one Combat phase (L663-L665; digest §3.9, test T10).
//!
//! The armies attack one at a time, in the order given, until the war is defeated; the rest do not
//! fight. Each Disaster or Standoff number applies only once per war per turn: a later army
//! that rolls a number already spent is resolved on the Combat Results Table instead.

use super::battle::{Kind, RomanBattle, VICTORY};
use super::battle::{AGAINST_WAR, ARMY_KEYS};
use crate::battle::keys::{self, Key, Type};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::StateDist;
use crate::options::Options;
use crate::spec::Fields;

const MAX_ARMIES: usize = 4;
const OUTCOMES: [&str; 2] = ["defeated", "stands"];
const RESULTS: [&str; 5] = ["victory", "stalemate", "defeat", "disaster", "standoff"];

pub struct Armies {
    armies: Vec<RomanBattle>,
    schema: Schema,
    columns: Columns,
}

/// Where the quantities sit in the schema: the losses and unrest of the whole attack, then each
/// army's battle.
struct Columns {
    legions_lost: usize,
    fleets_lost: usize,
    unrest: usize,
    armies: Vec<ArmyColumns>,
}

struct ArmyColumns {
    fought: usize,
    /// One per result of [`RESULTS`].
    results: [usize; 5],
    killed: usize,
    captured: usize,
}

const ARMIES: Key = Key::new("armies", Type::Tables(&ARMY_KEYS, 1, MAX_ARMIES))
    .required()
    .help("Rome's armies, each like [rome], in attack order");

pub const KEYS: &[Key] = &keys::join::<14>(&[&[ARMIES], &AGAINST_WAR]);

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let list = keys::entries(fields, &ARMIES)?;
    if list.is_empty() {
        return Err(ARMIES.missing(fields));
    }
    let mut armies = Vec::new();
    for army in &list {
        armies.push(RomanBattle::build_army(
            fields,
            army,
            options.clone(),
            Kind::Land,
            false,
        )?);
    }
    let mut schema = Schema::new(&OUTCOMES);
    let columns = Columns {
        legions_lost: schema.count(
            "legions_lost",
            armies.iter().map(|a| a.legions() as usize).sum(),
        ),
        fleets_lost: schema.count(
            "fleets_lost",
            armies.iter().map(|a| a.fleets() as usize).sum(),
        ),
        unrest: schema.scalar_bounded("unrest_change", 2.0 * armies.len() as f64),
        armies: (1..=armies.len())
            .map(|k| ArmyColumns {
                fought: schema.scalar(format!("army/{k}/fought")),
                results: RESULTS.map(|r| schema.scalar(format!("army/{k}/{r}"))),
                killed: schema.scalar(format!("army/{k}/commander_killed")),
                captured: schema.scalar(format!("army/{k}/commander_captured")),
            })
            .collect(),
    };
    Ok(Box::new(Armies {
        armies,
        schema,
        columns,
    }))
}

impl Armies {
    fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns;
        // State: (war defeated, Disaster/Standoff numbers spent, legions lost, fleets lost so far).
        let mut dist = StateDist::certain((false, 0u32, 0u32, 0u32));
        for (k, army) in self.armies.iter().enumerate() {
            let mut next = StateDist::empty();
            for (&(defeated, used, ll, lf), w) in dist.iter() {
                if defeated {
                    next.add((defeated, used, ll, lf), w);
                    continue;
                }
                let ac = &c.armies[k];
                ex.scalars[ac.fought] += w;
                for b in army.solve_branches_used(used) {
                    let wb = w * b.weight;
                    ex.scalars[ac.results[b.result]] += wb;
                    ex.scalars[ac.killed] += wb * b.killed;
                    ex.scalars[ac.captured] += wb * b.captured;
                    ex.scalars[c.unrest] += wb * b.unrest;
                    let lost = (ll + b.lost_regular + b.lost_veteran, lf + b.lost_fleets);
                    next.add((b.result == VICTORY, used | b.spends, lost.0, lost.1), wb);
                }
            }
            dist = next;
        }
        for (&(defeated, _, ll, lf), w) in dist.iter() {
            ex.outcomes[if defeated { 0 } else { 1 }] += w;
            ex.counts[c.legions_lost].add_mass(ll as usize, w);
            ex.counts[c.fleets_lost].add_mass(lf as usize, w);
        }
        ex
    }
}

impl Simulate for Armies {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        let (mut used, mut ll, mut lf) = (0u32, 0u32, 0u32);
        out.outcome = 1;
        for (army, ac) in self.armies.iter().zip(&c.armies) {
            let b = army.simulate_used(dice, army.regular, army.veteran, army.fleets(), None, used);
            out.scalars[ac.fought] = 1.0;
            out.scalars[ac.results[b.result]] = 1.0;
            out.scalars[ac.killed] = b.killed as u32 as f64;
            out.scalars[ac.captured] = b.captured as u32 as f64;
            out.scalars[c.unrest] += b.unrest;
            used |= b.spends;
            ll += b.lost_regular + b.lost_veteran;
            lf += b.lost_fleets;
            if b.result == VICTORY {
                out.outcome = 0;
                break;
            }
        }
        out.counts[c.legions_lost] = ll;
        out.counts[c.fleets_lost] = lf;
    }
}

impl BattleModel for Armies {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        let mut d: Vec<String> = self
            .armies
            .iter()
            .enumerate()
            .map(|(k, a)| format!("army {}: {}", k + 1, a.describe()[0]))
            .collect();
        if let Some(first) = self.armies.first() {
            d.push(first.describe()[1].clone());
        }
        d
    }

    fn notes(&self) -> Vec<String> {
        vec!["armies attack in order until the war falls; each Disaster or Standoff number applies once this turn (L663-L665)".into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;
    use toml::Table;

    fn armies(text: &str) -> Box<dyn BattleModel> {
        let table: Table = text.parse().unwrap();
        build(
            &Fields::new("test", &table),
            Options::defaults(super::super::OPTIONS),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn t10_a_disaster_number_is_spent_by_the_first_army() {
        // Jugurthine War: two armies; if the first rolls a Disaster number, the second's same roll
        // goes to the CRT. So the second army's P(disaster) is below the first's.
        let text = "[war]\nname = \"Jugurthine War\"\n[[armies]]\nlegions = 8\nfleets = 5\ncommander_military = 2\n[[armies]]\nlegions = 8\nfleets = 5\ncommander_military = 2";
        let b = armies(text);
        let ex = b.exact().unwrap();
        let scalar = |name: &str| ex.scalars[b.schema().scalar_index(name).unwrap()];
        let (first, second) = (scalar("army/1/disaster"), scalar("army/2/disaster"));
        let fought_second = scalar("army/2/fought");
        assert!(first > 0.0);
        // Identical armies: without the once-per-turn rule the second's disaster rate would equal the first's.
        assert!(
            second / fought_second < first - 1e-6,
            "{first} vs {}",
            second / fought_second
        );
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let mut stream = 0;
        for war in ["Jugurthine War", "Gladiator Revolt", "2nd Punic War"] {
            for second in [
                "legions = 3\ncommander_military = 0",
                "legions = 14\nveteran_legions = 3\ncommander = \"Cn. Pompeius Magnus\"",
            ] {
                let text = format!("enemy_leaders = []\n[war]\nname = \"{war}\"\nfleet_support = 0\n[[armies]]\nlegions = 6\ncommander_military = 3\n[[armies]]\n{second}\n[[armies]]\nlegions = 10\ncommander_military = 1");
                let a = armies(&text);
                let run = McRun {
                    trials: 60_000,
                    seed: 55,
                    stream,
                    progress: &progress,
                };
                agreement(a.schema(), &a.exact().unwrap(), &a.monte_carlo(&run), 5.0)
                    .unwrap_or_else(|e| panic!("{text}\n{e}"));
                stream += 1;
            }
        }
    }
}
