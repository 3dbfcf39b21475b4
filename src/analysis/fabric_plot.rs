//! The picture of `palace fabric`, laid out as the paper's Fig. 7: the three noses side by
//! side (`k mod 3 = 0, 1, 2`), each labelled with its k and class; the lower row the whole
//! windows at one pixel per cell, the upper row the same noses zoomed in ([`ZOOM`] pixels per
//! cell over the window's central part around the nose), and a legend of the colours.

use crate::error::Result;
use crate::output::atomic::AtomicOutput;
use crate::output::palette;

/// Pixels per cell in the zoomed-in row.
pub const ZOOM: usize = 4;
/// Height of the band of labels above each row, and of the legend.
const BAND: usize = 28;

/// Where the zoomed-in part of a panel begins (cells from the window's corner) and its side:
/// a quarter of the window, centred on the nose, which lies `size / 8` from the corner.
pub fn zoom_part(size: usize) -> (usize, usize) {
    let side = (size / ZOOM).max(1);
    ((size / 8).saturating_sub(side / 2), side)
}

/// Draws the figure. `picture` holds the three panels' palette indices, `size` rows of
/// `3 size + 2 gap` (panels in the order of `ks`, `gap` columns between them), each window
/// beginning `size / 8` cells before its nose on both axes. An RGB PNG.
pub fn draw(ks: &[u32], size: usize, gap: usize, picture: &[u8], out: AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let n = size;
    let stride = 3 * n + 2 * gap;
    let (w, h) = (stride, 3 * BAND + 2 * n + gap);
    let mut rgb = vec![255u8; w * h * 3];
    let (z0, zs) = zoom_part(n);
    let mut put = |x: usize, y: usize, i: u8| {
        let at = 3 * (y * w + x);
        rgb[at..at + 3].copy_from_slice(&palette::RGB[i as usize]);
    };
    for p in 0..ks.len().min(3) {
        let px0 = p * (n + gap);
        for y in 0..n {
            for x in 0..n {
                let i = picture[y * stride + px0 + x];
                // Lower row: the whole window.
                put(px0 + x, 2 * BAND + n + gap + y, i);
                // Upper row: the central part, ZOOM pixels per cell.
                let (cx, cy) = (z0 + x / ZOOM, z0 + y / ZOOM);
                if x / ZOOM < zs && y / ZOOM < zs {
                    put(px0 + x, BAND + y, picture[cy * stride + px0 + cx]);
                }
            }
        }
    }
    let draw = |root: &crate::output::canvas::Area<'_>| -> crate::output::canvas::Drawn {
        let font = crate::output::canvas::font;
        for (p, &k) in ks.iter().enumerate().take(3) {
            let x = (p * (n + gap) + 4) as i32;
            root.draw(&Text::new(
                format!("k = {k} (k mod 3 = {}), zoomed in {ZOOM}x", k % 3),
                (x, 6),
                font(16),
            ))?;
            root.draw(&Text::new(
                format!(
                    "k = {k}: {n} x {n} cells from ({0}, {0})",
                    ((k - 1) / 3).saturating_sub(n as u32 / 8)
                ),
                (x, (BAND + n + gap + 6) as i32),
                font(16),
            ))?;
        }
        // The legend along the bottom.
        let mut x = 4i32;
        let y = (h - BAND + 6) as i32;
        for (i, label) in palette::NAMES.iter().enumerate() {
            let [r, g, b] = palette::RGB[i];
            root.draw(&Rectangle::new([(x, y), (x + 16, y + 16)], RGBColor(r, g, b).filled()))?;
            root.draw(&Rectangle::new([(x, y), (x + 16, y + 16)], BLACK.stroke_width(1)))?;
            root.draw(&Text::new(label.to_string(), (x + 20, y + 1), font(14)))?;
            x += 24 + 9 * label.len() as i32 + 14;
        }
        Ok(())
    };
    crate::output::canvas::draw_on(&mut rgb, w as u32, h as u32, out.path(), draw)?;
    crate::output::png::write_rgb(out, w as u32, h as u32, &rgb)
}
