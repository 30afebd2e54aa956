//! What a tally says about one case: win rates with confidence intervals, scores, endings, game
//! length, extras; and the names players get in column names.
//!
//! Win rates are mean win shares (a shared win counts 1/k for each of the k winners). Their 95%
//! confidence interval is the Wilson score interval for `n` games: a share lies in [0, 1], so its
//! variance is at most p(1 − p), the variance the Wilson interval assumes: exact in form for sole
//! wins, conservative for shared ones, and never collapsing to a point at 0% or 100%. The
//! standard error `win_se` is the one observed (sample SD of the shares / √n). Endings get the
//! Wilson interval of their share of games.
//!
//! For a game that asks ([`GameModel::tests_equal_seats`]) the case also carries Pearson's χ² of
//! the win counts against equal shares: each player's count is the sum of its win shares (so a
//! win shared by k counts 1/k for each), games nobody wins count for no one, and the expected
//! count is the total over the players / n, with n − 1 degrees of freedom. Shared wins make the
//! counts less variable than multinomial ones, so the test is, if anything, conservative.

use super::tally::GameTally;
use super::GameModel;
use crate::output::tidy;
use crate::stats::{chi_square_uniform, normal_ci95, ChiSquare, Z95};
use serde_json::{json, Value as Json};

/// The Wilson score interval of a proportion `p` observed over `n` trials, at 95%.
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 || !p.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    // At 0 and 1 the bound is exactly the estimate (floating point would miss it by 1e-18).
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// A player's name as a column-name key: lowercase letters and digits, `_` between words
/// ("Beta Team" → "beta_team", "Égypte" → "égypte").
pub fn player_key(name: &str) -> String {
    let mut key = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            key.extend(c.to_lowercase());
        } else if !key.is_empty() && !key.ends_with('_') {
            key.push('_');
        }
    }
    while key.ends_with('_') {
        key.pop();
    }
    if key.is_empty() {
        key.push_str("player");
    }
    key
}

/// The keys of all players, made unique (`rome`, `rome_2`) when two names give the same key.
pub fn player_keys(names: &[String]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let base = player_key(name);
        let mut key = base.clone();
        let mut k = 2;
        while keys.contains(&key) {
            key = format!("{base}_{k}");
            k += 1;
        }
        keys.push(key);
    }
    keys
}

/// How the seat χ² counts wins, said wherever the test is shown.
pub const SEAT_CHI_SQUARE_COUNTING: &str =
    "a win shared by k counts 1/k for each; games nobody wins are left out";

/// A win-rate difference from the baseline and its 95% interval: (difference, low, high).
pub type Difference = (f64, f64, f64);

/// How a difference from the baseline variant is bounded, said wherever it is shown.
pub const BASELINE_INTERVAL: &str =
    "95% normal interval, difference ± 1.96 √(se² + se_baseline²), the two cases' games independent";

/// Gives every case not of variant `baseline` (whose cases are `baseline * grid + point`) its
/// players' win-rate differences from the baseline case at the same point, where both have the
/// same players.
pub fn set_baseline_differences(
    cases: &mut [CaseSummary],
    baseline: usize,
    grid: usize,
    name: &str,
) {
    let base: Vec<Option<Vec<(String, f64, f64)>>> = (0..grid)
        .map(|p| {
            cases
                .iter()
                .find(|c| c.variant == baseline && c.point == p)
                .map(|c| {
                    c.players
                        .iter()
                        .map(|q| (q.name.clone(), q.win_rate, q.win_se))
                        .collect()
                })
        })
        .collect();
    for case in cases.iter_mut() {
        if case.variant == baseline {
            continue;
        }
        let Some(Some(b)) = base.get(case.point) else {
            continue;
        };
        let same = b.len() == case.players.len()
            && b.iter().zip(&case.players).all(|(x, p)| x.0 == p.name);
        if !same {
            continue;
        }
        let diffs = case
            .players
            .iter()
            .zip(b)
            .map(|(p, &(_, w, se))| {
                let d = p.win_rate - w;
                let (low, high) = normal_ci95(d, (p.win_se * p.win_se + se * se).sqrt());
                (tidy(d), tidy(low), tidy(high))
            })
            .collect();
        case.baseline_difference = Some((name.to_string(), diffs));
    }
}

#[derive(Clone, Debug)]
pub struct PlayerStats {
    pub name: String,
    pub key: String,
    pub policy: String,
    pub win_rate: f64,
    pub win_se: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub mean_score: f64,
    pub sd_score: f64,
    pub min_score: f64,
    pub max_score: f64,
}

#[derive(Clone, Debug)]
pub struct EndingStats {
    pub name: String,
    pub count: u64,
    pub share: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// One (variant, point) of an experiment, played and summarised.
#[derive(Clone, Debug)]
pub struct CaseSummary {
    pub variant: usize,
    pub point: usize,
    pub variant_name: String,
    /// What tells the case apart (`variant "x", field = value`); empty for a lone case.
    pub label: String,
    pub stream: u64,
    pub games: u64,
    pub describe: Vec<String>,
    pub players: Vec<PlayerStats>,
    pub endings: Vec<EndingStats>,
    pub mean_turns: f64,
    pub sd_turns: f64,
    pub max_turns: u32,
    /// Names, mean and SD of the game's extra columns.
    pub extras: Vec<(String, f64, f64)>,
    pub metrics: Vec<String>,
    pub globals: Vec<String>,
    /// χ² of the win counts against equal seats, when the game asks for it.
    pub seat_chi_square: Option<ChiSquare>,
    /// The baseline variant's name and, player by player, this case's win rate less the
    /// baseline's at the same point with its 95% interval (see [`set_baseline_differences`]).
    pub baseline_difference: Option<(String, Vec<Difference>)>,
    /// Kept for the per-turn charts and tables.
    pub tally: GameTally,
}

impl CaseSummary {
    pub fn new(
        model: &dyn GameModel,
        tally: GameTally,
        (variant, point): (usize, usize),
        variant_name: &str,
        label: String,
        stream: u64,
    ) -> CaseSummary {
        let n = tally.games;
        // Rounded to 12 significant digits, so a fixed-point share of 1/3 does not print as
        // 0.08299999999968956.
        let t = |x: f64| tidy(x);
        let keys = player_keys(model.players());
        let players = model
            .players()
            .iter()
            .enumerate()
            .map(|(p, name)| {
                let win_rate = t(tally.win[p].mean(n));
                let (ci_low, ci_high) = wilson(win_rate, n);
                PlayerStats {
                    name: name.clone(),
                    key: keys[p].clone(),
                    policy: model.player_policies().get(p).cloned().unwrap_or_default(),
                    win_rate,
                    win_se: t((tally.win[p].variance(n) / n as f64).sqrt()),
                    ci_low: t(ci_low),
                    ci_high: t(ci_high),
                    mean_score: t(tally.score[p].mean(n)),
                    sd_score: t(tally.score[p].sd(n)),
                    min_score: tally.score_min[p],
                    max_score: tally.score_max[p],
                }
            })
            .collect();
        let groups = model.ending_groups().iter().map(|(name, members)| {
            let count: u64 = members.iter().map(|&e| tally.endings[e]).sum();
            (*name, count)
        });
        let endings = model
            .endings()
            .iter()
            .copied()
            .zip(tally.endings.iter().copied())
            .chain(groups)
            .map(|(name, count)| {
                let share = if n == 0 {
                    f64::NAN
                } else {
                    count as f64 / n as f64
                };
                let (ci_low, ci_high) = wilson(share, n);
                EndingStats {
                    name: name.to_string(),
                    count,
                    share: t(share),
                    ci_low: t(ci_low),
                    ci_high: t(ci_high),
                }
            })
            .collect();
        let (mean_turns, sd_turns) = tally.length_moments();
        let seat_chi_square = if model.tests_equal_seats() {
            let wins: Vec<f64> = (0..model.players().len())
                .map(|p| tally.win[p].mean(n) * n as f64)
                .collect();
            chi_square_uniform(&wins).map(|c| ChiSquare {
                statistic: t(c.statistic),
                p_value: t(c.p_value),
                ..c
            })
        } else {
            None
        };
        CaseSummary {
            variant,
            point,
            variant_name: variant_name.to_string(),
            label,
            stream,
            games: n,
            describe: model.describe(),
            players,
            endings,
            mean_turns: t(mean_turns),
            sd_turns: t(sd_turns),
            max_turns: model.max_turns(),
            extras: model
                .game_columns()
                .iter()
                .zip(&tally.extra)
                .map(|(name, m)| (name.to_string(), t(m.mean(n)), t(m.sd(n))))
                .collect(),
            metrics: model.turn_metrics().iter().map(|s| s.to_string()).collect(),
            globals: model
                .global_metrics()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            seat_chi_square,
            baseline_difference: None,
            tally,
        }
    }

    /// Share of games that lasted `t` turns, for t = 1..=max_turns.
    pub fn length_shares(&self) -> Vec<f64> {
        let n = self.games.max(1) as f64;
        self.tally.length.iter().map(|&c| c as f64 / n).collect()
    }

    /// The case as JSON (NaN becomes null). `point` maps the swept fields to their values.
    pub fn to_json(&self, point: Json) -> Json {
        let mut case = json!({
            "variant": self.variant_name,
            "point_index": self.point,
            "point": point,
            "stream": self.stream,
            "games": self.games,
            "describe": self.describe,
            "players": self.players.iter().map(|p| json!({
                "player": p.name,
                "key": p.key,
                "policy": p.policy,
                "win_rate": p.win_rate,
                "win_se": p.win_se,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "mean_score": p.mean_score,
                "sd_score": p.sd_score,
                "min_score": p.min_score,
                "max_score": p.max_score,
            })).collect::<Vec<_>>(),
            "endings": self.endings.iter().map(|e| json!({
                "ending": e.name,
                "games": e.count,
                "share": e.share,
                "ci_low": e.ci_low,
                "ci_high": e.ci_high,
            })).collect::<Vec<_>>(),
            "game_length": {
                "mean": self.mean_turns,
                "sd": self.sd_turns,
                "max_turns": self.max_turns,
                "games_by_turns": self.tally.length,
            },
            "extras": self.extras.iter().map(|(name, mean, sd)| json!({
                "name": name, "mean": mean, "sd": sd,
            })).collect::<Vec<_>>(),
        });
        if let Some((name, diffs)) = &self.baseline_difference {
            case["difference_from_baseline"] = json!({
                "baseline": name,
                "interval": BASELINE_INTERVAL,
                "players": self.players.iter().zip(diffs).map(|(p, d)| json!({
                    "player": p.name,
                    "difference": d.0,
                    "ci_low": d.1,
                    "ci_high": d.2,
                })).collect::<Vec<_>>(),
            });
        }
        if let Some(c) = &self.seat_chi_square {
            case["seat_chi_square"] = json!({
                "test": "Pearson χ² of the win counts against an equal share per seat (1/n)",
                "counted": SEAT_CHI_SQUARE_COUNTING,
                "statistic": c.statistic,
                "df": c.df,
                "p_value": c.p_value,
            });
        }
        case
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_contain_the_estimate_and_stay_in_bounds() {
        let (lo, hi) = wilson(0.0, 100);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.03 && hi < 0.04, "{hi}");
        let (lo, hi) = wilson(0.5, 10_000);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.5098).abs() < 1e-3);
        let (lo, hi) = wilson(1.0, 10);
        assert!(lo < 1.0 && hi == 1.0);
    }

    #[test]
    fn player_keys_are_lowercase_words_and_unique() {
        let names: Vec<String> = ["Rome", "Beta Team", "Égypte ptolémaïque", "rome", "--"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            player_keys(&names),
            vec![
                "rome",
                "beta_team",
                "égypte_ptolémaïque",
                "rome_2",
                "player"
            ]
        );
    }
}
