//! Placeholder: being written.

use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::rulesets::BattleModel;
use crate::spec::Fields;

pub const SUMMARY: &str = "(being written)";
pub const OUTCOMES: &[&str] = &["attacker", "defender", "none"];
pub const KEYS: &[&str] = &[];

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    Err(AleaError::invalid(
        fields.source,
        "this battle is not implemented yet",
    ))
}
