//! Mare Nostrum's full game: the digest's worked examples (E-numbers), invariants over random
//! games, replay from the seed and bad scenario input; the policies' play and the kept searches
//! in the submodules.

use super::scenario::{Scenario, G, T};
use super::state::State;
use super::*;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver, TextLog};
use crate::spec::Fields;

mod kept_searches;
mod scripted_play;

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

/// The scenario's starting position, leaders drawn with `seed`.
fn start(m: &Model, seed: u64) -> State {
    let mut s = State::default();
    s.reset(m, &mut Dice::from_seed(seed));
    s
}

/// The default policies' model and its starting position.
fn at_start(seed: u64) -> (Model, State) {
    let m = model("");
    let s = start(&m, seed);
    (m, s)
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
    let (m, mut s) = at_start(1);
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
    let (m, mut s) = at_start(2);
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
}

#[test]
fn growth_stops_at_half_again_the_starting_figures_e6_e7() {
    let mut m = model("");
    let rome = 12;
    let (city, farm) = (m.scenario.nations[rome].capital, {
        let s = &m.scenario;
        (0..s.provinces.len())
            .find(|&p| s.provinces[p].owner == Some(rome) && p != s.nations[rome].capital)
            .unwrap()
    });
    m.scenario.provinces[city].ppu = 6; // E6
    m.scenario.provinces[city].ppr = 12;
    m.scenario.provinces[farm].ppr = 7; // E7
    m.scenario.provinces[farm].ppu = 1;
    let mut s = start(&m, 2);
    assert_eq!(s.provinces[city].ppu_max, 9);
    assert_eq!(
        (s.provinces[farm].ppr_max, s.provinces[farm].ppu_max),
        (10, 1)
    );
    // A rich Rome buying population every year never passes the caps.
    let mut dice = Dice::from_seed(3);
    let buyer = model("rome = \"random\"");
    for _ in 0..200 {
        s.nations[rome].goods = [10_000, 100, 100, 0];
        s.population_changes(&buyer, &buyer.policies, &mut dice);
        assert!(s.provinces[city].ppu <= 9);
        assert!(s.provinces[farm].ppr <= 10 && s.provinces[farm].ppu <= 1);
    }
    assert_eq!(s.provinces[farm].ppu, 1, "floor(1.5 x 1) = 1: no growth");
}

#[test]
fn war_on_a_commercial_ally_costs_a_level_and_halves_trade_e3() {
    let (m, mut s) = at_start(3);
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

/// Plays a game checking after every phase that only military upkeep drives a treasury below
/// zero (§5.3, L443-L445): every other payment is cut to what the nation has; that the
/// unit totals and the nations present in each province the state keeps are what a recount of
/// the armies gives; and that the naval
/// phase's table of ports is what counting each nation's ports on each sea gives.
fn play_checking_treasuries(m: &Model, seed: u64) -> (GameRecord, State) {
    let mut w = turn::Worker::new(m);
    let mut r = GameRecord::new(13, GAME_COLUMNS.len());
    let mut before: Vec<i64> = Vec::new();
    let mut check = |phase: turn::Phase, s: &State| {
        for n in 0..s.nations.len() {
            assert_eq!(
                s.units_by_class(n),
                s.recount_units(n),
                "{phase:?}: nation {n}'s kept unit totals (game {seed})"
            );
            assert_eq!(
                s.hostile_independent(n),
                s.recount_hostile(n) > 0,
                "{phase:?}: independents Hostile to nation {n} (game {seed})"
            );
        }
        for p in 0..s.provinces.len() {
            assert_eq!(
                s.present(p),
                s.recount_present(p),
                "{phase:?}: the nations with units in province {p} (game {seed})"
            );
        }
        let ports = s.ports_by_sea(m);
        for n in 0..s.nations.len() {
            for sea in 0..m.scenario.seas.len() {
                assert_eq!(
                    ports[n][sea],
                    s.ports_on(m, n, sea),
                    "{phase:?}: ports of nation {n} on sea {sea} (game {seed})"
                );
            }
        }
        let now: Vec<i64> = s.nations.iter().map(|n| n.goods[T]).collect();
        if phase != turn::Phase::MilitaryUpkeep && !before.is_empty() {
            for (n, (&b, &a)) in before.iter().zip(&now).enumerate() {
                assert!(
                    a >= b.min(0),
                    "{phase:?} took nation {n}'s treasury from {b} T to {a} T (game {seed})"
                );
            }
        }
        before = now;
    };
    w.play_watched(
        &mut Dice::from_seed(seed),
        &mut r,
        &mut NoObserver,
        &mut NoLog,
        &mut check,
    );
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
            let (r, s) = play_checking_treasuries(&m, 1000 * i as u64 + g);
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
fn the_balance_experiment_runs_end_to_end_and_does_not_depend_on_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let mut summaries = Vec::new();
    for threads in [1, 2] {
        let result = crate::game::tests::run_shipped(
            "experiments/mare-nostrum-punic-balance.toml",
            300,
            threads,
            &tmp.path().join(format!("t{threads}")),
        );
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
}

/// Egypt (X) and Rome (Y) with a commercial alliance, Egypt granting Rome passage (§8 E2).
fn e2_situation() -> (Model, State, usize, usize) {
    let (m, mut s) = at_start(3);
    let (x, y) = (2, 12);
    s.turn = 3;
    for n in 0..s.nations.len() {
        s.nations[n].military = 0;
        s.nations[n].commercial = 0;
    }
    s.nations[x].commercial = 1 << y;
    s.nations[y].commercial = 1 << x;
    s.nations[x].passage = 1 << y;
    s.nations[x].stability = 3;
    s.nations[y].stability = 3;
    (m, s, x, y)
}

#[test]
fn war_on_the_nation_one_lets_through_costs_two_levels_e2_and_is_refused_near_collapse_e4() {
    let (m, mut s, x, y) = e2_situation();
    let (from, to) = (s.home_port(x).unwrap(), s.home_port(y).unwrap());
    s.trade.push(state::TradeLink {
        owner: x as u8,
        from: from as u16,
        to: to as u16,
        points: 5,
    });
    assert_eq!(s.war_declaration_cost(x, y), 2);
    assert_eq!(s.war_declaration_cost(y, x), 1, "E3: Y revokes nothing");
    s.declare_war(&m, x, y, &mut NoLog);
    assert!(s.at_war(x, y));
    assert_eq!(
        s.nations[x].stability, 5,
        "-1 declaration, -1 passage revoked"
    );
    assert_eq!(s.nations[y].stability, 3);
    assert!(!s.passage(x, y));
    assert_eq!(s.trade[0].points, 2, "trade points halved, rounded down");
    assert_eq!(s.nations[x].commercial & (1 << y), 0);
    assert_eq!(s.nations[x].no_renewal[y], s.year + 5);
    assert_eq!(s.nations[y].no_renewal[x], s.year + 5);
    // E4: at Very Low (5) the same declaration would reach Collapse (5 + 2 = 7).
    let (_, mut s, x, y) = e2_situation();
    s.nations[x].stability = 5;
    assert!(!s.may_declare_war(x, y));
    s.nations[x].stability = 4;
    assert!(s.may_declare_war(x, y), "Low: 4 + 2 = 6, Fiasco, allowed");
    // Troops let in under that passage bar the declaration (L353).
    let p = s.provinces_of(x).next().unwrap();
    s.army_mut(y, p)[state::INF] = 3;
    assert!(!s.may_declare_war(x, y));
}

#[test]
fn ending_a_commercial_alliance_gives_the_other_a_casus_belli_e5() {
    let (m, mut s, x, y) = e2_situation();
    s.nations[x].passage = 0;
    s.nations[x].military = 1 << y;
    s.nations[y].military = 1 << x;
    assert!(!s.may_declare_war(y, x), "no war on a military ally");
    s.end_agreement(&m, x, y, diplomacy::Agreement::Commercial, &mut NoLog);
    assert_eq!(s.nations[x].commercial & (1 << y), 0);
    assert_eq!(
        s.nations[x].stability, 3,
        "a commercial alliance ends without a stability loss"
    );
    // Next year Y may declare war on X, ignoring the military alliance, at no stability cost.
    s.turn += 1;
    s.year += 1;
    assert!(s.may_declare_war(y, x));
    s.declare_war(&m, y, x, &mut NoLog);
    assert!(s.at_war(x, y));
    assert_eq!(s.nations[y].stability, 3);
    assert!(!s.allied(x, y));
    // The casus belli lasts until the end of the year after it arose.
    let (m, mut s, x, y) = e2_situation();
    s.end_agreement(&m, x, y, diplomacy::Agreement::Commercial, &mut NoLog);
    s.turn += 2;
    s.year += 2;
    assert_eq!(s.war_declaration_cost(y, x), 1);
}

/// An independent province without a leader that touches at least two nations, and two of them.
fn contested_independent(m: &Model, s: &State) -> (usize, usize, usize) {
    for &p in &m.independents {
        if s.provinces[p].indep_leader != usize::MAX {
            continue;
        }
        let near: Vec<usize> = (0..s.nations.len())
            .filter(|&n| m.adjacent_to_nation(s, n, p))
            .collect();
        if near.len() >= 2 {
            return (p, near[0], near[1]);
        }
    }
    panic!("the map has an independent between two nations");
}

#[test]
fn equal_stability_cancels_both_requests_e9_and_higher_stability_takes_the_last_place_e10() {
    let (m, mut s) = at_start(4);
    s.turn = 2;
    s.refresh_port_seas();
    let (p, a, b) = contested_independent(&m, &s);
    // E9: both at Subsidiary, both ask for the Military Alliance, equal stability: neither.
    for n in [a, b] {
        s.provinces[p].grade[n] = state::SUBSIDIARY;
        s.nations[n].stability = 2;
        s.nations[n].goods[T] = 1000;
    }
    let mut both = independents::Requests::default();
    both.push(a, p);
    both.push(b, p);
    let granted = s.settle_independent_requests(&m, &both, &mut NoLog);
    assert_eq!(granted, 0);
    assert_eq!(s.provinces[p].grade[a], state::SUBSIDIARY);
    assert_eq!(s.provinces[p].grade[b], state::SUBSIDIARY);
    assert_eq!(
        s.nations[a].goods[T], 1000,
        "refunded in a normal turn (A43)"
    );
    // In a Historical Period a full tie loses the money (L930).
    let mut hp = s.clone();
    hp.historical_period = true;
    let land = [a, b].map(|n| m.touches_nation(&hp, n, p));
    let sea = [a, b].map(|n| hp.provinces[p].ports & hp.port_seas[n] != 0);
    if land[0] == land[1] && sea[0] == sea[1] {
        assert_eq!(hp.settle_independent_requests(&m, &both, &mut NoLog), 0);
        assert!(hp.nations[a].goods[T] < 1000 && hp.nations[b].goods[T] < 1000);
    } else {
        // The better placed by land or sea wins instead.
        assert_eq!(
            hp.settle_independent_requests(&m, &both, &mut NoLog)
                .count_ones(),
            1
        );
    }
    // E10: a third nation holds Subsidiary; Optimal (a) and Very High (b) ask for it too: one
    // place is left and the Optimal nation takes it; the holder keeps its own.
    let holder = (0..s.nations.len()).find(|&n| n != a && n != b).unwrap();
    s.provinces[p].grade = [state::NEUTRAL; 16];
    s.provinces[p].grade[holder] = state::SUBSIDIARY;
    for (n, stability) in [(a, 0), (b, 1)] {
        s.provinces[p].grade[n] = state::PASSAGE;
        s.nations[n].stability = stability;
    }
    let granted = s.settle_independent_requests(&m, &both, &mut NoLog);
    assert_eq!(granted, 1 << a);
    assert_eq!(s.provinces[p].grade[a], state::SUBSIDIARY);
    assert_eq!(s.provinces[p].grade[b], state::PASSAGE);
    assert_eq!(s.provinces[p].grade[holder], state::SUBSIDIARY);
    assert!(s.nations[a].goods[T] < 1000);
    assert_eq!(s.nations[b].goods[T], 1000);
    // With both places taken, nobody else may even ask.
    assert_eq!(s.independent_cost(&m, b, p), None);
}

#[test]
fn pillage_by_five_units_over_three_orders_idles_seven_ppr_and_rolls_eight_dice_e17() {
    let (m, mut s) = at_start(5);
    let (rome, carthage) = (12, 1);
    s.turn = 2;
    s.nations[rome].at_war |= 1 << carthage;
    s.nations[carthage].at_war |= 1 << rome;
    let p = s.provinces_of(carthage).next().unwrap();
    let trials = 20_000;
    let (mut destroyed, mut none) = (0u64, 0u64);
    let mut dice = Dice::from_seed(6);
    for _ in 0..trials {
        let mut t = s.clone();
        t.provinces[p].ppr = 7;
        t.provinces[p].pillaged = 0;
        let mut units = [5, 0, 0, 0, 0, 0];
        // Three consecutive pillage orders: the three segments left after moving in.
        t.city_action(
            &m,
            rome,
            p,
            &mut units,
            Order::Pillage,
            3,
            3,
            &mut NoLog,
            &mut dice,
        );
        assert_eq!(
            t.provinces[p].pillaged, 7,
            "all 7 PPR idle next economic phase"
        );
        let lost = 7 - t.provinces[p].ppr as u64;
        destroyed += lost;
        none += (lost == 0) as u64;
    }
    // 5 x 3 - 7 = 8 d10, each 10 destroys a PPR: E = 0.8, P(none) = 0.9^8.
    let mean = destroyed as f64 / trials as f64;
    let se = (8.0 * 0.1 * 0.9 / trials as f64).sqrt();
    assert!((mean - 0.8).abs() < 5.0 * se, "mean {mean}");
    let p0 = 0.9f64.powi(8);
    let share = none as f64 / trials as f64;
    assert!((share - p0).abs() < 5.0 * (p0 * (1.0 - p0) / trials as f64).sqrt());
}

#[test]
fn a_cession_takes_one_clause_plus_cities_port_and_resources_e19() {
    assert_eq!(diplomacy::cession_clauses(2, true, true), 5);
    assert_eq!(diplomacy::cession_clauses(1, false, false), 2);
    assert_eq!(diplomacy::cession_clauses(1, true, false), 3);
}

#[test]
fn historical_period_reforms_cost_what_the_table_says() {
    let (m, mut s) = at_start(7);
    let rome = 12;
    s.historical_period = true;
    s.nations[rome].goods[T] = 10_000;
    s.nations[rome].strategy = 3;
    let provinces = s.owned[rome].len();
    let leaders = |s: &State| {
        s.leaders
            .iter()
            .filter(|l| l.alive && l.nation as usize == rome)
            .count()
    };
    let before = leaders(&s);
    let grain: u32 = s.provinces_of(rome).map(|p| s.provinces[p].harvests).sum();
    let limit = s.nations[rome].card_limit;
    let all = economy::Reforms {
        army: true,
        military: 1,
        renewals: 1,
        political: true,
        agrarian: 2,
    };
    s.reform(&m, rome, all, &mut Dice::from_seed(8), &mut NoLog);
    let cost = (25 * provinces as i64).clamp(100, 200) + 100 + 25 + 25 * provinces as i64 + 2 * 50;
    assert_eq!(s.nations[rome].goods[T], 10_000 - cost);
    assert_eq!(s.nations[rome].strategy, 2, "one strategy level better");
    assert_eq!(
        leaders(&s),
        before + 1,
        "one more leader; the renewed one replaced"
    );
    assert_eq!(s.nations[rome].card_limit, limit + 1);
    let after: u32 = s.provinces_of(rome).map(|p| s.provinces[p].harvests).sum();
    assert_eq!(after, grain + 2);
    // A province takes one agrarian reform only, and a poor treasury buys nothing.
    s.nations[rome].goods[T] = 40;
    s.reform(&m, rome, all, &mut Dice::from_seed(9), &mut NoLog);
    assert_eq!(
        s.nations[rome].goods[T], 15,
        "only the 25 T renewal was affordable"
    );
}

#[test]
fn military_allies_in_the_province_fight_together_and_share_the_losses() {
    let (m, mut s) = at_start(10);
    let (rome, carthage, egypt) = (12, 1, 2);
    s.turn = 2;
    for n in [rome, egypt] {
        s.nations[n].at_war |= 1 << carthage;
        s.nations[carthage].at_war |= 1 << n;
    }
    s.nations[rome].military |= 1 << egypt;
    s.nations[egypt].military |= 1 << rome;
    let p = s.provinces_of(carthage).next().unwrap();
    for l in &mut s.leaders {
        l.province = 0;
    }
    let rome_leader = s
        .leaders
        .iter()
        .position(|l| l.nation as usize == rome)
        .unwrap();
    s.leaders[rome_leader].leader.modifier = 0;
    for n in 0..s.nations.len() {
        *s.army_mut(n, p) = [0; 6];
    }
    s.army_mut(carthage, p)[state::INF] = 10;
    let trials = 4000;
    let mut dice = Dice::from_seed(11);
    let mut mean = [0.0f64; 2];
    let mut egypt_hit = 0;
    for (k, (marching, waiting)) in [(10, 0), (5, 5)].into_iter().enumerate() {
        for _ in 0..trials {
            let mut t = s.clone();
            t.army_mut(egypt, p)[state::INF] = waiting;
            let ledger = t.units_ledger;
            let incoming = ([marching, 0, 0, 0, 0, 0], rome_leader);
            let (survivors, _) = t.field_battle(&m, rome, p, Some(incoming), &mut NoLog, &mut dice);
            let left = state::size(&survivors) + state::size(t.army(egypt, p));
            mean[k] += (10 - left) as f64 / trials as f64;
            egypt_hit += (state::size(t.army(egypt, p)) < waiting) as u32;
            let carthage_lost = 10 - state::size(t.army(carthage, p));
            assert_eq!(
                t.units_ledger,
                ledger - (10 - left) as i64 - carthage_lost as i64,
                "every unit lost is on the ledger"
            );
        }
    }
    // Ten units fight the same battle whether they came as one army or as two allied ones.
    let se = (2.0 * 2.0 / trials as f64).sqrt(); // losses have a variance near 2 here
    assert!((mean[0] - mean[1]).abs() < 5.0 * se, "{mean:?}");
    assert!(egypt_hit > 0, "the waiting ally takes losses too");
}
