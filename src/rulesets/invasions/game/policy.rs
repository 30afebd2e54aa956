//! The scripted players of the Invasions game (digest §6.4), their parameters declared once in the
//! catalog so `alea list`, `alea tune` and `alea ladder` read them from here.
//!
//! A player's policy drives every nation the player controls: the Barbarian parameters while a
//! nation is Barbarian, the Civilized ones once it is a Kingdom or an Empire. `random` takes legal
//! choices at random (the ladder's bottom rung). `search` is the engine's search player over
//! another policy of the catalog ([`super::search`]): it plays for a player, and each turn it may
//! overrule its rollout policy by a [`Directive`].

use crate::game::policy::{Param, PolicyCatalog, PolicyKind, SearchSupport};
use crate::game::search::SearchSpec;

/// What the catalog gives a player: the policy its nations play, and for the search player its
/// search parameters (the policy is then its rollout policy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub policy: Policy,
    pub search: Option<SearchSpec>,
}

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
    /// Kingdom/Empire: fortify its best unwalled city (15 gold, XXIII.C) in Purchases when the
    /// treasury holds at least this; above the treasury's ceiling (40) it never does.
    pub fortify: u8,
    /// Every status but Nomads: land by sea (XXV.E) when the sea-risk roll's P(success) is at least this
    /// (and the attack and siege pass their thresholds); above 1 never.
    pub landing: f64,
    /// Every status: assault a city (2 hits for +1, XXIV.C) when the besieging stack keeps at
    /// least this many units after the hits; 9 never.
    pub assault: u8,
    /// Empire: offer a Foedus (XXVIII) to the strongest Barbarian of another player standing in
    /// or next to one of its Areas when that Barbarian's units there are at least this many times
    /// the Empire's own units in that Area (5 = never).
    pub foedus_offer: f64,
    /// Barbarian: accept a Foedus offered to it.
    pub foedus_accept: bool,
    /// Federate: break its Foedus whenever the rules allow (XXVIII.H).
    pub foedus_break: bool,
    /// A Nomad's vassal: rebel (D2) every turn the rules allow (XXIX.G).
    pub rebel: bool,
    /// A Pagan or Arian Kingdom or Empire: convert to Catholicism (XXXI.B) when it would score.
    pub convert: bool,
    /// Kingdom/Empire: play *Tributus* (10 gold, a one-turn truce) on the enemy most threatening
    /// one of its Areas when its units in and next to it are at least this many times its own.
    pub tribute: f64,
    /// Kingdom/Empire: play *Unio* on a free minor kingdom next to its land (a D2 makes it a
    /// client), else offer an alliance to the enemy most threatening its land.
    pub ally: bool,
    /// Any nation: accept the alliance another player's nation offers (XXVI, alliances.rs).
    pub alliance_accept: bool,
    /// Kingdom/Empire: play *Matrimonium* (2 gold dowry) on the enemy most threatening one of its
    /// Areas when its units in and next to it are at least this many times its own.
    pub marry: f64,
    /// Kingdom/Empire: play *Mercenary* (3 gold for a Barbarian's unit this turn) when its
    /// treasury is at least this.
    pub hire: f64,
    /// Kingdom/Empire: play *Corruption* (1 gold to the besieger) to lift a siege of its city when
    /// P(the city falls) is at least this.
    pub corrupt: f64,
    /// Kingdom/Empire: play *Pactum* (5 gold for a one-turn pact and one of the target's
    /// provinces) on the enemy most threatening one of its Areas when its units in and next to
    /// it are at least this many times its own.
    pub pact: f64,
    /// Kingdom/Empire: ship spare units by sea to another Area where it holds a port (XXV.D,
    /// shipping.rs) when the enemy units in and next to it are at least this many times its own
    /// there (5 = never).
    pub ship: f64,
    /// Fleets: a naval stack fights (intercepts an enemy stack, accepts an intercepting stack's
    /// battle, its transport's or landing's included) when its fleets are at least this many
    /// times the enemy's, and refuses below it (encounters.rs, shipping.rs; 3 = never fights).
    pub naval_fight: f64,
    /// Fleets: blockade straits (XXV.F, blockade.rs): its naval stacks in a strait's zone block
    /// enemy land stacks, and one sails there when the enemy units in the Area across the strait
    /// are at least this many times its own on its side; 5 = never blockades.
    pub blockade: f64,
    /// Transports and landings: plan a crossing only when the land units it expects to lose at
    /// sea (the battle code's exact `Landing` against the enemy naval stack that would intercept
    /// it, weighted by the chance it does) are at most this share of those it carries, and a
    /// transport only when the units it expects to deliver are at least 1 - this share; 1 =
    /// crossings ignore enemy fleets (shipping.rs, naval.rs).
    pub sea_loss: f64,
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
    Param {
        name: "fortify",
        summary: "Kingdom/Empire: fortify its best unwalled city (15 gold) before buying units when the treasury holds at least this (41 = never)",
        min: 15.0,
        max: 41.0,
        default: 41.0,
    },
    Param {
        name: "landing",
        summary: "every status but Nomads: land by sea (XXV.E) when P(the sea-risk roll passes) is at least this and the attack and siege pass their thresholds (1.1 = never)",
        min: 0.0,
        max: 1.1,
        default: 0.5,
    },
    Param {
        name: "assault",
        summary: "any nation: assault a city (2 hits for +1 on the siege roll, XXIV.C) when the besieging stack keeps at least this many units after the hits (9 = never)",
        min: 1.0,
        max: 9.0,
        default: 3.0,
    },
    Param {
        name: "foedus_offer",
        summary: "Empire: offer a Foedus (2 provinces, 3 gold a turn) to the strongest Barbarian of another player in or next to one of its Areas when its units there are at least this many times the Empire's own there (5 = never)",
        min: 0.0,
        max: 5.0,
        default: 1.5,
    },
    Param {
        name: "foedus_accept",
        summary: "Barbarian: accept a Foedus when offered (>= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "foedus_break",
        summary: "federate: break the Foedus whenever the rules allow (free the turn after it began, then on a D2; >= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "rebel",
        summary: "a Nomad's vassal: try its D2 rebellion every turn the rules allow (>= 0.5 = yes; a failure costs 5 VP and a unit)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "convert",
        summary: "a Pagan or Arian Kingdom or Empire: convert to Catholicism at the start of its Administration when its card's bonus would score (>= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "tribute",
        summary: "Kingdom/Empire: play Tributus (10 gold for a one-turn truce) on the enemy most threatening one of its Areas when its units in and next to that Area are at least this many times its own there",
        min: 0.0,
        max: 5.0,
        default: 1.5,
    },
    Param {
        name: "ally",
        summary: "Kingdom/Empire: play Unio on a free minor kingdom next to its land, which becomes its client on a D2, else offer a one-turn alliance to the enemy most threatening its land (>= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "alliance_accept",
        summary: "any nation: accept a one-turn alliance (Unio) offered by another player's nation (>= 0.5 = yes)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "marry",
        summary: "Kingdom/Empire: play Matrimonium (2 gold dowry; the target lends a unit for the turn and scores 2 VP unless it attacks the nation) on the enemy most threatening one of its Areas when its units in and next to that Area are at least this many times its own there",
        min: 0.0,
        max: 5.0,
        default: 1.0,
    },
    Param {
        name: "hire",
        summary: "Kingdom/Empire: play Mercenary (3 gold to a Barbarian next to its land for one of its units this turn) when its treasury is at least this",
        min: 3.0,
        max: 40.0,
        default: 10.0,
    },
    Param {
        name: "corrupt",
        summary: "Kingdom/Empire: play Corruption (1 gold to the besieger) to lift a siege of its city when P(the city falls to the roll) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.3,
    },
    Param {
        name: "pact",
        summary: "Kingdom/Empire: play Pactum (5 gold to the target for a one-turn pact; the target gives up one of its provinces next to the nation's land, where the nation moves a unit) on the enemy most threatening one of its Areas when its units in and next to that Area are at least this many times its own there",
        min: 0.0,
        max: 5.0,
        default: 1.5,
    },
    Param {
        name: "ship",
        summary: "Kingdom/Empire: ship its spare units by sea (XXV.D) to another Area where it holds a port when the enemy units in and next to that Area are at least this many times its own there (5 = never)",
        min: 0.0,
        max: 5.0,
        default: 1.5,
    },
    Param {
        name: "naval_fight",
        summary: "Fleets: a naval stack meeting an enemy one intercepts it, and accepts the battle when intercepted, when its fleets are at least this many times the enemy's; below it, it refuses (an active stack's move ends, its transport or landing cancelled; an inactive one's nation gives 1 VP) (XXV.B-D; 3 = never fights)",
        min: 0.0,
        max: 3.0,
        default: 1.0,
    },
    Param {
        name: "blockade",
        summary: "Fleets: blockade straits (XXV.F): its naval stacks in a strait's sea zone close it to enemy land stacks, and one sails there when the enemy units in the Area across the strait are at least this many times its own on its side (5 = never blockades)",
        min: 0.0,
        max: 5.0,
        default: 1.0,
    },
    Param {
        name: "sea_loss",
        summary: "Transports and landings (XXV.D-E): plan a crossing only when the land units expected lost at sea (the battle code's exact Landing against the enemy naval stack that would intercept it, times the chance it does) are at most this share of those carried, and a transport only when those expected to arrive are at least 1 - this share (1 = ignore enemy fleets)",
        min: 0.0,
        max: 1.0,
        default: 0.25,
    },
];

fn scripted(v: &crate::game::policy::ParamValues) -> Policy {
    Policy::Scripted(scripted_values(v))
}

fn scripted_values(v: &crate::game::policy::ParamValues) -> Scripted {
    Scripted {
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
        fortify: v.get(12).round() as u8,
        landing: v.get(13),
        assault: v.get(14).round() as u8,
        foedus_offer: v.get(15),
        foedus_accept: v.get(16) >= 0.5,
        foedus_break: v.get(17) >= 0.5,
        rebel: v.get(18) >= 0.5,
        convert: v.get(19) >= 0.5,
        tribute: v.get(20),
        ally: v.get(21) >= 0.5,
        alliance_accept: v.get(22) >= 0.5,
        marry: v.get(23),
        hire: v.get(24),
        corrupt: v.get(25),
        pact: v.get(26),
        ship: v.get(27),
        naval_fight: v.get(28),
        blockade: v.get(29),
        sea_loss: v.get(30),
    }
}

pub const KINDS: &[PolicyKind<Player>] = &[
    PolicyKind {
        name: "scripted",
        summary: "digest §6.4's scripted player: attack, siege, assault and landing thresholds on the battle code's odds, raids, voluntary Kingdom age, garrisons, purchase mix, fortification, revolt suppression, interception, flight, Foedus offers, acceptance and breaks, vassal rebellion, conversion, diplomacy cards (Tributus, Unio and its alliances, Matrimonium, Mercenary, Corruption, Foedus)",
        params: SCRIPTED,
        build: |v| Player {
            policy: scripted(v),
            search: None,
        },
    },
    PolicyKind {
        name: "random",
        summary: "legal choices at random: targets, sieges, assaults, landings, raids, Kingdom announcements, purchases, fortification, revolt suppression, interception, flight",
        params: &[],
        build: |_| Player {
            policy: Policy::Random,
            search: None,
        },
    },
];

pub const CATALOG: PolicyCatalog<Player> = PolicyCatalog {
    kinds: KINDS,
    // A searcher is its rollout policy with a search spec: two directives a turn chosen by
    // rollouts (super::search). A rollout to the end from turn 2 plays 11 turns (about 1.4 ms):
    // the default horizon of 3 turns (the next scoring turn at most 3 away) keeps a decision at
    // the default budget near 15 ms.
    search: Some(SearchSupport {
        build: |spec, rollout| Player {
            search: Some(spec),
            ..rollout
        },
        defaults: SearchSpec {
            budget: 32,
            horizon: 3,
            margin: Some(2.0),
            confirm: 0,
        },
    }),
};

impl Scripted {
    pub fn defaults() -> Scripted {
        scripted_values(&crate::game::policy::ParamValues(
            SCRIPTED.iter().map(|p| p.default).collect(),
        ))
    }
}

/// A searching player's overrule of its rollout policy for one turn, for all its nations. The
/// turn's plan is chosen at its start (before ageing: the voluntary Kingdom, and Administration's
/// purchases and walls); its orders once the turn's nations have entered and been reinforced
/// (before events, raids and the Military phase: where to attack, whether to raid or stay).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Directive {
    /// The rollout policy decides (the baseline every search compares against).
    #[default]
    Follow,
    /// Plan: a Barbarian announces its Kingdom at the first age the rules allow (3).
    KingdomNow,
    /// Plan: no voluntary Kingdom this turn (the forced test from age 5 still applies).
    NoKingdom,
    /// Plan: every unit bought is heavy.
    BuyHeavy,
    /// Plan: every unit bought is plain infantry (the cheapest).
    BuyCheap,
    /// Plan: nothing bought (the gold kept, up to the treasury's ceiling).
    Save,
    /// Plan: a city fortified as soon as 15 gold allow.
    Fortify,
    /// Orders: attack thresholds 0.2 lower, raids when no attack passes.
    Bold,
    /// Orders: no attack and no raid chosen by any nation of the player (a raider's Time-Track
    /// raids are not a choice).
    Stay,
    /// Orders: the Barbarians raid instead of attacking.
    Raid,
    /// Orders: every nation of the player that can reach this province attacks it first,
    /// whatever the odds (the policy's own choice where it no longer can).
    Attack(u16),
}

impl Directive {
    /// The policy a nation playing `own` plays under this directive. The random policy has no
    /// numbers to move: only `Attack` changes its play.
    pub fn apply(self, own: Policy) -> Policy {
        let Policy::Scripted(mut p) = own else {
            return own;
        };
        match self {
            Directive::Follow | Directive::Attack(_) => return own,
            Directive::KingdomNow => p.kingdom_age = 3,
            Directive::NoKingdom => p.kingdom_age = u8::MAX,
            Directive::BuyHeavy => p.heavy_share = 1.0,
            Directive::BuyCheap => (p.heavy_share, p.cavalry_share) = (0.0, 0.0),
            Directive::Save => p.reserve = u8::MAX,
            Directive::Fortify => p.fortify = super::economy::FORTIFY_COST as u8,
            Directive::Bold => {
                p.attack = (p.attack - 0.2).max(0.0);
                p.civilized_attack = (p.civilized_attack - 0.2).max(0.0);
                p.raid = true;
            }
            Directive::Stay => {
                (p.attack, p.civilized_attack) = (f64::INFINITY, f64::INFINITY);
                p.raid = false;
            }
            Directive::Raid => {
                p.attack = f64::INFINITY;
                p.raid = true;
            }
        }
        Policy::Scripted(p)
    }
}
