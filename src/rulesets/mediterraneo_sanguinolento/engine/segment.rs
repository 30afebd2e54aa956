//! Before a segment's fire: retreats begin, the flanking detachment arrives, formations break, and
//! each side's table block, columns and die modifiers for melee and archery are fixed (`Ctx`).

use super::{CellCodes, CellKind, Ctx, End, Engine, Slot, State, Step};
use crate::rulesets::mediterraneo_sanguinolento::army::{LeaderKind, RE, TACTICS};

impl Engine {
    /// Start of a segment: the detachment comes in on day 2, sides reaching their retreat threshold
    /// start to retreat, a retreat into an automatic-retreat cell leaves at once.
    pub fn begin(&self, st: &State, day: u32) -> Step {
        let mut s = *st;
        for k in 0..2 {
            if self.sides[k].detachment && day >= 2 {
                s.arrived[k] = true;
            }
        }
        for k in 0..2 {
            if s.retreat[k] == 0 && self.wants_retreat(&s, k) {
                s.retreat[k] = if self.screened(&s, k) { 1 } else { 2 };
            }
        }
        match (s.retreat[0] != 0, s.retreat[1] != 0) {
            (true, true) => Step::End(s, End::BothRetreat),
            (true, false) if self.retreat_cells[0].kind != CellKind::Combat => {
                Step::End(s, End::Retreat(0))
            }
            (false, true) if self.retreat_cells[1].kind != CellKind::Combat => {
                Step::End(s, End::Retreat(1))
            }
            _ => Step::Go(s),
        }
    }

    fn current_cell(&self, st: &State) -> &CellCodes {
        if st.retreat[0] != 0 {
            &self.retreat_cells[0]
        } else if st.retreat[1] != 0 {
            &self.retreat_cells[1]
        } else {
            &self.cell
        }
    }

    fn tactic_now(&self, st: &State, k: usize) -> usize {
        if st.retreat[k] != 0 {
            RE
        } else {
            self.sides[k].tactic
        }
    }

    /// P(the flanking detachment of side k arrives this segment), when it is still out.
    pub fn flank_chance(&self, st: &State, k: usize, day: u32, seg: u32) -> Option<f64> {
        let s = &self.sides[k];
        if !s.detachment || st.arrived[k] || day > 1 || seg < 2 {
            return None;
        }
        let target = s.flank_strategic + (seg == 3 && self.rules.flank_plus_one) as i32;
        Some(target.clamp(0, 6) as f64 / 6.0)
    }

    fn chariots_launched(&self, st: &State, k: usize, seg: u32) -> bool {
        let s = &self.sides[k];
        s.chariots_segment == seg
            && self.sum(st, k, |x| if x.chariot { 1.0 } else { 0.0 }) >= 5.0 - 1e-9
    }

    fn guard_launched(&self, st: &State, k: usize, day: u32, seg: u32) -> bool {
        let s = &self.sides[k];
        s.guard_segment != 0
            && s.guard_segment == (day - 1) * 3 + seg
            && self.sum(st, k, |x| if x.guard && x.elite { 1.0 } else { 0.0 }) >= 10.0 - 1e-9
    }

    /// The 1D20 result the breaker `b` needs to break side `o`'s standing formation; None when
    /// it does not stand.
    pub fn break_need(&self, st: &State, o: usize, seg: u32) -> Option<i32> {
        if !st.formation[o] {
            return None;
        }
        let b = Self::enemy(o);
        let owner = &self.sides[o];
        let breaker = &self.sides[b];
        let col = self.rules.column;
        let f = owner.formation_code.as_str();
        let mut m = 0;
        if seg > 1 {
            m -= if self.rules.cumulative_segment_mod {
                seg as i32 - 1
            } else {
                1
            };
        }
        let bt = TACTICS[self.tactic_now(st, b)];
        if bt == "AF" || bt == "AE" {
            m += 1;
        }
        if bt == "DE" {
            m -= 1;
        }
        if TACTICS[self.tactic_now(st, o)] == "RE" {
            m += 3;
        }
        let b_men = self.men_where(st, b, |_| true);
        if col <= 5 && self.men_where(st, b, |s| s.cavalry) >= 0.5 * b_men && b_men > 0.0 {
            m -= match f {
                "IPF" => 3,
                "IML" => 2,
                "IP" => 1,
                _ => 0,
            };
        }
        if breaker.has_formation && st.formation[b] {
            if breaker.formation_code == "IPF" && col <= 3 {
                m += match f {
                    "IP" => 1,
                    "IM" => 2,
                    "IL" => 3,
                    _ => 0,
                };
            }
            if breaker.formation_code == "IML" {
                m += match f {
                    "IM" => 1,
                    "IL" => 2,
                    _ => 0,
                };
            }
        }
        if seg <= 2 && self.men_where(st, b, |s| s.elephant) > 0.0 {
            m += if matches!(f, "IL" | "IA") { -2 } else { 2 };
        }
        if self.chariots_launched(st, b, seg) {
            m += match f {
                "IP" | "IPF" => 1,
                "IM" | "IML" => 2,
                "IL" | "IA" | "M" => 3,
                _ => 0,
            };
            if breaker.leader == LeaderKind::Chariot {
                m += 1;
            }
        }
        m += self.rules.share_sign * owner.thin;
        Some(owner.break_need - m)
    }

    pub fn context(
        &self,
        st: &State,
        day: u32,
        seg: u32,
        arrived: [bool; 2],
        broken: [bool; 2],
    ) -> Ctx {
        let cell = self.current_cell(st);
        let idx = (seg - 1) as usize;
        let use_arrived =
            seg >= 2 && cell.arrived.is_some() && cell.flanker.is_some_and(|f| arrived[f]);
        let formation = [st.formation[0] && !broken[0], st.formation[1] && !broken[1]];
        let first = if self.rules.pilum_each_day {
            seg == 1
        } else {
            day == 1 && seg == 1
        };
        let mut ctx = Ctx {
            arrived,
            formation,
            table: [None; 2],
            cas_mod: [0; 2],
            mor_mod: [0; 2],
            archery_mod: [None; 2],
            first,
            guard: [
                self.guard_launched(st, 0, day, seg),
                self.guard_launched(st, 1, day, seg),
            ],
            chariots: [
                self.chariots_launched(st, 0, seg),
                self.chariots_launched(st, 1, seg),
            ],
        };
        for k in 0..2 {
            let e = Self::enemy(k);
            let s = &self.sides[k];
            let code = if use_arrived {
                cell.arrived.expect("checked")[k][idx]
            } else {
                cell.fire[k][idx]
            };
            let mut common = 0;
            let own_m = self.mounted(st, k);
            if !self.rules.assault
                && !self.sides[e].fortified
                && own_m > 0.0
                && own_m >= 2.0 * self.mounted(st, e)
            {
                common += 1;
            }
            if !self.rules.assault
                && self.men_where(st, k, |x| x.elephant) > 0.0
                && self.men_where(st, e, |x| x.light_foot) == 0.0
            {
                common += 1;
            }
            if s.fatigued {
                common -= 1;
            }
            if self.rules.rain {
                common -= 1;
            }
            if st.retreat[k] != 0 && s.leader == LeaderKind::Cavalry {
                common += 1;
            }
            let mut cas = common + s.lead + s.veteran;
            let mut mor = common;
            if s.irregular && broken[e] {
                cas += 1;
            }
            if let Some((x, y)) = code {
                let (mut x, mut y) = (x as i32, y as i32);
                if formation[e] {
                    x -= 1;
                    y -= 1;
                }
                let mut dx = 0;
                let mut dy = 0;
                let tactic = TACTICS[self.tactic_now(st, k)];
                if day == 1
                    && seg == 1
                    && self.rules.column <= 5
                    && (tactic == "AF" || tactic == "AE")
                {
                    let men = self.men_where(st, k, |_| true);
                    let chargers = self.men_where(st, k, |x| x.charger > 0);
                    let heavy = self.men_where(st, k, |x| x.charger == 2);
                    if men > 0.0 && chargers >= 0.75 * men {
                        dx += 1;
                        if heavy >= 0.5 * chargers {
                            dy += 1;
                        }
                    }
                }
                if ctx.chariots[k] && broken[e] {
                    dx += 1;
                }
                if s.surprise {
                    dx += 1;
                }
                if self.rules.charge_digit {
                    x += dx;
                    y += dy;
                } else {
                    cas += dx;
                    mor += dy;
                }
                if ctx.guard[k] {
                    y += s.guard_bonus as i32;
                }
                let (x, y) = (x.clamp(1, 5) as usize, y.clamp(1, 5) as usize);
                ctx.table[k] = Some(if self.rules.block_by_morale {
                    (s.block(st.loss[k]), x, y)
                } else {
                    (x, y, y)
                });
            }
            ctx.cas_mod[k] = cas;
            ctx.mor_mod[k] = mor;
            let fires = s.archers_fire
                && self.men_where(st, k, |x| self.is_archer(x)) > 0.0
                && st.retreat[k] == 0;
            if fires {
                let mut m = if s.leader == LeaderKind::Archer { 1 } else { 0 };
                if self.rules.rain {
                    m -= 1;
                }
                if self.rules.assault && k == 0 {
                    m += self.rules.archery_city_mod;
                } else {
                    m += self.target_modifier(st, e);
                }
                ctx.archery_mod[k] = Some(m);
            }
        }
        ctx
    }

    pub(super) fn is_archer(&self, s: &Slot) -> bool {
        s.archer && (s.code == "IA" || self.rules.mounted_archers_fire)
    }

    /// Archery against the enemy's most numerous type (by men, L5197).
    fn target_modifier(&self, st: &State, e: usize) -> i32 {
        let mut best: (&str, f64) = ("", -1.0);
        let side = &self.sides[e];
        for (i, s) in side.slots.iter().enumerate() {
            if !self.on_board(st, e, i) {
                continue;
            }
            let men: f64 = side
                .slots
                .iter()
                .enumerate()
                .filter(|(j, t)| t.code == s.code && self.on_board(st, e, *j))
                .map(|(j, _)| st.men[e][j])
                .sum();
            if men > best.1 {
                best = (s.code.as_str(), men);
            }
        }
        match best.0 {
            "IP" | "CP" => -1,
            "CC" => -2,
            "IPF" => -3,
            _ => 0,
        }
    }

    /// (casualty %, morale loss in tenths) for the dice of side k.
    pub fn melee_result(&self, ctx: &Ctx, k: usize, die_cas: i32, die_mor: i32) -> (u8, u8) {
        match ctx.table[k] {
            None => (0, 0),
            Some((block, xc, yc)) => {
                let rc = (die_cas + ctx.cas_mod[k]).clamp(0, 7) as usize;
                let rm = (die_mor + ctx.mor_mod[k]).clamp(0, 7) as usize;
                (
                    self.rules.crt.cas[block - 1][rc][xc - 1],
                    self.rules.crt.mor[block - 1][rm][yc - 1],
                )
            }
        }
    }

    pub(super) fn archery_pct(&self, ctx: &Ctx, k: usize, die: i32) -> u8 {
        match ctx.archery_mod[k] {
            None => 0,
            Some(m) => self.rules.archery_pct(die + m),
        }
    }
}
