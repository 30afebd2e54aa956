//! The scenario's `[assumptions]` with an experiment's overrides applied, and the values read
//! from them.

use super::*;

/// The assumed values an experiment may override (`[game.assumptions]`).
pub const ASSUMPTION_KEYS: &[&str] = &[
    "starting_stability",
    "garrison_fraction",
    "capital_garrison_full",
    "units_start",
    "independent",
];

/// The scenario's `[assumptions]` with the experiment's overrides applied, and where each came from.
pub(super) struct Assumptions<'a> {
    table: Table,
    overrides: &'a Table,
    path: &'a str,
    field: &'a str,
    exp: &'a str,
}

impl<'a> Assumptions<'a> {
    /// Applies `overrides` (the experiment's `[game.assumptions]`, named `field` in `exp`): only
    /// the keys an experiment may override; `independent` is merged key by key.
    pub(super) fn merge(
        file: &Table,
        overrides: &'a Table,
        path: &'a str,
        field: &'a str,
        exp: &'a str,
    ) -> Result<Assumptions<'a>> {
        let mut table = file.clone();
        for (k, v) in overrides {
            if !ASSUMPTION_KEYS.contains(&k.as_str()) {
                return Err(err(
                    exp,
                    format!("{field}.{k}"),
                    crate::spec::value_text(v),
                    &format!("one of {}", ASSUMPTION_KEYS.join(", ")),
                ));
            }
            if k == "independent" {
                let (Some(base), Some(over)) =
                    (table.get_mut(k).and_then(Value::as_table_mut), v.as_table())
                else {
                    return Err(err(
                        exp,
                        format!("{field}.{k}"),
                        crate::spec::value_text(v),
                        "a table such as { infantry = 3 }",
                    ));
                };
                for (kk, vv) in over {
                    base.insert(kk.clone(), vv.clone());
                }
            } else {
                table.insert(k.clone(), v.clone());
            }
        }
        Ok(Assumptions {
            table,
            overrides,
            path,
            field,
            exp,
        })
    }

    pub(super) fn get(&self, k: &str) -> Option<&Value> {
        self.table.get(k)
    }

    /// Where an assumption came from, for error messages: (file, field).
    fn origin(&self, k: &str) -> (String, String) {
        if self.overrides.contains_key(k) {
            (self.exp.to_string(), format!("{}.{k}", self.field))
        } else {
            (self.path.to_string(), format!("assumptions.{k}"))
        }
    }

    /// The error for assumption `k`: `value` is not `allowed`.
    pub(super) fn error(&self, k: &str, value: impl std::fmt::Display, allowed: &str) -> AleaError {
        let (src, f) = self.origin(k);
        err(&src, f, value, allowed)
    }

    /// The share of its PPU a non-capital city starts with as garrison, and whether a capital's
    /// garrison is full.
    pub(super) fn garrisons(&self) -> Result<(f64, bool)> {
        let fraction = match self
            .get("garrison_fraction")
            .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
        {
            Some(x) if (0.0..=1.0).contains(&x) => x,
            other => {
                return Err(self.error(
                    "garrison_fraction",
                    other.map_or("nothing".into(), |v| v.to_string()),
                    "a number from 0 to 1",
                ))
            }
        };
        let capital_full = self
            .get("capital_garrison_full")
            .and_then(Value::as_bool)
            .ok_or_else(|| self.error("capital_garrison_full", "not a boolean", "true or false"))?;
        Ok((fraction, capital_full))
    }

    /// The starting stability level (index into [`STABILITY`]).
    pub(super) fn starting_stability(&self) -> Result<u8> {
        let text = self
            .get("starting_stability")
            .and_then(Value::as_str)
            .unwrap_or("");
        STABILITY
            .iter()
            .position(|s| *s == text)
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.error(
                    "starting_stability",
                    format!("\"{text}\""),
                    &format!("one of {}", STABILITY.join(", ")),
                )
            })
    }

    /// Units start in the capital: the only reading the game models.
    pub(super) fn units_start(&self) -> Result<()> {
        let value = self.get("units_start");
        if value.and_then(Value::as_str) == Some("capital") {
            return Ok(());
        }
        let shown = value.map_or("nothing".into(), crate::spec::value_text);
        Err(self.error("units_start", shown, "\"capital\""))
    }
}
