//! One game in the order of digest §2: set-up, then turns of rounds (the event roll, its event,
//! one action phase per player in seat order) until the event is End of turn, the end-of-turn
//! scoring and refill, sudden death at any change of city ownership, and the final ranking.

use super::military::{self, Cache, Cards, Defence, Plan};
use super::policy::{self, Policy, Scripted, Style};
use super::scenario::{Event, Pacification, Scenario, CITY_DEFENCE, FLEET, TROOP};
use super::search::{Rollouts, Snapshot};
use super::state::{event_modifier, shuffle, State, NEUTRAL};
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, NoLog, NoObserver, TurnObserver};
use crate::game_log;
use crate::rulesets::imperios_del_mediterraneo::battle::{
    barbarian_casualty_count, pacify_recovery, PacifyRecovery,
};
use crate::rulesets::imperios_del_mediterraneo::expedition::Fail;
use crate::rulesets::imperios_del_mediterraneo::strait::roll_strait;

/// The search player's candidates beyond pass and its policy's own choice: the best plan
/// against each of this many targets.
pub const TOP_TARGETS: usize = 3;

/// A turn's rounds are bounded by the event roll (its modifier grows each round); this caps a
/// table that never ends a turn.
pub const MAX_ROUNDS: u8 = 40;

pub struct Play<'g> {
    pub game: &'g Game,
    pub st: State,
    pub cache: Cache,
    /// Per-turn metrics, player by player.
    pub(super) metrics: Vec<f64>,
    /// Scratch: each player's land reach from its capital (straits, or u8::MAX).
    pub(super) reach: Vec<u8>,
    /// Scratch: candidate plans of the greedy player.
    pub(super) order: Vec<u8>,
    /// Each player's policy in this game (a `mixture` seat's draw for the game).
    pub pol: Vec<Policy>,
    /// The seat (a place in [`Game::seats`]) that starts every round (0 = the first; optional
    /// rule 8.1 overrides it); tests move it to rotate the seats.
    pub first: usize,
    /// Where a player searches: the game as its rollouts see it, the searcher's buffers and
    /// the copy of the state it searches from.
    search: Option<Box<SearchBox<'g>>>,
}

struct SearchBox<'g> {
    rollouts: Rollouts<'g>,
    searcher: Searcher<Rollouts<'g>>,
    snapshot: Snapshot,
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
        let mut play = Play::without_search(game);
        if game
            .policies
            .iter()
            .any(|p| matches!(p, Policy::Search(..)))
        {
            play.search = Some(Box::new(SearchBox {
                rollouts: Rollouts::new(game),
                searcher: Searcher::default(),
                snapshot: Snapshot {
                    st: play.st.clone(),
                    pol: play.pol.clone(),
                },
            }));
        }
        play
    }

    /// A worker whose searching players play their rollout policies (the rollouts' own).
    pub fn without_search(game: &'g Game) -> Play<'g> {
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
            pol: game.policies.clone(),
            first: 0,
            search: None,
        }
    }

    /// The searching player's choice at its decision point (None where `p` does not search:
    /// its policy decides).
    pub(super) fn search_choice(&mut self, p: usize, dice: &mut Dice) -> Option<Option<Plan>> {
        let Policy::Search(spec, _) = self.game.policies[p] else {
            return None;
        };
        let b = self.search.as_deref_mut()?;
        b.snapshot.st.clone_from(&self.st);
        b.snapshot.pol.clone_from(&self.pol);
        b.searcher.choose(&b.rollouts, &b.snapshot, p, spec, dice)
    }

    /// Player `p`'s order between equally good nodes: by sector counted from its own, then by
    /// place in the sector (the same for every sector), so a tie favours no sector for all.
    pub fn tie_key(&self, p: usize, node: usize) -> (u8, usize) {
        let s = self.s();
        let n = s.empires.len() as u8;
        let own = s.map.cities[s.empires[p].capital].sector;
        ((s.map.sector(node) + n - own) % n, node)
    }

    pub(super) fn s(&self) -> &'g Scenario {
        &self.game.scenario
    }

    pub(super) fn n(&self) -> usize {
        self.game.scenario.empires.len()
    }

    /// Set-up (digest §2.1): capitals, key cities, the round-robin empire building, the neutral
    /// fill, the deal.
    pub fn setup(&mut self, dice: &mut Dice) {
        let s = self.s();
        for p in 0..self.n() {
            self.pol[p] = match self.game.policies[p] {
                Policy::Mixture => policy::defaults(policy::MIXED[dice.below(3) as usize]),
                // The searcher's own choices outside its decisions: its rollout policy's.
                Policy::Search(_, Some(g)) => Policy::Scripted(g),
                Policy::Search(_, None) => Policy::Random,
                own => own,
            };
        }
        self.st.reset(s, dice);
        let most = s
            .empires
            .iter()
            .map(|e| e.fortifications)
            .max()
            .unwrap_or(1);
        for round in 1..most {
            for k in 0..self.n() {
                let p = self.game.seats[k];
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
    pub(super) fn choose_placement(&mut self, p: usize, dice: &mut Dice) -> usize {
        let s = self.s();
        let mut best: Option<usize> = None;
        let mut legal = 0u32;
        let mut pick = usize::MAX;
        let random = self.pol[p] == Policy::Random;
        // P2 stacks its capital first (digest §6.3): its first `stack` set-up markers.
        if let Policy::Scripted(Scripted {
            style: Style::Turtle { stack, .. },
            ..
        }) = self.pol[p]
        {
            let capital = s.empires[p].capital;
            if (self.st.markers[capital] as u32) <= stack {
                return capital;
            }
        }
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
                let size = |x: usize| s.map.cities[x].size;
                if free
                    && next_to_own
                    && best.is_none_or(|b| {
                        size(c) > size(b)
                            || (size(c) == size(b) && self.tie_key(p, c) < self.tie_key(p, b))
                    })
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
        self.st.first = self.first as u8;
        self.play_on(false, 0, dice, observer, log);
        self.finish(record);
    }

    /// Plays from the state's cursor to the end of the game, or to the end of turn `stop_after`
    /// when it is not 0; returns whether the game is over. `resume`: the cursor is inside a
    /// round, at seat `st.seat` (the phases before it played), and the round goes on from
    /// there; else turn `st.turn` starts.
    pub fn play_on(
        &mut self,
        mut resume: bool,
        stop_after: u8,
        dice: &mut Dice,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) -> bool {
        let s = self.s();
        let turns = self.game.turns;
        let n = self.n();
        'game: loop {
            let turn = self.st.turn;
            if !resume {
                if self.game.rules.round_resets || turn == 1 {
                    self.st.round = 1;
                }
                if self.game.rules.first_commands {
                    // Optional rule 8.1: the VP leader (the earliest seat on a tie, A-43) picks
                    // the first player; every policy picks itself.
                    let seats = &self.game.seats;
                    self.st.first = (0..n)
                        .max_by_key(|&k| (self.st.players[seats[k]].vp, std::cmp::Reverse(k)))
                        .unwrap_or(0) as u8;
                }
                self.st.prev_passed = false;
                self.st.rounds_in_turn = 0;
            }
            while self.st.rounds_in_turn < MAX_ROUNDS {
                if !resume {
                    let roll = dice.d(6) as i32
                        + dice.d(6) as i32
                        + event_modifier(&self.game.rules, self.st.round, self.st.prev_passed);
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
                    self.st.round_passed = true;
                    self.st.seat = 0;
                }
                resume = false;
                while (self.st.seat as usize) < n {
                    let p = self.game.seats[(self.st.first as usize + self.st.seat as usize) % n];
                    let acted = self.action_phase(p, None, dice, log);
                    self.st.round_passed &= !acted;
                    self.st.seat += 1;
                    if self.st.sudden_winner.is_some() {
                        break 'game;
                    }
                }
                self.st.prev_passed = self.st.round_passed;
                self.st.round = self.st.round.saturating_add(1);
                self.st.rounds_in_turn += 1;
            }
            resume = false;
            self.end_of_turn(turn, turn == turns, dice);
            self.observe(observer, turn);
            if turn >= turns {
                return true;
            }
            if turn == stop_after {
                return false;
            }
            self.st.turn += 1;
        }
        self.observe(observer, self.st.turn);
        true
    }

    /// The search player's rollout from its decision point (the first expedition of its action
    /// phase at seat `st.seat`): `action`, then every player's own policy (the searcher's is
    /// its rollout policy) to the end of the game, or for `horizon` turns. Worth the player's
    /// win share at the end, its VP over the leader's at a horizon.
    pub fn rollout(
        &mut self,
        p: usize,
        action: Option<Plan>,
        horizon: u32,
        dice: &mut Dice,
    ) -> f64 {
        let acted = self.action_phase(p, Some(action), dice, &mut NoLog);
        self.st.round_passed &= !acted;
        self.st.seat += 1;
        let over = self.st.sudden_winner.is_some() || {
            let stop = if horizon == 0 {
                0
            } else {
                (self.st.turn as u32 + horizon - 1).min(u8::MAX as u32) as u8
            };
            self.play_on(true, stop, dice, &mut NoObserver, &mut NoLog)
        };
        if over {
            let mut shares = [0.0; 8];
            self.shares(&mut shares[..self.n()]);
            return shares[p];
        }
        let best = self
            .st
            .players
            .iter()
            .map(|q| q.vp)
            .max()
            .unwrap_or(1)
            .max(1);
        self.st.players[p].vp as f64 / best as f64
    }

    /// The search player's candidates at its decision point: pass, its rollout policy's own
    /// expedition, and the best expedition against each of the few most valuable targets (by
    /// the scripted player's value, whatever its chance).
    pub fn candidates(&mut self, p: usize, out: &mut Vec<Option<Plan>>) {
        out.push(None);
        let g = match self.pol[p] {
            Policy::Scripted(g) => {
                if let Some(own) = self.greedy_plan(p, &g) {
                    out.push(Some(own));
                }
                g
            }
            _ => match policy::defaults("greedy") {
                Policy::Scripted(g) => g,
                _ => unreachable!("greedy is scripted"),
            },
        };
        let mut top = [(f64::NEG_INFINITY, Plan::default()); TOP_TARGETS];
        self.scan(p, &g, Some(&mut top));
        for &(v, plan) in &top {
            if v.is_finite() && !out.contains(&Some(plan)) {
                out.push(Some(plan));
            }
        }
    }

    pub(super) fn observe(&mut self, observer: &mut dyn TurnObserver, turn: u8) {
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
    pub(super) fn finish(&mut self, record: &mut GameRecord) {
        let n = self.n();
        for p in 0..n {
            record.score[p] = self.st.players[p].vp as f64;
        }
        let c = &self.st.counts;
        record.extra.copy_from_slice(&[
            c.rounds as f64,
            c.expeditions as f64,
            c.empire_attacks as f64,
            c.conquests as f64,
            c.pacifications as f64,
            c.wrecks as f64,
            c.raids_taken as f64,
        ]);
        record.turns = self.st.turn as u32;
        record.ending = self.shares(&mut record.win_share);
    }

    /// Each player's win share into `out` (zeros on entry); returns the ending.
    pub(super) fn shares(&self, out: &mut [f64]) -> usize {
        let s = self.s();
        let n = self.n();
        if let Some(w) = self.st.sudden_winner {
            out[w as usize] = 1.0;
            return 0;
        }
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
                out[p] = 1.0 / winners as f64;
            }
        }
        1
    }

    // ---- Actions (digest §4.3) --------------------------------------------------------------

    /// One action phase; returns whether the player did anything but pass.
    /// `given`: the first expedition (or a pass) already chosen (a search rollout's candidate).
    pub(super) fn action_phase(
        &mut self,
        p: usize,
        given: Option<Option<Plan>>,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
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
            let chosen = match given {
                Some(choice) if k == 0 => Some(choice),
                _ if k == 0 => self.search_choice(p, dice),
                _ => None,
            };
            let plan = match (chosen, self.pol[p]) {
                (Some(choice), _) => choice,
                (None, Policy::Scripted(g)) => self.greedy_plan(p, &g),
                (None, _) => self.random_plan(p, dice),
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
                    if k == 0
                        && chosen.is_none()
                        && self.pol[p] == Policy::Random
                        && dice.below(2) == 0
                    {
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
    pub(super) fn take_from_hand(&mut self, p: usize, cards: &Cards) {
        let hand = &mut self.st.players[p].hand;
        for &c in cards.as_slice() {
            if let Some(i) = hand.iter().position(|&x| x == c) {
                hand.swap_remove(i);
            }
        }
    }

    pub(super) fn return_or_discard(&mut self, p: usize, c: u8, back: bool) {
        let pl = &mut self.st.players[p];
        if back {
            pl.hand.push(c);
        } else {
            pl.discard.push(c);
        }
    }

    /// Each player's land reach from its capital, into `self.reach`.
    pub(super) fn compute_reach(&mut self, p: usize) {
        let s = self.s();
        let nodes = s.map.nodes();
        self.st.land_reach(s, p, s.empires[p].capital);
        self.reach[p * nodes..(p + 1) * nodes].copy_from_slice(&self.st.reach);
    }

    /// The defender's choice against an attack on its city: intercept by land at the city with
    /// its best troops (the scripted player, when it holds its capital and can reach the city;
    /// P2 only when that lowers the attacker's chance of `attack` by its delta), and its City
    /// Defence cards for the assault.
    pub(super) fn choose_defence(
        &mut self,
        q: usize,
        city: usize,
        attack: Option<(usize, &Plan)>,
        dice: &mut Dice,
    ) -> Defence {
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
        match self.pol[q] {
            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                if dice.below(2) == 0 {
                    for &c in hand {
                        if military::is(s, q, c, TROOP) && dice.below(2) == 0 {
                            d.intercept.push(c);
                        }
                    }
                }
            }
            Policy::Scripted(g) => {
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
                if let (Style::Turtle { delta, .. }, Some((a, plan))) = (g.style, attack) {
                    if !d.intercept.is_empty() && !self.interception_pays(a, plan, &d, delta) {
                        d.intercept = Cards::default();
                    }
                }
            }
        }
        d
    }

    pub(super) fn defence_cards(&self, q: usize, dice: &mut Dice) -> Cards {
        let s = self.s();
        let mut out = Cards::default();
        for &c in &self.st.players[q].hand {
            if military::is(s, q, c, CITY_DEFENCE)
                && (matches!(self.pol[q], Policy::Scripted(_)) || dice.below(2) == 0)
            {
                out.push(c);
            }
        }
        out
    }

    /// The interceptor rolls for the straits of its own route: lost cards are discarded.
    pub(super) fn interceptor_straits(&mut self, q: usize, d: &mut Defence, dice: &mut Dice) {
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
    pub(super) fn expedition(
        &mut self,
        p: usize,
        plan: Plan,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
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
        if let Some(q) = defender {
            if t != s.empires[p].capital {
                let c = &mut self.st.counts;
                c.empire_attacks += 1;
                c.empire_attacks_by[p] += 1;
                if self.leads_others(q, p) {
                    self.st.counts.leader_attacks_by[p] += 1;
                }
            }
        }
        let mut defence = match defender {
            Some(q) => self.choose_defence(q, t, Some((p, &plan)), dice),
            None => Defence::default(),
        };
        if let Some(q) = defender {
            self.take_from_hand(q, &defence.intercept);
            self.take_from_hand(q, &defence.defence);
            self.interceptor_straits(q, &mut defence, dice);
        }
        let played = self.cache.play(
            s,
            &self.st,
            &self.game.rules.options,
            p,
            &plan,
            &defence,
            dice,
        );
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
        // A pacification is a field battle: its casualty and recovery rolls (the chain
        // calculator stops at the roll-off's winner and margin).
        let (pacify_back, pacify_leaders) = if reached_target && !s.map.is_city(t) {
            let area = military::area_dice(s, &self.st, t) as u32;
            let won = played.failed.is_none();
            let leaders = if played.leaders_at_target {
                plan.leaders.len() as u32
            } else {
                0
            };
            self.pacification_recovery(p, &order, played.alive_at_target, leaders, won, area, dice)
        } else {
            (0, 0)
        };
        for (i, &c) in order.as_slice().iter().enumerate() {
            let back = (played.recovered | pacify_back) & (1 << i) != 0;
            self.return_or_discard(p, c, back);
        }
        let fought = played.intercepted[1] || reached_target;
        let leaders_back = played.leaders_recovered + pacify_leaders;
        for (i, &c) in plan.leaders.as_slice().iter().enumerate() {
            self.return_or_discard(p, c, !fought || (i as u32) < leaders_back);
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

    /// The recovery rolls of a pacification battle (§3.8) by the battle code's rule
    /// ([`pacify_recovery`]): the winner's casualty roll (a uniform fighting Troop card on the
    /// area's 1d6 <= its count, A-29) and that card's roll, or every card's roll (a lost battle;
    /// the survivors too under A-38's other reading). `order`: the expedition's cards as the
    /// calculator numbers them; `alive`: those that reached the area; `leaders`: the leaders
    /// there. Returns the cards (bits of `order`) and the number of leaders back in hand.
    #[allow(clippy::too_many_arguments)]
    pub fn pacification_recovery(
        &self,
        p: usize,
        order: &Cards,
        alive: u32,
        leaders: u32,
        won: bool,
        area_dice: u32,
        dice: &mut Dice,
    ) -> (u32, u32) {
        let s = self.s();
        let rules = &self.game.rules;
        let rule = pacify_recovery(
            won,
            rules.pacify_survivors_recover,
            rules.aside_fleets_recover,
        );
        let deck = &s.decks[s.empires[p].deck];
        let kind = |c: u8| &deck.kinds[deck.cards[c as usize] as usize];
        let mut back = 0u32;
        let mut leaders_back = 0;
        if rule == PacifyRecovery::Casualty {
            let mut fighting = [0usize; military::MAX_PLAN];
            let mut n = 0;
            for (i, &c) in order.as_slice().iter().enumerate() {
                if alive & (1 << i) != 0 && kind(c).is(TROOP) && kind(c).field.usable() {
                    fighting[n] = i;
                    n += 1;
                }
            }
            let count = barbarian_casualty_count(area_dice, &rules.options);
            if n > 0 && dice.d(6) <= count {
                let i = fighting[dice.below(n as u64) as usize];
                if dice.d(6) == 6 {
                    back |= 1 << i;
                }
            }
            return (back, 0);
        }
        for (i, &c) in order.as_slice().iter().enumerate() {
            let rolls = rule == PacifyRecovery::Every || !kind(c).is(FLEET);
            if alive & (1 << i) != 0 && rolls && dice.d(6) == 6 {
                back |= 1 << i;
            }
        }
        for _ in 0..leaders {
            leaders_back += (dice.d(6) == 6) as u32;
        }
        (back, leaders_back)
    }

    /// A won pacification (§3.8): the marker, the Pacification table's result.
    pub(super) fn pacify(&mut self, p: usize, node: usize, margin: i32, dice: &mut Dice) {
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
            // +2 and a random discard, or +1 (the random player flips a coin).
            Pacification::HardCampaign
                if !self.st.players[p].hand.is_empty()
                    && match self.pol[p] {
                        // The 1 VP when the hand is worth more than 1 VP a card (§6.3).
                        Policy::Scripted(g) => g.card_worth(self.st.players[p].hand.len()) < 1.0,
                        _ => dice.below(2) == 0,
                    } =>
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
                let i = match self.pol[p] {
                    Policy::Random | Policy::Mixture | Policy::Search(..) => {
                        dice.below(pl.hand.len() as u64) as usize
                    }
                    Policy::Scripted(_) => (0..pl.hand.len())
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
