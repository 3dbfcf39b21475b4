//! Boards and windows: which game (k), how large a board, and which half-open rectangle
//! `[x0, x1) x [y0, y1)` of it to compute and hand out. A [`Board`] and a [`Window`] are valid
//! by construction: their fields are private and their constructors, in
//! [`crate::model::bounds`], check them, so that no layer below checks them again. [`Corners`]
//! are four numbers as given, before they are checked.

use std::fmt;
use std::str::FromStr;

/// Largest board side accepted (2^30): keeps every coordinate sum inside `i64`/`u64` with room
/// to spare and every row inside memory.
pub const MAX_SIDE: u32 = 1 << 30;

/// A game and the board it is drawn on: `1 <= k <= MAX_K`, sides from 1 to [`MAX_SIDE`]
/// ([`Board::new`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub(crate) k: u32,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

impl Board {
    /// The blocking number: the player who just moved may block `k - 1` moves.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The whole board as a window.
    pub fn full(&self) -> Window {
        Window { x0: 0, y0: 0, x1: self.width, y1: self.height }
    }
}

/// A half-open rectangle `[x0, x1) x [y0, y1)` of cells, `x` the column and `y` the row: at
/// least one cell, within [`MAX_SIDE`] ([`Window::new`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    pub(crate) x0: u32,
    pub(crate) y0: u32,
    pub(crate) x1: u32,
    pub(crate) y1: u32,
}

impl Window {
    /// First column.
    pub fn x0(&self) -> u32 {
        self.x0
    }

    /// First row.
    pub fn y0(&self) -> u32 {
        self.y0
    }

    /// One past the last column.
    pub fn x1(&self) -> u32 {
        self.x1
    }

    /// One past the last row.
    pub fn y1(&self) -> u32 {
        self.y1
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

    /// The board `[0, x1) x [0, y1)` this window depends on.
    pub fn region(&self) -> Window {
        Window { x0: 0, y0: 0, x1: self.x1, y1: self.y1 }
    }

    #[cfg(test)]
    /// The cells this window shares with `other`, if any.
    pub(crate) fn intersect(&self, other: &Window) -> Option<Window> {
        let (x0, x1) = (self.x0.max(other.x0), self.x1.min(other.x1));
        let (y0, y1) = (self.y0.max(other.y0), self.y1.min(other.y1));
        (x0 < x1 && y0 < y1).then_some(Window { x0, y0, x1, y1 })
    }

    /// The window's four numbers.
    pub fn corners(&self) -> Corners {
        Corners { x0: self.x0, y0: self.y0, x1: self.x1, y1: self.y1 }
    }
}

impl From<Window> for crate::error::Value {
    fn from(w: Window) -> Self {
        crate::error::Value::Window([w.x0, w.y0, w.x1, w.y1])
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.corners().fmt(f)
    }
}

/// Four numbers `x0, y0, x1, y1` as given (on a command line, by a caller), not yet checked: a
/// [`Window`] once [`Window::new`] or [`Board::window`] accepts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Corners {
    /// First column.
    pub x0: u32,
    /// First row.
    pub y0: u32,
    /// One past the last column.
    pub x1: u32,
    /// One past the last row.
    pub y1: u32,
}

impl fmt::Display for Corners {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{},{}", self.x0, self.y0, self.x1, self.y1)
    }
}

impl FromStr for Corners {
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
        Ok(Corners { x0: v[0], y0: v[1], x1: v[2], y1: v[3] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_check() {
        let b = Board::new(5, 30, 20).unwrap();
        let c: Corners = "1,2,30,20".parse().unwrap();
        assert_eq!(c, Corners { x0: 1, y0: 2, x1: 30, y1: 20 });
        assert_eq!(b.window(c).unwrap(), Window::new(1, 2, 30, 20).unwrap());
        assert!("1,2,3".parse::<Corners>().is_err());
        assert!("a,2,3,4".parse::<Corners>().is_err());
        let e = b.window(Corners { x0: 0, y0: 0, x1: 31, y1: 5 }).unwrap_err().to_string();
        assert!(e.contains("x1 <= 30"), "{e}");
        let e = b.window(Corners { x0: 3, y0: 0, x1: 3, y1: 5 }).unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        assert!(Window::new(0, 0, MAX_SIDE + 1, 1).is_err());
        assert!(Board::new(0, 3, 3).is_err());
        assert!(Board::new(3, 0, 3).is_err());
        let w = Window::new(2, 3, 10, 20).unwrap();
        assert_eq!(w.intersect(&Window::new(5, 0, 40, 4).unwrap()), Some(Window::new(5, 3, 10, 4).unwrap()));
        assert_eq!(w.intersect(&Window::new(10, 0, 40, 4).unwrap()), None);
    }
}
