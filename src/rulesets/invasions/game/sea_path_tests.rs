//! Fleets met on the way (shipping.rs's `move_fleet` along `sea_path`, XXV.B-C, option
//! `naval_intercepted_move`, Q21) and the transport and landing planners weighing the enemy
//! fleets (the policy's `sea_loss`, the battle code's exact `Landing`).

use super::game_tests::{bundled_game, bundled_game_with_options, check_invariants};
use super::military::strongest;
use super::policy::{Policy, Scripted};
use super::shipping::{sea_distances, sea_path, Transport, NO_SEA_RISK};
use super::state::{template, total, Phase, NONE, NT};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn sea(g: &Game, name: &str) -> usize {
    g.scenario.seas.iter().position(|z| z.name == name).unwrap()
}

/// Nobody holds anything but Campania (Rome, on the Tyrrhenian); Rome's 2 fleets in the
/// Tyrrhenian, the Vandals (in play) with `vandal_fleets` in zone `enemy_zone`; the ledger
/// balanced.
fn sailing_board(g: &Game, vandal_fleets: u8, enemy_zone: usize) -> (Play<'_>, usize, usize) {
    let s = &g.scenario;
    let mut play = Play::new(g);
    play.st.owner.fill(NONE);
    for n in 0..s.nations.len() {
        for a in 0..s.areas.len() {
            *play.st.at_mut(n, a) = [0; NT];
        }
    }
    play.st.fleets.fill(0);
    play.st.turn = 4;
    let rome = s.nation("romani").unwrap() as usize;
    let vandals = s.nation("vandali").unwrap() as usize;
    play.st.nations[vandals].phase = Phase::Active(Status::Barbarian);
    play.st.owner[s.province("Campania").unwrap() as usize] = rome as u8;
    *play.fleets_mut(rome, sea(g, "Mare Tyrrheneum")) = 2;
    *play.fleets_mut(vandals, enemy_zone) = vandal_fleets;
    play.st.ledger.fleets_in = play.st.fleets.iter().map(|&f| f as i64).sum();
    play.st.ledger.fleets_out = 0;
    (play, rome, vandals)
}

#[test]
fn the_path_is_a_shortest_one_along_the_sea_graph() {
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let s = &g.scenario;
    for from in 0..s.seas.len() {
        let d = sea_distances(s, from);
        for to in 0..s.seas.len() {
            match sea_path(s, from, to) {
                None => assert!(from == to || d[to] > 4, "{from} -> {to}"),
                Some((path, len)) => {
                    assert_eq!(len, d[to] as usize, "{from} -> {to}");
                    assert_eq!(path[len - 1] as usize, to);
                    let mut at = from;
                    for &z in &path[..len] {
                        assert!(s.seas[at].links.contains(&z), "{at} -> {z}");
                        at = z as usize;
                    }
                }
            }
        }
    }
}

#[test]
fn a_stack_sailing_through_an_enemy_zone_is_intercepted_there_as_often_as_the_rule_says() {
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let s = &g.scenario;
    let (tyrrheneum, aegeum) = (sea(&g, "Mare Tyrrheneum"), sea(&g, "Mare Aegeum"));
    let (path, len) = sea_path(s, tyrrheneum, aegeum).unwrap();
    assert_eq!(len, 2);
    let between = path[0] as usize;
    let (start, rome, vandals) = sailing_board(&g, 2, between);
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(2232);
    let trials = 4000;
    let (mut intercepted, mut reduced) = (0u32, 0u32);
    for _ in 0..trials {
        play.st.clone_from(&start.st);
        play.naval_met = 0;
        play.naval_halted = false;
        let reached = play.move_fleet(rome, tyrrheneum, aegeum, &mut dice, &mut NoLog);
        let on_the_way = play.st.counters.interceptions_on_the_way;
        assert!(on_the_way <= 1, "one encounter a stack an activation");
        intercepted += on_the_way;
        // Q21's default: a stack that fought sails on unless sunk; nobody refuses 2 against 2.
        assert_eq!(reached, play.fleets(rome, aegeum) > 0);
        assert_eq!(play.fleets(rome, between), 0, "nobody stops on the way");
        assert!(!play.naval_halted);
        reduced += (reached && play.fleets(rome, aegeum) < 2) as u32;
        let fleets: i64 = play.st.fleets.iter().map(|&f| f as i64).sum();
        assert_eq!(fleets, play.st.ledger.fleets_in - play.st.ledger.fleets_out);
        if on_the_way == 0 {
            assert_eq!(play.fleets(vandals, between), 2);
            assert_eq!(play.fleets(rome, aegeum), 2);
        }
    }
    // XXV.B: nobody holds the coast, so each interception is a D2; the Vandals try first (2
    // fleets against 2: they fight), then Rome: P(an interception) = 1 - 1/2 * 1/2.
    let p = intercepted as f64 / trials as f64;
    let se = (0.75 * 0.25 / trials as f64).sqrt();
    assert!((p - 0.75).abs() <= 5.0 * se, "{p}");
    // Two fleets a side recover one (Q22): a stack is reduced on the way, never sunk.
    assert!(
        reduced > 0,
        "some stacks lose a fleet on the way and sail on"
    );

    // Under "stops", a stack the Vandals intercepted stays in the zone between.
    let stops = bundled_game_with_options(
        Policy::Scripted(Scripted::defaults()),
        "naval_intercepted_move = \"stops\"",
    );
    let mut play = Play::new(&stops);
    let (mut stopped, mut reached_count) = (0u32, 0u32);
    for _ in 0..trials {
        play.st.clone_from(&start.st);
        play.naval_met = 0;
        play.naval_halted = false;
        let reached = play.move_fleet(rome, tyrrheneum, aegeum, &mut dice, &mut NoLog);
        reached_count += reached as u32;
        if !reached && play.fleets(rome, between) > 0 {
            stopped += 1;
            assert!(play.naval_halted);
        }
    }
    // Stopped there: the Vandals' interception made (1/2) and Rome's stack afloat after it.
    assert!(
        stopped > 0 && reached_count > 0,
        "{stopped} {reached_count}"
    );
    let p_stop = stopped as f64 / trials as f64;
    assert!(
        p_stop < 0.5 + 5.0 * (0.25 / trials as f64).sqrt(),
        "{p_stop}"
    );
}

#[test]
fn a_stack_whose_path_avoids_the_enemy_is_never_intercepted() {
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let s = &g.scenario;
    let (tyrrheneum, aegeum) = (sea(&g, "Mare Tyrrheneum"), sea(&g, "Mare Aegeum"));
    let (path, len) = sea_path(s, tyrrheneum, aegeum).unwrap();
    // An enemy stack next to the path but not on it.
    let d = sea_distances(s, tyrrheneum);
    let off = (0..s.seas.len())
        .find(|&z| d[z] <= 2 && z != tyrrheneum && !path[..len].contains(&(z as u8)))
        .expect("a zone off the path");
    let (start, rome, _) = sailing_board(&g, 2, off);
    for policy in [Policy::Scripted(Scripted::defaults()), Policy::Random] {
        let g = bundled_game(policy);
        let mut play = Play::new(&g);
        let mut dice = Dice::from_seed(7);
        for _ in 0..500 {
            play.st.clone_from(&start.st);
            play.naval_met = 0;
            play.naval_halted = false;
            assert!(play.move_fleet(rome, tyrrheneum, aegeum, &mut dice, &mut NoLog));
            assert_eq!(play.st.counters.interceptions_on_the_way, 0);
            assert_eq!(play.st.counters.naval_interceptions, 0);
            assert_eq!(play.fleets(rome, aegeum), 2);
        }
    }
}

/// Rome holds Campania (Italia) with 5 infantry and Tarraconensis (Hispania) with 1, the
/// Vandals stand next to Hispania with 6; one Roman fleet in the Tyrrhenian and one in the
/// Sinus Gallicus, and `vandal_fleets` of the Vandals in the Sinus Gallicus.
fn crossing_board(g: &Game, vandal_fleets: u8) -> (Play<'_>, usize, Transport) {
    let s = &g.scenario;
    let gallicus = sea(g, "Sinus Gallicus");
    let (mut play, rome, vandals) = sailing_board(g, vandal_fleets, gallicus);
    let italia = s.area("Italia").unwrap() as usize;
    let hispania = s.area("Hispania").unwrap() as usize;
    play.st.owner[s.province("Tarraconensis").unwrap() as usize] = rome as u8;
    play.st.at_mut(rome, italia)[template("infantry")] = 5;
    play.st.at_mut(rome, hispania)[template("infantry")] = 1;
    let gallia = s.area("Gallia Meridionalis").unwrap() as usize;
    play.st.at_mut(vandals, gallia)[template("infantry")] = 6;
    *play.fleets_mut(rome, sea(g, "Mare Tyrrheneum")) = 1;
    *play.fleets_mut(rome, gallicus) = 1;
    play.st.ledger.units_in = play.st.all_units();
    play.st.ledger.units_out = 0;
    play.st.ledger.fleets_in = play.st.fleets.iter().map(|&f| f as i64).sum();
    let t = Transport {
        from: italia,
        to: hispania,
        first: sea(g, "Mare Tyrrheneum"),
        last: gallicus,
        units: strongest(play.st.at(rome, italia), 3),
    };
    (play, rome, t)
}

#[test]
fn a_crossing_through_a_strong_enemy_fleet_is_not_planned_and_its_expected_loss_is_the_simulated_one(
) {
    // Rome's stacks always fight (naval_fight 0), so an intercepted transport loses units.
    let g = bundled_game(Policy::Scripted(Scripted {
        naval_fight: 0.0,
        ..Scripted::defaults()
    }));
    let (mut play, rome, t) = crossing_board(&g, 0);
    let planned = play.best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog);
    let planned = planned.expect("with no enemy fleet the crossing is planned");
    assert_eq!((planned.first, planned.last), (t.first, t.last));
    assert_eq!(total(&planned.units), 3);
    let (mut play, _, _) = crossing_board(&g, 2);
    let board = play.st.clone();
    let planned = play.best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog);
    assert!(
        planned.is_none(),
        "two enemy fleets against one: not planned"
    );
    assert_eq!(play.st.counters.transports_planned, 1);
    assert_eq!(play.st.counters.transports_dropped, 1);
    // The planner's figures against the crossing played (the Vandals hold no coast: a D2).
    play.st.clone_from(&board);
    let at_sea = play.expected_at_sea(rome, [t.first, t.last], 3, NO_SEA_RISK, false);
    assert!((at_sea.p_intercepted - 0.5).abs() < 1e-12);
    assert!(at_sea.units_lost > 0.25 * 3.0, "{at_sea:?}");
    assert!((at_sea.units_landed + at_sea.units_lost - 3.0).abs() < 1e-9);
    let mut dice = Dice::from_seed(2266);
    let trials = 20_000;
    let (mut lost, mut lost_sq, mut intercepted) = (0.0, 0.0, 0u32);
    for _ in 0..trials {
        play.st.clone_from(&board);
        let out = play.transport(rome, &t, &mut dice, &mut NoLog);
        let l = play.st.counters.units_lost_at_sea as f64;
        assert_eq!(l, 3.0 - out.landed as f64);
        lost += l;
        lost_sq += l * l;
        intercepted += out.intercepted as u32;
    }
    let n = trials as f64;
    let mean = lost / n;
    let se = ((lost_sq / n - mean * mean) / n).sqrt();
    assert!(
        (mean - at_sea.units_lost).abs() <= 5.0 * se,
        "{mean} vs {at_sea:?}"
    );
    let p = intercepted as f64 / n;
    assert!((p - 0.5).abs() <= 5.0 * (0.25 / n).sqrt(), "{p}");
    // A planner that ignores the enemy fleets (sea_loss 1) plans it.
    let blind = bundled_game(Policy::Scripted(Scripted {
        naval_fight: 0.0,
        sea_loss: 1.0,
        ..Scripted::defaults()
    }));
    let (mut play, _, _) = crossing_board(&blind, 2);
    assert!(play
        .best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog)
        .is_some());
}

#[test]
fn a_refusing_stack_weighs_the_cancelled_crossing() {
    // Default naval_fight (1): one fleet refuses two, so an intercepted crossing is cancelled,
    // nothing is lost, and the planner expects 3 x P(not intercepted) ashore.
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let (mut play, rome, t) = crossing_board(&g, 2);
    let at_sea = play.expected_at_sea(rome, [t.first, t.last], 3, NO_SEA_RISK, false);
    assert!(at_sea.units_lost.abs() < 1e-12);
    assert!((at_sea.units_landed - 1.5).abs() < 1e-12, "{at_sea:?}");
    assert!(play
        .best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog)
        .is_none());
}

#[test]
fn games_meet_fleets_on_the_way_and_keep_their_invariants() {
    let mut on_the_way = [0.0; 2];
    let mut planned = 0.0;
    for (i, policy) in [Policy::Scripted(Scripted::defaults()), Policy::Random]
        .into_iter()
        .enumerate()
    {
        let g = bundled_game(policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
        let (way, plan) = (
            column("interceptions_on_the_way"),
            column("transports_planned"),
        );
        for k in 0..300 {
            r.clear();
            play.play(
                &mut Dice::for_trial(21, 0, k),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("{policy:?} game {k}"));
            let fleets: i64 = play.st.fleets.iter().map(|&f| f as i64).sum();
            assert_eq!(fleets, play.st.ledger.fleets_in - play.st.ledger.fleets_out);
            on_the_way[i] += r.extra[way];
            if i == 0 {
                planned += r.extra[plan];
            }
        }
    }
    assert!(on_the_way[0] > 0.0 && on_the_way[1] > 0.0, "{on_the_way:?}");
    assert!(planned > 0.0, "the scripted planner plans transports");
}
