//! Allies' joint battles (XXVI.B; digest §4.13: allies stack and fight as one nation) at the Area
//! level of digest §6.3. When a nation attacks, its allies' units standing in the Area its stack
//! leaves from join the stack up to the target's stacking limit (which counts allies' units,
//! XVII), each ally keeping its own garrison (the policy's `garrison`; one unit for a Barbarian,
//! with its horde); when a nation's province is attacked, its allies' units in the province's Area
//! join the defenders up to the same limit. Only allies at war with the other side join. The
//! battle code fights the joined stack as the acting nation's (its status, its leader); the
//! losses are shared out by unit type in proportion to what each nation brought (rounded in the
//! stack's nation's disfavour), and the ally's survivors stay where they stood: only the nation's
//! own survivors go on to the siege and into the province. What the Area level leaves out: a
//! province has one owner, so shared provinces (their control, the equal split of their income
//! and VP, their separation when the alliance ends) do not arise.

use super::military::strongest;
use super::policy::Policy;
use super::politics::at_peace;
use super::state::{total, Units, NONE, NT};
use super::turn::Play;
use crate::rulesets::invasions::army::Status;

/// An ally's units in a joint battle: who and what.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Joined {
    /// The ally (`NONE` when nobody joined).
    pub ally: u8,
    /// The Area its units stand in.
    pub area: u8,
    pub units: Units,
}

impl Joined {
    pub const NOBODY: Joined = Joined {
        ally: NONE,
        area: NONE,
        units: [0; NT],
    };

    /// `own` with the ally's units added.
    pub fn with(&self, own: &Units) -> Units {
        let mut all = *own;
        for k in 0..NT {
            all[k] += self.units[k];
        }
        all
    }
}

/// Splits a joint stack's survivors: each type's losses shared in proportion to what the ally
/// (`ally`) and the nation (`own`) brought, the ally's share rounded down. Returns the survivors
/// of each: (own, ally).
pub fn split_survivors(own: &Units, ally: &Units, survivors: &Units) -> (Units, Units) {
    let (mut mine, mut theirs) = (*own, *ally);
    for k in 0..NT {
        let sent = own[k] as u32 + ally[k] as u32;
        if sent == 0 {
            continue;
        }
        let lost = sent.saturating_sub(survivors[k] as u32);
        let ally_lost = lost * ally[k] as u32 / sent;
        theirs[k] -= ally_lost as u8;
        mine[k] -= (lost - ally_lost) as u8;
    }
    (mine, theirs)
}

impl Play<'_> {
    /// The ally of `n` whose units in Area `a` join a battle against `enemy`: the first alliance
    /// partner at war with `enemy` that has units there beyond what it keeps (`keep_own` asks it
    /// to keep its garrison).
    fn joining_ally(
        &self,
        n: usize,
        a: usize,
        enemy: usize,
        keep_own: bool,
    ) -> Option<(usize, u32)> {
        let st = &self.st;
        for i in 0..st.alliance_count as usize {
            let (x, y) = st.alliances[i];
            let ally = if x as usize == n {
                y as usize
            } else if y as usize == n {
                x as usize
            } else {
                continue;
            };
            if ally == enemy
                || !super::alliances::allied(st, n, ally)
                || at_peace(st, ally, enemy)
                || self.game.inactive[ally]
            {
                continue;
            }
            let keep = if !keep_own {
                0
            } else if st.status(ally) == Some(Status::Barbarian) {
                1
            } else {
                match self.policy(ally) {
                    Policy::Scripted(p) => p.garrison as u32,
                    Policy::Random => 1,
                }
            };
            let spare = st.count(ally, a).saturating_sub(keep);
            if spare > 0 {
                return Some((ally, spare));
            }
        }
        None
    }

    /// The allies' units joining `n`'s `attackers` leaving Area `from` for province `p`, up to
    /// its stacking limit (XVII).
    pub fn join_attack(
        &self,
        n: usize,
        from: usize,
        p: usize,
        attackers: &Units,
        invading: bool,
    ) -> Joined {
        let o = self.st.owner[p];
        if self.st.alliance_count == 0 || o == NONE {
            return Joined::NOBODY;
        }
        let Some((ally, spare)) = self.joining_ally(n, from, o as usize, true) else {
            return Joined::NOBODY;
        };
        let room = (self.limit(p, invading) + self.leader_stacking(n, from))
            .saturating_sub(total(attackers));
        self.joined(ally, from, spare.min(room))
    }

    /// The allies' units in province `p`'s Area joining its owner's `defenders` against `n`, up
    /// to its stacking limit.
    pub fn join_defence(&self, n: usize, p: usize, defenders: &Units) -> Joined {
        let o = self.st.owner[p];
        if self.st.alliance_count == 0 || o == NONE {
            return Joined::NOBODY;
        }
        let o = o as usize;
        let a = self.game.scenario.provinces[p].area as usize;
        let Some((ally, spare)) = self.joining_ally(o, a, n, false) else {
            return Joined::NOBODY;
        };
        let room =
            (self.limit(p, false) + self.leader_stacking(o, a)).saturating_sub(total(defenders));
        self.joined(ally, a, spare.min(room))
    }

    fn joined(&self, ally: usize, a: usize, count: u32) -> Joined {
        if count == 0 {
            return Joined::NOBODY;
        }
        Joined {
            ally: ally as u8,
            area: a as u8,
            units: strongest(self.st.at(ally, a), count),
        }
    }

    /// After a battle whose sides `joined` (attacker's, defender's allies) fought beside the two
    /// nations' own units `own`: each ally's share of the losses leaves its units (and the game);
    /// returns each nation's own survivors out of the sides' `survivors`.
    pub fn settle_joint_battle(
        &mut self,
        joined: [&Joined; 2],
        own: [&Units; 2],
        survivors: [Units; 2],
    ) -> [Units; 2] {
        let mut out = survivors;
        for side in 0..2 {
            let j = joined[side];
            if j.ally == NONE {
                continue;
            }
            let (mine, theirs) = split_survivors(own[side], &j.units, &survivors[side]);
            let mut u = self.st.at_mut(j.ally as usize, j.area as usize);
            let mut lost = 0i64;
            for k in 0..NT {
                u[k] -= j.units[k] - theirs[k];
                lost += (j.units[k] - theirs[k]) as i64;
            }
            drop(u);
            self.st.ledger.units_out += lost;
            out[side] = mine;
        }
        if joined[0].ally != NONE || joined[1].ally != NONE {
            self.st.counters.joint_battles += 1;
        }
        out
    }
}
