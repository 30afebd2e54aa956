//! Diplomacy between nations (digest §5.11, §5.16): alliances and passage, war declarations
//! and their costs, agreements ended, and the surrender treaties that move provinces, money and VP.

use super::scenario::{COLLAPSE, FIASCO};
use super::state::{size, State, NONE};
use super::{Model, Policies};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

impl State {
    /// War declarations, alliances and peace offers (rule 3.3).
    pub fn diplomacy(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let nn = self.nations.len();
        let t = self.year;
        // Peace: a nation that sues for peace surrenders conditionally if its enemy accepts.
        for n in 0..nn {
            for m in 0..nn {
                if !self.at_war(n, m) || !self.nations[n].alive || !self.nations[m].alive {
                    continue;
                }
                if policies[n].sue_for_peace(model, self, n, m, dice)
                    && policies[m].accept_surrender(model, self, m, n, dice)
                {
                    game_log!(
                        log,
                        "  {} surrenders conditionally to {}",
                        model.name(n),
                        model.name(m)
                    );
                    self.treaty(model, m, n, false, log);
                }
            }
        }
        // Agreements a nation ends on its own.
        for n in 0..nn {
            if policies[n].keeps_agreements() {
                continue;
            }
            for m in 0..nn {
                if m == n || !self.nations[n].alive || !self.nations[m].alive {
                    continue;
                }
                if let Some(agreement) = policies[n].ends_agreement(model, self, n, m, dice) {
                    self.end_agreement(model, n, m, agreement, log);
                }
            }
        }
        for n in 0..nn {
            self.nations[n].units_at_diplomacy = self.total_units(n);
        }
        // Nations whose policy may want a passage or a military alliance now (asking the others
        // would only hear no).
        let mut seeking = 0u16;
        for n in 0..nn {
            if self.nations[n].at_war != 0 || !policies[n].seeks_allies_only_at_war() {
                seeking |= 1 << n;
            }
        }
        // Alliances need both nations in the same turn.
        for n in 0..nn {
            for m in n + 1..nn {
                if !self.nations[n].alive
                    || !self.nations[m].alive
                    || self.at_war(n, m)
                    || self.nations[n].no_renewal[m] >= t
                {
                    continue;
                }
                if self.nations[n].commercial & (1 << m) == 0
                    && policies[n].wants_commercial(model, self, n, m, dice)
                    && policies[m].wants_commercial(model, self, m, n, dice)
                {
                    self.nations[n].commercial |= 1 << m;
                    self.nations[m].commercial |= 1 << n;
                    game_log!(
                        log,
                        "  {} and {} sign a commercial alliance",
                        model.name(n),
                        model.name(m)
                    );
                }
                for (asks, grants) in [(n, m), (m, n)] {
                    if !self.passage(grants, asks)
                        && seeking & (1 << asks) != 0
                        && policies[asks].wants_passage(model, self, asks, grants, dice)
                        && policies[grants].grants_passage(model, self, grants, asks, dice)
                    {
                        self.nations[grants].passage |= 1 << asks;
                        game_log!(
                            log,
                            "  {} grants {} a right of passage",
                            model.name(grants),
                            model.name(asks)
                        );
                    }
                }
                if self.nations[n].military & (1 << m) == 0
                    && seeking & (1 << n) != 0
                    && policies[n].wants_military(model, self, n, m, dice)
                    && policies[m].wants_military(model, self, m, n, dice)
                {
                    self.nations[n].military |= 1 << m;
                    self.nations[m].military |= 1 << n;
                    game_log!(
                        log,
                        "  {} and {} sign a military alliance",
                        model.name(n),
                        model.name(m)
                    );
                }
            }
        }
        for n in 0..nn {
            if !self.nations[n].alive {
                continue;
            }
            if let Some(m) = policies[n].declare_war(model, self, n, dice) {
                self.declare_war(model, n, m, log);
            }
        }
    }

    /// Whether `n` may declare war on `m` now (L349-L361). Without a casus belli: not on a
    /// military ally, nor under forced peace, nor with its own troops in `m`'s provinces, nor while
    /// `m`'s troops stand in its provinces under a passage it granted; never into Collapse,
    /// counting the −1 of the declaration and of each agreement it breaks (E2, E4).
    pub fn may_declare_war(&self, n: usize, m: usize) -> bool {
        if n == m || !self.nations[m].alive || self.at_war(n, m) {
            return false;
        }
        let me = &self.nations[n];
        let cb = me.casus_belli[m] >= self.year;
        if me.stability + self.war_declaration_cost(n, m) >= COLLAPSE {
            return false;
        }
        cb || (!self.allied(n, m)
            && me.forced_peace[m] < self.year
            && !self.has_troops_in(n, m)
            && (!self.passage(n, m) || !self.has_troops_in(m, n)))
    }

    /// Whether `n` may end `agreement` with `m` on its own now: never in Fiasco or Collapse; a
    /// passage not while the grantee has troops in its provinces (L299-L333).
    pub fn may_end_agreement(&self, n: usize, m: usize, agreement: Agreement) -> bool {
        let held = match agreement {
            Agreement::Commercial => self.nations[n].commercial & (1 << m) != 0,
            Agreement::Military => self.allied(n, m),
            Agreement::Passage => self.passage(n, m) && !self.has_troops_in(m, n),
        };
        held && self.nations[n].stability < FIASCO
    }

    /// `n` ends `agreement` with `m` unilaterally: `m` gets a casus belli until the end of next
    /// year (L363) unless it was a passage; a military alliance or a passage costs `n` one
    /// stability level; trade points between them are halved; none is renewable for 5 years.
    pub fn end_agreement(
        &mut self,
        model: &Model,
        n: usize,
        m: usize,
        agreement: Agreement,
        log: &mut dyn GameLog,
    ) {
        if !self.may_end_agreement(n, m, agreement) {
            return;
        }
        match agreement {
            Agreement::Commercial => {
                self.nations[n].commercial &= !(1 << m);
                self.nations[m].commercial &= !(1 << n);
                self.halve_trade(n, m);
            }
            Agreement::Military => {
                self.nations[n].military &= !(1 << m);
                self.nations[m].military &= !(1 << n);
                self.change_stability(n, -1, model.rules.optimal_vp);
            }
            Agreement::Passage => {
                self.nations[n].passage &= !(1 << m);
                self.change_stability(n, -1, model.rules.optimal_vp);
            }
        }
        if agreement != Agreement::Passage {
            self.nations[m].casus_belli[n] = self.year + 1;
        }
        let until = self.year + 5;
        self.nations[n].no_renewal[m] = until;
        self.nations[m].no_renewal[n] = until;
        game_log!(
            log,
            "  {} ends its {:?} agreement with {}",
            model.name(n),
            agreement,
            model.name(m)
        );
    }

    /// Stability levels `n` loses by declaring war on `m`: one for the declaration, one for a
    /// military alliance and one for a passage it granted, none with a casus belli (L365-L367).
    pub fn war_declaration_cost(&self, n: usize, m: usize) -> u8 {
        if self.nations[n].casus_belli[m] >= self.year {
            return 0;
        }
        1 + self.allied(n, m) as u8 + self.passage(n, m) as u8
    }

    pub fn declare_war(&mut self, model: &Model, n: usize, m: usize, log: &mut dyn GameLog) {
        if !self.may_declare_war(n, m) {
            return;
        }
        let cb = self.nations[n].casus_belli[m] >= self.year;
        let cost = self.war_declaration_cost(n, m);
        self.change_stability(n, -(cost as i32), model.rules.optimal_vp);
        // War ends every agreement between the two (L367); only the declarer pays for them.
        self.nations[n].military &= !(1 << m);
        self.nations[m].military &= !(1 << n);
        self.nations[n].passage &= !(1 << m);
        self.nations[m].passage &= !(1 << n);
        if self.nations[n].commercial & (1 << m) != 0 {
            self.nations[n].commercial &= !(1 << m);
            self.nations[m].commercial &= !(1 << n);
            self.halve_trade(n, m);
        }
        let until = self.year + 5;
        self.nations[n].no_renewal[m] = until;
        self.nations[m].no_renewal[n] = until;
        self.nations[n].at_war |= 1 << m;
        self.nations[m].at_war |= 1 << n;
        self.nations[n].war_started[m] = self.turn;
        self.nations[m].war_started[n] = self.turn;
        self.wars_declared += 1;
        // The victim's military allies get a casus belli against the declarer (L357).
        for a in 0..self.nations.len() {
            if a != n && self.allied(m, a) && self.nations[a].forced_peace[n] < self.year {
                self.nations[a].casus_belli[n] = self.year + 1;
            }
        }
        game_log!(
            log,
            "  {} declares war on {}{} (stability {})",
            model.name(n),
            model.name(m),
            if cb { " with a casus belli" } else { "" },
            super::scenario::STABILITY[self.nations[n].stability as usize]
        );
    }

    /// Hostilities between `a` and `b` end: every city of one occupied by the other goes back to
    /// its owner without a garrison, since the occupiers' troops withdraw (L867). The occupier
    /// loses the 5 VP of the occupation unless the city's owner surrendered (L963, A46): `victor`
    /// is the party whose occupations were ended by the other's surrender.
    pub fn end_occupations(
        &mut self,
        model: &Model,
        a: usize,
        b: usize,
        victor: Option<usize>,
        log: &mut dyn GameLog,
    ) {
        for p in 0..self.provinces.len() {
            let pr = &self.provinces[p];
            let (owner, occupier) = (pr.owner as usize, pr.occupier as usize);
            if pr.owner == NONE
                || pr.occupier == NONE
                || !((owner, occupier) == (a, b) || (owner, occupier) == (b, a))
            {
                continue;
            }
            if pr.occupation_vp && victor != Some(occupier) {
                self.nations[occupier].vp -= 5;
            }
            let pr = &mut self.provinces[p];
            pr.occupier = NONE;
            pr.occupation_vp = false;
            pr.garrison = 0;
            game_log!(
                log,
                "  {} hands the city of {} back to {}",
                model.name(occupier),
                model.code(p),
                model.name(owner)
            );
        }
    }

    /// A surrender treaty (rule 6): VP and stability, the victor's clauses, troops home, forced peace.
    pub fn treaty(
        &mut self,
        model: &Model,
        victor: usize,
        loser: usize,
        unconditional: bool,
        log: &mut dyn GameLog,
    ) {
        let optimal = model.rules.optimal_vp;
        self.nations[victor].vp += if unconditional { 25 } else { 15 };
        self.change_stability(victor, if unconditional { 2 } else { 1 }, optimal);
        self.change_stability(loser, if unconditional { -2 } else { -1 }, optimal);
        for l in &mut self.leaders {
            if l.alive && l.nation as usize == loser {
                l.leader.age += 5;
            }
        }
        let mut slots = if unconditional { 6 } else { 3 };
        // Province cession (L880-L888): provinces with victor troops next to a victor province,
        // the capital only as the loser's last; a clause costs 1 + cities + port + resources.
        let mut ceded = 0;
        for p in 0..self.provinces.len() {
            if ceded == 2 || slots == 0 {
                break;
            }
            let pr = &self.provinces[p];
            if pr.owner as usize != loser
                || size(self.army(victor, p)) == 0
                || !model.touches_nation(self, victor, p)
            {
                continue;
            }
            let remaining = self.provinces_of(loser).count();
            if p == self.nations[loser].capital && remaining > 1 {
                continue;
            }
            // The map abstraction has one city a province (§7.2).
            let cost = cession_clauses(
                1,
                pr.ports != 0,
                pr.harvests + pr.mines + pr.deposits + pr.herds > 0,
            );
            if cost > slots {
                continue;
            }
            slots -= cost;
            ceded += 1;
            self.set_owner(p, victor);
            let pr = &mut self.provinces[p];
            if pr.occupier as usize == victor {
                pr.occupier = NONE;
            }
            self.trade
                .retain(|l| l.from as usize != p || l.owner as usize == victor);
            game_log!(
                log,
                "  clause: {} cedes {} to {}",
                model.name(loser),
                model.code(p),
                model.name(victor)
            );
            if remaining == 1 {
                self.nations[victor].vp += 20;
                self.eliminate(model, loser, log);
            }
        }
        if slots > 0 && self.nations[loser].alive {
            self.nations[loser].indemnity_years[victor] = 5;
            slots -= 1;
            game_log!(
                log,
                "  clause: {} pays war indemnities to {} for 5 years",
                model.name(loser),
                model.name(victor)
            );
        }
        let vp_clauses = slots.min(2);
        self.nations[victor].vp += 5 * vp_clauses as i64;
        slots -= vp_clauses;
        let loss_clauses = slots.min(2);
        self.nations[loser].vp -= 5 * loss_clauses as i64;
        slots -= loss_clauses;
        for _ in 0..slots.min(2) {
            self.change_stability(victor, 1, optimal);
        }
        // Troops of each party in the other's territory go home (L867), so the cities they hold
        // go back to their owners; the loser's own surrender costs the victor nothing (L963).
        self.end_occupations(model, victor, loser, Some(victor), log);
        for (a, b) in [(victor, loser), (loser, victor)] {
            if !self.nations[a].alive {
                continue;
            }
            let home = self.nations[a].capital;
            for i in 0..self.owned[b].len() {
                let p = self.owned[b][i] as usize;
                let units = self.take_army(a, p);
                let mut h = self.army_mut(a, home);
                for c in 0..6 {
                    h[c] += units[c];
                }
            }
            for l in &mut self.leaders {
                if l.alive
                    && l.nation as usize == a
                    && self.provinces[l.province as usize].owner as usize == b
                {
                    l.province = home as u16;
                }
            }
        }
        self.nations[victor].at_war &= !(1 << loser);
        self.nations[loser].at_war &= !(1 << victor);
        let until = self.year + 5;
        self.nations[victor].forced_peace[loser] = until;
        self.nations[loser].forced_peace[victor] = until;
        if unconditional {
            self.nations[victor].unconditional_from |= 1 << loser;
        }
        self.surrenders += 1;
    }

    pub fn eliminate(&mut self, model: &Model, n: usize, log: &mut dyn GameLog) {
        if !self.nations[n].alive {
            return;
        }
        self.nations[n].alive = false;
        self.eliminated += 1;
        for m in 0..self.nations.len() {
            self.nations[m].at_war &= !(1 << n);
            self.nations[m].military &= !(1 << n);
            self.nations[m].commercial &= !(1 << n);
        }
        self.nations[n].at_war = 0;
        self.units_ledger -= self.disband_armies(n) as i64;
        for l in &mut self.leaders {
            if l.nation as usize == n {
                l.alive = false;
            }
        }
        self.nations[n].fleets = 0;
        self.trade.retain(|l| l.owner as usize != n);
        game_log!(log, "  {} is eliminated", model.name(n));
    }

    /// Forced surrenders of nations in Collapse (L855-L859), checked at the end of the turn.
    pub fn forced_surrenders(&mut self, model: &Model, log: &mut dyn GameLog) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive
                || self.nations[n].stability < COLLAPSE
                || self.nations[n].at_war == 0
            {
                continue;
            }
            let mut own = 0;
            let mut enemy_by = [0u32; 16];
            let mut all_occupied = true;
            for p in self.provinces_of(n) {
                own += self.friendly_units(n, p);
                for m in 0..self.nations.len() {
                    if self.at_war(n, m) {
                        enemy_by[m] += size(self.army(m, p));
                    }
                }
                if self.provinces[p].occupier == NONE {
                    all_occupied = false;
                }
            }
            let enemy: u32 = enemy_by.iter().sum();
            if enemy == 0 {
                continue;
            }
            let unconditional = enemy > 2 * own || all_occupied;
            if enemy > own {
                for m in 0..self.nations.len() {
                    if enemy_by[m] > 0 && self.nations[n].alive {
                        game_log!(
                            log,
                            "  {} in Collapse surrenders {} to {}",
                            model.name(n),
                            if unconditional {
                                "unconditionally"
                            } else {
                                "conditionally"
                            },
                            model.name(m)
                        );
                        self.treaty(model, m, n, unconditional, log);
                    }
                }
            }
        }
    }

    /// Wars with no battle and no troops in each other's land this turn end by themselves (L375).
    pub fn quiet_wars_end(&mut self, model: &Model, log: &mut dyn GameLog) {
        let nn = self.nations.len();
        for n in 0..nn {
            for m in n + 1..nn {
                if !self.at_war(n, m)
                    || self.war_activity[n] & (1 << m) != 0
                    || self.nations[n].war_started[m] == self.turn
                {
                    continue;
                }
                if self.has_troops_in(n, m) || self.has_troops_in(m, n) {
                    continue;
                }
                self.nations[n].at_war &= !(1 << m);
                self.nations[m].at_war &= !(1 << n);
                self.end_occupations(model, n, m, None, log);
                game_log!(
                    log,
                    "  the war between {} and {} dies out",
                    model.name(n),
                    model.name(m)
                );
            }
        }
        self.war_activity.fill(0);
    }
}

/// Clause slots a province cession takes (L886): one, plus one a city, one if any city has a
/// port, one if the province yields harvests, herds, deposits or mines (E19).
pub fn cession_clauses(cities: u32, has_port: bool, has_resources: bool) -> u32 {
    1 + cities + has_port as u32 + has_resources as u32
}

/// An agreement between two nations that one of them may end (§5.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Commercial,
    Military,
    Passage,
}
