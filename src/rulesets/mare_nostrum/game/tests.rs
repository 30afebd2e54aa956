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

/// Rome's grain figures: (active PPU, PPR, harvests).
fn grain_figures(s: &State, n: usize) -> (i64, i64, i64) {
    s.provinces_of(n).fold((0, 0, 0), |(u, r, h), p| {
        let pr = &s.provinces[p];
        (u + pr.ppu as i64, r + pr.ppr as i64, h + pr.harvests as i64)
    })
}

#[test]
fn the_aggressor_recruits_no_more_regulars_than_its_grain_feeds() {
    let m = model("rome = { policy = \"aggressor\", grain_share = 1.0 }");
    let mut s = start(&m, 12);
    let rome = 12;
    s.nations[rome].goods = [5_000, 10, 1_000, 1_000];
    let want = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let (ppu, ppr, harvests) = grain_figures(&s, rome);
    let regulars = (want.infantry + want.cavalry) as i64;
    // Every regular takes a PPR: the PPU left unfed must stay within the harvests and a fifth
    // of the granary (grain_share 1).
    assert!(regulars > 0, "it still recruits");
    assert!(
        ppu - (ppr - regulars) <= harvests + 10 / 5,
        "{regulars} regulars leave {} PPU unfed on {harvests} G a year",
        ppu - (ppr - regulars)
    );
    // By default (grain_share 0) regulars come only from PPR the cities do not need.
    let m = model("rome = \"aggressor\"");
    let want = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let regulars = (want.infantry + want.cavalry) as i64;
    assert!(regulars <= (ppr - ppu).max(0), "{want:?}");
}

#[test]
fn at_war_the_aggressor_hires_mercenaries_where_its_nation_may() {
    let m = model("rome = \"aggressor\"\ncarthage = \"aggressor\"\ngermans = \"aggressor\"");
    let mut s = start(&m, 13);
    let (carthage, germans, rome) = (1, 9, 12);
    for n in [carthage, germans, rome] {
        s.nations[n].goods = [2_000, 50, 200, 20];
        s.nations[n].at_war |= 1 << 5;
    }
    let mut dice = Dice::from_seed(1);
    let c = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert!(c.mercenary_infantry > 0, "{c:?}");
    // Rome may hire no mercenary infantry, only cavalry; the Germans none at all.
    let r = m.policies[rome].recruit(&m, &s, rome, &mut dice);
    assert!(
        r.mercenary_infantry == 0 && r.mercenary_cavalry > 0,
        "{r:?}"
    );
    let g = m.policies[germans].recruit(&m, &s, germans, &mut dice);
    assert!(
        g.mercenary_infantry == 0 && g.mercenary_cavalry == 0,
        "{g:?}"
    );
}

#[test]
fn the_aggressor_invests_at_optimal_and_buys_vp_in_a_historical_period() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 14);
    let rome = 12;
    s.nations[rome].goods = [2_000, 200, 200, 0];
    s.nations[rome].stability = 0;
    let mut dice = Dice::from_seed(1);
    let wanted = m.policies[rome].invest_stability(&m, &s, rome, &mut dice);
    assert!(wanted.iter().all(|&w| w > 0), "{wanted:?}");
    s.historical_period = true;
    assert!(m.policies[rome].invest_for_vp(&m, &s, rome, &mut dice) >= 50);
}

#[test]
fn field_odds_agree_with_the_battles_clash_plays() {
    use crate::rulesets::mare_nostrum::field::FieldSide;
    use crate::rulesets::mare_nostrum::{Leader, Winner};
    let m = model("");
    let leader = |modifier| {
        Some(Leader {
            modifier,
            age: 40,
            historical: false,
        })
    };
    let sides = [
        FieldSide {
            units: [9, 2, 1, 0],
            leader: leader(1),
            independent: false,
        },
        FieldSide {
            units: [7, 0, 0, 0],
            leader: leader(0),
            independent: false,
        },
    ];
    let odds = m.field.odds(&sides);
    assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let e = m.field.engage(&sides);
    let mut dice = Dice::from_seed(5);
    let trials = 40_000;
    let mut seen = [0u32; 3];
    for _ in 0..trials {
        let k = match m.field.clash(&e, &mut dice).1 {
            Winner::Attacker => 0,
            Winner::Defender => 1,
            Winner::None => 2,
        };
        seen[k] += 1;
    }
    for k in 0..3 {
        let f = seen[k] as f64 / trials as f64;
        let se = (odds[k] * (1.0 - odds[k]) / trials as f64).sqrt();
        assert!(
            (f - odds[k]).abs() < 5.0 * se + 1e-9,
            "{k}: {f} v {}",
            odds[k]
        );
    }
}

#[test]
fn the_aggressor_marches_into_a_field_battle_it_can_win_not_one_at_two_to_one() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 15);
    let rome = 12;
    s.turn = 2;
    // A Roman province with foreign land next to it, at war with that land's nation.
    let (from, foe) = s
        .provinces_of(rome)
        .find_map(|p| {
            m.adjacency[p].iter().find_map(|&(q, _)| {
                let o = s.provinces[q].owner;
                (o != state::NONE && o as usize != rome).then_some((p, o as usize))
            })
        })
        .unwrap();
    s.nations[rome].at_war |= 1 << foe;
    s.nations[foe].at_war |= 1 << rome;
    for p in 0..s.provinces.len() {
        for n in [rome, foe] {
            *s.army_mut(n, p) = [0; 6];
        }
    }
    for l in &mut s.leaders {
        l.province = 0;
    }
    let li = s
        .leaders
        .iter()
        .position(|l| l.nation as usize == rome)
        .unwrap();
    s.leaders[li].province = from as u16;
    s.leaders[li].leader.modifier = 1;
    s.army_mut(rome, from)[state::INF] = 30;
    let target = policy::march_target(&m, &s, rome, from).unwrap();
    assert_eq!(s.provinces[target].owner as usize, foe);
    s.army_mut(foe, target)[state::INF] = 8;
    let lf = s
        .leaders
        .iter()
        .position(|l| l.nation as usize == foe)
        .unwrap();
    s.leaders[lf].province = target as u16;
    s.leaders[lf].leader.modifier = 0;
    let (to, _, share) = m.policies[rome]
        .army_order(&m, &s, rome, from, &mut Dice::from_seed(1))
        .unwrap();
    assert_eq!(to, target);
    let marching = (30.0 * share).round() as u32;
    assert!(
        marching < 16 && marching > 8,
        "{marching} units against 8: under 2:1, so the battle can have a winner"
    );
    // Two enemy units: no column that may win has the odds, so it overruns them (24 is at
    // least the default 4 times 2) or, with a higher overrun_ratio, waits.
    s.army_mut(foe, target)[state::INF] = 2;
    let (_, _, share) = m.policies[rome]
        .army_order(&m, &s, rome, from, &mut Dice::from_seed(1))
        .unwrap();
    assert_eq!(share, 0.8);
    let patient = model("rome = { policy = \"aggressor\", overrun_ratio = 20.0 }");
    assert!(patient.policies[rome]
        .army_order(&patient, &s, rome, from, &mut Dice::from_seed(1))
        .is_none());
}

#[test]
fn recruitment_leaves_the_turns_upkeep_paid() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 16);
    let rome = 12;
    s.nations[rome].goods = [1_500, 100, 100, 10];
    s.nations[rome].at_war |= 1 << 5;
    s.historical_period = true;
    let a = s.units_by_class(rome);
    let standing = 2 * (a[0] + a[1] + a[2] + a[3]) as i64
        + 3 * (a[4] + a[5]) as i64
        + s.nations[rome].fleets as i64;
    let r = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let cost = (5 + 10) * r.infantry as i64
        + (15 + 10) * r.cavalry as i64
        + (45 + 15) * r.mercenary_cavalry as i64
        + 5 * standing;
    assert!(r.infantry + r.mercenary_cavalry > 0, "{r:?}");
    assert!(
        cost <= 1_500,
        "{r:?} and five years of upkeep cost {cost} T"
    );
}

#[test]
fn forced_peace_counts_years_so_a_historical_period_uses_up_five() {
    let (m, mut s) = at_start(17);
    let (victor, loser) = (12, 5);
    s.turn = 3;
    s.year = 3;
    s.nations[victor].at_war |= 1 << loser;
    s.nations[loser].at_war |= 1 << victor;
    s.treaty(&m, victor, loser, false, &mut NoLog);
    for n in [victor, loser] {
        s.nations[n].stability = 3;
    }
    // Turn 4 is a Historical Period: years 4 to 8, all under the five years of forced peace.
    s.turn = 4;
    s.year = 4;
    assert!(!s.may_declare_war(victor, loser));
    // Turn 5 begins in year 9: the forced peace (years 4-8) is over.
    s.turn = 5;
    s.year = 9;
    assert!(s.may_declare_war(victor, loser));
    assert!(s.may_declare_war(loser, victor));
}

#[test]
fn occupied_cities_go_back_to_their_owners_when_hostilities_end() {
    let (m, mut s) = at_start(18);
    let (rome, foe) = (12, 5);
    s.turn = 3;
    s.nations[rome].at_war |= 1 << foe;
    s.nations[foe].at_war |= 1 << rome;
    // No troops anywhere, so nothing is ceded and the war may die out.
    for n in 0..s.nations.len() {
        s.disband_armies(n);
    }
    let theirs = s.provinces_of(foe).next().unwrap();
    let ours = s.provinces_of(rome).next().unwrap();
    for (p, by) in [(theirs, rome), (ours, foe)] {
        s.provinces[p].occupier = by as u8;
        s.provinces[p].occupation_vp = true;
        s.provinces[p].garrison = 1;
    }
    let quiet = s.clone();
    // A surrender: the loser's occupation VP go, the victor keeps its own.
    let mut plain = s.clone();
    plain.provinces[ours].occupation_vp = false;
    s.treaty(&m, rome, foe, false, &mut NoLog);
    plain.treaty(&m, rome, foe, false, &mut NoLog);
    for p in [theirs, ours] {
        assert_eq!(s.provinces[p].occupier, state::NONE, "{}", m.code(p));
        assert_eq!(s.provinces[p].garrison, 0);
    }
    assert_eq!(s.nations[foe].vp, plain.nations[foe].vp - 5);
    assert_eq!(s.nations[rome].vp, plain.nations[rome].vp);
    // A war that dies out: both occupiers hand back and lose the VP.
    let mut s = quiet;
    let vp = [s.nations[rome].vp, s.nations[foe].vp];
    s.war_activity.fill(0);
    s.quiet_wars_end(&m, &mut NoLog);
    assert!(!s.at_war(rome, foe));
    assert_eq!(s.provinces[theirs].occupier, state::NONE);
    assert_eq!(s.provinces[ours].occupier, state::NONE);
    assert_eq!(
        [s.nations[rome].vp, s.nations[foe].vp],
        [vp[0] - 5, vp[1] - 5]
    );
}

#[test]
fn grain_and_resources_bought_from_independents_arrive_next_turn() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 19);
    let rome = 12;
    s.turn = 2;
    s.nations[rome].stability = 0;
    s.nations[rome].goods = [2_000, 0, 0, 0];
    let mut dice = Dice::from_seed(1);
    s.buy_from_independents(&m, &m.policies, &mut dice, &mut NoLog);
    let bought = s.nations[rome].on_order;
    assert!(bought[G] > 0 && bought[scenario::R] > 0, "{bought:?}");
    assert_eq!(
        s.nations[rome].goods[T],
        2_000 - 10 * (bought[G] + bought[scenario::R]) - 25 * bought[scenario::CB]
    );
    let before = s.nations[rome].goods;
    s.turn = 3;
    s.economic_phase(&m, &mut economy::Scratch::default(), &mut NoLog);
    assert_eq!(s.nations[rome].on_order, [0; 4]);
    assert!(s.nations[rome].goods[scenario::R] >= before[scenario::R] + bought[scenario::R]);
}

#[test]
fn goods_change_hands_only_between_commercial_allies() {
    let keys = [
        "gauls", "carthage", "egypt", "seleucid", "armenia", "pergamon", "pontus", "bosporus",
        "dacians", "germans", "illyria", "macedon", "rome",
    ];
    let policies: String = keys.iter().map(|k| format!("{k} = \"random\"\n")).collect();
    let m = model(&policies);
    let mut s = start(&m, 20);
    let total = |s: &State| -> [i64; 4] {
        let mut t = [0; 4];
        for n in &s.nations {
            for k in 0..4 {
                t[k] += n.goods[k];
            }
        }
        t
    };
    let mut dice = Dice::from_seed(2);
    for n in 0..s.nations.len() {
        s.nations[n].commercial = 0;
        s.nations[n].goods = [100; 4];
    }
    let start_goods: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    for _ in 0..50 {
        s.give_goods(&m, &m.policies, &mut dice, &mut NoLog);
    }
    let now: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    assert_eq!(now, start_goods, "no alliance, no gifts");
    for n in 0..s.nations.len() {
        s.nations[n].commercial = 0x1fff & !(1 << n);
    }
    let sum = total(&s);
    for _ in 0..50 {
        s.give_goods(&m, &m.policies, &mut dice, &mut NoLog);
    }
    assert_eq!(total(&s), sum, "gifts neither make nor lose goods");
    let now: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    assert_ne!(now, start_goods, "allies gave goods");
}

#[test]
fn at_peace_unfed_cities_take_back_disbanded_regulars_as_ppr() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 21);
    let rome = 12;
    s.turn = 2;
    s.nations[rome].at_war = 0;
    s.nations[rome].goods = [0, 0, 0, 0];
    // Every Roman city short of PPR: the PPU above the PPR outrun the harvests.
    for k in 0..s.owned[rome].len() {
        let p = s.owned[rome][k] as usize;
        s.provinces[p].ppr = 1;
        s.provinces[p].ppu = s.provinces[p].harvests + 4;
        *s.army_mut(rome, p) = [3, 0, 0, 0, 2, 0];
    }
    let (ledger, units) = (s.units_ledger, s.total_units(rome));
    let ppr: u32 = s.provinces_of(rome).map(|p| s.provinces[p].ppr).sum();
    s.population_changes(&m, &m.policies, &mut Dice::from_seed(1));
    let disbanded = units - s.total_units(rome);
    assert!(disbanded > 0);
    assert_eq!(s.units_ledger, ledger - disbanded as i64);
    let now: u32 = s.provinces_of(rome).map(|p| s.provinces[p].ppr).sum();
    assert_eq!(now, ppr + disbanded, "each disbanded unit is a PPR");
    for p in s.provinces_of(rome) {
        assert_eq!(
            s.army(rome, p)[state::MINF],
            2,
            "mercenaries cannot be disbanded"
        );
    }
}

#[test]
fn a_war_across_the_sea_is_a_target_and_armies_cross_with_supremacy() {
    let m = model("rome = \"aggressor\"\ncarthage = \"aggressor\"");
    let mut s = start(&m, 22);
    let (carthage, rome) = (1, 12);
    assert_eq!(
        m.neighbours[rome] & (1 << carthage),
        0,
        "no land between them"
    );
    assert_ne!(m.sea_neighbours[rome] & (1 << carthage), 0);
    s.turn = 2;
    s.refresh_port_seas();
    // Ten fleets more than Carthage's make it a target; fewer do not.
    s.nations[carthage].fleets = 5;
    s.nations[rome].fleets = 14;
    assert!(!policy::reachable(&m, &s, rome, carthage));
    s.nations[rome].fleets = 15;
    assert!(policy::reachable(&m, &s, rome, carthage));
    // At war, Rome's fleet goes to a sea both open on.
    s.nations[rome].at_war |= 1 << carthage;
    s.nations[carthage].at_war |= 1 << rome;
    s.nations[carthage].fleet_sea = state::NONE;
    let sea = m.policies[rome].fleet_sea(&m, &s, rome, &mut Dice::from_seed(1)) as usize;
    assert_ne!(m.home_seas[rome] & m.home_seas[carthage] & (1 << sea), 0);
    // With supremacy there, the army at a port on that sea marches on a Carthaginian city.
    let seas = m.scenario.seas.len();
    s.fleets_at_sea.fill(0);
    s.fleets_at_sea[rome * seas + sea] = 15;
    s.fleets_generation = searches::fresh_generation();
    let from = s
        .provinces_of(rome)
        .find(|&p| s.provinces[p].ports & (1 << sea) != 0)
        .unwrap();
    for n in 0..s.nations.len() {
        s.disband_armies(n);
    }
    s.army_mut(rome, from)[state::INF] = 10;
    let target = policy::march_target(&m, &s, rome, from).unwrap();
    assert_eq!(s.provinces[target].owner as usize, carthage);
    let route = m.route(&s, rome, from, target, &mut RouteScratch::default());
    assert!(route.is_some_and(|r| r.steps().iter().any(|st| st.2.is_none())));
    // Without supremacy no route crosses the sea (a long way round by land may remain).
    s.fleets_at_sea.fill(0);
    s.fleets_generation = searches::fresh_generation();
    if let Some(t) = policy::march_target(&m, &s, rome, from) {
        let route = m.route(&s, rome, from, t, &mut RouteScratch::default());
        assert!(route.is_none_or(|r| r.steps().iter().all(|st| st.2.is_some())));
    }
}

#[test]
fn at_peace_an_aggressor_hires_only_with_five_turns_of_upkeep_in_hand() {
    let m = model("carthage = \"aggressor\"");
    let mut s = start(&m, 23);
    let carthage = 1;
    s.turn = 2;
    s.nations[carthage].at_war = 0;
    let a = s.units_by_class(carthage);
    let upkeep = 2 * (a[0] + a[1] + a[2] + a[3]) as i64
        + 3 * (a[4] + a[5]) as i64
        + s.nations[carthage].fleets as i64;
    let mut dice = Dice::from_seed(1);
    s.nations[carthage].goods = [60 + 3 * upkeep, 0, 100, 10];
    let poor = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert_eq!(
        poor.infantry + poor.cavalry + poor.mercenary_infantry,
        0,
        "{poor:?}"
    );
    s.nations[carthage].goods = [5_000, 0, 100, 10];
    let rich = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert!(rich.mercenary_infantry > 0, "{rich:?}");
    // Its idle treasury also buys grades with the independents.
    s.nations[carthage].stability = 2;
    assert!(m.policies[carthage]
        .independent_action(&m, &s, carthage, &mut dice)
        .is_some());
}

#[test]
fn a_share_of_an_army_rounds_as_f64_round_does() {
    let mut shares: Vec<f64> = (0..=1000).map(|k| k as f64 / 1000.0).collect();
    shares.extend([
        0.5,
        0.49999999999999994,
        1.0 / 3.0,
        2.0 / 3.0,
        -0.3,
        -0.7,
        f64::NAN,
    ]);
    for a in 0..300u32 {
        for &share in &shares {
            let army = [a, 0, a / 2, 1, a * 3, 7];
            let got = state::share_of(&army, share);
            for c in 0..6 {
                assert_eq!(
                    got[c],
                    (army[c] as f64 * share).round() as u32,
                    "{a} x {share}"
                );
            }
        }
    }
}

/// The army's commander is its living leader with the highest modifier, then the oldest; of
/// equals, the last listed (as before the search became a loop). Leaders of other nations, in
/// other provinces or dead never command.
#[test]
fn the_best_leader_is_the_highest_then_oldest_and_the_last_of_equals() {
    use super::state::GameLeader;
    use crate::rulesets::mare_nostrum::Leader;
    let (_, mut s) = at_start(1);
    let leader = |modifier, age, nation, province, alive| GameLeader {
        leader: Leader {
            modifier,
            age,
            historical: false,
        },
        nation,
        province,
        alive,
    };
    s.leaders = vec![
        leader(3, 60, 0, 5, false), // dead
        leader(3, 60, 1, 5, true),  // another nation
        leader(3, 60, 0, 6, true),  // another province
        leader(1, 40, 0, 5, true),
        leader(2, 25, 0, 5, true),
        leader(2, 30, 0, 5, true),
        leader(2, 30, 0, 5, true),
        leader(1, 50, 0, 5, true),
    ];
    assert_eq!(s.best_leader(0, 5), Some(6));
    s.leaders[6].alive = false;
    assert_eq!(s.best_leader(0, 5), Some(5));
    s.leaders[4].leader.age = 30;
    assert_eq!(s.best_leader(0, 5), Some(5));
    assert_eq!(s.best_leader(0, 7), None);
    assert_eq!(s.best_leader(2, 5), None);
}

/// [`Model::nearest`] as a plain breadth-first search from scratch, nothing kept.
fn nearest_afresh(
    m: &Model,
    s: &State,
    n: usize,
    from: usize,
    mut wanted: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let np = s.provinces.len();
    let mut seen = vec![false; np];
    let mut queue = std::collections::VecDeque::from([from]);
    seen[from] = true;
    let supremacy = if s.fleets_at_sea.iter().any(|&f| f >= 10) {
        s.supremacy(m, n)
    } else {
        0
    };
    while let Some(p) = queue.pop_front() {
        if p != from && wanted(p) {
            return Some(p);
        }
        if p != from && !s.passable(n, p) {
            continue;
        }
        let by_sea = m.port_links[p]
            .iter()
            .filter(|&&(_, shared)| {
                s.provinces[p].ports & supremacy != 0 && shared & supremacy != 0
            })
            .map(|&(q, _)| q);
        for q in m.adjacency[p].iter().map(|&(q, _)| q).chain(by_sea) {
            if !seen[q] {
                seen[q] = true;
                queue.push_back(q);
            }
        }
    }
    None
}

/// [`Model::route`] as a label-correcting search from scratch (the queue in the same order),
/// nothing kept: the steps of the path, or None.
fn route_afresh(
    m: &Model,
    s: &State,
    n: usize,
    from: usize,
    to: usize,
) -> Option<Vec<(usize, u32, Option<scenario::Border>)>> {
    let np = s.provinces.len();
    let mut cost = vec![u32::MAX; np];
    let mut prev = vec![(usize::MAX, 0, None); np];
    let mut queue = std::collections::VecDeque::from([from]);
    cost[from] = 0;
    let supremacy = s.supremacy(m, n);
    while let Some(p) = queue.pop_front() {
        let by_land = m.adjacency[p].iter().map(|&(q, b)| {
            let step = if b == scenario::Border::Plain { 1 } else { 2 };
            (q, step, Some(b))
        });
        let by_sea = m.port_links[p]
            .iter()
            .filter(|&&(_, shared)| {
                s.provinces[p].ports & supremacy != 0 && shared & supremacy != 0
            })
            .map(|&(q, _)| (q, 2, None));
        for (q, step, border) in by_land.chain(by_sea) {
            if cost[p] + step < cost[q] && (q == to || s.passable(n, q)) {
                cost[q] = cost[p] + step;
                prev[q] = (p, step, border);
                queue.push_back(q);
            }
        }
    }
    if cost[to] == u32::MAX || to == from {
        return None;
    }
    let mut path = Vec::new();
    let mut at = to;
    while at != from {
        let (p, step, border) = prev[at];
        path.push((at, step, border));
        at = p;
    }
    path.reverse();
    path.truncate(6);
    Some(path)
}

#[test]
fn kept_map_searches_are_the_searches_afresh_over_many_turns() {
    // Asked after phases that change owners, wars, passages and fleets, from the provinces the
    // armies stand in: a search kept past a change it should have noticed differs here.
    let mixes = [
        "default = \"random\"",
        "default = { policy = \"aggressor\", aggression = 1.0 }\negypt = \"naval\"",
    ];
    // The third province not `n`'s, seen nearest first (a search that collects as it goes).
    fn third<'a>(s: &'a State, n: usize, seen: &'a mut u32) -> impl FnMut(usize) -> bool + 'a {
        move |p| {
            *seen += (s.provinces[p].owner as usize != n) as u32;
            *seen == 3
        }
    }
    let mut route_checks = 0;
    let mut found = 0;
    for (i, mix) in mixes.iter().enumerate() {
        let m = model(mix);
        for g in 0..60u64 {
            let mut w = turn::Worker::new(&m);
            let mut r = GameRecord::new(13, GAME_COLUMNS.len());
            let mut scratch = RouteScratch::default();
            let mut check = |phase: turn::Phase, s: &State| {
                use turn::Phase::*;
                if !matches!(
                    phase,
                    Diplomacy | Fleets | Independents | Movement | EndOfTurn
                ) {
                    return;
                }
                for n in 0..s.nations.len() {
                    let froms = (0..s.provinces.len())
                        .filter(|&p| state::size(s.army(n, p)) > 0)
                        .take(2);
                    for from in froms {
                        let wanted = |p: usize| policy::worth_marching_on(s, n, p);
                        let target = m.nearest(s, n, from, wanted);
                        assert_eq!(
                            target,
                            nearest_afresh(&m, s, n, from, wanted),
                            "{phase:?}: nearest target of nation {n} from {from} (mix {i}, game {g})"
                        );
                        found += target.is_some() as u32;
                        let (mut a, mut b) = (0, 0);
                        assert_eq!(
                            m.nearest(s, n, from, third(s, n, &mut a)),
                            nearest_afresh(&m, s, n, from, third(s, n, &mut b)),
                            "{phase:?}: third province from {from} (mix {i}, game {g})"
                        );
                        assert_eq!(a, b);
                        let capital = s.nations[(n + 1) % s.nations.len()].capital;
                        for to in target.into_iter().chain([capital]) {
                            let kept = m.route(s, n, from, to, &mut scratch);
                            assert_eq!(
                                kept.map(|r| r.steps().to_vec()),
                                route_afresh(&m, s, n, from, to),
                                "{phase:?}: route of nation {n} from {from} to {to} (mix {i}, game {g})"
                            );
                            route_checks += 1;
                        }
                    }
                }
            };
            w.play_watched(
                &mut Dice::from_seed(50_000 + 1000 * i as u64 + g),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
                &mut check,
            );
        }
    }
    assert!(
        found > 1000 && route_checks > 10_000,
        "{found} targets, {route_checks} routes"
    );
}

#[test]
fn kept_facing_trade_links_are_the_ones_found_by_a_scan_over_many_turns() {
    // One kept table asked after every phase (links are added, halved away, ceded and annexed;
    // cities change hands between), held to a plain scan for the link back.
    let m = model("default = \"random\"\nrome = \"aggressor\"\ncarthage = \"expansionist\"");
    let mut checked = 0;
    let mut faced = 0;
    for g in 0..150u64 {
        let mut w = turn::Worker::new(&m);
        let mut r = GameRecord::new(13, GAME_COLUMNS.len());
        let mut kept = economy::Facing::default();
        let mut check = |phase: turn::Phase, s: &State| {
            let owner = |c: usize| s.provinces[c].owner;
            let index = kept.update(&s.trade, owner);
            for (i, l) in s.trade.iter().enumerate() {
                let back = s.trade.iter().position(|b| {
                    owner(l.to as usize) != state::NONE
                        && b.owner == owner(l.to as usize)
                        && (b.from, b.to) == (l.to, l.from)
                });
                assert_eq!(
                    index[i],
                    back.map_or(economy::NO_LINK, |b| b as u32),
                    "{phase:?}: the link facing {l:?} (game {g})"
                );
                checked += 1;
                faced += back.is_some() as u32;
            }
        };
        w.play_watched(
            &mut Dice::from_seed(70_000 + g),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
            &mut check,
        );
    }
    assert!(faced > 1000 && faced < checked, "{faced} of {checked}");
}

#[test]
fn a_kept_facing_link_goes_when_the_city_it_ends_in_changes_hands() {
    let (_, mut s) = at_start(3);
    let (carthage, rome) = (1, 12);
    let (roma, carthago) = (s.nations[rome].capital, s.nations[carthage].capital);
    s.trade = vec![
        state::TradeLink {
            owner: carthage as u8,
            from: carthago as u16,
            to: roma as u16,
            points: 4,
        },
        state::TradeLink {
            owner: rome as u8,
            from: roma as u16,
            to: carthago as u16,
            points: 3,
        },
    ];
    s.trade.sort_by_key(state::TradeLink::key);
    let mut kept = economy::Facing::default();
    let facing = |s: &State, kept: &mut economy::Facing| {
        kept.update(&s.trade, |c| s.provinces[c].owner).to_vec()
    };
    assert_eq!(
        facing(&s, &mut kept),
        [1, 0],
        "the two links face each other"
    );
    // Carthage loses its capital to Macedon: Rome's link now ends in a Macedonian city.
    s.set_owner(carthago, 11);
    assert_eq!(facing(&s, &mut kept), [1, economy::NO_LINK]);
    assert_eq!(
        facing(&s, &mut economy::Facing::default()),
        [1, economy::NO_LINK]
    );
}
