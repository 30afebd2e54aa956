//! Placeholder while the advanced land battle is being written.

use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::rulesets::BattleModel;
use crate::spec::Fields;

pub const SUMMARY: &str = "advanced land battle (not written yet)";
pub const OUTCOMES: &[&str] = &["attacker", "defender"];
pub const KEYS: &[&str] = &[];

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    Err(AleaError::invalid(
        fields.source,
        "the advanced battle is not written yet",
    ))
}
