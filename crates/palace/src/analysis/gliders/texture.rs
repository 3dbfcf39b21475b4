//! The fabric's texture, map cell by map cell: the upper fabric's cells and black cells kept as
//! bits ([`Planes`], sparse 64 x 64 blocks, so that only the fabric's triangle costs memory),
//! and, for every map cell of [`CELL`] x [`CELL`] cells, the masked autocorrelation of the
//! black cells at a few shifts over the square window of `w x w` map cells centred on it
//! ([`correlations`]). The counts are those of `palace grid` (`crate::analysis::grid`): for a
//! shift `s`, over the cells `p` of the window with `p` and `p + s` both fabric, the pairs
//! `n`, black then fabric `n1`, fabric then black `n2`, black at both `n11`, and Pearson's `r`
//! from them; here a pair belongs to the window of its first cell `p` (its partner may lie
//! outside the window), so that the window's counts are sums of its map cells' counts, each
//! map cell counted once per shift, 16 cells of a row per `AND` and `popcount`.
//! `correlations_reference` counts the same by a plain loop over the cells, for the tests.

use crate::analysis::grid::pearson;
use crate::engine::Cancel;
use crate::error::Result;
use crate::model::geometry::Window;
use rayon::prelude::*;

/// The side of a map cell, in cells.
pub const CELL: usize = 16;
/// Map cells per 64-bit word of a row.
const LANES: usize = 64 / CELL;
/// The side of a block of [`Planes`], in cells (one `u64` per row).
const BLOCK: usize = 64;

/// One 64 x 64 block of the two planes: fabric cells (the mask) and black cells (`v = 0`,
/// always inside the mask), one word per row, bit `i` for column `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    mask: [u64; BLOCK],
    black: [u64; BLOCK],
}

/// The fabric's cells and black cells in a window, as bits in 64 x 64 blocks allocated where
/// the window holds fabric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planes {
    /// The window the cells lie in.
    window: Window,
    /// The first column and row of block (0, 0): the window's corner rounded down to
    /// multiples of 64.
    x0: u32,
    y0: u32,
    /// Blocks across and down.
    bw: usize,
    bh: usize,
    blocks: Vec<Option<Box<Block>>>,
}

/// Which plane a word is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plane {
    Mask,
    Black,
}

impl Planes {
    /// No cells, in `window`.
    pub fn new(window: Window) -> Self {
        let (x0, y0) = (window.x0() / BLOCK as u32 * BLOCK as u32, window.y0() / BLOCK as u32 * BLOCK as u32);
        let bw = (window.x1() - x0).div_ceil(BLOCK as u32) as usize;
        let bh = (window.y1() - y0).div_ceil(BLOCK as u32) as usize;
        Planes { window, x0, y0, bw, bh, blocks: vec![None; bw * bh] }
    }

    #[cfg(test)]
    /// The planes of `window` where `f(x, y)` is `Some(black)` for a fabric cell and `None`
    /// for any other.
    pub(crate) fn from_fn(window: Window, f: impl Fn(u32, u32) -> Option<bool>) -> Self {
        let mut p = Planes::new(window);
        for y in window.y0()..window.y1() {
            for x in window.x0()..window.x1() {
                if let Some(black) = f(x, y) {
                    p.set(x, y, black);
                }
            }
        }
        p
    }

    /// The window.
    pub fn window(&self) -> Window {
        self.window
    }

    /// Marks `(x, y)` (inside the window) a fabric cell, and black where `black` holds.
    pub fn set(&mut self, x: u32, y: u32, black: bool) {
        let w = self.window;
        assert!(x >= w.x0() && x < w.x1() && y >= w.y0() && y < w.y1(), "cell ({x}, {y}) outside {w}");
        let (cx, cy) = ((x - self.x0) as usize, (y - self.y0) as usize);
        let b = self.blocks[cy / BLOCK * self.bw + cx / BLOCK]
            .get_or_insert_with(|| Box::new(Block { mask: [0; BLOCK], black: [0; BLOCK] }));
        let bit = 1u64 << (cx % BLOCK);
        b.mask[cy % BLOCK] |= bit;
        if black {
            b.black[cy % BLOCK] |= bit;
        }
    }

    /// Adds `other`'s cells (the same window).
    pub fn merge(&mut self, other: Planes) {
        assert_eq!(self.window, other.window, "planes of different windows");
        for (mine, theirs) in self.blocks.iter_mut().zip(other.blocks) {
            let Some(t) = theirs else { continue };
            match mine {
                None => *mine = Some(t),
                Some(m) => {
                    for r in 0..BLOCK {
                        m.mask[r] |= t.mask[r];
                        m.black[r] |= t.black[r];
                    }
                }
            }
        }
    }

    /// Fabric cells.
    pub fn fabric_cells(&self) -> u64 {
        self.blocks
            .iter()
            .flatten()
            .map(|b| b.mask.iter().map(|w| u64::from(w.count_ones())).sum::<u64>())
            .sum()
    }

    /// Black cells.
    pub fn black_cells(&self) -> u64 {
        self.blocks
            .iter()
            .flatten()
            .map(|b| b.black.iter().map(|w| u64::from(w.count_ones())).sum::<u64>())
            .sum()
    }

    /// Whether `(x, y)` is a fabric cell, and black.
    pub fn get(&self, x: i64, y: i64) -> (bool, bool) {
        let (m, b) = (self.word_at(Plane::Mask, y, x), self.word_at(Plane::Black, y, x));
        (m & 1 == 1, b & 1 == 1)
    }

    /// Row `y`'s word `i` (columns `x0 + 64 i ..`, relative to block (0, 0)), 0 outside.
    fn word(&self, plane: Plane, y: i64, i: i64) -> u64 {
        let yy = y - i64::from(self.y0);
        if yy < 0 || i < 0 || yy >= (self.bh * BLOCK) as i64 || i >= self.bw as i64 {
            return 0;
        }
        let (yy, i) = (yy as usize, i as usize);
        match &self.blocks[yy / BLOCK * self.bw + i] {
            None => 0,
            Some(b) => match plane {
                Plane::Mask => b.mask[yy % BLOCK],
                Plane::Black => b.black[yy % BLOCK],
            },
        }
    }

    /// Row `y`'s 64 cells from column `x` (board coordinates), 0 outside.
    fn word_at(&self, plane: Plane, y: i64, x: i64) -> u64 {
        let x = x - i64::from(self.x0);
        let (i, s) = (x.div_euclid(64), x.rem_euclid(64) as u32);
        if s == 0 {
            self.word(plane, y, i)
        } else {
            self.word(plane, y, i) >> s | self.word(plane, y, i + 1) << (64 - s)
        }
    }

    /// The same cells in the smallest window of whole blocks that holds them all (the window
    /// itself where it holds none): the map then covers the fabric's bounding box only.
    pub(crate) fn trimmed(self) -> Planes {
        let used = |b: usize| self.blocks[b].is_some();
        let rows: Vec<usize> =
            (0..self.bh).filter(|&j| (0..self.bw).any(|i| used(j * self.bw + i))).collect();
        let cols: Vec<usize> =
            (0..self.bw).filter(|&i| (0..self.bh).any(|j| used(j * self.bw + i))).collect();
        let (Some(&j0), Some(&j1), Some(&i0), Some(&i1)) =
            (rows.first(), rows.last(), cols.first(), cols.last())
        else {
            return self;
        };
        let b = BLOCK as u32;
        let (x0, y0) = (self.x0 + i0 as u32 * b, self.y0 + j0 as u32 * b);
        let window = Window::new(
            x0.max(self.window.x0()),
            y0.max(self.window.y0()),
            (self.x0 + (i1 as u32 + 1) * b).min(self.window.x1()),
            (self.y0 + (j1 as u32 + 1) * b).min(self.window.y1()),
        )
        .expect("the blocks used lie in the window");
        let (bw, bh) = (i1 - i0 + 1, j1 - j0 + 1);
        let mut blocks = self.blocks;
        let mut out = Vec::with_capacity(bw * bh);
        for j in j0..=j1 {
            for i in i0..=i1 {
                out.push(blocks[j * self.bw + i].take());
            }
        }
        Planes { window, x0, y0, bw, bh, blocks: out }
    }

    /// The map's geometry: map cells of [`CELL`] x [`CELL`] from the blocks' corner.
    pub(crate) fn map_geometry(&self) -> MapGeometry {
        MapGeometry { x0: self.x0, y0: self.y0, mw: self.bw * LANES, mh: self.bh * LANES }
    }
}

/// Where the map's cells lie on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapGeometry {
    /// The board column of map column 0's first cell.
    pub x0: u32,
    /// The board row of map row 0's first cell.
    pub y0: u32,
    /// Map columns.
    pub mw: usize,
    /// Map rows.
    pub mh: usize,
}

impl MapGeometry {
    /// The board coordinates `(x, y)` of map cell `(i, j)`'s centre (the corner its four
    /// middle cells share).
    pub fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        let c = CELL as f64;
        (f64::from(self.x0) + c * i as f64 + c / 2.0, f64::from(self.y0) + c * j as f64 + c / 2.0)
    }
}

/// The four pair counts of one shift: pairs of fabric cells `n`, black then fabric `n1`, fabric
/// then black `n2`, black at both `n11`.
pub type Counts = [u32; 4];

/// The four pair counts of every map cell of map row `j` for every shift: index
/// `(i * shifts.len() + s)`.
fn row_counts(p: &Planes, j: usize, shifts: &[(i64, i64)]) -> Vec<Counts> {
    let g = p.map_geometry();
    let ns = shifts.len();
    let mut out = vec![[0u32; 4]; g.mw * ns];
    let y_first = i64::from(g.y0) + (j * CELL) as i64;
    for y in y_first..y_first + CELL as i64 {
        for wi in 0..p.bw {
            let a = p.word(Plane::Mask, y, wi as i64);
            if a == 0 {
                continue;
            }
            let b = p.word(Plane::Black, y, wi as i64);
            let x = i64::from(g.x0) + 64 * wi as i64;
            for (s, &(dx, dy)) in shifts.iter().enumerate() {
                let a2 = p.word_at(Plane::Mask, y + dy, x + dx);
                let b2 = p.word_at(Plane::Black, y + dy, x + dx);
                let words = [a & a2, b & a2, a & b2, b & b2];
                for lane in 0..LANES {
                    let c = &mut out[(wi * LANES + lane) * ns + s];
                    for (q, w) in words.iter().enumerate() {
                        c[q] += (w >> (CELL * lane) & 0xffff).count_ones();
                    }
                }
            }
        }
    }
    out
}

/// The pair counts at each of `shifts` (`|dx| <= 56`, `0 <= dy`) summed over the given map
/// cells (each map cell's own cells are the pairs' first cells): the autocorrelation of a
/// texture pooled over its map cells.
pub(crate) fn pooled_counts(p: &Planes, cells: &[(usize, usize)], shifts: &[(i64, i64)]) -> Vec<[u64; 4]> {
    // Each map cell's rows and those below it within reach, 128 cells from `x - 56` as one
    // u128 per row and plane, so that a shifted row is one shift of it.
    const LEFT: i64 = 56;
    assert!(shifts.iter().all(|&(dx, dy)| dx.abs() <= LEFT && dy >= 0), "shifts within reach");
    let g = p.map_geometry();
    let reach = shifts.iter().map(|s| s.1).max().unwrap_or(0) as usize;
    let wide = |plane: Plane, y: i64, x: i64| {
        u128::from(p.word_at(plane, y, x)) | u128::from(p.word_at(plane, y, x + 64)) << 64
    };
    cells
        .par_iter()
        .fold(
            || vec![[0u64; 4]; shifts.len()],
            |mut acc, &(i, j)| {
                let x = i64::from(g.x0) + (i * CELL) as i64;
                let y0 = i64::from(g.y0) + (j * CELL) as i64;
                let rows = CELL + reach;
                let mask: Vec<u128> = (0..rows).map(|r| wide(Plane::Mask, y0 + r as i64, x - LEFT)).collect();
                let black: Vec<u128> =
                    (0..rows).map(|r| wide(Plane::Black, y0 + r as i64, x - LEFT)).collect();
                let lane = |w: u128, dx: i64| (w >> (LEFT + dx)) as u64 & 0xffff;
                for r in 0..CELL {
                    let (a, b) = (lane(mask[r], 0), lane(black[r], 0));
                    if a == 0 {
                        continue;
                    }
                    for (c, &(dx, dy)) in acc.iter_mut().zip(shifts) {
                        let (a2, b2) = (lane(mask[r + dy as usize], dx), lane(black[r + dy as usize], dx));
                        c[0] += u64::from((a & a2).count_ones());
                        c[1] += u64::from((b & a2).count_ones());
                        c[2] += u64::from((a & b2).count_ones());
                        c[3] += u64::from((b & b2).count_ones());
                    }
                }
                acc
            },
        )
        .reduce(
            || vec![[0u64; 4]; shifts.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    for q in 0..4 {
                        x[q] += y[q];
                    }
                }
                a
            },
        )
}

/// The autocorrelation of the black cells at `shifts` in every map cell's window
/// (`w x w` map cells centred on it, `w` odd), and the fabric cells of each map cell: a
/// [`TextureMap`]. A window with fewer fabric pairs at a shift than a quarter of a full
/// window's cells gets `NaN` there (a few pairs would correlate by chance).
pub fn correlations(p: &Planes, shifts: &[(i64, i64)], w: usize) -> TextureMap {
    collect(p, shifts, w, row_counts)
}

#[cfg(test)]
/// [`correlations`] with the pairs counted cell by cell ([`Planes::get`]): the reference the
/// bitwise counts are tested against.
pub(crate) fn correlations_reference(p: &Planes, shifts: &[(i64, i64)], w: usize) -> TextureMap {
    collect(p, shifts, w, row_counts_reference)
}

#[cfg(test)]
/// [`row_counts`] by a plain loop over the cells.
fn row_counts_reference(p: &Planes, j: usize, shifts: &[(i64, i64)]) -> Vec<Counts> {
    let g = p.map_geometry();
    let ns = shifts.len();
    let mut out = vec![[0u32; 4]; g.mw * ns];
    for i in 0..g.mw {
        for cy in 0..CELL {
            for cx in 0..CELL {
                let x = i64::from(g.x0) + (i * CELL + cx) as i64;
                let y = i64::from(g.y0) + (j * CELL + cy) as i64;
                let (m, b) = p.get(x, y);
                for (s, &(dx, dy)) in shifts.iter().enumerate() {
                    let (m2, b2) = p.get(x + dx, y + dy);
                    let c = &mut out[i * ns + s];
                    c[0] += u32::from(m && m2);
                    c[1] += u32::from(b && m2);
                    c[2] += u32::from(m && b2);
                    c[3] += u32::from(b && b2);
                }
            }
        }
    }
    out
}

/// The correlations of every map cell at a few shifts.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureMap {
    /// Where the map lies.
    pub geometry: MapGeometry,
    /// The shifts.
    pub shifts: Vec<(i64, i64)>,
    /// `r` of map cell `(i, j)` at shift `s`: index `(j * mw + i) * shifts + s`; `NaN` where
    /// the window has too few pairs.
    pub r: Vec<f32>,
    /// Fabric cells in map cell `(i, j)` itself: index `j * mw + i`.
    pub fabric: Vec<u16>,
}

impl TextureMap {
    /// `r` of map cell `(i, j)` at shift number `s`.
    pub fn at(&self, i: usize, j: usize, s: usize) -> f32 {
        self.r[(j * self.geometry.mw + i) * self.shifts.len() + s]
    }
}

fn collect(
    p: &Planes,
    shifts: &[(i64, i64)],
    w: usize,
    count: impl Fn(&Planes, usize, &[(i64, i64)]) -> Vec<Counts> + Sync,
) -> TextureMap {
    let g = p.map_geometry();
    let mut m = TextureMap { geometry: g, shifts: shifts.to_vec(), r: Vec::new(), fabric: Vec::new() };
    rows_by(p, shifts, w, count, &Cancel::new(), |_, r, f| {
        m.r.extend_from_slice(r);
        m.fabric.extend_from_slice(f);
    })
    .expect("a fresh token is never cancelled");
    m
}

/// Map rows computed at once: their counts and those of the `w / 2` rows either side are held.
const CHUNK: usize = 64;

/// The correlations of [`correlations`], handed to `sink` map row by map row in order (`j`,
/// `r` of the row's map cells at each shift, the row's fabric cells per map cell), so that the
/// whole map need not be held. Stops with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled
/// (polled every 64 map rows).
pub fn rows(
    p: &Planes,
    shifts: &[(i64, i64)],
    w: usize,
    cancel: &Cancel,
    sink: impl FnMut(usize, &[f32], &[u16]),
) -> Result<()> {
    rows_by(p, shifts, w, row_counts, cancel, sink)
}

fn rows_by(
    p: &Planes,
    shifts: &[(i64, i64)],
    w: usize,
    count: impl Fn(&Planes, usize, &[(i64, i64)]) -> Vec<Counts> + Sync,
    cancel: &Cancel,
    mut sink: impl FnMut(usize, &[f32], &[u16]),
) -> Result<()> {
    assert!(w % 2 == 1, "the window's side in map cells is odd");
    let g = p.map_geometry();
    let (ns, h) = (shifts.len(), w / 2);
    let min_pairs = (w * w * CELL * CELL).div_ceil(4) as u64;
    for c0 in (0..g.mh).step_by(CHUNK) {
        cancel.check()?;
        let c1 = (c0 + CHUNK).min(g.mh);
        let (a0, a1) = (c0.saturating_sub(h), (c1 + h).min(g.mh));
        let counts: Vec<Vec<Counts>> = (a0..a1).into_par_iter().map(|j| count(p, j, shifts)).collect();
        let out: Vec<(Vec<f32>, Vec<u16>)> = (c0..c1)
            .into_par_iter()
            .map(|j| {
                // Sums over the window's rows, column by column, then over its columns.
                let (r0, r1) = (j.saturating_sub(h), (j + h + 1).min(g.mh));
                let mut col = vec![[0u64; 4]; g.mw * ns];
                for row in &counts[r0 - a0..r1 - a0] {
                    for (c, q) in col.iter_mut().zip(row) {
                        for t in 0..4 {
                            c[t] += u64::from(q[t]);
                        }
                    }
                }
                let mut r = vec![f32::NAN; g.mw * ns];
                for i in 0..g.mw {
                    let (i0, i1) = (i.saturating_sub(h), (i + h + 1).min(g.mw));
                    for s in 0..ns {
                        let mut t = [0u64; 4];
                        for c in (i0..i1).map(|ii| col[ii * ns + s]) {
                            for q in 0..4 {
                                t[q] += c[q];
                            }
                        }
                        if t[0] >= min_pairs {
                            r[i * ns + s] = pearson(t[0], t[1], t[2], t[3]) as f32;
                        }
                    }
                }
                let y = i64::from(g.y0) + (j * CELL) as i64;
                let fabric = (0..g.mw)
                    .map(|i| {
                        (y..y + CELL as i64)
                            .map(|yy| {
                                let word = p.word(Plane::Mask, yy, (i / LANES) as i64);
                                (word >> (CELL * (i % LANES)) & 0xffff).count_ones()
                            })
                            .sum::<u32>() as u16
                    })
                    .collect();
                (r, fabric)
            })
            .collect();
        for (k, (r, fabric)) in out.iter().enumerate() {
            sink(c0 + k, r, fabric);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::splitmix64 as splitmix;

    /// Random black cells in a wedge-shaped mask, as the fabric's above the diagonal.
    fn random_planes(window: Window, seed: u64) -> Planes {
        let mut s = seed;
        let cells: Vec<(u32, u32, u64)> = (window.y0()..window.y1())
            .flat_map(|y| (window.x0()..window.x1()).map(move |x| (x, y)))
            .map(|(x, y)| (x, y, splitmix(&mut s) % 100))
            .collect();
        let mut p = Planes::new(window);
        for (x, y, r) in cells {
            if 3 * x > 2 * y + 40 && r >= 10 {
                p.set(x, y, r < 55);
            }
        }
        p
    }

    /// The bitwise counts (16 cells of a row per `AND` and `popcount`, words across block
    /// edges) give exactly the reference's correlations, on a window not aligned to the blocks,
    /// at shifts of every sign and across several blocks.
    #[test]
    fn bitwise_correlations_equal_the_reference() {
        let p = random_planes(Window::new(37, 21, 230, 190).unwrap(), 5);
        let shifts = [(13, 9), (-9, 13), (31, -13), (0, 1), (1, 0), (-70, 66), (64, 0), (5, -64)];
        for w in [1, 3, 5] {
            let fast = correlations(&p, &shifts, w);
            let slow = correlations_reference(&p, &shifts, w);
            assert_eq!(fast.fabric, slow.fabric);
            let bits = |m: &TextureMap| m.r.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "w = {w}");
            assert!(fast.r.iter().any(|v| v.is_finite()) && fast.r.iter().any(|v| v.is_nan()));
        }
        // The map cells' fabric cells add up to the planes'.
        let m = correlations(&p, &[(1, 1)], 3);
        assert_eq!(m.fabric.iter().map(|&f| u64::from(f)).sum::<u64>(), p.fabric_cells());
    }

    /// Pooled counts equal the plain loop over the map cells' cells.
    #[test]
    fn pooled_counts_equal_a_plain_count() {
        let p = random_planes(Window::new(10, 0, 200, 150).unwrap(), 9);
        let g = p.map_geometry();
        let cells: Vec<(usize, usize)> =
            (0..g.mh).flat_map(|j| (0..g.mw).map(move |i| (i, j))).step_by(3).collect();
        let shifts = [(0, 0), (13, 9), (-40, 3), (56, 40), (-56, 0), (7, 33)];
        let fast = pooled_counts(&p, &cells, &shifts);
        for (s, &(dx, dy)) in shifts.iter().enumerate() {
            let mut want = [0u64; 4];
            for &(i, j) in &cells {
                for cy in 0..CELL {
                    for cx in 0..CELL {
                        let x = i64::from(g.x0) + (i * CELL + cx) as i64;
                        let y = i64::from(g.y0) + (j * CELL + cy) as i64;
                        let ((m, b), (m2, b2)) = (p.get(x, y), p.get(x + dx, y + dy));
                        for (q, hit) in [m && m2, b && m2, m && b2, b && b2].into_iter().enumerate() {
                            want[q] += u64::from(hit);
                        }
                    }
                }
            }
            assert_eq!(fast[s], want, "shift ({dx}, {dy})");
        }
        let pooled: u64 = cells
            .iter()
            .map(|&(i, j)| {
                let (x, y) = (i64::from(g.x0) + (i * CELL) as i64, i64::from(g.y0) + (j * CELL) as i64);
                (0..CELL as i64)
                    .flat_map(|c| (0..CELL as i64).map(move |r| (c, r)))
                    .filter(|&(c, r)| p.get(x + c, y + r).0)
                    .count() as u64
            })
            .sum();
        assert_eq!(fast[0][0], pooled, "the zero shift pairs every fabric cell with itself");
    }

    #[test]
    fn merging_and_trimming_keep_the_cells() {
        let w = Window::new(100, 50, 600, 400).unwrap();
        let a = Planes::from_fn(w, |x, y| (x > 300 && y < 200).then_some((x + y) % 3 == 0));
        let b = Planes::from_fn(w, |x, y| (x > 310 && x < 330 && y > 150 && y < 260).then_some(x % 2 == 0));
        let mut m = a.clone();
        m.merge(b.clone());
        let t = m.clone().trimmed();
        for y in 40..410 {
            for x in 90..610 {
                let want = (a.get(x, y).0 || b.get(x, y).0, a.get(x, y).1 || b.get(x, y).1);
                assert_eq!(m.get(x, y), want, "({x}, {y})");
                assert_eq!(t.get(x, y), want, "({x}, {y}) trimmed");
            }
        }
        // The blocks holding cells (blocks from (64, 0)): columns 256..640 for x 301..599, rows
        // 0..320 for y 50..259, within the window.
        assert_eq!(t.window(), Window::new(256, 50, 600, 320).unwrap());
        assert_eq!(t.fabric_cells(), m.fabric_cells());
        assert_eq!(Planes::new(w).trimmed().window(), w);
    }
}
