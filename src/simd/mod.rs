//! Run-time instruction-set choice and the vector helpers shared by the engine: which
//! instruction sets may be used ([`cpu`]) the value histogram ([`histogram`]) and the AVX2 lane masks both the kernels and the histogram use (`masks`). Nothing here
//! depends on the kernels.

pub mod cpu;
pub mod histogram;
#[cfg(target_arch = "x86_64")]
pub mod masks;
