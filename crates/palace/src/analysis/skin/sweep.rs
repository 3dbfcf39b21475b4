//! The skin followed through a counter sweep ([`Sweep::palaces_pausable`](crate::engine::Sweep::palaces_pausable)).
//!
//! The sweep covers `[0, X) x [0, Y)` with `Y` from [`super::rows_for`]. Tiles of outer space
//! above the arm are quiet (their halo is 0) and cost only the hand-over of their counters;
//! every other tile runs the three-counter kernels, except the few the skin looks into. The
//! columns the skin reads only move right as it goes, so tiles left of what it reads now are
//! never needed. At a band's first tile that is not, the columns `[lo, hi)` the band's rows
//! need are fixed (the open runs, the boundary and how far the boundary can advance over the
//! rows between the last row read and the band's end, [`SkinState::columns`]), and the tiles
//! meeting them come with their values. When the band is done, the bands whose
//! turn it is are read row by row, in order, by [`SkinState::row`].
//!
//! # Many workers
//!
//! One worker computes a band's tiles left to right and keeps those with values
//! ([`PalaceTile::kept`]: a shared reference, not a copy) in the band; the reader reads the
//! rows from the tiles themselves, whose buffers then go back to their workers. (Copying the
//! values into a buffer per band, `[lo, hi)` by 2048 rows, was two thirds of the skin's own
//! work: 9 % of a one-thread run, and memory traffic on every worker at once.) Two short locks
//! remain. `bands` holds the bands
//! not yet read and a snapshot of the state (rows read, the columns they need), from which a
//! new band's columns are fixed: a snapshot older than the state only widens them, because the
//! columns the skin reads only move right and its boundary at most 4 a row. A worker takes
//! that lock once a band, when the band's columns are fixed; it keeps the band in a
//! thread-local cache for the band's other tiles, and reads the columns left of which nothing
//! is needed from an atomic, so the tiles of outer space and of the arm take no lock (a lock
//! taken for every tile held 16 workers to 8x one). `reader` holds the
//! state; the worker that completes a band reads, at the band's last tile (already published,
//! so the band below does not wait for the reading), every band whose turn has come, while the
//! others go on. A worker that finds the state busy leaves its band to the reader, which looks
//! again after letting the state go, so no complete band is left unread when the sweep ends.
//!
//! The sweep stops as soon as the skin is complete. It pauses at a band edge when asked; the
//! state saved with the frontier ([`Follower::encode`]) has then read exactly the rows above
//! it, so a chain of resumed runs reads every row once, as an uninterrupted one does.

use super::report::{SkinReport, analyse};
use super::state::{Column, SkinState, check_to, rows_for};
use crate::engine::checkpoint::{self, Frontier, Writer};
use crate::engine::{
    EngineOptions, KeptTile, PalaceTile, PalaceVisitor, Progress, Sweep, SweepReport, TileKind, TileView,
};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::model::rule::hood_sentinel;
use crate::resume::Resumable;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Numbers the sweeps of all followers, so that a worker's cache never answers for another.
static NEXT_RUN: AtomicU64 = AtomicU64::new(1);

/// The band a worker is computing.
struct Current {
    /// The sweep's number.
    run: u64,
    /// The band's first row.
    y0: u32,
    /// The band, if its rows need values.
    band: Option<Arc<Band>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// The values one band's rows need: columns `[lo, hi)` of rows `y0..y1`.
struct Band {
    y1: u32,
    lo: u64,
    hi: u64,
    /// The band's tiles meeting `[lo, hi)`, left to right: kept by the one worker that
    /// computes the band, then read by the reader.
    tiles: Mutex<Vec<KeptTile>>,
    /// Every tile of the band meeting `[lo, hi)` has been copied (set under the `bands` lock).
    done: AtomicBool,
}

/// What the state had read when it last let go of a band: enough to fix a new band's columns.
#[derive(Clone, Copy)]
struct Snapshot {
    /// Rows read.
    rows: u32,
    /// The columns those rows' successors need: `SkinState::columns(0)`.
    lo: u64,
    /// The boundary.
    boundary: u64,
}

impl Snapshot {
    fn of(state: &SkinState) -> Self {
        Snapshot { rows: state.rows(), lo: state.columns(0).0, boundary: state.boundary() }
    }

    /// The columns rows up to `y1` need (see [`SkinState::columns`]).
    fn columns(&self, y1: u32) -> (u64, u64) {
        (self.lo, SkinState::columns_right_of(self.boundary, y1.saturating_sub(self.rows)))
    }
}

struct Bands {
    /// Bands not yet taken by the reader, by their first row.
    waiting: BTreeMap<u32, Arc<Band>>,
    /// Rows the reader has taken (read, or being read): their bands are never made again.
    taken: u32,
    snapshot: Snapshot,
}

struct Reader {
    state: SkinState,
    error: Option<Error>,
}

/// Follows the skin of one game through a counter sweep, in one run or in segments that
/// pause and resume (see the module's documentation).
pub struct Follower<'a> {
    k: u32,
    to: u64,
    width: u32,
    height: u32,
    opts: &'a EngineOptions,
    progress: &'a dyn Progress,
    /// The progress bar's length: an estimate of the cells below outer space, raised when the
    /// run passes it.
    estimate: AtomicU64,
    bands: Mutex<Bands>,
    /// Signalled when the snapshot moves on or the sweep may stop (see [`Follower::band_for`]).
    read_on: Condvar,
    /// The snapshot's `lo`: tiles left of it need no values.
    lo_hint: AtomicU64,
    /// This segment's sweep (from `NEXT_RUN`).
    run: AtomicU64,
    reader: Mutex<Reader>,
    /// Nanoseconds spent reading bands into the state (one worker at a time).
    reading: AtomicU64,
    /// The skin is complete or its analysis failed: the sweep may stop.
    stop: AtomicBool,
    /// Whether the state records the columns' patterns.
    patterns: bool,
}

impl<'a> Follower<'a> {
    /// A follower of the skin of game `k` up to column `to` (exclusive, `> k`); `progress`
    /// counts the cells below outer space read so far against an estimate of their total,
    /// with the column and thickness reached as its message.
    pub fn new(k: u32, to: u64, opts: &'a EngineOptions, progress: &'a dyn Progress) -> Result<Self> {
        check_to(k, to)?;
        let estimate = estimate(k, to);
        progress.set_length(estimate);
        let state = SkinState::new(k, to);
        Ok(Follower {
            k,
            to,
            width: to as u32,
            height: rows_for(k, to),
            opts,
            progress,
            estimate: AtomicU64::new(estimate),
            lo_hint: AtomicU64::new(Snapshot::of(&state).lo),
            bands: Mutex::new(Bands::new(&state)),
            read_on: Condvar::new(),
            run: AtomicU64::new(0),
            reader: Mutex::new(Reader { state, error: None }),
            reading: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            patterns: false,
        })
    }

    /// The same follower, also recording each column's pattern of `v = -2` and `-1`
    /// ([`SkinState::with_patterns`]; 8 more bytes a column in memory and in checkpoints).
    pub fn with_patterns(mut self) -> Self {
        self.reader.get_mut().unwrap().state = SkinState::new(self.k, self.to).with_patterns();
        self.patterns = true;
        self
    }

    /// Names the run in its checkpoints.
    pub fn tag(&self) -> String {
        let p = if self.patterns { " patterns" } else { "" };
        format!("skin k={} to={}{p}", self.k, self.to)
    }

    /// Rows the sweep covers at most.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Rows the skin has read.
    pub fn rows(&self) -> u32 {
        self.reader.lock().unwrap().state.rows()
    }

    /// Writes the state read so far (saved with a frontier).
    pub fn encode(&self, w: &mut Writer) {
        self.reader.lock().unwrap().state.encode(w)
    }

    /// Continues from a saved state; says why not if it is not a state of this run or
    /// describes one the sweep cannot reach ([`SkinState::impossible`]).
    pub fn restore(&self, r: &mut checkpoint::Reader<'_>) -> std::result::Result<(), String> {
        let Some(state) = SkinState::decode_with(self.k, self.to, self.patterns, r) else {
            return Err("it is not the skin's state of this run".into());
        };
        if let Some(why) = state.impossible() {
            return Err(why);
        }
        self.show(&state);
        self.progress.resumed();
        self.reset_bands(&state);
        *self.reader.lock().unwrap() = Reader { state, error: None };
        Ok(())
    }

    /// Sweeps from `start` (a frontier whose rows the state has read) or from the top until
    /// the skin is complete (returns no frontier) or `pause` says stop (returns the frontier;
    /// the state has read exactly the rows above it).
    pub fn segment(
        &self,
        start: Option<&Frontier>,
        pause: &(dyn Fn() -> bool + Sync),
    ) -> Result<(SweepReport, Option<Frontier>)> {
        let rows = self.reader.lock().unwrap().state.rows();
        if start.map_or(0, Frontier::rows_done) != rows {
            return Err(Error::Analysis(format!(
                "cannot resume the skin: its state has read {rows} rows, its frontier {}",
                start.map_or(0, Frontier::rows_done)
            )));
        }
        self.run.store(NEXT_RUN.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let stop = || self.stop.load(Ordering::Relaxed) || pause();
        let (report, frontier) = Sweep::new(self.k, Window::new(0, 0, self.width, self.height)?)
            .options(self.opts)
            .resume(start)
            .pause_when(&stop)
            .palaces_pausable(self)?;
        let mut g = self.reader.lock().unwrap();
        if let Some(e) = g.error.take() {
            return Err(e);
        }
        if g.state.complete() {
            return Ok((report, None));
        }
        let Some(f) = frontier else {
            return Err(Error::SkinUnfinished { to: self.to, rows: self.height });
        };
        if f.rows_done() != g.state.rows() {
            return Err(Error::Analysis(format!(
                "skin: the sweep paused after row {} but the skin has read {} rows",
                f.rows_done(),
                g.state.rows()
            )));
        }
        // Bands below the frontier were begun but not finished; the next segment makes them again.
        self.reset_bands(&g.state);
        Ok((report, Some(f)))
    }

    /// The report and the columns of the complete skin.
    pub fn finish(self) -> Result<(SkinReport, Vec<Column>)> {
        let state = self.reader.into_inner().unwrap().state;
        if !state.complete() {
            return Err(Error::Analysis("skin: the sweep ended before the skin was complete".into()));
        }
        Ok((analyse(&state), state.cols))
    }

    /// Reads the bands whose turn it is, in order, unless another worker is reading them; then
    /// looks again for a band completed while it read (see the module's documentation).
    fn read_bands(&self) {
        loop {
            let Ok(mut g) = self.reader.try_lock() else { return };
            let started = std::time::Instant::now();
            let Reader { state, error } = &mut *g;
            while error.is_none() && !state.complete() {
                let (y0, band) = {
                    let mut b = self.bands.lock().unwrap();
                    // The snapshot's rows are the state's: it is renewed after every band read.
                    if !b.next_ready() {
                        break;
                    }
                    let (y0, band) = b.waiting.pop_first().expect("a band is ready");
                    b.taken = band.y1;
                    (y0, band)
                };
                let tiles = std::mem::take(&mut *band.tiles.lock().unwrap());
                let mut views: Vec<TileView<'_>> = tiles.iter().map(KeptTile::view).collect();
                views.sort_unstable_by_key(|v| v.x0);
                let mut parts = Vec::with_capacity(views.len());
                for y in y0..band.y1 {
                    parts.clear();
                    parts.extend(views.iter().map(|v| Part::of(v, y)));
                    let at = |x: u64| {
                        if !(band.lo..band.hi).contains(&x) {
                            return None;
                        }
                        parts.iter().find(|p| p.x1 > x).filter(|p| p.x0 <= x).map(|p| p.at(self.k, x, y))
                    };
                    if let Err(e) = state.row(y, at) {
                        *error = Some(e);
                        break;
                    }
                    if state.complete() {
                        break;
                    }
                }
                // The tiles go back to their workers' pools.
                drop(views);
                drop(tiles);
                let mut b = self.bands.lock().unwrap();
                b.snapshot = Snapshot::of(state);
                self.lo_hint.store(b.snapshot.lo, Ordering::Relaxed);
                self.read_on.notify_all();
            }
            if error.is_some() || state.complete() {
                self.stop.store(true, Ordering::Relaxed);
                self.read_on.notify_all();
            }
            self.show(state);
            drop(g);
            self.reading.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
            if self.stop.load(Ordering::Relaxed) || !self.bands.lock().unwrap().next_ready() {
                return;
            }
        }
    }

    /// Forgets every band: the next sweep starts below the rows `state` has read.
    fn reset_bands(&self, state: &SkinState) {
        let mut b = self.bands.lock().unwrap();
        *b = Bands::new(state);
        self.lo_hint.store(b.snapshot.lo, Ordering::Relaxed);
    }

    /// The band of rows `y0..y1` that this worker computes, if its rows need values, fixing
    /// its columns if it has none yet; `Err` while they need none yet (the tile ending at `x1`
    /// lies left of what the skin reads now).
    fn band_for(&self, x1: u32, y0: u32, y1: u32) -> std::result::Result<Option<Arc<Band>>, ()> {
        let mut b = self.bands.lock().unwrap();
        if let Some(band) = b.waiting.get(&y0) {
            return Ok(Some(band.clone()));
        }
        if y0 < b.taken || self.stop.load(Ordering::Relaxed) {
            // Read already (its tiles right of the columns it needed), or not needed at all.
            return Ok(None);
        }
        // Left of what the skin reads now: never needed. Fix the band's columns as late as
        // that allows, when fewer rows lie between the last row read and the band's end.
        if u64::from(x1) <= b.snapshot.lo {
            return Err(());
        }
        // Wait while more than the band above lies unread: a band's columns reach 4 further
        // for every row between the last row read and its end, and it holds its tiles until
        // it is read, so a reader falling behind (more workers than cores) would otherwise
        // make every later band wider and the memory grow. The band above the oldest unread
        // band has been read, so that band never waits here, and the bands are read in turn.
        while b.snapshot.rows + (y1 - y0) < y0
            && !self.stop.load(Ordering::Relaxed)
            && !self.opts.cancel.is_cancelled()
        {
            b = self.read_on.wait_timeout(b, std::time::Duration::from_millis(20)).unwrap().0;
        }
        if self.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let (lo, hi) = b.snapshot.columns(y1);
        let hi = hi.min(u64::from(self.width));
        let lo = lo.min(hi);
        let band = Arc::new(Band { y1, lo, hi, tiles: Mutex::new(Vec::new()), done: AtomicBool::new(false) });
        b.waiting.insert(y0, band.clone());
        Ok(Some(band))
    }

    /// Shows how far `state` has got on the progress bar.
    fn show(&self, state: &SkinState) {
        show(self.progress, &self.estimate, self.k, state);
    }
}

/// The progress bar's first length for a skin of game `k` to column `to`: an estimate of the
/// cells below outer space.
pub(crate) fn estimate(k: u32, to: u64) -> u64 {
    let descent = (to - u64::from(k)) as f64 * super::state::INV_PHI2;
    // Rows below the shoulder up to the descent, each `k + phi^2 y` columns wide.
    let estimate = f64::from(k) * descent + descent * descent / (2.0 * super::state::INV_PHI2);
    estimate as u64 + 1
}

/// Shows how far `state` has got on `progress`, raising `estimate` (its length) when the run
/// passes it.
pub(crate) fn show(progress: &dyn Progress, estimate: &AtomicU64, k: u32, state: &SkinState) {
    let done = state.needed();
    if done > estimate.fetch_max(done, Ordering::Relaxed) {
        progress.set_length(done);
    }
    progress.set_position(done);
    let at = state.boundary().saturating_sub(u64::from(k));
    let msg = match state.last_closed() {
        Some((_, t)) => match super::state::level_of_thickness(t) {
            Some(n) => format!("skin at +{at}, level {n} (thickness {t})"),
            None => format!("skin at +{at}, thickness {t}"),
        },
        None => format!("skin at +{at}"),
    };
    progress.message(&msg);
}

impl Bands {
    fn new(state: &SkinState) -> Self {
        Bands { waiting: BTreeMap::new(), taken: state.rows(), snapshot: Snapshot::of(state) }
    }

    /// Whether the band whose turn it is has all its tiles.
    fn next_ready(&self) -> bool {
        self.waiting
            .first_key_value()
            .is_some_and(|(&y0, band)| y0 == self.snapshot.rows && band.done.load(Ordering::Relaxed))
    }
}

/// The skin on the CPU as a run that pauses and resumes ([`Resumable`]; driven by
/// [`crate::resume::drive`]): its state is the sweep's frontier and the skin's state, which has
/// read exactly the rows above it.
pub struct SkinRun<'a> {
    follower: Follower<'a>,
    frontier: Option<Frontier>,
    report: Option<SweepReport>,
}

impl<'a> SkinRun<'a> {
    /// Runs `follower` in segments.
    pub fn new(follower: Follower<'a>) -> Self {
        SkinRun { follower, frontier: None, report: None }
    }
}

impl Resumable for SkinRun<'_> {
    type Output = (SkinReport, Vec<Column>, SweepReport);

    fn tag(&self) -> String {
        self.follower.tag()
    }

    fn rows(&self) -> (u32, u32) {
        (self.follower.rows(), self.follower.height())
    }

    fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool> {
        let (report, next) = self.follower.segment(self.frontier.as_ref(), pause)?;
        self.report = Some(SweepReport::after(self.report.take(), report));
        self.frontier = next;
        Ok(self.frontier.is_none())
    }

    fn encode(&self, w: &mut Writer) {
        self.frontier.as_ref().expect("a paused run has a frontier").encode(w);
        self.follower.encode(w);
    }

    fn restore(&mut self, r: &mut checkpoint::Reader<'_>) -> std::result::Result<(), String> {
        let f = &self.follower;
        let frontier = Frontier::decode(r).ok_or("its frontier is truncated or malformed")?;
        if let Some(why) = frontier.unfit(f.k, f.width, f.height) {
            return Err(why);
        }
        f.restore(r)?;
        if frontier.rows_done() != f.rows() {
            return Err(format!(
                "its skin has read {} rows, its frontier {}",
                f.rows(),
                frontier.rows_done()
            ));
        }
        self.frontier = Some(frontier);
        Ok(())
    }

    fn finish(self) -> Result<Self::Output> {
        let (report, cols) = self.follower.finish()?;
        Ok((report, cols, self.report.expect("a finished run ran")))
    }
}

impl PalaceVisitor for Follower<'_> {
    fn wants_values(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> bool {
        let run = self.run.load(Ordering::Relaxed);
        let wants = |band: &Option<Arc<Band>>| {
            band.as_ref().is_some_and(|b| u64::from(x0) < b.hi && u64::from(x1) > b.lo)
        };
        let cached = CURRENT.with_borrow(|c| match c {
            Some(c) if c.run == run && c.y0 == y0 => Some(wants(&c.band)),
            _ => None,
        });
        if let Some(w) = cached {
            return w;
        }
        if u64::from(x1) <= self.lo_hint.load(Ordering::Relaxed) {
            return false;
        }
        match self.band_for(x1, y0, y1) {
            Ok(band) => {
                let w = wants(&band);
                CURRENT.set(Some(Current { run, y0, band }));
                w
            }
            Err(()) => false,
        }
    }

    fn serial(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.reading.load(Ordering::Relaxed))
    }

    fn visit(&self, _worker: usize, tile: &PalaceTile<'_>) {
        let run = self.run.load(Ordering::Relaxed);
        let band = CURRENT.with_borrow(|c| match c {
            Some(c) if c.run == run && c.y0 == tile.y0 => c.band.clone(),
            _ => None,
        });
        let Some(band) = band else {
            // Rows that need no values, or bands after the skin ended or after a failure.
            return;
        };
        if let Some(kept) = tile.kept
            && u64::from(tile.x0) < band.hi
            && u64::from(tile.x1) > band.lo
        {
            band.tiles.lock().unwrap().push(kept.clone());
        }
        // The band's last tile with values, or its last tile (once).
        if u64::from(tile.x1) >= band.hi && !band.done.load(Ordering::Relaxed) {
            let _b = self.bands.lock().unwrap();
            band.done.store(true, Ordering::Relaxed);
        }
        // Read at the band's last tile, already published: reading at its last tile with
        // values held up the band below, which needs the tiles right of it.
        if tile.x1 == self.width {
            self.read_bands();
        }
    }
}

/// One tile's part of a row the reader reads: columns `[x0, x1)`.
struct Part<'a> {
    x0: u64,
    x1: u64,
    /// The cells, for a computed tile; `None` for quiet tiles (0) and the hood's.
    cells: Option<&'a [i8]>,
    hood: bool,
}

impl<'a> Part<'a> {
    fn of(v: &TileView<'a>, y: u32) -> Self {
        Part {
            x0: u64::from(v.x0),
            x1: u64::from(v.x1),
            cells: v.row(y),
            hood: matches!(v.kind, TileKind::Hood),
        }
    }

    /// The value of cell `(x, y)`, `x` in `[x0, x1)`.
    fn at(&self, k: u32, x: u64, y: u32) -> i8 {
        match self.cells {
            Some(row) => row[(x - self.x0) as usize],
            None if self.hood => hood_sentinel(k, x, u64::from(y)),
            None => 0,
        }
    }
}

/// Follows the skin of game `k` from the shoulder to column `to` (exclusive, `> k`) through a
/// counter sweep, in one run (see [`Follower`] for runs in segments). Returns the report, the
/// columns and the engine's report. Cancelling `opts.cancel` stops it with
/// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted).
pub fn follow(
    k: u32,
    to: u64,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(SkinReport, Vec<Column>, SweepReport)> {
    let f = Follower::new(k, to, opts, progress)?;
    let (report, frontier) = f.segment(None, &|| opts.cancel.is_cancelled())?;
    if frontier.is_some() {
        return Err(Error::INTERRUPTED);
    }
    let (skin, cols) = f.finish()?;
    Ok((skin, cols, report))
}
