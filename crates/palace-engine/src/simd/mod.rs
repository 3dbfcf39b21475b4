//! Run-time instruction-set choice and the vector helpers shared by the engine: which
//! instruction sets may be used ([`cpu`]), the value histogram ([`histogram`]), the AVX2 lane
//! masks both the kernels and the histogram use (`masks`), and [`crate::avx2_version!`], which
//! compiles plain code that vectorises once more for AVX2. Nothing here depends on the
//! kernels.

/// Defines `fn $name(params) -> R` that calls `$body(params)` (an `#[inline(always)]` function
/// of plain Rust) compiled for AVX2 where [`cpu::level`] allows it, and as plain code
/// otherwise. Loops written to vectorise then take 32 bytes a step instead of SSE2's 16; the
/// results are the same on every path (`PALACE_ISA=portable` runs the plain one).
#[macro_export]
macro_rules! avx2_version {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($p:ident: $t:ty),* $(,)?) $(-> $r:ty)? = $body:path;) => {
        $(#[$m])*
        $vis fn $name($($p: $t),*) $(-> $r)? {
            #[cfg(target_arch = "x86_64")]
            if $crate::simd::cpu::level() >= $crate::simd::cpu::Isa::Avx2 {
                #[target_feature(enable = "avx2")]
                fn avx2($($p: $t),*) $(-> $r)? {
                    $body($($p),*)
                }
                // SAFETY: the CPU has AVX2 (checked by `level`).
                return unsafe { avx2($($p),*) };
            }
            $body($($p),*)
        }
    };
}

pub mod cpu;
pub mod histogram;
#[cfg(target_arch = "x86_64")]
pub mod masks;
