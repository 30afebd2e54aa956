//! The experiment design of digest §6.3 as run: the swap test (exchanging two empires' seats on
//! the mirror ring exchanges their win rates), the perturbations' differences from the mirror,
//! the χ² of equal seats only where seats are equal, and the refusal of real-game win rates on
//! data that is not transcribed.

use super::game_tests::{options, RING};
use super::turn::Play;
use super::{build_game, Game};
use crate::dice::Dice;
use crate::game::{GameModel, GameRecord, NoLog, NoObserver};

fn build(extra: &str) -> crate::error::Result<Game> {
    let table: toml::Table = extra.parse().unwrap();
    let fields = crate::spec::Fields::new("exp.toml", &table);
    let setup = crate::game::GameSetup {
        source: "exp.toml",
        fields,
        options: options(),
    };
    build_game(&setup)
}

/// Each empire's mean win share over `games` games of stream `stream`.
fn rates(g: &Game, games: u64, stream: u64) -> Vec<f64> {
    let n = g.players.len();
    let mut play = Play::new(g);
    let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
    let mut wins = vec![0.0; n];
    for i in 0..games {
        let mut dice = Dice::for_trial(31, stream, i);
        record.clear();
        play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
        for p in 0..n {
            wins[p] += record.win_share[p];
        }
    }
    wins.iter().map(|w| w / games as f64).collect()
}

/// The swap test of issue 23 with `seat_order`: on the 2-sector ring the sectors are each
/// other's mirror image, so empire 1 playing second must win what empire 2 won playing second
/// (and likewise first), within 4 standard errors of the difference of two independent rates;
/// on 4 sectors (straits run one way round the ring, so only rotations are symmetries) the
/// order rotated by one gives empire k + 1 what empire k had.
#[test]
fn exchanging_two_empires_seats_exchanges_their_win_rates() {
    let games = 12_000;
    let ring = |order: &str, n: usize| {
        build(&format!(
            "scenario = \"{RING}\"\nplayers = {n}\nseat_order = {order}"
        ))
        .unwrap()
    };
    let plain = rates(&ring("[1, 2]", 2), games, 1);
    let swapped = rates(&ring("[2, 1]", 2), games, 2);
    let se = |p: f64| (2.0 * p * (1.0 - p) / games as f64).sqrt();
    for (a, b) in [(0, 1), (1, 0)] {
        assert!(
            (plain[a] - swapped[b]).abs() < 4.0 * se(plain[a]),
            "{plain:?} vs {swapped:?}"
        );
    }
    let plain = rates(&ring("[1, 2, 3, 4]", 4), games / 2, 3);
    let rotated = rates(&ring("[2, 3, 4, 1]", 4), games / 2, 4);
    let se = |p: f64| (2.0 * p * (1.0 - p) / (games / 2) as f64).sqrt();
    for k in 0..4 {
        assert!(
            (plain[k] - rotated[(k + 1) % 4]).abs() < 4.0 * se(plain[k]),
            "{plain:?} vs {rotated:?}"
        );
    }
}

#[test]
fn seat_order_must_be_a_permutation() {
    for bad in ["[1, 1, 2]", "[1, 2]", "[1, 2, 4]", "\"first\""] {
        let e = build(&format!(
            "scenario = \"{RING}\"\nplayers = 3\nseat_order = {bad}"
        ))
        .err()
        .unwrap();
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(
            msg.contains("seat_order") && msg.contains("permutation") && !msg.contains('\n'),
            "{msg}"
        );
    }
}

/// The χ² of equal seats only on the unperturbed ring with one policy for all.
#[test]
fn equal_seats_are_tested_only_where_seats_are_equal() {
    let at = |scenario: &str, policies: &str| {
        build(&format!(
            "scenario = \"{scenario}\"\nplayers = 3\npolicies = {policies}"
        ))
        .unwrap()
        .tests_equal_seats()
    };
    let greedy = "{ default = \"greedy\" }";
    assert!(at(RING, greedy));
    assert!(at(RING, "{ default = \"mixture\" }"));
    assert!(!at(RING, "{ default = \"greedy\", empire_2 = \"turtle\" }"));
    for f in [
        "extra-city",
        "extra-fortification",
        "hand-size",
        "extra-fleet",
    ] {
        let file = format!("scenarios/imperios-del-mediterraneo/game/mirror-ring-{f}.toml");
        assert!(!at(&file, greedy), "{f}");
    }
}

/// A transcribed map whose tables or decks are not transcribed: per-empire win rates of the
/// real game are refused (one line, exit 2); once everything is transcribed the game builds,
/// without the banner. The synthetic ring runs (its outputs carry the banner).
#[test]
fn real_game_win_rates_are_refused_until_every_file_is_transcribed() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::path::Path::new("scenarios/imperios-del-mediterraneo/game");
    let copy = |name: &str, transcribed: bool| {
        let mut text = std::fs::read_to_string(src.join(name)).unwrap();
        if transcribed {
            for from in ["\"synthetic\"", "\"placeholder\""] {
                text = text.replace(from, "\"transcribed\"");
            }
        }
        std::fs::write(dir.path().join(name), text).unwrap();
    };
    copy("mirror-ring.toml", true);
    copy("decks.toml", true);
    copy("tables.toml", false);
    let map = dir.path().join("mirror-ring.toml");
    let e = build(&format!(
        "scenario = {:?}\nplayers = 3",
        map.to_str().unwrap()
    ))
    .err()
    .unwrap();
    let msg = e.to_string();
    assert_eq!(e.exit_code(), 2);
    assert!(
        msg.contains("refused") && msg.contains("tables.toml") && msg.contains("placeholder"),
        "{msg}"
    );
    assert!(!msg.contains('\n'), "{msg}");
    copy("tables.toml", true);
    let real = build(&format!(
        "scenario = {:?}\nplayers = 3",
        map.to_str().unwrap()
    ))
    .unwrap();
    assert_eq!(real.banner(), None);
    let synthetic = build(&format!("scenario = \"{RING}\"\nplayers = 3")).unwrap();
    assert!(synthetic.banner().is_some());
}

/// The shipped perturbation experiment: each perturbed variant's win rates less the mirror's,
/// player by player, with the normal interval of two independent rates; none for the mirror
/// itself; the χ² only for the mirror; the difference chart drawn.
#[test]
fn perturbations_are_reported_as_differences_from_the_mirror() {
    let tmp = tempfile::tempdir().unwrap();
    let result = crate::game::tests::run_shipped(
        "experiments/imperios-perturbations.toml",
        200,
        2,
        tmp.path(),
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(result.dir.join("summary.json")).unwrap())
            .unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5);
    let mirror = &cases[0];
    assert!(mirror.get("difference_from_baseline").is_none());
    assert!(mirror.get("seat_chi_square").is_some());
    for case in &cases[1..] {
        assert!(case.get("seat_chi_square").is_none(), "{}", case["variant"]);
        let d = &case["difference_from_baseline"];
        assert_eq!(d["baseline"], "mirror");
        for (i, row) in d["players"].as_array().unwrap().iter().enumerate() {
            let (w, b) = (
                case["players"][i]["win_rate"].as_f64().unwrap(),
                mirror["players"][i]["win_rate"].as_f64().unwrap(),
            );
            let (sw, sb) = (
                case["players"][i]["win_se"].as_f64().unwrap(),
                mirror["players"][i]["win_se"].as_f64().unwrap(),
            );
            let diff = row["difference"].as_f64().unwrap();
            assert!((diff - (w - b)).abs() < 1e-9);
            let half = 1.959964 * (sw * sw + sb * sb).sqrt();
            assert!((row["ci_high"].as_f64().unwrap() - (w - b + half)).abs() < 1e-6);
            assert!((row["ci_low"].as_f64().unwrap() - (w - b - half)).abs() < 1e-6);
        }
    }
    assert!(result
        .files
        .iter()
        .any(|f| f.starts_with("win-rate-difference")));
    let text = crate::game::report::run_text(
        &crate::game::experiment::GameExperiment::load(std::path::Path::new(
            "experiments/imperios-perturbations.toml",
        ))
        .unwrap(),
        &result,
    );
    assert_eq!(
        text.matches("win rate less variant \"mirror\"'s").count(),
        4
    );
    assert_eq!(text.matches("seat order: χ²").count(), 1);
}
