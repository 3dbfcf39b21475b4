//! The reference labeller: one lockstep sweep of the four games from row 0 and column 0.

use super::classify::{
    BlockStats, F_HOOD, F_LOWER, F_OUTER, F_PER_LOWER, F_PER_UPPER, F_PLUS3, F_UNTESTABLE, F_UPPER, REST,
    block_label, refine_block, rift_flags, rift_testable, split_rest, to_side,
};
use super::region::{BLOCK, HALO, INNER_WINDOW, Region};
use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::{Lane, lockstep};
use crate::engine::sink::Row;
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::rule::hood_len;

/// The four games the labels need, over `[0, x1) x [0, y1)`: `k`, `k+1` shifted (1, 0),
/// `k+1` shifted (0, 1), `k+3` shifted (1, 1).
pub fn lanes(k: u32, x1: u32, y1: u32) -> Result<[Lane; 4]> {
    let w = |dx: u32, dy: u32| Window::new(dx, dy, x1 + dx, y1 + dy);
    Ok([
        Lane { k, window: w(0, 0)? },
        Lane { k: k + 1, window: w(1, 0)? },
        Lane { k: k + 1, window: w(0, 1)? },
        Lane { k: k + 3, window: w(1, 1)? },
    ])
}

/// A labelled row of the game `k`, from column 0.
pub struct LabelledRow<E> {
    /// The row.
    pub y: u32,
    /// The engine's cells of the row (hood cells as their stand-in), from column 0.
    pub cells: Vec<i8>,
    /// The region of every cell.
    pub labels: Vec<Region>,
    /// What the caller attached to the row.
    pub extra: E,
}

/// Streams rows of the four [`lanes`] (from row 0, column 0) and hands out labelled rows, a
/// block of rows at a time.
pub struct Labeler<E> {
    k: u32,
    width: usize,
    /// The last `HALO + 1` rows of game k (for the rift's period reaching 81 rows up).
    ring: Vec<Vec<i8>>,
    col_zero: Vec<bool>,
    /// Per column, the palaces among its last `INNER_WINDOW` rows.
    col_pal: Vec<u32>,
    pending: Vec<(u32, Vec<i8>, E)>,
    /// The flags of the pending rows, row after row.
    flags: Vec<u16>,
    /// The block labels of the previous block row.
    above: Vec<u8>,
    /// Per column, the last row with a fabric cell.
    last_fab_col: Vec<Option<u64>>,
}

impl<E> Labeler<E> {
    /// A labeller for game `k` on rows `width` wide.
    pub fn new(k: u32, width: usize) -> Self {
        Labeler {
            k,
            width,
            ring: vec![vec![0; width]; HALO + 1],
            col_zero: vec![true; width],
            col_pal: vec![0; width],
            pending: Vec::with_capacity(BLOCK),
            flags: Vec::with_capacity(BLOCK * width),
            above: Vec::new(),
            last_fab_col: vec![None; width],
        }
    }

    /// Adds the next row of each of the four games (in [`lanes`] order) with `extra`
    /// attached; returns the rows whose labels are now decided.
    pub fn push(&mut self, rows: &[Row<'_>], extra: E) -> Vec<LabelledRow<E>> {
        let [a, up, lo, p3] = rows else { panic!("four lanes") };
        let (k, n) = (self.k, self.width);
        let y = a.y;
        let yy = u64::from(y);
        let hood = (hood_len(k, yy) as usize).min(n);
        let ring_len = self.ring.len() as u32;
        // ring[y % len] will hold this row; row y - d is at (y + len - d) % len.
        let back = |d: usize| ((y + ring_len - d as u32) % ring_len) as usize;
        // The inner sector's square: palaces per column over the last INNER_WINDOW rows.
        let gone = back(INNER_WINDOW);
        for x in 0..n {
            let (now, old) = (a.cells[x] < 0, self.ring[gone][x] < 0);
            self.col_pal[x] = self.col_pal[x] + u32::from(now) - u32::from(old);
        }
        let mut pal = 0u32;
        let mut row_zero = yy >= u64::from(k);
        // Where any of the four games is in its hood, compare exact palace numbers; beyond,
        // the lanes' stored values compare directly (N_{k+d} = N_k + d <=> equal values).
        let exact = [a, up, lo, p3].iter().map(|r| r.hood_cells()).max().unwrap_or(0);
        // Hood widths of the rows the period partners lie in.
        let hood_of = |dy: u32| if y >= dy { hood_len(k, yy - u64::from(dy)) as usize } else { usize::MAX };
        let partner_hood = [hood_of(1), hood_of(3), hood_of(5), hood_of(4)];
        let (t_up, t_lo) = rift_testable(k, yy);
        for x in 0..n {
            // The square's palaces: columns x - INNER_WINDOW + 1 ..= x.
            pal += self.col_pal[x];
            if x >= INNER_WINDOW {
                pal -= self.col_pal[x - INNER_WINDOW];
            }
            let v = a.cells[x];
            let mut f = 0u16;
            if x < hood {
                f |= F_HOOD;
            } else {
                if x as u64 >= u64::from(k) {
                    self.col_zero[x] &= v == 0;
                    if self.col_zero[x] {
                        f |= F_OUTER;
                    }
                }
                row_zero &= v == 0;
                if row_zero {
                    f |= F_OUTER;
                }
                let (mu, ml, m3) = if x < exact {
                    let na = a.palace_number(x);
                    (
                        up.palace_number(x) == na + 1,
                        lo.palace_number(x) == na + 1,
                        p3.palace_number(x) == na + 3,
                    )
                } else {
                    (up.cells[x] == v, lo.cells[x] == v, p3.cells[x] == v)
                };
                f |= if mu { F_UPPER } else { 0 }
                    | if ml { F_LOWER } else { 0 }
                    | if m3 { F_PLUS3 } else { 0 };
                // Both épaulettes' periods, when their partners are on the board and off the hood.
                let off_hood = |dx: usize, i: usize| x >= dx && x - dx >= partner_hood[i];
                if off_hood(5, 0) && off_hood(4, 1) && off_hood(1, 2) && off_hood(3, 3) {
                    let (a1, a2) = (self.ring[back(1)][x - 5], self.ring[back(3)][x - 4]);
                    let (b1, b2) = (self.ring[back(5)][x - 1], self.ring[back(4)][x - 3]);
                    if v.abs() <= 1 && a1 == v && a2 == v {
                        f |= F_PER_LOWER;
                    }
                    if v.abs() <= 1 && b1 == v && b2 == v {
                        f |= F_PER_UPPER;
                    }
                } else {
                    f |= F_UNTESTABLE;
                }
                let ring = &self.ring;
                f |= rift_flags(v, x as u64, t_up, t_lo, |dx, dy| ring[back(dy)][x - dx], pal);
            }
            self.flags.push(f);
        }
        self.ring[back(0)].copy_from_slice(a.cells);
        self.pending.push((y, a.cells.to_vec(), extra));
        if self.pending.len() == BLOCK { self.decide() } else { Vec::new() }
    }

    /// Decides the labels of the rows still pending (at the end of the sweep).
    pub fn finish(&mut self) -> Vec<LabelledRow<E>> {
        if self.pending.is_empty() { Vec::new() } else { self.decide() }
    }

    fn decide(&mut self) -> Vec<LabelledRow<E>> {
        let n = self.width;
        let rows = self.pending.len();
        let blocks = n.div_ceil(BLOCK);
        let mut block_labels = vec![REST; blocks];
        let y0 = self.pending[0].0;
        let y_mid = 2 * u64::from(y0) + rows as u64;
        let mut labels = vec![0u8; rows * n];
        for (bi, bx) in (0..n).step_by(BLOCK).enumerate() {
            let xs = bx..(bx + BLOCK).min(n);
            let mut s = BlockStats::new();
            for (r, (_, cells, _)) in self.pending.iter().enumerate() {
                for x in xs.clone() {
                    s.add(self.flags[r * n + x], cells[x]);
                }
            }
            let upper_side = 2 * bx as u64 + (xs.end - xs.start) as u64 >= y_mid;
            let left =
                to_side(bi.checked_sub(1).map(|b| block_labels[b]), bx == y0 as usize + BLOCK, upper_side);
            let above = to_side(self.above.get(bi).copied(), bx + BLOCK == y0 as usize, upper_side);
            let label = block_label(&s.facts(), upper_side, left, above);
            block_labels[bi] = label;
            refine_block(
                label,
                left,
                above,
                (bx as u64, u64::from(y0)),
                (rows, xs.len()),
                &self.flags[bx..],
                n,
                &mut labels[bx..],
                n,
            );
        }
        for r in 0..rows {
            let mut last_fab = None;
            split_rest(
                &mut labels[r * n..(r + 1) * n],
                &self.flags[r * n..(r + 1) * n],
                0,
                u64::from(y0) + r as u64,
                &mut last_fab,
                &mut self.last_fab_col,
            );
        }
        self.above = block_labels;
        self.flags.clear();
        self.pending
            .drain(..)
            .zip(labels.chunks(n))
            .map(|((y, cells, extra), l)| LabelledRow {
                y,
                cells,
                labels: l.iter().map(|&i| Region::from_index(i)).collect(),
                extra,
            })
            .collect()
    }
}

/// Labels `window` of game `k` and hands every labelled row to `f` (rows of the window only,
/// cells from column 0). `extra_lanes` are swept in the same lockstep (over rows from 0, of the
/// same width `window.x1`); `extra` sees all rows of a step (the four label lanes first) and
/// its result travels with the labelled row.
pub fn label<E>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    mut extra: impl FnMut(&[Row<'_>]) -> E,
    mut f: impl FnMut(&LabelledRow<E>) -> Result<()>,
) -> Result<()> {
    let mut all: Vec<Lane> = lanes(k, window.x1(), window.y1())?.to_vec();
    all.extend_from_slice(extra_lanes);
    let mut lab = Labeler::new(k, window.x1() as usize);
    let mut emit = |rows: Vec<LabelledRow<E>>| -> Result<()> {
        for r in rows.iter().filter(|r| r.y >= window.y0()) {
            f(r)?;
        }
        Ok(())
    };
    lockstep(&all, opts, progress, |rows| {
        let e = extra(rows);
        emit(lab.push(&rows[..4], e))
    })?;
    emit(lab.finish())
}
