//! The siege's tests: the digest's worked examples (T04, T11), the §8.3 formulas, every modifier,
//! assaults, the pillage pool, and exact against Monte Carlo over a grid of sieges.

use super::*;
use crate::rulesets::invasions::pillage_markers::MARKER_CLASSES;
use crate::rulesets::invasions::test_support::{assert_agrees, assert_input_error, close};

fn situation(walls: Walls, nation: Nation, fleet: bool) -> Situation {
    Situation {
        walls,
        nation,
        decline: 0,
        fleet,
        event: 0,
    }
}

/// A siege by a stack of `units` (`elites` intact elites) under a leader of combat bonus
/// `leader`, on game turn `turn`, for that turn only.
fn siege_of(s: Situation, leader: u32, units: u32, elites: u32, turn: u32) -> Siege {
    Siege::new(s, Some(leader), Stack { units, elites }, turn, 1)
}

fn replay(siege: &Siege, rolls: &[u32]) -> Course {
    let mut it = rolls.iter().copied();
    siege.play(&mut || it.next().expect("enough printed rolls"))
}

#[test]
fn t04_nisibis_falls_to_iulianus() {
    // Roman Empire (Civilized) against fortified Nisibis, no assault, Iulianus combat 3.
    let s = situation(Walls::Standard, Nation::Civilized, false);
    assert_eq!(s.modifier(1, false), -1); // −2 walls + 1 civilized
    let mut siege = siege_of(s, 3, 7, 6, 1);
    siege.assault = AssaultPolicy::Never;
    siege.rebuild_schema();
    assert_eq!(1 + siege.rerolls(), 4); // dice rolled
    let (best, falls) = best_of(-1, &[6, 9, 3, 7]);
    assert_eq!(best, 8);
    assert!(falls);
    let course = replay(&siege, &[6, 9, 3, 7]);
    assert_eq!(course.taken_turn, 1); // the second die (9 − 1 = 8) takes the city
    close(p_fall(-1, 3), 1.0 - 0.7f64.powi(4));
    assert!((p_fall(-1, 3) - 0.7599).abs() < 1e-9);
    close(siege.exact().unwrap().outcomes[0], 0.7599);
}

#[test]
fn t11_athenae_falls_to_fritigernus_and_is_sacked() {
    // Turn 2, Visigoths vs unfortified Athenae (level 2), Roman fleet in the Mare Aegeum.
    let s = situation(Walls::None, Nation::Barbarian, true);
    assert_eq!(s.modifier(2, false), -1);
    let mut siege = siege_of(s, 2, 6, 0, 2);
    siege.level = 2;
    siege.rebuild_schema();
    assert!(!siege.wants_assault(siege.stack, 2)); // no elites to absorb the hits: no assault
    assert_eq!(1 + siege.rerolls(), 3);
    let (best, falls) = best_of(-1, &[3, 9, 1]);
    assert_eq!(best, 8);
    assert!(falls);
    // The terror D2 is odd (say 5), then the three siege dice.
    let course = replay(&siege, &[5, 3, 9, 1]);
    assert_eq!(
        course,
        Course {
            taken_turn: 1,
            by_terror: false,
            stack: siege.stack
        }
    );
    assert!((p_fall(-1, 2) - 0.657).abs() < 1e-9);
    // Two markers worth 3 in all: 2 + 3 = 5 gold.
    assert_eq!(sack_gold(&[1, 2], Capital::None), 5);
    assert_eq!(sack_gold(&[2, 1], Capital::None), 5);
    // With the terror first: 1/2 + 1/2 · 0.657.
    let ex = siege.exact().unwrap();
    close(ex.outcomes[0], with_terror(0.657));
    close(ex.scalars[0], 0.5);
}

#[test]
fn section_8_3_formulas() {
    // Terror: 1/2 + 1/2 P; continuations: 1 − (1 − P1)(1 − p′)^k; at several points.
    for (walls, leader, k) in [
        (Walls::None, 2, 1u32),
        (Walls::None, 0, 2),
        (Walls::Standard, 3, 3),
        (Walls::Theodosian, 1, 2),
    ] {
        let s = situation(walls, Nation::Barbarian, false);
        let m = s.modifier(1, false);
        let mut siege = siege_of(s, leader, 3, 0, 1);
        siege.campaigns = k;
        siege.rebuild_schema();
        let p1 = p_fall(m, leader);
        let chain = with_continuations(p1, single_roll(m), k);
        let expected = if walls.fortified() {
            chain
        } else {
            with_terror(chain)
        };
        close(siege.exact().unwrap().outcomes[0], expected);
    }
    close(with_terror(0.0), 0.5);
    close(with_continuations(0.5, 0.3, 2), 1.0 - 0.5 * 0.49);
    // Single rolls: m = 0 → 0.4; m = −4 → 0; m = +6 → 1.
    close(single_roll(0), 0.4);
    close(single_roll(-4), 0.0);
    close(single_roll(-7), 0.0);
    close(single_roll(6), 1.0);
}

#[test]
fn modifier_is_the_sum_of_its_breakdown() {
    for case in 0..60u32 {
        let s = Situation {
            walls: Walls::parse(WALLS[(case % 7) as usize]),
            nation: [Nation::Barbarian, Nation::Nomad, Nation::Civilized][(case % 3) as usize],
            decline: case % 3,
            fleet: case % 2 == 0,
            event: (case % 5) as i32 - 2,
        };
        for turn in 1..=12 {
            for assault in [false, true] {
                let sum: i32 = s.breakdown(turn, assault).iter().map(|(_, m)| m).sum();
                assert_eq!(s.modifier(turn, assault), sum);
            }
        }
    }
}

#[test]
fn every_modifier() {
    let mut s = situation(Walls::Roma, Nation::Nomad, true);
    assert_eq!(s.modifier(9, false), -1 - 1 - 1);
    assert_eq!(s.modifier(10, false), -1 - 1); // nomad malus ends with turn 9
    assert_eq!(s.modifier(10, true), -1 + 1); // assault cancels the fleet
    s.walls = Walls::None;
    assert_eq!(s.modifier(4, false), -1 - 1 - 1);
    assert_eq!(s.modifier(6, false), -1 - 1);
    s.decline = 2;
    s.event = 1;
    assert_eq!(s.modifier(6, false), 1); // nomad −1, fleet −1, double decline +2, event +1
    for (w, m) in [
        (Walls::Standard, -2),
        (Walls::Ctesiphon, -3),
        (Walls::Ravenna, -3),
        (Walls::Constantinople, -3),
        (Walls::Theodosian, -4),
    ] {
        assert_eq!(w.modifier(), m);
    }
}

#[test]
fn assault_costs_and_policies() {
    let s = situation(Walls::Standard, Nation::Barbarian, false);
    let mut siege = siege_of(s, 1, 4, 2, 1);
    // P(no assault) = 1 − 0.8² = 0.36 < 0.5 and 2 elites absorb both hits: auto assaults.
    assert!(siege.wants_assault(siege.stack, 1));
    let ex = siege.exact().unwrap();
    close(ex.outcomes[0], p_fall(-1, 1));
    close(ex.counts[1].get(2), 1.0); // 2 hits, both flips
    close(ex.counts[2].get(0), 1.0);
    // "always" with no elites: 2 units eliminated.
    siege.stack = Stack {
        units: 3,
        elites: 0,
    };
    siege.assault = AssaultPolicy::Always;
    siege.rebuild_schema();
    let ex = siege.exact().unwrap();
    close(ex.counts[2].get(2), 1.0);
    // A stack that would be wiped out cannot assault.
    assert!(!Stack {
        units: 2,
        elites: 0
    }
    .survives_assault());
    assert!(Stack {
        units: 2,
        elites: 1
    }
    .survives_assault());
    // Hits per reroll: 2 hits for each roll while the stack survives.
    siege.hits_per_reroll = true;
    siege.stack = Stack {
        units: 6,
        elites: 0,
    };
    siege.rebuild_schema();
    let ex = siege.exact().unwrap();
    let p = single_roll(-1);
    close(ex.counts[2].get(2), p);
    close(ex.counts[2].get(4), 1.0 - p);
}

#[test]
fn pillage_pool_is_assumed_and_averages_slightly_below_two() {
    let m = pillage_markers();
    assert_eq!(m.pool.provenance, "assumed");
    assert!(m.marker.len() <= MARKER_CLASSES);
    assert!(m
        .marker
        .iter()
        .all(|c| (1..=3).contains(&c.gold) && c.count > 0 && !c.provenance.is_empty()));
    assert_eq!(
        m.marker
            .iter()
            .filter(|c| c.usurper)
            .map(|c| c.count)
            .sum::<u32>(),
        2
    );
    let mean = m.mean_gold();
    assert!(mean > 1.7 && mean < 2.0, "{mean}");
    for n in 1..=3 {
        let draws = m.draws(n);
        close(draws.iter().map(|d| d.0).sum(), 1.0);
        close(
            draws.iter().map(|d| d.0 * d.1 as f64).sum(),
            n as f64 * mean,
        );
    }
    // Expected loot of a level-2 Empire capital: 2 + 2·E[marker] + 10.
    let s = situation(Walls::Standard, Nation::Civilized, false);
    let mut siege = siege_of(s, 0, 1, 0, 1);
    siege.level = 2;
    siege.capital = Capital::Empire;
    siege.rebuild_schema();
    let ex = siege.exact().unwrap();
    close(ex.counts[3].mean(), ex.outcomes[0] * (12.0 + 2.0 * mean));
}

fn grid() -> Vec<Siege> {
    let walls = [
        Walls::None,
        Walls::Standard,
        Walls::Roma,
        Walls::Ctesiphon,
        Walls::Theodosian,
    ];
    let nations = [Nation::Barbarian, Nation::Nomad, Nation::Civilized];
    let mut out = Vec::new();
    for case in 0..24u32 {
        let s = Situation {
            walls: walls[(case % 5) as usize],
            nation: nations[(case % 3) as usize],
            decline: case % 3,
            fleet: case % 2 == 1,
            event: (case % 4) as i32 - 1,
        };
        let leader = if case % 7 == 6 { None } else { Some(case % 4) };
        let units = 1 + case % 6;
        let stack = Stack {
            units,
            elites: (case / 2) % (units + 1),
        };
        let mut siege = Siege::new(s, leader, stack, 1 + (case * 5) % 12, 1 + case % 3);
        siege.campaigns = case % 4 % 3;
        siege.assault = [
            AssaultPolicy::Auto,
            AssaultPolicy::Always,
            AssaultPolicy::Never,
        ][(case / 3 % 3) as usize];
        siege.sack = case % 5 != 4;
        siege.level = 1 + case % 3;
        siege.capital = if s.walls.fortified() {
            [Capital::None, Capital::Kingdom, Capital::Empire][(case % 3) as usize]
        } else {
            Capital::None
        };
        siege.arriving = case % 8 != 7;
        siege.besieger_in_decline = s.nation == Nation::Civilized && case % 2 == 0;
        siege.hits_per_reroll = case % 6 == 1;
        siege.maintained_rerolls = case % 9 == 2;
        siege.terror_each_arrival = case % 10 != 3;
        siege.rebuild_schema();
        out.push(siege);
    }
    out
}

#[test]
fn exact_and_monte_carlo_agree() {
    for (stream, siege) in grid().into_iter().enumerate() {
        assert_agrees(&siege, 40_000, 11, stream as u64, &stream.to_string());
    }
}

#[test]
fn bad_input_names_the_field() {
    assert_input_error(
        build,
        "ruleset = \"invasions\"\nbattle = \"siege\"\n[attacker]\nleader = 4",
        "attacker.leader",
    );
    assert_input_error(build, "[defender]\ncapital = \"empire\"", "defender.walls");
}
