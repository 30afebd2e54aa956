use super::*;
use crate::battle::McRun;
use crate::battle::{agreement, side_column};
use crate::progress::Progress;
use crate::rulesets::mediterraneo_sanguinolento::SIDES;

fn battle(text: &str) -> FieldBattle {
    let table: toml::Table = text.parse().expect("test battle parses");
    let fields = Fields::new("test.toml", &table);
    let options = Options::resolve(
        super::super::OPTIONS,
        Fields::new("test.toml", &toml::Table::new()),
    )
    .unwrap();
    // The keys are checked against their declarations before the build runs, as `load_battle` does.
    crate::battle::keys::check(&fields, KEYS).unwrap();
    let armies = parse_armies(&fields).unwrap();
    let ctx = parse_context(&fields).unwrap();
    let (hex, forced) = parse_terrain(&fields).unwrap();
    FieldBattle::new(armies, ctx, hex, forced, &options)
}

const VECTOR: &str = r#"
battle_terrain = 1
resolution = 100000
[attacker]
nation = ["roman"]
units = { "IML-RC" = 10 }
tactical = 2
tactic = "AF"
[defender]
culture = "barbarian"
units = { "IL-IC" = 20, "CL-IC" = 5 }
casualty_order = ["IL-IC"]
tactical = 1
tactic = "DE"
"#;

/// Digest §7.3: one segment of Rome (10 IML-RC, AF) against Gauls (20 IL + 5 CL, DE) on terrain 1.
#[test]
fn the_constructed_single_segment_vector_7_3() {
    let b = battle(VECTOR);
    let e = &b.cases[0].plan.engine;
    let st = e.start;
    assert!((e.factors(&st, 0) - 13.0).abs() < 1e-9);
    assert!((e.factors(&st, 1) - 10.0).abs() < 1e-9);
    assert!((e.morale(&st, 0) - 3.0).abs() < 1e-12);
    assert!((e.morale(&st, 1) - 2.0).abs() < 1e-12);
    assert!(e.sides[0].has_formation && !e.sides[1].has_formation);
    // The Gauls need 18 on 1D20 (17, and -1 for breaking from Defensa): 3/20.
    assert_eq!(e.break_need(&st, 0, 1), Some(18));
    assert_eq!(e.break_need(&st, 1, 1), None);
    let ctx = e.context(&st, 1, 1, [false, false], [false, false]);
    // Rome fires 31 at block 3; the Gauls' 41 becomes 3-1 against Rome's formation (T6), block 2.
    assert_eq!(ctx.table[0], Some((3, 3, 1)));
    assert_eq!(ctx.table[1], Some((2, 3, 1)));
    // Dice: Rome 4 → 10% and 0.4; Gauls 3 (+1 cavalry, -1 leadership on casualties) → 5% and 0.2.
    assert_eq!(e.melee_result(&ctx, 0, 4, 4), (10, 4));
    assert_eq!(e.melee_result(&ctx, 1, 3, 3), (5, 2));
    let next = match e.resolve(&st, &ctx, [0, 0], [(10, 4), (5, 2)], 1) {
        super::super::engine::Step::Go(s) => s,
        super::super::engine::Step::End(..) => panic!("one segment does not end this battle"),
    };
    // Rome inflicts 10% x 14.95 (pilum) = 1.495 factors: 5.98 IL = 1,196 men; the Gauls 0.5: 76 men.
    let lost = |k: usize| (e.total_men(&st, k) - e.total_men(&next, k) + 1e-6).floor();
    assert_eq!(lost(1), 1196.0);
    assert_eq!(lost(0), 76.0);
    assert!((e.morale(&next, 0) - 2.8).abs() < 1e-9);
    assert!((e.morale(&next, 1) - 1.6).abs() < 1e-9);
}

#[test]
fn t1_the_terrain_roll_moves_with_the_commanders() {
    // Plain, 2D6 = 4, Leonidas (strategic 2) lowers, Arminius (strategic 4) raises: 6 → type 2.
    assert_eq!(data().battle_terrain("LLANO", 4 - 2 + 4), Some(2));
    let d = terrain_distribution("LLANO", 0);
    let p: Vec<(usize, f64)> = d.iter().map(|x| (x.0, (x.1 * 36.0).round())).collect();
    assert_eq!(p, vec![(1, 10.0), (2, 16.0), (3, 9.0), (4, 1.0)]);
}

#[test]
fn guard_and_charges_shift_the_digits() {
    // T7: a regular morale-A guard launched on a 3-2 fires 3-4 (+2).
    let b = battle(
        r#"
battle_terrain = 2
[attacker]
units = { "IM-RA" = 10, "IM-RC" = 5 }
guard = ["IM-RA"]
guard_segment = 1
tactic = "AC"
[defender]
culture = "barbarian"
units = { "IL-ID" = 10 }
tactic = "AF"
"#,
    );
    let e = &b.cases[0].plan.engine;
    // Row AC (defender) / column AF: the attacker fires... the defender here is barbarian (no
    // formation), so the attacker's code is read unchanged, morale digit +2.
    let plain = e.cell.fire[0][0].unwrap();
    let ctx = e.context(&e.start, 1, 1, [false, false], [false, false]);
    let (_, x, y) = ctx.table[0].unwrap();
    assert_eq!((x, y), (plain.0 as usize, (plain.1 + 2).min(5) as usize));
}

/// A grid of at least 50 battles where exact and Monte Carlo must agree within 5 standard errors.
#[test]
fn exact_and_monte_carlo_agree_over_a_grid() {
    let sides = [
        ("{ \"IM-RC\" = 4 }", "civilized"),
        ("{ \"IL-ID\" = 6, \"CL-IC\" = 2 }", "barbarian"),
        ("{ \"IP-RB\" = 3, \"IM-RC\" = 2 }", "civilized"),
        ("{ \"CP-RC\" = 3 }", "civilized"),
        ("{ \"IPF-RC\" = 3, \"CM-RD\" = 1 }", "civilized"),
        ("{ \"IM-IC\" = 3, \"E-IC\" = 1 }", "barbarian"),
    ];
    let tactics = ["AF", "AE", "DE", "AC", "RF", "FL", "RE"];
    let extras = ["", "weather = \"rain\"", "", "winter = true"];
    let mut cases = 0;
    for i in 0..90usize {
        if cases >= 50 {
            break;
        }
        let (a_units, a_cult) = sides[i % sides.len()];
        let (d_units, d_cult) = sides[(i / 2 + 1) % sides.len()];
        let ta = tactics[i % tactics.len()];
        let td = tactics[(i / 3 + 2) % tactics.len()];
        let terrain = 1 + (i * 7) % 10;
        let retreat = if i % 5 == 0 {
            "retreat_below_morale = 1.5"
        } else {
            ""
        };
        let text = format!(
            "battle_terrain = {terrain}\nresolution = 6\nmax_days = 4\n{}\n[attacker]\nunits = {a_units}\nculture = \"{a_cult}\"\ntactic = \"{ta}\"\ntactical = {}\nstrategic = 3\n{retreat}\n[defender]\nunits = {d_units}\nculture = \"{d_cult}\"\ntactic = \"{td}\"\ntactical = {}\n",
            extras[i % extras.len()],
            i % 4,
            (i / 4) % 4
        );
        let b = battle(&text);
        // Flanking with long battles can outgrow the exact budget: those are Monte Carlo only.
        let Ok(exact) = b.exact() else { continue };
        let total: f64 = exact.outcomes.iter().sum();
        assert!(
            (total - 1.0).abs() < 1e-9,
            "case {i}: outcomes sum to {total}"
        );
        let run = McRun {
            trials: 20_000,
            seed: 11,
            stream: i as u64,
            progress: &Progress::hidden(),
        };
        let tally = b.monte_carlo(&run);
        if let Err(why) = agreement(&b.schema, &exact, &tally, 5.0) {
            panic!("case {i} disagrees:\n{why}\n{text}");
        }
        cases += 1;
    }
    assert!(cases >= 50);
}

#[test]
fn bad_input_names_the_field() {
    let table: toml::Table =
        "[attacker]\nunits = { \"IX-RC\" = 3 }\n[defender]\nunits = { IM = 2 }"
            .parse()
            .unwrap();
    let fields = Fields::new("b.toml", &table);
    let e = parse_armies(&fields).err().unwrap();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("attacker.units.IX-RC"), "{e}");
}

/// A commander ordering `strategy = "best"` ends up with a win chance at least as good as raising,
/// lowering or not using his level would give (within simulation noise).
#[test]
fn best_strategy_beats_each_fixed_sign() {
    let text = |strategy: &str| {
        format!(
            r#"
hex = "rough"
resolution = 10
max_days = 6
[attacker]
units = {{ "CM-RC" = 6, "IL-RC" = 2 }}
tactical = 2
strategic = 3
strategy = "{strategy}"
tactic = "AE"
[defender]
units = {{ "IP-RC" = 6 }}
tactical = 2
tactic = "DE"
"#
        )
    };
    let progress = Progress::hidden();
    let win = |strategy: &str| {
        let b = battle(&text(strategy));
        let run = McRun {
            trials: 40_000,
            seed: 3,
            stream: 0,
            progress: &progress,
        };
        let tally = b.monte_carlo(&run);
        let est = crate::battle::Estimates::from_tally(&tally);
        (est.outcomes[0].value, est.outcomes[0].se.unwrap_or(0.0))
    };
    let best = win("best");
    let fixed = ["raise", "none", "lower"].map(win);
    let top = fixed.iter().map(|f| f.0).fold(0.0, f64::max);
    assert!(
        best.0 >= top - 5.0 * (best.1 + 0.01),
        "best {best:?} vs raise/none/lower {fixed:?}"
    );
    // The choice matters here, so "best" is not simply "none".
    let spread = top - fixed.iter().map(|f| f.0).fold(1.0, f64::min);
    assert!(spread > 0.02, "the terrain should matter: {fixed:?}");
    let b = battle(&text("best"));
    assert!(
        b.notes().iter().any(|n| n.contains("\"best\" chosen")),
        "{:?}",
        b.notes()
    );
}

/// The work budget is shared by the terrain cases and gives a reason when it runs out; with room
/// enough the same battle is answered.
#[test]
fn the_exact_budget_gives_up_with_a_reason() {
    let b = battle(
        "hex = \"plain\"\nresolution = 6\nmax_days = 3\n[attacker]\nunits = { \"IM-RC\" = 4 }\n[defender]\nunits = { \"IL-RC\" = 3 }",
    );
    assert!(b.cases.len() > 1, "a rolled terrain has several cases");
    let progress = Progress::hidden();
    let mut tight = Budget {
        states: 300_000,
        work: 20_000,
        used: 0,
        progress: Some(&progress),
    };
    let why = b
        .solve(&mut tight)
        .expect_err("20,000 resolutions are not enough");
    assert!(why.0.contains("segment resolutions"), "{}", why.0);
    let mut room = Budget::quick();
    let exact = b.solve(&mut room).expect("within the quick budget");
    assert!(room.used > 20_000);
    assert!((exact.outcomes.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

/// Digest D8 and D7 on a battle decided by overrun (20:1): the winner's commander dies with 1/216
/// and is wounded with 5/216, the exterminated side's with 7/12 and 1/4; the winner, a leader 2,
/// is promoted with 1/5; no troop promotes after an overrun.
#[test]
fn d8_leader_risk_and_promotion_after_an_overrun() {
    let b = battle(
        "battle_terrain = 1\n[attacker]\nunits = { \"IM-RC\" = 40 }\ntactical = 2\n[defender]\nunits = { \"IL-RC\" = 1 }\ntactical = 1",
    );
    let ex = b.exact().unwrap();
    let s = |name: &str| ex.scalars[b.schema.scalar_index(name).unwrap()];
    assert!((ex.outcomes[0] - 1.0).abs() < 1e-12);
    assert!((s("overrun") - 1.0).abs() < 1e-12);
    assert!((s(&side_column(SIDES[0], "leader_killed")) - 1.0 / 216.0).abs() < 1e-12);
    assert!((s(&side_column(SIDES[0], "leader_wounded")) - 5.0 / 216.0).abs() < 1e-12);
    assert!((s(&side_column(SIDES[1], "leader_killed")) - 7.0 / 12.0).abs() < 1e-12);
    assert!((s(&side_column(SIDES[1], "leader_wounded")) - 0.25).abs() < 1e-12);
    assert!((s(&side_column(SIDES[0], "leader_promoted")) - 0.2).abs() < 1e-12);
    assert_eq!(s(&side_column(SIDES[0], "units_promoted")), 0.0);
}

/// After an ordinary won battle both sides' surviving units may rise in morale, and the beaten
/// side's commander (loser: 1/36 dies, 1/18 wounded) is never promoted.
#[test]
fn troops_promote_after_a_fought_battle() {
    let b = battle(
        "battle_terrain = 1\nresolution = 6\nmax_days = 3\n[attacker]\nunits = { \"IM-RD\" = 6 }\ntactical = 1\n[defender]\nunits = { \"IL-RC\" = 4 }\ntactical = 1",
    );
    let ex = b.exact().unwrap();
    let s = |name: &str| ex.scalars[b.schema.scalar_index(name).unwrap()];
    assert!(s(&side_column(SIDES[0], "units_promoted")) > 0.0);
    assert!(s(&side_column(SIDES[1], "units_promoted")) >= 0.0);
    let (pa, pd) = (ex.outcomes[0], ex.outcomes[1]);
    // A commander is promoted only when his side wins: 1/4 for a leader 1, 3/10 when he won at
    // 1:2 or worse in combat factors.
    let e = &b.cases[0].plan.engine;
    let f = [0, 1].map(|k| e.all_factors(&e.start, k));
    let chance = |k: usize| if 2.0 * f[k] <= f[1 - k] { 0.3 } else { 0.25 };
    assert!((s(&side_column(SIDES[0], "leader_promoted")) - pa * chance(0)).abs() < 1e-12);
    assert!((s(&side_column(SIDES[1], "leader_promoted")) - pd * chance(1)).abs() < 1e-12);
}

/// Digest T2 ("4-3" = tactical 4, strategic 3) and bad leader notation.
#[test]
fn t2_leader_notation() {
    assert_eq!(super::super::army::parse_leader("4-3"), Some((4, 3)));
    assert_eq!(super::super::army::parse_leader("6-1"), None);
    let b = battle("battle_terrain = 1\n[attacker]\nleader = \"4-3\"\nunits = { \"IM-RC\" = 2 }\n[defender]\nunits = { \"IM-RC\" = 2 }");
    assert_eq!((b.armies[0].tactical, b.armies[0].strategic), (4, 3));
    let table: toml::Table = "[attacker]\nleader = \"4\"\nunits = { \"IM-RC\" = 2 }\n[defender]\nunits = { \"IM-RC\" = 2 }"
        .parse()
        .unwrap();
    let e = parse_armies(&Fields::new("t.toml", &table)).unwrap_err();
    assert!(e.to_string().contains("attacker.leader"), "{e}");
}

/// Digest T4 and T5: a code "3-2" reads casualty column 3 and morale column 2, and a side inflicts
/// its table percentage of its own factors whatever the enemy's size (1,000 factors x 20% = 200).
#[test]
fn t4_t5_casualties_count_the_firers_own_factors() {
    assert_eq!(super::super::engine::parse_code("3-2"), Some((3, 2)));
    let inflicted = |defenders: u32| {
        let b = battle(&format!(
            "battle_terrain = 1\nresolution = 100000\n[attacker]\nunits = {{ \"IM-RC\" = 10 }}\n[defender]\nunits = {{ \"IM-RC\" = {defenders} }}"
        ));
        let e = &b.cases[0].plan.engine;
        let st = e.start;
        let ctx = e.context(&st, 1, 2, [false, false], [false, false]);
        let next = match e.resolve(&st, &ctx, [0, 0], [(20, 0), (0, 0)], 2) {
            super::super::engine::Step::Go(s) | super::super::engine::Step::End(s, _) => s,
        };
        let own = e.factors(&st, 0);
        let lost = e.all_factors(&st, 1) - e.all_factors(&next, 1);
        (own, lost)
    };
    for defenders in [8, 30] {
        let (own, lost) = inflicted(defenders);
        assert!(
            (lost - 0.2 * own).abs() < 1e-3 * own,
            "{defenders}: {lost} of {own}"
        );
    }
}

/// Two groups may share a label (type, quality, morale) and differ only in being veterans or the
/// guard: both stay in the army, in the casualty order given, and a key named twice counts once.
#[test]
fn groups_sharing_a_label_are_all_kept() {
    let b = battle(
        "battle_terrain = 1\n[attacker]\nunits = { \"IM-RC\" = 5, \"IM\" = 3 }\nveterans = [\"IM\"]\ncasualty_order = [\"IM\", \"IM\"]\n[defender]\nunits = { \"IM-RC\" = 2 }",
    );
    let groups = &b.armies[0].groups;
    let total: f64 = groups.iter().map(|g| g.units).sum();
    assert_eq!(total, 8.0, "{groups:?}");
    assert_eq!(groups.len(), 2);
    assert!(groups[0].veteran && groups[0].units == 3.0, "{groups:?}");
    assert!(!groups[1].veteran && groups[1].units == 5.0, "{groups:?}");
}
