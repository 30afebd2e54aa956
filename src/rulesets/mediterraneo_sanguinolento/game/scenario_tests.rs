//! The scenario against the digest (§1.3, §5.2-§5.5, §7 T13/T14) and the Spanish source, and bad input.

use super::scenario::*;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

const RULEBOOK_TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/mediterraneo-sanguinolento/game/rulebook.toml"
));
const ABSTRACTION_TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/mediterraneo-sanguinolento/game/abstraction.toml"
));

fn scenario() -> Scenario {
    Scenario::bundled().expect("the bundled scenario loads")
}

fn id(s: &Scenario, name: &str) -> CountryId {
    s.country(name)
        .unwrap_or_else(|| panic!("no country {name}"))
}

fn city_names(s: &Scenario, country: &str) -> Vec<String> {
    let c = &s.countries[id(s, country) as usize];
    c.cities
        .clone()
        .map(|i| s.cities[i as usize].name.clone())
        .collect()
}

#[test]
fn counts_match_the_digest() {
    let s = scenario();
    assert_eq!(s.countries.len(), 160);
    assert_eq!(s.cities.len(), 296);
    // Digest §1.3: B 97, C 51, B/C 12.
    let count = |k: Culture| s.countries.iter().filter(|c| c.culture == k).count();
    assert_eq!(count(Culture::Barbarian), 97);
    assert_eq!(count(Culture::Civilized), 51);
    assert_eq!(count(Culture::Mixed), 12);
    // The text's own total disagrees with its list (A61); the file keeps both.
    assert_eq!(s.calendar.printed_city_total, 215);
    assert_eq!(s.calendar.victory_pv, 400);
    assert_eq!(s.calendar.winter, (1 << 12) | (1 << 1) | (1 << 2));
    assert_eq!(s.calendar.collection, (1 << 4) | (1 << 8) | (1 << 12));
    for (i, c) in s.countries.iter().enumerate() {
        assert_eq!(c.number as usize, i + 1);
    }
}

#[test]
fn spot_checks_against_the_digest() {
    let s = scenario();
    let betica = &s.countries[0];
    assert_eq!(betica.name, "Bética");
    assert_eq!(betica.culture, Culture::Mixed);
    assert_eq!(betica.line, 71);
    assert!(betica.note.is_some(), "the missing comma is noted");
    assert_eq!(
        city_names(&s, "Bética"),
        ["Hispalis", "Gadir", "Malaca", "Corduba"]
    );
    assert_eq!(city_names(&s, "Roma"), ["Roma", "Itrium", "Corfirium"]);
    assert_eq!(city_names(&s, "Etruria").len(), 5);
    assert_eq!(city_names(&s, "Tebas"), ["Tebas", "Leuctra"]);
    assert_eq!(city_names(&s, "Medio Egipto"), ["Tod", "Tebas", "Luxor"]);
    assert_eq!(s.countries[159].name, "Tebas");
    assert_eq!(s.countries[159].line, 389);
    for tribe in [
        "Tribus Ourane",
        "Tribus Tabora",
        "Tribus Batalkusu",
        "Tribus Bambari",
    ] {
        let c = &s.countries[id(&s, tribe) as usize];
        assert!(
            c.cities.is_empty(),
            "{tribe} has population hexes, no cities"
        );
        assert_eq!(c.group, None);
    }
    let group = |name: &str| {
        let c = &s.countries[id(&s, name) as usize];
        (
            c.group.map(|g| s.groups[g as usize].as_str()),
            c.group_provenance,
        )
    };
    assert_eq!(group("Roma"), (Some("latinos"), Provenance::Rulebook));
    assert_eq!(
        group("Sagartia"),
        (Some("hombres del este"), Provenance::Rulebook)
    );
    assert_eq!(
        group("Isla de Socotorra"),
        (Some("hindues"), Provenance::Rulebook)
    );
    assert_eq!(group("Tebas"), (Some("griegos"), Provenance::Rulebook));
    // Celtiberia is missing from the culture table; Iberian is the digest's reading.
    assert_eq!(group("Celtiberia"), (Some("iberos"), Provenance::Assumed));
}

#[test]
fn cultural_group_sizes_match_the_digest() {
    let s = scenario();
    // Digest §5.3, counted from its table.
    let expected = [
        ("iberos", 7), // 6 listed + Celtiberia by reading
        ("galos", 11),
        ("germanos", 14),
        ("hindues", 3),
        ("britanos", 6),
        ("balticos", 8),
        ("eslavos", 8),
        ("balcanicos", 5),
        ("egipcios", 4),
        ("griegos", 16),
        ("esteparios", 7),
        ("hombres del este", 9),
        ("mauritanos", 6),
        ("libios", 4),
        ("bereberes", 3),
        ("abisinios", 5),
        ("arabes", 9),
        ("latinos", 3),
        ("fenicios", 9),
        ("anatolios", 10),
        ("seleucidas", 6),
        ("asiaticos", 3),
    ];
    assert_eq!(s.groups.len(), expected.len());
    for (name, n) in expected {
        let g = s.groups.iter().position(|x| x == name).expect(name) as u8;
        let members = s.countries.iter().filter(|c| c.group == Some(g)).count();
        assert_eq!(members, n, "{name}");
    }
}

/// Every country row against the Spanish list itself (skipped where the source is not beside the
/// checkout): the printed number, name and every city on the row's line.
#[test]
fn rows_match_the_spanish_source() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/rules/source/mediterraneo-sanguinolento.txt"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not found");
        return;
    };
    let lines: Vec<String> = text.lines().map(|l| l.replace('\u{a0}', " ")).collect();
    let s = scenario();
    for c in &s.countries {
        let line = &lines[c.line as usize - 1];
        let squeezed = line.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeezed.starts_with(&format!("{} {} (", c.number, c.name)),
            "L{}: {squeezed}",
            c.line
        );
        for i in c.cities.clone() {
            let name = &s.cities[i as usize].name;
            assert!(squeezed.contains(name.as_str()), "L{}: {name}", c.line);
        }
    }
    for t in &s.treasures {
        let line = &lines[t.line as usize - 1];
        assert!(line.contains(&t.printed), "L{}: {}", t.line, t.printed);
        assert!(line.contains(&t.den.to_string()), "L{}: {}", t.line, t.den);
    }
}

#[test]
fn treasures_match_the_digest() {
    let s = scenario();
    assert_eq!(s.treasures.len(), 21);
    // Digest §5.5: the 21 amounts sum to 140,000 DEN; Gaugamela is no listed city.
    assert_eq!(s.treasures.iter().map(|t| t.den).sum::<u32>(), 140_000);
    let unplaced: Vec<&str> = s
        .treasures
        .iter()
        .filter(|t| t.city.is_none())
        .map(|t| t.printed.as_str())
        .collect();
    assert_eq!(unplaced, ["GAUGAMELA"]);
    assert_eq!(s.cities.iter().filter(|c| c.treasure > 0).count(), 20);
    let treasure = |country: &str, city: &str| {
        let c = s.city(id(&s, country), city).expect(city);
        s.cities[c as usize].treasure
    };
    assert_eq!(treasure("Roma", "Roma"), 9000);
    assert_eq!(treasure("Atenas", "Atenas"), 10_000);
    assert_eq!(treasure("Atenas", "Delfos"), 8000);
    assert_eq!(treasure("Creta", "Knossos"), 7000);
    assert_eq!(treasure("Egipto", "Alejandria"), 8000);
    assert_eq!(treasure("Sagartia", "Alejandría"), 0);
    assert_eq!(treasure("Medio Egipto", "Tebas"), 6000);
    assert_eq!(treasure("Tebas", "Tebas"), 0);
}

#[test]
fn special_rules_name_the_right_countries() {
    let s = scenario();
    let n = &s.nations;
    let hispanic: Vec<&str> = (0..160u8)
        .filter(|&c| n.hispanic.contains(c))
        .map(|c| s.countries[c as usize].name.as_str())
        .collect();
    // Every Iberian country but the Asturii-Vascones (L5122); the islands are not on the peninsula.
    assert_eq!(
        hispanic,
        [
            "Bética",
            "Celtiberia",
            "Lusitania",
            "Gallaecia",
            "Ilergetae"
        ]
    );
    assert_eq!(n.greek.len(), 16);
    assert!(n.greek.contains(id(&s, "Esparta")) && !n.greek.contains(id(&s, "Roma")));
    assert_eq!(n.seleucid.len(), 6);
    let sp = &s.special;
    assert_eq!(sp.falcata.0, 1.1);
    assert_eq!(sp.falcata.1, n.hispanic);
    assert_eq!(sp.pilum.0, 1.15);
    assert_eq!(sp.corvus.0, 1.2);
    assert_eq!(sp.greek_fortification.0, 1);
    assert_eq!(sp.merchant_call.0, 10);
    assert_eq!(sp.merchant_call.1.len(), 2);
    assert_eq!(
        (sp.forced_march_roman_iml, sp.forced_march_italic_iml),
        (2, 1)
    );
    assert_eq!(sp.sacred.len(), 3);
    for sacred in &sp.sacred {
        assert_eq!(sacred.pv, -35);
        let city = &s.cities[sacred.city as usize];
        let losers = match city.name.as_str() {
            "Delfos" => 16,
            "Tebas" => 4,
            "Roma" => 1,
            other => panic!("unexpected sacred city {other}"),
        };
        assert_eq!(sacred.losers.len(), losers, "{}", city.name);
    }
    let echelon = sp.flag("echelon_tactic").unwrap().who;
    // Greeks (16), Cartago, Roma and the six Seleucid countries (L2934).
    assert_eq!(echelon.len(), 16 + 1 + 1 + 6);
    assert_eq!(sp.flags.len(), RULE_FLAGS.len());
    // Numbers of the procedure rules, as the source prints them (L5143, L5161, L5217, L5247, L5279, L5781).
    assert_eq!(sp.number("roman_eagles", "pv_per_month"), Some(-1.0));
    assert_eq!(
        sp.number("italic_camps", "unmoved_fortification"),
        Some(2.0)
    );
    assert_eq!(sp.number("roman_assault", "assaulters_share"), Some(0.75));
    assert_eq!(sp.number("thermopylae", "min_ipf_units"), Some(2.0));
    assert_eq!(
        sp.number("spqr_and_republican_militia", "militia_units"),
        Some(10.0)
    );
    assert_eq!(
        sp.number("elephant_camel_zones", "deadly_from_zone"),
        Some(4.0)
    );
    assert_eq!(sp.number("roman_eagles", "no_such_key"), None);
}

/// Digest §7 T13 and T14: the morale cost of ten units raised from Rome's city and from Sparta's
/// province, from the population shares here and the regular morale costs of morale.toml.
#[test]
fn t13_t14_population_morale_costs() {
    let s = scenario();
    let cost = &data().morale.cost.regular;
    let den = |country: &str, capital: bool| -> f64 {
        let c = id(&s, country);
        s.special
            .population_morale
            .iter()
            .filter(|p| p.country == c && p.from_capital == capital)
            .map(|p| p.share * 10.0 * cost[p.cost_as as usize] as f64)
            .sum()
    };
    assert!((den("Roma", true) - 3600.0).abs() < 1e-9, "T13");
    assert!((den("Esparta", false) - 3300.0).abs() < 1e-9, "T14");
    let morale_a = |country: &str, capital: bool| -> f64 {
        let c = id(&s, country);
        s.special
            .population_morale
            .iter()
            .filter(|p| p.country == c && p.from_capital == capital && p.morale == 0)
            .map(|p| p.share)
            .sum()
    };
    assert_eq!(morale_a("Roma", true), 0.2);
    assert_eq!(morale_a("Esparta", true), 1.0);
}

#[test]
fn the_graph_is_symmetric_and_covers_every_country() {
    let s = scenario();
    let mut land = 0;
    let mut sea = 0;
    for c in 0..s.countries.len() as CountryId {
        let links = s.links(c);
        assert!(!links.is_empty(), "{}", s.countries[c as usize].name);
        for l in links {
            assert_ne!(l.to, c);
            let back = s.links(l.to).iter().find(|b| b.to == c).expect("symmetric");
            assert_eq!(
                (back.hexes, back.strait, back.sea),
                (l.hexes, l.strait, l.sea)
            );
            if l.sea {
                sea += 1;
                assert_ne!(s.nodes[c as usize].seas & s.nodes[l.to as usize].seas, 0);
            } else {
                land += 1;
            }
        }
    }
    let file: toml::Table = toml::from_str(ABSTRACTION_TEXT).unwrap();
    let rows = |t: &str| file[t]["rows"].as_array().unwrap().len();
    assert_eq!(land, 2 * rows("land_edges"));
    assert_eq!(sea, 2 * rows("sea_lanes"));
    let sicily = s.links(id(&s, "Sicilia"));
    let messina = sicily
        .iter()
        .find(|l| l.to == id(&s, "Magna Grecia"))
        .unwrap();
    assert_eq!(messina.strait, 4);
    // Landlocked countries touch no sea.
    assert_eq!(s.nodes[id(&s, "Helvetiae") as usize].seas, 0);
}

#[test]
fn placeholder_economy_follows_its_stated_rule() {
    let s = scenario();
    // abstraction.toml: a city yields 150 POB + 150 DEN (+75 MAN if C); Roma's plain countryside
    // 100 POB, 50 DEN, 300 COM, 50 MAD, 30 CAB; three cities.
    let roma = s.production[id(&s, "Roma") as usize];
    assert_eq!(roma, [550, 500, 300, 0, 50, 0, 30, 0, 0, 0, 225]);
    // A tribe: its population hexes (300 POB, 50 DEN, 200 COM, 50 CAB, 50 CAM) plus desert countryside.
    let tribe = s.production[id(&s, "Tribus Ourane") as usize];
    assert_eq!(tribe, [350, 80, 250, 0, 0, 0, 50, 110, 0, 0, 0]);
    let start = &s.start[id(&s, "Roma") as usize];
    assert_eq!(start.treasury, 1500);
    assert_eq!(start.stock[2], 900);
    assert_eq!(start.fortification, 1);
    let ip = data().units.iter().position(|u| u.code == "IP").unwrap() as u8;
    assert_eq!(
        start.units[0],
        StartUnit {
            unit: ip,
            count: 6,
            morale: 2,
            regular: true
        }
    );
    // A tribe counts as one city and gets at least the minimum treasury.
    assert_eq!(s.start[id(&s, "Tribus Ourane") as usize].treasury, 500);
}

#[test]
fn the_summary_says_which_values_are_placeholders() {
    let s = scenario();
    assert_eq!(
        s.placeholders(),
        ["production", "start", "leaders", "trade", "sea_trade"]
    );
    let summary = s.stand_in_summary();
    // One line per stand-in table, and one per assumed trade route.
    assert_eq!(summary.lines().count(), 13 + s.routes.len());
    assert!(summary.lines().next().unwrap().starts_with("placeholder"));
    for field in [
        "nodes",
        "land_edges",
        "sea_lanes",
        "majors",
        "readings",
        "intrigue",
        "mercenaries",
    ] {
        assert!(
            summary
                .lines()
                .any(|l| l.starts_with("assumed") && l.contains(&format!("[{field}]"))),
            "{field}"
        );
    }
    let majors: Vec<&str> = s
        .majors
        .iter()
        .map(|&c| s.countries[c as usize].name.as_str())
        .collect();
    assert_eq!(
        majors,
        [
            "Roma",
            "Cartago",
            "Atenas",
            "Esparta",
            "Babilonia",
            "Egipto",
            "Macedonia"
        ]
    );
}

/// Each broken copy fails with one line naming the file, the field and the value, exit code 2.
#[test]
fn bad_input_is_a_one_line_error() {
    let cases: [(bool, &str, &str, &str); 25] = [
        (
            true,
            "numbers = { pv_per_month = -1 }",
            "numbers = { pv_a_month = -1 }",
            "special_rules.flags[9].numbers.pv_a_month",
        ),
        (
            true,
            "numbers = { pv_per_month = -1 }",
            "numbers = {}",
            "special_rules.flags[9].numbers.pv_per_month",
        ),
        (
            true,
            "culture = \"B/C\", cities = [\"Hispalis\"",
            "culture = \"X\", cities = [\"Hispalis\"",
            "countries.rows[0].culture",
        ),
        (
            true,
            "{ number = 2,",
            "{ number = 3,",
            "countries.rows[1].number",
        ),
        (
            true,
            "country = \"Creta\", city_name = \"Knossos\"",
            "country = \"Creta\", city_name = \"Cnosos\"",
            "treasures.rows[10].city",
        ),
        (
            true,
            "share = 0.8",
            "share = 0.7",
            "special_rules.population_morale",
        ),
        (
            true,
            "rule = \"thermopylae\"",
            "rule = \"thermopilae\"",
            "special_rules.flags[6].rule",
        ),
        (true, "line = 71,", "line = 71, colour = 1,", "colour"),
        (
            false,
            "terrain = \"plain\", zone",
            "terrain = \"swamp\", zone",
            "nodes.rows[0].terrain",
        ),
        (
            false,
            "unit = \"IP\"",
            "unit = \"IPX\"",
            "start.army[0].units[0].unit",
        ),
        (
            false,
            "{ a = \"Bética\", b = \"Mauretanica Sigensis\"",
            "{ a = \"Bética\", b = \"Helvetiae\"",
            "sea_lanes.rows[0]",
        ),
        (
            false,
            "provenance = \"assumed\"\nwhy = \"the map",
            "provenance = \"rulebook\"\nwhy = \"the map",
            "nodes.provenance",
        ),
        (
            false,
            "countries = [\"Roma\", \"Cartago\"",
            "countries = [\"Rome\", \"Cartago\"",
            "majors.countries[0]",
        ),
        (
            false,
            "{ a = \"Bética\", b = \"Lusitania\"",
            "{ a = \"Bética\", b = \"Bética\"",
            "land_edges.rows[0]",
        ),
        (
            false,
            "leader = \"3-2\"",
            "leader = \"3-6\"",
            "leaders.king[0].leader",
        ),
        (
            false,
            "found_kind = \"infantry\"",
            "found_kind = \"naval\"",
            "leaders.found_kind",
        ),
        (
            false,
            "importance = { C = \"B\"",
            "importance = { C = \"D\"",
            "trade.importance.C",
        ),
        (
            false,
            "importance = { C = \"B\", ",
            "importance = { ",
            "trade.importance",
        ),
        (
            false,
            "range_hexes = 3",
            "range_hexes = 4",
            "intrigue.range_hexes",
        ),
        (
            false,
            "same_node_distance = 1",
            "same_node_distance = 0",
            "intrigue.same_node_distance",
        ),
        (
            false,
            "sea_lane_months = 1",
            "sea_lane_months = 0",
            "intrigue.sea_lane_months",
        ),
        (
            true,
            "{ hex = \"DESIERTO\", com = 1",
            "{ hex = \"DESERT\", com = 1",
            "forage.rows[1].hex",
        ),
        (
            true,
            "{ hex = \"DESIERTO\", com = 1",
            "{ hex = \"LLANO\", com = 1",
            "forage.rows[1].hex",
        ),
        (
            true,
            "{ hex = \"BOSQUE\", com = 8,",
            "{ hex = \"BOSQUE\", com = 8000,",
            "forage.rows[2].com",
        ),
        (
            true,
            "  { hex = \"MONTAÑA\", com = 4, line = 2106 },\n",
            "",
            "forage.rows",
        ),
    ];
    for (in_rulebook, from, to, field) in cases {
        let (rb, ab) = if in_rulebook {
            assert!(RULEBOOK_TEXT.contains(from), "{from}");
            (
                RULEBOOK_TEXT.replacen(from, to, 1),
                ABSTRACTION_TEXT.to_string(),
            )
        } else {
            assert!(ABSTRACTION_TEXT.contains(from), "{from}");
            (
                RULEBOOK_TEXT.to_string(),
                ABSTRACTION_TEXT.replacen(from, to, 1),
            )
        };
        let err = match Scenario::parse("rb.toml", &rb, "ab.toml", &ab) {
            Ok(_) => panic!("{to}: accepted"),
            Err(e) => e,
        };
        let text = err.to_string();
        assert_eq!(err.exit_code(), 2, "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
        let file = if in_rulebook { "rb.toml" } else { "ab.toml" };
        assert!(text.starts_with(file), "{text}");
        assert!(text.contains(field), "{field}: {text}");
    }
}

#[test]
fn a_missing_node_and_an_unreachable_country_are_refused() {
    let drop_row = |text: &str, start: &str| -> String {
        text.lines()
            .filter(|l| !l.trim_start().starts_with(start))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let ab = drop_row(ABSTRACTION_TEXT, "{ country = \"Malta\"");
    let err = Scenario::parse("rb", RULEBOOK_TEXT, "ab", &ab)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("nodes.rows") && err.contains("Malta"), "{err}");
    // Islandeses is linked only by sea: without its lanes it is cut off.
    let ab = drop_row(ABSTRACTION_TEXT, "{ a = \"Islandeses\"");
    let err = Scenario::parse("rb", RULEBOOK_TEXT, "ab", &ab)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("Islandeses") && err.contains("unreachable"),
        "{err}"
    );
}

#[test]
fn a_users_copy_loads_from_a_folder() {
    let dir = std::env::temp_dir().join(format!("alea-ms-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rulebook.toml"), RULEBOOK_TEXT).unwrap();
    let mine = ABSTRACTION_TEXT.replacen("fortification = 1", "fortification = 2", 1);
    std::fs::write(dir.join("abstraction.toml"), mine).unwrap();
    let s = Scenario::from_dir(&dir).unwrap();
    assert_eq!(s.start[0].fortification, 2);
    std::fs::remove_file(dir.join("abstraction.toml")).unwrap();
    let err = Scenario::from_dir(&dir).err().unwrap();
    assert_eq!(err.exit_code(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
