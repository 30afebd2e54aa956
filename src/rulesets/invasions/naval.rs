//! Placeholder while the naval procedure is being written.

use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::rulesets::BattleModel;
use crate::spec::Fields;

pub const SUMMARY: &str = "naval (not written yet)";
pub const OUTCOMES: &[&str] = &["attacker", "defender"];
pub const KEYS: &[&str] = &[];

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    Err(AleaError::invalid(
        fields.source,
        "the naval procedure is not written yet",
    ))
}
