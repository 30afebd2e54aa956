//! A segment's fire resolved: casualties in steps (quotas, detachment, casualty order), archery then
//! melee, how a segment or a day ends.

use super::{Ctx, End, Engine, MenOf, Recompute, Slot, State, Step, BROKEN, SLOTS};
use crate::rulesets::mediterraneo_sanguinolento::army::MAX_GROUPS;

impl Engine {
    /// Adds `cas` combat factors of casualties to side k, in steps: half to the `quota` bucket when
    /// one applies, the rest to the whole army (or to the body on the board while a detachment is away).
    /// The men in the slots are recomputed from the steps.
    pub(super) fn allocate(&self, st: &mut State, k: usize, cas: f64, quota: Option<usize>) {
        if self.add_steps(st, k, cas, quota) {
            st.men[k] = self.composition(k, &st.cas[k]);
        }
    }

    /// `allocate` without recomputing the men; whether any step was added.
    fn add_steps(&self, st: &mut State, k: usize, cas: f64, quota: Option<usize>) -> bool {
        let cas = if self.rules.floor_factors {
            (cas + 1e-9).floor()
        } else {
            cas
        };
        let delta = self.sides[k].delta;
        let steps = |x: f64| -> u16 { (x / delta + 0.5).floor().min(60_000.0) as u16 };
        if cas <= 1e-12 || steps(cas) == 0 {
            return false;
        }
        let general = if self.sides[k].detachment && !st.arrived[k] {
            0
        } else {
            1
        };
        let c = &mut st.cas[k];
        match quota {
            Some(q) => {
                let half = steps(cas / 2.0);
                c[q] = c[q].saturating_add(half);
                c[general] = c[general].saturating_add(steps(cas).saturating_sub(half));
            }
            None => c[general] = c[general].saturating_add(steps(cas)),
        }
        true
    }

    /// The men left in every slot after these casualty steps: quotas from their own troops first,
    /// then the casualties taken while the detachment was away from the body on the board, then the
    /// rest from the whole army; each general share half from the formation's unit type (L3600) and
    /// the remainder down the casualty order (L3600).
    pub fn composition(&self, k: usize, cas: &[u16; 5]) -> [f64; SLOTS] {
        let side = &self.sides[k];
        let mut units = side.units0;
        let d = side.delta;
        let mut all = cas[1] as f64 * d;
        type Quota = (usize, fn(&Slot) -> bool);
        let quotas: [Quota; 3] = [(2, |s| s.guard), (3, |s| s.chariot), (4, |s| s.mounted)];
        for (q, filter) in quotas {
            if cas[q] > 0 {
                all += side.remove(&mut units, cas[q] as f64 * d, filter);
            }
        }
        if cas[0] > 0 {
            let away = cas[0] as f64 * d;
            let left = side.remove(&mut units, away / 2.0, |s| s.formation_type && !s.detached);
            all += side.remove(&mut units, away / 2.0 + left, |s| !s.detached);
        }
        if all > 0.0 {
            let left = side.remove(&mut units, all / 2.0, |s| s.formation_type);
            side.remove(&mut units, all / 2.0 + left, |_| true);
        }
        let mut men = [0.0; SLOTS];
        for (i, s) in side.slots.iter().enumerate() {
            men[i] = units[i] * s.men_per_unit;
        }
        men
    }

    fn quota(&self, st: &State, ctx: &Ctx, k: usize) -> Option<usize> {
        if ctx.guard[k] {
            Some(2)
        } else if ctx.chariots[k] {
            Some(3)
        } else if st.retreat[k] == 1 {
            Some(4)
        } else {
            None
        }
    }

    pub(super) fn melee_factors(&self, st: &State, k: usize, ctx: &Ctx) -> f64 {
        let archers_fired = ctx.archery_mod[k].is_some();
        let mut t = self.sides[k].support;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            if !self.on_board(st, k, i) || st.men[k][i] <= 0.0 {
                continue;
            }
            let mut f = st.men[k][i] / s.men_per_unit * s.factor;
            if ctx.first {
                f *= s.first_mult;
            }
            if archers_fired && self.is_archer(s) {
                f *= 0.5;
            }
            t += f;
        }
        t
    }

    fn archer_factors(&self, st: &State, k: usize) -> f64 {
        self.sum(st, k, |s| if self.is_archer(s) { s.factor } else { 0.0 })
    }

    /// One segment, every die known.
    pub fn resolve(
        &self,
        st: &State,
        ctx: &Ctx,
        arch: [u8; 2],
        melee: [(u8, u8); 2],
        seg: u32,
    ) -> Step {
        let s = self.archery(st, ctx, arch, &mut Recompute);
        let factors = [0, 1].map(|k| self.melee_factors(&s, k, ctx));
        self.melee(st, &s, ctx, factors, melee, seg, &mut Recompute)
    }

    /// The state after both sides' archers fired (formations and arrivals of `ctx` applied).
    pub(super) fn archery(
        &self,
        st: &State,
        ctx: &Ctx,
        arch: [u8; 2],
        men: &mut impl MenOf,
    ) -> State {
        let mut s = *st;
        s.formation = ctx.formation;
        s.arrived = ctx.arrived;
        if arch != [0, 0] {
            let a_cas = [0, 1].map(|k| arch[k] as f64 / 100.0 * self.archer_factors(st, k));
            for k in 0..2 {
                let e = Self::enemy(k);
                let q = self.quota(st, ctx, e);
                if self.add_steps(&mut s, e, a_cas[k], q) {
                    s.men[e] = men.men(self, e, &s.cas[e]);
                }
            }
        }
        s
    }

    /// Both sides' melee fire from the state after archery, `factors` being each side's melee
    /// factors in it; `st` is the state the segment began in (it fixes the casualty quotas).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn melee(
        &self,
        st: &State,
        after_archery: &State,
        ctx: &Ctx,
        factors: [f64; 2],
        melee: [(u8, u8); 2],
        seg: u32,
        men: &mut impl MenOf,
    ) -> Step {
        let mut s = *after_archery;
        for k in 0..2 {
            let e = Self::enemy(k);
            let q = self.quota(st, ctx, e);
            if self.add_steps(&mut s, e, melee[k].0 as f64 / 100.0 * factors[k], q) {
                s.men[e] = men.men(self, e, &s.cas[e]);
            }
            s.loss[e] += melee[k].1 as i32 * 10;
        }
        for k in 0..2 {
            if ctx.guard[k] && !self.broken(&s, Self::enemy(k)) {
                s.loss[k] = s.loss[k].max(BROKEN);
            }
        }
        self.after(s, seg)
    }

    fn after(&self, mut s: State, seg: u32) -> Step {
        let alive = [self.total_men(&s, 0) > 0.5, self.total_men(&s, 1) > 0.5];
        match alive {
            [false, false] => return Step::End(s, End::BothExterminated),
            [false, true] => return Step::End(s, End::Exterminated(0)),
            [true, false] => return Step::End(s, End::Exterminated(1)),
            _ => {}
        }
        for k in 0..2 {
            if self.sides[k].detachment && !s.arrived[k] {
                let main: f64 = s.men[k][..MAX_GROUPS].iter().sum();
                if main <= 0.5 {
                    s.arrived[k] = true;
                }
            }
        }
        match (self.broken(&s, 0), self.broken(&s, 1)) {
            (true, true) => return Step::End(s, End::BothRout),
            (true, false) => return Step::End(s, End::Rout(0)),
            (false, true) => return Step::End(s, End::Rout(1)),
            _ => {}
        }
        let leaves = [0, 1].map(|k| s.retreat[k] == 1 || (s.retreat[k] == 2 && seg == 3));
        match leaves {
            [true, true] => Step::End(s, End::BothRetreat),
            [true, false] => Step::End(s, End::Retreat(0)),
            [false, true] => Step::End(s, End::Retreat(1)),
            _ => Step::Go(s),
        }
    }

    /// The day's end: -0.25 morale each (L3570); formations re-form for the next day (L5367).
    pub fn end_of_day(&self, st: &State) -> Step {
        let mut s = *st;
        s.loss[0] += 25;
        s.loss[1] += 25;
        s.formation = [self.sides[0].has_formation, self.sides[1].has_formation];
        match (self.broken(&s, 0), self.broken(&s, 1)) {
            (true, true) => Step::End(s, End::BothRout),
            (true, false) => Step::End(s, End::Rout(0)),
            (false, true) => Step::End(s, End::Rout(1)),
            _ => Step::Go(s),
        }
    }
}
