//! What the greedy player keeps or builds in steps to decide faster gives what it would compute
//! from scratch: an expedition's cache key grown card by card, hands sorted by the decks'
//! strength ranks, the defences predicted and the land reach kept across decisions.

use super::game_tests::{game_with, options, RING};
use super::military::{self, Cards};
use super::policy::{self, Policy};
use super::scenario::{CITY_DEFENCE, FLEET, TROOP};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{NoLog, NoObserver};

fn greedy_game(n: usize) -> Game {
    game_with(RING, n, policy::defaults("greedy"), &options())
}

/// A greedy game on `n` seats played turn by turn; `at_turn` sees the worker between turns
/// (its kept predictions and reach are those the game's own decisions left).
fn each_turn(g: &Game, games: u64, mut at_turn: impl FnMut(&mut Play)) {
    let mut play = Play::new(g);
    for i in 0..games {
        let mut dice = Dice::for_trial(11, 0, i);
        play.setup(&mut dice);
        play.st.first = 0;
        loop {
            at_turn(&mut play);
            let turn = play.st.turn;
            if play.play_on(false, turn, &mut dice, &mut NoObserver, &mut NoLog) {
                break;
            }
            play.st.turn += 1;
        }
        at_turn(&mut play);
    }
}

/// The key of a plan built from its bare key plus its Troop and Fleet cards one by one is the
/// plan's own key, whatever the cards, their order, the target and the defence.
#[test]
fn a_key_grown_card_by_card_is_the_plans_key() {
    let g = greedy_game(4);
    let s = &g.scenario;
    let mut checked = 0;
    each_turn(&g, 20, |play| {
        let mut targets = [super::decide::Way::default(); 64];
        let k = play.targets(0, &mut targets);
        let hand = play.st.players[0].hand.clone();
        for way in &targets[..k] {
            let target = way.node;
            let defence = play.predicted_defence(
                target,
                &match play.pol[1] {
                    Policy::Scripted(g) => g,
                    _ => unreachable!("greedy"),
                },
            );
            let mut plan = way.plan();
            for &c in &hand {
                if military::is(s, 0, c, military::LEADER_TYPE) && plan.leaders.is_empty() {
                    plan.leaders.push(c);
                }
            }
            let mut grown = super::key::key_without_cards(s, &play.st, 0, &plan, &defence);
            // Cards added in reverse hand order, the plan lists them in hand order.
            for &c in hand.iter().rev() {
                super::key::add_card(s, 0, &mut grown, c);
            }
            for &c in &hand {
                plan.cards.push(c);
            }
            let whole = super::key::key(s, &play.st, 0, &plan, &defence, play.st.weather, true);
            assert_eq!(grown, whole, "{plan:?} against {defence:?}");
            checked += 1;
        }
    });
    assert!(checked > 500, "{checked} plans checked");
}

/// `strongest_first` is a sort by strength (dice 3.5 each), strongest first, equals by card
/// index, cut at MAX_PLAN: checked on the whole deck (19 Troop cards) and on hands.
#[test]
fn strongest_first_sorts_by_strength_then_card() {
    let g = greedy_game(2);
    let s = &g.scenario;
    let deck_len = s.decks[s.empires[0].deck].cards.len() as u8;
    let whole: Vec<u8> = (0..deck_len).rev().collect();
    let mut dice = Dice::for_trial(5, 0, 0);
    let mut lists = vec![whole];
    for _ in 0..200 {
        let mut cards: Vec<u8> = (0..deck_len).collect();
        super::state::shuffle(&mut dice, &mut cards);
        cards.truncate(dice.below(deck_len as u64) as usize);
        lists.push(cards);
    }
    for cards in &lists {
        for assault in [false, true] {
            let mut expected: Vec<u8> = cards
                .iter()
                .copied()
                .filter(|&c| military::is(s, 0, c, TROOP))
                .collect();
            expected.sort_by(|&a, &b| {
                military::strength(s, 0, b, assault)
                    .total_cmp(&military::strength(s, 0, a, assault))
                    .then(a.cmp(&b))
            });
            expected.truncate(military::MAX_PLAN);
            let mut got = Cards::default();
            military::strongest_first(s, 0, cards, TROOP, assault, &mut got);
            assert_eq!(
                got.as_slice(),
                &expected[..],
                "{cards:?}, assault {assault}"
            );
        }
    }
    let mut all = Cards::default();
    military::strongest_first(s, 0, &lists[0], TROOP, false, &mut all);
    assert_eq!(
        all.len(),
        military::MAX_PLAN,
        "19 Troop cards, the strongest 16 kept"
    );
}

/// The defence a greedy player predicts from a kept prediction is the one a worker that never
/// predicted anything computes, state after state of whole games (2 and 5 seats, hidden hands).
#[test]
fn kept_predicted_defences_are_computed_ones() {
    for n in [2, 5] {
        let g = greedy_game(n);
        let s = &g.scenario;
        let mut fresh = Play::new(&g);
        let (mut kept_hits, mut checked) = (0, 0);
        each_turn(&g, 30, |play| {
            for p in 0..n {
                let Policy::Scripted(rule) = play.pol[p] else {
                    unreachable!("greedy")
                };
                for city in 0..s.map.cities.len() {
                    let q = play.st.owner[city];
                    if q == super::state::NEUTRAL || q as usize == p {
                        continue;
                    }
                    let before = play.predicted[q as usize].clone();
                    let kept = play.predicted_defence(city, &rule);
                    fresh.st.clone_from(&play.st);
                    fresh.predicted = vec![Default::default(); n];
                    let computed = fresh.predicted_defence(city, &rule);
                    assert_eq!(
                        kept, computed,
                        "seat {p} predicting seat {q} at city {city}"
                    );
                    kept_hits += before
                        .kept(&play.shown(q as usize, rule.max_cards))
                        .is_some() as u32;
                    checked += 1;
                }
            }
        });
        assert!(
            checked > 500 && kept_hits > 100,
            "{n} seats: {kept_hits} of {checked}"
        );
    }
}

/// The estimate of another player's hidden cards, taken from each kind's cards as bits, takes
/// the cards the walk over the card lists it replaced takes: each kind's share of the cards not
/// discarded (largest remainders), the first of them in card order, kinds in deck order or
/// strongest first; every seat, type and count on the states of greedy games (5 seats).
#[test]
fn an_estimate_by_bits_is_the_list_walk() {
    let g = greedy_game(5);
    let s = &g.scenario;
    let reference = |st: &super::state::State, q: usize, t: u8, k: usize, best: bool| {
        let deck = &s.decks[s.empires[q].deck];
        let discard = &st.players[q].discard;
        let kinds = deck.kinds.len();
        let left = |kind: usize| {
            deck.by_kind[kind]
                .iter()
                .filter(|&&c| !discard.contains(&c))
        };
        let count: Vec<u32> = (0..kinds)
            .map(|i| {
                if deck.kinds[i].is(t) {
                    left(i).count() as u32
                } else {
                    0
                }
            })
            .collect();
        let total: u32 = count.iter().sum();
        let k = k.min(total as usize) as u32;
        let mut out: Vec<u8> = Vec::new();
        if k == 0 {
            return out;
        }
        let mut take: Vec<u32> = count.iter().map(|&c| c * k / total).collect();
        while take.iter().sum::<u32>() < k {
            let i = (0..kinds)
                .filter(|&i| take[i] < count[i])
                .max_by_key(|&i| ((count[i] * k) % total, std::cmp::Reverse(i)))
                .expect("a kind with cards left");
            take[i] += 1;
        }
        let order: Vec<usize> = if best {
            deck.by_field_strength.clone()
        } else {
            (0..kinds).collect()
        };
        for kind in order {
            out.extend(left(kind).take(take[kind] as usize));
        }
        out
    };
    let mut checked = 0;
    each_turn(&g, 10, |play| {
        for q in 0..5 {
            for t in [TROOP, FLEET, CITY_DEFENCE] {
                for k in 0..6 {
                    for best in [false, true] {
                        let mut out = Cards::default();
                        play.estimate(q, t, k, best, &mut out);
                        let expected = reference(&play.st, q, t, k, best);
                        assert_eq!(out.as_slice(), expected, "seat {q}, type {t}, {k} cards");
                        checked += (!expected.is_empty()) as u32;
                    }
                }
            }
        }
    });
    assert!(checked > 1000, "{checked} estimates checked");
}

/// The key holds the weather only where the land legs cross straits: elsewhere the exact chain
/// gives the same chance and VP in every weather (each computed by a cache of its own), and
/// where they cross some the weather changes them.
#[test]
fn the_weather_reads_only_in_straits() {
    use crate::rulesets::imperios_del_mediterraneo::strait::Weather;
    let g = greedy_game(4);
    let s = &g.scenario;
    let options = &g.rules.options;
    let (mut without, mut with) = (0, 0);
    each_turn(&g, 5, |play| {
        let mut targets = [super::decide::Way::default(); 64];
        let k = play.targets(0, &mut targets);
        let hand = play.st.players[0].hand.clone();
        for way in &targets[..k] {
            let mut plan = way.plan();
            for &c in &hand {
                if military::is(s, 0, c, TROOP) || (way.naval && military::is(s, 0, c, FLEET)) {
                    plan.cards.push(c);
                }
            }
            if plan.cards.is_empty() {
                continue;
            }
            let defence = military::Defence::default();
            let odds = |weather: Weather| {
                let mut st = play.st.clone();
                st.weather = weather;
                military::Cache::default().chance(s, &st, options, 0, &plan, &defence)
            };
            let normal = odds(Weather::Normal);
            for weather in [Weather::Good, Weather::Bad] {
                if plan.straits == 0 {
                    assert_eq!(odds(weather), normal, "{plan:?} in {weather:?} weather");
                    without += 1;
                } else {
                    with += (odds(weather) != normal) as u32;
                }
            }
        }
    });
    assert!(
        without > 100 && with > 10,
        "{without} without straits, {with} with"
    );
}

/// A predicted defence is kept while what the defender shows is the same as sets: its hand and
/// draw pile reordered, the kept defence is the one a worker that never predicted computes.
#[test]
fn a_reordered_hand_keeps_its_predicted_defence() {
    let g = greedy_game(4);
    let s = &g.scenario;
    let mut fresh = Play::new(&g);
    let mut checked = 0;
    each_turn(&g, 10, |play| {
        let Policy::Scripted(rule) = play.pol[0] else {
            unreachable!("greedy")
        };
        for q in 1..4 {
            let capital = s.empires[q].capital;
            if play.st.owner[capital] as usize != q {
                continue;
            }
            let before = play.predicted_defence(capital, &rule);
            let pl = &mut play.st.players[q];
            pl.hand.reverse();
            pl.draw.reverse();
            let shown = play.shown(q, rule.max_cards);
            assert!(play.predicted[q].kept(&shown).is_some(), "seat {q}");
            fresh.st.clone_from(&play.st);
            fresh.predicted = vec![Default::default(); 4];
            assert_eq!(before, fresh.predicted_defence(capital, &rule), "seat {q}");
            assert_eq!(before, play.predicted_defence(capital, &rule), "seat {q}");
            let pl = &mut play.st.players[q];
            pl.hand.reverse();
            pl.draw.reverse();
            checked += 1;
        }
    });
    assert!(checked > 50, "{checked} predictions checked");
}

/// A player's land reach, departure port and marches kept while no city and no area changed
/// are those computed anew (the marches computed only when the player's own decision asks for
/// them: after a defender's check of its ports they are still the current reach's).
#[test]
fn kept_land_reach_is_computed_reach() {
    let g = greedy_game(4);
    let nodes = g.scenario.map.nodes();
    let mut fresh = Play::new(&g);
    let mut checked = 0;
    each_turn(&g, 30, |play| {
        for p in 0..4 {
            // Another's decision may have asked for p's departure port alone.
            play.compute_departure(p);
            play.compute_reach(p);
            fresh.st.clone_from(&play.st);
            fresh.reach_from = vec![Default::default(); 4];
            fresh.compute_reach(p);
            let range = p * nodes..(p + 1) * nodes;
            assert_eq!(
                play.reach[range.clone()],
                fresh.reach[range.clone()],
                "seat {p}"
            );
            assert_eq!(play.march[range.clone()], fresh.march[range], "seat {p}");
            assert_eq!(
                (play.sea_from[p], play.departure[p]),
                (fresh.sea_from[p], fresh.departure[p]),
                "seat {p}"
            );
            checked += 1;
        }
    });
    assert!(checked > 400, "{checked} reaches checked");
}

/// The land reach's list search gives the counts of the reference: every node re-scanned until
/// none changes (the search it replaced), from every seat's capital and every own city, on the
/// states greedy games pass through (cities changing hands, areas pacified), 8 seats.
#[test]
fn land_reach_is_the_rescan_reference() {
    let g = greedy_game(8);
    let s = &g.scenario;
    let nodes = s.map.nodes();
    let reference = |st: &super::state::State, p: usize, from: usize| -> Vec<u8> {
        let mut reach = vec![u8::MAX; nodes];
        reach[from] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for n in 0..nodes {
                let d = reach[n];
                if d == u8::MAX || !st.passable(s, p, n, from) {
                    continue;
                }
                for &(m, kind) in &s.map.adjacent[n] {
                    let nd = d + (kind == super::scenario::EdgeKind::Strait) as u8;
                    if nd < reach[m] {
                        reach[m] = nd;
                        changed = true;
                    }
                }
            }
        }
        reach
    };
    let (mut checked, mut straits) = (0, 0);
    each_turn(&g, 20, |play| {
        for p in 0..8 {
            let froms: Vec<usize> = (0..s.map.cities.len())
                .filter(|&c| play.st.owner[c] as usize == p || c == s.empires[p].capital)
                .collect();
            for from in froms {
                let expected = reference(&play.st, p, from);
                play.st.land_reach(s, p, from);
                assert_eq!(play.st.reach, expected, "seat {p} from {from}");
                straits += expected.iter().filter(|&&r| r > 0 && r != u8::MAX).count();
                checked += 1;
            }
        }
    });
    assert!(
        checked > 400 && straits > 0,
        "{checked} reaches, {straits} nodes past a strait"
    );
}

/// A scripted player's kept scan is the scan a worker that kept nothing makes, between the
/// turns of whole games (greedy and aggressor, whose bonus reads the VP; 3 and 6 seats, hidden
/// hands); the games' own decisions (test builds scan anyway and assert every kept scan equal)
/// keep some scans, so those checks ran.
#[test]
fn kept_scans_are_fresh_scans() {
    for kind in ["greedy", "aggressor"] {
        for n in [3, 6] {
            let g = game_with(RING, n, policy::defaults(kind), &options());
            let mut fresh = Play::new(&g);
            let (mut checked, mut hits) = (0, 0);
            each_turn(&g, 30, |play| {
                for p in 0..n {
                    let Policy::Scripted(rule) = play.pol[p] else {
                        unreachable!("{kind} is scripted")
                    };
                    let kept = play.greedy_plan(p, &rule);
                    fresh.st.clone_from(&play.st);
                    assert_eq!(
                        kept,
                        fresh.scan(p, &rule, None),
                        "{kind}, {n} seats: seat {p}"
                    );
                    checked += 1;
                }
                hits = play.kept_scan_hits;
            });
            assert!(
                checked > 300 && hits > 50,
                "{kind}, {n} seats: {checked} checked, {hits} kept"
            );
        }
    }
}

/// The worker's kept target outcomes (`kept_outcomes.rs`) are the ones computed afresh: test
/// builds compute each anyway and assert it equal to the kept one. Whole games of each scripted
/// style and of mixed seats (several policies in one table, the aggressor's bonus classes) keep
/// many, so those checks ran.
#[test]
fn kept_target_outcomes_are_computed_ones() {
    for kind in ["greedy", "turtle", "aggressor", "mixture"] {
        let g = game_with(RING, 5, policy::defaults(kind), &options());
        let (mut first, mut last) = (None, 0);
        each_turn(&g, 30, |play| {
            let hits = play.cache.outcomes.hits;
            first.get_or_insert(hits);
            last = hits;
        });
        let hits = last - first.expect("a turn");
        assert!(hits > 200, "{kind}: {hits} kept outcomes");
    }
}

/// A table of outcomes tells apart at most `MAX_POLICIES` sets of parameters: one more empties
/// it (a slot names its policy by its place in the list, which then starts again), and a budget
/// past what a key holds is never kept.
#[test]
fn a_new_policy_past_the_list_empties_the_outcomes() {
    use super::kept_outcomes::{Outcomes, MAX_KEPT_COUNT, MAX_POLICIES};
    let Policy::Scripted(g) = policy::defaults("greedy") else {
        unreachable!("greedy is scripted")
    };
    let with_theta = |i: usize| policy::Scripted {
        theta: i as f64 / 100.0,
        ..g
    };
    let mut t = Outcomes::default();
    for i in 0..MAX_POLICIES {
        assert_eq!(t.policy(&with_theta(i), 4), Some(i as u8));
    }
    assert_eq!(
        t.policy(&with_theta(3), 4),
        Some(3),
        "a known one keeps its place"
    );
    assert_eq!(t.policy(&with_theta(MAX_POLICIES), 4), Some(0));
    assert_eq!(
        t.policy(&with_theta(0), 4),
        Some(1),
        "the list started again"
    );
    assert_eq!(t.policy(&g, MAX_KEPT_COUNT as u32 + 1), None);
    // A worker's table filled by greedy games is emptied by new parameters past the list.
    let mut emptied = false;
    each_turn(&greedy_game(4), 3, |play| {
        let t = &mut play.cache.outcomes;
        if emptied || t.filled() == 0 {
            return;
        }
        for i in 0..=MAX_POLICIES {
            t.policy(&with_theta(1000 + i), 4);
        }
        assert_eq!(t.filled(), 0);
        emptied = true;
    });
    assert!(emptied, "no outcome kept in three games");
}
