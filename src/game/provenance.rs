//! Where a scenario's values come from, shared by every game whose scenario is a pair of files:
//! `rulebook.toml` (facts as printed, each tagged `rulebook` with its lines) and
//! `abstraction.toml` (the stand-ins a rulebook lacks, each tagged `assumed` or `placeholder`
//! with a reason, so every run can say what its results rest on).

use crate::error::{AleaError, Result};
use serde::de::DeserializeOwned;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Provenance {
    Rulebook,
    Assumed,
    Placeholder,
}

impl Provenance {
    pub const NAMES: [&'static str; 3] = ["rulebook", "assumed", "placeholder"];
    pub fn name(self) -> &'static str {
        Provenance::NAMES[self as usize]
    }
}

/// One table (or row) of the abstraction that is not printed: which file, where, what, why.
#[derive(Clone, Debug)]
pub struct StandIn {
    pub file: String,
    pub field: String,
    /// What a row is about (a nation key, a set), empty for a whole table.
    pub subject: String,
    pub provenance: Provenance,
    pub why: String,
}

/// The stand-ins, placeholders first.
pub fn sorted(stand_ins: &[StandIn]) -> Vec<&StandIn> {
    let mut out: Vec<&StandIn> = stand_ins.iter().collect();
    out.sort_by_key(|s| std::cmp::Reverse(s.provenance));
    out
}

/// One line per stand-in, placeholders first, for a run's report.
pub fn summary(stand_ins: &[StandIn]) -> String {
    let mut text = String::new();
    for s in sorted(stand_ins) {
        let p = s.provenance.name();
        let about = if s.subject.is_empty() {
            String::new()
        } else {
            format!(" {}", s.subject)
        };
        text.push_str(&format!(
            "{p:<11} {} [{}]{about}: {}\n",
            s.file, s.field, s.why
        ));
    }
    text
}

/// A required text field (a reason, rulebook lines) that is there and not blank.
pub fn present(file: &str, field: &str, text: Option<&str>, what: &str) -> Result<()> {
    match text {
        Some(t) if !t.trim().is_empty() => Ok(()),
        _ => Err(AleaError::input(file, field, "nothing", what)),
    }
}

/// A scenario file the user names: it is input, so a missing file is exit code 2, like bad data.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| {
        AleaError::invalid(
            path.display().to_string(),
            format!("cannot read the scenario file ({e})"),
        )
    })
}

/// The two files of a scenario as their serde shapes, errors naming the file.
pub fn parse_pair<R: DeserializeOwned, A: DeserializeOwned>(
    rb_name: &str,
    rb_text: &str,
    ab_name: &str,
    ab_text: &str,
) -> Result<(R, A)> {
    let rb = toml::from_str(rb_text)
        .map_err(|e| crate::spec::toml_error(rb_name, "scenario file", rb_text, &e))?;
    let ab = toml::from_str(ab_text)
        .map_err(|e| crate::spec::toml_error(ab_name, "scenario file", ab_text, &e))?;
    Ok((rb, ab))
}
