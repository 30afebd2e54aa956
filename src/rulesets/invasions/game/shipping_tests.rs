//! Fleets moving and naval transport (shipping.rs): the sea distances and the 2-zone tether
//! (XXV.A), a move's 4-zone reach, T18's carrying (3 units a fleet, the rest lost in proportion
//! when a fleet sinks, L2262-2266), and fleet moves, transports and Barbarian landings happening
//! in games with fleets and units conserved.

use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::shipping::{sea_distances, FLEET_MOVE};
use super::state::{template, total, Phase, NONE, NT};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::landing::units_landed;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

fn sea(g: &Game, name: &str) -> usize {
    g.scenario.seas.iter().position(|z| z.name == name).unwrap()
}

fn province(g: &Game, name: &str) -> usize {
    g.scenario.province(name).unwrap() as usize
}

/// An empty board: nobody holds anything, no unit or fleet anywhere; the ledger balanced.
fn empty_board(g: &Game) -> Play<'_> {
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
    play
}

fn balance(play: &mut Play) {
    play.st.ledger.units_in = play.st.all_units();
    play.st.ledger.units_out = 0;
    play.st.ledger.fleets_in = play.st.fleets.iter().map(|&f| f as i64).sum();
    play.st.ledger.fleets_out = 0;
}

fn fleets_total(play: &Play) -> i64 {
    play.st.fleets.iter().map(|&f| f as i64).sum()
}

#[test]
fn sea_distances_follow_the_sea_graph_and_the_tether_is_two_zones_from_a_held_coast() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let tyrrheneum = sea(&g, "Mare Tyrrheneum");
    let d = sea_distances(s, tyrrheneum);
    // Tyrrheneum → Siculum → Aegeum → Propontis → Pontus Euxinus.
    assert_eq!(d[tyrrheneum], 0);
    assert_eq!(d[sea(&g, "Mare Siculum")], 1);
    assert_eq!(d[sea(&g, "Mare Aegeum")], 2);
    assert_eq!(d[sea(&g, "Propontis")], 3);
    assert_eq!(d[sea(&g, "Pontus Euxinus")], 4);
    // The Indian Ocean is not linked to the Mediterranean.
    assert_eq!(d[sea(&g, "Sinus Persicus")], u8::MAX);
    let mut play = empty_board(&g);
    let rome = s.nation("romani").unwrap() as usize;
    assert_eq!(play.tether(rome), 0, "no coast, no tether");
    // Campania's port lies on the Tyrrhenian: zones within 2 of it.
    play.st.owner[province(&g, "Campania")] = rome as u8;
    let tether = play.tether(rome);
    for z in 0..s.seas.len() {
        assert_eq!(tether & (1 << z) != 0, d[z] <= 2, "{}", s.seas[z].name);
    }
}

#[test]
fn a_naval_stack_moves_up_to_4_zones_and_ends_within_its_tether() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = empty_board(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let (tyrrheneum, aegeum, propontis, pontus) = (
        sea(&g, "Mare Tyrrheneum"),
        sea(&g, "Mare Aegeum"),
        sea(&g, "Propontis"),
        sea(&g, "Pontus Euxinus"),
    );
    let seas = s.seas.len();
    play.st.fleets[rome * seas + tyrrheneum] = 2;
    // Holding only Campania, Propontis (3 zones away) lies beyond the tether.
    play.st.owner[province(&g, "Campania")] = rome as u8;
    assert!(!play.move_fleet(
        rome,
        tyrrheneum,
        propontis,
        &mut Dice::from_seed(1),
        &mut NoLog
    ));
    assert!(play.move_fleet(
        rome,
        tyrrheneum,
        aegeum,
        &mut Dice::from_seed(1),
        &mut NoLog
    ));
    assert_eq!(play.fleets(rome, aegeum), 2);
    assert_eq!(play.fleets(rome, tyrrheneum), 0);
    // Holding Thracia too (Propontis), the Pontus is in the tether and 2 zones from the Aegean.
    play.st.owner[province(&g, "Thracia")] = rome as u8;
    assert!(play.move_fleet(rome, aegeum, pontus, &mut Dice::from_seed(1), &mut NoLog));
    // Back to the Tyrrhenian: 4 zones, allowed; nothing further than 4 ever is.
    assert_eq!(sea_distances(s, pontus)[tyrrheneum], FLEET_MOVE);
    assert!(play.move_fleet(
        rome,
        pontus,
        tyrrheneum,
        &mut Dice::from_seed(1),
        &mut NoLog
    ));
    assert_eq!(play.st.counters.fleet_moves, 3);
    // A stack whose coast is lost comes back within its tether.
    play.st.owner[province(&g, "Campania")] = NONE;
    play.st.owner[province(&g, "Thracia")] = NONE;
    // Holding only Pontus (on the Pontus Euxinus), the tether reaches the Aegean, 2 zones from
    // the Tyrrhenian, the nearest zone in it.
    play.st.owner[province(&g, "Pontus")] = rome as u8;
    assert!(play.tether(rome) & (1 << tyrrheneum) == 0);
    play.recall_fleets(rome, &mut Dice::from_seed(1), &mut NoLog);
    let at: Vec<usize> = (0..seas).filter(|&z| play.fleets(rome, z) > 0).collect();
    assert_eq!(at, vec![aegeum]);
    assert_eq!(fleets_total(&play), 2, "moves neither add nor sink fleets");
}

/// Rome holds Campania (Italia, on the Tyrrhenian) with 5 infantry and Tarraconensis (Hispania,
/// on the Sinus Gallicus, next to the Tyrrhenian) with 1; the Vandals stand in Gallia Meridionalis
/// with 6; one Roman fleet in each zone.
fn spanish_board(g: &Game) -> (Play<'_>, usize, usize, usize) {
    let s = &g.scenario;
    let mut play = empty_board(g);
    let rome = s.nation("romani").unwrap() as usize;
    let vandals = s.nation("vandali").unwrap() as usize;
    let (italia, hispania) = (
        s.area("Italia").unwrap() as usize,
        s.area("Hispania").unwrap() as usize,
    );
    let gallia = s.area("Gallia Meridionalis").unwrap() as usize;
    play.st.owner[province(g, "Campania")] = rome as u8;
    play.st.owner[province(g, "Tarraconensis")] = rome as u8;
    play.st.at_mut(rome, italia)[template("infantry")] = 5;
    play.st.at_mut(rome, hispania)[template("infantry")] = 1;
    play.st.at_mut(vandals, gallia)[template("infantry")] = 6;
    play.st.nations[vandals].phase = Phase::Active(Status::Barbarian);
    let seas = s.seas.len();
    play.st.fleets[rome * seas + sea(g, "Mare Tyrrheneum")] = 1;
    play.st.fleets[rome * seas + sea(g, "Sinus Gallicus")] = 1;
    balance(&mut play);
    (play, rome, italia, hispania)
}

#[test]
fn t18_a_transport_carries_3_units_a_fleet_to_the_threatened_coast() {
    let g = bundled_game(scripted());
    let (mut play, rome, italia, hispania) = spanish_board(&g);
    // 6 enemy units next to Hispania against 1 Roman: ratio 6, above the default 1.5.
    let enemy = play.enemy_units(rome);
    assert!(play.sea_threat(rome, hispania, &enemy) >= 6.0);
    assert!(
        play.best_transport(rome, 0, 7.0, 0, &mut Dice::from_seed(1), &mut NoLog)
            .is_none(),
        "below the ratio asked"
    );
    let t = play
        .best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog)
        .expect("a transport");
    assert_eq!((t.from, t.to), (italia, hispania));
    assert_eq!(
        (t.first, t.last),
        (sea(&g, "Mare Tyrrheneum"), sea(&g, "Sinus Gallicus"))
    );
    // One fleet in each zone: 3 of the 5 (L2259).
    assert_eq!(total(&t.units), 3);
    let out = play.transport(rome, &t, &mut Dice::from_seed(18), &mut NoLog);
    assert!(
        !out.intercepted && !out.sea_failure,
        "no enemy at sea, no sea-risk roll"
    );
    assert_eq!(play.st.count(rome, italia), 2);
    assert_eq!(play.st.count(rome, hispania), 4);
    assert_eq!(play.st.counters.transports, 1);
    // L2266's proportion: 5 carried on 2 fleets, 1 sunk → 3 land, 2 lost.
    assert_eq!(units_landed(5, 1), 3);
}

#[test]
fn t18_an_intercepted_transport_loses_units_with_its_fleets_and_conserves_the_rest() {
    // A planner that ignores enemy fleets (sea_loss 1): the crossing is planned whatever the
    // Vandals' stack may cost (the planner's weighing: transports_weigh_the_enemy_fleet below).
    let g = bundled_game(Policy::Scripted(Scripted {
        sea_loss: 1.0,
        ..Scripted::defaults()
    }));
    let s = &g.scenario;
    let (mut play, rome, italia, hispania) = spanish_board(&g);
    let seas = s.seas.len();
    let tyrrheneum = sea(&g, "Mare Tyrrheneum");
    // Two fleets of Rome in each zone carry 5; the Vandals' 2 fleets wait in the Sinus Gallicus.
    play.st.fleets[rome * seas + tyrrheneum] = 2;
    play.st.fleets[rome * seas + sea(&g, "Sinus Gallicus")] = 2;
    let vandals = s.nation("vandali").unwrap() as usize;
    play.st.fleets[vandals * seas + sea(&g, "Sinus Gallicus")] = 2;
    balance(&mut play);
    let board = play.st.clone();
    let mut dice = Dice::from_seed(266);
    let (mut battles, mut short) = (0, 0);
    for _ in 0..2000 {
        play.st.clone_from(&board);
        let t = play
            .best_transport(rome, 0, 1.5, 0, &mut Dice::from_seed(1), &mut NoLog)
            .unwrap();
        assert_eq!(total(&t.units), 5);
        let out = play.transport(rome, &t, &mut dice, &mut NoLog);
        battles += out.intercepted as u32;
        let arrived = play.st.count(rome, hispania) - 1;
        assert_eq!(arrived, out.landed as u32);
        assert_eq!(play.st.count(rome, italia), 0);
        short += (arrived < 5) as u32;
        assert!(arrived <= 3 * (2 - out.fleets_lost[0] as u32));
        assert_eq!(
            play.st.all_units(),
            play.st.ledger.units_in - play.st.ledger.units_out
        );
        assert_eq!(
            fleets_total(&play),
            play.st.ledger.fleets_in - play.st.ledger.fleets_out
        );
    }
    // The Vandals hold no coast of the zone: a D2 decides each interception.
    assert!(battles > 850 && battles < 1150, "{battles}");
    assert!(short > 0, "a sunk fleet drowns its load");
}

#[test]
fn fleets_move_armies_ship_and_barbarians_land_in_games_with_fleets_and_units_conserved() {
    let (mut moves, mut transports, mut barbarian) = (0.0, 0.0, 0.0);
    for policy in [scripted(), Policy::Random] {
        let g = bundled_game(policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
        let cols = [
            column("fleet_moves"),
            column("transports"),
            column("barbarian_landings"),
        ];
        for i in 0..300 {
            r.clear();
            play.play(
                &mut Dice::for_trial(25, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("{policy:?} game {i}"));
            assert_eq!(
                fleets_total(&play),
                play.st.ledger.fleets_in - play.st.ledger.fleets_out
            );
            moves += r.extra[cols[0]];
            transports += r.extra[cols[1]];
            barbarian += r.extra[cols[2]];
        }
    }
    assert!(
        moves > 0.0 && transports > 0.0 && barbarian > 0.0,
        "{moves} moves, {transports} transports, {barbarian} Barbarian landings"
    );
}
