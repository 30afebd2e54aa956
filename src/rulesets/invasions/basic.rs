//! The basic land battle (XX, L1273-1759; digest §3.1): a fire round of archers and Franks (or a
//! mountain ambush), then one combat round of white and black battle dice with leaders' rerolls.

use super::army::{self, Army, Status};
use super::land::{
    self, advantages, AmbushSetting, Crossing, Finish, LandBattle, LeaderOption, System, Terrain,
    Weighted, ATTACKER, DEFENDER,
};
use super::outcome::MinCache;
use super::rerolls::{self, Judge, Pool};
use super::take_city::CityPlan;
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::exact::FastMap;
use crate::options::Options;
use crate::spec::Fields;
use std::collections::hash_map::Entry;

/// The exact result of one reroll exchange.
type Exchange = Vec<(rerolls::Rolled, f64)>;

pub const SUMMARY: &str =
    "basic land battle: fire round (or mountain ambush), one combat round of white/black battle dice, rerolls (XX)";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
pub const KEYS: &[crate::battle::keys::Key] = land::KEYS;

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(Basic(land::build(
        fields,
        options,
        System::Basic,
    )?)))
}

pub struct Basic(pub LandBattle);

/// Who may ambush in a mountain province, and the chance it happens (XX.D, L1350-1358; Q5).
pub fn ambush(b: &LandBattle) -> Option<(usize, f64)> {
    let f = &b.field;
    if f.terrain != Terrain::Mountain || f.ambush == AmbushSetting::Never || !b.policy.ambush {
        return None;
    }
    let ambusher = if b.rules.ambusher_is_defender || !f.interception {
        DEFENDER
    } else {
        ATTACKER
    };
    if b.sides[1 - ambusher].leader_mountains {
        return None;
    }
    let automatic = f.ambush == AmbushSetting::Always
        || matches!(f.crossing, Crossing::River | Crossing::MountainRange);
    Some((ambusher, if automatic { 1.0 } else { 0.5 }))
}

/// Units that fire: (archers, Frankish units, other units firing in an ambush, horse archers),
/// alpine units counted twice by an ambusher (XX.D; Q33).
pub fn fire_units(
    b: &LandBattle,
    side: usize,
    army: &Army,
    ambusher: bool,
) -> (u32, u32, u32, u32) {
    let (mut archers, mut franks, mut extra, mut horse_archers) = (0, 0, 0, 0);
    for (_, c, damaged, n) in army::counters(b.sides[side].classes(), army) {
        let weight = if ambusher && c.alpine { 2 } else { 1 };
        if c.archer(damaged) {
            archers += n * weight;
            if c.horse_archer(damaged) {
                horse_archers += n;
            }
        } else if c.template.frankish {
            franks += n * weight;
        } else if ambusher && (b.rules.ambush_all_other_units || !c.cavalry(damaged)) {
            extra += n * weight;
        }
    }
    (archers, franks, extra, horse_archers)
}

/// The fire-round pool of one side (XX.D, L1335-1348; Q6, Q41).
pub fn fire_pool(b: &LandBattle, armies: &[Army; 2], side: usize, ambusher: bool) -> Pool {
    let enemy_heavy = advantages(b, armies)[1 - side][1];
    fire_pool_facing(b, &armies[side], side, ambusher, enemy_heavy)
}

/// The fire pool of `army` when the enemy does or does not hold the heavy advantage.
fn fire_pool_facing(
    b: &LandBattle,
    army: &Army,
    side: usize,
    ambusher: bool,
    enemy_heavy: bool,
) -> Pool {
    let (archers, franks, extra, horse_archers) = fire_units(b, side, army, ambusher);
    let mut dice = if b.rules.fire_pooled_rounding {
        (2 * archers + franks + extra).div_ceil(4)
    } else {
        archers.div_ceil(2) + franks.div_ceil(4) + extra.div_ceil(4)
    };
    if enemy_heavy {
        dice = dice.saturating_sub(1);
    }
    if b.rules.fire_minimum_one_die && archers + franks + extra > 0 {
        dice = dice.max(1);
    }
    let black = if b.open() {
        dice.min(horse_archers.div_ceil(2))
    } else {
        0
    };
    Pool {
        white: dice - black,
        black,
    }
}

/// Whether the side's own units meet a stack condition: one unit (‡) or every unit (†).
fn qualifies(b: &LandBattle, side: usize, army: &Army, system: System) -> bool {
    let s = &b.sides[side];
    if system == System::Basic && b.rules.mixed_all_units_in_basic {
        s.all_national(army) && army.units() > 0
    } else {
        s.has_national(army)
    }
}

/// The attacker's crossing penalty applies (XX.F; not after an interception). Amphibious units
/// are not subject to a river; under the default reading one of them spares the whole attack,
/// since a penalty of the mixed-situation kind needs every attacking unit to meet its condition.
pub fn crossing_penalty(b: &LandBattle, armies: &[Army; 2], crossings: &[Crossing]) -> bool {
    let f = &b.field;
    if f.interception || !f.all_crossed || !crossings.contains(&f.crossing) {
        return false;
    }
    if f.crossing == Crossing::River {
        let present = |k: usize| armies[ATTACKER].intact[k] + armies[ATTACKER].damaged[k] > 0;
        let mut attackers = b.sides[ATTACKER].classes().iter().enumerate();
        return if b.rules.river_needs_all_amphibious {
            !attackers.all(|(k, c)| c.amphibious || !present(k))
        } else {
            !attackers.any(|(k, c)| c.amphibious && present(k))
        };
    }
    true
}

/// The forest penalty's condition (Q1).
pub fn forest_penalty(b: &LandBattle, system: System) -> bool {
    let d = &b.sides[DEFENDER];
    if b.field.terrain != Terrain::Forest {
        return false;
    }
    if system == System::Advanced && b.rules.forest_literal {
        !(d.status == Status::Barbarian && d.nomad)
    } else {
        d.status == Status::Barbarian && !d.nomad
    }
}

/// The fortified city's bonus for the defender (Q9).
pub fn fortified_bonus(b: &LandBattle) -> bool {
    b.field.fortified_city
        && (b.rules.fortified_any_defender || b.sides[DEFENDER].status.civilized())
}

/// Shared stack bonuses: the exchange / +1 sources of both systems (XX.G, XXI.E).
pub fn stack_bonuses(b: &LandBattle, armies: &[Army; 2], side: usize, system: System) -> u32 {
    let s = &b.sides[side];
    let o = &b.sides[1 - side];
    let army = &armies[side];
    let adv = advantages(b, armies);
    let elites = army::elites(s.classes(), army);
    let mut n = 0;
    if elites >= b.rules.elite_exchange_minimum {
        n += if s.rome && elites >= 4 { 2 } else { 1 };
    }
    if adv[side][0] {
        n += 1;
    }
    let qualified = qualifies(b, side, army, system);
    if s.status == Status::Empire
        && o.status == Status::Barbarian
        && qualified
        && o.has_national(&armies[1 - side])
    {
        n += 1;
    }
    if s.nomad && b.field.terrain == Terrain::Steppe && qualified {
        n += 1;
    }
    n
}

/// Both combat-round pools (XX.F, XX.G), before any leader option.
pub fn combat_pools(b: &LandBattle, armies: &[Army; 2]) -> [Pool; 2] {
    let adv = advantages(b, armies);
    let f = &b.field;
    [ATTACKER, DEFENDER].map(|s| {
        let side = &b.sides[s];
        let mut dice = armies[s].units() as i32 + side.event_dice;
        let mut exchanges = stack_bonuses(b, armies, s, System::Basic) as i32;
        if s == ATTACKER {
            dice -= (f.terrain == Terrain::Swamp) as i32;
            dice -= crossing_penalty(
                b,
                armies,
                &[Crossing::River, Crossing::MountainRange, Crossing::Strait],
            ) as i32;
            dice -= forest_penalty(b, System::Basic) as i32;
            dice += (side.status == Status::Barbarian
                && f.barbarian_province
                && b.sides[DEFENDER].status.civilized()) as i32;
        } else {
            if fortified_bonus(b) {
                dice += 1;
                exchanges += (side.status == Status::Empire) as i32;
            }
            dice += (f.limes && armies[s].units() > 0) as i32;
            dice += side.horde as i32;
        }
        let white = dice.max(1) as u32;
        let mut black = (exchanges as u32).min(white);
        if adv[1 - s][1] && black > 0 {
            black -= 1;
        }
        let black = (black as i32 + side.event_exchanges).clamp(0, white as i32) as u32;
        Pool {
            white: white - black,
            black,
        }
    })
}

/// The leaders' option (XX.E): trade a reroll for a black die, Attacker first.
pub fn leader_options(b: &LandBattle, pools: &mut [Pool; 2], rerolls: &mut [u32; 2]) {
    if b.policy.leader_option == LeaderOption::Never {
        return;
    }
    for s in [ATTACKER, DEFENDER] {
        if b.sides[s].best_bonus() >= 2 && rerolls[s] >= 1 {
            rerolls[s] -= 1;
            if pools[1 - s].black > 0 {
                pools[1 - s].black -= 1;
            } else {
                pools[s].black += 1;
            }
        }
    }
}

impl Basic {
    fn judge(&self) -> Judge {
        Judge::new(self.0.open(), self.0.policy.reroll_threshold)
    }

    /// The opening state (the basic battle has one combat round).
    fn opening(&self) -> Finish {
        Finish {
            rounds: 1,
            ..self.0.opening()
        }
    }

    fn finish_combat(&self, f: &Finish, rolled: &rerolls::Rolled) -> Finish {
        let mut g = *f;
        g.rerolls_left = rolled.rerolls_left;
        self.0.take_final(&mut g, rolled.hits);
        g
    }

    /// [`Basic::finish_combat`] with the allocations kept in `mins` (the exact solver's).
    fn finish_combat_cached(
        &self,
        f: &Finish,
        rolled: &rerolls::Rolled,
        mins: &mut MinCache,
    ) -> Finish {
        let mut g = *f;
        g.rerolls_left = rolled.rerolls_left;
        self.0.take_final_cached(&mut g, rolled.hits, mins);
        g
    }

    fn combat_setup(&self, f: &Finish) -> ([Pool; 2], [u32; 2]) {
        let mut pools = combat_pools(&self.0, &f.armies);
        let mut rerolls = f.rerolls_left;
        leader_options(&self.0, &mut pools, &mut rerolls);
        (pools, rerolls)
    }

    /// The distribution of battles after the fire round (or ambush).
    fn exact_fire(
        &self,
        budget: &mut u64,
    ) -> std::result::Result<FastMap<Finish, f64>, Intractable> {
        let b = &self.0;
        let judge = self.judge();
        let start = self.opening();
        let mut out: FastMap<Finish, f64> = FastMap::default();
        let mut add = |f: Finish, p: f64| *out.entry(f).or_insert(0.0) += p;
        let amb = ambush(b);
        let p_ambush = amb.map_or(0.0, |a| a.1);
        if let Some((ambusher, p)) = amb {
            let victim = 1 - ambusher;
            let mut pools = [Pool::default(); 2];
            pools[ambusher] = fire_pool(b, &start.armies, ambusher, true);
            let used = self.0.fire_rerolls(&start);
            for (rolled, q) in rerolls::exact(pools, used, &judge, budget)? {
                let mut f = start;
                LandBattle::spend(&mut f, used, rolled.rerolls_left);
                b.take_volley(&mut f, victim, rolled.hits[ambusher]);
                let armies = if b.rules.ambush_recompute_advantages {
                    f.armies
                } else {
                    start.armies
                };
                // The return fire uses the survivors; the advantages of `armies`.
                let mut back = [Pool::default(); 2];
                back[victim] = return_fire_pool(b, &f.armies, &armies, victim);
                let used2 = self.0.fire_rerolls(&f);
                for (r2, q2) in rerolls::exact(back, used2, &judge, budget)? {
                    let mut g = f;
                    LandBattle::spend(&mut g, used2, r2.rerolls_left);
                    b.take_volley(&mut g, ambusher, r2.hits[victim]);
                    add(g, p * q * q2);
                }
            }
        }
        if p_ambush < 1.0 {
            let pools = [0, 1].map(|s| fire_pool(b, &start.armies, s, false));
            let used = self.0.fire_rerolls(&start);
            for (rolled, q) in rerolls::exact(pools, used, &judge, budget)? {
                let mut f = start;
                LandBattle::spend(&mut f, used, rolled.rerolls_left);
                b.take_volley(&mut f, DEFENDER, rolled.hits[ATTACKER]);
                b.take_volley(&mut f, ATTACKER, rolled.hits[DEFENDER]);
                add(f, (1.0 - p_ambush) * q);
            }
        }
        Ok(out)
    }

    pub fn finishes(&self) -> std::result::Result<Vec<(Finish, f64)>, Intractable> {
        let mut v: Vec<(Finish, f64)> = self.finish_map(|_| true)?.into_iter().collect();
        v.sort_by_key(|a| a.0);
        Ok(v)
    }

    /// P(the battle ends in a finish `keep` accepts), summed in [`Basic::finishes`]' order, so
    /// bit for bit the sum over its list, without keeping or sorting the finishes left out.
    pub fn probability_where(
        &self,
        keep: impl Fn(&Finish) -> bool,
    ) -> std::result::Result<f64, Intractable> {
        let mut v: Vec<(Finish, f64)> = self.finish_map(keep)?.into_iter().collect();
        v.sort_by_key(|a| a.0);
        Ok(v.iter().map(|(_, p)| p).sum())
    }

    /// Every finish `keep` accepts with its probability, in no order. (Each finish's sum is
    /// the same whatever `keep` leaves out: its terms come in the same order.)
    fn finish_map(
        &self,
        keep: impl Fn(&Finish) -> bool,
    ) -> std::result::Result<FastMap<Finish, f64>, Intractable> {
        let judge = self.judge();
        let mut budget = rerolls::EXACT_BUDGET;
        let fire = self.exact_fire(&mut budget)?;
        // Sized up front so that they seldom grow: a combat round leaves a few dozen finishes
        // from each state after the fire round. (`fire`'s own order fixes the order of the sums
        // below, and so is left as it is; `done`'s order does not matter, its readers sort it.)
        let mut done: FastMap<Finish, f64> =
            FastMap::with_capacity_and_hasher((32 * fire.len()).min(4096), Default::default());
        let mut exchanges: FastMap<([Pool; 2], [u32; 2]), Exchange> =
            FastMap::with_capacity_and_hasher(fire.len(), Default::default());
        let mut mins = MinCache::default();
        for (f, p) in fire {
            if LandBattle::wiped(&f) {
                if keep(&f) {
                    *done.entry(f).or_insert(0.0) += p;
                }
                continue;
            }
            // Many states after the fire round roll the same pools: solve each exchange once.
            let key = self.combat_setup(&f);
            let rolls = match exchanges.entry(key) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => e.insert(rerolls::exact(key.0, key.1, &judge, &mut budget)?),
            };
            for (rolled, q) in rolls.iter() {
                let g = self.finish_combat_cached(&f, rolled, &mut mins);
                if keep(&g) {
                    *done.entry(g).or_insert(0.0) += p * q;
                }
            }
        }
        Ok(done)
    }
}

/// The ambushed side's return fire: its surviving units, advantages as `adv_armies` say.
fn return_fire_pool(
    b: &LandBattle,
    survivors: &[Army; 2],
    adv_armies: &[Army; 2],
    side: usize,
) -> Pool {
    let enemy_heavy = advantages(b, adv_armies)[1 - side][1];
    fire_pool_facing(b, &survivors[side], side, false, enemy_heavy)
}

impl Simulate for Basic {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let f = self.play(dice);
        record_trial(&self.0, &f, dice, out);
    }
}

impl Basic {
    /// One battle rolled from `dice`, up to the dice stopping (the full game's sampler; the
    /// calculator's trial settles and records the same finish).
    pub fn play(&self, dice: &mut Dice) -> Finish {
        let b = &self.0;
        let judge = self.judge();
        let mut f = self.opening();
        let amb = ambush(b).filter(|&(_, p)| p >= 1.0 || dice.chance(p));
        if let Some((ambusher, _)) = amb {
            let victim = 1 - ambusher;
            let start = f.armies;
            let mut pools = [Pool::default(); 2];
            pools[ambusher] = fire_pool(b, &f.armies, ambusher, true);
            let used = self.0.fire_rerolls(&f);
            let rolled = rerolls::play(pools, used, &judge, dice);
            LandBattle::spend(&mut f, used, rolled.rerolls_left);
            b.take_volley(&mut f, victim, rolled.hits[ambusher]);
            let armies = if b.rules.ambush_recompute_advantages {
                f.armies
            } else {
                start
            };
            let mut back = [Pool::default(); 2];
            back[victim] = return_fire_pool(b, &f.armies, &armies, victim);
            let used = self.0.fire_rerolls(&f);
            let rolled = rerolls::play(back, used, &judge, dice);
            LandBattle::spend(&mut f, used, rolled.rerolls_left);
            b.take_volley(&mut f, ambusher, rolled.hits[victim]);
        } else {
            let pools = [0, 1].map(|s| fire_pool(b, &f.armies, s, false));
            let used = self.0.fire_rerolls(&f);
            let rolled = rerolls::play(pools, used, &judge, dice);
            LandBattle::spend(&mut f, used, rolled.rerolls_left);
            b.take_volley(&mut f, DEFENDER, rolled.hits[ATTACKER]);
            b.take_volley(&mut f, ATTACKER, rolled.hits[DEFENDER]);
        }
        if !LandBattle::wiped(&f) {
            let (pools, rerolls) = self.combat_setup(&f);
            let rolled = rerolls::play(pools, rerolls, &judge, dice);
            f = self.finish_combat(&f, &rolled);
        }
        f
    }
}

/// Settles a simulated battle, drawing the leaders' fates.
pub fn record_trial(b: &LandBattle, f: &Finish, dice: &mut Dice, out: &mut Trial) {
    let st = b.settle(f);
    let killed = [0, 1].map(|s| {
        let p = st.leader_death[s];
        (p > 0.0 && dice.chance(p)) as u8 as f64
    });
    let taken = match &b.city {
        Some(city) if st.winner == ATTACKER => {
            let (units, elites) = CityPlan::besiegers(
                &b.sides[ATTACKER],
                &st.survivors[ATTACKER],
                st.survivor_count[ATTACKER],
            );
            city.play(units, elites, killed[ATTACKER] == 0.0, dice) as u8 as f64
        }
        _ => 0.0,
    };
    out.clear(b.schema().counts.len(), b.schema().scalars.len());
    b.record(f, &st, killed, taken, out);
}

/// Settles every finished battle into the exact answer.
pub fn exact_answer(b: &LandBattle, finishes: &[(Finish, f64)]) -> Exact {
    let mut ex = Exact::zeros(b.schema());
    for (f, p) in finishes {
        let st = b.settle(f);
        let killed = st.leader_death;
        let taken = match &b.city {
            Some(city) if st.winner == ATTACKER => {
                let (units, elites) = CityPlan::besiegers(
                    &b.sides[ATTACKER],
                    &st.survivors[ATTACKER],
                    st.survivor_count[ATTACKER],
                );
                city.p_taken(units, elites, 1.0 - killed[ATTACKER])
            }
            _ => 0.0,
        };
        b.record(
            f,
            &st,
            killed,
            taken,
            &mut Weighted {
                exact: &mut ex,
                p: *p,
            },
        );
    }
    ex
}

impl BattleModel for Basic {
    fn schema(&self) -> &Schema {
        self.0.schema()
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(exact_answer(&self.0, &self.finishes()?))
    }

    fn describe(&self) -> Vec<String> {
        self.0.describe()
    }

    fn notes(&self) -> Vec<String> {
        let b = &self.0;
        let mut notes = b.common_notes();
        let start = [b.sides[0].fighting, b.sides[1].fighting];
        let fire = [0, 1].map(|s| fire_pool(b, &start, s, false));
        let combat = combat_pools(b, &start);
        notes.push(format!(
            "opening pools: fire {}W+{}B vs {}W+{}B; combat (if nobody falls to fire) {}W+{}B vs {}W+{}B before leader options",
            fire[0].white, fire[0].black, fire[1].white, fire[1].black,
            combat[0].white, combat[0].black, combat[1].white, combat[1].black
        ));
        if let Some((s, p)) = ambush(b) {
            notes.push(format!(
                "mountain ambush by the {} ({})",
                super::SIDES[s],
                if p >= 1.0 {
                    "automatic"
                } else {
                    "on a passed D2"
                }
            ));
        }
        notes
    }
}
