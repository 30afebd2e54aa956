//! Policies by name: every ruleset lists its strategies the same way, with documented parameters
//! read from TOML, and assigns one to each player from the experiment's `[game.policies]` table:
//!
//! ```toml
//! [game.policies]
//! default = "economist"                              # every player not named below
//! rome = { policy = "aggressor", aggression = 0.8 }  # a policy with parameters
//! carthage = "naval"                                 # a policy with its default parameters
//! ```

use crate::error::{did_you_mean, AleaError, Result};
use crate::spec::{value_text, Fields};
use toml::{Table, Value};

/// One parameter of a policy: its name, meaning, range and default.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub summary: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
}

/// A policy's parameter values, in the order of its [`PolicyKind::params`].
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues(pub Vec<f64>);

impl ParamValues {
    pub fn get(&self, i: usize) -> f64 {
        self.0[i]
    }
}

/// A named strategy: `build` turns its parameter values into the ruleset's policy object `P`.
pub struct PolicyKind<P> {
    pub name: &'static str,
    pub summary: &'static str,
    pub params: &'static [Param],
    pub build: fn(&ParamValues) -> P,
}

/// The strategies of one ruleset.
pub struct PolicyCatalog<P: 'static> {
    pub kinds: &'static [PolicyKind<P>],
}

/// The policy chosen for one player, as it will be reported.
pub struct Chosen<P> {
    pub policy: P,
    /// `aggressor(aggression=0.8)`: the name and every parameter that differs from its default.
    pub label: String,
}

impl<P> PolicyCatalog<P> {
    fn find(&self, source: &str, field: &str, name: &str) -> Result<&PolicyKind<P>> {
        self.kinds.iter().find(|k| k.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.kinds.iter().map(|k| k.name).collect();
            let hint = did_you_mean(name, names.iter().copied());
            AleaError::input(
                source,
                field,
                format!("\"{name}\"{hint}"),
                format!("one of {}", names.join(", ")),
            )
        })
    }

    /// Reads one policy: a name (`"naval"`) or a table (`{ policy = "aggressor", aggression = 0.8 }`).
    pub fn parse(&self, source: &str, field: &str, value: &Value) -> Result<Chosen<P>> {
        let (name, table) = match value {
            Value::String(s) => (s.as_str(), Table::new()),
            Value::Table(t) => {
                let name = t.get("policy").and_then(Value::as_str).ok_or_else(|| {
                    AleaError::input(
                        source,
                        format!("{field}.policy"),
                        t.get("policy").map_or("nothing".into(), value_text),
                        "the policy's name, e.g. policy = \"economist\"",
                    )
                })?;
                (name, t.clone())
            }
            other => {
                return Err(AleaError::input(
                    source,
                    field,
                    value_text(other),
                    "a policy name (\"economist\") or a table { policy = \"aggressor\", aggression = 0.8 }",
                ))
            }
        };
        let kind = self.find(source, &format!("{field}.policy"), name)?;
        let mut values = Vec::with_capacity(kind.params.len());
        let mut changed = Vec::new();
        for key in table.keys() {
            if key != "policy" && !kind.params.iter().any(|p| p.name == key) {
                let names: Vec<&str> = kind.params.iter().map(|p| p.name).collect();
                return Err(AleaError::input(
                    source,
                    format!("{field}.{key}"),
                    value_text(&table[key]),
                    if names.is_empty() {
                        format!("no parameters: policy \"{}\" takes none", kind.name)
                    } else {
                        format!("a parameter of \"{}\": {}", kind.name, names.join(", "))
                    },
                ));
            }
        }
        for p in kind.params {
            let v = match table.get(p.name) {
                None => p.default,
                Some(v) => {
                    let x = v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
                    match x {
                        Some(x) if x >= p.min && x <= p.max => x,
                        _ => {
                            return Err(AleaError::input(
                                source,
                                format!("{field}.{}", p.name),
                                value_text(v),
                                format!("a number from {} to {} ({})", p.min, p.max, p.summary),
                            ))
                        }
                    }
                }
            };
            if v != p.default {
                changed.push(format!("{}={}", p.name, v));
            }
            values.push(v);
        }
        let label = if changed.is_empty() {
            kind.name.to_string()
        } else {
            format!("{}({})", kind.name, changed.join(", "))
        };
        Ok(Chosen {
            policy: (kind.build)(&ParamValues(values)),
            label,
        })
    }

    /// One policy per player from `[game.policies]`: `default` (or `fallback` when absent) for
    /// every player not named. `player_keys` are the keys players are named by (e.g. "rome").
    pub fn assign(
        &self,
        fields: &Fields,
        player_keys: &[String],
        fallback: &str,
    ) -> Result<Vec<Chosen<P>>> {
        for key in fields.keys() {
            if key != "default" && !player_keys.iter().any(|k| k == key) {
                let hint = did_you_mean(key, player_keys.iter().map(String::as_str));
                return Err(AleaError::input(
                    fields.source,
                    fields.field(key),
                    format!("a policy for \"{key}\"{hint}"),
                    format!("\"default\" or a player: {}", player_keys.join(", ")),
                ));
            }
        }
        let default_value = Value::String(fallback.to_string());
        let default = fields.raw("default").unwrap_or(&default_value);
        player_keys
            .iter()
            .map(|key| {
                let (field, value) = match fields.raw(key) {
                    Some(v) => (fields.field(key), v),
                    None => (fields.field("default"), default),
                };
                self.parse(fields.source, &field, value)
            })
            .collect()
    }

    /// `name: summary` and one line per parameter, for `alea list`.
    pub fn help(&self) -> Vec<String> {
        let mut out = Vec::new();
        for k in self.kinds {
            out.push(format!("{}: {}", k.name, k.summary));
            for p in k.params {
                out.push(format!(
                    "  {} ({}..{}, default {}): {}",
                    p.name, p.min, p.max, p.default, p.summary
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Greedy(f64);

    const KINDS: &[PolicyKind<Greedy>] = &[
        PolicyKind {
            name: "greedy",
            summary: "takes what it can",
            params: &[Param {
                name: "appetite",
                summary: "share of the treasury spent",
                min: 0.0,
                max: 1.0,
                default: 0.5,
            }],
            build: |v| Greedy(v.get(0)),
        },
        PolicyKind {
            name: "idle",
            summary: "does nothing",
            params: &[],
            build: |_| Greedy(0.0),
        },
    ];
    const CATALOG: PolicyCatalog<Greedy> = PolicyCatalog { kinds: KINDS };

    fn assign(text: &str) -> Result<Vec<Chosen<Greedy>>> {
        let table: Table = toml::from_str(text).unwrap();
        let fields = Fields::new("exp.toml", &table);
        let keys = vec!["rome".to_string(), "carthage".to_string()];
        CATALOG.assign(&fields, &keys, "idle")
    }

    #[test]
    fn policies_are_assigned_per_player_with_parameters_and_defaults() {
        let chosen =
            assign("default = \"greedy\"\nrome = { policy = \"greedy\", appetite = 0.9 }").unwrap();
        assert_eq!(chosen[0].policy, Greedy(0.9));
        assert_eq!(chosen[0].label, "greedy(appetite=0.9)");
        assert_eq!(chosen[1].policy, Greedy(0.5));
        assert_eq!(chosen[1].label, "greedy");
        let fallback = assign("").unwrap();
        assert_eq!(fallback[1].label, "idle");
    }

    #[test]
    fn bad_policies_name_the_field_and_what_is_allowed() {
        let e = assign("rome = \"greddy\"").err().unwrap().to_string();
        assert!(e.contains("rome.policy") && e.contains("greedy"), "{e}");
        let e = assign("rome = { policy = \"greedy\", appetite = 2 }")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("rome.appetite") && e.contains("0 to 1"), "{e}");
        let e = assign("rom = \"idle\"").err().unwrap().to_string();
        assert!(e.contains("did you mean rome"), "{e}");
        let e = assign("carthage = { policy = \"idle\", x = 1 }")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("takes none"), "{e}");
    }
}
