//! Mare Nostrum's decisions for the engine's search player ([`crate::game::search`]).
//!
//! A searching nation decides at the start of each turn, before the economic phase, on a
//! [`Directive`] for the turn: follow its rollout policy, play one of the four scripted styles
//! for the turn (which sets how the treasury is split between stability, troops, fleets,
//! independents and growth, and how armies move), declare war on a given nation, or make peace.
//! Each candidate is tried by copying the state and playing on, the candidate this turn and every
//! nation's own policy after it (searchers play their rollout policy), for `horizon` turns or to
//! the end of the game. A rollout that reaches the end is worth the nation's win share; one cut
//! at the horizon is worth its VP over the leader's (a heuristic in [0, 1]).
//!
//! The searcher sees the whole state and every other nation's policy (the game has no hidden
//! information but the history cards, which the abstraction deals at random).

use super::diplomacy::Agreement;
use super::economy::{Recruit, Reforms, Scratch};
use super::policy::{BoxedPolicy, Policy, CATALOG};
use super::state::State;
use super::turn::{between_turns, end_condition, play_turn};
use super::war::MoveScratch;
use super::{Model, Order};
use crate::dice::Dice;
use crate::game::policy::ParamValues;
use crate::game::search::{SearchSpec, Searchable};
use crate::game::{GameRecord, NoLog};
use std::cell::RefCell;

/// What a searching nation does this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Directive {
    /// Its rollout policy decides everything (the baseline every search compares against).
    #[default]
    Follow,
    /// Scripted style `k` of the catalog (economist, expansionist, aggressor, naval) decides.
    Style(u8),
    /// The rollout policy decides, but the nation declares war on this nation if it may.
    War(u8),
    /// No new war, and peace offered to every enemy.
    Peace,
}

/// The styles a directive may choose: the catalog's first four policies.
const STYLES: usize = 4;

/// `policy = "search"`: a directive per turn chosen by rollouts, the rollout policy otherwise.
pub struct SearchPolicy {
    pub spec: SearchSpec,
    rollout: BoxedPolicy,
    styles: Vec<BoxedPolicy>,
}

impl SearchPolicy {
    pub fn new(spec: SearchSpec, rollout: BoxedPolicy) -> SearchPolicy {
        let styles = CATALOG.kinds[..STYLES]
            .iter()
            .map(|k| (k.build)(&ParamValues(k.params.iter().map(|p| p.default).collect())))
            .collect();
        SearchPolicy {
            spec,
            rollout,
            styles,
        }
    }

    fn acting(&self, s: &State, n: usize) -> &dyn Policy {
        match s.directives[n] {
            Directive::Style(k) => &*self.styles[k as usize],
            _ => &*self.rollout,
        }
    }
}

/// Every decision goes to the acting policy: a decision the trait gains must be delegated here
/// too, or the searcher would take the trait's default for it.
impl Policy for SearchPolicy {
    fn search_spec(&self) -> Option<SearchSpec> {
        Some(self.spec)
    }
    fn invest_stability(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> [u32; 3] {
        self.acting(s, n).invest_stability(m, s, n, d)
    }
    fn wants_commercial(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        self.acting(s, n).wants_commercial(m, s, n, o, d)
    }
    fn wants_military(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        self.acting(s, n).wants_military(m, s, n, o, d)
    }
    fn wants_passage(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        self.acting(s, n).wants_passage(m, s, n, o, d)
    }
    fn grants_passage(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        self.acting(s, n).grants_passage(m, s, n, o, d)
    }
    fn ends_agreement(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        o: usize,
        d: &mut Dice,
    ) -> Option<Agreement> {
        self.acting(s, n).ends_agreement(m, s, n, o, d)
    }
    fn declare_war(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> Option<usize> {
        match s.directives[n] {
            Directive::War(x) => s.may_declare_war(n, x as usize).then_some(x as usize),
            Directive::Peace => None,
            _ => self.acting(s, n).declare_war(m, s, n, d),
        }
    }
    fn sue_for_peace(&self, m: &Model, s: &State, n: usize, enemy: usize, d: &mut Dice) -> bool {
        s.directives[n] == Directive::Peace || self.acting(s, n).sue_for_peace(m, s, n, enemy, d)
    }
    fn accept_surrender(&self, m: &Model, s: &State, n: usize, l: usize, d: &mut Dice) -> bool {
        self.acting(s, n).accept_surrender(m, s, n, l, d)
    }
    fn population(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> (u32, u32) {
        self.acting(s, n).population(m, s, n, d)
    }
    fn recruit(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> Recruit {
        self.acting(s, n).recruit(m, s, n, d)
    }
    fn garrisons(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> u32 {
        self.acting(s, n).garrisons(m, s, n, d)
    }
    fn fleet_sea(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> u8 {
        self.acting(s, n).fleet_sea(m, s, n, d)
    }
    fn independent_action(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        d: &mut Dice,
    ) -> Option<(usize, bool)> {
        self.acting(s, n).independent_action(m, s, n, d)
    }
    fn trade_points(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> u32 {
        self.acting(s, n).trade_points(m, s, n, d)
    }
    fn army_order(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        d: &mut Dice,
    ) -> Option<(usize, Order, f64)> {
        self.acting(s, n).army_order(m, s, n, from, d)
    }
    fn reforms(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> Reforms {
        self.acting(s, n).reforms(m, s, n, d)
    }
    fn invest_for_vp(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> i64 {
        self.acting(s, n).invest_for_vp(m, s, n, d)
    }
    fn buy_goods(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> [u32; 3] {
        self.acting(s, n).buy_goods(m, s, n, d)
    }
    fn give_goods(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        d: &mut Dice,
    ) -> Option<(usize, super::scenario::Goods)> {
        self.acting(s, n).give_goods(m, s, n, d)
    }
    fn disband(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> u32 {
        self.acting(s, n).disband(m, s, n, d)
    }
}

/// A worker's rollout buffers: reused by every rollout, so rollouts allocate nothing once grown.
struct Buffers {
    scratch: Scratch,
    moves: MoveScratch,
    record: GameRecord,
}

/// The game as the search player sees it: the model and the rollouts' buffers.
pub struct Rollouts<'a> {
    model: &'a Model,
    buffers: RefCell<Buffers>,
}

impl<'a> Rollouts<'a> {
    pub fn new(model: &'a Model) -> Rollouts<'a> {
        let n = model.names.len();
        Rollouts {
            model,
            buffers: RefCell::new(Buffers {
                scratch: Scratch::default(),
                moves: MoveScratch::default(),
                record: GameRecord::new(n, 0),
            }),
        }
    }
}

impl Searchable for Rollouts<'_> {
    type State = State;
    type Action = Directive;

    fn candidates(&self, s: &State, n: usize, out: &mut Vec<Directive>) {
        out.push(Directive::Follow);
        out.extend((0..STYLES as u8).map(Directive::Style));
        for x in 0..s.nations.len() {
            if s.may_declare_war(n, x) {
                out.push(Directive::War(x as u8));
            }
        }
        if s.nations[n].at_war != 0 {
            out.push(Directive::Peace);
        }
    }

    /// `s` is the state at the start of a turn (its number already counted, nothing played).
    fn rollout(&self, s: &mut State, n: usize, d: Directive, horizon: u32, dice: &mut Dice) -> f64 {
        let m = self.model;
        let buffers = &mut *self.buffers.borrow_mut();
        s.directives[n] = d;
        let first = s.turn;
        loop {
            play_turn(
                m,
                s,
                &mut buffers.scratch,
                &mut buffers.moves,
                dice,
                &mut NoLog,
                &mut |_, _| {},
            );
            s.directives.fill(Directive::Follow);
            buffers.record.clear();
            if end_condition(m, s, &mut buffers.record).is_some() {
                return buffers.record.win_share[n];
            }
            if horizon > 0 && s.turn + 1 - first >= horizon {
                let best = s.nations.iter().map(|x| x.vp).max().unwrap_or(0).max(1);
                return (s.nations[n].vp.max(0) as f64 / best as f64).min(1.0);
            }
            between_turns(s);
            s.turn += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::scenario::Scenario;
    use super::super::turn::Worker;
    use super::*;
    use crate::game::run::{play_games, NoSink};
    use crate::game::summary::wilson;
    use crate::game::{GamePlay, NoObserver};
    use crate::options::Options;
    use crate::progress::Progress;
    use crate::spec::Fields;

    const PATH: &str = "scenarios/mare-nostrum/segunda-guerra-punica.toml";

    fn model(rome: &str) -> Model {
        let text = format!(
            "default = \"economist\"\ncarthage = \"aggressor\"\negypt = \"naval\"\nrome = {rome}\n"
        );
        let table: toml::Table = toml::from_str(&text).unwrap();
        let scenario_text = std::fs::read_to_string(PATH).unwrap();
        let scenario = Scenario::load(
            PATH,
            &scenario_text,
            &toml::Table::new(),
            "assumptions",
            "test.toml",
        )
        .unwrap();
        let keys: Vec<String> = scenario.nations.iter().map(|n| n.key.clone()).collect();
        let chosen = CATALOG
            .assign(&Fields::new("test.toml", &table), &keys, "economist")
            .unwrap();
        let options = Options::defaults(super::super::super::OPTIONS);
        let n = keys.len();
        Model::new(scenario, &options, 100, chosen, vec![0; n])
    }

    #[test]
    fn a_copied_state_is_the_state_whatever_the_buffer_held() {
        let m = model("\"economist\"");
        let mut record = GameRecord::new(13, 6);
        let mut worker = Worker::new(&m);
        worker.play(
            &mut Dice::from_seed(9),
            &mut record,
            &mut NoObserver,
            &mut NoLog,
        );
        let source = worker.state().clone();
        let mut stale = State::default();
        stale.reset(&m, &mut Dice::from_seed(1));
        stale.clone_from(&source);
        assert_eq!(format!("{stale:?}"), format!("{source:?}"));
        assert!(source.turn > 1, "a played game");
    }

    #[test]
    fn search_beats_the_policy_it_rolls_out() {
        let games = 60;
        let rome = 12;
        let share = |policy: &str| {
            let m = model(policy);
            assert_eq!(m.names[rome], "Rome");
            let tally = play_games(&m, games, 2, 0, &Progress::hidden(), &mut NoSink).unwrap();
            tally.win[rome].mean(games)
        };
        let searched = share("{ policy = \"search\", budget = 48, rollout = \"economist\" }");
        let scripted = share("\"economist\"");
        let (low, _) = wilson(searched, games);
        let (_, high) = wilson(scripted, games);
        assert!(
            low > high,
            "Rome as search {searched} vs as economist {scripted}"
        );
    }
}
