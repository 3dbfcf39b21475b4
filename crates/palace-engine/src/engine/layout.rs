//! How the computed region is cut into tiles: vertical strips of `tile_width` columns and
//! horizontal bands of `band_height` rows. Tile `(j, b)` is strip `j` of band `b`.
//!
//! A layout may be shifted by `(x_off, y_off)`: its boundaries then lie at `j * tile_width +
//! x_off` and `b * band_height + y_off`, the first strip and band being wider by the offset.
//! Several games swept together with shifted windows (`Sweep::lanes`) use this so that
//! tile `(j, b)` of each game holds the cells compared with tile `(j, b)` of the first.
//!
//! A layout may instead start at column `x_start >= 2` (a strip of a striped sweep,
//! `super::strips`): its tile 0 is then the **ghost** `[x_start - 2, x_start)`, the two columns
//! left of the strip that its halo reads, filled from the message of the strip to its left
//! and never computed; tiles `1..` are `tile_width` wide from `x_start` on.

use crate::model::geometry::Window;

/// One sweep of a lockstep group: game `k` over `window`. All windows must have the same size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lane {
    /// The game.
    pub k: u32,
    /// Its window.
    pub window: Window,
}

/// The tiling of the computed region `[0, width) x [0, height)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub k: u32,
    pub width: u32,
    pub height: u32,
    pub tile_width: u32,
    pub band_height: u32,
    /// Where the boundaries are shifted to (see the module's documentation).
    pub x_off: u32,
    pub y_off: u32,
    /// The first computed column (see the module's documentation); 0 but in strips.
    pub x_start: u32,
}

/// A tile's rectangle `[x0, x1) x [y0, y1)` in board coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Rect {
    pub fn w(&self) -> usize {
        (self.x1 - self.x0) as usize
    }
    pub fn h(&self) -> usize {
        (self.y1 - self.y0) as usize
    }
    pub fn cells(&self) -> u64 {
        self.w() as u64 * self.h() as u64
    }
}

impl Layout {
    /// Tiles must be at least two cells wide and tall: a tile's halo (two columns to the left,
    /// two rows above) then always lies in its immediate neighbours.
    pub fn new(k: u32, width: u32, height: u32, tile_width: u32, band_height: u32) -> Self {
        assert!(tile_width >= 2 && band_height >= 2, "tiles must be at least 2 x 2");
        Layout { k, width, height, tile_width, band_height, x_off: 0, y_off: 0, x_start: 0 }
    }

    /// The layout with its boundaries shifted by `(x_off, y_off)`, which must be less than the
    /// width and the height.
    pub fn shifted(self, x_off: u32, y_off: u32) -> Self {
        assert!(x_off < self.width && y_off < self.height, "offsets inside the region");
        Layout { x_off, y_off, ..self }
    }

    /// The layout of the columns `x_start..width` after a ghost tile of the two columns
    /// before them (see the module's documentation); `x_start` must be at least 2 and less
    /// than the width, and the layout not shifted.
    pub(crate) fn starting_at(self, x_start: u32) -> Self {
        assert!(x_start >= 2 && x_start < self.width, "a strip starts inside the region, past its halo");
        assert!(self.x_off == 0 && self.y_off == 0, "strips are not shifted");
        Layout { x_start, ..self }
    }

    pub fn strips(&self) -> usize {
        if self.x_start > 0 {
            return 1 + (self.width - self.x_start).div_ceil(self.tile_width) as usize;
        }
        (self.width - self.x_off).div_ceil(self.tile_width) as usize
    }

    pub fn bands(&self) -> usize {
        (self.height - self.y_off).div_ceil(self.band_height) as usize
    }

    pub(crate) fn strip_x(&self, j: usize) -> (u32, u32) {
        if self.x_start > 0 {
            let tw = self.tile_width;
            return match j {
                0 => (self.x_start - 2, self.x_start),
                _ => (self.x_start + (j as u32 - 1) * tw, (self.x_start + j as u32 * tw).min(self.width)),
            };
        }
        let x0 = if j == 0 { 0 } else { j as u32 * self.tile_width + self.x_off };
        (x0, ((j as u32 + 1) * self.tile_width + self.x_off).min(self.width))
    }

    pub(crate) fn band_y(&self, b: usize) -> (u32, u32) {
        let y0 = if b == 0 { 0 } else { b as u32 * self.band_height + self.y_off };
        (y0, ((b as u32 + 1) * self.band_height + self.y_off).min(self.height))
    }

    pub(crate) fn rect(&self, j: usize, b: usize) -> Rect {
        let (x0, x1) = self.strip_x(j);
        let (y0, y1) = self.band_y(b);
        Rect { x0, y0, x1, y1 }
    }

    /// The strip holding column `x`.
    pub(crate) fn strip_of(&self, x: u32) -> usize {
        if self.x_start > 0 {
            return if x < self.x_start { 0 } else { 1 + ((x - self.x_start) / self.tile_width) as usize };
        }
        (x.saturating_sub(self.x_off) / self.tile_width) as usize
    }
}

/// Default tile width for a region `width` columns wide swept by `threads` workers: wide
/// enough that the kernels' start-up cost is small, narrow enough that several strips exist
/// per worker so the staggered bands overlap.
pub(crate) fn default_tile_width(width: u32, threads: usize) -> u32 {
    let want = width.div_ceil(4 * threads.max(1) as u32);
    want.next_multiple_of(64).clamp(256, 2048)
}

/// Default band height: 128 rows (four 32-row blocks of the narrow kernels).
pub(crate) const DEFAULT_BAND_HEIGHT: u32 = 128;

/// Default tile width of counter sweeps: a multiple of 12 (every counter kernel's group
/// divides it), wide enough that the 31 passes a tile's lanes take to fill and drain are few
/// against its width, narrow enough for several strips per worker.
pub(crate) fn default_counter_tile_width(width: u32, threads: usize) -> u32 {
    let want = width / (4 * threads.max(1) as u32);
    (want - want % 12).clamp(384, 4092)
}

/// Default band height of counter sweeps: 64 rows per lane of the counter kernels.
pub(crate) const COUNTER_BAND_HEIGHT: u32 = 2048;

/// Tiles of counter sweeps that tally their values (statistics) are half as wide and half as
/// tall: a tile that could hold an extreme's first cell is computed again by the CA, and the
/// casing's exact parts are counted row by row, both costs that grow with the tile. On
/// k = 9999, 30000 x 30000, one thread, this took the statistics from about 0.12-0.2 to 0.08-0.1
/// CPU seconds (`palace stats`, a loaded machine; 3060 x 1024 measured the same).
pub(crate) fn default_tally_tile(width: u32, threads: usize) -> (u32, u32) {
    let w = default_counter_tile_width(width, threads) / 2;
    (w - w % 12, COUNTER_BAND_HEIGHT / 2)
}
