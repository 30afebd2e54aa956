//! The province owner's reactions to an attack (XIX), at the Area level of digest §6.3:
//! interception (XIX.A) through the battle code's `interception` rolls, then flight (XIX.B)
//! through its `flight::Flight`.
//!
//! Interception: the owner's units in the province's Area already defend it, so one stack (with
//! the nation's leader if he stands there: his combat bonus and stacking) may come from one
//! adjacent Area ("within 3 steps" read as an adjacent
//! Area, §6.3, counted as 2 steps: no distance modifier), the one with the most units the policy
//! can spare, never the attackers' own Area; −2 for a range or strait on that border, −2 more for
//! the Bosporus (Graecia–Asia); only as many units as the stacking limit leaves room for.
//!
//! Flight: units stand in Areas, so a stack that flees
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
use crate::rulesets::invasions::interception::{self, Reacting};

fn cavalry(u: &Units) -> u32 {
    (0..NT)
        .filter(|&k| TEMPLATES[k].cavalry)
        .map(|k| u[k] as u32)
        .sum()
}

impl Play<'_> {
    /// Whether the owner of province `p`, attacked by `n` from Area `from` with `attackers`,
    /// intercepts: its policy decides whether to try, the D10 whether the stack arrives (it then
    /// stands in the province's Area). True when units arrived.
    pub fn interception(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        attackers: &Units,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let o = self.st.owner[p];
        if o == super::state::NONE || g.inactive[o as usize] {
            return false;
        }
        let o = o as usize;
        let a = s.provinces[p].area as usize;
        let (defenders, horde) = self.defenders(p);
        // The limit counts the best stacking bonus of the leaders in the target once the stack
        // arrives: the one already there, or one coming with it.
        let here = self.limit(p, false) + self.leader_stacking(o, a);
        let leader_area = self.st.nations[o].leader.area as usize;
        if here <= total(&defenders)
            && (leader_area == a || self.st.nations[o].leader.area == super::state::NONE)
        {
            return false;
        }
        let keep = match self.policy(o) {
            Policy::Scripted(sc) => sc.garrison as u32,
            Policy::Random => 0,
        };
        // The adjacent Area with the most units to spare (the first in the graph on ties).
        let mut source: Option<(usize, u32, bool, bool)> = None;
        for l in &s.areas[a].links {
            let b = l.to as usize;
            let spare = self.st.count(o, b).saturating_sub(keep);
            // Never across a strait blockaded against it (XXV.F, blockade.rs).
            if b == from
                || spare == 0
                || source.is_some_and(|x| spare <= x.1)
                || !self.border_open(o, l)
            {
                continue;
            }
            let crossing = l.mountains || l.crossing == Crossing::Strait;
            let names = [s.areas[a].name.as_str(), s.areas[b].name.as_str()];
            let bosporus = l.crossing == Crossing::Strait
                && names.contains(&"Graecia")
                && names.contains(&"Asia");
            source = Some((b, spare, crossing, bosporus));
        }
        let Some((b, spare, crossing, bosporus)) = source else {
            return false;
        };
        let leader = self.leader_in(o, b);
        let limit = here.max(self.limit(p, false) + self.leader_stacking(o, b));
        let room = limit.saturating_sub(total(&defenders));
        if room == 0 {
            return false;
        }
        let stack = Reacting {
            units: spare.min(room),
            leader: leader.map(|r| r.combat as u32),
            stacking: leader.map_or(0, |r| r.stacking as u32),
            capital: self.st.nations[o].capital as usize == p,
            empire: self.st.status(o) == Some(crate::rulesets::invasions::army::Status::Empire),
            distance: 2,
            crossings: crossing as u32,
            bosporus,
        };
        let m = stack.modifier(if g.minus_signs_lost { 1 } else { -1 });
        let tries = match self.policy(o) {
            Policy::Scripted(sc) => {
                let p_defence = if total(&defenders) == 0 {
                    0.0
                } else {
                    let sides = [
                        self.fighter(n, *attackers, false),
                        self.fighter(o, defenders, horde),
                    ];
                    1.0 - self.battles.p_attacker(self.ground(from, p), sides)
                };
                p_defence < sc.intercept && interception::p_intercept(m) > 0.0
            }
            Policy::Random => procedures::d2(dice),
        };
        if !tries {
            return false;
        }
        let arrived = interception::succeeds(m, dice.d10());
        game_log!(
            log,
            "{} {} {} from {} (P {:.2})",
            g.name(o),
            if arrived {
                "intercepts into"
            } else {
                "fails to intercept into"
            },
            s.provinces[p].name,
            s.areas[b].name,
            interception::p_intercept(m)
        );
        if arrived {
            self.st.counters.interceptions += 1;
            let moving = super::military::strongest(self.st.at(o, b), stack.units);
            self.st.move_units(o, b, a, &moving);
            self.leader_moves(o, b, a);
        }
        arrived
    }

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
                    self.may_enter(o, to)
                        && held_in(s, &self.st, o, to) > 0
                        && self.border_open(o, l)
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
            leader: self.leader_in(o, a).map_or(0, |r| r.combat as u32),
            units: total(defenders),
            cavalry: cavalry(defenders),
            enemy_units: total(attackers),
            enemy_cavalry: cavalry(attackers),
            fortified_city: self.st.level[p] > 0 && self.st.walls[p] != 0,
            crossing,
            entering_double: g.flight_entering_double,
            as_extracted: g.minus_signs_lost,
        };
        let tries = match self.policy(o) {
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
                self.st.move_units(o, a, to, defenders);
                self.leader_moves(o, a, to);
            }
        }
        fled
    }
}
