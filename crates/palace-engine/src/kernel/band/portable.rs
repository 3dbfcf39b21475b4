//! The band-lane CA kernel in plain Rust for any CPU: the 32 byte lanes as four 64-bit words
//! (the three-counter kernels' SIMD within a register).

use super::lanes::{Halo, Work, run};
use super::tile::{BandKernel, rows_scalar};
use crate::kernel::buf::TileBuf;
use crate::kernel::counter::portable::Words;

/// Columns per register block (each vector is four general registers, so few fit).
const M: usize = 2;

/// The portable band kernel.
pub const PORTABLE: BandKernel = BandKernel {
    name: "band-portable",
    group: M,
    block,
    rows: rows_scalar,
    rest: crate::kernel::portable::narrow_tile,
};

fn block(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    run::<Words, M>(halo, w, h, work)
}

/// The portable band kernel under the narrow contract (see [`crate::kernel::buf::NarrowFn`]).
pub(crate) fn narrow_tile(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    PORTABLE.tile(top, left, w, h, out)
}
