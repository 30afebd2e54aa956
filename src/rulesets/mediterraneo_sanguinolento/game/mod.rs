//! Mediterráneo sanguinolento, the full game: the scenario (the 160 countries of the rulebook and the
//! region graph of digest §6.2 with its stand-ins) and a first turn engine on it.
//!
//! Files: the scenario and its loader (`scenario.rs`, `load.rs`, `load_abstraction.rs`, `files.rs`),
//! the PV/IDR table rows (`pv.rs`), the state and its ledger (`state.rs`), fights through the battle
//! code (`battles.rs`), the economy phases (`economy.rs`), movement, sieges and conquest
//! (`military.rs`), the turn in §2's order and the end of the game (`turn.rs`), the players
//! (`policy.rs`) and the search player's decisions (`search.rs`).

// Countries, kinds and resources index several parallel tables at once.
#![allow(clippy::needless_range_loop)]

pub mod alliances;
pub mod battles;
pub mod burdens;
pub mod captives;
pub mod city_revolt;
pub mod colonies;
pub mod destruction;
pub mod diplomacy;
pub mod directive;
pub mod economy;
pub mod engines;
pub mod enslave;
pub mod envoy_gifts;
pub mod events;
mod files;
pub mod fleets;
pub mod forage;
pub mod forced_march;
pub mod interception;
pub mod intrigue;
pub mod king_abroad;
pub mod leaders;
pub mod levy;
mod load;
mod load_abstraction;
pub mod major_works;
pub mod mercenaries;
pub mod military;
pub mod militia;
pub mod mounts;
pub mod naval;
pub mod params;
pub mod pirates;
pub mod policy;
pub mod prospecting;
pub mod pv;
pub mod recruiting;
pub mod repairs;
pub mod republican_militia;
pub mod revolt;
pub mod roads;
pub mod routes;
pub mod sack;
pub mod scenario;
pub mod sea_trade;
pub mod search;
pub mod slaves;
pub mod special;
pub mod state;
pub mod supply;
pub mod targets;
pub mod trade;
pub mod treasures;
pub mod turn;
pub mod walls;
pub mod weather;
pub mod wood;
pub mod word;
pub mod works;

#[cfg(test)]
mod blunders_tests;
#[cfg(test)]
mod burdens_tests;
#[cfg(test)]
mod captives_tests;
#[cfg(test)]
mod city_revolt_tests;
#[cfg(test)]
mod colonies_tests;
#[cfg(test)]
mod destruction_tests;
#[cfg(test)]
mod diplomacy_tests;
#[cfg(test)]
mod engines_tests;
#[cfg(test)]
mod enslave_tests;
#[cfg(test)]
mod envoy_gifts_tests;
#[cfg(test)]
mod events_tests;
#[cfg(test)]
mod fleets_tests;
#[cfg(test)]
mod forage_tests;
#[cfg(test)]
mod forced_march_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod gifts_tests;
#[cfg(test)]
mod intrigue_tests;
#[cfg(test)]
mod king_abroad_tests;
#[cfg(test)]
mod ladder_tests;
#[cfg(test)]
mod leaders_tests;
#[cfg(test)]
mod levy_tests;
#[cfg(test)]
mod major_works_tests;
#[cfg(test)]
mod mercenaries_tests;
#[cfg(test)]
mod militia_tests;
#[cfg(test)]
mod mounts_tests;
#[cfg(test)]
mod naval_tests;
#[cfg(test)]
mod policy_tests;
#[cfg(test)]
mod prospecting_tests;
#[cfg(test)]
mod repairs_tests;
#[cfg(test)]
mod republican_militia_tests;
#[cfg(test)]
mod revolt_tests;
#[cfg(test)]
mod roads_tests;
#[cfg(test)]
mod routes_tests;
#[cfg(test)]
mod sack_tests;
#[cfg(test)]
mod scenario_tests;
#[cfg(test)]
mod sea_trade_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod slaves_tests;
#[cfg(test)]
mod special_tests;
#[cfg(test)]
mod supply_tests;
#[cfg(test)]
mod trade_tests;
#[cfg(test)]
mod treasures_tests;
#[cfg(test)]
mod walls_tests;
#[cfg(test)]
mod wood_tests;
#[cfg(test)]
mod word_tests;
#[cfg(test)]
mod works_tests;

use super::army::Culture;
use super::data::data;
use crate::error::{AleaError, Result};
use crate::game::search::SearchSpec;
use crate::game::{GameModel, GamePlay, GameSetup};
use crate::options::Options;
use policy::{Policy, Scripted, CATALOG};
use scenario::{CityId, CountryId, Scenario, RESOURCES};
use state::{State, Stock, KINDS, R};
use std::path::Path;

pub const ENDINGS: &[&str] = &["400 PV", "turn cap (most PV)"];
pub const TURN_METRICS: &[&str] = &["pv", "den", "men", "countries"];
/// Per-game columns before the per-major ones ([`Game::columns`]).
pub const GAME_COLUMNS: &[&str] = &[
    "battles",
    "assaults",
    "surrenders",
    "conquests",
    "revolts",
    "province_revolts",
    "revolts_suppressed",
    "provinces_freed",
    "revolt_men_lost",
    "province_gifts",
    "city_revolts",
    "capital_revolts",
    "deserted_men",
    "incursions",
    "landings",
    "naval_battles",
    "ships_lost_to_storms",
    "named_led_fights",
    "leaders_killed",
    "leaders_wounded",
    "leaders_promoted",
    "leaders_found",
    "treaties_signed",
    "treaties_extended",
    "treaties_broken",
    "wars_declared",
    "ambassadors_killed",
    "envoy_goods_given",
    "caravans_given",
    "provinces",
    "bought_from_partners",
    "major_treaties",
    "major_defensive_treaties",
    "caravans_bought",
    "caravan_trips",
    "caravan_den",
    "market_bought_den",
    "market_sold_den",
    "countries_sacked",
    "cities_sacked",
    "treasures_taken",
    "sacred_cities_sacked",
    "sack_den",
    "pillages",
    "pillage_den",
    "interceptions_tried",
    "interceptions_succeeded",
    "spying_bought",
    "counter_espionage_months",
    "assassinations_tried",
    "assassinations_succeeded",
    "warfleets_bought",
    "transports_bought",
    "pirate_fleets_bought",
    "ships_lost_in_battle",
    "naval_interceptions_tried",
    "naval_led_battles",
    "naval_leaders_found",
    "maritime_pillages",
    "maritime_pillage_den",
    "mercenaries_appeared",
    "mercenary_units_offered",
    "mercenaries_hired",
    "mercenary_units_hired",
    "mercenary_den",
    "mercenary_upkeep_den",
    "mercenaries_deserted",
    "mercenary_leaders",
    "mercenary_men_lost",
    "mercenary_casualties_moved",
    "partner_units_hired",
    "partner_hire_den",
    "protector_battles",
    "protector_wins",
    "lent_units",
    "lent_men_lost",
    "ships_damaged",
    "ships_boarded",
    "ships_taken_in_port",
    "ships_repaired",
    "repair_groups",
    "repair_den",
    "ships_crewed",
    "crewing_den",
    "recruiters_sent",
    "centre_hires",
    "centre_units_hired",
    "centre_units_delivered",
    "centre_den",
    "centre_host_pob",
    "leagues_formed",
    "leagues_ended",
    "route_member_collections",
    "route_den",
    "route_goods",
    "route_caravan_trips",
    "route_caravan_goods",
    "route_piracies",
    "route_pirate_den",
    "merchant_fleets_bought",
    "merchant_trips",
    "merchant_route_trips",
    "merchant_den",
    "merchant_route_goods",
    "merchant_calls",
    "merchant_call_den",
    "merchant_ships_lost",
    "merchant_fleets_sunk",
    "merchant_man_lost",
    "merchant_den_lost",
    "fishing_fleets_bought",
    "fishing_fleet_months",
    "fishing_com",
    "fishing_den",
    "fishing_ships_lost",
    "leaders_captured",
    "leaders_executed",
    "ransoms_paid",
    "ransom_den",
    "persuasions_tried",
    "persuasion_den",
    "leaders_persuaded",
    "persuaded_lost",
    "captives_freed",
    "works_started",
    "works_finished",
    "works_den",
    "works_output",
    "colony_collections",
    "naval_battles_refused",
    "roads_started",
    "roads_built",
    "wall_hexes_built",
    "major_works_started",
    "major_works_built",
    "prospecting_tries",
    "veins_found",
    "militia_calls",
    "militia_conquered_calls",
    "siege_engines",
    "levies",
    "levy_pob",
    "militia_months",
    "militia_men_lost",
    "militias_destroyed",
    "republican_militia_fights",
    "republican_militia_men_lost",
    "republican_militia_men_recovered",
    "republican_militia_disbands",
    "king_months_abroad",
    "treasure_den",
    "forced_marches",
    "forced_pm",
    "fatigued_marches",
    "mounts_bred",
    "convoys_bought",
    "convoys_lost",
    "starved_men",
    "marches_held_back",
    "foraged_com",
    "wood_upkeep_paid",
    "constructions_collapsed",
    "slaves_taken",
    "slaves_freed",
    "slaves_on_works",
    "cities_destroyed",
    "own_cities_destroyed",
    "roads_destroyed",
    "works_destroyed",
    "wall_hexes_destroyed",
    "constructions_destroyed",
    "man_destroyed",
    "pob_enslaved",
    "word_units",
    "word_den",
];
/// The §1.4 proxies, one column per major each.
pub const PROXIES: &[&str] = &["cities", "countries_conquered", "wealth", "army_factors"];
/// Rebellion index of a country at the start (digest §4.16: rural zone 1,000).
pub const START_IDR: i32 = 1000;

/// One kind of unit a country raises: its battle-code unit, quality, morale and what it costs.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    pub unit: u8,
    pub code: &'static str,
    pub men: f64,
    /// 0 = A … 3 = D.
    pub morale: usize,
    pub regular: bool,
    /// Combat factor of one unit on battle terrain 1, morale multiplier included (target shortlist).
    pub factor: f64,
    pub movement: u32,
    /// Resources per unit (POB = its men; DEN = its morale cost, digest §3.1.3-§3.1.4).
    pub cost: Stock,
}

impl Kind {
    /// Battle-code unit `unit` (index into `data().units`) raised at `morale` (0 = A) and quality.
    pub fn new(unit: u8, morale: usize, regular: bool) -> Kind {
        let d = data();
        let lu = &d.units[unit as usize];
        let mut cost = [0i64; R];
        for (name, v) in &lu.cost {
            if let Some(r) = RESOURCES.iter().position(|x| x == name) {
                cost[r] = *v as i64;
            }
        }
        let morale_cost = if regular {
            &d.morale.cost.regular
        } else {
            &d.morale.cost.irregular
        };
        cost[scenario::DEN] += morale_cost[morale] as i64;
        Kind {
            unit,
            code: lu.code.as_str(),
            men: lu.men as f64,
            morale,
            regular,
            factor: d.factor(&lu.code, 1).unwrap_or(0.0) * d.morale.elite.factor_multiplier[morale],
            movement: lu.movement,
            cost,
        }
    }
}

/// Everything fixed for a set of games.
pub struct Game {
    pub scenario: Scenario,
    pub start: State,
    pub players: Vec<String>,
    pub labels: Vec<String>,
    pub majors: Vec<CountryId>,
    /// Per country: its index among the majors, u8::MAX for the referee's countries.
    pub major_index: Vec<u8>,
    /// Per country: its player's policy, or the referee's script.
    pub policies: Vec<Policy>,
    /// Per country: plays at random.
    pub random: Vec<bool>,
    /// Per major: its search parameters if it is a search player (its policy is then the
    /// rollout policy).
    pub search: Vec<Option<SearchSpec>>,
    /// Per country: the kinds it raises (`nkinds` of them are real).
    pub kinds: Vec<[Kind; KINDS]>,
    pub nkinds: Vec<u8>,
    pub culture: Vec<Culture>,
    /// Per country: its first listed city (the capital), None for the Tribus.
    pub capital: Vec<Option<CityId>>,
    /// Per node: the battle-terrain hex name (data().terrain[..].hex) and the PM to enter it per hex.
    pub hex: Vec<&'static str>,
    /// Per node: the battle terrain of each 2D6 result, shifts included (index = the roll clamped
    /// to 1-12, A7; index 0 unused).
    pub terrain_of_roll: Vec<[u8; 13]>,
    /// Per country and kind: one unit's combat factors on battle terrains 1-10 (index 0 unused),
    /// its elite multiplier included (the commanders' terrain orders weigh them).
    pub factors: Vec<[[f64; 11]; KINDS]>,
    pub pm: Vec<u32>,
    /// Land routes: `next[a * n + b]` = the first node on the cheapest land path a → b
    /// (`u8::MAX`: unreachable by land); `cost[a * n + b]` its PM.
    pub next: Vec<u8>,
    pub cost: Vec<u32>,
    /// Land neighbours of each node (borders and straits), for target choice.
    pub neighbours: Vec<Vec<CountryId>>,
    pub turn_cap: u32,
    pub triangular_fort_pv: bool,
    pub civilized_max_fort: u8,
    pub yearly_feeding: bool,
    pub unfed_table: bool,
    /// DEN per unit at the black market's sale (per resource).
    pub sale: [f64; R],
    pub gift_cap_per_year: bool,
    /// Events rolled every month for every country (option random_events).
    pub events_rolled: bool,
    /// Weather rolled every month in every zone (option weather), else always clear.
    pub weather_rolled: bool,
    /// Currency events act on the treasury at once, not on the next collection's DEN.
    pub currency_on_treasury: bool,
    /// Winter and storm together ×4 movement costs (option winter_and_storm).
    pub winter_and_storm_both: bool,
    /// Option `wall_crossing`: a closed frontier wall costs others +2 PM to cross (`walls.rs`).
    pub wall_crossing: bool,
    /// The king commands wherever he is present (option commanding_leader, A45).
    pub king_commands_first: bool,
    /// Where the king stands away from home (option king_abroad, L4336).
    pub king_abroad: king_abroad::Reading,
    /// What increasing a treasure scores (option treasure_pv, L4376).
    pub treasure_pv: treasures::Reading,
    /// A commander's tactical value counts only within his grand-unit limit (option
    /// leader_command_limit, A43).
    pub command_limit: bool,
    /// The country whose SPQR commands at home when it is attacked, with his tactical and
    /// strategic values (rulebook special rule spqr_and_republican_militia).
    pub spqr: Option<(CountryId, u8, u8)>,
    /// Same race = same culture, not the same cultural group (option same_race, A60).
    pub race_by_culture: bool,
    /// The first diplomacy roll reads 1-100, not 0-99 (option diplomacy_die, A54).
    pub diplomacy_die_from_one: bool,
    /// Breaking a treaty costs the table's -3/-4/-5, not -5 (option treaty_breach_pv, A51).
    pub breach_by_table: bool,
    /// Which reading of pressure backed by other countries is played (option backed_pressure).
    pub backing: envoy_gifts::Backing,
    /// The destruction rows' readings (options city_destruction_pv, man_destroyed).
    pub destruction: destruction::Rules,
    /// The black market's limits hold per month, twice a turn's (option black_market_limits, A53).
    pub market_per_month: bool,
    /// Per city: the DEN of its treasure to its first sacker (0: none), after option
    /// treasure_cities (A59).
    pub treasure: Vec<u32>,
    /// Land interception succeeds only on 7-10 (option interception_bands = literal, A36).
    pub interception_literal: bool,
    /// An assassination attempt costs the table's 0/-1/-2 PV, not -5 (option assassination_pv, A38).
    pub assassination_by_table: bool,
    /// The policies' war odds see a target's field army as their spies report it (option
    /// war_intelligence = spied).
    pub spied_intelligence: bool,
    /// A quarry adds 10% of the country's stone production (option quarry_output, A63), else
    /// nothing (and none is built).
    pub quarry_tenth: bool,
    /// The January wood upkeep of constructions (option wood_upkeep, L751).
    pub wood_upkeep: wood::Reading,
    /// Slaves on a work save it a month a lot, else 5% of its price (option
    /// slaves_on_works_effect, L833).
    pub slaves_save_months: bool,
    /// Prospecting finds veins by A64's proposal (option prospecting_result), else nobody tries.
    pub prospecting: bool,
    /// How an army abroad is fed: what it carries, or the home stock (option army_supply).
    pub supply: supply::Reading,
    /// Whether an army standing abroad forages too (option forage_standing).
    pub forage: forage::Reading,
    /// Road prices and months (options road_den_per_hex, road_pie_per_hex, road_months).
    pub roads: roads::RoadRules,
    /// A siege engine lowers the walls by its level (option siege_engine = "level", A23), else by 1.
    pub engine_full: bool,
    /// A siege engine is built on site, ready after its level in months (option
    /// siege_engine_time = "level-months"), not ready from the siege's start.
    pub engine_on_site: bool,
    /// Extra POB levies (options barbarian_extra_levy, extra_levy_idr).
    pub levy: levy::Rules,
    /// Enslaving POB (options enslave_idr, enslave_pob_loss).
    pub enslave: enslave::Rules,
    /// The referee's major constructions (options major_construction_*).
    pub major_works: major_works::Ruling,
    /// Rome's and Sparta's special populations (options special_city_pob, elite_cap).
    pub special: special::Ruling,
    /// Per row of the mercenaries' table: its kind.
    pub merc_kinds: Vec<Kind>,
    /// Mercenaries take at most 10% of their side's casualties where possible (option
    /// mercenary_casualties, L4522).
    pub merc_cap: bool,
    /// A band's upkeep falls due on its purchase's anniversary, not each January (option
    /// mercenary_upkeep).
    pub merc_upkeep_anniversary: bool,
    /// When a protector defends its partner (option reasonable_defence).
    pub reasonable_defence: alliances::Reasonable,
    /// A war between two members closes their route for the game, not only while it lasts
    /// (option league_war).
    pub league_war_dissolves: bool,
    /// A route city taken from its country closes the route for the game (option
    /// route_conquest); by default its holder takes the country's place in the league.
    pub route_conquest_closes: bool,
    /// The pirates' controller gets all their 30% of a route's profits, not half (option
    /// route_piracy_loot).
    pub route_loot_all: bool,
    /// Trade by sea: the majors' sea paths and the options it reads (`sea_trade.rs`).
    pub sea: sea_trade::SeaRules,
    /// When a beaten named leader is taken (option leader_capture; `captives.rs`).
    pub leader_capture: captives::CaptureRule,
    /// The militia's kind and rule options (`militia.rs`).
    pub militia: militia::Rules,
    /// Rome's Republican militia's nation, numbers and options (`republican_militia.rs`).
    pub republican: republican_militia::Rules,
    /// Revolts' options (`revolt.rs`).
    pub revolt: revolt::Rules,
    /// A49's readings of the forced-march table (`forced_march.rs`).
    pub forced_march: forced_march::Rules,
    /// The units mount breeding speeds (option mount_breeding_units, `mounts.rs`).
    pub bred: mounts::Bred,
    /// Where colonies may stand and what becomes of them (options colony_hosts, colony_conquest).
    pub colonies: colonies::Rules,
    pub options: Options,
    pub columns: Vec<&'static str>,
}

/// PM to enter a node, per hex of the leg, by hex terrain (digest §4.12).
pub const TERRAIN_PM: [(&str, u32); 6] = [
    ("plain", 1),
    ("desert", 2),
    ("forest", 2),
    ("rough", 3),
    ("hills", 4),
    ("mountain", 5),
];

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    let f = &setup.fields;
    f.only(&["scenario", "policies"])?;
    let scenario = match f.string("scenario")? {
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
    let players: Vec<String> = scenario
        .majors
        .iter()
        .map(|&c| scenario.countries[c as usize].name.clone())
        .collect();
    let empty = toml::Table::new();
    let keys = crate::game::summary::player_keys(&players);
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "scripted")?;
    let search: Vec<_> = chosen.iter().map(|c| c.policy.search).collect();
    let (policies, labels): (Vec<_>, Vec<_>) = chosen
        .into_iter()
        .map(|c| (c.policy.policy, c.label))
        .unzip();
    let mut game = Game::new(scenario, &setup.options, labels, policies);
    game.search = search;
    Ok(Box::new(game))
}

impl Game {
    pub fn new(
        scenario: Scenario,
        options: &Options,
        labels: Vec<String>,
        player_policies: Vec<Policy>,
    ) -> Game {
        let d = data();
        let n = scenario.countries.len();
        let majors = scenario.majors.clone();
        let mut policies = vec![Policy::Scripted(Scripted::referee()); n];
        for (p, &c) in majors.iter().enumerate() {
            policies[c as usize] = player_policies[p];
        }
        let mut kinds = Vec::with_capacity(n);
        let mut nkinds = Vec::with_capacity(n);
        let mut kind_units = Vec::with_capacity(n);
        for c in 0..n {
            let blank = Kind {
                unit: u8::MAX,
                code: "",
                men: 0.0,
                morale: 2,
                regular: false,
                factor: 0.0,
                movement: u32::MAX,
                cost: [0; R],
            };
            let mut ks = [blank; KINDS];
            let mut units = [u8::MAX; KINDS];
            let mut k = 0;
            for u in &scenario.start[c].units {
                if k == KINDS || units[..k].contains(&u.unit) {
                    continue;
                }
                ks[k] = Kind::new(u.unit, u.morale as usize, u.regular);
                units[k] = u.unit;
                k += 1;
            }
            kinds.push(ks);
            nkinds.push(k as u8);
            kind_units.push(units);
        }
        let culture: Vec<Culture> = scenario.countries.iter().map(|c| c.culture).collect();
        let capital = scenario
            .countries
            .iter()
            .map(|c| (!c.cities.is_empty()).then_some(c.cities.start))
            .collect();
        let hex: Vec<&'static str> = scenario
            .nodes
            .iter()
            .map(|node| d.terrain[node.terrain as usize].hex.as_str())
            .collect();
        let terrain_of_roll = hex
            .iter()
            .map(|h| {
                let mut columns = [1u8; 13];
                for (roll, column) in columns.iter_mut().enumerate().skip(1) {
                    *column = d.battle_terrain(h, roll as i32).unwrap_or(1) as u8;
                }
                columns
            })
            .collect();
        let factors = kinds
            .iter()
            .map(|ks: &[Kind; KINDS]| {
                ks.map(|k| {
                    let mut f = [0.0; 11];
                    if k.unit != u8::MAX {
                        for (column, x) in f.iter_mut().enumerate().skip(1) {
                            *x = d.factor(k.code, column).unwrap_or(0.0)
                                * d.morale.elite.factor_multiplier[k.morale];
                        }
                    }
                    f
                })
            })
            .collect();
        let pm: Vec<u32> = scenario
            .nodes
            .iter()
            .map(|node| {
                let name = d.terrain[node.terrain as usize].name_en.as_str();
                TERRAIN_PM.iter().find(|t| t.0 == name).map_or(1, |t| t.1)
            })
            .collect();
        let neighbours: Vec<Vec<CountryId>> = (0..n)
            .map(|a| {
                scenario
                    .links(a as CountryId)
                    .iter()
                    .filter(|l| !l.sea)
                    .map(|l| l.to)
                    .collect()
            })
            .collect();
        let roadless =
            roads::land_routes(&scenario, |_, i| roads::leg_pm(&scenario, &pm, i, false));
        let (next, cost) = (roadless.next, roadless.cost);
        let random: Vec<bool> = policies.iter().map(|p| *p == Policy::Random).collect();
        let mut sale = [1.0; R];
        sale[scenario::POB] = 0.0;
        sale[scenario::DEN] = 1.0;
        let buying = options.choice("black_market_sale") == "buying-price";
        for r in 2..R {
            let special = matches!(RESOURCES[r], "esc" | "ele");
            sale[r] = match (buying, special) {
                (false, false) => 1.0,
                (false, true) => 3.0,
                (true, false) => trade::price_per_ten(r, false) as f64 / 10.0,
                (true, true) => trade::price_per_ten(r, false) as f64 / 30.0,
            };
        }
        let mut columns: Vec<&'static str> = GAME_COLUMNS.to_vec();
        for &c in &majors {
            let key =
                crate::game::summary::player_keys(&[scenario.countries[c as usize].name.clone()])
                    .remove(0);
            for source in pv::SOURCES {
                columns.push(crate::game::column_name(format!("pv_{source}_{key}")));
            }
            for proxy in PROXIES {
                columns.push(crate::game::column_name(format!("{proxy}_{key}")));
            }
        }
        let mut major_index = vec![u8::MAX; n];
        for (p, &c) in majors.iter().enumerate() {
            major_index[c as usize] = p as u8;
        }
        let mut start = state::initial(&scenario, &kind_units, START_IDR);
        let republican_rules = republican_militia::Rules::new(&scenario, options);
        start.republican = republican_militia::initial(&republican_rules);
        start.relations = diplomacy::initial(&scenario, &major_index);
        Game {
            players: majors
                .iter()
                .map(|&c| scenario.countries[c as usize].name.clone())
                .collect(),
            labels,
            search: vec![None; majors.len()],
            majors,
            major_index,
            policies,
            random,
            kinds,
            nkinds,
            culture,
            capital,
            hex,
            terrain_of_roll,
            factors,
            pm,
            next,
            cost,
            neighbours,
            turn_cap: options.int("game_turn_cap") as u32,
            triangular_fort_pv: options.choice("fortification_pv") == "triangular",
            civilized_max_fort: options.int("civilized_max_fortification") as u8,
            yearly_feeding: options.choice("population_feeding") == "yearly",
            unfed_table: options.choice("unfed_population_pv") == "table",
            sale,
            gift_cap_per_year: options.choice("gift_cap_period") == "year",
            events_rolled: options.choice("random_events") == "every-country",
            weather_rolled: options.choice("weather") == "rolled",
            currency_on_treasury: options.choice("currency_events") == "treasury",
            winter_and_storm_both: options.choice("winter_and_storm") == "both",
            wall_crossing: options.choice("wall_crossing") == "plus-two",
            king_commands_first: options.choice("commanding_leader") == "king-first",
            king_abroad: king_abroad::Reading::from_option(options.choice("king_abroad")),
            treasure_pv: treasures::Reading::from_option(options.choice("treasure_pv")),
            command_limit: options.choice("leader_command_limit") == "grand-units",
            spqr: spqr(&scenario),
            race_by_culture: options.choice("same_race") == "culture",
            diplomacy_die_from_one: options.choice("diplomacy_die") == "one-to-100",
            breach_by_table: options.choice("treaty_breach_pv") == "table",
            backing: envoy_gifts::Backing::from_option(options.choice("backed_pressure")),
            destruction: destruction::Rules::from_options(
                options.choice("city_destruction_pv"),
                options.choice("man_destroyed"),
            ),
            market_per_month: options.choice("black_market_limits") == "per-month",
            treasure: treasures(
                &scenario,
                options.choice("treasure_cities") == "other-namesake",
            ),
            interception_literal: options.choice("interception_bands") == "literal",
            assassination_by_table: options.choice("assassination_pv") == "table",
            spied_intelligence: options.choice("war_intelligence") == "spied",
            quarry_tenth: options.choice("quarry_output") == "ten-percent",
            wood_upkeep: wood::Reading::from_option(options.choice("wood_upkeep")),
            slaves_save_months: options.choice("slaves_on_works_effect") == "month",
            prospecting: options.choice("prospecting_result") == "a64-vein",
            supply: supply::Reading::from_option(options.choice("army_supply")),
            forage: forage::Reading::from_option(options.choice("forage_standing")),
            roads: roads::RoadRules {
                den_per_hex: options.int("road_den_per_hex"),
                pie_per_hex: options.int("road_pie_per_hex"),
                months_as_terrain: options.choice("road_months") == "terrain-pm",
            },
            major_works: major_works::Ruling::new(options),
            special: special::Ruling::new(options),
            levy: levy::Rules::new(options),
            enslave: enslave::Rules::new(options),
            engine_full: options.choice("siege_engine") == "level",
            engine_on_site: options.choice("siege_engine_time") == "level-months",
            merc_kinds: scenario
                .mercenaries
                .rows
                .iter()
                .map(|r| Kind::new(r.unit, r.morale as usize, r.regular))
                .collect(),
            merc_cap: options.choice("mercenary_casualties") == "capped",
            merc_upkeep_anniversary: options.choice("mercenary_upkeep") == "anniversary",
            reasonable_defence: alliances::Reasonable::from_option(
                options.choice("reasonable_defence"),
            ),
            league_war_dissolves: options.choice("league_war") == "dissolves",
            route_conquest_closes: options.choice("route_conquest") == "closes",
            route_loot_all: options.choice("route_piracy_loot") == "all",
            sea: sea_trade::SeaRules::new(&scenario, &scenario.majors, options),
            leader_capture: captives::CaptureRule::from_option(options.choice("leader_capture")),
            militia: militia::Rules::new(options),
            republican: republican_rules,
            revolt: revolt::Rules::new(options),
            forced_march: forced_march::Rules::new(options),
            bred: mounts::Bred::from_options(options),
            colonies: colonies::Rules::from_options(options),
            options: options.clone(),
            columns,
            start,
            scenario,
        }
    }

    /// Index into `scenario::CULTURES` of country `c`'s culture.
    pub fn culture_index(&self, c: CountryId) -> usize {
        scenario::culture_index(self.culture[c as usize])
    }

    pub fn men_per_unit(&self, c: CountryId) -> [f64; KINDS] {
        self.kinds[c as usize].map(|k| k.men)
    }

    /// Highest fortification level country `c` may build (digest §4.7, §4.18).
    pub fn max_fort(&self, c: CountryId) -> u8 {
        match self.culture[c as usize] {
            Culture::Barbarian => 4,
            Culture::Mixed => 6,
            Culture::Civilized => self.civilized_max_fort,
        }
    }
}

/// Each city's treasure (digest §5.5). A59: the list's "Tebas" and "Alejandría" name two cities
/// each; the scenario gives the treasure to the one its note reads (Medio Egipto's Tebas, Egipto's
/// Alejandría); with `other_namesake` it goes to the other city of the same name (Greek Tebas,
/// Sagartia's Alejandría).
pub fn treasures(s: &Scenario, other_namesake: bool) -> Vec<u32> {
    let mut out: Vec<u32> = s.cities.iter().map(|c| c.treasure).collect();
    if !other_namesake {
        return out;
    }
    let fold = |name: &str| -> String {
        name.chars()
            .map(|ch| match ch {
                'á' | 'Á' => 'a',
                'é' | 'É' => 'e',
                'í' | 'Í' => 'i',
                'ó' | 'Ó' => 'o',
                'ú' | 'Ú' => 'u',
                _ => ch.to_ascii_lowercase(),
            })
            .collect()
    };
    for t in s.treasures.iter().filter(|t| t.note.is_some()) {
        let Some(city) = t.city else { continue };
        let name = fold(&s.cities[city as usize].name);
        let other =
            (0..s.cities.len()).find(|&j| j != city as usize && fold(&s.cities[j].name) == name);
        if let Some(j) = other {
            out[city as usize] -= t.den.min(out[city as usize]);
            out[j] += t.den;
        }
    }
    out
}

/// The SPQR of the rulebook's special rule: the first country it names and his values.
fn spqr(s: &Scenario) -> Option<(CountryId, u8, u8)> {
    let rule = "spqr_and_republican_militia";
    let flag = s.special.flag(rule)?;
    let c = (0..s.countries.len() as CountryId).find(|&c| flag.who.contains(c))?;
    let value = |key| s.special.number(rule, key).map(|v| v.clamp(0.0, 5.0) as u8);
    Some((c, value("leader_tactical")?, value("leader_strategic")?))
}

/// What this engine does not play yet, said in every run's summary (never silent).
pub const SIMPLIFICATIONS: &[&str] = &[
    "not played: pirates hired as mercenaries at sea, treaties between majors other than the equal-terms trade treaty and the defensive military treaty of the policies' major_treaties and major_defence (no non-aggression pact, advantageous trade, client or associated state between majors), the referee's countries' own diplomacy, the help a client or associate owes its protector when the protector is attacked and an associate's 10% used freely (L470), offensive treaties, services (roads built for a referee's country) and loans (of ships) as an envoy's gifts (the referee's countries build nothing and make no moves a road or a lent ship would serve on the region graph), ships as an envoy's military material (fleets are a major's own; only caravans are given), ties between competing bidders (each proposal is rolled and settled alone: no two majors' rolls meet), bribes (no numbers given), pirates attacking merchant fleets at sea (the digest gives no numbers: no loot, no chance to meet a fleet between ports on a graph without sea hexes), merchant and fishing fleets taken with a port (they are lost with their home), repairs of merchant and fishing ships, river fishing (no rivers on the region graph), the products traded by caravans within a member's zone of control on a route (L933: no zones of control on the region graph), the plunder of routes other than the pirates' 30% (no numbers given), the referee's countries' trade, trade in goods between countries other than client and associated states' sales, the plunder of caravans, crews' wages, naval moves other than an army's crossing to an overseas target and the pirates' raids, convoys other than one field army's (a convoy shuttling alone from home, an assault on a convoy without its army), a barbarian country's sack of itself (L4404, L4108: only for a logical cause; no policy here sacks its own land), the sack of a city by unpaid deserters (L4070), militia paid to rebel (L1872), constructions other than the capital's walls, the works and the roads below (a policy destroying roads, ports, naval bases, shipyards, colonies or frontier walls, or its own constructions: destruction.rs plays the rule for every construction, L3716-L3720; a second port raising a coast's port importance, which the graph keeps by culture; the free port of L3854; colonies on trade routes, L945), slaves on the walls, roads and major constructions, galley slaves (+4 PM a fleet, L833, A67: a crossing takes a month whatever the PM), enslaving POB for a black-market sale or to free the slaves (the policy enslaves only for its works), buying slaves at the black market, guards (§4.5.4: no nation raises one on the graph, so Rome's praetorian guard, Roman A only and bound to its province, needs no play: Roma's Roman A troops fight in its morale mix, special.rs, and its home garrison never leaves home) and the wages of the special populations' recruits at their cost classes (they are paid at their kind's printed morale cost)",
    "events (§4.14, option random_events): rolled every month for every country (A55); the collection events act on the next collection of the country's land, whoever holds it (famine COM x0.5; bad and good harvests 1D6 x 10% of COM (A56); prosperity and hard times DEN x2 and x0.5; devastation x0.95 but POB; militarist and antimilitarist campaigns POB x1.2 and x0.8; plague POB x0.9 and each unit there dies on a 1 in 1D10; immigration +125 POB and a quarter of one city's DEN; currency events by option currency_events); natural disaster: a random city's walls fall to 0 (cities and ports are not separate works here); return home: 1D6 units of the country's first kind join it if it pays a half-year's wages for them and can feed them; armed incursion: 2D6 units of a neighbouring referee country's first kind fight a major's home army in the field through the battle code (an undefended home suffers a month of invasion; the referee's countries' incursions are not fought); political crisis: its §4.19 row only (the ruler is always at the capital); death of a leader: a random named leader of the country dies; new leader: one rolled on the new-leader tables joins it (if it has fewer than 4); military intelligence and technical advance have no effect (technology is not played; the event's intelligence is not a bought report)",
    "leaders (§4.13): every country starts with one named leader, its king (abstraction.toml [leaders], placeholder: by culture), and holds at most 4; the policy sends one with the field army when it marches (policy parameter king_commands: the king or the best other), the rest command at home (the garrison, and the field army when it stands at home); the one in command is the king where he is present, else the best (option commanding_leader, A45); an army with no named leader is led by its grand units' unnamed 0-0; in Roma the SPQR 2-2 commands whenever it is attacked at home, his Republican militia beside him (republican_militia.rs, below); a commander brings the battle code his tactical value on the leadership table (only within his grand-unit limit, option leader_command_limit, A43: beyond it the whole side fights on 0, the battle code having one value a side), his class (cavalry +1 pursuit, archers, chariots), the king +0.5 morale (the king always fights), and his strategic value on the flank and on the terrain roll: each side orders +s, -s or nothing, whichever gives it the best expected factor ratio over the 2D6 (the other's order taken as nothing); after a fight, death, wounds (1D6 months at home) and promotion at the battle code's chances (digest D7, D8), a promoted unnamed leader named 1-0 or 0-1; a dead king's best living leader succeeds him and a nation left without named leaders gets a free one (L2196); searches: 100 DEN a turn while the policy wants more leaders (leaders_wanted), 2D6 >= 10, then the tables (the found leader's class is [leaders] found_kind); captures (captives.rs): a named leader alive after a lost land fight is taken by the winner by option leader_capture (default: his side exterminated, overrun or surrendered; a raiding band takes nobody; none at sea), and a fallen country's leaders at home by its conqueror; a captured king is succeeded as a dead one (L5327); once a turn, before the searches, each captor persuades a captive of a country it conquered (not its king, not after any sack there: the atrocity; one attempt, 2D6 + 1 per 500 DEN of policy persuasion_den >= 10; he then commands only the occupation troops of his old country and leaves its service if it is lost), else executes him if his leadership reaches policy execute_leadership (no PV: §4.19 has no row), else his nation ransoms him at 1,000 DEN a point of his higher value if it reaches policy ransom_leadership and its DEN allow (the captor must accept; the DEN pass between them); the referee's countries ransom and hold by the scripted defaults and never persuade (they never conquer); captives of a nation that loses its home go free; at most 4 leaders a nation, captives in their slots: a leader whose capture would leave his nation no serving leader and no free slot gets away; tactics are not learned",
    "weather (§4.15, option weather): each zone's 1D6 every month; storm and snow double the PM of entering a node of that zone (winter too: x4 together, or x2 with option winter_and_storm = once) and halve combat factors, rain is -1 to combat and pursuit rolls, through the battle code; the policies' odds assume clear weather; elephants and camels do not suffer the cold zones (L5781 not played); storms at sea by the weather (see fleets)",
    "fleets and landings (§3.5, §3.6, §4.15): every coastal country with cities starts with the scenario's fleets (abstraction.toml [start], placeholder), in its home port; a country out of reach by land on a sea lane from a major's home port is an overseas target (the policy's overseas weight on its shortlist score); the army crosses in one month with what the warfleets and transports carry (2 land units per FT fleet, 5 per FTR; the rest stays home), every fleet sailing risks a storm (the battle code's storm_loss_chance: the worse weather of the lane's two ends, winter, the Atlantic or Indian ocean) and loses 1D10 ships with the troops aboard them; the target's holder intercepts at its home (distance 0) with its fleets on 1D6 + its naval leader's leadership (option naval_interception_value, tactical by default) judged by option interception_bands (A36), and the naval battle is one play of the battle code's naval combat (ram, regular C crews, pirates irregular D, each side's best naval leader's tactical value on the leadership table; ships put out of action are split between warfleets and transports by their ships and settled as under damaged ships and captures; PV by the fleets' ram factors); a lost naval battle sends the army home; the first fight ashore is a landing through the battle code (landing::convert to infantry, a tenth of the warfleets' ram factors beside it), and landings are at a port (the region graph has no coast hexes: the naval leader's roll off port, A34, is not needed); the army sails home the same way",
    "damaged ships, repairs and captures (§3.5.3, §3.5.5, L2459, L2695-L2699): of the ships a naval battle puts out of action (the battle code's losses), those boarded go to the enemy uncrewed (A32, option boarding_captures: only the loser's, to the winner, by default), the rest of a side whose fleet survived are damaged in its home port (A29, option naval_losses) and the others sunk; every country holding its home port repairs its policy's repair_ships share of its damaged ships each turn (per group of up to 3 ships: 1/10 of the fleet's DEN cost, 1/3 of its MAD and MET, 1/4 of its crew's POB, each rounded up, and the crew's morale cost by option repair_morale) and crews that share of its captured ships (their share of a regular C crew's morale cost only), within its DEN above its reserve and wages; repaired and crewed ships sail at once; a home port taken by conquest gives every ship in it (damaged and uncrewed too) to the taker, uncrewed; the army aboard ships put out of action is lost with them (damaged or not); a taker without a home port keeps its captured ships uncrewed",
    "recruitment centres (§4.5.9 method 1): a major whose policy's recruitment_centre is above 0 (default 0; the tuner's range is 0-1) hires once a turn in the country with the most POB available among those whose treaty with it grants permission (option recruitment_permission: any treaty by default) and that hold their home: a recruiter (100 DEN and 1 CAB, or CAM) once per centre (at most 2 centres), then as many units of the host's strongest kind (its own quality and morale) as its share of its spare DEN pays at +50% DEN and -50% MET (other resources as printed), up to the host's one-collection POB, the men taken from the host's POB on hand; they join its field army as a mercenary band (upkeep, battle behaviour and casualty cap as the auctioned bands) 2 turns later (option recruitment_wait), and it hires there again 2 turns after the hire; the referee's countries never hire; the recruiter's own travel and the choice of morale are not played",
    "spreading the word (§4.5.9 method 2, L4536; word.rs): a major whose policy's spread_word is above 0 (default 0; tuner range 0-1) raises, after its own purchases, the 200 POB a turn that arrive from each country bordering its home (its node's land neighbours, whoever holds them; men from abroad, not its POB: those it does not raise go elsewhere) as units of its strongest kind at morale C (mixed into the kind's morale classes, special.rs), each at +25% of its DEN cost at morale C (the kind's base DEN and C's morale cost, rounded up) and its printed metal and other resources, within that share of its DEN above its reserve and the units' first wages, the mouths it can feed and its own units (never more word recruits in a turn than units of its own, so they never fight unbacked and the text's unreliability needs no rule); wages at the kind's printed morale cost; counters word_units, word_den",
    "fleet purchases and naval leaders (§3.1.3, §4.5.1, §4.13): a major with its home port buys, before its land recruits and when nothing is on its stocks, the warfleets (policy warfleets_per_city), transports (FTR, transports) and pirate fleets (pirate_fleets) it lacks at the printed cost (POB, DEN, MET, MAD: the wood) and the crews' morale cost (regular C; pirates irregular D), keeping its DEN reserve and wages, at most 30 ram factors on the stocks per home city or built port, twice that in a naval base (L2691); they join the port after the crews' training + 3 months (4, pirates 3) or are lost if the port has fallen; the referee's countries never buy fleets; a nation keeps up to 2 naval leaders (none at the start), found by the turn's leader search (100 DEN, 2D6 >= 10, the new-leader tables) stated naval while its policy's naval_leaders_wanted exceeds them by at least the land leaders it lacks; they do not die, are not wounded or promoted (the naval battle reports no leader risk), and command only at sea",
    "pirates (§4.5.6, §3.9): a major's pirate fleets, when there are 10 in its port, sail once a turn (first month) to the sea-lane neighbour of its home whose pillage pays it most, if half the loot is worth pillage_den_per_pv DEN per PV of the pillage row; storms both ways; the holder's fleets at its home intercept as for a crossing and fight them (morale D); with 10 fleets still afloat they land and pillage as a land pillage does (1% of one collection's production rounded up taken, 1% of the holder's next collection destroyed), the controller gets half the loot (they put in at its port, L1884) and the pillage row; attacking a treaty partner breaks no treaty (the pirates are not recognised)",
    "diplomacy (§4.10): each turn a major sends its policy's envoys (one proposal each) to the referee's countries it borders (automatic, L674) or reaches by a sea lane from home (an ambassador: 1 POB, 1 CAB, 100 DEN, 25 DEN each January, delivered the same turn); it courts first the country without a treaty with the best standing modifier, else the weakest treaty; first roll d100 (option diplomacy_die, A54) + same race +5 / different -5 (option same_race, A60) + bordering +2, first time -5, +5 per 3 turns in a row, +5 with a treaty, -5 per envoy beaten and -10 per envoy killed there (never avenged), the policy's gifts (envoy_gifts.rs), each worth at black-market sale value (option black_market_sale) and mapped linearly: DEN (envoy_gift: +1 per full 100 above 200, at most +10), food then metal (envoy_food_metal: the same, from the food beyond the next feeding and metal no troops use), other products (envoy_goods: PIE, MAD, CAB, CAM, MAN beyond what it keeps, +1 per full 100 above 200, at most +9) and military material (envoy_caravan: an idle empty caravan at home, 350 DEN: +1 from 100, +1 per full 100 above, at most +15: +3), all given on an audience (a caravan leaves its trade), lost with a killed envoy, else brought back; pressure (0 to +10; as much against when the natural roll is 50 or less); backed pressure when the policy asks for it (backed_pressure): its partners of a defensive treaty or better (clients, associates, majors bound by major_defence) holding their homes and bordering the target or on a sea lane to it, by option backed_pressure (\"partners\" +5 each, \"armies\" +1 per full 1,000 men of theirs, or \"none\"), at most +20, and at a natural roll of 50 or less as much against, at most -10; counters envoy_goods_given, caravans_given; the digest's bands (war, downgrade, killed, beaten, expelled, not received, audience) and the unmodified second roll's treaty; a new treaty +1 PV to each side (+25 IDR), a better one an extension (+0.5 PV: every second scores 1, +10 IDR), at most 15; treaty partners do not march on each other (the policy's break_treaties lets a major march on one: the treaty is broken, -5 PV by option treaty_breach_pv, A51, and war); client and associated states sell their partner up to 50% and 75% of their production of COM, MET, MAD, PIE and MAN at 1 DEN a unit after each collection (food only beyond their own next feeding), delivered at once; a province joins its partner with its stock and yields in full (its troops disband); war closes talks for the game; the referee's countries never break a treaty (L4060) and start none but the Seleucid satrapies' commercial treaties with Babilonia (L4560); two majors whose policies both offer treaties to majors (major_treaties, default off) and that border each other, share a sea lane from home or of which one keeps an ambassador sign an equal-terms trade treaty (+1 PV each; bound like any treaty; their caravans may sell in each other's cities), or a defensive military treaty where both policies' major_defence offer one (a trade treaty between them raised to it: an extension), under which each defends the other as a protector (partners in war)",
    "trade (§4.9): the majors only (the players, L963); each turn, before the purchases, a major sells its policy's share (market_sell) of its surplus to the black market (resources none of its unit kinds costs, beyond the walls' stone its policy still wants and the caravans' wood and animals; never COM; MAN only without caravans or merchant fleets) at the sale value of option black_market_sale (A52), then buys with its policy's share (market_buy) of its spare DEN what that turn's recruits lack, at the printed buying prices, each resource at most its printed limit bought and as much sold per turn (option black_market_limits, A53; CAB and CAM one limit), delivered at once; it keeps its policy's caravans (50 POB, 50 DEN, 200 MAD, 100 CAB or CAM each) and sends each one at home with up to 5 lots of 100 MAN by land, 8 PM a month (no winter or weather), to the referee's country with a trade treaty (equal-terms or better) whose city pays most per month of the trip: the land table's band by the route's hexes times the city's commercial importance (abstraction.toml [trade], placeholder: by culture), a lot sold a month, the receiver a third more; the money is banked when the caravan is home (lost if its home has fallen); a receiver that falls or goes to war sends it home with the rest",
    "trade by sea and fishing (§4.9, L857-L920, L927, L5225, §6.11 L1062-L1110; sea_trade.rs): a major with its home port buys the merchant fleets (FC: 100 POB, 100 DEN, 150 MAD) and fishing fleets (FP: 200 POB, 50 DEN, 125 MAD) its policy keeps (merchant_fleets, fishing_fleets) within its DEN above reserve and wages, in port 3 months later (L1734); the referee's countries buy none; a merchant fleet at home loads up to 5 lots of 100 MAN (fewer as storms thin it: 2,000 cargo points, a tenth a ship) before or after the caravans (policy ships_first) and sails over the sea lanes, and along a land edge whose nodes touch a common sea (abstraction.toml [sea_trade] coastal_legs, assumed), at 26 hexes a month, to the port of a trade-treaty partner (equal-terms or better) that pays most a month of the trip: the sea table's band by the path's hexes (option sea_manufactures_41, A54b) times the port's importance (abstraction.toml [sea_trade], placeholder: by culture), a lot sold a month, the receiver a third more; or it sails an open trade route's sea legs from its home's route city for 25 points a sea hex (at most 1,000) in the product the black market prices highest; money, goods and unsold MAN are banked at home; Cartago's and Atenas's fleets earn 10 DEN a call at a port they do not hold (each foreign port on the path out and back, the destination once; option merchant_call_bonus: per fleet or per ship), carried home; every month at sea (merchants out and back, fishers out) a fleet risks the battle code's storm (the worse weather of the trip's ends, winter, the ocean, +1 after its first month out) and loses 1D10 ships, a merchant fleet that share of its cargo and all of it with its last ship; fishing fleets fish 5 months and rest 1, each fleet-month the table's COM or DEN (policy fish_for_den) of the richest sea its home touches, rain -1 COM (-12 DEN), storm and snow -2 (-24); a nation whose home falls loses its merchant and fishing fleets and their cargo",
    "trade routes (§4.9, L924-L953): the map's routes are missing, so abstraction.toml [trade_routes] gives a few, assumed (route cities in at least 3 countries, legs over the region graph's land borders, roads taken to exist, or sea lanes between ports, 3 products of which 2 the end countries produce); a route's commercial league stands while every holder of a route city is a member: a major by its policy's trade_leagues, a referee's country by a trade treaty (equal-terms or better) with a major member (the referee's countries make no treaties among themselves, so a route needs a major), at least 3 distinct members, none at war with another (option league_war: the route suspended or dissolved; a conqueror takes its victim's place or closes the route, option route_conquest); the coinage technology is missing and taken as known; a league formed is a treaty signed (+1 PV to each member); each collection every member earns 100 DEN and 100 of each route product; a member major's caravan may travel the route from its home's route city along the land legs instead of selling manufactures (the better worth a month at black-market buying prices): 50 points a hex from the previous route city, at most 1,000, in the product the black market prices highest, earned at the last city if the league still stands and banked at home; a major's pirate fleets (policy route_piracy, at least one in port, a sea lane from home to a sea leg's end, not a member; the most fleets first) sail out through the storms at each collection and take 30% of the league's profits, their controller half of it (option route_piracy_loot)",
    "region graph (digest §6.2): one node per country; an army crosses a leg by paying hexes x the entered node's terrain PM (+ the strait's PM) from its slowest unit's monthly allowance, halved (rounded up) on a road, doubled cost in winter; every land move (armies, interceptors, caravans, trade routes' legs, messengers, mercenaries' reach) follows the cheapest land path, roads counted; passage through third countries is free; armies meet only at their target; sea lanes carry only the crossings of fleets and landings",
    "armies: each country has one field army, a garrison in its capital and recruits in training (operational next turn); the unit kinds are the country's starting ones (abstraction.toml [start] army); recruits take the kind's morale and quality (but Roma's and Esparta's, special populations below)",
    "special populations (§4.5.7, L5229-L5241, T13, T14; special.rs): Roma's and Esparta's purchases raise the capital's share of their recruits (option special_city_pob: its share of the country's listed cities, the sheets giving no city POB, or all) by its population's rows (Roma: 20% morale A at B's morale cost, the rest B at C's; Esparta: all A at D's) and the rest by the rest's (Roma's Italics: their kind's own morale and cost; Esparta: 20% A at B's, 50% B at C's, 30% C at D's), split by largest remainders, each part cut down to A42's 5 units of morale A and 10 of B (option elite_cap: per purchase phase, per game or none) and to the DEN above reserve and wages; a nation holds one morale mix per kind (wherever its units are: losses take every class alike) and fights each class as its own battle-code group (the siege takes the men-weighted morale value); the target shortlist's yardstick and the army_factors proxy count the kind's own morale",
    "war: a country's whole land falls with its capital: the field army defending at home is fought in the field (battle terrain rolled from the node's hex), then the capital is besieged (siege code's month-by-month walls, hunger and surrender) and assaulted at its effective level (assault code) against the whole garrison; a won assault or a surrender takes every city of the country and ends its last units there (§19 conquest); the defender's stock (its storage hexes) goes to the conqueror; a beaten field army goes home (a defender's into its garrison); a conquered country is held by the conqueror's policy share of its field army (occupation troops, which defend it like a garrison behind its capital's walls; no annexation delay); a nation without land cannot pay and its troops desert; tactics: attacker AF (AE off open ground), defender DE, no retreat thresholds, pursuit on",
    "the referee's countries (every non-major) run the scripted economy at its defaults and never attack (§28 lets them); only majors can win; all countries start at 0 PV",
    "sack (§4.17, rules §29): only at the moment of conquest, by the conqueror's policy (sack_den_per_pv: each city, and the country, whose loot at black-market sale value is worth that many DEN per PV the sack costs it; a sack that gains PV, a barbarian's, is always made); a city yields its printed treasure to its first sacker (rulebook.toml [treasures]; Tebas and Alejandría by option treasure_cities, A59; Gaugamela is no listed city), else twice a city's DEN production (abstraction.toml [production] city), with the sacking-cities row and, for a treasure, the stealing-a-treasure row; Delfos, Tebas and Roma cost each nation the sacred-city rule names -35 PV; a sacked country yields its sacker twice one collection's production (POB 0) and then nothing to anybody for 12 months, and the sacker recruits from half its POB for a year; stored supplies go to the conqueror with the country, sacked or not; the culture limits of L4092-L4108 are on sacking oneself, not on a conqueror",
    "pillage (§3.9): when a major does not march on its best target to conquer it, its field army (at least 10 units, by land) raids it if it wins the field fight at the policy's attack odds (none defending: it does) and the loot is worth the policy's pillage_den_per_pv DEN per PV the pillage row costs; after the field fight it spends the next month there, takes 1% of each resource of one collection's production but POB, rounded up (L4441), and the holder's next collection loses another 1%; then it goes home",
    "land interception (§3.7): a holder's field army that stood idle at home a whole month under a named leader (the SPQR is none) tries once to intercept an army marching by land on its lands whose leg this month starts or ends in its node (same_node_distance) or in a land neighbour at most range_hexes away without a strait (abstraction.toml [intrigue], assumed), when the battle code's P(win) of that field battle reaches the policy's intercept; 1D10 + its commander's strategic value + 3 if only mounted kinds + 1 in own territory - distance, by option interception_bands (A36); a success is a field battle in the marcher's node through the battle code (nobody retreats before combat here, L2897), the interceptors stay home, a beaten marcher goes home with its truce; an army arriving at its target fights its defenders as before (no interception then)",
    "espionage and assassination (§4.11, §3.9): counter-espionage by policy (50 DEN a month, -3 on spies' rolls); a major whose policy spies buys one report a turn (300 DEN, general information: modifier 0, +2 on a barbarian, +1 on a B/C country, -1 barbarian on civilized) on its best-looking target's field army while none is on its way; the 2D6 band's wrong share goes up or down by the game's dice; it arrives after the outward travel (light cavalry's monthly movement over the cheapest land path, abstraction.toml [intrigue] sea_lane_months over a sea lane; none within a month, T11); under option war_intelligence = spied the policies' war odds see the target's field army through the latest arrived report (100% wrong, none or twice, without one), under the default omniscient the exact figure: espionage then only costs DEN; the target shortlist's ratio is exact either way; assassination once a turn by policy against the commanding named leader (tactical value at least the policy's) of the country its field army marches on, besieges or raids, else of one marching on it: its DEN (+1 per 500), in his city +1 at home, -3 in a camp in the field, no guards; 13 or more kills (a natural 4 or less fails); every attempt costs the aggressor PV by option assassination_pv (A38) and the table's rebellion index; specific-information spying, bribes, capture and other places and times are not played",
    "PV (§4.19) applied: battles won/lost by factor ratio, conquering/losing territory, cities and the main country, the capital's fortification levels, gifts to the population (capped at 2,000 DEN of sale value a collection period; COM and DEN, and by policy gift_goods PIE, MAD, CAB and CAM beyond what the nation keeps; lot by lot the most PV, then rebellion index, per DEN of value), taxes (burdens.rs: one level a year for all the nation collects, set in April; the row's PV scored once, its IDR on every land the level raises or lowers, home and provinces, by the holder's culture, option province_burdens: or the home's alone; the row on each of those lands' cities too, city_revolt.rs; the policy's tax_idr floor kept by the lowest zone, rural or city, the level reaches; a level per province or city is not played), a year without fighting, invasion suffered (first and following months), unfed population, treaties (signed, extended, broken; killing an envoy costs the killer its row), sacking cities and countries, stealing treasures, the sacred cities, pillage, assassination attempts, revolts (revolt.rs, below), the production improvements built (shipyards, quarries, crop intensification, reforestation, mining, fishing and manufactures factories, L4346-L4358, at the work's end), each month the king is away (L4336; king_abroad.rs: at the month's end, with the field army outside his home country, option king_abroad: or outside every land his nation holds; PV source king; the policy's king_commands, default 0 since this row: kings stay home), increasing treasures (L4376; treasures.rs: the policy's treasure_share of the DEN above reserve and wages into its capital's treasure in lots of 500, option treasure_pv: 1 PV a lot by default, or one a turn, or within the gift cap; +10 IDR per 100 DEN; PV source treasure; the DEN stay in the city and go to its next sacker with the printed treasure), each 100 slaves freed (L4236; slaves.rs: 0/1/1 PV, 80/100/110 IDR; PV source slaves), enslaving 5% of own and of others' POB (L4370-L4372; enslave.rs, below; PV source slaves); destroying enemy and own cities and MAN destroyed (destruction.rs, below); rebellions in cities and the capital (city_revolt.rs, below); rows not applied: closing ports and culture absorption (they have a row but no procedure in the text: nothing says when a culture is absorbed or what closing a port or city does)",
    "rebellion indices and revolts (§4.16, L5617-L5633, §4.19 L4268-L4274 and L4364; revolt.rs): one index per country node for its rural zone (1,000 at the start; each printed city keeps its own 800, below): its own country's while that holds it, a province's own while another holds it, carried from its conquest capped at the normal 1,000 (L5631); the acting nation's rows move its home index (its tax row and extra levies every land they reach, option province_burdens, burdens.rs), the rows a province suffers (invasion months, now scored to the holder of an invaded province too, and its militia called and mobilized there) its own (option province_index: or the holder's home index); just before each collection every index at 0 or below revolts (counted once: one revolt's rows start no other in the same count): the holder's rebellion row (main country -2/-4/-6 PV, -100/-120/-150; province -1/-2/-3, -75/-100/-120; PV source revolt), and POB / 200 of the land's last collection IL-ID rebels (A37; option revolt_rebels: the militia the holder could call there) attack the home garrison or the occupation troops in one field battle through the battle code (its leader the defending one; no troops: the rebels win; no rebels: nothing to fight); the holder wins: the suppressing row (1/0/0 PV, -175/-200/-250 IDR), the index stays at 250 and the land yields 75% POB for three collections; the rebels win at home: the same index and year without the row; in a province they free it for its own country (the holder's losing-territory and losing-a-city rows, its troops there lost, the freed country's index 1,000; option revolt_won = held: the holder keeps it at 250 and a year at 75% POB); the policy's province_gift_idr gives 600 DEN lots (the table's gift row, within the shared 2,000 DEN cap, from the DEN above reserve and wages) to the province with the lowest index while below it, before the home's gifts; the rebels' losses, the battle's PV rows and leaders' fates are not played; counters province_revolts, revolts_suppressed, provinces_freed, revolt_men_lost, province_gifts",
    "rebellion indices per city and the capital (§4.16, L5619-L5633, §4.19 L4272-L4274, L4364; city_revolt.rs): each printed city keeps its own index, 800 at the start; option city_index_rows = every-zone (default, L5619: a row's points come off the 1,000 and the 800 alike): every row that moves a node's index moves each of its cities' by as much, but a revolt's own rows (they move the holder's home index as before and reach no city in the count that scores them); rural-only: a city's index moves only by its taxes (§47 L5641) and the gifts aimed at it; a node changing hands leaves each city above 800 at 800 (L5631), a freed node's at 800; enslaving (L833's city is the node's POB here), sacks, destruction and treasures move the node's index as before; just before each collection, after the nodes' revolts, every standing printed city at 0 or below revolts against its holder (counted once; a city whose node was freed in the same count is moot): the capital's row (-2/-2/-3 PV, -50/-75/-100 IDR) or a city's (-1/-1/-2, -25/-50/-75) by the holder's culture, PV source revolt; its rebels are its share of the node's POB (the scenario's city row, 150: A37's POB / 200 makes no whole unit, so nothing to fight and the revolt is suppressed; option revolt_rebels = militia: that share of the militia the holder could call there) against the troops holding the node in one field battle; suppressed, the suppressing row; the city stays at 250 and its share yields 75% POB (37 POB less) for three collections; won in a province, the capital's rebels free the node (option city_revolt_won = capital-frees, default; disorder: the city at 250 and a year at 75% only); the policy's tax_idr floor, its extra levies and its province gifts see the lowest zone of each land (a gift goes to the node, or under rural-only to its lowest zone); enslaving's floor still sees the rural index; a destroyed city has no zone; counters city_revolts, capital_revolts",
    "mercenaries (§4.5.9): each game turn 1D6 = 1 brings 1D6 units onto a node drawn uniformly (on land only), one band of one row of the referee's table (abstraction.toml [mercenaries], assumed: kind, quality, morale by weight; a named leader at leader_chance, rolled on the new-leader tables, joins the buyer if a slot is free); the nations with troops within a month's move (home, or the field army, by the cheapest land path within their slowest kind's monthly PM; fleets and ambassadors do not bid) bid sealed (policy mercenary_bid DEN a unit within the DEN above their reserve and next payments; the referee's countries never bid), the highest wins (ties by lot) and pays at once (the text allows 3 months); at most 2 bands a nation (one per source), in its field army, not in its garrison; a tenth of the price a year by option mercenary_upkeep (no wages, no army food); unpaid, a band deserts (its 6 months of attacks on its former employer and its return to the market are not played); in battle a band is its own group after the own kinds (last in the casualty order), attacks only beside twice its men in own troops (L4522; 'suicidal actions' are not judged), and option mercenary_casualties caps its share of its side's men lost at 10% where own troops are left; it does not slow the army, eat offensive food, count in the target shortlist's ratio or the army_factors proxy; event L's ex-mercenaries are the country's first kind, as before",
    "partners in war (§4.10): a major whose policy's partner_hire is 0.5 or more hires once from each client state 50% (associated state 30%) of its most numerous kind (field army and garrison) as a mercenary band, at [mercenaries] partner_price times their morale cost, paid to the partner, with the mercenaries' upkeep; when a major's army arrives by land at a referee's country with a defensive treaty or better with another major, or at the lands of a major with a defensive treaty with another, that protector (if it has no treaty with the marcher, which it would break) with its field army (idle at home, within a month's move) fights it first, in a field battle of its own through the battle code, with 20% of a client's (50% of an associate's) field army of its most numerous kind lent beside it (back after the fight, minus its losses), by option reasonable_defence (odds: when the battle code gives the marcher at most even odds of winning that fight); a won fight sends the marcher home, else the partner defends itself as before; a protector that does not help loses nothing",
    "production improvements, new cities and enlargements (§4.7-§4.8; works.rs): a major whose policy gives works a share (works_share) of its DEN above reserve and wages starts at home, in the constructions phase after the walls and best payback first, each work whose output at the black market's buying prices (POB unpriced) repays its DEN and materials within its policy's works_payback turns and before the turn cap, one of each type under way at a time (L681), paid in full at the start (stone before wood where either will do), built month by month (none while its capital is besieged, L3676; lost with its home): mining factory (700 DEN, 500 PIE, 400 MET, 6 months: +10% of the country's base MET production), crop intensification (750 DEN, 500 PIE/MAD, 6: +10% COM), reforestation (750 DEN, 500 MAD, 12: +10% MAD; twice on a forest node, the graph's stand-in for two forest hexes, else once), quarry (500 DEN, 700 PIE, 200 MET, 6: +10% PIE by option quarry_output, A63), manufactures factory (750 DEN, 1,000 PIE/MAD, 6: 175 MAN a collection; civilized only, one per listed city), fishing factory (500 DEN, 500 PIE/MAD, 6: its fishing fleets' catch x1.3; a coastal home with a port), shipyard (1,000 DEN, 800 PIE/MAD, 6: its fleets in port 1 month sooner for FQ, 2 for the others, merchant and fishing fleets too; built last, when its policy keeps fleets: it yields nothing to price), new city (1,500 DEN, 1,500 PIE/MAD, 12: 150 POB, 150 DEN and 75 MAN (C) or 50 (B/C) a collection, the city-construction row of §4.19) and enlargement (500 DEN, 800 PIE/MAD, 6: 125 POB, 125 DEN, 65 or 45 MAN, its row; once per city, printed or new); a policy that builds works keeps 1,500 PIE and 1,500 MAD from the black market's buyers and, when it buys there (market_buy), buys the stone (for PIE y/o MAD), wood and metal the best-paying work it wants lacks, when the works' share pays the work and them and the turn's limits sell them all; improvements once per country (the text gives one effect each); barbarians build none (L4108: anything but walls must be built for them), nor do the referee's countries; a finished work yields with its land from the next collection, whoever holds it (a conqueror collects it, the POB by the conquered schedule); new cities count in the cities proxy, but are not separate cities for walls, sieges, sacks or their treasures, and losing a country loses no PV for them",
    "frontier walls (§4.7 L3816-L3818, §4.19 L4300; walls.rs): a major whose policy gives them a share (walls_share) of its DEN above reserve and wages builds one wall hex at a time (a construction type, L681) at a fortification's first level (150 DEN + 100 PIE, a month; of stone only: frontier walls record no wood for its January upkeep) on a land link without a strait out of a node it holds, on that node's side (the frontier a link crosses read as as many hexes wide as the link is long: the map is missing), frontiers before inner links, a begun wall first, then the fewest hexes left; each finished hex scores the per-wall-hex row (1 PV, 75 / 50 / 25 IDR; PV source fortification); once every hex of a link stands, an army of another nation entering the node along it pays +2 PM (option wall_crossing: or none), its holder passes freely and the wall stays with the land; a hex under way is paused by a siege of its node and lost with it; higher wall levels, troops holding a wall as a fortress, letting others pass and the walls in the policies' marching months and odds are not played; the referee's countries build none",
    "the January wood upkeep (§4.1 MAD wood, L751; wood.rs, option wood_upkeep): the wood paid into a land's works (a sum per type, its works sharing it equally), each level of its capital's walls and its major constructions is recorded with the land; every January, from the January after a construction is finished, the land's holder pays 1/5 of it, rounded up, from its stock (a sink), the cheapest to restore first; what it cannot pay collapses: a work loses one of its type and its yield, a wall level falls with every level above it, a major construction is lost (its PV kept); walls standing at the start, ships, siege engines and convoys owe nothing; the referee's countries pay from their stocks; a major keeps the wood owed from the black market's buyers, leaves it out of the works' and the walls' wood, and buys what it lacks there (market_buy) when its DEN above reserve and wages pay it; counters wood_upkeep_paid, constructions_collapsed",
    "colonies, naval bases and ports (§4.7; colonies.rs, works.rs, naval.rs): works of works.rs (paid at the start, built month by month, paused while the capital where they stand is besieged); a colony (civilized only, L3864; a city's 1,500 DEN + 1,500 PIE/MAD and 12 months, and 200 of the builder's POB on hand, L3862) in a referee's country its envoys reach (bordering a land it holds, or on a sea lane from home) that holds its home, is not at war with it and has no colony yet (option colony_hosts: any such, or only a treaty partner), by policy colonies where it passes the works' payback test as a new city would, in the host whose treaty with it is weakest (then the richest in DEN); several at once (L681), one per host; finished, it yields a city's 150 POB, 150 DEN and 75 MAN to its builder each collection (option colony_conquest: still to its builder, or to the conqueror of its host), is +10 on the builder's first diplomacy rolls with the host (L604), and scores the colony-construction row to the builder and the allowing-a-colony row to the host; one under way is lost if its host falls; a naval base (1,000 DEN + 500 PIE/MAD, 6 months; B/C and C; at most 2 and one per port) by policy naval_bases when the fleets it keeps want more naval factors than its ports may build at once: each doubles one port's 30 (L2691), and while it holds its home, its fleets refuse the naval battle with a crossing army whose fleets' ram factors exceed its own by the policy's refuse_naval (the army lands, the fleets stay in port, L2382); its row at the end; a port (1,000 DEN + 1,000 PIE or MAD, 6 months) only on a coastal home with no city (every coastal city is a port, L3850), built when the policy keeps fleets: it is the home's port for fleets (30 factors), fishing factories and shipyards; its row at the end",
    "prospecting (§4.8, L741-L743; prospecting.rs): the result table is missing (A64), so option prospecting_result plays A64's proposal (1D20 + terrain: hills +1, mountain +2, plain -1, desert -2; 15 or more finds a vein, +10% of the country's base MET production at every later collection, whoever holds the land; veins add up) or none; a major whose policy prospects (prospecting) tries once a month at home for 400 DEN when the expected find repays it before the turn cap at the black market's metal price and its DEN above reserve and wages pay it (on the placeholder production no try repays: a mountain's 20 MET a vein at 0.4 a try is 8 MET a collection); the referee's countries do not prospect",
    "major constructions (§4.7, L3790, §4.19 L4324; major_works.rs): the referee sets their cost and time (§6.1 item 4): option major_construction_materials (stone and/or wood of one; default 0: none offered, as nothing prices one and the PV scale with the materials) and, when offered, major_construction_den and major_construction_months (assumed: a city's 1,500 DEN and 12 months); civilized majors only (L4100), one at a time (L681), at home, by policy major_works_share of the DEN above reserve and wages, the stone kept from the black market's buyers and bought there when short; paid at the start (stone before wood), paused while the capital is besieged, lost with the home; finished, material cost / 100 PV and / 150 rebellion index (PV source works)",
    "siege engines (§4.7, §3.3-§3.4, L3672, L3840-L3844, A23; engines.rs): when its army begins a siege a major whose policy builds engines (engine_level) pays for one of the largest level up to it that the walls make useful and its DEN above reserve and wages and its wood pay (N x (100 MAD + 150 DEN)); it lowers the walls by N (option siege_engine, A23: or by 1) in the assault and in the siege's hunger and morale, from the siege's start (A23's reading; option siege_engine_time = level-months: ready after N months of siege, so no more levels than the policy's siege_months), and is lost with the siege; the target shortlist's assault odds count it; the referee's countries build none",
    "extra POB levies (§4.3, L4092, L4100, L4108, §4.19 L4362; levy.rs): after each collection a major holding its home whose policy levies (extra_levy: a share of its culture's most, in whole 5% steps) takes up to +25% (civilized), +30% (B/C) or +40% (barbarians; option barbarian_extra_levy, A57: or 50%) of the POB collected, while every index it moves stays at its policy's tax_idr or above: each step the mass-recruitment row (-1/-2/-3 PV, once, -75/-100/-150 IDR), and -1 IDR per 10 (B/C) or 20 (barbarian) extra POB (option extra_levy_idr: or the row alone), the IDR on every land that gave POB, each on its own share of the extra (option province_burdens: or all of it on the home index); PV source levy; the extra POB is on hand for the purchases and expires with the rest at the next collection; the referee's countries do not levy",
    "roads (§4.7, L3798-L3800, the movement table's x1/2; roads.rs): a major whose policy gives roads a share (roads_share) of its DEN above reserve and wages lays one road at a time (L681), in the constructions phase after the works, along a land link without a strait between two nodes it holds (the region graph's stand-in for a road's hexes), the fewest hexes first, then the most PM saved; barbarians build none (L4108), nor do the referee's countries; price per hex by options road_den_per_hex and road_pie_per_hex (A65: 100 DEN + 100 PIE proposed), the stone bought at the black market if the policy buys there; months by option road_months ((hexes + their terrain PM, the mean of the link's two directions) / 2 rounded up, or the terrain PM); paid at the start, lost if the builder no longer holds both ends; a finished road scores the per-road row of §4.19 (0/1/1 PV, 0/50/75 IDR) and halves the PM of its hexes for every unit, whoever holds the land; trade routes do not need roads (L949); a road destroyed (destruction.rs) halves nothing any more",
    "destruction (§4.17, L3716-L3720, L5607-L5609; destruction.rs): a field army of at least 200 men that began and ended a month standing in one node (idle or besieging) and fought no battle or assault that month destroys one construction there: a printed city other than the node's capital (a printed city yields the scenario's city row, 150 POB and 150 DEN, and an equal part of the node's MAN, all made in its cities by abstraction.toml [production]; a destroyed city loses its walls, its DEN and MAN share and half its POB share for good at every later collection, whoever holds the node, the other half going to the countryside when the destroyer allows it: its own holder always, an enemy razing to deny never) or a road (its link's PM no longer halved; no PV row); the city rows of §4.19 by the destroyer's culture, another nation's (1/0/-2 PV, 50/0/-50 IDR) or its own (-1/-2/-3 PV, -25/-50/-75 IDR), with the text's -1 and -2 PV for every culture by option city_destruction_pv (default \"text\", the table's IDR either way); the row MAN destroyed (-(N/100) PV in whole hundreds, -N IDR) charged to a city's destroyer for its MAN share of one collection by option man_destroyed (default \"razed-city\"); PV source destruction; the policy's raze_cities (default 0: never) razes one open city a month of a rival major's node its army stands idle in, where the row costs its culture at most 1 PV, never in a referee's country nor its own; the finished works (works.rs) fall one a month to the same idle army, whoever built them: a new city (the city rows, and its MAN for the MAN row, by the culture of its land), an enlargement, a production improvement, a port, a naval base, a shipyard, a colony (its colonist's no more once none stands), each yielding nothing from the next collection, its wood (owed upkeep, wood.rs) gone with it, and an enlargement whose new city fell falling with it; a frontier wall loses one hex of a link out of the node a month (the link open again); the policy's raze_works (default 0: never), where it razes no printed city, destroys the rival major's work there that yields it most a turn (works::worth_per_turn: a new city under the same 1-PV limit, a factory, an improvement; never a port, naval base, shipyard or colony); no policy destroys its own constructions, roads or frontier walls; counters works_destroyed, wall_hexes_destroyed",
    "Rome's Republican militia (§4.5.5, §4.13, L5245-L5257; republican_militia.rs): the first nation the rulebook's spqr_and_republican_militia names (Roma) holds a standing body of its militia_units (10) IM-RC (medium infantry, regular, morale C) while it holds its home, free, never leaving it; it appears with the SPQR whenever the home is attacked and fights beside its defenders through the battle code (after the own troops in the casualty order) in the field battle there, a raiding band's incursion and (option republican_militia_fights, default all; field: the field battle only) the assault and the siege's mouths and morale, and holds a capital with no garrison; the invader's odds count it; it is not the ordinary militia: no call, no bar, no PV and no rebellion-index row (§4.19's militia rows are the called militia's); out while the home is invaded, it disbands the month the invasion ends and from the next month recovers militia_men_recovered_per_month (50) men of its losses a month up to full strength (option republican_militia_recovery: every-month also while out); below one unit it is too weak to appear; lost with the home (men_lost), it recovers from nothing if the home comes back; men ledger: there from the start, men_lost when killed, men_raised when recovered; rebels rising at home meet only the garrison; counters republican_militia_fights, republican_militia_men_lost, republican_militia_men_recovered, republican_militia_disbands",
    "militia (§4.5.5, militia.rs): the holder of an invaded country (an enemy army marching on it or besieging it there) may call that country's militia once it is not barred: 3 x floor(the country's last collected POB / 200) units of IL-ID (option militia_size, A69), a conquered country's a third of it after its first collection under the holder, two thirds after the second, all from the third (L5273; option militia_lands = home-only: the whole nation's collection at home, none in conquered countries), free, never leaving the country; the policy calls it when the invader's combat factors reach militia_ratio times its defenders' at home (walls not counted), its rebellion index after the call's first month stays at militia_idr or above, and it would fight: it fights alone when no other troops defend (the capital's siege counts its mouths and morale, the assault through the battle code), and beside the field army or the garrison only where the battle code's odds (odds_trials each way, same dice) say it lowers the invader's P(win) (a side's morale is the average over its units: many IL-ID can make it rout sooner); a random player tosses coins; the holder pays the rows; -2 PV (option militia_pv, A50) and -50/-100/-120 IDR each month mobilized, -0.5/-1/-1 IDR per 20 POB called, once (option militia_pob_idr); it disbands when the invasion ends (its men home: men_disbanded in the men ledger; called, men_raised; killed, men_lost), dies with the country's conquest, and fewer than 1 unit left after a fight destroys it: not again for 36 months; the invader's odds count a standing militia only where it holds the country alone; its men do not come out of the POB stock (three times a collection's POB: the population beyond the levy) and their deaths do not lower later collections",
    "forced marches (§4.12, rules §43, L5401-L5563; forced_march.rs): a field army marching by land on a target that would end the month short of its next node asks its policy's forced_march PM (at most +2 with any infantry, +4 mounted only; on the leg reaching the target no more than it lacks) and rolls once a month on the §43 table: 1D10 + modifiers clamped 0-10 (option forced_march_die, A49; -1 militia, never on the graph: the militia stays home; +1 only morale A-B, +2 only A (option forced_march_a_bonus: +3), -1 forced march and -1 fatigued the previous month, +1 only Italian IML, +2 only Roman IML, -1 winter); what it gains adds to the month's progress; an F fatigues it for that month (the source's turn read as the movement month): every battle it fights in the month (at its target, an interception) carries the number as the battle code's fatigue (no formation, factors x0.75, morale -0.1 each, -1 on its rolls); not with an unfed share (offensive food), nor by sea, nor on the way home; the leg reaching a target where a field army waits only with forced_march_battle; the Roman camp's level 2 for an army that did not move is not played",
    "mount breeding (§4.8, L795-L815; mounts.rs): once a game, at the level its policy wants (mount_breeding 1-5), a nation pays 750 DEN above its reserve and wages in the constructions phase, where the §4.19 row gives it PV (not barbarians) or every kind it raises is bred: +level PM for its bred units (option mount_breeding_units: horse units, cavalry and chariots, by default; cavalry only; or every mounted class) and its home land's CAB production x0.9/0.7/0.5/0.3/0.2 at every later collection, whoever holds it; the row 0/1/1 PV, 0/75/50 IDR under works; an army moves at its slowest kind's PM, so only armies without infantry go faster (and the mercenaries' reach only of a nation whose every kind is bred)",
    "payments: wages 1/20 of each unit's morale cost in January and July (A41 as the digest proposes), army food 1 COM per unit each January (a shortfall has no stated effect and none here), offensive food 1 COM per 200 men per month abroad (supply.rs below), population feeding by option population_feeding; unpaid units desert (no city sack)",
    "army supply (§4.4, L2084-L2122; supply.rs): a field army beyond its holder's lands eats 1 COM per 200 men a month (rounded up) by option army_supply: \"carried\" (the text's convoys with the army, the default: from what it carries, 1 COM per 200 men and 5,000 per supply convoy, loaded from the stock on its own lands before an offensive up to its policy's carried_months of need and never below the population's next half-yearly feeding, unloaded there when idle or going home) or \"home-stock\" (the earlier abstraction: from the home stock wherever it stands); the unfed share fights at half, and a run of 3 non-winter months with an unfed share (winter months neither count nor break it) kills that share; its policy buys convoys (convoys: 50 POB, their crews, counted as men raised, 50 DEN, 100 CAB or else CAM, 200 MAD) on its lands before an offensive and keeps them with the field army, which then moves at 8 PM (infantry 10) and intercepts at -3 (L5575); an army beaten beyond its lands loses its convoys (their crews dead) and their food to the victor, into its stock if it stands on its own lands, else into what it carries (the rest spoilt); an army abroad turns home while its food (the home stock's, by \"home-stock\") covers the way back by the cheapest land path at its pace and its policy's supply_margin months; ships are supplied (nothing to eat at sea)",
    "foraging (§4.4, L2092-L2106; forage.rs): a field army crossing a leg beyond its holder's lands may spend 2 extra PM per hex of the leg (not halved by a road nor doubled by winter or storm: time spent gathering, not moving; never with a forced march) to gather the entered node's hex terrain's COM per hex (rulebook.toml [forage]: plain 10, desert 1, forest 8, rough 6, hills 5, mountain 4, by the battle code's hex terrain) into the food it carries, never above what it can carry, and only by the carried reading of army_supply; by option forage_standing = \"standing-too\" (default \"marching-only\") an army standing beyond its lands (besieging or idle) also forages the node it stands in once a month, after eating (half its shortest land link's hexes, rounded up); a node foraged yields again to another army (no hexes to strip on the graph); the policy forages while the food carried is within forage_months of need of the food at which the army turns home (the way home and supply_margin), and a leg only where the COM gathered exceeds what the army eats in the extra PM at its pace; the referee's countries forage by the scripted default",
    "slaves (ESC; §4.1 L833-L835, L3576; slaves.rs): the winner of a land fight takes 1 in 50 of the beaten side's casualties (whole men, the battle code's count; every land fight here has a major on one side, and a referee's country that beats one keeps its slaves unused), an assaulted garrison that breaks and a garrison that surrenders to a siege are the taker's slaves man for man; each turn before the black market a major holding its home frees its policy's share (slaves_freed) of its lots of 100, each the §4.19 row (0/1/1 PV, 80/100/110 IDR); the black market leaves it that share of its slaves until they make whole lots and the share (slaves_on_works) of its lots it puts on the production improvements, cities, enlargements, naval bases and ports it starts at home (not colonies): each lot ends the work a month sooner (at most all its months but one) or, by option slaves_on_works_effect = \"cost\", gives back 5% of its price (DEN and materials, at most 19 lots), and sells the rest at option black_market_sale (A52) within its 100 a turn; 75% of a work's slaves are lost when it ends, the rest come home, all are lost with a work lost with its land",
    "enslaving POB (§4.1 L833, §4.19 L4370-L4372, A68; enslave.rs): after each collection (and the extra levy) a major may turn whole 5% steps, at most 5 (25%, the civilized extra levy's most: the text gives no ceiling), of the POB a land it holds has just yielded it (a province's 10/20/30% after its conquest) into slaves (ESC), 1 POB for 1 ESC: own POB is its home land, others' a conquered province; each step the row by its culture (own -1/-2/-3 PV, -100/-150/-175 IDR; others' 0/-1/-2 PV, -50/-75/-100 IDR; PV source slaves) and the text's -50 IDR per 1% (option enslave_idr: table-and-text, or the row alone, or the text alone) on that land's own index (a land at 0 revolts at the next count), and the land loses POB for good, every later collection of it whoever holds it (option enslave_pob_loss, A68: half, 1% of its POB per 2% of it enslaved; literal, 1% per 2 POB; none); the policy (enslave_home, enslave_provinces: shares of the 5 steps, default 0) enslaves only when works wait that take its slaves (it would start one now, not a colony; slaves_on_works above 0, slaves_freed below 1: the freeing comes first) and only the steps that keep the land's index at its tax_idr or above; the referee's countries never enslave",
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
    fn game_columns(&self) -> &[&'static str] {
        &self.columns
    }
    fn max_turns(&self) -> u32 {
        self.turn_cap
    }
    fn turn_label(&self, turn: u32) -> String {
        let year = (turn - 1) / 6 + 1;
        let first = (turn - 1) % 6 * 2 + 1;
        format!("turn {turn} (year {year}, months {first}-{})", first + 1)
    }
    fn describe(&self) -> Vec<String> {
        let s = &self.scenario;
        let mut out = vec![format!(
            "Mediterráneo sanguinolento: {} countries ({} majors: {}), {} cities; first to {} PV or the most PV after {} turns (option game_turn_cap)",
            s.countries.len(),
            self.majors.len(),
            self.players.join(", "),
            s.cities.len(),
            s.calendar.victory_pv,
            self.turn_cap
        )];
        let placeholders = s.placeholders();
        if !placeholders.is_empty() {
            out.push(format!(
                "WINNERS REST ON PLACEHOLDERS: {} (abstraction.toml) are invented stand-ins for the missing country sheets; no win rate here says anything about the real game's balance",
                placeholders.join(", ")
            ));
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
