//! Destruction (digest §4.17, rules §18 L3716-L3720, §45.2 L5607-L5609, §4.19's city rows;
//! `destruction.rs`): the PV and IDR of destroying another nation's and one's own city by culture
//! under both readings, the MAN row, the POB split at the next collection, a destroyed road's PM,
//! the idle month, the policy's choice, the works and frontier walls destroyed, and whole games
//! keeping the invariants.

use super::destruction::{self, Ruin};
use super::economy;
use super::game_tests::{country, game_with, options_with, play_checked};
use super::policy::{Policy, Scripted};
use super::pv;
use super::roads::{self, link_index};
use super::scenario::{CityId, CountryId, DEN, MAN, POB};
use super::state::{Mission, State};
use super::works::{self, Work};
use super::Game;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

const CULTURES: [Culture; 3] = [Culture::Barbarian, Culture::Mixed, Culture::Civilized];

fn game(options: &str) -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with(options),
    )
}

/// A node with at least two printed cities and some MAN and POB production (a major's if `major`).
fn city_node(g: &Game, major: bool) -> CountryId {
    (0..g.scenario.countries.len() as CountryId)
        .find(|&t| {
            g.scenario.countries[t as usize].cities.len() >= 2
                && g.majors.contains(&t) == major
                && g.scenario.production[t as usize][POB] > 0
        })
        .expect("the scenario has such a node")
}

fn second_city(g: &Game, t: CountryId) -> CityId {
    g.scenario.countries[t as usize].cities.start + 1
}

/// §4.19 by hand: another nation's city 1/0/-2 PV and 50/0/-50 IDR, one's own -1/-2/-3 PV and
/// -25/-50/-75 IDR by the destroyer's culture ("table"); the text's -1 and -2 PV for every
/// culture with the same IDR ("text", the default). Option man_destroyed = "none" here.
#[test]
fn destroying_a_city_scores_its_row_by_culture_under_both_readings() {
    for (option, enemy_pv, own_pv) in [
        ("text", [-1, -1, -1], [-2, -2, -2]),
        ("table", [1, 0, -2], [-1, -2, -3]),
    ] {
        let mut g = game(&format!(
            "city_destruction_pv = \"{option}\"\nman_destroyed = \"none\""
        ));
        let t = city_node(&g, true);
        let c = *g.majors.iter().find(|&&m| m != t).unwrap();
        let city = second_city(&g, t);
        for (i, culture) in CULTURES.into_iter().enumerate() {
            g.culture[c as usize] = culture;
            for (own, pv, idr) in [
                (false, enemy_pv[i], [50, 0, -50][i]),
                (true, own_pv[i], [-25, -50, -75][i]),
            ] {
                let mut st = g.start.clone();
                if own {
                    st.lands[t as usize].owner = c;
                }
                let (pv0, idr0) = (st.nations[c as usize].pv, st.nations[c as usize].idr);
                destruction::destroy_city(&g, &mut st, c, city, own);
                let n = &st.nations[c as usize];
                assert_eq!(n.pv - pv0, pv, "{option} {culture:?} own {own}");
                assert_eq!(
                    n.pv_by[pv::DESTRUCTION],
                    pv,
                    "{option} {culture:?} own {own}"
                );
                assert_eq!(n.idr - idr0, idr, "{option} {culture:?} own {own}");
                assert_eq!(st.city_fort[city as usize], 0, "its walls are gone");
                assert_eq!(st.counts.cities_destroyed, 1);
                assert_eq!(st.counts.own_cities_destroyed, own as u32);
                assert_eq!(st.counts.constructions_destroyed, 1);
            }
        }
    }
}

/// "MAN destroyed (N points)": the city's MAN share of one collection, N = the node's MAN / its k
/// cities, costs its destroyer -(N/100) PV in whole hundreds and -N IDR, beside the city's row: a
/// node of k cities making 250 k + k - 1 MAN gives N = 250 (the remainder dropped), -2 PV and
/// -250 IDR; by option
/// man_destroyed = "none", nothing.
#[test]
fn the_man_row_charges_the_destroyed_citys_share() {
    for (option, pv_man, idr_man) in [("razed-city", -2, -250), ("none", 0, 0)] {
        let mut g = game(&format!("man_destroyed = \"{option}\""));
        let t = city_node(&g, true);
        let c = *g.majors.iter().find(|&&m| m != t).unwrap();
        let k = g.scenario.countries[t as usize].cities.len();
        g.scenario.production[t as usize][MAN] = (250 * k + k - 1) as _;
        let mut st = g.start.clone();
        let (pv0, idr0) = (st.nations[c as usize].pv, st.nations[c as usize].idr);
        destruction::destroy_city(&g, &mut st, c, second_city(&g, t), false);
        let row_idr = pv::DESTROYING_ENEMY_CITY.idr(g.culture[c as usize]);
        assert_eq!(st.nations[c as usize].pv - pv0, -1 + pv_man, "{option}");
        assert_eq!(
            st.nations[c as usize].idr - idr0,
            row_idr + idr_man,
            "{option}"
        );
        assert_eq!(st.counts.man_destroyed, -idr_man as f64, "{option}");
    }
}

/// What node `t` (held by itself) yields at a December collection.
fn december_yield(g: &Game, st: &State, t: CountryId) -> [i64; 3] {
    let mut st = st.clone();
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    let before = st.nations[t as usize].stock;
    economy::collection(g, &mut st, &plans, 12);
    let after = st.nations[t as usize].stock;
    [POB, DEN, MAN].map(|r| after[r] - before[r])
}

/// L5607-L5609: the destroyed city's POB share is halved for good, the other half going to the
/// countryside where the destroyer allows it (else all of it is lost); its DEN and MAN shares are
/// gone; at every later collection.
#[test]
fn a_destroyed_citys_pob_is_halved_to_the_countryside_at_the_next_collection() {
    let g = game("");
    let t = city_node(&g, true);
    // abstraction.toml [production]: a city yields 150 POB and 150 DEN, and the node's MAN is
    // its cities' (its culture's city_man each).
    assert_eq!(g.scenario.city_yield[POB], 150);
    assert_eq!(g.scenario.city_yield[DEN], 150);
    let k = g.scenario.countries[t as usize].cities.len() as i64;
    let man = g.scenario.production[t as usize][MAN] as i64;
    assert_eq!(man % k, 0, "every city makes the same MAN");
    let share = [150, 150, man / k];
    let whole = december_yield(&g, &g.start, t);
    for (rural, pob_lost) in [(true, share[0] / 2), (false, share[0])] {
        let mut st = g.start.clone();
        destruction::destroy_city(&g, &mut st, t, second_city(&g, t), rural);
        assert_eq!(
            st.city_ruin[second_city(&g, t) as usize],
            if rural { Ruin::Rural } else { Ruin::Emptied }
        );
        let cut = december_yield(&g, &st, t);
        assert_eq!(whole[0] - cut[0], pob_lost, "rural {rural}");
        assert_eq!(whole[1] - cut[1], share[1], "rural {rural}");
        assert_eq!(whole[2] - cut[2], share[2], "rural {rural}");
    }
}

/// A destroyed road no longer halves its link's PM: Roma to Etruria is 12 PM, 6 on the road,
/// 12 again once it is destroyed, and the routes equal a fresh computation.
#[test]
fn a_destroyed_road_no_longer_halves_the_pm() {
    let g = game("");
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let mut st = g.start.clone();
    st.lands[etruria as usize].owner = roma;
    let i = link_index(&g.scenario, roma, etruria).unwrap();
    st.roads.under_way[roma as usize] = (i as u32, 1);
    roads::month(&g, &mut st, &mut NoLog);
    assert_eq!(st.roads.cost(&g, roma, etruria), 6);
    destruction::destroy_road(&g, &mut st, i);
    assert!(!st.roads.built[i]);
    assert_eq!(st.roads.cost(&g, roma, etruria), 12);
    assert_eq!(st.roads.leg(&g, roma, etruria), Some(12));
    assert_eq!(st.counts.roads_destroyed, 1);
    assert_eq!(st.counts.constructions_destroyed, 1);
    // Nothing left to destroy: nothing counted.
    destruction::destroy_road(&g, &mut st, i);
    assert_eq!(st.counts.roads_destroyed, 1);
}

fn razer() -> Scripted {
    Scripted {
        raze_cities: 1.0,
        raze_works: 1.0,
        ..Scripted::defaults()
    }
}

/// `c`'s army of 10 units besieging major `t`'s capital, standing there since the month began.
fn besieging(g: &Game, c: CountryId, t: CountryId) -> State {
    let mut st = g.start.clone();
    let n = &mut st.nations[c as usize];
    n.field = [10.0, 0.0, 0.0];
    n.at = t;
    n.mission = Mission::Siege {
        target: t,
        months: 1,
    };
    destruction::start_month(&mut st);
    st
}

/// 200 men idle a whole month destroy one city; an army that moved, fought, marched or counts
/// fewer men destroys nothing.
#[test]
fn only_an_army_idle_a_whole_month_destroys() {
    let g = game("");
    let t = city_node(&g, true);
    let c = *g.majors.iter().find(|&&m| m != t).unwrap();
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = razer();
    let month = 5;
    let raze = |st: &mut State| {
        destruction::month(&g, st, &plans, month, &mut NoLog);
        st.counts.cities_destroyed
    };
    let mut st = besieging(&g, c, t);
    assert!(destruction::idle_month(&g, &st, c, month));
    assert_eq!(raze(&mut st), 1);
    assert_eq!(st.city_ruin[second_city(&g, t) as usize], Ruin::Emptied);
    // Moved in this month.
    let mut st = besieging(&g, c, t);
    st.nations[c as usize].month_start.0 = c;
    assert_eq!(raze(&mut st), 0);
    // Fought this month.
    let mut st = besieging(&g, c, t);
    st.nations[c as usize].fought_month = month;
    assert_eq!(raze(&mut st), 0);
    // Was marching as the month began.
    let mut st = besieging(&g, c, t);
    st.nations[c as usize].month_start.1 = false;
    assert_eq!(raze(&mut st), 0);
    // Fewer than 200 men.
    let mut st = besieging(&g, c, t);
    let men = g.men_per_unit(c)[0];
    st.nations[c as usize].field = [199.0 / men, 0.0, 0.0];
    assert_eq!(raze(&mut st), 0);
}

/// The policy razes only in a rival major's node, never its own nor a referee's country, never
/// the capital, and only where the row costs its culture at most 1 PV: by the text -1 for all;
/// by the table a barbarian (+1) and a mixed culture (0) raze, a civilized one (-2) does not.
#[test]
fn the_policy_razes_only_a_rival_majors_city_at_a_bearable_pv() {
    for (option, razes) in [("text", [true, true, true]), ("table", [true, true, false])] {
        let mut g = game(&format!("city_destruction_pv = \"{option}\""));
        let t = city_node(&g, true);
        let c = *g.majors.iter().find(|&&m| m != t).unwrap();
        for (i, culture) in CULTURES.into_iter().enumerate() {
            g.culture[c as usize] = culture;
            let st = besieging(&g, c, t);
            let got = destruction::city_to_raze(&g, &st, c, &razer());
            assert_eq!(got.is_some(), razes[i], "{option} {culture:?}");
            if let Some(city) = got {
                assert_ne!(Some(city), g.capital[t as usize]);
                assert_eq!(g.scenario.cities[city as usize].country, t);
            }
            assert_eq!(
                destruction::city_to_raze(&g, &st, c, &Scripted::defaults()),
                None,
                "the default never razes"
            );
        }
        // Its own node (conquered) and a referee's country: nothing.
        let mut st = besieging(&g, c, t);
        st.lands[t as usize].owner = c;
        assert_eq!(destruction::city_to_raze(&g, &st, c, &razer()), None);
        let r = city_node(&g, false);
        let st = besieging(&g, c, r);
        assert_eq!(destruction::city_to_raze(&g, &st, c, &razer()), None);
        // Every open city once, then none.
        let mut st = besieging(&g, c, t);
        let open = destruction::open_cities(&g, &st, t).count();
        for _ in 0..open {
            let city = destruction::open_cities(&g, &st, t).next().unwrap();
            destruction::destroy_city(&g, &mut st, c, city, false);
        }
        assert_eq!(destruction::open_cities(&g, &st, t).next(), None);
    }
}

/// Whole games with every major razing (and random players drawing it) keep the invariants,
/// and every PV a razer lost is in its destruction source; some game razes a city.
#[test]
fn games_with_razing_keep_the_invariants() {
    let g = game_with(Policy::Scripted(razer()), &options_with(""));
    let (mut destroyed, mut works) = (0, 0);
    // Razing is rare (about one city in 180 majors games): enough games to see some.
    play_checked(&g, 1, 600, "razing", |_, play, _| {
        destroyed += play.st.counts.cities_destroyed;
        works += play.st.counts.works_destroyed;
        for &m in &g.majors {
            let n = &play.st.nations[m as usize];
            assert_eq!(n.pv, n.pv_by.iter().sum::<i32>());
        }
    });
    assert!(destroyed > 0, "some army razed a city");
    eprintln!("{destroyed} cities and {works} works razed in 600 games");
    let g = game_with(Policy::Random, &options_with(""));
    play_checked(&g, 4, 40, "random", |_, _, _| {});
}

/// A new city destroyed: one city fewer with its share of the wood, the enlargement it carried
/// falls with it, the city rows and its MAN (civilized 75) for the MAN row, and the land yields a
/// city's 150 POB, 150 DEN and 75 MAN and an enlargement's 125, 125 and 65 less.
#[test]
fn a_destroyed_new_city_takes_its_enlargement_its_wood_and_its_yield() {
    let g = game("man_destroyed = \"razed-city\"");
    let roma = country(&g, "Roma");
    let t = country(&g, "Etruria");
    assert_eq!(g.culture[t as usize], Culture::Civilized);
    let mut st = g.start.clone();
    let printed = g.scenario.countries[t as usize].cities.len() as u8;
    let w = &mut st.works[t as usize];
    w.built[Work::City.index()] = 2;
    w.built[Work::Enlargement.index()] = printed + 2;
    w.built[Work::MiningFactory.index()] = 1;
    w.wood.works[Work::City.index()] = 600;
    w.wood.works[Work::Enlargement.index()] = 100 * (printed as i64 + 2);
    let before = works::output(&g, t as usize, &st.works[t as usize]);
    let (pv0, idr0) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    destruction::destroy_work(&g, &mut st, roma, t, Work::City);
    let w = &st.works[t as usize];
    assert_eq!(w.built(Work::City), 1);
    assert_eq!(w.wood.works[Work::City.index()], 300);
    assert_eq!(
        w.built(Work::Enlargement),
        printed + 1,
        "one enlargement lost its city"
    );
    assert_eq!(
        w.wood.works[Work::Enlargement.index()],
        100 * (printed as i64 + 1)
    );
    assert_eq!(w.built(Work::MiningFactory), 1);
    let after = works::output(&g, t as usize, w);
    assert_eq!(before[POB] - after[POB], 150 + 125);
    assert_eq!(before[DEN] - after[DEN], 150 + 125);
    assert_eq!(before[MAN] - after[MAN], 75 + 65);
    // Another nation's city: the text's -1 PV with the table's IDR (civilized -50); MAN
    // destroyed, 75 points: no PV (whole hundreds), -75 IDR.
    let n = &st.nations[roma as usize];
    assert_eq!(n.pv - pv0, -1);
    assert_eq!(
        n.idr - idr0,
        pv::DESTROYING_ENEMY_CITY.idr(Culture::Civilized) - 75
    );
    assert_eq!(n.pv_by[pv::DESTRUCTION], -1);
    assert_eq!(st.counts.works_destroyed, 2);
    assert_eq!(st.counts.constructions_destroyed, 2);
    assert_eq!(st.counts.man_destroyed, 75.0);
    // An improvement: no row, one fewer, nothing else moves.
    let pv1 = st.nations[roma as usize].pv;
    destruction::destroy_work(&g, &mut st, roma, t, Work::MiningFactory);
    assert_eq!(st.works[t as usize].built(Work::MiningFactory), 0);
    assert_eq!(st.nations[roma as usize].pv, pv1);
    assert_eq!(st.counts.works_destroyed, 3);
    // A colony left with none standing is its colonist's no more.
    let w = &mut st.works[t as usize];
    w.built[Work::Colony.index()] = 1;
    w.colonist = Some(roma);
    destruction::destroy_work(&g, &mut st, roma, t, Work::Colony);
    assert_eq!(st.works[t as usize].colonist, None);
}

/// One hex of a frontier wall a month: the link is open again and nothing is left to count.
#[test]
fn a_destroyed_wall_hex_opens_the_link() {
    let g = game("");
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let mut st = g.start.clone();
    let i = link_index(&g.scenario, etruria, roma).unwrap();
    let hexes = g.scenario.links[i].hexes;
    st.walls.hexes[i] = hexes;
    assert!(st.walls.closed(&g, i));
    destruction::destroy_wall_hex(&mut st, i);
    assert_eq!(st.walls.hexes[i], hexes - 1);
    assert!(!st.walls.closed(&g, i));
    st.walls.hexes[i] = 0;
    destruction::destroy_wall_hex(&mut st, i);
    assert_eq!(st.walls.hexes[i], 0);
    assert_eq!(st.counts.wall_hexes_destroyed, 1);
    assert_eq!(st.counts.constructions_destroyed, 1);
}

/// Where no city is razed, the policy destroys the holder's work that yields most a turn (by hand
/// of a new city and a manufactures factory; never a port or a naval base, which yield nothing to
/// price), in a rival major's node only, and the default never does.
#[test]
fn the_policy_razes_the_work_that_yields_most() {
    let g = game("");
    let t = city_node(&g, true);
    let c = *g.majors.iter().find(|&&m| m != t).unwrap();
    let plans = vec![Scripted::defaults(); g.scenario.countries.len()];
    let works_only = Scripted {
        raze_works: 1.0,
        ..Scripted::defaults()
    };
    let mut st = besieging(&g, c, t);
    let w = &mut st.works[t as usize];
    for kind in [
        Work::ManufacturesFactory,
        Work::City,
        Work::Port,
        Work::NavalBase,
    ] {
        w.built[kind.index()] = 1;
    }
    let worth = |st: &State, w: Work| works::worth_per_turn(&g, st, t, &plans[t as usize], w);
    let (city, factory) = (
        worth(&st, Work::City),
        worth(&st, Work::ManufacturesFactory),
    );
    assert!(city > 0.0 && factory > 0.0 && city != factory);
    assert_eq!(worth(&st, Work::Port), 0.0);
    assert_eq!(worth(&st, Work::NavalBase), 0.0);
    let (first, second) = if city > factory {
        (Work::City, Work::ManufacturesFactory)
    } else {
        (Work::ManufacturesFactory, Work::City)
    };
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &works_only, &plans),
        Some(first)
    );
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &Scripted::defaults(), &plans),
        None
    );
    // The month: no printed city razed (raze_cities off), the first work is.
    let mut month_plans = plans.clone();
    month_plans[c as usize] = works_only;
    destruction::month(&g, &mut st, &month_plans, 5, &mut NoLog);
    assert_eq!(st.works[t as usize].built(first), 0);
    assert_eq!(st.counts.cities_destroyed, 0);
    assert_eq!(st.counts.works_destroyed, 1);
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &works_only, &plans),
        Some(second)
    );
    st.works[t as usize].built[second.index()] = 0;
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &works_only, &plans),
        None,
        "the port and the naval base stay"
    );
    // Its own node and a referee's country: nothing.
    st.works[t as usize].built[second.index()] = 1;
    st.lands[t as usize].owner = c;
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &works_only, &plans),
        None
    );
    let r = city_node(&g, false);
    let mut st = besieging(&g, c, r);
    st.works[r as usize].built[Work::ManufacturesFactory.index()] = 1;
    assert_eq!(
        destruction::work_to_raze(&g, &st, c, &works_only, &plans),
        None
    );
}
