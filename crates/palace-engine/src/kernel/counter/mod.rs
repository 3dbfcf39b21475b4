//! The three-counter kernels: the game's direct definition (`docs/rule.md`, "Palace number")
//! in wrapping 8-bit lanes, 32 horizontal bands of a tile at once.
//!
//! # The form
//!
//! Every cell carries three counters: `R`, the palaces west of it in its row, `C`, north in its
//! column, and `D'`, north-west on its diagonal, stored as `D - k + BIAS` with
//! [`BIAS`]` = 16`. Their sum `s = R + C + D' = v + 16`, where `v = N - k` is the CA value.
//! The cell is a palace when `v < 0`, i.e. `s < 16`, and then each counter grows by one
//! along its line. All three are kept modulo 256 (wrapping bytes): `s` is then right modulo
//! 256, so it is `v + 16` itself whenever `v` lies in `-16..=15` (outside the hood `v` stays
//! within `-4..=15` on every board measured, up to k = 40003 on 120000 x 120000; a tile that
//! holds a larger value only takes the exact path). Per vector of 32 cells
//! that is two adds, one compare, three subtracts (the compare's mask is -1 on palaces) and
//! one OR that gathers every `s` for the check below: 7 operations, against at least 9 for
//! the CA rule.
//!
//! # Why a tile whose every `s` lies in `0..=31` is exact
//!
//! Each tile is checked as a whole: the OR of every `s` it computed must have its top three
//! bits clear ([`OUT_OF_RANGE`]), i.e. every wrapped `v` lies in `-16..=15`. (A range of 32
//! values lets the statistics' tally classify every `s` by one 32-entry table lookup.) The CA rule proves that such a tile
//! is exact, provided the cells its rule neighbourhood reads outside the tile (the two rows
//! above it and the two columns to its left, the halo) also lie in `-16..=15`, which the engine
//! checks before it uses this kernel. By induction over the cells in the order the rule
//! computes them: if the six neighbours of `g` hold their true values, all within `-16..=15`,
//! then `g = a - b - c + e + f + p` with `|p| <= 5`, so the true `v(g)` lies in `-85..=85`.
//! The kernel's counters are right modulo 256 (their increments are the true palaces so far),
//! so its wrapped `v(g)` is the true one modulo 256. If that wrapped value lies in `-16..=15`,
//! the true value is the only number in `-85..=85` congruent to it (the others are at
//! least 240 away), so the cell's value and its sign are right. A tile that fails the check
//! is recomputed exactly by the engine.
//!
//! # The band-lane layout
//!
//! A tile of `h = 32 H` rows is cut into 32 bands of `H` rows; lane `j` of a vector holds band
//! `j`, and one vector holds row `r` of every band. Lane `j` runs one group of `M` columns
//! behind lane `j - 1`: in pass `t` it computes group `t - j`, all `H` rows of it, so the
//! counters a band's first row needs (`C` and `D'` leaving the band above) were produced by
//! the lane above one pass earlier and enter by a one-lane shift per column and pass. `R` and
//! every other `C` and `D'` stay in their lane.
//!
//! Within a pass the `M` columns walk down the rows as a skewed wavefront, column `i` being
//! `i` rows behind column 0, so the `M` cells of a step are independent and every counter
//! handed between them stays in a register: `R` from column `i - 1` of the step before, `C`
//! from the cell above, `D'` from column `i - 1` two steps before. Only column 0 reads, and
//! column `M - 1` writes, the per-row `R` and `D'` of the band (one load and one store each
//! per row and pass).
//!
//! The palace count comes from the `C` counters: a column's palaces within a band are its `C`
//! on leaving the band minus its `C` on entering (at most `H`, so exact in a byte).
//!
//! [`reference()`] is the same arithmetic cell by cell in plain loops; every instance of the
//! band-lane algorithm is tested against it bit for bit, and the engine's sweeps against
//! the exact definition.

mod bands;
mod contract;
pub mod portable;
mod reference;
mod tile;
#[cfg(target_arch = "x86_64")]
pub mod x86;

pub use bands::Scratch;
pub(crate) use bands::{Lane, Vector};
pub use contract::{BIAS, EdgeValues, Edges, LANES, MAX_HEIGHT, OUT_OF_RANGE, Outcome};
pub use reference::{entering_by_definition, reference};
pub use tile::{CounterFn, CounterKernel};

/// The fastest counter kernel for this CPU, within `PALACE_ISA`'s cap
/// ([`crate::simd::cpu`]).
pub fn best() -> CounterKernel {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::cpu::{Isa, level};
        if level() >= Isa::Avx512 && x86::avx512vl_available() {
            return x86::AVX512VL;
        }
        if level() >= Isa::Avx2 && x86::avx2_available() {
            return x86::AVX2;
        }
    }
    portable::PORTABLE
}

/// Every counter kernel this CPU can run (regardless of `PALACE_ISA`).
pub fn available() -> Vec<CounterKernel> {
    #[cfg(target_arch = "x86_64")]
    return runnable(portable::PORTABLE, x86::AVX2, x86::AVX512VL);
    #[cfg(not(target_arch = "x86_64"))]
    vec![portable::PORTABLE]
}

/// Of a family of band-lane kernels (these counters, and the CA rule's in
/// [`crate::kernel::band`]), the ones this CPU can run: the portable one, then the AVX2 and the
/// AVX-512VL ones where it has them.
#[cfg(target_arch = "x86_64")]
pub(crate) fn runnable<T>(portable: T, avx2: T, avx512vl: T) -> Vec<T> {
    let mut all = vec![portable];
    if x86::avx2_available() {
        all.push(avx2);
    }
    if x86::avx512vl_available() {
        all.push(avx512vl);
    }
    all
}

#[cfg(test)]
pub(crate) mod tests;
