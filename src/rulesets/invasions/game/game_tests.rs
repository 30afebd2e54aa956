//! Tests of the full game: the §7 examples that concern it (income, ageing and Decline, bankruptcy,
//! the tie-break, the turn's calendar), invariants over thousands of random games, determinism
//! with 1 and 2 threads, bad input.

use super::policy::{Policy, Scripted};
use super::procedures::Decline;
use super::scenario::Scenario;
use super::state::{Phase, NONE};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, GameSetup, NoLog, NoObserver, TextLog};
use crate::options::Options;
use crate::rulesets::invasions::army::Status;
use crate::spec::Fields;

fn options() -> Options {
    Options::defaults(crate::rulesets::invasions::OPTIONS)
}

/// A game of `scenario` with every nation on `policy` (the other test modules' games too).
pub(super) fn game_with_options(scenario: Scenario, policy: Policy, options: &Options) -> Game {
    let policies = vec![policy; scenario.nations.len()];
    let labels = vec!["test".to_string(); scenario.players.len()];
    Game::new(scenario, options, labels, policies, Vec::new())
}

/// The bundled scenario with every nation on `policy`, under the rule options `table` sets (TOML).
pub(super) fn bundled_game_with_options(policy: Policy, table: &str) -> Game {
    let table: toml::Table = toml::from_str(table).unwrap();
    let options = Options::resolve(
        crate::rulesets::invasions::OPTIONS,
        crate::spec::Fields::new("t.toml", &table),
    )
    .unwrap();
    game_with_options(Scenario::bundled().unwrap(), policy, &options)
}

fn game_with(scenario: Scenario, policy: Policy) -> Game {
    game_with_options(scenario, policy, &options())
}

/// The bundled scenario with every nation on `policy`, under the recommended readings.
pub(super) fn bundled_game(policy: Policy) -> Game {
    game_with(Scenario::bundled().unwrap(), policy)
}

fn scripted_game() -> Game {
    game_with(
        Scenario::bundled().unwrap(),
        Policy::Scripted(Scripted::defaults()),
    )
}

fn nation(g: &Game, key: &str) -> usize {
    g.scenario.nation(key).unwrap() as usize
}

/// A state where nobody holds anything: the income tests give out provinces one by one.
fn empty_board(play: &mut Play) {
    play.st.owner.fill(NONE);
    for ns in play.st.nations.iter_mut() {
        ns.capital = super::state::NO_PROVINCE;
    }
    play.st.rebuild_control(&play.game.scenario);
    play.st.rebuild_totals(&play.game.scenario);
}

#[test]
fn t22_income_of_a_kingdom_and_an_empire_in_the_game() {
    // No sea zone has a port: trade is out of the sums, which are then the map's figures.
    let mut s = Scenario::bundled().unwrap();
    for p in s.provinces.iter_mut() {
        p.port = None;
    }
    for sea in s.seas.iter_mut() {
        sea.ports.clear();
    }
    let g = game_with(s, Policy::Scripted(Scripted::defaults()));
    let mut play = Play::new(&g);
    empty_board(&mut play);
    let graecia = g.scenario.area("Graecia").unwrap() as usize;
    let asia = g.scenario.area("Asia").unwrap() as usize;
    let rome = nation(&g, "romani");
    let persia = nation(&g, "persae");
    for &p in &g.scenario.areas[graecia].provinces {
        play.st.set_owner(&g.scenario, p as usize, rome as u8);
    }
    // Graecia in full control: 2 + Athenae 2 + Thessalonika 2 + Constantinopolis 3 = 9 (L869-880).
    assert_eq!(play.gross_halves(rome), 2 * 9);
    // A Kingdom holding all of Asia: its provinces' 8 (the crowned figure) plus its cities.
    assert_eq!(play.st.status(persia), Some(Status::Kingdom));
    let mut cities = 0;
    for &p in &g.scenario.areas[asia].provinces {
        play.st.set_owner(&g.scenario, p as usize, persia as u8);
        cities += g.scenario.provinces[p as usize]
            .city
            .as_ref()
            .map_or(0, |c| c.level as i32);
    }
    assert_eq!(play.gross_halves(persia), 2 * (8 + cities));
    // A pillaged city yields half its level (XIV.C).
    let athenae = g.scenario.province("Achaia").unwrap() as usize;
    assert_eq!(
        play.st.level[athenae], 2,
        "Athenae is a level-2 city in Achaia"
    );
    play.st.set_pillaged(&g.scenario, athenae, true);
    assert_eq!(play.gross_halves(rome), 2 * 9 - 2);
}

#[test]
fn t20_a_revolt_costs_its_province_the_city_and_full_control_and_adds_expenses() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    let rome = nation(&g, "romani");
    let province = |name: &str| g.scenario.province(name).unwrap() as usize;
    let (tripolitania, neustria) = (province("Tripolitania"), province("Neustria"));
    for p in [tripolitania, neustria] {
        assert_eq!(play.st.owner[p], rome as u8, "Rome holds both in 350");
    }
    let africa = g.scenario.area("Africa").unwrap() as usize;
    let gallia = g.scenario.area("Gallia Septentrionalis").unwrap() as usize;
    let full = |play: &Play, a| super::state::full_control(&g.scenario, &play.st, a, rome);
    assert!(full(&play, africa) && full(&play, gallia));
    let before = play.gross_halves(rome);
    assert_eq!(play.revolt_expenses(rome), 0);
    // Revolt 1: Tripolitania, a site without a city: income −1 (full control of Africa lost).
    play.st.set_revolt(&g.scenario, tripolitania, 1);
    assert_eq!(play.st.rebel_provinces, 1);
    assert!(!full(&play, africa));
    assert_eq!(play.gross_halves(rome), before - 2);
    // Revolt 2: Neustria (Parisius, level 1): income −2 (full control and the city).
    play.st.set_revolt(&g.scenario, neustria, 1);
    assert_eq!(play.st.rebel_provinces, 2);
    assert_eq!(play.gross_halves(rome), before - 2 - 4);
    // Expenses +1 each (the example's third is its heresy, not played here); Revolt + costs 3.
    assert_eq!(play.revolt_expenses(rome), 2);
    play.st.set_revolt(&g.scenario, neustria, 2);
    assert_eq!(play.revolt_expenses(rome), 4);
    // A rebel province is still held: Area control does not change (XVI.D).
    assert_eq!(play.st.control[africa], rome as u8);
}

#[test]
fn an_empires_revolts_land_in_its_half_of_the_table_as_often_as_the_exact_distribution_says() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    let rome = nation(&g, "romani");
    let s = &g.scenario;
    play.st.turn = 4; // after the split: the West table (Q18)
    let capital = play.st.nations[rome].capital as usize;
    let holds = |a: u8| {
        s.areas[a as usize]
            .provinces
            .iter()
            .any(|&p| play.st.owner[p as usize] == rome as u8)
    };
    let exact = super::procedures::revolt_area_distribution(
        &s.revolt_areas,
        Some(super::procedures::MapHalf::West),
        holds,
    );
    let mut dice = Dice::from_seed(20);
    let trials = 20_000;
    let mut by_area = vec![0u32; s.areas.len()];
    for _ in 0..trials {
        play.st.revolt.fill(0);
        play.st.rebel_provinces = 0;
        play.start_revolt(rome, &mut dice, &mut NoLog);
        let rebels: Vec<usize> = (0..s.provinces.len())
            .filter(|&p| play.st.revolt[p] > 0)
            .collect();
        assert_eq!(rebels.len(), 1, "one rebel province a revolt");
        let p = rebels[0];
        assert_ne!(p, capital, "never the capital");
        assert_eq!(play.st.owner[p], rome as u8);
        by_area[s.provinces[p].area as usize] += 1;
    }
    for (a, p) in exact {
        let f = by_area[a as usize] as f64 / trials as f64;
        let se = (p * (1.0 - p) / trials as f64).sqrt();
        assert!(
            (f - p).abs() < 5.0 * se,
            "{}: {f} vs {p}",
            s.areas[a as usize].name
        );
        by_area[a as usize] = 0;
    }
    assert!(by_area.iter().all(|&c| c == 0), "only the table's Areas");
    // Q19: a second revolt in a rebel province flips its marker to Revolt +, no further.
    play.st.revolt.fill(0);
    let p = s.province("Neustria").unwrap() as usize;
    play.st.revolt[p] = 1;
    play.st.rebel_provinces = 1;
    for _ in 0..50 {
        play.start_revolt(rome, &mut dice, &mut NoLog);
    }
    assert!(play.st.revolt.iter().all(|&r| r <= 2));
    assert!(play.st.revolt.contains(&2));
}

#[test]
fn under_the_d2_reading_of_q18_an_empires_revolts_follow_both_halves_of_the_table() {
    let table: toml::Table = toml::from_str("revolt_area_half = \"d2\"").unwrap();
    let o = Options::resolve(
        crate::rulesets::invasions::OPTIONS,
        Fields::new("t.toml", &table),
    )
    .unwrap();
    let s = Scenario::bundled().unwrap();
    let n = s.nations.len();
    let g = Game::new(
        s,
        &o,
        vec!["t".into(); 4],
        vec![Policy::Scripted(Scripted::defaults()); n],
        Vec::new(),
    );
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = nation(&g, "romani");
    play.st.turn = 4; // past the split's turn: the default reading would use the West table only
    let holds = |a: u8| {
        s.areas[a as usize]
            .provinces
            .iter()
            .any(|&p| play.st.owner[p as usize] == rome as u8)
    };
    let exact = super::procedures::revolt_area_distribution(&s.revolt_areas, None, holds);
    assert!(exact.iter().any(|&(a, _)| s.revolt_areas[1].contains(&a)));
    let mut dice = Dice::from_seed(18);
    let trials = 20_000;
    let mut by_area = vec![0u32; s.areas.len()];
    for _ in 0..trials {
        play.st.revolt.fill(0);
        play.st.rebel_provinces = 0;
        play.start_revolt(rome, &mut dice, &mut NoLog);
        if let Some(p) = (0..s.provinces.len()).find(|&p| play.st.revolt[p] > 0) {
            by_area[s.provinces[p].area as usize] += 1;
        }
    }
    for (a, p) in exact {
        // An Area where Rome holds only its capital takes the roll but no revolt.
        let eligible = s.areas[a as usize].provinces.iter().any(|&q| {
            q as usize != play.st.nations[rome].capital as usize
                && play.st.owner[q as usize] == rome as u8
        });
        let want = if eligible { p } else { 0.0 };
        let f = by_area[a as usize] as f64 / trials as f64;
        let se = (p * (1.0 - p) / trials as f64).sqrt();
        assert!(
            (f - want).abs() < 5.0 * se,
            "{}: {f} vs {want}",
            s.areas[a as usize].name
        );
    }
}

#[test]
fn revolt_suppression_succeeds_as_often_as_the_battle_code_says_and_a_failure_costs_a_unit() {
    let g = scripted_game();
    let persia = nation(&g, "persae");
    let mut play = Play::new(&g);
    let s = &g.scenario;
    let capital = play.st.nations[persia].capital as usize;
    let a = s.provinces[capital].area as usize;
    let rebel = s.areas[a]
        .provinces
        .iter()
        .map(|&p| p as usize)
        .find(|&p| p != capital && play.st.owner[p] == persia as u8)
        .expect("Persia holds another province in its capital's Area");
    let held = super::state::held_in(s, &play.st, persia, a);
    let start = play.st.clone();
    let per_province = start.count(persia, a) / held;
    assert!(per_province >= 1, "units present");
    let p = crate::rulesets::invasions::revolt::Revolt {
        units: per_province,
        leader: None,
        heretical: false,
        religion_differs: false,
        as_extracted: false,
    }
    .p();
    assert!(p > 0.0 && p < 1.0);
    assert!(
        p >= Scripted::defaults().suppress,
        "the scripted player tries"
    );
    let mut dice = Dice::from_seed(31);
    let trials = 20_000;
    let mut wins = 0;
    for _ in 0..trials {
        play.st.clone_from(&start);
        play.st.set_revolt(&g.scenario, rebel, 1);
        play.suppress_revolts(persia, &mut dice, &mut NoLog);
        let lost = start.count(persia, a) - play.st.count(persia, a);
        if play.st.revolt[rebel] == 0 {
            wins += 1;
            assert_eq!(lost, 0);
        } else {
            assert_eq!(lost, 1, "a failure costs one unit");
        }
    }
    let f = wins as f64 / trials as f64;
    let se = (p * (1.0 - p) / trials as f64).sqrt();
    assert!((f - p).abs() < 5.0 * se, "{f} vs {p}");
}

#[test]
fn flight_succeeds_as_often_as_the_battle_code_says_and_a_stack_alone_in_its_area_leaves_it() {
    let policy = Policy::Scripted(Scripted {
        flee: 1.0, // always tries
        ..Scripted::defaults()
    });
    let g = game_with(Scenario::bundled().unwrap(), policy);
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = nation(&g, "romani");
    let huns = nation(&g, "hunni");
    let italia = s.area("Italia").unwrap() as usize;
    let capital = play.st.nations[rome].capital as usize;
    let p = s.areas[italia]
        .provinces
        .iter()
        .map(|&q| q as usize)
        .find(|&q| q != capital && play.st.owner[q] == rome as u8)
        .unwrap();
    let infantry = super::state::template("infantry");
    let cavalry = super::state::template("cavalry");
    let mut attackers = [0u8; super::state::NT];
    attackers[cavalry] = 2;
    let mut defenders = [0u8; super::state::NT];
    defenders[infantry] = 4;
    *play.st.at_mut(rome, italia) = defenders;
    let start = play.st.clone();
    // Inputs read off the board: 4 units (twice the entering 2, +3), no cavalry against 2 (−1).
    let expected = |fortified_city: bool, crossing: bool| {
        crate::rulesets::invasions::flight::Flight {
            leader: 0,
            units: 4,
            cavalry: 0,
            enemy_units: 2,
            enemy_cavalry: 2,
            fortified_city,
            crossing,
            entering_double: false,
            as_extracted: false,
        }
        .p()
    };
    let fortified = play.st.level[p] > 0 && play.st.walls[p] != 0;
    let mut dice = Dice::from_seed(44);
    let trials = 20_000;
    let mut fled = 0;
    for _ in 0..trials {
        play.st.clone_from(&start);
        if play.flight(
            huns, italia, p, &attackers, &defenders, false, &mut dice, &mut NoLog,
        ) {
            fled += 1;
            assert_eq!(*play.st.at(rome, italia), defenders, "it stays in the Area");
        }
    }
    let want = expected(fortified, false);
    let f = fled as f64 / trials as f64;
    let se = (want * (1.0 - want) / trials as f64).sqrt();
    assert!((f - want).abs() < 5.0 * se, "{f} vs {want}");
    // Alone in Italia, the stack must leave it for a held neighbour: Gallia Meridionalis, the
    // first in the graph, across the Alps (−2).
    for &q in &s.areas[italia].provinces {
        if q as usize != p {
            play.st.set_owner(s, q as usize, NONE);
        }
    }
    let gallia = s.area("Gallia Meridionalis").unwrap() as usize;
    let alone = play.st.clone();
    let mut left = 0;
    for _ in 0..trials {
        play.st.clone_from(&alone);
        if play.flight(
            huns, italia, p, &attackers, &defenders, false, &mut dice, &mut NoLog,
        ) {
            left += 1;
            assert_eq!(play.st.count(rome, italia), 0);
            assert_eq!(
                play.st.count(rome, gallia),
                alone.count(rome, gallia) + 4,
                "units move, none lost"
            );
        }
    }
    let want = expected(fortified, true);
    let f = left as f64 / trials as f64;
    let se = (want * (1.0 - want) / trials as f64).sqrt();
    assert!(want > 0.0 && (f - want).abs() < 5.0 * se, "{f} vs {want}");
    // A horde's province is always defended.
    play.st.clone_from(&start);
    assert!(
        !(0..200)
            .any(|_| play
                .flight(huns, italia, p, &attackers, &defenders, true, &mut dice, &mut NoLog))
    );
}

#[test]
fn interception_arrives_as_often_as_the_battle_code_says_within_the_stacking_room() {
    let policy = Policy::Scripted(Scripted {
        intercept: 1.0, // always tries
        garrison: 0,
        ..Scripted::defaults()
    });
    let g = game_with(Scenario::bundled().unwrap(), policy);
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = nation(&g, "romani");
    let huns = nation(&g, "hunni");
    let italia = s.area("Italia").unwrap() as usize;
    let illyria = s.area("Illyria").unwrap() as usize;
    let capital = play.st.nations[rome].capital as usize;
    assert_eq!(s.provinces[capital].area as usize, italia);
    let infantry = super::state::template("infantry");
    // One defender in Italia; every other Roman unit off the map but 5 in Illyria (no border
    // modifier: Italia–Illyria is plain land).
    for a in 0..s.areas.len() {
        *play.st.at_mut(rome, a) = [0; super::state::NT];
    }
    play.st.at_mut(rome, italia)[infantry] = 1;
    play.st.at_mut(rome, illyria)[infantry] = 5;
    let mut attackers = [0u8; super::state::NT];
    attackers[infantry] = 4;
    let gallia = s.area("Gallia Meridionalis").unwrap() as usize;
    let start = play.st.clone();
    // An Empire (+2) defending its capital (+3): D10 + 5 ≥ 6, P = 1; elsewhere P = 0.7.
    let other = s.areas[italia]
        .provinces
        .iter()
        .map(|&q| q as usize)
        .find(|&q| q != capital && play.st.owner[q] == rome as u8)
        .unwrap();
    let mut dice = Dice::from_seed(55);
    for (p, want) in [(capital, 1.0), (other, 0.7)] {
        let trials = 20_000;
        let mut arrived = 0;
        for _ in 0..trials {
            play.st.clone_from(&start);
            if play.interception(huns, gallia, p, &attackers, &mut dice, &mut NoLog) {
                arrived += 1;
                // Room for 3 beside the defender (limit 4 in the plain, 3 in mountains).
                let room = g.stacking[p] as u32 - 1;
                assert_eq!(play.st.count(rome, italia), 1 + room);
                assert_eq!(play.st.count(rome, illyria), 5 - room);
            } else {
                assert_eq!(play.st.count(rome, italia), 1);
            }
        }
        let f = arrived as f64 / trials as f64;
        let se = (want * (1.0 - want) / trials as f64).sqrt().max(1e-9);
        assert!((f - want).abs() <= 5.0 * se, "{f} vs {want}");
    }
    // Never from the attackers' own Area.
    play.st.clone_from(&start);
    assert!(!play.interception(huns, illyria, other, &attackers, &mut dice, &mut NoLog));
}

#[test]
fn civilized_ageing_past_12_deepens_decline() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    let persia = nation(&g, "persae");
    let mut dice = Dice::from_seed(1);
    play.st.nations[persia].age = 11;
    play.age_up(persia, 2, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].age, 12);
    assert_eq!(play.st.nations[persia].decline, Decline::Simple);
    play.age_up(persia, 1, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].decline, Decline::Double);
    // Already double: an Empire pays the marker's 10 gold instead (L421).
    let rome = nation(&g, "romani");
    play.st.nations[rome].age = 12;
    play.st.nations[rome].decline = Decline::Double;
    let before = play.st.nations[rome].treasury;
    play.age_up(rome, 1, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[rome].treasury, before - 10);
    assert_eq!(play.st.nations[rome].decline, Decline::Double);
}

#[test]
fn a_kingdom_fortifies_its_best_unwalled_city_for_15_gold_once_its_treasury_reaches_the_policys_threshold(
) {
    let policy = Scripted {
        fortify: 20,
        reserve: 40,
        ..Scripted::defaults()
    };
    let g = game_with(Scenario::bundled().unwrap(), Policy::Scripted(policy));
    let mut play = Play::new(&g);
    empty_board(&mut play);
    let persia = nation(&g, "persae");
    let unwalled = |level: u8| {
        (0..g.scenario.provinces.len())
            .find(|&p| play.st.level[p] == level && play.st.walls[p] == 0)
            .expect("an unwalled city of that level")
    };
    let (big, small) = (unwalled(2), unwalled(1));
    for p in [small, big] {
        play.st.set_owner(&g.scenario, p, persia as u8);
    }
    play.st.turn = 2;
    let mut dice = Dice::from_seed(3);
    // Below the threshold: no walls, no gold spent (the reserve of 40 buys no unit either).
    play.st.nations[persia].treasury = 19;
    play.purchases(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].treasury, 19);
    assert_eq!((play.st.walls[big], play.st.walls[small]), (0, 0));
    // At 35: the level-2 city first, for 15 gold, with the standard walls' −2 (XXIII.B-C).
    play.st.nations[persia].treasury = 35;
    play.purchases(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].treasury, 20);
    assert_eq!((play.st.walls[big], play.st.walls[small]), (-2, 0));
    // At 20 (the threshold) the other one; then nothing is left to fortify.
    play.purchases(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].treasury, 5);
    assert_eq!(play.st.walls[small], -2);
    play.st.nations[persia].treasury = 40;
    play.purchases(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[persia].treasury, 40);
    assert_eq!(play.st.counters.cities_fortified, 2);
    // The default never fortifies (41 is above the treasury's ceiling of 40), even with a
    // treasury that income carried past the ceiling before purchases.
    assert_eq!(Scripted::defaults().fortify, 41);
    let g = scripted_game();
    let mut play = Play::new(&g);
    empty_board(&mut play);
    play.st.set_owner(&g.scenario, big, persia as u8);
    play.st.nations[persia].treasury = 60;
    play.st.turn = 2;
    play.purchases(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.walls[big], 0);
}

#[test]
fn a_kingdom_that_cannot_pay_its_upkeep_loses_the_fewer_of_unpaid_and_half() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    empty_board(&mut play);
    let persia = nation(&g, "persae");
    let start_units = play.st.units_of(persia);
    assert!(start_units >= 6, "Persia starts with an army");
    play.st.nations[persia].treasury = 0;
    play.st.nations[persia].age = 3;
    play.st.turn = 2;
    let mut dice = Dice::from_seed(2);
    // No province, no capital: gross 0, upkeep = units; unpaid = units > half → loses half.
    play.income(persia, false, &mut dice, &mut NoLog);
    assert_eq!(
        play.st.units_of(persia),
        start_units - start_units.div_ceil(2)
    );
    // Bankruptcy: age +2, Decline +1 (XIV.J), treasury empty.
    assert_eq!(play.st.nations[persia].age, 5);
    assert_eq!(play.st.nations[persia].decline, Decline::Simple);
    assert_eq!(play.st.nations[persia].treasury, 0);
}

#[test]
fn the_tie_break_counts_the_last_turns_vp_again_then_player_order() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    for ns in play.st.nations.iter_mut() {
        ns.vp = [0; super::state::VP_SOURCES.len()];
    }
    let goths = g.players.iter().position(|p| p == "Goths").unwrap();
    let huns = g.players.iter().position(|p| p == "Huns").unwrap();
    let goth = (0..g.scenario.nations.len())
        .find(|&n| g.player_of(n) == goths)
        .unwrap();
    let hun = (0..g.scenario.nations.len())
        .find(|&n| g.player_of(n) == huns)
        .unwrap();
    play.st.nations[goth].vp[0] = 30;
    play.st.nations[hun].vp[0] = 30;
    play.st.turn_vp.fill(0);
    play.st.turn_vp[goths] = 10;
    play.st.turn_vp[huns] = 5;
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    play.record(&mut r, &mut NoLog);
    assert_eq!(r.win_share[goths], 1.0, "more VP in the last turn");
    // Still tied: Romans > Huns > Persians > Goths (L367-369).
    play.st.turn_vp[huns] = 10;
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    play.record(&mut r, &mut NoLog);
    assert_eq!(r.win_share[huns], 1.0);
}

#[test]
fn the_calendar_splits_rome_on_turn_3_and_scores_on_3_6_9_12() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    let mut log = TextLog::default();
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    play.play(
        &mut Dice::for_trial(7, 0, 0),
        &mut r,
        &mut NoObserver,
        &mut log,
    );
    let mut turn = 0;
    let mut scored = Vec::new();
    let mut split = 0;
    for line in &log.lines {
        if let Some(rest) = line.strip_prefix("== turn ") {
            turn = rest.split(' ').next().unwrap().parse::<u32>().unwrap();
        }
        if line.starts_with("scoring:") && scored.last() != Some(&turn) {
            scored.push(turn);
        }
        if line.starts_with("the Empire splits") {
            split = turn;
        }
    }
    assert_eq!(split, 3);
    assert!(
        scored.iter().all(|t| [3, 6, 9, 12].contains(t)) && scored.contains(&12),
        "{scored:?}"
    );
    assert_eq!(r.turns, 12);
    // After the split Byzantium holds what Rome held in the Eastern Areas.
    let e = nation(&g, "orientali");
    assert_ne!(play.st.nations[e].phase, Phase::Waiting);
}

pub(super) fn check_invariants(play: &Play, r: &GameRecord, what: &str) {
    let g = play.game;
    let st = &play.st;
    assert_eq!(
        r.turns, g.last_turn as u32,
        "{what}: every game lasts its turns"
    );
    assert_eq!(
        st.all_units(),
        st.ledger.units_in - st.ledger.units_out,
        "{what}: units change only through their sources and sinks"
    );
    assert_eq!(
        st.all_gold(),
        st.ledger.gold_in - st.ledger.gold_out,
        "{what}: gold changes only through its sources and sinks"
    );
    let share: f64 = r.win_share.iter().sum();
    assert!((share - 1.0).abs() < 1e-12, "{what}: one winner");
    for (n, ns) in st.nations.iter().enumerate() {
        assert!(ns.treasury >= 0, "{what}: {} in debt", g.name(n));
        assert!(ns.age >= 1 && ns.age <= 12, "{what}: age {}", ns.age);
        match ns.phase {
            Phase::Active(Status::Barbarian) => assert!(ns.age <= 7 || g.inactive[n]),
            Phase::Gone | Phase::Waiting => {
                assert_eq!(
                    st.units_of(n),
                    0,
                    "{what}: {} has units off the game",
                    g.name(n)
                );
                assert!(
                    !st.owner.contains(&(n as u8)),
                    "{what}: {} holds land off the game",
                    g.name(n)
                );
            }
            _ => {}
        }
    }
    for (n, ns) in st.nations.iter().enumerate() {
        if ns.leader.area != NONE {
            assert!(
                matches!(ns.phase, Phase::Active(_)),
                "{what}: {} has a leader off the game",
                g.name(n)
            );
        }
    }
    for (p, &o) in st.owner.iter().enumerate() {
        if o != NONE {
            assert!(
                matches!(st.nations[o as usize].phase, Phase::Active(_)),
                "{what}: province {p} held by a nation out of the game"
            );
        }
    }
    assert_eq!(
        st.rebel_provinces as usize,
        st.revolt.iter().filter(|&&r| r > 0).count(),
        "{what}: the rebel count follows the markers"
    );
    for (n, ns) in st.nations.iter().enumerate() {
        use super::politics::Bond;
        assert_eq!(
            ns.bond == Bond::Free,
            ns.lord == NONE,
            "{what}: {} bound without a lord or free with one",
            g.name(n)
        );
        assert_ne!(ns.lord as usize, n, "{what}: {} its own lord", g.name(n));
        if ns.bond == Bond::Federate {
            assert_eq!(
                ns.phase,
                Phase::Active(Status::Barbarian),
                "{what}: a federate is a Barbarian"
            );
        }
        if ns.bond == Bond::Client {
            assert!(g.minor[n], "{what}: only minor kingdoms are clients");
        }
    }
    for (p, &f) in st.foedus_for.iter().enumerate() {
        if f != NONE {
            let o = st.owner[p] as usize;
            assert!(
                st.nations[o].bond == super::politics::Bond::Federate && st.nations[o].lord == f,
                "{what}: Foedus province {p} not held by a federate of its federator"
            );
        }
    }
    let vp: i32 = (0..g.players.len()).map(|p| play.player_vp(p)).sum();
    assert_eq!(vp as f64, r.score.iter().sum::<f64>());
    // Every VP scored shows in a nation's column: no nation that scores lacks one.
    let by_nation: f64 = r.extra[super::GAME_COLUMNS.len()..].iter().sum();
    assert_eq!(
        by_nation, vp as f64,
        "{what}: VP by nation add up to the players'"
    );
}

#[test]
fn invariants_hold_over_thousands_of_random_and_scripted_games() {
    for (policy, games) in [
        (Policy::Random, 2000u64),
        (Policy::Scripted(Scripted::defaults()), 500),
    ] {
        let g = game_with(Scenario::bundled().unwrap(), policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        for i in 0..games {
            r.clear();
            play.play(
                &mut Dice::for_trial(11, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("{policy:?} game {i}"));
        }
    }
}

#[test]
fn the_kept_control_table_equals_a_rebuild_wherever_it_is_read() {
    use super::state::CHECK_CONTROL;
    CHECK_CONTROL.with(|c| c.set(Some((0, 0))));
    for (policy, games) in [
        (Policy::Random, 300u64),
        (Policy::Scripted(Scripted::defaults()), 300),
    ] {
        let g = game_with(Scenario::bundled().unwrap(), policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        for i in 0..games {
            r.clear();
            play.play(
                &mut Dice::for_trial(23, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            // And at the end of the game, after the last turn's changes.
            play.st.check_control(&g.scenario);
        }
    }
    let (checks, held) = CHECK_CONTROL.with(|c| c.take()).unwrap();
    // Income, Empire tests and scoring read it many times a game, and Areas change hands.
    assert!(checks > 600 * 20, "only {checks} checks");
    assert!(
        held > checks,
        "{held} controlled Areas over {checks} checks"
    );
}

#[test]
fn advanced_battles_play_too() {
    let mut o = options();
    let table: toml::Table = toml::from_str("game_battle_system = \"advanced\"").unwrap();
    o = Options::resolve(
        crate::rulesets::invasions::OPTIONS,
        Fields::new("t.toml", &table),
    )
    .unwrap_or(o);
    let s = Scenario::bundled().unwrap();
    let n = s.nations.len();
    let g = Game::new(
        s,
        &o,
        vec!["t".into(); 4],
        vec![Policy::Scripted(Scripted::defaults()); n],
        Vec::new(),
    );
    assert_eq!(g.system, crate::rulesets::invasions::land::System::Advanced);
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(4, g.game_columns().len());
    for i in 0..20 {
        r.clear();
        play.play(
            &mut Dice::for_trial(3, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, "advanced");
    }
}

fn build(text: &str) -> crate::error::Result<Box<dyn GameModel>> {
    let table: toml::Table = toml::from_str(text).unwrap();
    let setup = GameSetup {
        source: "exp.toml",
        fields: Fields::new("exp.toml", &table),
        options: options(),
    };
    super::build(&setup)
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_code_2() {
    for (text, field, hint) in [
        (
            "[nation_policies]\nvisigoti = \"random\"",
            "nation_policies.visigoti",
            "visigothi",
        ),
        (
            "[policies]\nromanz = \"random\"",
            "policies.romanz",
            "romans",
        ),
        (
            "[policies]\nromans = { policy = \"scripted\", attack = 2 }",
            "romans.attack",
            "0 to 1",
        ),
        ("scenario = \"nowhere\"", "scenario", "folder"),
        ("objectives = \"fair\"", "objectives", "balanced"),
        ("turns = 3", "turns", "scenario"),
    ] {
        let e = build(text).err().expect(text);
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2, "{msg}");
        assert!(!msg.trim().contains('\n'), "one line: {msg}");
        assert!(msg.contains(field) && msg.contains(hint), "{text}: {msg}");
    }
    let ok =
        build("[nation_policies]\nvisigothi = { policy = \"scripted\", attack = 0.9 }").unwrap();
    assert!(ok
        .describe()
        .iter()
        .any(|l| l.contains("visigothi plays scripted(attack=0.9)")));
}

#[test]
fn every_run_says_its_winners_rest_on_placeholder_vp() {
    let g = scripted_game();
    let lines = g.describe();
    assert!(lines
        .iter()
        .any(|l| l.starts_with("WINNERS REST ON PLACEHOLDER VP")));
    assert!(lines
        .iter()
        .any(|l| l.contains("placeholder") && l.contains("[objectives]")));
    assert!(lines.iter().any(|l| l.contains("not played")));
}

#[test]
fn the_experiment_does_not_depend_on_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let mut summaries = Vec::new();
    for threads in [1, 2] {
        let result = crate::game::tests::run_shipped(
            "experiments/invasions-scenario-1.toml",
            200,
            threads,
            &tmp.path().join(format!("t{threads}")),
        );
        assert_eq!(result.games, 200);
        summaries.push(std::fs::read_to_string(result.dir.join("summary.csv")).unwrap());
    }
    assert_eq!(summaries[0], summaries[1]);
    assert!(summaries[0].contains("Romans") && summaries[0].contains("scripted"));
}

#[test]
fn purchase_prices_come_from_the_scenario_and_bad_ones_are_named() {
    let g = scripted_game();
    let infantry = super::state::template("infantry") as u8;
    assert!(g.scenario.kingdom_prices.contains(&(infantry, 3)));
    assert!(g.scenario.stand_ins().iter().any(
        |s| s.field == "purchases" && s.provenance == super::scenario::Provenance::Placeholder
    ));
    let dir = super::scenario::BUNDLED_DIR;
    let rb = std::fs::read_to_string(format!("{dir}/rulebook.toml")).unwrap();
    let ab = std::fs::read_to_string(format!("{dir}/abstraction.toml")).unwrap();
    let bad = ab.replace("kingdom = { infantry = 3,", "kingdom = { infantri = 3,");
    assert_ne!(bad, ab);
    let e = Scenario::parse("rb.toml", &rb, "ab.toml", &bad)
        .err()
        .unwrap();
    let msg = e.to_string();
    assert_eq!(e.exit_code(), 2);
    assert!(
        msg.contains("ab.toml") && msg.contains("purchases.kingdom") && msg.contains("infantri"),
        "{msg}"
    );
}

/// The shortlist's strength, summed over the types present only, is bit for bit the plain sum
/// over every type of count × value (at least 1), for stacks of every size and mix.
#[test]
fn strength_over_the_present_types_is_the_plain_sum() {
    use super::military::strength;
    use super::state::NT;
    use crate::rulesets::invasions::army::TEMPLATES;
    let mut dice = Dice::for_trial(41, 0, 0);
    let mut mixed = 0;
    for _ in 0..20_000 {
        let types = 1 + dice.below(NT as u64);
        let units: [u8; NT] =
            std::array::from_fn(|_| (dice.below(NT as u64) < types) as u8 * dice.below(7) as u8);
        let plain: f64 = units
            .iter()
            .zip(TEMPLATES)
            .map(|(&c, t)| c as f64 * t.value.max(1.0))
            .sum();
        assert_eq!(strength(&units).to_bits(), plain.to_bits(), "{units:?}");
        mixed += (units.iter().filter(|&&c| c > 0).count() > 2) as u32;
    }
    assert!(mixed > 1000, "only {mixed} stacks of three types or more");
}
