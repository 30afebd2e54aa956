//! Strait blockades (XXV.F; digest §3.9, §4.12) at the Area level of digest §6.3.
//!
//! Each strait of the Area graph has a sea zone (`abstraction.toml [straits]`). A naval stack in
//! that zone blocks the strait to the land stacks of its nation's enemies (another player's
//! nation, not at peace with it), even where a naval stack of theirs also stands; a nation
//! blockades unless its policy's `blockade` says never (the random player always does). A
//! blocked strait is closed to the hindered nation's attacks and campaigns (military.rs), its
//! interceptions and its flight (reactions.rs). It opens once no blocking stack is left in the
//! zone: the hindered nation (or an ally, or a friend earlier in the turn: the same thing here,
//! since the stack is gone) must have eliminated it.
//!
//! At the start of its activation, a nation whose units stand by a strait blocked against it,
//! with a province across to take, tries to break the blockade when its policy's `naval_fight`
//! fights the blocker: its naval stack there (or the nearest one that may sail there, XXV.A)
//! meets the blocking stack as encounters.rs plays any encounter (the blocker, inactive,
//! declares first; the interception automatic for a nation holding every city of the zone's
//! coast, else a D2; the intercepted side fights or refuses). A blocker that refuses gives 1 VP
//! and keeps the strait closed (it was not eliminated); a naval battle opens it only when it sinks
//! the blocker's whole stack.
//!
//! In its naval step, a nation that blockades sends a naval stack to the zone of a strait
//! leading into one of its Areas when the enemy units in the Area across are at least its
//! policy's `blockade` times its own units in its Area, and keeps it there.

use super::policy::Policy;
use super::politics::at_peace;
use super::scenario::AreaLink;
use super::shipping::{sea_distances, FLEET_MOVE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// The policy's `blockade` at which a nation never blockades (the top of its range).
pub const NEVER_BLOCKADE: f64 = 5.0;

impl Play<'_> {
    /// Whether `o`'s naval stacks blockade the straits where they stand (its policy).
    pub(super) fn blockades(&self, o: usize) -> bool {
        match self.policy(o) {
            Policy::Scripted(p) => p.blockade < NEVER_BLOCKADE,
            Policy::Random => true,
        }
    }

    /// The nation whose naval stack in zone `sea` blocks it to `n`'s land stacks: the biggest of
    /// an enemy in play (another player's nation, active, not at peace with `n`) that blockades
    /// (ties: the first nation). `None`: the strait is open to `n`.
    pub fn blocker(&self, n: usize, sea: usize) -> Option<usize> {
        let g = self.game;
        let mut best: Option<(usize, u8)> = None;
        for o in 0..g.scenario.nations.len() {
            let f = self.fleets(o, sea);
            if f == 0
                || g.player_of(o) == g.player_of(n)
                || self.st.status(o).is_none()
                || g.inactive[o]
                || at_peace(&self.st, n, o)
                || !self.blockades(o)
            {
                continue;
            }
            if best.is_none_or(|b| f > b.1) {
                best = Some((o, f));
            }
        }
        best.map(|b| b.0)
    }

    /// Whether `n`'s land stacks may cross the border `l` (always across land; across a strait
    /// unless an enemy naval stack blocks its zone).
    pub fn border_open(&self, n: usize, l: &AreaLink) -> bool {
        l.blockade_zone()
            .is_none_or(|z| self.blocker(n, z).is_none())
    }

    /// Whether `n`'s land stacks may go from Area `from` to Area `to` (the same Area, or across
    /// an open border between them).
    pub fn passable(&self, n: usize, from: usize, to: usize) -> bool {
        from == to
            || self.game.scenario.areas[from]
                .links
                .iter()
                .find(|l| l.to as usize == to)
                .is_none_or(|l| self.border_open(n, l))
    }

    /// XXV.F at the start of `n`'s activation: every strait blocked against it by an Area where
    /// it has units above `keep`, with a province across it may take, is met (`blockades_met`)
    /// and, when its policy fights the blocker, attacked by its naval stack there.
    pub fn break_blockades(&mut self, n: usize, keep: u32, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        if g.nomad[n] {
            // Nomads never sail (XXV.D): they have no fleet to break a blockade with.
            return;
        }
        for &from in &g.blockade_areas {
            if self.st.count(n, from) <= keep {
                continue;
            }
            for i in 0..s.areas[from].links.len() {
                let l = s.areas[from].links[i];
                let Some(z) = l.blockade_zone() else {
                    continue;
                };
                let to = l.to as usize;
                let Some(o) = self.blocker(n, z) else {
                    continue;
                };
                let wanted = self.may_enter(n, to)
                    && s.areas[to]
                        .provinces
                        .iter()
                        .any(|&p| self.attackable(n, p as usize));
                if !wanted {
                    continue;
                }
                self.st.counters.blockades_met += 1;
                self.try_break(n, o, z, log, dice);
            }
        }
    }

    /// `n`'s attempt on `o`'s blocking stack in zone `z`: its own stack there, or the nearest
    /// one that may sail there, when its policy fights it; once a zone an activation.
    fn try_break(&mut self, n: usize, o: usize, z: usize, log: &mut dyn GameLog, dice: &mut Dice) {
        if self.naval_met & (1 << z) != 0 {
            return;
        }
        let theirs = self.fleets(o, z).min(2);
        let source = if self.fleets(n, z) > 0 {
            Some(z)
        } else {
            // XXV.A: the zone must lie within the stack's reach and its tether.
            let s = &self.game.scenario;
            let d = sea_distances(s, z);
            (0..s.seas.len())
                .filter(|&y| self.fleets(n, y) > 0 && d[y] <= FLEET_MOVE)
                .min_by_key(|&y| d[y])
                .filter(|_| self.tether(n) & (1 << z) != 0)
        };
        let Some(y) = source else {
            return;
        };
        let mine = self.fleets(n, y).min(2);
        if !self.fights(n, mine, theirs, dice) {
            return;
        }
        let battles = self.st.counters.naval_battles;
        // Sailing there, the stack may meet enemy stacks on its way, the blocker's zone included
        // (shipping.rs's path): then that was its encounter.
        let arrived = y == z || self.move_fleet(n, y, z, dice, log);
        if arrived && self.naval_met & (1 << z) == 0 {
            self.naval_met |= 1 << z;
            let met = self.encounter(n, o, z, dice, log);
            self.naval_halted |= self.move_ends(met);
        }
        self.st.counters.blockade_battles += self.st.counters.naval_battles - battles;
        if !arrived {
            return;
        }
        if self.blocker(n, z).is_none() {
            self.st.counters.blockades_broken += 1;
            let g = self.game;
            game_log!(
                log,
                "{} breaks {}'s blockade of the strait in {}",
                g.name(n),
                g.name(o),
                g.scenario.seas[z].name
            );
        }
    }

    /// `n`'s naval step (shipping.rs): for each strait from an Area of its to an Area across,
    /// a naval stack sails to the strait's zone when none of its own lies there and the enemy
    /// units across are at least its policy's `blockade` times its own in its Area (the random
    /// player on a D2). Returns the zones it now blockades, for the rest of the step to keep.
    pub fn set_blockades(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> u32 {
        let g = self.game;
        let s = &g.scenario;
        let threshold = match self.policy(n) {
            Policy::Scripted(p) if p.blockade >= NEVER_BLOCKADE => return 0,
            Policy::Scripted(p) => p.blockade,
            Policy::Random => {
                if super::procedures::d2(dice) {
                    0.0
                } else {
                    return 0;
                }
            }
        };
        let mut held = 0u32;
        let mut enemy: Option<[u32; 64]> = None;
        for a in 0..s.areas.len() {
            if super::state::held_in(s, &self.st, n, a) == 0 {
                continue;
            }
            for i in 0..s.areas[a].links.len() {
                let l = s.areas[a].links[i];
                let Some(z) = l.blockade_zone() else {
                    continue;
                };
                if self.fleets(n, z) > 0 {
                    held |= 1 << z;
                    continue;
                }
                let enemy = *enemy.get_or_insert_with(|| self.enemy_units(n));
                let across = enemy[l.to as usize];
                let own = self.st.count(n, a).max(1);
                if across == 0 || (across as f64) < threshold * own as f64 {
                    continue;
                }
                if self.bring_fleet(n, z, held, dice, log) {
                    held |= 1 << z;
                    self.st.counters.blockade_moves += 1;
                    game_log!(
                        log,
                        "{} blockades the strait from {} to {} in {}",
                        g.name(n),
                        s.areas[a].name,
                        s.areas[l.to as usize].name,
                        s.seas[z].name
                    );
                }
            }
        }
        held
    }
}
