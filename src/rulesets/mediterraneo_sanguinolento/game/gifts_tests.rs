//! Tests of gifts to the population (digest §4.19 L4218-L4228, the cap L4382-L4386;
//! `economy::gifts`): goods lots scored by their rows, chosen for the most PV, then rebellion
//! index, per DEN of sale value, and only where the policy gives goods.

use super::economy;
use super::game_tests::{country, scripted_game};
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, PIE};
use super::state::State;
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// Country `c` after the gifts of a collection, its plan the scripted defaults changed by `plan`,
/// with `stock` (resource, units) above what it keeps.
fn give(g: &Game, c: CountryId, plan: Scripted, stock: &[(usize, i64)]) -> State {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = plan;
    let mut st = g.start.clone();
    let n = &mut st.nations[c as usize];
    for r in [COM, DEN, PIE, MAD, CAB, CAM] {
        n.stock[r] = 0;
    }
    let keep_den = economy::den_to_keep(g, &st, c, &plan);
    let keep_com = economy::food_to_keep(g, &st, c, &plan, 8);
    for &(r, v) in stock {
        let base = match r {
            DEN => keep_den,
            COM => keep_com,
            _ => super::trade::kept(g, &st, c, &plan, r),
        };
        assert!(base < i64::MAX / 2, "resource {r} is not kept from gifts");
        st.nations[c as usize].stock[r] = base + v;
    }
    economy::gifts(g, &mut st, &plans, 8);
    st
}

#[test]
fn goods_rows_are_the_printed_ones() {
    assert_eq!(pv::GIFT_600_PIE.pv, [1, 1, 1]);
    assert_eq!(pv::GIFT_600_PIE.idr, [80, 100, 120]);
    assert_eq!(pv::GIFT_600_MAD, pv::GIFT_600_PIE);
    assert_eq!(pv::GIFT_800_CAB.idr, [50, 80, 100]);
    assert_eq!(pv::GIFT_600_CAM, pv::GIFT_800_CAB);
}

#[test]
fn a_civilized_major_short_of_food_and_money_gives_stone_and_wood() {
    let g = scripted_game();
    let atenas = country(&g, "Atenas");
    assert_eq!(g.culture[atenas as usize], Culture::Civilized);
    // 1,000 DEN spare: one lot of 600 (2 PV, 60 IDR) before any goods (1 PV a 600 DEN worth);
    // then 1,400 of cap left: two lots of 600 stone or wood, stone first (same row, listed first).
    let st = give(
        &g,
        atenas,
        Scripted::defaults(),
        &[(DEN, 1000), (PIE, 5000), (MAD, 5000)],
    );
    let n = &st.nations[atenas as usize];
    assert_eq!(n.gifts_this_period, 600 + 2 * 600);
    assert_eq!(n.pv_by[pv::GIFTS], 2 + 2);
    let start = &g.start.nations[atenas as usize];
    assert_eq!(n.idr - start.idr, 60 + 2 * 120);
    let kept_pie = super::trade::kept(&g, &st, atenas, &Scripted::defaults(), PIE);
    assert_eq!(n.stock[PIE], kept_pie + 5000 - 1200);
    // Without gift_goods: the DEN lot only.
    let plan = Scripted {
        gift_goods: 0.0,
        ..Scripted::defaults()
    };
    let st = give(&g, atenas, plan, &[(DEN, 1000), (PIE, 5000), (MAD, 5000)]);
    assert_eq!(st.nations[atenas as usize].gifts_this_period, 600);
    assert_eq!(st.nations[atenas as usize].pv_by[pv::GIFTS], 2);
}

#[test]
fn a_barbarian_gives_goods_before_money_for_their_index() {
    let g = scripted_game();
    let celtiberia = country(&g, "Celtiberia");
    assert_eq!(g.culture[celtiberia as usize], Culture::Barbarian);
    // B: 600 DEN and 600 PIE are 1 PV each, the stone +80 IDR against +40: the stone goes first,
    // three lots fill 1,800 of the 2,000 cap and the DEN stay.
    let st = give(
        &g,
        celtiberia,
        Scripted::defaults(),
        &[(DEN, 5000), (PIE, 5000)],
    );
    let n = &st.nations[celtiberia as usize];
    assert_eq!(n.gifts_this_period, 3 * 600);
    assert_eq!(n.pv_by[pv::GIFTS], 3);
    let keep_den = economy::den_to_keep(&g, &st, celtiberia, &Scripted::defaults());
    assert_eq!(n.stock[DEN], keep_den + 5000, "the money is kept");
    // COM still comes first (2 PV a 300): 6 lots fill 1,800.
    let st = give(
        &g,
        celtiberia,
        Scripted::defaults(),
        &[(COM, 5000), (PIE, 5000)],
    );
    assert_eq!(st.nations[celtiberia as usize].pv_by[pv::GIFTS], 12);
}
