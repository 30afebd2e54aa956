//! Militia (digest §4.5.5, §4.19 rows, A50, A69): its size, the call's and the month's PV and IDR
//! by hand from the rows, disbanding and destruction, the policy's call, its weight in a fight
//! through the battle code, and whole games in which it is called.

use super::battles::{self, Side, Walls};
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::leaders::Lead;
use super::militia;
use super::policy::{Policy, Scripted};
use super::scenario::CountryId;
use super::state::{Mission, State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// `invader`'s field army of `units` of its first kind besieging `home`.
fn invade(st: &mut State, invader: CountryId, home: CountryId, units: f64) {
    let n = &mut st.nations[invader as usize];
    n.field = NO_UNITS;
    n.field[0] = units;
    n.at = home;
    n.mission = Mission::Siege {
        target: home,
        months: 0,
    };
}

fn walls(fort: u32, months: u32) -> Walls {
    Walls {
        fort,
        months,
        engine: 0,
    }
}

fn civilized_pair(g: &Game) -> (CountryId, CountryId) {
    let (roma, cartago) = (country(g, "Roma"), country(g, "Cartago"));
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    (roma, cartago)
}

#[test]
fn size_is_three_times_the_units_the_last_collection_makes_available() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    // A69: 2,150 POB make 10 IL available (200 POB each): 30 units, 6,000 men.
    st.lands[roma as usize].pob_yield = 2150;
    assert_eq!(militia::size(&g, &st, roma), 30.0);
    assert_eq!(g.militia.kind.code, "IL");
    assert_eq!((g.militia.kind.morale, g.militia.kind.regular), (3, false));
    assert_eq!(g.militia.kind.men, 200.0);
    st.lands[roma as usize].pob_yield = 199;
    assert_eq!(militia::size(&g, &st, roma), 0.0);
    // Option militia_size = "base-kind": at the first kind's POB cost (100 for cavalry).
    let mut g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("militia_size = \"base-kind\""),
    );
    let per = g.kinds[roma as usize][0].cost[super::scenario::POB];
    st.lands[roma as usize].pob_yield = 2150;
    assert_eq!(militia::size(&g, &st, roma), (3 * (2150 / per)) as f64);
    g.kinds[roma as usize][0].cost[super::scenario::POB] = 100;
    assert_eq!(militia::size(&g, &st, roma), 63.0);
}

#[test]
fn the_call_and_each_month_cost_the_rows_by_culture() {
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let mut st = g.start.clone();
    st.lands[roma as usize].pob_yield = 2000;
    invade(&mut st, cartago, roma, 10.0);
    let (pv, idr, raised) = (
        st.nations[roma as usize].pv,
        st.nations[roma as usize].idr,
        st.ledger.men_raised,
    );
    militia::call(&g, &mut st, roma);
    // 30 IL = 6,000 POB = 300 steps of 20 at the invaded sub-row's -1 (civilized): -300 at once.
    assert_eq!(st.lands[roma as usize].militia, 30.0);
    assert_eq!(st.nations[roma as usize].idr - idr, -300);
    assert_eq!(st.ledger.men_raised - raised, 6000.0);
    assert_eq!(st.nations[roma as usize].pv, pv);
    // The month: the text's -2 PV and the row's -120 IDR (civilized).
    let invaded = super::military::invaded(&st);
    assert!(invaded[roma as usize]);
    militia::month_end(&g, &mut st, &invaded);
    assert_eq!(st.nations[roma as usize].pv - pv, -2);
    assert_eq!(st.nations[roma as usize].pv_by[super::pv::MILITIA], -2);
    assert_eq!(st.nations[roma as usize].idr - idr, -420);
    assert_eq!(st.counts.militia_months, 1);
    // The barbarian columns: -0.5 per 20 POB (-150 for 6,000), -50 a month.
    assert_eq!(
        militia::call_idr(&g, 30.0, Culture::Barbarian),
        -150 - 50,
        "barbarian call and month"
    );
    assert_eq!(militia::pob_idr(6010.0, [-1, -2, -2], Culture::Mixed), -300);
    // Options: the table's PV (-2 civilized, -1 barbarian); both POB rows (-1 and -4 per 20).
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("militia_pv = \"table\"\nmilitia_pob_idr = \"both-once\""),
    );
    assert_eq!(militia::month_row(&g).pv(Culture::Civilized), -2);
    assert_eq!(militia::month_row(&g).pv(Culture::Barbarian), -1);
    assert_eq!(
        militia::call_idr(&g, 30.0, Culture::Civilized),
        -120 - 300 - 1200
    );
    // Monthly POB rows: nothing at the call but the month's row.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("militia_pob_idr = \"invaded-monthly\""),
    );
    assert_eq!(militia::call_idr(&g, 30.0, Culture::Civilized), -120);
}

#[test]
fn the_militia_disbands_when_the_invasion_ends_and_is_barred_three_years_once_destroyed() {
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let mut st = g.start.clone();
    st.lands[roma as usize].pob_yield = 1000;
    invade(&mut st, cartago, roma, 10.0);
    militia::call(&g, &mut st, roma);
    assert_eq!(st.lands[roma as usize].militia, 15.0);
    // The invader goes home: the militia disbands at the month's end, its men home, after
    // paying for the month it stood (-2 PV); the next month costs nothing.
    st.nations[cartago as usize].mission = Mission::Return;
    let pv = st.nations[roma as usize].pv;
    let invaded = super::military::invaded(&st);
    militia::month_end(&g, &mut st, &invaded);
    assert_eq!(st.lands[roma as usize].militia, 0.0);
    assert_eq!(st.ledger.men_disbanded, 3000.0);
    assert_eq!(st.nations[roma as usize].pv, pv - 2);
    militia::month_end(&g, &mut st, &invaded);
    assert_eq!(st.nations[roma as usize].pv, pv - 2);
    // Destroyed: losses leave less than a unit; barred for 36 months, then callable again.
    invade(&mut st, cartago, roma, 10.0);
    militia::call(&g, &mut st, roma);
    let lost = st.ledger.men_lost;
    militia::lose(&g, &mut st, roma, 14.5, 7);
    assert_eq!(st.lands[roma as usize].militia, 0.0);
    assert_eq!(st.ledger.men_lost - lost, 3000.0);
    assert_eq!(st.lands[roma as usize].militia_barred_until, 43);
    assert_eq!(st.counts.militias_destroyed, 1);
    let plan = Scripted {
        militia_ratio: 0.0,
        militia_idr: -100_000,
        ..Scripted::defaults()
    };
    let mut dice = Dice::from_seed(1);
    assert!(!militia::wants(
        &g, &st, &plan, roma, cartago, 42, &mut dice
    ));
    assert!(militia::wants(&g, &st, &plan, roma, cartago, 43, &mut dice));
}

#[test]
fn the_policy_calls_it_against_a_strong_invader_unless_it_would_revolt() {
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let mut st = g.start.clone();
    st.lands[roma as usize].pob_yield = 1000;
    let mut dice = Dice::from_seed(1);
    let defenders = {
        let n = &st.nations[roma as usize];
        super::military::strength(&g, roma, &n.field)
            + super::military::strength(&g, roma, &n.garrison)
    };
    assert!(defenders > 0.0);
    let per_unit = super::military::strength(&g, cartago, &[1.0, 0.0, 0.0]);
    // An invader at 60% of the defenders' factors: called at ratio 0.5, not at 0.7.
    invade(&mut st, cartago, roma, 0.6 * defenders / per_unit);
    let plan = |ratio: f64, idr: i32| Scripted {
        militia_ratio: ratio,
        militia_idr: idr,
        ..Scripted::defaults()
    };
    let mut wants = |st: &State, ratio: f64, idr: i32| {
        militia::wants(&g, st, &plan(ratio, idr), roma, cartago, 5, &mut dice)
    };
    assert!(wants(&st, 0.5, 0));
    assert!(!wants(&st, 0.7, 0));
    assert!(!wants(&st, 10.5, -5000));
    // The call costs 120 + 150 IDR: not below the policy's floor.
    st.nations[roma as usize].idr = 400;
    assert!(wants(&st, 0.5, 130));
    assert!(!wants(&st, 0.5, 131));
    // Never twice, never a lost home's.
    militia::call(&g, &mut st, roma);
    assert!(!wants(&st, 0.0, -5000));
}

fn side(c: CountryId, units: f64, militia: f64) -> Side {
    let mut u = NO_UNITS;
    u[0] = units;
    Side {
        militia,
        ..Side::new(c, u, Lead::UNNAMED)
    }
}

#[test]
fn a_militia_alone_holds_the_capital_through_the_battle_code() {
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let mut st = g.start.clone();
    st.lands[roma as usize].pob_yield = 2000;
    invade(&mut st, cartago, roma, 20.0);
    let plans = vec![Scripted::defaults(); st.nations.len()];
    let mut dice = Dice::from_seed(3);
    // No garrison: the militia is called and fights (30 IL-ID).
    let sides = [side(cartago, 20.0, 0.0), side(roma, 0.0, 0.0)];
    let m = militia::join(
        &g,
        &mut st,
        &plans,
        roma,
        Some(walls(1, 0)),
        false,
        sides,
        5,
        &mut dice,
    );
    assert_eq!(m, 30.0);
    assert_eq!(st.lands[roma as usize].militia, 30.0);
    // Not beside a foreign node's defenders.
    assert_eq!(
        militia::join(&g, &mut st, &plans, cartago, None, false, sides, 5, &mut dice),
        0.0
    );
    // Alone it is no walkover: the battle code gives the invader less than certainty.
    let sides = [side(cartago, 20.0, 0.0), side(roma, 0.0, 30.0)];
    let p = battles::odds(&g, roma, Some(walls(1, 0)), false, sides, 400, &mut dice);
    assert!(p < 0.95, "20 IP against 30 IL-ID behind walls 1: {p}");
    // The assault reads the militia's losses back, within what it had.
    let mut some = false;
    for _ in 0..20 {
        let f = battles::assault(
            &g,
            walls(1, 1),
            false,
            super::weather::Weather::Clear,
            sides,
            &mut dice,
        );
        assert!((0.0..=30.0).contains(&f.militia_lost[1]));
        assert_eq!(f.militia_lost[0], 0.0);
        some |= f.militia_lost[1] > 0.0;
    }
    assert!(some, "the militia loses men in some assault");
}

#[test]
fn a_militia_that_would_drag_its_side_to_rout_is_neither_called_nor_sent_in() {
    // Side morale is the average over units (§3.2.5): 30 IL-ID beside Roma's 10 IP in the field
    // make the invader's 20 IP far likelier to win (the battle code, about 0.29 -> 0.95).
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let mut st = g.start.clone();
    st.lands[roma as usize].pob_yield = 2000;
    invade(&mut st, cartago, roma, 20.0);
    let plans = vec![
        Scripted {
            odds_trials: 64,
            ..Scripted::defaults()
        };
        st.nations.len()
    ];
    let mut dice = Dice::from_seed(5);
    let sides = [side(cartago, 20.0, 0.0), side(roma, 10.0, 0.0)];
    assert!(!militia::helps(
        &g, roma, None, false, sides, 30.0, 64, &mut dice
    ));
    let m = militia::join(&g, &mut st, &plans, roma, None, false, sides, 5, &mut dice);
    assert_eq!((m, st.lands[roma as usize].militia), (0.0, 0.0));
    // Standing (called for an earlier fight), it still stays out of this one.
    militia::call(&g, &mut st, roma);
    let m = militia::join(&g, &mut st, &plans, roma, None, false, sides, 5, &mut dice);
    assert_eq!(m, 0.0);
    // A lone IP with walls: the militia helps it.
    let sides = [side(cartago, 20.0, 0.0), side(roma, 1.0, 0.0)];
    assert!(militia::helps(
        &g,
        roma,
        Some(walls(2, 0)),
        false,
        sides,
        30.0,
        64,
        &mut dice
    ));
}

#[test]
fn militia_is_called_in_whole_games_and_the_invariants_hold() {
    for (policy, games) in [
        (Policy::Scripted(Scripted::defaults()), 150u64),
        (Policy::Random, 300),
    ] {
        let g = game_with(policy, &options());
        let (mut calls, mut months, mut lost) = (0, 0, 0.0);
        play_checked(
            &g,
            23,
            games,
            &format!("militia {policy:?}"),
            |_, play, _| {
                calls += play.st.counts.militia_calls;
                months += play.st.counts.militia_months;
                lost += play.st.counts.militia_men_lost;
            },
        );
        assert!(
            calls > 0 && months > 0 && lost > 0.0,
            "{policy:?}: {calls} {months} {lost}"
        );
    }
}

#[test]
fn a_conquered_countrys_militia_comes_a_third_at_a_time_and_fights_for_its_holder() {
    let g = scripted_game();
    let (roma, cartago) = civilized_pair(&g);
    let etruria = country(&g, "Etruria");
    let mut st = g.start.clone();
    st.lands[etruria as usize].owner = roma;
    st.lands[etruria as usize].pob_yield = 2000;
    // L5273: none before a collection under Roma, then 10, 20 and all 30 (3 x 2,000 / 200).
    for (collections, units) in [(0u8, 0.0), (1, 10.0), (2, 20.0), (3, 30.0), (9, 30.0)] {
        st.lands[etruria as usize].collections = collections;
        assert_eq!(militia::size(&g, &st, etruria), units, "{collections}");
    }
    // Option militia_lands = "home-only": the whole collection at home, none abroad.
    let home_only = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("militia_lands = \"home-only\""),
    );
    st.nations[roma as usize].pob_collected = 2600;
    assert_eq!(militia::size(&home_only, &st, etruria), 0.0);
    assert_eq!(militia::size(&home_only, &st, roma), 39.0);
    // Cartago besieges Etruria, which Roma holds with no occupation troops: Roma calls its 30.
    invade(&mut st, cartago, etruria, 20.0);
    let plans = vec![Scripted::defaults(); st.nations.len()];
    let mut dice = Dice::from_seed(3);
    let (pv, idr) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    let province_idr = super::revolt::index(&st, etruria);
    let sides = [side(cartago, 20.0, 0.0), side(roma, 0.0, 0.0)];
    let m = militia::join(
        &g,
        &mut st,
        &plans,
        etruria,
        Some(walls(1, 0)),
        false,
        sides,
        5,
        &mut dice,
    );
    assert_eq!((m, st.lands[etruria as usize].militia), (30.0, 30.0));
    assert_eq!(st.lands[roma as usize].militia, 0.0);
    assert_eq!(st.counts.militia_conquered_calls, 1);
    // Its holder pays the PV, the province's own index the IDR (`revolt.rs`, option
    // province_index): -300 at the call, -2 PV and -120 IDR for the month.
    let invaded = super::military::invaded(&st);
    militia::month_end(&g, &mut st, &invaded);
    assert_eq!(st.nations[roma as usize].pv - pv, -2);
    assert_eq!(super::revolt::index(&st, etruria) - province_idr, -420);
    assert_eq!(st.nations[roma as usize].idr, idr);
    // It dies with the country when Cartago takes it.
    let lost = st.ledger.men_lost;
    super::military::conquer(&g, &mut st, cartago, etruria, &plans[0], 5, &mut NoLog);
    assert_eq!(st.lands[etruria as usize].militia, 0.0);
    assert_eq!(
        st.lands[etruria as usize].militia_barred_until,
        5 + militia::BARRED_MONTHS
    );
    assert!(st.ledger.men_lost - lost >= 6000.0);
}
