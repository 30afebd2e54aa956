use super::scenario::{Scenario, G, T};
use super::state::State;
use super::*;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver, TextLog};
use crate::spec::Fields;

const PATH: &str = "scenarios/mare-nostrum/segunda-guerra-punica.toml";

fn model(policies: &str) -> Model {
    let text = format!("scenario = \"{PATH}\"\nturn_cap = 60\n[policies]\n{policies}\n");
    let table: toml::Table = toml::from_str(&text).unwrap();
    let setup = GameSetup {
        source: "test.toml",
        fields: Fields::new("test.toml", &table),
        options: Options::defaults(super::super::OPTIONS),
    };
    let f = &setup.fields;
    let text = std::fs::read_to_string(PATH).unwrap();
    let scenario =
        Scenario::load(PATH, &text, &toml::Table::new(), "assumptions", "test.toml").unwrap();
    let keys: Vec<String> = scenario.nations.iter().map(|n| n.key.clone()).collect();
    let empty = toml::Table::new();
    let chosen = CATALOG
        .assign(&f.table("policies", &empty).unwrap(), &keys, "economist")
        .unwrap();
    let n = keys.len();
    Model::new(scenario, &setup.options, 60, chosen, vec![0; n])
}

#[test]
fn first_year_income_matches_the_digest_for_every_nation() {
    // Digest §6.4: income T, +G, +R, +Cb, and grain left after the first year's upkeep.
    let expected: [(&str, i64, i64, i64, i64, i64); 13] = [
        ("gauls", 195, 9, 7, 3, 11),
        ("carthage", 355, 12, 14, 2, 10),
        ("egypt", 275, 20, 6, 0, 24),
        ("seleucid", 360, 6, 5, 2, 6),
        ("armenia", 185, 5, 10, 1, 5),
        ("pergamon", 315, 7, 4, 0, 0),
        ("pontus", 275, 5, 6, 0, 5),
        ("bosporus", 205, 8, 11, 2, 7),
        ("dacians", 130, 7, 9, 0, 7),
        ("germans", 155, 7, 6, 1, 7),
        ("illyria", 245, 6, 7, 0, 8),
        ("macedon", 260, 5, 6, 2, 1),
        ("rome", 430, 14, 8, 1, 8),
    ];
    let m = model("");
    let mut s = State::default();
    s.reset(&m, &mut Dice::from_seed(1));
    let start: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    s.turn = 1;
    s.economic_phase(&m, &mut economy::Scratch::default(), &mut NoLog);
    for (n, &(key, t, g, r, cb, g_left)) in expected.iter().enumerate() {
        assert_eq!(m.scenario.nations[n].key, key);
        let got = s.nations[n].goods;
        assert_eq!(got[T] - start[n][T], t, "{key} talents");
        assert_eq!(
            got[scenario::R] - start[n][scenario::R],
            r,
            "{key} resources"
        );
        assert_eq!(
            got[scenario::CB] - start[n][scenario::CB],
            cb,
            "{key} horses"
        );
        assert_eq!(got[G], g_left, "{key} grain left (income {g})");
        assert_eq!(
            s.nations[n].stability,
            s.nations[0].stability.max(m.starting_stability),
            "{key} fed all its cities"
        );
    }
}

#[test]
fn diplomacy_costs_e11_e12_e13_and_growth_caps_e6_e7() {
    let m = model("");
    let mut s = State::default();
    s.reset(&m, &mut Dice::from_seed(2));
    let rome = 12;
    // An independent next to Rome: HP8 or GL13 (Rome's allies) are adjacent by land or sea.
    let p = *m
        .independents
        .iter()
        .find(|&&p| m.adjacent_to_nation(&s, rome, p) && s.provinces[p].indep_leader == usize::MAX)
        .unwrap();
    s.provinces[p].troops = [4, 0];
    s.provinces[p].grade[rome] = 3; // subsidiary -> military alliance costs 15 x units
    s.nations[rome].stability = 2; // High
    assert_eq!(s.independent_cost(&m, rome, p), Some(55)); // E11
    s.provinces[p].ppu = 5;
    s.provinces[p].grade[rome] = 4; // military alliance -> vassal costs 10 x PPU
    s.nations[rome].stability = 6; // Fiasco
    assert_eq!(s.independent_cost(&m, rome, p), Some(70)); // E12
    s.provinces[p].ppu = 3;
    s.nations[rome].stability = 0; // Optimal
    assert_eq!(s.independent_cost(&m, rome, p), Some(30)); // E13: the minimum
                                                           // E6, E7: growth caps at floor(1.5 x start).
    assert_eq!(6 * 3 / 2, 9);
    let q = s
        .provinces_of(rome)
        .find(|&q| s.provinces[q].ppu == 1 || s.provinces[q].ppr == 7);
    if let Some(q) = q {
        let pr = &s.provinces[q];
        assert_eq!(pr.ppu_max, pr.ppu * 3 / 2);
        assert_eq!(pr.ppr_max, pr.ppr * 3 / 2);
    }
}

#[test]
fn war_on_a_commercial_ally_costs_a_level_and_halves_trade_e3() {
    let m = model("");
    let mut s = State::default();
    s.reset(&m, &mut Dice::from_seed(3));
    let (rome, egypt) = (12, 2);
    s.turn = 3;
    let (from, to) = (s.home_port(egypt).unwrap(), s.home_port(rome).unwrap());
    s.trade.push(state::TradeLink {
        owner: egypt as u8,
        from: from as u16,
        to: to as u16,
        points: 7,
    });
    let before = s.nations[egypt].stability;
    s.declare_war(&m, egypt, rome, &mut NoLog);
    assert!(s.at_war(egypt, rome));
    assert_eq!(s.nations[egypt].stability, before + 1);
    assert_eq!(s.trade[0].points, 3);
    assert_eq!(s.nations[egypt].commercial & (1 << rome), 0);
    // E4-like: a nation that would fall into Collapse cannot declare war.
    s.nations[rome].stability = 6;
    assert!(!s.may_declare_war(rome, 0));
}

fn play(m: &Model, seed: u64, log: &mut dyn crate::game::GameLog) -> (GameRecord, State) {
    let mut w = turn::Worker::new(m);
    let mut r = GameRecord::new(13, GAME_COLUMNS.len());
    w.play(&mut Dice::from_seed(seed), &mut r, &mut NoObserver, log);
    (r, w.state().clone())
}

#[test]
fn games_end_keep_their_invariants_and_replay_from_the_seed() {
    let mixes = [
        "",
        "default = \"random\"",
        "default = \"aggressor\"\negypt = \"naval\"\npergamon = \"expansionist\"",
        "default = { policy = \"aggressor\", aggression = 1.0 }",
    ];
    let mut endings = [0u32; 6];
    for (i, mix) in mixes.iter().enumerate() {
        let m = model(mix);
        for g in 0..500u64 {
            let (r, s) = play(&m, 1000 * i as u64 + g, &mut NoLog);
            assert!(r.turns >= 1 && r.turns <= 60, "game ends by the cap");
            endings[r.ending] += 1;
            let shares: f64 = r.win_share.iter().sum();
            assert!(
                (shares - 1.0).abs() < 1e-9,
                "someone wins: {:?}",
                r.win_share
            );
            for n in &s.nations {
                for k in 1..4 {
                    assert!(
                        n.goods[k] >= 0,
                        "grain, resources and horses never go negative"
                    );
                }
            }
            assert_eq!(
                s.eliminated as usize,
                s.nations.iter().filter(|n| !n.alive).count()
            );
            for (p, pr) in s.provinces.iter().enumerate() {
                if pr.owner != state::NONE {
                    assert!(
                        s.nations[pr.owner as usize].alive || pr.owner == state::NONE,
                        "province {p} of a dead nation"
                    );
                }
                assert!(pr.ppu <= pr.ppu_max.max(pr.ppu));
            }
            for n in 0..s.nations.len() {
                let owned: Vec<usize> = s.provinces_of(n).collect();
                let scanned: Vec<usize> = (0..s.provinces.len())
                    .filter(|&p| s.provinces[p].owner as usize == n)
                    .collect();
                assert_eq!(
                    owned, scanned,
                    "the owned list of nation {n} follows the owners"
                );
            }
            let free: Vec<usize> = s.free_independents().collect();
            let unowned: Vec<usize> = m
                .independents
                .iter()
                .copied()
                .filter(|&p| s.provinces[p].owner == state::NONE)
                .collect();
            assert_eq!(
                free, unowned,
                "the free independents are the unannexed ones"
            );
            assert_eq!(
                s.units_ledger,
                s.nations
                    .iter()
                    .enumerate()
                    .map(|(n, _)| s.total_units(n) as i64)
                    .sum::<i64>()
                    + s.provinces
                        .iter()
                        .map(|p| (p.troops[0] + p.troops[1]) as i64)
                        .sum::<i64>(),
                "land units change only through the rules that create and destroy them (mix {i}, game {g})"
            );
        }
    }
    assert!(endings.iter().sum::<u32>() == 2000);
    // Replays: same seed, same game; the log tells the story.
    let m = model("default = \"aggressor\"");
    let (a, _) = play(&m, 7, &mut NoLog);
    let mut log = TextLog::default();
    let (b, _) = play(&m, 7, &mut log);
    assert_eq!(a, b);
    assert!(
        log.lines.iter().any(|l| l.contains("declares war")),
        "{}",
        log.lines.join("\n")
    );
}

#[test]
fn scenario_errors_name_the_file_and_the_entry() {
    let text = std::fs::read_to_string(PATH).unwrap();
    let twice = text.replacen(
        "provinces = [\"GL1\", ",
        "provinces = [\"IT1\", \"GL1\", ",
        1,
    );
    let e = Scenario::load(
        "x.toml",
        &twice,
        &toml::Table::new(),
        "assumptions",
        "e.toml",
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("x.toml")
            && e.contains("nation[12].provinces")
            && e.contains("IT1")
            && e.contains("gauls"),
        "{e}"
    );
    let edge = text.replacen("\"IT1-IT2\"", "\"IT1-XX9\"", 1);
    let e = Scenario::load(
        "x.toml",
        &edge,
        &toml::Table::new(),
        "assumptions",
        "e.toml",
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("map.land[0]") && e.contains("XX9"), "{e}");
    let mut over = toml::Table::new();
    over.insert(
        "starting_stability".into(),
        toml::Value::String("great".into()),
    );
    let e = Scenario::load("x.toml", &text, &over, "game.assumptions", "e.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("e.toml")
            && e.contains("game.assumptions.starting_stability")
            && e.contains("very-high"),
        "{e}"
    );
}

#[test]
#[ignore = "timing, run by hand"]
fn timing() {
    let m = model("default = \"economist\"\nrome = \"aggressor\"\ncarthage = \"aggressor\"\nmacedon = \"aggressor\"\negypt = \"naval\"\npergamon = \"expansionist\"\npontus = \"expansionist\"");
    let t = std::time::Instant::now();
    let mut turns = 0;
    let mut endings = [0; 6];
    for g in 0..2000 {
        let (r, _) = play(&m, g, &mut NoLog);
        turns += r.turns;
        endings[r.ending] += 1;
    }
    eprintln!(
        "2000 games in {:?}, mean {} turns, endings {:?}",
        t.elapsed(),
        turns as f64 / 2000.0,
        endings
    );
}

#[test]
fn the_balance_experiment_runs_end_to_end_and_does_not_depend_on_threads() {
    use crate::game::experiment::GameExperiment;
    use crate::game::sweep::{run_games, GameRunSettings};
    let exp = GameExperiment::load(std::path::Path::new(
        "experiments/mare-nostrum-punic-balance.toml",
    ))
    .unwrap();
    let root = std::env::temp_dir().join(format!("alea-mn-game-{}", std::process::id()));
    let mut summaries = Vec::new();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut exp = GameExperiment::load(std::path::Path::new(
            "experiments/mare-nostrum-punic-balance.toml",
        ))
        .unwrap();
        exp.games = 300;
        let settings = GameRunSettings {
            out_root: root.join(format!("t{threads}")),
            show_progress: false,
        };
        let result = pool.install(|| run_games(&exp, &settings)).unwrap();
        assert_eq!(result.games, 300);
        for f in [
            "games.parquet",
            "summary.csv",
            "win-rates.png",
            "game-length.png",
            "score-over-turns.png",
            "endings.png",
        ] {
            assert!(
                result.dir.join(f).exists(),
                "{f} missing in {:?}",
                result.files
            );
        }
        summaries.push(std::fs::read_to_string(result.dir.join("summary.csv")).unwrap());
    }
    assert_eq!(summaries[0], summaries[1]);
    assert!(summaries[0].contains("Rome") && summaries[0].contains("aggressor"));
    let _ = exp;
    std::fs::remove_dir_all(&root).ok();
}
