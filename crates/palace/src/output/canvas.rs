//! The drawing set-up every picture with text shares: the embedded font, an RGB canvas drawn
//! with `plotters` and written as a PNG, and text rasterised on its own as ink coverage, for
//! pictures that are not RGB canvases (the region map's legend and junction labels, drawn into
//! an indexed PNG by [`crate::analysis::region_map`]).

use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The font of the plots (DejaVu Sans Mono, Bitstream Vera licence, see
/// `src/assets/DejaVu-LICENSE`), embedded so plotting needs no system fonts.
pub static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// The name the font is registered under with `plotters`.
const FAMILY: &str = "palace-mono";

/// A drawing area on an RGB canvas.
pub type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// What a drawing function returns: any `plotters` error, boxed.
pub type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

fn register() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Fails only when the name is taken, which the `Once` rules out.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// [`FONT`] at `size` pixels.
pub fn font(size: u32) -> FontDesc<'static> {
    register();
    (FAMILY, size).into_font()
}

/// Draws on `rgb`, a `w x h` RGB canvas the caller filled, with `draw`; a failure names `path`.
pub(crate) fn draw_on(
    rgb: &mut [u8],
    w: u32,
    h: u32,
    path: &Path,
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<()> {
    register();
    let fail =
        |e: Box<dyn std::error::Error>| Error::Plot { path: path.to_path_buf(), message: e.to_string() };
    let root = BitMapBackend::with_buffer(rgb, (w, h)).into_drawing_area();
    draw(&root).map_err(fail)?;
    root.present().map_err(|e| fail(e.into()))
}

/// A white `w x h` canvas drawn by `draw` and written to `out` as an RGB PNG.
pub(crate) fn plot_png(
    out: AtomicOutput,
    w: u32,
    h: u32,
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<()> {
    let mut rgb = vec![255u8; w as usize * h as usize * 3];
    draw_on(&mut rgb, w, h, out.path(), draw)?;
    crate::output::rgb::write_rgb(out, w, h, &rgb)
}

/// A line of text rasterised in [`FONT`]: ink coverage 0 (none) to 255 (full) per pixel.
#[derive(Debug, Clone)]
pub struct TextMask {
    /// Width in pixels: the text's advance.
    pub width: usize,
    /// Height in pixels: the line's height, the same for every text of a size.
    pub height: usize,
    /// Coverage, row-major.
    pub ink: Vec<u8>,
}

impl TextMask {
    /// The coverage at `(x, y)`; 0 outside the mask.
    pub fn at(&self, x: usize, y: usize) -> u8 {
        if x < self.width && y < self.height { self.ink[y * self.width + x] } else { 0 }
    }
}

/// The line height of text of `size` pixels in a [`TextMask`]: the font's ascent to descent.
pub(crate) fn line_height(size: u32) -> usize {
    let (ascent, descent) = metrics(size);
    (ascent - descent).ceil() as usize
}

fn metrics(size: u32) -> (f32, f32) {
    use ab_glyph::{Font, ScaleFont};
    let font = ab_glyph::FontRef::try_from_slice(FONT).expect("the embedded font parses");
    let scaled = font.as_scaled(ab_glyph::PxScale::from(size as f32));
    (scaled.ascent(), scaled.descent())
}

/// Rasterises `text` at `size` pixels (ascent to descent), laid out on one baseline with the
/// font's advances, and returns its coverage. (Drawn with `ab_glyph` directly: `plotters`
/// puts the top of every glyph's ink at the text's top, which is good enough for plot labels
/// but lifts descenders off the baseline.)
pub(crate) fn text_mask(text: &str, size: u32) -> TextMask {
    use ab_glyph::{Font, ScaleFont};
    let font = ab_glyph::FontRef::try_from_slice(FONT).expect("the embedded font parses");
    let scale = ab_glyph::PxScale::from(size as f32);
    let scaled = font.as_scaled(scale);
    let height = line_height(size);
    let ascent = scaled.ascent();
    let mut glyphs = Vec::new();
    let mut caret = 0f32;
    for c in text.chars() {
        let id = font.glyph_id(c);
        glyphs.push(id.with_scale_and_position(scale, ab_glyph::point(caret, ascent)));
        caret += scaled.h_advance(id);
    }
    let width = caret.ceil() as usize;
    let mut ink = vec![0u8; width * height];
    for g in glyphs {
        let Some(o) = font.outline_glyph(g) else { continue };
        let b = o.px_bounds();
        o.draw(|x, y, c| {
            let (px, py) = (b.min.x as i64 + i64::from(x), b.min.y as i64 + i64::from(y));
            if (0..width as i64).contains(&px) && (0..height as i64).contains(&py) {
                let at = &mut ink[py as usize * width + px as usize];
                *at = (*at).max((c.clamp(0.0, 1.0) * 255.0).round() as u8);
            }
        });
    }
    TextMask { width, height, ink }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_has_ink_within_its_line() {
        for size in [12, 20, 40] {
            let m = text_mask("armpit (upper) Ag|", size);
            assert!(m.width > 8 * size as usize, "size {size}: width {}", m.width);
            assert!(m.width <= 18 * size as usize * 6 / 10, "size {size}: width {}", m.width);
            assert_eq!(m.height, line_height(size));
            // Ink reaches near the line's top and bottom (ascenders, descenders) but the
            // line's first and last rows stay clear of most of it.
            let rows: Vec<usize> =
                (0..m.height).filter(|&y| (0..m.width).any(|x| m.at(x, y) > 128)).collect();
            let (top, bottom) = (rows[0], *rows.last().unwrap());
            assert!(
                top < m.height / 4 && bottom > m.height * 3 / 4,
                "size {size}: ink rows {top}..={bottom} of {}",
                m.height
            );
            assert!(bottom < m.height, "descenders inside the line");
        }
        assert_eq!(text_mask("", 14).width, 0);
    }

    /// Texts of one size share a baseline: a text without ascenders or descenders has its ink
    /// in the middle of the line, where the same letters sit in a text with both.
    #[test]
    fn one_baseline() {
        let (low, tall) = (text_mask("ace", 30), text_mask("Age", 30));
        let rows = |m: &TextMask| -> Vec<usize> {
            (0..m.height).filter(|&y| (0..m.width).any(|x| m.at(x, y) > 128)).collect()
        };
        let (l, t) = (rows(&low), rows(&tall));
        assert!(l[0] > t[0] + 3, "x-height below the capitals: {} vs {}", l[0], t[0]);
        assert!(l.last() < t.last(), "descender below the baseline");
        // The 'e' of both ends on the same row.
        let e_rows = |m: &TextMask| {
            let x0 = m.width - m.width / 3;
            (0..m.height).filter(|&y| (x0..m.width).any(|x| m.at(x, y) > 128)).collect::<Vec<_>>()
        };
        assert_eq!(e_rows(&low), e_rows(&tall));
    }
}
