//! Tiles of a counter sweep ([`Sweep::palaces`](crate::engine::Sweep::palaces)): the three-counter form of
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
//! * A tile clear of the hood and the corner whose halo lies in `-16..=15`: the counter
//!   kernel; if some value leaves that range (see the proof in [`crate::kernel::counter`])
//!   the tile goes down the exact path instead.
//! * Every other tile: computed by the CA ([`super::tile::compute_tile`]: narrow kernel or
//!   exact wide kernel with the closed form in the hood), and its leaving counters counted
//!   from its palaces cell by cell.

use super::layout::Rect;
use super::tile::{
    CASING_BLOCK, Made, Neighbourhood, Scratch, Tile, compute_tile, exact_above, exact_cells, halo_columns,
    within,
};
use super::visit::{KeptTile, PalaceTile, PalaceVisitor, TileView};
use crate::error::Result;
use crate::kernel::counter::{self, BIAS, CounterKernel, EdgeValues, Edges};
use crate::kernel::{Arrangement, BufPool, NarrowFn, TileBuf};
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_sentinel, hood_value, in_hood};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// One tile of a counter sweep, computed.
pub(crate) struct Computed {
    /// What is published: the tile's edges and leaving counters.
    pub tile: Tile,
    /// How its cells were made.
    pub made: Made,
    /// Its palaces.
    pub palaces: u64,
    /// Where the visitor asked for them, its values (a hood, quiet or computed tile).
    pub values: Option<Tile>,
    /// Where the visitor asked for counts and the counter kernel computed (some of) the tile:
    /// the counts of the values it computed, by `v + 128`.
    pub counts: Option<Box<[u64; 256]>>,
    /// With `counts`, the cells of the tile the kernel did not compute (the exact parts of a
    /// casing tile), as computed tiles of their own.
    pub pieces: Pieces,
    /// The values are still to be computed by the CA's paths ([`compute_tile`], rows
    /// arranged), and `made` is then the CA's: the counters are known, so the tile is
    /// published first and the tiles below need not wait for its values.
    pub values_by_ca: bool,
}

/// Computed parts of a tile, as tiles of their own.
pub(crate) type Pieces = Vec<(Rect, Tile)>;

impl Computed {
    fn new(tile: Tile, made: Made, palaces: u64, values: Option<Tile>) -> Self {
        Computed { tile, made, palaces, values, counts: None, pieces: Vec::new(), values_by_ca: false }
    }

    /// A tile whose counters are known and whose values the CA is still to compute.
    fn counted(tile: Tile, palaces: u64) -> Self {
        Computed { values_by_ca: true, ..Computed::new(tile, Made::default(), palaces, None) }
    }
}

/// What the visitor of a counter sweep wants of a tile besides its palaces.
#[derive(Clone, Copy)]
pub(crate) enum Want<'a> {
    /// Nothing more.
    Palaces,
    /// Its values: the tile is computed by the CA's paths.
    Values,
    /// The counts of its values where the counter kernel computes it (tallied as it goes),
    /// its values everywhere else; and its values as well where the function, shown the
    /// counts, says so.
    Counts(&'a dyn Fn(&[u64; 256]) -> bool),
}

/// Computes one tile of a counter sweep, with what `want` asks for.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compute(
    nb: &Neighbourhood<'_>,
    kernel: Option<CounterKernel>,
    narrow: Option<NarrowFn>,
    skip: bool,
    want: Want<'_>,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
    cs: &mut CounterScratch,
) -> Result<Computed> {
    let r = nb.rect();
    let k = nb.layout.k;
    let (w, h) = (r.w(), r.h());
    let all = r.cells();
    // Values wherever the counter kernel does not compute the tile.
    let values = !matches!(want, Want::Palaces);
    if skip && in_hood(k, u64::from(r.x1 - 1), u64::from(r.y1 - 1)) {
        return Ok(Computed::new(
            hood_tile(k, &r),
            Made { hood: all, ..Made::default() },
            all,
            values.then_some(Tile::Hood),
        ));
    }
    let mut e = nb.entering();
    let touches_corner = r.x0 < 2 && r.y0 < 2;
    let touches_hood = in_hood(k, u64::from(r.x0.saturating_sub(2)), u64::from(r.y0.saturating_sub(2)));
    if let (Want::Counts(also), true) = (want, skip && (touches_corner || touches_hood)) {
        // The casing's blocks, the kernel's parts tallied and the exact parts kept; the whole
        // tile by the CA's paths only where the counts could hold an extreme's first cell.
        cs.lanes.tally(true);
        let cased = casing(nb, e, kernel, pool, cs, true);
        let counts = cs.lanes.counts().map(|c| Box::new(*c)).expect("tallying");
        cs.lanes.tally(false);
        let (tile, made, palaces, pieces) = cased?;
        if !also(&counts) {
            return Ok(Computed { counts: Some(counts), pieces, ..Computed::new(tile, made, palaces, None) });
        }
        // The values by the CA; the counters are the casing's.
        return Ok(Computed::counted(tile, palaces));
    }
    if values && (touches_corner || touches_hood) {
        return exact(nb, e, narrow, skip, pool, scratch, true);
    }
    if skip && (touches_corner || touches_hood) {
        return casing(nb, e, kernel, pool, cs, false).map(|(t, m, p, _)| Computed::new(t, m, p, None));
    }
    if !touches_corner && !touches_hood {
        nb.halo8(&mut scratch.top8, &mut scratch.left8);
        let (top, left) = (&scratch.top8, &scratch.left8);
        if skip && top.iter().chain(left.iter()).fold(0, |acc, &v| acc | v) == 0 {
            let zero = values.then_some(Tile::Zero);
            return Ok(Computed::new(quiet_tile(w, h, e), Made { zero: all, ..Made::default() }, 0, zero));
        }
        if let Some(kernel) = kernel
            && within(top, -(BIAS as i8), BIAS as i8 - 1)
            && within(left, -(BIAS as i8), BIAS as i8 - 1)
        {
            let entering = e.clone();
            let edges = &mut cs.values;
            edges.bottom.resize(2 * w, 0);
            edges.right.resize(2 * h, 0);
            let tally = matches!(want, Want::Counts(_));
            cs.lanes.tally(tally);
            let out = kernel.tile_any(w, h, &mut e, edges, &mut cs.lanes);
            let counts = cs.lanes.counts().map(|c| Box::new(*c));
            cs.lanes.tally(false);
            if out.valid {
                let (bottom, right) = edge_values(w, h, edges);
                let tile = Tile::Edges { bottom, right, leaving: Some(Box::new(e)) };
                let counter = Made { counter: all, ..Made::default() };
                match (want, counts) {
                    (Want::Palaces, _) => return Ok(Computed::new(tile, counter, out.palaces, None)),
                    (Want::Counts(also), Some(counts)) if !also(&counts) => {
                        let (palaces, pieces) = (out.palaces, Vec::new());
                        return Ok(Computed {
                            counts: Some(counts),
                            pieces,
                            ..Computed::new(tile, counter, palaces, None)
                        });
                    }
                    _ => {}
                }
                // The values too: the CA computes them; the counters are the kernel's (a
                // tenth of the cost of counting them from the cells).
                return Ok(Computed::counted(tile, out.palaces));
            }
            e = entering;
        }
    }
    exact(nb, e, narrow, skip, pool, scratch, values)
}

/// The paths a counter sweep computes its tiles with.
#[derive(Clone, Copy)]
pub(crate) struct Paths {
    /// The three-counter kernel (none: every tile by the CA's paths).
    pub counter: Option<CounterKernel>,
    /// The CA's narrow kernel (none: the wide kernel).
    pub narrow: Option<NarrowFn>,
    /// Fill the hood and quiet tiles instead of computing them.
    pub skip: bool,
}

/// Computes the tile of `nb` with what visitor `v` asks of it, publishes it with `publish`
/// (which returns the tile as published), and shows it to `v` as worker `id`, clipped to
/// `window` for its values. The tile is published before the CA computes its values, if the
/// visitor wants them: the tiles below and to the right need only its counters and edges.
/// Returns how its cells were made and the time spent in the visitor. One routine for the
/// wavefront's workers (`super::sweep`) and the strips (`super::strips`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn palace_tile<'t>(
    nb: &Neighbourhood<'_>,
    v: &dyn PalaceVisitor,
    id: usize,
    window: Window,
    paths: Paths,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
    cs: &mut CounterScratch,
    publish: impl FnOnce(Tile) -> &'t Tile,
) -> Result<(Made, Duration)> {
    let rect = nb.rect();
    let k = nb.layout.k;
    let also = |c: &[u64; 256]| v.wants_values_too(rect.x0, rect.y0, rect.x1, rect.y1, c);
    let want = if v.wants_values(rect.x0, rect.y0, rect.x1, rect.y1) {
        Want::Values
    } else if v.wants_counts() {
        Want::Counts(&also)
    } else {
        Want::Palaces
    };
    let Computed { tile, made, palaces, values, counts, pieces, values_by_ca } =
        compute(nb, paths.counter, paths.narrow, paths.skip, want, pool, scratch, cs)?;
    let published = publish(tile);
    let (values, made) = if values_by_ca {
        let (cells, made) = compute_tile(nb, paths.narrow, Arrangement::Rows, paths.skip, pool, scratch)?;
        (Some(cells), made)
    } else {
        (values, made)
    };
    let pieces: Vec<TileView<'_>> =
        pieces.iter().filter_map(|(r, t)| TileView::new(k, t, r, window)).collect();
    let kept = values.and_then(|t| KeptTile::new(k, t, rect, window));
    let Tile::Edges { leaving: Some(leaving), .. } = published else {
        unreachable!("counter tiles carry their leaving counters")
    };
    let view = PalaceTile {
        k,
        x0: rect.x0,
        x1: rect.x1,
        y0: rect.y0,
        y1: rect.y1,
        palaces,
        leaving,
        values: kept.as_ref().map(KeptTile::view),
        kept: kept.as_ref(),
        counts: counts.as_deref(),
        pieces: &pieces,
    };
    let t = Instant::now();
    v.visit(id, &view);
    Ok((made, t.elapsed()))
}

/// The exact path: the CA computes the cells (`compute_tile`), the counters `e` are counted
/// from them. With `keep`, the computed tile comes back too.
fn exact(
    nb: &Neighbourhood<'_>,
    mut e: Edges,
    narrow: Option<NarrowFn>,
    skip: bool,
    pool: &Arc<BufPool>,
    scratch: &mut Scratch,
    keep: bool,
) -> Result<Computed> {
    let r = nb.rect();
    let k = nb.layout.k;
    let (w, h) = (r.w(), r.h());
    let (tile, made) = compute_tile(nb, narrow, Arrangement::Rows, skip, pool, scratch)?;
    let (published, palaces) = match &tile {
        Tile::Cells(cells) => {
            let palaces = through(cells, &mut e, |_| 0);
            let Tile::Edges { bottom, right, .. } = Tile::edges(cells) else {
                unreachable!("edges are edges")
            };
            (Tile::Edges { bottom, right, leaving: Some(Box::new(e)) }, palaces)
        }
        Tile::Hood => (hood_tile(k, &r), r.cells()),
        Tile::Zero => (quiet_tile(w, h, e), 0),
        Tile::Edges { .. } | Tile::Aborted => unreachable!("compute_tile returns computed or filled tiles"),
    };
    Ok(Computed::new(published, made, palaces, keep.then_some(tile)))
}

/// A tile without palaces whose counters entered as `e`: all its values are 0, and every
/// counter passes through it.
fn quiet_tile(w: usize, h: usize, mut e: Edges) -> Tile {
    pass_through(&mut e);
    Tile::Edges {
        bottom: vec![0; w * h.min(2)].into(),
        right: vec![0; h * w.min(2)].into(),
        leaving: Some(Box::new(e)),
    }
}

/// Rows per sub-band of a casing tile (see [`casing`]).
const CASING_SUB_BAND: usize = 512;

/// A tile that touches the hood or the corner. Its rows are cut into sub-bands of at most
/// [`CASING_SUB_BAND`] rows, and each sub-band at the column `cm` two past its widest hood
/// row (its first, or the one two above it: the hood is closed under moving up): the columns
/// from `cm` on are clear of the hood in every row of the sub-band and take one counter kernel
/// call ([`casing_part`] without a hood), the columns left of `cm` go through
/// [`casing_part`] in blocks of [`CASING_BLOCK`] rows. The counters and the edge values run
/// from the left part into the right one and from sub-band to sub-band.
fn casing(
    nb: &Neighbourhood<'_>,
    e: Edges,
    kernel: Option<CounterKernel>,
    pool: &Arc<BufPool>,
    cs: &mut CounterScratch,
    keep: bool,
) -> Result<(Tile, Made, u64, Pieces)> {
    let mut pieces = Vec::new();
    let r = nb.rect();
    let k = nb.layout.k;
    let (w, h) = (r.w(), r.h());
    let (x0, y0) = (u64::from(r.x0), u64::from(r.y0));
    let (mut top, mut left) = (Vec::new(), Vec::new());
    nb.halo_exact(&r, &mut top, &mut left);
    // The exact values of the two rows above the current sub-band over columns x0 - 2 .. x1
    // (the layout of a `top` halo), and their stored values over x0 .. x1.
    let mut above = top;
    let mut last2 = vec![0i8; 2 * w];
    // The counters C and D' on the current sub-band's first row.
    let mut c_run = e.c.clone();
    let mut d_run = e.d_top.clone();
    let mut out = Edges { r: vec![0; h], d_left: vec![0; h], c: Vec::new(), d_top: Vec::new() };
    let mut right = vec![0i8; 2 * h];
    let (mut made, mut palaces) = (Made::default(), 0u64);
    let mut a = 0;
    while a < h {
        let b = if h - a < CASING_SUB_BAND + 2 { h } else { a + CASING_SUB_BAND };
        let rb = b - a;
        let ya = y0 + a as u64;
        if a > 0 {
            d_run[0] = e.d_left[a];
        }
        let cm = split_column(k, x0, ya, w);
        // A right part at least two columns wide (the rule's halo), or none.
        let cuts: &[(usize, usize)] = if cm == 0 || w - cm < 2 { &[(0, w)] } else { &[(0, cm), (cm, w)] };
        let (mut er, mut edl) = (e.r[a..b].to_vec(), e.d_left[a..b].to_vec());
        let mut lhalo = left[2 * a..2 * b].to_vec();
        let mut d_bottom = vec![0u8; w];
        let mut rows2 = vec![0i8; 2 * w];
        for &(ca, cb) in cuts {
            let pw = cb - ca;
            if ca > 0 {
                // D' entering the right part's first column: the top's, then the diagonals
                // leaving the left part's rows.
                edl = entering_diagonals(d_run[ca], &edl);
            }
            let pe = Edges { r: er, d_left: edl, c: c_run[ca..cb].to_vec(), d_top: d_run[ca..cb].to_vec() };
            let ptop = halo_columns(&above, ca, cb);
            let plast2: Vec<i8> =
                (0..2).flat_map(|q| last2[q * w + ca..q * w + cb].iter().copied()).collect();
            let part = Part { k, x0: x0 + ca as u64, y0: ya, w: pw, h: rb, top: &ptop, left: &lhalo };
            let done = casing_part(&part, pe, plast2, kernel, pool, cs, keep, &mut pieces)?;
            made.add(done.made);
            palaces += done.palaces;
            (er, edl) = (done.edges.r, done.edges.d_left);
            c_run[ca..cb].copy_from_slice(&done.edges.c);
            d_bottom[ca..cb].copy_from_slice(&done.edges.d_top);
            for q in 0..2 {
                rows2[q * w + ca..q * w + cb].copy_from_slice(&done.last2[q * pw..(q + 1) * pw]);
            }
            // Its last two columns: the next part's left halo (clear of the hood), or the
            // tile's last two columns.
            lhalo = done.right.iter().map(|&v| i64::from(v)).collect();
            if cb == w {
                right[2 * a..2 * b].copy_from_slice(&done.right);
            }
        }
        out.r[a..b].copy_from_slice(&er);
        out.d_left[a..b].copy_from_slice(&edl);
        last2 = rows2;
        if b == h {
            out.c = std::mem::take(&mut c_run);
            out.d_top = d_bottom;
        } else {
            d_run[1..].copy_from_slice(&d_bottom[..w - 1]);
            exact_above(k, x0, y0, b, &left, &last2, &mut above);
        }
        a = b;
    }
    let values = EdgeValues { bottom: last2, right };
    let (bottom, right) = edge_values(w, h, &values);
    Ok((Tile::Edges { bottom, right, leaving: Some(Box::new(out)) }, made, palaces, pieces))
}

/// The column where a casing tile's part at `(x0, y)`, `w` wide, splits: two past the widest
/// hood row among its rows and the two above them (the hood is closed under moving up, so that
/// is the row two above `y`), at least 2 and at most `w`; 0 when the hood is out of reach.
fn split_column(k: u32, x0: u64, y: u64, w: usize) -> usize {
    let widest = hood_len(k, y.saturating_sub(2));
    if widest + 2 <= x0 { 0 } else { ((widest + 2 - x0) as usize).clamp(2.min(w), w) }
}

/// `D'` entering the first column of a part right of another (see [`Edges`]): in its first
/// row the top's `top`, in each later row the diagonal leaving the row above of the part to
/// its left (`leaving`, that part's leaving `d_left`).
fn entering_diagonals(top: u8, leaving: &[u8]) -> Vec<u8> {
    std::iter::once(top).chain(leaving[..leaving.len() - 1].iter().copied()).collect()
}

/// A rectangle of a casing tile, with its exact halo.
struct Part<'a> {
    k: u32,
    /// Its top-left cell on the board.
    x0: u64,
    y0: u64,
    w: usize,
    h: usize,
    /// The exact values of the two rows above it, columns x0 - 2 .. x0 + w.
    top: &'a [i64],
    /// The exact values of the two columns left of it, two per row.
    left: &'a [i64],
}

/// What [`casing_part`] leaves.
struct PartDone {
    /// The counters leaving it.
    edges: Edges,
    /// Its last two rows' values (`2 w`; with one row, the row above it first).
    last2: Vec<i8>,
    /// Its last two columns' values, two per row (the first unused where `w < 2`).
    right: Vec<i8>,
    made: Made,
    palaces: u64,
}

/// A rectangle of a casing tile, entered by the counters `e`, in blocks of [`CASING_BLOCK`]
/// rows. In each block the columns up to two past the widest hood row among the block's rows
/// and the two above them are computed exactly (the hood by the closed form, the rest by the
/// rule in 64-bit arithmetic: `kernel::wide::casing_tile`), the columns right of them by the
/// counter kernel (its halo, two columns past the hood, is clear of it), or exactly where the
/// kernel finds a value out of its range. Once the hood is out of reach, the rest is one block
/// without an exact part. `last2`: the values of the two rows above it (used where it has one
/// row). With `keep`, the exactly computed pieces go to `pieces`.
#[allow(clippy::too_many_arguments)]
fn casing_part(
    part: &Part<'_>,
    e: Edges,
    mut last2: Vec<i8>,
    kernel: Option<CounterKernel>,
    pool: &Arc<BufPool>,
    cs: &mut CounterScratch,
    keep: bool,
    pieces: &mut Pieces,
) -> Result<PartDone> {
    let &Part { k, x0, y0, w, h, top, left } = part;
    // The exact values of the two rows above the current block over columns x0 - 2 .. x1 (the
    // layout of a `top` halo), and their stored values over x0 .. x1.
    let mut above = top.to_vec();
    // The counters C and D' on the current block's first row.
    let mut c_run = e.c.clone();
    let mut d_run = e.d_top.clone();
    let mut out = Edges { r: vec![0; h], d_left: vec![0; h], c: Vec::new(), d_top: Vec::new() };
    let mut values_right = vec![0i8; 2 * h];
    let (mut made, mut palaces) = (Made::default(), 0u64);
    let mut a = 0;
    while a < h {
        let ya = y0 + a as u64;
        if a > 0 {
            d_run[0] = e.d_left[a];
        }
        let c = split_column(k, x0, ya, w);
        let b = if c == 0 { h } else { (a + CASING_BLOCK).min(h) };
        let rb = b - a;
        let hood = |row: usize| (hood_len(k, ya + row as u64).saturating_sub(x0) as usize).min(c);

        // The left part, exactly: its cells, and the counters leaving it (or, without one,
        // the counters entering the right part from the tile's left edge).
        let mut lcells = None;
        let mut le = Edges {
            r: e.r[a..b].to_vec(),
            d_left: e.d_left[a..b].to_vec(),
            c: c_run[..c].to_vec(),
            d_top: d_run[..c].to_vec(),
        };
        // Columns left of `lo` are hood in every row of the block (its narrowest row is its
        // last): their counters pass in closed form, and only `lo..c` is computed.
        let mut lo = 0;
        if c > 0 {
            let narrowest =
                (hood_len(k, ya + rb as u64 - 1).saturating_sub(x0) as usize).min(c.saturating_sub(2));
            if narrowest >= 2 {
                lo = narrowest;
            }
            // The counters entering the exact part, and the values left of it.
            let (mut xe, lleft) = if lo == 0 {
                (le.clone(), left[2 * a..2 * b].to_vec())
            } else {
                let mut he = Edges {
                    r: le.r.clone(),
                    d_left: le.d_left.clone(),
                    c: c_run[..lo].to_vec(),
                    d_top: d_run[..lo].to_vec(),
                };
                palaces += pass_hood(&mut he);
                made.hood += (lo * rb) as u64;
                le.c[..lo].copy_from_slice(&he.c);
                le.d_top[..lo].copy_from_slice(&he.d_top);
                let d_left = entering_diagonals(d_run[lo], &he.d_left);
                let hood_left = (0..rb as u64)
                    .flat_map(|row| [2, 1].map(|d| hood_value(k, x0 + (lo - d) as u64, ya + row)))
                    .collect();
                (Edges { r: he.r, d_left, c: c_run[lo..c].to_vec(), d_top: d_run[lo..c].to_vec() }, hood_left)
            };
            let ltop = halo_columns(&above, lo, c);
            let mut cells = TileBuf::pooled(pool, c - lo, rb, Arrangement::Rows);
            exact_cells(k, x0 + lo as u64, ya, &ltop, &lleft, &mut cells)?;
            let hood = |row: usize| hood(row).saturating_sub(lo);
            let hood_cells: usize = (0..rb).map(hood).sum();
            palaces += through(&cells, &mut xe, hood);
            made.hood += hood_cells as u64;
            made.wide += ((c - lo) * rb - hood_cells) as u64;
            le.r = xe.r;
            le.d_left = xe.d_left;
            le.c[lo..].copy_from_slice(&xe.c);
            le.d_top[lo..].copy_from_slice(&xe.d_top);
            lcells = Some(cells);
        }
        // A cell of the left part: computed, or hood left of `lo` (as the narrow engine
        // stores it).
        let lcell = |cells: &TileBuf, row: usize, col: usize| {
            if col >= lo {
                cells.at(row, col - lo)
            } else {
                hood_sentinel(k, x0 + col as u64, ya + row as u64)
            }
        };
        // The right part: the counter kernel where it is exact, else exactly.
        let wr = w - c;
        // The CA values of the two columns left of it, exactly (with a right part, c >= 2).
        let rleft: Vec<i64> = match &lcells {
            Some(cells) if wr > 0 => (0..rb)
                .flat_map(|row| [cells.at(row, c - 2 - lo), cells.at(row, c - 1 - lo)])
                .map(i64::from)
                .collect(),
            Some(_) => Vec::new(),
            None => left[2 * a..2 * b].to_vec(),
        };
        let mut re = Edges::default();
        // Its last two rows' values (rows rb - 2 and rb - 1, `wr` each) and its last two
        // columns' values (two per row).
        let (mut rbottom, mut rright) = (vec![0i8; 2 * wr], vec![0i8; 2 * rb]);
        if wr > 0 {
            let mut d_left = le.d_left.clone();
            if c > 0 {
                d_left = entering_diagonals(d_run[c], &le.d_left);
            }
            re = Edges { r: le.r.clone(), d_left, c: c_run[c..].to_vec(), d_top: d_run[c..].to_vec() };
            let lim = i64::from(BIAS);
            let small = |v: &i64| (-lim..lim).contains(v);
            let rtop = halo_columns(&above, c, w);
            let mut done = false;
            if let Some(kernel) = kernel
                && rtop.iter().all(small)
                && rleft.iter().all(small)
            {
                let entering = re.clone();
                let mut vals = EdgeValues::sized(wr, rb);
                let o = kernel.tile_any(wr, rb, &mut re, &mut vals, &mut cs.lanes);
                if o.valid {
                    palaces += o.palaces;
                    made.counter += (wr * rb) as u64;
                    (rbottom, rright) = (vals.bottom, vals.right);
                    done = true;
                } else {
                    re = entering;
                }
            }
            if !done {
                let xr = x0 + c as u64;
                let mut cells = TileBuf::pooled(pool, wr, rb, Arrangement::Rows);
                exact_cells(k, xr, ya, &rtop, &rleft, &mut cells)?;
                palaces += through(&cells, &mut re, |_| 0);
                made.wide += (wr * rb) as u64;
                for q in 0..2 {
                    if rb + q >= 2 {
                        rbottom[q * wr..(q + 1) * wr].copy_from_slice(cells.row(rb + q - 2));
                    }
                }
                for row in 0..rb {
                    for q in (2 - wr.min(2))..2 {
                        rright[2 * row + q] = cells.at(row, wr + q - 2);
                    }
                }
                if keep {
                    let (x0, y0) = ((x0 + c as u64) as u32, ya as u32);
                    let rect = Rect { x0, y0, x1: x0 + wr as u32, y1: y0 + rb as u32 };
                    pieces.push((rect, Tile::Cells(cells)));
                }
            }
        }
        // The part's last two columns.
        for row in 0..rb {
            for q in (2 - w.min(2))..2 {
                let col = w + q - 2;
                values_right[2 * (a + row) + q] = if col >= c {
                    rright[2 * row + col + 2 - w]
                } else {
                    lcell(lcells.as_ref().expect("columns left of c are in the left part"), row, col)
                };
            }
        }
        // The block's last two rows (a one-row block keeps the previous block's last row).
        let mut rows2 = vec![0i8; 2 * w];
        for q in 0..2 {
            let dst = &mut rows2[q * w..(q + 1) * w];
            if rb + q < 2 {
                dst.copy_from_slice(&last2[w..]);
                continue;
            }
            // The hood's columns left of `lo` are read by no later block (its halo starts at its
            // own `lo - 2` or further right); the part's last rows get them at the end.
            if let Some(cells) = &lcells {
                dst[lo..c].copy_from_slice(cells.row(rb + q - 2));
            }
            dst[c..].copy_from_slice(&rbottom[q * wr..(q + 1) * wr]);
        }
        last2 = rows2;
        // The next block's exact top halo.
        if b < h {
            exact_above(k, x0, y0, b, left, &last2, &mut above);
        }
        // The counters leaving the block.
        let (rows_r, rows_d) = if wr > 0 { (&re.r, &re.d_left) } else { (&le.r, &le.d_left) };
        out.r[a..b].copy_from_slice(rows_r);
        out.d_left[a..b].copy_from_slice(rows_d);
        c_run[..c].copy_from_slice(&le.c);
        if wr > 0 {
            c_run[c..].copy_from_slice(&re.c);
        }
        let d_bottom: Vec<u8> = le.d_top.iter().chain(&re.d_top).copied().collect();
        if let (true, Some(cells)) = (keep, lcells) {
            let (x0, y0, lo) = (x0 as u32, ya as u32, lo as u32);
            if lo > 0 {
                pieces.push((Rect { x0, y0, x1: x0 + lo, y1: y0 + rb as u32 }, Tile::Hood));
            }
            pieces
                .push((Rect { x0: x0 + lo, y0, x1: x0 + c as u32, y1: y0 + rb as u32 }, Tile::Cells(cells)));
        }
        if b == h {
            out.c = std::mem::take(&mut c_run);
            out.d_top = d_bottom;
        } else {
            d_run[1..].copy_from_slice(&d_bottom[..w - 1]);
        }
        a = b;
    }
    // The hood's cells of the last two rows, as the narrow engine stores them.
    for q in 0..2 {
        if h + q >= 2 {
            let y = y0 + (h + q - 2) as u64;
            let hl = (hood_len(k, y).saturating_sub(x0) as usize).min(w);
            for (col, d) in last2[q * w..q * w + hl].iter_mut().enumerate() {
                *d = hood_sentinel(k, x0 + col as u64, y);
            }
        }
    }
    Ok(PartDone { edges: out, last2, right: values_right, made, palaces })
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

/// Counts a rectangle of palaces (hood cells) into the counters `e` (entering on call, leaving
/// on return), in closed form: each row's `R` grows by the width, each column's `C` by the
/// height, and each diagonal's `D'` by the cells it crosses. Returns the palaces.
fn pass_hood(e: &mut Edges) -> u64 {
    let (w, h) = (e.c.len(), e.r.len());
    let (top, left) = (e.d_top.clone(), e.d_left.clone());
    // D' leaving (row, col): entered at (row - m, col - m), m = min(row, col), and grown by the
    // m + 1 palaces from there.
    let leaving = |row: usize, col: usize| {
        let m = row.min(col);
        let entered = if col >= row { top[col - row] } else { left[row - col] };
        entered.wrapping_add((m + 1) as u8)
    };
    e.d_top = (0..w).map(|col| leaving(h - 1, col)).collect();
    e.d_left = (0..h).map(|row| leaving(row, w - 1)).collect();
    for r in &mut e.r {
        *r = r.wrapping_add(w as u8);
    }
    for c in &mut e.c {
        *c = c.wrapping_add(h as u8);
    }
    (w * h) as u64
}

/// Counts a computed tile's palaces into the counters `e` (entering on call, leaving on
/// return); returns the palaces. `hood(row)` is how many cells at the start of the row are
/// known palaces (the hood): those are counted a row at a time, the others cell by cell.
fn through(cells: &TileBuf, e: &mut Edges, hood: impl Fn(usize) -> usize) -> u64 {
    let (w, h) = (cells.width(), cells.height());
    let mut palaces = 0u64;
    // D' entering each cell of the current row.
    let mut d_cur = e.d_top.clone();
    let mut d_next = vec![0u8; w];
    for row in 0..h {
        if row > 0 {
            d_cur[0] = e.d_left[row];
        }
        let hl = hood(row).min(w);
        palaces += hl as u64;
        let mut rr = e.r[row].wrapping_add(hl as u8);
        for c in &mut e.c[..hl] {
            *c = c.wrapping_add(1);
        }
        // D' leaving (row, col) for col < hl, into the next row's col + 1.
        let inner = hl.min(w - 1);
        for (next, &cur) in d_next[1..=inner].iter_mut().zip(&d_cur[..inner]) {
            *next = cur.wrapping_add(1);
        }
        if hl == w {
            e.d_left[row] = d_cur[w - 1].wrapping_add(1);
        }
        if row + 1 == h {
            for (out, &cur) in e.d_top[..hl].iter_mut().zip(&d_cur[..hl]) {
                *out = cur.wrapping_add(1);
            }
        }
        for (col, &v) in cells.row(row).iter().enumerate().skip(hl) {
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
            assert_eq!(through(&zeros, &mut want, |_| 0), 0);
            pass_through(&mut e);
            assert_eq!(e, want, "{w}x{h}");
        }
    }

    #[test]
    fn pass_hood_equals_counting_palaces() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (7, 3), (3, 7), (6, 6), (300, 2), (2, 300), (260, 270)] {
            let mut e = Edges {
                r: (0..h).map(|i| (i * 7) as u8).collect(),
                d_left: (0..h).map(|i| (100 + i * 3) as u8).collect(),
                c: (0..w).map(|i| (50 + i) as u8).collect(),
                d_top: (0..w).map(|i| (200 + i * 5) as u8).collect(),
            };
            e.d_left[0] = e.d_top[0];
            let mut want = e.clone();
            let mut palaces = TileBuf::new(w, h);
            for row in 0..h {
                palaces.row_mut(row).fill(-1);
            }
            assert_eq!(through(&palaces, &mut want, |_| 0), (w * h) as u64);
            assert_eq!(pass_hood(&mut e), (w * h) as u64);
            assert_eq!(e, want, "{w}x{h}");
        }
    }

    /// Counting a known prefix of palaces a row at a time equals counting it cell by cell.
    #[test]
    fn through_with_a_hood_prefix_equals_cell_by_cell() {
        for (w, h) in [(1, 1), (1, 4), (6, 1), (9, 7), (40, 13)] {
            let mut cells = TileBuf::new(w, h);
            let prefix = |row: usize| (w * 3 / 4).saturating_sub(row / 2).min(w);
            for row in 0..h {
                for (col, v) in cells.row_mut(row).iter_mut().enumerate() {
                    *v = if col < prefix(row) || (col * 7 + row * 3) % 5 == 0 { -1 } else { 2 };
                }
            }
            let e = Edges {
                r: (0..h as u8).map(|i| i * 3).collect(),
                d_left: (0..h as u8).map(|i| 90 + i).collect(),
                c: (0..w as u8).map(|i| 60 + i).collect(),
                d_top: (0..w as u8).map(|i| 90u8.wrapping_sub(i)).collect(),
            };
            let (mut a, mut b) = (e.clone(), e.clone());
            assert_eq!(through(&cells, &mut a, prefix), through(&cells, &mut b, |_| 0), "{w}x{h}");
            assert_eq!(a, b, "{w}x{h}");
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
