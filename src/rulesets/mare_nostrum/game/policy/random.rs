//! The random policy: every decision drawn by dice (a baseline for the scripted styles).

use super::*;

impl Policy for RandomPolicy {
    fn invest_stability(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> [u32; 3] {
        [d.below(2) as u32, d.below(2) as u32, d.below(2) as u32]
    }
    fn wants_commercial(&self, _m: &Model, _s: &State, _n: usize, _o: usize, d: &mut Dice) -> bool {
        d.below(2) == 0
    }
    fn wants_military(&self, _m: &Model, _s: &State, _n: usize, _o: usize, d: &mut Dice) -> bool {
        d.below(4) == 0
    }
    fn wants_passage(&self, _m: &Model, _s: &State, _n: usize, _o: usize, d: &mut Dice) -> bool {
        d.below(4) == 0
    }
    fn grants_passage(&self, _m: &Model, _s: &State, _n: usize, _o: usize, d: &mut Dice) -> bool {
        d.below(2) == 0
    }
    fn ends_agreement(
        &self,
        _m: &Model,
        s: &State,
        n: usize,
        o: usize,
        d: &mut Dice,
    ) -> Option<Agreement> {
        // Rarely, one of the agreements it may end, each equally likely.
        let mut held = [Agreement::Commercial; 3];
        let mut k = 0;
        for a in [
            Agreement::Commercial,
            Agreement::Military,
            Agreement::Passage,
        ] {
            if s.may_end_agreement(n, o, a) {
                held[k] = a;
                k += 1;
            }
        }
        if k == 0 || d.below(20) != 0 {
            return None;
        }
        Some(held[d.below(k as u64) as usize])
    }
    fn declare_war(&self, m: &Model, s: &State, n: usize, d: &mut Dice) -> Option<usize> {
        // Peace, or one legal war declaration against a neighbour, each equally likely.
        let legal: u32 = (0..s.nations.len())
            .filter(|&o| m.neighbours[n] & (1 << o) != 0 && s.may_declare_war(n, o))
            .count() as u32;
        let k = d.below(legal as u64 + 1) as u32;
        (0..s.nations.len())
            .filter(|&o| m.neighbours[n] & (1 << o) != 0 && s.may_declare_war(n, o))
            .nth(k as usize)
    }
    fn sue_for_peace(&self, _m: &Model, _s: &State, _n: usize, _e: usize, d: &mut Dice) -> bool {
        d.below(4) == 0
    }
    fn accept_surrender(&self, _m: &Model, _s: &State, _n: usize, _l: usize, d: &mut Dice) -> bool {
        d.below(2) == 0
    }
    fn population(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> (u32, u32) {
        (d.below(3) as u32, d.below(3) as u32)
    }
    fn recruit(&self, _m: &Model, s: &State, n: usize, d: &mut Dice) -> Recruit {
        let t = s.nations[n].goods[T].max(0) as u64;
        Recruit {
            infantry: d.below(t / 20 + 1) as u32,
            cavalry: d.below(t / 60 + 1) as u32,
            mercenary_infantry: 0,
            mercenary_cavalry: 0,
            fleets: d.below(t / 20 + 1) as u32,
        }
    }
    fn garrisons(&self, _m: &Model, s: &State, n: usize, d: &mut Dice) -> u32 {
        d.below((s.nations[n].goods[T].max(0) / 40) as u64 + 1) as u32
    }
    fn fleet_sea(&self, m: &Model, _s: &State, _n: usize, d: &mut Dice) -> u8 {
        d.below(m.scenario.seas.len() as u64) as u8
    }
    fn independent_action(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        d: &mut Dice,
    ) -> Option<(usize, bool)> {
        let p = m.independents[d.below(m.independents.len() as u64) as usize];
        match d.below(3) {
            0 => None,
            1 if s.provinces[p].grade[n] < VASSAL && s.provinces[p].grade[n] > HOSTILE => {
                Some((p, true))
            }
            1 => None,
            _ => (d.below(8) == 0).then_some((p, false)),
        }
    }
    fn trade_points(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> u32 {
        d.below(3) as u32
    }
    fn army_order(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        d: &mut Dice,
    ) -> Option<(usize, Order, f64)> {
        if d.below(2) == 0 || !has_targets(m, s, n) {
            return None;
        }
        let target = march_target(m, s, n, from)?;
        let order = [Order::Assault, Order::Siege, Order::Pillage][d.below(3) as usize];
        Some((target, order, 0.25 * (1 + d.below(4)) as f64))
    }
    fn reforms(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> Reforms {
        Reforms {
            army: d.below(4) == 0,
            military: (d.below(4) == 0) as u32,
            renewals: (d.below(4) == 0) as u32,
            political: d.below(4) == 0,
            agrarian: d.below(3) as u32,
        }
    }
    fn invest_for_vp(&self, _m: &Model, s: &State, n: usize, d: &mut Dice) -> i64 {
        d.below((s.nations[n].goods[T].max(0) / 2) as u64 + 1) as i64
    }
    fn buy_goods(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> [u32; 3] {
        [d.below(3) as u32, d.below(3) as u32, d.below(2) as u32]
    }
    fn give_goods(
        &self,
        _m: &Model,
        s: &State,
        _n: usize,
        d: &mut Dice,
    ) -> Option<(usize, super::super::scenario::Goods)> {
        // Now and then, a little of each good to a random nation (refused unless an ally).
        if d.below(8) != 0 {
            return None;
        }
        let to = d.below(s.nations.len() as u64) as usize;
        let mut goods = [0i64; 4];
        for g in &mut goods {
            *g = d.below(4) as i64;
        }
        Some((to, goods))
    }
    fn disband(&self, _m: &Model, _s: &State, _n: usize, d: &mut Dice) -> u32 {
        (d.below(6) == 0) as u32
    }
}
