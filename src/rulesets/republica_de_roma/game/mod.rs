//! República de Roma's full game (digest §1, §2, §4, §5, §6.3): five factions, the Senate run by
//! the rulebook's own automation (§IV, digest §5.7), every battle through the battle code.
//!
//! One module per phase: [`mortality`], [`revenue`], [`forum`], [`population`], [`senate`],
//! [`combat`], [`revolution`]; [`setup`] deals the scenario; [`turn`] plays the turns and ends
//! the game.

// Senators, wars and factions index parallel tables (state, cards, policies), so loops run over
// indices.
#![allow(clippy::needless_range_loop)]

pub mod cards;
mod combat;
mod forum;
mod mortality;
pub mod policy;
mod population;
mod revenue;
mod revolution;
pub mod scenario;
mod senate;
mod setup;
pub mod state;
mod turn;

use crate::error::Result;
use crate::game::{GameModel, GamePlay, GameSetup};
use crate::options::Options;
use cards::{Cards, UNMODELLED_EVENTS};
use policy::{FactionPolicy, CATALOG};
use scenario::Setup;
use state::FACTIONS;

pub const ENDINGS: &[&str] = &[
    "The Era Ends: most influence",
    "deck runs out: most influence",
    "Perpetual Dictator: 35 influence",
    "Perpetual Dictator: elected",
    "rebel wins",
    "Rome falls: four active wars",
    "Rome falls: people's revolt",
    "Rome falls: bankruptcy",
    "turn cap",
];
pub const ERA_ENDS: usize = 0;
pub const DECK_RUNS_OUT: usize = 1;
pub const DICTATOR_35: usize = 2;
pub const DICTATOR_ELECTED: usize = 3;
pub const REBEL_WINS: usize = 4;
pub const FOUR_WARS: usize = 5;
pub const PEOPLE_REVOLT: usize = 6;
pub const BANKRUPTCY: usize = 7;
pub const TURN_CAP: usize = 8;

pub const TURN_METRICS: &[&str] = &["influence", "votes", "talents", "senators"];
pub const GLOBAL_METRICS: &[&str] = &["treasury", "unrest", "active_wars", "legions", "fleets"];
/// Per-game columns before the one-per-war "active when Rome fell" flags.
pub const BASE_COLUMNS: &[&str] = &[
    "rome_falls",
    "battles",
    "senators_died",
    "persuasions",
    "prosecutions",
    "rebellions",
    "final_treasury",
    "final_unrest",
];

/// Readings of the rules resolved once (each a named rule option; digest §3.15).
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub persuasion_autofail: u32,
    pub governor_returns_on_one: bool,
    pub drought_counts_inactive: bool,
    pub unprosecuted_stays: bool,
    pub revolution_one_card: bool,
    pub deck_runs_out_ends: bool,
    pub four_wars_end_of_turn: bool,
    pub dictator_printed_strength: bool,
    pub imminent_all: bool,
    pub hispania_data_spoils: bool,
    pub civil_war_costs: bool,
    pub majority_of_present: bool,
    pub disaster_wins: bool,
    pub combined_cap: bool,
    pub popularity_by_strength: bool,
    pub halved_round_up: bool,
    pub gain_requires_survival: bool,
    pub evil_omen_modifier: i32,
    pub draw_two: u32,
    pub matching_multiplies_naval: bool,
    pub leader_always_naval: bool,
    pub separate_gain: bool,
    pub prosecutions: bool,
    pub turn_cap: u32,
}

impl Rules {
    pub fn new(o: &Options, turn_cap: u32) -> Rules {
        Rules {
            persuasion_autofail: o.int("persuasion_autofail_min") as u32,
            governor_returns_on_one: o.choice("governor_term_end") == "on-reaching-one",
            drought_counts_inactive: o.choice("drought_wars") == "in-play",
            unprosecuted_stays: o.choice("unprosecuted_box") == "stays",
            revolution_one_card: o.choice("revolution_cards") == "one",
            deck_runs_out_ends: o.choice("game_end") == "deck-runs-out",
            four_wars_end_of_turn: o.choice("four_wars_check") == "end-of-turn",
            dictator_printed_strength: o.choice("dictator_strength") == "printed",
            imminent_all: o.choice("imminent_activation") == "all",
            hispania_data_spoils: o.choice("hispania_ulterior_spoils") == "data",
            civil_war_costs: o.flag("civil_war_costs_20"),
            majority_of_present: o.choice("majority_of") == "present",
            disaster_wins: o.choice("disaster_standoff_tie") == "disaster",
            combined_cap: o.choice("mil_cap") == "combined",
            popularity_by_strength: o.choice("popularity_loss_counts") == "strength",
            halved_round_up: o.choice("halved_losses_rounding") == "up",
            gain_requires_survival: o.flag("victory_gain_requires_survival"),
            evil_omen_modifier: o.int("evil_omen_modifier") as i32,
            draw_two: o.int("mortality_draw_two") as u32,
            matching_multiplies_naval: o.flag("matching_multiplies_naval"),
            leader_always_naval: o.choice("leader_naval_strength") == "always",
            separate_gain: o.choice("naval_land_gain") == "separate",
            prosecutions: o.flag("prosecutions"),
            turn_cap,
        }
    }
}

pub struct Model {
    pub cards: Cards,
    pub setup: Setup,
    pub rules: Rules,
    pub policies: Vec<FactionPolicy>,
    pub labels: Vec<String>,
    pub names: Vec<String>,
    pub columns: Vec<&'static str>,
}

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    let f = &setup.fields;
    f.only(&[
        "scenario",
        "variant",
        "turn_cap",
        "policies",
        "starting_treasury",
        "starting_unrest",
        "starting_legions",
    ])?;
    let path = f
        .string("scenario")?
        .unwrap_or("scenarios/republica-de-roma/early-republic.toml");
    let cards = Cards::load();
    let mut scenario = Setup::load(
        path,
        f.string("variant")?,
        &cards,
        setup.source,
        &f.field("scenario"),
    )?;
    if let Some(t) = f.int_in("starting_treasury", 0, 10_000)? {
        scenario.treasury = t as i32;
    }
    if let Some(u) = f.int_in("starting_unrest", 0, 50)? {
        scenario.unrest = u as i32;
    }
    if let Some(l) = f.int_in("starting_legions", 0, 25)? {
        scenario.legions = l as u32;
    }
    let turn_cap = f.int_in("turn_cap", 1, 500)?.unwrap_or(100) as u32;
    let empty = toml::Table::new();
    let keys: Vec<String> = (1..=FACTIONS).map(|i| format!("faction_{i}")).collect();
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "cooperative")?;
    Ok(Box::new(Model::new(
        cards,
        scenario,
        &setup.options,
        turn_cap,
        chosen,
    )))
}

impl Model {
    pub fn new(
        cards: Cards,
        setup: Setup,
        options: &Options,
        turn_cap: u32,
        chosen: Vec<crate::game::policy::Chosen<FactionPolicy>>,
    ) -> Model {
        let (policies, labels): (Vec<_>, Vec<_>) =
            chosen.into_iter().map(|c| (c.policy, c.label)).unzip();
        let mut columns: Vec<&'static str> = BASE_COLUMNS.to_vec();
        for w in &cards.wars {
            // Leaked once per model: the engine names columns with static strings.
            columns.push(Box::leak(
                format!("active_at_fall/{}", w.id).into_boxed_str(),
            ));
        }
        Model {
            rules: Rules::new(options, turn_cap),
            names: (1..=FACTIONS).map(|i| format!("Faction {i}")).collect(),
            cards,
            setup,
            policies,
            labels,
            columns,
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
    fn endings(&self) -> &[&'static str] {
        ENDINGS
    }
    fn ending_groups(&self) -> &[(&'static str, &'static [usize])] {
        &[(
            "Rome falls (any cause)",
            &[FOUR_WARS, PEOPLE_REVOLT, BANKRUPTCY],
        )]
    }
    fn turn_metrics(&self) -> &[&'static str] {
        TURN_METRICS
    }
    fn global_metrics(&self) -> &[&'static str] {
        GLOBAL_METRICS
    }
    fn game_columns(&self) -> &[&'static str] {
        &self.columns
    }
    fn max_turns(&self) -> u32 {
        self.rules.turn_cap
    }
    fn describe(&self) -> Vec<String> {
        let s = &self.setup;
        let mut out = vec![format!(
            "{}: 5 factions (the solitaire/2-player set-up, L1216); Treasury {} T, Unrest {}, {} legions, {} fleets; turn cap {}",
            s.title, s.treasury, s.unrest, s.legions, s.fleets, self.rules.turn_cap
        )];
        out.push("the Senate follows the rulebook's automation (§IV): Ruling Coalition, Normal/Crisis strategy lists, Proportional Armies; no advanced rules".into());
        out.push(format!(
            "not modelled: intrigue cards other than as hand cards (no Tribunes, no assassinations except the automatic attempt on a Perpetual Dictator), law effects other than Military Reforms and Tradition Erodes, the events {}",
            UNMODELLED_EVENTS
                .iter()
                .map(|e| format!("{e:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for (i, name) in self.names.iter().enumerate() {
            out.push(format!("{name}: {}", self.labels[i]));
        }
        out
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        Box::new(turn::Worker::new(self))
    }
}

#[cfg(test)]
mod tests;
