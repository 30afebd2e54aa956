//! Sieges (XXIV, L2152-2216; digest §3.8, §8.3, §8.5), with the Barbarian terror (XXIV.B), maintained
//! campaign sieges (L2183), repeated attempts over several turns and the loot of a sack (XXIV.D).
//!
//! One siege roll: D10 + modifiers ≥ 7; the leader's combat bonus gives that many rerolls, which is
//! the same as rolling 1 + bonus dice and keeping the best. An assault gives +1 (and cancels the
//! supplying fleet's −1) for 2 hits on the besieging stack. The stack is tracked as (units, intact
//! elites): a hit flips an intact elite first, otherwise eliminates a unit, so the state alone tells
//! the hits taken and the units lost, and the exact answer is a small chain over those states.
//!
//! The pillage marker pool is not in the rulebook: it is read from the assumed composition in
//! `scenarios/invasions/pillage-markers.toml`.

use super::pillage_markers::pillage_markers;
use super::wording;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::{draw_without_replacement, Dice};
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str =
    "siege of a city: D10 + modifiers >= 7 with leader rerolls, assault, Barbarian terror, maintained sieges, turns, loot";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
use super::{ATTACKER, DEFENDER, SIDES};
const POLICY: &[&str] = &["policy"];
const NATION: Key = keys::choice("nation", &["barbarian", "nomad", "civilized"])
    .default_choice("barbarian")
    .help("\"nomad\": a Nomad Barbarian (-1 until the end of turn 9); \"civilized\": +1");
const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader (no rerolls, no terror)")
    .help("the besieging leader's combat bonus (= rerolls)");
const UNITS: Key = keys::int("units", 1, MAX_UNITS as i64)
    .default_int(1)
    .help("units in the besieging stack");
const ELITES: Key = keys::int("elites", 0, MAX_UNITS as i64)
    .default_int(0)
    .help("intact elite units among them, each absorbing an assault hit by flipping");
const TERROR: Key = keys::flag("terror")
    .default_bool(true)
    .help("the leader's stack is arriving now, so a Barbarian leader tests the terror first");
const IN_DECLINE: Key = keys::flag("in_decline").help(
    "the besieger is a Civilized nation En Declive (every Usurper marker drawn then strikes)",
);
const WALLS_KEY: Key = keys::choice("walls", WALLS)
    .default_choice("none")
    .help("standard (-2), roma (-1), ctesiphon, ravenna, constantinople (-3), theodosian (-4)");
const DECLINE: Key = keys::choice("decline", &["none", "simple", "double"])
    .default_choice("none")
    .help("the besieged nation En Declive: simple (+1), double (+2)");
const FLEET: Key = keys::flag("fleet").help(
    "a coastal city with a naval stack friendly to the besieged in its sea zone (-1, cancelled by an assault)",
);
const LEVEL: Key = keys::int("level", 1, 3)
    .default_int(1)
    .help("city level (pillage markers drawn if sacked)");
const CAPITAL: Key = keys::choice("capital", &["none", "kingdom", "empire"])
    .default_choice("none")
    .help("kingdom (+5 gold if sacked) or empire (+10 gold); capitals are always fortified");
const TURN: Key = keys::int("turn", 1, 12).default_int(1).help(
    "game turn of the (first) siege: nomad -1 up to turn 9, unfortified city -1 on turns 4-5",
);
const TURNS: Key = keys::int("turns", 1, 12)
    .default_int(1)
    .help("chance to take the city within this many turns, one arrival and attempt per turn");
const CAMPAIGNS: Key = keys::int("campaigns", 0, 3)
    .default_int(0)
    .help("later campaigns of the leader this activation in which a siege maintained by 1 unit rolls again");
const EVENT: Key = keys::int("event", -5, 5)
    .default_int(0)
    .help("event modifier to every siege roll");
const ASSAULT: Key = keys::choice("assault", &["auto", "always", "never"])
    .default_choice("auto")
    .help("\"auto\": when 2 intact elites absorb the hits and P(fall) without it < 0.5; \"always\": whenever the stack survives the 2 hits");
const SACK: Key = keys::choice("sack", &["always", "never"])
    .default_choice("always")
    .help("sack a city taken");

pub const KEYS: &[Key] = &[
    NATION.at(ATTACKER),
    LEADER.at(ATTACKER),
    UNITS.at(ATTACKER),
    ELITES.at(ATTACKER),
    TERROR.at(ATTACKER),
    IN_DECLINE.at(ATTACKER),
    WALLS_KEY.at(DEFENDER),
    DECLINE.at(DEFENDER),
    FLEET.at(DEFENDER),
    LEVEL.at(DEFENDER),
    CAPITAL.at(DEFENDER),
    TURN,
    TURNS,
    CAMPAIGNS,
    EVENT,
    ASSAULT.at(POLICY),
    SACK.at(POLICY),
];

/// Most units in a besieging stack (the stacking limit is at most 4 + 3 + 1 = 8; 30 leaves room).
const MAX_UNITS: u32 = 30;

// ---------------------------------------------------------------------------------------------
// Rules.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walls {
    None,
    Standard,
    Roma,
    Ctesiphon,
    Ravenna,
    Constantinople,
    Theodosian,
}

pub const WALLS: &[&str] = &[
    "none",
    "standard",
    "roma",
    "ctesiphon",
    "ravenna",
    "constantinople",
    "theodosian",
];

impl Walls {
    pub fn parse(s: &str) -> Walls {
        match s {
            "standard" => Walls::Standard,
            "roma" => Walls::Roma,
            "ctesiphon" => Walls::Ctesiphon,
            "ravenna" => Walls::Ravenna,
            "constantinople" => Walls::Constantinople,
            "theodosian" => Walls::Theodosian,
            _ => Walls::None,
        }
    }

    /// The walls' modifier (L2177-2178).
    pub fn modifier(self) -> i32 {
        match self {
            Walls::None => 0,
            Walls::Roma => -1,
            Walls::Standard => -2,
            Walls::Ctesiphon | Walls::Ravenna | Walls::Constantinople => -3,
            Walls::Theodosian => -4,
        }
    }

    pub fn fortified(self) -> bool {
        self != Walls::None
    }

    fn name(self) -> &'static str {
        WALLS[self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nation {
    Barbarian,
    Nomad,
    Civilized,
}

impl Nation {
    fn barbarian(self) -> bool {
        self != Nation::Civilized
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capital {
    None,
    Kingdom,
    Empire,
}

impl Capital {
    /// Extra loot for sacking it (L2191).
    pub fn bonus(self) -> u32 {
        match self {
            Capital::None => 0,
            Capital::Kingdom => 5,
            Capital::Empire => 10,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssaultPolicy {
    Auto,
    Always,
    Never,
}

/// Everything the siege roll's modifier depends on (L2172-2180).
#[derive(Clone, Copy, Debug)]
pub struct Situation {
    pub walls: Walls,
    pub nation: Nation,
    /// 0 none, 1 simple, 2 double.
    pub decline: u32,
    pub fleet: bool,
    pub event: i32,
}

impl Situation {
    /// The total modifier on turn `turn`, with or without an assault.
    /// (Arithmetic without allocation: the simulator calls it per roll; `breakdown` names the terms.)
    pub fn modifier(&self, turn: u32, assault: bool) -> i32 {
        let nation = match self.nation {
            Nation::Civilized => 1,
            Nation::Nomad if turn <= 9 => -1,
            _ => 0,
        };
        let walls = if self.walls.fortified() {
            self.walls.modifier()
        } else if turn == 4 || turn == 5 {
            -1
        } else {
            0
        };
        assault as i32 + nation + self.decline as i32 + walls - (self.fleet && !assault) as i32
            + self.event
    }

    /// Each modifier that applies, named.
    pub fn breakdown(&self, turn: u32, assault: bool) -> Vec<(&'static str, i32)> {
        let mut v = Vec::new();
        if assault {
            v.push(("assault", 1));
        }
        match self.nation {
            Nation::Civilized => v.push(("civilized besieger", 1)),
            Nation::Nomad if turn <= 9 => v.push(("nomad besieger", -1)),
            _ => {}
        }
        if self.decline > 0 {
            v.push(("besieged in decline", self.decline as i32));
        }
        if self.walls.fortified() {
            v.push(("walls", self.walls.modifier()));
        } else if turn == 4 || turn == 5 {
            v.push(("unfortified city, turns 4-5", -1));
        }
        if self.fleet && !assault {
            v.push(("supplying fleet", -1));
        }
        if self.event != 0 {
            v.push(("event", self.event));
        }
        v
    }
}

/// Faces of 10 that succeed: D10 + m ≥ 7.
pub fn faces_passing(m: i32) -> u32 {
    (4 + m).clamp(0, 10) as u32
}

/// P(one D10 + m ≥ 7) = clamp((4 + m)/10).
pub fn single_roll(m: i32) -> f64 {
    faces_passing(m) as f64 / 10.0
}

/// P(fall) with `rerolls` rerolls: 1 − (1 − p)^(1 + rerolls).
pub fn p_fall(m: i32, rerolls: u32) -> f64 {
    1.0 - (1.0 - single_roll(m)).powi(1 + rerolls as i32)
}

/// The printed-rolls form of one siege attempt: the dice (1..=10, the first roll and each reroll)
/// are all rolled and the best kept. Returns (best modified roll, the city falls).
pub fn best_of(m: i32, rolls: &[u32]) -> (i32, bool) {
    let best = rolls
        .iter()
        .map(|&r| r as i32 + m)
        .max()
        .unwrap_or(i32::MIN);
    (best, best >= 7)
}

/// Gold from a sack: 2 + the markers drawn (one per level) + the capital's bonus (L2190-2191).
pub fn sack_gold(markers: &[u32], capital: Capital) -> u32 {
    2 + markers.iter().sum::<u32>() + capital.bonus()
}

/// P(taken) with the Barbarian terror tested first: 1/2 + 1/2·P (§8.3).
pub fn with_terror(p: f64) -> f64 {
    0.5 + 0.5 * p
}

/// P(taken) with `k` maintained-siege rolls after a failed first attempt: 1 − (1 − P₁)(1 − p′)^k.
pub fn with_continuations(p1: f64, p_next: f64, k: u32) -> f64 {
    1.0 - (1.0 - p1) * (1.0 - p_next).powi(k as i32)
}

/// The besieging stack: units, of which `elites` are intact elites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub units: u32,
    pub elites: u32,
}

impl Stack {
    /// Takes `hits`: each flips an intact elite first, otherwise eliminates a unit.
    pub fn take_hits(self, hits: u32) -> Stack {
        let flips = hits.min(self.elites);
        let eliminated = (hits - flips).min(self.units);
        Stack {
            units: self.units - eliminated,
            elites: self.elites - flips,
        }
    }

    /// Whether the stack still has a unit after 2 hits.
    pub fn survives_assault(self) -> bool {
        self.take_hits(2).units >= 1
    }
}

pub struct Siege {
    pub situation: Situation,
    /// The leader's combat bonus, if a leader leads the stack.
    pub leader: Option<u32>,
    pub stack: Stack,
    pub arriving: bool,
    pub besieger_in_decline: bool,
    pub level: u32,
    pub capital: Capital,
    pub turn: u32,
    pub turns: u32,
    pub campaigns: u32,
    pub assault: AssaultPolicy,
    pub sack: bool,
    pub hits_per_reroll: bool,
    pub maintained_rerolls: bool,
    pub terror_each_arrival: bool,
    schema: Schema,
}

/// One trial's course, before the loot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Course {
    /// 1-based index of the turn the city fell on; 0 if it held.
    pub taken_turn: u32,
    pub by_terror: bool,
    pub stack: Stack,
}

fn read_stack(attacker: &Fields) -> Result<Stack> {
    let units = UNITS.int(attacker)? as u32;
    let elites = ELITES.int(attacker)? as u32;
    if elites > units {
        return Err(AleaError::input(
            attacker.source,
            ELITES.field(attacker),
            elites,
            format!("at most the stack's {units} units"),
        ));
    }
    Ok(Stack { units, elites })
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let attacker = fields.table(SIDES[0], &empty)?;
    let nation = match NATION.choice(&attacker)? {
        "nomad" => Nation::Nomad,
        "civilized" => Nation::Civilized,
        _ => Nation::Barbarian,
    };
    let leader = LEADER.opt_int(&attacker)?.map(|l| l as u32);
    let stack = read_stack(&attacker)?;
    let arriving = TERROR.bool(&attacker)?;
    let besieger_in_decline = IN_DECLINE.bool(&attacker)?;
    if besieger_in_decline && nation != Nation::Civilized {
        return Err(AleaError::input(
            fields.source,
            IN_DECLINE.field(&attacker),
            true,
            "only a Civilized besieger (nation = \"civilized\") can be En Declive",
        ));
    }

    let defender = fields.table(SIDES[1], &empty)?;
    let walls = Walls::parse(WALLS_KEY.choice(&defender)?);
    let decline = match DECLINE.choice(&defender)? {
        "simple" => 1,
        "double" => 2,
        _ => 0,
    };
    let fleet = FLEET.bool(&defender)?;
    let level = LEVEL.int(&defender)? as u32;
    let capital = match CAPITAL.choice(&defender)? {
        "kingdom" => Capital::Kingdom,
        "empire" => Capital::Empire,
        _ => Capital::None,
    };
    if capital != Capital::None && !walls.fortified() {
        return Err(AleaError::input(
            fields.source,
            WALLS_KEY.field(&defender),
            "\"none\"",
            "walls other than \"none\" for a capital (every capital is fortified, XXIII.A)",
        ));
    }

    let turn = TURN.int(fields)? as u32;
    let turns = TURNS.int(fields)? as u32;
    let campaigns = CAMPAIGNS.int(fields)? as u32;
    let event = EVENT.int(fields)? as i32;

    let policy = fields.table("policy", &empty)?;
    let assault = match ASSAULT.choice(&policy)? {
        "always" => AssaultPolicy::Always,
        "never" => AssaultPolicy::Never,
        _ => AssaultPolicy::Auto,
    };
    let sack = SACK.choice(&policy)? == "always";

    let situation = Situation {
        walls,
        nation,
        decline,
        fleet,
        event,
    };
    let mut siege = Siege::new(situation, leader, stack, turn, turns);
    siege.arriving = arriving;
    siege.besieger_in_decline = besieger_in_decline;
    siege.level = level;
    siege.capital = capital;
    siege.campaigns = campaigns;
    siege.assault = assault;
    siege.sack = sack;
    siege.hits_per_reroll = options.flag("assault_hits_per_reroll");
    siege.maintained_rerolls = options.flag("maintained_siege_rerolls");
    siege.terror_each_arrival = options.flag("terror_each_arrival");
    siege.rebuild_schema();
    Ok(Box::new(siege))
}

impl Siege {
    /// A siege with the defaults of every other key (no campaigns, assault auto, sack always).
    pub fn new(
        situation: Situation,
        leader: Option<u32>,
        stack: Stack,
        turn: u32,
        turns: u32,
    ) -> Siege {
        let mut s = Siege {
            situation,
            leader,
            stack,
            arriving: true,
            besieger_in_decline: false,
            level: 1,
            capital: Capital::None,
            turn,
            turns,
            campaigns: 0,
            assault: AssaultPolicy::Auto,
            sack: true,
            hits_per_reroll: false,
            maintained_rerolls: false,
            terror_each_arrival: true,
            schema: Schema::default(),
        };
        s.rebuild_schema();
        s
    }

    /// Call after changing any field: the schema's bounds depend on them.
    pub fn rebuild_schema(&mut self) {
        let mut schema = Schema::new(OUTCOMES);
        schema.count("turn_taken", self.turns as usize);
        schema.count(
            "hits_taken",
            (self.stack.units + self.stack.elites) as usize,
        );
        schema.count("units_eliminated", self.stack.units as usize);
        schema.count(
            "loot",
            if self.sack {
                self.max_loot() as usize
            } else {
                0
            },
        );
        schema.scalar("taken_by_terror");
        schema.scalar("usurper");
        self.schema = schema;
    }

    fn max_loot(&self) -> u32 {
        2 + pillage_markers().max_gold() * self.level + self.capital.bonus()
    }

    fn rerolls(&self) -> u32 {
        self.leader.unwrap_or(0)
    }

    /// Game turn of attempt `i` (0-based).
    fn game_turn(&self, i: u32) -> u32 {
        self.turn + i
    }

    /// Whether the terror is tested on attempt `i`.
    fn terror_on(&self, i: u32) -> bool {
        let possible = self.situation.nation.barbarian()
            && self.leader.is_some()
            && !self.situation.walls.fortified();
        possible
            && if i == 0 {
                self.arriving
            } else {
                self.terror_each_arrival
            }
    }

    /// Whether a fresh assault is ordered for a roll, the stack being `stack` (§8.5 for "auto").
    fn wants_assault(&self, stack: Stack, turn: u32) -> bool {
        if !stack.survives_assault() {
            return false;
        }
        match self.assault {
            AssaultPolicy::Never => false,
            AssaultPolicy::Always => true,
            AssaultPolicy::Auto => {
                let without = p_fall(self.situation.modifier(turn, false), self.rerolls());
                let with = p_fall(self.situation.modifier(turn, true), self.rerolls());
                stack.elites >= 2 && without < 0.5 && with > without
            }
        }
    }

    /// Rolls of a siege maintained by one unit in a later campaign (no assault).
    fn maintained_dice(&self) -> u32 {
        if self.maintained_rerolls {
            1 + self.rerolls()
        } else {
            1
        }
    }

    /// Plays the sieges with D10s from `d10` (1..=10 each): the trial logic, also used by the tests
    /// to replay printed rolls.
    pub fn play(&self, d10: &mut impl FnMut() -> u32) -> Course {
        let mut stack = self.stack;
        for i in 0..self.turns {
            let turn = self.game_turn(i);
            if self.terror_on(i) && d10().is_multiple_of(2) {
                return Course {
                    taken_turn: i + 1,
                    by_terror: true,
                    stack,
                };
            }
            let mut assault = false;
            for j in 0..=self.rerolls() {
                if j == 0 || self.hits_per_reroll {
                    assault = self.wants_assault(stack, turn);
                    if assault {
                        stack = stack.take_hits(2);
                    }
                }
                let m = self.situation.modifier(turn, assault);
                if d10() as i32 + m >= 7 {
                    return Course {
                        taken_turn: i + 1,
                        by_terror: false,
                        stack,
                    };
                }
            }
            let m = self.situation.modifier(turn, false);
            for _ in 0..self.campaigns * self.maintained_dice() {
                if d10() as i32 + m >= 7 {
                    return Course {
                        taken_turn: i + 1,
                        by_terror: false,
                        stack,
                    };
                }
            }
        }
        Course {
            taken_turn: 0,
            by_terror: false,
            stack,
        }
    }

    /// P(a Usurper strikes) given `markers` Usurper markers drawn.
    fn usurper_given(&self, markers: u32) -> f64 {
        if self.situation.nation != Nation::Civilized || markers == 0 {
            0.0
        } else if self.besieger_in_decline {
            1.0
        } else {
            1.0 - 0.9f64.powi(markers as i32)
        }
    }

    /// Loot and P(Usurper) of one sack.
    fn sack_distribution(&self) -> (Pmf, f64) {
        let mut loot = Pmf::zeros(self.max_loot() as usize + 1);
        let mut usurper = 0.0;
        for (p, gold, u) in pillage_markers().draws(self.level) {
            loot.add_mass((2 + gold + self.capital.bonus()) as usize, p);
            usurper += p * self.usurper_given(u);
        }
        (loot, usurper)
    }

    fn index(&self, s: Stack) -> usize {
        (s.units * (self.stack.elites + 1) + s.elites) as usize
    }

    fn record_exact(&self, ex: &mut Exact, turn_taken: u32, s: Stack, w: f64) {
        let hits = (self.stack.units - s.units) + (self.stack.elites - s.elites);
        ex.outcomes[if turn_taken > 0 { 0 } else { 1 }] += w;
        ex.counts[0].add_mass(turn_taken as usize, w);
        ex.counts[1].add_mass(hits as usize, w);
        ex.counts[2].add_mass((self.stack.units - s.units) as usize, w);
    }
}

impl Simulate for Siege {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let course = self.play(&mut || dice.d10());
        let s = course.stack;
        out.outcome = if course.taken_turn > 0 { 0 } else { 1 };
        out.counts[0] = course.taken_turn;
        out.counts[1] = (self.stack.units - s.units) + (self.stack.elites - s.elites);
        out.counts[2] = self.stack.units - s.units;
        if course.by_terror {
            out.scalars[0] = 1.0;
        }
        if course.taken_turn > 0 && self.sack {
            let markers = pillage_markers();
            let taken = draw_without_replacement(dice, markers.counts(), self.level);
            let mut gold = 2 + self.capital.bonus();
            let mut usurper = false;
            for (k, &n) in taken.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let m = &markers.marker[k];
                gold += m.gold * n;
                if m.usurper && self.situation.nation == Nation::Civilized {
                    for _ in 0..n {
                        usurper |= self.besieger_in_decline || dice.d10() == 10;
                    }
                }
            }
            out.counts[3] = gold;
            out.scalars[1] = usurper as u32 as f64;
        }
    }
}

impl BattleModel for Siege {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let size = ((self.stack.units + 1) * (self.stack.elites + 1)) as usize;
        // Mass of "the city still holds" by stack state.
        let mut holding = vec![0.0; size];
        let mut states = vec![
            Stack {
                units: 0,
                elites: 0
            };
            size
        ];
        for u in 0..=self.stack.units {
            for e in 0..=self.stack.elites {
                let s = Stack {
                    units: u,
                    elites: e,
                };
                states[self.index(s)] = s;
            }
        }
        holding[self.index(self.stack)] = 1.0;
        let mut terror = 0.0;
        for i in 0..self.turns {
            let turn = self.game_turn(i);
            let mut next = vec![0.0; size];
            for (k, &w0) in holding.iter().enumerate() {
                if w0 == 0.0 {
                    continue;
                }
                let mut w = w0;
                let mut stack = states[k];
                if self.terror_on(i) {
                    self.record_exact(&mut ex, i + 1, stack, w * 0.5);
                    terror += w * 0.5;
                    w *= 0.5;
                }
                let mut assault = false;
                for j in 0..=self.rerolls() {
                    if j == 0 || self.hits_per_reroll {
                        assault = self.wants_assault(stack, turn);
                        if assault {
                            stack = stack.take_hits(2);
                        }
                    }
                    let p = single_roll(self.situation.modifier(turn, assault));
                    self.record_exact(&mut ex, i + 1, stack, w * p);
                    w *= 1.0 - p;
                }
                let p = single_roll(self.situation.modifier(turn, false));
                let fail = (1.0 - p).powi((self.campaigns * self.maintained_dice()) as i32);
                self.record_exact(&mut ex, i + 1, stack, w * (1.0 - fail));
                next[self.index(stack)] += w * fail;
            }
            holding = next;
        }
        for (k, &w) in holding.iter().enumerate() {
            if w > 0.0 {
                self.record_exact(&mut ex, 0, states[k], w);
            }
        }
        ex.scalars[0] = terror;
        let taken = ex.outcomes[0];
        if self.sack {
            let (loot, usurper) = self.sack_distribution();
            ex.counts[3] = Pmf::point(0).padded(loot.len());
            ex.counts[3].0[0] = 1.0 - taken;
            ex.counts[3].add_scaled(&loot, taken);
            ex.scalars[1] = taken * usurper;
        } else {
            ex.counts[3] = Pmf::point(0);
        }
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let s = &self.situation;
        let nation = match s.nation {
            Nation::Barbarian => "Barbarian",
            Nation::Nomad => "Nomad Barbarian",
            Nation::Civilized => "Civilized",
        };
        let leader = wording::leader_with_rerolls(self.leader);
        let breakdown = |assault| wording::modifiers(&s.breakdown(self.turn, assault));
        vec![
            format!(
                "{}: {nation} stack of {} units ({} intact elites) with {leader}{}",
                SIDES[0],
                self.stack.units,
                self.stack.elites,
                if self.besieger_in_decline {
                    ", En Declive"
                } else {
                    ""
                }
            ),
            format!(
                "{}: level-{} {}city, walls {}{}{}{}",
                SIDES[1],
                self.level,
                match self.capital {
                    Capital::None => "",
                    Capital::Kingdom => "Kingdom capital ",
                    Capital::Empire => "Empire capital ",
                },
                s.walls.name(),
                match s.decline {
                    1 => ", besieged nation En Declive",
                    2 => ", besieged nation doubly En Declive",
                    _ => "",
                },
                if s.fleet { ", supplied by a fleet" } else { "" },
                if s.event != 0 {
                    format!(", event {:+}", s.event)
                } else {
                    String::new()
                }
            ),
            format!(
                "turn {}: modifier {:+} ({}) without assault, {:+} ({}) with one",
                self.turn,
                s.modifier(self.turn, false),
                breakdown(false),
                s.modifier(self.turn, true),
                breakdown(true)
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let r = self.rerolls();
        let m0 = self.situation.modifier(self.turn, false);
        let assaulted = self.wants_assault(self.stack, self.turn);
        let m = self.situation.modifier(self.turn, assaulted);
        notes.push(format!(
            "policy: assault = {} (first attempt assaulted: {}{}), sack = {}",
            match self.assault {
                AssaultPolicy::Auto => "auto",
                AssaultPolicy::Always => "always",
                AssaultPolicy::Never => "never",
            },
            if assaulted { "yes" } else { "no" },
            if !self.stack.survives_assault() && self.assault != AssaultPolicy::Never {
                ", the stack could not survive 2 hits"
            } else {
                ""
            },
            if self.sack { "always" } else { "never" }
        ));
        notes.push(format!(
            "first attempt: {} D10, keep the best, need {} or more; P(fall) = {:.4} (without assault {:.4})",
            1 + r,
            (7 - m).max(1),
            p_fall(m, r),
            p_fall(m0, r)
        ));
        if self.terror_on(0) {
            notes.push(
                "Barbarian terror: the unfortified city surrenders first on a passed D2 (1/2)"
                    .to_string(),
            );
        }
        if self.campaigns > 0 {
            notes.push(format!(
                "after a failed attempt, a siege maintained by 1 unit rolls {} D10 in each of {} later campaign{} (no assault{})",
                self.maintained_dice(),
                self.campaigns,
                if self.campaigns == 1 { "" } else { "s" },
                if self.maintained_rerolls { "; option maintained_siege_rerolls keeps the rerolls" } else { ", no rerolls" }
            ));
        }
        if self.turns > 1 {
            notes.push(format!(
                "{} turns: the stack retreats after each failure and besieges again next turn (turn_taken 0 = the city held throughout{})",
                self.turns,
                if self.terror_on(1) { "; terror tested at each arrival" } else { "" }
            ));
        }
        if self.sack {
            let markers = pillage_markers();
            notes.push(format!(
                "loot if sacked: 2 gold + {} pillage marker{} + {} (capital); markers {} (mean {:.2} gold, {} markers): {}",
                self.level,
                if self.level == 1 { "" } else { "s" },
                self.capital.bonus(),
                markers.pool.provenance,
                markers.mean_gold(),
                markers.total(),
                markers.pool.why
            ));
        }
        notes
    }
}

#[cfg(test)]
#[path = "siege_tests.rs"]
mod tests;
