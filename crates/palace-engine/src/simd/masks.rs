//! Lane masks shared by the AVX2 kernel and the AVX2 histogram, kept here so that neither
//! imports the other.

use std::arch::x86_64::{__m256i, _mm256_loadu_si256};

/// `-1` in the lanes `i <= n`, 0 elsewhere (n may lie anywhere).
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn lanes_le(n: isize) -> __m256i {
    static RAMP: [i8; 128] = {
        let mut r = [0i8; 128];
        let mut i = 0;
        while i < 64 {
            r[i] = -1;
            i += 1;
        }
        r
    };
    // byte i of the load is RAMP[63 - n + i], which is -1 exactly when i <= n.
    let o = (63 - n.clamp(-1, 63)) as usize;
    // SAFETY: o + 32 <= 96 < 128.
    unsafe { _mm256_loadu_si256(RAMP.as_ptr().add(o).cast()) }
}
