//! A band kernel's handle ([`BandKernel`]): its block and row functions, and a tile of any
//! size computed with them.

use super::lanes::{Halo, LANES, Work};
use crate::kernel::buf::{Arrangement, NarrowFn, TileBuf};
use std::cell::RefCell;

thread_local! {
    /// The band kernels' buffers, one set per thread (the narrow contract has no scratch).
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

/// Computes the band block (see [`lanes::run`]) into a [`Work`].
pub(crate) type BlockFn = fn(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool;

/// Writes the block in a [`Work`] into the first `w` columns of the first `h` rows of a tile.
pub(crate) type RowsFn = fn(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf);

/// One instance of the band-lane CA kernel.
#[derive(Clone, Copy)]
pub struct BandKernel {
    /// A short name for reports.
    pub name: &'static str,
    /// Columns per register block (`M`).
    pub group: usize,
    pub(super) block: BlockFn,
    pub(super) rows: RowsFn,
    /// The anti-diagonal kernel for the columns and rows outside the band block.
    pub(super) rest: NarrowFn,
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

/// [`RowsFn`] cell by cell, for any CPU.
pub(crate) fn rows_scalar(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf) {
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
