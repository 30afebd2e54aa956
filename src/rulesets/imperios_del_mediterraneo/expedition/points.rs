//! The chain walked point by point (digest §3.3, A-24): the straits first, then, in route
//! order, the points where the defender may intercept: by sea the departure port (before the
//! naval battle) and the naval leg, then the arrival (the landing, a march's arrival port, or the
//! city), then the target. A game that lets the defender decide each interception as the
//! expedition reaches it plays the chain from one point to the next ([`Expedition::play_between`])
//! and reads the exact chance from a point on ([`Expedition::chance_and_vp_from`]); the whole
//! chain (a battle file's, or a game's under the at-declaration reading) is the walk from the
//! start to the end, the same steps in the same order.

use super::{merge, nth_bit, Books, Expedition, Fail, Played, State, Target};
use crate::dice::Dice;
use crate::rulesets::imperios_del_mediterraneo::forces::Force;
use crate::rulesets::imperios_del_mediterraneo::strait::roll_strait;

/// A point of the route, in route order: where the chain starts or stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Point {
    /// The start: the straits of the land legs (rolled before any interception, A-23).
    #[default]
    Start,
    /// By sea: the departure port, where a land interception is fought before the naval battle.
    Departure,
    /// By sea: the naval leg and its interception.
    Sea,
    /// The arrival: the landing (skipped by a direct assault), a march's arrival port, or the
    /// city by land; its land interception, then the target.
    Arrival,
}

/// The attacker's expedition where the chain stopped: its cards (bits in the chain's order:
/// troops, then fleets), whether its leaders are with it, and, at the arrival, whether it lands
/// (false: it assaults straight from the ships, so no land interception can meet it), and
/// whether the Special Event dice of its card window were played in a battle already.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reached {
    pub alive: u32,
    pub leaders: bool,
    pub lands: bool,
    /// The card window's Special Event dice were spent in a battle on the way.
    pub spent: bool,
}

impl Expedition {
    /// Starts this expedition's chain at `from` (its cards all there): the chance from a point
    /// on, for a defender deciding there. [`Self::chance_and_vp`] and [`Self::play`] follow it.
    pub fn starting_at(mut self, from: Point) -> Expedition {
        self.from = from;
        self
    }

    /// The expedition's cards all there, with its leaders.
    pub fn whole(&self) -> Reached {
        let s = self.start();
        Reached {
            alive: s.alive,
            leaders: s.leaders,
            lands: !self.arrives_directly(s),
            spent: s.spent,
        }
    }

    /// Plays the chain with dice from `from` (the expedition as `at`) until it reaches `until`
    /// (its battle not yet fought: `Played::reached` says where it stands) or, with None, to its
    /// end. Books VP, recoveries and interceptions of the steps played only.
    pub fn play_between(
        &self,
        dice: &mut Dice,
        at: Reached,
        from: Point,
        until: Option<Point>,
    ) -> Played {
        let s = State {
            alive: at.alive,
            leaders: at.leaders,
            spent: at.spent && self.special_in_battles,
        };
        self.run(dice, s, from, until).0
    }

    /// The exact (P(success), expected attacker VP) of the chain from `from` on, the expedition
    /// as `at` there.
    pub fn chance_and_vp_from(&self, at: Reached, from: Point) -> (f64, f64) {
        let s = State {
            alive: at.alive,
            leaders: at.leaders,
            spent: at.spent && self.special_in_battles,
        };
        let mut p = 0.0;
        let mut vp = 0.0;
        self.walk_between(
            vec![(1.0, s, Books::default())],
            from,
            None,
            &mut |q, b, f| {
                if f.is_none() {
                    p += q;
                }
                vp += q * b.vp[0];
            },
            &mut |_, _, _| {},
        );
        (p, vp)
    }

    /// The exact ways the chain from `from` (the expedition as `at`) reaches `until`:
    /// (probability, the expedition there, the attacker's battle VP on the way); the rest of the
    /// mass failed on the way.
    pub fn reaching(&self, at: Reached, from: Point, until: Point) -> Vec<(f64, Reached, f64)> {
        let s = State {
            alive: at.alive,
            leaders: at.leaders,
            spent: at.spent && self.special_in_battles,
        };
        let mut out = Vec::new();
        self.walk_between(
            vec![(1.0, s, Books::default())],
            from,
            Some(until),
            &mut |_, _, _| {},
            &mut |q, s, b| {
                out.push((
                    q,
                    Reached {
                        alive: s.alive,
                        leaders: s.leaders,
                        lands: !self.arrives_directly(s),
                        spent: s.spent,
                    },
                    b.vp[0],
                ))
            },
        );
        out
    }

    /// One expedition with dice from `from` (state `s`) to `until` (None: the end): what a
    /// game needs, and the trial's books.
    pub(super) fn run(
        &self,
        dice: &mut Dice,
        mut s: State,
        from: Point,
        until: Option<Point>,
    ) -> (Played, Books) {
        let mut out = Played::default();
        let mut books = Books::default();
        let stop = |s: State, out: &mut Played| {
            out.reached = Some(Reached {
                alive: s.alive,
                leaders: s.leaders,
                lands: !self.arrives_directly(s),
                spent: s.spent,
            });
        };
        if from == Point::Start {
            for _ in 0..self.straits {
                let Some(lost) = roll_strait(dice, self.weather, self.wreck_ones) else {
                    out.failed = Some(Fail::Wrecked);
                    return (out, books);
                };
                for _ in 0..lost {
                    let alive = s.alive.count_ones();
                    if alive == 0 {
                        break;
                    }
                    let i = nth_bit(s.alive, dice.below(alive as u64) as u32);
                    s.alive &= !(1 << i);
                    s = self.fit_cargo(s);
                }
                if s.alive == 0 {
                    out.failed = Some(Fail::Wrecked);
                    return (out, books);
                }
            }
        }
        if until == Some(Point::Departure) {
            stop(s, &mut out);
            return (out, books);
        }
        let sixes = |n: u32, dice: &mut Dice| {
            let mut m = 0u32;
            for i in 0..n {
                if dice.d(6) == 6 {
                    m |= 1 << i;
                }
            }
            m
        };
        let fight = |s: State,
                     d: &Force,
                     naval: bool,
                     out: &mut Played,
                     books: &mut Books,
                     dice: &mut Dice| {
            let (won, next, gone, leaders_gone, fought, killed) =
                self.battle_roll(s, d, naval, dice);
            out.killed |= killed;
            // One roll per card lost (in card order), then per leader lost, then per defender card.
            let mut back = 0u32;
            let mut cards = gone;
            while cards != 0 {
                let i = cards.trailing_zeros();
                cards &= cards - 1;
                // The recovery hook: a card's text may lower the roll that brings it back.
                if dice.d(6) >= self.text(i as usize).recover_from {
                    back |= 1 << i;
                }
            }
            out.recovered |= back;
            let mut leaders_back = 0;
            if leaders_gone {
                leaders_back = sixes(self.em.leaders, dice).count_ones();
                out.leaders_recovered += leaders_back;
            }
            let dn = d.card_count() as u32;
            let slot = if naval { 0 } else { 1 };
            if self.special_in_battles && !s.spent {
                // The card window's Special Event dice were played in this battle.
                out.special_battle = Some(slot);
            }
            out.intercepted[slot] = true;
            out.interceptor_recovered[slot] = if self.texts.is_none() {
                sixes(dn, dice)
            } else {
                let mut m = 0u32;
                for j in 0..dn {
                    if dice.d(6) >= self.interceptor_recover_from(naval, j as usize) {
                        m |= 1 << j;
                    }
                }
                m
            };
            books.recovered[0] += (back.count_ones() + leaders_back) as f64;
            books.recovered[1] += out.interceptor_recovered[slot].count_ones() as f64;
            books.defender_cards += dn;
            let v = if won { 2.0 } else { -2.0 };
            // The end-of-combat hook of a won battle: its fighting cards' VP.
            let fought_vp = if won {
                out.won_battle_cards[slot] = fought;
                self.win_vp_mask(fought)
            } else {
                0.0
            };
            out.vp[0] += v + fought_vp;
            books.vp[0] += v + fought_vp;
            if d.is_player() {
                out.vp[1] -= v;
                books.vp[1] -= v;
            }
            next.map(|n| self.spend(n))
        };
        let land_first = self.land_first && self.naval;
        if let (true, true, Some(d)) = (
            from <= Point::Departure,
            land_first,
            &self.land_interception,
        ) {
            // At a node of the land leg before the naval one: no arrival to skip it.
            if self.flees(s) {
                out.fled = true;
            } else {
                match fight(s, d, false, &mut out, &mut books, dice) {
                    Some(n) => s = n,
                    None => {
                        out.failed = Some(Fail::OnLand);
                        return (out, books);
                    }
                }
            }
        }
        if until == Some(Point::Sea) {
            stop(s, &mut out);
            return (out, books);
        }
        if let (true, Some(d)) = (from <= Point::Sea, &self.naval_interception) {
            match fight(s, d, true, &mut out, &mut books, dice) {
                Some(n) => s = n,
                None => {
                    out.failed = Some(Fail::AtSea);
                    return (out, books);
                }
            }
        }
        if until == Some(Point::Arrival) {
            stop(s, &mut out);
            return (out, books);
        }
        if let (false, Some(d)) = (land_first, &self.land_interception) {
            if self.flees(s) && !self.arrives_directly(s) {
                out.fled = true;
            } else if !self.arrives_directly(s) {
                match fight(s, d, false, &mut out, &mut books, dice) {
                    Some(n) => s = n,
                    None => {
                        out.failed = Some(Fail::OnLand);
                        return (out, books);
                    }
                }
            }
        }
        books.cards_at_target = s.alive.count_ones();
        out.alive_at_target = s.alive;
        out.leaders_at_target = s.leaders;
        if self.texts.is_some() {
            out.fought_at_target = self.target_cards(s).iter().fold(0, |m, &i| m | 1 << i);
        }
        let margin = self
            .target_totals(s)
            .map(|(a, d)| a.roll(dice) - d.roll(dice));
        match margin {
            Some(m) if m > 0 => {
                let mut vp = self.target_vp();
                if self.texts.is_some() {
                    vp[0] += self.target_win_vp(s);
                }
                out.vp[0] += vp[0];
                out.vp[1] += vp[1];
                books.vp[0] += vp[0];
                books.vp[1] += vp[1];
                out.margin = m;
            }
            _ => {
                if matches!(self.target, Target::Barbarian { .. }) {
                    out.vp[0] -= 2.0;
                    books.vp[0] -= 2.0;
                }
                out.failed = Some(Fail::Target);
            }
        }
        (out, books)
    }

    /// Walks the chain exactly from `from` (the weighted `states` there) to `until` (None: the
    /// end): `leaf(probability, books, failure or None)` at each end, `stopped(probability,
    /// state, books)` for each way it reaches `until`.
    pub(super) fn walk_between(
        &self,
        mut states: Vec<(f64, State, Books)>,
        from: Point,
        until: Option<Point>,
        leaf: &mut impl FnMut(f64, Books, Option<Fail>),
        stopped: &mut impl FnMut(f64, State, Books),
    ) {
        let mut stop = |states: Vec<(f64, State, Books)>| {
            for (p, s, b) in states {
                stopped(p, s, b);
            }
        };
        if from == Point::Start {
            for _ in 0..self.straits {
                let mut next = Vec::new();
                for (p, s, b) in states {
                    for (q, n) in self.strait_branches(s) {
                        match n {
                            _ if q == 0.0 => {}
                            Some(n) if n.alive != 0 => next.push((p * q, n, b)),
                            _ => leaf(p * q, b, Some(Fail::Wrecked)),
                        }
                    }
                }
                states = merge(next);
            }
        }
        if until == Some(Point::Departure) {
            return stop(states);
        }
        // Interceptions, each a battle the attacker must win, in route order.
        let land_first = self.land_first && self.naval;
        if let (true, true, Some(d)) = (
            from <= Point::Departure,
            land_first,
            &self.land_interception,
        ) {
            // The flee hook: an interceptor that flees fights no battle.
            let (fled, fight): (Vec<_>, Vec<_>) = if self.texts.is_some() {
                states.into_iter().partition(|(_, s, _)| self.flees(*s))
            } else {
                (Vec::new(), states)
            };
            states = self.battle_step(fight, d, false, Fail::OnLand, leaf);
            states.extend(fled);
        }
        if until == Some(Point::Sea) {
            return stop(states);
        }
        if let (true, Some(d)) = (from <= Point::Sea, &self.naval_interception) {
            states = self.battle_step(states, d, true, Fail::AtSea, leaf);
        }
        if until == Some(Point::Arrival) {
            return stop(states);
        }
        if let (false, Some(d)) = (land_first, &self.land_interception) {
            // By sea a direct assault skips the landing, and with it the land interception.
            let (direct, landing): (Vec<_>, Vec<_>) = states
                .into_iter()
                .partition(|(_, s, _)| self.arrives_directly(*s));
            // The flee hook: an interceptor that flees fights no battle.
            let (fled, landing): (Vec<_>, Vec<_>) = if self.texts.is_some() {
                landing.into_iter().partition(|(_, s, _)| self.flees(*s))
            } else {
                (Vec::new(), landing)
            };
            let mut fought = self.battle_step(landing, d, false, Fail::OnLand, leaf);
            fought.extend(direct);
            fought.extend(fled);
            states = fought;
        }
        // The target.
        for (p, s, mut b) in states {
            let w = self.target_chance(s);
            b.cards_at_target = self.alive(s).count() as u32;
            let vp = self.target_vp();
            let mut won = b;
            won.vp[0] += vp[0];
            won.vp[1] += vp[1];
            if self.texts.is_some() {
                won.vp[0] += self.target_win_vp(s);
            }
            if matches!(self.target, Target::Barbarian { .. }) {
                // Pacification is a field battle (±2 only when it is lost).
                b.vp[0] -= 2.0;
            }
            leaf(p * w, won, None);
            leaf(p * (1.0 - w), b, Some(Fail::Target));
        }
    }

    /// Walks the whole chain exactly, from `self.from`: `leaf(probability, books, failure or
    /// None)`.
    pub(super) fn walk(&self, leaf: &mut impl FnMut(f64, Books, Option<Fail>)) {
        let states = vec![(1.0, self.start(), Books::default())];
        self.walk_between(states, self.from, None, leaf, &mut |_, _, _| {});
    }
}
