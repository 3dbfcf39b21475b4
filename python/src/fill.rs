//! The values of a window as one array: a [`RowSink`] that copies the engine's rows into a
//! row-major buffer, with the hood's cells made exact through [`Row::v`] (the engine stores
//! them clamped to 8 bits; `docs/rule.md`, "The hood"), or only their signs (palaces).

use palace::Window;
use palace::engine::sink::{Row, RowParts, RowSink};
use palace::model::rule::{hood_value, in_hood};

/// The element type of a values array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// `int8`: every value of the window fits.
    I8,
    /// `int32`: holds every palace number (the library bounds k so that they fit).
    I32,
}

/// The smallest value of `window` in game `k` lies at its corner `(x0, y0)`: outside the hood
/// values fit 8 bits (the engine refuses a run where one does not), and inside it the value
/// `max(x, y) + 2 min(x, y) - k` grows with `x` and `y`. Returns that value when it does not
/// fit `int8`.
pub fn too_low_for_i8(k: u32, window: Window) -> Option<i64> {
    let (x, y) = (u64::from(window.x0()), u64::from(window.y0()));
    let v = if in_hood(k, x, y) { hood_value(k, x, y) } else { 0 };
    (v < i64::from(i8::MIN)).then_some(v)
}

/// What a [`Fill`] stores for a cell.
pub trait Cell: Copy + Default + Send {
    /// The cell `i` of `row`.
    fn of(row: &Row<'_>, i: usize) -> Self;
    /// From the engine's store, outside the hood (exact there).
    fn stored(c: i8) -> Self;
}

impl Cell for i8 {
    fn of(row: &Row<'_>, i: usize) -> Self {
        i8::try_from(row.v(i)).expect("checked by too_low_for_i8 before the sweep")
    }
    fn stored(c: i8) -> Self {
        c
    }
}

impl Cell for i32 {
    fn of(row: &Row<'_>, i: usize) -> Self {
        i32::try_from(row.v(i)).expect("palace numbers fit int32 for every k the library accepts")
    }
    fn stored(c: i8) -> Self {
        i32::from(c)
    }
}

/// A palace: `v < 0`. The engine's store keeps the sign of every cell, the hood's included.
impl Cell for bool {
    fn of(row: &Row<'_>, i: usize) -> Self {
        row.cells[i] < 0
    }
    fn stored(c: i8) -> Self {
        c < 0
    }
}

/// Collects the window's cells, row-major, as `T`.
pub struct Fill<T> {
    /// The cells; `width * height` of them.
    pub cells: Vec<T>,
    width: usize,
    y0: u32,
}

impl<T: Cell> Fill<T> {
    /// A buffer for `window`.
    pub fn new(window: Window) -> Self {
        let n = usize::try_from(window.cells()).expect("the window fits the address space");
        Fill { cells: vec![T::default(); n], width: window.width() as usize, y0: window.y0() }
    }

    fn row_slice(&mut self, y: u32) -> &mut [T] {
        let at = (y - self.y0) as usize * self.width;
        &mut self.cells[at..at + self.width]
    }
}

impl<T: Cell> RowSink for Fill<T> {
    type Error = palace::Error;

    fn row(&mut self, row: &Row<'_>) -> palace::Result<()> {
        let hood = row.hood_cells();
        let out = self.row_slice(row.y);
        for (i, o) in out.iter_mut().enumerate().take(hood) {
            *o = T::of(row, i);
        }
        for (o, &c) in out[hood..].iter_mut().zip(&row.cells[hood..]) {
            *o = T::stored(c);
        }
        Ok(())
    }

    fn takes_parts(&self) -> bool {
        true
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> palace::Result<()> {
        let hood = row.hood_cells();
        if hood > 0 {
            // Rows through the hood are few (fewer than k): assemble them.
            let cells = row.parts.concat();
            return self.row(&Row { k: row.k, y: row.y, x0: row.x0, cells: &cells });
        }
        let out = self.row_slice(row.y);
        let mut at = 0;
        for part in row.parts {
            for (o, &c) in out[at..at + part.len()].iter_mut().zip(part.iter()) {
                *o = T::stored(c);
            }
            at += part.len();
        }
        Ok(())
    }
}
