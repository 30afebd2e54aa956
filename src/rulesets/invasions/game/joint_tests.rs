//! Allies' joint battles (joint.rs, XXVI.B): the losses' split, who joins (allies at war with the
//! other side, up to the stacking limit, each keeping its garrison when it attacks), units
//! conserved through a joint battle, and joint battles happening in games.

use super::game_tests::{bundled_game, check_invariants};
use super::joint::{split_survivors, Joined};
use super::military::Target;
use super::policy::{Policy, Scripted};
use super::state::{template, total, Phase, NT};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

#[test]
fn losses_are_shared_by_type_in_proportion_the_allys_share_rounded_down() {
    let inf = template("infantry");
    // 3 + 1 infantry, 2 survive: 2 lost, the ally's share 2 × 1/4 → 0.
    let (mut own, mut ally, mut surv) = ([0; NT], [0; NT], [0; NT]);
    own[inf] = 3;
    ally[inf] = 1;
    surv[inf] = 2;
    let (mine, theirs) = split_survivors(&own, &ally, &surv);
    assert_eq!((mine[inf], theirs[inf]), (1, 1));
    // Every case up to 5 + 5: the survivors add up, the ally loses ⌊lost × ally / sent⌋.
    for o in 0..=5u8 {
        for a in 0..=5u8 {
            for s in 0..=o + a {
                own[inf] = o;
                ally[inf] = a;
                surv[inf] = s;
                let (mine, theirs) = split_survivors(&own, &ally, &surv);
                assert_eq!(mine[inf] + theirs[inf], s, "{o} {a} {s}");
                let lost = (o + a - s) as u32;
                let sent = (o + a) as u32;
                let ally_lost = (lost * a as u32).checked_div(sent).unwrap_or(0);
                assert_eq!((a - theirs[inf]) as u32, ally_lost);
                assert!(mine[inf] <= o && theirs[inf] <= a);
            }
        }
    }
}

/// Rome holds Campania (Italia) with 2 infantry; the Alamanni, Rome's allies, stand in Italia with
/// 3; the Visigoths attack from Italia with 6.
fn italian_board(g: &super::Game) -> (Play<'_>, usize, usize, usize, usize, usize) {
    let s = &g.scenario;
    let mut play = Play::new(g);
    let rome = s.nation("romani").unwrap() as usize;
    let alamanni = s.nation("alamanni").unwrap() as usize;
    let goths = s.nation("visigothi").unwrap() as usize;
    let italia = s.area("Italia").unwrap() as usize;
    let campania = s.province("Campania").unwrap() as usize;
    for n in 0..s.nations.len() {
        for a in 0..s.areas.len() {
            *play.st.at_mut(n, a) = [0; NT];
        }
    }
    play.st.fleets.fill(0);
    play.st.nations[goths].phase = Phase::Active(Status::Barbarian);
    play.st.owner[campania] = rome as u8;
    play.st.walls[campania] = 0;
    play.st.at_mut(rome, italia)[template("infantry")] = 2;
    play.st.at_mut(alamanni, italia)[template("infantry")] = 3;
    play.st.at_mut(goths, italia)[template("infantry")] = 6;
    play.st.ledger.units_in = play.st.all_units();
    play.st.ledger.units_out = 0;
    assert!(play.ally(rome, alamanni));
    (play, rome, alamanni, goths, italia, campania)
}

#[test]
fn allies_join_a_defence_up_to_the_stacking_limit_and_only_against_their_enemies() {
    let g = bundled_game(scripted());
    let (mut play, rome, alamanni, goths, italia, campania) = italian_board(&g);
    let (defenders, _) = play.defenders(campania);
    assert_eq!(total(&defenders), 2);
    let room = play.limit(campania, false) + play.leader_stacking(rome, italia) - 2;
    let j = play.join_defence(goths, campania, &defenders);
    assert_eq!(j.ally as usize, alamanni);
    assert_eq!(total(&j.units), 3.min(room));
    assert_eq!(total(&j.with(&defenders)), 2 + 3.min(room));
    // An ally at peace with the attacker stays out: a truce between the Alamanni and the Goths.
    let start = play.st.clone();
    play.st.truces[0] = (alamanni as u8, goths as u8);
    play.st.truce_count = 1;
    assert_eq!(
        play.join_defence(goths, campania, &defenders),
        Joined::NOBODY
    );
    // Nobody joins without an alliance.
    play.st.clone_from(&start);
    play.end_alliances();
    assert_eq!(
        play.join_defence(goths, campania, &defenders),
        Joined::NOBODY
    );
    assert_eq!(play.st.owner[campania], rome as u8);
}

#[test]
fn an_attacking_ally_keeps_its_garrison_and_the_stack_stays_within_the_limit() {
    let g = bundled_game(scripted());
    let (mut play, _rome, alamanni, goths, italia, campania) = italian_board(&g);
    // Now the Alamanni are the Visigoths' allies as they attack Rome's Campania beside them.
    play.end_alliances();
    assert!(play.ally(goths, alamanni));
    let mut attackers = [0; NT];
    attackers[template("infantry")] = 2;
    let j = play.join_attack(goths, italia, campania, &attackers, false);
    assert_eq!(j.ally as usize, alamanni);
    // A Barbarian ally keeps one unit with its horde: 2 of its 3 join, within 4 − 2 = 2 of room.
    assert_eq!(total(&j.units), 2);
    attackers[template("infantry")] = 4;
    let room = play.limit(campania, false) + play.leader_stacking(goths, italia);
    let j = play.join_attack(goths, italia, campania, &attackers, false);
    assert_eq!(total(&j.units), 2.min(room.saturating_sub(4)));
}

#[test]
fn a_joint_defence_conserves_units_and_the_ally_loses_no_more_than_it_brought() {
    let g = bundled_game(scripted());
    let (mut play, _rome, alamanni, goths, italia, campania) = italian_board(&g);
    let board = play.st.clone();
    let mut dice = Dice::from_seed(2293);
    let mut joint = 0;
    for _ in 0..400 {
        play.st.clone_from(&board);
        let mut attackers = [0; NT];
        attackers[template("infantry")] = 4;
        let t = Target {
            province: campania,
            from: italia,
            attackers,
            p_win: 0.5,
            by_sea: false,
        };
        play.attack(goths, t, false, &mut dice, &mut NoLog);
        joint += play.st.counters.joint_battles;
        assert!(play.st.count(alamanni, italia) <= 3);
        assert_eq!(
            play.st.all_units(),
            play.st.ledger.units_in - play.st.ledger.units_out
        );
    }
    assert!(joint > 100, "{joint} joint battles in 400 attacks");
}

#[test]
fn joint_battles_happen_in_games_and_the_invariants_hold() {
    let mut joint = 0.0;
    for policy in [scripted(), Policy::Random] {
        let g = bundled_game(policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let column = g
            .game_columns()
            .iter()
            .position(|c| *c == "joint_battles")
            .unwrap();
        for i in 0..300 {
            r.clear();
            play.play(
                &mut Dice::for_trial(2309, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("{policy:?} game {i}"));
            joint += r.extra[column];
        }
    }
    assert!(joint > 0.0, "no joint battle in 600 games");
}
