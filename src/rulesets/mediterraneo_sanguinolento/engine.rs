//! The segment engine shared by field battles, assaults and landings (digest §3.2.2 step 6, §3.2.7-
//! §3.2.11, §3.2.13): days of three segments; before each segment the flanking detachment may arrive,
//! formations may break and archers fire; then both sides fire on the casualty/morale table at once.
//!
//! One deterministic resolution serves both answers: the exact solver enumerates every die of a
//! segment with its probability and merges equal battle states in a hash map; the simulator samples
//! the same dice and calls the same functions. A state holds the men left in every unit group, the
//! morale each side has lost (hundredths), which formations stand, whether flanking detachments have
//! arrived, and who is retreating; casualties in factors become whole men (floored) per segment.

use super::army::{Army, Culture, LeaderKind, MAX_GROUPS, TACTICS};
use super::data::data;
use crate::battle::Intractable;
use crate::dice::Dice;
use crate::exact::FastMap;
use crate::progress::Progress;

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

/// A tactical code: casualty column and morale column; None = no fire.
pub type Code = Option<(u8, u8)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    Combat,
    AutoRetreat,
    NoCombat,
}

#[derive(Clone, Copy, Debug)]
pub struct CellCodes {
    pub kind: CellKind,
    /// fire[side][segment 0..3]
    pub fire: [[Code; 3]; 2],
    /// After the flanking detachment arrives (segments 2 and 3; index 0 unused).
    pub arrived: Option<[[Code; 3]; 2]>,
    pub flanker: Option<usize>,
}

/// A tactical code as the matrices print it ("31") or as the rules write it ("3-2", digest T5):
/// casualty column, morale column; anything else ("-") is no fire.
pub fn parse_code(s: &str) -> Code {
    let b = s.as_bytes();
    match b {
        [c, m] | [c, b'-', m] if c.is_ascii_digit() && m.is_ascii_digit() => {
            Some((c - b'0', m - b'0'))
        }
        _ => None,
    }
}

impl CellCodes {
    /// Every segment the same codes (assaults: 5-1 against 5-2).
    pub fn fixed(attacker: (u8, u8), defender: (u8, u8)) -> CellCodes {
        CellCodes {
            kind: CellKind::Combat,
            fire: [[Some(attacker); 3], [Some(defender); 3]],
            arrived: None,
            flanker: None,
        }
    }

    /// The land matrix cell for the two tactics (rows = defender, columns = attacker, A4b);
    /// `symmetric` reads the 8 asymmetric cells as their mirror (A18).
    pub fn land(defender: usize, attacker: usize, symmetric: bool) -> CellCodes {
        let c = data()
            .tactic_cell(TACTICS[defender], TACTICS[attacker])
            .expect("the land matrix has all 100 cells");
        let kind = match c.kind.as_str() {
            "auto-retreat" => CellKind::AutoRetreat,
            "no-combat" => CellKind::NoCombat,
            _ => CellKind::Combat,
        };
        let three = |v: &[String]| -> [Code; 3] {
            let mut out = [None; 3];
            for (i, s) in v.iter().take(3).enumerate() {
                out[i] = parse_code(s);
            }
            out
        };
        let attacker_codes = match (&c.mirror_attacker_fires, symmetric) {
            (Some(m), true) => m,
            _ => &c.attacker_fires,
        };
        let two = |v: &[String]| -> [Code; 3] {
            let mut out = [None; 3];
            for (i, s) in v.iter().take(2).enumerate() {
                out[i + 1] = parse_code(s);
            }
            out
        };
        let arrived = (!c.flank_attacker_fires.is_empty())
            .then(|| [two(&c.flank_attacker_fires), two(&c.flank_defender_fires)]);
        let flanker = match (TACTICS[attacker] == "FL", TACTICS[defender] == "FL") {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        };
        CellCodes {
            kind,
            fire: [three(attacker_codes), three(&c.defender_fires)],
            arrived,
            flanker,
        }
    }
}

/// The casualty/morale table as arrays: `cas[block-1][row][col-1]` in %, `mor[..]` in tenths.
#[derive(Clone, Debug)]
pub struct Crt {
    pub cas: [[[u8; 5]; 8]; 5],
    pub mor: [[[u8; 5]; 8]; 5],
}

impl Crt {
    /// The table, built once per process for each reading (a full game builds it for every fight).
    pub fn new(corrected: bool) -> Crt {
        static TABLES: std::sync::OnceLock<[Crt; 2]> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| [Crt::build(false), Crt::build(true)])[corrected as usize].clone()
    }

    fn build(corrected: bool) -> Crt {
        let mut t = Crt {
            cas: [[[0; 5]; 8]; 5],
            mor: [[[0; 5]; 8]; 5],
        };
        for b in 0..5 {
            for r in 0..8 {
                for c in 0..5 {
                    let (p, m) = data()
                        .crt(b as u32 + 1, r as u32, c + 1, c + 1, corrected)
                        .expect("the CRT has 5 blocks of 8 rows and 5 columns");
                    t.cas[b][r][c] = p.round() as u8;
                    t.mor[b][r][c] = (m * 10.0).round() as u8;
                }
            }
        }
        t
    }
}

#[derive(Clone, Debug)]
pub struct Rules {
    pub crt: Crt,
    pub block_by_morale: bool,
    pub separate_morale_die: bool,
    pub cumulative_segment_mod: bool,
    /// +1: the -2/-4 of a thin formation is added to the breaker's roll (A10 "easier"); -1: subtracted.
    pub share_sign: i32,
    pub charge_digit: bool,
    pub floor_factors: bool,
    pub pilum_each_day: bool,
    pub mounted_by_units: bool,
    pub screen_share: bool,
    pub flank_plus_one: bool,
    /// Column of the factor and formation tables: battle terrain 1-10, or CIUDAD.
    pub column: usize,
    pub rain: bool,
    /// A city assault: no cavalry or elephant die bonus, archers shoot at the walls.
    pub assault: bool,
    pub archery_city_mod: i32,
    pub mounted_archers_fire: bool,
    pub max_days: u32,
    /// archery[result + 10] = % for a modified 1D6 result.
    pub archery: [u8; 24],
}

impl Rules {
    pub fn archery_pct(&self, result: i32) -> u8 {
        self.archery[(result + 10).clamp(0, 23) as usize]
    }
}

pub fn archery_table() -> [u8; 24] {
    static TABLE: std::sync::OnceLock<[u8; 24]> = std::sync::OnceLock::new();
    *TABLE.get_or_init(build_archery_table)
}

fn build_archery_table() -> [u8; 24] {
    let mut t = [0u8; 24];
    for (i, v) in t.iter_mut().enumerate() {
        *v = data().archery(i as i32 - 10) as u8;
    }
    t
}

#[derive(Clone, Debug)]
pub struct Slot {
    pub group: usize,
    pub code: String,
    pub men_per_unit: f64,
    /// Combat factor of one unit in this battle (terrain, elite, fortification, weather, supply, fatigue).
    pub factor: f64,
    /// Pilum or falcata in the first segment (A46).
    pub first_mult: f64,
    pub archer: bool,
    pub mounted: bool,
    /// Cavalry proper (CAB: CL CA CM CP CC), for the formation-break modifier.
    pub cavalry: bool,
    /// 1 = CM, 2 = CP or CC (charges, L5114).
    pub charger: u8,
    pub chariot: bool,
    pub elephant: bool,
    pub light_foot: bool,
    pub pursuit: f64,
    pub guard: bool,
    pub elite: bool,
    pub detached: bool,
    pub formation_type: bool,
    pub met: f64,
    pub animals: f64,
}

#[derive(Clone, Debug)]
pub struct SideSetup {
    pub slots: Vec<Slot>,
    pub order: Vec<usize>,
    /// Morale = (base - loss x weight) / (100 x weight), exactly.
    pub base: i64,
    pub weight: i64,
    pub lead: i32,
    pub veteran: i32,
    pub fatigued: bool,
    pub has_formation: bool,
    pub formation_code: String,
    pub break_need: i32,
    /// 0, 2 or 4: how thin the formation's unit type is (L5345).
    pub thin: i32,
    pub irregular: bool,
    pub leader: LeaderKind,
    pub surprise: bool,
    pub archers_fire: bool,
    pub chariots_segment: u32,
    pub guard_segment: u32,
    pub guard_bonus: u32,
    pub retreat_below: Option<i64>,
    pub retreat_after: Option<f64>,
    pub pursue: bool,
    pub initial_men: u32,
    /// Factors that fight but never take casualties (warfleets supporting a landing, L4466).
    pub support: f64,
    pub flank_strategic: i32,
    pub detachment: bool,
    pub tactic: usize,
    /// Units in every slot at the start.
    pub units0: [f64; SLOTS],
    /// Casualties are counted in steps of this many combat factors (1/resolution of the army's
    /// factors), so that equal battle states meet and merge in the exact solver.
    pub delta: f64,
    /// Fights inside fortifications: the enemy's cavalry superiority does not count (L3542).
    pub fortified: bool,
}

/// What the side fights with: terrain column, weather and its place.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub column: usize,
    pub winter: bool,
    pub storm: bool,
    pub winter_and_storm_both: bool,
    pub fort_level: u32,
    pub first_segment_bonus: bool,
    pub resolution: u32,
}

const MOUNTED: [&str; 8] = ["CL", "CA", "CM", "CP", "CC", "CML", "CMA", "CMM"];

impl SideSetup {
    pub fn new(army: &Army, enemy: &Army, tactic: usize, setting: &Setting) -> SideSetup {
        let d = data();
        let mut mult = 1.0;
        let halvings = setting.winter as u32 + setting.storm as u32;
        if halvings > 0 {
            mult *= if setting.winter_and_storm_both {
                0.5f64.powi(halvings as i32)
            } else {
                0.5
            };
        }
        mult *= 1.0 - 0.5 * army.unsupplied;
        if army.fatigue > 0 {
            mult *= 0.75;
        }
        mult *= setting.fort_level.max(1) as f64;
        let total_men: f64 = army.groups.iter().map(|g| g.men() as f64).sum();
        // The formation's unit type: the type with most men (L5345, L5349).
        let mut by_type: Vec<(String, f64)> = Vec::new();
        for g in &army.groups {
            match by_type.iter_mut().find(|(c, _)| *c == g.code) {
                Some(e) => e.1 += g.men() as f64,
                None => by_type.push((g.code.clone(), g.men() as f64)),
            }
        }
        let (form_code, form_men) =
            by_type
                .iter()
                .cloned()
                .fold((String::new(), -1.0), |a, b| if b.1 > a.1 { b } else { a });
        let share = form_men / total_men.max(1.0);
        let thin = if share >= 0.75 {
            0
        } else if share > 0.5 {
            2
        } else {
            4
        };
        let regular_men: f64 = army
            .groups
            .iter()
            .filter(|g| g.regular)
            .map(|g| g.men() as f64)
            .sum();
        let break_need = d.formation_break(&form_code, setting.column);
        let has_formation = army.culture != Culture::Barbarian
            && regular_men >= 0.75 * total_men
            && army.fatigue == 0
            && break_need.is_some();
        let detach = TACTICS[tactic] == "FL" && army.flank_fraction > 0.0;
        let mut slots = Vec::new();
        let mut order = Vec::new();
        for (gi, g) in army.groups.iter().enumerate() {
            let u = d.unit(&g.code).expect("validated unit");
            let first = if setting.first_segment_bonus {
                let pilum: f64 = if g.code == "IML" && (army.roman || army.italic) {
                    1.15
                } else {
                    1.0
                };
                let falcata: f64 = if army.hispanic { 1.1 } else { 1.0 };
                pilum.max(falcata)
            } else {
                1.0
            };
            let code = g.code.as_str();
            slots.push(Slot {
                group: gi,
                code: g.code.clone(),
                men_per_unit: u.men as f64,
                factor: d.factor(code, setting.column).unwrap_or(0.0) * g.elite() * mult,
                first_mult: first,
                archer: matches!(code, "IA" | "CA" | "CMA"),
                mounted: MOUNTED.contains(&code),
                cavalry: matches!(code, "CL" | "CA" | "CM" | "CP" | "CC"),
                charger: match code {
                    "CM" => 1,
                    "CP" | "CC" => 2,
                    _ => 0,
                },
                chariot: matches!(code, "CRL" | "CRP"),
                elephant: code == "E",
                light_foot: matches!(code, "IL" | "IA"),
                pursuit: match code {
                    "IL" => 0.5,
                    c if MOUNTED.contains(&c) || c == "CRL" => 1.0,
                    _ => 0.0,
                },
                guard: g.guard,
                elite: g.morale <= 1,
                detached: false,
                formation_type: g.code == form_code,
                met: u.cost.get("met").copied().unwrap_or(0) as f64,
                animals: u.animals as f64,
            });
            order.push(gi);
            if detach {
                order.push(MAX_GROUPS + gi);
            }
        }
        if detach {
            // Detachment slots live at MAX_GROUPS + group index; unused indices stay empty.
            let n = slots.len();
            for i in n..MAX_GROUPS {
                let mut filler = slots[0].clone();
                filler.group = i;
                filler.factor = 0.0;
                slots.push(filler);
            }
            for i in 0..MAX_GROUPS {
                let mut t = slots[i].clone();
                t.detached = true;
                slots.push(t);
            }
        }
        let all = slots;
        let weight: i64 = army
            .groups
            .iter()
            .map(|g| (g.units * 100.0).round() as i64)
            .sum::<i64>()
            .max(1);
        let avg_num: i64 = army
            .groups
            .iter()
            .map(|g| (g.units * 100.0).round() as i64 * g.morale_value() as i64)
            .sum();
        let extra = 100 * setting.fort_level as i64 + if army.king { 50 } else { 0 }
            - 10 * army.fatigue as i64;
        let vet_men: f64 = army
            .groups
            .iter()
            .filter(|g| g.veteran)
            .map(|g| g.men() as f64)
            .sum();
        let irregular_men = total_men - regular_men;
        let mut side = SideSetup {
            slots: all,
            order,
            base: 100 * avg_num + extra * weight,
            weight,
            lead: d
                .leadership(army.tactical as usize, enemy.tactical as usize)
                .unwrap_or(0),
            veteran: (vet_men >= 0.75 * total_men) as i32,
            fatigued: army.fatigue > 0,
            has_formation,
            formation_code: form_code,
            break_need: break_need.map_or(99, |n| n as i32),
            thin,
            irregular: irregular_men >= 0.75 * total_men,
            leader: army.leader_kind,
            surprise: army.surprise,
            archers_fire: army.archers_fire,
            chariots_segment: army.chariots_segment,
            guard_segment: army.guard_segment,
            guard_bonus: army.guard_bonus,
            retreat_below: army.retreat_below_morale,
            retreat_after: army.retreat_after_losses,
            pursue: army.pursue,
            initial_men: army.total_men(),
            support: 0.0,
            flank_strategic: army.flank_strategic,
            detachment: detach,
            tactic,
            units0: [0.0; SLOTS],
            delta: 1.0,
            fortified: setting.fort_level > 0,
        };
        let men = side.start_men(army);
        let mut total = 0.0;
        for (i, s) in side.slots.iter().enumerate() {
            side.units0[i] = men[i] / s.men_per_unit;
            total += side.units0[i] * s.factor;
        }
        side.delta = (total / setting.resolution as f64).max(1e-6);
        side
    }

    /// Takes up to `amount` factors from `units` of the slots passing `filter`, down the casualty
    /// order; returns what could not be taken.
    fn remove(&self, units: &mut [f64; SLOTS], amount: f64, filter: impl Fn(&Slot) -> bool) -> f64 {
        let mut r = amount;
        for &i in &self.order {
            if r <= 1e-12 {
                break;
            }
            let s = &self.slots[i];
            if !filter(s) || units[i] <= 0.0 || s.factor <= 0.0 {
                continue;
            }
            let avail = units[i] * s.factor;
            if avail <= r + 1e-12 {
                units[i] = 0.0;
                r -= avail;
            } else {
                units[i] -= r / s.factor;
                r = 0.0;
            }
        }
        r.max(0.0)
    }

    /// The men each slot starts with.
    pub fn start_men(&self, army: &Army) -> [f64; SLOTS] {
        let mut men = [0f64; SLOTS];
        for (gi, g) in army.groups.iter().enumerate() {
            let total = g.men();
            let away = if self.detachment {
                (total as f64 * army.flank_fraction).round() as u32
            } else {
                0
            };
            men[gi] = (total - away) as f64;
            if self.detachment {
                men[MAX_GROUPS + gi] = away as f64;
            }
        }
        men
    }

    pub fn morale_hundredths(&self, loss: i32) -> f64 {
        (self.base - loss as i64 * self.weight) as f64 / self.weight as f64
    }

    fn broken(&self, loss: i32) -> bool {
        self.base - loss as i64 * self.weight <= 0
    }

    fn block(&self, loss: i32) -> usize {
        let m = (self.base - loss as i64 * self.weight).div_euclid(100 * self.weight);
        m.clamp(1, 5) as usize
    }
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
            super::army::RE
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

    fn is_archer(&self, s: &Slot) -> bool {
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

    fn archery_pct(&self, ctx: &Ctx, k: usize, die: i32) -> u8 {
        match ctx.archery_mod[k] {
            None => 0,
            Some(m) => self.rules.archery_pct(die + m),
        }
    }

    /// Adds `cas` combat factors of casualties to side k, in steps: half to the `quota` bucket when
    /// one applies, the rest to the whole army (or to the body on the board while a detachment is away).
    /// The men in the slots are recomputed from the steps.
    fn allocate(&self, st: &mut State, k: usize, cas: f64, quota: Option<usize>) {
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

    fn melee_factors(&self, st: &State, k: usize, ctx: &Ctx) -> f64 {
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
    fn archery(&self, st: &State, ctx: &Ctx, arch: [u8; 2], men: &mut impl MenOf) -> State {
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
    fn melee(
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

    /// Factors the winner pursues with (L3580-L3584; IL at half).
    pub fn pursuit_factors(&self, st: &State, k: usize) -> f64 {
        let mut t = 0.0;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            t += st.men[k][i] / s.men_per_unit * s.factor * s.pursuit;
        }
        t
    }

    /// Pursuit: `row_die` and `col_die` (0 = column 1) of the 2D6, casualties on the loser.
    pub fn pursue(&self, st: &mut State, winner: usize, row_die: i32, col_die: i32) {
        let pct = self.pursuit_pct(winner, row_die, col_die);
        self.pursue_pct(st, winner, pct);
    }

    /// The pursuit table's percentage for these dice (`col_die` 0 = column 1).
    pub fn pursuit_pct(&self, winner: usize, row_die: i32, col_die: i32) -> u8 {
        let mut row = row_die;
        if self.sides[winner].leader == LeaderKind::Cavalry {
            row += 1;
        }
        if self.rules.rain {
            row -= 1;
        }
        let row = row.clamp(1, 7) as usize;
        let col = if col_die == 0 { 1 } else { col_die as usize };
        data().pursuit(row, col).unwrap_or(0) as u8
    }

    /// Every pursuit percentage with its probability (column 1 only, or a rolled column).
    pub fn pursuit_choices(&self, winner: usize, column_one: bool) -> Choices<u8, 36> {
        let mut c = Choices::new();
        let cols: &[i32] = if column_one {
            &[0]
        } else {
            &[1, 2, 3, 4, 5, 6]
        };
        for row in 1..=6 {
            for &col in cols {
                c.add(
                    self.pursuit_pct(winner, row, col),
                    1.0 / (6 * cols.len()) as f64,
                );
            }
        }
        c
    }

    /// The pursuit's casualties: `pct` of the winner's pursuit factors, on the loser.
    pub fn pursue_pct(&self, st: &mut State, winner: usize, pct: u8) {
        let loser = Self::enemy(winner);
        let cas = pct as f64 / 100.0 * self.pursuit_factors(st, winner);
        // Pursuit falls on every man of the loser, detachment included.
        let arrived = st.arrived[loser];
        st.arrived[loser] = true;
        self.allocate(st, loser, cas, None);
        st.arrived[loser] = arrived;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_cells_read_as_the_matrix_prints_them() {
        assert_eq!(parse_code("31"), Some((3, 1)));
        assert_eq!(parse_code("-"), None);
        // §7.3: row DE, column AF: attacker fires 31, defender 41.
        let c = CellCodes::land(6, 1, true);
        assert_eq!(c.fire[0][0], Some((3, 1)));
        assert_eq!(c.fire[1][0], Some((4, 1)));
        // FL/RE: the flanker fires only in segment 1 unless its detachment arrives.
        let c = CellCodes::land(0, 7, true);
        assert_eq!(c.fire[0], [Some((1, 1)), None, None]);
        assert_eq!(c.flanker, Some(1));
        assert_eq!(c.arrived.unwrap()[1][1], Some((3, 4)));
        // A18: DE/CU attacker fires 31 52 53 printed, 31 52 52 symmetric.
        assert_eq!(CellCodes::land(6, 8, false).fire[0][2], Some((5, 3)));
        assert_eq!(CellCodes::land(6, 8, true).fire[0][2], Some((5, 2)));
        assert_eq!(CellCodes::land(6, 6, true).kind, CellKind::NoCombat);
        assert_eq!(CellCodes::land(4, 7, true).kind, CellKind::AutoRetreat);
    }

    #[test]
    fn the_crt_arrays_follow_the_corrected_pattern() {
        let crt = Crt::new(true);
        let printed = Crt::new(false);
        for b in 0..5 {
            for r in 0..8 {
                for c in 0..5 {
                    let s = b + 1 + r + c + 1;
                    let cas = match s {
                        0..=5 => 0,
                        6..=8 => 5,
                        9..=11 => 10,
                        12..=14 => 15,
                        _ => 20,
                    };
                    assert_eq!(
                        crt.cas[b][r][c],
                        cas,
                        "block {} row {r} col {}",
                        b + 1,
                        c + 1
                    );
                    let mor = if s <= 5 {
                        0
                    } else if s == 6 {
                        1
                    } else {
                        2 * (s - 6)
                    };
                    assert_eq!(crt.mor[b][r][c] as usize, mor);
                }
            }
        }
        assert_eq!(printed.cas[2][6][2], 10);
        assert_eq!(printed.mor[1][7][1], 12);
    }
}
