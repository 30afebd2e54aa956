//! Charts: pure data in, PNG + SVG files out.
//!
//! Every `draw_*` function takes a `stem` such as `out/quickstart/heatmap` and
//! writes `out/quickstart/heatmap.png` and `out/quickstart/heatmap.svg`,
//! returning the paths it wrote. Files are written atomically: each image is
//! rendered to a hidden temporary file in the same directory and then renamed
//! into place, so an interrupted run never leaves a half-written chart under
//! its final name. The target directory must already exist.
//!
//! Text is drawn with the DejaVu Sans fonts bundled in `assets/fonts/`
//! (regular and bold, via plotters' `ab_glyph` feature), registered once by
//! [`register_fonts`] (called automatically); no system font library is
//! used. PNG text is laid out glyph by glyph from the font's own metrics.
//! SVG files keep whole strings with `font-family="DejaVu Sans,
//! sans-serif"`, so viewers use DejaVu Sans if installed, else their sans.
//!
//! Sizes: line, bar and histogram charts and single-panel heatmaps are
//! 1024×640 px; multi-panel heatmaps grow with the panel grid (up to 4
//! panels per row, about 500×460 px per panel, plus the colour bar).
//!
//! Odd data (empty series, NaN/infinite values, a single point, all-equal
//! values, zero-width ranges) is handled by skipping non-finite values and
//! padding degenerate axis ranges; it never panics.

mod bar;
mod common;
mod experiment;
mod heatmap;
mod histogram;
mod line;
mod output;
#[cfg(test)]
mod tests;
mod text;
mod xy;

use std::path::{Path, PathBuf};

pub use experiment::{axis_label, axis_number, file_names, thin};
pub use output::{register_fonts, ChartError};

/// Default size in pixels of line, bar and histogram charts (and of a
/// single-panel heatmap).
pub const DEFAULT_SIZE: (u32, u32) = (1024, 640);

/// One data point of a line series. `ci = Some((low, high))` draws a vertical
/// whisker with small caps (e.g. a 95% confidence interval); `band = Some((low,
/// high))` shades the area between the band's values of consecutive points in
/// the series' colour (e.g. ±1 standard deviation), under every line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub ci: Option<(f64, f64)>,
    pub band: Option<(f64, f64)>,
}

impl Point {
    /// A point without a confidence interval.
    pub fn new(x: f64, y: f64) -> Self {
        Point {
            x,
            y,
            ci: None,
            band: None,
        }
    }

    /// A point with a confidence interval `(low, high)`.
    pub fn with_ci(x: f64, y: f64, low: f64, high: f64) -> Self {
        Point {
            x,
            y,
            ci: Some((low, high)),
            band: None,
        }
    }

    /// A point inside a shaded band `(low, high)`.
    pub fn with_band(x: f64, y: f64, low: f64, high: f64) -> Self {
        Point {
            x,
            y,
            ci: None,
            band: Some((low, high)),
        }
    }
}

/// A named line series. Points are drawn in order of increasing `x`; a point
/// whose `y` is not finite breaks the line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    pub name: String,
    pub points: Vec<Point>,
}

/// A line chart with one or more series (lines plus point markers).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    pub title: String,
    pub subtitle: Option<String>,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// `None`: automatic from the data, whiskers and bands included.
    pub y_range: Option<(f64, f64)>,
    /// The legend to the right of the plot instead of inside it: for many
    /// series (a dozen players), whose legend would hide the lines.
    pub legend_outside: bool,
}

/// Draws a line chart to `stem.png` and `stem.svg` (1024×640 px).
pub fn draw_line_chart(chart: &LineChart, stem: &Path) -> Result<Vec<PathBuf>, ChartError> {
    output::write_chart(&line::LineJob(chart), stem)
}

/// One panel of a heatmap: `values[yi][xi]`; NaN means "no data" (grey).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeatmapPanel {
    pub title: String,
    pub values: Vec<Vec<f64>>,
}

/// One or more heatmap panels sharing axes and one colour scale.
///
/// `x_values` / `y_values` are sorted ascending; cells are drawn by index
/// (so uneven spacing is fine) and the ticks are labelled with the values.
/// Values are coloured with the viridis colormap over `value_range`
/// (values outside it are clamped).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub value_label: String,
    pub x_values: Vec<f64>,
    pub y_values: Vec<f64>,
    pub panels: Vec<HeatmapPanel>,
    pub value_range: (f64, f64),
    /// Tick labels to show instead of the values (e.g. names along a categorical axis).
    pub x_tick_labels: Option<Vec<String>>,
    pub y_tick_labels: Option<Vec<String>>,
}

impl Heatmap {
    /// The text at tick `i` of the x axis (`x = true`) or the y axis.
    pub(crate) fn tick_text(&self, x: bool, i: usize) -> String {
        let (labels, values) = if x {
            (&self.x_tick_labels, &self.x_values)
        } else {
            (&self.y_tick_labels, &self.y_values)
        };
        match labels {
            Some(l) => l.get(i).cloned().unwrap_or_default(),
            None => values
                .get(i)
                .map_or(String::new(), |&v| heatmap::fmt_axis_value(v)),
        }
    }
}

/// Draws the heatmap panels in a grid (up to 4 per row) with a shared colour
/// bar. One panel: 1024×640 px; several panels: larger (about 500×460 px per
/// panel plus the colour bar). Cells of at least 28 px show their value.
pub fn draw_heatmap(h: &Heatmap, stem: &Path) -> Result<Vec<PathBuf>, ChartError> {
    output::write_chart(&heatmap::HeatmapJob::new(h), stem)
}

/// One group of a grouped bar chart: one value per category, optionally with
/// a confidence interval `(low, high)` per category.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarGroup {
    pub name: String,
    pub values: Vec<f64>,
    pub ci: Option<Vec<(f64, f64)>>,
}

/// A grouped bar chart: for each category one bar per group, side by side.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarChart {
    pub title: String,
    pub subtitle: Option<String>,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub groups: Vec<BarGroup>,
    /// `None`: automatic (always includes 0 and the whiskers).
    pub y_range: Option<(f64, f64)>,
}

/// Draws a grouped bar chart to `stem.png` and `stem.svg` (1024×640 px).
pub fn draw_bar_chart(chart: &BarChart, stem: &Path) -> Result<Vec<PathBuf>, ChartError> {
    output::write_chart(&bar::BarJob(chart), stem)
}

/// A histogram given as pre-computed bins `(lo, hi, value)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Histogram {
    pub title: String,
    pub subtitle: Option<String>,
    pub x_label: String,
    pub y_label: String,
    pub bins: Vec<(f64, f64, f64)>,
}

/// Draws a histogram to `stem.png` and `stem.svg` (1024×640 px).
pub fn draw_histogram(h: &Histogram, stem: &Path) -> Result<Vec<PathBuf>, ChartError> {
    output::write_chart(&histogram::HistogramJob(h), stem)
}
