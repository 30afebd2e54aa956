//! Revolts (XVI; digest §4.11, §3.11) under the events stand-in of abstraction.toml `[events]`. Each
//! turn every player's event card starts a revolt with the scenario's chance (a placeholder: the
//! card texts are not in the text) against a Civilized nation of another player, drawn at random.
//! The rest is the rulebook's: the D10 selector names the player who picks the rebel province
//! (XVI.B), an Empire's rebel Area comes from the D10 table of its capital's map half (XVI.C, Q18:
//! a D2 picks the half for the united Empire), the marker is Revolt − or flips to Revolt +
//! (XVI.D), and suppression in step 2.D is the battle code's `revolt::Revolt` (XVI.F).

use super::policy::Policy;
use super::procedures::{self, MapHalf};
use super::state::{for_each_match, held_in, next_marked, NO_PROVINCE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::revolt::Revolt;

/// Expenses of a rebel province by its marker (XIV.H): none, Revolt −, Revolt +.
pub const REVOLT_COST: [i32; 3] = [0, 1, 3];

impl Play<'_> {
    /// 1.C.a: one event card per player in player order; under the revolts model a card starts a
    /// revolt with the scenario's chance, then each player's card brings a heresy with its own
    /// (religion.rs), then is the *Alliance* or the *Barbarian Coalition* event with theirs
    /// (alliances.rs).
    pub fn events(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let chance = g.scenario.revolt_chance;
        for player in 0..g.players.len() {
            if chance <= 0.0 || dice.uniform() >= chance {
                continue;
            }
            // The card's target: any active Civilized nation of another player (events never
            // target an inactive nation outside battle, X.B).
            let mut victim = None;
            let mut seen = 0u64;
            for n in 0..self.st.nations.len() {
                if self.st.civilized(n) && !g.inactive[n] && g.player_of(n) != player {
                    seen += 1;
                    if dice.below(seen) == 0 {
                        victim = Some(n);
                    }
                }
            }
            if let Some(v) = victim {
                self.start_revolt(v, dice, log);
            }
        }
        if g.scenario.heresy_chance > 0.0 {
            for _ in 0..g.players.len() {
                if dice.uniform() < g.scenario.heresy_chance {
                    self.event_heresy(dice, log);
                }
            }
        }
        // The events Alliance and Barbarian Coalition (alliances.rs), each player's card in turn.
        if g.scenario.alliance_chance > 0.0 || g.scenario.coalition_chance > 0.0 {
            for player in 0..g.players.len() {
                if dice.uniform() < g.scenario.alliance_chance {
                    self.event_alliance(player, dice, log);
                }
                if dice.uniform() < g.scenario.coalition_chance {
                    self.barbarian_coalition(player, dice, log);
                }
            }
        }
    }

    /// The map half whose revolt table applies to Empire `n`: its capital's; none (a D2 picks)
    /// for the united Roman Empire before the split or a capital on neither table, and always
    /// under option `revolt_area_half` = "d2" (Q18).
    fn map_half(&self, n: usize) -> Option<MapHalf> {
        let g = self.game;
        if g.revolt_half_by_d2 || (n == g.romani && self.st.turn < g.scenario.roman_split_turn) {
            return None;
        }
        let c = self.st.nations[n].capital;
        if c == NO_PROVINCE {
            return None;
        }
        let a = g.scenario.provinces[c as usize].area;
        let table = &g.scenario.revolt_areas;
        if table[0].contains(&a) {
            Some(MapHalf::West)
        } else if table[1].contains(&a) {
            Some(MapHalf::East)
        } else {
            None
        }
    }

    /// A revolt against `v`: the selector's player picks a province of `v` (not its capital; no
    /// leaders here), in the rolled Area for an Empire. Its own player picks where `v` has the
    /// most units per held province (the easiest to put down), another player where it has the
    /// fewest.
    pub fn start_revolt(&mut self, v: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        let picker = g.revolt_selector[procedures::roll_revolt_selector(dice)];
        let own = picker == usize::MAX || picker == g.player_of(v);
        let area = if self.st.status(v) == Some(Status::Empire) {
            let holds = |a: u8| {
                s.areas[a as usize]
                    .provinces
                    .iter()
                    .any(|&p| self.st.owner[p as usize] == v as u8)
            };
            let half = self.map_half(v);
            match procedures::roll_revolt_area(&s.revolt_areas, half, holds, dice) {
                Some(a) => Some(a as usize),
                None => return,
            }
        } else {
            None
        };
        let capital = self.st.nations[v].capital;
        // (units, held provinces, province) of the pick so far, compared without division.
        let mut pick: Option<(u64, u64, usize)> = None;
        // `v`'s provinces in increasing order (it holds few of the map's).
        for_each_match(&self.st.owner, &self.st.owner, v as u8, |p| {
            let a = s.provinces[p].area as usize;
            if p == capital as usize || area.is_some_and(|x| x != a) {
                return;
            }
            let units = self.st.count(v, a) as u64;
            let held = held_in(s, &self.st, v, a) as u64;
            let better = match pick {
                None => true,
                Some((u, h, _)) if own => units * h > u * held,
                Some((u, h, _)) => units * h < u * held,
            };
            if better {
                pick = Some((units, held, p));
            }
        });
        let Some((_, _, p)) = pick else { return };
        let marker = (self.st.revolt[p] + 1).min(2);
        self.st.set_revolt(s, p, marker);
        self.st.counters.revolts += 1;
        game_log!(
            log,
            "revolt in {} against {} (Revolt {})",
            s.provinces[p].name,
            g.name(v),
            if marker == 2 { "+" } else { "-" }
        );
    }

    /// Gold a turn the rebel provinces of `n` cost (XIV.H).
    pub fn revolt_expenses(&self, n: usize) -> i32 {
        let st = &self.st;
        // Most nations hold no rebel province (the running totals): no scan then.
        if st.totals.rebels_held[n] == 0 {
            return 0;
        }
        let mut cost = 0;
        let mut from = 0;
        while let Some(p) = self.next_revolt(n, from) {
            cost += REVOLT_COST[st.revolt[p] as usize];
            from = p + 1;
        }
        cost
    }

    /// The first province from `from` on that `n` holds in revolt.
    fn next_revolt(&self, n: usize, from: usize) -> Option<usize> {
        next_marked(&self.st.owner, &self.st.revolt, n as u8, from)
    }

    /// 2.D: suppression of each rebel province of `n` where its units stand (at the Area level,
    /// its units in the Area spread over the provinces it holds there), when the policy judges
    /// the battle code's P(success) worth a unit; a failure costs the cheapest unit there.
    pub fn suppress_revolts(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        if self.st.totals.rebels_held[n] == 0 {
            return;
        }
        let mut from = 0;
        while let Some(p) = self.next_revolt(n, from) {
            from = p + 1;
            let a = s.provinces[p].area as usize;
            let held = held_in(s, &self.st, n, a).max(1);
            let units = self.st.count(n, a) / held;
            if units == 0 {
                continue;
            }
            let leader = self.leader_in(n, a);
            let revolt = Revolt {
                units,
                leader: leader.map(|r| r.combat as u32),
                heretical: self.heretical(n, a),
                religion_differs: self.religion_differs(n, a),
                as_extracted: g.minus_signs_lost,
            };
            let attempt = match self.policy(n) {
                Policy::Scripted(sc) => revolt.p() >= sc.suppress,
                Policy::Random => procedures::d2(dice),
            };
            if !attempt {
                continue;
            }
            let suppressed = revolt.roll(dice);
            if suppressed {
                self.st.set_revolt(&g.scenario, p, 0);
                self.st.counters.revolts_suppressed += 1;
            } else {
                self.st.lose_cheapest(n, a, 1);
                // With one unit there, the leader dies on a failed D2 (XVI.F, Q31).
                if units == 1 && leader.is_some() && !procedures::d2(dice) {
                    self.leader_falls(n, log);
                }
            }
            game_log!(
                log,
                "{} {} the revolt in {} (P {:.2})",
                g.name(n),
                if suppressed {
                    "puts down"
                } else {
                    "fails to put down"
                },
                s.provinces[p].name,
                revolt.p()
            );
        }
    }
}
