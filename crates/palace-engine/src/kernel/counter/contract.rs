//! What every counter kernel agrees on: the lanes, the bias of a stored counter, the tile's
//! edges in and out, the outcome, and the kernel's handle ([`CounterKernel`]).

/// Lanes per vector: bands per tile.
pub const LANES: usize = 32;

/// Added to `D - k` so that `s = R + C + D'` is `v + BIAS`, in `0..2 * BIAS` when `v` is
/// small.
pub const BIAS: u8 = 16;

/// The bits of `s` that are all clear exactly when `s` lies in `0..2 * BIAS`: a tile whose
/// OR of every `s` has none of them is valid.
pub const OUT_OF_RANGE: u8 = !(2 * BIAS - 1);

const _: () = assert!(BIAS.is_power_of_two() && OUT_OF_RANGE == 0xE0);

/// The largest tile height the lane kernels take: `H <= 255` keeps a column's palaces within
/// one band below 256.
pub const MAX_HEIGHT: usize = LANES * 255;

/// Counters entering a `w x h` tile; the kernel replaces each by the counters leaving it.
///
/// On entry (all modulo 256): `r[row]` is `R` of the cell `(row, 0)`; `d_left[row]` is `D'` of
/// the cell `(row, 0)` (for `row = 0` it must equal `d_top[0]`); `c[col]` is `C` of the cell
/// `(0, col)`; `d_top[col]` is `D'` of the cell `(0, col)`.
///
/// On return: `r[row]` is `R` just right of the tile, at `(row, w)`; `d_left[row]` is `D'` of
/// `(row + 1, w)`, the diagonal leaving `(row, w - 1)`; `c[col]` is `C` just below the tile,
/// at `(h, col)`; `d_top[col]` is `D'` of `(h, col + 1)`, the diagonal leaving `(h - 1, col)`.
/// (The cell `(h, w)` appears twice, as `d_left[h - 1]` and `d_top[w - 1]`.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edges {
    /// `R` per row.
    pub r: Vec<u8>,
    /// `D'` per row, entering from the left / leaving to the right.
    pub d_left: Vec<u8>,
    /// `C` per column.
    pub c: Vec<u8>,
    /// `D'` per column, entering from above / leaving below.
    pub d_top: Vec<u8>,
}

/// The CA values (`s - BIAS`, wrapping) of a tile's last two rows and last two columns, what
/// the rule's neighbourhood of the tiles below and to the right reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EdgeValues {
    /// Rows `h - 2` and `h - 1`, `w` cells each, one after the other.
    pub bottom: Vec<i8>,
    /// Columns `w - 2` and `w - 1` of each row, interleaved (`2 h` cells).
    pub right: Vec<i8>,
}

impl EdgeValues {
    /// Room for a `w x h` tile.
    pub fn sized(w: usize, h: usize) -> Self {
        EdgeValues { bottom: vec![0; 2 * w], right: vec![0; 2 * h] }
    }
}

/// What a tile's computation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Every `s` lay in `0..2 * BIAS`: with a checked halo, every value and palace is exact.
    pub valid: bool,
    /// Palaces in the tile (exact when `valid`).
    pub palaces: u64,
}

pub(crate) fn check_sizes(w: usize, h: usize, edges: &Edges, values: &EdgeValues) {
    assert!(w >= 1 && h >= 1, "an empty tile");
    assert_eq!((edges.r.len(), edges.d_left.len()), (h, h), "row counters");
    assert_eq!((edges.c.len(), edges.d_top.len()), (w, w), "column counters");
    assert_eq!((values.bottom.len(), values.right.len()), (2 * w, 2 * h), "edge values");
}
