//! The one interface between the sweep and everything that consumes it.
//!
//! The engine hands finished rows of the window to a [`RowSink`], in order, row 0 of the
//! window first. A [`Row`] holds the window's cells of one row in the engine's compact 8-bit
//! store: exact outside the hood, and a sign-preserving stand-in inside the hood, whose exact
//! values follow from the closed form (`docs/rule.md`, "The hood") through [`Row::v`]. The PNG writer, the
//! statistics, the `.npy` writer and the analyses are all sinks, so each new analysis plugs
//! into the same sweep.

use crate::error::{Error, Result};
use crate::model::rule::{hood_len, hood_value};

/// One finished row of the window.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The game.
    pub k: u32,
    /// The row's index on the board.
    pub y: u32,
    /// The board column of `cells[0]` (the window's `x0`).
    pub x0: u32,
    /// The window's cells of this row. Exact outside the hood; inside the hood the value is
    /// clamped to `i8` (still negative: a palace).
    pub cells: &'a [i8],
}

impl Row<'_> {
    /// How many leading cells of `cells` lie in the hood.
    #[inline]
    pub fn hood_cells(&self) -> usize {
        let end = hood_len(self.k, u64::from(self.y));
        (end.saturating_sub(u64::from(self.x0)) as usize).min(self.cells.len())
    }

    /// The exact CA value `v = N - k` of `cells[i]`.
    #[inline]
    pub fn v(&self, i: usize) -> i64 {
        if i < self.hood_cells() {
            hood_value(self.k, u64::from(self.x0) + i as u64, u64::from(self.y))
        } else {
            i64::from(self.cells[i])
        }
    }

    /// The exact palace number `N = v + k` of `cells[i]`.
    #[inline]
    pub fn palace_number(&self, i: usize) -> i64 {
        self.v(i) + i64::from(self.k)
    }
}

/// One finished row of the window in pieces, as the engine's tiles hold it: `parts` are the
/// consecutive column ranges of the row, left to right, borrowed from the tiles where they
/// store them as one run (see [`RowSink::takes_parts`]).
#[derive(Debug, Clone, Copy)]
pub struct RowParts<'a> {
    /// The game.
    pub k: u32,
    /// The row's index on the board.
    pub y: u32,
    /// The board column of the first cell of the first part.
    pub x0: u32,
    /// The cells, in pieces; stored as in [`Row::cells`].
    pub parts: &'a [&'a [i8]],
}

impl RowParts<'_> {
    /// Cells in all parts.
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    /// Whether the row has no cells.
    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(|p| p.is_empty())
    }

    /// How many leading cells lie in the hood.
    #[inline]
    pub fn hood_cells(&self) -> usize {
        let end = hood_len(self.k, u64::from(self.y));
        (end.saturating_sub(u64::from(self.x0)) as usize).min(self.len())
    }
}

/// A consumer of the rows of one sweep.
pub trait RowSink {
    /// What the sink fails with (the layer's own error type, into which the engine's
    /// converts): a sweep that a sink stops ends with the sink's error, unchanged.
    type Error: From<Error>;

    /// Receives the next row of the window (rows arrive in order, top first). `row.x0` is the
    /// column of `row.cells[0]`.
    fn row(&mut self, row: &Row<'_>) -> Result<(), Self::Error>;

    /// Asked before each band of rows `y0 .. y0 + rows`: the columns `[x0, x1)` this sink
    /// needs from them (clamped to the window). `None`, the default, means the whole window;
    /// a sink that follows a narrow feature saves assembling the rest of every row.
    fn columns(&mut self, _y0: u32, _rows: u32) -> Option<(u32, u32)> {
        None
    }

    /// Whether this sink takes rows in pieces ([`RowSink::row_parts`]) rather than assembled.
    /// In pieces, the engine hands over the tiles' own memory and skips copying every cell
    /// into a row buffer (for full-resolution pictures that copy costs as much as a third of
    /// the sweep).
    fn takes_parts(&self) -> bool {
        false
    }

    /// Receives the next row in pieces (only called when [`RowSink::takes_parts`] says so).
    /// The default assembles the row and passes it to [`RowSink::row`].
    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<(), Self::Error> {
        let cells = row.parts.concat();
        self.row(&Row { k: row.k, y: row.y, x0: row.x0, cells: &cells })
    }
}

impl<S: RowSink + ?Sized> RowSink for &mut S {
    type Error = S::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<(), S::Error> {
        (**self).row(row)
    }

    fn columns(&mut self, y0: u32, rows: u32) -> Option<(u32, u32)> {
        (**self).columns(y0, rows)
    }

    fn takes_parts(&self) -> bool {
        (**self).takes_parts()
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<(), S::Error> {
        (**self).row_parts(row)
    }
}

/// Collects the exact values of the whole window, row-major. Memory grows with the window's
/// area: for tests and small windows only.
#[derive(Debug, Default, Clone)]
pub struct Collect {
    /// The values, row-major.
    pub values: Vec<i64>,
    /// Rows received.
    pub rows: usize,
    /// The board row of every row received, to check ordering.
    pub ys: Vec<u32>,
}

impl RowSink for Collect {
    type Error = Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.values.extend((0..row.cells.len()).map(|i| row.v(i)));
        self.rows += 1;
        self.ys.push(row.y);
        Ok(())
    }
}

/// A sink of another layer seen by the sweep as a sink of the engine's errors: its first
/// error is kept, and the sweep is stopped with [`Error::Aborted`] in its place, so that
/// [`Sweep::rows`](crate::engine::Sweep::rows) hands the sink's own error back.
pub(crate) struct Keeps<'s, S: RowSink + ?Sized> {
    pub(crate) sink: &'s mut S,
    pub(crate) failed: Option<S::Error>,
}

impl<S: RowSink + ?Sized> Keeps<'_, S> {
    fn keep(&mut self, r: Result<(), S::Error>) -> Result<()> {
        r.map_err(|e| {
            self.failed = Some(e);
            Error::Aborted
        })
    }
}

impl<S: RowSink + ?Sized> RowSink for Keeps<'_, S> {
    type Error = Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let r = self.sink.row(row);
        self.keep(r)
    }

    fn columns(&mut self, y0: u32, rows: u32) -> Option<(u32, u32)> {
        self.sink.columns(y0, rows)
    }

    fn takes_parts(&self) -> bool {
        self.sink.takes_parts()
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<()> {
        let r = self.sink.row_parts(row);
        self.keep(r)
    }
}
