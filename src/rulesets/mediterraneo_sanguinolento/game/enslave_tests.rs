//! Tests of enslaving POB (digest §4.1 L833, §4.19 rows L4370-L4372, A68; `enslave.rs`): one
//! step's ESC, PV and IDR by hand on a home land and on a province under each option
//! `enslave_idr`, the permanent POB loss at the next collection under A68's readings, the
//! policy's rebellion floor and use, and the invariants over whole games.

use super::economy;
use super::enslave::{self, PobLoss, Rules};
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::pv;
use super::revolt;
use super::scenario::{CountryId, DEN, ESC, MAD, MET, PIE, POB};
use super::state::State;
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// December of the first year: a collection with no tax level set.
const DECEMBER: u32 = 12;
/// April of the second year.
const APRIL: u32 = 16;

fn game(options: &str) -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with(options),
    )
}

/// Plans where Roma enslaves `home` and `provinces` shares with slaves going on its works, above
/// the floor `tax_idr`, with normal taxes and no gifts (so only enslaving moves its indices).
fn plans(st: &State, roma: CountryId, home: f64, provinces: f64, tax_idr: i32) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); st.nations.len()];
    plans[roma as usize] = Scripted {
        enslave_home: home,
        enslave_provinces: provinces,
        works_share: 1.0,
        slaves_on_works: 1.0,
        slaves_freed: 0.0,
        taxes: 0,
        tax_idr,
        gifts: 0.0,
        province_gift_idr: i32::MIN,
        ..Scripted::defaults()
    };
    plans
}

/// The start with Roma rich enough to start works that take slaves (a use for them).
fn rich(g: &Game, roma: CountryId) -> State {
    let mut st = g.start.clone();
    for r in [DEN, PIE, MAD, MET] {
        st.nations[roma as usize].stock[r] += 20_000;
    }
    st
}

/// Roma (civilized) holds Etruria, conquered in month 10, at index 1,000.
fn with_province(g: &Game) -> (State, CountryId, CountryId) {
    super::burdens_tests::province(g, 1000)
}

#[test]
fn the_rows_and_the_options() {
    let g = scripted_game();
    let default = Rules {
        table_idr: true,
        text_idr: true,
        pob_loss: PobLoss::Half,
    };
    assert_eq!(g.enslave, default);
    let table = game("enslave_idr = \"table\"\nenslave_pob_loss = \"literal\"").enslave;
    assert_eq!((table.table_idr, table.text_idr), (true, false));
    assert_eq!(table.pob_loss, PobLoss::Literal);
    let text = game("enslave_idr = \"text\"\nenslave_pob_loss = \"none\"").enslave;
    assert_eq!((text.table_idr, text.text_idr), (false, true));
    assert_eq!(text.pob_loss, PobLoss::None);
    // The §4.19 rows by culture (B, B/C, C columns): own POB, others'.
    assert_eq!(pv::ENSLAVING_OWN.pv(Culture::Civilized), -3);
    assert_eq!(pv::ENSLAVING_OWN.idr(Culture::Barbarian), -100);
    assert_eq!(pv::ENSLAVING_OTHERS.pv(Culture::Barbarian), 0);
    assert_eq!(pv::ENSLAVING_OTHERS.idr(Culture::Mixed), -75);
    // Two steps of a B/C nation's own POB: 2 x (-2 PV, -150 IDR) and 2 x 5 x -50 IDR.
    assert_eq!(
        enslave::cost(&default, enslave::OWN_POB, Culture::Mixed, 2),
        (-4, -800)
    );
    assert_eq!(
        enslave::cost(&table, enslave::OTHERS_POB, Culture::Mixed, 2),
        (-2, -150)
    );
    assert_eq!(
        enslave::cost(&text, enslave::OTHERS_POB, Culture::Mixed, 2),
        (-2, -500)
    );
    // Whole steps of a share of 5, and 5% of the POB each.
    assert_eq!(enslave::wanted_steps(0.2), 1);
    assert_eq!(enslave::wanted_steps(0.99), 4);
    assert_eq!(enslave::wanted_steps(1.0), 5);
    assert_eq!(enslave::slaves(2010, 3), 301);
    // A68: 100 of a land's 2,000 POB (5%) cost 2.5% of it under "half", 50% under "literal";
    // "literal" never takes more than all of it.
    assert_eq!(enslave::pob_loss_bp(&default, 2000, 100), 250);
    assert_eq!(enslave::pob_loss_bp(&table, 2000, 100), 5000);
    assert_eq!(enslave::pob_loss_bp(&table, 2000, 300), 10_000);
    assert_eq!(enslave::pob_loss_bp(&text, 2000, 100), 0);
}

#[test]
fn a_step_on_the_home_land_by_hand_under_each_index_reading() {
    for (text, idr) in [
        ("", -175 - 250),
        ("enslave_idr = \"table\"", -175),
        ("enslave_idr = \"text\"", -250),
    ] {
        let g = game(text);
        let roma = country(&g, "Roma");
        assert_eq!(g.culture[roma as usize], Culture::Civilized);
        let mut st = rich(&g, roma);
        let mut without = st.clone();
        let on = plans(&st, roma, 0.2, 0.0, 0);
        assert!(enslave::slaves_lacking(&g, &st, roma, &on[roma as usize]) > 0);
        economy::collection(&g, &mut st, &on, DECEMBER);
        economy::collection(&g, &mut without, &plans(&st, roma, 0.0, 0.0, 0), DECEMBER);
        let home = st.lands[roma as usize].pob_yield;
        assert_eq!(home, st.nations[roma as usize].pob_collected, "{text}");
        let taken = home * 5 / 100;
        assert!(taken > 0);
        let (n, m) = (&st.nations[roma as usize], &without.nations[roma as usize]);
        assert_eq!(n.stock[ESC] - m.stock[ESC], taken, "{text}");
        assert_eq!(m.stock[POB] - n.stock[POB], taken, "{text}");
        assert_eq!(n.pv - m.pv, -3, "{text}");
        assert_eq!(n.pv_by[pv::SLAVES], -3, "{text}");
        assert_eq!(n.idr - m.idr, idr, "{text}");
        assert_eq!(st.counts.pob_enslaved, taken as f64);
        // A slave use that pays is needed: without works for them, nothing is taken.
        let mut idle = rich(&g, roma);
        let mut no_use = on.clone();
        no_use[roma as usize].slaves_on_works = 0.0;
        economy::collection(&g, &mut idle, &no_use, DECEMBER);
        assert_eq!(idle.counts.pob_enslaved, 0.0);
        // Nor when it frees them all (the freeing comes before the works in the turn).
        let mut freed = rich(&g, roma);
        let mut frees_all = on.clone();
        frees_all[roma as usize].slaves_freed = 1.0;
        economy::collection(&g, &mut freed, &frees_all, DECEMBER);
        assert_eq!(freed.counts.pob_enslaved, 0.0);
    }
}

#[test]
fn a_step_on_a_province_by_hand_under_each_index_reading() {
    for (text, idr) in [
        ("", -100 - 250),
        ("enslave_idr = \"table\"", -100),
        ("enslave_idr = \"text\"", -250),
    ] {
        let g = game(text);
        let (mut st, roma, etr) = with_province(&g);
        let mut without = st.clone();
        let on = plans(&st, roma, 0.0, 0.2, 0);
        economy::collection(&g, &mut st, &on, DECEMBER);
        economy::collection(&g, &mut without, &plans(&st, roma, 0.0, 0.0, 0), DECEMBER);
        // Its first collection under Roma gives 10% of its POB; a step takes 5% of that.
        let given = st.lands[etr as usize].pob_yield * 10 / 100;
        let taken = given * 5 / 100;
        assert!(taken > 0);
        let (n, m) = (&st.nations[roma as usize], &without.nations[roma as usize]);
        assert_eq!(n.stock[ESC] - m.stock[ESC], taken, "{text}");
        assert_eq!(n.pv - m.pv, -2, "{text}");
        assert_eq!(n.pv_by[pv::SLAVES], -2, "{text}");
        assert_eq!(revolt::index(&st, etr), 1000 + idr, "{text}");
        assert_eq!(n.idr, m.idr, "{text}: the home index is not Etruria's");
    }
}

#[test]
fn the_permanent_pob_loss_lowers_the_next_collection_under_a68s_readings() {
    for text in [
        "",
        "enslave_pob_loss = \"literal\"",
        "enslave_pob_loss = \"none\"",
    ] {
        let g = game(text);
        let roma = country(&g, "Roma");
        let mut st = rich(&g, roma);
        let mut without = st.clone();
        let (on, idle) = (plans(&st, roma, 0.2, 0.0, 0), plans(&st, roma, 0.0, 0.0, 0));
        economy::collection(&g, &mut st, &on, DECEMBER);
        economy::collection(&g, &mut without, &idle, DECEMBER);
        let land_pob = st.lands[roma as usize].pob_yield;
        let taken = land_pob * 5 / 100;
        // Half: 1% per 2% enslaved (5% -> 250 bp); literal: 1% per 2 POB; none.
        let bp = match g.enslave.pob_loss {
            PobLoss::Half => taken * 10_000 / land_pob / 2,
            PobLoss::Literal => (taken * 50).min(10_000),
            PobLoss::None => 0,
        };
        assert_eq!(st.lands[roma as usize].pob_lost_bp as i64, bp, "{text}");
        // The next collection, the POB on hand and its growth made equal in both games.
        for s in [&mut st, &mut without] {
            s.nations[roma as usize].stock[POB] = 0;
            s.nations[roma as usize].pob_growth = 0;
        }
        economy::collection(&g, &mut st, &idle, APRIL);
        economy::collection(&g, &mut without, &idle, APRIL);
        let full = without.nations[roma as usize].pob_collected;
        assert_eq!(
            st.nations[roma as usize].pob_collected,
            full * (10_000 - bp) / 10_000,
            "{text}"
        );
        assert!(bp > 0 || g.enslave.pob_loss == PobLoss::None, "{text}");
    }
}

#[test]
fn the_policy_never_takes_a_step_below_its_floor() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    // Every step -425 on the node's index, which moves its cities too (city_index_rows =
    // "every-zone"): the floor is kept by the lowest zone, a city at 800 (the rural zone is at
    // 1,000). A floor of 375 allows one step of the five wanted, 376 none; -1,000 four.
    assert_eq!(super::city_revolt::lowest_moved(&g, &g.start, roma), 800);
    for (floor, steps) in [(375, 1), (376, 0), (-1000, 4), (i32::MIN, 5)] {
        let mut st = rich(&g, roma);
        let p = plans(&st, roma, 1.0, 0.0, floor);
        economy::collection(&g, &mut st, &p, DECEMBER);
        let taken = st.counts.pob_enslaved as i64;
        let home = st.lands[roma as usize].pob_yield;
        assert_eq!(taken, home * 5 * steps / 100, "floor {floor}");
        // December's year-without-fighting row (+100) comes after; the idle game has it too.
        let mut idle = rich(&g, roma);
        economy::collection(&g, &mut idle, &plans(&st, roma, 0.0, 0.0, floor), DECEMBER);
        assert_eq!(g.start.nations[roma as usize].idr, 1000);
        assert_eq!(
            st.nations[roma as usize].idr,
            idle.nations[roma as usize].idr - 425 * steps as i32
        );
        if floor > i32::MIN {
            assert!(st.nations[roma as usize].idr >= floor);
        }
    }
}

#[test]
fn the_policy_takes_no_more_steps_than_its_works_lack() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let st = rich(&g, roma);
    let plan = plans(&st, roma, 1.0, 0.0, i32::MIN);
    // The works Roma would start, each taking its most lots, by hand.
    let (chosen, n) = super::works::planned(&g, &st, roma, &plan[roma as usize]);
    let lots: i64 = chosen[..n]
        .iter()
        .filter(|&&w| w != super::works::Work::Colony)
        .map(|&w| super::slaves::most_lots(&g, w.price().months))
        .sum();
    assert!(lots > 0);
    let wanted = lots * super::slaves::LOT;
    assert_eq!(
        enslave::slaves_lacking(&g, &st, roma, &plan[roma as usize]),
        wanted
    );
    // Keeping half of them for the freeing doubles the stock it wants.
    let mut half = plan.clone();
    half[roma as usize].slaves_freed = 0.5;
    assert_eq!(
        enslave::slaves_lacking(&g, &st, roma, &half[roma as usize]),
        2 * wanted
    );
    // One slave short: one step of the five its share asks for; none short: none.
    for (short, steps) in [(1, 1), (0, 0)] {
        let mut st = rich(&g, roma);
        st.nations[roma as usize].stock[ESC] = wanted - short;
        economy::collection(&g, &mut st, &plan, DECEMBER);
        let home = st.lands[roma as usize].pob_yield;
        assert_eq!(
            st.counts.pob_enslaved as i64,
            home * 5 * steps / 100,
            "short {short}"
        );
    }
    // The fewest steps that bring what it lacks, or the most allowed.
    assert_eq!(enslave::steps_for(2000, 100, 5), 1);
    assert_eq!(enslave::steps_for(2000, 101, 5), 2);
    assert_eq!(enslave::steps_for(2000, 10_000, 5), 5);
    assert_eq!(enslave::steps_for(2000, 10_000, 3), 3);
}

#[test]
fn whole_games_keep_the_invariants_while_enslaving() {
    let on = Scripted {
        enslave_home: 1.0,
        enslave_provinces: 1.0,
        slaves_on_works: 1.0,
        slaves_freed: 0.0,
        ..Scripted::defaults()
    };
    for (text, policy, games) in [
        ("", Policy::Random, 30u64),
        ("enslave_pob_loss = \"literal\"", Policy::Random, 15),
        ("", Policy::Scripted(on), 15),
    ] {
        let g = game_with(policy, &options_with(text));
        let mut enslaved = 0.0;
        play_checked(&g, 53, games, "enslave", |_, play, _| {
            enslaved += play.st.counts.pob_enslaved;
            for l in &play.st.lands {
                assert!(l.pob_lost_bp as i64 <= enslave::WHOLE_BP);
            }
        });
        assert!(enslaved > 0.0, "{text}: POB enslaved in {games} games");
    }
}

#[test]
fn bad_enslaving_options_are_refused() {
    super::game_tests::assert_bad_options(&[
        ("enslave_idr = \"both\"", "enslave_idr", "table-and-text"),
        ("enslave_pob_loss = \"all\"", "enslave_pob_loss", "half"),
    ]);
}
