//! The scripted styles' decisions (economist, expansionist, aggressor, naval), each read from the
//! style and its parameters.

use super::*;

impl Scripted {
    fn spare(&self, s: &State, n: usize) -> i64 {
        ((s.nations[n].goods[T] as f64 - self.reserve) * self.spend).max(0.0) as i64
    }

    /// Regular units (each takes a PPR) `n` may raise before the PPU they leave unfed eat more
    /// than its `grain_share` of the yearly grain: the harvests plus a fifth of the granary.
    fn grain_cap(&self, s: &State, n: usize) -> u32 {
        let (mut ppu, mut ppr, mut harvests) = (0i64, 0i64, 0i64);
        for p in s.provinces_of(n) {
            let pr = &s.provinces[p];
            if pr.occupier == NONE {
                ppu += pr.ppu as i64;
            }
            ppr += pr.ppr as i64;
            harvests += pr.harvests as i64;
        }
        let grain = (harvests + s.nations[n].goods[G].max(0) / 5) as f64 * self.grain_share;
        (ppr - ppu + grain as i64).max(0) as u32
    }

    /// (PPU without PPR to feed them, yearly harvests, cost in G or R of a stability level).
    fn grain_needs(&self, s: &State, n: usize) -> (i64, i64, i64) {
        let (mut unfed, mut harvests) = (0i64, 0i64);
        for p in s.provinces_of(n) {
            let pr = &s.provinces[p];
            unfed += pr.ppu as i64 - pr.ppr as i64;
            harvests += pr.harvests as i64;
        }
        let c = (s.total_ppu(n) as i64 + 4) / 5;
        (unfed.max(0), harvests, c)
    }

    /// Recruitment with `land` talents for land units and `fleets` for fleets, within what the
    /// treasury, the goods, the grain and the upkeep allow: every split of the treasury recruits
    /// through here.
    fn recruit_with(&self, m: &Model, s: &State, n: usize, land: i64, fleets: i64) -> Recruit {
        let at_war = s.nations[n].at_war != 0;
        let g = &s.nations[n].goods;
        // The turn's upkeep (five years' in a Historical Period) is paid right after recruitment:
        // the budget is what is left once the standing forces are paid, and each new unit is
        // priced with its own upkeep for the turn.
        let nd = &m.scenario.nations[n];
        let years = if s.historical_period { 5 } else { 1 };
        let a = s.units_by_class(n);
        let own = (a[INF] + a[CAV] + a[VINF] + a[VCAV]) as i64;
        let upkeep =
            (nd.unit_upkeep * own + 3 * (a[MINF] + a[MCAV]) as i64 + s.nations[n].fleets as i64)
                * years;
        // At peace the army grows only while the treasury holds five turns of its upkeep.
        let cushion = if at_war { upkeep } else { 5 * upkeep };
        let land = land.min((g[T] - self.reserve as i64 - cushion).max(0));
        let (inf_price, cav_price) = (5 + nd.unit_upkeep * years, 15 + nd.unit_upkeep * years);
        let (minf_price, mcav_price) = (25 + 3 * years, 45 + 3 * years);
        // At war (and for an aggressor, always: its army is its plan) a share of the budget
        // hires mercenaries, who need no PPR and so no grain.
        let hires = at_war || self.style == Style::Aggressor;
        let mut mercenary = if hires {
            (land as f64 * self.mercenary_share) as i64
        } else {
            0
        };
        let regular = land - mercenary;
        // Regular units take a PPR each: no more than the grain can feed.
        let cap = self.grain_cap(s, n) as i64;
        let cavalry = ((regular / 3) / cav_price).min(g[CB].max(0)).min(cap);
        let infantry = ((regular - cav_price * cavalry) / inf_price)
            .min(g[R].max(0))
            .min(cap - cavalry);
        if hires {
            mercenary += regular - cav_price * cavalry - inf_price * infantry;
        }
        let (mut mercenary_infantry, mut mercenary_cavalry) = (0, 0);
        if nd.mercenary_infantry_allowed {
            mercenary_infantry = (mercenary / minf_price) as u32;
        } else if nd.mercenary_cavalry_allowed {
            mercenary_cavalry = (mercenary / mcav_price) as u32;
        }
        Recruit {
            infantry: infantry as u32,
            cavalry: cavalry as u32,
            mercenary_infantry,
            mercenary_cavalry,
            fleets: (fleets / 5).min(g[R].max(0)) as u32,
        }
    }

    /// Every stability level the goods allow this turn, T only while the reserve is kept.
    fn every_level(&self, s: &State, n: usize) -> [u32; 3] {
        let t_ok = s.nations[n].goods[T] - s.total_ppu(n) as i64 >= self.reserve as i64;
        [if t_ok { 2 } else { 0 }, 2, 2]
    }

    fn weakest_neighbour(&self, m: &Model, s: &State, n: usize) -> Option<usize> {
        let units = |o: usize| s.nations[o].units_at_diplomacy;
        (0..s.nations.len())
            .filter(|&o| reachable(m, s, n, o) && s.may_declare_war(n, o))
            .filter(|&o| units(o) * 3 < units(n) * 2)
            .min_by_key(|&o| units(o))
    }
}

impl Policy for Scripted {
    fn invest_stability(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> [u32; 3] {
        let g = &s.nations[n].goods;
        if self.style == Style::Economist {
            return self.every_level(s, n);
        }
        let t_ok = g[T] - s.total_ppu(n) as i64 >= self.reserve as i64;
        // The others buy a level of each good they can spare: at Optimal every level is 5 VP
        // (A32), below it a level keeps war declarations and recruitment open. Grain is kept for
        // the cities' upkeep and resources for recruitment.
        let (unfed, harvests, c) = self.grain_needs(s, n);
        let want = if s.nations[n].stability == 0 { 2 } else { 1 };
        [
            if t_ok { want } else { 0 },
            if g[G] - c >= (unfed - harvests).max(0) {
                want
            } else {
                0
            },
            if g[R] >= 2 * c { want } else { 0 },
        ]
    }

    fn wants_commercial(&self, _m: &Model, s: &State, n: usize, o: usize, _d: &mut Dice) -> bool {
        self.style != Style::Aggressor
            || s.nations[o].units_at_diplomacy >= s.nations[n].units_at_diplomacy
    }

    fn wants_military(&self, _m: &Model, s: &State, n: usize, o: usize, _d: &mut Dice) -> bool {
        // Allies share a common enemy.
        s.nations[n].at_war & s.nations[o].at_war != 0 && self.style != Style::Economist
    }

    fn wants_passage(&self, m: &Model, s: &State, n: usize, o: usize, _d: &mut Dice) -> bool {
        // To reach a war through a neighbour.
        s.nations[n].at_war != 0 && m.neighbours[n] & (1 << o) != 0 && !s.at_war(n, o)
    }

    fn grants_passage(&self, _m: &Model, s: &State, n: usize, o: usize, _d: &mut Dice) -> bool {
        s.allied(n, o)
    }

    fn keeps_agreements(&self) -> bool {
        // Scripted nations keep their word: ending an agreement hands the other a casus belli.
        true
    }

    fn seeks_allies_only_at_war(&self) -> bool {
        // A passage to reach a war, an alliance against a common enemy (above).
        true
    }

    fn ends_agreement(
        &self,
        _m: &Model,
        _s: &State,
        _n: usize,
        _o: usize,
        _d: &mut Dice,
    ) -> Option<Agreement> {
        None
    }

    fn declare_war(&self, m: &Model, s: &State, n: usize, dice: &mut Dice) -> Option<usize> {
        if self.style != Style::Aggressor || s.nations[n].at_war != 0 || s.nations[n].stability >= 4
        {
            return None;
        }
        if !dice.chance(self.aggression) {
            return None;
        }
        self.weakest_neighbour(m, s, n)
    }

    fn sue_for_peace(&self, _m: &Model, s: &State, n: usize, enemy: usize, _d: &mut Dice) -> bool {
        let occupied = s
            .provinces_of(n)
            .filter(|&p| s.provinces[p].occupier as usize == enemy)
            .count();
        s.nations[n].stability >= FIASCO
            || occupied >= 2
            || (self.style == Style::Economist && occupied >= 1)
    }

    fn accept_surrender(
        &self,
        _m: &Model,
        _s: &State,
        _n: usize,
        _l: usize,
        _d: &mut Dice,
    ) -> bool {
        true
    }

    fn population(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> (u32, u32) {
        let (ppu, ppr): (u32, u32) = s.provinces_of(n).fold((0, 0), |(a, b), p| {
            (a + s.provinces[p].ppu, b + s.provinces[p].ppr)
        });
        let unfed = ppu.saturating_sub(ppr);
        let grain = s.nations[n].goods[G].max(0) as u32;
        let feed = unfed.saturating_sub(grain / 2);
        let grow = if self.style == Style::Economist {
            (self.spare(s, n) / 60).min(3) as u32
        } else {
            0
        };
        (feed.min(3), grow)
    }

    fn recruit(&self, m: &Model, s: &State, n: usize, _d: &mut Dice) -> Recruit {
        let spare = self.spare(s, n);
        let at_war = s.nations[n].at_war != 0;
        let (land, fleets) = match self.style {
            Style::Aggressor => (spare, 0),
            Style::Naval => (if at_war { spare / 3 } else { 0 }, spare / 2),
            Style::Expansionist => (if at_war { spare / 2 } else { spare / 6 }, 0),
            Style::Economist => (if at_war { spare / 2 } else { 0 }, 0),
        };
        self.recruit_with(m, s, n, land, fleets)
    }

    fn army_order_on(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        target: usize,
        _d: &mut Dice,
    ) -> Option<(Order, f64)> {
        let here = size(s.army(n, from));
        if here < 3 {
            return None;
        }
        let share = self.battle_share(m, s, n, from, target)?;
        let g = s.provinces[target].garrison;
        let order = if here as f64 * share >= (3 * g) as f64 {
            Order::Assault
        } else if here >= 2 * g {
            Order::Siege
        } else {
            Order::Pillage
        };
        Some((order, share))
    }

    fn invest_stability_as(
        &self,
        _m: &Model,
        s: &State,
        n: usize,
        split: Split,
        _d: &mut Dice,
    ) -> [u32; 3] {
        match split {
            Split::Stability => self.every_level(s, n),
            Split::Troops | Split::Fleets => [0; 3],
        }
    }

    fn recruit_as(&self, m: &Model, s: &State, n: usize, split: Split, _d: &mut Dice) -> Recruit {
        let spare = self.spare(s, n);
        let (land, fleets) = match split {
            Split::Stability => (0, 0),
            Split::Troops => (spare, 0),
            Split::Fleets => (0, spare),
        };
        self.recruit_with(m, s, n, land, fleets)
    }

    fn garrisons(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> u32 {
        if s.nations[n].at_war != 0 {
            (self.spare(s, n) / 40) as u32
        } else {
            0
        }
    }

    fn fleet_sea(&self, m: &Model, s: &State, n: usize, _d: &mut Dice) -> u8 {
        // The sea of an enemy's fleet when strong enough to fight it, else the home port's sea.
        let seas = m.scenario.seas.len();
        let home = s
            .home_port(n)
            .map_or(0, |p| s.provinces[p].ports.trailing_zeros() as usize);
        if self.style == Style::Naval || self.style == Style::Aggressor {
            // An enemy only the sea reaches: the whole fleet to a sea both open on, where the
            // enemy fleet is if it is there, for the supremacy a crossing needs (L669).
            for o in 0..s.nations.len() {
                let shared = m.home_seas[n] & m.home_seas[o];
                if !s.at_war(n, o) || m.neighbours[n] & (1 << o) != 0 || shared == 0 {
                    continue;
                }
                let es = s.nations[o].fleet_sea as usize;
                if es < seas && shared & (1 << es) != 0 {
                    return es as u8;
                }
                return shared.trailing_zeros() as u8;
            }
            for o in 0..s.nations.len() {
                let es = s.nations[o].fleet_sea as usize;
                if s.at_war(n, o) && es < seas && s.nations[o].fleets < s.nations[n].fleets {
                    return es as u8;
                }
            }
        }
        home.min(seas - 1) as u8
    }

    fn independent_action(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        dice: &mut Dice,
    ) -> Option<(usize, bool)> {
        if s.nations[n].stability >= COLLAPSE {
            return None;
        }
        let budget = match self.style {
            Style::Expansionist => self.spare(s, n),
            Style::Economist | Style::Naval => self.spare(s, n) / 4,
            // Between wars an aggressor's idle treasury buys influence too.
            Style::Aggressor if s.nations[n].at_war == 0 => self.spare(s, n) / 4,
            Style::Aggressor => 0,
        };
        // Turn on a weak adjacent independent (conquest makes it a vassal).
        if self.style == Style::Expansionist
            && s.nations[n].at_war == 0
            && dice.chance(self.aggression / 4.0)
        {
            let mine = s.total_units(n);
            if let Some(p) = s.free_independents().find(|&p| {
                let pr = &s.provinces[p];
                pr.grade[n] == NEUTRAL
                    && m.adjacent_to_nation(s, n, p)
                    && (pr.troops[0] + pr.troops[1]) * 4 < mine
                    && !(0..s.nations.len()).any(|o| o != n && pr.grade[o] >= 4)
            }) {
                return Some((p, false));
            }
        }
        if budget < super::super::independents::CHEAPEST_INDEPENDENT_STEP {
            return None;
        }
        // Raise the cheapest affordable adjacent independent, closest to annexation first.
        // Ties go to the last province in index order: walked from the last, only a strictly
        // better one needs the reach and place checks.
        let mut best: Option<((u8, i64), usize)> = None;
        for &p in s.free_independents.iter().rev() {
            let p = p as usize;
            // A lower grade cannot beat the best so far, whatever it costs.
            if best.is_some_and(|((g, _), _)| s.provinces[p].grade[n] < g) {
                continue;
            }
            let Some(cost) = s.independent_price(n, p) else {
                continue;
            };
            let key = (s.provinces[p].grade[n], -cost);
            if cost <= budget
                && best.is_none_or(|(k, _)| key > k)
                && s.independent_within_reach(m, n, p)
                && s.independent_place_free(n, p)
            {
                best = Some((key, p));
            }
        }
        best.map(|(_, p)| (p, true))
    }

    fn trade_points(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> u32 {
        let share = if self.style == Style::Naval { 3 } else { 8 };
        (self.spare(s, n) / share / 10).min(5) as u32
    }

    fn army_order(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        d: &mut Dice,
    ) -> Option<(usize, Order, f64)> {
        if size(s.army(n, from)) < 3 || !has_targets(m, s, n) {
            return None;
        }
        // Nearest enemy city not yet held, or a Hostile independent.
        let target = march_target(m, s, n, from)?;
        let (order, share) = self.army_order_on(m, s, n, from, target, d)?;
        Some((target, order, share))
    }

    fn reforms(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> Reforms {
        // Soldiers reform the army and its command; economists farm; all within the spare money.
        let mut spare = self.spare(s, n);
        let provinces = s.owned[n].len();
        let mut r = Reforms::default();
        let martial = matches!(self.style, Style::Aggressor | Style::Expansionist);
        let army = army_reform_cost(provinces);
        if martial && s.nations[n].strategy > 0 && spare >= army {
            r.army = true;
            spare -= army;
        }
        if martial && spare >= 100 {
            r.military = 1;
            spare -= 100;
        }
        if self.style == Style::Economist {
            r.agrarian = (spare / 2 / 50) as u32;
        }
        r
    }

    fn invest_for_vp(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> i64 {
        (self.spare(s, n) as f64 * self.vp_share) as i64
    }

    fn buy_goods(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> [u32; 3] {
        // Grain for next year's cities beyond the harvest; at Optimal also the grain and
        // resources of a stability level, each worth 5 VP (A32), which cost 10 T a unit.
        let mut budget = (self.spare(s, n) as f64 * self.buy_share) as i64 / 10;
        let (unfed, harvests, c) = self.grain_needs(s, n);
        let optimal = s.nations[n].stability == 0;
        let g = &s.nations[n].goods;
        let level = if optimal { c } else { 0 };
        // A Historical Period next turn (a year of peace behind, none at war now) eats five
        // years of grain at once.
        let peace = s.nations.iter().all(|x| x.at_war == 0);
        let years = if s.historical_period || (peace && s.peace_turns >= 1) {
            5
        } else {
            1
        };
        let grain = ((unfed - harvests).max(0) * years + level - g[G]).clamp(0, budget);
        budget -= grain;
        let resources = (2 * level - g[R]).clamp(0, budget);
        [grain as u32, resources as u32, 0]
    }

    fn disband(&self, _m: &Model, s: &State, n: usize, _d: &mut Dice) -> u32 {
        // At peace, regulars go home to the fields as far as next year's harvest and granary
        // leave cities unfed.
        if s.nations[n].at_war != 0 {
            return 0;
        }
        let (unfed, harvests, _) = self.grain_needs(s, n);
        (unfed - harvests - s.nations[n].goods[G].max(0)).max(0) as u32
    }
}

impl Scripted {
    /// The share of the army at `from` to march on `target`, or None to wait. Where a field
    /// battle waits (enemy or Hostile independent troops), the army takes the most units that
    /// can still win it (under 2:1, A4) if the exact odds of winning reach `attack_odds`; failing
    /// that it marches only to overrun, with `overrun_ratio` times the enemy or more.
    fn battle_share(
        &self,
        m: &Model,
        s: &State,
        n: usize,
        from: usize,
        target: usize,
    ) -> Option<f64> {
        let Some(foe) = foe_side(s, n, target) else {
            return Some(self.army_share);
        };
        let enemy = foe.total();
        let here = *s.army(n, from);
        let total = size(&here);
        let taken = |share: f64| share_of(&here, share);
        let mut share = self.army_share;
        let full = size(&taken(share));
        // Shrink the column under 2:1, one unit at a time.
        while share > 0.0 && size(&taken(share)) >= 2 * enemy {
            share -= 1.0 / total as f64;
        }
        let army = taken(share.max(0.0));
        if size(&army) > 0 {
            let mine = FieldSide {
                units: combat_units(&army),
                leader: s.best_leader(n, from).map(|i| s.leaders[i].leader),
                independent: false,
            };
            if m.field.odds_memoised(&[mine, foe])[0] >= self.attack_odds {
                return Some(share);
            }
        }
        (full as f64 >= self.overrun_ratio * enemy as f64).then_some(self.army_share)
    }
}
