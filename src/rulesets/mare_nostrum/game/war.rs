//! War (digest §3, §5.11, §5.14, §5.16): declarations and alliances, fleets and naval battles,
//! movement on the map in six segments with field battles, assaults, sieges and pillage through
//! the battle code, and the surrender treaties that move provinces, money and VP.

use super::scenario::{Border, COLLAPSE, FIASCO, T};
use super::state::{
    size, Army, State, CAV, HOSTILE, INF, MCAV, MILITARY, MINF, NEUTRAL, NONE, PASSAGE, SUBSIDIARY,
    VASSAL, VCAV, VINF,
};
use super::{Model, Order, Policies, Route, RouteScratch};
use crate::dice::{draw_without_replacement, Dice};
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mare_nostrum::field::{FieldRules, FieldSide};
use crate::rulesets::mare_nostrum::units::Allocation;
use crate::rulesets::mare_nostrum::{LeaderFate, Winner};

/// Removes `losses` units from an army, at random over all its units (A8) or weakest first.
pub fn remove_losses(
    army: &mut Army,
    losses: u32,
    allocation: Allocation,
    dice: &mut Dice,
) -> Army {
    let losses = losses.min(size(army));
    let taken = match allocation {
        Allocation::Random => draw_without_replacement(dice, *army, losses),
        Allocation::OwnerChoice => {
            let mut taken = [0; 6];
            let mut left = losses;
            for c in [INF, MINF, VINF, CAV, MCAV, VCAV] {
                let k = left.min(army[c]);
                taken[c] = k;
                left -= k;
            }
            taken
        }
    };
    for c in 0..6 {
        army[c] -= taken[c];
    }
    taken
}

/// The four combat types of an army (mercenaries fight as their base type, §3.0).
fn combat_units(a: &Army) -> [u32; 4] {
    [a[INF] + a[MINF], a[CAV] + a[MCAV], a[VINF], a[VCAV]]
}

/// No step up the independent ladder costs less (the right-of-passage minimum, L574).
pub const CHEAPEST_INDEPENDENT_STEP: i64 = 20;

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
        let t = self.turn;
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
        let cb = me.casus_belli[m] >= self.turn;
        if me.stability + self.war_declaration_cost(n, m) >= COLLAPSE {
            return false;
        }
        cb || (!self.allied(n, m)
            && me.forced_peace[m] < self.turn
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
            self.nations[m].casus_belli[n] = self.turn + 1;
        }
        let until = self.turn + 5;
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
        if self.nations[n].casus_belli[m] >= self.turn {
            return 0;
        }
        1 + self.allied(n, m) as u8 + self.passage(n, m) as u8
    }

    pub fn declare_war(&mut self, model: &Model, n: usize, m: usize, log: &mut dyn GameLog) {
        if !self.may_declare_war(n, m) {
            return;
        }
        let cb = self.nations[n].casus_belli[m] >= self.turn;
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
        let until = self.turn + 5;
        self.nations[n].no_renewal[m] = until;
        self.nations[m].no_renewal[n] = until;
        self.nations[n].at_war |= 1 << m;
        self.nations[m].at_war |= 1 << n;
        self.nations[n].war_started[m] = self.turn;
        self.nations[m].war_started[n] = self.turn;
        self.wars_declared += 1;
        // The victim's military allies get a casus belli against the declarer (L357).
        for a in 0..self.nations.len() {
            if a != n && self.allied(m, a) && self.nations[a].forced_peace[n] < self.turn {
                self.nations[a].casus_belli[n] = self.turn + 1;
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

    /// Diplomacy with independents (rule 3.12): every nation acts at once, one step a round (three
    /// rounds in a Historical Period); Hostile is free and permanent Hatred; steps up are paid for,
    /// and requests that do not all fit are settled as L545-L551 and L930 say (A43).
    pub fn independent_diplomacy(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let rounds = if self.historical_period { 3 } else { 1 };
        let mut acting: u16 = 0;
        for n in 0..self.nations.len() {
            if self.nations[n].alive && self.nations[n].stability < COLLAPSE {
                acting |= 1 << n;
            }
        }
        for _ in 0..rounds {
            let mut requests = Requests::default();
            for n in 0..self.nations.len() {
                if acting & (1 << n) == 0 {
                    continue;
                }
                match policies[n].independent_action(model, self, n, dice) {
                    Some((p, raise)) if self.provinces[p].owner == NONE => {
                        if raise {
                            requests.push(n, p);
                        } else {
                            self.declare_hostile(model, n, p, log);
                            acting &= !(1 << n);
                        }
                    }
                    _ => acting &= !(1 << n),
                }
            }
            acting &= self.settle_independent_requests(model, &requests, log);
        }
    }

    fn declare_hostile(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        // Its military ally or vassal gets a casus belli against `n` (L501).
        for m in 0..self.nations.len() {
            if m != n && self.provinces[p].grade[m] >= MILITARY {
                self.nations[m].casus_belli[n] = self.turn + 1;
            }
        }
        self.provinces[p].grade[n] = HOSTILE;
        self.provinces[p].hatred |= 1 << n;
        game_log!(
            log,
            "  {} declares {} Hostile",
            model.name(n),
            model.code(p)
        );
    }

    /// Grants the simultaneous steps up in `requests` (nation, independent): a grade held by a
    /// limited number of nations goes to the best placed when too many ask — higher stability in a
    /// normal turn; land, then sea adjacency, then the relation held, then stability in a Historical
    /// Period — and a tie for the last places cancels the tied requests (refunded in a normal turn,
    /// the money lost in a Historical Period). Returns the nations whose step was granted.
    pub fn settle_independent_requests(
        &mut self,
        model: &Model,
        requests: &Requests,
        log: &mut dyn GameLog,
    ) -> u16 {
        let mut granted = 0u16;
        let mut lost_money = 0u16;
        for (i, &(n, p)) in requests.iter().enumerate() {
            if requests.iter().take(i).any(|&(_, q)| q == p) {
                continue; // settled with the first request for p
            }
            // Each requester's cost; the unaffordable and the out-of-reach drop out.
            let mut asking: Requests = Requests::default();
            for &(m, q) in requests.iter().filter(|&&(_, q)| q == p) {
                if let Some(cost) = self.independent_cost(model, m, q) {
                    if self.nations[m].goods[T] >= cost {
                        asking.push(m, q);
                    }
                }
            }
            let _ = n;
            // Requests for the same next grade compete for its places.
            for grade in NEUTRAL + 1..=VASSAL + 1 {
                let mut wanting: Requests = Requests::default();
                for &(m, q) in asking.iter() {
                    if self.provinces[q].grade[m] + 1 == grade {
                        wanting.push(m, q);
                    }
                }
                if wanting.len == 0 {
                    continue;
                }
                let places = self.independent_places(p, grade, &wanting);
                let (winners, tied) = self.rank_requests(model, p, &wanting, places);
                for &(m, _) in wanting.iter() {
                    if winners & (1 << m) != 0 {
                        granted |= 1 << m;
                    } else if tied & (1 << m) != 0 && self.historical_period {
                        lost_money |= 1 << m;
                    }
                }
            }
        }
        for &(n, p) in requests.iter() {
            if lost_money & (1 << n) != 0 {
                let cost = self.independent_cost(model, n, p).unwrap_or(0);
                self.nations[n].goods[T] -= cost;
                game_log!(
                    log,
                    "  {} loses {} T: a tied request for {} in a Historical Period",
                    model.name(n),
                    cost,
                    model.code(p)
                );
            }
        }
        for &(n, p) in requests.iter() {
            if granted & (1 << n) != 0 {
                self.raise_grade(model, n, p, log);
            } else if lost_money & (1 << n) == 0 {
                game_log!(
                    log,
                    "  {}'s request for {} is not granted",
                    model.name(n),
                    model.code(p)
                );
            }
        }
        granted
    }

    /// How many of `wanting` may reach `grade` in `p`: Subsidiary is shared by two nations,
    /// Military Alliance, Vassal and Annexation belong to one (§5.12); holders keep their place.
    fn independent_places(&self, p: usize, grade: u8, wanting: &Requests) -> usize {
        let limit = match grade {
            PASSAGE => return wanting.len,
            SUBSIDIARY => 2,
            _ => 1,
        };
        let holders = (0..self.nations.len())
            .filter(|&m| {
                self.provinces[p].grade[m] >= grade && !wanting.iter().any(|&(w, _)| w == m)
            })
            .count();
        limit - holders.min(limit)
    }

    /// The nations among `wanting` that take the `places`, and those cancelled by a tie for the last.
    fn rank_requests(
        &self,
        model: &Model,
        p: usize,
        wanting: &Requests,
        places: usize,
    ) -> (u16, u16) {
        let everyone = wanting.iter().fold(0u16, |m, &(n, _)| m | 1 << n);
        if wanting.len <= places {
            return (everyone, 0);
        }
        // Larger is better.
        let key = |n: usize| -> (bool, bool, u8, u8) {
            let stability = COLLAPSE - self.nations[n].stability;
            if self.historical_period {
                let land = model.touches_nation(self, n, p);
                let sea = self.provinces[p].ports & self.port_seas[n] != 0;
                (land, sea, self.provinces[p].grade[n], stability)
            } else {
                (false, false, 0, stability)
            }
        };
        let mut winners = 0u16;
        let mut tied = 0u16;
        let mut left = places;
        let mut pending = everyone;
        while left > 0 && pending != 0 {
            let best = (0..16)
                .filter(|&n| pending & (1 << n) != 0)
                .map(key)
                .max()
                .unwrap();
            let at_best = (0..16)
                .filter(|&n| pending & (1 << n) != 0 && key(n) == best)
                .fold(0u16, |m, n| m | 1 << n);
            if at_best.count_ones() as usize <= left {
                winners |= at_best;
                left -= at_best.count_ones() as usize;
                pending &= !at_best;
            } else {
                tied |= at_best;
                break;
            }
        }
        (winners, tied)
    }

    /// Pays for and takes one step up with independent `p`: Vassal cancels every other nation's
    /// advantages there; a step beyond Vassal annexes it.
    fn raise_grade(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        let Some(cost) = self.independent_cost(model, n, p) else {
            return;
        };
        self.nations[n].goods[T] -= cost;
        let g = self.provinces[p].grade[n];
        if g == VASSAL {
            self.annex(model, n, p, log);
            return;
        }
        let next = g + 1;
        if next == VASSAL {
            for m in 0..self.nations.len() {
                if m != n && self.provinces[p].grade[m] > NEUTRAL {
                    self.provinces[p].grade[m] = NEUTRAL;
                }
            }
        }
        self.provinces[p].grade[n] = next;
        game_log!(
            log,
            "  {} pays {} T: {} now {}",
            model.name(n),
            cost,
            model.code(p),
            GRADE_NAMES[next as usize]
        );
    }

    /// The cost of raising nation `n`'s grade with independent `p` by one (L567-L574, A39), or None.
    pub fn independent_cost(&self, model: &Model, n: usize, p: usize) -> Option<i64> {
        self.independent_price(n, p).filter(|_| {
            self.independent_within_reach(model, n, p) && self.independent_place_free(n, p)
        })
    }

    /// Whether the next grade of `n` in `p` has a place no other nation holds (§5.12).
    pub fn independent_place_free(&self, n: usize, p: usize) -> bool {
        let mut me = Requests::default();
        me.push(n, p);
        self.independent_places(p, self.provinces[p].grade[n] + 1, &me) > 0
    }

    /// The ladder's distance rule (L539): past Right of Passage, an independent must touch the
    /// nation, except in a Historical Period.
    pub fn independent_within_reach(&self, model: &Model, n: usize, p: usize) -> bool {
        self.provinces[p].grade[n] < PASSAGE
            || self.historical_period
            || model.adjacent_to_nation(self, n, p)
    }

    /// What the next step up costs `n` in `p`, reach aside ([`State::independent_cost`] checks
    /// both); None if the province is Hostile to `n` or led by an independent leader.
    #[inline]
    pub fn independent_price(&self, n: usize, p: usize) -> Option<i64> {
        let pr = &self.provinces[p];
        let g = pr.grade[n];
        if g == HOSTILE || pr.indep_leader != usize::MAX {
            return None;
        }
        let units = (pr.troops[0] + pr.troops[1]) as i64;
        let ppu = pr.ppu as i64;
        let (base, min) = match g + 1 {
            PASSAGE => (10 * units, CHEAPEST_INDEPENDENT_STEP),
            3 => (10 * ppu, 30),
            MILITARY => (15 * units, 30),
            VASSAL => (10 * ppu, 30),
            _ => (10 * ppu, 30), // annexation
        };
        let modifier: i64 = [-10, -5, -5, 0, 0, 10, 20, 0][self.nations[n].stability as usize];
        let hatred = if pr.hatred & (1 << n) != 0 { 15 } else { 0 };
        Some(min.max(base.max(min) + modifier) + hatred)
    }

    pub fn annex(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        self.set_owner(p, n);
        let pr = &mut self.provinces[p];
        pr.grade = [NEUTRAL; 16];
        pr.ppu_max = pr.ppu_max.max(pr.ppu);
        let troops = std::mem::take(&mut pr.troops);
        let a = self.army_mut(n, p);
        a[INF] += troops[0];
        a[CAV] += troops[1];
        self.nations[n].vp += 10;
        self.annexations += 1;
        // Trade points of others into the province pass to... stay; the annexer's own become internal.
        self.trade
            .retain(|l| !(l.owner as usize == n && l.to as usize == p));
        game_log!(
            log,
            "  {} annexes {} (+10 VP)",
            model.name(n),
            model.code(p)
        );
    }

    /// Fleet deployment, naval battles and attrition (rule 3.10, 4.1).
    pub fn naval_phase(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let nn = self.nations.len();
        let seas = model.scenario.seas.len();
        self.fleets_at_sea.fill(0);
        for n in 0..nn {
            if !self.nations[n].alive || self.nations[n].fleets == 0 {
                self.nations[n].fleet_sea = NONE;
                continue;
            }
            let s = policies[n].fleet_sea(model, self, n, dice);
            self.nations[n].fleet_sea = s;
            if (s as usize) < seas {
                self.fleets_at_sea[n * seas + s as usize] = self.nations[n].fleets;
            }
        }
        for s in 0..seas {
            for a in 0..nn {
                for b in a + 1..nn {
                    let (fa, fb) = (
                        self.fleets_at_sea[a * seas + s],
                        self.fleets_at_sea[b * seas + s],
                    );
                    if fa == 0 || fb == 0 || !self.at_war(a, b) {
                        continue;
                    }
                    let ports = [self.ports_on(model, a, s), self.ports_on(model, b, s)];
                    let (losses, winner) = model.naval.clash([fa, fb], ports, dice);
                    let (vp, stability) = model.naval.vp_and_stability(losses, winner);
                    for (i, &n) in [a, b].iter().enumerate() {
                        self.fleets_at_sea[n * seas + s] -= losses[i];
                        self.nations[n].fleets -= losses[i];
                        self.nations[n].vp += vp[i] as i64;
                        self.change_stability(n, stability[i] as i32, model.rules.optimal_vp);
                    }
                    self.battles += 1;
                    self.war_activity[a] |= 1 << b;
                    self.war_activity[b] |= 1 << a;
                    game_log!(
                        log,
                        "  naval battle in the {}: {} {} fleets v {} {} fleets; losses {} / {}; {}",
                        model.scenario.seas[s],
                        model.name(a),
                        fa,
                        model.name(b),
                        fb,
                        losses[0],
                        losses[1],
                        match winner {
                            Winner::Attacker => format!("{} wins", model.name(a)),
                            Winner::Defender => format!("{} wins", model.name(b)),
                            Winner::None => "no winner".into(),
                        }
                    );
                }
            }
        }
        // Attrition: fleets in a sea where their nation and its allies have no port lose a fleet on each 10.
        for n in 0..nn {
            let s = self.nations[n].fleet_sea as usize;
            if s >= seas || self.ports_on(model, n, s) > 0 {
                continue;
            }
            let f = self.fleets_at_sea[n * seas + s];
            let lost = dice.d10_at_least(f, 10);
            self.fleets_at_sea[n * seas + s] -= lost;
            self.nations[n].fleets -= lost;
        }
    }

    /// Ports on sea `s` counting for nation `n`: its own, its military allies', and those of
    /// independents allied to or vassal of it (L679-L683, L525).
    pub fn ports_on(&self, model: &Model, n: usize, s: usize) -> u32 {
        let bit = 1u16 << s;
        let mut count = 0;
        for &p in &model.port_provinces {
            let pr = &self.provinces[p];
            if pr.ports & bit == 0 || pr.occupier != NONE {
                continue;
            }
            let o = pr.owner;
            if o != NONE {
                if o as usize == n || self.allied(n, o as usize) {
                    count += 1;
                }
            } else if pr.grade[n] >= MILITARY {
                count += 1;
            }
        }
        count
    }

    /// Whether nation `n` may cross sea `s` this turn: 10 more own and allied fleets than hostile (L669).
    pub fn sea_supremacy(&self, model: &Model, n: usize, s: usize) -> bool {
        let seas = model.scenario.seas.len();
        let (mut own, mut enemy) = (0, 0);
        for m in 0..self.nations.len() {
            let f = self.fleets_at_sea[m * seas + s];
            if m == n || self.allied(n, m) {
                own += f;
            } else if self.at_war(n, m) {
                enemy += f;
            }
        }
        own >= enemy + 10
    }

    /// Whether nation `n` may pass through province `p`: its own, an enemy's, one whose owner
    /// granted it passage, or any independent's.
    pub fn passable(&self, n: usize, p: usize) -> bool {
        let o = self.provinces[p].owner;
        o == NONE || o as usize == n || self.at_war(n, o as usize) || self.passage(o as usize, n)
    }

    /// Whether `n` finds something to fight in province `p`.
    pub fn hostile_units_at(&self, n: usize, p: usize) -> bool {
        let pr = &self.provinces[p];
        (pr.owner == NONE && pr.grade[n] == HOSTILE && pr.troops[0] + pr.troops[1] > 0)
            || self.enemy_units(n, p) > 0
    }

    /// Movement (rule 3.14): every leader with units takes the share his policy orders towards its
    /// target, one step per segment, all nations together; entering hostile units is a field battle.
    pub fn movement(
        &mut self,
        model: &Model,
        policies: &Policies,
        scratch: &mut MoveScratch,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let moves = &mut scratch.moves;
        moves.clear();
        // Leader deployment (rule 3.11): a leader without units joins the nation's largest army
        // (armies do not move here, so each nation's is looked for once).
        let mut largest: [Option<Option<usize>>; 16] = [None; 16];
        for li in 0..self.leaders.len() {
            let l = self.leaders[li];
            if !l.alive || l.nation == NONE {
                continue;
            }
            let n = l.nation as usize;
            if size(self.army(n, l.province as usize)) == 0 {
                let found = *largest[n].get_or_insert_with(|| {
                    (0..self.provinces.len())
                        .filter(|&p| size(self.army(n, p)) > 0)
                        .max_by_key(|&p| size(self.army(n, p)))
                });
                if let Some(p) = found {
                    self.leaders[li].province = p as u16;
                }
            }
        }
        // Co-located hostile armies with a leader fight once at the start (A12). Battles start no
        // war and make no province Hostile, so a nation with neither cannot meet one here.
        let mut may_meet = 0u16;
        for n in 0..self.nations.len() {
            let hostile_independent = self.free_independents().any(|p| {
                let pr = &self.provinces[p];
                pr.grade[n] == HOSTILE && pr.troops[0] + pr.troops[1] > 0
            });
            if self.nations[n].at_war != 0 || hostile_independent {
                may_meet |= 1 << n;
            }
        }
        for p in 0..self.provinces.len() {
            for n in 0..self.nations.len() {
                if may_meet & (1 << n) != 0
                    && size(self.army(n, p)) > 0
                    && self.hostile_units_at(n, p)
                    && self.best_leader(n, p).is_some()
                {
                    self.field_battle(model, n, p, None, log, dice);
                }
            }
        }
        for li in 0..self.leaders.len() {
            let l = self.leaders[li];
            if !l.alive || l.nation == NONE {
                continue;
            }
            let n = l.nation as usize;
            let from = l.province as usize;
            if size(self.army(n, from)) == 0
                || moves.iter().any(|m| m.nation == n && m.from == from)
            {
                continue;
            }
            let Some((target, order, share)) = policies[n].army_order(model, self, n, from, dice)
            else {
                continue;
            };
            let here = *self.army(n, from);
            let mut taking = [0u32; 6];
            for c in 0..6 {
                taking[c] = ((here[c] as f64) * share).round() as u32;
            }
            if size(&taking) == 0 {
                continue;
            }
            let Some(path) = model.route(self, n, from, target, &mut scratch.route) else {
                continue;
            };
            for c in 0..6 {
                self.army_mut(n, from)[c] -= taking[c];
            }
            moves.push(Move {
                nation: n,
                leader: li,
                from,
                at: from,
                units: taking,
                path,
                step: 0,
                segments: 0,
                stopped: false,
                order,
            });
        }
        // Six segments, all armies together.
        for seg in 1..=6u32 {
            for i in 0..moves.len() {
                let mv = &moves[i];
                if mv.stopped || mv.step >= mv.path.steps().len() || mv.segments >= seg {
                    continue;
                }
                let (next, cost, border) = mv.path.steps()[mv.step];
                let end = mv.segments + cost;
                let allowed = end <= 6
                    && match border {
                        Some(Border::Mountain) => end <= 4,
                        Some(Border::Strait) | None => end <= 5,
                        _ => true,
                    };
                if !allowed {
                    moves[i].stopped = true;
                    continue;
                }
                moves[i].segments = end;
                moves[i].step += 1;
                moves[i].at = next;
                let n = moves[i].nation;
                if self.hostile_units_at(n, next) {
                    let units = moves[i].units;
                    let survivors = self.field_battle(
                        model,
                        n,
                        next,
                        Some((units, moves[i].leader)),
                        log,
                        dice,
                    );
                    moves[i].units = survivors.0;
                    if !survivors.1 || size(&moves[i].units) == 0 {
                        moves[i].stopped = true;
                    }
                }
            }
        }
        // Arrival: the rest of the segments go to the order (assault, siege or pillage).
        for i in 0..moves.len() {
            let mv = moves[i];
            let n = mv.nation;
            let p = mv.at;
            let left = 6 - mv.segments.min(6);
            if size(&mv.units) > 0
                && left > 0
                && !self.hostile_units_at(n, p)
                && self.leaders[mv.leader].alive
            {
                let mut units = mv.units;
                self.city_action(
                    model,
                    n,
                    p,
                    &mut units,
                    mv.order,
                    left,
                    mv.segments,
                    log,
                    dice,
                );
                moves[i].units = units;
            }
            let units = moves[i].units;
            let a = self.army_mut(n, p);
            for c in 0..6 {
                a[c] += units[c];
            }
            if self.leaders[mv.leader].alive {
                self.leaders[mv.leader].province = p as u16;
            }
            if self.provinces[p].owner != NONE && self.provinces[p].owner as usize != n {
                let o = self.provinces[p].owner as usize;
                self.war_activity[n] |= 1 << o;
                self.war_activity[o] |= 1 << n;
            }
        }
    }

    pub fn best_leader(&self, n: usize, p: usize) -> Option<usize> {
        (0..self.leaders.len())
            .filter(|&i| {
                self.leaders[i].alive
                    && self.leaders[i].nation as usize == n
                    && self.leaders[i].province as usize == p
            })
            .max_by_key(|&i| (self.leaders[i].leader.modifier, self.leaders[i].leader.age))
    }

    /// A field battle in `p` between nation `n` (moving with `incoming` and its leader, or already
    /// there) and what is hostile there: the largest enemy army, or the Hostile independent. The
    /// military allies of either side standing in `p` and at war with the other fight with it
    /// (L323, A9). Returns the mover's survivors and whether it may keep moving.
    pub(super) fn field_battle(
        &mut self,
        model: &Model,
        n: usize,
        p: usize,
        incoming: Option<(Army, usize)>,
        log: &mut dyn GameLog,
        dice: &mut Dice,
    ) -> (Army, bool) {
        let rules: &FieldRules = &model.field;
        let nn = self.nations.len();
        let (mine, my_leader) = match incoming {
            Some((units, leader)) => (units, Some(leader)),
            None => (std::mem::take(self.army_mut(n, p)), self.best_leader(n, p)),
        };
        let enemy = (0..nn)
            .filter(|&m| self.at_war(n, m) && size(self.army(m, p)) > 0)
            .max_by_key(|&m| size(self.army(m, p)));
        let mut sides = [Contingents::default(), Contingents::default()];
        sides[0].push(n, mine);
        let independent = enemy.is_none();
        match enemy {
            Some(m) => {
                let army = std::mem::take(self.army_mut(m, p));
                sides[1].push(m, army);
                for (side, (me, foe)) in [(0, (n, m)), (1, (m, n))] {
                    for a in 0..nn {
                        if a != me
                            && a != foe
                            && self.allied(me, a)
                            && self.at_war(a, foe)
                            && size(self.army(a, p)) > 0
                            && !sides[1 - side].has(a)
                        {
                            let army = std::mem::take(self.army_mut(a, p));
                            sides[side].push(a, army);
                        }
                    }
                }
            }
            None => {
                let t = std::mem::take(&mut self.provinces[p].troops);
                sides[1].push(NONE as usize, [t[0], t[1], 0, 0, 0, 0]);
            }
        }
        // Each side fights under its single best leader (A10).
        let side_leader = |s: &State, side: usize| -> Option<usize> {
            let mut best = if side == 0 { my_leader } else { None };
            for &(a, _) in sides[side].iter() {
                let here = if a == NONE as usize {
                    let li = s.provinces[p].indep_leader;
                    (li != usize::MAX).then_some(li)
                } else if a == n && side == 0 {
                    None
                } else {
                    s.best_leader(a, p)
                };
                let key = |li: usize| (s.leaders[li].leader.modifier, s.leaders[li].leader.age);
                if let Some(li) = here {
                    if best.is_none_or(|b| key(li) > key(b)) {
                        best = Some(li);
                    }
                }
            }
            best
        };
        let leaders = [side_leader(self, 0), side_leader(self, 1)];
        let fighting = [
            FieldSide {
                units: combat_units(&sides[0].total()),
                leader: leaders[0].map(|i| self.leaders[i].leader),
                independent: false,
            },
            FieldSide {
                units: combat_units(&sides[1].total()),
                leader: leaders[1].map(|i| self.leaders[i].leader),
                independent,
            },
        ];
        let engagement = rules.engage(&fighting);
        let (losses, winner) = rules.clash(&engagement, dice);
        let (vp, stability, may_continue) = rules.consequences(&fighting, losses, winner);
        let before = [size(&sides[0].total()), size(&sides[1].total())];
        let sizes_before = [sides[0].sizes(), sides[1].sizes()];
        for (s, side) in sides.iter_mut().enumerate() {
            let lost = side.remove_losses(losses[s], rules.allocation, dice);
            self.units_ledger -= lost as i64;
            if winner != Winner::None && FieldRules::fate(winner, s) == LeaderFate::Won {
                // New veterans go to the side's first contingent (the mover or the defender).
                let army = &mut side.items[0].1;
                let [vi, vc] = rules.roll_veterans([army[INF], army[CAV]], dice);
                army[INF] -= vi;
                army[VINF] += vi;
                army[CAV] -= vc;
                army[VCAV] += vc;
            }
        }
        let foe_nation = enemy;
        // Leaders present on both sides age and check (L743-L758); the mover's leader is still
        // counted at the province he left.
        let mut leader_vp = [0i64; 2];
        for li in 0..self.leaders.len() {
            let gl = self.leaders[li];
            if !gl.alive {
                continue;
            }
            let here = gl.province as usize == p || Some(li) == my_leader;
            let side = if !here {
                continue;
            } else if gl.nation != NONE && sides[0].has(gl.nation as usize) {
                0
            } else if (gl.nation == NONE && independent)
                || (gl.nation != NONE && sides[1].has(gl.nation as usize))
            {
                1
            } else {
                continue;
            };
            let fate = FieldRules::fate(winner, side);
            let removed = gl.leader.roll_removal(fate, &rules.age_check, dice);
            self.leaders[li].leader.age += 1
                + if fate == LeaderFate::Lost && winner != Winner::None {
                    2
                } else {
                    0
                };
            if removed {
                self.remove_leader(model, li, dice, log);
                if !(side == 0 && independent) {
                    leader_vp[1 - side] += 2 + gl.leader.modifier as i64;
                }
            }
        }
        // VP shared in proportion to the units each brought, rounded up (A23); stability to each.
        for side in 0..2 {
            let total: u32 = sizes_before[side].iter().sum();
            for (k, &(a, _)) in sides[side].iter().enumerate() {
                if a == NONE as usize {
                    continue;
                }
                let share = sizes_before[side][k] as f64 / total.max(1) as f64;
                let won = vp[side] + leader_vp[side] as f64;
                self.nations[a].vp += if sides[side].len == 1 {
                    won as i64
                } else {
                    (won * share).ceil() as i64
                };
                self.change_stability(a, stability[side] as i32, model.rules.optimal_vp);
            }
        }
        for &(a, _) in sides[0].iter() {
            for &(b, _) in sides[1].iter().filter(|&&(b, _)| b != NONE as usize) {
                self.war_activity[a] |= 1 << b;
                self.war_activity[b] |= 1 << a;
            }
        }
        // Everyone but the mover's marching units goes back where it stood.
        for side in 0..2 {
            for (k, &(a, army)) in sides[side].iter().enumerate() {
                if side == 0 && k == 0 {
                    continue;
                }
                if a != NONE as usize {
                    *self.army_mut(a, p) = army;
                    continue;
                }
                // Added, not assigned: a leader replacing one killed here may have brought
                // troops. An independent's troops carry no veteran mark, so its new veterans
                // count as plain troops (a simplification of the game model).
                let pr = &mut self.provinces[p];
                pr.troops[0] += army[INF] + army[VINF];
                pr.troops[1] += army[CAV] + army[VCAV];
                if pr.troops == [0, 0] {
                    if pr.indep_leader != usize::MAX {
                        let li = pr.indep_leader;
                        self.remove_leader(model, li, dice, log);
                    }
                    // Wiping out a Hostile independent's troops makes it a vassal at once (L495).
                    let pr = &mut self.provinces[p];
                    if !(0..16).any(|m| m != n && pr.grade[m] >= MILITARY) {
                        pr.grade[n] = VASSAL;
                    }
                }
            }
        }
        if winner != Winner::None {
            self.nations[[n, foe_nation.unwrap_or(n)][winner.index().min(1)]].battles_won += 1;
        }
        self.battles += 1;
        game_log!(
            log,
            "  field battle in {}: {}{} {} units (+{}) v {}{} {} units (+{}); losses {} / {}; {}",
            model.code(p),
            model.name(n),
            if sides[0].len > 1 { " and allies" } else { "" },
            before[0],
            fighting[0].leader.map_or(0, |l| l.modifier),
            foe_nation.map_or("independent".to_string(), |m| model.name(m).to_string()),
            if sides[1].len > 1 { " and allies" } else { "" },
            before[1],
            fighting[1].leader.map_or(0, |l| l.modifier),
            losses[0],
            losses[1],
            match winner {
                Winner::Attacker => format!("{} wins", model.name(n)),
                Winner::Defender => "the defender wins".to_string(),
                Winner::None => "no winner".into(),
            }
        );
        let mine = sides[0].items[0].1;
        if incoming.is_none() {
            *self.army_mut(n, p) = mine;
            return ([0; 6], false);
        }
        (mine, may_continue)
    }

    /// A leader leaves play: a nation's is replaced at once from its strategy level (§4.4); an
    /// independent one by the d20 table, in a random independent province (§4.6, L828).
    pub fn remove_leader(
        &mut self,
        model: &Model,
        li: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let gl = self.leaders[li];
        if !gl.alive {
            return;
        }
        self.leaders[li].alive = false;
        if gl.nation == NONE {
            let p = gl.province as usize;
            if self.provinces[p].indep_leader == li {
                self.provinces[p].indep_leader = usize::MAX;
            }
            let roll = dice.d(20);
            let row = model
                .scenario
                .replacement_leaders
                .iter()
                .find(|r| (r.low..=r.high).contains(&roll))
                .copied();
            let target = model.independents[dice.below(model.independents.len() as u64) as usize];
            if let Some(row) = row {
                let pr = &self.provinces[target];
                if pr.owner == NONE && pr.indep_leader == usize::MAX {
                    self.place_independent_leader(target, row.level, row.troops, dice);
                    game_log!(
                        log,
                        "  a new independent leader appears in {}",
                        model.code(target)
                    );
                }
            }
            return;
        }
        let n = gl.nation as usize;
        if !self.nations[n].alive {
            return;
        }
        let leader = super::state::new_leader(self.nations[n].strategy, dice);
        game_log!(
            log,
            "  {} loses a +{} leader aged {}; a new +{} leader aged {} takes his place",
            model.name(n),
            gl.leader.modifier,
            gl.leader.age,
            leader.modifier,
            leader.age
        );
        // The slot is reused so the leader list does not grow.
        self.leaders[li] = super::state::GameLeader {
            leader,
            nation: n as u8,
            province: self.nations[n].capital as u16,
            alive: true,
        };
    }

    /// Assault, siege or pillage with the segments left (rules 4.3, 4.4, L665).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn city_action(
        &mut self,
        model: &Model,
        n: usize,
        p: usize,
        units: &mut Army,
        order: Order,
        left: u32,
        used: u32,
        log: &mut dyn GameLog,
        dice: &mut Dice,
    ) {
        let pr = &self.provinces[p];
        let enemy_city = match pr.owner {
            NONE => pr.grade[n] == HOSTILE,
            o => o as usize != n && self.at_war(n, o as usize) && pr.occupier as usize != n,
        };
        let own_city_to_free =
            pr.owner as usize == n && pr.occupier != NONE && self.at_war(n, pr.occupier as usize);
        if !(enemy_city || own_city_to_free) {
            return;
        }
        match order {
            Order::Pillage if pr.owner != NONE && pr.owner as usize != n => {
                let eff = size(units) as u64 * left as u64;
                let (idle, destroyed) =
                    crate::rulesets::mare_nostrum::pillage::pillage(eff, pr.ppr, dice);
                let pr = &mut self.provinces[p];
                pr.pillaged = idle;
                pr.ppr -= destroyed;
                game_log!(
                    log,
                    "  {} pillages {}: {} PPR idle, {} destroyed",
                    model.name(n),
                    model.code(p),
                    idle,
                    destroyed
                );
            }
            _ => {
                let siege = order == Order::Siege;
                let rules = if siege { &model.siege } else { &model.assault };
                let mut g = self.provinces[p].garrison;
                let mut orders = 0;
                for k in 0..left {
                    if g == 0 || size(units) == 0 || (siege && used + k + 1 == 6) {
                        break;
                    }
                    orders += 1;
                    let (h, a) = rules.order(size(units), g, dice);
                    let lost = remove_losses(units, h, model.field.allocation, dice);
                    self.units_ledger -= size(&lost) as i64;
                    g -= a;
                    let ppu = self.provinces[p].ppu;
                    self.provinces[p].ppu -= rules.ppu_destroyed(a, ppu, dice);
                }
                self.provinces[p].garrison = g;
                if orders > 0 {
                    game_log!(
                        log,
                        "  {} {} {} ({} order{}): garrison left {}",
                        model.name(n),
                        if siege { "besieges" } else { "assaults" },
                        model.code(p),
                        orders,
                        if orders == 1 { "" } else { "s" },
                        g
                    );
                }
                if rules.taken(size(units), g) {
                    self.city_falls(model, n, p, log);
                }
            }
        }
    }

    fn city_falls(&mut self, model: &Model, n: usize, p: usize, log: &mut dyn GameLog) {
        let pr = &self.provinces[p];
        if pr.owner == NONE {
            self.provinces[p].garrison = 1;
            self.annex(model, n, p, log);
            return;
        }
        let owner = pr.owner as usize;
        // A previous occupier loses its 5 VP of that occupation (L963).
        if pr.occupier != NONE && pr.occupation_vp {
            self.nations[pr.occupier as usize].vp -= 5;
        }
        let pr = &mut self.provinces[p];
        if owner == n {
            pr.occupier = NONE;
            pr.occupation_vp = false;
            pr.garrison = 1;
            game_log!(
                log,
                "  {} frees its city in {}",
                model.name(n),
                model.code(p)
            );
            return;
        }
        pr.occupier = n as u8;
        pr.occupation_vp = true;
        pr.garrison = 1;
        self.nations[n].vp += 5;
        self.cities_taken += 1;
        if model.rules.occupation_costs_stability {
            self.change_stability(owner, -1, model.rules.optimal_vp);
        }
        game_log!(
            log,
            "  {} occupies the city of {} ({}), +5 VP",
            model.name(n),
            model.code(p),
            model.name(owner)
        );
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
        // Troops of each party in the other's territory go home (L867).
        let np = self.provinces.len();
        for (a, b) in [(victor, loser), (loser, victor)] {
            if !self.nations[a].alive {
                continue;
            }
            let home = self.nations[a].capital;
            for p in 0..np {
                if self.provinces[p].owner as usize == b {
                    let units = std::mem::take(self.army_mut(a, p));
                    let h = self.army_mut(a, home);
                    for c in 0..6 {
                        h[c] += units[c];
                    }
                    for l in &mut self.leaders {
                        if l.alive && l.nation as usize == a && l.province as usize == p {
                            l.province = home as u16;
                        }
                    }
                }
            }
        }
        self.nations[victor].at_war &= !(1 << loser);
        self.nations[loser].at_war &= !(1 << victor);
        let until = self.turn + 5;
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
        let np = self.provinces.len();
        for a in &mut self.armies[n * np..(n + 1) * np] {
            self.units_ledger -= size(a) as i64;
            *a = [0; 6];
        }
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

/// The armies fighting on one side of a field battle: (nation, or NONE for the independent, its
/// units); the first is the mover or the defender.
#[derive(Clone, Copy, Default)]
struct Contingents {
    items: [(usize, Army); 16],
    len: usize,
}

impl Contingents {
    fn push(&mut self, nation: usize, army: Army) {
        self.items[self.len] = (nation, army);
        self.len += 1;
    }

    fn iter(&self) -> std::slice::Iter<'_, (usize, Army)> {
        self.items[..self.len].iter()
    }

    fn has(&self, nation: usize) -> bool {
        self.iter().any(|&(a, _)| a == nation)
    }

    fn total(&self) -> Army {
        let mut sum = [0; 6];
        for (_, army) in self.iter() {
            for c in 0..6 {
                sum[c] += army[c];
            }
        }
        sum
    }

    fn sizes(&self) -> [u32; 16] {
        let mut sizes = [0; 16];
        for (k, (_, army)) in self.iter().enumerate() {
            sizes[k] = size(army);
        }
        sizes
    }

    /// Takes `losses` units over the whole side, each unit equally likely whatever its nation
    /// (A8, A9): the count per contingent is drawn without replacement, then each contingent loses
    /// its count by the allocation rule. Returns the units removed.
    fn remove_losses(&mut self, losses: u32, allocation: Allocation, dice: &mut Dice) -> u32 {
        let mut left = losses.min(size(&self.total()));
        let mut rest: u32 = self.iter().map(|(_, a)| size(a)).sum();
        let mut removed = 0;
        for k in 0..self.len {
            let here = size(&self.items[k].1);
            rest -= here;
            let take = if rest == 0 {
                left
            } else {
                draw_without_replacement(dice, [here, rest], left)[0]
            };
            removed += size(&remove_losses(&mut self.items[k].1, take, allocation, dice));
            left -= take;
        }
        removed
    }
}

/// An agreement between two nations that one of them may end (§5.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Commercial,
    Military,
    Passage,
}

/// Movement's working space, reused from turn to turn.
#[derive(Default)]
pub struct MoveScratch {
    pub moves: Vec<Move>,
    pub route: RouteScratch,
}

pub const GRADE_NAMES: [&str; 6] = [
    "Hostile",
    "Neutral",
    "Passage",
    "Subsidiary",
    "Military Alliance",
    "Vassal",
];

/// Requests for a step up with an independent this round: (nation, province), at most one a nation.
#[derive(Clone, Copy, Default)]
pub struct Requests {
    items: [(usize, usize); 16],
    len: usize,
}

impl Requests {
    pub fn push(&mut self, n: usize, p: usize) {
        self.items[self.len] = (n, p);
        self.len += 1;
    }

    pub fn iter(&self) -> std::slice::Iter<'_, (usize, usize)> {
        self.items[..self.len].iter()
    }
}

/// An army on the move this turn.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    pub nation: usize,
    pub leader: usize,
    pub from: usize,
    pub at: usize,
    pub units: Army,
    pub path: Route,
    pub step: usize,
    pub segments: u32,
    pub stopped: bool,
    pub order: Order,
}
