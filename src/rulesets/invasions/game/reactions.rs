//! The province owner's reactions to an attack (XIX), at the Area level of digest §6.3: flight
//! (XIX.B) through the battle code's `flight::Flight`. Units stand in Areas, so a stack that flees
//! stays in the Area when its nation holds another province there (no border to cross), else it
//! leaves for the first adjacent Area (in the graph's order) where the nation holds a province,
//! across that border's river, range or strait (−2). A horde's province is always defended.

use super::policy::Policy;
use super::procedures;
use super::scenario::Crossing;
use super::state::{held_in, total, Units, NT};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::TEMPLATES;
use crate::rulesets::invasions::flight::Flight;

fn cavalry(u: &Units) -> u32 {
    (0..NT)
        .filter(|&k| TEMPLATES[k].cavalry)
        .map(|k| u[k] as u32)
        .sum()
}

impl Play<'_> {
    /// Whether the `defenders` of province `p` flee `n`'s `attackers` coming from Area `from`:
    /// the owner's policy decides whether to try, the D10 whether it works. True when they got
    /// away (and moved, if they left the Area).
    #[allow(clippy::too_many_arguments)]
    pub fn flight(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        attackers: &Units,
        defenders: &Units,
        horde: bool,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let o = self.st.owner[p] as usize;
        if horde || g.inactive[o] {
            return false;
        }
        let a = s.provinces[p].area as usize;
        let stays = s.areas[a]
            .provinces
            .iter()
            .any(|&q| q as usize != p && self.st.owner[q as usize] == o as u8);
        let destination = if stays {
            Some((a, false))
        } else {
            s.areas[a]
                .links
                .iter()
                .find(|l| {
                    let to = l.to as usize;
                    self.may_enter(o, to) && held_in(s, &self.st, o, to) > 0
                })
                .map(|l| {
                    let crossing = l.river || l.mountains || l.crossing == Crossing::Strait;
                    (l.to as usize, crossing)
                })
        };
        let Some((to, crossing)) = destination else {
            return false;
        };
        let flight = Flight {
            leader: 0,
            units: total(defenders),
            cavalry: cavalry(defenders),
            enemy_units: total(attackers),
            enemy_cavalry: cavalry(attackers),
            fortified_city: self.st.level[p] > 0 && self.st.walls[p] != 0,
            crossing,
            entering_double: g.flight_entering_double,
            as_extracted: g.minus_signs_lost,
        };
        let tries = match g.policies[o] {
            Policy::Scripted(sc) => {
                let sides = [
                    self.fighter(n, *attackers, false),
                    self.fighter(o, *defenders, horde),
                ];
                let p_attacker = self.battles.p_attacker(self.ground(from, p), sides);
                1.0 - p_attacker < sc.flee
            }
            Policy::Random => procedures::d2(dice),
        };
        if !tries {
            return false;
        }
        let fled = flight.roll(dice);
        game_log!(
            log,
            "{} {} from {} (P {:.2})",
            g.name(o),
            if fled { "flees" } else { "fails to flee" },
            s.provinces[p].name,
            flight.p()
        );
        if fled {
            self.st.counters.flights += 1;
            if to != a {
                for k in 0..NT {
                    self.st.at_mut(o, a)[k] -= defenders[k];
                    self.st.at_mut(o, to)[k] += defenders[k];
                }
            }
        }
        fled
    }
}
