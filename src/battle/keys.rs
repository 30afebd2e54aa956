//! The keys of a battle file, each declared once: its name, the table it lives in, its type and
//! range, its default and its help. From these declarations come the reference lines (`alea list`,
//! `docs/rulesets/*.md`), the structured list a form can be generated from (`alea list --json`),
//! the check that rejects unknown keys with a did-you-mean and out-of-range values, and the readers
//! the build functions use, so a key cannot be documented and not parsed, or parsed with another
//! range than the one documented.

use crate::error::{close_matches, AleaError, Result};
use crate::spec::{value_text, Fields, MAX_COUNT};
use serde_json::{json, Value as Json};
use toml::{Table, Value};

/// The keys every battle file has besides its own: which battle, and the rule options.
pub const COMMON: &[&str] = &["ruleset", "battle", "options"];

/// What a key holds.
#[derive(Clone, Copy, Debug)]
pub enum Type {
    /// A unit count, 0 to [`MAX_COUNT`].
    Count,
    /// A whole number in `lo..=hi`.
    Int(i64, i64),
    /// A real number in `lo..=hi` (whole numbers accepted).
    Number(f64, f64),
    Bool,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// A count, or a string in a notation the build function reads (`format`, e.g. "10(2)").
    CountOr {
        format: &'static str,
        example: &'static str,
    },
    /// A string in a described format, which the build function checks (a name from the data).
    Text {
        format: &'static str,
        example: &'static str,
    },
    /// An array in a described format, which the build function checks.
    List {
        format: &'static str,
        example: &'static str,
    },
    /// Any value in a described format (a name or a number), which the build function checks.
    Value {
        format: &'static str,
        example: &'static str,
    },
    /// `[[name]]`: an array of `lo..=hi` tables, each with these keys.
    Tables(&'static [Key], usize, usize),
    /// A table whose keys the build function checks itself (described in `format`).
    Table {
        format: &'static str,
        example: &'static str,
    },
}

/// What an absent key means.
#[derive(Clone, Copy, Debug)]
pub enum Default {
    /// Absent is allowed; the text says what it means ("" when nothing needs saying).
    Absent(&'static str),
    /// The battle cannot be built without it.
    Required,
    Int(i64),
    Number(f64),
    Bool(bool),
    Choice(&'static str),
}

/// Names a family of keys (`alpine_archer`, `damaged_legion`) instead of one.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// Whether a key belongs to the family.
    pub matches: fn(&str) -> bool,
    /// One member, for tests and forms.
    pub example: &'static str,
    /// Names a misspelt member may be close to, for the did-you-mean (`legion` for `legionn`).
    pub hints: &'static [&'static str],
}

/// One key of a battle file.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    pub name: &'static str,
    /// The sub-tables it lives in (`["attacker", "defender"]`), or none for the top level.
    pub at: &'static [&'static str],
    pub ty: Type,
    pub default: Default,
    pub help: &'static str,
    /// When the name stands for a family of keys (`<unit>`).
    pub family: Option<Family>,
}

/// A unit count (absent = 0).
pub const fn count(name: &'static str) -> Key {
    Key::new(name, Type::Count)
}
/// A whole number in `lo..=hi`.
pub const fn int(name: &'static str, lo: i64, hi: i64) -> Key {
    Key::new(name, Type::Int(lo, hi))
}
/// A real number in `lo..=hi`.
pub const fn number(name: &'static str, lo: f64, hi: f64) -> Key {
    Key::new(name, Type::Number(lo, hi))
}
/// True or false (absent = false).
pub const fn flag(name: &'static str) -> Key {
    Key::new(name, Type::Bool)
}
/// One of `values`.
pub const fn choice(name: &'static str, values: &'static [&'static str]) -> Key {
    Key::new(name, Type::Choice(values))
}

impl Key {
    pub const fn new(name: &'static str, ty: Type) -> Key {
        let default = match ty {
            Type::Count => Default::Int(0),
            Type::Bool => Default::Bool(false),
            _ => Default::Absent(""),
        };
        Key {
            name,
            at: &[],
            ty,
            default,
            help: "",
            family: None,
        }
    }
    /// Lives in each of these sub-tables.
    pub const fn at(mut self, tables: &'static [&'static str]) -> Key {
        self.at = tables;
        self
    }
    pub const fn help(mut self, help: &'static str) -> Key {
        self.help = help;
        self
    }
    pub const fn absent(mut self, meaning: &'static str) -> Key {
        self.default = Default::Absent(meaning);
        self
    }
    pub const fn required(mut self) -> Key {
        self.default = Default::Required;
        self
    }
    pub const fn default_int(mut self, v: i64) -> Key {
        self.default = Default::Int(v);
        self
    }
    pub const fn default_number(mut self, v: f64) -> Key {
        self.default = Default::Number(v);
        self
    }
    pub const fn default_bool(mut self, v: bool) -> Key {
        self.default = Default::Bool(v);
        self
    }
    pub const fn default_choice(mut self, v: &'static str) -> Key {
        self.default = Default::Choice(v);
        self
    }
    pub const fn family(mut self, matches: fn(&str) -> bool, example: &'static str) -> Key {
        self.family = Some(Family {
            matches,
            example,
            hints: &[],
        });
        self
    }
    /// Names the did-you-mean offers for a misspelt member of the family (after `family`).
    pub const fn hints(mut self, hints: &'static [&'static str]) -> Key {
        if let Some(f) = &mut self.family {
            f.hints = hints;
        }
        self
    }

    fn names(&self, key: &str) -> bool {
        match self.family {
            Some(f) => (f.matches)(key),
            None => self.name == key,
        }
    }

    fn expect(&self, what: &str) {
        let ok = matches!(
            (what, self.ty),
            ("count", Type::Count | Type::CountOr { .. })
                | ("int", Type::Int(..))
                | ("number", Type::Number(..))
                | ("bool", Type::Bool)
                | ("choice", Type::Choice(_))
                | ("text", Type::Text { .. })
                | ("list", Type::List { .. })
                | ("table", Type::Table { .. })
                | ("raw", _)
        );
        assert!(
            ok,
            "key `{}` read as {what} but declared {:?}",
            self.name, self.ty
        );
    }

    /// The dotted field this key has in `f`, for error messages of cross-field checks.
    pub fn field(&self, f: &Fields) -> String {
        f.field(self.name)
    }

    /// The dotted field this key has in the top-level table `table` (a side's, say), for error
    /// messages of checks that see the battle rather than the side's fields.
    pub fn field_in(&self, table: &str) -> String {
        format!("{table}.{}", self.name)
    }

    /// The value as written, checked against the declaration, or `None` when absent.
    pub fn raw<'a>(&self, f: &Fields<'a>) -> Result<Option<&'a Value>> {
        self.expect("raw");
        match f.raw(self.name) {
            None => Ok(None),
            Some(v) => {
                check_value(f, self.name, self, v)?;
                Ok(Some(v))
            }
        }
    }

    pub fn has(&self, f: &Fields) -> bool {
        f.has(self.name)
    }

    /// A unit count; absent means the declared default (0 unless declared otherwise).
    pub fn count(&self, f: &Fields) -> Result<u32> {
        self.expect("count");
        let default = match self.default {
            Default::Int(d) => d,
            _ => 0,
        };
        Ok(f.int_in(self.name, 0, MAX_COUNT)?.unwrap_or(default) as u32)
    }

    /// A whole number; absent is an error when the key is required.
    pub fn opt_int(&self, f: &Fields) -> Result<Option<i64>> {
        self.expect("int");
        let Type::Int(lo, hi) = self.ty else {
            unreachable!()
        };
        f.int_in(self.name, lo, hi)
    }

    /// A whole number; absent means the declared default (an error when required).
    pub fn int(&self, f: &Fields) -> Result<i64> {
        match (self.opt_int(f)?, self.default) {
            (Some(v), _) => Ok(v),
            (None, Default::Int(d)) => Ok(d),
            (None, Default::Required) => Err(self.missing(f)),
            _ => panic!("key `{}` has no whole-number default", self.name),
        }
    }

    /// A whole number of the member `name` of this family of keys (`alpine_archer` of `<unit>`).
    pub fn member_int(&self, f: &Fields, name: &str) -> Result<Option<i64>> {
        self.expect("int");
        assert!(self.names(name), "`{name}` is not a key of `{}`", self.name);
        let Type::Int(lo, hi) = self.ty else {
            unreachable!()
        };
        f.int_in(name, lo, hi)
    }

    /// "missing `defender.garrison`: garrison points (1..1000000)"
    pub fn missing(&self, f: &Fields) -> AleaError {
        AleaError::invalid(
            f.source,
            format!(
                "missing `{}`: {} ({})",
                f.field(self.name),
                self.help,
                self.format().map_or(self.type_text(), str::to_string)
            ),
        )
    }

    pub fn opt_number(&self, f: &Fields) -> Result<Option<f64>> {
        self.expect("number");
        let Type::Number(lo, hi) = self.ty else {
            unreachable!()
        };
        f.number_in(self.name, lo, hi)
    }

    /// A real number; absent means the declared default.
    pub fn number(&self, f: &Fields) -> Result<f64> {
        let Default::Number(d) = self.default else {
            panic!("key `{}` has no number default", self.name)
        };
        Ok(self.opt_number(f)?.unwrap_or(d))
    }

    pub fn opt_bool(&self, f: &Fields) -> Result<Option<bool>> {
        self.expect("bool");
        f.bool(self.name)
    }

    /// True or false; absent means the declared default (false unless declared otherwise).
    pub fn bool(&self, f: &Fields) -> Result<bool> {
        let d = matches!(self.default, Default::Bool(true));
        Ok(self.opt_bool(f)?.unwrap_or(d))
    }

    pub fn opt_choice(&self, f: &Fields) -> Result<Option<&'static str>> {
        self.expect("choice");
        let Type::Choice(values) = self.ty else {
            unreachable!()
        };
        f.choice(self.name, values)
    }

    /// One of the declared values; absent means the declared default.
    pub fn choice(&self, f: &Fields) -> Result<&'static str> {
        let Default::Choice(d) = self.default else {
            panic!("key `{}` has no default value", self.name)
        };
        Ok(self.opt_choice(f)?.unwrap_or(d))
    }

    pub fn text<'a>(&self, f: &Fields<'a>) -> Result<Option<&'a str>> {
        self.expect("text");
        f.string(self.name)
    }

    /// A list of strings (none when absent); what the strings may be is the build's to check.
    pub fn strings<'a>(&self, f: &Fields<'a>) -> Result<Vec<&'a str>> {
        self.expect("list");
        let Some(value) = f.raw(self.name) else {
            return Ok(Vec::new());
        };
        check_value(f, self.name, self, value)?;
        let items = value.as_array().expect("checked: a list");
        items
            .iter()
            .map(|v| {
                v.as_str().ok_or_else(|| {
                    AleaError::input(f.source, f.field(self.name), v, "a list of strings")
                })
            })
            .collect()
    }

    /// A table whose keys the build checks (an empty one when absent).
    pub fn table<'a>(&self, f: &Fields<'a>, empty: &'a Table) -> Result<Fields<'a>> {
        self.expect("table");
        f.table(self.name, empty)
    }

    /// One line for `alea list` and the reference pages.
    pub fn doc_line(&self) -> String {
        let place = place(self.at);
        let mut facts = vec![self.type_text()];
        match self.default {
            Default::Absent("") => {}
            Default::Absent(meaning) => facts.push(format!("absent = {meaning}")),
            Default::Required => facts.push("required".into()),
            Default::Int(0) if matches!(self.ty, Type::Count) => {}
            Default::Bool(false) if matches!(self.ty, Type::Bool) => {}
            _ => facts.push(format!("default {}", self.default_text())),
        }
        let help = match self.format() {
            Some(format) => format!("{}; {format}", self.help),
            None => self.help.to_string(),
        };
        format!("{place}{} ({}): {help}", self.name, facts.join("; "))
    }

    /// The lines of this key: one, or one per key of each `[[entry]]`.
    pub fn doc_lines(&self) -> Vec<String> {
        let mut lines = vec![self.doc_line()];
        if let Type::Tables(keys, _, _) = self.ty {
            for k in keys {
                lines.push(format!("[[{}]] {}", self.name, k.doc_line()));
            }
        }
        lines
    }

    fn type_text(&self) -> String {
        match self.ty {
            Type::Count => "a count".into(),
            Type::Int(lo, hi) => format!("{lo}..{hi}"),
            Type::Number(lo, hi) => format!("a number, {lo}..{hi}"),
            Type::Bool => "true or false".into(),
            Type::Choice(values) => values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(" | "),
            Type::CountOr { .. } => "a count or text".into(),
            Type::Text { .. } => "text".into(),
            Type::List { .. } => "a list".into(),
            Type::Value { .. } => "a value".into(),
            Type::Table { .. } => "a table".into(),
            Type::Tables(_, lo, hi) => format!("{lo}..{hi} [[{}]] tables", self.name),
        }
    }

    /// The described format of a text, list or table value.
    fn format(&self) -> Option<&'static str> {
        match self.ty {
            Type::CountOr { format, .. }
            | Type::Text { format, .. }
            | Type::List { format, .. }
            | Type::Value { format, .. }
            | Type::Table { format, .. } => Some(format),
            _ => None,
        }
    }

    fn default_text(&self) -> String {
        match self.default {
            Default::Absent(m) => m.into(),
            Default::Required => "required".into(),
            Default::Int(v) => v.to_string(),
            Default::Number(v) => v.to_string(),
            Default::Bool(v) => v.to_string(),
            Default::Choice(v) => format!("\"{v}\""),
        }
    }

    /// The declaration as data, for `alea list --json` and the forms generated from it.
    pub fn json(&self) -> Json {
        let mut j = json!({
            "name": self.name,
            "tables": self.at,
            "help": self.help,
        });
        let o = j.as_object_mut().expect("an object");
        let (ty, extra) = match self.ty {
            Type::Count => ("count", json!({"min": 0, "max": MAX_COUNT})),
            Type::Int(lo, hi) => ("int", json!({"min": lo, "max": hi})),
            Type::Number(lo, hi) => ("number", json!({"min": lo, "max": hi})),
            Type::Bool => ("bool", json!({})),
            Type::Choice(values) => ("choice", json!({ "values": values })),
            Type::CountOr { format, example } => (
                "count_or_text",
                json!({"min": 0, "max": MAX_COUNT, "format": format, "example": example}),
            ),
            Type::Text { format, example } => {
                ("text", json!({"format": format, "example": example}))
            }
            Type::List { format, example } => {
                ("list", json!({"format": format, "example": example}))
            }
            Type::Value { format, example } => {
                ("value", json!({"format": format, "example": example}))
            }
            Type::Table { format, example } => {
                ("table", json!({"format": format, "example": example}))
            }
            Type::Tables(keys, lo, hi) => (
                "tables",
                json!({"min": lo, "max": hi, "keys": keys.iter().map(Key::json).collect::<Vec<_>>()}),
            ),
        };
        o.insert("type".into(), json!(ty));
        if let Json::Object(extra) = extra {
            o.extend(extra);
        }
        match self.default {
            Default::Absent(meaning) => {
                o.insert("required".into(), json!(false));
                if !meaning.is_empty() {
                    o.insert("absent".into(), json!(meaning));
                }
            }
            Default::Required => {
                o.insert("required".into(), json!(true));
            }
            Default::Int(v) => {
                o.insert("default".into(), json!(v));
            }
            Default::Number(v) => {
                o.insert("default".into(), json!(v));
            }
            Default::Bool(v) => {
                o.insert("default".into(), json!(v));
            }
            Default::Choice(v) => {
                o.insert("default".into(), json!(v));
            }
        }
        if let Some(f) = self.family {
            o.insert("family_example".into(), json!(f.example));
        }
        j
    }

    /// A value the declaration accepts (for tests and forms).
    pub fn example(&self) -> Value {
        match self.ty {
            Type::Count => Value::Integer(1),
            Type::Int(lo, _) => Value::Integer(lo),
            Type::Number(lo, _) => Value::Float(lo),
            Type::Bool => Value::Boolean(true),
            Type::Choice(values) => Value::String(values[0].into()),
            Type::CountOr { example, .. }
            | Type::Text { example, .. }
            | Type::List { example, .. }
            | Type::Value { example, .. }
            | Type::Table { example, .. } => crate::spec::parse_value(example),
            Type::Tables(keys, lo, _) => {
                let entry: Table = keys
                    .iter()
                    .filter(|k| matches!(k.default, Default::Required))
                    .map(|k| (k.name.to_string(), k.example()))
                    .collect();
                Value::Array(vec![Value::Table(entry); lo.max(1)])
            }
        }
    }
}

/// `[attacker]/[defender] ` for keys of those tables, nothing for top-level keys.
fn place(at: &[&str]) -> String {
    if at.is_empty() {
        String::new()
    } else {
        let tables: Vec<String> = at.iter().map(|t| format!("[{t}]")).collect();
        format!("{} ", tables.join("/"))
    }
}

/// The names of the sub-tables the keys live in, in order of first mention.
fn tables(keys: &[Key]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for k in keys {
        for t in k.at {
            if !out.contains(t) {
                out.push(t);
            }
        }
    }
    out
}

/// Checks a whole battle table against its keys: no unknown key (with a did-you-mean), every
/// sub-table a table, every value of its declared type and range.
pub fn check(f: &Fields, keys: &[Key]) -> Result<()> {
    crate::spec::unrecorded(|| check_all(f, keys))
}

fn check_all(f: &Fields, keys: &[Key]) -> Result<()> {
    let subs = tables(keys);
    let top: Vec<&Key> = keys.iter().filter(|k| k.at.is_empty()).collect();
    let mut allowed: Vec<&str> = COMMON.to_vec();
    for k in &top {
        if !allowed.contains(&k.name) {
            allowed.push(k.name);
        }
    }
    allowed.extend(subs.iter().copied());
    check_table(f, &top, &allowed, &subs)?;
    let empty = Table::new();
    for t in subs {
        let sub = f.table(t, &empty)?;
        let here: Vec<&Key> = keys.iter().filter(|k| k.at.contains(&t)).collect();
        let names: Vec<&str> = here.iter().map(|k| k.name).collect();
        check_table(&sub, &here, &names, &[])?;
    }
    Ok(())
}

/// Every required key present.
fn check_required(f: &Fields, keys: &[&Key]) -> Result<()> {
    match keys
        .iter()
        .find(|k| matches!(k.default, Default::Required) && k.family.is_none() && !f.has(k.name))
    {
        Some(k) => Err(k.missing(f)),
        None => Ok(()),
    }
}

fn check_table(f: &Fields, keys: &[&Key], allowed: &[&str], subs: &[&str]) -> Result<()> {
    for name in f.keys() {
        if COMMON.contains(&name) && f.path().is_empty() || subs.contains(&name) {
            continue;
        }
        // A name may be declared once per variant of the battle (`age` of one test or another),
        // each with its own range: a value fits when one of them accepts it.
        let mut declared = keys.iter().filter(|k| k.names(name));
        let Some(first) = declared.next() else {
            let mut near: Vec<&str> = allowed.to_vec();
            near.extend(keys.iter().filter_map(|k| k.family).flat_map(|f| f.hints));
            return Err(unknown_near(f, name, &near, allowed));
        };
        let value = f.raw(name).expect("a key of the table");
        if let Err(e) = check_value(f, name, first, value) {
            if !declared.any(|k| check_value(f, name, k, value).is_ok()) {
                return Err(e);
            }
        }
    }
    check_required(f, keys)
}

/// "unknown field `attacker.leadr` (did you mean leader?); allowed here: ..."
pub fn unknown(f: &Fields, name: &str, allowed: &[&str]) -> AleaError {
    unknown_near(f, name, allowed, allowed)
}

/// [`unknown`], with the did-you-mean drawn from `near`.
fn unknown_near(f: &Fields, name: &str, near: &[&str], allowed: &[&str]) -> AleaError {
    let hint = close_matches(name, near.iter().copied());
    let hint = if hint.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", hint.join(", "))
    };
    AleaError::invalid(
        f.source,
        format!(
            "unknown field `{}`{hint}; allowed here: {}",
            f.field(name),
            allowed.join(", ")
        ),
    )
}

fn check_value(f: &Fields, name: &str, key: &Key, value: &Value) -> Result<()> {
    let wrong = |allowed: String| {
        Err(AleaError::input(
            f.source,
            f.field(name),
            value_text(value),
            allowed,
        ))
    };
    match key.ty {
        Type::Count => f.int_in(name, 0, MAX_COUNT).map(|_| ()),
        Type::Int(lo, hi) => f.int_in(name, lo, hi).map(|_| ()),
        Type::Number(lo, hi) => f.number_in(name, lo, hi).map(|_| ()),
        Type::Bool => f.bool(name).map(|_| ()),
        Type::Choice(values) => f.choice(name, values).map(|_| ()),
        Type::CountOr { format, .. } => match value {
            Value::String(_) => Ok(()),
            Value::Integer(i) if (0..=MAX_COUNT).contains(i) => Ok(()),
            _ => wrong(format!("a whole number from 0 to {MAX_COUNT}, or {format}")),
        },
        Type::Text { format, .. } => match value {
            Value::String(_) => Ok(()),
            _ => wrong(format!("a string: {format}")),
        },
        Type::List { format, .. } => match value {
            Value::Array(_) => Ok(()),
            _ => wrong(format!("a list: {format}")),
        },
        Type::Value { .. } => Ok(()),
        Type::Table { format, .. } => match value {
            Value::Table(_) => Ok(()),
            _ => wrong(format!("a table: {format}")),
        },
        Type::Tables(keys, lo, hi) => match value {
            Value::Array(list) if (lo..=hi).contains(&list.len()) => {
                for k in 0..list.len() {
                    let entry = entry(f, key, k)?;
                    let refs: Vec<&Key> = keys.iter().collect();
                    let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
                    check_table(&entry, &refs, &names, &[])?;
                }
                Ok(())
            }
            _ => wrong(format!("{lo} to {hi} [[{name}]] tables")),
        },
    }
}

/// Entry `k` of a `[[list]]` key, as fields named `list[k]`.
pub fn entry<'a>(f: &Fields<'a>, key: &Key, k: usize) -> Result<Fields<'a>> {
    let field = format!("{}[{k}]", f.field(key.name));
    match f.raw(key.name).and_then(|v| v.as_array()).map(|a| &a[k]) {
        Some(Value::Table(t)) => Ok(Fields::at(f.source, field, t)),
        other => Err(AleaError::input(
            f.source,
            field,
            other.map_or("nothing".into(), value_text),
            "a table",
        )),
    }
}

/// The entries of a `[[list]]` key (none when absent).
pub fn entries<'a>(f: &Fields<'a>, key: &Key) -> Result<Vec<Fields<'a>>> {
    let n = f
        .raw(key.name)
        .and_then(|v| v.as_array())
        .map_or(0, |a| a.len());
    (0..n).map(|k| entry(f, key, k)).collect()
}

/// The reference lines of a battle's keys.
pub fn doc_lines(keys: &[Key]) -> Vec<String> {
    keys.iter().flat_map(Key::doc_lines).collect()
}

/// Rejects any key of `f` outside `keys`: a rule that narrows a table's declared keys (a side's
/// keys depend on its `force`, say); `why` says which choice narrows them. At the top level the
/// [`COMMON`] keys are always allowed.
pub fn only(f: &Fields, keys: &[Key], why: &str) -> Result<()> {
    let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
    let common = |k: &str| f.path().is_empty() && COMMON.contains(&k);
    match f
        .keys()
        .find(|k| !common(k) && !keys.iter().any(|d| d.names(k)))
    {
        None => Ok(()),
        Some(name) => Err(AleaError::invalid(
            f.source,
            format!(
                "`{}` does not apply {why}; allowed here: {}",
                f.field(name),
                names.join(", ")
            ),
        )),
    }
}

/// Several lists of keys as one array of `N` (a compile-time error when `N` is not their total):
/// `const KEYS: &[Key] = &keys::join::<12>(&[&side_keys(SIDES), &[ORDERS]]);`
pub const fn join<const N: usize>(parts: &[&[Key]]) -> [Key; N] {
    let mut out = [Key::new("", Type::Bool); N];
    let (mut p, mut n) = (0, 0);
    while p < parts.len() {
        let mut k = 0;
        while k < parts[p].len() {
            assert!(n < N, "more keys than the array holds");
            out[n] = parts[p][k];
            n += 1;
            k += 1;
        }
        p += 1;
    }
    assert!(n == N, "fewer keys than the array holds");
    out
}

/// The same keys placed in the tables `at`.
pub const fn placed<const N: usize>(keys: [Key; N], at: &'static [&'static str]) -> [Key; N] {
    let mut out = keys;
    let mut k = 0;
    while k < N {
        out[k] = out[k].at(at);
        k += 1;
    }
    out
}
