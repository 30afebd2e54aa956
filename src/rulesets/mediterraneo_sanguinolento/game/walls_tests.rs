//! Tests of frontier walls (digest §4.7 row "Wall", rules §21.1.2bis L3816-L3818, §4.19 L4300;
//! `walls.rs`): a hex's price, month and row by hand, the frontier closed hex by hex and the
//! +2 PM it costs others (not its holder; none under option `wall_crossing = "none"`), which link
//! the policy walls, a hex lost with its node or paused by a siege, and whole games.

use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::pv;
use super::roads::link_index;
use super::scenario::{CountryId, DEN, PIE};
use super::state::State;
use super::walls::{self, CROSSING_PM, HEX_DEN, HEX_STONE};
use super::Game;
use crate::game::{GameModel, NoLog};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn builder() -> Scripted {
    Scripted {
        walls_share: 1.0,
        ..Scripted::defaults()
    }
}

fn plans_with(g: &Game, c: CountryId, p: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = p;
    plans
}

/// The start with `c` rich in DEN and stone.
fn rich(g: &Game, c: CountryId) -> State {
    let mut st = g.start.clone();
    st.nations[c as usize].stock[DEN] = 100_000;
    st.nations[c as usize].stock[PIE] = 100_000;
    st
}

#[test]
fn a_wall_hex_costs_150_den_and_100_stone_takes_a_month_and_scores_its_row() {
    assert_eq!(pv::WALL_HEX.pv, [1, 1, 1]);
    assert_eq!(pv::WALL_HEX.idr, [75, 50, 25]);
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let plans = plans_with(&g, roma, builder());
    let mut st = rich(&g, roma);
    let before = st.nations[roma as usize].clone();
    walls::constructions(&g, &mut st, &plans);
    let (i, months) = st.walls.under_way[roma as usize];
    assert_eq!(months, 1);
    let n = &st.nations[roma as usize];
    assert_eq!(n.stock[DEN], before.stock[DEN] - 150);
    assert_eq!(n.stock[PIE], before.stock[PIE] - 100);
    // Roma's shortest land link (no strait), every one a frontier at the start.
    let s = &g.scenario;
    let lo = s.link_start[roma as usize] as usize;
    let hi = s.link_start[roma as usize + 1] as usize;
    let fewest = (lo..hi)
        .filter(|&j| !s.links[j].sea && s.links[j].strait == 0)
        .map(|j| s.links[j].hexes)
        .min()
        .unwrap();
    assert_eq!(s.links[i as usize].hexes, fewest);
    // Only one hex under way: nothing more starts.
    walls::constructions(&g, &mut st, &plans);
    assert_eq!(
        st.nations[roma as usize].stock[DEN],
        before.stock[DEN] - 150
    );
    walls::month(&g, &mut st, &[false; 256], &mut NoLog);
    let n = &st.nations[roma as usize];
    assert_eq!(st.walls.hexes[i as usize], 1);
    assert_eq!((n.pv - before.pv, n.pv_by[pv::FORTIFICATION]), (1, 1));
    assert_eq!(n.idr - before.idr, 25);
    assert_eq!(st.counts.wall_hexes_built, 1);
    assert_eq!(st.walls.under_way[roma as usize].1, 0);
}

#[test]
fn a_closed_frontier_costs_other_armies_two_pm_and_its_holder_nothing() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let i = link_index(&g.scenario, roma, etruria).unwrap();
    assert_eq!(g.scenario.links[i].hexes, 3);
    let mut st = g.start.clone();
    let cross = |st: &State, who: CountryId, g: &Game| {
        walls::crossing(g, &st.walls, &st.lands, who, etruria, roma)
    };
    st.walls.hexes[i] = 2;
    assert!(!st.walls.closed(&g, i));
    assert_eq!(cross(&st, etruria, &g), 0, "a gap lets them through");
    st.walls.hexes[i] = 3;
    assert_eq!(cross(&st, etruria, &g), CROSSING_PM);
    assert_eq!(CROSSING_PM, 2);
    assert_eq!(cross(&st, roma, &g), 0, "the holder passes freely");
    // Leaving Roma towards Etruria crosses no wall of Etruria's.
    assert_eq!(
        walls::crossing(&g, &st.walls, &st.lands, roma, roma, etruria),
        0
    );
    // The wall stays with the land: Etruria holding Roma passes, Roma's army does not.
    st.lands[roma as usize].owner = etruria;
    assert_eq!(cross(&st, etruria, &g), 0);
    assert_eq!(cross(&st, roma, &g), CROSSING_PM);
    let none = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("wall_crossing = \"none\""),
    );
    let mut st = none.start.clone();
    st.walls.hexes[i] = 3;
    assert_eq!(cross(&st, etruria, &none), 0);
}

#[test]
fn the_policy_finishes_a_begun_frontier_before_starting_another_and_walls_inner_links_last() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let p = builder();
    let mut st = rich(&g, roma);
    let i = link_index(&g.scenario, roma, etruria).unwrap();
    st.walls.hexes[i] = 1;
    assert_eq!(walls::next_wall(&g, &st, roma, &p), Some(i));
    // Holding Etruria, the Roma - Etruria link is inner: a frontier goes first.
    st.lands[etruria as usize].owner = roma;
    let next = walls::next_wall(&g, &st, roma, &p).unwrap();
    let to = g.scenario.links[next].to;
    assert_ne!(st.lands[to as usize].owner, roma, "link {next} to {to}");
    // A closed link is not walled again.
    st.lands[etruria as usize].owner = etruria;
    st.walls.hexes[i] = 3;
    assert_ne!(walls::next_wall(&g, &st, roma, &p), Some(i));
}

#[test]
fn no_wall_without_the_share_the_money_or_the_stone_and_none_for_the_referee() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let st = rich(&g, roma);
    assert!(walls::planned(&g, &st, roma, &builder()).is_some());
    let none = Scripted {
        walls_share: 0.0,
        ..builder()
    };
    assert_eq!(walls::planned(&g, &st, roma, &none), None);
    assert_eq!(walls::planned(&g, &st, roma, &Scripted::referee()), None);
    let mut poor = st.clone();
    let keep = super::economy::den_to_keep(&g, &poor, roma, &builder());
    poor.nations[roma as usize].stock[DEN] = keep + HEX_DEN - 1;
    assert_eq!(walls::planned(&g, &poor, roma, &builder()), None);
    poor.nations[roma as usize].stock[DEN] = keep + HEX_DEN;
    assert!(walls::planned(&g, &poor, roma, &builder()).is_some());
    poor.nations[roma as usize].stock[PIE] = HEX_STONE - 1;
    assert_eq!(walls::planned(&g, &poor, roma, &builder()), None);
    // Half the spare DEN: 299 spare allows no hex, 300 one.
    let half = Scripted {
        walls_share: 0.5,
        ..builder()
    };
    let mut st = rich(&g, roma);
    st.nations[roma as usize].stock[DEN] = keep + 299;
    assert_eq!(walls::planned(&g, &st, roma, &half), None);
    st.nations[roma as usize].stock[DEN] = keep + 300;
    assert!(walls::planned(&g, &st, roma, &half).is_some());
}

#[test]
fn a_siege_pauses_the_hex_and_losing_its_node_loses_it() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let plans = plans_with(&g, roma, builder());
    let mut st = rich(&g, roma);
    walls::constructions(&g, &mut st, &plans);
    let (i, _) = st.walls.under_way[roma as usize];
    let mut besieged = [false; 256];
    besieged[roma as usize] = true;
    walls::month(&g, &mut st, &besieged, &mut NoLog);
    assert_eq!(st.walls.hexes[i as usize], 0);
    assert_eq!(st.walls.under_way[roma as usize].1, 1);
    let pv = st.nations[roma as usize].pv;
    st.lands[roma as usize].owner = etruria;
    walls::month(&g, &mut st, &[false; 256], &mut NoLog);
    assert_eq!(st.walls.hexes[i as usize], 0);
    assert_eq!(st.walls.under_way[roma as usize], (0, 0));
    assert_eq!(st.nations[roma as usize].pv, pv);
}

#[test]
fn whole_games_build_walls_and_keep_the_invariants() {
    let g = scripted_game();
    let col = g
        .game_columns()
        .iter()
        .position(|c| *c == "wall_hexes_built")
        .unwrap();
    let mut built = 0.0;
    play_checked(&g, 17, 20, "walls", |i, play, r| {
        let standing: u32 = play.st.walls.hexes.iter().map(|&h| h as u32).sum();
        assert_eq!(standing, play.st.counts.wall_hexes_built, "game {i}");
        assert_eq!(r.extra[col], standing as f64, "game {i}");
        built += r.extra[col];
    });
    assert!(built > 20.0, "{built} wall hexes in 20 games");
}
