//! Tests of the search player: with no budget it plays its rollout policy's moves exactly, each
//! directive reaches the game where it says, a decision reads the game's next word without
//! drawing it (a search with a default), and ladders with a search rung do not depend on the thread count.

use super::economy;
use super::fleets;
use super::game_tests::{country, scripted_game};
use super::mercenaries;
use super::military;
use super::policy::{Directive, Policy, Scripted, CATALOG, HIGHEST_BID, RAISED_BID};
use super::roads;
use super::scenario::{DEN, PIE};
use super::search::{candidates, partner_to_hire, Rollouts};
use super::state::{Mission, State};
use super::turn::Play;
use super::works;
use super::Game;
use crate::dice::Dice;
use crate::game::experiment::GameExperiment;
use crate::game::ladder::{ladder, LadderSettings};
use crate::game::search::{SearchSpec, Searchable, Searcher};
use crate::game::{GamePlay, GameRecord, NoLog, NoObserver, TextLog};
use std::time::Instant;

const TUNED: &str = "experiments/tuned/mediterraneo-sanguinolento.toml";

/// The bundled scenario with every major on the shipped tuned policies.
fn tuned_game() -> Game {
    let mut g = scripted_game();
    let text = std::fs::read_to_string(TUNED).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let policies = table["policies"].as_table().unwrap();
    let keys = crate::game::summary::player_keys(&g.players);
    for (p, key) in keys.iter().enumerate() {
        let chosen = CATALOG.parse(TUNED, key, &policies[key]).unwrap();
        g.policies[g.majors[p] as usize] = chosen.policy.policy;
    }
    g
}

/// Plays `games` whole games, their logs and records.
fn played(g: &Game, games: u64) -> Vec<(Vec<String>, Vec<f64>, u32)> {
    let mut play = Play::new(g);
    (0..games)
        .map(|i| {
            let mut dice = Dice::for_trial(4, 0, i);
            let mut log = TextLog::default();
            let mut record = GameRecord::new(g.players.len(), g.columns.len());
            play.play(&mut dice, &mut record, &mut NoObserver, &mut log);
            let mut out = record.score.clone();
            out.extend(&record.extra);
            (log.lines, out, record.turns)
        })
        .collect()
}

#[test]
fn with_no_budget_the_search_player_plays_its_rollout_policys_moves_exactly() {
    let tuned = tuned_game();
    let mut searching = tuned_game();
    searching.search = vec![
        Some(SearchSpec {
            budget: 0,
            horizon: 6,
            margin: Some(2.0),
            confirm: 0
        });
        searching.majors.len()
    ];
    let (a, b) = (played(&tuned, 3), played(&searching, 3));
    assert_eq!(a, b);
    assert!(a.iter().all(|(lines, _, _)| lines.len() > 100));
    // Macedonia's tuned numbers differ from the defaults: the rollout policy really is the tuned one.
    let mac = country(&tuned, "Macedonia") as usize;
    assert_ne!(tuned.policies[mac], Policy::Scripted(Scripted::defaults()));
}

/// States at the start of turns 2..=`turns` of scripted games (before the searcher's decision).
fn states(g: &Game, games: u64, turns: u32) -> Vec<State> {
    let mut play = Play::without_search(g);
    let mut out = Vec::new();
    for i in 0..games {
        let mut dice = Dice::for_trial(8, 0, i);
        play.st.clone_from(&g.start);
        for turn in 1..=turns {
            play.st.turn = turn;
            if turn > 1 {
                out.push(play.st.clone());
            }
            play.play_turn(turn, &mut dice, &mut NoLog);
        }
    }
    out
}

fn plans_with(g: &Game, p: usize, d: Directive) -> Vec<Scripted> {
    let mut plans: Vec<Scripted> = g
        .policies
        .iter()
        .map(|q| match q {
            Policy::Scripted(s) => *s,
            Policy::Random => Scripted::defaults(),
        })
        .collect();
    let c = g.majors[p] as usize;
    plans[c] = d.apply(plans[c]);
    plans
}

#[test]
fn war_directives_decide_the_march_whatever_the_odds() {
    let g = scripted_game();
    let (mut named, mut only_directed, mut held) = (0, 0, 0);
    for st in states(&g, 3, 24) {
        for p in 0..g.majors.len() {
            let c = g.majors[p];
            let mut offered = Vec::new();
            candidates(&g, &st, p, &mut offered);
            assert_eq!(offered[0], Directive::Follow);
            let marches = |d: Directive| {
                let mut s = st.clone();
                let mut dice = Dice::from_seed(3);
                military::choose_targets(&g, &mut s, &plans_with(&g, p, d), st.turn, &mut dice);
                s.nations[c as usize].mission
            };
            if !offered.contains(&Directive::Hold) {
                assert!(!military::may_march(&st, c) || st.turn <= 1);
                continue;
            }
            assert_eq!(marches(Directive::Hold), Mission::Idle);
            held += (marches(Directive::Follow) != Mission::Idle) as u32;
            for &d in &offered {
                let Directive::Attack(t) = d else { continue };
                assert_eq!(marches(d), Mission::March { target: t });
                only_directed +=
                    (marches(Directive::Follow) != Mission::March { target: t }) as u32;
                named += 1;
            }
        }
    }
    assert!(named >= 20, "{named} named targets");
    assert!(only_directed > 0, "every named target was the policy's own");
    assert!(held > 0, "Hold never kept back a march");
}

#[test]
fn economy_directives_move_purchases_gifts_and_taxes() {
    let g = scripted_game();
    let (mut saved, mut april, mut gifts) = (0, 0, 0);
    for st in states(&g, 2, 18) {
        for p in 0..g.majors.len() {
            let c = g.majors[p] as usize;
            let mut offered = Vec::new();
            candidates(&g, &st, p, &mut offered);
            let trained = |d: Directive| {
                let mut s = st.clone();
                economy::purchases(&g, &mut s, &plans_with(&g, p, d));
                s.nations[c].training
            };
            if offered.contains(&Directive::Save) {
                assert_eq!(trained(Directive::Save), st.nations[c].training);
                if trained(Directive::Follow) != st.nations[c].training {
                    saved += 1;
                }
            }
            if offered.contains(&Directive::Heavy) {
                let before = st.nations[c].training;
                let after = trained(Directive::Heavy);
                for k in 1..after.len() {
                    assert_eq!(after[k], before[k], "Heavy bought kind {k}");
                }
            }
            let month = 2 * st.turn;
            for &d in &offered {
                let mut s = st.clone();
                match d {
                    Directive::Taxes(level) => {
                        assert_eq!(State::calendar(month), 4);
                        economy::collection(&g, &mut s, &plans_with(&g, p, d), month);
                        // The level is set whatever the rebellion index (no policy gate).
                        assert_eq!(s.nations[c].tax_level, level);
                        april += 1;
                    }
                    Directive::Gifts(false) => {
                        let before = s.nations[c].pv_by[super::pv::GIFTS];
                        economy::collection(&g, &mut s, &plans_with(&g, p, d), month);
                        assert_eq!(s.nations[c].pv_by[super::pv::GIFTS], before);
                        gifts += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        saved > 0 && april > 0 && gifts > 0,
        "{saved} {april} {gifts}"
    );
}

/// The fleet directives: none orders nothing where the policy would order fleets; more orders
/// more warfleets than the policy (where it can pay for them) and never fewer.
#[test]
fn fleet_directives_order_no_fleets_or_more_than_the_policy() {
    let g = tuned_game();
    let (mut stopped, mut more) = (0, 0);
    for st in states(&g, 3, 20) {
        for p in 0..g.majors.len() {
            let c = g.majors[p] as usize;
            let mut offered = Vec::new();
            candidates(&g, &st, p, &mut offered);
            let ordered = |d: Directive| {
                let mut s = st.clone();
                fleets::purchases(&g, &mut s, &plans_with(&g, p, d), 2 * st.turn - 1);
                s.nations[c].shipyard
            };
            let own = ordered(Directive::Follow);
            if offered.contains(&Directive::Fleets(false)) {
                assert!(ordered(Directive::Fleets(false)).is_empty());
                stopped += !own.is_empty() as u32;
            } else {
                // Not offered: the policy's own purchases order nothing either.
                assert!(own.is_empty() || !st.nations[c].shipyard.is_empty());
            }
            if offered.contains(&Directive::Fleets(true)) {
                let yard = ordered(Directive::Fleets(true));
                // (More warfleets may leave less for transports: the warfleets are ordered first.)
                assert!(yard.warfleets >= own.warfleets);
                more += (yard.warfleets > own.warfleets) as u32;
            }
        }
    }
    assert!(stopped > 0 && more > 0, "{stopped} {more}");
}

/// The mercenary directives: no bid leaves the auction to others; a raised bid offers twice the
/// policy's (within [RAISED_BID, HIGHEST_BID]) a unit and wins mercenaries at its home where it is
/// the highest.
#[test]
fn mercenary_directives_withdraw_or_raise_the_bid() {
    let g = tuned_game();
    let (mut withdrawn, mut won) = (0, 0);
    for (i, st) in states(&g, 2, 16).into_iter().enumerate() {
        for p in 0..g.majors.len() {
            let c = g.majors[p];
            let mut offered = Vec::new();
            candidates(&g, &st, p, &mut offered);
            let own = plans_with(&g, p, Directive::Follow)[c as usize];
            let units = 3;
            let auction = |d: Directive| {
                let mut s = st.clone();
                let mut dice = Dice::from_seed(i as u64);
                let plans = plans_with(&g, p, d);
                let paid = s.nations[c as usize].stock[super::scenario::DEN];
                let w = mercenaries::auction(
                    &g,
                    &mut s,
                    &plans,
                    (units, 0, false, c),
                    1,
                    &mut dice,
                    &mut NoLog,
                );
                (w, paid - s.nations[c as usize].stock[super::scenario::DEN])
            };
            if offered.contains(&Directive::Mercenaries(false)) {
                let (w, paid) = auction(Directive::Mercenaries(false));
                assert_ne!(w, Some(c));
                assert_eq!(paid, 0);
                withdrawn += (auction(Directive::Follow).0 == Some(c)) as u32;
            }
            if offered.contains(&Directive::Mercenaries(true)) {
                let raised = (2 * own.mercenary_bid).clamp(RAISED_BID, HIGHEST_BID);
                let plan = plans_with(&g, p, Directive::Mercenaries(true))[c as usize];
                assert_eq!(plan.mercenary_bid, raised);
                let (w, paid) = auction(Directive::Mercenaries(true));
                if w == Some(c) {
                    assert_eq!(paid, raised * units as i64);
                    won += 1;
                }
            }
        }
    }
    assert!(withdrawn > 0 && won > 0, "{withdrawn} {won}");
}

/// The partner directive: offered where a partner's troops may be hired, it hires them (or, off,
/// hires none).
#[test]
fn partner_directives_hire_or_not() {
    let g = tuned_game();
    let mut hired = 0;
    for st in states(&g, 4, 30) {
        for p in 0..g.majors.len() {
            let c = g.majors[p] as usize;
            let mut offered = Vec::new();
            candidates(&g, &st, p, &mut offered);
            // Only `p` hires: the counter sums every major's hires.
            let hire = |d: Directive| {
                let mut s = st.clone();
                let mut plans = plans_with(&g, p, d);
                for (q, &m) in g.majors.iter().enumerate() {
                    if q != p {
                        plans[m as usize].partner_hire = 0.0;
                    }
                }
                mercenaries::hire_partners(&g, &mut s, &plans, 2 * st.turn - 1);
                s.counts.partner_units_hired - st.counts.partner_units_hired
            };
            assert_eq!(hire(Directive::Partners(false)), 0.0);
            for &d in &offered {
                if let Directive::Partners(on) = d {
                    assert!(partner_to_hire(&g, &st, p));
                    let own = plans_with(&g, p, Directive::Follow)[c];
                    assert_eq!(on, own.partner_hire < 0.5, "the policy's opposite");
                    if on && hire(d) > 0.0 {
                        hired += 1;
                    }
                }
            }
        }
    }
    assert!(hired > 0, "no partner's troops hired");
}

/// The tuned game with every major's works at the centre of their ranges (half the spare DEN,
/// 30 turns' payback): the tuned plays already sit at the tops, where "more works" changes nothing.
fn half_works_game() -> Game {
    let mut g = tuned_game();
    for &c in &g.majors {
        if let Policy::Scripted(s) = &mut g.policies[c as usize] {
            (s.works_share, s.works_payback) = (0.5, 30.0);
        }
    }
    g
}

/// The works directives: offered only where they change the turn's constructions (none where the
/// policy would start a work, more where the raised plan starts more), and applied they do: no
/// work started, or more than the policy's. `Follow` starts exactly the policy's works, the
/// ones [`works::planned`] names.
#[test]
fn works_directives_are_offered_where_they_change_the_constructions() {
    let (mut paused, mut more, mut neither) = (0, 0, 0);
    for g in [tuned_game(), half_works_game()] {
        for st in states(&g, 3, 24) {
            for p in 0..g.majors.len() {
                let c = g.majors[p];
                let mut offered = Vec::new();
                candidates(&g, &st, p, &mut offered);
                // The works and the road each plan starts at this state, by the constructions
                // phase itself.
                let started = |d: Directive| {
                    let mut s = st.clone();
                    let plans = plans_with(&g, p, d);
                    works::constructions(&g, &mut s, &plans);
                    roads::constructions(&g, &mut s, &plans, &mut NoLog);
                    super::walls::constructions(&g, &mut s, &plans);
                    let (before, after) = (st.works[c as usize].left, s.works[c as usize].left);
                    (0..before.len()).filter(|&i| before[i] != after[i]).count()
                        + (s.roads.under_way[c as usize] != st.roads.under_way[c as usize]) as usize
                        + (s.walls.under_way[c as usize] != st.walls.under_way[c as usize]) as usize
                };
                let own = plans_with(&g, p, Directive::Follow)[c as usize];
                assert_eq!(Directive::Follow.apply(own), own);
                let policy = started(Directive::Follow);
                let (_, works, stock) = works::planned_and_stock(&g, &st, c, &own);
                assert_eq!(works, works::planned(&g, &st, c, &own).1);
                let road = roads::planned_from(&g, &st, c, &own, &stock);
                let mut after_road = stock;
                if let Some(i) = road {
                    let (den, pie, _) = roads::price(&g, i);
                    after_road[DEN] -= den;
                    after_road[PIE] -= pie;
                }
                let wall = super::walls::planned_from(&g, &st, c, &own, &after_road);
                assert_eq!(
                    policy,
                    works + road.is_some() as usize + wall.is_some() as usize
                );
                assert_eq!(started(Directive::Works(false)), 0);
                if offered.contains(&Directive::Works(false)) {
                    assert!(policy > 0);
                    paused += 1;
                } else {
                    assert_eq!(policy, 0, "a work the search could have stopped");
                }
                if offered.contains(&Directive::Works(true)) {
                    assert!(started(Directive::Works(true)) > policy);
                    more += 1;
                } else {
                    assert!(started(Directive::Works(true)) <= policy);
                    neither += !offered.contains(&Directive::Works(false)) as u32;
                }
            }
        }
    }
    assert!(
        paused > 0 && more > 0 && neither > 0,
        "{paused} {more} {neither}"
    );
}

/// Applied in a whole turn played, a paused turn starts no work where the policy would have
/// started one, and the same turn under `Follow` starts works.
#[test]
fn a_paused_turn_starts_no_work() {
    let g = tuned_game();
    let mut play = Play::without_search(&g);
    let (mut paused, mut followed) = (0, 0);
    for (i, st) in states(&g, 2, 24).into_iter().enumerate() {
        for p in 0..g.majors.len() {
            let c = g.majors[p];
            let own = plans_with(&g, p, Directive::Follow)[c as usize];
            if works::planned(&g, &st, c, &own).1 == 0 {
                continue;
            }
            let mut turn = |d: Directive| {
                play.st.clone_from(&st);
                play.directives[p] = d;
                let mut dice = Dice::for_trial(9, 0, i as u64);
                play.play_turn(st.turn, &mut dice, &mut NoLog);
                play.st.works[c as usize].left
            };
            let new = |left: [u8; works::TYPES]| {
                let before = st.works[c as usize].left;
                (0..before.len())
                    .filter(|&i| before[i] == 0 && left[i] > 0)
                    .count()
            };
            followed += new(turn(Directive::Follow));
            assert_eq!(new(turn(Directive::Works(false))), 0);
            paused += 1;
        }
    }
    assert!(paused > 0 && followed > 0, "{paused} {followed}");
}

/// A searcher that never overrules (an infinite margin) plays the very games of its rollout
/// policy, the new candidates offered and rolled out every turn: rollouts draw nothing from the
/// game's dice and leave its state alone.
#[test]
fn a_searcher_that_never_overrules_plays_its_rollout_policys_games() {
    let tuned = tuned_game();
    let mut searching = tuned_game();
    searching.search = vec![
        Some(SearchSpec {
            budget: 3,
            horizon: 1,
            margin: Some(f64::INFINITY),
            confirm: 0
        });
        searching.majors.len()
    ];
    assert_eq!(played(&tuned, 1), played(&searching, 1));
}

/// Times decisions at the default budget and checks that a decision draws no word of the dice.
#[test]
fn a_decision_draws_nothing_and_its_time_is_reported() {
    let g = tuned_game();
    let rollouts = Rollouts::new(&g);
    let mut searcher = Searcher::default();
    let spec = CATALOG.search.as_ref().unwrap().defaults;
    let all = states(&g, 1, 12);
    let start = Instant::now();
    let mut decided = 0;
    for (i, st) in all.iter().enumerate() {
        for p in 0..g.majors.len() {
            let (mut dice, mut twin) = (Dice::from_seed(i as u64), Dice::from_seed(i as u64));
            assert!(searcher.choose(&rollouts, st, p, spec, &mut dice).is_some());
            let mut offered = Vec::new();
            rollouts.candidates(st, p, &mut offered);
            // The catalog's search has a default (a margin): it reads the next word, draws none.
            if offered.len() > 1 && spec.margin.is_none() {
                twin.next_u64();
            }
            assert_eq!(dice.next_u64(), twin.next_u64(), "no word drawn");
            decided += 1;
        }
    }
    eprintln!(
        "{decided} decisions at budget {} horizon {}: {:.1} ms each",
        spec.budget,
        spec.horizon,
        start.elapsed().as_secs_f64() * 1000.0 / decided as f64
    );
}

/// A ladder with a search rung gives the same file with 1 and 2 threads; the catalog offers the
/// search player over the scripted policy.
#[test]
fn ladders_with_a_search_rung_do_not_depend_on_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("exp.toml");
    std::fs::write(
        &path,
        "name = \"t\"\ngames = 4\nseed = 3\n[game]\nruleset = \"mediterraneo-sanguinolento\"\n[game.policies]\ndefault = \"scripted\"\n[ladder]\ngames = 6\n[[ladder.rungs]]\nname = \"random\"\npolicy = \"random\"\n[[ladder.rungs]]\nname = \"scripted\"\n[[ladder.rungs]]\nname = \"search\"\npolicy = { policy = \"search\", budget = 6, horizon = 2 }\nrollout_from = \"scripted\"\ngames = 2\n",
    )
    .unwrap();
    let exp = GameExperiment::load(&path).unwrap();
    let table = |threads: usize| {
        let root = dir.join(format!("out-{threads}"));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let l = ladder(
                &exp,
                &LadderSettings {
                    out_root: root,
                    show_progress: false,
                },
            )
            .unwrap();
            std::fs::read_to_string(l.dir.join("ladder.csv")).unwrap()
        })
    };
    let one = table(1);
    assert_eq!(one, table(2));
    assert!(one.contains("search,scripted"), "{one}");
    let t: toml::Table =
        toml::from_str("roma = { policy = \"search\", budget = 8, rollout = \"random\" }").unwrap();
    let keys = crate::game::summary::player_keys(&scripted_game().players);
    let chosen = CATALOG
        .assign(&crate::spec::Fields::new("t.toml", &t), &keys, "scripted")
        .unwrap();
    assert_eq!(chosen[0].policy.policy, Policy::Random);
    assert_eq!(
        chosen[0].policy.search,
        Some(SearchSpec {
            budget: 8,
            horizon: 6,
            margin: Some(2.0),
            confirm: 16
        })
    );
    assert_eq!(chosen[0].label, "search(budget=8, rollout=random)");
}
