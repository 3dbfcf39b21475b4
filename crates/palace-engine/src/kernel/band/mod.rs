//! The CA rule's kernels in the band-lane layout with register blocking: the same narrow
//! contract as the anti-diagonal kernels ([`super::buf::NarrowFn`]: a tile from its two rows above
//! and two columns to the left, exact 8-bit values, failure reported when a value leaves
//! [`super::buf::NARROW_LIMIT`]), laid out as the three-counter kernels of [`super::counter`] are.
//!
//! # The layout
//!
//! A block of `h = 32 H` rows is cut into 32 bands of `H` rows; lane `j` of a vector holds band
//! `j`, and one vector holds row `r` of every band. Lane `j` runs one group of `M` columns
//! behind lane `j - 1`: in pass `t` it computes group `t - j`. The rule reads two rows up and
//! two columns left (`docs/rule.md`, "The rule"), so a band's first two rows take their
//! neighbours above from the last two rows of the lane above, which computed the same columns
//! one pass earlier: one lane shift per column and pass. Everything else stays in its lane.
//!
//! Within a pass the `M` columns walk down the band's rows as a skewed wavefront (column `i`
//! handles row `s - i` at step `s`), so the `M` cells of a step are independent. Every value
//! is *distributed* at once to the cells that read it, through four partial sums per column,
//! and all of this stays in registers; only the group's last two columns are written per row
//! (and read back by the next group's first two, as the columns left of it). `M = 3` (AVX2,
//! 16 registers: 12 partial sums) and `M = 6` (AVX-512VL's 32 registers, 256-bit operations)
//! are the natural sizes; see `docs/performance.md` for what was measured.
//!
//! # Tiles of any shape
//!
//! The band kernel computes the largest block at the tile's top left whose width is a multiple
//! of `M` and whose height a multiple of 32 (at least 64); the columns right of it and the
//! rows below it (fewer than `M` and 32) are computed by the anti-diagonal kernel of the same
//! instruction set from the block's edges. The cells of the block are kept as computed and
//! then transposed into the tile's rows, 32 x 32 bytes at a time on x86.
//!
//! Every kernel here is tested bit for bit against [`super::wide`] (`tests.rs` of this module
//! and `crates/palace-engine/tests/engine/kernels.rs`), range failures included.

mod lanes;
pub mod portable;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
pub mod x86;

use super::buf::{Arrangement, NarrowFn, TileBuf};
use lanes::{Halo, LANES, Work};
use std::cell::RefCell;

thread_local! {
    /// The band kernels' buffers, one set per thread (the narrow contract has no scratch).
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

/// Computes the band block (see [`lanes::run`]) into a [`Work`].
type BlockFn = fn(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool;

/// Writes the block in a [`Work`] into the first `w` columns of the first `h` rows of a tile.
type RowsFn = fn(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf);

/// One instance of the band-lane CA kernel.
#[derive(Clone, Copy)]
pub struct BandKernel {
    /// A short name for reports.
    pub name: &'static str,
    /// Columns per register block (`M`).
    pub group: usize,
    block: BlockFn,
    rows: RowsFn,
    /// The anti-diagonal kernel for the columns and rows outside the band block.
    rest: NarrowFn,
}

impl std::fmt::Debug for BandKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BandKernel").field("name", &self.name).field("group", &self.group).finish()
    }
}

impl BandKernel {
    /// Computes a `w x h` tile under the narrow contract ([`NarrowFn`]); `out` must be in the
    /// rows arrangement.
    pub fn tile(&self, top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
        assert_eq!(top.len(), 2 * (w + 2));
        assert_eq!(left.len(), 2 * h);
        assert_eq!((out.width(), out.height()), (w, h));
        assert_eq!(out.arrangement(), Arrangement::Rows, "the band kernels write rows");
        let wk = w - w % self.group;
        let hk = if h >= 2 * LANES { h - h % LANES } else { 0 };
        if wk == 0 || hk == 0 {
            return (self.rest)(top, left, w, h, out);
        }
        let block = WORK.with(|work| {
            let work = &mut *work.borrow_mut();
            let ok = (self.block)(Halo { top, stride: w + 2, left }, wk, hk, work);
            if ok {
                (self.rows)(work, self.group, wk, hk, out);
            }
            ok
        });
        if !block {
            return false;
        }
        // The columns right of the block, from the block's last two columns.
        if wk < w {
            let n = w - wk;
            let mut sub_top = Vec::with_capacity(2 * (n + 2));
            for q in 0..2 {
                sub_top.extend_from_slice(&top[q * (w + 2) + wk..(q + 1) * (w + 2)]);
            }
            let mut sub_left = Vec::with_capacity(2 * hk);
            for r in 0..hk {
                sub_left.extend_from_slice(&out.row(r)[wk - 2..wk]);
            }
            let mut part = TileBuf::new(n, hk);
            if !(self.rest)(&sub_top, &sub_left, n, hk, &mut part) {
                return false;
            }
            for r in 0..hk {
                out.row_mut(r)[wk..].copy_from_slice(part.row(r));
            }
        }
        // The rows below, from the block's (and its right part's) last two rows.
        if hk < h {
            let mut sub_top = vec![0i8; 2 * (w + 2)];
            for (q, dst) in sub_top.chunks_exact_mut(w + 2).enumerate() {
                let r = hk - 2 + q;
                dst[..2].copy_from_slice(&left[2 * r..2 * r + 2]);
                dst[2..].copy_from_slice(out.row(r));
            }
            let mut part = TileBuf::new(w, h - hk);
            if !(self.rest)(&sub_top, &left[2 * hk..], w, h - hk, &mut part) {
                return false;
            }
            for r in hk..h {
                out.row_mut(r).copy_from_slice(part.row(r - hk));
            }
        }
        true
    }
}

/// Every band kernel this CPU can run.
pub fn available() -> Vec<BandKernel> {
    #[cfg(target_arch = "x86_64")]
    return crate::kernel::counter::runnable(portable::PORTABLE, x86::AVX2, x86::AVX512VL);
    #[cfg(not(target_arch = "x86_64"))]
    vec![portable::PORTABLE]
}

/// [`RowsFn`] cell by cell, for any CPU.
fn rows_scalar(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf) {
    let bh = h / LANES;
    let row_stride = (w / group + LANES - 1) * group;
    for r in 0..bh {
        for j in 0..LANES {
            // Row j bh + r, column x: lane j of the vector at r * row_stride + j * group + x.
            let src = &work.cells[r * row_stride + j * group..][..w];
            for (d, s) in out.row_mut(j * bh + r)[..w].iter_mut().zip(src) {
                *d = s.0[j] as i8;
            }
        }
    }
}
