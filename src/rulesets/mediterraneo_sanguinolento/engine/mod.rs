//! The segment engine shared by field battles, assaults and landings (digest §3.2.2 step 6, §3.2.7-
//! §3.2.11, §3.2.13): days of three segments; before each segment the flanking detachment may arrive,
//! formations may break and archers fire; then both sides fire on the casualty/morale table at once.
//!
//! One deterministic resolution serves both answers: the exact solver enumerates every die of a
//! segment with its probability and merges equal battle states in a hash map; the simulator samples
//! the same dice and calls the same functions. A state holds the men left in every unit group, the
//! morale each side has lost (hundredths), which formations stand, whether flanking detachments have
//! arrived, and who is retreating; casualties in factors become whole men (floored) per segment.

use super::army::MAX_GROUPS;
use crate::exact::FastMap;
use crate::progress::Progress;

mod play;
mod pursuit;
mod resolve;
mod segment;
mod setup;
mod tables;
#[cfg(test)]
mod tests;

pub use setup::{Setting, SideSetup, Slot};
pub use tables::{archery_table, parse_code, CellCodes, CellKind, Code, Crt, Rules};

pub const SLOTS: usize = 2 * MAX_GROUPS;
/// How much work one exact answer may do, over all its terrain cases, before it gives up.
pub struct Budget<'a> {
    /// Most battle states kept between two segments.
    pub states: usize,
    /// Most segment resolutions (about 150 ns each).
    pub work: u64,
    pub used: u64,
    pub progress: Option<&'a Progress>,
}

impl<'a> Budget<'a> {
    /// When the user did not ask for exact odds: about two seconds, then Monte Carlo.
    pub fn quick() -> Budget<'static> {
        Budget {
            states: 300_000,
            work: 12_000_000,
            used: 0,
            progress: None,
        }
    }

    /// When the user insists on exact odds: about a minute, with a progress bar.
    pub fn patient(progress: &'a Progress) -> Budget<'a> {
        Budget {
            states: 3_000_000,
            work: 400_000_000,
            used: 0,
            progress: Some(progress),
        }
    }
}

/// Morale lost that certainly breaks a side (the guard's all-or-nothing, L5106).
const BROKEN: i32 = 1 << 24;

/// A battle state. Its identity (equality, hash, order) is the casualties each side has taken, in
/// steps, with their morale lost and flags; the men left in every slot follow from the casualties and
/// are kept alongside only so that they are not recomputed at every look.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// Casualty steps per side: [taken while its flanking detachment was away, taken with the whole
    /// army, by the guard's quota, by the chariots' quota, by the cavalry's quota].
    pub cas: [[u16; 5]; 2],
    /// Morale lost, in hundredths of a point.
    pub loss: [i32; 2],
    pub formation: [bool; 2],
    pub arrived: [bool; 2],
    /// 0 = not retreating, 1 = screened by its cavalry (one segment), 2 = harassed (to the day's end).
    pub retreat: [u8; 2],
    /// Men left in every slot (derived from `cas`).
    pub men: [[f64; SLOTS]; 2],
}

/// What identifies a state: casualty steps, morale lost, formations, arrivals, retreats.
type StateKey = ([[u16; 5]; 2], [i32; 2], [bool; 2], [bool; 2], [u8; 2]);

impl State {
    fn key(&self) -> StateKey {
        (
            self.cas,
            self.loss,
            self.formation,
            self.arrived,
            self.retreat,
        )
    }
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for State {}
impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h)
    }
}
impl PartialOrd for State {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for State {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    Exterminated(usize),
    BothExterminated,
    Rout(usize),
    BothRout,
    Retreat(usize),
    BothRetreat,
    Undecided,
}

pub enum Step {
    Go(State),
    End(State, End),
}

#[derive(Clone, Debug)]
pub struct Engine {
    pub sides: [SideSetup; 2],
    pub start: State,
    pub cell: CellCodes,
    /// The cell played while side k retreats (its tactic replaced by RE).
    pub retreat_cells: [CellCodes; 2],
    pub rules: Rules,
}

/// The dice-dependent part of a segment, fixed once the flank and formation rolls are known.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    arrived: [bool; 2],
    formation: [bool; 2],
    /// (block, casualty column, morale column) or None when the side does not fire.
    pub table: [Option<(usize, usize, usize)>; 2],
    cas_mod: [i32; 2],
    mor_mod: [i32; 2],
    archery_mod: [Option<i32>; 2],
    first: bool,
    guard: [bool; 2],
    chariots: [bool; 2],
}

/// A list of at most N (value, probability) pairs with equal values merged.
pub struct Choices<T: Copy + PartialEq, const N: usize> {
    items: [(T, f64); N],
    len: usize,
}

impl<T: Copy + PartialEq + Default, const N: usize> Choices<T, N> {
    pub fn new() -> Self {
        Choices {
            items: [(T::default(), 0.0); N],
            len: 0,
        }
    }
    pub fn add(&mut self, v: T, p: f64) {
        if p <= 0.0 {
            return;
        }
        for it in &mut self.items[..self.len] {
            if it.0 == v {
                it.1 += p;
                return;
            }
        }
        self.items[self.len] = (v, p);
        self.len += 1;
    }
    pub fn iter(&self) -> impl Iterator<Item = (T, f64)> + '_ {
        self.items[..self.len].iter().copied()
    }
}

impl<T: Copy + PartialEq + Default, const N: usize> Default for Choices<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// Where the men in the slots come from once casualty steps change: recomputed (simulation), or
/// looked up (the exact solver meets the same few casualty vectors millions of times).
pub trait MenOf {
    fn men(&mut self, e: &Engine, k: usize, cas: &[u16; 5]) -> [f64; SLOTS];
}

pub struct Recompute;

impl MenOf for Recompute {
    fn men(&mut self, e: &Engine, k: usize, cas: &[u16; 5]) -> [f64; SLOTS] {
        e.composition(k, cas)
    }
}

#[derive(Default)]
pub struct MenCache([FastMap<[u16; 5], [f64; SLOTS]>; 2]);

impl MenOf for MenCache {
    fn men(&mut self, e: &Engine, k: usize, cas: &[u16; 5]) -> [f64; SLOTS] {
        *self.0[k]
            .entry(*cas)
            .or_insert_with(|| e.composition(k, cas))
    }
}

impl Engine {
    fn enemy(k: usize) -> usize {
        1 - k
    }

    pub fn on_board(&self, st: &State, k: usize, i: usize) -> bool {
        i < self.sides[k].slots.len() && (!self.sides[k].slots[i].detached || st.arrived[k])
    }

    fn sum(&self, st: &State, k: usize, f: impl Fn(&Slot) -> f64) -> f64 {
        let mut t = 0.0;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            if self.on_board(st, k, i) && st.men[k][i] > 0.0 {
                t += st.men[k][i] / s.men_per_unit * f(s);
            }
        }
        t
    }

    fn men_where(&self, st: &State, k: usize, f: impl Fn(&Slot) -> bool) -> f64 {
        let mut t = 0.0;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            if self.on_board(st, k, i) && f(s) {
                t += st.men[k][i];
            }
        }
        t
    }

    pub fn total_men(&self, st: &State, k: usize) -> f64 {
        st.men[k].iter().sum()
    }

    /// Combat factors on the board (casualty basis).
    pub fn factors(&self, st: &State, k: usize) -> f64 {
        self.sum(st, k, |s| s.factor) + self.sides[k].support
    }

    /// Every factor of the side, detachment included.
    pub fn all_factors(&self, st: &State, k: usize) -> f64 {
        let mut t = 0.0;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            t += st.men[k][i] / s.men_per_unit * s.factor;
        }
        t
    }

    fn mounted(&self, st: &State, k: usize) -> f64 {
        if self.rules.mounted_by_units {
            self.sum(st, k, |s| if s.mounted { 1.0 } else { 0.0 })
        } else {
            self.men_where(st, k, |s| s.mounted)
        }
    }

    pub fn morale(&self, st: &State, k: usize) -> f64 {
        self.sides[k].morale_hundredths(st.loss[k]) / 100.0
    }

    pub fn broken(&self, st: &State, k: usize) -> bool {
        self.sides[k].broken(st.loss[k])
    }

    fn wants_retreat(&self, st: &State, k: usize) -> bool {
        let s = &self.sides[k];
        let by_morale = s
            .retreat_below
            .is_some_and(|t| s.base - st.loss[k] as i64 * s.weight < t * s.weight);
        let lost = s.initial_men as f64 - self.total_men(st, k);
        let by_losses = s
            .retreat_after
            .is_some_and(|f| lost >= f * s.initial_men as f64 && lost > 0.0);
        by_morale || by_losses
    }

    /// Whether the side's cavalry screens its retreat (L2904, A20).
    pub fn screened(&self, st: &State, k: usize) -> bool {
        let e = Self::enemy(k);
        let own = self.men_where(st, k, |s| s.mounted);
        let enemy_mounted = self.men_where(st, e, |s| s.mounted);
        let by_men = if self.rules.screen_share {
            own >= 0.25 * self.men_where(st, e, |_| true)
        } else {
            own > 0.0 && own >= 1.25 * enemy_mounted
        };
        let by_factors = own > 0.0
            && self.sum(st, k, |s| if s.mounted { s.factor } else { 0.0 })
                >= 0.15 * self.factors(st, e);
        by_men || by_factors
    }
}
