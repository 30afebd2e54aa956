//! Assaults (XXIV.C, digest §3.8, Q23): a besieger may take 2 hits, allocated like battle hits
//! (the battle code's siege `Stack`: an intact elite flips first, otherwise a unit dies), for +1
//! on its siege roll, which also cancels the −1 of a naval stack supplying the city. The game
//! does not track damage, so a flipped elite counts as a whole unit again after the siege (as
//! after a battle); the units a hit eliminates are the stack's cheapest. With no leader there are
//! no rerolls, so option `assault_hits_per_reroll` changes nothing here.

use super::policy::Policy;
use super::state::{cheapest_first, total, Units};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::TEMPLATES;
use crate::rulesets::invasions::siege::Stack;

/// The hits an assault costs (XXIV.C).
pub const ASSAULT_HITS: u32 = 2;

/// The besieging stack as the battle code's siege counts it: units and intact elites (a unit
/// is elite only for a Civilized owner, Q42).
pub fn siege_stack(moving: &Units, civilized: bool) -> Stack {
    let elites = if civilized {
        (0..moving.len())
            .filter(|&k| TEMPLATES[k].elite > 0)
            .map(|k| moving[k] as u32)
            .sum()
    } else {
        0
    };
    Stack {
        units: total(moving),
        elites,
    }
}

impl Play<'_> {
    /// Whether `n`, besieging province `p` with `moving` (standing in Area `from`), assaults;
    /// if so its 2 hits are taken at once, before the roll (Q23).
    pub(super) fn assault(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        moving: &mut Units,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let stack = siege_stack(moving, self.st.civilized(n));
        let after = stack.take_hits(ASSAULT_HITS);
        if !stack.survives_assault() {
            return false;
        }
        let go = match self.policy(n) {
            Policy::Scripted(s) => after.units >= s.assault as u32,
            Policy::Random => crate::rulesets::invasions::game::procedures::d2(dice),
        };
        if !go {
            return false;
        }
        let mut dead = stack.units - after.units;
        let lost = dead;
        for k in cheapest_first() {
            while dead > 0 && moving[k] > 0 {
                moving[k] -= 1;
                self.st.at_mut(n, from)[k] -= 1;
                dead -= 1;
            }
        }
        self.st.ledger.units_out += lost as i64;
        self.st.counters.assaults += 1;
        game_log!(
            log,
            "{} assaults {}: {lost} units lost for +1",
            self.game.name(n),
            self.game.scenario.provinces[p].name
        );
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
    use crate::rulesets::invasions::game::game_tests::check_invariants;
    use crate::rulesets::invasions::game::policy::Scripted;
    use crate::rulesets::invasions::game::state::{template, NT};

    use crate::rulesets::invasions::game::game_tests::bundled_game as game;

    fn units(list: &[(&str, u8)]) -> Units {
        let mut u = [0; NT];
        for &(name, c) in list {
            u[template(name)] = c;
        }
        u
    }

    #[test]
    fn an_assault_adds_1_and_cancels_the_supplying_fleets_minus_1() {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let rome = s.nation("romani").unwrap() as usize;
        let goths = s.nation("visigothi").unwrap() as usize;
        let achaia = s.province("Achaia").unwrap() as usize;
        let aegeum = s.seas.iter().position(|z| z.name == "Mare Aegeum").unwrap();
        play.st.turn = 2;
        play.st.set_owner(s, achaia, rome as u8);
        play.st.walls[achaia] = 0;
        let seas = s.seas.len();
        // XXIV.C: +1 for the assault; the fleet's −1 does not apply to an assault.
        play.st.fleets[rome * seas + aegeum] = 0;
        assert_eq!(play.siege_roll_modifier(goths, achaia, false), 0);
        assert_eq!(play.siege_roll_modifier(goths, achaia, true), 1);
        play.st.fleets[rome * seas + aegeum] = 1;
        assert_eq!(play.siege_roll_modifier(goths, achaia, false), -1);
        assert_eq!(play.siege_roll_modifier(goths, achaia, true), 1);
    }

    #[test]
    fn the_2_hits_flip_a_civilized_stacks_elites_first_and_kill_a_barbarians_cheapest_units() {
        let policy = Policy::Scripted(Scripted {
            assault: 1,
            ..Scripted::defaults()
        });
        let g = game(policy);
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let rome = s.nation("romani").unwrap() as usize;
        let goths = s.nation("visigothi").unwrap() as usize;
        let achaia = s.province("Achaia").unwrap() as usize;
        let italia = s.area("Italia").unwrap() as usize;
        let dacia = s.area("Danubius").unwrap() as usize;
        let mut dice = Dice::from_seed(1);
        // Two legions take both hits as flips: nobody dies (damage is not tracked).
        let mut legions = units(&[("legion", 2), ("infantry", 2)]);
        *play.st.at_mut(rome, italia) = legions;
        let before = play.st.ledger.units_out;
        assert!(play.assault(rome, italia, achaia, &mut legions, &mut dice, &mut NoLog));
        assert_eq!(legions, units(&[("legion", 2), ("infantry", 2)]));
        assert_eq!(play.st.ledger.units_out, before);
        // A Barbarian's elite counts as a plain unit (Q42): 2 of its cheapest die.
        let mut horde = units(&[("infantry", 2), ("archer", 1), ("noble_cavalry", 1)]);
        *play.st.at_mut(goths, dacia) = horde;
        assert!(play.assault(goths, dacia, achaia, &mut horde, &mut dice, &mut NoLog));
        assert_eq!(horde, units(&[("archer", 1), ("noble_cavalry", 1)]));
        assert_eq!(*play.st.at(goths, dacia), horde);
        assert_eq!(play.st.ledger.units_out, before + 2);
        // A stack the hits would wipe out never assaults.
        let mut two = units(&[("infantry", 2)]);
        *play.st.at_mut(goths, dacia) = two;
        assert!(!play.assault(goths, dacia, achaia, &mut two, &mut dice, &mut NoLog));
        assert_eq!(two, units(&[("infantry", 2)]));
        assert_eq!(play.st.counters.assaults, 2);
    }

    #[test]
    fn assaults_happen_in_games_unless_the_policy_forbids_them() {
        for (assault, games) in [(3u8, 300u64), (9, 100)] {
            let g = game(Policy::Scripted(Scripted {
                assault,
                ..Scripted::defaults()
            }));
            let mut play = Play::new(&g);
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            let mut assaults = 0;
            for i in 0..games {
                r.clear();
                play.play(
                    &mut Dice::for_trial(7, 0, i),
                    &mut r,
                    &mut NoObserver,
                    &mut NoLog,
                );
                check_invariants(&play, &r, &format!("assault {assault} game {i}"));
                assaults += play.st.counters.assaults;
            }
            if assault == 9 {
                assert_eq!(assaults, 0);
            } else {
                assert!(assaults > 0);
            }
        }
    }
}
