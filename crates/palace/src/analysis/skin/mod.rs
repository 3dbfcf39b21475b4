//! The skin of the upper arm (paper §3.4) followed from the shoulder at `(k, 0)` to column `X`.
//!
//! Per column `x >= k`: the skin's **top** is the first row below outer space (the first cell
//! of the column that is not 0), its **vertical thickness** the number of palaces from there
//! down, its **diagonal thickness** the run of palaces from the top cell along (1, 1). Per row:
//! the **horizontal thickness** is the run of palaces left of the outer-space boundary.
//!
//! The paper: at level `n` the skin has vertical thickness `f(2n)` (`f(2n) + 1` in the column
//! where it emits a vertical line), diagonal thickness `f(2n+1)`, horizontal thickness
//! `f(2n+2)`, horizontal period `f(2n+3)` and vertical period `f(2n+1)` (Fibonacci,
//! `f(1) = f(2) = 1`); the outer boundary descends in steps of 2 and 3 columns whose pattern
//! expands by `2 -> 23, 3 -> 233` at each thickening, and the skin's slope tends to `1/phi^2`.
//! Levels n = 1, 2, 3 were seen, changing after about 200 and 7700 columns.
//!
//! One state machine, [`SkinState`], reads the rows in order and follows the boundary and the
//! open runs. Two sweeps feed it:
//!
//! * [`follow`] and [`Follower`]: a counter sweep ([`Sweep::palaces`](crate::engine::Sweep::palaces))
//!   of the rows the skin needs, at the three-counter kernels' speed, asking for the values of
//!   only the tiles around the advancing boundary; it pauses and resumes through checkpoints.
//! * [`follow_rows`]: the CA's row sweep with the columns around the boundary
//!   assembled row by row; the reference the counter sweep is tested against.

pub mod pattern;
mod plot;
mod rows;
mod sweep;

pub use pattern::PatternMeasures;
pub use plot::plot;
pub use rows::{follow_rows, follow_rows_with};
pub use sweep::{Follower, SkinRun, follow};
#[cfg(feature = "gpu")]
pub(crate) use sweep::{estimate, show};

use crate::engine::checkpoint::{Reader, Writer};
use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// How far left of the boundary rows are assembled: room for horizontal thicknesses up to
/// f(2n+2) = 2584 (level 8).
const HORIZONTAL_REACH: u64 = 4096;

/// How far the boundary may advance per row: the steps are 2 or 3 columns wide; a row where it
/// runs further than the columns assembled stops the analysis with an error.
const MAX_ADVANCE: u64 = 4;

/// How far right of the farthest the boundary can reach rows are assembled: the three columns
/// checked to be 0 there ([`SkinState::row`]).
const RIGHT_REACH: u64 = 3;

/// `1 / phi^2`, the slope the skin approaches.
pub const INV_PHI2: f64 = 0.381_966_011_250_105_1;

/// Fibonacci numbers with `f(1) = f(2) = 1` (index 0 is 0).
pub fn fib(i: usize) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..i {
        (a, b) = (b, a + b);
    }
    a
}

/// The level `n` whose vertical thickness is `t`: `t = f(2n)` or `f(2n) + 1`, if any.
pub fn level_of_thickness(t: u32) -> Option<usize> {
    let t = u64::from(t);
    // (f(2n - 1), f(2n)), from n = 1; read once per column of a skin, so no fib() calls.
    let (mut odd, mut even) = (1u64, 1u64);
    for n in 1..30 {
        if t == even || t == even + 1 {
            return Some(n);
        }
        if even > t {
            return None;
        }
        (odd, even) = (odd + even, odd + 2 * even);
    }
    None
}

/// The step word of level `n`: `2` expanded `n` times by `2 -> 23, 3 -> 233`.
pub(crate) fn step_word(n: usize) -> Vec<u8> {
    let mut w = vec![2u8];
    for _ in 0..n {
        w = w.iter().flat_map(|&s| if s == 2 { vec![2, 3] } else { vec![2, 3, 3] }).collect();
    }
    w
}

/// Rows a sweep for the skin up to column `to` covers at most; the sweep stops as soon as the
/// skin is complete, so rows past the skin's end cost nothing.
///
/// The skin ends `k` rows at most below the top of its last column: neither its vertical nor
/// its diagonal run can hold more than `k` palaces (a cell that sees `k` palaces north, or
/// north-west, is not a palace; docs/rule.md, "Palace number"). The top of column `to - 1`
/// lies at most `(to - k) / 2` rows down, plus a margin, because the outer boundary descends
/// in steps at least 2 columns wide: 2 and 3 at every level of the paper's pattern (slope
/// 1/phi^2 to 2/5), 2 only for k = 3, whose skin keeps slope 1/2 (docs/skin.md, "Small
/// games"). The margin of 4096 rows is for the thickenings between levels. The paper's slope
/// alone, `(to - k) / phi^2`, is too few for k = 3 past about 82000 columns. This bound rests
/// on the steps observed, not on a proof; a skin that needs more rows is refused with an
/// error after the sweep, never measured short.
pub fn rows_for(k: u32, to: u64) -> u32 {
    let span = to.saturating_sub(u64::from(k));
    let rows = span.div_ceil(2) + u64::from(k) + 4096;
    rows.min(u64::from(crate::model::geometry::MAX_SIDE)) as u32
}

/// What the sweep saw in one column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The column.
    pub x: u64,
    /// Row of the first cell below outer space.
    pub top: u32,
    /// Its CA value (a palace is negative).
    pub top_v: i8,
    /// Palaces from the top cell down.
    pub vertical: u32,
    /// Palaces from the top cell along (1, 1).
    pub diagonal: u32,
}

/// The skin followed row by row: the boundary, the columns measured and the runs still open.
/// Rows must come in order from row 0, each with the cells of the columns
/// [`SkinState::columns`] asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinState {
    k: u64,
    to: u64,
    /// First column still in outer space (all 0 from row 0), i.e. the boundary.
    boundary: u64,
    /// Columns `k..` done so far (their top found).
    cols: Vec<Column>,
    /// Columns whose vertical run is still growing.
    vertical_open: VecDeque<usize>,
    /// Diagonal runs still growing: (column index, current x).
    diagonal_open: Vec<(usize, u64)>,
    /// Horizontal thickness per row: (row, boundary column, run).
    horizontal: Vec<(u32, u64, u32)>,
    /// Rows seen.
    rows: u32,
    /// Cells left of the boundary over the rows seen: the cells the skin needed.
    needed: u64,
    /// The last column whose vertical run ended, if any.
    last_closed: Option<usize>,
    /// The skin's cells (those of the vertical runs) by value, indexed by `v + 128`.
    values: Box<[u64; 256]>,
    /// The first skin cell (row by row) of each value other than -1 and -2: (v, x, y).
    others: Vec<(i8, u64, u32)>,
    /// Per column, if recorded ([`SkinState::with_patterns`]): bit `j` set when the cell `j`
    /// rows below the top, of the column's vertical run, has `v = -2` (`j < 64`).
    patterns: Option<Vec<u64>>,
    /// With the patterns: the cells of the horizontal and diagonal runs that lie in no
    /// column's vertical run, by value (indexed by `v + 128`), each counted once.
    outside: Box<[u64; 256]>,
}

impl SkinState {
    /// The state before row 0 of game `k`, following the skin up to column `to`.
    pub fn new(k: u32, to: u64) -> Self {
        let k = u64::from(k);
        SkinState {
            k,
            to,
            boundary: k,
            cols: Vec::new(),
            vertical_open: VecDeque::new(),
            diagonal_open: Vec::new(),
            horizontal: Vec::new(),
            rows: 0,
            needed: 0,
            last_closed: None,
            values: Box::new([0; 256]),
            others: Vec::new(),
            patterns: None,
            outside: Box::new([0; 256]),
        }
    }

    /// The same state, also recording each column's pattern of `v = -2` and `-1` (8 bytes a
    /// column): what [`pattern`]'s measures of claims 27 and 34 read. Call before row 0.
    pub fn with_patterns(mut self) -> Self {
        self.patterns = Some(vec![0; self.cols.len()]);
        self
    }

    /// The columns' patterns, if recorded (see [`SkinState::with_patterns`]).
    pub fn patterns(&self) -> Option<&[u64]> {
        self.patterns.as_deref()
    }

    /// Whether cell `(x, y)` of the row being read lies in its column's vertical run (the
    /// vertical runs already read this row): columns the boundary has not reached yet start
    /// their runs in this row.
    fn in_vertical_run(&self, x: u64, y: u32) -> bool {
        match self.cols.get((x - self.k) as usize) {
            Some(c) => y >= c.top && y < c.top + c.vertical,
            None => true,
        }
    }

    /// Whether every column's skin has been measured completely.
    pub fn complete(&self) -> bool {
        self.boundary >= self.to && self.vertical_open.is_empty() && self.diagonal_open.is_empty()
    }

    /// Rows seen so far.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// The cells left of the boundary over the rows seen (what the skin needed so far).
    pub fn needed(&self) -> u64 {
        self.needed
    }

    /// The columns measured so far.
    pub fn columns_measured(&self) -> &[Column] {
        &self.cols
    }

    /// The column the boundary has reached.
    pub fn boundary(&self) -> u64 {
        self.boundary
    }

    /// The last column whose vertical run has ended: its column and thickness.
    pub(crate) fn last_closed(&self) -> Option<(u64, u32)> {
        self.last_closed.map(|i| (self.cols[i].x, self.cols[i].vertical))
    }

    /// The columns `[lo, hi)` the rows up to `rows_ahead` rows past those seen need: the open
    /// runs lie left of the boundary, and the boundary advances at most 4 columns per
    /// row (its steps are 2 or 3 wide).
    pub fn columns(&self, rows_ahead: u32) -> (u64, u64) {
        let lo = self
            .vertical_open
            .front()
            .map(|&i| self.cols[i].x)
            .into_iter()
            .chain(self.diagonal_open.iter().map(|&(_, x)| x))
            .min()
            .unwrap_or(self.boundary)
            .min(self.boundary)
            .saturating_sub(HORIZONTAL_REACH);
        (lo, Self::columns_right_of(self.boundary, rows_ahead))
    }

    /// The end of the columns `rows_ahead` rows need when the boundary is at `boundary` (the
    /// `hi` of [`SkinState::columns`]).
    fn columns_right_of(boundary: u64, rows_ahead: u32) -> u64 {
        boundary + MAX_ADVANCE * u64::from(rows_ahead) + RIGHT_REACH
    }

    /// Reads row `y` (the next one); `at(x)` is the value of cell `(x, y)`, `None` where the
    /// row was not assembled.
    pub fn row(&mut self, y: u32, at: impl Fn(u64) -> Option<i8>) -> Result<()> {
        debug_assert_eq!(y, self.rows, "rows in order");
        let palace = |x: u64| at(x).is_some_and(|v| v < 0);
        // Vertical runs.
        // In place, in order: no queue allocated per row.
        let mut open = std::mem::take(&mut self.vertical_open);
        open.retain(|&i| {
            if let Some(v) = at(self.cols[i].x).filter(|&v| v < 0) {
                if let Some(p) = &mut self.patterns {
                    p[i] |= u64::from(v == -2 && self.cols[i].vertical < 64) << self.cols[i].vertical.min(63);
                }
                self.cols[i].vertical += 1;
                self.see(v, self.cols[i].x, y);
                true
            } else {
                self.last_closed = Some(self.last_closed.map_or(i, |j| j.max(i)));
                false
            }
        });
        self.vertical_open = open;
        // Diagonal runs: the run of column i is at (x, y) this row.
        let mut diagonal = std::mem::take(&mut self.diagonal_open);
        let mut outside = Vec::new();
        diagonal.retain_mut(|(i, x)| {
            *x += 1;
            if *x < self.to && palace(*x) {
                self.cols[*i].diagonal += 1;
                if self.patterns.is_some() && !self.in_vertical_run(*x, y) {
                    outside.push(*x);
                }
                true
            } else {
                false
            }
        });
        self.diagonal_open = diagonal;
        // New tops: the boundary advances over the cells of this row that are not 0.
        while self.boundary < self.to {
            let Some(v) = at(self.boundary) else {
                return Err(Error::Analysis(format!(
                    "skin: in row {y} the arm's boundary ran past column {}, beyond the columns followed; the skin cannot be followed here",
                    self.boundary
                )));
            };
            if v == 0 {
                break;
            }
            let i = self.cols.len();
            self.cols.push(Column {
                x: self.boundary,
                top: y,
                top_v: v,
                vertical: u32::from(v < 0),
                diagonal: u32::from(v < 0),
            });
            if let Some(p) = &mut self.patterns {
                p.push(u64::from(v == -2));
            }
            if v < 0 {
                self.see(v, self.boundary, y);
                self.vertical_open.push_back(i);
                self.diagonal_open.push((i, self.boundary));
            } else {
                self.last_closed = Some(i);
            }
            self.boundary += 1;
        }
        // The rule reaches two cells: nothing right of the boundary may be non-zero.
        for x in self.boundary..(self.boundary + 3).min(self.to) {
            if at(x).is_some_and(|v| v != 0) {
                return Err(Error::Analysis(format!(
                    "skin: outer space is not a prefix in row {y} (cell ({x}, {y}) is not 0); the skin cannot be followed"
                )));
            }
        }
        // Horizontal thickness: palaces left of the boundary in this row.
        if self.boundary < self.to {
            let mut run = 0u32;
            let mut x = self.boundary;
            while x > self.k && palace(x - 1) {
                run += 1;
                x -= 1;
                if self.patterns.is_some() && !self.in_vertical_run(x, y) {
                    outside.push(x);
                }
            }
            if x > self.k && at(x - 1).is_none() {
                return Err(Error::Mismatch(format!(
                    "skin: row {y}: the horizontal run left the columns assembled"
                )));
            }
            self.horizontal.push((y, self.boundary, run));
        }
        outside.sort_unstable();
        outside.dedup();
        for x in outside {
            let v = at(x).expect("a palace read above");
            self.outside[(i16::from(v) + 128) as usize] += 1;
        }
        self.needed += self.boundary;
        self.rows = y + 1;
        Ok(())
    }

    /// Counts a skin cell `(x, y)` of value `v`.
    fn see(&mut self, v: i8, x: u64, y: u32) {
        let n = &mut self.values[(i16::from(v) + 128) as usize];
        if *n == 0 && v != -1 && v != -2 {
            self.others.push((v, x, y));
        }
        *n += 1;
    }

    /// Writes the state (for checkpoints; [`SkinState::decode`] reads it back).
    pub fn encode(&self, w: &mut Writer) {
        let put = |w: &mut Writer, v: u64| w.u64(v);
        let b = w;
        put(b, self.k);
        put(b, self.to);
        put(b, self.boundary);
        put(b, u64::from(self.rows));
        put(b, self.needed);
        put(b, self.last_closed.map_or(u64::MAX, |i| i as u64));
        put(b, self.cols.len() as u64);
        put(b, self.vertical_open.len() as u64);
        put(b, self.diagonal_open.len() as u64);
        put(b, self.horizontal.len() as u64);
        for c in &self.cols {
            b.u32(c.top);
            b.u8(c.top_v as u8);
            b.u32(c.vertical);
            b.u32(c.diagonal);
        }
        for &i in &self.vertical_open {
            b.u64(i as u64);
        }
        for &(i, x) in &self.diagonal_open {
            b.u64(i as u64);
            b.u64(x);
        }
        for &(y, x, r) in &self.horizontal {
            b.u32(y);
            b.u64(x);
            b.u32(r);
        }
        for &n in self.values.iter() {
            b.u64(n);
        }
        b.u64(self.others.len() as u64);
        for &(v, x, y) in &self.others {
            b.u8(v as u8);
            b.u64(x);
            b.u32(y);
        }
        if let Some(p) = &self.patterns {
            for &m in p {
                b.u64(m);
            }
            for &n in self.outside.iter() {
                b.u64(n);
            }
        }
    }

    /// Why this state cannot be one the skin's sweep reaches after its first `rows` rows, if
    /// it cannot (checked on a resumed checkpoint, whose checksum only says the file is as
    /// written): a column's top or runs beyond the rows seen, tops out of order, more cells
    /// needed than lie left of the boundary, runs or first occurrences that point at no
    /// column or row seen.
    pub fn impossible(&self) -> Option<String> {
        let rows = u64::from(self.rows);
        let ncols = self.cols.len();
        if self.boundary > self.to {
            return Some(format!(
                "its boundary {} lies past the last column to follow, {}",
                self.boundary, self.to
            ));
        }
        let mut top = 0;
        for c in &self.cols {
            let t = u64::from(c.top);
            if t < top || t >= rows || u64::from(c.vertical) > rows - t || u64::from(c.diagonal) > rows - t {
                return Some(format!("column {} has its top or runs beyond the {rows} rows read", c.x));
            }
            top = t;
        }
        if self.needed > rows.saturating_mul(self.boundary) {
            return Some(format!(
                "it needs {} cells, more than the {rows} rows read hold left of column {}",
                self.needed, self.boundary
            ));
        }
        if self.values.iter().sum::<u64>() > self.needed {
            return Some("it counts more skin cells than lie left of its boundary".into());
        }
        if self.diagonal_open.iter().any(|&(i, x)| i >= ncols || x < self.cols[i].x)
            || self.vertical_open.iter().any(|&i| i >= ncols)
        {
            return Some("an open run starts at no column read".into());
        }
        if self
            .horizontal
            .iter()
            .any(|&(y, x, r)| u64::from(y) >= rows || x > self.boundary || u64::from(r) > x)
        {
            return Some("a row's horizontal run lies beyond the rows or columns read".into());
        }
        if self.others.iter().any(|&(v, x, y)| {
            u64::from(y) >= rows || x >= self.boundary || self.values[(i16::from(v) + 128) as usize] == 0
        }) {
            return Some("a first occurrence lies beyond the rows read or has no count".into());
        }
        None
    }

    /// Reads what [`SkinState::encode`] wrote; `None` unless it is a consistent state of game
    /// `k` up to column `to` (without the columns' patterns).
    pub fn decode(k: u32, to: u64, r: &mut Reader<'_>) -> Option<Self> {
        Self::decode_with(k, to, false, r)
    }

    /// [`SkinState::decode`] for a state that records the columns' patterns (`patterns`) or not.
    pub(crate) fn decode_with(k: u32, to: u64, patterns: bool, r: &mut Reader<'_>) -> Option<Self> {
        let head: Vec<u64> = (0..10).map(|_| r.u64()).collect::<Option<_>>()?;
        let [kk, tt, boundary, rows, needed, last, ncols, nv, nd, nh] = head[..] else { return None };
        if (kk, tt) != (u64::from(k), to)
            || boundary < kk
            || boundary - kk != ncols
            || rows > u64::from(u32::MAX)
        {
            return None;
        }
        // Every entry takes at least 8 bytes but a column (13): lengths beyond the input are
        // refused before anything is allocated.
        let left = r.remaining() as u64;
        if ncols.checked_mul(13)? > left || nv.max(nd).max(nh).checked_mul(8)? > left {
            return None;
        }
        let mut s = SkinState::new(k, to);
        s.boundary = boundary;
        s.rows = rows as u32;
        s.needed = needed;
        s.last_closed = (last != u64::MAX).then_some(last as usize).filter(|&i| (i as u64) < ncols);
        if last != u64::MAX && s.last_closed.is_none() {
            return None;
        }
        for i in 0..ncols {
            let top = r.u32()?;
            let top_v = r.u8()? as i8;
            let (vertical, diagonal) = (r.u32()?, r.u32()?);
            s.cols.push(Column { x: kk + i, top, top_v, vertical, diagonal });
        }
        let index = |v: u64| (v < ncols).then_some(v as usize);
        for _ in 0..nv {
            s.vertical_open.push_back(index(r.u64()?)?);
        }
        for _ in 0..nd {
            s.diagonal_open.push((index(r.u64()?)?, r.u64()?));
        }
        for _ in 0..nh {
            s.horizontal.push((r.u32()?, r.u64()?, r.u32()?));
        }
        for n in s.values.iter_mut() {
            *n = r.u64()?;
        }
        // At most one entry per value.
        let n_others = r.u64()?;
        if n_others > 256 {
            return None;
        }
        for _ in 0..n_others {
            s.others.push((r.u8()? as i8, r.u64()?, r.u32()?));
        }
        if patterns {
            s.patterns = Some((0..ncols).map(|_| r.u64()).collect::<Option<_>>()?);
            for n in s.outside.iter_mut() {
                *n = r.u64()?;
            }
        }
        Some(s)
    }
}

/// One level of the skin as measured.
#[derive(Debug, Clone, Serialize)]
pub struct Level {
    /// The level n.
    pub n: usize,
    /// First column from which the level holds for two horizontal periods.
    pub begins_at: u64,
    /// Columns measured at this level (up to the next level or `--to`).
    pub columns: u64,
    /// Vertical thicknesses seen and how often.
    pub vertical: Vec<(u32, u64)>,
    /// Most common diagonal thickness (paper: f(2n+1)), over the level's columns but its lines.
    pub diagonal: Option<u32>,
    /// Every diagonal thickness over the level's regular columns (vertical thickness `f(2n)`,
    /// not the lines) and how often (claim 19 as a distribution).
    pub diagonals: Vec<(u32, u64)>,
    /// Most common horizontal thickness (paper: f(2n+2)).
    pub horizontal: Option<u32>,
    /// Every horizontal thickness over the rows whose last skin column is a regular column of
    /// the level, and how often. In such a row the palaces left of the skin number exactly
    /// `k` minus this thickness: the outer-space cell right of the skin has `N = k` and sees
    /// no palace north or north-west (the paper's `k - f(2n+3)`, claim 35).
    pub horizontals: Vec<(u32, u64)>,
    /// Most common distance between emitted lines (paper: f(2n+3)).
    pub horizontal_period: Option<u64>,
    /// Most common descent of the top over one horizontal period (paper: f(2n+1)).
    pub vertical_period: Option<u64>,
    /// Least-squares slope of the top against the column (paper: tends to 1/phi^2).
    pub slope: Option<f64>,
    /// Whether every step of the outer boundary is 2 or 3 columns wide (over the level's
    /// longest stretch of regular columns).
    pub steps_2_or_3: bool,
    /// Whether the steps repeat the word `2` expanded n times by `2 -> 23, 3 -> 233`.
    pub step_word_matches: bool,
    /// The step word expected at this level.
    pub step_word: String,
    /// The paper's values for this level: vertical f(2n), diagonal f(2n+1), horizontal f(2n+2),
    /// horizontal period f(2n+3), vertical period f(2n+1).
    pub paper: [u64; 5],
    /// The level's longest stretch of regular columns (vertical thickness `f(2n)` or
    /// `f(2n) + 1`): columns `[from, to)`, over which the steps and the pattern are measured.
    pub regular: (u64, u64),
    /// The pattern of `k - 2` and `k - 1` over the level's regular stretch (symmetry, expansion
    /// from the level below), when the columns' patterns were recorded.
    pub pattern: Option<PatternMeasures>,
}

/// The result of `palace skin`.
#[derive(Debug, Clone, Serialize)]
pub struct SkinReport {
    /// The game.
    pub k: u32,
    /// Last column followed (exclusive).
    pub to: u64,
    /// Rows read.
    pub rows: u32,
    /// Cells left of the boundary over those rows: the cells the skin needs (the sweep's own
    /// figures, which depend on its tiling, go to the engine's report).
    pub cells_needed: u64,
    /// The levels seen, in order.
    pub levels: Vec<Level>,
    /// Columns whose vertical thickness matches no level (transitions).
    pub irregular_columns: u64,
    /// The skin's cells (those of the vertical runs, from each column's top down) by value
    /// `v`, ascending: the paper (§3.4) says they hold palace numbers `k - 2` and `k - 1`, that
    /// is `v = -2` and `-1`.
    pub skin_values: Vec<(i8, u64)>,
    /// The first skin cell (row by row) of each value other than -1 and -2: `(v, x, y)`.
    pub skin_others: Vec<(i8, u64, u32)>,
    /// With `--pattern`: the cells of the horizontal and diagonal runs outside every vertical
    /// run, by value `v`, ascending (each cell once). With the vertical runs' cells they are
    /// every cell of every run the report measures.
    pub outside_values: Option<Vec<(i8, u64)>>,
}

fn mode<T: Ord + Copy>(it: impl Iterator<Item = T>) -> Option<T> {
    let mut m = BTreeMap::new();
    for v in it {
        *m.entry(v).or_insert(0u64) += 1;
    }
    m.into_iter().max_by_key(|&(v, c)| (c, std::cmp::Reverse(v))).map(|(v, _)| v)
}

/// The levels of a complete skin and their measures.
pub fn analyse(s: &SkinState) -> SkinReport {
    let (k, to) = (s.k as u32, s.to);
    let cols = &s.cols;
    let levels_of: Vec<Option<usize>> = cols.iter().map(|c| level_of_thickness(c.vertical)).collect();
    // Where each level starts holding for two horizontal periods.
    let mut starts: Vec<(usize, usize)> = Vec::new(); // (n, column index)
    let mut i = 0;
    while i < cols.len() {
        if let Some(n) = levels_of[i] {
            let need = 2 * fib(2 * n + 3) as usize;
            // A level already begun needs no second look (checked first: the scan costs `need`
            // per column).
            let new_level = starts.last().is_none_or(|&(m, _)| m != n);
            let stable =
                new_level && i + need <= cols.len() && levels_of[i..i + need].iter().all(|&l| l == Some(n));
            if stable {
                starts.push((n, i));
                i += need;
                continue;
            }
        }
        i += 1;
    }
    let mut levels: Vec<Level> = Vec::new();
    let mut cores: Vec<(usize, (usize, usize))> = Vec::new();
    for (li, &(n, a)) in starts.iter().enumerate() {
        let b = starts.get(li + 1).map_or(cols.len(), |&(_, b)| b);
        let seg = &cols[a..b];
        let mut vert = BTreeMap::new();
        for c in seg {
            *vert.entry(c.vertical).or_insert(0u64) += 1;
        }
        let line = fib(2 * n) as u32 + 1;
        let lines: Vec<&Column> = seg.iter().filter(|c| c.vertical == line).collect();
        let hp = mode(lines.windows(2).map(|w| w[1].x - w[0].x));
        let vp = hp.and_then(|p| {
            mode(seg.iter().zip(seg.iter().skip(p as usize)).map(|(c, d)| u64::from(d.top - c.top)))
        });
        let (sx, sy) = (seg[0].x as f64, f64::from(seg[0].top));
        let (mut sxx, mut sxy) = (0.0, 0.0);
        for c in seg {
            let (dx, dy) = (c.x as f64 - sx, f64::from(c.top) - sy);
            sxx += dx * dx;
            sxy += dx * dy;
        }
        let slope = (sxx > 0.0).then(|| sxy / sxx);
        // Steps: widths of the runs of equal top rows, over the level's longest stretch of
        // regular columns (the thickening itself is irregular), whole runs only.
        let core = {
            let lv = &levels_of[a..b];
            let (mut best, mut cur) = ((0, 0), 0);
            for (j, l) in lv.iter().enumerate() {
                if *l == Some(n) {
                    cur += 1;
                    if cur > best.1 - best.0 {
                        best = (j + 1 - cur, j + 1);
                    }
                } else {
                    cur = 0;
                }
            }
            cores.push((n, (a + best.0, a + best.1)));
            &seg[best.0..best.1]
        };
        let mut widths = Vec::new();
        let mut run = 1u64;
        for w in core.windows(2) {
            if w[1].top == w[0].top {
                run += 1;
            } else {
                widths.push(run);
                run = 1;
            }
        }
        let inner = if widths.len() > 2 { &widths[1..widths.len() - 1] } else { &[][..] };
        let steps_ok = !inner.is_empty() && inner.iter().all(|&w| w == 2 || w == 3);
        let word: Vec<u64> = step_word(n).iter().map(|&s| u64::from(s)).collect();
        let word_ok = steps_ok
            && inner.len() >= word.len()
            && (0..word.len())
                .any(|phase| inner.iter().enumerate().all(|(j, &w)| w == word[(j + phase) % word.len()]));
        let (ya, yb) = (seg[0].x, seg[seg.len() - 1].x);
        let horizontal =
            mode(s.horizontal.iter().filter(|&&(_, bx, _)| bx >= ya && bx <= yb).map(|&(_, _, r)| r));
        let regular =
            |x: u64| x.checked_sub(s.k).is_some_and(|i| levels_of.get(i as usize) == Some(&Some(n)));
        let mut diagonals = BTreeMap::new();
        // Not the columns whose diagonal run the end of the run at `to` cut short.
        for c in
            seg.iter().filter(|c| u64::from(c.vertical) == fib(2 * n) && c.x + u64::from(c.diagonal) < to)
        {
            *diagonals.entry(c.diagonal).or_insert(0u64) += 1;
        }
        let mut horizontals = BTreeMap::new();
        for &(_, _, r) in s.horizontal.iter().filter(|&&(_, bx, _)| bx > ya && bx <= yb && regular(bx - 1)) {
            *horizontals.entry(r).or_insert(0u64) += 1;
        }
        let pattern = s.patterns.as_deref().map(|p| {
            let (_, core) = *cores.last().expect("pushed above");
            let below = cores.len().checked_sub(2).map(|j| cores[j]).filter(|&(m, _)| m + 1 == n);
            pattern::measure(cols, p, n, core, below)
        });
        levels.push(Level {
            n,
            begins_at: cols[a].x,
            columns: seg.len() as u64,
            vertical: vert.into_iter().collect(),
            diagonal: mode(seg.iter().filter(|c| c.vertical != line).map(|c| c.diagonal)),
            diagonals: diagonals.into_iter().collect(),
            horizontal,
            horizontals: horizontals.into_iter().collect(),
            horizontal_period: hp,
            vertical_period: vp,
            slope,
            steps_2_or_3: steps_ok,
            step_word_matches: word_ok,
            step_word: word.iter().map(|d| d.to_string()).collect(),
            paper: [fib(2 * n), fib(2 * n + 1), fib(2 * n + 2), fib(2 * n + 3), fib(2 * n + 1)],
            regular: {
                let (_, (ca, cb)) = *cores.last().expect("pushed above");
                (cols[ca].x, cols[ca].x + (cb - ca) as u64)
            },
            pattern,
        });
    }
    let irregular = levels_of.iter().filter(|l| l.is_none()).count() as u64;
    let skin_values =
        (0..256usize).filter(|&i| s.values[i] > 0).map(|i| ((i as i16 - 128) as i8, s.values[i])).collect();
    SkinReport {
        k,
        to,
        rows: s.rows,
        cells_needed: s.needed,
        levels,
        irregular_columns: irregular,
        skin_values,
        skin_others: s.others.clone(),
        outside_values: s.patterns.as_ref().map(|_| {
            (0..256usize)
                .filter(|&i| s.outside[i] > 0)
                .map(|i| ((i as i16 - 128) as i8, s.outside[i]))
                .collect()
        }),
    }
}

/// Writes the per-column measurements as CSV.
pub fn write_csv(cols: &[Column], out: &mut impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
    w.write_all(b"x,top,top_v,vertical,diagonal,level\n")?;
    for c in cols {
        write!(w, "{},{},{},{},{},", c.x, c.top, c.top_v, c.vertical, c.diagonal)?;
        match level_of_thickness(c.vertical) {
            Some(n) => writeln!(w, "{n}")?,
            None => writeln!(w)?,
        }
    }
    w.flush()
}

impl std::fmt::Display for SkinReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "skin of the upper arm, k = {}, from the shoulder ({}, 0) to column {} ({} rows, {} cells below outer space)",
            self.k, self.k, self.to, self.rows, self.cells_needed
        )?;
        writeln!(
            f,
            "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  vertical thicknesses seen",
            "n",
            "begins at",
            "columns",
            "vert (paper)",
            "diagonal",
            "horizontal",
            "h period",
            "v period",
            "slope",
            "2/3",
            "word"
        )?;
        for l in &self.levels {
            let o = |v: Option<u64>, p: u64| v.map_or(format!("-/{p}"), |v| format!("{v}/{p}"));
            let vs: Vec<String> = l.vertical.iter().map(|(t, c)| format!("{t}:{c}")).collect();
            writeln!(
                f,
                "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  {}",
                l.n,
                l.begins_at,
                l.columns,
                format!("{}(+1)", l.paper[0]),
                o(l.diagonal.map(u64::from), l.paper[1]),
                o(l.horizontal.map(u64::from), l.paper[2]),
                o(l.horizontal_period, l.paper[3]),
                o(l.vertical_period, l.paper[4]),
                l.slope.map_or("-".into(), |s| format!("{s:.5}")),
                if l.steps_2_or_3 { "yes" } else { "no" },
                if l.step_word_matches { "yes" } else { "no" },
                vs.join(" ")
            )?;
        }
        writeln!(
            f,
            "(measured/paper; slope -> 1/phi^2 = {INV_PHI2:.5}; {} columns match no level)",
            self.irregular_columns
        )?;
        let dist = |d: &[(u32, u64)]| d.iter().map(|(t, c)| format!("{t}:{c}")).collect::<Vec<_>>().join(" ");
        for l in &self.levels {
            writeln!(
                f,
                "  n = {}: diagonal thicknesses (regular columns, not lines) {}; horizontal thicknesses (rows) {} (palaces left of the skin: k minus these; paper k - {})",
                l.n,
                dist(&l.diagonals),
                dist(&l.horizontals),
                fib(2 * l.n + 3)
            )?;
            if let Some(p) = &l.pattern {
                write!(
                    f,
                    "         periods {} ({} of {} columns, {} distinct); half-turn symmetric between the lines: shape {}, values {}, values with k-2 and k-1 exchanged {}",
                    p.periods,
                    p.full_periods,
                    l.paper[3],
                    p.distinct_periods,
                    p.symmetric_shape,
                    p.symmetric_values,
                    p.symmetric_exchanged
                )?;
                match &p.expansion {
                    Some(e) => writeln!(
                        f,
                        "; expansion matrices from n = {}: {} of {} steps reproduced, {} of the {} holding a line (alignment {})",
                        e.from, e.reproduced, e.steps, e.line_steps_reproduced, e.line_steps, e.alignment
                    )?,
                    None => writeln!(f)?,
                }
            }
        }
        let values: Vec<String> = self.skin_values.iter().map(|(v, n)| format!("{v}: {n}")).collect();
        writeln!(
            f,
            "skin cells (the vertical runs) by value v: {} (paper: palace numbers k-2 and k-1, v = -2 and -1)",
            values.join(", ")
        )?;
        if let Some(o) = &self.outside_values {
            let o: Vec<String> = o.iter().map(|(v, n)| format!("{v}: {n}")).collect();
            writeln!(
                f,
                "cells of the horizontal and diagonal runs outside the vertical runs, by value v: {}",
                if o.is_empty() { "none".to_string() } else { o.join(", ") }
            )?;
        }
        for &(v, x, y) in &self.skin_others {
            writeln!(
                f,
                "  the first skin cell with v = {v}: ({x}, {y}), column +{} past the shoulder",
                x - u64::from(self.k)
            )?;
        }
        Ok(())
    }
}

/// The smallest game with a skin: in games 1 and 2 outer space is not a prefix of row 1
/// (k = 1 is classical Wythoff Nim, whose palaces are the Wythoff pairs), so there is no arm
/// whose skin could be followed.
pub const MIN_K: u32 = 3;

/// Refuses a game without a skin and a `to` the skin cannot be followed to.
pub fn check_to(k: u32, to: u64) -> Result<()> {
    if k < MIN_K {
        use crate::error::{Bound, Param, ParameterError};
        return Err(ParameterError::new(Param::K, k)
            .bound(Bound::AtLeast(i64::from(MIN_K)))
            .text(": games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin to follow; use ")
            .name(Param::K)
            .text(format!(" {MIN_K} or more"))
            .into());
    }
    if to <= u64::from(k) || to > u64::from(crate::model::geometry::MAX_SIDE) {
        use crate::error::{Bound, Param, ParameterError};
        let max = crate::model::geometry::MAX_SIDE;
        return Err(ParameterError::new(Param::To, to)
            .bound(Bound::Between(i64::from(k) + 1, i64::from(max)))
            .text(format!(
                ": the skin starts at the shoulder (k, 0) = ({k}, 0) and columns stop at {max}; use {k} < "
            ))
            .name(Param::To)
            .text(format!(" <= {max}"))
            .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state's bytes.
    fn encoded(s: &SkinState) -> Vec<u8> {
        let mut w = Writer::new();
        s.encode(&mut w);
        w.into_bytes()
    }

    /// A state read back from all of `bytes`, or none.
    fn decoded(k: u32, to: u64, patterns: bool, bytes: &[u8]) -> Option<SkinState> {
        let mut r = Reader::new(bytes);
        SkinState::decode_with(k, to, patterns, &mut r).filter(|_| r.is_empty())
    }

    #[test]
    fn fibonacci_and_words() {
        assert_eq!((1..=10).map(fib).collect::<Vec<_>>(), vec![1, 1, 2, 3, 5, 8, 13, 21, 34, 55]);
        assert_eq!(level_of_thickness(1), Some(1));
        assert_eq!(level_of_thickness(2), Some(1));
        assert_eq!(level_of_thickness(3), Some(2));
        assert_eq!(level_of_thickness(9), Some(3));
        assert_eq!(level_of_thickness(5), None);
        // The definition, t = f(2n) or f(2n) + 1, for every thickness up to level 12.
        for t in 0..=fib(24) as u32 + 2 {
            let by_definition =
                (1..30).find(|&n| u64::from(t) == fib(2 * n) || u64::from(t) == fib(2 * n) + 1);
            assert_eq!(level_of_thickness(t), by_definition, "thickness {t}");
        }
        assert_eq!(step_word(1), vec![2, 3]);
        assert_eq!(step_word(2), vec![2, 3, 2, 3, 3]);
        // Each word spans f(2n+3) columns in f(2n+1) steps (the periods of §3.4).
        for n in 1..8 {
            let w = step_word(n);
            assert_eq!(w.iter().map(|&s| u64::from(s)).sum::<u64>(), fib(2 * n + 3));
            assert_eq!(w.len() as u64, fib(2 * n + 1));
        }
    }

    /// The state of game 60 after each of its first rows, fed from the direct definition:
    /// its bytes read back to the same state, and every truncation of them is refused.
    #[test]
    fn states_read_back_from_their_bytes() {
        let (k, to) = (60u32, 700u64);
        let mut dp = crate::model::reference::DirectDp::new(k, to as usize);
        let mut s = SkinState::new(k, to);
        for y in 0..200u32 {
            let row: Vec<i8> =
                dp.next_row().iter().map(|&n| (i64::from(n) - i64::from(k)).clamp(-128, 127) as i8).collect();
            s.row(y, |x| row.get(x as usize).copied()).unwrap();
            if y % 37 == 0 || y == 199 {
                let bytes = encoded(&s);
                assert_eq!(decoded(k, to, false, &bytes).as_ref(), Some(&s), "row {y}");
                assert!(decoded(k + 1, to, false, &bytes).is_none());
                for cut in [0, 1, 8, bytes.len() / 2, bytes.len() - 1] {
                    assert!(decoded(k, to, false, &bytes[..cut]).is_none(), "row {y}, cut at {cut}");
                }
                let mut longer = bytes.clone();
                longer.push(0);
                assert!(decoded(k, to, false, &longer).is_none());
            }
        }
        assert!(!s.columns_measured().is_empty() && s.rows() == 200);
    }

    /// With the columns' patterns recorded, the bytes carry them too, and a state is read
    /// back only as what it is.
    #[test]
    fn states_with_patterns_read_back() {
        let (k, to) = (60u32, 700u64);
        let mut dp = crate::model::reference::DirectDp::new(k, to as usize);
        let mut s = SkinState::new(k, to).with_patterns();
        for y in 0..300u32 {
            let row: Vec<i8> =
                dp.next_row().iter().map(|&n| (i64::from(n) - i64::from(k)).clamp(-128, 127) as i8).collect();
            s.row(y, |x| row.get(x as usize).copied()).unwrap();
        }
        assert!(s.patterns().unwrap().iter().any(|&p| p != 0));
        let bytes = encoded(&s);
        assert_eq!(decoded(k, to, true, &bytes).as_ref(), Some(&s));
        assert!(decoded(k, to, false, &bytes).is_none());
        assert!(decoded(k, to, true, &bytes[..bytes.len() - 8]).is_none());
    }
}
