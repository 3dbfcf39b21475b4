//! The picture of `palace gliders`: the map of textures over the upper fabric, one colour per
//! texture ([`super::classify::Texture`]), the map cells of the patches judged gliders in a
//! darker shade of their texture's colour, no fabric white; board coordinates as in every
//! picture (`x` right, `y` down, so the CA's time `t = x + y` runs towards the lower right),
//! `scale x scale` cells a pixel, with the legend strip below it (`crate::output::legend`).

use super::classify::{ClassMap, NO_DATA, TEXTURES};
use super::report::GlidersReport;
use super::texture::CELL;
use super::track::Kind;
use crate::engine::EngineOptions;
use crate::error::Result;
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, StripBelow};
use crate::output::png::PngStream;

/// The textures' colours, in the order of [`TEXTURES`]: small grid blue, large grid light
/// grey, steep only green, shallow only red, neither dark grey.
pub const RGB: [[u8; 3]; 5] =
    [[0x3a, 0x78, 0xff], [0xd6, 0xd6, 0xd6], [0x3c, 0xb4, 0x3c], [0xe8, 0x4a, 0x3a], [0x60, 0x60, 0x60]];
/// The same, darker, for the map cells of gliders.
pub const GLIDER_RGB: [[u8; 3]; 5] =
    [[0x00, 0x1c, 0x8c], [0x70, 0x70, 0x70], [0x00, 0x5c, 0x00], [0x84, 0x00, 0x00], [0x00, 0x00, 0x00]];
/// Palette index of a map cell without fabric.
const BLANK: u8 = 10;

/// The picture's palette: the textures, their gliders, white.
fn plte() -> Vec<u8> {
    RGB.iter().chain(&GLIDER_RGB).chain(&[[0xff, 0xff, 0xff]]).flatten().copied().collect()
}

/// The scales a picture may have: divisors of the map cell.
pub const SCALES: [u32; 5] = [1, 2, 4, 8, 16];

/// The legend of `report`'s picture.
pub fn legend_key(report: &GlidersReport) -> Key {
    let mut entries = Vec::new();
    for t in TEXTURES {
        let share = report.profile.iter().map(|r| r.share[t as usize] * r.cells as f64).sum::<f64>()
            / report.map_cells.max(1) as f64;
        entries.push((t.index(), format!("{} ({:.1}% of the map)", t.name(), 100.0 * share)));
    }
    for t in TEXTURES {
        let n = report.patches.iter().filter(|p| p.texture == t && p.kind == Kind::Glider).count();
        if n > 0 {
            entries.push((5 + t.index(), format!("{}: glider patches ({n})", t.name())));
        }
    }
    entries.push((BLANK, "not fabric above the diagonal, or too little of it".to_string()));
    Key {
        title: format!(
            "k = {}: the upper fabric's textures, black cells' autocorrelation in {s} x {s} windows (threshold {}); map cells of {c} x {c}",
            report.k,
            report.threshold,
            s = report.side,
            c = report.cell
        ),
        entries,
        points: Vec::new(),
    }
}

/// Draws `map` at `scale` cells a pixel (one of [`SCALES`]) to `out`, with the legend strip
/// when `legend` holds; the glider patches are `report`'s. Returns the picture, written but
/// not committed (see [`super::run`]).
pub fn draw(
    report: &GlidersReport,
    map: &ClassMap,
    scale: u32,
    legend: bool,
    out: AtomicOutput,
    opts: &EngineOptions,
) -> Result<AtomicOutput> {
    let g = map.geometry;
    let mut index: Vec<u8> = map.class.iter().map(|&c| if c == NO_DATA { BLANK } else { c }).collect();
    for p in report.patches.iter().filter(|p| p.kind == Kind::Glider) {
        for &(i, j) in &p.map_cells {
            let q = j as usize * g.mw + i as usize;
            index[q] = 5 + map.class[q];
        }
    }
    let px = CELL / scale as usize;
    let (w, h) = (g.mw * px, g.mh * px);
    let window = Window::new(g.x0, g.y0, g.x0 + (g.mw * CELL) as u32, g.y0 + (g.mh * CELL) as u32)?;
    let mut text = vec![(
        "Comment".to_string(),
        format!("palace gliders, k = {}, map window {window}, scale {scale}", report.k),
    )];
    let lay = legend.then(|| legend::layout(&legend_key(report), &plte(), window, scale));
    let (mut strip, (fw, fh), pal) = StripBelow::new(lay, (w as u32, h as u32), plte(), &mut text);
    let mut png = PngStream::create(out, fw, fh, pal, text, opts.threads)?;
    let mut row = vec![0u8; w];
    for j in 0..g.mh {
        for (i, &c) in index[j * g.mw..(j + 1) * g.mw].iter().enumerate() {
            row[i * px..(i + 1) * px].fill(c);
        }
        for _ in 0..px {
            strip.push_row(&mut png, &row)?;
        }
    }
    strip.finish(&mut png)?;
    png.finish_file()
}
