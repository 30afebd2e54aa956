//! Naval battle (rule 4.1, L673-L694; digest §3.1, §9.1).
//!
//! One simultaneous exchange: a d10 per fleet, at most 20, hitting on 9+ after the port modifier
//! (+1 per two ports or fraction in excess). No leaders, no veterans.

use super::winner::{decide, Sizes, Winner, WinnerRule};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial, LOSSES};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::{Fields, MAX_COUNT};
use toml::Table;

pub const DICE_CAP: u32 = 20;
use super::SIDES;
/// Fleets more than the enemy's needed to cross a sea (L669) or blockade its ports (L166).
const CONTROL_MARGIN: u32 = 10;

/// Where a naval battle's quantities sit in its schema, fixed by [`NavalBattle::new`] as it
/// names them.
#[derive(Clone, Debug)]
struct Columns {
    losses: [usize; 2],
    annihilated: [usize; 2],
    vp: [usize; 2],
    stability: [usize; 2],
    sea_control: [usize; 2],
    attrition_losses: [usize; 2],
}

/// The naval rules in force, resolved once from the options (shared by the calculator and the game).
#[derive(Clone, Copy, Debug)]
pub struct NavalRules {
    ceil_half: bool,
    one_misses: bool,
    ratio_rolling: bool,
    rule: WinnerRule,
    excess_vp_always: bool,
}

impl NavalRules {
    pub fn new(options: &Options) -> NavalRules {
        NavalRules {
            ceil_half: options.choice("port_modifier") == "ceil-half",
            one_misses: options.flag("natural_one_misses"),
            ratio_rolling: options.choice("ratio_basis") == "rolling-units",
            rule: WinnerRule::new(6, 40, options),
            excess_vp_always: options.flag("excess_kill_vp_without_winner"),
        }
    }

    /// The natural d10 face each side needs, from the ports counting for each (A1, A2).
    pub fn targets(&self, ports: [u32; 2]) -> [i32; 2] {
        let modifier = |mine: u32, theirs: u32| -> i32 {
            let excess = mine.saturating_sub(theirs) as i32;
            if self.ceil_half {
                (excess + 1) / 2
            } else {
                excess / 2
            }
        };
        let target = |m: i32| {
            if self.one_misses {
                (9 - m).max(2)
            } else {
                9 - m
            }
        };
        [
            target(modifier(ports[0], ports[1])),
            target(modifier(ports[1], ports[0])),
        ]
    }

    pub fn sizes(&self, fleets: [u32; 2]) -> Sizes {
        Sizes {
            engaged: fleets,
            ratio: if self.ratio_rolling {
                [fleets[0].min(DICE_CAP), fleets[1].min(DICE_CAP)]
            } else {
                fleets
            },
        }
    }

    pub fn outcome(&self, losses: [u32; 2], sizes: &Sizes) -> Winner {
        decide(&self.rule, [losses[1], losses[0]], sizes, true)
    }

    /// The one exchange: each side's losses and the winner.
    #[inline]
    pub fn clash(&self, fleets: [u32; 2], ports: [u32; 2], dice: &mut Dice) -> ([u32; 2], Winner) {
        let targets = self.targets(ports);
        let ha = dice.d10_at_least(fleets[0].min(DICE_CAP), targets[0]);
        let hd = dice.d10_at_least(fleets[1].min(DICE_CAP), targets[1]);
        let losses = [hd.min(fleets[0]), ha.min(fleets[1])];
        (losses, self.outcome(losses, &self.sizes(fleets)))
    }

    /// Each side's VP (win +5, half the excess kills rounded up) and stability change.
    pub fn vp_and_stability(&self, losses: [u32; 2], winner: Winner) -> ([f64; 2], [f64; 2]) {
        let mut vp = [0.0; 2];
        let mut stability = [0.0; 2];
        for s in 0..2 {
            let won = winner.index() == s;
            if won {
                vp[s] += 5.0;
            }
            let (kills, lost) = (losses[1 - s], losses[s]);
            if kills > lost && (winner != Winner::None || self.excess_vp_always) {
                vp[s] += (kills - lost).div_ceil(2) as f64;
            }
            if winner != Winner::None {
                stability[s] = if won { 1.0 } else { -1.0 };
            }
        }
        (vp, stability)
    }
}

pub struct NavalBattle {
    fleets: [u32; 2],
    ports: [u32; 2],
    /// Natural d10 face each side needs.
    targets: [i32; 2],
    rules: NavalRules,
    sizes: Sizes,
    schema: Schema,
    columns: Columns,
}

const FLEETS: Key = keys::int("fleets", 1, MAX_COUNT)
    .required()
    .help("fleets in the sea");
const PORTS: Key = keys::count("ports")
    .help("ports on that sea counting for the side (0 = none: survivors suffer attrition)");

pub const KEYS: &[Key] = &[FLEETS.at(&SIDES), PORTS.at(&SIDES)];

fn parse_side(side: &Fields) -> Result<(u32, u32)> {
    Ok((FLEETS.int(side)? as u32, PORTS.count(side)?))
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let (fa, pa) = parse_side(&fields.table(SIDES[0], &empty)?)?;
    let (fd, pd) = parse_side(&fields.table(SIDES[1], &empty)?)?;
    Ok(Box::new(NavalBattle::new([fa, fd], [pa, pd], &options)))
}

impl NavalBattle {
    pub fn new(fleets: [u32; 2], ports: [u32; 2], options: &Options) -> NavalBattle {
        let rules = NavalRules::new(options);
        let mut schema = Schema::new(super::OUTCOMES);
        let losses = [0, 1].map(|s| {
            schema.count(
                side_column(SIDES[s], LOSSES),
                fleets[s].min(DICE_CAP) as usize,
            )
        });
        let mut per_side = |group: &str, bound: [f64; 2]| {
            [0, 1].map(|s| schema.scalar_bounded(format!("{group}/{}", SIDES[s]), bound[s]))
        };
        let vp_bound = 5.0 + (DICE_CAP / 2) as f64;
        let columns = Columns {
            losses,
            annihilated: per_side("annihilated", [1.0; 2]),
            vp: per_side("vp", [vp_bound; 2]),
            stability: per_side("stability", [1.0; 2]),
            sea_control: per_side("sea_control", [1.0; 2]),
            attrition_losses: per_side("attrition_losses", fleets.map(|f| f as f64)),
        };
        NavalBattle {
            fleets,
            ports,
            targets: rules.targets(ports),
            sizes: rules.sizes(fleets),
            rules,
            schema,
            columns,
        }
    }

    fn hit_probability(&self, s: usize) -> f64 {
        ((11 - self.targets[s]).clamp(0, 10)) as f64 / 10.0
    }

    fn vp_and_stability(&self, losses: [u32; 2], winner: Winner) -> ([f64; 2], [f64; 2]) {
        self.rules.vp_and_stability(losses, winner)
    }

    fn survivors(&self, losses: [u32; 2]) -> [u32; 2] {
        [self.fleets[0] - losses[0], self.fleets[1] - losses[1]]
    }

    fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns;
        let hits: Vec<Pmf> = (0..2)
            .map(|s| {
                Pmf::binomial(
                    self.fleets[s].min(DICE_CAP) as usize,
                    self.hit_probability(s),
                )
            })
            .collect();
        for (ha, &pa) in hits[0].0.iter().enumerate() {
            for (hd, &pd) in hits[1].0.iter().enumerate() {
                let w = pa * pd;
                if w == 0.0 {
                    continue;
                }
                let losses = [
                    (hd as u32).min(self.fleets[0]),
                    (ha as u32).min(self.fleets[1]),
                ];
                let winner = self.rules.outcome(losses, &self.sizes);
                ex.outcomes[winner.index()] += w;
                let (vp, stability) = self.vp_and_stability(losses, winner);
                let left = self.survivors(losses);
                for s in 0..2 {
                    ex.counts[c.losses[s]].add_mass(losses[s] as usize, w);
                    if left[s] == 0 {
                        ex.scalars[c.annihilated[s]] += w;
                    }
                    ex.scalars[c.vp[s]] += w * vp[s];
                    ex.scalars[c.stability[s]] += w * stability[s];
                    if left[s] >= left[1 - s] + CONTROL_MARGIN {
                        ex.scalars[c.sea_control[s]] += w;
                    }
                    if self.ports[s] == 0 {
                        ex.scalars[c.attrition_losses[s]] += w * 0.1 * left[s] as f64;
                    }
                }
            }
        }
        ex
    }
}

impl Simulate for NavalBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        let (losses, winner) = self.rules.clash(self.fleets, self.ports, dice);
        out.outcome = winner.index();
        let (vp, stability) = self.vp_and_stability(losses, winner);
        let left = self.survivors(losses);
        for s in 0..2 {
            out.counts[c.losses[s]] = losses[s];
            out.scalars[c.annihilated[s]] = (left[s] == 0) as u32 as f64;
            out.scalars[c.vp[s]] = vp[s];
            out.scalars[c.stability[s]] = stability[s];
            out.scalars[c.sea_control[s]] = (left[s] >= left[1 - s] + CONTROL_MARGIN) as u32 as f64;
            if self.ports[s] == 0 {
                out.scalars[c.attrition_losses[s]] = dice.d10_at_least(left[s], 10) as f64;
            }
        }
    }
}

impl BattleModel for NavalBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        (0..2)
            .map(|s| {
                format!(
                    "{}: {} fleets, {} ports; hits on a natural {}+ ({:.0}%)",
                    SIDES[s],
                    self.fleets[s],
                    self.ports[s],
                    self.targets[s].clamp(1, 11),
                    100.0 * self.hit_probability(s)
                )
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for (s, name) in SIDES.iter().enumerate() {
            if self.sizes.blocked(s) {
                notes.push(format!(
                    "the {name} has 2:1 numbers or more and cannot win (L689-L690)"
                ));
            }
            if self.ports[s] == 0 {
                notes.push(format!(
                    "the {name} owns no port on this sea: its survivors then lose 1 fleet in 10 to attrition (L464-L466)"
                ));
            }
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    fn naval(fleets: [u32; 2], ports: [u32; 2]) -> NavalBattle {
        NavalBattle::new(fleets, ports, &Options::defaults(super::super::OPTIONS))
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1.5e-6, "{a} vs {b}");
    }

    #[test]
    fn digest_d6_twenty_against_twenty() {
        let ex = naval([20, 20], [1, 1]).solve();
        close(ex.outcomes[0], 0.421057);
        close(ex.outcomes[1], 0.421057);
        close(ex.outcomes[2], 0.157885);
    }

    #[test]
    fn digest_d7_port_advantage() {
        for ports in [[1, 0], [2, 0], [3, 1]] {
            let ex = naval([20, 15], ports).solve();
            close(ex.outcomes[0], 0.418334);
            close(ex.outcomes[2], 0.574523);
            close(ex.outcomes[1], 0.007143);
        }
    }

    #[test]
    fn digest_d8_ten_against_ten() {
        let ex = naval([10, 10], [2, 2]).solve();
        close(ex.outcomes[0], 0.019565);
        close(ex.outcomes[1], 0.019565);
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_a_grid() {
        let progress = Progress::hidden();
        let mut cases = 0;
        for fa in [1, 4, 9, 15, 20, 26] {
            for fd in [2, 7, 13, 20, 30] {
                for ports in [[0, 0], [3, 1], [0, 4]] {
                    let b = naval([fa, fd], ports);
                    let ex = b.solve();
                    let run = McRun {
                        trials: 40_000,
                        seed: 5,
                        stream: cases,
                        progress: &progress,
                    };
                    if let Err(e) = agreement(&b.schema, &ex, &b.monte_carlo(&run), 5.0) {
                        panic!("{fa} v {fd}, ports {ports:?}\n{e}");
                    }
                    cases += 1;
                }
            }
        }
        assert!(cases >= 90);
    }

    #[test]
    fn floor_half_reading_needs_two_full_ports() {
        let mut t = Table::new();
        t.insert("port_modifier".into(), "floor-half".into());
        let o = Options::resolve(super::super::OPTIONS, Fields::new("t", &t)).unwrap();
        assert_eq!(NavalBattle::new([5, 5], [1, 0], &o).targets, [9, 9]);
        assert_eq!(naval([5, 5], [1, 0]).targets, [8, 9]);
    }
}
