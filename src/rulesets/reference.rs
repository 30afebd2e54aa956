//! The reference page of each ruleset (`docs/rulesets/<slug>.md`), written from the declarations
//! the code itself reads: battles and their keys, rule options, scenarios, game policies. A test
//! compares the committed pages with these, so the docs cannot drift from the code.

use super::{Ruleset, RULESETS};
use crate::error::{AleaError, Result};
use std::path::{Path, PathBuf};

/// Where the pages live, from the repository root.
pub const DOCS_DIR: &str = "docs/rulesets";

/// The command that rewrites the pages.
pub const REGENERATE: &str = "cargo run --release -- docs";

/// The page of one ruleset, in Markdown.
pub fn markdown(r: &Ruleset) -> String {
    let mut md = String::new();
    let mut line = |text: String| {
        md.push_str(&text);
        md.push('\n');
    };
    line(format!("# {} (`{}`)", r.title, r.slug));
    line(String::new());
    line(format!(
        "Generated from the code by `{REGENERATE}`; do not edit by hand. Rules digest: `{}`. \
         Back to the [README](../../README.md).",
        r.digest
    ));
    line(String::new());
    line("## Battles".into());
    line(String::new());
    if r.battles.is_empty() {
        line("None yet.".into());
        line(String::new());
    }
    for b in r.battles {
        line(format!("### `{}`", b.name));
        line(String::new());
        line(format!("{}.", capitalised(b.summary)));
        line(String::new());
        line(format!(
            "Outcomes: {}. Losses are counted in {}.",
            b.outcomes
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", "),
            b.loss_unit
        ));
        line(String::new());
        line("Keys of a battle file (`ruleset`, `battle` and `[options]` aside):".into());
        line(String::new());
        for k in b.doc_lines() {
            line(format!("- {k}"));
        }
        line(String::new());
    }
    line("## Rule options".into());
    line(String::new());
    if r.options.is_empty() {
        line("None.".into());
    } else {
        line("Set under `[options]` in a battle or experiment file, or with `--option name=value`; the default is the digest's recommended reading.".into());
        line(String::new());
        line("| option | default | allowed | applies to | where the rules discuss it | what it decides |".into());
        line("|---|---|---|---|---|---|".into());
        for o in r.options {
            line(format!(
                "| `{}` | `{}` | {} | {} | {} | {} |",
                o.name,
                o.default,
                o.kind.allowed(),
                o.battles.join(", "),
                o.reference,
                o.summary.replace('|', "\\|")
            ));
        }
    }
    line(String::new());
    line("## Full game".into());
    line(String::new());
    match r.policies.map(|p| p.help) {
        None => line("Not yet: this ruleset offers battles only.".into()),
        Some(help) => {
            line("Scenarios:".into());
            line(String::new());
            for s in scenario_files(r.slug) {
                line(format!("- `{s}`"));
            }
            line(String::new());
            line("Policies (under `[game.policies]`; each parameter's range and default):".into());
            line(String::new());
            line("```text".into());
            for p in help() {
                line(p);
            }
            line("```".into());
        }
    }
    md
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The scenario files shipped for a ruleset, and the scenario folders (a scenario whose data is
/// split over several files, such as Invasions' `scenario-1/`), sorted.
pub fn scenario_files(slug: &str) -> Vec<String> {
    let dir = Path::new("scenarios").join(slug);
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml") || p.is_dir())
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The path of a ruleset's page under `dir`.
pub fn page_path(dir: &Path, r: &Ruleset) -> PathBuf {
    dir.join(format!("{}.md", r.slug))
}

/// Writes every ruleset's page under `dir`; returns the paths written.
pub fn write_pages(dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| AleaError::io(dir, e))?;
    RULESETS
        .iter()
        .map(|r| {
            let path = page_path(dir, r);
            std::fs::write(&path, markdown(r)).map_err(|e| AleaError::io(&path, e))?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_ruleset_pages_match_the_code() {
        for r in RULESETS {
            let path = page_path(Path::new(DOCS_DIR), r);
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == markdown(r),
                "{} differs from what the code declares; run `{REGENERATE}` to rewrite it",
                path.display()
            );
        }
    }

    #[test]
    fn every_battle_key_and_option_is_on_its_page() {
        for r in RULESETS {
            let page = markdown(r);
            for b in r.battles {
                assert!(page.contains(&format!("### `{}`", b.name)));
                for k in b.doc_lines() {
                    assert!(page.contains(&k), "{}: {k}", r.slug);
                }
            }
            for o in r.options {
                assert!(page.contains(&format!("| `{}` |", o.name)), "{}", o.name);
            }
        }
    }
}
