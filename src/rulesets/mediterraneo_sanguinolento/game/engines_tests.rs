//! Tests of siege engines (digest §4.7, §3.3-§3.4, A23; `engines.rs`): the price by level, the
//! level a policy builds (walls, treasury, wood, option siege_engine_time), when it counts, and
//! the walls it takes off the assault through the assault code.

use super::battles::{self, Side, Walls};
use super::engines;
use super::game_tests::{country, game_with, options_with, scripted_game};
use super::leaders::Lead;
use super::policy::{Policy, Scripted};
use super::scenario::{DEN, MAD};
use super::state::NO_UNITS;
use crate::dice::Dice;

fn besieger(level: u8, siege_months: u8) -> Scripted {
    Scripted {
        engine_level: level,
        siege_months,
        reserve: 0,
        ..Scripted::defaults()
    }
}

#[test]
fn a_policy_builds_the_largest_engine_the_walls_its_treasury_and_its_wood_allow() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    let s = &mut st.nations[roma as usize].stock;
    (s[DEN], s[MAD]) = (100_000, 100_000);
    // Walls 3: a level-5 policy builds 3; walls 7: 5; none without walls or at level 0.
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 0), 3), 3);
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 0), 7), 5);
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 0), 0), 0);
    assert_eq!(engines::planned(&g, &st, roma, &besieger(0, 0), 7), 0);
    // Wood for 2 levels only (100 MAD each).
    st.nations[roma as usize].stock[MAD] = 250;
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 0), 7), 2);
    // Paid at the siege's start: 2 x (100 MAD + 150 DEN).
    let den = st.nations[roma as usize].stock[DEN];
    engines::start(&g, &mut st, roma, &besieger(5, 0), 7);
    assert_eq!(st.nations[roma as usize].engine, 2);
    assert_eq!(st.nations[roma as usize].stock[MAD], 50);
    assert_eq!(den - st.nations[roma as usize].stock[DEN], 300);
    assert_eq!(st.counts.siege_engines, 1);
    // A23's reading: it counts from the siege's start.
    assert_eq!(engines::ready(&g, &st, roma, 0), 2);
    assert_eq!(engines::effect(&g, 2), 2);
}

#[test]
fn built_on_site_it_is_ready_after_its_level_in_months_and_one_reads_it_as_one_level() {
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("siege_engine_time = \"level-months\"\nsiege_engine = \"one\""),
    );
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    let s = &mut st.nations[roma as usize].stock;
    (s[DEN], s[MAD]) = (100_000, 100_000);
    // Ready by the assault: no more levels than the policy's months of siege.
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 2), 7), 2);
    assert_eq!(engines::planned(&g, &st, roma, &besieger(5, 0), 7), 0);
    engines::start(&g, &mut st, roma, &besieger(5, 2), 7);
    assert_eq!(engines::ready(&g, &st, roma, 1), 0);
    assert_eq!(engines::ready(&g, &st, roma, 2), 2);
    assert_eq!(engines::effect(&g, 2), 1);
}

#[test]
fn an_engine_takes_its_levels_off_the_walls_of_the_assault_code() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let side = |c, n: f64| {
        let mut u = NO_UNITS;
        u[0] = n;
        Side::new(c, u, Lead::UNNAMED)
    };
    let sides = [side(roma, 20.0), side(cartago, 5.0)];
    let armies = [
        battles::army(&g, &sides[0], true),
        battles::army(&g, &sides[1], false),
    ];
    let walls = |engine| Walls {
        fort: 4,
        months: 0,
        engine,
    };
    let bare = walls(0).level(&g, &armies);
    assert_eq!(walls(3).level(&g, &armies), bare - 3);
    assert_eq!(walls(9).level(&g, &armies), 0);
    // The assault code's odds rise with the engine, on the same dice.
    let odds = |w: Walls| {
        battles::odds(
            &g,
            cartago,
            Some(w),
            false,
            sides,
            400,
            &mut Dice::from_seed(7),
        )
    };
    assert!(
        odds(walls(3)) > odds(walls(0)),
        "{} {}",
        odds(walls(3)),
        odds(walls(0))
    );
}
