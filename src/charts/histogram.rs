//! Histograms from pre-computed bins.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    all_integers, draw_header, extent, fmt_num, padded_range, palette, range_from_zero,
};
use super::output::{DrawResult, Render};
use super::text::Pen;
use super::xy::{self, AxisSpec};
use super::Histogram;

pub(crate) struct HistogramJob<'a>(pub &'a Histogram);

impl Render for HistogramJob<'_> {
    fn render<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pen: &Pen,
    ) -> DrawResult<(), DB> {
        let h = self.0;
        root.fill(&WHITE)?;
        let body = draw_header(root, pen, &h.title, h.subtitle.as_deref())?;
        // Finite bins with lo <= hi; zero-width bins are kept (drawn 1 px).
        let bins: Vec<(f64, f64, f64)> = h
            .bins
            .iter()
            .filter(|(lo, hi, v)| lo.is_finite() && hi.is_finite() && v.is_finite())
            .map(|&(lo, hi, v)| (lo.min(hi), lo.max(hi), v))
            .collect();
        let x_ext = extent(bins.iter().flat_map(|&(lo, hi, _)| [lo, hi]));
        let x = match x_ext {
            Some((lo, hi)) if hi > lo => (lo - (hi - lo) * 0.01, hi + (hi - lo) * 0.01),
            other => padded_range(other, 0.0),
        };
        let y = range_from_zero(extent(bins.iter().map(|b| b.2).chain([0.0])));
        let spec = AxisSpec {
            x,
            y,
            x_integer: all_integers(bins.iter().flat_map(|&(lo, hi, _)| [lo, hi])),
            y_integer: false,
            x_ticks: None,
            has_x_desc: !h.x_label.is_empty(),
            has_y_desc: !h.y_label.is_empty(),
            x_area_extra: 0,
        };
        let (chart, axes) = xy::build(&body, &spec)?;
        xy::draw_grid(&chart, &axes, true)?;

        let (y0, y1) = axes.y;
        let base = 0f64.clamp(y0, y1);
        let fill = palette(0);
        let edge = RGBColor(0x2F, 0x4B, 0x6A);
        let plot = chart.plotting_area().strip_coord_spec();
        let px = |p: (f64, f64)| xy::to_plot(&chart, p);
        for &(lo, hi, v) in &bins {
            let (a, b) = (px((lo, base)), px((hi, v.clamp(y0, y1))));
            let b = (b.0.max(a.0 + 1), b.1);
            plot.draw(&Rectangle::new([a, b], fill.mix(0.85).filled()))?;
            if b.0 - a.0 >= 4 {
                plot.draw(&Rectangle::new([a, b], edge.stroke_width(1)))?;
            }
        }
        let x_dec = axes.x_dec;
        let x_fmt = move |v: f64| fmt_num(v, x_dec);
        let titles = (h.x_label.as_str(), h.y_label.as_str());
        xy::draw_axes(&body, &chart, pen, &axes, titles, Some(&x_fmt))
    }
}
