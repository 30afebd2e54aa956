//! What a finished land battle means and how it is written (digest §3.2.10-§3.2.12): the winner,
//! men and factors lost (pursuit apart), morale left, casualty recovery, slaves, metal and animals
//! taken, the commanders' risk; the schema's layout, and the sink a trial or the exact answer is
//! written to.

use super::army::{Army, RE};
use super::data::CIUDAD;
use super::engine::{End, Engine, State};
use super::SIDES;
use crate::battle::{side_column, Exact, Schema, Trial, LOSSES};

pub const OUTCOMES: &[&str] = &[SIDES[0], SIDES[1], "none"];

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
    leader_promoted: Option<usize>,
    units_promoted: usize,
    /// The commander's promotion modifier before the 1:2 bonus (+5 for a leader 0 … +1 for 4-5).
    leader_modifier: i32,
    /// Each group's morale (0 = A … 3 = D).
    group_morale: Vec<usize>,
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

/// A commander's promotion modifier on 1D20 (success on 20 or more) by his higher value (A39).
pub fn leader_promotion_modifier(level: i32) -> i32 {
    match level {
        i32::MIN..=0 => 5,
        1 => 4,
        2 => 3,
        3 => 2,
        _ => 1,
    }
}

/// P(1D20 + modifier >= 20).
pub fn leader_promotion_chance(modifier: i32) -> f64 {
    ((modifier + 1).clamp(0, 20)) as f64 / 20.0
}

/// The troop-promotion modifier for a side from the force ratio seen by the winner (A21), the
/// ratio taken to one decimal: winner outnumbered 2:1 or worse +3 (losers -3); outnumbered up to
/// 1.9:1 +2 (-2); equal 0 (-1); superior up to 1.9:1 -1 (0); superior 2:1 or more -2 (+1).
pub fn promotion_ratio_modifier(winner_factors: f64, loser_factors: f64, for_winner: bool) -> i32 {
    let round1 = |x: f64| (x * 10.0).round() / 10.0;
    let (w, l) = if winner_factors >= loser_factors {
        match round1(winner_factors / loser_factors.max(1e-9)) {
            q if q >= 2.0 => (-2, 1),
            q if q >= 1.1 => (-1, 0),
            _ => (0, -1),
        }
    } else {
        match round1(loser_factors / winner_factors.max(1e-9)) {
            q if q >= 2.0 => (3, -3),
            q if q >= 1.1 => (2, -2),
            _ => (0, -1),
        }
    };
    if for_winner {
        w
    } else {
        l
    }
}

/// P(1D6 <= threshold + modifier): D rises on 1-3, C on 1-2, B on 1; A cannot rise.
pub fn troop_promotion_chance(morale: usize, modifier: i32) -> f64 {
    let threshold = match morale {
        0 => return 0.0,
        m => m as i32,
    };
    ((threshold + modifier).clamp(0, 6)) as f64 / 6.0
}

impl Layout {
    pub fn schema(armies: &[Army; 2], max_days: u32, assault: bool) -> (Schema, Layout) {
        let mut s = Schema::new(OUTCOMES);
        let men = [armies[0].total_men(), armies[1].total_men()];
        let losses = [0, 1].map(|k| {
            s.count(
                side_column(SIDES[k], LOSSES),
                (men[k] as usize).div_ceil(100) + 1,
            )
        });
        let days = s.count("days", max_days as usize);
        // Assaults and battles in a city fight on the city column (CIUDAD), past the ten terrains.
        let terrain = s.count("battle_terrain", CIUDAD);
        let sides = [0, 1].map(|k| {
            let n = SIDES[k];
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
                leader_promoted: armies[k]
                    .has_commander
                    .then(|| s.scalar(format!("{n}_leader_promoted"))),
                units_promoted: s.scalar_bounded(
                    format!("{n}_units_promoted"),
                    big(armies[k].groups.iter().map(|g| g.units).sum()),
                ),
                leader_modifier: leader_promotion_modifier(
                    armies[k].tactical.max(armies[k].strategic),
                ),
                group_morale: armies[k].groups.iter().map(|g| g.morale).collect(),
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
            let start_factors = [0, 1].map(|s| e.all_factors(&e.start, s));
            if let (Some(i), Some(w)) = (l.leader_promoted, winner) {
                if w == k && fought {
                    let outnumbered = 2.0 * start_factors[k] <= start_factors[1 - k];
                    sink.scalar(
                        i,
                        leader_promotion_chance(l.leader_modifier + outnumbered as i32),
                    );
                }
            }
            // Troop morale promotion (L1768-L1824): every group that fought, not after an overrun.
            if let (Some(w), true) = (winner, fought && !matches!(v, Verdict::Overrun(_))) {
                let m = promotion_ratio_modifier(start_factors[w], start_factors[1 - w], w == k);
                let mut promoted = 0.0;
                for (i, s) in side.slots.iter().enumerate() {
                    // Empty filler slots (beside a flanking detachment) belong to no group.
                    let Some(&morale) = l.group_morale.get(s.group) else {
                        continue;
                    };
                    let left = e.start.men[k][i] / s.men_per_unit - lost_units[k][i];
                    promoted += left.max(0.0) * troop_promotion_chance(morale, m);
                }
                sink.scalar(l.units_promoted, promoted);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Digest D7: leader promotion on 1D20 + modifier >= 20, +1 when he won at 1:2 or worse.
    #[test]
    fn d7_leader_promotion() {
        let p = |level: i32, bonus: bool| {
            leader_promotion_chance(leader_promotion_modifier(level) + bonus as i32)
        };
        let expect = [
            (0, 3.0 / 10.0, 7.0 / 20.0),
            (1, 1.0 / 4.0, 3.0 / 10.0),
            (2, 1.0 / 5.0, 1.0 / 4.0),
            (3, 3.0 / 20.0, 1.0 / 5.0),
            (4, 1.0 / 10.0, 3.0 / 20.0),
            (5, 1.0 / 10.0, 3.0 / 20.0),
        ];
        for (level, plain, bonus) in expect {
            assert!((p(level, false) - plain).abs() < 1e-12, "leader {level}");
            assert!(
                (p(level, true) - bonus).abs() < 1e-12,
                "leader {level} at 1:2"
            );
        }
    }

    /// §3.2.12: D rises on 1-3, C on 1-2, B on 1, A never; the digest's example: a morale-C unit
    /// that won outnumbered 2:1 rises on 1D6 <= 2 + 3.
    #[test]
    fn troop_promotion_thresholds_and_ratio() {
        assert_eq!(troop_promotion_chance(3, 0), 3.0 / 6.0);
        assert_eq!(troop_promotion_chance(2, 0), 2.0 / 6.0);
        assert_eq!(troop_promotion_chance(1, 0), 1.0 / 6.0);
        assert_eq!(troop_promotion_chance(0, 3), 0.0);
        let m = promotion_ratio_modifier(10.0, 20.0, true);
        assert_eq!(m, 3);
        assert_eq!(troop_promotion_chance(2, m), 5.0 / 6.0);
        assert_eq!(promotion_ratio_modifier(10.0, 20.0, false), -3);
        assert_eq!(promotion_ratio_modifier(10.0, 15.0, true), 2);
        assert_eq!(promotion_ratio_modifier(10.0, 10.2, true), 0);
        assert_eq!(promotion_ratio_modifier(10.0, 10.2, false), -1);
        assert_eq!(promotion_ratio_modifier(15.0, 10.0, true), -1);
        assert_eq!(promotion_ratio_modifier(15.0, 10.0, false), 0);
        assert_eq!(promotion_ratio_modifier(30.0, 10.0, true), -2);
        assert_eq!(promotion_ratio_modifier(30.0, 10.0, false), 1);
        assert_eq!(troop_promotion_chance(3, -4), 0.0);
    }
}
