//! What a run computes: the board and window of a tally ([`Job`]) and what comes back
//! ([`Tally`], [`Cell`]), with the bounds every job and tile shape is checked against.

use crate::error::GpuError;
use crate::shape::Shape;
use palace_engine::model::rule::MAX_K;

impl Shape {
    /// Why this shape cannot be used, if it cannot.
    pub fn check(&self) -> Result<(), GpuError> {
        let bad = |why| Err(GpuError::Shape { shape: *self, why });
        if !(1..=64).contains(&self.lanes) {
            return bad("lanes must lie in 1..=64");
        }
        if !(1..=32).contains(&self.rows) {
            return bad("rows per lane must lie in 1..=32");
        }
        // The tile's top and bottom rows are kept in workgroup memory (16 bytes a column).
        if !(1..=512).contains(&self.width) {
            return bad("the width must lie in 1..=512");
        }
        // A cell's position in its tile must fit the 24 bits of a tally key.
        if u64::from(self.width) * u64::from(self.height()) > 1 << 24 {
            return bad("a tile must hold at most 2^24 cells");
        }
        Ok(())
    }
}

/// A board and the window of it to tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// The game, `1 <= k <= MAX_K` (the engine's bound).
    pub k: u32,
    /// The window `[x0, x1) x [y0, y1)`; the sweep computes `[0, x1) x [0, y1)`.
    pub window: [u32; 4],
    /// Values counted lie in `-limit..limit`; `1..=128`.
    pub limit: u32,
    /// The tile shape.
    pub shape: Shape,
    /// Skip the tiles of outer space (exact; off computes every tile, for the tests).
    pub skip: bool,
    /// Pass counters between lanes by subgroup shuffles instead of workgroup memory and a
    /// barrier, where the adapter has subgroups of exactly `shape.lanes` lanes (see
    /// [`Gpu::subgroup_size`](crate::Gpu::subgroup_size)); elsewhere this has no effect.
    pub subgroups: bool,
}

impl Job {
    /// The whole `width x height` board of game `k`, with the full tally range.
    pub fn board(k: u32, width: u32, height: u32, shape: Shape) -> Job {
        Job { k, window: [0, 0, width, height], limit: 128, shape, skip: true, subgroups: true }
    }

    pub(crate) fn check(&self) -> Result<(), GpuError> {
        self.shape.check()?;
        let [x0, y0, x1, y1] = self.window;
        check_game(self.k)?;
        if x0 >= x1 || y0 >= y1 {
            return Err(GpuError::Job("the window is empty"));
        }
        if !(1..=128).contains(&self.limit) {
            return Err(GpuError::Job("the tally's limit must lie in 1..=128"));
        }
        Ok(())
    }
}

/// A cell and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The value `v = N - k`.
    pub v: i32,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// What a sweep found in its window, outside the hood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Cells by `v + 128`.
    pub counts: [u64; 256],
    /// The smallest value and its first cell in row-major order.
    pub min: Option<Cell>,
    /// The largest value and its first cell in row-major order.
    pub max: Option<Cell>,
    /// The tiles `(i, j)` (tile column, tile row) whose window cells outside the hood hold
    /// the largest value, in the order of their tile-diagonals: [`Gpu::tiles`](crate::Gpu::tiles) sends their
    /// cells back.
    pub max_tiles: Vec<(u32, u32)>,
    /// Cells of the region (rounded up to whole tiles) computed, not skipped as outer space.
    pub computed: u64,
    /// Cells of the region, rounded up to whole tiles.
    pub region: u64,
}

/// Refuses a game outside the library's bounds, `1..=MAX_K` (the engine's
/// [`MAX_K`](palace_engine::model::rule::MAX_K), the one bound of `k`); the counters of those
/// games, at most `3k`, fit 31 bits, which the shaders' comparisons need.
pub(crate) fn check_game(k: u32) -> Result<(), GpuError> {
    if k == 0 || k > MAX_K {
        return Err(GpuError::Job(K_RANGE));
    }
    Ok(())
}

const _: () = assert!(3 * (MAX_K as u64) < 1 << 31, "the GPU's counters are 31-bit");

/// [`check_game`]'s refusal.
const K_RANGE: &str = "k must lie in 1..=700000000";

/// The columns and rows of an `nx x ny` grid of tiles of `shape`; they must add up to less
/// than 2^32 (the diagonal index `x - y + rows` is a 32-bit word).
pub(crate) fn region(nx: u32, ny: u32, shape: Shape) -> Result<(u64, u64), GpuError> {
    let (w, h) = (u64::from(nx) * u64::from(shape.width), u64::from(ny) * u64::from(shape.height()));
    if w + h >= 1 << 32 {
        return Err(GpuError::Job(
            "the board's width and height, rounded up to whole tiles, must add up to less than 2^32",
        ));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_refusal_names_the_engines_bound() {
        assert_eq!(super::K_RANGE, format!("k must lie in 1..={}", super::MAX_K));
    }
}
