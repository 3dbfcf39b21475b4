//! `palace fabric`: the paper's Fig. 7 and §3.3. Around the nose the picture takes one of
//! three forms, decided by `k mod 3`, and the fabric that grows from it is a prefix of one of
//! three infinite fabrics.
//!
//! For one `k` of each class the command draws the window around the nose side by side, and
//! measures the fabric of each: its cells are those that game `k + 3` reproduces shifted by
//! (1, 1) with palace numbers raised by 3 ([`crate::labels`], decided on 8 x 8 blocks), so by
//! construction they agree with `k + 3`. The prefix claim is then tested independently: over
//! that fabric, do games `k + 6` (shift (2, 2), +6) and `k + 30` (shift (10, 10), +30) agree as
//! well? If the fabric is a prefix of one infinite fabric, all do.

use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::Lane;
use crate::engine::sink::Row;
use crate::error::Result;
use crate::labels::{self, Region};
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::output::atomic::AtomicOutput;
use crate::output::palette;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Mutex;

/// The farther games the prefix claim is tested against: `k + step` shifted by
/// `(step / 3, step / 3)`.
pub const PREFIX_STEPS: [u32; 2] = [6, 30];

/// One class of `k mod 3`.
#[derive(Debug, Clone, Serialize)]
pub struct FabricClass {
    /// The game.
    pub k: u32,
    /// `k mod 3`.
    pub class: u32,
    /// The nose, `((k - 1) / 3, (k - 1) / 3)`.
    pub nose: u32,
    /// The window drawn, around the nose.
    pub window: [u32; 4],
    /// Cells of the fabric (agreeing with `k + 3` on whole 8 x 8 blocks) in the window.
    pub fabric_cells: u64,
    /// Farthest fabric cell on the diagonal (the prism end), if in the window.
    pub fabric_diagonal_end: Option<u32>,
    /// For each of [`PREFIX_STEPS`]: `(k + step, cells of the fabric that agree)`.
    pub prefix_agreement: Vec<(u32, u64)>,
    /// The fraction agreeing with the farthest game.
    pub prefix_fraction: f64,
}

/// The result of `palace fabric`.
#[derive(Debug, Clone, Serialize)]
pub struct FabricReport {
    /// Window side.
    pub size: u32,
    /// One entry per class `k mod 3 = 0, 1, 2`.
    pub classes: Vec<FabricClass>,
}

/// Draws and measures the fabric for `k0, k0 + 1, k0 + 2` (sorted by class) in windows of
/// `size x size` cells around their noses, on the sweep's workers
/// ([`labels::label_tiles`]): the same report and picture as [`run_reference`].
pub fn run(
    k0: u32,
    size: u32,
    out: Option<AtomicOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(FabricReport, Option<PathBuf>)> {
    let ks = panel_games(k0, size)?;
    let n = size as usize;
    let gap = 8usize;
    let stride = 3 * n + 2 * gap;
    let picture = Mutex::new(vec![palette::MASKED; stride * n]);
    let mut classes = Vec::new();
    let total: u64 =
        ks.iter().map(|&k| window_of(k, size).map(|w| u64::from(w.y1()))).sum::<Result<u64>>()?;
    progress.set_length(total);
    let mut done = 0u64;
    for (panel, &k) in ks.iter().enumerate() {
        let nose = (k - 1) / 3;
        let window = window_of(k, size)?;
        let panel_progress = Offset { inner: progress, offset: done };
        done += u64::from(window.y1());
        let accs = labels::label_tiles(
            k,
            window,
            opts,
            &panel_progress,
            &prefix_lanes(k, window)?,
            PanelAcc::default,
            |acc, t| {
                let Some((xa, ya, yb)) = panel_tile(k, window, acc, t) else {
                    return;
                };
                // The tile's part of the panel was drawn apart; into the picture under its lock.
                let tw = (t.x1.min(window.x1()) - xa) as usize;
                let mut pixels = picture.lock().expect("picture lock");
                for y in ya..yb {
                    let py = (y - window.y0()) as usize;
                    let px = panel * (n + gap) + (xa - window.x0()) as usize;
                    let r = (y - ya) as usize;
                    pixels[py * stride + px..py * stride + px + tw]
                        .copy_from_slice(&acc.pixels[r * tw..(r + 1) * tw]);
                }
            },
        )?;
        let (mut fabric, mut agree, mut diag_end) = (0u64, vec![0u64; PREFIX_STEPS.len()], None);
        for acc in accs {
            fabric += acc.fabric;
            for (x, y) in agree.iter_mut().zip(acc.agree) {
                *x += y;
            }
            diag_end = diag_end.max(acc.diag_end);
        }
        classes.push(class(k, nose, window, fabric, agree, diag_end));
    }
    let picture = picture.into_inner().expect("picture lock");
    let path = match out {
        Some(o) => Some(write_picture(o, &ks, size, &picture)?),
        None => None,
    };
    Ok((FabricReport { size, classes }, path))
}

/// What a worker gathers of one panel.
#[derive(Default)]
struct PanelAcc {
    /// Fabric cells in the window.
    fabric: u64,
    /// For each of [`PREFIX_STEPS`], the fabric cells that game `k + step` reproduces.
    agree: Vec<u64>,
    /// The last fabric cell on the diagonal.
    diag_end: Option<u32>,
    /// A quiet or hood row of a lane.
    scratch: Vec<i8>,
    /// The last tile's part of the panel, row after row.
    pixels: Vec<u8>,
}

palace_engine::avx2_version! {
    /// Counts a labelled tile's part of `window` into `acc` and draws it into `acc.pixels`;
    /// returns its first column and its rows (`None` when it misses the window).
    fn panel_tile(k: u32, window: Window, acc: &mut PanelAcc, t: &labels::LabelledTile<'_>) -> Option<(u32, u32, u32)> = panel_tile_body;
}

#[inline(always)]
fn panel_tile_body(
    k: u32,
    window: Window,
    acc: &mut PanelAcc,
    t: &labels::LabelledTile<'_>,
) -> Option<(u32, u32, u32)> {
    let (xa, xb) = (t.x0.max(window.x0()), t.x1.min(window.x1()));
    let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
    if xa >= xb || ya >= yb {
        return None;
    }
    let fab = Region::Fabric.index() as u8;
    let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
    let tw = ib - ia;
    acc.agree.resize(PREFIX_STEPS.len(), 0);
    acc.pixels.clear();
    acc.pixels.resize(tw * (yb - ya) as usize, 0);
    // Counts in u32 per row (a row has fewer than 2^32 cells), which vectorise.
    #[inline(always)]
    fn count(it: impl Iterator<Item = bool>) -> u64 {
        u64::from(it.fold(0u32, |n, b| n + u32::from(b)))
    }
    for y in ya..yb {
        let yy = u64::from(y);
        let (cells, labels) = (&t.cells(y)[ia..ib], &t.labels(y)[ia..ib]);
        let hood = (hood_len(k, yy).saturating_sub(u64::from(xa)) as usize).min(tw);
        let row = &mut acc.pixels[(y - ya) as usize * tw..(y - ya + 1) as usize * tw];
        row[..hood].fill(palette::HOOD);
        for (p, &c) in row[hood..].iter_mut().zip(&cells[hood..]) {
            *p = palette::index(c);
        }
        for (s, (a, b)) in PREFIX_STEPS.iter().zip(acc.agree.iter_mut().zip(t.extra)) {
            let d = u64::from(s / 3);
            let kb = k + s;
            // Inside game k + s's hood its exact palace numbers are compared; past it,
            // N_{k+s} = N_k + s exactly when the values are equal. (Fabric cells lie outside
            // game k's hood.)
            let hb = (hood_len(kb, yy + d).saturating_sub(u64::from(xa) + d) as usize).min(tw);
            let brow = &b.row_or(b.y0 + (y - t.y0), &mut acc.scratch)[ia..ib];
            for (i, (&l, &c)) in labels[..hb].iter().zip(cells).enumerate() {
                let xx = u64::from(xa) + i as u64;
                if l == fab {
                    let (na, nb) =
                        (i64::from(c) + i64::from(k), hood_value(kb, xx + d, yy + d) + i64::from(kb));
                    *a += u64::from(nb == na + i64::from(*s));
                }
            }
            *a += count(
                labels[hb..]
                    .iter()
                    .zip(&cells[hb..])
                    .zip(&brow[hb..])
                    .map(|((&l, &c), &v)| (l == fab) & (v == c)),
            );
        }
        acc.fabric += count(labels.iter().map(|&l| l == fab));
        if (xa..xb).contains(&y) && labels[(y - xa) as usize] == fab {
            acc.diag_end = acc.diag_end.max(Some(y));
        }
    }
    Some((xa, ya, yb))
}

/// The three games `k0, k0 + 1, k0 + 2`, ordered by class `k mod 3`, once `size` is checked.
fn panel_games(k0: u32, size: u32) -> Result<Vec<u32>> {
    if size == 0 || size > 8192 {
        use crate::error::{Bound, Param, ParameterError};
        return Err(ParameterError::new(Param::Size, size)
            .bound(Bound::Between(1, 8192))
            .text(": the panels are held in memory; use 1..=8192")
            .into());
    }
    let mut ks: Vec<u32> = (k0..k0 + 3).collect();
    ks.sort_by_key(|k| k % 3);
    Ok(ks)
}

/// The cells `run` sweeps for the three games from `k0` with windows `size x size`: each
/// game's labels are computed from the origin to its window's far corner.
pub fn swept_cells(k0: u32, size: u32) -> Result<u64> {
    panel_games(k0, size)?
        .iter()
        .map(|&k| {
            let w = window_of(k, size)?;
            Ok(u64::from(w.x1()) * u64::from(w.y1()))
        })
        .sum()
}

/// The window drawn for game `k`: `size x size` around its nose.
fn window_of(k: u32, size: u32) -> Result<Window> {
    let x0 = ((k - 1) / 3).saturating_sub(size / 8);
    Ok(Window::new(x0, x0, x0 + size, x0 + size)?)
}

/// The games the prefix claim is tested against, as lanes aligned with `window` from the
/// origin.
fn prefix_lanes(k: u32, window: Window) -> Result<Vec<Lane>> {
    PREFIX_STEPS
        .iter()
        .map(|&s| {
            let d = s / 3;
            Ok(Lane { k: k + s, window: Window::new(d, d, window.x1() + d, window.y1() + d)? })
        })
        .collect()
}

/// One class's entry of the report.
fn class(k: u32, nose: u32, w: Window, fabric: u64, agree: Vec<u64>, diag_end: Option<u32>) -> FabricClass {
    FabricClass {
        k,
        class: k % 3,
        nose,
        window: [w.x0(), w.y0(), w.x1(), w.y1()],
        fabric_cells: fabric,
        fabric_diagonal_end: diag_end,
        prefix_fraction: if fabric > 0 { *agree.last().expect("steps") as f64 / fabric as f64 } else { 0.0 },
        prefix_agreement: PREFIX_STEPS.iter().zip(agree).map(|(&s, a)| (k + s, a)).collect(),
    }
}

/// Writes the three panels side by side.
fn write_picture(o: AtomicOutput, ks: &[u32], size: u32, picture: &[u8]) -> Result<PathBuf> {
    let path = o.path().to_path_buf();
    crate::analysis::fabric_plot::draw(ks, size as usize, 8, picture, o)?;
    Ok(path)
}

/// [`run`] as first written, on one consumer thread (a lockstep of row sweeps and
/// [`labels::label`]): the reference [`run`] is tested against.
pub fn run_reference(
    k0: u32,
    size: u32,
    out: Option<AtomicOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(FabricReport, Option<PathBuf>)> {
    let ks = panel_games(k0, size)?;
    let n = size as usize;
    let gap = 8usize;
    let mut picture = vec![palette::MASKED; (3 * n + 2 * gap) * n];
    let mut classes = Vec::new();
    // Each panel's labels are swept from row 0 to the bottom of its window: one bar for all.
    let total: u64 =
        ks.iter().map(|&k| window_of(k, size).map(|w| u64::from(w.y1()))).sum::<Result<u64>>()?;
    progress.set_length(total);
    let mut done = 0u64;
    for (panel, &k) in ks.iter().enumerate() {
        let nose = (k - 1) / 3;
        let window = window_of(k, size)?;
        let panel_progress = Offset { inner: progress, offset: done };
        done += u64::from(window.y1());
        let extra = prefix_lanes(k, window)?;
        let mut fabric = 0u64;
        let mut agree = vec![0u64; PREFIX_STEPS.len()];
        let mut diag_end = None;
        labels::label(
            k,
            window,
            opts,
            &panel_progress,
            &extra,
            |rows: &[Row<'_>]| {
                let a = &rows[0];
                PREFIX_STEPS
                    .iter()
                    .zip(&rows[4..])
                    .map(|(&s, b)| {
                        (0..a.cells.len())
                            .map(|i| b.palace_number(i) == a.palace_number(i) + i64::from(s))
                            .collect::<Vec<bool>>()
                    })
                    .collect::<Vec<_>>()
            },
            |r| {
                let row = Row { k, y: r.y, x0: 0, cells: &r.cells };
                let hood = row.hood_cells();
                let py = (r.y - window.y0()) as usize;
                for x in window.x0() as usize..window.x1() as usize {
                    if r.labels[x] == Region::Fabric {
                        fabric += 1;
                        for (a, m) in agree.iter_mut().zip(&r.extra) {
                            *a += u64::from(m[x]);
                        }
                        if x as u32 == r.y {
                            diag_end = Some(r.y);
                        }
                    }
                    let px = panel * (n + gap) + (x - window.x0() as usize);
                    picture[py * (3 * n + 2 * gap) + px] =
                        if x < hood { palette::HOOD } else { palette::index(r.cells[x]) };
                }
                Ok(())
            },
        )?;
        let w = window;
        classes.push(FabricClass {
            k,
            class: k % 3,
            nose,
            window: [w.x0(), w.y0(), w.x1(), w.y1()],
            fabric_cells: fabric,
            fabric_diagonal_end: diag_end,
            prefix_fraction: if fabric > 0 {
                *agree.last().expect("steps") as f64 / fabric as f64
            } else {
                0.0
            },
            prefix_agreement: PREFIX_STEPS.iter().zip(agree).map(|(&s, a)| (k + s, a)).collect(),
        });
    }
    let path = match out {
        Some(o) => {
            let path = o.path().to_path_buf();
            crate::analysis::fabric_plot::draw(&ks, n, gap, &picture, o)?;
            Some(path)
        }
        None => None,
    };
    Ok((FabricReport { size, classes }, path))
}

/// One panel's progress as part of the whole run's: positions are shifted by the rows of the
/// panels before it, and the length is the whole run's, set once.
struct Offset<'a> {
    inner: &'a dyn Progress,
    offset: u64,
}

impl Progress for Offset<'_> {
    fn set_position(&self, pos: u64) {
        self.inner.set_position(self.offset + pos);
    }

    fn inc(&self, delta: u64) {
        self.inner.inc(delta);
    }
}

impl std::fmt::Display for FabricReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "the fabric around the nose, {} x {} cells per game", self.size, self.size)?;
        writeln!(
            f,
            "{:>7} {:>5} {:>7} {:>12} {:>10}  fabric (cells agreeing with k+3, shift (1,1), on 8x8 blocks) also agreeing with",
            "k", "mod 3", "nose", "fabric", "ends at"
        )?;
        for c in &self.classes {
            let agree: Vec<String> = c
                .prefix_agreement
                .iter()
                .map(|(k2, a)| {
                    let frac =
                        if c.fabric_cells > 0 { 100.0 * *a as f64 / c.fabric_cells as f64 } else { 0.0 };
                    format!("k = {k2}: {a} ({frac:.4}%)")
                })
                .collect();
            writeln!(
                f,
                "{:>7} {:>5} {:>7} {:>12} {:>10}  {}",
                c.k,
                c.class,
                c.nose,
                c.fabric_cells,
                c.fabric_diagonal_end.map_or("-".into(), |d| format!("({d}, {d})")),
                agree.join(", ")
            )?;
        }
        Ok(())
    }
}
