//! Shared styling, axis maths, header, legend and clipping helpers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::output::DrawResult;
use super::text::{Font, Pen};

/// Tableau 10 (2016): distinct and reasonably colour-blind friendly.
pub(crate) const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xBA, 0xB0, 0xAC),
];

pub(crate) fn palette(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

pub(crate) const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(crate) const SUBTLE_TEXT: RGBColor = RGBColor(0x55, 0x55, 0x55);
pub(crate) const AXIS: RGBColor = RGBColor(0x66, 0x66, 0x66);
pub(crate) const GRID: RGBColor = RGBColor(0xE3, 0xE3, 0xE3);
pub(crate) const NO_DATA: RGBColor = RGBColor(0xC8, 0xC8, 0xC8);

pub(crate) const TITLE_SIZE: f64 = 26.0;
pub(crate) const SUBTITLE_SIZE: f64 = 16.0;
pub(crate) const DESC_SIZE: f64 = 16.0;
pub(crate) const TICK_SIZE: f64 = 14.0;
pub(crate) const LEGEND_SIZE: f64 = 14.0;

/// `font` made smaller (in even steps, down to 10) until `text` fits `max_w`.
pub(crate) fn shrink_to_fit(mut font: Font, text: &str, max_w: f64) -> Font {
    while font.size > 10.0 && font.width(text) > max_w {
        font.size -= 2.0;
    }
    font
}

/// Draws the title (and subtitle) centred at the top; returns the area below.
pub(crate) fn draw_header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: &Pen,
    title: &str,
    subtitle: Option<&str>,
) -> DrawResult<DrawingArea<DB, Shift>, DB> {
    let (w, _) = root.dim_in_pixel();
    let cx = w as i32 / 2;
    let mut y = 16;
    let max_w = w as f64 - 40.0;
    if !title.trim().is_empty() {
        let font = Font::new(TITLE_SIZE, TEXT)
            .bold()
            .at(HPos::Center, VPos::Top);
        pen.text(root, title, &shrink_to_fit(font, title, max_w), (cx, y))?;
        y += 34;
    }
    if let Some(sub) = subtitle.filter(|s| !s.trim().is_empty()) {
        let font = Font::new(SUBTITLE_SIZE, SUBTLE_TEXT).at(HPos::Center, VPos::Top);
        let mut font = shrink_to_fit(font, sub, max_w);
        // A subtitle too long to fit at a readable size wraps onto a few lines instead.
        font.size = font.size.max(13.0);
        for line in wrap(sub, max_w, |t| font.width(t)).iter().take(4) {
            pen.text(root, line, &font, (cx, y))?;
            y += font.size as i32 + 8;
        }
        y += 4;
    }
    Ok(root.split_vertically(y + 4).1)
}

/// Greedy word wrap of `text` into lines no wider than `max_w` (a longer single word stays whole).
pub(crate) fn wrap(text: &str, max_w: f64, width: impl Fn(&str) -> f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&candidate) <= max_w || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Minimum and maximum of the finite values, if any.
pub(crate) fn extent<I: IntoIterator<Item = f64>>(values: I) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// A usable axis range: finite, `lo < hi`, padded by `frac` of the span on
/// each side. Degenerate input is widened around its value.
pub(crate) fn padded_range(ext: Option<(f64, f64)>, frac: f64) -> (f64, f64) {
    let (lo, hi) = match ext {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => (lo.min(hi), lo.max(hi)),
        _ => return (0.0, 1.0),
    };
    let span = hi - lo;
    if span > f64::EPSILON * lo.abs().max(hi.abs()).max(1e-300) && span.is_finite() {
        (lo - span * frac, hi + span * frac)
    } else {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        (lo - pad, hi + pad)
    }
}

/// An automatic range for bars, which grow from zero: padded like [`padded_range`] at the ends
/// away from zero, not below a zero baseline (nor above one when every value is negative).
pub(crate) fn range_from_zero(ext: Option<(f64, f64)>) -> (f64, f64) {
    let (lo, hi) = padded_range(ext, 0.06);
    let (dlo, dhi) = ext.unwrap_or((0.0, 1.0));
    (
        if dlo >= 0.0 { 0.0 } else { lo },
        if dhi <= 0.0 && dlo < 0.0 { 0.0 } else { hi },
    )
}

/// The finite `(low, high)` of an interval (a whisker or a band), in order, if any.
pub(crate) fn finite_pair(pair: Option<(f64, f64)>) -> Option<(f64, f64)> {
    match pair {
        Some((a, b)) if a.is_finite() && b.is_finite() => Some((a.min(b), a.max(b))),
        _ => None,
    }
}

/// A caller-given range if usable (finite, non-empty), else `None`.
pub(crate) fn valid_range(r: Option<(f64, f64)>) -> Option<(f64, f64)> {
    match r {
        Some((a, b)) if a.is_finite() && b.is_finite() && a != b => Some((a.min(b), a.max(b))),
        _ => None,
    }
}

/// Evenly spaced "nice" ticks (steps 1, 2, 2.5, 5 × 10^k) inside `[lo, hi]`,
/// at most about `max_n` of them, plus the number of decimals they need.
pub(crate) fn nice_ticks(lo: f64, hi: f64, max_n: usize, integer: bool) -> (Vec<f64>, usize) {
    let max_n = max_n.max(2) as f64;
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return (vec![], 0);
    }
    let raw = span / max_n;
    let mag = 10f64.powf(raw.log10().floor());
    let mut step = mag * 10.0;
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if span / (m * mag) <= max_n {
            step = m * mag;
            break;
        }
    }
    if integer {
        step = step.max(1.0).round();
        if step == 3.0 {
            step = 2.0;
        }
    }
    let decimals = decimals_for(step);
    let first = (lo / step).ceil();
    let last = (hi / step).floor();
    let mut ticks = vec![];
    let mut k = first;
    while k <= last && ticks.len() < 1000 {
        let scale = 10f64.powi(decimals as i32);
        let v = (k * step * scale).round() / scale;
        ticks.push(if v == 0.0 { 0.0 } else { v });
        k += 1.0;
    }
    (ticks, decimals)
}

/// Decimals needed to print multiples of `step` exactly.
pub(crate) fn decimals_for(step: f64) -> usize {
    if !(step.is_finite() && step > 0.0) {
        return 0;
    }
    (0..10)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
        })
        .unwrap_or(10)
}

/// Formats a number with `decimals` decimals, never printing "-0".
pub(crate) fn fmt_num(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v);
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// Whether all finite values are whole numbers.
pub(crate) fn all_integers<I: IntoIterator<Item = f64>>(values: I) -> bool {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .all(|v| v.fract() == 0.0)
}

/// Clips the segment `a`–`b` to the box `[x0, x1] × [y0, y1]` (Liang–Barsky).
pub(crate) fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t0 = 0.0f64;
    let mut t1 = 1.0f64;
    for (p, q) in [
        (-dx, a.0 - x0),
        (dx, x1 - a.0),
        (-dy, a.1 - y0),
        (dy, y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

/// What a legend entry shows next to its name.
#[derive(Clone, Copy)]
pub(crate) enum Swatch {
    /// A short line with the series' point marker.
    Line(RGBColor, Marker),
    /// A filled box (bars).
    Bar(RGBColor),
}

/// Point marker shapes, cycled per series so series stay distinguishable
/// without colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Marker {
    pub(crate) fn nth(i: usize) -> Marker {
        [
            Marker::Circle,
            Marker::Square,
            Marker::Triangle,
            Marker::Diamond,
        ][i % 4]
    }
}

/// Draws a marker centred on the pixel `c` of `area`.
pub(crate) fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: (i32, i32),
    marker: Marker,
    color: RGBColor,
) -> DrawResult<(), DB> {
    let fill = color.filled();
    let edge = WHITE.stroke_width(1);
    let (x, y) = c;
    match marker {
        Marker::Circle => {
            area.draw(&Circle::new(c, 4, fill))?;
            area.draw(&Circle::new(c, 4, edge))
        }
        Marker::Square => {
            area.draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], fill))?;
            area.draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], edge))
        }
        Marker::Triangle => {
            let pts = vec![(x, y - 5), (x + 5, y + 4), (x - 5, y + 4)];
            area.draw(&Polygon::new(pts.clone(), fill))?;
            area.draw(&PathElement::new(
                vec![pts[0], pts[1], pts[2], pts[0]],
                edge,
            ))
        }
        Marker::Diamond => {
            let pts = vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)];
            area.draw(&Polygon::new(pts.clone(), fill))?;
            area.draw(&PathElement::new(
                vec![pts[0], pts[1], pts[2], pts[3], pts[0]],
                edge,
            ))
        }
    }
}

/// A legend: entries plus its pixel size.
pub(crate) struct Legend {
    entries: Vec<(String, Swatch)>,
    width: i32,
    height: i32,
}

const LEGEND_PAD: i32 = 9;
const LEGEND_ROW: i32 = 22;
const LEGEND_SWATCH: i32 = 30;
const LEGEND_INSET: i32 = 10;

impl Legend {
    pub(crate) fn new(entries: Vec<(String, Swatch)>) -> Legend {
        let font = Font::new(LEGEND_SIZE, TEXT);
        let text_w = entries
            .iter()
            .map(|(name, _)| font.width(name).ceil() as i32)
            .max()
            .unwrap_or(0);
        Legend {
            width: LEGEND_PAD * 2 + LEGEND_SWATCH + 8 + text_w,
            height: LEGEND_PAD * 2 + LEGEND_ROW * entries.len() as i32 - 4,
            entries,
        }
    }

    pub(crate) fn height(&self) -> i32 {
        self.height + LEGEND_INSET
    }

    /// Width including the inset from the plot's edge.
    pub(crate) fn width(&self) -> i32 {
        self.width + 2 * LEGEND_INSET
    }

    /// The legend's box when placed in `corner` of the plotting area whose
    /// pixel extent is `(x range, y range)`.
    fn rect(
        &self,
        corner: Corner,
        (xr, yr): (i32, i32),
        (w, h): (i32, i32),
    ) -> (i32, i32, i32, i32) {
        let x = if corner.right() {
            xr + w - self.width - LEGEND_INSET
        } else {
            xr + LEGEND_INSET
        };
        let y = if corner.top() {
            yr + LEGEND_INSET
        } else {
            yr + h - self.height - LEGEND_INSET
        };
        (x, y, x + self.width, y + self.height)
    }

    /// The corner where the legend covers the least of `obstacles`
    /// (pixel boxes `(x0, y0, x1, y1)`), preferring the upper right; also
    /// returns how much it still covers there.
    pub(crate) fn best_corner(
        &self,
        origin: (i32, i32),
        dim: (i32, i32),
        obstacles: &[(i32, i32, i32, i32)],
    ) -> (Corner, i64) {
        let mut best = (Corner::UpperRight, i64::MAX);
        for corner in Corner::ALL {
            let (lx0, ly0, lx1, ly1) = self.rect(corner, origin, dim);
            let (lx0, ly0, lx1, ly1) = (lx0 - 4, ly0 - 4, lx1 + 4, ly1 + 4);
            let cover: i64 = obstacles
                .iter()
                .map(|&(ax, ay, bx, by)| {
                    let (x0, x1) = (ax.min(bx), ax.max(bx));
                    let (y0, y1) = (ay.min(by), ay.max(by));
                    if x0 <= lx1 && x1 >= lx0 && y0 <= ly1 && y1 >= ly0 {
                        // Thin obstacles (points, line samples) count too.
                        let w = (x1.min(lx1) - x0.max(lx0)) as i64;
                        let h = (y1.min(ly1) - y0.max(ly0)) as i64;
                        (w * h).max(1)
                    } else {
                        0
                    }
                })
                .sum();
            if cover < best.1 {
                best = (corner, cover);
            }
        }
        best
    }

    /// Draws the legend in `corner` of `plot` (a pixel-coordinate area).
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        pen: &Pen,
        corner: Corner,
    ) -> DrawResult<(), DB> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let (w, h) = plot.dim_in_pixel();
        let (x0, y0, x1, y1) = self.rect(corner, (0, 0), (w as i32, h as i32));
        plot.draw(&Rectangle::new(
            [(x0, y0), (x1, y1)],
            WHITE.mix(0.88).filled(),
        ))?;
        plot.draw(&Rectangle::new(
            [(x0, y0), (x1, y1)],
            RGBColor(0xBB, 0xBB, 0xBB).stroke_width(1),
        ))?;
        let font = Font::new(LEGEND_SIZE, TEXT).at(HPos::Left, VPos::Center);
        for (i, (name, swatch)) in self.entries.iter().enumerate() {
            let cy = y0 + LEGEND_PAD + LEGEND_ROW * i as i32 + (LEGEND_ROW - 4) / 2;
            let sx = x0 + LEGEND_PAD;
            match *swatch {
                Swatch::Line(color, marker) => {
                    plot.draw(&PathElement::new(
                        vec![(sx, cy), (sx + LEGEND_SWATCH, cy)],
                        color.stroke_width(2),
                    ))?;
                    draw_marker(plot, (sx + LEGEND_SWATCH / 2, cy), marker, color)?;
                }
                Swatch::Bar(color) => {
                    plot.draw(&Rectangle::new(
                        [(sx + 4, cy - 7), (sx + LEGEND_SWATCH - 4, cy + 7)],
                        color.filled(),
                    ))?;
                }
            }
            pen.text(plot, name, &font, (sx + LEGEND_SWATCH + 8, cy))?;
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Corner {
    UpperRight,
    UpperLeft,
    LowerRight,
    LowerLeft,
}

impl Corner {
    const ALL: [Corner; 4] = [
        Corner::UpperRight,
        Corner::UpperLeft,
        Corner::LowerRight,
        Corner::LowerLeft,
    ];

    fn right(self) -> bool {
        matches!(self, Corner::UpperRight | Corner::LowerRight)
    }

    fn top(self) -> bool {
        matches!(self, Corner::UpperRight | Corner::UpperLeft)
    }
}
