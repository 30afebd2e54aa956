//! Tests of trade by sea and fishing (digest §4.9, rules L857-L920, L1062-L1110, L5225): the sea
//! table (A54b) and the fishing table by hand, whole merchant trips with Cartago's calls and
//! Roma's none, storms sinking a fleet with its cargo, the fishing cycle and its weather, the
//! data's checks, and whole games keeping the invariants.

use super::diplomacy;
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, Scenario, COM, DEN, MAN, SEAS};
use super::sea_trade::{self, Merchant};
use super::state::{State, R};
use super::trade::{self, Leg};
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;

const RULEBOOK_TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/mediterraneo-sanguinolento/game/rulebook.toml"
));
const ABSTRACTION_TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/mediterraneo-sanguinolento/game/abstraction.toml"
));

#[test]
fn the_sea_table_prices_a_lot_by_band_and_port_importance() {
    // The printed sea bands (L896-L912) at their edges, A54b's 41 in the upper band.
    for (hexes, den) in [
        (1, 100),
        (15, 100),
        (16, 200),
        (25, 200),
        (26, 300),
        (35, 300),
        (36, 400),
        (40, 400),
        (41, 500),
        (45, 500),
        (46, 600),
        (50, 600),
        (51, 700),
        (55, 700),
        (56, 800),
        (300, 800),
    ] {
        assert_eq!(sea_trade::sea_band(hexes, false), den, "{hexes} hexes");
    }
    // Option sea_manufactures_41 = lower: 41 hexes in the 36-41 band.
    assert_eq!(sea_trade::sea_band(41, true), 400);
    assert_eq!(sea_trade::sea_band(42, true), 500);
    // By hand: 30 sea hexes to a port of importance 2 pay 300 x 2 = 600 a month, the receiver a
    // third (200); 56 hexes to a port 3: 800 x 3 = 2,400 and 800.
    assert_eq!(sea_trade::sea_profit(30, 2, false), (600, 200));
    assert_eq!(sea_trade::sea_profit(56, 3, false), (2400, 800));
    assert_eq!(sea_trade::sea_profit(10, 1, false), (100, 33));
    // A fleet carries 2,000 points: 20 lots, capped at the 5 months of L860; thinned by storms, a
    // tenth of them per ship.
    assert_eq!(sea_trade::capacity(10), 5);
    assert_eq!(sea_trade::capacity(2), 4);
    assert_eq!(sea_trade::capacity(0), 0);
}

#[test]
fn fishing_yields_the_table_less_the_weather() {
    let sea = |name: &str| SEAS.iter().position(|s| *s == name).unwrap();
    for (name, com, den) in [
        ("atlantic", 5, 60),
        ("indian", 5, 60),
        ("mediterranean", 4, 48),
        ("black", 3, 36),
        ("red", 3, 36),
        ("caspian", 3, 36),
    ] {
        assert_eq!(sea_trade::fishing_yield(sea(name)), (com, den), "{name}");
    }
    let med = sea("mediterranean");
    assert_eq!(sea_trade::fishing_month(med, Weather::Clear, false), 4);
    assert_eq!(sea_trade::fishing_month(med, Weather::Rain, false), 3);
    assert_eq!(sea_trade::fishing_month(med, Weather::Storm, false), 2);
    assert_eq!(sea_trade::fishing_month(med, Weather::Snow, false), 2);
    assert_eq!(sea_trade::fishing_month(med, Weather::Rain, true), 36);
    assert_eq!(sea_trade::fishing_month(med, Weather::Storm, true), 24);
    assert_eq!(
        sea_trade::fishing_month(sea("black"), Weather::Storm, false),
        1
    );
    // A node on two seas fishes the richer.
    let g = scripted_game();
    let both = (0..g.scenario.countries.len() as CountryId)
        .find(|&c| g.scenario.nodes[c as usize].seas == (1 << sea("atlantic")) | (1 << med))
        .expect("a node on the Atlantic and the Mediterranean");
    assert_eq!(
        sea_trade::fishing_sea(&g.scenario, both),
        Some(sea("atlantic"))
    );
}

fn plans_with(g: &Game, c: CountryId, plan: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = plan;
    plans
}

/// Every resource on the ledger: stock plus what caravans and ships carry.
fn balanced(start: &State, st: &State) {
    for r in 0..R {
        let held = |s: &State| {
            (0..s.nations.len() as CountryId)
                .map(|c| s.nations[c as usize].stock[r] + trade::carried(s, c)[r])
                .sum::<i64>()
        };
        assert_eq!(
            held(st) - held(start),
            st.ledger.gained[r] - st.ledger.spent[r],
            "resource {r}"
        );
    }
}

/// `c` with one merchant fleet at home, `lots` lots of MAN and `partner` its only trade partner.
fn merchant_at_home(g: &Game, c: CountryId, partner: CountryId, lots: i64) -> State {
    let p = g.major_index[c as usize] as usize;
    let mut st = g.start.clone();
    let i = diplomacy::at(&st, p, partner);
    st.relations[i].level = diplomacy::EQUAL_TRADE;
    let n = &mut st.nations[c as usize];
    n.stock[MAN] = lots * trade::MAN_LOT;
    n.sea.merchants[0] = Merchant {
        leg: Leg::Home,
        ships: 10,
        ..Merchant::default()
    };
    st
}

/// Sends `c`'s fleet and sails it home from May on; None if a storm hit it (the caller tries
/// another seed). Returns the months it took.
fn voyage(g: &Game, st: &mut State, c: CountryId, seed: u64) -> Option<u32> {
    let p = g.major_index[c as usize] as usize;
    sea_trade::send(g, st, p);
    assert_eq!(st.nations[c as usize].sea.merchants[0].leg, Leg::Out);
    let plans = plans_with(g, c, Scripted::defaults());
    let mut dice = Dice::for_trial(seed, 0, 0);
    let mut months = 0;
    while st.nations[c as usize].sea.merchants[0].leg != Leg::Home {
        sea_trade::month(g, st, &plans, 5 + months, &mut dice);
        months += 1;
        if st.counts.merchant_ships_lost > 0.0 {
            return None;
        }
        assert!(months < 20);
    }
    Some(months)
}

/// The first seed whose voyage meets no storm.
fn calm_voyage(g: &Game, start: &State, c: CountryId) -> (State, u32) {
    for seed in 0..50 {
        let mut st = start.clone();
        if let Some(months) = voyage(g, &mut st, c, seed) {
            return (st, months);
        }
    }
    panic!("every voyage met a storm");
}

#[test]
fn cartago_trades_at_malta_through_sicilia_and_earns_its_three_calls() {
    let g = scripted_game();
    let (cartago, malta) = (country(&g, "Cartago"), country(&g, "Malta"));
    // Cartago-Sicilia 8 hexes and Sicilia-Malta 4 by the sea lanes (abstraction.toml): 12 hexes,
    // band 1-15 (100 a lot); Malta is B/C, its ports 1 (x1): 100 a month, the receiver 33. One
    // month out at 26 PM, three months trading 3 lots, one back.
    let start = merchant_at_home(&g, cartago, malta, 3);
    let malta_den = start.nations[malta as usize].stock[DEN];
    let (st, months) = calm_voyage(&g, &start, cartago);
    assert_eq!(months, 1 + 3 + 1);
    // Calls (L5225): Sicilia and Malta on the way out, Sicilia back: 3 x 10 DEN.
    assert_eq!(st.counts.merchant_calls, 3);
    assert_eq!(st.counts.merchant_call_den, 30.0);
    assert_eq!(
        st.nations[cartago as usize].stock[DEN],
        start.nations[cartago as usize].stock[DEN] + 3 * 100 + 30
    );
    assert_eq!(st.nations[malta as usize].stock[DEN], malta_den + 3 * 33);
    assert_eq!(st.nations[cartago as usize].stock[MAN], 0);
    assert_eq!(st.counts.merchant_den, 300.0);
    balanced(&start, &st);
    // Counted per ship (option merchant_call_bonus = ship): 10 ships x 10 DEN a call.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("merchant_call_bonus = \"ship\""),
    );
    let (st, _) = calm_voyage(&g, &start, cartago);
    assert_eq!(st.counts.merchant_call_den, 300.0);
}

#[test]
fn roma_earns_no_calls_and_atenas_does() {
    let g = scripted_game();
    let (roma, sicilia) = (country(&g, "Roma"), country(&g, "Sicilia"));
    // Roma-Sicilia 10 hexes by a lane: band 100, Sicilia civilized (ports 2): 200 a month.
    let start = merchant_at_home(&g, roma, sicilia, 2);
    let (st, months) = calm_voyage(&g, &start, roma);
    assert_eq!(months, 1 + 2 + 1);
    assert_eq!(st.counts.merchant_calls, 0);
    assert_eq!(
        st.nations[roma as usize].stock[DEN],
        start.nations[roma as usize].stock[DEN] + 2 * 200
    );
    balanced(&start, &st);
    // Atenas has no sea lane: it sails along the coast (abstraction.toml coastal_legs) to the
    // Peloponeso, 1 hex: one call out, none back.
    let (atenas, peloponeso) = (country(&g, "Atenas"), country(&g, "Peloponeso"));
    let start = merchant_at_home(&g, atenas, peloponeso, 1);
    let (st, _) = calm_voyage(&g, &start, atenas);
    assert_eq!(st.counts.merchant_calls, 1);
    assert_eq!(st.counts.merchant_call_den, 10.0);
}

#[test]
fn storms_sink_ships_with_their_share_of_the_cargo_and_then_the_fleet() {
    let g = scripted_game();
    let cartago = country(&g, "Cartago");
    let mut st = g.start.clone();
    let mut m = Merchant {
        leg: Leg::Back,
        ships: 10,
        man: 500,
        den: 300,
        ..Merchant::default()
    };
    st.nations[cartago as usize].sea.merchants[0] = m;
    let start = st.clone();
    // 4 ships of 10 sunk: 40% of the MAN and of the DEN go down with them.
    sea_trade::sink(&mut st, &mut m, 4);
    st.nations[cartago as usize].sea.merchants[0] = m;
    assert_eq!((m.ships, m.man, m.den), (6, 300, 180));
    assert_eq!(st.ledger.ships_lost, 4.0);
    assert_eq!(
        (st.counts.merchant_man_lost, st.counts.merchant_den_lost),
        (200.0, 120.0)
    );
    balanced(&start, &st);
    // A 1D10 of 9 on the 6 left sinks the fleet with the rest.
    sea_trade::sink(&mut st, &mut m, 9);
    st.nations[cartago as usize].sea.merchants[0] = m;
    assert_eq!(m.leg, Leg::None);
    assert_eq!(st.ledger.ships_lost, 10.0);
    assert_eq!(st.counts.merchant_fleets_sunk, 1);
    assert_eq!(st.counts.merchant_man_lost, 500.0);
    balanced(&start, &st);
    // At sea in a storm month in winter the storm code hits often: over many fleet-months the
    // ships lost per month sailed come near the battle code's chance x 5.5 (digest D14).
    let roma = country(&g, "Roma");
    let mut lost = 0.0;
    let trials = 4000;
    let mut dice = Dice::for_trial(3, 0, 0);
    for _ in 0..trials {
        let mut st = g.start.clone();
        st.weather = [Weather::Storm; super::weather::ZONES];
        st.nations[roma as usize].sea.merchants[0] = Merchant {
            leg: Leg::Out,
            ships: 10,
            to: country(&g, "Sicilia"),
            months_left: 1,
            travel: 1,
            at_sea: 1,
            ..Merchant::default()
        };
        let plans = plans_with(&g, roma, Scripted::defaults());
        sea_trade::month(&g, &mut st, &plans, 1, &mut dice);
        lost += st.counts.merchant_ships_lost;
    }
    // Storm number 5, winter +2, at sea +1: 5/10 x P(2D6 >= 7) = 1/2 x 21/36; 5.5 ships a hit.
    let p: f64 = 0.5 * 21.0 / 36.0;
    let mean = p * 5.5;
    // E[1D10^2] = 38.5.
    let sd = (p * 38.5 - mean * mean).sqrt() / (trials as f64).sqrt();
    let got = lost / trials as f64;
    assert!((got - mean).abs() < 5.0 * sd, "{got} vs {mean} (sd {sd})");
}

/// What `c`'s `fleets` fishing fleets bring each month for `months` months from April in
/// `weather`, on the first seed whose months meet no storm.
fn fishing(
    g: &Game,
    c: CountryId,
    fleets: f64,
    plan: Scripted,
    weather: Weather,
    months: u32,
) -> Vec<i64> {
    for seed in 0..50 {
        let mut st = g.start.clone();
        st.weather = [weather; super::weather::ZONES];
        st.nations[c as usize].sea.fishing = fleets;
        let plans = plans_with(g, c, plan);
        let mut dice = Dice::for_trial(seed, 0, 0);
        let mut out = Vec::new();
        for m in 4..4 + months {
            let before = st.nations[c as usize].stock;
            sea_trade::month(g, &mut st, &plans, m, &mut dice);
            let after = st.nations[c as usize].stock;
            out.push((after[COM] - before[COM]) + (after[DEN] - before[DEN]));
        }
        if st.counts.fishing_ships_lost == 0.0 {
            return out;
        }
    }
    panic!("every year met a storm");
}

#[test]
fn fishing_fleets_fish_five_months_then_rest_one_by_the_weather() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    // Roma touches the Mediterranean: 4 COM a fleet-month, 2 fleets, months 1-5 and 7-11 of the
    // cycle at sea, the 6th and 12th in port.
    let com = Scripted::defaults();
    let per_month = fishing(&g, roma, 2.0, com, Weather::Clear, 12);
    assert_eq!(per_month, [8, 8, 8, 8, 8, 0, 8, 8, 8, 8, 8, 0]);
    // Rain: 3 COM a fleet-month; in DEN 36.
    assert_eq!(fishing(&g, roma, 2.0, com, Weather::Rain, 1)[0], 6);
    let den = Scripted {
        fish_for_den: 1.0,
        ..Scripted::defaults()
    };
    assert_eq!(fishing(&g, roma, 2.0, den, Weather::Rain, 1)[0], 72);
    assert_eq!(fishing(&g, roma, 1.0, den, Weather::Clear, 1)[0], 48);
    // Storm: 2 COM a fleet-month.
    assert_eq!(fishing(&g, roma, 2.0, com, Weather::Storm, 1)[0], 4);
}

#[test]
fn bad_sea_trade_data_is_a_one_line_error() {
    let cases = [
        (
            "port_importance = { C = 2, \"B/C\" = 1, B = 1 }",
            "port_importance = { C = 4, \"B/C\" = 1, B = 1 }",
            "sea_trade.port_importance.C",
            "1, 2 or 3",
        ),
        (
            "port_importance = { C = 2, \"B/C\" = 1, B = 1 }",
            "port_importance = { C = 2, \"B/C\" = 1, X = 1 }",
            "sea_trade.port_importance.X",
            "B, B/C or C",
        ),
        (
            "port_importance = { C = 2, \"B/C\" = 1, B = 1 }",
            "port_importance = { C = 2, \"B/C\" = 1 }",
            "sea_trade.port_importance",
            "every culture",
        ),
    ];
    for (from, to, field, allowed) in cases {
        assert!(ABSTRACTION_TEXT.contains(from), "{from}");
        let ab = ABSTRACTION_TEXT.replacen(from, to, 1);
        let err = match Scenario::parse("rb.toml", RULEBOOK_TEXT, "ab.toml", &ab) {
            Ok(_) => panic!("{to}: accepted"),
            Err(e) => e,
        };
        let text = err.to_string();
        assert_eq!(err.exit_code(), 2, "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("ab.toml"), "{text}");
        assert!(
            text.contains(field) && text.contains(allowed),
            "{to}: {text}"
        );
    }
    // Without the table every port is 1 and ships keep to the sea lanes.
    let start = ABSTRACTION_TEXT.find("\n[sea_trade]\n").unwrap();
    let end = start + ABSTRACTION_TEXT[start..].find("\n[intrigue]\n").unwrap();
    let ab = format!("{}{}", &ABSTRACTION_TEXT[..start], &ABSTRACTION_TEXT[end..]);
    let s = Scenario::parse("rb.toml", RULEBOOK_TEXT, "ab.toml", &ab).unwrap();
    assert_eq!(s.sea_trade.port_importance, [1; 3]);
    assert!(!s.sea_trade.coastal_legs);
}

#[test]
fn sea_trade_and_fishing_happen_in_games_and_keep_the_invariants() {
    let g = game_with(Policy::Random, &options());
    let mut total = super::state::Counts::default();
    play_checked(&g, 17, 300, "random", |_, play, _| {
        let c = &play.st.counts;
        total.merchant_fleets_bought += c.merchant_fleets_bought;
        total.merchant_trips += c.merchant_trips;
        total.merchant_route_trips += c.merchant_route_trips;
        total.merchant_den += c.merchant_den;
        total.merchant_route_goods += c.merchant_route_goods;
        total.merchant_calls += c.merchant_calls;
        total.merchant_call_den += c.merchant_call_den;
        total.merchant_ships_lost += c.merchant_ships_lost;
        total.merchant_fleets_sunk += c.merchant_fleets_sunk;
        total.merchant_man_lost += c.merchant_man_lost;
        total.merchant_den_lost += c.merchant_den_lost;
        total.fishing_fleets_bought += c.fishing_fleets_bought;
        total.fishing_fleet_months += c.fishing_fleet_months;
        total.fishing_com += c.fishing_com;
        total.fishing_den += c.fishing_den;
        total.fishing_ships_lost += c.fishing_ships_lost;
    });
    let t = &total;
    for (name, v) in [
        ("merchant_fleets_bought", t.merchant_fleets_bought as f64),
        ("merchant_trips", t.merchant_trips as f64),
        ("merchant_route_trips", t.merchant_route_trips as f64),
        ("merchant_den", t.merchant_den),
        ("merchant_route_goods", t.merchant_route_goods),
        ("merchant_calls", t.merchant_calls as f64),
        ("merchant_call_den", t.merchant_call_den),
        ("merchant_ships_lost", t.merchant_ships_lost),
        ("merchant_fleets_sunk", t.merchant_fleets_sunk as f64),
        ("merchant_man_lost", t.merchant_man_lost),
        ("merchant_den_lost", t.merchant_den_lost),
        ("fishing_fleets_bought", t.fishing_fleets_bought as f64),
        ("fishing_fleet_months", t.fishing_fleet_months),
        ("fishing_com", t.fishing_com),
        ("fishing_den", t.fishing_den),
        ("fishing_ships_lost", t.fishing_ships_lost),
    ] {
        assert!(v > 0.0, "{name} never counted in 300 games");
    }
    // The calls are Cartago's and Atenas's only: 10 DEN each, per fleet by default.
    assert_eq!(t.merchant_call_den, 10.0 * t.merchant_calls as f64);
}
