//! The game's rules (digest §7 tests on rounds, turns, events, scoring and sudden death), its
//! invariants over thousands of random games, the seat-swap test on the mirror ring, and
//! determinism across thread counts.

use super::load::load;
use super::policy::Policy;
use super::scenario::Event;
use super::scoring::score;
use super::state::{
    event_modifier, MARKERS_PER_EMPIRE, NEUTRAL, NEUTRAL_MARKERS, PACIFIED_MARKERS,
};
use super::turn::Play;
use super::{Game, Rules};
use crate::dice::Dice;
use crate::game::{GameModel, GameRecord, NoLog, NoObserver};
use crate::options::Options;
use crate::rulesets::imperios_del_mediterraneo::OPTIONS;
use std::path::Path;

pub(super) const RING: &str = "scenarios/imperios-del-mediterraneo/game/mirror-ring.toml";

pub(super) fn options() -> Options {
    Options::defaults(OPTIONS)
}

fn shorter_game() -> Options {
    let table: toml::Table = "shorter_game = true".parse().unwrap();
    Options::resolve(OPTIONS, crate::spec::Fields::new("test", &table)).unwrap()
}

fn greedy() -> Policy {
    super::policy::defaults("greedy")
}

pub(super) fn game_with(file: &str, n: usize, policy: Policy, options: &Options) -> Game {
    let s = load(Path::new(file), n).unwrap();
    let names: Vec<String> = s.empires.iter().map(|e| e.name.clone()).collect();
    let labels = vec!["test".to_string(); n];
    Game::new(s, options, names, labels, vec![policy; n])
}

fn game(n: usize, policy: Policy) -> Game {
    game_with(RING, n, policy, &options())
}

/// T-01, T-02, T-10: the event roll's modifier.
#[test]
fn t01_t02_t10_event_roll_modifier() {
    let base = Rules::from_options(&options());
    for (round, m) in [(1, 0), (2, 1), (3, 2), (4, 3)] {
        assert_eq!(event_modifier(&base, round, false), m, "T-02 round {round}");
    }
    // T-10: 7 on the dice in round 4 after a round everyone passed: 7 + 3 + 2 = 12.
    assert_eq!(7 + event_modifier(&base, 4, true), 12);
    let short = Rules::from_options(&shorter_game());
    for (round, m) in [(5, 6), (6, 7), (7, 8)] {
        assert_eq!(
            event_modifier(&short, round, false),
            m,
            "T-01 round {round}"
        );
    }
}

/// Expected played rounds per turn with no passes: Σ_k Π_{r ≤ k} P(round r does not end it),
/// from the engine's own table and modifier.
fn expected_rounds(g: &Game) -> (f64, f64) {
    let mut survive = 1.0;
    let mut expected = 0.0;
    let mut first_ends = 0.0;
    for round in 1..=60u8 {
        let mut end = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                let roll = a + b + event_modifier(&g.rules, round, false);
                if g.scenario.tables.event(roll) == Event::EndOfTurn {
                    end += 1.0 / 36.0;
                }
            }
        }
        if round == 1 {
            first_ends = end;
        }
        survive *= 1.0 - end;
        expected += survive;
    }
    (expected, first_ends)
}

/// T-70, T-71, T-72 (valid while H-EVT is the table).
#[test]
fn t70_t71_t72_turn_length_under_h_evt() {
    let (e, first) = expected_rounds(&game(2, Policy::Random));
    assert!((e - 1137373267835.0 / 313456656384.0).abs() < 1e-12, "{e}");
    assert!((first - 1.0 / 36.0).abs() < 1e-15);
    let (e, _) = expected_rounds(&game_with(RING, 2, Policy::Random, &shorter_game()));
    assert!((e - 7223477065.0 / 2176782336.0).abs() < 1e-12, "{e}");
}

/// Gives cities to players: `owned[p]` cities each (capital first when `capital[p]`).
fn deal_cities(play: &mut Play, owned: &[usize], capital: &[bool], keys: &[usize]) {
    let s = &play.game.scenario;
    let st = &mut play.st;
    st.owner.fill(NEUTRAL);
    st.markers.fill(1);
    let mut free: Vec<usize> = (0..s.map.cities.len())
        .filter(|&c| !s.empires.iter().any(|e| e.capital == c))
        .collect();
    // Key cities first for the players that want them.
    for (p, &k) in keys.iter().enumerate() {
        for _ in 0..k {
            let i = free.iter().position(|&c| s.map.cities[c].key).unwrap();
            st.owner[free.remove(i)] = p as u8;
        }
    }
    free.sort_by_key(|&c| s.map.cities[c].key);
    for (p, &n) in owned.iter().enumerate() {
        let mut have = keys.get(p).copied().unwrap_or(0);
        if capital[p] {
            st.owner[s.empires[p].capital] = p as u8;
            have += 1;
        }
        while have < n {
            st.owner[free.remove(0)] = p as u8;
            have += 1;
        }
    }
    st.map_changed();
}

/// T-13: end of turn 1 (no progression scoring).
#[test]
fn t13_end_of_turn_one() {
    let g = game(8, Policy::Random);
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(1);
    play.setup(&mut dice);
    deal_cities(
        &mut play,
        &[6, 6, 4, 0, 0, 0],
        &[true, true, false, false, false, false],
        &[1],
    );
    for p in 0..8 {
        play.st.players[p].vp = 10;
        play.st.players[p].start_cities = 0;
    }
    let h = g.scenario.empires[0].hand_size as i32;
    play.end_of_turn(1, false, &mut dice);
    let vp: Vec<i32> = play.st.players.iter().map(|p| p.vp).collect();
    let target: Vec<i32> = play
        .st
        .players
        .iter()
        .map(|p| p.hand_target as i32)
        .collect();
    assert_eq!(&vp[..3], &[14, 13, 7]);
    assert_eq!(&target[..3], &[h + 2, h + 1, h - 1]);
    // The refill draws up to the new targets; T-12: Enraged to 0, the baseline to the cities.
    for p in 0..3 {
        assert_eq!(play.st.players[p].hand.len() as i32, target[p]);
    }
    assert_eq!(play.st.enraged, 0);
    assert_eq!(play.st.players[0].start_cities, 6);
}

/// T-14, T-15 through the scoring items, T-16 (no positive progression, no bonus).
#[test]
fn t14_t15_t16_progression_and_doubling() {
    // T-14: cities start → now P1 6→8, P2 6→5, P3 4→6; keys P1 2, P3 1; all hold capitals.
    let p1 = score(2, true, 1, false, true, 2, 0);
    let p2 = score(0, false, 1, false, false, 2, 0);
    let p3 = score(1, false, 1, false, true, 2, 0);
    assert_eq!(p1, (9, 4));
    assert_eq!(p2, (0, 0));
    assert_eq!(p3, (3, 1));
    // The same through the engine's end of turn, turns 2 and 3 (T-15: VP doubled).
    for (turn, last, mul) in [(2, false, 1), (3, true, 2)] {
        let g = game(8, Policy::Random);
        let mut play = Play::new(&g);
        let mut dice = Dice::from_seed(2);
        play.setup(&mut dice);
        deal_cities(
            &mut play,
            &[8, 5, 6, 0, 0, 0],
            &[true, true, true, false, false, false],
            &[2, 0, 1],
        );
        for (p, start) in [6u8, 6, 4, 0, 0, 0, 0, 0].into_iter().enumerate() {
            play.st.players[p].vp = 20;
            play.st.players[p].start_cities = start;
        }
        play.end_of_turn(turn, last, &mut dice);
        let vp: Vec<i32> = play.st.players[..3].iter().map(|p| p.vp - 20).collect();
        assert_eq!(vp, [9 * mul, 0, 3 * mul], "turn {turn}");
    }
    // T-16: best progression 0 scores nothing.
    assert_eq!(score(0, false, 1, false, false, 3, 0), (0, 0));
}

/// T-17: the VP floor at the end of the last turn.
#[test]
fn t17_vp_floor() {
    let g = game(2, Policy::Random);
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(3);
    play.setup(&mut dice);
    deal_cities(&mut play, &[0, 4], &[false, true], &[0, 0]);
    play.st.players[0].vp = 2;
    play.st.players[0].start_cities = 0;
    play.st.players[1].start_cities = 4;
    play.end_of_turn(3, true, &mut dice);
    assert_eq!(play.st.players[0].vp, 1);
}

/// T-11, T-18, T-19: Enraged caps at 3; Scarcity at 1 VP costs nothing; with one card the VP go.
#[test]
fn t11_t18_t19_events() {
    let g = game(2, greedy());
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(4);
    play.setup(&mut dice);
    play.st.enraged = 3;
    play.resolve_event(Event::EnragedBarbarians, &mut dice, &mut NoLog);
    assert_eq!(play.st.enraged, 3);
    play.st.enraged = 1;
    play.resolve_event(Event::EnragedBarbarians, &mut dice, &mut NoLog);
    assert_eq!(play.st.enraged, 2);
    play.st.players[0].vp = 1;
    let hand0 = play.st.players[0].hand.len();
    let c = play.st.players[1].hand.split_off(1);
    play.st.players[1].discard.extend(c);
    play.st.players[1].vp = 9;
    play.resolve_event(Event::Scarcity, &mut dice, &mut NoLog);
    assert_eq!(play.st.players[0].vp, 1);
    assert_eq!(
        play.st.players[0].hand.len(),
        hand0,
        "T-18: no cards discarded"
    );
    assert_eq!(play.st.players[1].vp, 7, "T-19");
    assert_eq!(play.st.players[1].hand.len(), 1);
}

/// T-26, T-27 and sudden death: markers change sides, automatic victory at the threshold.
#[test]
fn t26_t27_conquest_and_sudden_death() {
    let g = game(2, Policy::Random);
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(5);
    play.setup(&mut dice);
    let st = &mut play.st;
    let city = 5; // harbour-2
    st.set_owner(city, 1);
    st.markers[city] = 2;
    let (r0, r1) = (st.players[0].reserve, st.players[1].reserve);
    st.transfer(s, city, 0);
    assert_eq!((st.owner[city], st.markers[city]), (0, 2));
    assert_eq!(
        (st.players[0].reserve, st.players[1].reserve),
        (r0 - 2, r1 + 2)
    );
    let n0 = st.neutral_reserve;
    st.transfer(s, city, NEUTRAL);
    assert_eq!((st.owner[city], st.markers[city]), (NEUTRAL, 2));
    assert_eq!(st.neutral_reserve, n0 - 2);
    assert_eq!(st.players[0].reserve, r0);
    assert_eq!(st.sudden_winner, None);
    // Player 0 takes cities until it holds the automatic-victory count.
    let mut c = 0;
    while st.cities_of(0) < s.auto_win_cities {
        if st.owner[c] != 0 {
            st.transfer(s, c, 0);
        }
        c += 1;
    }
    assert_eq!(st.sudden_winner, Some(0));
}

/// Cards, markers and pacified markers are conserved; every game ends with the shares summing to
/// 1 and VP at least 1 — over thousands of games of both policies on 2-8 players and every
/// perturbation.
#[test]
fn invariants_over_thousands_of_random_games() {
    let files = [
        RING,
        "scenarios/imperios-del-mediterraneo/game/mirror-ring-extra-city.toml",
        "scenarios/imperios-del-mediterraneo/game/mirror-ring-extra-fortification.toml",
        "scenarios/imperios-del-mediterraneo/game/mirror-ring-hand-size.toml",
        "scenarios/imperios-del-mediterraneo/game/mirror-ring-extra-fleet.toml",
    ];
    let mut games = 0;
    let mut endings = [0u32; 2];
    for (f, file) in files.iter().enumerate() {
        for n in 2..=8 {
            for policy in [Policy::Random, greedy()] {
                let g = game_with(file, n, policy, &options());
                let mut play = Play::new(&g);
                let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
                let count = if policy == Policy::Random { 120 } else { 30 };
                for i in 0..count {
                    let mut dice = Dice::for_trial(7, (f * 100 + n) as u64, i);
                    record.clear();
                    play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
                    check(&play, &record);
                    endings[record.ending] += 1;
                    games += 1;
                }
            }
        }
    }
    assert!(games > 3000);
    assert!(endings[1] > 0);
}

pub(super) fn check(play: &Play, record: &GameRecord) {
    let s = &play.game.scenario;
    let st = &play.st;
    for (p, pl) in st.players.iter().enumerate() {
        let deck = s.decks[s.empires[p].deck].cards.len();
        let mut seen = vec![0u8; deck];
        for &c in pl.hand.iter().chain(&pl.draw).chain(&pl.discard) {
            seen[c as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k == 1), "player {p}'s cards: {seen:?}");
        let on_board: u32 = (0..s.map.cities.len())
            .filter(|&c| st.owner[c] as usize == p)
            .map(|c| st.markers[c] as u32)
            .sum();
        assert_eq!(on_board + pl.reserve as u32, MARKERS_PER_EMPIRE as u32);
        assert!(pl.vp >= 1);
    }
    let neutral: u32 = (0..s.map.cities.len())
        .filter(|&c| st.owner[c] == NEUTRAL)
        .map(|c| st.markers[c] as u32)
        .sum();
    assert_eq!(neutral + st.neutral_reserve as u32, NEUTRAL_MARKERS as u32);
    assert!(
        st.markers.iter().all(|&m| m >= 1),
        "every city holds a marker"
    );
    let pacified = st.pacified.iter().filter(|&&x| x).count() as u32;
    assert_eq!(
        pacified + st.pacified_reserve as u32,
        PACIFIED_MARKERS as u32
    );
    assert!(record.turns >= 1 && record.turns <= play.game.turns as u32);
    let shares: f64 = record.win_share.iter().sum();
    assert!((shares - 1.0).abs() < 1e-9);
    if record.ending == 0 {
        let w = record.win_share.iter().position(|&x| x == 1.0).unwrap();
        assert!(st.cities_of(w) >= s.auto_win_cities);
    }
}

/// The swap test: on the mirror ring the empires differ only by seat, so empire 1 playing
/// second wins as often as empire 2 playing second (and likewise first), within 4 standard
/// errors.
#[test]
fn exchanging_seats_exchanges_win_rates() {
    let g = game(2, Policy::Random);
    let games = 20_000u64;
    let mut wins = [[0.0f64; 2]; 2];
    for first in 0..2 {
        let mut play = Play::new(&g);
        play.first = first;
        let mut record = GameRecord::new(2, super::GAME_COLUMNS.len());
        for i in 0..games {
            let mut dice = Dice::for_trial(11, first as u64, i);
            record.clear();
            play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            for p in 0..2 {
                wins[first][p] += record.win_share[p];
            }
        }
    }
    let rate = |first: usize, p: usize| wins[first][p] / games as f64;
    let se = (2.0 * 0.25 / games as f64).sqrt();
    // The empire that plays first: empire 1 with first = 0, empire 2 with first = 1.
    assert!(
        (rate(0, 0) - rate(1, 1)).abs() < 4.0 * se,
        "{} vs {}",
        rate(0, 0),
        rate(1, 1)
    );
    assert!(
        (rate(0, 1) - rate(1, 0)).abs() < 4.0 * se,
        "{} vs {}",
        rate(0, 1),
        rate(1, 0)
    );
}

#[test]
fn the_experiment_does_not_depend_on_threads_and_carries_the_banner() {
    let tmp = tempfile::tempdir().unwrap();
    let mut summaries = Vec::new();
    for threads in [1, 2] {
        let result = crate::game::tests::run_shipped(
            "experiments/imperios-mirror-ring.toml",
            60,
            threads,
            &tmp.path().join(format!("t{threads}")),
        );
        summaries.push(std::fs::read_to_string(result.dir.join("summary.csv")).unwrap());
        let json = std::fs::read_to_string(result.dir.join("summary.json")).unwrap();
        assert!(json.contains(super::scenario::SYNTHETIC_BANNER));
        // Every chart's title (its SVG text) carries it too.
        let mut charts = 0;
        for entry in std::fs::read_dir(&result.dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "svg") {
                let svg = std::fs::read_to_string(&path).unwrap();
                let banner = format!(">\n{} · ", super::scenario::SYNTHETIC_BANNER);
                assert!(svg.contains(&banner), "{} has no banner", path.display());
                charts += 1;
            }
        }
        assert!(charts >= 4, "{charts} charts");
    }
    assert_eq!(summaries[0], summaries[1]);
}

/// Every mirror-ring case in summary.json carries the seat χ², and its statistic is Pearson's
/// formula applied by hand to the case's own win rates × games (df = players − 1), its p-value
/// the χ² tail at that statistic; the printed summary shows the same line.
#[test]
fn the_mirror_ring_summary_carries_the_seat_chi_square() {
    let tmp = tempfile::tempdir().unwrap();
    let result = crate::game::tests::run_shipped(
        "experiments/imperios-mirror-ring.toml",
        300,
        2,
        tmp.path(),
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(result.dir.join("summary.json")).unwrap())
            .unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 7, "2..8 players");
    for case in cases {
        let games = case["games"].as_f64().unwrap();
        let wins: Vec<f64> = case["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["win_rate"].as_f64().unwrap() * games)
            .collect();
        let n = wins.len() as f64;
        let expected = wins.iter().sum::<f64>() / n;
        let by_hand: f64 = wins.iter().map(|w| (w - expected).powi(2) / expected).sum();
        let test = &case["seat_chi_square"];
        let statistic = test["statistic"].as_f64().unwrap();
        assert!(
            (statistic - by_hand).abs() < 1e-6 * by_hand.max(1.0),
            "{statistic} vs {by_hand}"
        );
        assert_eq!(test["df"].as_u64().unwrap() as f64, n - 1.0);
        let p = test["p_value"].as_f64().unwrap();
        let tail = crate::stats::chi_square_sf(by_hand, wins.len() as u32 - 1);
        assert!(
            (p - tail).abs() < 1e-9 && (0.0..=1.0).contains(&p),
            "{p} vs {tail}"
        );
        assert!(test["counted"].as_str().unwrap().contains("1/k"));
    }
    let exp = crate::game::experiment::GameExperiment::load(std::path::Path::new(
        "experiments/imperios-mirror-ring.toml",
    ))
    .unwrap();
    let text = crate::game::report::run_text(&exp, &result);
    assert_eq!(text.matches("seat order: χ² = ").count(), 7, "{text}");
}

#[test]
fn bad_game_tables_are_input_errors() {
    let setup = |text: &str| -> crate::error::AleaError {
        let table: toml::Table = text.parse().unwrap();
        let fields = crate::spec::Fields::new("exp.toml", &table);
        let setup = crate::game::GameSetup {
            source: "exp.toml",
            fields,
            options: options(),
        };
        super::build_game(&setup).err().unwrap()
    };
    for (text, field) in [
        (format!("scenario = \"{RING}\"\nplayers = 9"), "players"),
        (format!("scenario = \"{RING}\""), "players"),
        ("players = 3".to_string(), "scenario"),
        (
            format!("scenario = \"{RING}\"\nplayers = 3\nplayer = 2"),
            "player",
        ),
        (
            format!("scenario = \"{RING}\"\nplayers = 3\npolicies = {{ default = \"greedyy\" }}"),
            "greedyy",
        ),
    ] {
        let e = setup(&text);
        assert_eq!(e.exit_code(), 2, "{e}");
        let msg = e.to_string();
        assert!(msg.contains(field) && !msg.contains('\n'), "{msg}");
    }
    let g = game(3, greedy());
    assert!(g.banner().is_some());
}

/// A pacification's recovery rolls follow the pacify battle's rule (§3.8, A-29, A-38, A-32):
/// won, only the casualty card rolls: 3 troops against an area of 2 dice lose a card with chance
/// 2/6 and it comes back on a 6, so E[cards back] = 2/6 · 1/6 = 1/18; won with survivors
/// rolling, and lost, every card (and leader) rolls: 3 troops and a leader bring back 4/6 in
/// expectation. 200,000 rolls each, within 5 standard errors.
#[test]
fn pacification_recovery_follows_the_pacify_battle() {
    let survivors: toml::Table = "pacify_survivors_get_recovery_roll = true".parse().unwrap();
    let survivors =
        Options::resolve(OPTIONS, crate::spec::Fields::new("test", &survivors)).unwrap();
    for (opts, won, expected) in [
        (options(), true, 1.0 / 18.0),
        (survivors, true, 4.0 / 6.0),
        (options(), false, 4.0 / 6.0),
    ] {
        let g = game_with(RING, 2, Policy::Random, &opts);
        let play = Play::new(&g);
        let s = &g.scenario;
        let mut order = super::military::Cards::default();
        for c in 0..s.decks[0].cards.len() as u8 {
            if super::military::is(s, 0, c, super::scenario::TROOP) && order.len() < 3 {
                order.push(c);
            }
        }
        let n = 200_000;
        let mut dice = Dice::from_seed(5);
        let mut sum = 0.0;
        let mut sum2 = 0.0;
        for _ in 0..n {
            let (back, leaders) =
                play.pacification_recovery(0, &order, 0b111, 1, won, 2, &mut dice);
            let k = (back.count_ones() + leaders) as f64;
            sum += k;
            sum2 += k * k;
        }
        let mean = sum / n as f64;
        let se = ((sum2 / n as f64 - mean * mean) / n as f64).sqrt();
        assert!(
            (mean - expected).abs() < 5.0 * se,
            "won {won}: {mean} vs {expected} (se {se})"
        );
    }
}

/// The expedition cache answers what a fresh chain computes, however its lookups go (its front
/// table, its map, the front slot taken by another key in between), and a kept expedition plays
/// the dice as a fresh one does.
#[test]
fn the_expedition_cache_answers_what_a_fresh_chain_computes() {
    use super::military::{Cache, Defence};
    let g = game_with(RING, 4, greedy(), &options());
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(7, 0, 0);
    play.setup(&mut dice);
    let s = &g.scenario;
    let mut targets = [super::decide::Way::default(); 64];
    let k = play.targets(0, &mut targets);
    assert!(k > 3, "player 1 reaches {k} targets");
    let hand = play.st.players[0].hand.clone();
    let mut plans = Vec::new();
    for way in &targets[..k] {
        for n in 1..=hand.len().min(4) {
            let mut plan = way.plan();
            for &c in &hand[..n] {
                plan.cards.push(c);
            }
            plans.push(plan);
        }
    }
    let o = &g.rules.options;
    let mut warm = Cache::default();
    for round in 0..3 {
        for plan in &plans {
            let fresh = Cache::default().chance(s, &play.st, o, 0, plan, &Defence::default());
            let kept = warm.chance(s, &play.st, o, 0, plan, &Defence::default());
            assert_eq!(kept, fresh, "round {round}, {plan:?}");
        }
    }
    for (i, plan) in plans.iter().enumerate() {
        let mut fresh_dice = Dice::for_trial(3, 1, i as u64);
        let mut kept_dice = Dice::for_trial(3, 1, i as u64);
        for _ in 0..2 {
            let none = Defence::default();
            let fresh = Cache::default().play(s, &play.st, o, 0, plan, &none, &mut fresh_dice);
            let kept = warm.play(s, &play.st, o, 0, plan, &none, &mut kept_dice);
            assert_eq!(kept, fresh, "{plan:?}");
        }
    }
}

/// The lines a game logs.
struct Lines(Vec<String>);

impl crate::game::GameLog for Lines {
    fn on(&self) -> bool {
        true
    }
    fn line(&mut self, text: std::fmt::Arguments) {
        self.0.push(text.to_string());
    }
}

/// T-05: the starting state (10 VP each, turn 1, round 1, Enraged 0). T-38: no expedition in
/// Time for diplomacy. T-39: up to two in Campaign season, and a strait wreck on the first
/// forfeits the second (A-23's default). Greedy and random players; bad weather makes wrecks
/// common (the random player's routes cross straits).
#[test]
fn t05_t38_t39_start_and_the_action_phase_under_events() {
    use crate::rulesets::imperios_del_mediterraneo::strait::Weather;
    let (mut two, mut wrecked_first) = (0, 0);
    for policy in [greedy(), Policy::Random] {
        let g = game(4, policy);
        assert!(g.rules.wreck_ends_phase, "A-23's default");
        let mut play = Play::new(&g);
        for i in 0..5000 {
            let mut dice = Dice::for_trial(17, 0, i);
            play.setup(&mut dice);
            assert!(play.st.players.iter().all(|p| p.vp == 10), "T-05");
            assert_eq!(
                (play.st.turn, play.st.round, play.st.enraged),
                (1, 1, 0),
                "T-05"
            );
            play.st.weather = Weather::Bad;
            let p = (i % 4) as usize;
            play.st.event = Event::TimeForDiplomacy;
            assert!(!play.action_phase(p, None, &mut dice, &mut NoLog), "T-38");
            assert_eq!(play.st.counts.expeditions, 0, "T-38");
            play.st.event = Event::CampaignSeason;
            let mut log = Lines(Vec::new());
            play.action_phase(p, None, &mut dice, &mut log);
            let declared = play.st.counts.expeditions;
            assert!(declared <= 2, "T-39: {declared} expeditions");
            two += (declared == 2) as u32;
            if log.0.first().is_some_and(|l| l.contains("Wrecked")) {
                wrecked_first += 1;
                assert_eq!(declared, 1, "T-39: a wreck ends the phase: {:?}", log.0);
            }
        }
    }
    assert!(
        two > 100 && wrecked_first > 5,
        "{two} double phases, {wrecked_first} first wrecks"
    );
}

/// Interceptions at sea and at the attacker's departure port (before the naval battle) are
/// fought in games of random and greedy players, with every card and marker conserved.
#[test]
fn games_intercept_at_sea_and_at_the_departure_port() {
    let (mut at_sea, mut at_departure) = (0, 0);
    for n in [3, 5] {
        for policy in [Policy::Random, greedy()] {
            let g = game(n, policy);
            let mut play = Play::new(&g);
            let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
            for i in 0..150 {
                let mut dice = Dice::for_trial(11, n as u64, i);
                record.clear();
                play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
                check(&play, &record);
                at_sea += play.st.counts.naval_interceptions;
                at_departure += play.st.counts.departure_interceptions;
            }
        }
    }
    assert!(at_sea > 0 && at_departure > 0, "{at_sea} {at_departure}");
}

/// A land leg after the naval one (§3.1): with a port of its own in another sector, player 1
/// is offered a march to the cities behind that port that it cannot reach by land, with the
/// straits of both land legs, and the march plays with every card conserved.
#[test]
fn a_port_overseas_opens_a_march() {
    use super::decide::Way;
    use super::military::Plan;
    use super::scenario::{FLEET, TROOP};
    let g = game(4, Policy::Random);
    let s = &g.scenario;
    let node = |name: &str| {
        (0..s.map.nodes())
            .find(|&n| s.map.node_name(n) == name)
            .unwrap()
    };
    let mut marched = 0;
    for seed in 0..40 {
        let mut play = Play::new(&g);
        let mut dice = Dice::for_trial(5, 0, seed);
        play.setup(&mut dice);
        let (harbour, shrine) = (node("harbour-3"), node("shrine-3"));
        play.st.transfer(s, harbour, 0);
        if play.st.owner[shrine] == 0 {
            continue;
        }
        let mut targets = [Way::default(); 64];
        let k = play.targets(0, &mut targets);
        let way = targets[..k]
            .iter()
            .find(|w| w.node == shrine)
            .copied()
            .expect("shrine-3 offered");
        assert!(way.naval && way.march, "{way:?}");
        assert_eq!(way.arrive as usize, harbour);
        // The capital is a port: no strait before the sea, none from harbour-3 to shrine-3.
        assert_eq!(way.straits, 0);
        assert!(!targets[..k].iter().any(|w| w.node == shrine && !w.naval));
        let hand = play.st.players[0].hand.clone();
        let mut plan: Plan = way.plan();
        let (mut troops, mut room) = (0, 0);
        for &c in &hand {
            if super::military::is(s, 0, c, FLEET) && room < 4 {
                plan.cards.push(c);
                let d = &s.decks[s.empires[0].deck];
                room += d.kinds[d.cards[c as usize] as usize].naval.as_count();
            }
        }
        for &c in &hand {
            if super::military::is(s, 0, c, TROOP) && troops < room.min(3) {
                plan.cards.push(c);
                troops += 1;
            }
        }
        if troops == 0 {
            continue;
        }
        play.expedition(0, plan, &mut dice, &mut NoLog);
        marched += play.st.counts.marches;
        for (p, pl) in play.st.players.iter().enumerate() {
            let mut seen = vec![0u8; s.decks[s.empires[p].deck].cards.len()];
            for &c in pl.hand.iter().chain(&pl.draw).chain(&pl.discard) {
                seen[c as usize] += 1;
            }
            assert!(seen.iter().all(|&k| k == 1), "player {p}'s cards: {seen:?}");
        }
    }
    assert!(marched > 10, "{marched}");
}

/// T-03: the component counts (32 markers for each of 8 empires, 50 neutral, 25 pacified: 331
/// discs); T-20: VP above 40 are stored as they are (43), only the floor of 1 applies.
#[test]
fn t03_t20_components_and_high_vp() {
    assert_eq!(
        8 * MARKERS_PER_EMPIRE as u32 + NEUTRAL_MARKERS as u32 + PACIFIED_MARKERS as u32,
        331
    );
    let g = game(3, greedy());
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(1, 0, 0);
    play.setup(&mut dice);
    play.st.players[0].vp = 40;
    play.st.add_vp(0, 3);
    assert_eq!(play.st.players[0].vp, 43);
    play.st.add_vp(0, -50);
    assert_eq!(play.st.players[0].vp, 1);
}
