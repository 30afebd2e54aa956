//! Every battle's declared keys against its parser: each declared key is accepted with a valid
//! value, each range's ends are accepted and the values just outside rejected, and a key that is
//! not declared is rejected with a did-you-mean. So the documentation (drawn from the same
//! declarations) and the parser cannot drift apart.

use super::{load_battle, BattleKind, Ruleset, RULESETS};
use crate::battle::keys::{self, Key, Type};
use crate::spec::{dotted_parent, Fields, MAX_COUNT, READ};
use std::collections::BTreeSet;
use toml::{Table, Value};

/// A small valid battle of each kind (its keys only; `ruleset` and `battle` are added).
fn example(slug: &str, battle: &str) -> &'static str {
    match (slug, battle) {
        ("mare-nostrum", "field") => {
            "[attacker]\ninfantry = 3\nleader = 1\n[defender]\ninfantry = 2"
        }
        ("mare-nostrum", "naval") => "[attacker]\nfleets = 3\n[defender]\nfleets = 2",
        ("mare-nostrum", "assault" | "siege") => {
            "[attacker]\ninfantry = 3\n[defender]\ngarrison = 2"
        }
        ("mare-nostrum", "pillage") => "[attacker]\ninfantry = 3\n[defender]\nppr = 2",
        ("invasions", "basic" | "advanced") => {
            "[attacker]\ninfantry = 3\nleader = 1\n[defender]\ninfantry = 2"
        }
        ("republica-de-roma", "land") => {
            "[rome]\nlegions = 10\ncommander_military = 2\n[war]\nland_strength = 5"
        }
        ("republica-de-roma", "naval") => {
            "[rome]\nfleets = 10\n[war]\nland_strength = 5\nnaval_strength = 4"
        }
        ("republica-de-roma", "naval-then-land") => {
            "[rome]\nlegions = 10\nfleets = 10\n[war]\nland_strength = 5\nnaval_strength = 4"
        }
        ("republica-de-roma", "campaign") => {
            "phases = 2\n[rome]\nlegions = 10\n[war]\nland_strength = 5"
        }
        ("republica-de-roma", "civil-war") => "[rome]\nlegions = 5\n[rebel]\nlegions = 4",
        ("republica-de-roma", "blockade") => "[rome]\nfleets = 5\n[rebel]\nfleets = 4",
        ("republica-de-roma", "armies") => {
            "[[armies]]\nlegions = 5\n[[armies]]\nlegions = 4\n[war]\nland_strength = 8"
        }
        ("republica-de-roma", "provincial") => {
            "[province]\ninitial_strength = 3\ntroops = 2\n[war]\nland_strength = 5"
        }
        ("republica-de-roma", "rebel-province") => {
            "[rome]\nlegions = 10\nfleets = 5\n[province]\ninitial_land = 3\ntroops = 2"
        }
        _ => shipped(slug, battle)
            .unwrap_or_else(|| panic!("no example of {slug} {battle}: add one to key_tests.rs")),
    }
}

/// The shipped battle file of a battle, when there is one.
fn shipped(slug: &str, battle: &str) -> Option<&'static str> {
    let dir = std::fs::read_dir("experiments/battles").ok()?;
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .find(|text| {
            let t: Table = text.parse().unwrap_or_default();
            t.get("ruleset").and_then(|v| v.as_str()) == Some(slug)
                && t.get("battle").and_then(|v| v.as_str()) == Some(battle)
        })
        .map(|text| &*text.leak())
}

/// Other valid battles, for keys a rule ties to another key's value (a side's `fixed` is read
/// only with `force = "neutral"`): `(ruleset, battles, example)`.
const VARIANTS: &[(&str, &[&str], &str)] = &[
    (
        "imperios-del-mediterraneo",
        &["field"],
        "[attacker]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[defender]\nforce = \"barbarian\"\nstrength = 2\nenraged = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["field"],
        "[attacker]\nforce = \"barbarian\"\nstrength = 2\nenraged = 1\n[defender]\nforce = \"neutral\"\nfixed = 6\ndice = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["naval"],
        "[attacker]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[defender]\nforce = \"neutral\"\nfixed = 6\ndice = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["naval"],
        "[attacker]\nfleets = [\"Quinquerremes\"]\ntroops = [\"Hoplitas\"]\n[defender]\nfleets = [\"Trirremes\"]\ntroops = [\"Hoplitas\"]",
    ),
    (
        "imperios-del-mediterraneo",
        &["assault"],
        "[attacker]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[city]\nsize = 2",
    ),
    (
        "imperios-del-mediterraneo",
        &["assault"],
        "[attacker]\nforce = \"barbarian\"\nstrength = 2\nenraged = 1\n[city]\nsize = 2",
    ),
    (
        "imperios-del-mediterraneo",
        &["pacify"],
        "[attacker]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[defender]\nstrength = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["pacify"],
        "[attacker]\nforce = \"barbarian\"\nstrength = 2\nenraged = 1\n[defender]\nstrength = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["expedition"],
        "route = \"naval\"\n[attacker]\nfleets = [\"Quinquerremes\"]\ntroops = [\"Hoplitas\"]\n[naval_interception]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[land_interception]\nforce = \"neutral\"\nfixed = 6\ndice = 1\n[target]\nsize = 2",
    ),
    (
        "imperios-del-mediterraneo",
        &["expedition"],
        "route = \"naval\"\n[attacker]\nfleets = [\"Quinquerremes\"]\ntroops = [\"Hoplitas\"]\n[naval_interception]\nfleets = [\"Trirremes\"]\ntroops = [\"Hoplitas\"]\n[target]\nsize = 2",
    ),
    (
        "imperios-del-mediterraneo",
        &["expedition"],
        "[attacker]\ntroops = [\"Hoplitas\"]\n[target]\nkind = \"barbarian\"\nstrength = 2\nenraged = 1",
    ),
    (
        "republica-de-roma",
        &["campaign"],
        "reinforcement = \"replace-losses\"\n[rome]\nlegions = 10\n[war]\nland_strength = 5",
    ),
    (
        "republica-de-roma",
        &["provincial"],
        "[province]\ninitial_strength = 3\nfleets = 2\n[war]\nland_strength = 5\nnaval_strength = 3",
    ),
    (
        "mediterraneo-sanguinolento",
        &["interception"],
        "kind = \"land\"\nstrategic = 2\nconvoy = true",
    ),
    (
        "invasions",
        &["status"],
        "test = \"kingdom\"\nage = 6\ntreasury = 12",
    ),
    (
        "invasions",
        &["status"],
        "test = \"collapse\"\nage = 10\ncalamities = 1",
    ),
    (
        "imperios-del-mediterraneo",
        &["raid"],
        "raider = \"horde\"\nstrength = 2\nenraged = 1\n[city]\nsize = 2",
    ),
];

fn table(r: &Ruleset, b: &BattleKind, text: &str) -> Table {
    let mut t: Table = text.parse().expect("example TOML");
    t.insert("ruleset".into(), Value::String(r.slug.into()));
    t.insert("battle".into(), Value::String(b.name.into()));
    t
}

fn base(r: &Ruleset, b: &BattleKind) -> Table {
    table(r, b, example(r.slug, b.name))
}

/// The example and the variants of a battle.
fn examples(r: &Ruleset, b: &BattleKind) -> Vec<Table> {
    let mut out = vec![base(r, b)];
    out.extend(
        VARIANTS
            .iter()
            .filter(|(slug, battles, _)| *slug == r.slug && battles.contains(&b.name))
            .map(|(_, _, text)| table(r, b, text)),
    );
    out
}

/// The dotted places a key can be set at: `attacker.leader`, `stacks.0.units` is `stacks` entry 0.
fn places(key: &Key, name: &str) -> Vec<String> {
    if key.at.is_empty() {
        vec![name.to_string()]
    } else {
        key.at.iter().map(|t| format!("{t}.{name}")).collect()
    }
}

/// `t` with `dotted` (inside `[[list]]` entry 0 when `list` is given) set to `value`.
fn with(t: &Table, list: Option<&Key>, dotted: &str, value: Value) -> Table {
    let mut t = t.clone();
    match list {
        None => {
            let (parent, key) = dotted_parent(&mut t, dotted).unwrap();
            parent.insert(key.to_string(), value);
        }
        Some(list) => {
            let place = &places(list, list.name)[0];
            let (parent, key) = dotted_parent(&mut t, place).unwrap();
            if !parent.contains_key(key) {
                parent.insert(key.to_string(), list.example());
            }
            let entry = parent[key].as_array_mut().unwrap()[0]
                .as_table_mut()
                .unwrap();
            entry.insert(dotted.to_string(), value);
        }
    }
    t
}

fn name(key: &Key) -> &'static str {
    key.family.map_or(key.name, |f| f.example)
}

/// Values the declaration accepts: its ends for ranges, every value of a choice.
fn valid_values(key: &Key) -> Vec<Value> {
    match key.ty {
        Type::Count => vec![Value::Integer(0), Value::Integer(1)],
        Type::Int(lo, hi) => vec![Value::Integer(lo), Value::Integer(hi)],
        Type::Number(lo, hi) => vec![Value::Float(lo), Value::Float(hi)],
        Type::Bool => vec![Value::Boolean(true), Value::Boolean(false)],
        Type::Choice(values) => values
            .iter()
            .map(|v| Value::String(v.to_string()))
            .collect(),
        _ => vec![key.example()],
    }
}

/// Values just outside the declared range, or of the wrong type.
fn invalid_values(key: &Key) -> Vec<Value> {
    match key.ty {
        Type::Count => vec![Value::Integer(-1), Value::Integer(MAX_COUNT + 1)],
        Type::CountOr { .. } => vec![Value::Integer(-1), Value::Boolean(true)],
        Type::Int(lo, hi) => vec![Value::Integer(lo - 1), Value::Integer(hi + 1)],
        Type::Number(lo, hi) => vec![Value::Float(lo - 0.001), Value::Float(hi + 0.001)],
        Type::Bool => vec![Value::Integer(1)],
        Type::Choice(_) => vec![Value::String("no-such-value".into())],
        Type::Text { .. } => vec![Value::Boolean(true)],
        Type::List { .. } => vec![Value::Boolean(true)],
        Type::Table { .. } => vec![Value::Integer(1)],
        Type::Tables(..) => vec![Value::Integer(1)],
        Type::Value { .. } => vec![],
    }
}

fn declared() -> impl Iterator<Item = (&'static Ruleset, &'static BattleKind)> {
    RULESETS
        .iter()
        .flat_map(|r| r.battles.iter().map(move |b| (r, b)))
}

/// Each (list, key) of a battle: top-level and sub-table keys, and the keys of `[[list]]` entries.
fn all_keys(b: &BattleKind) -> Vec<(Option<&'static Key>, &'static Key)> {
    let mut out = Vec::new();
    for k in b.keys {
        out.push((None, k));
        if let Type::Tables(inner, _, _) = k.ty {
            out.extend(inner.iter().map(|i| (Some(k), i)));
        }
    }
    out
}

fn dotted_names(list: Option<&Key>, key: &Key) -> Vec<String> {
    match list {
        None => places(key, name(key)),
        Some(_) => vec![name(key).to_string()],
    }
}

/// The declaration's own check (unknown keys, types, ranges) of a battle table.
fn check(b: &BattleKind, t: &Table) -> crate::error::Result<()> {
    keys::check(&Fields::new("t", t), b.keys)
}

/// Loads a battle, recording the fields its parser reads.
fn load_recorded(t: &Table) -> (crate::error::Result<()>, BTreeSet<String>) {
    READ.with(|r| *r.borrow_mut() = Some(BTreeSet::new()));
    let result = load_battle("t", t).map(|_| ());
    (
        result,
        READ.with(|r| r.borrow_mut().take().unwrap_or_default()),
    )
}

#[test]
fn every_declared_key_is_accepted_and_its_range_enforced() {
    let mut failures = Vec::new();
    for (r, b) in declared() {
        let examples = examples(r, b);
        for t in &examples {
            if let Err(e) = load_battle("example", t) {
                failures.push(format!("{} {}: an example fails: {e}", r.slug, b.name));
            }
        }
        let t = &examples[0];
        for (list, key) in all_keys(b) {
            for dotted in dotted_names(list, key) {
                let field = match list {
                    None => dotted.clone(),
                    Some(l) => format!("{}[0].{dotted}", places(l, l.name)[0]),
                };
                let mut read = false;
                let mut rule_errors = Vec::new();
                let tries = examples
                    .iter()
                    .flat_map(|t| valid_values(key).into_iter().map(move |v| (t, v)));
                for (t, v) in tries {
                    let t = with(t, list, &dotted, v.clone());
                    if let Err(e) = check(b, &t) {
                        failures.push(format!("{} {} {dotted} = {v}: {e}", r.slug, b.name));
                        continue;
                    }
                    // The parser reads what the declaration accepts, unless a rule tying the key
                    // to another one refuses it ("at least one legion for a land battle").
                    match load_recorded(&t) {
                        (Err(e), _) => rule_errors.push(e.to_string()),
                        (Ok(()), fields) => read |= fields.contains(&field),
                    }
                }
                for t in &examples {
                    if let (Ok(()), fields) = load_recorded(t) {
                        read |= fields.contains(&field);
                    }
                }
                if !read {
                    failures.push(format!(
                        "{} {} {field}: declared but never read by the parser ({})",
                        r.slug,
                        b.name,
                        rule_errors.join(" / ")
                    ));
                }
                for v in invalid_values(key) {
                    let t = with(t, list, &dotted, v.clone());
                    match (check(b, &t), load_battle("t", &t)) {
                        (Ok(_), _) | (_, Ok(_)) => failures.push(format!(
                            "{} {} {dotted} = {v} accepted, outside the declaration",
                            r.slug, b.name
                        )),
                        (Err(e), _) if !e.to_string().contains(&format!("{field}` = ")) => failures
                            .push(format!(
                                "{} {} {field} = {v}: the error does not name the field: {e}",
                                r.slug, b.name
                            )),
                        _ => {}
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_undeclared_key_is_rejected_with_a_did_you_mean() {
    let mut failures = Vec::new();
    for (r, b) in declared() {
        let t = base(r, b);
        for (list, key) in all_keys(b) {
            if key.family.is_some() {
                continue;
            }
            for dotted in dotted_names(list, key) {
                // A typo: the key with its last letter doubled.
                let typo = format!("{dotted}{}", dotted.chars().last().unwrap());
                let plain = typo.rsplit('.').next().unwrap().to_string();
                match load_battle("t", &with(&t, list, &typo, key.example())) {
                    Ok(_) => failures.push(format!("{} {} {typo} accepted", r.slug, b.name)),
                    Err(e) => {
                        let e = e.to_string();
                        let ok = e.contains("unknown field `")
                            && e.contains(&plain)
                            && e.contains("did you mean")
                            && e.contains(name(key));
                        if !ok {
                            failures.push(format!("{} {} {typo}: {e}", r.slug, b.name));
                        }
                    }
                }
            }
        }
        let e = load_battle("t", &with(&t, None, "no_such_table.x", Value::Integer(1)))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        if !e.contains("unknown field `no_such_table`") {
            failures.push(format!("{} {}: an unknown table: {e}", r.slug, b.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_battle_declares_its_keys() {
    for (r, b) in declared() {
        assert!(!b.keys.is_empty(), "{} {}: no keys", r.slug, b.name);
        for k in b.keys {
            assert!(
                !k.help.is_empty(),
                "{} {} {}: no help",
                r.slug,
                b.name,
                k.name
            );
        }
    }
}
