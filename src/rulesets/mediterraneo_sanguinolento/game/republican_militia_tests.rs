//! Rome's Republican militia (L5245-L5257): its numbers from the rulebook file, where it
//! appears, its weight in a fight through the battle code, its losses and recovery by hand, the
//! options' readings, and whole games with the invariants.

use super::battles::{self, Side, Walls};
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::leaders::Lead;
use super::policy::{Policy, Scripted};
use super::republican_militia::{self as rm, RULE};
use super::scenario::CountryId;
use super::state::NO_UNITS;
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;

fn side(c: CountryId, units: f64, republican: f64) -> Side {
    let mut u = NO_UNITS;
    u[0] = units;
    Side {
        republican,
        ..Side::new(c, u, Lead::UNNAMED)
    }
}

fn walls(fort: u32) -> Walls {
    Walls {
        fort,
        months: 0,
        engine: 0,
    }
}

fn number(g: &Game, key: &str) -> f64 {
    g.scenario.special.number(RULE, key).unwrap()
}

fn no_invasion() -> [bool; 256] {
    [false; 256]
}

#[test]
fn the_body_is_romas_im_rc_at_the_rulebook_files_strength() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert_eq!(g.republican.nation, Some(roma));
    assert_eq!(g.republican.units, number(&g, "militia_units"));
    assert_eq!(
        g.republican.recovered_per_month,
        number(&g, "militia_men_recovered_per_month")
    );
    // IM-RC: medium infantry, regular, morale C (index 2), 200 men a unit.
    let k = g.republican.kind;
    assert_eq!((k.code, k.regular, k.morale, k.men), ("IM", true, 2, 200.0));
    assert_eq!(g.start.republican.units, g.republican.units);
    assert!(!g.start.republican.out);
    assert_eq!(g.republican.full_men(), g.republican.units * 200.0);
}

#[test]
fn it_appears_only_at_romas_held_home_and_not_when_weak() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let mut st = g.start.clone();
    let full = g.republican.units;
    assert_eq!(rm::at(&g, &st, roma, false), full);
    assert_eq!(rm::at(&g, &st, roma, true), full);
    assert_eq!(rm::at(&g, &st, cartago, false), 0.0);
    // Cartago's defenders at home get nothing; Roma's do, and the body is out.
    let mut defender = side(cartago, 5.0, 0.0);
    rm::join(&g, &mut st, cartago, false, &mut defender);
    assert_eq!(defender.republican, 0.0);
    assert!(!st.republican.out);
    let mut defender = side(roma, 5.0, 0.0);
    rm::join(&g, &mut st, roma, true, &mut defender);
    assert_eq!(defender.republican, full);
    assert!(st.republican.out);
    assert_eq!(st.counts.republican_militia_fights, 1);
    // Below one unit it is too weak to appear.
    st.republican.units = 0.75;
    assert_eq!(rm::at(&g, &st, roma, false), 0.0);
    st.republican.units = 1.0;
    assert_eq!(rm::at(&g, &st, roma, false), 1.0);
    // Not at a home Roma has lost.
    st.lands[roma as usize].owner = cartago;
    assert_eq!(rm::at(&g, &st, roma, false), 0.0);
    // Option republican_militia_fights = "field": in the field only.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("republican_militia_fights = \"field\""),
    );
    let st = g.start.clone();
    assert_eq!(rm::at(&g, &st, roma, false), full);
    assert_eq!(rm::at(&g, &st, roma, true), 0.0);
}

#[test]
fn it_lowers_the_invaders_odds_through_the_battle_code() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let full = g.republican.units;
    let odds = |assault: Option<Walls>, defenders: f64, republican: f64| {
        let sides = [side(cartago, 20.0, 0.0), side(roma, defenders, republican)];
        battles::odds(
            &g,
            roma,
            assault,
            false,
            sides,
            600,
            &mut Dice::from_seed(11),
        )
    };
    for (assault, defenders) in [(None, 8.0), (Some(walls(1)), 4.0)] {
        let (without, with) = (
            odds(assault, defenders, 0.0),
            odds(assault, defenders, full),
        );
        assert!(
            with < without - 0.05,
            "{assault:?}: the invader's P(win) {without} without, {with} with the body"
        );
    }
    // Alone behind walls it is no walkover for 20 units.
    assert!(odds(Some(walls(1)), 0.0, full) < 0.95);
    // Its losses are read back, within its units, on its own side only.
    let mut dice = Dice::from_seed(2);
    let sides = [side(cartago, 20.0, 0.0), side(roma, 4.0, full)];
    let mut some = false;
    for _ in 0..20 {
        let f = battles::assault(&g, walls(1), false, Weather::Clear, sides, &mut dice);
        assert!((0.0..=full).contains(&f.republican_lost[1]));
        assert_eq!(f.republican_lost[0], 0.0);
        some |= f.republican_lost[1] > 0.0;
    }
    assert!(some, "the body loses men in some assault");
}

#[test]
fn losses_are_recovered_at_fifty_men_a_month_after_it_disbands_up_to_full() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    let per_month = g.republican.recovered_per_month;
    let full_men = g.republican.full_men();
    // A fight kills 1.1 units: 220 men (men_lost).
    rm::lose(&g, &mut st, 1.1);
    let lost = 1.1 * 200.0;
    assert!((st.ledger.men_lost - lost).abs() < 1e-9);
    assert!((st.counts.republican_militia_men_lost - lost).abs() < 1e-9);
    let men = |st: &super::state::State| st.republican.units * 200.0;
    // Mobilized while its home is invaded: no recovery.
    let mut invaded = no_invasion();
    invaded[roma as usize] = true;
    rm::month_end(&g, &mut st, &invaded);
    assert!(st.republican.out);
    assert!((men(&st) - (full_men - lost)).abs() < 1e-9);
    // The invasion over, it disbands that month, still short.
    rm::month_end(&g, &mut st, &no_invasion());
    assert!(!st.republican.out);
    assert_eq!(st.counts.republican_militia_disbands, 1);
    assert!((men(&st) - (full_men - lost)).abs() < 1e-9);
    // Then 50 men a month (men_raised): 220 short takes 4 months of 50 and one of 20.
    let raised = st.ledger.men_raised;
    for month in 1..=6 {
        rm::month_end(&g, &mut st, &no_invasion());
        let back = (per_month * month as f64).min(lost);
        assert!(
            (men(&st) - (full_men - lost + back)).abs() < 1e-9,
            "month {month}"
        );
        assert!((st.ledger.men_raised - raised - back).abs() < 1e-9);
    }
    assert!((st.republican.units - g.republican.units).abs() < 1e-9);
    assert!((st.counts.republican_militia_men_recovered - lost).abs() < 1e-9);
    assert_eq!(rm::recovery(&g.republican, g.republican.units), 0.0);
    // Lost with its home: every man lost, and no recovery while the home is another's.
    let before = st.ledger.men_lost;
    rm::home_lost(&g, &mut st, roma);
    assert_eq!(st.republican.units, 0.0);
    assert!((st.ledger.men_lost - before - full_men).abs() < 1e-9);
    st.lands[roma as usize].owner = country(&g, "Cartago");
    rm::month_end(&g, &mut st, &no_invasion());
    assert_eq!(st.republican.units, 0.0);
    // Option republican_militia_recovery = "every-month": it recovers while mobilized too.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("republican_militia_recovery = \"every-month\""),
    );
    let mut st = g.start.clone();
    rm::lose(&g, &mut st, 1.0);
    rm::month_end(&g, &mut st, &invaded);
    assert!(st.republican.out);
    assert!((men(&st) - (full_men - 200.0 + per_month)).abs() < 1e-9);
}

#[test]
fn it_fights_in_whole_games_and_the_invariants_hold() {
    for (policy, games) in [
        (Policy::Scripted(Scripted::defaults()), 100u64),
        (Policy::Random, 200),
    ] {
        let g = game_with(policy, &options());
        let (mut fights, mut lost, mut recovered) = (0, 0.0, 0.0);
        play_checked(
            &g,
            29,
            games,
            &format!("republican militia {policy:?}"),
            |_, play, _| {
                fights += play.st.counts.republican_militia_fights;
                lost += play.st.counts.republican_militia_men_lost;
                recovered += play.st.counts.republican_militia_men_recovered;
                let units = play.st.republican.units;
                assert!((0.0..=g.republican.units).contains(&units), "{units}");
            },
        );
        assert!(
            fights > 0 && lost > 0.0 && recovered > 0.0,
            "{policy:?}: {fights} {lost} {recovered}"
        );
    }
}
