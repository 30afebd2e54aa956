//! The scripted player's parameters, declared once: name, meaning, range and default (what
//! `alea list`, `alea tune` and `alea ladder` read; [`super::policy::Scripted`] reads its values
//! from them by name).

use crate::game::policy::Param;

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
        summary: "rebellion index a tax raise must leave in every land it reaches, the lowest of them by option province_burdens (a raise that would leave less falls back to the highest level that does not, down to normal taxes); also the floor of the extra levy",
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
        name: "gift_goods",
        summary: "at 0.5 or more, gifts to the population may also be stone, wood, horses and camels beyond what it keeps (600 PIE, 600 MAD, 800 CAB, 600 CAM a lot), each lot chosen for the most PV, then rebellion index, per DEN of sale value within the cap; below, COM and DEN only",
        min: 0.0,
        max: 1.0,
        // A barbarian or B/C major's 600 PIE score as 600 DEN do, with twice the rebellion index,
        // and keep the DEN; a surplus beyond the black market's sale limit is otherwise idle.
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
        summary: "at 0.5 or more the king leads the field army when it marches (if he is the leader in command), each month away costing the L4336 row (option king_abroad); below, the best other named leader leads it and the king stays home",
        min: 0.0,
        max: 1.0,
        default: 0.0,
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
    // Gifts other than DEN and backed pressure (digest §4.10 L586-L654; `envoy_gifts.rs`).
    Param {
        name: "envoy_food_metal",
        summary: "worth (DEN at black-market sale value) of food, then metal, given with each proposal beyond the next feeding's food and what its troops use: from 200, +1 on the first roll per full 100 above, at most +10; given on an audience, lost if the envoy is killed, else brought back",
        min: 0.0,
        max: 1200.0,
        // None unless the tuner finds it pays: the DEN gift already buys the same +1 per 100.
        default: 0.0,
    },
    Param {
        name: "envoy_goods",
        summary: "worth (DEN at black-market sale value) of other products (PIE, MAD, CAB, CAM, MAN, in that order, beyond what it keeps) given with each proposal: from 200, +1 on the first roll per full 100 above, at most +9; given on an audience, lost if the envoy is killed, else brought back",
        min: 0.0,
        max: 1100.0,
        default: 0.0,
    },
    Param {
        name: "envoy_caravan",
        summary: "at 0.5 or more an idle empty caravan at home goes with each proposal as military material (+1 from 100 DEN of worth, +1 per full 100 above, at most +15: a caravan, 350, is +3); given on an audience or lost with a killed envoy (the policy buys another when it can), else brought back",
        min: 0.0,
        max: 1.0,
        default: 0.0,
    },
    Param {
        name: "backed_pressure",
        summary: "at 0.5 or more each proposal asks its partners' backing (defensive treaty or better, holding their homes, bordering the target or on a sea lane to it): option backed_pressure's points, at most +20 on the first roll, up to 10 against when the natural d100 is 50 or less",
        min: 0.0,
        max: 1.0,
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
    Param {
        name: "major_defence",
        summary: "at 0.5 or more, the treaty it offers majors (with major_treaties) is a defensive military treaty, signed when that major offers one too (a trade treaty between them is raised to one: an extension): each one's field army, idle at home within a month's move, meets a third major's army arriving by land at the other's lands first, by option reasonable_defence",
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
        summary: "its field army, idle at home a whole month under a named leader, tries once to intercept an army marching on its lands that moves within range (1D10 + strategic + 3 mounted only - 3 with a supply convoy + 1 own territory - distance >= 7, option interception_bands) when the battle code's P(win) of that field battle is at least this (above 1: never; no odds are simulated below min_ratio's factor ratio)",
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
    // Frontier walls (digest §4.7 L3816-L3818; `walls.rs`).
    Param {
        name: "walls_share",
        summary: "share of the DEN above reserve and wages it may spend each turn on a frontier wall hex (one under way at a time; 150 DEN + 100 PIE, a month) on a land link out of a node it holds, frontiers first: 1 PV a hex (§4.19), and a closed frontier costs other nations' armies +2 PM to cross",
        min: 0.0,
        max: 1.0,
        // A PV for 150 DEN and 100 stone, the cheapest row after the gifts; half of the spare
        // DEN leaves the rest for troops and works.
        default: 0.5,
    },
    // Major constructions (digest §4.7; `major_works.rs`).
    Param {
        name: "major_works_share",
        summary: "share of the DEN above reserve and wages it may spend on a major construction when the referee offers one (options major_construction_*; one under way at a time): material cost / 100 PV when finished",
        min: 0.0,
        max: 1.0,
        // Offered at a city's price (1,500 DEN and 1,500 stone or wood), one scores 15 PV: more
        // than a city's row for what the idle placeholder treasuries spare.
        default: 1.0,
    },
    // Increasing treasures (digest §4.19 L4376; `treasures.rs`).
    Param {
        name: "treasure_share",
        summary: "share of the DEN above reserve and wages it puts into its capital's treasure each turn, in lots of 500 DEN (option treasure_pv: 1 PV a lot by default, each 100 DEN +10 rebellion index); the DEN stay in the city for its next sacker",
        min: 0.0,
        max: 1.0,
        default: 0.5,
    },
    // Siege engines (digest §4.7, §3.4; `engines.rs`).
    Param {
        name: "engine_level",
        summary: "the highest siege engine it builds when a siege begins (level N: N x (100 MAD + 150 DEN), ready after N months; it lowers the walls by N, option siege_engine): the largest level the walls make useful that is ready by its siege_months assault and its spare DEN and wood pay",
        min: 0.0,
        max: 5.0,
        // A few hundred DEN and wood against a level of walls off every assault after a siege.
        default: 5.0,
    },
    // Extra POB levies (digest §4.3; `levy.rs`).
    Param {
        name: "extra_levy",
        summary: "share of its culture's most extra POB (civilized +25%, B/C +30%, barbarian +40%: option barbarian_extra_levy) it levies at each collection, in 5% steps, while every rebellion index it moves (option province_burdens) stays at tax_idr or above: each step -1/-2/-3 PV and -75/-100/-150 IDR (§4.19 mass recruitment), B/C and barbarians -1 IDR per 10 or 20 extra POB (option extra_levy_idr)",
        min: 0.0,
        max: 1.0,
        // 3 PV a step for a civilized major is dearer than the troops 5% more POB raise.
        default: 0.0,
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
    // Revolts (digest §4.16; `revolt.rs`).
    Param {
        name: "province_gift_idr",
        summary: "gives 600 DEN lots to the population of the province it holds with the lowest rebellion index while that is below this (the table's gift row: 1/1/2 PV, +40/+50/+60 IDR; within the period's 2,000 DEN gift cap, from the DEN above reserve and wages; an index at 0 before a collection revolts)",
        min: 0.0,
        max: 1000.0,
        // An invasion's first month takes 175-250 and each following one 50-100: a province
        // under 400 can reach 0 before the next collection, and its revolt costs 1-3 PV and the
        // suppressing row, or the land (-3/-5/-8 PV and a city's row each) if the rebels win.
        default: 400.0,
    },
    // Forced marches (digest §4.12, rules §43; `forced_march.rs`).
    Param {
        name: "forced_march",
        summary: "the most PM its field army asks of a forced march (+2 at most with infantry, +4 mounted only) when its land march would end the month short of the next node; one roll on the §43 table a month (0: never)",
        min: 0.0,
        max: 4.0,
        // A march a month shorter saves a month of offensive food and the defenders' time; an F
        // only weighs on a battle that month, which forced_march_battle avoids.
        default: 4.0,
    },
    Param {
        name: "forced_march_battle",
        summary: "at 0.5 or more it also forces the leg that reaches its target where a field army waits (a fatigued army fights without formation, at 75% factors, -0.1 morale per F and -1 on its rolls)",
        min: 0.0,
        max: 1.0,
        // The fatigue costs the battle more than a month's wait.
        default: 0.0,
    },
    // Mount breeding (digest §4.8; `mounts.rs`).
    Param {
        name: "mount_breeding",
        summary: "the mount breeding level it buys once (750 DEN above reserve and wages: +level PM for the bred units, CAB production x0.9/0.7/0.5/0.3/0.2, the §4.19 row 0 / 1 / 1 PV), where it scores PV or every kind it raises is bred (0: never)",
        min: 0.0,
        max: 5.0,
        // Level 1: the row's PV for 750 idle DEN at the least cost in horses (CAB x0.9); an army
        // with infantry moves at 10 PM whatever its horses do.
        default: 1.0,
    },
    // Army supply (digest §4.4; `supply.rs`).
    Param {
        name: "convoys",
        summary: "supply convoys (50 POB, 50 DEN, 100 CAB or CAM, 200 MAD; 5,000 COM each) its field army buys on its lands before an offensive and keeps: the army then moves at 8 PM and intercepts at -3, and loses them with their food to a victor beyond its lands",
        min: 0.0,
        max: 3.0,
        // Without one an army carries a month's food (1 COM per 200 men) and starves in a siege.
        default: 1.0,
    },
    Param {
        name: "carried_months",
        summary: "months of offensive food (1 COM per 200 men) its field army loads from the stock on its lands before an offensive for its stay at the target, beyond the march there and back and supply_margin, within what it can carry and leaving the population's next feeding",
        min: 1.0,
        max: 12.0,
        // A siege of the policy's months and its assault; the rest stays in the stock to feed
        // the population.
        default: 4.0,
    },
    Param {
        name: "supply_margin",
        summary: "months of offensive food beyond the way home (its cheapest land path at its pace) below which its field army abroad turns home (3 months unfed kill the unfed share)",
        min: 0.0,
        max: 3.0,
        // A month's margin absorbs a winter or storm doubling a leg's PM on the way back.
        default: 1.0,
    },
    // Foraging (digest §4.4; `forage.rs`).
    Param {
        name: "forage_months",
        summary: "months of offensive food beyond those at which it turns home (the way home and supply_margin) below which its field army beyond its lands forages (2 extra PM per hex for the hex terrain's COM, within what it can carry, only where the COM gathered exceeds what it eats in the extra PM; 0: never)",
        min: 0.0,
        max: 3.0,
        // Gathering before the army must turn back lengthens a siege by the food gathered.
        default: 2.0,
    },
    // Slaves (digest §4.1 L833-L835; `slaves.rs`).
    Param {
        name: "slaves_freed",
        summary: "share of its slaves (ESC: captives of battles won and surrendered garrisons) freed each turn in whole lots of 100, the black market keeping that share until they make lots and selling the rest at option black_market_sale: the §4.19 row per lot (0 / 1 / 1 PV, 80 / 100 / 110 IDR)",
        min: 0.0,
        max: 1.0,
        // A lot sells for 300 DEN (A52), the price of a PV in gifts, but freeing it scores the
        // PV beside the gift cap and adds 80-110 IDR: the better use for B/C and C (a barbarian's
        // lot scores no PV, only the IDR; the tuner may have it sell).
        default: 1.0,
    },
    Param {
        name: "slaves_on_works",
        summary: "share of its slaves (ESC) put on a production improvement, city, enlargement, naval base or port it starts at home, in lots of 100: each lot ends it a month sooner (at most all months but one), 75% of them lost when it ends (option slaves_on_works_effect)",
        min: 0.0,
        max: 1.0,
        // 75 ESC lost (225 DEN at the black market, or three quarters of a freed lot's PV) buy
        // one month's earlier output of a work: freeing them is worth more.
        default: 0.0,
    },
    // Destruction (digest §4.17, L3716-L3720; `destruction.rs`).
    Param {
        name: "raze_cities",
        summary: "at 0.5 or more its field army idle a whole month (no move, no fight) in a rival major's node razes one of its open cities there (not the capital; walls, DEN and MAN share and the whole POB share gone for good) where the row costs it at most 1 PV (option city_destruction_pv: -1 by the text, 1/0/-2 by the table); never in a referee's country nor in its own",
        min: 0.0,
        max: 1.0,
        // Off: a besieger razes what it would collect if the siege takes the node, for 1 PV by
        // the text's reading; the measured forced-on runs (the branch's report) show no gain.
        default: 0.0,
    },
    Param {
        name: "raze_works",
        summary: "at 0.5 or more its field army idle a whole month in a rival major's node, where it razes no city, destroys the finished work there that yields the node's holder most a turn (a new city where its row costs at most 1 PV, a factory, an improvement, an enlargement; never a port, naval base, shipyard or colony); never in a referee's country nor in its own",
        min: 0.0,
        max: 1.0,
        // Off, as raze_cities: a besieger destroys what it would collect if the siege takes the
        // node.
        default: 0.0,
    },
    // Spreading the word (digest §4.5.9 method 2, L4536; `word.rs`).
    Param {
        name: "spread_word",
        summary: "share of its spare DEN (above reserve, first wages kept back) it spends a turn raising the 200 POB a turn that arrive from each country bordering its home as units of its strongest kind at morale C, +25% money (its base DEN and morale C's cost), printed metal; never more units than its own",
        min: 0.0,
        max: 1.0,
        // Off until the tuner finds where it pays: the turn's own purchases come first.
        default: 0.0,
    },
    // Enslaving POB (digest §4.1 L833, §4.19 L4370-L4372, A68; `enslave.rs`).
    Param {
        name: "enslave_home",
        summary: "share of the most (5 steps of 5%, 25%) of its home's collected POB it turns into slaves (ESC) at each collection, only when works wait that take its slaves (it would start one now, not a colony; slaves_on_works above 0, slaves_freed below 1) and each step keeps its home's index at tax_idr or above: each step -1/-2/-3 PV and -100/-150/-175 IDR (§4.19 own POB) and -250 IDR (L833; option enslave_idr), the home's POB lowered for good (option enslave_pob_loss, A68)",
        min: 0.0,
        max: 1.0,
        // A step costs a civilized major 3 PV and 425 IDR for slaves worth a month's work or 5%
        // of a price: never, unless the tuner finds otherwise.
        default: 0.0,
    },
    Param {
        name: "enslave_provinces",
        summary: "share of the most (5 steps of 5%, 25%) of each province's collected POB it turns into slaves (ESC) at each collection, only when works wait that take its slaves (it would start one now, not a colony; slaves_on_works above 0, slaves_freed below 1) and each step keeps the province's index at tax_idr or above: each step 0/-1/-2 PV and -50/-75/-100 IDR (§4.19 others' POB) and -250 IDR (L833; option enslave_idr), the province's POB lowered for good (option enslave_pob_loss, A68)",
        min: 0.0,
        max: 1.0,
        // A province's index is what keeps it: 300-350 IDR a step buys a revolt sooner.
        default: 0.0,
    },
];
