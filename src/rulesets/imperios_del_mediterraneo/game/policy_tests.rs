//! The policies do what their names say (digest §6.3): P2 never attacks another empire's city
//! and stacks its capital, P3 goes for the VP leader, `mixture` draws P1-P3 per game; and what a
//! policy may see: its decisions do not depend on another player's hidden cards unless the game
//! is omniscient.

use super::game_tests::{options, RING};
use super::load::load;
use super::policy::{defaults, Policy, Style};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use std::path::Path;

fn game_of(policies: Vec<Policy>) -> Game {
    let n = policies.len();
    let s = load(Path::new(RING), n).unwrap();
    let names: Vec<String> = s.empires.iter().map(|e| e.name.clone()).collect();
    Game::new(s, &options(), names, vec!["test".into(); n], policies)
}

/// Per seat over `games` games: (attacks on other empires' cities, of those on a VP leader).
fn attacks(g: &Game, games: u64, stream: u64) -> Vec<(u32, u32)> {
    let n = g.players.len();
    let mut play = Play::new(g);
    let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
    let mut out = vec![(0, 0); n];
    for i in 0..games {
        let mut dice = Dice::for_trial(23, stream, i);
        record.clear();
        play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
        let c = &play.st.counts;
        for p in 0..n {
            out[p].0 += c.empire_attacks_by[p] as u32;
            out[p].1 += c.leader_attacks_by[p] as u32;
        }
    }
    out
}

#[test]
fn a_turtle_never_attacks_an_empires_city_and_stacks_its_capital() {
    let Policy::Scripted(mut t) = defaults("turtle") else {
        unreachable!()
    };
    t.style = Style::Turtle {
        delta: 0.1,
        stack: 1,
    };
    let turtle = Policy::Scripted(t);
    let aggressor = defaults("aggressor");
    let g = game_of(vec![turtle, aggressor, aggressor, defaults("turtle")]);
    let seen = attacks(&g, 400, 1);
    assert_eq!(seen[0].0, 0, "{seen:?}");
    assert_eq!(seen[3].0, 0, "{seen:?}");
    assert!(seen[1].0 > 0 && seen[2].0 > 0, "{seen:?}");
    // Set-up: the ring's 3 markers; P2 with stack 1 puts its second on the capital, P2 with
    // the default stack 0 and the aggressor never do while a free neighbour is left.
    let mut play = Play::new(&g);
    play.setup(&mut Dice::from_seed(3));
    let s = &g.scenario;
    assert_eq!(play.st.markers[s.empires[0].capital], 2);
    assert_eq!(play.st.markers[s.empires[1].capital], 1);
    assert_eq!(play.st.markers[s.empires[3].capital], 1);
    // P2 with the default stack still expands: against neutrals and barbarians.
    let all_turtles = game_of(vec![defaults("turtle"); 3]);
    let mut play = Play::new(&all_turtles);
    let mut record = GameRecord::new(3, super::GAME_COLUMNS.len());
    let mut expeditions = 0;
    for i in 0..50 {
        record.clear();
        play.play_game(
            &mut Dice::from_seed(i),
            &mut record,
            &mut NoObserver,
            &mut NoLog,
        );
        expeditions += play.st.counts.expeditions;
        assert_eq!(play.st.counts.empire_attacks, 0);
    }
    assert!(expeditions > 0);
}

/// The aggressor attacks empires more often than the greedy player in its seat, and most of
/// those attacks go to the VP leader among the others, a larger share than the greedy player's.
#[test]
fn an_aggressor_targets_the_leader() {
    let greedy = defaults("greedy");
    let aggressor = defaults("aggressor");
    let games = 400;
    let mixed = attacks(&game_of(vec![aggressor, greedy, greedy, greedy]), games, 2);
    let plain = attacks(&game_of(vec![greedy; 4]), games, 2);
    let share = |x: (u32, u32)| x.1 as f64 / x.0.max(1) as f64;
    assert!(mixed[0].0 > plain[0].0, "{mixed:?} vs {plain:?}");
    assert!(
        share(mixed[0]) > share(plain[0]) && share(mixed[0]) > 0.5,
        "{mixed:?} vs {plain:?}"
    );
}

/// A scripted player's expedition depends on the others' hidden cards only through what it
/// can know: exchanging another player's hand with cards of its draw pile (same hand size, same
/// discard pile) changes nothing unless the game is omniscient.
#[test]
fn hidden_cards_are_not_read_unless_omniscient() {
    // An aggressor that declares whatever its chance: its choice among empires' cities turns
    // on the defence it predicts.
    let Policy::Scripted(mut g) = defaults("aggressor") else {
        unreachable!()
    };
    g.theta = 0.0;
    let greedy = Policy::Scripted(g);
    let mut changed_when_omniscient = 0;
    for omniscient in [false, true] {
        let mut game = game_of(vec![greedy; 3]);
        game.omniscient = omniscient;
        for seed in 0..200 {
            let mut play = Play::new(&game);
            let mut dice = Dice::from_seed(seed);
            play.setup(&mut dice);
            let before = play.greedy_plan(0, &g);
            // Player 2's hand becomes its draw pile's top cards and the other way round.
            let pl = &mut play.st.players[1];
            let h = pl.hand.len().min(pl.draw.len());
            for i in 0..h {
                std::mem::swap(&mut pl.hand[i], &mut pl.draw[i]);
            }
            let third = &mut play.st.players[2];
            let h = third.hand.len().min(third.draw.len());
            for i in 0..h {
                std::mem::swap(&mut third.hand[i], &mut third.draw[i]);
            }
            let after = play.greedy_plan(0, &g);
            if omniscient {
                changed_when_omniscient += (before != after) as u32;
            } else {
                assert_eq!(before, after, "seed {seed}");
            }
        }
    }
    assert!(
        changed_when_omniscient > 0,
        "the test never reaches a decision that reads a hand"
    );
}

#[test]
fn a_mixture_seat_plays_each_scripted_policy() {
    let g = game_of(vec![Policy::Mixture; 2]);
    let mut play = Play::new(&g);
    let mut seen = [0u32; 3];
    for seed in 0..300 {
        play.setup(&mut Dice::from_seed(seed));
        for p in 0..2 {
            let i = super::policy::MIXED
                .iter()
                .position(|k| play.pol[p] == defaults(k))
                .expect("a scripted policy");
            seen[i] += 1;
        }
    }
    // 600 draws of 1/3 each: 200 ± 11.5; 5 standard errors either way.
    for k in seen {
        assert!((142..=258).contains(&k), "{seen:?}");
    }
}

/// The game's cursor: a game played turn by turn through `play_on` (stopping after each turn
/// and starting the next) is the game played in one go, dice for dice.
#[test]
fn a_game_played_on_in_pieces_is_the_same_game() {
    let g = game_of(vec![
        defaults("greedy"),
        defaults("aggressor"),
        Policy::Random,
    ]);
    let mut play = Play::new(&g);
    for seed in 0..40 {
        let mut dice = Dice::from_seed(seed);
        let mut whole = GameRecord::new(3, super::GAME_COLUMNS.len());
        play.play_game(&mut dice, &mut whole, &mut NoObserver, &mut NoLog);
        let end = play.st.clone();
        let mut dice = Dice::from_seed(seed);
        play.setup(&mut dice);
        let mut turn = 1;
        while !play.play_on(false, turn, &mut dice, &mut NoObserver, &mut NoLog) {
            turn += 1;
            play.st.turn = turn;
        }
        assert_eq!(
            format!("{:?}", play.st.players),
            format!("{:?}", end.players),
            "seed {seed}"
        );
        assert_eq!(play.st.owner, end.owner, "seed {seed}");
    }
}

/// A search player's games are a function of their seed, keep the invariants, and its
/// candidates always hold pass and its rollout policy's own choice.
#[test]
fn the_search_player_plays_reproducible_legal_games() {
    let search = super::policy::CATALOG
        .parse(
            "test",
            "policies.empire_1",
            &toml::Value::Table("policy = \"search\"\nbudget = 6".parse().unwrap()),
        )
        .unwrap()
        .policy;
    assert!(matches!(search, Policy::Search(_, Some(_))));
    let g = game_of(vec![search, defaults("greedy"), defaults("greedy")]);
    let mut records = Vec::new();
    for _ in 0..2 {
        let mut play = Play::new(&g);
        let mut shares = Vec::new();
        for i in 0..8 {
            let mut dice = Dice::for_trial(9, 0, i);
            let mut record = GameRecord::new(3, super::GAME_COLUMNS.len());
            play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            super::game_tests::check(&play, &record);
            shares.push(record.win_share.clone());
        }
        records.push(shares);
    }
    assert_eq!(records[0], records[1]);
    let mut play = Play::new(&g);
    play.setup(&mut Dice::from_seed(1));
    let Policy::Scripted(own) = play.pol[0] else {
        unreachable!("the searcher plays greedy outside its decisions")
    };
    let mut out = Vec::new();
    play.candidates(0, &mut out);
    assert_eq!(out[0], None);
    if let Some(plan) = play.greedy_plan(0, &own) {
        assert!(out.contains(&Some(plan)));
    }
    assert!(out.len() >= 2, "{out:?}");
}

/// The search player's interceptions (whether and where) and its free-passage answers are not
/// searched: they are its rollout policy's rule, in its own games and in its rollouts (which
/// copy the game's policies after set-up). With a greedy rollout they are exactly greedy's;
/// with a random one, coin flips.
#[test]
fn the_searchers_interceptions_and_passage_are_its_rollout_policys_rule() {
    use super::military::{Cards, Plan};
    use super::scenario::TROOP;
    use crate::game::search::SearchSpec;
    let greedy = defaults("greedy");
    let Policy::Scripted(g) = greedy else {
        panic!("greedy is scripted")
    };
    let spec = SearchSpec {
        budget: 4,
        horizon: 0,
        margin: None,
        confirm: 0,
    };
    let searching = game_of(vec![greedy, Policy::Search(spec, Some(g)), greedy]);
    let plain = game_of(vec![greedy; 3]);
    let random_rollout = game_of(vec![greedy, Policy::Search(spec, None), greedy]);
    let s = &plain.scenario;
    let capital = s.empires[1].capital;
    let mut intercepted = 0;
    for seed in 0..40 {
        let mut a = Play::new(&searching);
        let mut b = Play::new(&plain);
        let mut r = Play::new(&random_rollout);
        let (mut da, mut db, mut dr) = (
            Dice::for_trial(6, 0, seed),
            Dice::for_trial(6, 0, seed),
            Dice::for_trial(6, 0, seed),
        );
        a.setup(&mut da);
        b.setup(&mut db);
        r.setup(&mut dr);
        assert_eq!(a.pol[1], greedy);
        assert_eq!(r.pol[1], Policy::Random);
        let mut plan = Plan {
            target: capital,
            ..Plan::default()
        };
        let mut troops = Cards::default();
        for &c in &b.st.players[0].hand {
            if super::military::is(s, 0, c, TROOP) {
                troops.push(c);
            }
        }
        plan.cards = troops;
        let da_def = a.choose_defence(1, capital, Some((0, &plan)), &mut da);
        let db_def = b.choose_defence(1, capital, Some((0, &plan)), &mut db);
        assert_eq!(da_def, db_def);
        intercepted += !db_def.intercept.is_empty() as u32;
        let vp = a.st.players[0].vp;
        for lead in [-5, 0, 5] {
            a.st.players[0].vp = vp + lead;
            b.st.players[0].vp = vp + lead;
            assert_eq!(
                a.grants_passage(1, 0, &mut da),
                b.grants_passage(1, 0, &mut db)
            );
        }
    }
    assert!(intercepted > 0);
}
