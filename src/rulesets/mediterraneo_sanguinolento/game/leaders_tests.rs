//! Tests of the game's leaders: the digest's examples (T1 the terrain roll's shifts, T2 the
//! notation, D7 promotion, D8 death and wounds, D12 the new-leader search), the fights under
//! commanders against the battle code's exact answer, command, succession, the command limit,
//! and that leaders fight, fall and rise in whole games.

use super::battles::{self, Fought, Side};
use super::game_tests::{country, game_with, options, options_with, scripted_game};
use super::leaders::{self, Lead, Leader, Who, MAX_LEADERS};
use super::policy::{Policy, Scripted};
use super::scenario::DEN;
use super::state::{Mission, NO_UNITS};
use super::turn::Play;
use super::weather::Weather;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::mediterraneo_sanguinolento::army::{Culture, LeaderKind, Strategy};
use crate::rulesets::mediterraneo_sanguinolento::data::data;
use crate::rulesets::mediterraneo_sanguinolento::engine::Budget;
use crate::rulesets::mediterraneo_sanguinolento::field::{Context, FieldBattle};
use crate::rulesets::mediterraneo_sanguinolento::outcome::{
    leader_promotion_chance, leader_promotion_modifier,
};

fn lead(tactical: u8, strategic: u8, kind: LeaderKind, who: Who) -> Lead {
    Lead {
        tactical,
        strategic,
        kind,
        king: false,
        who,
        field: false,
    }
}

fn one_kind(n: f64) -> [f64; 3] {
    let mut u = NO_UNITS;
    u[0] = n;
    u
}

/// Within 5 standard errors of `p` over `n` draws.
fn close(hits: u32, n: u32, p: f64) -> bool {
    let se = (p * (1.0 - p) / n as f64).sqrt();
    (hits as f64 / n as f64 - p).abs() < 5.0 * se + 1e-12
}

/// Digest T1: plain, 2D6 = 4, Leonidas (strategic 2) lowers and Arminius (strategic 4) raises:
/// 6, battle terrain 2. The game adds both orders to the roll and reads the battle code's table.
#[test]
fn t1_both_commanders_orders_shift_the_terrain_roll() {
    let plain = data()
        .terrain
        .iter()
        .find(|t| t.name_en == "plain")
        .unwrap();
    assert_eq!(data().battle_terrain(&plain.hex, 4 - 2 + 4), Some(2));
    // Each side orders the shift that gives it the better expected factor ratio: mounted troops
    // (CM: 1.5 on open ground, 0.3 on terrain 10) against foot (IL: 0.25 to 1.1) want the roll
    // low, the foot want it high, and a commander without strategic value orders nothing.
    let g = scripted_game();
    let (roma, galia) = (country(&g, "Roma"), country(&g, "Avernos"));
    let roma_cm = g.kinds[roma as usize]
        .iter()
        .position(|k| k.code == "CM")
        .unwrap();
    let gauls_il = g.kinds[galia as usize]
        .iter()
        .position(|k| k.code == "IL")
        .unwrap();
    let mut riders = NO_UNITS;
    riders[roma_cm] = 10.0;
    let mut foot = NO_UNITS;
    foot[gauls_il] = 20.0;
    let side = |country, units, s| {
        Side::new(
            country,
            units,
            lead(2, s, LeaderKind::Infantry, Who::Unnamed),
        )
    };
    let (a, d) = (side(roma, riders, 3), side(galia, foot, 3));
    let hills = country(&g, "Macedonia");
    assert_eq!(g.hex[hills as usize], "MONTES");
    assert_eq!(
        g.terrain_of_roll[hills as usize][1..].to_vec(),
        vec![2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]
    );
    assert_eq!(leaders::terrain_shift(&g, hills, 3, &a, &d), -3);
    assert_eq!(leaders::terrain_shift(&g, hills, 3, &d, &a), 3);
    assert_eq!(leaders::terrain_shift(&g, hills, 0, &a, &d), 0);
}

/// Digest T2 through the scenario: "3-2" is tactical 3, strategic 2; every country starts with
/// one named leader, its king, of its culture's row; Roma's SPQR is the rulebook's 2-2.
#[test]
fn t2_every_country_starts_with_its_king_as_the_scenario_writes_him() {
    let g = scripted_game();
    let kings = g.scenario.leaders.king;
    assert_eq!(kings[2], (3, 2, LeaderKind::Infantry), "C: \"3-2\"");
    assert_eq!(kings[0], (2, 1, LeaderKind::Cavalry), "B: \"2-1\" cavalry");
    for (c, n) in g.start.nations.iter().enumerate() {
        let living: Vec<&Leader> = n.leaders.iter().filter(|l| l.alive).collect();
        assert_eq!(living.len(), 1, "{c}");
        assert!(living[0].king);
        let want = match g.culture[c] {
            Culture::Barbarian => kings[0],
            Culture::Mixed => kings[1],
            Culture::Civilized => kings[2],
        };
        assert_eq!(
            (living[0].tactical, living[0].strategic, living[0].kind),
            want
        );
    }
    assert_eq!(g.spqr, Some((country(&g, "Roma"), 2, 2)));
    let st = g.start.clone();
    let roma = country(&g, "Roma");
    let home = leaders::home_lead(&g, &st, roma, 1);
    assert_eq!((home.who, home.tactical, home.strategic), (Who::Spqr, 2, 2));
    let cartago = country(&g, "Cartago");
    let home = leaders::home_lead(&g, &st, cartago, 1);
    assert_eq!(
        (home.who, home.tactical, home.king),
        (Who::Named(0), 3, true)
    );
}

/// Digest D7: a winning leader is promoted on 1D20 + modifier >= 20 (leader 2: 1/5, 1/4 at 1:2 or
/// worse), then 1D6: 1-3 tactical +1, 4-6 strategic +1; a value at 5 raises the other; 5-5 stays.
#[test]
fn d7_promotion_raises_one_value_by_the_die() {
    let raise = |t: u8, s: u8, die: u32| {
        let (mut t, mut s) = (t, s);
        leaders::promote(&mut t, &mut s, die);
        (t, s)
    };
    for die in 1..=3 {
        assert_eq!(raise(2, 1, die), (3, 1));
        assert_eq!(raise(5, 3, die), (5, 4), "a 5 raises the other");
    }
    for die in 4..=6 {
        assert_eq!(raise(2, 1, die), (2, 2));
        assert_eq!(raise(3, 5, die), (4, 5));
    }
    for die in 1..=6 {
        assert_eq!(raise(5, 5, die), (5, 5), "5-5 cannot rise");
    }
    assert_eq!(
        leader_promotion_chance(leader_promotion_modifier(2)),
        1.0 / 5.0
    );
    // The game draws the battle code's chance: a winning 2-1 promoted with 1/5 (no 1:2 bonus).
    let g = scripted_game();
    let c = country(&g, "Cartago");
    let o = country(&g, "Numidia");
    let fought = Fought {
        winner: Some(0),
        risk: [[0.0, 0.0, 0.2], [0.0, 0.0, 0.0]],
        ..Fought::default()
    };
    let sides = [
        Side::new(
            c,
            one_kind(1.0),
            lead(2, 1, LeaderKind::Infantry, Who::Named(0)),
        ),
        Side::new(o, one_kind(1.0), Lead::UNNAMED),
    ];
    let n = 20_000;
    let (mut promoted, mut tactical) = (0, 0);
    let mut dice = Dice::for_trial(5, 0, 0);
    for _ in 0..n {
        let mut st = g.start.clone();
        st.nations[c as usize].leaders[0] = Leader::new(2, 1, LeaderKind::Infantry);
        leaders::after_battle(&g, &mut st, &sides, &fought, 3, &mut dice);
        let l = st.nations[c as usize].leaders[0];
        promoted += ((l.tactical, l.strategic) != (2, 1)) as u32;
        tactical += (l.tactical == 3) as u32;
        assert_eq!(
            st.counts.leaders_promoted,
            ((l.tactical, l.strategic) != (2, 1)) as u32
        );
    }
    assert!(close(promoted, n, 0.2), "promoted {promoted} of {n}");
    assert!(close(tactical, n, 0.1), "tactical {tactical} of {n}");
}

/// Digest D8: a battle's commanders die and are wounded at the battle code's chances (winner
/// 1/216 and 5/216; loser 1/36 and 1/18; exterminated 7/12 and 1/4): the chances a game fight
/// reports, and the game's draws at them.
#[test]
fn d8_death_and_wounds_at_the_battle_codes_chances() {
    let g = scripted_game();
    let (c, o) = (country(&g, "Celtiberia"), country(&g, "Cerdeña"));
    let mut dice = Dice::for_trial(6, 0, 0);
    let sides = [
        Side::new(
            c,
            one_kind(5.0),
            lead(2, 1, LeaderKind::Cavalry, Who::Named(0)),
        ),
        Side::new(
            o,
            one_kind(4.0),
            lead(2, 1, LeaderKind::Infantry, Who::Named(0)),
        ),
    ];
    let mut decided = 0;
    for _ in 0..200 {
        let f = battles::field_battle(&g, o, false, Weather::Clear, sides, &mut dice);
        let Some(w) = f.winner else { continue };
        decided += 1;
        let [dies, wounded, promoted] = f.risk[w];
        assert_eq!((dies, wounded), (1.0 / 216.0, 5.0 / 216.0));
        let d7 = leader_promotion_chance(leader_promotion_modifier(2));
        assert!(promoted == d7 || promoted == d7 + 0.05, "{promoted}");
        let loser = f.risk[1 - w];
        assert!(
            loser == [1.0 / 36.0, 1.0 / 18.0, 0.0] || loser == [7.0 / 12.0, 0.25, 0.0],
            "{loser:?}"
        );
    }
    assert!(decided > 100);
    // The draws: a beaten named leader dies with 1/36 and is wounded with 1/18 (1D6 months home).
    let lost = Fought {
        winner: Some(1),
        risk: [[1.0 / 36.0, 1.0 / 18.0, 0.0], [0.0; 3]],
        ..Fought::default()
    };
    let n = 40_000;
    let (mut dead, mut hurt) = (0, 0);
    for _ in 0..n {
        let mut st = g.start.clone();
        st.nations[c as usize].leaders[0].in_field = true;
        leaders::after_battle(&g, &mut st, &sides, &lost, 10, &mut dice);
        let l = st.nations[c as usize].leaders[0];
        if st.counts.leaders_killed == 1 {
            dead += 1;
            // The king's death leaves the country a free new king.
            assert_eq!(leaders::living(&st, c), 1);
            assert!(st.nations[c as usize].leaders.iter().any(|l| l.king));
        } else if l.wounded_until > 0 {
            hurt += 1;
            assert!((11..=16).contains(&l.wounded_until) && !l.in_field);
            assert!(!l.able(10) && l.able(l.wounded_until));
        }
    }
    assert!(close(dead, n, 1.0 / 36.0), "dead {dead}");
    assert!(close(hurt, n, 1.0 / 18.0), "wounded {hurt}");
}

/// Digest D12: a search finds a leader on 2D6 >= 10 (1/6); a civilized find is column 4 with
/// 1/6 and then 5-4 with 1/6 (1/36 of finds); the game's rolls follow the tables' distribution.
#[test]
fn d12_the_new_leader_search() {
    let ways: u32 = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a + b))
        .filter(|&s| s >= leaders::SEARCH_SUCCESS)
        .count() as u32;
    assert_eq!(ways, 6, "1/6");
    for civilized in [false, true] {
        let dist = leaders::new_leader_distribution(civilized);
        assert_eq!(dist.iter().map(|d| d.1).sum::<u32>(), 36);
        let p = |v: (u8, u8)| dist.iter().find(|d| d.0 == v).map_or(0, |d| d.1);
        if civilized {
            assert_eq!(p((5, 4)), 1);
            assert_eq!(p((5, 3)) + p((5, 4)), 2, "tactical 5 only in column 4");
            // Column 1 (1D6 1-2: 12/36) is all tactical 2, column 2 (12/36) on one row of six.
            assert_eq!((1..=5).map(|s| p((2, s))).sum::<u32>(), 12 + 2);
        } else {
            // Column 1 with 1/2, 2 with 1/3, 3 with 1/6; strategic 1 on 1D6 1-4.
            assert_eq!(p((2, 1)), 12);
            assert_eq!(p((3, 1)), 8);
            assert_eq!(p((4, 3)), 1);
        }
    }
    let g = scripted_game();
    let c = country(&g, "Cartago");
    let dist = leaders::new_leader_distribution(true);
    let n = 36_000;
    let mut dice = Dice::for_trial(7, 0, 0);
    let mut counts = vec![0u32; dist.len()];
    for _ in 0..n {
        let l = leaders::roll_new(&g, c, &mut dice);
        let i = dist
            .iter()
            .position(|d| d.0 == (l.tactical, l.strategic))
            .unwrap();
        counts[i] += 1;
    }
    for (i, (v, ways)) in dist.iter().enumerate() {
        assert!(close(counts[i], n, *ways as f64 / 36.0), "{v:?}");
    }
    // A search costs 100 DEN and finds a leader with 1/6, until the policy's number is held.
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = Scripted {
        leaders_wanted: 4,
        reserve: 0,
        // Land searches only (naval ones: fleets_tests).
        naval_leaders_wanted: 0,
        ..Scripted::defaults()
    };
    let (mut attempts, mut found) = (0, 0);
    for _ in 0..3000 {
        let mut st = g.start.clone();
        st.nations[c as usize].stock[DEN] = 1_000_000;
        let before = st.nations[c as usize].stock[DEN];
        leaders::search(&g, &mut st, &plans, &mut dice);
        assert_eq!(before - st.nations[c as usize].stock[DEN], 100);
        attempts += 1;
        found += st.counts.leaders_found;
        assert_eq!(leaders::living(&st, c) as u32, 1 + st.counts.leaders_found);
    }
    assert!(close(found, attempts, 1.0 / 6.0), "{found} of {attempts}");
    let mut st = g.start.clone();
    plans[c as usize].leaders_wanted = 1;
    let before = st.nations[c as usize].stock[DEN];
    leaders::search(&g, &mut st, &plans, &mut dice);
    assert_eq!(
        st.nations[c as usize].stock[DEN], before,
        "no search needed"
    );
}

/// The game's fights under commanders are the battle code's: P(attacker wins) of the game's
/// field battle, with each commander's terrain order, matches the calculator's exact answer for
/// the same armies, leaders and orders within 5 SE.
#[test]
fn fights_under_commanders_match_the_battle_codes_exact_answer() {
    let g = scripted_game();
    let (a, d) = (country(&g, "Celtiberia"), country(&g, "Cerdeña"));
    let sides = [
        Side::new(
            a,
            one_kind(5.0),
            lead(2, 3, LeaderKind::Cavalry, Who::Named(0)),
        ),
        Side::new(
            d,
            one_kind(4.0),
            lead(3, 2, LeaderKind::Infantry, Who::Named(0)),
        ),
    ];
    let mut armies = [
        battles::army(&g, &sides[0], true),
        battles::army(&g, &sides[1], false),
    ];
    assert_eq!((armies[0].tactical, armies[1].tactical), (2, 3));
    let hex_name = &data().terrain[g.scenario.nodes[d as usize].terrain as usize];
    for k in 0..2 {
        let shift =
            leaders::terrain_shift(&g, d, sides[k].lead.strategic, &sides[k], &sides[1 - k]);
        armies[k].strategy = match shift.signum() {
            1 => Strategy::Raise,
            -1 => Strategy::Lower,
            _ => Strategy::None,
        };
    }
    let ctx = Context {
        weather_rain: false,
        storm: false,
        winter: false,
        max_days: 30,
        resolution: crate::rulesets::mediterraneo_sanguinolento::field::DEFAULT_RESOLUTION,
    };
    let mut budget = Budget {
        states: 3_000_000,
        work: 400_000_000,
        used: 0,
        progress: None,
    };
    let exact = FieldBattle::new(armies, ctx, Some(&hex_name.name_en), None, &g.options)
        .solve(&mut budget)
        .unwrap();
    let p = exact.outcomes[0];
    assert!(p > 0.05 && p < 0.95, "a contested battle: {p}");
    let n = 4000;
    let mut dice = Dice::for_trial(8, 0, 0);
    let wins = (0..n)
        .filter(|_| {
            battles::field_battle(&g, d, false, Weather::Clear, sides, &mut dice).winner == Some(0)
        })
        .count() as u32;
    assert!(close(wins, n, p), "field {wins} of {n} vs {p}");
    let odds = battles::odds(&g, d, None, false, sides, n, &mut dice);
    assert!(close((odds * n as f64).round() as u32, n, p), "odds {odds}");
}

/// The policy sends the king with the field army or keeps him home; who commands at home and in
/// the field; the limit on grand units (A43) and who commands among several (A45).
#[test]
fn command_follows_the_policy_and_the_options() {
    let g = scripted_game();
    let c = country(&g, "Cartago");
    let mut st = g.start.clone();
    assert!(leaders::add(
        &mut st,
        c,
        Leader::new(4, 1, LeaderKind::Cavalry)
    ));
    let p = |king_commands| Scripted {
        king_commands,
        ..Scripted::defaults()
    };
    // King-first (A45's reading): the king commands where he is, though the 4-1 is the better.
    assert_eq!(leaders::chosen(&g, &st, c, &p(1.0), 1), Some(0));
    assert_eq!(leaders::chosen(&g, &st, c, &p(0.0), 1), Some(1));
    leaders::assign(&g, &mut st, c, &p(0.0), 1);
    st.nations[c as usize].mission = Mission::March { target: 0 };
    assert!(leaders::field_away(&st, c));
    assert_eq!(leaders::field_lead(&g, &st, c, 1).who, Who::Named(1));
    assert!(leaders::field_lead(&g, &st, c, 1).field);
    assert_eq!(leaders::home_lead(&g, &st, c, 1).who, Who::Named(0));
    // The field army's wounded leader goes home: it marches on under its unnamed 0-0.
    st.nations[c as usize].leaders[1].wounded_until = 5;
    st.nations[c as usize].leaders[1].in_field = false;
    assert_eq!(leaders::field_lead(&g, &st, c, 2).who, Who::Unnamed);
    assert_eq!(leaders::field_lead(&g, &st, c, 5).who, Who::Unnamed);
    // Back home, everyone is there: the king commands.
    st.nations[c as usize].mission = Mission::Idle;
    st.nations[c as usize].at = c;
    assert_eq!(leaders::field_lead(&g, &st, c, 5).who, Who::Named(0));
    let best = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("commanding_leader = \"best-tactical\""),
    );
    assert_eq!(leaders::field_lead(&best, &st, c, 5).who, Who::Named(1));
    assert_eq!(leaders::chosen(&best, &st, c, &p(1.0), 5), Some(1));

    // A43: a barbarian 2-x commands 2 - 1 = 1 grand unit (5,000 foot); a civilized 3-x five.
    let b = country(&g, "Avernos");
    let il = g.kinds[b as usize]
        .iter()
        .position(|k| k.code == "IL")
        .unwrap();
    let men = g.kinds[b as usize][il].men;
    let mut units = NO_UNITS;
    units[il] = 5000.0 / men;
    let side = |units| Side::new(b, units, lead(2, 1, LeaderKind::Cavalry, Who::Named(0)));
    assert_eq!(leaders::grand_units(&g, b, &units), 1.0);
    assert_eq!(leaders::tactical_in_battle(&g, &side(units)), 2);
    units[il] += 1.0;
    assert_eq!(leaders::grand_units(&g, b, &units), 2.0);
    assert_eq!(leaders::tactical_in_battle(&g, &side(units)), 0);
    let unlimited = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("leader_command_limit = \"unlimited\""),
    );
    assert_eq!(leaders::tactical_in_battle(&unlimited, &side(units)), 2);
    assert_eq!(battles::army(&g, &side(units), true).tactical, 0);
}

/// A dead king is succeeded by the best living leader; the event's death and new leader.
#[test]
fn succession_and_the_leader_events() {
    let g = scripted_game();
    let c = country(&g, "Egipto");
    let mut st = g.start.clone();
    leaders::add(&mut st, c, Leader::new(2, 2, LeaderKind::Infantry));
    leaders::add(&mut st, c, Leader::new(4, 1, LeaderKind::Infantry));
    let mut dice = Dice::for_trial(9, 0, 0);
    leaders::dies(&g, &mut st, c, 0, &mut dice);
    let n = &st.nations[c as usize];
    assert!(n.leaders[2].king && !n.leaders[1].king, "the 4-1 succeeds");
    assert_eq!(leaders::living(&st, c), 2);
    for _ in 0..10 {
        leaders::event_new(&g, &mut st, c, &mut dice);
    }
    assert_eq!(leaders::living(&st, c), MAX_LEADERS, "at most four");
    for _ in 0..20 {
        leaders::event_death(&g, &mut st, c, &mut dice);
        let n = &st.nations[c as usize];
        assert!(leaders::living(&st, c) >= 1, "never without a leader");
        assert_eq!(n.leaders.iter().filter(|l| l.alive && l.king).count(), 1);
    }
}

/// Leaders fight, die, rise and are found in whole games, and their bookkeeping holds: every
/// nation keeps 1-4 living named leaders, exactly one king, values 0-5, no wounded leader with
/// the field army.
#[test]
fn leaders_fight_fall_and_rise_in_games() {
    for policy in [Policy::Scripted(Scripted::defaults()), Policy::Random] {
        let g = game_with(policy, &options());
        let mut play = Play::new(&g);
        let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
        let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
        let mut totals = [0.0; 5];
        let names = [
            "named_led_fights",
            "leaders_killed",
            "leaders_wounded",
            "leaders_promoted",
            "leaders_found",
        ];
        for i in 0..150 {
            r.clear();
            play.play(
                &mut Dice::for_trial(12, 0, i),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
            );
            for (t, name) in totals.iter_mut().zip(names) {
                *t += r.extra[column(name)];
            }
            let month = play.st.month;
            for (c, n) in play.st.nations.iter().enumerate() {
                let living: Vec<&Leader> = n.leaders.iter().filter(|l| l.alive).collect();
                assert!(!living.is_empty() && living.len() <= MAX_LEADERS, "{c}");
                assert_eq!(living.iter().filter(|l| l.king).count(), 1, "{c}");
                for l in &living {
                    assert!(l.tactical <= 5 && l.strategic <= 5);
                    assert!(l.able(month) || !l.in_field, "a wounded leader is home");
                }
            }
        }
        for (t, name) in totals.iter().zip(names) {
            assert!(*t > 0.0, "{policy:?}: {name} {t}");
        }
    }
}
