//! Tests of the shipped ladder file against the competent file: the `centre` rung is the scripted
//! policy at the centre of every range the competent file declares to the tuner.

use super::policy::SCRIPTED;

const LADDER: &str = "experiments/mediterraneo-ladder.toml";
const COMPETENT: &str = "experiments/mediterraneo-competent.toml";

fn table(path: &str) -> toml::Table {
    let text = std::fs::read_to_string(path).unwrap();
    toml::from_str(&text).unwrap()
}

fn number(v: &toml::Value) -> f64 {
    v.as_float()
        .or(v.as_integer().map(|i| i as f64))
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The centre rung's parameters: each is the midpoint (lo + hi) / 2 of its range, unrounded (the
/// policy rounds its whole-number parameters itself), as the ladder header says; the rung names
/// no parameter the tuner is not given, and every player's ranges have the same centre. Fails
/// when a range or the rung changes without the other (ms20 once left two parameters out).
#[test]
fn the_centre_rung_is_at_the_centre_of_every_competent_range() {
    let ladder = table(LADDER);
    let rungs = ladder["ladder"]["rungs"].as_array().unwrap();
    let centre = rungs
        .iter()
        .find(|r| r["name"].as_str() == Some("centre"))
        .expect("a centre rung")["policy"]
        .as_table()
        .unwrap();
    assert_eq!(centre["policy"].as_str(), Some("scripted"));
    let competent = table(COMPETENT);
    let players = competent["tune"]["players"].as_table().unwrap();
    assert_eq!(players.len(), 7, "the seven majors");
    for (player, ranges) in players {
        let ranges = ranges.as_table().unwrap();
        for (name, range) in ranges {
            let range = range.as_array().unwrap();
            let (lo, hi) = (number(&range[0]), number(&range[1]));
            let at = centre.get(name).unwrap_or_else(|| {
                panic!("{player}'s range {name} has no value in the centre rung")
            });
            assert!(
                (number(at) - (lo + hi) / 2.0).abs() < 1e-9,
                "centre rung {name} = {at}, the centre of {player}'s range [{lo}, {hi}] is {}",
                (lo + hi) / 2.0
            );
        }
        for name in centre.keys().filter(|k| *k != "policy") {
            assert!(
                ranges.contains_key(name),
                "the centre rung sets {name}, which {player}'s ranges do not declare"
            );
        }
    }
    // Every scripted parameter but odds_trials (how carefully the odds are measured, not a choice
    // of play) is declared to the tuner and so sits at its centre.
    for p in SCRIPTED.iter().filter(|p| p.name != "odds_trials") {
        assert!(
            centre.contains_key(p.name),
            "{} not in the centre rung",
            p.name
        );
    }
}
