//! Errors. Bad input (exit code 2) always names where it came from, the field, the value and what
//! is allowed; everything else is an I/O or internal failure (exit code 1).

use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum AleaError {
    /// A value the user gave that is not allowed.
    Input {
        source: String,
        field: String,
        value: String,
        allowed: String,
    },
    /// Input that cannot be reduced to one field (malformed TOML, a file that does not exist).
    Invalid {
        source: String,
        message: String,
    },
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    Internal(String),
}

pub type Result<T> = std::result::Result<T, AleaError>;

impl AleaError {
    pub fn input(
        source: impl Into<String>,
        field: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
    ) -> AleaError {
        AleaError::Input {
            source: source.into(),
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }

    pub fn invalid(source: impl Into<String>, message: impl Into<String>) -> AleaError {
        AleaError::Invalid {
            source: source.into(),
            message: message.into(),
        }
    }

    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> AleaError {
        AleaError::Io {
            path: path.into(),
            error,
        }
    }

    /// 2 for anything the user can fix in the input, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            AleaError::Input { .. } | AleaError::Invalid { .. } => 2,
            AleaError::Io { .. } | AleaError::Internal(_) => 1,
        }
    }
}

impl fmt::Display for AleaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AleaError::Input {
                source,
                field,
                value,
                allowed,
            } => write!(f, "{source}: `{field}` = {value} is not allowed: {allowed}"),
            AleaError::Invalid { source, message } => write!(f, "{source}: {message}"),
            AleaError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            AleaError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for AleaError {}

/// Names close to `wanted` among `known` (for "did you mean" hints).
pub fn close_matches<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let w = wanted.to_lowercase();
    let mut scored: Vec<(usize, &str)> = known
        .into_iter()
        .map(|k| (edit_distance(&w, &k.to_lowercase()), k))
        .filter(|(d, k)| *d <= (k.len() / 3).max(2) || k.to_lowercase().contains(&w))
        .collect();
    scored.sort();
    scored.into_iter().map(|(_, k)| k).take(5).collect()
}

/// " (did you mean a, b?)" when names close to `wanted` exist among `known`, else "".
pub fn did_you_mean<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let near = close_matches(wanted, known);
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(", "))
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_everything() {
        let e = AleaError::input(
            "battle.toml",
            "attacker.leader",
            5,
            "an integer from 0 to 3",
        );
        assert_eq!(
            e.to_string(),
            "battle.toml: `attacker.leader` = 5 is not allowed: an integer from 0 to 3"
        );
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn close_matches_find_typos() {
        assert_eq!(
            close_matches("infantri", ["infantry", "cavalry", "fleets"]),
            vec!["infantry"]
        );
        assert!(close_matches("zzz", ["infantry"]).is_empty());
    }
}
