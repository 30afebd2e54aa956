//! Tests of the events (digest §4.14, derived check D9) and the weather's effects on the game
//! (§4.15: movement costs, combat factors).

use super::battles::{self, Side};
use super::economy;
use super::events::{self, Pending};
use super::game_tests::{country, game_with, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CAB, COM, DEN, MET, POB};
use super::state::{State, R};
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::options::Options;
use crate::spec::Fields;

fn options_with(text: &str) -> Options {
    let table: toml::Table = toml::from_str(text).unwrap();
    Options::resolve(
        crate::rulesets::mediterraneo_sanguinolento::OPTIONS,
        Fields::new("options", &table),
    )
    .unwrap()
}

#[test]
fn d9_event_frequencies_out_of_36() {
    let expected = [
        ('A', 2),
        ('B', 1),
        ('C', 2),
        ('D', 1),
        ('E', 2),
        ('F', 1),
        ('G', 2),
        ('H', 1),
        ('I', 1),
        ('J', 2),
        ('K', 5),
        ('L', 1),
        ('M', 2),
        ('N', 1),
        ('O', 4),
        ('P', 3),
        ('Q', 1),
        ('R', 2),
        ('S', 1),
        ('T', 1),
    ];
    let mut counts = [0u32; 26];
    for row in 1..=6 {
        for col in 1..=6 {
            counts[(events::event(row, col) - b'A') as usize] += 1;
        }
    }
    for (letter, n) in expected {
        assert_eq!(counts[letter as usize - 'A' as usize], n, "{letter}");
    }
    assert_eq!(counts.iter().sum::<u32>(), 36);
    // Row die first: row 1 column 2 is R, row 2 column 1 is Q.
    assert_eq!(events::event(1, 2), b'R');
    assert_eq!(events::event(2, 1), b'Q');
}

/// Applies event `e` to `c` in a fresh start, then collects in April; returns the state.
fn after_collection(g: &Game, c: u8, e: u8) -> State {
    let mut st = g.start.clone();
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    events::apply(
        g,
        &mut st,
        &plans,
        c,
        e,
        3,
        &mut Dice::for_trial(1, 0, 0),
        &mut NoLog,
    );
    st.nations[c as usize].stock = [0; R];
    economy::collection(g, &mut st, &plans, 4);
    st
}

#[test]
fn collection_events_act_on_the_next_collection_only() {
    let g = scripted_game();
    let c = country(&g, "Roma");
    let base = g.scenario.production[c as usize].map(|v| v as i64);
    let got = |e: u8| after_collection(&g, c, e).nations[c as usize].stock;
    assert_eq!(got(b'E')[COM], base[COM] / 2, "famine");
    assert_eq!(got(b'O')[DEN], base[DEN] * 2, "prosperity");
    assert_eq!(got(b'P')[DEN], base[DEN] / 2, "hard times");
    assert_eq!(got(b'R')[POB], base[POB] * 12 / 10, "militarist campaign");
    assert_eq!(
        got(b'S')[POB],
        base[POB] * 8 / 10,
        "antimilitarist campaign"
    );
    assert_eq!(got(b'D')[POB], base[POB] * 9 / 10, "plague");
    let q = got(b'Q');
    assert_eq!(q[POB], base[POB], "devastation spares POB");
    for r in [COM, DEN, MET, CAB] {
        assert_eq!(q[r], (base[r] as f64 * 0.95).floor() as i64, "devastation");
    }
    for e in [b'F', b'G'] {
        // A harvest of 1D6 × 10% less or more.
        let com = got(e)[COM];
        let ratio = com as f64 / base[COM] as f64;
        let ok = (1..=6).any(|d| {
            let m = if e == b'F' {
                1.0 - d as f64 / 10.0
            } else {
                1.0 + d as f64 / 10.0
            };
            (base[COM] as f64 * m).floor() as i64 == com
        });
        assert!(ok, "{}: ratio {ratio}", e as char);
    }
    let cities = g.scenario.countries[c as usize].cities.len() as i64;
    let j = got(b'J');
    assert_eq!(j[POB], base[POB] + events::IMMIGRANTS);
    assert_eq!(j[DEN], base[DEN] + base[DEN] / cities / 4);
    // The next collection after that is back to normal.
    let mut st = after_collection(&g, c, b'O');
    assert_eq!(st.lands[c as usize].pending, Pending::NONE);
    st.nations[c as usize].stock = [0; R];
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    economy::collection(&g, &mut st, &plans, 8);
    assert_eq!(st.nations[c as usize].stock[DEN], base[DEN]);
}

#[test]
fn currency_events_follow_their_option() {
    let g = scripted_game();
    let c = country(&g, "Roma");
    let base = g.scenario.production[c as usize][DEN] as i64;
    let st = after_collection(&g, c, b'K');
    assert_eq!(st.nations[c as usize].stock[DEN], base * 4 / 3);
    let st = after_collection(&g, c, b'I');
    assert_eq!(st.nations[c as usize].stock[DEN], base * 2 / 3);
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("currency_events = \"treasury\""),
    );
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    for (e, expected) in [(b'K', 1200), (b'I', 600)] {
        let mut st = g.start.clone();
        st.nations[c as usize].stock[DEN] = 900;
        events::apply(
            &g,
            &mut st,
            &plans,
            c,
            e,
            3,
            &mut Dice::for_trial(1, 0, 0),
            &mut NoLog,
        );
        assert_eq!(st.nations[c as usize].stock[DEN], expected);
    }
}

#[test]
fn a_political_crisis_costs_its_table_row() {
    let g = scripted_game();
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    events::apply(
        &g,
        &mut st,
        &plans,
        roma,
        b'N',
        3,
        &mut Dice::for_trial(1, 0, 0),
        &mut NoLog,
    );
    // Civilized: -2 PV, -50 IDR (§4.19).
    assert_eq!(st.nations[roma as usize].pv_by[pv::EVENTS], -2);
    assert_eq!(
        st.nations[roma as usize].idr,
        g.start.nations[roma as usize].idr - 50
    );
}

#[test]
fn plague_kills_a_tenth_of_the_troops_within_5_se() {
    let g = scripted_game();
    let c = country(&g, "Cartago");
    let mpu = g.men_per_unit(c);
    let start = &g.start;
    let units = State::men(&start.all_units(c), &mpu);
    let n = 4000u64;
    let mut lost = Vec::with_capacity(n as usize);
    for i in 0..n {
        let mut st = start.clone();
        events::plague(&g, &mut st, c, &mut Dice::for_trial(2, 0, i));
        let left = State::men(&st.all_units(c), &mpu);
        assert!((units - left - st.ledger.men_lost).abs() < 1e-6);
        lost.push((units - left) / units);
    }
    let mean = lost.iter().sum::<f64>() / n as f64;
    let var = lost.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    assert!((mean - 0.1).abs() < 5.0 * se, "{mean} vs 0.1 (se {se})");
    // Troops elsewhere are spared: a field army abroad.
    let mut st = start.clone();
    st.nations[c as usize].at = country(&g, "Numidia");
    st.nations[c as usize].mission = super::state::Mission::March {
        target: country(&g, "Numidia"),
    };
    let field = st.nations[c as usize].field;
    events::plague(&g, &mut st, c, &mut Dice::for_trial(2, 0, 1));
    assert_eq!(st.nations[c as usize].field, field);
}

#[test]
fn storm_and_snow_double_movement_and_halve_combat_factors() {
    let g = scripted_game();
    assert_eq!(military::movement_multiplier(&g, false, false), 1);
    assert_eq!(military::movement_multiplier(&g, true, false), 2);
    assert_eq!(military::movement_multiplier(&g, false, true), 2);
    assert_eq!(military::movement_multiplier(&g, true, true), 4);
    let once = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("winter_and_storm = \"once\""),
    );
    assert_eq!(military::movement_multiplier(&once, true, true), 2);
    // The battle code halves the factors it starts from in a storm or snow, not in rain.
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let sides = [
        Side::new(
            roma,
            g.start.nations[roma as usize].field,
            super::leaders::Lead::UNNAMED,
        ),
        Side::new(
            etruria,
            g.start.nations[etruria as usize].field,
            super::leaders::Lead::UNNAMED,
        ),
    ];
    let factors = |w: Weather| {
        battles::field_battle(&g, etruria, false, w, sides, &mut Dice::for_trial(4, 0, 0)).factors
    };
    let clear = factors(Weather::Clear);
    for w in [Weather::Storm, Weather::Snow] {
        let f = factors(w);
        for k in 0..2 {
            assert!(
                (f[k] - clear[k] / 2.0).abs() < 1e-9,
                "{w:?}: {f:?} vs {clear:?}"
            );
        }
    }
    assert_eq!(factors(Weather::Rain), clear);
}
