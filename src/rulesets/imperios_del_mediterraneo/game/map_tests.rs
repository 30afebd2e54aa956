//! Explicit map files (digest §6.3's schema): the mirror ring written out loads to the ring
//! itself and plays the same games; perturbations apply to an explicit base as to the ring; a bad
//! map file is a one-line error naming the file, the field and the value.

use super::game_tests::{game_with, options, RING};
use super::load::{load, load_with_map};
use super::map::MapSpec;
use super::policy::Policy;
use super::scenario::Scenario;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use std::path::{Path, PathBuf};

const DIR: &str = "scenarios/imperios-del-mediterraneo/game";
pub(super) const EXPLICIT_RING: &str =
    "scenarios/imperios-del-mediterraneo/game/mirror-ring-4-explicit.toml";

fn shipped(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(file)
}

/// An explicit map file holding `spec` with `s`'s scenario head (the defaults are the first
/// empire's; every empire also states its own).
fn explicit_text(s: &Scenario, spec: &MapSpec) -> String {
    let e = &s.empires[0];
    let deck_names: Vec<&str> = s.decks.iter().map(|d| d.name.as_str()).collect();
    let keys: Vec<String> = s
        .map
        .cities
        .iter()
        .filter(|c| c.key)
        .map(|c| format!("\"{}\"", c.name))
        .collect();
    format!(
        "[meta]\nprovenance = \"synthetic\"\nwhy = \"the mirror ring of mirror-ring.toml written out as an explicit map (§6.3), for engine validation; not the board\"\ntables = \"tables.toml\"\ndecks = \"decks.toml\"\n\n[scenario]\nturns = {}\nauto_win_cities = {}\nhand_size = {}\nfortifications = {}\ndeck = \"{}\"\nkey_cities = [{}]\n\n{}",
        s.turns,
        s.auto_win_cities,
        e.hand_size,
        e.fortifications,
        deck_names[e.deck],
        keys.join(", "),
        spec.rows_toml(&deck_names)
    )
}

/// A fresh folder holding the shipped tables, decks and scenario files and `files`.
fn folder(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("alea-idm-map-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in [
        "tables.toml",
        "decks.toml",
        "mirror-ring.toml",
        "mirror-ring-4-explicit.toml",
    ] {
        std::fs::copy(shipped(f), dir.join(f)).unwrap();
    }
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn assert_same_scenario(a: &Scenario, b: &Scenario) {
    assert_eq!(a.map, b.map);
    assert_eq!(a.empires, b.empires);
    assert_eq!(a.decks, b.decks);
    assert_eq!(a.tables, b.tables);
    assert_eq!((a.turns, a.auto_win_cities), (b.turns, b.auto_win_cities));
}

#[test]
fn the_ring_written_out_loads_to_the_same_scenario() {
    for n in 2..=8 {
        let (ring, spec) = load_with_map(Path::new(RING), n, None).unwrap();
        let dir = folder(
            &format!("ring{n}"),
            &[("explicit.toml", &explicit_text(&ring, &spec))],
        );
        let explicit = load(&dir.join("explicit.toml"), n).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_same_scenario(&ring, &explicit);
        // The file's territories are the ring's sectors, one per empire, each empire's capital
        // in its own (so the players' tie-breaks count sectors from the same place).
        assert_eq!(explicit.map.territories.len(), n);
        for (p, e) in explicit.empires.iter().enumerate() {
            assert_eq!(explicit.map.cities[e.capital].sector as usize, p);
            assert_eq!(e.name, format!("empire-{}", p + 1));
        }
        // The loader cannot tell an explicit map is a mirror: no seat-order χ² is claimed.
        assert!(ring.mirror && !explicit.mirror);
    }
}

#[test]
fn the_shipped_explicit_ring_is_the_four_seat_ring_and_plays_the_same_games() {
    let (ring, spec) = load_with_map(Path::new(RING), 4, None).unwrap();
    let explicit = load(Path::new(EXPLICIT_RING), 4).unwrap();
    assert_same_scenario(&ring, &explicit);
    assert!(
        explicit.banner().is_some(),
        "synthetic data carries the banner"
    );
    // The shipped rows are the template's rows written out, edge order included.
    let text = std::fs::read_to_string(EXPLICIT_RING).unwrap();
    let deck_names: Vec<&str> = ring.decks.iter().map(|d| d.name.as_str()).collect();
    assert!(text.ends_with(&spec.rows_toml(&deck_names)));
    for policy in [Policy::Random, super::policy::defaults("greedy")] {
        let a = game_with(RING, 4, policy, &options());
        let b = game_with(EXPLICIT_RING, 4, policy, &options());
        let (mut pa, mut pb) = (Play::new(&a), Play::new(&b));
        let mut ra = GameRecord::new(4, super::GAME_COLUMNS.len());
        let mut rb = ra.clone();
        let mut differ = 0;
        let mut first: Option<GameRecord> = None;
        for i in 0..150 {
            for (play, record) in [(&mut pa, &mut ra), (&mut pb, &mut rb)] {
                record.clear();
                let mut dice = Dice::for_trial(11, 4, i);
                play.play_game(&mut dice, record, &mut NoObserver, &mut NoLog);
            }
            assert_eq!(ra, rb, "game {i}");
            match &first {
                None => first = Some(ra.clone()),
                Some(f) => differ += (*f != ra) as u32,
            }
        }
        assert!(differ > 100, "the games compared are not all alike");
    }
}

/// A perturbation of the explicit ring (ids the map's own) builds what the same perturbation of
/// the template builds (ids the sector's).
#[test]
fn a_perturbation_of_the_explicit_ring_matches_the_rings() {
    let cases = [
        (
            "extra_city = { id = \"village\", size = 1, port = false, road_to = \"capital\" }",
            "extra_city = { id = \"village-1\", size = 1, port = false, road_to = \"capital-1\" }",
        ),
        ("extra_fortifications = 1", "extra_fortifications = 1"),
        ("extra_hand_size = 1", "extra_hand_size = 1"),
    ];
    for (i, (on_ring, on_map)) in cases.iter().enumerate() {
        let head = |base: &str| {
            format!("[meta]\nprovenance = \"synthetic\"\nwhy = \"test\"\nbase = \"{base}\"\n\n[perturbation]\nseat = 1\n")
        };
        let dir = folder(
            &format!("p{i}"),
            &[
                (
                    "ring-p.toml",
                    &format!("{}{on_ring}\n", head("mirror-ring.toml")),
                ),
                (
                    "map-p.toml",
                    &format!("{}{on_map}\n", head("mirror-ring-4-explicit.toml")),
                ),
            ],
        );
        let a = load(&dir.join("ring-p.toml"), 4).unwrap();
        let b = load(&dir.join("map-p.toml"), 4).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_same_scenario(&a, &b);
        let unperturbed = load(Path::new(RING), 4).unwrap();
        assert_ne!(
            (&a.map, &a.empires),
            (&unperturbed.map, &unperturbed.empires)
        );
    }
}

fn explicit_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(shipped("mirror-ring-4-explicit.toml")).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn a_bad_map_file_is_one_line_naming_file_field_and_value() {
    let cases: Vec<(String, &str, &str, usize)> = vec![
        // An edge to an area the map does not have.
        (
            explicit_with("b = \"tribe-1\"", "b = \"tribe-9\""),
            "edge[16].b",
            "tribe-9",
            4,
        ),
        // A city in no territory.
        (
            explicit_with("territory = \"sector-1\"\n", ""),
            "city[0].territory",
            "nothing",
            4,
        ),
        // The same id twice.
        (
            explicit_with("id = \"harbour-1\"", "id = \"capital-1\""),
            "city[1].id",
            "capital-1",
            4,
        ),
        (
            explicit_with("capital = \"capital-2\"", "capital = \"capital-1\""),
            "scenario.empire[1].capital",
            "capital-1",
            4,
        ),
        (
            explicit_with("seat = 2", "seat = 1"),
            "scenario.empire[1].seat",
            "1",
            4,
        ),
        (
            explicit_with("kind = \"barbarian_path\"", "kind = \"road\""),
            "edge[16].kind",
            "road",
            4,
        ),
        (
            explicit_with("key_cities = [\"shrine-1\"", "key_cities = [\"capital-1\""),
            "scenario.key_cities[0]",
            "capital-1",
            4,
        ),
        (
            explicit_with("size = 3", "size = 7"),
            "city[0].size",
            "7",
            4,
        ),
        (
            explicit_with("[meta]", "[meta]"),
            "scenario.empire",
            "3 players",
            3,
        ),
    ];
    for (i, (text, field, value, players)) in cases.into_iter().enumerate() {
        let dir = folder(&format!("bad{i}"), &[("bad-map.toml", &text)]);
        let e = load(&dir.join("bad-map.toml"), players)
            .unwrap_err()
            .to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!e.contains('\n'), "one line: {e}");
        assert!(e.contains("bad-map.toml"), "names the file: {e}");
        assert!(e.contains(field), "names {field}: {e}");
        assert!(e.contains(value), "names {value}: {e}");
    }
}
