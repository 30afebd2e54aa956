//! A toy game for the engine's tests: three players (or `players`, up to 13) race their dice to a
//! target.
//!
//! Every turn each player rolls one die (Gamma a `big_die`, d8 by default, the others a d6) plus
//! the bonus of their policy, and adds it to their points. At the end of a turn in
//! which someone has reached `target` (20), the game ends ("reached target"); otherwise it ends
//! at `turn_cap` (8, "turn cap"). Either way the highest points win, ties shared (or nobody wins
//! a tie when the rule option `ties_shared` is false). Small enough to solve exactly.

use super::policy::{Param, PolicyCatalog, PolicyKind};
use super::{GameBuilder, GameLog, GameModel, GamePlay, GameRecord, GameSetup, TurnObserver};
use crate::dice::Dice;
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
    options: OPTIONS,
    game: Some(build as GameBuilder),
};

/// The rulesets the tests see: the real ones plus the toy.
pub fn lookup(source: &str, field: &str, slug: &str) -> Result<&'static Ruleset> {
    if slug == SLUG {
        Ok(&RULESET)
    } else {
        find_ruleset(source, field, slug)
    }
}

/// A policy: a bonus added to every roll.
pub struct Bonus(pub u32);

static KINDS: &[PolicyKind<Bonus>] = &[
    PolicyKind {
        name: "steady",
        summary: "rolls the die",
        params: &[],
        build: |_| Bonus(0),
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
        build: |v| Bonus(v.get(0) as u32),
    },
];
const CATALOG: PolicyCatalog<Bonus> = PolicyCatalog { kinds: KINDS };

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
    pub bonus: Vec<u32>,
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
        bonus: chosen.iter().map(|c| c.policy.0).collect(),
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
            points: vec![0; n],
            measured: vec![0.0; 2 * n],
            sorted: vec![0; n],
        })
    }
}

struct ToyWorker<'a> {
    toy: &'a Toy,
    points: Vec<u32>,
    measured: Vec<f64>,
    sorted: Vec<u32>,
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
        let n = self.points.len();
        self.points.fill(0);
        let mut turn = 0;
        loop {
            turn += 1;
            for p in 0..n {
                let roll = dice.d(toy.sides[p]) + toy.bonus[p];
                self.points[p] += roll;
                self.measured[2 * p] = self.points[p] as f64;
                self.measured[2 * p + 1] = roll as f64;
                game_log!(
                    log,
                    "{}: {} rolls {roll}, {} points",
                    toy.turn_label(turn),
                    toy.players[p],
                    self.points[p]
                );
            }
            self.sorted.copy_from_slice(&self.points);
            self.sorted.sort_unstable();
            let lead = self.sorted[n - 1] - self.sorted[n - 2];
            observer.turn(turn, &self.measured, &[lead as f64]);
            let reached = self.points.iter().any(|&s| s >= toy.target);
            if reached || turn == toy.cap {
                record.turns = turn;
                record.ending = if reached { 0 } else { 1 };
                break;
            }
        }
        let best = *self.points.iter().max().unwrap();
        let leaders = self.points.iter().filter(|&&s| s == best).count();
        for p in 0..n {
            record.score[p] = self.points[p] as f64;
            if self.points[p] == best && (leaders == 1 || toy.ties_shared) {
                record.win_share[p] = 1.0 / leaders as f64;
            }
        }
        record.extra[0] = self.points.iter().sum::<u32>() as f64;
        game_log!(log, "game over after {turn} turns");
    }
}

/// The toy's exact answer: win shares, P(length = t), P(ending).
pub struct Exact {
    pub win: [f64; 3],
    pub length: Vec<f64>,
    pub endings: [f64; 2],
}

/// Solves the three-player toy by dynamic programming over the players' points.
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
    let faces = |p: usize| (1..=toy.sides[p]).map(move |f| (f + toy.bonus[p]) as usize);
    let weight = 1.0 / (toy.sides[0] * toy.sides[1] * toy.sides[2]) as f64;
    for turn in 1..=toy.cap {
        let mut next = vec![0.0; n * n * n];
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    let p = states[index([a, b, c])];
                    if p == 0.0 {
                        continue;
                    }
                    for ra in faces(0) {
                        for rb in faces(1) {
                            for rc in faces(2) {
                                let s = [a + ra, b + rb, c + rc];
                                let q = p * weight;
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
