//! Tests of production improvements, new cities and enlargements (digest §4.7-§4.8, `works.rs`):
//! each work's price debited once and its output from the collection after it is finished (never
//! before), by hand from the printed numbers; one work of a type at a time; a siege stops the
//! work; barbarians and the referee build nothing; the shipyard and the fishing factory; the
//! policy invests a rich treasury; whole games keep the invariants.

use super::economy;
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, COM, DEN, MAD, MAN, MET, PIE, POB};
use super::state::{State, R};
use super::works::{self, Work, Works, TYPES, WORKS};
use super::Game;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn rich(st: &mut State, c: CountryId) {
    let s = &mut st.nations[c as usize].stock;
    for r in [DEN, PIE, MAD, MET] {
        s[r] = 100_000;
    }
}

/// What `c` holds after a December collection (no harvest, no taxes) from `st`.
fn collected(g: &Game, st: &State, c: CountryId) -> [i64; R] {
    let mut st = st.clone();
    st.nations[c as usize].stock = [0; R];
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    economy::collection(g, &mut st, &plans, 12);
    let mut out = st.nations[c as usize].stock;
    out[POB] = st.nations[c as usize].pob_collected;
    out
}

fn months(g: &Game, st: &mut State, n: u8, besieged: bool) {
    let mut b = [false; 256];
    b.fill(besieged);
    for _ in 0..n {
        works::month(g, st, &b);
    }
}

#[test]
fn each_work_is_paid_once_and_yields_from_the_collection_after_it_is_finished() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert_eq!(g.culture[roma as usize], Culture::Civilized);
    let base = g.scenario.production[roma as usize].map(|v| v as i64);
    // The printed effects (L735-L775, L846-L853, L1152-L1156, L3822-L3836): +10% of the base
    // production, 175 MAN, a city's 150 POB + 150 DEN + 75 MAN (civilized), an enlargement's
    // 125 + 125 + 65.
    let mut expected = [[0i64; R]; TYPES];
    expected[Work::MiningFactory.index()][MET] = base[MET] / 10;
    expected[Work::CropIntensification.index()][COM] = base[COM] / 10;
    expected[Work::Reforestation.index()][MAD] = base[MAD] / 10;
    expected[Work::Quarry.index()][PIE] = base[PIE] / 10;
    expected[Work::ManufacturesFactory.index()][MAN] = 175;
    expected[Work::City.index()][POB] = 150;
    expected[Work::City.index()][DEN] = 150;
    expected[Work::City.index()][MAN] = 75;
    expected[Work::Enlargement.index()][POB] = 125;
    expected[Work::Enlargement.index()][DEN] = 125;
    expected[Work::Enlargement.index()][MAN] = 65;
    // A colony yields as a city to its builder (L3862; here founded in its own land).
    expected[Work::Colony.index()] = expected[Work::City.index()];
    // The printed prices: (DEN, PIE and/or MAD, PIE, MAD, MET, months).
    let printed: [(Work, [i64; 5], u8); TYPES] = [
        (Work::MiningFactory, [700, 0, 500, 0, 400], 6),
        (Work::CropIntensification, [750, 500, 0, 0, 0], 6),
        (Work::Reforestation, [750, 0, 0, 500, 0], 12),
        (Work::Quarry, [500, 0, 700, 0, 200], 6),
        (Work::ManufacturesFactory, [750, 1000, 0, 0, 0], 6),
        (Work::FishingFactory, [500, 500, 0, 0, 0], 6),
        (Work::Shipyard, [1000, 800, 0, 0, 0], 6),
        (Work::City, [1500, 1500, 0, 0, 0], 12),
        (Work::Enlargement, [500, 800, 0, 0, 0], 6),
        (Work::Colony, [1500, 1500, 0, 0, 0], 12),
        (Work::NavalBase, [1000, 500, 0, 0, 0], 6),
        (Work::Port, [1000, 1000, 0, 0, 0], 6),
    ];
    for (w, [den, either, pie, mad, met], time) in printed {
        let mut st = g.start.clone();
        rich(&mut st, roma);
        let before = st.nations[roma as usize].stock;
        let plain = collected(&g, &st, roma);
        works::start(&mut st, roma, w);
        let paid = |r: usize, st: &State| before[r] - st.nations[roma as usize].stock[r];
        assert_eq!(paid(DEN, &st), den, "{w:?}");
        // Stone before wood where either will do.
        assert_eq!(paid(PIE, &st), pie + either, "{w:?}");
        assert_eq!(paid(MAD, &st), mad, "{w:?}");
        assert_eq!(paid(MET, &st), met, "{w:?}");
        for month in 1..time {
            months(&g, &mut st, 1, false);
            assert_eq!(st.works[roma as usize].built(w), 0, "{w:?} month {month}");
            // Not finished: the collection is what it was, and nothing is paid again.
            assert_eq!(collected(&g, &st, roma), plain, "{w:?} month {month}");
            assert_eq!(paid(DEN, &st), den);
        }
        months(&g, &mut st, 1, false);
        assert_eq!(
            st.works[roma as usize].built(w),
            1,
            "{w:?} takes {time} months"
        );
        assert_eq!(st.works[roma as usize].left, [0; TYPES]);
        let now = collected(&g, &st, roma);
        for r in 0..R {
            assert_eq!(
                now[r] - plain[r],
                expected[w.index()][r],
                "{w:?} resource {r}"
            );
        }
    }
}

#[test]
fn a_new_city_and_an_enlargement_score_their_rows_and_count_as_cities() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    rich(&mut st, roma);
    let (pv0, idr0) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    let cities0 = super::turn::proxies(&g, &st, roma)[0];
    works::start(&mut st, roma, Work::City);
    months(&g, &mut st, 12, false);
    // §4.19 city construction, civilized: +5 PV, +125 IDR; enlargement +4 PV, +100 IDR.
    assert_eq!(st.nations[roma as usize].pv - pv0, 5);
    assert_eq!(st.nations[roma as usize].idr - idr0, 125);
    assert_eq!(super::turn::proxies(&g, &st, roma)[0], cities0 + 1.0);
    works::start(&mut st, roma, Work::Enlargement);
    months(&g, &mut st, 6, false);
    assert_eq!(st.nations[roma as usize].pv - pv0, 9);
    assert_eq!(st.nations[roma as usize].pv_by[super::pv::WORKS], 9);
    assert_eq!(st.nations[roma as usize].idr - idr0, 225);
}

#[test]
fn one_work_of_each_type_at_a_time_and_barbarians_build_none() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = Scripted {
        reserve: 0,
        ..Scripted::defaults()
    };
    let mut st = g.start.clone();
    for c in 0..st.nations.len() as CountryId {
        rich(&mut st, c);
    }
    works::constructions(&g, &mut st, &plans);
    let first = st.works[roma as usize].left;
    assert!(first.iter().filter(|&&m| m > 0).count() >= 2, "{first:?}");
    let den = st.nations[roma as usize].stock[DEN];
    // Again the same turn: every type it started is under way, so nothing new of it starts.
    works::constructions(&g, &mut st, &plans);
    assert_eq!(st.works[roma as usize].left, first);
    assert_eq!(st.nations[roma as usize].stock[DEN], den);
    // The referee's countries build nothing, however rich (Roma's colony may stand in one).
    for c in 0..st.nations.len() {
        if c != roma as usize {
            let mut w = st.works[c];
            if w.colonist == Some(roma) {
                w.colonist = None;
                w.left[Work::Colony.index()] = 0;
            }
            assert_eq!(w, Works::default(), "{c}");
        }
    }
    // A barbarian builds nothing even with the scripted policy; a B/C country no manufactures.
    let barbarian = (0..g.culture.len())
        .find(|&c| g.culture[c] == Culture::Barbarian)
        .unwrap() as CountryId;
    let mixed = (0..g.culture.len())
        .find(|&c| g.culture[c] == Culture::Mixed && !g.scenario.countries[c].cities.is_empty())
        .unwrap() as CountryId;
    let none = Works::default();
    for w in WORKS {
        assert!(!works::allowed(&g, barbarian, w, &none), "{w:?}");
    }
    assert!(!works::allowed(&g, mixed, Work::ManufacturesFactory, &none));
    assert!(works::allowed(&g, mixed, Work::City, &none));
    plans[barbarian as usize] = plans[roma as usize];
    works::constructions(&g, &mut st, &plans);
    assert_eq!(st.works[barbarian as usize], none);
    // Improvements once (reforestation once off the forest), enlargements once a city.
    let mut built = Works::default();
    built.built[Work::CropIntensification.index()] = 1;
    assert!(!works::allowed(&g, roma, Work::CropIntensification, &built));
    let cities = g.scenario.countries[roma as usize].cities.len() as u8;
    built.built[Work::Enlargement.index()] = cities;
    assert!(!works::allowed(&g, roma, Work::Enlargement, &built));
    built.built[Work::City.index()] = 1;
    assert!(works::allowed(&g, roma, Work::Enlargement, &built));
}

#[test]
fn a_siege_stops_the_work_and_a_lost_home_loses_it() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let mut st = g.start.clone();
    rich(&mut st, roma);
    works::start(&mut st, roma, Work::CropIntensification);
    months(&g, &mut st, 2, false);
    months(&g, &mut st, 10, true);
    assert_eq!(
        st.works[roma as usize].left[Work::CropIntensification.index()],
        4
    );
    months(&g, &mut st, 4, false);
    assert_eq!(st.works[roma as usize].built(Work::CropIntensification), 1);
    // A finished work stays with the land: its conqueror collects it; a work under way is lost.
    works::start(&mut st, roma, Work::City);
    st.lands[roma as usize].owner = cartago;
    months(&g, &mut st, 12, false);
    assert_eq!(st.works[roma as usize].left, [0; TYPES]);
    assert_eq!(st.works[roma as usize].built(Work::City), 0);
    let mut without = st.clone();
    without.works[roma as usize] = Works::default();
    let com = g.scenario.production[roma as usize][COM] as i64;
    assert_eq!(
        collected(&g, &st, cartago)[COM] - collected(&g, &without, cartago)[COM],
        com / 10
    );
}

#[test]
fn a_shipyard_launches_fleets_sooner_and_a_fishing_factory_multiplies_the_catch() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = Scripted {
        reserve: 0,
        warfleets_per_city: 3.0,
        ..Scripted::defaults()
    };
    let ready = |shipyard: bool| {
        let mut st = g.start.clone();
        rich(&mut st, roma);
        st.nations[roma as usize].stock[POB] = 100_000;
        if shipyard {
            st.works[roma as usize].built[Work::Shipyard.index()] = 1;
        }
        super::fleets::purchases(&g, &mut st, &plans, 3);
        assert!(st.nations[roma as usize].shipyard.warfleets > 0.0);
        st.nations[roma as usize].shipyard.ready
    };
    let code = &g.scenario.fleet.unwrap().code;
    let sooner = if code == "FQ" { 1 } else { 2 };
    assert_eq!(ready(false) - ready(true), sooner, "fleet {code}");
    let mut st = g.start.clone();
    assert_eq!(works::shipyard_months(&st, roma, "FQ"), 0);
    st.works[roma as usize].built[Work::Shipyard.index()] = 1;
    assert_eq!(works::shipyard_months(&st, roma, "FQ"), 1);
    assert_eq!(works::shipyard_months(&st, roma, "FTR"), 2);
    assert_eq!(works::fishing_multiplier(&st, roma), 1.0);
    st.works[roma as usize].built[Work::FishingFactory.index()] = 1;
    assert_eq!(works::fishing_multiplier(&st, roma), 1.3);
}

#[test]
fn a_rich_major_with_nothing_else_to_buy_invests_and_payback_decides_what() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = Scripted::defaults();
    let mut st = g.start.clone();
    rich(&mut st, roma);
    st.turn = 1;
    works::constructions(&g, &mut st, &plans);
    let left = st.works[roma as usize].left;
    // Crops (+10% COM at 12 DEN a unit), the manufactures factory (175 MAN) and a new city all
    // repay their price well within the game.
    for w in [
        Work::CropIntensification,
        Work::ManufacturesFactory,
        Work::City,
    ] {
        assert!(left[w.index()] > 0, "{w:?} not started: {left:?}");
    }
    // Near the turn cap nothing repays its price any more: nothing starts.
    let mut late = g.start.clone();
    rich(&mut late, roma);
    late.turn = g.turn_cap - 1;
    works::constructions(&g, &mut late, &plans);
    assert_eq!(late.works[roma as usize].left, [0; TYPES]);
    // A payback horizon of 0 turns builds nothing that must pay back.
    plans[roma as usize].works_payback = 0.0;
    let mut strict = g.start.clone();
    rich(&mut strict, roma);
    strict.turn = 1;
    works::constructions(&g, &mut strict, &plans);
    assert!(strict.works[roma as usize].left[..Work::Shipyard.index()]
        .iter()
        .all(|&m| m == 0));
}

#[test]
fn option_quarry_output_none_builds_no_quarry() {
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("quarry_output = \"none\""),
    );
    let esparta = country(&g, "Esparta");
    assert!(!works::allowed(
        &g,
        esparta,
        Work::Quarry,
        &Works::default()
    ));
    let mut built = Works::default();
    built.built[Work::Quarry.index()] = 1;
    assert_eq!(works::output(&g, esparta as usize, &built)[PIE], 0);
    let g = game_with(Policy::Scripted(Scripted::defaults()), &options());
    assert!(works::allowed(&g, esparta, Work::Quarry, &Works::default()));
    let pie = g.scenario.production[esparta as usize][PIE] as i64;
    assert!(pie > 0);
    assert_eq!(works::output(&g, esparta as usize, &built)[PIE], pie / 10);
}

#[test]
fn whole_games_with_works_keep_the_invariants() {
    for (policy, games) in [
        (Policy::Scripted(Scripted::defaults()), 200u64),
        (Policy::Random, 300),
    ] {
        let g = game_with(policy, &options());
        let (mut started, mut finished, mut output) = (0, 0, 0.0);
        play_checked(&g, 23, games, &format!("works {policy:?}"), |_, play, _| {
            let st = &play.st;
            started += st.counts.works_started;
            finished += st.counts.works_finished;
            output += st.counts.works_output;
            for (c, w) in st.works.iter().enumerate() {
                // Works under way only at a home its nation holds; none by the referee.
                if w.left != [0; TYPES] {
                    assert_eq!(st.lands[c].owner as usize, c);
                }
                // The referee builds nothing; a major's colony may stand in its land.
                let mut own = *w;
                // The wood of its walls is recorded with its works (`wood.rs`).
                own.wood.walls = Default::default();
                if let Some(builder) = w.colonist {
                    assert!(g.majors.contains(&builder), "colony of {builder} in {c}");
                    own.colonist = None;
                    own.left[Work::Colony.index()] = 0;
                    own.built[Work::Colony.index()] = 0;
                    own.wood.works[Work::Colony.index()] = 0;
                    own.wood.building[Work::Colony.index()] = 0;
                } else {
                    assert_eq!(w.built(Work::Colony) + w.left[Work::Colony.index()], 0);
                }
                if !g.majors.contains(&(c as CountryId)) {
                    assert_eq!(own, Works::default(), "referee country {c}");
                }
                for work in WORKS.into_iter().filter(|&w| w != Work::Colony) {
                    let mut fewer = *w;
                    if fewer.built[work.index()] > 0 {
                        fewer.built[work.index()] -= 1;
                        assert!(works::allowed(&g, c as CountryId, work, &fewer), "{work:?}");
                    }
                }
            }
            assert!(st.counts.works_finished <= st.counts.works_started);
        });
        assert!(started > 0 && finished > 0 && output > 0.0, "{policy:?}");
    }
}
