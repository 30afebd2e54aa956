//! Tests of the rebellion indices per land and the revolts (digest §4.16, L5617-L5633, §4.19;
//! `revolt.rs`): a province's index by hand, a revolt's rows won and lost, the options'
//! readings, the policy's gifts, and the invariants over whole games.

use super::city_revolt;
use super::economy;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::revolt;
use super::scenario::{CountryId, DEN};
use super::state::{State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Roma (civilized) holds Etruria, conquered in month 10 with its index at `idr` before.
fn province(g: &Game, idr: i32) -> (State, CountryId, CountryId) {
    let roma = country(g, "Roma");
    let etr = country(g, "Etruria");
    let mut st = g.start.clone();
    st.nations[etr as usize].idr = idr;
    st.nations[roma as usize].field = [30.0, 0.0, 0.0];
    military::conquer(g, &mut st, roma, etr, &Scripted::defaults(), 10, &mut NoLog);
    st.lands[etr as usize].sacked_until = 0; // whatever the conquest's sack did, it yields
    (st, roma, etr)
}

#[test]
fn a_province_carries_its_index_capped_at_normal_and_suffers_its_rows() {
    let g = scripted_game();
    assert_eq!(g.culture[country(&g, "Roma") as usize], Culture::Civilized);
    // L5631: below-normal stays, above-normal reverts to the normal 1,000.
    let (st, roma, etr) = province(&g, 1300);
    assert_eq!(st.lands[etr as usize].owner, roma);
    assert_eq!(revolt::index(&st, etr), 1000);
    let (mut st, roma, etr) = province(&g, 700);
    assert_eq!(revolt::index(&st, etr), 700);
    let (home_idr, pv0) = (st.nations[roma as usize].idr, st.nations[roma as usize].pv);
    // Invaded three months: civilized -250, then -100 and -100; the holder loses 3 + 1 + 1 PV.
    revolt::suffered(&g, &mut st, etr, pv::INVASION, pv::FIRST_MONTH_OF_INVASION);
    for _ in 0..2 {
        revolt::suffered(
            &g,
            &mut st,
            etr,
            pv::INVASION,
            pv::FOLLOWING_MONTH_OF_INVASION,
        );
    }
    assert_eq!(revolt::index(&st, etr), 700 - 250 - 100 - 100);
    assert_eq!(
        st.nations[roma as usize].idr, home_idr,
        "the home index untouched"
    );
    assert_eq!(st.nations[roma as usize].pv - pv0, -5);
    // Option province_index = "holder": the same rows move the holder's home index.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("province_index = \"holder\""),
    );
    let (mut st, roma, etr) = province(&g, 700);
    let home_idr = st.nations[roma as usize].idr;
    revolt::suffered(&g, &mut st, etr, pv::INVASION, pv::FIRST_MONTH_OF_INVASION);
    assert_eq!(revolt::index(&st, etr), 700);
    assert_eq!(st.nations[roma as usize].idr, home_idr - 250);
}

#[test]
fn a_suppressed_province_revolt_scores_its_rows_and_a_year_at_three_quarters() {
    let g = scripted_game();
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].idr = 0;
    city_revolt::rural_set(&mut st, etr); // the rural zone alone
    st.lands[etr as usize].pob_yield = 450; // A37: 2 rebel units
    assert_eq!(revolt::rebels(&g, &st, etr), 2.0);
    st.lands[etr as usize].garrison = [40.0, 0.0, 0.0];
    let (home_idr, pv0) = (st.nations[roma as usize].idr, st.nations[roma as usize].pv);
    revolt::check(&g, &mut st, 12, &mut Dice::from_seed(5), &mut NoLog);
    assert_eq!(st.counts.province_revolts, 1);
    assert_eq!(st.counts.revolts_suppressed, 1);
    assert_eq!(st.counts.revolts, 0);
    let n = &st.nations[roma as usize];
    // Rebellion in a province (civilized -3 PV, -120) and suppressing it (0 PV, -250).
    assert_eq!(n.pv - pv0, -3);
    assert_eq!(n.pv_by[pv::REVOLT], -3);
    assert_eq!(n.idr - home_idr, -120 - 250);
    assert_eq!(st.lands[etr as usize].owner, roma);
    assert_eq!(revolt::index(&st, etr), revolt::AFTER_REVOLT);
    assert_eq!(st.lands[etr as usize].revolt_collections, 3);
    // The next collection yields 75% of the POB it would have.
    let plans = vec![Scripted::referee(); st.nations.len()];
    let mut calm = st.clone();
    calm.lands[etr as usize].revolt_collections = 0;
    economy::collection(&g, &mut st, &plans, 12);
    economy::collection(&g, &mut calm, &plans, 12);
    let (after, before) = (
        st.lands[etr as usize].pob_yield,
        calm.lands[etr as usize].pob_yield,
    );
    assert!(before > 0);
    assert_eq!(after, before * 3 / 4);
    assert_eq!(st.lands[etr as usize].revolt_collections, 2);
}

#[test]
fn rebels_beating_the_occupiers_free_the_province_or_leave_it_disordered() {
    let g = scripted_game();
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].idr = -40;
    city_revolt::rural_set(&mut st, etr); // the rural zone alone
    st.lands[etr as usize].pob_yield = 2000;
    st.lands[etr as usize].garrison = NO_UNITS; // nobody to fight the rebels
    let cities = g.scenario.countries[etr as usize].cities.len() as i32;
    assert!(cities > 0);
    let (home_idr, pv0) = (st.nations[roma as usize].idr, st.nations[roma as usize].pv);
    revolt::check(&g, &mut st, 12, &mut Dice::from_seed(5), &mut NoLog);
    assert_eq!(st.lands[etr as usize].owner, etr, "freed");
    // Civilized: -120 (the revolt), -140 (the territory), -140 a city.
    let idr = home_idr - 120 - 140 - 140 * cities;
    assert_eq!(st.nations[roma as usize].idr, idr);
    // Indices are counted once, before the collection: the rows a revolt scores do not make the
    // holder's home revolt in the same count even when they take it to 0.
    assert!(idr > 0 || st.counts.revolts == 0);
    assert_eq!(st.counts.provinces_freed, 1);
    assert_eq!(st.counts.revolts_suppressed, 0);
    // Rebellion in a province -3, losing territory -8, each city -3 (civilized).
    assert_eq!(st.nations[roma as usize].pv - pv0, -3 - 8 - 3 * cities);
    assert_eq!(revolt::index(&st, etr), super::START_IDR);
    // Option revolt_won = "held": Roma keeps it, index 250 and a year at 75% POB, no
    // suppressing row.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("revolt_won = \"held\""),
    );
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].idr = 0;
    city_revolt::rural_set(&mut st, etr); // the rural zone alone
    st.lands[etr as usize].pob_yield = 2000;
    st.lands[etr as usize].garrison = NO_UNITS;
    let (home_idr, pv0) = (st.nations[roma as usize].idr, st.nations[roma as usize].pv);
    revolt::check(&g, &mut st, 12, &mut Dice::from_seed(5), &mut NoLog);
    assert_eq!(st.lands[etr as usize].owner, roma);
    assert_eq!(revolt::index(&st, etr), 250);
    assert_eq!(st.lands[etr as usize].revolt_collections, 3);
    assert_eq!(st.nations[roma as usize].pv - pv0, -3);
    assert_eq!(st.nations[roma as usize].idr - home_idr, -120);
}

#[test]
fn a_home_revolt_fights_the_garrison_and_resets_the_index() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].idr = -5;
    city_revolt::rural_set(&mut st, roma); // the rural zone alone
    st.lands[roma as usize].pob_yield = 1000; // 5 IL-ID rebels
    st.nations[roma as usize].garrison = [60.0, 0.0, 0.0];
    let men0 = st.ledger.men_lost;
    revolt::check(&g, &mut st, 4, &mut Dice::from_seed(9), &mut NoLog);
    assert_eq!(st.counts.revolts, 1);
    assert_eq!(st.counts.revolts_suppressed, 1);
    let n = &st.nations[roma as usize];
    // Rebellion in the main country -6 PV, suppressing it 0; the index stays at 250.
    assert_eq!(n.pv_by[pv::REVOLT], -6);
    assert_eq!(n.idr, 250);
    assert_eq!(st.lands[roma as usize].revolt_collections, 3);
    // The garrison's losses are men lost.
    let lost_units = 60.0 - n.garrison[0];
    let men = lost_units * g.men_per_unit(roma)[0];
    assert!((st.ledger.men_lost - men0 - men).abs() < 1e-6);
    assert!((st.counts.revolt_men_lost - men).abs() < 1e-6);
    // Above 0: no revolt.
    let mut st = g.start.clone();
    st.nations[roma as usize].idr = 1;
    city_revolt::rural_set(&mut st, roma); // the rural zone alone
    revolt::check(&g, &mut st, 4, &mut Dice::from_seed(9), &mut NoLog);
    assert_eq!(st.counts.revolts, 0);
}

#[test]
fn rebels_are_a37s_zone_pob_or_the_militia_by_option() {
    let g = scripted_game();
    let (mut st, _, etr) = province(&g, 700);
    st.lands[etr as usize].pob_yield = 1399;
    assert_eq!(revolt::rebels(&g, &st, etr), 6.0);
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("revolt_rebels = \"militia\""),
    );
    st.lands[etr as usize].collections = 3;
    assert_eq!(revolt::rebels(&g, &st, etr), 18.0, "3 x floor(1399 / 200)");
    st.lands[etr as usize].collections = 0;
    assert_eq!(
        revolt::rebels(&g, &st, etr),
        0.0,
        "none before its first collection"
    );
}

#[test]
fn the_policys_gifts_keep_a_province_from_revolting() {
    let g = scripted_game();
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].idr = 250;
    city_revolt::rural_set(&mut st, etr); // the rural zone alone
    st.lands[etr as usize].pob_yield = 2000;
    st.lands[etr as usize].garrison = NO_UNITS;
    st.nations[roma as usize].stock[DEN] = 100_000;
    st.nations[roma as usize].gifts_this_period = 0;
    let mut plans = vec![Scripted::referee(); st.nations.len()];
    let mut ungiven = st.clone();
    revolt::gifts(&g, &mut ungiven, &plans);
    assert_eq!(ungiven.lands[etr as usize].idr, 250, "referee: no gifts");
    plans[roma as usize] = Scripted {
        province_gift_idr: 400,
        ..Scripted::defaults()
    };
    let (den0, pv0) = (
        st.nations[roma as usize].stock[DEN],
        st.nations[roma as usize].pv,
    );
    revolt::gifts(&g, &mut st, &plans);
    // 250 -> 310 -> 370 -> 430: three lots of 600 DEN, +60 IDR and 2 PV each (civilized).
    assert_eq!(st.lands[etr as usize].idr, 430);
    assert_eq!(den0 - st.nations[roma as usize].stock[DEN], 1800);
    assert_eq!(st.nations[roma as usize].pv - pv0, 6);
    // Two months of invasion (-250 - 100) would have freed the ungiven province (250 - 350);
    // the given one holds (430 - 350).
    for s in [&mut st, &mut ungiven] {
        revolt::suffered(&g, s, etr, pv::INVASION, pv::FIRST_MONTH_OF_INVASION);
        revolt::suffered(&g, s, etr, pv::INVASION, pv::FOLLOWING_MONTH_OF_INVASION);
        revolt::check(&g, s, 12, &mut Dice::from_seed(1), &mut NoLog);
    }
    assert_eq!(revolt::index(&st, etr), 80);
    assert_eq!(st.counts.province_revolts, 0);
    assert_eq!(st.lands[etr as usize].owner, roma);
    assert_eq!(ungiven.counts.province_revolts, 1);
    assert_eq!(ungiven.lands[etr as usize].owner, etr);
    // The gift cap (2,000 DEN a period) bounds them: a fourth lot would pass it.
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].idr = -1000;
    city_revolt::rural_set(&mut st, etr); // the rural zone alone
    st.nations[roma as usize].stock[DEN] = 100_000;
    revolt::gifts(&g, &mut st, &plans);
    assert_eq!(st.counts.province_gifts, 3);
    assert_eq!(st.nations[roma as usize].gifts_this_period, 1800);
}

#[test]
fn whole_games_keep_the_invariants_and_fight_revolts() {
    for (text, policy, games) in [
        ("", Policy::Random, 40u64),
        ("", Policy::Scripted(Scripted::defaults()), 20),
        (
            "revolt_won = \"held\"\nprovince_index = \"holder\"\nrevolt_rebels = \"militia\"",
            Policy::Random,
            30,
        ),
    ] {
        let g = game_with(policy, &options_with(text));
        let (mut revolts, mut suppressed) = (0, 0);
        play_checked(&g, 31, games, "revolts", |_, play, _| {
            let c = &play.st.counts;
            revolts += c.province_revolts + c.revolts;
            suppressed += c.revolts_suppressed;
            let cities = c.city_revolts + c.capital_revolts;
            assert!(c.revolts_suppressed <= c.province_revolts + c.revolts + cities);
        });
        if matches!(g.policies[0], Policy::Random) {
            assert!(revolts > 0, "{text}: random players provoke revolts");
            assert!(suppressed > 0, "{text}: and some are suppressed");
        }
    }
}

#[test]
fn bad_revolt_options_are_refused() {
    super::game_tests::assert_bad_options(&[
        ("revolt_won = \"sold\"", "revolt_won", "freed"),
        ("province_index = \"x\"", "province_index", "suffered"),
        ("revolt_rebels = \"all\"", "revolt_rebels", "zone-pob"),
    ]);
}
