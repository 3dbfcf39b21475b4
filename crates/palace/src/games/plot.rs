//! Pictures and data files of the games' tables: heatmaps drawn with `plotters` on the shared
//! canvas ([`crate::output::canvas`]: the embedded DejaVu Sans Mono font), CSV tables, and the Grundy table as a `.npy`
//! array. Every file goes through [`AtomicOutput`], so it appears whole or not at all.

use super::fibonacci_nim::GrundyTable;
use super::zeckendorf::{Counts, MAX_COLUMNS, Solver};
use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use std::io::Write;

/// One panel of a heatmap: `width x height` cells, cell `(x, y)` coloured by `cell` (`y = 0` at
/// the bottom).
pub struct Panel<'a> {
    /// Caption above the panel.
    pub caption: String,
    /// Cells across.
    pub width: usize,
    /// Cells up.
    pub height: usize,
    /// Axis names (x, y).
    pub axes: (String, String),
    /// The colour of a cell.
    pub cell: Box<dyn Fn(usize, usize) -> [u8; 3] + 'a>,
}

/// A perceptually ordered colour map (viridis, 9 stops, linearly interpolated) at `t` in 0..=1.
pub(crate) fn viridis(t: f64) -> [u8; 3] {
    const STOPS: [[u8; 3]; 9] = [
        [68, 1, 84],
        [71, 44, 122],
        [59, 81, 139],
        [44, 113, 142],
        [33, 144, 141],
        [39, 173, 129],
        [92, 200, 99],
        [170, 220, 50],
        [253, 231, 37],
    ];
    let t = t.clamp(0.0, 1.0) * 8.0;
    let i = (t.floor() as usize).min(7);
    let f = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    [0, 1, 2].map(|k| (f64::from(a[k]) + f * (f64::from(b[k]) - f64::from(a[k]))).round() as u8)
}

/// Draws `panels` side by side under `title`, with `legend` below, into an RGB PNG.
pub fn heatmap(
    title: &str,
    legend: &str,
    panels: &[Panel<'_>],
    panel_px: u32,
    out: AtomicOutput,
) -> Result<()> {
    use plotters::prelude::*;
    let cols = panels.len().clamp(1, 4) as u32;
    let rows = panels.len().div_ceil(cols as usize).max(1) as u32;
    let (top, bottom) = (40u32, 30u32);
    let (pw, ph) = (panel_px + 90, panel_px + 80);
    let (w, h) = (cols * pw, top + rows * ph + bottom);
    let mut rgb = vec![255u8; (w * h * 3) as usize];
    let mut pixels: Vec<(i32, i32, [u8; 3])> = Vec::new();
    {
        let draw = |root: &crate::output::canvas::Area<'_>| -> crate::output::canvas::Drawn {
            root.fill(&WHITE)?;
            let font = crate::output::canvas::font;
            root.draw(&Text::new(title.to_string(), (16, 12), font(18)))?;
            root.draw(&Text::new(legend.to_string(), (16, (h - bottom + 6) as i32), font(14)))?;
            let body = root.margin(top, bottom, 0, 0);
            for (area, p) in body.split_evenly((rows as usize, cols as usize)).iter().zip(panels) {
                let mut chart = ChartBuilder::on(area)
                    .caption(&p.caption, font(15))
                    .margin(10)
                    .x_label_area_size(36)
                    .y_label_area_size(50)
                    .build_cartesian_2d(0f64..p.width as f64, 0f64..p.height as f64)?;
                chart
                    .configure_mesh()
                    .disable_mesh()
                    .x_desc(p.axes.0.clone())
                    .y_desc(p.axes.1.clone())
                    .label_style(font(12))
                    .axis_desc_style(font(13))
                    .x_label_formatter(&|v| format!("{v:.0}"))
                    .y_label_formatter(&|v| format!("{v:.0}"))
                    .draw()?;
                let (xr, yr) = chart.plotting_area().get_pixel_range();
                let (x0, y0) = area.get_base_pixel();
                let _ = (x0, y0);
                let (pxw, pxh) = ((xr.end - xr.start).max(1) as usize, (yr.end - yr.start).max(1) as usize);
                for py in yr.clone() {
                    let y = (yr.end - 1 - py) as usize * p.height / pxh;
                    for px in xr.clone() {
                        let x = (px - xr.start) as usize * p.width / pxw;
                        pixels.push((px, py, (p.cell)(x.min(p.width - 1), y.min(p.height - 1))));
                    }
                }
            }
            Ok(())
        };
        crate::output::canvas::draw_on(&mut rgb, w, h, out.path(), draw)?;
    }
    for (x, y, c) in pixels {
        if (0..w as i32).contains(&x) && (0..h as i32).contains(&y) {
            let i = (y as usize * w as usize + x as usize) * 3;
            rgb[i..i + 3].copy_from_slice(&c);
        }
    }
    crate::output::rgb::write_rgb(out, w, h, &rgb)
}

/// The Grundy table as a heatmap: quota across, pile up, colour by `G(n, q)` on a square-root
/// scale (the values grow with the pile).
pub fn grundy_picture(g: &GrundyTable, out: AtomicOutput) -> Result<()> {
    let max = f64::from(g.max_value().max(1));
    let n = g.max;
    let panel = Panel {
        caption: format!("G(n, q), n, q = 1..{n} (max {})", g.max_value()),
        width: n,
        height: n,
        axes: ("quota q".into(), "pile n".into()),
        cell: Box::new(move |x, y| {
            let v = g.get(y + 1, x + 1);
            if v == 0 { [0, 0, 0] } else { viridis((f64::from(v) / max).sqrt()) }
        }),
    };
    heatmap(
        "Fibonacci nim: Grundy values G(n, q) of a pile of n coins with quota q",
        "black: G = 0 (the player to move loses); colour: G from 1 (purple) to the maximum (yellow), square-root scale",
        &[panel],
        720,
        out,
    )
}

/// Writes the Grundy table as CSV: a header `n,q=1,q=2,...`, then one row per pile.
pub fn grundy_csv(g: &GrundyTable, mut out: AtomicOutput) -> Result<()> {
    let path = out.path().to_path_buf();
    let io = |e| Error::io(&path, e);
    {
        let mut w = std::io::BufWriter::new(out.file());
        write!(w, "n").map_err(io)?;
        for q in 1..=g.max {
            write!(w, ",q={q}").map_err(io)?;
        }
        writeln!(w).map_err(io)?;
        for n in 1..=g.max {
            write!(w, "{n}").map_err(io)?;
            for q in 1..=g.max {
                write!(w, ",{}", g.get(n, q)).map_err(io)?;
            }
            writeln!(w).map_err(io)?;
        }
        w.flush().map_err(io)?;
    }
    out.commit()?;
    Ok(())
}

/// Writes the Grundy table as a `.npy` array of little-endian `uint16`, shape `(N, N)`: row
/// `n - 1`, column `q - 1` holds `G(n, q)`.
pub fn grundy_npy(g: &GrundyTable, mut out: AtomicOutput) -> Result<()> {
    let path = out.path().to_path_buf();
    let io = |e| Error::io(&path, e);
    let mut header = crate::output::npy::header(g.max as u64, g.max as u64);
    // The shared header says int32; this array holds uint16 (same header length).
    let at = header.windows(5).position(|w| w == b"'<i4'").expect("descr");
    header[at..at + 5].copy_from_slice(b"'<u2'");
    {
        let mut w = std::io::BufWriter::new(out.file());
        w.write_all(&header).map_err(io)?;
        let mut row = Vec::with_capacity(2 * g.max);
        for n in 1..=g.max {
            row.clear();
            for q in 1..=g.max {
                row.extend_from_slice(&g.get(n, q).to_le_bytes());
            }
            w.write_all(&row).map_err(io)?;
        }
        w.flush().map_err(io)?;
    }
    out.commit()?;
    Ok(())
}

/// The middle columns' counts of the panels of a positions picture: for `m = 4`, `b = 0..=5`;
/// for `m = 5`, `(b, c)` with `b + c <= 2`; one panel otherwise.
fn middles(m: usize) -> Vec<Vec<u32>> {
    match m {
        4 => (0..6).map(|b| vec![b]).collect(),
        5 => vec![vec![0, 0], vec![1, 0], vec![0, 1], vec![2, 0], vec![1, 1], vec![0, 2]],
        _ => vec![vec![]],
    }
}

/// The positions table of the black-hole game on `F_m` as a picture: the first column's count
/// across and the last column's up (for `m = 3`: `a` against `b`), one panel per value of the
/// middle columns; P dark, N light, beyond `max_value` white.
pub fn positions_picture(m: usize, s: &mut Solver, max_value: u64, out: AtomicOutput) -> Result<()> {
    let cols = m - 1;
    let names = ["a", "b", "c", "d"];
    let wl = super::fib::weight(cols);
    let mut panels = Vec::new();
    for mid in middles(m) {
        let mid_value: u64 =
            mid.iter().enumerate().map(|(i, &c)| u64::from(c) * super::fib::weight(i + 2)).sum();
        if mid_value > max_value {
            continue;
        }
        let left = max_value - mid_value;
        let (wa, hc) =
            if cols == 1 { (left as usize + 1, 1) } else { (left as usize + 1, (left / wl) as usize + 1) };
        let mut grid = vec![0u8; wa * hc];
        for c in 0..hc {
            for a in 0..wa {
                let v = a as u64 + if cols > 1 { c as u64 * wl } else { 0 };
                if v > left {
                    continue;
                }
                let mut p: Counts = [0; MAX_COLUMNS];
                p[0] = a as u32;
                for (i, &x) in mid.iter().enumerate() {
                    p[i + 1] = x;
                }
                if cols > 1 {
                    p[cols - 1] = c as u32;
                }
                grid[c * wa + a] = if s.wins(&p) { 2 } else { 1 };
            }
        }
        let caption = if mid.is_empty() {
            format!("F_{m} board")
        } else {
            mid.iter()
                .enumerate()
                .map(|(i, c)| format!("{} = {c}", names[i + 1]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        panels.push(Panel {
            caption,
            width: wa,
            height: hc,
            axes: ("a (pieces on F_1)".into(), format!("{} (pieces on F_{cols})", names[cols - 1])),
            cell: Box::new(move |x, y| match grid[y * wa + x] {
                1 => [30, 60, 160],
                2 => [235, 200, 150],
                _ => [255, 255, 255],
            }),
        });
    }
    let px = if panels.len() > 1 { 360 } else { 640 };
    heatmap(
        &format!("Black-hole Zeckendorf game on F_{m}: P- and N-positions of value <= {max_value}"),
        "dark blue: P (the player who moved wins); light: N (the player to move wins); white: value beyond the range",
        &panels,
        px,
        out,
    )
}

/// Writes every position of value `<= max_value` on the `F_m` board as CSV: the counts, the
/// value and `P` or `N`.
pub fn positions_csv(m: usize, s: &mut Solver, max_value: u64, mut out: AtomicOutput) -> Result<()> {
    let cols = m - 1;
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let path = out.path().to_path_buf();
    let io = |e| Error::io(&path, e);
    let space = s.space().clone();
    {
        let mut w = std::io::BufWriter::new(out.file());
        let head: Vec<String> =
            (0..cols).map(|i| names.get(i).map_or(format!("c{}", i + 1), |s| s.to_string())).collect();
        writeln!(w, "{},value,outcome", head.join(",")).map_err(io)?;
        let mut err = None;
        for v in 0..=max_value {
            space.for_each_of_value(v, &mut |p| {
                if err.is_some() {
                    return;
                }
                let counts: Vec<String> = p[..cols].iter().map(u32::to_string).collect();
                let o = if s.wins(p) { "N" } else { "P" };
                if let Err(e) = writeln!(w, "{},{v},{o}", counts.join(",")) {
                    err = Some(e);
                }
            });
        }
        if let Some(e) = err {
            return Err(io(e));
        }
        w.flush().map_err(io)?;
    }
    out.commit()?;
    Ok(())
}
