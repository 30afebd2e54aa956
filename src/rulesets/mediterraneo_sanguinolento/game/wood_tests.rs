//! Tests of the January wood upkeep (L751, `wood.rs`): 1/5 of a work's and a wall level's wood by
//! hand, owed only once finished; unpaid constructions collapse (the cheapest kept first, a wall
//! level bringing down the ones above it); the black market's purchase and the kept stock keep
//! them standing; option off; whole games keep the invariants.

use super::economy;
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, DEN, MAD, PIE};
use super::state::State;
use super::trade;
use super::wood;
use super::works::{self, Work};
use super::Game;
use crate::game::NoLog;

fn stock(st: &mut State, c: CountryId, den: i64, pie: i64, mad: i64) {
    let s = &mut st.nations[c as usize].stock;
    (s[DEN], s[PIE], s[MAD]) = (den, pie, mad);
}

/// `c` starts `w` from `pie` stone and plenty of wood, and finishes it.
fn build(g: &Game, st: &mut State, c: CountryId, w: Work, pie: i64) {
    stock(st, c, 100_000, pie, 100_000);
    let before = wood::due(g, st, c as usize);
    works::start(st, c, w);
    assert_eq!(
        wood::due(g, st, c as usize),
        before,
        "{w:?} under way owes nothing"
    );
    let b = [false; 256];
    for _ in 0..w.price().months {
        works::month(g, st, &b);
    }
    assert_eq!(st.works[c as usize].built(w), 1);
}

/// `c` raises its capital's walls one level from `pie` stone and plenty of wood.
fn wall(g: &Game, st: &mut State, c: CountryId, pie: i64) -> u8 {
    let capital = g.capital[c as usize].unwrap() as usize;
    let next = st.city_fort[capital] + 1;
    stock(st, c, 100_000, pie, 100_000);
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    // A buyer of wood at the black market: no limit from its own wood's yield.
    plans[c as usize].fortify = next;
    plans[c as usize].market_buy = 1.0;
    economy::constructions(g, st, &plans);
    assert_eq!(st.nations[c as usize].work.0, next);
    economy::finish_wall(g, st, c, next);
    assert_eq!(st.city_fort[capital], next);
    next
}

#[test]
fn a_fifth_of_a_works_and_a_walls_wood_rounded_up_by_hand() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let capital = g.capital[roma as usize].unwrap() as usize;
    let mut st = g.start.clone();
    // Walls at the start paid no wood: nothing owed.
    assert_eq!(st.city_fort[capital], 1);
    assert_eq!(wood::owed(&g, &st, roma), 0);
    // Reforestation: 500 MAD, 1/5 = 100.
    build(&g, &mut st, roma, Work::Reforestation, 0);
    assert_eq!(wood::due(&g, &st, roma as usize), 100);
    // Crop intensification, 500 PIE y/o MAD from 213 stone: 287 wood, 1/5 = 57.4, rounded up 58.
    build(&g, &mut st, roma, Work::CropIntensification, 213);
    assert_eq!(wood::due(&g, &st, roma as usize), 100 + 58);
    // Level 2 of the walls: 200 stone and/or wood from 50 stone: 150 wood, 1/5 = 30.
    assert_eq!(wall(&g, &mut st, roma, 50), 2);
    assert_eq!(wood::due(&g, &st, roma as usize), 100 + 58 + 30);
    // A work paid in stone alone owes nothing.
    build(&g, &mut st, roma, Work::FishingFactory, 500);
    assert_eq!(wood::owed(&g, &st, roma), 188);
    // Paid in January: the wood leaves the game, everything stands.
    stock(&mut st, roma, 0, 0, 1000);
    let before = st.ledger.spent[MAD];
    wood::january(&g, &mut st, [13, 14], &mut NoLog);
    assert_eq!(st.nations[roma as usize].stock[MAD], 1000 - 188);
    assert_eq!(st.ledger.spent[MAD] - before, 188);
    assert_eq!(st.counts.wood_upkeep_paid, 188.0);
    assert_eq!(st.counts.constructions_collapsed, 0);
    // Not in a turn without January.
    wood::january(&g, &mut st, [3, 4], &mut NoLog);
    assert_eq!(st.nations[roma as usize].stock[MAD], 1000 - 188);
}

#[test]
fn unpaid_constructions_collapse_the_cheapest_kept_first() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let capital = g.capital[roma as usize].unwrap() as usize;
    let mut st = g.start.clone();
    build(&g, &mut st, roma, Work::Reforestation, 0); // owes 100
    build(&g, &mut st, roma, Work::CropIntensification, 200); // 300 wood: owes 60
    wall(&g, &mut st, roma, 50); // level 2, 150 wood: owes 30
    let reforested = works::output(&g, roma as usize, &st.works[roma as usize])[MAD];
    assert!(reforested > 0);
    // 95 wood: the wall (30) and the crops (60) are kept, the reforestation (100) collapses.
    stock(&mut st, roma, 0, 0, 95);
    wood::january(&g, &mut st, [1, 2], &mut NoLog);
    let w = &st.works[roma as usize];
    assert_eq!(w.built(Work::Reforestation), 0);
    assert_eq!(w.built(Work::CropIntensification), 1);
    assert_eq!(w.wood.works[Work::Reforestation.index()], 0);
    assert_eq!(
        works::output(&g, roma as usize, w)[MAD],
        0,
        "its yield is gone"
    );
    assert_eq!(st.city_fort[capital], 2);
    assert_eq!(st.nations[roma as usize].stock[MAD], 5);
    assert_eq!(st.counts.constructions_collapsed, 1);
    // Nothing next year: the crops and the wall fall too, the wall back to its starting level.
    stock(&mut st, roma, 0, 0, 0);
    wood::january(&g, &mut st, [13, 14], &mut NoLog);
    assert_eq!(st.works[roma as usize].built(Work::CropIntensification), 0);
    assert_eq!(st.city_fort[capital], 1);
    assert_eq!(st.counts.constructions_collapsed, 3);
    assert_eq!(wood::owed(&g, &st, roma), 0);
}

#[test]
fn a_wall_level_not_restored_brings_down_the_levels_above_it() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let capital = g.capital[roma as usize].unwrap() as usize;
    let mut st = g.start.clone();
    // Level 2 all wood (200: owes 40), level 3 from 250 stone (50 wood: owes 10).
    wall(&g, &mut st, roma, 0);
    wall(&g, &mut st, roma, 250);
    assert_eq!(wood::due(&g, &st, roma as usize), 50);
    // 30 wood would pay level 3 alone, but it stands on level 2: both fall, nothing is paid.
    stock(&mut st, roma, 0, 0, 30);
    wood::january(&g, &mut st, [1, 2], &mut NoLog);
    assert_eq!(st.city_fort[capital], 1);
    assert_eq!(st.nations[roma as usize].stock[MAD], 30);
    assert_eq!(st.counts.constructions_collapsed, 2);
}

#[test]
fn the_land_holder_pays_and_a_conqueror_owes_what_it_took() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let other = g.majors.iter().copied().find(|&c| c != roma).unwrap();
    let mut st = g.start.clone();
    build(&g, &mut st, roma, Work::Reforestation, 0);
    st.lands[roma as usize].owner = other;
    assert_eq!(wood::owed(&g, &st, roma), 0);
    assert_eq!(wood::owed(&g, &st, other), 100);
    stock(&mut st, other, 0, 0, 100);
    stock(&mut st, roma, 0, 0, 500);
    wood::january(&g, &mut st, [1, 2], &mut NoLog);
    assert_eq!(st.nations[other as usize].stock[MAD], 0);
    assert_eq!(st.nations[roma as usize].stock[MAD], 500);
    assert_eq!(st.works[roma as usize].built(Work::Reforestation), 1);
}

/// A major whose unit kinds cost no wood (else the market never takes its wood).
fn woodless_major(g: &Game) -> CountryId {
    g.majors
        .iter()
        .copied()
        .find(|&c| {
            g.kinds[c as usize][..g.nkinds[c as usize] as usize]
                .iter()
                .all(|k| k.cost[MAD] == 0)
                && g.capital[c as usize].is_some()
        })
        .expect("a major without wooden units")
}

#[test]
fn the_market_keeps_and_buys_the_wood_owed() {
    for (text, kept) in [("", true), ("wood_upkeep = \"off\"", false)] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let c = woodless_major(&g);
        let capital = g.capital[c as usize].unwrap() as usize;
        let mut st = g.start.clone();
        build(&g, &mut st, c, Work::Reforestation, 0);
        let quiet = Scripted {
            caravans: 0,
            merchant_fleets: 0,
            works_share: 0.0,
            convoys: 0,
            fortify: st.city_fort[capital],
            ..Scripted::defaults()
        };
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        // Selling everything it may: the wood owed stays.
        plans[c as usize] = Scripted {
            market_sell: 1.0,
            market_buy: 0.0,
            ..quiet
        };
        stock(&mut st, c, 0, 0, 100);
        trade::phase(&g, &mut st, &plans);
        let left = st.nations[c as usize].stock[MAD];
        assert_eq!(left == 100, kept, "{text}: {left} wood left");
        // Buying: the wood owed is bought when it lacks, and the reforestation stands.
        plans[c as usize] = Scripted {
            market_sell: 0.0,
            market_buy: 1.0,
            reserve: 0,
            ..quiet
        };
        stock(&mut st, c, 100_000, 0, 0);
        trade::phase(&g, &mut st, &plans);
        let bought = st.nations[c as usize].stock[MAD];
        assert_eq!(bought >= 100, kept, "{text}: {bought} wood bought");
        wood::january(&g, &mut st, [1, 2], &mut NoLog);
        assert_eq!(st.works[c as usize].built(Work::Reforestation), 1, "{text}");
        assert_eq!(st.counts.constructions_collapsed, 0, "{text}");
        assert_eq!(wood::owed(&g, &st, c), if kept { 100 } else { 0 });
    }
}

#[test]
fn option_off_owes_nothing_and_nothing_collapses() {
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("wood_upkeep = \"off\""),
    );
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    build(&g, &mut st, roma, Work::Reforestation, 0);
    stock(&mut st, roma, 0, 0, 0);
    wood::january(&g, &mut st, [1, 2], &mut NoLog);
    assert_eq!(st.works[roma as usize].built(Work::Reforestation), 1);
    assert_eq!(st.counts.constructions_collapsed, 0);
}

#[test]
fn games_pay_the_upkeep_and_keep_the_invariants() {
    for text in ["", "wood_upkeep = \"off\""] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let mut paid = 0.0;
        play_checked(&g, 5, 60, text, |i, play, _| {
            paid += play.st.counts.wood_upkeep_paid;
            if i % 10 != 0 {
                return;
            }
            // What the policies are told is owed is what the January takes when it is all paid.
            let mut st = play.st.clone();
            for l in 0..st.lands.len() {
                let holder = st.lands[l].owner;
                st.nations[holder as usize].stock[MAD] = 1_000_000;
                let due = wood::due(&g, &st, l);
                wood::restore(&g, &mut st, l, &mut NoLog);
                let left = st.nations[holder as usize].stock[MAD];
                assert_eq!(1_000_000 - left, due, "{text} game {i} land {l}");
            }
        });
        assert_eq!(paid > 0.0, text.is_empty(), "{text}: {paid} wood paid");
    }
    let g = game_with(Policy::Random, &options());
    play_checked(&g, 6, 200, "random", |_, _, _| {});
}

#[test]
fn a_country_that_cannot_keep_wooden_walls_does_not_build_them_with_wood() {
    let g = scripted_game();
    // A referee country with a capital and no wood of its own: no wall level from wood alone.
    let c = (0..g.scenario.countries.len() as CountryId)
        .find(|&c| {
            g.capital[c as usize].is_some()
                && g.scenario.production[c as usize][MAD] == 0
                && !g.majors.contains(&c)
        })
        .expect("a woodless referee country");
    let capital = g.capital[c as usize].unwrap() as usize;
    for (text, built) in [("", false), ("wood_upkeep = \"off\"", true)] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let mut st = g.start.clone();
        stock(&mut st, c, 100_000, 0, 1000);
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[c as usize].fortify = st.city_fort[capital] + 1;
        economy::constructions(&g, &mut st, &plans);
        assert_eq!(st.nations[c as usize].work.0 > 0, built, "{text}");
        // With stone it builds, and owes nothing.
        stock(&mut st, c, 100_000, 1000, 1000);
        st.nations[c as usize].work = (0, 0);
        economy::constructions(&g, &mut st, &plans);
        assert!(st.nations[c as usize].work.0 > 0, "{text}");
        assert_eq!(st.nations[c as usize].stock[MAD], 1000, "{text}");
    }
}
