//! Naval encounters outside transports and landings (encounters.rs, XXV.B-C): who intercepts,
//! who refuses and what a refusal costs, the D2 interception's rate, and that they happen in
//! games with fleets conserved.

use super::alliances_tests::counted_over;
use super::encounters::Encounter;
use super::game_tests::bundled_game;
use super::policy::{Policy, Scripted};
use super::state::{Phase, VP_NAVAL};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::invasions::army::Status;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

/// No fleet anywhere but `rome`'s and `vandals`' in Mare Adriaticum; the Vandals in play; the
/// coast's cities to `coast` (or left as they are).
fn board(
    g: &Game,
    rome_fleets: u8,
    vandal_fleets: u8,
    coast: Option<usize>,
) -> (Play<'_>, usize, usize, usize) {
    let s = &g.scenario;
    let mut play = Play::new(g);
    let rome = s.nation("romani").unwrap() as usize;
    let vandals = s.nation("vandali").unwrap() as usize;
    assert_ne!(g.player_of(rome), g.player_of(vandals));
    let z = s
        .seas
        .iter()
        .position(|z| z.name == "Mare Adriaticum")
        .unwrap();
    play.st
        .set_phase(s, vandals, Phase::Active(Status::Barbarian));
    for n in 0..s.nations.len() {
        for y in 0..s.seas.len() {
            *play.fleets_mut(n, y) = 0;
        }
    }
    *play.fleets_mut(rome, z) = rome_fleets;
    *play.fleets_mut(vandals, z) = vandal_fleets;
    if let Some(c) = coast {
        for &q in &s.seas[z].ports {
            play.st.set_owner(s, q as usize, c as u8);
            play.st.level[q as usize] = play.st.level[q as usize].max(1);
        }
    }
    (play, rome, vandals, z)
}

#[test]
fn a_weaker_inactive_stack_intercepted_refuses_and_its_nation_gives_1_vp() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    // Rome holds the whole coast: its interception is automatic (XXV.B).
    let (mut play, rome, vandals, z) = board(&g, 2, 1, Some(s.nation("romani").unwrap() as usize));
    assert_eq!(play.naval_enemy(rome, z), Some(vandals));
    let mut dice = Dice::from_seed(1);
    // The Vandals (1 fleet against 2, naval_fight 1) do not intercept; Rome does; they refuse.
    let e = play.encounter(rome, vandals, z, &mut dice, &mut NoLog);
    assert_eq!(e, Encounter::InactiveRefused);
    assert_eq!(play.st.nations[rome].vp[VP_NAVAL], 1);
    assert_eq!(play.st.nations[vandals].vp[VP_NAVAL], -1);
    assert_eq!(play.st.counters.naval_refusals, 1);
    assert_eq!(
        (play.fleets(rome, z), play.fleets(vandals, z)),
        (2, 1),
        "no battle"
    );
}

#[test]
fn a_weaker_active_stack_intercepted_refuses_and_its_move_ends_at_no_cost() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let (mut play, rome, vandals, z) = board(&g, 1, 2, Some(s.nation("vandali").unwrap() as usize));
    let mut dice = Dice::from_seed(2);
    let e = play.encounter(rome, vandals, z, &mut dice, &mut NoLog);
    assert_eq!(e, Encounter::ActiveRefused);
    assert_eq!(
        play.st.nations[rome].vp[VP_NAVAL], 0,
        "only the inactive side pays"
    );
    assert_eq!((play.fleets(rome, z), play.fleets(vandals, z)), (1, 2));
    // naval_encounters reports the stopped move.
    let mut play2 = board(&g, 1, 2, Some(vandals)).0;
    assert!(play2.naval_encounters(rome, &mut dice, &mut NoLog));
}

#[test]
fn equal_stacks_fight_and_a_never_fighting_policy_makes_no_encounter() {
    let g = bundled_game(scripted());
    // The coast to a third nation: neither side's interception is automatic.
    let third = g.scenario.nation("ostrogothi").unwrap() as usize;
    let (play, rome, vandals, z) = board(&g, 2, 2, Some(third));
    let start = play.st.clone();
    let mut play = play;
    let mut dice = Dice::from_seed(3);
    let trials = 4000;
    let (mut battles, mut sunk) = (0u32, 0u32);
    for _ in 0..trials {
        play.st.clone_from(&start);
        match play.encounter(rome, vandals, z, &mut dice, &mut NoLog) {
            Encounter::Battle { .. } => battles += 1,
            Encounter::None | Encounter::Missed => {}
            other => panic!("equal stacks never refuse: {other:?}"),
        }
        let after = play.fleets(rome, z) as u32 + play.fleets(vandals, z) as u32;
        sunk += 4 - after;
        assert_eq!(
            4 - after as i64,
            play.st.ledger.fleets_out - start.ledger.fleets_out
        );
    }
    // Nobody holds the coast: the Vandals' D2 first, else Rome's: P(a battle) = 1 − 1/4.
    let p = battles as f64 / trials as f64;
    let se = (0.75 * 0.25 / trials as f64).sqrt();
    assert!((p - 0.75).abs() <= 5.0 * se, "{p}");
    assert!(sunk > 0);
    let never = bundled_game(Policy::Scripted(Scripted {
        naval_fight: 3.0,
        ..Scripted::defaults()
    }));
    let (mut play, rome, vandals, z) = board(&never, 2, 1, Some(rome));
    let e = play.encounter(rome, vandals, z, &mut dice, &mut NoLog);
    assert_eq!(e, Encounter::None);
}

#[test]
fn naval_encounters_and_refusals_happen_in_games() {
    let interceptions = counted_over(scripted(), 400, "naval_interceptions");
    let refusals = counted_over(scripted(), 400, "naval_refusals");
    assert!(interceptions > 0.0, "{interceptions}");
    assert!(refusals > 0.0, "{refusals}");
    assert!(counted_over(Policy::Random, 200, "naval_interceptions") > 0.0);
}
