//! Policies by name: every ruleset lists its strategies the same way, with documented parameters
//! read from TOML, and assigns one to each player from the experiment's `[game.policies]` table:
//!
//! ```toml
//! [game.policies]
//! default = "economist"                              # every player not named below
//! rome = { policy = "aggressor", aggression = 0.8 }  # a policy with parameters
//! carthage = "naval"                                 # a policy with its default parameters
//! egypt = { policy = "search", budget = 64, rollout = "naval" }   # where the ruleset can search
//! ```
//!
//! `search` is the engine's search player ([`super::search`]): a catalog offers it when its
//! ruleset implements [`super::search::Searchable`] and gives the catalog a [`SearchHook`].

use super::search::{SearchSpec, BUDGET_RANGE, CONFIRM_RANGE, HORIZON_RANGE, MARGIN_RANGE};
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

/// Builds a ruleset's search player from its parameters and its rollout policy.
pub type SearchHook<P> = fn(SearchSpec, P) -> P;

/// How a ruleset offers the search player: how to build it, and its parameters' defaults (a
/// game whose rollouts to the end are long and noisy defaults to a horizon).
pub struct SearchSupport<P> {
    pub build: SearchHook<P>,
    pub defaults: SearchSpec,
}

/// The strategies of one ruleset.
pub struct PolicyCatalog<P: 'static> {
    pub kinds: &'static [PolicyKind<P>],
    /// `Some` where the ruleset's decisions can be searched: `policy = "search"` is then offered.
    pub search: Option<SearchSupport<P>>,
}

/// The search player's name in every catalog that offers it.
pub const SEARCH: &str = "search";
const SEARCH_KEYS: [&str; 6] = [
    "policy", "budget", "horizon", "rollout", "margin", "confirm",
];
/// The search keys that only a ruleset listing its rollout policy's choice first takes.
const DEFAULT_KEYS: [&str; 2] = ["margin", "confirm"];

/// The policy chosen for one player, as it will be reported.
pub struct Chosen<P> {
    pub policy: P,
    /// `aggressor(aggression=0.8)`: the name and every parameter that differs from its default.
    pub label: String,
}

impl<P> PolicyCatalog<P> {
    /// Every policy name a player may be given.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = self.kinds.iter().map(|k| k.name).collect();
        if self.search.is_some() {
            names.push(SEARCH);
        }
        names
    }

    fn find(&self, source: &str, field: &str, name: &str) -> Result<&PolicyKind<P>> {
        self.kinds.iter().find(|k| k.name == name).ok_or_else(|| {
            let names = self.names();
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
        if let (SEARCH, Some(support)) = (name, &self.search) {
            return self.parse_search(source, field, &table, support);
        }
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

    /// `{ policy = "search", budget = 64, horizon = 0, rollout = "economist" }`: the rollout
    /// policy is any other policy of the catalog, by name or as a table (default: the first).
    fn parse_search(
        &self,
        source: &str,
        field: &str,
        table: &Table,
        support: &SearchSupport<P>,
    ) -> Result<Chosen<P>> {
        let defaults = support.defaults;
        // `margin` and `confirm` only where the ruleset lists its rollout policy's choice first.
        let known = |k: &str| {
            SEARCH_KEYS.contains(&k) && (!DEFAULT_KEYS.contains(&k) || defaults.margin.is_some())
        };
        if let Some(key) = table.keys().find(|k| !known(k)) {
            let margin = if defaults.margin.is_some() {
                ", margin, confirm"
            } else {
                ""
            };
            return Err(AleaError::input(
                source,
                format!("{field}.{key}"),
                value_text(&table[key]),
                format!("a parameter of \"search\": budget, horizon, rollout{margin}"),
            ));
        }
        let whole = |key: &str, (lo, hi): (u32, u32), default: u32| -> Result<u32> {
            match table.get(key) {
                None => Ok(default),
                Some(Value::Integer(i)) if (lo as i64..=hi as i64).contains(i) => Ok(*i as u32),
                Some(v) => Err(AleaError::input(
                    source,
                    format!("{field}.{key}"),
                    value_text(v),
                    format!("a whole number from {lo} to {hi}"),
                )),
            }
        };
        let margin = match (table.get("margin"), defaults.margin) {
            (None, default) => default,
            (Some(v), _) => match v.as_float().or(v.as_integer().map(|i| i as f64)) {
                Some(z) if (MARGIN_RANGE.0..=MARGIN_RANGE.1).contains(&z) => Some(z),
                _ => {
                    return Err(AleaError::input(
                        source,
                        format!("{field}.margin"),
                        value_text(v),
                        "a number of standard errors from 0 to inf (inf: never overrule the rollout policy)",
                    ))
                }
            },
        };
        let spec = SearchSpec {
            budget: whole("budget", BUDGET_RANGE, defaults.budget)?,
            horizon: whole("horizon", HORIZON_RANGE, defaults.horizon)?,
            margin,
            confirm: whole("confirm", CONFIRM_RANGE, defaults.confirm)?,
        };
        let first = Value::String(self.kinds[0].name.to_string());
        let rollout_value = table.get("rollout").unwrap_or(&first);
        let rollout_field = format!("{field}.rollout");
        let is_search = match rollout_value {
            Value::String(s) => s == SEARCH,
            Value::Table(t) => t.get("policy").and_then(Value::as_str) == Some(SEARCH),
            _ => false,
        };
        if is_search {
            return Err(AleaError::input(
                source,
                &rollout_field,
                value_text(rollout_value),
                format!(
                    "a policy other than search for the rollouts: {}",
                    self.kinds
                        .iter()
                        .map(|k| k.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let rollout = self.parse(source, &rollout_field, rollout_value)?;
        let mut shown = Vec::new();
        if spec.budget != defaults.budget {
            shown.push(format!("budget={}", spec.budget));
        }
        if spec.horizon != defaults.horizon {
            shown.push(format!("horizon={}", spec.horizon));
        }
        if let (Some(z), true) = (spec.margin, spec.margin != defaults.margin) {
            shown.push(format!("margin={z}"));
        }
        if spec.confirm != defaults.confirm {
            shown.push(format!("confirm={}", spec.confirm));
        }
        shown.push(format!("rollout={}", rollout.label));
        Ok(Chosen {
            policy: (support.build)(spec, rollout.policy),
            label: format!("{SEARCH}({})", shown.join(", ")),
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

    /// The parameters of the policy called `name`.
    pub fn params_of(&self, name: &str) -> Option<&'static [Param]> {
        self.kinds.iter().find(|k| k.name == name).map(|k| k.params)
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
        if let Some(support) = &self.search {
            let d = support.defaults;
            out.push(format!("{SEARCH}: tries each candidate action of a decision with rollouts and keeps the best (successive halving, common random numbers)"));
            out.push(format!(
                "  budget ({}..{}, default {}): rollouts per decision",
                BUDGET_RANGE.0, BUDGET_RANGE.1, d.budget
            ));
            out.push(format!("  horizon ({}..{}, default {}): turns a rollout plays before it is scored; 0 = to the end", HORIZON_RANGE.0, HORIZON_RANGE.1, d.horizon));
            out.push(format!("  rollout (a policy, default {}): the policy the searcher plays inside its rollouts", self.kinds[0].name));
            if let Some(z) = d.margin {
                out.push(format!("  margin (0..inf, default {z}): standard errors by which a candidate must beat the rollout policy's own choice (paired rollouts) to overrule it; inf = never"));
                out.push(format!("  confirm ({}..{}, default {}): fresh paired rollouts of the rollout policy's choice and the best challenger that alone decide the margin (a decision then costs up to budget + 2 x confirm rollouts); 0 = the halving's own rollouts decide", CONFIRM_RANGE.0, CONFIRM_RANGE.1, d.confirm));
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
    const CATALOG: PolicyCatalog<Greedy> = PolicyCatalog {
        kinds: KINDS,
        search: None,
    };

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

    #[test]
    fn the_search_takes_margin_and_confirm_only_where_its_rollout_policy_is_the_default() {
        fn parse(margin: Option<f64>, text: &str) -> Result<Vec<Chosen<Greedy>>> {
            let catalog = PolicyCatalog {
                kinds: KINDS,
                search: Some(SearchSupport {
                    // The spec's numbers, so the test can see what was parsed.
                    build: |spec, _| Greedy(spec.confirm as f64 + spec.margin.unwrap_or(-1.0)),
                    defaults: SearchSpec {
                        margin,
                        ..SearchSpec::default()
                    },
                }),
            };
            let table: Table = toml::from_str(text).unwrap();
            let fields = Fields::new("exp.toml", &table);
            catalog.assign(&fields, &["rome".to_string()], "idle")
        }
        let text = "rome = { policy = \"search\", margin = 3, confirm = 16 }";
        let chosen = parse(Some(2.0), text).unwrap();
        assert_eq!(chosen[0].policy, Greedy(19.0));
        assert_eq!(
            chosen[0].label,
            "search(margin=3, confirm=16, rollout=greedy)"
        );
        let e = parse(None, text).err().unwrap().to_string();
        let unknown = e.contains("rome.margin") || e.contains("rome.confirm");
        assert!(unknown && e.ends_with("budget, horizon, rollout"), "{e}");
        let e = parse(Some(2.0), "rome = { policy = \"search\", confirm = -1 }")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("rome.confirm") && e.contains("0 to 100000"),
            "{e}"
        );
    }
}
