//! Religion (religion.rs): the permanent Monophysite heresy relative to the capital, its expense
//! (XIV.H, Q45) and the suppression modifiers (XVI.F), the conversion bonus and the papacy's half
//! (XXXI.B), conversions happening in games.

use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::scenario::Religion;
use super::state::{Phase, NONE, NO_PROVINCE, VP_CONVERSION};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

#[test]
fn the_monophysite_areas_are_heretical_to_a_catholic_empire_and_cost_1_each() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let persia = s.nation("persae").unwrap() as usize;
    let oriens = s.area("Oriens").unwrap() as usize;
    let aegyptus = s.area("Aegyptus").unwrap() as usize;
    let italia = s.area("Italia").unwrap() as usize;
    let mesopotamia = s.area("Mesopotamia").unwrap() as usize;
    assert_eq!(play.religion_of(rome), Religion::Catholic);
    assert_eq!(play.religion_of(persia), Religion::Mazdean);
    assert!(play.heretical(rome, oriens) && play.heretical(rome, aegyptus));
    assert!(!play.heretical(rome, italia));
    // Both suppression modifiers in Oriens (heretical, and Monophysite is not Catholic), none at home.
    assert!(play.religion_differs(rome, oriens));
    assert!(!play.religion_differs(rome, italia));
    // A Mazdean sees no heresy, only a different religion.
    assert!(!play.heretical(persia, oriens) && play.religion_differs(persia, oriens));
    assert!(!play.religion_differs(persia, mesopotamia));
    // The united Empire of 350 holds both Monophysite Areas: 1 gold each (XIV.H).
    assert_eq!(play.heresy_expenses(rome), 2);
    assert_eq!(play.heresy_expenses(persia), 0);
}

#[test]
fn q45_a_kingdom_pays_for_heresy_only_when_it_also_holds_orthodox_land_and_heresy_is_relative_to_its_capital(
) {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let britons = s.nation("brittones").unwrap() as usize;
    assert_eq!(play.religion_of(britons), Religion::Catholic);
    let oriens = s.area("Oriens").unwrap() as usize;
    let asia = s.area("Asia").unwrap() as usize;
    play.st.owner.fill(NONE);
    play.st.nations[britons].phase = Phase::Active(Status::Kingdom);
    let in_oriens: Vec<usize> = s.areas[oriens]
        .provinces
        .iter()
        .map(|&p| p as usize)
        .collect();
    let in_asia = s.areas[asia].provinces[0] as usize;
    // Capital in Asia (orthodox): Oriens alone is not paid for, Oriens with Asia is.
    play.st.nations[britons].capital = in_asia as u16;
    // A board set up by hand: the running totals are counted again after each change.
    play.st.owner[in_oriens[0]] = britons as u8;
    play.st.rebuild_totals(s);
    assert_eq!(play.heresy_expenses(britons), 0, "only heretical land");
    play.st.owner[in_asia] = britons as u8;
    play.st.rebuild_totals(s);
    assert_eq!(play.heresy_expenses(britons), 1);
    // Capital in Oriens: now Asia is heretical in its eyes (XXXI.C), Oriens orthodox.
    play.st.nations[britons].capital = in_oriens[0] as u16;
    assert!(play.heretical(britons, asia) && !play.heretical(britons, oriens));
    assert_eq!(play.heresy_expenses(britons), 1);
    play.st.owner[in_asia] = NONE;
    play.st.rebuild_totals(s);
    assert_eq!(play.heresy_expenses(britons), 0);
    play.st.nations[britons].capital = NO_PROVINCE;
}

#[test]
fn a_convert_scores_its_catholic_provinces_income_and_romas_holder_half() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let franks = s.nation("franci").unwrap() as usize;
    let rome = s.nation("romani").unwrap() as usize;
    assert!(s.conversion_bonus[franks] && !s.conversion_bonus[rome]);
    assert_eq!(play.religion_of(franks), Religion::Pagan);
    // The Franks, a Kingdom, hold Gallia Septentrionalis (Catholic) and one Oriens province
    // (Monophysite: not counted).
    let gallia = s.area("Gallia Septentrionalis").unwrap() as usize;
    let oriens = s.area("Oriens").unwrap() as usize;
    play.st.nations[franks].phase = Phase::Active(Status::Kingdom);
    let mut halves = 0;
    for &p in &s.areas[gallia].provinces {
        play.st.owner[p as usize] = franks as u8;
        halves += s.provinces[p as usize].income_halves as i32;
    }
    play.st.owner[s.areas[oriens].provinces[0] as usize] = franks as u8;
    // The printed Kingdom income of the Area is its provinces' sum (T22).
    assert_eq!(halves, 2 * s.areas[gallia].kingdom_income as i32);
    let want = (halves + 1) / 2;
    assert_eq!(play.conversion_vp(franks), want);
    assert_eq!(
        play.st.owner[g.roma.unwrap()],
        rome as u8,
        "Rome holds Roma"
    );
    play.st.turn = 2;
    play.convert(franks, &mut Dice::from_seed(1), &mut NoLog);
    assert_eq!(play.religion_of(franks), Religion::Catholic);
    assert_eq!(play.st.nations[franks].vp[VP_CONVERSION], want);
    assert_eq!(play.st.nations[rome].vp[VP_CONVERSION], (want + 1) / 2);
    assert_eq!(play.st.counters.conversions, 1);
    // Once only.
    play.convert(franks, &mut Dice::from_seed(2), &mut NoLog);
    assert_eq!(play.st.counters.conversions, 1);
    // A Catholic Frankish Kingdom now sees Oriens as heretical.
    assert!(play.heretical(franks, oriens));
}

#[test]
fn conversions_happen_in_games_and_the_invariants_hold() {
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = g
        .game_columns()
        .iter()
        .position(|c| *c == "conversions")
        .unwrap();
    let mut conversions = 0.0;
    for i in 0..200 {
        r.clear();
        play.play(
            &mut Dice::for_trial(8, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        conversions += r.extra[column];
    }
    assert!(conversions > 0.0);
}

#[test]
fn under_q45s_always_reading_a_kingdom_pays_for_heresy_even_with_only_heretical_land() {
    let g = super::game_tests::bundled_game_with_options(
        scripted(),
        "heresy_expense_kingdom = \"always\"",
    );
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let britons = s.nation("brittones").unwrap() as usize;
    let oriens = s.area("Oriens").unwrap() as usize;
    let asia = s.area("Asia").unwrap() as usize;
    play.st.owner.fill(NONE);
    play.st.nations[britons].phase = Phase::Active(Status::Kingdom);
    play.st.nations[britons].capital = s.areas[asia].provinces[0];
    play.st.owner[s.areas[oriens].provinces[0] as usize] = britons as u8;
    play.st.rebuild_totals(s);
    assert_eq!(play.heresy_expenses(britons), 1);
}

#[test]
fn an_event_heresy_lasts_two_turns_and_touches_catholics_only_their_capitals_area_included() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let persia = s.nation("persae").unwrap() as usize;
    let italia = s.area("Italia").unwrap() as usize;
    let capital_area = s.provinces[play.st.nations[rome].capital as usize].area as usize;
    assert_eq!(capital_area, italia, "Roma in Italia");
    let expenses = play.heresy_expenses(rome);
    play.st.heresy[italia] = 2; // Heresy +
    assert!(
        play.heretical(rome, italia),
        "an event heresy spares no capital"
    );
    assert!(!play.heretical(persia, italia), "a Mazdean sees no heresy");
    assert_eq!(play.heresy_expenses(rome), expenses + 1);
    // 1.A.c of the next turn: Heresy + turns to Heresy −; of the one after, it goes.
    play.age_heresies();
    assert_eq!(play.st.heresy[italia], 1);
    assert!(play.heretical(rome, italia));
    play.age_heresies();
    assert_eq!(play.st.heresy[italia], 0);
    assert!(!play.heretical(rome, italia));
    assert_eq!(play.heresy_expenses(rome), expenses);
    // An event puts Heresy + on a Catholic Area where a Catholic nation holds land.
    let mut dice = Dice::from_seed(9);
    for _ in 0..200 {
        play.st.heresy.fill(0);
        play.event_heresy(&mut dice, &mut NoLog);
        let a = play.st.heresy.iter().position(|&m| m == 2).unwrap();
        assert_eq!(s.area_religion[a], Religion::Catholic);
        assert!(s.areas[a].provinces.iter().any(|&p| {
            let o = play.st.owner[p as usize];
            o != NONE && play.religion_of(o as usize) == Religion::Catholic
        }));
    }
}

#[test]
fn heresies_arise_in_games_and_the_invariants_hold() {
    let g = bundled_game(scripted());
    assert!(g.scenario.heresy_chance > 0.0);
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = g
        .game_columns()
        .iter()
        .position(|c| *c == "heresies")
        .unwrap();
    let mut seen = 0.0;
    for i in 0..200 {
        r.clear();
        play.play(
            &mut Dice::for_trial(51, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        assert!(play.st.heresy.iter().all(|&m| m <= 2));
        seen += r.extra[column];
    }
    // 4 cards a turn at 1/20 over 12 turns: 2.4 a game expected.
    assert!(seen / 200.0 > 1.0 && seen / 200.0 < 4.0, "{seen}");
}
