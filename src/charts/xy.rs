//! The shared frame of the x/y charts (line, bar, histogram): axes with
//! "nice" ticks, light mesh, axis titles and legend placement.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::common::{
    fmt_num, nice_ticks, Corner, Legend, AXIS, DESC_SIZE, GRID, SUBTLE_TEXT, TEXT, TICK_SIZE,
};
use super::output::DrawResult;
use super::text::{Font, Pen};

/// A linear f64 axis whose tick positions are chosen by us (plotters'
/// own key points cannot be formatted or thinned the way we want).
#[derive(Clone)]
pub(crate) struct TickAxis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl TickAxis {
    pub(crate) fn new((lo, hi): (f64, f64), ticks: Vec<f64>) -> Self {
        TickAxis { lo, hi, ticks }
    }
}

impl Ranged for TickAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let t = (v - self.lo) / span;
        if !(span.is_finite() && span != 0.0 && t.is_finite()) {
            return (limit.0 + limit.1) / 2;
        }
        let len = (limit.1 - limit.0) as f64;
        // Keep far-away values representable (they are clipped anyway).
        let px = limit.0 as f64 + (len * t).clamp(-1e6, 1e6);
        px.round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            vec![]
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

pub(crate) type XYCoord = Cartesian2d<TickAxis, TickAxis>;
pub(crate) type XYChart<'a, DB> = ChartContext<'a, DB, XYCoord>;

const MARGIN_TOP: i32 = 10;
const MARGIN_BOTTOM: i32 = 8;
const MARGIN_LEFT: i32 = 14;
const MARGIN_RIGHT: i32 = 30;
const DESC_AREA: i32 = 30;
const TICK_MARK: i32 = 5;
const LABEL_GAP: i32 = 5;

/// What the caller wants on the axes.
pub(crate) struct AxisSpec {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub x_integer: bool,
    pub y_integer: bool,
    /// Fixed x tick positions (bars); `None` = nice ticks.
    pub x_ticks: Option<Vec<f64>>,
    pub has_x_desc: bool,
    pub has_y_desc: bool,
    /// Extra height below the x axis (e.g. for rotated category labels).
    pub x_area_extra: i32,
}

/// Ticks and ranges actually used.
pub(crate) struct Axes {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub x_ticks: Vec<f64>,
    pub y_ticks: Vec<f64>,
    pub x_dec: usize,
    pub y_dec: usize,
    /// Height of the x label area in pixels.
    pub x_area: i32,
}

/// Width of the plotting area the frame will produce for `body` with a
/// given y-label area width.
pub(crate) fn plot_width<DB: DrawingBackend>(body: &DrawingArea<DB, Shift>, y_area: i32) -> i32 {
    body.dim_in_pixel().0 as i32 - y_area - MARGIN_LEFT - MARGIN_RIGHT
}

fn x_area(spec: &AxisSpec) -> i32 {
    let tick_font = Font::new(TICK_SIZE, SUBTLE_TEXT);
    let desc = if spec.has_x_desc { DESC_AREA } else { 4 };
    TICK_MARK + LABEL_GAP + tick_font.height().ceil() as i32 + desc + spec.x_area_extra
}

/// The y ticks and the y label area width for a spec (before building).
pub(crate) fn y_layout<DB: DrawingBackend>(
    body: &DrawingArea<DB, Shift>,
    spec: &AxisSpec,
) -> (Vec<f64>, usize, i32) {
    let bh = body.dim_in_pixel().1 as i32;
    let plot_h = (bh - x_area(spec) - MARGIN_TOP - MARGIN_BOTTOM).max(40);
    let (ticks, dec) = nice_ticks(spec.y.0, spec.y.1, (plot_h / 48) as usize, spec.y_integer);
    let tick_font = Font::new(TICK_SIZE, SUBTLE_TEXT);
    let label_w = ticks
        .iter()
        .map(|&v| tick_font.width(&fmt_num(v, dec)).ceil() as i32)
        .max()
        .unwrap_or(0);
    let desc = if spec.has_y_desc { DESC_AREA } else { 0 };
    (ticks, dec, label_w + TICK_MARK + LABEL_GAP + 6 + desc)
}

/// Builds the chart (nothing is drawn yet).
pub(crate) fn build<'a, DB: DrawingBackend>(
    body: &'a DrawingArea<DB, Shift>,
    spec: &AxisSpec,
) -> DrawResult<(XYChart<'a, DB>, Axes), DB> {
    let (y_ticks, y_dec, y_area) = y_layout(body, spec);
    let plot_w = plot_width(body, y_area).max(40);
    let (x_ticks, x_dec) = match &spec.x_ticks {
        Some(t) => (t.clone(), 0),
        None => nice_ticks(spec.x.0, spec.x.1, (plot_w / 80) as usize, spec.x_integer),
    };
    let chart = ChartBuilder::on(body)
        .margin_top(MARGIN_TOP)
        .margin_bottom(MARGIN_BOTTOM)
        .margin_left(MARGIN_LEFT)
        .margin_right(MARGIN_RIGHT)
        .x_label_area_size(x_area(spec))
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            TickAxis::new(spec.x, x_ticks.clone()),
            TickAxis::new(spec.y, y_ticks.clone()),
        )?;
    let axes = Axes {
        x: spec.x,
        y: spec.y,
        x_ticks,
        y_ticks,
        x_dec,
        y_dec,
        x_area: x_area(spec),
    };
    Ok((chart, axes))
}

/// Pixel position (relative to the plotting area) of a data point.
pub(crate) fn to_plot<DB: DrawingBackend>(chart: &XYChart<'_, DB>, p: (f64, f64)) -> (i32, i32) {
    let (ox, oy) = chart.plotting_area().get_base_pixel();
    let (a, b) = chart.backend_coord(&p);
    (a - ox, b - oy)
}

/// Draws the light mesh (call before the data).
pub(crate) fn draw_grid<DB: DrawingBackend>(
    chart: &XYChart<'_, DB>,
    axes: &Axes,
    x_mesh: bool,
) -> DrawResult<(), DB> {
    let plot = chart.plotting_area().strip_coord_spec();
    let (l, b) = to_plot(chart, (axes.x.0, axes.y.0));
    let (r, t) = to_plot(chart, (axes.x.1, axes.y.1));
    for &v in &axes.y_ticks {
        let y = to_plot(chart, (axes.x.0, v)).1;
        plot.draw(&PathElement::new(
            vec![(l, y), (r, y)],
            GRID.stroke_width(1),
        ))?;
    }
    if x_mesh {
        for &v in &axes.x_ticks {
            let x = to_plot(chart, (v, axes.y.0)).0;
            plot.draw(&PathElement::new(
                vec![(x, t), (x, b)],
                GRID.stroke_width(1),
            ))?;
        }
    }
    Ok(())
}

/// Draws the axes, tick marks, tick labels and axis titles (call after the
/// data). `x_fmt = None` leaves the x tick labels to the caller.
pub(crate) fn draw_axes<DB: DrawingBackend>(
    body: &DrawingArea<DB, Shift>,
    chart: &XYChart<'_, DB>,
    pen: &Pen,
    axes: &Axes,
    (x_desc, y_desc): (&str, &str),
    x_fmt: Option<&dyn Fn(f64) -> String>,
) -> DrawResult<(), DB> {
    let plot = chart.plotting_area().strip_coord_spec();
    let (l, b) = to_plot(chart, (axes.x.0, axes.y.0));
    let (r, t) = to_plot(chart, (axes.x.1, axes.y.1));
    let axis = AXIS.stroke_width(1);
    plot.draw(&PathElement::new(vec![(l, t), (l, b), (r, b)], axis))?;
    let tick_font = Font::new(TICK_SIZE, SUBTLE_TEXT);
    let y_font = tick_font.at(HPos::Right, VPos::Center);
    for &v in &axes.y_ticks {
        let y = to_plot(chart, (axes.x.0, v)).1;
        plot.draw(&PathElement::new(vec![(l - TICK_MARK, y), (l, y)], axis))?;
        let label = fmt_num(v, axes.y_dec);
        pen.text(&plot, &label, &y_font, (l - TICK_MARK - LABEL_GAP, y))?;
    }
    let x_font = tick_font.at(HPos::Center, VPos::Top);
    for &v in &axes.x_ticks {
        let x = to_plot(chart, (v, axes.y.0)).0;
        plot.draw(&PathElement::new(vec![(x, b), (x, b + TICK_MARK)], axis))?;
        if let Some(fmt) = x_fmt {
            pen.text(&plot, &fmt(v), &x_font, (x, b + TICK_MARK + LABEL_GAP))?;
        }
    }
    let range = chart.plotting_area().get_pixel_range();
    let y_title_x = body.get_base_pixel().0 + MARGIN_LEFT;
    draw_axis_titles(body, pen, range, (x_desc, y_desc), axes.x_area, y_title_x)
}

/// Draws the axis titles: x centred at the bottom of the x label area
/// (`x_area` px high), y rotated with its top at absolute x `y_title_x`.
/// `plot` is the plotting area's absolute pixel range.
pub(crate) fn draw_axis_titles<DB: DrawingBackend>(
    body: &DrawingArea<DB, Shift>,
    pen: &Pen,
    (xr, yr): (Range<i32>, Range<i32>),
    (x_desc, y_desc): (&str, &str),
    x_area: i32,
    y_title_x: i32,
) -> DrawResult<(), DB> {
    let (bx, by) = body.get_base_pixel();
    let font = Font::new(DESC_SIZE, TEXT);
    let x_pos = ((xr.start + xr.end) / 2 - bx, yr.end + x_area - 6 - by);
    pen.text(body, x_desc, &font.at(HPos::Center, VPos::Bottom), x_pos)?;
    let y_pos = (y_title_x - bx, (yr.start + yr.end) / 2 - by);
    let y_font = font.at(HPos::Center, VPos::Top).vertical();
    pen.text(body, y_desc, &y_font, y_pos)
}

/// Data-space boxes `(x0, y0, x1, y1)` to pixel boxes relative to the
/// plotting area.
pub(crate) fn to_pixels<DB: DrawingBackend>(
    chart: &XYChart<'_, DB>,
    boxes: &[(f64, f64, f64, f64)],
) -> Vec<(i32, i32, i32, i32)> {
    boxes
        .iter()
        .map(|&(x0, y0, x1, y1)| {
            let (a, b) = to_plot(chart, (x0, y0));
            let (c, d) = to_plot(chart, (x1, y1));
            (a, b, c, d)
        })
        .collect()
}

/// Builds the chart and finds the corner where `legend` (if any) covers the least of `obstacles`;
/// when it still covers some and the y range is automatic (`data_top` given: the data's top), the
/// range's top is raised to leave the legend room and the chart is built again.
pub(crate) fn build_with_legend<'a, DB: DrawingBackend>(
    body: &'a DrawingArea<DB, Shift>,
    mut spec: AxisSpec,
    legend: Option<&Legend>,
    obstacles: &[(f64, f64, f64, f64)],
    data_top: Option<f64>,
) -> DrawResult<(XYChart<'a, DB>, Axes, Option<Corner>), DB> {
    let (chart, axes) = build(body, &spec)?;
    let Some(legend) = legend else {
        return Ok((chart, axes, None));
    };
    let (corner, cover) = legend_corner(&chart, legend, obstacles);
    match data_top.filter(|_| cover > 0) {
        Some(top) => {
            spec.y.1 = headroom_top(&chart, legend, spec.y, top);
            let (chart, axes) = build(body, &spec)?;
            let corner = legend_corner(&chart, legend, obstacles).0;
            Ok((chart, axes, Some(corner)))
        }
        None => Ok((chart, axes, Some(corner))),
    }
}

/// A confidence-interval whisker at data `x` from `lo` to `hi`, clipped to the chart's y range,
/// with caps `half` pixels each side at the ends that lie inside it; nothing when it lies outside.
pub(crate) fn draw_whisker<DB: DrawingBackend>(
    chart: &XYChart<'_, DB>,
    plot: &DrawingArea<DB, Shift>,
    x: f64,
    (lo, hi): (f64, f64),
    half: i32,
    style: ShapeStyle,
) -> DrawResult<(), DB> {
    let (y0, y1) = {
        let r = chart.y_range();
        (r.start, r.end)
    };
    if hi < y0 || lo > y1 {
        return Ok(());
    }
    let (a, b) = (
        to_plot(chart, (x, lo.max(y0))),
        to_plot(chart, (x, hi.min(y1))),
    );
    plot.draw(&PathElement::new(vec![a, b], style))?;
    for (end, val) in [(a, lo), (b, hi)] {
        if (y0..=y1).contains(&val) {
            let cap = vec![(end.0 - half, end.1), (end.0 + half, end.1)];
            plot.draw(&PathElement::new(cap, style))?;
        }
    }
    Ok(())
}

/// Where the legend covers the fewest obstacles, and how much it covers.
pub(crate) fn legend_corner<DB: DrawingBackend>(
    chart: &XYChart<'_, DB>,
    legend: &Legend,
    obstacles: &[(f64, f64, f64, f64)],
) -> (Corner, i64) {
    let (w, h) = chart.plotting_area().dim_in_pixel();
    legend.best_corner((0, 0), (w as i32, h as i32), &to_pixels(chart, obstacles))
}

/// New top of an automatic y range that leaves room for the legend above
/// data reaching up to `data_top`.
pub(crate) fn headroom_top<DB: DrawingBackend>(
    chart: &XYChart<'_, DB>,
    legend: &Legend,
    (lo, _hi): (f64, f64),
    data_top: f64,
) -> f64 {
    let plot_h = chart.plotting_area().dim_in_pixel().1.max(1) as f64;
    let f = ((legend.height() + 8) as f64 / plot_h).min(0.45);
    (data_top - f * lo) / (1.0 - f)
}
