//! `palace grid`: the grid of the fabric (§3.2 of Cook, Larsson and Neary). The paper says the
//! larger black regions of the fabric form a rough grid which, far from the nose, "morphs into
//! a larger-scale grid, which is at a slightly different angle and has cells about 3.5 times
//! larger". This module measures the grid in square windows of the upper fabric at several
//! distances from the nose, by the exact two-dimensional autocorrelation of a cell pattern
//! (black cells, `v = 0`, or palaces, `v < 0`): the lattice vectors of its first peaks give
//! the grid cell's size and angle per window.
//!
//! The autocorrelation is counted exactly on bitsets ([`BitGrid`], [`pair_count`], one
//! `AND` and `popcount` per 64 cells) and tested against a plain double loop
//! ([`pair_count_reference`]). Only cells that `palace regions` labels fabric and that lie
//! above the diagonal take part (the mask): the lower fabric is the mirror image of the upper
//! one, and a window across the diagonal would mix a lattice with its transpose. The method
//! and the measurements are in `docs/fabric-grid.md`.

use crate::engine::{Cancel, EngineOptions, Progress};
use crate::error::Result;
use crate::labels::{self, Region};
use crate::model::geometry::Window;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Mutex;

/// A rectangle of bits, one `u64` word per 64 cells of a row; bits past the width are 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitGrid {
    width: usize,
    height: usize,
    words: usize,
    bits: Vec<u64>,
}

impl BitGrid {
    /// An all-zero `width x height` grid.
    pub fn new(width: usize, height: usize) -> Self {
        let words = width.div_ceil(64);
        BitGrid { width, height, words, bits: vec![0; words * height] }
    }

    #[cfg(test)]
    /// The grid whose cell `(x, y)` is `f(x, y)`.
    pub(crate) fn from_fn(width: usize, height: usize, f: impl Fn(usize, usize) -> bool) -> Self {
        let mut g = BitGrid::new(width, height);
        for y in 0..height {
            for x in 0..width {
                if f(x, y) {
                    g.set(x, y);
                }
            }
        }
        g
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Sets cell `(x, y)`.
    pub fn set(&mut self, x: usize, y: usize) {
        assert!(x < self.width && y < self.height, "cell ({x}, {y}) outside the grid");
        self.bits[y * self.words + x / 64] |= 1 << (x % 64);
    }

    /// Cell `(x, y)`.
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.words + x / 64] >> (x % 64) & 1 == 1
    }

    /// Cells set.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The cells set in both `self` and `other` (same shape).
    pub fn and(&self, other: &BitGrid) -> BitGrid {
        assert_eq!((self.width, self.height), (other.width, other.height), "shapes differ");
        let bits = self.bits.iter().zip(&other.bits).map(|(a, b)| a & b).collect();
        BitGrid { bits, ..*self }
    }

    /// Row `y`'s 64 cells from column `x` (which may be negative or past the width: cells
    /// outside the grid read 0).
    fn word_at(&self, y: usize, x: i64) -> u64 {
        let row = &self.bits[y * self.words..(y + 1) * self.words];
        let word = |i: i64| if i >= 0 && (i as usize) < self.words { row[i as usize] } else { 0 };
        let (i, s) = (x.div_euclid(64), x.rem_euclid(64) as u32);
        if s == 0 { word(i) } else { word(i) >> s | word(i + 1) << (64 - s) }
    }
}

/// How many cells `p` have `a` at `p` and `b` at `p + (dx, dy)`, with both cells in the grid
/// (the shapes must agree): the autocorrelation's count, 64 cells per `AND` and `popcount`.
pub fn pair_count(a: &BitGrid, b: &BitGrid, dx: i64, dy: i64) -> u64 {
    assert_eq!((a.width, a.height), (b.width, b.height), "shapes differ");
    let h = a.height as i64;
    let (y0, y1) = (0.max(-dy), h.min(h - dy));
    let mut n = 0u64;
    for y in y0..y1 {
        let yb = (y + dy) as usize;
        let row = &a.bits[y as usize * a.words..(y as usize + 1) * a.words];
        for (i, &w) in row.iter().enumerate() {
            if w != 0 {
                n += u64::from((w & b.word_at(yb, 64 * i as i64 + dx)).count_ones());
            }
        }
    }
    n
}

/// [`pair_count`] by a plain double loop over the cells: the reference it is tested against.
pub fn pair_count_reference(a: &BitGrid, b: &BitGrid, dx: i64, dy: i64) -> u64 {
    let (w, h) = (a.width as i64, a.height as i64);
    let mut n = 0;
    for y in 0..h {
        for x in 0..w {
            let (xb, yb) = (x + dx, y + dy);
            if xb >= 0
                && xb < w
                && yb >= 0
                && yb < h
                && a.get(x as usize, y as usize)
                && b.get(xb as usize, yb as usize)
            {
                n += 1;
            }
        }
    }
    n
}

/// The masked autocorrelation of a pattern: for every shift `s = (dx, dy)` with
/// `|dx|, |dy| <= reach`, Pearson's correlation between the pattern at `p` and at `p + s`
/// over the cells `p` with both `p` and `p + s` in the mask. From four exact counts (pairs of
/// mask cells `n`, pattern then mask `n1`, mask then pattern `n2`, pattern then pattern
/// `n11`): `r = (n11 n - n1 n2) / sqrt(n1 (n - n1) n2 (n - n2))`, 0 where a factor is 0,
/// and 0 where fewer than a quarter of the mask's cells have their partner in the mask (a
/// few pairs would correlate by chance). `r(-s) = r(s)`, so only `dy >= 0` is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Correlation {
    /// The largest `|dx|` and `|dy|`.
    pub reach: i64,
    /// `r` at `(dx, dy)`, row `dy = 0..=reach`, column `dx + reach`.
    r: Vec<f64>,
}

impl Correlation {
    /// The map whose `r(dx, dy)` is `f(dx, dy)` for `0 <= dy <= reach`, `|dx| <= reach` (the
    /// other half by `r(-s) = r(s)`).
    pub(crate) fn from_fn(reach: i64, f: impl Fn(i64, i64) -> f64) -> Self {
        let r = (0..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| f(dx, dy))
            .collect();
        Correlation { reach, r }
    }

    /// `r(dx, dy)`, for `|dx|, |dy| <= reach`.
    pub fn at(&self, dx: i64, dy: i64) -> f64 {
        let (dx, dy) = if dy < 0 { (-dx, -dy) } else { (dx, dy) };
        self.r[(dy * (2 * self.reach + 1) + dx + self.reach) as usize]
    }
}

/// Pearson's correlation from the four pair counts (see [`Correlation`]).
pub(crate) fn pearson(n: u64, n1: u64, n2: u64, n11: u64) -> f64 {
    // Every product below is exact in f64 for windows up to 2^20 cells; with n1 = n2 the
    // denominator is taken without a square root, so that a perfect repetition gives 1.0
    // exactly.
    let (v1, v2) = (n1 * (n - n1), n2 * (n - n2));
    let den = if n1 == n2 { v1 as f64 } else { (v1 as f64).sqrt() * (v2 as f64).sqrt() };
    let cov = (n11 * n) as f64 - (n1 * n2) as f64;
    if den > 0.0 { cov / den } else { 0.0 }
}

/// The masked autocorrelation of `pattern` within `mask` ([`Correlation`]), counted by
/// `count` ([`pair_count`] or [`pair_count_reference`]). Pattern cells outside the mask are
/// ignored.
pub(crate) fn correlation_with(
    pattern: &BitGrid,
    mask: &BitGrid,
    reach: i64,
    count: impl Fn(&BitGrid, &BitGrid, i64, i64) -> u64 + Sync,
) -> Correlation {
    correlation_until(pattern, mask, reach, count, &Cancel::new()).expect("a fresh token is never cancelled")
}

/// [`correlation_with`] for a run that `cancel` stops: every shift looks at the token first,
/// and a cancelled run ends with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) (a window's map of a large reach
/// takes seconds).
pub(crate) fn correlation_until(
    pattern: &BitGrid,
    mask: &BitGrid,
    reach: i64,
    count: impl Fn(&BitGrid, &BitGrid, i64, i64) -> u64 + Sync,
    cancel: &Cancel,
) -> Result<Correlation> {
    let p = pattern.and(mask);
    let min_pairs = mask.count().div_ceil(4).max(1);
    let side = 2 * reach + 1;
    let r = (0..(reach + 1) * side)
        .into_par_iter()
        .map(|i| {
            if cancel.is_cancelled() {
                return 0.0;
            }
            let (dy, dx) = (i / side, i % side - reach);
            let n = count(mask, mask, dx, dy);
            if n < min_pairs {
                return 0.0;
            }
            pearson(n, count(&p, mask, dx, dy), count(mask, &p, dx, dy), count(&p, &p, dx, dy))
        })
        .collect();
    cancel.check()?;
    Ok(Correlation { reach, r })
}

/// `correlation_with` by [`pair_count`].
pub fn correlation(pattern: &BitGrid, mask: &BitGrid, reach: i64) -> Correlation {
    correlation_with(pattern, mask, reach, pair_count)
}

/// A local maximum of the autocorrelation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Peak {
    /// Shift in columns.
    pub dx: i64,
    /// Shift in rows (`>= 0`; `dx > 0` when 0).
    pub dy: i64,
    /// The correlation there.
    pub r: f64,
}

impl Peak {
    /// `|s|^2`.
    fn len2(&self) -> i64 {
        self.dx * self.dx + self.dy * self.dy
    }
}

/// The local maxima of `c` in the half plane `dy > 0` or (`dy = 0`, `dx > 0`), at least
/// `min_len` from the origin and inside the map's border (so that all 8 neighbours are known):
/// `r` at least every neighbour's and above every neighbour's that comes first in row-major
/// order of the half plane (one peak per plateau). Sorted by `r` (highest first), then by
/// length, then row-major.
pub fn peaks(c: &Correlation, min_len: f64) -> Vec<Peak> {
    let rr = c.reach;
    let key = |dx: i64, dy: i64| if dy < 0 || (dy == 0 && dx < 0) { (-dy, -dx) } else { (dy, dx) };
    let mut out = Vec::new();
    for dy in 0..rr {
        for dx in (1 - rr)..rr {
            if (dy == 0 && dx <= 0) || ((dx * dx + dy * dy) as f64) < min_len * min_len {
                continue;
            }
            let r = c.at(dx, dy);
            let me = key(dx, dy);
            let is_peak = (-1..=1).all(|ey: i64| {
                (-1..=1).all(|ex: i64| {
                    let (nx, ny) = (dx + ex, dy + ey);
                    if (ex, ey) == (0, 0) || (nx, ny) == (0, 0) {
                        return true;
                    }
                    let q = c.at(nx, ny);
                    if key(nx, ny) < me { r > q } else { r >= q }
                })
            });
            if is_peak {
                out.push(Peak { dx, dy, r });
            }
        }
    }
    out.sort_by(|a, b| {
        b.r.total_cmp(&a.r).then(a.len2().cmp(&b.len2())).then((a.dy, a.dx).cmp(&(b.dy, b.dx)))
    });
    out
}

/// A lattice read off the peaks: the strongest peak `v1` and the strongest peak `v2` whose
/// line makes at least [`MIN_ANGLE`] degrees with `v1`'s (ties: the shorter first).
#[derive(Debug, Clone, Serialize)]
pub struct Lattice {
    /// The strongest peak.
    pub v1: Peak,
    /// The strongest peak not (nearly) parallel to `v1`.
    pub v2: Peak,
    /// `|det(v1, v2)|`: the cell's area, in cells.
    pub area: i64,
    /// `sqrt(area)`: the cell's side, in cells.
    pub size: f64,
    /// The direction of `v1`, in degrees from the x axis towards the y axis (rows down).
    pub angle1: f64,
    /// The direction of `v2`, likewise.
    pub angle2: f64,
    /// The same lattice's Lagrange-Gauss reduced basis (shortest vector first).
    pub reduced: [(i64, i64); 2],
    /// Of the strongest [`EXPLAINED_OF`] peaks it was read from, how many lie within 1.5
    /// cells of a point `i v1 + j v2`.
    pub explained: usize,
}

/// The least angle, in degrees, between a lattice's two vectors.
pub const MIN_ANGLE: f64 = 20.0;
/// How many of the strongest peaks [`Lattice::explained`] looks at.
pub const EXPLAINED_OF: usize = 12;

/// The Lagrange-Gauss reduction of the lattice spanned by `a` and `b` (independent): a basis
/// of the same lattice with `|a| <= |b|` and `|a . b| <= |a|^2 / 2`.
pub(crate) fn reduce(mut a: (i64, i64), mut b: (i64, i64)) -> [(i64, i64); 2] {
    let dot = |u: (i64, i64), v: (i64, i64)| u.0 * v.0 + u.1 * v.1;
    loop {
        if dot(a, a) > dot(b, b) {
            std::mem::swap(&mut a, &mut b);
        }
        let (ab, aa) = (dot(a, b), dot(a, a));
        if 2 * ab.abs() <= aa {
            return [a, b];
        }
        let m = (ab as f64 / aa as f64).round() as i64;
        b = (b.0 - m * a.0, b.1 - m * a.1);
    }
}

/// The lattice of the peaks (sorted as [`peaks`] sorts them), if two are at least
/// [`MIN_ANGLE`] apart.
pub fn lattice(peaks: &[Peak]) -> Option<Lattice> {
    let v1 = *peaks.first()?;
    let len = |p: &Peak| (p.len2() as f64).sqrt();
    let v2 = *peaks[1..].iter().find(|p| {
        let cross = (v1.dx * p.dy - v1.dy * p.dx) as f64;
        cross.abs() / (len(&v1) * len(p)) >= MIN_ANGLE.to_radians().sin()
    })?;
    let det = v1.dx * v2.dy - v1.dy * v2.dx;
    let explained = peaks
        .iter()
        .take(EXPLAINED_OF)
        .filter(|p| {
            // Coordinates of p in the basis (v1, v2), rounded to the nearest lattice point.
            let (x, y, d) = (p.dx as f64, p.dy as f64, det as f64);
            let i = ((x * v2.dy as f64 - y * v2.dx as f64) / d).round();
            let j = ((v1.dx as f64 * y - v1.dy as f64 * x) / d).round();
            let (lx, ly) = (i * v1.dx as f64 + j * v2.dx as f64, i * v1.dy as f64 + j * v2.dy as f64);
            (lx - x).hypot(ly - y) <= 1.5
        })
        .count();
    let angle = |p: &Peak| (p.dy as f64).atan2(p.dx as f64).to_degrees();
    Some(Lattice {
        v1,
        v2,
        area: det.abs(),
        size: (det.abs() as f64).sqrt(),
        angle1: angle(&v1),
        angle2: angle(&v2),
        reduced: reduce((v1.dx, v1.dy), (v2.dx, v2.dy)),
        explained,
    })
}

/// The peaks shorter than this are the fabric's texture (shifts such as (4, 2) and (5, 5)
/// along which single cells repeat), not its grid.
pub const MIN_LEN: f64 = 8.0;
/// Peaks listed per pattern and window.
pub const LISTED: usize = 8;
/// The bands of peak lengths a lattice is read from, `[from, to)` cells: the small grid's
/// (vectors such as (12, 8) and (8, 12), about 14 cells) and the large grid's (such as
/// (32, 14) and (13, 31), about 34 cells). A lattice read from all peaks at once would mix
/// the two where both are present, and take multiples such as (63, 27) for vectors.
pub const BANDS: [(f64, f64); 2] = [(MIN_LEN, 20.0), (20.0, 60.0)];

/// A lattice read from the peaks of one band of lengths.
#[derive(Debug, Clone, Serialize)]
pub struct BandLattice {
    /// The band `[from, to)`, in cells.
    pub band: (f64, f64),
    /// The lattice of the band's peaks, if two are at least [`MIN_ANGLE`] apart.
    pub lattice: Option<Lattice>,
}

/// The lattice of the peaks of each of [`BANDS`].
pub(crate) fn band_lattices(peaks: &[Peak]) -> Vec<BandLattice> {
    BANDS
        .iter()
        .map(|&(from, to)| {
            let inside: Vec<Peak> = peaks
                .iter()
                .copied()
                .filter(|p| {
                    let l = (p.len2() as f64).sqrt();
                    from <= l && l < to
                })
                .collect();
            BandLattice { band: (from, to), lattice: lattice(&inside) }
        })
        .collect()
}

/// One pattern's measurement in one window.
#[derive(Debug, Clone, Serialize)]
pub struct PatternReport {
    /// Cells of the pattern in the mask.
    pub cells: u64,
    /// The strongest [`LISTED`] peaks.
    pub peaks: Vec<Peak>,
    /// The lattice of each band of [`BANDS`].
    pub lattices: Vec<BandLattice>,
}

/// One window's measurement.
#[derive(Debug, Clone, Serialize)]
pub struct GridWindow {
    /// Distance from the nose along the diagonal: the window's lower-left corner touches the
    /// diagonal at `(nose + d, nose + d)`.
    pub d: u32,
    /// The window `[x0, x1) x [y0, y1)`: `x0 = nose + d`, `y1 = nose + d`.
    pub window: [u32; 4],
    /// Cells of the window labelled fabric (all lie above the diagonal).
    pub fabric_cells: u64,
    /// Black cells (`v = 0`).
    pub black: PatternReport,
    /// Palaces (`v < 0`).
    pub palace: PatternReport,
}

/// The result of `palace grid`.
#[derive(Debug, Clone, Serialize)]
pub struct GridReport {
    /// The game.
    pub k: u32,
    /// The nose's coordinate, `(k - 1) / 3`.
    pub nose: u32,
    /// The largest window side.
    pub side: u32,
    /// The largest shift measured, each coordinate.
    pub reach: u32,
    /// One entry per window, by distance.
    pub windows: Vec<GridWindow>,
}

/// The default distances from the nose: 128, 192, 256, 384, 512, ... (alternately times 1.5
/// and 4/3) while the window stays before `1.25 k` (the prism is at about `1.28 k` from the
/// nose).
pub fn default_distances(k: u32, side: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut d = 128u64;
    let limit = 5 * u64::from(k) / 4;
    while d + u64::from(side_at(d as u32, side)) <= limit {
        out.push(d as u32);
        d = if d.is_power_of_two() { d * 3 / 2 } else { d * 4 / 3 };
    }
    out
}

/// The window side at distance `d`: `side`, or `d / 2` near the nose, where the fabric is
/// narrow (the square then lies in the fabric but for its far corner).
pub(crate) fn side_at(d: u32, side: u32) -> u32 {
    side.min(d / 2).max(1)
}

/// The window at distance `d`: above the diagonal, its lower-left corner on it.
pub(crate) fn window_at(k: u32, d: u32, side: u32) -> Result<Window> {
    let nose = (k - 1) / 3;
    let s = side_at(d, side);
    Ok(Window::new(nose + d, nose + d - s, nose + d + s, nose + d)?)
}

/// The masks of one window, filled tile by tile.
struct Bits {
    window: Window,
    fabric: BitGrid,
    black: BitGrid,
    palace: BitGrid,
}

/// Measures the grid of game `k`'s fabric in windows at distances `at` from the nose (side
/// `side_at` of `side`), shifts up to `reach`, on the sweep's workers
/// ([`labels::label_tiles`]). Returns the report and the black cells' autocorrelation map of
/// each window, in the report's order: the picture module `grid_plot` draws them.
pub fn run(
    k: u32,
    side: u32,
    reach: u32,
    at: &[u32],
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(GridReport, Vec<Correlation>)> {
    let nose = (k - 1) / 3;
    let mut at = at.to_vec();
    at.sort_unstable();
    at.dedup();
    if at.is_empty() {
        use crate::error::{Param, ParameterError};
        return Err(ParameterError::new(Param::K, k)
            .text(": no window of the fabric fits between the nose and 1.25 k; use a larger ")
            .name(Param::K)
            .text(" or give ")
            .name(Param::At)
            .into());
    }
    let windows: Vec<Window> = at.iter().map(|&d| window_at(k, d, side)).collect::<Result<_>>()?;
    let x1 = windows.iter().map(|w| w.x1()).max().expect("windows");
    let y1 = windows.iter().map(|w| w.y1()).max().expect("windows");
    let bits: Vec<Mutex<Bits>> = windows
        .iter()
        .map(|&w| {
            let (ww, hh) = (w.width() as usize, w.height() as usize);
            Mutex::new(Bits {
                window: w,
                fabric: BitGrid::new(ww, hh),
                black: BitGrid::new(ww, hh),
                palace: BitGrid::new(ww, hh),
            })
        })
        .collect();
    let fab = Region::Fabric.index() as u8;
    labels::label_tiles(
        k,
        Window::new(0, 0, x1, y1)?,
        opts,
        progress,
        &[],
        || (),
        |_, t| {
            for b in &bits {
                let w = b.lock().expect("window lock").window;
                let (xa, xb) = (t.x0.max(w.x0()), t.x1.min(w.x1()));
                let (ya, yb) = (t.y0.max(w.y0()), t.y1.min(w.y1()));
                if xa >= xb || ya >= yb {
                    continue;
                }
                let mut b = b.lock().expect("window lock");
                for y in ya..yb {
                    let (cells, labels) = (t.cells(y), t.labels(y));
                    for x in xa..xb {
                        let i = (x - t.x0) as usize;
                        if labels[i] != fab {
                            continue;
                        }
                        let (cx, cy) = ((x - w.x0()) as usize, (y - w.y0()) as usize);
                        b.fabric.set(cx, cy);
                        if cells[i] == 0 {
                            b.black.set(cx, cy);
                        } else if cells[i] < 0 {
                            b.palace.set(cx, cy);
                        }
                    }
                }
            }
        },
    )?;
    let mut maps = Vec::new();
    let mut report = GridReport { k, nose, side, reach, windows: Vec::new() };
    for (b, &d) in bits.into_iter().zip(&at) {
        opts.cancel.check()?;
        let b = b.into_inner().expect("window lock");
        let w = b.window;
        let measure = |p: &BitGrid| -> Result<(PatternReport, Correlation)> {
            let c = correlation_until(p, &b.fabric, i64::from(reach), pair_count, &opts.cancel)?;
            let ps = peaks(&c, MIN_LEN);
            let r = PatternReport {
                cells: p.and(&b.fabric).count(),
                lattices: band_lattices(&ps),
                peaks: ps.into_iter().take(LISTED).collect(),
            };
            Ok((r, c))
        };
        let (black, map) = measure(&b.black)?;
        let (palace, _) = measure(&b.palace)?;
        maps.push(map);
        report.windows.push(GridWindow {
            d,
            window: [w.x0(), w.y0(), w.x1(), w.y1()],
            fabric_cells: b.fabric.count(),
            black,
            palace,
        });
    }
    Ok((report, maps))
}

impl std::fmt::Display for GridReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "k = {}, nose ({n}, {n}); windows above the diagonal, lower-left corner at (nose + d, nose + d), side up to {}; fabric cells only; shifts up to {}",
            self.k,
            self.side,
            self.reach,
            n = self.nose
        )?;
        writeln!(
            f,
            "per band of peak lengths: v1 the strongest autocorrelation peak, v2 the strongest at least {MIN_ANGLE} degrees off v1's line; size = sqrt|det(v1, v2)|; angles from the x axis, rows down; expl = of the band's {EXPLAINED_OF} strongest peaks, those within 1.5 cells of the lattice"
        )?;
        for (name, pick) in [("black cells (v = 0)", 0), ("palaces (v < 0)", 1)] {
            writeln!(f, "{name}:")?;
            write!(f, "{:>7} {:>5} {:>7}", "d", "side", "fabric")?;
            for b in BANDS {
                write!(
                    f,
                    " | {:>25} {:>5} {:>11} {:>4}",
                    format!("{}..{}: v1, v2 (r)", b.0, b.1),
                    "size",
                    "angles",
                    "expl"
                )?;
            }
            writeln!(f, " | ratio  strongest peaks")?;
            for w in &self.windows {
                let p = if pick == 0 { &w.black } else { &w.palace };
                write!(f, "{:>7} {:>5} {:>7}", w.d, w.window[2] - w.window[0], w.fabric_cells)?;
                for b in &p.lattices {
                    match &b.lattice {
                        Some(l) => write!(
                            f,
                            " | {:>25} {:>5.1} {:>11} {:>4}",
                            format!(
                                "({},{}) ({},{}) {:.3}",
                                l.v1.dx,
                                l.v1.dy,
                                l.v2.dx,
                                l.v2.dy,
                                (l.v1.r + l.v2.r) / 2.0
                            ),
                            l.size,
                            format!("{:.1} {:.1}", l.angle1, l.angle2),
                            l.explained
                        )?,
                        None => write!(f, " | {:>25} {:>5} {:>11} {:>4}", "-", "-", "-", "-")?,
                    }
                }
                let ratio = match (&p.lattices[0].lattice, &p.lattices[1].lattice) {
                    (Some(a), Some(b)) => format!("{:.2}", b.size / a.size),
                    _ => "-".into(),
                };
                let peaks: Vec<String> =
                    p.peaks.iter().take(5).map(|q| format!("({},{}) {:.3}", q.dx, q.dy, q.r)).collect();
                writeln!(f, " | {ratio:>5}  {}", peaks.join(" "))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::splitmix64 as splitmix;

    fn random(w: usize, h: usize, density: u64, seed: u64) -> BitGrid {
        let mut s = seed;
        let mut g = BitGrid::new(w, h);
        for y in 0..h {
            for x in 0..w {
                if splitmix(&mut s) % 100 < density {
                    g.set(x, y);
                }
            }
        }
        g
    }

    #[test]
    fn pair_count_equals_the_double_loop() {
        for (i, &(w, h)) in [(1, 1), (63, 5), (64, 7), (65, 9), (130, 17), (200, 3)].iter().enumerate() {
            let a = random(w, h, 40, i as u64);
            let b = random(w, h, 60, 100 + i as u64);
            let rx = w as i64 + 2;
            let ry = h as i64 + 2;
            for dy in -ry..=ry {
                for dx in (-rx..=rx).step_by(if w > 64 { 3 } else { 1 }) {
                    assert_eq!(
                        pair_count(&a, &b, dx, dy),
                        pair_count_reference(&a, &b, dx, dy),
                        "{w}x{h} ({dx},{dy})"
                    );
                }
            }
        }
    }

    #[test]
    fn correlation_equals_the_reference_with_a_mask() {
        let p = random(90, 40, 30, 7);
        // A triangular mask, as the fabric's above the diagonal.
        let m = BitGrid::from_fn(90, 40, |x, y| 2 * x > y + 10);
        let fast = correlation(&p, &m, 12);
        let slow = correlation_with(&p, &m, 12, pair_count_reference);
        assert_eq!(fast, slow);
        assert_eq!(fast.at(3, -2), fast.at(-3, 2));
        assert!((fast.at(0, 0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_cancelled_correlation_stops_with_interrupted() {
        let p = random(90, 40, 30, 7);
        let m = BitGrid::from_fn(90, 40, |_, _| true);
        let cancel = Cancel::new();
        assert!(correlation_until(&p, &m, 12, pair_count, &cancel).is_ok());
        cancel.cancel();
        assert!(
            matches!(correlation_until(&p, &m, 12, pair_count, &cancel), Err(ref e) if e.is_interrupted())
        );
    }

    /// A pattern set exactly on a lattice with basis `a`, `b`: the lattice vectors correlate
    /// perfectly, so the measured lattice is the reduced basis.
    fn lattice_of(a: (i64, i64), b: (i64, i64), w: usize, h: usize, reach: i64) -> (Lattice, Vec<Peak>) {
        let det = a.0 * b.1 - a.1 * b.0;
        let on = |x: usize, y: usize| {
            let (x, y) = (x as i64, y as i64);
            // (x, y) = i a + j b with integers i, j.
            (x * b.1 - y * b.0) % det == 0 && (a.0 * y - a.1 * x) % det == 0
        };
        let p = BitGrid::from_fn(w, h, on);
        let m = BitGrid::from_fn(w, h, |_, _| true);
        let c = correlation(&p, &m, reach);
        let ps = peaks(&c, MIN_LEN);
        (lattice(&ps).expect("a lattice"), ps)
    }

    #[test]
    fn a_hand_built_lattice_gives_its_vectors() {
        // The fabric's large grid, and small ones. (A lattice with a vector shorter than
        // MIN_LEN is measured as a sublattice: such vectors are taken for texture.)
        for (a, b, reduced) in [
            ((32, 14), (13, 31), [(-19, 17), (13, 31)]),
            ((13, 9), (-9, 10), [(-9, 10), (13, 9)]),
            ((11, 0), (3, 10), [(3, 10), (11, 0)]),
        ] {
            let (l, ps) = lattice_of(a, b, 200, 160, 48);
            let det = (a.0 * b.1 - a.1 * b.0).abs();
            assert_eq!(l.area, det, "{a:?} {b:?}: {l:?}");
            assert_eq!(l.v1.r, 1.0);
            assert_eq!(l.v2.r, 1.0);
            // The two shortest lattice vectors at least MIN_ANGLE apart, up to sign.
            let norm = |v: (i64, i64)| if v.1 < 0 || (v.1 == 0 && v.0 < 0) { (-v.0, -v.1) } else { v };
            let got = reduce((l.v1.dx, l.v1.dy), (l.v2.dx, l.v2.dy));
            assert_eq!(got.map(norm), reduced.map(norm), "{a:?} {b:?}: {l:?}");
            // The lattice points come first (r = 1 exactly) and are all explained; the
            // peaks between them (r < 1) are not.
            let on = ps.iter().take(EXPLAINED_OF).filter(|p| p.r == 1.0).count();
            assert!(on >= 4, "{ps:?}");
            assert_eq!(l.explained, on, "{ps:?}");
        }
    }

    #[test]
    fn reduction_keeps_the_lattice() {
        assert_eq!(reduce((32, 14), (14, 32)), [(-18, 18), (32, 14)]);
        assert_eq!(reduce((1, 0), (100, 1)), [(1, 0), (0, 1)]);
    }

    #[test]
    fn default_windows_lie_between_nose_and_prism() {
        let ds = default_distances(1000, 512);
        assert_eq!(ds, vec![128, 192, 256, 384, 512, 768]);
        for &d in &ds {
            let w = window_at(1000, d, 512).unwrap();
            assert!(w.x0() > w.y1() - 1);
            assert!(w.x1() <= 333 + 1250);
        }
    }
}
