//! Special Event (X) cards in an interception's field and naval battles (digest §3.0's card
//! window: in a naval or field battle anyone may play X cards for either side; §3.4, §3.5;
//! A-61), under the rule option `special_event_window`: "first-battle" (the default: the dice
//! committed to the expedition's window join the first combat of its chain, spent there) or
//! "target" (kept for the assault or pacification). Exact odds against a hand computation, the
//! simulated chain against the exact one within 5 standard errors (chance and VP) for the
//! attacker's, the interceptor's and a third party's dice, the key routing each source to its
//! side, the spent bit carried between points, and games on the X-card ring with the new
//! counters and every card conserved.

use super::game_tests::{check, game_with};
use super::military::{self, Defence, Plan};
use super::policy::{self, Policy};
use super::scenario::{FLEET, SPECIAL, TROOP};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use crate::options::Options;
use crate::rulesets::imperios_del_mediterraneo::cards::{Card, Cv};
use crate::rulesets::imperios_del_mediterraneo::expedition::{Expedition, Point, Reached, Target};
use crate::rulesets::imperios_del_mediterraneo::forces::{CardForce, Force};
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;
use crate::rulesets::imperios_del_mediterraneo::OPTIONS;

use super::texts_tests::{force, p_beats};

const SPECIAL_RING: &str =
    "scenarios/imperios-del-mediterraneo/game/mirror-ring-texts-special.toml";

/// The defaults with `special_event_window` set to `window`.
fn window(window: &str) -> Options {
    let table: toml::Table = format!("special_event_window = \"{window}\"")
        .parse()
        .unwrap();
    Options::resolve(OPTIONS, crate::spec::Fields::new("test", &table)).unwrap()
}

fn card(field: Cv, naval: Cv, assault: Cv) -> Card {
    Card {
        name: "c".into(),
        field,
        naval,
        assault,
    }
}

const CITY: Target = Target::City {
    size: 2,
    dice: 2,
    player_owner: true,
    modifier: 0,
};

/// A land expedition of one troop (field 3, assault 3) against a 2-dice city, a land
/// interceptor of one troop (field 3), `special` X dice (attacker's, defender's) in the window.
fn land_chain(special: [u32; 2], reading: &str) -> Expedition {
    let t = card(Cv::Fixed(3), Cv::Dash, Cv::Fixed(3));
    Expedition::new(
        force(vec![t.clone()]),
        false,
        0,
        Weather::Normal,
        None,
        Some(Force::Cards(force(vec![t]))),
        CITY,
        true,
        0,
        &window(reading),
    )
    .with_special(special, reading == "first-battle")
}

/// A naval expedition: two troops (field 2, naval 1, assault 2) aboard one fleet (naval 2,
/// assault 1), landing at a 2-dice city; a naval interceptor of one fleet (naval 3); `land`: a
/// land interceptor of one troop (field 2) at the arrival too.
fn naval_chain(special: [u32; 2], reading: &str, land: bool) -> Expedition {
    let troop = card(Cv::Fixed(2), Cv::Fixed(1), Cv::Fixed(2));
    let fleet = card(Cv::Dash, Cv::Fixed(2), Cv::Fixed(1));
    let em = CardForce {
        troops: vec![troop.clone(), troop.clone()],
        fleets: vec![fleet],
        aboard: vec![Some(0), Some(0)],
        leaders: Vec::new(),
        extra_dice: 0,
        modifier: 0,
    };
    let interceptor = CardForce {
        troops: Vec::new(),
        fleets: vec![card(Cv::Dash, Cv::Fixed(3), Cv::Dash)],
        aboard: Vec::new(),
        leaders: Vec::new(),
        extra_dice: 0,
        modifier: 0,
    };
    Expedition::new(
        em,
        true,
        0,
        Weather::Normal,
        Some(Force::Cards(interceptor)),
        land.then(|| Force::Cards(force(vec![troop]))),
        CITY,
        false,
        0,
        &window(reading),
    )
    .with_special(special, reading == "first-battle")
}

/// One X die for the attacker, then one for the defender, on the land chain, by hand: the
/// field battle's casualty roll takes the attacker's only troop on a 1 (the interceptor has
/// one card), so the expedition goes on with 5/6 of a won battle.
/// For the attacker, first battle: P(3 + 2d6 > 3 + 1d6) = 181/216, then the assault without
/// it: P(3 + 1d6 > 2d6) = 81/216 = 3/8: 181/216 * 5/6 * 3/8 = 905/3456 ≈ 0.26186.
/// Kept for the assault: P(3 + 1d6 > 3 + 1d6) = 15/36 = 5/12, then P(3 + 2d6 > 2d6) =
/// 493/648: 5/12 * 5/6 * 493/648 = 12325/46656 ≈ 0.26417.
/// For the defender, first battle: P(3 + 1d6 > 3 + 2d6) = 5/54, then 3/8: 5/54 * 5/6 * 3/8 =
/// 25/864 ≈ 0.02894; kept: 5/12 * 5/6 * P(3 + 1d6 > 3d6) = 5/12 * 5/6 * 7/72 = 175/5184 ≈
/// 0.03376.
#[test]
fn x_dice_join_the_first_battle_by_hand() {
    let cases = [
        ([1, 0], "first-battle", 905.0 / 3456.0),
        ([1, 0], "target", 12325.0 / 46656.0),
        ([0, 1], "first-battle", 25.0 / 864.0),
        ([0, 1], "target", 175.0 / 5184.0),
    ];
    for (special, reading, want) in cases {
        let (p, _) = land_chain(special, reading).chance_and_vp();
        assert!(
            (p - want).abs() < 1e-12,
            "{special:?} {reading}: {p} vs {want}"
        );
    }
    // The same fractions by the dice oracle (every outcome counted).
    let five_sixths = 5.0 / 6.0;
    let first = p_beats(3, 2, 3, 1) * five_sixths * p_beats(3, 1, 0, 2);
    assert!((first - 905.0 / 3456.0).abs() < 1e-12);
    let kept = p_beats(3, 1, 3, 1) * five_sixths * p_beats(3, 1, 0, 3);
    assert!((kept - 175.0 / 5184.0).abs() < 1e-12);
    // No X dice: both readings are the chain as printed.
    let (a, _) = land_chain([0, 0], "first-battle").chance_and_vp();
    let (b, _) = land_chain([0, 0], "target").chance_and_vp();
    assert_eq!(a, b);
    assert!((a - p_beats(3, 1, 3, 1) * five_sixths * p_beats(3, 1, 0, 2)).abs() < 1e-12);
}

/// The simulated chain agrees with the exact one within 5 standard errors, chance and VP.
fn twin(e: &Expedition, what: &str) {
    let (p, vp) = e.chance_and_vp();
    let n = 40_000;
    let mut dice = Dice::from_seed(23);
    let (mut hits, mut sum, mut sq) = (0u32, 0.0, 0.0);
    for _ in 0..n {
        let played = e.play(&mut dice);
        hits += played.failed.is_none() as u32;
        sum += played.vp[0];
        sq += played.vp[0] * played.vp[0];
    }
    let nf = n as f64;
    let f = hits as f64 / nf;
    let se = (p * (1.0 - p) / nf).sqrt().max(1e-9);
    assert!((f - p).abs() < 5.0 * se, "{what}: chance {f} vs exact {p}");
    let mean = sum / nf;
    let var = (sq / nf - mean * mean).max(0.0);
    let se = (var / nf).sqrt().max(1e-9);
    assert!(
        (mean - vp).abs() < 5.0 * se,
        "{what}: VP {mean} vs exact {vp}"
    );
}

/// Over a grid: a field interception, a naval one, and a naval one then a land one at the
/// arrival; X dice for the attacker, for the interceptor, for both; both readings.
#[test]
fn simulated_chain_matches_exact_with_x_dice_in_battles() {
    for special in [[1, 0], [0, 1], [2, 1]] {
        for reading in ["first-battle", "target"] {
            twin(
                &land_chain(special, reading),
                &format!("field {special:?} {reading}"),
            );
            for land in [false, true] {
                twin(
                    &naval_chain(special, reading, land),
                    &format!("naval (land after: {land}) {special:?} {reading}"),
                );
            }
        }
    }
}

/// The readings differ where a battle comes before the target and agree where none does; by
/// sea the dice join the naval battle, not the land one after it.
#[test]
fn the_readings_differ_only_where_a_battle_comes_first() {
    let p = |e: Expedition| e.chance_and_vp().0;
    for special in [[1, 0], [0, 1]] {
        assert_ne!(
            p(naval_chain(special, "first-battle", true)),
            p(naval_chain(special, "target", true))
        );
    }
    // No interception: the assault is the first combat under both readings.
    let bare = |reading: &str| {
        let t = card(Cv::Fixed(3), Cv::Dash, Cv::Fixed(3));
        Expedition::new(
            force(vec![t]),
            false,
            0,
            Weather::Normal,
            None,
            None,
            CITY,
            true,
            0,
            &window(reading),
        )
        .with_special([1, 0], reading == "first-battle")
    };
    assert_eq!(p(bare("first-battle")), p(bare("target")));
    // An attacker X die in the naval battle raises its chance there and is gone for the land
    // battle: from the arrival on, a spent window is the chain without X dice.
    let e = naval_chain([1, 0], "first-battle", true);
    let at = |spent: bool| Reached {
        alive: 0b111,
        leaders: false,
        lands: true,
        spent,
    };
    let none = naval_chain([0, 0], "first-battle", true);
    assert_eq!(
        e.chance_and_vp_from(at(true), Point::Arrival),
        none.chance_and_vp_from(at(false), Point::Arrival)
    );
    assert!(
        e.chance_and_vp_from(at(false), Point::Arrival).0
            > none.chance_and_vp_from(at(false), Point::Arrival).0
    );
    // Played from the start, a chain that fought at sea reports the window spent there.
    let mut dice = Dice::from_seed(5);
    let mut at_sea = 0;
    for _ in 0..200 {
        let played = e.play(&mut dice);
        if played.intercepted[0] {
            assert_eq!(played.special_battle, Some(0));
            at_sea += 1;
        }
    }
    assert_eq!(at_sea, 200);
}

/// The key routes each source of X dice to its side: the attacker's own X card, a third
/// party's X die for the attacker and a City Attack die are one die each, but only the X dice
/// join the field interception under "first-battle"; the defender's X card and a third party's
/// X die for it likewise. Exact vs simulated through the game's cache, for each source.
#[test]
fn the_game_plays_each_source_of_x_dice_in_the_interception() {
    for reading in ["first-battle", "target"] {
        let g = game_with(
            SPECIAL_RING,
            3,
            policy::defaults("greedy"),
            &window(reading),
        );
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let mut dice = Dice::for_trial(4, 0, 0);
        play.setup(&mut dice);
        let target = (0..s.map.cities.len())
            .find(|&c| play.st.owner[c] == 1)
            .unwrap();
        let cards: Vec<u8> = (0..s.decks[s.empires[0].deck].cards.len() as u8).collect();
        let first = |p: usize, t: u8, n: usize| -> Vec<u8> {
            cards
                .iter()
                .copied()
                .filter(|&c| military::is(s, p, c, t))
                .take(n)
                .collect()
        };
        let mut plan = Plan {
            target,
            ..Plan::default()
        };
        for c in first(0, TROOP, 2) {
            plan.cards.push(c);
        }
        let mut defence = Defence::default();
        for c in first(1, TROOP, 1) {
            defence.intercept.push(c);
        }
        let x0 = first(0, SPECIAL, 1)[0];
        let x1 = first(1, SPECIAL, 1)[0];
        let a = first(0, super::scenario::CITY_ATTACK, 1)[0];
        let o = &g.rules.options;
        let mut chance = |plan: &Plan, d: &Defence| play.cache.chance(s, &play.st, o, 0, plan, d);
        let mut own_x = plan;
        own_x.attack.push(x0);
        let mut own_a = plan;
        own_a.attack.push(a);
        let third_x = Defence {
            special_attack: 1,
            ..defence
        };
        let (p_own, _) = chance(&own_x, &defence);
        let (p_third, _) = chance(&plan, &third_x);
        let (p_attack, _) = chance(&own_a, &defence);
        let (p_none, _) = chance(&plan, &defence);
        assert_eq!(p_own, p_third, "{reading}");
        assert!(p_own > p_none && p_attack > p_none);
        // "target": an X die is a City Attack die; "first-battle": it is not.
        assert_eq!(p_own == p_attack, reading == "target", "{reading}");
        let mut def_x = defence;
        def_x.defence.push(x1);
        let third_d = Defence {
            special_defence: 1,
            ..defence
        };
        let (p_def, _) = chance(&plan, &def_x);
        let (p_third_d, _) = chance(&plan, &third_d);
        assert_eq!(p_def, p_third_d, "{reading}");
        assert!(p_def < p_none);
        // Exact vs simulated through the game's cache, for the three sources.
        for (pl, d, what) in [
            (own_x, defence, "attacker's X"),
            (plan, def_x, "defender's X"),
            (plan, third_x, "third party's X"),
        ] {
            let (p, vp) = play.cache.chance(s, &play.st, o, 0, &pl, &d);
            let n = 30_000;
            let mut dice = Dice::from_seed(31);
            let (mut hits, mut sum, mut sq) = (0u32, 0.0, 0.0);
            for _ in 0..n {
                let r = play.cache.play(s, &play.st, o, 0, &pl, &d, &mut dice);
                hits += r.failed.is_none() as u32;
                sum += r.vp[0];
                sq += r.vp[0] * r.vp[0];
                assert_eq!(
                    r.special_battle.is_some(),
                    reading == "first-battle" && r.intercepted[1],
                    "{what} {reading}"
                );
            }
            let nf = n as f64;
            let se = (p * (1.0 - p) / nf).sqrt().max(1e-9);
            assert!((hits as f64 / nf - p).abs() < 5.0 * se, "{what} {reading}");
            let mean = sum / nf;
            let se = ((sq / nf - mean * mean).max(0.0) / nf).sqrt().max(1e-9);
            assert!(
                (mean - vp).abs() < 5.0 * se,
                "{what} {reading}: {mean} vs {vp}"
            );
        }
        // By sea: the fleets' X dice at the naval interception.
        let mut naval = plan;
        naval.naval = true;
        for c in first(0, FLEET, 1) {
            naval.cards.push(c);
        }
        let mut at_sea = Defence::default();
        for c in first(1, FLEET, 1) {
            at_sea.naval.push(c);
        }
        let helped = Defence {
            special_attack: 1,
            ..at_sea
        };
        let (with, _) = play.cache.chance(s, &play.st, o, 0, &naval, &helped);
        let (without, _) = play.cache.chance(s, &play.st, o, 0, &naval, &at_sea);
        assert!(with > without, "{reading}");
    }
}

/// Games on the X-card ring, greedy players who hinder any leader and random players: X cards
/// join interception battles (at sea too) and come back on recovery rolls under the default,
/// never under "target"; every card and marker is conserved.
#[test]
fn games_play_x_cards_in_interception_battles_with_cards_conserved() {
    let mut greedy = policy::defaults("greedy");
    if let Policy::Scripted(g) = &mut greedy {
        g.hinder = 0.0;
    }
    for reading in ["first-battle", "target"] {
        let (mut battle, mut naval, mut back) = (0, 0, 0);
        for policy in [greedy, Policy::Random] {
            let g = game_with(SPECIAL_RING, 4, policy, &window(reading));
            let mut play = Play::new(&g);
            let mut record = GameRecord::new(4, super::GAME_COLUMNS.len());
            for i in 0..150 {
                let mut dice = Dice::for_trial(29, 0, i);
                record.clear();
                play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
                check(&play, &record);
                let c = &play.st.counts;
                battle += c.battle_special_cards;
                naval += c.naval_special_cards;
                back += c.special_recovered;
            }
        }
        if reading == "first-battle" {
            assert!(
                battle > 0 && naval > 0 && back > 0,
                "{battle} {naval} {back}"
            );
            assert!(back < battle);
        } else {
            assert_eq!((battle, naval, back), (0, 0, 0));
        }
    }
}
