//! Tests of roads (digest §4.7, rules §21.1.1 L3798-L3800, the movement table's ×1/2, `roads.rs`):
//! a road's price, months and PV by hand from the numbers (A65's proposal, both readings of its
//! time), the halved leg, the land routes after roads equal a fresh Dijkstra, the road lost with
//! an end, who may build, the march that takes the road, and the black market's stone.

use super::game_tests::{country, game_with, options_with, scripted_game};
use super::policy::{Policy, Scripted};
use super::roads::{self, land_routes, leg_pm, link_index, LandRoutes, UNREACHABLE};
use super::scenario::{CountryId, DEN, PIE};
use super::state::{Mission, State};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// `c` holds `t` (as a conquest) and can pay for anything.
fn holding(g: &Game, c: CountryId, t: CountryId) -> State {
    let mut st = g.start.clone();
    st.lands[t as usize].owner = c;
    st.nations[c as usize].stock[DEN] = 100_000;
    st.nations[c as usize].stock[PIE] = 100_000;
    st
}

fn builder() -> Scripted {
    Scripted {
        roads_share: 1.0,
        ..Scripted::defaults()
    }
}

fn plans_with(g: &Game, c: CountryId, p: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = p;
    plans
}

/// The cheapest land routes with the state's roads, computed afresh.
fn fresh(g: &Game, st: &State) -> LandRoutes {
    land_routes(&g.scenario, |_, i| {
        leg_pm(&g.scenario, &g.pm, i, st.roads.built[i])
    })
}

#[test]
fn a_road_from_roma_to_etruria_costs_300_den_300_stone_and_6_or_8_months() {
    // Roma (plain, 1 PM a hex) and Etruria (hills, 4) are 3 hexes apart. A65: 100 DEN + 100 PIE
    // a hex. Terrain PM of the hexes: the mean of the two directions, 3 x (4 + 1) / 2 = 7.5 -> 8.
    // (length + terrain) / 2 = (3 + 8) / 2 -> 6 months; the other reading: 8.
    for (reading, months) in [("half-length-plus-terrain", 6u8), ("terrain-pm", 8)] {
        let o = options_with(&format!("road_months = \"{reading}\""));
        let g = game_with(Policy::Scripted(Scripted::defaults()), &o);
        let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
        assert_eq!((g.pm[roma as usize], g.pm[etruria as usize]), (1, 4));
        let i = link_index(&g.scenario, roma, etruria).unwrap();
        assert_eq!(g.scenario.links[i].hexes, 3);
        assert_eq!(roads::price(&g, i), (300, 300, months));
        let back = link_index(&g.scenario, etruria, roma).unwrap();
        assert_eq!(roads::price(&g, back), (300, 300, months));
    }
    let o = options_with("road_den_per_hex = 250\nroad_pie_per_hex = 0");
    let g = game_with(Policy::Scripted(Scripted::defaults()), &o);
    let i = link_index(&g.scenario, country(&g, "Roma"), country(&g, "Etruria")).unwrap();
    assert_eq!(roads::price(&g, i), (750, 0, 6));
}

#[test]
fn a_road_halves_the_hexes_pm_rounded_up_both_ways() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let s = &g.scenario;
    let there = link_index(s, roma, etruria).unwrap();
    let back = link_index(s, etruria, roma).unwrap();
    // Into Etruria 3 hexes x 4 PM = 12, on the road 6; into Roma 3 x 1 = 3, on the road 2.
    assert_eq!(leg_pm(s, &g.pm, there, false), 12);
    assert_eq!(leg_pm(s, &g.pm, there, true), 6);
    assert_eq!(leg_pm(s, &g.pm, back, false), 3);
    assert_eq!(leg_pm(s, &g.pm, back, true), 2);
}

#[test]
fn a_finished_road_scores_its_row_and_halves_the_march_for_everyone() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let mut st = holding(&g, roma, etruria);
    let plans = plans_with(&g, roma, builder());
    let there = link_index(&g.scenario, roma, etruria).unwrap();
    let back = link_index(&g.scenario, etruria, roma).unwrap();
    // Roma holds only Roma and Etruria: the one road it may build is theirs (either direction
    // names it).
    let i = roads::next_road(&g, &st, roma, &plans[roma as usize]).unwrap();
    assert!(i == there || i == back);
    let (den, pie) = (
        st.nations[roma as usize].stock[DEN],
        st.nations[roma as usize].stock[PIE],
    );
    roads::constructions(&g, &mut st, &plans, &mut NoLog);
    assert_eq!(st.nations[roma as usize].stock[DEN], den - 300);
    assert_eq!(st.nations[roma as usize].stock[PIE], pie - 300);
    assert_eq!(st.roads.under_way[roma as usize], (i as u32, 6));
    // One road at a time (L681): nothing more starts while it is under way.
    roads::constructions(&g, &mut st, &plans, &mut NoLog);
    assert_eq!(st.nations[roma as usize].stock[DEN], den - 300);
    let (pv, idr) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    for month in 1..=6 {
        assert_eq!(st.roads.cost(&g, roma, etruria), 12, "month {month}");
        roads::month(&g, &mut st, &mut NoLog);
    }
    // §4.19 "per road built", civilized: +1 PV, +75 IDR.
    assert_eq!(st.nations[roma as usize].pv, pv + 1);
    assert_eq!(st.nations[roma as usize].idr, idr + 75);
    assert_eq!(st.counts.roads_built, 1);
    assert!(st.roads.built[there] && st.roads.built[back]);
    assert_eq!(st.roads.cost(&g, roma, etruria), 6);
    assert_eq!(st.roads.cost(&g, etruria, roma), 2);
    // Everyone's marches use it: Samnitas to Etruria was 3 hexes x 1 into Roma, then 12; now
    // the road's 6 from Roma (if that path is the cheapest).
    let samnitas = country(&g, "Samnitas");
    let before = g.cost[samnitas as usize * g.scenario.countries.len() + etruria as usize];
    assert!(st.roads.cost(&g, samnitas, etruria) <= before);
    assert_eq!(
        st.roads.cost(&g, samnitas, etruria),
        fresh(&g, &st).cost[samnitas as usize * g.scenario.countries.len() + etruria as usize]
    );
    // The roadless game is untouched.
    assert_eq!(g.start.roads.cost(&g, roma, etruria), 12);
}

#[test]
fn a_road_is_lost_when_its_builder_no_longer_holds_both_ends() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let mut st = holding(&g, roma, etruria);
    let plans = plans_with(&g, roma, builder());
    roads::constructions(&g, &mut st, &plans, &mut NoLog);
    roads::month(&g, &mut st, &mut NoLog);
    st.lands[etruria as usize].owner = etruria;
    let pv = st.nations[roma as usize].pv;
    for _ in 0..8 {
        roads::month(&g, &mut st, &mut NoLog);
    }
    assert_eq!(st.roads.under_way[roma as usize], (0, 0));
    assert_eq!(st.nations[roma as usize].pv, pv);
    assert!(!st.roads.built.iter().any(|&b| b));
}

#[test]
fn only_a_policy_that_builds_roads_a_civilized_or_mixed_builder_at_home_lays_one() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let st = holding(&g, roma, etruria);
    let none = Scripted {
        roads_share: 0.0,
        ..Scripted::defaults()
    };
    assert_eq!(roads::next_road(&g, &st, roma, &none), None);
    assert_eq!(roads::next_road(&g, &st, roma, &Scripted::referee()), None);
    // Without the land between the two nodes there is nothing to build.
    assert_eq!(roads::next_road(&g, &g.start, roma, &builder()), None);
    // Away from home (its home taken) it builds nothing.
    let mut away = st.clone();
    away.lands[roma as usize].owner = etruria;
    assert_eq!(roads::next_road(&g, &away, roma, &builder()), None);
    // Barbarians build nothing but walls (L4108).
    let barbarian = (0..g.scenario.countries.len() as CountryId)
        .find(|&b| {
            g.culture[b as usize] == Culture::Barbarian
                && g.scenario.links(b).iter().any(|l| !l.sea && l.strait == 0)
        })
        .unwrap();
    let neighbour = g
        .scenario
        .links(barbarian)
        .iter()
        .find(|l| !l.sea && l.strait == 0)
        .unwrap()
        .to;
    let st = holding(&g, barbarian, neighbour);
    assert_eq!(roads::next_road(&g, &st, barbarian, &builder()), None);
    // Short of the policy's share of spare DEN or of stone, it waits.
    let mut poor = holding(&g, roma, etruria);
    poor.nations[roma as usize].stock[PIE] = 299;
    assert!(roads::next_road(&g, &poor, roma, &builder()).is_some());
    assert_eq!(roads::planned(&g, &poor, roma, &builder()), None);
}

#[test]
fn the_routes_after_random_roads_equal_a_fresh_dijkstra_and_every_path_costs_its_pm() {
    let g = scripted_game();
    let s = &g.scenario;
    let n = s.countries.len();
    let mut dice = Dice::from_seed(7);
    let candidates: Vec<usize> = (0..s.countries.len() as CountryId)
        .flat_map(|u| {
            s.links(u)
                .iter()
                .filter(move |l| !l.sea && l.strait == 0 && l.to > u)
                .map(move |l| link_index(s, u, l.to).unwrap())
        })
        .collect();
    assert!(candidates.len() > 100);
    let mut st = g.start.clone();
    for round in 0..40 {
        let i = candidates[dice.below(candidates.len() as u64) as usize];
        let (u, v) = (
            (0..n as CountryId)
                .find(|&u| link_index(s, u, s.links[i].to) == Some(i))
                .unwrap(),
            s.links[i].to,
        );
        // Lay it as a builder holding both ends would.
        let c = u;
        st.lands[v as usize].owner = c;
        st.lands[u as usize].owner = c;
        st.roads.under_way[c as usize] = (i as u32, 1);
        roads::month(&g, &mut st, &mut NoLog);
        assert!(st.roads.built[i], "round {round}");
        let want = fresh(&g, &st);
        for a in 0..n as CountryId {
            for b in 0..n as CountryId {
                let cost = st.roads.cost(&g, a, b);
                assert_eq!(cost, want.cost[a as usize * n + b as usize], "{a} -> {b}");
                let next = st.roads.next(&g, a, b);
                assert_eq!(next == UNREACHABLE, cost == u32::MAX);
                if next == UNREACHABLE {
                    continue;
                }
                // Following the first steps costs exactly the path's PM.
                let (mut at, mut walked) = (a, 0u32);
                while at != b {
                    let step = st.roads.next(&g, at, b) as CountryId;
                    walked += st.roads.leg(&g, at, step).unwrap();
                    at = step;
                }
                assert_eq!(walked, cost, "{a} -> {b} walked");
            }
        }
    }
    // The game's roadless tables are the same Dijkstra with no road.
    let roadless = land_routes(s, |_, i| leg_pm(s, &g.pm, i, false));
    assert_eq!(roadless.cost, g.cost);
    assert_eq!(roadless.next, g.next);
}

#[test]
fn an_army_marching_along_a_road_arrives_sooner() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let months_to_arrive = |road: bool| {
        let mut st = holding(&g, roma, etruria);
        if road {
            let i = link_index(&g.scenario, roma, etruria).unwrap();
            st.roads.under_way[roma as usize] = (i as u32, 1);
            roads::month(&g, &mut st, &mut NoLog);
        }
        // Etruria's own army marches home from Roma's node... the leg into Etruria is the one a
        // road halves: Etruria's troops standing in Roma walk back.
        let c = etruria;
        st.lands[etruria as usize].owner = etruria;
        st.nations[c as usize].at = roma;
        st.nations[c as usize].mission = Mission::Return;
        let mut months = 0;
        let plans = vec![Scripted::referee(); g.scenario.countries.len()];
        let mut dice = Dice::from_seed(1);
        while st.nations[c as usize].at != etruria && months < 12 {
            months += 1;
            // A summer month: no winter doubling.
            super::military::month(&g, &mut st, &plans, 5, &mut dice, &mut NoLog);
        }
        months
    };
    let (without, with) = (months_to_arrive(false), months_to_arrive(true));
    assert!(
        with < without,
        "with a road {with} months, without {without}"
    );
}

#[test]
fn a_policy_short_of_stone_buys_its_road_stone_at_the_black_market() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let mut st = holding(&g, roma, etruria);
    st.nations[roma as usize].stock[PIE] = 0;
    let plans = plans_with(&g, roma, builder());
    let den = st.nations[roma as usize].stock[DEN];
    super::trade::phase(&g, &mut st, &plans);
    // 300 stone at 10 DEN the ten (L967-L1013).
    assert!(st.nations[roma as usize].stock[PIE] >= 300);
    assert!(st.nations[roma as usize].stock[DEN] <= den - 300);
    roads::constructions(&g, &mut st, &plans, &mut NoLog);
    assert_eq!(st.roads.under_way[roma as usize].1, 6);
}
