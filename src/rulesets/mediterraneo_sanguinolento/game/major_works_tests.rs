//! Tests of major constructions (digest §4.7, L3790, §4.19 row L4324, `major_works.rs`): the
//! referee's ruling by options, the price paid once (stone before wood), the PV and rebellion
//! index of material cost / 100 and / 150 when finished, one at a time, paused by a siege, lost
//! with the home, who may build, and the black market's stone; and the works' own materials
//! bought at the black market (`works::materials_wanted`).

use super::game_tests::{country, game_with, options_with, scripted_game};
use super::major_works;
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CountryId, DEN, MAD, MET, PIE};
use super::state::State;
use super::trade;
use super::works;
use super::Game;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn offered(materials: i64, den: i64, months: u8) -> Game {
    let o = options_with(&format!(
        "major_construction_materials = {materials}\nmajor_construction_den = {den}\nmajor_construction_months = {months}"
    ));
    game_with(Policy::Scripted(Scripted::defaults()), &o)
}

fn plans_with(g: &Game, c: CountryId, plan: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = plan;
    plans
}

/// Builds major constructions and nothing else.
fn builder() -> Scripted {
    Scripted {
        major_works_share: 1.0,
        works_share: 0.0,
        roads_share: 0.0,
        ..Scripted::defaults()
    }
}

fn months(g: &Game, st: &mut State, n: u32, besieged: bool) {
    let b = [besieged; 256];
    for _ in 0..n {
        major_works::month(g, st, &b, &mut NoLog);
    }
}

#[test]
fn by_default_the_referee_offers_none() {
    let g = scripted_game();
    assert_eq!(g.major_works.materials, 0);
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].stock[DEN] = 1_000_000;
    st.nations[roma as usize].stock[PIE] = 1_000_000;
    assert!(!major_works::may_build(&g, &st, roma));
    major_works::constructions(&g, &mut st, &plans_with(&g, roma, builder()), &mut NoLog);
    assert_eq!(st.nations[roma as usize].major_work_left, 0);
    assert_eq!(major_works::stone_wanted(&g, &st, roma, &builder()), 0);
}

#[test]
fn one_of_5000_materials_scores_50_pv_and_33_rebellion_index_when_finished() {
    // L4324: PV = 5,000 / 100 = 50; IDR = 5,000 / 150 = 33.3 -> 33.
    let g = offered(5000, 2000, 3);
    assert_eq!(g.major_works.score(), (50, 33));
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let mut st = g.start.clone();
    let s = &mut st.nations[roma as usize].stock;
    (s[DEN], s[PIE], s[MAD]) = (100_000, 3000, 5000);
    let (pv0, works0, idr0) = {
        let n = &st.nations[roma as usize];
        (n.pv, n.pv_by[pv::WORKS], n.idr)
    };
    major_works::constructions(&g, &mut st, &plans_with(&g, roma, builder()), &mut NoLog);
    // Paid once at the start, stone before wood: 3,000 PIE, then 2,000 MAD.
    let n = &st.nations[roma as usize];
    assert_eq!(
        (n.stock[DEN], n.stock[PIE], n.stock[MAD]),
        (98_000, 0, 3000)
    );
    assert_eq!(n.major_work_left, 3);
    // One at a time (L681): nothing more starts while it is under way.
    st.nations[roma as usize].stock[PIE] = 10_000;
    major_works::constructions(&g, &mut st, &plans_with(&g, roma, builder()), &mut NoLog);
    assert_eq!(st.nations[roma as usize].stock[PIE], 10_000);
    // A besieged capital builds nothing (L3676).
    months(&g, &mut st, 5, true);
    assert_eq!(st.nations[roma as usize].major_work_left, 3);
    months(&g, &mut st, 2, false);
    assert_eq!(st.nations[roma as usize].pv, pv0);
    months(&g, &mut st, 1, false);
    let n = &st.nations[roma as usize];
    assert_eq!(n.major_work_left, 0);
    assert_eq!((n.pv - pv0, n.pv_by[pv::WORKS] - works0), (50, 50));
    assert_eq!(n.idr - idr0, 33);
    assert_eq!(st.counts.major_works_started, 1);
    assert_eq!(st.counts.major_works_built, 1);
}

#[test]
fn one_under_way_is_lost_with_the_home() {
    let g = offered(1500, 1500, 12);
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    let s = &mut st.nations[roma as usize].stock;
    (s[DEN], s[PIE]) = (100_000, 1500);
    major_works::constructions(&g, &mut st, &plans_with(&g, roma, builder()), &mut NoLog);
    assert_eq!(st.nations[roma as usize].major_work_left, 12);
    let pv0 = st.nations[roma as usize].pv;
    st.lands[roma as usize].owner = country(&g, "Etruria");
    months(&g, &mut st, 12, false);
    assert_eq!(st.nations[roma as usize].major_work_left, 0);
    assert_eq!(st.nations[roma as usize].pv, pv0);
    assert_eq!(st.counts.major_works_built, 0);
}

#[test]
fn only_the_civilized_build_within_their_policys_share_and_stocks() {
    let g = offered(1500, 1500, 12);
    let roma = country(&g, "Roma");
    let mixed = (0..g.scenario.countries.len() as CountryId)
        .find(|&c| g.culture[c as usize] == Culture::Mixed)
        .unwrap();
    let barbarian = (0..g.scenario.countries.len() as CountryId)
        .find(|&c| g.culture[c as usize] == Culture::Barbarian)
        .unwrap();
    let mut st = g.start.clone();
    for c in [roma, mixed, barbarian] {
        let s = &mut st.nations[c as usize].stock;
        (s[DEN], s[PIE]) = (100_000, 100_000);
    }
    assert!(major_works::may_build(&g, &st, roma));
    assert!(!major_works::may_build(&g, &st, mixed)); // L4100
    assert!(!major_works::may_build(&g, &st, barbarian)); // L4108
    let stock = st.nations[roma as usize].stock;
    assert!(major_works::planned_from(&g, &st, roma, &builder(), &stock));
    // The referee's countries (share 0) never build; nor a share too small for its DEN.
    assert!(!major_works::planned_from(
        &g,
        &st,
        roma,
        &Scripted::referee(),
        &stock
    ));
    let poor = Scripted {
        major_works_share: 0.01,
        ..builder()
    };
    assert!(!major_works::planned_from(&g, &st, roma, &poor, &stock));
    // Short of stone and wood: not started.
    let mut short = stock;
    (short[PIE], short[MAD]) = (1000, 499);
    assert!(!major_works::planned_from(
        &g,
        &st,
        roma,
        &builder(),
        &short
    ));
    short[MAD] = 500;
    assert!(major_works::planned_from(&g, &st, roma, &builder(), &short));
}

#[test]
fn the_black_market_sells_its_stone_up_to_the_turns_limit_and_the_buyers_leave_it() {
    let g = offered(3000, 1500, 12);
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].stock = [0; super::state::R];
    st.nations[roma as usize].stock[DEN] = 100_000;
    let plan = Scripted {
        market_buy: 1.0,
        market_sell: 1.0,
        recruit: 0.0,
        caravans: 0,
        convoys: 0,
        ..builder()
    };
    let plans = plans_with(&g, roma, plan);
    trade::phase(&g, &mut st, &plans);
    // 2,000 PIE a turn (L1021-L1058) at 10 DEN per 10; the sellers keep it.
    let limit = trade::limit(PIE);
    assert_eq!(st.nations[roma as usize].stock[PIE], limit);
    assert_eq!(st.nations[roma as usize].stock[DEN], 100_000 - limit);
    trade::phase(&g, &mut st, &plans);
    assert_eq!(st.nations[roma as usize].stock[PIE], 3000);
    major_works::constructions(&g, &mut st, &plans, &mut NoLog);
    assert_eq!(st.nations[roma as usize].major_work_left, 12);
    assert_eq!(st.nations[roma as usize].stock[PIE], 0);
}

#[test]
fn works_buy_the_materials_they_lack_at_the_black_market() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].stock = [0; super::state::R];
    st.nations[roma as usize].stock[DEN] = 100_000;
    let plan = Scripted {
        works_share: 1.0,
        works_payback: 1000.0,
        market_buy: 1.0,
        market_sell: 0.0,
        recruit: 0.0,
        caravans: 0,
        convoys: 0,
        roads_share: 0.0,
        ..Scripted::defaults()
    };
    // Without materials no work can start.
    assert_eq!(works::planned(&g, &st, roma, &plan).1, 0);
    let (w, lack, budget) = works::materials_wanted(&g, &st, roma, &plan).unwrap();
    let p = w.price();
    assert_eq!(lack[PIE], p.pie + p.pie_or_mad, "stone for 'PIE y/o MAD'");
    assert_eq!((lack[MAD], lack[MET]), (p.mad, p.met));
    assert!(budget >= 0);
    // No buying policy, no purchase.
    let mut idle = st.clone();
    let no_buy = Scripted {
        market_buy: 0.0,
        ..plan
    };
    trade::phase(&g, &mut idle, &plans_with(&g, roma, no_buy));
    assert_eq!(
        idle.nations[roma as usize].stock,
        st.nations[roma as usize].stock
    );
    trade::phase(&g, &mut st, &plans_with(&g, roma, plan));
    let s = st.nations[roma as usize].stock;
    assert_eq!((s[PIE], s[MAD], s[MET]), (lack[PIE], lack[MAD], lack[MET]));
    let cost = trade::cost_of(&g, roma, PIE, lack[PIE])
        + trade::cost_of(&g, roma, MAD, lack[MAD])
        + trade::cost_of(&g, roma, MET, lack[MET]);
    assert_eq!(s[DEN], 100_000 - cost);
    let (chosen, n) = works::planned(&g, &st, roma, &plan);
    assert!(
        chosen[..n].contains(&w),
        "{w:?} starts once its materials are bought"
    );
}
