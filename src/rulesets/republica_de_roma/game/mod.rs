//! República de Roma's full game (digest §1, §2, §4, §5, §6.3): five factions, the Senate run by
//! the rulebook's own automation (§IV, digest §5.7), every battle through the battle code.
//!
//! One module per phase: `mortality`, `revenue`, `forum`, `population`, `senate`,
//! `combat`, `revolution`; `setup` deals the scenario; `turn` plays the turns and ends
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
pub mod search;
mod senate;
mod setup;
pub mod state;
mod strategy;
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
    pub dangerous_in_play: bool,
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
            dangerous_in_play: o.choice("dangerous_wars") == "in-play",
            turn_cap,
        }
    }
}

/// The Senate automation's discretionary numbers, `[game.senate]`: what the solitaire rules leave
/// to the Dominant player's judgement (L1234, L1311, L1315), each defaulting to the rulebook's
/// figure or guideline, or to a labelled assumption. Plain numbers, so a tuner can move them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenateParams {
    /// Talents the Treasury should still hold after next turn's expected expenses: recruitment
    /// stops short of it and cooperative factions donate up to it. Default 50, the level below
    /// which L329 warns that one Natural Disaster (50 T) can bankrupt Rome.
    pub reserve: i32,
    /// Share of the uncommitted surplus legions (fleets for a naval war) that goes with a
    /// Proportional Army. Default 0.5 (L1311: half, rounded down).
    pub surplus_share: f64,
    /// Highest modifier over the war's strength that an army is given, by the surplus or by "all
    /// possible strength". Default 15 (L1309, L1311).
    pub max_modifier: u32,
    /// Legions and fleets Rome keeps with no war in play. Defaults 10 and 5 (L1315).
    pub peace_legions: u32,
    pub peace_fleets: u32,
    /// When the strategy cannot be carried out, share of the units the Treasury can afford that
    /// the Dominant player raises toward the next war's Proportional Army (fleets first). The rules
    /// leave it to him (L1315); assumption: 1 (all he can afford above the reserve).
    pub shortfall_recruit: f64,
    /// Share of the legions (and fleets) left in Rome sent to reinforce a proconsul, up to the
    /// maximum modifier (L677 leaves the number open). Assumption: 0.5, as the surplus of L1311.
    pub reinforce_share: f64,
}

impl Default for SenateParams {
    fn default() -> SenateParams {
        SenateParams {
            reserve: 50,
            surplus_share: 0.5,
            max_modifier: 15,
            peace_legions: 10,
            peace_fleets: 5,
            shortfall_recruit: 1.0,
            reinforce_share: 0.5,
        }
    }
}

/// The `[game.senate]` keys: (name, range, meaning) for `describe` and the docs.
pub const SENATE_KEYS: &[(&str, &str, &str)] = &[
    ("reserve", "0..1000, default 50", "talents the Treasury keeps after next turn's expected expenses: recruitment stops short of it, cooperative factions donate up to it (L329 warns below 50)"),
    ("surplus_share", "0..1, default 0.5", "share of the uncommitted surplus units sent with a Proportional Army (L1311: half)"),
    ("max_modifier", "0..25, default 15", "highest modifier over a war's strength an army is given (L1309, L1311: +15)"),
    ("peace_legions", "0..25, default 10", "legions kept with no war in play (L1315)"),
    ("peace_fleets", "0..25, default 5", "fleets kept with no war in play (L1315)"),
    ("shortfall_recruit", "0..1, default 1", "when the strategy cannot be carried out, share of the affordable units the Dominant player raises toward the next war (L1315; assumption)"),
    ("reinforce_share", "0..1, default 0.5", "share of the units left in Rome sent to reinforce a proconsul (L677; assumption)"),
];

impl SenateParams {
    fn read(f: &crate::spec::Fields) -> Result<SenateParams> {
        let names: Vec<&str> = SENATE_KEYS.iter().map(|k| k.0).collect();
        f.only(&names)?;
        let d = SenateParams::default();
        Ok(SenateParams {
            reserve: f
                .int_in("reserve", 0, 1000)?
                .map_or(d.reserve, |x| x as i32),
            surplus_share: f
                .number_in("surplus_share", 0.0, 1.0)?
                .unwrap_or(d.surplus_share),
            max_modifier: f
                .int_in("max_modifier", 0, 25)?
                .map_or(d.max_modifier, |x| x as u32),
            peace_legions: f
                .int_in("peace_legions", 0, 25)?
                .map_or(d.peace_legions, |x| x as u32),
            peace_fleets: f
                .int_in("peace_fleets", 0, 25)?
                .map_or(d.peace_fleets, |x| x as u32),
            shortfall_recruit: f
                .number_in("shortfall_recruit", 0.0, 1.0)?
                .unwrap_or(d.shortfall_recruit),
            reinforce_share: f
                .number_in("reinforce_share", 0.0, 1.0)?
                .unwrap_or(d.reinforce_share),
        })
    }
}

pub struct Model {
    pub cards: Cards,
    pub setup: Setup,
    pub rules: Rules,
    pub senate: SenateParams,
    pub policies: Vec<FactionPolicy>,
    /// The styles a search directive may play for a turn (the catalog's defaults).
    pub styles: search::Styles,
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
        "senate",
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
    let senate = SenateParams::read(&f.table("senate", &empty)?)?;
    let mut model = Model::new(cards, scenario, &setup.options, turn_cap, chosen);
    model.senate = senate;
    Ok(Box::new(model))
}

impl Model {
    /// A state sized for this model's cards, before any set-up.
    pub fn empty_state(&self) -> state::State {
        let c = &self.cards;
        state::State::new(
            c.families.len(),
            c.statesmen.len(),
            c.wars.len(),
            c.leaders.len(),
            c.provinces.len(),
            c.concessions.len(),
        )
    }

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
            senate: SenateParams::default(),
            names: (1..=FACTIONS).map(|i| format!("Faction {i}")).collect(),
            cards,
            setup,
            policies,
            styles: search::Styles::default(),
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
        let p = &self.senate;
        out.push(format!(
            "[game.senate]: reserve {} T, surplus_share {}, max_modifier +{}, peace_legions {}, peace_fleets {}, shortfall_recruit {}, reinforce_share {}",
            p.reserve, p.surplus_share, p.max_modifier, p.peace_legions, p.peace_fleets, p.shortfall_recruit, p.reinforce_share
        ));
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
