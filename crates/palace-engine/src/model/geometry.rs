//! Boards and windows: which game (k), how large a board, and which half-open rectangle
//! `[x0, x1) x [y0, y1)` of it to compute and hand out. Their validation, with the typed errors
//! every caller words in its own terms, is in [`crate::model::bounds`].

use std::fmt;
use std::str::FromStr;

/// Largest board side accepted (2^30): keeps every coordinate sum inside `i64`/`u64` with room
/// to spare and every row inside memory.
pub const MAX_SIDE: u32 = 1 << 30;

/// A game and the board it is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The blocking number: the player who just moved may block `k - 1` moves.
    pub k: u32,
    /// Number of columns.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
}

impl Board {
    /// The whole board as a window.
    pub fn full(&self) -> Window {
        Window { x0: 0, y0: 0, x1: self.width, y1: self.height }
    }
}

/// A half-open rectangle `[x0, x1) x [y0, y1)` of cells; `x` is the column, `y` the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    /// First column.
    pub x0: u32,
    /// First row.
    pub y0: u32,
    /// One past the last column.
    pub x1: u32,
    /// One past the last row.
    pub y1: u32,
}

impl Window {
    /// Builds a window from its corners.
    pub fn new(x0: u32, y0: u32, x1: u32, y1: u32) -> Self {
        Window { x0, y0, x1, y1 }
    }

    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.x1 - self.x0
    }

    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.y1 - self.y0
    }

    /// Number of cells.
    pub fn cells(&self) -> u64 {
        u64::from(self.width()) * u64::from(self.height())
    }

    /// The mirror image in the main diagonal: rows and columns exchanged.
    pub fn transposed(&self) -> Self {
        Window { x0: self.y0, y0: self.x0, x1: self.y1, y1: self.x1 }
    }

    /// Whether `(x, y)` lies inside.
    pub fn contains(&self, x: u64, y: u64) -> bool {
        x >= u64::from(self.x0) && x < u64::from(self.x1) && y >= u64::from(self.y0) && y < u64::from(self.y1)
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{},{}", self.x0, self.y0, self.x1, self.y1)
    }
}

impl FromStr for Window {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(format!("expected four numbers x0,y0,x1,y1 (half-open), got {:?}", s));
        }
        let mut v = [0u32; 4];
        for (slot, p) in v.iter_mut().zip(&parts) {
            *slot =
                p.parse().map_err(|_| format!("{p:?} is not a non-negative whole number in x0,y0,x1,y1"))?;
        }
        Ok(Window::new(v[0], v[1], v[2], v[3]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_check() {
        let b = Board::new(5, 30, 20).unwrap();
        let w: Window = "1,2,30,20".parse().unwrap();
        assert_eq!(w, Window::new(1, 2, 30, 20));
        b.check_window(&w).unwrap();
        assert!("1,2,3".parse::<Window>().is_err());
        assert!("a,2,3,4".parse::<Window>().is_err());
        let e = b.check_window(&Window::new(0, 0, 31, 5)).unwrap_err().to_string();
        assert!(e.contains("x1 <= 30"), "{e}");
        let e = b.check_window(&Window::new(3, 0, 3, 5)).unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        assert!(Board::new(0, 3, 3).is_err());
        assert!(Board::new(3, 0, 3).is_err());
    }
}
