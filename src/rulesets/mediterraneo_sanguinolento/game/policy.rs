//! The players of the Mediterráneo sanguinolento game: the scripted player (economy and war, its
//! parameters declared once here for `alea list`, `alea tune` and `alea ladder`), `random`, and the
//! referee's own script for the non-player countries (digest §1.3, §6.2). `search` is the
//! engine's search player over another policy of the catalog ([`super::search`]): each turn it
//! may overrule its rollout policy by a [`Directive`].

use super::scenario::CountryId;
use crate::game::policy::{Param, ParamValues, PolicyCatalog, PolicyKind, SearchSupport};
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
    /// It prospects for metal (0.5 or more) when a try's expected find repays it (`prospecting.rs`).
    pub prospecting: f64,
    /// It calls its militia against an army invading its home when that army's combat factors
    /// reach this multiple of its defenders' there (`militia.rs`; above 10: never).
    pub militia_ratio: f64,
    /// ... and only if its rebellion index after the call's first month stays at least this.
    pub militia_idr: i32,
    /// Not a parameter: a target the search player names for one turn ([`Directive::Attack`]),
    /// marched on whatever the odds if the field army can set out; None: the policy's choice.
    pub target: Option<CountryId>,
}

pub const SCRIPTED: &[Param] = &[
    Param {
        name: "taxes",
        summary: "tax level each April: -2 lower x2, -1 lower x1.5, 0 normal, 1 raise x1.5, 2 raise x2 (PV and rebellion index by the §4.19 table)",
        min: -2.0,
        max: 2.0,
        // Lowering ×2 is +6 PV a year for a civilized major (§4.19) for half its April DEN; the
        // treasuries of the placeholder economy are never short (tens of thousands of DEN unspent
        // at the cap with normal taxes), so the money is worth less than the PV.
        default: -2.0,
    },
    Param {
        name: "tax_idr",
        summary: "rebellion index a tax raise must leave (a raise that would leave less falls back to the highest level that does not, down to normal taxes)",
        min: 0.0,
        max: 2000.0,
        default: 600.0,
    },
    Param {
        name: "reserve",
        summary: "DEN kept in the treasury before troops, works or gifts",
        min: 0.0,
        max: 5000.0,
        default: 300.0,
    },
    Param {
        name: "food_stock",
        summary: "COM kept in stock, as a multiple of the next feeding of population and army",
        min: 0.0,
        max: 4.0,
        default: 1.0,
    },
    Param {
        name: "recruit",
        summary: "share of the POB on hand turned into troops at each purchase",
        min: 0.0,
        max: 1.0,
        default: 0.7,
    },
    Param {
        name: "heavy_share",
        summary: "recruitment mix: share of the country's first (heavy) unit kind",
        min: 0.0,
        max: 1.0,
        default: 0.4,
    },
    Param {
        name: "mounted_share",
        summary: "recruitment mix: share of the country's mounted unit kind",
        min: 0.0,
        max: 1.0,
        default: 0.2,
    },
    Param {
        name: "gifts",
        summary: "share of each collection period's gift cap (2,000 DEN worth, digest §4.19) given to the population",
        min: 0.0,
        max: 1.0,
        // The whole cap: a gift is the cheapest PV there is (a civilized major's 300 COM are 3 PV,
        // 600 DEN 2), given only from what lies above the food stock and the DEN reserve. At 0.5
        // an untuned major (Atenas, Esparta in the competent file) sat on 1,600 COM and 5,700 DEN
        // at turn 36 while giving half the cap (issue 22, ms18).
        default: 1.0,
    },
    Param {
        name: "fortify",
        summary: "fortification level the capital is raised to (B at most 4, B/C 6, C the option civilized_max_fortification)",
        min: 0.0,
        max: 10.0,
        default: 3.0,
    },
    Param {
        name: "garrison",
        summary: "share of the army left at home when the field army marches",
        min: 0.0,
        max: 1.0,
        default: 0.3,
    },
    Param {
        name: "occupation",
        summary: "share of the field army left to hold each country it conquers (occupation troops; an empty conquest falls to whoever marches in)",
        min: 0.0,
        max: 1.0,
        default: 0.25,
    },
    Param {
        name: "attack",
        summary: "march on the best-looking target when the battle code's P(win) of its decisive fight (field battle, or assault when no army defends) is at least this",
        min: 0.0,
        max: 1.0,
        default: 0.6,
    },
    Param {
        name: "odds_trials",
        summary: "fights simulated with the battle code behind that P(win)",
        min: 1.0,
        max: 64.0,
        default: 6.0,
    },
    Param {
        name: "min_ratio",
        summary: "the best-looking target's combat-factor ratio (own : its defenders, the garrison times its walls) below which the battle code's odds are not simulated and nobody marches",
        min: 0.0,
        max: 5.0,
        default: 1.0,
    },
    Param {
        name: "siege_months",
        summary: "months a capital is besieged (walls -1 a month, hunger, surrender) before it is assaulted",
        min: 0.0,
        max: 6.0,
        default: 1.0,
    },
    Param {
        name: "peace",
        summary: "turns a beaten attacker leaves its target alone (a truce of its own, not a treaty)",
        min: 0.0,
        max: 30.0,
        default: 6.0,
    },
    Param {
        name: "overseas",
        summary: "weight of an overseas target's shortlist score (a sea-lane neighbour of the home node, reached by the fleets' transport, against storms and the holder's fleets; 0: never crosses the sea)",
        min: 0.0,
        max: 1.0,
        default: 0.5,
    },
    // Appended after the war parameters: tuned files and ladders read parameters by name, the
    // catalog's order is the tuner's.
    Param {
        name: "king_commands",
        summary: "at 0.5 or more the king leads the field army when it marches (if he is the leader in command); below, the best other named leader leads it and the king stays home",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "leaders_wanted",
        summary: "named leaders kept: while it has fewer the country pays 100 DEN each turn (two months) for a search, found on 2D6 >= 10 (digest §4.13)",
        min: 0.0,
        max: 4.0,
        default: 2.0,
    },
    // Appended after the leaders: diplomacy (digest §4.10).
    Param {
        name: "envoys",
        summary: "proposals sent each turn to the referee's countries it borders or reaches by sea (an ambassador for these: 1 POB, 1 CAB, 100 DEN, 25 DEN a year): the two d100 rolls of digest §4.10",
        min: 0.0,
        max: 4.0,
        default: 1.0,
    },
    Param {
        name: "envoy_gift",
        summary: "DEN given with each proposal on an audience (lost if the envoy is killed): +1 on the first roll per full 100 above 200, at most +10",
        min: 0.0,
        max: 1200.0,
        default: 300.0,
    },
    Param {
        name: "pressure",
        summary: "military or commercial pressure on each proposal: +0 to +10 on the first roll, as much against it when the natural d100 is 50 or less",
        min: 0.0,
        max: 10.0,
        default: 0.0,
    },
    Param {
        name: "break_treaties",
        summary: "at 0.5 or more a treaty partner may be marched on (the treaty is broken: -5 PV, option treaty_breach_pv, and war); below, treaty partners are never targets",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "client_buying",
        summary: "share bought after each collection of what client and associated states may sell (50% and 75% of their production of COM, MET, MAD, PIE, MAN at 1 DEN a unit)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    // Appended after diplomacy: trade (digest §4.9).
    Param {
        name: "market_sell",
        summary: "share of the surplus sold to the black market each turn (resources its unit kinds do not cost, beyond the walls' stone and the caravans' wood and animals; never COM; MAN only without caravans), at the sale value of option black_market_sale, within the limits of option black_market_limits",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "market_buy",
        summary: "share of the spare DEN (above the reserve and the next wages, after the troops' morale cost) spent each turn at the black market on the resources this turn's purchases lack, at the printed buying prices",
        min: 0.0,
        max: 1.0,
        default: 0.5,
    },
    Param {
        name: "caravans",
        summary: "caravans kept (50 POB, 50 DEN, 200 MAD, 100 CAB or CAM each): each carries up to 500 MAN to the best-paying city of a trade-treaty partner and brings the DEN home",
        min: 0.0,
        max: 3.0,
        default: 1.0,
    },
    // Appended after trade: treaties between majors (digest §4.10).
    Param {
        name: "major_treaties",
        summary: "at 0.5 or more it offers every major it borders, reaches by a sea lane from home or reaches by an ambassador (either side's) an equal-terms trade treaty, signed when that major offers one too (+1 PV each, no march on each other unless a policy breaks treaties, caravans may sell there)",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    // Appended after the treaties between majors: sack and pillage (digest §4.17, §3.9).
    Param {
        name: "sack_den_per_pv",
        summary: "at each conquest it sacks each city, and the country, whose loot is worth at least this many DEN (at black-market sale value) per PV the sack costs it (§4.19 rows, the treasure row, a sacred city's -35 PV if it is one of its nations; a sack that gains PV is always made): a city yields its printed treasure the first time, else twice its DEN production; a country twice one collection's production (POB 0), then nothing to anybody for 12 months, and the sacker recruits from half its POB for a year",
        min: 0.0,
        max: 5000.0,
        // A civilized major sacks a country (-4 PV for about 2,200 DEN of placeholder produce)
        // and the treasure cities (-5 PV for 5,000-10,000 DEN) but not an ordinary city (-3 PV
        // for 300 DEN).
        default: 500.0,
    },
    Param {
        name: "pillage_den_per_pv",
        summary: "when it does not march on the best target to conquer it, its field army (at least 10 units) raids it if the loot (1% of a collection's production, rounded up; as much destroyed) is worth at least this many DEN per PV the pillage row costs it (a pillage that gains PV is always made) and the field fight's P(win) reaches attack",
        min: 0.0,
        max: 200.0,
        // A civilized major pays 2 PV for some 10-20 DEN: it does not raid at this default.
        default: 50.0,
    },
    // Appended after sack and pillage: interception, espionage, assassination (digest §3.7,
    // §4.11, §3.9).
    Param {
        name: "intercept",
        summary: "its field army, idle at home a whole month under a named leader, tries once to intercept an army marching on its lands that moves within range (1D10 + strategic + 3 mounted only + 1 own territory - distance >= 7, option interception_bands) when the battle code's P(win) of that field battle is at least this (above 1: never; no odds are simulated below min_ratio's factor ratio)",
        min: 0.0,
        max: 1.1,
        default: 0.6,
    },
    Param {
        name: "spy",
        summary: "at 0.5 or more it spies each turn (300 DEN, general information: 2D6 bands of digest §4.11) on its best-looking target's field army; the report arrives after the travel time (light cavalry by land, galleys by sea) and feeds the war odds under option war_intelligence = spied",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "counter_espionage",
        summary: "at 0.5 or more it pays 50 DEN a month for counter-espionage (-3 on the rolls of spies on it)",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "assassinate_tactical",
        summary: "once a turn it tries to assassinate the commanding named leader of the country its field army marches on or besieges (or that marches on it) when his tactical value is at least this (above 5: never); the aggressor loses PV by option assassination_pv",
        min: 0.0,
        max: 6.0,
        default: 6.0,
    },
    Param {
        name: "assassination_den",
        summary: "DEN paid for each assassination attempt (+1 on the 2D6 per full 500; 13 or more kills, a natural 4 or less fails)",
        min: 0.0,
        max: 5000.0,
        default: 2000.0,
    },
    // Appended by ms13: fleets, naval leaders and pirates (digest §4.5, §4.13, §4.5.6).
    Param {
        name: "warfleets_per_city",
        summary: "warfleets (the scenario's fleet type, regular C crews) it keeps per home city: each turn with nothing on its stocks it buys what it lacks at the printed cost (POB, DEN, MET, MAD) and the crews' morale cost, within 30 ram factors per home city (L2691), ready after 4 months",
        min: 0.0,
        max: 3.0,
        // The scenario's start: one per coastal city; it replaces what storms and battles sink.
        default: 1.0,
    },
    Param {
        name: "transports",
        summary: "transport fleets (FTR: 5 land units each, ram 1) it keeps, bought like the warfleets",
        min: 0.0,
        max: 10.0,
        default: 0.0,
    },
    Param {
        name: "pirate_fleets",
        summary: "pirate fleets (its warfleet type, irregular D crews, ready after 3 months) it keeps; with 10 of them it sends them once a turn to pillage by landing (1% of a collection's production, as much destroyed, half the loot home) the sea-lane neighbour whose loot is worth most, when that half is worth pillage_den_per_pv DEN per PV the pillage row costs",
        min: 0.0,
        max: 20.0,
        default: 0.0,
    },
    Param {
        name: "naval_leaders_wanted",
        summary: "naval leaders it keeps (at most 2): a turn's leader search (100 DEN, 2D6 >= 10) is stated naval while it lacks at least as many naval as land leaders",
        min: 0.0,
        max: 2.0,
        default: 1.0,
    },
    Param {
        name: "mercenary_bid",
        summary: "DEN a unit it bids, sealed, for mercenaries that appear within a month's move of its home or field army (0: never; within its DEN above the reserve and next payments; the highest bid wins, ties by lot; a yearly upkeep of a tenth of the price, unpaid they desert)",
        min: 0.0,
        max: 1000.0,
        default: 300.0,
    },
    Param {
        name: "partner_hire",
        summary: "at 0.5 or more it hires, once a partner, 50% of a client state's and 30% of an associated state's most numerous kind as mercenaries (the table's partner_price times their morale cost, paid to the partner; a yearly upkeep of a tenth of it)",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "repair_ships",
        summary: "share of its damaged ships it repairs each turn at its home port (whole groups of up to 3 ships, each 1/10 of the fleet's DEN cost, 1/3 of its MAD and MET, 1/4 of its crew's POB and the crew's morale cost), and of its captured ships it crews (their share of the crew's morale cost), within its stocks above its DEN reserve and wages",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "recruitment_centre",
        summary: "share of its DEN above its reserve and wages it spends each turn on troops at a recruitment centre (0: never): in a country whose treaty with it grants permission (option recruitment_permission), a recruiter (100 DEN + 1 CAB or CAM) once, then the host's strongest kind at +50% money and -50% metal, up to the host's one-collection POB (taken from its POB), joining as a band after option recruitment_wait's turns (default 0: the bands cost about 6% of a game's time, so the tuner turns it on)",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    // Trade routes (digest §4.9, L924-L953; L4447-L4452).
    Param {
        name: "trade_leagues",
        summary: "at 0.5 or more it joins the commercial league of every trade route through its cities (abstraction.toml [trade_routes]): each collection every member earns 100 DEN and 100 of each route product, and its caravans may travel the route for 50 points a hex (at most 1,000); below, the routes through its cities stay shut",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "route_piracy",
        summary: "at 0.5 or more its pirate fleets (at least one in port) sail at each collection to a sea leg of a trade route whose league it is not in, within a sea lane of home, through the storms, and take 30% of the league's profits (its half of that loot by option route_piracy_loot)",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    // Trade by sea and fishing (digest §4.9, rules §6.10-§6.11, L5225; `sea_trade.rs`).
    Param {
        name: "merchant_fleets",
        summary: "merchant fleets (FC: 100 POB, 100 DEN, 150 MAD, 3 months) it keeps in its home port: each sails with up to 5 lots of 100 MAN over the sea lanes to the trade partner's port that pays most a month of the trip (the sea table times the port's importance, the receiver a third more), or along a trade route's sea legs for 25 points a hex, through the storms, and banks the money at home (Cartago and Atenas +10 DEN a foreign port put in at)",
        min: 0.0,
        max: 3.0,
        default: 1.0,
    },
    Param {
        name: "ships_first",
        summary: "at 0.5 or more its merchant fleets load the manufactures before its caravans, below the caravans load first",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    },
    Param {
        name: "fishing_fleets",
        summary: "fishing fleets (FP: 200 POB, 50 DEN, 125 MAD, 3 months) it keeps: 5 months at sea then 1 in port, each month the table's COM or DEN for the richest sea its home touches (rain -1 COM, storm -2), through the storms",
        min: 0.0,
        max: 10.0,
        default: 2.0,
    },
    Param {
        name: "fish_for_den",
        summary: "at 0.5 or more its fishing fleets bring DEN (12 a COM), below COM",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    // Captured leaders (digest §4.13, L2192, L2238-L2246; `captives.rs`).
    Param {
        name: "ransom_leadership",
        summary: "it ransoms each of its captured named leaders whose leadership (the higher of his two values) is at least this, for 1,000 DEN a point (the captor must accept, L2192), when the ransom leaves its DEN reserve and wages (above 5: never)",
        min: 0.0,
        max: 6.0,
        // The civilized kings' 3-2 and better (3,000 DEN or more): a search finds a leader for
        // about 600 DEN (100 a turn at 1/6) but only once a year on average, and the placeholder
        // treasuries hold thousands unspent; a 2-x leader is worth the search.
        default: 3.0,
    },
    Param {
        name: "execute_leadership",
        summary: "it executes each named leader it captures whose leadership is at least this, instead of holding him for ransom (no PV either way: §4.19 has no row for it; above 5: never)",
        min: 0.0,
        max: 6.0,
        // Holding keeps the ransom the enemy may pay; an execution only denies him his leader.
        default: 6.0,
    },
    Param {
        name: "persuasion_den",
        summary: "DEN it spends on its one attempt to persuade each captured leader of a country it conquered (not its king, not after a sack there): 2D6 + 1 per full 500 >= 10 and he serves it, commanding only the occupation troops of his old country (L2238-L2246)",
        min: 0.0,
        max: 4000.0,
        // +2: 15/36 for 1,000 DEN, a third of a king's ransom, for a leader who holds the province.
        default: 1000.0,
    },
    // Production improvements, new cities and enlargements (digest §4.7-§4.8; `works.rs`).
    Param {
        name: "works_share",
        summary: "share of the DEN above reserve and wages spent each turn on production improvements (mining, crops, reforestation, quarry, manufactures, fishing factory, shipyard), new cities and enlargements, best payback first",
        min: 0.0,
        max: 1.0,
        // The placeholder treasuries lie idle (tens of thousands of DEN at the cap): a work
        // that pays back within the game is worth more than money never spent.
        default: 1.0,
    },
    Param {
        name: "works_payback",
        summary: "turns within which a work's output at the black market's buying prices (POB unpriced) must repay its DEN and materials (never beyond the turn cap, building months counted); a shipyard is built last, when the policy keeps fleets",
        min: 0.0,
        max: 60.0,
        default: 60.0,
    },
    // Colonies and naval bases (digest §4.7; `colonies.rs`, `works.rs`, `naval.rs`).
    Param {
        name: "colonies",
        summary: "at 0.5 or more a civilized country founds colonies (a city's price and yield, 200 POB settlers) in a referee's country it reaches, the one whose treaty with it is weakest, when they pass the works' payback test",
        min: 0.0,
        max: 1.0,
        // A colony yields as a new city and adds +10 to the rolls with its host: where a new city
        // pays back, so does a colony.
        default: 1.0,
    },
    Param {
        name: "naval_bases",
        summary: "naval bases built (at most 2), each when the fleets the policy keeps want more naval factors than its ports may build at once (a base doubles one port's 30)",
        min: 0.0,
        max: 2.0,
        default: 2.0,
    },
    Param {
        name: "refuse_naval",
        summary: "fleets in a naval base refuse battle with a crossing army's fleets when their ram factors are below this times the crossing's (the army lands, the fleets stay whole; 0: never refuse)",
        min: 0.0,
        max: 3.0,
        // Weaker than the crossing, a fight is likely lost and does not stop the landing.
        default: 1.0,
    },
    // Roads (digest §4.7; `roads.rs`).
    Param {
        name: "roads_share",
        summary: "share of the DEN above reserve and wages it may spend each turn on a road (one under way at a time) along a land link between two nodes it holds, the cheapest first: half the PM on it for every unit, and the §4.19 row per road built (0 / 1 / 1 PV)",
        min: 0.0,
        max: 1.0,
        // A road is a PV for a few hundred DEN and stone the idle placeholder treasuries can
        // spare, and it shortens the marches from home to the frontier.
        default: 1.0,
    },
    // Prospecting (digest §4.8; `prospecting.rs`).
    Param {
        name: "prospecting",
        summary: "whether (0.5 or more) it prospects for metal at home, once a month for 400 DEN, when a try's expected vein (its chance by the terrain, +10% of the base metal production a collection, A64) repays it before the turn cap",
        min: 0.0,
        max: 1.0,
        // A try is made only where it pays back on average.
        default: 1.0,
    },
    // Militia (digest §4.5.5; `militia.rs`).
    Param {
        name: "militia_ratio",
        summary: "calls the militia (3 x floor(last collected POB / 200) IL-ID, free; -2 PV and -50/-100/-120 IDR a month, IDR per 20 POB called) when an army invading its home has this multiple of its defenders' combat factors there (walls not counted; above 10: never)",
        min: 0.0,
        max: 11.0,
        // Losing the home costs 15 + 8 + 3 a city PV and everything in it: two PV a month are
        // cheap against an invader half as strong as the defenders or more.
        default: 0.5,
    },
    Param {
        name: "militia_idr",
        summary: "... only if its rebellion index after the call's first month stays at this or above (a revolt at 0 costs its row and a year of 75% POB)",
        min: -1000.0,
        max: 1000.0,
        // A revolt (-6 PV for a civilized major, a year at 75% POB) is dearer than the militia's
        // help against most invasions; at 0 it is called whenever no revolt follows at once.
        default: 0.0,
    },
];

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
            break_treaties: value("break_treaties"),
            client_buying: value("client_buying"),
            market_sell: value("market_sell"),
            market_buy: value("market_buy"),
            caravans: value("caravans").round() as u8,
            major_treaties: value("major_treaties"),
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
            prospecting: value("prospecting"),
            militia_ratio: value("militia_ratio"),
            militia_idr: value("militia_idr").round() as i32,
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
            prospecting: 0.0,
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

/// The gift of a [`Directive::Court`]: the smallest that gives the +10 cap.
pub const COURTING_GIFT: i64 = 1200;

/// What a [`Directive::Fleets`]`(true)` adds to the policy's fleets: one warfleet more per home
/// city and this many transports more (one army crossing's worth of units).
pub const MORE_TRANSPORTS: u8 = 2;

/// The lowest bid a unit of a [`Directive::Mercenaries`]`(true)`: twice the policy's, at least this
/// (twice the parameter's default) and at most [`HIGHEST_BID`].
pub const RAISED_BID: i64 = 600;
/// The parameter's range's top: a raised bid never exceeds it.
pub const HIGHEST_BID: i64 = 1000;

/// A searching major's overrule of its rollout policy for one turn. Every directive but
/// `Attack` moves numbers of the scripted policy (the random policy has none to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Directive {
    /// The rollout policy decides (the baseline every search compares against).
    #[default]
    Follow,
    /// No march this turn.
    Hold,
    /// March at lower odds: the P(win) threshold 0.2 lower, the factor-ratio gate halved.
    Bold,
    /// March on this country (a land neighbour held by another) whatever the odds.
    Attack(CountryId),
    /// No troops bought this turn.
    Save,
    /// Every troop bought this turn of the heavy (first) kind.
    Heavy,
    /// This turn's collection gives the whole gift cap (as far as the reserves allow), or none.
    Gifts(bool),
    /// The April collection of this turn sets this tax level (-2 ..= 2; no rebellion-index gate).
    Taxes(i8),
    /// This turn one envoy more than the policy's, each with the largest gift that counts (1,200
    /// DEN: +10), and treaties offered to the other majors; or no envoy and no offer.
    Court(bool),
    /// This turn trade all it may (the whole surplus sold, the whole spare DEN for what the
    /// purchases lack, at least one caravan), or not at all (caravans on the road go on).
    Trade(bool),
    /// This turn's fleet purchases: none at all (warfleets, transports, pirate fleets), or more
    /// than the policy keeps (one warfleet more per home city, [`MORE_TRANSPORTS`] transports
    /// more); pirate fleets as the policy's.
    Fleets(bool),
    /// This turn's sealed mercenary bid: none, or raised (twice the policy's, at least
    /// [`RAISED_BID`], at most [`HIGHEST_BID`] DEN a unit).
    Mercenaries(bool),
    /// This turn it hires its client and associated states' troops (as `partner_hire` 1), or not
    /// (as 0).
    Partners(bool),
    /// This turn's production improvements, new cities, enlargements (`works.rs`) and road
    /// (`roads.rs`): none (the DEN kept for troops, gifts and the rest), or as many works as pay
    /// back within the game and the next road (`works_share`, `works_payback` and `roads_share`
    /// at their ranges' tops).
    Works(bool),
}

/// The `works_share` and `roads_share` of a [`Directive::Works`]`(false)`: a share of the spare
/// DEN too small to pay any work or road, but not 0, so the policy still keeps its stone and wood
/// from the black market's buyers for the works and roads of the turns after (a share of 0 would
/// sell them this turn).
pub const WORKS_PAUSED: f64 = f64::MIN_POSITIVE;

/// The top of a scripted parameter's range (declared once, in [`SCRIPTED`]).
fn range_top(name: &str) -> f64 {
    SCRIPTED
        .iter()
        .find(|p| p.name == name)
        .map_or(0.0, |p| p.max)
}

impl Directive {
    /// The plan a country playing `own` follows this turn under this directive.
    pub fn apply(self, own: Scripted) -> Scripted {
        let mut p = own;
        match self {
            Directive::Follow => {}
            Directive::Hold => p.attack = 2.0,
            Directive::Bold => {
                p.attack = (p.attack - 0.2).max(0.0);
                p.min_ratio *= 0.5;
            }
            Directive::Attack(t) => p.target = Some(t),
            Directive::Save => p.recruit = 0.0,
            Directive::Heavy => (p.heavy_share, p.mounted_share) = (1.0, 0.0),
            Directive::Gifts(all) => p.gifts = if all { 1.0 } else { 0.0 },
            Directive::Taxes(level) => (p.taxes, p.tax_idr) = (level, i32::MIN),
            Directive::Court(true) => {
                p.envoys = p.envoys.saturating_add(1);
                p.envoy_gift = COURTING_GIFT;
                p.major_treaties = 1.0;
            }
            Directive::Court(false) => (p.envoys, p.major_treaties) = (0, 0.0),
            Directive::Trade(true) => {
                (p.market_sell, p.market_buy) = (1.0, 1.0);
                p.caravans = p.caravans.max(1);
            }
            Directive::Trade(false) => (p.market_sell, p.market_buy, p.caravans) = (0.0, 0.0, 0),
            Directive::Fleets(false) => {
                (p.warfleets_per_city, p.transports, p.pirate_fleets) = (0.0, 0, 0);
            }
            Directive::Fleets(true) => {
                p.warfleets_per_city += 1.0;
                p.transports = p.transports.saturating_add(MORE_TRANSPORTS);
            }
            Directive::Mercenaries(false) => p.mercenary_bid = 0,
            Directive::Mercenaries(true) => {
                p.mercenary_bid = (2 * p.mercenary_bid).clamp(RAISED_BID, HIGHEST_BID);
            }
            Directive::Partners(hire) => p.partner_hire = if hire { 1.0 } else { 0.0 },
            Directive::Works(false) => {
                (p.works_share, p.roads_share) = (WORKS_PAUSED, WORKS_PAUSED)
            }
            Directive::Works(true) => {
                p.works_share = range_top("works_share");
                p.works_payback = range_top("works_payback");
                p.roads_share = range_top("roads_share");
            }
        }
        p
    }
}
