//! The Invasions full game (issue 21): Scenario I (350 AD) played at the Area level of digest §6.3
//! by four players and their nations, every land battle through the battle calculator's code.
//!
//! Files: the scenario and its API (`scenario.rs`), its loader (`load.rs` checks rulebook.toml,
//! `load_abstraction.rs` abstraction.toml, `files.rs` holds the files' serde shapes), the dice
//! procedures as pure functions with their exact twins (`procedures.rs`), the state (`state.rs`)
//! and its running totals and holdings index (`totals.rs`), battles through the calculator
//! (`battles.rs`), the turn in §2's order (`turn.rs`), the economy (`economy.rs`), revolts and the
//! events stand-in (`revolts.rs`), the Military phase (`military.rs`, who may attack whom in
//! `targets.rs`) and the owner's reactions to an attack, interception and flight (`reactions.rs`),
//! the players (`policy.rs`) and the search player's decisions (`search.rs`).

// Nations, Areas and provinces index several parallel tables at once.
#![allow(clippy::needless_range_loop)]

pub mod alliances;
pub mod assault;
pub mod battles;
pub mod blockade;
pub mod calamities;
pub mod diplomacy;
pub mod diplomacy_cards;
pub mod economy;
pub mod encounters;
mod files;
pub mod joint;
pub mod leaders;
pub mod limes;
mod load;
mod load_abstraction;
pub mod military;
pub mod naval;
pub mod policy;
pub mod politics;
pub mod procedures;
pub mod reactions;
pub mod religion;
pub mod revolts;
pub mod scenario;
pub mod search;
pub mod shipping;
pub mod state;
pub mod targets;
pub mod totals;
pub mod turn;

#[cfg(test)]
mod alliances_tests;
#[cfg(test)]
mod blockade_tests;
#[cfg(test)]
mod calamities_tests;
#[cfg(test)]
mod diplomacy_cards_tests;
#[cfg(test)]
mod diplomacy_tests;
#[cfg(test)]
mod encounters_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod joint_tests;
#[cfg(test)]
mod leaders_tests;
#[cfg(test)]
mod limes_tests;
#[cfg(test)]
mod politics_tests;
#[cfg(test)]
mod procedures_tests;
#[cfg(test)]
mod religion_tests;
#[cfg(test)]
mod sea_path_tests;
#[cfg(test)]
mod shipping_tests;
#[cfg(test)]
mod tests;

use crate::error::{did_you_mean, AleaError, Result};
use crate::game::{GameModel, GamePlay, GameSetup};
use crate::options::Options;
use crate::rulesets::invasions::land::{System, Terrain};
use policy::{Policy, CATALOG};
use procedures::{EmpireAreaBonus, TreasuryTens};
use scenario::{ProvinceId, Scenario};
use state::State;
use std::path::Path;

pub const ENDINGS: &[&str] = &["last turn (12)", "last turn (11, Islam)"];
pub const TURN_METRICS: &[&str] = &["vp", "gold", "units", "provinces"];
pub const GLOBAL_METRICS: &[&str] = &["barbarians", "kingdoms", "empires", "gone"];
/// Per-game columns: the West's fall (13 = still standing after the last turn), foundations,
/// cities, then each player's VP by source (players in scenario order: Romans, Huns, Persians,
/// Goths, as the scenario file names them and the loader checks); each nation's VP by source
/// follow ([`Game::columns`]: they depend on the scenario's nations).
pub const GAME_COLUMNS: &[&str] = &[
    "west_fall_turn_13_if_standing",
    "kingdoms_founded",
    "empires_founded",
    "empires_collapsed",
    "battles",
    "sieges",
    "cities_taken",
    "cities_sacked",
    "walls_razed",
    "cities_fortified",
    "raids",
    "revolts",
    "revolts_suppressed",
    "interceptions",
    "flights",
    "landings_tried",
    "landings",
    "naval_battles",
    "fleets_sunk",
    "assaults",
    "limes_destroyed",
    "submissions",
    "clients_made",
    "foedera",
    "foedera_broken",
    "bonds_freed",
    "leaders_killed",
    "campaigns",
    "conversions",
    "diplomacy_cards",
    "truces",
    "alliances",
    "marriages",
    "mercenaries_hired",
    "sieges_bribed",
    "foedus_cards",
    "heresies",
    "event_alliances",
    "coalitions",
    "limes_local_units",
    "kingdom_foedera",
    "mercenaries_deserted",
    "pacts",
    "calamities",
    "calamity_heresies",
    "fleet_moves",
    "transports",
    "barbarian_landings",
    "joint_battles",
    "pooled_areas",
    "naval_interceptions",
    "naval_refusals",
    "calamity_effects",
    "usurper_tests",
    "usurpers",
    "blockade_moves",
    "blockades_met",
    "blockade_battles",
    "blockades_broken",
    "crossings_refused",
    "interceptions_on_the_way",
    "transports_planned",
    "transports_dropped",
    "transports_intercepted",
    "units_lost_at_sea",
    "vp_objectives_romans",
    "vp_raids_romans",
    "vp_foedus_romans",
    "vp_rebellion_romans",
    "vp_conversion_romans",
    "vp_marriage_romans",
    "vp_naval_romans",
    "vp_objectives_huns",
    "vp_raids_huns",
    "vp_foedus_huns",
    "vp_rebellion_huns",
    "vp_conversion_huns",
    "vp_marriage_huns",
    "vp_naval_huns",
    "vp_objectives_persians",
    "vp_raids_persians",
    "vp_foedus_persians",
    "vp_rebellion_persians",
    "vp_conversion_persians",
    "vp_marriage_persians",
    "vp_naval_persians",
    "vp_objectives_goths",
    "vp_raids_goths",
    "vp_foedus_goths",
    "vp_rebellion_goths",
    "vp_conversion_goths",
    "vp_marriage_goths",
    "vp_naval_goths",
];
/// `[game] objectives`: the objectives' VP as abstraction.toml writes them, or times each player's
/// factor of its `[objective_balance]` table.
pub const OBJECTIVE_VALUES: [&str; 2] = ["as-written", "balanced"];
/// Turn value recorded when the Western Empire never falls.
pub const WEST_STANDS: u8 = 13;

/// Everything fixed for a set of games: the scenario, the rules in force, the policies.
pub struct Game {
    pub scenario: Scenario,
    pub start: State,
    pub players: Vec<String>,
    pub labels: Vec<String>,
    /// The policy of each nation: its player's, or its own from `[game.nation_policies]` (a
    /// searching player's rollout policy).
    pub policies: Vec<Policy>,
    /// Per player: `Some` for the search player, which overrules its policy turn by turn.
    pub search: Vec<Option<crate::game::search::SearchSpec>>,
    pub nation_labels: Vec<(String, String)>,
    pub system: System,
    pub options: Options,
    pub tens: TreasuryTens,
    pub area_bonus: EmpireAreaBonus,
    pub romani: usize,
    pub orientali: usize,
    pub hunni: usize,
    /// Provinces whose city is Roma or Constantinopolis (+3 to the Empire test).
    pub great_cities: Vec<ProvinceId>,
    /// Constantinopolis' province: its walls become the Theodosian Walls (−4) from their turn.
    pub constantinople: Option<usize>,
    /// Roma's province: its holder gets half a convert's VP (XXXI.B).
    pub roma: Option<usize>,
    /// Per nation: inactive (VI.B), minor kingdom (RIM), nomad, Roman (Rome or Byzantium).
    pub inactive: Vec<bool>,
    pub minor: Vec<bool>,
    pub nomad: Vec<bool>,
    pub roman: Vec<bool>,
    /// VP nation `n` scores for province `p` when it controls it or its Area: `wanted[n * np + p]`,
    /// the targeting weight of the policies.
    pub wanted: Vec<u16>,
    /// What taking province `p` is worth to nation `n` before its city: 1 + `wanted` + half its
    /// income, `worth[n * np + p]` (the target shortlist reads it thousands of times a game; every
    /// term is a multiple of ½, so the sums are exact in any order).
    pub worth: Vec<f64>,
    /// Each nation's player (`scenario.nations[n].player`, kept compact for the hot loops).
    pub player: Vec<u8>,
    /// Each province's stacking limit before bonuses (XVII): 3 in mountains, else 4.
    pub stacking: Vec<u8>,
    /// The provinces with a city or a city site printed, in province order: the only ones a raid
    /// may target (the raiders' scan visits them alone).
    pub city_sites: Vec<usize>,
    /// The Areas with a border that may be blockaded ([`scenario::AreaLink::blockade_zone`]), in Area
    /// order: the only ones a nation's blockade check at each activation need look at.
    pub blockade_areas: Vec<usize>,
    pub last_turn: u8,
    /// Who may enter each Area (XVIII.J), by Area.
    pub entry_rule: Vec<EntryRule>,
    pub ostrogothi: usize,
    /// The player who picks the rebel province for each row of `procedures::REVOLT_SELECTOR`
    /// (`usize::MAX` where the scenario has no such player: the victim's player picks).
    pub revolt_selector: [usize; 4],
    /// Option `lost_minus_signs` = "as-extracted" (revolt suppression's and flight's modifiers, Q14).
    pub minus_signs_lost: bool,
    /// Option `flight_size_bonus` = "entering-side-double" (flight's +3, Q13).
    pub flight_entering_double: bool,
    /// Option `revolt_area_half` = "d2": a D2 always picks the revolt table's half (Q18).
    pub revolt_half_by_d2: bool,
    /// Option `foedus_vp_turns` = "every-turn" (Q30): a federate's 3 VP every turn, not only on
    /// scoring turns.
    pub foedus_vp_every_turn: bool,
    /// Q45: a Kingdom pays for heretical Areas even when all its Areas are heretical.
    pub heresy_kingdom_always: bool,
    /// Q52: played diplomacy cards leave the deck for the rest of the game.
    pub played_cards_discarded: bool,
    /// Option `naval_intercepted_move` = "stops" (Q21): a moving naval stack intercepted on its
    /// way ends its move there even when it fights the battle (default: it sails on unless sunk).
    pub intercepted_fleets_stop: bool,
    /// `GAME_COLUMNS`, then `vp_<source>_<nation>` for each nation that can score from that
    /// source (objectives: it has some; raids: it can raid, entering as a Barbarian).
    pub columns: Vec<&'static str>,
    /// (nation, VP source) of each per-nation column, in order.
    pub nation_columns: Vec<(usize, usize)>,
    /// Battle caches handed from one worker to the next (the engine makes a worker per chunk);
    /// every entry is a function of its key, so which cache a worker gets changes no result.
    pub caches: std::sync::Mutex<Vec<battles::Battles>>,
}

impl Game {
    pub fn name(&self, n: usize) -> &str {
        &self.scenario.nations[n].key
    }
    pub fn player_of(&self, n: usize) -> usize {
        self.player[n] as usize
    }
}

fn find_nation(s: &Scenario, key: &str) -> Option<usize> {
    s.nation(key).map(|n| n as usize)
}

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    let f = &setup.fields;
    f.only(&["scenario", "policies", "nation_policies", "objectives"])?;
    let mut scenario = match f.string("scenario")? {
        None => Scenario::bundled()?,
        Some(dir) => {
            let path = Path::new(dir);
            if !path.is_dir() {
                return Err(AleaError::input(
                    setup.source,
                    f.field("scenario"),
                    format!("\"{dir}\""),
                    format!(
                        "a folder holding rulebook.toml and abstraction.toml, e.g. {}",
                        scenario::BUNDLED_DIR
                    ),
                ));
            }
            Scenario::from_dir(path)?
        }
    };
    let values = f.choice("objectives", &OBJECTIVE_VALUES)?;
    if !scenario.choose_objective_values(values == Some("balanced")) {
        return Err(AleaError::input(
            setup.source,
            f.field("objectives"),
            "\"balanced\"",
            "\"as-written\" (the scenario's abstraction.toml has no [objective_balance] table)",
        ));
    }
    let empty = toml::Table::new();
    let keys = crate::game::summary::player_keys(&scenario.players);
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "scripted")?;
    let (players, labels): (Vec<_>, Vec<_>) =
        chosen.into_iter().map(|c| (c.policy, c.label)).unzip();
    let mut policies: Vec<Policy> = scenario
        .nations
        .iter()
        .map(|n| players[n.player as usize].policy)
        .collect();
    let mut nation_labels = Vec::new();
    let per_nation = f.table("nation_policies", &empty)?;
    for key in per_nation.keys() {
        let Some(n) = find_nation(&scenario, key) else {
            let names: Vec<&str> = scenario.nations.iter().map(|n| n.key.as_str()).collect();
            return Err(AleaError::input(
                setup.source,
                per_nation.field(key),
                format!("\"{key}\"{}", did_you_mean(key, names.iter().copied())),
                "a nation key of the scenario (see its abstraction.toml [assignment])",
            ));
        };
        let value = per_nation.raw(key).expect("listed key");
        let c = CATALOG.parse(setup.source, &per_nation.field(key), value)?;
        if c.policy.search.is_some() {
            return Err(AleaError::input(
                setup.source,
                per_nation.field(key),
                c.label,
                "a policy other than search: the search player plays for a player ([game.policies]), all its nations at once",
            ));
        }
        policies[n] = c.policy.policy;
        nation_labels.push((key.to_string(), c.label));
    }
    let mut game = Game::new(scenario, &setup.options, labels, policies, nation_labels);
    game.search = players.iter().map(|p| p.search).collect();
    Ok(Box::new(game))
}

impl Game {
    pub fn new(
        scenario: Scenario,
        options: &Options,
        labels: Vec<String>,
        policies: Vec<Policy>,
        nation_labels: Vec<(String, String)>,
    ) -> Game {
        let start = state::initial(&scenario);
        let nation = |key: &str| find_nation(&scenario, key).unwrap_or(usize::MAX);
        let great_cities = scenario
            .provinces
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.city
                    .as_ref()
                    .is_some_and(|c| c.name == "Roma" || c.name == "Constantinopolis")
            })
            .map(|(i, _)| i as ProvinceId)
            .collect();
        let constantinople = scenario.provinces.iter().position(|p| {
            p.city
                .as_ref()
                .is_some_and(|c| c.name == "Constantinopolis")
        });
        let roma = scenario
            .provinces
            .iter()
            .position(|p| p.city.as_ref().is_some_and(|c| c.name == "Roma"));
        let np = scenario.provinces.len();
        let mut wanted = vec![0u16; scenario.nations.len() * np];
        for (n, nation) in scenario.nations.iter().enumerate() {
            for o in &nation.objectives {
                match o.target {
                    scenario::Target::Province(p) => wanted[n * np + p as usize] += o.vp,
                    scenario::Target::Area(a) => {
                        for &p in &scenario.areas[a as usize].provinces {
                            wanted[n * np + p as usize] += o.vp;
                        }
                    }
                }
            }
        }
        let worth = (0..wanted.len())
            .map(|i| {
                let p = i % np;
                1.0 + wanted[i] as f64 + scenario.provinces[p].income_halves as f64 / 2.0
            })
            .collect();
        let player = scenario.nations.iter().map(|n| n.player).collect();
        let stacking = scenario
            .provinces
            .iter()
            .map(|p| if p.terrain == Terrain::Mountain { 3 } else { 4 })
            .collect();
        let people = |n: &scenario::Nation| &scenario.peoples[n.people as usize];
        let mut nation_columns = Vec::new();
        for (n, nation) in scenario.nations.iter().enumerate() {
            if !nation.objectives.is_empty() {
                nation_columns.push((n, state::VP_OBJECTIVES));
            }
            if nation.status == crate::rulesets::invasions::army::Status::Barbarian {
                nation_columns.push((n, state::VP_RAIDS));
                nation_columns.push((n, state::VP_FOEDUS));
            }
            // Any nation but an Empire may end up a Nomad's vassal.
            if nation.status != crate::rulesets::invasions::army::Status::Empire {
                nation_columns.push((n, state::VP_REBELLION));
            }
            // The convert's bonus, or the papacy's half for whoever holds Roma (any nation
            // that can hold land).
            if scenario.conversion_bonus[n] || nation.capital.is_some() || nation.horde.is_some() {
                nation_columns.push((n, state::VP_CONVERSION));
                // Any nation on the map may be a Matrimonium's target.
                nation_columns.push((n, state::VP_MARRIAGE));
            }
        }
        let columns = GAME_COLUMNS
            .iter()
            .copied()
            .chain(nation_columns.iter().map(|&(n, src)| {
                let name = format!("vp_{}_{}", state::VP_SOURCES[src], scenario.nations[n].key);
                crate::game::column_name(name)
            }))
            .collect();
        let islam = scenario.islam_turn > 0;
        Game {
            players: scenario.players.clone(),
            search: vec![None; scenario.players.len()],
            labels,
            policies,
            nation_labels,
            system: if options.choice("game_battle_system") == "advanced" {
                System::Advanced
            } else {
                System::Basic
            },
            options: options.clone(),
            tens: TreasuryTens::from_options(options),
            area_bonus: EmpireAreaBonus::from_options(options),
            romani: nation("romani"),
            orientali: nation("orientali"),
            hunni: nation("hunni"),
            great_cities,
            constantinople,
            roma,
            inactive: scenario
                .nations
                .iter()
                .map(|n| people(n).inactive)
                .collect(),
            minor: scenario
                .nations
                .iter()
                .map(|n| people(n).minor_kingdom)
                .collect(),
            nomad: scenario.nations.iter().map(|n| n.nomad).collect(),
            roman: scenario
                .nations
                .iter()
                .map(|n| n.key == "romani" || n.key == "orientali")
                .collect(),
            wanted,
            worth,
            player,
            stacking,
            city_sites: (0..scenario.provinces.len())
                .filter(|&p| scenario.provinces[p].city.is_some())
                .collect(),
            blockade_areas: (0..scenario.areas.len())
                .filter(|&a| {
                    scenario.areas[a]
                        .links
                        .iter()
                        .any(|l| l.blockade_zone().is_some())
                })
                .collect(),
            last_turn: if islam {
                scenario.turns_with_islam
            } else {
                scenario.turns
            },
            entry_rule: scenario
                .areas
                .iter()
                .map(|a| match a.name.as_str() {
                    "Scythia" => EntryRule::NomadsOnly,
                    "Arabia" | "Mauretania" => EntryRule::RaidersOnly,
                    _ => EntryRule::Open,
                })
                .collect(),
            ostrogothi: nation("ostrogothi"),
            columns,
            nation_columns,
            revolt_selector: procedures::REVOLT_SELECTOR.map(|(name, _, _)| {
                scenario
                    .players
                    .iter()
                    .position(|p| p.eq_ignore_ascii_case(name))
                    .unwrap_or(usize::MAX)
            }),
            minus_signs_lost: options.choice("lost_minus_signs") == "as-extracted",
            flight_entering_double: options.choice("flight_size_bonus") == "entering-side-double",
            revolt_half_by_d2: options.choice("revolt_area_half") == "d2",
            foedus_vp_every_turn: options.choice("foedus_vp_turns") == "every-turn",
            heresy_kingdom_always: options.choice("heresy_expense_kingdom") == "always",
            played_cards_discarded: options.choice("diplomacy_played_cards") == "discarded",
            intercepted_fleets_stop: options.choice("naval_intercepted_move") == "stops",
            start,
            scenario,
            caches: std::sync::Mutex::new(Vec::new()),
        }
    }
}

/// Forbidden Areas (XVIII.J): Scythia is for Nomads (and the Ostrogoths on turn 1); Arabia and
/// Mauretania for their raiders only, who never stand on the map here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryRule {
    Open,
    NomadsOnly,
    RaidersOnly,
}

/// What this engine does not play yet, said in every run's summary (never silent).
pub const SIMPLIFICATIONS: &[&str] = &[
    "Area level (digest §6.3): units stand in Areas, not provinces; a stack attacks one province of its Area or an adjacent one; a nation's units in an Area defend all its provinces there (up to the stacking limit)",
    "flight (XIX.B) at the Area level: the owner's policy decides whether to try, the battle code's Flight whether it works (the leader's combat bonus where he stands with the stack); the stack stays in the Area when its nation holds another province there, else it leaves for the first adjacent Area where it holds one (crossing modifier of that border), its leader with it; a horde's province is always defended",
    "interception (XIX.A) at the Area level: one stack from the adjacent Area with the most units to spare, led by the nation's leader if he stands there (his combat bonus to the roll, his stacking bonus to the room; he moves with it) (counted as 2 steps: no distance modifier), tried when the battle code's P(the defence wins) is below the policy's intercept; the confrontation is the battle that follows",
    "naval encounters (encounters.rs, XXV.B-C): in its naval step, after its fleets moved, each naval stack of the active nation meets the biggest enemy stack in its zone: the inactive side, then the active one, intercepts when the policy's naval_fight (own fleets over the enemy's) says fight (automatic where its nation holds every city of the coast, else a D2); the intercepted side fights the battle code's naval battle or refuses (an active stack's move ends, no transport or landing; an inactive one's nation gives the active one 1 VP); a transport or landing is intercepted by the biggest enemy stack in its zones when that stack's naval_fight fights, and the carrying stack refuses below its own naval_fight (the crossing cancelled, its units staying where they embarked, the movement spent; no VP); a moving stack sails the sea graph's shortest path (breadth first, links in the scenario's order) and meets the enemy stack of each zone it enters the same way, until its one encounter of the activation (a declared interception): a refusal stops it there and ends the step, a battle leaves it sailing on unless sunk (Q21; option naval_intercepted_move = \"stops\" stops it there); the scripted planner weighs a transport's or landing's crossing by the battle code's exact Landing against the enemy stack that would intercept it (declaring and refusing as their naval_fight says): a transport expected to lose more than the policy's sea_loss share of its units at sea, or to deliver fewer than 1 - sea_loss of them, is not made, a landing expected to lose more is left alone and its sea-risk factor is the share expected ashore; a stack's encounters while it moves do not spend its transport's one interception",
    "strait blockades (blockade.rs, XXV.F): each strait of the Area graph has the sea zone of abstraction.toml [straits] (assumed); a naval stack there blocks it to its nation's enemies' land stacks (attacks, campaigns, interception, flight), even beside a stack of theirs, unless its policy's blockade says never; a nation whose units stand by a strait blocked against it with a province across to take tries to break it at the start of its activation when its naval_fight fights the blocker (its stack there or the nearest that may sail there; the encounter of encounters.rs), the strait opening only once no blocking fleet is left in the zone (a refusing blocker pays 1 VP and keeps it closed); in its naval step a nation sends a stack to a strait's zone when the enemy units across are at least its blockade times its own on its side; a migration (which moves a whole nation between Areas) ignores blockades",
    "not played: shared provinces of allies (a province has one owner at the Area level: their shared control, the equal split of their income and VP and their separation at the alliance's end do not arise)",
    "allies' Area control (alliances.rs, XII.C): allies pool their provinces, cities and hordes; the claim goes to the partner whose status claims (Empire, Kingdom, Barbarian) and each ally shares the control (an Empire's Area income, the Empire and collapse tests' Areas, objectives; alliances end before scoring); full control stays a nation's own; an alliance expires for good when a partner takes a bond",
    "allies' joint battles (joint.rs, XXVI.B): allies are friendly and activate together; an attacking stack takes along its allies' units standing in the Area it leaves (each ally keeping its garrison, a Barbarian one unit) and a defending one its allies' units in the province's Area, up to the stacking limit, when that ally is at war with the other side; the battle code fights the joined stack as the acting nation's (its status and leader); losses are shared by unit type in proportion to what each brought, and the ally's survivors stay where they stood",
    "politics (politics.rs): a captured horde (no unit left with it) and a Kingdom with its capital taken and 3 provinces or fewer submit as vassals (a minor kingdom taken by a Civilized nation as a client); an attacking horde never submits (the battle code reports no spare hit); a vassal or federate captor still ends the horde's nation; the vassal's one lent unit is its cheapest; the client mercenary, the federate mercenary and a second Foedus to the same federate are not played; the Foedus offer, the break and the Nomad vassal's rebellion happen at the end of the Time phase, after reinforcements (the rules: by or at the nation's activation); each Empire offers one Foedus a turn to a Barbarian of another player (not one invading this turn), ceding the two provinces of one Civilized Area it values least, the federate's horde and its units moving there; the federator's units stay (stacking ignored)",
    "events: the placeholder model of abstraction.toml [events] (\"revolts\": each player's card starts a revolt with revolt_chance against a random Civilized nation of another player; selector, Area table, markers, income and suppression as the rulebook says) is the Alliance event with alliance_chance (the player's most threatened nation offers its threat a one-turn alliance) or the Barbarian Coalition with coalition_chance (its biggest Barbarian allies with another player's Barbarian whose horde is in the same or the next Area), each accepted by the target's alliance_accept, and brings a heresy with heresy_chance: Heresy + on a random Catholic Area where a Catholic nation holds land, Heresy − a turn later, gone the turn after (1.A.c), heretical to every Catholic nation, its capital's Area included, with the expense and the suppression's −1; or the null model; Administration card effects follow the null model (digest §6.2) but for their calamities",
    "calamities (calamities.rs): the placeholder model of abstraction.toml [calamities]: the card a nation keeps carries a calamity with card_chance (with card_chance^k when its set holds k cards, keeping one without), a bankruptcy's card with card_chance; a calamity is Heresy with heresy_share, a Heresy + marker of the victim's religion on a random Area where it holds land, never its capital's (the horde's for a Kingdom without one), Pagans immune, lasting 2 turns and heretical to every nation of that religion (expense, suppression's −1); the others, each as likely, are the rows of [calamities] others, each driving one mechanic the rulebook ties to calamities with a placeholder amount: revolts (the revolt procedure), ageing, a Decline level, gold or units lost (the cheapest, from its biggest stack), and the Usurper (its federates may break their Foedus at once, their policy's foedus_break, and placeholder revolts); Intolerance and the Usurper double where the victim holds land it sees as heretical; Rome and Byzantium in Decline test a D2 after their Purchases, a failure bringing the Usurper (a calamity of the turn); every calamity counts for the collapse test's +1; a pillage marker's Usurper is not drawn (Civilized nations do not sack here)",
    "the Huns vanish at Attila's death (their player aid E is not in the text)",
    "diplomacy (diplomacy.rs): the rulebook's 18-card deck drawn in step 1.D by Kingdoms then Empires, youngest first (a Kingdom its leader's diplomacy bonus, an Empire 1 + it; a draw from an empty deck is lost); Tributus played at once on the enemy most threatening one of the nation's Areas (the policy's tribute: 10 gold for a truce to the end of the turn), Unio on a free minor kingdom in or next to its land (a D2 makes it a client), else a one-turn alliance offered to the enemy most threatening its land (accepted by its policy's alliance_accept; alliances.rs: partners free of any bond, the alliance lapsing with one, friendly, activating together in the later slot); Matrimonium (the policy's marry: 2 gold to the most threatening enemy, which lends its cheapest unit for the turn and scores 2 VP unless it attacks the nation), Mercenary (the policy's hire: 3 gold to a Barbarian whose horde is in or next to an Area the nation controls, for its cheapest unit for the turn; lent units go back at the end of the Military phase while the borrower has one of their kind), Pactum (the policy's pact, a threat ratio: 5 gold to the most threatening enemy for a truce to the end of the turn and its province worth most to the nation in or next to its land, not a capital nor a horde's, in an Area where the target holds another; the nation moves a unit there; granaries not marked), Corruption kept for a siege of the nation's city (the policy's corrupt on P(it falls): lifted, 1 gold to the besieger), Foedus forcing an Empire's or a Kingdom's own Foedus offer (a Kingdom federator collecting the province income of the Foedus provinces its federate holds; diplomacy_cards.rs); a hired Mercenary deserts to its own nation when its borrower and its nation fight, taking part when the borrower's stack comes from, or defends, the Area where it joined it (its capital's or horde's) with a unit of its kind; unused cards discarded for 1 gold at End of Diplomacy and every card back in the deck (Q52)",
    "religion (religion.rs): nations keep their people's religion until a Pagan or Arian Kingdom or Empire converts to Catholicism at the start of its Administration (the policy's convert; the bonus of the placeholder abstraction.toml [religion] list, the income of its provinces in Catholic Areas not in revolt, half of it to Roma's holder); Areas are Catholic, Mazdean (the placeholder list), Monophysite (Oriens and Aegyptus, a permanent heresy) or, Barbarian, Pagan; a Catholic sees heresy relative to its capital's Area, any nation a heresy marker of its own religion (an event's is Catholic, a calamity's its victim's); heretical Areas cost 1 a turn (a Kingdom only when it also holds orthodox land, Q45) and −1 to suppression, a religion that differs from the Area's another −1 (both apply to a Catholic in a Monophysite Area)",
    "leaders (leaders.rs; who arrives when with which ratings is the placeholder abstraction.toml [leaders]): one leader a nation in play (digest Q8's commanding leader; an Empire's Caesar beside a historical leader is not played), the turn's historical one else its status's intrinsic one, placed in the Reinforcements step with the horde or the nation's biggest stack, moving with the stack he leads; his combat bonus is the battle code's leader input, his death the battle code's settlement (D2 when his stack is wiped out, D10 for a winning Empire in Decline), drawn by the game; administration and diplomacy bonuses add cards; he campaigns (XXII) up to his campaign value after the stacks step from his Area, never with the horde, with no free redeployment and no maintained campaign siege; Mountain leaders (no ambush) are not marked",
    "policy odds: a scripted player shortlists its best target by a strength ratio (unit values) and checks the battle code's exact P(attacker wins) on that one before attacking; the odds a policy weighs leave leaders out (their rerolls make the exact solver costly; the battle played has them); sieges are one D10 with the leader's rerolls after a failure (a Barbarian leader's terror D2 first at an unfortified city, each time his stack arrives), assaulted (2 hits for +1) when the stack keeps the policy's assault units after the hits, Barbarians sack and raze the walls of what they take, Civilized nations do not sack",
    "fleets (XXV.A, shipping.rs): a naval stack sails up to 4 zones and ends within 2 zones of a coastal province of its nation (a port city or site: the map's coastline is not in the text), never moving when its nation holds no coast; a stack beyond its tether goes to the nearest zone within it; once an activation a nation's stack sails to the zone off the port of its Area with most units to spare when none lies there, then the nation lands (below) or ships: spare units (the garrison kept) to another Area where it holds a port, across the zone they embark on or into an adjacent one with a stack of its own in each, 3 units a fleet, when the enemy units in and next to that Area are at least the policy's ship times its own there and more than where they leave; no sea-risk roll, the enemy naval stack's interception and the naval battle as for a landing, the units lost with the fleets in proportion; Nomads never sail, Barbarians only land (one unit staying with the horde; Barbarian fleets of abstraction.toml [fleets])",
    "naval landings (XXV.E) at the Area level: a nation whose naval stack lies off one of its ports carries up to 3 units a fleet across that zone or into an adjacent one where it also has a stack, and lands them on an enemy or empty province with a port on the last zone (only provinces with a port city or site are coastal here: the map's coastline is not in the text), once per activation when its land attacks left room (a Barbarian when it found no land target, before raiding); the sea-risk roll, the enemy naval stack's interception (the biggest of another player in the zones crossed; automatic where its nation holds every city of the coast, else a D2) and the naval battle are the battle code's Landing; the landed units then attack with no border crossed; the city of a coast where its owner has a naval stack gets the siege's -1",
    "Limes (XVIII.I) in the placeholder frontier provinces of abstraction.toml [limes], standing while a Roman nation holds them up to turn 7: a supported Limes fights in the battle code's land battle, an unsupported one is destroyed and hits on a D2 (the battle code's Limes) before any interceptor arrives; rebuilt for free at the start of the Military phase where Rome holds the province; an Incursion + removes it; on turn 8, at the same point, each Limes still standing becomes the placeholder [limes] local_units (one infantry) of the Roman nation holding it, in its Area (Roman aid P, Byzantine aid R)",
    "overrun and forced passage (XVIII.E-F) are not played at the Area level: with no province-by-province movement there is no province to pass through, so a stack of 6 or more (a leader's stacking bonus allows it) fights a lone unit in its target as a battle, and the forcing stack fights the defenders anyway",
    "battle damage is not tracked: a flipped elite that survives counts as a whole unit after the battle",
    "raiders without a horde raid a random eligible province anywhere (their starting provinces are on the nation cards); a raid result of 11-12 settles the raider (inactive) without placing its units",
    "purchases: the scripted mix of infantry, cavalry and heavy units at the placeholder prices of abstraction.toml [purchases]; the Romans' national unit 1 a turn (2 from turn 8), their other purchases from turn 3 (the dated auxiliaries); a city fortified (standard walls, 15 gold) when the treasury reaches the policy's fortify; no repairs",
];

impl GameModel for Game {
    fn players(&self) -> &[String] {
        &self.players
    }
    fn player_policies(&self) -> &[String] {
        &self.labels
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
        &self.columns
    }
    fn max_turns(&self) -> u32 {
        self.last_turn as u32
    }
    fn turn_label(&self, turn: u32) -> String {
        match self.scenario.dates.iter().find(|d| d.0 as u32 == turn) {
            Some(&(_, year)) => format!("turn {turn} ({year} AD)"),
            None => format!("turn {turn}"),
        }
    }
    fn describe(&self) -> Vec<String> {
        let s = &self.scenario;
        let mut out = vec![format!(
            "{}: {} nations, {} Areas, {} provinces, {} turns; battles: {}",
            s.title,
            s.nations.len(),
            s.areas.len(),
            s.provinces.len(),
            self.last_turn,
            match self.system {
                System::Basic => "basic",
                System::Advanced => "advanced",
            }
        )];
        if s.vp_rest_on_placeholders() {
            out.push("WINNERS REST ON PLACEHOLDER VP: the objectives and their VP values are stand-ins (abstraction.toml [objectives]); no win rate here says anything about the real game's balance".into());
        }
        for (key, label) in &self.nation_labels {
            out.push(format!("nation policy: {key} plays {label}"));
        }
        out.push("results rest on these stand-ins for components the rulebook lacks:".into());
        for line in s.stand_in_summary().lines() {
            out.push(format!("  {line}"));
        }
        out.push("simplifications (labelled, not silent):".into());
        for line in SIMPLIFICATIONS {
            out.push(format!("  {line}"));
        }
        out
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        Box::new(turn::Play::new(self))
    }
}
