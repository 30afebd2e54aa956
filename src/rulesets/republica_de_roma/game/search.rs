//! República de Roma's decisions for the engine's search player ([`crate::game::search`]).
//!
//! A searching faction decides twice a turn. At the start of the turn, before the Mortality
//! phase, on a
//! [`Directive`] for the turn: follow its rollout policy, play the cooperative or the competitive
//! style (their catalog defaults) for the turn, or follow its rollout policy with one strategic
//! knob moved: never rebel, rebel whenever the general's army allows (the test's aggression at its
//! maximum, 3), prosecute every rival it can as Censor, give the State nothing or everything it
//! needs, bribe with all a persuader has, or persuade one of the senators its policy would
//! persuade (the best few by its own reach). A directive is applied where every decision of the
//! game reads the faction's policy (`Game::policy`), so it reaches every decision
//! point the policy's parameters reach, and nothing else; a persuasion target is handed to the
//! persuasion code, which still picks the persuader, the bribes and whether the odds are worth it.
//!
//! Then, once the Senate has sat and elected its officers, on what the offices it holds decide:
//! as Censor, whom to accuse first (the rivals who can be tried, the most influential first); as
//! the Dominant player (L1234), who takes the choices the Senate's strategy lists leave open, how
//! many legions and fleets to raise (more: every unit the Treasury can pay for, the whole surplus
//! with the armies; fewer: twice the reserve kept and nothing raised beyond the strategy's
//! armies) and which consul goes to which war when two go out (the better general to the larger
//! war as L1311 has it, or the other way round). These reach the Senate's code through
//! `Game::senate_params` and the Censor's and the deployment's own choices.
//!
//! Each candidate is tried by copying the state and playing on: the candidate this turn, every
//! faction's own policy afterwards (searchers play their rollout policy), to the end of the game
//! or for `horizon` turns. A rollout that reaches the end is worth the faction's win share (1 if
//! it won, 0 otherwise, 0 when Rome fell); one cut at the horizon is worth its Influence over the
//! leading faction's (a heuristic in [0, 1]; Rome still stands, or the game would have ended).
//!
//! The searcher sees the whole state (the hands and the deck's order included: an omniscient
//! player) and every other faction's policy.

use super::forum::persuasion_threshold;
use super::policy::{FactionPolicy, CATALOG};
use super::state::{Office, State, WarStatus, FACTIONS, NONE};
use super::turn::Game;
use super::{Model, TURN_CAP};
use crate::dice::Dice;
use crate::game::policy::ParamValues;
use crate::game::search::Searchable;
use crate::game::NoLog;
use std::cell::RefCell;

/// What a searching faction does this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Directive {
    /// Its rollout policy decides everything (the baseline every search compares against).
    #[default]
    Follow,
    /// The catalog's `cooperative` policy at its defaults.
    Cooperative,
    /// The catalog's `competitive` policy at its defaults.
    Competitive,
    /// The rollout policy, but its victorious generals never rebel.
    RebelNever,
    /// The rollout policy, but a victorious general rebels with the least backing the test allows
    /// (`rebel_aggression` 3).
    RebelNow,
    /// The rollout policy, but its Censor prosecutes every rival who can be tried.
    Prosecute,
    /// The rollout policy, but the faction gives the Treasury nothing when Rome cannot pay.
    Stingy,
    /// The rollout policy, but the faction gives the Treasury all it needs and donates its spare.
    Generous,
    /// The rollout policy, but a persuader may spend all his talents on a bribe.
    Bribe,
    /// The rollout policy, but the faction's persuasion this turn is aimed at this senator.
    Persuade(u8),
    /// In the Senate, as Censor: this senator is accused first.
    Accuse(u8),
    /// In the Senate, as Dominant player: raise every unit the Treasury can pay for.
    RaiseMore,
    /// In the Senate, as Dominant player: keep twice the reserve, raise no more than needed.
    RaiseLess,
    /// In the Senate, as Dominant player: the worse general goes to the larger war.
    Swap,
}

/// At most this many candidates naming a senator: the best by the policy's own scoring.
const TARGETS: usize = 2;

/// Every directive, in the order candidates are listed.
pub const DIRECTIVES: [Directive; 9] = [
    Directive::Follow,
    Directive::Cooperative,
    Directive::Competitive,
    Directive::RebelNever,
    Directive::RebelNow,
    Directive::Prosecute,
    Directive::Stingy,
    Directive::Generous,
    Directive::Bribe,
];

fn catalog_default(k: usize) -> FactionPolicy {
    let kind = &CATALOG.kinds[k];
    (kind.build)(&ParamValues(
        kind.params.iter().map(|p| p.default).collect(),
    ))
}

/// The policy a faction plays this turn, per directive: its own (`policies`) or a changed copy.
/// The styles are built once per model.
#[derive(Clone, Copy, Debug)]
pub struct Styles {
    cooperative: FactionPolicy,
    competitive: FactionPolicy,
}

impl Default for Styles {
    fn default() -> Styles {
        Styles {
            cooperative: catalog_default(0),
            competitive: catalog_default(1),
        }
    }
}

impl Directive {
    /// The policy `own` plays under this directive. `Follow` returns `own` unchanged, so a game
    /// without a searcher plays exactly as before.
    pub fn apply(self, own: FactionPolicy, styles: &Styles) -> FactionPolicy {
        let search = own.search;
        let mut p = match self {
            Directive::Follow => return own,
            Directive::Cooperative => styles.cooperative,
            Directive::Competitive => styles.competitive,
            _ => own,
        };
        p.search = search;
        match self {
            Directive::RebelNever => p.rebel_aggression = 0.0,
            Directive::RebelNow => p.rebel_aggression = 3.0,
            Directive::Prosecute => p.prosecute = 1.0,
            Directive::Stingy => p.cooperation = 0.0,
            Directive::Generous => {
                p.cooperation = 1.0;
                p.donate = p.donate.max(0.5);
            }
            Directive::Bribe => p.bribe_share = 1.0,
            _ => {}
        }
        p
    }
}

/// The game as the search player sees it: the model (rollouts need no buffers of their own: the
/// game plays in the copied state's own scratch lists), and a copy of the state the candidates
/// are scored on (the game's scoring reads a `Game`, which holds its state mutably).
pub struct Rollouts<'a> {
    model: &'a Model,
    scratch: RefCell<Option<State>>,
}

impl<'a> Rollouts<'a> {
    pub fn new(model: &'a Model) -> Rollouts<'a> {
        Rollouts {
            model,
            scratch: RefCell::new(None),
        }
    }
}

/// What the game is worth to faction `f` when a rollout stops at its horizon: its Influence over
/// the leading faction's, in [0, 1].
pub fn heuristic(s: &State, f: usize) -> f64 {
    if !s.factions[f].alive {
        return 0.0;
    }
    let best = (0..FACTIONS)
        .filter(|&x| s.factions[x].alive)
        .map(|x| s.faction_influence(x))
        .max()
        .unwrap_or(0)
        .max(1);
    (s.faction_influence(f).max(0) as f64 / best as f64).min(1.0)
}

impl Searchable for Rollouts<'_> {
    type State = State;
    type Action = Directive;

    fn candidates(&self, s: &State, f: usize, out: &mut Vec<Directive>) {
        let m = self.model;
        let mut scratch = self.scratch.borrow_mut();
        let copy = match &mut *scratch {
            Some(c) => {
                c.clone_from(s);
                c
            }
            none => none.insert(s.clone()),
        };
        let mut dice = Dice::from_seed(0);
        let mut log = NoLog;
        let g = Game::new(m, copy, &mut dice, &mut log);
        if g.s.in_senate {
            senate_candidates(&g, f, out);
            return;
        }
        out.extend(DIRECTIVES);
        // The senators the faction's persuasion could reach at its policy's threshold, the best
        // first.
        let pol = m.policies[f];
        let threshold = persuasion_threshold(pol.style);
        let mut found = [NONE as usize; TARGETS];
        for k in 0..TARGETS {
            let best = (0..g.s.senators.len())
                .filter(|t| !found[..k].contains(t))
                .filter_map(|t| g.best_persuasion(f, pol.bribe_share, Some(t)))
                .max_by_key(|&(reach, t, _, _)| {
                    let ts = &g.s.senators[t];
                    (reach, ts.ora as i32 + ts.mil as i32, std::cmp::Reverse(t))
                });
            match best {
                Some((reach, t, _, _)) if reach >= threshold => {
                    found[k] = t;
                    out.push(Directive::Persuade(t as u8));
                }
                _ => break,
            }
        }
    }

    /// `s` is the state at the start of a turn (its number and era set, nothing played), or
    /// with the Senate sitting ([`State::in_senate`]).
    fn rollout(&self, s: &mut State, f: usize, d: Directive, horizon: u32, dice: &mut Dice) -> f64 {
        let m = self.model;
        let sitting = s.in_senate;
        if sitting {
            s.senate_directives[f] = d;
        } else {
            s.directives[f] = d;
        }
        let first = s.turn;
        let mut log = NoLog;
        let mut g = Game::new(m, s, dice, &mut log);
        if sitting {
            g.play_from_senate();
        } else {
            g.play_turn();
        }
        loop {
            g.s.directives = [Directive::Follow; FACTIONS];
            g.s.senate_directives = [Directive::Follow; FACTIONS];
            if g.over() || g.s.turn >= m.rules.turn_cap {
                let (_, winner) = g.end.unwrap_or((TURN_CAP, NONE));
                return (winner as usize == f) as u8 as f64;
            }
            if horizon > 0 && g.s.turn + 1 - first >= horizon {
                return heuristic(g.s, f);
            }
            let next = g.s.turn + 1;
            g.begin_turn(next);
            g.play_turn();
        }
    }
}

/// What faction `f` decides in the sitting Senate: whom its Censor accuses first, and as the
/// Dominant player how much to raise and where the consuls go; nothing (Follow alone) otherwise.
fn senate_candidates(g: &Game, f: usize, out: &mut Vec<Directive>) {
    out.push(Directive::Follow);
    let censor = g.s.office(Office::Censor);
    let censors = censor != NONE && g.s.senators[censor as usize].faction() == Some(f);
    if g.m.rules.prosecutions && censors {
        let mut found = [NONE as usize; TARGETS];
        for k in 0..TARGETS {
            let Some(t) = (0..g.s.senators.len())
                .filter(|&i| g.may_accuse(f, i) && !found[..k].contains(&i))
                .max_by_key(|&i| (g.s.senators[i].inf, i))
            else {
                break;
            };
            found[k] = t;
            out.push(Directive::Accuse(t as u8));
        }
    }
    if g.s.dominant as usize == f {
        out.extend([Directive::RaiseMore, Directive::RaiseLess]);
        let consuls = [Office::FieldConsul, Office::RomeConsul].iter().all(|&o| {
            let i = g.s.office(o);
            i != NONE && g.s.senators[i as usize].in_rome()
        });
        let unfought = (0..g.m.cards.wars.len())
            .filter(|&w| {
                g.s.wars[w].status == WarStatus::Active
                    && !g.s.armies.iter().any(|a| a.used && a.war == w as u8)
            })
            .count();
        if consuls && unfought >= 2 {
            out.push(Directive::Swap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::Cards;
    use super::super::scenario::Setup;
    use super::super::turn::Worker;
    use super::*;
    use crate::game::run::{play_games, NoSink};
    use crate::game::search::{SearchSpec, Searcher};
    use crate::game::summary::wilson;
    use crate::game::{GamePlay, GameRecord, NoObserver, TextLog};
    use crate::options::Options;
    use crate::progress::Progress;
    use crate::spec::Fields;
    use std::time::Instant;

    const EARLY: &str = "scenarios/republica-de-roma/early-republic.toml";

    /// The Early Republic experiment's factions, with `faction_2` playing `policy`.
    fn model(policy: &str) -> Model {
        let text = format!(
            "default = \"cooperative\"\nfaction_4 = \"competitive\"\nfaction_2 = {policy}\n"
        );
        let table: toml::Table = toml::from_str(&text).unwrap();
        let cards = Cards::load();
        let setup = Setup::load(EARLY, None, &cards, "test.toml", "game.scenario").unwrap();
        let keys: Vec<String> = (1..=FACTIONS).map(|i| format!("faction_{i}")).collect();
        let chosen = CATALOG
            .assign(&Fields::new("test.toml", &table), &keys, "cooperative")
            .unwrap();
        let options = Options::defaults(super::super::super::OPTIONS);
        Model::new(cards, setup, &options, 60, chosen)
    }

    /// The first sitting Senates (in games of seeds 0, 1, ..., turn after turn) where `wanted`
    /// holds, `count` at most.
    fn sittings(m: &Model, count: usize, wanted: impl Fn(&Game) -> bool) -> Vec<State> {
        let mut found = Vec::new();
        for seed in 0..300 {
            let mut s = m.empty_state();
            let mut dice = Dice::from_seed(seed);
            let mut log = NoLog;
            let mut g = Game::new(m, &mut s, &mut dice, &mut log);
            super::super::setup::deal(&mut g);
            for t in 1..=30 {
                g.begin_turn(t);
                g.play_to_senate();
                if g.over() {
                    break;
                }
                assert!(g.s.in_senate);
                if wanted(&g) {
                    found.push(g.s.clone());
                    if found.len() == count {
                        return found;
                    }
                }
                g.play_from_senate();
                if g.over() {
                    break;
                }
            }
        }
        found
    }

    /// `state` after the sitting Senate's business, with faction 2 deciding `d`.
    fn decided(m: &Model, state: &State, d: Directive) -> (State, TextLog) {
        let mut s = state.clone();
        s.senate_directives[1] = d;
        let mut dice = Dice::from_seed(7);
        let mut log = TextLog::default();
        let mut g = Game::new(m, &mut s, &mut dice, &mut log);
        g.senate_decides();
        (s, log)
    }

    fn candidates_of(m: &Model, s: &State) -> Vec<Directive> {
        let mut out = Vec::new();
        Rollouts::new(m).candidates(s, 1, &mut out);
        out
    }

    #[test]
    fn the_senator_named_is_the_one_persuaded() {
        let m = model("{ policy = \"search\", rollout = \"competitive\" }");
        let mut tried = 0;
        for seed in 0..40 {
            let mut s = played(&m, seed, 1);
            if s.turn != 1 {
                continue;
            }
            s.turn = 2;
            let out = candidates_of(&m, &s);
            let named: Vec<usize> = out
                .iter()
                .filter_map(|d| match d {
                    Directive::Persuade(t) => Some(*t as usize),
                    _ => None,
                })
                .collect();
            assert!(named.len() <= TARGETS);
            let Some(&t) = named.last() else { continue };
            let mut log = TextLog::default();
            let mut dice = Dice::from_seed(seed);
            let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
            for &x in &named {
                assert!(g.persuadable(1, x));
            }
            g.s.directives[1] = Directive::Persuade(t as u8);
            let name = g.name(t);
            g.persuasion(1);
            let line = log.lines.iter().find(|l| l.contains(" persuades "));
            assert!(
                line.is_some_and(|l| l.contains(&format!("persuades {name}:"))),
                "{name} named, {line:?}"
            );
            tried += 1;
        }
        assert!(tried >= 5, "{tried} states with a persuasion target");
    }

    #[test]
    fn the_censor_accuses_the_senator_named() {
        let m = model("{ policy = \"search\", rollout = \"competitive\" }");
        let states = sittings(&m, 5, |g| {
            let c = g.s.office(Office::Censor);
            c != NONE
                && g.s.senators[c as usize].faction() == Some(1)
                && (0..g.s.senators.len()).any(|i| g.may_accuse(1, i))
        });
        assert!(
            !states.is_empty(),
            "no Senate with a Censor of faction 2 and a rival to try"
        );
        for s in &states {
            let out = candidates_of(&m, s);
            let Some(&Directive::Accuse(t)) =
                out.iter().rev().find(|d| matches!(d, Directive::Accuse(_)))
            else {
                panic!("no accusation in {out:?}");
            };
            let (after, log) = decided(&m, s, Directive::Accuse(t));
            assert!(after.prosecutions > s.prosecutions);
            let name = {
                let mut copy = s.clone();
                let (mut dice, mut nolog) = (Dice::from_seed(0), NoLog);
                Game::new(&m, &mut copy, &mut dice, &mut nolog).name(t as usize)
            };
            let first = log
                .lines
                .iter()
                .find(|l| l.contains(" prosecutes ") || l.contains(" appeals to the people"));
            assert!(
                first.is_some_and(|l| l.contains(&name)),
                "{name} accused, {first:?}"
            );
        }
    }

    #[test]
    fn the_dominant_player_raises_more_or_less_and_may_swap_the_consuls() {
        let m = model("{ policy = \"search\", rollout = \"competitive\" }");
        let states = sittings(&m, 30, |g| g.s.dominant == 1);
        assert!(
            states.len() >= 10,
            "{} Senates dominated by faction 2",
            states.len()
        );
        let units = |s: &State| s.legions_raised() + s.fleets_total();
        let (mut differ, mut swapped, mut offered) = (0, 0, 0);
        for s in &states {
            let out = candidates_of(&m, s);
            assert!(out.contains(&Directive::RaiseMore) && out.contains(&Directive::RaiseLess));
            let more = units(&decided(&m, s, Directive::RaiseMore).0);
            let follow = units(&decided(&m, s, Directive::Follow).0);
            let less = units(&decided(&m, s, Directive::RaiseLess).0);
            assert!(more >= follow && follow >= less, "{more} {follow} {less}");
            differ += (more > less) as u32;
            if out.contains(&Directive::Swap) {
                offered += 1;
                let sent = |s: &State| {
                    let mut v: Vec<(u8, u8)> = s
                        .armies
                        .iter()
                        .filter(|a| a.used && a.sent_turn == s.turn)
                        .map(|a| (a.war, a.commander))
                        .collect();
                    v.sort();
                    v
                };
                let plain = sent(&decided(&m, s, Directive::Follow).0);
                let other = sent(&decided(&m, s, Directive::Swap).0);
                swapped += (plain.len() >= 2 && plain != other) as u32;
            }
        }
        assert!(differ > 0, "raising more and less never differed");
        eprintln!("{offered} Senates offered a swap, {swapped} swapped two consuls");
        assert!(offered == 0 || swapped > 0, "a swap offered never swapped");
    }

    /// A dealt state, played `turns` turns (or to its end) with `seed`'s dice.
    fn played(m: &Model, seed: u64, turns: u32) -> State {
        let mut s = m.empty_state();
        let mut dice = Dice::from_seed(seed);
        let mut log = NoLog;
        let mut g = Game::new(m, &mut s, &mut dice, &mut log);
        super::super::setup::deal(&mut g);
        for t in 1..=turns {
            g.begin_turn(t);
            g.play_turn();
            if g.over() {
                break;
            }
        }
        s
    }

    #[test]
    fn a_copied_state_is_the_state_whatever_the_buffer_held() {
        let m = model("\"competitive\"");
        let source = played(&m, 9, 3);
        assert!(source.turn > 1, "a played game");
        let mut stale = played(&m, 1, 6);
        stale.clone_from(&source);
        assert_eq!(format!("{stale:?}"), format!("{source:?}"));
        assert_eq!(format!("{:?}", source.clone()), format!("{source:?}"));
    }

    #[test]
    fn follow_changes_nothing_and_the_styles_are_the_catalogs() {
        let m = model("{ policy = \"search\", rollout = \"competitive\" }");
        let own = m.policies[1];
        assert_eq!(
            own.search,
            Some(SearchSpec {
                budget: 48,
                horizon: 0,
                margin: None,
                confirm: 0
            })
        );
        let follow = Directive::Follow.apply(own, &m.styles);
        assert_eq!(format!("{follow:?}"), format!("{own:?}"));
        let coop = Directive::Cooperative.apply(own, &m.styles);
        assert_eq!(coop.style, super::super::policy::Style::Cooperative);
        assert_eq!(coop.search, own.search);
        assert_eq!(
            Directive::RebelNever.apply(own, &m.styles).rebel_aggression,
            0.0
        );
        assert_eq!(Directive::Stingy.apply(own, &m.styles).cooperation, 0.0);
        assert_eq!(m.labels[1], "search(rollout=competitive)");
    }

    /// Times one decision at the default budget from the start of a game's second turn, and
    /// checks the searcher draws one word of the game's dice.
    #[test]
    fn a_decision_is_quick_and_draws_one_word() {
        let m = model("{ policy = \"search\", rollout = \"competitive\" }");
        let game = Rollouts::new(&m);
        let mut searcher = Searcher::default();
        let spec = m.policies[1].search.unwrap();
        let mut decisions = 0u32;
        let start = Instant::now();
        for seed in 0..20 {
            let mut s = played(&m, seed, 1);
            if s.factions.iter().all(|f| !f.alive) || s.turn != 1 {
                continue;
            }
            s.turn = 2;
            let (mut dice, mut twin) = (Dice::from_seed(seed), Dice::from_seed(seed));
            let d = searcher.choose(&game, &s, 1, spec, &mut dice);
            assert!(d.is_some());
            twin.next_u64();
            assert_eq!(dice.next_u64(), twin.next_u64(), "one word per decision");
            decisions += 1;
        }
        let per = start.elapsed().as_secs_f64() * 1000.0 / decisions.max(1) as f64;
        eprintln!(
            "{decisions} decisions, {per:.2} ms each at budget {}",
            spec.budget
        );
    }

    #[test]
    fn search_is_deterministic() {
        let m = model("{ policy = \"search\", budget = 16, rollout = \"competitive\" }");
        let play = |seed| {
            let mut w = Worker::new(&m);
            let mut record = GameRecord::new(FACTIONS, m.columns.len());
            w.play(
                &mut Dice::from_seed(seed),
                &mut record,
                &mut NoObserver,
                &mut NoLog,
            );
            format!("{:?} {:?} {:?}", record.turns, record.ending, record.score)
        };
        for seed in 0..5 {
            assert_eq!(play(seed), play(seed));
        }
    }

    /// Search is at least not worse than the policy it rolls out. It is not shown to be better
    /// here: in the Early Republic Rome falls in about 73% of games whatever the factions do
    /// (four active wars), so a faction's win share is some 5-8% and a rollout's value is mostly
    /// 0; what search gains (about 7-8% against competitive's 6-7% in `alea run`) needs thousands
    /// of games to separate, more than a test's few seconds.
    #[test]
    fn search_is_not_worse_than_the_policy_it_rolls_out() {
        let games = 400;
        let share = |policy: &str| {
            let m = model(policy);
            let tally = play_games(&m, games, 2, 0, &Progress::hidden(), &mut NoSink).unwrap();
            tally.win[1].mean(games)
        };
        let searched = share("{ policy = \"search\", rollout = \"competitive\" }");
        let scripted = share("\"competitive\"");
        let (_, high) = wilson(searched, games);
        eprintln!("faction 2 as search {searched} vs as competitive {scripted} over {games} games");
        assert!(
            high > scripted,
            "faction 2 as search {searched} vs as competitive {scripted}"
        );
    }
}
