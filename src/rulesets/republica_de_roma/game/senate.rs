//! Phase V, the Senate (L475-L713), decided the way the rulebook automates it for the solitaire
//! and 2-player game (§IV, L1269-L1343; digest §5.7): the Ruling Coalition, whose factions share
//! the offices, governorships and concessions in vote order, each giving it to its lowest-Influence
//! eligible senator; the military strategy it then orders is [`super::strategy`].
//! Prosecutions are the Censor's faction's choice (there are none in the solitaire rules, L1271).
//!
//! What the lists leave to the Dominant player (L1234: the coalition's faction with the most
//! votes) is decided by the numbers of `[game.senate]` ([`super::SenateParams`]): the Treasury
//! reserve kept from recruitment, the surplus share and modifier cap of a Proportional Army, the
//! peace footing, the recruitment when the strategy cannot be carried out (L1315), and the
//! reinforcement of proconsuls.

use super::policy::Style;
use super::search::Directive;
use super::state::*;
use super::turn::Game;
use crate::game_log;

/// The army's `war` when it marches against the rebel.
pub const REBEL_WAR: u8 = 254;

/// The coalition list of L1275-L1289 by vote rank (1 = most votes), the duplicate "1st and 5th"
/// dropped; "all Neutrals" is every faction.
const COALITIONS: &[&[usize]] = &[
    &[1],
    &[1, 5],
    &[2, 4],
    &[2, 3],
    &[3, 4, 5],
    &[1, 4],
    &[1, 3],
    &[1, 2],
];

/// Votes needed for a majority of `total` (L1273, T16).
pub fn majority(total: i32) -> i32 {
    total / 2 + 1
}

/// The Ruling Coalition (L1273-L1289): factions ranked by votes in Rome (ties: the richer), the
/// first combination of the list that reaches a majority. Returns a bit mask of factions and the
/// ranking (most votes first).
pub fn ruling_coalition(
    votes: &[i32; FACTIONS],
    money: &[i32; FACTIONS],
) -> (u8, [usize; FACTIONS]) {
    let mut order = [0, 1, 2, 3, 4];
    order.sort_by_key(|&f| (std::cmp::Reverse(votes[f]), std::cmp::Reverse(money[f]), f));
    let total: i32 = votes.iter().sum();
    let need = majority(total);
    for combo in COALITIONS {
        let sum: i32 = combo.iter().map(|&r| votes[order[r - 1]]).sum();
        if sum >= need {
            let mask = combo.iter().fold(0u8, |m, &r| m | 1 << order[r - 1]);
            return (mask, order);
        }
    }
    (0b11111, order)
}

/// The Rebellion test of the Neutral factions (L1357-L1359, T17), scaled by `aggression`
/// (1 = as written; 0 = never): (pays for the loyalty rolls, may rebel at all).
/// `legions` under command, `loyal` veterans loyal to him among them, `total` legions in existence,
/// `money` his personal plus his faction's treasury, `threshold` the era's 1d6 result needed.
pub fn rebellion_plan(
    legions: u32,
    loyal: u32,
    total: u32,
    money: i32,
    threshold: u32,
    aggression: f64,
) -> (bool, bool) {
    if aggression <= 0.0 || legions == 0 {
        return (false, false);
    }
    // (A) 3 T per legion under command.
    let may = money as f64 >= 3.0 * legions as f64 / aggression;
    if !may {
        return (false, false);
    }
    // (B) pay 1 T a legion only if the expected followers then make a majority of all legions.
    let p_paid = (7.0 - (threshold as f64 - 1.0)).clamp(0.0, 6.0) / 6.0;
    let expected = loyal as f64 + (legions - loyal) as f64 * p_paid;
    let pays = expected > total as f64 / 2.0 && money >= (legions - loyal) as i32;
    (pays, true)
}

/// (C): rebels when the legions that follow are at least 60% of all legions (L1359).
pub fn rebels_with(followers: u32, total: u32, aggression: f64) -> bool {
    aggression > 0.0 && followers as f64 >= 0.6 * total as f64 / aggression
}

impl Game<'_> {
    /// The whole Senate phase at once (the game stops between its halves only for a searcher).
    #[cfg(test)]
    pub fn senate(&mut self) {
        self.senate_sits();
        self.senate_decides();
    }

    /// The Senate's opening: repopulation, the Ruling Coalition, the Dominant player and the
    /// elections. The Senate is then in session ([`State::in_senate`]) until
    /// [`Self::senate_decides`], which takes the rest of its business.
    pub(super) fn senate_sits(&mut self) {
        self.repopulate();
        let votes: [i32; FACTIONS] = std::array::from_fn(|f| self.s.faction_votes(f));
        let money: [i32; FACTIONS] = std::array::from_fn(|f| self.s.faction_money(f));
        let (coalition, order) = ruling_coalition(&votes, &money);
        let members: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&f| coalition & (1 << f) != 0)
            .collect();
        let crisis = self.crisis();
        // The Dominant player (L1234): the coalition's faction with the most votes; he takes the
        // Senate's decisions the strategy lists leave open (L1311, L1315).
        self.s.dominant = members.first().map_or(order[0], |&f| f) as u8;
        game_log!(
            self.log,
            "  Senate: votes {:?}; Ruling Coalition {}; {}",
            votes,
            members
                .iter()
                .map(|f| format!("F{}", f + 1))
                .collect::<Vec<_>>()
                .join("+"),
            if crisis { "CRISIS" } else { "normal" }
        );
        self.elect_offices(&members, crisis);
        self.s.senate_members[..members.len()].copy_from_slice(&members);
        self.s.senate_len = members.len() as u8;
        self.s.senate_crisis = crisis;
        self.s.in_senate = true;
    }

    /// The Senate's business after the elections: prosecutions, governors, concessions, land
    /// bills, the military strategy, ransoms and adjournment.
    pub(super) fn senate_decides(&mut self) {
        self.s.in_senate = false;
        let all = self.s.senate_members;
        let members = &all[..self.s.senate_len as usize];
        let crisis = self.s.senate_crisis;
        self.prosecutions(members);
        if self.over() {
            return;
        }
        self.assign_governors(members);
        self.award_concessions(members);
        self.land_bill(members);
        self.military(crisis);
        self.elected_dictator(members);
        self.ransoms();
        self.new_alliance();
        self.adjourn();
        self.check_influence_35();
    }

    /// Senate repopulation (L695-L697, A-61): fewer than 8 aligned senators in Rome.
    fn repopulate(&mut self) {
        loop {
            let in_rome = self.s.senators.iter().filter(|s| s.in_rome()).count();
            if in_rome >= 8 {
                return;
            }
            let pick = (0..self.s.senators.len())
                .find(|&i| self.s.senators[i].place == Place::Curia)
                .or_else(|| {
                    (0..self.s.senators.len()).find(|&i| self.s.senators[i].place == Place::Forum)
                });
            let Some(i) = pick else { return };
            let f = (0..FACTIONS)
                .filter(|&f| self.s.factions[f].alive)
                .min_by_key(|&f| (self.s.faction_members(f), f))
                .unwrap_or(0);
            if self.s.senators[i].place == Place::Curia {
                self.reset_senator(i);
            }
            self.s.senators[i].place = Place::Faction(f as u8);
            self.s.senators[i].at = At::Rome;
            game_log!(
                self.log,
                "  repopulation: {} joins Faction {}",
                self.name(i),
                f + 1
            );
        }
    }

    /// Crisis (L1291-L1293): 3+ Active wars, a war stronger than 15, or a rebel.
    pub fn crisis(&self) -> bool {
        if self.s.active_wars() >= 3 || self.s.rebel != NONE {
            return true;
        }
        (0..self.m.cards.wars.len()).any(|w| {
            self.s.wars[w].status == WarStatus::Active && {
                let (l, n) = self.strength(w);
                l.max(n) > 15
            }
        })
    }

    /// A Dictator may be named (L557, A-23, A-51): 3+ Active wars or one with land + naval ≥ 20.
    pub fn dictator_allowed(&self) -> bool {
        if self.s.active_wars() >= 3 {
            return true;
        }
        (0..self.m.cards.wars.len()).any(|w| {
            self.s.wars[w].status == WarStatus::Active && {
                let c = &self.m.cards.wars[w];
                if self.m.rules.dictator_printed_strength {
                    c.land
                        + if self.s.wars[w].naval_victory {
                            0
                        } else {
                            c.naval
                        }
                        >= 20
                } else {
                    let (l, n) = self.strength(w);
                    l + n >= 20
                }
            }
        })
    }

    fn eligible_for_office(&self, i: usize) -> bool {
        let s = &self.s.senators[i];
        s.in_rome() && matches!(s.office, Office::None | Office::Censor)
    }

    /// The lowest-Influence senator of faction `f` passing `ok` (ties: lower id).
    fn lowest_influence(&self, f: Option<usize>, ok: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.s.senators.len())
            .filter(|&i| f.is_none_or(|f| self.s.senators[i].faction() == Some(f)) && ok(i))
            .min_by_key(|&i| (self.s.senators[i].inf, i))
    }

    /// Gives an item to the coalition factions in turn (round robin from `turn`), the taker's
    /// lowest-Influence eligible senator; outside the coalition when none of it is eligible.
    fn give(
        &self,
        members: &[usize],
        turn: &mut usize,
        ok: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        for k in 0..members.len() {
            let f = members[(*turn + k) % members.len()];
            if let Some(i) = self.lowest_influence(Some(f), &ok) {
                *turn = (*turn + k + 1) % members.len();
                return Some(i);
            }
        }
        self.lowest_influence(None, &ok)
    }

    pub(super) fn elect_offices(&mut self, members: &[usize], crisis: bool) {
        // Outgoing consuls take a Consular token; the Dictator's term ends with the elections.
        for s in self.s.senators.iter_mut() {
            if matches!(
                s.office,
                Office::RomeConsul | Office::FieldConsul | Office::Dictator
            ) {
                s.consular = true;
            }
        }
        let tradition = self.s.law(self.m.cards.tradition_erodes);
        let was: Vec<bool> = self
            .s
            .senators
            .iter()
            .map(|s| {
                matches!(
                    s.office,
                    Office::RomeConsul | Office::FieldConsul | Office::Dictator
                ) && !tradition
            })
            .collect();
        for s in self.s.senators.iter_mut() {
            if matches!(
                s.office,
                Office::RomeConsul | Office::FieldConsul | Office::Dictator | Office::MasterOfHorse
            ) && s.in_rome()
            {
                s.office = Office::None;
            } else if matches!(
                s.office,
                Office::RomeConsul | Office::FieldConsul | Office::Dictator | Office::MasterOfHorse
            ) {
                // A proconsul keeps his army but not the office.
                s.office = Office::None;
            }
        }
        // Crisis offices first (L1317): the highest MIL is Dictator, the next Master of Horse.
        if crisis && self.dictator_allowed() {
            let by_mil = |g: &Self, skip: usize| {
                (0..g.s.senators.len())
                    .filter(|&i| i != skip && g.eligible_for_office(i))
                    .max_by_key(|&i| {
                        (
                            g.s.senators[i].mil,
                            std::cmp::Reverse(g.s.senators[i].inf),
                            std::cmp::Reverse(i),
                        )
                    })
            };
            if let Some(d) = by_mil(self, usize::MAX) {
                self.s.senators[d].office = Office::Dictator;
                self.gain_influence(d, 7);
                game_log!(self.log, "  {} is named Dictator (+7)", self.name(d));
                if let Some(h) = by_mil(self, d) {
                    self.s.senators[h].office = Office::MasterOfHorse;
                    self.gain_influence(h, 3);
                    game_log!(self.log, "  {} is Master of Horse (+3)", self.name(h));
                }
            }
        }
        // In a Crisis only each faction's highest-MIL remaining senator may stand (L1317).
        let mut best_mil = [NONE; FACTIONS];
        for f in 0..FACTIONS {
            best_mil[f] = (0..self.s.senators.len())
                .filter(|&i| {
                    self.s.senators[i].faction() == Some(f)
                        && self.eligible_for_office(i)
                        && !was[i]
                })
                .max_by_key(|&i| {
                    (
                        self.s.senators[i].mil,
                        std::cmp::Reverse(self.s.senators[i].inf),
                    )
                })
                .map_or(NONE, |i| i as u8);
        }
        let consul_ok = |g: &Self, i: usize| {
            g.eligible_for_office(i)
                && g.s.senators[i].office == Office::None
                && !was[i]
                && (!crisis || best_mil[g.s.senators[i].faction().unwrap_or(0)] == i as u8)
        };
        let mut turn = 0;
        let unrest = self.s.unrest;
        let rome = self
            .give(members, &mut turn, |i| {
                consul_ok(self, i) && self.s.senators[i].pop >= unrest
            })
            .or_else(|| {
                (0..self.s.senators.len())
                    .filter(|&i| {
                        consul_ok(self, i)
                            && self.s.senators[i]
                                .faction()
                                .is_some_and(|f| members.contains(&f))
                    })
                    .max_by_key(|&i| (self.s.senators[i].pop, std::cmp::Reverse(i)))
            })
            .or_else(|| self.lowest_influence(None, |i| consul_ok(self, i)));
        if let Some(r) = rome {
            self.s.senators[r].office = Office::RomeConsul;
            self.gain_influence(r, 5);
        }
        let field = self.give(members, &mut turn, |i| {
            consul_ok(self, i) && self.s.senators[i].office == Office::None
        });
        if let Some(fc) = field {
            self.s.senators[fc].office = Office::FieldConsul;
            self.gain_influence(fc, 5);
        }
        if self.log.on() {
            let n = |g: &Self, x: Option<usize>| x.map_or("nobody".to_string(), |i| g.name(i));
            game_log!(
                self.log,
                "  consuls: Rome {}, Field {} (+5 each)",
                n(self, rome),
                n(self, field)
            );
        }
        // The Censor (L575-L577): a consular senator without a Major Office; any if none.
        let old = self.s.office(Office::Censor);
        if old != NONE {
            self.s.senators[old as usize].office = Office::None;
        }
        let censor_ok = |g: &Self, i: usize, consular: bool| {
            let s = &g.s.senators[i];
            s.in_rome() && s.office == Office::None && (!consular || s.consular)
        };
        let censor = self
            .give(members, &mut turn, |i| censor_ok(self, i, true))
            .or_else(|| self.give(members, &mut turn, |i| censor_ok(self, i, false)));
        if let Some(c) = censor {
            self.s.senators[c].office = Office::Censor;
            self.gain_influence(c, 5);
            game_log!(self.log, "  {} is Censor (+5)", self.name(c));
        }
    }

    // ---- prosecutions (L579-L605) ----

    fn prosecutions(&mut self, members: &[usize]) {
        let censor = self.s.office(Office::Censor);
        if self.m.rules.prosecutions && censor != NONE {
            let cf = self.s.senators[censor as usize].faction().unwrap_or(0);
            let pol = self.policy(cf);
            // A searcher's Censor may have named whom he accuses first.
            let mut named = match self.s.senate_directives[cf] {
                Directive::Accuse(t) if self.may_accuse(cf, t as usize) => Some(t as usize),
                _ => None,
            };
            let mut trials = 0;
            while trials < 2 && (named.is_some() || self.dice.chance(pol.prosecute)) {
                let target = named.take().or_else(|| {
                    (0..self.s.senators.len())
                        .filter(|&i| self.may_accuse(cf, i))
                        .max_by_key(|&i| (self.s.senators[i].inf, i))
                });
                let prosecutor = (0..self.s.senators.len())
                    .filter(|&i| {
                        self.s.senators[i].faction() == Some(cf)
                            && self.s.senators[i].in_rome()
                            && i != censor as usize
                    })
                    .max_by_key(|&i| (self.s.senators[i].ora, i));
                let (Some(t), Some(p)) = (target, prosecutor) else {
                    break;
                };
                let major = self.s.senators[t].major
                    && pol.style != Style::Cooperative
                    && self.dice.chance(0.5);
                self.trial(t, p, major, cf, members);
                trials += if major { 2 } else { 1 };
                if self.over() {
                    return;
                }
            }
        }
        // Tokens leave senators in Rome; corruption bars are hidden again (L605).
        for s in self.s.senators.iter_mut() {
            if s.in_rome() {
                s.corrupt = false;
                s.major = false;
            }
            s.bar = false;
        }
    }

    /// Whether the Censor (of faction `cf`) may prosecute senator `i`: a rival in Rome who can be
    /// tried (a Corrupt or Major token, or a corruption bar).
    pub(super) fn may_accuse(&self, cf: usize, i: usize) -> bool {
        let s = &self.s.senators[i];
        s.in_rome()
            && s.faction() != Some(cf)
            && (s.corrupt || s.major || s.bar)
            && i != self.s.office(Office::Censor) as usize
    }

    /// `[game.senate]` as this turn's Dominant player plays it: a searcher may have chosen to
    /// raise more or fewer units than the numbers say.
    pub(super) fn senate_params(&self) -> super::SenateParams {
        let p = self.m.senate;
        match self.s.senate_directives[self.s.dominant as usize] {
            // Every unit the Treasury can pay for, and the whole surplus with each army.
            Directive::RaiseMore => super::SenateParams {
                reserve: 0,
                surplus_share: 1.0,
                shortfall_recruit: 1.0,
                reinforce_share: 1.0,
                ..p
            },
            // Twice the reserve kept, nothing raised beyond the strategy's own armies.
            Directive::RaiseLess => super::SenateParams {
                reserve: 2 * p.reserve.max(25),
                shortfall_recruit: 0.0,
                ..p
            },
            _ => p,
        }
    }

    /// One trial: the prosecuting side (the Censor's faction and the coalition, the accused's
    /// faction apart) votes guilty; the accused adds his Influence and his Popular Appeal.
    pub fn trial(
        &mut self,
        accused: usize,
        prosecutor: usize,
        major: bool,
        censor_faction: usize,
        members: &[usize],
    ) -> bool {
        self.s.prosecutions += 1;
        let af = self.s.senators[accused].faction().unwrap_or(0);
        let mut guilty = 0;
        let mut innocent = self.s.senators[accused].inf;
        for f in 0..FACTIONS {
            let v = self.s.faction_votes(f);
            if f == af {
                innocent += v;
            } else if f == censor_faction || members.contains(&f) {
                guilty += v;
            }
        }
        let appeal = self.dice.d(6) as i32 + self.dice.d(6) as i32 + self.s.senators[accused].pop;
        let table = &self.m.cards.appeal;
        if appeal <= table.killed_max {
            game_log!(
                self.log,
                "  {} appeals to the people ({appeal}): the mob kills him",
                self.name(accused)
            );
            self.kill(accused, "the mob at his trial");
            return true;
        }
        if appeal >= table.freed_min {
            game_log!(
                self.log,
                "  {} appeals to the people ({appeal}): freed",
                self.name(accused)
            );
            let n = (appeal - 11).max(1) as u32;
            let k = self.draw_chits(n);
            let censor = self.s.office(Office::Censor);
            for j in 0..k {
                let i = self.s.chits[j];
                if i == prosecutor as u8 || i == censor {
                    self.kill(i as usize, "the mob after a trial");
                }
            }
            return false;
        }
        innocent += table.votes(appeal);
        let convicted = if self.m.rules.majority_of_present {
            2 * guilty > guilty + innocent.max(0)
        } else {
            guilty > innocent
        };
        game_log!(
            self.log,
            "  {} prosecutes {} ({}): guilty {guilty} vs innocent {innocent} → {}",
            self.name(prosecutor),
            self.name(accused),
            if major { "major" } else { "minor" },
            if convicted { "CONVICTED" } else { "acquitted" }
        );
        if convicted {
            self.convict(accused, prosecutor, major);
        }
        convicted
    }

    /// A conviction (L601-L603): minor −5 Popularity, −5 Influence, Consular token and concessions
    /// lost; major: executed. The Prosecutor gains the token and half the Influence lost, rounded up.
    pub fn convict(&mut self, accused: usize, prosecutor: usize, major: bool) {
        let inf = self.s.senators[accused].inf;
        let lost = if major { inf } else { inf.min(5) };
        self.gain_influence(prosecutor, (lost + 1) / 2);
        self.s.senators[prosecutor].consular = true;
        if major {
            self.kill(accused, "executed after a Major Prosecution");
        } else {
            self.gain_popularity(accused, -5);
            self.gain_influence(accused, -5);
            self.s.senators[accused].consular = false;
            for c in 0..self.s.concessions.len() {
                if self.s.concessions[c] == ConcessionStatus::Held(accused as u8) {
                    self.s.concessions[c] = ConcessionStatus::Forum;
                }
            }
        }
    }

    // ---- governors, concessions, land bills ----

    fn assign_governors(&mut self, members: &[usize]) {
        let mut vacant: Vec<usize> = (0..self.s.provinces.len())
            .filter(|&p| self.s.provinces[p].status == ProvinceStatus::Vacant)
            .collect();
        if vacant.is_empty() {
            return;
        }
        // Neutrals pick by spoils (L1335): the richest province first.
        vacant.sort_by_key(|&p| {
            let side = self.s.provinces[p].developed as usize;
            let r = self.m.cards.provinces[p].sides[side].spoils;
            std::cmp::Reverse(r.dice as i32 * (r.sides as i32 + 1) + 2 * r.plus as i32)
        });
        let mut turn = 0;
        for p in vacant {
            let ok = |g: &Self, i: usize, fresh: bool| {
                let s = &g.s.senators[i];
                s.in_rome() && s.office == Office::None && (!fresh || !s.back_this_turn)
            };
            // The eligible senator with the fewest votes (L1335).
            let mut pick = None;
            for k in 0..members.len() {
                let f = members[(turn + k) % members.len()];
                if let Some(i) = (0..self.s.senators.len())
                    .filter(|&i| self.s.senators[i].faction() == Some(f) && ok(self, i, true))
                    .min_by_key(|&i| (self.s.senators[i].votes(), i))
                {
                    pick = Some(i);
                    turn = (turn + k + 1) % members.len();
                    break;
                }
            }
            let pick = pick.or_else(|| {
                (0..self.s.senators.len())
                    .filter(|&i| ok(self, i, false))
                    .min_by_key(|&i| (self.s.senators[i].votes(), i))
            });
            let Some(i) = pick else { return };
            self.s.senators[i].at = At::Governor(p as u8);
            self.s.provinces[p].status = ProvinceStatus::Governed(i as u8);
            self.s.provinces[p].term = 3;
            game_log!(
                self.log,
                "  {} governs {}",
                self.name(i),
                self.m.cards.provinces[p].name
            );
        }
    }

    fn award_concessions(&mut self, members: &[usize]) {
        let bill_in_play = self.s.land_bills.iter().any(|&n| n > 0);
        let mut turn = 0;
        for c in 0..self.s.concessions.len() {
            if self.s.concessions[c] != ConcessionStatus::Forum {
                continue;
            }
            if self.m.cards.concessions[c].id == "land_commissioner" && !bill_in_play {
                continue;
            }
            let holders = |g: &Self, i: usize| {
                g.s.concessions
                    .iter()
                    .filter(|&&x| x == ConcessionStatus::Held(i as u8))
                    .count()
            };
            let mut pick = None;
            for k in 0..members.len() {
                let f = members[(turn + k) % members.len()];
                if let Some(i) = (0..self.s.senators.len())
                    .filter(|&i| {
                        self.s.senators[i].faction() == Some(f) && self.s.senators[i].in_rome()
                    })
                    .min_by_key(|&i| {
                        (
                            holders(self, i),
                            std::cmp::Reverse(self.s.senators[i].inf),
                            i,
                        )
                    })
                {
                    pick = Some(i);
                    turn = (turn + k + 1) % members.len();
                    break;
                }
            }
            if let Some(i) = pick {
                self.s.concessions[c] = ConcessionStatus::Held(i as u8);
                game_log!(
                    self.log,
                    "  {} receives {}",
                    self.name(i),
                    self.m.cards.concessions[c].name
                );
            }
        }
    }

    /// The mandatory Land Bill (L1339): the Dictator's (else the Rome Consul's) Popularity is
    /// below Unrest; he sponsors the highest type with a counter left.
    fn land_bill(&mut self, members: &[usize]) {
        let mut sponsor = self.s.office(Office::Dictator);
        if sponsor == NONE {
            sponsor = self.s.office(Office::RomeConsul);
        }
        if sponsor == NONE
            || self.s.senators[sponsor as usize].pop >= self.s.unrest
            || self.s.land_bill_passed_this_turn
        {
            return;
        }
        let bills = &self.m.cards.land_bills;
        let Some(t) = (0..3)
            .rev()
            .find(|&t| self.s.land_bills[t] < bills[t].counters)
        else {
            return;
        };
        let cosponsor = (0..self.s.senators.len())
            .filter(|&i| {
                i != sponsor as usize
                    && self.s.senators[i].in_rome()
                    && self.s.senators[i]
                        .faction()
                        .is_some_and(|f| members.contains(&f))
            })
            .max_by_key(|&i| (self.s.senators[i].pop, i));
        let Some(co) = cosponsor else { return };
        self.s.land_bills[t] += 1;
        self.s.land_bill_passed_this_turn = true;
        self.change_unrest(bills[t].unrest);
        self.gain_popularity(sponsor as usize, bills[t].sponsor_pop);
        self.gain_popularity(co, bills[t].cosponsor_pop);
        game_log!(
            self.log,
            "  land bill type {} passes: Unrest {:+}",
            ["I", "II", "III"][t],
            bills[t].unrest
        );
    }

    /// The elected Perpetual Dictator of the solitaire rules (L1331): a senator with 21+
    /// Influence in a single-faction coalition, unless the automatic assassination kills him.
    fn elected_dictator(&mut self, members: &[usize]) {
        if members.len() != 1 || self.s.perpetual_dictator != NONE || self.s.rebel != NONE {
            return;
        }
        let f = members[0];
        let Some(i) = (0..self.s.senators.len())
            .filter(|&i| {
                self.s.senators[i].faction() == Some(f)
                    && self.s.senators[i].in_rome()
                    && self.s.senators[i].inf >= 21
            })
            .max_by_key(|&i| (self.s.senators[i].inf, i))
        else {
            return;
        };
        let top = self
            .s
            .senators
            .iter()
            .enumerate()
            .all(|(j, s)| j == i || s.inf < self.s.senators[i].inf);
        if top && self.assassination(i) {
            return;
        }
        self.s.perpetual_dictator = i as u8;
        self.s.pd_elected = true;
        game_log!(self.log, "  {} is elected Perpetual Dictator", self.name(i));
    }

    /// The automatic assassination check (L1367): every other faction rolls 1d6 (+1 per Assassin
    /// card); the highest tries, on the Assassination table (≥ 5 killed, ≤ 2 caught).
    fn assassination(&mut self, target: usize) -> bool {
        let tf = self.s.senators[target].faction().unwrap_or(0);
        let assassin_kind = 1;
        let mut best = (0i32, NONE);
        for f in 0..FACTIONS {
            if f == tf || !self.s.factions[f].alive {
                continue;
            }
            let roll = self.dice.d(6) as i32 + self.s.factions[f].intrigue[assassin_kind] as i32;
            if roll > best.0 {
                best = (roll, f as u8);
            }
        }
        if best.1 == NONE {
            return false;
        }
        let f = best.1 as usize;
        let cards = self.s.factions[f].intrigue[assassin_kind] as i32;
        self.s.factions[f].intrigue[assassin_kind] = 0;
        let roll = self.dice.d(6) as i32 + cards;
        if roll >= 5 {
            game_log!(
                self.log,
                "  an assassin of Faction {} kills the would-be dictator",
                f + 1
            );
            self.kill(target, "assassinated");
            return true;
        }
        if roll <= 2 {
            game_log!(self.log, "  the assassin of Faction {} is caught", f + 1);
            if let Some(l) = (0..self.s.senators.len())
                .find(|&i| self.s.senators[i].faction() == Some(f) && self.s.senators[i].leader)
            {
                self.gain_influence(l, -5);
            }
        }
        false
    }

    /// Captives are ransomed by their faction when it can pay (L791).
    fn ransoms(&mut self) {
        for i in 0..self.s.senators.len() {
            let At::Captive(_) = self.s.senators[i].at else {
                continue;
            };
            let Some(f) = self.s.senators[i].faction() else {
                continue;
            };
            let price = super::super::battle::ransom(self.s.senators[i].inf.max(0) as u32) as i32;
            let can = self.s.senators[i].talents + self.s.factions[f].treasury >= price;
            let wants = match self.policy(f).style {
                Style::Random => self.dice.chance(0.5),
                _ => true,
            };
            if can && wants {
                let own = self.s.senators[i].talents.min(price);
                self.senator_spends(i, own);
                self.faction_spends(f, price - own);
                self.s.senators[i].at = At::Rome;
                game_log!(self.log, "  {} is ransomed for {price} T", self.name(i));
            }
        }
    }

    /// New Alliance at the end of the Senate phase (events.toml): the strongest Active war that is
    /// not a revolt sues for peace: half its spoils and back into the top 6 cards (dark side:
    /// discarded with full spoils and its provinces).
    fn new_alliance(&mut self) {
        let side = std::mem::take(&mut self.s.new_alliance);
        if side == 0 {
            return;
        }
        let c = &self.m.cards;
        let Some(w) = (0..c.wars.len())
            .filter(|&w| self.s.wars[w].status == WarStatus::Active && !c.wars[w].revolt)
            .max_by_key(|&w| self.proportional(w).0)
        else {
            return;
        };
        for a in 0..MAX_ARMIES {
            if self.s.armies[a].used && self.s.armies[a].war == w as u8 {
                self.army_home(a);
            }
        }
        self.release_captives_of(w);
        if side == 1 {
            self.treasury_income(c.wars[w].spoils as i32 / 2);
            self.s.wars[w].status = WarStatus::Deck;
            self.s.wars[w].unprosecuted = false;
            self.s.wars[w].naval_victory = false;
            let n = self.s.deck.len();
            let at = n - (self.dice.below(6.min(n as u64 + 1)) as usize).min(n);
            let era = self.s.era;
            self.s
                .deck
                .insert(at, (super::cards::Card::War(w as u8), era));
            game_log!(
                self.log,
                "  New Alliance: {} sues for peace",
                c.wars[w].name
            );
        } else {
            self.treasury_income(c.wars[w].spoils as i32);
            self.s.wars[w].status = WarStatus::Gone;
            for &p in &c.wars[w].creates {
                if self.s.provinces[p as usize].status == ProvinceStatus::NotCreated {
                    self.s.provinces[p as usize].status = ProvinceStatus::Vacant;
                }
            }
            game_log!(
                self.log,
                "  Another New Alliance: {} is discarded",
                c.wars[w].name
            );
        }
    }

    /// Captives of a war that leaves play die (L791).
    pub fn release_captives_of(&mut self, w: usize) {
        for i in 0..self.s.senators.len() {
            if self.s.senators[i].at == At::Captive(w as u8) {
                self.s.senators[i].at = At::Rome;
                self.kill(i, "a captive whose captors left the game");
            }
        }
    }

    /// Automatic recalls at adjournment (L713): no fleet support, no legions for a land battle,
    /// no fleets for a naval one, no commander.
    fn adjourn(&mut self) {
        for a in 0..MAX_ARMIES {
            let army = self.s.armies[a];
            if !army.used {
                continue;
            }
            let (reg, vet) = self.s.legions_at(LegionAt::Army(a as u8));
            let home = if army.war == REBEL_WAR {
                reg + vet == 0
            } else {
                let w = army.war as usize;
                let (_, naval) = self.strength(w);
                let support = self.m.cards.wars[w].fleet_support;
                army.commander == NONE
                    || army.fleets < support
                    || (naval > 0 && army.fleets == 0)
                    || (naval == 0 && reg + vet == 0)
            };
            if home {
                self.army_home(a);
            }
        }
    }
}
