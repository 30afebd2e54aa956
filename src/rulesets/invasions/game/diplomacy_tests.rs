//! Diplomacy (diplomacy.rs): the deck's draws against the hypergeometric law, the deck running
//! out, Tributus's truce and gold, Unio's client on a D2, cards played in games.

use super::diplomacy::{draw_card, full_deck, KINDS, TRIBUTE_GOLD};
use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::politics::Bond;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

#[test]
fn the_deck_holds_the_rulebooks_18_cards_and_two_draws_follow_the_hypergeometric_law() {
    let g = bundled_game(scripted());
    let deck = full_deck(&g.scenario);
    assert_eq!(deck.iter().map(|&c| c as u32).sum::<u32>(), 18);
    let alliance = g
        .scenario
        .diplomacy_deck
        .iter()
        .position(|(n, _)| n == "alliance")
        .unwrap();
    assert_eq!(deck[alliance], 3);
    // P(at least one of the 3 Alliance cards in 2 draws) = 1 − C(15,2)/C(18,2) = 1 − 105/153.
    let p = 1.0 - 105.0 / 153.0;
    let mut dice = Dice::from_seed(4);
    let trials = 40_000;
    let mut hits = 0;
    for _ in 0..trials {
        let mut left = deck;
        let a = draw_card(&mut left, &mut dice).unwrap();
        let b = draw_card(&mut left, &mut dice).unwrap();
        hits += (a == alliance || b == alliance) as u32;
    }
    let f = hits as f64 / trials as f64;
    let se = (p * (1.0 - p) / trials as f64).sqrt();
    assert!((f - p).abs() < 5.0 * se, "{f} vs {p}");
    // The deck runs out after 18: the 19th draw is lost.
    let mut left = deck;
    let mut seen = [0u8; KINDS];
    for _ in 0..18 {
        seen[draw_card(&mut left, &mut dice).unwrap()] += 1;
    }
    assert_eq!(seen, deck);
    assert_eq!(draw_card(&mut left, &mut dice), None);
}

#[test]
fn tributus_buys_a_truce_both_ways_for_10_gold_until_the_end_of_the_turn() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let alamanni = s.nation("alamanni").unwrap() as usize;
    assert_ne!(g.player_of(rome), g.player_of(alamanni));
    let p = (0..s.provinces.len())
        .find(|&p| play.st.owner[p] == alamanni as u8)
        .unwrap();
    let q = (0..s.provinces.len())
        .find(|&q| play.st.owner[q] == rome as u8)
        .unwrap();
    assert!(play.attackable(rome, p) && play.attackable(alamanni, q));
    let gold = [
        play.st.nations[rome].treasury,
        play.st.nations[alamanni].treasury,
    ];
    play.st.truces[0] = (rome as u8, alamanni as u8);
    play.st.truce_count = 1;
    play.transfer_gold(rome, alamanni, TRIBUTE_GOLD);
    assert!(play.in_truce(alamanni, rome));
    assert!(!play.attackable(rome, p) && !play.attackable(alamanni, q));
    assert_eq!(play.st.nations[rome].treasury, gold[0] - 10);
    assert_eq!(play.st.nations[alamanni].treasury, gold[1] + 10);
    play.end_of_diplomacy();
    assert!(!play.in_truce(rome, alamanni));
    assert!(play.attackable(rome, p));
}

#[test]
fn unio_makes_a_neighbouring_minor_kingdom_a_client_on_a_d2_and_unused_cards_pay_1_gold() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let start = Play::new(&g).st.clone();
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(12);
    let trials = 4000;
    let mut clients = 0;
    let mut offered = 0;
    let alliance = s
        .diplomacy_deck
        .iter()
        .position(|(n, _)| n == "alliance")
        .unwrap();
    for _ in 0..trials {
        play.st.clone_from(&start);
        play.st.turn = 2;
        let before = play.st.counters.clients_made;
        // Rome's Alliance card, as step 1.D plays it.
        if play.play_card(rome, alliance, &mut dice, &mut NoLog) {
            offered += 1;
            if play.st.counters.clients_made > before {
                clients += 1;
                let t = (0..play.st.nations.len())
                    .find(|&t| play.st.nations[t].bond == Bond::Client)
                    .unwrap();
                assert!(g.minor[t]);
                assert_eq!(play.st.nations[t].lord as usize, rome);
            }
        }
    }
    assert_eq!(offered, trials, "a free minor kingdom borders Rome in 350");
    let f = clients as f64 / trials as f64;
    assert!(
        (f - 0.5).abs() < 5.0 * (0.25f64 / trials as f64).sqrt(),
        "{f}"
    );
    // Unused cards: 1 gold each at End of Diplomacy.
    play.st.clone_from(&start);
    play.st.nations[rome].cards = 3;
    let gold = play.st.nations[rome].treasury;
    play.end_of_diplomacy();
    assert_eq!(play.st.nations[rome].treasury, gold + 3);
    assert_eq!(play.st.nations[rome].cards, 0);
}

#[test]
fn cards_are_drawn_and_played_in_games_and_the_invariants_hold() {
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
    let (cards, truces, clients) = (
        column("diplomacy_cards"),
        column("truces"),
        column("clients_made"),
    );
    let (mut c, mut t, mut cl) = (0.0, 0.0, 0.0);
    for i in 0..300 {
        r.clear();
        play.play(
            &mut Dice::for_trial(21, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        assert!(
            play.st.nations.iter().all(|n| n.cards == 0),
            "hands emptied"
        );
        c += r.extra[cards];
        t += r.extra[truces];
        cl += r.extra[clients];
    }
    assert!(c > 0.0 && t > 0.0 && cl > 0.0, "{c} {t} {cl}");
}

#[test]
fn under_q52s_discarded_reading_played_cards_leave_the_deck_for_good() {
    let g = super::game_tests::bundled_game_with_options(
        scripted(),
        "diplomacy_played_cards = \"discarded\"",
    );
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let mut out = 0;
    for i in 0..100 {
        r.clear();
        play.play(
            &mut Dice::for_trial(2, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        let gone: u32 = play.st.cards_out.iter().map(|&c| c as u32).sum();
        let truces = r.extra[g
            .game_columns()
            .iter()
            .position(|c| *c == "truces")
            .unwrap()];
        assert!(
            gone as f64 >= truces,
            "every truce played a card out of the deck"
        );
        out += gone;
    }
    assert!(out > 0);
    // Under the default nothing leaves the deck.
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    r.clear();
    play.play(
        &mut Dice::for_trial(2, 0, 0),
        &mut r,
        &mut NoObserver,
        &mut NoLog,
    );
    assert_eq!(play.st.cards_out, [0; super::diplomacy::KINDS]);
}
