//! The naval battle's tests: the digest's worked example, hand-computed small battles, the options,
//! and exact against Monte Carlo over a grid of battle files.

use super::*;
use crate::dice::mix64;
use crate::rulesets::invasions::test_support::{
    assert_agrees, assert_input_error, exact, model, near,
};

fn exact_of(text: &str) -> Exact {
    exact(text, build)
}

fn outcomes(ex: &Exact) -> [f64; 3] {
    [ex.outcomes[0], ex.outcomes[1], ex.outcomes[2]]
}

#[test]
fn t18_five_carried_units_on_two_fleets_one_sunk_lose_two() {
    assert_eq!(carried_lost(5, 1), 2);
    assert_eq!(carried_lost(5, 2), 0);
    assert_eq!(carried_lost(5, 0), 5);
    let mut a = Side::new(2);
    a.elite = 0;
    let naval = Naval::new(
        [a, Side::new(2)],
        5,
        System::Basic,
        true,
        Rules::default(),
        Policy::default(),
    );
    let end = End {
        refused: None,
        stacks: [Stack { tough: 0, other: 1 }, Stack { tough: 0, other: 1 }],
        hits: [1, 1],
    };
    let r = naval.result(&end);
    assert_eq!(r.carried_lost, 2);
    assert_eq!(r.sunk, [1, 1]);
    // Two fleets each: the small-battle rule recovers one, so nothing is lost for good.
    assert_eq!(naval.recovery, 1);
    assert_eq!(r.lost, [0, 0]);
    assert_eq!(r.winner, 2);
}

#[test]
fn one_fleet_each_without_rerolls() {
    // Each die hits with 1/3 (white sword only at sea): A wins 2/9, D 2/9, tie 5/9.
    let ex = exact_of("[attacker]\nfleets = 1\n[defender]\nfleets = 1\n");
    let o = outcomes(&ex);
    assert!(near(o[0], 2.0 / 9.0) && near(o[1], 2.0 / 9.0) && near(o[2], 5.0 / 9.0));
    // A single fleet on a side: no recovery, a sunk fleet is lost.
    assert!(near(ex.counts[0].get(1), 1.0 / 3.0));
}

#[test]
fn one_reroll_follows_the_greedy_protocol() {
    // The attacker rerolls the enemy's hit (gain 2/3) before its own blank (gain 1/3):
    // P(A) = 1/9·2/3 + 2/9 + 4/9·1/3 = 4/9, P(D) = 2/9·1/3 = 2/27.
    let ex = exact_of("[attacker]\nfleets = 1\nleader = 1\n[defender]\nfleets = 1\n");
    let o = outcomes(&ex);
    assert!(near(o[0], 4.0 / 9.0), "{o:?}");
    assert!(near(o[1], 2.0 / 27.0), "{o:?}");
    // Full coastal control in the Mediterranean gives the same single die two rerolls more;
    // outside it gives nothing.
    let med =
        exact_of("[attacker]\nfleets = 1\nfull_coastal_control = true\n[defender]\nfleets = 1\n");
    let other = exact_of("sea = \"other\"\n[attacker]\nfleets = 1\nfull_coastal_control = true\n[defender]\nfleets = 1\n");
    assert!(med.outcomes[0] > o[0]);
    assert!(near(other.outcomes[0], 2.0 / 9.0));
    let never = exact_of("[policy]\nrerolls = \"never\"\n[attacker]\nfleets = 1\nleader = 3\n[defender]\nfleets = 1\n");
    assert!(near(never.outcomes[0], 2.0 / 9.0));
}

#[test]
fn elite_fleet_flips_on_the_first_hit_and_red_swords_option() {
    // Red swords at sea: each die 0/1/2 hits with 1/2, 1/3, 1/6. An elite attacker fleet sinks
    // only on 2 hits. A wins 1/2·5/6 = 5/12; D wins 1/6 + 1/3·1/2 = 1/3; tie 1/4.
    let text = "[options]\nnaval_red_swords = true\n[attacker]\nfleets = 1\nelite = 1\nleader = 0\n[defender]\nfleets = 1\n";
    let ex = exact_of(text);
    let o = outcomes(&ex);
    assert!(
        near(o[0], 5.0 / 12.0) && near(o[1], 1.0 / 3.0) && near(o[2], 0.25),
        "{o:?}"
    );
    // The attacker's leader (bonus 0) dies exactly when the fleet sinks: P = 1/6.
    assert!(near(ex.scalars[0], 1.0 / 6.0));
    assert!(near(ex.scalars[1], 0.0)); // no defender leader
                                       // Rome/Byzantium-only reading: a non-Roman elite fleet is standard.
    let m = model(
        "[options]\nnaval_elite_fleets = \"rome-byzantium\"\n[attacker]\nfleets = 1\nelite = 1\n[defender]\nfleets = 1\n",
        build,
    )
    .unwrap();
    assert!(m.describe()[0].contains("counted as standard"));
    let roman = Naval::new(
        [
            Side {
                elite: 1,
                rome_byzantium: true,
                ..Side::new(2)
            },
            Side {
                elite: 2,
                kind: Kind::Barbarian,
                ..Side::new(2)
            },
        ],
        0,
        System::Basic,
        true,
        Rules {
            elite_any_civilized: false,
            ..Rules::default()
        },
        Policy::default(),
    );
    assert_eq!(roman.tough, [1, 0]);
    assert_eq!(roman.capacity(), [3, 2]);
}

#[test]
fn stack_takes_flips_first() {
    let mut s = Stack { tough: 1, other: 1 };
    assert_eq!(s.take(2), 2);
    assert_eq!(s, Stack { tough: 0, other: 1 });
    let mut s = Stack { tough: 2, other: 0 };
    assert_eq!(s.take(5), 4);
    assert_eq!(s.alive(), 0);
}

#[test]
fn advanced_table_columns_with_halves_dropped() {
    let one = Die::two_d6(1);
    assert!(near(one.p[1], 21.0 / 36.0) && near(one.p[0], 15.0 / 36.0));
    let two = Die::two_d6(2);
    assert!(near(two.p[0], 10.0 / 36.0));
    assert!(near(two.p[1], 25.0 / 36.0));
    assert!(near(two.p[2], 1.0 / 36.0));
    // 1 fleet each, no rerolls, two rounds: A wins when it hits and is missed, in round 1 or
    // (both missed) in round 2.
    let (h, m) = (7.0 / 12.0, 5.0 / 12.0);
    let ex = exact_of("system = \"advanced\"\n[attacker]\nfleets = 1\n[defender]\nfleets = 1\n");
    assert!(near(ex.outcomes[0], h * m + m * m * h * m));
    assert!(near(ex.outcomes[2], h * h + m * m * (h * h + m * m)));
    let one_round = exact_of("system = \"advanced\"\nadvanced_rounds = 1\n[attacker]\nfleets = 1\n[defender]\nfleets = 1\n");
    assert!(near(one_round.outcomes[0], h * m));
}

#[test]
fn recovery_follows_the_small_battle_rule_at_sea() {
    let two = exact_of("[attacker]\nfleets = 2\n[defender]\nfleets = 2\nleader = 0\n");
    // Both defender fleets sunk (2 attacker hits): one comes back, the leader is dead.
    let p_two_hits = 1.0 / 9.0;
    assert!(near(two.counts[3].get(2), p_two_hits));
    assert!(near(two.counts[1].get(1), p_two_hits));
    assert!(near(two.counts[1].get(2), 0.0));
    assert!(near(two.scalars[1], p_two_hits));
    let off = exact_of("[options]\nnaval_small_battle_recovery = false\n[attacker]\nfleets = 2\n[defender]\nfleets = 1\n");
    assert!(near(off.counts[1].get(0), 1.0));
    let small = exact_of("[attacker]\nfleets = 2\n[defender]\nfleets = 1\n");
    assert!(near(small.counts[1].get(1), 1.0 - (2.0f64 / 3.0).powi(2)));
}

#[test]
fn refusal_counts_as_a_loss() {
    let ex = exact_of(
        "[policy]\nrefuse = \"defender\"\n[attacker]\nfleets = 1\n[defender]\nfleets = 2\n",
    );
    assert!(near(ex.outcomes[0], 1.0));
    assert!(near(ex.scalars[2], 1.0));
    let ex = exact_of("[policy]\nrefuse = \"attacker\"\n[attacker]\nfleets = 2\ncarried = 6\n[defender]\nfleets = 1\n");
    assert!(near(ex.outcomes[1], 1.0));
    assert!(near(ex.scalars[2], 0.0));
    assert!(near(ex.counts[4].get(0), 1.0));
}

/// A grid case from an index.
fn grid_case(i: u64) -> String {
    let r = |k: u64, n: u64| mix64(i * 31 + k) % n;
    let mut text = String::new();
    let system = if r(1, 3) == 0 { "advanced" } else { "basic" };
    text += &format!("system = \"{system}\"\n");
    if system == "advanced" && r(2, 3) == 0 {
        text += "advanced_rounds = 1\n";
    }
    text += &format!(
        "sea = \"{}\"\n",
        if r(3, 4) == 0 {
            "other"
        } else {
            "mediterranean"
        }
    );
    text += "[options]\n";
    text += &format!("naval_red_swords = {}\n", r(4, 2) == 0);
    text += &format!(
        "naval_elite_fleets = \"{}\"\n",
        ["any-civilized", "rome-byzantium"][r(5, 2) as usize]
    );
    text += &format!("naval_small_battle_recovery = {}\n", r(6, 4) != 0);
    if r(7, 8) == 0 {
        text += &format!(
            "[policy]\nrerolls = \"{}\"\nreroll_threshold = {}\n",
            ["greedy", "never"][r(8, 2) as usize],
            [0.0, 0.2, 0.5][r(9, 3) as usize]
        );
    }
    let coastal = r(10, 3);
    for (s, side) in SIDES.iter().enumerate() {
        let k = 20 + 10 * s as u64;
        let fleets = 1 + r(k, 2);
        text += &format!("[{side}]\nfleets = {fleets}\n");
        text += &format!("elite = {}\n", r(k + 1, fleets + 1));
        let kind = KINDS[r(k + 2, 3) as usize];
        text += &format!("kind = \"{kind}\"\n");
        if kind != "barbarian" && r(k + 3, 2) == 0 {
            text += "rome_byzantium = true\n";
        }
        if r(k + 4, 3) != 0 {
            text += &format!("leader = {}\n", r(k + 5, 4));
        }
        if coastal == s as u64 + 1 {
            text += "full_coastal_control = true\n";
        }
        if s == 0 {
            text += &format!("carried = {}\n", r(k + 6, 3 * fleets + 1));
        }
    }
    text
}

#[test]
fn exact_and_monte_carlo_agree_on_a_grid() {
    for i in 0..120u64 {
        let text = grid_case(i);
        let m = model(&text, build).unwrap();
        assert_agrees(&*m, 20_000, 18, i, &format!("{i}:\n{text}"));
    }
}

#[test]
fn bad_input_names_the_field() {
    let both = "\n[defender]\nfleets = 1\n";
    let cases = [
        (
            "[attacker]\nfleets = 3".to_string() + both,
            "attacker.fleets",
        ),
        (
            "[attacker]\nfleets = 1\ncarried = 4".to_string() + both,
            "attacker.carried",
        ),
        ("[attacker]\nfleets = 1\n".to_string(), "defender.fleets"),
        (
            "[policy]\nreroll_threshold = -1\n[attacker]\nfleets = 1".to_string() + both,
            "policy.reroll_threshold",
        ),
    ];
    for (text, field) in cases {
        assert_input_error(build, &text, field);
    }
}
