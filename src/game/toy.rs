//! A toy game for the engine's tests: three players (or `players`, up to 13) race their dice to a
//! target.
//!
//! Every turn each player rolls one die (Gamma a `big_die`, d8 by default, the others a d6) plus
//! the bonus of their policy, and adds it to their points. At the end of a turn in
//! which someone has reached `target` (20), the game ends ("reached target"); otherwise it ends
//! at `turn_cap` (8, "turn cap"). Either way the highest points win, ties shared (or nobody wins
//! a tie when the rule option `ties_shared` is false). Small enough to solve exactly.

use super::policy::{Param, PolicyCatalog, PolicyKind, SearchSupport};
use super::search::{SearchSpec, Searchable, Searcher};
use super::{GameBuilder, GameLog, GameModel, GamePlay, GameRecord, GameSetup, TurnObserver};
use crate::dice::{mix64, Dice};
use crate::error::Result;
use crate::game_log;
use crate::options::{OptionKind, OptionValue, RuleOption};
use crate::rulesets::{find_ruleset, Ruleset};
use toml::Table;

pub const SLUG: &str = "toy-dice";

static OPTIONS: &[RuleOption] = &[RuleOption {
    name: "ties_shared",
    reference: "toy",
    summary: "joint leaders share the win (false: a tie is won by nobody)",
    kind: OptionKind::Bool,
    default: OptionValue::Bool(true),
    battles: &[],
}];

pub static RULESET: Ruleset = Ruleset {
    slug: SLUG,
    title: "Toy dice race",
    digest: "none",
    battles: &[],
    sides: &[],
    options: OPTIONS,
    game: Some(build as GameBuilder),
    policies: crate::rulesets::policies!(CATALOG),
};

/// The rulesets the tests see: the real ones plus the toy.
pub fn lookup(source: &str, field: &str, slug: &str) -> Result<&'static Ruleset> {
    if slug == SLUG {
        Ok(&RULESET)
    } else {
        find_ruleset(source, field, slug)
    }
}

/// How a player rolls each turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Play {
    /// One die plus a bonus (`steady`, `lucky`).
    Roll { bonus: u32 },
    /// `dice` dice: their sum, or nothing when any shows a 1 (`pusher`).
    Push { dice: u32 },
    /// A uniformly random number of dice from 1 to [`MAX_DICE`], pushed (`random`).
    Random,
    /// The number of dice chosen each turn by rollouts (`search`).
    Search {
        spec: SearchSpec,
        rollout: Box<Play>,
    },
}

/// The most dice a pusher may roll.
pub const MAX_DICE: u32 = 6;

static KINDS: &[PolicyKind<Play>] = &[
    PolicyKind {
        name: "steady",
        summary: "rolls the die",
        params: &[],
        build: |_| Play::Roll { bonus: 0 },
    },
    PolicyKind {
        name: "lucky",
        summary: "adds a bonus to every roll",
        params: &[Param {
            name: "bonus",
            summary: "points added to each roll",
            min: 0.0,
            max: 3.0,
            default: 1.0,
        }],
        build: |v| Play::Roll {
            bonus: v.get(0) as u32,
        },
    },
    PolicyKind {
        name: "pusher",
        summary: "rolls several dice and scores their sum, or nothing when any shows a 1",
        params: &[Param {
            name: "dice",
            summary: "dice rolled each turn (whole numbers; fractions are cut)",
            min: 1.0,
            max: MAX_DICE as f64,
            default: 3.0,
        }],
        build: |v| Play::Push {
            dice: v.get(0) as u32,
        },
    },
    PolicyKind {
        name: "random",
        summary: "pushes a uniformly random number of dice, 1 to 6, each turn",
        params: &[],
        build: |_| Play::Random,
    },
];
const CATALOG: PolicyCatalog<Play> = PolicyCatalog {
    kinds: KINDS,
    search: Some(SearchSupport {
        build: |spec, rollout| Play::Search {
            spec,
            rollout: Box::new(rollout),
        },
        defaults: SearchSpec {
            budget: 64,
            horizon: 0,
            margin: None,
            confirm: 0,
        },
    }),
};

const NAMES: [&str; 13] = [
    "Alpha",
    "Beta Team",
    "Gamma",
    "Delta",
    "Epsilon",
    "Zeta",
    "Eta",
    "Theta",
    "Iota",
    "Kappa",
    "Lambda",
    "Mu",
    "Nu",
];

pub struct Toy {
    /// The experiment file the toy was built from (tests check it is the file itself).
    pub source: String,
    pub players: Vec<String>,
    pub policies: Vec<String>,
    pub sides: Vec<u32>,
    pub plays: Vec<Play>,
    pub target: u32,
    pub cap: u32,
    pub ties_shared: bool,
}

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    let f = &setup.fields;
    f.only(&["target", "turn_cap", "big_die", "players", "policies"])?;
    let empty = Table::new();
    let n = f.int_in("players", 3, 13)?.unwrap_or(3) as usize;
    let players: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let keys = super::summary::player_keys(&players);
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "steady")?;
    let big = f.int_in("big_die", 2, 20)?.unwrap_or(8) as u32;
    Ok(Box::new(Toy {
        source: setup.source.to_string(),
        players,
        policies: chosen.iter().map(|c| c.label.clone()).collect(),
        sides: (0..n).map(|p| if p == 2 { big } else { 6 }).collect(),
        plays: chosen.into_iter().map(|c| c.policy).collect(),
        target: f.int_in("target", 2, 1000)?.unwrap_or(20) as u32,
        cap: f.int_in("turn_cap", 1, 100)?.unwrap_or(8) as u32,
        ties_shared: setup.options.flag("ties_shared"),
    }))
}

impl GameModel for Toy {
    fn players(&self) -> &[String] {
        &self.players
    }
    fn player_policies(&self) -> &[String] {
        &self.policies
    }
    fn endings(&self) -> &[&'static str] {
        &["reached target", "turn cap"]
    }
    fn turn_metrics(&self) -> &[&'static str] {
        &["points", "roll"]
    }
    fn global_metrics(&self) -> &[&'static str] {
        &["lead"]
    }
    fn game_columns(&self) -> &[&'static str] {
        &["total_points"]
    }
    fn max_turns(&self) -> u32 {
        self.cap
    }
    fn turn_label(&self, turn: u32) -> String {
        format!("round {turn}")
    }
    fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "race to {} points in at most {} turns",
                self.target, self.cap
            ),
            format!("built from {}", self.source),
            format!(
                "dice: {}",
                self.sides
                    .iter()
                    .map(|s| format!("d{s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ]
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        let n = self.players.len();
        Box::new(ToyWorker {
            toy: self,
            state: ToyState {
                points: vec![0; n],
                turn: 0,
                player: 0,
            },
            measured: vec![0.0; 2 * n],
            sorted: vec![0; n],
            shares: vec![0.0; n],
            searcher: Searcher::default(),
        })
    }
}

/// Where a game stands when a player is about to roll: what a rollout copies.
#[derive(Clone, Debug, PartialEq)]
pub struct ToyState {
    pub points: Vec<u32>,
    /// The turn being played, from 1.
    pub turn: u32,
    /// The player about to roll.
    pub player: usize,
}

impl Toy {
    /// Rolls `dice` of player `p`'s dice: their sum, or 0 when any shows a 1. Every die is
    /// rolled either way, so the stream moves on the same whatever the faces.
    fn push(&self, p: usize, dice: u32, rng: &mut Dice) -> u32 {
        let mut sum = 0;
        let mut bust = false;
        for _ in 0..dice {
            let face = rng.d(self.sides[p]);
            bust |= face == 1;
            sum += face;
        }
        if bust {
            0
        } else {
            sum
        }
    }

    /// What player `p` scores this turn playing `play`; a search player inside a rollout plays
    /// its rollout policy.
    fn gain(&self, p: usize, play: &Play, rng: &mut Dice) -> u32 {
        match play {
            Play::Roll { bonus } => rng.d(self.sides[p]) + bonus,
            Play::Push { dice } => self.push(p, *dice, rng),
            Play::Random => {
                let dice = rng.d(MAX_DICE);
                self.push(p, dice, rng)
            }
            Play::Search { rollout, .. } => self.gain(p, rollout, rng),
        }
    }

    /// Whether the game ends after `turn` with these points.
    fn over(&self, points: &[u32], turn: u32) -> bool {
        turn >= self.cap || points.iter().any(|&x| x >= self.target)
    }

    /// Each player's share of the win with these points: the leaders share it (or nobody wins a
    /// tie when ties are not shared).
    fn shares(&self, points: &[u32], out: &mut [f64]) {
        let best = *points.iter().max().expect("at least one player");
        let leaders = points.iter().filter(|&&x| x == best).count();
        for (share, &x) in out.iter_mut().zip(points) {
            *share = if x == best && (leaders == 1 || self.ties_shared) {
                1.0 / leaders as f64
            } else {
                0.0
            };
        }
    }
}

/// The toy's decision: how many dice a searching player pushes this turn.
impl Searchable for Toy {
    type State = ToyState;
    type Action = u32;

    fn candidates(&self, _: &ToyState, _: usize, out: &mut Vec<u32>) {
        out.extend(1..=MAX_DICE);
    }

    fn rollout(
        &self,
        state: &mut ToyState,
        player: usize,
        dice: u32,
        horizon: u32,
        rng: &mut Dice,
    ) -> f64 {
        // Each roll draws from its own stream, fixed by (rollout, turn, player): whatever the
        // candidate, the other rolls of rollout j see the same faces (common random numbers that
        // stay aligned even though candidates roll different numbers of dice).
        let base = rng.next_u64();
        let roll =
            |turn: u32, p: usize| Dice::from_seed(mix64(base ^ ((turn as u64) << 8 | p as u64)));
        let n = state.points.len();
        let first_turn = state.turn;
        let mut p = state.player;
        state.points[p] += self.push(p, dice, &mut roll(state.turn, p));
        loop {
            p += 1;
            if p == n {
                if self.over(&state.points, state.turn) {
                    break;
                }
                if horizon > 0 && state.turn + 1 - first_turn >= horizon {
                    break;
                }
                state.turn += 1;
                p = 0;
            }
            state.points[p] += self.gain(p, &self.plays[p], &mut roll(state.turn, p));
        }
        let best = *state.points.iter().max().expect("players");
        let leaders = state.points.iter().filter(|&&x| x == best).count();
        if state.points[player] == best && (leaders == 1 || self.ties_shared) {
            1.0 / leaders as f64
        } else {
            0.0
        }
    }
}

struct ToyWorker<'a> {
    toy: &'a Toy,
    state: ToyState,
    measured: Vec<f64>,
    sorted: Vec<u32>,
    shares: Vec<f64>,
    searcher: Searcher<Toy>,
}

impl GamePlay for ToyWorker<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        let toy = self.toy;
        let n = self.state.points.len();
        self.state.points.fill(0);
        let mut turn = 0;
        loop {
            turn += 1;
            for p in 0..n {
                let roll = match &toy.plays[p] {
                    Play::Search { spec, .. } => {
                        self.state.turn = turn;
                        self.state.player = p;
                        let k = self
                            .searcher
                            .choose(toy, &self.state, p, *spec, dice)
                            .expect("the toy always has candidates");
                        game_log!(
                            log,
                            "{}: {} pushes {k} dice",
                            toy.turn_label(turn),
                            toy.players[p]
                        );
                        toy.push(p, k, dice)
                    }
                    play => toy.gain(p, play, dice),
                };
                let points = &mut self.state.points;
                points[p] += roll;
                self.measured[2 * p] = points[p] as f64;
                self.measured[2 * p + 1] = roll as f64;
                game_log!(
                    log,
                    "{}: {} rolls {roll}, {} points",
                    toy.turn_label(turn),
                    toy.players[p],
                    points[p]
                );
            }
            self.sorted.copy_from_slice(&self.state.points);
            self.sorted.sort_unstable();
            let lead = self.sorted[n - 1] - self.sorted[n - 2];
            observer.turn(turn, &self.measured, &[lead as f64]);
            if toy.over(&self.state.points, turn) {
                record.turns = turn;
                let reached = self.state.points.iter().any(|&x| x >= toy.target);
                record.ending = if reached { 0 } else { 1 };
                break;
            }
        }
        toy.shares(&self.state.points, &mut self.shares);
        for p in 0..n {
            record.score[p] = self.state.points[p] as f64;
            record.win_share[p] = self.shares[p];
        }
        record.extra[0] = self.state.points.iter().sum::<u32>() as f64;
        game_log!(log, "game over after {turn} turns");
    }
}

/// What one turn's roll of a fixed policy scores: (points, probability), every outcome once.
pub fn gain_pmf(sides: u32, play: &Play) -> Vec<(usize, f64)> {
    let push = |dice: u32| -> Vec<f64> {
        // pmf[x] = P(no 1 among the dice and their sum is x).
        let mut pmf = vec![1.0];
        for _ in 0..dice {
            let mut next = vec![0.0; pmf.len() + sides as usize];
            for (x, &q) in pmf.iter().enumerate() {
                for face in 2..=sides as usize {
                    next[x + face] += q / sides as f64;
                }
            }
            pmf = next;
        }
        pmf[0] = 1.0 - ((sides - 1) as f64 / sides as f64).powi(dice as i32);
        pmf
    };
    let dense = match play {
        Play::Roll { bonus } => {
            let mut pmf = vec![0.0; (sides + bonus + 1) as usize];
            for face in 1..=sides {
                pmf[(face + bonus) as usize] = 1.0 / sides as f64;
            }
            pmf
        }
        Play::Push { dice } => push(*dice),
        Play::Random => {
            let mut mix = vec![0.0; (MAX_DICE * sides + 1) as usize];
            for dice in 1..=MAX_DICE {
                for (x, q) in push(dice).into_iter().enumerate() {
                    mix[x] += q / MAX_DICE as f64;
                }
            }
            mix
        }
        Play::Search { .. } => {
            panic!("a search player's rolls depend on the state: no exact answer")
        }
    };
    dense
        .into_iter()
        .enumerate()
        .filter(|&(_, q)| q > 0.0)
        .collect()
}

/// The toy's exact answer: win shares, P(length = t), P(ending).
pub struct Exact {
    pub win: [f64; 3],
    pub length: Vec<f64>,
    pub endings: [f64; 2],
}

/// Solves the three-player toy by dynamic programming over the players' points (fixed policies
/// only: a search player has no exact answer).
pub fn exact(toy: &Toy) -> Exact {
    assert_eq!(
        toy.players.len(),
        3,
        "the exact answer is for three players"
    );
    let n = toy.target as usize;
    let index = |s: [usize; 3]| (s[0] * n + s[1]) * n + s[2];
    let mut states = vec![0.0; n * n * n];
    states[0] = 1.0;
    let mut out = Exact {
        win: [0.0; 3],
        length: vec![0.0; toy.cap as usize],
        endings: [0.0; 2],
    };
    let pmfs: Vec<Vec<(usize, f64)>> = (0..3)
        .map(|p| gain_pmf(toy.sides[p], &toy.plays[p]))
        .collect();
    for turn in 1..=toy.cap {
        let mut next = vec![0.0; n * n * n];
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    let p = states[index([a, b, c])];
                    if p == 0.0 {
                        continue;
                    }
                    for &(ra, qa) in &pmfs[0] {
                        for &(rb, qb) in &pmfs[1] {
                            for &(rc, qc) in &pmfs[2] {
                                let s = [a + ra, b + rb, c + rc];
                                let q = p * (qa * qb * qc);
                                let reached = s.iter().any(|&x| x >= n);
                                if !reached && turn < toy.cap {
                                    next[index(s)] += q;
                                    continue;
                                }
                                out.length[turn as usize - 1] += q;
                                out.endings[if reached { 0 } else { 1 }] += q;
                                let best = *s.iter().max().unwrap();
                                let leaders = s.iter().filter(|&&x| x == best).count();
                                if leaders == 1 || toy.ties_shared {
                                    for (win, &points) in out.win.iter_mut().zip(&s) {
                                        if points == best {
                                            *win += q / leaders as f64;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        states = next;
    }
    out
}
