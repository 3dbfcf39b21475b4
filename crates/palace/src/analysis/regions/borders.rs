//! The borders between the regions (§3.1: "7 regions, 4 junctions and 7 borders"), measured
//! on the labels: for every unordered pair of distinct labels that touch, the cell edges
//! between them (4-neighbours inside the window), the rows and columns those edges span, and
//! the corners where the border ends.
//!
//! Both labellers feed the same accumulator, `BorderAcc`, a row of labels at a time with the
//! labels of the row above, of the cell to its left and of the cell above that one: the
//! reference row sweep keeps the previous row, the tiled labeller takes the row and column
//! next to a tile from the tiles above it and to its left. Every count is a sum over cells
//! (extents a minimum or maximum), so the tiles' accumulators merge, in any order, into the
//! reference's counts exactly. Memory is one table of pairs, whatever the board.
//!
//! A border is *clean* when it is a line: crossed once by every row and every column it spans
//! (a monotone staircase), it has as many edges as its extent has rows and columns together,
//! so [`Border::per_step`] is about 1. A ragged border, one region's cells scattered into the
//! other's, has many edges per step of its extent. A border's *ends* are where it stops at a
//! third region: two for a border from junction to junction, more for one broken into pieces by
//! other regions. `docs/regions.md` ("Borders") gives the figures.

use crate::labels::{ALL, NONE, Region};
use serde::Serialize;

/// Labels there are.
const N: usize = ALL.len();

/// The paper's seven borders (§3.1), in its order, and the label pairs that make each.
/// The rift and the fray are regions of their own in the labels, so each is two borders of
/// labels (the band's two sides) plus the pair it separates where the band is missing.
pub const PAPER_BORDERS: [&str; 7] =
    ["casing", "seam", "rift", "fray", "warp | inner sector", "inside of the arm", "outside of the arm"];

/// Which side of the diagonal a region keeps to: `Some(true)` above, `Some(false)` below, `None`
/// both (hood, outer space, fabric, fray, inner sector).
fn side(r: Region) -> Option<bool> {
    use Region::*;
    match r {
        EpauletteUpper | ArmUpper | RiftUpper | WarpUpper => Some(true),
        EpauletteLower | ArmLower | RiftLower | WarpLower => Some(false),
        _ => None,
    }
}

/// The paper's border that the pair of labels `a`, `b` makes (an index into
/// [`PAPER_BORDERS`]), if any: same-side pairs only (the upper épaulette against the upper
/// arm is the seam, against the lower arm no border of the paper's).
pub(crate) fn paper_border(a: Region, b: Region) -> Option<usize> {
    use Region::*;
    if let (Some(sa), Some(sb)) = (side(a), side(b))
        && sa != sb
    {
        return None;
    }
    let is = |r: Region, set: &[Region]| set.contains(&r);
    let pair = |x: &[Region], y: &[Region]| (is(a, x) && is(b, y)) || (is(b, x) && is(a, y));
    let (ep, arm) = (&[EpauletteUpper, EpauletteLower][..], &[ArmUpper, ArmLower][..]);
    let (rift, warp) = (&[RiftUpper, RiftLower][..], &[WarpUpper, WarpLower][..]);
    if pair(&[Hood], ep) {
        Some(0)
    } else if pair(ep, arm) {
        Some(1)
    } else if pair(ep, rift) || pair(rift, &[Fabric]) || pair(ep, &[Fabric]) {
        Some(2)
    } else if pair(&[Fabric], &[Fray]) || pair(&[Fray], warp) || pair(&[Fabric], warp) {
        Some(3)
    } else if pair(warp, &[InnerSector]) {
        Some(4)
    } else if pair(arm, warp) {
        Some(5)
    } else if pair(arm, &[OuterSpace]) {
        Some(6)
    } else {
        None
    }
}

/// One pair's counts while they are gathered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PairAcc {
    row_edges: u64,
    column_edges: u64,
    ends: u64,
    /// First and last column, first and last row of the cells on the border's edges.
    xs: (u64, u64),
    ys: (u64, u64),
}

impl Default for PairAcc {
    fn default() -> Self {
        PairAcc { row_edges: 0, column_edges: 0, ends: 0, xs: (u64::MAX, 0), ys: (u64::MAX, 0) }
    }
}

impl PairAcc {
    fn span(&mut self, (xa, xb): (u64, u64), (ya, yb): (u64, u64)) {
        self.xs = (self.xs.0.min(xa), self.xs.1.max(xb));
        self.ys = (self.ys.0.min(ya), self.ys.1.max(yb));
    }

    fn merge(&mut self, o: &PairAcc) {
        self.row_edges += o.row_edges;
        self.column_edges += o.column_edges;
        self.ends += o.ends;
        self.span(o.xs, o.ys);
    }
}

/// The half of the board an edge lies in, for pairs of regions that lie on both sides of the
/// diagonal (hood, outer space, fabric, fray, inner sector): their borders above and below it
/// are mirror images, counted apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Half {
    /// Above the diagonal: the edge's midpoint has `x > y`.
    Upper,
    /// Below it: `x < y`.
    Lower,
}

/// Whether label `l` is a region on both sides of the diagonal (see [`Half`]).
fn both_sides(l: u8) -> bool {
    side(ALL[usize::from(l)]).is_none()
}

/// The border counts of labelled rows (labels as [`Region::index`]), for every pair of labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BorderAcc {
    /// `pairs[2 * (a * N + b) + h]` for labels `a < b`; `h = 1` for the lower half of a pair of
    /// regions on both sides of the diagonal, 0 otherwise.
    pairs: Vec<PairAcc>,
}

impl Default for BorderAcc {
    fn default() -> Self {
        BorderAcc { pairs: vec![PairAcc::default(); 2 * N * N] }
    }
}

/// Cells skipped at once when none of them has an edge.
const RUN: usize = 64;

/// Eight labels as one word.
#[inline(always)]
fn word(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().expect("eight labels"))
}

impl BorderAcc {
    /// The index of the pair `a`, `b` (different) for an edge above the diagonal (`upper`) or
    /// below it.
    #[inline(always)]
    fn key(a: u8, b: u8, upper: bool) -> usize {
        debug_assert!(a != b && usize::from(a.max(b)) < N, "labels {a} and {b}");
        let (lo, hi) = (usize::from(a.min(b)), usize::from(a.max(b)));
        2 * (lo * N + hi) + usize::from(!upper && both_sides(a) && both_sides(b))
    }

    /// Adds the cells of row `y` from column `x` on, `cur` (at least one), with the labels of
    /// the cell left of the first (`left`), of the row above (`above`, as long as `cur`) and of
    /// the cell above `left` (`above_left`): [`NONE`] or `None` where they lie outside the
    /// window. Counts each cell's edges with its left and upper neighbours and the corner at
    /// its upper left.
    #[inline(always)]
    pub(crate) fn add_row(
        &mut self,
        y: u64,
        x: u64,
        cur: &[u8],
        left: u8,
        above: Option<&[u8]>,
        above_left: u8,
    ) {
        let n = cur.len();
        let up = |i: usize| above.map_or(NONE, |a| a[i]);
        self.cell(x, y, cur[0], left, up(0), above_left);
        // Eight cells at a time: a cell equal to its left and upper neighbours has no edge to
        // count, and no end at its corner (the upper-left neighbour, if it differs, has two
        // edges of one pair there); the others go one by one. Runs of 32 cells without an edge
        // (most are: regions are wide) are skipped at once.
        let diff = |i: usize| {
            let c = word(cur, i);
            (c ^ word(cur, i - 1)) | above.map_or(0, |a| c ^ word(a, i))
        };
        // A fold over bytes, not words: it vectorises.
        let quiet = |i: usize| {
            let (c, l) = (&cur[i..i + RUN], &cur[i - 1..i - 1 + RUN]);
            let d = c.iter().zip(l).fold(0, |d, (&c, &l)| d | (c ^ l));
            d | above.map_or(0, |a| c.iter().zip(&a[i..i + RUN]).fold(0, |d, (&c, &u)| d | (c ^ u))) == 0
        };
        let mut i = 1;
        while i + 8 <= n {
            if i + RUN <= n && quiet(i) {
                i += RUN;
                continue;
            }
            let mut d = diff(i);
            while d != 0 {
                let j = i + (d.trailing_zeros() / 8) as usize;
                d &= !(0xff << (8 * (j - i)));
                self.cell(x + j as u64, y, cur[j], cur[j - 1], up(j), up(j - 1));
            }
            i += 8;
        }
        for j in i..n {
            self.cell(x + j as u64, y, cur[j], cur[j - 1], up(j), up(j - 1));
        }
    }

    /// The edges of the cell `(x, y)` labelled `c` with its left and upper neighbours `l` and
    /// `u`, and the corner it shares with them and `ul`.
    #[inline(never)]
    fn cell(&mut self, x: u64, y: u64, c: u8, l: u8, u: u8, ul: u8) {
        // Edge midpoints: (x - 1/2, y) with the left neighbour, (x, y - 1/2) with the upper one.
        if l != NONE && l != c {
            let p = &mut self.pairs[Self::key(l, c, x > y)];
            p.row_edges += 1;
            p.span((x - 1, x), (y, y));
        }
        if u != NONE && u != c {
            let p = &mut self.pairs[Self::key(u, c, x >= y)];
            p.column_edges += 1;
            p.span((x, x), (y - 1, y));
        }
        if l == NONE || u == NONE || ul == NONE || (u == c && l == c) {
            return;
        }
        // The four edges that meet at the corner (x - 1/2, y - 1/2): above it, below it, left
        // and right of it. A pair (in one half) with exactly one of them ends there.
        let edge = |a: u8, b: u8, upper: bool| (a != b).then(|| Self::key(a, b, upper));
        let edges = [edge(ul, u, x >= y), edge(l, c, x > y), edge(ul, l, x > y), edge(u, c, x >= y)];
        for (i, &e) in edges.iter().enumerate() {
            if let Some(k) = e
                && edges.iter().enumerate().all(|(j, &f)| j == i || f != Some(k))
            {
                self.pairs[k].ends += 1;
            }
        }
    }

    /// Adds `other`'s counts.
    pub(crate) fn merge(&mut self, other: &BorderAcc) {
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            a.merge(b);
        }
    }

    /// The borders found: the paper's in [`PAPER_BORDERS`] order, then the other touching
    /// pairs; within each, by the labels' order in [`ALL`], the upper half first.
    pub(crate) fn borders(&self) -> Vec<Border> {
        let mut out = Vec::new();
        for (a, &ra) in ALL.iter().enumerate() {
            for (b, &rb) in ALL.iter().enumerate().skip(a + 1) {
                for h in 0..2 {
                    let p = &self.pairs[2 * (a * N + b) + h];
                    if p.row_edges + p.column_edges == 0 {
                        continue;
                    }
                    let steps = (p.ys.1 - p.ys.0 + 1) + (p.xs.1 - p.xs.0 + 1);
                    let split = both_sides(a as u8) && both_sides(b as u8);
                    out.push(Border {
                        a: ra,
                        b: rb,
                        half: split.then_some(if h == 0 { Half::Upper } else { Half::Lower }),
                        paper: paper_border(ra, rb).map(|i| PAPER_BORDERS[i]),
                        row_edges: p.row_edges,
                        column_edges: p.column_edges,
                        rows: p.ys,
                        columns: p.xs,
                        per_step: (p.row_edges + p.column_edges) as f64 / steps as f64,
                        ends: p.ends,
                    });
                }
            }
        }
        out.sort_by_key(|b| (paper_border(b.a, b.b).unwrap_or(PAPER_BORDERS.len()), b.a, b.b, b.half));
        out
    }
}

/// Where two regions touch: the edges between their cells in the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Border {
    /// The region first in [`ALL`].
    pub a: Region,
    /// The other region.
    pub b: Region,
    /// For two regions on both sides of the diagonal (hood, outer space, fabric, fray, inner
    /// sector), the half of the board: their borders there are counted apart.
    pub half: Option<Half>,
    /// The paper's border the pair makes (one of [`PAPER_BORDERS`]), if any.
    pub paper: Option<&'static str>,
    /// Edges between neighbours in a row (cells `(x - 1, y)` and `(x, y)`): where rows cross the
    /// border.
    pub row_edges: u64,
    /// Edges between neighbours in a column (cells `(x, y - 1)` and `(x, y)`).
    pub column_edges: u64,
    /// First and last row of the cells on either side of its edges.
    pub rows: (u64, u64),
    /// First and last column of those cells.
    pub columns: (u64, u64),
    /// Edges per step of the extent: `(row_edges + column_edges) / (rows spanned + columns
    /// spanned)`; about 1 for a clean border (a monotone staircase), far more for a ragged one,
    /// less for a border in pieces far apart.
    pub per_step: f64,
    /// Cell corners inside the window where one edge of the border meets no other of it: where
    /// the border stops at a third region. A border in `n` pieces, each running from a third
    /// region to a third region, has `2n` ends; a closed piece (an island of one region in the
    /// other) or one running off the window has none at the window's edge or on the loop.
    pub ends: u64,
}

impl Border {
    /// The pair's name, as "a | b", with the half where there is one.
    pub fn labels(&self) -> String {
        let half = match self.half {
            Some(Half::Upper) => " (upper half)",
            Some(Half::Lower) => " (lower half)",
            None => "",
        };
        format!("{} | {}{half}", self.a.name(), self.b.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The border counts of a grid of labels given row by row, through `add_row` a row at a
    /// time (as the reference does), and cut into tiles at column `cut` and row `cut_y` (as
    /// the tiled labeller does), which must agree.
    fn counts(grid: &[Vec<u8>], cut: usize, cut_y: usize) -> BorderAcc {
        let mut whole = BorderAcc::default();
        for (y, row) in grid.iter().enumerate() {
            let above = y.checked_sub(1).map(|u| &grid[u][..]);
            whole.add_row(y as u64, 0, row, NONE, above, NONE);
        }
        let mut tiles =
            [BorderAcc::default(), BorderAcc::default(), BorderAcc::default(), BorderAcc::default()];
        let w = grid[0].len();
        for (y, row) in grid.iter().enumerate() {
            let above = y.checked_sub(1).map(|u| &grid[u][..]);
            let t = 2 * usize::from(y >= cut_y);
            for (acc, (a, b)) in tiles[t..t + 2].iter_mut().zip([(0, cut), (cut, w)]) {
                if a < b {
                    let l = a.checked_sub(1).map_or(NONE, |i| row[i]);
                    let ul = above.zip(a.checked_sub(1)).map_or(NONE, |(u, i)| u[i]);
                    acc.add_row(y as u64, a as u64, &row[a..b], l, above.map(|u| &u[a..b]), ul);
                }
            }
        }
        let mut merged = BorderAcc::default();
        for t in tiles.iter().rev() {
            merged.merge(t);
        }
        assert_eq!(merged, whole, "tiles cut at ({cut}, {cut_y})");
        whole
    }

    fn find(acc: &BorderAcc, a: Region, b: Region) -> Border {
        acc.borders().into_iter().find(|x| (x.a, x.b) == (a.min(b), a.max(b))).expect("the pair")
    }

    const H: u8 = Region::Hood as u8;
    const E: u8 = Region::EpauletteUpper as u8;
    const W: u8 = Region::WarpUpper as u8;
    const I: u8 = Region::InnerSector as u8;

    #[test]
    fn a_straight_border() {
        // Columns 0..4 hood, 4..24 épaulette, over 30 rows: 30 edges in rows, none in columns.
        let grid: Vec<Vec<u8>> =
            (0..30).map(|_| (0..24).map(|x| if x < 4 { H } else { E }).collect()).collect();
        for (cut, cut_y) in [(0, 0), (4, 7), (5, 30), (17, 1), (24, 29)] {
            let acc = counts(&grid, cut, cut_y);
            let b = find(&acc, Region::Hood, Region::EpauletteUpper);
            assert_eq!((b.row_edges, b.column_edges, b.rows, b.columns, b.ends), (30, 0, (0, 29), (3, 4), 0));
            assert_eq!(b.paper, Some("casing"));
            assert!((b.per_step - 30.0 / 32.0).abs() < 1e-12);
            assert_eq!(acc.borders().len(), 1);
        }
    }

    #[test]
    fn a_staircase_and_its_ends() {
        // Hood where x + 2y < 40 (the casing's slope), épaulette beyond, on 40 x 20 cells; a
        // warp cell at (30, 15) inside the épaulette: a closed border of four edges, no ends.
        let mut grid: Vec<Vec<u8>> =
            (0..20).map(|y| (0..40).map(|x| if x + 2 * y < 40 { H } else { E }).collect()).collect();
        grid[15][30] = W;
        for (cut, cut_y) in [(0, 0), (13, 9), (31, 15), (30, 16)] {
            let acc = counts(&grid, cut, cut_y);
            let b = find(&acc, Region::Hood, Region::EpauletteUpper);
            // Row y crosses once, at x = 40 - 2y, for y = 0..20 (row 0's crossing is off the
            // grid: 19 rows, the last between columns 1 and 2); column x at
            // y = ceil((40 - x) / 2), on the grid for x = 2..40 (38 columns).
            assert_eq!((b.row_edges, b.column_edges), (19, 38));
            assert_eq!((b.rows, b.columns), ((0, 19), (1, 39)));
            assert_eq!(b.ends, 0, "the staircase runs from window edge to window edge");
            assert!((b.per_step - 57.0 / 59.0).abs() < 1e-12);
            let w = find(&acc, Region::EpauletteUpper, Region::WarpUpper);
            assert_eq!(
                (w.row_edges, w.column_edges, w.ends, w.rows, w.columns),
                (2, 2, 0, (14, 16), (29, 31))
            );
            assert_eq!(w.paper, None);
        }
        // Cut the staircase: the épaulette's cells from row 11 down become warp. The border
        // hood | épaulette ends at the corner where the warp begins, (20, 11); its other end
        // runs off the window's right edge.
        for row in grid.iter_mut().skip(11) {
            for c in row.iter_mut().filter(|c| **c == E) {
                *c = W;
            }
        }
        let acc = counts(&grid, 7, 12);
        let b = find(&acc, Region::Hood, Region::EpauletteUpper);
        assert_eq!((b.row_edges, b.column_edges, b.rows, b.columns, b.ends), (10, 20, (0, 10), (19, 39), 1));
        let w = find(&acc, Region::Hood, Region::WarpUpper);
        assert_eq!((w.row_edges, w.column_edges, w.ends), (9, 18, 1));
    }

    #[test]
    fn a_ragged_border_has_many_edges_per_step() {
        // Warp and inner sector mixed in a pseudo-random checkerboard over 64 x 64 cells.
        let mut s = 12345u64;
        let grid: Vec<Vec<u8>> = (0..64)
            .map(|_| {
                (0..64)
                    .map(|_| {
                        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if s >> 63 == 0 { W } else { I }
                    })
                    .collect()
            })
            .collect();
        // The plain count: every pair of different neighbours.
        let (mut rows, mut cols) = (0, 0);
        for y in 0..64 {
            for x in 0..64 {
                rows += u64::from(x > 0 && grid[y][x] != grid[y][x - 1]);
                cols += u64::from(y > 0 && grid[y][x] != grid[y - 1][x]);
            }
        }
        let acc = counts(&grid, 21, 40);
        let b = find(&acc, Region::WarpUpper, Region::InnerSector);
        assert_eq!((b.row_edges, b.column_edges), (rows, cols));
        assert_eq!(b.paper, Some("warp | inner sector"));
        assert!(b.per_step > 10.0, "{b:?}");
        // Two labels only: every piece of the border is a closed loop or runs off the window.
        assert_eq!(b.ends, 0);
    }

    #[test]
    fn regions_on_both_sides_have_a_border_in_each_half() {
        // Fabric where x + y < 20, fray beyond, on 20 x 20 cells: a staircase across the
        // diagonal. Row y crosses it between columns 19 - y and 20 - y (y = 1..20), midpoint
        // x = 19.5 - y: above the diagonal for y <= 9; column x between rows 19 - x and 20 - x,
        // midpoint y = 19.5 - x: above for x >= 10.
        const F: u8 = Region::Fabric as u8;
        const R: u8 = Region::Fray as u8;
        let grid: Vec<Vec<u8>> =
            (0..20).map(|y| (0..20).map(|x| if x + y < 20 { F } else { R }).collect()).collect();
        let acc = counts(&grid, 10, 10);
        let halves: Vec<Border> = acc.borders().into_iter().filter(|b| b.a == Region::Fabric).collect();
        assert_eq!(halves.len(), 2);
        let (up, lo) = (&halves[0], &halves[1]);
        assert_eq!(
            (up.half, up.row_edges, up.column_edges, up.rows, up.columns),
            (Some(Half::Upper), 9, 10, (0, 10), (10, 19))
        );
        assert_eq!(
            (lo.half, lo.row_edges, lo.column_edges, lo.rows, lo.columns),
            (Some(Half::Lower), 10, 9, (10, 19), (0, 10))
        );
        // Each half ends at the diagonal, at the corner (9.5, 9.5); its other end runs off the window.
        assert_eq!((up.ends, lo.ends), (1, 1));
        assert_eq!(up.paper, Some("fray"));
        assert_eq!(up.labels(), "fabric | fray (upper half)");
    }

    #[test]
    fn the_papers_borders_by_pair() {
        use Region::*;
        let name = |a, b| paper_border(a, b).map(|i| PAPER_BORDERS[i]);
        assert_eq!(name(EpauletteLower, Hood), Some("casing"));
        assert_eq!(name(EpauletteUpper, ArmUpper), Some("seam"));
        assert_eq!(name(EpauletteUpper, ArmLower), None);
        assert_eq!(name(RiftLower, Fabric), Some("rift"));
        assert_eq!(name(EpauletteLower, RiftLower), Some("rift"));
        assert_eq!(name(Fray, WarpLower), Some("fray"));
        assert_eq!(name(InnerSector, WarpUpper), Some("warp | inner sector"));
        assert_eq!(name(WarpUpper, ArmUpper), Some("inside of the arm"));
        assert_eq!(name(OuterSpace, ArmLower), Some("outside of the arm"));
        assert_eq!(name(Hood, OuterSpace), None);
        assert_eq!(name(Fabric, InnerSector), None);
    }
}
