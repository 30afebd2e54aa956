//! The players of digest §6.3, their parameters declared once in the catalog so `alea list`,
//! `alea tune` and `alea ladder` read them from here: P0 `random` (uniform over the legal
//! choices it is offered), P1 `greedy` (every candidate expedition through the exact
//! expedition-chain calculator), P2 `turtle` (the same, against neutrals and barbarians only,
//! intercepting only where it pays, its capital stacked at set-up), P3 `aggressor` (the same,
//! with its expeditions against empires, the VP leader first, weighted up and its cards spent
//! freely), and `mixture` (each game, each such seat plays P1, P2 or P3 at random, §6.3's third
//! policy mixture).
//!
//! What a policy may see (§6.3): public information (VP, cities, discard piles, card counts, a
//! declared expedition's route and card counts) and its own hand. Where it must guess another
//! player's hidden cards it takes the cards of that player's deck not in its discard pile, in
//! their proportions (`Play::estimate` in decide.rs). The game's `omniscient = true` lets it read
//! the hidden cards instead.

use crate::game::policy::{Param, ParamValues, PolicyCatalog, PolicyKind, SearchSupport};
use crate::game::search::SearchSpec;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    Random,
    /// P1, P2 and P3: the expedition calculator's player, in one of three styles.
    Scripted(Scripted),
    /// Each game: P1, P2 or P3 (their defaults) with equal chance.
    Mixture,
    /// The engine's search player: its expeditions chosen by rollouts, everything else (and
    /// its play inside rollouts) by its rollout policy, scripted or random (`None`).
    Search(SearchSpec, Option<Scripted>),
}

/// What separates P1, P2 and P3 (digest §6.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    Greedy,
    /// P2: expeditions only against neutral cities and barbarian areas (and its own lost
    /// capital, A-21); intercepts only when that lowers the attacker's exact chance by `delta`;
    /// `stack` extra fortification markers on its capital at set-up.
    Turtle {
        delta: f64,
        stack: u32,
    },
    /// P3: `leader` VP (times the chance) added to an expedition against the VP leader's city,
    /// `rival` VP against any other empire's city.
    Aggressor {
        leader: f64,
        rival: f64,
    },
}

/// P1's thresholds (digest §6.3), shared by P2 and P3.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scripted {
    /// θ: declare an expedition only when its exact P(success) reaches this.
    pub theta: f64,
    /// τ: ... and its expected VP, less the cards it spends, reaches this.
    pub tau: f64,
    /// Cards kept in hand for defence (never put in an expedition).
    pub reserve: u32,
    /// Most Troop and Fleet cards per expedition.
    pub max_cards: u32,
    /// The VP one spent card is worth when expeditions are compared.
    pub card_cost: f64,
    /// Optional rule 8.3: grant free passage to a player with at most this many VP more.
    pub passage: f64,
    /// Third-party cards in an assault it neither makes nor suffers (§4.9, kingmaking): plays
    /// against a side with at least this many VP more than itself ([`NEVER_HINDER`]: never).
    pub hinder: f64,
    pub style: Style,
}

impl Scripted {
    /// What a card of `p`'s hand is worth in VP for the event choices (digest §6.3 tie-breaks):
    /// `card_cost`, more when the hand holds fewer cards than one full expedition and the
    /// reserve.
    pub fn card_worth(&self, hand: usize) -> f64 {
        let wanted = (self.reserve + self.max_cards) as f64;
        self.card_cost * (wanted / hand.max(1) as f64).max(1.0)
    }
}

const fn param(
    name: &'static str,
    summary: &'static str,
    min: f64,
    max: f64,
    default: f64,
) -> Param {
    Param {
        name,
        summary,
        min,
        max,
        default,
    }
}

const THETA: &str =
    "declare an expedition only when the exact chain calculator's P(success) is at least this";
const TAU: &str = "... and its expected VP (battles, the city's size or the pacification) less card_cost per card spent is at least this";
const RESERVE: &str = "cards always kept in hand (for interceptions and City Defence)";
const MAX_CARDS: &str = "most Troop and Fleet cards in one expedition";
const CARD_COST: &str = "VP a committed card is worth when comparing expeditions (and, scaled up when the hand is short, in Scarcity and Hard campaign)";

/// The five thresholds every scripted style has, with a style's defaults.
const fn thresholds(theta: f64, reserve: f64, max_cards: f64, card_cost: f64) -> [Param; 5] {
    [
        param("theta", THETA, 0.0, 1.0, theta),
        param("tau", TAU, -10.0, 10.0, 0.0),
        param("reserve", RESERVE, 0.0, 10.0, reserve),
        param("max_cards", MAX_CARDS, 1.0, 8.0, max_cards),
        param("card_cost", CARD_COST, 0.0, 3.0, card_cost),
    ]
}

const PASSAGE: Param = param(
    "passage",
    "optional rule 8.3 (free passage): grant passage to an expedition (or an interception) of a player with at most this many VP more than this one (-30: never, 30: always)",
    -30.0,
    30.0,
    0.0,
);

/// A `hinder` at or above this: the player never plays cards in others' combats.
pub const NEVER_HINDER: f64 = 30.0;

const HINDER: Param = param(
    "hinder",
    "third-party cards (§4.9, kingmaking): in an assault between others, plays its City Defence cards against an attacker, or its City Attack cards against a defending empire, with at least this many VP more than this one (the one further ahead if both), keeping reserve cards in hand (30: never)",
    -30.0,
    NEVER_HINDER,
    NEVER_HINDER,
);

const G: [Param; 5] = thresholds(0.6, 2.0, 4.0, 0.5);
// 8.3's parameter and then the third-party one last, so the positions of the earlier ones
// stay as they were (parameters are read by position).
pub const GREEDY: &[Param] = &[G[0], G[1], G[2], G[3], G[4], PASSAGE, HINDER];

const T: [Param; 5] = thresholds(0.6, 3.0, 4.0, 0.5);
pub const TURTLE: &[Param] = &[
    T[0],
    T[1],
    T[2],
    T[3],
    T[4],
    param(
        "delta",
        "intercept an attack on its city only when that lowers the attacker's exact P(success) by at least this",
        0.0,
        1.0,
        0.1,
    ),
    // Default 0: on the mirror ring (3 markers, 2 placed) a stack of 1 gives up the hill, the
    // only way to the sector's barbarian area, and all-P2 games then see no expedition at all
    // (a neutral city alone is worth less than the cards it costs).
    param(
        "stack",
        "of its set-up markers, this many go on its capital before any other city (0: placed as P1 places them)",
        0.0,
        10.0,
        0.0,
    ),
    PASSAGE,
    HINDER,
];

const A: [Param; 5] = thresholds(0.5, 1.0, 6.0, 0.25);
pub const AGGRESSOR: &[Param] = &[
    A[0],
    A[1],
    A[2],
    A[3],
    A[4],
    param(
        "leader",
        "VP (times the chance of success) an expedition against a city of the VP leader among the others is worth on top",
        0.0,
        20.0,
        3.0,
    ),
    param(
        "rival",
        "VP (times the chance) an expedition against any other empire's city is worth on top",
        0.0,
        20.0,
        1.0,
    ),
    PASSAGE,
    HINDER,
];

/// The scripted parameters: the five thresholds first, then a style's own, then 8.3's
/// `passage` and the third-party `hinder` last.
fn scripted(v: &ParamValues, style: Style) -> Scripted {
    Scripted {
        theta: v.get(0),
        tau: v.get(1),
        reserve: v.get(2).round() as u32,
        max_cards: v.get(3).round() as u32,
        card_cost: v.get(4),
        passage: v.get(v.0.len() - 2),
        hinder: v.get(v.0.len() - 1),
        style,
    }
}

fn greedy(v: &ParamValues) -> Policy {
    Policy::Scripted(scripted(v, Style::Greedy))
}

fn turtle(v: &ParamValues) -> Policy {
    let style = Style::Turtle {
        delta: v.get(5),
        stack: v.get(6).round() as u32,
    };
    Policy::Scripted(scripted(v, style))
}

fn aggressor(v: &ParamValues) -> Policy {
    let style = Style::Aggressor {
        leader: v.get(5),
        rival: v.get(6),
    };
    Policy::Scripted(scripted(v, style))
}

/// A kind's policy with every parameter at its default.
pub fn defaults(kind: &str) -> Policy {
    let k = CATALOG
        .kinds
        .iter()
        .find(|k| k.name == kind)
        .expect("a kind of the catalog");
    (k.build)(&ParamValues(k.params.iter().map(|p| p.default).collect()))
}

/// The policies a `mixture` seat draws from, in the order of its draw.
pub const MIXED: [&str; 3] = ["greedy", "turtle", "aggressor"];

pub static CATALOG: PolicyCatalog<Policy> = PolicyCatalog {
    kinds: &[
        PolicyKind {
            name: "greedy",
            summary: "P1: each action phase, every expedition (target, the best 1..max_cards cards, land or sea) through the exact chain calculator; the best one whose P(success) >= theta and value >= tau, else pass; intercepts with its best troops; draws at Prosperity while its pile lasts",
            params: GREEDY,
            build: greedy,
        },
        PolicyKind {
            name: "random",
            summary: "P0: uniform over the legal choices it is offered (pass, change a card, an expedition to a random target with random cards; random event choices)",
            params: &[],
            build: |_| Policy::Random,
        },
        PolicyKind {
            name: "turtle",
            summary: "P2: greedy's expeditions against neutral cities and barbarian areas only (never another empire's city but its own lost capital); intercepts only when that lowers the attacker's chance by delta; stacks its capital at set-up",
            params: TURTLE,
            build: turtle,
        },
        PolicyKind {
            name: "aggressor",
            summary: "P3: greedy's expeditions with a bonus against empires' cities, the VP leader's most; spends more cards (lower card_cost, more max_cards, smaller reserve and theta)",
            params: AGGRESSOR,
            build: aggressor,
        },
        PolicyKind {
            name: "mixture",
            summary: "each game, greedy, turtle or aggressor (their defaults) with equal chance (digest §6.3's random assignment of P1, P2, P3 per seat)",
            params: &[],
            build: |_| Policy::Mixture,
        },
    ],
    // Each action phase the searcher tries pass, its rollout policy's expedition and the best
    // expedition against each of a few other targets (super::search), every rollout to the end
    // of the game (3 turns: short enough). A `mixture` rollout plays greedy.
    search: Some(SearchSupport {
        build: |spec, rollout| {
            Policy::Search(
                spec,
                match rollout {
                    Policy::Scripted(g) => Some(g),
                    Policy::Random => None,
                    _ => match defaults("greedy") {
                        Policy::Scripted(g) => Some(g),
                        _ => None,
                    },
                },
            )
        },
        defaults: SearchSpec {
            budget: 32,
            horizon: 0,
            margin: None,
            confirm: 0,
        },
    }),
};
