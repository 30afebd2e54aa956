//! Tests of extra POB levies (digest §4.3, §4.18, §4.19 row L4362; `levy.rs`): the most by
//! culture and option A57, the steps of 5% a policy's share takes, the POB, PV and IDR by hand,
//! the rebellion floor, and who levies.

use super::economy;
use super::game_tests::{country, game_with, options_with, scripted_game};
use super::levy::{self, Rules};
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CountryId, POB};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

const DEFAULT: Rules = Rules {
    barbarian_max: 40,
    text_idr: true,
};

#[test]
fn the_most_is_25_30_and_40_or_50_percent_by_culture() {
    assert_eq!(levy::max_percent(&DEFAULT, Culture::Civilized), 25);
    assert_eq!(levy::max_percent(&DEFAULT, Culture::Mixed), 30);
    assert_eq!(levy::max_percent(&DEFAULT, Culture::Barbarian), 40);
    let g = scripted_game();
    assert_eq!(g.levy, DEFAULT);
    let fifty = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("barbarian_extra_levy = \"fifty\"\nextra_levy_idr = \"table\""),
    );
    assert_eq!(levy::max_percent(&fifty.levy, Culture::Barbarian), 50);
    assert!(!fifty.levy.text_idr);
    // A share of the most, in whole steps of 5%.
    assert_eq!(levy::steps(&DEFAULT, Culture::Civilized, 1.0), 5);
    assert_eq!(levy::steps(&DEFAULT, Culture::Civilized, 0.5), 2);
    assert_eq!(levy::steps(&DEFAULT, Culture::Mixed, 0.5), 3);
    assert_eq!(levy::steps(&DEFAULT, Culture::Barbarian, 0.1), 0);
    assert_eq!(levy::steps(&fifty.levy, Culture::Barbarian, 1.0), 10);
}

#[test]
fn each_step_takes_5_percent_and_pays_the_row_and_the_paragraphs_index() {
    // Civilized, 2,000 POB, the full +25%: 500 POB, 5 x (-3 PV, -150 IDR); no paragraph IDR.
    assert_eq!(
        levy::levy(&DEFAULT, Culture::Civilized, 2000, 5),
        (500, -15, -750)
    );
    // B/C, 2,000 POB, +30%: 600 POB, 6 x (-2, -100), and -1 per 10 POB: -60 more.
    assert_eq!(
        levy::levy(&DEFAULT, Culture::Mixed, 2000, 6),
        (600, -12, -660)
    );
    // Barbarian, 1,000 POB, +40%: 400 POB, 8 x (-1, -75), -1 per 20 POB: -20 more; the table
    // alone under option extra_levy_idr = "table".
    assert_eq!(
        levy::levy(&DEFAULT, Culture::Barbarian, 1000, 8),
        (400, -8, -620)
    );
    let table = Rules {
        text_idr: false,
        ..DEFAULT
    };
    assert_eq!(
        levy::levy(&table, Culture::Barbarian, 1000, 8),
        (400, -8, -600)
    );
    assert_eq!(pv::MASS_RECRUITMENT.pv(Culture::Civilized), -3);
}

#[test]
fn a_levying_policy_takes_the_pob_after_the_collection_within_its_rebellion_floor() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let levying = Scripted {
        extra_levy: 0.4, // 2 steps of the civilized 5
        tax_idr: 0,
        ..Scripted::defaults()
    };
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = levying;
    let mut st = g.start.clone();
    economy::collection(&g, &mut st, &plans, 12);
    let collected = st.nations[roma as usize].pob_collected;
    assert!(collected > 0);
    // The collection's POB and the levy's 10% of it are on hand; the rows are paid.
    let mut without = g.start.clone();
    let mut idle = plans.clone();
    idle[roma as usize].extra_levy = 0.0;
    economy::collection(&g, &mut without, &idle, 12);
    let n = &st.nations[roma as usize];
    let m = &without.nations[roma as usize];
    assert_eq!(n.stock[POB] - m.stock[POB], collected * 10 / 100);
    assert_eq!(n.pv - m.pv, -6);
    assert_eq!(n.pv_by[pv::LEVY], -6);
    assert_eq!(n.idr - m.idr, -300);
    assert_eq!(st.counts.levies, 1);
    // Nobody else levies (the referee's countries' share is 0).
    assert!((0..st.nations.len() as CountryId)
        .filter(|&c| c != roma)
        .all(|c| st.nations[c as usize].pv_by[pv::LEVY] == 0));
    // A floor the levy would cross: no levy.
    plans[roma as usize].tax_idr = m.idr - 299;
    let mut floored = g.start.clone();
    economy::collection(&g, &mut floored, &plans, 12);
    assert_eq!(floored.counts.levies, 0);
    assert_eq!(floored.nations[roma as usize].stock[POB], m.stock[POB]);
}
