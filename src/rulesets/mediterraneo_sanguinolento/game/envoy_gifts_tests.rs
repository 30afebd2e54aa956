//! Tests of the envoys' gifts other than DEN and of backed pressure (digest §4.10 L586-L654;
//! `envoy_gifts.rs`): each band at its edges, the policy's gift within what it keeps, the goods'
//! path on each reception, the backers counted under each reading of option backed_pressure, and
//! whole games with every gift forced on keeping the resource ledger.

use super::diplomacy::{self, Reception};
use super::economy;
use super::envoy_gifts::{self, Backing, Fate, Gift};
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, MAN, MET, PIE};
use super::state::State;
use super::trade::{self, Leg};
use super::Game;

#[test]
fn each_band_counts_from_its_threshold_to_its_cap() {
    use envoy_gifts::{DEN_GIFT, FOOD_METAL_GIFT, GOODS_GIFT, MILITARY_GIFT};
    // Worth 199 / 200 / 300 / the cap's worth / far beyond, by hand: +1 per full 100 above 200.
    for band in [DEN_GIFT, FOOD_METAL_GIFT] {
        for (worth, m) in [
            (0, 0),
            (199, 0),
            (200, 0),
            (299, 0),
            (300, 1),
            (1200, 10),
            (9000, 10),
        ] {
            assert_eq!(band.modifier(worth), m, "{band:?} {worth}");
        }
    }
    for (worth, m) in [
        (199, 0),
        (200, 0),
        (300, 1),
        (1000, 8),
        (1100, 9),
        (9000, 9),
    ] {
        assert_eq!(GOODS_GIFT.modifier(worth), m, "other products {worth}");
    }
    // Military material: +1 from the first 100, at most +15.
    for (worth, m) in [
        (99, 0),
        (100, 1),
        (199, 1),
        (350, 3),
        (1500, 15),
        (9000, 15),
    ] {
        assert_eq!(MILITARY_GIFT.modifier(worth), m, "military {worth}");
    }
}

#[test]
fn a_gifts_modifiers_add_up_at_sale_value() {
    let g = scripted_game();
    // Default sale (option black_market_sale "one-to-one"): a caravan is 50 DEN + 200 MAD + 100
    // animals = 350 DEN of worth.
    assert_eq!(envoy_gifts::caravan_worth(&g), 350);
    let mut gift = Gift::default();
    gift.goods[DEN] = 1200; // +10
    gift.goods[COM] = 250; // with MET 50: 300, +1
    gift.goods[MET] = 50;
    gift.goods[PIE] = 150; // with MAD 149: 299, +0
    gift.goods[MAD] = 149;
    assert_eq!(envoy_gifts::modifier(&g, &gift), 11);
    gift.goods[MAD] = 150; // 300: +1
    gift.caravan = Some(0); // +3
    assert_eq!(envoy_gifts::modifier(&g, &gift), 15);
    // At the buying prices the same goods are worth more (or less): the worth is the table's.
    let buying = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("black_market_sale = \"buying-price\""),
    );
    let com = (300.0 * buying.sale[COM]).floor() as i64;
    let mut food = Gift::default();
    food.goods[COM] = 300;
    assert_eq!(
        envoy_gifts::modifier(&buying, &food),
        envoy_gifts::FOOD_METAL_GIFT.modifier(com)
    );
}

/// Roma's state with its stock of each resource in `above` set to what it keeps plus that much
/// (its caravans as given), and the plan.
fn roma_with(g: &Game, plan: &Scripted, above: &[(usize, i64)]) -> (State, CountryId) {
    let roma = country(g, "Roma");
    let mut st = g.start.clone();
    for &(r, v) in above {
        let keep = match r {
            DEN => economy::den_to_keep(g, &st, roma, plan),
            COM => economy::food_to_keep(g, &st, roma, plan, 3),
            _ => trade::kept(g, &st, roma, plan, r),
        };
        assert!(keep < i64::MAX / 2, "resource {r} is kept whole");
        st.nations[roma as usize].stock[r] = keep + v;
    }
    (st, roma)
}

#[test]
fn the_policy_gives_only_what_it_does_not_keep() {
    let g = scripted_game();
    let plan = Scripted {
        envoy_gift: 1200,
        envoy_food_metal: 1200,
        envoy_goods: 600,
        envoy_caravan: 1.0,
        ..Scripted::defaults()
    };
    let (mut st, roma) = roma_with(
        &g,
        &plan,
        &[(DEN, 250), (COM, 150), (PIE, 100), (MAD, 1000)],
    );
    // Roma's troops use metal: none of it is given.
    assert_eq!(trade::kept(&g, &st, roma, &plan, MET), i64::MAX);
    let gift = envoy_gifts::choose(&g, &st, roma, &plan, 3);
    assert_eq!(gift.goods[DEN], 250, "the DEN above the reserve and wages");
    assert_eq!(gift.goods[COM], 150, "the food beyond the next feeding");
    assert_eq!(gift.goods[MET], 0);
    assert_eq!((gift.goods[PIE], gift.goods[MAD]), (100, 500), "PIE first");
    assert_eq!(gift.caravan, None, "no caravan at home");
    // Nothing above what it keeps: nothing given.
    let (st0, _) = roma_with(&g, &plan, &[(DEN, 0), (COM, 0), (PIE, 0), (MAD, 0)]);
    let none = envoy_gifts::choose(&g, &st0, roma, &plan, 3);
    assert_eq!(none.goods, [0; super::state::R]);
    // An empty caravan at home goes; a loaded one does not.
    st.nations[roma as usize].caravans[1].leg = Leg::Home;
    st.nations[roma as usize].caravans[0].leg = Leg::Home;
    st.nations[roma as usize].caravans[0].man = 100;
    assert_eq!(
        envoy_gifts::choose(&g, &st, roma, &plan, 3).caravan,
        Some(1)
    );
    // A policy giving nothing gives nothing.
    let zero = Scripted {
        envoy_gift: 0,
        ..Scripted::defaults()
    };
    let nothing = envoy_gifts::choose(&g, &st, roma, &zero, 3);
    assert_eq!(nothing, Gift::default());
}

#[test]
fn the_goods_are_given_lost_or_brought_back_by_the_reception() {
    use Reception::*;
    for (got, fate) in [
        (Audience, Fate::Given),
        (Killed, Fate::Lost),
        (War, Fate::Brought),
        (Downgrade, Fate::Brought),
        (Beaten, Fate::Brought),
        (NoEffect, Fate::Brought),
        (Expelled, Fate::Brought),
        (NotReceived, Fate::Brought),
    ] {
        assert_eq!(envoy_gifts::fate(got), fate, "{got:?}");
    }
    let g = scripted_game();
    let etruria = country(&g, "Etruria");
    let plan = Scripted::defaults();
    for fate in [Fate::Given, Fate::Lost, Fate::Brought] {
        let (mut st, roma) = roma_with(&g, &plan, &[(COM, 400), (PIE, 300)]);
        st.nations[roma as usize].caravans[2].leg = Leg::Home;
        let mut gift = Gift::default();
        gift.goods[COM] = 300;
        gift.goods[PIE] = 200;
        gift.caravan = Some(2);
        let before = st.clone();
        envoy_gifts::settle(&g, &mut st, roma, etruria, &gift, fate);
        for r in [COM, PIE] {
            let lost = before.nations[roma as usize].stock[r] - st.nations[roma as usize].stock[r];
            let got =
                st.nations[etruria as usize].stock[r] - before.nations[etruria as usize].stock[r];
            let spent = st.ledger.spent[r] - before.ledger.spent[r];
            let want = gift.goods[r];
            match fate {
                Fate::Given => assert_eq!((lost, got, spent), (want, want, 0), "{fate:?}"),
                Fate::Lost => assert_eq!((lost, got, spent), (want, 0, want), "{fate:?}"),
                Fate::Brought => assert_eq!((lost, got, spent), (0, 0, 0), "{fate:?}"),
            }
        }
        let leg = st.nations[roma as usize].caravans[2].leg;
        let kept = fate == Fate::Brought;
        assert_eq!(leg == Leg::Home, kept, "{fate:?}: the caravan");
        assert_eq!(st.counts.caravans_given, (!kept) as u32);
        let worth = if fate == Fate::Given { 500.0 } else { 0.0 };
        assert_eq!(st.counts.envoy_goods_given, worth);
    }
}

/// A referee's country bordering `t` (and not a major), other than `not`.
fn neighbour_of(g: &Game, t: CountryId, not: &[CountryId]) -> Vec<CountryId> {
    g.neighbours[t as usize]
        .iter()
        .copied()
        .filter(|&x| g.major_index[x as usize] == u8::MAX && !not.contains(&x))
        .collect()
}

#[test]
fn backers_are_defensive_partners_near_the_target_under_each_reading() {
    let roma = |g: &Game| country(g, "Roma");
    for option in ["partners", "armies", "none"] {
        let g = game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with(&format!("backed_pressure = \"{option}\"")),
        );
        assert_eq!(g.backing, Backing::from_option(option));
        let c = roma(&g);
        let p = g.major_index[c as usize] as usize;
        let t = country(&g, "Etruria");
        let near = neighbour_of(&g, t, &[c]);
        assert!(near.len() >= 2, "{near:?}");
        let mut st = g.start.clone();
        assert_eq!(
            envoy_gifts::backing_points(&g, &st, p, c, t),
            0,
            "no treaty"
        );
        // A trade treaty does not back; a defensive one does.
        let (x, y) = (near[0], near[1]);
        let i = diplomacy::at(&st, p, x);
        st.relations[i].level = diplomacy::EQUAL_TRADE;
        assert_eq!(envoy_gifts::backing_points(&g, &st, p, c, t), 0, "trade");
        let i = diplomacy::at(&st, p, x);
        st.relations[i].level = diplomacy::DEFENSIVE;
        let i = diplomacy::at(&st, p, y);
        st.relations[i].level = diplomacy::CLIENT;
        assert_eq!(envoy_gifts::backers(&g, &st, p, c, t), {
            let mut v = vec![x, y];
            v.sort();
            v
        });
        let men = |st: &State, x: CountryId| {
            let n = &st.nations[x as usize];
            let mpu = g.men_per_unit(x);
            State::men(&n.field, &mpu) + State::men(&n.garrison, &mpu)
        };
        let points = envoy_gifts::backing_points(&g, &st, p, c, t);
        let want = match option {
            "partners" => 10,
            "armies" => (((men(&st, x) + men(&st, y)) / 1000.0) as i32).clamp(1, 20),
            _ => 0,
        };
        assert_eq!(points, want, "{option}");
        // Armies: an army of nothing still backs with +1.
        if option == "armies" {
            for who in [x, y] {
                st.nations[who as usize].field = super::state::NO_UNITS;
                st.nations[who as usize].garrison = super::state::NO_UNITS;
            }
            assert_eq!(envoy_gifts::backing_points(&g, &st, p, c, t), 1);
        }
        // A backer that lost its home backs no more.
        st.lands[x as usize].owner = c;
        let left = envoy_gifts::backers(&g, &st, p, c, t);
        assert_eq!(left, vec![y]);
        // Five partners reach the cap (+25 capped at +20).
        if option == "partners" {
            let mut st = g.start.clone();
            let all: Vec<CountryId> = (0..st.lands.len() as CountryId)
                .filter(|&z| {
                    z != c
                        && z != t
                        && g.major_index[z as usize] == u8::MAX
                        && (diplomacy::borders(&g, &st, z, t)
                            || g.scenario.links(z).iter().any(|l| l.sea && l.to == t))
                })
                .take(5)
                .collect();
            assert_eq!(all.len(), 5);
            for &z in &all {
                let i = diplomacy::at(&st, p, z);
                st.relations[i].level = diplomacy::ASSOCIATED;
            }
            assert_eq!(envoy_gifts::backing_points(&g, &st, p, c, t), 20);
        }
    }
}

#[test]
fn backed_pressure_turns_against_at_50_or_less_at_most_10() {
    assert_eq!(envoy_gifts::backed_modifier(20, 51), 20);
    assert_eq!(envoy_gifts::backed_modifier(25, 99), 20);
    assert_eq!(envoy_gifts::backed_modifier(20, 50), -10);
    assert_eq!(envoy_gifts::backed_modifier(5, 50), -5);
    assert_eq!(envoy_gifts::backed_modifier(0, 10), 0);
    assert_eq!(envoy_gifts::backed_modifier(0, 90), 0);
}

#[test]
fn games_with_every_gift_forced_on_keep_the_ledger() {
    // Goods given are a transfer to the referee's country; lost with a killed envoy, a sink
    // (`ledger.spent`): play_checked's resource ledger holds either way.
    let plan = Scripted {
        envoys: 3,
        envoy_gift: 600,
        envoy_food_metal: 1200,
        envoy_goods: 1100,
        envoy_caravan: 1.0,
        caravans: 3,
        backed_pressure: 1.0,
        ..Scripted::defaults()
    };
    let g = game_with(Policy::Scripted(plan), &options());
    let (mut goods, mut caravans) = (0.0, 0);
    play_checked(&g, 7, 40, "gifts forced on", |_, play, _| {
        goods += play.st.counts.envoy_goods_given;
        caravans += play.st.counts.caravans_given;
        for c in 0..play.st.nations.len() {
            for r in [COM, PIE, MAD, CAB, CAM, MAN] {
                assert!(play.st.nations[c].stock[r] >= 0);
            }
        }
    });
    assert!(goods > 0.0, "goods given");
    assert!(caravans > 0, "caravans given");
}
