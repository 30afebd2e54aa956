//! Tests of increasing a treasure (digest §4.19, L4376; `treasures.rs`): the row's PV and index by
//! hand under the three readings, the policy's lots, the DEN kept in the capital for its next
//! sacker, and who adds nothing.

use super::economy;
use super::game_tests::{country, game_with, options_with, scripted_game};
use super::policy::{Policy, Scripted};
use super::pv;
use super::sack;
use super::scenario::DEN;
use super::treasures::{self, Reading, LOT};
use super::Game;

fn game(reading: &str) -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with(&format!("treasure_pv = \"{reading}\"")),
    )
}

#[test]
fn the_row_scores_a_pv_a_lot_and_ten_index_points_per_100_den() {
    assert_eq!(scripted_game().treasure_pv, Reading::PerLot);
    assert_eq!(treasures::scored(Reading::PerLot, 3), (3, 150));
    assert_eq!(treasures::scored(Reading::WithinGiftCap, 2), (2, 100));
    // Per turn: one PV for the increase, the index for every 100 DEN of it.
    assert_eq!(treasures::scored(Reading::PerTurn, 1), (1, 50));
    assert_eq!(treasures::scored(Reading::PerLot, 0), (0, 0));
    assert_eq!(game("per-turn").treasure_pv, Reading::PerTurn);
    assert_eq!(game("within-gift-cap").treasure_pv, Reading::WithinGiftCap);
}

#[test]
fn a_policy_puts_whole_lots_of_its_spare_den_in_its_capital() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let capital = g.scenario.countries[roma as usize].cities.start;
    let p = Scripted {
        treasure_share: 1.0,
        ..Scripted::defaults()
    };
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = p;
    let mut st = g.start.clone();
    let keep = economy::den_to_keep(&g, &st, roma, &p);
    st.nations[roma as usize].stock[DEN] = keep + 3 * LOT + 499;
    let (pv0, idr0, spent0) = (
        st.nations[roma as usize].pv,
        st.nations[roma as usize].idr,
        st.ledger.spent[DEN],
    );
    treasures::phase(&g, &mut st, &plans);
    let n = &st.nations[roma as usize];
    assert_eq!(n.stock[DEN], keep + 499, "three whole lots");
    assert_eq!(st.treasure_added[capital as usize], 3 * LOT);
    assert_eq!((n.pv - pv0, n.pv_by[pv::TREASURE]), (3, 3));
    assert_eq!(n.idr - idr0, 150);
    assert_eq!(st.ledger.spent[DEN] - spent0, 3 * LOT);
    assert_eq!(st.counts.treasure_den, (3 * LOT) as f64);
    // Nobody else added anything: the referee's countries keep their DEN.
    assert_eq!(st.treasure_added.iter().sum::<i64>(), 3 * LOT);

    // Half the spare DEN: one lot of 500 from 1,999 spare.
    let mut half = g.start.clone();
    half.nations[roma as usize].stock[DEN] = keep + 3 * LOT + 499;
    let p_half = Scripted {
        treasure_share: 0.5,
        ..p
    };
    assert_eq!(treasures::lots(&g, &half, roma, &p_half), 1);
    // A nation that lost its home adds nothing.
    half.lands[roma as usize].owner = country(&g, "Etruria");
    assert_eq!(treasures::lots(&g, &half, roma, &p), 0);
}

#[test]
fn the_readings_limit_the_lots() {
    let roma_plan = Scripted {
        treasure_share: 1.0,
        ..Scripted::defaults()
    };
    for (reading, gifts_given, lots) in [
        ("per-500", 1800, 4),
        ("per-turn", 0, 1),
        ("within-gift-cap", 1000, 2),
        ("within-gift-cap", 1800, 0),
    ] {
        let g = game(reading);
        let roma = country(&g, "Roma");
        let mut st = g.start.clone();
        let keep = economy::den_to_keep(&g, &st, roma, &roma_plan);
        st.nations[roma as usize].stock[DEN] = keep + 4 * LOT;
        st.nations[roma as usize].gifts_this_period = gifts_given;
        assert_eq!(
            treasures::lots(&g, &st, roma, &roma_plan),
            lots,
            "{reading} after {gifts_given} DEN of gifts"
        );
    }
}

#[test]
fn the_next_sacker_takes_the_added_den_with_the_treasure() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let rome = g.scenario.countries[roma as usize].cities.start;
    let mut st = g.start.clone();
    let printed = g.treasure[rome as usize] as i64;
    assert_eq!(printed, 9000, "Roma's printed treasure");
    st.treasure_added[rome as usize] = 1500;
    assert_eq!(sack::city_loot(&g, &st, rome), (10_500, true));
    let cartago = country(&g, "Cartago");
    sack::sack_city(&g, &mut st, cartago, rome, 10_500, true);
    assert_eq!(st.treasure_added[rome as usize], 0);
    let twice_a_city = 2 * g.scenario.city_yield[DEN] as i64;
    assert_eq!(sack::city_loot(&g, &st, rome), (twice_a_city, false));
    // Added again after the sack: a treasure once more, without the printed one.
    st.treasure_added[rome as usize] = 500;
    assert_eq!(sack::city_loot(&g, &st, rome), (500, true));
    // A city with no printed treasure and nothing added yields twice a city's DEN.
    let other = g.scenario.countries[roma as usize].cities.start + 1;
    assert_eq!(g.treasure[other as usize], 0);
    assert_eq!(sack::city_loot(&g, &st, other), (twice_a_city, false));
}
