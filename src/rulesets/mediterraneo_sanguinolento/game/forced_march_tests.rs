//! Tests of forced marches (rules §43, L5401-L5563; `forced_march.rs`): the table and its
//! modifiers by hand, the outcomes' probabilities against draws, the army that arrives a month
//! sooner, the fatigue carried into the battle code, no forced march unfed, by sea or when the
//! policy declines, and the invariants over whole games that force march.

use super::battles::{self, Side};
use super::forced_march::{self, modifier, outcome, Conditions, Offer, Outcome, Rules, TABLE};
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::leaders::Lead;
use super::military;
use super::policy::{Policy, Scripted};
use super::scenario::CountryId;
use super::state::{Mission, State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;

const A49: Rules = Rules {
    die_from_zero: false,
    a_bonus_stacks: false,
};

fn pm(gained: u32) -> Outcome {
    Outcome { gained, fatigue: 0 }
}

fn f(gained: u32) -> Outcome {
    Outcome {
        gained,
        fatigue: gained,
    }
}

#[test]
fn the_table_by_hand() {
    // Printed rows (L5405-L5530): roll 3 is 1F / 2F / 1 / 2F; roll 7 is 1 / 2F / 3F / 4F.
    assert_eq!(
        [1, 2, 3, 4].map(|ask| outcome(ask, 3, 0)),
        [f(1), f(2), pm(1), f(2)]
    );
    assert_eq!(
        [1, 2, 3, 4].map(|ask| outcome(ask, 7, 0)),
        [pm(1), f(2), f(3), f(4)]
    );
    assert_eq!(outcome(3, 1, 0), f(1));
    assert_eq!(outcome(4, 5, 0), f(3));
    assert_eq!(outcome(4, 8, 0), pm(4));
    // Clamped to 0-10 (A49): 1 - 3 reads row 0, 10 + 2 reads row 10.
    assert_eq!(outcome(4, 1, -3), pm(0));
    assert_eq!(outcome(2, 10, 2), pm(2));
    assert_eq!(outcome(1, 4, 5), TABLE[9][0]);
    // Never more than asked, and F's number is what was gained.
    for (row, entries) in TABLE.iter().enumerate() {
        for (i, e) in entries.iter().enumerate() {
            assert!(e.gained <= i as u32 + 1, "row {row} ask {}", i + 1);
            assert!(e.fatigue == 0 || e.fatigue == e.gained, "row {row}");
        }
    }
}

#[test]
fn the_modifiers_by_hand() {
    let none = Conditions::default();
    assert_eq!(modifier(&none, A49), 0);
    // An all-A army is also all A-B: A49 gives +2, not +3; the other reading stacks them.
    let a = Conditions {
        morale_a_b_only: true,
        morale_a_only: true,
        ..none
    };
    assert_eq!(modifier(&a, A49), 2);
    let stacking = Rules {
        a_bonus_stacks: true,
        ..A49
    };
    assert_eq!(modifier(&a, stacking), 3);
    let ab = Conditions {
        morale_a_b_only: true,
        winter: true,
        ..none
    };
    assert_eq!(modifier(&ab, A49), 0);
    let tired = Conditions {
        militia: true,
        forced_before: true,
        fatigued_before: true,
        winter: true,
        ..none
    };
    assert_eq!(modifier(&tired, A49), -4);
    let roman = Conditions {
        roman_iml_only: true,
        italian_iml_only: true,
        ..none
    };
    assert_eq!(modifier(&roman, A49), 2);
    let italian = Conditions {
        italian_iml_only: true,
        forced_before: true,
        ..none
    };
    assert_eq!(modifier(&italian, A49), 0);
}

/// P(each outcome) for `ask` at `modifier` over the die's ten faces.
fn exact(ask: u32, modifier: i32, rules: Rules) -> Vec<(Outcome, f64)> {
    let mut out: Vec<(Outcome, f64)> = Vec::new();
    for face in 1..=10 {
        let o = outcome(ask, face - rules.die_from_zero as i32, modifier);
        match out.iter_mut().find(|(x, _)| *x == o) {
            Some((_, p)) => *p += 0.1,
            None => out.push((o, 0.1)),
        }
    }
    out
}

#[test]
fn each_outcomes_frequency_matches_the_die_within_5_se() {
    let n = 100_000u32;
    let zero = Rules {
        die_from_zero: true,
        ..A49
    };
    for (ask, m, rules) in [(2, 0, A49), (4, -1, A49), (3, 2, zero), (1, 0, zero)] {
        let mut dice = Dice::from_seed(7 + ask as u64);
        let draws: Vec<Outcome> = (0..n)
            .map(|_| outcome(ask, forced_march::roll(rules, &mut dice), m))
            .collect();
        let table = exact(ask, m, rules);
        let total: f64 = table.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9);
        for (o, p) in table {
            let freq = draws.iter().filter(|&&d| d == o).count() as f64 / n as f64;
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (freq - p).abs() <= 5.0 * se,
                "ask {ask} modifier {m}: {o:?} drawn {freq}, exact {p}"
            );
        }
        // Nothing drawn that the die cannot give.
        let possible = exact(ask, m, rules);
        assert!(draws.iter().all(|d| possible.iter().any(|(o, _)| o == d)));
    }
}

fn marcher() -> Scripted {
    Scripted {
        forced_march: 4,
        forced_march_battle: 1.0,
        ..Scripted::defaults()
    }
}

fn plans_with(g: &Game, c: CountryId, p: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = p;
    plans
}

/// Roma's infantry (10 PM) marching on Etruria (3 hexes of hills: 12 PM), Etruria's field army
/// away (nobody intercepts or waits).
fn roma_marches(g: &Game) -> (State, CountryId, CountryId) {
    let (roma, etruria) = (country(g, "Roma"), country(g, "Etruria"));
    let mut st = g.start.clone();
    let mut units = NO_UNITS;
    units[0] = 10.0;
    st.nations[roma as usize].field = units;
    st.nations[roma as usize].mission = Mission::March { target: etruria };
    st.nations[etruria as usize].field = NO_UNITS;
    assert_eq!(st.roads.cost(g, roma, etruria), 12);
    (st, roma, etruria)
}

#[test]
fn a_forced_march_reaches_the_target_a_month_sooner() {
    // Fed from the home stock (option army_supply): a convoy would hold the army to 8 PM.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("army_supply = \"home-stock\""),
    );
    let months_to_arrive = |p: Scripted, seed: u64| {
        let (mut st, roma, etruria) = roma_marches(&g);
        let plans = plans_with(&g, roma, p);
        let mut dice = Dice::from_seed(seed);
        let mut months = 0;
        while st.nations[roma as usize].at != etruria && months < 12 {
            months += 1;
            // A summer month: no winter doubling.
            military::month(&g, &mut st, &plans, 5, &mut dice, &mut NoLog);
        }
        (months, st.counts.forced_marches)
    };
    let (mut sooner, mut forced) = (0, 0);
    for seed in 0..100 {
        let resting = Scripted {
            forced_march: 0,
            ..marcher()
        };
        let (without, none) = months_to_arrive(resting, seed);
        assert_eq!(none, 0);
        let (with, rolls) = months_to_arrive(marcher(), seed);
        assert!(with <= without, "seed {seed}: {with} > {without}");
        sooner += (with < without) as u32;
        forced += rolls;
    }
    // Infantry asks +2 (the 2 PM it lacks): 2 PM gained on 6 faces of 10 at modifier 0 or +1.
    assert!(forced >= 100, "{forced} rolls");
    assert!(
        (30..=90).contains(&sooner),
        "{sooner} of 100 a month sooner"
    );
}

#[test]
fn the_ask_is_the_armys_limit_and_what_the_last_leg_lacks() {
    let g = scripted_game();
    let (mut st, roma, etruria) = roma_marches(&g);
    assert_eq!(forced_march::army_limit(&g, &st, roma), 2);
    let cavalry =
        (0..g.nkinds[roma as usize] as usize).find(|&k| g.kinds[roma as usize][k].movement == 15);
    if let Some(k) = cavalry {
        let mut units = NO_UNITS;
        units[k] = 5.0;
        st.nations[roma as usize].field = units;
        assert_eq!(forced_march::army_limit(&g, &st, roma), 4);
    }
    // On the last leg the ask is what the army lacks: 1 PM short, it asks 1 and gains at most 1.
    let plans = plans_with(&g, roma, marcher());
    let mut offer = Offer::new(&g, &st, &plans, roma, etruria, false);
    let mut nat = st.nations[roma as usize].clone();
    nat.progress = 11;
    let mut counts = st.counts;
    let mut dice = Dice::from_seed(3);
    assert!(offer.force(&mut nat, &mut counts, true, 1, &mut dice));
    assert!(nat.progress <= 12);
    assert!(nat.march.forced);
    assert_eq!(counts.forced_marches, 1);
    // Once a month.
    assert!(!offer.force(&mut nat, &mut counts, true, 1, &mut dice));
}

#[test]
fn no_forced_march_unfed_by_sea_home_or_by_a_policy_that_declines() {
    let g = scripted_game();
    let (st, roma, etruria) = roma_marches(&g);
    let tries = |st: &State, p: Scripted, to: CountryId| {
        let plans = plans_with(&g, roma, p);
        let mut offer = Offer::new(&g, st, &plans, roma, to, false);
        let mut nat = st.nations[roma as usize].clone();
        let mut counts = st.counts;
        let rolled = offer.force(&mut nat, &mut counts, true, 2, &mut Dice::from_seed(1));
        assert!(rolled || (nat.progress == 0 && !nat.march.forced));
        rolled
    };
    assert!(tries(&st, marcher(), etruria));
    let mut unfed = st.clone();
    unfed.nations[roma as usize].unsupplied = 0.25;
    assert!(!tries(&unfed, marcher(), etruria), "unsupplied");
    let mut sailing = st.clone();
    sailing.nations[roma as usize].by_sea = true;
    assert!(!tries(&sailing, marcher(), etruria), "ships");
    assert!(!tries(&st, marcher(), roma), "returning home");
    let never = Scripted {
        forced_march: 0,
        ..marcher()
    };
    assert!(!tries(&st, never, etruria), "forced_march 0");
    // A field army waiting at the target: the last leg is forced only with forced_march_battle.
    let mut waiting = st.clone();
    let mut units = NO_UNITS;
    units[0] = 3.0;
    waiting.nations[etruria as usize].field = units;
    let shy = Scripted {
        forced_march_battle: 0.0,
        ..marcher()
    };
    assert!(!tries(&waiting, shy, etruria), "battle at the target");
    assert!(tries(&waiting, marcher(), etruria));
    // By sea the month's movement never steps: whole months of a crossing count no roll (the
    // invariants test below plays landings).
}

#[test]
fn fatigue_reaches_the_battle_code_and_costs_the_battle() {
    let g = scripted_game();
    let (mut st, roma, etruria) = roma_marches(&g);
    st.nations[roma as usize].march.fatigue = 3;
    let side = military::side(&g, &st, roma, 5);
    assert_eq!(side.fatigue, 3);
    assert_eq!(battles::army(&g, &side, true).fatigue, 3);
    // The next month it has rested (and remembers last month's strain).
    st.nations[roma as usize].march.forced = true;
    forced_march::new_month(&mut st);
    let strain = st.nations[roma as usize].march;
    assert_eq!(strain.fatigue, 0);
    assert!(strain.forced_before && strain.fatigued_before && !strain.forced);
    assert_eq!(military::side(&g, &st, roma, 5).fatigue, 0);
    // The battle code's odds of the same fight fall when the attacker is fatigued.
    let mut units = NO_UNITS;
    units[0] = 6.0;
    let defender = Side::new(etruria, units, Lead::UNNAMED);
    let odds = |fatigue| {
        let attacker = Side {
            mix: super::special::NO_MIX,
            fatigue,
            ..military::side(&g, &st, roma, 5)
        };
        let mut dice = Dice::from_seed(11);
        battles::odds(
            &g,
            etruria,
            None,
            false,
            [attacker, defender],
            4000,
            &mut dice,
        )
    };
    let (rested, tired) = (odds(0), odds(2));
    assert!(
        tired < rested - 0.05,
        "P(win) rested {rested}, fatigued 2: {tired}"
    );
}

#[test]
fn whole_games_force_march_and_the_invariants_hold() {
    for (policy, games) in [
        (Policy::Scripted(Scripted::defaults()), 100u64),
        (Policy::Random, 200),
    ] {
        let g = game_with(policy, &options());
        let (mut rolls, mut fatigued) = (0, 0);
        play_checked(
            &g,
            31,
            games,
            &format!("forced marches {policy:?}"),
            |_, play, _| {
                rolls += play.st.counts.forced_marches;
                fatigued += play.st.counts.fatigued_marches;
            },
        );
        assert!(rolls > 0 && fatigued > 0, "{policy:?}: {rolls} {fatigued}");
    }
    // The other readings of A49 play too.
    let o = options_with("forced_march_die = \"zero-to-nine\"\nforced_march_a_bonus = \"three\"");
    let g = game_with(Policy::Scripted(Scripted::defaults()), &o);
    assert!(g.forced_march.die_from_zero && g.forced_march.a_bonus_stacks);
    play_checked(&g, 32, 20, "A49 readings", |_, _, _| {});
}

#[test]
fn bad_option_values_name_the_field_and_the_choices() {
    super::game_tests::assert_bad_options(&[
        (
            "forced_march_die = \"d12\"",
            "forced_march_die",
            "zero-to-nine",
        ),
        ("forced_march_a_bonus = 3", "forced_march_a_bonus", "three"),
        (
            "mount_breeding_units = \"camels\"",
            "mount_breeding_units",
            "all-mounted",
        ),
    ]);
}
