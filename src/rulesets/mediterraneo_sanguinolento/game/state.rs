//! The state of one game: every country's treasury and stocks, its troops (field army, garrison,
//! recruits in training: every unit is in exactly one of them, and the field army in one node), PV
//! by source, rebellion index and works; who holds each country node and its cities' walls; and a
//! ledger of every resource and man that entered or left the game, so the invariants can be
//! checked (resources and men change only through the rules' sources and sinks).

use super::diplomacy::Relation;
use super::events::Pending;
use super::fleets::MAX_ADMIRALS;
use super::forced_march::Strain;
use super::leaders::{Leader, MAX_LEADERS};
use super::mercenaries::{Bands, NO_BANDS};
use super::pv::{Row, SOURCES};
use super::recruiting::{Centres, NO_CENTRES};
use super::repairs::Docks;
use super::roads::Roads;
use super::routes::RouteState;
use super::scenario::{CountryId, Scenario, RESOURCES};
use super::sea_trade::SeaTrade;
use super::trade::{Caravan, MAX_CARAVANS};
use super::weather::{Weather, ZONES};
use super::works::Works;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Unit kinds a country raises (its starting army's types, digest §6.2 stand-ins).
pub const KINDS: usize = 3;
pub type Units = [f64; KINDS];
pub const NO_UNITS: Units = [0.0; KINDS];
pub const R: usize = RESOURCES.len();
pub type Stock = [i64; R];

/// What a country's field army is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mission {
    /// At home (or wherever it stands), available.
    Idle,
    /// Marching on `target`'s node to take it.
    March { target: CountryId },
    /// Besieging `target`'s capital for `months` so far.
    Siege { target: CountryId, months: u8 },
    /// Spending this month raiding `target` (a pillage, §3.9), then home.
    Pillage { target: CountryId },
    /// Going back to its home node.
    Return,
}

#[derive(Clone, Debug)]
pub struct Nation {
    /// Resources held (POB collected and not yet spent, DEN = the treasury, …).
    pub stock: Stock,
    pub pv: i32,
    pub pv_by: [i32; SOURCES.len()],
    /// Rebellion index of the home country while it holds it (1,000 at the start; a revolt at 0,
    /// digest §4.16); a conquered country's is its land's `Land::idr` (`revolt.rs`).
    pub idr: i32,
    pub field: Units,
    /// The node the field army stands in.
    pub at: CountryId,
    /// PM spent so far on the next leg.
    pub progress: u32,
    pub mission: Mission,
    /// The field army's march or return crosses the sea (its target has no land route from home).
    pub by_sea: bool,
    /// The army crossing by sea has landed (its first fight ashore was the landing).
    pub landed: bool,
    /// Fleets (of the scenario's fleet type; tenths are single ships), in the home port.
    pub fleets: f64,
    /// Share of the field army fighting unfed this month (offensive food, L2090).
    pub unsupplied: f64,
    /// The field army's carried food, convoys and run of hungry months (`supply.rs`).
    pub supply: super::supply::Supply,
    /// Troops in the home cities.
    pub garrison: Units,
    /// Troops bought this turn, operational next turn.
    pub training: Units,
    /// Fortification work on the capital: (level being built, months left); level 0 = none.
    pub work: (u8, u8),
    pub fought_this_year: bool,
    /// POB of the last collection (feeding is counted on it).
    pub pob_collected: i64,
    /// Permanent POB income from POB left unspent (+1 per 50, L713).
    pub pob_growth: i64,
    /// Country left alone until `truce.1` (turn).
    pub truce: (CountryId, u32),
    /// Consecutive months an enemy army has stood in its home node.
    pub invaded_months: u16,
    /// DEN worth given to the population this collection period (the cap is per period, A58).
    pub gifts_this_period: i64,
    /// Tax level set at this year's April collection (0 = normal).
    pub tax_level: i8,
    /// Countries conquered.
    pub conquests: u32,
    /// POB left unfed over the game (rules §51).
    pub unfed_pob: i64,
    /// Ambassadors kept (bought for proposals beyond the borders, L672).
    pub ambassadors: u8,
    /// Treaty extensions signed (each +0.5 PV: every second one scores 1).
    pub extensions: u32,
    /// Named leaders (slots of dead ones are free; the living include one king).
    pub leaders: [Leader; MAX_LEADERS],
    /// Caravans (a slot not bought is `Leg::None`).
    pub caravans: [Caravan; MAX_CARAVANS],
    /// Game month until which it raises troops from half its POB (it sacked a country, L4404).
    pub half_pob_until: u32,
    /// The field army's march is a pillage raid (it does not besiege, §3.9).
    pub raid: bool,
    /// Whole months its field army has stood idle at home (an interception needs one, L5567).
    pub idle_months: u8,
    /// The latest spy report bought (digest §4.11).
    pub intel: Intel,
    /// It pays for counter-espionage this month (-3 on spies' rolls against it).
    pub counter_espionage: bool,
    /// Transport fleets (FTR, digest §3.1.2; tenths are single ships), in the home port.
    pub transports: f64,
    /// Pirate fleets (§4.5.6: the scenario's warfleet type with morale D crews), in the home port.
    pub pirates: f64,
    /// Fleets on the stocks in the home port (digest §4.5.1, L2691).
    pub shipyard: Shipyard,
    /// Named naval leaders: naval battles, interceptions and landings only (L2362).
    pub admirals: [Leader; MAX_ADMIRALS],
    /// Mercenary bands in its field army (digest §4.5.9; `mercenaries.rs`).
    pub mercs: Bands,
    /// Damaged and uncrewed (captured) ships in its home port (digest §3.5.5; `repairs.rs`).
    pub docks: Docks,
    /// Its recruitment centres abroad and the troops hired there (§4.5.9; `recruiting.rs`).
    pub centres: Centres,
    /// Its merchant and fishing fleets (digest §4.9; `sea_trade.rs`).
    pub sea: SeaTrade,
    /// Months left on its major construction under way (0: none; `major_works.rs`).
    pub major_work_left: u8,
    /// Level of the siege engine of its army's current siege (`engines.rs`).
    pub engine: u8,
    /// Its field army's forced marches this month and last (`forced_march.rs`).
    pub march: Strain,
    /// Its mount breeding level (`mounts.rs`; 0: none).
    pub mounts: u8,
    /// Its units' shares by morale class, per kind (Rome's and Sparta's special populations,
    /// `special.rs`; an empty row: the kind's own morale).
    pub mix: super::special::Mix,
    /// Units of morale A and B raised in the current period of the A42 cap (`special.rs`).
    pub elite_raised: [u32; 2],
    /// Where its field army stood as the month's movement began and whether it stood still
    /// (idle or besieging), and the last game month it fought (`destruction.rs`).
    pub month_start: (CountryId, bool),
    pub fought_month: u32,
}

/// Fleets being built: whole fleets of each kind, and the game month they join the port.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shipyard {
    pub warfleets: f64,
    pub transports: f64,
    pub pirates: f64,
    pub ready: u32,
}

impl Shipyard {
    pub fn is_empty(&self) -> bool {
        self.warfleets + self.transports + self.pirates <= 0.0
    }
}

/// A spy report on a target's field army: how wrong its figure is (the figure seen is the exact
/// one times `factor`) and the game month it arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intel {
    pub target: CountryId,
    pub factor: f64,
    pub arrives: u32,
}

impl Intel {
    pub const NONE: Intel = Intel {
        target: CountryId::MAX,
        factor: 1.0,
        arrives: u32::MAX,
    };
}

/// A country node and who holds it.
#[derive(Clone, Copy, Debug)]
pub struct Land {
    pub owner: CountryId,
    /// Month (game month index) it was taken; 0 = held from the start.
    pub taken_month: u32,
    /// Collections received from it since it was taken (the 10/20/30/100% POB schedule).
    pub collections: u8,
    /// The holder's occupation troops in it (§19: a conquered country must be held by occupation
    /// forces); always empty in the holder's own home, whose troops are its `Nation::garrison`.
    pub garrison: Units,
    /// What its events did to its next collection.
    pub pending: Pending,
    /// Game month until which it yields nothing to anybody (sacked, L4404); 0 = never sacked.
    pub sacked_until: u32,
    /// POB of its last collection before a conquered land's cut (what its militia is counted
    /// from, `militia.rs`).
    pub pob_yield: i64,
    /// Militia units mobilized in it for its holder (IL-ID, `militia.rs`), and the game month
    /// from which it may be called again after its destruction.
    pub militia: f64,
    pub militia_barred_until: u32,
    /// Rebellion index of a province (a country held by another, which carries it from its
    /// conquest; `revolt.rs`); unused while its own country holds it (that is `Nation::idr`).
    pub idr: i32,
    /// Collections left at 75% POB after a revolt there (a year: three collections, L5625).
    pub revolt_collections: u8,
    /// Basis points of its POB lost for good to enslaving (A68, `enslave.rs`).
    pub pob_lost_bp: u16,
}

/// Every resource and man that entered or left the game, by direction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ledger {
    /// Collected (production) and gained (loot, treasures).
    pub gained: Stock,
    /// Spent or lost (wages, food, recruitment, works, gifts, POB expiring).
    pub spent: Stock,
    pub men_raised: f64,
    /// Men dead or gone: battle losses net of recovery, desertion, disbanded homeless armies.
    pub men_lost: f64,
    /// Men gone home alive: disbanded militia (`militia.rs`).
    pub men_disbanded: f64,
    /// Ships launched from the shipyards, and ships sunk (storms, naval battles).
    pub ships_built: f64,
    pub ships_lost: f64,
}

/// Counts over the game, for the reports.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub battles: u32,
    pub assaults: u32,
    pub surrenders: u32,
    pub conquests: u32,
    /// Revolts in home countries, in provinces, suppressed, and provinces the rebels freed
    /// (`revolt.rs`).
    pub revolts: u32,
    pub province_revolts: u32,
    pub revolts_suppressed: u32,
    pub provinces_freed: u32,
    /// Men of the holders' troops killed by rebels, and 600 DEN gift lots to provinces.
    pub revolt_men_lost: f64,
    pub province_gifts: u32,
    /// Revolts of printed cities other than the capital, and of capitals (`city_revolt.rs`).
    pub city_revolts: u32,
    pub capital_revolts: u32,
    pub deserted_men: f64,
    /// Armed incursions (event M) against the majors.
    pub incursions: u32,
    /// Armies landed on a coast they crossed the sea to (after any naval battle).
    pub landings: u32,
    /// Naval battles: a holder's fleets against a crossing army's.
    pub naval_battles: u32,
    /// Ships sunk by storms at sea.
    pub ships_lost_to_storms: f64,
    /// Fights in which a side was commanded by a named leader (the SPQR is not one).
    pub named_led_fights: u32,
    pub leaders_killed: u32,
    pub leaders_wounded: u32,
    /// Named leaders promoted, and unnamed ones given a name by a promotion.
    pub leaders_promoted: u32,
    /// Leaders found by searches and by the new-leader event.
    pub leaders_found: u32,
    /// Treaties signed and extended between a major and a referee's country.
    pub treaties_signed: u32,
    pub treaties_extended: u32,
    /// Treaties a major broke by marching on its partner.
    pub treaties_broken: u32,
    /// First diplomacy rolls that ended in war, and in the envoy's death.
    pub wars_declared: u32,
    pub ambassadors_killed: u32,
    /// Goods other than DEN the referee's countries received from envoys (DEN at sale value), and
    /// caravans given or lost with envoys (`envoy_gifts.rs`).
    pub envoy_goods_given: f64,
    pub caravans_given: u32,
    /// Countries that joined a major as a province.
    pub provinces: u32,
    /// Resource units bought 1:1 from client and associated states.
    pub bought_from_partners: f64,
    /// Treaties signed between two majors.
    pub major_treaties: u32,
    /// Caravans bought, trips begun, and the DEN their merchants earned (receivers' shares apart).
    pub caravans_bought: u32,
    pub caravan_trips: u32,
    pub caravan_den: f64,
    /// DEN paid to and received from the black market.
    pub market_bought_den: f64,
    pub market_sold_den: f64,
    /// Sacks (§4.17): countries, cities, treasures taken, sacred cities sacked, and the loot's
    /// DEN worth at the black market's sale value.
    pub countries_sacked: u32,
    pub cities_sacked: u32,
    pub treasures_taken: u32,
    pub sacred_sacked: u32,
    pub sack_den: f64,
    /// Pillages (§3.9) and their loot's DEN worth.
    pub pillages: u32,
    pub pillage_den: f64,
    /// Land interceptions rolled (§3.7) and those that reached their target (a field battle).
    pub interceptions_tried: u32,
    pub interceptions_succeeded: u32,
    /// Spy reports bought (300 DEN each) and months of counter-espionage paid (§4.11).
    pub spying_bought: u32,
    pub counter_espionage_months: u32,
    /// Assassination attempts and the leaders they killed (§3.9).
    pub assassinations_tried: u32,
    pub assassinations_succeeded: u32,
    /// Fleets bought by kind (§4.5, §4.5.6): warfleets, transports (FTR), pirate fleets.
    pub warfleets_bought: u32,
    pub transports_bought: u32,
    pub pirate_fleets_bought: u32,
    /// Ships sunk in naval battles (all sides).
    pub ships_lost_in_battle: f64,
    /// Naval interceptions rolled by a holder's fleets (§3.7, A36).
    pub naval_interceptions_tried: u32,
    /// Naval battles with a named naval leader on some side, and naval leaders found.
    pub naval_led_battles: u32,
    pub naval_leaders_found: u32,
    /// Maritime pillages (§3.9, L4447-L4452) landed, and the controllers' share of the loot (DEN
    /// worth at the black market's sale value).
    pub maritime_pillages: u32,
    pub maritime_pillage_den: f64,
    /// Mercenaries (§4.5.9): appearances, units offered, bands bought and their units, the DEN
    /// paid for them and in upkeep, units deserted unpaid, named leaders with them, their men lost
    /// in battle and the men of their casualties the 10% cap moved onto their employers' troops.
    pub mercenaries_appeared: u32,
    pub mercenary_units_offered: u32,
    pub mercenaries_hired: u32,
    pub mercenary_units_hired: u32,
    pub mercenary_den: f64,
    pub mercenary_upkeep_den: f64,
    pub mercenaries_deserted: f64,
    pub mercenary_leaders: u32,
    pub mercenary_men_lost: f64,
    pub mercenary_casualties_moved: f64,
    /// Units hired from client and associated states, and the DEN paid to them (§4.10).
    pub partner_units_hired: f64,
    pub partner_hire_den: f64,
    /// Protectors' fights for a partner attacked (§4.10), those they won, the partner's units
    /// lent to them and the men of those lost.
    pub protector_battles: u32,
    pub protector_wins: u32,
    pub lent_units: f64,
    pub lent_men_lost: f64,
    /// Naval battles' ships put out of action and damaged (A29), ships taken by boarding (A32)
    /// and with the ports the besiegers took (L2459), ships repaired (per group of up to 3, the
    /// resources' DEN, MAD, MET and POB paid), and captured ships crewed (their morale cost in DEN).
    pub ships_damaged: f64,
    pub ships_boarded: f64,
    pub ships_taken_in_port: f64,
    pub ships_repaired: f64,
    pub repair_groups: u32,
    pub repair_den: f64,
    pub ships_crewed: f64,
    pub crewing_den: f64,
    /// Recruitment centres (§4.5.9 method 1): recruiters sent, hires, units hired and delivered,
    /// the DEN paid for them, and the hosts' POB they used.
    pub recruiters_sent: u32,
    pub centre_hires: u32,
    pub centre_units_hired: f64,
    pub centre_units_delivered: f64,
    pub centre_den: f64,
    pub centre_host_pob: f64,
    /// Trade routes (§4.9, `routes.rs`): leagues formed and ended, members paid at collections,
    /// the DEN and product units they earned, caravan trips along routes and the units they
    /// brought, collections the pirates took their 30% at and their controllers' loot's DEN worth.
    pub leagues_formed: u32,
    pub leagues_ended: u32,
    pub route_member_collections: u32,
    pub route_den: f64,
    pub route_goods: f64,
    pub route_caravan_trips: u32,
    pub route_caravan_goods: f64,
    pub route_piracies: u32,
    pub route_pirate_den: f64,
    /// Trade by sea (`sea_trade.rs`): merchant fleets bought, sales trips and route trips begun,
    /// the DEN their sales earned (receivers' shares apart), the route goods they earned, calls
    /// paid at foreign ports (L5225) and their DEN, their ships and whole fleets lost to storms
    /// and the MAN and DEN lost with them; fishing fleets bought, fleet-months at sea, their COM
    /// and DEN, and their ships lost to storms.
    pub merchant_fleets_bought: u32,
    pub merchant_trips: u32,
    pub merchant_route_trips: u32,
    pub merchant_den: f64,
    pub merchant_route_goods: f64,
    pub merchant_calls: u32,
    pub merchant_call_den: f64,
    pub merchant_ships_lost: f64,
    pub merchant_fleets_sunk: u32,
    pub merchant_man_lost: f64,
    pub merchant_den_lost: f64,
    pub fishing_fleets_bought: u32,
    pub fishing_fleet_months: f64,
    pub fishing_com: f64,
    pub fishing_den: f64,
    pub fishing_ships_lost: f64,
    /// Captured named leaders (`captives.rs`): taken after fights and at their country's fall,
    /// executed by their captors, ransoms paid and their DEN, persuasion attempts, the DEN spent
    /// on them and the leaders won, persuaded leaders lost with their province, captives freed
    /// by their captor's fall.
    pub leaders_captured: u32,
    pub leaders_executed: u32,
    pub ransoms_paid: u32,
    pub ransom_den: f64,
    pub persuasions_tried: u32,
    pub persuasion_den: f64,
    pub leaders_persuaded: u32,
    pub persuaded_lost: u32,
    pub captives_freed: u32,
    /// Production improvements, new cities and enlargements (`works.rs`): started, finished, the
    /// DEN paid for them, and the resource units (POB included) they added to collections.
    pub works_started: u32,
    pub works_finished: u32,
    pub works_den: f64,
    pub works_output: f64,
    /// Collections of finished colonies (`colonies.rs`), and naval battles the fleets in a naval
    /// base refused (`naval.rs`).
    pub colony_collections: u32,
    pub naval_battles_refused: u32,
    /// Roads (`roads.rs`): started and finished.
    pub roads_started: u32,
    pub roads_built: u32,
    /// Frontier wall hexes finished (`walls.rs`).
    pub wall_hexes_built: u32,
    /// Major constructions (`major_works.rs`): started and finished.
    pub major_works_started: u32,
    pub major_works_built: u32,
    /// Prospecting (`prospecting.rs`): tries paid and veins found.
    pub prospecting_tries: u32,
    pub veins_found: u32,
    /// Militia (`militia.rs`): calls, months mobilized (PV and IDR charged), men killed, and
    /// militias destroyed (barred for 3 years).
    pub militia_calls: u32,
    /// Siege engines built (`engines.rs`).
    pub siege_engines: u32,
    /// Extra POB levies made (`levy.rs`) and the POB they gave.
    pub levies: u32,
    pub levy_pob: f64,
    /// Defensive military treaties signed (or raised to) between majors (`diplomacy.rs`).
    pub major_defensive_treaties: u32,
    /// Of those, calls in a conquered country (L5273).
    pub militia_conquered_calls: u32,
    pub militia_months: u32,
    pub militia_men_lost: f64,
    pub militias_destroyed: u32,
    /// Rome's Republican militia (`republican_militia.rs`): fights it joined, its men killed and
    /// recovered, and its disbandings.
    pub republican_militia_fights: u32,
    pub republican_militia_men_lost: f64,
    pub republican_militia_men_recovered: f64,
    pub republican_militia_disbands: u32,
    /// Months a king spent away from home (`king_abroad.rs`).
    pub king_months_abroad: u32,
    /// DEN put into capitals' treasures (`treasures.rs`).
    pub treasure_den: f64,
    /// Forced marches (`forced_march.rs`): rolls, PM gained, fatigued results; and mount
    /// breedings bought (`mounts.rs`).
    pub forced_marches: u32,
    pub forced_pm: f64,
    pub fatigued_marches: u32,
    pub mounts_bred: u32,
    /// Supply convoys bought and lost to a victor; men dead of hunger; marches not begun for
    /// want of food to carry (`supply.rs`).
    pub convoys_bought: u32,
    pub convoys_lost: u32,
    pub starved_men: f64,
    pub marches_held_back: u32,
    /// COM foraged by field armies (`forage.rs`).
    pub foraged_com: f64,
    /// Wood paid for the January upkeep, and constructions collapsed unpaid (`wood.rs`).
    pub wood_upkeep_paid: f64,
    pub constructions_collapsed: u32,
    /// Slaves (ESC, `slaves.rs`): taken in battles won and from surrendered garrisons, freed,
    /// and put on works.
    pub slaves_taken: f64,
    pub slaves_freed: f64,
    pub slaves_on_works: f64,
    /// Destruction (`destruction.rs`): printed cities destroyed (of them, by their own holder),
    /// roads destroyed, all constructions destroyed, and the MAN the destroyed cities' shares
    /// charged to their destroyers (option man_destroyed).
    pub cities_destroyed: u32,
    pub own_cities_destroyed: u32,
    pub roads_destroyed: u32,
    /// Finished works (with the enlargements that fell with a new city) and frontier wall hexes.
    pub works_destroyed: u32,
    pub wall_hexes_destroyed: u32,
    pub constructions_destroyed: u32,
    pub man_destroyed: f64,
    /// POB enslaved at collections (`enslave.rs`).
    pub pob_enslaved: f64,
    /// Units raised by spreading the word, and the DEN paid for them (`word.rs`).
    pub word_units: f64,
    pub word_den: f64,
}

#[derive(Clone, Debug)]
pub struct State {
    pub turn: u32,
    /// Game month, 1 = the first January.
    pub month: u32,
    pub nations: Vec<Nation>,
    pub lands: Vec<Land>,
    /// Fortification level of each city.
    pub city_fort: Vec<u8>,
    /// Each city has been sacked (its treasure goes only to the first sacker, L4406).
    pub city_sacked: Vec<bool>,
    /// DEN added to each city's treasure since its last sack (`treasures.rs`).
    pub treasure_added: Vec<i64>,
    /// Each printed city destroyed or standing (`destruction.rs`).
    pub city_ruin: Vec<super::destruction::Ruin>,
    /// Each printed city's rebellion index as of its node's last sync (`city_revolt.rs`: read
    /// it through `city_revolt::city_index`).
    pub city_idr: Vec<i32>,
    /// Collections left at 75% of each printed city's POB share after its revolt.
    pub city_revolt_collections: Vec<u8>,
    /// Per node: its holder and rural index when its cities' indices were last synced.
    pub zone_seen: Vec<(CountryId, i32)>,
    pub ledger: Ledger,
    pub counts: Counts,
    /// This month's weather in each climatic zone (the last month's before it is rolled).
    pub weather: [Weather; ZONES],
    /// Each major's relation with each country (`diplomacy::at`).
    pub relations: Vec<Relation>,
    /// Each trade route's league (`routes.rs`).
    pub routes: Vec<RouteState>,
    /// Each country's land's production improvements and new cities (`works.rs`).
    pub works: Vec<Works>,
    /// The roads built and under way, and the land routes they make (`roads.rs`).
    pub roads: Roads,
    /// The frontier walls built and under way (`walls.rs`).
    pub walls: super::walls::Walls,
    /// Veins of metal found in each land by prospecting (`prospecting.rs`).
    pub veins: Vec<u8>,
    /// Rome's Republican militia (`republican_militia.rs`; set by `Game::new`).
    pub republican: super::republican_militia::Body,
}

impl State {
    /// Calendar month 1-12 of game month `m`.
    pub fn calendar(m: u32) -> u32 {
        (m - 1) % 12 + 1
    }

    pub fn men(units: &Units, men_per_unit: &[f64; KINDS]) -> f64 {
        (0..KINDS).map(|k| units[k] * men_per_unit[k]).sum()
    }

    /// Adds produce or loot to a stock, recorded as gained.
    pub fn gain(&mut self, c: CountryId, r: usize, amount: i64) {
        debug_assert!(amount >= 0);
        self.nations[c as usize].stock[r] += amount;
        self.ledger.gained[r] += amount;
    }

    /// Takes up to `amount` from a stock, recorded as spent; returns what was taken.
    pub fn spend(&mut self, c: CountryId, r: usize, amount: i64) -> i64 {
        let have = &mut self.nations[c as usize].stock[r];
        let taken = amount.clamp(0, *have);
        *have -= taken;
        self.ledger.spent[r] += taken;
        taken
    }

    /// Moves a whole stock to another country (storage hexes taken with the country, L5651).
    pub fn transfer_stock(&mut self, from: CountryId, to: CountryId) {
        let s = std::mem::replace(&mut self.nations[from as usize].stock, [0; R]);
        for (r, v) in s.iter().enumerate() {
            self.nations[to as usize].stock[r] += v;
        }
    }

    pub fn add_pv(&mut self, c: CountryId, source: usize, pv: i32) {
        let n = &mut self.nations[c as usize];
        n.pv += pv;
        n.pv_by[source] += pv;
    }

    /// Applies a row of the PV/IDR table to country `c` acting with culture `culture`.
    pub fn apply(&mut self, c: CountryId, source: usize, row: Row, culture: Culture) {
        self.add_pv(c, source, row.pv(culture));
        self.nations[c as usize].idr += row.idr(culture);
    }

    /// Removes a share of every unit of country `c` (field army, garrison, recruits, occupation
    /// troops), counted as men lost; returns the men.
    pub fn remove_share(&mut self, c: CountryId, share: f64, men_per_unit: &[f64; KINDS]) -> f64 {
        let share = share.clamp(0.0, 1.0);
        let mut men = 0.0;
        let mut cut = |stack: &mut Units| {
            for k in 0..KINDS {
                let gone = stack[k] * share;
                stack[k] -= gone;
                men += gone * men_per_unit[k];
            }
        };
        let n = &mut self.nations[c as usize];
        for stack in [&mut n.field, &mut n.garrison, &mut n.training] {
            cut(stack);
        }
        for land in self.lands.iter_mut().filter(|l| l.owner == c) {
            cut(&mut land.garrison);
        }
        self.ledger.men_lost += men;
        men
    }

    /// Every unit of country `c`, wherever it is.
    pub fn all_units(&self, c: CountryId) -> Units {
        let n = &self.nations[c as usize];
        let mut u = NO_UNITS;
        for k in 0..KINDS {
            u[k] = n.field[k] + n.garrison[k] + n.training[k];
        }
        // Only a country that has conquered can hold occupation troops (most never do).
        if n.conquests > 0 {
            for land in self.lands.iter().filter(|l| l.owner == c) {
                for k in 0..KINDS {
                    u[k] += land.garrison[k];
                }
            }
        }
        u
    }
}

/// The state at the start of every game: each country holds its own node, its treasury, stock and
/// army of the scenario (the army at home: garrison and field army together in the field army).
pub fn initial(s: &Scenario, kinds: &[[u8; KINDS]], idr: i32) -> State {
    let nations = (0..s.countries.len())
        .map(|c| {
            let start = &s.start[c];
            let mut stock = [0i64; R];
            for (r, v) in start.stock.iter().enumerate() {
                stock[r] = *v as i64;
            }
            stock[super::scenario::DEN] += start.treasury as i64;
            let mut field = NO_UNITS;
            for u in &start.units {
                if let Some(k) = kinds[c].iter().position(|&x| x == u.unit) {
                    field[k] += u.count as f64;
                }
            }
            Nation {
                stock,
                pv: 0,
                pv_by: [0; SOURCES.len()],
                idr,
                field,
                at: c as CountryId,
                progress: 0,
                mission: Mission::Idle,
                by_sea: false,
                landed: false,
                fleets: start.fleets as f64,
                unsupplied: 0.0,
                supply: super::supply::Supply::default(),
                garrison: NO_UNITS,
                training: NO_UNITS,
                work: (0, 0),
                fought_this_year: false,
                pob_collected: s.production[c][super::scenario::POB] as i64,
                pob_growth: 0,
                truce: (0, 0),
                invaded_months: 0,
                gifts_this_period: 0,
                tax_level: 0,
                conquests: 0,
                unfed_pob: 0,
                ambassadors: 0,
                extensions: 0,
                leaders: {
                    let culture = super::scenario::culture_index(s.countries[c].culture);
                    let (t, st, kind) = s.leaders.king[culture];
                    let mut leaders = [Leader::NONE; MAX_LEADERS];
                    leaders[0] = Leader {
                        king: true,
                        ..Leader::new(t, st, kind)
                    };
                    leaders
                },
                caravans: [Caravan::default(); MAX_CARAVANS],
                half_pob_until: 0,
                raid: false,
                idle_months: 0,
                intel: Intel::NONE,
                counter_espionage: false,
                transports: 0.0,
                pirates: 0.0,
                shipyard: Shipyard::default(),
                admirals: [Leader::NONE; MAX_ADMIRALS],
                mercs: NO_BANDS,
                docks: Docks::default(),
                centres: NO_CENTRES,
                sea: SeaTrade::default(),
                major_work_left: 0,
                engine: 0,
                march: Strain::default(),
                mounts: 0,
                mix: super::special::NO_MIX,
                elite_raised: [0; 2],
                month_start: (c as CountryId, true),
                fought_month: 0,
            }
        })
        .collect();
    let lands = (0..s.countries.len())
        .map(|c| Land {
            owner: c as CountryId,
            taken_month: 0,
            collections: 0,
            garrison: NO_UNITS,
            pending: Pending::NONE,
            sacked_until: 0,
            pob_yield: s.production[c][super::scenario::POB] as i64,
            militia: 0.0,
            militia_barred_until: 0,
            idr,
            revolt_collections: 0,
            pob_lost_bp: 0,
        })
        .collect();
    let city_fort = s
        .cities
        .iter()
        .map(|city| s.start[city.country as usize].fortification)
        .collect();
    State {
        turn: 0,
        month: 1,
        nations,
        lands,
        city_sacked: vec![false; s.cities.len()],
        treasure_added: vec![0; s.cities.len()],
        city_ruin: vec![Default::default(); s.cities.len()],
        city_idr: vec![super::city_revolt::CITY_START_IDR; s.cities.len()],
        city_revolt_collections: vec![0; s.cities.len()],
        zone_seen: (0..s.countries.len())
            .map(|c| (c as CountryId, idr))
            .collect(),
        city_fort,
        ledger: Ledger::default(),
        counts: Counts::default(),
        weather: [Weather::Clear; ZONES],
        relations: Vec::new(),
        routes: vec![RouteState::default(); s.routes.len()],
        works: vec![Works::default(); s.countries.len()],
        roads: Roads::new(s),
        walls: super::walls::Walls::new(s.links.len(), s.countries.len()),
        veins: vec![0; s.countries.len()],
        republican: Default::default(),
    }
}
