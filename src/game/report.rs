//! What `alea run` prints after a game experiment: per case the players' win rates with their
//! intervals and mean scores, the endings and the mean game length; then where the files went.

use super::experiment::GameExperiment;
use super::sweep::GameRunResult;

fn percent(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2}%", 100.0 * x)
    } else {
        "–".into()
    }
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.2}%", 100.0 * x)
    } else {
        "–".into()
    }
}

fn number(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A p-value to 3 significant digits, or a bound when it is below what a double resolves.
fn p_value(p: f64) -> String {
    if !p.is_finite() {
        "–".into()
    } else if p < 1e-15 {
        "< 1e-15".into()
    } else if p < 0.001 {
        format!("{p:.2e}")
    } else {
        format!("{p:.3}")
    }
}

pub fn run_text(exp: &GameExperiment, result: &GameRunResult) -> String {
    let mut out = format!(
        "{}: {}\n  {} · {} games per case · seed {}\n",
        exp.name,
        exp.title,
        exp.scenario_label(),
        crate::output::thousands(exp.games),
        exp.seed
    );
    out += &format!("  {}\n", exp.policies_note());
    // One set-up for all cases, or each case's own when they differ.
    let shared = result
        .cases
        .first()
        .filter(|first| result.cases.iter().all(|c| c.describe == first.describe));
    if let Some(first) = shared {
        for line in &first.describe {
            out += &format!("  {line}\n");
        }
    }
    for case in &result.cases {
        out += "\n";
        if !case.label.is_empty() {
            out += &format!("{}\n", case.label);
        }
        if shared.is_none() {
            for line in &case.describe {
                out += &format!("  {line}\n");
            }
        }
        let name_w = case
            .players
            .iter()
            .map(|p| p.name.chars().count())
            .chain([6])
            .max()
            .unwrap_or(6);
        let policy_w = case
            .players
            .iter()
            .map(|p| p.policy.chars().count())
            .chain([6])
            .max()
            .unwrap_or(6);
        out += &format!(
            "  {:<name_w$}  {:<policy_w$}  {:>8}  {:<17}  mean score (SD)\n",
            "player", "policy", "win rate", "95% CI (Wilson)"
        );
        for p in &case.players {
            out += &format!(
                "  {:<name_w$}  {:<policy_w$}  {:>8}  {:<17}  {} ({})\n",
                p.name,
                p.policy,
                percent(p.win_rate),
                format!("{}–{}", percent(p.ci_low), percent(p.ci_high)),
                number(p.mean_score),
                number(p.sd_score)
            );
        }
        let endings: Vec<String> = case
            .endings
            .iter()
            .map(|e| format!("{} {}", e.name, percent(e.share)))
            .collect();
        out += &format!("  endings: {}\n", endings.join(", "));
        out += &format!(
            "  game length: mean {} turns (SD {}), turn cap {}\n",
            number(case.mean_turns),
            number(case.sd_turns),
            case.max_turns
        );
        if let Some(c) = &case.seat_chi_square {
            out += &format!(
                "  seat order: χ² = {:.2} against 1/{} each, df {}, p = {} ({})\n",
                c.statistic,
                case.players.len(),
                c.df,
                p_value(c.p_value),
                super::summary::SEAT_CHI_SQUARE_COUNTING
            );
        }
        if let Some((name, diffs)) = &case.baseline_difference {
            let parts: Vec<String> = case
                .players
                .iter()
                .zip(diffs)
                .map(|(p, d)| {
                    format!(
                        "{} {} ({} to {})",
                        p.name,
                        signed(d.0),
                        signed(d.1),
                        signed(d.2)
                    )
                })
                .collect();
            out += &format!(
                "  win rate less variant \"{name}\"'s (95% CI): {}\n",
                parts.join(", ")
            );
        }
        for (name, mean, sd) in &case.extras {
            out += &format!("  {name}: mean {} (SD {})\n", number(*mean), number(*sd));
        }
    }
    out += &format!(
        "\n{} games in {:.2} s ({} games/s) → {}\n",
        crate::output::thousands(result.games),
        result.seconds,
        crate::output::thousands(result.games_per_second().round() as u64),
        result.dir.display()
    );
    for f in &result.files {
        out += &format!("  {}\n", result.dir.join(f).display());
    }
    out
}
