//! Reads and checks the Core-IDM files (digest §6.3): a scenario file (an explicit map and its
//! scenario, the mirror ring's sector template and its scenario, or a perturbation of a base
//! file), the decks and the tables. Both kinds of map become one [`MapSpec`], which builds the
//! game's map. Every error is one line naming the file, the field, the value and what is allowed.

use super::files::{
    CardRow, DecksFile, EdgeRow, ForceTable, Meta, Perturbation, Ring, ScenarioFile, ScenarioHead,
    TablesFile,
};
use super::map::{AreaSpec, CitySpec, EdgeSpec, EmpireSpec, MapSpec};
use super::scenario::{
    CardEffect, CardKind, DataProvenance, DataSource, Deck, EdgeKind, EffectKind, Event,
    Pacification, Scenario, Tables, Timing, EMPIRE, FLEET, SPECIAL, TROOP, TYPE_LETTERS,
};
use crate::error::{did_you_mean, AleaError, Result};
use crate::rulesets::imperios_del_mediterraneo::cards::{parse_cv, Cv};
use crate::spec::{toml_error, value_text};
use serde::de::DeserializeOwned;
use std::path::Path;

mod cards;
use cards::load_decks;

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
    Ok(load_with_map(path, players, tables)?.0)
}

/// [`load_with`] and the map by id it was built from (what an explicit map file would list).
pub fn load_with_map(
    path: &Path,
    players: usize,
    tables: Option<&Path>,
) -> Result<(Scenario, MapSpec)> {
    let (name, file): (String, ScenarioFile) = parse(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut sources = vec![meta_source(&name, "scenario", &file.meta)?];
    let ScenarioFile {
        meta,
        ring,
        city,
        barbarian,
        edge,
        scenario,
        perturbation,
    } = file;
    let (base_name, base, base_dir, perturbation) = match &meta.base {
        Some(b) => {
            if ring.is_some() || scenario.is_some() || !city.is_empty() {
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
                    city,
                    barbarian,
                    edge,
                    scenario,
                    perturbation: None,
                },
                dir.to_path_buf(),
                None,
            )
        }
    };
    let perturbation = perturbation.as_ref();
    let Some(head) = &base.scenario else {
        return Err(bad(&base_name, "scenario", "nothing", "a [scenario] table (turns, auto_win_cities, hand_size, fortifications, deck, key_cities; the ring's capital or an explicit map's [[scenario.empire]])"));
    };
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
    let decks_named = Decks {
        file: &dname,
        decks: &decks,
    };

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
    let deck = decks_named.index(&base_name, "scenario.deck", &head.deck)?;
    let defaults = EmpireDefaults { hand, forts, deck };
    let mut spec = match &base.ring {
        Some(ring) => {
            if !(base.city.is_empty() && base.barbarian.is_empty() && base.edge.is_empty()) {
                return Err(bad(
                    &base_name,
                    "ring",
                    "a table beside [[city]], [[barbarian]] or [[edge]] rows",
                    "either a [ring] template or an explicit map, not both",
                ));
            }
            ring_spec(&base_name, ring, head, players, &defaults)?
        }
        None => explicit_spec(&base_name, &base, head, players, &defaults, &decks_named)?,
    };
    if let Some(p) = perturbation {
        apply(&name, p, &mut spec, base.ring.is_some(), &decks_named)?;
    }
    let (map, empires) = spec.build()?;
    let scenario = Scenario {
        mirror: base.ring.is_some() && perturbation.is_none(),
        map,
        empires,
        decks,
        tables,
        turns,
        auto_win_cities: auto_win,
        sources,
    };
    Ok((scenario, spec))
}

/// The decks a scenario may name, and the file they come from.
struct Decks<'a> {
    file: &'a str,
    decks: &'a [Deck],
}

impl Decks<'_> {
    fn index(&self, file: &str, field: &str, d: &str) -> Result<usize> {
        self.decks.iter().position(|x| x.name == d).ok_or_else(|| {
            let names: Vec<&str> = self.decks.iter().map(|x| x.name.as_str()).collect();
            bad(
                file,
                field,
                format!("\"{d}\"{}", did_you_mean(d, names.iter().copied())),
                format!("a deck of {}: {}", self.file, names.join(", ")),
            )
        })
    }
}

/// What `[scenario]` gives every empire that does not say otherwise.
struct EmpireDefaults {
    hand: u8,
    forts: u8,
    deck: usize,
}

fn edge_kind(file: &str, field: String, e: &EdgeRow) -> Result<EdgeKind> {
    EdgeKind::parse(&e.kind).ok_or_else(|| {
        bad(
            file,
            field,
            format!("\"{}\"{}", e.kind, did_you_mean(&e.kind, EdgeKind::NAMES)),
            "road, strait or barbarian_path",
        )
    })
}

/// The mirror ring's sectors generated from the `[ring]` template: sector s's copy of template
/// id `x` is `x-<s+1>`, in territory `sector-<s+1>`; cities sector by sector, then areas; the
/// template's edges sector by sector, then its links from each sector to the next.
fn ring_spec(
    file: &str,
    ring: &Ring,
    head: &ScenarioHead,
    n: usize,
    d: &EmpireDefaults,
) -> Result<MapSpec> {
    let lo = int_in(file, "ring.min_sectors", ring.min_sectors, 2, 8)?;
    let hi = int_in(file, "ring.max_sectors", ring.max_sectors, lo, 8)?;
    if !(lo..=hi).contains(&(n as i64)) {
        return Err(bad(
            file,
            "ring",
            format!("{n} players"),
            format!("{lo}-{hi} players (one sector each)"),
        ));
    }
    if !head.empire.is_empty() {
        return Err(bad(
            file,
            "scenario.empire",
            format!("{} rows", head.empire.len()),
            "nothing in a ring file: its empires are one per sector",
        ));
    }
    let mut local: Vec<&str> = Vec::new();
    for (i, c) in ring.city.iter().enumerate() {
        int_in(file, &format!("ring.city[{i}].size"), c.size, 1, 6)?;
        local.push(&c.id);
    }
    for (i, a) in ring.barbarian.iter().enumerate() {
        int_in(
            file,
            &format!("ring.barbarian[{i}].strength"),
            a.strength,
            0,
            10,
        )?;
        local.push(&a.id);
    }
    for (i, id) in local.iter().enumerate() {
        if local[..i].contains(id) {
            return Err(bad(
                file,
                "ring",
                format!("\"{id}\" twice"),
                "distinct ids for the cities and areas of a sector",
            ));
        }
    }
    let copy = |id: &str, s: usize| format!("{id}-{}", s + 1);
    let territory = |s: usize| format!("sector-{}", s + 1);
    let known = |field: String, id: &str| -> Result<()> {
        if local.contains(&id) {
            Ok(())
        } else {
            Err(bad(
                file,
                field,
                format!("\"{id}\"{}", did_you_mean(id, local.iter().copied())),
                format!("a city or area id of the sector: {}", local.join(", ")),
            ))
        }
    };
    let mut spec = MapSpec::empty(file);
    for s in 0..n {
        for (i, c) in ring.city.iter().enumerate() {
            spec.cities.push(CitySpec {
                field: format!("ring.city[{i}]"),
                id: copy(&c.id, s),
                territory: territory(s),
                size: c.size as u8,
                port: c.port,
            });
        }
    }
    for s in 0..n {
        for (i, a) in ring.barbarian.iter().enumerate() {
            spec.areas.push(AreaSpec {
                field: format!("ring.barbarian[{i}]"),
                id: copy(&a.id, s),
                territory: territory(s),
                strength: a.strength as u8,
            });
        }
    }
    let lists = [("ring.edge", &ring.edge, 0), ("ring.link", &ring.link, 1)];
    for (list, rows, step) in lists {
        for (i, e) in rows.iter().enumerate() {
            let field = format!("{list}[{i}]");
            let kind = edge_kind(file, format!("{field}.kind"), e)?;
            known(format!("{field}.a"), &e.a)?;
            known(format!("{field}.b"), &e.b)?;
            for s in 0..n {
                let (a, b) = (copy(&e.a, s), copy(&e.b, (s + step) % n));
                // A link may meet itself on a small ring (both ways round two sectors).
                let twice = spec
                    .edges
                    .iter()
                    .any(|x| (x.a == a && x.b == b) || (x.a == b && x.b == a));
                if a != b && !twice {
                    spec.edges.push(EdgeSpec {
                        field: field.clone(),
                        a,
                        b,
                        kind,
                    });
                }
            }
        }
    }
    let cities: Vec<&str> = ring.city.iter().map(|c| c.id.as_str()).collect();
    let capital = head.capital.as_deref().unwrap_or_default();
    if !cities.contains(&capital) {
        return Err(bad(
            file,
            "scenario.capital",
            format!(
                "\"{capital}\"{}",
                did_you_mean(capital, cities.iter().copied())
            ),
            format!("a city of the sector: {}", cities.join(", ")),
        ));
    }
    for (i, k) in head.key_cities.iter().enumerate() {
        let field = format!("scenario.key_cities[{i}]");
        if !cities.contains(&k.as_str()) {
            return Err(bad(file, field, format!("\"{k}\""), "a city of the sector"));
        }
        spec.key_cities
            .extend((0..n).map(|s| (field.clone(), copy(k, s))));
    }
    spec.empires = (0..n)
        .map(|s| EmpireSpec {
            field: "scenario".to_string(),
            name: format!("empire-{}", s + 1),
            capital: copy(capital, s),
            fortifications: d.forts,
            hand_size: d.hand,
            deck: d.deck,
        })
        .collect();
    Ok(spec)
}

/// An explicit map file's rows (digest §6.3's schema), its empires in seat order.
fn explicit_spec(
    file: &str,
    f: &ScenarioFile,
    head: &ScenarioHead,
    players: usize,
    d: &EmpireDefaults,
    decks: &Decks,
) -> Result<MapSpec> {
    if f.city.is_empty() {
        return Err(bad(
            file,
            "city",
            "nothing",
            "a [ring] template or an explicit map's [[city]], [[barbarian]] and [[edge]] rows",
        ));
    }
    if let Some(c) = &head.capital {
        return Err(bad(
            file,
            "scenario.capital",
            format!("\"{c}\""),
            "nothing in an explicit map: each [[scenario.empire]] names its capital",
        ));
    }
    let mut spec = MapSpec::empty(file);
    let territory = |field: &str, t: &Option<String>| -> Result<String> {
        t.clone().ok_or_else(|| {
            bad(
                file,
                format!("{field}.territory"),
                "nothing",
                "the territory it lies in (the board's region or colour)",
            )
        })
    };
    for (i, c) in f.city.iter().enumerate() {
        let field = format!("city[{i}]");
        spec.cities.push(CitySpec {
            territory: territory(&field, &c.territory)?,
            field,
            id: c.id.clone(),
            size: int_in(file, &format!("city[{i}].size"), c.size, 1, 6)? as u8,
            port: c.port,
        });
    }
    for (i, a) in f.barbarian.iter().enumerate() {
        let field = format!("barbarian[{i}]");
        spec.areas.push(AreaSpec {
            id: a.id.clone(),
            territory: territory(&field, &a.territory)?,
            strength: int_in(file, &format!("{field}.strength"), a.strength, 0, 10)? as u8,
            field,
        });
    }
    for (i, e) in f.edge.iter().enumerate() {
        spec.edges.push(EdgeSpec {
            field: format!("edge[{i}]"),
            a: e.a.clone(),
            b: e.b.clone(),
            kind: edge_kind(file, format!("edge[{i}].kind"), e)?,
        });
    }
    let k = head.empire.len();
    if k != players {
        return Err(bad(
            file,
            "scenario.empire",
            format!("{k} empires for {players} players"),
            format!("as many players as the scenario's [[scenario.empire]] rows ({k})"),
        ));
    }
    let mut seated: Vec<(usize, EmpireSpec)> = Vec::with_capacity(k);
    for (i, e) in head.empire.iter().enumerate() {
        let field = format!("scenario.empire[{i}]");
        let seat = int_in(file, &format!("{field}.seat"), e.seat, 1, k as i64)? as usize;
        if seated.iter().any(|(s, _)| *s == seat) {
            return Err(bad(
                file,
                format!("{field}.seat"),
                seat,
                format!("a seat 1-{k} no other empire has"),
            ));
        }
        let fortifications = match e.fortifications {
            Some(x) => int_in(file, &format!("{field}.fortifications"), x, 1, 32)? as u8,
            None => d.forts,
        };
        let hand_size = match e.hand_size {
            Some(x) => int_in(file, &format!("{field}.hand_size"), x, 1, 30)? as u8,
            None => d.hand,
        };
        let deck = match &e.deck {
            Some(x) => decks.index(file, &format!("{field}.deck"), x)?,
            None => d.deck,
        };
        seated.push((
            seat,
            EmpireSpec {
                name: e.name.clone(),
                capital: e.capital.clone(),
                fortifications,
                hand_size,
                deck,
                field,
            },
        ));
    }
    seated.sort_by_key(|(s, _)| *s);
    spec.empires = seated.into_iter().map(|(_, e)| e).collect();
    spec.key_cities = head
        .key_cities
        .iter()
        .enumerate()
        .map(|(i, k)| (format!("scenario.key_cities[{i}]"), k.clone()))
        .collect();
    Ok(spec)
}

/// Changes the one thing a perturbation file changes, for the empire in its seat. On the ring
/// the extra city's `id` and `road_to` are template ids (copied into the seat's sector); on an
/// explicit map they are the map's.
fn apply(
    file: &str,
    p: &Perturbation,
    spec: &mut MapSpec,
    ring: bool,
    decks: &Decks,
) -> Result<()> {
    let n = spec.empires.len();
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
    let place = |id: &str| {
        if ring {
            format!("{id}-{}", seat + 1)
        } else {
            id.to_string()
        }
    };
    let whose = if ring {
        "the sector template"
    } else {
        "the map"
    };
    if let Some(c) = &p.extra_city {
        let size = int_in(file, "perturbation.extra_city.size", c.size, 1, 6)? as u8;
        let to = place(&c.road_to);
        if !matches!(spec.node(&to), Some(i) if i < spec.cities.len()) {
            return Err(bad(
                file,
                "perturbation.extra_city.road_to",
                format!("\"{}\"", c.road_to),
                format!("a city of {whose}"),
            ));
        }
        let id = place(&c.id);
        if spec.node(&id).is_some() {
            return Err(bad(
                file,
                "perturbation.extra_city.id",
                format!("\"{}\"", c.id),
                format!("an id no city or area of {whose} has"),
            ));
        }
        // The seat's capital's territory; the extra city goes last among the cities.
        let capital = &spec.empires[seat].capital;
        let territory = spec
            .cities
            .iter()
            .find(|x| x.id == *capital)
            .map_or_else(String::new, |x| x.territory.clone());
        spec.cities.push(CitySpec {
            field: "perturbation.extra_city".to_string(),
            id: id.clone(),
            territory,
            size,
            port: c.port,
        });
        spec.edges.push(EdgeSpec {
            field: "perturbation.extra_city".to_string(),
            a: id,
            b: to,
            kind: EdgeKind::Road,
        });
    }
    let empire = &mut spec.empires[seat];
    if let Some(f) = p.extra_fortifications {
        let f = int_in(file, "perturbation.extra_fortifications", f, 1, 10)? as u8;
        empire.fortifications += f;
    }
    if let Some(h) = p.extra_hand_size {
        let h = int_in(file, "perturbation.extra_hand_size", h, -5, 10)?;
        empire.hand_size = (empire.hand_size as i64 + h).clamp(1, 30) as u8;
    }
    if let Some(d) = &p.deck {
        empire.deck = decks.index(file, "perturbation.deck", d)?;
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
