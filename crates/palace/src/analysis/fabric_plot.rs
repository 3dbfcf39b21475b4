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
pub(crate) fn zoom_part(size: usize) -> (usize, usize) {
    let side = (size / ZOOM).max(1);
    ((size / 8).saturating_sub(side / 2), side)
}

/// Draws the figure. `picture` holds the three panels' palette indices, `size` rows of
/// `3 size + 2 gap` (panels in the order of `ks`, `gap` columns between them), each window
/// beginning `size / 8` cells before its nose on both axes. An RGB PNG.
///
/// Each panel stands in a column as wide as the panel or as its widest caption, whichever is
/// wider (small panels are padded with white on the right), so that captions never overlap
/// or run off the picture; the legend wraps onto as many lines as the width needs.
pub fn draw(ks: &[u32], size: usize, gap: usize, picture: &[u8], out: AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let n = size;
    let stride = 3 * n + 2 * gap;
    let panels = ks.len().min(3);
    let captions: Vec<(String, String)> = ks
        .iter()
        .take(3)
        .map(|&k| {
            let from = ((k - 1) / 3).saturating_sub(n as u32 / 8);
            (
                format!("k = {k} (k mod 3 = {}), zoomed in {ZOOM}x", k % 3),
                format!("k = {k}: {n} x {n} cells from ({from}, {from})"),
            )
        })
        .collect();
    let widest = captions
        .iter()
        .flat_map(|(a, b)| [a, b])
        .map(|c| crate::output::canvas::text_mask(c, CAPTION).width * 21 / 20 + 2 * MARGIN)
        .max()
        .unwrap_or(0);
    let column = n.max(widest);
    let w = 3 * column + 2 * gap;
    let legend = legend_places(w);
    let legend_rows = legend.iter().map(|&(_, row)| row + 1).max().unwrap_or(1);
    let h = 2 * BAND + 2 * n + gap + legend_rows * BAND;
    let mut rgb = vec![255u8; w * h * 3];
    let (z0, zs) = zoom_part(n);
    let mut put = |x: usize, y: usize, i: u8| {
        let at = 3 * (y * w + x);
        rgb[at..at + 3].copy_from_slice(&palette::RGB[i as usize]);
    };
    for p in 0..panels {
        let src = p * (n + gap);
        let dst = p * (column + gap);
        for y in 0..n {
            for x in 0..n {
                let i = picture[y * stride + src + x];
                // Lower row: the whole window.
                put(dst + x, 2 * BAND + n + gap + y, i);
                // Upper row: the central part, ZOOM pixels per cell.
                let (cx, cy) = (z0 + x / ZOOM, z0 + y / ZOOM);
                if x / ZOOM < zs && y / ZOOM < zs {
                    put(dst + x, BAND + y, picture[cy * stride + src + cx]);
                }
            }
        }
    }
    let draw = |root: &crate::output::canvas::Area<'_>| -> crate::output::canvas::Drawn {
        let font = crate::output::canvas::font;
        for (p, (top, below)) in captions.iter().enumerate() {
            let x = (p * (column + gap) + MARGIN) as i32;
            root.draw(&Text::new(top.clone(), (x, 6), font(CAPTION)))?;
            root.draw(&Text::new(below.clone(), (x, (BAND + n + gap + 6) as i32), font(CAPTION)))?;
        }
        // The legend along the bottom.
        let y0 = 2 * BAND + 2 * n + gap;
        for ((i, label), &(x, row)) in palette::NAMES.iter().enumerate().zip(&legend) {
            let (x, y) = (x as i32, (y0 + row * BAND + 6) as i32);
            let [r, g, b] = palette::RGB[i];
            root.draw(&Rectangle::new([(x, y), (x + 16, y + 16)], RGBColor(r, g, b).filled()))?;
            root.draw(&Rectangle::new([(x, y), (x + 16, y + 16)], BLACK.stroke_width(1)))?;
            root.draw(&Text::new(label.to_string(), (x + 20, y + 1), font(14)))?;
        }
        Ok(())
    };
    crate::output::canvas::draw_on(&mut rgb, w as u32, h as u32, out.path(), draw)?;
    crate::output::rgb::write_rgb(out, w as u32, h as u32, &rgb)
}

/// The captions' size in pixels.
const CAPTION: u32 = 16;
/// Pixels left of a caption or a legend line, and kept free right of a caption.
const MARGIN: usize = 4;

/// Where each colour of the legend goes in a picture `w` pixels wide: its left edge and its
/// line, an entry moving to the next line when it would run past the right edge.
fn legend_places(w: usize) -> Vec<(usize, usize)> {
    let (mut x, mut row) = (MARGIN, 0);
    palette::NAMES
        .iter()
        .map(|label| {
            let width = 24 + 9 * label.len();
            if x > MARGIN && x + width > w {
                (x, row) = (MARGIN, row + 1);
            }
            let at = (x, row);
            x += width + 14;
            at
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend of a narrow picture wraps and stays inside it; a wide one keeps one line.
    #[test]
    fn legend_wraps_inside_the_picture() {
        let narrow = legend_places(3 * 120 + 16);
        assert!(narrow.iter().any(|&(_, row)| row > 0));
        for (&(x, _), label) in narrow.iter().zip(palette::NAMES) {
            assert!(x + 24 + 9 * label.len() <= 3 * 120 + 16, "{label} at {x}");
        }
        assert!(legend_places(3 * 600 + 16).iter().all(|&(_, row)| row == 0));
    }
}
