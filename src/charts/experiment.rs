//! What the charts of both engines' experiments share: the titles and values of swept axes, how
//! many lines a chart draws, and the names of the files written.

use std::path::PathBuf;
use toml::Value;

/// "attacker.infantry" → "attacker infantry (units)": a swept field as an axis title, with the
/// unit its value counts.
pub fn axis_label(field: &str) -> String {
    let mut parts = field.rsplit('.');
    let last = parts.next().unwrap_or(field);
    // A unit type inside a table of units or fleets: "defender.units.IM-RC".
    let last = match parts.next() {
        Some(table @ ("units" | "fleets")) => table,
        _ => last,
    };
    let unit = match last {
        "infantry" | "cavalry" | "veteran_infantry" | "veteran_cavalry" | "units" | "legions"
        | "veteran_legions" => " (units)",
        "fleets" => " (fleets)",
        "ports" => " (ports)",
        "garrison" => " (garrison points)",
        "ppu" => " (PPU)",
        "leader" => " (modifier)",
        "leader_age" => " (years)",
        "orders" => " (orders)",
        "modifier" => " (fixed factors)",
        "extra_dice" => " (dice)",
        "markers" => " (fortification markers)",
        _ => "",
    };
    format!("{}{unit}", field.replace(['.', '_'], " "))
}

/// A swept value as a position on a numeric axis; `None` for names.
pub fn axis_number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// At most `max` indices spread evenly over `0..len`, first and last included: which of many
/// lines a chart draws (the tables keep them all).
pub fn thin(len: usize, max: usize) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..max).map(|i| i * (len - 1) / (max - 1)).collect();
    v.dedup();
    v
}

/// The file names of the paths a `draw_*` function wrote, for the manifest.
pub fn file_names(paths: &[PathBuf]) -> impl Iterator<Item = String> + '_ {
    paths
        .iter()
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(String::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels_carry_their_unit() {
        assert_eq!(axis_label("attacker.infantry"), "attacker infantry (units)");
        assert_eq!(
            axis_label("defender.units.IM-RC"),
            "defender units IM-RC (units)"
        );
        assert_eq!(
            axis_label("attacker.fleets.FT"),
            "attacker fleets FT (fleets)"
        );
        assert_eq!(axis_label("hex"), "hex");
    }

    #[test]
    fn thinning_keeps_the_ends_and_never_exceeds_the_limit() {
        assert_eq!(thin(5, 8), vec![0, 1, 2, 3, 4]);
        let t = thin(9, 4);
        assert!(t.len() <= 4);
        assert_eq!((t[0], *t.last().unwrap()), (0, 8));
        let t = thin(30, 10);
        assert!(t.len() <= 10 && t[0] == 0 && *t.last().unwrap() == 29);
    }
}
