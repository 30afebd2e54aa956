//! The dice procedures against the digest's worked examples (§7.4 T21, T22, T24), against the battle
//! calculator's status tests (which must hand every input through), and each sampler against its
//! exact distribution.

use super::procedures::*;
use super::scenario::Scenario;
use crate::dice::Dice;
use crate::rulesets::invasions::{status, test_support::model};

fn bundled() -> Scenario {
    Scenario::bundled().unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Each category's frequency within 5 standard errors of its exact probability (an impossible
/// category must never show, a certain one always).
fn assert_samples(exact: &[f64], counts: &[u64], what: &str) {
    let n: u64 = counts.iter().sum();
    for (i, (&p, &c)) in exact.iter().zip(counts).enumerate() {
        let f = c as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (f - p).abs() <= 5.0 * se + 1e-12,
            "{what}: category {i} seen {f}, exact {p} (5 SE = {})",
            5.0 * se
        );
    }
}

fn sample_test(t: &dyn D10Test, seed: u64, what: &str) {
    let mut dice = Dice::from_seed(seed);
    let mut counts = [0u64; 2];
    for _ in 0..100_000 {
        counts[t.roll(&mut dice) as usize] += 1;
    }
    assert_samples(&[1.0 - t.p(), t.p()], &counts, what);
}

#[test]
fn t24_status_tests() {
    // Kingdom: age 5, treasury 12 (−1), horde in a Barbarian Area (+2): m = +1 → D10 ≤ 4.
    let mut k = KingdomTest {
        age: 5,
        treasury: 12,
        horde_in_barbarian_area: true,
        ..Default::default()
    };
    assert_eq!(k.modifier(), 1);
    assert!(close(k.p(), 0.4));
    // Q16's round-up reading: 12 gold counts −2.
    k.tens = TreasuryTens::RoundedUp;
    assert!(close(k.p(), 0.5));
    // Empire: 3 Civilized Areas (+2), leader combat 2 (+1), Roma (+3): m = 6 → 0.9; the
    // summary reading (beyond the first three): m = 4 → 0.7.
    let mut e = EmpireTest {
        civilized_areas: 3,
        leader_combat: 2,
        holds_roma_or_constantinopolis: true,
        ..Default::default()
    };
    assert_eq!(e.modifier(), 6);
    assert!(close(e.p(), 0.9));
    e.area_bonus = EmpireAreaBonus::BeyondThree;
    assert!(close(e.p(), 0.7));
    // Collapse: age 11 (+2), double Decline (+2), 1 calamity (+1), 2 other Areas (−2): m = 3 → 0.5.
    let c = CollapseTest {
        age: 11,
        decline: Decline::Double,
        calamities: 1,
        other_areas: 2,
        ..Default::default()
    };
    assert_eq!(c.modifier(), 3);
    assert!(close(c.p(), 0.5));
}

#[test]
fn who_must_test() {
    let k = |age| KingdomTest {
        age,
        ..Default::default()
    };
    assert!(!k(4).required() && k(5).required());
    // Barbarian Areas count ½, unrounded: 2 + 2·½ = 3 tests, 2 + ½ does not.
    let e = |civilized_areas, barbarian_areas| EmpireTest {
        civilized_areas,
        barbarian_areas,
        ..Default::default()
    };
    assert!(e(2, 2).required() && !e(2, 1).required() && e(0, 6).required());
    let c = |age| CollapseTest {
        age,
        ..Default::default()
    };
    assert!(!c(8).required() && c(9).required());
}

fn calculator_p(text: &str, options: &str) -> f64 {
    let text = format!("{text}[options]\n{options}\n");
    let m = model(&text, status::build).unwrap_or_else(|e| panic!("{text}: {e}"));
    m.exact().unwrap().outcomes[0]
}

/// The calculator builds these same tests from a battle file's keys and options; this grid checks
/// that it hands every input and option through, so both answer alike.
#[test]
fn status_tests_agree_with_the_calculator() {
    let decl = [Decline::None, Decline::Simple, Decline::Double];
    let decl_name = ["none", "simple", "double"];
    for (tens, option) in [
        (
            TreasuryTens::Complete,
            "kingdom_treasury_tens = \"complete-tens\"",
        ),
        (
            TreasuryTens::RoundedUp,
            "kingdom_treasury_tens = \"rounded-up\"",
        ),
    ] {
        for age in 5..=7 {
            for treasury in [0, 9, 10, 15, 20, 31, 40] {
                for horde in [false, true] {
                    let t = KingdomTest {
                        age,
                        treasury,
                        horde_in_barbarian_area: horde,
                        tens,
                    };
                    let text = format!("test = \"kingdom\"\nage = {age}\ntreasury = {treasury}\nhorde_in_barbarian_area = {horde}\n");
                    assert!(close(t.p(), calculator_p(&text, option)), "{text}");
                }
            }
        }
    }
    for (bonus, option) in [
        (
            EmpireAreaBonus::FromTheThird,
            "empire_area_bonus = \"from-the-third\"",
        ),
        (
            EmpireAreaBonus::BeyondThree,
            "empire_area_bonus = \"beyond-three\"",
        ),
    ] {
        for (civilized_areas, barbarian_areas) in [(3, 0), (2, 2), (1, 4), (4, 1), (5, 0)] {
            for (leader_combat, d) in [(0, 0), (2, 1), (3, 2), (1, 0)] {
                let t = EmpireTest {
                    civilized_areas,
                    barbarian_areas,
                    leader_combat,
                    decline: decl[d],
                    holds_roma_or_constantinopolis: leader_combat == 1,
                    clients: d as u8,
                    area_bonus: bonus,
                };
                let text = format!(
                    "test = \"empire\"\ncivilized_areas = {civilized_areas}\nbarbarian_areas = {barbarian_areas}\nleader_bonus = {leader_combat}\ndecline = \"{}\"\nholds_roma_or_constantinople = {}\nclients = {d}\n",
                    decl_name[d], leader_combat == 1
                );
                assert!(close(t.p(), calculator_p(&text, option)), "{text}");
            }
        }
    }
    for age in 9..=12 {
        for (d, calamities, lost, other_areas) in
            [(0, 0, false, 0), (1, 2, true, 1), (2, 1, false, 5)]
        {
            let t = CollapseTest {
                age,
                decline: decl[d],
                calamities,
                capital_lost_last_turn: lost,
                other_areas,
            };
            let text = format!(
                "test = \"collapse\"\nage = {age}\ndecline = \"{}\"\ncalamities = {calamities}\ncapital_lost = {lost}\nother_areas = {other_areas}\n",
                decl_name[d]
            );
            assert!(close(t.p(), calculator_p(&text, "")), "{text}");
        }
    }
}

#[test]
fn status_samplers_match_their_exact_p() {
    let k = KingdomTest {
        age: 6,
        treasury: 25,
        ..Default::default()
    };
    sample_test(&k, 1, "kingdom");
    let e = EmpireTest {
        civilized_areas: 2,
        barbarian_areas: 3,
        decline: Decline::Simple,
        ..Default::default()
    };
    sample_test(&e, 2, "empire");
    let c = CollapseTest {
        age: 12,
        capital_lost_last_turn: true,
        other_areas: 3,
        ..Default::default()
    };
    sample_test(&c, 3, "collapse");
    // A certain and an impossible test never waver.
    let sure = KingdomTest {
        age: 7,
        horde_in_barbarian_area: false,
        treasury: 40,
        ..Default::default()
    };
    assert!(close(sure.p(), 1.0));
    sample_test(&sure, 4, "certain kingdom");
}

#[test]
fn t24_raid_table() {
    let want = [
        (0, [0.4, 0.2, 0.4, 0.0]),
        (2, [0.2, 0.2, 0.4, 0.2]),
        (-2, [0.6, 0.2, 0.2, 0.0]),
    ];
    for (m, p) in want {
        let got = raid_distribution(m);
        assert!(
            got.iter().zip(p).all(|(&a, b)| close(a, b)),
            "m {m}: {got:?}"
        );
    }
    assert_eq!(raid_modifier(0, RaidMarker::Plus), 2);
    assert_eq!(raid_modifier(3, RaidMarker::Minus), -2);
    for (seed, m) in [(5, 0), (6, 2), (7, -2), (8, 3)] {
        let mut dice = Dice::from_seed(seed);
        let mut counts = [0u64; 4];
        for _ in 0..100_000 {
            counts[roll_raid(m, &mut dice) as usize] += 1;
        }
        assert_samples(&raid_distribution(m), &counts, &format!("raid m {m}"));
    }
}

#[test]
fn t24_caravans() {
    let s = bundled();
    let names: Vec<&str> = s
        .caravans
        .iter()
        .map(|c| s.provinces[c.0 as usize].name.as_str())
        .collect();
    assert_eq!(names, ["Aegyptus", "Rhagae", "Siraces", "Tripolitania"]);
    let p = exceptional_caravan_distribution(&s);
    assert!(
        p.iter()
            .zip([0.2, 0.5, 0.2, 0.1])
            .all(|(&a, b)| close(a, b)),
        "{p:?}"
    );
    let mut dice = Dice::from_seed(9);
    let mut counts = [0u64; 4];
    for _ in 0..100_000 {
        counts[roll_exceptional_caravan(&s, &mut dice)] += 1;
    }
    assert_samples(&p, &counts, "exceptional caravan");
    // 1 gold, 5 for the exceptional one; with the Caravan event 5 and 10.
    assert_eq!([false, true].map(|x| caravan_gold(&s, x, false)), [1, 5]);
    assert_eq!([false, true].map(|x| caravan_gold(&s, x, true)), [5, 10]);
    // Looting: a D2, automatic for the exceptional caravan; two markers with the event.
    for (exceptional, event) in [(false, false), (false, true), (true, false)] {
        let mut dice = Dice::from_seed(10 + exceptional as u64);
        let mut counts = [0u64; 3];
        for _ in 0..100_000 {
            counts[roll_loot_caravan(exceptional, event, &mut dice) as usize] += 1;
        }
        let p = p_loot_caravan(exceptional);
        let mut exact = [1.0 - p, 0.0, 0.0];
        exact[1 + event as usize] = p;
        assert_samples(&exact, &counts, "caravan loot");
    }
}

#[test]
fn t22_area_and_province_income() {
    let s = bundled();
    let area = |n| s.area(n).unwrap_or_else(|| panic!("{n}"));
    let province = |n| s.province(n).unwrap_or_else(|| panic!("{n}"));
    assert_eq!(empire_full_control_income(&s, area("Graecia")), 9);
    assert_eq!(
        kingdom_area_income_halves(&s, area("Gallia Meridionalis")),
        24
    );
    assert_eq!(kingdom_area_income_halves(&s, area("Asia")), 16);
    let halves =
        ["Chaldea", "Susiana", "Hyrkania"].map(|p| province_income_halves(&s, province(p)));
    assert_eq!(halves, [4, 2, 1]);
    // Every Area: the computed figures are the printed ones (Arabia's provinces make its 2½).
    for (a, printed) in s.areas.iter().enumerate() {
        let k = kingdom_area_income_halves(&s, a as u8);
        assert!(
            k == 2 * printed.kingdom_income as u32
                || Some(k) == printed.alternative_halves.map(u32::from),
            "{}: {k} halves",
            printed.name
        );
        if let Some(e) = printed.empire_income {
            assert_eq!(
                empire_full_control_income(&s, a as u8),
                e as u32,
                "{}",
                printed.name
            );
        }
    }
    // Rounded up, negatives too: ½ → 1, −½ → 0, −1½ → −1.
    assert_eq!([3, 1, 0, -1, -3].map(halves_to_gold), [2, 1, 0, 0, -1]);
}

#[test]
fn t21_administration_draws() {
    let s = bundled();
    let deck = s.administration_deck;
    assert_eq!(deck, [7, 7, 4]);
    let dist = |draws| administration_draw_distribution(deck, draws);
    let p_of = |rows: &[([u8; 3], f64)], taken: [u8; 3]| {
        rows.iter().find(|r| r.0 == taken).map_or(0.0, |r| r.1)
    };
    let two = dist(2);
    // The Visigoths' Passive + Military, in either order.
    assert!(close(
        p_of(&two, [1, 1, 0]),
        2.0 * 7.0 * 7.0 / (18.0 * 17.0)
    ));
    // Byzantium's two Passive then a Military: no other order gives [2, 1, 0].
    assert!(close(
        p_of(&two, [2, 1, 0]),
        7.0 * 6.0 * 7.0 / (18.0 * 17.0 * 16.0)
    ));
    // Two of one set never end a draw.
    assert!(p_of(&two, [2, 0, 0]) == 0.0 && p_of(&two, [0, 0, 2]) == 0.0);
    // Theodericus (+2) draws 4: P, M, M, R in any of 12 orders.
    let four = dist(4);
    let want = 12.0 * (7.0 * 7.0 * 6.0 * 4.0) / (18.0 * 17.0 * 16.0 * 15.0);
    assert!(close(p_of(&four, [1, 2, 1]), want));
    for draws in 2..=5 {
        let rows = dist(draws);
        assert!(close(rows.iter().map(|r| r.1).sum(), 1.0), "{draws}");
        let mut dice = Dice::from_seed(20 + draws as u64);
        let mut counts = vec![0u64; rows.len()];
        for _ in 0..100_000 {
            let taken = roll_administration_draw(deck, draws, &mut dice);
            let i = rows
                .iter()
                .position(|r| r.0 == taken)
                .expect("a possible draw");
            counts[i] += 1;
        }
        let exact: Vec<f64> = rows.iter().map(|r| r.1).collect();
        assert_samples(&exact, &counts, &format!("administration, {draws} draws"));
    }
}

/// (map half, which Areas the Empire holds, an Area, its exact P).
type Case<'a> = (Option<MapHalf>, &'a dyn Fn(u8) -> bool, &'a str, f64);

#[test]
fn t20_revolt_selector_and_area() {
    let s = bundled();
    let table = revolt_areas(&s).unwrap();
    let name = |a: u8| s.areas[a as usize].name.as_str();
    // T20: selector 2 → the Roman player, 4 → the Persian; West face 8 → Africa, 5 → Gallia S.
    let face = |f: u8| {
        REVOLT_SELECTOR
            .iter()
            .position(|r| (r.1..=r.2).contains(&f))
    };
    assert_eq!(REVOLT_SELECTOR[face(2).unwrap()].0, "Romans");
    assert_eq!(REVOLT_SELECTOR[face(4).unwrap()].0, "Persians");
    assert_eq!(name(table[0][7]), "Africa");
    assert_eq!(name(table[0][4]), "Gallia Septentrionalis");
    // The selector names the scenario's players.
    for (player, _, _) in REVOLT_SELECTOR {
        assert!(s.players.iter().any(|p| p == player), "{player}");
    }
    let p = revolt_selector_distribution();
    assert!(p
        .iter()
        .zip([0.3, 0.3, 0.2, 0.2])
        .all(|(&a, b)| close(a, b)));
    let mut dice = Dice::from_seed(30);
    let mut counts = [0u64; 4];
    for _ in 0..100_000 {
        counts[roll_revolt_selector(&mut dice)] += 1;
    }
    assert_samples(&p, &counts, "revolt selector");

    let britannia = s.area("Britannia").unwrap();
    let persis = s.area("Persis").unwrap();
    let cases: [Case; 4] = [
        // Everything held in the West: Britannia, Africa, Hispania two faces each.
        (Some(MapHalf::West), &|_| true, "Africa", 0.2),
        // Britannia lost: its two faces are re-rolled, 8 faces left.
        (Some(MapHalf::West), &|a| a != britannia, "Africa", 0.25),
        // Only Persis held in the East: certain.
        (Some(MapHalf::East), &|a| a == persis, "Persis", 1.0),
        // The united Empire: a D2 picks the half, 20 entries.
        (None, &|_| true, "Oriens", 0.1),
    ];
    for (i, (half, holds, area, want)) in cases.into_iter().enumerate() {
        let rows = revolt_area_distribution(&table, half, holds);
        let got = rows.iter().find(|r| name(r.0) == area).map_or(0.0, |r| r.1);
        assert!(close(got, want), "case {i}: {area} {got}");
        assert!(close(rows.iter().map(|r| r.1).sum(), 1.0));
        let mut dice = Dice::from_seed(31 + i as u64);
        let mut counts = vec![0u64; rows.len()];
        for _ in 0..100_000 {
            let a = roll_revolt_area(&table, half, holds, &mut dice).unwrap();
            counts[rows.iter().position(|r| r.0 == a).unwrap()] += 1;
        }
        let exact: Vec<f64> = rows.iter().map(|r| r.1).collect();
        assert_samples(&exact, &counts, &format!("revolt area case {i}"));
    }
    // Nothing held in that half: no revolt lands.
    assert!(revolt_area_distribution(&table, Some(MapHalf::East), |a| a == britannia).is_empty());
    let mut dice = Dice::from_seed(40);
    assert_eq!(
        roll_revolt_area(&table, Some(MapHalf::East), |a| a == britannia, &mut dice),
        None
    );
}
