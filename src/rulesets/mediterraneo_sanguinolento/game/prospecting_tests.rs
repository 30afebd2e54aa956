//! Tests of prospecting (digest §4.8, L741-L743, A64, `prospecting.rs`): the chance of a find by
//! terrain, the vein's metal at the collections after it, who tries and when, and the tries' DEN
//! and finds against their exact chance over many months.

use super::economy;
use super::game_tests::{country, game_with, options_with, scripted_game};
use super::policy::{Policy, Scripted};
use super::prospecting::{self, chance, modifier, PRICE};
use super::scenario::{CountryId, DEN, MET};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

fn node_of(g: &Game, terrain: &str) -> CountryId {
    (0..g.scenario.countries.len() as CountryId)
        .find(|&c| data().terrain[g.scenario.nodes[c as usize].terrain as usize].name_en == terrain)
        .unwrap()
}

#[test]
fn a_try_finds_a_vein_on_15_or_more_with_the_terrain_modifiers() {
    let g = scripted_game();
    // 1D20 + modifier >= 15: hills +1 (7 in 20), mountain +2 (8), plain -1 (5), desert -2 (4),
    // forest 0 (6).
    for (terrain, m, twentieths) in [
        ("hills", 1, 7),
        ("mountain", 2, 8),
        ("plain", -1, 5),
        ("desert", -2, 4),
        ("forest", 0, 6),
    ] {
        let c = node_of(&g, terrain);
        assert_eq!(modifier(&g, c), m, "{terrain}");
        assert!(
            (chance(&g, c) - twentieths as f64 / 20.0).abs() < 1e-12,
            "{terrain}"
        );
    }
}

#[test]
fn a_vein_adds_a_tenth_of_the_base_metal_at_each_collection() {
    let mut g = scripted_game();
    let c = country(&g, "Macedonia");
    g.scenario.production[c as usize][MET] = 1000;
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    let collect = |veins: u8| {
        let mut st = g.start.clone();
        st.veins[c as usize] = veins;
        st.nations[c as usize].stock[MET] = 0;
        economy::collection(&g, &mut st, &plans, 12);
        st.nations[c as usize].stock[MET]
    };
    assert_eq!(collect(1) - collect(0), 100);
    assert_eq!(collect(2) - collect(0), 200);
}

#[test]
fn only_a_try_that_repays_its_400_den_is_made_and_option_none_makes_none() {
    let mut g = scripted_game();
    let c = node_of(&g, "mountain");
    let p = Scripted::defaults();
    let mut st = g.start.clone();
    st.nations[c as usize].stock[DEN] = 100_000;
    // The placeholder mountain: 200 MET, a vein 20 a collection, 0.4 a try, 30 collections, 1.6
    // DEN a unit: 384 DEN expected < 400.
    assert_eq!(g.scenario.production[c as usize][MET], 200);
    assert!(!prospecting::wants(&g, &st, c, &p));
    g.scenario.production[c as usize][MET] = 1000;
    assert!(prospecting::wants(&g, &st, c, &p));
    assert!(!prospecting::wants(&g, &st, c, &Scripted::referee()));
    let mut poor = st.clone();
    poor.nations[c as usize].stock[DEN] = economy::den_to_keep(&g, &poor, c, &p) + PRICE - 1;
    assert!(!prospecting::wants(&g, &poor, c, &p));
    let mut late = st.clone();
    late.turn = g.turn_cap - 1;
    assert!(!prospecting::wants(&g, &late, c, &p));
    let mut none = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("prospecting_result = \"none\""),
    );
    none.scenario.production[c as usize][MET] = 1000;
    assert!(!prospecting::wants(&none, &st, c, &p));
}

#[test]
fn tries_cost_400_den_each_and_find_veins_at_their_chance() {
    let mut g = scripted_game();
    let c = node_of(&g, "hills");
    g.scenario.production[c as usize][MET] = 10_000;
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = Scripted::defaults();
    let mut st = g.start.clone();
    st.nations[c as usize].stock[DEN] = 10_000_000;
    let den = st.nations[c as usize].stock[DEN];
    let mut dice = Dice::from_seed(3);
    let months = 4000;
    for _ in 0..months {
        prospecting::month(&g, &mut st, &plans, &mut dice, &mut NoLog);
    }
    assert_eq!(st.counts.prospecting_tries, months);
    assert_eq!(
        st.nations[c as usize].stock[DEN],
        den - PRICE * months as i64
    );
    let p = 7.0 / 20.0;
    let n = months as f64;
    assert_eq!(st.veins[c as usize] as u32, st.counts.veins_found.min(255));
    let se = (p * (1.0 - p) * n).sqrt();
    assert!(
        (st.counts.veins_found as f64 - p * n).abs() < 5.0 * se,
        "{} finds in {months} tries, expected {}",
        st.counts.veins_found,
        p * n
    );
}
