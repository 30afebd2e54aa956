//! Special populations (digest §4.5.7, T13, T14, A42): purchases by Roma and Esparta pay the
//! hand-computed DEN and yield the hand-computed morale shares, A42's caps cut them, the battle
//! side fights each class as its own group, the siege takes the men-weighted morale, and whole
//! games keep the shares sound.

use super::battles::{self, Side};
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::leaders::Lead;
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, DEN, MET, POB};
use super::special::{self, NO_MIX};
use super::state::{State, NO_UNITS};
use super::Game;

/// A policy keeping nothing back beyond the army's wages.
fn spender() -> Scripted {
    Scripted {
        reserve: 0,
        ..Scripted::defaults()
    }
}

/// `c` with ample POB, DEN and metal, no units but `units` of its first kind, a fresh purchase phase.
fn rich(g: &Game, c: CountryId, units: f64) -> State {
    let mut st = g.start.clone();
    let n = &mut st.nations[c as usize];
    n.field = NO_UNITS;
    n.garrison = NO_UNITS;
    n.training = NO_UNITS;
    n.field[0] = units;
    n.stock[POB] = 100_000;
    n.stock[DEN] = 100_000;
    n.stock[MET] = 100_000;
    special::new_purchase(g, &mut st);
    st
}

fn all_from_capital() -> Game {
    game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("special_city_pob = \"all\""),
    )
}

#[test]
fn t13_a_roman_purchase_pays_the_cost_classes_and_mixes_the_morales() {
    let g = all_from_capital();
    let roma = country(&g, "Roma");
    let kind = g.kinds[roma as usize][0];
    assert_eq!((kind.code, kind.morale, kind.regular), ("IP", 2, true));
    let mut st = rich(&g, roma, 6.0);
    let den = st.nations[roma as usize].stock[DEN];
    assert!(special::buy(&g, &mut st, roma, 0, 10, &spender()));
    // T13: 2 A at B's cost (600) and 8 B at C's (300): 3,600 DEN (a land unit has no DEN of its own).
    assert_eq!(den - st.nations[roma as usize].stock[DEN], 3600);
    assert_eq!(st.nations[roma as usize].training[0], 10.0);
    // 6 C units held + 2 A + 8 B: 2/16, 8/16, 6/16.
    assert_eq!(st.nations[roma as usize].mix[0], [0.125, 0.5, 0.375, 0.0]);
    assert_eq!(st.nations[roma as usize].elite_raised, [2, 8]);
    // A42 per purchase: 10 more would make 16 B; 3 (1 A, 2 B) is the most that fits 5 A / 10 B.
    let den = st.nations[roma as usize].stock[DEN];
    special::buy(&g, &mut st, roma, 0, 10, &spender());
    assert_eq!(st.nations[roma as usize].training[0], 13.0);
    assert_eq!(st.nations[roma as usize].elite_raised, [3, 10]);
    assert_eq!(den - st.nations[roma as usize].stock[DEN], 600 + 2 * 300);
    // The next purchase phase starts the count again.
    special::new_purchase(&g, &mut st);
    assert_eq!(st.nations[roma as usize].elite_raised, [0, 0]);
}

#[test]
fn t13_rome_per_city_raises_a_third_from_the_city_and_italics_at_their_kind() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    // Roma, Itrium, Corfirium: the city raises a third (option special_city_pob = per-city).
    assert_eq!(special::capital_share(&g, roma), 1.0 / 3.0);
    let mut st = rich(&g, roma, 0.0);
    let den = st.nations[roma as usize].stock[DEN];
    special::buy(&g, &mut st, roma, 0, 9, &spender());
    // 3 from the city (1 A at 600, 2 B at 300: largest remainders 0.6 A, 2.4 B), 6 Italics at C (300).
    assert_eq!(
        den - st.nations[roma as usize].stock[DEN],
        600 + 2 * 300 + 6 * 300
    );
    let mix = st.nations[roma as usize].mix[0];
    for (got, want) in mix.iter().zip([1.0 / 9.0, 2.0 / 9.0, 6.0 / 9.0, 0.0]) {
        assert!((got - want).abs() < 1e-12, "{mix:?}");
    }
    // Cartago has no special population: its purchases are the ordinary ones.
    let cartago = country(&g, "Cartago");
    assert!(!special::buy(&g, &mut st, cartago, 0, 5, &spender()));
}

#[test]
fn t14_a_spartan_purchase_pays_the_cost_classes() {
    let g = scripted_game();
    let esparta = country(&g, "Esparta");
    assert_eq!(special::capital_share(&g, esparta), 0.5);
    let mut st = rich(&g, esparta, 0.0);
    let den = st.nations[esparta as usize].stock[DEN];
    special::buy(&g, &mut st, esparta, 0, 20, &spender());
    // 10 from the city, all A at D's cost, cut to A42's 5 A (1,000 DEN); then T14's 10 from the rest
    // (2 A at B's cost, 5 B at C's, 3 C at D's) would pass the 5 A: cut to the most with no A,
    // 2 units (0.4 A, 1.0 B, 0.6 C: B 1, then C by the largest remainder), 300 + 200 DEN.
    let bought = st.nations[esparta as usize].training[0];
    let paid = den - st.nations[esparta as usize].stock[DEN];
    assert_eq!((bought, paid), (7.0, 5 * 200 + 300 + 200));
    assert_eq!(st.nations[esparta as usize].elite_raised, [5, 1]);
    let mix = st.nations[esparta as usize].mix[0];
    assert_eq!(mix, [5.0 / 7.0, 1.0 / 7.0, 1.0 / 7.0, 0.0]);
    // Without the cap (option elite_cap = none) T14's 3,300 DEN are paid in full.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("elite_cap = \"none\""),
    );
    let mut st = rich(&g, esparta, 0.0);
    let den = st.nations[esparta as usize].stock[DEN];
    special::buy(&g, &mut st, esparta, 0, 20, &spender());
    assert_eq!(st.nations[esparta as usize].training[0], 20.0);
    assert_eq!(
        den - st.nations[esparta as usize].stock[DEN],
        10 * 200 + 3300
    );
    assert_eq!(
        st.nations[esparta as usize].mix[0],
        [12.0 / 20.0, 5.0 / 20.0, 3.0 / 20.0, 0.0]
    );
}

#[test]
fn a_purchase_keeps_the_wages_back() {
    let g = all_from_capital();
    let roma = country(&g, "Roma");
    let mut st = rich(&g, roma, 0.0);
    // 10 units cost 3,600 DEN and 10 half-years' wages of 15 (300 / 20): 3,750 buys them all,
    // 3,749 only what fits (9 units: 2 A at 600 + 7 B at 300 = 3,300 + 135 wages).
    st.nations[roma as usize].stock[DEN] = 3750;
    special::buy(&g, &mut st, roma, 0, 10, &spender());
    assert_eq!(st.nations[roma as usize].training[0], 10.0);
    let mut st = rich(&g, roma, 0.0);
    st.nations[roma as usize].stock[DEN] = 3749;
    special::buy(&g, &mut st, roma, 0, 10, &spender());
    assert_eq!(st.nations[roma as usize].training[0], 9.0);
    assert_eq!(st.nations[roma as usize].stock[DEN], 3749 - 3300);
}

fn side(c: CountryId, units: f64, mix: [f64; 4]) -> Side {
    let mut u = NO_UNITS;
    u[0] = units;
    let mut m = NO_MIX;
    m[0] = mix;
    Side {
        mix: m,
        ..Side::new(c, u, Lead::UNNAMED)
    }
}

#[test]
fn a_battle_side_fights_each_morale_class_as_a_group() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let army = battles::army(&g, &side(roma, 16.0, [0.125, 0.5, 0.375, 0.0]), true);
    let groups: Vec<_> = army
        .groups
        .iter()
        .map(|x| (x.code.as_str(), x.morale, x.units))
        .collect();
    assert_eq!(groups, [("IP", 0, 2.0), ("IP", 1, 8.0), ("IP", 2, 6.0)]);
    // An empty row is the kind's own morale, one group.
    let army = battles::army(&g, &side(roma, 16.0, [0.0; 4]), true);
    assert_eq!(army.groups.len(), 1);
    assert_eq!(army.groups[0].morale, 2);
    // The siege's morale value: regular A 5, B 4, C 3, men-weighted.
    let kind = g.kinds[roma as usize][0];
    let v = special::morale_value(&kind, &[0.125, 0.5, 0.375, 0.0]);
    assert!((v - (0.125 * 5.0 + 0.5 * 4.0 + 0.375 * 3.0)).abs() < 1e-12);
    assert_eq!(special::morale_value(&kind, &[0.0; 4]), 3.0);
}

#[test]
fn elite_troops_fight_better_and_their_losses_are_read_back_into_the_kind() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let enemy = side(cartago, 16.0, [0.0; 4]);
    let mut dice = crate::dice::Dice::for_trial(5, 0, 0);
    let odds = |mix, dice: &mut crate::dice::Dice| {
        battles::odds(
            &g,
            roma,
            None,
            false,
            [side(roma, 16.0, mix), enemy],
            400,
            dice,
        )
    };
    let plain = odds([0.0; 4], &mut dice);
    let elite = odds([0.5, 0.5, 0.0, 0.0], &mut dice);
    assert!(elite > plain + 0.1, "elite {elite} vs plain {plain}");
    let fight = |mix, i| {
        let mut dice = crate::dice::Dice::for_trial(6, 0, i);
        let sides = [side(roma, 16.0, mix), enemy];
        let clear = super::weather::Weather::Clear;
        battles::field_battle(&g, roma, false, clear, sides, &mut dice)
    };
    let mut lost = 0.0;
    for i in 0..20 {
        // A row naming the kind's own class is the kind's own group: the same fight.
        assert_eq!(fight([0.0, 0.0, 1.0, 0.0], i), fight([0.0; 4], i));
        let f = fight([0.25, 0.25, 0.5, 0.0], i);
        assert!(f.lost[0][0] >= 0.0 && f.lost[0][0] <= 16.0, "{:?}", f.lost);
        lost += f.lost[0][0];
    }
    assert!(
        lost > 0.0,
        "the mixed side's groups lost nothing in 20 fights"
    );
}

#[test]
fn whole_games_keep_the_shares_and_the_caps() {
    let g = scripted_game();
    let specials = [country(&g, "Roma"), country(&g, "Esparta")];
    let limits = &crate::rulesets::mediterraneo_sanguinolento::data::data()
        .morale
        .limits;
    let mut mixed = 0;
    play_checked(&g, 11, 6, "special", |i, play, _| {
        for (c, n) in play.st.nations.iter().enumerate() {
            for (k, row) in n.mix.iter().enumerate() {
                let sum: f64 = row.iter().sum();
                assert!(
                    sum == 0.0 || (sum - 1.0).abs() < 1e-9,
                    "game {i} {c} {k}: {row:?}"
                );
                if sum > 0.0 {
                    assert!(specials.contains(&(c as CountryId)), "game {i}: {c} mixed");
                    mixed += 1;
                }
            }
            assert!(n.elite_raised[0] <= limits.max_a && n.elite_raised[1] <= limits.max_b);
        }
    });
    assert!(mixed > 0, "no special population ever bought");
}
