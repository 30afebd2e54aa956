//! Fleets (digest §3.1, rules 3.10 and 4.1): deployment, naval battles, attrition, ports and
//! sea supremacy.

use super::state::{State, MILITARY, NONE};
use super::{Model, Policies};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mare_nostrum::Winner;

impl State {
    /// Fleet deployment, naval battles and attrition (rule 3.10, 4.1).
    pub fn naval_phase(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let nn = self.nations.len();
        let seas = model.scenario.seas.len();
        self.fleets_at_sea.fill(0);
        for n in 0..nn {
            if !self.nations[n].alive || self.nations[n].fleets == 0 {
                self.nations[n].fleet_sea = NONE;
                continue;
            }
            let s = policies[n].fleet_sea(model, self, n, dice);
            self.nations[n].fleet_sea = s;
            if (s as usize) < seas {
                self.fleets_at_sea[n * seas + s as usize] = self.nations[n].fleets;
            }
        }
        for s in 0..seas {
            for a in 0..nn {
                for b in a + 1..nn {
                    let (fa, fb) = (
                        self.fleets_at_sea[a * seas + s],
                        self.fleets_at_sea[b * seas + s],
                    );
                    if fa == 0 || fb == 0 || !self.at_war(a, b) {
                        continue;
                    }
                    let ports = [self.ports_on(model, a, s), self.ports_on(model, b, s)];
                    let (losses, winner) = model.naval.clash([fa, fb], ports, dice);
                    let (vp, stability) = model.naval.vp_and_stability(losses, winner);
                    for (i, &n) in [a, b].iter().enumerate() {
                        self.fleets_at_sea[n * seas + s] -= losses[i];
                        self.nations[n].fleets -= losses[i];
                        self.nations[n].vp += vp[i] as i64;
                        self.change_stability(n, stability[i] as i32, model.rules.optimal_vp);
                    }
                    self.battles += 1;
                    self.war_activity[a] |= 1 << b;
                    self.war_activity[b] |= 1 << a;
                    game_log!(
                        log,
                        "  naval battle in the {}: {} {} fleets v {} {} fleets; losses {} / {}; {}",
                        model.scenario.seas[s],
                        model.name(a),
                        fa,
                        model.name(b),
                        fb,
                        losses[0],
                        losses[1],
                        match winner {
                            Winner::Attacker => format!("{} wins", model.name(a)),
                            Winner::Defender => format!("{} wins", model.name(b)),
                            Winner::None => "no winner".into(),
                        }
                    );
                }
            }
        }
        // Attrition: fleets in a sea where their nation and its allies have no port lose a fleet on each 10.
        for n in 0..nn {
            let s = self.nations[n].fleet_sea as usize;
            if s >= seas || self.ports_on(model, n, s) > 0 {
                continue;
            }
            let f = self.fleets_at_sea[n * seas + s];
            let lost = dice.d10_at_least(f, 10);
            self.fleets_at_sea[n * seas + s] -= lost;
            self.nations[n].fleets -= lost;
        }
    }

    /// Ports on sea `s` counting for nation `n`: its own, its military allies', and those of
    /// independents allied to or vassal of it (L679-L683, L525).
    pub fn ports_on(&self, model: &Model, n: usize, s: usize) -> u32 {
        let bit = 1u16 << s;
        let mut count = 0;
        for &p in &model.port_provinces {
            let pr = &self.provinces[p];
            if pr.ports & bit == 0 || pr.occupier != NONE {
                continue;
            }
            let o = pr.owner;
            if o != NONE {
                if o as usize == n || self.allied(n, o as usize) {
                    count += 1;
                }
            } else if pr.grade[n] >= MILITARY {
                count += 1;
            }
        }
        count
    }

    /// Whether nation `n` may cross sea `s` this turn: 10 more own and allied fleets than hostile (L669).
    pub fn sea_supremacy(&self, model: &Model, n: usize, s: usize) -> bool {
        let seas = model.scenario.seas.len();
        let (mut own, mut enemy) = (0, 0);
        for m in 0..self.nations.len() {
            let f = self.fleets_at_sea[m * seas + s];
            if m == n || self.allied(n, m) {
                own += f;
            } else if self.at_war(n, m) {
                enemy += f;
            }
        }
        own >= enemy + 10
    }
}
