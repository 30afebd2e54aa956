//! One game in the order of digest §2: set-up, then turns of rounds (the event roll, its event,
//! one action phase per player in seat order) until the event is End of turn, the end-of-turn
//! scoring and refill, sudden death at any change of city ownership, and the final ranking.

use super::military::{self, Cache, Cards, Defence, Plan};
use super::policy::Policy;
use super::scenario::{
    Event, Pacification, Scenario, CITY_ATTACK, CITY_DEFENCE, FLEET, LEADER, TROOP,
};
use super::state::{event_modifier, shuffle, State, MAX_ENRAGED, NEUTRAL};
use super::Game;
use crate::dice::Dice;
use crate::game::{GameLog, GamePlay, GameRecord, TurnObserver};
use crate::game_log;
use crate::rulesets::imperios_del_mediterraneo::expedition::Fail;
use crate::rulesets::imperios_del_mediterraneo::strait::{roll_strait, Weather};

/// A turn's rounds are bounded by the event roll (its modifier grows each round); this caps a
/// table that never ends a turn.
pub const MAX_ROUNDS: u8 = 40;

pub struct Play<'g> {
    pub game: &'g Game,
    pub st: State,
    pub cache: Cache,
    /// Per-turn metrics, player by player.
    metrics: Vec<f64>,
    /// Scratch: each player's land reach from its capital (straits, or u8::MAX).
    reach: Vec<u8>,
    /// Scratch: candidate plans of the greedy player.
    order: Vec<u8>,
    /// The seat that starts every round (0 = the scenario's first; optional rule 8.1 overrides
    /// it); tests move it to exchange seats.
    pub first: usize,
}

impl Drop for Play<'_> {
    fn drop(&mut self) {
        let cache = std::mem::take(&mut self.cache);
        if let Ok(mut pool) = self.game.caches.lock() {
            pool.push(cache);
        }
    }
}

impl<'g> Play<'g> {
    pub fn new(game: &'g Game) -> Play<'g> {
        let cache = game
            .caches
            .lock()
            .ok()
            .and_then(|mut pool| pool.pop())
            .unwrap_or_default();
        let s = &game.scenario;
        Play {
            game,
            st: State::new(s),
            cache,
            metrics: vec![0.0; s.empires.len() * super::TURN_METRICS.len()],
            reach: vec![u8::MAX; s.empires.len() * s.map.nodes()],
            order: Vec::with_capacity(64),
            first: 0,
        }
    }

    fn s(&self) -> &'g Scenario {
        &self.game.scenario
    }

    fn n(&self) -> usize {
        self.game.scenario.empires.len()
    }

    /// Set-up (digest §2.1): capitals, key cities, the round-robin empire building, the neutral
    /// fill, the deal.
    pub fn setup(&mut self, dice: &mut Dice) {
        let s = self.s();
        self.st.reset(s, dice);
        let most = s
            .empires
            .iter()
            .map(|e| e.fortifications)
            .max()
            .unwrap_or(1);
        for round in 1..most {
            for p in 0..self.n() {
                if round < s.empires[p].fortifications {
                    let c = self.choose_placement(p, dice);
                    if self.st.owner[c] == NEUTRAL {
                        self.st.owner[c] = p as u8;
                    }
                    self.st.markers[c] += 1;
                    self.st.players[p].reserve -= 1;
                }
            }
        }
        for c in 0..s.map.cities.len() {
            if self.st.owner[c] == NEUTRAL && self.st.markers[c] == 0 {
                self.st.markers[c] = 1;
                self.st.neutral_reserve -= 1;
            }
        }
        for p in 0..self.n() {
            self.st.players[p].start_cities = self.st.cities_of(p);
            let h = s.empires[p].hand_size as usize;
            self.st.draw(p, h);
        }
    }

    /// A set-up marker: a free, non-key city one road or strait from an own city, or a stack on
    /// an own city (always legal, A-55).
    fn choose_placement(&mut self, p: usize, dice: &mut Dice) -> usize {
        let s = self.s();
        let mut best: Option<usize> = None;
        let mut legal = 0u32;
        let mut pick = usize::MAX;
        let random = self.game.policies[p] == Policy::Random;
        for c in 0..s.map.cities.len() {
            let free =
                self.st.owner[c] == NEUTRAL && self.st.markers[c] == 0 && !s.map.cities[c].key;
            let next_to_own = s.map.adjacent[c].iter().any(|&(m, k)| {
                k != super::scenario::EdgeKind::BarbarianPath
                    && s.map.is_city(m)
                    && self.st.owner[m] as usize == p
            });
            let own = self.st.owner[c] as usize == p;
            if (free && next_to_own) || own {
                legal += 1;
                // Reservoir sampling for the random player.
                if random && dice.below(legal as u64) == 0 {
                    pick = c;
                }
                if free
                    && next_to_own
                    && best.is_none_or(|b| s.map.cities[c].size > s.map.cities[b].size)
                {
                    best = Some(c);
                }
            }
        }
        if random {
            pick
        } else {
            best.unwrap_or(s.empires[p].capital)
        }
    }

    pub fn play_game(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        self.setup(dice);
        let s = self.s();
        let turns = self.game.turns;
        let mut first = self.first;
        'game: for turn in 1..=turns {
            self.st.turn = turn;
            record.turns = turn as u32;
            if self.game.rules.round_resets || turn == 1 {
                self.st.round = 1;
            }
            if self.game.rules.first_commands {
                // Optional rule 8.1: the VP leader (the earliest seat on a tie, A-43) picks the
                // first player; every policy picks itself.
                first = (0..self.n())
                    .max_by_key(|&p| (self.st.players[p].vp, std::cmp::Reverse(p)))
                    .unwrap_or(0);
            }
            let mut everyone_passed = false;
            for _ in 0..MAX_ROUNDS {
                let roll = dice.d(6) as i32
                    + dice.d(6) as i32
                    + event_modifier(&self.game.rules, self.st.round, everyone_passed);
                let event = s.tables.event(roll);
                self.st.event = event;
                game_log!(
                    log,
                    "turn {turn} round {}: roll {roll}, {}",
                    self.st.round,
                    event.name()
                );
                if event == Event::EndOfTurn {
                    break;
                }
                self.st.counts.rounds += 1;
                self.resolve_event(event, dice, log);
                if self.st.sudden_winner.is_some() {
                    break 'game;
                }
                everyone_passed = true;
                for k in 0..self.n() {
                    let p = (first + k) % self.n();
                    let acted = self.action_phase(p, dice, log);
                    everyone_passed &= !acted;
                    if self.st.sudden_winner.is_some() {
                        break 'game;
                    }
                }
                self.st.round = self.st.round.saturating_add(1);
            }
            self.end_of_turn(turn, turn == turns, dice);
            self.observe(observer, turn);
        }
        if self.st.sudden_winner.is_some() {
            self.observe(observer, self.st.turn);
        }
        self.finish(record);
    }

    fn observe(&mut self, observer: &mut dyn TurnObserver, turn: u8) {
        let m = super::TURN_METRICS.len();
        for p in 0..self.n() {
            self.metrics[p * m] = self.st.players[p].vp as f64;
            self.metrics[p * m + 1] = self.st.cities_of(p) as f64;
            self.metrics[p * m + 2] = self.st.players[p].hand.len() as f64;
        }
        observer.turn(turn as u32, &self.metrics, &[self.st.counts.rounds as f64]);
    }

    /// The winner (digest §1.6): automatic victory, else the most VP, then the most cities, then
    /// the most key cities, then a shared victory.
    fn finish(&mut self, record: &mut GameRecord) {
        let s = self.s();
        let n = self.n();
        for p in 0..n {
            record.score[p] = self.st.players[p].vp as f64;
        }
        let c = &self.st.counts;
        record.extra.copy_from_slice(&[
            c.rounds as f64,
            c.expeditions as f64,
            c.conquests as f64,
            c.pacifications as f64,
            c.wrecks as f64,
            c.raids_taken as f64,
        ]);
        if let Some(w) = self.st.sudden_winner {
            record.ending = 0;
            record.win_share[w as usize] = 1.0;
            return;
        }
        record.ending = 1;
        let rank = |p: usize| {
            (
                self.st.players[p].vp,
                self.st.cities_of(p),
                self.st.key_cities_of(s, p),
            )
        };
        let best = (0..n).map(rank).max().expect("players");
        let winners = (0..n).filter(|&p| rank(p) == best).count();
        for p in 0..n {
            if rank(p) == best {
                record.win_share[p] = 1.0 / winners as f64;
            }
        }
    }

    // ---- Events (digest §4.5) ---------------------------------------------------------------

    pub fn resolve_event(&mut self, event: Event, dice: &mut Dice, log: &mut dyn GameLog) {
        self.st.weather = match event {
            Event::GoodWeather => Weather::Good,
            Event::BadWeather => Weather::Bad,
            _ => Weather::Normal,
        };
        let n = self.n();
        match event {
            Event::Prosperity => {
                for p in 0..n {
                    let draw = match self.game.policies[p] {
                        Policy::Random => dice.below(2) == 0,
                        // Cards while the pile lasts (digest §6.3 tie-break).
                        Policy::Greedy(_) => self.st.players[p].draw.len() >= 2,
                    };
                    if draw {
                        self.st.draw(p, 2);
                    } else {
                        self.st.add_vp(p, 2);
                    }
                }
            }
            Event::EnragedBarbarians => self.st.enraged = (self.st.enraged + 1).min(MAX_ENRAGED),
            Event::Homecoming => {
                for p in 0..n {
                    let s = self.s();
                    let pl = &self.st.players[p];
                    let mut pick: Option<usize> = None;
                    let mut seen = 0u64;
                    for (i, &c) in pl.discard.iter().enumerate() {
                        if !military::is(s, p, c, TROOP | FLEET | LEADER) {
                            continue;
                        }
                        seen += 1;
                        let better = match self.game.policies[p] {
                            Policy::Random => dice.below(seen) == 0,
                            Policy::Greedy(_) => pick.is_none_or(|j| {
                                military::strength(s, p, c, false)
                                    > military::strength(s, p, pl.discard[j], false)
                            }),
                        };
                        if better {
                            pick = Some(i);
                        }
                    }
                    if let Some(i) = pick {
                        let pl = &mut self.st.players[p];
                        let c = pl.discard.swap_remove(i);
                        pl.hand.push(c);
                    }
                }
            }
            Event::Scarcity => {
                for p in 0..n {
                    let cards = self.st.players[p].hand.len();
                    // Fewer than 2 cards: the VP must go (T-19); at 1 VP the loss is free.
                    let lose_vp = cards < 2
                        || match self.game.policies[p] {
                            Policy::Random => dice.below(2) == 0,
                            Policy::Greedy(_) => self.st.players[p].vp <= 1 || cards <= 4,
                        };
                    if lose_vp {
                        self.st.add_vp(p, -2);
                    } else {
                        for _ in 0..2 {
                            let len = self.st.players[p].hand.len();
                            let i = dice.below(len as u64) as usize;
                            self.st.discard_at(p, i);
                        }
                    }
                }
            }
            Event::NeutralAttack => self.neutral_attack(false, dice, log),
            Event::Pirates => self.neutral_attack(true, dice, log),
            _ => {}
        }
    }

    /// Neutral Attack or Pirates (§3.10): a random player rolls on the table and picks the
    /// victim (the VP leader among the others for the greedy player; any for the random one).
    fn neutral_attack(&mut self, pirates: bool, dice: &mut Dice, log: &mut dyn GameLog) {
        let s = self.s();
        let n = self.n();
        let chooser = dice.below(n as u64) as usize;
        let row = dice.d(6) as usize - 1;
        let force = if pirates {
            s.tables.pirates[row]
        } else {
            s.tables.neutral[row]
        };
        let may_self = if pirates {
            self.game.rules.pirates_may_target_self
        } else {
            self.game.rules.neutral_may_target_self
        };
        // (victim city, straits of the neutral city's attack).
        let mut best: Option<(usize, u8)> = None;
        let mut seen = 0u64;
        for c in 0..s.map.cities.len() {
            let o = self.st.owner[c];
            if o == NEUTRAL || (o as usize == chooser && !may_self) {
                continue;
            }
            let straits = if pirates {
                if !s.map.cities[c].port {
                    continue;
                }
                0
            } else {
                match self.neutral_source(c) {
                    Some(st) => st,
                    None => continue,
                }
            };
            seen += 1;
            let better = match self.game.policies[chooser] {
                Policy::Random => dice.below(seen) == 0,
                Policy::Greedy(_) => best.is_none_or(|(b, _)| {
                    let key = |x: usize| {
                        (
                            self.st.players[self.st.owner[x] as usize].vp,
                            s.map.cities[x].size,
                        )
                    };
                    key(c) > key(b)
                }),
            };
            if better {
                best = Some((c, straits));
            }
        }
        let Some((city, straits)) = best else { return };
        let owner = self.st.owner[city] as usize;
        let mut defence = if pirates {
            Defence::default()
        } else {
            self.choose_defence(owner, city, dice)
        };
        if pirates {
            defence.defence = self.defence_cards(owner, dice);
        }
        self.take_from_hand(owner, &defence.intercept);
        self.take_from_hand(owner, &defence.defence);
        self.interceptor_straits(owner, &mut defence, dice);
        let r = military::raid(
            s,
            &self.st,
            &self.game.rules.options,
            pirates,
            force,
            straits as u32,
            city,
            &defence,
            dice,
        );
        game_log!(
            log,
            "  {} on {}: {}",
            if pirates { "pirates" } else { "neutral attack" },
            s.map.cities[city].name,
            if r.taken { "taken" } else { "held" }
        );
        // The interceptor's cards: back to hand on a 6, else discarded; City Defence discarded.
        let mut order = Cards::default();
        military::interceptor_order(s, owner, defence.intercept.as_slice(), &mut order);
        for (i, &c) in order.as_slice().iter().enumerate() {
            self.return_or_discard(owner, c, r.recovered & (1 << i) != 0);
        }
        for &c in defence.defence.as_slice() {
            self.st.players[owner].discard.push(c);
        }
        self.st.add_vp(owner, r.vp[1] as i32);
        if r.taken {
            self.st.counts.raids_taken += 1;
            self.st.transfer(s, city, NEUTRAL);
        }
    }

    /// The straits a neutral city's land attack on `city` crosses: a neutral city one road or
    /// strait away, or linked through pacified areas only; the fewest straits.
    fn neutral_source(&self, city: usize) -> Option<u8> {
        let s = self.s();
        let mut best: Option<u8> = None;
        for &(m, k) in &s.map.adjacent[city] {
            let strait = (k == super::scenario::EdgeKind::Strait) as u8;
            if s.map.is_city(m) {
                if self.st.owner[m] == NEUTRAL {
                    best = Some(best.map_or(strait, |b| b.min(strait)));
                }
            } else if self.st.pacified[s.map.area(m)] {
                // One pacified area between them (longer chains are not on the ring).
                for &(x, _) in &s.map.adjacent[m] {
                    if x != city && s.map.is_city(x) && self.st.owner[x] == NEUTRAL {
                        best = Some(0);
                    }
                }
            }
        }
        best
    }

    // ---- Actions (digest §4.3) --------------------------------------------------------------

    /// One action phase; returns whether the player did anything but pass.
    fn action_phase(&mut self, p: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        if self.st.players[p].hand.is_empty() {
            return false;
        }
        let ems = match self.st.event {
            Event::TimeForDiplomacy => 0,
            Event::CampaignSeason => 2,
            _ => 1,
        };
        let mut acted = false;
        for k in 0..ems {
            let plan = match self.game.policies[p] {
                Policy::Random => self.random_plan(p, dice),
                Policy::Greedy(g) => self.greedy_plan(p, &g),
            };
            match plan {
                Some(plan) => {
                    acted = true;
                    let wrecked = self.expedition(p, plan, dice, log);
                    if self.st.sudden_winner.is_some()
                        || (wrecked && self.game.rules.wreck_ends_phase)
                    {
                        return true;
                    }
                }
                None => {
                    if k == 0 && self.game.policies[p] == Policy::Random && dice.below(2) == 0 {
                        // Change one card: discard one, draw one (the draw is optional, A-18).
                        let len = self.st.players[p].hand.len();
                        let i = dice.below(len as u64) as usize;
                        self.st.discard_at(p, i);
                        self.st.draw(p, 1);
                        return true;
                    }
                    break;
                }
            }
        }
        acted
    }

    /// Removes these cards from the player's hand (they are in play).
    fn take_from_hand(&mut self, p: usize, cards: &Cards) {
        let hand = &mut self.st.players[p].hand;
        for &c in cards.as_slice() {
            if let Some(i) = hand.iter().position(|&x| x == c) {
                hand.swap_remove(i);
            }
        }
    }

    fn return_or_discard(&mut self, p: usize, c: u8, back: bool) {
        let pl = &mut self.st.players[p];
        if back {
            pl.hand.push(c);
        } else {
            pl.discard.push(c);
        }
    }

    /// Each player's land reach from its capital, into `self.reach`.
    fn compute_reach(&mut self, p: usize) {
        let s = self.s();
        let nodes = s.map.nodes();
        self.st.land_reach(s, p, s.empires[p].capital);
        self.reach[p * nodes..(p + 1) * nodes].copy_from_slice(&self.st.reach);
    }

    /// The defender's choice against an attack on its city: intercept by land at the city with
    /// its best troops (the greedy player, when it holds its capital and can reach the city),
    /// and its City Defence cards for the assault.
    fn choose_defence(&mut self, q: usize, city: usize, dice: &mut Dice) -> Defence {
        let s = self.s();
        let mut d = Defence {
            defence: self.defence_cards(q, dice),
            ..Defence::default()
        };
        if !self.st.holds_capital(s, q) {
            return d; // no interception without the capital.
        }
        self.compute_reach(q);
        let straits = self.reach[q * s.map.nodes() + city];
        if straits == u8::MAX {
            return d;
        }
        d.straits = straits;
        let hand = &self.st.players[q].hand;
        match self.game.policies[q] {
            Policy::Random => {
                if dice.below(2) == 0 {
                    for &c in hand {
                        if military::is(s, q, c, TROOP) && dice.below(2) == 0 {
                            d.intercept.push(c);
                        }
                    }
                }
            }
            Policy::Greedy(g) => {
                self.order.clear();
                self.order.extend(
                    hand.iter()
                        .copied()
                        .filter(|&c| military::is(s, q, c, TROOP)),
                );
                self.order.sort_by(|&a, &b| {
                    military::strength(s, q, b, false)
                        .total_cmp(&military::strength(s, q, a, false))
                        .then(a.cmp(&b))
                });
                for &c in self.order.iter().take(g.max_cards as usize) {
                    d.intercept.push(c);
                }
            }
        }
        d
    }

    fn defence_cards(&self, q: usize, dice: &mut Dice) -> Cards {
        let s = self.s();
        let mut out = Cards::default();
        for &c in &self.st.players[q].hand {
            if military::is(s, q, c, CITY_DEFENCE)
                && (self.game.policies[q] != Policy::Random || dice.below(2) == 0)
            {
                out.push(c);
            }
        }
        out
    }

    /// The interceptor rolls for the straits of its own route: lost cards are discarded.
    fn interceptor_straits(&mut self, q: usize, d: &mut Defence, dice: &mut Dice) {
        for _ in 0..d.straits {
            if d.intercept.is_empty() {
                return;
            }
            match roll_strait(
                dice,
                self.st.weather,
                self.game.rules.options.int("bad_weather_wreck_ones") as u32,
            ) {
                None => {
                    for &c in d.intercept.as_slice() {
                        self.st.players[q].discard.push(c);
                    }
                    d.intercept = Cards::default();
                }
                Some(lost) => {
                    for _ in 0..lost {
                        if d.intercept.is_empty() {
                            break;
                        }
                        let i = dice.below(d.intercept.len() as u64) as usize;
                        let c = d.intercept.ids[i];
                        d.intercept.ids[i] = d.intercept.ids[d.intercept.len() - 1];
                        d.intercept.n -= 1;
                        self.st.players[q].discard.push(c);
                    }
                }
            }
        }
    }

    /// Declares and resolves an expedition; returns whether it was wrecked at a strait.
    fn expedition(&mut self, p: usize, plan: Plan, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let s = self.s();
        self.st.counts.expeditions += 1;
        self.take_from_hand(p, &plan.cards);
        self.take_from_hand(p, &plan.leaders);
        self.take_from_hand(p, &plan.attack);
        let t = plan.target;
        let owner = if s.map.is_city(t) {
            self.st.owner[t]
        } else {
            NEUTRAL
        };
        let defender = (owner != NEUTRAL && owner as usize != p).then_some(owner as usize);
        let mut defence = match defender {
            Some(q) => self.choose_defence(q, t, dice),
            None => Defence::default(),
        };
        if let Some(q) = defender {
            self.take_from_hand(q, &defence.intercept);
            self.take_from_hand(q, &defence.defence);
            self.interceptor_straits(q, &mut defence, dice);
        }
        let played =
            military::build(s, &self.st, &self.game.rules.options, p, &plan, &defence).play(dice);
        game_log!(
            log,
            "  {} attacks {} with {} cards: {:?}",
            self.game.players[p],
            s.map.node_name(t),
            plan.cards.len(),
            played.failed
        );
        // The attacker's cards: those lost in battle and recovered go back, the rest are
        // discarded; cards never brought into a combat go back.
        let mut order = Cards::default();
        military::calculator_order(s, s.empires[p].deck, plan.cards.as_slice(), &mut order);
        let wrecked = played.failed == Some(Fail::Wrecked);
        let reached_target = matches!(played.failed, None | Some(Fail::Target));
        let survivors_recover = played.failed.is_none()
            && !s.map.is_city(t)
            && self.game.rules.pacify_survivors_recover;
        for (i, &c) in order.as_slice().iter().enumerate() {
            let back = played.recovered & (1 << i) != 0 || (survivors_recover && dice.d(6) == 6);
            self.return_or_discard(p, c, back);
        }
        let fought = played.intercepted[1] || reached_target;
        for (i, &c) in plan.leaders.as_slice().iter().enumerate() {
            self.return_or_discard(p, c, !fought || (i as u32) < played.leaders_recovered);
        }
        for &c in plan.attack.as_slice() {
            self.return_or_discard(p, c, !reached_target || !s.map.is_city(t));
        }
        if let Some(q) = defender {
            let mut order = Cards::default();
            military::interceptor_order(s, q, defence.intercept.as_slice(), &mut order);
            for (i, &c) in order.as_slice().iter().enumerate() {
                self.return_or_discard(q, c, played.interceptor_recovered[1] & (1 << i) != 0);
            }
            for &c in defence.defence.as_slice() {
                self.return_or_discard(q, c, !reached_target);
            }
            self.st.add_vp(q, played.vp[1] as i32);
        }
        if wrecked {
            self.st.counts.wrecks += 1;
        }
        self.st.add_vp(p, played.vp[0] as i32);
        if played.failed.is_none() {
            if s.map.is_city(t) {
                self.st.counts.conquests += 1;
                self.st.transfer(s, t, p as u8);
            } else {
                self.pacify(p, t, played.margin, dice);
            }
        }
        wrecked
    }

    /// A won pacification (§3.8): the marker, the Pacification table's result.
    fn pacify(&mut self, p: usize, node: usize, margin: i32, dice: &mut Dice) {
        let s = self.s();
        self.st.counts.pacifications += 1;
        if self.st.pacified_reserve > 0 {
            self.st.pacified_reserve -= 1;
            self.st.pacified[s.map.area(node)] = true;
        }
        let result = s
            .tables
            .pacification(dice.d(6), margin, self.st.enraged as u32);
        let (mut vp, cards) = result.reward();
        match result {
            // +2 and a random discard, or +1 (the random player flips a coin; the greedy one
            // keeps its cards).
            Pacification::HardCampaign
                if self.game.policies[p] == Policy::Random
                    && dice.below(2) == 0
                    && !self.st.players[p].hand.is_empty() =>
            {
                vp = 2;
                let len = self.st.players[p].hand.len();
                let i = dice.below(len as u64) as usize;
                self.st.discard_at(p, i);
            }
            Pacification::Migration => {
                // Remove, if possible, a pacified marker from a connected area (A-40: the first).
                if let Some(&(m, _)) = s.map.adjacent[node]
                    .iter()
                    .find(|&&(m, _)| !s.map.is_city(m) && self.st.pacified[s.map.area(m)])
                {
                    self.st.pacified[s.map.area(m)] = false;
                    self.st.pacified_reserve += 1;
                }
            }
            Pacification::InstillFear => {
                // An extra marker on a connected hostile area, when there is one.
                if let Some(&(m, _)) = s.map.adjacent[node]
                    .iter()
                    .find(|&&(m, _)| !s.map.is_city(m) && !self.st.pacified[s.map.area(m)])
                {
                    if self.st.pacified_reserve > 0 {
                        self.st.pacified_reserve -= 1;
                        self.st.pacified[s.map.area(m)] = true;
                    }
                }
            }
            _ => {}
        }
        self.st.add_vp(p, vp);
        self.st.draw(p, cards as usize);
    }

    // ---- The players' expeditions -----------------------------------------------------------

    /// Each target the player can reach and how: (node, naval, straits).
    fn targets(&mut self, p: usize, out: &mut [(usize, bool, u8); 64]) -> usize {
        let s = self.s();
        let nodes = s.map.nodes();
        let mut k = 0;
        let capital = s.empires[p].capital;
        if !self.st.holds_capital(s, p) {
            // the only expedition allowed retakes the capital, no route needed.
            out[0] = (capital, false, 0);
            return 1;
        }
        self.compute_reach(p);
        let reach = &self.reach[p * nodes..(p + 1) * nodes];
        let mut sea_from = u8::MAX;
        for c in 0..s.map.cities.len() {
            if s.map.cities[c].port && self.st.owner[c] as usize == p && reach[c] != u8::MAX {
                sea_from = sea_from.min(reach[c]);
            }
        }
        for node in 0..nodes {
            let hostile = if s.map.is_city(node) {
                self.st.owner[node] as usize != p
            } else {
                !self.st.pacified[s.map.area(node)]
            };
            if !hostile {
                continue;
            }
            if reach[node] != u8::MAX && k < out.len() {
                out[k] = (node, false, reach[node]);
                k += 1;
            }
            if sea_from != u8::MAX
                && s.map.is_city(node)
                && s.map.cities[node].port
                && k < out.len()
            {
                out[k] = (node, true, sea_from);
                k += 1;
            }
        }
        k
    }

    /// P0: a random legal expedition, or None (then it passes or changes a card).
    fn random_plan(&mut self, p: usize, dice: &mut Dice) -> Option<Plan> {
        if dice.below(2) == 0 {
            return None;
        }
        let s = self.s();
        let mut targets = [(0usize, false, 0u8); 64];
        let k = self.targets(p, &mut targets);
        if k == 0 {
            return None;
        }
        let (target, naval, straits) = targets[dice.below(k as u64) as usize];
        let mut plan = Plan {
            target,
            naval,
            straits,
            ..Plan::default()
        };
        let mut capacity = 0u32;
        let hand = &self.st.players[p].hand;
        for &c in hand {
            if military::is(s, p, c, FLEET) && naval && dice.below(2) == 0 {
                plan.cards.push(c);
                let d = &s.decks[s.empires[p].deck];
                capacity += d.kinds[d.cards[c as usize] as usize].naval.as_count();
            }
        }
        let mut troops = 0;
        for &c in hand {
            if military::is(s, p, c, TROOP) && dice.below(2) == 0 && (!naval || troops < capacity) {
                plan.cards.push(c);
                troops += 1;
            } else if military::is(s, p, c, LEADER) && dice.below(2) == 0 {
                plan.leaders.push(c);
            } else if military::is(s, p, c, CITY_ATTACK)
                && s.map.is_city(target)
                && dice.below(2) == 0
            {
                plan.attack.push(c);
            }
        }
        if troops == 0 {
            return None;
        }
        Some(plan)
    }

    /// P1: every target, the best 1..max_cards troops (with the fleets to carry them by sea),
    /// through the exact chain; the best value that passes θ and τ.
    fn greedy_plan(&mut self, p: usize, g: &super::policy::Greedy) -> Option<Plan> {
        let s = self.s();
        let hand_len = self.st.players[p].hand.len();
        if hand_len as u32 <= g.reserve {
            return None;
        }
        let mut targets = [(0usize, false, 0u8); 64];
        let k = self.targets(p, &mut targets);
        let mut best: Option<(f64, Plan)> = None;
        let budget = (hand_len as u32 - g.reserve).min(g.max_cards);
        for &(target, naval, straits) in &targets[..k] {
            let is_city = s.map.is_city(target);
            // Troops by strength for what the target needs, then fleets by capacity.
            self.order.clear();
            self.order.extend(
                self.st.players[p]
                    .hand
                    .iter()
                    .copied()
                    .filter(|&c| military::is(s, p, c, TROOP)),
            );
            self.order.sort_by(|&a, &b| {
                military::strength(s, p, b, is_city)
                    .total_cmp(&military::strength(s, p, a, is_city))
                    .then(a.cmp(&b))
            });
            let troops: Cards = {
                let mut t = Cards::default();
                for &c in &self.order {
                    t.push(c);
                }
                t
            };
            let mut fleets = Cards::default();
            let mut leaders = Cards::default();
            let mut attack = Cards::default();
            for &c in &self.st.players[p].hand {
                if military::is(s, p, c, FLEET) {
                    fleets.push(c);
                } else if military::is(s, p, c, LEADER) {
                    leaders.push(c);
                } else if military::is(s, p, c, CITY_ATTACK) && is_city {
                    attack.push(c);
                }
            }
            if naval && fleets.is_empty() {
                continue;
            }
            let d = &s.decks[s.empires[p].deck];
            let cap = |c: u8| d.kinds[d.cards[c as usize] as usize].naval.as_count();
            for n_troops in 1..=troops.len().min(budget as usize) {
                let mut plan = Plan {
                    target,
                    naval,
                    straits,
                    ..Plan::default()
                };
                for &c in &troops.as_slice()[..n_troops] {
                    plan.cards.push(c);
                }
                if naval {
                    let mut room = 0;
                    for &f in fleets.as_slice() {
                        if room >= n_troops as u32 {
                            break;
                        }
                        plan.cards.push(f);
                        room += cap(f);
                    }
                    if room < n_troops as u32 || plan.cards.len() as u32 > budget {
                        continue;
                    }
                }
                // One leader and one City Attack card go with the expedition when held.
                if let Some(&l) = leaders.as_slice().first() {
                    plan.leaders.push(l);
                }
                if let Some(&a) = attack.as_slice().first() {
                    plan.attack.push(a);
                }
                let defence = self.predicted_defence(target, g);
                let (chance, vp) =
                    self.cache
                        .chance(s, &self.st, &self.game.rules.options, p, &plan, &defence);
                let reward = if is_city { 0.0 } else { 3.0 * chance };
                let spent = (plan.cards.len() + plan.leaders.len() + plan.attack.len()) as f64;
                let value = vp + reward - g.card_cost * spent;
                if chance >= g.theta && value >= g.tau && best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, plan));
                }
            }
        }
        best.map(|(_, plan)| plan)
    }

    /// What the greedy attacker expects the owner of `target` to do (it reads the defender's
    /// hand: the omniscient reading of §6.3): the greedy defence, straits ignored.
    fn predicted_defence(&mut self, target: usize, g: &super::policy::Greedy) -> Defence {
        let s = self.s();
        let mut d = Defence::default();
        if !s.map.is_city(target) || self.st.owner[target] == NEUTRAL {
            return d;
        }
        let q = self.st.owner[target] as usize;
        for &c in &self.st.players[q].hand {
            if military::is(s, q, c, CITY_DEFENCE) {
                d.defence.push(c);
            }
        }
        if !self.st.holds_capital(s, q) {
            return d;
        }
        let mut troops = [0u8; 64];
        let mut n = 0;
        for &c in &self.st.players[q].hand {
            if military::is(s, q, c, TROOP) && n < 64 {
                troops[n] = c;
                n += 1;
            }
        }
        let t = &mut troops[..n];
        t.sort_by(|&a, &b| {
            military::strength(s, q, b, false)
                .total_cmp(&military::strength(s, q, a, false))
                .then(a.cmp(&b))
        });
        for &c in t.iter().take(g.max_cards as usize) {
            d.intercept.push(c);
        }
        d
    }

    // ---- End of turn (digest §2.3, §4.4) ----------------------------------------------------

    pub fn end_of_turn(&mut self, turn: u8, last: bool, dice: &mut Dice) {
        let s = self.s();
        let n = self.n();
        let doubled = if self.game.rules.double_last_turn {
            last
        } else {
            turn == 3
        };
        let mul = if doubled { 2 } else { 1 };
        let mut cities = [0u8; 8];
        for p in 0..n {
            cities[p] = self.st.cities_of(p);
        }
        let most = cities[..n].iter().copied().max().unwrap_or(0);
        let at_most = cities[..n].iter().filter(|&&c| c == most).count();
        let mut progress = [0i32; 8];
        for p in 0..n {
            progress[p] = cities[p] as i32 - self.st.players[p].start_cities as i32;
        }
        let best_progress = progress[..n].iter().copied().max().unwrap_or(0);
        let at_best = progress[..n]
            .iter()
            .filter(|&&x| x == best_progress)
            .count();
        for p in 0..n {
            let (vp, cards) = score(
                self.st.key_cities_of(s, p) as i32,
                cities[p] == most && most > 0,
                at_most,
                !self.st.holds_capital(s, p),
                turn >= 2 && best_progress > 0 && progress[p] == best_progress,
                at_best,
                self.game.rules.progression_tie_card as i32,
            );
            self.st.add_vp(p, vp * mul);
            let target = s.empires[p].hand_size as i32 + cards;
            self.st.players[p].hand_target = target.max(0) as u8;
        }
        if last {
            return;
        }
        // Reshuffle (pile + discards), discard down, draw up.
        for p in 0..n {
            let pl = &mut self.st.players[p];
            let discards = std::mem::take(&mut pl.discard);
            pl.draw.extend_from_slice(&discards);
            pl.discard = discards;
            pl.discard.clear();
            shuffle(dice, &mut pl.draw);
            while pl.hand.len() > pl.hand_target as usize {
                // The weakest card (the lowest field value; the random player any).
                let i = match self.game.policies[p] {
                    Policy::Random => dice.below(pl.hand.len() as u64) as usize,
                    Policy::Greedy(_) => (0..pl.hand.len())
                        .min_by(|&a, &b| {
                            military::strength(s, p, pl.hand[a], false)
                                .total_cmp(&military::strength(s, p, pl.hand[b], false))
                        })
                        .expect("a card"),
                };
                let c = pl.hand.swap_remove(i);
                pl.discard.push(c);
            }
            let want = (pl.hand_target as usize).saturating_sub(pl.hand.len());
            self.st.draw(p, want);
        }
        self.st.enraged = 0;
        for p in 0..n {
            self.st.players[p].start_cities = self.st.cities_of(p);
        }
    }
}

/// One player's end-of-turn items before doubling (digest §4.4): (VP, hand extras). `most`:
/// it has the most cities (shared by `at_most` players); `best`: the best progression (shared
/// by `at_best`), only from turn 2.
pub fn score(
    keys: i32,
    most: bool,
    at_most: usize,
    capital_lost: bool,
    best: bool,
    at_best: usize,
    tie_card: i32,
) -> (i32, i32) {
    let mut vp = keys;
    let mut cards = keys;
    if most {
        if at_most == 1 {
            vp += 5;
            cards += 2;
        } else {
            vp += 3;
            cards += 1;
        }
    }
    if capital_lost {
        vp -= 3;
        cards -= 1;
    }
    if best {
        if at_best == 1 {
            vp += 3;
            cards += 1;
        } else {
            vp += 2;
            cards += tie_card;
        }
    }
    (vp, cards)
}

impl GamePlay for Play<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        self.play_game(dice, record, observer, log);
    }
}
