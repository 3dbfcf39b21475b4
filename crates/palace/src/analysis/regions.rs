//! `palace regions`: per region, its cells, palaces and histogram of values; the junctions
//! (nose, shoulders, armpits, prism) and hottest cells; the upper rift's width along its
//! length; the borders between the regions ([`borders`]); and the region map. The labels come
//! from the region labeller, [`crate::labels`].

pub mod borders;

use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::sink::Row;
use crate::error::Result;
use crate::labels::{ALL, BLOCK, LabelledRow, LabelledTile, NONE, Region, label, label_tiles, run_len};
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::output::legend::{self, MapOutput};
use crate::output::ordered::OrderedPicture;
use crate::output::png::PngStream;
use borders::{Border, BorderAcc};
use serde::Serialize;
use std::collections::BTreeMap;

/// Labels of the rifts, as the tiles hold them ([`Region::index`]).
const RIFT_UP: u8 = Region::RiftUpper as u8;
const RIFT_LO: u8 = Region::RiftLower as u8;

/// The region map's palette (flat RGB), in [`ALL`] order, then white for masked cells.
pub fn plte() -> Vec<u8> {
    [
        [0x5c, 0x33, 0x17], // hood: dark brown
        [0x00, 0x00, 0x00], // outer space: black
        [0xb5, 0xb3, 0x5c], // upper épaulette: light olive
        [0x9a, 0x98, 0x48], // lower épaulette: olive
        [0x3a, 0x6e, 0xe8], // fabric: blue
        [0xff, 0xd7, 0x00], // upper arm: gold
        [0xe8, 0xb0, 0x00], // lower arm: dark gold
        [0x1f, 0x9e, 0x89], // upper rift: teal
        [0x17, 0x80, 0x6e], // lower rift: dark teal
        [0x7f, 0xd4, 0xff], // fray: light blue
        [0x8a, 0x3f, 0xa8], // upper warp: purple
        [0x70, 0x30, 0x8c], // lower warp: dark purple
        [0xe0, 0x6f, 0x9f], // inner sector: pink
        [0xff, 0xff, 0xff], // masked
    ]
    .iter()
    .flatten()
    .copied()
    .collect()
}

/// Per-region counts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RegionStats {
    /// Cells in the region.
    pub cells: u64,
    /// Palaces (v < 0) in it.
    pub palaces: u64,
    /// Palace density.
    pub density: f64,
    /// `(v, count)` for the values in the region (the hood's are summarised by its range).
    pub histogram: Vec<(i64, u64)>,
    /// Smallest and largest v.
    pub v_range: Option<(i64, i64)>,
}

/// A located junction (§3.1).
#[derive(Debug, Clone, Serialize)]
pub struct Junction {
    /// Its name.
    pub name: &'static str,
    /// Column.
    pub x: u64,
    /// Row.
    pub y: u64,
    /// How it was located.
    pub how: String,
}

/// The result of `palace regions`.
#[derive(Debug, Clone, Serialize)]
pub struct RegionsReport {
    /// The game.
    pub k: u32,
    /// The window reported.
    pub window: [u32; 4],
    /// Block side of the block tests.
    pub block: usize,
    /// Per region, in [`ALL`] order.
    pub regions: Vec<(Region, RegionStats)>,
    /// The junctions that could be located.
    pub junctions: Vec<Junction>,
    /// The hottest cell on or above the diagonal and the one below it (not junctions: where
    /// they lie against the armpits is a question of §4, answered by measuring).
    pub hottest: Vec<Junction>,
    /// The upper rift's width along its length (the lower rift is its mirror image).
    pub rift: RiftReport,
    /// Every pair of regions that touch, with the edges between them (§3.1's borders).
    pub borders: Vec<Border>,
}

/// Per column, the upper rift's cells in the window: (cells, top row, bottom row).
type RiftColumns = BTreeMap<u64, (u64, u64, u64)>;

/// Adds a cell of the upper rift to its column.
fn add_rift(cols: &mut RiftColumns, x: u64, y: u64) {
    let e = cols.entry(x).or_insert((0, y, y));
    *e = (e.0 + 1, e.1.min(y), e.2.max(y));
}

/// Where a rift ends: the lowest cell of its last column, unless that column or row is the
/// window's last (the window then cuts the rift, and where it ends is not known).
fn rift_end(cols: &RiftColumns, window: Window) -> Option<(u64, u64)> {
    let (&x, &(_, _, y)) = cols.last_key_value()?;
    (x + 1 < u64::from(window.x1()) && y + 1 < u64::from(window.y1())).then_some((x, y))
}

/// Merges the rift columns `b` into `a`.
fn merge_rift(a: &mut RiftColumns, b: RiftColumns) {
    for (x, (c, t, d)) in b {
        let e = a.entry(x).or_insert((0, t, d));
        *e = (e.0 + c, e.1.min(t), e.2.max(d));
    }
}

/// How many stretches [`RiftReport::bins`] cuts the rift into.
pub const RIFT_BINS: u64 = 16;

/// The upper rift's vertical width (its cells per column) along its length.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RiftReport {
    /// Columns of the window holding a cell of the upper rift.
    pub columns: u64,
    /// The upper rift's cells in the window.
    pub cells: u64,
    /// Its first and last column, as offsets from the nose's column `(k-1)/3`.
    pub span: Option<(u64, u64)>,
    /// Its lowest cell in its last column: where it ends.
    pub end: Option<(u64, u64)>,
    /// The span cut into [`RIFT_BINS`] stretches of equal length.
    pub bins: Vec<RiftBin>,
    /// Least-squares slope of the width against the offset, in cells per 1000 columns.
    pub widening_per_1000: Option<f64>,
}

/// One stretch of the upper rift.
#[derive(Debug, Clone, Serialize)]
pub struct RiftBin {
    /// First and one past the last column offset from the nose.
    pub from: u64,
    /// See `from`.
    pub to: u64,
    /// Columns of the stretch holding a rift cell.
    pub columns: u64,
    /// Mean cells per such column.
    pub mean_width: f64,
    /// Most cells in one column.
    pub max_width: u64,
}

impl RiftReport {
    /// The report of the upper rift's columns for game `k` (offsets from the nose's column).
    fn new(k: u32, cols: &RiftColumns) -> Self {
        let m = u64::from(k.saturating_sub(1) / 3);
        let mut r = RiftReport { columns: cols.len() as u64, ..Default::default() };
        let (Some((&first, _)), Some((&last, &(_, _, bottom)))) =
            (cols.first_key_value(), cols.last_key_value())
        else {
            return r;
        };
        let off = |x: u64| x.saturating_sub(m);
        r.cells = cols.values().map(|c| c.0).sum();
        r.span = Some((off(first), off(last)));
        r.end = Some((last, bottom));
        let len = (off(last) - off(first) + 1).div_ceil(RIFT_BINS);
        let mut bins: BTreeMap<u64, (u64, u64, u64)> = BTreeMap::new();
        let (mut sx, mut sy, mut sxx, mut sxy) = (0f64, 0f64, 0f64, 0f64);
        for (&x, &(c, _, _)) in cols {
            let b = (off(x) - off(first)) / len;
            let e = bins.entry(b).or_insert((0, 0, 0));
            *e = (e.0 + 1, e.1 + c, e.2.max(c));
            let (fx, fy) = (off(x) as f64, c as f64);
            (sx, sy, sxx, sxy) = (sx + fx, sy + fy, sxx + fx * fx, sxy + fx * fy);
        }
        let n = cols.len() as f64;
        let d = n * sxx - sx * sx;
        r.widening_per_1000 = (cols.len() > 1 && d > 0.0).then(|| 1000.0 * (n * sxy - sx * sy) / d);
        r.bins = bins
            .into_iter()
            .map(|(b, (columns, cells, max_width))| RiftBin {
                from: off(first) + b * len,
                to: off(first) + (b + 1) * len,
                columns,
                mean_width: cells as f64 / columns as f64,
                max_width,
            })
            .collect();
        r
    }
}

/// Accumulates per-region statistics and the junctions over labelled rows.
pub struct RegionAcc {
    k: u32,
    window: Window,
    /// Per region, counts of `v + 128` (cells outside the hood are exact in 8 bits).
    hist: Vec<[u64; 256]>,
    hood_range: Option<(i64, i64)>,
    hood_cells: u64,
    /// The hottest cell above and below the diagonal: (v, x, y), first in row-major order.
    hottest: [Option<(i64, u64, u64)>; 2],
    /// The fabric's run along the diagonal from the nose: its last cell, and whether it ended
    /// (a gap of more than two blocks).
    prism: Option<u64>,
    prism_ended: bool,
    rift: RiftColumns,
    /// The lower rift's cells transposed: per row, (cells, first column, last column).
    rift_lower: RiftColumns,
    borders: BorderAcc,
    /// The labels of the window's previous row (as [`Region::index`]), and of its current one.
    prev: Vec<u8>,
    row: Vec<u8>,
}

impl RegionAcc {
    /// Empty statistics of `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        RegionAcc {
            k,
            window,
            hist: vec![[0; 256]; ALL.len()],
            hood_range: None,
            hood_cells: 0,
            hottest: [None; 2],
            prism: None,
            prism_ended: false,
            rift: RiftColumns::new(),
            rift_lower: RiftColumns::new(),
            borders: BorderAcc::default(),
            prev: Vec::new(),
            row: Vec::new(),
        }
    }

    /// Adds a labelled row (cells from column 0); only its part inside the window counts.
    pub fn add<E>(&mut self, r: &LabelledRow<E>) {
        if !(self.window.y0()..self.window.y1()).contains(&r.y) {
            return;
        }
        let y = u64::from(r.y);
        let row = Row { k: self.k, y: r.y, x0: 0, cells: &r.cells };
        let hood = row.hood_cells();
        let (x0, x1) = (self.window.x0() as usize, self.window.x1() as usize);
        // The borders: the row's labels against its own and the previous row's.
        self.row.clear();
        self.row.extend(r.labels[x0..x1].iter().map(|&l| l.index() as u8));
        let above = (r.y > self.window.y0()).then_some(&self.prev[..]);
        self.borders.add_row(y, x0 as u64, &self.row, NONE, above, NONE);
        std::mem::swap(&mut self.prev, &mut self.row);
        if x0 < hood {
            // The hood's values rise along the row: its extremes are the run's ends.
            let (a, b) = (row.v(x0), row.v(hood.min(x1) - 1));
            self.hood_cells += (hood.min(x1) - x0) as u64;
            self.hood_range = Some(self.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
        }
        for x in x0.max(hood)..x1 {
            let v = r.cells[x];
            self.hist[r.labels[x].index()][v as u8 as usize] += 1;
            if r.labels[x] == Region::RiftUpper {
                add_rift(&mut self.rift, x as u64, y);
            } else if r.labels[x] == Region::RiftLower {
                add_rift(&mut self.rift_lower, y, x as u64);
            }
            let v = i64::from(v);
            let side = usize::from((x as u64) < y);
            if self.hottest[side].is_none_or(|(h, _, _)| v > h) {
                self.hottest[side] = Some((v, x as u64, y));
            }
            if x as u64 == y && r.labels[x] == Region::Fabric && !self.prism_ended {
                // Stray fabric-like blocks far out along the diagonal do not extend the run.
                if self.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                    self.prism_ended = true;
                } else {
                    self.prism = Some(y);
                }
            }
        }
    }

    /// The finished report.
    pub fn finish(self) -> RegionsReport {
        let k = self.k;
        let mut regions = Vec::new();
        for reg in ALL {
            let mut s = RegionStats::default();
            if reg == Region::Hood {
                s.cells = self.hood_cells;
                s.palaces = self.hood_cells;
                s.v_range = self.hood_range;
            } else {
                let h: BTreeMap<i64, u64> = self.hist[reg.index()]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| c > 0)
                    .map(|(i, &c)| (i64::from(i as u8 as i8), c))
                    .collect();
                s.cells = h.values().sum();
                s.palaces = h.iter().filter(|&(&v, _)| v < 0).map(|(_, c)| c).sum();
                s.histogram = h.iter().map(|(&v, &c)| (v, c)).collect();
                s.v_range = h.keys().next().copied().zip(h.keys().next_back().copied());
            }
            s.density = if s.cells > 0 { s.palaces as f64 / s.cells as f64 } else { 0.0 };
            regions.push((reg, s));
        }
        let mut junctions = Vec::new();
        let m = u64::from(k.saturating_sub(1) / 3);
        let within = |x: u64, y: u64| self.window.contains(x, y);
        if within(m, m) {
            junctions.push(Junction {
                name: "nose",
                x: m,
                y: m,
                how: "closed form: the hood's last cell on the diagonal (max + 2 min < k)".into(),
            });
        }
        for (x, y) in [(u64::from(k), 0), (0, u64::from(k))] {
            if within(x, y) {
                junctions.push(Junction {
                    name: "shoulder",
                    x,
                    y,
                    how: "closed form: first cell past the hood on the border, where outer space begins"
                        .into(),
                });
            }
        }
        // The armpits: where the rift, running along the seam between épaulette and fabric,
        // ends against the warp (§3.1; claim 31 of docs/paper-claims.md), the upper rift's
        // lowest cell in its last column and the mirror image's for the lower rift.
        let upper = rift_end(&self.rift, self.window);
        let lower = rift_end(&self.rift_lower, self.window.transposed()).map(|(y, x)| (x, y));
        for (end, name, how) in [
            (upper, "armpit (upper)", "where the upper rift ends: the lowest cell of its last column"),
            (lower, "armpit (lower)", "where the lower rift ends: the rightmost cell of its last row"),
        ] {
            if let Some((x, y)) = end {
                junctions.push(Junction { name, x, y, how: how.into() });
            }
        }
        let mut hottest = Vec::new();
        for (side, name) in [(0usize, "hottest (upper)"), (1, "hottest (lower)")] {
            if let Some((v, x, y)) = self.hottest[side] {
                let near = [upper, lower][side].map_or(String::new(), |(ax, ay)| {
                    format!("; {} cells from the armpit (Chebyshev)", x.abs_diff(ax).max(y.abs_diff(ay)))
                });
                hottest.push(Junction {
                    name,
                    x,
                    y,
                    how: format!(
                        "hottest cell {} the diagonal: v = {v} (palace number k{v:+}), first in row-major order{near}",
                        if side == 0 { "on or above" } else { "below" }
                    ),
                });
            }
        }
        if let Some(d) = self.prism {
            junctions.push(Junction {
                name: "prism",
                x: d,
                y: d,
                how: "end of the fabric's run along the main diagonal from the nose (where the frays meet)"
                    .into(),
            });
        }
        let w = self.window;
        let rift = RiftReport::new(k, &self.rift);
        let borders = self.borders.borders();
        RegionsReport {
            k,
            window: [w.x0(), w.y0(), w.x1(), w.y1()],
            block: BLOCK,
            regions,
            junctions,
            hottest,
            rift,
            borders,
        }
    }
}

impl std::fmt::Display for RegionsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, window [{x0}, {x1}) x [{y0}, {y1}); block tests on {} x {} blocks",
            self.k, self.block, self.block
        )?;
        let total: u64 = self.regions.iter().map(|(_, s)| s.cells).sum();
        writeln!(
            f,
            "{:<22} {:>14} {:>8} {:>14} {:>9}   v range   histogram of v",
            "region", "cells", "share", "palaces", "density"
        )?;
        for (r, s) in &self.regions {
            let share = if total > 0 { 100.0 * s.cells as f64 / total as f64 } else { 0.0 };
            let range = s.v_range.map_or("-".to_string(), |(a, b)| format!("{a}..{b}"));
            let hist: Vec<String> = s.histogram.iter().map(|(v, c)| format!("{v}:{c}")).collect();
            writeln!(
                f,
                "{:<22} {:>14} {:>7.2}% {:>14} {:>9.4}   {:<9} {}",
                r.name(),
                s.cells,
                share,
                s.palaces,
                s.density,
                range,
                hist.join(" ")
            )?;
        }
        for (title, points) in [("junctions:", &self.junctions), ("hottest cells:", &self.hottest)] {
            writeln!(f, "{title}")?;
            for j in points {
                writeln!(f, "  {:<16} ({}, {})  {}", j.name, j.x, j.y, j.how)?;
            }
        }
        let r = &self.rift;
        match (r.span, r.end) {
            (Some((a, b)), Some((ex, ey))) => {
                writeln!(
                    f,
                    "upper rift: {} cells in {} columns, offsets {a}..={b} from the nose's column; ends at ({ex}, {ey})",
                    r.cells, r.columns
                )?;
                if let Some(s) = r.widening_per_1000 {
                    writeln!(
                        f,
                        "  width (cells per column) grows by {s:.3} per 1000 columns (least squares)"
                    )?;
                }
                writeln!(f, "  {:>17} {:>8} {:>11} {:>9}", "offsets", "columns", "mean width", "max width")?;
                for bin in &r.bins {
                    writeln!(
                        f,
                        "  {:>17} {:>8} {:>11.2} {:>9}",
                        format!("{}..{}", bin.from, bin.to),
                        bin.columns,
                        bin.mean_width,
                        bin.max_width
                    )?;
                }
            }
            _ => writeln!(f, "upper rift: none in the window")?,
        }
        writeln!(
            f,
            "borders: edges between 4-neighbours of two regions; per step = edges / (rows + columns spanned), about 1 for a clean line; ends = corners where the border stops"
        )?;
        writeln!(
            f,
            "  {:<19} {:<40} {:>11} {:>12} {:>15} {:>15} {:>8} {:>7}",
            "paper's border", "regions", "row edges", "column edges", "rows", "columns", "per step", "ends"
        )?;
        for b in &self.borders {
            writeln!(
                f,
                "  {:<19} {:<40} {:>11} {:>12} {:>15} {:>15} {:>8.2} {:>7}",
                b.paper.unwrap_or("-"),
                b.labels(),
                b.row_edges,
                b.column_edges,
                format!("{}..={}", b.rows.0, b.rows.1),
                format!("{}..={}", b.columns.0, b.columns.1),
                b.per_step,
                b.ends
            )?;
        }
        Ok(())
    }
}

/// `palace regions` as first written, on one consumer thread (a lockstep of four row sweeps
/// and [`label`]): the reference [`run`] is tested against.
pub fn run_reference(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let mut acc = RegionAcc::new(k, window);
    let (mut png, map) = match out {
        Some(o) => {
            let text = vec![(
                "Comment".to_string(),
                format!("palace regions, k = {k}, window {window}, scale {scale}"),
            )];
            let (png, map) = legend::start(o, window, scale, plte(), text, opts.threads)?;
            (Some(png), Some(map))
        }
        None => (None, None),
    };
    let mut line = Vec::new();
    label(
        k,
        window,
        opts,
        progress,
        &[],
        |_| (),
        |r| {
            acc.add(r);
            if let Some(p) = &mut png
                && (r.y - window.y0()).is_multiple_of(scale)
            {
                line.clear();
                line.extend(
                    (window.x0()..window.x1())
                        .step_by(scale as usize)
                        .map(|x| r.labels[x as usize].index() as u8),
                );
                p.push_row(&line)?;
            }
            Ok(())
        },
    )?;
    let drawn = png.map(PngStream::finish_file).transpose()?;
    let report = acc.finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

palace_engine::avx2_version! {
    /// [`RegionAcc::add_tile_body`], vectorised for AVX2 where the CPU has it.
    fn add_tile(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) = RegionAcc::add_tile_body;
}

/// Adds the borders of a labelled tile's cells inside the window: their edges with their
/// left and upper neighbours in the window, from the tile or from its neighbours' labels.
#[inline(always)]
fn add_tile_borders(window: Window, acc: &mut BorderAcc, t: &LabelledTile<'_>) {
    let (xa, xb) = (t.x0.max(window.x0()), t.x1.min(window.x1()));
    let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
    if xa >= xb {
        return;
    }
    let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
    let has_left = xa > window.x0();
    for y in ya..yb {
        let r = (y - t.y0) as usize;
        // The row with the cell left of it: from the tile, or the left neighbour's last column.
        let (row, left) = (t.labels(y), |row: &[u8], r: usize| {
            if !has_left {
                NONE
            } else if ia > 0 {
                row[ia - 1]
            } else {
                t.left_labels.expect("a tile to the left")[r]
            }
        });
        let l = left(row, r);
        let (above, above_left) = if y == window.y0() {
            (None, NONE)
        } else if y > t.y0 {
            let up = t.labels(y - 1);
            (Some(&up[ia..ib]), left(up, r - 1))
        } else {
            // The row above the tile: the upper neighbour's last row, from column x0 - 1.
            let up = t.above_labels.expect("a tile above");
            (Some(&up[ia + 1..ib + 1]), if has_left { up[ia] } else { NONE })
        };
        acc.add_row(u64::from(y), u64::from(xa), &row[ia..ib], l, above, above_left);
    }
}

/// Per-worker statistics of `palace regions`, merged into a [`RegionAcc`] at the end.
struct TileAcc {
    /// Per region, counts of `v + 128`.
    hist: Vec<[u64; 256]>,
    hottest: [Option<(i64, u64, u64)>; 2],
    /// Rows of the diagonal's fabric cells in the window.
    diagonal: Vec<u64>,
    rift: RiftColumns,
    /// Transposed, as [`RegionAcc`]'s.
    rift_lower: RiftColumns,
    borders: BorderAcc,
}

impl RegionAcc {
    /// Adds a labelled tile: its cells inside the window.
    #[inline(always)]
    fn add_tile_body(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) {
        let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
        add_tile_borders(window, &mut acc.borders, t);
        for y in ya..yb {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1())) as u32;
            let (xa, xb) = (t.x0.max(window.x0()).max(hood), t.x1.min(window.x1()));
            if xa >= xb {
                continue;
            }
            let (cells, labels) = (t.cells(y), t.labels(y));
            let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
            // The histograms, run of one label by run.
            let mut i = ia;
            while i < ib {
                let l = labels[i];
                let end = i + run_len(&labels[i..ib]);
                let run = &cells[i..end];
                if l == RIFT_UP {
                    for x in i..end {
                        add_rift(&mut acc.rift, u64::from(t.x0) + x as u64, yy);
                    }
                } else if l == RIFT_LO {
                    for x in i..end {
                        add_rift(&mut acc.rift_lower, yy, u64::from(t.x0) + x as u64);
                    }
                }
                let hist = &mut acc.hist[l as usize];
                if run.len() >= 64 {
                    crate::simd::histogram::count(std::iter::once(run), hist);
                } else {
                    for &v in run {
                        hist[(v as u8 ^ 0x80) as usize] += 1;
                    }
                }
                i = end;
            }
            // The hottest cell on each side of the diagonal: the first of the segment's largest.
            let split = (u64::from(xa).max(yy.min(u64::from(xb))) - u64::from(t.x0)) as usize;
            for (side, (a, b)) in [(1usize, (ia, split)), (0, (split, ib))] {
                if a >= b {
                    continue;
                }
                // A fold, not `max()`: it vectorises.
                let m = i64::from(cells[a..b].iter().fold(i8::MIN, |m, &c| m.max(c)));
                if acc.hottest[side].is_none_or(|(h, _, _)| m >= h) {
                    let p = cells[a..b].iter().position(|&c| i64::from(c) == m).expect("the maximum");
                    let x = u64::from(t.x0) + (a + p) as u64;
                    if acc.hottest[side].is_none_or(|(h, hy, hx)| m > h || (yy, x) < (hy, hx)) {
                        acc.hottest[side] = Some((m, yy, x));
                    }
                }
            }
            if (xa..xb).contains(&y) && labels[(y - t.x0) as usize] == Region::Fabric.index() as u8 {
                acc.diagonal.push(yy);
            }
        }
    }

    /// The statistics the workers gathered, merged (the hood's from its closed form).
    fn from_tiles(k: u32, window: Window, tiles: Vec<TileAcc>) -> Self {
        let mut acc = RegionAcc::new(k, window);
        let mut diagonal = Vec::new();
        for t in tiles {
            // Tiles count by v + 128, the accumulator by v's byte.
            for (a, b) in acc.hist.iter_mut().zip(&t.hist) {
                for (i, &c) in b.iter().enumerate() {
                    a[i ^ 0x80] += c;
                }
            }
            for side in 0..2 {
                if let Some((v, y, x)) = t.hottest[side]
                    && acc.hottest[side].is_none_or(|(h, hx, hy)| v > h || (v == h && (y, x) < (hy, hx)))
                {
                    acc.hottest[side] = Some((v, x, y));
                }
            }
            diagonal.extend(t.diagonal);
            merge_rift(&mut acc.rift, t.rift);
            merge_rift(&mut acc.rift_lower, t.rift_lower);
            acc.borders.merge(&t.borders);
        }
        diagonal.sort_unstable();
        for y in diagonal {
            if acc.prism_ended {
                break;
            }
            if acc.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                acc.prism_ended = true;
            } else {
                acc.prism = Some(y);
            }
        }
        for y in window.y0()..window.y1() {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1()));
            let x0 = u64::from(window.x0());
            if x0 < hood {
                let end = hood.min(u64::from(window.x1()));
                let (a, b) = (hood_value(k, x0, yy), hood_value(k, end - 1, yy));
                acc.hood_cells += end - x0;
                acc.hood_range = Some(acc.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
            }
        }
        acc
    }
}

/// `palace regions` on the sweep's workers: the same report and map as [`run_reference`].
pub fn run(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let (picture, map) = match out {
        Some(o) => {
            let (png, map) =
                legend::start(o, window, scale, plte(), map_text(k, window, scale), opts.threads)?;
            (Some(OrderedPicture::new(png, window, scale)), Some(map))
        }
        None => (None, None),
    };
    let tiles = label_tiles(
        k,
        window,
        opts,
        progress,
        &[],
        || TileAcc {
            hist: vec![[0; 256]; ALL.len()],
            hottest: [None; 2],
            diagonal: Vec::new(),
            rift: RiftColumns::new(),
            rift_lower: RiftColumns::new(),
            borders: BorderAcc::default(),
        },
        |acc, t| {
            add_tile(k, window, acc, t);
            if let Some(p) = &picture {
                p.draw(t.band, t.strips, (t.x0, t.x1), (t.y0, t.y1), |x, y| t.labels(y)[(x - t.x0) as usize]);
            }
        },
    )?;
    let drawn = picture.map(OrderedPicture::finish_file).transpose()?;
    let report = RegionAcc::from_tiles(k, window, tiles).finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

/// The region map's text chunk.
fn map_text(k: u32, window: Window, scale: u32) -> Vec<(String, String)> {
    vec![("Comment".to_string(), format!("palace regions, k = {k}, window {window}, scale {scale}"))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rift_widths_by_hand() {
        // k = 7: the nose's column is 2. Columns 12..=15 hold 1, 2, 3, 4 cells.
        let mut cols = RiftColumns::new();
        for (x, n) in [(12u64, 1u64), (13, 2), (14, 3), (15, 4)] {
            for y in 0..n {
                add_rift(&mut cols, x, 20 + y);
            }
        }
        let r = RiftReport::new(7, &cols);
        assert_eq!((r.columns, r.cells, r.span, r.end), (4, 10, Some((10, 13)), Some((15, 23))));
        // Width rises by exactly one cell a column: 1000 per 1000 columns.
        assert!((r.widening_per_1000.unwrap() - 1000.0).abs() < 1e-9);
        // Four columns in 16 stretches of one column each.
        assert_eq!(r.bins.len(), 4);
        assert_eq!((r.bins[3].from, r.bins[3].to, r.bins[3].columns, r.bins[3].max_width), (13, 14, 1, 4));
        assert!((r.bins[1].mean_width - 2.0).abs() < 1e-12);
        // An empty rift.
        let e = RiftReport::new(7, &RiftColumns::new());
        assert!(e.span.is_none() && e.bins.is_empty() && e.widening_per_1000.is_none());
    }
}
