//! Tile kernels: each computes one rectangular tile of the board from its halo (the two rows
//! above it and the two columns to its left, as far back as the rule's neighbourhood reaches, `docs/rule.md`).
//!
//! * [`wide`] is the plain scalar kernel in exact 64-bit arithmetic. It handles every tile,
//!   including those touching the hood or the initial condition, and it is the reference the
//!   narrow kernels are tested against bit for bit.
//! * The **narrow** kernels compute in 8-bit lanes, 32 or 64 rows at once along the
//!   anti-diagonals: [`portable`] (plain Rust, any CPU), [`avx2`] and [`avx512`] (x86-64, chosen
//!   at run time). Wrapping 8-bit arithmetic is exact for `g = a - b - c + e + f + p` as long as
//!   every value is small enough for its sign to be right (`docs/rule.md`, "Narrow integers"); the kernels check that every
//!   value stays within [`NARROW_LIMIT`] and report failure otherwise, and the engine then
//!   recomputes the tile with the wide kernel.
//! * [`band`] holds the same rule under the same contract in the band-lane layout of the
//!   three-counter kernels ([`counter`]): 32 horizontal bands of a tile in the lanes of one
//!   vector, several columns per register block. Chosen only explicitly (`--kernel
//!   band-avx2` and the like); see `docs/performance.md` for why `auto` does not pick it.
//!
//! The kernel is picked at run time ([`KernelChoice`]); shipped builds never assume a CPU
//! feature at compile time.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod band;
pub(crate) mod buf;
mod choice;
pub mod counter;
pub mod portable;
pub mod wide;

pub use buf::{Arrangement, BufPool, LaneLayout, NARROW_LIMIT, NarrowFn, ROW_SKEW, TileBuf};
pub use choice::{KernelChoice, available_kernels};
