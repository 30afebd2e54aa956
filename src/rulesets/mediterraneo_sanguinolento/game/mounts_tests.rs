//! Tests of mount breeding (rules §6, L795-L815; `mounts.rs`): the PM of the bred units under
//! each reading of option mount_breeding_units, the CAB production factor at collection, the
//! §4.19 row, who buys and once only, and the invariants over whole games that buy it.

use super::economy;
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::mounts::{self, Bred, BREEDING_DEN, CAB_TENTHS};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, CAB, DEN};
use super::{Game, Kind};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

fn kind(code: &str) -> Kind {
    let unit = data().units.iter().position(|u| u.code == code).unwrap() as u8;
    Kind::new(unit, 2, false)
}

fn breeder(level: u8) -> Scripted {
    Scripted {
        mount_breeding: level,
        ..Scripted::defaults()
    }
}

fn plans_with(g: &Game, c: CountryId, p: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = p;
    plans
}

#[test]
fn bred_units_gain_the_level_in_pm_by_the_option() {
    let cases = [
        // (reading, CL, CRL, CML, E, IL) at level 3; printed 15, 12, 15, 12, 10.
        ("horses", [18, 15, 15, 12, 10]),
        ("cavalry", [18, 12, 15, 12, 10]),
        ("all-mounted", [18, 15, 18, 15, 10]),
    ];
    for (reading, want) in cases {
        let g = game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with(&format!("mount_breeding_units = \"{reading}\"")),
        );
        let roma = country(&g, "Roma");
        let mut st = g.start.clone();
        let pm = |st: &super::state::State| {
            ["CL", "CRL", "CML", "E", "IL"].map(|c| mounts::movement(&g, st, roma, &kind(c)))
        };
        assert_eq!(pm(&st), [15, 12, 15, 12, 10], "{reading} unbred");
        st.nations[roma as usize].mounts = 3;
        assert_eq!(pm(&st), want, "{reading}");
    }
    assert_eq!(Bred::from_options(&options()), Bred::Horses);
}

#[test]
fn the_cab_factor_by_level_rounded_down() {
    let g = scripted_game();
    let mut st = g.start.clone();
    let l = 0;
    let got: Vec<i64> = (0..=5)
        .map(|level| {
            st.nations[l].mounts = level;
            mounts::cab_yield(&st, l, 1000)
        })
        .collect();
    assert_eq!(got, [1000, 900, 700, 500, 300, 200]);
    st.nations[l].mounts = 2;
    assert_eq!(mounts::cab_yield(&st, l, 7), 4); // 4.9
    assert_eq!(CAB_TENTHS.len(), 6);
}

#[test]
fn a_bred_home_collects_its_cab_times_the_factor() {
    let g = scripted_game();
    let l = (0..g.scenario.countries.len())
        .find(|&l| g.scenario.production[l][CAB] >= 10)
        .expect("a land that breeds horses");
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    let collected = |level: u8| {
        let mut st = g.start.clone();
        st.nations[l].mounts = level;
        let before = st.nations[l].stock[CAB];
        // December: no tax or harvest change to the yield.
        economy::collection(&g, &mut st, &plans, 12);
        st.nations[l].stock[CAB] - before
    };
    let base = collected(0);
    assert_eq!(base, g.scenario.production[l][CAB] as i64);
    assert_eq!(collected(1), base * 9 / 10);
    assert_eq!(collected(4), base * 3 / 10);
}

#[test]
fn a_civilized_major_buys_once_and_scores_the_row() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let mut st = g.start.clone();
    st.nations[roma as usize].stock[DEN] = 100_000;
    let plans = plans_with(&g, roma, breeder(2));
    let (pv, idr) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    mounts::purchases(&g, &mut st, &plans);
    let nat = &st.nations[roma as usize];
    assert_eq!(nat.mounts, 2);
    assert_eq!(nat.stock[DEN], 100_000 - BREEDING_DEN);
    // §4.19 "Mount breeding", civilized: +1 PV, +50 IDR.
    assert_eq!((nat.pv, nat.idr), (pv + 1, idr + 50));
    assert_eq!(st.counts.mounts_bred, 1);
    // Once a game.
    mounts::purchases(&g, &mut st, &plans);
    assert_eq!(st.nations[roma as usize].stock[DEN], 100_000 - BREEDING_DEN);
    assert_eq!(st.counts.mounts_bred, 1);
}

#[test]
fn who_buys() {
    let mut g = scripted_game();
    let roma = country(&g, "Roma");
    let rich = |g: &Game, c: CountryId, den: i64| {
        let mut st = g.start.clone();
        st.nations[c as usize].stock[DEN] = den;
        st
    };
    let st = rich(&g, roma, 100_000);
    assert!(mounts::wants(&g, &st, roma, &breeder(1)));
    assert!(!mounts::wants(&g, &st, roma, &breeder(0)), "level 0");
    assert!(
        !mounts::wants(&g, &st, roma, &Scripted::referee()),
        "referee"
    );
    // DEN above reserve and wages only.
    let keep = economy::den_to_keep(&g, &st, roma, &breeder(1));
    let short = rich(&g, roma, keep + BREEDING_DEN - 1);
    assert!(
        !mounts::wants(&g, &short, roma, &breeder(1)),
        "short of DEN"
    );
    let enough = rich(&g, roma, keep + BREEDING_DEN);
    assert!(mounts::wants(&g, &enough, roma, &breeder(1)));
    // Not from a lost home.
    let mut lost = st.clone();
    lost.lands[roma as usize].owner = country(&g, "Etruria");
    assert!(!mounts::wants(&g, &lost, roma, &breeder(1)), "home lost");
    // A barbarian scores no PV: it buys only if every kind it raises is bred.
    let b = (0..g.scenario.countries.len() as CountryId)
        .find(|&c| {
            g.culture[c as usize] == Culture::Barbarian
                && g.kinds[c as usize][..g.nkinds[c as usize] as usize]
                    .iter()
                    .any(|k| !g.bred.includes(k.unit))
        })
        .expect("a barbarian with unbred kinds");
    let st = rich(&g, b, 100_000);
    assert!(!mounts::wants(&g, &st, b, &breeder(3)), "barbarian");
    g.nkinds[b as usize] = 1;
    g.kinds[b as usize][0] = kind("CL");
    assert!(
        mounts::wants(&g, &st, b, &breeder(3)),
        "all-horse barbarian"
    );
}

#[test]
fn whole_games_breed_mounts_and_the_invariants_hold() {
    for (policy, games) in [
        (Policy::Scripted(Scripted::defaults()), 60u64),
        (Policy::Random, 100),
    ] {
        let g = game_with(policy, &options());
        let mut bred = 0;
        play_checked(
            &g,
            41,
            games,
            &format!("mounts {policy:?}"),
            |_, play, _| {
                bred += play.st.counts.mounts_bred;
                for (c, n) in play.st.nations.iter().enumerate() {
                    assert!(n.mounts <= mounts::MAX_LEVEL, "nation {c}");
                }
            },
        );
        assert!(bred > 0, "{policy:?}");
    }
}
