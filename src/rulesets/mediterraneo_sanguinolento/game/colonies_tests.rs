//! Tests of colonies, naval bases and ports (digest §4.7, `colonies.rs`, `works.rs`, `naval.rs`):
//! the printed prices and yields by hand, the PV rows of builder and host, the +10 on the
//! builder's diplomacy rolls, where a colony may stand and what becomes of it (both options), the
//! naval base's doubled cap and the refusal of battle, the port where a coast has no city, and
//! whole games with the options switched keeping the invariants.

use super::diplomacy::{self, CLIENT, EQUAL_TRADE};
use super::economy;
use super::fleets;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::naval;
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, DEN, MAD, MAN, MET, PIE, POB};
use super::state::{State, R};
use super::works::{self, Work, Works};
use super::{colonies, Game};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn rich(st: &mut State, c: CountryId) {
    let s = &mut st.nations[c as usize].stock;
    for r in [DEN, PIE, MAD, MET] {
        s[r] = 100_000;
    }
    s[POB] = 1_000;
}

fn months(g: &Game, st: &mut State, n: u8) {
    for _ in 0..n {
        works::month(g, st, &[false; 256]);
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

/// Roma's colony founded where its defaults choose, in a rich Roma: (state, host).
fn founded(g: &Game) -> (State, CountryId) {
    let roma = country(g, "Roma");
    let mut st = g.start.clone();
    rich(&mut st, roma);
    let host = colonies::host(g, &st, roma, &Scripted::defaults()).expect("Roma reaches hosts");
    works::start_at(&mut st, roma, host, Work::Colony);
    (st, host)
}

#[test]
fn a_colony_costs_a_city_and_200_settlers_and_yields_as_a_city_to_its_builder() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut before = g.start.clone();
    rich(&mut before, roma);
    let (mut st, host) = founded(&g);
    let paid = |r: usize, st: &State| {
        before.nations[roma as usize].stock[r] - st.nations[roma as usize].stock[r]
    };
    // L3862: a city's price (1,500 DEN + 1,500 PIE and/or MAD, stone first) and 200 POB.
    assert_eq!(
        [
            paid(DEN, &st),
            paid(PIE, &st),
            paid(MAD, &st),
            paid(POB, &st)
        ],
        [1500, 1500, 0, 200]
    );
    assert_eq!(st.works[host as usize].colonist, Some(roma));
    let plain_roma = collected(&g, &st, roma);
    let plain_host = collected(&g, &st, host);
    let (pv0, idr0) = (st.nations[roma as usize].pv, st.nations[roma as usize].idr);
    let (hpv0, hidr0) = (st.nations[host as usize].pv, st.nations[host as usize].idr);
    let r0 = diplomacy::relation(&g, &st, roma, host).unwrap();
    let standing0 = diplomacy::standing_modifier(&g, &st, roma, host, &r0);
    months(&g, &mut st, 11);
    assert_eq!(st.works[host as usize].built(Work::Colony), 0);
    assert_eq!(
        collected(&g, &st, roma),
        plain_roma,
        "nothing before it is finished"
    );
    months(&g, &mut st, 1);
    assert_eq!(st.works[host as usize].built(Work::Colony), 1, "12 months");
    // 150 POB + 150 DEN + 75 MAN (civilized) a collection to the builder, nothing to the host.
    let now = collected(&g, &st, roma);
    let gain: Vec<i64> = (0..R).map(|r| now[r] - plain_roma[r]).collect();
    let mut city = [0i64; R];
    (city[POB], city[DEN], city[MAN]) = (150, 150, 75);
    assert_eq!(gain, city.to_vec());
    assert_eq!(collected(&g, &st, host), plain_host);
    // §4.19: colony construction +4 PV, +150 IDR (C); the host's allowing row by its culture.
    assert_eq!(st.nations[roma as usize].pv - pv0, 4);
    assert_eq!(st.nations[roma as usize].pv_by[super::pv::WORKS], 4);
    assert_eq!(st.nations[roma as usize].idr - idr0, 150);
    let allowing = super::pv::ALLOWING_A_COLONY;
    let hc = g.culture[host as usize];
    assert_eq!(st.nations[host as usize].pv - hpv0, allowing.pv(hc));
    assert_eq!(st.nations[host as usize].idr - hidr0, allowing.idr(hc));
    assert_eq!(
        (
            allowing.pv(Culture::Civilized),
            allowing.idr(Culture::Barbarian)
        ),
        (-1, 150)
    );
    // +10 on Roma's first rolls with its host (L604), with nobody else.
    let r = diplomacy::relation(&g, &st, roma, host).unwrap();
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, host, &r) - standing0,
        10
    );
    let cartago = country(&g, "Cartago");
    let rc = diplomacy::relation(&g, &st, cartago, host).unwrap();
    assert_eq!(colonies::built_in(&st, cartago, host), 0);
    let mut without = st.clone();
    without.works[host as usize] = Works::default();
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, cartago, host, &rc),
        diplomacy::standing_modifier(&g, &without, cartago, host, &rc)
    );
    // The same host takes no second colony.
    assert!(!colonies::may_host(&g, &st, roma, host, true));
}

#[test]
fn only_the_civilized_found_colonies_and_only_where_a_host_allows() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    rich(&mut st, roma);
    let p = Scripted::defaults();
    let host = colonies::host(&g, &st, roma, &p).unwrap();
    // The policy's choice: the weakest treaty first, so a client state is passed over.
    let p_index = g.major_index[roma as usize] as usize;
    let i = diplomacy::at(&st, p_index, host);
    st.relations[i].level = CLIENT;
    let other = colonies::host(&g, &st, roma, &p).unwrap();
    assert_ne!(other, host);
    assert_eq!(diplomacy::relation(&g, &st, roma, other).unwrap().level, 0);
    // A country at war with it, a major, itself: never.
    let i = diplomacy::at(&st, p_index, other);
    st.relations[i].war = true;
    assert_ne!(colonies::host(&g, &st, roma, &p), Some(other));
    for &m in &g.majors {
        assert!(!colonies::may_host(&g, &st, roma, m, true));
    }
    // No settlers, no colony; a policy that founds none; a country not civilized.
    let mut poor = st.clone();
    poor.nations[roma as usize].stock[POB] = colonies::SETTLERS - 1;
    assert_eq!(colonies::host(&g, &poor, roma, &p), None);
    let none = Scripted { colonies: 0.0, ..p };
    assert_eq!(colonies::host(&g, &st, roma, &none), None);
    let mixed = (0..g.culture.len())
        .find(|&c| g.culture[c] != Culture::Civilized)
        .unwrap() as CountryId;
    rich(&mut st, mixed);
    assert_eq!(colonies::host(&g, &st, mixed, &p), None);
    assert!(!works::allowed(&g, mixed, Work::Colony, &Works::default()));
    // Option colony_hosts = treaty: only a treaty partner allows it.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("colony_hosts = \"treaty\""),
    );
    let mut st = g.start.clone();
    rich(&mut st, roma);
    assert_eq!(colonies::host(&g, &st, roma, &p), None);
    let i = diplomacy::at(&st, p_index, host);
    st.relations[i].level = EQUAL_TRADE;
    assert_eq!(colonies::host(&g, &st, roma, &p), Some(host));
}

#[test]
fn a_colony_under_way_falls_with_its_host_and_a_finished_one_by_option_colony_conquest() {
    let cartago_takes = |g: &Game, st: &mut State, host: CountryId| {
        st.lands[host as usize].owner = country(g, "Cartago");
        st.lands[host as usize].collections = 3; // past the conquered POB schedule
    };
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let (mut st, host) = founded(&g);
    months(&g, &mut st, 6);
    cartago_takes(&g, &mut st, host);
    months(&g, &mut st, 6);
    assert_eq!(
        st.works[host as usize],
        Works::default(),
        "lost, and the site free"
    );
    for (option, to_roma) in [("kept", true), ("falls", false)] {
        let g = game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with(&format!("colony_conquest = \"{option}\"")),
        );
        let (mut st, host) = founded(&g);
        months(&g, &mut st, 12);
        let before = [
            collected(&g, &st, roma)[DEN],
            collected(&g, &st, cartago)[DEN],
        ];
        cartago_takes(&g, &mut st, host);
        let after = [
            collected(&g, &st, roma)[DEN],
            collected(&g, &st, cartago)[DEN],
        ];
        let host_den = collected(&g, &g.start, host)[DEN];
        let colony = if to_roma { [0, 0] } else { [-150, 150] };
        assert_eq!(after[0] - before[0], colony[0], "{option}");
        // Cartago collects the host's land, and the colony too when it falls with it.
        assert_eq!(after[1] - before[1] - host_den, colony[1], "{option}");
    }
}

#[test]
fn a_naval_base_doubles_a_ports_cap_scores_its_row_and_lets_its_fleets_refuse_battle() {
    let g = scripted_game();
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let mut st = g.start.clone();
    rich(&mut st, cartago);
    let cities = g.scenario.countries[cartago as usize].cities.len() as f64;
    assert_eq!(fleets::port_cap(&g, &st, cartago), 30.0 * cities);
    let (pv0, idr0) = (
        st.nations[cartago as usize].pv,
        st.nations[cartago as usize].idr,
    );
    works::start(&mut st, cartago, Work::NavalBase);
    months(&g, &mut st, 6);
    // L2691: 60 factors in a base; §4.19: +2 PV, +75 IDR (C).
    assert_eq!(fleets::port_cap(&g, &st, cartago), 30.0 * cities + 30.0);
    assert_eq!(st.nations[cartago as usize].pv - pv0, 2);
    assert_eq!(st.nations[cartago as usize].idr - idr0, 75);
    // At most 2 a country (L2378), never inland.
    let mut two = st.works[cartago as usize];
    assert!(works::allowed(&g, cartago, Work::NavalBase, &two) == (cities >= 2.0));
    two.built[Work::NavalBase.index()] = 2;
    assert!(!works::allowed(&g, cartago, Work::NavalBase, &two));
    let inland = (0..g.scenario.nodes.len())
        .find(|&c| g.scenario.nodes[c].seas == 0 && g.culture[c] == Culture::Civilized)
        .unwrap() as CountryId;
    assert!(!works::allowed(
        &g,
        inland,
        Work::NavalBase,
        &Works::default()
    ));
    // Refusal: weaker than the crossing's fleets by the policy's ratio, and only in a base.
    st.nations[cartago as usize].fleets = 2.0;
    st.nations[cartago as usize].transports = 0.0;
    st.nations[roma as usize].fleets = 3.0;
    st.nations[roma as usize].transports = 0.0;
    let p = Scripted::defaults();
    assert!(naval::refuses(&g, &mut st, &p, cartago, roma));
    assert_eq!(st.counts.naval_battles_refused, 1);
    let never = Scripted {
        refuse_naval: 0.0,
        ..p
    };
    assert!(!naval::refuses(&g, &mut st, &never, cartago, roma));
    st.nations[cartago as usize].fleets = 4.0;
    assert!(
        !naval::refuses(&g, &mut st, &p, cartago, roma),
        "stronger: it fights"
    );
    st.nations[cartago as usize].fleets = 2.0;
    let mut no_base = st.clone();
    no_base.works[cartago as usize].built[Work::NavalBase.index()] = 0;
    assert!(
        !naval::refuses(&g, &mut no_base, &p, cartago, roma),
        "a port must fight"
    );
    st.lands[cartago as usize].owner = roma;
    assert!(
        !naval::refuses(&g, &mut st, &p, cartago, roma),
        "a base lost"
    );
}

#[test]
fn a_port_is_built_only_on_a_coast_without_a_city_and_then_serves_as_one() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    assert!(!works::allowed(&g, roma, Work::Port, &Works::default()));
    let coast = (0..g.scenario.nodes.len()).find(|&c| {
        g.scenario.nodes[c].seas != 0
            && g.scenario.countries[c].cities.is_empty()
            && g.culture[c] != Culture::Barbarian
    });
    let Some(coast) = coast.map(|c| c as CountryId) else {
        // The bundled scenario may have no such coast: the rule then never applies.
        return;
    };
    let mut st = g.start.clone();
    rich(&mut st, coast);
    assert!(!fleets::has_port(&g, &st, coast));
    assert!(works::allowed(
        &g,
        coast,
        Work::Port,
        &st.works[coast as usize]
    ));
    let pv0 = st.nations[coast as usize].pv;
    works::start(&mut st, coast, Work::Port);
    months(&g, &mut st, 6);
    assert!(fleets::has_port(&g, &st, coast));
    assert_eq!(fleets::port_cap(&g, &st, coast), 30.0);
    assert_eq!(
        st.nations[coast as usize].pv - pv0,
        super::pv::PER_PORT_BUILT.pv(g.culture[coast as usize])
    );
    assert!(!works::allowed(
        &g,
        coast,
        Work::Port,
        &st.works[coast as usize]
    ));
}

#[test]
fn a_rich_civilized_major_founds_a_colony_when_it_pays_back() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[roma as usize] = Scripted {
        reserve: 0,
        ..Scripted::defaults()
    };
    let mut st = g.start.clone();
    rich(&mut st, roma);
    let (chosen, n) = works::planned(&g, &st, roma, &plans[roma as usize]);
    assert!(chosen[..n].contains(&Work::Colony), "{:?}", &chosen[..n]);
    let host = colonies::host(&g, &st, roma, &plans[roma as usize]).unwrap();
    works::constructions(&g, &mut st, &plans);
    let hosts: Vec<_> = (0..st.works.len() as CountryId)
        .filter(|&t| st.works[t as usize].colonist == Some(roma))
        .collect();
    assert_eq!(hosts, [host]);
    // Without the policy, or with a payback it cannot meet, none.
    for p in [
        Scripted {
            colonies: 0.0,
            ..plans[roma as usize]
        },
        Scripted {
            works_payback: 1.0,
            ..plans[roma as usize]
        },
    ] {
        let (chosen, n) = works::planned(&g, &st, roma, &p);
        assert!(!chosen[..n].contains(&Work::Colony));
    }
}

#[test]
fn whole_games_with_colonies_and_both_options_switched_keep_the_invariants() {
    let g = game_with(
        Policy::Random,
        &options_with("colony_hosts = \"treaty\"\ncolony_conquest = \"falls\""),
    );
    play_checked(&g, 31, 60, "colonies", |_, play, _| {
        for w in &play.st.works {
            assert!(w.built(Work::Colony) <= 1);
            assert_eq!(
                w.colonist.is_some(),
                w.built(Work::Colony) + w.left[Work::Colony.index()] > 0
            );
        }
    });
}
