//! Test scaffolding shared by the procedures' tests: building a battle from a battle file's text,
//! checking the exact answer against a simulation, and checking that bad input names its field.

use super::OPTIONS;
use crate::battle::{BattleModel, Exact};
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

/// A procedure's `build`.
pub type Build = fn(&Fields, Options) -> Result<Box<dyn BattleModel>>;

/// Builds a battle of the ruleset from a battle file's text (source `b.toml`, options included).
pub fn model(text: &str, build: Build) -> Result<Box<dyn BattleModel>> {
    let table: Table = text.parse().unwrap();
    let fields = Fields::new("b.toml", &table);
    let empty = Table::new();
    let options = Options::resolve(OPTIONS, fields.table("options", &empty)?)?;
    // A battle file's keys are checked against the battle's declarations before its build runs,
    // as `load_battle` does.
    let kind = super::RULESET
        .battles
        .iter()
        .find(|k| std::ptr::fn_addr_eq(k.build, build));
    if let Some(kind) = kind {
        crate::battle::keys::check(&fields, kind.keys)?;
    }
    build(&fields, options)
}

/// `a` and `b` agree to 1e-9.
pub fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} vs {b}");
}

pub use crate::battle::assert_agrees;

/// The error of bad input, which must be an input error (exit code 2).
pub fn input_error(build: Build, text: &str) -> AleaError {
    let err = model(text, build)
        .err()
        .unwrap_or_else(|| panic!("accepted:\n{text}"));
    assert_eq!(err.exit_code(), 2, "{err}");
    err
}

/// Bad input is an input error whose message names `field`.
pub fn assert_input_error(build: Build, text: &str, field: &str) {
    let err = input_error(build, text);
    assert!(err.to_string().contains(field), "{err}");
}

/// `a` and `b` agree to 1e-12.
pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The exact answer of a battle file's text, which must build.
pub fn exact(text: &str, build: Build) -> Exact {
    model(text, build).unwrap().exact().unwrap()
}
