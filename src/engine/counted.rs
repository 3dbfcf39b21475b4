//! Tiles of a counter sweep ([`super::sweep_palaces`]): the three-counter form of
//! [`crate::kernel::counter`] wherever it is exact, the CA's paths elsewhere.
//!
//! Every tile is published as [`Tile::Edges`] with the counters leaving it (modulo 256) and
//! the CA values of its last two rows and columns: the counters feed the three-counter kernel
//! of the tiles to the right and below, the values feed the CA rule of those that need it.
//!
//! * A tile inside the hood: counters and values by the closed form (`docs/rule.md`, "The
//!   hood": every cell west, north and north-west of a hood cell is a palace).
//! * A quiet tile (its halo all 0, clear of the hood): no palaces, so every counter passes
//!   through unchanged.
//! * A tile clear of the hood and the corner whose halo lies in `-32..=31`: the counter
//!   kernel; if some value leaves that range (see the proof in [`crate::kernel::counter`])
//!   the tile goes down the exact path instead.
//! * Every other tile: computed by the CA ([`super::tile::compute_tile`]: narrow kernel or
//!   exact wide kernel with the closed form in the hood), and its leaving counters counted
//!   from its palaces cell by cell.

use super::tile::{Made, Neighbourhood, Scratch, Tile, compute_tile, within};
use crate::error::Result;
use crate::kernel::counter::{self, BIAS, CounterKernel, EdgeValues, Edges};
use crate::kernel::{Arrangement, BufPool, NarrowFn, TileBuf};
use crate::model::rule::{hood_sentinel, in_hood};
use std::sync::Arc;

/// A worker's buffers for counter tiles.
#[derive(Default)]
pub(crate) struct CounterScratch {
    lanes: counter::Scratch,
    values: EdgeValues,
}

/// `D'` where `D = d`: `D - k + BIAS` modulo 256.
fn dp(k: u32, d: u64) -> u8 {
    (d as u8).wrapping_sub(k as u8).wrapping_add(BIAS)
}

impl Neighbourhood<'_> {
    /// The leaving counters of a finished neighbour of a counter sweep.
    fn leaving(tile: Option<&Tile>) -> &Edges {
        match tile {
            Some(Tile::Edges { leaving: Some(e), .. }) => e,
            _ => unreachable!("a counter sweep publishes every tile with its leaving counters"),
        }
    }

    /// The counters entering this tile (see [`Edges`]): from the neighbours, and on the
    /// quadrant's edges `R = C = D = 0`.
    fn entering(&self) -> Edges {
        let r = self.rect();
        let k = self.layout.k;
        let (w, h) = (r.w(), r.h());
        let edge = dp(k, 0);
        let mut e = Edges { r: vec![0; h], d_left: vec![edge; h], c: vec![0; w], d_top: vec![edge; w] };
        if self.j > 0 {
            let left = Self::leaving(self.left);
            e.r.copy_from_slice(&left.r);
            e.d_left[1..].copy_from_slice(&left.d_left[..h - 1]);
        }
        if self.b > 0 {
            let above = Self::leaving(self.above);
            e.c.copy_from_slice(&above.c);
            e.d_top[1..].copy_from_slice(&above.d_top[..w - 1]);
            if self.j > 0 {
                let corner = Self::leaving(self.above_left);
                e.d_top[0] = *corner.d_top.last().expect("tiles are not empty");
            }
        }
        e.d_left[0] = e.d_top[0];
        e
    }
}

/// Computes one tile of a counter sweep; returns it, how it was made and its palaces.
pub(crate) fn compute(
    nb: &Neighbourhood<'_>,
    kernel: Option<CounterKernel>,
    narrow: Option<NarrowFn>,
    skip: bool,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
    cs: &mut CounterScratch,
) -> Result<(Tile, Made, u64)> {
    let r = nb.rect();
    let k = nb.layout.k;
    let (w, h) = (r.w(), r.h());
    let all = r.cells();
    if skip && in_hood(k, u64::from(r.x1 - 1), u64::from(r.y1 - 1)) {
        return Ok((hood_tile(k, &r), Made { hood: all, ..Made::default() }, all));
    }
    let mut e = nb.entering();
    let touches_corner = r.x0 < 2 && r.y0 < 2;
    let touches_hood = in_hood(k, u64::from(r.x0.saturating_sub(2)), u64::from(r.y0.saturating_sub(2)));
    if !touches_corner && !touches_hood {
        nb.halo8(&mut scratch.top8, &mut scratch.left8);
        let (top, left) = (&scratch.top8, &scratch.left8);
        if skip && top.iter().chain(left.iter()).fold(0, |acc, &v| acc | v) == 0 {
            pass_through(&mut e);
            let tile = Tile::Edges {
                bottom: vec![0; w * h.min(2)].into(),
                right: vec![0; h * w.min(2)].into(),
                leaving: Some(Box::new(e)),
            };
            return Ok((tile, Made { zero: all, ..Made::default() }, 0));
        }
        if let Some(kernel) = kernel
            && within(top, -(BIAS as i8), BIAS as i8 - 1)
            && within(left, -(BIAS as i8), BIAS as i8 - 1)
        {
            let entering = e.clone();
            let values = &mut cs.values;
            values.bottom.resize(2 * w, 0);
            values.right.resize(2 * h, 0);
            let out = kernel.tile_any(w, h, &mut e, values, &mut cs.lanes);
            if out.valid {
                let (bottom, right) = edge_values(w, h, values);
                let tile = Tile::Edges { bottom, right, leaving: Some(Box::new(e)) };
                return Ok((tile, Made { counter: all, ..Made::default() }, out.palaces));
            }
            e = entering;
        }
    }
    // The exact path: the CA computes the cells, the counters are counted from them.
    let (tile, made) = compute_tile(nb, narrow, Arrangement::Rows, skip, pool, scratch)?;
    let (bottom, right, palaces) = match &tile {
        Tile::Cells(cells) => {
            let palaces = through(cells, &mut e);
            let Tile::Edges { bottom, right, .. } = Tile::edges(cells) else {
                unreachable!("edges are edges")
            };
            (bottom, right, palaces)
        }
        // The CA's own classification agrees with the one above, so these do not occur; they
        // are handled all the same.
        Tile::Hood => return Ok((hood_tile(k, &r), made, all)),
        Tile::Zero => {
            pass_through(&mut e);
            (vec![0; w * h.min(2)].into(), vec![0; h * w.min(2)].into(), 0)
        }
        Tile::Edges { .. } | Tile::Aborted => unreachable!("compute_tile returns computed or filled tiles"),
    };
    Ok((Tile::Edges { bottom, right, leaving: Some(Box::new(e)) }, made, palaces))
}

/// A hood tile: every cell and every cell west, north and north-west of it is a palace, so
/// `R = x`, `C = y` and `D = min(x, y)` at any cell `(x, y)` on or just past its edges that the
/// hood's cells alone reach.
fn hood_tile(k: u32, r: &super::layout::Rect) -> Tile {
    let (x0, y0, x1, y1) = (u64::from(r.x0), u64::from(r.y0), u64::from(r.x1), u64::from(r.y1));
    let leaving = Edges {
        r: (y0..y1).map(|_| x1 as u8).collect(),
        d_left: (y0..y1).map(|y| dp(k, x1.min(y + 1))).collect(),
        c: (x0..x1).map(|_| y1 as u8).collect(),
        d_top: (x0..x1).map(|x| dp(k, (x + 1).min(y1))).collect(),
    };
    let stored = |x: u64, y: u64| hood_sentinel(k, x, y);
    let bottom =
        (y0.max(y1.saturating_sub(2))..y1).flat_map(|y| (x0..x1).map(move |x| stored(x, y))).collect();
    let right =
        (y0..y1).flat_map(|y| (x0.max(x1.saturating_sub(2))..x1).map(move |x| stored(x, y))).collect();
    Tile::Edges { bottom, right, leaving: Some(Box::new(leaving)) }
}

/// The leaving counters of a tile without palaces: every counter passes through; `D'` leaves
/// a cell with the value its diagonal entered the tile with.
fn pass_through(e: &mut Edges) {
    let (w, h) = (e.c.len(), e.r.len());
    let (top, left) = (e.d_top.clone(), e.d_left.clone());
    // The diagonal through (row, col) entered at (row - m, col - m), m = min(row, col).
    let entered = |row: usize, col: usize| if col >= row { top[col - row] } else { left[row - col] };
    e.d_top = (0..w).map(|col| entered(h - 1, col)).collect();
    e.d_left = (0..h).map(|row| entered(row, w - 1)).collect();
}

/// Counts a computed tile's palaces into the counters `e` (entering on call, leaving on
/// return) cell by cell; returns the palaces.
fn through(cells: &TileBuf, e: &mut Edges) -> u64 {
    let (w, h) = (cells.width(), cells.height());
    let mut palaces = 0u64;
    // D' entering each cell of the current row.
    let mut d_cur = e.d_top.clone();
    let mut d_next = vec![0u8; w];
    for row in 0..h {
        if row > 0 {
            d_cur[0] = e.d_left[row];
        }
        let mut rr = e.r[row];
        for (col, &v) in cells.row(row).iter().enumerate() {
            let p = u8::from(v < 0);
            palaces += u64::from(p);
            rr = rr.wrapping_add(p);
            e.c[col] = e.c[col].wrapping_add(p);
            let d_out = d_cur[col].wrapping_add(p);
            if col + 1 < w {
                d_next[col + 1] = d_out;
            } else {
                e.d_left[row] = d_out;
            }
            if row + 1 == h {
                e.d_top[col] = d_out;
            }
        }
        e.r[row] = rr;
        std::mem::swap(&mut d_cur, &mut d_next);
    }
    palaces
}

/// The kernel's edge values in the layout of [`Tile::Edges`] (its last `min(2, h)` rows, its
/// last `min(2, w)` columns of each row).
fn edge_values(w: usize, h: usize, v: &EdgeValues) -> (Box<[i8]>, Box<[i8]>) {
    let bottom = v.bottom[(2 - h.min(2)) * w..2 * w].into();
    let right = (0..h).flat_map(|row| v.right[2 * row + 2 - w.min(2)..2 * row + 2].iter().copied()).collect();
    (bottom, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_through_equals_counting_no_palaces() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (7, 3), (3, 7), (6, 6)] {
            let mut e = Edges {
                r: (0..h as u8).collect(),
                d_left: (0..h as u8).map(|i| 100 + i).collect(),
                c: (0..w as u8).map(|i| 50 + i).collect(),
                d_top: (0..w as u8).map(|i| 200 + i).collect(),
            };
            e.d_left[0] = e.d_top[0];
            let mut want = e.clone();
            let zeros = TileBuf::new(w, h);
            assert_eq!(through(&zeros, &mut want), 0);
            pass_through(&mut e);
            assert_eq!(e, want, "{w}x{h}");
        }
    }

    #[test]
    fn hood_tiles_leave_the_counters_of_the_definition() {
        let k = 300;
        for (x0, y0, w, h) in
            [(0, 0, 40, 30), (40, 30, 50, 20), (0, 90, 10, 60), (150, 0, 30, 2), (60, 60, 1, 1)]
        {
            let r = super::super::layout::Rect { x0, y0, x1: x0 + w, y1: y0 + h };
            assert!(in_hood(k, u64::from(r.x1 - 1), u64::from(r.y1 - 1)), "a hood tile");
            let Tile::Edges { leaving: Some(e), .. } = hood_tile(k, &r) else { unreachable!() };
            let (x0, y0, w, h) = (x0 as usize, y0 as usize, w as usize, h as usize);
            let right = counter::entering_by_definition(k, x0 + w, y0, 1, h);
            let below = counter::entering_by_definition(k, x0, y0 + h, w + 1, 1);
            let below_right = counter::entering_by_definition(k, x0 + w, y0 + 1, 1, h);
            assert_eq!(e.r, right.r);
            assert_eq!(e.c, below.c[..w]);
            assert_eq!(e.d_top, below.d_top[1..]);
            assert_eq!(e.d_left, below_right.d_left);
        }
    }
}
