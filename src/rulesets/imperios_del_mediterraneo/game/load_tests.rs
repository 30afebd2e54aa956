//! The Core-IDM loader: the shipped files load as written, and bad input is a one-line error
//! naming the file, the field, the value and what is allowed.

use super::load::load;
use super::scenario::{DataProvenance, EdgeKind, Event, Pacification, SYNTHETIC_BANNER};
use std::path::{Path, PathBuf};

fn shipped(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/imperios-del-mediterraneo/game")
        .join(file)
}

#[test]
fn the_mirror_ring_has_n_identical_sectors() {
    for n in 2..=8 {
        let s = load(&shipped("mirror-ring.toml"), n).unwrap();
        assert_eq!(s.empires.len(), n);
        assert_eq!(s.map.cities.len(), 4 * n);
        assert_eq!(s.map.areas.len(), n);
        // Every sector: capital 3 (port), harbour 2 (port), hill 1, shrine 2 (key).
        for k in 0..n {
            let c = &s.map.cities[4 * k..4 * k + 4];
            let sizes: Vec<u8> = c.iter().map(|c| c.size).collect();
            assert_eq!(sizes, [3, 2, 1, 2]);
            assert_eq!(c.iter().filter(|c| c.port).count(), 2);
            assert_eq!(c.iter().filter(|c| c.key).count(), 1);
            assert_eq!(s.empires[k].capital, 4 * k);
        }
        // The same degree for every copy of a template node: the sectors are identical.
        for k in 0..n {
            for i in 0..4 {
                assert_eq!(s.map.adjacent[4 * k + i].len(), s.map.adjacent[i].len());
            }
        }
        // One strait to each neighbour (two per sector; with two sectors both straits link them).
        let straits: usize = s.map.adjacent[..4 * n]
            .iter()
            .map(|a| a.iter().filter(|e| e.1 == EdgeKind::Strait).count())
            .sum();
        assert_eq!(straits, 2 * n, "each strait counted at both ends");
        assert!(s.banner() == Some(SYNTHETIC_BANNER) && !s.is_real());
    }
}

#[test]
fn tables_are_the_named_placeholders() {
    let s = load(&shipped("mirror-ring.toml"), 3).unwrap();
    let t = &s.tables;
    // H-EVT: rulebook order on 2..12, End of turn on 12 or more, Prosperity on 2 or less.
    assert_eq!(t.event(2), Event::Prosperity);
    assert_eq!(t.event(-3), Event::Prosperity);
    assert_eq!(t.event(7), Event::CampaignSeason);
    assert_eq!(t.event(12), Event::EndOfTurn);
    assert_eq!(t.event(19), Event::EndOfTurn);
    // §6.2: roll = 1d6 + floor((margin − 1)/3) − Enraged; ≤1 Hard, 2 Migration, 3-4
    // Pacification, 5 Instill fear, ≥6 Triumphal.
    assert_eq!(t.pacification(1, 1, 0), Pacification::HardCampaign);
    assert_eq!(t.pacification(2, 3, 0), Pacification::Migration);
    assert_eq!(t.pacification(2, 4, 0), Pacification::Pacification);
    assert_eq!(t.pacification(4, 1, 0), Pacification::Pacification);
    assert_eq!(t.pacification(5, 1, 0), Pacification::InstillFear);
    assert_eq!(t.pacification(6, 1, 0), Pacification::TriumphalCampaign);
    assert_eq!(t.pacification(6, 1, 3), Pacification::Pacification);
    assert_eq!(t.pacification(6, 10, 0), Pacification::TriumphalCampaign);
    let placeholders: Vec<&str> = s
        .sources
        .iter()
        .filter(|x| x.provenance == DataProvenance::Placeholder)
        .map(|x| x.what.as_str())
        .collect();
    assert_eq!(
        placeholders,
        [
            "event_table H-EVT",
            "neutral_table H-NEU",
            "pirates_table H-PIR",
            "pacification_table H-PAC"
        ]
    );
}

#[test]
fn the_vanilla_deck_has_35_cards() {
    let s = load(&shipped("mirror-ring.toml"), 2).unwrap();
    for d in &s.decks {
        assert_eq!(d.cards.len(), 35, "{}", d.name);
    }
    let fleets = |d: &super::scenario::Deck| {
        d.cards
            .iter()
            .filter(|&&k| d.kinds[k as usize].is(super::scenario::FLEET))
            .count()
    };
    assert_eq!(fleets(&s.decks[1]), fleets(&s.decks[0]) + 1);
}

/// The tables a deck derives for the players agree with its kinds and cards: each card listed
/// once under its own kind, in card order; the kinds by field value, strongest first; each
/// card's strengths its kind's.
#[test]
fn a_decks_derived_tables_agree_with_its_cards() {
    use super::military::cv_strength;
    let s = load(&shipped("mirror-ring.toml"), 3).unwrap();
    let deck = &s.decks[0];
    let mut listed = vec![0; deck.cards.len()];
    for (k, cards) in deck.by_kind.iter().enumerate() {
        assert!(
            cards.windows(2).all(|w| w[0] < w[1]),
            "kind {k} in card order"
        );
        for &c in cards {
            assert_eq!(deck.cards[c as usize] as usize, k);
            listed[c as usize] += 1;
        }
    }
    assert!(
        listed.iter().all(|&n| n == 1),
        "every card once: {listed:?}"
    );
    let field = |k: usize| cv_strength(deck.kinds[k].field);
    let order = &deck.by_field_strength;
    assert_eq!(order.len(), deck.kinds.len());
    assert!(
        order
            .windows(2)
            .all(|w| field(w[0]) > field(w[1]) || (field(w[0]) == field(w[1]) && w[0] < w[1])),
        "{order:?}"
    );
    for (c, &k) in deck.cards.iter().enumerate() {
        let kind = &deck.kinds[k as usize];
        assert_eq!(deck.field_strength[c], cv_strength(kind.field));
        assert_eq!(deck.assault_strength[c], cv_strength(kind.assault));
    }
}

#[test]
fn each_perturbation_changes_one_thing_of_the_first_seat() {
    let base = load(&shipped("mirror-ring.toml"), 4).unwrap();
    let city = load(&shipped("mirror-ring-extra-city.toml"), 4).unwrap();
    assert_eq!(city.map.cities.len(), base.map.cities.len() + 1);
    let v = city.map.cities.len() - 1;
    assert_eq!(city.map.cities[v].name, "village-1");
    assert_eq!(city.map.adjacent[v], vec![(0, EdgeKind::Road)]);
    // The areas moved up by one node and kept their links.
    assert_eq!(city.map.adjacent.len(), base.map.adjacent.len() + 1);
    let fort = load(&shipped("mirror-ring-extra-fortification.toml"), 4).unwrap();
    assert_eq!(
        fort.empires[0].fortifications,
        base.empires[0].fortifications + 1
    );
    assert_eq!(fort.empires[1], base.empires[1]);
    let hand = load(&shipped("mirror-ring-hand-size.toml"), 4).unwrap();
    assert_eq!(hand.empires[0].hand_size, base.empires[0].hand_size + 1);
    let fleet = load(&shipped("mirror-ring-extra-fleet.toml"), 4).unwrap();
    assert_eq!(
        fleet.decks[fleet.empires[0].deck].name,
        "vanilla-plus-fleet"
    );
    assert_eq!(fleet.decks[fleet.empires[1].deck].name, "vanilla");
    assert_eq!(
        fleet.sources.len(),
        base.sources.len() + 1,
        "the perturbation file is a source too"
    );
}

/// Writes `text` as the named file in a fresh folder beside copies of the shipped tables and
/// decks, and returns the error message of loading it for `players`.
fn error_of(name: &str, text: &str, players: usize) -> String {
    let dir = std::env::temp_dir().join(format!("alea-idm-load-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["tables.toml", "decks.toml", "mirror-ring.toml"] {
        std::fs::copy(shipped(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join(name), text).unwrap();
    let e = load(&dir.join(name), players).unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    e.to_string()
}

fn ring_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(shipped("mirror-ring.toml")).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn bad_input_is_one_line_naming_file_field_value_and_allowed() {
    let cases: Vec<(String, &str, usize)> = vec![
        (ring_with("size = 3", "size = 9"), "ring.city[0].size", 4),
        (
            ring_with("kind = \"strait\"", "kind = \"bridge\""),
            "ring.link[0].kind",
            4,
        ),
        (
            ring_with("b = \"tribe\"", "b = \"tribes\""),
            "ring.edge[4].b",
            4,
        ),
        (
            ring_with("capital = \"capital\"", "capital = \"capitol\""),
            "scenario.capital",
            4,
        ),
        (
            ring_with("deck = \"vanilla\"", "deck = \"vanila\""),
            "scenario.deck",
            4,
        ),
        (
            ring_with("provenance = \"synthetic\"", "provenance = \"real\""),
            "meta.provenance",
            4,
        ),
        (
            ring_with("kind = \"barbarian_path\"", "kind = \"road\""),
            "ring.edge[4].kind",
            4,
        ),
        (ring_with("hand_size = 8", "hand_sise = 8"), "hand_sise", 4),
        (ring_with("size = 3", "size = 3"), "ring", 9),
    ];
    for (text, field, players) in cases {
        let e = error_of("mirror-ring-bad.toml", &text, players);
        assert!(!e.contains('\n'), "one line: {e}");
        assert!(e.contains("mirror-ring-bad.toml"), "names the file: {e}");
        assert!(e.contains(field), "names {field}: {e}");
    }
    let p = "[meta]\nprovenance = \"synthetic\"\nwhy = \"x\"\nbase = \"mirror-ring.toml\"\n\n[perturbation]\nseat = 9\nextra_hand_size = 1\n";
    let e = error_of("p.toml", p, 4);
    assert!(
        e.contains("perturbation.seat") && e.contains('9') && e.contains("1-4"),
        "{e}"
    );
    let two = "[meta]\nprovenance = \"synthetic\"\nwhy = \"x\"\nbase = \"mirror-ring.toml\"\n\n[perturbation]\nseat = 1\nextra_hand_size = 1\nextra_fortifications = 1\n";
    let e = error_of("p2.toml", two, 4);
    assert!(
        e.contains("perturbation") && e.contains("exactly one"),
        "{e}"
    );
}

#[test]
fn bad_tables_and_decks_name_their_file() {
    let dir = std::env::temp_dir().join(format!("alea-idm-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(shipped("mirror-ring.toml"), dir.join("mirror-ring.toml")).unwrap();
    let tables = std::fs::read_to_string(shipped("tables.toml")).unwrap();
    let decks = std::fs::read_to_string(shipped("decks.toml")).unwrap();
    let cases = [
        (
            "tables.toml",
            tables.replacen("\"scarcity\",", "\"scarcity\", \"famine\",", 1),
            decks.clone(),
            "event_table.events[10]",
        ),
        (
            "tables.toml",
            tables.replacen("\"end_of_turn\",", "", 1),
            decks.clone(),
            "event_table.events",
        ),
        (
            "tables.toml",
            tables.replacen("from = 3", "from = 1", 1),
            decks.clone(),
            "pacification_table.results[2].from",
        ),
        (
            "tables.toml",
            tables.replacen("{ fixed = 0, dice = 4 },", "", 1),
            decks.clone(),
            "neutral_table.rows",
        ),
        (
            "decks.toml",
            tables.clone(),
            decks.replacen("types = [\"T\"]", "types = [\"Q\"]", 1),
            "deck[0].card[0].types[0]",
        ),
        (
            "decks.toml",
            tables.clone(),
            decks.replacen("assault = 2", "assault = \"2x\"", 1),
            "deck[0].card[0].assault",
        ),
        (
            "decks.toml",
            tables.clone(),
            decks.replacen(
                "copies = 10\neffects = []",
                "copies = 10\neffects = [\"on_flee\"]",
                1,
            ),
            "deck[0].card[0].effects[0]",
        ),
    ];
    for (file, t, d, field) in cases {
        std::fs::write(dir.join("tables.toml"), &t).unwrap();
        std::fs::write(dir.join("decks.toml"), &d).unwrap();
        let e = match load(&dir.join("mirror-ring.toml"), 3) {
            Ok(_) => panic!("{field}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            !e.contains('\n') && e.contains(file) && e.contains(field),
            "{field}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A card text the engine cannot play is refused at load, on one line naming the file, the
/// field, the value and what is allowed: an unknown effect, a timing the effect cannot fire at,
/// an amount out of its range, a text on a card that cannot carry it, an Empire card without
/// its text.
#[test]
fn bad_card_texts_name_file_field_value_and_allowed() {
    let dir = std::env::temp_dir().join(format!("alea-idm-texts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(shipped("mirror-ring.toml"), dir.join("mirror-ring.toml")).unwrap();
    std::fs::copy(shipped("tables.toml"), dir.join("tables.toml")).unwrap();
    let decks = std::fs::read_to_string(shipped("decks.toml")).unwrap();
    let text = |e: &str| {
        decks.replacen(
            "copies = 10\neffects = []",
            &format!("copies = 10\neffects = [{e}]"),
            1,
        )
    };
    let cases = [
        (
            text(r#"{ effect = "combat_dyce", amount = 1, timing = "on_resolution" }"#),
            "deck[0].card[0].effects[0].effect",
            "\"combat_dyce\"",
            "combat_dice, combat_bonus",
        ),
        (
            text(r#"{ effect = "combat_dice", amount = 1, timing = "on_flee" }"#),
            "deck[0].card[0].effects[0].timing",
            "\"on_flee\"",
            "a timing combat_dice can fire at: on_resolution",
        ),
        (
            text(r#"{ effect = "recovery", amount = 6, timing = "recovery_rule" }"#),
            "deck[0].card[0].effects[0].amount",
            "6",
            "2-5",
        ),
        (
            text(r#"{ effect = "draw_cards", amount = 1, timing = "empire_effect" }"#),
            "deck[0].card[0].effects[0].timing",
            "\"empire_effect\"",
            "only on an Empire (I) card",
        ),
        (
            text(r#"{ effect = "draw_cards", amount = 1 }"#),
            "deck[0].card[0].effects[0].timing",
            "nothing",
            "timing",
        ),
        (
            text(r#""on_flee""#),
            "deck[0].card[0].effects[0]",
            "on_flee",
            "a table { effect",
        ),
        (
            decks.replacen("types = [\"T\"]", "types = [\"I\"]", 1),
            "deck[0].card[0].types",
            "I",
            "I with an empire_effect effect",
        ),
    ];
    for (d, field, value, allowed) in cases {
        std::fs::write(dir.join("decks.toml"), &d).unwrap();
        let e = match load(&dir.join("mirror-ring.toml"), 3) {
            Ok(_) => panic!("{field}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(!e.contains('\n'), "one line: {e}");
        for part in ["decks.toml", field, value, allowed] {
            assert!(e.contains(part), "{field}: {e} lacks {part}");
        }
    }
    // A text on a City Defence card, which no expedition carries.
    let d = decks.replacen(
        "copies = 4\neffects = []",
        "copies = 4\neffects = [{ effect = \"combat_dice\", amount = 1, timing = \"on_resolution\" }]",
        1,
    );
    std::fs::write(dir.join("decks.toml"), &d).unwrap();
    let e = load(&dir.join("mirror-ring.toml"), 3)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("Troop or Fleet") && e.contains("effects[0].timing"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
