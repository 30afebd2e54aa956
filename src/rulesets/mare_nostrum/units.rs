//! Land units by type, and how losses fall on them (A8).

use crate::battle::keys::{self, Key, Type};
use crate::dice::{draw_without_replacement, Dice};
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::spec::Fields;
use toml::Value;

/// Index order used everywhere: infantry, cavalry, veteran infantry, veteran cavalry.
pub const TYPES: [&str; 4] = ["infantry", "cavalry", "veteran_infantry", "veteran_cavalry"];
pub const INF: usize = 0;
pub const CAV: usize = 1;
pub const VET_INF: usize = 2;
pub const VET_CAV: usize = 3;

/// The order in which an owner choosing his losses gives up units: weakest and cheapest first.
const OWNER_CHOICE_ORDER: [usize; 4] = [INF, VET_INF, CAV, VET_CAV];

pub type Units = [u32; 4];

/// Infantry and cavalry also take the rulebook's notation "10(2)" (L710).
const WITH_VETERANS: Type = Type::CountOr {
    format: "the rulebook's \"N(V)\": N units of which V veterans",
    example: "\"10(2)\"",
};

/// The unit keys of a side, in [`TYPES`] order.
pub const UNIT_KEYS: [Key; 4] = [
    Key::new(TYPES[INF], WITH_VETERANS)
        .help("regular infantry (mercenaries count as their base type)"),
    Key::new(TYPES[CAV], WITH_VETERANS)
        .help("regular cavalry (mercenaries count as their base type)"),
    keys::count(TYPES[VET_INF]).help("veteran infantry"),
    keys::count(TYPES[VET_CAV]).help("veteran cavalry"),
];

/// The rulebook's notation "10(2)": ten units of which two are veterans (L710).
fn parse_notation(text: &str) -> Option<(u32, u32)> {
    let (total, rest) = text.trim().split_once('(')?;
    let veterans = rest.trim().strip_suffix(')')?;
    let (total, veterans) = (
        total.trim().parse::<u32>().ok()?,
        veterans.trim().parse::<u32>().ok()?,
    );
    (veterans <= total).then_some((total - veterans, veterans))
}

pub fn parse_units(side: &Fields) -> Result<Units> {
    let mut units = [0; 4];
    for (t, key) in UNIT_KEYS.iter().enumerate() {
        match key.raw(side)? {
            // infantry = "10(2)" and cavalry = "4(1)" also give their veterans.
            Some(Value::String(text)) => {
                let (regular, veterans) = parse_notation(text).ok_or_else(|| {
                    AleaError::input(
                        side.source,
                        key.field(side),
                        format!("\"{text}\""),
                        "a whole number, or the rulebook's \"N(V)\": N units of which V veterans",
                    )
                })?;
                units[t] += regular;
                units[t + 2] += veterans;
            }
            _ => units[t] += key.count(side)?,
        }
    }
    if units.iter().map(|&u| u as u64).sum::<u64>() > crate::spec::MAX_COUNT as u64 {
        return Err(AleaError::input(
            side.source,
            side.field("infantry"),
            "a side totalling more than 1000000 units",
            "at most 1000000 units a side",
        ));
    }
    Ok(units)
}

pub fn total(units: &Units) -> u32 {
    units.iter().sum()
}

pub fn describe(units: &Units) -> String {
    let parts: Vec<String> = units
        .iter()
        .zip(TYPES)
        .filter(|(n, _)| **n > 0)
        .map(|(n, t)| format!("{n} {}", t.replace('_', " ")))
        .collect();
    if parts.is_empty() {
        "no units".into()
    } else {
        parts.join(", ")
    }
}

/// How losses are spread over a side's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Uniformly at random among all units present (the recommended reading).
    Random,
    /// The owner gives up the weakest units first.
    OwnerChoice,
}

impl Allocation {
    pub fn from_option(value: &str) -> Allocation {
        if value == "owner-choice" {
            Allocation::OwnerChoice
        } else {
            Allocation::Random
        }
    }

    /// Losses by type when `losses` units are lost.
    #[inline(always)]
    pub fn draw(self, units: &Units, losses: u32, dice: &mut Dice) -> Units {
        match self {
            Allocation::Random => draw_without_replacement(dice, *units, losses),
            Allocation::OwnerChoice => owner_choice(units, losses),
        }
    }

    /// Distribution of each type's losses when the total lost is distributed as `losses`.
    pub fn by_type(self, units: &Units, losses: &Pmf) -> [Pmf; 4] {
        let n = total(units) as usize;
        let mut out: [Pmf; 4] = std::array::from_fn(|t| Pmf::zeros(units[t] as usize + 1));
        for (l, &w) in losses.0.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            match self {
                Allocation::Random => {
                    for (t, pmf) in out.iter_mut().enumerate() {
                        pmf.add_scaled(&Pmf::hypergeometric(n, units[t] as usize, l), w);
                    }
                }
                Allocation::OwnerChoice => {
                    let taken = owner_choice(units, l as u32);
                    for (t, pmf) in out.iter_mut().enumerate() {
                        pmf.add_mass(taken[t] as usize, w);
                    }
                }
            }
        }
        out
    }
}

fn owner_choice(units: &Units, losses: u32) -> Units {
    let mut left = losses;
    let mut taken = [0; 4];
    for t in OWNER_CHOICE_ORDER {
        taken[t] = left.min(units[t]);
        left -= taken[t];
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_e18_veteran_notation() {
        // "10(2)" infantry = 8 regular + 2 veteran infantry.
        let t: toml::Table = "infantry = \"10(2)\"\ncavalry = \"3(3)\"\nveteran_infantry = 1"
            .parse()
            .unwrap();
        assert_eq!(parse_units(&Fields::new("t", &t)).unwrap(), [8, 0, 3, 3]);
        for bad in ["\"2(3)\"", "\"ten\"", "\"4(\""] {
            let t: toml::Table = format!("infantry = {bad}").parse().unwrap();
            let e = parse_units(&Fields::new("t", &t)).unwrap_err().to_string();
            assert!(e.contains("N(V)"), "{e}");
        }
    }

    #[test]
    fn owner_choice_gives_up_infantry_first() {
        assert_eq!(owner_choice(&[2, 3, 1, 1], 4), [2, 1, 1, 0]);
        assert_eq!(owner_choice(&[2, 3, 1, 1], 9), [2, 3, 1, 1]);
    }

    #[test]
    fn random_by_type_marginals_have_proportional_means() {
        let units = [6, 3, 0, 1];
        let losses = Pmf::point(5);
        let by = Allocation::Random.by_type(&units, &losses);
        assert!((by[INF].mean() - 3.0).abs() < 1e-12);
        assert!((by[CAV].mean() - 1.5).abs() < 1e-12);
        assert!((by[VET_CAV].mean() - 0.5).abs() < 1e-12);
        assert_eq!(by[VET_INF].0, vec![1.0]);
    }
}
