//! Strategy policies (digest §7.2): economist, expansionist, aggressor, naval, and random.
//! Each decision point of the turn asks the nation's policy; the scripted policies share one
//! type whose style and parameters come from the experiment file.

use super::diplomacy::Agreement;
use super::economy::{army_reform_cost, Recruit, Reforms};
use super::scenario::{CB, COLLAPSE, FIASCO, G, R, T};
use super::state::{
    share_of, size, State, CAV, HOSTILE, INF, MCAV, MINF, NEUTRAL, NONE, VASSAL, VCAV, VINF,
};
use super::war::combat_units;
use super::{Model, Order};
use crate::dice::Dice;
use crate::game::policy::{Param, PolicyCatalog, PolicyKind, SearchSupport};
use crate::game::search::SearchSpec;
use crate::rulesets::mare_nostrum::field::FieldSide;

mod random;
mod scripted;

/// The decisions a nation takes in a turn.
pub trait Policy: Send + Sync {
    /// `Some` for the search player: the worker asks the search for a directive each turn.
    fn search_spec(&self) -> Option<SearchSpec> {
        None
    }
    fn invest_stability(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> [u32; 3];
    fn wants_commercial(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        other: usize,
        dice: &mut Dice,
    ) -> bool;
    fn wants_military(&self, m: &Model, s: &State, n: usize, other: usize, dice: &mut Dice)
        -> bool;
    /// Whether `n` asks `other` for a right of passage through its provinces.
    fn wants_passage(&self, m: &Model, s: &State, n: usize, other: usize, dice: &mut Dice) -> bool;
    /// Whether `n` grants `other` the passage it asks for.
    fn grants_passage(&self, m: &Model, s: &State, n: usize, other: usize, dice: &mut Dice)
        -> bool;
    /// True when [`Policy::ends_agreement`] is always None and draws no dice: diplomacy then
    /// skips asking it about every other nation every turn.
    fn keeps_agreements(&self) -> bool {
        false
    }
    /// True when [`Policy::wants_passage`] and [`Policy::wants_military`] are false for a nation
    /// at peace and draw no dice: diplomacy then asks them only while the nation is at war.
    fn seeks_allies_only_at_war(&self) -> bool {
        false
    }
    /// An agreement with `other` that `n` ends on its own this turn, if any.
    fn ends_agreement(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        other: usize,
        dice: &mut Dice,
    ) -> Option<Agreement>;
    fn declare_war(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> Option<usize>;
    fn sue_for_peace(&self, m: &Model, s: &State, n: usize, enemy: usize, dice: &mut Dice) -> bool;
    fn accept_surrender(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        loser: usize,
        dice: &mut Dice,
    ) -> bool;
    /// (PPR to buy, PPU to buy).
    fn population(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> (u32, u32);
    fn recruit(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> Recruit;
    fn garrisons(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> u32;
    fn fleet_sea(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> u8;
    /// (independent province, raise its grade (true) or declare it Hostile (false)).
    fn independent_action(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        dice: &mut Dice,
    ) -> Option<(usize, bool)>;
    fn trade_points(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> u32;
    /// For the army led from `from`: target province, what to do there, share of the units taken.
    fn army_order(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        dice: &mut Dice,
    ) -> Option<(usize, Order, f64)>;
    /// For the army led from `from`, told to march on `target` (a `march_target` of `n`): what
    /// to do there and the share of the units taken, or None to stay. By default the policy's own
    /// order and share, whatever target it had in mind.
    fn army_order_on(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        target: usize,
        dice: &mut Dice,
    ) -> Option<(Order, f64)> {
        let _ = target;
        self.army_order(m, s, n, from, dice)
            .map(|(_, order, share)| (order, share))
    }
    /// Stability levels to buy when the treasury is spent as `split` says, in place of the
    /// policy's own split (the search player's spending candidates); by default its own.
    fn invest_stability_as(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        split: Split,
        dice: &mut Dice,
    ) -> [u32; 3] {
        let _ = split;
        self.invest_stability(m, s, n, dice)
    }
    /// Recruitment when the treasury is spent as `split` says; by default the policy's own.
    fn recruit_as(&self, m: &Model, s: &State, n: usize, split: Split, dice: &mut Dice) -> Recruit {
        let _ = split;
        self.recruit(m, s, n, dice)
    }
    /// Historical Period: the reforms to buy before investing for VP.
    fn reforms(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> Reforms;
    /// Historical Period: talents to turn into VP (50 T each).
    fn invest_for_vp(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> i64;
    /// Goods to buy from the independents (G, R, Cb), delivered next turn (L637-L639).
    fn buy_goods(&self, _m: &Model, _s: &State, _n: usize, _dice: &mut Dice) -> [u32; 3] {
        [0; 3]
    }
    /// Goods (T, G, R, Cb) to give a commercial ally this turn (L633).
    fn give_goods(
        &self,
        _m: &Model,
        _s: &State,
        _n: usize,
        _dice: &mut Dice,
    ) -> Option<(usize, super::scenario::Goods)> {
        None
    }
    /// Regular units to disband into PPR where they stand in the nation's own provinces (L385).
    fn disband(&self, _m: &Model, _s: &State, _n: usize, _dice: &mut Dice) -> u32 {
        0
    }
}

/// Where a turn's spare treasury goes, for the search player's spending candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every stability level the goods allow (T only above the reserve), no recruitment.
    Stability,
    /// No stability bought; the spare treasury on land units.
    Troops,
    /// No stability bought; the spare treasury on fleets.
    Fleets,
}

/// Every split, in the order candidates are listed.
pub const SPLITS: [Split; 3] = [Split::Stability, Split::Troops, Split::Fleets];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Economist,
    Expansionist,
    Aggressor,
    Naval,
}

/// A scripted policy: one style, its parameters.
pub struct Scripted {
    pub style: Style,
    /// Talents kept in the treasury before discretionary spending.
    pub reserve: f64,
    /// Share of the spare treasury spent on the style's priority each turn.
    pub spend: f64,
    /// Chance per turn at peace of looking for a war (aggressor) or a Hostile independent (expansionist).
    pub aggression: f64,
    /// Share of an army's units that march.
    pub army_share: f64,
    /// Least chance of winning (by the battle calculator's exact odds) for an army to march into
    /// a field battle it cannot simply overrun.
    pub attack_odds: f64,
    /// Share of the yearly grain (harvests plus a fifth of the granary) committed to feeding the
    /// PPU that recruitment leaves without PPR.
    pub grain_share: f64,
    /// Share of the land recruitment budget spent on mercenaries while at war.
    pub mercenary_share: f64,
    /// Share of the spare treasury turned into VP in a Historical Period (after reforms).
    pub vp_share: f64,
    /// Share of the spare treasury that may buy grain and resources from the independents.
    pub buy_share: f64,
    /// Least ratio of the column to the enemy for marching into a battle that cannot be won
    /// (no winner at 2:1 or more, A4), only to destroy the enemy army and clear the way.
    pub overrun_ratio: f64,
}

pub struct RandomPolicy;

pub type BoxedPolicy = Box<dyn Policy>;

const RESERVE: Param = Param {
    name: "reserve",
    summary: "talents kept before discretionary spending",
    min: 0.0,
    max: 1000.0,
    default: 60.0,
};
const SPEND: Param = Param {
    name: "spend",
    summary: "share of the spare treasury spent on the style's priority each turn",
    min: 0.0,
    max: 1.0,
    default: 0.6,
};
const AGGRESSION: Param = Param { name: "aggression", summary: "chance per turn at peace of starting a war (aggressor) or turning on an independent (expansionist)", min: 0.0, max: 1.0, default: 0.3 };
const ARMY_SHARE: Param = Param {
    name: "army_share",
    summary: "share of an army's units that march on campaign",
    min: 0.1,
    max: 1.0,
    default: 0.8,
};
const ATTACK_ODDS: Param = Param {
    name: "attack_odds",
    summary: "least exact chance of winning a field battle an army marches into (else it waits, unless it can overrun)",
    min: 0.0,
    max: 1.0,
    default: 0.3,
};
const GRAIN_SHARE: Param = Param {
    name: "grain_share",
    summary: "share of the yearly grain (harvests + a fifth of the granary) that may feed PPU left without PPR by recruitment (0: regulars only from PPR the cities do not need)",
    min: 0.0,
    max: 2.0,
    default: 0.0,
};
const MERCENARY_SHARE: Param = Param {
    name: "mercenary_share",
    summary: "share of the land recruitment budget spent on mercenaries at war (plus what grain leaves unspent)",
    min: 0.0,
    max: 1.0,
    default: 0.3,
};
const VP_SHARE: Param = Param {
    name: "vp_share",
    summary: "share of the spare treasury turned into VP in a Historical Period, after reforms",
    min: 0.0,
    max: 1.0,
    default: 0.5,
};
const BUY_SHARE: Param = Param {
    name: "buy_share",
    summary: "share of the spare treasury that may buy grain and resources from the independents (to feed the cities and, at Optimal, for the stability levels worth 5 VP)",
    min: 0.0,
    max: 1.0,
    default: 0.5,
};
const OVERRUN_RATIO: Param = Param {
    name: "overrun_ratio",
    summary: "least column-to-enemy ratio for marching into a field battle the odds say cannot be won, only to destroy the enemy army (at 2:1 or more a battle has no winner)",
    min: 2.0,
    max: 20.0,
    default: 4.0,
};
const PARAMS: &[Param] = &[
    RESERVE,
    SPEND,
    AGGRESSION,
    ARMY_SHARE,
    ATTACK_ODDS,
    GRAIN_SHARE,
    MERCENARY_SHARE,
    VP_SHARE,
    BUY_SHARE,
    OVERRUN_RATIO,
];

fn scripted(style: Style, v: &crate::game::policy::ParamValues) -> BoxedPolicy {
    Box::new(Scripted {
        style,
        reserve: v.get(0),
        spend: v.get(1),
        aggression: v.get(2),
        army_share: v.get(3),
        attack_odds: v.get(4),
        grain_share: v.get(5),
        mercenary_share: v.get(6),
        vp_share: v.get(7),
        buy_share: v.get(8),
        overrun_ratio: v.get(9),
    })
}

pub const CATALOG: PolicyCatalog<BoxedPolicy> = PolicyCatalog {
    kinds: &[
        PolicyKind { name: "economist", summary: "invests in stability every turn (VP at Optimal), grows its cities, trades, avoids wars", params: PARAMS, build: |v| scripted(Style::Economist, v) },
        PolicyKind { name: "expansionist", summary: "buys independents' grades up to annexation (+10 VP), turns on weak ones", params: PARAMS, build: |v| scripted(Style::Expansionist, v) },
        PolicyKind { name: "aggressor", summary: "recruits, declares war on the weakest neighbour, takes its cities (+5 VP) and pushes it to surrender", params: PARAMS, build: |v| scripted(Style::Aggressor, v) },
        PolicyKind { name: "naval", summary: "builds fleets for sea supremacy and trade, fights at sea", params: PARAMS, build: |v| scripted(Style::Naval, v) },
        PolicyKind { name: "random", summary: "uniform among the legal choices at every decision (a baseline)", params: &[], build: |_| Box::new(RandomPolicy) },
    ],
    search: Some(SearchSupport {
        build: |spec, rollout| Box::new(super::search::SearchPolicy::new(spec, rollout)),
        // Rollouts to the end are long and their win-or-lose outcome noisy: eight turns scored by
        // VP against the leader's choose better at a fraction of the cost (measured: Rome as
        // search over economist rollouts won 95% of 40 games at horizon 8, 62% at horizon 0).
        defaults: SearchSpec {
            budget: 64,
            horizon: 8,
            margin: None,
            confirm: 0,
        },
    }),
};

/// Whether `n` can carry a war to `o`: by land, or across a sea both open on where `n`'s fleet
/// outnumbers `o`'s by the 10 that naval supremacy needs (L669).
pub(super) fn reachable(m: &Model, s: &State, n: usize, o: usize) -> bool {
    m.neighbours[n] & (1 << o) != 0
        || (m.sea_neighbours[n] & (1 << o) != 0 && s.nations[n].fleets >= s.nations[o].fleets + 10)
}

/// Who `n` meets in a field battle at `p`: every army there at war with it under their best
/// leader, or a Hostile independent's troops; None if nobody.
fn foe_side(s: &State, n: usize, p: usize) -> Option<FieldSide> {
    let pr = &s.provinces[p];
    if pr.owner == NONE {
        if pr.grade[n] != HOSTILE || pr.troops[0] + pr.troops[1] == 0 {
            return None;
        }
        let li = pr.indep_leader;
        return Some(FieldSide {
            units: [pr.troops[0], pr.troops[1], 0, 0],
            leader: (li != usize::MAX).then(|| s.leaders[li].leader),
            independent: true,
        });
    }
    let mut units = [0u32; 4];
    let mut leader: Option<crate::rulesets::mare_nostrum::Leader> = None;
    for o in 0..s.nations.len() {
        if !s.at_war(n, o) || size(s.army(o, p)) == 0 {
            continue;
        }
        let u = combat_units(s.army(o, p));
        for t in 0..4 {
            units[t] += u[t];
        }
        if let Some(li) = s.best_leader(o, p) {
            let l = s.leaders[li].leader;
            if leader.is_none_or(|b| (l.modifier, l.age) > (b.modifier, b.age)) {
                leader = Some(l);
            }
        }
    }
    (units.iter().sum::<u32>() > 0).then_some(FieldSide {
        units,
        leader,
        independent: false,
    })
}

/// The nearest province worth marching on: an enemy city `n` does not hold, or a Hostile independent.
pub(super) fn march_target(m: &Model, s: &State, n: usize, from: usize) -> Option<usize> {
    m.nearest(s, n, from, |p| worth_marching_on(s, n, p))
}

/// Whether `p` is worth marching on for `n`: an enemy city it does not hold, or a Hostile
/// independent.
pub(super) fn worth_marching_on(s: &State, n: usize, p: usize) -> bool {
    let pr = &s.provinces[p];
    match pr.owner {
        NONE => pr.grade[n] == HOSTILE,
        o => s.at_war(n, o as usize) && pr.occupier as usize != n,
    }
}

/// Whether `n` has anything to march on: a war, or a Hostile independent.
pub(super) fn has_targets(_m: &Model, s: &State, n: usize) -> bool {
    s.nations[n].at_war != 0 || s.hostile_independent(n)
}
