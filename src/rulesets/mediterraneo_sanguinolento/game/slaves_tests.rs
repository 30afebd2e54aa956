//! Slaves (digest §4.1 L833-L835, §3.2.12, L3576, §4.19 "Each 100 ESC freed"; `slaves.rs`): the
//! 1 in 50 of a beaten side's casualties and a surrendered garrison's men by hand, the works'
//! month saved or 5% and the 75% lost, the freeing row by culture, the policy's choices, and whole
//! games keeping the invariants with every slave accounted for.

use super::battles::{self, Fought, Side};
use super::game_tests::{country, game_with, options, options_with, play_checked, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CountryId, COM, DEN, ESC, MAD, MET, PIE, POB};
use super::slaves;
use super::state::{Mission, State, NO_UNITS};
use super::works::{self, Work};
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, NoLog};
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

fn plan(slaves_freed: f64, slaves_on_works: f64) -> Scripted {
    Scripted {
        slaves_freed,
        slaves_on_works,
        ..Scripted::defaults()
    }
}

fn side(country: CountryId, units: f64) -> Side {
    let mut u = NO_UNITS;
    u[0] = units;
    Side::new(country, u, super::leaders::Lead::UNNAMED)
}

/// The winner of a field battle takes 1 in 50 of the loser's casualties (whole men), nothing of
/// its own; a beaten side takes none; settling the fight credits them to the winner.
#[test]
fn the_winner_takes_one_in_fifty_of_the_losers_casualties() {
    let g = scripted_game();
    let (a, d) = (country(&g, "Celtiberia"), country(&g, "Cerdeña"));
    let mut dice = Dice::for_trial(5, 0, 0);
    let mut decided = 0;
    for _ in 0..60 {
        let sides = [side(a, 6.0), side(d, 4.0)];
        let f = battles::field_battle(
            &g,
            d,
            false,
            super::weather::Weather::Clear,
            sides,
            &mut dice,
        );
        let Some(w) = f.winner else {
            assert_eq!(f.slaves, [0.0, 0.0]);
            continue;
        };
        decided += 1;
        assert_eq!(f.slaves[w], (f.men_lost[1 - w] / 50.0).floor(), "{f:?}");
        assert_eq!(f.slaves[1 - w], 0.0);
        let mut st = g.start.clone();
        let before = [a, d].map(|c| st.nations[c as usize].stock[ESC]);
        military::settle(&g, &mut st, a, d, &f, None);
        let winner = [a, d][w];
        assert_eq!(
            st.nations[winner as usize].stock[ESC] - before[w],
            f.slaves[w] as i64
        );
        assert_eq!(st.nations[[a, d][1 - w] as usize].stock[ESC], before[1 - w]);
        assert_eq!(st.counts.slaves_taken, f.slaves[w]);
    }
    assert!(decided > 30, "{decided} decided fights");
}

/// By hand: 1,850 casualties give the winner 37 slaves (a fraction of one is nobody).
#[test]
fn settling_a_fight_by_hand() {
    let g = scripted_game();
    let (a, d) = (country(&g, "Roma"), country(&g, "Cartago"));
    let f = Fought {
        winner: Some(1),
        men_lost: [1850.0, 20.0],
        slaves: [0.0, (1850.0f64 / 50.0).floor()],
        ..Fought::default()
    };
    let mut st = g.start.clone();
    let esc = st.nations[d as usize].stock[ESC];
    military::settle(&g, &mut st, a, d, &f, None);
    assert_eq!(st.nations[d as usize].stock[ESC] - esc, 37);
    assert_eq!(st.ledger.gained[ESC], 37);
}

/// A garrison that starves surrenders to the siege (a second month without food): its men are
/// the taker's slaves, man for man (L3576), and the country is the taker's.
#[test]
fn a_surrendered_garrison_becomes_the_takers_slaves() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let t = *g.neighbours[roma as usize]
        .iter()
        .find(|&&t| !g.majors.contains(&t))
        .unwrap();
    let mut st = g.start.clone();
    // More men than the city's POB and no food: hungry the first month, surrendered the second.
    let pob = g.scenario.production[t as usize][POB] as f64;
    let mpu = g.men_per_unit(t);
    let mut garrison = NO_UNITS;
    garrison[0] = ((pob + 1000.0) / mpu[0]).ceil();
    *military::garrison_mut(&mut st, t) = garrison;
    st.nations[t as usize].stock[COM] = 0;
    st.lands[t as usize].militia = 0.0;
    let men = State::men(&garrison, &mpu);
    let n = &mut st.nations[roma as usize];
    n.field = [20.0, 0.0, 0.0];
    n.at = t;
    n.supply.food = 100_000;
    n.mission = Mission::Siege {
        target: t,
        months: 1,
    };
    let esc = n.stock[ESC];
    let plans = vec![
        Scripted {
            siege_months: 12,
            ..Scripted::defaults()
        };
        g.scenario.countries.len()
    ];
    let mut dice = Dice::for_trial(1, 0, 0);
    military::month(&g, &mut st, &plans, 5, &mut dice, &mut NoLog);
    assert_eq!(st.counts.surrenders, 1);
    assert_eq!(st.lands[t as usize].owner, roma);
    assert_eq!(
        st.nations[roma as usize].stock[ESC] - esc,
        men.floor() as i64
    );
    assert_eq!(st.counts.slaves_taken, men.floor());
}

fn rich(st: &mut State, c: CountryId, esc: i64) {
    let s = &mut st.nations[c as usize].stock;
    for r in [DEN, PIE, MAD, MET] {
        s[r] = 100_000;
    }
    s[ESC] = esc;
}

/// Each lot of 100 slaves ends a work a month sooner, at most all its months but one; 75% of them
/// are lost when it ends, the rest come home; the policy's share of its whole lots goes on it.
#[test]
fn slaves_on_a_work_end_it_sooner_and_three_quarters_die() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let none = [false; 256];
    // 250 ESC: 2 whole lots, all on a new city (12 months): 10 months, 50 ESC left at home.
    let mut st = g.start.clone();
    rich(&mut st, roma, 250);
    works::start(&mut st, roma, Work::City);
    slaves::on_work(&g, &mut st, roma, &plan(0.0, 1.0), Work::City);
    assert_eq!(st.works[roma as usize].left[Work::City.index()], 10);
    assert_eq!(st.nations[roma as usize].stock[ESC], 50);
    assert_eq!(st.counts.slaves_on_works, 200.0);
    for _ in 0..9 {
        works::month(&g, &mut st, &none);
    }
    assert_eq!(st.works[roma as usize].built(Work::City), 0);
    works::month(&g, &mut st, &none);
    assert_eq!(st.works[roma as usize].built(Work::City), 1);
    // 25 of each 100 survive (L835): 50 more at home.
    assert_eq!(st.nations[roma as usize].stock[ESC], 100);
    assert_eq!(st.works[roma as usize].slaves, [0; works::TYPES]);
    // Half the lots of 2,000 ESC on an enlargement (6 months): 10 lots, capped at 5 (a month).
    let mut st = g.start.clone();
    rich(&mut st, roma, 2000);
    works::start(&mut st, roma, Work::Enlargement);
    slaves::on_work(&g, &mut st, roma, &plan(0.0, 0.5), Work::Enlargement);
    assert_eq!(st.works[roma as usize].left[Work::Enlargement.index()], 1);
    assert_eq!(st.nations[roma as usize].stock[ESC], 1500);
    // A share of nothing puts none on it.
    let mut st = g.start.clone();
    rich(&mut st, roma, 2000);
    works::start(&mut st, roma, Work::Enlargement);
    slaves::on_work(&g, &mut st, roma, &plan(1.0, 0.0), Work::Enlargement);
    assert_eq!(st.works[roma as usize].left[Work::Enlargement.index()], 6);
    assert_eq!(st.nations[roma as usize].stock[ESC], 2000);
}

/// Option slaves_on_works_effect = "cost": each lot gives back 5% of the work's price (DEN and
/// materials), the months unchanged; the work's wood is what was paid net.
#[test]
fn option_cost_gives_five_percent_back_a_lot() {
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("slaves_on_works_effect = \"cost\""),
    );
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    rich(&mut st, roma, 300);
    // Stone pays a city's 1,500 "PIE y/o MAD" first.
    let before = st.nations[roma as usize].stock;
    works::start(&mut st, roma, Work::City);
    slaves::on_work(&g, &mut st, roma, &plan(0.0, 1.0), Work::City);
    let after = st.nations[roma as usize].stock;
    // 3 lots: 15% of 1,500 DEN and of 1,500 PIE back.
    assert_eq!(before[DEN] - after[DEN], 1500 - 225);
    assert_eq!(before[PIE] - after[PIE], 1500 - 225);
    assert_eq!(before[MAD], after[MAD]);
    assert_eq!(after[ESC], 0);
    assert_eq!(st.works[roma as usize].left[Work::City.index()], 12);
    // Twenty lots are capped at 19: 95% back.
    let mut st = g.start.clone();
    rich(&mut st, roma, 2000);
    let before = st.nations[roma as usize].stock;
    works::start(&mut st, roma, Work::Enlargement);
    slaves::on_work(&g, &mut st, roma, &plan(0.0, 1.0), Work::Enlargement);
    let after = st.nations[roma as usize].stock;
    assert_eq!(before[DEN] - after[DEN], 500 - 475);
    assert_eq!(after[ESC], 100);
}

/// Freeing: the policy's share of its whole lots, each lot the §4.19 row by the major's culture
/// (0 / 1 / 1 PV, 80 / 100 / 110 IDR); the referee's countries free none.
#[test]
fn freeing_scores_the_row_by_culture() {
    let mut g = scripted_game();
    // The majors' cultures spread over the three columns (the placeholder majors share few).
    let all = [Culture::Barbarian, Culture::Mixed, Culture::Civilized];
    for (i, &c) in g.majors.iter().enumerate() {
        g.culture[c as usize] = all[i % 3];
    }
    assert_eq!(pv::ESC_FREED.pv, [0, 1, 1]);
    assert_eq!(pv::ESC_FREED.idr, [80, 100, 110]);
    let mut cultures = std::collections::BTreeSet::new();
    for share in [1.0, 0.5] {
        let mut st = g.start.clone();
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        for &c in &g.majors {
            plans[c as usize] = plan(share, 0.0);
        }
        for n in st.nations.iter_mut() {
            n.stock[ESC] = 450;
        }
        let before = st.clone();
        slaves::free(&g, &mut st, &plans);
        for c in 0..st.nations.len() {
            let (b, a) = (&before.nations[c], &st.nations[c]);
            if !g.majors.contains(&(c as CountryId)) {
                assert_eq!((a.stock[ESC], a.pv, a.idr), (450, b.pv, b.idr));
                continue;
            }
            // 4 whole lots: all 4, or half of them.
            let lots = if share == 1.0 { 4 } else { 2 };
            let (pv_each, idr_each) = match g.culture[c] {
                Culture::Barbarian => (0, 80),
                Culture::Mixed => (1, 100),
                Culture::Civilized => (1, 110),
            };
            cultures.insert(pv::column(g.culture[c]));
            assert_eq!(a.stock[ESC], 450 - 100 * lots);
            assert_eq!(a.pv - b.pv, pv_each * lots as i32);
            assert_eq!(a.pv_by[pv::SLAVES], pv_each * lots as i32);
            assert_eq!(a.idr - b.idr, idr_each * lots as i32);
        }
    }
    assert_eq!(cultures.len(), 3, "majors of every culture");
}

/// The black market leaves a major the share of its slaves it frees (rounded up: they wait to
/// make whole lots) and the lots it puts on works, never more than it holds; nothing to a policy
/// that does neither, nor lots for works to one that builds nothing.
#[test]
fn the_market_keeps_the_slaves_to_free_and_for_works() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].stock[ESC] = 350;
    let kept = |p: &Scripted| super::trade::kept(&g, &st, roma, p, ESC);
    assert_eq!(kept(&plan(0.0, 1.0)), 300);
    assert_eq!(kept(&plan(0.0, 0.5)), 100);
    assert_eq!(kept(&plan(0.0, 0.0)), 0);
    assert_eq!(kept(&plan(1.0, 0.0)), 350);
    assert_eq!(kept(&plan(0.3, 0.0)), 105);
    assert_eq!(kept(&plan(0.3, 0.5)), 205);
    assert_eq!(kept(&plan(1.0, 1.0)), 350);
    let idle = Scripted {
        works_share: 0.0,
        ..plan(0.0, 1.0)
    };
    assert_eq!(kept(&idle), 0);
}

/// Over whole games (random players; the scripted defaults, which free every lot; and a policy
/// that puts every lot on its works): the invariants hold, slaves are taken, and every slave
/// gained was taken, enslaved or came back from a work.
#[test]
fn whole_games_account_for_every_slave() {
    for (policy, games) in [
        (Policy::Random, 120u64),
        (Policy::Scripted(Scripted::defaults()), 80),
        (Policy::Scripted(plan(0.0, 1.0)), 80),
    ] {
        let g: Game = game_with(policy, &options());
        let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
        let (mut taken, mut freed, mut on_works) = (0.0, 0.0, 0.0);
        play_checked(&g, 41, games, "slaves", |_, play, r| {
            let st = &play.st;
            let c = &st.counts;
            assert_eq!(r.extra[column("slaves_taken")], c.slaves_taken);
            // Lots on the works under way, and the survivors of those that ended.
            let held: i64 = st
                .works
                .iter()
                .map(|w| w.slaves.iter().map(|&n| n as i64).sum::<i64>())
                .sum();
            let ended = c.slaves_on_works as i64 / slaves::LOT - held;
            assert!(ended >= 0);
            let survivors = slaves::survivors(ended);
            // Captives and the POB enslaved (`enslave.rs`, random players) are the sources.
            let sourced = c.slaves_taken + c.pob_enslaved;
            assert!(
                st.ledger.gained[ESC] as f64 <= sourced + survivors as f64 + 1e-9
                    && st.ledger.gained[ESC] as f64 >= sourced,
                "gained {} taken {} survivors {survivors}",
                st.ledger.gained[ESC],
                c.slaves_taken
            );
            assert!(st.ledger.spent[ESC] as f64 >= c.slaves_freed + c.slaves_on_works);
            taken += c.slaves_taken;
            freed += c.slaves_freed;
            on_works += c.slaves_on_works;
        });
        assert!(taken > 0.0, "{policy:?}: slaves taken");
        match policy {
            Policy::Random => assert!(freed > 0.0 && on_works > 0.0),
            Policy::Scripted(p) if p.slaves_freed > 0.0 => assert!(freed > 0.0 && on_works == 0.0),
            Policy::Scripted(_) => assert!(freed == 0.0 && on_works > 0.0),
        }
    }
}
