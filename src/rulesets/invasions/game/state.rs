//! The state of one game at the Area level of digest §6.3: nations with their status and ageing,
//! units per nation and Area by unit type, province owners, cities (level, walls, pillage), gold and
//! VP by source. Every buffer is sized once from the scenario and reset by copying the start state
//! into it, so a game allocates nothing.

use super::policy::Directive;
use super::politics::Bond;
use super::procedures::Decline;
use super::scenario::{AreaKind, ProvinceId, Scenario, MAX_AREAS, MAX_AREA_PROVINCES};
use crate::rulesets::invasions::army::{Status, TEMPLATES};

/// Unit types of the battle code.
pub const NT: usize = 15;
/// Units of one nation in one Area, by unit type (`army::TEMPLATES` order).
pub type Units = [u8; NT];
/// No nation / no province.
pub const NONE: u8 = u8::MAX;
pub const NO_PROVINCE: ProvinceId = ProvinceId::MAX;
/// Most nations the fixed-size tallies hold.
pub const MAX_NATIONS: usize = 64;

/// Where a nation stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not yet on the map (its entry turn is later, or a raider off the map).
    Waiting,
    Active(Status),
    /// Collapsed, vanished or subjugated: out of the game.
    Gone,
}

/// The VP sources the game scores (digest §1.5), in this order in every per-source table.
pub const VP_SOURCES: [&str; 7] = [
    "objectives",
    "raids",
    "foedus",
    "rebellion",
    "conversion",
    "marriage",
    "naval",
];
pub const VP_OBJECTIVES: usize = 0;
pub const VP_RAIDS: usize = 1;
/// A federate's 3 VP a turn per Foedus (XXVIII.E-F).
pub const VP_FOEDUS: usize = 2;
/// A Nomad's vassal's failed rebellion, −5 VP (XXIX.G).
pub const VP_REBELLION: usize = 3;
/// Conversion to Catholicism (XXXI.B): the convert's bonus, and the papacy's half for Roma's holder.
pub const VP_CONVERSION: usize = 4;
/// *Matrimonium*'s 2 VP to a target that did not attack the player (XXX.D, diplomacy_cards.rs).
pub const VP_MARRIAGE: usize = 5;
/// A naval battle refused by the intercepted inactive stack: 1 VP to the other side (XXV.C).
pub const VP_NAVAL: usize = 6;

#[derive(Clone, Copy, Debug)]
pub struct NationState {
    pub phase: Phase,
    pub age: u8,
    pub decline: Decline,
    pub treasury: i32,
    pub horde: ProvinceId,
    pub capital: ProvinceId,
    /// The turn it became a Kingdom or an Empire (the 10 gold of the next turn; no Empire test
    /// on the turn a Kingdom is founded).
    pub promoted_turn: u8,
    pub capital_lost_turn: u8,
    pub bankrupt_turn: u8,
    /// Calamities suffered on turn `calamity_turn` (calamities.rs: the collapse test's +1 each).
    pub calamity_turn: u8,
    pub calamities: u8,
    /// A raider that settled: no more raids (the Time Track may bring it back).
    pub settled: bool,
    /// Raids keep their own units off the map.
    pub offmap: Units,
    pub vp: [i32; VP_SOURCES.len()],
    /// Purchases this game (for the heavy and cavalry shares).
    pub bought: [u16; 3],
    /// Vassal, client or federate of `lord` (XXVII-XXIX), or free.
    pub bond: Bond,
    pub lord: u8,
    /// The turn the bond began (a Foedus breaks freely on the next turn; a Nomad's vassal may
    /// rebel from then on).
    pub bond_turn: u8,
    /// Its leader in play this turn (leaders.rs).
    pub leader: super::leaders::InPlay,
    /// Diplomacy cards in hand, unused (diplomacy.rs), and by kind.
    pub cards: u8,
    pub hand: [u8; super::diplomacy::KINDS],
}

/// Units and gold that enter or leave the game, by cause: the invariant tests balance them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    pub units_in: i64,
    pub units_out: i64,
    pub gold_in: i64,
    pub gold_out: i64,
    /// Fleets placed (entries) and sunk.
    pub fleets_in: i64,
    pub fleets_out: i64,
}

/// Counts the report shows per game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    pub battles: u32,
    pub sieges: u32,
    pub cities_taken: u32,
    pub cities_sacked: u32,
    pub walls_razed: u32,
    pub cities_fortified: u32,
    pub raids: u32,
    pub revolts: u32,
    pub revolts_suppressed: u32,
    pub flights: u32,
    pub interceptions: u32,
    pub kingdoms_founded: u32,
    pub empires_founded: u32,
    pub collapses: u32,
    pub submissions: u32,
    pub clients_made: u32,
    pub foedera: u32,
    pub foedera_broken: u32,
    pub freed: u32,
    pub west_fall_turn: u8,
    pub landings_tried: u32,
    pub landings: u32,
    pub naval_battles: u32,
    pub fleets_sunk: u32,
    pub assaults: u32,
    pub limes_destroyed: u32,
    pub leaders_killed: u32,
    pub campaigns: u32,
    pub conversions: u32,
    pub diplomacy_cards: u32,
    pub truces: u32,
    pub alliances: u32,
    pub marriages: u32,
    pub mercenaries_hired: u32,
    pub sieges_bribed: u32,
    pub foedus_cards: u32,
    pub heresies: u32,
    pub event_alliances: u32,
    pub coalitions: u32,
    pub limes_local_units: u32,
    pub kingdom_foedera: u32,
    pub mercenaries_deserted: u32,
    pub pacts: u32,
    pub calamities: u32,
    pub calamity_heresies: u32,
    pub fleet_moves: u32,
    pub transports: u32,
    pub barbarian_landings: u32,
    pub joint_battles: u32,
    pub pooled_areas: u32,
    pub naval_interceptions: u32,
    pub naval_refusals: u32,
    pub calamity_effects: u32,
    pub usurper_tests: u32,
    pub usurpers: u32,
    /// Strait blockades (blockade.rs): a naval stack sailing to a strait's zone to block it, a
    /// nation finding its crossing blocked, the naval battles fought to break one, those broken.
    pub blockade_moves: u32,
    pub blockades_met: u32,
    pub blockade_battles: u32,
    pub blockades_broken: u32,
    /// Transports and landings whose intercepted stack refused the naval battle (cancelled).
    pub crossings_refused: u32,
    /// Interceptions made in the zones a moving naval stack entered (shipping.rs's path).
    pub interceptions_on_the_way: u32,
    /// Transports the planner found a route for, those it dropped on the crossing's expected
    /// loss at sea (the policy's `sea_loss`), and those an enemy stack intercepted.
    pub transports_planned: u32,
    pub transports_dropped: u32,
    pub transports_intercepted: u32,
    /// Land units lost at sea with sunk fleets (transports and landings).
    pub units_lost_at_sea: u32,
}

#[derive(Clone, Debug)]
pub struct State {
    pub turn: u8,
    pub nations: Vec<NationState>,
    /// `units[n * areas + a]`.
    pub units: Vec<Units>,
    /// The Areas of the map, the rows of `units` a nation (kept, not divided out of `units`'
    /// length at every read: unit lookups are among the game's hottest reads).
    pub area_count: usize,
    /// Fleets per nation and sea zone, `fleets[n * seas + s]` (one naval stack a zone).
    pub fleets: Vec<u8>,
    pub owner: Vec<u8>,
    pub level: Vec<u8>,
    /// Walls' siege modifier (0 = unfortified).
    pub walls: Vec<i8>,
    pub pillaged: Vec<bool>,
    /// A Roman Limes stands in the province (XVIII.I; the placeholder list of `[limes]`).
    pub limes: Vec<bool>,
    /// The federator a Foedus province counts for while its federate holds it (XII, XXVIII.D:
    /// the federator controls it), `NONE` elsewhere; cleared when the province changes hands.
    pub foedus_for: Vec<u8>,
    /// The revolt marker a province carries (XVI.D): 0 none, 1 Revolt −, 2 Revolt +.
    pub revolt: Vec<u8>,
    /// The heresy marker an Area carries (XXXI.C): 0 none, 1 Heresy −, 2 Heresy + (religion.rs).
    pub heresy: Vec<u8>,
    /// The religion whose heresy the Area's marker is: Catholic for an event's, the victim's for
    /// a calamity's (calamities.rs).
    pub heresy_religion: Vec<super::scenario::Religion>,
    /// Provinces with a revolt marker (most turns none: the revolt steps skip their loops).
    pub rebel_provinces: u32,
    /// The raid marker a province carries (procedures::RaidMarker as u8) and the turn it was placed.
    pub raid_marker: Vec<(u8, u8)>,
    pub ledger: Ledger,
    pub counters: Counters,
    /// VP each player scored this turn (the tie-break adds the last turn's again).
    pub turn_vp: Vec<i32>,
    /// Activation order, rebuilt each turn in place.
    pub order: Vec<u8>,
    /// Each Area's controller ([`area_controller`]), kept current by the mutators below: write
    /// `owner`, `level`, a nation's `phase` or `horde` only through them.
    pub control: Vec<u8>,
    /// Units and the province sums of income per nation, kept current by the mutators below and
    /// `at_mut`'s guard (totals.rs): write `units`, `offmap`, `owner`, `level`, `pillaged`,
    /// `revolt` or `foedus_for` only through them.
    pub totals: super::totals::Totals,
    /// Per player: this turn's plan and orders (a searching player's; Follow otherwise).
    pub plans: Vec<Directive>,
    pub orders: Vec<Directive>,
    /// Where the turn stands between its two decision points (the search's rollouts resume here).
    pub stage: Stage,
    /// Historical leaders fallen this game (bit i: row i of the scenario's leaders).
    pub dead_leaders: u128,
    /// Nations converted to Catholicism (bit n), religion.rs.
    pub converted: u64,
    /// This turn's one-turn non-aggression pacts (diplomacy.rs), the first `truce_count`.
    pub truces: [(u8, u8); super::diplomacy::MAX_TRUCES],
    pub truce_count: u8,
    /// This turn's alliances (alliances.rs), the first `alliance_count`.
    pub alliances: [(u8, u8); super::alliances::MAX_ALLIANCES],
    pub alliance_count: u8,
    /// This turn's units lent for one activation (*Matrimonium*, *Mercenary*) and marriages
    /// (diplomacy_cards.rs), the first `loan_count` and `marriage_count`.
    pub loans: [super::diplomacy_cards::Loan; super::diplomacy_cards::MAX_LOANS],
    pub loan_count: u8,
    /// Which of this turn's loans came from the *Mercenary* card (they never fight their own
    /// nation, diplomacy_cards.rs).
    pub hired: [bool; super::diplomacy_cards::MAX_LOANS],
    pub marriages: [super::diplomacy_cards::Marriage; super::diplomacy_cards::MAX_LOANS],
    pub marriage_count: u8,
    /// Diplomacy cards played this game and out of the deck, by kind (option
    /// `diplomacy_played_cards = "discarded"`, Q52; always 0 under its default).
    pub cards_out: [u8; super::diplomacy::KINDS],
}

/// The two points of a turn where a searching player decides (see [`Directive`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// The turn's start, before ageing: its plan.
    #[default]
    Plan,
    /// After entries and reinforcements, before events, raids and the Military phase: its orders.
    Orders,
}

impl State {
    pub fn areas(&self) -> usize {
        self.area_count
    }
    /// `n`'s units in every Area, in Area order.
    pub fn rows(&self, n: usize) -> &[Units] {
        let areas = self.areas();
        &self.units[n * areas..(n + 1) * areas]
    }
    pub fn at(&self, n: usize, a: usize) -> &Units {
        &self.units[n * self.areas() + a]
    }
    pub fn count(&self, n: usize, a: usize) -> u32 {
        total(self.at(n, a))
    }
    /// `n`'s units on the map and off it (the running total, totals.rs).
    #[inline]
    pub fn units_of(&self, n: usize) -> u32 {
        self.totals.units[n]
    }
    /// `n`'s units counted from its rows (what the running total must equal).
    pub fn units_recount(&self, n: usize) -> u32 {
        // One pass over the nation's contiguous rows.
        let on_map = byte_sum(self.rows(n).as_flattened());
        on_map + total(&self.nations[n].offmap)
    }
    pub fn all_units(&self) -> i64 {
        (0..self.nations.len())
            .map(|n| self.units_of(n) as i64)
            .sum()
    }
    pub fn all_gold(&self) -> i64 {
        self.nations.iter().map(|n| n.treasury as i64).sum()
    }
    pub fn status(&self, n: usize) -> Option<Status> {
        match self.nations[n].phase {
            Phase::Active(s) => Some(s),
            _ => None,
        }
    }
    pub fn civilized(&self, n: usize) -> bool {
        self.status(n).is_some_and(Status::civilized)
    }
    pub fn gain_gold(&mut self, n: usize, gold: i32) {
        self.nations[n].treasury += gold;
        self.ledger.gold_in += gold as i64;
    }
    pub fn spend_gold(&mut self, n: usize, gold: i32) {
        self.nations[n].treasury -= gold;
        self.ledger.gold_out += gold as i64;
    }
    pub fn add_units(&mut self, n: usize, a: usize, k: usize, count: u8) {
        self.at_mut(n, a)[k] += count;
        self.ledger.units_in += count as i64;
    }
    /// Removes the `count` least valuable units of `n` in Area `a` (or fewer if it has fewer).
    pub fn lose_cheapest(&mut self, n: usize, a: usize, count: u32) -> u32 {
        let mut lost = 0;
        let mut u = self.at_mut(n, a);
        for k in cheapest_first() {
            while lost < count && u[k] > 0 {
                u[k] -= 1;
                lost += 1;
            }
        }
        drop(u);
        self.ledger.units_out += lost as i64;
        lost
    }
    /// Province `p` passes to `n` (or to nobody: `NONE`); its Area's controller follows.
    pub fn set_owner(&mut self, s: &Scenario, p: usize, n: u8) {
        if self.owner[p] != n {
            self.change_province(s, p, |st| {
                st.owner[p] = n;
                st.foedus_for[p] = NONE;
            });
            self.update_control(s, s.provinces[p].area as usize);
        }
    }
    /// Province `p` becomes (federator `f`) or stops being (`NONE`) a Foedus province.
    pub fn set_foedus(&mut self, s: &Scenario, p: usize, f: u8) {
        if self.foedus_for[p] != f {
            self.change_province(s, p, |st| st.foedus_for[p] = f);
            self.update_control(s, s.provinces[p].area as usize);
        }
    }
    /// The city of province `p` grows one level.
    pub fn grow_city(&mut self, s: &Scenario, p: usize) {
        self.change_province(s, p, |st| st.level[p] += 1);
        self.update_control(s, s.provinces[p].area as usize);
    }
    /// Nation `n` changes phase or status: the Areas where it holds land or its horde may change
    /// hands (nowhere else does its status count).
    pub fn set_phase(&mut self, s: &Scenario, n: usize, phase: Phase) {
        if self.nations[n].phase != phase {
            let touched = self.areas_of(s, n);
            self.nations[n].phase = phase;
            self.update_areas(s, touched);
        }
    }
    /// Nation `n` gives up every province it holds.
    pub fn release_all(&mut self, s: &Scenario, n: usize) {
        let touched = self.areas_of(s, n);
        for p in 0..self.owner.len() {
            if self.owner[p] == n as u8 {
                self.change_province(s, p, |st| {
                    st.owner[p] = NONE;
                    st.foedus_for[p] = NONE;
                });
            }
        }
        self.update_areas(s, touched);
    }
    /// The Areas where `n` holds a province (the running totals) or has its horde, as a bit set.
    fn areas_of(&self, s: &Scenario, n: usize) -> u64 {
        let mut areas = self.totals.areas_held[n];
        let h = self.nations[n].horde;
        if h != NO_PROVINCE {
            areas |= 1 << s.provinces[h as usize].area;
        }
        areas
    }
    fn update_areas(&mut self, s: &Scenario, mut areas: u64) {
        while areas != 0 {
            let a = areas.trailing_zeros() as usize;
            areas &= areas - 1;
            self.update_control(s, a);
        }
    }
    /// Nation `n`'s horde moves to province `p` (or leaves the map: `NO_PROVINCE`).
    pub fn set_horde(&mut self, s: &Scenario, n: usize, p: ProvinceId) {
        let old = self.nations[n].horde;
        if old == p {
            return;
        }
        self.nations[n].horde = p;
        // The Areas left and entered, once each (a move within an Area touches one); Area
        // control's index follows.
        let mut areas = 0u64;
        for (q, here) in [(old, false), (p, true)] {
            if q != NO_PROVINCE {
                let a = s.provinces[q as usize].area;
                areas |= 1 << a;
                let hordes = &mut self.totals.hordes[a as usize];
                if here {
                    *hordes |= 1 << n;
                } else {
                    *hordes &= !(1 << n);
                }
            }
        }
        self.update_areas(s, areas);
    }
    fn update_control(&mut self, s: &Scenario, a: usize) {
        self.control[a] = area_controller(s, self, a);
    }
    /// Every Area's controller from scratch (the start state; tests that set up a board by hand),
    /// after the running totals, whose index the claim reads.
    pub fn rebuild_control(&mut self, s: &Scenario) {
        self.rebuild_totals(s);
        let mut control = std::mem::take(&mut self.control);
        control_table(s, self, &mut control);
        self.control = control;
    }
    /// Where `control` is read: in a test that asked for it (`CHECK_CONTROL`), the kept table
    /// must equal a rebuild from scratch; nothing outside tests.
    #[inline]
    pub fn check_control(&self, s: &Scenario) {
        #[cfg(test)]
        if CHECK_CONTROL.with(|on| on.get().is_some()) {
            let mut fresh = vec![NONE; self.control.len()];
            control_table(s, self, &mut fresh);
            assert_eq!(
                self.control, fresh,
                "turn {}: the kept control table differs from a rebuild",
                self.turn
            );
            CHECK_CONTROL.with(|on| {
                let (checks, held) = on.get().unwrap_or_default();
                let held_now = fresh.iter().filter(|&&c| c != NONE).count() as u64;
                on.set(Some((checks + 1, held + held_now)))
            });
        }
        #[cfg(not(test))]
        let _ = s;
    }
    /// Removes every unit of `n` (collapse, vanishing, a captured horde).
    pub fn remove_all_units(&mut self, n: usize) {
        let lost = self.units_of(n) as i64;
        let areas = self.areas();
        for a in 0..areas {
            *self.at_mut(n, a) = [0; NT];
        }
        self.nations[n].offmap = [0; NT];
        self.totals.units[n] = 0;
        self.ledger.units_out += lost;
        let seas = self.fleets.len() / self.nations.len();
        for f in &mut self.fleets[n * seas..(n + 1) * seas] {
            self.ledger.fleets_out += *f as i64;
            *f = 0;
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set to `Some((0, 0))` by a test: every read of the control table on this thread checks it
    /// against a rebuild and counts (checks, controlled Areas seen).
    pub static CHECK_CONTROL: std::cell::Cell<Option<(u64, u64)>> = const { std::cell::Cell::new(None) };
}

/// The units of a stack: its counts summed eight bytes at a time ([`byte_sum`]'s lanes), from a
/// copy padded to two words (every stack count and Area scan goes through here).
pub fn total(u: &Units) -> u32 {
    const { assert!(NT <= 16, "a stack's counts fit two words") };
    let mut padded = [0u8; 16];
    padded[..NT].copy_from_slice(u);
    let (lo, hi) = (word(&padded[..8]), word(&padded[8..]));
    fold_lanes(byte_pairs(lo) + byte_pairs(hi))
}

/// The sum of `bytes` (each a count), eight at a time: the game sums every count of a nation (its
/// units on the map) for each nation several times a turn.
pub fn byte_sum(bytes: &[u8]) -> u32 {
    let mut sum = 0;
    // 32 words a block: its four 16-bit lanes then hold at most 32 * 8 * 255 = 65,280 together,
    // so folding them carries nothing out of the top lane.
    for block in bytes.chunks(32 * 8) {
        let words = block.chunks_exact(8);
        let rest: u32 = words.remainder().iter().map(|&b| b as u32).sum();
        let lanes = words.fold(0, |lanes, w| lanes + byte_pairs(word(w)));
        sum += fold_lanes(lanes) + rest;
    }
    sum
}

/// A word's eight bytes added in pairs: four 16-bit lanes of at most 510 each.
#[inline]
fn byte_pairs(w: u64) -> u64 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    (w & EVEN) + ((w >> 8) & EVEN)
}

/// The sum of four 16-bit lanes (together below 65,536): the product's top lane adds them all,
/// and no lower lane's partial sum carries into the next.
#[inline]
fn fold_lanes(lanes: u64) -> u32 {
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Unit types from least to most valuable (the battle code's worth), worked out once.
pub fn cheapest_first() -> [usize; NT] {
    static ORDER: std::sync::OnceLock<[usize; NT]> = std::sync::OnceLock::new();
    *ORDER.get_or_init(|| {
        let mut order: [usize; NT] = std::array::from_fn(|k| k);
        order.sort_by(|&a, &b| {
            TEMPLATES[a]
                .value
                .partial_cmp(&TEMPLATES[b].value)
                .expect("finite values")
        });
        order
    })
}

pub fn template(name: &str) -> usize {
    TEMPLATES
        .iter()
        .position(|t| t.name == name)
        .unwrap_or_else(|| panic!("unit type {name} is not in the battle code"))
}

/// The start of a game: turn-1 nations placed with their forces, provinces held, cities as printed.
pub fn initial(s: &Scenario) -> State {
    assert_eq!(
        TEMPLATES.len(),
        NT,
        "the game's unit arrays follow army::TEMPLATES"
    );
    assert!(
        s.nations.len() < MAX_NATIONS,
        "too many nations for the tallies"
    );
    assert!(
        s.areas.len() <= MAX_AREAS,
        "too many Areas for the control table's bit sets"
    );
    assert!(
        s.areas
            .iter()
            .all(|a| a.provinces.len() <= MAX_AREA_PROVINCES),
        "too many provinces in an Area for the holdings index's bit sets"
    );
    let areas = s.areas.len();
    let np = s.provinces.len();
    let mut st = State {
        turn: 0,
        nations: s
            .nations
            .iter()
            .map(|_| NationState {
                phase: Phase::Waiting,
                age: 1,
                decline: Decline::None,
                treasury: 0,
                horde: NO_PROVINCE,
                capital: NO_PROVINCE,
                promoted_turn: 0,
                capital_lost_turn: 0,
                bankrupt_turn: 0,
                calamity_turn: 0,
                calamities: 0,
                settled: false,
                offmap: [0; NT],
                vp: [0; VP_SOURCES.len()],
                bought: [0; 3],
                bond: Bond::Free,
                lord: NONE,
                bond_turn: 0,
                leader: super::leaders::InPlay::NONE,
                cards: 0,
                hand: [0; super::diplomacy::KINDS],
            })
            .collect(),
        units: vec![[0; NT]; s.nations.len() * areas],
        area_count: areas,
        fleets: vec![0; s.nations.len() * s.seas.len()],
        owner: vec![NONE; np],
        level: s
            .provinces
            .iter()
            .map(|p| p.city.as_ref().map_or(0, |c| c.level))
            .collect(),
        walls: s
            .provinces
            .iter()
            .map(|p| p.city.as_ref().map_or(0, |c| c.walls))
            .collect(),
        pillaged: vec![false; np],
        limes: (0..np)
            .map(|p| s.limes.contains(&(p as ProvinceId)))
            .collect(),
        foedus_for: vec![NONE; np],
        revolt: vec![0; np],
        rebel_provinces: 0,
        heresy: vec![0; areas],
        heresy_religion: vec![super::scenario::Religion::Catholic; areas],
        raid_marker: vec![(0, 0); np],
        ledger: Ledger::default(),
        counters: Counters::default(),
        turn_vp: vec![0; s.players.len()],
        order: (0..s.nations.len() as u8).collect(),
        control: vec![NONE; areas],
        plans: vec![Directive::Follow; s.players.len()],
        orders: vec![Directive::Follow; s.players.len()],
        stage: Stage::Plan,
        dead_leaders: 0,
        converted: 0,
        truces: [(NONE, NONE); super::diplomacy::MAX_TRUCES],
        truce_count: 0,
        alliances: [(NONE, NONE); super::alliances::MAX_ALLIANCES],
        alliance_count: 0,
        loans: [super::diplomacy_cards::Loan::NONE; super::diplomacy_cards::MAX_LOANS],
        loan_count: 0,
        hired: [false; super::diplomacy_cards::MAX_LOANS],
        marriages: [super::diplomacy_cards::Marriage::NONE; super::diplomacy_cards::MAX_LOANS],
        marriage_count: 0,
        cards_out: [0; super::diplomacy::KINDS],
        totals: Default::default(),
    };
    // Zeros sized for the nations: `enter` and `set_owner` keep them from here.
    st.rebuild_totals(s);
    for (i, n) in s.nations.iter().enumerate() {
        if n.entry_turn == 1 {
            enter(s, &mut st, i);
        }
        for &p in &n.controls {
            st.set_owner(s, p as usize, i as u8);
        }
    }
    st.rebuild_control(s);
    st.check_totals(s);
    st.ledger = Ledger {
        units_in: st.all_units(),
        units_out: 0,
        gold_in: st.all_gold(),
        gold_out: 0,
        fleets_in: st.fleets.iter().map(|&f| f as i64).sum(),
        fleets_out: 0,
    };
    st
}

/// Places nation `n` on the map with its entry forces (Time Track / scenario sheet stand-ins).
pub fn enter(s: &Scenario, st: &mut State, n: usize) {
    let nation = &s.nations[n];
    let status = nation.status;
    st.set_phase(s, n, Phase::Active(status));
    st.nations[n].age = 1;
    st.nations[n].treasury += nation.treasury as i32;
    st.ledger.gold_in += nation.treasury as i32 as i64;
    let home = nation.capital.or(nation.horde);
    match home {
        Some(p) => {
            let a = s.provinces[p as usize].area as usize;
            for &(k, c) in &nation.units {
                st.add_units(n, a, k as usize, c);
            }
            if st.owner[p as usize] == NONE {
                st.set_owner(s, p as usize, n as u8);
            }
        }
        None => {
            for &(k, c) in &nation.units {
                st.offmap_mut(n)[k as usize] += c;
                st.ledger.units_in += c as i64;
            }
        }
    }
    let seas = s.seas.len();
    for &(sea, f) in &nation.fleets {
        st.fleets[n * seas + sea as usize] += f;
        st.ledger.fleets_in += f as i64;
    }
    if let Some(c) = nation.capital {
        st.nations[n].capital = c;
        // Every capital is fortified (L2126).
        if st.walls[c as usize] == 0 {
            st.walls[c as usize] = super::economy::STANDARD_WALLS;
        }
    }
    if let Some(h) = nation.horde {
        st.set_horde(s, n, h);
    }
}

/// Area control (XII.C): an Empire by a majority of the Area's cities, else a Kingdom by a
/// majority of its provinces, else a Barbarian whose horde is the only one there (and, in a
/// Civilized Area, with a majority of the provinces). `NONE` when nobody controls it.
pub fn area_controller(s: &Scenario, st: &State, a: usize) -> u8 {
    // The hordes standing here from Area control's index (totals.rs), in nation order.
    let mut hordes = (0u8, NONE);
    let mut present = st.totals.hordes[a];
    while present != 0 {
        let n = present.trailing_zeros() as usize;
        present &= present - 1;
        if matches!(st.nations[n].phase, Phase::Active(_)) {
            hordes.0 += 1;
            hordes.1 = n as u8;
        }
    }
    if super::totals::checking() {
        let scanned = hordes_by_scan(s, st, a);
        assert_eq!(hordes, scanned, "turn {}: the hordes in Area {a}", st.turn);
    }
    controller_given_hordes(s, st, a, hordes)
}

/// The nations holding provinces in an Area, each with its provinces and cities there (few per
/// Area), in the order the Area's list first names them.
type Holders = [(u8, u32, u32); 16];

/// Area control given the Area's hordes: (how many, the last one's nation). The holders come
/// from Area control's index (totals.rs) unless a Foedus province lies in the Area (it counts for
/// its federator, XII) or more holders than the list keeps stand there; in debug builds and tests
/// that ask for it, compared with the scan of the Area's provinces.
fn controller_given_hordes(s: &Scenario, st: &State, a: usize, hordes: (u8, u8)) -> u8 {
    let t = &st.totals;
    let claimed = if t.federated[a] == 0 && t.holders[a].count_ones() as usize <= 16 {
        let areas = s.areas.len();
        let mut holders: Holders = [(NONE, 0, 0); 16];
        let mut first = [0u32; 16];
        let mut k = 0;
        let mut present = t.holders[a];
        while present != 0 {
            let o = present.trailing_zeros() as usize;
            present &= present - 1;
            let row = t.held[o * areas + a];
            // Insertion by the first province held, the scan's order.
            let at = row.trailing_zeros();
            let mut i = k;
            while i > 0 && first[i - 1] > at {
                holders[i] = holders[i - 1];
                first[i] = first[i - 1];
                i -= 1;
            }
            holders[i] = (o as u8, row.count_ones(), (row & t.cities[a]).count_ones());
            first[i] = at;
            k += 1;
        }
        claim(s, st, a, holders, k, t.cities[a].count_ones(), hordes)
    } else {
        controller_by_scan(s, st, a, hordes)
    };
    if super::totals::checking() {
        assert_eq!(
            claimed,
            controller_by_scan(s, st, a, hordes),
            "turn {}: the controller of Area {a} from the index",
            st.turn
        );
        super::totals::counted(2);
    }
    claimed
}

/// The hordes of active nations standing in Area `a` by a scan of every nation: (how many, the
/// last one's nation), the index's check.
fn hordes_by_scan(s: &Scenario, st: &State, a: usize) -> (u8, u8) {
    let mut hordes = (0u8, NONE);
    for (n, ns) in st.nations.iter().enumerate() {
        if ns.horde != NO_PROVINCE
            && matches!(ns.phase, Phase::Active(_))
            && s.provinces[ns.horde as usize].area as usize == a
        {
            hordes.0 += 1;
            hordes.1 = n as u8;
        }
    }
    hordes
}

/// Area control by scans only: every nation's horde, the Area's provinces (the index's check).
#[cfg(test)]
pub fn area_controller_by_scan(s: &Scenario, st: &State, a: usize) -> u8 {
    controller_by_scan(s, st, a, hordes_by_scan(s, st, a))
}

/// Area control from a scan of the Area's provinces ([`controller_given_hordes`]).
fn controller_by_scan(s: &Scenario, st: &State, a: usize, hordes: (u8, u8)) -> u8 {
    let area = &s.areas[a];
    let mut holders: Holders = [(NONE, 0u32, 0u32); 16];
    let mut k = 0;
    let mut total_cities = 0;
    for &p in &area.provinces {
        let p = p as usize;
        let city = (st.level[p] > 0) as u32;
        total_cities += city;
        // A Foedus province counts for its federator (XII).
        let o = match st.foedus_for[p] {
            NONE => st.owner[p],
            f => f,
        };
        if o == NONE {
            continue;
        }
        match holders[..k].iter_mut().find(|h| h.0 == o) {
            Some(h) => {
                h.1 += 1;
                h.2 += city;
            }
            None if k < 16 => {
                holders[k] = (o, 1, city);
                k += 1;
            }
            None => {}
        }
    }
    claim(s, st, a, holders, k, total_cities, hordes)
}

/// The claim on Area `a` of its holders (`holders[..k]`) and hordes: an Empire's majority of
/// its cities, a Kingdom's of its provinces, a lone Barbarian horde's (XII.C).
fn claim(
    s: &Scenario,
    st: &State,
    a: usize,
    mut holders: Holders,
    mut k: usize,
    total_cities: u32,
    (hordes, horde_owner): (u8, u8),
) -> u8 {
    let area = &s.areas[a];
    // Allies pool their holdings and their hordes (XII.C; alliances.rs).
    let (hordes, horde_owner) = match st.alliance_count {
        0 => (hordes, horde_owner),
        _ => super::alliances::pool(s, st, a, &mut holders, &mut k, (hordes, horde_owner)),
    };
    let total = area.provinces.len() as u32;
    let status = |n: u8| st.nations[n as usize].phase;
    if let Some(h) = holders[..k]
        .iter()
        .find(|h| status(h.0) == Phase::Active(Status::Empire) && 2 * h.2 > total_cities)
    {
        return h.0;
    }
    if let Some(h) = holders[..k]
        .iter()
        .find(|h| status(h.0) == Phase::Active(Status::Kingdom) && 2 * h.1 > total)
    {
        return h.0;
    }
    if hordes == 1 && status(horde_owner) == Phase::Active(Status::Barbarian) {
        let provinces = holders[..k]
            .iter()
            .find(|h| h.0 == horde_owner)
            .map_or(0, |h| h.1);
        if area.kind != AreaKind::Civilized || 2 * provinces > total {
            return horde_owner;
        }
    }
    NONE
}

/// Every Area's controller at once ([`area_controller`] for each, with one pass over the hordes).
pub fn control_table(s: &Scenario, st: &State, out: &mut [u8]) {
    let mut hordes = [(0u8, NONE); MAX_AREAS];
    for (n, ns) in st.nations.iter().enumerate() {
        if ns.horde != NO_PROVINCE && matches!(ns.phase, Phase::Active(_)) {
            let a = s.provinces[ns.horde as usize].area as usize;
            hordes[a].0 += 1;
            hordes[a].1 = n as u8;
        }
    }
    for (a, slot) in out.iter_mut().enumerate() {
        *slot = controller_given_hordes(s, st, a, hordes[a]);
    }
}

/// An Empire's full control: every city of the Area and no hostile province, a rebel one being
/// hostile (XVI.D; T20: a revolt in a site-only province costs the full control).
pub fn full_control(s: &Scenario, st: &State, a: usize, n: usize) -> bool {
    s.areas[a].provinces.iter().all(|&p| {
        let (o, p) = (st.owner[p as usize], p as usize);
        (o == n as u8 && st.revolt[p] == 0) || (o == NONE && st.level[p] == 0)
    })
}

/// Held provinces of `n` in Area `a`.
pub fn held_in(s: &Scenario, st: &State, n: usize, a: usize) -> u32 {
    s.areas[a]
        .provinces
        .iter()
        .filter(|&&p| st.owner[p as usize] == n as u8)
        .count() as u32
}

/// The provinces `n` holds in each Area (as [`held_in`] counts them: not the one printed under
/// an Area but outside it), from the holdings index (totals.rs).
pub fn held_by_area(s: &Scenario, st: &State, n: usize) -> [u32; 64] {
    let areas = s.areas.len();
    let mut held = [0u32; 64];
    for (count, bits) in held
        .iter_mut()
        .zip(&st.totals.held[n * areas..(n + 1) * areas])
    {
        *count = bits.count_ones();
    }
    held
}

/// The high bits of the bytes of a u64, where the byte-wise tests below answer.
const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of byte i is set exactly when byte i of `w` is not zero: the low seven bits plus
/// 0x7f carry into the high bit when any is set (never past the byte), the or adds the high bit
/// itself.
#[inline]
fn nonzero_bytes(w: u64) -> u64 {
    (((w & LOW7) + LOW7) | w) & HIGH
}

/// The high bit of byte i is set exactly when byte i of `w` is `x` (`spread` is `x` in every byte).
#[inline]
fn equal_bytes(w: u64, spread: u64) -> u64 {
    !nonzero_bytes(w ^ spread) & HIGH
}

#[inline]
fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().expect("8-byte chunk"))
}

/// Calls `f` with every index `i` where `a[i] == x` or `b[i] == x`, in increasing order. The game
/// asks "which provinces does this nation hold" hundreds of times a game while a nation holds few
/// of them: the bytes are compared eight at a time within a u64 (the high bit of each equal byte
/// set) and only the set bits visited.
pub fn for_each_match(a: &[u8], b: &[u8], x: u8, mut f: impl FnMut(usize)) {
    debug_assert_eq!(a.len(), b.len());
    let spread = u64::from_le_bytes([x; 8]);
    let rest = a.len() / 8 * 8;
    for (c, (ca, cb)) in a.chunks_exact(8).zip(b.chunks_exact(8)).enumerate() {
        let mut bits = equal_bytes(word(ca), spread) | equal_bytes(word(cb), spread);
        while bits != 0 {
            f(c * 8 + bits.trailing_zeros() as usize / 8);
            bits &= bits - 1;
        }
    }
    for i in rest..a.len() {
        if a[i] == x || b[i] == x {
            f(i);
        }
    }
}

/// The first index `i` from `from` on where `owner[i] == x` and `marks[i] != 0` (a nation's
/// provinces carrying a marker: few of either), eight bytes at a time as [`for_each_match`].
pub fn next_marked(owner: &[u8], marks: &[u8], x: u8, from: usize) -> Option<usize> {
    debug_assert_eq!(owner.len(), marks.len());
    let spread = u64::from_le_bytes([x; 8]);
    let rest = owner.len() / 8 * 8;
    let first = (from / 8 * 8).min(rest);
    // Bytes before `from` in its word do not count.
    let mut skip = !0u64 << (from % 8 * 8);
    let words = owner[first..rest]
        .chunks_exact(8)
        .zip(marks[first..rest].chunks_exact(8));
    for (i, (o, m)) in words.enumerate() {
        // Most words carry no marker at all: the owners are read only where one stands.
        let m = word(m);
        if m != 0 {
            let bits = equal_bytes(word(o), spread) & nonzero_bytes(m) & skip;
            if bits != 0 {
                return Some(first + i * 8 + bits.trailing_zeros() as usize / 8);
            }
        }
        skip = !0;
    }
    (rest.max(from)..owner.len()).find(|&i| owner[i] == x && marks[i] != 0)
}
