//! Statistics of a window, gathered as a [`RowSink`]: cell and palace counts, the histogram
//! of `v` outside the hood, and the extreme values with the first cell (in row-major order)
//! where each occurs, for the whole window split into the hood and the rest.

use crate::engine::Progress;
use crate::engine::checkpoint::{Frontier, Reader, Writer};
use crate::engine::sink::{Row, RowSink};
use crate::engine::{
    EngineOptions, PalaceTile, PalaceVisitor, Sweep, SweepReport, TileKind, TileView, TileVisitor,
};
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::resume::Resumable;
use crate::simd::histogram;
use serde::Serialize;
use std::fmt;
use std::sync::Mutex;

/// An extreme value and the first cell (row-major) where it occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Extreme {
    /// The value `v`.
    pub v: i64,
    /// Column of its first occurrence.
    pub x: u64,
    /// Row of its first occurrence.
    pub y: u64,
}

/// Counts and extremes of one part of the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Part {
    /// Cells in this part.
    pub cells: u64,
    /// Palaces (`v < 0`) in this part.
    pub palaces: u64,
    /// Smallest `v` and where it first occurs.
    pub min: Option<Extreme>,
    /// Largest `v` and where it first occurs.
    pub max: Option<Extreme>,
}

impl Part {
    fn see_min(&mut self, v: i64, x: u64, y: u64) {
        if self.min.is_none_or(|m| (v, y, x) < (m.v, m.y, m.x)) {
            self.min = Some(Extreme { v, x, y });
        }
    }
    fn see_max(&mut self, v: i64, x: u64, y: u64) {
        // Larger v first, then the earlier cell in row-major order.
        if self.max.is_none_or(|m| (-v, y, x) < (-m.v, m.y, m.x)) {
            self.max = Some(Extreme { v, x, y });
        }
    }
    fn merge(&mut self, o: &Part) {
        self.cells += o.cells;
        self.palaces += o.palaces;
        if let Some(m) = o.min {
            self.see_min(m.v, m.x, m.y);
        }
        if let Some(m) = o.max {
            self.see_max(m.v, m.x, m.y);
        }
    }
}

/// Statistics of a window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// The game.
    pub k: u32,
    /// The window.
    pub window: [u32; 4],
    /// The whole window.
    pub total: Part,
    /// The hood (closed form) part of the window.
    pub hood: Part,
    /// Everything outside the hood.
    pub rest: Part,
    /// `(v, count)` for every `v` that occurs outside the hood, ascending.
    pub histogram: Vec<(i64, u64)>,
}

/// Running statistics, fed with pieces of rows in any order and merged at the end. The
/// first occurrence of an extreme is decided by row-major position, not by arrival order.
#[derive(Debug, Clone)]
pub struct StatsAcc {
    k: u32,
    /// Counts of `v + 128` outside the hood.
    hist: Box<[u64; 256]>,
    hood: Part,
    /// Extremes outside the hood (cell counts come from `hist`).
    rest: Part,
}

impl StatsAcc {
    /// Empty statistics for game `k`.
    pub fn new(k: u32) -> Self {
        StatsAcc { k, hist: Box::new([0; 256]), hood: Part::default(), rest: Part::default() }
    }

    /// Adds the consecutive cells of row `y` starting at column `x0` (engine store: hood cells
    /// hold a stand-in, the closed form gives their values).
    pub fn add_segment(&mut self, y: u64, x0: u64, cells: &[i8]) {
        self.add_rows(y, x0, std::iter::once(cells));
    }

    /// Adds the cells of consecutive rows `y0, y0 + 1, ...`, each starting at column `x0`.
    fn add_rows<'a>(&mut self, y0: u64, x0: u64, rows: impl Iterator<Item = &'a [i8]> + Clone) {
        // The hood prefix of each row by the closed form; the rest counted in one pass.
        let k = self.k;
        let hood = move |y: u64, len: usize| (hood_len(k, y).saturating_sub(x0) as usize).min(len);
        let rests = rows.clone().enumerate().map(move |(i, r)| &r[hood(y0 + i as u64, r.len())..]);
        for (i, r) in rows.clone().enumerate() {
            let y = y0 + i as u64;
            self.add_hood_run(y, x0, hood(y, r.len()) as u64);
        }
        let mut local = [0u64; 256];
        histogram::count(rests.clone(), &mut local);
        self.add_counts(&local, y0, x0, |v, until| {
            for (i, r) in rests.clone().enumerate().take_while(|(i, _)| y0 + *i as u64 <= until) {
                if let Some(p) = r.iter().position(|&c| i64::from(c) == v) {
                    let y = y0 + i as u64;
                    return Some((x0 + hood(y, usize::MAX) as u64 + p as u64, y));
                }
            }
            None
        });
    }

    /// Adds counts (by `v + 128`) of cells outside the hood in rows from `y0` on, columns from
    /// `x0` on. `first(v, until)` finds the first cell `(x, y)` (row-major) holding `v` in rows up
    /// to `until`; it is asked only when that could be a new first occurrence of an extreme.
    fn add_counts(
        &mut self,
        local: &[u64; 256],
        y0: u64,
        x0: u64,
        mut first: impl FnMut(i64, u64) -> Option<(u64, u64)>,
    ) {
        let (Some(lo), Some(hi)) = (local.iter().position(|&c| c > 0), local.iter().rposition(|&c| c > 0))
        else {
            return;
        };
        for (a, b) in self.hist.iter_mut().zip(local) {
            *a += b;
        }
        let (lo, hi) = (lo as i64 - 128, hi as i64 - 128);
        // A more extreme value, or an equal one that may lie earlier in row-major order.
        let could = |m: Option<Extreme>, v: i64, more: bool| {
            m.is_none_or(|m| more || (v == m.v && (y0, x0) < (m.y, m.x)))
        };
        // Rows after the current extreme's cannot hold an earlier occurrence of the same value.
        let until = |m: Option<Extreme>, v: i64| m.filter(|m| m.v == v).map_or(u64::MAX, |m| m.y);
        if could(self.rest.min, lo, self.rest.min.is_none_or(|m| lo < m.v))
            && let Some((x, y)) = first(lo, until(self.rest.min, lo))
        {
            self.rest.see_min(lo, x, y);
        }
        if could(self.rest.max, hi, self.rest.max.is_none_or(|m| hi > m.v))
            && let Some((x, y)) = first(hi, until(self.rest.max, hi))
        {
            self.rest.see_max(hi, x, y);
        }
    }

    /// Adds `n` hood cells of row `y` from column `x0` on.
    fn add_hood_run(&mut self, y: u64, x0: u64, n: u64) {
        if n == 0 {
            return;
        }
        // Hood values increase along a row, so the run's extremes are its end cells.
        self.hood.cells += n;
        self.hood.palaces += n;
        self.hood.see_min(hood_value(self.k, x0, y), x0, y);
        let xl = x0 + n - 1;
        self.hood.see_max(hood_value(self.k, xl, y), xl, y);
    }

    /// Adds counts (by `v + 128`) of cells outside the hood that cannot hold a new first
    /// occurrence of an extreme (see [`StatsVisitor`]'s use of [`could_hold_extreme`]).
    pub(crate) fn add_counts_only(&mut self, counts: &[u64; 256]) {
        for (a, b) in self.hist.iter_mut().zip(counts) {
            *a += b;
        }
    }

    /// Adds counts (by `v + 128`) of cells outside the hood together with the smallest and
    /// largest of their values and the first cell (row-major) of each, as a GPU tally gives.
    #[cfg(feature = "gpu")]
    pub(crate) fn add_counts_with_extremes(
        &mut self,
        counts: &[u64; 256],
        min: Option<Extreme>,
        max: Option<Extreme>,
    ) {
        self.add_counts_only(counts);
        if let Some(m) = min {
            self.rest.see_min(m.v, m.x, m.y);
        }
        if let Some(m) = max {
            self.rest.see_max(m.v, m.x, m.y);
        }
    }

    /// Adds the hood cells of `window`, by the closed form.
    #[cfg(feature = "gpu")]
    pub(crate) fn add_hood_of(&mut self, window: Window) {
        let (x0, x1) = (u64::from(window.x0()), u64::from(window.x1()));
        for y in u64::from(window.y0())..u64::from(window.y1()).min(u64::from(self.k)) {
            self.add_hood_run(y, x0, hood_len(self.k, y).clamp(x0, x1) - x0);
        }
    }

    /// Adds a block of cells that are all 0: rows `y0..y1`, columns `x0..x1`.
    pub(crate) fn add_zero_block(&mut self, y0: u64, y1: u64, x0: u64, x1: u64) {
        self.hist[128] += (y1 - y0) * (x1 - x0);
        self.rest.see_min(0, x0, y0);
        self.rest.see_max(0, x0, y0);
    }

    /// Adds a block of cells that all lie in the hood.
    pub(crate) fn add_hood_block(&mut self, y0: u64, y1: u64, x0: u64, x1: u64) {
        for y in y0..y1 {
            self.add_hood_run(y, x0, x1 - x0);
        }
    }

    /// Adds the part of a finished tile inside the window.
    pub(crate) fn add_tile(&mut self, t: &TileView<'_>) {
        let (x0, x1, y0, y1) = (u64::from(t.x0), u64::from(t.x1), u64::from(t.y0), u64::from(t.y1));
        match t.kind {
            TileKind::Zero => self.add_zero_block(y0, y1, x0, x1),
            TileKind::Hood => self.add_hood_block(y0, y1, x0, x1),
            TileKind::Cells { buf, origin: (tx, ty) } if hood_len(self.k, y0) <= x0 => {
                // No hood cell in view: count the cells in whatever order the tile keeps them.
                let (ry0, ry1) = ((t.y0 - ty) as usize, (t.y1 - ty) as usize);
                let (cx0, cx1) = ((t.x0 - tx) as usize, (t.x1 - tx) as usize);
                let mut runs = Vec::new();
                buf.for_each_run(ry0, ry1, cx0, cx1, |r| runs.push(r));
                let mut local = [0u64; 256];
                histogram::count_runs(runs.into_iter(), &mut local);
                let mut row = vec![0i8; cx1 - cx0];
                self.add_counts(&local, y0, x0, |v, until| {
                    // Row by row without assembling the tile's rows (rarely needed).
                    for y in (t.y0..t.y1).take_while(|&y| u64::from(y) <= until) {
                        buf.copy_row((y - ty) as usize, cx0, cx1, &mut row);
                        if let Some(p) = row.iter().position(|&c| i64::from(c) == v) {
                            return Some((x0 + p as u64, u64::from(y)));
                        }
                    }
                    None
                });
            }
            TileKind::Cells { .. } => {
                self.add_rows(y0, x0, (t.y0..t.y1).map(|y| t.row(y).expect("cells")));
            }
        }
    }

    /// Merges another accumulator of the same game into this one.
    pub fn merge(&mut self, o: &StatsAcc) {
        for (a, b) in self.hist.iter_mut().zip(o.hist.iter()) {
            *a += b;
        }
        self.hood.merge(&o.hood);
        self.rest.merge(&o.rest);
    }

    /// Writes the accumulated state (for a checkpoint).
    pub fn encode(&self, w: &mut Writer) {
        w.u32(self.k);
        w.u64s(&self.hist[..]);
        for part in [&self.hood, &self.rest] {
            w.u64(part.cells);
            w.u64(part.palaces);
            for e in [part.min, part.max] {
                w.u8(u8::from(e.is_some()));
                let e = e.unwrap_or(Extreme { v: 0, x: 0, y: 0 });
                w.i64(e.v);
                w.u64(e.x);
                w.u64(e.y);
            }
        }
    }

    /// Reads a state [`StatsAcc::encode`] wrote, if it is one.
    pub fn decode(r: &mut Reader<'_>) -> Option<StatsAcc> {
        let mut acc = StatsAcc::new(r.u32()?);
        let hist = r.u64s()?;
        if hist.len() != acc.hist.len() {
            return None;
        }
        acc.hist.copy_from_slice(&hist);
        for part in [&mut acc.hood, &mut acc.rest] {
            part.cells = r.u64()?;
            part.palaces = r.u64()?;
            for slot in [&mut part.min, &mut part.max] {
                let some = r.u8()?;
                let (v, x, y) = (r.i64()?, r.u64()?, r.u64()?);
                *slot = match some {
                    0 => None,
                    1 => Some(Extreme { v, x, y }),
                    _ => return None,
                };
            }
        }
        Some(acc)
    }

    /// Why this state cannot be what a sweep of `window` has gathered from its first
    /// `rows_done` rows of the board, if it cannot: its cells are not exactly those rows'
    /// cells in the window (the hood's by [`hood_len`]), a part has more palaces than cells,
    /// or an extreme lies outside those rows or disagrees with the histogram. A resumed
    /// checkpoint is checked with it, so that a forged state does not turn into impossible
    /// totals.
    pub fn impossible(&self, window: Window, rows_done: u32) -> Option<String> {
        let w = window;
        let (x0, x1, y0) = (u64::from(w.x0()), u64::from(w.x1()), u64::from(w.y0()));
        let y_end = u64::from(rows_done.min(w.y1())).max(y0);
        let cells = (x1 - x0) * (y_end - y0);
        let hood: u64 =
            (y0..y_end.min(u64::from(self.k))).map(|y| hood_len(self.k, y).clamp(x0, x1) - x0).sum();
        let rest: u64 = self.hist.iter().sum();
        if self.hood.cells != hood || rest.checked_add(hood) != Some(cells) {
            return Some(format!(
                "it counts {} hood cells and {rest} others, but the {} rows done hold {hood} and {}",
                self.hood.cells,
                y_end - y0,
                cells - hood
            ));
        }
        if self.hood.palaces != self.hood.cells {
            // Every hood cell is a palace (docs/rule.md).
            return Some(format!(
                "it counts {} palaces in {} hood cells",
                self.hood.palaces, self.hood.cells
            ));
        }
        let inside = |e: &Extreme| (x0..x1).contains(&e.x) && (y0..y_end).contains(&e.y);
        for (name, part, cells) in [("in the hood", &self.hood, hood), ("outside the hood", &self.rest, rest)]
        {
            if part.min.is_some() != (cells > 0) || part.max.is_some() != (cells > 0) {
                return Some(format!("its extremes {name} do not match its cells"));
            }
            if let (Some(lo), Some(hi)) = (part.min, part.max)
                && (lo.v > hi.v || !inside(&lo) || !inside(&hi))
            {
                return Some(format!("its extremes {name} are impossible"));
            }
        }
        let seen: Vec<i64> =
            self.hist.iter().enumerate().filter(|&(_, &c)| c > 0).map(|(i, _)| i as i64 - 128).collect();
        let (lo, hi) = (self.rest.min.map(|e| e.v), self.rest.max.map(|e| e.v));
        if (lo, hi) != (seen.first().copied(), seen.last().copied()) {
            return Some("its extremes outside the hood disagree with its histogram".into());
        }
        None
    }

    /// The finished statistics of `window`.
    pub fn finish(&self, window: Window) -> Stats {
        let histogram: Vec<(i64, u64)> = self
            .hist
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(i, &c)| (i as i64 - 128, c))
            .collect();
        let rest = Part {
            cells: histogram.iter().map(|&(_, c)| c).sum(),
            palaces: histogram.iter().filter(|&&(v, _)| v < 0).map(|&(_, c)| c).sum(),
            min: self.rest.min,
            max: self.rest.max,
        };
        let mut total = self.hood.clone();
        total.merge(&rest);
        let w = window;
        Stats {
            k: self.k,
            window: [w.x0(), w.y0(), w.x1(), w.y1()],
            total,
            hood: self.hood.clone(),
            rest,
            histogram,
        }
    }
}

/// Statistics gathered from the window's rows (a [`RowSink`]).
pub struct StatsSink {
    acc: StatsAcc,
    window: Window,
}

impl StatsSink {
    /// Empty statistics for `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        StatsSink { acc: StatsAcc::new(k), window }
    }

    /// The finished statistics.
    pub fn finish(self) -> Stats {
        self.acc.finish(self.window)
    }
}

impl RowSink for StatsSink {
    type Error = crate::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.acc.add_segment(u64::from(row.y), u64::from(row.x0), row.cells);
        Ok(())
    }
}

/// Whether a block of cells outside the hood whose first cell in row-major order is
/// `(x0, y0)` and whose values span `lo..=hi` could hold a new first occurrence of an extreme,
/// given the extremes `known` so far (their value and first cell): a more extreme value, or
/// the same value where the block starts before the known cell. Extremes only improve, so an
/// answer given against an older `known` stays right.
pub(crate) fn could_hold_extreme(known: &Part, x0: u64, y0: u64, lo: i64, hi: i64) -> bool {
    let earlier = |m: &Extreme| (y0, x0) < (m.y, m.x);
    known.min.is_none_or(|m| lo < m.v || (lo == m.v && earlier(&m)))
        || known.max.is_none_or(|m| hi > m.v || (hi == m.v && earlier(&m)))
}

/// Statistics gathered by the sweep's workers from finished tiles: one accumulator per
/// worker, merged at the end. As a [`TileVisitor`] it sees every tile's cells (the CA's
/// sweep); as a [`PalaceVisitor`] (the counter sweep, whole boards from the corner) it takes
/// the counts the counter kernel tallies, and the values of the few tiles that could hold a new
/// first occurrence of an extreme.
pub struct StatsVisitor {
    k: u32,
    accs: Vec<Mutex<StatsAcc>>,
    /// The extremes outside the hood found so far by any worker.
    known: Mutex<Part>,
}

impl StatsVisitor {
    /// Empty statistics for game `k`, for up to `workers` workers.
    pub fn new(k: u32, workers: usize) -> Self {
        StatsVisitor {
            k,
            accs: (0..workers.max(1)).map(|_| Mutex::new(StatsAcc::new(k))).collect(),
            known: Mutex::new(Part::default()),
        }
    }

    /// Shares the extremes of `acc` with the other workers.
    fn publish(&self, acc: &StatsAcc) {
        let mut known = self.known.lock().expect("extremes lock");
        let rest = Part { min: acc.rest.min, max: acc.rest.max, ..Part::default() };
        known.merge(&rest);
    }

    /// Writes everything gathered so far, as one accumulator (for a checkpoint).
    pub fn encode(&self, w: &mut Writer) {
        let mut all = StatsAcc::new(self.k);
        for a in &self.accs {
            all.merge(&a.lock().expect("stats lock"));
        }
        all.encode(w)
    }

    /// Adds a state [`StatsVisitor::encode`] wrote for a sweep of `window` (of the same game)
    /// that has done the board's first `rows_done` rows; says why not if it is not one (see
    /// [`StatsAcc::impossible`]).
    pub fn restore(&self, r: &mut Reader<'_>, window: Window, rows_done: u32) -> Result<(), String> {
        match StatsAcc::decode(r) {
            Some(acc) if acc.k == self.k => {
                if let Some(why) = acc.impossible(window, rows_done) {
                    return Err(why);
                }
                self.publish(&acc);
                self.accs[0].lock().expect("stats lock").merge(&acc);
                Ok(())
            }
            _ => Err("it is not the statistics' state of this game".into()),
        }
    }

    /// The merged statistics of `window`.
    pub fn finish(self, window: Window) -> Stats {
        let mut all = StatsAcc::new(self.k);
        for a in self.accs {
            all.merge(&a.into_inner().expect("stats lock"));
        }
        all.finish(window)
    }
}

impl TileVisitor for StatsVisitor {
    fn visit(&self, worker: usize, tile: &TileView<'_>) {
        // Each worker has its own accumulator: the lock is never contended.
        self.accs[worker].lock().expect("stats lock").add_tile(tile);
    }
}

impl PalaceVisitor for StatsVisitor {
    fn visit(&self, worker: usize, tile: &PalaceTile<'_>) {
        let mut acc = self.accs[worker].lock().expect("stats lock");
        match (&tile.values, tile.counts) {
            (Some(view), _) => {
                acc.add_tile(view);
                self.publish(&acc);
            }
            (None, Some(counts)) => {
                acc.add_counts_only(counts);
                for piece in tile.pieces {
                    acc.add_tile(piece);
                }
                if !tile.pieces.is_empty() {
                    self.publish(&acc);
                }
            }
            (None, None) => unreachable!("a counter sweep that wants counts gives counts or values"),
        }
    }

    fn wants_counts(&self) -> bool {
        true
    }

    fn wants_values_too(&self, x0: u32, y0: u32, _x1: u32, _y1: u32, counts: &[u64; 256]) -> bool {
        let (Some(lo), Some(hi)) = (counts.iter().position(|&c| c > 0), counts.iter().rposition(|&c| c > 0))
        else {
            return false;
        };
        let known = self.known.lock().expect("extremes lock");
        could_hold_extreme(&known, u64::from(x0), u64::from(y0), lo as i64 - 128, hi as i64 - 128)
    }
}

/// Statistics of the `width x height` board of game `k` from its corner, by the counter
/// sweep ([`Sweep::palaces`](crate::engine::Sweep::palaces) with the kernels' tally): the same [`Stats`] as
/// [`stats`] gives for the window `[0, width) x [0, height)`.
pub fn stats_by_counters(
    k: u32,
    width: u32,
    height: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(Stats, SweepReport)> {
    let visitor = StatsVisitor::new(k, opts.resolved_threads());
    let report = crate::engine::Sweep::new(k, Window::new(0, 0, width, height)?)
        .options(opts)
        .progress(progress)
        .palaces(&visitor)?;
    Ok((visitor.finish(Window::new(0, 0, width, height)?), report))
}

/// Statistics of `window` of game `k`, computed by the workers in parallel with the sweep.
pub fn stats(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(Stats, SweepReport)> {
    let visitor = StatsVisitor::new(k, opts.resolved_threads());
    let report = Sweep::new(k, window).options(opts).progress(progress).tiles(&visitor)?;
    Ok((visitor.finish(window), report))
}

/// The palace count of a board from its corner, by a counter sweep
/// ([`Sweep::palaces`](crate::engine::Sweep::palaces)): no histogram and no extremes, several times faster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PalaceCount {
    /// The game.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Cells.
    pub cells: u64,
    /// Palaces (`v < 0`), hood included.
    pub palaces: u64,
}

impl fmt::Display for PalaceCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "k = {}, board {} x {}: {} palaces in {} cells (density {:.6})",
            self.k,
            self.width,
            self.height,
            self.palaces,
            self.cells,
            self.palaces as f64 / self.cells as f64
        )
    }
}

/// A [`crate::engine::PalaceVisitor`] that adds up the palaces of every tile.
#[derive(Debug, Default)]
pub struct PalaceSum(std::sync::atomic::AtomicU64);

impl PalaceSum {
    /// Sets the sum to `n` (a resumed count).
    pub fn set(&self, n: u64) {
        self.0.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The palaces so far.
    pub fn total(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl crate::engine::PalaceVisitor for PalaceSum {
    fn visit(&self, _worker: usize, t: &crate::engine::PalaceTile<'_>) {
        self.0.fetch_add(t.palaces, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Counts the palaces of the `width x height` board of game `k` (see [`PalaceCount`]).
pub fn palaces(
    k: u32,
    width: u32,
    height: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(PalaceCount, SweepReport)> {
    let sum = PalaceSum::default();
    let report = crate::engine::Sweep::new(k, Window::new(0, 0, width, height)?)
        .options(opts)
        .progress(progress)
        .palaces(&sum)?;
    let cells = u64::from(width) * u64::from(height);
    Ok((PalaceCount { k, width, height, cells, palaces: sum.total() }, report))
}

/// A counter sweep's frontier read back for a run of game `k` over `[0, width) x [0, height)`,
/// or why not.
fn frontier_of(r: &mut Reader<'_>, k: u32, width: u32, height: u32) -> std::result::Result<Frontier, String> {
    let f = Frontier::decode(r).ok_or("its frontier is truncated or malformed")?;
    match f.unfit(k, width, height) {
        Some(why) => Err(why),
        None => Ok(f),
    }
}

/// [`palaces`] as a run that pauses and resumes ([`Resumable`]; driven by
/// [`crate::resume::drive`]): its state is the sweep's frontier and the count so far.
pub struct PalaceCountRun<'a> {
    k: u32,
    width: u32,
    height: u32,
    opts: EngineOptions,
    progress: &'a dyn Progress,
    sum: PalaceSum,
    frontier: Option<Frontier>,
    report: Option<SweepReport>,
}

impl<'a> PalaceCountRun<'a> {
    /// The palace count of the `width x height` board of game `k`, swept with `opts`.
    pub fn new(
        k: u32,
        width: u32,
        height: u32,
        opts: &EngineOptions,
        progress: &'a dyn Progress,
    ) -> Result<Self> {
        Window::board(width, height)?;
        crate::model::bounds::check_k(crate::error::Param::K, i64::from(k))?;
        Ok(PalaceCountRun {
            k,
            width,
            height,
            opts: opts.clone(),
            progress,
            sum: PalaceSum::default(),
            frontier: None,
            report: None,
        })
    }
}

impl Resumable for PalaceCountRun<'_> {
    type Output = (PalaceCount, SweepReport);

    fn tag(&self) -> String {
        format!("stats --palaces-only k={} {}x{}", self.k, self.width, self.height)
    }

    fn rows(&self) -> (u32, u32) {
        (self.frontier.as_ref().map_or(self.height, Frontier::rows_done), self.height)
    }

    fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool> {
        let (report, next) = crate::engine::Sweep::new(self.k, Window::board(self.width, self.height)?)
            .options(&self.opts)
            .progress(self.progress)
            .resume(self.frontier.as_ref())
            .pause_when(pause)
            .palaces_pausable(&self.sum)?;
        self.report = Some(SweepReport::after(self.report.take(), report));
        self.frontier = next;
        Ok(self.frontier.is_none())
    }

    fn encode(&self, w: &mut Writer) {
        self.frontier.as_ref().expect("a paused run has a frontier").encode(w);
        w.u64(self.sum.total());
    }

    fn restore(&mut self, r: &mut Reader<'_>) -> std::result::Result<(), String> {
        let f = frontier_of(r, self.k, self.width, self.height)?;
        let n = r.u64().ok_or("it is not a palace count")?;
        let cells = u64::from(self.width) * u64::from(f.rows_done());
        if n > cells {
            return Err(format!("{n} palaces in the {cells} cells of the rows done"));
        }
        self.sum.set(n);
        self.frontier = Some(f);
        Ok(())
    }

    fn finish(self) -> Result<Self::Output> {
        let cells = u64::from(self.width) * u64::from(self.height);
        let count = PalaceCount {
            k: self.k,
            width: self.width,
            height: self.height,
            cells,
            palaces: self.sum.total(),
        };
        Ok((count, self.report.expect("a finished run ran")))
    }
}

/// The statistics of a window as a run that pauses and resumes ([`Resumable`]): by a counter
/// sweep of the window, which then starts at the board's corner ([`stats_by_counters`]), or by
/// the CA's sweep ([`stats`]). Its state is the sweep's frontier and the statistics so far.
pub struct StatsRun<'a> {
    board: crate::model::geometry::Board,
    window: Window,
    by_counters: bool,
    opts: EngineOptions,
    progress: &'a dyn Progress,
    visitor: StatsVisitor,
    frontier: Option<Frontier>,
    report: Option<SweepReport>,
}

impl<'a> StatsRun<'a> {
    /// The statistics of `window` of `board`, by counters where `by_counters` (the window must
    /// then start at the corner) or by the CA, swept with `opts`.
    pub fn new(
        board: crate::model::geometry::Board,
        window: Window,
        by_counters: bool,
        opts: &EngineOptions,
        progress: &'a dyn Progress,
    ) -> Result<Self> {
        if by_counters && (window.x0(), window.y0()) != (0, 0) {
            return Err(crate::Error::InvalidArgument {
                function: "StatsRun::new",
                argument: "window",
                value: window.to_string(),
                expected: "a window from the corner for the statistics by counters",
            });
        }
        Ok(StatsRun {
            board,
            window,
            by_counters,
            opts: opts.clone(),
            progress,
            visitor: StatsVisitor::new(board.k(), opts.resolved_threads()),
            frontier: None,
            report: None,
        })
    }
}

impl Resumable for StatsRun<'_> {
    type Output = (Stats, SweepReport);

    fn tag(&self) -> String {
        // The form is in the tag: the two sweeps' frontiers differ.
        let (b, w) = (self.board, self.window);
        format!(
            "stats k={} {}x{} window {w}{}",
            b.k(),
            b.width(),
            b.height(),
            if self.by_counters { " by counters" } else { "" }
        )
    }

    fn rows(&self) -> (u32, u32) {
        let h = self.window.y1();
        (self.frontier.as_ref().map_or(h, Frontier::rows_done), h)
    }

    fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool> {
        let k = self.board.k();
        let sweep = |w: Window| {
            crate::engine::Sweep::new(k, w)
                .options(&self.opts)
                .progress(self.progress)
                .resume(self.frontier.as_ref())
                .pause_when(pause)
        };
        let (report, next) = if self.by_counters {
            sweep(self.window).palaces_pausable(&self.visitor)?
        } else {
            sweep(self.window).tiles_pausable(&self.visitor)?
        };
        self.report = Some(SweepReport::after(self.report.take(), report));
        self.frontier = next;
        Ok(self.frontier.is_none())
    }

    fn encode(&self, w: &mut Writer) {
        self.frontier.as_ref().expect("a paused run has a frontier").encode(w);
        self.visitor.encode(w);
    }

    fn restore(&mut self, r: &mut Reader<'_>) -> std::result::Result<(), String> {
        let f = frontier_of(r, self.board.k(), self.window.x1(), self.window.y1())?;
        self.visitor.restore(r, self.window, f.rows_done())?;
        self.frontier = Some(f);
        Ok(())
    }

    fn finish(self) -> Result<Self::Output> {
        Ok((self.visitor.finish(self.window), self.report.expect("a finished run ran")))
    }
}

fn fmt_ext(e: &Option<Extreme>) -> String {
    match e {
        Some(e) => format!("{:>6} at ({}, {})", e.v, e.x, e.y),
        None => "     - (no cells)".to_string(),
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(f, "k = {}, window [{x0}, {x1}) x [{y0}, {y1}) ({} x {})", self.k, x1 - x0, y1 - y0)?;
        writeln!(
            f,
            "{:<6} {:>14} {:>14} {:>9}   {:<28} max v (first at)",
            "part", "cells", "palaces", "density", "min v (first at)"
        )?;
        for (name, p) in [("total", &self.total), ("hood", &self.hood), ("rest", &self.rest)] {
            let density = if p.cells > 0 { p.palaces as f64 / p.cells as f64 } else { 0.0 };
            writeln!(
                f,
                "{name:<6} {:>14} {:>14} {:>9.6}   {:<28} {}",
                p.cells,
                p.palaces,
                density,
                fmt_ext(&p.min),
                fmt_ext(&p.max)
            )?;
        }
        writeln!(f, "histogram of v outside the hood:")?;
        for (v, c) in &self.histogram {
            let share = if self.rest.cells > 0 { *c as f64 / self.rest.cells as f64 } else { 0.0 };
            writeln!(f, "  v = {v:>4} (N = k{v:+}): {c:>14}  {:>8.4}%", share * 100.0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, Sweep};
    use crate::model::reference::direct_values;

    #[test]
    fn stats_match_a_direct_count() {
        let (w, h) = (90usize, 83usize);
        for k in [1u32, 9, 20, 31] {
            let vals = direct_values(k, w, h);
            let win = Window::new(2, 1, 87, 80).unwrap();
            let mut cells = 0;
            let mut pal = 0;
            let mut hood = 0;
            let mut hist = std::collections::BTreeMap::new();
            let mut min: Option<(i64, u64, u64)> = None;
            let mut max: Option<(i64, u64, u64)> = None;
            for y in win.y0()..win.y1() {
                for x in win.x0()..win.x1() {
                    let v = i64::from(vals[y as usize * w + x as usize]);
                    cells += 1;
                    pal += u64::from(v < 0);
                    if crate::model::rule::in_hood(k, u64::from(x), u64::from(y)) {
                        hood += 1;
                    } else {
                        *hist.entry(v).or_insert(0u64) += 1;
                    }
                    if min.is_none_or(|m| v < m.0) {
                        min = Some((v, u64::from(x), u64::from(y)));
                    }
                    if max.is_none_or(|m| v > m.0) {
                        max = Some((v, u64::from(x), u64::from(y)));
                    }
                }
            }
            let mut s = StatsSink::new(k, win);
            Sweep::new(k, win).options(&EngineOptions::default()).rows(&mut s).unwrap();
            let by_rows = s.finish();
            for (threads, tw, bh) in [(1, 7, 5), (2, 16, 9), (3, 64, 128)] {
                let o = EngineOptions {
                    threads,
                    tile_width: Some(tw),
                    band_height: Some(bh),
                    ..Default::default()
                };
                let (by_tiles, _) = stats(k, win, &o, &crate::engine::Silent).unwrap();
                assert_eq!(by_tiles, by_rows, "k={k} tiles {tw}x{bh}, {threads} threads");
            }
            // The counter sweep, on the board from the corner.
            let corner = Window::new(0, 0, win.x1(), win.y1()).unwrap();
            let mut s = StatsSink::new(k, corner);
            Sweep::new(k, corner).options(&EngineOptions::default()).rows(&mut s).unwrap();
            let want = s.finish();
            for threads in [1, 2, 3] {
                let o = EngineOptions { threads, ..Default::default() };
                let (got, _) =
                    stats_by_counters(k, corner.x1(), corner.y1(), &o, &crate::engine::Silent).unwrap();
                assert_eq!(got, want, "k={k} counters, {threads} threads");
            }
            let st = by_rows;
            assert_eq!(st.total.cells, cells);
            assert_eq!(st.total.palaces, pal);
            assert_eq!(st.hood.cells, hood);
            assert_eq!(st.histogram, hist.into_iter().collect::<Vec<_>>());
            let m = st.total.min.unwrap();
            assert_eq!((m.v, m.x, m.y), min.unwrap(), "k={k} min");
            let m = st.total.max.unwrap();
            assert_eq!((m.v, m.x, m.y), max.unwrap(), "k={k} max");
        }
    }
}
