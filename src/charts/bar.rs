//! Grouped bar charts with optional CI whiskers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::common::{
    draw_header, extent, finite_pair, palette, range_from_zero, valid_range, Legend, Swatch,
    SUBTLE_TEXT, TICK_SIZE,
};
use super::output::{DrawResult, Render};
use super::text::Font;
use super::text::Pen;
use super::xy::{self, AxisSpec};
use super::BarChart;

pub(crate) struct BarJob<'a>(pub &'a BarChart);

/// Longest category label drawn (rotated labels are cut to this).
const MAX_LABEL_PX: i32 = 150;

/// How the category labels are laid out.
struct Labels {
    /// The lines of each category's label.
    texts: Vec<Vec<String>>,
    rotated: bool,
    /// Label every `step`-th category.
    step: usize,
    /// Extra height of the x label area.
    extra: i32,
}

/// Vertical distance between wrapped label lines.
const LINE_SPACING: i32 = 17;

fn value(values: &[f64], i: usize) -> f64 {
    values.get(i).copied().unwrap_or(f64::NAN)
}

fn ci(group: &super::BarGroup, i: usize) -> Option<(f64, f64)> {
    finite_pair(group.ci.as_ref().and_then(|c| c.get(i)).copied())
}

/// Shortens `text` with an ellipsis until it is at most `max_px` wide.
fn fit(text: &str, font: &Font, max_px: f64) -> String {
    if font.width(text) <= max_px {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let s: String = chars.iter().collect::<String>() + "…";
        if font.width(&s) <= max_px {
            return s;
        }
    }
    String::new()
}

/// Splits `text` at spaces into lines at most `max_px` wide; `None` if a
/// word alone is too wide.
fn wrap(text: &str, font: &Font, max_px: f64) -> Option<Vec<String>> {
    let mut lines: Vec<String> = vec![];
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if font.width(&format!("{line} {word}")) <= max_px => {
                line.push(' ');
                line.push_str(word);
            }
            _ if font.width(word) <= max_px => lines.push(word.to_string()),
            _ => return None,
        }
    }
    Some(lines)
}

/// Horizontal if the labels fit, else wrapped onto up to 3 lines, else
/// rotated (names) or thinned (numbers).
fn layout_labels(names: &[String], plot_w: i32) -> Labels {
    let font = Font::new(TICK_SIZE, SUBTLE_TEXT);
    let n = names.len().max(1);
    let slot = plot_w as f64 / n as f64;
    let max_w = names
        .iter()
        .map(|s| font.width(s).ceil() as i32)
        .max()
        .unwrap_or(0);
    let numeric = names.iter().all(|s| s.trim().parse::<f64>().is_ok());
    let line_h = font.height().ceil() as i32;
    let fits = max_w as f64 + 10.0 <= slot;
    if !fits && !numeric {
        let wrapped: Option<Vec<Vec<String>>> =
            names.iter().map(|s| wrap(s, &font, slot - 10.0)).collect();
        if let Some(texts) = wrapped {
            let lines = texts.iter().map(Vec::len).max().unwrap_or(1);
            if lines <= 3 {
                return Labels {
                    texts,
                    rotated: false,
                    step: 1,
                    extra: (lines.max(1) as i32 - 1) * LINE_SPACING,
                };
            }
        }
    }
    let rotated = !fits && !numeric;
    let need = if rotated { line_h + 4 } else { max_w + 12 } as f64;
    let step = [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10_000, 100_000,
    ]
    .into_iter()
    .find(|&k| k as f64 * slot >= need)
    .unwrap_or(n);
    let texts = names
        .iter()
        .map(|s| match rotated {
            true => vec![fit(s, &font, MAX_LABEL_PX as f64)],
            false => vec![s.clone()],
        })
        .collect();
    let extra = if rotated {
        max_w.min(MAX_LABEL_PX) - line_h + 4
    } else {
        0
    };
    Labels {
        texts,
        rotated,
        step,
        extra,
    }
}

impl Render for BarJob<'_> {
    fn render<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pen: &Pen,
    ) -> DrawResult<(), DB> {
        let c = self.0;
        root.fill(&WHITE)?;
        let body = draw_header(root, pen, &c.title, c.subtitle.as_deref())?;
        let n = c
            .groups
            .iter()
            .map(|g| g.values.len())
            .chain([c.categories.len()])
            .max()
            .unwrap_or(0);
        let names: Vec<String> = (0..n)
            .map(|i| c.categories.get(i).cloned().unwrap_or_default())
            .collect();
        let g = c.groups.len().max(1);

        let data = c.groups.iter().flat_map(|grp| {
            (0..n).flat_map(move |i| {
                let (lo, hi) = ci(grp, i).unwrap_or((f64::NAN, f64::NAN));
                [value(&grp.values, i), lo, hi]
            })
        });
        let data_ext = extent(data.chain([0.0]));
        let given = valid_range(c.y_range);
        let y = given.unwrap_or_else(|| range_from_zero(data_ext));
        let x = if n == 0 {
            (-0.5, 0.5)
        } else {
            (-0.5, n as f64 - 0.5)
        };
        let mut spec = AxisSpec {
            x,
            y,
            x_integer: false,
            y_integer: false,
            x_ticks: Some(vec![]),
            has_x_desc: !c.x_label.is_empty(),
            has_y_desc: !c.y_label.is_empty(),
            x_area_extra: 0,
        };
        let (_, _, y_area) = xy::y_layout(&body, &spec);
        let labels = layout_labels(&names, xy::plot_width(&body, y_area));
        spec.x_area_extra = labels.extra;
        spec.x_ticks = Some((0..n).step_by(labels.step).map(|i| i as f64).collect());

        // Bar geometry: the group of bars fills 80% of each category slot.
        let bar_w = 0.8 / g as f64;
        let gap = if n * g > 60 { 0.0 } else { bar_w * 0.08 };
        let bar_x = |i: usize, j: usize| {
            let left = i as f64 - 0.4 + j as f64 * bar_w;
            (left + gap / 2.0, left + bar_w - gap / 2.0)
        };
        let mut obstacles = vec![];
        for (j, grp) in c.groups.iter().enumerate() {
            for i in 0..n {
                let (l, r) = bar_x(i, j);
                let v = value(&grp.values, i);
                if v.is_finite() {
                    obstacles.push((l, 0.0, r, v));
                }
                if let Some((lo, hi)) = ci(grp, i) {
                    obstacles.push((l, lo, r, hi));
                }
            }
        }

        let entries: Vec<(String, Swatch)> = c
            .groups
            .iter()
            .enumerate()
            .map(|(j, grp)| (grp.name.clone(), Swatch::Bar(palette(j))))
            .collect();
        let legend = (entries.len() >= 2).then(|| Legend::new(entries));

        let data_top = data_ext.filter(|_| given.is_none()).map(|e| e.1);
        let (chart, axes, corner) =
            xy::build_with_legend(&body, spec, legend.as_ref(), &obstacles, data_top)?;
        xy::draw_grid(&chart, &axes, false)?;

        let (y0, y1) = axes.y;
        let base = 0f64.clamp(y0, y1);
        let plot = chart.plotting_area().strip_coord_spec();
        let px = |p: (f64, f64)| xy::to_plot(&chart, p);
        for (j, grp) in c.groups.iter().enumerate() {
            let color = palette(j);
            for i in 0..n {
                let v = value(&grp.values, i);
                let (l, r) = bar_x(i, j);
                if v.is_finite() {
                    let top = v.clamp(y0, y1);
                    let (a, b) = (px((l, base)), px((r, top)));
                    // At least one pixel wide, so thin bars never vanish.
                    let b = (b.0.max(a.0 + 1), b.1);
                    plot.draw(&Rectangle::new([a, b], color.filled()))?;
                }
                if let Some(ci) = ci(grp, i) {
                    let half = ((px((r, 0.0)).0 - px((l, 0.0)).0) / 4).clamp(2, 6);
                    let style = RGBColor(0x33, 0x33, 0x33).stroke_width(1);
                    xy::draw_whisker(&chart, &plot, (l + r) / 2.0, ci, half, style)?;
                }
            }
        }

        let titles = (c.x_label.as_str(), c.y_label.as_str());
        xy::draw_axes(&body, &chart, pen, &axes, titles, None)?;
        // Category labels under the x axis.
        let label_y = px((0.0, y0)).1 + 10;
        let font = Font::new(TICK_SIZE, SUBTLE_TEXT);
        let font = if labels.rotated {
            font.vertical().at(HPos::Right, VPos::Center)
        } else {
            font.at(HPos::Center, VPos::Top)
        };
        for i in (0..n).step_by(labels.step) {
            let (lx, _) = px((i as f64, y0));
            for (k, line) in labels.texts[i].iter().enumerate() {
                let ly = label_y + k as i32 * LINE_SPACING;
                pen.text(&plot, line, &font, (lx, ly))?;
            }
        }

        if let (Some(legend), Some(corner)) = (legend, corner) {
            legend.draw(&plot, pen, corner)?;
        }
        Ok(())
    }
}
