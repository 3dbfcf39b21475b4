//! The skin's state machine: the columns past the shoulder read one row at a time, each
//! column's top palace and the thickness of the skin above it, and the bounds of a run.

use crate::engine::checkpoint::{Reader, Writer};
use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::VecDeque;

/// How far left of the boundary rows are assembled: room for horizontal thicknesses up to
/// f(2n+2) = 2584 (level 8).
pub(super) const HORIZONTAL_REACH: u64 = 4096;

/// How far the boundary may advance per row: the steps are 2 or 3 columns wide; a row where it
/// runs further than the columns assembled stops the analysis with an error.
pub(super) const MAX_ADVANCE: u64 = 4;

/// How far right of the farthest the boundary can reach rows are assembled: the three columns
/// checked to be 0 there ([`SkinState::row`]).
pub(super) const RIGHT_REACH: u64 = 3;

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
    pub(super) k: u64,
    pub(super) to: u64,
    /// First column still in outer space (all 0 from row 0), i.e. the boundary.
    pub(super) boundary: u64,
    /// Columns `k..` done so far (their top found).
    pub(super) cols: Vec<Column>,
    /// Columns whose vertical run is still growing.
    pub(super) vertical_open: VecDeque<usize>,
    /// Diagonal runs still growing: (column index, current x).
    pub(super) diagonal_open: Vec<(usize, u64)>,
    /// Horizontal thickness per row: (row, boundary column, run).
    pub(super) horizontal: Vec<(u32, u64, u32)>,
    /// Rows seen.
    pub(super) rows: u32,
    /// Cells left of the boundary over the rows seen: the cells the skin needed.
    pub(super) needed: u64,
    /// The last column whose vertical run ended, if any.
    pub(super) last_closed: Option<usize>,
    /// The skin's cells (those of the vertical runs) by value, indexed by `v + 128`.
    pub(super) values: Box<[u64; 256]>,
    /// The first skin cell (row by row) of each value other than -1 and -2: (v, x, y).
    pub(super) others: Vec<(i8, u64, u32)>,
    /// Per column, if recorded ([`SkinState::with_patterns`]): bit `j` set when the cell `j`
    /// rows below the top, of the column's vertical run, has `v = -2` (`j < 64`).
    pub(super) patterns: Option<Vec<u64>>,
    /// With the patterns: the cells of the horizontal and diagonal runs that lie in no
    /// column's vertical run, by value (indexed by `v + 128`), each counted once.
    pub(super) outside: Box<[u64; 256]>,
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
    /// column): what `pattern`'s measures of claims 27 and 34 read. Call before row 0.
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
    pub(super) fn in_vertical_run(&self, x: u64, y: u32) -> bool {
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
    pub(super) fn columns_right_of(boundary: u64, rows_ahead: u32) -> u64 {
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
    pub(super) fn see(&mut self, v: i8, x: u64, y: u32) {
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
