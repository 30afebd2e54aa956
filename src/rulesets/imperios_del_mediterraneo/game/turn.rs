//! One game in the order of digest §2: set-up (`setup.rs`), then turns of rounds (the event
//! roll, its event, one action phase per player in seat order) until the event is End of turn,
//! the end-of-turn scoring and refill (`scoring.rs`), sudden death at any change of city
//! ownership, and the final ranking; the worker's buffers and the search player's hooks.

use super::decide::{KeptTargets, Seen};
use super::kept_scan::KeptScan;
use super::key::Key;
use super::military::{self, Cache, Cards, Plan};
use super::policy::{self, Policy};
use super::scenario::{Event, Scenario};
use super::search::{Rollouts, Snapshot};
use super::state::{event_modifier, State};
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, NoLog, NoObserver, TurnObserver};
use crate::game_log;

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
    /// Scratch: each player's land reach from its capital (straits, or u8::MAX), and the map
    /// version (`State::map_version`: the city owners and pacified areas) it was computed at
    /// (it is a function of them; 0: not yet).
    pub(super) reach: Vec<u8>,
    pub(super) reach_from: Vec<u64>,
    /// With the reach, by player: the straits to its departure port (u8::MAX: none) and that
    /// port; by player and node, the fewest straits of a march from another own port after a
    /// naval leg, and that arrival port.
    pub(super) sea_from: Vec<u8>,
    pub(super) departure: Vec<u16>,
    pub(super) march: Vec<(u8, u16)>,
    /// By player: whether `march` holds the marches of its current reach (a defender's check
    /// of its ports needs the reach alone, so the marches wait for that player's own decision).
    pub(super) march_fresh: Vec<bool>,
    /// Scratch for optional rule 8.3: straits of a route through other players' cities, and
    /// each node's predecessor on it.
    pub(super) via: Vec<u8>,
    pub(super) via_pred: Vec<u16>,
    /// Per player, its targets and the map version they were found at.
    pub(super) kept_targets: Vec<KeptTargets>,
    /// Per player, the last defence predicted for it in a scan and its parts of the key by
    /// land and by sea.
    pub(super) kept_defence_parts: Vec<Option<(military::Defence, [Key; 2])>>,
    /// Per player, the defence the scripted players last predicted for it and what it was
    /// predicted from (kept while that is unchanged).
    pub(super) predicted: Vec<Seen>,
    /// Per player, its last scan and what it read (`kept_scan.rs`), and how many scans were
    /// kept ones (tests check that some are).
    pub(super) kept_scans: Vec<KeptScan>,
    pub(super) kept_scan_hits: u64,
    /// Each player's policy in this game (a `mixture` seat's draw for the game).
    pub pol: Vec<Policy>,
    /// Per player, the cards it has put into the current expedition's assault as a third party.
    pub(super) third: Vec<Cards>,
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
        let g = self.game;
        military::keep_cache(&g.scenario.decks, &g.rules.options, cache);
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
        let cache = military::take_cache(&game.scenario.decks, &game.rules.options);
        let s = &game.scenario;
        Play {
            game,
            st: State::new(s),
            cache,
            metrics: vec![0.0; s.empires.len() * super::TURN_METRICS.len()],
            reach: vec![u8::MAX; s.empires.len() * s.map.nodes()],
            reach_from: vec![0; s.empires.len()],
            sea_from: vec![u8::MAX; s.empires.len()],
            departure: vec![0; s.empires.len()],
            march: vec![(u8::MAX, 0); s.empires.len() * s.map.nodes()],
            march_fresh: vec![false; s.empires.len()],
            via: vec![u8::MAX; s.map.nodes()],
            via_pred: vec![0; s.map.nodes()],
            kept_targets: vec![KeptTargets::default(); s.empires.len()],
            kept_defence_parts: vec![None; s.empires.len()],
            predicted: vec![Seen::default(); s.empires.len()],
            kept_scans: (0..s.empires.len())
                .map(|_| KeptScan::with_capacity(s))
                .collect(),
            kept_scan_hits: 0,
            pol: game.policies.clone(),
            third: vec![Cards::default(); s.empires.len()],
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
        let n = s.map.territories.len();
        let own = s.map.cities[s.empires[p].capital].sector as usize;
        (((s.map.sector(node) as usize + n - own) % n) as u8, node)
    }

    pub(super) fn s(&self) -> &'g Scenario {
        &self.game.scenario
    }

    pub(super) fn n(&self) -> usize {
        self.game.scenario.empires.len()
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
