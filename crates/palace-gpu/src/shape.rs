//! The shape of a GPU tile: invocations per workgroup, rows per invocation, columns.

use std::fmt;

/// The shape of a tile: `lanes` invocations of a workgroup, each computing `rows` rows, over
/// `width` columns. A tile is `width` x `lanes * rows` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Invocations per workgroup (1 to 64).
    pub lanes: u32,
    /// Rows per invocation (1 to 32).
    pub rows: u32,
    /// Columns per tile (1 to 512).
    pub width: u32,
}

impl Default for Shape {
    fn default() -> Self {
        Shape { lanes: 64, rows: 4, width: 256 }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.lanes, self.rows, self.width)
    }
}

impl Shape {
    /// Rows per tile.
    pub fn height(&self) -> u32 {
        self.lanes * self.rows
    }

    /// Where the board's cell `(x, y)` lies in its tile's cells as a sweep sends them back
    /// ([`KeptTile::cells`](crate::KeptTile::cells): column by column, [`Shape::height`] a column).
    pub fn cell_index(&self, x: u64, y: u32) -> usize {
        let h = self.height();
        (x % u64::from(self.width)) as usize * h as usize + (y % h) as usize
    }
}
