//! Every battle's declared keys against its parser: each declared key is accepted with a valid
//! value, each range's ends are accepted and the values just outside rejected, and a key that is
//! not declared is rejected with a did-you-mean. So the documentation (drawn from the same
//! declarations) and the parser cannot drift apart.

use super::{load_battle, BattleKind, Ruleset, RULESETS};
use crate::battle::keys::{Key, Type};
use crate::spec::{dotted_parent, MAX_COUNT};
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
        _ => panic!("no example battle for {slug} {battle}: add one to key_tests.rs"),
    }
}

fn base(r: &Ruleset, b: &BattleKind) -> Table {
    let mut t: Table = example(r.slug, b.name).parse().expect("example TOML");
    t.insert("ruleset".into(), Value::String(r.slug.into()));
    t.insert("battle".into(), Value::String(b.name.into()));
    t
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

/// Keys whose valid values cannot all be accepted with the battle's example (a rule ties them to
/// another key); each is `(ruleset, battle, dotted key)`.
const RULE_BOUND: &[(&str, &str, &str)] = &[];

fn declared() -> impl Iterator<Item = (&'static Ruleset, &'static BattleKind)> {
    RULESETS
        .iter()
        .flat_map(|r| r.battles.iter().map(move |b| (r, b)))
        .filter(|(_, b)| !b.keys.is_empty())
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

#[test]
fn every_declared_key_is_accepted_and_its_range_enforced() {
    let mut failures = Vec::new();
    for (r, b) in declared() {
        let t = base(r, b);
        if let Err(e) = load_battle("example", &t) {
            failures.push(format!("{} {}: the example fails: {e}", r.slug, b.name));
            continue;
        }
        for (list, key) in all_keys(b) {
            for dotted in dotted_names(list, key) {
                let bound = RULE_BOUND.contains(&(r.slug, b.name, dotted.as_str()));
                for v in valid_values(key) {
                    if let Err(e) = load_battle("t", &with(&t, list, &dotted, v.clone())) {
                        let range_error = e.to_string().contains("is not allowed")
                            && e.to_string().contains(&format!("{dotted}` = "));
                        if !bound || range_error || e.to_string().contains("unknown field") {
                            failures.push(format!("{} {} {dotted} = {v}: {e}", r.slug, b.name));
                        }
                    }
                }
                for v in invalid_values(key) {
                    match load_battle("t", &with(&t, list, &dotted, v.clone())) {
                        Ok(_) => failures.push(format!(
                            "{} {} {dotted} = {v} accepted, outside the declaration",
                            r.slug, b.name
                        )),
                        Err(e) if !e.to_string().contains(&format!("{dotted}` = ")) => failures
                            .push(format!(
                                "{} {} {dotted} = {v}: the error does not name the field: {e}",
                                r.slug, b.name
                            )),
                        Err(_) => {}
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
                        let ok = e.contains(&format!("unknown field `"))
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
