//! The players of the Mediterráneo sanguinolento game: the scripted player (economy and war, its
//! parameters declared once here for `alea list`, `alea tune` and `alea ladder`), `random`, and the
//! referee's own script for the non-player countries (digest §1.3, §6.2). `search` is the
//! engine's search player over another policy of the catalog ([`super::search`]): each turn it
//! may overrule its rollout policy by a [`Directive`].

use super::scenario::CountryId;
use crate::game::policy::{ParamValues, PolicyCatalog, PolicyKind, SearchSupport};
use crate::game::search::SearchSpec;

/// What the catalog gives a major: the policy its country plays, and for the search player its
/// search parameters (the policy is then its rollout policy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub policy: Policy,
    pub search: Option<SearchSpec>,
}

/// What a country does.
// One per country, copied into each turn's plans: a box would cost more than the bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    Scripted(Scripted),
    Random,
}

/// The scripted player's economy and war parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scripted {
    /// Tax level set once a year at the April collection: -2 lowers ×2, -1 lowers ×1.5, 0 normal,
    /// 1 raises ×1.5, 2 raises ×2 (digest §4.2, §4.19).
    pub taxes: i8,
    /// A raise is made only if it leaves the rebellion index at least this high (else the highest
    /// level that does, down to normal taxes).
    pub tax_idr: i32,
    /// DEN kept in the treasury before anything is spent on troops, works or gifts.
    pub reserve: i64,
    /// COM kept in stock, as a multiple of the next feeding of population and army.
    pub food_stock: f64,
    /// Share of the POB on hand turned into troops at each purchase.
    pub recruit: f64,
    /// Recruitment mix: shares of the country's first (heavy) and last (mounted) unit kinds; the
    /// rest goes to the middle kind.
    pub heavy_share: f64,
    pub mounted_share: f64,
    /// Share of the collection period's gift cap (2,000 DEN worth) given to the population.
    pub gifts: f64,
    /// At 0.5 or more, gifts may be PIE, MAD, CAB and CAM beyond what it keeps.
    pub gift_goods: f64,
    /// Fortification level the capital is raised to (capped by culture).
    pub fortify: u8,
    /// Share of the army left at home as the garrison when the field army marches.
    pub garrison: f64,
    /// Share of the field army left to hold a country it conquers (occupation troops, §4.17).
    pub occupation: f64,
    /// March on the best target when the battle code's P(win) of its decisive fight reaches this
    /// (above 1: never attack, the referee's countries).
    pub attack: f64,
    /// Simulated fights behind that P(win).
    pub odds_trials: u32,
    /// The shortlisted target's combat-factor ratio (own : its defenders, walls counted) below
    /// which its odds are not even simulated.
    pub min_ratio: f64,
    /// Months a city is besieged before it is assaulted.
    pub siege_months: u8,
    /// Turns a defeated attacker leaves its target alone (a truce it keeps by its own choice).
    pub peace: u32,
    /// Weight of an overseas target's shortlist score (0: never crosses the sea).
    pub overseas: f64,
    /// At 0.5 or more the king leads the field army when he is the leader in command; below, the
    /// best other leader does and the king stays home.
    pub king_commands: f64,
    /// Named leaders the country keeps: it pays for a search each turn while it has fewer.
    pub leaders_wanted: u8,
    /// Proposals sent to the referee's countries each turn (digest §4.10).
    pub envoys: u8,
    /// DEN given with each proposal (above 200: +1 per full 100 on the first roll, at most +10).
    pub envoy_gift: i64,
    /// Military or commercial pressure put on each proposal (+0 to +10; as much against when the
    /// first roll's natural d100 is 50 or less).
    pub pressure: i32,
    /// Worth (DEN at sale value) of food and metal, and of other products (PIE, MAD, CAB, CAM,
    /// MAN), given with each proposal beyond what it keeps (`envoy_gifts.rs`).
    pub envoy_food_metal: i64,
    pub envoy_goods: i64,
    /// At 0.5 or more an idle empty caravan at home goes with a proposal (military material).
    pub envoy_caravan: f64,
    /// At 0.5 or more its proposals ask its defensive partners' backing (`envoy_gifts.rs`).
    pub backed_pressure: f64,
    /// At 0.5 or more the country marches on a treaty partner when it is the best target (the
    /// treaty is broken: PV and war); below, treaty partners are never targets.
    pub break_treaties: f64,
    /// Share of what its client and associated states may sell it (50% and 75% of their
    /// production, 1:1) that it buys after each collection.
    pub client_buying: f64,
    /// Share of its surplus (what its troops, walls and caravans do not use; never COM) sold to
    /// the black market each turn.
    pub market_sell: f64,
    /// Share of its spare DEN spent at the black market on what this turn's purchases lack.
    pub market_buy: f64,
    /// Caravans kept trading manufactures (digest §4.9).
    pub caravans: u8,
    /// At 0.5 or more it signs an equal-terms trade treaty with every major it borders or reaches
    /// (by sea or an ambassador) that offers one too (digest §4.10).
    pub major_treaties: f64,
    /// With `major_treaties`, at 0.5 or more the treaty it offers majors is a defensive military
    /// treaty (`diplomacy::majors_agree`, `alliances.rs`).
    pub major_defence: f64,
    /// DEN of loot per PV lost at or above which it sacks a city or a country it conquers
    /// (digest §4.17; a sack that gains PV is always made).
    pub sack_den_per_pv: f64,
    /// DEN of loot per PV lost at or above which its field army raids (pillages, §3.9) the best
    /// target it does not march on to conquer, if it wins the field fight at the `attack` odds.
    pub pillage_den_per_pv: f64,
    /// Its field army, idle at home a whole month under a named leader, tries to intercept an
    /// army marching on its lands within range when the battle code's P(win) of that field battle
    /// reaches this (above 1: never; digest §3.7).
    pub intercept: f64,
    /// At 0.5 or more it spies each turn (300 DEN) on its best-looking target (digest §4.11).
    pub spy: f64,
    /// At 0.5 or more it pays 50 DEN a month for counter-espionage (-3 to spies on it).
    pub counter_espionage: f64,
    /// Once a turn it tries to assassinate the commanding named leader of a country at war with
    /// it whose tactical value is at least this (above 5: never; digest §3.9).
    pub assassinate_tactical: u8,
    /// DEN it spends on an assassination attempt (+1 per full 500).
    pub assassination_den: i64,
    /// Warfleets (the scenario's type) it keeps per home city: it buys what it lacks (§4.5).
    pub warfleets_per_city: f64,
    /// Transport fleets (FTR) it keeps (§3.1.2: 5 land units each).
    pub transports: u8,
    /// Pirate fleets (morale D, §4.5.6) it keeps; with 10 they pillage by sea (L4447-L4452).
    pub pirate_fleets: u8,
    /// Naval leaders it keeps: a turn's leader search is stated naval while it lacks them (and
    /// at least as many of them as land leaders).
    pub naval_leaders_wanted: u8,
    /// DEN a unit it bids for mercenaries within reach (0: never; digest §4.5.9).
    pub mercenary_bid: i64,
    /// At 0.5 or more it hires the rules' share of its client and associated states' troops
    /// (50% and 30%, L446, L472).
    pub partner_hire: f64,
    /// Share of its damaged ships it repairs (groups of up to 3) and of its captured ships it
    /// crews each turn at its home port (digest §3.5.5, L2459; `repairs.rs`).
    pub repair_ships: f64,
    /// Share of its spare DEN it spends each turn on troops at a recruitment centre (0: never;
    /// §4.5.9 method 1; `recruiting.rs`).
    pub recruitment_centre: f64,
    /// At 0.5 or more it joins the commercial league of every trade route with a city of its
    /// (digest §4.9, L941); below, the routes through its cities stay shut.
    pub trade_leagues: f64,
    /// At 0.5 or more its pirate fleets sit on a maritime trade route of a league it is not in
    /// at each collection and take 30% of its profits (L4452).
    pub route_piracy: f64,
    /// Merchant fleets (FC) it keeps (digest §4.9; `sea_trade.rs`).
    pub merchant_fleets: u8,
    /// At 0.5 or more its merchant fleets load the manufactures before its caravans.
    pub ships_first: f64,
    /// Fishing fleets (FP) it keeps (rules §6.11).
    pub fishing_fleets: u8,
    /// At 0.5 or more its fishing fleets bring DEN, else COM (L1066).
    pub fish_for_den: f64,
    /// It ransoms a captured leader of at least this leadership (the higher value; 1,000 DEN a
    /// point, L2192) when the ransom leaves its reserve and wages (above 5: never).
    pub ransom_leadership: u8,
    /// It executes a leader it captured whose leadership is at least this (above 5: never).
    pub execute_leadership: u8,
    /// DEN it spends on its one persuasion of a fallen country's captured leader (+1 on 2D6 per
    /// full 500, L2246).
    pub persuasion_den: i64,
    /// Share of the DEN above reserve and wages it may spend on production improvements, new
    /// cities and enlargements each turn (`works.rs`; 0: none, the referee's countries).
    pub works_share: f64,
    /// Turns within which a work's output, at the black market's buying prices, must pay back its
    /// cost (never beyond the game's turn cap).
    pub works_payback: f64,
    /// At 0.5 or more a civilized country founds colonies (`colonies.rs`) when they pass the
    /// works' payback test.
    pub colonies: f64,
    /// Naval bases it builds (at most 2, L2378), each when its fleets want more naval factors
    /// than its ports may build at once.
    pub naval_bases: u8,
    /// Its fleets in a naval base refuse battle with a crossing whose fleets' ram factors exceed
    /// its own by this ratio's inverse (own < refuse_naval x theirs; 0: never refuse).
    pub refuse_naval: f64,
    /// Share of the DEN above reserve and wages it may spend on a road each turn (`roads.rs`; 0:
    /// none, the referee's countries).
    pub roads_share: f64,
    /// Share of the DEN above reserve and wages it may spend on a frontier wall hex each turn
    /// (`walls.rs`; 0: none, the referee's countries).
    pub walls_share: f64,
    /// Share of the DEN above reserve and wages it may spend on a major construction when the
    /// referee offers one (`major_works.rs`; 0: none, the referee's countries).
    pub major_works_share: f64,
    /// Share of the DEN above reserve and wages it puts into its capital's treasure each turn, in
    /// lots of 500 (`treasures.rs`; 0: none, the referee's countries).
    pub treasure_share: f64,
    /// Share of its culture's most extra POB it levies at each collection, in 5% steps
    /// (`levy.rs`; 0: none, the referee's countries).
    pub extra_levy: f64,
    /// The highest siege engine it builds for a siege (`engines.rs`; 0: none).
    pub engine_level: u8,
    /// It prospects for metal (0.5 or more) when a try's expected find repays it (`prospecting.rs`).
    pub prospecting: f64,
    /// It calls its militia against an army invading its home when that army's combat factors
    /// reach this multiple of its defenders' there (`militia.rs`; above 10: never).
    pub militia_ratio: f64,
    /// ... and only if its rebellion index after the call's first month stays at least this.
    pub militia_idr: i32,
    /// It gives 600 DEN lots to the population of its province with the lowest rebellion index
    /// while that is below this (`revolt.rs`; the referee's countries: 0, none).
    pub province_gift_idr: i32,
    /// The most PM it asks of a forced march (`forced_march.rs`; 0: never).
    pub forced_march: u8,
    /// At 0.5 or more it also forces the leg that reaches a field army waiting at its target.
    pub forced_march_battle: f64,
    /// The mount breeding level it buys once (`mounts.rs`; 0: none).
    pub mount_breeding: u8,
    /// Supply convoys its field army buys before an offensive and keeps (`supply.rs`).
    pub convoys: u8,
    /// Months of offensive food its army loads on its lands before an offensive.
    pub carried_months: u8,
    /// Months of food beyond the way home below which its army abroad turns home.
    pub supply_margin: u8,
    /// Months of offensive food below which its army abroad forages (`forage.rs`; 0: never).
    pub forage_months: u8,
    /// Share of its slaves (ESC) it frees each turn, in lots of 100, before the black market
    /// sells the rest (`slaves.rs`; 0: none, the referee's countries).
    pub slaves_freed: f64,
    /// Share of its slaves (ESC) it puts on a work it starts, in lots of 100, each lot a month
    /// sooner (`slaves.rs`; 0: none, the referee's countries).
    pub slaves_on_works: f64,
    /// At 0.5 or more its field army idle a whole month in a rival major's node razes one of its
    /// open cities there (`destruction.rs`; 0: never, the referee's countries).
    pub raze_cities: f64,
    /// At 0.5 or more, where it razes no city, the finished work there that yields the node's
    /// holder most (`destruction.rs`; 0: never, the referee's countries).
    pub raze_works: f64,
    /// Share of its spare DEN it spends a turn on the troops spreading the word brings (`word.rs`;
    /// 0: never, the referee's countries).
    pub spread_word: f64,
    /// Shares of the most steps (25%) of its home's and of each province's collected POB it
    /// enslaves at a collection (`enslave.rs`; 0: none, the referee's countries).
    pub enslave_home: f64,
    pub enslave_provinces: f64,
    /// Not a parameter: a target the search player names for one turn ([`Directive::Attack`]),
    /// marched on whatever the odds if the field army can set out; None: the policy's choice.
    pub target: Option<CountryId>,
}

pub use super::directive::{
    Directive, COURTING_GIFT, HIGHEST_BID, MORE_TRANSPORTS, RAISED_BID, WORKS_PAUSED,
};
pub use super::params::SCRIPTED;

fn scripted(v: &ParamValues) -> Policy {
    Policy::Scripted(Scripted::from_values(v))
}

impl Scripted {
    fn from_values(v: &ParamValues) -> Scripted {
        let value = |name: &str| v.get(SCRIPTED.iter().position(|p| p.name == name).unwrap());
        Scripted {
            taxes: value("taxes").round() as i8,
            tax_idr: value("tax_idr").round() as i32,
            reserve: value("reserve").round() as i64,
            food_stock: value("food_stock"),
            recruit: value("recruit"),
            heavy_share: value("heavy_share"),
            mounted_share: value("mounted_share"),
            gifts: value("gifts"),
            gift_goods: value("gift_goods"),
            fortify: value("fortify").round() as u8,
            garrison: value("garrison"),
            occupation: value("occupation"),
            attack: value("attack"),
            odds_trials: value("odds_trials").round() as u32,
            min_ratio: value("min_ratio"),
            siege_months: value("siege_months").round() as u8,
            peace: value("peace").round() as u32,
            overseas: value("overseas"),
            king_commands: value("king_commands"),
            leaders_wanted: value("leaders_wanted").round() as u8,
            envoys: value("envoys").round() as u8,
            envoy_gift: value("envoy_gift").round() as i64,
            pressure: value("pressure").round() as i32,
            envoy_food_metal: value("envoy_food_metal").round() as i64,
            envoy_goods: value("envoy_goods").round() as i64,
            envoy_caravan: value("envoy_caravan"),
            backed_pressure: value("backed_pressure"),
            break_treaties: value("break_treaties"),
            client_buying: value("client_buying"),
            market_sell: value("market_sell"),
            market_buy: value("market_buy"),
            caravans: value("caravans").round() as u8,
            major_treaties: value("major_treaties"),
            major_defence: value("major_defence"),
            sack_den_per_pv: value("sack_den_per_pv"),
            pillage_den_per_pv: value("pillage_den_per_pv"),
            intercept: value("intercept"),
            spy: value("spy"),
            counter_espionage: value("counter_espionage"),
            assassinate_tactical: value("assassinate_tactical").round() as u8,
            assassination_den: value("assassination_den").round() as i64,
            warfleets_per_city: value("warfleets_per_city"),
            transports: value("transports").round() as u8,
            pirate_fleets: value("pirate_fleets").round() as u8,
            naval_leaders_wanted: value("naval_leaders_wanted").round() as u8,
            mercenary_bid: value("mercenary_bid").round() as i64,
            partner_hire: value("partner_hire"),
            repair_ships: value("repair_ships"),
            recruitment_centre: value("recruitment_centre"),
            trade_leagues: value("trade_leagues"),
            route_piracy: value("route_piracy"),
            merchant_fleets: value("merchant_fleets").round() as u8,
            ships_first: value("ships_first"),
            fishing_fleets: value("fishing_fleets").round() as u8,
            fish_for_den: value("fish_for_den"),
            ransom_leadership: value("ransom_leadership").round() as u8,
            execute_leadership: value("execute_leadership").round() as u8,
            persuasion_den: value("persuasion_den").round() as i64,
            works_share: value("works_share"),
            works_payback: value("works_payback"),
            colonies: value("colonies"),
            naval_bases: value("naval_bases").round() as u8,
            refuse_naval: value("refuse_naval"),
            roads_share: value("roads_share"),
            walls_share: value("walls_share"),
            major_works_share: value("major_works_share"),
            treasure_share: value("treasure_share"),
            extra_levy: value("extra_levy"),
            engine_level: value("engine_level").round() as u8,
            prospecting: value("prospecting"),
            militia_ratio: value("militia_ratio"),
            militia_idr: value("militia_idr").round() as i32,
            province_gift_idr: value("province_gift_idr").round() as i32,
            forced_march: value("forced_march").round() as u8,
            forced_march_battle: value("forced_march_battle"),
            mount_breeding: value("mount_breeding").round() as u8,
            convoys: value("convoys").round() as u8,
            carried_months: value("carried_months").round() as u8,
            supply_margin: value("supply_margin").round() as u8,
            forage_months: value("forage_months").round() as u8,
            slaves_freed: value("slaves_freed"),
            slaves_on_works: value("slaves_on_works"),
            raze_cities: value("raze_cities"),
            raze_works: value("raze_works"),
            spread_word: value("spread_word"),
            enslave_home: value("enslave_home"),
            enslave_provinces: value("enslave_provinces"),
            target: None,
        }
    }

    pub fn defaults() -> Scripted {
        Scripted::from_values(&ParamValues(SCRIPTED.iter().map(|p| p.default).collect()))
    }

    /// The referee's script for the countries no player runs: the scripted economy at its
    /// defaults with normal taxes and no gifts (PV win nothing for a country that cannot win),
    /// defending only (§28 lets them attack; this script never does), keeping the one named
    /// leader the rules always leave it (no searches), sending no envoys (the text's diplomacy is
    /// the players' proposals to them). It ransoms its captured leaders and holds (never
    /// executes) those it takes as the scripted defaults do: capture and ransom are no attack;
    /// it never conquers, so it never persuades.
    pub fn referee() -> Scripted {
        Scripted {
            attack: 2.0,
            envoys: 0,
            market_sell: 0.0,
            market_buy: 0.0,
            caravans: 0,
            gifts: 0.0,
            gift_goods: 0.0,
            taxes: 0,
            leaders_wanted: 1,
            spy: 0.0,
            counter_espionage: 0.0,
            assassinate_tactical: 6,
            naval_leaders_wanted: 0,
            mercenary_bid: 0,
            partner_hire: 0.0,
            recruitment_centre: 0.0,
            route_piracy: 0.0,
            merchant_fleets: 0,
            fishing_fleets: 0,
            works_share: 0.0,
            roads_share: 0.0,
            walls_share: 0.0,
            major_works_share: 0.0,
            treasure_share: 0.0,
            extra_levy: 0.0,
            province_gift_idr: 0,
            engine_level: 0,
            prospecting: 0.0,
            mount_breeding: 0,
            slaves_freed: 0.0,
            slaves_on_works: 0.0,
            raze_cities: 0.0,
            raze_works: 0.0,
            spread_word: 0.0,
            enslave_home: 0.0,
            enslave_provinces: 0.0,
            ..Scripted::defaults()
        }
    }
}

pub const KINDS: &[PolicyKind<Player>] = &[
    PolicyKind {
        name: "scripted",
        summary: "economy (taxes, reserve, food stock, recruitment share and mix, gifts, fortification), war (target by the battle code's odds, siege months before the assault, truce after a defeat), leaders and diplomacy (envoys, gifts, pressure, breaking treaties, buying from client states) and trade (black-market sales and purchases, caravans), sack and pillage (DEN of loot per PV)",
        params: SCRIPTED,
        build: |v| Player {
            policy: scripted(v),
            search: None,
        },
    },
    PolicyKind {
        name: "random",
        summary: "legal choices at random: tax level, recruitment share and mix, gifts, fortification, whether and whom to attack among the reachable neighbours, siege months, who leads the field army, leader searches, envoys, their gifts and pressure, breaking treaties, buying from client states, black-market trade, caravans, what it sacks and whether it raids instead of conquering",
        params: &[],
        build: |_| Player {
            policy: Policy::Random,
            search: None,
        },
    },
];

pub const CATALOG: PolicyCatalog<Player> = PolicyCatalog {
    kinds: KINDS,
    // A searcher is its rollout policy with a search spec: one directive a turn chosen by
    // rollouts (super::search). A turn costs about 0.1 ms, a rollout to the end up to 60 turns:
    // the default horizon of 6 turns (a year: one April tax, one December peace row, three
    // collections and their gifts) keeps a decision at the default budget near 20 ms, up to
    // two thirds more where a challenger leads after the halving and is confirmed. A dozen
    // directives or more are halved on few rollouts each, so an overrule is confirmed on fresh
    // ones (16 pairs): without it the tuned play was overruled on noise and the searcher won
    // less than its rollout policy (experiments/mediterraneo-ladder.toml's header).
    search: Some(SearchSupport {
        build: |spec, rollout| Player {
            search: Some(spec),
            ..rollout
        },
        defaults: SearchSpec {
            budget: 48,
            horizon: 6,
            margin: Some(2.0),
            confirm: 16,
        },
    }),
};
