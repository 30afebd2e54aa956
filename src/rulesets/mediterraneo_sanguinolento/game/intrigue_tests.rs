//! Tests of land interception, espionage and assassination in the game (digest §3.7, §4.11, §3.9,
//! §8.6, T11, A36, A38): the game's own rolls against the battle code's exact single-roll
//! probabilities over grids of modifiers (within 5 standard errors), T11's delay on the region
//! graph, each option's two readings, bad option values, and whole games in which every new
//! counter moves while the invariants hold.

use super::game_tests::{
    assert_bad_options, country, game_with, options, options_with, play_checked,
};
use super::interception;
use super::intrigue;
use super::policy::{Policy, Scripted};
use super::pv;
use super::scenario::{CountryId, Scenario};
use super::state::{Intel, Mission, State};
use super::Game;
use crate::dice::Dice;
use crate::game::NoLog;
use crate::rulesets::mediterraneo_sanguinolento::data::data;
use crate::rulesets::mediterraneo_sanguinolento::interception::{land_chance, land_modifier};
use crate::rulesets::mediterraneo_sanguinolento::intrigue::{
    assassination_chance, assassination_modifier, band_distribution, report_delay, spy_modifier,
    Information, WRONG_SHARE,
};

/// `hits` of `n` agree with probability `p` within 5 standard errors (exactly at 0 and 1).
fn agrees(hits: u32, n: u32, p: f64, what: &str) {
    let f = hits as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    if se == 0.0 {
        assert_eq!(f, p, "{what}");
    } else {
        assert!(
            (f - p).abs() <= 5.0 * se,
            "{what}: {f} vs exact {p} (se {se})"
        );
    }
}

/// A land neighbour of `o` that is not a major's (the marcher of these tests).
fn neighbour(g: &Game, o: CountryId) -> CountryId {
    *g.neighbours[o as usize]
        .iter()
        .find(|&&c| g.major_index[c as usize] == u8::MAX)
        .unwrap()
}

/// `c`'s field army at its home, marching on `o`'s home; `o`'s idle at home for a month under
/// its king of strategic value `strategic`.
fn marching_on(g: &Game, c: CountryId, o: CountryId, strategic: u8) -> State {
    let mut st = g.start.clone();
    st.month = 5;
    st.turn = 3;
    let m = &mut st.nations[c as usize];
    m.mission = Mission::March { target: o };
    m.field = m.field.map(|u| u * 3.0);
    let d = &mut st.nations[o as usize];
    d.idle_months = 1;
    d.leaders[0].strategic = strategic;
    st
}

/// §3.7, §8.6, A36: the game's interception rolls against `land_chance`, strategic 0-5 (modifier
/// -1 to 4 at distance 1 outside own territory), both readings; the literal band differs at the
/// top (4: 0.4 against 0.8).
#[test]
fn game_interceptions_match_the_exact_chance_over_a_grid() {
    for literal in [false, true] {
        let opts = if literal {
            options_with("interception_bands = \"literal\"")
        } else {
            options()
        };
        let g = game_with(Policy::Scripted(Scripted::defaults()), &opts);
        assert_eq!(g.interception_literal, literal);
        let o = country(&g, "Atenas");
        let c = neighbour(&g, o);
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[o as usize] = Scripted {
            intercept: 0.0,
            odds_trials: 1,
            min_ratio: 0.0,
            ..Scripted::defaults()
        };
        assert_eq!(interception::distance(&g, o, c, o), Some(1));
        assert!(!interception::mounted_only(
            &g,
            o,
            &g.start.nations[o as usize].field
        ));
        let mut dice = Dice::for_trial(5, 1, literal as u64);
        for strategic in 0..=5u8 {
            let start = marching_on(&g, c, o, strategic);
            let m = land_modifier(strategic as i32, false, false, false, 1);
            let n = 1500;
            let mut hits = 0;
            for _ in 0..n {
                let mut st = start.clone();
                interception::check(&g, &mut st, &plans, c, o, 5, &mut dice, &mut NoLog);
                assert_eq!(
                    st.counts.interceptions_tried, 1,
                    "it always tries at odds 0"
                );
                assert_eq!(st.nations[o as usize].idle_months, 0, "once");
                hits += st.counts.interceptions_succeeded;
                assert_eq!(st.counts.battles, st.counts.interceptions_succeeded);
            }
            agrees(
                hits,
                n,
                land_chance(m, literal),
                &format!("strategic {strategic}, literal {literal}"),
            );
        }
        // No second try without another month of waiting.
        let mut st = marching_on(&g, c, o, 3);
        st.nations[o as usize].idle_months = 0;
        interception::check(&g, &mut st, &plans, c, o, 5, &mut dice, &mut NoLog);
        assert_eq!(st.counts.interceptions_tried, 0);
    }
    assert_eq!(land_chance(4, false), 0.8);
    assert_eq!(land_chance(4, true), 0.4);
}

/// §3.9, §8.6: the game's assassination rolls against `assassination_chance` over a grid of DEN
/// (modifiers +1 in a city and +1 per 500 DEN: 1, 3, 5, 8, 11), the victim Atenas's king at home.
#[test]
fn game_assassinations_match_the_exact_chance_over_a_grid() {
    let g = game_with(Policy::Scripted(Scripted::defaults()), &options());
    let o = country(&g, "Atenas");
    let c = neighbour(&g, o);
    let mut dice = Dice::for_trial(6, 2, 0);
    for den in [0i64, 1000, 2000, 3500, 5000] {
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[c as usize] = Scripted {
            assassinate_tactical: 0,
            assassination_den: den,
            reserve: 0,
            ..Scripted::defaults()
        };
        let mut start = marching_on(&g, c, o, 2);
        start.nations[c as usize].stock[super::scenario::DEN] = 10_000;
        let m = assassination_modifier(den, false, true, 0.0, false);
        let n = 3000;
        let mut kills = 0;
        for _ in 0..n {
            let mut st = start.clone();
            intrigue::turn(&g, &mut st, &plans, [5, 6], &mut dice, &mut NoLog);
            assert_eq!(st.counts.assassinations_tried, 1);
            assert_eq!(
                start.nations[c as usize].stock[super::scenario::DEN]
                    - st.nations[c as usize].stock[super::scenario::DEN],
                den
            );
            let killed = st.counts.assassinations_succeeded;
            assert_eq!(st.counts.leaders_killed, killed);
            kills += killed;
        }
        agrees(kills, n, assassination_chance(m), &format!("{den} DEN"));
    }
}

/// A38: an attempt costs -5 PV by the specific rule, the table's culture row otherwise (0/-1/-2:
/// never -5), and nothing is tried against a leader below the policy's tactical value.
#[test]
fn assassination_pv_readings_differ() {
    let mut seen = Vec::new();
    for table in [false, true] {
        let opts = if table {
            options_with("assassination_pv = \"table\"")
        } else {
            options()
        };
        let g = game_with(Policy::Scripted(Scripted::defaults()), &opts);
        let o = country(&g, "Atenas");
        let c = neighbour(&g, o);
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[c as usize] = Scripted {
            assassinate_tactical: 3,
            assassination_den: 0,
            ..Scripted::defaults()
        };
        let mut st = marching_on(&g, c, o, 2);
        intrigue::turn(
            &g,
            &mut st,
            &plans,
            [5, 6],
            &mut Dice::for_trial(1, 0, 0),
            &mut NoLog,
        );
        assert_eq!(st.counts.assassinations_tried, 1, "Atenas's king is 3-x");
        let want = if table {
            pv::ASSASSINATION_ATTEMPT.pv(g.culture[c as usize])
        } else {
            -5
        };
        assert_eq!(st.nations[c as usize].pv_by[pv::INTRIGUE], want);
        seen.push(want);
        plans[c as usize].assassinate_tactical = 4;
        let mut st = marching_on(&g, c, o, 2);
        intrigue::turn(
            &g,
            &mut st,
            &plans,
            [5, 6],
            &mut Dice::for_trial(1, 0, 0),
            &mut NoLog,
        );
        assert_eq!(
            st.counts.assassinations_tried, 0,
            "below the policy's value"
        );
    }
    assert_ne!(seen[0], seen[1]);
}

/// §4.11: the game's spy reports against `band_distribution`: the wrong share of each report is
/// its band's (up or down), over counter-espionage off and on (-3).
#[test]
fn game_spy_reports_follow_the_band_distribution() {
    let g = game_with(Policy::Scripted(Scripted::defaults()), &options());
    let c = g.majors[0];
    let mut dice = Dice::for_trial(7, 3, 0);
    for counter in [false, true] {
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[c as usize] = Scripted {
            spy: 1.0,
            ..Scripted::defaults()
        };
        let mut start = g.start.clone();
        start.turn = 2;
        start.month = 3;
        let n = 3000;
        let mut counts = [0u32; 6];
        let mut target = None;
        for _ in 0..n {
            let mut st = start.clone();
            if counter {
                for (k, p) in plans.iter_mut().enumerate() {
                    p.counter_espionage = if k == c as usize { 0.0 } else { 1.0 };
                }
                for nat in st.nations.iter_mut() {
                    nat.stock[super::scenario::DEN] += 1000;
                }
            }
            intrigue::turn(&g, &mut st, &plans, [3, 4], &mut dice, &mut NoLog);
            assert_eq!(st.counts.spying_bought, 1);
            let intel = st.nations[c as usize].intel;
            assert!(*target.get_or_insert(intel.target) == intel.target);
            let wrong = (intel.factor - 1.0).abs();
            let k = WRONG_SHARE
                .iter()
                .position(|&w| (w - wrong).abs() < 1e-12)
                .unwrap();
            counts[k] += 1;
        }
        let t = target.unwrap();
        let o = g.start.lands[t as usize].owner;
        let spied_counter = counter && o != c;
        let m = spy_modifier(
            g.culture[c as usize],
            g.culture[o as usize],
            Information::General,
            spied_counter,
        );
        let p = band_distribution(m);
        for k in 0..6 {
            agrees(counts[k], n, p[k], &format!("band {k}, counter {counter}"));
        }
    }
}

/// T11 (L3742) on the region graph: with abstraction.toml's sea_lane_months at 5 a report from an
/// overseas target (no land path) arrives 5 months after it is bought; by land it takes the
/// light cavalry's months over the cheapest path, at once within one month.
#[test]
fn t11_reports_arrive_after_the_outward_trip() {
    let rb = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/mediterraneo-sanguinolento/game/rulebook.toml"
    ));
    let ab = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/mediterraneo-sanguinolento/game/abstraction.toml"
    ));
    let ab5 = ab.replacen("sea_lane_months = 1", "sea_lane_months = 5", 1);
    let scenario = Scenario::parse("rb.toml", rb, "ab.toml", &ab5).unwrap();
    let majors = scenario.majors.len();
    let g = Game::new(
        scenario,
        &options(),
        vec!["t".into(); majors],
        vec![Policy::Scripted(Scripted::defaults()); majors],
    );
    let n = g.scenario.countries.len();
    let (c, t) = g
        .majors
        .iter()
        .find_map(|&c| {
            g.scenario
                .links(c)
                .iter()
                .find(|l| l.sea && g.next[c as usize * n + l.to as usize] == u8::MAX)
                .map(|l| (c, l.to))
        })
        .expect("an overseas neighbour");
    assert_eq!(intrigue::travel_months(&g, &g.start, c, t), 5);
    assert_eq!(report_delay(intrigue::travel_months(&g, &g.start, c, t)), 5);
    // By land: the cheapest path's PM over light cavalry's monthly movement (L2030-L2074).
    let light_cavalry = data()
        .units
        .iter()
        .find(|u| u.code == "CL")
        .unwrap()
        .movement;
    let roma = country(&g, "Roma");
    let mut far = 0;
    for l in 0..n as CountryId {
        let pm = g.cost[roma as usize * n + l as usize];
        if pm == u32::MAX {
            continue;
        }
        let months = intrigue::travel_months(&g, &g.start, roma, l);
        assert_eq!(months, pm.div_ceil(light_cavalry));
        far += (report_delay(months) == months && months > 1) as u32;
    }
    assert!(far > 0, "some land report takes more than a month");
}

/// Option war_intelligence: omniscient odds see the exact figure; spied ones the arrived report's,
/// and without one none or twice.
#[test]
fn war_intelligence_readings_differ() {
    let omniscient = game_with(Policy::Scripted(Scripted::defaults()), &options());
    let spied = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("war_intelligence = \"spied\""),
    );
    let (c, t) = (omniscient.majors[0], omniscient.majors[1]);
    let mut st = omniscient.start.clone();
    st.month = 7;
    st.nations[c as usize].intel = Intel {
        target: t,
        factor: 1.25,
        arrives: 7,
    };
    let mut dice = Dice::for_trial(3, 0, 0);
    assert_eq!(
        intrigue::seen_factor(&omniscient, &st, c, t, &mut dice),
        1.0
    );
    assert_eq!(intrigue::seen_factor(&spied, &st, c, t, &mut dice), 1.25);
    st.nations[c as usize].intel.arrives = 8;
    let mut seen = [0; 2];
    for _ in 0..200 {
        let f = intrigue::seen_factor(&spied, &st, c, t, &mut dice);
        assert!(f == 0.0 || f == 2.0, "{f}");
        seen[(f == 2.0) as usize] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0);
}

#[test]
fn bad_option_values_name_the_field_and_the_choices() {
    assert_bad_options(&[
        (
            "assassination_pv = \"half\"",
            "assassination_pv",
            "specific",
        ),
        (
            "war_intelligence = \"psychic\"",
            "war_intelligence",
            "spied",
        ),
        (
            "interception_bands = \"wide\"",
            "interception_bands",
            "literal",
        ),
    ]);
}

/// Whole games in which every major intercepts at any odds, spies, pays for counter-espionage and
/// tries assassinations, its war odds through its spies: every new counter moves, the invariants
/// hold (the DEN paid is spent through the ledger), every attempt cost its PV.
#[test]
fn games_with_intrigue_keep_the_invariants() {
    let schemer = Scripted {
        intercept: 0.0,
        spy: 1.0,
        counter_espionage: 1.0,
        assassinate_tactical: 0,
        assassination_den: 1500,
        ..Scripted::defaults()
    };
    let g = game_with(
        Policy::Scripted(schemer),
        // Fed from the home stock (army_supply): with the supply rule's convoys at home the
        // interceptors roll at -3 and armies without one stay home, and interceptions grow rare.
        &options_with("war_intelligence = \"spied\"\narmy_supply = \"home-stock\""),
    );
    let mut total = super::state::Counts::default();
    play_checked(&g, 29, 300u64, "intrigue", |i, play, _| {
        let st = &play.st;
        let c = &st.counts;
        assert!(c.interceptions_succeeded <= c.interceptions_tried);
        assert!(c.assassinations_succeeded <= c.assassinations_tried);
        assert!(c.assassinations_succeeded <= c.leaders_killed);
        // Only the majors try: -5 PV an attempt (A38's default), summed over them.
        let intrigue_pv: i32 = g
            .majors
            .iter()
            .map(|&m| st.nations[m as usize].pv_by[pv::INTRIGUE])
            .sum();
        assert_eq!(intrigue_pv, -5 * c.assassinations_tried as i32, "game {i}");
        total.interceptions_tried += c.interceptions_tried;
        total.interceptions_succeeded += c.interceptions_succeeded;
        total.spying_bought += c.spying_bought;
        total.counter_espionage_months += c.counter_espionage_months;
        total.assassinations_tried += c.assassinations_tried;
        total.assassinations_succeeded += c.assassinations_succeeded;
    });
    println!("300 intrigue games: {total:?}");
    assert!(total.interceptions_tried > 0 && total.interceptions_succeeded > 0);
    assert!(total.spying_bought > 0 && total.counter_espionage_months > 0);
    assert!(total.assassinations_tried > 0 && total.assassinations_succeeded > 0);
}
