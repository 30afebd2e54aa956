//! Phase II, Revenue (L274-L331; digest §4.2-§4.4): personal income, spoils, rebel supply,
//! redistribution, development, the State's income and taxes, donations, expenses, governors home.

use super::policy::Style;
use super::state::*;
use super::turn::Game;
use crate::game_log;

/// Influence a donation buys (L325, A-34).
pub fn donation_influence(talents: i32) -> i32 {
    if talents >= 50 {
        7
    } else if talents >= 25 {
        3
    } else if talents >= 10 {
        1
    } else {
        0
    }
}

impl Game<'_> {
    pub fn revenue(&mut self) {
        self.personal_revenue();
        self.spoils();
        self.rebel_supply();
        self.redistribute();
        self.develop_provinces();
        self.treasury_income(100);
        let enthusiasm = std::mem::take(&mut self.s.env.allied_enthusiasm);
        if enthusiasm > 0 {
            game_log!(self.log, "  Allied Enthusiasm: +{enthusiasm} T");
            self.treasury_income(enthusiasm);
        }
        self.provincial_taxes();
        if self.over() {
            return;
        }
        // Cooperative factions give what keeps the Treasury at `[game.senate] reserve` after
        // Expenses, so that an Evil Omens (20 T) or a Natural Disaster (50 T) drawn in the Forum
        // does not bankrupt Rome (L329).
        let expenses = self.expenses_due() + self.m.senate.reserve;
        self.donations(expenses);
        self.pay_expenses();
        if self.over() {
            return;
        }
        self.governors_return();
    }

    pub(super) fn personal_revenue(&mut self) {
        for i in 0..self.s.senators.len() {
            let s = self.s.senators[i];
            if s.faction().is_none() || matches!(s.at, At::Captive(_) | At::Rebel) {
                continue;
            }
            let base = if s.leader { 3 } else { 1 };
            self.senator_income(i, base + s.knights as i32);
        }
        for c in 0..self.s.concessions.len() {
            if let ConcessionStatus::Held(i) = self.s.concessions[c] {
                let i = i as usize;
                let income = self.m.cards.concessions[c].income as i32;
                if income > 0 && !matches!(self.s.senators[i].at, At::Captive(_) | At::Rebel) {
                    self.senator_income(i, income);
                    self.s.senators[i].bar = true;
                }
            }
        }
    }

    fn spoils_roll(&self, p: usize) -> super::cards::Roll {
        let card = &self.m.cards.provinces[p];
        let developed = self.s.provinces[p].developed;
        match (
            developed,
            card.data_spoils,
            self.m.rules.hispania_data_spoils,
        ) {
            (false, Some(r), true) => r,
            _ => card.sides[developed as usize].spoils,
        }
    }

    /// Governors who choose to take spoils (before rolling) become Corrupt (L280); a negative
    /// total is owed by the Treasury at Expenses (T02).
    fn spoils(&mut self) {
        for p in 0..self.s.provinces.len() {
            let ProvinceStatus::Governed(i) = self.s.provinces[p].status else {
                continue;
            };
            let i = i as usize;
            let Some(f) = self.s.senators[i].faction() else {
                continue;
            };
            if self.s.senators[i].at == At::Rebel {
                continue;
            }
            let pol = self.policy(f);
            let take = match pol.style {
                Style::Random => self.dice.chance(0.5),
                _ => self.dice.chance(pol.greed),
            };
            if take {
                let roll = self.spoils_roll(p);
                let total = roll.roll(self.dice);
                self.take_spoils(i, p, total);
            }
        }
    }

    /// The governor of `p` takes spoils that came out at `total`.
    pub fn take_spoils(&mut self, i: usize, p: usize, total: i32) {
        self.s.senators[i].corrupt = true;
        if total >= 0 {
            self.senator_income(i, total);
        } else {
            self.s.owed_spoils += -total;
        }
        game_log!(
            self.log,
            "  {} takes the spoils of {}: {total} T (Corrupt)",
            self.name(i),
            self.m.cards.provinces[p].name
        );
    }

    fn rebel_supply(&mut self) {
        let rebel = self.s.rebel;
        if rebel == NONE {
            return;
        }
        let r = rebel as usize;
        let f = self.s.senators[r].faction().unwrap_or(0);
        for k in 0..self.s.legions.len() {
            let l = self.s.legions[k];
            if l.at != LegionAt::Rebel
                || (l.veteran
                    && l.loyal != NONE
                    && self.s.senators[l.loyal as usize].at == At::Rebel)
            {
                continue;
            }
            if self.s.senators[r].talents >= 2 {
                self.senator_spends(r, 2);
            } else if self.s.factions[f].treasury >= 2 {
                self.faction_spends(f, 2);
            } else {
                // Unpaid legions go back to the Senate (L827).
                self.s.legions[k].at = LegionAt::Rome;
            }
        }
    }

    /// Redistribution (L288): competitive factions bank a share of their senators' money in the
    /// faction treasury for counter-bribes and ransoms; the others keep a small reserve there.
    /// When the Treasury will fall short of next Expenses plus `[game.senate] reserve`, a faction
    /// then hands its richest senator the `cooperation` share of its faction treasury, for him to
    /// donate (a faction treasury cannot pay the State directly, L288, L325).
    pub(super) fn redistribute(&mut self) {
        for i in 0..self.s.senators.len() {
            let s = self.s.senators[i];
            let Some(f) = s.faction() else { continue };
            if matches!(s.at, At::Captive(_) | At::Rebel) || s.talents <= 10 {
                continue;
            }
            let share = match self.policy(f).style {
                Style::Competitive => 4,
                Style::Cooperative => 8,
                Style::Random => 2 + self.dice.below(6) as i32,
            };
            let moved = (s.talents - 10) / share;
            self.s.senators[i].talents -= moved;
            self.s.factions[f].treasury += moved;
        }
        let income = 100 + self.s.env.allied_enthusiasm;
        let mut short = self.expenses_due() + self.m.senate.reserve - self.s.treasury - income;
        for f in 0..FACTIONS {
            if short <= 0 {
                break;
            }
            let pol = self.policy(f);
            let share = match pol.style {
                Style::Random => self.dice.below(2) as f64,
                _ => pol.cooperation,
            };
            let give = ((self.s.factions[f].treasury as f64 * share).floor() as i32).min(short);
            let richest = (0..self.s.senators.len())
                .filter(|&i| {
                    self.s.senators[i].faction() == Some(f)
                        && !matches!(self.s.senators[i].at, At::Captive(_) | At::Rebel)
                })
                .max_by_key(|&i| (self.s.senators[i].talents, std::cmp::Reverse(i)));
            if let (true, Some(i)) = (give > 0, richest) {
                self.s.factions[f].treasury -= give;
                self.s.senators[i].talents += give;
                short -= give;
                game_log!(
                    self.log,
                    "  Faction {} hands {} {give} T of its treasury for the State",
                    f + 1,
                    self.name(i)
                );
            }
        }
    }

    pub(super) fn develop_provinces(&mut self) {
        let omens = self.s.env.evil_omens as i32 * self.m.rules.evil_omen_modifier;
        for p in 0..self.s.provinces.len() {
            let ProvinceStatus::Governed(i) = self.s.provinces[p].status else {
                continue;
            };
            if self.s.provinces[p].developed || self.s.senators[i as usize].at == At::Rebel {
                continue;
            }
            let honest = !self.s.senators[i as usize].corrupt as i32;
            let roll = self.dice.d(6) as i32 + honest - omens;
            if roll >= 6 {
                self.s.provinces[p].developed = true;
                self.gain_influence(i as usize, 3);
                game_log!(
                    self.log,
                    "  {} develops {} (+3 Influence)",
                    self.name(i as usize),
                    self.m.cards.provinces[p].name
                );
            }
        }
    }

    fn provincial_taxes(&mut self) {
        for p in 0..self.s.provinces.len() {
            let ProvinceStatus::Governed(i) = self.s.provinces[p].status else {
                continue;
            };
            if self.s.senators[i as usize].at == At::Rebel {
                continue;
            }
            let side = self.s.provinces[p].developed as usize;
            let tax = self.m.cards.provinces[p].sides[side].tax.roll(self.dice);
            if tax >= 0 {
                self.treasury_income(tax);
            } else {
                let name = &self.m.cards.provinces[p].name;
                let what = format!("the negative tax of {name}");
                if !self.treasury_pays(-tax, &what) {
                    return;
                }
            }
        }
    }

    /// What the Treasury must pay at Expenses this turn (L327-L329).
    pub fn expenses_due(&self) -> i32 {
        let wars = self.s.active_wars() as i32
            + (self.m.rules.civil_war_costs && self.s.rebel != NONE) as i32;
        let mut units = self.s.fleets_total() as i32;
        for l in &self.s.legions {
            if matches!(l.at, LegionAt::Rome | LegionAt::Army(_)) {
                units += 1;
            }
        }
        let bills: i32 = (0..3)
            .map(|t| self.s.land_bills[t] as i32 * self.m.cards.land_bills[t].cost as i32)
            .sum();
        20 * wars + 2 * units + bills + self.s.owed_spoils
    }

    /// Donations (L325): cooperative factions give what Rome needs to pay its bills; competitive
    /// ones give a share of their spare money for Influence; a faction always donates when that
    /// takes a senator to 35 Influence (L1246).
    fn donations(&mut self, expenses: i32) {
        for f in 0..FACTIONS {
            let pol = self.policy(f);
            let shortfall = expenses - self.s.treasury;
            for i in 0..self.s.senators.len() {
                let s = self.s.senators[i];
                if s.faction() != Some(f)
                    || matches!(s.at, At::Captive(_) | At::Rebel)
                    || s.talents <= 0
                {
                    continue;
                }
                let shortfall = (expenses - self.s.treasury).min(shortfall);
                let mut give = 0;
                if shortfall > 0 {
                    give = ((s.talents as f64 * pol.cooperation).floor() as i32)
                        .min(shortfall.max(10));
                }
                let spare = s.talents - give - 10;
                if spare > 0 && pol.donate > 0.0 {
                    let extra = (spare as f64 * pol.donate).floor() as i32;
                    // Donate in whole tiers: the Influence comes from 10, 25 and 50 T.
                    let tier = [50, 25, 10].into_iter().find(|&t| t <= extra).unwrap_or(0);
                    give += tier;
                }
                if s.inf < 35
                    && s.inf + donation_influence(s.talents) >= 35
                    && !self.s.law(self.m.cards.military_reforms)
                {
                    give = give.max(if s.talents >= 50 {
                        50
                    } else if s.talents >= 25 {
                        25
                    } else {
                        10
                    });
                }
                let give = give.min(s.talents);
                if give > 0 {
                    self.donate(i, give);
                }
            }
        }
    }

    pub fn donate(&mut self, i: usize, talents: i32) {
        self.s.senators[i].talents -= talents;
        self.s.treasury += talents;
        let inf = donation_influence(talents);
        self.gain_influence(i, inf);
        game_log!(
            self.log,
            "  {} donates {talents} T (+{inf} Influence)",
            self.name(i)
        );
    }

    pub(super) fn pay_expenses(&mut self) {
        let due = self.expenses_due();
        game_log!(
            self.log,
            "  expenses {due} T (Treasury {} T)",
            self.s.treasury
        );
        if !self.treasury_pays(due, "the expenses") {
            return;
        }
        self.s.owed_spoils = 0;
        // A type I land bill is paid once and its counter leaves (L631).
        if self.s.land_bills[0] > 0 {
            self.s.land_bills[0] = 0;
        }
    }

    /// Governors' terms: three Revenue phases by default.
    fn governors_return(&mut self) {
        for p in 0..self.s.provinces.len() {
            let ProvinceStatus::Governed(i) = self.s.provinces[p].status else {
                continue;
            };
            if self.s.senators[i as usize].at == At::Rebel {
                continue;
            }
            let term = &mut self.s.provinces[p].term;
            *term = term.saturating_sub(1);
            let home = if self.m.rules.governor_returns_on_one {
                *term <= 1
            } else {
                *term == 0
            };
            if home {
                self.s.provinces[p].status = ProvinceStatus::Vacant;
                self.s.senators[i as usize].at = At::Rome;
                self.s.senators[i as usize].back_this_turn = true;
                game_log!(
                    self.log,
                    "  {} comes home from {}",
                    self.name(i as usize),
                    self.m.cards.provinces[p].name
                );
            }
        }
    }
}
