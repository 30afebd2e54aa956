//! Gold (digest §4.6, §4.8-§4.10): caravans, the Administration draw and its set cost, income and
//! expenses, bankruptcy and the Empire collapse test, purchases; the Kingdom and Empire figures
//! come from `procedures.rs` (one definition of each sum).

use super::policy::Policy;
use super::procedures::{self, CollapseTest, D10Test};
use super::scenario::AreaKind;
use super::state::{full_control, held_by_area, template, Phase, MAX_NATIONS, NO_PROVINCE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::pillage_markers::pillage_markers;

/// What fortifying a city costs (XXIII.C).
pub const FORTIFY_COST: i32 = 15;
/// The siege modifier of standard walls (XXIII.B), which a fortified city gets.
pub const STANDARD_WALLS: i8 = -2;
/// Treasury ceiling after purchases (L845).
pub const TREASURY_CAP: i32 = 40;
/// Decline's expense per turn: none, simple, double (VI.F).
pub const DECLINE_COST: [i32; 3] = [0, 5, 10];

impl Play<'_> {
    /// 1.C.c (X.D): the exceptional caravan; Civilized owners collect, Barbarians may loot.
    pub fn caravans(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let exceptional = procedures::roll_exceptional_caravan(&g.scenario, dice);
        for (i, &(p, _, _)) in g.scenario.caravans.iter().enumerate() {
            let o = self.st.owner[p as usize];
            if o == super::state::NONE || g.inactive[o as usize] {
                continue;
            }
            let o = o as usize;
            let special = i == exceptional;
            match self.st.status(o) {
                Some(Status::Barbarian) => {
                    let markers = procedures::roll_loot_caravan(special, false, dice);
                    for _ in 0..markers {
                        let gold = pillage_markers().draw_gold(dice) as i32;
                        self.st.gain_gold(o, gold);
                        game_log!(log, "{} loots a caravan: {gold} gold", g.name(o));
                    }
                }
                Some(_) => {
                    let gold = procedures::caravan_gold(&g.scenario, special, false) as i32;
                    self.st.gain_gold(o, gold);
                }
                None => {}
            }
        }
    }

    /// Phase 2 in activation order: Administration card, income, purchases, revolt suppression.
    pub fn administration(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        self.sort_activation();
        for i in 0..self.st.order.len() {
            let n = self.st.order[i] as usize;
            if self.game.inactive[n] {
                continue;
            }
            match self.st.status(n) {
                Some(Status::Barbarian) => self.recover_pillage(n),
                Some(_) => {
                    // Conversion comes before the Administration cards (XXXI.B).
                    self.convert(n, dice, log);
                    let short = self.administration_card(n, dice, log);
                    self.income(n, short, dice, log);
                    if self.st.status(n).is_some() {
                        self.purchases(n, dice, log);
                        self.usurper_test(n, dice, log);
                        self.suppress_revolts(n, dice, log);
                    }
                }
                None => {}
            }
            self.st.check_totals(&self.game.scenario);
        }
    }

    /// XIII.C: draw 2 + the leader's administration bonus until two sets show, take the cheapest set it
    /// can pay (the cards' effects follow the null model, so cost is all that differs); true when
    /// it could pay none (bankruptcy at the end of the Income step).
    fn administration_card(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        let draws = 2 + self.leader_of(n).map_or(0, |r| r.administration);
        let drawn =
            procedures::roll_administration_draw(g.scenario.administration_deck, draws, dice);
        let costs = if self.st.status(n) == Some(Status::Empire) {
            g.scenario.empire_sets
        } else {
            g.scenario.kingdom_sets
        };
        let treasury = self.st.nations[n].treasury;
        let cheapest = (0..3)
            .filter(|&s| drawn[s] > 0)
            .min_by_key(|&s| costs[s])
            .expect("a draw shows at least one set");
        let cost = costs[cheapest] as i32;
        let pay = cost.min(treasury);
        self.st.spend_gold(n, pay);
        game_log!(
            log,
            "{} administration: {} set for {cost} gold{}",
            g.name(n),
            super::scenario::SETS[cheapest],
            if pay < cost { " (cannot pay)" } else { "" }
        );
        // The card kept may carry a calamity (calamities.rs).
        self.card_calamity(n, drawn[cheapest] as u32, dice, log);
        pay < cost
    }

    /// Gross income in half gold (XIV.D-E): cities (a pillaged one gives ½), capital, trade, and a
    /// Kingdom's provinces or an Empire's Areas; a rebel province and its city yield nothing, nor
    /// does its port trade (XVI.D).
    pub fn gross_halves(&self, n: usize) -> i32 {
        let g = self.game;
        let s = &g.scenario;
        let st = &self.st;
        st.check_control(s);
        st.check_totals(s);
        let empire = st.status(n) == Some(Status::Empire);
        // The province sums are running totals (totals.rs): cities (a pillaged one gives ½) and,
        // for a Kingdom, the provinces' income and that of the Foedus provinces its federates
        // hold (XXVIII.D: a Kingdom federator collects it).
        let t = &st.totals;
        let mut halves = t.city_halves[n];
        if !empire {
            halves += t.province_halves[n] + t.foedus_halves[n];
        }
        // Sea zones where `n` holds a port city not in revolt (as an Area's `coasts`).
        let mut trade_seas = t.trade_seas[n];
        let capital = st.nations[n].capital;
        if capital != NO_PROVINCE && st.owner[capital as usize] == n as u8 {
            halves += if empire { 20 } else { 10 };
        }
        if empire {
            for a in 0..s.areas.len() {
                if super::alliances::shares_control(st, a, n) {
                    halves += 2 + 2 * full_control(s, st, a, n) as i32;
                }
            }
        }
        // Trade (XIV.G): 1 per sea zone with a held port city, + its Monopoly for all of them
        // (a rebel port city is ours but trades for nobody, and so breaks a Monopoly).
        while trade_seas != 0 {
            let sea = &s.seas[trade_seas.trailing_zeros() as usize];
            trade_seas &= trade_seas - 1;
            halves += 2;
            let monopoly = sea.ports.iter().all(|&p| {
                let p = p as usize;
                st.level[p] == 0 || (st.owner[p] == n as u8 && st.revolt[p] == 0)
            });
            if monopoly {
                halves += 2 * sea.monopoly as i32;
            }
        }
        halves
    }

    /// XIV: net income into the treasury; expenses: Decline, a Kingdom's upkeep of 1 a unit.
    pub fn income(&mut self, n: usize, short: bool, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let gross = procedures::halves_to_gold(self.gross_halves(n));
        let units = self.st.units_of(n) as i32;
        let upkeep = if self.st.status(n) == Some(Status::Kingdom) {
            units
        } else {
            0
        };
        let expenses = upkeep
            + DECLINE_COST[self.st.nations[n].decline as usize]
            + self.revolt_expenses(n)
            + self.heresy_expenses(n);
        let net = gross - expenses;
        game_log!(
            log,
            "{} income: {gross} gross, {expenses} expenses",
            g.name(n)
        );
        let mut expense_bankruptcy = false;
        if net >= 0 {
            self.st.gain_gold(n, net);
        } else {
            let treasury = self.st.nations[n].treasury.max(0);
            let unpaid = -net - treasury;
            self.st.spend_gold(n, (-net).min(treasury));
            if unpaid > 0 {
                // An expense bankruptcy: a Kingdom loses the units it cannot pay for or half its
                // units, whichever is fewer (XIV.J).
                expense_bankruptcy = true;
                if upkeep > 0 {
                    let lose = (unpaid.min(upkeep) as u32).min((units as u32).div_ceil(2));
                    self.lose_units(n, lose);
                }
            }
        }
        self.recover_pillage(n);
        if short || expense_bankruptcy {
            self.bankruptcy(n, dice, log);
        }
    }

    fn lose_units(&mut self, n: usize, mut count: u32) {
        let areas = self.game.scenario.areas.len();
        for a in 0..areas {
            if count == 0 {
                break;
            }
            if self.st.count(n, a) == 0 {
                continue;
            }
            count -= self.st.lose_cheapest(n, a, count);
        }
    }

    /// XIV.J: treasury emptied, age +2, Decline +1, the card's calamity; an old Empire tests for
    /// collapse. Once a turn.
    fn bankruptcy(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let turn = self.st.turn;
        if self.st.nations[n].bankrupt_turn == turn {
            return;
        }
        self.st.nations[n].bankrupt_turn = turn;
        game_log!(log, "{} goes bankrupt", g.name(n));
        let gold = self.st.nations[n].treasury.max(0);
        self.st.spend_gold(n, gold);
        self.age_up(n, 2, dice, log);
        self.deepen_decline(n, dice, log);
        self.card_calamity(n, 1, dice, log);
        if self.st.status(n) == Some(Status::Empire) && self.st.nations[n].age >= 9 {
            let capital = self.st.nations[n].capital;
            let capital_area = (capital != NO_PROVINCE)
                .then(|| g.scenario.provinces[capital as usize].area as usize);
            self.st.check_control(&g.scenario);
            let other_areas = (0..g.scenario.areas.len())
                .filter(|&a| {
                    Some(a) != capital_area && super::alliances::shares_control(&self.st, a, n)
                })
                .count() as u8;
            let test = CollapseTest {
                age: self.st.nations[n].age,
                decline: self.st.nations[n].decline,
                calamities: self.calamities_this_turn(n),
                capital_lost_last_turn: self.st.nations[n].capital_lost_turn + 1 == turn,
                other_areas,
            };
            if test.roll(dice) {
                game_log!(log, "{} collapses", g.name(n));
                self.st.counters.collapses += 1;
                self.eliminate(n);
            }
        }
    }

    /// XIV.I: pillage markers leave the nation's cities and sites.
    fn recover_pillage(&mut self, n: usize) {
        self.st.recover_pillage(&self.game.scenario, n);
    }

    /// XV: buy units with what is left above the reserve, placed in the held Area with the fewest
    /// units per held province; a Kingdom buys only what its income can keep (upkeep 1 a unit).
    pub(super) fn purchases(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let empire = self.st.status(n) == Some(Status::Empire);
        let (reserve, heavy_share, cavalry_share, fortify) = match self.policy(n) {
            Policy::Scripted(s) => (
                s.reserve as i32,
                s.heavy_share,
                s.cavalry_share,
                s.fortify as i32,
            ),
            Policy::Random => (
                dice.below(20) as i32,
                dice.uniform(),
                dice.uniform(),
                if procedures::d2(dice) {
                    FORTIFY_COST
                } else {
                    i32::MAX
                },
            ),
        };
        // Above the treasury's ceiling the threshold means never (income may carry a treasury
        // past 40 before purchases).
        if fortify <= TREASURY_CAP && self.st.nations[n].treasury >= fortify.max(FORTIFY_COST) {
            self.fortify(n, log);
        }
        let upkeep_room = if empire {
            i32::MAX
        } else {
            procedures::halves_to_gold(self.gross_halves(n))
                - DECLINE_COST[self.st.nations[n].decline as usize]
                - self.revolt_expenses(n)
                - self.heresy_expenses(n)
                - self.st.units_of(n) as i32
        };
        let roman = g.roman[n];
        let turn = self.st.turn;
        let mut legions = if roman {
            if turn >= 8 {
                2
            } else {
                1
            }
        } else {
            0
        };
        let prices = if empire {
            &g.scenario.empire_prices
        } else {
            &g.scenario.kingdom_prices
        };
        let price_of = |name: &str| {
            let k = template(name) as u8;
            prices.iter().find(|p| p.0 == k).map(|p| p.1 as i32)
        };
        // Buying changes no province's owner: the provinces held in each Area are counted once.
        let held = held_by_area(&g.scenario, &self.st, n);
        let mut bought = 0;
        loop {
            if !empire && bought >= upkeep_room {
                break;
            }
            let b = self.st.nations[n].bought;
            let total = (b[0] + b[1] + b[2]).max(1) as f64;
            let heavy = (b[1] as f64) < heavy_share * total;
            let cavalry = (b[2] as f64) < cavalry_share * total;
            let (k, price) = if roman && legions > 0 && !g.scenario.roman_national.is_empty() {
                let (k, p) = g.scenario.roman_national[0];
                (k as usize, p as i32)
            } else if roman && turn < 3 {
                // Before the dated auxiliaries (L984) the Romans buy national units only.
                break;
            } else {
                let name = match (heavy, cavalry) {
                    (true, true) => "heavy_cavalry",
                    (true, false) => "heavy_infantry",
                    (false, true) => "cavalry",
                    (false, false) => "infantry",
                };
                match price_of(name) {
                    Some(p) => (template(name), p),
                    None => break,
                }
            };
            if self.st.nations[n].treasury - price < reserve {
                break;
            }
            let Some(a) = self.weakest_area(n, &held) else {
                break;
            };
            self.st.spend_gold(n, price);
            self.st.add_units(n, a, k, 1);
            let t = &crate::rulesets::invasions::army::TEMPLATES[k];
            if t.heavy {
                self.st.nations[n].bought[1] += 1;
            }
            if t.cavalry {
                self.st.nations[n].bought[2] += 1;
            }
            if !t.heavy && !t.cavalry {
                self.st.nations[n].bought[0] += 1;
            }
            if roman && legions > 0 {
                legions -= 1;
            }
            bought += 1;
            game_log!(
                log,
                "{} buys {} for {price} in {}",
                g.name(n),
                t.name,
                g.scenario.areas[a].name
            );
        }
        let excess = self.st.nations[n].treasury - TREASURY_CAP;
        if excess > 0 {
            self.st.spend_gold(n, excess);
        }
    }

    /// XXIII.C: walls (the standard −2) for the held city of the highest level that has none and
    /// is not in revolt, for 15 gold; nothing when every held city is walled.
    pub fn fortify(&mut self, n: usize, log: &mut dyn GameLog) {
        let st = &self.st;
        let best = (0..st.owner.len())
            .filter(|&p| {
                st.owner[p] == n as u8 && st.level[p] > 0 && st.walls[p] == 0 && st.revolt[p] == 0
            })
            .max_by_key(|&p| (st.level[p], std::cmp::Reverse(p)));
        if let Some(p) = best {
            self.st.spend_gold(n, FORTIFY_COST);
            self.st.walls[p] = STANDARD_WALLS;
            self.st.counters.cities_fortified += 1;
            let g = self.game;
            game_log!(
                log,
                "{} fortifies {} for {FORTIFY_COST} gold",
                g.name(n),
                g.scenario.provinces[p].name
            );
        }
    }

    /// The held Area (provinces held there) with the fewest units per held province.
    /// `held_by_area`: the provinces `n` holds in each Area ([`held_by_area`]).
    fn weakest_area(&self, n: usize, held_by_area: &[u32; 64]) -> Option<usize> {
        let s = &self.game.scenario;
        let mut best: Option<(u32, u32, usize)> = None;
        for (a, &held) in held_by_area.iter().enumerate().take(s.areas.len()) {
            if held == 0 {
                continue;
            }
            let units = self.st.count(n, a);
            // Compare units/held without division: units_a * held_b < units_b * held_a.
            let better = match best {
                None => true,
                Some((u, h, _)) => (units as u64) * (h as u64) < (u as u64) * (held as u64),
            };
            if better {
                best = Some((units, held, a));
            }
        }
        best.map(|b| b.2)
    }

    /// Activation order (VI.G): Barbarians, Kingdoms, Empires; older first; then initiative.
    /// Each nation's rank is packed once into one integer (status, then age from the oldest,
    /// then the nation, a byte each) and the integers sorted: the nation's own byte makes every
    /// key distinct, so the order is the one the rank defines whatever the sort, without
    /// recomputing the rank at each of the sort's comparisons (twice a turn, every game).
    pub fn sort_activation(&mut self) {
        let nations = &self.st.nations;
        let len = self.st.order.len();
        debug_assert!(len <= MAX_NATIONS, "the scenario loader caps nations");
        let mut keys = [0u32; MAX_NATIONS];
        for (key, &n) in keys.iter_mut().zip(&self.st.order) {
            let ns = &nations[n as usize];
            let status: u32 = match ns.phase {
                Phase::Active(Status::Barbarian) => 0,
                Phase::Active(Status::Kingdom) => 1,
                Phase::Active(Status::Empire) => 2,
                _ => 3,
            };
            *key = status << 16 | ((u8::MAX - ns.age) as u32) << 8 | n as u32;
        }
        keys[..len].sort_unstable();
        for (n, key) in self.st.order.iter_mut().zip(&keys[..len]) {
            *n = *key as u8;
        }
    }

    pub fn barbarian_area(&self, a: usize) -> bool {
        self.game.scenario.areas[a].kind == AreaKind::Barbarian
    }
}

#[cfg(test)]
mod tests {
    use super::super::game_tests::bundled_game;
    use super::super::policy::{Policy, Scripted};
    use super::super::state::{for_each_match, held_by_area, held_in, next_marked, NONE};

    /// The packed-key sort gives the order VI.G defines (Barbarians, Kingdoms, Empires, the rest;
    /// older first; then the lower nation), worked out here by comparing the rule's tuples, over
    /// phases, ages and starting orders dealt at random (ties of status and age included).
    #[test]
    fn activation_order_is_the_rules_order() {
        use super::super::state::Phase;
        use super::super::turn::Play;
        use crate::rulesets::invasions::army::Status;
        let g = bundled_game(Policy::Scripted(Scripted::defaults()));
        let mut play = Play::new(&g);
        let nations = play.st.nations.len();
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let phases = [
            Phase::Active(Status::Barbarian),
            Phase::Active(Status::Kingdom),
            Phase::Active(Status::Empire),
            Phase::Waiting,
            Phase::Gone,
        ];
        for _ in 0..200 {
            for ns in play.st.nations.iter_mut() {
                ns.phase = phases[(next() % 5) as usize];
                // Few ages, so that ties of status and age are common; 255 at times.
                ns.age = [0, 1, 3, 9, 255][(next() % 5) as usize];
            }
            for i in (1..nations).rev() {
                play.st.order.swap(i, next() as usize % (i + 1));
            }
            let rank = |n: u8| {
                let ns = &play.st.nations[n as usize];
                let status = phases[..3].iter().position(|&p| p == ns.phase).unwrap_or(3);
                (status, std::cmp::Reverse(ns.age), n)
            };
            let mut expected = play.st.order.clone();
            expected.sort_by_key(|&x| rank(x));
            play.sort_activation();
            assert_eq!(play.st.order, expected);
        }
    }

    /// The count from the holdings index (totals.rs) agrees with the per-Area count for every
    /// Area, over boards dealt at random, the province printed under an Area but outside it
    /// among those dealt.
    #[test]
    fn held_by_area_counts_what_held_in_counts() {
        let g = bundled_game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        assert!(s.provinces.iter().any(|p| !p.counts_for_area));
        let mut st = g.start.clone();
        let mut seed = 0x2545_f491_u32;
        for _ in 0..50 {
            for o in st.owner.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                *o = [0, 1, 2, NONE][(seed % 4) as usize];
            }
            st.rebuild_totals(s);
            for n in 0..3 {
                let held = held_by_area(s, &st, n);
                for (a, &h) in held.iter().enumerate().take(s.areas.len()) {
                    assert_eq!(h, held_in(s, &st, n, a), "nation {n}, Area {a}");
                }
            }
        }
    }

    /// The masked scan visits exactly the indices a plain filter finds, in order, across the
    /// 8-byte word edges and the tail, for bytes that differ from the one sought only in the
    /// high bit or only in the low bits (the word trick's edge cases) and for `NONE`.
    #[test]
    fn the_masked_scan_finds_what_a_filter_finds() {
        const ALPHABET: [u8; 8] = [0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff];
        let mut seed = 0x9e37_79b9_u32;
        let mut byte = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            ALPHABET[(seed % 8) as usize]
        };
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 290] {
            let a: Vec<u8> = (0..len).map(|_| byte()).collect();
            let b: Vec<u8> = (0..len).map(|_| byte()).collect();
            for x in ALPHABET {
                let mut seen = Vec::new();
                for_each_match(&a, &b, x, |i| seen.push(i));
                let want: Vec<usize> = (0..len).filter(|&i| a[i] == x || b[i] == x).collect();
                assert_eq!(seen, want, "length {len}, value {x}");
            }
        }
    }

    /// The marked scan returns the first index from every start where a plain search finds the
    /// owner sought with a nonzero marker, across the word edges, the tail and starts past the
    /// end, for markers and owners that differ only in the high bit or only in the low bits.
    #[test]
    fn the_marked_scan_finds_what_a_search_finds() {
        const ALPHABET: [u8; 8] = [0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff];
        let mut seed = 0x2545_f491_u32;
        let mut byte = |sparse: bool| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            // Markers are mostly zero, as on the map.
            if sparse && !seed.is_multiple_of(3) {
                0
            } else {
                ALPHABET[(seed % 8) as usize]
            }
        };
        let mut found = 0;
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 290] {
            let owner: Vec<u8> = (0..len).map(|_| byte(false)).collect();
            let marks: Vec<u8> = (0..len).map(|_| byte(true)).collect();
            for x in ALPHABET {
                for from in 0..=len + 9 {
                    let want = (from..len).find(|&i| owner[i] == x && marks[i] != 0);
                    found += want.is_some() as u32;
                    assert_eq!(
                        next_marked(&owner, &marks, x, from),
                        want,
                        "length {len}, value {x}, from {from}"
                    );
                }
            }
        }
        assert!(found > 1000, "the boards hold marked provinces to find");
    }
}
