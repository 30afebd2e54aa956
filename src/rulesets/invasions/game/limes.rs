//! The Roman Limes (XVIII.I, digest §3.4) at the Area level: a Limes stands in the placeholder
//! frontier provinces of abstraction.toml `[limes]` while a Roman nation holds them, up to the
//! rulebook's last Limes turn (7); the Purchases of the next turn remove them all. A supported
//! Limes fights in the battle code's land battle (`limes` on its field: +1 die or +1 column,
//! may take a hit, destroyed when the Romans lose); an unsupported one is destroyed at once and
//! hits the invader on a passed D2 (the battle code's `Limes`, Q27), before any interceptor
//! arrives. A Limes lost and retaken, or destroyed in a province still Roman, is rebuilt for
//! free (done at the start of the Military phase, after Purchases); an Incursion + removes it.

use super::assault::siege_stack;
use super::state::{cheapest_first, total, Units};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::game::procedures::d2;
use crate::rulesets::invasions::limes::Limes;

impl Play<'_> {
    /// Whether a Limes defends province `p` now.
    pub(super) fn limes_stands(&self, p: usize) -> bool {
        let o = self.st.owner[p];
        self.st.limes[p]
            && self.st.turn <= self.game.scenario.limes_last_turn
            && o != super::state::NONE
            && self.game.roman[o as usize]
    }

    /// XVIII.I: the Limes leave the map, each one standing (in a province its Roman nation holds)
    /// turned into the scenario's local units of that nation in the province's Area (Roman aid P,
    /// Byzantine aid R: their counts are the placeholder `[limes]` local_units).
    pub(super) fn limes_into_local_units(&mut self) {
        let g = self.game;
        let s = &g.scenario;
        for &p in &s.limes {
            let p = p as usize;
            let o = self.st.owner[p];
            if !self.st.limes[p] || o == super::state::NONE || !g.roman[o as usize] {
                self.st.limes[p] = false;
                continue;
            }
            self.st.limes[p] = false;
            let a = s.provinces[p].area as usize;
            for &(k, count) in &s.limes_local_units {
                self.st.add_units(o as usize, a, k as usize, count);
                self.st.counters.limes_local_units += count as u32;
            }
        }
    }

    pub(super) fn destroy_limes(&mut self, p: usize) {
        if self.st.limes[p] {
            self.st.limes[p] = false;
            self.st.counters.limes_destroyed += 1;
        }
    }

    /// Purchases rebuild, for free, every Limes of a province a Roman nation holds; in the
    /// Purchases after the last Limes turn each Limes still standing becomes local units instead.
    pub(super) fn rebuild_limes(&mut self) {
        let g = self.game;
        if self.st.turn == g.scenario.limes_last_turn + 1 {
            self.limes_into_local_units();
        }
        if self.st.turn > g.scenario.limes_last_turn {
            return;
        }
        for &p in &g.scenario.limes {
            let o = self.st.owner[p as usize];
            if o != super::state::NONE && g.roman[o as usize] {
                self.st.limes[p as usize] = true;
            }
        }
    }

    /// An invader `n` entering province `p` with `attackers` (standing in Area `from`) where a
    /// Limes stands with no Roman unit: the Limes is destroyed, and on a passed D2 its hit
    /// eliminates the invader's cheapest unit unless an elite absorbs it. False when no attacker
    /// is left to go on.
    pub(super) fn limes_alone(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        attackers: &mut Units,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        if self.game.roman[n] || !self.limes_stands(p) || total(&self.defenders(p).0) > 0 {
            return true;
        }
        self.destroy_limes(p);
        let hit = d2(dice);
        let stack = siege_stack(attackers, self.st.civilized(n));
        let limes = Limes::new(stack.units, stack.elites, true);
        let dies = hit && limes.eliminated_by_hit() == 1;
        if dies {
            if let Some(k) = cheapest_first().into_iter().find(|&k| attackers[k] > 0) {
                attackers[k] -= 1;
                self.st.at_mut(n, from)[k] -= 1;
                self.st.ledger.units_out += 1;
            }
        }
        game_log!(
            log,
            "{} destroys the Limes of {}{}",
            self.game.name(n),
            self.game.scenario.provinces[p].name,
            if hit {
                if dies {
                    ", which kills a unit"
                } else {
                    ", whose hit an elite takes"
                }
            } else {
                ""
            }
        );
        total(attackers) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
    use crate::rulesets::invasions::game::game_tests::check_invariants;
    use crate::rulesets::invasions::game::policy::{Policy, Scripted};
    use crate::rulesets::invasions::game::state::{template, NT};
    use crate::rulesets::invasions::passage;

    use crate::rulesets::invasions::game::game_tests::bundled_game as game;

    #[test]
    fn a_limes_stands_in_roman_hands_until_turn_7_and_is_rebuilt_when_retaken() {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let rome = s.nation("romani").unwrap();
        let franks = s.nation("franci").unwrap();
        let treveria = s.province("Treveria").unwrap() as usize;
        let neustria = s.province("Neustria").unwrap() as usize;
        play.st.turn = 1;
        assert_eq!(play.st.owner[treveria], rome);
        assert!(play.limes_stands(treveria));
        assert!(!play.limes_stands(neustria), "not a frontier province");
        play.st.set_owner(s, treveria, franks);
        assert!(!play.limes_stands(treveria), "a Limes is Roman");
        play.destroy_limes(treveria);
        play.st.set_owner(s, treveria, rome);
        assert!(!play.limes_stands(treveria));
        play.rebuild_limes();
        assert!(play.limes_stands(treveria), "rebuilt for free");
        play.st.turn = s.limes_last_turn + 1;
        assert_eq!(s.limes_last_turn, 7);
        assert!(!play.limes_stands(treveria), "gone from turn 8");
    }

    #[test]
    fn an_unsupported_limes_is_destroyed_and_hits_on_half_the_d2s_an_elite_flipping() {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let rome = s.nation("romani").unwrap() as usize;
        let franks = s.nation("franci").unwrap() as usize;
        let persia = s.nation("persae").unwrap() as usize;
        let treveria = s.province("Treveria").unwrap() as usize;
        let gallia = s.area("Gallia Septentrionalis").unwrap() as usize;
        let germania = s.area("Germania").unwrap() as usize;
        play.st.turn = 2;
        *play.st.at_mut(rome, gallia) = [0; NT];
        let mut four = [0u8; NT];
        four[template("infantry")] = 4;
        *play.st.at_mut(franks, germania) = four;
        let start = play.st.clone();
        let mut dice = Dice::from_seed(27);
        let trials = 20_000;
        let mut hits = 0;
        for _ in 0..trials {
            play.st.clone_from(&start);
            let mut attackers = four;
            let go = play.limes_alone(
                franks,
                germania,
                treveria,
                &mut attackers,
                &mut dice,
                &mut NoLog,
            );
            assert!(
                go && !play.st.limes[treveria],
                "always destroyed, the stack goes on"
            );
            assert_eq!(play.st.at(franks, germania), &attackers);
            hits += (total(&attackers) == 3) as u32;
        }
        let f = hits as f64 / trials as f64;
        let se = (0.25 / trials as f64).sqrt();
        assert!((f - 0.5).abs() <= 5.0 * se, "{f}");
        // A Civilized invader's elite takes the hit as a flip (Q27): nobody dies.
        let mut elite = [0u8; NT];
        elite[template("clibanarii")] = 1;
        elite[template("infantry")] = 1;
        for _ in 0..200 {
            play.st.clone_from(&start);
            *play.st.at_mut(persia, germania) = elite;
            let mut attackers = elite;
            play.limes_alone(
                persia,
                germania,
                treveria,
                &mut attackers,
                &mut dice,
                &mut NoLog,
            );
            assert_eq!(attackers, elite);
        }
        // A Roman defender present: no D2, the Limes fights in the battle instead.
        play.st.clone_from(&start);
        play.st.at_mut(rome, gallia)[template("legion")] = 1;
        let mut attackers = four;
        assert!(play.limes_alone(
            franks,
            germania,
            treveria,
            &mut attackers,
            &mut dice,
            &mut NoLog
        ));
        assert!(play.st.limes[treveria] && attackers == four);
        assert!(play.ground(germania, treveria).limes);
        // Supporting a legion, the Limes lowers the Franks' odds (its extra defender die).
        let sides = [
            play.fighter(franks, four, false),
            play.fighter(rome, *play.st.at(rome, gallia), false),
        ];
        let with = play
            .battles
            .p_attacker(play.ground(germania, treveria), sides);
        let mut open = play.ground(germania, treveria);
        open.limes = false;
        let without = play.battles.p_attacker(open, sides);
        assert!(with < without, "{with} vs {without}");
    }

    #[test]
    fn limes_fall_in_games_and_overrun_needs_a_stack_the_area_game_never_sends() {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let mut destroyed = 0;
        for i in 0..300u64 {
            r.clear();
            play.play(
                &mut Dice::for_trial(3, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("game {i}"));
            destroyed += play.st.counters.limes_destroyed;
            for p in 0..g.scenario.provinces.len() {
                assert!(!play.limes_stands(p), "no Limes after turn 7");
            }
        }
        assert!(destroyed > 0);
        // Overrun needs 6 units (XVIII.E); a stack here is at most the stacking limit + 1.
        let biggest = *g.stacking.iter().max().unwrap() as u32 + 1;
        let lone = passage::Province {
            enemy_units: 1,
            ..Default::default()
        };
        assert!(!passage::can_overrun(biggest, 4, &lone, false));
        assert!(passage::can_overrun(6, 4, &lone, false));
    }
}
