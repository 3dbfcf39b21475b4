//! `palace compare`: the paper's Fig. 4. Cell `(x, y)` of game `A` *matches* when
//! `N_B(x + dx, y + dy) = N_A(x, y) + d`. The two games are swept together on the workers
//! (`Sweep::lanes`; the reference form, [`run_reference`], sweeps them in lockstep), with
//! the region labels of game `A` ([`crate::labels`]) so that matches are reported per
//! region.
//!
//! The paper's cases: k = 497 against 500 with shift (1, 1) and offset 3 (hood, épaulettes and
//! fabric match), and k = 499 against 500 with shift (1, 0) and offset 1 (épaulette, arm and
//! half the hood match).

use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::Lane;
use crate::engine::sink::Row;
use crate::error::Result;
use crate::labels::{self, ALL, LabelledTile, Region};
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, MapDraft, MapKey, MapOutput};
use crate::output::ordered::OrderedPicture;
use crate::output::palette;
use crate::output::png::PngStream;
use serde::Serialize;
use std::path::PathBuf;

/// What to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comparison {
    /// Game A (its cells are counted and drawn).
    pub a: u32,
    /// Game B.
    pub b: u32,
    /// Shift `(dx, dy)` from A's cell to B's, both >= 0.
    pub shift: (u32, u32),
    /// Offset `d` in `N_B = N_A + d`.
    pub offset: i64,
}

/// Matches in one region.
#[derive(Debug, Clone, Serialize)]
pub struct RegionMatch {
    /// The region (of game A).
    pub region: Region,
    /// Its cells in the window.
    pub cells: u64,
    /// How many match.
    pub matched: u64,
    /// `matched / cells`.
    pub fraction: f64,
}

/// The result of a comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    /// Game A.
    pub a: u32,
    /// Game B.
    pub b: u32,
    /// The shift.
    pub shift: (u32, u32),
    /// The offset.
    pub offset: i64,
    /// The window (of game A).
    pub window: [u32; 4],
    /// Cells compared.
    pub cells: u64,
    /// Cells that match.
    pub matched: u64,
    /// `matched / cells`.
    pub fraction: f64,
    /// Per region of game A.
    pub per_region: Vec<RegionMatch>,
}

/// Compares `window` of game `c.a` with game `c.b`; draws the mask picture to `out` if given
/// (game A's palette, non-matching cells white, `scale` x `scale` cells per pixel taking each
/// block's top-left cell; with a legend strip of the colours below it unless `out` says
/// otherwise, [`crate::output::legend`]). On the sweep's workers ([`labels::label_tiles`]), with the same
/// report and picture as [`run_reference`].
pub fn run(
    c: Comparison,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(CompareReport, Option<PathBuf>)> {
    let (dx, dy) = c.shift;
    let b_lane = Lane { k: c.b, window: Window::new(dx, dy, window.x1() + dx, window.y1() + dy)? };
    let (picture, map) = match out {
        Some(o) => {
            let (png, map) =
                legend::start(o, window, scale, palette::plte(), picture_text(c, window), opts.threads)?;
            (Some(OrderedPicture::new(png, window, scale)), Some(map))
        }
        None => (None, None),
    };
    let accs = labels::label_tiles(
        c.a,
        window,
        opts,
        progress,
        &[b_lane],
        || -> MatchAcc { (vec![(0u64, 0u64); ALL.len()], Vec::new(), Vec::new()) },
        |acc, t| {
            let (xa, xb) = (t.x0.max(window.x0()), t.x1.min(window.x1()));
            let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
            if xa >= xb || ya >= yb {
                // Outside the window: nothing to count or draw, but the band's strip is in.
                if let Some(p) = &picture {
                    p.draw(t.band, t.strips, (t.x0, t.x1), (t.y0, t.y1), |_, _| unreachable!("outside"));
                }
                return;
            }
            let w = (xb - xa) as usize;
            match_tile(c, window, t, acc);
            let matched = &acc.1;
            if let Some(p) = &picture {
                p.draw(t.band, t.strips, (t.x0, t.x1), (t.y0, t.y1), |x, y| {
                    let i = (x - t.x0) as usize;
                    if matched[(y - ya) as usize * w + (x - xa) as usize] == 0 {
                        palette::MASKED
                    } else if u64::from(x) < hood_len(c.a, u64::from(y)) {
                        palette::HOOD
                    } else {
                        palette::index(t.cells(y)[i])
                    }
                });
            }
        },
    )?;
    let drawn = picture.map(OrderedPicture::finish_file).transpose()?;
    let mut counts = vec![(0u64, 0u64); ALL.len()];
    for (a, _, _) in accs {
        for (c, d) in counts.iter_mut().zip(a) {
            (c.0, c.1) = (c.0 + d.0, c.1 + d.1);
        }
    }
    finish(report(c, window, &counts), map.zip(drawn), opts)
}

/// The report, and the picture finished with its legend (`map`: the draft and what the sweep
/// drew).
fn finish(
    report: CompareReport,
    map: Option<(MapDraft, AtomicOutput)>,
    opts: &EngineOptions,
) -> Result<(CompareReport, Option<PathBuf>)> {
    let path = map.map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

impl MapKey for CompareReport {
    /// The comparison, every colour of game A's matching cells, and white for the cells that
    /// do not match, with their share of the window.
    fn key(&self) -> Key {
        let [x0, y0, x1, y1] = self.window;
        let (dx, dy) = self.shift;
        let mut entries: Vec<(u8, String)> =
            palette::NAMES.iter().enumerate().map(|(i, name)| (i as u8, name.to_string())).collect();
        entries.push((palette::MASKED, format!("no match  {:.2}%", 100.0 * (1.0 - self.fraction))));
        Key {
            title: format!(
                "palace compare: N_{}(x+{dx}, y+{dy}) = N_{}(x, y) {} {}, window [{x0}, {x1}) x [{y0}, {y1})",
                self.b,
                self.a,
                if self.offset < 0 { '-' } else { '+' },
                self.offset.unsigned_abs()
            ),
            entries,
            points: Vec::new(),
        }
    }
}

/// A worker's accumulator: per region `(cells, matched)`, the matches of the tile's part of
/// the window (one byte per cell, 1 where B matches A), and a row buffer.
type MatchAcc = (Vec<(u64, u64)>, Vec<u8>, Vec<i8>);

palace_engine::avx2_version! {
    /// Counts a tile's cells inside `window` and its matches per region, and leaves its
    /// matches in the accumulator.
    fn match_tile(c: Comparison, window: Window, t: &LabelledTile<'_>, acc: &mut MatchAcc) = match_tile_body;
}

#[inline(always)]
fn match_tile_body(c: Comparison, window: Window, t: &LabelledTile<'_>, acc: &mut MatchAcc) {
    let (counts, matched, scratch) = acc;
    let ((dx, dy), (ka, kb)) = (c.shift, (i64::from(c.a), i64::from(c.b)));
    let bv = &t.extra[0];
    let (xa, xb) = (t.x0.max(window.x0()), t.x1.min(window.x1()));
    let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
    matched.clear();
    let mut zero_ready = false;
    for y in ya..yb {
        let yy = u64::from(y);
        let (cells, labels) = (t.cells(y), t.labels(y));
        let brow = labels::lane_row(bv, bv.y0 + (y - t.y0), scratch, &mut zero_ready);
        let (ha, hb) = (hood_len(c.a, yy), hood_len(c.b, yy + u64::from(dy)));
        // Past both hoods the stored values compare directly: N_B = N_A + d exactly when
        // v_B - v_A = k_A + d - k_B.
        let fast = ha.max(hb.saturating_sub(u64::from(dx))).clamp(u64::from(xa), u64::from(xb)) as u32;
        let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
        let from = matched.len();
        matched.resize(from + (ib - ia), 0);
        // Where a hood is involved, exact palace numbers (the hood's closed form), in a loop
        // over slices (an `extend` stays a call outside the AVX2 function).
        let start = from + (fast - xa) as usize;
        for (j, m) in matched[from..start].iter_mut().enumerate() {
            let (i, xx) = (ia + j, u64::from(xa) + j as u64);
            let na = if xx < ha { hood_value(c.a, xx, yy) } else { i64::from(cells[i]) } + ka;
            let (bx, by) = (xx + u64::from(dx), yy + u64::from(dy));
            let nb = if bx < hb { hood_value(c.b, bx, by) } else { i64::from(brow[i]) } + kb;
            *m = u8::from(nb == na + c.offset);
        }
        let fast = (fast - t.x0) as usize;
        if let Ok(d) = i16::try_from(ka + c.offset - kb) {
            // A loop over slices, not `extend`, which may stay a call outside the AVX2 function.
            for (m, (&a, &b)) in matched[start..].iter_mut().zip(cells[fast..ib].iter().zip(&brow[fast..ib]))
            {
                *m = u8::from(i16::from(b) - i16::from(a) == d);
            }
        }
        // Counted per run of one label.
        let mut i = ia;
        while i < ib {
            let l = labels[i];
            let end = i + labels::run_len(&labels[i..ib]);
            let e = &mut counts[l as usize];
            e.0 += (end - i) as u64;
            e.1 += matched[from + i - ia..from + end - ia].iter().map(|&m| u64::from(m)).sum::<u64>();
            i = end;
        }
    }
}

/// The picture's text chunk.
fn picture_text(c: Comparison, window: Window) -> Vec<(String, String)> {
    let (dx, dy) = c.shift;
    vec![(
        "Comment".to_string(),
        format!(
            "palace compare: k = {} vs {}, shift ({dx}, {dy}), offset {}; white = no match; window {window}",
            c.a, c.b, c.offset
        ),
    )]
}

/// The report from the per-region counts `(cells, matched)`.
fn report(c: Comparison, window: Window, counts: &[(u64, u64)]) -> CompareReport {
    let frac = |m: u64, n: u64| if n > 0 { m as f64 / n as f64 } else { 0.0 };
    let cells: u64 = counts.iter().map(|c| c.0).sum();
    let matched: u64 = counts.iter().map(|c| c.1).sum();
    let per_region = ALL
        .iter()
        .zip(counts)
        .map(|(&region, &(n, m))| RegionMatch { region, cells: n, matched: m, fraction: frac(m, n) })
        .collect();
    let w = window;
    CompareReport {
        a: c.a,
        b: c.b,
        shift: c.shift,
        offset: c.offset,
        window: [w.x0(), w.y0(), w.x1(), w.y1()],
        cells,
        matched,
        fraction: frac(matched, cells),
        per_region,
    }
}

/// [`run`] as first written, on one consumer thread (a lockstep of row sweeps and
/// [`labels::label`]): the reference [`run`] is tested against.
pub fn run_reference(
    c: Comparison,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(CompareReport, Option<PathBuf>)> {
    let (dx, dy) = c.shift;
    let b_lane = Lane { k: c.b, window: Window::new(dx, dy, window.x1() + dx, window.y1() + dy)? };
    let (mut png, map) = match out {
        Some(o) => {
            let (png, map) =
                legend::start(o, window, scale, palette::plte(), picture_text(c, window), opts.threads)?;
            (Some(png), Some(map))
        }
        None => (None, None),
    };
    let mut counts = vec![(0u64, 0u64); ALL.len()];
    let mut line = Vec::new();
    labels::label(
        c.a,
        window,
        opts,
        progress,
        &[b_lane],
        |rows: &[Row<'_>]| {
            let (a, b) = (&rows[0], &rows[4]);
            (0..a.cells.len())
                .map(|i| b.palace_number(i) == a.palace_number(i) + c.offset)
                .collect::<Vec<bool>>()
        },
        |r| {
            let xs = window.x0() as usize..window.x1() as usize;
            for x in xs.clone() {
                let e = &mut counts[r.labels[x].index()];
                e.0 += 1;
                e.1 += u64::from(r.extra[x]);
            }
            if let Some(p) = &mut png
                && (r.y - window.y0()).is_multiple_of(scale)
            {
                let row = Row { k: c.a, y: r.y, x0: 0, cells: &r.cells };
                let hood = row.hood_cells();
                line.clear();
                line.extend(xs.step_by(scale as usize).map(|x| {
                    if !r.extra[x] {
                        palette::MASKED
                    } else if x < hood {
                        palette::HOOD
                    } else {
                        palette::index(r.cells[x])
                    }
                }));
                p.push_row(&line)?;
            }
            Ok(())
        },
    )?;
    let drawn = png.map(PngStream::finish_file).transpose()?;
    finish(report(c, window, &counts), map.zip(drawn), opts)
}

impl std::fmt::Display for CompareReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "N_{}(x + {}, y + {}) = N_{}(x, y) {:+}: {} of {} cells match ({:.4}%)",
            self.b,
            self.shift.0,
            self.shift.1,
            self.a,
            self.offset,
            self.matched,
            self.cells,
            100.0 * self.fraction
        )?;
        writeln!(f, "{:<22} {:>14} {:>14} {:>10}", "region (of game A)", "cells", "match", "fraction")?;
        for r in &self.per_region {
            writeln!(
                f,
                "{:<22} {:>14} {:>14} {:>9.4}%",
                r.region.name(),
                r.cells,
                r.matched,
                100.0 * r.fraction
            )?;
        }
        Ok(())
    }
}
