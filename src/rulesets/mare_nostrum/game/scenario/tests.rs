//! Every row of the shipped scenario, and a bad row in any part.

use super::*;

const PATH: &str = "scenarios/mare-nostrum/segunda-guerra-punica.toml";

fn load(text: &str) -> Result<Scenario> {
    Scenario::load("x.toml", text, &Table::new(), "game.assumptions", "e.toml")
}

/// Every row of the shipped scenario passes the checks `load` makes row by row, and the split
/// over provinces keeps each nation's totals.
#[test]
fn every_row_of_the_shipped_scenario_is_valid() {
    let s = load(&std::fs::read_to_string(PATH).unwrap()).unwrap();
    assert_eq!(s.nations.len(), 13);
    for n in &s.nations {
        let total = |f: fn(&ProvinceData) -> u32| -> u32 {
            n.provinces.iter().map(|&p| f(&s.provinces[p])).sum()
        };
        let split = [
            total(|p| p.ppu),
            total(|p| p.ppr),
            total(|p| p.harvests),
            total(|p| p.mines),
            total(|p| p.deposits),
            total(|p| p.herds),
        ];
        let totals = [n.ppu, n.ppr, n.harvests, n.mines, n.deposits, n.herds];
        assert_eq!(split, totals, "{}", n.key);
        assert_eq!(s.provinces[n.capital].garrison, s.provinces[n.capital].ppu);
    }
    let faces: u32 = s
        .replacement_leaders
        .iter()
        .map(|r| r.high - r.low + 1)
        .sum();
    assert_eq!(faces, 20);
}

/// A bad row in any part of the file is reported with the file, the entry and the value.
#[test]
fn a_bad_row_in_any_part_names_the_file_its_entry_and_value() {
    let text = std::fs::read_to_string(PATH).unwrap();
    let cases = [
        ("code = \"IT2\"", "code = \"IT1\"", "map.province[1].code"),
        (
            "ports = [\"tyrrhenian\"]",
            "ports = [\"tyrrhenean\"]",
            "tyrrhenean",
        ),
        ("\"IT6-IT8:strait\"", "\"IT6-IT8:bridge\"", "map.land[10]"),
        (
            "\"western-tyrrhenian\"",
            "\"western-tyrrhenia\"",
            "map.sea_links[0]",
        ),
        (
            "mercenaries = \"none\"",
            "mercenaries = \"some\"",
            "nation[0].mercenaries",
        ),
        (
            "strategy_level = \"E\"",
            "strategy_level = \"G\"",
            "nation[0].strategy_level",
        ),
        (
            "commercial_alliances = [\"rome\"]",
            "commercial_alliances = []",
            "mutual",
        ),
        (
            "code = \"GL8\"   # Aquitani\nprovenance",
            "code = \"GL7\"   # Aquitani\nprovenance",
            "independent[1].code",
        ),
        (
            "garrison_fraction = 0.5",
            "garrison_fraction = 1.5",
            "assumptions.garrison_fraction",
        ),
        (
            "units_start = \"capital\"",
            "units_start = \"field\"",
            "assumptions.units_start",
        ),
        (
            "level = \"C\", infantry = 3, cavalry = 2",
            "level = \"Z\", infantry = 3, cavalry = 2",
            "initial[7].level",
        ),
        (
            "d20 = [20, 20]",
            "d20 = [19, 20]",
            "independent_leaders.replacement",
        ),
    ];
    for (from, to, named) in cases {
        assert!(text.contains(from), "{from}");
        let e = load(&text.replacen(from, to, 1)).err().unwrap().to_string();
        assert!(e.contains("x.toml") && e.contains(named), "{to}: {e}");
    }
}
