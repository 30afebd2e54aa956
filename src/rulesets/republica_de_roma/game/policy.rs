//! How a faction decides. The Senate's collective decisions (offices, wars, recruitment) follow the
//! rulebook's own automation for the solitaire and 2-player game (§IV; digest §5.7): the Ruling
//! Coalition, the Normal and Crisis strategy lists and the Proportional Army. What each faction
//! does for itself (persuasion, knights, games, spoils, donations, prosecutions as Censor, command
//! below minimum forces, rebellion) is its policy's.
//!
//! * `cooperative`: the Neutral guidelines of §IV (persuade only when the base can reach 7, bribe up
//!   to 9, defend to 4; games when Unrest exceeds the sponsor's Popularity; donate what Rome needs
//!   to keep its reserve after expenses; the three-part rebellion test A/B/C of L1357-L1359).
//! * `competitive`: the same decision points with parameters for greed, cooperation, bribes, risk,
//!   prosecutions and rebellion (digest §6.3 level 2).
//! * `random`: a uniformly random legal choice at every decision point (the invariant tests' mix).
//! * `search` (the engine's search player): a per-turn directive chosen by rollouts over
//!   another policy of the catalog, its rollout policy ([`super::search`]).

use crate::game::policy::{Param, ParamValues, PolicyCatalog, PolicyKind, SearchSupport};
use crate::game::search::SearchSpec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Cooperative,
    Competitive,
    Random,
}

#[derive(Clone, Copy, Debug)]
pub struct FactionPolicy {
    pub style: Style,
    /// Chance a governor takes the spoils (and a Corrupt token).
    pub greed: f64,
    /// Share of its money the faction gives the Treasury when Rome cannot pay its bills.
    pub cooperation: f64,
    /// Share of a senator's treasury he may spend on a bribe.
    pub bribe_share: f64,
    /// Lowest modifier at which its general accepts a battle below minimum forces (L657).
    pub risk: f64,
    /// Chance the Censor of this faction prosecutes a rival who can be tried.
    pub prosecute: f64,
    /// Multiplier on the rebellion test's 60% share of legions (0 = never rebels; 1 = L1359).
    pub rebel_aggression: f64,
    /// Share of spare personal money donated each Revenue phase for Influence.
    pub donate: f64,
    /// `Some` for the search player (`policy = "search"`): the worker asks the search for a
    /// [`super::search::Directive`] each turn; the other fields are its rollout policy's.
    pub search: Option<SearchSpec>,
}

const GREED: Param = Param {
    name: "greed",
    summary: "chance a governor of the faction takes the provincial spoils (and a Corrupt token)",
    min: 0.0,
    max: 1.0,
    default: 0.5,
};
const COOPERATION: Param = Param {
    name: "cooperation",
    summary:
        "share of the faction's money (personal and faction treasuries) given to the Treasury when it cannot meet the coming expenses plus the [game.senate] reserve",
    min: 0.0,
    max: 1.0,
    default: 1.0,
};
const BRIBE: Param = Param {
    name: "bribe_share",
    summary: "share of the persuader's treasury he may spend on a bribe",
    min: 0.0,
    max: 1.0,
    default: 0.5,
};
const RISK: Param = Param {
    name: "risk",
    summary: "lowest combat modifier at which the faction's general agrees to fight below minimum forces (L657)",
    min: -20.0,
    max: 20.0,
    default: 0.0,
};
const PROSECUTE: Param = Param {
    name: "prosecute",
    summary: "chance that the faction's Censor prosecutes a rival who can be tried",
    min: 0.0,
    max: 1.0,
    default: 0.0,
};
const REBEL: Param = Param {
    name: "rebel_aggression",
    summary: "0 = never rebels; 1 = the rulebook's Neutral test (3 T a legion, ≥ 60% of all legions, L1357-L1359); above 1 rebels with less",
    min: 0.0,
    max: 3.0,
    default: 1.0,
};
const DONATE: Param = Param {
    name: "donate",
    summary:
        "share of a senator's spare talents donated to the Treasury each turn for Influence (L325)",
    min: 0.0,
    max: 1.0,
    default: 0.0,
};

const COOPERATIVE: &[Param] = &[
    GREED,
    COOPERATION,
    BRIBE,
    Param {
        default: -5.0,
        ..RISK
    },
    REBEL,
];
const COMPETITIVE: &[Param] = &[
    Param {
        default: 1.0,
        ..GREED
    },
    Param {
        default: 0.3,
        ..COOPERATION
    },
    Param {
        default: 0.8,
        ..BRIBE
    },
    Param {
        default: -3.0,
        ..RISK
    },
    Param {
        default: 0.8,
        ..PROSECUTE
    },
    Param {
        default: 1.0,
        ..REBEL
    },
    Param {
        default: 0.3,
        ..DONATE
    },
];

fn cooperative(v: &ParamValues) -> FactionPolicy {
    FactionPolicy {
        style: Style::Cooperative,
        greed: v.get(0),
        cooperation: v.get(1),
        bribe_share: v.get(2),
        risk: v.get(3),
        prosecute: 0.0,
        rebel_aggression: v.get(4),
        donate: 0.0,
        search: None,
    }
}

fn competitive(v: &ParamValues) -> FactionPolicy {
    FactionPolicy {
        style: Style::Competitive,
        greed: v.get(0),
        cooperation: v.get(1),
        bribe_share: v.get(2),
        risk: v.get(3),
        prosecute: v.get(4),
        rebel_aggression: v.get(5),
        donate: v.get(6),
        search: None,
    }
}

fn random(_: &ParamValues) -> FactionPolicy {
    FactionPolicy {
        style: Style::Random,
        greed: 0.5,
        cooperation: 0.5,
        bribe_share: 0.5,
        risk: 0.0,
        prosecute: 0.5,
        rebel_aggression: 1.0,
        donate: 0.2,
        search: None,
    }
}

pub const CATALOG: PolicyCatalog<FactionPolicy> = PolicyCatalog {
    kinds: &[
        PolicyKind {
            name: "cooperative",
            summary: "the rulebook's Neutral faction (§IV): persuades at base 7+, defends to 4, games against Unrest, pays Rome's bills, rebels by the A/B/C test",
            params: COOPERATIVE,
            build: cooperative,
        },
        PolicyKind {
            name: "competitive",
            summary: "plays for itself: spoils, bribes, prosecutes rivals as Censor, donates for Influence, fights at long odds, rebels by the test",
            params: COMPETITIVE,
            build: competitive,
        },
        PolicyKind {
            name: "random",
            summary: "a uniformly random legal choice at every decision (a baseline for the invariant tests)",
            params: &[],
            build: random,
        },
    ],
    // A searcher is its rollout policy with a search spec: a directive per turn chosen by
    // rollouts (super::search). Rollouts to the end are short (an Early Republic game lasts about
    // five turns), so the default plays them out: horizon 0.
    search: Some(SearchSupport {
        build: |spec, rollout| FactionPolicy {
            search: Some(spec),
            ..rollout
        },
        defaults: SearchSpec {
            budget: 48,
            horizon: 0,
            margin: None,
            confirm: 0,
        },
    }),
};
