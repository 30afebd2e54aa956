//! Naval interception outside transports and landings (XXV.B) and refusing a naval battle
//! (XXV.C; digest §3.9) at the Area level. In its naval step (shipping.rs), once its fleets have
//! moved, each naval stack of the active nation that shares a zone with an enemy naval stack
//! (another player's nation in play, active, not at peace with it; the biggest there) meets it:
//! the inactive side declares first and tries to intercept when its policy fights, then the
//! active side; an interception is automatic for a nation holding every city of the zone's
//! coast, else a D2. The intercepted side fights or refuses as its policy says: a refusing
//! active stack counts as the loser and its movement ends (no transport or landing this
//! activation), a refusing inactive one costs its nation 1 VP, to the active nation. A naval
//! battle is the battle code's (through `Landing` with nothing carried and no sea-risk roll):
//! fleets sunk leave the game; a stack that fought sails on unless sunk (Q21), or, under option
//! `naval_intercepted_move` = "stops", an active stack intercepted ends its movement.
//!
//! The policy's `naval_fight`: a stack fights (intercepts, accepts an intercepting stack's
//! battle) when its fleets are at least this many times the enemy's, and refuses below it;
//! a random player fights on a D2. Each stack meets at most one enemy an activation (XXV.B): in
//! a zone it enters while it moves (shipping.rs's `move_fleet`) or where it stands afterwards.

use super::battles::LandingKey;
use super::naval::mediterranean;
use super::policy::Policy;
use super::politics::at_peace;
use super::procedures;
use super::state::VP_NAVAL;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::landing::{Interception, SeaRisk};

/// What one naval encounter came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encounter {
    /// Neither side tried to intercept.
    None,
    /// A side tried to intercept and failed its D2 (both stacks have had their encounter).
    Missed,
    /// A naval battle was fought; `active_stopped` when the active stack had been intercepted.
    Battle { active_stopped: bool },
    /// The active stack, intercepted, refused: its movement ends.
    ActiveRefused,
    /// The inactive stack, intercepted, refused: 1 VP to the active nation.
    InactiveRefused,
}

impl Play<'_> {
    /// The enemy naval stack `n` meets in zone `z`: the biggest of another player's nation in
    /// play and active, not at peace with `n` (ties: the first nation).
    pub(super) fn naval_enemy(&self, n: usize, z: usize) -> Option<usize> {
        let g = self.game;
        let mut best: Option<(usize, u8)> = None;
        for o in 0..g.scenario.nations.len() {
            let f = self.fleets(o, z);
            if f == 0
                || g.player_of(o) == g.player_of(n)
                || self.st.status(o).is_none()
                || g.inactive[o]
                || at_peace(&self.st, n, o)
            {
                continue;
            }
            if best.is_none_or(|b| f > b.1) {
                best = Some((o, f));
            }
        }
        best.map(|b| b.0)
    }

    /// P([`Play::fights`]): 1 or 0 for a scripted player, a half for a random one.
    pub(super) fn p_fights(&self, n: usize, mine: u8, theirs: u8) -> f64 {
        match self.policy(n) {
            Policy::Scripted(p) => {
                f64::from(u8::from(mine as f64 >= p.naval_fight * theirs as f64))
            }
            Policy::Random => 0.5,
        }
    }

    /// Whether encounter `e` ends the active stack's move: a refusal always (XXV.C); a battle
    /// it was intercepted into only under option `naval_intercepted_move` = "stops" (Q21's
    /// default: it sails on unless sunk).
    pub(super) fn move_ends(&self, e: Encounter) -> bool {
        match e {
            Encounter::ActiveRefused => true,
            Encounter::Battle { active_stopped } => {
                active_stopped && self.game.intercepted_fleets_stop
            }
            _ => false,
        }
    }

    /// Whether `n`'s naval stack of `mine` fleets fights one of `theirs` (the policy's
    /// `naval_fight`; a random player on a D2).
    pub(super) fn fights(&self, n: usize, mine: u8, theirs: u8, dice: &mut Dice) -> bool {
        match self.policy(n) {
            Policy::Scripted(p) => mine as f64 >= p.naval_fight * theirs as f64,
            Policy::Random => procedures::d2(dice),
        }
    }

    /// XXV.B: `n`'s interception in zone `z` works: automatic where it holds every city of the
    /// coast, else a D2.
    fn naval_interception(&self, n: usize, z: usize, dice: &mut Dice) -> bool {
        self.holds_coast(n, z) || procedures::d2(dice)
    }

    /// `n`'s naval stacks meet the enemy's in the zones where they stand (its naval step, after
    /// its fleets moved). True when one of its stacks was intercepted (its movement ends).
    pub(super) fn naval_encounters(
        &mut self,
        n: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        // A stack stopped earlier in the activation (a blockade's battle, blockade.rs) ends it.
        let mut stopped = self.naval_halted;
        for z in 0..self.game.scenario.seas.len() {
            // Once an activation a stack (XXV.B): not again where one already met an enemy.
            if self.fleets(n, z) == 0 || self.naval_met & (1 << z) != 0 {
                continue;
            }
            let Some(o) = self.naval_enemy(n, z) else {
                continue;
            };
            self.naval_met |= 1 << z;
            let met = self.encounter(n, o, z, dice, log);
            stopped |= self.move_ends(met);
        }
        stopped
    }

    /// The active `n`'s naval stack meets `o`'s in zone `z` (XXV.B-C).
    pub(super) fn encounter(
        &mut self,
        n: usize,
        o: usize,
        z: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> Encounter {
        let g = self.game;
        let (mine, theirs) = (self.fleets(n, z).min(2), self.fleets(o, z).min(2));
        let zone = &g.scenario.seas[z].name;
        let mut declared = false;
        // The inactive side declares first.
        let inactive_declares = self.fights(o, theirs, mine, dice);
        declared |= inactive_declares;
        if inactive_declares && self.naval_interception(o, z, dice) {
            self.st.counters.naval_interceptions += 1;
            if self.fights(n, mine, theirs, dice) {
                self.naval_battle(n, o, z, dice, log);
                return Encounter::Battle {
                    active_stopped: true,
                };
            }
            self.st.counters.naval_refusals += 1;
            game_log!(
                log,
                "{} intercepts {}'s fleets in {zone}: refused, their move ends",
                g.name(o),
                g.name(n)
            );
            return Encounter::ActiveRefused;
        }
        let active_declares = self.fights(n, mine, theirs, dice);
        declared |= active_declares;
        if active_declares && self.naval_interception(n, z, dice) {
            self.st.counters.naval_interceptions += 1;
            if self.fights(o, theirs, mine, dice) {
                self.naval_battle(n, o, z, dice, log);
                return Encounter::Battle {
                    active_stopped: false,
                };
            }
            self.st.counters.naval_refusals += 1;
            self.st.nations[o].vp[VP_NAVAL] -= 1;
            self.st.nations[n].vp[VP_NAVAL] += 1;
            game_log!(
                log,
                "{} intercepts {}'s fleets in {zone}: refused, 1 VP to {}",
                g.name(n),
                g.name(o),
                g.name(n)
            );
            return Encounter::InactiveRefused;
        }
        if declared {
            Encounter::Missed
        } else {
            Encounter::None
        }
    }

    /// A naval battle between `n`'s and `o`'s stacks in zone `z` through the battle code (a
    /// `Landing` carrying nothing, with no sea-risk roll and the interception made): the fleets
    /// sunk leave the game.
    pub(super) fn naval_battle(
        &mut self,
        n: usize,
        o: usize,
        z: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let g = self.game;
        let key = LandingKey {
            risk: SeaRisk {
                city_on_coast: true,
                rome_byzantium: false,
                mediterranean: false,
                event: 0,
                exempt: true,
            },
            interception: Interception::Automatic,
            sides: [self.naval_side(n, z), self.naval_side(o, z)],
            carried: 0,
            mediterranean: mediterranean(&g.scenario.seas[z].name),
            britannia: false,
            refuse: false,
        };
        let out = self.battles.land(key, dice);
        self.st.counters.naval_battles += 1;
        let lost = out.fleets_lost[0] + out.fleets_lost[1];
        self.st.counters.fleets_sunk += lost as u32;
        self.st.ledger.fleets_out += lost as i64;
        *self.fleets_mut(n, z) -= out.fleets_lost[0];
        *self.fleets_mut(o, z) -= out.fleets_lost[1];
        game_log!(
            log,
            "naval battle in {}: {} loses {} fleet(s), {} {}",
            g.scenario.seas[z].name,
            g.name(n),
            out.fleets_lost[0],
            g.name(o),
            out.fleets_lost[1]
        );
    }
}
