//! Leaders and campaigns (leaders.rs): the text's leader examples (T11's siege rerolls, T14's
//! stacking), placement and ageing, death through the battle code's settlement, campaigns and
//! leader deaths happening in games, bad `[leaders]` rows.

use super::game_tests::{bundled_game, check_invariants};
use super::leaders::{siege_attempt, InPlay, Rating};
use super::policy::{Policy, Scripted};
use super::scenario::Scenario;
use super::state::{NONE, NT};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

#[test]
fn t11_a_leaders_rerolls_take_athenae_as_often_as_the_siege_code_says() {
    // Fritigernus (2 rerolls) before Athenae at −1 (L2200-2208): 1 − 0.7³ = 0.657.
    let p = crate::rulesets::invasions::siege::p_fall(-1, 2);
    assert!((p - (1.0 - 0.7f64.powi(3))).abs() < 1e-12);
    let mut dice = Dice::from_seed(7);
    let trials = 40_000;
    let taken = (0..trials)
        .filter(|_| siege_attempt(-1, 2, &mut dice).1)
        .count();
    let f = taken as f64 / trials as f64;
    let se = (p * (1.0 - p) / trials as f64).sqrt();
    assert!((f - p).abs() < 5.0 * se, "{f} vs {p}");
    // No leader: one roll, 0.3.
    let taken = (0..trials)
        .filter(|_| siege_attempt(-1, 0, &mut dice).1)
        .count();
    let f = taken as f64 / trials as f64;
    assert!(
        (f - 0.3).abs() < 5.0 * (0.21f64 / trials as f64).sqrt(),
        "{f}"
    );
}

#[test]
fn t14_a_leaders_stacking_bonus_raises_the_stacks_he_leads() {
    // L1075: a Barbarian leader of stacking +2 → 6 (mountain 5); invading 7 (mountain 6).
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let s = &g.scenario;
    let goths = g.scenario.nation("visigothi").unwrap() as usize;
    let plain = (0..s.provinces.len())
        .find(|&p| g.stacking[p] == 4)
        .unwrap();
    let mountain = (0..s.provinces.len())
        .find(|&p| g.stacking[p] == 3)
        .unwrap();
    let a = s.provinces[plain].area as usize;
    play.st.nations[goths].leader = InPlay {
        rating: Rating {
            combat: 2,
            stacking: 2,
            ..Rating::default()
        },
        area: a as u8,
        historical: NONE,
    };
    let led = |play: &Play, p: usize, invading: bool| {
        play.limit(p, invading) + play.leader_stacking(goths, a)
    };
    assert_eq!(led(&play, plain, false), 6);
    assert_eq!(led(&play, mountain, false), 5);
    assert_eq!(led(&play, plain, true), 7);
    assert_eq!(led(&play, mountain, true), 6);
    // Elsewhere he adds nothing.
    assert_eq!(play.leader_stacking(goths, (a + 1) % s.areas.len()), 0);
}

#[test]
fn leaders_arrive_on_their_turns_and_a_fallen_historical_leader_does_not_return() {
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let rome = g.scenario.nation("romani").unwrap() as usize;
    let iulianus = g
        .scenario
        .leaders
        .historical
        .iter()
        .position(|h| h.name == "Iulianus")
        .unwrap();
    let stilicho = g
        .scenario
        .leaders
        .historical
        .iter()
        .position(|h| h.name == "Stilicho")
        .unwrap();
    play.st.turn = 1;
    play.place_leaders(&mut NoLog);
    let l = play.st.nations[rome].leader;
    assert_eq!(l.historical as usize, iulianus);
    assert_eq!(l.rating.combat, 3, "the text's Iulianus (L1488)");
    // With the Romans' biggest stack.
    let most = (0..g.scenario.areas.len())
        .map(|a| play.st.count(rome, a))
        .max()
        .unwrap();
    assert_eq!(play.st.count(rome, l.area as usize), most);
    // Stilicho, turns 3 and 4, falls on turn 3: turn 4 has the intrinsic Caesar.
    play.st.turn = 3;
    play.place_leaders(&mut NoLog);
    assert_eq!(play.st.nations[rome].leader.historical as usize, stilicho);
    play.leader_falls(rome, &mut NoLog);
    assert_eq!(play.st.nations[rome].leader.area, NONE);
    assert_eq!(play.st.counters.leaders_killed, 1);
    play.st.turn = 4;
    play.place_leaders(&mut NoLog);
    let l = play.st.nations[rome].leader;
    assert_eq!(l.historical, NONE, "the intrinsic leader stands in");
    assert_eq!(Some(l.rating), g.scenario.leaders.intrinsic[2]);
    // An intrinsic leader that falls is back the next turn (IX.D).
    play.leader_falls(rome, &mut NoLog);
    play.st.turn = 5;
    play.place_leaders(&mut NoLog);
    assert_ne!(play.st.nations[rome].leader.area, NONE);
    // A nation not in play has none.
    let late = g.scenario.nation("viccingi").unwrap() as usize;
    assert_eq!(play.st.nations[late].leader.area, NONE);
}

#[test]
fn a_leader_dies_with_the_battle_codes_settled_probability() {
    use super::battles::{Border, Fighter, Ground};
    use crate::rulesets::invasions::army::Status;
    use crate::rulesets::invasions::land::Terrain;
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let infantry = super::state::template("infantry");
    let mut one = [0u8; NT];
    one[infantry] = 1;
    let mut four = [0u8; NT];
    four[infantry] = 4;
    let side = |units, leader| Fighter {
        status: Status::Kingdom,
        nomad: false,
        rome: false,
        decline: false,
        horde: false,
        without_capital: false,
        units,
        leader,
    };
    let ground = Ground {
        terrain: Terrain::Plain,
        barbarian_province: false,
        crossing: Border::None,
        fortified_city: false,
        limes: false,
    };
    let mut dice = Dice::from_seed(3);
    let (mut wiped, mut survived) = (0, 0);
    for _ in 0..2000 {
        let r = play
            .battles
            .fight(ground, [side(one, Some(1)), side(four, None)], &mut dice);
        // One unit a side at the start: no recovery, so no survivor means wiped out (XX.J, XX.K).
        if r.survivors[0].iter().all(|&c| c == 0) {
            assert_eq!(r.leader_death[0], 0.5);
            wiped += 1;
        } else {
            assert_eq!(r.leader_death[0], 0.0);
            survived += 1;
        }
        assert_eq!(r.leader_death[1], 0.0, "no leader, no death");
    }
    assert!(wiped > 0 && survived > 0);
    // An Empire in Decline whose leader wins: the D10 ≥ 8 (0.3).
    let mut strong = side(four, Some(2));
    strong.status = Status::Empire;
    strong.decline = true;
    for _ in 0..200 {
        let r = play
            .battles
            .fight(ground, [strong, side(one, None)], &mut dice);
        let want = if r.attacker_won { 0.3 } else { 0.0 };
        assert!((r.leader_death[0] - want).abs() < 1e-12);
    }
}

#[test]
fn campaigns_and_leader_deaths_happen_in_games_and_the_invariants_hold() {
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
    let (killed, campaigns) = (column("leaders_killed"), column("campaigns"));
    let (mut k, mut c) = (0.0, 0.0);
    for i in 0..200 {
        r.clear();
        play.play(
            &mut Dice::for_trial(5, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        k += r.extra[killed];
        c += r.extra[campaigns];
    }
    assert!(k > 0.0, "leaders fall in games");
    assert!(c > 0.0, "leaders campaign in games");
}

#[test]
fn without_a_leaders_table_nobody_has_a_leader() {
    let ab = include_str!("../../../../scenarios/invasions/scenario-1/abstraction.toml");
    let rb = include_str!("../../../../scenarios/invasions/scenario-1/rulebook.toml");
    let cut = ab.find("\n[leaders]").unwrap();
    let s = Scenario::parse("rb.toml", rb, "ab.toml", &ab[..cut]).unwrap();
    assert!(!s.leaders.any());
    let g = super::game_tests::game_with_options(
        s,
        scripted(),
        &crate::options::Options::defaults(crate::rulesets::invasions::OPTIONS),
    );
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    play.play(
        &mut Dice::for_trial(1, 0, 0),
        &mut r,
        &mut NoObserver,
        &mut NoLog,
    );
    assert!(play.st.nations.iter().all(|n| n.leader.area == NONE));
    assert_eq!(play.st.counters.campaigns, 0);
}

/// The loader's error once `from` is replaced by `to` in the bundled abstraction.toml.
fn leaders_error(from: &str, to: &str) -> String {
    super::tests::error_with(false, from, to)
}

#[test]
fn bad_leader_rows_are_one_line_errors() {
    let e = leaders_error(
        r#"name = "Iulianus", turns = [1], combat = 3"#,
        r#"name = "Iulianus", turns = [1], combat = 4"#,
    );
    assert!(e.contains("`leaders.rows[0].combat` = 4"), "{e}");
    assert!(e.contains("0..=3"), "{e}");
    let e = leaders_error(
        r#"turns = [3, 4], combat = 2, stacking = 2, campaign = 2, provenance"#,
        r#"turns = [3, 5], combat = 2, stacking = 2, campaign = 2, provenance"#,
    );
    assert!(e.contains("`leaders.rows[2].turns`"), "{e}");
    assert!(e.contains("two consecutive turns"), "{e}");
    let e = leaders_error(
        r#"nation = "hunni", name = "Attila""#,
        r#"nation = "huni", name = "Attila""#,
    );
    assert!(e.contains("`leaders.rows[12].nation` = \"huni\""), "{e}");
    let e = leaders_error("barbarian = { combat = 1 }", "barbarians = { combat = 1 }");
    assert!(e.contains("leaders.intrinsic.barbarians"), "{e}");
}
