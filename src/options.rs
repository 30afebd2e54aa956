//! Named rule options: every ambiguity a rules digest lists becomes one, with the digest's
//! recommended reading as its default, switchable from any battle or experiment file.

use crate::error::{AleaError, Result};
use crate::spec::{quoted, Fields};
use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Choice(&'static [&'static str]),
    Bool,
    Int { min: i64, max: i64 },
}

#[derive(Debug)]
pub struct RuleOption {
    pub name: &'static str,
    /// Where the ambiguity is discussed: the digest's id and the rulebook lines.
    pub reference: &'static str,
    pub summary: &'static str,
    pub kind: OptionKind,
    pub default: OptionValue,
    /// The battles whose odds the option can change.
    pub battles: &'static [&'static str],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Choice(&'static str),
    Bool(bool),
    Int(i64),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Choice(s) => write!(f, "\"{s}\""),
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
        }
    }
}

impl OptionKind {
    pub fn allowed(&self) -> String {
        match self {
            OptionKind::Choice(c) => format!("one of {}", quoted(c)),
            OptionKind::Bool => "true or false".into(),
            OptionKind::Int { min, max } => format!("a whole number from {min} to {max}"),
        }
    }
}

/// The rule options in force for one computation.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    values: BTreeMap<&'static str, OptionValue>,
}

impl Options {
    pub fn defaults(specs: &'static [RuleOption]) -> Options {
        Options {
            values: specs.iter().map(|s| (s.name, s.default)).collect(),
        }
    }

    /// Defaults overridden by the `[options]` table.
    pub fn resolve(specs: &'static [RuleOption], fields: Fields) -> Result<Options> {
        let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        fields.only(&names)?;
        let mut options = Options::defaults(specs);
        for spec in specs {
            let value = match spec.kind {
                OptionKind::Choice(c) => fields.choice(spec.name, c)?.map(OptionValue::Choice),
                OptionKind::Bool => fields.bool(spec.name)?.map(OptionValue::Bool),
                OptionKind::Int { min, max } => {
                    fields.int_in(spec.name, min, max)?.map(OptionValue::Int)
                }
            };
            if let Some(v) = value {
                options.values.insert(spec.name, v);
            }
        }
        Ok(options)
    }

    pub fn choice(&self, name: &str) -> &'static str {
        match self.values.get(name) {
            Some(OptionValue::Choice(c)) => c,
            other => panic!("option {name} is not a choice: {other:?}"),
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(OptionValue::Bool(b)) => *b,
            other => panic!("option {name} is not a flag: {other:?}"),
        }
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(i)) => *i,
            other => panic!("option {name} is not an integer: {other:?}"),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, OptionValue)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }

    /// Options differing from their defaults, as `name = value`.
    pub fn differences(&self, specs: &'static [RuleOption]) -> Vec<String> {
        specs
            .iter()
            .filter(|s| self.values.get(s.name) != Some(&s.default))
            .map(|s| format!("{} = {}", s.name, self.values[s.name]))
            .collect()
    }
}

/// Checks that a registry is well formed (defaults within their kinds, unique names).
pub fn validate_registry(specs: &[RuleOption]) -> std::result::Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for s in specs {
        if !seen.insert(s.name) {
            return Err(format!("option {} declared twice", s.name));
        }
        let ok = match (s.kind, s.default) {
            (OptionKind::Choice(c), OptionValue::Choice(d)) => c.contains(&d),
            (OptionKind::Bool, OptionValue::Bool(_)) => true,
            (OptionKind::Int { min, max }, OptionValue::Int(d)) => (min..=max).contains(&d),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "option {}: default {} is not {}",
                s.name,
                s.default,
                s.kind.allowed()
            ));
        }
    }
    Ok(())
}

/// An error for an option value that is well-typed but meaningless for this battle.
pub fn option_error(
    source: &str,
    name: &str,
    value: impl fmt::Display,
    allowed: &str,
) -> AleaError {
    AleaError::input(source, format!("options.{name}"), value, allowed)
}
