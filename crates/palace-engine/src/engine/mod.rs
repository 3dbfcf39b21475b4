//! The engine: computes any window of any board with the CA, in memory bounded by the width,
//! and hands the window's rows out in order to a [`RowSink`].
//!
//! The region `[0, x1) x [0, y1)` that the window depends on is cut into tiles (`layout`),
//! each tile is classified and computed (`tile`, with the kernels of [`crate::kernel`]), and
//! the tiles are swept by a pool of workers in a staggered wavefront (`sweep`). Cells outside
//! the window are computed as needed but never stored beyond the few bands in flight. A
//! counter sweep may also run as column strips that exchange only their edges ([`strips`]),
//! the seam of a sweep over several processes.
//!
//! `src/engine/README.md` is the design note: how a sweep is cut into bands and tiles, the
//! wavefront, which kernel computes which tile and why every path is exact, the frontier
//! protocol that pauses and resumes a sweep, and the strips.

pub mod checkpoint;
pub mod control;
mod counted;
mod layout;
pub mod lines;
pub mod lockstep;
pub mod sink;
pub mod strips;
mod sweep;
mod tile;
pub mod timeline;

use crate::engine::sink::RowSink;
use crate::error::{Error, Result};
use crate::kernel::KernelChoice;
use crate::kernel::NarrowFn;
use crate::model::geometry::Window;
pub use control::{Cancel, Progress, Silent, Watch};
pub use layout::Lane;
use layout::{
    COUNTER_BAND_HEIGHT, DEFAULT_BAND_HEIGHT, Layout, default_counter_tile_width, default_tally_tile,
    default_tile_width,
};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tile::Made;
pub use timeline::Timeline;

/// How to run the engine. The defaults are the fast engine on every core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
    /// Which kernel computes the tiles outside the hood.
    pub kernel: KernelChoice,
    /// Fill hood tiles by the closed form and quiet tiles with zeros instead of computing
    /// them. Off only to test the fills against computation.
    pub skip: bool,
    /// Tile width in columns (at least 2); `None` picks one from the width and thread count.
    pub tile_width: Option<u32>,
    /// Band height in rows (at least 2); `None` uses 128.
    pub band_height: Option<u32>,
    /// Stops the run with [`Error::Interrupted`] once
    /// cancelled; checked between bands.
    pub cancel: Cancel,
    /// Record every tile's times in [`SweepReport::timeline`], to model the sweep on other
    /// thread counts (16 bytes a tile; none for lane sweeps or beyond 2^24 tiles).
    pub timeline: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 0,
            kernel: KernelChoice::Auto,
            skip: true,
            tile_width: None,
            band_height: None,
            cancel: Cancel::default(),
            timeline: false,
        }
    }
}

/// The cores this process may run on (1 if that cannot be told).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A `--threads`-style count: 0 means one per available core.
pub fn resolve_threads(threads: usize) -> usize {
    if threads == 0 { available_cores() } else { threads }
}

impl EngineOptions {
    /// The number of workers this will use.
    pub fn resolved_threads(&self) -> usize {
        resolve_threads(self.threads)
    }

    /// The tiling of a sweep: of a counter sweep with `counter`, one whose tiles tally their
    /// values with `tally`.
    fn layout(&self, k: u32, window: Window, threads: usize, counter: bool, tally: bool) -> Layout {
        let (tw, bh) = match (counter, tally) {
            (true, true) => default_tally_tile(window.x1, threads),
            (true, false) => (default_counter_tile_width(window.x1, threads), COUNTER_BAND_HEIGHT),
            (false, _) => (default_tile_width(window.x1, threads), DEFAULT_BAND_HEIGHT),
        };
        let (tw, bh) = (self.tile_width.unwrap_or(tw), self.band_height.unwrap_or(bh));
        Layout::new(k, window.x1, window.y1, tw.max(2), bh.max(2))
    }

    /// The narrow kernel this choice resolves to on this CPU, if any.
    fn narrow(&self) -> Option<NarrowFn> {
        self.kernel.narrow_fn()
    }
}

/// Cells per way of production, counted by the workers.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    hood: AtomicU64,
    zero: AtomicU64,
    narrow: AtomicU64,
    wide: AtomicU64,
    counter: AtomicU64,
    tiles: AtomicU64,
    /// Nanoseconds of the workers' time, by [`WorkerTimes`]' fields.
    times: [AtomicU64; 4],
}

impl Counters {
    fn add(&self, made: Made) {
        for (c, n) in [
            (&self.hood, made.hood),
            (&self.zero, made.zero),
            (&self.narrow, made.narrow),
            (&self.wide, made.wide),
            (&self.counter, made.counter),
        ] {
            c.fetch_add(n, Ordering::Relaxed);
        }
        self.tiles.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds one worker's times.
    fn add_times(&self, t: &WorkerTimes) {
        for (c, d) in self.times.iter().zip([t.computing, t.visiting, t.waiting_above, t.waiting_band]) {
            c.fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
        }
    }

    fn times(&self) -> WorkerTimes {
        let d = |i: usize| Duration::from_nanos(self.times[i].load(Ordering::Relaxed));
        WorkerTimes {
            computing: d(0),
            visiting: d(1),
            waiting_above: d(2),
            waiting_band: d(3),
            serial: Duration::ZERO,
        }
    }
}

/// Where the workers' time went, summed over the workers: a profile of the sweep's scaling.
/// What is left of `threads x elapsed` the workers spent idle (no band left for them) or
/// between these steps.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct WorkerTimes {
    /// Computing tiles.
    #[serde(serialize_with = "ser_secs")]
    pub computing: Duration,
    /// In the analysis's visitor (its work per tile, the skin's reading of its rows
    /// included).
    #[serde(serialize_with = "ser_secs")]
    pub visiting: Duration,
    /// Waiting for a tile of the band above.
    #[serde(serialize_with = "ser_secs")]
    pub waiting_above: Duration,
    /// Getting the next band: the scheduler's lock and a free band slot (bounded memory).
    #[serde(serialize_with = "ser_secs")]
    pub waiting_band: Duration,
    /// Of `visiting`, the work only one worker at a time may do ([`PalaceVisitor::serial`]):
    /// when it nears the wall time, that work bounds the sweep.
    #[serde(serialize_with = "ser_secs")]
    pub serial: Duration,
}

impl WorkerTimes {
    /// Adds the time since `started` less what `before` (this worker's times when it started)
    /// has since gained in waiting and visiting to `computing`.
    fn computed_since(&mut self, before: &WorkerTimes, started: std::time::Instant) {
        let other =
            (self.waiting_above + self.visiting).saturating_sub(before.waiting_above + before.visiting);
        self.computing += started.elapsed().saturating_sub(other);
    }

    /// The sum of two runs' times.
    fn plus(self, o: WorkerTimes) -> WorkerTimes {
        WorkerTimes {
            computing: self.computing + o.computing,
            visiting: self.visiting + o.visiting,
            waiting_above: self.waiting_above + o.waiting_above,
            waiting_band: self.waiting_band + o.waiting_band,
            serial: self.serial + o.serial,
        }
    }
}

/// What a sweep did: how many cells each path produced, and how long it took.
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    /// Cells in the region this run swept: `[0, x1)` times the rows of the bands it computed
    /// (the whole `[0, x1) x [0, y1)` unless it paused or stopped early).
    pub region_cells: u64,
    /// Cells filled by the hood's closed form.
    pub hood_filled: u64,
    /// Cells filled as quiet outer space.
    pub zero_filled: u64,
    /// Cells computed by a narrow (8-bit) kernel.
    pub narrow_computed: u64,
    /// Cells computed by the exact wide kernel.
    pub wide_computed: u64,
    /// Cells computed by a three-counter kernel (counter sweeps).
    pub counter_computed: u64,
    /// Tiles in the region.
    pub tiles: u64,
    /// Tile width and band height used.
    pub tile: (u32, u32),
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock time of the sweep (including the consumer).
    #[serde(serialize_with = "ser_secs")]
    pub elapsed: Duration,
    /// Where the workers' time went.
    pub workers: WorkerTimes,
    /// Every tile's times, where [`EngineOptions::timeline`] asked for them.
    #[serde(skip)]
    pub timeline: Option<std::sync::Arc<Timeline>>,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl SweepReport {
    /// The report of a run that swept rows `rows` of `[0, x1)`.
    fn new(c: &Counters, layout: &Layout, threads: usize, x1: u32, rows: u32, elapsed: Duration) -> Self {
        SweepReport {
            region_cells: u64::from(x1) * u64::from(rows),
            hood_filled: c.hood.load(Ordering::Relaxed),
            zero_filled: c.zero.load(Ordering::Relaxed),
            narrow_computed: c.narrow.load(Ordering::Relaxed),
            wide_computed: c.wide.load(Ordering::Relaxed),
            counter_computed: c.counter.load(Ordering::Relaxed),
            tiles: c.tiles.load(Ordering::Relaxed),
            tile: (layout.tile_width, layout.band_height),
            threads,
            elapsed,
            workers: c.times(),
            timeline: None,
        }
    }

    /// Cells actually computed by a kernel.
    pub fn computed(&self) -> u64 {
        self.narrow_computed + self.wide_computed + self.counter_computed
    }

    /// Cells filled without computing.
    pub fn filled(&self) -> u64 {
        self.hood_filled + self.zero_filled
    }

    /// The report of two runs of one sweep, one after the other (a paused sweep and its
    /// continuation): their cells, tiles and times added, the rest as in `next`.
    pub fn then(self, next: SweepReport) -> SweepReport {
        SweepReport {
            hood_filled: self.hood_filled + next.hood_filled,
            zero_filled: self.zero_filled + next.zero_filled,
            narrow_computed: self.narrow_computed + next.narrow_computed,
            wide_computed: self.wide_computed + next.wide_computed,
            counter_computed: self.counter_computed + next.counter_computed,
            tiles: self.tiles + next.tiles,
            elapsed: self.elapsed + next.elapsed,
            region_cells: self.region_cells + next.region_cells,
            workers: self.workers.plus(next.workers),
            ..next
        }
    }
}

/// Refuses what the engine cannot sweep, with a typed error instead of a panic: a game out of
/// range ([`check_k`](crate::model::bounds::check_k)), a kernel this CPU lacks. The window is
/// valid by its type.
fn check_request(function: &'static str, k: u32, opts: &EngineOptions) -> Result<()> {
    crate::model::bounds::check_k(crate::error::Param::K, i64::from(k))?;
    if !opts.kernel.available() {
        return Err(Error::InvalidArgument {
            function,
            argument: "opts.kernel",
            value: opts.kernel.name().to_string(),
            expected: "a kernel this CPU supports (KernelChoice::available)",
        });
    }
    Ok(())
}

/// [`check_request`] for each lane of a lockstep sweep, which must be given and of one size.
pub(crate) fn check_lanes(
    function: &'static str,
    lanes: &[layout::Lane],
    opts: &EngineOptions,
) -> Result<()> {
    let Some(first) = lanes.first() else {
        return Err(Error::InvalidArgument {
            function,
            argument: "lanes",
            value: "[]".into(),
            expected: "at least one lane",
        });
    };
    for l in lanes {
        check_request(function, l.k, opts)?;
        if (l.window.width(), l.window.height()) != (first.window.width(), first.window.height()) {
            return Err(Error::InvalidArgument {
                function,
                argument: "lanes",
                value: format!("windows {} and {}", first.window, l.window),
                expected: "lanes whose windows have one size",
            });
        }
    }
    Ok(())
}

/// One sweep of the engine: the front door to everything the engine computes.
///
/// A sweep is described step by step, from the game and the window, and run by one of its
/// modes: the window's rows in order to a sink ([`Sweep::rows`]), every finished tile to a
/// visitor on the workers ([`Sweep::tiles`]), the aligned tiles of several games
/// ([`Sweep::lanes`]), or the palaces only, by the three-counter form ([`Sweep::palaces`]).
/// [`Sweep::tiles_pausable`] and [`Sweep::palaces_pausable`] also pause and resume. The
/// defaults are the fast engine on every core, no progress report and a token nobody cancels.
///
/// ```
/// use palace_engine::engine::{Sweep, sink::Collect};
/// use palace_engine::model::reference::direct_values;
/// use palace_engine::Window;
///
/// // The 300 x 200 corner of game k = 7 on two workers: its values v = N - k, row by row,
/// // are those of the game's definition.
/// let mut rows = Collect::default();
/// let report = Sweep::new(7, Window::new(0, 0, 300, 200)?).threads(2).rows(&mut rows)?;
/// let direct: Vec<i64> = direct_values(7, 300, 200).into_iter().map(i64::from).collect();
/// assert_eq!(rows.values, direct);
/// assert_eq!(report.computed() + report.filled(), 300 * 200);
/// # Ok::<(), palace_engine::Error>(())
/// ```
///
/// The window must be non-empty; the board it lies on plays no further role (cells depend
/// only on cells above and to the left).
#[must_use = "a sweep does nothing until one of its modes runs it"]
pub struct Sweep<'a> {
    k: u32,
    window: Window,
    lanes: Option<&'a [Lane]>,
    opts: EngineOptions,
    progress: &'a dyn Progress,
    start: Option<&'a checkpoint::Frontier>,
    pause: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl<'a> Sweep<'a> {
    /// A sweep of `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        Sweep {
            k,
            window,
            lanes: None,
            opts: EngineOptions::default(),
            progress: &Silent,
            start: None,
            pause: None,
        }
    }

    /// A sweep of several games together, for [`Sweep::lanes`]: the first lane's game and window
    /// are the sweep's; the lanes' windows must have one size, and the first must start at the
    /// origin.
    pub fn together(lanes: &'a [Lane]) -> Self {
        // No lanes: a placeholder that the mode's check refuses before anything runs.
        let first =
            lanes.first().copied().unwrap_or(Lane { k: 0, window: Window { x0: 0, y0: 0, x1: 1, y1: 1 } });
        Sweep { lanes: Some(lanes), ..Sweep::new(first.k, first.window) }
    }

    /// Runs with these options (threads, kernel, tiling, cancel token) instead of the defaults.
    pub fn options(mut self, opts: &EngineOptions) -> Self {
        self.opts = opts.clone();
        self
    }

    /// Runs on `threads` workers (0: one per available core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.opts.threads = threads;
        self
    }

    /// Computes the tiles outside the hood with `kernel`.
    pub fn kernel(mut self, kernel: KernelChoice) -> Self {
        self.opts.kernel = kernel;
        self
    }

    /// Stops with [`Error::Interrupted`] once `cancel` is cancelled (looked at between bands).
    pub fn cancel(mut self, cancel: &Cancel) -> Self {
        self.opts.cancel = cancel.clone();
        self
    }

    /// Reports progress to `progress` (its length is set to the rows or tiles to do).
    pub fn progress(mut self, progress: &'a dyn Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Reports to `watch`'s progress and stops when its token is cancelled (where it has one).
    pub fn watch(mut self, watch: Watch<'a>) -> Self {
        self.progress = watch.progress();
        if let Some(c) = watch.cancel() {
            self.opts.cancel = c.clone();
        }
        self
    }

    /// Continues a paused sweep of the same board from `start` (with its tiling), or starts
    /// from the top for `None`. For [`Sweep::tiles`], [`Sweep::palaces`] and their pausable
    /// forms.
    pub fn resume(mut self, start: Option<&'a checkpoint::Frontier>) -> Self {
        self.start = start;
        self
    }

    /// Pauses when `pause`, asked before each band is handed out but the first (so that every
    /// run moves on), returns true: the bands in flight finish, and the pausable modes return
    /// the frontier below the last. Unlike the token of [`Sweep::cancel`], which stops a sweep
    /// within its bands in flight, a pause loses nothing.
    pub fn pause_when(mut self, pause: &'a (dyn Fn() -> bool + Sync)) -> Self {
        self.pause = Some(pause);
        self
    }

    /// Refuses a mode this sweep was not described for, and what the engine cannot sweep.
    fn check(&self, function: &'static str, resumes: bool, pauses: bool, lanes: bool) -> Result<()> {
        let misuse = |argument, expected| {
            Err(Error::InvalidArgument { function, argument, value: "given".into(), expected })
        };
        if self.start.is_some() && !resumes {
            return misuse("resume", "resume only with tiles, palaces and their pausable forms");
        }
        if self.pause.is_some() && !pauses {
            return misuse("pause_when", "pause_when only with tiles_pausable or palaces_pausable");
        }
        match self.lanes {
            Some(_) if !lanes => misuse("together", "Sweep::together only with lanes"),
            Some(all) => check_lanes(function, all, &self.opts),
            None => check_request(function, self.k, &self.opts),
        }
    }

    fn run(self, output: sweep::Output<'_>) -> Result<(SweepReport, Option<checkpoint::Frontier>)> {
        let resume = sweep::Resume { start: self.start, pause: self.pause };
        sweep::run(self.k, self.window, &self.opts, self.opts.narrow(), output, self.progress, resume)
    }

    /// Feeds the window's rows, top first, to `sink` on the calling thread. A sink's error
    /// stops the sweep and comes back as it was.
    pub fn rows<S: RowSink + ?Sized>(self, sink: &mut S) -> std::result::Result<SweepReport, S::Error> {
        self.check("Sweep::rows", false, false, false)?;
        let mut keeps = sink::Keeps { sink, failed: None };
        let r = self.run(sweep::Output::Rows(&mut keeps)).map(|r| r.0);
        match keeps.failed {
            Some(e) => Err(e),
            None => Ok(r?),
        }
    }

    /// Shows every finished tile that meets the window to `visitor`, on the worker threads, in
    /// no particular order. For analyses whose results can be merged in any order (histograms,
    /// extremes with their first position, digests): they then run in parallel with the sweep
    /// instead of on one consumer thread.
    pub fn tiles(self, visitor: &dyn TileVisitor) -> Result<SweepReport> {
        self.check("Sweep::tiles", true, false, false)?;
        self.run(sweep::Output::Tiles(visitor)).map(|r| r.0)
    }

    /// [`Sweep::tiles`] that pauses as [`Sweep::pause_when`] says: returns the frontier of the
    /// last band done when it paused (`None` when the sweep finished). The frontier of a visitor
    /// sweep holds the last band's bottom rows.
    pub fn tiles_pausable(
        self,
        visitor: &dyn TileVisitor,
    ) -> Result<(SweepReport, Option<checkpoint::Frontier>)> {
        self.check("Sweep::tiles_pausable", true, true, false)?;
        self.run(sweep::Output::Tiles(visitor))
    }

    /// Sweeps several games together ([`Sweep::together`]; one game for [`Sweep::new`]) and
    /// shows the aligned tiles of all of them to `visitor`, on the worker threads: tile
    /// `(j, b)` of every lane at once, with the states the visitor returned for the tiles above
    /// and to the left of it (a wavefront: the tile above and the tile to the left are always
    /// visited first). For analyses that compare games cell by cell (`compare`, `regions`,
    /// `fabric`) and carry a little state down and across the board.
    ///
    /// Lane `g`'s tiles are shifted by its window's corner, so that the cell `(x, y)` of the
    /// first lane's view and the cell `(x + x0_g, y + y0_g)` of lane `g`'s lie at the same
    /// place of their views. Tiles are stored as rows ([`TileView::row`]). The report counts
    /// the cells of every lane, but `region_cells` the first lane's only.
    pub fn lanes(self, visitor: &dyn LaneVisitor) -> Result<SweepReport> {
        // The check refuses resume and pause_when here, and checks the one lane of a single
        // game as any sweep's request.
        self.check("Sweep::lanes", false, false, true)?;
        let one = [Lane { k: self.k, window: self.window }];
        let lanes: &[Lane] = self.lanes.unwrap_or(&one);
        self.run(sweep::Output::Lanes(visitor, lanes)).map(|r| r.0)
    }

    /// Sweeps the board `[0, x1) x [0, y1)` (the window must start at the origin) in the
    /// three-counter form ([`crate::kernel::counter`]) and shows every tile's palace count to
    /// `visitor`, on the worker threads, in no particular order. Only palaces come out, no
    /// values: this is the fast path for analyses that need nothing else. The kernel choice
    /// picks the counter kernel (`Wide`: none, every tile by the CA's exact paths).
    pub fn palaces(self, visitor: &dyn PalaceVisitor) -> Result<SweepReport> {
        self.check_board("Sweep::palaces")?;
        self.check("Sweep::palaces", true, false, false)?;
        let output = sweep::Output::Palaces(visitor, self.opts.kernel.counter());
        self.run(output).map(|r| r.0)
    }

    /// [`Sweep::palaces`] that pauses as [`Sweep::pause_when`] says and returns the frontier
    /// below the last band done (`None` when the sweep finished). The visitor sees each tile
    /// once over the whole chain of runs, so an analysis whose state is saved with the frontier
    /// ([`checkpoint::Checkpoint`]) ends with the same result as an uninterrupted sweep. The
    /// token of [`Sweep::cancel`] stops it as it stops any sweep, within the bands in flight and
    /// without a frontier; to save a frontier on a signal, read the signal in the pause test and
    /// give the sweep a token of its own.
    pub fn palaces_pausable(
        self,
        visitor: &dyn PalaceVisitor,
    ) -> Result<(SweepReport, Option<checkpoint::Frontier>)> {
        self.check_board("Sweep::palaces_pausable")?;
        self.check("Sweep::palaces_pausable", true, true, false)?;
        let output = sweep::Output::Palaces(visitor, self.opts.kernel.counter());
        self.run(output)
    }

    /// [`Sweep::palaces`] computed as the column strips of `strips` (see [`strips`]): each
    /// strip on a thread of its own, sweeping its columns band by band and handing the edge of
    /// each band to the strip on its right over a channel, as the processes of a distributed
    /// sweep would. The visitor sees the strips' tiles, strip `p`'s as worker `p`; the palaces,
    /// the counters leaving the board and the values it asks for are those of
    /// [`Sweep::palaces`]. The options' threads play no part (one per strip); `strips` must
    /// span the window's width.
    pub fn palaces_in_strips(
        self,
        strips: &strips::StripPartition,
        visitor: &dyn PalaceVisitor,
    ) -> Result<SweepReport> {
        self.check_board("Sweep::palaces_in_strips")?;
        self.check("Sweep::palaces_in_strips", false, false, false)?;
        if strips.width() != self.window.x1 {
            return Err(Error::InvalidArgument {
                function: "Sweep::palaces_in_strips",
                argument: "strips",
                value: format!(
                    "a partition of {} columns for a window of {}",
                    strips.width(),
                    self.window.x1
                ),
                expected: "strips that span the window's width",
            });
        }
        strips::palaces(self.k, self.window.y1, strips, &self.opts, visitor, self.progress)
    }

    /// A counter sweep covers a board: its window starts at the origin.
    fn check_board(&self, function: &'static str) -> Result<()> {
        if self.window.x0 != 0 || self.window.y0 != 0 {
            return Err(Error::InvalidArgument {
                function,
                argument: "window",
                value: self.window.to_string(),
                expected: "a board: a window from the origin (0, 0)",
            });
        }
        Ok(())
    }
}

/// What a [`LaneVisitor`] leaves for the tiles below and to the right of the one it visited.
pub type LaneState = Box<dyn std::any::Any + Send + Sync>;

/// An analysis run by the workers on the aligned tiles of several games (see [`Sweep::lanes`]).
pub trait LaneVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with tile `(strip, band)` of every lane; returns
    /// the state the tiles below and to the right will see.
    fn visit(&self, worker: usize, tiles: &LaneTiles<'_>) -> LaneState;
}

/// Tile `(strip, band)` of every lane of a [`Sweep::lanes`].
pub struct LaneTiles<'a> {
    /// The strip (column of tiles).
    pub strip: usize,
    /// The band (row of tiles).
    pub band: usize,
    /// Strips in a band.
    pub strips: usize,
    /// Bands in the sweep.
    pub bands: usize,
    /// One view per lane, in the lanes' order, each in its own board's coordinates.
    pub views: &'a [TileView<'a>],
    /// The state of the tile above (`None` in the first band).
    pub above: Option<&'a (dyn std::any::Any + Send + Sync)>,
    /// The state of the tile to the left (`None` in the first strip).
    pub left: Option<&'a (dyn std::any::Any + Send + Sync)>,
}

/// An analysis of the palaces of a counter sweep (see [`Sweep::palaces`]).
pub trait PalaceVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with each finished tile.
    fn visit(&self, worker: usize, tile: &PalaceTile<'_>);

    /// Whether the visitor needs the values of the tile `[x0, x1) x [y0, y1)` and not only its
    /// palaces (asked before the tile is computed): such a tile is computed by the CA's paths,
    /// as in [`Sweep::tiles`], and comes with [`PalaceTile::values`]. For the few tiles an
    /// analysis looks into, such as those along a boundary it follows.
    fn wants_values(&self, _x0: u32, _y0: u32, _x1: u32, _y1: u32) -> bool {
        false
    }

    /// Whether the visitor needs the counts of every tile's values (statistics): a tile the
    /// counter kernel computes then tallies its values as it goes and comes with
    /// [`PalaceTile::counts`] (and, along the hood, [`PalaceTile::pieces`] with the cells the
    /// kernel did not compute); every other tile (the hood, quiet tiles, tiles the kernel cannot
    /// take) comes with [`PalaceTile::values`]. Exactly one of counts and values is given.
    fn wants_counts(&self) -> bool {
        false
    }

    /// With [`PalaceVisitor::wants_counts`]: asked once a counter tile's counts are known
    /// (indexed by `v + 128`), whether the visitor needs the tile's values instead, for
    /// instance to find where an extreme value first occurs. Such a tile is computed again by
    /// the CA's paths and comes with its values and without counts.
    fn wants_values_too(&self, _x0: u32, _y0: u32, _x1: u32, _y1: u32, _counts: &[u64; 256]) -> bool {
        false
    }

    /// The time the visitor has spent so far, inside [`PalaceVisitor::visit`], on work only one
    /// worker at a time may do (a consumer it runs under a lock): the sweep reports what it
    /// adds as [`WorkerTimes::serial`]. The default: none.
    fn serial(&self) -> Duration {
        Duration::ZERO
    }
}

/// One finished tile of a counter sweep: the rectangle `[x0, x1) x [y0, y1)`.
pub struct PalaceTile<'a> {
    /// The game.
    pub k: u32,
    /// First column.
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    /// Palaces in the tile.
    pub palaces: u64,
    /// The counters leaving the tile, modulo 256 (see [`crate::kernel::counter::Edges`]).
    pub leaving: &'a crate::kernel::counter::Edges,
    /// The tile's values, where [`PalaceVisitor::wants_values`] asked for them (or
    /// [`PalaceVisitor::wants_counts`], for the tiles it gets no counts of).
    pub values: Option<TileView<'a>>,
    /// The same values, for a visitor that reads them after its visit: cloning it keeps the
    /// tile alive, without copying its cells (`Some` exactly when `values` is).
    pub kept: Option<&'a KeptTile>,
    /// The counts of the tile's values by `v + 128`, where [`PalaceVisitor::wants_counts`]
    /// asked for them and the counter kernel computed the tile (or part of it).
    pub counts: Option<&'a [u64; 256]>,
    /// With `counts`, the cells of the tile that the counter kernel did not compute (the exact
    /// parts of a tile along the hood), which the counts leave out.
    pub pieces: &'a [TileView<'a>],
}

/// An analysis run by the workers on every finished tile (see [`Sweep::tiles`]).
pub trait TileVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with the part of a tile inside the window.
    fn visit(&self, worker: usize, tile: &TileView<'_>);
}

/// A finished tile's values that a [`PalaceVisitor`] keeps past its visit
/// ([`PalaceTile::kept`]). Clones share the tile; its buffer goes back to the worker that
/// computed it when the last clone is dropped.
#[derive(Clone)]
pub struct KeptTile(std::sync::Arc<Kept>);

struct Kept {
    k: u32,
    tile: tile::Tile,
    rect: layout::Rect,
    window: Window,
}

impl KeptTile {
    /// The tile's part inside the window, or `None` if it has none.
    fn new(k: u32, tile: tile::Tile, rect: layout::Rect, window: Window) -> Option<Self> {
        TileView::new(k, &tile, &rect, window)?;
        Some(KeptTile(std::sync::Arc::new(Kept { k, tile, rect, window })))
    }

    /// The tile's values, as [`PalaceTile::values`] shows them.
    pub fn view(&self) -> TileView<'_> {
        let Kept { k, tile, rect, window } = &*self.0;
        TileView::new(*k, tile, rect, *window).expect("a kept tile meets the window")
    }
}

/// The part of a finished tile that lies inside the window: rows `y0..y1`, columns `x0..x1`.
pub struct TileView<'a> {
    /// The game.
    pub k: u32,
    /// First column (board coordinates).
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    /// What the tile holds.
    pub kind: TileKind<'a>,
}

/// What a [`TileView`] holds.
pub enum TileKind<'a> {
    /// Every cell is 0 (quiet outer space).
    Zero,
    /// Every cell lies in the hood (values by the closed form).
    Hood,
    /// Computed cells; [`TileView::row`] gives them.
    Cells {
        /// The tile's buffer.
        buf: &'a crate::kernel::TileBuf,
        /// The tile's own first column and row (the buffer's origin).
        origin: (u32, u32),
    },
}

impl<'a> TileView<'a> {
    fn new(k: u32, tile: &'a tile::Tile, rect: &layout::Rect, window: Window) -> Option<Self> {
        let (x0, x1) = (rect.x0.max(window.x0), rect.x1.min(window.x1));
        let (y0, y1) = (rect.y0.max(window.y0), rect.y1.min(window.y1));
        if x0 >= x1 || y0 >= y1 {
            return None;
        }
        let kind = match tile {
            tile::Tile::Zero => TileKind::Zero,
            tile::Tile::Hood => TileKind::Hood,
            tile::Tile::Cells(buf) => TileKind::Cells { buf, origin: (rect.x0, rect.y0) },
            tile::Tile::Aborted => return None,
            tile::Tile::Edges { .. } => unreachable!("a tile is visited before it is cut to its edges"),
        };
        Some(TileView { k, x0, x1, y0, y1, kind })
    }

    /// The stored cells of row `y` over `x0..x1` (hood cells hold their sign-preserving
    /// stand-in, as in [`Row`](crate::engine::sink::Row)); `None` for [`TileKind::Zero`] and
    /// [`TileKind::Hood`] tiles.
    pub fn row(&self, y: u32) -> Option<&'a [i8]> {
        match self.kind {
            TileKind::Cells { buf, origin: (tx, ty) } => {
                Some(&buf.row((y - ty) as usize)[(self.x0 - tx) as usize..(self.x1 - tx) as usize])
            }
            _ => None,
        }
    }

    /// The stored cells of row `y` over `x0..x1` whatever the tile's kind: borrowed from the
    /// tile, or written to `scratch` (zeros, or the hood's stand-ins).
    pub fn row_or<'s>(&'s self, y: u32, scratch: &'s mut Vec<i8>) -> &'s [i8] {
        if let Some(r) = self.row(y) {
            return r;
        }
        scratch.clear();
        match self.kind {
            TileKind::Hood => crate::model::rule::hood_sentinel_row(
                self.k,
                u64::from(y),
                u64::from(self.x0),
                u64::from(self.x1),
                scratch,
            ),
            _ => scratch.resize((self.x1 - self.x0) as usize, 0),
        }
        scratch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sink::Collect;
    use crate::model::reference::direct_values;

    /// Bad arguments to the public entry points come back as typed errors, not panics.
    #[test]
    fn bad_requests_are_typed_errors() {
        let opts = EngineOptions::default();
        let big = crate::model::geometry::MAX_SIDE + 1;
        // An empty window or one past MAX_SIDE cannot be made; a game out of range is refused
        // by the sweep.
        for (x1, y1) in [(2, 0), (big, 3)] {
            let e = Window::new(0, 0, x1, y1).unwrap_err();
            assert_eq!(e.param, crate::error::Param::Window, "{e}");
        }
        for k in [0, crate::model::rule::MAX_K + 1] {
            let e = Sweep::new(k, Window::new(0, 0, 4, 4).unwrap())
                .options(&opts)
                .rows(&mut Collect::default())
                .unwrap_err();
            assert!(
                matches!(&e, Error::Parameter(p) if p.param == crate::error::Param::K) && e.is_usage(),
                "{e}"
            );
        }
        struct Nothing;
        impl PalaceVisitor for Nothing {
            fn visit(&self, _: usize, _: &PalaceTile<'_>) {}
        }
        let e = Sweep::new(0, Window::new(0, 0, 3, 4).unwrap()).options(&opts).palaces(&Nothing).unwrap_err();
        assert!(matches!(e, Error::Parameter(_)), "{e}");
        // A mode the sweep was not described for is refused, naming the builder step.
        let w = Window::new(0, 0, 8, 8).unwrap();
        let never = || false;
        let f = {
            struct Keep;
            impl PalaceVisitor for Keep {
                fn visit(&self, _: usize, _: &PalaceTile<'_>) {}
            }
            let (_, f) = Sweep::new(5, Window::new(0, 0, 64, 600).unwrap())
                .options(&EngineOptions { band_height: Some(16), ..Default::default() })
                .pause_when(&|| true)
                .palaces_pausable(&Keep)
                .unwrap();
            f.expect("paused after the first band")
        };
        let misuse = [
            Sweep::new(5, w).resume(Some(&f)).rows(&mut Collect::default()).unwrap_err(),
            Sweep::new(5, w).pause_when(&never).rows(&mut Collect::default()).unwrap_err(),
            Sweep::new(5, w).pause_when(&never).palaces(&Nothing).unwrap_err(),
            Sweep::together(&[Lane { k: 5, window: w }]).rows(&mut Collect::default()).unwrap_err(),
            Sweep::new(5, Window::new(1, 0, 8, 8).unwrap()).palaces(&Nothing).unwrap_err(),
            Sweep::together(&[]).lanes(&NoLanes).unwrap_err(),
        ];
        for (e, argument) in
            misuse.iter().zip(["resume", "pause_when", "pause_when", "together", "window", "lanes"])
        {
            assert!(matches!(e, Error::InvalidArgument { argument: a, .. } if *a == argument), "{e}");
        }
        struct NoLanes;
        impl LaneVisitor for NoLanes {
            fn visit(&self, _: usize, _: &LaneTiles<'_>) -> LaneState {
                Box::new(())
            }
        }
        // One game alone is a sweep of one lane.
        Sweep::new(5, w).lanes(&NoLanes).unwrap();
        let e = lockstep::lockstep(&[], &opts, &Silent, |_| Ok::<(), Error>(())).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument { argument: "lanes", .. }), "{e}");
        let lanes = [
            lockstep::Lane { k: 5, window: Window::new(0, 0, 4, 4).unwrap() },
            lockstep::Lane { k: 6, window: Window::new(0, 0, 5, 4).unwrap() },
        ];
        let e = lockstep::lockstep(&lanes, &opts, &Silent, |_| Ok::<(), Error>(())).unwrap_err();
        assert!(e.to_string().contains("one size"), "{e}");
    }

    fn run(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
        let mut c = Collect::default();
        Sweep::new(k, w).options(opts).rows(&mut c).unwrap();
        assert_eq!(c.ys, (w.y0..w.y1).collect::<Vec<_>>(), "rows in order");
        c.values
    }

    fn window_of(full: &[i32], width: usize, w: Window) -> Vec<i64> {
        let mut out = Vec::new();
        for y in w.y0..w.y1 {
            for x in w.x0..w.x1 {
                out.push(i64::from(full[y as usize * width + x as usize]));
            }
        }
        out
    }

    /// A panicking visitor must surface as a panic of the caller, not hang the sweep.
    #[test]
    fn a_worker_panic_is_raised_not_hung() {
        struct Boom;
        impl TileVisitor for Boom {
            fn visit(&self, _: usize, t: &TileView<'_>) {
                assert!(t.y0 < 300, "deliberate test panic");
            }
        }
        for threads in [1, 2, 3] {
            let o =
                EngineOptions { threads, tile_width: Some(64), band_height: Some(32), ..Default::default() };
            let r = std::panic::catch_unwind(|| {
                Sweep::new(5, Window::new(0, 0, 400, 600).unwrap()).options(&o).tiles(&Boom)
            });
            assert!(r.is_err(), "threads={threads}: the panic reaches the caller");
        }
    }

    /// Cancelling one run's token stops that run and no other: a later sweep in the same
    /// process, with its own token, completes (there is no process-wide interrupt flag).
    #[test]
    fn cancelling_one_sweep_leaves_others_alone() {
        use crate::engine::sink::{Row, RowSink};
        use crate::error::Error;
        struct CancelAfterFirstRow(Cancel);
        impl RowSink for CancelAfterFirstRow {
            type Error = Error;

            fn row(&mut self, _row: &Row<'_>) -> Result<()> {
                self.0.cancel();
                Ok(())
            }
        }
        let w = Window::new(0, 0, 300, 2000).unwrap();
        for threads in [1, 2] {
            let cancelled = EngineOptions { threads, band_height: Some(16), ..Default::default() };
            let mut sink = CancelAfterFirstRow(cancelled.cancel.clone());
            let r = Sweep::new(7, w).options(&cancelled).rows(&mut sink);
            assert!(matches!(r, Err(Error::Interrupted)), "threads={threads}: {r:?}");
            // A visitor sweep with the cancelled token stops too.
            struct Nothing;
            impl TileVisitor for Nothing {
                fn visit(&self, _: usize, _: &TileView<'_>) {}
            }
            let r = Sweep::new(7, w).options(&cancelled).tiles(&Nothing);
            assert!(matches!(r, Err(Error::Interrupted)), "threads={threads}: {r:?}");
            // A pausable sweep stops on the token too (a pause test that never fires does
            // not keep it going), with no frontier.
            struct NoPalaces;
            impl PalaceVisitor for NoPalaces {
                fn visit(&self, _: usize, _: &PalaceTile<'_>) {}
            }
            let never = || false;
            let r = Sweep::new(7, w).options(&cancelled).pause_when(&never).palaces_pausable(&NoPalaces);
            assert!(matches!(r, Err(Error::Interrupted)), "threads={threads}: {:?}", r.map(|_| ()));
            // A fresh token runs to the end in the same process.
            let fresh = EngineOptions { threads, band_height: Some(16), ..Default::default() };
            assert_eq!(run(7, w, &fresh).len(), 300 * 2000);
            Sweep::new(7, w).options(&fresh).tiles(&Nothing).unwrap();
        }
    }

    #[test]
    fn small_tiles_match_direct_definition() {
        for k in [1u32, 2, 3, 4, 7, 12, 30] {
            let (wd, ht) = (61usize, 47usize);
            let full = direct_values(k, wd, ht);
            for (tw, bh, threads, skip) in
                [(2, 2, 1, false), (3, 5, 2, true), (7, 4, 3, true), (64, 128, 2, true)]
            {
                let opts = EngineOptions {
                    threads,
                    kernel: KernelChoice::Wide,
                    skip,
                    tile_width: Some(tw),
                    band_height: Some(bh),
                    ..Default::default()
                };
                let win = Window::new(0, 0, wd as u32, ht as u32).unwrap();
                assert_eq!(run(k, win, &opts), window_of(&full, wd, win), "k={k} tile {tw}x{bh}");
                let win = Window::new(5, 9, 40, 31).unwrap();
                assert_eq!(run(k, win, &opts), window_of(&full, wd, win), "k={k} window");
            }
        }
    }

    /// A timeline holds every tile a sweep computed, counter and tile sweeps alike, when asked
    /// for and only then; one worker's schedule is its tiles' times added up (within the
    /// sweep's wall time), and more workers never take longer.
    #[test]
    fn a_timeline_has_every_tile_when_asked() {
        struct Palaces;
        impl PalaceVisitor for Palaces {
            fn visit(&self, _: usize, _: &PalaceTile<'_>) {}
        }
        struct Tiles;
        impl TileVisitor for Tiles {
            fn visit(&self, _: usize, _: &TileView<'_>) {}
        }
        let w = Window::new(0, 0, 900, 700).unwrap();
        for threads in [1, 3] {
            let asked = EngineOptions {
                threads,
                tile_width: Some(96),
                band_height: Some(64),
                timeline: true,
                ..Default::default()
            };
            let reports = [
                Sweep::new(300, w).options(&asked).palaces(&Palaces).unwrap(),
                Sweep::new(300, w).options(&asked).tiles(&Tiles).unwrap(),
            ];
            for r in reports {
                let t = r.timeline.as_ref().expect("asked for");
                assert_eq!(t.tiles() as u64, r.tiles, "{threads} threads: every tile");
                assert_eq!(r.tiles, 10 * 11);
                let one = t.schedule(1);
                if threads == 1 {
                    assert!(one <= r.elapsed, "one worker: {one:?} within the sweep's {:?}", r.elapsed);
                }
                assert!(one > Duration::ZERO);
                for n in [2, 4, 16] {
                    assert!(t.schedule(n) <= one, "{n} workers no slower than one");
                }
            }
            let plain = EngineOptions { threads, ..Default::default() };
            assert!(Sweep::new(300, w).options(&plain).palaces(&Palaces).unwrap().timeline.is_none());
        }
    }
}
