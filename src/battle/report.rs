//! Turning an answer into words a player reads and JSON a script reads.

use crate::battle::{Est, Estimates, Method, Schema};
use crate::options::Options;
use crate::rulesets::{BattleKind, Ruleset};
use serde_json::{json, Map, Value};

/// An answer to `alea odds`, with what is needed to explain it.
pub struct OddsAnswer<'a> {
    pub ruleset: &'a Ruleset,
    pub kind: &'a BattleKind,
    pub schema: &'a Schema,
    pub options: &'a Options,
    pub describe: Vec<String>,
    pub notes: Vec<String>,
    pub estimates: Estimates,
    pub seed: Option<u64>,
    /// Why exact odds were not computed, when they were wanted.
    pub exact_unavailable: Option<String>,
    pub seconds: f64,
}

/// An outcome named after one of the ruleset's `sides` ("attacker") → "attacker wins"; used in
/// text and chart labels.
pub fn outcome_label(sides: &[&str], name: &str) -> String {
    match name {
        side if sides.contains(&side) => format!("{side} wins"),
        "none" => "no winner".into(),
        "taken" => "city taken".into(),
        "held" => "city held".into(),
        "destroyed" => "PPR destroyed".into(),
        "spared" => "no PPR destroyed".into(),
        other => other.replace('_', " "),
    }
}

fn insert_path(root: &mut Map<String, Value>, path: &str, value: Value) {
    let mut parts = path.split('/').peekable();
    let mut here = root;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            here.insert(part.to_string(), value);
            return;
        }
        let entry = here
            .entry(part.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        here = entry.as_object_mut().expect("just made an object");
    }
}

fn num(x: f64) -> Value {
    json!(crate::output::tidy(x))
}

/// The estimates as nested JSON: values, or (with `se = true`) their standard errors.
pub fn estimates_json(schema: &Schema, e: &Estimates, se: bool) -> Map<String, Value> {
    let pick = |x: &Est| {
        if se {
            num(x.se.unwrap_or(0.0))
        } else {
            num(x.value)
        }
    };
    let mut root = Map::new();
    let outcome: Map<String, Value> = schema
        .outcomes
        .iter()
        .zip(&e.outcomes)
        .map(|(n, x)| (n.clone(), pick(x)))
        .collect();
    root.insert("outcome".into(), Value::Object(outcome));
    for (spec, c) in schema.counts.iter().zip(&e.counts) {
        let pmf: Vec<Value> = c.pmf.iter().map(pick).collect();
        insert_path(
            &mut root,
            &spec.name,
            json!({"mean": pick(&c.mean), "pmf": pmf}),
        );
    }
    for (name, x) in schema.scalars.iter().zip(&e.scalars) {
        insert_path(&mut root, name, pick(x));
    }
    root
}

impl OddsAnswer<'_> {
    pub fn to_json(&self) -> Value {
        let mut doc = Map::new();
        doc.insert("ruleset".into(), json!(self.ruleset.slug));
        doc.insert("battle".into(), json!(self.kind.name));
        doc.insert("method".into(), json!(self.estimates.method.as_str()));
        doc.insert("trials".into(), json!(self.estimates.trials));
        if let Some(seed) = self.seed {
            doc.insert("seed".into(), json!(seed));
        }
        doc.insert("input".into(), json!(self.describe));
        let options: Map<String, Value> = self
            .options
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    serde_json::from_str(&v.to_string()).unwrap_or(Value::Null),
                )
            })
            .collect();
        doc.insert("options".into(), Value::Object(options));
        doc.insert("notes".into(), json!(self.notes));
        if let Some(why) = &self.exact_unavailable {
            doc.insert("exact_unavailable".into(), json!(why));
        }
        doc.extend(estimates_json(self.schema, &self.estimates, false));
        if self.estimates.method == Method::MonteCarlo {
            doc.insert(
                "standard_error".into(),
                Value::Object(estimates_json(self.schema, &self.estimates, true)),
            );
        }
        Value::Object(doc)
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let e = &self.estimates;
        let method = match e.method {
            Method::Exact => "exact".to_string(),
            Method::MonteCarlo => format!(
                "Monte Carlo, {} trials, seed {}",
                crate::output::thousands(e.trials.unwrap_or(0)),
                self.seed.unwrap_or(0)
            ),
        };
        out += &format!(
            "{} · {} · {method}\n",
            self.ruleset.title, self.kind.summary
        );
        for line in &self.describe {
            out += &format!("  {line}\n");
        }
        let changed = self.options.differences(self.ruleset.options);
        if changed.is_empty() {
            out += "  rule options: the recommended readings\n";
        } else {
            out += &format!("  rule options changed: {}\n", changed.join(", "));
        }
        if let Some(why) = &self.exact_unavailable {
            out += &format!("  exact odds not computed: {why}; simulated instead\n");
        }
        for note in &self.notes {
            out += &format!("  note: {note}\n");
        }
        out += "\nOutcome\n";
        for (name, x) in self.schema.outcomes.iter().zip(&e.outcomes) {
            out += &format!(
                "  {:<16} {}\n",
                outcome_label(self.ruleset.sides, name),
                percent(x)
            );
        }
        // Each side's losses, headed by the side's name.
        let losses: Vec<(&str, usize)> = (self.ruleset.sides.iter())
            .zip(self.schema.side_losses(self.ruleset.sides))
            .filter_map(|(side, k)| Some((*side, k?)))
            .collect();
        if !losses.is_empty() {
            out += &self.loss_table(&losses);
        }
        // Quantities that cannot vary here (no units of a type) are left out of the text.
        let others: Vec<usize> = (0..self.schema.counts.len())
            .filter(|k| losses.iter().all(|&(_, l)| l != *k) && self.schema.counts[*k].max > 0)
            .collect();
        if !others.is_empty() {
            out += "\nDistributions (mean; P(0), P(1), …)\n";
            for k in others {
                let c = &e.counts[k];
                let shown: Vec<String> = c
                    .pmf
                    .iter()
                    .take(8)
                    .map(|x| format!("{:.1}%", 100.0 * x.value))
                    .collect();
                let more = if c.pmf.len() > 8 { ", …" } else { "" };
                out += &format!(
                    "  {:<44} {:>8.3}   {}{more}\n",
                    self.schema.counts[k].name.replace('/', " · "),
                    c.mean.value,
                    shown.join(", ")
                );
            }
        }
        if !self.schema.scalars.is_empty() {
            out += "\nAfter the battle (expectations; a probability for yes/no events)\n";
            for (name, x) in self.schema.scalars.iter().zip(&e.scalars) {
                let se = x.se.map(|s| format!(" ± {s:.4}")).unwrap_or_default();
                out += &format!("  {:<44} {:>8.4}{se}\n", name.replace('/', " · "), x.value);
            }
        }
        out += &format!("\n({:.3} s)\n", self.seconds);
        out
    }

    /// The loss distributions of the given (side, count index) pairs, side by side.
    fn loss_table(&self, sides: &[(&str, usize)]) -> String {
        let e = &self.estimates;
        let idx: Vec<usize> = sides.iter().map(|&(_, k)| k).collect();
        let mut out = String::from("\nLosses");
        for (side, _) in sides {
            out += &format!("{side:>24}");
        }
        out += "\n  mean  ";
        for &k in &idx {
            out += &format!("{:>24}", format_est(&e.counts[k].mean, 3));
        }
        out += "\n  k     ";
        for _ in &idx {
            out += &format!("{:>24}", "P(=k)      P(≥k)");
        }
        out += "\n";
        let last = idx
            .iter()
            .map(|&k| {
                let pmf = &e.counts[k].pmf;
                pmf.iter().rposition(|x| x.value >= 5e-5).unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        for v in 0..=last {
            out += &format!("  {v:<6}");
            for &k in &idx {
                let pmf = &e.counts[k].pmf;
                let p = pmf.get(v).map_or(0.0, |x| x.value);
                let tail: f64 = pmf.iter().skip(v).map(|x| x.value).sum();
                out += &format!(
                    "{:>13}{:>11}",
                    format!("{:.2}%", 100.0 * p),
                    format!("{:.2}%", 100.0 * tail)
                );
            }
            out += "\n";
        }
        out
    }
}

fn percent(x: &Est) -> String {
    match x.se {
        None => format!("{:>8.4}%", 100.0 * x.value),
        Some(se) => format!("{:>8.4}% ± {:.4}", 100.0 * x.value, 100.0 * se),
    }
}

fn format_est(x: &Est, digits: usize) -> String {
    match x.se {
        None => format!("{:.*}", digits, x.value),
        Some(se) => format!("{:.*} ± {:.*}", digits, x.value, digits, se),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_nest() {
        let mut m = Map::new();
        insert_path(&mut m, "vp/attacker", json!(1.0));
        insert_path(&mut m, "vp/defender", json!(2.0));
        insert_path(&mut m, "veterans_gained/attacker/total", json!(3.0));
        assert_eq!(m["vp"]["defender"], json!(2.0));
        assert_eq!(m["veterans_gained"]["attacker"]["total"], json!(3.0));
        assert_eq!(crate::output::thousands(1234567), "1,234,567");
    }
}
