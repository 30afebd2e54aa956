//! What a finished land battle means and how it is written (digest §3.2.10-§3.2.12): the winner,
//! men and factors lost (pursuit apart), morale left, casualty recovery, slaves, metal and animals
//! taken, the commanders' risk; the schema's layout, and the sink a trial or the exact answer is
//! written to.

use super::army::{Army, RE};
use super::data::CIUDAD;
use super::engine::{End, Engine, State};
use crate::battle::{Exact, Schema, Trial};

pub const SIDE_NAMES: [&str; 2] = ["attacker", "defender"];
pub const OUTCOMES: &[&str] = &["attacker", "defender", "none"];

/// How a battle ended, including the ways that never reach the segment engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Battle(End),
    /// 20:1 in combat factors: this side is eliminated (L5265).
    Overrun(usize),
    /// The matrix says no combat (DE against DE).
    NoBattle,
    /// An automatic-retreat cell: the side that chose RE leaves (None: both did).
    AutoRetreat(Option<usize>),
    /// A side left before combat, screened by twice the enemy's mounted troops (L2897).
    Disengaged(usize),
    /// The garrison broke inside its walls and surrendered (L3576).
    Surrender,
}

impl Verdict {
    pub fn winner(&self) -> Option<usize> {
        match *self {
            Verdict::Battle(End::Exterminated(k))
            | Verdict::Battle(End::Rout(k))
            | Verdict::Battle(End::Retreat(k))
            | Verdict::Overrun(k)
            | Verdict::AutoRetreat(Some(k)) => Some(1 - k),
            Verdict::Surrender => Some(0),
            _ => None,
        }
    }

    /// Sides that lost (for casualty recovery and the commanders' risk).
    pub fn losers(&self) -> [bool; 2] {
        match *self {
            Verdict::Battle(End::BothRout) | Verdict::Battle(End::BothRetreat) => [true, true],
            Verdict::Battle(End::BothExterminated) => [true, true],
            _ => match self.winner() {
                Some(w) => [w == 1, w == 0],
                None => [false, false],
            },
        }
    }

    fn exterminated(&self, k: usize) -> bool {
        matches!(*self, Verdict::Overrun(l) if l == k)
            || matches!(*self, Verdict::Battle(End::Exterminated(l)) if l == k)
            || matches!(*self, Verdict::Battle(End::BothExterminated))
    }

    /// Whether the loser `l` left on the Retirada matrix (pursued in column 1, L3584).
    pub fn pursuit_column_one(&self, engine: &Engine, st: &State, l: usize) -> bool {
        engine.sides[l].tactic == RE
            || st.retreat[l] != 0
            || matches!(
                self,
                Verdict::AutoRetreat(_) | Verdict::Battle(End::Retreat(_))
            )
    }
}

/// A battle's end as the recorder needs it.
pub struct Finish<'a> {
    pub engine: &'a Engine,
    pub end_state: State,
    pub verdict: Verdict,
    pub day: u32,
    pub pursuit_lost: [u32; 2],
    pub terrain: usize,
}

pub enum Sink<'a> {
    Trial(&'a mut Trial),
    Exact(&'a mut Exact, f64),
}

impl Sink<'_> {
    fn outcome(&mut self, i: usize) {
        match self {
            Sink::Trial(t) => t.outcome = i,
            Sink::Exact(e, w) => e.outcomes[i] += *w,
        }
    }
    fn count(&mut self, k: usize, v: usize) {
        match self {
            Sink::Trial(t) => t.counts[k] = v as u32,
            Sink::Exact(e, w) => e.counts[k].add_mass(v, *w),
        }
    }
    fn scalar(&mut self, k: usize, x: f64) {
        if x == 0.0 {
            return;
        }
        match self {
            Sink::Trial(t) => t.scalars[k] = x,
            Sink::Exact(e, w) => e.scalars[k] += *w * x,
        }
    }
}

#[derive(Clone, Debug)]
struct SideLayout {
    losses: usize,
    men_lost: usize,
    factors_lost: usize,
    pursuit_men_lost: usize,
    morale_left: usize,
    men_recovered: usize,
    slaves_taken: usize,
    metal_taken: usize,
    animals_taken: usize,
    leader_killed: Option<usize>,
    leader_wounded: Option<usize>,
    routed: usize,
    retreated: usize,
    exterminated: usize,
    units_lost: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Layout {
    sides: [SideLayout; 2],
    days: usize,
    terrain: usize,
    overrun: usize,
    no_battle: usize,
    auto_retreat: usize,
    disengaged: usize,
    both_routed: usize,
    undecided: usize,
    surrender: Option<usize>,
}

impl Layout {
    pub fn schema(armies: &[Army; 2], max_days: u32, assault: bool) -> (Schema, Layout) {
        let mut s = Schema::new(OUTCOMES);
        let men = [armies[0].total_men(), armies[1].total_men()];
        let losses = [0, 1].map(|k| {
            s.count(
                format!("{}_losses", SIDE_NAMES[k]),
                (men[k] as usize).div_ceil(100) + 1,
            )
        });
        let days = s.count("days", max_days as usize);
        // Assaults and battles in a city fight on the city column (CIUDAD), past the ten terrains.
        let terrain = s.count("battle_terrain", CIUDAD);
        let sides = [0, 1].map(|k| {
            let n = SIDE_NAMES[k];
            let e = men[1 - k] as f64;
            let big = |x: f64| x.max(1.0);
            let units_lost = armies[k]
                .groups
                .iter()
                .map(|g| s.scalar_bounded(format!("{n}_units_lost/{}", g.label()), big(g.units)))
                .collect();
            SideLayout {
                losses: losses[k],
                men_lost: s.scalar_bounded(format!("{n}_men_lost"), big(men[k] as f64)),
                factors_lost: s
                    .scalar_bounded(format!("{n}_factors_lost"), big(men[k] as f64 / 10.0)),
                pursuit_men_lost: s
                    .scalar_bounded(format!("{n}_pursuit_men_lost"), big(men[k] as f64)),
                morale_left: s.scalar_bounded(format!("{n}_morale_left"), 20.0),
                men_recovered: s.scalar_bounded(format!("{n}_men_recovered"), big(men[k] as f64)),
                slaves_taken: s.scalar_bounded(format!("{n}_slaves_taken"), big(e)),
                metal_taken: s.scalar_bounded(format!("{n}_metal_taken"), big(e * 5.0)),
                animals_taken: s.scalar_bounded(format!("{n}_animals_taken"), big(e)),
                leader_killed: armies[k]
                    .has_commander
                    .then(|| s.scalar(format!("{n}_leader_killed"))),
                leader_wounded: armies[k]
                    .has_commander
                    .then(|| s.scalar(format!("{n}_leader_wounded"))),
                routed: s.scalar(format!("{n}_routed")),
                retreated: s.scalar(format!("{n}_retreated")),
                exterminated: s.scalar(format!("{n}_exterminated")),
                units_lost,
            }
        });
        let layout = Layout {
            sides,
            days,
            terrain,
            overrun: s.scalar("overrun"),
            no_battle: s.scalar("no_battle"),
            auto_retreat: s.scalar("automatic_retreat"),
            disengaged: s.scalar("disengaged_before_battle"),
            both_routed: s.scalar("both_routed"),
            undecided: s.scalar("undecided"),
            surrender: assault.then(|| s.scalar("garrison_surrendered")),
        };
        (s, layout)
    }

    pub fn record(&self, f: &Finish, sink: &mut Sink) {
        let e = f.engine;
        let v = f.verdict;
        sink.outcome(v.winner().unwrap_or(2));
        sink.count(self.days, f.day as usize);
        sink.count(self.terrain, f.terrain);
        let losers = v.losers();
        let winner = v.winner();
        let mut lost_units = [[0.0f64; super::engine::SLOTS]; 2];
        let mut lost_men = [0f64; 2];
        for k in 0..2 {
            let start = &e.start.men[k];
            let end = if v.exterminated(k) {
                [0.0; super::engine::SLOTS]
            } else {
                f.end_state.men[k]
            };
            for (i, s) in e.sides[k].slots.iter().enumerate() {
                let d = (start[i] - end[i].min(start[i])).max(0.0);
                lost_men[k] += d;
                lost_units[k][i] = d / s.men_per_unit;
            }
        }
        for k in 0..2 {
            let l = &self.sides[k];
            let side = &e.sides[k];
            // Whole men: a fraction of a man is not a casualty (A22).
            let lost_men_k = (lost_men[k] + 1e-6).floor();
            sink.count(l.losses, (lost_men_k / 100.0).round() as usize);
            sink.scalar(l.men_lost, lost_men_k);
            let factors: f64 = side
                .slots
                .iter()
                .enumerate()
                .map(|(i, s)| lost_units[k][i] * s.factor)
                .sum();
            sink.scalar(l.factors_lost, factors);
            sink.scalar(l.pursuit_men_lost, f.pursuit_lost[k] as f64);
            let morale = if v.exterminated(k) || v == Verdict::Surrender && k == 1 {
                0.0
            } else {
                e.morale(&f.end_state, k).max(0.0)
            };
            sink.scalar(l.morale_left, morale);
            let rate = if matches!(v, Verdict::Overrun(o) if o == k) {
                0.0
            } else if losers[k] {
                0.10
            } else if winner == Some(k) {
                0.25
            } else {
                0.0
            };
            sink.scalar(l.men_recovered, (rate * lost_men_k).floor());
            if winner == Some(k) {
                let o = 1 - k;
                let mut slaves = ((lost_men[o] + 1e-6) / 50.0).floor();
                if v == Verdict::Surrender {
                    slaves += e.total_men(&f.end_state, o).floor();
                }
                sink.scalar(l.slaves_taken, slaves);
                let (mut metal, mut animals) = (0.0, 0.0);
                for (i, s) in e.sides[o].slots.iter().enumerate() {
                    metal += lost_units[o][i] * s.met;
                    animals += lost_units[o][i] * s.animals;
                }
                sink.scalar(l.metal_taken, (metal / 4.0).floor());
                sink.scalar(l.animals_taken, (animals / 10.0).floor());
            }
            // The commanders' risk (L2304-L2318, digest D8).
            let fought = !matches!(v, Verdict::NoBattle | Verdict::Disengaged(_))
                && !matches!(v, Verdict::Battle(End::Undecided));
            let (killed, wounded) = if !fought {
                (0.0, 0.0)
            } else if v.exterminated(k) {
                (7.0 / 12.0, 0.25)
            } else if losers[k] {
                (1.0 / 36.0, 1.0 / 18.0)
            } else if winner == Some(k) {
                (1.0 / 216.0, 5.0 / 216.0)
            } else {
                (0.0, 0.0)
            };
            if let Some(i) = l.leader_killed {
                sink.scalar(i, killed);
            }
            if let Some(i) = l.leader_wounded {
                sink.scalar(i, wounded);
            }
            sink.scalar(
                l.routed,
                matches!(v, Verdict::Battle(End::Rout(r)) if r == k) as u8 as f64
                    + matches!(v, Verdict::Battle(End::BothRout)) as u8 as f64,
            );
            sink.scalar(
                l.retreated,
                (matches!(v, Verdict::Battle(End::Retreat(r)) if r == k)
                    || matches!(v, Verdict::Battle(End::BothRetreat))
                    || matches!(v, Verdict::AutoRetreat(Some(r)) if r == k)
                    || matches!(v, Verdict::AutoRetreat(None))
                    || matches!(v, Verdict::Disengaged(r) if r == k)) as u8 as f64,
            );
            sink.scalar(l.exterminated, v.exterminated(k) as u8 as f64);
            for (g, &idx) in l.units_lost.iter().enumerate() {
                let mut u = 0.0;
                for (i, s) in side.slots.iter().enumerate() {
                    if s.group == g {
                        u += lost_units[k][i];
                    }
                }
                sink.scalar(idx, u);
            }
        }
        sink.scalar(self.overrun, matches!(v, Verdict::Overrun(_)) as u8 as f64);
        sink.scalar(self.no_battle, (v == Verdict::NoBattle) as u8 as f64);
        sink.scalar(
            self.auto_retreat,
            matches!(v, Verdict::AutoRetreat(_)) as u8 as f64,
        );
        sink.scalar(
            self.disengaged,
            matches!(v, Verdict::Disengaged(_)) as u8 as f64,
        );
        sink.scalar(
            self.both_routed,
            (v == Verdict::Battle(End::BothRout)) as u8 as f64,
        );
        sink.scalar(
            self.undecided,
            (v == Verdict::Battle(End::Undecided)) as u8 as f64,
        );
        if let Some(i) = self.surrender {
            sink.scalar(i, (v == Verdict::Surrender) as u8 as f64);
        }
    }
}
