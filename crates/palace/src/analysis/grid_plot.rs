//! The picture of `palace grid`: one panel per window, the black cells' autocorrelation map
//! over the shifts `|dx|, |dy| <= reach` (one pixel per shift, the zero shift in the middle,
//! rows down as on the board), grey from dark (negative) to white, with the measured lattice
//! marked: the large grid's lattice (vectors of 20 to 60 cells) in red, rings at `±v1` and
//! `±v2` and dots at the other points `i v1 + j v2`, the small grid's (8 to 20 cells) in
//! blue. Each panel is titled with its distance from the nose and the two cell sizes (blue /
//! red).

use crate::analysis::grid::{Correlation, GridReport};
use crate::error::Result;
use crate::output::atomic::AtomicOutput;
use crate::output::canvas::{self, Area, Drawn};

/// Panels per row of the picture.
const COLUMNS: usize = 4;
/// Height of a panel's title.
const TITLE: usize = 22;
/// Gap between panels.
const GAP: usize = 10;
/// The correlations drawn black and white; values beyond are clipped.
const RANGE: (f64, f64) = (-0.1, 0.25);

/// Draws the maps of `report`'s windows (`maps` in the same order) to `out` as an RGB PNG.
pub fn draw(report: &GridReport, maps: &[Correlation], out: AtomicOutput) -> Result<()> {
    let reach = maps.first().map_or(1, |m| m.reach);
    let side = (2 * reach + 1) as usize;
    let cols = COLUMNS.min(maps.len()).max(1);
    let rows = maps.len().div_ceil(cols).max(1);
    let (cw, ch) = (side + GAP, side + TITLE + GAP);
    let (w, h) = (cols * cw + GAP, rows * ch + TITLE + GAP);
    let mut rgb = vec![255u8; w * h * 3];
    let origin = |i: usize| (GAP + (i % cols) * cw, TITLE + GAP + (i / cols) * ch + TITLE);
    for (i, m) in maps.iter().enumerate() {
        let (ox, oy) = origin(i);
        for py in 0..side {
            for px in 0..side {
                let r = m.at(px as i64 - reach, py as i64 - reach);
                let g = ((r - RANGE.0) / (RANGE.1 - RANGE.0)).clamp(0.0, 1.0);
                let v = (g * 255.0).round() as u8;
                let at = 3 * ((oy + py) * w + ox + px);
                rgb[at..at + 3].copy_from_slice(&[v, v, v]);
            }
        }
    }
    let draw = |root: &Area<'_>| -> Drawn {
        use plotters::prelude::*;
        root.draw(&Text::new(
            format!(
                "k = {}: black cells' autocorrelation, |dx|, |dy| <= {reach}; lattices 8-20 blue, 20-60 red",
                report.k
            ),
            (GAP as i32, 4),
            canvas::font(13),
        ))?;
        for (i, win) in report.windows.iter().enumerate() {
            let (ox, oy) = origin(i);
            let size = |b: usize| {
                win.black.lattices[b].lattice.as_ref().map_or("-".to_string(), |l| format!("{:.1}", l.size))
            };
            let title = format!("d = {}: {} / {}", win.d, size(0), size(1));
            root.draw(&Text::new(title, (ox as i32, (oy - TITLE + 3) as i32), canvas::font(14)))?;
            let centre = (ox as i64 + reach, oy as i64 + reach);
            let inside = |x: i64, y: i64| x.abs() <= reach && y.abs() <= reach;
            for (b, colour) in [(0, BLUE), (1, RED)] {
                let Some(l) = &win.black.lattices[b].lattice else { continue };
                for i in -8i64..=8 {
                    for j in -8i64..=8 {
                        let (x, y) = (i * l.v1.dx + j * l.v2.dx, i * l.v1.dy + j * l.v2.dy);
                        if !inside(x, y) || (i, j) == (0, 0) {
                            continue;
                        }
                        let p = ((centre.0 + x) as i32, (centre.1 + y) as i32);
                        if i.abs() + j.abs() == 1 {
                            root.draw(&Circle::new(p, 5, colour.stroke_width(2)))?;
                        } else if b == 1 {
                            root.draw(&Circle::new(p, 2, colour.filled()))?;
                        }
                    }
                }
            }
        }
        Ok(())
    };
    canvas::draw_on(&mut rgb, w as u32, h as u32, out.path(), draw)?;
    crate::output::rgb::write_rgb(out, w as u32, h as u32, &rgb)
}
