//! The economy (digest §5.1-§5.10, §5.13): income with inactivity, population upkeep, stability
//! investments, population changes, recruitment, military upkeep, garrisons and trade.

use super::scenario::{Goods, CB, COLLAPSE, FIASCO, G, R, T};
use super::state::{
    link_key, size, State, TradeLink, CAV, INF, MCAV, MINF, NONE, SUBSIDIARY, VASSAL, VCAV, VINF,
};
use super::{Model, Policies};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// Trade income per nation (L149, L582, L595-L603): every active point gives 1 T to its owner and
/// 1 T to the owner of the city it ends in; points X→Y that face points Y→X form route points
/// (the smaller count), summed over all of a nation's routes, 1 T per full 5. `facing` and
/// `active` are, for each link, the link facing it ([`Facing`]) and whether it is active.
pub fn trade_income(
    links: &[TradeLink],
    facing: &[u32],
    active: &[bool],
    owner_of_city: impl Fn(usize) -> u8,
    income: &mut [i64],
    route_points: &mut [u32],
) {
    route_points.fill(0);
    for (i, l) in links.iter().enumerate() {
        if !active[i] {
            continue;
        }
        income[l.owner as usize] += l.points as i64;
        let dest = owner_of_city(l.to as usize);
        if dest == NONE {
            continue;
        }
        income[dest as usize] += l.points as i64;
        let f = facing[i] as usize;
        let facing_points = if f != NO_LINK as usize && active[f] {
            links[f].points
        } else {
            0
        };
        route_points[l.owner as usize] += l.points.min(facing_points);
    }
    for (i, r) in route_points.iter().enumerate() {
        income[i] += (*r / 5) as i64;
    }
}

/// No facing link.
pub const NO_LINK: u32 = u32::MAX;

/// The link facing each trade link (X→Y faces Y→X when that is owned by Y's owner), as an index
/// into the links, or [`NO_LINK`]; worked out again only when the links (not their points) or
/// the owners of the cities they end in have changed, which most turns they have not.
#[derive(Debug, Default)]
pub struct Facing {
    /// The links and the owners of the cities they end in, as they were when worked out.
    keys: Vec<u64>,
    dests: Vec<u8>,
    index: Vec<u32>,
}

impl Facing {
    pub fn update(&mut self, links: &[TradeLink], owner_of_city: impl Fn(usize) -> u8) -> &[u32] {
        let unchanged = self.keys.len() == links.len()
            && (self.keys.iter().zip(&self.dests).zip(links))
                .all(|((&k, &d), l)| k == l.key() && d == owner_of_city(l.to as usize));
        if unchanged {
            return &self.index;
        }
        debug_assert!(links.is_sorted_by_key(TradeLink::key));
        // Where each owner's links begin: a facing link is looked for among its owner's only.
        let mut start = [0usize; 17];
        for l in links {
            start[l.owner as usize + 1] += 1;
        }
        for o in 0..16 {
            start[o + 1] += start[o];
        }
        self.index.clear();
        for l in links {
            let dest = owner_of_city(l.to as usize);
            let found = if dest == NONE {
                None
            } else {
                let (first, end) = (start[dest as usize], start[dest as usize + 1]);
                links[first..end]
                    .binary_search_by_key(&link_key(dest, l.to, l.from), TradeLink::key)
                    .ok()
                    .map(|i| first + i)
            };
            self.index.push(found.map_or(NO_LINK, |i| i as u32));
        }
        self.keys.clear();
        self.keys.extend(links.iter().map(TradeLink::key));
        self.dests.clear();
        self.dests
            .extend(links.iter().map(|l| owner_of_city(l.to as usize)));
        &self.index
    }
}

impl State {
    /// A province is inactive for its owner when enemy land units outnumber its own and allied ones (L156).
    pub fn inactive(&self, p: usize) -> bool {
        let o = self.provinces[p].owner;
        if o == NONE {
            return false;
        }
        let enemy = self.enemy_units(o as usize, p);
        enemy > 0 && enemy > self.friendly_units(o as usize, p)
    }

    /// A city's trade is idle: occupied, its province inactive, or its port blockaded (L162-L168).
    /// `inactive` is [`State::inactive`] for `p`, which the economic phase has already worked out.
    pub fn city_trade_idle(&self, model: &Model, p: usize, inactive: bool) -> bool {
        let pr = &self.provinces[p];
        if pr.occupier != NONE || inactive {
            return true;
        }
        let o = pr.owner;
        // Only an enemy's fleets blockade.
        if o == NONE || pr.ports == 0 || self.nations[o as usize].at_war == 0 {
            return false;
        }
        let seas = model.scenario.seas.len();
        let friends = self.nations[o as usize].military | 1 << o;
        let enemies = self.nations[o as usize].at_war & !friends;
        (0..seas)
            .filter(|s| pr.ports & (1 << s) != 0)
            .all(|s| self.fleets_of(enemies, seas, s) >= self.fleets_of(friends, seas, s) + 10)
    }

    fn link_active(&self, idle: &[bool], l: &TradeLink) -> bool {
        let dest = self.provinces[l.to as usize].owner;
        if dest != NONE && self.at_war(l.owner as usize, dest as usize) {
            return false;
        }
        if dest == NONE
            && self.provinces[l.to as usize].grade[l.owner as usize] == super::state::HOSTILE
        {
            return false;
        }
        !idle[l.from as usize] && !idle[l.to as usize]
    }

    /// The economic phase (rule 2.1-2.3): income, extraordinary income and payments, deliveries,
    /// population upkeep. `years` is 5 in a Historical Period.
    pub fn economic_phase(&mut self, model: &Model, scratch: &mut Scratch, log: &mut dyn GameLog) {
        let years = if self.historical_period { 5 } else { 1 };
        let nn = self.nations.len();
        scratch.income.clear();
        scratch.income.resize(nn, [0; 4]);
        scratch.trade.clear();
        scratch.trade.resize(nn, 0);
        scratch.routes.clear();
        scratch.routes.resize(nn, 0);
        let links = std::mem::take(&mut self.trade);
        scratch.idle.clear();
        scratch.inactive.clear();
        for p in 0..self.provinces.len() {
            let inactive = self.inactive(p);
            scratch.inactive.push(inactive);
            scratch.idle.push(self.city_trade_idle(model, p, inactive));
        }
        {
            let this = &*self;
            let owner = |c: usize| this.provinces[c].owner;
            scratch.active.clear();
            scratch
                .active
                .extend(links.iter().map(|l| this.link_active(&scratch.idle, l)));
            let facing = scratch.facing.update(&links, owner);
            trade_income(
                &links,
                facing,
                &scratch.active,
                owner,
                &mut scratch.trade,
                &mut scratch.routes,
            );
        }
        self.trade = links;
        // Turn 1: the free points count as active before they are placed (L1004).
        if self.turn == 1 {
            for (n, nd) in model.scenario.nations.iter().enumerate() {
                scratch.trade[n] = nd.trade_points as i64;
            }
        }
        for p in 0..self.provinces.len() {
            let pr = &self.provinces[p];
            let o = pr.owner;
            if o == NONE {
                // Subsidiary and vassal independents pay their holders (L517, L525).
                let mut holders = pr.grades_at_least(SUBSIDIARY) & ((1u32 << nn) - 1) as u16;
                while holders != 0 {
                    let n = holders.trailing_zeros() as usize;
                    holders &= holders - 1;
                    let g = pr.grade[n];
                    if g == VASSAL {
                        scratch.income[n][T] += 4 * pr.ppu as i64;
                    } else if g == SUBSIDIARY {
                        scratch.income[n][T] += 2 * pr.ppu as i64;
                    }
                }
                continue;
            }
            let inc = &mut scratch.income[o as usize];
            if pr.occupier == NONE {
                inc[T] += 5 * pr.ppu as i64;
            }
            if !scratch.inactive[p] {
                inc[T] += 5 * pr.mines as i64;
                inc[G] += pr.harvests as i64;
                inc[R] += pr.deposits as i64;
                inc[CB] += pr.herds as i64;
            }
        }
        for n in 0..nn {
            if !self.nations[n].alive {
                continue;
            }
            let mut inc = scratch.income[n];
            inc[T] += scratch.trade[n];
            for g in &mut inc {
                *g *= years;
            }
            let arrived = std::mem::take(&mut self.nations[n].on_order);
            let nation = &mut self.nations[n];
            for k in 0..4 {
                nation.goods[k] += inc[k] + arrived[k];
            }
            game_log!(
                log,
                "  {} income {} T, {} G, {} R, {} Cb (trade {} T) -> treasury {}",
                model.name(n),
                inc[T],
                inc[G],
                inc[R],
                inc[CB],
                scratch.trade[n] * years,
                goods_text(&nation.goods)
            );
        }
        // War indemnities: 1 T per PPU of the payer a year (L879); short payers pay what they can and lose a level.
        for payer in 0..nn {
            if self.nations[payer].indemnity_years == [0; 16] {
                continue;
            }
            for receiver in 0..nn {
                if self.nations[payer].indemnity_years[receiver] == 0 {
                    continue;
                }
                let owed = self.total_ppu(payer) as i64 * years;
                let paid = owed.min(self.nations[payer].goods[T].max(0));
                self.nations[payer].goods[T] -= paid;
                self.nations[receiver].goods[T] += paid;
                let y = &mut self.nations[payer].indemnity_years[receiver];
                *y = y.saturating_sub(years as u8);
                if paid < owed {
                    self.change_stability(payer, -1, model.rules.optimal_vp);
                }
            }
        }
        // Urban population upkeep (L182-L190): active PPU beyond active PPR eat grain, else 5 T each.
        let (mut active_ppu, mut active_ppr) = ([0i64; 16], [0i64; 16]);
        for (p, pr) in self.provinces.iter().enumerate() {
            if pr.owner == NONE {
                continue;
            }
            if pr.occupier == NONE {
                active_ppu[pr.owner as usize] += pr.ppu as i64;
            }
            if !scratch.inactive[p] {
                active_ppr[pr.owner as usize] += pr.ppr.saturating_sub(pr.pillaged) as i64;
            }
        }
        for n in 0..nn {
            if !self.nations[n].alive {
                continue;
            }
            let (ppu, ppr) = (active_ppu[n], active_ppr[n]);
            let mut need = (ppu - ppr).max(0) * years;
            let nation = &mut self.nations[n];
            let grain = need.min(nation.goods[G].max(0));
            nation.goods[G] -= grain;
            need -= grain;
            if need > 0 {
                let cost = 5 * need;
                let short = nation.goods[T] < cost;
                nation.goods[T] = if short {
                    0.min(nation.goods[T])
                } else {
                    nation.goods[T] - cost
                };
                self.change_stability(n, -1, model.rules.optimal_vp);
                if short {
                    self.change_stability(n, -1, model.rules.optimal_vp);
                }
                game_log!(
                    log,
                    "  {}: {} PPU unfed, stability now {}",
                    model.name(n),
                    need,
                    super::scenario::STABILITY[self.nations[n].stability as usize]
                );
            }
        }
        for p in &mut self.provinces {
            p.pillaged = 0;
        }
    }

    /// Stability investments (rule 3.2): T = PPU, G and R = ceil(PPU/5) for one level each.
    pub fn invest_in_stability(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let max = if self.historical_period { 2 } else { 1 };
        for n in 0..self.nations.len() {
            if !self.nations[n].alive {
                continue;
            }
            let ppu = self.total_ppu(n) as i64;
            let cost = [ppu, (ppu + 4) / 5, (ppu + 4) / 5];
            let wanted = policies[n].invest_stability(model, self, n, dice);
            for (k, (&want, &c)) in wanted.iter().zip(&cost).enumerate() {
                let good = [T, G, R][k];
                for _ in 0..want.min(max) {
                    if c == 0 || self.nations[n].goods[good] < c {
                        break;
                    }
                    self.nations[n].goods[good] -= c;
                    let before = self.nations[n].vp;
                    self.change_stability(n, 1, model.rules.optimal_vp);
                    game_log!(
                        log,
                        "  {} invests {} {} in stability -> {}{}",
                        model.name(n),
                        c,
                        ["T", "G", "R"][k],
                        super::scenario::STABILITY[self.nations[n].stability as usize],
                        if self.nations[n].vp > before {
                            " (+5 VP at Optimal)"
                        } else {
                            ""
                        }
                    );
                }
            }
        }
    }

    /// Population changes (rule 3.4): buy PPR to feed the cities, and PPU to grow them.
    pub fn population_changes(&mut self, model: &Model, policies: &Policies, dice: &mut Dice) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive {
                continue;
            }
            // Regular units disbanded where they stand in the nation's own provinces, each one
            // PPR there within the growth cap; mercenaries cannot be (L385).
            let mut left = policies[n].disband(model, self, n, dice);
            for k in 0..self.owned[n].len() {
                let p = self.owned[n][k] as usize;
                while left > 0 && self.provinces[p].ppr < self.provinces[p].ppr_max {
                    let Some(c) = [INF, CAV, VINF, VCAV]
                        .into_iter()
                        .find(|&c| self.army(n, p)[c] > 0)
                    else {
                        break;
                    };
                    self.army_mut(n, p)[c] -= 1;
                    self.provinces[p].ppr += 1;
                    self.units_ledger -= 1;
                    left -= 1;
                }
            }
            let (buy_ppr, buy_ppu) = policies[n].population(model, self, n, dice);
            for _ in 0..buy_ppr {
                let Some(p) = self
                    .provinces_of(n)
                    .find(|&p| self.provinces[p].ppr < self.provinces[p].ppr_max)
                else {
                    break;
                };
                let g = &mut self.nations[n].goods;
                if g[G] < 1 || g[T] < 10 {
                    break;
                }
                g[G] -= 1;
                g[T] -= 10;
                self.provinces[p].ppr += 1;
            }
            for _ in 0..buy_ppu {
                let Some(p) = self.provinces_of(n).find(|&p| {
                    let pr = &self.provinces[p];
                    pr.ppu < pr.ppu_max && pr.ppr > 1 && pr.occupier == NONE
                }) else {
                    break;
                };
                let g = &mut self.nations[n].goods;
                if g[R] < 1 || g[T] < 15 {
                    break;
                }
                g[R] -= 1;
                g[T] -= 15;
                self.provinces[p].ppr -= 1;
                self.provinces[p].ppu += 1;
            }
        }
    }

    /// Recruitment (rules 3.5-3.6): infantry in up to 5 provinces, cavalry and mercenaries in one,
    /// fleets up to 5 per port; none in Collapse.
    pub fn recruit(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive || self.nations[n].stability >= COLLAPSE {
                continue;
            }
            let want = policies[n].recruit(model, self, n, dice);
            let nd = &model.scenario.nations[n];
            let base = self.nations[n].capital;
            let mut got = [0u32; 5];
            // Infantry: 1 PPR + 1 R + 5 T each, from up to five provinces with spare PPR.
            let mut provinces_used = 0;
            let mut left = want.infantry;
            for k in 0..self.owned[n].len() {
                let p = self.owned[n][k] as usize;
                if left == 0 || provinces_used == 5 {
                    break;
                }
                if self.provinces[p].ppr <= 1 || self.inactive(p) {
                    continue;
                }
                provinces_used += 1;
                while left > 0 && self.provinces[p].ppr > 1 {
                    let g = &mut self.nations[n].goods;
                    if g[R] < 1 || g[T] < 5 {
                        left = 0;
                        break;
                    }
                    g[R] -= 1;
                    g[T] -= 5;
                    self.provinces[p].ppr -= 1;
                    self.army_mut(n, base)[INF] += 1;
                    got[0] += 1;
                    left -= 1;
                }
            }
            // Cavalry: 1 PPR + 1 Cb + 15 T, in the capital province.
            for _ in 0..want.cavalry {
                let g = &self.nations[n].goods;
                if g[CB] < 1 || g[T] < 15 || self.provinces[base].ppr <= 1 {
                    break;
                }
                let g = &mut self.nations[n].goods;
                g[CB] -= 1;
                g[T] -= 15;
                self.provinces[base].ppr -= 1;
                self.army_mut(n, base)[CAV] += 1;
                got[1] += 1;
            }
            if nd.mercenary_infantry_allowed {
                for _ in 0..want.mercenary_infantry {
                    if self.nations[n].goods[T] < 25 {
                        break;
                    }
                    self.nations[n].goods[T] -= 25;
                    self.army_mut(n, base)[MINF] += 1;
                    got[2] += 1;
                }
            }
            if nd.mercenary_cavalry_allowed {
                for _ in 0..want.mercenary_cavalry {
                    if self.nations[n].goods[T] < 45 {
                        break;
                    }
                    self.nations[n].goods[T] -= 45;
                    self.army_mut(n, base)[MCAV] += 1;
                    got[3] += 1;
                }
            }
            let ports: u32 = self
                .provinces_of(n)
                .filter(|&p| self.provinces[p].ports != 0 && self.provinces[p].occupier == NONE)
                .count() as u32;
            for _ in 0..want.fleets.min(5 * ports) {
                let g = &mut self.nations[n].goods;
                if g[R] < 1 || g[T] < 5 {
                    break;
                }
                g[R] -= 1;
                g[T] -= 5;
                self.nations[n].fleets += 1;
                got[4] += 1;
            }
            self.units_ledger += (got[0] + got[1] + got[2] + got[3]) as i64;
            if got.iter().any(|&x| x > 0) {
                game_log!(
                    log,
                    "  {} recruits {} inf, {} cav, {} merc inf, {} merc cav, {} fleets",
                    model.name(n),
                    got[0],
                    got[1],
                    got[2],
                    got[3],
                    got[4]
                );
            }
        }
    }

    /// Military upkeep (rule 3.8): unpaid upkeep leaves the treasury negative and costs a level.
    pub fn military_upkeep(&mut self, model: &Model, log: &mut dyn GameLog) {
        let years = if self.historical_period { 5 } else { 1 };
        for n in 0..self.nations.len() {
            if !self.nations[n].alive {
                continue;
            }
            let per_unit = model.scenario.nations[n].unit_upkeep;
            let a = self.units_by_class(n);
            let own = a[INF] + a[CAV] + a[VINF] + a[VCAV];
            let mercenaries = a[MINF] + a[MCAV];
            let units = per_unit * own as i64 + 3 * mercenaries as i64;
            let cost = (self.nations[n].fleets as i64 + units) * years;
            let short = self.nations[n].goods[T] < cost;
            self.nations[n].goods[T] -= cost;
            if short {
                self.change_stability(n, -1, model.rules.optimal_vp);
                game_log!(
                    log,
                    "  {} cannot pay {} T of upkeep: treasury {} T, stability {}",
                    model.name(n),
                    cost,
                    self.nations[n].goods[T],
                    super::scenario::STABILITY[self.nations[n].stability as usize]
                );
            }
        }
    }

    /// Garrisons (rule 3.9): 10 T a point, up to the city's PPU; a free point each in a Historical Period.
    pub fn garrisons(&mut self, model: &Model, policies: &Policies, dice: &mut Dice) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive || self.nations[n].stability >= COLLAPSE {
                continue;
            }
            if self.historical_period {
                for &p in &self.owned[n] {
                    let pr = &mut self.provinces[p as usize];
                    if pr.occupier == NONE && pr.garrison < pr.ppu {
                        pr.garrison += 1;
                    }
                }
            }
            let want = policies[n].garrisons(model, self, n, dice);
            for _ in 0..want {
                if self.nations[n].goods[T] < 10 {
                    break;
                }
                // The weakest city relative to its size, closest to danger first: the capital, then the rest.
                let best = self
                    .provinces_of(n)
                    .filter(|&p| {
                        self.provinces[p].occupier == NONE
                            && self.provinces[p].garrison < self.provinces[p].ppu
                    })
                    .min_by_key(|&p| {
                        (
                            p != self.nations[n].capital,
                            self.provinces[p].garrison * 4 / self.provinces[p].ppu.max(1),
                        )
                    });
                let Some(p) = best else { break };
                self.nations[n].goods[T] -= 10;
                self.provinces[p].garrison += 1;
            }
        }
    }

    /// New trade points (rule 3.13): 10 T each towards an ally's port city, 7 T towards an
    /// independent's; turn 1 places the free points, 66% (up) to nations and 33% (down) to independents.
    pub fn trade_phase(&mut self, model: &Model, policies: &Policies, dice: &mut Dice) {
        let nn = self.nations.len();
        // Trade changes no owner, so the port cities are found once for the whole phase.
        let home_ports = self.home_ports();
        for n in 0..nn {
            if !self.nations[n].alive {
                continue;
            }
            let Some(from) = home_ports[n] else {
                continue;
            };
            let (mut to_nations, mut to_independents, paid) = if self.turn == 1 {
                let t = model.scenario.nations[n].trade_points;
                let (a, b) = model.rules.free_trade_split(t);
                (a, b, false)
            } else {
                let want = policies[n].trade_points(model, self, n, dice);
                (want, 0, true)
            };
            // Nations: spread over commercial allies with a port city, round robin from the first.
            let partners: u16 = self.nations[n].commercial & !self.nations[n].at_war;
            let with_port = (0..nn)
                .filter(|&m| partners & (1 << m) != 0 && home_ports[m].is_some())
                .count() as u32;
            if paid && with_port > 0 {
                let affordable = (self.nations[n].goods[T].max(0) / 10) as u32;
                to_nations = to_nations.min(affordable);
                self.nations[n].goods[T] -= 10 * to_nations as i64;
            }
            if let Some(each) = to_nations.checked_div(with_port) {
                let first_extra = to_nations % with_port;
                let mut i = 0;
                for m in (0..nn).filter(|&m| partners & (1 << m) != 0) {
                    let Some(to) = home_ports[m] else {
                        continue;
                    };
                    let points = each + (i < first_extra) as u32;
                    i += 1;
                    if points > 0 {
                        self.add_trade(n, from, to, points);
                    }
                }
            }
            // Independents: the nearest independent port not hostile.
            if to_independents > 0 {
                if let Some(&to) = model.independent_ports.iter().find(|&&p| {
                    self.provinces[p].owner == NONE
                        && self.provinces[p].grade[n] != super::state::HOSTILE
                }) {
                    self.add_trade(n, from, to, to_independents);
                }
                to_independents = 0;
            }
            let _ = to_independents;
        }
    }

    /// Goods bought from the independents (L637-L639): G and R at 10 T each, Cb at 25 T, paid
    /// now as far as the treasury goes and delivered at the next economic phase.
    pub fn buy_from_independents(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive {
                continue;
            }
            let want = policies[n].buy_goods(model, self, n, dice);
            let mut got = [0i64; 3];
            for (k, (&good, price)) in [G, R, CB].iter().zip([10, 10, 25]).enumerate() {
                let afford = self.nations[n].goods[T].max(0) / price;
                got[k] = (want[k] as i64).min(afford);
                self.nations[n].goods[T] -= price * got[k];
                self.nations[n].on_order[good] += got[k];
            }
            if got != [0; 3] {
                game_log!(
                    log,
                    "  {} buys {} G, {} R, {} Cb from the independents",
                    model.name(n),
                    got[0],
                    got[1],
                    got[2]
                );
            }
        }
    }

    /// Goods given between commercial allies (L633): each nation may give one ally goods it
    /// holds; they change hands at once.
    pub fn give_goods(
        &mut self,
        model: &Model,
        policies: &Policies,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        for n in 0..self.nations.len() {
            if !self.nations[n].alive {
                continue;
            }
            let Some((to, goods)) = policies[n].give_goods(model, self, n, dice) else {
                continue;
            };
            if to == n
                || !self.nations[to].alive
                || self.nations[n].commercial & (1 << to) == 0
                || self.at_war(n, to)
            {
                continue;
            }
            let mut given = [0i64; 4];
            for k in 0..4 {
                given[k] = goods[k].clamp(0, self.nations[n].goods[k].max(0));
                self.nations[n].goods[k] -= given[k];
                self.nations[to].goods[k] += given[k];
            }
            if given != [0; 4] {
                game_log!(
                    log,
                    "  {} gives {} to {}",
                    model.name(n),
                    goods_text(&given),
                    model.name(to)
                );
            }
        }
    }

    fn add_trade(&mut self, n: usize, from: usize, to: usize, points: u32) {
        let link = TradeLink {
            owner: n as u8,
            from: from as u16,
            to: to as u16,
            points,
        };
        match self.trade.binary_search_by_key(&link.key(), TradeLink::key) {
            Ok(i) => self.trade[i].points += points,
            Err(i) => self.trade.insert(i, link),
        }
    }

    /// The nation's port city used for trade: the capital if it has a port, else its first port.
    pub fn home_port(&self, n: usize) -> Option<usize> {
        let cap = self.nations[n].capital;
        if self.provinces[cap].owner as usize == n && self.provinces[cap].ports != 0 {
            return Some(cap);
        }
        self.provinces_of(n).find(|&p| self.provinces[p].ports != 0)
    }

    /// The Historical-Period reforms `n` asked for, each as far as the treasury pays (L934-L950).
    pub fn reform(
        &mut self,
        model: &Model,
        n: usize,
        wanted: Reforms,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) {
        let provinces = self.owned[n].len();
        let pay = |s: &mut State, cost: i64| {
            let ok = s.nations[n].goods[T] >= cost;
            if ok {
                s.nations[n].goods[T] -= cost;
            }
            ok
        };
        let mut done = Reforms::default();
        if wanted.army && self.nations[n].strategy > 0 && pay(self, army_reform_cost(provinces)) {
            self.nations[n].strategy -= 1;
            done.army = true;
        }
        for _ in 0..wanted.military {
            if !pay(self, 100) {
                break;
            }
            let leader = super::state::new_leader(self.nations[n].strategy, dice);
            self.leaders.push(super::state::GameLeader {
                leader,
                nation: n as u8,
                province: self.nations[n].capital as u16,
                alive: true,
            });
            done.military += 1;
        }
        for _ in 0..wanted.renewals {
            let weakest = (0..self.leaders.len())
                .filter(|&i| self.leaders[i].alive && self.leaders[i].nation as usize == n)
                .min_by_key(|&i| {
                    let l = &self.leaders[i].leader;
                    (l.modifier, std::cmp::Reverse(l.age))
                });
            let Some(li) = weakest else { break };
            if !pay(self, 25) {
                break;
            }
            self.remove_leader(model, li, dice, log);
            done.renewals += 1;
        }
        if wanted.political && pay(self, political_reform_cost(provinces)) {
            self.nations[n].card_limit += 1;
            done.political = true;
        }
        for _ in 0..wanted.agrarian {
            let Some(p) = self.provinces_of(n).find(|&p| {
                let pr = &self.provinces[p];
                pr.harvests > 0 && !pr.agrarian_reform
            }) else {
                break;
            };
            if !pay(self, 50) {
                break;
            }
            self.provinces[p].harvests += 1;
            self.provinces[p].agrarian_reform = true;
            done.agrarian += 1;
        }
        if done != Reforms::default() {
            game_log!(log, "  {} reforms: {:?}", model.name(n), done);
        }
    }

    /// Every nation's [`State::home_port`] in one pass over the provinces.
    pub fn home_ports(&self) -> [Option<usize>; 16] {
        let mut first = [None; 16];
        for (p, pr) in self.provinces.iter().enumerate() {
            if pr.ports != 0 && pr.owner != NONE && first[pr.owner as usize].is_none() {
                first[pr.owner as usize] = Some(p);
            }
        }
        for (n, nation) in self.nations.iter().enumerate() {
            let cap = &self.provinces[nation.capital];
            if cap.owner as usize == n && cap.ports != 0 {
                first[n] = Some(nation.capital);
            }
        }
        first
    }

    /// Halves (down) the trade points between two nations whose commercial alliance ends (L317).
    pub fn halve_trade(&mut self, a: usize, b: usize) {
        let State {
            trade, provinces, ..
        } = self;
        for l in trade.iter_mut() {
            let dest = provinces[l.to as usize].owner;
            if (l.owner as usize == a && dest as usize == b)
                || (l.owner as usize == b && dest as usize == a)
            {
                l.points /= 2;
            }
        }
        self.trade.retain(|l| l.points > 0);
    }

    pub fn stability_at_most_fiasco(&self, n: usize) -> bool {
        self.nations[n].stability >= FIASCO
    }

    pub fn land_units(&self, n: usize) -> u32 {
        self.total_units(n)
    }

    pub fn army_strength(&self, n: usize, p: usize) -> u32 {
        size(self.army(n, p))
    }
}

/// Reusable per-worker buffers for the economic phase.
#[derive(Default)]
pub struct Scratch {
    pub income: Vec<Goods>,
    pub trade: Vec<i64>,
    pub routes: Vec<u32>,
    pub idle: Vec<bool>,
    pub inactive: Vec<bool>,
    /// Whether each trade link is active this turn, and the links facing them.
    pub active: Vec<bool>,
    pub facing: Facing,
}

pub fn goods_text(g: &Goods) -> String {
    format!("{} T, {} G, {} R, {} Cb", g[T], g[G], g[R], g[CB])
}

/// The reforms a nation buys in a Historical Period (§5.17), resolved in this order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reforms {
    /// Strategy level one better (25 T a province, 100-200 T).
    pub army: bool,
    /// Extra leaders (100 T each).
    pub military: u32,
    /// Weakest leaders replaced by new ones (25 T each).
    pub renewals: u32,
    /// Card limit +1 for good (25 T a province).
    pub political: bool,
    /// Provinces whose grain production rises by one (50 T each, once a province).
    pub agrarian: u32,
}

pub fn army_reform_cost(provinces: usize) -> i64 {
    (25 * provinces as i64).clamp(100, 200)
}

pub fn political_reform_cost(provinces: usize) -> i64 {
    25 * provinces as i64
}

/// A recruitment order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recruit {
    pub infantry: u32,
    pub cavalry: u32,
    pub mercenary_infantry: u32,
    pub mercenary_cavalry: u32,
    pub fleets: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`trade_income`] with the facing links found afresh and `active` asked of each link.
    fn trade_income_of(
        links: &[TradeLink],
        owner: impl Fn(usize) -> u8 + Copy,
        active: impl Fn(&TradeLink) -> bool,
        income: &mut [i64],
        routes: &mut [u32],
    ) {
        let active: Vec<bool> = links.iter().map(active).collect();
        let mut facing = Facing::default();
        let facing = facing.update(links, owner);
        trade_income(links, facing, &active, owner, income, routes);
    }

    #[test]
    fn e16_trade_income_of_rome_egypt_pergamon_and_pontus() {
        // Cities: 0 Roma, 1 Picenum, 2 Ravena (Rome = 0); 3 Cyrene (Egypt = 1); 4 Rodas (Pergamon = 2); 5 Sinope (Pontus = 3).
        let owner = |c: usize| [0u8, 0, 0, 1, 2, 3][c];
        let link = |owner: u8, from: u16, to: u16, points: u32| TradeLink {
            owner,
            from,
            to,
            points,
        };
        let links = [
            link(0, 0, 3, 5),
            link(0, 1, 4, 5),
            link(0, 2, 5, 5),
            link(1, 3, 0, 3),
            link(1, 3, 1, 2),
            link(2, 4, 1, 3),
        ];
        let mut income = [0i64; 4];
        let mut routes = [0u32; 4];
        trade_income_of(&links, owner, |_| true, &mut income, &mut routes);
        assert_eq!(income, [24, 10, 8, 5]);
        assert_eq!(routes, [6, 3, 3, 0]);
        // E14: Rome Roma->Cyrene 5, Egypt Cyrene->Picenum 3: no route.
        let e14 = [link(0, 0, 3, 5), link(1, 3, 1, 3)];
        trade_income_of(&e14, owner, |_| true, &mut [0; 4], &mut routes);
        assert_eq!(routes, [0, 0, 0, 0]);
        // E15: facing points make a route of 3 for both.
        let e15 = [link(0, 0, 3, 5), link(1, 3, 0, 3)];
        trade_income_of(&e15, owner, |_| true, &mut [0; 4], &mut routes);
        assert_eq!(routes, [3, 3, 0, 0]);
        // Inactive links earn nothing.
        let mut income = [0i64; 4];
        trade_income_of(&links, owner, |l| l.owner != 0, &mut income, &mut routes);
        assert_eq!(income, [8, 5, 3, 0]);
    }
}
