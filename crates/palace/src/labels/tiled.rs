//! The tiled labeller: the labels computed by the sweep's workers, tile by tile.
//!
//! The same labels as [`Labeler`](super::Labeler), from the aligned tiles of the three games of
//! [`tile_lanes`] ([`Sweep::lanes`](crate::engine::Sweep::lanes)). What a label needs beyond its tile travels
//! with the tiles as a wavefront state ([`LabelState`]): the last 81 rows and columns of game k
//! (the lower rift's period partner reaches 81 rows up, the upper one's 81 columns left, the
//! épaulettes' five, the inner sector's square 63), whether each column and row is still 0 from
//! the border (outer space), the block labels along the bottom and right edges (a block
//! continues or refines from the block to its left or above it), the last fabric cell of every
//! row and column (the fray), and the last row and column of game k+1 (the reference's two k+1
//! lanes are one lane's row above and column left). Tiles are cut on the 8 x 8 block grid, so
//! that every block lies in one tile.

use super::bytewise;
use super::classify::{
    BlockStats, F_HOOD, F_LOWER, F_OUTER, F_PER_LOWER, F_PER_UPPER, F_PLUS3, F_RIFT_LOWER, F_RIFT_UPPER,
    F_SMALL, F_UNTESTABLE, F_UPPER, HOOD, OUTER, REST, V_LE_M2, V_M1, V_NEG, V_P1, block_label, refine_block,
    refine_quick, rift_flags, rift_testable, to_side, value_bits,
};
use super::region::{BLOCK, FRAY_WIDTH, HALO, INNER_WINDOW, NONE, RIFT_DX, RIFT_DY, Region};
use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::Lane;
use crate::engine::{LaneState, LaneTiles, LaneVisitor, TileKind, TileView};
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use std::sync::Mutex;

/// The games the tiled labeller sweeps, over `[0, x1) x [0, y1)`: `k`, `k+1` shifted (1, 1)
/// and `k+3` shifted (1, 1). The reference's `k+1` shifted (1, 0) is the second lane one row
/// up, and `k+1` shifted (0, 1) the second lane one column left: the labeller takes both from
/// one sweep of `k+1`, with the row above and the column left of a tile from its neighbours.
fn tile_lanes(k: u32, x1: u32, y1: u32) -> Result<[Lane; 3]> {
    let w = |dx: u32, dy: u32| Window::new(dx, dy, x1 + dx, y1 + dy);
    Ok([
        Lane { k, window: w(0, 0)? },
        Lane { k: k + 1, window: w(1, 1)? },
        Lane { k: k + 3, window: w(1, 1)? },
    ])
}

/// A tile of game k with its labels, as [`label_tiles`] shows it.
pub struct LabelledTile<'a> {
    /// The band of tiles this tile belongs to.
    pub band: usize,
    /// Strips in a band.
    pub strips: usize,
    /// First column.
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    stride: usize,
    /// Game k's stored cells (with the `HALO` columns and rows before the tile).
    buf: &'a [i8],
    labels: &'a [u8],
    /// The labels of the row above the tile, columns `x0 - 1 .. x1` (`NONE` left of
    /// column 0), and of the column left of it, rows `y0 .. y1`; `None` on the board's edge.
    pub(crate) above_labels: Option<&'a [u8]>,
    pub(crate) left_labels: Option<&'a [u8]>,
    /// The extra lanes' views of this tile, aligned with it.
    pub extra: &'a [TileView<'a>],
}

impl LabelledTile<'_> {
    /// Game k's stored cells of row `y` (hood cells as their stand-in), columns `x0..x1`.
    pub fn cells(&self, y: u32) -> &[i8] {
        let r = (y - self.y0) as usize + HALO;
        &self.buf[r * self.stride + HALO..(r + 1) * self.stride]
    }

    /// The region index ([`Region::index`]) of every cell of row `y`, columns `x0..x1`.
    pub fn labels(&self, y: u32) -> &[u8] {
        let w = (self.x1 - self.x0) as usize;
        let r = (y - self.y0) as usize;
        &self.labels[r * w..(r + 1) * w]
    }
}

/// What a labelled tile leaves to the tiles below it and to its right.
struct LabelState {
    /// The last `HALO` rows of game k over columns `x0 - HALO .. x1`.
    bottom: Vec<i8>,
    /// The last `HALO` columns of game k, `HALO` per row.
    right: Vec<i8>,
    /// Per column: all 0 from row 0 down to the tile's last row.
    col_zero: Vec<bool>,
    /// Per row: all 0 from column 0 across to the tile's last column (rows `>= k` only).
    row_zero: Vec<bool>,
    /// The block labels of the tile's last block row and last block column.
    last_row: Vec<u8>,
    last_col: Vec<u8>,
    /// Per column, the rows from its last fabric cell to the tile's last row; per row, the
    /// columns from its last fabric cell to the tile's last column ([`bytewise::FAR`] for none
    /// or far).
    fab_col: Vec<u8>,
    fab_row: Vec<u8>,
    /// Game k+1 shifted (1, 1) (the second of [`tile_lanes`]): the tile's last row, and its
    /// last column.
    plus1_bottom: Vec<i8>,
    plus1_right: Vec<i8>,
}

/// What a visited tile leaves to its neighbours: the labeller's state, and the labels of its
/// last row (preceded by the label left of it) and last column, for the borders between tiles.
struct TileState {
    label: LabelState,
    bottom_labels: Vec<u8>,
    right_labels: Vec<u8>,
}

/// A worker's buffers.
#[derive(Default)]
struct TileScratch {
    buf: Vec<i8>,
    flags: Vec<u16>,
    labels: Vec<u8>,
    rows: [Vec<i8>; 4],
    blocks: Vec<u8>,
    /// Per column, the palaces among the `INNER_WINDOW` rows up to the current one.
    col_pal: Vec<u8>,
    /// Per cell of a row: the palaces in the inner sector's square (saturated), and scratch.
    sparse: Vec<u8>,
    near: Vec<u8>,
    tmp: Vec<u8>,
    /// A block row's per-column reductions.
    cols: bytewise::ColumnStats,
}

/// The state a neighbour left, if there is one.
fn tile_state(s: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<&TileState> {
    s.map(|s| s.downcast_ref::<TileState>().expect("a label state"))
}

/// The label state a neighbour left, if there is one.
fn label_state(s: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<&LabelState> {
    tile_state(s).map(|s| &s.label)
}

/// Row `y` of a lane's tile, as [`TileView::row_or`] gives it, except that a quiet tile's
/// zeros are written to `scratch` only once per tile (`ready` says they are there).
#[inline(always)]
pub(crate) fn lane_row<'s>(
    v: &'s TileView<'_>,
    y: u32,
    scratch: &'s mut Vec<i8>,
    ready: &mut bool,
) -> &'s [i8] {
    if matches!(v.kind, TileKind::Zero) {
        if !*ready {
            scratch.clear();
            scratch.resize((v.x1 - v.x0) as usize, 0);
            *ready = true;
        }
        return scratch;
    }
    v.row_or(y, scratch)
}

palace_engine::avx2_version! {
    /// Labels one tile of the three [`tile_lanes`] (`views[0..3]`); fills `sc.buf` (game k's cells
    /// with the `HALO` rows and columns before the tile) and `sc.labels`. The per-cell tests
    /// are written to vectorise.
    fn label_tile(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState = label_tile_body;
}

#[inline(always)]
fn label_tile_body(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState {
    let a = &t.views[0];
    let (x0, x1, y0, y1) = (a.x0, a.x1, a.y0, a.y1);
    let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
    let (above, left) = (label_state(t.above), label_state(t.left));
    let ww = w + HALO;
    let ku = u64::from(k);
    let TileScratch { buf, flags, labels, rows, blocks, col_pal, sparse, near, tmp, cols } = sc;
    // Game k's cells with the HALO rows above and HALO columns left of the tile. The buffers
    // are reused as they are: every value read is written first (zeroing them took a tenth
    // of the time).
    buf.resize((h + HALO) * ww, 0);
    match above {
        Some(ab) => buf[..HALO * ww].copy_from_slice(&ab.bottom),
        None => buf[..HALO * ww].fill(0),
    }
    let [ra, ru, rl, r3] = rows;
    // Game k+1 shifted (1, 1): row r is the shifted (0, 1) lane's row r one column on, and the
    // shifted (1, 0) lane's row r + 1.
    let p1 = &t.views[1];
    let mut zero_a = false;
    for r in 0..h {
        let line = &mut buf[(HALO + r) * ww..(HALO + 1 + r) * ww];
        match left {
            Some(l) => line[..HALO].copy_from_slice(&l.right[HALO * r..HALO * (r + 1)]),
            None => line[..HALO].fill(0),
        }
        line[HALO..].copy_from_slice(lane_row(a, y0 + r as u32, ra, &mut zero_a));
    }
    let mut col_zero = above.map_or_else(|| vec![true; w], |ab| ab.col_zero.clone());
    let row_zero_in = |r: usize| left.map_or(u64::from(y0) + r as u64 >= ku, |l| l.row_zero[r]);
    // A tile all in outer space or all in the hood takes that label whole: its blocks hold no
    // candidate cell (rest), no cell changes the zero runs of outer space, and no fabric cell
    // shortens the fray's distances.
    let whole = match a.kind {
        TileKind::Zero
            if hood_len(k, u64::from(y0)) <= u64::from(x0)
                && ((u64::from(x0) >= ku && col_zero.iter().all(|&z| z)) || (0..h).all(row_zero_in)) =>
        {
            Some(OUTER)
        }
        _ if u64::from(x1) <= hood_len(k, u64::from(y1 - 1)) => Some(HOOD),
        _ => None,
    };
    if let Some(l) = whole {
        labels.clear();
        labels.resize(w * h, l);
        let fab_col = match above {
            Some(ab) => ab.fab_col.iter().map(|&d| d.saturating_add(h.min(255) as u8)).collect(),
            None => vec![bytewise::FAR; w],
        };
        let fab_row = (0..h)
            .map(|r| {
                let d = left.map_or(bytewise::FAR, |l| l.fab_row[r]);
                if w > FRAY_WIDTH as usize { bytewise::FAR } else { (usize::from(d) + w).min(255) as u8 }
            })
            .collect();
        let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
        let row_zero = (0..h).map(row_zero_in).collect();
        return leave_state(
            buf,
            (w, h),
            col_zero,
            row_zero,
            (vec![REST; bw], vec![REST; bh]),
            (fab_col, fab_row),
            plus1_edges(&t.views[1], (w, h), (ru, rl)),
        );
    }
    let mut row_zero = Vec::with_capacity(h);
    flags.resize(w * h, 0);
    // Whether a lane's scratch row already holds the zeros of its quiet tile.
    let mut zero_rows = [false; 3];
    let mut plus1_right = Vec::with_capacity(h);
    let mut plus1_bottom = Vec::new();
    for r in 0..h {
        let y = y0 + r as u32;
        let yy = u64::from(y);
        let [zu, zl, z3] = &mut zero_rows;
        // `up`: k+1 at (x + 1, y), the lane's row above (the tile above's last row; row 0 of a
        // game is 0 past its hood). `lo` is k+1 at (x, y + 1): the lane's row shifted one
        // column, `lo(i) = this(i - 1)`, the first cell from the tile to the left (column 0 of
        // a game is 0 past its hood).
        let this = lane_row(p1, p1.y0 + r as u32, rl, zl);
        plus1_right.push(this[w - 1]);
        let up: &[i8] = if r > 0 {
            lane_row(p1, p1.y0 + r as u32 - 1, ru, zu)
        } else if let Some(ab) = above {
            &ab.plus1_bottom
        } else {
            ru.clear();
            ru.resize(w, 0);
            *zu = false;
            ru
        };
        let lo_first = left.map_or(0, |l| l.plus1_right[r]);
        let p3 = lane_row(&t.views[2], t.views[2].y0 + r as u32, r3, z3);
        let now = (HALO + r) * ww;
        let hood = hood_len(k, yy);
        let (hu, hl, h3) = (hood_len(k + 1, yy), hood_len(k + 1, yy + 1), hood_len(k + 3, yy + 1));
        // Where any of the four games is in its hood, exact palace numbers are compared.
        let exact = hood.max(hu.saturating_sub(1)).max(hl).max(h3.saturating_sub(1));
        // The épaulettes' period partners must be on the board and off the hood, and so must
        // the rift's.
        let ph = |d: u64, dx: u64| if yy >= d { hood_len(k, yy - d) + dx } else { u64::MAX };
        let testable = ph(1, 5).max(ph(3, 4)).max(ph(5, 1)).max(ph(4, 3));
        let (t_up, t_lo) = rift_testable(k, yy);
        let mut rz = row_zero_in(r);
        let lo = |i: usize| if i == 0 { lo_first } else { this[i - 1] };
        let f_row = &mut flags[r * w..(r + 1) * w];
        // Past the hoods and the untestable cells every cell is decided alike, branch-free
        // (below); before, cell by cell.
        // (At least the first cell, whose `lo` is the tile to the left's.)
        let fast = (hood.max(exact).max(testable).max(t_up).max(t_lo).max(u64::from(x0)) - u64::from(x0))
            .clamp(1, w as u64) as usize;
        for i in 0..fast {
            let x = u64::from(x0) + i as u64;
            if x < hood {
                f_row[i] = F_HOOD;
                continue;
            }
            let c = now + HALO + i;
            let v = buf[c];
            col_zero[i] &= v == 0;
            rz &= v == 0;
            let mut f = if (x >= ku && col_zero[i]) || rz { F_OUTER } else { 0 };
            let (mu, ml, m3) = if x < exact {
                let na = i64::from(v) + i64::from(k);
                let pn = |kk: u32, hl: u64, xx: u64, yy: u64, s: i8| {
                    (if xx < hl { hood_value(kk, xx, yy) } else { i64::from(s) }) + i64::from(kk)
                };
                (
                    pn(k + 1, hu, x + 1, yy, up[i]) == na + 1,
                    pn(k + 1, hl, x, yy + 1, lo(i)) == na + 1,
                    pn(k + 3, h3, x + 1, yy + 1, p3[i]) == na + 3,
                )
            } else {
                (up[i] == v, lo(i) == v, p3[i] == v)
            };
            f |= if mu { F_UPPER } else { 0 } | if ml { F_LOWER } else { 0 } | if m3 { F_PLUS3 } else { 0 };
            if x >= testable {
                // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4), in `buf`.
                let small = v.abs() <= 1;
                if small && buf[c - ww - 5] == v && buf[c - 3 * ww - 4] == v {
                    f |= F_PER_LOWER;
                }
                if small && buf[c - 5 * ww - 1] == v && buf[c - 4 * ww - 3] == v {
                    f |= F_PER_UPPER;
                }
            } else {
                f |= F_UNTESTABLE;
            }
            // The inner sector's square is looked at where the rest is split (F_SPARSE unused).
            f_row[i] =
                f | rift_flags(v, x, t_up, t_lo, |dx, dy| buf[c - dy * ww - dx], u32::MAX) | value_bits(v);
        }
        if fast < w {
            let n = w - fast;
            let c = now + HALO + fast;
            let v = &buf[c..c + n];
            // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4); the rift's
            // (x-81, y-31) and (x-31, y-81).
            let q1 = &buf[c - ww - 5..c - ww - 5 + n];
            let q3 = &buf[c - 3 * ww - 4..c - 3 * ww - 4 + n];
            let q5 = &buf[c - 5 * ww - 1..c - 5 * ww - 1 + n];
            let q4 = &buf[c - 4 * ww - 3..c - 4 * ww - 3 + n];
            let qu = &buf[c - RIFT_DY * ww - RIFT_DX..c - RIFT_DY * ww - RIFT_DX + n];
            let ql = &buf[c - RIFT_DX * ww - RIFT_DY..c - RIFT_DX * ww - RIFT_DY + n];
            let (u, l, p) = (&up[fast..fast + n], &this[fast - 1..fast - 1 + n], &p3[fast..fast + n]);
            let cz = &mut col_zero[fast..fast + n];
            let out = &mut f_row[fast..fast + n];
            // Outer space: the row's zero run from column 0, and columns >= k zero from row 0.
            let run = if rz { v.iter().position(|&c| c != 0).unwrap_or(n) } else { 0 };
            rz &= run == n;
            let kx = (ku.saturating_sub(u64::from(x0) + fast as u64)).min(n as u64) as usize;
            for i in 0..n {
                let vi = v[i];
                cz[i] &= vi == 0;
                let small = (vi as u8).wrapping_add(1) <= 2;
                // The low byte's tests as bytes (`as u8` of the constants below 256).
                let b = |c: bool, f: u16| u8::from(c) * f as u8;
                let low = b(u[i] == vi, F_UPPER)
                    | b(l[i] == vi, F_LOWER)
                    | b(p[i] == vi, F_PLUS3)
                    | b(small & (q1[i] == vi) & (q3[i] == vi), F_PER_LOWER)
                    | b(small & (q5[i] == vi) & (q4[i] == vi), F_PER_UPPER)
                    | b(qu[i] == vi, F_RIFT_UPPER)
                    | b(ql[i] == vi, F_RIFT_LOWER)
                    | b(small, F_SMALL);
                let h = |c: bool, f: u16| u8::from(c) * (f >> 8) as u8;
                let high = h(vi < 0, V_NEG) | h(vi == -1, V_M1) | h(vi == 1, V_P1) | h(vi <= -2, V_LE_M2);
                out[i] = u16::from(low) | (u16::from(high) << 8);
            }
            // Outer space over its ranges of columns (an index test in the loop above would
            // widen its vectors to 64-bit lanes).
            for o in &mut out[..run] {
                *o |= F_OUTER;
            }
            for (o, &z) in out[kx..].iter_mut().zip(&cz[kx..]) {
                *o |= u16::from(z) * F_OUTER;
            }
        }
        row_zero.push(rz);
        if r + 1 == h {
            plus1_bottom = this.to_vec();
        }
    }
    // The blocks, row-major: the decisions of `Labeler::decide`, refined to the cells.
    let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
    blocks.clear();
    blocks.resize(bw * bh, REST);
    labels.resize(w * h, 0);
    for rb in 0..bh {
        let (ra, rz) = (rb * BLOCK, (rb * BLOCK + BLOCK).min(h));
        // Down each column of the block row: OR, AND, min and max; then across each block.
        cols.reduce(&flags[ra * w..], w, rz - ra, w);
        for cb in 0..bw {
            let (ca, cz) = (cb * BLOCK, (cb * BLOCK + BLOCK).min(w));
            let (quick, any) = cols.block(ca..cz);
            let s = quick.unwrap_or_else(|| {
                let mut s = BlockStats::new();
                for r in ra..rz {
                    let fr = &flags[r * w + ca..r * w + cz];
                    let vr = &buf[(HALO + r) * ww + HALO + ca..(HALO + r) * ww + HALO + cz];
                    for (&f, &v) in fr.iter().zip(vr) {
                        s.add(f, v);
                    }
                }
                s.facts()
            });
            // The block's top-left cell; its centre is on or above the diagonal on the upper side.
            let (bx, by) = (u64::from(x0) + ca as u64, u64::from(y0) + ra as u64);
            let upper_side = 2 * bx + (cz - ca) as u64 >= 2 * by + (rz - ra) as u64;
            let left_label = to_side(
                if cb > 0 { Some(blocks[rb * bw + cb - 1]) } else { left.map(|l| l.last_col[rb]) },
                bx == by + BLOCK as u64,
                upper_side,
            );
            let above_label = to_side(
                if rb > 0 { Some(blocks[(rb - 1) * bw + cb]) } else { above.map(|ab| ab.last_row[cb]) },
                bx + BLOCK as u64 == by,
                upper_side,
            );
            let label = block_label(&s, upper_side, left_label, above_label);
            blocks[rb * bw + cb] = label;
            let fl = &flags[ra * w + ca..];
            let out = &mut labels[ra * w + ca..];
            let (at, size) = ((bx, by), (rz - ra, cz - ca));
            if !refine_quick(label, &s, any, left_label, above_label, at, size, fl, w, out, w) {
                refine_block(label, left_label, above_label, at, size, fl, w, out, w);
            }
        }
    }
    // The rest split into fray, warps and inner sector, row by row, with the inner sector's
    // square: palaces per column over the INNER_WINDOW rows up to the row (each row adds its
    // own and drops the first; from the INNER_WINDOW rows above the tile at the start).
    col_pal.clear();
    col_pal.resize(ww, 0);
    for r in HALO - INNER_WINDOW..HALO {
        for (cp, &v) in col_pal.iter_mut().zip(&buf[r * ww..(r + 1) * ww]) {
            *cp += u8::from(v < 0);
        }
    }
    let mut fab_col = above.map_or_else(|| vec![bytewise::FAR; w], |ab| ab.fab_col.clone());
    let mut fab_row = Vec::with_capacity(h);
    for r in 0..h {
        let (now, gone) = ((HALO + r) * ww, (HALO + r - INNER_WINDOW) * ww);
        for (cp, (&a, &b)) in col_pal.iter_mut().zip(buf[now..now + ww].iter().zip(&buf[gone..gone + ww])) {
            *cp = *cp + u8::from(a < 0) - u8::from(b < 0);
        }
        let mut d = left.map_or(bytewise::FAR, |l| l.fab_row[r]);
        bytewise::split_row(
            &mut labels[r * w..(r + 1) * w],
            &col_pal[HALO + 1 - INNER_WINDOW..],
            (u64::from(x0), u64::from(y0) + r as u64),
            &mut d,
            &mut fab_col,
            (sparse, near, tmp),
        );
        fab_row.push(d);
    }
    let last_row = blocks[(bh - 1) * bw..].to_vec();
    let last_col = (0..bh).map(|rb| blocks[rb * bw + bw - 1]).collect();
    leave_state(
        buf,
        (w, h),
        col_zero,
        row_zero,
        (last_row, last_col),
        (fab_col, fab_row),
        (plus1_bottom, plus1_right),
    )
}

/// The last row and the last column of a tile `(w, h)` of game k+1 shifted (1, 1) (see
/// [`LabelState::plus1_bottom`]); `scratch` for its quiet and hood rows.
#[inline(always)]
fn plus1_edges(
    p1: &TileView<'_>,
    (w, h): (usize, usize),
    (a, b): (&mut Vec<i8>, &mut Vec<i8>),
) -> (Vec<i8>, Vec<i8>) {
    let (mut ra, mut rb) = (false, false);
    let right = (0..h).map(|r| lane_row(p1, p1.y0 + r as u32, a, &mut ra)[w - 1]).collect();
    (lane_row(p1, p1.y0 + h as u32 - 1, b, &mut rb).to_vec(), right)
}

/// The state a labelled tile `(w, h)` leaves (see [`LabelState`]), from its buffer of game
/// k's cells with the `HALO` rows and columns before it.
#[inline(always)]
fn leave_state(
    buf: &[i8],
    (w, h): (usize, usize),
    col_zero: Vec<bool>,
    row_zero: Vec<bool>,
    (last_row, last_col): (Vec<u8>, Vec<u8>),
    (fab_col, fab_row): (Vec<u8>, Vec<u8>),
    (plus1_bottom, plus1_right): (Vec<i8>, Vec<i8>),
) -> LabelState {
    let ww = w + HALO;
    let mut right = Vec::with_capacity(h * HALO);
    for r in 0..h {
        right.extend_from_slice(&buf[(HALO + 1 + r) * ww - HALO..(HALO + 1 + r) * ww]);
    }
    LabelState {
        bottom: buf[h * ww..(h + HALO) * ww].to_vec(),
        right,
        col_zero,
        row_zero,
        last_row,
        last_col,
        fab_col,
        fab_row,
        plus1_bottom,
        plus1_right,
    }
}

/// The visitor behind [`label_tiles`].
struct TileLabeler<A, F> {
    k: u32,
    accs: Vec<Mutex<(A, TileScratch)>>,
    f: F,
}

impl<A: Send, F: Fn(&mut A, &LabelledTile<'_>) + Sync> LaneVisitor for TileLabeler<A, F> {
    fn visit(&self, worker: usize, t: &LaneTiles<'_>) -> LaneState {
        let mut g = self.accs[worker].lock().expect("labeller lock");
        let (acc, sc) = &mut *g;
        let state = label_tile(self.k, t, sc);
        let a = &t.views[0];
        let (above, left) = (tile_state(t.above), tile_state(t.left));
        let (w, h) = ((a.x1 - a.x0) as usize, (a.y1 - a.y0) as usize);
        let labels = &sc.labels[..w * h];
        let state = TileState {
            label: state,
            bottom_labels: std::iter::once(left.map_or(NONE, |l| l.right_labels[h - 1]))
                .chain(labels[(h - 1) * w..].iter().copied())
                .collect(),
            right_labels: labels.chunks_exact(w).map(|r| r[w - 1]).collect(),
        };
        let tile = LabelledTile {
            band: t.band,
            strips: t.strips,
            x0: a.x0,
            x1: a.x1,
            y0: a.y0,
            y1: a.y1,
            stride: (a.x1 - a.x0) as usize + HALO,
            buf: &sc.buf,
            labels,
            above_labels: above.map(|s| &s.bottom_labels[..]),
            left_labels: left.map(|s| &s.right_labels[..]),
            extra: &t.views[3..],
        };
        (self.f)(acc, &tile);
        Box::new(state)
    }
}

/// Bands of labelled rows waiting for [`label_rows`]' consumer (more wait for it in the sweep:
/// its workers block until one is taken).
const ROW_BANDS_QUEUED: usize = 4;

/// A row of [`label_rows`], from column 0 to the window's right edge, borrowed from the band
/// of rows the workers filled.
pub struct RowLabels<'a> {
    /// The row.
    pub y: u32,
    /// The engine's cells of the row (hood cells as their stand-in), from column 0.
    pub cells: &'a [i8],
    /// The region of every cell, as an index into [`ALL`](super::region::ALL).
    labels: &'a [u8],
    /// The palaces of the rest in the window's columns, in order.
    rest_palaces: &'a [u32],
}

impl RowLabels<'_> {
    /// The region of cell `x` of the row.
    pub fn label(&self, x: u32) -> Region {
        Region::from_index(self.labels[x as usize])
    }

    /// The regions of the row's cells, from column 0.
    pub fn labels(&self) -> Vec<Region> {
        self.labels.iter().map(|&i| Region::from_index(i)).collect()
    }

    /// Whether cell `x` of the row is the rest ([`Region::is_rest`]).
    pub fn is_rest(&self, x: u32) -> bool {
        self.labels[x as usize] >= bytewise::FIRST_REST
    }

    /// The columns, in order, of the row's palaces (`v < 0`) in the rest within the window's
    /// columns: what `threads` and `beams` follow. The workers find them, not the consumer.
    pub fn rest_palaces(&self) -> &[u32] {
        self.rest_palaces
    }
}

/// A band of labelled rows for [`label_rows`]: its first row, its cells and labels row after
/// row from column 0, and its rows' palaces of the rest (those of row `i` are
/// `palaces[starts[i]..starts[i + 1]]`).
#[derive(Default)]
struct RowBand {
    y0: u32,
    cells: Vec<i8>,
    labels: Vec<u8>,
    palaces: Vec<u32>,
    starts: Vec<usize>,
}

impl RowBand {
    /// Finds the rows' palaces of the rest in columns `[x0, width)`.
    fn find_palaces(&mut self, width: usize, x0: usize) {
        self.palaces.clear();
        self.starts.clear();
        self.starts.push(0);
        for (c, l) in self.cells.chunks_exact(width).zip(self.labels.chunks_exact(width)) {
            bytewise::rest_palaces(&c[x0..], &l[x0..], x0 as u32, &mut self.palaces);
            self.starts.push(self.palaces.len());
        }
    }

    /// Row `i` of the band.
    fn row(&self, i: usize, width: usize) -> RowLabels<'_> {
        let r = i * width..(i + 1) * width;
        RowLabels {
            y: self.y0 + i as u32,
            cells: &self.cells[r.clone()],
            labels: &self.labels[r],
            rest_palaces: &self.palaces[self.starts[i]..self.starts[i + 1]],
        }
    }
}

/// A worker's band of rows for [`label_rows`], filled tile by tile (a worker computes every
/// tile of its band, left to right) and sent when the band's last tile is in. Its buffers come
/// from the bands the consumer has read (`spare`).
struct RowBandAcc<'s> {
    tx: std::sync::mpsc::SyncSender<RowBand>,
    band: RowBand,
    spare: &'s Mutex<Vec<RowBand>>,
}

/// [`label`](super::label) without extra lanes, computed by the tiled labeller on the sweep's
/// workers ([`label_tiles`]): the same rows, labels and cells outside the hood, handed to `f`
/// in order on the calling thread, for analyses that follow the rows down (`threads`,
/// `beams`). The workers also find each row's palaces of the rest
/// ([`RowLabels::rest_palaces`]), so that the one thread that follows the rows does not scan
/// them. Memory: a few bands of rows of `window.x1` cells.
pub fn label_rows(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    mut f: impl FnMut(&RowLabels<'_>) -> Result<()>,
) -> Result<()> {
    let width = window.x1() as usize;
    let (tx, rx) = std::sync::mpsc::sync_channel::<RowBand>(ROW_BANDS_QUEUED);
    let spare = Mutex::new(Vec::new());
    // The sweep stops when the caller cancels or `f` fails: its own token, which the consumer
    // sets from the caller's between bands.
    let inner = crate::engine::Cancel::new();
    let sweep_opts = EngineOptions { cancel: inner.clone(), ..opts.clone() };
    std::thread::scope(|scope| {
        let spare = &spare;
        let sweep = scope.spawn(move || {
            let tx = tx;
            label_tiles(
                k,
                window,
                &sweep_opts,
                progress,
                &[],
                || RowBandAcc { tx: tx.clone(), band: RowBand::default(), spare },
                |acc, t| {
                    let (ya, yb) = (t.y0.max(window.y0()), t.y1.min(window.y1()));
                    if ya >= yb {
                        return;
                    }
                    let band = &mut acc.band;
                    if t.x0 == 0 {
                        if let Some(b) = acc.spare.lock().unwrap().pop() {
                            *band = b;
                        }
                        band.y0 = ya;
                        // Every cell is written by the band's tiles below.
                        band.cells.resize(width * (yb - ya) as usize, 0);
                        band.labels.resize(width * (yb - ya) as usize, 0);
                    }
                    let (a, b) = (t.x0 as usize, t.x1 as usize);
                    for y in ya..yb {
                        let r = (y - ya) as usize * width;
                        band.cells[r + a..r + b].copy_from_slice(t.cells(y));
                        band.labels[r + a..r + b].copy_from_slice(t.labels(y));
                    }
                    if t.x1 == window.x1() {
                        band.find_palaces(width, window.x0() as usize);
                        // A consumer that stopped takes nothing more; the sweep is being cancelled.
                        let _ = acc.tx.send(std::mem::take(band));
                    }
                },
            )
            .map(drop)
        });
        let mut failed = None;
        while let Ok(band) = rx.recv() {
            if opts.cancel.is_cancelled() {
                inner.cancel();
                break;
            }
            for i in 0..band.starts.len() - 1 {
                if let Err(e) = f(&band.row(i, width)) {
                    failed = Some(e);
                    break;
                }
            }
            if failed.is_some() {
                inner.cancel();
                break;
            }
            let mut spare = spare.lock().unwrap();
            if spare.len() < ROW_BANDS_QUEUED {
                spare.push(band);
            }
        }
        // Workers waiting to send see the channel closed.
        drop(rx);
        let swept = sweep.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        match failed {
            Some(e) => Err(e),
            None if opts.cancel.is_cancelled() => Err(crate::error::Error::INTERRUPTED),
            None => swept,
        }
    })
}

/// Sweeps the games the tiled labeller needs over `[0, window.x1) x [0, window.y1)` and does
/// nothing with their tiles: the floor of [`label_tiles`]' cost (what the labels cost beyond
/// it is the labeller's). For `palace bench`.
pub fn sweep_games_only(k: u32, window: Window, opts: &EngineOptions, progress: &dyn Progress) -> Result<()> {
    struct Nothing;
    impl LaneVisitor for Nothing {
        fn visit(&self, _: usize, _: &LaneTiles<'_>) -> LaneState {
            Box::new(())
        }
    }
    let grid = |v: Option<u32>| v.map(|v| v.max(2).next_multiple_of(BLOCK as u32));
    let opts = EngineOptions {
        tile_width: grid(opts.tile_width),
        band_height: grid(opts.band_height),
        ..opts.clone()
    };
    crate::engine::Sweep::together(&tile_lanes(k, window.x1(), window.y1())?)
        .options(&opts)
        .progress(progress)
        .lanes(&Nothing)?;
    Ok(())
}

/// Labels `[0, window.x1) x [0, window.y1)` of game `k` on the sweep's workers, as
/// [`label`](super::label) does on one thread, and shows every labelled tile (all of them, not
/// only the window's) to `f` with the worker's accumulator (one per worker, made by `acc`).
/// `extra_lanes` are swept with the labels' three games; their windows must be
/// `window.x1 x window.y1` (from any corner) and their views come aligned with each tile.
/// Returns the accumulators.
pub fn label_tiles<A: Send>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    acc: impl Fn() -> A,
    f: impl Fn(&mut A, &LabelledTile<'_>) + Sync,
) -> Result<Vec<A>> {
    let mut all: Vec<Lane> = tile_lanes(k, window.x1(), window.y1())?.to_vec();
    all.extend_from_slice(extra_lanes);
    // Tiles on the block grid: every block in one tile.
    let grid = |v: Option<u32>| v.map(|v| v.max(2).next_multiple_of(BLOCK as u32));
    let opts = EngineOptions {
        tile_width: grid(opts.tile_width),
        band_height: grid(opts.band_height),
        ..opts.clone()
    };
    let workers = opts.resolved_threads();
    let visitor = TileLabeler {
        k,
        accs: (0..workers).map(|_| Mutex::new((acc(), TileScratch::default()))).collect(),
        f,
    };
    crate::engine::Sweep::together(&all).options(&opts).progress(progress).lanes(&visitor)?;
    Ok(visitor.accs.into_iter().map(|m| m.into_inner().expect("labeller lock").0).collect())
}

/// The length of the run of `s[0]` that `s` starts with (`s` not empty), eight bytes at a
/// time.
pub(crate) fn run_len(s: &[u8]) -> usize {
    let splat = u64::from(s[0]) * 0x0101_0101_0101_0101;
    let mut chunks = s.chunks_exact(8);
    let mut n = 0;
    for c in chunks.by_ref() {
        let d = u64::from_le_bytes(c.try_into().expect("eight bytes")) ^ splat;
        if d != 0 {
            return n + (d.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + chunks.remainder().iter().position(|&b| b != s[0]).unwrap_or(chunks.remainder().len())
}

#[cfg(test)]
mod run_len_tests {
    use super::run_len;

    #[test]
    fn run_len_equals_the_plain_count() {
        // Runs of every length 1..40 at every offset in an 8-byte word, then another byte or
        // the end.
        for len in 1..40 {
            for pad in 0..9 {
                let mut s = vec![9u8; pad];
                s.extend(std::iter::repeat_n(3u8, len));
                for tail in [None, Some(4u8), Some(0)] {
                    let mut t = s.clone();
                    t.extend(tail);
                    let plain = t[pad..].iter().take_while(|&&b| b == 3).count();
                    assert_eq!(run_len(&t[pad..]), plain, "len {len} pad {pad} tail {tail:?}");
                }
            }
        }
    }
}
