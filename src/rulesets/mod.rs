//! The five rulesets. Each declares its battles and its rule options; the shared machinery (exact
//! distributions, runner, experiments, output, charts) never needs to know which one it is running.

/// A battle kind from a module exposing `SUMMARY`, `OUTCOMES`, `KEYS` and `build`.
macro_rules! kind {
    ($name:literal, $module:ident) => {
        kind!($name, $module, "units")
    };
    ($name:literal, $module:ident, $loss_unit:literal) => {
        BattleKind {
            name: $name,
            summary: $module::SUMMARY,
            outcomes: $module::OUTCOMES,
            loss_unit: $loss_unit,
            keys: $module::KEYS,
            build: $module::build,
        }
    };
}

pub mod imperios_del_mediterraneo;
pub mod invasions;
#[cfg(test)]
mod key_tests;
pub mod mare_nostrum;
pub mod mediterraneo_sanguinolento;
pub mod reference;
pub mod republica_de_roma;

use crate::battle::keys::{self, Key};
use crate::battle::BattleModel;
use crate::error::{did_you_mean, AleaError, Result};
use crate::options::{Options, RuleOption};
use crate::spec::Fields;
use toml::Table;

pub struct BattleKind {
    pub name: &'static str,
    pub summary: &'static str,
    pub outcomes: &'static [&'static str],
    /// What each side's losses (`battle::side_column(side, battle::LOSSES)`) count ("units",
    /// "fleets", "hundreds of men").
    pub loss_unit: &'static str,
    /// Keys of the battle file (`ruleset`, `battle` and `[options]` aside).
    pub keys: &'static [Key],
    pub build: fn(&Fields, Options) -> Result<Box<dyn BattleModel>>,
}

impl BattleKind {
    /// The reference lines of the battle's keys.
    pub fn doc_lines(&self) -> Vec<String> {
        keys::doc_lines(self.keys)
    }
}

pub struct Ruleset {
    pub slug: &'static str,
    pub title: &'static str,
    pub digest: &'static str,
    pub battles: &'static [BattleKind],
    /// The two sides of its battles, in the order every per-side quantity lists them: the battle
    /// file's side tables and the `<side>_<quantity>` columns are named by them, and the reports,
    /// tables and charts find each side's losses through them. Empty when the battles are not
    /// fought between two named sides (República de Roma: Rome against a war).
    pub sides: &'static [&'static str],
    pub options: &'static [RuleOption],
    /// Automated full games, when the ruleset has them.
    pub game: Option<crate::game::GameBuilder>,
    /// The game's policies and their parameters, when it has a game.
    pub policies: Option<Policies>,
}

/// A game's policy catalog, seen without its ruleset's policy type.
#[derive(Clone, Copy)]
pub struct Policies {
    /// The policies and their parameters, one line each (`alea list`).
    pub help: fn() -> Vec<String>,
    /// A policy's parameters with their ranges and defaults (`None` for an unknown name).
    pub params: fn(&str) -> Option<&'static [crate::game::policy::Param]>,
}

/// [`Policies`] of a `PolicyCatalog` static.
macro_rules! policies {
    ($catalog:path) => {
        Some(crate::rulesets::Policies {
            help: || $catalog.help(),
            params: |name| $catalog.params_of(name),
        })
    };
}
pub(crate) use policies;

pub static RULESETS: &[Ruleset] = &[
    mare_nostrum::RULESET,
    invasions::RULESET,
    republica_de_roma::RULESET,
    mediterraneo_sanguinolento::RULESET,
    imperios_del_mediterraneo::RULESET,
];

pub fn find_ruleset(source: &str, field: &str, slug: &str) -> Result<&'static Ruleset> {
    RULESETS.iter().find(|r| r.slug == slug).ok_or_else(|| {
        let slugs: Vec<&str> = RULESETS.iter().map(|r| r.slug).collect();
        let hint = did_you_mean(slug, slugs.iter().copied());
        AleaError::input(
            source,
            field,
            format!("\"{slug}\"{hint}"),
            format!("one of {}", slugs.join(", ")),
        )
    })
}

impl Ruleset {
    pub fn find_battle(
        &self,
        source: &str,
        field: &str,
        name: &str,
    ) -> Result<&'static BattleKind> {
        if self.battles.is_empty() {
            return Err(AleaError::input(
                source,
                field,
                format!("\"{name}\""),
                format!(
                    "nothing yet: the {} ruleset has no battles implemented yet",
                    self.slug
                ),
            ));
        }
        let battles: &'static [BattleKind] = self.battles;
        battles.iter().find(|b| b.name == name).ok_or_else(|| {
            let names: Vec<&str> = battles.iter().map(|b| b.name).collect();
            AleaError::input(
                source,
                field,
                format!("\"{name}\""),
                format!("one of {}", names.join(", ")),
            )
        })
    }
}

/// A battle loaded from a table (a battle file, an experiment point, or the command line).
pub struct LoadedBattle {
    pub ruleset: &'static Ruleset,
    pub kind: &'static BattleKind,
    pub options: Options,
    pub model: Box<dyn BattleModel>,
}

/// Reads `ruleset`, `battle`, `[options]` and the battle's own keys from a table.
pub fn load_battle(source: &str, table: &Table) -> Result<LoadedBattle> {
    let fields = Fields::new(source, table);
    let slug = fields.string("ruleset")?.ok_or_else(|| {
        AleaError::invalid(
            source,
            "missing `ruleset` (one of the slugs `alea list` shows)",
        )
    })?;
    let ruleset = find_ruleset(source, "ruleset", slug)?;
    let name = fields.string("battle")?.ok_or_else(|| {
        AleaError::invalid(
            source,
            "missing `battle` (one of the battles `alea list` shows)",
        )
    })?;
    let kind = ruleset.find_battle(source, "battle", name)?;
    let empty = Table::new();
    let options = Options::resolve(ruleset.options, fields.table("options", &empty)?)?;
    keys::check(&fields, kind.keys)?;
    let model = (kind.build)(&fields, options.clone())?;
    Ok(LoadedBattle {
        ruleset,
        kind,
        options,
        model,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_is_listed_and_registries_are_well_formed() {
        let slugs: Vec<&str> = RULESETS.iter().map(|r| r.slug).collect();
        for s in [
            "mare-nostrum",
            "invasions",
            "republica-de-roma",
            "mediterraneo-sanguinolento",
            "imperios-del-mediterraneo",
        ] {
            assert!(slugs.contains(&s), "{s} missing");
        }
        for r in RULESETS {
            crate::options::validate_registry(r.options).unwrap();
            for o in r.options {
                for b in o.battles {
                    assert!(
                        r.battles.iter().any(|k| k.name == *b),
                        "{}: option {} names unknown battle {b}",
                        r.slug,
                        o.name
                    );
                }
            }
        }
    }

    #[test]
    fn unknown_names_are_input_errors() {
        let t: Table = "ruleset = \"mare-nostrun\"\nbattle = \"field\""
            .parse()
            .unwrap();
        let e = load_battle("b.toml", &t).err().unwrap();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("mare-nostrum"), "{e}");
        let t: Table = "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"feild\""
            .parse()
            .unwrap();
        let e = load_battle("b.toml", &t).err().unwrap();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("field"), "{e}");
    }
}
