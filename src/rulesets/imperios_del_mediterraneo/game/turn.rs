//! One game in the order of digest §2: set-up, then turns of rounds (the event roll, its event,
//! one action phase per player in seat order) until the event is End of turn, the end-of-turn
//! scoring and refill, sudden death at any change of city ownership, and the final ranking.

use super::military::{self, Cache, Cards, Defence, Plan};
use super::policy::{self, Policy, Scripted, Style};
use super::scenario::{
    Event, Pacification, Scenario, CITY_ATTACK, CITY_DEFENCE, FLEET, LEADER, TROOP,
};
use super::search::{Rollouts, Snapshot};
use super::state::{event_modifier, shuffle, State, MAX_ENRAGED, NEUTRAL};
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, NoLog, NoObserver, TurnObserver};
use crate::game_log;
use crate::rulesets::imperios_del_mediterraneo::battle::{
    barbarian_casualty_count, pacify_recovery, PacifyRecovery,
};
use crate::rulesets::imperios_del_mediterraneo::expedition::Fail;
use crate::rulesets::imperios_del_mediterraneo::strait::{roll_strait, Weather};

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
    metrics: Vec<f64>,
    /// Scratch: each player's land reach from its capital (straits, or u8::MAX).
    reach: Vec<u8>,
    /// Scratch: candidate plans of the greedy player.
    order: Vec<u8>,
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
    fn search_choice(&mut self, p: usize, dice: &mut Dice) -> Option<Option<Plan>> {
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
    fn choose_placement(&mut self, p: usize, dice: &mut Dice) -> usize {
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
    fn shares(&self, out: &mut [f64]) -> usize {
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
                    let draw = match self.pol[p] {
                        Policy::Scripted(_) => self.st.players[p].draw.len() >= 2,
                        // Cards while the pile lasts (digest §6.3 tie-break).
                        _ => dice.below(2) == 0,
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
                        let better = match self.pol[p] {
                            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                                dice.below(seen) == 0
                            }
                            Policy::Scripted(_) => pick.is_none_or(|j| {
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
                    // Fewer than 2 cards: the VP must go (T-19); at 1 VP the loss is free;
                    // else the scripted player compares 2 cards' worth with 2 VP (§6.3).
                    let lose_vp = cards < 2
                        || match self.pol[p] {
                            Policy::Scripted(g) => {
                                self.st.players[p].vp <= 1 || 2.0 * g.card_worth(cards) > 2.0
                            }
                            _ => dice.below(2) == 0,
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
            let better = match self.pol[chooser] {
                Policy::Random | Policy::Mixture | Policy::Search(..) => dice.below(seen) == 0,
                Policy::Scripted(_) => best.is_none_or(|(b, _)| {
                    let key = |x: usize| {
                        (
                            self.st.players[self.st.owner[x] as usize].vp,
                            s.map.cities[x].size,
                            std::cmp::Reverse(self.tie_key(chooser, x)),
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
            self.choose_defence(owner, city, None, dice)
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
    /// `given`: the first expedition (or a pass) already chosen (a search rollout's candidate).
    fn action_phase(
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
    /// its best troops (the scripted player, when it holds its capital and can reach the city;
    /// P2 only when that lowers the attacker's chance of `attack` by its delta), and its City
    /// Defence cards for the assault.
    fn choose_defence(
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

    /// P2's test: intercepting lowers attacker `a`'s exact chance by at least `delta`. The
    /// attacker's cards are face down: the defender sees their counts and estimates them.
    fn interception_pays(&mut self, a: usize, plan: &Plan, d: &Defence, delta: f64) -> bool {
        let s = self.s();
        let mut seen = *plan;
        if !self.game.omniscient {
            let troops = plan
                .cards
                .as_slice()
                .iter()
                .filter(|&&c| military::is(s, a, c, TROOP))
                .count();
            let fleets = plan.cards.len() - troops;
            seen.cards = Cards::default();
            self.estimate(a, TROOP, troops, false, &mut seen.cards);
            self.estimate(a, FLEET, fleets, false, &mut seen.cards);
        }
        let without = Defence {
            intercept: Cards::default(),
            ..*d
        };
        let options = &self.game.rules.options;
        let (open, _) = self.cache.chance(s, &self.st, options, a, &seen, &without);
        let (held, _) = self.cache.chance(s, &self.st, options, a, &seen, d);
        open - held >= delta
    }

    /// Appends to `out` an estimate of `k` hidden cards of type `t` of player `q`: the cards of
    /// its deck of that type not in its discard pile (all another player can know of them), in
    /// their proportions by kind (largest remainders), the strongest kinds first when `best`.
    pub fn estimate(&self, q: usize, t: u8, k: usize, best: bool, out: &mut Cards) {
        let s = self.s();
        let deck = &s.decks[s.empires[q].deck];
        let mut gone = [0u64; 4];
        for &c in &self.st.players[q].discard {
            gone[c as usize / 64] |= 1 << (c % 64);
        }
        let unseen = |c: usize| gone[c / 64] & (1 << (c % 64)) == 0;
        let mut count = [0u32; military::MAX_KINDS];
        let mut total = 0u32;
        for (c, &kind) in deck.cards.iter().enumerate() {
            if unseen(c) && deck.kinds[kind as usize].is(t) {
                count[kind as usize] += 1;
                total += 1;
            }
        }
        let k = k.min(total as usize);
        if k == 0 {
            return;
        }
        // Largest remainders: each kind's whole quota, then one more for the largest fractions.
        let mut take = [0u32; military::MAX_KINDS];
        let mut given = 0;
        for i in 0..deck.kinds.len() {
            take[i] = count[i] * k as u32 / total;
            given += take[i];
        }
        while given < k as u32 {
            let i = (0..deck.kinds.len())
                .filter(|&i| take[i] < count[i])
                .max_by_key(|&i| ((count[i] * k as u32) % total, std::cmp::Reverse(i)))
                .expect("a kind with cards left");
            take[i] += 1;
            given += 1;
        }
        if best {
            // The strongest kinds first, so a caller taking the first few takes the best.
            let mut kinds: [usize; military::MAX_KINDS] = std::array::from_fn(|i| i);
            let by = |i: usize| {
                let kind = &deck.kinds[i];
                military::cv_strength(kind.field)
            };
            kinds[..deck.kinds.len()].sort_by(|&a, &b| by(b).total_cmp(&by(a)).then(a.cmp(&b)));
            for &i in &kinds[..deck.kinds.len()] {
                self.push_kind(q, i, take[i], &unseen, out);
            }
        } else {
            for i in 0..deck.kinds.len() {
                self.push_kind(q, i, take[i], &unseen, out);
            }
        }
    }

    /// The first `n` unseen cards of kind `kind` in `q`'s deck, into `out`.
    fn push_kind(
        &self,
        q: usize,
        kind: usize,
        n: u32,
        unseen: &dyn Fn(usize) -> bool,
        out: &mut Cards,
    ) {
        let s = self.s();
        let deck = &s.decks[s.empires[q].deck];
        let mut left = n;
        for (c, &k) in deck.cards.iter().enumerate() {
            if left == 0 {
                break;
            }
            if k as usize == kind && unseen(c) {
                out.push(c as u8);
                left -= 1;
            }
        }
    }

    fn defence_cards(&self, q: usize, dice: &mut Dice) -> Cards {
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
    pub fn greedy_plan(&mut self, p: usize, g: &Scripted) -> Option<Plan> {
        self.scan(p, g, None)
    }

    /// [`Self::greedy_plan`], and when `top` is given, the best plan of each target whatever
    /// its chance and value, the best `TOP_TARGETS` of them by value (the search candidates).
    fn scan(
        &mut self,
        p: usize,
        g: &Scripted,
        mut top: Option<&mut [(f64, Plan); TOP_TARGETS]>,
    ) -> Option<Plan> {
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
            let owner = if is_city {
                self.st.owner[target]
            } else {
                NEUTRAL
            };
            let rival = owner != NEUTRAL && owner as usize != p && target != s.empires[p].capital;
            let bonus = match g.style {
                Style::Turtle { .. } if rival => continue,
                Style::Aggressor { leader, rival: r } if rival => {
                    r + if self.leads_others(owner as usize, p) {
                        leader
                    } else {
                        0.0
                    }
                }
                _ => 0.0,
            };
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
            let mut target_best = (f64::NEG_INFINITY, Plan::default());
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
                let reward = if is_city {
                    bonus * chance
                } else {
                    3.0 * chance
                };
                let spent = (plan.cards.len() + plan.leaders.len() + plan.attack.len()) as f64;
                let value = vp + reward - g.card_cost * spent;
                let better = best.as_ref().is_none_or(|(v, b)| {
                    value > *v
                        || (value == *v && self.tie_key(p, target) < self.tie_key(p, b.target))
                });
                if chance >= g.theta && value >= g.tau && better {
                    best = Some((value, plan));
                }
                if value > target_best.0 {
                    target_best = (value, plan);
                }
            }
            if let Some(top) = top.as_deref_mut() {
                // Insert into the best few, best first (the first of equals kept).
                if let Some(i) = top.iter().position(|&(v, _)| target_best.0 > v) {
                    top[i..].rotate_right(1);
                    top[i] = target_best;
                }
            }
        }
        best.map(|(_, plan)| plan)
    }

    /// Whether `q` has the most VP among the players other than `p` (ties included).
    fn leads_others(&self, q: usize, p: usize) -> bool {
        let vp = self.st.players[q].vp;
        (0..self.n()).all(|o| o == p || self.st.players[o].vp <= vp)
    }

    /// Of player `q`: its hand size, and its deck's cards not in its discard pile (in its hand or
    /// its draw pile), all of them, its City Defence cards, its Troop cards.
    fn unseen_counts(&self, q: usize) -> (u32, u32, u32, u32) {
        let s = self.s();
        let pl = &self.st.players[q];
        let deck = &s.decks[s.empires[q].deck];
        let (mut all, mut defence, mut troop) = (0, 0, 0);
        for c in pl.hand.iter().chain(&pl.draw) {
            let kind = &deck.kinds[deck.cards[*c as usize] as usize];
            all += 1;
            defence += kind.is(CITY_DEFENCE) as u32;
            troop += kind.is(TROOP) as u32;
        }
        (pl.hand.len() as u32, all, defence, troop)
    }

    /// What the scripted attacker expects the owner of `target` to do: the greedy defence,
    /// straits ignored, from the defender's hand as the attacker can estimate it (its hand size
    /// and its deck less its discard pile), or as it is when the game is omniscient.
    fn predicted_defence(&mut self, target: usize, g: &Scripted) -> Defence {
        let s = self.s();
        let mut d = Defence::default();
        if !s.map.is_city(target) || self.st.owner[target] == NEUTRAL {
            return d;
        }
        let q = self.st.owner[target] as usize;
        let mut troops = [0u8; 64];
        let mut n = 0;
        if self.game.omniscient {
            for &c in &self.st.players[q].hand {
                if military::is(s, q, c, CITY_DEFENCE) {
                    d.defence.push(c);
                } else if military::is(s, q, c, TROOP) && n < 64 {
                    troops[n] = c;
                    n += 1;
                }
            }
        } else {
            let (h, unseen, defence, troop) = self.unseen_counts(q);
            let share = |x: u32| ((h * x) as f64 / unseen.max(1) as f64).round() as usize;
            self.estimate(q, CITY_DEFENCE, share(defence), false, &mut d.defence);
            let mut guess = Cards::default();
            self.estimate(q, TROOP, share(troop), true, &mut guess);
            n = guess.len();
            troops[..n].copy_from_slice(guess.as_slice());
        }
        if !self.st.holds_capital(s, q) {
            return d;
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
