//! Mare Nostrum's full game (digest §1, §2, §4, §5, §6, §7): the Second Punic War played by
//! thirteen policies on the scenario's map abstraction, every combat through the battle code.

// Nations and provinces index several parallel tables at once (state, policies, scenario), so loops
// run over indices rather than iterators.
#![allow(clippy::needless_range_loop)]

pub mod diplomacy;
pub mod economy;
pub mod fleets;
pub mod independents;
pub mod policy;
pub mod scenario;
pub mod search;
pub mod searches;
pub mod state;
mod turn;
pub mod war;

use super::city::{CityRules, Kind};
use super::field::FieldRules;
use super::naval::NavalRules;
use crate::error::{AleaError, Result};
use crate::game::{GameModel, GamePlay, GameSetup};
use crate::options::Options;
use policy::{BoxedPolicy, CATALOG};
use scenario::{Border, Scenario};
use state::{State, NONE};
use std::collections::VecDeque;

/// The first steps of a path, as many as one turn's six segments can cover (each step costs at
/// least one): (province, segments it costs, border crossed; None = a sea crossing).
#[derive(Clone, Copy, Debug, Default)]
pub struct Route {
    steps: [(usize, u32, Option<Border>); 6],
    len: usize,
}

impl Route {
    pub fn steps(&self) -> &[(usize, u32, Option<Border>)] {
        &self.steps[..self.len]
    }

    /// The path from `from` to `to` in a table [`Model::route_table`] filled; None if `to` was
    /// not reached or is `from`.
    fn read(prev: &[searches::Step], from: usize, to: usize) -> Option<Route> {
        if prev[to] == searches::UNREACHED || to == from {
            return None;
        }
        let mut steps = 0;
        let mut at = to;
        while at != from {
            steps += 1;
            at = prev[at].0 as usize;
        }
        let mut route = Route::default();
        let mut at = to;
        for k in (0..steps).rev() {
            let (p, step, border) = prev[at];
            if k < route.steps.len() {
                route.steps[k] = (at, step as u32, border);
                route.len = route.len.max(k + 1);
            }
            at = p as usize;
        }
        Some(route)
    }
}

/// The tables [`Model::route`] works in, kept between calls so that routing allocates nothing.
#[derive(Default)]
pub struct RouteScratch {
    cost: Vec<u32>,
    /// For each province, the one it is best reached from, the step's cost and the border
    /// crossed: kept small, as the table is reset for every route.
    prev: Vec<searches::Step>,
    queue: VecDeque<u16>,
}

pub const ENDINGS: &[&str] = &[
    "700 VP",
    "350 VP and double the next",
    "unconditional surrenders from all",
    "six nations eliminated",
    "allied with every nation",
    "turn cap",
];
pub const TURN_METRICS: &[&str] = &[
    "vp",
    "talents",
    "stability",
    "land_units",
    "fleets",
    "provinces",
];
pub const GLOBAL_METRICS: &[&str] = &["wars", "nations_alive"];
pub const GAME_COLUMNS: &[&str] = &[
    "battles",
    "wars_declared",
    "surrenders",
    "annexations",
    "cities_taken",
    "historical_periods",
];

/// What an army does where it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Assault,
    Siege,
    Pillage,
}

/// Readings of the full game resolved once.
#[derive(Clone, Copy, Debug)]
pub struct GameRules {
    pub optimal_vp: bool,
    pub occupation_costs_stability: bool,
    pub two_thirds_split: bool,
    pub abstract_cards: bool,
    pub turn_cap: u32,
}

impl GameRules {
    /// Turn-1 free trade points: (to nations, to independents) (L997-L1006, A35).
    pub fn free_trade_split(&self, t: u32) -> (u32, u32) {
        if self.two_thirds_split {
            let a = (2 * t).div_ceil(3);
            (a, t - a)
        } else {
            ((66 * t).div_ceil(100), 33 * t / 100)
        }
    }
}

pub type Policies = Vec<BoxedPolicy>;

pub struct Model {
    pub scenario: Scenario,
    pub rules: GameRules,
    pub field: FieldRules,
    pub naval: NavalRules,
    pub assault: CityRules,
    pub siege: CityRules,
    pub policies: Policies,
    pub labels: Vec<String>,
    pub names: Vec<String>,
    pub starting_stability: u8,
    pub starting_vp: Vec<i64>,
    pub independents: Vec<usize>,
    pub independent_ports: Vec<usize>,
    /// Provinces with a port on any sea, in index order (ports never change in a game).
    pub port_provinces: Vec<usize>,
    /// For each province, the other port provinces sharing a sea with it, in index order, with
    /// the seas they share: the crossings routes and searches try, worked out once.
    pub port_links: Vec<Vec<(usize, u16)>>,
    /// Land neighbours of each province: (province, border).
    pub adjacency: Vec<Vec<(usize, Border)>>,
    /// Nations whose land touches each nation's (directly or through one independent province).
    pub neighbours: Vec<u16>,
    /// Nations with a port city on a sea one of each nation's port cities opens on (at the start):
    /// reachable across that sea with naval supremacy (L669).
    pub sea_neighbours: Vec<u16>,
    /// Seas each nation's starting port cities open on.
    pub home_seas: Vec<u16>,
}

impl Model {
    pub fn name(&self, n: usize) -> &str {
        &self.scenario.nations[n].name
    }

    pub fn code(&self, p: usize) -> &str {
        &self.scenario.provinces[p].code
    }

    /// Whether independent `p` touches a province of `n` by land or across one sea (L539).
    pub fn adjacent_to_nation(&self, s: &State, n: usize, p: usize) -> bool {
        self.touches_nation(s, n, p) || s.provinces[p].ports & s.port_seas[n] != 0
    }

    pub fn touches_nation(&self, s: &State, n: usize, p: usize) -> bool {
        self.adjacency[p]
            .iter()
            .any(|&(q, _)| s.provinces[q].owner as usize == n)
    }

    /// Seas where `n` has naval supremacy this turn (L669), as a mask.
    pub fn supremacy(&self, s: &State, n: usize) -> u16 {
        s.supremacy(self, n)
    }
}

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    let f = &setup.fields;
    f.only(&[
        "scenario",
        "turn_cap",
        "policies",
        "assumptions",
        "starting_vp",
    ])?;
    let path = f
        .string("scenario")?
        .unwrap_or("scenarios/mare-nostrum/segunda-guerra-punica.toml");
    let text = std::fs::read_to_string(path).map_err(|e| {
        AleaError::input(
            setup.source,
            f.field("scenario"),
            format!("\"{path}\" ({e})"),
            "a readable scenario file, e.g. scenarios/mare-nostrum/segunda-guerra-punica.toml",
        )
    })?;
    let empty = toml::Table::new();
    let assumptions = f.table("assumptions", &empty)?;
    let overrides: toml::Table = assumptions
        .keys()
        .map(|k| (k.to_string(), assumptions.raw(k).cloned().unwrap()))
        .collect();
    let scenario = Scenario::load(
        path,
        &text,
        &overrides,
        &f.field("assumptions"),
        setup.source,
    )?;
    let turn_cap = f.int_in("turn_cap", 1, 1000)?.unwrap_or(100) as u32;
    let keys: Vec<String> = scenario.nations.iter().map(|n| n.key.clone()).collect();
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "economist")?;
    let starting = f.table("starting_vp", &empty)?;
    let mut starting_vp = vec![0i64; keys.len()];
    for k in starting.keys() {
        let Some(i) = keys.iter().position(|x| x == k) else {
            return Err(AleaError::input(
                setup.source,
                starting.field(k),
                k,
                format!("a nation key: {}", keys.join(", ")),
            ));
        };
        starting_vp[i] = starting.int_in(k, -1000, 1000)?.unwrap_or(0);
    }
    Ok(Box::new(Model::new(
        scenario,
        &setup.options,
        turn_cap,
        chosen,
        starting_vp,
    )))
}

impl Model {
    pub fn new(
        scenario: Scenario,
        options: &Options,
        turn_cap: u32,
        chosen: Vec<crate::game::policy::Chosen<BoxedPolicy>>,
        starting_vp: Vec<i64>,
    ) -> Model {
        let np = scenario.provinces.len();
        let mut adjacency = vec![Vec::new(); np];
        for &(a, b, border) in &scenario.land {
            adjacency[a].push((b, border));
            adjacency[b].push((a, border));
        }
        let independents: Vec<usize> = (0..np)
            .filter(|&p| scenario.provinces[p].owner.is_none())
            .collect();
        let independent_ports = independents
            .iter()
            .copied()
            .filter(|&p| scenario.provinces[p].ports != 0)
            .collect();
        let port_provinces: Vec<usize> = (0..np)
            .filter(|&p| scenario.provinces[p].ports != 0)
            .collect();
        let port_links = (0..np)
            .map(|p| {
                let ports = scenario.provinces[p].ports;
                port_provinces
                    .iter()
                    .map(|&q| (q, scenario.provinces[q].ports & ports))
                    .filter(|&(q, shared)| q != p && shared != 0)
                    .collect()
            })
            .collect();
        let owner = |p: usize| scenario.provinces[p].owner;
        let mut neighbours = vec![0u16; scenario.nations.len()];
        for p in 0..np {
            for &(q, _) in &adjacency[p] {
                let mut via = vec![q];
                if owner(q).is_none() {
                    via.extend(adjacency[q].iter().map(|&(r, _)| r));
                }
                if let Some(a) = owner(p) {
                    for r in via {
                        if let Some(b) = owner(r) {
                            if a != b {
                                neighbours[a] |= 1 << b;
                                neighbours[b] |= 1 << a;
                            }
                        }
                    }
                }
            }
        }
        let mut home_seas = vec![0u16; scenario.nations.len()];
        for pd in &scenario.provinces {
            if let Some(o) = pd.owner {
                home_seas[o] |= pd.ports;
            }
        }
        let sea_neighbours = (0..scenario.nations.len())
            .map(|a| {
                (0..scenario.nations.len())
                    .filter(|&b| b != a && home_seas[a] & home_seas[b] != 0)
                    .fold(0u16, |m, b| m | 1 << b)
            })
            .collect();
        let (policies, labels): (Vec<_>, Vec<_>) =
            chosen.into_iter().map(|c| (c.policy, c.label)).unzip();
        Model {
            rules: GameRules {
                optimal_vp: options.flag("optimal_investment_vp"),
                occupation_costs_stability: options.flag("occupation_costs_stability"),
                two_thirds_split: options.choice("free_trade_split") == "two-thirds",
                abstract_cards: options.choice("history_cards") == "abstract",
                turn_cap,
            },
            field: FieldRules::new(options),
            naval: NavalRules::new(options),
            assault: CityRules::new(Kind::Assault, options),
            siege: CityRules::new(Kind::Siege, options),
            policies,
            labels,
            names: scenario.nations.iter().map(|n| n.name.clone()).collect(),
            starting_stability: scenario.starting_stability,
            starting_vp,
            independents,
            independent_ports,
            port_provinces,
            port_links,
            adjacency,
            neighbours,
            sea_neighbours,
            home_seas,
            scenario,
        }
    }
}

impl GameModel for Model {
    fn players(&self) -> &[String] {
        &self.names
    }
    fn player_policies(&self) -> &[String] {
        &self.labels
    }
    fn policy_keys(&self) -> Vec<String> {
        self.scenario
            .nations
            .iter()
            .map(|n| n.key.clone())
            .collect()
    }
    fn endings(&self) -> &[&'static str] {
        ENDINGS
    }
    fn turn_metrics(&self) -> &[&'static str] {
        TURN_METRICS
    }
    fn global_metrics(&self) -> &[&'static str] {
        GLOBAL_METRICS
    }
    fn game_columns(&self) -> &[&'static str] {
        GAME_COLUMNS
    }
    fn max_turns(&self) -> u32 {
        self.rules.turn_cap
    }
    fn turn_label(&self, turn: u32) -> String {
        format!(
            "turn {turn} ({} AUC)",
            self.scenario.start_year + turn as i32 - 1
        )
    }
    fn describe(&self) -> Vec<String> {
        let mut out = vec![format!(
            "{} ({} nations, {} provinces of which {} independent, {} seas), turn cap {}",
            self.scenario.title,
            self.names.len(),
            self.scenario.provinces.len(),
            self.independents.len(),
            self.scenario.seas.len(),
            self.rules.turn_cap
        )];
        out.push(format!(
            "assumed: starting stability {}; the map is the scenario's coarse stand-in (digest §7.2)",
            scenario::STABILITY[self.starting_stability as usize]
        ));
        for (n, name) in self.names.iter().enumerate() {
            out.push(format!("{name}: {}", self.labels[n]));
        }
        out
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        Box::new(turn::Worker::new(self))
    }
}

pub const _UNUSED: u8 = NONE;

#[cfg(test)]
mod tests;
