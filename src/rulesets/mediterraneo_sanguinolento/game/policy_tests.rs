//! Tests that the scripted player does not blunder (issue 22: a policy that loses by blundering is
//! a bug): it keeps its people fed while it campaigns, it holds what it conquers, it sets its
//! taxes by its rebellion index, and its conquests pay on balance.

use super::economy;
use super::game_tests::{country, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CAB, COM, DEN, MAD, POB};
use super::state::{Mission, State, NO_UNITS};
use super::supply;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

#[test]
fn taxes_are_raised_only_as_far_as_the_rebellion_index_allows() {
    let p = Scripted {
        taxes: 2,
        tax_idr: 600,
        ..Scripted::defaults()
    };
    // Civilized rows (§4.19): raising ×2 costs 275 IDR, ×1.5 costs 175.
    assert_eq!(economy::tax_level(&p, 1000, Culture::Civilized), 2);
    assert_eq!(economy::tax_level(&p, 875, Culture::Civilized), 2);
    assert_eq!(economy::tax_level(&p, 874, Culture::Civilized), 1);
    assert_eq!(economy::tax_level(&p, 775, Culture::Civilized), 1);
    assert_eq!(economy::tax_level(&p, 774, Culture::Civilized), 0);
    // Barbarian rows: ×2 costs 150.
    assert_eq!(economy::tax_level(&p, 750, Culture::Barbarian), 2);
    // Lowering taxes is never held back.
    let low = Scripted { taxes: -2, ..p };
    assert_eq!(economy::tax_level(&low, 0, Culture::Civilized), -2);

    // Through April's collection: the raise doubles the DEN produced and costs its PV and IDR.
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = Scripted { gifts: 0.0, ..p };
    let den = g.scenario.production[roma as usize][DEN] as i64;
    for (idr, level, pv) in [(1000, 2, -6), (800, 1, -3), (700, 0, 0)] {
        let mut st = g.start.clone();
        // Every zone at `idr`: its rural one and its cities (`city_revolt.rs`).
        st.nations[roma as usize].idr = idr;
        super::city_revolt::rural_set(&mut st, roma);
        for city in g.scenario.countries[roma as usize].cities.clone() {
            st.city_idr[city as usize] = idr;
        }
        st.nations[roma as usize].stock[DEN] = 0;
        economy::collection(&g, &mut st, &plans, 4);
        let n = &st.nations[roma as usize];
        assert_eq!(n.tax_level, level, "IDR {idr}");
        assert_eq!(n.stock[DEN], [den, den * 3 / 2, den * 2][level as usize]);
        assert_eq!(n.pv_by[pv::TAXES_SOURCE], pv);
        assert_eq!(n.idr, idr - [0, 175, 275][level as usize], "IDR {idr}");
    }
}

#[test]
fn a_conquered_country_gets_the_garrison_the_policy_asks_for() {
    let g = scripted_game();
    let (cartago, bizacena) = (country(&g, "Cartago"), country(&g, "Bizacena"));
    let mut st = g.start.clone();
    let army = st.nations[cartago as usize].field;
    let men_before: f64 = (0..st.nations.len())
        .map(|c| State::men(&st.all_units(c as u8), &g.men_per_unit(c as u8)))
        .sum();
    // Bizacena's own army is gone; Cartago takes it leaving 40% of its field army there.
    let lost = State::men(&st.all_units(bizacena), &g.men_per_unit(bizacena));
    st.ledger.men_lost += lost;
    st.nations[bizacena as usize].field = NO_UNITS;
    st.nations[bizacena as usize].garrison = NO_UNITS;
    st.nations[bizacena as usize].training = NO_UNITS;
    let plan = Scripted {
        occupation: 0.4,
        ..Scripted::defaults()
    };
    military::conquer(&g, &mut st, cartago, bizacena, &plan, 5, &mut NoLog);
    let held = *military::garrison(&st, bizacena);
    for k in 0..army.len() {
        assert!((held[k] - 0.4 * army[k]).abs() < 1e-9, "kind {k}");
        let field = st.nations[cartago as usize].field[k];
        assert!((field - 0.6 * army[k]).abs() < 1e-9, "kind {k}");
    }
    // The occupation troops are Cartago's, counted once, and paid like the rest.
    let men_after: f64 = (0..st.nations.len())
        .map(|c| State::men(&st.all_units(c as u8), &g.men_per_unit(c as u8)))
        .sum();
    assert!((men_before - lost - men_after).abs() < 1e-6);
    let all = st.all_units(cartago);
    for k in 0..army.len() {
        let home = st.nations[cartago as usize].garrison[k];
        assert!((all[k] - army[k] - home).abs() < 1e-9);
    }
    // Losing the province ends the occupation troops there.
    let egipto = country(&g, "Egipto");
    let plan = Scripted {
        occupation: 0.0,
        ..Scripted::defaults()
    };
    military::conquer(&g, &mut st, egipto, bizacena, &plan, 7, &mut NoLog);
    assert_eq!(*military::garrison(&st, bizacena), NO_UNITS);
    let gone = State::men(&held, &g.men_per_unit(cartago));
    assert!((st.ledger.men_lost - lost - gone).abs() < 1e-6);
}

#[test]
fn a_campaign_between_collection_and_feeding_never_starves_the_population() {
    let g = scripted_game();
    let c = country(&g, "Esparta");
    let p = Scripted::defaults();
    assert_eq!(
        [4, 8, 12].map(economy::campaign_months_to_feeding),
        [2, 4, 0]
    );
    for (cal, month) in [(8u32, 8u32), (4, 4)] {
        let mut st = g.start.clone();
        // Everything it holds marches abroad right after the collection, keeping only its stock.
        let n = &mut st.nations[c as usize];
        for k in 0..n.field.len() {
            n.field[k] += n.garrison[k] + n.training[k];
            n.garrison[k] = 0.0;
            n.training[k] = 0.0;
        }
        let keep = economy::food_to_keep(&g, &st, c, &p, cal);
        let n = &mut st.nations[c as usize];
        n.stock[COM] = keep;
        // It loads its food (and buys its convoy) at home, then campaigns abroad.
        let plans = vec![p; g.scenario.countries.len()];
        // What a convoy costs (50 POB, 50 DEN, 100 CAB, 200 MAD), whatever the stock holds.
        for (r, v) in [(POB, 50), (DEN, 50), (CAB, 100), (MAD, 200)] {
            n.stock[r] = n.stock[r].max(v);
        }
        n.mission = Mission::March {
            target: country(&g, "Atenas"),
        };
        supply::month(&g, &mut st, &plans, false);
        assert_eq!(st.nations[c as usize].supply.convoys, 1);
        st.nations[c as usize].at = country(&g, "Atenas");
        for _ in 0..economy::campaign_months_to_feeding(cal) {
            supply::month(&g, &mut st, &plans, false);
            assert_eq!(st.nations[c as usize].unsupplied, 0.0, "fed abroad");
        }
        let next = month + economy::campaign_months_to_feeding(cal) as u32 + 1;
        economy::payments(&g, &mut st, [next, next + 1]);
        assert_eq!(
            st.nations[c as usize].unfed_pob, 0,
            "collection in month {cal}"
        );
    }
}

/// Scripted games: a major that keeps its home and is never invaded never leaves its people
/// unfed, and the conquests of a major that conquers pay on balance (the old ungarrisoned
/// conquests changed hands back and forth, each loss costing more than the gain). Without
/// random events: with them, game 66 of these seeds leaves 80 of Esparta's POB unfed at peace in
/// July of year 4, and the cause is the events, not the economy's bookkeeping (traced turn by
/// turn): its April collection yielded 16 of its 80 COM (a famine, x0.5, and a bad harvest,
/// x0.4, on the same collection), July's feeding needed 22, and at `food_stock` 1 the policy had
/// kept exactly January's feeding after December's collection (1 COM left). The test below
/// replays that arithmetic.
#[test]
fn scripted_majors_neither_starve_at_peace_nor_lose_what_they_conquer() {
    let g = super::game_tests::game_with(
        Policy::Scripted(Scripted::defaults()),
        &super::game_tests::options_with("random_events = \"off\""),
    );
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let games = 120;
    let mut conquest_pv = vec![0i64; g.majors.len()];
    let mut conquests = vec![0u64; g.majors.len()];
    for i in 0..games {
        r.clear();
        play.play(
            &mut Dice::for_trial(5, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        for (p, &m) in g.majors.iter().enumerate() {
            let n = &play.st.nations[m as usize];
            if play.st.lands[m as usize].owner == m && n.pv_by[pv::INVASION] == 0 {
                assert_eq!(n.unfed_pob, 0, "game {i}: {}", g.players[p]);
            }
            conquest_pv[p] += n.pv_by[pv::CONQUEST] as i64;
            conquests[p] += n.conquests as u64;
        }
    }
    for p in 0..g.majors.len() {
        if conquests[p] >= games {
            assert!(
                conquest_pv[p] > 0,
                "{}: {} conquests, {} conquest PV",
                g.players[p],
                conquests[p],
                conquest_pv[p]
            );
        }
    }
}

/// The famine of game 66 above, by hand: a country that keeps exactly one feeding after
/// December's collection (`food_stock` 1) and gives the rest away has nothing left after
/// January, so an April collection cut to a fifth by events (famine x0.5, bad harvest x0.4)
/// leaves July's population short; keeping two feedings (`food_stock` 2) covers it. Without the
/// events the April collection alone feeds July.
#[test]
fn a_collection_cut_by_famine_and_bad_harvest_starves_only_a_policy_without_a_food_reserve() {
    let g = scripted_game();
    let esparta = country(&g, "Esparta");
    let e = esparta as usize;
    let unfed_in_july = |food_stock: f64, april_com: f64| {
        let p = Scripted {
            food_stock,
            ..Scripted::defaults()
        };
        let plans = vec![p; g.scenario.countries.len()];
        let mut st = g.start.clone();
        economy::collection(&g, &mut st, &plans, 12);
        // What the policy keeps after December's collection; the rest went as gifts.
        st.nations[e].stock[COM] = economy::food_to_keep(&g, &st, esparta, &p, 12);
        economy::payments(&g, &mut st, [13, 14]);
        st.lands[e].pending.mult[COM] = april_com;
        economy::collection(&g, &mut st, &plans, 16);
        let stock = st.nations[e].stock[COM];
        // July's feeding: 1 COM per 20 POB of April's collection (half-yearly, rules §51).
        let need = st.nations[e].pob_collected / 20;
        economy::payments(&g, &mut st, [19, 20]);
        (st.nations[e].unfed_pob, stock, need)
    };
    let base = g.scenario.production[e][COM] as i64;
    let (unfed, stock, need) = unfed_in_july(1.0, 0.5 * 0.4);
    assert!(base * 2 / 10 < need && need <= base, "the case of game 66");
    assert!(stock < need, "April left {stock} COM for a need of {need}");
    assert_eq!(unfed, (need - stock) * 20);
    assert_eq!(unfed_in_july(2.0, 0.5 * 0.4).0, 0);
    assert_eq!(unfed_in_july(1.0, 1.0).0, 0);
}

#[test]
fn t13_t14_special_populations_pay_their_cost_class() {
    let g = scripted_game();
    let (roma, esparta) = (country(&g, "Roma"), country(&g, "Esparta"));
    // T13: 10 units from Roma city's POB: 2 morale A at B cost (600), 8 morale B at C cost (300).
    let (morale, den) = economy::special_recruits(&g, roma, true, 10, true).unwrap();
    assert_eq!(morale, [2, 8, 0, 0]);
    assert_eq!(den, 2 * 600 + 8 * 300);
    assert_eq!(den, 3600);
    // T14: 10 units from Sparta's POB outside the city: 2 A at B cost, 5 B at C, 3 C at D (200).
    let (morale, den) = economy::special_recruits(&g, esparta, false, 10, true).unwrap();
    assert_eq!(morale, [2, 5, 3, 0]);
    assert_eq!(den, 3300);
    // The city of Esparta: all morale A at D cost.
    let (morale, den) = economy::special_recruits(&g, esparta, true, 4, true).unwrap();
    assert_eq!(morale, [4, 0, 0, 0]);
    assert_eq!(den, 4 * 200);
    // Shares round by largest remainders and always add up to the units raised.
    for n in 0..=23 {
        let (m, _) = economy::special_recruits(&g, esparta, false, n, true).unwrap();
        assert_eq!(m.iter().sum::<u32>(), n);
    }
    assert!(economy::special_recruits(&g, country(&g, "Cartago"), true, 10, true).is_none());
}

/// Issue 22's desertions (about 3,100 men a game under the scripted defaults, mostly in July at
/// home): the May-June purchase spent the April collection down to the DEN reserve, and July's
/// wages, with no collection in between, came out of a reserve smaller than the army's pay. A
/// policy never buys troops (or builds) so that the next payment is short (L4070: unpaid troops
/// desert): every country, majors and referee's, buying from a rich collection then paying
/// July's wages loses nobody. The same purchase made down to the bare reserve (the old policy)
/// leaves July short, so the setup does exercise the blunder.
#[test]
fn purchases_leave_the_next_wages_in_the_treasury() {
    let g = scripted_game();
    let mut st = g.start.clone();
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    for &m in &g.majors {
        plans[m as usize] = Scripted::defaults();
    }
    for n in st.nations.iter_mut() {
        n.stock = [1_000_000; super::state::R];
        n.stock[POB] = 20_000;
        n.stock[DEN] = 20_000;
    }

    // The old purchase: every kind bought down to the bare reserve.
    let mut old = st.clone();
    let roma = country(&g, "Roma");
    let p = &plans[roma as usize];
    for k in 0..g.nkinds[roma as usize] as usize {
        let n = economy::affordable(&g, &old, roma, k, 20_000, p.reserve);
        economy::buy(&g, &mut old, roma, k, n);
    }
    economy::payments(&g, &mut old, [7, 8]);
    assert!(
        old.counts.deserted_men > 0.0,
        "buying down to the reserve must leave July short"
    );

    economy::purchases(&g, &mut st, &plans);
    economy::constructions(&g, &mut st, &plans);
    assert!(st.ledger.men_raised > 100_000.0, "something must be bought");
    for c in 0..st.nations.len() as u8 {
        assert!(
            st.nations[c as usize].stock[DEN] >= economy::wages(&g, &st, c),
            "{}: {} DEN left for {} DEN of wages",
            g.scenario.countries[c as usize].name,
            st.nations[c as usize].stock[DEN],
            economy::wages(&g, &st, c)
        );
    }
    economy::payments(&g, &mut st, [7, 8]);
    assert_eq!(st.counts.deserted_men, 0.0);
}
