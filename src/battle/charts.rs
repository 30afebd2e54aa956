//! The charts of an experiment: a heatmap of the outcome probability over the first two axes, line
//! charts of that probability and of expected losses along the first axis, a variant comparison,
//! and, for a single battle, its loss distributions.

use crate::battle::experiment::{axis_value_text, Experiment};
use crate::battle::report::outcome_label;
use crate::battle::sweep::PointSummary;
use crate::charts::{
    self, axis_label, file_names, thin, BarChart, BarGroup, Heatmap, HeatmapPanel, LineChart,
    Point, Series,
};
use crate::error::{AleaError, Result};
use crate::output::OutputDir;
use crate::stats::normal_ci95;
use toml::Value;

/// Most lines one chart draws before it thins its series.
const MAX_LINES: usize = 8;
/// Most heatmap panels in one image.
const MAX_PANELS: usize = 12;

/// A swept value's position on the x axis: its number, or its index when it is a name.
fn numeric(v: &Value, index: usize) -> f64 {
    charts::axis_number(v).unwrap_or(index as f64)
}

struct Layout<'a> {
    exp: &'a Experiment,
    outcome: usize,
    x: Option<usize>,
    y: Option<usize>,
    series: Option<usize>,
    /// The value index each axis is held at when it is not drawn.
    fixed: Vec<usize>,
    strides: Vec<usize>,
}

impl<'a> Layout<'a> {
    fn new(exp: &'a Experiment) -> Result<Layout<'a>> {
        let find = |name: &Option<String>| {
            name.as_ref()
                .and_then(|n| exp.axes.iter().position(|a| &a.field == n))
        };
        let n = exp.axes.len();
        let x = find(&exp.charts.x).or(if n > 0 { Some(0) } else { None });
        let y = find(&exp.charts.y).or_else(|| (0..n).find(|&k| Some(k) != x));
        // Lines are drawn per value of the third axis, or of the second when there are only two.
        let series = find(&exp.charts.series)
            .or_else(|| (0..n).find(|&k| Some(k) != x && Some(k) != y))
            .or(y.filter(|&k| Some(k) != x));
        let mut fixed = Vec::new();
        for axis in &exp.axes {
            let at = match exp.charts.fixed.get(&axis.field) {
                None => axis.values.len() / 2,
                Some(v) => axis.values.iter().position(|a| a == v).ok_or_else(|| {
                    AleaError::input(
                        &exp.source,
                        format!("charts.fixed.{}", axis.field),
                        axis_value_text(v),
                        "one of the values that axis sweeps",
                    )
                })?,
            };
            fixed.push(at);
        }
        let mut strides = vec![1; n];
        for k in (0..n.saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * exp.axes[k + 1].values.len();
        }
        let outcome = exp
            .charts
            .outcome
            .as_ref()
            .and_then(|o| exp.kind.outcomes.iter().position(|k| k == o))
            .unwrap_or(0);
        Ok(Layout {
            exp,
            outcome,
            x,
            y,
            series,
            fixed,
            strides,
        })
    }

    fn index(&self, at: &[usize]) -> usize {
        at.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    fn outcome_name(&self) -> String {
        format!(
            "P({})",
            outcome_label(self.exp.ruleset.sides, self.exp.kind.outcomes[self.outcome])
        )
    }

    /// "defender.leader = 0, attacker.leader = 1" for the axes held fixed in a chart.
    fn held(&self, drawn: &[Option<usize>]) -> String {
        let held: Vec<String> = (0..self.exp.axes.len())
            .filter(|k| !drawn.contains(&Some(*k)))
            .map(|k| {
                format!(
                    "{} = {}",
                    self.exp.axes[k].field,
                    axis_value_text(&self.exp.axes[k].values[self.fixed[k]])
                )
            })
            .collect();
        held.join(", ")
    }

    fn subtitle(&self, drawn: &[Option<usize>]) -> String {
        self.subtitle_thinned(drawn, usize::MAX)
    }

    /// The subtitle of a chart drawing at most `max_lines` values of the series axis, saying
    /// when some were left out.
    fn subtitle_thinned(&self, drawn: &[Option<usize>], max_lines: usize) -> String {
        let mut parts = vec![format!(
            "{} {} battle",
            self.exp.ruleset.title,
            self.exp.battle_label()
        )];
        let held = self.held(drawn);
        if !held.is_empty() {
            parts.push(format!("at {held}"));
        }
        if let Some(s) = self.series.filter(|s| drawn.contains(&Some(*s))) {
            let len = self.exp.axes[s].values.len();
            let shown = thin(len, max_lines).len();
            if shown < len {
                parts.push(format!(
                    "{shown} of {len} {} values shown (all in the heatmap and tables)",
                    self.exp.axes[s].field
                ));
            }
        }
        parts.join(" · ")
    }

    /// Lines along x: one per series value (thinned to `max_lines`) per variant.
    fn lines(
        &self,
        summaries: &[PointSummary],
        value: impl Fn(&PointSummary) -> Option<(f64, f64)>,
        label: &str,
        max_lines: usize,
    ) -> Vec<Series> {
        let Some(x) = self.x else { return Vec::new() };
        let grid = self.exp.grid_len();
        let series_values: Vec<Option<usize>> = match self.series {
            None => vec![None],
            Some(s) => thin(self.exp.axes[s].values.len(), max_lines)
                .into_iter()
                .map(Some)
                .collect(),
        };
        let mut out = Vec::new();
        for (v, variant) in self.exp.variants.iter().enumerate() {
            for sv in &series_values {
                let mut at = self.fixed.clone();
                let mut name = Vec::new();
                if !label.is_empty() {
                    name.push(label.to_string());
                }
                if let (Some(s), Some(i)) = (self.series, sv) {
                    at[s] = *i;
                    name.push(format!(
                        "{} = {}",
                        self.exp.axes[s].field,
                        axis_value_text(&self.exp.axes[s].values[*i])
                    ));
                }
                if self.exp.variants.len() > 1 {
                    name.push(variant.name.clone());
                }
                let points = self.exp.axes[x]
                    .values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, xv)| {
                        at[x] = i;
                        let (y, se) = value(&summaries[v * grid + self.index(&at)])?;
                        let ci = (se > 0.0).then(|| normal_ci95(y, se));
                        Some(Point {
                            x: numeric(xv, i),
                            y,
                            ci,
                            band: None,
                        })
                    })
                    .collect();
                out.push(Series {
                    name: if name.is_empty() {
                        variant.name.clone()
                    } else {
                        name.join(" · ")
                    },
                    points,
                });
            }
        }
        out.truncate(MAX_LINES * 2);
        out
    }
}

/// The values as tick labels when an axis holds text (e.g. war names), else `None`.
fn names_if_text(values: &[Value]) -> Option<Vec<String>> {
    values
        .iter()
        .any(|v| v.is_str())
        .then(|| values.iter().map(axis_value_text).collect())
}

/// Draws `chart` as lines when the x axis sweeps numbers, and as grouped bars (one group per
/// series) when it sweeps names, whose order means nothing.
fn draw_along_x(
    chart: &LineChart,
    x_values: &[Value],
    stem: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>> {
    let Some(categories) = names_if_text(x_values) else {
        return Ok(charts::draw_line_chart(chart, stem)?);
    };
    let groups = chart
        .series
        .iter()
        .map(|s| {
            let mut values = vec![f64::NAN; categories.len()];
            let mut ci = vec![(f64::NAN, f64::NAN); categories.len()];
            for p in &s.points {
                let i = p.x as usize;
                values[i] = p.y;
                if let Some(c) = p.ci {
                    ci[i] = c;
                }
            }
            BarGroup {
                name: s.name.clone(),
                values,
                ci: s.points.iter().any(|p| p.ci.is_some()).then_some(ci),
            }
        })
        .collect();
    let bars = BarChart {
        title: chart.title.clone(),
        subtitle: chart.subtitle.clone(),
        x_label: chart.x_label.clone(),
        y_label: chart.y_label.clone(),
        categories,
        groups,
        y_range: chart.y_range,
    };
    Ok(charts::draw_bar_chart(&bars, stem)?)
}

pub fn draw_all(
    exp: &Experiment,
    summaries: &[PointSummary],
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let layout = Layout::new(exp)?;
    let mut files = Vec::new();
    let what = layout.outcome_name();
    let o = layout.outcome;
    if exp.axes.is_empty() {
        files.extend(single_battle(exp, summaries, dir)?);
        return Ok(files);
    }
    let x = layout.x.expect("a sweep has an x axis");
    let x_label = axis_label(&exp.axes[x].field);
    // Heatmap over (x, y), one panel per series value (or per variant).
    if let Some(y) = layout.y {
        let grid = exp.grid_len();
        let mut panels = Vec::new();
        let panel_axis = layout.series.filter(|&s| s != y);
        for (v, variant) in exp.variants.iter().enumerate() {
            let series_values: Vec<Option<usize>> = match panel_axis {
                None => vec![None],
                Some(s) => (0..exp.axes[s].values.len()).map(Some).collect(),
            };
            for sv in series_values {
                let mut at = layout.fixed.clone();
                let mut title = Vec::new();
                if let (Some(s), Some(i)) = (panel_axis, sv) {
                    at[s] = i;
                    title.push(format!(
                        "{} = {}",
                        exp.axes[s].field,
                        axis_value_text(&exp.axes[s].values[i])
                    ));
                }
                if exp.variants.len() > 1 {
                    title.push(variant.name.clone());
                }
                let values = (0..exp.axes[y].values.len())
                    .map(|yi| {
                        (0..exp.axes[x].values.len())
                            .map(|xi| {
                                at[x] = xi;
                                at[y] = yi;
                                summaries[v * grid + layout.index(&at)]
                                    .outcomes
                                    .get(o)
                                    .map_or(f64::NAN, |p| p.0)
                            })
                            .collect()
                    })
                    .collect();
                panels.push(HeatmapPanel {
                    title: title.join(" · "),
                    values,
                });
            }
        }
        panels.truncate(MAX_PANELS);
        let heatmap = Heatmap {
            title: format!(
                "{}: {what} by {} and {}",
                exp.title, exp.axes[x].field, exp.axes[y].field
            ),
            x_label: x_label.clone(),
            y_label: axis_label(&exp.axes[y].field),
            value_label: what.clone(),
            x_values: exp.axes[x]
                .values
                .iter()
                .enumerate()
                .map(|(i, v)| numeric(v, i))
                .collect(),
            y_values: exp.axes[y]
                .values
                .iter()
                .enumerate()
                .map(|(i, v)| numeric(v, i))
                .collect(),
            panels,
            value_range: (0.0, 1.0),
            x_tick_labels: names_if_text(&exp.axes[x].values),
            y_tick_labels: names_if_text(&exp.axes[y].values),
        };
        files.extend(file_names(&charts::draw_heatmap(
            &heatmap,
            &dir.path("heatmap"),
        )?));
    }
    // Outcome probability along x.
    let series = layout.lines(summaries, |s| s.outcomes.get(o).copied(), "", MAX_LINES);
    let whiskers = series
        .iter()
        .any(|s| s.points.iter().any(|p| p.ci.is_some()));
    let win = LineChart {
        title: format!("{}: {what}", exp.title),
        subtitle: Some(layout.subtitle_thinned(&[layout.x, layout.series], MAX_LINES)),
        x_label: x_label.clone(),
        y_label: if whiskers {
            format!("{what} (whiskers: 95% CI)")
        } else {
            what.clone()
        },
        series,
        y_range: Some((0.0, 1.0)),
        legend_outside: false,
    };
    files.extend(file_names(&draw_along_x(
        &win,
        &exp.axes[x].values,
        &dir.path("outcome-probability"),
    )?));
    // Expected losses along x: two lines per series value, so half as many series values.
    let per_side = MAX_LINES / 2;
    let loss_series: Vec<Series> = (exp.ruleset.sides.iter().enumerate())
        .flat_map(|(i, side)| {
            layout.lines(
                summaries,
                |s| s.losses.get(i).copied().flatten(),
                side,
                per_side,
            )
        })
        .collect();
    if loss_series.iter().any(|s| !s.points.is_empty()) {
        let losses = LineChart {
            title: format!("{}: expected losses", exp.title),
            subtitle: Some(layout.subtitle_thinned(&[layout.x, layout.series], per_side)),
            x_label: x_label.clone(),
            y_label: format!("expected losses ({})", exp.kind.loss_unit),
            series: loss_series,
            y_range: None,
            legend_outside: false,
        };
        files.extend(file_names(&draw_along_x(
            &losses,
            &exp.axes[x].values,
            &dir.path("expected-losses"),
        )?));
    }
    // Rule variants side by side, every other axis held.
    if exp.variants.len() > 1 {
        let grid = exp.grid_len();
        let series = exp
            .variants
            .iter()
            .enumerate()
            .map(|(v, variant)| {
                let mut at = layout.fixed.clone();
                let points = exp.axes[x]
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, xv)| {
                        at[x] = i;
                        let (y, se) = summaries[v * grid + layout.index(&at)].outcomes[o];
                        Point {
                            x: numeric(xv, i),
                            y,
                            ci: (se > 0.0).then(|| normal_ci95(y, se)),
                            band: None,
                        }
                    })
                    .collect();
                Series {
                    name: variant.name.clone(),
                    points,
                }
            })
            .collect();
        let chart = LineChart {
            title: format!("{}: {what} under each rule variant", exp.title),
            subtitle: Some(layout.subtitle(&[layout.x])),
            x_label,
            y_label: what.clone(),
            series,
            y_range: Some((0.0, 1.0)),
            legend_outside: false,
        };
        files.extend(file_names(&draw_along_x(
            &chart,
            &exp.axes[x].values,
            &dir.path("variants"),
        )?));
    }
    Ok(files)
}

/// Without a sweep: the outcome probabilities and loss distributions of each variant.
fn single_battle(
    exp: &Experiment,
    summaries: &[PointSummary],
    dir: &OutputDir,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    let outcomes = BarChart {
        title: format!("{}: outcome probabilities", exp.title),
        subtitle: Some(format!(
            "{} {} battle",
            exp.ruleset.title,
            exp.battle_label()
        )),
        x_label: "outcome".into(),
        y_label: "probability".into(),
        categories: (exp.kind.outcomes.iter())
            .map(|o| outcome_label(exp.ruleset.sides, o))
            .collect(),
        groups: exp
            .variants
            .iter()
            .zip(summaries)
            .map(|(v, s)| BarGroup {
                name: v.name.clone(),
                values: s.outcomes.iter().map(|p| p.0).collect(),
                ci: s
                    .outcomes
                    .iter()
                    .any(|p| p.1 > 0.0)
                    .then(|| s.outcomes.iter().map(|p| normal_ci95(p.0, p.1)).collect()),
            })
            .collect(),
        y_range: Some((0.0, 1.0)),
    };
    files.extend(file_names(&charts::draw_bar_chart(
        &outcomes,
        &dir.path("outcomes"),
    )?));
    if let Some(chart) = loss_chart(
        &format!("{}: loss distributions", exp.title),
        exp.ruleset.sides,
        exp.variants.iter().map(|v| v.name.as_str()).zip(summaries),
    ) {
        files.extend(file_names(&charts::draw_bar_chart(
            &chart,
            &dir.path("losses"),
        )?));
    }
    Ok(files)
}

/// Grouped bars of P(losses = k) for each side (and each named variant); `sides` names the
/// summaries' `loss_pmfs`.
pub fn loss_chart<'a>(
    title: &str,
    sides: &[&str],
    items: impl Iterator<Item = (&'a str, &'a PointSummary)>,
) -> Option<BarChart> {
    let items: Vec<_> = items.collect();
    let len = items
        .iter()
        .flat_map(|(_, s)| s.loss_pmfs.iter().map(Vec::len))
        .max()
        .unwrap_or(0);
    if len == 0 {
        return None;
    }
    let pad = |v: &[f64]| {
        (0..len)
            .map(|k| v.get(k).copied().unwrap_or(0.0))
            .collect::<Vec<f64>>()
    };
    let mut groups = Vec::new();
    for (name, s) in &items {
        let suffix = if items.len() > 1 {
            format!(" · {name}")
        } else {
            String::new()
        };
        for (side, pmf) in sides.iter().zip(&s.loss_pmfs) {
            if !pmf.is_empty() {
                groups.push(BarGroup {
                    name: format!("{side}{suffix}"),
                    values: pad(pmf),
                    ci: None,
                });
            }
        }
    }
    Some(BarChart {
        title: title.to_string(),
        subtitle: None,
        x_label: "units lost".into(),
        y_label: "probability".into(),
        categories: (0..len).map(|k| k.to_string()).collect(),
        groups,
        y_range: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_x_values_draw_bars_with_every_category() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let chart = LineChart {
            title: "t".into(),
            subtitle: None,
            x_label: "tactic".into(),
            y_label: "p".into(),
            series: vec![Series {
                name: "s".into(),
                points: vec![Point::with_ci(1.0, 0.5, 0.4, 0.6)],
            }],
            y_range: Some((0.0, 1.0)),
            legend_outside: false,
        };
        let names = [Value::from("FL"), Value::from("AF")];
        let files = draw_along_x(&chart, &names, &dir.join("bars")).unwrap();
        assert!(files
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "svg")));
        let svg = std::fs::read_to_string(dir.join("bars.svg")).unwrap();
        assert!(
            svg.contains("FL") && svg.contains("AF"),
            "category names on the axis"
        );
        let numbers = [Value::from(1), Value::from(2)];
        draw_along_x(&chart, &numbers, &dir.join("lines")).unwrap();
        let svg = std::fs::read_to_string(dir.join("lines.svg")).unwrap();
        assert!(!svg.contains("FL"));
    }
}
