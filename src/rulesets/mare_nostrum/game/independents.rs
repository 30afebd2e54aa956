//! Relations with independent provinces (digest §5.12): the ladder from Hostile to annexation,
//! its costs, and simultaneous requests settled.

use super::scenario::{COLLAPSE, T};
use super::state::{
    State, CAV, HOSTILE, INF, MILITARY, NEUTRAL, NONE, PASSAGE, SUBSIDIARY, VASSAL,
};
use super::{Model, Policies};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// No step up the independent ladder costs less (the right-of-passage minimum, L574).
pub const CHEAPEST_INDEPENDENT_STEP: i64 = 20;

/// What a nation's stability level adds to the price of an independent step.
const PRICE_BY_STABILITY: [i64; 8] = [-10, -5, -5, 0, 0, 10, 20, 0];

impl State {
    /// Diplomacy with independents (rule 3.12): every nation acts at once, one step a round (three
    /// rounds in a Historical Period); Hostile is free and permanent Hatred; steps up are paid for,
    /// and requests that do not all fit are settled as L545-L551 and L930 say (A43).
    pub fn independent_diplomacy(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let rounds = if self.historical_period { 3 } else { 1 };
        let mut acting: u16 = 0;
        for n in 0..self.nations.len() {
            if self.nations[n].alive && self.nations[n].stability < COLLAPSE {
                acting |= 1 << n;
            }
        }
        for _ in 0..rounds {
            let mut requests = Requests::default();
            for n in 0..self.nations.len() {
                if acting & (1 << n) == 0 {
                    continue;
                }
                match policies[n].independent_action(model, self, n, dice) {
                    Some((p, raise)) if self.provinces[p].owner == NONE => {
                        if raise {
                            requests.push(n, p);
                        } else {
                            self.declare_hostile(model, n, p, log);
                            acting &= !(1 << n);
                        }
                    }
                    _ => acting &= !(1 << n),
                }
            }
            acting &= self.settle_independent_requests(model, &requests, log);
        }
    }

    fn declare_hostile(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        // Its military ally or vassal gets a casus belli against `n` (L501).
        for m in 0..self.nations.len() {
            if m != n && self.provinces[p].grade[m] >= MILITARY {
                self.nations[m].casus_belli[n] = self.year + 1;
            }
        }
        self.set_grade(p, n, HOSTILE);
        self.provinces[p].hatred |= 1 << n;
        game_log!(
            log,
            "  {} declares {} Hostile",
            model.name(n),
            model.code(p)
        );
    }

    /// Grants the simultaneous steps up in `requests` (nation, independent): a grade held by a
    /// limited number of nations goes to the best placed when too many ask — higher stability in a
    /// normal turn; land, then sea adjacency, then the relation held, then stability in a Historical
    /// Period — and a tie for the last places cancels the tied requests (refunded in a normal turn,
    /// the money lost in a Historical Period). Returns the nations whose step was granted.
    pub fn settle_independent_requests(
        &mut self,
        model: &Model,
        requests: &Requests,
        log: &mut dyn GameLog,
    ) -> u16 {
        let mut granted = 0u16;
        let mut lost_money = 0u16;
        for (i, &(_, p)) in requests.iter().enumerate() {
            if requests.iter().take(i).any(|&(_, q)| q == p) {
                continue; // settled with the first request for p
            }
            // Each requester's cost; the unaffordable and the out-of-reach drop out.
            let mut asking: Requests = Requests::default();
            for &(m, q) in requests.iter().filter(|&&(_, q)| q == p) {
                if let Some(cost) = self.independent_cost(model, m, q) {
                    if self.nations[m].goods[T] >= cost {
                        asking.push(m, q);
                    }
                }
            }
            // Requests for the same next grade compete for its places: the nations asking for
            // each next grade, as masks.
            let mut wanting = [0u16; VASSAL as usize + 2];
            for &(m, q) in asking.iter() {
                wanting[self.provinces[q].grade[m] as usize + 1] |= 1 << m;
            }
            for grade in NEUTRAL + 1..=VASSAL + 1 {
                let mask = wanting[grade as usize];
                if mask == 0 {
                    continue;
                }
                let places = self.independent_places(p, grade, mask);
                let (winners, tied) = self.rank_requests(model, p, mask, places);
                granted |= winners & mask;
                if self.historical_period {
                    lost_money |= tied & mask & !winners;
                }
            }
        }
        for &(n, p) in requests.iter() {
            if lost_money & (1 << n) != 0 {
                let cost = self.independent_cost(model, n, p).unwrap_or(0);
                self.nations[n].goods[T] -= cost;
                game_log!(
                    log,
                    "  {} loses {} T: a tied request for {} in a Historical Period",
                    model.name(n),
                    cost,
                    model.code(p)
                );
            }
        }
        for &(n, p) in requests.iter() {
            if granted & (1 << n) != 0 {
                self.raise_grade(model, n, p, log);
            } else if lost_money & (1 << n) == 0 {
                game_log!(
                    log,
                    "  {}'s request for {} is not granted",
                    model.name(n),
                    model.code(p)
                );
            }
        }
        granted
    }

    /// How many of the nations in the mask `wanting` may reach `grade` in `p`: Subsidiary is
    /// shared by two nations, Military Alliance, Vassal and Annexation belong to one (§5.12);
    /// holders keep their place.
    fn independent_places(&self, p: usize, grade: u8, wanting: u16) -> usize {
        let limit = match grade {
            PASSAGE => return wanting.count_ones() as usize,
            SUBSIDIARY => 2,
            _ => 1,
        };
        let nations = ((1u32 << self.nations.len()) - 1) as u16;
        let holders =
            (self.provinces[p].grades_at_least(grade) & nations & !wanting).count_ones() as usize;
        limit - holders.min(limit)
    }

    /// The nations of the mask `everyone` that take the `places`, and those cancelled by a tie
    /// for the last.
    fn rank_requests(&self, model: &Model, p: usize, everyone: u16, places: usize) -> (u16, u16) {
        if everyone.count_ones() as usize <= places {
            return (everyone, 0);
        }
        // Larger is better.
        let key = |n: usize| -> (bool, bool, u8, u8) {
            let stability = COLLAPSE - self.nations[n].stability;
            if self.historical_period {
                let land = model.touches_nation(self, n, p);
                let sea = self.provinces[p].ports & self.port_seas[n] != 0;
                (land, sea, self.provinces[p].grade[n], stability)
            } else {
                (false, false, 0, stability)
            }
        };
        let mut winners = 0u16;
        let mut tied = 0u16;
        let mut left = places;
        let mut pending = everyone;
        while left > 0 && pending != 0 {
            let best = (0..16)
                .filter(|&n| pending & (1 << n) != 0)
                .map(key)
                .max()
                .unwrap();
            let at_best = (0..16)
                .filter(|&n| pending & (1 << n) != 0 && key(n) == best)
                .fold(0u16, |m, n| m | 1 << n);
            if at_best.count_ones() as usize <= left {
                winners |= at_best;
                left -= at_best.count_ones() as usize;
                pending &= !at_best;
            } else {
                tied |= at_best;
                break;
            }
        }
        (winners, tied)
    }

    /// Pays for and takes one step up with independent `p`: Vassal cancels every other nation's
    /// advantages there; a step beyond Vassal annexes it.
    fn raise_grade(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        let Some(cost) = self.independent_cost(model, n, p) else {
            return;
        };
        self.nations[n].goods[T] -= cost;
        let g = self.provinces[p].grade[n];
        if g == VASSAL {
            self.annex(model, n, p, log);
            return;
        }
        let next = g + 1;
        if next == VASSAL {
            for m in 0..self.nations.len() {
                if m != n && self.provinces[p].grade[m] > NEUTRAL {
                    self.provinces[p].grade[m] = NEUTRAL;
                }
            }
        }
        self.provinces[p].grade[n] = next;
        game_log!(
            log,
            "  {} pays {} T: {} now {}",
            model.name(n),
            cost,
            model.code(p),
            GRADE_NAMES[next as usize]
        );
    }

    /// The cost of raising nation `n`'s grade with independent `p` by one (L567-L574, A39), or None.
    pub fn independent_cost(&self, model: &Model, n: usize, p: usize) -> Option<i64> {
        self.independent_price(n, p).filter(|_| {
            self.independent_within_reach(model, n, p) && self.independent_place_free(n, p)
        })
    }

    /// Whether the next grade of `n` in `p` has a place no other nation holds (§5.12).
    pub fn independent_place_free(&self, n: usize, p: usize) -> bool {
        self.independent_places(p, self.provinces[p].grade[n] + 1, 1 << n) > 0
    }

    /// The ladder's distance rule (L539): past Right of Passage, an independent must touch the
    /// nation, except in a Historical Period.
    pub fn independent_within_reach(&self, model: &Model, n: usize, p: usize) -> bool {
        self.provinces[p].grade[n] < PASSAGE
            || self.historical_period
            || model.adjacent_to_nation(self, n, p)
    }

    /// What the next step up costs `n` in `p`, reach aside ([`State::independent_cost`] checks
    /// both); None if the province is Hostile to `n` or led by an independent leader.
    #[inline]
    pub fn independent_price(&self, n: usize, p: usize) -> Option<i64> {
        let pr = &self.provinces[p];
        let g = pr.grade[n];
        if g == HOSTILE || pr.indep_leader != usize::MAX {
            return None;
        }
        let units = (pr.troops[0] + pr.troops[1]) as i64;
        let ppu = pr.ppu as i64;
        let (base, min) = match g + 1 {
            PASSAGE => (10 * units, CHEAPEST_INDEPENDENT_STEP),
            3 => (10 * ppu, 30),
            MILITARY => (15 * units, 30),
            VASSAL => (10 * ppu, 30),
            _ => (10 * ppu, 30), // annexation
        };
        let modifier = PRICE_BY_STABILITY[self.nations[n].stability as usize];
        let hatred = if pr.hatred & (1 << n) != 0 { 15 } else { 0 };
        Some(min.max(base.max(min) + modifier) + hatred)
    }

    pub fn annex(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        self.set_owner(p, n);
        for m in 0..16 {
            self.set_grade(p, m, NEUTRAL);
        }
        let pr = &mut self.provinces[p];
        pr.ppu_max = pr.ppu_max.max(pr.ppu);
        let troops = std::mem::take(&mut pr.troops);
        let mut a = self.army_mut(n, p);
        a[INF] += troops[0];
        a[CAV] += troops[1];
        drop(a);
        self.nations[n].vp += 10;
        self.annexations += 1;
        // Trade points of others into the province pass to... stay; the annexer's own become internal.
        self.trade
            .retain(|l| !(l.owner as usize == n && l.to as usize == p));
        game_log!(
            log,
            "  {} annexes {} (+10 VP)",
            model.name(n),
            model.code(p)
        );
    }
}

pub const GRADE_NAMES: [&str; 6] = [
    "Hostile",
    "Neutral",
    "Passage",
    "Subsidiary",
    "Military Alliance",
    "Vassal",
];

/// Requests for a step up with an independent this round: (nation, province), at most one a nation.
#[derive(Clone, Copy, Default)]
pub struct Requests {
    items: [(usize, usize); 16],
    len: usize,
}

impl Requests {
    pub fn push(&mut self, n: usize, p: usize) {
        self.items[self.len] = (n, p);
        self.len += 1;
    }

    pub fn iter(&self) -> std::slice::Iter<'_, (usize, usize)> {
        self.items[..self.len].iter()
    }
}
