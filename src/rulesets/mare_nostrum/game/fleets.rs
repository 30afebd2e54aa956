//! Fleets (digest §3.1, rules 3.10 and 4.1): deployment, naval battles, attrition, ports and
//! sea supremacy.

use super::searches::fresh_generation;
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
        // Nothing in this phase changes whose ports count: counted once for every nation and sea.
        let ports = self.ports_by_sea(model);
        self.fleets_at_sea.fill(0);
        self.fleets_generation = fresh_generation();
        for n in 0..nn {
            if !self.nations[n].alive || self.nations[n].fleets == 0 {
                self.nations[n].fleet_sea = NONE;
                continue;
            }
            let s = policies[n].fleet_sea(model, self, n, dice);
            self.nations[n].fleet_sea = s;
            if (s as usize) < seas {
                self.fleets_at_sea[n * seas + s as usize] = self.nations[n].fleets;
                self.fleets_generation = fresh_generation();
            }
        }
        for s in 0..seas {
            // Only nations with fleets here can fight here (battles only take fleets away).
            let present = (0..nn)
                .filter(|&m| self.fleets_at_sea[m * seas + s] > 0)
                .fold(0u16, |mask, m| mask | 1 << m);
            let mut first = present;
            while first != 0 {
                let a = first.trailing_zeros() as usize;
                first &= first - 1;
                let mut second = first;
                while second != 0 {
                    let b = second.trailing_zeros() as usize;
                    second &= second - 1;
                    let (fa, fb) = (
                        self.fleets_at_sea[a * seas + s],
                        self.fleets_at_sea[b * seas + s],
                    );
                    if fa == 0 || fb == 0 || !self.at_war(a, b) {
                        continue;
                    }
                    let ports = [ports[a][s], ports[b][s]];
                    let (losses, winner) = model.naval.clash([fa, fb], ports, dice);
                    let (vp, stability) = model.naval.vp_and_stability(losses, winner);
                    for (i, &n) in [a, b].iter().enumerate() {
                        self.fleets_at_sea[n * seas + s] -= losses[i];
                        self.fleets_generation = fresh_generation();
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
            if s >= seas || ports[n][s] > 0 {
                continue;
            }
            let f = self.fleets_at_sea[n * seas + s];
            let lost = dice.d10_at_least(f, 10);
            self.fleets_at_sea[n * seas + s] -= lost;
            self.fleets_generation = fresh_generation();
            self.nations[n].fleets -= lost;
        }
    }

    /// Ports on sea `s` counting for nation `n`: its own, its military allies', and those of
    /// independents allied to or vassal of it (L679-L683, L525). The game reads them from
    /// [`State::ports_by_sea`]; this count, one nation and sea at a time, is what tests hold it to.
    #[cfg(test)]
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

    /// The ports counting for every nation on every sea (`[nation][sea]`), in one pass over the ports:
    /// its own, its military allies', and those of independents allied to or vassal of it (L679-L683, L525).
    pub fn ports_by_sea(&self, model: &Model) -> [[u32; 16]; 16] {
        let nn = self.nations.len();
        let nations = ((1u32 << nn) - 1) as u16;
        // Whose ports count for whom: an owner's for itself and for the nations allied to it.
        let mut counts_for = [0u16; 16];
        for (o, mask) in counts_for.iter_mut().enumerate().take(nn) {
            *mask = 1 << o;
        }
        for n in 0..nn {
            let mut allies = self.nations[n].military;
            while allies != 0 {
                let o = allies.trailing_zeros() as usize;
                allies &= allies - 1;
                counts_for[o] |= 1 << n;
            }
        }
        let mut table = [[0u32; 16]; 16];
        for &p in &model.port_provinces {
            let pr = &self.provinces[p];
            if pr.occupier != NONE {
                continue;
            }
            let mut holders = if pr.owner != NONE {
                counts_for[pr.owner as usize]
            } else {
                pr.grades_at_least(MILITARY) & nations
            };
            while holders != 0 {
                let n = holders.trailing_zeros() as usize;
                holders &= holders - 1;
                let mut seas = pr.ports;
                while seas != 0 {
                    let s = seas.trailing_zeros() as usize;
                    seas &= seas - 1;
                    table[n][s] += 1;
                }
            }
        }
        table
    }

    /// The seas nation `n` may cross this turn, as a mask: where it has 10 more own and allied
    /// fleets than hostile (L669). Movement asks this for every route and target search, so it
    /// walks only the nations that count.
    pub fn supremacy(&self, model: &Model, n: usize) -> u16 {
        let seas = model.scenario.seas.len();
        let friends = self.nations[n].military | 1 << n;
        let enemies = self.nations[n].at_war & !friends;
        let mut mask = 0;
        for s in 0..seas {
            let own = self.fleets_of(friends, seas, s);
            if own >= 10 && own >= self.fleets_of(enemies, seas, s) + 10 {
                mask |= 1 << s;
            }
        }
        mask
    }

    /// The fleets the `nations` (a mask) have at sea `s` of `seas`, walking only their bits.
    pub fn fleets_of(&self, mut nations: u16, seas: usize, s: usize) -> u32 {
        let mut total = 0;
        while nations != 0 {
            let m = nations.trailing_zeros() as usize;
            nations &= nations - 1;
            total += self.fleets_at_sea[m * seas + s];
        }
        total
    }
}
