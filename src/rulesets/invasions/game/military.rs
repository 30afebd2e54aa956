//! The Military phase at the Area level (digest §2 step 3, §4.12, §6.3): nations activate in order;
//! a stack attacks one province of its Area or an adjacent one (twice for an invading Barbarian,
//! stacking +1), the battle through the calculator's code, then the siege (XXIV) where a city
//! stands, sack and walls; Barbarians may raid instead (XI) and migrate with their horde; raider
//! nations raid in step 1.C.b.

use super::battles::{Border, Fighter, Ground};
use super::policy::{Directive, Policy};
use super::politics::Bond;
use super::procedures::{self, RaidMarker, RaidOutcome};
use super::scenario::{AreaKind, Crossing};
use super::state::{cheapest_first, total, Phase, Units, NONE, NO_PROVINCE, NT, VP_RAIDS};
use super::turn::Play;
use super::EntryRule;
use crate::dice::{draw_without_replacement, Dice};
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::pillage_markers::pillage_markers;
use crate::rulesets::invasions::siege::{self, Capital, Situation, Walls};

/// A province worth attacking and what the battle code says of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target {
    pub province: usize,
    pub from: usize,
    pub attackers: Units,
    pub p_win: f64,
    /// Landed from the sea (`naval.rs`): no border crossed into the province.
    pub by_sea: bool,
}

fn walls_of(modifier: i8) -> Walls {
    match modifier {
        0 => Walls::None,
        -1 => Walls::Roma,
        -3 => Walls::Ctesiphon,
        m if m <= -4 => Walls::Theodosian,
        _ => Walls::Standard,
    }
}

/// The `count` most valuable units of `u` (the stack a nation sends or stands with).
#[inline]
pub(super) fn strongest(u: &Units, count: u32) -> Units {
    // Most stacks fit whole: that test is inlined where it is asked, the pick is not.
    if total(u) <= count {
        return *u;
    }
    strongest_of_more(u, count)
}

/// [`strongest`] of a stack larger than `count`.
#[inline(never)]
fn strongest_of_more(u: &Units, count: u32) -> Units {
    let mut out = [0u8; NT];
    let mut left = count;
    for &k in cheapest_first().iter().rev() {
        if left == 0 {
            break;
        }
        let take = (u[k] as u32).min(left);
        out[k] = take as u8;
        left -= take;
    }
    out
}

/// The shortlist's cheap stand-in for P(attacker wins): strengths compared, the defence counting
/// a quarter more and its horde one more.
pub(super) fn shortlist_p_win(attack: f64, defence: f64, horde: bool) -> f64 {
    let d = defence * 1.25 + horde as u32 as f64;
    attack / (attack + d)
}

/// A province's worth ([`Play::worth`]): its worth before the city, plus the city's level.
#[inline]
fn worth_with_city(before_city: f64, level: u8) -> f64 {
    before_city + level as f64
}

/// A stack's worth in the battle code's unit values: the shortlist's strength measure.
pub(super) fn strength(u: &Units) -> f64 {
    static WEIGHTS: std::sync::OnceLock<[f64; NT]> = std::sync::OnceLock::new();
    let weights = WEIGHTS.get_or_init(|| {
        std::array::from_fn(|k| {
            crate::rulesets::invasions::army::TEMPLATES[k]
                .value
                .max(1.0)
        })
    });
    // The types present only, in type order: a stack has few, and an absent type's term (+0)
    // leaves a sum of positive terms unchanged, so the sum is the full one bit for bit.
    let mut left = (0..NT).fold(0u32, |bits, k| bits | ((u[k] != 0) as u32) << k);
    let mut sum = 0.0;
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        sum += u[k] as f64 * weights[k];
    }
    sum
}

impl<'g> Play<'g> {
    pub fn military(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        self.rebuild_limes();
        self.sort_activation();
        self.join_allies();
        for i in 0..self.st.order.len() {
            let n = self.st.order[i] as usize;
            if self.game.inactive[n] {
                continue;
            }
            // A new activation: its naval stacks have met nobody yet (XXV.B).
            self.naval_met = 0;
            self.naval_halted = false;
            match self.st.status(n) {
                Some(Status::Barbarian) => {
                    self.break_blockades(n, 0, dice, log);
                    self.barbarian(n, dice, log)
                }
                Some(_) => {
                    if self.st.nations[n].capital == NO_PROVINCE {
                        self.place_capital(n);
                    }
                    if self.game.minor[n] {
                        continue;
                    }
                    let keep = match self.policy(n) {
                        Policy::Scripted(p) => p.garrison as u32,
                        Policy::Random => 0,
                    };
                    self.break_blockades(n, keep, dice, log);
                    self.civilized(n, dice, log);
                }
                None => continue,
            }
            self.campaigns(n, dice, log);
            self.st.check_totals(&self.game.scenario);
        }
    }

    /// Stacking (XVII): 4 a province, 3 in mountains, +1 for an invading nation.
    pub(super) fn limit(&self, p: usize, invading: bool) -> u32 {
        self.game.stacking[p] as u32 + invading as u32
    }

    pub(super) fn may_enter(&self, n: usize, a: usize) -> bool {
        match self.game.entry_rule[a] {
            EntryRule::Open => true,
            EntryRule::NomadsOnly => {
                self.game.nomad[n] || (self.st.turn == 1 && n == self.game.ostrogothi)
            }
            EntryRule::RaidersOnly => false,
        }
    }

    pub(super) fn fighter(&self, n: usize, units: Units, horde: bool) -> Fighter {
        let g = self.game;
        let status = self.st.status(n).unwrap_or(Status::Barbarian);
        Fighter {
            status,
            nomad: g.nomad[n] && status == Status::Barbarian,
            rome: g.roman[n],
            // Decline (the assassination roll) matters only with a leader (`Play::led` sets it);
            // a capital-less Kingdom's submission is the game's (politics.rs): left out, so
            // that such situations share one model.
            decline: false,
            horde,
            without_capital: false,
            units,
            leader: None,
        }
    }

    pub(super) fn ground(&self, from: usize, p: usize) -> Ground {
        let s = &self.game.scenario;
        let to = s.provinces[p].area as usize;
        let crossing = if from == to {
            Border::None
        } else {
            match s.areas[from].links.iter().find(|l| l.to as usize == to) {
                Some(l) if l.crossing == Crossing::Strait => Border::Strait,
                Some(l) if l.river => Border::River,
                Some(l) if l.mountains => Border::MountainRange,
                _ => Border::None,
            }
        };
        Ground {
            terrain: s.provinces[p].terrain,
            barbarian_province: s.areas[to].kind == AreaKind::Barbarian,
            crossing,
            fortified_city: self.st.level[p] > 0 && self.st.walls[p] != 0,
            limes: self.limes_stands(p),
        }
    }

    /// The siege modifier against province `p`'s city for besieger `n` (XXIV.C; no leader, no
    /// rerolls, no assault; −1 where the owner's naval stack lies off the port).
    pub(super) fn siege_modifier(&self, n: usize, p: usize) -> i32 {
        self.siege_roll_modifier(n, p, false)
    }

    /// The siege modifier, with or without an assault ([`super::assault`]).
    pub(super) fn siege_roll_modifier(&self, n: usize, p: usize, assault: bool) -> i32 {
        let g = self.game;
        let status = self.st.status(n).unwrap_or(Status::Barbarian);
        let nation = if status.civilized() {
            siege::Nation::Civilized
        } else if g.nomad[n] {
            siege::Nation::Nomad
        } else {
            siege::Nation::Barbarian
        };
        let mut walls = self.st.walls[p];
        if Some(p) == g.constantinople
            && walls == -3
            && self.st.turn >= g.scenario.theodosian_walls_turn
        {
            walls = -4;
        }
        let o = self.st.owner[p];
        let decline = if o == NONE {
            0
        } else {
            self.st.nations[o as usize].decline as u32
        };
        Situation {
            walls: walls_of(walls),
            nation,
            decline,
            fleet: self.supplied_by_sea(p),
            event: 0,
        }
        .modifier(self.st.turn as u32, assault)
    }

    /// The defenders of province `p`: its owner's strongest units in the Area, up to the limit,
    /// and whether its horde stands there.
    pub(super) fn defenders(&self, p: usize) -> (Units, bool) {
        let o = self.st.owner[p];
        if o == NONE {
            return ([0; NT], false);
        }
        let o = o as usize;
        let a = self.game.scenario.provinces[p].area as usize;
        let limit = self.limit(p, false) + self.leader_stacking(o, a);
        let units = strongest(self.st.at(o, a), limit);
        (units, self.st.nations[o].horde as usize == p)
    }

    /// P(the city of province `p` falls to one siege roll by `n`); 1 where no city stands.
    pub(super) fn p_fall(&self, n: usize, p: usize) -> f64 {
        if self.st.level[p] > 0 {
            siege::p_fall(self.siege_modifier(n, p), 0)
        } else {
            1.0
        }
    }

    /// What taking province `p` is worth to `n` in the policies' eyes: its VP weight, city and
    /// income.
    pub(super) fn worth(&self, n: usize, p: usize) -> f64 {
        worth_with_city(self.worths(n)[p], self.st.level[p])
    }

    /// `n`'s worth of every province before its city ([`super::Game::worth`]'s row).
    fn worths(&self, n: usize) -> &'g [f64] {
        let g = self.game;
        let np = g.scenario.provinces.len();
        &g.worth[n * np..(n + 1) * np]
    }

    /// A target's odds against `attackers` sent from Area `from`: the battle code's exact
    /// P(attacker wins) when `exact`, else the shortlist's strength ratio ([`shortlist_p_win`]).
    fn evaluate(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        attackers: Units,
        exact: bool,
    ) -> Target {
        let (defenders, horde) = self.defenders(p);
        let p_win = if total(&defenders) == 0 {
            1.0
        } else if exact {
            // Leaders left out of the policy's odds: their rerolls make the exact solver costly
            // for every new situation, and the played battle has them anyway.
            let o = self.st.owner[p] as usize;
            let sides = [
                self.fighter(n, attackers, false),
                self.fighter(o, defenders, horde),
            ];
            self.battles.p_attacker(self.ground(from, p), sides)
        } else {
            shortlist_p_win(strength(&attackers), strength(&defenders), horde)
        };
        Target {
            province: p,
            from,
            attackers,
            p_win,
            by_sea: false,
        }
    }

    /// The best target reachable from Area `from` (its provinces and the adjacent Areas'), as the
    /// policy judges; the random policy picks any attackable province half the time.
    pub(super) fn choose(
        &mut self,
        n: usize,
        from: usize,
        invading: bool,
        keep: u32,
        dice: &mut Dice,
    ) -> Option<Target> {
        let g = self.game;
        let s = &g.scenario;
        let policy = self.policy(n);
        let (attack, siege) = match policy {
            Policy::Scripted(p) if self.st.status(n) == Some(Status::Barbarian) => {
                (p.attack, p.siege)
            }
            Policy::Scripted(p) => (p.civilized_attack, p.siege),
            Policy::Random => (0.0, 0.0),
        };
        let random = policy == Policy::Random;
        if random && !procedures::d2(dice) {
            return None;
        }
        let have = self.st.count(n, from).saturating_sub(keep);
        if have == 0 {
            return None;
        }
        let led = self.leader_stacking(n, from);
        let stack = |play: &Self, p: usize| {
            strongest(play.st.at(n, from), have.min(play.limit(p, invading) + led))
        };
        // The stack sent depends on the target only through its stacking limit (3 in mountains,
        // else 4), a defence on its owner, Area and limit: each strength is worked out once.
        let mut stacks: [Option<f64>; 2] = [None; 2];
        let mut defences = [(NONE, 0u8, 0u8, 0.0f64); 8];
        let mut known = 0;
        let mut best: Option<(usize, f64)> = None;
        let mut seen = 0u64;
        let mut enemies = (0u64, 0u64);
        let links = s.areas[from].links.len();
        for i in 0..=links {
            let a = if i == 0 {
                from
            } else {
                s.areas[from].links[i - 1].to as usize
            };
            // A strait blockaded against it is closed (XXV.F, blockade.rs).
            if !self.may_enter(n, a) || (i > 0 && !self.border_open(n, &s.areas[from].links[i - 1]))
            {
                continue;
            }
            // Only the attackable provinces, in the Area's order (the holdings index).
            let mut candidates = self.attackable_in(n, a, &mut enemies);
            // Read once an Area, not reloaded for every candidate (most fail the bound below).
            let (listed, worths, level) = (&s.areas[a].provinces, self.worths(n), &self.st.level);
            while candidates != 0 {
                let j = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let p = listed[j] as usize;
                // P(win) and P(fall) are at most 1: a province worth no more than the best score
                // so far cannot beat it (the bound below, checked before the costlier tests).
                let worth = worth_with_city(worths[p], level[p]);
                if !random && worth >= 0.0 && best.is_some_and(|b| worth <= b.1) {
                    continue;
                }
                if random {
                    // Reservoir sampling: every attackable province equally likely.
                    seen += 1;
                    if dice.below(seen) == 0 {
                        best = Some((p, 0.0));
                    }
                    continue;
                }
                let p_fall = self.p_fall(n, p);
                if p_fall < siege {
                    continue;
                }
                // P(win) is at most 1: a target that cannot beat the best so far even then is
                // not weighed (rounding is monotone, so the bound holds in floating point too).
                if best.is_some_and(|b| p_fall * worth <= b.1) {
                    continue;
                }
                let limit = self.limit(p, invading);
                let attack_strength = *stacks[(limit > 3 + invading as u32) as usize]
                    .get_or_insert_with(|| strength(&stack(self, p)));
                let o = self.st.owner[p];
                let p_win = if o == NONE {
                    1.0
                } else {
                    let key = (o, a as u8, self.limit(p, false) as u8);
                    let cached = defences[..known]
                        .iter()
                        .find(|d| (d.0, d.1, d.2) == key)
                        .map(|d| d.3);
                    let defence = cached.unwrap_or_else(|| {
                        let d = strength(&self.defenders(p).0);
                        if known < defences.len() {
                            defences[known] = (key.0, key.1, key.2, d);
                            known += 1;
                        }
                        d
                    });
                    let horde = self.st.nations[o as usize].horde as usize == p;
                    if defence == 0.0 {
                        1.0
                    } else {
                        shortlist_p_win(attack_strength, defence, horde)
                    }
                };
                let score = p_win * p_fall * worth;
                if best.is_none_or(|b| score > b.1) {
                    best = Some((p, score));
                }
            }
        }
        let (p, _) = best?;
        // The random pick, or the shortlisted target whose exact odds decide (the battle code's
        // P(win), cached).
        let t = self.evaluate(n, from, p, stack(self, p), !random);
        (random || t.p_win >= attack).then_some(t)
    }

    /// The attack a searching player's orders name for `n` ([`Directive::Attack`]), whatever its
    /// odds: from `from` (a Barbarian's horde Area) or, for a Civilized nation, from the Area next
    /// to the target (or its own) with the most units above `keep`; `None` where the orders name
    /// no target or `n` cannot attack it.
    fn directed(
        &mut self,
        n: usize,
        from: Option<usize>,
        invading: bool,
        keep: u32,
        log: &mut dyn GameLog,
    ) -> Option<Target> {
        let Directive::Attack(p) = self.st.orders[self.game.player_of(n)] else {
            return None;
        };
        let p = p as usize;
        let s = &self.game.scenario;
        let to = s.provinces[p].area as usize;
        if !self.attackable(n, p) || !self.may_enter(n, to) {
            return None;
        }
        let near = |a: usize| a == to || s.areas[to].links.iter().any(|l| l.to as usize == a);
        // Not across a strait blockaded against it (XXV.F).
        let blocked = |a: usize| !self.passable(n, a, to);
        let near_areas = || {
            from.into_iter().filter(|&a| near(a)).chain(
                from.is_none()
                    .then(|| {
                        std::iter::once(to).chain(s.areas[to].links.iter().map(|l| l.to as usize))
                    })
                    .into_iter()
                    .flatten(),
            )
        };
        let from = near_areas()
            .filter(|&a| !blocked(a))
            .max_by_key(|&a| (self.st.count(n, a), std::cmp::Reverse(a)));
        let have = from.map_or(0, |a| self.st.count(n, a).saturating_sub(keep));
        let Some(from) = from.filter(|_| have > 0) else {
            // Said in the log, so a replay (and the search's tests) can tell a blockade's refusal
            // from orders the nation cannot follow for other reasons.
            if near_areas().any(|a| blocked(a) && self.st.count(n, a) > keep) {
                let g = self.game;
                game_log!(
                    log,
                    "{}'s orders name {}, across a strait blockaded against it",
                    g.name(n),
                    s.provinces[p].name
                );
            }
            return None;
        };
        let limit = self.limit(p, invading) + self.leader_stacking(n, from);
        let stack = strongest(self.st.at(n, from), have.min(limit));
        Some(self.evaluate(n, from, p, stack, true))
    }

    /// Every province `n` could attack from Area `from` with its units above `keep`, with the
    /// shortlist's score (P(win) by strengths × P(the city falls) × worth), whatever the policy's
    /// thresholds: the search's candidate targets.
    pub fn target_scores(
        &self,
        n: usize,
        from: usize,
        invading: bool,
        keep: u32,
        mut found: impl FnMut(usize, f64),
    ) {
        let s = &self.game.scenario;
        let have = self.st.count(n, from).saturating_sub(keep);
        if have == 0 {
            return;
        }
        for i in 0..=s.areas[from].links.len() {
            let a = if i == 0 {
                from
            } else {
                s.areas[from].links[i - 1].to as usize
            };
            if !self.may_enter(n, a) || (i > 0 && !self.border_open(n, &s.areas[from].links[i - 1]))
            {
                continue;
            }
            for &p in &s.areas[a].provinces {
                let p = p as usize;
                if !self.attackable(n, p) {
                    continue;
                }
                let stack = strongest(self.st.at(n, from), have.min(self.limit(p, invading)));
                let (defenders, horde) = self.defenders(p);
                let p_win = if total(&defenders) == 0 {
                    1.0
                } else {
                    shortlist_p_win(strength(&stack), strength(&defenders), horde)
                };
                found(p, p_win * self.p_fall(n, p) * self.worth(n, p));
            }
        }
    }

    fn barbarian(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let turn = self.st.turn;
        let nation = &g.scenario.nations[n];
        let invading = nation.entry_turn == turn || nation.active_from == turn;
        for _ in 0..1 + invading as u32 {
            let horde = self.st.nations[n].horde;
            if horde == NO_PROVINCE || self.st.status(n) != Some(Status::Barbarian) {
                return;
            }
            let ha = g.scenario.provinces[horde as usize].area as usize;
            // A searching player's named target comes first; a federate keeps its horde in its
            // Foedus provinces (XXVIII.E).
            let directed = self.directed(n, Some(ha), invading, 0, log);
            if directed.is_none()
                && !invading
                && self.st.nations[n].bond != Bond::Federate
                && self.migrate(n, ha, log)
            {
                continue;
            }
            let target = match directed {
                Some(t) => Some(t),
                None => self.choose(n, ha, invading, 0, dice),
            };
            match target {
                Some(t) => {
                    let taken = self.attack(n, t, invading, dice, log);
                    if taken && invading {
                        // Invading, the horde moves with the army as infantry (XVIII.H).
                        self.st.set_horde(&g.scenario, n, t.province as u16);
                    }
                }
                None => {
                    // A landing (shipping.rs) before a raid; one unit stays with the horde.
                    if !invading && self.naval_step(n, 1, dice, log) {
                        return;
                    }
                    let raid = match self.policy(n) {
                        Policy::Scripted(p) => p.raid,
                        Policy::Random => procedures::d2(dice),
                    };
                    if raid && !invading {
                        self.barbarian_raid(n, ha, dice, log);
                    }
                    return;
                }
            }
        }
    }

    /// Migration (XVIII.G): when units stand in another Area where the nation holds a province,
    /// the horde and every unit move there, without attacking.
    fn migrate(&mut self, n: usize, ha: usize, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let Some(a) = (0..s.areas.len()).find(|&a| a != ha && self.st.count(n, a) > 0) else {
            return false;
        };
        let Some(&p) = s.areas[a]
            .provinces
            .iter()
            .find(|&&p| self.st.owner[p as usize] == n as u8)
        else {
            return false;
        };
        for b in 0..s.areas.len() {
            if b != a {
                let moving = *self.st.at(n, b);
                self.st.move_units(n, b, a, &moving);
            }
        }
        self.st.set_horde(s, n, p);
        if self.st.nations[n].leader.area != NONE {
            self.st.nations[n].leader.area = a as u8;
        }
        game_log!(log, "{} migrates to {}", g.name(n), s.areas[a].name);
        true
    }

    fn civilized(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let keep = match self.policy(n) {
            Policy::Scripted(p) => p.garrison as u32,
            Policy::Random => dice.below(4) as u32,
        };
        let mut attacks = 0;
        if let Some(t) = self.directed(n, None, false, keep, log) {
            self.attack(n, t, false, dice, log);
            attacks += 1;
        }
        let mut a = 0;
        while a < g.scenario.areas.len() {
            if attacks == 2 || self.st.status(n).is_none() {
                break;
            }
            // Only an Area where it has units can send any: the next one from the units index
            // (totals.rs), read afresh at every step since an attack moves units.
            let ahead = self.st.totals.unit_areas[n] & (u64::MAX << a);
            let next = if ahead == 0 {
                g.scenario.areas.len()
            } else {
                ahead.trailing_zeros() as usize
            };
            if super::totals::checking() {
                assert!(
                    (a..next).all(|b| self.st.count(n, b) == 0),
                    "turn {}: nation {n}'s units index skips Areas with units",
                    self.st.turn
                );
            }
            a = next;
            if a < g.scenario.areas.len() && self.st.count(n, a) > keep {
                if let Some(t) = self.choose(n, a, false, keep, dice) {
                    self.attack(n, t, false, dice, log);
                    attacks += 1;
                }
            }
            a += 1;
        }
        // One naval transport a stack and activation (XXV.D): a landing if the land attacks
        // left room.
        if attacks < 2 && self.st.status(n).is_some() {
            self.naval_step(n, keep, dice, log);
        }
    }

    /// Replaces the `sent` units of `n` in Area `a` by `back` (the survivors).
    fn settle_units(&mut self, n: usize, a: usize, sent: &Units, back: &Units) {
        let mut u = self.st.at_mut(n, a);
        let mut lost = 0;
        for k in 0..NT {
            u[k] = u[k] - sent[k] + back[k];
            lost += sent[k] as i64 - back[k] as i64;
        }
        drop(u);
        self.st.ledger.units_out += lost;
    }

    /// Battle, then siege; true when `n` takes the province.
    pub(super) fn attack(
        &mut self,
        n: usize,
        t: Target,
        invading: bool,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let p = t.province;
        let to = s.provinces[p].area as usize;
        let o = self.st.owner[p];
        // Landed from the sea, the stack crossed no border into the province.
        let via = if t.by_sea { to } else { t.from };
        let mut t = t;
        if !self.limes_alone(n, t.from, p, &mut t.attackers, dice, log) {
            return false;
        }
        self.interception(n, via, p, &t.attackers, dice, log);
        if o != NONE {
            self.note_attack(n, o as usize);
            if !self.mercenaries_desert(n, o as usize, t.from, to, &mut t.attackers) {
                return false;
            }
        }
        let (defenders, horde) = self.defenders(p);
        let mut moving = t.attackers;
        if o != NONE && total(&defenders) == 0 && horde {
            // A horde with no unit left to shield it is taken (XXIX.B): its nation submits, and
            // the new sovereign leaves the horde's province.
            game_log!(
                log,
                "{} captures the horde of {} in {}",
                g.name(n),
                g.name(o as usize),
                s.provinces[p].name
            );
            if self.horde_captured(n, o as usize, log) {
                return false;
            }
        } else if total(&defenders) > 0
            && self.flight(n, via, p, &t.attackers, &defenders, horde, dice, log)
        {
            // The defenders got away (XIX.B): the attackers enter unopposed.
        } else if total(&defenders) > 0 {
            let o = o as usize;
            // Allies' units join either side (joint.rs).
            let joined = [
                self.join_attack(n, t.from, p, &t.attackers, invading),
                self.join_defence(n, p, &defenders),
            ];
            let sides = [
                self.led(
                    self.fighter(n, joined[0].with(&t.attackers), false),
                    n,
                    t.from,
                ),
                self.led(self.fighter(o, joined[1].with(&defenders), horde), o, to),
            ];
            let r = self.battles.fight(self.ground(via, p), sides, dice);
            self.st.counters.battles += 1;
            self.leaders_after_battle([(n, t.from), (o, to)], r.leader_death, dice, log);
            let survivors = self.settle_joint_battle(
                [&joined[0], &joined[1]],
                [&t.attackers, &defenders],
                r.survivors,
            );
            self.settle_units(n, t.from, &t.attackers, &survivors[0]);
            self.settle_units(o, to, &defenders, &survivors[1]);
            moving = survivors[0];
            game_log!(
                log,
                "{} attacks {} in {} ({} vs {} units, P(win) {:.2}): {}",
                g.name(n),
                g.name(o),
                s.provinces[p].name,
                total(&t.attackers),
                total(&defenders),
                t.p_win,
                if r.attacker_won { "wins" } else { "loses" }
            );
            if r.limes_destroyed {
                self.destroy_limes(p);
            }
            if r.attacker_won && r.horde_captured {
                game_log!(log, "{} captures the horde of {}", g.name(n), g.name(o));
                if self.horde_captured(n, o, log) {
                    return false;
                }
            }
            if !r.attacker_won || total(&moving) == 0 {
                return false;
            }
        }
        if self.st.level[p] > 0 {
            self.st.counters.sieges += 1;
            if self.bribe_besieger(n, p, dice, log) {
                return false;
            }
            let assault = self.assault(n, t.from, p, &mut moving, dice, log);
            let m = self.siege_roll_modifier(n, p, assault);
            // The leader with the stack: terror first for a Barbarian's at an unfortified city
            // (XXIV.B, a D2), then his combat bonus in rerolls of a failed roll (XXIV.C).
            let leader = self.leader_in(n, t.from);
            let terror = leader.is_some()
                && self.st.status(n) == Some(Status::Barbarian)
                && self.st.walls[p] == 0
                && procedures::d2(dice);
            let (roll, falls) = if terror {
                (0, true)
            } else {
                super::leaders::siege_attempt(m, leader.map_or(0, |r| r.combat), dice)
            };
            game_log!(
                log,
                "{} besieges {}: {}: {}",
                g.name(n),
                s.provinces[p].name,
                if terror {
                    "terror".to_string()
                } else {
                    format!("D10 {roll} {m:+}")
                },
                if falls { "falls" } else { "holds" }
            );
            if !falls {
                return false;
            }
            self.st.counters.cities_taken += 1;
        }
        self.conquer(n, t.from, p, &moving, dice, log);
        true
    }

    fn conquer(
        &mut self,
        n: usize,
        from: usize,
        p: usize,
        moving: &Units,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let g = self.game;
        let to = g.scenario.provinces[p].area as usize;
        let o = self.st.owner[p];
        let mut capital = Capital::None;
        let mut kingdom_fell = NONE;
        if o != NONE {
            let o = o as usize;
            if self.st.nations[o].capital as usize == p {
                capital = match self.st.status(o) {
                    Some(Status::Empire) => Capital::Empire,
                    Some(Status::Kingdom) => Capital::Kingdom,
                    _ => Capital::None,
                };
                self.st.nations[o].capital = NO_PROVINCE;
                self.st.nations[o].capital_lost_turn = self.st.turn;
                if capital == Capital::Kingdom {
                    kingdom_fell = o as u8;
                }
            }
            if self.st.nations[o].horde as usize == p {
                let elsewhere =
                    (0..self.st.owner.len()).find(|&q| q != p && self.st.owner[q] == o as u8);
                if let Some(q) = elsewhere {
                    self.st.set_horde(&g.scenario, o, q as u16);
                }
            }
        }
        self.st.set_owner(&g.scenario, p, n as u8);
        if from != to {
            self.st.move_units(n, from, to, moving);
            self.leader_moves(n, from, to);
        }
        game_log!(log, "{} takes {}", g.name(n), g.scenario.provinces[p].name);
        if kingdom_fell != NONE {
            self.kingdom_capital_taken(n, kingdom_fell as usize, log);
        }
        let barbarian = self.st.status(n) == Some(Status::Barbarian);
        // Barbarians sack what they take (gold for later) and raze the walls (§6.4).
        if barbarian && self.st.level[p] > 0 && !self.st.pillaged[p] {
            let markers = pillage_markers();
            let taken = draw_without_replacement(dice, markers.counts(), self.st.level[p] as u32);
            let marker_gold: u32 = taken
                .iter()
                .zip(&markers.marker)
                .map(|(&c, m)| c * m.gold)
                .sum();
            let gold = siege::sack_gold(&[marker_gold], capital) as i32;
            self.st.gain_gold(n, gold);
            self.st.set_pillaged(&g.scenario, p, true);
            self.st.counters.cities_sacked += 1;
            game_log!(
                log,
                "{} sacks {} for {gold} gold",
                g.name(n),
                g.scenario.provinces[p].name
            );
            if self.st.walls[p] != 0 {
                self.st.walls[p] = 0;
                self.st.counters.walls_razed += 1;
            }
        }
    }

    // ---- Raids (XI) ---------------------------------------------------------------------------------

    /// Whether province `p` may be raided by `n`: a Civilized enemy's empty city site with no
    /// pillage marker.
    fn raidable(&self, n: usize, p: usize) -> bool {
        let o = self.st.owner[p];
        // The province's own tests first: they settle most provinces cheapest.
        o != NONE
            && self.st.level[p] == 0
            && !self.st.pillaged[p]
            && self.game.scenario.provinces[p].city.is_some()
            && self.st.civilized(o as usize)
            && self.game.player_of(o as usize) != self.game.player_of(n)
            // A vassal cannot raid (XI.C); nobody raids its lord or a fellow dependant.
            && self.st.nations[n].bond != Bond::Vassal
            && !super::politics::at_peace(&self.st, n, o as usize)
    }

    /// One raid on `p` with up to 2 units; a failure costs one of them (taken by `lose`).
    fn raid(&mut self, n: usize, p: usize, dice: &mut Dice, log: &mut dyn GameLog) -> RaidOutcome {
        let g = self.game;
        let o = self.st.owner[p] as usize;
        let a = g.scenario.provinces[p].area as usize;
        // Area level: the owner's units in the Area spread evenly over its provinces there.
        let held = super::state::held_in(&g.scenario, &self.st, o, a).max(1);
        let defenders = self.st.count(o, a) / held;
        let (marker, placed) = self.st.raid_marker[p];
        let previous = if placed + 1 == self.st.turn {
            match marker {
                1 => RaidMarker::Minus,
                2 => RaidMarker::Plus,
                _ => RaidMarker::None,
            }
        } else {
            RaidMarker::None
        };
        let m = procedures::raid_modifier(defenders, previous);
        let outcome = procedures::roll_raid(m, dice);
        self.st.counters.raids += 1;
        match outcome {
            RaidOutcome::Failure => {}
            RaidOutcome::Minus => {
                self.st.gain_gold(n, 1);
                self.st.nations[n].vp[VP_RAIDS] += 1;
                self.st.turn_vp[g.player_of(n)] += 1;
                self.st.raid_marker[p] = (1, self.st.turn);
            }
            RaidOutcome::Plus | RaidOutcome::Settle => {
                let gold = pillage_markers().draw_gold(dice) as i32;
                self.st.gain_gold(n, gold);
                self.st.nations[n].vp[VP_RAIDS] += 3;
                self.st.turn_vp[g.player_of(n)] += 3;
                self.st.raid_marker[p] = (2, self.st.turn);
                self.st.set_pillaged(&g.scenario, p, true);
                // Incursion + removes any Limes (L691).
                self.destroy_limes(p);
            }
        }
        game_log!(
            log,
            "{} raids {} ({m:+}): {:?}",
            g.name(n),
            g.scenario.provinces[p].name,
            outcome
        );
        outcome
    }

    /// A Barbarian raids instead of attacking (XI.B): from the horde's Area into it or an adjacent
    /// one, with 2 units.
    fn barbarian_raid(&mut self, n: usize, ha: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        if self.st.count(n, ha) == 0 {
            return;
        }
        let mut chosen = None;
        let mut seen = 0u64;
        for i in 0..=s.areas[ha].links.len() {
            let a = if i == 0 {
                ha
            } else {
                s.areas[ha].links[i - 1].to as usize
            };
            for &p in &s.areas[a].provinces {
                if self.raidable(n, p as usize) {
                    seen += 1;
                    if dice.below(seen) == 0 {
                        chosen = Some(p as usize);
                    }
                }
            }
        }
        let Some(p) = chosen else { return };
        if self.raid(n, p, dice, log) == RaidOutcome::Failure {
            self.st.lose_cheapest(n, ha, 1);
        }
    }

    /// 1.C.b: raider nations raid on their Time-Track turns with 2 units from off the map.
    pub fn raider_raids(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let turn = self.st.turn;
        for n in 0..g.scenario.nations.len() {
            let nation = &g.scenario.nations[n];
            if nation.raids & (1 << turn) == 0
                || self.st.nations[n].settled
                || self.st.nations[n].phase != Phase::Active(Status::Barbarian)
                || total(&self.st.nations[n].offmap) == 0
            {
                continue;
            }
            let mut chosen = None;
            let mut seen = 0u64;
            // Only a city site may be raided: the others are not visited (same order, same draws).
            for &p in &g.city_sites {
                if self.raidable(n, p) {
                    seen += 1;
                    if dice.below(seen) == 0 {
                        chosen = Some(p);
                    }
                }
            }
            let Some(p) = chosen else { continue };
            match self.raid(n, p, dice, log) {
                RaidOutcome::Failure => {
                    let mut off = self.st.offmap_mut(n);
                    if let Some(k) = cheapest_first().into_iter().find(|&k| off[k] > 0) {
                        off[k] -= 1;
                        drop(off);
                        self.st.ledger.units_out += 1;
                    }
                }
                RaidOutcome::Settle => self.st.nations[n].settled = true,
                _ => {}
            }
        }
    }
}
