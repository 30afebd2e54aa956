//! Text layout and drawing with the bundled font.
//!
//! Plotters' `ab_glyph` renderer places each glyph at its truncated pen
//! position and ignores the glyph's left side bearing, which gives visibly
//! uneven letter spacing in PNGs. For bitmaps we therefore lay text out
//! ourselves from the font's own metrics (its `hmtx`, `cmap` and `kern`
//! tables, read with `ttf-parser`) and draw it one glyph at a time. SVGs
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

/// Horizontal metrics of one font, in font units, read with `ttf-parser`.
pub(crate) struct Metrics {
    face: ttf_parser::Face<'static>,
    /// Font units → pixels at "size 1" (plotters/ab_glyph size = ascent −
    /// descent in pixels).
    unit: f64,
    cap_height: f64,
    descent: f64,
    em: f64,
}

impl Metrics {
    fn parse(data: &'static [u8]) -> Option<Metrics> {
        let face = ttf_parser::Face::parse(data, 0).ok()?;
        // The hhea values, which ab_glyph sizes glyphs by (not the OS/2 ones).
        let hhea = face.tables().hhea;
        let ascent = hhea.ascender as f64;
        let descent = -(hhea.descender as f64);
        let em = face.units_per_em() as f64;
        let cap_height = face
            .glyph_index('H')
            .and_then(|g| face.glyph_bounding_box(g))
            .map_or(em * 0.73, |b| b.y_max as f64);
        Some(Metrics {
            face,
            unit: 1.0 / (ascent + descent).max(1.0),
            cap_height,
            descent,
            em,
        })
    }

    fn glyph(&self, c: char) -> ttf_parser::GlyphId {
        self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0))
    }

    fn hm(&self, g: ttf_parser::GlyphId) -> (f64, f64) {
        let advance = self.face.glyph_hor_advance(g).unwrap_or(0);
        let lsb = self.face.glyph_hor_side_bearing(g).unwrap_or(0);
        (advance as f64, lsb as f64)
    }

    /// The pair's kerning from the first horizontal `kern` subtable that has it.
    fn kern(&self, a: ttf_parser::GlyphId, b: ttf_parser::GlyphId) -> f64 {
        let Some(kern) = self.face.tables().kern else {
            return 0.0;
        };
        kern.subtables
            .into_iter()
            .filter(|t| t.horizontal && !t.variable && !t.has_cross_stream)
            .find_map(|t| t.glyphs_kerning(a, b))
            .map_or(0.0, f64::from)
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
