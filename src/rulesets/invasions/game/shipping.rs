//! Fleets moving and naval transport between friendly coasts (XXV.A, XXV.D; digest §3.9) at the
//! Area level of digest §6.3, and the naval step of an activation that holds them together with
//! the landings of naval.rs (a Barbarian's too, XXV.E).
//!
//! Fleets (XXV.A): a naval stack moves up to 4 sea zones an activation and may not end more than
//! 2 zones from a coastal province of its nation. Only provinces with a port city or site are
//! coastal here (the map's coastline is not in the text), and a site counts as well as a city
//! for this tether (the text excludes an unbuilt site only from the landing's sea-risk roll); a
//! nation holding no coast cannot move its fleets, which stay where they are. A stack beyond its
//! tether (its coast lost) sails to the nearest zone within it, if one lies within 4 zones. It
//! sails the shortest path of the sea graph ([`sea_path`]) and meets the enemy naval stack of each
//! zone it enters (encounters.rs) until it has had its one encounter of the activation (XXV.B).
//!
//! The scripted player's naval step, once per activation (one naval transport a land stack,
//! XXV.D): its naval stack sails to the zone off the port of the Area where it has most units to
//! spare, when none lies there; then it lands there (naval.rs, on the policy's `landing`), or
//! else ships spare units to another Area where it holds a port, across the embarkation zone or
//! into an adjacent one with a naval stack of its own in each, when the enemy units in and next to
//! that Area are at least the policy's `ship` times its own there (and more, relative to its
//! own, than where they leave). The transport has no sea-risk roll; an enemy naval stack may
//! intercept it and the naval battle sinks fleets and units as the battle code's `Landing` says
//! (carried units lost in proportion, L2266); the survivors arrive. The scripted planner weighs
//! that first ([`Play::expected_at_sea`], the exact `Landing`): a transport expected to lose more
//! than the policy's `sea_loss` share of its units, or to deliver fewer than 1 - that share, is
//! not made. Nomads never ship (XXV.D);
//! a Barbarian only lands (its units stay with its horde otherwise, XVIII.G).

use super::battles::{AtSea, Landed, LandingKey};
use super::military::strongest;
use super::naval::{and_second_sea, interception_words, mediterranean};
use super::policy::Policy;
use super::politics::at_peace;
use super::scenario::Scenario;
use super::state::{total, Units};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::landing::{Interception, SeaRisk};
use crate::rulesets::invasions::naval;

/// Sea zones a naval stack moves in an activation (XXV.A).
pub const FLEET_MOVE: u8 = 4;
/// Zones a naval stack may end from a coastal province of its nation (XXV.A).
pub const FLEET_TETHER: u8 = 2;
/// The policy's `ship` at which it never ships (the top of its range).
pub const NEVER_SHIP: f64 = 5.0;
/// A transport between friendly coasts rolls no sea risk (XXV.D; only a landing does, XXV.E).
pub const NO_SEA_RISK: SeaRisk = SeaRisk {
    city_on_coast: true,
    rome_byzantium: false,
    mediterranean: false,
    event: 0,
    exempt: true,
};
/// Sea zones the zone sets (u32 bitmasks) hold.
pub const MAX_SEAS: usize = 32;

/// Sea distances from zone `from` (`u8::MAX` where unreachable), on the stack.
pub fn sea_distances(s: &Scenario, from: usize) -> [u8; MAX_SEAS] {
    let mut d = [u8::MAX; MAX_SEAS];
    let mut queue = [0u8; MAX_SEAS];
    let (mut head, mut tail) = (0, 1);
    d[from] = 0;
    queue[0] = from as u8;
    while head < tail {
        let z = queue[head] as usize;
        head += 1;
        for &l in &s.seas[z].links {
            let l = l as usize;
            if d[l] == u8::MAX {
                d[l] = d[z] + 1;
                queue[tail] = l as u8;
                tail += 1;
            }
        }
    }
    d
}

/// The zones a naval stack enters sailing from `from` to `to` by the shortest path of the sea
/// graph (`to` last), fixed deterministically: breadth first, each zone's links in the
/// scenario's order, the first path found kept. None when `to` lies more than [`FLEET_MOVE`]
/// zones away (or is `from`).
pub fn sea_path(
    s: &Scenario,
    from: usize,
    to: usize,
) -> Option<([u8; FLEET_MOVE as usize], usize)> {
    let mut previous = [u8::MAX; MAX_SEAS];
    let mut queue = [0u8; MAX_SEAS];
    let (mut head, mut tail) = (0, 1);
    previous[from] = from as u8;
    queue[0] = from as u8;
    while head < tail && previous[to] == u8::MAX {
        let z = queue[head] as usize;
        head += 1;
        for &l in &s.seas[z].links {
            if previous[l as usize] == u8::MAX {
                previous[l as usize] = z as u8;
                queue[tail] = l;
                tail += 1;
            }
        }
    }
    if from == to || previous[to] == u8::MAX {
        return None;
    }
    // Walk back from `to`, then reverse.
    let mut back = [0u8; MAX_SEAS];
    let (mut len, mut z) = (0, to);
    while z != from {
        back[len] = z as u8;
        len += 1;
        z = previous[z] as usize;
    }
    if len > FLEET_MOVE as usize {
        return None;
    }
    let mut path = [0u8; FLEET_MOVE as usize];
    for i in 0..len {
        path[i] = back[len - 1 - i];
    }
    Some((path, len))
}

/// A transport's route and load (XXV.D): from Area `from` across `first` (and `last`, the same
/// zone or an adjacent one) to Area `to`.
#[derive(Clone, Copy, Debug)]
pub struct Transport {
    pub from: usize,
    pub to: usize,
    pub first: usize,
    pub last: usize,
    pub units: Units,
}

impl Play<'_> {
    /// Zones within [`FLEET_TETHER`] of a coastal province `n` holds.
    pub fn tether(&self, n: usize) -> u32 {
        let s = &self.game.scenario;
        let mut reach = 0u32;
        for z in 0..s.seas.len() {
            if s.seas[z]
                .ports
                .iter()
                .any(|&q| self.st.owner[q as usize] == n as u8)
            {
                reach |= 1 << z;
            }
        }
        for _ in 0..FLEET_TETHER {
            let (mut next, mut r) = (reach, reach);
            while r != 0 {
                let z = r.trailing_zeros() as usize;
                r &= r - 1;
                for &l in &s.seas[z].links {
                    next |= 1 << l;
                }
            }
            reach = next;
        }
        reach
    }

    /// XXV.A: `n`'s naval stack in `from` sails to `to` when `to` lies within [`FLEET_MOVE`]
    /// zones and within its tether, by [`sea_path`], and joins any stack of `n` there. In each
    /// zone it enters that holds an enemy naval stack it meets it (XXV.B-C, encounters.rs), until
    /// it has had its one encounter of the activation; it stops there when it refuses an
    /// interception (the naval step then ends), is sunk, or, under option
    /// `naval_intercepted_move` = "stops", fights a battle it was intercepted into. True when it
    /// reached `to`.
    pub fn move_fleet(
        &mut self,
        n: usize,
        from: usize,
        to: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let mut moving = self.fleets(n, from);
        if moving == 0 || from == to || self.tether(n) & (1 << to) == 0 {
            return false;
        }
        let Some((path, len)) = sea_path(s, from, to) else {
            return false;
        };
        self.st.counters.fleet_moves += 1;
        game_log!(
            log,
            "{}'s {moving} fleet(s) sail from {} to {}",
            g.name(n),
            s.seas[from].name,
            s.seas[to].name
        );
        // XXV.B: a stack meets enemies once an activation; one that already has stays clear.
        let mut spent = self.naval_met & (1 << from) != 0;
        let mut at = from;
        for &z in &path[..len] {
            let z = z as usize;
            *self.fleets_mut(n, at) -= moving;
            *self.fleets_mut(n, z) += moving;
            at = z;
            if spent || self.naval_met & (1 << z) != 0 {
                continue;
            }
            let Some(o) = self.naval_enemy(n, z) else {
                continue;
            };
            // The enemy stack there has had its encounter too, whatever comes of it.
            self.naval_met |= 1 << z;
            let made = self.st.counters.naval_interceptions;
            let met = self.encounter(n, o, z, dice, log);
            self.st.counters.interceptions_on_the_way +=
                self.st.counters.naval_interceptions - made;
            spent = met != super::encounters::Encounter::None;
            moving = moving.min(self.fleets(n, z));
            if moving == 0 {
                return false;
            }
            if self.move_ends(met) {
                self.naval_halted = true;
                game_log!(log, "{}'s fleets stop in {}", g.name(n), s.seas[z].name);
                return false;
            }
        }
        if spent {
            self.naval_met |= 1 << to;
        }
        true
    }

    /// Naval stacks of `n` beyond their tether sail to the nearest zone within it (the first
    /// such zone on ties), when one lies within [`FLEET_MOVE`] zones.
    pub fn recall_fleets(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let s = &self.game.scenario;
        let tether = self.tether(n);
        if tether == 0 {
            return;
        }
        for z in 0..s.seas.len() {
            if self.fleets(n, z) == 0 || tether & (1 << z) != 0 {
                continue;
            }
            let d = sea_distances(s, z);
            let nearest = (0..s.seas.len())
                .filter(|&y| tether & (1 << y) != 0 && d[y] <= FLEET_MOVE)
                .min_by_key(|&y| d[y]);
            if let Some(y) = nearest {
                self.move_fleet(n, z, y, dice, log);
            }
        }
    }

    /// Bitmask of the zones off `n`'s ports in Area `a`.
    fn port_zones(&self, n: usize, a: usize) -> u32 {
        let s = &self.game.scenario;
        let mut zones = 0u32;
        for &q in &s.areas[a].provinces {
            let q = q as usize;
            if let Some(z) = s.provinces[q].port {
                if self.st.owner[q] == n as u8 {
                    zones |= 1 << z;
                }
            }
        }
        zones
    }

    /// Brings a naval stack of `n` to `zone` (XXV.A) unless one lies there: the nearest other
    /// stack that may, not one in `keep_zones`. True when a stack is there afterwards.
    pub(super) fn bring_fleet(
        &mut self,
        n: usize,
        zone: usize,
        keep_zones: u32,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        if self.fleets(n, zone) > 0 {
            return true;
        }
        let s = &self.game.scenario;
        let d = sea_distances(s, zone);
        let nearest = (0..s.seas.len())
            .filter(|&y| self.fleets(n, y) > 0 && keep_zones & (1 << y) == 0 && d[y] <= FLEET_MOVE)
            .min_by_key(|&y| d[y]);
        match nearest {
            Some(y) => self.move_fleet(n, y, zone, dice, log),
            None => false,
        }
    }

    /// Enemy units in each Area: nations of other players in play, active, not at peace with
    /// `n` (the Area sets are u64 bitmasks elsewhere: 64 Areas at most).
    pub fn enemy_units(&self, n: usize) -> [u32; 64] {
        let g = self.game;
        let mut units = [0u32; 64];
        for o in 0..self.st.nations.len() {
            if g.player_of(o) == g.player_of(n)
                || self.st.status(o).is_none()
                || g.inactive[o]
                || at_peace(&self.st, n, o)
            {
                continue;
            }
            // Only the few Areas where it has units (the running totals, totals.rs).
            let mut areas = self.st.totals.unit_areas[o];
            while areas != 0 {
                let a = areas.trailing_zeros() as usize;
                areas &= areas - 1;
                units[a] += self.st.count(o, a);
            }
        }
        units
    }

    /// Enemy units (`enemy`, from [`Play::enemy_units`]) in and next to Area `a` over `n`'s own
    /// there (at least 1).
    pub fn sea_threat(&self, n: usize, a: usize, enemy: &[u32; 64]) -> f64 {
        let s = &self.game.scenario;
        let near: u32 = enemy[a]
            + s.areas[a]
                .links
                .iter()
                .map(|l| enemy[l.to as usize])
                .sum::<u32>();
        near as f64 / self.st.count(n, a).max(1) as f64
    }

    /// `n`'s naval step in its activation: its stranded fleets come home, a stack sails to the
    /// army with most units to spare, then one landing or one transport. True when units sailed.
    pub fn naval_step(
        &mut self,
        n: usize,
        keep: u32,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let seas = s.seas.len();
        if g.nomad[n]
            || self.st.fleets[n * seas..(n + 1) * seas]
                .iter()
                .all(|&f| f == 0)
        {
            return false;
        }
        self.recall_fleets(n, dice, log);
        // Straits to blockade first (blockade.rs); those stacks stay where they are.
        let blockading = self.set_blockades(n, dice, log);
        // The army: the Area with most units to spare and a port of n's.
        let army = (0..s.areas.len())
            .filter(|&a| self.st.count(n, a) > keep && self.port_zones(n, a) != 0)
            .max_by_key(|&a| (self.st.count(n, a), std::cmp::Reverse(a)));
        if let Some(a) = army {
            let zones = self.port_zones(n, a);
            let mut z = zones;
            let mut afloat = false;
            while z != 0 && !afloat {
                let zone = z.trailing_zeros() as usize;
                z &= z - 1;
                afloat = self.fleets(n, zone) > 0;
            }
            if !afloat {
                self.bring_fleet(n, zones.trailing_zeros() as usize, blockading, dice, log);
            }
        }
        // Enemy naval stacks where its own now stand (encounters.rs), those its moving stacks
        // have not met on their way: a stack whose move ended ends the step with it.
        if self.naval_encounters(n, dice, log) {
            return false;
        }
        if self.landing(n, keep, dice, log) {
            if self.st.status(n) == Some(Status::Barbarian) {
                self.st.counters.barbarian_landings += 1;
            }
            return true;
        }
        if self.st.status(n) == Some(Status::Barbarian) || self.st.status(n).is_none() {
            return false;
        }
        let ship = match self.policy(n) {
            Policy::Scripted(p) if p.ship >= NEVER_SHIP => f64::INFINITY,
            Policy::Scripted(p) => p.ship,
            Policy::Random => {
                if super::procedures::d2(dice) {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
        };
        match self.best_transport(n, keep, ship, blockading, dice, log) {
            Some(t) => {
                self.transport(n, &t, dice, log);
                true
            }
            None => false,
        }
    }

    /// The transport the policy wants: to the Area where `n` holds a port and the threat
    /// ratio is highest and at least `ship`, from the Area with most units to spare (beyond
    /// `keep`) under a lower threat, across one zone or two adjacent ones; a naval stack is
    /// brought to each zone of the route that lacks one, never from `keep_zones` (the straits it
    /// blockades). None when no route is afloat.
    pub fn best_transport(
        &mut self,
        n: usize,
        keep: u32,
        ship: f64,
        keep_zones: u32,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> Option<Transport> {
        let s = &self.game.scenario;
        if !ship.is_finite() {
            return None;
        }
        let enemy = self.enemy_units(n);
        let mut to: Option<(usize, f64)> = None;
        for b in 0..s.areas.len() {
            if self.port_zones(n, b) == 0 || !self.may_enter(n, b) {
                continue;
            }
            let threat = self.sea_threat(n, b, &enemy);
            if threat >= ship && threat > 0.0 && to.is_none_or(|t| threat > t.1) {
                to = Some((b, threat));
            }
        }
        let (b, threat_b) = to?;
        let to_zones = self.port_zones(n, b);
        // (from, first, last, spare)
        let mut best: Option<(usize, usize, usize, u32)> = None;
        for a in 0..s.areas.len() {
            let spare = self.st.count(n, a).saturating_sub(keep);
            let mut from_zones = self.port_zones(n, a);
            if a == b || spare == 0 || from_zones == 0 || self.sea_threat(n, a, &enemy) >= threat_b
            {
                continue;
            }
            while from_zones != 0 {
                let first = from_zones.trailing_zeros() as usize;
                from_zones &= from_zones - 1;
                let mut reach = 1u32 << first;
                for &l in &s.seas[first].links {
                    reach |= 1 << l;
                }
                let landing_zones = reach & to_zones;
                if landing_zones == 0 {
                    continue;
                }
                // One zone when the two coasts share it, else the nearest adjacent one.
                let last = if landing_zones & (1 << first) != 0 {
                    first
                } else {
                    landing_zones.trailing_zeros() as usize
                };
                if best.is_none_or(|x| spare > x.3) {
                    best = Some((a, first, last, spare));
                }
            }
        }
        let (a, first, last, spare) = best?;
        let route = (1u32 << first) | (1u32 << last) | keep_zones;
        if !self.bring_fleet(n, first, route, dice, log)
            || !self.bring_fleet(n, last, route, dice, log)
        {
            return None;
        }
        let afloat = self.fleets(n, first).min(self.fleets(n, last)).min(2) as u32;
        let count = spare.min(super::naval::CARRIED_PER_FLEET * afloat);
        let t = Transport {
            from: a,
            to: b,
            first,
            last,
            units: strongest(self.st.at(n, a), count),
        };
        self.st.counters.transports_planned += 1;
        if let Policy::Scripted(p) = self.policy(n) {
            let at_sea = self.expected_at_sea(n, [first, last], count as u8, NO_SEA_RISK, false);
            let carried = count as f64;
            if at_sea.units_lost > p.sea_loss * carried
                || at_sea.units_landed < (1.0 - p.sea_loss) * carried
            {
                self.st.counters.transports_dropped += 1;
                let g = self.game;
                game_log!(
                    log,
                    "{} keeps {count} units in {}: the crossing to {} would lose {:.2} at sea and land {:.2} (intercepted {:.2})",
                    g.name(n),
                    s.areas[a].name,
                    s.areas[b].name,
                    at_sea.units_lost,
                    at_sea.units_landed,
                    at_sea.p_intercepted
                );
                return None;
            }
        }
        Some(t)
    }

    /// The exact means of a crossing of `zones` by `n` carrying `carried` units (the battle
    /// code's `Landing`, as `cross` would play it): the enemy stack `interceptor`
    /// names intercepts as often as its policy fights and the interception succeeds, and the
    /// carrying stack refuses as often as its own does not fight.
    pub fn expected_at_sea(
        &mut self,
        n: usize,
        zones: [usize; 2],
        carried: u8,
        risk: SeaRisk,
        britannia: bool,
    ) -> AtSea {
        let Some((o, sea)) = self.interceptor(n, zones) else {
            // Unopposed: only the sea-risk roll (no model needed).
            return AtSea {
                p_intercepted: 0.0,
                units_landed: risk.success() * carried as f64,
                units_lost: 0.0,
            };
        };
        let (mine, theirs) = (self.fleets(n, sea).min(2), self.fleets(o, sea).min(2));
        let declares = self.p_fights(o, theirs, mine);
        let accepts = self.p_fights(n, mine, theirs);
        let mut mean = AtSea::default();
        for (weight, enemy, refuse) in [
            (1.0 - declares, None, false),
            (declares * accepts, Some((o, sea)), false),
            (declares * (1.0 - accepts), Some((o, sea)), true),
        ] {
            if weight == 0.0 {
                continue;
            }
            let key = self.crossing_key(n, zones, enemy, carried, risk, britannia, refuse);
            let a = self.battles.at_sea(key);
            mean.p_intercepted += weight * a.p_intercepted;
            mean.units_landed += weight * a.units_landed;
            mean.units_lost += weight * a.units_lost;
        }
        mean
    }

    /// The calculator's `Landing` for a crossing of `zones` by `n` carrying `carried` units,
    /// intercepted (or not) by `enemy`'s stack in its zone, the carrying stack refusing the
    /// battle when `refuse`.
    #[allow(clippy::too_many_arguments)]
    fn crossing_key(
        &self,
        n: usize,
        zones: [usize; 2],
        enemy: Option<(usize, usize)>,
        carried: u8,
        risk: SeaRisk,
        britannia: bool,
        refuse: bool,
    ) -> LandingKey {
        let s = &self.game.scenario;
        let (interception, battle_zone, defender) = match enemy {
            Some((o, sea)) if self.holds_coast(o, sea) => {
                (Interception::Automatic, sea, self.naval_side(o, sea))
            }
            Some((o, sea)) => (Interception::D2, sea, self.naval_side(o, sea)),
            None => (Interception::None, zones[1], naval::Side::new(1)),
        };
        LandingKey {
            risk,
            interception,
            sides: [self.naval_side(n, battle_zone), defender],
            carried,
            mediterranean: mediterranean(&s.seas[battle_zone].name),
            britannia,
            refuse,
        }
    }

    /// The transport itself: no sea-risk roll; the enemy naval stack's interception and the naval
    /// battle through the battle code's `Landing`; the carried units lost with the fleets are
    /// out of the game, the rest arrive in `t.to`.
    pub fn transport(
        &mut self,
        n: usize,
        t: &Transport,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> Landed {
        let (out, enemy) = self.cross(n, [t.first, t.last], &t.units, NO_SEA_RISK, false, dice);
        self.st.counters.transports_intercepted += out.intercepted as u32;
        if out.refused {
            // Cancelled (XXV.D): the units stay where they embarked, the stack's move is over.
            let g = self.game;
            let s = &g.scenario;
            game_log!(
                log,
                "{} ships {} units from {} to {} across {}{}: intercepted by {}, refuses the battle: cancelled",
                g.name(n),
                total(&t.units),
                s.areas[t.from].name,
                s.areas[t.to].name,
                s.seas[t.first].name,
                and_second_sea(s, t.first, t.last),
                enemy.map_or("?", |o| g.name(o))
            );
            return out;
        }
        let arrived = strongest(&t.units, out.landed as u32);
        let to = t.to;
        let mut lost = 0i64;
        let mut left = *self.st.at(n, t.from);
        for k in 0..left.len() {
            left[k] -= t.units[k];
            lost += (t.units[k] - arrived[k]) as i64;
        }
        *self.st.at_mut(n, t.from) = left;
        let mut there = self.st.at_mut(n, to);
        for k in 0..there.len() {
            there[k] += arrived[k];
        }
        drop(there);
        self.st.ledger.units_out += lost;
        self.st.counters.transports += 1;
        let g = self.game;
        let s = &g.scenario;
        game_log!(
            log,
            "{} ships {} units from {} to {} across {}{}{}: {} arrive",
            g.name(n),
            total(&t.units),
            s.areas[t.from].name,
            s.areas[to].name,
            s.seas[t.first].name,
            and_second_sea(s, t.first, t.last),
            interception_words(g, enemy, &out),
            out.landed
        );
        out
    }

    /// A crossing of `zones` by `n` carrying `units` through the battle code's `Landing` (the
    /// sea-risk roll `risk`, the enemy naval stack's interception, the naval battle; `britannia`
    /// names a Barbarian's invasion of Britannia for the battle's notes): the fleets sunk leave
    /// the game; returns the outcome and the intercepting nation.
    pub(super) fn cross(
        &mut self,
        n: usize,
        zones: [usize; 2],
        units: &Units,
        risk: SeaRisk,
        britannia: bool,
        dice: &mut Dice,
    ) -> (Landed, Option<usize>) {
        // The enemy stack intercepts when its policy fights (XXV.B, as in encounters.rs); the
        // transporting stack, intercepted, refuses when its own does not (XXV.C-D).
        let mut enemy = self.interceptor(n, zones);
        let mut refuse = false;
        if let Some((o, sea)) = enemy {
            let (mine, theirs) = (self.fleets(n, sea).min(2), self.fleets(o, sea).min(2));
            if self.fights(o, theirs, mine, dice) {
                refuse = !self.fights(n, mine, theirs, dice);
            } else {
                enemy = None;
            }
        }
        let carried = total(units) as u8;
        let key = self.crossing_key(n, zones, enemy, carried, risk, britannia, refuse);
        let battle_zone = enemy.map_or(zones[1], |e| e.1);
        let out = self.battles.land(key, dice);
        self.st.counters.naval_battles += (out.intercepted && !out.refused) as u32;
        self.st.counters.crossings_refused += out.refused as u32;
        if !out.sea_failure && !out.refused {
            self.st.counters.units_lost_at_sea += (carried - out.landed) as u32;
        }
        let lost_fleets = out.fleets_lost[0] + out.fleets_lost[1];
        self.st.counters.fleets_sunk += lost_fleets as u32;
        self.st.ledger.fleets_out += lost_fleets as i64;
        *self.fleets_mut(n, battle_zone) -= out.fleets_lost[0];
        if let Some((o, sea)) = enemy {
            *self.fleets_mut(o, sea) -= out.fleets_lost[1];
        }
        (out, enemy.map(|e| e.0))
    }
}
