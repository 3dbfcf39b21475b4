//! The kernel a sweep runs, picked at run time ([`KernelChoice`]): which this CPU has, and
//! which function computes a tile under each.

use super::buf::*;
use crate::simd::cpu::Isa;

/// Which tile kernel the engine uses outside the hood: the fastest for this CPU, the exact
/// scalar reference, or a narrow kernel given by its two independent axes, the lanes' layout
/// and the instruction set.
///
/// `Auto` is resolved once per sweep: to a CA kernel by [`KernelChoice::resolve`], and to a
/// three-counter kernel by [`KernelChoice::counter`] (the fastest of each kind need not share
/// an instruction set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KernelChoice {
    /// The fastest kernel for this CPU: AVX-512, else AVX2, else portable; AVX2 on AMD Zen 4,
    /// where it measured faster; never above the `PALACE_ISA` environment variable's cap.
    #[default]
    Auto,
    /// The exact 64-bit scalar kernel everywhere (slow; the reference).
    Wide,
    /// A narrow kernel: 8-bit lanes laid out by `layout`, with the instructions of `isa`.
    Lanes {
        /// How the lanes lie over the tile.
        layout: LaneLayout,
        /// The instruction set.
        isa: Isa,
    },
}

impl KernelChoice {
    /// 8-bit lanes along anti-diagonals in plain Rust, for any CPU.
    pub const PORTABLE: KernelChoice =
        KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Portable };
    /// 8-bit lanes along anti-diagonals with AVX2 (32 rows at once).
    pub const AVX2: KernelChoice = KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx2 };
    /// 8-bit lanes along anti-diagonals with AVX-512 BW and VBMI (64 rows at once).
    pub const AVX512: KernelChoice = KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx512 };
    /// The CA rule in band lanes, plain Rust, for any CPU.
    pub const BAND_PORTABLE: KernelChoice =
        KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Portable };
    /// The CA rule in band lanes with AVX2, 3 columns per register block.
    pub const BAND_AVX2: KernelChoice = KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx2 };
    /// The CA rule in band lanes with AVX-512VL (256-bit, 32 registers), 6 columns per block.
    pub const BAND_AVX512: KernelChoice = KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx512 };

    /// Every choice, `Auto` first.
    pub const ALL: [KernelChoice; 8] = [
        KernelChoice::Auto,
        KernelChoice::Wide,
        KernelChoice::PORTABLE,
        KernelChoice::AVX2,
        KernelChoice::AVX512,
        KernelChoice::BAND_PORTABLE,
        KernelChoice::BAND_AVX2,
        KernelChoice::BAND_AVX512,
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            KernelChoice::Auto => "auto",
            KernelChoice::Wide => "wide",
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa } => isa.name(),
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Portable } => "band-portable",
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx2 } => "band-avx2",
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx512 } => "band-avx512",
        }
    }

    /// The CA kernel's layout and instruction set, in words, for reports (of the resolved
    /// choice).
    pub fn describe(self) -> String {
        let k = self.resolve();
        match k {
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, .. } => {
                format!("CA rule, anti-diagonal lanes ({})", k.name())
            }
            KernelChoice::Lanes { layout: LaneLayout::Band, .. } => {
                format!("CA rule, band lanes with register blocking ({})", k.name())
            }
            KernelChoice::Auto | KernelChoice::Wide => "CA rule, exact 64-bit scalar (wide)".to_string(),
        }
    }

    /// Whether this CPU can run the kernel.
    pub fn available(self) -> bool {
        match self {
            KernelChoice::Auto | KernelChoice::Wide => true,
            KernelChoice::Lanes { isa: Isa::Portable, .. } => true,
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx2 } => super::avx2::available(),
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx512 } => {
                super::avx512::available()
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx2 } => {
                super::band::x86::avx2_available()
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx512 } => {
                super::band::x86::avx512vl_available()
            }
            #[cfg(not(target_arch = "x86_64"))]
            KernelChoice::Lanes { .. } => false,
        }
    }

    /// The concrete CA kernel `Auto` stands for on this CPU, within `PALACE_ISA`'s cap
    /// ([`crate::simd::cpu`]); other choices stand for themselves.
    pub fn resolve(self) -> KernelChoice {
        match self {
            KernelChoice::Auto => match crate::simd::cpu::level() {
                Isa::Avx512 if KernelChoice::AVX512.available() => KernelChoice::AVX512,
                Isa::Avx512 | Isa::Avx2 if KernelChoice::AVX2.available() => KernelChoice::AVX2,
                _ => KernelChoice::PORTABLE,
            },
            k => k,
        }
    }

    /// The rows per block of the resolved kernel if it can store tiles in the diagonal
    /// [`Arrangement`] (the lane kernels), else `None`.
    pub fn diagonal_lanes(self) -> Option<usize> {
        match self.resolve() {
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx512 } => Some(64),
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, .. } => Some(32),
            _ => None,
        }
    }

    /// The narrow kernel function, or `None` for the wide kernel. Panics if the kernel is not
    /// [`available`](Self::available) (the engine refuses that choice first).
    pub fn narrow_fn(self) -> Option<NarrowFn> {
        let k = self.resolve();
        assert!(k.available(), "kernel {} is not available on this CPU", k.name());
        match k {
            KernelChoice::Auto | KernelChoice::Wide => None,
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Portable } => {
                Some(super::portable::narrow_tile as NarrowFn)
            }
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Portable } => {
                Some(super::band::portable::narrow_tile as NarrowFn)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx2 } => {
                Some(super::avx2::narrow_tile as NarrowFn)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Diagonal, isa: Isa::Avx512 } => {
                Some(super::avx512::narrow_tile as NarrowFn)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx2 } => {
                Some(super::band::x86::narrow_tile_avx2 as NarrowFn)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { layout: LaneLayout::Band, isa: Isa::Avx512 } => {
                Some(super::band::x86::narrow_tile_avx512vl as NarrowFn)
            }
            #[cfg(not(target_arch = "x86_64"))]
            KernelChoice::Lanes { .. } => unreachable!("checked available above"),
        }
    }

    /// The three-counter kernel this choice stands for in counter sweeps: `Auto` the fastest
    /// ([`super::counter::best`]), `Wide` none (the CA's exact paths everywhere), the others their
    /// own instruction set whatever their layout (AVX-512: the AVX-512VL kernel). Panics if it
    /// is not available, as [`KernelChoice::narrow_fn`] does.
    pub fn counter(self) -> Option<super::counter::CounterKernel> {
        match self {
            KernelChoice::Auto => Some(super::counter::best()),
            KernelChoice::Wide => None,
            KernelChoice::Lanes { isa: Isa::Portable, .. } => Some(super::counter::portable::PORTABLE),
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { isa: Isa::Avx2, .. } => {
                assert!(super::counter::x86::avx2_available(), "AVX2 kernel requested on a CPU without AVX2");
                Some(super::counter::x86::AVX2)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Lanes { isa: Isa::Avx512, .. } => {
                assert!(
                    super::counter::x86::avx512vl_available(),
                    "AVX-512 kernel requested on a CPU without AVX-512 F/VL/BW"
                );
                Some(super::counter::x86::AVX512VL)
            }
            #[cfg(not(target_arch = "x86_64"))]
            k => panic!("kernel {} is not available on this CPU", k.name()),
        }
    }
}

/// Every kernel choice that this CPU can run, `Auto` excluded.
pub fn available_kernels() -> Vec<KernelChoice> {
    KernelChoice::ALL.into_iter().filter(|k| *k != KernelChoice::Auto && k.available()).collect()
}
