//! The Senate's military strategy (L1291-L1317; digest §5.7): the Normal and Crisis strategy
//! lists with Proportional Armies, recruitment within the Treasury's means, the reinforcement of
//! proconsuls, the peace footing, and the deployment of armies and fleets to the wars, each
//! commander consenting or not by his faction's policy. Split from the Senate's phase
//! ([`super::senate`]) because it is the larger half and reads on its own.

use super::policy::Style;
use super::search::Directive;
use super::senate::REBEL_WAR;
use super::state::*;
use super::turn::Game;
use crate::game_log;

impl Game<'_> {
    fn raise_cost(&self) -> i32 {
        10 * (1 + self.s.env.manpower_shortage.min(2) as i32)
    }

    /// Whether the Senate may raise units now: not under No Recruitment, and under Manpower
    /// Shortage only in a Crisis (L473, L1315).
    fn may_recruit(&self, crisis: bool) -> bool {
        !(self.s.env.no_recruitment || (self.s.env.manpower_shortage > 0 && !crisis))
    }

    /// How many new units the Treasury can pay for now and still hold `[game.senate] reserve`
    /// after next turn's expenses (20 T a war, 2 T a unit, land bills; L327) net of its 100 T of
    /// income: each unit costs its price now and 2 T of upkeep then.
    pub(super) fn affordable(&self, crisis: bool) -> u32 {
        if !self.may_recruit(crisis) {
            return 0;
        }
        let cost = self.raise_cost();
        let due = self.expenses_due();
        let reserve = self.senate_params().reserve;
        let keep = |n: u32| (due + 2 * n as i32 - 100 + reserve).max(0);
        let mut n = 0;
        while n < 2 * MAX_UNITS && self.s.treasury - cost * (n as i32 + 1) >= keep(n + 1) {
            n += 1;
        }
        n
    }

    /// Raises up to `fleets` fleets and then up to `legions` legions, fleets first (a naval war
    /// cannot be fought without them, L649), as many as [`Self::affordable`] allows; Armaments and
    /// Ship Building holders earn on each (L645).
    pub(super) fn recruit(&mut self, legions: u32, fleets: u32, crisis: bool) {
        let mut budget = self.affordable(crisis);
        let mut raised = (0u32, 0u32);
        while raised.1 < fleets && budget > 0 && self.s.fleets_total() < MAX_UNITS {
            self.s.fleets_rome += 1;
            budget -= 1;
            raised.1 += 1;
        }
        while raised.0 < legions && budget > 0 {
            let Some(k) = self
                .s
                .legions
                .iter()
                .position(|l| l.at == LegionAt::Unraised)
            else {
                break;
            };
            self.s.legions[k] = Legion {
                at: LegionAt::Rome,
                veteran: false,
                loyal: NONE,
            };
            budget -= 1;
            raised.0 += 1;
        }
        let paid = self.raise_cost() * (raised.0 + raised.1) as i32;
        if paid > 0 {
            self.treasury_pays(paid, "new units");
            for c in 0..self.s.concessions.len() {
                if let ConcessionStatus::Held(i) = self.s.concessions[c] {
                    let card = &self.m.cards.concessions[c];
                    let earn = card.per_legion * raised.0 + card.per_fleet * raised.1;
                    if earn > 0 {
                        self.senator_income(i as usize, earn as i32);
                        self.s.senators[i as usize].bar = true;
                    }
                }
            }
            game_log!(
                self.log,
                "  the Senate raises {} legions and {} fleets ({paid} T)",
                raised.0,
                raised.1
            );
        }
    }

    /// The units a Proportional Army needs (L1311, A-59): legions equal to the land strength,
    /// fleets equal to the naval strength (or the fleet support).
    pub fn proportional(&self, w: usize) -> (u32, u32) {
        let (land, naval) = self.strength(w);
        let support = self.m.cards.wars[w].fleet_support;
        (land, support.max(naval))
    }

    /// "All possible strength" against a war, up to the maximum modifier (+15, L1309): legions up
    /// to the land strength + 15, fleets up to the naval strength + 15 (or the fleet support).
    pub fn all_strength(&self, w: usize) -> (u32, u32) {
        let (land, naval) = self.strength(w);
        let m = self.senate_params().max_modifier;
        let support = self.m.cards.wars[w].fleet_support;
        let fleets = if naval > 0 {
            (naval + m).max(support)
        } else {
            support
        };
        ((land + m).min(MAX_UNITS), fleets.min(MAX_UNITS))
    }

    /// The units one item of a plan asks for.
    fn need(&self, w: u8, all: bool) -> (u32, u32) {
        if w == REBEL_WAR {
            (MAX_UNITS, 0)
        } else if all {
            self.all_strength(w as usize)
        } else {
            self.proportional(w as usize)
        }
    }

    fn war_fought_by_army(&self, w: usize) -> bool {
        self.s.armies.iter().any(|a| a.used && a.war == w as u8)
    }

    /// Whether Proportional Armies against `wars` can be had: what Rome lacks can be raised
    /// (25 of each at most) and paid for out of one budget (L1291, L1315).
    fn fits(&self, wars: &[u8], afford: u32) -> bool {
        let (l, f) = wars.iter().fold((0, 0), |(l, f), &w| {
            let (a, b) = self.proportional(w as usize);
            (l + a, f + b)
        });
        let (reg, vet) = self.s.legions_at(LegionAt::Rome);
        let short_l = l.saturating_sub(reg + vet);
        let short_f = f.saturating_sub(self.s.fleets_rome);
        short_l <= MAX_UNITS - self.s.legions_raised()
            && short_f <= MAX_UNITS.saturating_sub(self.s.fleets_total())
            && short_l + short_f <= afford
    }

    /// The matching-war order (L380): a war may be attacked only together with every Active war of
    /// its series that comes before it in the sequence, unless an army already fights that one.
    fn order_ok(&self, w: u8, with: &[u8]) -> bool {
        if w == REBEL_WAR {
            return true;
        }
        let c = &self.m.cards.wars;
        let w = w as usize;
        (0..c.len()).all(|x| {
            x == w
                || c[x].series != c[w].series
                || c[x].series_index >= c[w].series_index
                || self.s.wars[x].status != WarStatus::Active
                || with.contains(&(x as u8))
                || self.war_fought_by_army(x)
        })
    }

    /// Every war of a plan respects the matching-war order (L380).
    fn plan_ok(&self, wars: &[u8]) -> bool {
        wars.iter().all(|&w| self.order_ok(w, wars))
    }

    /// The first `k` wars of `list` (largest first) that fit, in the order "the largest": every
    /// combination in lexicographic order of the list, so the largest war that can be part of one
    /// is (L1291: the largest qualifying wars).
    fn first_fitting(&self, list: &[u8], k: usize, afford: u32) -> Option<[u8; 3]> {
        let n = list.len();
        if k == 1 {
            return list
                .iter()
                .find(|&&w| self.plan_ok(&[w]) && self.fits(&[w], afford))
                .map(|&w| [w, 0, 0]);
        }
        for i in 0..n {
            for j in i + 1..n {
                if k == 2 {
                    let pair = [list[i], list[j]];
                    if self.plan_ok(&pair) && self.fits(&pair, afford) {
                        return Some([list[i], list[j], 0]);
                    }
                    continue;
                }
                for x in j + 1..n {
                    let three = [list[i], list[j], list[x]];
                    if self.plan_ok(&three) && self.fits(&three, afford) {
                        return Some([list[i], list[j], list[x]]);
                    }
                }
            }
        }
        None
    }

    /// The fleet support of war `w` is within reach (in Rome or affordable).
    fn support_reachable(&self, w: usize, afford: u32) -> bool {
        let room = MAX_UNITS.saturating_sub(self.s.fleets_total()).min(afford);
        self.m.cards.wars[w].fleet_support <= self.s.fleets_rome + room
    }

    pub(super) fn military(&mut self, crisis: bool) {
        for a in 0..MAX_ARMIES {
            let army = self.s.armies[a];
            if army.used
                && army.war != REBEL_WAR
                && self.s.wars[army.war as usize].status == WarStatus::Gone
            {
                self.army_home(a);
            }
        }
        let m = self.m;
        let c = &m.cards;
        // Peace footing only with no war in play at all (L1315): an Inactive or Imminent war keeps
        // Rome armed.
        if self.s.rebel == NONE && !(0..c.wars.len()).any(|w| self.in_play(w)) {
            self.peace_footing();
            return;
        }
        // Wars no army is fighting yet: Active ones largest first (the proportional need decides
        // "largest"), and every war in play for the Dangerous and Inactive lines.
        let mut active = [0u8; 64];
        let mut na = 0;
        let mut latent = [0u8; 64];
        let mut nl = 0;
        for w in 0..c.wars.len().min(64) {
            if self.war_fought_by_army(w) {
                continue;
            }
            match self.s.wars[w].status {
                WarStatus::Active => {
                    active[na] = w as u8;
                    na += 1;
                }
                WarStatus::Inactive | WarStatus::Imminent => {
                    latent[nl] = w as u8;
                    nl += 1;
                }
                _ => {}
            }
        }
        let size = |g: &Self, w: u8| {
            let (l, n) = g.proportional(w as usize);
            (std::cmp::Reverse(l + n), w)
        };
        active[..na].sort_by_key(|&w| size(self, w));
        latent[..nl].sort_by_key(|&w| size(self, w));
        let afford = self.affordable(crisis);
        // The targets and whether each goes with all possible strength.
        let mut plan = [(0u8, false); 8];
        let mut np = 0;
        let mut push = |plan: &mut [(u8, bool); 8], w: u8, all: bool| {
            if np < plan.len() {
                plan[np] = (w, all);
                np += 1;
            }
        };
        if self.s.rebel != NONE && !self.s.armies.iter().any(|a| a.used && a.war == REBEL_WAR) {
            push(&mut plan, REBEL_WAR, true);
        } else if crisis {
            let n = self.s.active_wars() as usize;
            if n >= 4 {
                // As few as needed to get down to 3, the weakest first, with everything; a war
                // whose fleet support Rome cannot reach is passed over.
                let mut chosen = [0u8; 8];
                let mut k = 0;
                for &w in active[..na].iter().rev() {
                    if k < (n - 3).min(chosen.len())
                        && self.support_reachable(w as usize, afford)
                        && self.order_ok(w, &chosen[..k])
                    {
                        push(&mut plan, w, true);
                        chosen[k] = w;
                        k += 1;
                    }
                }
            } else if let Some(ws) = self.first_fitting(&active[..na], 3, afford) {
                for w in ws {
                    push(&mut plan, w, false);
                }
            } else if let Some(ws) = self.first_fitting(&active[..na], 2, afford) {
                push(&mut plan, ws[0], false);
                push(&mut plan, ws[1], false);
            } else if let Some(&w) = active[..na]
                .iter()
                .rev()
                .find(|&&w| self.support_reachable(w as usize, afford) && self.order_ok(w, &[w]))
            {
                push(&mut plan, w, true);
            }
        } else if let Some(ws) = self.first_fitting(&active[..na], 2, afford) {
            push(&mut plan, ws[0], false);
            push(&mut plan, ws[1], false);
        } else if let Some(w) = active[..na]
            .iter()
            .chain(if m.rules.dangerous_in_play {
                &latent[..nl]
            } else {
                &latent[..0]
            })
            .copied()
            .filter(|&w| {
                self.dangerous(w as usize) && self.plan_ok(&[w]) && self.fits(&[w], afford)
            })
            .max_by_key(|&w| (self.danger(w as usize), std::cmp::Reverse(w)))
        {
            // A Dangerous war, Active or not (L1313), the most dangerous first.
            push(&mut plan, w, false);
        } else if let Some(ws) = self.first_fitting(&active[..na], 1, afford) {
            push(&mut plan, ws[0], false);
        } else if let Some(ws) = self.first_fitting(&latent[..nl], 1, afford) {
            // An Inactive (or Imminent, L388) war, the largest that fits.
            push(&mut plan, ws[0], false);
        }
        if np == 0 {
            // The strategy cannot be carried out: recruitment is the Dominant player's (L1315).
            // He raises toward the next war he would fight, the largest Active one, else the most
            // Dangerous one, fleets first, as far as `[game.senate] shortfall_recruit` says.
            let latent = if m.rules.dangerous_in_play {
                &latent[..nl]
            } else {
                &latent[..0]
            };
            let aim = active[..na].first().copied().or_else(|| {
                latent
                    .iter()
                    .copied()
                    .filter(|&w| self.dangerous(w as usize))
                    .max_by_key(|&w| (self.danger(w as usize), std::cmp::Reverse(w)))
            });
            if let Some(w) = aim {
                let (l, f) = self.proportional(w as usize);
                let (reg, vet) = self.s.legions_at(LegionAt::Rome);
                let n = (afford as f64 * self.senate_params().shortfall_recruit).floor() as u32;
                let f = f.saturating_sub(self.s.fleets_rome).min(n);
                let l = l.saturating_sub(reg + vet).min(n - f);
                game_log!(
                    self.log,
                    "  the Dominant player (F{}) prepares for {}",
                    self.s.dominant + 1,
                    m.cards.wars[w as usize].name
                );
                self.recruit(l, f, crisis);
            }
            self.reinforce();
            return;
        }
        // Recruit what the plan needs.
        let (need_l, need_f) = plan[..np].iter().fold((0u32, 0u32), |(l, f), &(w, all)| {
            let (a, b) = self.need(w, all);
            (l + a, f + b)
        });
        let (reg, vet) = self.s.legions_at(LegionAt::Rome);
        let short_l = need_l.min(MAX_UNITS).saturating_sub(reg + vet);
        let short_f = need_f.min(MAX_UNITS).saturating_sub(self.s.fleets_rome);
        self.recruit(short_l, short_f, crisis);
        self.deploy(&plan[..np]);
        self.reinforce();
    }

    /// Proconsuls sent in an earlier turn get a share of the legions left in Rome, and of the fleets
    /// when their war still has a fleet to beat or they lack fleet support, up to the maximum
    /// modifier over the war (L677; the Proportional Army's surplus rule, L1311).
    fn reinforce(&mut self) {
        let p = self.senate_params();
        let share = |x: u32| (x as f64 * p.reinforce_share).floor() as u32;
        for a in 0..MAX_ARMIES {
            let army = self.s.armies[a];
            if !army.used || army.war == REBEL_WAR || army.sent_turn == self.s.turn {
                continue;
            }
            let w = army.war as usize;
            let (land, naval) = self.strength(w);
            let support = self.m.cards.wars[w].fleet_support;
            let (reg, vet) = self.s.legions_at(LegionAt::Army(a as u8));
            let (r_reg, r_vet) = self.s.legions_at(LegionAt::Rome);
            let room = if land > 0 {
                (land + p.max_modifier).saturating_sub(reg + 2 * vet)
            } else {
                0
            };
            let mut add = share(r_reg + r_vet).min(room);
            let add_f = if naval > 0 {
                let room_f = (naval + p.max_modifier).saturating_sub(army.fleets);
                share(self.s.fleets_rome)
                    .max(support.saturating_sub(army.fleets))
                    .min(room_f)
            } else {
                support.saturating_sub(army.fleets)
            }
            .min(self.s.fleets_rome);
            if add == 0 && add_f == 0 {
                continue;
            }
            game_log!(
                self.log,
                "  {} is reinforced with {add} legions and {add_f} fleets",
                self.name(army.commander as usize)
            );
            self.s.fleets_rome -= add_f;
            self.s.armies[a].fleets += add_f;
            for l in self.s.legions.iter_mut() {
                if add > 0 && l.at == LegionAt::Rome {
                    l.at = LegionAt::Army(a as u8);
                    add -= 1;
                }
            }
        }
    }

    /// A Dangerous war (L1313): a matching card still waits in the deck, whether the war itself is
    /// Active or not.
    pub(super) fn dangerous(&self, w: usize) -> bool {
        let c = &self.m.cards;
        (0..c.wars.len()).any(|x| {
            x != w
                && c.wars[x].series == c.wars[w].series
                && self.s.wars[x].status == WarStatus::Deck
        })
    }

    /// How dangerous a war is (L1313): the Proportional Army it would need were every matching card
    /// still in the game in play.
    fn danger(&self, w: usize) -> u32 {
        let c = &self.m.cards;
        let n = (0..c.wars.len())
            .filter(|&x| {
                c.wars[x].series == c.wars[w].series && self.s.wars[x].status != WarStatus::Gone
            })
            .count()
            .max(1) as u32;
        let leaders = self.leader_strength(w);
        let naval = if c.wars[w].naval > 0 && !self.s.wars[w].naval_victory {
            c.wars[w].naval * n + leaders
        } else {
            0
        };
        c.wars[w].land * n + leaders + naval.max(c.wars[w].fleet_support)
    }

    /// No war in play: keep `[game.senate] peace_legions` legions and `peace_fleets` fleets
    /// (L1315: 10 and 5), raising or disbanding in Rome to reach them.
    fn peace_footing(&mut self) {
        let p = self.senate_params();
        let raised = self.s.legions_raised();
        let fleets = self.s.fleets_total();
        if raised < p.peace_legions || fleets < p.peace_fleets {
            self.recruit(
                p.peace_legions.saturating_sub(raised),
                p.peace_fleets.saturating_sub(fleets),
                false,
            );
        }
        let mut extra = self.s.legions_raised().saturating_sub(p.peace_legions);
        for l in self.s.legions.iter_mut() {
            if extra > 0 && l.at == LegionAt::Rome && !l.veteran {
                *l = Legion {
                    at: LegionAt::Unraised,
                    veteran: false,
                    loyal: NONE,
                };
                extra -= 1;
            }
        }
        let extra_f = self
            .s
            .fleets_total()
            .saturating_sub(p.peace_fleets)
            .min(self.s.fleets_rome);
        self.s.fleets_rome -= extra_f;
    }

    fn deploy(&mut self, plan: &[(u8, bool)]) {
        let mut commanders = [0usize; 3];
        let mut nc = 0;
        for office in [Office::Dictator, Office::FieldConsul, Office::RomeConsul] {
            let i = self.s.office(office);
            if i != NONE && self.s.senators[i as usize].in_rome() {
                commanders[nc] = i as usize;
                nc += 1;
            }
        }
        // With two wars the Dominant player sends the better general to the larger (L1311); the
        // consuls leave together, so their order is free (L651).
        let first_consul = if nc > 0 && self.s.senators[commanders[0]].office == Office::Dictator {
            1
        } else {
            0
        };
        if plan.len() >= 2 && nc >= first_consul + 2 {
            let (x, y) = (commanders[first_consul], commanders[first_consul + 1]);
            let better_second = self.s.senators[y].mil > self.s.senators[x].mil;
            // A searching Dominant player may send the consuls the other way round.
            let swapped = self.s.senate_directives[self.s.dominant as usize] == Directive::Swap;
            if better_second != swapped {
                commanders.swap(first_consul, first_consul + 1);
            }
        }
        let mut next = 0;
        let moh = self.s.office(Office::MasterOfHorse);
        let targets = plan.len();
        let p = self.senate_params();
        let share = |x: u32| (x as f64 * p.surplus_share).floor() as u32;
        for (k, &(w, all)) in plan.iter().enumerate() {
            if next >= nc {
                return;
            }
            let (reg, vet) = self.s.legions_at(LegionAt::Rome);
            let here = reg + vet;
            let (mut legions, mut fleets) = if w == REBEL_WAR {
                (here, 0)
            } else if all {
                let (l, f) = self.all_strength(w as usize);
                (l.min(here), f.min(self.s.fleets_rome))
            } else {
                let (l, f) = self.proportional(w as usize);
                // Half the uncommitted surplus goes along, legions and, against a fleet, fleets,
                // up to a modifier of +15 (L1311, A-59).
                let (left_l, left_f) = plan[k + 1..]
                    .iter()
                    .map(|&(x, all)| self.need(x, all))
                    .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
                let (land, naval) = self.strength(w as usize);
                let surplus_l = here.saturating_sub(l + left_l);
                let surplus_f = self.s.fleets_rome.saturating_sub(f + left_f);
                let legions = (l + share(surplus_l)).min(land + p.max_modifier).min(here);
                let fleets = if naval > 0 {
                    (f + share(surplus_f)).min((naval + p.max_modifier).max(f))
                } else {
                    f
                };
                (legions, fleets.min(self.s.fleets_rome))
            };
            if w != REBEL_WAR {
                let c = &self.m.cards.wars[w as usize];
                if fleets < c.fleet_support {
                    continue;
                }
                let (land, naval) = self.strength(w as usize);
                if land == 0 && naval > 0 {
                    legions = 0;
                }
                if legions == 0 && (land > 0 && naval == 0) {
                    continue;
                }
                if all && targets > 1 {
                    legions = (legions / (targets - k) as u32).max(1).min(here);
                    fleets = (self.s.fleets_rome / (targets - k) as u32)
                        .max(c.fleet_support)
                        .min(self.s.fleets_rome)
                        .min(self.all_strength(w as usize).1.max(c.fleet_support));
                }
            } else if legions == 0 {
                continue;
            }
            let commander = commanders[next];
            next += 1;
            if !self.consents(commander, w, legions, fleets) {
                game_log!(
                    self.log,
                    "  {} refuses to fight below minimum forces",
                    self.name(commander)
                );
                continue;
            }
            let Some(a) = self.s.free_army() else { return };
            let with_moh = self.s.senators[commander].office == Office::Dictator
                && moh != NONE
                && self.s.senators[moh as usize].in_rome();
            self.s.armies[a] = Army {
                used: true,
                commander: commander as u8,
                moh: if with_moh { moh } else { NONE },
                war: w,
                fleets,
                sent_turn: self.s.turn,
                victorious: false,
            };
            self.s.fleets_rome -= fleets;
            // Veterans first, then regular legions.
            let mut left = legions;
            for pass in [true, false] {
                for l in self.s.legions.iter_mut() {
                    if left > 0 && l.at == LegionAt::Rome && l.veteran == pass {
                        l.at = LegionAt::Army(a as u8);
                        left -= 1;
                    }
                }
            }
            self.s.senators[commander].at = At::Army(a as u8);
            if with_moh {
                self.s.senators[moh as usize].at = At::Army(a as u8);
            }
            if w != REBEL_WAR && self.s.wars[w as usize].status != WarStatus::Active {
                // Attacking an Inactive or Imminent war activates it (L378, L386).
                self.s.wars[w as usize].status = WarStatus::Active;
            }
            if self.log.on() {
                let target = if w == REBEL_WAR {
                    "the rebel".to_string()
                } else {
                    self.war_name(w as usize).to_string()
                };
                game_log!(
                    self.log,
                    "  {} goes against {target} with {} legions and {fleets} fleets{}",
                    self.name(commander),
                    legions - left,
                    if all {
                        " (all strength)"
                    } else {
                        " (Proportional Army)"
                    }
                );
            }
        }
    }

    /// Minimum forces (L657): troops + MIL (capped) ≥ the enemy, or the general's consent, which
    /// his faction's policy gives at a modifier of at least `risk`.
    fn consents(&mut self, commander: usize, w: u8, legions: u32, fleets: u32) -> bool {
        if w == REBEL_WAR {
            return true;
        }
        let (land, naval) = self.strength(w as usize);
        let (troops, enemy) = if naval > 0 {
            (fleets, naval)
        } else {
            (legions, land)
        };
        let mil = self.s.senators[commander].mil as u32;
        let drm = troops as i32 + mil.min(troops) as i32 - enemy as i32;
        if drm >= 0 {
            return true;
        }
        let f = self.s.senators[commander].faction().unwrap_or(0);
        match self.policy(f).style {
            Style::Random => self.dice.chance(0.5),
            // A cooperative general goes whatever the odds when Rome faces its fall.
            Style::Cooperative if self.s.active_wars() >= 3 => true,
            _ => drm as f64 >= self.policy(f).risk,
        }
    }
}
