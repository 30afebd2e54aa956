//! The files an experiment reads besides itself (its scenario file or folder, the policy files
//! it loads), each with its SHA-256, so that a merge can refuse shards that ran on different
//! scenario data, or data changed since they ran. The experiment file's own hash is kept apart
//! ([`super::Manifest::experiment_sha256`]).

use crate::error::{AleaError, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// The keys, anywhere in an experiment file, whose string values name files or folders the run
/// reads (paths relative to the working folder, as the loaders read them).
const PATH_KEYS: &[&str] = &["scenario", "policies_from"];

/// A scenario folder holds data files and notes: notes do not change results.
const NOTES_EXTENSION: &str = "md";

/// Path → SHA-256 of every file `experiment` names through `PATH_KEYS` (a folder: every file
/// under it but hidden ones and notes). A named path that does not exist is left out: the run
/// itself reports it.
pub fn hashed(experiment: &Path) -> Result<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(experiment).map_err(|e| AleaError::io(experiment, e))?;
    let mut found = BTreeMap::new();
    let Ok(doc) = text.parse::<toml::Table>() else {
        // A file that does not parse never gets this far in a run; nothing to hash.
        return Ok(found);
    };
    let mut paths = Vec::new();
    collect_paths(&toml::Value::Table(doc), &mut paths);
    for path in paths {
        hash_path(Path::new(&path), &mut found)?;
    }
    Ok(found)
}

fn collect_paths(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::Table(table) => {
            for (key, v) in table {
                match v {
                    toml::Value::String(s) if PATH_KEYS.contains(&key.as_str()) => {
                        out.push(s.clone())
                    }
                    _ => collect_paths(v, out),
                }
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|v| collect_paths(v, out)),
        _ => {}
    }
}

fn hash_path(path: &Path, out: &mut BTreeMap<String, String>) -> Result<()> {
    let hidden = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n != "." && n != "..");
    if hidden {
        return Ok(());
    }
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| AleaError::io(path, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            hash_path(&entry, out)?;
        }
    } else if path.is_file() && path.extension().is_none_or(|e| e != NOTES_EXTENSION) {
        let bytes = std::fs::read(path).map_err(|e| AleaError::io(path, e))?;
        out.insert(
            path.display().to_string(),
            crate::output::sha256_hex(&bytes),
        );
    }
    Ok(())
}

/// The first way `now` differs from `then` (path → hash), said for an error, or `None`.
pub fn difference(
    then: &BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
) -> Option<String> {
    for (path, hash) in then {
        match now.get(path) {
            None => return Some(format!("{path} is gone or no longer named")),
            Some(h) if h != hash => {
                return Some(format!(
                    "{path} differs (SHA-256 {}… against {}…)",
                    &h[..12.min(h.len())],
                    &hash[..12.min(hash.len())]
                ))
            }
            Some(_) => {}
        }
    }
    now.keys()
        .find(|p| !then.contains_key(*p))
        .map(|p| format!("{p} is read now but was not then"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("alea-inputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_scenario_folder_and_a_policy_file_are_hashed_file_by_file_without_notes() {
        let dir = temp_dir("folder");
        let scenario = dir.join("scenario");
        std::fs::create_dir_all(&scenario).unwrap();
        std::fs::write(scenario.join("map.toml"), "a = 1").unwrap();
        std::fs::write(scenario.join("README.md"), "notes").unwrap();
        std::fs::write(scenario.join(".swap"), "editor").unwrap();
        let policies = dir.join("tuned.toml");
        std::fs::write(&policies, "[x]").unwrap();
        let exp = dir.join("exp.toml");
        std::fs::write(
            &exp,
            format!(
                "name = \"e\"\n[game]\nscenario = \"{}\"\n[[ladder.rungs]]\npolicies_from = \"{}\"\ndescription = \"{}\"\n",
                scenario.display(),
                policies.display(),
                dir.join("exp.toml").display()
            ),
        )
        .unwrap();
        let found = hashed(&exp).unwrap();
        let keys: Vec<&String> = found.keys().collect();
        assert_eq!(
            keys,
            vec![
                &scenario.join("map.toml").display().to_string(),
                &policies.display().to_string()
            ]
        );
        assert_eq!(
            found[&policies.display().to_string()],
            crate::output::sha256_hex(b"[x]")
        );

        std::fs::write(scenario.join("map.toml"), "a = 2").unwrap();
        let changed = hashed(&exp).unwrap();
        let why = difference(&found, &changed).unwrap();
        assert!(why.contains("map.toml differs"), "{why}");
        assert_eq!(difference(&changed, &changed), None);
        std::fs::write(scenario.join("extra.toml"), "b = 1").unwrap();
        let why = difference(&changed, &hashed(&exp).unwrap()).unwrap();
        assert!(why.contains("extra.toml is read now"), "{why}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
