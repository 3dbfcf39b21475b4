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
mod tile;
#[cfg(target_arch = "x86_64")]
pub mod x86;

pub use tile::BandKernel;

/// Every band kernel this CPU can run.
pub fn available() -> Vec<BandKernel> {
    #[cfg(target_arch = "x86_64")]
    return crate::kernel::counter::runnable(portable::PORTABLE, x86::AVX2, x86::AVX512VL);
    #[cfg(not(target_arch = "x86_64"))]
    vec![portable::PORTABLE]
}
