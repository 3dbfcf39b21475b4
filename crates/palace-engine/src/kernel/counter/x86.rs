//! The band-lane algorithm with 256-bit registers: AVX2 (16 registers, 3 columns per block)
//! and AVX-512VL (the same 256-bit operations with 32 registers, 6 columns per block).

use super::bands::{Lane, Scratch, Vector, run};
use super::contract::{BIAS, EdgeValues, Edges, Outcome};
use super::tile::CounterKernel;
use std::arch::x86_64::*;

/// Whether this CPU has AVX2.
pub(crate) fn avx2_available() -> bool {
    is_x86_feature_detected!("avx2")
}

/// Whether this CPU has AVX-512 F, VL and BW (32 vector registers for 256-bit operations).
pub(crate) fn avx512vl_available() -> bool {
    avx2_available()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512bw")
}

/// AVX2, 3 columns per block.
pub const AVX2: CounterKernel = CounterKernel { name: "avx2", group: 3, run: tile_avx2 };

/// AVX-512VL, 6 columns per block.
pub const AVX512VL: CounterKernel = CounterKernel { name: "avx512vl", group: 6, run: tile_avx512vl };

/// The AVX2 kernel (see [`super::CounterFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX2.
pub(crate) fn tile_avx2(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    assert!(avx2_available(), "AVX2 counter kernel on a CPU without AVX2");
    // SAFETY: AVX2 is present (asserted above).
    unsafe { avx2(w, h, edges, values, scratch) }
}

/// The AVX-512VL kernel (see [`super::CounterFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX-512 F, VL or BW.
pub(crate) fn tile_avx512vl(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    assert!(avx512vl_available(), "AVX-512VL counter kernel on a CPU without AVX-512 F/VL/BW");
    // SAFETY: the features are present (asserted above).
    unsafe { avx512vl(w, h, edges, values, scratch) }
}

#[target_feature(enable = "avx2")]
fn avx2(w: usize, h: usize, edges: &mut Edges, values: &mut EdgeValues, scratch: &mut Scratch) -> Outcome {
    run::<Ymm<false>, 3>(w, h, edges, values, scratch)
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw")]
fn avx512vl(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    run::<Ymm<true>, 6>(w, h, edges, values, scratch)
}

/// A 256-bit register of 32 bytes. Its operations are AVX2 instructions, and with `VL` also
/// AVX-512VL's three-input logic. The type is private to the kernels and only used inside the
/// functions above and those of [`crate::kernel::band::x86`], which enable those features (and
/// are only called once they are detected), so the `unsafe` blocks below never run without
/// them.
#[derive(Clone, Copy)]
pub(crate) struct Ymm<const VL: bool>(__m256i);

impl<const VL: bool> Vector for Ymm<VL> {
    // Pairing the sums pays with 32 registers and one instruction per pair; with AVX2's 16
    // registers the gathered sums crowd out the counters: OR each as it comes.
    const PAIRED: bool = VL;
    #[inline(always)]
    fn splat(x: u8) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_set1_epi8(x as i8) })
    }
    #[inline(always)]
    fn load(p: &Lane) -> Self {
        // SAFETY: `Lane` is 32 bytes, 32-byte aligned; AVX2 as above.
        Ymm(unsafe { _mm256_load_si256(p.0.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, p: &mut Lane) {
        // SAFETY: as for `load`.
        unsafe { _mm256_store_si256(p.0.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_sub_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn palace(self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_cmpgt_epi8(_mm256_set1_epi8(BIAS as i8), self.0) })
    }
    #[inline(always)]
    fn shift_in(self, first: u8) -> Self {
        // SAFETY: see the type's documentation.
        unsafe {
            // Low half: `first` in byte 15; high half: the register's low half. Shifting the
            // pair right by 15 bytes per half moves every lane up by one.
            let below = _mm256_permute2x128_si256::<0x02>(self.0, _mm256_set1_epi8(first as i8));
            Ymm(_mm256_alignr_epi8::<15>(self.0, below))
        }
    }
    #[inline(always)]
    fn negative(self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_cmpgt_epi8(_mm256_setzero_si256(), self.0) })
    }
    #[inline(always)]
    fn track_narrow(self, acc: Self) -> Self {
        // SAFETY: see the type's documentation. `v + 24` as an unsigned byte is at most 48
        // exactly when `v` lies in -24..=24: keep the largest.
        Ymm(unsafe {
            _mm256_max_epu8(
                acc.0,
                _mm256_add_epi8(self.0, _mm256_set1_epi8(crate::kernel::buf::NARROW_LIMIT)),
            )
        })
    }
    #[inline(always)]
    fn merge_narrow(self, o: Self) -> Self {
        // SAFETY: see the type's documentation.
        Ymm(unsafe { _mm256_max_epu8(self.0, o.0) })
    }
    #[inline(always)]
    fn narrow_ok(acc: Self) -> bool {
        // SAFETY: see the type's documentation.
        unsafe {
            let limit = _mm256_set1_epi8(2 * crate::kernel::buf::NARROW_LIMIT);
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(acc.0, limit), limit)) == -1
        }
    }
    #[inline(always)]
    fn sum(self) -> u32 {
        // SAFETY: see the type's documentation.
        unsafe {
            let s = _mm256_sad_epu8(self.0, _mm256_setzero_si256());
            let lo = _mm256_castsi256_si128(s);
            let hi = _mm256_extracti128_si256::<1>(s);
            let t = _mm_add_epi64(lo, hi);
            (_mm_cvtsi128_si64(t) + _mm_extract_epi64::<1>(t)) as u32
        }
    }
    #[inline(always)]
    fn or3(self, a: Self, b: Self) -> Self {
        if VL {
            // SAFETY: see the type's documentation (with VL, AVX-512VL is enabled). 0xFE: the
            // OR of the three inputs.
            Ymm(unsafe { _mm256_ternarylogic_epi32::<0xFE>(self.0, a.0, b.0) })
        } else {
            self.or(a).or(b)
        }
    }
}
