//! Tests of the king away from home (digest §4.19, L4336; `king_abroad.rs`) and of the production
//! improvements' row (L4346-L4358; `works::finish`): the rows by hand, the two readings of
//! "away", who is counted, and the policy that keeps the king home.

use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::king_abroad::{self, Reading};
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::CountryId;
use super::state::{Mission, State};
use super::works::{self, Work};
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Roma's field army standing in `at` on its way to `target`, its king with it or not.
fn campaigning(g: &Game, at: &str, target: &str, king_goes: bool) -> State {
    let roma = country(g, "Roma");
    let mut st = g.start.clone();
    let n = &mut st.nations[roma as usize];
    n.at = country(g, at);
    n.mission = Mission::March {
        target: country(g, target),
    };
    let king = n
        .leaders
        .iter()
        .position(|l| l.king)
        .expect("Roma has a king");
    n.leaders[king].in_field = king_goes;
    st
}

#[test]
fn each_month_away_costs_one_pv_and_the_cultures_index() {
    let g = scripted_game();
    assert_eq!(g.king_abroad, Reading::HomeCountry);
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let mut st = campaigning(&g, "Etruria", "Samnitas", true);
    let (pv0, idr0) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    king_abroad::month(&g, &mut st);
    king_abroad::month(&g, &mut st);
    let n = &st.nations[roma as usize];
    assert_eq!(n.pv - pv0, -2);
    assert_eq!(n.pv_by[pv::KING], -2);
    assert_eq!(n.idr - idr0, -100, "civilized: -50 a month");
    assert_eq!(st.counts.king_months_abroad, 2, "only Roma's king is away");
    // Barbarian and B/C kings: -1 PV and -25 IDR.
    assert_eq!(pv::KING_ABROAD.pv(Culture::Barbarian), -1);
    assert_eq!(pv::KING_ABROAD.idr(Culture::Mixed), -25);
}

#[test]
fn a_king_at_home_or_left_home_costs_nothing() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    // The army marches under another leader: the king stays home.
    let mut st = campaigning(&g, "Etruria", "Samnitas", false);
    king_abroad::month(&g, &mut st);
    assert_eq!(st.nations[roma as usize].pv_by[pv::KING], 0);
    // The army (and the king with it) has not left its home node yet.
    let mut st = campaigning(&g, "Roma", "Samnitas", true);
    assert!(!king_abroad::away(&st, roma, Reading::HomeCountry));
    king_abroad::month(&g, &mut st);
    assert_eq!(st.counts.king_months_abroad, 0);
    // A captured king is no longer his nation's: not counted.
    let mut st = campaigning(&g, "Etruria", "Samnitas", true);
    let k = st.nations[roma as usize]
        .leaders
        .iter()
        .position(|l| l.king)
        .unwrap();
    st.nations[roma as usize].leaders[k].held_by = country(&g, "Etruria");
    assert!(!king_abroad::away(&st, roma, Reading::HomeCountry));
}

#[test]
fn held_lands_count_as_home_only_under_that_reading() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let mut st = campaigning(&g, "Etruria", "Samnitas", true);
    st.lands[etruria as usize].owner = roma;
    assert!(king_abroad::away(&st, roma, Reading::HomeCountry));
    assert!(!king_abroad::away(&st, roma, Reading::HeldLands));
    let held = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("king_abroad = \"held-lands\""),
    );
    assert_eq!(held.king_abroad, Reading::HeldLands);
    king_abroad::month(&held, &mut st);
    assert_eq!(st.nations[roma as usize].pv_by[pv::KING], 0);
    // Beyond the held lands the king is away under both readings.
    let mut st = campaigning(&g, "Samnitas", "Magna Grecia", true);
    st.lands[etruria as usize].owner = roma;
    king_abroad::month(&held, &mut st);
    assert_eq!(st.nations[roma as usize].pv_by[pv::KING], -1);
}

/// Months kings spent away and the king PV of every nation, over `games` games (invariants
/// checked after each).
fn kings_away(g: &Game, games: u64) -> (u32, i32) {
    let (mut months, mut pv) = (0, 0);
    play_checked(g, 23, games, "kings", |_, play, _| {
        months += play.st.counts.king_months_abroad;
        pv += play
            .st
            .nations
            .iter()
            .map(|n| n.pv_by[pv::KING])
            .sum::<i32>();
    });
    (months, pv)
}

#[test]
fn by_default_the_king_stays_home_and_a_king_who_leads_pays_each_month() {
    assert_eq!(Scripted::defaults().king_commands, 0.0);
    // By default a king is away only when he was crowned in the field (an heir who had gone with
    // the army, L2334), which is rare.
    let (home_months, home_pv) = kings_away(&scripted_game(), 20);
    assert_eq!(
        home_pv,
        -(home_months as i32),
        "1 PV a month, every culture"
    );
    let leading = game_with(
        Policy::Scripted(Scripted {
            king_commands: 1.0,
            ..Scripted::defaults()
        }),
        &options_with(""),
    );
    let (months, pv) = kings_away(&leading, 20);
    assert_eq!(pv, -(months as i32));
    assert!(
        months > 4 * home_months,
        "leading {months} months, staying {home_months}"
    );
}

#[test]
fn a_finished_improvement_scores_its_row_by_culture() {
    let g = scripted_game();
    let mut st = g.start.clone();
    let mixed = (0..g.culture.len())
        .find(|&c| g.culture[c] == Culture::Mixed)
        .expect("a B/C country") as CountryId;
    for (c, culture, pv, idr) in [
        (country(&g, "Roma"), Culture::Civilized, 1, 50),
        (mixed, Culture::Mixed, 1, 75),
    ] {
        let name = &g.scenario.countries[c as usize].name;
        assert_eq!(g.culture[c as usize], culture, "{name}");
        // The seven improvements come first in the tables' order.
        assert_eq!(works::WORKS[6], Work::Shipyard);
        for &w in &works::WORKS[..7] {
            let (pv0, idr0) = (st.nations[c as usize].pv, st.nations[c as usize].idr);
            works::finish(&g, &mut st, c, w);
            let n = &st.nations[c as usize];
            assert_eq!((n.pv - pv0, n.idr - idr0), (pv, idr), "{name} {w:?}");
        }
    }
    assert_eq!(pv::IMPROVEMENT_BUILT.pv(Culture::Barbarian), 0);
    assert_eq!(pv::IMPROVEMENT_BUILT.idr(Culture::Barbarian), 0);
}
