//! Optional rule 8.3, free passage (digest §4.8, §3.3): the route through other players'
//! cities, the grant, the refusal answered by a cancel or by an attack on the refusing city, and
//! the interceptor that is refused and never attacks.

use super::decide::Way;
use super::game_tests::{game_with, RING};
use super::military::Plan;
use super::policy::{self, Policy};
use super::scenario::TROOP;
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::options::Options;
use crate::rulesets::imperios_del_mediterraneo::OPTIONS;

fn options(free_passage: bool) -> Options {
    let table: toml::Table = format!("free_passage = {free_passage}").parse().unwrap();
    Options::resolve(OPTIONS, crate::spec::Fields::new("test", &table)).unwrap()
}

/// Greedy players with these passage, θ and τ parameters.
fn game(free_passage: bool, passage: f64, theta: f64, tau: f64) -> Game {
    let mut g = game_with(RING, 4, policy::defaults("greedy"), &options(free_passage));
    for pol in g.policies.iter_mut() {
        if let Policy::Scripted(s) = pol {
            s.passage = passage;
            s.theta = theta;
            s.tau = tau;
        }
    }
    g
}

fn node(g: &Game, name: &str) -> usize {
    let s = &g.scenario;
    (0..s.map.nodes())
        .find(|&n| s.map.node_name(n) == name)
        .unwrap()
}

/// Set up, then player 1 (sector 1) holds harbour-1, player 2 all of sector 2 but its tribe,
/// player 3 hill-3: player 1's only way by land to hill-3 passes player 2's cities.
fn blocked(g: &Game, seed: u64) -> (Play<'_>, Dice) {
    let s = &g.scenario;
    let mut play = Play::new(g);
    let mut dice = Dice::for_trial(9, 0, seed);
    play.setup(&mut dice);
    play.st.transfer(s, node(g, "harbour-1"), 0);
    for name in ["capital-2", "harbour-2", "hill-2", "shrine-2"] {
        play.st.transfer(s, node(g, name), 1);
    }
    play.st.transfer(s, node(g, "hill-3"), 2);
    (play, dice)
}

fn way_to(play: &mut Play, target: usize) -> Option<Way> {
    let mut ways = [Way::default(); 64];
    let k = play.targets(0, &mut ways);
    ways[..k].iter().find(|w| w.node == target).copied()
}

/// A plan on `way` with player 1's troops.
fn with_troops(play: &Play, way: &Way) -> Plan {
    let s = play.s();
    let mut plan = way.plan();
    for &c in &play.st.players[0].hand {
        if super::military::is(s, 0, c, TROOP) && plan.cards.len() < 3 {
            plan.cards.push(c);
        }
    }
    plan
}

#[test]
fn a_route_through_others_only_under_8_3() {
    let off = game(false, 0.0, 0.6, 0.0);
    let (mut play, _) = blocked(&off, 0);
    assert_eq!(way_to(&mut play, node(&off, "hill-3")), None);
    let on = game(true, 0.0, 0.6, 0.0);
    let (mut play, _) = blocked(&on, 0);
    let way = way_to(&mut play, node(&on, "hill-3")).expect("offered under 8.3");
    assert!(!way.naval);
    // harbour-1 -> hill-2 and harbour-2 -> hill-3 are straits.
    assert_eq!(way.straits, 2);
    let t = way.through;
    assert!(t.n >= 2, "{t:?}");
    assert_eq!(t.cities[0] as usize, node(&on, "hill-2"));
    assert_eq!(t.straits[0], 1);
    for &c in &t.cities[..t.n as usize] {
        assert_eq!(play.st.owner[c as usize], 1);
    }
}

#[test]
fn granted_passage_goes_on_to_the_target() {
    let g = game(true, 30.0, 0.6, 0.0);
    let (mut play, mut dice) = blocked(&g, 1);
    let way = way_to(&mut play, node(&g, "hill-3")).unwrap();
    let plan = with_troops(&play, &way);
    assert_eq!(play.ask_passage(0, plan, &mut dice), Some(plan));
    play.expedition(0, plan, &mut dice, &mut NoLog);
    let c = &play.st.counts;
    // Player 2 owns every city passed: asked once.
    assert_eq!(
        (c.passages_granted, c.passages_refused, c.expeditions),
        (2, 0, 1)
    );
}

#[test]
fn refused_passage_cancels_or_attacks_the_refusing_city() {
    // Never granted, never worth attacking (θ = 1): cancelled, the cards stay in hand.
    let g = game(true, -30.0, 1.0, 0.0);
    let (mut play, mut dice) = blocked(&g, 2);
    let way = way_to(&mut play, node(&g, "hill-3")).unwrap();
    let plan = with_troops(&play, &way);
    let hand = play.st.players[0].hand.clone();
    play.expedition(0, plan, &mut dice, &mut NoLog);
    let c = &play.st.counts;
    assert_eq!(
        (c.passages_refused, c.refusals_cancelled, c.expeditions),
        (1, 1, 0)
    );
    assert_eq!(play.st.players[0].hand, hand);
    // Always worth attacking (θ = 0, τ = -10): the first refusing city, hill-2, over one
    // strait, with the same cards.
    let g = game(true, -30.0, 0.0, -10.0);
    let (mut play, mut dice) = blocked(&g, 2);
    let plan = with_troops(&play, &way);
    let attack = play.ask_passage(0, plan, &mut dice).expect("attacks");
    assert_eq!(attack.target, node(&g, "hill-2"));
    assert_eq!((attack.straits, attack.through.n), (1, 0));
    assert_eq!(attack.cards, plan.cards);
    assert_eq!(play.st.counts.refusals_attacked, 1);
    let (mut play, mut dice) = blocked(&g, 2);
    play.expedition(0, plan, &mut dice, &mut NoLog);
    assert_eq!(play.st.counts.expeditions, 1);
    assert_eq!(play.st.counts.empire_attacks_by[0], 1);
}

/// Player 2 defends shrine-1, a city of its own in player 1's sector that it reaches only
/// through player 1's harbour-1: refused by the attacker it stays home (it may never attack
/// the refusing city), granted it intercepts over the one strait.
#[test]
fn a_refused_interceptor_stays_home() {
    for (passage, intercepts) in [(-30.0, false), (30.0, true)] {
        let g = game(true, passage, 0.6, 0.0);
        let (mut play, mut dice) = blocked(&g, 3);
        let s = &g.scenario;
        let shrine = node(&g, "shrine-1");
        play.st.transfer(s, shrine, 1);
        play.st.players[1].hand = (0..35u8)
            .filter(|&c| super::military::is(s, 1, c, TROOP))
            .take(3)
            .collect();
        let plan = with_troops(
            &play,
            &Way {
                node: shrine,
                ..Way::default()
            },
        );
        let d = play.choose_defence(1, shrine, Some((0, &plan)), &mut dice);
        assert_eq!(!d.intercept.is_empty(), intercepts, "passage {passage}");
        assert_eq!(play.st.counts.interceptions_refused, !intercepts as u32);
        if intercepts {
            assert_eq!(d.straits, 1);
        }
    }
}
