//! Leaders (III.C, IX.D) and campaigns (XXII) at the Area level. Who arrives when, and with which
//! ratings, is on the Time Track, which the text lacks: abstraction.toml `[leaders]` holds a
//! labelled placeholder (each status's intrinsic leader, and historical leaders by nation and
//! turn). What the text gives is played: a nation's leader is placed in its Reinforcements step
//! with its main stack (a Barbarian's with the horde), historical leaders leave after their turns
//! and an intrinsic one returns the turn after it falls; the leader's combat bonus is the battle
//! code's `leader` input (rerolls, option, tie-break), its death the battle code's settlement
//! (a wiped-out stack's D2, the Decline assassination D10); he adds his combat bonus as siege,
//! suppression and flight rerolls or modifiers, his stacking bonus to the stacks he leads, his
//! administration and diplomacy bonuses to the cards drawn, and campaigns after the stacks step.

use super::battles::Fighter;
use super::files::{AbstractionFile, RatingRow};
use super::load::{Index, Loader};
use super::load_abstraction::{status, turn};
use super::policy::Policy;
use super::state::{NONE, NO_PROVINCE};
use super::turn::Play;
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// A leader's printed ratings (III.C): combat bonus (rerolls), stacking bonus, administration
/// and diplomacy bonuses (cards drawn), campaign value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rating {
    pub combat: u8,
    pub stacking: u8,
    pub administration: u8,
    pub diplomacy: u8,
    pub campaign: u8,
}

/// A historical leader: his nation, the turns he is in play (one or two, III.C) and ratings.
#[derive(Clone, Debug)]
pub struct Historical {
    pub nation: u8,
    pub name: String,
    pub from: u8,
    pub to: u8,
    pub rating: Rating,
}

/// Most historical leaders a scenario may list (the dead ones are a bit set).
pub const MAX_HISTORICAL: usize = 128;

/// The scenario's leaders; empty (no leaders at all) when the abstraction has no `[leaders]`.
#[derive(Clone, Debug, Default)]
pub struct Leaders {
    /// The intrinsic leader of a nation of each status, indexed by [`status_index`].
    pub intrinsic: [Option<Rating>; 3],
    pub historical: Vec<Historical>,
}

impl Leaders {
    pub fn any(&self) -> bool {
        self.intrinsic.iter().any(Option::is_some) || !self.historical.is_empty()
    }
}

pub fn status_index(s: Status) -> usize {
    match s {
        Status::Barbarian => 0,
        Status::Kingdom => 1,
        Status::Empire => 2,
    }
}

/// The leader a nation has in play this turn: one (digest Q8: one commanding leader a side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InPlay {
    pub rating: Rating,
    /// The Area he stands in, `NONE` when the nation has no leader in play.
    pub area: u8,
    /// His row in [`Leaders::historical`], `NONE` for the intrinsic leader.
    pub historical: u8,
}

impl InPlay {
    pub const NONE: InPlay = InPlay {
        rating: Rating {
            combat: 0,
            stacking: 0,
            administration: 0,
            diplomacy: 0,
            campaign: 0,
        },
        area: NONE,
        historical: NONE,
    };
}

fn rating(file: &str, field: &str, r: &RatingRow) -> Result<Rating> {
    for (name, value, max) in [
        ("combat", r.combat, 3),
        ("stacking", r.stacking, 3),
        ("administration", r.administration, 3),
        ("diplomacy", r.diplomacy, 2),
        ("campaign", r.campaign, 3),
    ] {
        if value > max {
            return Err(AleaError::input(
                file,
                format!("{field}.{name}"),
                value,
                format!("0..={max} (III.C)"),
            ));
        }
    }
    Ok(Rating {
        combat: r.combat,
        stacking: r.stacking,
        administration: r.administration,
        diplomacy: r.diplomacy,
        campaign: r.campaign,
    })
}

/// One siege attempt (XXIV.C): a D10 + `m` ≥ 7 takes the city, the leader's `rerolls` rolling
/// again after each failure. Returns (the last roll, the city falls).
pub fn siege_attempt(m: i32, rerolls: u8, dice: &mut Dice) -> (i32, bool) {
    let mut roll = 0;
    for _ in 0..=rerolls {
        roll = dice.d10() as i32;
        if crate::rulesets::invasions::siege::best_of(m, &[roll as u32]).1 {
            return (roll, true);
        }
    }
    (roll, false)
}

impl Loader<'_> {
    /// `[leaders]`: the intrinsic leader of each status and the historical leaders by turn.
    pub(super) fn leaders(&mut self, ab: &AbstractionFile, turns: u8) -> Result<Leaders> {
        let Some(l) = &ab.leaders else {
            return Ok(Leaders::default());
        };
        self.stand_in("leaders", &l.provenance, &l.why)?;
        let mut out = Leaders::default();
        for (name, r) in &l.intrinsic {
            let field = format!("leaders.intrinsic.{name}");
            let s = status(self.ab, field.clone(), name)?;
            out.intrinsic[status_index(s)] = Some(rating(self.ab, &field, r)?);
        }
        let keys = Index::new(
            self.ab,
            "a nation of [entry]",
            ab.entry.rows.iter().map(|r| r.nation.as_str()),
            |i| format!("entry.rows[{i}].nation"),
        )?;
        if l.rows.len() > MAX_HISTORICAL {
            return Err(AleaError::input(
                self.ab,
                "leaders.rows",
                l.rows.len(),
                format!("at most {MAX_HISTORICAL} historical leaders"),
            ));
        }
        for (i, row) in l.rows.iter().enumerate() {
            let field = format!("leaders.rows[{i}]");
            self.row_stand_in(&field, &row.name, &row.provenance, &row.why)?;
            let nation = keys.get(self.ab, format!("{field}.nation"), &row.nation)? as u8;
            let (from, to) = match row.turns[..] {
                [t] => (t, t),
                [a, b] if b == a + 1 => (a, b),
                _ => {
                    let allowed = "one turn or two consecutive turns (historical leaders stay at most 2 turns, III.C)";
                    return Err(AleaError::input(
                        self.ab,
                        format!("{field}.turns"),
                        format!("{:?}", row.turns),
                        allowed,
                    ));
                }
            };
            turn(self.ab, format!("{field}.turns"), from, turns)?;
            turn(self.ab, format!("{field}.turns"), to, turns)?;
            let r = RatingRow {
                combat: row.combat,
                stacking: row.stacking,
                administration: row.administration,
                diplomacy: row.diplomacy,
                campaign: row.campaign,
            };
            out.historical.push(Historical {
                nation,
                name: row.name.clone(),
                from,
                to,
                rating: rating(self.ab, &field, &r)?,
            });
        }
        Ok(out)
    }
}

impl Play<'_> {
    /// 1.B: each nation's leader for the turn. A historical leader of the Time Track for this turn
    /// (not fallen) comes first, else the status's intrinsic leader (which returns the turn after
    /// it falls, IX.D); he is placed with the horde (a Barbarian) or in the Area where the nation
    /// has most units (a Civilized nation places him freely: its main army).
    pub fn place_leaders(&mut self, log: &mut dyn GameLog) {
        let g = self.game;
        let leaders = &g.scenario.leaders;
        if !leaders.any() {
            return;
        }
        let turn = self.st.turn;
        for n in 0..self.st.nations.len() {
            let mut placed = InPlay::NONE;
            if let (Some(status), false) = (self.st.status(n), g.inactive[n]) {
                if let Some(a) = self.leader_home(n, status) {
                    let dead = self.st.dead_leaders;
                    let historical = leaders
                        .historical
                        .iter()
                        .position(|h| h.nation as usize == n && h.from <= turn && turn <= h.to);
                    let historical = historical.filter(|&i| dead & (1 << i) == 0);
                    let rating = match historical {
                        Some(i) => Some(leaders.historical[i].rating),
                        None => leaders.intrinsic[status_index(status)],
                    };
                    if let Some(rating) = rating {
                        placed = InPlay {
                            rating,
                            area: a as u8,
                            historical: historical.map_or(NONE, |i| i as u8),
                        };
                        if let Some(i) = historical.filter(|&i| leaders.historical[i].from == turn)
                        {
                            game_log!(
                                log,
                                "{} leads {} in {}",
                                leaders.historical[i].name,
                                g.name(n),
                                g.scenario.areas[a].name
                            );
                        }
                    }
                }
            }
            self.st.nations[n].leader = placed;
        }
    }

    /// Where nation `n`'s leader stands when placed: with the horde, else with the most units
    /// (the capital's Area on ties and when it has no unit on the map); `None` off the map.
    fn leader_home(&self, n: usize, status: Status) -> Option<usize> {
        let s = &self.game.scenario;
        let ns = &self.st.nations[n];
        if status == Status::Barbarian || ns.capital == NO_PROVINCE {
            return (ns.horde != NO_PROVINCE).then(|| s.provinces[ns.horde as usize].area as usize);
        }
        let capital = s.provinces[ns.capital as usize].area as usize;
        // An Area without units never beats the capital's (the tie goes to it): only the Areas
        // with units (the running totals) and the capital's are weighed. Every key differs, so
        // the pick is the one a scan of every Area makes.
        let mut areas = self.st.totals.unit_areas[n] | 1 << capital;
        std::iter::from_fn(|| {
            (areas != 0).then(|| {
                let a = areas.trailing_zeros() as usize;
                areas &= areas - 1;
                a
            })
        })
        .max_by_key(|&a| (self.st.count(n, a), a == capital, std::cmp::Reverse(a)))
    }

    /// Nation `n`'s leader if he stands in Area `a`.
    pub fn leader_in(&self, n: usize, a: usize) -> Option<Rating> {
        let l = &self.st.nations[n].leader;
        (l.area as usize == a).then_some(l.rating)
    }

    /// Nation `n`'s leader wherever he is (the Empire test, the cards drawn).
    pub fn leader_of(&self, n: usize) -> Option<Rating> {
        let l = &self.st.nations[n].leader;
        (l.area != NONE).then_some(l.rating)
    }

    /// The stacking bonus of `n`'s leader in Area `a` (XVII), 0 without one.
    pub fn leader_stacking(&self, n: usize, a: usize) -> u32 {
        self.leader_in(n, a).map_or(0, |r| r.stacking as u32)
    }

    /// `f` (nation `n`'s units in Area `a`) with the leader there: his combat bonus, and Decline
    /// (the winner's assassination roll) for an Empire in Decline; without a leader Decline
    /// changes nothing in the battle, so it is left out and such battles share one model.
    pub fn led(&self, mut f: Fighter, n: usize, a: usize) -> Fighter {
        if let Some(r) = self.leader_in(n, a) {
            f.leader = Some(r.combat);
            f.decline = f.status == Status::Empire
                && self.st.nations[n].decline != super::procedures::Decline::None;
        }
        f
    }

    /// Nation `n`'s leader falls (a battle, a failed suppression): a historical one for good, the
    /// intrinsic one until the next Reinforcements (IX.D, XX.J).
    pub fn leader_falls(&mut self, n: usize, log: &mut dyn GameLog) {
        let g = self.game;
        let l = self.st.nations[n].leader;
        if l.area == NONE {
            return;
        }
        if l.historical != NONE {
            self.st.dead_leaders |= 1 << l.historical;
            game_log!(
                log,
                "{} of {} falls",
                g.scenario.leaders.historical[l.historical as usize].name,
                g.name(n)
            );
        } else {
            game_log!(log, "the leader of {} falls", g.name(n));
        }
        self.st.nations[n].leader = InPlay::NONE;
        self.st.counters.leaders_killed += 1;
    }

    /// After a battle: each side's leader dies with the battle code's settled probability
    /// (a D2 for a wiped-out stack, the D10 of a winning Empire in Decline), drawn here.
    pub fn leaders_after_battle(
        &mut self,
        sides: [(usize, usize); 2],
        death: [f64; 2],
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        for (s, &(n, a)) in sides.iter().enumerate() {
            if death[s] > 0.0 && self.leader_in(n, a).is_some() && dice.chance(death[s]) {
                self.leader_falls(n, log);
            }
        }
    }

    /// The leader follows his stack from Area `from` to Area `to`.
    pub fn leader_moves(&mut self, n: usize, from: usize, to: usize) {
        let l = &mut self.st.nations[n].leader;
        if l.area as usize == from {
            l.area = to as u8;
        }
    }

    /// Cards a Civilized nation draws in step 1.D (XXX.A): an Empire 1 + its leader's diplomacy
    /// bonus, a Kingdom its leader's bonus; nothing for a Barbarian.
    pub fn diplomacy_draws(&self, n: usize) -> u8 {
        let bonus = self.leader_of(n).map_or(0, |r| r.diplomacy);
        match self.st.status(n) {
            Some(Status::Empire) => 1 + bonus,
            Some(Status::Kingdom) => bonus,
            _ => 0,
        }
    }

    /// 3.A(b) Campaigns (XXII): after the stacks step, the leader campaigns up to his campaign
    /// value: his stack (the units of his Area, above the policy's garrison for a Civilized
    /// nation) chooses a target as in the stacks step and attacks again, the leader going with
    /// it; the horde never campaigns. Stops at the first campaign with no target worth it.
    pub fn campaigns(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let Some(r) = self.leader_of(n) else { return };
        let g = self.game;
        let nation = &g.scenario.nations[n];
        let turn = self.st.turn;
        let barbarian = self.st.status(n) == Some(Status::Barbarian);
        // The invasion's +1 stacking lasts through the campaigns (XVIII.H).
        let invading = barbarian && (nation.entry_turn == turn || nation.active_from == turn);
        let keep = match (barbarian, self.policy(n)) {
            (true, _) => 0,
            (false, Policy::Scripted(p)) => p.garrison as u32,
            (false, Policy::Random) => dice.below(4) as u32,
        };
        for _ in 0..r.campaign {
            let l = self.st.nations[n].leader;
            if l.area == NONE || self.st.status(n).is_none() {
                return;
            }
            let Some(t) = self.choose(n, l.area as usize, invading, keep, dice) else {
                return;
            };
            self.st.counters.campaigns += 1;
            game_log!(log, "{} campaigns", g.name(n));
            self.attack(n, t, invading, dice, log);
        }
    }
}
