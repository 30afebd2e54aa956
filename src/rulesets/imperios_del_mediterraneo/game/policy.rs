//! The players of digest §6.3, their parameters declared once in the catalog so `alea list`,
//! `alea tune` and `alea ladder` read them from here: P0 `random` (uniform over the legal
//! choices it is offered) and P1 `greedy` (every candidate expedition through the exact
//! expedition-chain calculator).

use crate::game::policy::{Param, ParamValues, PolicyCatalog, PolicyKind};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    Random,
    Greedy(Greedy),
}

/// P1's thresholds (digest §6.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Greedy {
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
}

pub const GREEDY: &[Param] = &[
    Param {
        name: "theta",
        summary: "declare an expedition only when the exact chain calculator's P(success) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.6,
    },
    Param {
        name: "tau",
        summary: "... and its expected VP (battles, the city's size or the pacification) less card_cost per card spent is at least this",
        min: -10.0,
        max: 10.0,
        default: 0.0,
    },
    Param {
        name: "reserve",
        summary: "cards always kept in hand (for interceptions and City Defence)",
        min: 0.0,
        max: 10.0,
        default: 2.0,
    },
    Param {
        name: "max_cards",
        summary: "most Troop and Fleet cards in one expedition",
        min: 1.0,
        max: 8.0,
        default: 4.0,
    },
    Param {
        name: "card_cost",
        summary: "VP a committed card is worth when comparing expeditions",
        min: 0.0,
        max: 3.0,
        default: 0.5,
    },
];

fn greedy(v: &ParamValues) -> Policy {
    Policy::Greedy(Greedy {
        theta: v.get(0),
        tau: v.get(1),
        reserve: v.get(2).round() as u32,
        max_cards: v.get(3).round() as u32,
        card_cost: v.get(4),
    })
}

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
    ],
    search: None,
};
