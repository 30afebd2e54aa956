//! The state of one game: flat tables indexed by nation, province and sea, reset in place
//! from the scenario before every game so a worker allocates only once.

use super::scenario::{Goods, Scenario, COLLAPSE};
use super::search::Directive;
use super::searches::fresh_generation;
use super::Model;
use crate::dice::Dice;
use crate::rulesets::mare_nostrum::Leader;

pub const NONE: u8 = u8::MAX;
/// Unit classes of an army: regular and veteran infantry and cavalry, mercenary infantry and cavalry.
pub const INF: usize = 0;
pub const CAV: usize = 1;
pub const VINF: usize = 2;
pub const VCAV: usize = 3;
pub const MINF: usize = 4;
pub const MCAV: usize = 5;
pub type Army = [u32; 6];

pub fn size(a: &Army) -> u32 {
    a.iter().sum()
}

/// `share` of an army, each class rounded half away from zero (as [`f64::round`]).
pub fn share_of(a: &Army, share: f64) -> Army {
    let mut t = [0; 6];
    for c in 0..6 {
        if a[c] > 0 {
            t[c] = round_units(a[c] as f64 * share);
        }
    }
    t
}

/// `x.round() as u32` without the library call `round` compiles to: below 2^32 the fraction
/// above the truncation is exact, so the result is the same (0 for negatives and NaN, as there).
fn round_units(x: f64) -> u32 {
    let t = x as u32;
    t + (x - t as f64 >= 0.5) as u32
}

/// Relation grades with an independent province (L487-L576), lowest first.
pub const HOSTILE: u8 = 0;
pub const NEUTRAL: u8 = 1;
pub const PASSAGE: u8 = 2;
pub const SUBSIDIARY: u8 = 3;
pub const MILITARY: u8 = 4;
pub const VASSAL: u8 = 5;

#[derive(Clone, Copy, Debug)]
pub struct GameLeader {
    pub leader: Leader,
    /// Owning nation, or NONE for an independent leader.
    pub nation: u8,
    pub province: u16,
    pub alive: bool,
}

#[derive(Clone, Debug, Default)]
pub struct NationState {
    pub goods: Goods,
    pub stability: u8,
    pub vp: i64,
    pub alive: bool,
    pub strategy: u8,
    pub capital: usize,
    pub at_war: u16,
    pub commercial: u16,
    pub military: u16,
    /// Nations this one lets move and station troops in its provinces (right of passage, L295).
    pub passage: u16,
    /// Year (inclusive, [`State::year`]) until which this nation may not declare war on nation j.
    pub forced_peace: [u32; 16],
    /// Year (inclusive) until which this nation holds a casus belli against nation j.
    pub casus_belli: [u32; 16],
    /// Year until which an alliance with j may not be renewed.
    pub no_renewal: [u32; 16],
    /// Years of war indemnity this nation still pays to nation j.
    pub indemnity_years: [u8; 16],
    /// Nations that have ever surrendered unconditionally to this one.
    pub unconditional_from: u16,
    pub fleets: u32,
    pub fleet_sea: u8,
    pub cards: u32,
    pub card_limit: u32,
    /// Goods bought from independents last turn, delivered at the next economic phase.
    pub on_order: Goods,
    /// Turns in a row ending at war with j (precedence of clauses, L905) — kept simple: started turn.
    pub war_started: [u32; 16],
    pub battles_won: u32,
    /// Land units as counted once after the peace offers of the diplomacy phase: the alliance and
    /// war decisions compare armies many times, and nothing in that phase moves a unit.
    pub units_at_diplomacy: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ProvinceState {
    pub owner: u8,
    /// Its grain production has had its one agrarian reform (L948).
    pub agrarian_reform: bool,
    pub ppu: u32,
    pub ppu_max: u32,
    pub ppr: u32,
    pub ppr_max: u32,
    pub harvests: u32,
    pub mines: u32,
    pub deposits: u32,
    pub herds: u32,
    pub garrison: u32,
    /// Nation occupying the city (NONE = nobody).
    pub occupier: u8,
    /// Whether the occupier earned the 5 VP of occupying a nation's city (lost if it loses the city).
    pub occupation_vp: bool,
    /// PPR idled by pillage until the next economic phase.
    pub pillaged: u32,
    pub ports: u16,
    /// Independents only: own troops (infantry, cavalry) and relations.
    pub troops: [u32; 2],
    pub grade: [u8; 16],
    pub hatred: u16,
    /// Independent with a leader present (index into leaders), or usize::MAX.
    pub indep_leader: usize,
}

impl ProvinceState {
    /// The nations (as a mask) whose grade here is `grade` or higher. Written without a branch:
    /// it is asked for every independent of every nation several times a turn.
    pub fn grades_at_least(&self, grade: u8) -> u16 {
        let mut mask = 0u16;
        for (m, &g) in self.grade.iter().enumerate() {
            mask |= ((g >= grade) as u16) << m;
        }
        mask
    }
}

/// A trade link: `points` trade points from city `from` (owned by `owner`) to city `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TradeLink {
    pub owner: u8,
    pub from: u16,
    pub to: u16,
    pub points: u32,
}

/// [`TradeLink::key`] of the link (`owner`, `from`, `to`).
pub fn link_key(owner: u8, from: u16, to: u16) -> u64 {
    (owner as u64) << 32 | (from as u64) << 16 | to as u64
}

impl TradeLink {
    /// Links are kept sorted by this key, unique per (owner, from, to), so a facing link is one
    /// binary search away. The three packed into one number order as the tuple would, and
    /// compare in one instruction.
    pub fn key(&self) -> u64 {
        link_key(self.owner, self.from, self.to)
    }
}

#[derive(Debug, Default)]
pub struct State {
    pub turn: u32,
    /// The first year of this turn, counting from 1: a turn is a year, a Historical Period five
    /// (L90, L919). Forced peace, casus belli and no-renewal durations count these years.
    pub year: u32,
    pub nations: Vec<NationState>,
    pub provinces: Vec<ProvinceState>,
    /// Land units per (nation, province): `armies[n * provinces + p]`. Written only through
    /// [`State::army_mut`], which keeps `units` true.
    armies: Vec<Army>,
    /// Each nation's land units by class, summed over `armies`: the policies ask for it many times a
    /// turn. Units marching (taken out of `armies` for the movement phase) are not counted.
    units: Vec<Army>,
    /// The nations with land units in each province, as a mask (bit `n` of `present[p]`), kept
    /// with `armies`: most provinces hold few nations' units, and the scans for hostile or
    /// friendly units skip the others.
    present: Vec<u16>,
    pub leaders: Vec<GameLeader>,
    pub trade: Vec<TradeLink>,
    /// Provinces owned by each nation, ascending: kept by [`State::set_owner`] so that the many
    /// per-nation questions need not scan the whole map.
    pub owned: Vec<Vec<u16>>,
    /// Independent provinces no nation has annexed yet, ascending (an annexed one never returns).
    pub free_independents: Vec<u16>,
    /// How many of them are Hostile to each nation: kept by [`State::set_grade`], as every army
    /// order asks whether there is one.
    hostile_independents: [u16; 16],
    /// Fleets per (nation, sea) after deployment and battles this turn.
    pub fleets_at_sea: Vec<u32>,
    /// Turns in a row with no war between nations (Historical Periods, A38).
    pub peace_turns: u32,
    pub historical_period: bool,
    /// Whether nations i and j fought (or had troops in each other's land) this turn: bit j of `war_activity[i]`.
    pub war_activity: Vec<u16>,
    pub eliminated: u32,
    pub battles: u32,
    pub wars_declared: u32,
    pub surrenders: u32,
    pub annexations: u32,
    pub cities_taken: u32,
    /// Land units in play (nations' and independents'), moved only by recruitment, losses,
    /// eliminations and new independent leaders: checked against a recount in tests.
    pub units_ledger: i64,
    /// Seas each nation's port cities open on, refreshed at the start of every turn.
    pub port_seas: Vec<u16>,
    /// What each searching nation decided for this turn ([`Directive::Follow`] for the others).
    pub directives: Vec<Directive>,
    /// A number taken afresh ([`fresh_generation`]) whenever an owner changes, and one whenever
    /// the fleets at sea do: the kept map searches are keyed by them.
    pub owners_generation: u64,
    pub fleets_generation: u64,
}

/// Written out so that [`Clone::clone_from`] reuses every buffer: the search player copies the
/// state once per rollout. The destructuring is exhaustive: a new field is a compile error here.
impl Clone for State {
    fn clone(&self) -> State {
        let mut copy = State::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            turn,
            year,
            nations,
            provinces,
            armies,
            units,
            present,
            leaders,
            trade,
            owned,
            free_independents,
            hostile_independents,
            fleets_at_sea,
            peace_turns,
            historical_period,
            war_activity,
            eliminated,
            battles,
            wars_declared,
            surrenders,
            annexations,
            cities_taken,
            units_ledger,
            port_seas,
            directives,
            owners_generation,
            fleets_generation,
        } = source;
        self.turn = *turn;
        self.year = *year;
        self.nations.clone_from(nations);
        self.provinces.clone_from(provinces);
        self.armies.clone_from(armies);
        self.units.clone_from(units);
        self.present.clone_from(present);
        self.leaders.clone_from(leaders);
        self.trade.clone_from(trade);
        self.owned.clone_from(owned);
        self.free_independents.clone_from(free_independents);
        self.hostile_independents = *hostile_independents;
        self.fleets_at_sea.clone_from(fleets_at_sea);
        self.peace_turns = *peace_turns;
        self.historical_period = *historical_period;
        self.war_activity.clone_from(war_activity);
        self.eliminated = *eliminated;
        self.battles = *battles;
        self.wars_declared = *wars_declared;
        self.surrenders = *surrenders;
        self.annexations = *annexations;
        self.cities_taken = *cities_taken;
        self.units_ledger = *units_ledger;
        self.port_seas.clone_from(port_seas);
        self.directives.clone_from(directives);
        self.owners_generation = *owners_generation;
        self.fleets_generation = *fleets_generation;
    }
}

impl State {
    pub fn army(&self, n: usize, p: usize) -> &Army {
        &self.armies[n * self.provinces.len() + p]
    }
    /// The one way to change an army: the guard adds the change to the nation's totals when it
    /// is dropped.
    pub fn army_mut(&mut self, n: usize, p: usize) -> ArmyMut<'_> {
        let np = self.provinces.len();
        let army = &mut self.armies[n * np + p];
        ArmyMut {
            before: *army,
            army,
            total: &mut self.units[n],
            present: &mut self.present[p],
            bit: 1 << n,
        }
    }

    /// Empties army (`n`, `p`) and returns what it held.
    pub fn take_army(&mut self, n: usize, p: usize) -> Army {
        std::mem::take(&mut *self.army_mut(n, p))
    }

    pub fn at_war(&self, a: usize, b: usize) -> bool {
        self.nations[a].at_war & (1 << b) != 0
    }

    pub fn allied(&self, a: usize, b: usize) -> bool {
        self.nations[a].military & (1 << b) != 0
    }

    /// Whether `grantor` has given `grantee` a right of passage.
    pub fn passage(&self, grantor: usize, grantee: usize) -> bool {
        self.nations[grantor].passage & (1 << grantee) != 0
    }

    /// Whether nation `a` has land units in any province of nation `b`.
    pub fn has_troops_in(&self, a: usize, b: usize) -> bool {
        self.provinces_of(b).any(|p| size(self.army(a, p)) > 0)
    }

    /// Resets to the scenario's start: figures as printed, assumptions as configured, starting
    /// leaders generated (A37) and independent leaders placed at random (§4.6).
    pub fn reset(&mut self, model: &Model, dice: &mut Dice) {
        let sc: &Scenario = &model.scenario;
        let (nn, np) = (sc.nations.len(), sc.provinces.len());
        self.turn = 0;
        self.year = 1;
        self.peace_turns = 0;
        self.historical_period = false;
        self.eliminated = 0;
        self.battles = 0;
        self.wars_declared = 0;
        self.surrenders = 0;
        self.annexations = 0;
        self.cities_taken = 0;
        self.units_ledger = 0;
        self.nations.resize(nn, NationState::default());
        self.provinces.resize(np, ProvinceState::default());
        self.armies.clear();
        self.armies.resize(nn * np, [0; 6]);
        self.units.clear();
        self.units.resize(nn, [0; 6]);
        self.present.clear();
        self.present.resize(np, 0);
        self.leaders.clear();
        self.trade.clear();
        self.fleets_at_sea.clear();
        self.fleets_at_sea.resize(nn * sc.seas.len(), 0);
        self.war_activity.clear();
        self.war_activity.resize(nn, 0);
        self.directives.clear();
        self.directives.resize(nn, Directive::Follow);
        self.owners_generation = fresh_generation();
        self.fleets_generation = fresh_generation();
        for (p, pd) in sc.provinces.iter().enumerate() {
            self.provinces[p] = ProvinceState {
                owner: pd.owner.map_or(NONE, |o| o as u8),
                ppu: pd.ppu,
                ppu_max: pd.ppu * 3 / 2,
                ppr: pd.ppr,
                ppr_max: pd.ppr * 3 / 2,
                harvests: pd.harvests,
                mines: pd.mines,
                deposits: pd.deposits,
                herds: pd.herds,
                garrison: pd.garrison,
                agrarian_reform: false,
                occupier: NONE,
                occupation_vp: false,
                pillaged: 0,
                ports: pd.ports,
                troops: pd.troops,
                grade: [NEUTRAL; 16],
                hatred: 0,
                indep_leader: usize::MAX,
            };
        }
        self.hostile_independents = [0; 16];
        self.free_independents.clear();
        self.free_independents
            .extend(model.independents.iter().map(|&p| p as u16));
        self.owned.resize(nn, Vec::new());
        for list in &mut self.owned {
            list.clear();
        }
        for (p, pr) in self.provinces.iter().enumerate() {
            if pr.owner != NONE {
                self.owned[pr.owner as usize].push(p as u16);
            }
        }
        self.units_ledger += sc
            .provinces
            .iter()
            .map(|p| (p.troops[0] + p.troops[1]) as i64)
            .sum::<i64>();
        for (n, nd) in sc.nations.iter().enumerate() {
            let mut military = 0u16;
            for &m in &nd.military {
                military |= 1 << m;
            }
            let mut commercial = 0u16;
            for &c in &nd.commercial {
                commercial |= 1 << c;
            }
            self.nations[n] = NationState {
                goods: nd.treasury,
                stability: model.starting_stability,
                vp: model.starting_vp[n],
                alive: true,
                strategy: nd.strategy,
                capital: nd.capital,
                at_war: 0,
                commercial,
                military,
                fleets: nd.fleets,
                fleet_sea: NONE,
                cards: nd.cards,
                card_limit: nd.card_limit,
                ..Default::default()
            };
            for &p in &nd.independent_allies {
                self.provinces[p].grade[n] = MILITARY;
            }
            self.units_ledger += nd.units.iter().sum::<u32>() as i64;
            let mut a = [0; 6];
            a[INF] = nd.units[0];
            a[CAV] = nd.units[1];
            a[MINF] = nd.units[2];
            a[MCAV] = nd.units[3];
            *self.army_mut(n, nd.capital) = a;
            for _ in 0..nd.leaders {
                let leader = new_leader(nd.strategy, dice);
                self.leaders.push(GameLeader {
                    leader,
                    nation: n as u8,
                    province: nd.capital as u16,
                    alive: true,
                });
            }
        }
        self.refresh_port_seas();
        // The 20 independent leaders, at most one per independent province.
        let independents = &model.independents;
        for &(level, troops) in &sc.initial_leaders {
            let free: u32 = independents
                .iter()
                .filter(|&&p| self.provinces[p].indep_leader == usize::MAX)
                .count() as u32;
            if free == 0 {
                break;
            }
            let mut k = dice.below(free as u64) as u32;
            for &p in independents {
                if self.provinces[p].indep_leader != usize::MAX {
                    continue;
                }
                if k == 0 {
                    self.place_independent_leader(p, level, troops, dice);
                    break;
                }
                k -= 1;
            }
        }
    }

    pub fn place_independent_leader(
        &mut self,
        p: usize,
        level: u8,
        troops: [u32; 2],
        dice: &mut Dice,
    ) {
        let leader = new_leader(level, dice);
        self.provinces[p].indep_leader = self.leaders.len();
        self.provinces[p].troops[0] += troops[0];
        self.provinces[p].troops[1] += troops[1];
        self.units_ledger += (troops[0] + troops[1]) as i64;
        self.leaders.push(GameLeader {
            leader,
            nation: NONE,
            province: p as u16,
            alive: true,
        });
    }

    /// Moves stability by `delta` levels (negative = worse); gains beyond Optimal are VP (L965).
    pub fn change_stability(&mut self, n: usize, delta: i32, vp_at_optimal: bool) {
        let s = &mut self.nations[n];
        let target = s.stability as i32 - delta;
        if target < 0 {
            if vp_at_optimal {
                s.vp += 5 * (-target) as i64;
            }
            s.stability = 0;
        } else {
            s.stability = target.min(COLLAPSE as i32) as u8;
        }
    }

    /// The nations with land units in province `p`, as a mask.
    pub fn present(&self, p: usize) -> u16 {
        debug_assert_eq!(self.present[p], self.recount_present(p));
        self.present[p]
    }

    /// [`State::present`] found afresh from the armies: what the kept masks must equal.
    pub fn recount_present(&self, p: usize) -> u16 {
        (0..self.nations.len())
            .filter(|&n| size(self.army(n, p)) > 0)
            .fold(0, |mask, n| mask | 1 << n)
    }

    /// Land units of nation `n` and of its military allies in province `p`.
    pub fn friendly_units(&self, n: usize, p: usize) -> u32 {
        let mut total = size(self.army(n, p));
        let mut allies = self.nations[n].military & self.present(p);
        while allies != 0 {
            let m = allies.trailing_zeros() as usize;
            allies &= allies - 1;
            total += size(self.army(m, p));
        }
        total
    }

    /// Land units in province `p` of nations at war with `n`.
    pub fn enemy_units(&self, n: usize, p: usize) -> u32 {
        let mut wars = self.nations[n].at_war & self.present(p);
        let mut total = 0;
        while wars != 0 {
            let m = wars.trailing_zeros() as usize;
            wars &= wars - 1;
            total += size(self.army(m, p));
        }
        total
    }

    /// The provinces `n` owns, in index order.
    pub fn provinces_of(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.owned[n].iter().map(|&p| p as usize)
    }

    /// Gives province `p` to nation `n`: the one way an owner changes, so that the owned lists
    /// stay true.
    pub fn set_owner(&mut self, p: usize, n: usize) {
        let old = self.provinces[p].owner;
        if old == NONE {
            if let Ok(i) = self.free_independents.binary_search(&(p as u16)) {
                self.free_independents.remove(i);
            }
        } else {
            let list = &mut self.owned[old as usize];
            if let Ok(i) = list.binary_search(&(p as u16)) {
                list.remove(i);
            }
        }
        let list = &mut self.owned[n];
        if let Err(i) = list.binary_search(&(p as u16)) {
            list.insert(i, p as u16);
        }
        self.provinces[p].owner = n as u8;
        let before = self.owners_generation;
        self.owners_generation = fresh_generation();
        self.owner_changed(p, n, before);
    }

    pub fn refresh_port_seas(&mut self) {
        self.port_seas.clear();
        self.port_seas.resize(self.nations.len(), 0);
        for pr in &self.provinces {
            if pr.owner != NONE {
                self.port_seas[pr.owner as usize] |= pr.ports;
            }
        }
    }

    pub fn total_ppu(&self, n: usize) -> u32 {
        self.provinces_of(n).map(|p| self.provinces[p].ppu).sum()
    }

    /// Sets `n`'s grade with independent `p`: the one way a grade becomes or stops being Hostile.
    pub fn set_grade(&mut self, p: usize, n: usize, grade: u8) {
        let g = &mut self.provinces[p].grade[n];
        let count = &mut self.hostile_independents[n];
        *count = *count + (grade == HOSTILE) as u16 - (*g == HOSTILE) as u16;
        *g = grade;
    }

    /// Whether some unannexed independent is Hostile to `n`.
    pub fn hostile_independent(&self, n: usize) -> bool {
        debug_assert_eq!(self.hostile_independents[n], self.recount_hostile(n));
        self.hostile_independents[n] > 0
    }

    /// The unannexed independents Hostile to `n`, counted afresh: what the kept count must equal.
    pub fn recount_hostile(&self, n: usize) -> u16 {
        self.free_independents()
            .filter(|&p| self.provinces[p].grade[n] == HOSTILE)
            .count() as u16
    }

    /// Independent provinces still unannexed.
    pub fn free_independents(&self) -> impl Iterator<Item = usize> + '_ {
        self.free_independents.iter().map(|&p| p as usize)
    }

    /// Nation `n`'s land units by class, over the map.
    pub fn units_by_class(&self, n: usize) -> Army {
        debug_assert_eq!(self.units[n], self.recount_units(n));
        self.units[n]
    }

    pub fn total_units(&self, n: usize) -> u32 {
        size(&self.units_by_class(n))
    }

    /// [`State::units_by_class`] summed afresh from the armies: what the kept totals must equal.
    pub fn recount_units(&self, n: usize) -> Army {
        let np = self.provinces.len();
        let mut sum = [0; 6];
        for a in &self.armies[n * np..(n + 1) * np] {
            for c in 0..6 {
                sum[c] += a[c];
            }
        }
        sum
    }

    /// Disbands every army of nation `n`, returning how many units that was.
    pub fn disband_armies(&mut self, n: usize) -> u32 {
        let np = self.provinces.len();
        self.armies[n * np..(n + 1) * np].fill([0; 6]);
        for mask in &mut self.present {
            *mask &= !(1 << n);
        }
        size(&std::mem::take(&mut self.units[n]))
    }
}

/// A mutable army that, when dropped, adds what changed to its nation's totals.
pub struct ArmyMut<'a> {
    army: &'a mut Army,
    before: Army,
    total: &'a mut Army,
    /// The province's [`State::present`] mask and the nation's bit in it.
    present: &'a mut u16,
    bit: u16,
}

impl std::ops::Deref for ArmyMut<'_> {
    type Target = Army;
    fn deref(&self) -> &Army {
        self.army
    }
}

impl std::ops::DerefMut for ArmyMut<'_> {
    fn deref_mut(&mut self) -> &mut Army {
        self.army
    }
}

impl Drop for ArmyMut<'_> {
    fn drop(&mut self) {
        for c in 0..6 {
            // Wrapping: the total never goes below the army, but a class may shrink before it grows.
            self.total[c] = self.total[c]
                .wrapping_add(self.army[c])
                .wrapping_sub(self.before[c]);
        }
        if size(self.army) > 0 {
            *self.present |= self.bit;
        } else {
            *self.present &= !self.bit;
        }
    }
}

/// A new leader from the nation's strategy level (§4.4): modifier and starting age by d100.
pub fn new_leader(level: u8, dice: &mut Dice) -> Leader {
    // Lowest d100 roll for +3, +2, +1 at each level A..F (101 = impossible).
    const FROM: [[u32; 3]; 6] = [
        [91, 74, 46],
        [101, 81, 50],
        [101, 91, 66],
        [101, 101, 71],
        [101, 101, 81],
        [101, 101, 91],
    ];
    let roll = dice.d(100);
    let row = FROM[level.min(5) as usize];
    let modifier = if roll >= row[0] {
        3
    } else if roll >= row[1] {
        2
    } else if roll >= row[2] {
        1
    } else {
        0
    };
    let a = dice.d(100);
    let age = match a {
        91..=100 => 50,
        79..=90 => 40,
        64..=78 => 35,
        47..=63 => 30,
        26..=46 => 25,
        _ => 20,
    };
    Leader {
        modifier,
        age,
        historical: false,
    }
}
