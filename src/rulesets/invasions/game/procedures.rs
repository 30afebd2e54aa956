//! The full game's dice procedures (digest §4.2-§4.9, §4.19) as pure functions over small inputs:
//! each has its exact distribution and a sampler drawing from `Dice`, so the turn engine samples
//! what the tests check exactly. Where the digest flags two readings the choice is a parameter named
//! after the rule option the battle calculator already offers (`empire_area_bonus`,
//! `kingdom_treasury_tens`); the default is the digest's recommendation.

use super::scenario::{AreaId, ProvinceId, Scenario};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::rulesets::invasions::raid;

/// A D2 check (L143): a D10, even passes.
pub fn d2(dice: &mut Dice) -> bool {
    dice.d10().is_multiple_of(2)
}

/// A one-D10 test: which faces (1..=10, 0 read as 10) pass; exact P and sampler follow from it.
pub trait D10Test {
    fn passes(&self, face: i32) -> bool;

    fn p(&self) -> f64 {
        (1..=10).filter(|&d| self.passes(d)).count() as f64 / 10.0
    }

    fn roll(&self, dice: &mut Dice) -> bool {
        self.passes(dice.d10() as i32)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decline {
    #[default]
    None,
    Simple,
    Double,
}

impl Decline {
    /// Both the Empire and the collapse test add 1 / 2 for simple / double Decline.
    fn bonus(self) -> i32 {
        self as i32
    }
}

/// Q16: the Kingdom test's −1 per 10 gold counts complete tens (15 gold = −1, the digest's reading)
/// or follows the global round-up rule (15 gold = −2). Rule option `kingdom_treasury_tens`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TreasuryTens {
    #[default]
    Complete,
    RoundedUp,
}

impl TreasuryTens {
    pub fn from_options(o: &Options) -> TreasuryTens {
        match o.choice("kingdom_treasury_tens") {
            "rounded-up" => TreasuryTens::RoundedUp,
            _ => TreasuryTens::Complete,
        }
    }
}

/// Q15: the Empire test's +2 per Civilized Area counts from the third on (rule text L542, the
/// digest's reading) or only beyond the first three (player-aid summary L3292). Rule option
/// `empire_area_bonus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EmpireAreaBonus {
    #[default]
    FromTheThird,
    BeyondThree,
}

impl EmpireAreaBonus {
    pub fn from_options(o: &Options) -> EmpireAreaBonus {
        match o.choice("empire_area_bonus") {
            "beyond-three" => EmpireAreaBonus::BeyondThree,
            _ => EmpireAreaBonus::FromTheThird,
        }
    }
}

/// The forced transition to Kingdom (VII.C, L500-512): D10 + m ≤ age.
#[derive(Clone, Copy, Debug, Default)]
pub struct KingdomTest {
    pub age: u8,
    pub treasury: u8,
    pub horde_in_barbarian_area: bool,
    pub tens: TreasuryTens,
}

impl KingdomTest {
    /// Forced from age 5 on, unless a voluntary transition was announced (the caller's choice).
    pub fn required(&self) -> bool {
        self.age >= 5
    }

    /// The modifier's named terms, in the order the calculator shows them.
    pub fn terms(&self) -> [(&'static str, i32); 2] {
        let t = self.treasury as i32;
        let tens = match self.tens {
            TreasuryTens::Complete => t / 10,
            TreasuryTens::RoundedUp => (t + 9) / 10,
        };
        [
            ("treasury tens", -tens),
            (
                "horde in a Barbarian Area",
                2 * self.horde_in_barbarian_area as i32,
            ),
        ]
    }

    pub fn modifier(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}

impl D10Test for KingdomTest {
    fn passes(&self, face: i32) -> bool {
        face + self.modifier() <= self.age as i32
    }
}

/// The test for Empire (VIII.B, L530-546): D10 + m ≥ 8.
#[derive(Clone, Copy, Debug, Default)]
pub struct EmpireTest {
    pub civilized_areas: u8,
    pub barbarian_areas: u8,
    /// The best leader's combat bonus; 2+ gives +1.
    pub leader_combat: u8,
    pub decline: Decline,
    pub holds_roma_or_constantinopolis: bool,
    pub clients: u8,
    pub area_bonus: EmpireAreaBonus,
}

impl EmpireTest {
    /// 3+ Areas with Barbarian ones counting ½ and no rounding, i.e. 2·civilized + barbarian ≥ 6.
    /// (Never on the turn the Kingdom was founded: the caller knows the turn.)
    pub fn required(&self) -> bool {
        2 * self.civilized_areas as u32 + self.barbarian_areas as u32 >= 6
    }

    /// The modifier's named terms, in the order the calculator shows them.
    pub fn terms(&self) -> [(&'static str, i32); 6] {
        let free = match self.area_bonus {
            EmpireAreaBonus::FromTheThird => 2,
            EmpireAreaBonus::BeyondThree => 3,
        };
        [
            (
                "Civilized Areas",
                2 * (self.civilized_areas as i32 - free).max(0),
            ),
            ("Barbarian Areas", self.barbarian_areas as i32),
            (
                "leader with combat bonus 2+",
                (self.leader_combat >= 2) as i32,
            ),
            ("in decline", self.decline.bonus()),
            (
                "Roma or Constantinopolis",
                3 * self.holds_roma_or_constantinopolis as i32,
            ),
            ("clients", self.clients as i32),
        ]
    }

    pub fn modifier(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}

impl D10Test for EmpireTest {
    fn passes(&self, face: i32) -> bool {
        face + self.modifier() >= 8
    }
}

/// The collapse test of a bankrupt Empire (XIV.K, L943-952): D10 + m ≥ 9 collapses.
#[derive(Clone, Copy, Debug, Default)]
pub struct CollapseTest {
    pub age: u8,
    pub decline: Decline,
    pub calamities: u8,
    pub capital_lost_last_turn: bool,
    /// Controlled Areas other than the capital's.
    pub other_areas: u8,
}

impl CollapseTest {
    /// Only an Empire of age 9+ tests, and only when bankrupt (the caller's trigger).
    pub fn required(&self) -> bool {
        self.age >= 9
    }

    /// The modifier's named terms, in the order the calculator shows them.
    pub fn terms(&self) -> [(&'static str, i32); 5] {
        [
            ("age", (self.age as i32 - 9).max(0)),
            ("in decline", self.decline.bonus()),
            ("calamities", self.calamities as i32),
            (
                "capital conquered last turn",
                2 * self.capital_lost_last_turn as i32,
            ),
            ("other Areas", -(self.other_areas as i32)),
        ]
    }

    pub fn modifier(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}

impl D10Test for CollapseTest {
    fn passes(&self, face: i32) -> bool {
        face + self.modifier() >= 9
    }
}

// ---- Raids (XI.E, L679-689) -------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RaidMarker {
    #[default]
    None,
    Minus,
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaidOutcome {
    Failure,
    Minus,
    Plus,
    Settle,
}

const RAID_OUTCOMES: [RaidOutcome; 4] = [
    RaidOutcome::Failure,
    RaidOutcome::Minus,
    RaidOutcome::Plus,
    RaidOutcome::Settle,
];

/// The raid roll's modifier: −1 per Civilized unit in the target or crossed by a deep raid, +1 / +2
/// for the marker the previous raid left on the target (Q39).
pub fn raid_modifier(civilized_units: u32, previous: RaidMarker) -> i32 {
    previous as i32 - civilized_units as i32
}

/// P(failure, Incursion −, Incursion +, settle): the table lives in the raid calculator, once.
pub fn raid_distribution(m: i32) -> [f64; 4] {
    raid::bands(m)
}

pub fn roll_raid(m: i32, dice: &mut Dice) -> RaidOutcome {
    RAID_OUTCOMES[raid::band(dice.d10() as i32 + m)]
}

// ---- Caravans (X.D, L633-641) -----------------------------------------------------------------

/// Gold of (an ordinary, the exceptional) caravan while the *Caravan* event is in force (L639).
pub const CARAVAN_EVENT_GOLD: [u8; 2] = [5, 10];

/// P(each caravan of `s.caravans`, in order, is the exceptional one).
pub fn exceptional_caravan_distribution(s: &Scenario) -> Vec<f64> {
    s.caravans
        .iter()
        .map(|&(_, low, high)| (high - low + 1) as f64 / 10.0)
        .collect()
}

/// The index into `s.caravans` of this turn's exceptional caravan (one D10).
pub fn roll_exceptional_caravan(s: &Scenario, dice: &mut Dice) -> usize {
    let face = dice.d10() as u8;
    // The loader checks the faces cover 1..=10 once each.
    s.caravans
        .iter()
        .position(|&(_, low, high)| (low..=high).contains(&face))
        .expect("the caravan table covers every D10 face")
}

/// A Civilized controller's gold from one caravan province.
pub fn caravan_gold(s: &Scenario, exceptional: bool, caravan_event: bool) -> u8 {
    let gold = if caravan_event {
        CARAVAN_EVENT_GOLD
    } else {
        s.caravan_gold
    };
    gold[exceptional as usize]
}

/// P(a Barbarian controller loots a caravan): a D2, automatic for the exceptional one.
pub fn p_loot_caravan(exceptional: bool) -> f64 {
    if exceptional {
        1.0
    } else {
        0.5
    }
}

/// Pillage markers a Barbarian draws from one caravan: 0 if the loot fails, else 1 (2 with the
/// *Caravan* event). An exceptional caravan rolls no die.
pub fn roll_loot_caravan(exceptional: bool, caravan_event: bool, dice: &mut Dice) -> u8 {
    if exceptional || d2(dice) {
        1 + caravan_event as u8
    } else {
        0
    }
}

// ---- Income (XIV.D-E, L866-880) ---------------------------------------------------------------

/// A province's income in half gold (the map prints ½).
pub fn province_income_halves(s: &Scenario, p: ProvinceId) -> u32 {
    s.provinces[p as usize].income_halves as u32
}

/// A Kingdom holding every province of an Area: the provinces' income, cities excluded (they are
/// counted with all cities), in half gold. The map's crowned figure.
pub fn kingdom_area_income_halves(s: &Scenario, a: AreaId) -> u32 {
    let area = &s.areas[a as usize];
    area.provinces
        .iter()
        .map(|&p| province_income_halves(s, p))
        .sum()
}

/// Gold of a city as income: its level (an empty site gives none).
pub fn city_income(s: &Scenario, p: ProvinceId) -> u32 {
    s.provinces[p as usize]
        .city
        .as_ref()
        .map_or(0, |c| c.level as u32)
}

/// An Empire in full control of an Area: 1 for control, 1 more for full control, and every city.
/// The map's eagle figure.
pub fn empire_full_control_income(s: &Scenario, a: AreaId) -> u32 {
    let area = &s.areas[a as usize];
    2 + area
        .provinces
        .iter()
        .map(|&p| city_income(s, p))
        .sum::<u32>()
}

/// Net income is rounded up (L145): halves to gold.
pub fn halves_to_gold(halves: i32) -> i32 {
    halves.div_euclid(2) + halves.rem_euclid(2)
}

// ---- Administration draw (XIII.C, L790-809) ---------------------------------------------------

/// Cards drawn: 2 + the leader's administration bonus; if they are all of one set, one more at a
/// time until a second set shows (or the deck runs out).
fn draw_done(taken: [u8; 3], draws: u8, left: [u8; 3]) -> bool {
    let sets = taken.iter().filter(|&&c| c > 0).count();
    let drawn: u8 = taken.iter().sum();
    (drawn >= draws && sets != 1) || left.iter().sum::<u8>() == 0
}

/// The exact distribution of the cards taken per set (in the order of `scenario::SETS`), from a
/// full deck of `deck` cards per set; every draw is reshuffled back, so each starts full.
pub fn administration_draw_distribution(deck: [u8; 3], draws: u8) -> Vec<([u8; 3], f64)> {
    fn go(left: [u8; 3], taken: [u8; 3], draws: u8, p: f64, out: &mut Vec<([u8; 3], f64)>) {
        if draw_done(taken, draws, left) {
            match out.iter_mut().find(|(t, _)| *t == taken) {
                Some(row) => row.1 += p,
                None => out.push((taken, p)),
            }
            return;
        }
        let total: u8 = left.iter().sum();
        for set in 0..3 {
            if left[set] > 0 {
                let (mut l, mut t) = (left, taken);
                l[set] -= 1;
                t[set] += 1;
                go(l, t, draws, p * left[set] as f64 / total as f64, out);
            }
        }
    }
    let mut out = Vec::new();
    go(deck, [0; 3], draws, 1.0, &mut out);
    out.sort_by_key(|row| row.0);
    out
}

pub fn roll_administration_draw(deck: [u8; 3], draws: u8, dice: &mut Dice) -> [u8; 3] {
    let (mut left, mut taken) = (deck, [0u8; 3]);
    while !draw_done(taken, draws, left) {
        let total: u8 = left.iter().sum();
        let mut r = dice.below(total as u64) as u8;
        let mut set = 0;
        while r >= left[set] {
            r -= left[set];
            set += 1;
        }
        left[set] -= 1;
        taken[set] += 1;
    }
    taken
}

// ---- Revolts: who picks, and which Area (XVI.B-C, L996-1007) ----------------------------------

/// The player who picks the rebel province (may be the victim's own): D10 faces (low, high).
pub const REVOLT_SELECTOR: [(&str, u8, u8); 4] = [
    ("Romans", 1, 3),
    ("Persians", 4, 6),
    ("Goths", 7, 8),
    ("Huns", 9, 10),
];

/// An Empire's rebel Area by D10 face (index face − 1), on the map half of its capital.
pub const REVOLT_AREAS: [[&str; 10]; 2] = [
    [
        "Gallia Meridionalis",
        "Illyria",
        "Britannia",
        "Britannia",
        "Gallia Septentrionalis",
        "Italia",
        "Africa",
        "Africa",
        "Hispania",
        "Hispania",
    ],
    [
        "Moesia",
        "Asia",
        "Cappadocia",
        "Graecia",
        "Aegyptus",
        "Aegyptus",
        "Oriens",
        "Oriens",
        "Mesopotamia",
        "Persis",
    ],
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapHalf {
    West,
    East,
}

/// P(each row of `REVOLT_SELECTOR` picks).
pub fn revolt_selector_distribution() -> [f64; 4] {
    REVOLT_SELECTOR.map(|(_, low, high)| (high - low + 1) as f64 / 10.0)
}

/// The row of `REVOLT_SELECTOR` that picks.
pub fn roll_revolt_selector(dice: &mut Dice) -> usize {
    let face = dice.d10() as u8;
    REVOLT_SELECTOR
        .iter()
        .position(|&(_, low, high)| (low..=high).contains(&face))
        .expect("the selector covers every D10 face")
}

/// `REVOLT_AREAS` as the scenario's Area indices; an Area it lacks is an input error.
pub fn revolt_areas(s: &Scenario) -> Result<[[AreaId; 10]; 2]> {
    let mut out = [[0; 10]; 2];
    for (half, names) in REVOLT_AREAS.iter().enumerate() {
        for (face, name) in names.iter().enumerate() {
            out[half][face] = s.area(name).ok_or_else(|| {
                AleaError::input(
                    "rulebook.toml",
                    "areas",
                    name,
                    "every Area of the revolt table (XVI.C)",
                )
            })?;
        }
    }
    Ok(out)
}

/// The table rows a roll may land on: the capital's half, or both when no capital half applies
/// (Q18: the united Roman Empire before the split, where a D2 picks the half). Entries in Areas
/// where the Empire holds no province are re-rolled, so callers drop them.
fn revolt_rows(table: &[[AreaId; 10]; 2], half: Option<MapHalf>) -> &[[AreaId; 10]] {
    match half {
        Some(h) => &table[h as usize..=h as usize],
        None => &table[..],
    }
}

/// P(each Area is the rebel one), in table order without repeats; empty if the Empire holds no
/// province in any Area of its table (no revolt can land).
pub fn revolt_area_distribution(
    table: &[[AreaId; 10]; 2],
    half: Option<MapHalf>,
    holds: impl Fn(AreaId) -> bool,
) -> Vec<(AreaId, f64)> {
    let rows = revolt_rows(table, half);
    let entries: Vec<AreaId> = rows
        .iter()
        .flatten()
        .copied()
        .filter(|&a| holds(a))
        .collect();
    let mut out: Vec<(AreaId, f64)> = Vec::new();
    for &a in &entries {
        match out.iter_mut().find(|row| row.0 == a) {
            Some(row) => row.1 += 1.0 / entries.len() as f64,
            None => out.push((a, 1.0 / entries.len() as f64)),
        }
    }
    out
}

/// The rebel Area: D2 for the half when none applies, D10 on the table, re-rolled until it names
/// an Area where the Empire holds a province; `None` if there is none.
pub fn roll_revolt_area(
    table: &[[AreaId; 10]; 2],
    half: Option<MapHalf>,
    holds: impl Fn(AreaId) -> bool,
    dice: &mut Dice,
) -> Option<AreaId> {
    let rows = revolt_rows(table, half);
    rows.iter().flatten().find(|&&a| holds(a))?;
    loop {
        let h = half.map_or_else(|| d2(dice) as usize, |h| h as usize);
        let a = table[h][dice.d10() as usize - 1];
        if holds(a) {
            return Some(a);
        }
    }
}
