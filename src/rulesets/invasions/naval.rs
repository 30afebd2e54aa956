//! Naval battle after a successful naval interception (XXV.C, L2236-2248; digest §3.9, §8.4).
//!
//! One naval stack (1 or 2 fleets) a side, resolved like a land battle with no fire round and no
//! combat modifiers. Basic system: one white battle die per fleet (no exchanges); red swords only with
//! the `naval_red_swords` option (Q20). Advanced system: one 2D6 per side on the combat table,
//! column = fleets, halves dropped (Q20). Leaders' combat bonus = rerolls, plus 2 rerolls for the
//! side controlling every coastal city of a Mediterranean / Pontus Euxinus zone (L2242, Q47).
//! Elite fleets of Civilized nations flip on their first hit (`naval_elite_fleets`). The side that
//! eliminates the other wins, else the side inflicting more hits; ties are possible (L2244). A
//! leader dies with his annihilated stack (L2245). Recovery: the small-battle rule at sea
//! (`naval_small_battle_recovery`, Q22), then every damaged elite fleet is repaired (L1460).
//! Carried land units beyond 3 per surviving fleet are lost (L2266, T18).

use super::faces::Colour;
pub use super::naval_input::{check_coastal, parse_policy, parse_side, parse_system};
use super::naval_input::{CARRIED, POLICY_KEYS, SEA, SIDE_KEYS, SYSTEM_KEYS};
use super::tables::{combat_hits, HalfHit};
use super::{ATTACKER, SIDES};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::markov::StateDist;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str =
    "naval battle after a successful interception: fleets, elite fleets, leader and coastal rerolls, carried units (XXV.C)";
pub const OUTCOMES: &[&str] = &[SIDES[0], SIDES[1], "tie"];
pub const KEYS: &[Key] = &keys::join::<13>(&[
    &keys::placed(SIDE_KEYS, &SIDES),
    &[CARRIED.at(ATTACKER)],
    &keys::placed(POLICY_KEYS, &["policy"]),
    &SYSTEM_KEYS,
]);

pub const KINDS: &[&str] = &["barbarian", "kingdom", "empire"];
pub const SEAS: &[&str] = &["mediterranean", "other"];
pub const SYSTEMS: &[&str] = &["basic", "advanced"];
pub const REROLLS: &[&str] = &["greedy", "never"];
/// Who refuses: nobody, or a side by its name.
pub const REFUSALS: &[&str] = &["never", SIDES[0], SIDES[1]];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Barbarian,
    Kingdom,
    Empire,
}

impl Kind {
    pub(super) fn parse(s: &str) -> Kind {
        match s {
            "barbarian" => Kind::Barbarian,
            "kingdom" => Kind::Kingdom,
            _ => Kind::Empire,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Barbarian => "Barbarian",
            Kind::Kingdom => "Kingdom",
            Kind::Empire => "Empire",
        }
    }
}

/// One naval stack as read from the battle file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Side {
    pub fleets: u8,
    pub elite: u8,
    pub kind: Kind,
    pub rome_byzantium: bool,
    pub leader: Option<u8>,
    pub full_coastal_control: bool,
}

impl Side {
    pub fn new(fleets: u8) -> Side {
        Side {
            fleets,
            elite: 0,
            kind: Kind::Empire,
            rome_byzantium: false,
            leader: None,
            full_coastal_control: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Basic,
    Advanced { rounds: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuse {
    Never,
    Attacker,
    Defender,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub greedy: bool,
    pub threshold: f64,
    pub refuse: Refuse,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            greedy: true,
            threshold: 0.0,
            refuse: Refuse::Never,
        }
    }
}

/// The rule options this procedure reads, resolved once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub red_swords: bool,
    pub elite_any_civilized: bool,
    pub small_battle_recovery: bool,
}

impl Rules {
    pub fn from_options(options: &Options) -> Rules {
        Rules {
            red_swords: options.flag("naval_red_swords"),
            elite_any_civilized: options.choice("naval_elite_fleets") == "any-civilized",
            small_battle_recovery: options.flag("naval_small_battle_recovery"),
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            red_swords: false,
            elite_any_civilized: true,
            small_battle_recovery: true,
        }
    }
}

/// A die of the reroll game: equally likely outcomes (6 faces, or 36 for a 2D6) mapped to hits.
#[derive(Clone, Copy, Debug)]
struct Die {
    hits: [u8; 36],
    two: bool,
    /// P(hits = v), v in 0..=4.
    p: [f64; 5],
    mean: f64,
}

impl Die {
    fn battle_die(red_swords: bool) -> Die {
        let mut hits = [0u8; 36];
        for (face, h) in hits.iter_mut().enumerate().take(6) {
            *h = Colour::White.hits_on(face, red_swords);
        }
        Die::finish(hits, false)
    }

    fn two_d6(column: u8) -> Die {
        let mut hits = [0u8; 36];
        for (i, h) in hits.iter_mut().enumerate() {
            let roll = (i / 6 + i % 6 + 2) as i32;
            *h = combat_hits(roll, column as u32, HalfHit::Drop) as u8;
        }
        Die::finish(hits, true)
    }

    fn finish(hits: [u8; 36], two: bool) -> Die {
        let n = if two { 36 } else { 6 };
        let mut p = [0.0; 5];
        for &h in &hits[..n] {
            p[h as usize] += 1.0 / n as f64;
        }
        let mean = p.iter().enumerate().map(|(v, q)| v as f64 * q).sum();
        Die { hits, two, p, mean }
    }

    #[inline]
    fn roll(&self, dice: &mut Dice) -> u8 {
        let i = if self.two {
            dice.below(6) as usize * 6 + dice.below(6) as usize
        } else {
            dice.below(6) as usize
        };
        self.hits[i]
    }
}

/// The fleets of one side still afloat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stack {
    /// Intact elite fleets that a hit only flips.
    pub tough: u8,
    /// Standard fleets and damaged elite fleets: a hit sinks one.
    pub other: u8,
}

impl Stack {
    pub fn alive(self) -> u8 {
        self.tough + self.other
    }

    pub fn capacity(self) -> u8 {
        2 * self.tough + self.other
    }

    /// Takes `hits`: flips intact elites first, then sinks fleets; returns the hits absorbed.
    pub fn take(&mut self, hits: u8) -> u8 {
        let flips = hits.min(self.tough);
        self.tough -= flips;
        self.other += flips;
        let sunk = (hits - flips).min(self.other);
        self.other -= sunk;
        flips + sunk
    }
}

/// Where a battle ended: fleets afloat (before recovery), hits inflicted by each side, refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct End {
    pub refused: Option<usize>,
    pub stacks: [Stack; 2],
    /// Hits inflicted by the attacker (on the defender) and by the defender, as absorbed.
    pub hits: [u8; 2],
}

/// What a battle's end means for the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aftermath {
    /// 0 attacker, 1 defender, 2 tie.
    pub winner: usize,
    pub sunk: [u8; 2],
    /// Fleets lost for good (after recovery).
    pub lost: [u8; 2],
    pub leader_killed: [bool; 2],
    pub carried_lost: u8,
    /// VP transferred to the attacker (an inactive stack refusing).
    pub vp_to_attacker: u8,
}

/// One round's state of the reroll game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Game {
    /// Hits shown by each die (dice beyond the side's count are 0), kept sorted for the exact chain.
    vals: [[u8; 2]; 2],
    rerolls: [u8; 2],
    turn: u8,
    passes: u8,
}

/// A round's result: hits rolled by each side and rerolls left to each.
type RoundEnd = ([u8; 2], [u8; 2]);

/// A whole battle's state between rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Mid {
    stacks: [Stack; 2],
    hits: [u8; 2],
    rerolls: [u8; 2],
}

/// A resolved naval battle.
#[derive(Clone, Debug)]
pub struct Naval {
    pub sides: [Side; 2],
    pub tough: [u8; 2],
    pub rerolls: [u8; 2],
    pub carried: u8,
    pub system: System,
    pub mediterranean: bool,
    pub rules: Rules,
    pub policy: Policy,
    /// Fleets each side may recover.
    pub recovery: u8,
    basic: Die,
    /// Advanced 2D6 by column (1 or 2 fleets).
    advanced: [Die; 2],
}

impl Naval {
    pub fn new(
        sides: [Side; 2],
        carried: u8,
        system: System,
        mediterranean: bool,
        rules: Rules,
        policy: Policy,
    ) -> Naval {
        let tough = sides.map(|s| {
            let counts = match s.kind {
                Kind::Barbarian => false,
                _ => rules.elite_any_civilized || s.rome_byzantium,
            };
            if counts {
                s.elite
            } else {
                0
            }
        });
        let rerolls = sides.map(|s| {
            s.leader.unwrap_or(0)
                + if s.full_coastal_control && mediterranean {
                    2
                } else {
                    0
                }
        });
        let recovery = if !rules.small_battle_recovery {
            2
        } else if sides[0].fleets.min(sides[1].fleets) <= 1 {
            0
        } else {
            1
        };
        Naval {
            sides,
            tough,
            rerolls,
            carried,
            system,
            mediterranean,
            rules,
            policy,
            recovery,
            basic: Die::battle_die(rules.red_swords),
            advanced: [Die::two_d6(1), Die::two_d6(2)],
        }
    }

    pub fn start(&self) -> [Stack; 2] {
        [0, 1].map(|i| Stack {
            tough: self.tough[i],
            other: self.sides[i].fleets - self.tough[i],
        })
    }

    fn rounds(&self) -> u8 {
        match self.system {
            System::Basic => 1,
            System::Advanced { rounds } => rounds,
        }
    }

    /// The dice of each side in a round fought by these stacks.
    fn round_dice(&self, stacks: &[Stack; 2]) -> ([&Die; 2], [usize; 2]) {
        match self.system {
            System::Basic => (
                [&self.basic, &self.basic],
                stacks.map(|s| s.alive() as usize),
            ),
            System::Advanced { .. } => (
                stacks.map(|s| &self.advanced[(s.alive() - 1) as usize]),
                [1, 1],
            ),
        }
    }

    /// The §8.5 greedy choice of side `s`: (side of the die, index) of largest gain above τ.
    #[inline]
    fn choose(&self, g: &Game, dice: [&Die; 2], n: [usize; 2], s: usize) -> Option<(usize, usize)> {
        if !self.policy.greedy || g.rerolls[s] == 0 {
            return None;
        }
        let mut best: Option<(usize, usize)> = None;
        let mut best_gain = self.policy.threshold;
        for side in [s, 1 - s] {
            for j in 0..n[side] {
                let v = g.vals[side][j] as f64;
                let gain = if side == s {
                    dice[side].mean - v
                } else {
                    v - dice[side].mean
                };
                if gain > best_gain + 1e-12 {
                    best_gain = gain;
                    best = Some((side, j));
                }
            }
        }
        best
    }

    fn game_over(g: &Game) -> bool {
        g.passes >= 2 || g.rerolls == [0, 0]
    }

    /// One round by simulation: returns the hits rolled by each side, spending rerolls.
    #[inline]
    fn play_round(&self, stacks: &[Stack; 2], rerolls: &mut [u8; 2], dice: &mut Dice) -> [u8; 2] {
        let (kinds, n) = self.round_dice(stacks);
        let mut g = Game {
            vals: [[0; 2]; 2],
            rerolls: *rerolls,
            turn: 0,
            passes: 0,
        };
        for s in 0..2 {
            for j in 0..n[s] {
                g.vals[s][j] = kinds[s].roll(dice);
            }
        }
        while !Self::game_over(&g) {
            let s = g.turn as usize;
            match self.choose(&g, kinds, n, s) {
                Some((side, j)) => {
                    g.vals[side][j] = kinds[side].roll(dice);
                    g.rerolls[s] -= 1;
                    g.passes = 0;
                }
                None => g.passes += 1,
            }
            g.turn = 1 - g.turn;
        }
        *rerolls = g.rerolls;
        [0, 1].map(|s| g.vals[s].iter().sum())
    }

    /// One round exactly: distribution over (hits rolled by each side, rerolls left).
    fn round_exact(&self, stacks: &[Stack; 2], rerolls: [u8; 2]) -> Vec<(RoundEnd, f64)> {
        let (kinds, n) = self.round_dice(stacks);
        let canon = |mut g: Game| {
            for s in 0..2 {
                if g.vals[s][0] < g.vals[s][1] {
                    g.vals[s].swap(0, 1);
                }
            }
            g
        };
        // The opening roll.
        let mut dist = StateDist::certain(Game {
            vals: [[0; 2]; 2],
            rerolls,
            turn: 0,
            passes: 0,
        });
        for s in 0..2 {
            for j in 0..n[s] {
                dist = dist.step(|g, emit| {
                    for (v, &p) in kinds[s].p.iter().enumerate() {
                        if p > 0.0 {
                            let mut h = *g;
                            h.vals[s][j] = v as u8;
                            emit(h, p);
                        }
                    }
                });
            }
        }
        let mut dist = dist.step(|g, emit| emit(canon(*g), 1.0));
        // The reroll chain, one decision per step.
        while dist.iter().any(|(g, _)| !Self::game_over(g)) {
            dist = dist.step(|g, emit| {
                if Self::game_over(g) {
                    emit(*g, 1.0);
                    return;
                }
                let s = g.turn as usize;
                match self.choose(g, kinds, n, s) {
                    Some((side, j)) => {
                        for (v, &p) in kinds[side].p.iter().enumerate() {
                            if p > 0.0 {
                                let mut h = *g;
                                h.vals[side][j] = v as u8;
                                h.rerolls[s] -= 1;
                                h.passes = 0;
                                h.turn = 1 - h.turn;
                                emit(canon(h), p);
                            }
                        }
                    }
                    None => {
                        let mut h = *g;
                        h.passes += 1;
                        h.turn = 1 - h.turn;
                        emit(h, 1.0);
                    }
                }
            });
        }
        let mut out = StateDist::empty();
        for (g, p) in dist.iter() {
            out.add(([0, 1].map(|s| g.vals[s].iter().sum()), g.rerolls), p);
        }
        out.iter().map(|(k, p)| (*k, p)).collect()
    }

    /// Applies a round's hits simultaneously.
    fn apply(stacks: &mut [Stack; 2], hits: &mut [u8; 2], rolled: [u8; 2]) {
        let on_defender = stacks[1].take(rolled[0]);
        let on_attacker = stacks[0].take(rolled[1]);
        hits[0] += on_defender;
        hits[1] += on_attacker;
    }

    fn refusal(&self) -> Option<usize> {
        match self.policy.refuse {
            Refuse::Never => None,
            Refuse::Attacker => Some(0),
            Refuse::Defender => Some(1),
        }
    }

    /// One battle by simulation.
    #[inline]
    pub fn simulate(&self, dice: &mut Dice) -> End {
        let mut stacks = self.start();
        if let Some(side) = self.refusal() {
            return End {
                refused: Some(side),
                stacks,
                hits: [0, 0],
            };
        }
        let mut hits = [0, 0];
        let mut rerolls = self.rerolls;
        for _ in 0..self.rounds() {
            if stacks[0].alive() == 0 || stacks[1].alive() == 0 {
                break;
            }
            let rolled = self.play_round(&stacks, &mut rerolls, dice);
            Self::apply(&mut stacks, &mut hits, rolled);
        }
        End {
            refused: None,
            stacks,
            hits,
        }
    }

    /// Every way the battle can end, with its probability.
    pub fn ends(&self) -> Vec<(End, f64)> {
        let stacks = self.start();
        if let Some(side) = self.refusal() {
            return vec![(
                End {
                    refused: Some(side),
                    stacks,
                    hits: [0, 0],
                },
                1.0,
            )];
        }
        let mut dist = StateDist::certain(Mid {
            stacks,
            hits: [0, 0],
            rerolls: self.rerolls,
        });
        for _ in 0..self.rounds() {
            dist = dist.step(|m, emit| {
                if m.stacks[0].alive() == 0 || m.stacks[1].alive() == 0 {
                    emit(*m, 1.0);
                    return;
                }
                for ((rolled, rerolls), p) in self.round_exact(&m.stacks, m.rerolls) {
                    let mut next = *m;
                    next.rerolls = rerolls;
                    Self::apply(&mut next.stacks, &mut next.hits, rolled);
                    emit(next, p);
                }
            });
        }
        dist.iter()
            .map(|(m, p)| {
                (
                    End {
                        refused: None,
                        stacks: m.stacks,
                        hits: m.hits,
                    },
                    p,
                )
            })
            .collect()
    }

    /// Winner, losses, leaders, carried units and VP of a battle's end.
    pub fn result(&self, end: &End) -> Aftermath {
        let fleets = [self.sides[0].fleets, self.sides[1].fleets];
        if let Some(side) = end.refused {
            return Aftermath {
                winner: 1 - side,
                sunk: [0, 0],
                lost: [0, 0],
                leader_killed: [false, false],
                carried_lost: 0,
                vp_to_attacker: u8::from(side == 1),
            };
        }
        let alive = end.stacks.map(|s| s.alive());
        let wiped = alive.map(|a| a == 0);
        let winner = match (wiped[1], wiped[0]) {
            (true, false) => 0,
            (false, true) => 1,
            _ => match end.hits[0].cmp(&end.hits[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            },
        };
        let sunk = [0, 1].map(|i| fleets[i] - alive[i]);
        Aftermath {
            winner,
            sunk,
            lost: sunk.map(|s| s - s.min(self.recovery)),
            leader_killed: [0, 1].map(|i| wiped[i] && self.sides[i].leader.is_some()),
            carried_lost: carried_lost(self.carried, alive[0]),
            vp_to_attacker: 0,
        }
    }

    pub fn capacity(&self) -> [u8; 2] {
        self.start().map(|s| s.capacity())
    }

    pub fn describe_side(&self, i: usize) -> String {
        let s = &self.sides[i];
        let role = super::SIDES[i];
        let mut text = format!(
            "{role}: {} fleet{} ({}{})",
            s.fleets,
            if s.fleets == 1 { "" } else { "s" },
            s.kind.name(),
            if s.rome_byzantium {
                ", Rome/Byzantium"
            } else {
                ""
            }
        );
        if s.elite > 0 {
            if self.tough[i] == s.elite {
                text += &format!(", {} elite (flip on the first hit)", s.elite);
            } else {
                text += &format!(", {} elite counted as standard", s.elite);
            }
        }
        match s.leader {
            Some(b) => text += &format!(", leader +{b}"),
            None => text += ", no leader",
        }
        if s.full_coastal_control {
            text += if self.mediterranean {
                ", controls every coastal city (+2 rerolls)"
            } else {
                ", controls every coastal city (no reroll bonus outside the Mediterranean)"
            };
        }
        text += &format!(
            ", {} reroll{}",
            self.rerolls[i],
            if self.rerolls[i] == 1 { "" } else { "s" }
        );
        if i == 0 && self.carried > 0 {
            text += &format!(", carrying {} land units", self.carried);
        }
        text
    }

    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        match self.system {
            System::Basic => notes.push(format!(
                "basic system: 1 white die per fleet, no fire round, no exchanges; red swords {}",
                if self.rules.red_swords {
                    "count at sea (naval_red_swords)"
                } else {
                    "do not count at sea (Q20)"
                }
            )),
            System::Advanced { rounds } => notes.push(format!(
                "advanced system: 2D6 on the combat table, column = fleets afloat, no modifiers, halves dropped (Q20); {rounds} combat round{} (chosen reading: the land battle's rounds, naval stacks cannot retreat; leaders' rerolls are a pool for the whole battle, L1912)",
                if rounds == 1 { "" } else { "s" }
            )),
        }
        notes.push(format!(
            "recovery: each side recovers up to {} sunk fleet{} ({}), then every damaged elite fleet is repaired",
            self.recovery,
            if self.recovery == 1 { "" } else { "s" },
            if self.rules.small_battle_recovery {
                "small-battle rule at sea, Q22"
            } else {
                "naval_small_battle_recovery = false"
            }
        ));
        notes.push(
            "winner: the side that sank the whole enemy stack, else more hits inflicted (hits absorbed by flips and sinkings); equal = tie; a leader dies iff his whole stack is sunk"
                .into(),
        );
        match self.policy.refuse {
            Refuse::Never => {}
            Refuse::Attacker => notes.push(
                "policy: refuse = attacker: the active stack refuses, loses, its movement (and any transport) ends"
                    .into(),
            ),
            Refuse::Defender => notes.push(
                "policy: refuse = defender: the inactive stack refuses, loses and transfers 1 VP"
                    .into(),
            ),
        }
        if self.policy.greedy {
            notes.push(format!(
                "policy: rerolls = greedy (τ = {}): alternate, attacker first; reroll the die (own or enemy) of largest gain (own: E − shown, enemy: shown − E){}",
                self.policy.threshold,
                if matches!(self.system, System::Advanced { .. }) {
                    "; a reroll re-rolls one side's whole 2D6, gains in table hits"
                } else {
                    ""
                }
            ));
        } else {
            notes.push("policy: rerolls = never".into());
        }
        if self.carried > 0 {
            notes.push(
                "carried units lost = max(0, carried − 3 × fleets afloat at the end of the battle, before recovery)"
                    .into(),
            );
        }
        notes
    }
}

/// Carried land units lost when `afloat` fleets remain (L2266, T18).
pub fn carried_lost(carried: u8, afloat: u8) -> u8 {
    carried.saturating_sub(3 * afloat)
}

pub struct NavalBattle {
    naval: Naval,
    schema: Schema,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let (attacker, carried) = parse_side(&fields.table(SIDES[0], &empty)?, true)?;
    let (defender, _) = parse_side(&fields.table(SIDES[1], &empty)?, false)?;
    check_coastal(fields, &[attacker, defender])?;
    let mediterranean = SEA.choice(fields)? == "mediterranean";
    let system = parse_system(fields)?;
    let policy = parse_policy(&fields.table("policy", &empty)?)?;
    let naval = Naval::new(
        [attacker, defender],
        carried,
        system,
        mediterranean,
        Rules::from_options(&options),
        policy,
    );
    Ok(Box::new(NavalBattle::new(naval)))
}

impl NavalBattle {
    pub fn new(naval: Naval) -> NavalBattle {
        let mut schema = Schema::new(OUTCOMES);
        let cap = naval.capacity();
        for quantity in ["fleets_lost", "fleets_sunk"] {
            for (side, s) in SIDES.iter().zip(&naval.sides) {
                schema.count(side_column(side, quantity), s.fleets as usize);
            }
        }
        schema.count("carried_units_lost", naval.carried as usize);
        // Each side's hits are bounded by what the other side can take.
        for (side, cap) in SIDES.iter().zip([cap[1], cap[0]]) {
            schema.count(side_column(side, "hits"), cap as usize);
        }
        for side in SIDES {
            schema.scalar(side_column(side, "leader_killed"));
        }
        schema.scalar(format!("vp_to_{}", SIDES[0]));
        NavalBattle { naval, schema }
    }

    fn record(&self, end: &End, out: &mut Trial) {
        let r = self.naval.result(end);
        out.outcome = r.winner;
        out.counts[0] = r.lost[0] as u32;
        out.counts[1] = r.lost[1] as u32;
        out.counts[2] = r.sunk[0] as u32;
        out.counts[3] = r.sunk[1] as u32;
        out.counts[4] = r.carried_lost as u32;
        out.counts[5] = end.hits[0] as u32;
        out.counts[6] = end.hits[1] as u32;
        out.scalars[0] = f64::from(u8::from(r.leader_killed[0]));
        out.scalars[1] = f64::from(u8::from(r.leader_killed[1]));
        out.scalars[2] = r.vp_to_attacker as f64;
    }
}

/// The exact answer from a battle's courses and their probabilities, each course recorded as a trial
/// that took it would be (courses of probability 0 are skipped).
pub fn weighted_records<C>(
    schema: &Schema,
    courses: impl IntoIterator<Item = (C, f64)>,
    record: impl Fn(&C, &mut Trial),
) -> Exact {
    let mut ex = Exact::zeros(schema);
    let mut t = Trial::default();
    for (course, p) in courses {
        if p > 0.0 {
            t.clear(schema.counts.len(), schema.scalars.len());
            record(&course, &mut t);
            accumulate(&mut ex, &t, p);
        }
    }
    ex
}

/// Adds one trial's record, weighted, to an exact answer.
pub fn accumulate(ex: &mut Exact, t: &Trial, p: f64) {
    ex.outcomes[t.outcome] += p;
    for (k, pmf) in ex.counts.iter_mut().enumerate() {
        pmf.add_mass(t.counts[k] as usize, p);
    }
    for (k, x) in ex.scalars.iter_mut().enumerate() {
        *x += p * t.scalars[k];
    }
}

impl Simulate for NavalBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let end = self.naval.simulate(dice);
        self.record(&end, out);
    }
}

impl BattleModel for NavalBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(weighted_records(
            &self.schema,
            self.naval.ends(),
            |end, t| self.record(end, t),
        ))
    }

    fn describe(&self) -> Vec<String> {
        let mut lines = vec![self.naval.describe_side(0), self.naval.describe_side(1)];
        lines.push(format!(
            "sea zone: {}",
            if self.naval.mediterranean {
                "Mediterranean / Pontus Euxinus"
            } else {
                "outside the Mediterranean and Pontus Euxinus"
            }
        ));
        lines
    }

    fn notes(&self) -> Vec<String> {
        self.naval.notes()
    }
}

#[cfg(test)]
#[path = "naval_tests.rs"]
mod tests;
