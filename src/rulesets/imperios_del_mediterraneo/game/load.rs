//! Reads and checks the Core-IDM files (digest §6.3): a scenario file (the mirror ring's sector
//! template and its scenario, or a perturbation of a base file), the decks and the tables. Every
//! error is one line naming the file, the field, the value and what is allowed.

use super::files::{
    CardRow, DecksFile, EdgeRow, ForceTable, Meta, Perturbation, ScenarioFile, TablesFile,
};
use super::scenario::{
    Area, CardKind, City, DataProvenance, DataSource, Deck, EdgeKind, Empire, Event, Map,
    Pacification, Scenario, Tables, TYPE_LETTERS,
};
use crate::error::{did_you_mean, AleaError, Result};
use crate::rulesets::imperios_del_mediterraneo::cards::{parse_cv, Cv};
use crate::spec::{toml_error, value_text};
use serde::de::DeserializeOwned;
use std::path::Path;

/// Most cities and areas a map may have (node indices are kept in a byte).
pub const MAX_NODES: usize = 250;
/// Most cards in a deck (hands and piles are kept as card indices in a byte).
pub const MAX_DECK: usize = 64;

fn bad(
    file: &str,
    field: impl Into<String>,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(file, field, value, allowed)
}

fn parse<T: DeserializeOwned>(path: &Path) -> Result<(String, T)> {
    let name = path.display().to_string();
    let text = crate::game::provenance::read(path)?;
    let value =
        toml::from_str(&text).map_err(|e| toml_error(&name, "Core-IDM data file", &text, &e))?;
    Ok((name, value))
}

fn int_in(file: &str, field: &str, v: i64, lo: i64, hi: i64) -> Result<i64> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(bad(file, field, v, format!("a whole number {lo}-{hi}")))
    }
}

fn provenance(file: &str, field: &str, s: &str) -> Result<DataProvenance> {
    DataProvenance::parse(s).ok_or_else(|| {
        bad(
            file,
            field,
            format!("\"{s}\"{}", did_you_mean(s, DataProvenance::NAMES)),
            "one of transcribed, synthetic, placeholder",
        )
    })
}

fn source(file: &str, what: &str, field: &str, p: &str, why: &str) -> Result<DataSource> {
    crate::game::provenance::present(
        file,
        &format!("{field}.why"),
        Some(why),
        "a reason: where the values come from",
    )?;
    Ok(DataSource {
        file: file.to_string(),
        what: what.to_string(),
        provenance: provenance(file, &format!("{field}.provenance"), p)?,
        why: why.to_string(),
    })
}

fn meta_source(file: &str, what: &str, m: &Meta) -> Result<DataSource> {
    source(file, what, "meta", &m.provenance, &m.why)
}

/// Loads the scenario file at `path` for `players` empires (the ring's sector count).
pub fn load(path: &Path, players: usize) -> Result<Scenario> {
    load_with(path, players, None)
}

/// [`load`] with the scenario's tables file replaced by `tables` (the experiment's
/// `[game] tables`: the placeholder tables' sensitivity runs).
pub fn load_with(path: &Path, players: usize, tables: Option<&Path>) -> Result<Scenario> {
    let (name, file): (String, ScenarioFile) = parse(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut sources = vec![meta_source(&name, "scenario", &file.meta)?];
    let ScenarioFile {
        meta,
        ring,
        scenario,
        perturbation,
    } = file;
    let (base_name, base, base_dir, perturbation) = match &meta.base {
        Some(b) => {
            if ring.is_some() || scenario.is_some() {
                return Err(bad(
                    &name,
                    "meta.base",
                    format!("\"{b}\""),
                    "a base file only in a perturbation file (one without [ring] and [scenario])",
                ));
            }
            if perturbation.is_none() {
                return Err(bad(
                    &name,
                    "perturbation",
                    "nothing",
                    "a [perturbation] table: a file with a base changes one thing of it",
                ));
            }
            let bpath = dir.join(b);
            let (bname, bfile): (String, ScenarioFile) = parse(&bpath)?;
            if bfile.meta.base.is_some() || bfile.perturbation.is_some() {
                return Err(bad(
                    &name,
                    "meta.base",
                    format!("\"{b}\""),
                    "a base scenario file (not itself a perturbation)",
                ));
            }
            sources.push(meta_source(&bname, "base scenario", &bfile.meta)?);
            let bdir = bpath.parent().unwrap_or(Path::new(".")).to_path_buf();
            (bname, bfile, bdir, perturbation)
        }
        None => {
            if perturbation.is_some() {
                return Err(bad(
                    &name,
                    "perturbation",
                    "a table",
                    "nothing in a base file: a perturbation file names its base in meta.base",
                ));
            }
            (
                name.clone(),
                ScenarioFile {
                    meta,
                    ring,
                    scenario,
                    perturbation: None,
                },
                dir.to_path_buf(),
                None,
            )
        }
    };
    let perturbation = perturbation.as_ref();
    let Some(ring) = &base.ring else {
        return Err(bad(&base_name, "ring", "nothing", "a [ring] table: the sector template (only the mirror ring is built so far; a transcribed board will add [[city]] and [[edge]] lists)"));
    };
    let Some(head) = &base.scenario else {
        return Err(bad(&base_name, "scenario", "nothing", "a [scenario] table (turns, auto_win_cities, hand_size, capital, key_cities, fortifications, deck)"));
    };
    let lo = int_in(&base_name, "ring.min_sectors", ring.min_sectors, 2, 8)?;
    let hi = int_in(&base_name, "ring.max_sectors", ring.max_sectors, lo, 8)?;
    if !(lo..=hi).contains(&(players as i64)) {
        return Err(bad(
            &base_name,
            "ring",
            format!("{players} players"),
            format!("{lo}-{hi} players (one sector each)"),
        ));
    }
    let tables_file = base.meta.tables.as_deref().ok_or_else(|| {
        bad(
            &base_name,
            "meta.tables",
            "nothing",
            "the tables file, e.g. \"tables.toml\"",
        )
    })?;
    let decks_file = base.meta.decks.as_deref().ok_or_else(|| {
        bad(
            &base_name,
            "meta.decks",
            "nothing",
            "the decks file, e.g. \"decks.toml\"",
        )
    })?;
    let tables_path = match tables {
        Some(t) => t.to_path_buf(),
        None => base_dir.join(tables_file),
    };
    let (tname, tables): (String, TablesFile) = parse(&tables_path)?;
    let (dname, decks): (String, DecksFile) = parse(&base_dir.join(decks_file))?;
    let tables = load_tables(&tname, &tables, &mut sources)?;
    sources.push(meta_source(&dname, "decks", &decks.meta)?);
    let decks = load_decks(&dname, &decks)?;

    // The sector template.
    let n = players;
    let mut local: Vec<(String, bool)> = Vec::new(); // (id, is city)
    for (i, c) in ring.city.iter().enumerate() {
        int_in(&base_name, &format!("ring.city[{i}].size"), c.size, 1, 6)?;
        local.push((c.id.clone(), true));
    }
    for (i, a) in ring.barbarian.iter().enumerate() {
        int_in(
            &base_name,
            &format!("ring.barbarian[{i}].strength"),
            a.strength,
            0,
            10,
        )?;
        local.push((a.id.clone(), false));
    }
    for (i, (id, _)) in local.iter().enumerate() {
        if local[..i].iter().any(|(o, _)| o == id) {
            return Err(bad(
                &base_name,
                "ring",
                format!("\"{id}\" twice"),
                "distinct ids for the cities and areas of a sector",
            ));
        }
    }
    let ext_city = perturbation.and_then(|p| p.extra_city.as_ref());
    let nc_sector = ring.city.len();
    // The perturbation's extra city, if any, is inserted after the sectors are built.
    let n_cities = nc_sector * n;
    let n_nodes = n_cities + ring.barbarian.len() * n;
    if n_nodes + ext_city.is_some() as usize > MAX_NODES {
        return Err(bad(
            &base_name,
            "ring",
            format!("{n_nodes} nodes"),
            format!("at most {MAX_NODES} cities and areas"),
        ));
    }
    let key_of = |id: &str| head.key_cities.iter().any(|k| k == id);
    let mut cities = Vec::with_capacity(n_cities + 1);
    for s in 0..n {
        for c in &ring.city {
            cities.push(City {
                sector: s as u8,
                name: format!("{}-{}", c.id, s + 1),
                size: c.size as u8,
                port: c.port,
                key: key_of(&c.id),
            });
        }
    }
    let mut areas = Vec::new();
    for s in 0..n {
        for a in &ring.barbarian {
            areas.push(Area {
                sector: s as u8,
                name: format!("{}-{}", a.id, s + 1),
                strength: a.strength as u8,
            });
        }
    }
    // Node of a template id in sector s.
    let node = |id: &str, s: usize| -> Option<usize> {
        if let Some(i) = ring.city.iter().position(|c| c.id == id) {
            return Some(s * nc_sector + i);
        }
        ring.barbarian
            .iter()
            .position(|a| a.id == id)
            .map(|i| n_cities + s * ring.barbarian.len() + i)
    };
    let ids: Vec<&str> = local.iter().map(|(id, _)| id.as_str()).collect();
    let find = |field: String, id: &str, s: usize| -> Result<usize> {
        node(id, s).ok_or_else(|| {
            bad(
                &base_name,
                field,
                format!("\"{id}\"{}", did_you_mean(id, ids.iter().copied())),
                format!("a city or area id of the sector: {}", ids.join(", ")),
            )
        })
    };
    let mut adjacent = vec![Vec::new(); n_nodes];
    let add = |a: usize, b: usize, k: EdgeKind, adjacent: &mut Vec<Vec<(usize, EdgeKind)>>| {
        if a != b && !adjacent[a].iter().any(|&(x, _)| x == b) {
            adjacent[a].push((b, k));
            adjacent[b].push((a, k));
        }
    };
    let edge_kind = |field: String, e: &EdgeRow| -> Result<EdgeKind> {
        EdgeKind::parse(&e.kind).ok_or_else(|| {
            bad(
                &base_name,
                field,
                format!("\"{}\"", e.kind),
                "road, strait or barbarian_path",
            )
        })
    };
    for (i, e) in ring.edge.iter().enumerate() {
        let k = edge_kind(format!("ring.edge[{i}].kind"), e)?;
        for s in 0..n {
            let a = find(format!("ring.edge[{i}].a"), &e.a, s)?;
            let b = find(format!("ring.edge[{i}].b"), &e.b, s)?;
            check_edge(
                &base_name,
                &format!("ring.edge[{i}]"),
                k,
                a < n_cities,
                b < n_cities,
            )?;
            add(a, b, k, &mut adjacent);
        }
    }
    for (i, e) in ring.link.iter().enumerate() {
        let k = edge_kind(format!("ring.link[{i}].kind"), e)?;
        for s in 0..n {
            let a = find(format!("ring.link[{i}].a"), &e.a, s)?;
            let b = find(format!("ring.link[{i}].b"), &e.b, (s + 1) % n)?;
            check_edge(
                &base_name,
                &format!("ring.link[{i}]"),
                k,
                a < n_cities,
                b < n_cities,
            )?;
            add(a, b, k, &mut adjacent);
        }
    }
    // Scenario head.
    let turns = int_in(&base_name, "scenario.turns", head.turns, 1, 5)? as u8;
    let hand = int_in(&base_name, "scenario.hand_size", head.hand_size, 1, 30)? as u8;
    let forts = int_in(
        &base_name,
        "scenario.fortifications",
        head.fortifications,
        1,
        32,
    )? as u8;
    let auto_win = int_in(
        &base_name,
        "scenario.auto_win_cities",
        head.auto_win_cities,
        1,
        99,
    )? as u8;
    let capital = ring
        .city
        .iter()
        .position(|c| c.id == head.capital)
        .ok_or_else(|| {
            let cities: Vec<&str> = ring.city.iter().map(|c| c.id.as_str()).collect();
            bad(
                &base_name,
                "scenario.capital",
                format!(
                    "\"{}\"{}",
                    head.capital,
                    did_you_mean(&head.capital, cities.iter().copied())
                ),
                format!("a city of the sector: {}", cities.join(", ")),
            )
        })?;
    for (i, k) in head.key_cities.iter().enumerate() {
        match ring.city.iter().position(|c| c.id == *k) {
            Some(c) if c == capital => {
                return Err(bad(
                    &base_name,
                    format!("scenario.key_cities[{i}]"),
                    format!("\"{k}\""),
                    "a city other than the capital (key cities start neutral, L284-L289)",
                ))
            }
            Some(_) => {}
            None => {
                return Err(bad(
                    &base_name,
                    format!("scenario.key_cities[{i}]"),
                    format!("\"{k}\""),
                    "a city of the sector",
                ))
            }
        }
    }
    let deck_index = |file: &str, field: &str, d: &str| -> Result<usize> {
        decks.iter().position(|x| x.name == d).ok_or_else(|| {
            let names: Vec<&str> = decks.iter().map(|x| x.name.as_str()).collect();
            bad(
                file,
                field,
                format!("\"{d}\"{}", did_you_mean(d, names.iter().copied())),
                format!("a deck of {dname}: {}", names.join(", ")),
            )
        })
    };
    let deck = deck_index(&base_name, "scenario.deck", &head.deck)?;
    let mut empires: Vec<Empire> = (0..n)
        .map(|s| Empire {
            name: format!("empire-{}", s + 1),
            capital: s * nc_sector + capital,
            fortifications: forts,
            hand_size: hand,
            deck,
        })
        .collect();
    if let Some(p) = perturbation {
        apply(
            &name,
            p,
            &mut empires,
            &mut cities,
            &mut adjacent,
            &ring.city,
            nc_sector,
            n,
            &deck_index,
        )?;
    }
    let map = Map {
        cities,
        areas,
        adjacent,
    };
    Ok(Scenario {
        mirror: perturbation.is_none(),
        map,
        empires,
        decks,
        tables,
        turns,
        auto_win_cities: auto_win,
        sources,
    })
}

fn check_edge(file: &str, field: &str, k: EdgeKind, a_city: bool, b_city: bool) -> Result<()> {
    let ok = match k {
        EdgeKind::Road | EdgeKind::Strait => a_city && b_city,
        EdgeKind::BarbarianPath => !(a_city && b_city),
    };
    if ok {
        Ok(())
    } else {
        Err(bad(file, format!("{field}.kind"), format!("\"{}\"", EdgeKind::NAMES[k as usize]), "road or strait between two cities; barbarian_path from a city or area to an area (L119-L139)"))
    }
}

#[allow(clippy::too_many_arguments)]
fn apply(
    file: &str,
    p: &Perturbation,
    empires: &mut [Empire],
    cities: &mut Vec<City>,
    adjacent: &mut Vec<Vec<(usize, EdgeKind)>>,
    template: &[super::files::CityRow],
    nc_sector: usize,
    n: usize,
    deck_index: &dyn Fn(&str, &str, &str) -> Result<usize>,
) -> Result<()> {
    let seat = int_in(file, "perturbation.seat", p.seat, 1, n as i64)? as usize - 1;
    let changes = p.extra_city.is_some() as u8
        + p.extra_fortifications.is_some() as u8
        + p.extra_hand_size.is_some() as u8
        + p.deck.is_some() as u8;
    if changes != 1 {
        return Err(bad(
            file,
            "perturbation",
            format!("{changes} changes"),
            "exactly one of extra_city, extra_fortifications, extra_hand_size, deck",
        ));
    }
    if let Some(c) = &p.extra_city {
        int_in(file, "perturbation.extra_city.size", c.size, 1, 6)?;
        let to = template
            .iter()
            .position(|t| t.id == c.road_to)
            .ok_or_else(|| {
                bad(
                    file,
                    "perturbation.extra_city.road_to",
                    format!("\"{}\"", c.road_to),
                    "a city of the sector template",
                )
            })?;
        if template.iter().any(|t| t.id == c.id) {
            return Err(bad(
                file,
                "perturbation.extra_city.id",
                format!("\"{}\"", c.id),
                "an id no city of the sector has",
            ));
        }
        // The extra city goes last among the cities; the areas' nodes move up by one.
        let new = n * nc_sector;
        for list in adjacent.iter_mut() {
            for e in list.iter_mut() {
                if e.0 >= new {
                    e.0 += 1;
                }
            }
        }
        adjacent.insert(new, Vec::new());
        let at = seat * nc_sector + to;
        adjacent[new].push((at, EdgeKind::Road));
        adjacent[at].push((new, EdgeKind::Road));
        cities.push(City {
            sector: seat as u8,
            name: format!("{}-{}", c.id, seat + 1),
            size: c.size as u8,
            port: c.port,
            key: false,
        });
    }
    if let Some(f) = p.extra_fortifications {
        let f = int_in(file, "perturbation.extra_fortifications", f, 1, 10)? as u8;
        empires[seat].fortifications += f;
    }
    if let Some(h) = p.extra_hand_size {
        let h = int_in(file, "perturbation.extra_hand_size", h, -5, 10)?;
        empires[seat].hand_size = (empires[seat].hand_size as i64 + h).clamp(1, 30) as u8;
    }
    if let Some(d) = &p.deck {
        empires[seat].deck = deck_index(file, "perturbation.deck", d)?;
    }
    Ok(())
}

fn force_table(
    file: &str,
    key: &str,
    t: &ForceTable,
    sources: &mut Vec<DataSource>,
) -> Result<[(i32, u32); 6]> {
    sources.push(source(
        file,
        &format!("{key} {}", t.name),
        key,
        &t.provenance,
        &t.why,
    )?);
    if t.rows.len() != 6 {
        return Err(bad(
            file,
            format!("{key}.rows"),
            format!("{} rows", t.rows.len()),
            "6 rows, one per face of the 1d6",
        ));
    }
    let mut out = [(0, 0); 6];
    for (i, r) in t.rows.iter().enumerate() {
        let fixed = int_in(file, &format!("{key}.rows[{i}].fixed"), r.fixed, 0, 60)? as i32;
        let dice = int_in(file, &format!("{key}.rows[{i}].dice"), r.dice, 0, 20)? as u32;
        if fixed == 0 && dice == 0 {
            return Err(bad(
                file,
                format!("{key}.rows[{i}]"),
                "fixed = 0, dice = 0",
                "a force with some strength (fixed > 0 or dice > 0)",
            ));
        }
        out[i] = (fixed, dice);
    }
    Ok(out)
}

fn load_tables(file: &str, t: &TablesFile, sources: &mut Vec<DataSource>) -> Result<Tables> {
    provenance(file, "meta.provenance", &t.meta.provenance)?;
    let e = &t.event_table;
    sources.push(source(
        file,
        &format!("event_table {}", e.name),
        "event_table",
        &e.provenance,
        &e.why,
    )?);
    let lowest = int_in(file, "event_table.lowest", e.lowest, -10, 20)? as i32;
    let mut events = Vec::new();
    for (i, name) in e.events.iter().enumerate() {
        let ev = Event::NAMES.iter().position(|n| n == name).ok_or_else(|| {
            bad(
                file,
                format!("event_table.events[{i}]"),
                format!("\"{name}\"{}", did_you_mean(name, Event::NAMES)),
                format!("an event: {}", Event::NAMES.join(", ")),
            )
        })?;
        events.push(Event::ALL[ev]);
    }
    if events.last() != Some(&Event::EndOfTurn) {
        return Err(bad(
            file,
            "event_table.events",
            format!("{} last", events.last().map_or("nothing", |e| e.name())),
            "end_of_turn last: the growing modifier must end every turn (L343-L358)",
        ));
    }
    for ev in Event::ALL {
        if !events.contains(&ev) {
            return Err(bad(
                file,
                "event_table.events",
                format!("no {}", ev.name()),
                "each of the 11 events at least once",
            ));
        }
    }
    let neutral = force_table(file, "neutral_table", &t.neutral_table, sources)?;
    let pirates = force_table(file, "pirates_table", &t.pirates_table, sources)?;
    let p = &t.pacification_table;
    sources.push(source(
        file,
        &format!("pacification_table {}", p.name),
        "pacification_table",
        &p.provenance,
        &p.why,
    )?);
    let margin_step = int_in(file, "pacification_table.margin_step", p.margin_step, 1, 36)? as i32;
    if p.results.len() != 5 {
        return Err(bad(
            file,
            "pacification_table.results",
            format!("{} results", p.results.len()),
            "the 5 results in the rulebook's order (L1013-L1037)",
        ));
    }
    let mut from = [0i32; 4];
    for (i, r) in p.results.iter().enumerate() {
        let field = format!("pacification_table.results[{i}]");
        if r.result != Pacification::NAMES[i] {
            return Err(bad(
                file,
                format!("{field}.result"),
                format!("\"{}\"", r.result),
                format!(
                    "\"{}\" (the results in the rulebook's order: {})",
                    Pacification::NAMES[i],
                    Pacification::NAMES.join(", ")
                ),
            ));
        }
        match (i, r.from) {
            (0, None) => {}
            (0, Some(f)) => {
                return Err(bad(
                    file,
                    format!("{field}.from"),
                    f,
                    "nothing: the first result takes every roll below the second's",
                ))
            }
            (_, None) => {
                return Err(bad(
                    file,
                    format!("{field}.from"),
                    "nothing",
                    "the lowest modified roll giving this result",
                ))
            }
            (_, Some(f)) => {
                let f = int_in(file, &format!("{field}.from"), f, -10, 20)? as i32;
                if i > 1 && f <= from[i - 2] {
                    return Err(bad(
                        file,
                        format!("{field}.from"),
                        f,
                        format!("more than the previous result's {}", from[i - 2]),
                    ));
                }
                from[i - 1] = f;
            }
        }
    }
    Ok(Tables {
        lowest,
        events,
        neutral,
        pirates,
        margin_step,
        pacification_from: from,
    })
}

fn cv(file: &str, field: &str, v: &Option<toml::Value>) -> Result<Cv> {
    match v {
        None => Ok(Cv::Dash),
        Some(x) => parse_cv(x).ok_or_else(|| bad(file, field, value_text(x), "a whole number of combat factors 0-99, \"Nd\" for N dice (1-20), or \"-\" for none")),
    }
}

fn load_card(file: &str, field: &str, c: &CardRow) -> Result<CardKind> {
    let mut types = 0u8;
    for (i, t) in c.types.iter().enumerate() {
        let bit = TYPE_LETTERS.iter().find(|(l, _)| l == t).map(|x| x.1).ok_or_else(|| {
            bad(file, format!("{field}.types[{i}]"), format!("\"{t}\""), "T, F, L, D, A, I or X (Troop, Fleet, Leader, City Defence, City Attack, Empire, Special Event)")
        })?;
        types |= bit;
    }
    if types == 0 {
        return Err(bad(
            file,
            format!("{field}.types"),
            "[]",
            "at least one type",
        ));
    }
    let effects = Vec::new();
    // The first effect named decides: no hook is implemented yet.
    if let Some((i, e)) = c.effects.iter().enumerate().next() {
        if !super::scenario::Effect::NAMES.contains(&e.as_str()) {
            return Err(bad(
                file,
                format!("{field}.effects[{i}]"),
                format!("\"{e}\""),
                format!(
                    "an effect hook: {}",
                    super::scenario::Effect::NAMES.join(", ")
                ),
            ));
        }
        // No hook is implemented yet: a card that names one cannot be played faithfully.
        return Err(bad(
            file,
            format!("{field}.effects[{i}]"),
            format!("\"{e}\""),
            "nothing yet: only vanilla cards (effects = []) are played so far",
        ));
    }
    let dice = match c.dice {
        None => 0,
        Some(d) => int_in(file, &format!("{field}.dice"), d, 0, 10)? as u8,
    };
    let kind = CardKind {
        name: c.name.clone(),
        types,
        field: cv(file, &format!("{field}.field"), &c.field)?,
        naval: cv(file, &format!("{field}.naval"), &c.naval)?,
        assault: cv(file, &format!("{field}.assault"), &c.assault)?,
        dice,
        effects,
    };
    if kind.is(super::scenario::FLEET) && kind.naval.as_count() == 0 {
        return Err(bad(
            file,
            format!("{field}.naval"),
            value_text(c.naval.as_ref().unwrap_or(&toml::Value::from("-"))),
            "a fleet's naval value, its cargo capacity (1 or more)",
        ));
    }
    if kind.is(super::scenario::EMPIRE | super::scenario::SPECIAL) {
        return Err(bad(
            file,
            format!("{field}.types"),
            format!("{:?}", c.types),
            "T, F, L, D, A so far: Empire and Special Event cards need their texts (Layer C)",
        ));
    }
    Ok(kind)
}

fn load_decks(file: &str, d: &DecksFile) -> Result<Vec<Deck>> {
    let mut out: Vec<Deck> = Vec::new();
    for (i, row) in d.deck.iter().enumerate() {
        if out.iter().any(|x| x.name == row.name) {
            return Err(bad(
                file,
                format!("deck[{i}].name"),
                format!("\"{}\"", row.name),
                "a name no other deck has",
            ));
        }
        let mut kinds = Vec::new();
        let mut cards = Vec::new();
        if row.card.len() > super::military::MAX_KINDS {
            return Err(bad(
                file,
                format!("deck[{i}].card"),
                format!("{} cards", row.card.len()),
                format!(
                    "at most {} different cards per deck (use copies)",
                    super::military::MAX_KINDS
                ),
            ));
        }
        for (j, c) in row.card.iter().enumerate() {
            let field = format!("deck[{i}].card[{j}]");
            let copies = int_in(
                file,
                &format!("{field}.copies"),
                c.copies,
                1,
                MAX_DECK as i64,
            )?;
            cards.extend(std::iter::repeat_n(kinds.len() as u8, copies as usize));
            kinds.push(load_card(file, &field, c)?);
        }
        if cards.len() > MAX_DECK || cards.is_empty() {
            return Err(bad(
                file,
                format!("deck[{i}]"),
                format!("{} cards", cards.len()),
                format!("1-{MAX_DECK} cards (a real deck holds 35, L149-L150)"),
            ));
        }
        out.push(Deck::new(row.name.clone(), kinds, cards));
    }
    Ok(out)
}
