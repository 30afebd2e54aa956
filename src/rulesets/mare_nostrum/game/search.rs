//! Mare Nostrum's decisions for the engine's search player ([`crate::game::search`]).
//!
//! A searching nation decides at the start of each turn, before the economic phase, on a
//! [`Directive`] for the turn: follow its rollout policy, play one of the four scripted styles
//! for the turn (which sets how the treasury is split between stability, troops, fleets,
//! independents and growth, and how armies move), declare war on a given nation it can reach,
//! make peace, or follow its rollout policy with one decision taken: where its armies march
//! (one of the nearest targets of its largest army), whom it offers alliances, which independent
//! it works on, or how the turn's treasury is split between stability, troops and fleets. Each
//! is applied where the game asks the nation's policy, through the policy's own code (an army
//! told where to march still sizes its column by the battle odds), and falls back to the rollout
//! policy's choice when it is no longer legal by then.
//! Each candidate is tried by copying the state and playing on, the candidate this turn and every
//! nation's own policy after it (searchers play their rollout policy), for `horizon` turns or to
//! the end of the game. A rollout that reaches the end is worth the nation's win share; one cut
//! at the horizon is worth its VP over the leader's (a heuristic in [0, 1]).
//!
//! The searcher sees the whole state and every other nation's policy (the game has no hidden
//! information but the history cards, which the abstraction deals at random).

use super::diplomacy::Agreement;
use super::economy::{Recruit, Reforms, Scratch};
use super::policy::{
    has_targets, reachable, worth_marching_on, BoxedPolicy, Policy, Split, CATALOG, SPLITS,
};
use super::scenario::T;
use super::state::State;
use super::state::{size, NONE};
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
    /// The rollout policy decides, but every army that can march on this province does.
    Attack(u8),
    /// The rollout policy decides, but the nation offers this nation commercial and military
    /// alliances (signed if the other wants them too).
    Ally(u8),
    /// The rollout policy decides, but the nation's step with the independents is a grade up
    /// in this province while it can pay for it.
    Independent(u8),
    /// The rollout policy decides, but the turn's treasury goes where this split says.
    Spend(Split),
}

/// The styles a directive may choose: the catalog's first four policies.
const STYLES: usize = 4;
/// At most this many candidates of each kind that names a target (province or nation): the best
/// by the scripted policies' own scoring, so the budget is spent on plausible choices.
const TARGETS: usize = 2;

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
        match s.directives[n] {
            Directive::Spend(split) => self.acting(s, n).invest_stability_as(m, s, n, split, d),
            _ => self.acting(s, n).invest_stability(m, s, n, d),
        }
    }
    fn wants_commercial(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        s.directives[n] == Directive::Ally(o as u8)
            || self.acting(s, n).wants_commercial(m, s, n, o, d)
    }
    fn wants_military(&self, m: &Model, s: &State, n: usize, o: usize, d: &mut Dice) -> bool {
        s.directives[n] == Directive::Ally(o as u8)
            || self.acting(s, n).wants_military(m, s, n, o, d)
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
        match s.directives[n] {
            Directive::Spend(split) => self.acting(s, n).recruit_as(m, s, n, split, d),
            _ => self.acting(s, n).recruit(m, s, n, d),
        }
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
        match s.directives[n] {
            Directive::Independent(p) if may_raise(m, s, n, p as usize).is_some() => {
                Some((p as usize, true))
            }
            _ => self.acting(s, n).independent_action(m, s, n, d),
        }
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
        if let Directive::Attack(p) = s.directives[n] {
            let p = p as usize;
            if worth_marching_on(s, n, p) {
                if let Some((order, share)) = self.acting(s, n).army_order_on(m, s, n, from, p, d) {
                    return Some((p, order, share));
                }
            }
        }
        self.acting(s, n).army_order(m, s, n, from, d)
    }
    fn army_order_on(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        target: usize,
        d: &mut Dice,
    ) -> Option<(Order, f64)> {
        self.acting(s, n).army_order_on(m, s, n, from, target, d)
    }
    fn invest_stability_as(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        split: Split,
        d: &mut Dice,
    ) -> [u32; 3] {
        self.acting(s, n).invest_stability_as(m, s, n, split, d)
    }
    fn recruit_as(&self, m: &Model, s: &State, n: usize, split: Split, d: &mut Dice) -> Recruit {
        self.acting(s, n).recruit_as(m, s, n, split, d)
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
        let m = self.model;
        out.push(Directive::Follow);
        out.extend((0..STYLES as u8).map(Directive::Style));
        for x in 0..s.nations.len() {
            if s.may_declare_war(n, x) && reachable(m, s, n, x) {
                out.push(Directive::War(x as u8));
            }
        }
        if s.nations[n].at_war != 0 {
            out.push(Directive::Peace);
        }
        attack_candidates(m, s, n, out);
        ally_candidates(s, n, out);
        independent_candidates(m, s, n, out);
        out.extend(SPLITS.map(Directive::Spend));
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

/// Where the largest army of `n` may march: the [`TARGETS`] nearest provinces worth marching
/// on (the scripted policies march on the nearest), if the army is large enough to march at all.
fn attack_candidates(m: &Model, s: &State, n: usize, out: &mut Vec<Directive>) {
    if !has_targets(m, s, n) {
        return;
    }
    let Some(from) = (0..s.provinces.len())
        .filter(|&p| size(s.army(n, p)) >= 3)
        .max_by_key(|&p| (size(s.army(n, p)), std::cmp::Reverse(p)))
    else {
        return;
    };
    let mut found = 0;
    m.nearest(s, n, from, |p| {
        if worth_marching_on(s, n, p) {
            out.push(Directive::Attack(p as u8));
            found += 1;
        }
        found == TARGETS
    });
}

/// Whom `n` may offer alliances: nations at peace with it, free to sign, with an alliance still
/// missing; those sharing an enemy with it first (the scripted policies' reason to ally), then
/// the strongest, [`TARGETS`] at most.
fn ally_candidates(s: &State, n: usize, out: &mut Vec<Directive>) {
    let me = &s.nations[n];
    let mut best = [(0u64, NONE); TARGETS];
    for o in 0..s.nations.len() {
        let other = &s.nations[o];
        let both = me.commercial & me.military & (1 << o) != 0;
        if o == n || !other.alive || s.at_war(n, o) || both || me.no_renewal[o] >= s.year {
            continue;
        }
        let shared = (me.at_war & other.at_war != 0) as u64;
        keep_best(&mut best, shared << 32 | s.total_units(o) as u64, o as u8);
    }
    out.extend(kept(&best).map(Directive::Ally));
}

/// What a grade up with independent `p` costs `n` now, if `n` may take it and pay for it.
fn may_raise(m: &Model, s: &State, n: usize, p: usize) -> Option<i64> {
    if s.provinces[p].owner != NONE {
        return None;
    }
    s.independent_cost(m, n, p)
        .filter(|&cost| cost <= s.nations[n].goods[T])
}

/// Which independents `n` may work on: the [`TARGETS`] best it can pay for by the expansionist's
/// own order (closest to annexation, then cheapest).
fn independent_candidates(m: &Model, s: &State, n: usize, out: &mut Vec<Directive>) {
    let mut best = [((0u8, 0i64), NONE); TARGETS];
    for p in s.free_independents() {
        let Some(cost) = may_raise(m, s, n, p) else {
            continue;
        };
        keep_best(&mut best, (s.provinces[p].grade[n], -cost), p as u8);
    }
    out.extend(kept(&best).map(Directive::Independent));
}

/// Keeps `item` among the [`TARGETS`] with the largest keys, best first (ties to the earlier
/// item); empty slots hold [`NONE`]. An array, not a heap: candidate lists are built every turn.
fn keep_best<K: PartialOrd + Copy>(best: &mut [(K, u8); TARGETS], key: K, item: u8) {
    if let Some(k) = (0..TARGETS).find(|&k| best[k].1 == NONE || key > best[k].0) {
        best[k..].rotate_right(1);
        best[k] = (key, item);
    }
}

/// The items [`keep_best`] kept, best first.
fn kept<K>(best: &[(K, u8); TARGETS]) -> impl Iterator<Item = u8> + '_ {
    best.iter().map(|b| b.1).filter(|&item| item != NONE)
}

#[cfg(test)]
mod tests {
    use super::super::policy;
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

    /// Rome searching over aggressor rollouts, at war with a nation it can reach, its largest
    /// army led; its candidates at the start of the game.
    fn at_war() -> (Model, State, usize, Vec<Directive>) {
        let m = model("{ policy = \"search\", rollout = \"aggressor\" }");
        let rome = 12;
        let mut s = State::default();
        s.reset(&m, &mut Dice::from_seed(3));
        s.turn = 1;
        let foe = (0..s.nations.len())
            .find(|&o| o != rome && m.neighbours[rome] & (1 << o) != 0)
            .unwrap();
        s.nations[rome].at_war |= 1 << foe;
        s.nations[foe].at_war |= 1 << rome;
        let from = largest_army(&s, rome);
        let li = s.leaders.iter().position(|l| l.nation as usize == rome);
        s.leaders[li.unwrap()].province = from as u16;
        let mut out = Vec::new();
        Rollouts::new(&m).candidates(&s, rome, &mut out);
        (m, s, rome, out)
    }

    fn largest_army(s: &State, n: usize) -> usize {
        (0..s.provinces.len())
            .max_by_key(|&p| (size(s.army(n, p)), std::cmp::Reverse(p)))
            .unwrap()
    }

    #[test]
    fn every_kind_of_candidate_is_offered_and_legal() {
        let (m, s, rome, out) = at_war();
        let count = |f: fn(&Directive) -> bool| out.iter().filter(|d| f(d)).count();
        assert_eq!(count(|d| matches!(d, Directive::Style(_))), STYLES);
        assert_eq!(count(|d| matches!(d, Directive::Spend(_))), SPLITS.len());
        assert!(out.contains(&Directive::Peace));
        for kind in [
            (|d: &Directive| matches!(d, Directive::Attack(_))) as fn(&Directive) -> bool,
            |d| matches!(d, Directive::Ally(_)),
            |d| matches!(d, Directive::Independent(_)),
        ] {
            let k = count(kind);
            assert!((1..=TARGETS).contains(&k), "{k} of a kind in {out:?}");
        }
        for &d in &out {
            match d {
                Directive::War(x) => {
                    assert!(
                        s.may_declare_war(rome, x as usize) && reachable(&m, &s, rome, x as usize)
                    )
                }
                Directive::Attack(p) => assert!(worth_marching_on(&s, rome, p as usize)),
                Directive::Ally(o) => {
                    let o = o as usize;
                    assert!(o != rome && s.nations[o].alive && !s.at_war(rome, o));
                }
                Directive::Independent(p) => assert!(may_raise(&m, &s, rome, p as usize).is_some()),
                _ => {}
            }
        }
        assert!(out.len() <= 24, "{} candidates", out.len());
    }

    #[test]
    fn an_army_told_where_to_march_marches_there() {
        let (m, mut s, rome, out) = at_war();
        let from = largest_army(&s, rome);
        let nearest = policy::march_target(&m, &s, rome, from).unwrap();
        // The farthest target offered: not the one the policy would pick.
        let Some(&Directive::Attack(p)) =
            out.iter().rev().find(|d| matches!(d, Directive::Attack(_)))
        else {
            panic!("no target in {out:?}")
        };
        let p = p as usize;
        assert_ne!(
            p, nearest,
            "the second target differs from the policy's own"
        );
        s.directives[rome] = Directive::Attack(p as u8);
        let mut dice = Dice::from_seed(1);
        let (to, _, _) = m.policies[rome]
            .army_order(&m, &s, rome, from, &mut dice)
            .expect("an order");
        assert_eq!(to, p);
        let mut moves = MoveScratch::default();
        let far = m
            .route(&s, rome, from, p, &mut moves.route)
            .unwrap()
            .steps()
            .len();
        s.movement(&m, &m.policies, &mut moves, &mut dice, &mut NoLog);
        let mv = moves
            .moves
            .iter()
            .find(|mv| mv.nation == rome && mv.from == from);
        let at = mv.expect("the army marched").at;
        let left = if at == p {
            0
        } else {
            m.route(&s, rome, at, p, &mut moves.route)
                .map_or(far, |r| r.steps().len())
        };
        assert!(left < far, "{left} steps left of {far}");
    }

    #[test]
    fn an_alliance_offered_is_signed_when_the_other_wants_it() {
        let (m, mut s, rome, out) = at_war();
        let Some(&Directive::Ally(o)) = out.iter().find(|d| matches!(d, Directive::Ally(_))) else {
            panic!("no ally in {out:?}")
        };
        let o = o as usize;
        s.nations[rome].commercial &= !(1 << o);
        s.nations[o].commercial &= !(1 << rome);
        let mut dice = Dice::from_seed(1);
        // An aggressor allies only against a common enemy, and they share none.
        assert!(!m.policies[rome].wants_military(&m, &s, rome, o, &mut dice));
        s.directives[rome] = Directive::Ally(o as u8);
        assert!(m.policies[rome].wants_commercial(&m, &s, rome, o, &mut dice));
        assert!(m.policies[rome].wants_military(&m, &s, rome, o, &mut dice));
        s.diplomacy(&m, &m.policies, &mut dice, &mut NoLog);
        // The other side is an economist: it signs a commercial alliance, never a military one.
        assert!(s.nations[rome].commercial & (1 << o) != 0);
    }

    #[test]
    fn the_independent_chosen_is_the_one_raised() {
        let (m, mut s, rome, out) = at_war();
        let Some(&Directive::Independent(p)) = out
            .iter()
            .rev()
            .find(|d| matches!(d, Directive::Independent(_)))
        else {
            panic!("no independent in {out:?}")
        };
        let p = p as usize;
        let before = s.provinces[p].grade[rome];
        let treasury = s.nations[rome].goods[T];
        s.directives[rome] = Directive::Independent(p as u8);
        s.independent_diplomacy(&m, &m.policies, &mut Dice::from_seed(1), &mut NoLog);
        assert_eq!(s.provinces[p].grade[rome], before + 1);
        assert!(s.nations[rome].goods[T] < treasury);
    }

    #[test]
    fn each_split_spends_the_treasury_where_it_says() {
        let (m, mut s, rome, _) = at_war();
        s.nations[rome].stability = 3;
        s.nations[rome].goods = [2_000, 100, 100, 20];
        let spent = |split: Split| {
            let mut s = s.clone();
            s.directives[rome] = Directive::Spend(split);
            let mut dice = Dice::from_seed(1);
            s.invest_in_stability(&m, &m.policies, &mut dice, &mut NoLog);
            s.recruit(&m, &m.policies, &mut dice, &mut NoLog);
            (
                s.nations[rome].stability,
                s.total_units(rome),
                s.nations[rome].fleets,
            )
        };
        let (stable, troops, fleets) = (
            spent(Split::Stability),
            spent(Split::Troops),
            spent(Split::Fleets),
        );
        assert!(
            stable.0 < troops.0 && troops.0 == fleets.0,
            "stability bought"
        );
        assert!(
            troops.1 > fleets.1 && troops.1 > stable.1,
            "land units raised"
        );
        assert!(fleets.2 > troops.2 && fleets.2 > stable.2, "fleets built");
    }

    /// Decisions at the default budget (Rome, economist rollouts) on the first five turns of a few
    /// games: each picks one of its candidates, replays to the same choices, and takes well under a
    /// second (the 50 ms target is a benchmark figure, printed here; the bound only catches a
    /// search that has gone quadratic).
    #[test]
    fn decisions_pick_a_candidate_reproducibly_and_quickly() {
        let m = model("{ policy = \"search\", rollout = \"economist\" }");
        let (rome, spec) = (12, m.policies[12].search_spec().unwrap());
        let game = Rollouts::new(&m);
        let play = |timed: &mut std::time::Duration| -> Vec<Directive> {
            let mut searcher = crate::game::search::Searcher::default();
            let (mut scratch, mut moves) = (Scratch::default(), MoveScratch::default());
            let mut chosen = Vec::new();
            for seed in 0..4 {
                let mut s = State::default();
                let mut dice = Dice::from_seed(seed);
                s.reset(&m, &mut dice);
                for _ in 0..5 {
                    s.turn += 1;
                    let mut out = Vec::new();
                    game.candidates(&s, rome, &mut out);
                    let start = std::time::Instant::now();
                    let d = searcher.choose(&game, &s, rome, spec, &mut dice).unwrap();
                    *timed += start.elapsed();
                    assert!(out.contains(&d), "{d:?} is not among {out:?}");
                    chosen.push(d);
                    s.directives[rome] = d;
                    play_turn(
                        &m,
                        &mut s,
                        &mut scratch,
                        &mut moves,
                        &mut dice,
                        &mut NoLog,
                        &mut |_, _| {},
                    );
                    s.directives.fill(Directive::Follow);
                    between_turns(&mut s);
                }
            }
            chosen
        };
        let mut spent = std::time::Duration::ZERO;
        let first = play(&mut spent);
        assert_eq!(
            first,
            play(&mut Default::default()),
            "same seeds, other choices"
        );
        let each_ms = spent.as_secs_f64() * 1000.0 / first.len() as f64;
        eprintln!(
            "{} decisions, {each_ms:.2} ms each at budget {} horizon {}",
            first.len(),
            spec.budget,
            spec.horizon
        );
        assert!(each_ms < 1000.0, "{each_ms:.0} ms a decision");
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
