//! The digest's worked examples and the exact answer against Monte Carlo.

use super::*;
use crate::battle::agreement;
use crate::battle::McRun;
use crate::progress::Progress;

fn battle(kind: Kind, text: &str) -> RomanBattle {
    let table: Table = text.parse().unwrap();
    let f = Fields::new("test", &table);
    let empty = Table::new();
    let options =
        Options::resolve(super::super::OPTIONS, f.table("options", &empty).unwrap()).unwrap();
    RomanBattle::build(&f, options, kind).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn t12_marius_against_the_gladiators() {
    // Marius (MIL 4), 9 legions, no fleet, against the Gladiator Revolt (6) with Spartacus (5).
    let b = battle(
        Kind::Land,
        "enemy_leaders = [\"Spartacus\"]\n[rome]\nlegions = 9\ncommander_military = 4\n[war]\nname = \"Gladiator Revolt\"",
    );
    assert_eq!(b.drms, vec![(2, 1.0)]);
    // A roll of 10: total 12 → Stalemate, one legion lost and no fleet (there is none).
    assert_eq!(b.resolve(10, 2), (STALEMATE, 1, 0));
    // Rolls 6 and 11 are Disasters (5 legions lost), 14 and 16 Standoffs (3 lost).
    assert_eq!(b.resolve(6, 2), (DISASTER, 5, 0));
    assert_eq!(b.resolve(11, 2), (DISASTER, 5, 0));
    assert_eq!(b.resolve(14, 2), (STANDOFF, 3, 0));
    let ex = b.solve();
    assert!((ex.outcomes[DISASTER] - 37.0 / 216.0).abs() < 1e-12);
    assert!((ex.outcomes[STANDOFF] - 21.0 / 216.0).abs() < 1e-12);
    // With 3 legions his MIL counts as 3 only.
    let small = battle(Kind::Land, "enemy_leaders = [\"Spartacus\"]\n[rome]\nlegions = 3\ncommander_military = 4\n[war]\nname = \"Gladiator Revolt\"");
    assert_eq!(small.drms, vec![(3 + 3 - 11, 1.0)]);
}

#[test]
fn t22_ransom() {
    // Influence 3 → 10 T (the minimum); Influence 8 → 16 T.
    assert_eq!(ransom(3), 10.0);
    assert_eq!(ransom(8), 16.0);
    let b = battle(Kind::Land, "[rome]\nlegions = 5\ncommander_military = 2\ncommander_influence = 8\n[war]\nname = \"Gladiator Revolt\"");
    let ex = b.solve();
    let (ransom, captured) = (b.ransom_column.unwrap(), b.columns.captured);
    assert!((ex.scalars[ransom] - 16.0 * ex.scalars[captured]).abs() < 1e-12);
    assert!(ex.scalars[captured] > 0.0);
}

#[test]
fn t11_the_lusitanian_diagram() {
    // Lusitanian War (6) doubled by the Numantine War, with Viriathus (+5): 17. Rome: 16 strength, MIL 4.
    let text = |commander: &str| {
        format!("matching_wars = 2\nenemy_leaders = [\"Viriathus\"]\n[rome]\nlegions = 16\nfleets = 2\n{commander}\n[war]\nname = \"Lusitanian War\"")
    };
    let with = battle(Kind::Land, &text("commander = \"1B\""));
    assert_eq!(with.drms, vec![(3, 1.0)]);
    let without = battle(Kind::Land, &text("commander_military = 4"));
    assert_eq!(without.drms, vec![(3, 1.0)]);
    let (w, wo) = (with.solve(), without.solve());
    assert!(
        (w.outcomes[DISASTER] - 10.0 / 216.0).abs() < 1e-12,
        "{}",
        w.outcomes[DISASTER] * 216.0
    );
    assert!(
        (w.outcomes[STANDOFF] - 25.0 / 216.0).abs() < 1e-12,
        "{}",
        w.outcomes[STANDOFF] * 216.0
    );
    assert!((wo.outcomes[DISASTER] - 20.0 / 216.0).abs() < 1e-12);
    assert!((wo.outcomes[STANDOFF] - 58.0 / 216.0).abs() < 1e-12);
}

#[test]
fn exact_and_monte_carlo_agree_on_a_grid() {
    let progress = Progress::hidden();
    let mut cases = 0;
    let commanders = [
        "commander_military = 0",
        "commander = \"P. Cornelius Scipio Africanus\"",
        "commander = \"Q. Fabius Maximus Verrucosus Cunctator\"",
        "commander = \"Cn. Pompeius Magnus\"",
    ];
    for war in data().wars.iter().filter(|w| w.deck == "early") {
        for (legions, veterans, fleets) in
            [(1, 0, 1), (4, 2, 5), (9, 0, 8), (15, 5, 12), (20, 5, 25)]
        {
            for commander in commanders.map(|c| {
                if c.starts_with("commander_military") {
                    format!("{c}\ncommander_influence = 7")
                } else {
                    c.to_string()
                }
            }) {
                let kinds: &[Kind] = if war.naval > 0 {
                    &[Kind::Land, Kind::Naval]
                } else {
                    &[Kind::Land]
                };
                for &kind in kinds {
                    let text = format!(
                        "matching_wars = {}\n[rome]\nlegions = {legions}\nveteran_legions = {veterans}\nfleets = {fleets}\n{commander}\n[war]\nname = \"{}\"\nnaval_victory = true\nfleet_support = 0",
                        1 + cases % 3,
                        war.name
                    );
                    let b = battle(kind, &text);
                    let ex = b.solve();
                    assert!((ex.outcomes.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    let run = McRun {
                        trials: 40_000,
                        seed: 8,
                        stream: cases,
                        progress: &progress,
                    };
                    if let Err(e) = agreement(&b.schema, &ex, &b.monte_carlo(&run), 5.0) {
                        panic!("{kind:?} {text}\n{e}");
                    }
                    cases += 1;
                }
            }
        }
    }
    assert!(cases >= 100, "{cases}");
}
