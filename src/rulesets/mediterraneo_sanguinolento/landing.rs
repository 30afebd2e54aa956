//! Landing (digest §3.6, §8.5): a field battle in which only infantry counts; the landing force's
//! other units fight as their infantry equivalent by men (light → IL, medium → IM, heavy and heavy
//! chariots → IP, light chariots → IL, elephants → IP; A35, rounded to half units as in the rules'
//! example), and warfleets add a tenth of their ram factors. Outside plain, desert and forest the
//! landing needs a naval leader's 1D6 ≤ his value (A34); the odds are given for a landing that happens.

use super::army::{Group, SIDE_KEYS};
use super::data::data;
use super::field::{
    parse_armies, parse_context, parse_terrain, FieldBattle, BATTLE_TERRAIN, CONTEXT_KEYS, HEX,
};
use crate::battle::keys::{self, Key, Type};
use crate::battle::BattleModel;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str = "landing: a field battle with the landing force converted to infantry and a tenth of the warfleets' factors";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;
const FLEETS: Key = Key::new(
    "fleets",
    Type::Table {
        format: "fleet type (FG FB FT FQ FTR FC FP) = number of fleets",
        example: "{ FT = 3 }",
    },
)
.absent("none")
.help(
    "warfleets supporting the landing (a tenth of their ram factors fights with the landing force)",
);
const NAVAL_LEADER: &[&str] = &["naval_leader"];
const NAVAL_TACTICAL: Key = keys::int("tactical", 0, 5)
    .default_int(0)
    .at(NAVAL_LEADER)
    .help("the naval leader's tactical value (option landing_leader_value; needed outside plain, desert and forest)");
const NAVAL_STRATEGIC: Key = keys::int("strategic", 0, 5)
    .default_int(0)
    .at(NAVAL_LEADER)
    .help("the naval leader's strategic value (option landing_leader_value; needed outside plain, desert and forest)");

pub const KEYS: &[Key] = &keys::join::<38>(&[
    &[
        HEX.help("the coast's terrain, rolled into a battle terrain with 2D6 (outside plain, desert and forest the landing needs the naval leader's roll)"),
        BATTLE_TERRAIN,
        FLEETS,
        NAVAL_TACTICAL,
        NAVAL_STRATEGIC,
    ],
    &CONTEXT_KEYS,
    &SIDE_KEYS,
]);

/// The infantry type a unit fights as when landing.
pub fn infantry_equivalent(code: &str) -> &'static str {
    match code {
        "CL" | "CA" | "CML" | "CMA" | "CRL" => "IL",
        "CM" | "CMM" => "IM",
        "CP" | "CC" | "CRP" | "E" => "IP",
        _ => "",
    }
}

/// Converts the landing force by men, to the nearest half unit.
pub fn convert(groups: &[Group]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for g in groups {
        let target = infantry_equivalent(&g.code);
        let mut h = g.clone();
        if !target.is_empty() {
            let men = g.units * data().unit(&g.code).map_or(0, |u| u.men) as f64;
            h.code = target.to_string();
            h.units = (men / 200.0 * 2.0).round() / 2.0;
        }
        match out
            .iter_mut()
            .find(|x| x.label() == h.label() && x.veteran == h.veteran && x.guard == h.guard)
        {
            Some(x) => x.units += h.units,
            None => out.push(h),
        }
    }
    out.retain(|g| g.units > 0.0);
    out
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let mut armies = parse_armies(fields)?;
    let ctx = parse_context(fields)?;
    let (hex, forced) = parse_terrain(fields)?;
    let empty = toml::Table::new();
    let fleets = FLEETS.table(fields, &empty)?;
    let mut support = 0.0;
    for code in fleets.keys() {
        let f = data().fleet(code).ok_or_else(|| {
            AleaError::input(
                fields.source,
                format!("{}.{code}", FLEETS.field(fields)),
                code,
                "a fleet type: FG FB FT FQ FTR FC FP",
            )
        })?;
        support += fleets.number_in(code, 0.0, 1000.0)?.unwrap_or(0.0) * f.ram as f64 / 10.0;
    }
    let leader = fields.table(NAVAL_LEADER[0], &empty)?;
    let tactical = NAVAL_TACTICAL.int(&leader)?;
    let strategic = NAVAL_STRATEGIC.int(&leader)?;
    let value = if options.choice("landing_leader_value") == "tactical" {
        tactical
    } else {
        strategic
    };
    let before: Vec<String> = armies[0]
        .groups
        .iter()
        .map(|g| format!("{} {}", g.units, g.label()))
        .collect();
    armies[0].groups = convert(&armies[0].groups);
    let after: Vec<String> = armies[0]
        .groups
        .iter()
        .map(|g| format!("{} {}", g.units, g.label()))
        .collect();
    let mut b = FieldBattle::new(armies, ctx, hex, forced, &options);
    for c in &mut b.cases {
        c.plan.engine.sides[0].support = support;
    }
    b.notes.push(format!(
        "landing force {} fights as {} (L4462, A35)",
        before.join(" + "),
        after.join(" + ")
    ));
    if support > 0.0 {
        b.notes
            .push(format!("warfleets add {support:.2} combat factors (L4466)"));
    }
    if !matches!(hex.unwrap_or("plain"), "plain" | "desert" | "forest") {
        b.notes.push(format!(
            "landing off port on this coast needs the naval leader's 1D6 <= {value}: P = {:.4}; the odds shown are for a landing that happens",
            (value.clamp(0, 6) as f64) / 6.0
        ));
    }
    Ok(Box::new(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t8_landing_conversion_follows_the_rules_example() {
        let g = |code: &str, units: f64| Group {
            code: code.into(),
            regular: true,
            morale: 2,
            units,
            veteran: false,
            guard: false,
        };
        let out = convert(&[g("IL", 2.0), g("CL", 8.0), g("CRP", 2.0)]);
        let il = out.iter().find(|x| x.code == "IL").unwrap().units;
        let ip = out.iter().find(|x| x.code == "IP").unwrap().units;
        assert_eq!(il, 6.0);
        assert_eq!(ip, 0.5);
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_a_landing_with_fleet_support() {
        use crate::battle::agreement;
        use crate::battle::McRun;
        use crate::progress::Progress;
        let text = "battle_terrain = 2\nresolution = 6\nmax_days = 3\nfleets = { FT = 3 }\n[attacker]\nunits = { \"IL-RC\" = 2, \"CL-RC\" = 4 }\ntactic = \"AE\"\n[defender]\nunits = { \"IL-RC\" = 4 }\ntactic = \"DE\"";
        let table: toml::Table = text.parse().unwrap();
        let fields = Fields::new("t.toml", &table);
        let options = Options::resolve(
            super::super::OPTIONS,
            Fields::new("t.toml", &toml::Table::new()),
        )
        .unwrap();
        let b = build(&fields, options).unwrap();
        assert!(b.notes().iter().any(|n| n.contains("warfleets add")));
        let exact = b.exact().unwrap_or_else(|e| panic!("{}", e.0));
        let progress = Progress::hidden();
        let run = McRun {
            trials: 60_000,
            seed: 8,
            stream: 0,
            progress: &progress,
        };
        agreement(b.schema(), &exact, &b.monte_carlo(&run), 5.0).unwrap();
    }
}
