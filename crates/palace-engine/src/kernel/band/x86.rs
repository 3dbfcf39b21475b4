//! The band-lane CA kernel with 256-bit registers: AVX2 (16 registers) and AVX-512VL (the same
//! 256-bit operations with 32 registers, so more columns per block), and the transpose of the
//! computed block into rows with AVX2.

use super::lanes::{Halo, LANES, Work, run};
use super::tile::BandKernel;
use crate::kernel::avx2::transpose16_in_lanes;
use crate::kernel::buf::TileBuf;
use crate::kernel::counter::x86::Ymm;
use std::arch::x86_64::*;

/// Columns per register block with AVX2.
const M_AVX2: usize = 3;
/// Columns per register block with AVX-512VL.
const M_VL: usize = 6;

/// Whether this CPU has AVX2.
pub(crate) fn avx2_available() -> bool {
    crate::kernel::counter::x86::avx2_available()
}

/// Whether this CPU has AVX-512 F, VL and BW.
pub(crate) fn avx512vl_available() -> bool {
    crate::kernel::counter::x86::avx512vl_available()
}

/// AVX2, 3 columns per block.
pub const AVX2: BandKernel = BandKernel {
    name: "band-avx2",
    group: M_AVX2,
    block: block_avx2,
    rows: rows_avx2,
    rest: crate::kernel::avx2::narrow_tile,
};

/// AVX-512VL, 6 columns per block.
pub const AVX512VL: BandKernel = BandKernel {
    name: "band-avx512vl",
    group: M_VL,
    block: block_avx512vl,
    rows: rows_avx2,
    rest: crate::kernel::avx2::narrow_tile,
};

/// The AVX2 band kernel under the narrow contract (see [`crate::kernel::buf::NarrowFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX2.
pub(crate) fn narrow_tile_avx2(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    AVX2.tile(top, left, w, h, out)
}

/// The AVX-512VL band kernel under the narrow contract (see [`crate::kernel::buf::NarrowFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX-512 F, VL or BW.
pub(crate) fn narrow_tile_avx512vl(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    AVX512VL.tile(top, left, w, h, out)
}

fn block_avx2(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    assert!(avx2_available(), "AVX2 band kernel on a CPU without AVX2");
    // SAFETY: AVX2 is present (asserted above).
    unsafe { block_avx2_on(halo, w, h, work) }
}

#[target_feature(enable = "avx2")]
fn block_avx2_on(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    run::<Ymm<false>, M_AVX2>(halo, w, h, work)
}

fn block_avx512vl(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    assert!(avx512vl_available(), "AVX-512VL band kernel on a CPU without AVX-512 F/VL/BW");
    // SAFETY: the features are present (asserted above).
    unsafe { block_avx512vl_on(halo, w, h, work) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw")]
fn block_avx512vl_on(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    run::<Ymm<true>, M_VL>(halo, w, h, work)
}

fn rows_avx2(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf) {
    assert!(avx2_available(), "AVX2 transpose on a CPU without AVX2");
    // SAFETY: AVX2 is present (asserted above).
    unsafe { rows_avx2_on(work, group, w, h, out) }
}

/// The block's cells into rows: for band row `r`, the vectors `r * row_stride + tau` are a
/// matrix with one column per band, and band `j`'s row is that column from `tau = j * group`
/// on. Each 32 x 32 byte square is transposed in registers and its rows stored.
#[target_feature(enable = "avx2")]
fn rows_avx2_on(work: &Work, group: usize, w: usize, h: usize, out: &mut TileBuf) {
    let bh = h / LANES;
    let row_stride = (w / group + LANES - 1) * group;
    let cells = &work.cells;
    assert!(cells.len() >= bh * row_stride + LANES && h <= out.height() && w <= out.width());
    let col0: Vec<usize> = (0..h).map(|r| out.col0(r)).collect();
    let raw = out.raw_mut();
    let len = raw.len();
    let base = raw.as_mut_ptr();
    for r in 0..bh {
        let start = r * row_stride;
        for tau in (0..row_stride).step_by(LANES) {
            // SAFETY: start + tau + 31 < bh * row_stride + LANES <= cells.len(); `Lane` is 32
            // aligned bytes.
            let v: [__m256i; LANES] = std::array::from_fn(|k| unsafe {
                _mm256_load_si256(cells[start + tau + k].0.as_ptr().cast())
            });
            let (mut lo, mut hi): ([__m256i; 16], [__m256i; 16]) =
                (v[..16].try_into().expect("16 vectors"), v[16..].try_into().expect("16 vectors"));
            transpose16_in_lanes(&mut lo);
            transpose16_in_lanes(&mut hi);
            for q in 0..16 {
                for (j, row) in [
                    (q, _mm256_permute2x128_si256::<0x20>(lo[q], hi[q])),
                    (16 + q, _mm256_permute2x128_si256::<0x31>(lo[q], hi[q])),
                ] {
                    // Columns x0 .. x0 + 32 of row j bh + r.
                    let x0 = tau as isize - (j * group) as isize;
                    if x0 + LANES as isize <= 0 || x0 >= w as isize {
                        continue;
                    }
                    let at = col0[j * bh + r] as isize + x0;
                    if x0 >= 0 && x0 + LANES as isize <= w as isize {
                        debug_assert!(at >= 0 && at as usize + LANES <= len);
                        // SAFETY: the 32 columns lie inside the row, inside the buffer.
                        unsafe { _mm256_storeu_si256(base.offset(at).cast(), row) };
                    } else {
                        let mut tmp = [0i8; LANES];
                        // SAFETY: a 32-byte store into a 32-byte array.
                        unsafe { _mm256_storeu_si256(tmp.as_mut_ptr().cast(), row) };
                        let a = (-x0).max(0) as usize;
                        let b = (w as isize - x0).min(LANES as isize) as usize;
                        debug_assert!(at + (a as isize) >= 0 && (at + b as isize) as usize <= len);
                        // SAFETY: columns x0 + a .. x0 + b lie in 0..w, inside the row.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                tmp.as_ptr().add(a),
                                base.offset(at + a as isize),
                                b - a,
                            )
                        };
                    }
                }
            }
        }
    }
}
