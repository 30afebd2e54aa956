//! The Scenario I data against the digest's derived lists (§5.3.5), which were computed from the
//! rulebook's tables independently of this transcription, and the loader's errors on bad data.

use super::scenario::*;
use crate::rulesets::invasions::land::Terrain;
use std::collections::{BTreeMap, BTreeSet};

const RB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/invasions/scenario-1/rulebook.toml"
));
const AB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/invasions/scenario-1/abstraction.toml"
));

fn bundled() -> Scenario {
    Scenario::bundled().unwrap_or_else(|e| panic!("{e}"))
}

fn area_name(s: &Scenario, p: &Province) -> String {
    s.areas[p.area as usize].name.clone()
}

#[test]
fn bundled_scenario_loads_with_its_sizes() {
    let s = bundled();
    assert_eq!(
        (s.year, s.turns, s.turns_with_islam, s.scoring_turns.clone()),
        (350, 12, 11, vec![3, 6, 9])
    );
    assert_eq!(s.players, ["Romans", "Huns", "Persians", "Goths"]);
    assert_eq!(s.seas.len(), 23);
    assert_eq!(s.areas.len(), 30);
    assert_eq!(s.provinces.len(), 238);
    assert_eq!(s.boxes.len(), 4);
    assert_eq!(s.rivers.len(), 37);
    // The Dramatis Personae's 48 rows plus the Euskaldunes; the Goths' row makes two nations.
    assert_eq!(s.peoples.len(), 49);
    assert_eq!(s.nations.len(), 50);
    assert_eq!(s.dates.first(), Some(&(1, 350)));
}

/// The box contents list 18 Administration, 18 Diplomacy and 72 Event cards (L111-L120); the
/// compositions are printed elsewhere (L619, L777, L2504-L2564).
#[test]
fn deck_compositions_add_up_to_the_box_contents() {
    let s = bundled();
    assert_eq!(s.administration_deck, [7, 7, 4]);
    assert_eq!(s.administration_deck.iter().sum::<u8>(), 18);
    assert_eq!(s.diplomacy_deck.iter().map(|(_, n)| n).sum::<u8>(), 18);
    assert_eq!(s.event_deck.iter().sum::<u8>(), 72);
    assert_eq!(s.kingdom_sets, [5, 10, 20]);
}

#[test]
fn terrain_table_follows_the_battle_codes_names() {
    let s = bundled();
    let latium = &s.provinces[s.province("Latium").unwrap() as usize];
    assert_eq!(latium.terrain, Terrain::Plain);
    let umbria = &s.provinces[s.province("Umbria").unwrap() as usize];
    assert_eq!(umbria.terrain, Terrain::Swamp);
    let kinds: BTreeSet<&str> = s.provinces.iter().map(|p| p.terrain.name()).collect();
    assert_eq!(kinds.len(), 6);
}

/// §5.3.5: 238 provinces, 86 in the 12 Barbarian Areas, 152 in the 18 Civilized ones (Kushania listed
/// under Parthia, counting for no Area).
#[test]
fn provinces_per_area_match_the_digest() {
    let s = bundled();
    let expected = [
        ("Arabia", 7),
        ("Balticum", 5),
        ("Barbarum", 10),
        ("Caledonia Hibernia", 7),
        ("Caucasus", 6),
        ("Danubius", 8),
        ("Germania", 10),
        ("Mauretania", 7),
        ("Oxia", 6),
        ("Sarmatia", 7),
        ("Scandinavia", 7),
        ("Scythia", 6),
        ("Aegyptus", 7),
        ("Africa", 8),
        ("Asia", 5),
        ("Britannia", 11),
        ("Cappadocia", 6),
        ("Gallia Meridionalis", 12),
        ("Gallia Septentrionalis", 12),
        ("Graecia", 6),
        ("Hispania", 18),
        ("Illyria", 7),
        ("India", 6),
        ("Italia", 14),
        ("Mesopotamia", 8),
        ("Moesia", 7),
        ("Oriens", 6),
        ("Parthia", 6),
        ("Persia Orientalis", 5),
        ("Persis", 8),
    ];
    let mut listed: BTreeMap<String, usize> = BTreeMap::new();
    for p in &s.provinces {
        *listed.entry(area_name(&s, p)).or_default() += 1;
    }
    for (area, n) in expected {
        assert_eq!(listed[area], n, "{area}");
    }
    let count = |kind| {
        let listed_under = |p: &&Province| s.areas[p.area as usize].kind == kind;
        s.provinces.iter().filter(listed_under).count()
    };
    assert_eq!(count(AreaKind::Barbarian), 86);
    assert_eq!(count(AreaKind::Civilized), 152);
    let outside: Vec<&str> = s
        .provinces
        .iter()
        .filter(|p| !p.counts_for_area)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(outside, ["Kushania"]);
    assert_eq!(
        s.areas[s.area("Parthia").unwrap() as usize].provinces.len(),
        5
    );
}

/// A Barbarian Area's income and a Civilized Area's Kingdom figure are its provinces' sum; the Empire
/// figure is 2 + its city levels (digest §5.3.2, checked there for all 18 Civilized Areas).
#[test]
fn printed_area_incomes_are_the_sums_of_their_provinces() {
    let s = bundled();
    for (a, area) in s.areas.iter().enumerate() {
        let listed = s.provinces.iter().filter(|p| p.area as usize == a);
        let halves: u32 = listed.clone().map(|p| p.income_halves as u32).sum();
        let printed = area.kingdom_income as u32 * 2;
        let alternative = area.alternative_halves.map(u32::from);
        assert!(
            halves == printed || Some(halves) == alternative,
            "{}: provinces sum to {halves} halves, printed {printed} or {alternative:?}",
            area.name
        );
        if let Some(empire) = area.empire_income {
            let levels: u32 = listed
                .filter_map(|p| p.city.as_ref())
                .map(|c| c.level as u32)
                .sum();
            assert_eq!(2 + levels, empire as u32, "{}", area.name);
        }
    }
    // Arabia prints 2 (2½): its provinces make 2½.
    let arabia = &s.areas[s.area("Arabia").unwrap() as usize];
    assert_eq!(
        (arabia.kingdom_income, arabia.alternative_halves),
        (2, Some(5))
    );
}

#[test]
fn fortified_cities_match_the_digest() {
    let s = bundled();
    let fortified: BTreeSet<(&str, &str, u8, i8)> = s
        .provinces
        .iter()
        .filter_map(|p| p.city.as_ref().filter(|c| c.fortified).map(|c| (p, c)))
        .map(|(p, c)| (c.name.as_str(), p.name.as_str(), c.level, c.walls))
        .collect();
    let expected: BTreeSet<(&str, &str, u8, i8)> = [
        ("Artaxata", "Armenia", 1, -2),
        ("Ganzac", "Iberia", 1, -2),
        ("Heraclea", "Bosporus", 1, -2),
        ("Trapezus", "Pontus", 1, -2),
        ("Melitene", "Melitene", 1, -2),
        ("Treverum", "Treveria", 2, -2),
        ("Constantinopolis", "Thracia", 3, -3),
        ("Aquincum", "Carnuntum", 1, -2),
        ("Sirmium", "Pannonia", 1, -2),
        ("Sagala", "Panjab", 2, -2),
        ("Roma", "Latium", 3, -1),
        ("Ravenna", "Umbria", 2, -3),
        ("Nisibis", "Assyria", 1, -2),
        ("Perisabor", "Babylonia", 1, -2),
        ("Ctesiphon", "Chaldea", 3, -3),
        ("Singidunum", "Moesia Superior", 1, -2),
        ("Dara", "Amida", 1, -2),
        ("Edessa", "Osroene", 1, -2),
    ]
    .into_iter()
    .collect();
    assert_eq!(fortified, expected);
}

#[test]
fn ports_per_sea_zone_match_the_digest() {
    let s = bundled();
    let expected: &[(&str, &[&str])] = &[
        (
            "Mare Adriaticum",
            &["Salonae", "Ancona", "Ravenna", "Dyrrachium"],
        ),
        (
            "Mare Aegeum",
            &["Ephesos", "Athenae", "Thessalonika", "Kydonia"],
        ),
        (
            "Mare Mauretanicum",
            &["Saldæ", "Hippo Regius", "Carthago Nova"],
        ),
        (
            "Mare Nostrum Orientalis",
            &["Pelusium", "Alexandria", "Salamis", "Tarsus", "Antiocheia"],
        ),
        ("Mare Rubrum", &["Iatrippa"]),
        (
            "Mare Siculum",
            &[
                "Cyrene",
                "Carthago",
                "Leptis Magna",
                "Brundisium",
                "Syracusae",
            ],
        ),
        ("Mare Suebicum", &["Hedeby", "Birka"]),
        ("Mare Tyrrheneum", &["Neapolis", "Pisae"]),
        ("Oceanus Atlanticus", &["Burdigala", "Darioritum"]),
        ("Oceanus Britannicus", &["Londinium", "Rotomagus"]),
        ("Oceanus Germanicus", &["Scone", "Kaupang"]),
        ("Oceanus Hibernicus", &["Eblana"]),
        ("Oceanus Indianicus", &["Mazun", "Demetrias"]),
        (
            "Pontus Euxinus",
            &["Phasis", "Tanais", "Heraclea", "Trapezus"],
        ),
        ("Propontis", &["Constantinopolis"]),
        ("Sinus Botnicus", &["Riga", "Nemogardas"]),
        ("Sinus Gaditanus", &["Tingis"]),
        ("Sinus Gallicus", &["Arelate", "Barcino"]),
        ("Sinus Persicus", &["Bassora", "Hormuz"]),
        ("Mare Aralis", &[]),
        ("Mare Caspium", &[]),
        ("Oceanus Caledonicus", &[]),
        ("Oceanus Occidentalis", &[]),
    ];
    assert_eq!(expected.len(), s.seas.len());
    for (sea, cities) in expected {
        let zone = s.seas.iter().find(|z| z.name == *sea).unwrap();
        let city = |&p: &ProvinceId| s.provinces[p as usize].city.as_ref().unwrap().name.as_str();
        let got: BTreeSet<&str> = zone.ports.iter().map(city).collect();
        assert_eq!(got, cities.iter().copied().collect(), "{sea}");
    }
    assert_eq!(s.seas.iter().map(|z| z.ports.len()).sum::<usize>(), 47);
}

#[test]
fn empty_city_sites_in_civilized_areas_match_the_digest() {
    let s = bundled();
    let sites: BTreeSet<&str> = s
        .provinces
        .iter()
        .filter(|p| s.areas[p.area as usize].kind == AreaKind::Civilized)
        .filter_map(|p| p.city.as_ref().filter(|c| c.level == 0))
        .map(|c| c.name.as_str())
        .collect();
    let expected = [
        "Pelusium",
        "Tingis",
        "Leptis Magna",
        "Hippo Regius",
        "Salamis",
        "Din Guarie",
        "Venta",
        "Viroconium",
        "Isca",
        "Burdigala",
        "Darioritum",
        "Aquae Granni",
        "Divio",
        "Argentoratum",
        "Rotomagus",
        "Tornacum",
        "Remorum",
        "Kydonia",
        "Abula",
        "Illiberis",
        "Caesaraugusta",
        "Bracara",
        "Scalabis",
        "Barcino",
        "Virunum",
        "Castra Regina",
        "Pattala",
        "Brundisium",
        "Ancona",
        "Pavia",
        "Pisae",
        "Hatra",
        "Dura Europos",
        "Triaditsa",
        "Beroia",
        "Aria",
        "Merv",
        "Tus",
        "Hormuz",
        "Rei",
        "Qom",
    ];
    assert_eq!(expected.len(), 41);
    assert_eq!(sites, expected.into_iter().collect());
}

#[test]
fn cities_by_level_and_caravans() {
    let s = bundled();
    let mut by_level = [0; 4];
    for c in s.provinces.iter().filter_map(|p| p.city.as_ref()) {
        by_level[c.level as usize] += 1;
    }
    // Level 3: Alexandria, Carthago, Constantinopolis, Roma, Ctesiphon. Level 2: Memphis, Ephesos,
    // Pergamon, Treverum, Athenae, Thessalonika, Sagala, Mediolanum, Ravenna, Antiocheia.
    assert_eq!(by_level[3], 5);
    assert_eq!(by_level[2], 10);
    let caravans: Vec<&str> = s
        .caravans
        .iter()
        .map(|&(p, _, _)| s.provinces[p as usize].name.as_str())
        .collect();
    assert_eq!(caravans, ["Aegyptus", "Rhagae", "Siraces", "Tripolitania"]);
    assert_eq!(s.provinces.iter().filter(|p| p.caravan).count(), 4);
    let islands: Vec<&str> = s
        .provinces
        .iter()
        .filter(|p| p.no_sea_zone)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(islands, ["Cyclades", "Balearica"]);
}

#[test]
fn area_graph_connects_every_area_and_box() {
    let s = bundled();
    let mut seen = vec![false; s.areas.len()];
    let mut stack = vec![0usize];
    while let Some(a) = stack.pop() {
        if !std::mem::replace(&mut seen[a], true) {
            stack.extend(s.areas[a].links.iter().map(|l| l.to as usize));
        }
    }
    let unreached: Vec<&str> = (0..s.areas.len())
        .filter(|&a| !seen[a])
        .map(|a| s.areas[a].name.as_str())
        .collect();
    assert!(unreached.is_empty(), "unreached: {unreached:?}");
    for a in &s.areas {
        for l in &a.links {
            let back = &s.areas[l.to as usize].links;
            assert!(back.iter().any(|b| s.areas[b.to as usize].name == a.name));
        }
    }
    let rhine = s.areas[s.area("Germania").unwrap() as usize].links.iter();
    assert_eq!(rhine.filter(|l| l.river).count(), 4);
}

#[test]
fn nations_start_where_the_abstraction_puts_them() {
    let s = bundled();
    let rome = &s.nations[s.nation("romani").unwrap() as usize];
    assert_eq!(rome.capital, s.province("Latium"));
    assert_eq!(rome.player, 0);
    // Rome holds the 13 Roman Areas: every province counting for them.
    let roman: usize = [
        "Britannia",
        "Gallia Septentrionalis",
        "Gallia Meridionalis",
        "Hispania",
        "Italia",
        "Illyria",
        "Africa",
        "Moesia",
        "Graecia",
        "Asia",
        "Cappadocia",
        "Oriens",
        "Aegyptus",
    ]
    .iter()
    .map(|a| s.areas[s.area(a).unwrap() as usize].provinces.len())
    .sum();
    assert_eq!(rome.controls.len(), roman);
    let visigoths = &s.nations[s.nation("visigothi").unwrap() as usize];
    assert_eq!(s.peoples[visigoths.people as usize].key, "gothi");
    assert_eq!(
        s.peoples[visigoths.people as usize].religion,
        Religion::Arian
    );
    let saxons = &s.nations[s.nation("saxones").unwrap() as usize];
    assert_eq!((saxons.raids, saxons.active_from), (0b11110, 5));
    let per_player = |p| s.nations.iter().filter(|n| n.player == p).count();
    assert_eq!((0..4).map(per_player).sum::<usize>(), 50);
    assert!(s.nations.iter().all(|n| !n.units.is_empty()));
}

/// The summary a run prints: every table of the abstraction, placeholders first.
#[test]
fn stand_in_summary_names_every_placeholder() {
    let s = bundled();
    let summary = s.stand_in_summary();
    println!("{summary}");
    for table in [
        "area_graph",
        "sea_graph",
        "time_track",
        "assignment",
        "entry",
        "start",
        "roman_split",
        "forces",
        "objectives",
        "administration",
        "events",
    ] {
        assert!(
            s.stand_ins().iter().any(|x| x.field == table),
            "{table} missing"
        );
    }
    assert!(s.vp_rest_on_placeholders());
    let first = s.stand_ins()[0].provenance;
    assert_eq!(first, Provenance::Placeholder);
    assert!(summary.lines().next().unwrap().starts_with("placeholder"));
    // Rows with their own provenance are listed too (the Alamanni's 350 invasion, L1579).
    assert!(s
        .stand_ins()
        .iter()
        .any(|x| x.field.starts_with("entry.rows[")));
}

// ---- Bad data ---------------------------------------------------------------------------------------

/// The error the loader gives once `from` is replaced by `to` in one of the bundled files.
pub(super) fn error_with(in_rulebook: bool, from: &str, to: &str) -> String {
    let (rb, ab) = if in_rulebook {
        assert!(RB.contains(from), "{from}");
        (RB.replacen(from, to, 1), AB.to_string())
    } else {
        assert!(AB.contains(from), "{from}");
        (RB.to_string(), AB.replacen(from, to, 1))
    };
    let e = match Scenario::parse("rb.toml", &rb, "ab.toml", &ab) {
        Ok(_) => panic!("accepted {to}"),
        Err(e) => e,
    };
    assert_eq!(e.exit_code(), 2);
    let text = e.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

#[test]
fn unknown_names_in_the_abstraction_are_refused() {
    let e = error_with(
        false,
        r#"{ a = "Britannia", b = "Caledonia Hibernia""#,
        r#"{ a = "Britania", b = "Caledonia Hibernia""#,
    );
    assert!(
        e.starts_with("ab.toml: `area_graph.links[0].a` = \"Britania\""),
        "{e}"
    );
    assert!(
        e.contains("an Area of [[area]] (did you mean Britannia?)"),
        "{e}"
    );
    let e = error_with(
        false,
        r#"horde = "Agri Decumates""#,
        r#"horde = "Agri Decumata""#,
    );
    assert!(
        e.contains("`entry.rows[10].horde` = \"Agri Decumata\""),
        "{e}"
    );
    assert!(e.contains("a province of [provinces]"), "{e}");
    let e = error_with(false, r#"river = "Liger""#, r#"river = "Rhodanus""#);
    assert!(
        e.contains("`area_graph.links[2].river` = \"Rhodanus\""),
        "{e}"
    );
    assert!(e.contains("drains both Areas"), "{e}");
    let e = error_with(false, r#"horse_archer = 3"#, r#"horse_archers = 3"#);
    assert!(
        e.contains("`forces.rows[1].units` = \"horse_archers\""),
        "{e}"
    );
}

#[test]
fn a_capital_must_exist_and_hold_a_city() {
    let e = error_with(false, r#"capital = "Latium""#, r#"capital = "Roma""#);
    assert!(
        e.starts_with("ab.toml: `entry.rows[0].capital` = \"Roma\""),
        "{e}"
    );
    assert!(e.contains("a province of [provinces]"), "{e}");
    let e = error_with(false, r#"capital = "Latium""#, r#"capital = "Liguria""#);
    assert!(e.contains("a province with a city (level 1-3)"), "{e}");
    let e = error_with(false, r#"capital = "Chaldea""#, r#"capital = "Thracia""#);
    assert!(e.contains("`start.rows[1].controls` = \"Thracia\""), "{e}");
    assert!(
        e.contains("a capital among the provinces the nation controls"),
        "{e}"
    );
}

#[test]
fn duplicates_are_refused() {
    let e = error_with(true, r#"{ name = "Estia","#, r#"{ name = "Albarussia","#);
    assert!(
        e.starts_with("rb.toml: `provinces.rows[8].name` = \"Albarussia\""),
        "{e}"
    );
    assert!(e.contains("a province of [provinces] listed once"), "{e}");
    let e = error_with(
        false,
        r#"{ nation = "franci","#,
        r#"{ nation = "alamanni","#,
    );
    assert!(e.contains("`entry.rows[11].nation` = \"alamanni\""), "{e}");
    let e = error_with(
        false,
        r#"["Mare Suebicum", "Sinus Botnicus"]"#,
        r#"["Mare Suebicum", "Oceanus Germanicus"]"#,
    );
    assert!(e.contains("linked once"), "{e}");
    let e = error_with(
        false,
        r#"["romani", "orientali","#,
        r#"["romani", "romani", "orientali","#,
    );
    assert!(e.contains("`assignment.Romans` = \"romani\""), "{e}");
    assert!(e.contains("one player only"), "{e}");
}

#[test]
fn a_province_must_be_in_an_area() {
    let e = error_with(
        true,
        r#"{ name = "Hijaz", area = "Arabia", "#,
        r#"{ name = "Hijaz", "#,
    );
    assert_eq!(
        e,
        "rb.toml: `provinces.rows[1].area` = nothing is not allowed: an Area of [[area]]"
    );
    let e = error_with(
        true,
        r#"{ name = "Hijaz", area = "Arabia", "#,
        r#"{ name = "Hijaz", area = "Arabie", "#,
    );
    assert!(e.contains("`provinces.rows[1].area` = \"Arabie\""), "{e}");
    assert!(e.contains("did you mean Arabia?"), "{e}");
}

#[test]
fn unknown_provenance_values_are_refused() {
    let e = error_with(
        true,
        "provenance = \"rulebook\"\nlines = \"L2670",
        "provenance = \"guess\"\nlines = \"L2670",
    );
    assert_eq!(
        e,
        "rb.toml: `seas.provenance` = \"guess\" is not allowed: one of rulebook"
    );
    // The abstraction holds no printed facts: "rulebook" is not a provenance there.
    let e = error_with(
        false,
        "[objectives]\nprovenance = \"placeholder\"",
        "[objectives]\nprovenance = \"rulebook\"",
    );
    assert_eq!(
        e,
        "ab.toml: `objectives.provenance` = \"rulebook\" is not allowed: one of assumed, placeholder"
    );
    let e = error_with(
        false,
        "provenance = \"assumed\", why = \"the Alamanni",
        "why = \"the Alamanni",
    );
    assert!(e.contains("`entry.rows[10].provenance` = nothing"), "{e}");
}

#[test]
fn every_nation_needs_a_player() {
    let e = error_with(false, r#""persae", "hiberi","#, r#""persae","#);
    assert!(e.contains("`assignment` = \"hiberi\""), "{e}");
    assert!(e.contains("every nation given a player"), "{e}");
}

#[test]
fn a_folder_given_by_path_loads_and_a_missing_one_is_input_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(BUNDLED_DIR);
    let s = Scenario::from_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.provinces.len(), 238);
    let e = Scenario::from_dir(&dir.join("nowhere")).err().unwrap();
    assert_eq!(e.exit_code(), 2);
    assert!(
        e.to_string()
            .contains("nowhere/rulebook.toml: cannot read the scenario file"),
        "{e}"
    );
}

#[test]
fn the_events_model_is_checked() {
    let null = "model = \"revolts\"\nrevolt_chance = 0.1667";
    for (to, field, allowed) in [
        (
            "model = \"revolts\"",
            "events.revolt_chance",
            "a probability 0..1",
        ),
        (
            "model = \"revolts\"\nrevolt_chance = 1.5",
            "events.revolt_chance",
            "a probability 0..1",
        ),
        ("model = \"sometimes\"", "events.model", "\"null\""),
        (
            "model = \"null\"\nrevolt_chance = 0.5",
            "events.revolt_chance",
            "nothing with model = \"null\"",
        ),
    ] {
        let e = error_with(false, null, to);
        assert!(e.contains(&format!("`{field}`")), "{e}");
        assert!(e.contains(allowed), "{e}");
    }
    // The heresy chance: a probability, and only where cards act.
    for (from, to, allowed) in [
        (
            "heresy_chance = 0.05",
            "heresy_chance = 2.0",
            "a probability 0..1",
        ),
        (
            null,
            "model = \"null\"",
            "nothing unless model = \"revolts\"",
        ),
    ] {
        let e = error_with(false, from, to);
        assert!(e.contains("`events.heresy_chance`"), "{e}");
        assert!(e.contains(allowed), "{e}");
    }
    // The Alliance and Barbarian Coalition events' chances: probabilities.
    for field in ["alliance_chance", "coalition_chance"] {
        let e = error_with(
            false,
            &format!("{field} = 0.0139"),
            &format!("{field} = -0.5"),
        );
        assert!(e.contains(&format!("`events.{field}`")), "{e}");
        assert!(e.contains("a probability 0..1"), "{e}");
    }
}

#[test]
fn more_areas_than_the_state_can_hold_are_refused() {
    let extra: String = (0..super::scenario::MAX_AREAS)
        .map(|i| format!("[[area]]\nname = \"Extra {i}\"\nkind = \"barbarian\"\nkingdom_income = 1\nprovenance = \"rulebook\"\nlines = \"L2690\"\n\n"))
        .collect();
    let e = error_with(
        true,
        "[[area]]\nname = \"Arabia\"",
        &format!("{extra}[[area]]\nname = \"Arabia\""),
    );
    assert!(e.starts_with("rb.toml: `area`"), "{e}");
    assert!(e.contains("at most 64"), "{e}");
}

#[test]
fn more_provinces_in_an_area_than_the_holdings_index_holds_are_refused() {
    let first = "  { name = \"Arabia Deserta\"";
    let extra: String = (0..super::scenario::MAX_AREA_PROVINCES)
        .map(|i| format!("  {{ name = \"Extra {i}\", area = \"Arabia\", terrain = \"desert\", income = 0, line = 2693 }},\n"))
        .collect();
    let e = error_with(true, first, &format!("{extra}{first}"));
    assert!(
        e.starts_with("rb.toml: `area[") && e.contains("Arabia"),
        "{e}"
    );
    assert!(e.contains("at most 64 provinces"), "{e}");
}

#[test]
fn a_nation_named_like_a_player_is_refused() {
    // Its VP columns would repeat the player's (vp_<source>_<key>).
    let e = error_with(
        false,
        r#"nation = "persae", turn = 1"#,
        r#"nation = "persians", turn = 1"#,
    );
    assert!(
        e.starts_with("ab.toml: `entry.rows[1].nation` = \"persians\""),
        "{e}"
    );
}

#[test]
fn objective_balance_factors_must_name_every_player_once_with_a_positive_factor() {
    let e = error_with(false, "Huns = 2.355,", "Hunz = 2.355,");
    assert!(
        e.starts_with("ab.toml: `objective_balance.factors.Hunz`"),
        "{e}"
    );
    assert!(e.contains("a player of rulebook.toml"), "{e}");
    let e = error_with(false, "Goths = 1.808 }", "Goths = 0 }");
    assert!(e.contains("a factor above 0"), "{e}");
    let e = error_with(false, "Huns = 2.355, ", "");
    assert!(
        e.contains("a factor for every player (Huns has none)"),
        "{e}"
    );
}

#[test]
fn word_at_a_time_unit_sums_equal_a_plain_sum() {
    use super::state::{byte_sum, total, Units, NT};
    let plain = |b: &[u8]| b.iter().map(|&x| x as u32).sum::<u32>();
    let mut dice = crate::dice::Dice::from_seed(19);
    // Random counts, full bytes (the lanes' worst case) and lengths around the 8-byte words and the
    // 256-byte blocks.
    for len in (0..40).chain([255, 256, 257, 511, 512, 513, 675, 2_000]) {
        for fill in 0..3 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| match fill {
                    0 => dice.below(256) as u8,
                    1 => 255,
                    _ => dice.below(4) as u8,
                })
                .collect();
            assert_eq!(byte_sum(&bytes), plain(&bytes), "length {len}, fill {fill}");
        }
    }
    for fill in [0u8, 1, 7, 255] {
        let mut u: Units = [fill; NT];
        assert_eq!(total(&u), plain(&u));
        u[NT - 1] = 3;
        u[0] = 200;
        assert_eq!(total(&u), plain(&u));
    }
    for _ in 0..1_000 {
        let u: Units = std::array::from_fn(|_| dice.below(256) as u8);
        assert_eq!(total(&u), plain(&u));
    }
}
