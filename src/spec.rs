//! Checked access to a battle description: a TOML table from a battle file, an experiment, or the
//! command line (`--attacker infantry=10,leader=1` builds the same table). Every accessor names the
//! source and the dotted field in its error.

use crate::error::{close_matches, AleaError, Result};
use std::borrow::Cow;
use toml::{Table, Value};

/// The largest unit count accepted anywhere: beyond it a count is a typo, not a battle.
pub const MAX_COUNT: i64 = 1_000_000;

#[derive(Clone)]
pub struct Fields<'a> {
    pub source: &'a str,
    /// The dotted place of this table (`attacker`, `stacks[0]`), empty at the top level.
    path: Cow<'a, str>,
    table: &'a Table,
}

/// A value as the user wrote it, for error messages.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

#[cfg(test)]
thread_local! {
    /// The dotted fields the parsers read, when a test records them (a declared key must be
    /// read by its battle's parser).
    pub static READ: std::cell::RefCell<Option<std::collections::BTreeSet<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` without recording what it reads (the declaration's own check reads every key).
pub fn unrecorded<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(test)]
    {
        let saved = READ.with(|r| r.borrow_mut().take());
        let out = f();
        READ.with(|r| *r.borrow_mut() = saved);
        out
    }
    #[cfg(not(test))]
    f()
}

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        #[cfg(test)]
        READ.with(|r| {
            if let Some(read) = r.borrow_mut().as_mut() {
                read.insert(self.field(key));
            }
        });
        self.table.get(key)
    }

    pub fn new(source: &'a str, table: &'a Table) -> Fields<'a> {
        Fields {
            source,
            path: Cow::Borrowed(""),
            table,
        }
    }

    /// The table at `path` (an entry of a `[[list]]`, for instance).
    pub fn at(source: &'a str, path: String, table: &'a Table) -> Fields<'a> {
        Fields {
            source,
            path: Cow::Owned(path),
            table,
        }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Rejects any key not in `allowed`, suggesting the closest.
    pub fn only(&self, allowed: &[&str]) -> Result<()> {
        for key in self.table.keys() {
            if !allowed.contains(&key.as_str()) {
                let hint = close_matches(key, allowed.iter().copied());
                let hint = if hint.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", hint.join(", "))
                };
                return Err(AleaError::invalid(
                    self.source,
                    format!(
                        "unknown field `{}`{hint}; allowed here: {}",
                        self.field(key),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A copy of the table without `keys` (to hand the rest to another reader).
    pub fn table_without(&self, keys: &[&str]) -> Table {
        let mut t = self.table.clone();
        for k in keys {
            t.remove(*k);
        }
        t
    }

    pub fn keys(&self) -> impl Iterator<Item = &'a str> {
        self.table.keys().map(|k| k.as_str())
    }

    /// A real number (integers accepted) within `lo..=hi`.
    pub fn number_in(&self, key: &str, lo: f64, hi: f64) -> Result<Option<f64>> {
        let x = match self.get(key) {
            None => return Ok(None),
            Some(Value::Float(x)) => *x,
            Some(Value::Integer(i)) => *i as f64,
            Some(v) => {
                return Err(AleaError::input(
                    self.source,
                    self.field(key),
                    value_text(v),
                    format!("a number from {lo} to {hi}"),
                ))
            }
        };
        if (lo..=hi).contains(&x) {
            Ok(Some(x))
        } else {
            Err(AleaError::input(
                self.source,
                self.field(key),
                x,
                format!("a number from {lo} to {hi}"),
            ))
        }
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn raw(&self, key: &str) -> Option<&'a Value> {
        self.get(key)
    }

    /// A sub-table, or an empty one when absent.
    pub fn table(&self, key: &'a str, empty: &'a Table) -> Result<Fields<'a>> {
        match self.get(key) {
            None => Ok(Fields {
                source: self.source,
                path: Cow::Borrowed(key),
                table: empty,
            }),
            Some(Value::Table(t)) => Ok(Fields {
                source: self.source,
                path: Cow::Borrowed(key),
                table: t,
            }),
            Some(v) => Err(AleaError::input(
                self.source,
                self.field(key),
                value_text(v),
                "a table",
            )),
        }
    }

    pub fn int_in(&self, key: &str, lo: i64, hi: i64) -> Result<Option<i64>> {
        let allowed = || format!("a whole number from {lo} to {hi}");
        match self.get(key) {
            None => Ok(None),
            Some(Value::Integer(i)) if (lo..=hi).contains(i) => Ok(Some(*i)),
            Some(v) => Err(AleaError::input(
                self.source,
                self.field(key),
                value_text(v),
                allowed(),
            )),
        }
    }

    /// A unit count: a whole number from 0 to [`MAX_COUNT`]; absent means 0.
    pub fn count(&self, key: &str) -> Result<u32> {
        Ok(self.int_in(key, 0, MAX_COUNT)?.unwrap_or(0) as u32)
    }

    pub fn bool(&self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(AleaError::input(
                self.source,
                self.field(key),
                value_text(v),
                "true or false",
            )),
        }
    }

    pub fn choice(&self, key: &str, allowed: &[&'static str]) -> Result<Option<&'static str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => match allowed.iter().find(|a| **a == s.as_str()) {
                Some(a) => Ok(Some(*a)),
                None => Err(AleaError::input(
                    self.source,
                    self.field(key),
                    value_text(&Value::String(s.clone())),
                    format!("one of {}", quoted(allowed)),
                )),
            },
            Some(v) => Err(AleaError::input(
                self.source,
                self.field(key),
                value_text(v),
                format!("one of {}", quoted(allowed)),
            )),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(AleaError::input(
                self.source,
                self.field(key),
                value_text(v),
                "a string",
            )),
        }
    }
}

/// A TOML error on one line: where it is and what is wrong.
pub fn toml_error(source: &str, what: &str, text: &str, err: &toml::de::Error) -> AleaError {
    let place = err.span().map(|span| {
        let before = &text[..span.start.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        format!(" at line {line}, column {column}")
    });
    let message = err
        .message()
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    AleaError::invalid(
        source,
        format!("not a valid {what}{}: {message}", place.unwrap_or_default()),
    )
}

pub fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a command-line side description, `infantry=10,cavalry=5,leader=1`, into a table.
/// Values are read as TOML values (`true`, `12`, `"text"`); a bare word becomes a string.
pub fn parse_assignments(source: &str, text: &str) -> Result<Table> {
    let mut table = Table::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(AleaError::invalid(
                source,
                format!("`{part}` is not of the form key=value (example: infantry=10,leader=1)"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        set_dotted(&mut table, key, parse_value(value))
            .map_err(|m| AleaError::invalid(source, m))?;
    }
    Ok(table)
}

/// A command-line value: TOML syntax where it parses (`12`, `true`, `"x"`, `[1,2]`), else a string.
pub fn parse_value(text: &str) -> Value {
    let doc = format!("v = {text}");
    match doc.parse::<Table>() {
        Ok(mut t) => t.remove("v").unwrap_or(Value::String(text.to_string())),
        Err(_) => Value::String(text.to_string()),
    }
}

/// The table holding the last key of `a.b.c` (tables created on the way) and that key.
pub fn dotted_parent<'t, 'd>(
    table: &'t mut Table,
    dotted: &'d str,
) -> std::result::Result<(&'t mut Table, &'d str), String> {
    let mut parts = dotted.split('.').peekable();
    let mut here = table;
    while let Some(part) = parts.next() {
        if part.is_empty() {
            return Err(format!("`{dotted}` is not a valid field name"));
        }
        if parts.peek().is_none() {
            return Ok((here, part));
        }
        let entry = here
            .entry(part.to_string())
            .or_insert_with(|| Value::Table(Table::new()));
        here = match entry {
            Value::Table(t) => t,
            _ => return Err(format!("`{part}` in `{dotted}` is a value, not a table")),
        };
    }
    Err(format!("`{dotted}` is not a valid field name"))
}

/// Sets `a.b.c = value`, creating tables on the way.
pub fn set_dotted(
    table: &mut Table,
    dotted: &str,
    value: Value,
) -> std::result::Result<(), String> {
    let (parent, key) = dotted_parent(table, dotted)?;
    parent.insert(key.to_string(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_become_a_table() {
        let t = parse_assignments("--attacker", "infantry=10, leader=1,kind=independent").unwrap();
        assert_eq!(t["infantry"].as_integer(), Some(10));
        assert_eq!(t["kind"].as_str(), Some("independent"));
        assert!(parse_assignments("--attacker", "infantry").is_err());
    }

    #[test]
    fn counts_are_checked() {
        let t: Table = "infantry = -1\ncavalry = 2.5\nfleets = 2000000\nleader = 2"
            .parse()
            .unwrap();
        let f = Fields::new("b.toml", &t);
        assert!(f
            .count("infantry")
            .unwrap_err()
            .to_string()
            .contains("`infantry` = -1"));
        assert!(f.count("cavalry").is_err());
        assert!(f.count("fleets").is_err());
        assert_eq!(f.count("leader").unwrap(), 2);
        assert_eq!(f.count("absent").unwrap(), 0);
        let err = f
            .only(&["infantry", "cavalry", "fleets"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `leader`"), "{err}");
    }

    #[test]
    fn dotted_fields_nest() {
        let mut t = Table::new();
        set_dotted(&mut t, "attacker.infantry", Value::Integer(3)).unwrap();
        assert_eq!(t["attacker"]["infantry"].as_integer(), Some(3));
    }
}
