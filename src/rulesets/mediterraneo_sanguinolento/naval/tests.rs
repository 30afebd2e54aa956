use super::*;
use crate::battle::agreement;
use crate::battle::McRun;
use crate::progress::Progress;

fn table(text: &str) -> Table {
    text.parse().expect("test TOML")
}

fn try_battle(text: &str) -> Result<NavalBattle> {
    let t = table(text);
    let fields = Fields::new("t.toml", &t);
    // The keys are checked against their declarations before the build runs, as `load_battle` does.
    crate::battle::keys::check(&fields, KEYS)?;
    let empty = Table::new();
    let options = Options::resolve(super::super::OPTIONS, fields.table("options", &empty)?)?;
    NavalBattle::from_fields(&fields, &options)
}

fn battle(text: &str) -> NavalBattle {
    try_battle(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} vs {b}");
}

/// Digest §7.2 D3: cell(R, C).attacker == cell(C, R).defender except the 6 A30 cells; read
/// "symmetric" every cell agrees with its mirror, read "printed" or "digest" the 5 cells other than
/// PE/DI (whose "11-1-12*" is read "11-11-12*") keep their printed codes.
#[test]
fn d3_naval_matrix_symmetry() {
    let d = data();
    let raw = MATRICES
        .iter()
        .flat_map(|r| MATRICES.iter().map(move |c| (r, c)))
        .filter(|(r, c)| {
            let (x, m) = (d.naval_cell(r, c).unwrap(), d.naval_cell(c, r).unwrap());
            assert_eq!(x.kind, m.kind);
            x.attacker_fires != m.defender_fires
        })
        .count();
    assert_eq!(raw, 6);
    for (reading, expected) in [("symmetric", 0), ("printed", 5), ("digest", 5)] {
        let at = |def: &str, att: &str| {
            battle(&format!(
                "[attacker]\nfleets = {{ FT = 1 }}\nmatrix = \"{att}\"\n[defender]\nfleets = {{ FT = 1 }}\nmatrix = \"{def}\"\n[options]\nnaval_matrix = \"{reading}\""
            ))
            .cell
        };
        let mut differ = 0;
        let mut no_combat = 0;
        for r in MATRICES {
            for c in MATRICES {
                match (at(r, c), at(c, r)) {
                    (Some(x), Some(m)) => differ += (x[0] != m[1]) as usize,
                    (None, None) => no_combat += 1,
                    _ => panic!("{r}/{c}: combat on one side only"),
                }
            }
        }
        assert_eq!((differ, no_combat), (expected, 4), "{reading}");
    }
    // The PE/DI misprint is read 11-11-12* in every reading.
    let b = battle("[attacker]\nfleets = { FT = 1 }\nmatrix = \"DI\"\n[defender]\nfleets = { FT = 1 }\nmatrix = \"PE\"\n[options]\nnaval_matrix = \"printed\"");
    assert_eq!(b.cell.unwrap()[0].map(|c| c.show()), ["11", "11", "12*"]);
}

/// §3.5.4 / D13: Greek fire sinks, on average, 17.5% of the Greek fleet's factors in ships. Twenty FT
/// of morale C have 100 ram factors: 17.5 ships on average (10, 15, 15, 20, 20, 25).
#[test]
fn greek_fire_mean_is_seventeen_and_a_half_percent_of_the_factors() {
    let b = battle(
        "[attacker]\nfleets = { FT = 20 }\ngreek_fire = true\n[defender]\nfleets = { FG = 20 }",
    );
    let st = b.start();
    let total: u32 = (1..=6)
        .map(|g| b.greek(0, st.rem[0], data().archery(g)))
        .sum();
    assert_eq!(total, 105);
    // Half the ships left, half the fire.
    assert_eq!(b.greek(0, st.rem[0] / 2, 20), 10);
    // In the exact chain, a ram segment's shot adds it: with dice 1..6 for Greek fire the attacker's
    // expected loss inflicted rises by exactly 17.5 ships.
    let plain = battle("[attacker]\nfleets = { FT = 20 }\n[defender]\nfleets = { FG = 20 }");
    let code = Code::fire(3, 2);
    let mean = |b: &NavalBattle| -> f64 {
        let mut v = Vec::new();
        b.shots(&st, 0, false, code, &mut v);
        v.iter().map(|(s, p)| s.loss as f64 * p).sum()
    };
    close(mean(&b) - mean(&plain), 17.5);
}

/// A hand-computed ram segment. Attacker 4 FT, regular C (morale 3), naval leader 2, matrix DI;
/// defender 5 FG, irregular C (morale 2), naval leader 1, matrix ES. Cell ES/DI: attacker fires
/// 52-42-32, defender 11-11-11; segment 1 = 52 against 11.
/// Factors: attacker 4 x 5 = 20, defender 5 x 2 = 10 (0.2 a ship). Blocks: 3 and 2.
/// LEAD[2][1] = 0 for the attacker, LEAD[1][2] = -1 for the defender. Dice: attacker 4, defender 3.
/// Attacker: block 3, casualty row 4, column 5 -> 15%; morale row 4, column 2 -> 0.6.
///   15% x 20 = 3 factors = 15 FG ships out of action.
/// Defender: block 2, casualty row 3 - 1 = 2, column 1 -> 0%; morale row 3, column 1 -> 0.1.
/// After: defender 35 ships, morale 1.4; attacker 40 ships, morale 2.9.
#[test]
fn hand_computed_ram_segment() {
    let b = battle(
        "[attacker]\nfleets = { FT = 4 }\nleader = 2\nmatrix = \"DI\"\n[defender]\nfleets = { FG = 5 }\nquality = \"irregular\"\nleader = 1",
    );
    let st = b.start();
    let Plan::Fire(codes, false) = b.plan(&st) else {
        panic!("segment 1 of ES/DI is a plain ram segment")
    };
    assert_eq!(
        (codes[0].show(), codes[1].show()),
        ("52".into(), "11".into())
    );
    let a = b.fire(&st, 0, false, codes[0], 4, 4, 0);
    let d = b.fire(&st, 1, false, codes[1], 3, 3, 0);
    assert_eq!(a, Shot { loss: 15, mor: 60 });
    assert_eq!(d, Shot { loss: 0, mor: 10 });
    let mut n = b.apply(&st, false, [a, d]);
    assert_eq!(n.rem, [40, 35]);
    assert_eq!([b.morale(&n, 0, false), b.morale(&n, 1, false)], [290, 140]);
    assert!(matches!(b.after(&mut n), After::Go));
}

/// A boarding segment with a capture. Attacker 2 FT regular B (x1.5) with 4 IM regular B aboard and the
/// corvus: (2 x 15 + 4 x 4) x 1.5 x 1.2 = 82.8 factors, morale (2 x 4 + 4 x 4) / 6 = 4. Defender 3 FG
/// irregular D: 30 factors (1 a ship), morale 1. No leaders: LEAD[0][0] = -1 each.
/// Dice: attacker 5 -> block 4, casualty row 4, column 3 -> 10%; morale row 5, column 3 -> 1.2.
///   10% x 82.8 = 8.28 factors = 8 ships captured (floored).
/// Defender 2 -> block 1, casualty row 1 -> 0%; morale row 2, column 3 -> 0.1.
/// The defender's morale falls to -0.2: it routs, 8 of its ships captured, and the attacker pursues.
#[test]
fn boarding_segment_with_capture() {
    let b = battle(
        "[attacker]\nfleets = { FT = 2 }\nmorale = \"B\"\nembarked = { IM = 4 }\ncorvus = true\ncombat = \"boarding\"\n[defender]\nfleets = { FG = 3 }\nquality = \"irregular\"\nmorale = \"D\"\ncombat = \"boarding\"",
    );
    assert!(b.boarding_battle);
    assert_eq!(b.sides[0].board, 33_120); // 82.8 x 400
    assert_eq!(b.sides[0].morale_board, 400);
    assert_eq!(b.sides[1].morale_board, 100);
    let st = b.start();
    assert!(matches!(b.plan(&st), Plan::Board));
    let a = b.fire(&st, 0, true, BOARD_CODE, 5, 5, 0);
    let d = b.fire(&st, 1, true, BOARD_CODE, 2, 2, 0);
    assert_eq!(a, Shot { loss: 8, mor: 120 });
    assert_eq!(d, Shot { loss: 0, mor: 10 });
    let mut n = b.apply(&st, true, [a, d]);
    assert_eq!((n.rem[1], n.cap[1]), (22, 8));
    let After::Done(fin) = b.after(&mut n) else {
        panic!("the defender routs")
    };
    assert_eq!(fin, Fin::win(0, true));
    let ending = Ending::of(&n, fin);
    assert!(b.pursues(&ending));
    let mut t = Trial::default();
    b.record(&n, fin, 0, &mut t);
    assert_eq!(t.outcome, 0);
    let c = &b.columns;
    assert_eq!(t.counts[c.losses[1]], 8);
    assert_eq!(t.counts[c.captured[1]], 8);
    assert_eq!(t.scalars[c.boarding], 1.0);
    // Pursuit by the attacker's ram factors, 2 x 5 x 1.5 = 15: row 6, column 6 = 25% -> 3.75 factors,
    // at 0.2 a FG ship 18.75 ships, floored: 18.
    assert_eq!(b.pursuit_loss(&ending, 6, 6), 18);
}

#[test]
fn kind_of_combat_follows_the_better_leader() {
    let text = |la: u32, ld: u32| {
        format!("[attacker]\nfleets = {{ FT = 2 }}\ncombat = \"boarding\"\nleader = {la}\n[defender]\nfleets = {{ FT = 2 }}\nleader = {ld}")
    };
    assert!(battle(&text(3, 2)).boarding_battle);
    assert!(!battle(&text(2, 3)).boarding_battle);
    assert!(!battle(&text(2, 2)).boarding_battle);
}

#[test]
fn no_combat_cell_gives_no_battle() {
    let b = battle("[attacker]\nfleets = { FT = 2 }\nmatrix = \"KY\"\n[defender]\nfleets = { FG = 2 }\nmatrix = \"RP\"");
    assert!(b.cell.is_none());
    let ex = b.solve().unwrap();
    close(ex.outcomes[2], 1.0);
}

#[test]
fn exact_distributions_are_complete() {
    let b = battle("[attacker]\nfleets = { FT = 1, FG = 1 }\nleader = 2\n[defender]\nfleets = { FB = 2 }\nmorale = \"B\"\nmatrix = \"DL\"");
    let ex = b.solve().unwrap();
    close(ex.outcomes.iter().sum(), 1.0);
    for pmf in &ex.counts {
        close(pmf.total(), 1.0);
    }
}

/// The grid: different matrices, ram and boarding, Greek fire, morale, weather, sizes, retreat
/// policies, options. Exact and Monte Carlo must agree within 5 standard errors everywhere.
#[test]
fn exact_and_monte_carlo_agree_on_a_grid() {
    let cases = [
        "[attacker]\nfleets = { FT = 1 }\n[defender]\nfleets = { FT = 1 }",
        "max_days = 3\n[attacker]\nfleets = { FT = 1, FG = 1 }\nleader = 2\nmatrix = \"DI\"\n[defender]\nfleets = { FB = 2 }\nmorale = \"B\"\nmatrix = \"DL\"",
        "[attacker]\nfleets = { FQ = 1 }\nmatrix = \"PE\"\n[defender]\nfleets = { FTR = 2 }\nmatrix = \"DI\"",
        "[attacker]\nfleets = { FG = 2 }\nbarbarian = true\nquality = \"irregular\"\nmatrix = \"KY\"\n[defender]\nfleets = { FT = 1 }\nmatrix = \"ES\"",
        "max_days = 4\n[attacker]\nfleets = { FT = 1 }\ngreek_fire = true\nmatrix = \"RP\"\n[defender]\nfleets = { FT = 1.5 }\nmatrix = \"PE\"",
        "[attacker]\nfleets = { FT = 1 }\ncombat = \"boarding\"\nembarked = { IM = 2 }\ncorvus = true\n[defender]\nfleets = { FG = 2 }\ncombat = \"boarding\"\nmorale = \"D\"",
        "weather = \"rain\"\nmax_days = 3\n[attacker]\nfleets = { FB = 1.5 }\nmorale = \"A\"\n[defender]\nfleets = { FG = 2.3 }\nmatrix = \"DL\"",
        "weather = \"storm\"\nwinter = true\nmax_days = 3\n[attacker]\nfleets = { FT = 2 }\nmatrix = \"DL\"\n[defender]\nfleets = { FQ = 1 }\nmatrix = \"DL\"",
        "max_days = 3\n[attacker]\nfleets = { FT = 1 }\nretreat_below_morale = 2.5\nmatrix = \"ES\"\n[defender]\nfleets = { FT = 2 }\nleader = 3\nmatrix = \"DI\"",
        "max_days = 3\n[attacker]\nfleets = { FG = 3 }\nretreat_after_losses = 20\nleader = 1\n[defender]\nfleets = { FT = 1 }\ngreek_fire = true\nmatrix = \"RP\"\npursue = false",
        "max_days = 4\n[attacker]\nfleets = { FT = 1 }\nmatrix = \"DL\"\n[defender]\nfleets = { FT = 1 }\nmatrix = \"KY\"\n[options]\nboarding_persists = false",
        "max_days = 3\n[attacker]\nfleets = { FT = 1 }\nembarked = { IL = 2 }\nmatrix = \"ES\"\n[defender]\nfleets = { FB = 1 }\nembarked = { IP = 1 }\nembarked_morale = \"A\"\nmatrix = \"ES\"",
        "max_days = 2\n[attacker]\nfleets = { FT = 1 }\nmorale = \"D\"\nquality = \"irregular\"\n[defender]\nfleets = { FT = 1 }\nmorale = \"A\"\n[options]\nmorale_die = \"separate\"",
        "max_days = 3\n[attacker]\nfleets = { FT = 2 }\n[defender]\nfleets = { FG = 2 }\nmatrix = \"PE\"\n[options]\ncrt = \"printed\"\ncrt_block = \"first-digit\"\nfloor_factor_casualties = true",
        "[attacker]\nfleets = { FT = 1, FTR = 1 }\ncombat = \"boarding\"\ninfantry_leader = 5\n[defender]\nfleets = { FC = 2, FG = 1 }\ncombat = \"boarding\"\nleader = 1",
        "max_days = 1\n[attacker]\nfleets = { FT = 2 }\nmorale = \"A\"\nmatrix = \"DI\"\n[defender]\nfleets = { FT = 2 }\nmorale = \"A\"\nmatrix = \"DI\"",
        "max_days = 3\n[attacker]\nfleets = { FT = 1 }\nretreat_after_losses = 10\nretreat_below_morale = 2\nleader = 2\n[defender]\nfleets = { FT = 1 }\nretreat_below_morale = 2.8\nmatrix = \"DL\"\n[options]\nnaval_retreat_target = 6",
    ];
    let progress = Progress::hidden();
    for (i, text) in cases.iter().enumerate() {
        let b = battle(text);
        let ex = b.solve().unwrap_or_else(|e| panic!("case {i}: {}", e.0));
        close(ex.outcomes.iter().sum(), 1.0);
        let run = McRun {
            trials: 20_000,
            seed: 11,
            stream: i as u64,
            progress: &progress,
        };
        if let Err(e) = agreement(&b.schema, &ex, &b.monte_carlo(&run), 5.0) {
            panic!("case {i}:\n{text}\n{e}");
        }
    }
    assert!(cases.len() >= 15);
}

#[test]
fn bad_input_names_the_field() {
    for (text, field) in [
        ("[attacker]\nfleets = { FT = 0.25 }\n[defender]\nfleets = { FT = 1 }", "attacker.fleets.FT"),
        ("[attacker]\nfleets = { FX = 1 }\n[defender]\nfleets = { FT = 1 }", "attacker.fleets.FX"),
        ("[attacker]\nfleets = { FT = 1 }\nleader = 6\n[defender]\nfleets = { FT = 1 }", "attacker.leader"),
        ("[attacker]\nfleets = { FT = 1 }\n[defender]\nfleets = { FT = 1 }\nmatrix = \"XX\"", "defender.matrix"),
        ("[attacker]\nfleets = { FT = 1 }\n[defender]\nfleets = { FG = 0 }", "defender.fleets"),
        ("[attacker]\nfleets = { FG = 1 }\nembarked = { IM = 2 }\n[defender]\nfleets = { FT = 1 }", "attacker.embarked"),
        ("max_days = 0\n[attacker]\nfleets = { FT = 1 }\n[defender]\nfleets = { FT = 1 }", "max_days"),
        ("weather = \"fog\"\n[attacker]\nfleets = { FT = 1 }\n[defender]\nfleets = { FT = 1 }", "weather"),
        ("[attacker]\nfleets = { FT = 1 }\nretreat_after_losses = 120\n[defender]\nfleets = { FT = 1 }", "attacker.retreat_after_losses"),
    ] {
        let e = try_battle(text).err().unwrap_or_else(|| panic!("accepted: {text}"));
        assert_eq!(e.exit_code(), 2, "{e}");
        assert!(e.to_string().contains(field), "{field}: {e}");
    }
    let e =
        try_battle("[attacker]\nfleets = { FT = 1 }\nships = 3\n[defender]\nfleets = { FT = 1 }")
            .err()
            .unwrap();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("ships"), "{e}");
}

/// Digest D14: storm loss probability per fleet move.
#[test]
fn d14_storm_loss_probability() {
    assert!((storm_loss_chance("clear", false, false, false) - 1.0 / 60.0).abs() < 1e-12);
    // Storm weather, winter, Atlantic, began at sea (+5): 5/10 x P(2D6 >= 5) = 5/12.
    assert!((storm_loss_chance("storm", true, true, true) - 5.0 / 12.0).abs() < 1e-12);
    assert_eq!(storm_number("snow"), 5);
    assert_eq!(storm_number("rain"), 2);
}
