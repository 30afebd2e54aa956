//! República de Roma scenario data (`scenarios/republica-de-roma/`): every file parses, every entry carries a
//! provenance, the counts the rulebook digest states hold, the tables cover every total they must, and every card
//! id an era file or a table names exists in its kind's file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use toml::{Table, Value};

const DIR: &str = "scenarios/republica-de-roma";

/// The files added for the automated game, plus the earlier card files they reference.
const NEW_FILES: &[&str] = &[
    "population.toml",
    "random-events.toml",
    "events.toml",
    "provinces.toml",
    "concessions.toml",
    "laws.toml",
    "land-bills.toml",
    "intrigue.toml",
    "early-republic.toml",
    "middle-republic.toml",
    "late-republic.toml",
    "extended.toml",
    "alternative-history.toml",
];

const ERAS: [&str; 3] = ["early", "middle", "late"];

fn load(name: &str) -> Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse::<Table>()
        .unwrap_or_else(|e| panic!("{name} does not parse: {e}"))
}

fn entries<'a>(t: &'a Table, key: &str) -> &'a [Value] {
    t.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("missing array of tables [[{key}]]"))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("missing string `{key}` in {v:?}"))
}

fn int(v: &Value, key: &str) -> i64 {
    v.get(key)
        .and_then(Value::as_integer)
        .unwrap_or_else(|| panic!("missing integer `{key}` in {v:?}"))
}

fn strs(v: &Value, key: &str) -> Vec<String> {
    match v.get(key) {
        None => Vec::new(),
        Some(a) => a
            .as_array()
            .unwrap_or_else(|| panic!("`{key}` is not an array"))
            .iter()
            .map(|x| x.as_str().expect("string id").to_string())
            .collect(),
    }
}

fn ids(t: &Table, key: &str) -> BTreeSet<String> {
    entries(t, key)
        .iter()
        .map(|e| match e.get("id") {
            Some(Value::String(x)) => x.clone(),
            Some(Value::Integer(n)) => n.to_string(),
            other => panic!("[[{key}]] entry without id: {other:?}"),
        })
        .collect()
}

/// A `rulebook = { field = "Lnnn" }` value: one or more line references "Lnnn", comma separated.
fn check_rulebook(file: &str, v: &Value) {
    let t = v
        .as_table()
        .unwrap_or_else(|| panic!("{file}: `rulebook` is not a table"));
    assert!(!t.is_empty(), "{file}: empty `rulebook` table");
    for (field, lines) in t {
        let lines = lines
            .as_str()
            .unwrap_or_else(|| panic!("{file}: rulebook.{field} is not a string"));
        for part in lines.split(',').map(str::trim) {
            let digits = part
                .strip_prefix('L')
                .unwrap_or_else(|| panic!("{file}: rulebook.{field} = {lines:?} is not Lnnn"));
            let n: u32 = digits
                .parse()
                .unwrap_or_else(|_| panic!("{file}: rulebook.{field} = {lines:?} is not Lnnn"));
            assert!(
                (1..=2033).contains(&n),
                "{file}: rulebook.{field} line {n} is outside the source text"
            );
        }
    }
}

/// Walks a whole file: every `provenance`, `rulebook`, `assumed` and `external_differs` found anywhere is well formed.
fn check_tags(file: &str, v: &Value) {
    if let Some(t) = v.as_table() {
        for (k, x) in t {
            match k.as_str() {
                "provenance" => {
                    let p = x.as_str().expect("provenance is a string");
                    assert!(
                        ["rulebook", "external", "assumed"].contains(&p),
                        "{file}: provenance {p:?} not in rulebook/external/assumed"
                    );
                }
                "rulebook" => check_rulebook(file, x),
                "assumed" => {
                    let a = x.as_array().expect("assumed is an array");
                    assert!(!a.is_empty(), "{file}: empty `assumed`");
                    assert!(
                        a.iter().all(Value::is_str),
                        "{file}: `assumed` lists field names"
                    );
                }
                "external_differs" => {
                    assert!(
                        x.as_table().is_some_and(|t| !t.is_empty()),
                        "{file}: external_differs must be a non-empty table"
                    );
                }
                _ => check_tags(file, x),
            }
        }
    } else if let Some(a) = v.as_array() {
        for x in a {
            check_tags(file, x);
        }
    }
}

fn has_provenance(v: &Value) -> bool {
    v.get("provenance")
        .and_then(Value::as_str)
        .is_some_and(|p| ["rulebook", "external", "assumed"].contains(&p))
}

#[test]
fn every_file_parses_and_every_entry_has_a_provenance() {
    for file in NEW_FILES {
        let t = load(file);
        check_tags(file, &Value::Table(t.clone()));
        for (key, v) in &t {
            match v {
                // [[entry]] arrays: every element is an entry.
                Value::Array(a) if a.iter().all(Value::is_table) => {
                    assert!(!a.is_empty(), "{file}: empty [[{key}]]");
                    for e in a {
                        assert!(
                            has_provenance(e),
                            "{file}: [[{key}]] entry without provenance: {e:?}"
                        );
                    }
                }
                // A table is an entry itself, or (like [outcome.x]) a group of entries.
                Value::Table(tab) => {
                    if !has_provenance(v) {
                        assert!(
                            tab.values().all(|x| x.is_table() && has_provenance(x)),
                            "{file}: [{key}] has no provenance"
                        );
                    }
                }
                other => panic!("{file}: unexpected top-level value {key} = {other:?}"),
            }
        }
    }
}

#[test]
fn population_table_covers_every_total_once() {
    let t = load("population.toml");
    let outcomes = t["outcome"].as_table().unwrap();
    for id in [
        "no_recruitment",
        "manpower_shortage",
        "mob",
        "people_revolt",
    ] {
        assert!(outcomes.contains_key(id), "outcome {id} missing");
    }
    assert_eq!(int(&t["outcome"]["mob"], "mortality_chits"), 6);
    let mut rows: Vec<(Option<i64>, Option<i64>, &Value)> = entries(&t, "row")
        .iter()
        .map(|r| {
            (
                r.get("min").and_then(Value::as_integer),
                r.get("max").and_then(Value::as_integer),
                r,
            )
        })
        .collect();
    rows.sort_by_key(|(min, _, _)| min.unwrap_or(i64::MIN));
    assert_eq!(rows.len(), 15);
    assert!(rows[0].0.is_none(), "the lowest row must be open below");
    assert!(
        rows.last().unwrap().1.is_none(),
        "the highest row must be open above"
    );
    for w in rows.windows(2) {
        let hi = w[0].1.expect("only the last row is open above");
        let lo = w[1].0.expect("only the first row is open below");
        assert_eq!(
            hi + 1,
            lo,
            "gap or overlap between rows ending {hi} and starting {lo}"
        );
    }
    for (min, max, r) in &rows {
        if let (Some(a), Some(b)) = (min, max) {
            assert!(a <= b);
        }
        for e in strs(r, "effects") {
            assert!(outcomes.contains_key(&e), "unknown population effect {e}");
        }
    }
    // Spot values: < 0 is the People Revolt, 10-15 no change, 18+ -3.
    assert_eq!(strs(rows[0].2, "effects"), ["people_revolt"]);
    let at = |x: i64| {
        rows.iter()
            .find(|(a, b, _)| a.is_none_or(|a| a <= x) && b.is_none_or(|b| x <= b))
            .unwrap()
            .2
    };
    assert_eq!(int(at(12), "unrest"), 0);
    assert_eq!(int(at(20), "unrest"), -3);
    assert_eq!(strs(at(1), "effects"), ["no_recruitment", "mob"]);
}

#[test]
fn random_events_table_covers_3_to_18_with_known_events() {
    let t = load("random-events.toml");
    let events = load("events.toml");
    let known = ids(&events, "event");
    assert_eq!(known.len(), 18, "18 event cards (L58)");
    let totals: Vec<i64> = entries(&t, "row").iter().map(|r| int(r, "total")).collect();
    assert_eq!(totals, (3..=18).collect::<Vec<_>>());
    let mut used: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for r in entries(&t, "row") {
        for era in ERAS {
            let id = s(r, era);
            assert!(known.contains(id), "random event {id} not in events.toml");
            used.entry(id.to_string()).or_default().insert(era);
        }
    }
    assert_eq!(used.len(), 18, "every event card appears in some column");
    for e in entries(&events, "event") {
        let cols: BTreeSet<&str> = e["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(cols, used[s(e, "id")], "columns of {}", s(e, "id"));
        assert!(
            e.get("light").is_some() && e.get("dark").is_some(),
            "two sides"
        );
    }
}

#[test]
fn card_counts_match_the_digest() {
    let wars = load("wars.toml");
    let per_deck = |t: &Table, key: &str, era: &str| {
        entries(t, key)
            .iter()
            .filter(|e| s(e, "deck") == era)
            .count()
    };
    assert_eq!(entries(&wars, "war").len(), 31);
    assert_eq!(
        ERAS.map(|e| per_deck(&wars, "war", e)),
        [8, 10, 13],
        "wars 8/10/13"
    );
    let senators = load("senators.toml");
    assert_eq!(entries(&senators, "senator").len(), 30);
    assert_eq!(
        ERAS.map(|e| per_deck(&senators, "senator", e)),
        [20, 5, 5],
        "family senators 20/5/5 (L1108, L1136, L1166)"
    );
    let concessions = load("concessions.toml");
    assert_eq!(entries(&concessions, "concession").len(), 13, "L1137");
    assert_eq!(per_deck(&concessions, "concession", "early"), 13);
    let provinces = load("provinces.toml");
    assert_eq!(entries(&provinces, "province").len(), 15, "L66");
    let land = load("land-bills.toml");
    let bills = entries(&land, "land_bill");
    assert_eq!(bills.len(), 3);
    assert_eq!(
        bills.iter().map(|b| int(b, "counters")).sum::<i64>(),
        6,
        "6 Land Bill counters (L165)"
    );
    assert_eq!(
        bills.iter().map(|b| int(b, "cost")).collect::<Vec<_>>(),
        [20, 5, 10],
        "L623"
    );
    let laws = load("laws.toml");
    assert_eq!(entries(&laws, "law").len(), 10);
    assert_eq!(ERAS.map(|e| per_deck(&laws, "law", e)), [0, 5, 5]);
    let intrigue = load("intrigue.toml");
    let totals = ERAS.map(|era| {
        entries(&intrigue, "intrigue")
            .iter()
            .map(|i| int(&i["count"], era))
            .sum::<i64>()
    });
    assert_eq!(totals, [14, 16, 13]);
    let events = load("events.toml");
    assert_eq!(entries(&events, "event").len(), 18);
}

#[test]
fn concession_rolls_are_complete() {
    let c = load("concessions.toml");
    let mut tax: Vec<i64> = Vec::new();
    let mut disaster: BTreeMap<i64, String> = BTreeMap::new();
    for e in entries(&c, "concession") {
        if let Some(n) = e.get("tax_farmer_number") {
            tax.push(n.as_integer().unwrap());
        }
        if let Some(a) = e.get("natural_disaster_roll") {
            for n in a.as_array().unwrap() {
                let prev = disaster.insert(n.as_integer().unwrap(), s(e, "id").to_string());
                assert!(prev.is_none(), "Natural Disaster roll {n} used twice");
            }
        }
    }
    tax.sort();
    assert_eq!(tax, [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        disaster.keys().copied().collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    // events.toml prints the same mapping on the Natural Disaster card.
    let events = load("events.toml");
    let nd = entries(&events, "event")
        .iter()
        .find(|e| s(e, "id") == "natural_disaster")
        .unwrap();
    for side in ["light", "dark"] {
        let map = nd[side]["destroy_concession_roll"].as_table().unwrap();
        for (k, v) in map {
            assert_eq!(
                disaster[&k.parse::<i64>().unwrap()],
                v.as_str().unwrap(),
                "{side} roll {k}"
            );
        }
    }
}

#[test]
fn era_files_name_only_existing_cards_and_list_each_deck_exactly() {
    let wars = load("wars.toml");
    let leaders = load("enemy-leaders.toml");
    let statesmen = load("statesmen.toml");
    let senators = load("senators.toml");
    let concessions = load("concessions.toml");
    let laws = load("laws.toml");
    let events = load("events.toml");
    let intrigue = load("intrigue.toml");
    let provinces = load("provinces.toml");
    let province_ids = ids(&provinces, "province");
    let war_ids = ids(&wars, "war");
    let concession_ids = ids(&concessions, "concession");
    let law_ids = ids(&laws, "law");
    let forum_event_ids = ids(&events, "forum_event");

    // (kind in [deck], file, array key) -> the ids whose `deck` is each era.
    let kinds: [(&str, &Table, &str); 7] = [
        ("wars", &wars, "war"),
        ("leaders", &leaders, "leader"),
        ("statesmen", &statesmen, "statesman"),
        ("senators", &senators, "senator"),
        ("concessions", &concessions, "concession"),
        ("laws", &laws, "law"),
        ("forum_events", &events, "forum_event"),
    ];
    let mut total = 0;
    for (era, file) in ERAS.iter().zip([
        "early-republic.toml",
        "middle-republic.toml",
        "late-republic.toml",
    ]) {
        let t = load(file);
        let deck = &t["deck"];
        assert_eq!(s(deck, "era"), *era);
        assert_eq!(s(&t["scenario"], "deck_era"), *era);
        let mut count = 0;
        for (kind, source, key) in kinds {
            let listed: BTreeSet<String> = deck[kind]
                .as_array()
                .unwrap_or_else(|| panic!("{file}: [deck].{kind} missing"))
                .iter()
                .map(|v| match v {
                    Value::String(x) => x.clone(),
                    Value::Integer(n) => n.to_string(),
                    other => panic!("{file}: bad id {other:?}"),
                })
                .collect();
            let known = ids(source, key);
            for id in &listed {
                assert!(known.contains(id), "{file}: {kind} id {id} does not exist");
            }
            let expected: BTreeSet<String> = entries(source, key)
                .iter()
                .filter(|e| s(e, "deck") == *era)
                .map(|e| match &e["id"] {
                    Value::String(x) => x.clone(),
                    Value::Integer(n) => n.to_string(),
                    other => panic!("bad id {other:?}"),
                })
                .collect();
            assert_eq!(
                listed, expected,
                "{file}: [deck].{kind} is not the {era} deck"
            );
            count += listed.len() as i64;
        }
        let intrigue_known = ids(&intrigue, "intrigue");
        for (id, n) in deck["intrigue"].as_table().unwrap() {
            assert!(
                intrigue_known.contains(id),
                "{file}: intrigue {id} does not exist"
            );
            let want = entries(&intrigue, "intrigue")
                .iter()
                .find(|i| s(i, "id") == id)
                .map(|i| int(&i["count"], era))
                .unwrap();
            assert_eq!(n.as_integer().unwrap(), want, "{file}: intrigue {id} count");
            count += want;
        }
        assert_eq!(int(deck, "card_count"), count, "{file}: card_count");
        total += count;

        // Set-up ids.
        let setup = &t["setup"];
        for w in strs(setup, "forum_inactive_wars") {
            assert!(war_ids.contains(&w), "{file}: war {w}");
        }
        for c in strs(setup, "concessions_added") {
            assert!(concession_ids.contains(&c), "{file}: concession {c}");
        }
        for key in ["laws_in_force", "laws_removed"] {
            for l in strs(setup, key) {
                assert!(law_ids.contains(&l), "{file}: law {l}");
            }
        }
        for group in setup["provinces"].as_array().unwrap() {
            for p in strs(group, "ids") {
                assert!(province_ids.contains(&p), "{file}: province {p}");
            }
        }
        let bottom = &t["bottom_of_deck"];
        let parts: i64 = bottom["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| int(p, "count"))
            .sum();
        assert_eq!(
            int(bottom, "total"),
            parts + 1,
            "{file}: packet + The Era Ends"
        );
    }
    assert_eq!(
        total + 1,
        160,
        "159 deck cards + The Era Ends = 160 scenario cards (L54)"
    );
    assert!(forum_event_ids.contains("era_ends"));

    // The numbers the rulebook fixes (§4.11, §5.3-§5.5).
    let scen: Vec<Table> = [
        "early-republic.toml",
        "middle-republic.toml",
        "late-republic.toml",
    ]
    .iter()
    .map(|f| load(f))
    .collect();
    let get = |k: &str| {
        scen.iter()
            .map(|t| int(&t["scenario"], k))
            .collect::<Vec<_>>()
    };
    assert_eq!(get("treasury"), [100, 100, 100]);
    assert_eq!(get("unrest"), [0, 0, 0]);
    assert_eq!(get("legions"), [4, 6, 8]);
    assert_eq!(get("legion_loyalty_threshold"), [5, 4, 3]);
    let setups = |k: &str| scen.iter().map(|t| int(&t["setup"], k)).collect::<Vec<_>>();
    assert_eq!(setups("family_cards_per_player"), [3, 4, 5]);
    assert_eq!(setups("family_cards_pool_size"), [20, 25, 30]);
    assert_eq!(
        scen.iter()
            .map(|t| int(&t["bottom_of_deck"], "total"))
            .collect::<Vec<_>>(),
        [13, 13, 11]
    );
    assert_eq!(
        strs(&scen[0]["setup"], "forum_inactive_wars"),
        ["1st_punic_war"]
    );
    assert!(strs(&scen[2]["setup"], "laws_in_force").contains(&"military_reforms".to_string()));

    // Extended and alternative history refer to the era files.
    let ext = load("extended.toml");
    for v in entries(&ext, "variant") {
        for f in [s(v, "setup"), s(v, "era_ends_rule")] {
            load(f);
        }
        for d in strs(v, "decks") {
            assert!(ERAS.contains(&d.as_str()));
        }
    }
    let alt = load("alternative-history.toml");
    load(s(&alt["scenario"], "setup"));
}

#[test]
fn cross_references_between_card_files_resolve() {
    let wars = ids(&load("wars.toml"), "war");
    let leaders = ids(&load("enemy-leaders.toml"), "leader");
    let events = load("events.toml");
    let forum_events = ids(&events, "forum_event");
    let provinces_t = load("provinces.toml");
    let provinces = ids(&provinces_t, "province");
    for p in entries(&provinces_t, "province") {
        for key in [
            "created_by",
            "created_developed_by",
            "attacked_by",
            "attacked_by_province_side_only",
        ] {
            for w in strs(p, key) {
                assert!(wars.contains(&w), "province {}: {key} {w}", s(p, "id"));
            }
        }
        for e in strs(p, "created_by_event") {
            assert!(
                forum_events.contains(&e),
                "province {}: event {e}",
                s(p, "id")
            );
        }
        for side in ["undeveloped", "developed"] {
            let side = &p[side];
            for k in ["spoils", "state_tax"] {
                assert_eq!(int(&side[k], "sides"), 6);
                assert!((1..=2).contains(&int(&side[k], "dice")));
            }
            for k in [
                "local_tax",
                "land_strength",
                "max_provincial_troops",
                "naval_strength",
                "max_provincial_fleets",
            ] {
                assert!(int(side, k) >= 0, "{k}");
            }
        }
    }
    for e in entries(&events, "forum_event") {
        if let Some(p) = e.get("creates_province") {
            assert!(provinces.contains(p.as_str().unwrap()));
        }
    }
    let concessions = load("concessions.toml");
    for c in entries(&concessions, "concession") {
        for w in strs(c, "destroyed_by_wars") {
            assert!(wars.contains(&w), "concession {}: war {w}", s(c, "id"));
        }
        for w in strs(c, "tax_farmer_roll_while_active") {
            assert!(wars.contains(&w), "tax farmer trigger {w}");
        }
        if let Some(d) = c.get("external_differs") {
            for w in strs(d, "tax_farmer_roll_while_active") {
                assert!(
                    wars.contains(&w) || leaders.contains(&w),
                    "tax farmer trigger {w}"
                );
            }
        }
    }
    let laws_t = load("laws.toml");
    let laws = ids(&laws_t, "law");
    for l in entries(&laws_t, "law") {
        for key in ["requires_law", "repeals_law"] {
            if let Some(x) = l.get(key) {
                assert!(laws.contains(x.as_str().unwrap()), "{key}");
            }
        }
        if let Some(w) = l.get("war") {
            assert!(wars.contains(w.as_str().unwrap()));
        }
    }
}
