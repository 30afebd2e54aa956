//! Invasions' decisions for the engine's search player ([`crate::game::search`]).
//!
//! A searching player decides twice a turn, for all its nations at once, by overruling its
//! rollout policy with a [`Directive`]. At the turn's start (the plan, before ageing): whether its
//! Barbarians announce their Kingdom as soon as the rules allow or not at all this turn, and what
//! its Kingdoms and Empires do in Purchases (heavy units only, plain infantry only, nothing, or a
//! city's walls first). Once the turn's nations have entered and been reinforced (the orders,
//! before events, raids and the Military phase): bolder or no attacks, raids instead of attacks,
//! or an attack on one named province, whatever the odds, by every nation of the player that can
//! reach it (one of the best few by the scripted players' own scoring: a Barbarian's invasion
//! target, a Kingdom's war). Each directive reaches the game only where the game reads the
//! nation's policy ([`super::turn::Play::policy`]) or its orders ([`super::military`]); a target
//! no longer open by then leaves the nation to its policy.
//!
//! Each candidate is tried by copying the state and playing on: the candidate this turn, every
//! player's own policy afterwards (a searcher plays its rollout policy), to the end of the game or
//! for `horizon` turns. At the end a rollout is worth 0.9 × the player's win share + 0.1 × its VP
//! over the leader's: with the placeholder VP one player wins almost every game, and the VP term
//! still tells the others' candidates apart. Cut at a horizon it is worth its VP, with what its
//! objectives would score if scored then, over the leader's (a heuristic in [0, 1]).
//!
//! The searcher sees the whole state and every other player's policy (no hidden information is
//! played: the decks follow the null model).

use super::policy::{Directive, Policy};
use super::state::{Phase, Stage, State, NONE, NO_PROVINCE};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searchable;
use crate::game::NoLog;
use crate::rulesets::invasions::army::Status;
use std::cell::RefCell;

/// At most this many `Attack` candidates: the best provinces by the scripted players' scoring.
pub const TARGETS: usize = 3;

/// The game as the search player sees it: a worker of its own (its state swapped in for a
/// rollout, its battle cache kept warm), whose searching players play their rollout policies.
pub struct Rollouts<'g> {
    play: RefCell<Play<'g>>,
}

impl<'g> Rollouts<'g> {
    pub fn new(game: &'g Game) -> Rollouts<'g> {
        Rollouts {
            play: RefCell::new(Play::without_search(game)),
        }
    }
}

/// Player `p`'s VP over the leader's, in [0, 1]; `projected` adds what every nation's objectives
/// would score now (a rollout cut before a scoring turn).
pub fn vp_share(play: &Play, p: usize, projected: bool) -> f64 {
    let g = play.game;
    let worth = |q: usize| {
        let mut vp = play.player_vp(q);
        if projected {
            vp += (0..g.scenario.nations.len())
                .filter(|&n| g.player_of(n) == q)
                .map(|n| play.objective_vp(n))
                .sum::<i32>();
        }
        vp
    };
    let best = (0..g.players.len()).map(worth).max().unwrap_or(0);
    if best <= 0 {
        return 0.0;
    }
    (worth(p).max(0) as f64 / best as f64).min(1.0)
}

/// Whether Barbarian `n` may announce its Kingdom when it ages this turn (age 3 at least, a
/// province held in a Civilized Area; never the Huns).
fn may_announce(play: &Play, n: usize) -> bool {
    let g = play.game;
    let st = &play.st;
    st.status(n) == Some(Status::Barbarian)
        && !g.inactive[n]
        && n != g.hunni
        && st.nations[n].bond != super::politics::Bond::Federate
        && st.nations[n].horde != NO_PROVINCE
        && st.nations[n].age + 1 >= 3
        && (0..g.scenario.provinces.len()).any(|p| {
            st.owner[p] == n as u8
                && g.scenario.areas[g.scenario.provinces[p].area as usize].kind
                    == super::scenario::AreaKind::Civilized
        })
}

/// The best `TARGETS` provinces player `p`'s nations could attack now, by the shortlist's score.
fn targets(play: &Play, p: usize, out: &mut Vec<Directive>) {
    let g = play.game;
    let st = &play.st;
    let mut best = [(usize::MAX, f64::NEG_INFINITY); TARGETS];
    let mut offer = |q: usize, score: f64| {
        if best.iter().any(|b| b.0 == q) {
            let slot = best.iter_mut().find(|b| b.0 == q).expect("found");
            slot.1 = slot.1.max(score);
        } else if score > best[TARGETS - 1].1 {
            best[TARGETS - 1] = (q, score);
        }
        best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    };
    for n in 0..g.scenario.nations.len() {
        if g.player_of(n) != p || g.inactive[n] {
            continue;
        }
        match st.status(n) {
            Some(Status::Barbarian) => {
                let h = st.nations[n].horde;
                if h == NO_PROVINCE {
                    continue;
                }
                let nation = &g.scenario.nations[n];
                let invading = nation.entry_turn == st.turn || nation.active_from == st.turn;
                let from = g.scenario.provinces[h as usize].area as usize;
                play.target_scores(n, from, invading, 0, &mut offer);
            }
            Some(_) if !g.minor[n] => {
                let keep = match play.policy(n) {
                    Policy::Scripted(s) => s.garrison as u32,
                    Policy::Random => 0,
                };
                for a in 0..g.scenario.areas.len() {
                    if st.count(n, a) > keep {
                        play.target_scores(n, a, false, keep, &mut offer);
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(
        best.iter()
            .filter(|b| b.0 != usize::MAX)
            .map(|b| Directive::Attack(b.0 as u16)),
    );
}

impl<'g> Searchable for Rollouts<'g> {
    type State = State;
    type Action = Directive;

    fn candidates(&self, state: &State, p: usize, out: &mut Vec<Directive>) {
        let mut play = self.play.borrow_mut();
        play.st.clone_from(state);
        let play = &*play;
        let g = play.game;
        let st = &play.st;
        out.push(Directive::Follow);
        let mine = || (0..g.scenario.nations.len()).filter(move |&n| g.player_of(n) == p);
        // Directives that move numbers mean nothing to the random policy.
        let scripted = mine().any(|n| matches!(g.policies[n], Policy::Scripted(_)));
        match state.stage {
            Stage::Plan => {
                // Turn 1 starts at the events (L354): no ageing, no Administration.
                if !scripted || st.turn <= 1 {
                    return;
                }
                if mine().any(|n| may_announce(play, n)) {
                    out.extend([Directive::KingdomNow, Directive::NoKingdom]);
                }
                // The player's nations that buy, as a bit set (fewer than 64 nations).
                let buyers = mine()
                    .filter(|&n| st.civilized(n) && !g.inactive[n] && !g.minor[n])
                    .fold(0u64, |set, n| set | 1 << n);
                if buyers != 0 {
                    out.extend([Directive::BuyHeavy, Directive::BuyCheap, Directive::Save]);
                    let unwalled = (0..st.owner.len()).any(|q| {
                        st.owner[q] != NONE
                            && buyers & (1 << st.owner[q]) != 0
                            && st.level[q] > 0
                            && st.walls[q] == 0
                    });
                    if unwalled {
                        out.push(Directive::Fortify);
                    }
                }
            }
            Stage::Orders => {
                let active = mine()
                    .any(|n| !g.inactive[n] && matches!(st.nations[n].phase, Phase::Active(_)));
                if !active {
                    return;
                }
                if scripted {
                    out.extend([Directive::Bold, Directive::Stay]);
                    let hordes = mine().any(|n| {
                        st.status(n) == Some(Status::Barbarian)
                            && !g.inactive[n]
                            && st.nations[n].horde != NO_PROVINCE
                    });
                    if hordes {
                        out.push(Directive::Raid);
                    }
                }
                targets(play, p, out);
            }
        }
    }

    /// `s` is at one of a turn's two decision points ([`State::stage`]).
    fn rollout(&self, s: &mut State, p: usize, d: Directive, horizon: u32, dice: &mut Dice) -> f64 {
        let mut play = self.play.borrow_mut();
        std::mem::swap(&mut play.st, s);
        let mut log = NoLog;
        let first = play.st.turn;
        match play.st.stage {
            Stage::Plan => {
                play.st.plans[p] = d;
                play.turn_start(dice, &mut log);
                play.turn_rest(dice, &mut log);
            }
            Stage::Orders => {
                play.st.orders[p] = d;
                play.turn_rest(dice, &mut log);
            }
        }
        let last = play.game.last_turn;
        let value = loop {
            if play.st.turn >= last {
                let won = (play.winner() == p) as u8 as f64;
                break 0.9 * won + 0.1 * vp_share(&play, p, false);
            }
            if horizon > 0 && (play.st.turn + 1 - first) as u32 >= horizon {
                break vp_share(&play, p, true);
            }
            play.st.turn += 1;
            play.turn_start(dice, &mut log);
            play.turn_rest(dice, &mut log);
        };
        std::mem::swap(&mut play.st, s);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::super::policy::{Player, Scripted, CATALOG};
    use super::*;
    use crate::game::experiment::GameExperiment;
    use crate::game::ladder::{ladder, LadderSettings};
    use crate::game::search::{SearchSpec, Searcher};
    use crate::game::tune::{tune, TuneSettings};
    use crate::game::TextLog;
    use crate::options::Options;
    use std::path::Path;
    use std::time::Instant;

    /// The bundled scenario with every player scripted and the Persians searching over it.
    fn game() -> Game {
        let scenario = super::super::scenario::Scenario::bundled().unwrap();
        let policies = vec![Policy::Scripted(Scripted::defaults()); scenario.nations.len()];
        let labels = vec!["test".to_string(); scenario.players.len()];
        let options = Options::defaults(crate::rulesets::invasions::OPTIONS);
        let mut g = Game::new(scenario, &options, labels, policies, Vec::new());
        let persians = g.players.iter().position(|p| p == "Persians").unwrap();
        g.search[persians] = CATALOG.search.as_ref().map(|s| s.defaults);
        g
    }

    /// States of scripted games at `stage` of turns 2..=11 (every player following its policy).
    fn states(g: &Game, stage: Stage, games: u64) -> Vec<State> {
        let mut out = Vec::new();
        let mut play = Play::without_search(g);
        for seed in 0..games {
            let mut dice = Dice::from_seed(seed);
            play.st.clone_from(&g.start);
            for turn in 1..g.last_turn {
                play.st.turn = turn;
                if stage == Stage::Plan && turn > 1 {
                    out.push(play.st.clone());
                }
                play.turn_start(&mut dice, &mut NoLog);
                if stage == Stage::Orders && turn > 1 {
                    out.push(play.st.clone());
                }
                play.turn_rest(&mut dice, &mut NoLog);
            }
        }
        out
    }

    fn candidates(g: &Game, s: &State, p: usize) -> Vec<Directive> {
        let mut out = Vec::new();
        Rollouts::new(g).candidates(s, p, &mut out);
        out
    }

    /// What the rest of the turn logs from `s` with player `p` under directive `d`.
    fn logged(g: &Game, s: &State, p: usize, d: Directive) -> Vec<String> {
        let mut play = Play::without_search(g);
        play.st.clone_from(s);
        let mut log = TextLog::default();
        let mut dice = Dice::from_seed(11);
        match s.stage {
            Stage::Plan => {
                play.st.plans[p] = d;
                play.turn_start(&mut dice, &mut log);
                play.turn_rest(&mut dice, &mut log);
            }
            Stage::Orders => {
                play.st.orders[p] = d;
                play.turn_rest(&mut dice, &mut log);
            }
        }
        log.lines
    }

    fn names_of(g: &Game, p: usize) -> Vec<String> {
        (0..g.scenario.nations.len())
            .filter(|&n| g.player_of(n) == p)
            .map(|n| g.name(n).to_string())
            .collect()
    }

    fn by(names: &[String], line: &str, verb: &str) -> bool {
        names
            .iter()
            .any(|n| line.starts_with(&format!("{n} {verb}")))
    }

    #[test]
    fn directives_move_only_the_numbers_they_name() {
        let own = Scripted::defaults();
        let p = Policy::Scripted(own);
        assert_eq!(Directive::Follow.apply(p), p);
        assert_eq!(Directive::Attack(3).apply(p), p);
        assert_eq!(Directive::KingdomNow.apply(Policy::Random), Policy::Random);
        let moved = |d: Directive| match d.apply(p) {
            Policy::Scripted(s) => s,
            Policy::Random => unreachable!(),
        };
        assert_eq!(moved(Directive::KingdomNow).kingdom_age, 3);
        assert_eq!(
            moved(Directive::BuyCheap),
            Scripted {
                heavy_share: 0.0,
                cavalry_share: 0.0,
                ..own
            }
        );
        let bold = moved(Directive::Bold);
        assert!(bold.attack < own.attack && bold.civilized_attack < own.civilized_attack);
        assert!(moved(Directive::Stay).civilized_attack > 1.0 && !moved(Directive::Stay).raid);
        assert_eq!(moved(Directive::Fortify).fortify, 15);
        // The catalog offers the search player over any other policy, for a player only.
        let table: toml::Table =
            toml::from_str("persians = { policy = \"search\", budget = 8, rollout = \"random\" }")
                .unwrap();
        let keys: Vec<String> = ["romans", "huns", "persians", "goths"]
            .map(String::from)
            .to_vec();
        let chosen = CATALOG
            .assign(
                &crate::spec::Fields::new("t.toml", &table),
                &keys,
                "scripted",
            )
            .unwrap();
        assert_eq!(
            chosen[2].policy,
            Player {
                policy: Policy::Random,
                search: Some(SearchSpec {
                    budget: 8,
                    horizon: 3,
                    margin: CATALOG.search.as_ref().unwrap().defaults.margin,
                    confirm: 0,
                })
            }
        );
        assert_eq!(chosen[2].label, "search(budget=8, rollout=random)");
    }

    #[test]
    fn a_named_target_is_attacked_whatever_the_odds() {
        let g = game();
        let p = g.players.iter().position(|x| x == "Persians").unwrap();
        let names = names_of(&g, p);
        let (mut tried, mut only_directed, mut excused) = (0, 0, 0);
        for s in states(&g, Stage::Orders, 3) {
            for d in candidates(&g, &s, p) {
                let Directive::Attack(q) = d else { continue };
                let province = &g.scenario.provinces[q as usize].name;
                let hit = |lines: &[String]| {
                    lines.iter().any(|l| {
                        l.contains(province.as_str())
                            && ["attacks", "besieges", "takes", "captures"]
                                .iter()
                                .any(|v| by(&names, l, v))
                    })
                };
                let lines = logged(&g, &s, p, d);
                // A nation that collapses in Administration (after the orders) attacks nothing.
                if lines.iter().any(|l| by(&names, l, "collapses")) {
                    continue;
                }
                // The nation that could reach the target at the orders may have been beaten
                // before its activation (the player's nations attacked by others this turn).
                let beaten_first = lines
                    .iter()
                    .any(|l| names.iter().any(|n| l.contains(&format!("attacks {n} in"))));
                // A truce or an alliance made in Diplomacy, after the orders, may protect the
                // target (the player's lines name both sides).
                let pact = lines
                    .iter()
                    .any(|l| l.contains("(Tributus)") || l.contains("(Unio): accepted"));
                // A strait blockaded against it, set after the orders, may stand in the way.
                let blockaded = lines
                    .iter()
                    .any(|l| l.contains(&format!("orders name {province}, across a strait")));
                if !hit(&lines) && (beaten_first || pact || blockaded) {
                    excused += 1;
                    tried += 1;
                    continue;
                }
                assert!(
                    hit(&lines),
                    "turn {}: {d:?} ({province}) not attacked; the player's lines: {:?}",
                    s.turn,
                    lines
                        .iter()
                        .filter(|l| names.iter().any(|n| l.contains(n.as_str())))
                        .collect::<Vec<_>>()
                );
                only_directed += !hit(&logged(&g, &s, p, Directive::Follow)) as u32;
                tried += 1;
            }
        }
        assert!(tried >= 20, "{tried} named targets tried");
        // Excuses stay the exception: 12 of 87 once strait blockades changed these games, each
        // of them 'beaten first' (the player's nation attacked before its activation).
        assert!(5 * excused <= tried, "{excused} of {tried} not attacked");
        assert!(only_directed > 0, "every named target was attacked anyway");
    }

    #[test]
    fn stay_attacks_nothing_and_the_plan_reaches_kingdoms_and_purchases() {
        let g = game();
        let p = g.players.iter().position(|x| x == "Persians").unwrap();
        let names = names_of(&g, p);
        let mut attacked = 0;
        for s in states(&g, Stage::Orders, 2) {
            let stay = logged(&g, &s, p, Directive::Stay);
            assert!(!stay.iter().any(|l| ["attacks", "besieges", "takes"]
                .iter()
                .any(|v| by(&names, l, v))));
            attacked += logged(&g, &s, p, Directive::Follow)
                .iter()
                .any(|l| by(&names, l, "attacks")) as u32;
        }
        assert!(attacked > 0, "the Persians never attack under Follow");
        let (mut announced, mut bought) = (0, 0);
        let roman: Vec<String> = (0..g.scenario.nations.len())
            .filter(|&n| g.roman[n])
            .map(|n| g.name(n).to_string())
            .collect();
        for s in states(&g, Stage::Plan, 4) {
            let offered = candidates(&g, &s, p);
            if offered.contains(&Directive::KingdomNow) {
                let now = logged(&g, &s, p, Directive::KingdomNow);
                let never = logged(&g, &s, p, Directive::NoKingdom);
                let announce = |lines: &[String]| {
                    lines
                        .iter()
                        .any(|l| by(&names, l, "becomes a Kingdom") && l.contains("announced"))
                };
                assert!(announce(&now) && !announce(&never), "turn {}", s.turn);
                announced += 1;
            }
            if offered.contains(&Directive::Save) {
                let buys = |d: Directive| -> Vec<String> {
                    logged(&g, &s, p, d)
                        .into_iter()
                        .filter(|l| by(&names, l, "buys") && !by(&roman, l, "buys"))
                        .collect()
                };
                assert!(buys(Directive::Save).is_empty());
                assert!(buys(Directive::BuyHeavy)
                    .iter()
                    .all(|l| l.contains(" buys heavy_")));
                assert!(buys(Directive::BuyCheap)
                    .iter()
                    .all(|l| l.contains(" buys infantry ")));
                bought += !buys(Directive::BuyHeavy).is_empty() as u32;
            }
        }
        assert!(announced > 0 && bought > 0, "{announced} {bought}");
    }

    /// Times decisions at the default budget (the figure the issue asks for) and checks that a
    /// decision draws nothing from the game's dice.
    #[test]
    fn a_decision_is_quick_and_draws_nothing() {
        let g = game();
        let p = g.players.iter().position(|x| x == "Persians").unwrap();
        let rollouts = Rollouts::new(&g);
        let mut searcher = Searcher::default();
        let spec = CATALOG.search.as_ref().unwrap().defaults;
        let mut all = states(&g, Stage::Plan, 2);
        all.extend(states(&g, Stage::Orders, 2));
        let (start, cpu_start) = (Instant::now(), thread_cpu_seconds());
        for (i, s) in all.iter().enumerate() {
            let (mut dice, mut twin) = (Dice::from_seed(i as u64), Dice::from_seed(i as u64));
            let d = searcher.choose(&rollouts, s, p, spec, &mut dice);
            assert!(d.is_some());
            // A search with a default (the catalog's) reads the next word without drawing it.
            if candidates(&g, s, p).len() > 1 && spec.margin.is_none() {
                twin.next_u64();
            }
            assert_eq!(dice.next_u64(), twin.next_u64(), "no word drawn");
        }
        let per = start.elapsed().as_secs_f64() * 1000.0 / all.len() as f64;
        let cpu =
            cpu_start.map(|c| (thread_cpu_seconds().unwrap_or(c) - c) * 1000.0 / all.len() as f64);
        eprintln!(
            "{} decisions at budget {} horizon {}: {per:.1} ms each (wall), {cpu:.1?} ms (this thread's CPU)",
            all.len(),
            spec.budget,
            spec.horizon
        );
    }

    /// Every player on the shipped tuned policy (balanced objectives), `searcher` searching with
    /// `spec` over its own.
    fn tuned_game(searcher: &str, spec: SearchSpec) -> Game {
        let mut scenario = super::super::scenario::Scenario::bundled().unwrap();
        assert!(scenario.choose_objective_values(true));
        let text = std::fs::read_to_string("experiments/tuned/invasions.toml").unwrap();
        let file: toml::Table = toml::from_str(&text).unwrap();
        let table = file["policies"].as_table().unwrap().clone();
        let keys = crate::game::summary::player_keys(&scenario.players);
        let chosen = CATALOG
            .assign(
                &crate::spec::Fields::new("tuned", &table),
                &keys,
                "scripted",
            )
            .unwrap();
        let policies = scenario
            .nations
            .iter()
            .map(|n| chosen[n.player as usize].policy.policy)
            .collect();
        let labels = chosen.into_iter().map(|c| c.label).collect();
        let options = Options::defaults(crate::rulesets::invasions::OPTIONS);
        let mut g = Game::new(scenario, &options, labels, policies, Vec::new());
        let p = g.players.iter().position(|x| x == searcher).unwrap();
        g.search[p] = Some(spec);
        g
    }

    /// One game's log and record from game `index` of seed 7.
    fn played(g: &Game, index: u64) -> (Vec<String>, crate::game::GameRecord) {
        use crate::game::GameModel;
        let mut play = Play::new(g);
        let mut log = TextLog::default();
        let mut dice = Dice::for_trial(7, 0, index);
        play.run(&mut dice, &mut crate::game::NoObserver, &mut log);
        let mut record = crate::game::GameRecord::new(g.players.len(), g.game_columns().len());
        play.record(&mut record, &mut log);
        (log.lines, record)
    }

    /// With an infinite margin the search player keeps every choice of its rollout policy and
    /// leaves the game's dice alone: it plays the very games the tuned players play, line for
    /// line. Plain successive halving (no margin) overrules the policy and the games differ (the
    /// comparison can fail).
    #[test]
    fn an_infinite_margin_plays_the_rollout_policys_own_games() {
        let spec = SearchSpec {
            budget: 8,
            horizon: 1,
            margin: Some(f64::INFINITY),
            confirm: 0,
        };
        let mut differed = 0;
        for name in ["Romans", "Persians"] {
            let never = tuned_game(name, spec);
            let mut tuned = tuned_game(name, spec);
            tuned.search.fill(None);
            let p = never.players.iter().position(|x| x == name).unwrap();
            let mut eager = tuned_game(name, spec);
            eager.search[p] = Some(SearchSpec {
                margin: None,
                ..spec
            });
            for index in 0..2 {
                let game = played(&never, index);
                assert!(game == played(&tuned, index), "{name}, game {index}");
                let (lines, record) = game;
                assert!(!lines.iter().any(|l| l.contains("(search)")));
                let (eager_lines, eager_record) = played(&eager, index);
                assert!(eager_lines.iter().any(|l| l.contains("(search)")));
                differed += (eager_lines != lines || eager_record != record) as u32;
            }
        }
        assert!(differed > 0, "overruling never changed a game");
    }

    /// Why the search rung did not separate from the tuned one: per decision of tuned games, how
    /// often plain successive halving overrules the tuned policy, what its choice is worth against
    /// the policy's own by rollouts to the end, and what the paired margin test would keep.
    #[test]
    #[ignore = "a measurement (minutes): cargo test --release --lib diagnose_search -- --ignored --nocapture"]
    fn diagnose_search_over_tuned() {
        let budget = 128;
        let truth_rollouts = 48;
        for name in ["Romans", "Persians", "Huns", "Goths"] {
            let spec = SearchSpec {
                budget,
                horizon: 3,
                margin: None,
                confirm: 0,
            };
            let g = tuned_game(name, spec);
            let p = g.players.iter().position(|x| x == name).unwrap();
            let rollouts = Rollouts::new(&g);
            let (mut plain, mut paired) = (Searcher::default(), Searcher::default());
            let mut all = states(&g, Stage::Plan, 3);
            all.extend(states(&g, Stage::Orders, 3));
            let (mut decisions, mut overruled) = (0, 0);
            let mut truth = Vec::new();
            let mut verdicts = Vec::new();
            for (i, s) in all.iter().enumerate() {
                if candidates(&g, s, p).len() < 2 {
                    continue;
                }
                decisions += 1;
                let mut dice = Dice::from_seed(i as u64);
                let d = plain.choose(&rollouts, s, p, spec, &mut dice).unwrap();
                let with = SearchSpec {
                    margin: Some(2.0),
                    ..spec
                };
                paired.choose(&rollouts, s, p, with, &mut dice);
                verdicts.push(paired.verdict);
                if d == Directive::Follow {
                    continue;
                }
                overruled += 1;
                // The overruling choice against Follow, to the end, paired seeds.
                let mut sum = 0.0;
                let mut sq = 0.0;
                for j in 0..truth_rollouts {
                    let mut a = s.clone();
                    let mut b = s.clone();
                    let va = rollouts.rollout(&mut a, p, d, 0, &mut Dice::from_seed(1000 + j));
                    let vb = rollouts.rollout(
                        &mut b,
                        p,
                        Directive::Follow,
                        0,
                        &mut Dice::from_seed(1000 + j),
                    );
                    sum += va - vb;
                    sq += (va - vb) * (va - vb);
                }
                let n = truth_rollouts as f64;
                let mean = sum / n;
                let se = ((sq - sum * mean) / (n - 1.0) / n).max(0.0).sqrt();
                truth.push((s.turn, s.stage, d, mean, se));
            }
            let worth: f64 = truth.iter().map(|t| t.3).sum::<f64>() / truth.len().max(1) as f64;
            eprintln!(
                "{name}: {decisions} decisions, plain halving overrules {overruled}; its choices' mean worth over Follow to the end {worth:+.4}"
            );
            for t in &truth {
                eprintln!(
                    "  turn {} {:?} {:?}: {:+.3} ± {:.3}",
                    t.0, t.1, t.2, t.3, t.4
                );
            }
            let mean_gap: f64 =
                verdicts.iter().map(|v| v.difference).sum::<f64>() / verdicts.len().max(1) as f64;
            let mean_se: f64 = verdicts.iter().map(|v| v.standard_error).sum::<f64>()
                / verdicts.len().max(1) as f64;
            eprintln!("  paired (horizon 3): best challenger's mean difference {mean_gap:+.4}, mean standard error {mean_se:.4}");
            for z in [0.0, 1.0, 2.0, 3.0] {
                let kept = verdicts
                    .iter()
                    .filter(|v| v.difference > 0.0 && v.difference > z * v.standard_error)
                    .count();
                eprintln!("  margin {z}: overrules {kept} of {}", verdicts.len());
                if z == 2.0 {
                    assert!(
                        kept < overruled,
                        "{name}: the margin kept no more of the policy's choices"
                    );
                }
            }
        }
    }

    /// This thread's CPU time (user + system) from /proc, in seconds (10 ms ticks), where Linux
    /// gives it: the figure that does not depend on what else the machine runs.
    fn thread_cpu_seconds() -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
        let ticks: f64 =
            fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some(ticks / 100.0)
    }

    fn write(dir: &Path, text: &str) -> GameExperiment {
        let path = dir.join("exp.toml");
        std::fs::write(&path, text).unwrap();
        GameExperiment::load(&path).unwrap()
    }

    /// A tune, and a ladder with a search rung, give the same files with 1 and 2 threads.
    #[test]
    fn runs_tunes_and_ladders_with_search_do_not_depend_on_threads() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let tuned = dir.join("tuned.toml");
        std::fs::write(
            &tuned,
            "[policies.romans]\npolicy = \"scripted\"\nattack = 0.3\n",
        )
        .unwrap();
        let exp = write(
            dir,
            &format!(
                "name = \"t\"\ngames = 6\nseed = 3\n[game]\nruleset = \"invasions\"\nscenario = \"scenarios/invasions/scenario-1\"\n[game.policies]\ndefault = \"scripted\"\n[tune]\ngames = 64\ncandidates = 2\nrounds = 1\n[tune.players.persians]\nattack = [0, 1]\nfortify = [15, 41]\n[ladder]\ngames = 20\n[[ladder.rungs]]\nname = \"random\"\npolicy = \"random\"\n[[ladder.rungs]]\nname = \"scripted\"\n[[ladder.rungs]]\nname = \"tuned\"\npolicies_from = \"{}\"\n[[ladder.rungs]]\nname = \"search\"\npolicy = {{ policy = \"search\", budget = 4, horizon = 2 }}\nrollout_from = \"tuned\"\ngames = 3\n",
                tuned.display()
            ),
        );
        let files = |threads: usize| {
            let root = dir.join(format!("out-{threads}"));
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let t = tune(
                    &exp,
                    &TuneSettings {
                        out_root: root.join("tune"),
                        show_progress: false,
                    },
                )
                .unwrap();
                let l = ladder(
                    &exp,
                    &LadderSettings {
                        out_root: root.join("ladder"),
                        show_progress: false,
                    },
                )
                .unwrap();
                [
                    t.dir.join("tuned-policies.toml"),
                    t.dir.join("tuning.csv"),
                    l.dir.join("ladder.csv"),
                ]
                .map(|f| std::fs::read_to_string(f).unwrap())
            })
        };
        let one = files(1);
        assert_eq!(one, files(2));
        assert!(one[2].contains("search,tuned"), "{}", one[2]);
        // The search player is a player's, not a nation's.
        let e = crate::rulesets::invasions::game::build(&crate::game::GameSetup {
            source: "t.toml",
            fields: crate::spec::Fields::new(
                "t.toml",
                &toml::from_str("[nation_policies]\nvisigothi = \"search\"").unwrap(),
            ),
            options: Options::defaults(crate::rulesets::invasions::OPTIONS),
        })
        .err()
        .unwrap();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("nation_policies.visigothi"), "{e}");
    }
}
