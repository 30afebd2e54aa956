//! A-24's two readings (rule option `interception_timing`): the defender's interceptions
//! decided as the expedition reaches each point, against both committed when it is declared.
//! The game's own point-by-point play agrees with its exact twin (the calculator's chain walked
//! to each point, the defender's own decision taken on each state reached, the chain from there
//! on), the two readings give different chances, each kind of interception is used at most once,
//! a bad value is an input error, and games under each reading end with every card conserved.

use super::decide::Way;
use super::game_tests::{check, game_with, RING};
use super::military::{self, Defence, Plan};
use super::policy::{Policy, Style};
use super::reached::Reach;
use super::scenario::{FLEET, TROOP};
use super::state::NEUTRAL;
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use crate::options::Options;
use crate::rulesets::imperios_del_mediterraneo::expedition::Point;
use crate::rulesets::imperios_del_mediterraneo::OPTIONS;

fn timing(value: &str) -> Options {
    let table: toml::Table = format!("interception_timing = \"{value}\"")
        .parse()
        .unwrap();
    Options::resolve(OPTIONS, crate::spec::Fields::new("test", &table)).unwrap()
}

/// A 4-player ring of P2 turtles with this delta, omniscient (the defender sees the cards).
fn turtles(delta: f64, value: &str) -> Game {
    let mut policy = super::policy::defaults("turtle");
    if let Policy::Scripted(g) = &mut policy {
        g.style = Style::Turtle { delta, stack: 0 };
    }
    let mut g = game_with(RING, 4, policy, &timing(value));
    g.omniscient = true;
    g
}

/// An expedition by sea of player 1 on another empire's city, with two fleets and the troops
/// they carry (at most 4), whose fleets' assault factors are below the city's size (it lands),
/// the city without fortification markers (so the attacker has a fair chance), the defender
/// holding troops and fleets: the first setup (by seed) that has one, and the plan.
fn by_sea(g: &Game) -> (Play<'_>, Plan, usize) {
    let s = &g.scenario;
    for seed in 0..200 {
        let mut play = Play::new(g);
        let mut dice = Dice::for_trial(23, 0, seed);
        play.setup(&mut dice);
        let mut targets = [Way::default(); 64];
        let k = play.targets(0, &mut targets);
        let Some(way) = targets[..k].iter().find(|w| {
            w.naval && !w.march && {
                let o = play.st.owner[w.node];
                o != NEUTRAL && o != 0
            }
        }) else {
            continue;
        };
        let q = play.st.owner[way.node] as usize;
        let hand = &play.st.players[q].hand;
        let has = |t| hand.iter().any(|&c| military::is(s, q, c, t));
        if !has(TROOP) || !has(FLEET) {
            continue;
        }
        let mut plan = way.plan();
        plan.straits = 0;
        let (mut troops, mut room) = (0, 0);
        for &c in &play.st.players[0].hand {
            if military::is(s, 0, c, FLEET) && room < 4 {
                plan.cards.push(c);
                let d = &s.decks[s.empires[0].deck];
                room += d.kinds[d.cards[c as usize] as usize].naval.as_count();
            }
        }
        for &c in &play.st.players[0].hand.clone() {
            if military::is(s, 0, c, TROOP) && troops < room.min(4) {
                plan.cards.push(c);
                troops += 1;
            }
        }
        let size = s.map.cities[way.node].size;
        if troops >= 2
            && !military::fleets_reach_size(s, s.empires[0].deck, plan.cards.as_slice(), size)
        {
            play.st.markers[way.node] = 0;
            return (play, plan, q);
        }
    }
    panic!("no expedition by sea on an empire's city in 200 set-ups");
}

/// The defender reaches the sea and the arrival without a strait, not the departure port.
const SEA_AND_ARRIVAL: Reach = (0, u8::MAX, 0);

/// The exact P(success) of the as-reached play: the chain walked to the sea, the defender's own
/// naval decision on each state there, the chain on to the arrival, its own land decision on
/// each state there (if the expedition lands), the chain from there on. Also how many landing
/// states it intercepts at and lets pass.
fn exact_as_reached(play: &mut Play, q: usize, plan: &Plan, base: &Defence) -> (f64, [u32; 2]) {
    let s = &play.game.scenario;
    let o = &play.game.rules.options;
    let mut dice = Dice::for_trial(0, 0, 0); // the scripted decisions roll no dice
    let e = play.cache.built(s, &play.st, o, 0, plan, base);
    let at_sea = e.reaching(e.whole(), Point::Start, Point::Sea);
    let (mut p, mut decided) = (0.0, [0u32; 2]);
    for (w, r, _) in at_sea {
        let fleets =
            play.interceptor_at(q, 0, plan, Point::Sea, r, SEA_AND_ARRIVAL, base, &mut dice);
        let d1 = Defence {
            naval: fleets,
            ..*base
        };
        let arrivals =
            play.cache
                .built(s, &play.st, o, 0, plan, &d1)
                .reaching(r, Point::Sea, Point::Arrival);
        for (w2, r2, _) in arrivals {
            let mut d2 = d1;
            if r2.lands {
                let troops = play.interceptor_at(
                    q,
                    0,
                    plan,
                    Point::Arrival,
                    r2,
                    SEA_AND_ARRIVAL,
                    &d1,
                    &mut dice,
                );
                decided[troops.is_empty() as usize] += 1;
                d2.intercept = troops;
            }
            let e = play.cache.built(s, &play.st, o, 0, plan, &d2);
            p += w * w2 * e.chance_and_vp_from(r2, Point::Arrival).0;
        }
    }
    (p, decided)
}

fn within_5_se(exact: f64, wins: u32, n: u32, case: &str) {
    let sim = wins as f64 / n as f64;
    let se = (exact * (1.0 - exact) / n as f64).sqrt().max(1e-9);
    assert!(
        (sim - exact).abs() <= 5.0 * se,
        "{case}: simulated {sim} vs exact {exact} (se {se})"
    );
}

/// (a) With a P2 defender whose delta makes its land interception at the arrival depend on the
/// naval battle (it intercepts on some landing states, not on others), the game's point-by-point
/// play agrees with its exact twin within 5 SE, and so does the at-declaration play (both
/// interceptions committed when declared, P2's test on the whole chain) with its exact chain;
/// the two readings' exact chances differ (by more than a fifth at some delta).
#[test]
fn as_reached_play_agrees_with_its_exact_twin_and_differs_from_declaration() {
    const N: u32 = 20_000;
    let mut checked = 0;
    let mut tried = Vec::new();
    let mut differ = Vec::new();
    for step in 1..=60 {
        if checked == 3 {
            break;
        }
        let delta = step as f64 / 100.0;
        let g = turtles(delta, "as-reached");
        let (mut play, plan, q) = by_sea(&g);
        let s = &g.scenario;
        let o = &g.rules.options;
        let mut dice = Dice::for_trial(1, 0, 0);
        let base = Defence {
            defence: play.defence_cards(q, &mut dice),
            ..Defence::default()
        };
        let (exact, decided) = exact_as_reached(&mut play, q, &plan, &base);
        tried.push((delta, decided));
        if decided[0] == 0 || decided[1] == 0 {
            continue; // the land decision does not depend on the naval battle at this delta
        }
        let saved = play.st.clone();
        let mut wins = 0;
        for i in 0..N {
            play.st = saved.clone();
            let mut dice = Dice::for_trial(29, 1, i as u64);
            let mut d = base;
            let r = play.play_as_reached(0, q, &plan, &mut d, Some(SEA_AND_ARRIVAL), &mut dice);
            wins += r.failed.is_none() as u32;
        }
        play.st = saved;
        within_5_se(exact, wins, N, &format!("as-reached, delta {delta}"));
        // At declaration: the strongest troops and fleets, both kept only if P2's test passes.
        let mut declared = base;
        let hand = play.st.players[q].hand.clone();
        let g_max = match g.policies[q] {
            Policy::Scripted(g) => g.max_cards as usize,
            _ => unreachable!(),
        };
        let mut sorted = military::Cards::default();
        military::strongest_first(s, q, &hand, TROOP, false, &mut sorted);
        for &c in sorted.as_slice().iter().take(g_max) {
            declared.intercept.push(c);
        }
        military::strongest_at_sea(s, q, &hand, &mut sorted);
        for &c in sorted.as_slice().iter().take(g_max) {
            declared.naval.push(c);
        }
        if !play.interception_pays(0, &plan, &declared, delta) {
            declared.intercept = military::Cards::default();
            declared.naval = military::Cards::default();
        }
        let (at_declaration, _) = play.cache.chance(s, &play.st, o, 0, &plan, &declared);
        let mut wins = 0;
        for i in 0..N {
            let mut dice = Dice::for_trial(31, 1, i as u64);
            let r = play
                .cache
                .play(s, &play.st, o, 0, &plan, &declared, &mut dice);
            wins += r.failed.is_none() as u32;
        }
        within_5_se(
            at_declaration,
            wins,
            N,
            &format!("at declaration, delta {delta}"),
        );
        // Both are exact: a relative gap of a fifth is a different answer, not noise.
        let gap = (exact - at_declaration).abs() / at_declaration.max(1e-12);
        differ.push((delta, exact, at_declaration, gap > 0.2));
        checked += 1;
    }
    assert!(
        checked > 0,
        "no delta made the land decision depend on the naval battle: (delta, [landing states intercepted, let pass]) {tried:?}"
    );
    assert!(
        differ.iter().any(|d| d.3),
        "(delta, as reached, at declaration, differ by a fifth) {differ:?}"
    );
}

/// (b) At most one land and one naval interception per expedition under `as-reached`: random
/// defenders that may intercept at the departure port, at sea and at the arrival (no straits)
/// lose from their hands exactly the cards of the one land and the one naval interceptor the
/// expedition carries at its end (a second land interception would lose the first one's cards),
/// and both land points and the sea are used across expeditions.
#[test]
fn as_reached_uses_each_kind_of_interception_at_most_once() {
    let g = game_with(RING, 4, Policy::Random, &timing("as-reached"));
    let (mut play, plan, q) = by_sea(&g);
    let saved = play.st.clone();
    let mut used = [0u32; 3];
    for i in 0..3000 {
        play.st = saved.clone();
        let before: Vec<u8> = play.st.players[q].hand.clone();
        let mut d = Defence::default();
        let mut dice = Dice::for_trial(37, 0, i);
        play.play_as_reached(0, q, &plan, &mut d, Some((0, 0, 0)), &mut dice);
        let mut gone: Vec<u8> = before
            .iter()
            .copied()
            .filter(|c| !play.st.players[q].hand.contains(c))
            .collect();
        let mut sent: Vec<u8> = d
            .intercept
            .as_slice()
            .iter()
            .chain(d.naval.as_slice())
            .copied()
            .collect();
        gone.sort_unstable();
        sent.sort_unstable();
        assert_eq!(gone, sent, "trial {i}: {d:?}");
        used[0] += (!d.intercept.is_empty() && d.land_first) as u32;
        used[1] += (!d.intercept.is_empty() && !d.land_first) as u32;
        used[2] += !d.naval.is_empty() as u32;
    }
    // Most expeditions assault straight from the ships at the arrival: fewer land there.
    assert!(used[0] > 100 && used[1] > 0 && used[2] > 100, "{used:?}");
}

/// (c) A bad value is an input error naming the field and the allowed values (exit code 2).
#[test]
fn a_bad_interception_timing_is_an_input_error() {
    let table: toml::Table = "interception_timing = \"later\"".parse().unwrap();
    let e = Options::resolve(OPTIONS, crate::spec::Fields::new("exp.toml", &table))
        .err()
        .unwrap();
    let msg = e.to_string();
    assert_eq!(e.exit_code(), 2);
    assert!(
        msg.contains("interception_timing")
            && msg.contains("as-reached")
            && msg.contains("at-declaration")
            && msg.contains("later")
            && !msg.contains('\n'),
        "{msg}"
    );
    assert_eq!(
        Options::defaults(OPTIONS).choice("interception_timing"),
        "as-reached",
        "A-24's recommended reading is the default"
    );
}

/// (d) Games of random, greedy and P2 players under each reading end, with every card and
/// marker conserved, and intercept at sea and on land.
#[test]
fn games_under_each_reading_end_and_conserve_cards() {
    for value in ["as-reached", "at-declaration"] {
        let mut intercepted = 0;
        for (k, policy) in [
            Policy::Random,
            super::policy::defaults("greedy"),
            super::policy::defaults("turtle"),
        ]
        .into_iter()
        .enumerate()
        {
            for n in [3, 5] {
                let g = game_with(RING, n, policy, &timing(value));
                assert_eq!(g.rules.intercept_as_reached, value == "as-reached");
                let mut play = Play::new(&g);
                let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
                for i in 0..100 {
                    let mut dice = Dice::for_trial(41, (k * 10 + n) as u64, i);
                    record.clear();
                    play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
                    check(&play, &record);
                    intercepted += play.st.counts.naval_interceptions;
                }
            }
        }
        assert!(intercepted > 0, "{value}: no interception at sea");
    }
}
