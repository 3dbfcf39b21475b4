//! One tile of the sweep: how it is stored, how its halo is gathered from its neighbours, and
//! how it is classified and computed.
//!
//! Classification (`docs/rule.md`, "Regions with a closed form"):
//! * a tile entirely inside the hood is **filled** by the closed form (nothing stored);
//! * a tile whose halo is entirely 0 and which touches neither the hood nor the initial
//!   condition produces only 0 (outer space): it is **filled** with zeros (nothing stored);
//! * a tile whose halo touches the hood or the initial condition goes to the exact **wide**
//!   kernel, which reads hood cells through the closed form;
//! * every other tile goes to the fastest **narrow** kernel, whose 8-bit arithmetic is exact
//!   while all values stay within [`NARROW_LIMIT`]; if a value leaves that range the tile is
//!   recomputed by the wide kernel.

use super::layout::{Layout, Rect};
use crate::error::{Error, Result};
use crate::kernel::wide::{casing_tile, wide_tile};
use crate::kernel::{Arrangement, BufPool, NARROW_LIMIT, NarrowFn, TileBuf};
use crate::model::rule::{hood_len, hood_sentinel, hood_value, in_hood, initial};
use std::sync::Arc;

/// A finished tile.
pub(crate) enum Tile {
    /// Every cell is 0 (outer space).
    Zero,
    /// Every cell lies in the hood; values by the closed form.
    Hood,
    /// Computed cells (hood cells, if any, hold [`hood_sentinel`]).
    Cells(TileBuf),
    /// Only what the neighbours read of computed cells: the last two rows (`bottom`, row by
    /// row) and the last two columns (`right`, two per row). When the sweep's output is a
    /// visitor, a computed tile is visited while its cells are at hand and published as this,
    /// so that its buffer goes back to the pool while it is still in cache. In counter
    /// sweeps (`super::counted`) every tile is published as this, with the counters leaving it.
    Edges { bottom: Box<[i8]>, right: Box<[i8]>, leaving: Option<Box<crate::kernel::counter::Edges>> },
    /// The sweep was aborted before this tile was computed.
    Aborted,
}

/// The first row and the first column an [`Tile::Edges`] of a `w` x `h` tile keeps.
fn edge_starts(w: usize, h: usize) -> (usize, usize) {
    (h.saturating_sub(2), w.saturating_sub(2))
}

impl Tile {
    /// The edges of computed cells (see [`Tile::Edges`]).
    pub(crate) fn edges(cells: &TileBuf) -> Tile {
        let (w, h) = (cells.width(), cells.height());
        let (r0, c0) = edge_starts(w, h);
        let bottom = cells.bottom_rows();
        debug_assert_eq!(bottom.len(), (h - r0) * w);
        let n = w - c0;
        let mut right = vec![0i8; h * n];
        for (r, out) in right.chunks_exact_mut(n).enumerate() {
            for (o, c) in out.iter_mut().zip(c0..w) {
                *o = cells.at(r, c);
            }
        }
        Tile::Edges { bottom: bottom.into_boxed_slice(), right: right.into_boxed_slice(), leaving: None }
    }

    /// The stored 8-bit value of `(x, y)`, which lies in this tile of rectangle `rect`.
    #[inline]
    pub(super) fn stored(&self, k: u32, rect: &Rect, x: u32, y: u32) -> i8 {
        match self {
            Tile::Zero => 0,
            Tile::Hood => hood_sentinel(k, u64::from(x), u64::from(y)),
            Tile::Cells(c) => c.at((y - rect.y0) as usize, (x - rect.x0) as usize),
            Tile::Edges { bottom, right, .. } => {
                let (w, h) = (rect.w(), rect.h());
                let (r, c) = ((y - rect.y0) as usize, (x - rect.x0) as usize);
                let (r0, c0) = edge_starts(w, h);
                if r >= r0 {
                    bottom[(r - r0) * w + c]
                } else {
                    assert!(c >= c0, "cell ({x}, {y}) is not on a kept edge of its tile");
                    right[r * (w - c0) + c - c0]
                }
            }
            Tile::Aborted => unreachable!("an aborted tile is never read"),
        }
    }

    /// Copies the stored values of the tile's last two columns in rows `ya..yb`, interleaved
    /// (`out[2 i]` the second-to-last column, `out[2 i + 1]` the last of row `ya + i`).
    fn copy_last_two_columns(&self, k: u32, rect: &Rect, ya: u32, yb: u32, out: &mut [i8]) {
        debug_assert_eq!(out.len(), 2 * (yb - ya) as usize);
        let w = rect.w();
        match self {
            Tile::Edges { right, .. } if w >= 2 => {
                let r = (ya - rect.y0) as usize;
                out.copy_from_slice(&right[2 * r..2 * (r + (yb - ya) as usize)]);
            }
            _ => {
                for (o, y) in out.chunks_exact_mut(2).zip(ya..yb) {
                    o[0] = self.stored(k, rect, rect.x1 - 2, y);
                    o[1] = self.stored(k, rect, rect.x1 - 1, y);
                }
            }
        }
    }

    /// Row `y`, columns `xa..xb`, where the tile holds them as one run: computed rows in the
    /// rows arrangement, and the kept bottom rows of [`Tile::Edges`].
    fn lend_row(&self, rect: &Rect, y: u32, xa: u32, xb: u32) -> Option<&[i8]> {
        let (r, ca, cb) = ((y - rect.y0) as usize, (xa - rect.x0) as usize, (xb - rect.x0) as usize);
        match self {
            Tile::Cells(c) => c.row_slice(r, ca, cb),
            Tile::Edges { bottom, .. } => {
                let w = rect.w();
                let r0 = edge_starts(w, rect.h()).0;
                (r >= r0).then(|| &bottom[(r - r0) * w + ca..(r - r0) * w + cb])
            }
            _ => None,
        }
    }

    /// Row `y`, columns `xa..xb`, as stored: borrowed where the tile holds them as one run
    /// ([`Tile::lend_row`]; `zeros`, at least `xb - xa` zeros, for outer space), else copied
    /// into `scratch` (`xb - xa` long).
    pub(crate) fn row_ref<'a>(
        &'a self,
        k: u32,
        rect: &Rect,
        y: u32,
        cols: std::ops::Range<u32>,
        zeros: &'a [i8],
        scratch: &'a mut [i8],
    ) -> &'a [i8] {
        let (xa, xb) = (cols.start, cols.end);
        if matches!(self, Tile::Zero) {
            return &zeros[..(xb - xa) as usize];
        }
        if let Some(cells) = self.lend_row(rect, y, xa, xb) {
            return cells;
        }
        self.copy_row(k, rect, y, xa, xb, scratch);
        scratch
    }

    /// Copies the stored values of row `y`, columns `xa..xb` (all inside this tile) to `out`.
    pub fn copy_row(&self, k: u32, rect: &Rect, y: u32, xa: u32, xb: u32, out: &mut [i8]) {
        debug_assert_eq!(out.len(), (xb - xa) as usize);
        if let Some(cells) = self.lend_row(rect, y, xa, xb) {
            out.copy_from_slice(cells);
            return;
        }
        match self {
            Tile::Zero => out.fill(0),
            Tile::Cells(c) => {
                c.copy_row((y - rect.y0) as usize, (xa - rect.x0) as usize, (xb - rect.x0) as usize, out)
            }
            // Rows above the kept bottom ones: only their last two columns are kept.
            Tile::Edges { .. } => {
                for (o, x) in out.iter_mut().zip(xa..xb) {
                    *o = self.stored(k, rect, x, y);
                }
            }
            Tile::Hood => {
                for (o, x) in out.iter_mut().zip(xa..xb) {
                    *o = hood_sentinel(k, u64::from(x), u64::from(y));
                }
            }
            Tile::Aborted => unreachable!("an aborted tile is never read"),
        }
    }
}

/// How a tile's cells were produced, for the sweep's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Made {
    pub hood: u64,
    pub zero: u64,
    pub narrow: u64,
    pub wide: u64,
    pub counter: u64,
}

impl Made {
    /// Adds the counts of `o`.
    pub(crate) fn add(&mut self, o: Made) {
        self.hood += o.hood;
        self.zero += o.zero;
        self.narrow += o.narrow;
        self.wide += o.wide;
        self.counter += o.counter;
    }
}

/// A tile and the already finished neighbours its halo comes from.
pub(crate) struct Neighbourhood<'a> {
    pub layout: &'a Layout,
    pub j: usize,
    pub b: usize,
    pub above_left: Option<&'a Tile>,
    pub above: Option<&'a Tile>,
    pub left: Option<&'a Tile>,
}

impl Neighbourhood<'_> {
    pub(super) fn rect(&self) -> Rect {
        self.layout.rect(self.j, self.b)
    }

    /// Stored 8-bit value of a halo cell inside the quadrant.
    fn stored(&self, x: u32, y: u32) -> i8 {
        let r = self.rect();
        let k = self.layout.k;
        if y < r.y0 {
            if x < r.x0 {
                let t = self.above_left.expect("above-left neighbour");
                t.stored(k, &self.layout.rect(self.j - 1, self.b - 1), x, y)
            } else {
                let t = self.above.expect("above neighbour");
                t.stored(k, &self.layout.rect(self.j, self.b - 1), x, y)
            }
        } else {
            let t = self.left.expect("left neighbour");
            t.stored(k, &self.layout.rect(self.j - 1, self.b), x, y)
        }
    }

    /// The 8-bit halo: two rows above over `x0 - 2 .. x1`, then two cells left of each row.
    /// Cells outside the quadrant are 0 (the narrow kernels never see the `k` corner).
    pub(super) fn halo8(&self, top: &mut Vec<i8>, left: &mut Vec<i8>) {
        let r = self.rect();
        let k = self.layout.k;
        let (w, h) = (r.w(), r.h());
        top.clear();
        top.resize(2 * (w + 2), 0);
        left.clear();
        left.resize(2 * h, 0);
        if r.y0 >= 2 {
            for row in 0..2 {
                let y = r.y0 - 2 + row as u32;
                let out = &mut top[row * (w + 2)..(row + 1) * (w + 2)];
                if r.x0 >= 2 {
                    let al = self.above_left.expect("above-left neighbour");
                    let rl = self.layout.rect(self.j - 1, self.b - 1);
                    al.copy_row(k, &rl, y, r.x0 - 2, r.x0, &mut out[..2]);
                }
                let ab = self.above.expect("above neighbour");
                let ra = self.layout.rect(self.j, self.b - 1);
                ab.copy_row(k, &ra, y, r.x0, r.x1, &mut out[2..]);
            }
        }
        if r.x0 >= 2 {
            let t = self.left.expect("left neighbour");
            let rl = self.layout.rect(self.j - 1, self.b);
            t.copy_last_two_columns(k, &rl, r.y0, r.y1, left);
        }
    }

    /// The exact halo of `r` (the tile or its left part) for the wide kernel: initial
    /// condition outside the quadrant, closed form in the hood, stored values elsewhere.
    pub(super) fn halo_exact(&self, r: &Rect, top: &mut Vec<i64>, left: &mut Vec<i64>) {
        let k = self.layout.k;
        let (w, h) = (r.w(), r.h());
        let exact = |x: i64, y: i64| -> i64 {
            if x < 0 || y < 0 {
                initial(k, x, y)
            } else if in_hood(k, x as u64, y as u64) {
                hood_value(k, x as u64, y as u64)
            } else {
                i64::from(self.stored(x as u32, y as u32))
            }
        };
        top.clear();
        for row in 0..2i64 {
            let y = i64::from(r.y0) - 2 + row;
            for i in 0..(w + 2) as i64 {
                top.push(exact(i64::from(r.x0) - 2 + i, y));
            }
        }
        left.clear();
        for row in 0..h as i64 {
            let y = i64::from(r.y0) + row;
            left.push(exact(i64::from(r.x0) - 2, y));
            left.push(exact(i64::from(r.x0) - 1, y));
        }
    }
}

/// The wide path with the hood from the closed form, for `r`: the tile's rectangle or its left
/// part (same top-left corner).
fn wide_rect(
    nb: &Neighbourhood<'_>,
    r: &Rect,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
) -> Result<TileBuf> {
    let k = nb.layout.k;
    let Scratch { top, left, .. } = scratch;
    nb.halo_exact(r, top, left);
    let mut cells = TileBuf::pooled(pool, r.w(), r.h(), Arrangement::Rows);
    exact_cells(k, u64::from(r.x0), u64::from(r.y0), top, left, &mut cells)?;
    Ok(cells)
}

/// [`casing_tile`] for the rectangle whose top-left cell is `(x0, y0)`, a value outside the
/// hood that does not fit 8 bits reported as [`Error::ValueRange`] at its board cell.
pub(super) fn exact_cells(
    k: u32,
    x0: u64,
    y0: u64,
    top: &[i64],
    left: &[i64],
    out: &mut TileBuf,
) -> Result<()> {
    casing_tile(k, x0, y0, top, left, out).map_err(|(i, row, value)| Error::ValueRange {
        x: x0 + i as u64,
        y: y0 + row as u64,
        value,
    })
}

/// Scratch buffers a worker reuses from tile to tile.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(super) top8: Vec<i8>,
    pub(super) left8: Vec<i8>,
    top: Vec<i64>,
    left: Vec<i64>,
    out: Vec<i64>,
}

/// Computes one tile. `narrow` is the narrow kernel to try (or none), and `arrangement` how
/// it should store the tile; `skip` enables the closed-form and quiet-region fills.
pub(crate) fn compute_tile(
    nb: &Neighbourhood<'_>,
    narrow: Option<NarrowFn>,
    arrangement: Arrangement,
    skip: bool,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
) -> Result<(Tile, Made)> {
    let r = nb.rect();
    let k = nb.layout.k;
    let all = r.cells();
    if skip && in_hood(k, u64::from(r.x1 - 1), u64::from(r.y1 - 1)) {
        return Ok((Tile::Hood, Made { hood: all, ..Made::default() }));
    }
    // The hood is closed under moving left or up, so the halo and tile avoid it exactly when
    // the halo's top-left cell (clamped into the quadrant) is outside it.
    let touches_corner = r.x0 < 2 && r.y0 < 2;
    let touches_hood = in_hood(k, u64::from(r.x0.saturating_sub(2)), u64::from(r.y0.saturating_sub(2)));
    if !touches_corner {
        let Scratch { top8, left8, .. } = scratch;
        nb.halo8(top8, left8);
        if !touches_hood {
            // OR of every byte rather than `all(== 0)`: no early exit, so it vectorises.
            if skip && top8.iter().chain(left8.iter()).fold(0, |acc, &v| acc | v) == 0 {
                return Ok((Tile::Zero, Made { zero: all, ..Made::default() }));
            }
            if let Some(kernel) = narrow
                && in_range(top8)
                && in_range(left8)
            {
                let mut cells = TileBuf::pooled(pool, r.w(), r.h(), arrangement);
                if kernel(top8, left8, r.w(), r.h(), &mut cells) {
                    return Ok((Tile::Cells(cells), Made { narrow: all, ..Made::default() }));
                }
            }
        } else if skip
            && let Some(kernel) = narrow
            && let Some(done) = split_casing(nb, &r, kernel, pool, scratch)?
        {
            return Ok(done);
        }
    }
    Ok((Tile::Cells(wide(nb, &r, skip, pool, scratch)?), Made { wide: all, ..Made::default() }))
}

fn in_range(halo: &[i8]) -> bool {
    within(halo, -NARROW_LIMIT, NARROW_LIMIT)
}

/// Whether every value lies in `lo..=hi`. Without an early exit, so that it vectorises: one
/// unsigned compare of `v - lo`.
pub(super) fn within(values: &[i8], lo: i8, hi: i8) -> bool {
    let span = hi.wrapping_sub(lo) as u8;
    values.iter().fold(true, |ok, &v| ok & (v.wrapping_sub(lo) as u8 <= span))
}

/// Rows per block of a tile along the casing ([`split_casing`], and the counter sweeps'
/// casing tiles): each block splits at its own widest hood row.
pub(super) const CASING_BLOCK: usize = 64;

/// A tile along the casing, in blocks of [`CASING_BLOCK`] rows, each split in two: the columns
/// left of its `c` (the hood, by the closed form, and the few cells between it and the split)
/// by the wide path, the rest by the narrow kernel. `c` lies two columns right of the widest
/// hood row among the block's rows and the two above them, so the narrow part's halo is free
/// of the hood (the rule's neighbourhood, `docs/rule.md`, reaches two cells); a block where the
/// narrow part would be under 64 columns is wide throughout. Returns `None` when no block
/// splits or a narrow part leaves its range.
fn split_casing(
    nb: &Neighbourhood<'_>,
    r: &Rect,
    kernel: NarrowFn,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
) -> Result<Option<(Tile, Made)>> {
    let k = nb.layout.k;
    let (w, h) = (r.w(), r.h());
    let (x0, y0) = (u64::from(r.x0), u64::from(r.y0));
    let split_at = |y: u64| ((hood_len(k, y.saturating_sub(2)) + 2).saturating_sub(x0) as usize).max(2);
    // The hood is closed under moving up: the tile's last block has its narrowest split.
    let last = y0 + (h - 1) as u64 / CASING_BLOCK as u64 * CASING_BLOCK as u64;
    if split_at(last) + 64 > w {
        return Ok(None);
    }
    let Scratch { top, left, top8, left8, .. } = scratch;
    nb.halo_exact(r, top, left);
    // The exact values of the two rows above the current block (the layout of a `top` halo).
    let mut above = top.clone();
    let mut cells = TileBuf::pooled(pool, w, h, Arrangement::Rows);
    let mut narrow = 0u64;
    let mut a = 0;
    while a < h {
        let b = (a + CASING_BLOCK).min(h);
        let (ya, rb) = (y0 + a as u64, b - a);
        let c = split_at(ya);
        let c = if c + 64 > w { w } else { c };
        let ltop = halo_columns(&above, 0, c);
        let mut wide_part = TileBuf::pooled(pool, c, rb, Arrangement::Rows);
        exact_cells(k, x0, ya, &ltop, &left[2 * a..2 * b], &mut wide_part)?;
        for row in 0..rb {
            cells.row_mut(a + row)[..c].copy_from_slice(wide_part.row(row));
        }
        if c < w {
            // The narrow part's halo: the rows above from column x0 + c - 2 on, and the wide
            // part's last two columns.
            let n = w - c;
            top8.clear();
            for q in 0..2 {
                let src = &above[q * (w + 2) + c..(q + 1) * (w + 2)];
                top8.extend(src.iter().map(|&v| v.clamp(i64::from(i8::MIN), i64::from(i8::MAX)) as i8));
            }
            left8.clear();
            for row in 0..rb {
                left8.extend_from_slice(&wide_part.row(row)[c - 2..c]);
            }
            if !in_range(top8) || !in_range(left8) {
                return Ok(None);
            }
            let mut right = TileBuf::pooled(pool, n, rb, Arrangement::Rows);
            if !kernel(top8, left8, n, rb, &mut right) {
                return Ok(None);
            }
            for row in 0..rb {
                cells.row_mut(a + row)[c..].copy_from_slice(right.row(row));
            }
            narrow += (n * rb) as u64;
        }
        if b < h {
            let last2: Vec<i8> = (b - 2..b).flat_map(|row| cells.row(row).iter().copied()).collect();
            exact_above(k, x0, y0, b, left, &last2, &mut above);
        }
        a = b;
    }
    if narrow == 0 {
        return Ok(None);
    }
    Ok(Some((Tile::Cells(cells), Made { narrow, wide: r.cells() - narrow, ..Made::default() })))
}

/// The part of a `top` halo (two rows over columns x0 - 2 .. x1, `w + 2` each) that is the top
/// halo of columns `from..to`: columns from - 2 .. to of both rows.
pub(super) fn halo_columns(top: &[i64], from: usize, to: usize) -> Vec<i64> {
    let row = top.len() / 2;
    (0..2).flat_map(|q| top[q * row + from..q * row + to + 2].iter().copied()).collect()
}

/// The exact values of the two rows above row `b` of a tile at `(x0, y0)` (`b >= 2`), into
/// `above` (the layout of a `top` halo, columns x0 - 2 .. x1): the tile's exact left halo
/// `left`, then the hood by its closed form and the stored values `last2` (rows b - 2 and
/// b - 1) past it. The hood more than [`HOOD_READ`] cells left of its edge is left as
/// [`DEEP_HOOD`]: the rule reads the rows above a cell two columns left of it at most, and the
/// hood's edge moves at most two columns a row, so no block of up to [`CASING_BLOCK`] rows
/// reads it.
pub(super) fn exact_above(k: u32, x0: u64, y0: u64, b: usize, left: &[i64], last2: &[i8], above: &mut [i64]) {
    let w = last2.len() / 2;
    for q in 0..2 {
        let row = b + q - 2;
        let y = y0 + row as u64;
        let dst = &mut above[q * (w + 2)..(q + 1) * (w + 2)];
        dst[0] = left[2 * row];
        dst[1] = left[2 * row + 1];
        let hl = (hood_len(k, y).saturating_sub(x0) as usize).min(w);
        let deep = hl.saturating_sub(HOOD_READ);
        dst[2..2 + deep].fill(DEEP_HOOD);
        for (col, d) in dst[2..].iter_mut().enumerate().skip(deep) {
            *d = if col < hl { hood_value(k, x0 + col as u64, y) } else { i64::from(last2[q * w + col]) };
        }
    }
}

/// How far left of the hood's edge in a row the blocks below read it (see [`exact_above`]):
/// a block of [`CASING_BLOCK`] rows starts its exact part at most `2 (CASING_BLOCK + 2)`
/// columns left of it, its halo two more, and a margin.
const HOOD_READ: usize = 2 * CASING_BLOCK + 8;

/// What [`exact_above`] leaves in the hood's cells that no block reads: far from any real value,
/// so that a read would show in every test.
const DEEP_HOOD: i64 = i64::MIN / 4;

/// The wide path: exact halo, exact kernel, then the 8-bit store (refusing values that do
/// not fit it, see [`Error::ValueRange`]). With `closed_form` the hood cells come from the
/// closed form and only the others are computed; without it every cell goes through the rule.
fn wide(
    nb: &Neighbourhood<'_>,
    r: &Rect,
    closed_form: bool,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
) -> Result<TileBuf> {
    if closed_form {
        return wide_rect(nb, r, pool, scratch);
    }
    let k = nb.layout.k;
    let Scratch { top, left, out, .. } = scratch;
    nb.halo_exact(r, top, left);
    let (w, h) = (r.w(), r.h());
    out.clear();
    out.resize(w * h, 0);
    wide_tile(top, left, w, h, out);
    let mut cells = TileBuf::pooled(pool, w, h, Arrangement::Rows);
    for row in 0..h {
        let y = r.y0 + row as u32;
        let hood_end = hood_len(k, u64::from(y)).saturating_sub(u64::from(r.x0)) as usize;
        let src = &out[row * w..(row + 1) * w];
        let dst = cells.row_mut(row);
        for (i, (&v, d)) in src.iter().zip(dst.iter_mut()).enumerate() {
            if i < hood_end {
                *d = v.max(i64::from(i8::MIN)) as i8;
            } else {
                *d = i8::try_from(v).map_err(|_| Error::ValueRange {
                    x: u64::from(r.x0) + i as u64,
                    y: u64::from(y),
                    value: v,
                })?;
            }
        }
    }
    Ok(cells)
}
