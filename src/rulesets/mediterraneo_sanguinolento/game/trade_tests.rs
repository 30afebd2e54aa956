//! Tests of trade (digest §4.9): the manufactures table and D17, a caravan's whole trip, the
//! black market's prices, limits (A53) and sales (A52), and trade in whole games.

use super::diplomacy;
use super::economy;
use super::game_tests::{country, game_with, options, options_with, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, CAB, COM, DEN, ELE, ESC, MAD, MAN, MET, PIE, POB, RESOURCES};
use super::state::{State, R};
use super::trade::{self, Leg};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

#[test]
fn d17_thirty_land_hexes_to_a_b_city_pay_600_a_month_and_the_receiver_200() {
    assert_eq!(trade::monthly_profit(30, 2), (600, 200));
    // The printed bands (L866-L878), at their edges.
    for (hexes, den) in [
        (1, 100),
        (15, 100),
        (16, 200),
        (25, 200),
        (26, 300),
        (35, 300),
        (36, 400),
        (45, 400),
        (46, 500),
        (55, 500),
        (56, 600),
        (400, 600),
    ] {
        assert_eq!(trade::land_band(hexes), den, "{hexes} hexes");
    }
    // Importance A x3, C x1.
    assert_eq!(trade::monthly_profit(56, 3), (1800, 600));
    assert_eq!(trade::monthly_profit(10, 1), (100, 33));
}

/// Every resource on the ledger: stock plus what caravans carry, against gained minus spent.
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
            "{}",
            RESOURCES[r]
        );
    }
}

fn plans_with(g: &Game, c: CountryId, plan: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = plan;
    plans
}

#[test]
fn a_caravan_to_etruria_sells_five_lots_and_banks_the_money_at_home() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let p = g.major_index[roma as usize] as usize;
    // Etruria is civilized: its cities are B (x2) in abstraction.toml; 3 hexes of hills from Roma
    // (4 PM a hex: 12 PM, two months at 8 PM) in the land band 1-15 (100 a lot).
    assert_eq!(g.culture[etruria as usize], Culture::Civilized);
    let mut st = g.start.clone();
    assert_eq!(trade::land_hexes(&g, &st, roma, etruria), Some(3));
    let i = diplomacy::at(&st, p, etruria);
    st.relations[i].level = diplomacy::EQUAL_TRADE;
    let n = &mut st.nations[roma as usize];
    (n.stock[MAN], n.stock[MAD], n.stock[CAB], n.stock[POB]) = (700, 200, 100, 50);
    n.stock[DEN] = 100_000;
    let start = st.clone();
    let plan = Scripted {
        caravans: 1,
        market_sell: 0.0,
        market_buy: 0.0,
        ..Scripted::defaults()
    };
    trade::phase(&g, &mut st, &plans_with(&g, roma, plan));
    let v = st.nations[roma as usize].caravans[0];
    assert_eq!((v.leg, v.to, v.travel, v.man), (Leg::Out, etruria, 2, 500));
    assert_eq!((v.rate, v.receiver), (200, 66));
    // The caravan's cost: 50 POB, 50 DEN, 200 MAD, 100 CAB; 500 MAN loaded, 200 left home.
    let n = &st.nations[roma as usize];
    assert_eq!(
        (n.stock[POB], n.stock[MAD], n.stock[CAB], n.stock[MAN]),
        (0, 0, 0, 200)
    );
    assert_eq!(n.stock[DEN], 100_000 - 50);
    let etruria_den = st.nations[etruria as usize].stock[DEN];
    let mut months = 0;
    while st.nations[roma as usize].caravans[0].leg != Leg::Home {
        trade::month(&g, &mut st);
        months += 1;
        assert!(months < 20);
    }
    // Two months out, five trading, two back.
    assert_eq!(months, 9);
    assert_eq!(st.nations[roma as usize].stock[DEN], 100_000 - 50 + 5 * 200);
    assert_eq!(
        st.nations[etruria as usize].stock[DEN],
        etruria_den + 5 * 66
    );
    assert_eq!(st.nations[roma as usize].stock[MAN], 200);
    assert_eq!(st.counts.caravan_den, 1000.0);
    balanced(&start, &st);
}

#[test]
fn a_caravan_whose_receiver_falls_comes_back_with_what_is_left_and_a_lost_home_loses_it() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let p = g.major_index[roma as usize] as usize;
    let mut st = g.start.clone();
    let i = diplomacy::at(&st, p, etruria);
    st.relations[i].level = diplomacy::CLIENT;
    let trip = trade::destination(&g, &st, p, 5).unwrap();
    st.nations[roma as usize].caravans[0] = trip;
    st.ledger.gained[MAN] += trip.man; // the load, as if it had been produced
    let start = g.start.clone();
    for _ in 0..3 {
        trade::month(&g, &mut st); // two months out, one trading
    }
    assert_eq!(st.nations[roma as usize].caravans[0].man, 400);
    st.relations[i].war = true;
    trade::month(&g, &mut st);
    let v = st.nations[roma as usize].caravans[0];
    assert_eq!((v.leg, v.man, v.den), (Leg::Back, 400, 200));
    st.lands[roma as usize].owner = etruria;
    trade::month(&g, &mut st);
    trade::month(&g, &mut st);
    let v = st.nations[roma as usize].caravans[0];
    assert_eq!((v.leg, v.man, v.den), (Leg::Home, 0, 0));
    assert_eq!(
        st.nations[roma as usize].stock[DEN],
        start.nations[roma as usize].stock[DEN]
    );
    balanced(&start, &st);
}

#[test]
fn the_black_market_prices_and_limits_are_the_printed_ones() {
    let per_ten = |name: &str, producer: bool| {
        let r = RESOURCES.iter().position(|x| *x == name).unwrap();
        trade::price_per_ten(r, producer)
    };
    for (name, price) in [
        ("met", 16),
        ("com", 120),
        ("man", 12),
        ("mad", 12),
        ("cab", 10),
        ("pie", 10),
        ("cam", 10),
    ] {
        assert_eq!(per_ten(name, false), price, "{name}");
        assert_eq!(per_ten(name, true), price, "{name}");
    }
    assert_eq!((per_ten("ele", true), per_ten("ele", false)), (60, 100));
    assert_eq!((per_ten("esc", true), per_ten("esc", false)), (30, 45));
    assert_eq!((per_ten("pob", false), per_ten("den", false)), (0, 0));
    let limits: Vec<i64> = (0..R).map(trade::limit).collect();
    let by = |name: &str| limits[RESOURCES.iter().position(|x| *x == name).unwrap()];
    assert_eq!(
        ["com", "mad", "met", "pie", "cab", "cam", "man", "ele", "esc"].map(by),
        [100, 1200, 1500, 2000, 800, 800, 1000, 20, 100]
    );
}

/// Roma (IP 600 MET, IL 200 MET, CM 400 MET + 100 CAB; 200, 200, 100 men) with 1,000 POB, no metal or horses and
/// plenty of money and food buys at the black market what its purchases lack.
fn roma_buying(options: &crate::options::Options) -> (Game, State, State) {
    let g = game_with(Policy::Scripted(Scripted::defaults()), options);
    let roma = country(&g, "Roma");
    let codes: Vec<&str> = g.kinds[roma as usize][..3].iter().map(|k| k.code).collect();
    assert_eq!(codes, ["IP", "IL", "CM"]);
    let mut st = g.start.clone();
    let n = &mut st.nations[roma as usize];
    n.stock = [0; R];
    (n.stock[POB], n.stock[DEN], n.stock[COM]) = (1000, 100_000, 1_000_000);
    let before = st.clone();
    let plan = Scripted {
        recruit: 1.0,
        heavy_share: 0.5,
        mounted_share: 0.25,
        reserve: 0,
        market_buy: 1.0,
        market_sell: 0.0,
        caravans: 0,
        // No works nor convoys: they would buy their own materials (`works::materials_wanted`,
        // `supply::materials_wanted`).
        works_share: 0.0,
        convoys: 0,
        ..Scripted::defaults()
    };
    let plans = plans_with(&g, roma, plan);
    trade::phase(&g, &mut st, &plans);
    (g, before, st)
}

#[test]
fn the_black_market_buys_what_the_purchases_lack_within_the_turns_limits() {
    // 1,000 POB at 50/25/25%: 2 IP (1,200 MET), 1 IL (200 MET; 250 men), 2 CM (800 MET, 200 CAB):
    // 2,200 MET, more than a turn's 1,500. In the purchases' order: 1,200 for the IPs, the IL's
    // 200, then 100 left: nothing for the CMs (no horses bought for cavalry without metal).
    let (g, before, st) = roma_buying(&options());
    let roma = country(&g, "Roma") as usize;
    let (b, a) = (&before.nations[roma].stock, &st.nations[roma].stock);
    assert_eq!((a[MET], a[CAB]), (1400, 0));
    assert_eq!(b[DEN] - a[DEN], 1400 * 16 / 10);
    assert_eq!(st.counts.market_bought_den, 2240.0);
    balanced(&before, &st);
    // Per month (A53's other reading): a turn's limit doubles, and everything is bought.
    let (g, before, st) = roma_buying(&options_with("black_market_limits = \"per-month\""));
    let (b, a) = (&before.nations[roma].stock, &st.nations[roma].stock);
    assert_eq!((a[MET], a[CAB]), (2200, 200));
    assert_eq!(b[DEN] - a[DEN], 2200 * 16 / 10 + 200);
    // The purchases then raise them.
    let mut st = st;
    let plans = plans_with(
        &g,
        roma as CountryId,
        Scripted {
            recruit: 1.0,
            heavy_share: 0.5,
            mounted_share: 0.25,
            reserve: 0,
            ..Scripted::defaults()
        },
    );
    economy::purchases(&g, &mut st, &plans);
    assert_eq!(st.nations[roma].training[..3], [2.0, 1.0, 2.0]);
}

#[test]
fn the_black_market_takes_the_surplus_at_the_sale_value_within_its_limits() {
    for (text, pie_value, esc_value) in [
        ("", 1.0, 3.0),
        ("black_market_sale = \"buying-price\"", 1.0, 1.5),
    ] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let roma = country(&g, "Roma");
        let mut st = g.start.clone();
        let n = &mut st.nations[roma as usize];
        n.stock = [0; R];
        (n.stock[PIE], n.stock[ESC], n.stock[ELE], n.stock[MAN]) = (5000, 500, 50, 2000);
        (n.stock[MET], n.stock[CAB], n.stock[COM], n.stock[MAD]) = (900, 900, 900, 0);
        let before = st.clone();
        // Walls already at the policy's level: no stone kept; no caravans and no merchant fleets:
        // MAN is surplus.
        let capital = g.capital[roma as usize].unwrap();
        let plan = Scripted {
            market_sell: 1.0,
            market_buy: 0.0,
            caravans: 0,
            merchant_fleets: 0,
            fortify: st.city_fort[capital as usize],
            // It sells its slaves rather than free them (`slaves.rs`).
            slaves_freed: 0.0,
            ..Scripted::defaults()
        };
        trade::phase(&g, &mut st, &plans_with(&g, roma, plan));
        let a = &st.nations[roma as usize].stock;
        // Sold up to the limits: PIE 2,000, ESC 100, ELE 20, MAN 1,000; never COM; MET and CAB
        // are what Roma's units cost.
        assert_eq!(
            [a[PIE], a[ESC], a[ELE], a[MAN], a[MET], a[CAB], a[COM]],
            [3000, 400, 30, 1000, 900, 900, 900],
            "{text}"
        );
        let man_value = g.sale[MAN];
        let expected = (2000.0 * pie_value) as i64
            + (100.0 * esc_value) as i64
            + (20.0 * g.sale[ELE]) as i64
            + (1000.0 * man_value) as i64;
        assert_eq!(a[DEN], expected, "{text}");
        assert_eq!(g.sale[ESC], esc_value, "{text}");
        balanced(&before, &st);
    }
}

#[test]
fn caravans_trade_and_the_black_market_deals_in_games() {
    let g = scripted_game();
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(
        g.players.len(),
        crate::game::GameModel::game_columns(&g).len(),
    );
    let mut total = super::state::Counts::default();
    for i in 0..200 {
        r.clear();
        play.play(
            &mut Dice::for_trial(23, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        let c = &play.st.counts;
        total.caravans_bought += c.caravans_bought;
        total.caravan_trips += c.caravan_trips;
        total.caravan_den += c.caravan_den;
        total.market_bought_den += c.market_bought_den;
        total.market_sold_den += c.market_sold_den;
    }
    assert!(total.caravans_bought > 0, "{total:?}");
    assert!(total.caravan_trips > 0, "{total:?}");
    assert!(total.caravan_den > 0.0, "{total:?}");
    assert!(total.market_bought_den > 0.0, "{total:?}");
    assert!(total.market_sold_den > 0.0, "{total:?}");
}
