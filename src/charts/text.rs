//! Text layout and drawing with the bundled font.
//!
//! Plotters' `ab_glyph` renderer places each glyph at its truncated pen
//! position and ignores the glyph's left side bearing, which gives visibly
//! uneven letter spacing in PNGs. For bitmaps we therefore lay text out
//! ourselves from the font's own metrics (read here from the TrueType
//! `hmtx`, `cmap` and `kern` tables) and draw it one glyph at a time. SVGs
//! get whole strings, so viewers lay them out with their own text engine.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontFamily, FontStyle, FontTransform};

use super::output::{DrawResult, FONT_BOLD, FONT_REGULAR};

/// The family our text is drawn with. The same name is registered with
/// plotters; SVG viewers use DejaVu Sans if installed, else any sans font.
pub(crate) const FAMILY: &str = "DejaVu Sans, sans-serif";

/// Horizontal metrics of one font, in font units.
pub(crate) struct Metrics {
    /// Font units → pixels at "size 1" (plotters/ab_glyph size = ascent −
    /// descent in pixels).
    unit: f64,
    cap_height: f64,
    descent: f64,
    em: f64,
    /// `(first char, last char, delta, id_range_offset position)` segments
    /// of a cmap format 4 table, plus the raw table.
    cmap: Vec<(u16, u16, u16, usize)>,
    /// `(advance, lsb)` per glyph.
    hmtx: Vec<(u16, i16)>,
    /// Sorted `((left << 16) | right, value)` kerning pairs.
    kern: Vec<(u32, i16)>,
    data: &'static [u8],
}

fn u16_at(d: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*d.get(i)?, *d.get(i + 1)?]))
}

fn i16_at(d: &[u8], i: usize) -> Option<i16> {
    u16_at(d, i).map(|v| v as i16)
}

fn u32_at(d: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_be_bytes([
        *d.get(i)?,
        *d.get(i + 1)?,
        *d.get(i + 2)?,
        *d.get(i + 3)?,
    ]))
}

fn table(d: &[u8], tag: &[u8; 4]) -> Option<usize> {
    let n = u16_at(d, 4)? as usize;
    (0..n)
        .map(|i| 12 + 16 * i)
        .find(|&rec| d.get(rec..rec + 4) == Some(&tag[..]))
        .and_then(|rec| u32_at(d, rec + 8))
        .map(|off| off as usize)
}

impl Metrics {
    fn parse(data: &'static [u8]) -> Option<Metrics> {
        let d = data;
        let head = table(d, b"head")?;
        let hhea = table(d, b"hhea")?;
        let hmtx_off = table(d, b"hmtx")?;
        let maxp = table(d, b"maxp")?;
        let upem = u16_at(d, head + 18)? as f64;
        let ascent = i16_at(d, hhea + 4)? as f64;
        let descent = -(i16_at(d, hhea + 6)? as f64);
        let n_hmetrics = u16_at(d, hhea + 34)? as usize;
        let n_glyphs = u16_at(d, maxp + 4)? as usize;
        let mut hmtx = Vec::with_capacity(n_glyphs);
        let mut last_adv = 0;
        for g in 0..n_glyphs {
            if g < n_hmetrics {
                last_adv = u16_at(d, hmtx_off + 4 * g)?;
                hmtx.push((last_adv, i16_at(d, hmtx_off + 4 * g + 2)?));
            } else {
                let lsb = i16_at(d, hmtx_off + 4 * n_hmetrics + 2 * (g - n_hmetrics))?;
                hmtx.push((last_adv, lsb));
            }
        }
        // cmap: the Windows Unicode BMP subtable (format 4).
        let cmap_off = table(d, b"cmap")?;
        let n_sub = u16_at(d, cmap_off + 2)? as usize;
        let sub = (0..n_sub).find_map(|i| {
            let rec = cmap_off + 4 + 8 * i;
            let (pid, eid) = (u16_at(d, rec)?, u16_at(d, rec + 2)?);
            let off = cmap_off + u32_at(d, rec + 4)? as usize;
            (((pid == 3 && eid == 1) || pid == 0) && u16_at(d, off)? == 4).then_some(off)
        })?;
        let seg_x2 = u16_at(d, sub + 6)? as usize;
        let ends = sub + 14;
        let starts = ends + seg_x2 + 2;
        let deltas = starts + seg_x2;
        let ranges = deltas + seg_x2;
        let mut cmap = vec![];
        for s in 0..seg_x2 / 2 {
            cmap.push((
                u16_at(d, starts + 2 * s)?,
                u16_at(d, ends + 2 * s)?,
                u16_at(d, deltas + 2 * s)?,
                ranges + 2 * s,
            ));
        }
        // kern: version 0, horizontal format 0 subtables.
        let mut kern = vec![];
        if let Some(k) = table(d, b"kern") {
            if u16_at(d, k) == Some(0) {
                let mut off = k + 4;
                for _ in 0..u16_at(d, k + 2).unwrap_or(0) {
                    let len = u16_at(d, off + 2).unwrap_or(0) as usize;
                    let coverage = u16_at(d, off + 4).unwrap_or(0);
                    if coverage >> 8 == 0 && coverage & 1 == 1 {
                        let n = u16_at(d, off + 6).unwrap_or(0) as usize;
                        for p in 0..n {
                            let at = off + 14 + 6 * p;
                            if let (Some(key), Some(v)) = (u32_at(d, at), i16_at(d, at + 4)) {
                                kern.push((key, v));
                            }
                        }
                    }
                    off += len.max(6);
                }
            }
        }
        kern.sort_by_key(|&(key, _)| key);
        let mut m = Metrics {
            unit: 1.0 / (ascent + descent).max(1.0),
            cap_height: upem * 0.73,
            descent,
            em: upem,
            cmap,
            hmtx,
            kern,
            data,
        };
        if let Some(h) = m.glyph_top(m.glyph('H')) {
            m.cap_height = h;
        }
        Some(m)
    }

    fn glyph(&self, c: char) -> u16 {
        let Ok(code) = u16::try_from(c as u32) else {
            return 0;
        };
        for &(start, end, delta, range_pos) in &self.cmap {
            if code < start || code > end {
                continue;
            }
            let range = u16_at(self.data, range_pos).unwrap_or(0);
            if range == 0 {
                return code.wrapping_add(delta);
            }
            let at = range_pos + range as usize + 2 * (code - start) as usize;
            return match u16_at(self.data, at) {
                Some(0) | None => 0,
                Some(g) => g.wrapping_add(delta),
            };
        }
        0
    }

    /// The top (yMax) of a glyph's outline, from `loca` + `glyf`.
    fn glyph_top(&self, g: u16) -> Option<f64> {
        let d = self.data;
        let (head, loca, glyf) = (table(d, b"head")?, table(d, b"loca")?, table(d, b"glyf")?);
        let off = if i16_at(d, head + 50)? == 0 {
            u16_at(d, loca + 2 * g as usize)? as usize * 2
        } else {
            u32_at(d, loca + 4 * g as usize)? as usize
        };
        Some(i16_at(d, glyf + off + 8)? as f64)
    }

    fn hm(&self, g: u16) -> (f64, f64) {
        let (a, l) = self.hmtx.get(g as usize).copied().unwrap_or((0, 0));
        (a as f64, l as f64)
    }

    fn kern(&self, a: u16, b: u16) -> f64 {
        let key = ((a as u32) << 16) | b as u32;
        match self.kern.binary_search_by_key(&key, |&(k, _)| k) {
            Ok(i) => self.kern[i].1 as f64,
            Err(_) => 0.0,
        }
    }

    /// Pen positions (pixels) of each char, the left side bearings and the
    /// total width, at plotters size `size`.
    fn layout(&self, text: &str, size: f64) -> (Vec<(char, f64, f64)>, f64) {
        let s = size * self.unit;
        let mut pen = 0.0;
        let mut prev = None;
        let mut out = vec![];
        for c in text.chars() {
            let g = self.glyph(c);
            if let Some(p) = prev {
                pen += self.kern(p, g) * s;
            }
            let (adv, lsb) = self.hm(g);
            out.push((c, pen, lsb * s));
            pen += adv * s;
            prev = Some(g);
        }
        (out, pen)
    }
}

fn metrics(bold: bool) -> Option<&'static Metrics> {
    static REGULAR: OnceLock<Option<Metrics>> = OnceLock::new();
    static BOLD: OnceLock<Option<Metrics>> = OnceLock::new();
    if bold {
        BOLD.get_or_init(|| Metrics::parse(FONT_BOLD)).as_ref()
    } else {
        REGULAR
            .get_or_init(|| Metrics::parse(FONT_REGULAR))
            .as_ref()
    }
}

/// A text style: size (plotters units; use even sizes), weight, colour,
/// anchor and orientation.
#[derive(Clone, Copy)]
pub(crate) struct Font {
    pub size: f64,
    pub bold: bool,
    pub color: RGBColor,
    pub h: HPos,
    pub v: VPos,
    /// Rotated 90° counter-clockwise (reads bottom to top).
    pub vertical: bool,
}

impl Font {
    pub(crate) fn new(size: f64, color: RGBColor) -> Font {
        Font {
            size,
            bold: false,
            color,
            h: HPos::Left,
            v: VPos::Top,
            vertical: false,
        }
    }

    pub(crate) fn bold(self) -> Font {
        Font { bold: true, ..self }
    }

    pub(crate) fn at(self, h: HPos, v: VPos) -> Font {
        Font { h, v, ..self }
    }

    pub(crate) fn vertical(self) -> Font {
        Font {
            vertical: true,
            ..self
        }
    }

    /// Width of `text` in pixels.
    pub(crate) fn width(&self, text: &str) -> f64 {
        match metrics(self.bold) {
            Some(m) => m.layout(text, self.size).1,
            None => text.chars().count() as f64 * self.size * 0.55,
        }
    }

    /// Height of a line of text (cap height + descent) in pixels.
    pub(crate) fn height(&self) -> f64 {
        match metrics(self.bold) {
            Some(m) => (m.cap_height + m.descent) * m.unit * self.size,
            None => self.size * 0.85,
        }
    }

    fn plotters_style(&self, size: f64) -> TextStyle<'_> {
        let style = if self.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        TextStyle::from(FontDesc::new(FontFamily::Name(FAMILY), size, style)).color(&self.color)
    }
}

/// Draws text; `bitmap` selects glyph-by-glyph layout (PNG) or whole
/// strings (SVG).
#[derive(Clone, Copy)]
pub(crate) struct Pen {
    pub bitmap: bool,
}

impl Pen {
    pub(crate) fn text<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        text: &str,
        font: &Font,
        (x, y): (i32, i32),
    ) -> DrawResult<(), DB> {
        if text.is_empty() {
            return Ok(());
        }
        let Some(m) = metrics(font.bold) else {
            return area.draw_text(text, &font.plotters_style(font.size), (x, y));
        };
        let s = font.size * m.unit;
        let (glyphs, width) = m.layout(text, font.size);
        // In the text's own frame: u along the text, w downwards.
        let u0 = match font.h {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let baseline = match font.v {
            VPos::Top => m.cap_height * s,
            VPos::Center => m.cap_height * s / 2.0,
            VPos::Bottom => -m.descent * s,
        };
        let to_screen = |u: f64, w: f64| -> (i32, i32) {
            let (u, w) = (u.round() as i32, w.round() as i32);
            if font.vertical {
                (x + w, y - u)
            } else {
                (x + u, y + w)
            }
        };
        let transform = if font.vertical {
            FontTransform::Rotate270
        } else {
            FontTransform::None
        };
        if self.bitmap {
            // ab_glyph puts the baseline floor(size / 2) below the anchor
            // and the glyph's ink box at the anchor's x.
            let style = font
                .plotters_style(font.size)
                .transform(transform)
                .pos(Pos::new(HPos::Left, VPos::Top));
            let w = baseline.round() - (font.size / 2.0).floor();
            for (c, pen, lsb) in glyphs {
                if c.is_whitespace() {
                    continue;
                }
                let u = (u0 + pen).round() + lsb.floor();
                let mut buf = [0u8; 4];
                area.draw_text(c.encode_utf8(&mut buf), &style, to_screen(u, w))?;
            }
            Ok(())
        } else {
            // SVG: plotters writes font-size = size / 1.24; scale so that
            // one em matches the bitmap's, and put the baseline where
            // dy = 0.76em (VPos::Top) lands.
            let svg_size = m.em * s * 1.24;
            let em = m.em * s;
            let style = font
                .plotters_style(svg_size)
                .transform(transform)
                .pos(Pos::new(font.h, VPos::Top));
            area.draw_text(text, &style, to_screen(0.0, baseline - 0.76 * em))
        }
    }
}
