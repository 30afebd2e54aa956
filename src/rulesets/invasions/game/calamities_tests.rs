//! Calamities (calamities.rs): the chance of one from the card kept, the Heresy calamity's Area
//! (never the capital's, XXXI.C) and religion, its expense for a non-Catholic victim, the collapse
//! test's count, and heresies of calamities happening in games.

use super::calamities::{Calamities, Effect};
use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::politics::Bond;
use super::procedures::Decline;
use super::scenario::Religion;
use super::state::Phase;
use super::state::NONE;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

#[test]
fn a_nation_keeping_one_of_k_cards_suffers_a_calamity_only_when_all_k_carry_one() {
    let c = Calamities {
        card_chance: 1.0 / 3.0,
        heresy_share: 1.0 / 12.0,
        ..Calamities::default()
    };
    // Every card of the set must carry one: (1/3)^k; a bankruptcy's one card: 1/3.
    assert!((c.p_calamity(1) - 1.0 / 3.0).abs() < 1e-15);
    assert!((c.p_calamity(2) - 1.0 / 9.0).abs() < 1e-15);
    assert!((c.p_calamity(3) - 1.0 / 27.0).abs() < 1e-15);
    assert_eq!(
        c.p_calamity(0),
        c.p_calamity(1),
        "a set holds one card at least"
    );
    // The game draws them at that rate: 5 standard errors.
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let card = s.calamities.card_chance;
    assert!(card > 0.0, "the bundled scenario has calamities");
    let mut dice = Dice::from_seed(12);
    let trials = 20_000u32;
    for cards in [1u32, 2] {
        let before = play.st.counters.calamities;
        for _ in 0..trials {
            play.card_calamity(rome, cards, &mut dice, &mut NoLog);
            play.st.heresy.fill(0);
        }
        let f = (play.st.counters.calamities - before) as f64 / trials as f64;
        let p = card.powi(cards as i32);
        let se = (p * (1.0 - p) / trials as f64).sqrt();
        assert!((f - p).abs() <= 5.0 * se, "{cards} cards: {f} vs {p}");
    }
}

#[test]
fn a_calamity_heresy_spares_the_capitals_area_and_marks_the_victims_religion() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let persia = s.nation("persae").unwrap() as usize;
    let capital_area =
        |play: &Play, n: usize| s.provinces[play.st.nations[n].capital as usize].area as usize;
    let mut dice = Dice::from_seed(45);
    let mut hit = vec![false; s.areas.len()];
    for _ in 0..400 {
        play.st.heresy.fill(0);
        play.calamity_heresy(rome, &mut dice, &mut NoLog);
        let a = play
            .st
            .heresy
            .iter()
            .position(|&m| m == 2)
            .expect("a marker");
        assert_ne!(a, capital_area(&play, rome), "the capital's Area is immune");
        assert_eq!(play.st.heresy_religion[a], Religion::Catholic);
        assert!(s.areas[a]
            .provinces
            .iter()
            .any(|&p| play.st.owner[p as usize] == rome as u8));
        hit[a] = true;
    }
    // Random among the Areas Rome holds but Italia: more than one of them is drawn.
    assert!(hit.iter().filter(|&&h| h).count() > 3);
    // A Mazdean victim: its heresy is heretical to Mazdeans only and costs it 1 a turn.
    play.st.heresy.fill(0);
    let before = play.heresy_expenses(persia);
    assert_eq!(before, 0, "no Mazdean heresy at start");
    play.calamity_heresy(persia, &mut dice, &mut NoLog);
    let a = play
        .st
        .heresy
        .iter()
        .position(|&m| m == 2)
        .expect("a marker");
    assert_ne!(a, capital_area(&play, persia));
    assert_eq!(play.st.heresy_religion[a], Religion::Mazdean);
    assert!(play.heretical(persia, a));
    assert!(
        !play.heretical(rome, a) || s.area_religion[a] == Religion::Monophysite,
        "a Mazdean marker is no Catholic heresy"
    );
    assert_eq!(play.heresy_expenses(persia), 1);
    // It ages like an event's: gone after two Heresy ageing steps.
    play.age_heresies();
    assert!(play.heretical(persia, a));
    play.age_heresies();
    assert!(!play.heretical(persia, a));
    assert_eq!(play.heresy_expenses(persia), 0);
}

#[test]
fn a_pagan_suffers_no_heresy_and_a_nation_with_only_its_capitals_area_none_either() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(3);
    let pagan = (0..s.nations.len())
        .find(|&n| play.religion_of(n) == Religion::Pagan)
        .expect("a Pagan people");
    let rome = s.nation("romani").unwrap() as usize;
    let italia = s.area("Italia").unwrap() as usize;
    for p in 0..s.provinces.len() {
        play.st.owner[p] = if s.provinces[p].area as usize == italia {
            pagan as u8
        } else {
            NONE
        };
    }
    play.calamity_heresy(pagan, &mut dice, &mut NoLog);
    assert!(play.st.heresy.iter().all(|&m| m == 0), "Pagans are immune");
    // Rome holding nothing but its capital's Area: no Area may take the marker.
    for p in 0..s.provinces.len() {
        if s.provinces[p].area as usize == italia {
            play.st.owner[p] = rome as u8;
        }
    }
    play.calamity_heresy(rome, &mut dice, &mut NoLog);
    assert!(play.st.heresy.iter().all(|&m| m == 0));
}

#[test]
fn the_collapse_test_counts_this_turns_calamities_only() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(8);
    play.st.turn = 4;
    assert_eq!(play.calamities_this_turn(rome), 0);
    // Draw until two calamities fell this turn.
    while play.calamities_this_turn(rome) < 2 {
        play.card_calamity(rome, 1, &mut dice, &mut NoLog);
    }
    assert_eq!(play.st.nations[rome].calamities, 2);
    play.st.turn = 5;
    assert_eq!(
        play.calamities_this_turn(rome),
        0,
        "last turn's do not count"
    );
    play.card_calamity(rome, 1, &mut dice, &mut NoLog);
    assert!(play.calamities_this_turn(rome) <= 1);
}

#[test]
fn heresies_of_calamities_arise_in_games_and_the_invariants_hold() {
    for policy in [scripted(), Policy::Random] {
        let g = bundled_game(policy);
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
        let (calamities, heresies) = (column("calamities"), column("calamity_heresies"));
        let (mut seen, mut heretical) = (0.0, 0.0);
        let games = 300;
        for i in 0..games {
            r.clear();
            play.play(
                &mut Dice::for_trial(52, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            check_invariants(&play, &r, &format!("{policy:?} game {i}"));
            assert!(r.extra[heresies] <= r.extra[calamities]);
            seen += r.extra[calamities];
            heretical += r.extra[heresies];
        }
        assert!(heretical > 0.0, "{policy:?}: {seen} calamities, no heresy");
        // About one calamity in twelve is Heresy (fewer: a Pagan or a one-Area victim is spared).
        assert!(
            heretical < seen / 12.0 * 2.0,
            "{policy:?}: {heretical} of {seen}"
        );
    }
}

#[test]
fn a_calamity_chance_out_of_range_is_a_one_line_error_naming_the_field() {
    let dir = super::scenario::BUNDLED_DIR;
    let rb = std::fs::read_to_string(format!("{dir}/rulebook.toml")).unwrap();
    let ab = std::fs::read_to_string(format!("{dir}/abstraction.toml")).unwrap();
    let bad = ab.replace("card_chance = 0.3333", "card_chance = 1.5");
    assert_ne!(bad, ab);
    let e = super::scenario::Scenario::parse("rb.toml", &rb, "ab.toml", &bad)
        .err()
        .unwrap();
    let msg = e.to_string();
    assert_eq!(e.exit_code(), 2);
    assert!(
        msg.contains("ab.toml") && msg.contains("calamities.card_chance") && msg.contains("1.5"),
        "{msg}"
    );
    assert_eq!(msg.trim().lines().count(), 1, "{msg}");
    // An effect the game does not know, and a second Usurper row.
    for (from, to, field, value) in [
        (
            "effect = \"age\"",
            "effect = \"plague\"",
            "calamities.others[4].effect",
            "plague",
        ),
        (
            "effect = \"decline\"",
            "effect = \"usurper\"",
            "calamities.others",
            "2 usurper rows",
        ),
    ] {
        let bad = ab.replacen(from, to, 1);
        assert_ne!(bad, ab);
        let e = super::scenario::Scenario::parse("rb.toml", &rb, "ab.toml", &bad)
            .err()
            .unwrap();
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(msg.contains(field) && msg.contains(value), "{msg}");
        assert_eq!(msg.trim().lines().count(), 1, "{msg}");
    }
}

/// The row of the bundled `[calamities] others` named `name`.
fn row(g: &super::Game, name: &str) -> usize {
    g.scenario
        .calamities
        .others
        .iter()
        .position(|c| c.name == name)
        .unwrap()
}

/// The first bundled row with `effect`.
fn row_with(g: &super::Game, effect: Effect) -> usize {
    g.scenario
        .calamities
        .others
        .iter()
        .position(|c| c.effect == effect)
        .unwrap()
}

#[test]
fn each_calamity_row_drives_its_mechanic_by_its_amount() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let others = &s.calamities.others;
    assert_eq!(others.len(), 11, "12 calamities, Heresy aside (XIII.E)");
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let rome = s.nation("romani").unwrap() as usize;
    let start = play.st.clone();
    let mut dice = Dice::from_seed(8);
    // Revolts: the revolt procedure, `amount` times (XVI.A); a row heresy does not double.
    let r = (0..others.len())
        .find(|&r| others[r].effect == Effect::Revolt && !others[r].heresy_doubles)
        .unwrap();
    play.calamity(rome, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.counters.revolts, others[r].amount as u32);
    // Ageing (VI.E): age + amount below 12.
    play.st.clone_from(&start);
    let r = row_with(&g, Effect::Age);
    let age = play.st.nations[rome].age;
    assert!(age + others[r].amount < 12);
    play.calamity(rome, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[rome].age, age + others[r].amount);
    // Decline (VI.F): one level.
    play.st.clone_from(&start);
    play.st.nations[rome].decline = Decline::None;
    play.calamity(rome, row_with(&g, Effect::Decline), &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[rome].decline, Decline::Simple);
    // Gold: the amount, never below 0; out through the ledger.
    play.st.clone_from(&start);
    let r = row_with(&g, Effect::Gold);
    play.st.nations[rome].treasury = 3;
    let out = play.st.ledger.gold_out;
    play.calamity(rome, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.nations[rome].treasury, 0);
    assert_eq!(play.st.ledger.gold_out - out, 3);
    // Units: the amount, out through the ledger.
    play.st.clone_from(&start);
    let r = row_with(&g, Effect::Units);
    let units = play.st.units_of(rome);
    play.calamity(rome, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.units_of(rome), units - others[r].amount as u32);
    assert_eq!(
        play.st.all_units(),
        play.st.ledger.units_in - play.st.ledger.units_out
    );
    assert_eq!(
        play.st.counters.calamity_effects,
        start.counters.calamity_effects + 1,
        "each row once since the last reset"
    );
}

#[test]
fn intolerance_doubles_where_the_victim_holds_heretical_land() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let rome = s.nation("romani").unwrap() as usize;
    let r = row(&g, "Intolerance");
    assert!(s.calamities.others[r].heresy_doubles);
    let amount = s.calamities.others[r].amount as u32;
    let mut dice = Dice::from_seed(9);
    play.st.heresy.fill(0);
    // Rome holds Monophysite Aegyptus at start: heretical in a Catholic's eyes (XXXI.C).
    let start = play.st.clone();
    let heretical = (0..s.areas.len()).any(|a| {
        play.heretical(rome, a)
            && s.areas[a]
                .provinces
                .iter()
                .any(|&p| play.st.owner[p as usize] == rome as u8)
    });
    assert!(heretical);
    play.calamity(rome, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.counters.revolts, 2 * amount);
    // Persia sees no heresy at start: the amount as written.
    play.st.clone_from(&start);
    let persia = s.nation("persae").unwrap() as usize;
    play.calamity(persia, r, &mut dice, &mut NoLog);
    assert_eq!(play.st.counters.revolts, amount);
}

#[test]
fn the_usurper_test_fails_on_half_the_d2s_of_rome_in_decline_and_frees_willing_federates() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let rome = s.nation("romani").unwrap() as usize;
    let persia = s.nation("persae").unwrap() as usize;
    let mut dice = Dice::from_seed(10);
    // Not in Decline: no test; nor for a nation that is not Rome or Byzantium.
    play.usurper_test(rome, &mut dice, &mut NoLog);
    play.st.nations[persia].decline = Decline::Simple;
    play.usurper_test(persia, &mut dice, &mut NoLog);
    assert_eq!(play.st.counters.usurper_tests, 0);
    play.st.nations[rome].decline = Decline::Simple;
    let start = play.st.clone();
    let trials = 4000u32;
    let mut usurped = 0;
    for _ in 0..trials {
        play.st.clone_from(&start);
        play.usurper_test(rome, &mut dice, &mut NoLog);
        if play.st.counters.usurpers == 1 {
            usurped += 1;
            // A calamity of the turn (the collapse test's +1, XIV.K).
            assert_eq!(play.calamities_this_turn(rome), 1);
        } else {
            assert_eq!(play.calamities_this_turn(rome), 0);
        }
    }
    let f = usurped as f64 / trials as f64;
    assert!(
        (f - 0.5).abs() <= 5.0 * (0.25 / trials as f64).sqrt(),
        "{f}"
    );
    // The Usurper lets a federate break its Foedus at once (XXVIII.H) when it wants to.
    let goths = s.nation("visigothi").unwrap() as usize;
    play.st.clone_from(&start);
    play.st
        .set_phase(s, goths, Phase::Active(Status::Barbarian));
    play.st.nations[goths].bond = Bond::Federate;
    play.st.nations[goths].lord = rome as u8;
    let usurper = row_with(&g, Effect::Usurper);
    play.calamity(rome, usurper, &mut dice, &mut NoLog);
    let wants = Scripted::defaults().foedus_break;
    assert_eq!(play.st.nations[goths].bond == Bond::Free, wants);
    assert_eq!(play.st.counters.usurpers, 1);
}

#[test]
fn calamity_effects_and_the_usurper_test_happen_in_games() {
    let effects = super::alliances_tests::counted_over(scripted(), 300, "calamity_effects");
    assert!(effects > 0.0, "{effects}");
    let tests = super::alliances_tests::counted_over(scripted(), 300, "usurper_tests");
    assert!(tests > 0.0, "{tests}");
}
