//! Both answers from the same segment: a battle played with dice, and the exact solver that
//! enumerates every die and merges equal states.

use super::{Budget, Choices, Ctx, End, Engine, MenCache, MenOf, State, StateKey, Step};
use crate::battle::Intractable;
use crate::dice::Dice;
use crate::exact::FastMap;

impl Engine {
    /// Plays the battle with dice; returns the final state, how it ended and on which day.
    pub fn play(&self, dice: &mut Dice) -> (State, End, u32) {
        let mut st = self.start;
        for day in 1..=self.rules.max_days {
            for seg in 1..=3 {
                st = match self.begin(&st, day) {
                    Step::End(s, e) => return (s, e, day),
                    Step::Go(s) => s,
                };
                let mut arrived = st.arrived;
                for k in 0..2 {
                    if let Some(p) = self.flank_chance(&st, k, day, seg) {
                        let target = (p * 6.0).round() as u32;
                        arrived[k] = dice.d(6) <= target;
                    }
                }
                let mut broken = [false; 2];
                for o in 0..2 {
                    if let Some(need) = self.break_need(&st, o, seg) {
                        broken[o] = dice.d(20) as i32 >= need;
                    }
                }
                let ctx = self.context(&st, day, seg, arrived, broken);
                let arch = [0, 1].map(|k| {
                    if ctx.archery_mod[k].is_some() {
                        self.archery_pct(&ctx, k, dice.d(6) as i32)
                    } else {
                        0
                    }
                });
                let melee = [0, 1].map(|k| {
                    if ctx.table[k].is_none() {
                        return (0, 0);
                    }
                    let d = dice.d(6) as i32;
                    let dm = if self.rules.separate_morale_die {
                        dice.d(6) as i32
                    } else {
                        d
                    };
                    self.melee_result(&ctx, k, d, dm)
                });
                st = match self.resolve(&st, &ctx, arch, melee, seg) {
                    Step::End(s, e) => return (s, e, day),
                    Step::Go(s) => s,
                };
            }
            st = match self.end_of_day(&st) {
                Step::End(s, e) => return (s, e, day),
                Step::Go(s) => s,
            };
        }
        (st, End::Undecided, self.rules.max_days)
    }

    fn archery_choices(&self, ctx: &Ctx, k: usize) -> Choices<u8, 6> {
        let mut c = Choices::new();
        if ctx.archery_mod[k].is_none() {
            c.add(0, 1.0);
        } else {
            for d in 1..=6 {
                c.add(self.archery_pct(ctx, k, d), 1.0 / 6.0);
            }
        }
        c
    }

    fn melee_choices(&self, ctx: &Ctx, k: usize) -> Choices<(u8, u8), 36> {
        let mut c = Choices::new();
        if ctx.table[k].is_none() {
            c.add((0, 0), 1.0);
        } else if self.rules.separate_morale_die {
            for d in 1..=6 {
                for m in 1..=6 {
                    c.add(self.melee_result(ctx, k, d, m), 1.0 / 36.0);
                }
            }
        } else {
            for d in 1..=6 {
                c.add(self.melee_result(ctx, k, d, d), 1.0 / 6.0);
            }
        }
        c
    }

    /// Every outcome of one segment from `st` with its probability.
    fn segment_exact(
        &self,
        st: &State,
        day: u32,
        seg: u32,
        men: &mut MenCache,
        emit: &mut impl FnMut(Step, f64),
    ) {
        let s0 = match self.begin(st, day) {
            Step::Go(s) => s,
            end => return emit(end, 1.0),
        };
        let mut flanks: Choices<[bool; 2], 4> = Choices::new();
        let pf = [0, 1].map(|k| self.flank_chance(&s0, k, day, seg));
        for a in [false, true] {
            for b in [false, true] {
                let p0 = match pf[0] {
                    None => (a == s0.arrived[0]) as u8 as f64,
                    Some(p) => {
                        if a {
                            p
                        } else {
                            1.0 - p
                        }
                    }
                };
                let p1 = match pf[1] {
                    None => (b == s0.arrived[1]) as u8 as f64,
                    Some(p) => {
                        if b {
                            p
                        } else {
                            1.0 - p
                        }
                    }
                };
                flanks.add([a, b], p0 * p1);
            }
        }
        let pb = [0, 1].map(|o| {
            self.break_need(&s0, o, seg)
                .map(|need| (21 - need.clamp(1, 21)) as f64 / 20.0)
        });
        for (arrived, pa) in flanks.iter() {
            for b0 in [false, true] {
                for b1 in [false, true] {
                    let pr = |p: Option<f64>, x: bool| match p {
                        None => (!x) as u8 as f64,
                        Some(p) => {
                            if x {
                                p
                            } else {
                                1.0 - p
                            }
                        }
                    };
                    let pbr = pr(pb[0], b0) * pr(pb[1], b1);
                    if pbr <= 0.0 {
                        continue;
                    }
                    let ctx = self.context(&s0, day, seg, arrived, [b0, b1]);
                    let a0 = self.archery_choices(&ctx, 0);
                    let a1 = self.archery_choices(&ctx, 1);
                    let m0 = self.melee_choices(&ctx, 0);
                    let m1 = self.melee_choices(&ctx, 1);
                    for (x0, q0) in a0.iter() {
                        for (x1, q1) in a1.iter() {
                            let s1 = self.archery(&s0, &ctx, [x0, x1], men);
                            let factors = [0, 1].map(|k| self.melee_factors(&s1, k, &ctx));
                            for (y0, r0) in m0.iter() {
                                for (y1, r1) in m1.iter() {
                                    let p = pa * pbr * q0 * q1 * r0 * r1;
                                    let step =
                                        self.melee(&s0, &s1, &ctx, factors, [y0, y1], seg, men);
                                    emit(step, p);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The state a key stands for: the men in every slot follow from the casualty steps.
    fn state_of(&self, key: &StateKey, men: &mut MenCache) -> State {
        let (cas, loss, formation, arrived, retreat) = *key;
        let men = [0, 1].map(|k| men.men(self, k, &cas[k]));
        State {
            cas,
            loss,
            formation,
            arrived,
            retreat,
            men,
        }
    }

    /// The exact battle: `finish(state, end, day, probability)` for every way it can end (each
    /// distinct ending of a day once). The budget is shared by every call of one answer.
    pub fn solve(
        &self,
        weight: f64,
        budget: &mut Budget,
        finish: &mut impl FnMut(&State, End, u32, f64),
    ) -> Result<usize, Intractable> {
        // Maps hold keys only (the men follow from them), which keeps hashing and moving cheap.
        let mut men = MenCache::default();
        let mut cur: FastMap<StateKey, f64> = FastMap::default();
        cur.insert(self.start.key(), weight);
        let mut most = 1;
        for day in 1..=self.rules.max_days {
            let mut ends: FastMap<(StateKey, End), f64> = FastMap::default();
            for seg in 1..=3 {
                let mut next: FastMap<StateKey, f64> = FastMap::default();
                let mut work = 0u64;
                for (key, &p) in &cur {
                    let st = self.state_of(key, &mut men);
                    self.segment_exact(&st, day, seg, &mut men, &mut |step, q| {
                        work += 1;
                        match step {
                            Step::Go(s) => *next.entry(s.key()).or_insert(0.0) += p * q,
                            Step::End(s, e) => *ends.entry((s.key(), e)).or_insert(0.0) += p * q,
                        }
                    });
                    if work >= 1 << 16 {
                        budget.used += work;
                        if let Some(bar) = budget.progress {
                            bar.inc(work);
                        }
                        work = 0;
                    }
                    if next.len() > budget.states || budget.used > budget.work {
                        return Err(Intractable(format!(
                            "over {} battle states or {} segment resolutions by day {day}, segment {seg} (a smaller `resolution` or `max_days` makes the exact answer cheaper)",
                            budget.states, budget.work
                        )));
                    }
                }
                budget.used += work;
                if let Some(bar) = budget.progress {
                    bar.inc(work);
                    bar.set_message(format!("exact odds: day {day}, {} states", next.len()));
                }
                most = most.max(next.len());
                if std::env::var_os("ALEA_TRACE").is_some() {
                    eprintln!("day {day} seg {seg}: {} states", next.len());
                }
                cur = next;
            }
            let mut next: FastMap<StateKey, f64> = FastMap::default();
            for (key, &p) in &cur {
                match self.end_of_day(&self.state_of(key, &mut men)) {
                    Step::Go(s) => *next.entry(s.key()).or_insert(0.0) += p,
                    Step::End(s, e) => *ends.entry((s.key(), e)).or_insert(0.0) += p,
                }
            }
            // A fixed order keeps the sums of floating-point probabilities reproducible.
            let mut ends: Vec<_> = ends.into_iter().collect();
            ends.sort_unstable_by_key(|e| e.0);
            if std::env::var_os("ALEA_TRACE").is_some() {
                eprintln!(
                    "day {day}: {} distinct endings, {} resolutions so far",
                    ends.len(),
                    budget.used
                );
            }
            for ((key, e), p) in ends {
                finish(&self.state_of(&key, &mut men), e, day, p);
            }
            cur = next;
            if cur.is_empty() {
                break;
            }
        }
        let mut left: Vec<_> = cur.into_iter().collect();
        left.sort_unstable_by_key(|e| e.0);
        for (key, p) in left {
            finish(
                &self.state_of(&key, &mut men),
                End::Undecided,
                self.rules.max_days,
                p,
            );
        }
        Ok(most)
    }
}
