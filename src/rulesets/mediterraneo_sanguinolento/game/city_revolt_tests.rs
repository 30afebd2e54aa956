//! Tests of the rebellion indices per printed city and the cities' revolts (digest §4.16,
//! L5617-L5633, §4.19 L4272-L4274, L4364; `city_revolt.rs`): the indices at the start, which
//! rows move which zone under each option, a city's and the capital's revolt rows and their
//! year at 75%, the reversion on invasion per zone, the policy seeing the cities, and whole games.

use super::burdens;
use super::city_revolt::{self, CITY_START_IDR};
use super::economy;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::revolt;
use super::scenario::{CityId, CountryId, DEN};
use super::state::{State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn rural_only() -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("city_index_rows = \"rural-only\""),
    )
}

/// Node `l`'s capital and another of its printed cities.
fn two_cities(g: &Game, l: CountryId) -> (CityId, CityId) {
    let capital = g.capital[l as usize].unwrap();
    let other = g.scenario.countries[l as usize]
        .cities
        .clone()
        .find(|&c| c != capital)
        .unwrap();
    (capital, other)
}

/// A country of culture `culture` with at least two printed cities.
fn with_two_cities(g: &Game, culture: Culture) -> CountryId {
    (0..g.scenario.countries.len() as CountryId)
        .find(|&l| {
            g.culture[l as usize] == culture && g.scenario.countries[l as usize].cities.len() >= 2
        })
        .unwrap()
}

/// Roma's army of 30 units conquers `etr` in month 10 (the scripted default policy).
fn roma_conquers(g: &Game, st: &mut State, roma: CountryId, etr: CountryId) {
    st.nations[roma as usize].field = [30.0, 0.0, 0.0];
    military::conquer(g, st, roma, etr, &Scripted::defaults(), 10, &mut NoLog);
}

#[test]
fn every_city_starts_at_800_beside_the_rural_1000() {
    let g = scripted_game();
    let st = &g.start;
    assert_eq!(st.city_idr.len(), g.scenario.cities.len());
    for l in 0..st.lands.len() as CountryId {
        assert_eq!(revolt::index(st, l), 1000);
        for city in g.scenario.countries[l as usize].cities.clone() {
            assert_eq!(city_revolt::city_index(&g, st, l, city), 800);
        }
    }
    let roma = country(&g, "Roma");
    assert_eq!(city_revolt::lowest_zone(&g, st, roma), 800);
}

#[test]
fn a_nations_row_moves_its_cities_by_option_and_a_citys_row_moves_the_city_alone() {
    let roma_rows = |g: &Game| {
        let roma = country(g, "Roma");
        let (capital, other) = two_cities(g, roma);
        let mut st = g.start.clone();
        // A row of the nation's (the capital's fortification level: +25 civilized).
        st.apply(roma, pv::WORKS, pv::FORTIFICATION_LEVEL, Culture::Civilized);
        // A row naming one city (a gift aimed at it).
        city_revolt::add_to_city(g, &mut st, roma, other, -300);
        let at = |city| city_revolt::city_index(g, &st, roma, city);
        (revolt::index(&st, roma), at(capital), at(other))
    };
    // every-zone (default): the nation's +25 on every zone, the -300 on the city alone.
    assert_eq!(roma_rows(&scripted_game()), (1025, 825, 525));
    // rural-only: the +25 on the rural zone alone.
    assert_eq!(roma_rows(&rural_only()), (1025, 800, 500));
    // The tax row (§47 names the cities): every zone either way.
    for g in [scripted_game(), rural_only()] {
        let roma = country(&g, "Roma");
        let (capital, _) = two_cities(&g, roma);
        let mut st = g.start.clone();
        burdens::tax(&g, &mut st, roma, 4, pv::TAXES_SOURCE, pv::TAXES[2]);
        assert_eq!(revolt::index(&st, roma), 1000 - 175);
        assert_eq!(city_revolt::city_index(&g, &st, roma, capital), 800 - 175);
        // The tax floor sees the lowest zone, the city's.
        assert_eq!(burdens::lowest_taxed_index(&g, &st, roma, 4), 800 - 175);
    }
}

#[test]
fn the_lazy_city_indices_equal_rows_applied_to_every_zone_at_once() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let (_, other) = two_cities(&g, roma);
    let steps: [&dyn Fn(&mut State); 4] = [
        &|st| st.apply(roma, pv::WORKS, pv::FORTIFICATION_LEVEL, Culture::Civilized),
        &|st| st.nations[roma as usize].idr -= 330,
        &|st| city_revolt::add_to_city(&g, st, roma, other, -40),
        &|st| st.apply(roma, pv::REVOLT, pv::REBELLION_CITY, Culture::Civilized),
    ];
    let (mut lazy, mut eager) = (g.start.clone(), g.start.clone());
    for step in steps {
        step(&mut lazy);
        step(&mut eager);
        city_revolt::sync(&g, &mut eager);
    }
    for city in g.scenario.countries[roma as usize].cities.clone() {
        let want = eager.city_idr[city as usize];
        assert_eq!(city_revolt::city_index(&g, &lazy, roma, city), want);
        let moved = 25 - 330 - 75 - if city == other { 40 } else { 0 };
        assert_eq!(want, 800 + moved);
    }
}

#[test]
fn an_invasion_reverts_each_zone_above_normal_and_keeps_those_below() {
    for g in [scripted_game(), rural_only()] {
        let roma = country(&g, "Roma");
        let etr = country(&g, "Etruria");
        let (capital, other) = two_cities(&g, etr);
        let mut st = g.start.clone();
        city_revolt::add_to_city(&g, &mut st, etr, capital, 150);
        city_revolt::add_to_city(&g, &mut st, etr, other, -500);
        st.nations[etr as usize].idr = 1200;
        city_revolt::rural_set(&mut st, etr);
        roma_conquers(&g, &mut st, roma, etr);
        assert_eq!(st.lands[etr as usize].owner, roma);
        assert_eq!(revolt::index(&st, etr), 1000);
        assert_eq!(city_revolt::city_index(&g, &st, etr, capital), 800);
        assert_eq!(city_revolt::city_index(&g, &st, etr, other), 300);
    }
}

/// Culture `culture`'s country with its capital (or another city) at 0, `garrison` at home.
fn city_at_zero(g: &Game, culture: Culture, capital: bool) -> (State, CountryId, CityId) {
    let l = with_two_cities(g, culture);
    let (cap, other) = two_cities(g, l);
    let city = if capital { cap } else { other };
    let mut st = g.start.clone();
    city_revolt::add_to_city(g, &mut st, l, city, -CITY_START_IDR);
    st.nations[l as usize].garrison = [40.0, 0.0, 0.0];
    (st, l, city)
}

#[test]
fn a_city_revolt_scores_its_row_by_culture_and_leaves_the_city_at_250_for_a_year() {
    let g = scripted_game();
    // (culture, capital, PV of the rebellion row + the suppressing row, home IDR of both).
    for (culture, capital, pv, idr) in [
        (Culture::Civilized, false, -2, -75 - 250),
        (Culture::Civilized, true, -3, -100 - 250),
        (Culture::Mixed, false, -1, -50 - 200),
        (Culture::Mixed, true, -2, -75 - 200),
        (Culture::Barbarian, false, -1 + 1, -25 - 175),
        (Culture::Barbarian, true, -2 + 1, -50 - 175),
    ] {
        let (mut st, l, city) = city_at_zero(&g, culture, capital);
        let (pv0, idr0) = (st.nations[l as usize].pv, st.nations[l as usize].idr);
        revolt::check(&g, &mut st, 4, &mut Dice::from_seed(3), &mut NoLog);
        let c = &st.counts;
        assert_eq!(
            (c.capital_revolts, c.city_revolts),
            (capital as u32, !capital as u32)
        );
        assert_eq!(
            (c.revolts, c.province_revolts, c.revolts_suppressed),
            (0, 0, 1)
        );
        // A37: the city's 150 POB make no rebel unit (150 / 200): nothing to fight.
        assert_eq!(city_revolt::rebels(&g, &st, l), 0.0);
        let n = &st.nations[l as usize];
        assert_eq!((n.pv - pv0, n.pv_by[pv::REVOLT]), (pv, pv));
        assert_eq!(n.idr - idr0, idr, "the rows on the rural index");
        assert_eq!(city_revolt::city_index(&g, &st, l, city), 250);
        // The revolt's rows reach no city in this count: the others keep their 800.
        for other in g.scenario.countries[l as usize].cities.clone() {
            if other != city {
                assert_eq!(city_revolt::city_index(&g, &st, l, other), 800);
            }
        }
        // The next collection yields 37 POB less (a quarter of the city's 150), for a year.
        let plans = vec![Scripted::referee(); st.nations.len()];
        let mut calm = st.clone();
        calm.city_revolt_collections[city as usize] = 0;
        economy::collection(&g, &mut st, &plans, 4);
        economy::collection(&g, &mut calm, &plans, 4);
        let cut = calm.lands[l as usize].pob_yield - st.lands[l as usize].pob_yield;
        assert_eq!(cut, 37);
        assert_eq!(st.city_revolt_collections[city as usize], 2);
        for month in [8, 12] {
            economy::collection(&g, &mut st, &plans, month);
        }
        assert_eq!(st.city_revolt_collections[city as usize], 0);
    }
}

#[test]
fn a_won_capital_revolt_frees_a_province_by_option() {
    // Militia rebels (3 x floor(1,000 / 200) x 150 / 1,000 = 2.25 units), no occupiers.
    for (text, freed) in [
        ("revolt_rebels = \"militia\"", true),
        (
            "revolt_rebels = \"militia\"\ncity_revolt_won = \"disorder\"",
            false,
        ),
    ] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let roma = country(&g, "Roma");
        let etr = country(&g, "Etruria");
        let (capital, other) = two_cities(&g, etr);
        let mut st = g.start.clone();
        roma_conquers(&g, &mut st, roma, etr);
        st.lands[etr as usize].pob_yield = 1000;
        st.lands[etr as usize].collections = 3;
        st.lands[etr as usize].garrison = NO_UNITS;
        assert_eq!(city_revolt::rebels(&g, &st, etr), 2.25);
        for city in [capital, other] {
            city_revolt::add_to_city(&g, &mut st, etr, city, -CITY_START_IDR);
        }
        revolt::check(&g, &mut st, 12, &mut Dice::from_seed(3), &mut NoLog);
        // The capital comes first: once it frees the node, the other city's revolt is moot.
        let others = !freed as u32;
        assert_eq!(
            (st.counts.capital_revolts, st.counts.city_revolts),
            (1, others)
        );
        assert_eq!(st.counts.revolts_suppressed, 0);
        assert_eq!(st.lands[etr as usize].owner == etr, freed, "{text}");
        assert_eq!(st.counts.provinces_freed, freed as u32);
        let want = if freed { 800 } else { 250 };
        assert_eq!(city_revolt::city_index(&g, &st, etr, capital), want);
    }
}

#[test]
fn the_gifts_go_to_the_province_whose_city_is_lowest() {
    for (g, rural_after) in [(scripted_game(), 1000 + 180), (rural_only(), 1000)] {
        let roma = country(&g, "Roma");
        let etr = country(&g, "Etruria");
        let (capital, _) = two_cities(&g, etr);
        let mut st = g.start.clone();
        roma_conquers(&g, &mut st, roma, etr);
        // Its rural zone calm, its capital low.
        city_revolt::add_to_city(&g, &mut st, etr, capital, 100 - CITY_START_IDR);
        st.nations[roma as usize].stock[DEN] = 100_000;
        st.nations[roma as usize].gifts_this_period = 0;
        let mut plans = vec![Scripted::referee(); st.nations.len()];
        plans[roma as usize] = Scripted {
            province_gift_idr: 400,
            ..Scripted::defaults()
        };
        revolt::gifts(&g, &mut st, &plans);
        // Three lots (the 2,000 DEN cap), +60 each (civilized): on the node or on the city.
        assert_eq!(st.counts.province_gifts, 3);
        assert_eq!(revolt::index(&st, etr), rural_after);
        assert_eq!(city_revolt::city_index(&g, &st, etr, capital), 100 + 180);
    }
}

#[test]
fn whole_games_keep_the_invariants_with_city_revolts() {
    for (text, games) in [
        ("", 30u64),
        (
            "city_index_rows = \"rural-only\"\ncity_revolt_won = \"disorder\"",
            20,
        ),
        ("revolt_rebels = \"militia\"", 20),
    ] {
        let g = game_with(Policy::Random, &options_with(text));
        let mut cities = 0;
        play_checked(&g, 47, games, "city revolts", |_, play, _| {
            let c = &play.st.counts;
            cities += c.city_revolts + c.capital_revolts;
            let all = c.province_revolts + c.revolts + c.city_revolts + c.capital_revolts;
            assert!(c.revolts_suppressed <= all);
        });
        assert!(cities > 0, "{text}: random players provoke city revolts");
    }
}

#[test]
fn bad_city_options_are_refused() {
    super::game_tests::assert_bad_options(&[
        ("city_index_rows = \"x\"", "city_index_rows", "every-zone"),
        (
            "city_revolt_won = \"x\"",
            "city_revolt_won",
            "capital-frees",
        ),
    ]);
}
