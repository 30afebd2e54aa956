//! War on land (digest §3, §5.14): movement on the map in six segments, field battles with
//! allied contingents, assaults, sieges and pillage through the battle code, leaders lost.

use super::scenario::Border;
use super::state::{
    share_of, size, Army, State, CAV, HOSTILE, INF, MCAV, MILITARY, MINF, NONE, VASSAL, VCAV, VINF,
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
pub(super) fn combat_units(a: &Army) -> [u32; 4] {
    [a[INF] + a[MINF], a[CAV] + a[MCAV], a[VINF], a[VCAV]]
}

impl State {
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
            let hostile_independent = || {
                self.hostile_independent(n)
                    && self.free_independents().any(|p| {
                        let pr = &self.provinces[p];
                        pr.grade[n] == HOSTILE && pr.troops[0] + pr.troops[1] > 0
                    })
            };
            if self.nations[n].at_war != 0 || hostile_independent() {
                may_meet |= 1 << n;
            }
        }
        for p in 0..self.provinces.len() {
            let mut nations = may_meet & self.present(p);
            while nations != 0 {
                let n = nations.trailing_zeros() as usize;
                nations &= nations - 1;
                if size(self.army(n, p)) > 0
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
            let taking = share_of(&here, share);
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
            let mut a = self.army_mut(n, p);
            for c in 0..6 {
                a[c] += units[c];
            }
            drop(a);
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

    /// The living leader of `n` in `p` with the highest modifier, then age; the last listed of
    /// equals. A plain loop: it is asked for every army that might fight, many times a turn.
    pub fn best_leader(&self, n: usize, p: usize) -> Option<usize> {
        let mut best: Option<(usize, (u32, u32))> = None;
        for (i, l) in self.leaders.iter().enumerate() {
            if l.alive && l.nation as usize == n && l.province as usize == p {
                let key = (l.leader.modifier, l.leader.age);
                if best.is_none_or(|(_, b)| key >= b) {
                    best = Some((i, key));
                }
            }
        }
        best.map(|(i, _)| i)
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
            None => (self.take_army(n, p), self.best_leader(n, p)),
        };
        let enemy = (0..nn)
            .filter(|&m| self.at_war(n, m) && size(self.army(m, p)) > 0)
            .max_by_key(|&m| size(self.army(m, p)));
        let mut sides = [Contingents::default(), Contingents::default()];
        sides[0].push(n, mine);
        let independent = enemy.is_none();
        match enemy {
            Some(m) => {
                let army = self.take_army(m, p);
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
                            let army = self.take_army(a, p);
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
                    let pr = &self.provinces[p];
                    if !(0..16).any(|m| m != n && pr.grade[m] >= MILITARY) {
                        self.set_grade(p, n, VASSAL);
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

/// Movement's working space, reused from turn to turn.
#[derive(Default)]
pub struct MoveScratch {
    pub moves: Vec<Move>,
    pub route: RouteScratch,
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
