//! Tests of damaged ships, repairs and captures (`repairs.rs`, digest §3.5.3, §3.5.5, A29, A32,
//! L2459) and of recruitment centres (`recruiting.rs`, §4.5.9 method 1): the printed repair
//! price, the capture counts under both readings of A32, the ships a naval battle settles, a
//! port's fleets going to its taker, a recruitment centre's cost, delay and the host's POB, and
//! whole games in which every new counter moves keeping the invariants.

use super::diplomacy;
use super::fleets;
use super::game_tests::{country, game_with, options, options_with, play_checked};
use super::naval::{self, Squadron};
use super::policy::{Policy, Scripted};
use super::recruiting::{self, Centre, NO_HOST};
use super::repairs::{self, Captures, PIRATE, TRANSPORT, WAR};
use super::scenario::{CAB, DEN, MAD, MET, POB};
use super::state::R;
use crate::dice::Dice;
use crate::game::{GameModel, NoLog};
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// L2699 on the printed costs (digest §3.1.3: FT 300 POB, 200 DEN, 400 MET, 400 MAD; FG 200, 100,
/// 200, 200) and the regular crews' morale costs (L1740: C 300, irregular D 50).
#[test]
fn a_repair_pays_a_tenth_a_third_and_a_quarter_per_group_of_three_ships() {
    let ft = data().fleet("FT").unwrap();
    let p = repairs::repair_price(ft, fleets::CREW_CLASS, true, false);
    // 1/10 of 200 DEN + a quarter of the crew's 300 morale (75); 1/3 of 400 rounded up; 300 / 4.
    assert_eq!((p[DEN], p[MAD], p[MET], p[POB]), (20 + 75, 134, 134, 75));
    assert_eq!(p.iter().sum::<i64>(), 95 + 134 + 134 + 75, "nothing else");
    let whole = repairs::repair_price(ft, fleets::CREW_CLASS, true, true);
    assert_eq!(whole[DEN], 20 + 300);
    let fg = data().fleet("FG").unwrap();
    let pirate = repairs::repair_price(fg, fleets::PIRATE_CLASS, false, false);
    assert_eq!(
        (pirate[DEN], pirate[MAD], pirate[MET], pirate[POB]),
        (10 + 13, 67, 67, 50)
    );
    // Crewing a captured ship pays its tenth of the crew's morale only (L2459).
    assert_eq!(repairs::crewing_price(ft, 10.0), 300);
    assert_eq!(repairs::crewing_price(ft, 4.0), 120);
    assert_eq!(repairs::crewing_price(ft, 1.0), 30);
}

/// The repair phase: 7 damaged ships are 3 groups (3 + 3 + 1); a policy share of 0.5 repairs
/// 2 groups (6 ships); the stocks pay exactly the groups' price; nothing without a port.
#[test]
fn the_repair_phase_pays_by_groups_and_returns_the_ships() {
    let g = game_with(Policy::Scripted(Scripted::defaults()), &options());
    let roma = country(&g, "Roma");
    let ft = g.scenario.fleet.unwrap();
    let price = repairs::repair_price(ft, fleets::CREW_CLASS, true, false);
    for (share, groups, ships) in [(1.0, 3, 7.0), (0.5, 2, 6.0), (0.0, 0, 0.0)] {
        let mut st = g.start.clone();
        let plans = vec![
            Scripted {
                repair_ships: share,
                reserve: 0,
                ..Scripted::defaults()
            };
            st.nations.len()
        ];
        st.nations[roma as usize].stock = [100_000; R];
        st.nations[roma as usize].docks.damaged[WAR] = 7.0;
        let fleets_before = st.nations[roma as usize].fleets;
        let afloat = fleets::ships_afloat(&st);
        repairs::phase(&g, &mut st, &plans);
        let n = &st.nations[roma as usize];
        assert_eq!(n.docks.damaged[WAR], 7.0 - ships, "share {share}");
        assert!((n.fleets - fleets_before - ships / 10.0).abs() < 1e-9);
        for r in [POB, MAD, MET] {
            assert_eq!(
                n.stock[r],
                100_000 - groups * price[r],
                "share {share} r {r}"
            );
        }
        assert_eq!(
            fleets::ships_afloat(&st),
            afloat,
            "repairs move ships, never add"
        );
        assert_eq!(st.counts.repair_groups, groups as u32);
    }
    // A country whose home port has fallen repairs nothing.
    let mut st = g.start.clone();
    let plans = vec![Scripted::defaults(); st.nations.len()];
    st.nations[roma as usize].docks.damaged[WAR] = 3.0;
    st.lands[roma as usize].owner = country(&g, "Cartago");
    repairs::phase(&g, &mut st, &plans);
    assert_eq!(st.nations[roma as usize].docks.damaged[WAR], 3.0);
}

/// A32 under both readings: "loser" = only the winner takes (the loser's boarded ships), none
/// without a winner; "both" = each side takes what it boarded.
#[test]
fn boarding_captures_follow_a32_under_both_readings() {
    let boarded = [2.0, 3.0];
    assert_eq!(
        repairs::captures(boarded, Some(0), Captures::Loser),
        [3.0, 0.0]
    );
    assert_eq!(
        repairs::captures(boarded, Some(1), Captures::Loser),
        [0.0, 2.0]
    );
    assert_eq!(repairs::captures(boarded, None, Captures::Loser), [0.0; 2]);
    for w in [Some(0), Some(1), None] {
        assert_eq!(repairs::captures(boarded, w, Captures::Both), [3.0, 2.0]);
    }
    // Of 7 ships out of action among 2 fleets and 1 transport fleet, 3 handed over: by kind.
    assert_eq!(repairs::split([2.0, 1.0], 7.0), [5.0, 2.0]);
    assert_eq!(repairs::handed_over([2.0, 1.0], 7.0, 3.0), [2.0, 1.0]);
    assert_eq!(repairs::split([0.0, 0.0], 4.0), [0.0; 2]);
}

/// Naval battles in the game (Roma's crossing fleets against Cartago's at home) under each
/// reading: the battles are the same (the options are the game's, not the battle code's); ships
/// move between the sides or are lost, never appear; under "loser" only the winner ever takes
/// ships and "both" takes at least as many; under naval_losses = sunk nothing is damaged.
#[test]
fn naval_battles_settle_damaged_boarded_and_sunk_ships() {
    let mut totals = Vec::new();
    for text in [
        "boarding_captures = \"loser\"",
        "boarding_captures = \"both\"",
        "naval_losses = \"sunk\"",
    ] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
        let (mut boarded, mut damaged, mut lost_total) = (0.0, 0.0, 0.0);
        for seed in 0..300 {
            let mut st = g.start.clone();
            st.nations[roma as usize].fleets = 5.0;
            st.nations[cartago as usize].fleets = 5.0;
            let before = fleets::ships_afloat(&st);
            let mut dice = Dice::for_trial(77, 0, seed);
            let won = naval::naval_battle(
                &g,
                &mut st,
                roma,
                Squadron::Army,
                cartago,
                roma,
                cartago,
                7,
                &mut dice,
                &mut NoLog,
            );
            let after = fleets::ships_afloat(&st) + st.ledger.ships_lost;
            assert!((after - before).abs() < 1e-6, "{text} seed {seed}");
            let (r, c) = (&st.nations[roma as usize], &st.nations[cartago as usize]);
            if text.contains("loser") {
                let winner_took = if won { r } else { c };
                let other = if won { c } else { r };
                assert_eq!(
                    other.docks.taken, 0.0,
                    "{text} seed {seed}: the loser takes none"
                );
                assert!(winner_took.docks.taken >= 0.0);
            }
            if text.contains("sunk") {
                assert_eq!(st.counts.ships_damaged, 0.0);
            }
            boarded += st.counts.ships_boarded;
            damaged += st.counts.ships_damaged;
            lost_total += st.ledger.ships_lost;
        }
        totals.push((boarded, damaged, lost_total));
    }
    let (loser, both, sunk) = (totals[0], totals[1], totals[2]);
    assert!(
        loser.0 > 0.0 && loser.1 > 0.0,
        "boarding and damage happen: {totals:?}"
    );
    assert!(both.0 >= loser.0, "{totals:?}");
    assert_eq!(sunk.1, 0.0);
    assert!(
        sunk.2 > loser.2,
        "sunk loses the damaged ships too: {totals:?}"
    );
}

/// L2459: a home port taken by a siege or an assault gives every ship in it to the taker,
/// uncrewed; crewing them costs the crews' morale only.
#[test]
fn a_port_taken_gives_its_fleets_to_the_taker_uncrewed() {
    let g = game_with(Policy::Scripted(Scripted::defaults()), &options());
    let (roma, cartago) = (country(&g, "Roma"), country(&g, "Cartago"));
    let mut st = g.start.clone();
    let n = &mut st.nations[cartago as usize];
    n.fleets = 2.0;
    n.transports = 1.0;
    n.pirates = 0.5;
    n.docks.damaged = [2.0, 1.0, 1.0];
    n.docks.uncrewed = [3.0, 0.0];
    let afloat = fleets::ships_afloat(&st);
    let before = st.nations[roma as usize].docks;
    repairs::port_taken(&mut st, roma, cartago);
    let (r, c) = (&st.nations[roma as usize], &st.nations[cartago as usize]);
    assert_eq!(
        r.docks.uncrewed[WAR] - before.uncrewed[WAR],
        20.0 + 5.0 + 2.0 + 1.0 + 3.0
    );
    assert_eq!(
        r.docks.uncrewed[TRANSPORT] - before.uncrewed[TRANSPORT],
        11.0
    );
    assert_eq!(
        (c.fleets, c.transports, c.pirates, c.docks.ships()),
        (0.0, 0.0, 0.0, 0.0)
    );
    assert_eq!(fleets::ships_afloat(&st), afloat);
    assert_eq!(st.counts.ships_taken_in_port, 42.0);
    // Roma crews them all: 31 warfleet ships and 11 transports at their crews' morale only.
    let mut plans = vec![Scripted::defaults(); st.nations.len()];
    plans[roma as usize].reserve = 0;
    st.nations[roma as usize].stock[DEN] = 1_000_000;
    let stock = st.nations[roma as usize].stock;
    let fleets_before = st.nations[roma as usize].fleets;
    repairs::phase(&g, &mut st, &plans);
    let r = &st.nations[roma as usize];
    let ft = g.scenario.fleet.unwrap();
    let ftr = fleets::transport();
    assert_eq!(
        stock[DEN] - r.stock[DEN],
        repairs::crewing_price(ft, 31.0) + repairs::crewing_price(ftr, 11.0)
    );
    for res in [POB, MAD, MET] {
        assert_eq!(r.stock[res], stock[res], "crewing pays no {res}");
    }
    assert!((r.fleets - fleets_before - 3.1).abs() < 1e-9);
    assert_eq!(r.docks.uncrewed, [0.0; 2]);
    assert_eq!(PIRATE, 2);
}

/// §4.5.9 method 1: permission by treaty, the recruiter's 100 DEN and horse, +50% DEN and -50%
/// MET a unit, at most the host's one-collection POB taken from its POB, delivered 2 turns later
/// (or the next turn under "rehire"), no new hire there for 2 turns.
#[test]
fn a_recruitment_centre_hires_the_hosts_troops_at_its_price_and_delay() {
    for (text, arrival) in [
        ("recruitment_wait = \"delivery\"", 7),
        ("recruitment_wait = \"rehire\"", 6),
    ] {
        let g = game_with(Policy::Scripted(Scripted::defaults()), &options_with(text));
        let roma = country(&g, "Roma");
        let p = g.major_index[roma as usize] as usize;
        let host = country(&g, "Etruria");
        let mut st = g.start.clone();
        let plans = {
            let mut v = vec![Scripted::referee(); st.nations.len()];
            v[roma as usize] = Scripted {
                recruitment_centre: 1.0,
                reserve: 0,
                ..Scripted::defaults()
            };
            v
        };
        // No treaty: no permission.
        recruiting::phase(&g, &mut st, &plans, 5, 9);
        assert_eq!(st.counts.centre_hires, 0);
        let i = diplomacy::at(&st, p, host);
        st.relations[i].level = diplomacy::NON_AGGRESSION;
        st.nations[roma as usize].stock = [1_000_000; R];
        st.nations[host as usize].pob_collected = 1000;
        st.nations[host as usize].stock[POB] = 5000;
        // Other countries' POB out of the way: the host is the only one with POB available.
        for (c, n) in st.nations.iter_mut().enumerate() {
            if c != host as usize {
                n.stock[POB] = 0;
            }
        }
        let k = (0..g.nkinds[host as usize] as usize)
            .max_by(|&a, &b| {
                g.kinds[host as usize][a]
                    .factor
                    .total_cmp(&g.kinds[host as usize][b].factor)
            })
            .unwrap();
        let kind = g.kinds[host as usize][k];
        let units = (1000.0 / kind.men).floor() as i64;
        // 150% and 50%, rounded up.
        let den = (kind.cost[DEN] * 3 + 1) / 2;
        let met = (kind.cost[MET] + 1) / 2;
        let stock = st.nations[roma as usize].stock;
        recruiting::phase(&g, &mut st, &plans, 5, 9);
        let r = &st.nations[roma as usize];
        assert_eq!(st.counts.recruiters_sent, 1, "{text}");
        assert_eq!(st.counts.centre_units_hired, units as f64);
        assert_eq!(stock[DEN] - r.stock[DEN], 100 + units * den);
        assert_eq!(stock[MET] - r.stock[MET], units * met);
        assert_eq!(stock[CAB] - r.stock[CAB], 1 + units * kind.cost[CAB]);
        assert_eq!(r.stock[POB], stock[POB], "the host's POB, not Roma's");
        assert_eq!(
            st.nations[host as usize].stock[POB],
            5000 - units * kind.men as i64
        );
        let centre = r.centres.iter().find(|x| x.host == host).copied().unwrap();
        assert_eq!(centre.arrives, arrival);
        assert_eq!(centre.next_hire, 7);
        // Not there yet at turn 5; on the way at turn 6 (no new hire there either).
        let men = st.ledger.men_raised;
        let hires = st.counts.centre_hires;
        if arrival == 7 {
            recruiting::phase(&g, &mut st, &plans, 6, 11);
            assert_eq!(st.counts.centre_units_delivered, 0.0);
            assert_eq!(st.counts.centre_hires, hires, "no hire before 2 turns");
        }
        recruiting::phase(&g, &mut st, &plans, arrival, 2 * arrival - 1);
        assert_eq!(st.counts.centre_units_delivered, units as f64, "{text}");
        assert_eq!(st.ledger.men_raised - men, units as f64 * kind.men);
        let band = st.nations[roma as usize]
            .mercs
            .iter()
            .find(|b| b.source == super::mercenaries::Source::Recruited(host, k as u8))
            .copied()
            .unwrap();
        assert_eq!((band.units, band.price), (units as f64, units * den));
        if arrival == 6 {
            assert_eq!(st.counts.centre_hires, hires, "rehire: not before turn 7");
        }
    }
    // "client": a non-aggression treaty is no permission; a client state's is.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("recruitment_permission = \"client\""),
    );
    let roma = country(&g, "Roma");
    let host = country(&g, "Etruria");
    let p = g.major_index[roma as usize] as usize;
    let mut st = g.start.clone();
    let plans = vec![
        Scripted {
            recruitment_centre: 1.0,
            ..Scripted::defaults()
        };
        st.nations.len()
    ];
    st.nations[roma as usize].stock = [1_000_000; R];
    let i = diplomacy::at(&st, p, host);
    st.relations[i].level = diplomacy::DEFENSIVE;
    recruiting::phase(&g, &mut st, &plans, 5, 9);
    assert!(st.nations[roma as usize]
        .centres
        .iter()
        .all(|c| c.host == NO_HOST));
    st.relations[i].level = diplomacy::CLIENT;
    st.nations[host as usize].stock[POB] = 2000;
    recruiting::phase(&g, &mut st, &plans, 5, 9);
    assert!(st.nations[roma as usize]
        .centres
        .iter()
        .any(|c| *c != Centre::NONE));
}

/// A few hundred games in which every new counter moves (keen repairs and recruitment, envoys
/// for treaties, warfleets to fight at sea), each keeping the invariants (ships, men, resources
/// and money change only through the rules' sources and sinks).
#[test]
fn whole_games_with_repairs_captures_and_recruitment_keep_the_invariants() {
    let keen = Scripted {
        repair_ships: 1.0,
        recruitment_centre: 1.0,
        envoys: 3,
        overseas: 1.0,
        warfleets_per_city: 3.0,
        transports: 4,
        ..Scripted::defaults()
    };
    const FIRST: &str = "ships_damaged";
    const NEW: usize = 14;
    let mut totals = [0.0f64; NEW];
    for (policy, games) in [(Policy::Scripted(keen), 200u64), (Policy::Random, 200)] {
        let g = game_with(policy, &options());
        let first = g.game_columns().iter().position(|c| *c == FIRST).unwrap();
        play_checked(&g, 41, games, &format!("{policy:?}"), |_, _, r| {
            for (j, t) in totals.iter_mut().enumerate() {
                *t += r.extra[first + j];
            }
        });
    }
    let first = super::GAME_COLUMNS
        .iter()
        .position(|c| *c == FIRST)
        .unwrap();
    let names = &super::GAME_COLUMNS[first..first + NEW];
    for (name, t) in names.iter().zip(totals) {
        assert!(t > 0.0, "{name} never moved: {totals:?}");
    }
}
