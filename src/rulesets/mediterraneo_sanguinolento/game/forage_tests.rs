//! Foraging (digest §4.4, L2092-L2106): the table's COM per hex by hand, a foraged leg's 2 extra
//! PM per hex, the cap at what the army can carry, the two readings of option forage_standing,
//! the policy's choice, and whole games in which the foraged COM is a source in the ledger.

use super::forage::{self, Forager, PM_PER_HEX};
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, COM};
use super::state::{Mission, State, NO_UNITS};
use super::supply;
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// COM per hex as the digest prints it (§4.4), by the battle code's English terrain name.
const TABLE: [(&str, i64); 6] = [
    ("plain", 10),
    ("desert", 1),
    ("forest", 8),
    ("rough", 6),
    ("hills", 5),
    ("mountain", 4),
];

#[test]
fn every_hex_terrain_yields_the_tables_com_per_hex() {
    let g = scripted_game();
    let terrains = &data().terrain;
    assert_eq!(g.scenario.forage.len(), terrains.len());
    for (name, com) in TABLE {
        let t = terrains.iter().position(|h| h.name_en == name).unwrap();
        assert_eq!(g.scenario.forage[t] as i64, com, "{name}");
    }
    // Through a node: Etruria is hills, Roma plain (abstraction.toml).
    for (node, com) in [("Etruria", 5), ("Roma", 10)] {
        let c = country(&g, node);
        let name = &terrains[g.scenario.nodes[c as usize].terrain as usize].name_en;
        assert_eq!(forage::per_hex(&g, c), com, "{node} ({name})");
    }
}

/// `c`'s field army of `units` of its first kind in `at` on `mission`, with `convoys`.
fn army(g: &Game, c: CountryId, units: f64, at: CountryId, mission: Mission, convoys: u8) -> State {
    let mut st = super::supply_tests::army(g, c, units, at, mission);
    st.nations[c as usize].supply.convoys = convoys;
    st
}

fn forager(months: u8) -> Scripted {
    Scripted {
        forage_months: months,
        forced_march: 0,
        ..Scripted::defaults()
    }
}

#[test]
fn a_foraged_leg_takes_2_pm_more_a_hex_and_gathers_its_hexes_com() {
    // Roma's army with a convoy (8 PM a month) marches on Etruria: 3 hexes of hills, 12 PM.
    // Foraging adds 2 PM a hex (18 PM): it arrives in the third month, not the second, with
    // 3 × 5 COM more.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("weather = \"clear\""),
    );
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let i = super::roads::link_index(&g.scenario, roma, etruria).unwrap();
    assert_eq!(g.scenario.links[i].hexes, 3);
    let arrival = |p: Scripted| {
        let mut st = army(&g, roma, 2.0, roma, Mission::March { target: etruria }, 1);
        st.nations[roma as usize].stock[COM] = 100_000;
        st.nations[etruria as usize].field = NO_UNITS;
        assert_eq!(st.roads.cost(&g, roma, etruria), 12);
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[roma as usize] = p;
        let mut dice = Dice::from_seed(5);
        let gained = st.ledger.gained[COM];
        for month in 1..=4 {
            // Summer months: no winter doubling.
            military::month(&g, &mut st, &plans, 4 + month, &mut dice, &mut NoLog);
            if st.nations[roma as usize].at == etruria {
                let foraged = st.counts.foraged_com;
                assert_eq!(st.ledger.gained[COM] - gained, foraged as i64);
                return (month, foraged);
            }
        }
        panic!("never arrived");
    };
    // The policy forages below 12 months of food beyond the way home (it loads about 5 at home).
    assert_eq!(arrival(forager(12)), (3, 15.0));
    assert_eq!(arrival(forager(0)), (2, 0.0));
    assert_eq!(PM_PER_HEX, 2);
}

#[test]
fn the_policy_forages_only_beyond_its_lands_when_short_and_where_it_pays() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    let st = army(&g, roma, 2.0, etruria, Mission::Return, 1);
    let need = supply::monthly_need(&g, &st, roma);
    // Home is 3 hexes of plain away (3 PM): a month at the convoy's 8 PM.
    assert_eq!(supply::months_home(&g, &st, roma), 1);
    let f = Forager::new(&g, &st, &forager(2), roma, 8);
    // 3 hexes of Etruria's hills: 15 COM for 6 PM, which at 8 PM a month eat 6/8 of `need`.
    assert!(15 * 8 > need * 6);
    assert_eq!(f.leg(&g, &st.lands, 0, etruria, 3), 15);
    // Not on its own lands; not with forage_months (2) of food beyond the food at which it turns
    // home (the month home and supply_margin's 1); never with forage_months = 0.
    assert_eq!(f.leg(&g, &st.lands, 0, roma, 3), 0);
    assert_eq!(f.leg(&g, &st.lands, 4 * need, etruria, 3), 0);
    assert_eq!(f.leg(&g, &st.lands, 4 * need - 1, etruria, 3), 15);
    let never = Forager::new(&g, &st, &forager(0), roma, 8);
    assert_eq!(never.leg(&g, &st.lands, 0, etruria, 3), 0);
    // A big army would eat more in the 6 extra PM than the hills yield: it marches on.
    let big = army(&g, roma, 40.0, etruria, Mission::Return, 1);
    let need = supply::monthly_need(&g, &big, roma);
    assert!(15 * 8 <= need * 6, "{need}");
    let f = Forager::new(&g, &big, &forager(12), roma, 8);
    assert_eq!(f.leg(&g, &big.lands, 0, etruria, 3), 0);
    // Fed from the home stock (option army_supply) nothing is carried: nobody forages.
    let h = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("army_supply = \"home-stock\""),
    );
    let f = Forager::new(&h, &st, &forager(12), roma, 8);
    assert_eq!(f.leg(&h, &st.lands, 0, etruria, 3), 0);
}

#[test]
fn foraging_never_fills_the_army_above_what_it_can_carry() {
    let g = scripted_game();
    let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
    // No convoy: 2 units carry 1 COM per 200 men.
    let st = army(&g, roma, 2.0, etruria, Mission::Return, 0);
    let capacity = supply::capacity(&g, &st, roma);
    assert!(capacity < 15, "{capacity}");
    // A fast pace, so that the gain pays whatever it is.
    let f = Forager::new(&g, &st, &forager(12), roma, 1000);
    assert_eq!(f.leg(&g, &st.lands, 0, etruria, 3), capacity);
    assert_eq!(f.leg(&g, &st.lands, capacity - 2, etruria, 3), 2);
    assert_eq!(f.leg(&g, &st.lands, capacity, etruria, 3), 0);
}

#[test]
fn a_standing_army_forages_its_node_once_a_month_only_by_standing_too() {
    for (option, foraged) in [("marching-only", 0), ("standing-too", 10)] {
        let g = game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with(&format!("forage_standing = \"{option}\"")),
        );
        let (roma, etruria) = (country(&g, "Roma"), country(&g, "Etruria"));
        // Etruria's shortest land link (to Roma) is 3 hexes: it stands in 2 of hills.
        assert_eq!(forage::node_hexes(&g, etruria), 2);
        let mission = Mission::Siege {
            target: etruria,
            months: 0,
        };
        let mut st = army(&g, roma, 2.0, etruria, mission, 1);
        let need = supply::monthly_need(&g, &st, roma);
        st.nations[roma as usize].supply.food = 3 * need;
        let plans = vec![forager(12); g.scenario.countries.len()];
        supply::month(&g, &mut st, &plans, false);
        assert_eq!(
            st.nations[roma as usize].supply.food,
            2 * need + foraged,
            "{option}"
        );
        assert_eq!(st.counts.foraged_com, foraged as f64, "{option}");
        // Idle abroad it forages too, but not with forage_months (2) of food beyond the 2 months
        // at which it turns home (a month home, supply_margin 1).
        st.nations[roma as usize].mission = Mission::Idle;
        let plans = vec![forager(2); g.scenario.countries.len()];
        st.nations[roma as usize].supply.food = 5 * need;
        supply::month(&g, &mut st, &plans, false);
        assert_eq!(st.nations[roma as usize].supply.food, 4 * need, "{option}");
        assert_eq!(st.counts.foraged_com, foraged as f64, "{option}");
        st.nations[roma as usize].supply.food = 5 * need - 1;
        supply::month(&g, &mut st, &plans, false);
        assert_eq!(
            st.nations[roma as usize].supply.food,
            4 * need - 1 + foraged,
            "{option}"
        );
        assert_eq!(st.counts.foraged_com, 2.0 * foraged as f64, "{option}");
    }
}

#[test]
fn whole_games_forage_and_the_foraged_com_is_a_ledger_source() {
    for (option, policy, games) in [
        (
            "marching-only",
            Policy::Scripted(Scripted::defaults()),
            60u64,
        ),
        ("standing-too", Policy::Scripted(Scripted::defaults()), 60),
        ("marching-only", Policy::Random, 100),
    ] {
        let g = game_with(
            policy,
            &options_with(&format!("forage_standing = \"{option}\"")),
        );
        let (mut foraged, mut starved, mut lost) = (0.0, 0.0, 0.0);
        play_checked(
            &g,
            41,
            games,
            &format!("forage {option} {policy:?}"),
            |_, play, _| {
                foraged += play.st.counts.foraged_com;
                starved += play.st.counts.starved_men;
                lost += play.st.ledger.men_lost;
            },
        );
        assert!(foraged > 0.0, "{option} {policy:?}: nothing foraged");
        if matches!(policy, Policy::Scripted(_)) {
            // Foraging slows the march: the scripted armies must not march into hunger for it.
            // (as supply_tests asks: under 2% of the men lost).
            assert!(
                starved < 0.02 * lost,
                "{option}: {starved} men starved of {lost} lost"
            );
        }
    }
}

#[test]
fn a_bad_forage_option_names_the_field_and_the_choices() {
    super::game_tests::assert_bad_options(&[(
        "forage_standing = \"always\"",
        "forage_standing",
        "standing-too",
    )]);
}
