//! Assault of a city or fortification (digest §3.3, §8.2): no terrain roll and no matrices; the
//! attacker fires 5-1 and the garrison 5-2 every segment, both on the CIUDAD column, the garrison's
//! factors multiplied and its morale raised by the effective fortification level. A garrison that
//! breaks surrenders. An unfortified place (level 0) is fought as a battle in the city (A15).

use super::army::{Army, AE, DE, SIDE_KEYS};
use super::data::CIUDAD;
use super::engine::{CellCodes, Setting};
use super::field::{
    self, parse_armies, parse_context, Context, FieldBattle, LandOptions, Plan, TerrainCase,
    CONTEXT_KEYS,
};
use crate::battle::keys::{self, Key};
use crate::battle::BattleModel;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str = "assault of a city or fortification: fixed codes 5-1 against 5-2, garrison factors x fortification level, surrender on breaking";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;
pub const FORT_LEVEL: Key = keys::int("fort_level", 0, 10)
    .default_int(2)
    .help("the place's fortification level (walls built); a nation that can build IPF (nation = [\"greek\"]) adds 1; at level 0 it is a battle in the city, where the sides' tactics matter");
const MONTHS_BESIEGED: Key = keys::int("months_besieged", 0, 60).default_int(0).help(
    "months of siege before the assault (-1 level each, or each 2 months with sea_supplied = true)",
);
pub const SEA_SUPPLIED: Key = keys::flag("sea_supplied")
    .help("the place is supplied by sea (the siege lowers its level every 2 months)");
pub const SIEGE_ENGINE: Key = keys::int("siege_engine", 0, 5).default_int(0).help(
    "level of the besieger's siege engine (option siege_engine: lowers the level by L, or by 1)",
);

pub const KEYS: &[Key] = &keys::join::<37>(&[
    &[FORT_LEVEL, MONTHS_BESIEGED, SEA_SUPPLIED, SIEGE_ENGINE],
    &CONTEXT_KEYS,
    &SIDE_KEYS,
]);

/// The effective fortification level (L3636-L3642, L3664, L3674, L5130, L5163).
pub fn effective_level(
    armies: &[Army; 2],
    fort: u32,
    months: u32,
    sea_supplied: bool,
    engine: u32,
    engine_full: bool,
) -> u32 {
    let mut level = fort as i64 + armies[1].greek as i64;
    level -= if sea_supplied { months / 2 } else { months } as i64;
    level -= if engine_full {
        engine as i64
    } else {
        (engine > 0) as i64
    };
    let men = armies[0].total_men() as f64;
    if fort > 0 && (armies[0].roman || armies[0].italic) && men > 0.0 {
        level -= 1; // Roman assault (L5163): the whole attacking army is Italo-Roman here
    }
    level.max(0) as u32
}

pub fn assault_battle(
    armies: [Army; 2],
    level: u32,
    ctx: &Context,
    options: &Options,
    mut notes: Vec<String>,
) -> FieldBattle {
    let case = assault_case(&armies, level, ctx, options, &mut notes);
    FieldBattle::from_cases(armies, vec![case], ctx.max_days, options, level > 0, notes)
}

/// The assault's one case (the walls at effective `level`), its notes added to `notes`.
pub fn assault_case(
    armies: &[Army; 2],
    level: u32,
    ctx: &Context,
    options: &Options,
    notes: &mut Vec<String>,
) -> TerrainCase {
    let opts = LandOptions::new(options);
    let city_mod = if options.choice("archery_vs_city") == "minus-6" {
        -6
    } else {
        -3
    };
    if level == 0 {
        notes.push("fortification level 0: not an assault, a battle in the city on the CIUDAD column (A15)".into());
        let tactics = [0, 1].map(|k| match armies[k].tactic {
            super::army::TacticChoice::Fixed(t) => armies[k].tactic_on(t, CIUDAD),
            super::army::TacticChoice::BestResponse => {
                if k == 0 {
                    AE
                } else {
                    DE
                }
            }
        });
        TerrainCase {
            terrain: CIUDAD,
            probability: 1.0,
            tactics,
            plan: field::plan(armies, tactics, CIUDAD, ctx, &opts),
        }
    } else {
        let setting = |fort_level| Setting {
            column: CIUDAD,
            winter: ctx.winter,
            storm: ctx.storm,
            winter_and_storm_both: opts.winter_and_storm_both,
            fort_level,
            first_segment_bonus: true,
            resolution: ctx.resolution,
        };
        let rules = opts.rules(CIUDAD, ctx, true, city_mod);
        let mut e = field::engine(
            armies,
            [AE, DE],
            rules,
            [setting(0), setting(level)],
            opts.symmetric_matrix,
        );
        e.cell = CellCodes::fixed((5, 1), (5, 2));
        notes.push(format!(
            "effective fortification level {level}: garrison factors x{level}, morale +{level}; attacker fires 5-1, garrison 5-2 (L3558, L3642)"
        ));
        TerrainCase {
            terrain: CIUDAD,
            probability: 1.0,
            tactics: [AE, DE],
            plan: Plan {
                decided: None,
                engine: e,
            },
        }
    }
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let armies = parse_armies(fields)?;
    let ctx = parse_context(fields)?;
    let fort = FORT_LEVEL.int(fields)? as u32;
    let months = MONTHS_BESIEGED.int(fields)? as u32;
    let sea = SEA_SUPPLIED.bool(fields)?;
    let engine = SIEGE_ENGINE.int(fields)? as u32;
    let level = effective_level(
        &armies,
        fort,
        months,
        sea,
        engine,
        options.choice("siege_engine") == "level",
    );
    Ok(Box::new(assault_battle(
        armies,
        level,
        &ctx,
        &options,
        Vec::new(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    fn assault(text: &str) -> Box<dyn BattleModel> {
        let table: toml::Table = text.parse().expect("test assault parses");
        let fields = Fields::new("test.toml", &table);
        let options = Options::resolve(
            super::super::OPTIONS,
            Fields::new("test.toml", &toml::Table::new()),
        )
        .unwrap();
        build(&fields, options).unwrap()
    }

    #[test]
    fn the_effective_level_counts_every_modifier() {
        let table: toml::Table = r#"
[attacker]
nation = ["roman"]
units = { "IML-RC" = 4 }
[defender]
nation = ["greek"]
units = { "IM-RC" = 2 }
"#
        .parse()
        .unwrap();
        let armies = parse_armies(&Fields::new("t.toml", &table)).unwrap();
        // 5 walls + 1 Greek - 2 months - engine 1 - 1 Roman assault.
        assert_eq!(effective_level(&armies, 5, 2, false, 1, true), 2);
        // By sea the siege counts every two months; an engine of level 3 lowers by 3 or by 1.
        assert_eq!(effective_level(&armies, 5, 2, true, 3, true), 1);
        assert_eq!(effective_level(&armies, 5, 2, true, 3, false), 3);
        // Never below 0; no Roman -1 against an unwalled place.
        assert_eq!(effective_level(&armies, 0, 0, false, 0, true), 1);
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_assaults() {
        let progress = Progress::hidden();
        let mut checked = 0;
        for (i, (fort, att, def)) in [(0, 6, 3), (1, 6, 3), (2, 12, 4), (4, 12, 3), (3, 8, 2)]
            .into_iter()
            .enumerate()
        {
            let b = assault(&format!(
                "fort_level = {fort}\nresolution = 6\nmax_days = 4\n[attacker]\nunits = {{ \"IM-RC\" = {att} }}\ntactical = 2\n[defender]\nunits = {{ \"IM-RC\" = {def} }}\ntactical = 1"
            ));
            let exact = b.exact().unwrap_or_else(|e| panic!("case {i}: {}", e.0));
            let total: f64 = exact.outcomes.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "case {i}: mass {total}");
            let run = McRun {
                trials: 60_000,
                seed: 11,
                stream: i as u64,
                progress: &progress,
            };
            if let Err(why) = agreement(b.schema(), &exact, &b.monte_carlo(&run), 5.0) {
                panic!("case {i} (fort {fort}, {att} v {def}): {why}");
            }
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    #[test]
    fn walls_multiply_the_garrison_and_an_open_city_is_a_battle() {
        let text = |fort: u32| {
            format!("fort_level = {fort}\nresolution = 6\n[attacker]\nunits = {{ \"IM-RC\" = 10 }}\n[defender]\nunits = {{ \"IM-RC\" = 4 }}")
        };
        let walled = assault(&text(3));
        assert!(walled
            .notes()
            .iter()
            .any(|n| n.contains("level 3") && n.contains("5-1")));
        let open = assault(&text(0));
        assert!(open
            .notes()
            .iter()
            .any(|n| n.contains("battle in the city")));
        // Better walls never help the attacker (long sieges of morale: simulated).
        let progress = Progress::hidden();
        let win = |fort: u32| {
            let run = McRun {
                trials: 20_000,
                seed: 5,
                stream: fort as u64,
                progress: &progress,
            };
            let tally = assault(&text(fort)).monte_carlo(&run);
            tally.outcomes[0] as f64 / tally.trials as f64
        };
        let (w1, w2, w4) = (win(1), win(2), win(4));
        // Three standard errors of a difference of two proportions of 20,000 trials at most.
        let slack = 3.0 * (2.0 * 0.25 / 20_000.0f64).sqrt();
        assert!(w1 + slack >= w2 && w2 + slack >= w4, "{w1} {w2} {w4}");
        assert!(w1 > w4 + 0.05, "{w1} {w4}");
    }
}
