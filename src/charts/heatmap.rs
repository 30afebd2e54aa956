//! Heatmaps: a grid of panels sharing one viridis colour scale.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::common::{
    draw_header, extent, fmt_num, nice_ticks, padded_range, shrink_to_fit, AXIS, DESC_SIZE,
    NO_DATA, SUBTLE_TEXT, TEXT, TICK_SIZE,
};
use super::output::{DrawResult, Render};
use super::text::{Font, Pen};
use super::xy::{draw_axis_titles, TickAxis, XYCoord};
use super::{Heatmap, DEFAULT_SIZE};

/// Size of one panel's slot when there are several panels.
const PANEL_W: u32 = 500;
const PANEL_H: u32 = 460;
/// Width of the colour bar column (bar, ticks, value label).
const BAR_COLUMN: u32 = 150;
/// Cells at least this large (px) show their value.
const VALUE_CELL_PX: f64 = 28.0;
const PANEL_TITLE_H: i32 = 30;
const TICK_MARK: i32 = 5;
const LABEL_GAP: i32 = 5;

pub(crate) struct HeatmapJob<'a> {
    h: &'a Heatmap,
    cols: usize,
    rows: usize,
    nx: usize,
    ny: usize,
    /// Colour scale `(lo, hi)`, finite with `lo < hi`.
    range: (f64, f64),
}

impl<'a> HeatmapJob<'a> {
    pub(crate) fn new(h: &'a Heatmap) -> Self {
        let n = h.panels.len().max(1);
        let cols = match n {
            1..=3 => n,
            4 => 2,
            5 | 6 | 9 => 3,
            _ => 4,
        };
        let rows = n.div_ceil(cols);
        let rows_of = |p: &super::HeatmapPanel| p.values.len();
        let cols_of = |p: &super::HeatmapPanel| p.values.iter().map(Vec::len).max().unwrap_or(0);
        let nx = h
            .panels
            .iter()
            .map(cols_of)
            .chain([h.x_values.len()])
            .max()
            .unwrap_or(0);
        let ny = h
            .panels
            .iter()
            .map(rows_of)
            .chain([h.y_values.len()])
            .max()
            .unwrap_or(0);
        let (a, b) = h.value_range;
        let range = if a.is_finite() && b.is_finite() && a != b {
            (a.min(b), a.max(b))
        } else {
            let data = h
                .panels
                .iter()
                .flat_map(|p| p.values.iter().flatten().copied());
            padded_range(extent(data), 0.0)
        };
        HeatmapJob {
            h,
            cols,
            rows,
            nx,
            ny,
            range,
        }
    }

    fn value(&self, panel: usize, xi: usize, yi: usize) -> f64 {
        self.h
            .panels
            .get(panel)
            .and_then(|p| p.values.get(yi))
            .and_then(|row| row.get(xi))
            .copied()
            .unwrap_or(f64::NAN)
    }

    fn color(&self, v: f64) -> RGBColor {
        if !v.is_finite() {
            return NO_DATA;
        }
        let (lo, hi) = self.range;
        let t = (v - lo) / (hi - lo);
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.5
        };
        ViridisRGB::get_color(t)
    }

    /// Decimals for the values printed in cells.
    fn cell_decimals(&self) -> usize {
        let span = self.range.1 - self.range.0;
        let all_int = self
            .h
            .panels
            .iter()
            .flat_map(|p| p.values.iter().flatten())
            .filter(|v| v.is_finite())
            .all(|v| v.fract() == 0.0);
        match span {
            _ if all_int => 0,
            s if s <= 0.1 => 3,
            s if s <= 1.0 => 2,
            s if s <= 10.0 => 1,
            _ => 0,
        }
    }
}

/// Shortest readable label for an axis value.
pub(crate) fn fmt_axis_value(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return fmt_num(v, 0);
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Indices to label on an axis of `n` cells of `cell_px` pixels, labels
/// needing `min_px` pixels each. Whole-number values are labelled at round
/// values (5, 10, 15, ...); others every k-th index.
fn tick_indices(values: &[f64], n: usize, cell_px: f64, min_px: f64) -> Vec<usize> {
    if n == 0 {
        return vec![];
    }
    let need = (min_px / cell_px.max(0.1)).ceil().max(1.0) as usize;
    let steps = [
        1usize, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10_000, 100_000,
    ];
    let integer = values.len() == n && values.iter().all(|v| v.is_finite() && v.fract() == 0.0);
    if integer && need > 1 {
        for s in steps {
            let idx: Vec<usize> = (0..n)
                .filter(|&i| values[i] as i64 % s as i64 == 0)
                .collect();
            let spaced = idx.windows(2).all(|w| w[1] - w[0] >= need);
            if spaced && idx.len() >= 2 {
                return idx;
            }
            if idx.len() < 2 {
                break;
            }
        }
    }
    let step = steps.into_iter().find(|&s| s >= need).unwrap_or(n);
    (0..n).step_by(step).collect()
}

impl Render for HeatmapJob<'_> {
    fn size(&self) -> (u32, u32) {
        if self.h.panels.len() <= 1 {
            DEFAULT_SIZE
        } else {
            let w = self.cols as u32 * PANEL_W + BAR_COLUMN + 10;
            let h = self.rows as u32 * PANEL_H + 60;
            (w.max(DEFAULT_SIZE.0), h.max(DEFAULT_SIZE.1))
        }
    }

    fn render<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pen: &Pen,
    ) -> DrawResult<(), DB> {
        let h = self.h;
        root.fill(&WHITE)?;
        let body = draw_header(root, pen, &h.title, None)?;
        let (bw, _) = body.dim_in_pixel();
        let (grid, bar_col) = body.split_horizontally(bw as i32 - BAR_COLUMN as i32);
        let slots = grid.split_evenly((self.rows, self.cols));
        let (nx, ny) = (self.nx, self.ny);

        // Shared layout of every panel, computed on the first slot.
        let (sw, sh) = slots[0].dim_in_pixel();
        let tick_font = Font::new(TICK_SIZE, SUBTLE_TEXT);
        let max_w = |x: bool, n: usize| {
            (0..n)
                .map(|i| tick_font.width(&h.tick_text(x, i)).ceil() as i32)
                .max()
                .unwrap_or(0)
        };
        let line_h = tick_font.height().ceil() as i32;
        let y_area = max_w(false, ny) + TICK_MARK + LABEL_GAP + 6 + 28;
        let x_area = TICK_MARK + LABEL_GAP + line_h + 34;
        let (ml, mr, mb) = (6, 18, 6);
        let mut pw = sw as i32 - y_area - ml - mr;
        let mut ph = sh as i32 - PANEL_TITLE_H - x_area - mb;
        // Keep cells roughly square: at most 1.5 times wider than tall.
        let (cw, ch) = (pw as f64 / nx.max(1) as f64, ph as f64 / ny.max(1) as f64);
        if cw > 1.5 * ch {
            pw = (1.5 * ch * nx.max(1) as f64) as i32;
        } else if ch > 1.5 * cw {
            ph = (1.5 * cw * ny.max(1) as f64) as i32;
        }
        let (pw, ph) = (pw.max(20), ph.max(20));
        let extra_w = (sw as i32 - y_area - ml - mr - pw).max(0);
        let extra_h = (sh as i32 - PANEL_TITLE_H - x_area - mb - ph).max(0);
        let (cw, ch) = (pw as f64 / nx.max(1) as f64, ph as f64 / ny.max(1) as f64);
        let x_label_w = max_w(true, nx) as f64;
        let mut x_ticks = tick_indices(&h.x_values, nx, cw, x_label_w + 14.0);
        let mut y_ticks = tick_indices(&h.y_values, ny, ch, line_h as f64 * 2.2);
        // Same values on both axes: label them alike (the sparser choice).
        if h.x_values == h.y_values {
            if x_ticks.len() < y_ticks.len() {
                y_ticks = x_ticks.clone();
            } else {
                x_ticks = y_ticks.clone();
            }
        }
        let show_values = cw >= VALUE_CELL_PX && ch >= VALUE_CELL_PX;

        let mut plot_box = None;
        let n_panels = h.panels.len().max(1);
        for (p, slot) in slots.iter().enumerate().take(n_panels) {
            let inner = slot.margin(
                PANEL_TITLE_H + extra_h / 2,
                mb + extra_h - extra_h / 2,
                ml + extra_w / 2,
                mr + extra_w - extra_w / 2,
            );
            let x_axis = TickAxis::new(
                (-0.5, nx.max(1) as f64 - 0.5),
                x_ticks.iter().map(|&i| i as f64).collect(),
            );
            let y_axis = TickAxis::new(
                (-0.5, ny.max(1) as f64 - 0.5),
                y_ticks.iter().map(|&i| i as f64).collect(),
            );
            let mut chart = ChartBuilder::on(&inner)
                .x_label_area_size(x_area)
                .y_label_area_size(y_area)
                .build_cartesian_2d(x_axis, y_axis)?;

            let cells = (0..ny).flat_map(|yi| (0..nx).map(move |xi| (xi, yi)));
            chart.draw_series(cells.map(|(xi, yi)| {
                let (x, y) = (xi as f64, yi as f64);
                Rectangle::new(
                    [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                    self.color(self.value(p, xi, yi)).filled(),
                )
            }))?;
            if show_values {
                // Large cells: thin white separators read better.
                let cells = (0..ny).flat_map(|yi| (0..nx).map(move |xi| (xi, yi)));
                chart.draw_series(cells.map(|(xi, yi)| {
                    let (x, y) = (xi as f64, yi as f64);
                    Rectangle::new(
                        [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                        WHITE.stroke_width(1),
                    )
                }))?;
                self.draw_cell_values(&chart, pen, p, cw, ch)?;
            }
            self.draw_panel_axes(&chart, pen, (&x_ticks, &y_ticks))?;

            let (xr, yr) = chart.plotting_area().get_pixel_range();
            let (bx, by) = body.get_base_pixel();
            let title = h.panels.get(p).map_or("", |pn| pn.title.as_str());
            let title_font = Font::new(16.0, TEXT).bold().at(HPos::Center, VPos::Bottom);
            let title_pos = ((xr.start + xr.end) / 2 - bx, yr.start - 10 - by);
            let title_w = (xr.end - xr.start + 40) as f64;
            let title_font = shrink_to_fit(title_font, title, title_w);
            pen.text(&body, title, &title_font, title_pos)?;
            let bottom = p + self.cols >= n_panels;
            let x_desc = if bottom { h.x_label.as_str() } else { "" };
            let y_desc = if p % self.cols == 0 {
                h.y_label.as_str()
            } else {
                ""
            };
            let y_title_x = xr.start - y_area;
            let range = (xr.clone(), yr.clone());
            draw_axis_titles(&body, pen, range, (x_desc, y_desc), x_area, y_title_x)?;
            plot_box = Some(match plot_box {
                None => (yr.start, yr.end),
                Some((t, b)) => (yr.start.min(t), yr.end.max(b)),
            });
        }

        let any_missing = (0..n_panels)
            .any(|p| (0..ny).any(|yi| (0..nx).any(|xi| !self.value(p, xi, yi).is_finite())));
        let (top, bottom) = plot_box.unwrap_or((0, 100));
        self.draw_color_bar(&bar_col, pen, (top, bottom), any_missing)
    }
}

impl HeatmapJob<'_> {
    /// Pixel position of cell centre `(xi, yi)` relative to the plot.
    fn cell_px<DB: DrawingBackend>(
        chart: &ChartContext<'_, DB, XYCoord>,
        x: f64,
        y: f64,
    ) -> (i32, i32) {
        let (ox, oy) = chart.plotting_area().get_base_pixel();
        let (a, b) = chart.backend_coord(&(x, y));
        (a - ox, b - oy)
    }

    fn draw_panel_axes<DB: DrawingBackend>(
        &self,
        chart: &ChartContext<'_, DB, XYCoord>,
        pen: &Pen,
        (x_ticks, y_ticks): (&[usize], &[usize]),
    ) -> DrawResult<(), DB> {
        let plot = chart.plotting_area().strip_coord_spec();
        let (nx, ny) = (self.nx.max(1) as f64, self.ny.max(1) as f64);
        let (l, b) = Self::cell_px(chart, -0.5, -0.5);
        let (r, t) = Self::cell_px(chart, nx - 0.5, ny - 0.5);
        let axis = AXIS.stroke_width(1);
        plot.draw(&Rectangle::new([(l, t), (r, b)], axis))?;
        let font = Font::new(TICK_SIZE, SUBTLE_TEXT);
        for &i in x_ticks {
            let x = Self::cell_px(chart, i as f64, 0.0).0;
            plot.draw(&PathElement::new(vec![(x, b), (x, b + TICK_MARK)], axis))?;
            let text = self.h.tick_text(true, i);
            let pos = (x, b + TICK_MARK + LABEL_GAP);
            pen.text(&plot, &text, &font.at(HPos::Center, VPos::Top), pos)?;
        }
        for &i in y_ticks {
            let y = Self::cell_px(chart, 0.0, i as f64).1;
            plot.draw(&PathElement::new(vec![(l - TICK_MARK, y), (l, y)], axis))?;
            let text = self.h.tick_text(false, i);
            let pos = (l - TICK_MARK - LABEL_GAP, y);
            pen.text(&plot, &text, &font.at(HPos::Right, VPos::Center), pos)?;
        }
        Ok(())
    }

    fn draw_cell_values<DB: DrawingBackend>(
        &self,
        chart: &ChartContext<'_, DB, XYCoord>,
        pen: &Pen,
        panel: usize,
        cw: f64,
        ch: f64,
    ) -> DrawResult<(), DB> {
        let area = chart.plotting_area().strip_coord_spec();
        let decimals = self.cell_decimals();
        let widest = fmt_num(-self.range.1.abs().max(self.range.0.abs()), decimals);
        let mut size = ((ch * 0.4).min(18.0) / 2.0).floor() * 2.0;
        while size > 10.0 && Font::new(size, TEXT).width(&widest) > cw - 6.0 {
            size -= 2.0;
        }
        for yi in 0..self.ny {
            for xi in 0..self.nx {
                let v = self.value(panel, xi, yi);
                if !v.is_finite() {
                    continue;
                }
                let RGBColor(r, g, b) = self.color(v);
                let lum = 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64;
                let ink = if lum > 140.0 {
                    RGBColor(0x11, 0x11, 0x11)
                } else {
                    WHITE
                };
                let font = Font::new(size, ink).at(HPos::Center, VPos::Center);
                let pos = Self::cell_px(chart, xi as f64, yi as f64);
                pen.text(&area, &fmt_num(v, decimals), &font, pos)?;
            }
        }
        Ok(())
    }

    /// The shared colour bar, its ticks and label, plus a "no data" swatch.
    fn draw_color_bar<DB: DrawingBackend>(
        &self,
        col: &DrawingArea<DB, Shift>,
        pen: &Pen,
        (top, bottom): (i32, i32),
        any_missing: bool,
    ) -> DrawResult<(), DB> {
        let (_, cy) = col.get_base_pixel();
        let (top, bottom) = (top - cy, bottom - cy);
        let max_h = 460;
        let (top, bottom) = if bottom - top > max_h {
            let mid = (top + bottom) / 2;
            (mid - max_h / 2, mid + max_h / 2)
        } else {
            (top, bottom)
        };
        let height = (bottom - top).max(10);
        let (x0, x1) = (12, 34);
        let (lo, hi) = self.range;
        let steps = height.min(256);
        for k in 0..steps {
            let ya = top + height * k / steps;
            let yb = top + height * (k + 1) / steps;
            let t = 1.0 - (k as f64 + 0.5) / steps as f64;
            col.draw(&Rectangle::new(
                [(x0, ya), (x1, yb)],
                ViridisRGB::get_color(t).filled(),
            ))?;
        }
        col.draw(&Rectangle::new(
            [(x0, top), (x1, bottom)],
            AXIS.stroke_width(1),
        ))?;
        let (ticks, dec) = nice_ticks(lo, hi, (height / 40).max(2) as usize, false);
        let font = Font::new(TICK_SIZE, SUBTLE_TEXT).at(HPos::Left, VPos::Center);
        let mut label_w = 0.0f64;
        for v in ticks {
            let y = bottom - ((v - lo) / (hi - lo) * height as f64).round() as i32;
            col.draw(&PathElement::new(
                vec![(x1, y), (x1 + 5, y)],
                AXIS.stroke_width(1),
            ))?;
            let text = fmt_num(v, dec);
            label_w = label_w.max(font.width(&text));
            pen.text(col, &text, &font, (x1 + 8, y))?;
        }
        let label_font = Font::new(DESC_SIZE, TEXT)
            .at(HPos::Center, VPos::Top)
            .vertical();
        let label_x = x1 + 8 + label_w.ceil() as i32 + 10;
        pen.text(
            col,
            &self.h.value_label,
            &label_font,
            (label_x, (top + bottom) / 2),
        )?;
        if any_missing {
            let y = bottom + 16;
            col.draw(&Rectangle::new([(x0, y), (x1, y + 14)], NO_DATA.filled()))?;
            pen.text(col, "no data", &font, (x1 + 8, y + 7))?;
        }
        Ok(())
    }
}
