//! The advanced land battle (XXI, L1763-2099; digest §3.2): a 2D6 fire table, then up to two
//! combat rounds on the 11×7 combat table, with a voluntary retreat after the first.

use super::army::{Army, Status};
use super::basic::{
    ambush, crossing_penalty, exact_answer, fire_units, forest_penalty, fortified_bonus,
    record_trial, stack_bonuses,
};
use super::faces::two_d6;
use super::land::{
    self, advantages, AdvancedOption, Crossing, Finish, LandBattle, System, Terrain, ATTACKER,
    DEFENDER,
};
use super::tables::{combat_hits, fire_hits, HalfHit};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::FastMap;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str =
    "advanced land battle: 2D6 fire table, up to two rounds on the 11x7 combat table, voluntary retreat (XXI)";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
pub const KEYS: &[crate::battle::keys::Key] = land::KEYS;

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let battle = land::build(fields, options, System::Advanced)?;
    Ok(Box::new(Advanced::new(battle)))
}

/// Hits a 2D6 roll yields, by raw sum 2..=12 (index 0 and 1 unused); `None` = the side does not roll.
type Table = Option<[u32; 13]>;

/// Hits each side inflicted and the rerolls each has left.
type HitsAndRerolls = ([u32; 2], [u32; 2]);

fn expected(t: &[u32; 13]) -> f64 {
    (2..=12).map(|s| two_d6(s) * t[s as usize] as f64).sum()
}

/// The whole-2D6 reroll exchange (XXI.D; Q34): the Attacker first, each side rerolling its own
/// roll when its result is below expectation by more than τ or the enemy's when above.
struct Exchange {
    tables: [Table; 2],
    means: [f64; 2],
    threshold: Option<f64>,
}

impl Exchange {
    fn new(tables: [Table; 2], threshold: Option<f64>) -> Exchange {
        let means = [0, 1].map(|s| tables[s].as_ref().map_or(0.0, expected));
        Exchange {
            tables,
            means,
            threshold,
        }
    }

    /// Which roll `mover` rerolls: its own (= mover) or the enemy's.
    fn choose(&self, mover: usize, sums: [i32; 2]) -> Option<usize> {
        let tau = self.threshold?;
        let mut best: Option<(f64, usize)> = None;
        for side in [mover, 1 - mover] {
            let Some(t) = &self.tables[side] else {
                continue;
            };
            let v = t[sums[side] as usize] as f64;
            let gain = if side == mover {
                self.means[side] - v
            } else {
                v - self.means[side]
            };
            if gain > tau + 1e-12 && best.is_none_or(|b| gain > b.0 + 1e-12) {
                best = Some((gain, side));
            }
        }
        best.map(|b| b.1)
    }

    fn hits(&self, sums: [i32; 2]) -> [u32; 2] {
        [0, 1].map(|s| self.tables[s].as_ref().map_or(0, |t| t[sums[s] as usize]))
    }

    fn play(&self, rerolls: [u32; 2], dice: &mut Dice) -> ([u32; 2], [u32; 2]) {
        let roll = |dice: &mut Dice| (dice.d(6) + dice.d(6)) as i32;
        let mut sums = [0, 1].map(|s| {
            if self.tables[s].is_some() {
                roll(dice)
            } else {
                2
            }
        });
        let mut left = rerolls;
        let (mut mover, mut passes) = (0, 0);
        while passes < 2 {
            match (left[mover] > 0)
                .then(|| self.choose(mover, sums))
                .flatten()
            {
                Some(target) => {
                    left[mover] -= 1;
                    sums[target] = roll(dice);
                    passes = 0;
                }
                None => passes += 1,
            }
            mover = 1 - mover;
        }
        (self.hits(sums), left)
    }

    /// (hits inflicted, rerolls left) → probability.
    fn exact(&self, rerolls: [u32; 2]) -> Vec<(HitsAndRerolls, f64)> {
        type State = ([i32; 2], [u32; 2], usize, u8);
        let sums_of = |s: usize| -> Vec<(i32, f64)> {
            if self.tables[s].is_some() {
                (2..=12).map(|v| (v, two_d6(v))).collect()
            } else {
                vec![(2, 1.0)]
            }
        };
        let mut current: FastMap<State, f64> = FastMap::default();
        for (a, pa) in sums_of(0) {
            for (d, pd) in sums_of(1) {
                current.insert(([a, d], rerolls, 0, 0), pa * pd);
            }
        }
        let mut out: FastMap<([u32; 2], [u32; 2]), f64> = FastMap::default();
        while !current.is_empty() {
            let mut next: FastMap<State, f64> = FastMap::default();
            for ((sums, left, mover, passes), p) in current {
                if passes >= 2 {
                    *out.entry((self.hits(sums), left)).or_insert(0.0) += p;
                    continue;
                }
                match (left[mover] > 0)
                    .then(|| self.choose(mover, sums))
                    .flatten()
                {
                    Some(target) => {
                        let mut l = left;
                        l[mover] -= 1;
                        for v in 2..=12 {
                            let mut s = sums;
                            s[target] = v;
                            *next.entry((s, l, 1 - mover, 0)).or_insert(0.0) += p * two_d6(v);
                        }
                    }
                    None => {
                        *next
                            .entry((sums, left, 1 - mover, passes + 1))
                            .or_insert(0.0) += p;
                    }
                }
            }
            current = next;
        }
        let mut v: Vec<_> = out.into_iter().collect();
        v.sort_by_key(|a| a.0);
        v
    }
}

pub struct Advanced {
    pub battle: LandBattle,
    /// The voluntary-retreat decision for every state a battle can reach after round 1.
    retreats: FastMap<([Army; 2], [u32; 2]), Option<usize>>,
    /// Each reachable round's tables and rerolls, by (armies, rerolls left, round): the simulator
    /// looks them up instead of recomputing every modifier each trial.
    setups: FastMap<RoundKey, RoundSetup>,
}

type RoundKey = ([Army; 2], [u32; 2], u8);
type RoundSetup = ([Table; 2], [u32; 2]);

/// Fire-table modifier of one side, None when it cannot fire (XXI.C; Q48, Q49).
pub fn fire_modifier(
    b: &LandBattle,
    armies: &[Army; 2],
    side: usize,
    ambusher: bool,
) -> Option<i32> {
    let enemy_heavy = advantages(b, armies)[1 - side][1];
    fire_modifier_facing(b, &armies[side], side, ambusher, enemy_heavy)
}

/// The fire modifier of `army` when the enemy does (`heavy`) or does not hold the heavy advantage.
fn fire_modifier_facing(
    b: &LandBattle,
    army: &Army,
    side: usize,
    ambusher: bool,
    heavy: bool,
) -> Option<i32> {
    let (archers, franks, extra, horse_archers) = fire_units(b, side, army, ambusher);
    if archers + franks + extra == 0 {
        return None;
    }
    if heavy && b.rules.advanced_fire_lose_basic_die && !ambusher {
        let basic = archers.div_ceil(2) + franks.div_ceil(4);
        if basic <= 1 {
            return None;
        }
    }
    // Horse archers in open terrain give 1½ instead of 1 (already counted once in `archers`).
    let ha_open = if b.open() { horse_archers } else { 0 };
    let plain_archers = archers - ha_open;
    let halves_terms = [
        2 * plain_archers as i32,
        3 * ha_open as i32,
        franks as i32,
        extra as i32,
    ];
    let penalty = if heavy { 2 } else { 0 };
    Some(if b.rules.advanced_fire_per_term {
        halves_terms
            .iter()
            .map(|h| (h + 1).div_euclid(2))
            .sum::<i32>()
            - penalty
    } else {
        let total: i32 = halves_terms.iter().sum::<i32>() - 2 * penalty;
        (total + 1).div_euclid(2)
    })
}

/// Combat modifier of one side in round 1 or 2 (XXI.E).
pub fn combat_modifier(b: &LandBattle, armies: &[Army; 2], side: usize, round: u8) -> i32 {
    let s = &b.sides[side];
    let f = &b.field;
    let adv = advantages(b, armies);
    let mut m = stack_bonuses(b, armies, side, System::Advanced) as i32 + s.event_modifier;
    if adv[1 - side][1] {
        m -= 1;
    }
    let strait = crossing_penalty(b, armies, &[Crossing::Strait]);
    if side == ATTACKER {
        m -= (f.terrain == Terrain::Swamp) as i32;
        m -= strait as i32;
        if round == 1 {
            m -= crossing_penalty(b, armies, &[Crossing::River, Crossing::MountainRange]) as i32;
        }
        m -= forest_penalty(b, System::Advanced) as i32;
        m += (s.status == Status::Barbarian
            && f.barbarian_province
            && b.sides[DEFENDER].status.civilized()) as i32;
    } else {
        if fortified_bonus(b) {
            m += if s.status == Status::Empire { 2 } else { 1 };
        }
        m += strait as i32;
    }
    m
}

/// Column of the combat table: units, + the Limes and + 1 for hordes in defence (L1866-1867).
pub fn column(b: &LandBattle, armies: &[Army; 2], side: usize) -> u32 {
    let mut n = armies[side].units();
    if side == DEFENDER {
        n += (b.field.limes && n > 0) as u32 + b.sides[DEFENDER].horde as u32;
    }
    n
}

impl Advanced {
    pub fn new(battle: LandBattle) -> Advanced {
        let mut a = Advanced {
            battle,
            retreats: FastMap::default(),
            setups: FastMap::default(),
        };
        let mut setups = FastMap::default();
        for (f, _) in a.fire_exact() {
            if !LandBattle::wiped(&f) {
                setups
                    .entry((f.armies, f.rerolls_left, 1))
                    .or_insert_with(|| a.round_setup(&f, 1));
            }
        }
        let mut decisions = FastMap::default();
        for (f, _) in a.after_round_one() {
            if LandBattle::wiped(&f) {
                continue;
            }
            let key = (f.armies, f.rerolls_left);
            if let std::collections::hash_map::Entry::Vacant(e) = decisions.entry(key) {
                e.insert(a.decide_retreat(&f));
                setups.insert((f.armies, f.rerolls_left, 2), a.round_setup(&f, 2));
            }
        }
        a.retreats = decisions;
        a.setups = setups;
        a
    }

    /// The round's tables and rerolls, looked up when the state was foreseen.
    fn setup(&self, f: &Finish, round: u8) -> RoundSetup {
        match self.setups.get(&(f.armies, f.rerolls_left, round)) {
            Some(s) => *s,
            None => self.round_setup(f, round),
        }
    }

    fn half(&self) -> HalfHit {
        HalfHit::for_terrain(self.battle.open())
    }

    fn fire_table(&self, armies: &[Army; 2], side: usize, ambusher: bool) -> Table {
        self.table_of(fire_modifier(&self.battle, armies, side, ambusher)?)
    }

    /// Hits of the fire table by raw 2D6 sum for modifier `m`.
    fn table_of(&self, m: i32) -> Table {
        let open = self.battle.open();
        let mut t = [0; 13];
        for s in 2..=12 {
            t[s as usize] = fire_hits(s + m, open);
        }
        Some(t)
    }

    /// The battles after the fire round (or ambush).
    fn fire_exact(&self) -> Vec<(Finish, f64)> {
        let b = &self.battle;
        let start = self.battle.opening();
        let mut out: FastMap<Finish, f64> = FastMap::default();
        let amb = ambush(b);
        let p_ambush = amb.map_or(0.0, |a| a.1);
        if let Some((ambusher, p)) = amb {
            let victim = 1 - ambusher;
            let mut tables = [None, None];
            tables[ambusher] = self.fire_table(&start.armies, ambusher, true);
            let ex = Exchange::new(tables, b.policy.reroll_threshold);
            for ((hits, left), q) in ex.exact(self.battle.fire_rerolls(&start)) {
                let mut f = start;
                LandBattle::spend(&mut f, self.battle.fire_rerolls(&start), left);
                self.battle.take_volley(&mut f, victim, hits[ambusher]);
                let mut back = [None, None];
                let adv_armies = if b.rules.ambush_recompute_advantages {
                    f.armies
                } else {
                    start.armies
                };
                back[victim] = self.return_fire_table(&f.armies, &adv_armies, victim);
                let ex2 = Exchange::new(back, b.policy.reroll_threshold);
                for ((h2, l2), q2) in ex2.exact(self.battle.fire_rerolls(&f)) {
                    let mut g = f;
                    LandBattle::spend(&mut g, self.battle.fire_rerolls(&f), l2);
                    self.battle.take_volley(&mut g, ambusher, h2[victim]);
                    *out.entry(g).or_insert(0.0) += p * q * q2;
                }
            }
        }
        if p_ambush < 1.0 {
            let tables = [0, 1].map(|s| self.fire_table(&start.armies, s, false));
            let ex = Exchange::new(tables, b.policy.reroll_threshold);
            for ((hits, left), q) in ex.exact(self.battle.fire_rerolls(&start)) {
                let mut f = start;
                LandBattle::spend(&mut f, self.battle.fire_rerolls(&start), left);
                self.battle.take_volley(&mut f, DEFENDER, hits[ATTACKER]);
                self.battle.take_volley(&mut f, ATTACKER, hits[DEFENDER]);
                *out.entry(f).or_insert(0.0) += (1.0 - p_ambush) * q;
            }
        }
        out.into_iter().collect()
    }

    /// The ambushed side's return fire: its survivors, facing the heavy advantage `adv_armies` give.
    fn return_fire_table(
        &self,
        survivors: &[Army; 2],
        adv_armies: &[Army; 2],
        side: usize,
    ) -> Table {
        let enemy_heavy = advantages(&self.battle, adv_armies)[1 - side][1];
        self.table_of(fire_modifier_facing(
            &self.battle,
            &survivors[side],
            side,
            false,
            enemy_heavy,
        )?)
    }

    /// Modifiers after the leaders' ±2 options (XXI.D; Q35), and the rerolls left.
    fn round_setup(&self, f: &Finish, round: u8) -> ([Table; 2], [u32; 2]) {
        let b = &self.battle;
        let mut m = [0, 1].map(|s| combat_modifier(b, &f.armies, s, round));
        let cols = [0, 1].map(|s| column(b, &f.armies, s));
        let half = self.half();
        let mut rerolls = f.rerolls_left;
        let mean = |m: i32, col: u32| -> f64 {
            (2..=12)
                .map(|s| two_d6(s) * combat_hits(s + m, col, half) as f64)
                .sum()
        };
        for s in [ATTACKER, DEFENDER] {
            if b.policy.advanced_option == AdvancedOption::Never
                || b.sides[s].best_bonus() < 2
                || rerolls[s] == 0
            {
                continue;
            }
            let own_gain = mean(m[s] + 2, cols[s]) - mean(m[s], cols[s]);
            let enemy_loss = mean(m[1 - s], cols[1 - s]) - mean(m[1 - s] - 2, cols[1 - s]);
            let own = match b.policy.advanced_option {
                AdvancedOption::OwnPlusTwo => true,
                AdvancedOption::EnemyMinusTwo => false,
                _ => own_gain >= enemy_loss,
            };
            rerolls[s] -= 1;
            if own {
                m[s] += 2;
            } else {
                m[1 - s] -= 2;
            }
        }
        let tables = [0, 1].map(|s| {
            let mut t = [0; 13];
            for v in 2..=12 {
                t[v as usize] = combat_hits(v + m[s], cols[s], half);
            }
            Some(t)
        });
        (tables, rerolls)
    }

    fn apply_round(
        &self,
        f: &Finish,
        round: u8,
        hits: [u32; 2],
        left: [u32; 2],
        last: bool,
    ) -> Finish {
        let mut g = *f;
        g.rounds = round;
        g.rerolls_left = left;
        if last {
            self.battle.take_final(&mut g, hits);
        } else {
            self.battle.take_volley(&mut g, DEFENDER, hits[ATTACKER]);
            self.battle.take_volley(&mut g, ATTACKER, hits[DEFENDER]);
        }
        g
    }

    fn round_exact(&self, f: &Finish, round: u8, last: bool) -> Vec<(Finish, f64)> {
        let (tables, rerolls) = self.setup(f, round);
        let ex = Exchange::new(tables, self.battle.policy.reroll_threshold);
        ex.exact(rerolls)
            .into_iter()
            .map(|((hits, left), q)| (self.apply_round(f, round, hits, left, last), q))
            .collect()
    }

    fn after_round_one(&self) -> Vec<(Finish, f64)> {
        let mut out: FastMap<Finish, f64> = FastMap::default();
        for (f, p) in self.fire_exact() {
            if LandBattle::wiped(&f) {
                *out.entry(f).or_insert(0.0) += p;
                continue;
            }
            for (g, q) in self.round_exact(&f, 1, false) {
                *out.entry(g).or_insert(0.0) += p * q;
            }
        }
        out.into_iter().collect()
    }

    /// P(`side` wins) if both fight round 2 from `f`.
    fn win_if_continue(&self, f: &Finish, side: usize) -> f64 {
        self.round_exact(f, 2, true)
            .iter()
            .filter(|(g, _)| self.battle.winner(g) == side)
            .map(|(_, q)| q)
            .sum()
    }

    /// Voluntary retreat after round 1 (§8.5): the Defender first, then the Attacker, each when
    /// its exact chance of winning round 2 is below θ, or when it is outnumbered two to one and
    /// more likely to lose than win (§8.5's size test alone would flee certain victories: elites).
    fn decide_retreat(&self, f: &Finish) -> Option<usize> {
        let theta = self.battle.policy.retreat_threshold;
        let units = [0, 1].map(|s| f.armies[s].units());
        for s in [DEFENDER, ATTACKER] {
            let win = self.win_if_continue(f, s);
            if win < theta || (2 * units[s] <= units[1 - s] && win < 0.5) {
                return Some(s);
            }
        }
        None
    }

    fn retreat_of(&self, f: &Finish) -> Option<usize> {
        match self.retreats.get(&(f.armies, f.rerolls_left)) {
            Some(d) => *d,
            None => self.decide_retreat(f),
        }
    }

    pub fn finishes(&self) -> Vec<(Finish, f64)> {
        let mut done: FastMap<Finish, f64> = FastMap::default();
        for (f, p) in self.after_round_one() {
            if LandBattle::wiped(&f) {
                *done.entry(f).or_insert(0.0) += p;
                continue;
            }
            if let Some(r) = self.retreat_of(&f) {
                let mut g = f;
                g.voluntary_retreat = Some(r);
                *done.entry(g).or_insert(0.0) += p;
                continue;
            }
            for (g, q) in self.round_exact(&f, 2, true) {
                *done.entry(g).or_insert(0.0) += p * q;
            }
        }
        let mut v: Vec<(Finish, f64)> = done.into_iter().collect();
        v.sort_by_key(|a| a.0);
        v
    }

    fn play_round(&self, f: &Finish, round: u8, last: bool, dice: &mut Dice) -> Finish {
        let (tables, rerolls) = self.setup(f, round);
        let ex = Exchange::new(tables, self.battle.policy.reroll_threshold);
        let (hits, left) = ex.play(rerolls, dice);
        self.apply_round(f, round, hits, left, last)
    }
}

impl Simulate for Advanced {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let f = self.play(dice);
        record_trial(&self.battle, &f, dice, out);
    }
}

impl Advanced {
    /// One battle rolled from `dice`, up to the dice stopping (the full game's sampler; the
    /// calculator's trial settles and records the same finish).
    pub fn play(&self, dice: &mut Dice) -> Finish {
        let b = &self.battle;
        let tau = b.policy.reroll_threshold;
        let mut f = self.battle.opening();
        let amb = ambush(b).filter(|&(_, p)| p >= 1.0 || dice.chance(p));
        if let Some((ambusher, _)) = amb {
            let victim = 1 - ambusher;
            let start = f.armies;
            let mut tables = [None, None];
            tables[ambusher] = self.fire_table(&f.armies, ambusher, true);
            let offered = self.battle.fire_rerolls(&f);
            let (hits, left) = Exchange::new(tables, tau).play(offered, dice);
            LandBattle::spend(&mut f, offered, left);
            self.battle.take_volley(&mut f, victim, hits[ambusher]);
            let adv_armies = if b.rules.ambush_recompute_advantages {
                f.armies
            } else {
                start
            };
            let mut back = [None, None];
            back[victim] = self.return_fire_table(&f.armies, &adv_armies, victim);
            let offered = self.battle.fire_rerolls(&f);
            let (hits, left) = Exchange::new(back, tau).play(offered, dice);
            LandBattle::spend(&mut f, offered, left);
            self.battle.take_volley(&mut f, ambusher, hits[victim]);
        } else {
            let tables = [0, 1].map(|s| self.fire_table(&f.armies, s, false));
            let offered = self.battle.fire_rerolls(&f);
            let (hits, left) = Exchange::new(tables, tau).play(offered, dice);
            LandBattle::spend(&mut f, offered, left);
            self.battle.take_volley(&mut f, DEFENDER, hits[ATTACKER]);
            self.battle.take_volley(&mut f, ATTACKER, hits[DEFENDER]);
        }
        if !LandBattle::wiped(&f) {
            f = self.play_round(&f, 1, false, dice);
            if !LandBattle::wiped(&f) {
                match self.retreat_of(&f) {
                    Some(r) => f.voluntary_retreat = Some(r),
                    None => f = self.play_round(&f, 2, true, dice),
                }
            }
        }
        f
    }
}

impl BattleModel for Advanced {
    fn schema(&self) -> &Schema {
        self.battle.schema()
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(exact_answer(&self.battle, &self.finishes()))
    }

    fn describe(&self) -> Vec<String> {
        self.battle.describe()
    }

    fn notes(&self) -> Vec<String> {
        let b = &self.battle;
        let mut notes = b.common_notes();
        let start = [b.sides[0].fighting, b.sides[1].fighting];
        let fire = [0, 1].map(|s| {
            fire_modifier(b, &start, s, false)
                .map_or("no fire".to_string(), |m| format!("2D6{m:+}"))
        });
        notes.push(format!(
            "opening modifiers: fire {} vs {}; round 1 combat 2D6{:+} on column {} vs 2D6{:+} on column {} (before leader options)",
            fire[0],
            fire[1],
            combat_modifier(b, &start, ATTACKER, 1),
            column(b, &start, ATTACKER).min(7),
            combat_modifier(b, &start, DEFENDER, 1),
            column(b, &start, DEFENDER).min(7),
        ));
        notes
    }
}
