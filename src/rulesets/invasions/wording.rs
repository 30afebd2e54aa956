//! Phrases the procedures' descriptions share.

/// Named modifiers as "name +1, other -2", or "none".
pub fn modifiers(breakdown: &[(&str, i32)]) -> String {
    if breakdown.is_empty() {
        return "none".to_string();
    }
    breakdown
        .iter()
        .map(|(n, m)| format!("{n} {m:+}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A leader whose combat bonus gives that many rerolls, or "no leader".
pub fn leader_with_rerolls(leader: Option<u32>) -> String {
    match leader {
        Some(b) => format!(
            "a leader of combat bonus {b} ({b} reroll{})",
            if b == 1 { "" } else { "s" }
        ),
        None => "no leader".to_string(),
    }
}
