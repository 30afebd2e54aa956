//! The charts of a game experiment (PNG + SVG each):
//!
//! - `win-rates`: each player's win rate with its 95% Wilson interval; bars per player (one bar
//!   per variant side by side). With a sweep, one chart per variant (and per value of a second
//!   axis): a line per player along the first axis, or bars per player (one per value) when the
//!   axis sweeps names rather than numbers.
//! - `endings`: the share of games ending each way, drawn like the win rates.
//! - `game-length`: the histogram of game lengths; with several cases, a line per case.
//! - `score-over-turns`: per case (at most [`MAX_CASE_CHARTS`]), the chosen turn metric's mean per
//!   player at the end of each turn, over the games still running then, with a ±1 SD band.
//!
//! Charts with more than a handful of lines put their legend beside the plot, so a dozen players
//! stay legible.

use super::experiment::GameExperiment;
use super::summary::CaseSummary;
use crate::battle::experiment::axis_value_text;
use crate::charts::{
    self, axis_label, axis_number, file_names, thin, BarChart, BarGroup, Histogram, LineChart,
    Point, Series,
};
use crate::error::Result;
use crate::output::thousands;
use crate::output::OutputDir;
use std::path::PathBuf;

/// Per-case charts beyond this many are left out (the tables have every case).
pub const MAX_CASE_CHARTS: usize = 12;
/// Most lines in one chart of cases.
const MAX_LINES: usize = 10;
/// More lines than this put the legend beside the plot.
const INSIDE_LEGEND_LINES: usize = 6;

/// A file-name-safe version of `text`: lowercase letters and digits joined by `-`.
fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    let mut s: String = s.trim_end_matches('-').chars().take(60).collect();
    while s.ends_with('-') {
        s.pop();
    }
    s
}

/// Chart files of one experiment: unique stems, the names of what was written.
struct Files<'a> {
    dir: &'a OutputDir,
    stems: Vec<String>,
    written: Vec<String>,
}

impl Files<'_> {
    /// `base` alone when `part` is empty, else `base-<slug of part>`, made unique.
    fn stem(&mut self, base: &str, part: &str) -> PathBuf {
        let tail = slug(part);
        let mut stem = if tail.is_empty() {
            base.to_string()
        } else {
            format!("{base}-{tail}")
        };
        let mut k = 2;
        while self.stems.contains(&stem) {
            stem = format!("{base}-{tail}-{k}");
            k += 1;
        }
        self.stems.push(stem.clone());
        self.dir.path(&stem)
    }

    fn add(&mut self, paths: Vec<PathBuf>) {
        self.written.extend(file_names(&paths));
    }
}

/// One estimate with its 95% interval: `(value, low, high)`.
type Estimate = (f64, f64, f64);

/// What a by-case chart draws: an estimate per item (player or ending) per case.
struct Measure<'a> {
    base: &'a str,
    what: &'a str,
    item_axis: &'a str,
    y_label: &'a str,
    items: Vec<String>,
    labels: Vec<String>,
    value: &'a dyn Fn(&CaseSummary, &str) -> Option<Estimate>,
    ci_note: &'a str,
}

const WILSON: &str = "whiskers: 95% Wilson CI";

/// Draws a measure: bars without a sweep; with one, a chart per variant and second-axis value.
fn by_case(
    exp: &GameExperiment,
    cases: &[CaseSummary],
    m: &Measure,
    files: &mut Files,
) -> Result<()> {
    let grid = exp.grid_len();
    let scenario = exp.scenario_label();
    let ci_note = m.ci_note;
    if exp.axes.is_empty() {
        let groups = exp
            .variants
            .iter()
            .enumerate()
            .map(|(v, variant)| bar_group(&variant.name, &cases[v * grid], m))
            .collect();
        let per = if exp.variants.len() > 1 {
            " per variant"
        } else {
            ""
        };
        let chart = BarChart {
            title: format!("{}: {}", exp.title, m.what),
            subtitle: Some(format!(
                "{scenario} · {} games{per} · {ci_note}",
                thousands(exp.games)
            )),
            x_label: m.item_axis.to_string(),
            y_label: m.y_label.to_string(),
            categories: m.labels.clone(),
            groups,
            y_range: None,
        };
        let stem = files.stem(m.base, "");
        files.add(charts::draw_bar_chart(&chart, &stem)?);
        return Ok(());
    }
    let x = &exp.axes[0];
    let x_numbers: Option<Vec<f64>> = x.values.iter().map(axis_number).collect();
    let second_len = exp.axes.get(1).map_or(1, |a| a.values.len());
    for (v, variant) in exp.variants.iter().enumerate() {
        for s in 0..second_len {
            // The points of this panel, in the order of the first axis.
            let points: Vec<&CaseSummary> = (0..x.values.len())
                .map(|i| &cases[v * grid + i * second_len + s])
                .collect();
            let mut panel = Vec::new();
            if exp.variants.len() > 1 {
                panel.push(format!("variant \"{}\"", variant.name));
            }
            if let Some(a) = exp.axes.get(1) {
                panel.push(format!("{} = {}", a.field, axis_value_text(&a.values[s])));
            }
            let panel = panel.join(", ");
            let mut subtitle = vec![scenario.clone()];
            if !panel.is_empty() {
                subtitle.push(panel.clone());
            }
            subtitle.push(format!("{} games per point", thousands(exp.games)));
            subtitle.push(ci_note.to_string());
            let title = format!("{}: {} by {}", exp.title, m.what, x.field);
            let stem = files.stem(m.base, &panel);
            let drawn = match &x_numbers {
                Some(xs) => {
                    let series: Vec<Series> = m
                        .items
                        .iter()
                        .zip(&m.labels)
                        .map(|(item, label)| Series {
                            name: label.clone(),
                            points: xs
                                .iter()
                                .zip(&points)
                                .filter_map(|(&xv, case)| {
                                    let (y, lo, hi) = (m.value)(case, item)?;
                                    Some(Point::with_ci(xv, y, lo, hi))
                                })
                                .collect(),
                        })
                        .collect();
                    let chart = LineChart {
                        title,
                        subtitle: Some(subtitle.join(" · ")),
                        x_label: axis_label(&x.field),
                        y_label: m.y_label.to_string(),
                        legend_outside: series.len() > INSIDE_LEGEND_LINES,
                        series,
                        y_range: None,
                    };
                    charts::draw_line_chart(&chart, &stem)
                }
                None => {
                    let chart = BarChart {
                        title,
                        subtitle: Some(subtitle.join(" · ")),
                        x_label: m.item_axis.to_string(),
                        y_label: m.y_label.to_string(),
                        categories: m.labels.clone(),
                        groups: x
                            .values
                            .iter()
                            .zip(&points)
                            .map(|(xv, case)| {
                                bar_group(
                                    &format!("{} = {}", x.field, axis_value_text(xv)),
                                    case,
                                    m,
                                )
                            })
                            .collect(),
                        y_range: None,
                    };
                    charts::draw_bar_chart(&chart, &stem)
                }
            };
            files.add(drawn?);
        }
    }
    Ok(())
}

fn bar_group(name: &str, case: &CaseSummary, m: &Measure) -> BarGroup {
    let estimates: Vec<Estimate> = m
        .items
        .iter()
        .map(|item| (m.value)(case, item).unwrap_or((f64::NAN, f64::NAN, f64::NAN)))
        .collect();
    BarGroup {
        name: name.to_string(),
        values: estimates.iter().map(|e| e.0).collect(),
        ci: Some(estimates.iter().map(|e| (e.1, e.2)).collect()),
    }
}

/// Players in first-seen order, each labelled with its policy when every case agrees on it.
fn player_items(cases: &[CaseSummary]) -> (Vec<String>, Vec<String>) {
    let mut names: Vec<String> = Vec::new();
    for c in cases {
        for p in &c.players {
            if !names.contains(&p.name) {
                names.push(p.name.clone());
            }
        }
    }
    let labels = names
        .iter()
        .map(|name| {
            let mut policies = cases
                .iter()
                .filter_map(|c| c.players.iter().find(|p| &p.name == name))
                .map(|p| p.policy.as_str());
            let first = policies.next().unwrap_or("");
            if !first.is_empty() && policies.all(|p| p == first) {
                format!("{name} ({first})")
            } else {
                name.clone()
            }
        })
        .collect();
    (names, labels)
}

fn ending_items(cases: &[CaseSummary]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in cases {
        for e in &c.endings {
            if !names.contains(&e.name) {
                names.push(e.name.clone());
            }
        }
    }
    names
}

/// A case's name in legends and titles: its label, or the variant's name for a lone case.
fn case_name(case: &CaseSummary) -> String {
    if case.label.is_empty() {
        case.variant_name.clone()
    } else {
        case.label.clone()
    }
}

fn game_length(exp: &GameExperiment, cases: &[CaseSummary], files: &mut Files) -> Result<()> {
    let scenario = exp.scenario_label();
    let x_label = "game length (turns)".to_string();
    let y_label = "share of games".to_string();
    if let [case] = cases {
        let chart = Histogram {
            title: format!("{}: game length", exp.title),
            subtitle: Some(format!(
                "{scenario} · {} games · mean {:.1} turns (SD {:.1}) · turn cap {}",
                thousands(case.games),
                case.mean_turns,
                case.sd_turns,
                case.max_turns
            )),
            x_label,
            y_label,
            bins: case
                .length_shares()
                .iter()
                .enumerate()
                .map(|(t, &share)| (t as f64 + 0.5, t as f64 + 1.5, share))
                .collect(),
        };
        let stem = files.stem("game-length", "");
        files.add(charts::draw_histogram(&chart, &stem)?);
        return Ok(());
    }
    let shown = thin(cases.len(), MAX_LINES);
    let series: Vec<Series> = shown
        .iter()
        .map(|&i| {
            let case = &cases[i];
            Series {
                name: format!("{} (mean {:.1})", case_name(case), case.mean_turns),
                points: case
                    .length_shares()
                    .iter()
                    .enumerate()
                    .map(|(t, &share)| Point::new(t as f64 + 1.0, share))
                    .collect(),
            }
        })
        .collect();
    let mut subtitle = format!("{scenario} · {} games per case", thousands(exp.games));
    if shown.len() < cases.len() {
        subtitle += &format!(
            " · {} of {} cases shown (all in summary.json)",
            shown.len(),
            cases.len()
        );
    }
    let chart = LineChart {
        title: format!("{}: game length", exp.title),
        subtitle: Some(subtitle),
        x_label,
        y_label,
        legend_outside: series.len() > INSIDE_LEGEND_LINES,
        series,
        y_range: None,
    };
    let stem = files.stem("game-length", "");
    files.add(charts::draw_line_chart(&chart, &stem)?);
    Ok(())
}

fn over_turns(
    exp: &GameExperiment,
    cases: &[CaseSummary],
    metric: &str,
    files: &mut Files,
) -> Result<()> {
    let scenario = exp.scenario_label();
    for case in cases.iter().take(MAX_CASE_CHARTS) {
        let Some(m) = case.metrics.iter().position(|x| x == metric) else {
            continue;
        };
        let stats = &case.tally.turns;
        let series: Vec<Series> = case
            .players
            .iter()
            .enumerate()
            .map(|(p, player)| Series {
                name: player.name.clone(),
                points: (1..=case.max_turns)
                    .take_while(|&t| stats.running[t as usize - 1] > 0)
                    .map(|t| {
                        let (_, mean, sd) = stats.player_metric(t, p, m);
                        let band = sd.is_finite().then_some((mean - sd, mean + sd));
                        Point {
                            x: t as f64,
                            y: mean,
                            ci: None,
                            band,
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut subtitle = vec![scenario.clone()];
        if !case.label.is_empty() {
            subtitle.push(case.label.clone());
        }
        subtitle.push(format!(
            "{} games; at each turn the mean over the games still running then · band: ±1 SD",
            thousands(case.games)
        ));
        let chart = LineChart {
            title: format!("{}: {metric} over turns", exp.title),
            subtitle: Some(subtitle.join(" · ")),
            x_label: "turn".into(),
            y_label: format!("{metric} (mean, band ±1 SD)"),
            legend_outside: series.len() > INSIDE_LEGEND_LINES,
            series,
            y_range: None,
        };
        let stem = files.stem("score-over-turns", &case.label);
        files.add(charts::draw_line_chart(&chart, &stem)?);
    }
    Ok(())
}

/// One chart per whole-game metric (Treasury, Unrest, ...): its mean over turns, a line per case.
fn globals_over_turns(
    exp: &GameExperiment,
    cases: &[CaseSummary],
    files: &mut Files,
) -> Result<()> {
    let Some(first) = cases.first() else {
        return Ok(());
    };
    let scenario = exp.scenario_label();
    for (g, name) in first.globals.iter().enumerate() {
        let series: Vec<Series> = cases
            .iter()
            .take(MAX_CASE_CHARTS)
            .map(|case| {
                let stats = &case.tally.turns;
                Series {
                    name: case_name(case),
                    points: (1..=case.max_turns)
                        .take_while(|&t| stats.running[t as usize - 1] > 0)
                        .map(|t| {
                            let (_, mean, sd) = stats.global_metric(t, g);
                            Point {
                                x: t as f64,
                                y: mean,
                                ci: None,
                                band: (cases.len() == 1 && sd.is_finite())
                                    .then_some((mean - sd, mean + sd)),
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        let band = if cases.len() == 1 {
            " · band: ±1 SD"
        } else {
            ""
        };
        let chart = LineChart {
            title: format!("{}: {} over turns", exp.title, name.replace('_', " ")),
            subtitle: Some(format!(
                "{scenario} · {} games per case; at each turn the mean over the games still running then{band}",
                thousands(exp.games)
            )),
            x_label: "turn".into(),
            y_label: format!("{} (mean)", name.replace('_', " ")),
            legend_outside: series.len() > INSIDE_LEGEND_LINES,
            series,
            y_range: None,
        };
        let stem = files.stem(&format!("{}-over-turns", slug(name)), "");
        files.add(charts::draw_line_chart(&chart, &stem)?);
    }
    Ok(())
}

/// Draws every chart into `dir`; returns the file names written.
pub fn draw_all(
    exp: &GameExperiment,
    cases: &[CaseSummary],
    metric: &str,
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let mut files = Files {
        dir,
        stems: Vec::new(),
        written: Vec::new(),
    };
    let (players, player_labels) = player_items(cases);
    let win = |case: &CaseSummary, name: &str| {
        let p = case.players.iter().find(|p| p.name == name)?;
        Some((p.win_rate, p.ci_low, p.ci_high))
    };
    by_case(
        exp,
        cases,
        &Measure {
            base: "win-rates",
            what: "win rates",
            item_axis: "player (policy)",
            y_label: "win rate (share of games won)",
            items: players.clone(),
            labels: player_labels.clone(),
            value: &win,
            ci_note: WILSON,
        },
        &mut files,
    )?;
    if let Some(name) = &exp.charts.baseline {
        let diff = |case: &CaseSummary, player: &str| {
            let (_, d) = case.baseline_difference.as_ref()?;
            let i = case.players.iter().position(|p| p.name == player)?;
            Some(d[i])
        };
        let what = format!("win rate less variant \"{name}\"'s");
        by_case(
            exp,
            cases,
            &Measure {
                base: "win-rate-difference",
                what: &what,
                item_axis: "player (policy)",
                y_label: "difference in win rate",
                items: players,
                labels: player_labels,
                value: &diff,
                ci_note: "whiskers: 95% normal CI of the difference",
            },
            &mut files,
        )?;
    }
    let endings = ending_items(cases);
    let share = |case: &CaseSummary, name: &str| {
        let e = case.endings.iter().find(|e| e.name == name)?;
        Some((e.share, e.ci_low, e.ci_high))
    };
    by_case(
        exp,
        cases,
        &Measure {
            base: "endings",
            what: "how games end",
            item_axis: "ending",
            y_label: "share of games",
            labels: endings.clone(),
            items: endings,
            value: &share,
            ci_note: WILSON,
        },
        &mut files,
    )?;
    game_length(exp, cases, &mut files)?;
    over_turns(exp, cases, metric, &mut files)?;
    globals_over_turns(exp, cases, &mut files)?;
    Ok(files.written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(
            slug("variant \"no VP\", assumptions.starting_stability = high"),
            "variant-no-vp-assumptions-starting-stability-high"
        );
        assert_eq!(slug(""), "");
        assert!(slug(&"x ".repeat(100)).len() <= 60);
    }
}
