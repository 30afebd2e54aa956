//! The scripted players of the Invasions game (digest §6.4), their parameters declared once in the
//! catalog so `alea list`, `alea tune` and `alea ladder` read them from here.
//!
//! A player's policy drives every nation the player controls: the Barbarian parameters while a
//! nation is Barbarian, the Civilized ones once it is a Kingdom or an Empire. `random` takes legal
//! choices at random (the ladder's bottom rung).

use crate::game::policy::{Param, PolicyCatalog, PolicyKind};

/// What a player does with its nations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    Scripted(Scripted),
    Random,
}

/// The scripted player's thresholds and shares (digest §6.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scripted {
    /// Barbarian: attack a province when the battle code's P(attacker wins) reaches this.
    pub attack: f64,
    /// Barbarian and Civilized: besiege a city when P(it falls) reaches this.
    pub siege: f64,
    /// Barbarian: raid instead of staying idle when no attack passes the threshold.
    pub raid: bool,
    /// Barbarian: announce a voluntary Kingdom at this age (3-7) once holding a province in a
    /// Civilized Area; the forced test from age 5 applies regardless.
    pub kingdom_age: u8,
    /// Kingdom/Empire: attack when P(win) reaches this.
    pub civilized_attack: f64,
    /// Kingdom/Empire: units kept in every held Area before any leaves to attack.
    pub garrison: u8,
    /// Kingdom/Empire: share of purchases that are heavy units.
    pub heavy_share: f64,
    /// Kingdom/Empire: share of purchases that are cavalry.
    pub cavalry_share: f64,
    /// Kingdom/Empire: gold kept back from purchases.
    pub reserve: u8,
    /// Kingdom/Empire: attempt a revolt suppression when its P(success) reaches this.
    pub suppress: f64,
    /// Every status: flee an attack (XIX.B) when the battle code's P(the defence wins) is below
    /// this.
    pub flee: f64,
    /// Every status: intercept into an attacked province (XIX.A) when the battle code's P(the
    /// defence wins) is below this.
    pub intercept: f64,
}

pub const SCRIPTED: &[Param] = &[
    Param {
        name: "attack",
        summary: "Barbarian: attack a province when the battle code's P(attacker wins) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.5,
    },
    Param {
        name: "siege",
        summary: "besiege a city when P(it falls) is at least this (else leave it)",
        min: 0.0,
        max: 1.0,
        default: 0.2,
    },
    Param {
        name: "raid",
        summary: "Barbarian: raid when no attack passes the threshold (>= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "kingdom_age",
        summary: "Barbarian: age at which it announces a voluntary Kingdom once it holds a province in a Civilized Area (the forced test from 5 applies anyway)",
        min: 3.0,
        max: 7.0,
        default: 4.0,
    },
    Param {
        name: "civilized_attack",
        summary: "Kingdom/Empire: attack a province when P(attacker wins) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.6,
    },
    Param {
        name: "garrison",
        summary: "Kingdom/Empire: units kept in every held Area before any leaves to attack",
        min: 0.0,
        max: 8.0,
        default: 2.0,
    },
    Param {
        name: "heavy_share",
        summary: "Kingdom/Empire: share of purchased units that are heavy",
        min: 0.0,
        max: 1.0,
        default: 0.3,
    },
    Param {
        name: "cavalry_share",
        summary: "Kingdom/Empire: share of purchased units that are cavalry",
        min: 0.0,
        max: 1.0,
        default: 0.25,
    },
    Param {
        name: "reserve",
        summary: "Kingdom/Empire: gold kept back from purchases",
        min: 0.0,
        max: 40.0,
        default: 5.0,
    },
    Param {
        name: "suppress",
        summary: "Kingdom/Empire: put down a revolt (a failure costs a unit) when P(success) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.3,
    },
    Param {
        name: "flee",
        summary: "any nation: try to flee an attack (XIX.B) when the battle code's P(the defence wins) is below this",
        min: 0.0,
        max: 1.0,
        default: 0.2,
    },
    Param {
        name: "intercept",
        summary: "any nation: bring a stack from an adjacent Area into an attacked province (XIX.A) when the battle code's P(the defence wins) is below this",
        min: 0.0,
        max: 1.0,
        default: 0.6,
    },
];

fn scripted(v: &crate::game::policy::ParamValues) -> Policy {
    Policy::Scripted(Scripted {
        attack: v.get(0),
        siege: v.get(1),
        raid: v.get(2) >= 0.5,
        kingdom_age: v.get(3).round() as u8,
        civilized_attack: v.get(4),
        garrison: v.get(5).round() as u8,
        heavy_share: v.get(6),
        cavalry_share: v.get(7),
        reserve: v.get(8).round() as u8,
        suppress: v.get(9),
        flee: v.get(10),
        intercept: v.get(11),
    })
}

pub const KINDS: &[PolicyKind<Policy>] = &[
    PolicyKind {
        name: "scripted",
        summary: "digest §6.4's scripted player: attack and siege thresholds on the battle code's odds, raids, voluntary Kingdom age, garrisons, purchase mix, revolt suppression, interception, flight",
        params: SCRIPTED,
        build: scripted,
    },
    PolicyKind {
        name: "random",
        summary: "legal choices at random: targets, sieges, raids, Kingdom announcements, purchases, revolt suppression, interception, flight",
        params: &[],
        build: |_| Policy::Random,
    },
];

pub const CATALOG: PolicyCatalog<Policy> = PolicyCatalog {
    kinds: KINDS,
    search: None,
};

impl Scripted {
    pub fn defaults() -> Scripted {
        let v = crate::game::policy::ParamValues(SCRIPTED.iter().map(|p| p.default).collect());
        match scripted(&v) {
            Policy::Scripted(s) => s,
            Policy::Random => unreachable!("scripted builds a scripted policy"),
        }
    }
}
