//! The beam tracker: picks the lone palaces of the inner sector out of each row and strings
//! them into beams, lines of about one palace a row whose cells jitter a few columns about a
//! straight line (`docs/threads.md`, "The beams").
//!
//! Two steps, both fed one row at a time and knowing nothing of the CA (they take sorted
//! columns), so they are tested on hand-built rows:
//!
//! * [`Selector`] keeps a row's *candidates*: palaces with no other palace within [`CLUSTER`]
//!   cells on their row or their column (a thread of thickness 2 or more has several palaces
//!   that close on a row, or, mirrored, on a column: those palaces are *crowded*), and at most
//!   [`SQUARE_MAX`] crowded palaces in the [`SQUARE`] x [`SQUARE`] square centred on them.
//!   That is the inner sector's rule of `palace regions` (at most 4 palaces in a 64 x 64
//!   square) with the lone palaces left out of the count: a beam, one palace a row, fills the
//!   squares it crosses, so `regions` labels it warp; the warp's threads, of thickness 1 too,
//!   run among thicker ones and stay out. The rule reads rows and columns alike, so the
//!   candidates below the diagonal are the mirror images of those above it.
//! * [`Tracker`] follows the candidates. A *track* that has [`MIN_FIT`] cells predicts its
//!   next cell from the least-squares line `x = a + c y` through its last [`FIT_CELLS`] cells
//!   and takes the candidate nearest that line within the tolerance; a younger track takes
//!   the nearest candidate within a cone of [`CONE_REACH`] plus [`CONE_DRIFT`] columns per row
//!   since its last cell. A track takes at most one cell a row, and one cell goes to one track:
//!   the mature tracks choose first, nearest first, so a crossing line or a speck cannot
//!   capture a beam's cell, and two beams a few columns apart stay two. A track that finds no
//!   cell for more than `gap` rows ends. Tracks of at least [`MIN_PIECE`] cells are *pieces*;
//!   a piece whose line passes, within the tolerance, through the first cells of a piece that
//!   begins at most [`JOIN_FACTOR`] times the gap later (and that piece's line through its
//!   last cells) is joined to it. Joined pieces of at least [`MIN_CELLS`] cells over at least
//!   [`MIN_ROWS`] rows are *beams*.

use crate::analysis::threads::fit;
use std::collections::VecDeque;

/// Palaces on one row at most this many columns apart form one cluster (the threads' reach).
pub const CLUSTER: u32 = crate::analysis::threads::trace::REACH;

/// Side of the square a candidate must find (nearly) free of crowded palaces.
pub const SQUARE: u32 = 64;

/// Most crowded palaces a candidate's square may hold (the inner sector's bound in
/// `palace regions`).
pub const SQUARE_MAX: u32 = crate::labels::INNER_MAX;

/// Rows a beam may skip (`--gap`).
pub const GAP: u32 = 64;

/// Columns a beam's cell may lie from the beam's line (`--tolerance`).
pub const TOLERANCE: u32 = 28;

/// A young track's cone: this many columns from its last cell ...
pub const CONE_REACH: u32 = 8;

/// ... plus this many columns per row since.
pub const CONE_DRIFT: u32 = 3;

/// Cells a track needs before it follows its line.
pub const MIN_FIT: usize = 8;

/// Cells its line is fitted through (its last ones).
pub const FIT_CELLS: usize = 128;

/// A track refits its line after this many new cells.
const REFIT: usize = 8;

/// Two pieces may be joined across at most this many times the gap.
pub const JOIN_FACTOR: u32 = 4;

/// Cells a track needs to be a piece (shorter ones are specks).
pub const MIN_PIECE: usize = 16;

/// Cells a beam needs.
pub const MIN_CELLS: usize = 64;

/// Rows a beam needs (first to last).
pub const MIN_ROWS: u32 = 256;

/// Rows a row's candidates wait for: the square's rows below it, and the cluster's reach below
/// those (a palace is crowded by a palace below it too).
pub const DELAY: u32 = SQUARE / 2 - 1 + CLUSTER;

/// A row the [`Selector`] has decided: its palaces and its candidates, both sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    /// The row.
    pub y: u32,
    /// Its palaces.
    pub palaces: Vec<u32>,
    /// Its candidates (lone palaces with a nearly free square).
    pub candidates: Vec<u32>,
}

/// A row held by the [`Selector`].
#[derive(Debug)]
struct Held {
    y: u32,
    palaces: Vec<u32>,
    /// Whether each palace is crowded (so far: a palace below may still crowd it).
    crowded: Vec<bool>,
    /// The crowded palaces, once final.
    crowded_xs: Option<Vec<u32>>,
}

/// Picks each row's candidates (see the module's header). The rule looks the same way along
/// rows and along columns, so the candidates of the mirrored cells are the mirrored
/// candidates: a palace is *crowded* when another lies within [`CLUSTER`] cells on its row or
/// on its column; a *candidate* is a palace that is not crowded and whose square of
/// [`SQUARE`] x [`SQUARE`] cells, rows `y - 32..=y + 31` and columns `x - 32..=x + 31`, holds
/// at most [`SQUARE_MAX`] crowded palaces. A row is decided once the rows [`DELAY`] below it
/// have come, so rows come out that much later than they go in ([`Selector::push`]), and the
/// last ones at the end ([`Selector::finish`]), as if the rows below the last were empty.
#[derive(Debug, Default)]
pub struct Selector {
    rows: VecDeque<Held>,
    /// Per column: the row and the index in it of the column's last palace so far.
    last: Vec<(u32, u32)>,
    /// The next row to hand out.
    next_out: Option<u32>,
}

impl Selector {
    /// Takes row `y`'s palaces (sorted; rows in increasing order, a skipped row counting as a
    /// row without palaces) and returns the rows decided by it.
    pub fn push(&mut self, y: u32, palaces: Vec<u32>) -> Vec<Selected> {
        debug_assert!(palaces.windows(2).all(|w| w[0] < w[1]), "palaces in increasing order");
        if let Some(back) = self.rows.back().map(|r| r.y) {
            assert!(y > back, "rows in increasing order");
            for e in back + 1..y {
                self.hold(e, Vec::new());
            }
        } else {
            self.next_out = Some(y);
        }
        self.hold(y, palaces);
        self.ready(Some(y))
    }

    /// Hands out the rows still held.
    pub fn finish(&mut self) -> Vec<Selected> {
        self.ready(None)
    }

    fn hold(&mut self, y: u32, palaces: Vec<u32>) {
        let n = palaces.len();
        let mut crowded = vec![false; n];
        for i in 0..n {
            let x = palaces[i];
            if (i > 0 && x - palaces[i - 1] <= CLUSTER) || (i + 1 < n && palaces[i + 1] - x <= CLUSTER) {
                crowded[i] = true;
            }
        }
        let front = self.rows.front().map_or(y, |r| r.y);
        if let Some(&max) = palaces.last()
            && self.last.len() <= max as usize
        {
            self.last.resize(max as usize + 1, (u32::MAX, 0));
        }
        for (i, &x) in palaces.iter().enumerate() {
            let (ry, ri) = self.last[x as usize];
            if ry != u32::MAX && y - ry <= CLUSTER && ry >= front {
                crowded[i] = true;
                self.rows[(ry - front) as usize].crowded[ri as usize] = true;
            }
            self.last[x as usize] = (y, i as u32);
        }
        self.rows.push_back(Held { y, palaces, crowded, crowded_xs: None });
    }

    /// Hands out the rows decided when row `newest` has come (all, at the end).
    fn ready(&mut self, newest: Option<u32>) -> Vec<Selected> {
        let mut out = Vec::new();
        let Some(mut y) = self.next_out else { return out };
        let half = SQUARE / 2;
        while self.rows.back().is_some_and(|b| b.y >= y) && newest.is_none_or(|n| n >= y + DELAY) {
            // Rows whose crowding is final: all but the last `CLUSTER` (all at the end).
            let final_to = newest.map_or(u32::MAX, |n| n - CLUSTER);
            for r in self.rows.iter_mut().filter(|r| r.y <= final_to && r.crowded_xs.is_none()) {
                r.crowded_xs =
                    Some(r.palaces.iter().zip(&r.crowded).filter(|p| *p.1).map(|p| *p.0).collect());
            }
            let front = self.rows[0].y;
            let at = (y - front) as usize;
            let rows = &self.rows;
            let row = &rows[at];
            let candidates: Vec<u32> = row
                .palaces
                .iter()
                .zip(&row.crowded)
                .filter(|&(_, &c)| !c)
                .map(|(&x, _)| x)
                .filter(|&x| {
                    let (lo, hi) = (x.saturating_sub(half), x.saturating_add(half - 1));
                    let mut count = 0;
                    for r in rows.iter().filter(|r| r.y + half >= y && r.y < y + half) {
                        let xs = r.crowded_xs.as_ref().expect("final rows");
                        count += (xs.partition_point(|&c| c <= hi) - xs.partition_point(|&c| c < lo)) as u32;
                        if count > SQUARE_MAX {
                            return false;
                        }
                    }
                    true
                })
                .collect();
            out.push(Selected { y, palaces: row.palaces.clone(), candidates });
            y += 1;
            // Rows above the next row's square are no longer needed.
            while self.rows.front().is_some_and(|r| r.y + half < y) {
                self.rows.pop_front();
            }
        }
        self.next_out = Some(y);
        out
    }
}

/// A track being followed.
#[derive(Debug)]
struct Track {
    id: u32,
    /// Its cells `(y, x)`, one a row at most, in order.
    cells: Vec<(u32, u32)>,
    /// Its line `x = a + c y` and how many cells it had when fitted.
    line: Option<(f64, f64, usize)>,
    /// Rows (while it followed its line) by palaces within the tolerance of the line: 0, 1,
    /// 2, 3 or more.
    near: [u64; 4],
}

impl Track {
    fn last(&self) -> (u32, u32) {
        *self.cells.last().expect("a track has a cell")
    }

    /// Its prediction for row `y` and the tolerance: the line once it has [`MIN_FIT`] cells,
    /// else the cone. The line is refitted every few cells.
    fn predict(&mut self, y: u32, tolerance: u32) -> (f64, f64, bool) {
        let n = self.cells.len();
        if n >= MIN_FIT {
            if self.line.is_none_or(|(_, _, at)| n - at >= REFIT)
                && let Some((a, c)) = line_through(&self.cells[n.saturating_sub(FIT_CELLS)..])
            {
                self.line = Some((a, c, n));
            }
            if let Some((a, c, _)) = self.line {
                return (a + c * f64::from(y), f64::from(tolerance), true);
            }
        }
        let (ly, lx) = self.last();
        (f64::from(lx), f64::from(CONE_REACH + CONE_DRIFT * (y - ly)), false)
    }
}

/// The least-squares line `x = a + c y` through `cells` as `(a, c)`.
pub(crate) fn line_through(cells: &[(u32, u32)]) -> Option<(f64, f64)> {
    let pts = cells.iter().map(|&(y, x)| (f64::from(y), f64::from(x)));
    fit::fit_points(pts).map(|(f, a)| (a, f.per_line))
}

/// A piece: a track that lived long enough.
#[derive(Debug, Clone)]
struct Piece {
    cells: Vec<(u32, u32)>,
    near: [u64; 4],
}

/// A beam: joined pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct Beam {
    /// Its cells `(y, x)`, at most one a row, in increasing `y`.
    pub cells: Vec<(u32, u32)>,
    /// Rows followed by palaces (all of the row's, candidates or not) within the tolerance of
    /// the beam's line: 0, 1, 2, 3 or more.
    pub near: [u64; 4],
    /// Pieces joined into it.
    pub pieces: u32,
}

impl Beam {
    /// Its first row.
    pub fn first_row(&self) -> u32 {
        self.cells[0].0
    }

    /// Its last row.
    pub fn last_row(&self) -> u32 {
        self.cells[self.cells.len() - 1].0
    }

    /// Rows from its first to its last.
    pub fn rows(&self) -> u32 {
        self.last_row() - self.first_row() + 1
    }
}

/// What the tracker found.
#[derive(Debug, Clone, Default)]
pub struct Tracked {
    /// The beams, in order of their first row (then column).
    pub beams: Vec<Beam>,
    /// Tracks that ended with fewer than [`MIN_PIECE`] cells.
    pub specks: u64,
    /// Pieces (tracks of at least [`MIN_PIECE`] cells), before joining.
    pub pieces: u64,
    /// Candidates seen.
    pub candidates: u64,
}

/// The row-by-row tracker (see the module's header).
#[derive(Debug)]
pub struct Tracker {
    gap: u32,
    tolerance: u32,
    live: Vec<Track>,
    pieces: Vec<Piece>,
    next_id: u32,
    specks: u64,
    candidates: u64,
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new(GAP, TOLERANCE)
    }
}

impl Tracker {
    /// A tracker whose beams may skip `gap` rows and whose cells lie within `tolerance`
    /// columns of the beam's line.
    pub fn new(gap: u32, tolerance: u32) -> Self {
        Tracker { gap, tolerance, live: Vec::new(), pieces: Vec::new(), next_id: 0, specks: 0, candidates: 0 }
    }

    fn retire(&mut self, t: Track) {
        if t.cells.len() >= MIN_PIECE {
            self.pieces.push(Piece { cells: t.cells, near: t.near });
        } else {
            self.specks += 1;
        }
    }

    /// Follows row `y`: `palaces` are all the traced area's palaces on it (for the count of
    /// palaces near each line), `candidates` the [`Selector`]'s, both sorted. Rows must come in
    /// increasing order.
    pub fn line(&mut self, y: u32, palaces: &[u32], candidates: &[u32]) {
        let gap = self.gap;
        let (ended, live): (Vec<Track>, Vec<Track>) =
            std::mem::take(&mut self.live).into_iter().partition(|t| y - t.last().0 > gap);
        self.live = live;
        for t in ended {
            self.retire(t);
        }
        self.candidates += candidates.len() as u64;
        // Candidate pairs (distance, -cells, track id, track index, candidate index), mature
        // tracks and young ones apart.
        let mut mature: Vec<(f64, i64, u32, usize, usize)> = Vec::new();
        let mut young = Vec::new();
        for (ti, t) in self.live.iter_mut().enumerate() {
            let (pred, tol, fitted) = t.predict(y, self.tolerance);
            let (lo, hi) = (pred - tol, pred + tol);
            if fitted {
                let a = palaces.partition_point(|&x| f64::from(x) < lo);
                let b = palaces.partition_point(|&x| f64::from(x) <= hi);
                t.near[(b - a).min(3)] += 1;
            }
            let a = candidates.partition_point(|&x| f64::from(x) < lo);
            for (ci, &x) in candidates.iter().enumerate().skip(a) {
                if f64::from(x) > hi {
                    break;
                }
                let pair = ((f64::from(x) - pred).abs(), -(t.cells.len() as i64), t.id, ti, ci);
                if fitted { mature.push(pair) } else { young.push(pair) }
            }
        }
        let mut taken_track = vec![false; self.live.len()];
        let mut taken = vec![false; candidates.len()];
        for mut pairs in [mature, young] {
            pairs.sort_by(|p, q| p.0.total_cmp(&q.0).then((p.1, p.2, p.4).cmp(&(q.1, q.2, q.4))));
            for (_, _, _, ti, ci) in pairs {
                if !taken_track[ti] && !taken[ci] {
                    taken_track[ti] = true;
                    taken[ci] = true;
                    self.live[ti].cells.push((y, candidates[ci]));
                }
            }
        }
        for (ci, &x) in candidates.iter().enumerate() {
            if !taken[ci] {
                self.live.push(Track { id: self.next_id, cells: vec![(y, x)], line: None, near: [0; 4] });
                self.next_id += 1;
            }
        }
    }

    /// Ends the tracking: every track ends, the pieces are joined, and the beams returned.
    pub fn finish(mut self) -> Tracked {
        for t in std::mem::take(&mut self.live) {
            self.retire(t);
        }
        let mut pieces = std::mem::take(&mut self.pieces);
        pieces.sort_by_key(|p| p.cells[0]);
        let n = pieces.len();
        let heads: Vec<Option<(f64, f64)>> =
            pieces.iter().map(|p| line_through(&p.cells[..p.cells.len().min(FIT_CELLS)])).collect();
        let tails: Vec<Option<(f64, f64)>> = pieces
            .iter()
            .map(|p| line_through(&p.cells[p.cells.len().saturating_sub(FIT_CELLS)..]))
            .collect();
        let reach = JOIN_FACTOR * self.gap;
        let tol = f64::from(self.tolerance);
        let mut joins: Vec<(f64, usize, usize)> = Vec::new();
        for a in 0..n {
            let (Some(tail), last) = (tails[a], pieces[a].cells[pieces[a].cells.len() - 1].0) else {
                continue;
            };
            for b in 0..n {
                let first = pieces[b].cells[0].0;
                if first <= last || first - last > reach {
                    continue;
                }
                let Some(head) = heads[b] else { continue };
                let pb = &pieces[b].cells;
                let pa = &pieces[a].cells;
                let r1 = median_residual(&pb[..pb.len().min(FIT_CELLS)], tail);
                let r2 = median_residual(&pa[pa.len().saturating_sub(FIT_CELLS)..], head);
                if r1 <= tol && r2 <= tol {
                    joins.push((r1 + r2, a, b));
                }
            }
        }
        joins.sort_by(|p, q| p.0.total_cmp(&q.0).then((p.1, p.2).cmp(&(q.1, q.2))));
        let (mut next, mut prev) = (vec![None; n], vec![None; n]);
        for (_, a, b) in joins {
            if next[a].is_none() && prev[b].is_none() {
                next[a] = Some(b);
                prev[b] = Some(a);
            }
        }
        let mut beams = Vec::new();
        for head in (0..n).filter(|&i| prev[i].is_none()) {
            let mut beam = Beam { cells: Vec::new(), near: [0; 4], pieces: 0 };
            let mut at = Some(head);
            while let Some(i) = at {
                beam.cells.extend_from_slice(&pieces[i].cells);
                for (s, v) in beam.near.iter_mut().zip(pieces[i].near) {
                    *s += v;
                }
                beam.pieces += 1;
                at = next[i];
            }
            if beam.cells.len() >= MIN_CELLS && beam.rows() >= MIN_ROWS {
                beams.push(beam);
            }
        }
        beams.sort_by_key(|b| b.cells[0]);
        Tracked { beams, specks: self.specks, pieces: n as u64, candidates: self.candidates }
    }
}

/// The median of `|x - (a + c y)|` over `cells`.
fn median_residual(cells: &[(u32, u32)], (a, c): (f64, f64)) -> f64 {
    let mut r: Vec<f64> = cells.iter().map(|&(y, x)| (f64::from(x) - a - c * f64::from(y)).abs()).collect();
    r.sort_by(f64::total_cmp);
    r[r.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds rows `0..rows` of `row(y)` (palaces) through a selector and a tracker.
    fn track(rows: u32, mut row: impl FnMut(u32) -> Vec<u32>) -> Tracked {
        let (mut s, mut t) = (Selector::default(), Tracker::default());
        for y in 0..rows {
            let mut p = row(y);
            p.sort_unstable();
            p.dedup();
            for r in s.push(y, p) {
                t.line(r.y, &r.palaces, &r.candidates);
            }
        }
        for r in s.finish() {
            t.line(r.y, &r.palaces, &r.candidates);
        }
        t.finish()
    }

    /// Every row's candidates, by row.
    fn select(rows: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let mut s = Selector::default();
        let mut out: Vec<Selected> = Vec::new();
        for (y, p) in rows.iter().enumerate() {
            out.extend(s.push(y as u32, p.clone()));
        }
        out.extend(s.finish());
        assert!(out.iter().enumerate().all(|(i, r)| r.y == i as u32), "every row once, in order");
        out.into_iter().map(|r| r.candidates).collect()
    }

    /// A lone palace is a candidate; two within the cluster's reach on a row are not, nor two
    /// within it on a column; nor is a lone one beside a thread of thickness 3 (its square is
    /// crowded) until the thread is 32 rows away.
    #[test]
    fn selector_keeps_lone_palaces() {
        let c = select(&[vec![100, 200, 204, 300, 400], vec![], vec![], vec![], vec![400]]);
        assert_eq!(c, [vec![100, 300], vec![], vec![], vec![], vec![]]);
        let c = select(&[vec![400], vec![], vec![], vec![], vec![], vec![400]]);
        assert_eq!(c[0], [400], "five rows apart: not crowded");
        // Rows 0..10: a thread of 3 cells at 500..504 (crowded: neighbours on the row and on
        // the column), a lone palace near it at 510..530 and one far from it at 700 + 3 y;
        // then the near one alone down to row 80.
        let near = |y: u32| 510 + 5 * (y % 5);
        let rows: Vec<Vec<u32>> = (0..80)
            .map(|y| if y < 10 { vec![500, 502, 504, near(y), 700 + 3 * y] } else { vec![near(y)] })
            .collect();
        let c = select(&rows);
        for (y, row) in c.iter().enumerate() {
            let y = y as u32;
            assert_eq!(row.contains(&(700 + 3 * y)), y < 10, "row {y}");
            // The square of row y covers rows y - 32..=y + 31: two of the thread's rows (6
            // crowded palaces) until y = 40, its last row alone (3, at most 4 allowed) at 41.
            assert_eq!(row.contains(&near(y)), y >= 41, "row {y}: {row:?}");
        }
    }

    /// The rule looks the same way along rows and columns: the candidates of a bitmap's
    /// transpose are the transposed candidates.
    #[test]
    fn selector_is_symmetric() {
        // A thread of thickness 3, a beam and scattered palaces, on 300 x 300 cells.
        let mut cells = std::collections::BTreeSet::new();
        for y in 0..300u32 {
            for d in [0, 2, 4] {
                cells.insert((y, (2 * y + 37 + d) % 300));
            }
            cells.insert((y, (y * 7 / 5 + 90) % 300));
            cells.insert((y, (y * y * 31 + 11) % 300));
        }
        let rows = |cells: &std::collections::BTreeSet<(u32, u32)>| -> Vec<Vec<u32>> {
            (0..300).map(|y| cells.range((y, 0)..(y + 1, 0)).map(|c| c.1).collect()).collect()
        };
        let t: std::collections::BTreeSet<(u32, u32)> = cells.iter().map(|&(y, x)| (x, y)).collect();
        let a = select(&rows(&cells));
        let b = select(&rows(&t));
        let pairs = |c: &Vec<Vec<u32>>| -> std::collections::BTreeSet<(u32, u32)> {
            c.iter().enumerate().flat_map(|(y, xs)| xs.iter().map(move |&x| (y as u32, x))).collect()
        };
        let transposed: std::collections::BTreeSet<(u32, u32)> =
            pairs(&b).iter().map(|&(y, x)| (x, y)).collect();
        assert!(!pairs(&a).is_empty());
        assert_eq!(pairs(&a), transposed);
    }

    /// A straight line of one palace a row is one beam with every cell.
    #[test]
    fn a_digital_line_is_one_beam() {
        let t = track(600, |y| vec![1000 + (y as f64 * 2.15).floor() as u32]);
        assert_eq!(t.beams.len(), 1);
        assert_eq!(t.beams[0].cells.len(), 600);
        assert_eq!(t.beams[0].pieces, 1);
        // Every followed row has exactly the beam's palace near the line.
        let b = &t.beams[0];
        assert_eq!(b.near[1], 600 - MIN_FIT as u64);
        assert_eq!(b.near[0] + b.near[2] + b.near[3], 0);
    }

    /// A gap of 200 rows (longer than `gap`, shorter than the join's reach) splits the line
    /// into two pieces that are joined into one beam.
    #[test]
    fn pieces_across_a_gap_are_joined() {
        let t = track(1200, |y| {
            if (500..700).contains(&y) { vec![] } else { vec![50 + (y as f64 * 1.3).floor() as u32] }
        });
        assert_eq!(t.beams.len(), 1, "{:?}", t.beams.iter().map(|b| b.cells.len()).collect::<Vec<_>>());
        assert_eq!(t.beams[0].pieces, 2);
        assert_eq!(t.beams[0].cells.len(), 1000);
    }

    /// Two pieces that do not line up are not joined.
    #[test]
    fn misaligned_pieces_stay_apart() {
        let t = track(1200, |y| match y {
            0..500 => vec![50 + 2 * y],
            700.. => vec![50 + 2 * y + 60],
            _ => vec![],
        });
        assert_eq!(t.beams.len(), 2);
    }
}
