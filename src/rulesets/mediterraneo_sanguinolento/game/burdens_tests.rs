//! Tests of whose index taxes and extra levies move (`burdens.rs`, option `province_burdens`;
//! digest §4.16, §4.3, §4.19): the tax row and the levy's rows on a province by hand under
//! "each-land" and not under "home-only", the policy's tax level and levy kept by the lowest
//! index they reach (no revolt of its own making), and the invariants over whole games.

use super::economy;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::revolt;
use super::scenario::{CountryId, POB};
use super::state::State;
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// April and August of the second year: Etruria, taken in month 10, yields to Roma.
const APRIL: u32 = 16;
const AUGUST: u32 = 20;

fn home_only() -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("province_burdens = \"home-only\""),
    )
}

/// Roma (civilized) holds Etruria, conquered in month 10, whose rural index is set to `idr`
/// (its cities keep their 800).
pub(super) fn province(g: &Game, idr: i32) -> (State, CountryId, CountryId) {
    let roma = country(g, "Roma");
    let etr = country(g, "Etruria");
    let mut st = g.start.clone();
    st.nations[roma as usize].field = [30.0, 0.0, 0.0];
    military::conquer(g, &mut st, roma, etr, &Scripted::defaults(), 10, &mut NoLog);
    st.lands[etr as usize].sacked_until = 0;
    st.lands[etr as usize].idr = idr;
    super::city_revolt::rural_set(&mut st, etr);
    (st, roma, etr)
}

/// Plans where Roma taxes at `taxes` and levies `extra_levy` above the floor `tax_idr`, and
/// nobody gives gifts (so only the burdens move the indices).
fn plans(st: &State, roma: CountryId, taxes: i8, tax_idr: i32, extra_levy: f64) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); st.nations.len()];
    plans[roma as usize] = Scripted {
        taxes,
        tax_idr,
        extra_levy,
        gifts: 0.0,
        province_gift_idr: i32::MIN,
        ..Scripted::defaults()
    };
    plans
}

#[test]
fn a_tax_raise_moves_each_taxed_lands_index_and_scores_its_pv_once() {
    let g = scripted_game();
    assert_eq!(g.culture[country(&g, "Roma") as usize], Culture::Civilized);
    let (mut st, roma, etr) = province(&g, 700);
    assert_eq!(State::calendar(APRIL), 4);
    let home0 = st.nations[roma as usize].idr;
    let taxes0 = st.nations[roma as usize].pv_by[pv::TAXES_SOURCE];
    let plans = plans(&st, roma, 2, 0, 0.0);
    economy::collection(&g, &mut st, &plans, APRIL);
    // x2, civilized: -275 IDR on each land collected, -6 PV once (the table's C column).
    assert_eq!(st.nations[roma as usize].tax_level, 2);
    assert_eq!(revolt::index(&st, etr), 700 - 275);
    assert_eq!(st.nations[roma as usize].idr, home0 - 275);
    assert_eq!(
        st.nations[roma as usize].pv_by[pv::TAXES_SOURCE] - taxes0,
        -6
    );
    // A lowered tax (/2) pleases both: +275 each, +6 PV once.
    let (mut st, roma, etr) = province(&g, 700);
    let plans = self::plans(&st, roma, -2, 0, 0.0);
    economy::collection(&g, &mut st, &plans, APRIL);
    assert_eq!(revolt::index(&st, etr), 700 + 275);
    assert_eq!(st.nations[roma as usize].idr, home0 + 275);
    assert_eq!(
        st.nations[roma as usize].pv_by[pv::TAXES_SOURCE] - taxes0,
        6
    );
    // A province not yet collected (taken this month, L4032) is not taxed.
    let (mut st, roma, etr) = province(&g, 700);
    st.lands[etr as usize].taken_month = APRIL;
    let plans = self::plans(&st, roma, 2, 0, 0.0);
    economy::collection(&g, &mut st, &plans, APRIL);
    assert_eq!(revolt::index(&st, etr), 700);
    assert_eq!(st.nations[roma as usize].idr, home0 - 275);
    // "home-only": the home index alone, the same PV.
    let g = home_only();
    let (mut st, roma, etr) = province(&g, 700);
    let plans = self::plans(&st, roma, 2, 0, 0.0);
    economy::collection(&g, &mut st, &plans, APRIL);
    assert_eq!(revolt::index(&st, etr), 700);
    assert_eq!(st.nations[roma as usize].idr, home0 - 275);
    assert_eq!(
        st.nations[roma as usize].pv_by[pv::TAXES_SOURCE] - taxes0,
        -6
    );
}

#[test]
fn an_extra_levy_moves_each_levied_lands_index() {
    let g = scripted_game();
    let (mut st, roma, etr) = province(&g, 700);
    let home0 = st.nations[roma as usize].idr;
    let levy0 = st.nations[roma as usize].pv_by[pv::LEVY];
    // Civilized, 0.4 of the +25%: two 5% steps of -3 PV and -150 IDR (no paragraph IDR).
    let plans = plans(&st, roma, 0, 0, 0.4);
    economy::collection(&g, &mut st, &plans, AUGUST);
    assert!(st.lands[etr as usize].pob_yield > 0, "Etruria gave POB");
    assert_eq!(st.counts.levies, 1);
    assert_eq!(revolt::index(&st, etr), 700 - 2 * 150);
    assert_eq!(st.nations[roma as usize].idr, home0 - 2 * 150);
    assert_eq!(st.nations[roma as usize].pv_by[pv::LEVY] - levy0, -6);
    // The extra POB is 10% of all collected, as before.
    let collected = st.nations[roma as usize].pob_collected;
    assert_eq!(st.counts.levy_pob, (collected * 10 / 100) as f64);
    assert!(st.nations[roma as usize].stock[POB] >= collected + collected * 10 / 100);
    // The floor: Etruria at 400 would fall to 100, below a floor of 150: no levy at all.
    let (mut st, roma, etr) = province(&g, 400);
    let plans = self::plans(&st, roma, 0, 150, 0.4);
    economy::collection(&g, &mut st, &plans, AUGUST);
    assert_eq!(st.counts.levies, 0);
    assert_eq!(revolt::index(&st, etr), 400);
    assert_eq!(st.nations[roma as usize].idr, home0);
    // "home-only": the levy is made (the home stays above 150) and moves the home alone.
    let g = home_only();
    let (mut st, roma, etr) = province(&g, 400);
    let plans = self::plans(&st, roma, 0, 150, 0.4);
    economy::collection(&g, &mut st, &plans, AUGUST);
    assert_eq!(st.counts.levies, 1);
    assert_eq!(revolt::index(&st, etr), 400);
    assert_eq!(st.nations[roma as usize].idr, home0 - 2 * 150);
}

#[test]
fn the_paragraphs_idr_is_charged_on_each_lands_own_share() {
    // B/C: -1 IDR per 10 extra POB (L4100) on top of -100 a step, each land on its share.
    let rules = super::levy::Rules::new(&options_with(""));
    let (home, province) = (2000, 300);
    let (extra, _, idr_home) = super::levy::levy(&rules, Culture::Mixed, home, 6);
    assert_eq!((extra, idr_home), (600, -600 - 60));
    let (extra, _, idr_province) = super::levy::levy(&rules, Culture::Mixed, province, 6);
    assert_eq!((extra, idr_province), (90, -600 - 9));
}

#[test]
fn the_tax_level_keeps_the_lowest_taxed_index_at_the_floor_and_no_province_revolts() {
    let g = scripted_game();
    // Etruria at 400, floor 100: x2 (-275) leaves 125, x1.5 (-175) 225; the home at 1,000 could
    // bear x2. With the floor at 200 only x1.5 keeps it; at 300 none does: normal taxes.
    for (floor, level) in [(100, 2), (200, 1), (300, 0)] {
        let (mut st, roma, etr) = province(&g, 400);
        let plans = plans(&st, roma, 2, floor, 0.0);
        assert_eq!(
            economy::tax_level(
                &plans[roma as usize],
                st.nations[roma as usize].idr,
                Culture::Civilized
            ),
            2,
            "the home index alone would allow x2"
        );
        economy::collection(&g, &mut st, &plans, APRIL);
        assert_eq!(st.nations[roma as usize].tax_level, level, "floor {floor}");
        assert!(revolt::index(&st, etr) >= floor);
    }
    // A province at 200 with a floor of 0: taxing by the home index (x2, -275) would leave it at
    // -75 and it would revolt at the next count; the policy raises only x1.5 and it holds.
    let (mut st, roma, etr) = province(&g, 200);
    let plans = plans(&st, roma, 2, 0, 0.0);
    let blind = economy::tax_level(&plans[roma as usize], 1000, Culture::Civilized);
    assert!(200 + economy::tax_row(blind).unwrap().idr(Culture::Civilized) <= 0);
    economy::collection(&g, &mut st, &plans, APRIL);
    assert_eq!(st.nations[roma as usize].tax_level, 1, "x1.5 leaves 25");
    assert_eq!(revolt::index(&st, etr), 25);
    revolt::check(&g, &mut st, APRIL + 4, &mut Dice::from_seed(3), &mut NoLog);
    assert_eq!(st.counts.province_revolts, 0);
    assert_eq!(st.lands[etr as usize].owner, roma);
}

#[test]
fn whole_games_keep_the_invariants_under_both_readings() {
    for (text, policy, games) in [
        ("", Policy::Random, 30u64),
        ("", Policy::Scripted(Scripted::defaults()), 15),
        ("province_burdens = \"home-only\"", Policy::Random, 20),
    ] {
        let g = game_with(policy, &options_with(text));
        let mut levies = 0;
        play_checked(&g, 47, games, "burdens", |_, play, _| {
            levies += play.st.counts.levies;
        });
        if matches!(g.policies[0], Policy::Random) {
            assert!(levies > 0, "{text}: random players levy");
        }
    }
}

#[test]
fn bad_burden_options_are_refused() {
    super::game_tests::assert_bad_options(&[(
        "province_burdens = \"none\"",
        "province_burdens",
        "each-land",
    )]);
}
