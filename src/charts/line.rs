//! Line charts: lines with point markers and optional CI whiskers.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    all_integers, clip_segment, draw_header, draw_marker, extent, finite_pair, fmt_num,
    padded_range, palette, valid_range, Corner, Legend, Marker, Swatch,
};
use super::output::{DrawResult, Render};
use super::text::Pen;
use super::xy::{self, AxisSpec};
use super::{LineChart, Point};

pub(crate) struct LineJob<'a>(pub &'a LineChart);

/// Points with a finite x, sorted by x.
fn clean(points: &[Point]) -> Vec<Point> {
    let mut p: Vec<Point> = points.iter().filter(|p| p.x.is_finite()).copied().collect();
    p.sort_by(|a, b| a.x.total_cmp(&b.x));
    p
}

/// The finite `(low, high)` of a point's interval, if any.
fn ci_of(p: &Point) -> Option<(f64, f64)> {
    finite_pair(p.ci)
}

/// The finite `(low, high)` of a point's band, if any.
fn band_of(p: &Point) -> Option<(f64, f64)> {
    finite_pair(p.band)
}

/// A legend wider than this share of the chart goes inside the plot after all.
const MAX_OUTSIDE_LEGEND: f64 = 0.4;

impl Render for LineJob<'_> {
    fn render<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pen: &Pen,
    ) -> DrawResult<(), DB> {
        let c = self.0;
        root.fill(&WHITE)?;
        let header = draw_header(root, pen, &c.title, c.subtitle.as_deref())?;
        let series: Vec<Vec<Point>> = c.series.iter().map(|s| clean(&s.points)).collect();
        let all = || series.iter().flatten();

        let entries: Vec<(String, Swatch)> = c
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), Swatch::Line(palette(i), Marker::nth(i))))
            .collect();
        let legend = (entries.len() >= 2).then(|| Legend::new(entries));
        let header_w = header.dim_in_pixel().0 as i32;
        let outside = legend
            .as_ref()
            .filter(|l| {
                c.legend_outside && (l.width() as f64) < MAX_OUTSIDE_LEGEND * header_w as f64
            })
            .map(|l| l.width());
        let (body, legend_area) = match outside {
            Some(w) => {
                let (left, right) = header.split_horizontally(header_w - w);
                (left, Some(right))
            }
            None => (header, None),
        };

        let xs = all()
            .filter(|p| p.y.is_finite() || ci_of(p).is_some() || band_of(p).is_some())
            .map(|p| p.x);
        let x_ext = extent(xs);
        let x = match x_ext {
            // A single whole-number x: show its neighbours, not decimals.
            Some((a, b)) if a == b && a.fract() == 0.0 => (a - 1.0, b + 1.0),
            other => padded_range(other, 0.03),
        };
        let x_integer = all_integers(all().map(|p| p.x)) && x.1 - x.0 >= 2.0;

        let y_values = all().flat_map(|p| {
            let (lo, hi) = ci_of(p).unwrap_or((f64::NAN, f64::NAN));
            let (blo, bhi) = band_of(p).unwrap_or((f64::NAN, f64::NAN));
            [p.y, lo, hi, blo, bhi]
        });
        let y_ext = extent(y_values);
        let given = valid_range(c.y_range);
        let spec = AxisSpec {
            x,
            y: given.unwrap_or_else(|| padded_range(y_ext, 0.06)),
            x_integer,
            y_integer: false,
            x_ticks: None,
            has_x_desc: !c.x_label.is_empty(),
            has_y_desc: !c.y_label.is_empty(),
            x_area_extra: 0,
        };

        // Obstacles for legend placement: markers, whiskers and line samples.
        let mut obstacles = vec![];
        for s in &series {
            for (i, p) in s.iter().enumerate() {
                if p.y.is_finite() {
                    obstacles.push((p.x, p.y, p.x, p.y));
                    if let Some(q) = s.get(i + 1).filter(|q| q.y.is_finite()) {
                        for k in 1..12 {
                            let t = k as f64 / 12.0;
                            let (px, py) = (p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
                            obstacles.push((px, py, px, py));
                        }
                    }
                }
                if let Some((lo, hi)) = ci_of(p) {
                    obstacles.push((p.x, lo, p.x, hi));
                }
                if let Some((lo, hi)) = band_of(p) {
                    obstacles.push((p.x, lo, p.x, hi));
                }
            }
        }

        let inside = legend.as_ref().filter(|_| legend_area.is_none());
        let data_top = y_ext.filter(|_| given.is_none()).map(|e| e.1);
        let (chart, axes, corner) =
            xy::build_with_legend(&body, spec, inside, &obstacles, data_top)?;

        xy::draw_grid(&chart, &axes, true)?;

        let (x0, x1) = axes.x;
        let (y0, y1) = axes.y;
        let plot = chart.plotting_area().strip_coord_spec();
        let px = |p: (f64, f64)| xy::to_plot(&chart, p);

        // Bands under every line: a polygon per run of consecutive points that have one. The
        // more bands overlap, the fainter each, so a dozen do not merge into one muddy area.
        let banded = series
            .iter()
            .filter(|s| s.iter().any(|p| band_of(p).is_some()))
            .count();
        let alpha = (0.5 / banded.max(1) as f64).clamp(0.05, 0.14);
        for (i, s) in series.iter().enumerate() {
            let fill = palette(i).mix(alpha).filled();
            for run in s
                .split(|p| band_of(p).is_none() || !(x0..=x1).contains(&p.x))
                .filter(|run| run.len() >= 2)
            {
                let clamp = |y: f64| y.clamp(y0, y1);
                let mut outline: Vec<(i32, i32)> = run
                    .iter()
                    .map(|p| px((p.x, clamp(band_of(p).map_or(p.y, |b| b.1)))))
                    .collect();
                outline.extend(
                    run.iter()
                        .rev()
                        .map(|p| px((p.x, clamp(band_of(p).map_or(p.y, |b| b.0))))),
                );
                plot.draw(&Polygon::new(outline, fill))?;
            }
        }

        for (i, s) in series.iter().enumerate() {
            let color = palette(i);
            // Whiskers first, so lines and markers sit on top.
            for p in s {
                if let Some(ci) = ci_of(p).filter(|_| (x0..=x1).contains(&p.x)) {
                    let style = color.mix(0.85).stroke_width(1);
                    xy::draw_whisker(&chart, &plot, p.x, ci, 4, style)?;
                }
            }
            // The line, broken at non-finite y and clipped to the plot.
            let mut run: Vec<(i32, i32)> = vec![];
            for w in s.windows(2) {
                let (a, b) = ((w[0].x, w[0].y), (w[1].x, w[1].y));
                let clipped = if a.1.is_finite() && b.1.is_finite() {
                    clip_segment(a, b, (x0, x1), (y0, y1))
                } else {
                    None
                };
                match clipped {
                    Some((ca, cb)) => {
                        let (pa, pb) = (px(ca), px(cb));
                        if run.last() != Some(&pa) {
                            flush(&plot, &mut run, color)?;
                            run.push(pa);
                        }
                        run.push(pb);
                    }
                    None => flush(&plot, &mut run, color)?,
                }
            }
            flush(&plot, &mut run, color)?;
            for p in s {
                if p.y.is_finite() && (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y) {
                    draw_marker(&plot, px((p.x, p.y)), Marker::nth(i), color)?;
                }
            }
        }

        let x_dec = axes.x_dec;
        let x_fmt = move |v: f64| fmt_num(v, x_dec);
        let titles = (c.x_label.as_str(), c.y_label.as_str());
        xy::draw_axes(&body, &chart, pen, &axes, titles, Some(&x_fmt))?;
        match (legend, corner, legend_area) {
            (Some(legend), _, Some(area)) => legend.draw(&area, pen, Corner::UpperLeft)?,
            (Some(legend), Some(corner), None) => legend.draw(&plot, pen, corner)?,
            _ => {}
        }
        Ok(())
    }
}

fn flush<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    run: &mut Vec<(i32, i32)>,
    color: RGBColor,
) -> DrawResult<(), DB> {
    if run.len() >= 2 {
        plot.draw(&PathElement::new(
            std::mem::take(run),
            color.stroke_width(2),
        ))?;
    }
    run.clear();
    Ok(())
}
