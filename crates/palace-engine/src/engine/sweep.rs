//! The parallel sweep: bands of tiles computed by a pool of workers in a staggered wavefront,
//! handed to the consumer in order, in memory bounded by the width.
//!
//! ```text
//!              strip 0   strip 1   strip 2   strip 3   ...
//!   band b     [done ]   [done ]   [done ]   [ W1  ]   ...      worker 1 on band b
//!   band b+1   [done ]   [done ]   [ W2  ]   [wait ]   ...      worker 2 one tile behind
//!   band b+2   [free ]   ...                                    starts when a band is freed
//! ```
//!
//! Tile `(j, b)` needs tile `(j - 1, b)` (its left halo, computed just before by the same
//! worker) and tiles `(j - 1, b - 1)` and `(j, b - 1)` of the band above (its top halo). Each
//! worker takes the next band and walks its strips left to right, waiting on the band above
//! when it catches up with it. Every tile is published once through a `OnceLock`, so a finished
//! tile is immutable and readable by the worker below and by the consumer without locks.
//!
//! At most `max_bands` bands are alive at once: a band holds a permit that returns to the pool
//! when the last reference (its worker, the worker of the band below, the consumer) drops it.
//! The consumer receives bands in order, waits for their tiles, assembles each row of the
//! window and hands it to the sink. Memory is therefore `max_bands * band_height * width`
//! bytes, independent of the board's height.
//!
//! When the output is a [`TileVisitor`] (statistics and analyses), a worker visits each
//! computed tile's cells itself and publishes only the tile's last two rows and columns (all
//! that the tiles below and to the right read), so its buffer returns to the worker's own pool
//! while still in cache. There is no consumer: a band is freed when its worker and the worker
//! below are done with it, the workers report progress and watch for Ctrl-C, and the calling
//! thread sleeps until they finish (a polling consumer would take a core's time slices from
//! the workers: 13 % of a one-core sweep). Twice as many bands may be in flight.

use super::checkpoint::{Frontier, FrontierStrip};
use super::control::{Cancel, Progress};
use super::counted::{self, CounterScratch};
use super::layout::{Lane, Layout, Rect};
use super::options::EngineOptions;
use super::report::{Counters, SweepReport, WorkerTimes};
use super::tile::{Neighbourhood, Scratch, Tile, compute_tile};
use super::timeline::{MAX_TILES, TileTime, Timeline};
use super::visit::{LaneState, LaneTiles, LaneVisitor, PalaceVisitor, TileView, TileVisitor};
use crate::engine::sink::{Row, RowParts, RowSink};
use crate::error::{Error, Result};
use crate::kernel::counter::CounterKernel;
use crate::kernel::{Arrangement, BufPool, NarrowFn};
use crate::model::geometry::Window;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Returns its permit to the pool when dropped.
struct Permit(SyncSender<()>);

impl Drop for Permit {
    fn drop(&mut self) {
        // The pool always has room for every permit it handed out; a closed pool (sweep over)
        // needs none back.
        let _ = self.0.try_send(());
    }
}

/// One band of tiles.
struct Band {
    index: usize,
    /// Tile `j` of lane `g` at `j * lanes + g` (one lane but in lane sweeps).
    tiles: Vec<OnceLock<Tile>>,
    /// Lane sweeps: the visitor's state of each strip's tile (`None`: aborted).
    states: Vec<OnceLock<Option<LaneState>>>,
    /// Tiles per strip.
    lanes: usize,
    _permit: Permit,
}

impl Band {
    /// Marks the tiles of strips `from..` as aborted so nobody waits on them forever.
    fn abort_from(&self, from: usize) {
        for t in &self.tiles[from * self.lanes..] {
            let _ = t.set(Tile::Aborted);
        }
        for s in self.states.get(from..).unwrap_or_default() {
            let _ = s.set(None);
        }
    }
}

struct Scheduler {
    next: usize,
    /// Asked to pause: no more bands are handed out; `last` is kept for the frontier.
    paused: bool,
    last: Option<Arc<Band>>,
    to_consumer: Option<Sender<Arc<Band>>>,
    permits: Receiver<()>,
}

struct Shared<'p> {
    layout: Layout,
    /// Lane sweeps: every lane's layout (the first is `layout`) and window; otherwise `layout`
    /// and the window alone.
    lanes: Vec<(Layout, Window)>,
    /// Asked before each band is handed out but the first; true pauses the sweep (see
    /// `super::checkpoint`).
    pause: Option<&'p (dyn Fn() -> bool + Sync)>,
    /// The first band this run computes.
    first: usize,
    narrow: Option<NarrowFn>,
    /// Counter sweeps: the three-counter kernel (none: every tile by the CA's paths).
    counter: Option<CounterKernel>,
    /// How narrow tiles are stored: diagonally when only a tile visitor reads them.
    arrangement: Arrangement,
    skip: bool,
    /// The run's cancellation token.
    cancel: Cancel,
    /// One buffer pool per worker: a recycled buffer is still in that core's cache.
    pools: Vec<Arc<BufPool>>,
    sched: Mutex<Scheduler>,
    permit_tx: SyncSender<()>,
    abort: AtomicBool,
    error: Mutex<Option<Error>>,
    /// The first panic of a worker, re-raised on the calling thread after the sweep.
    panicked: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    counters: Counters,
    /// Rows finished, for the progress bar of visitor sweeps.
    progress_rows: AtomicU64,
    /// Whether this is a lane sweep (bands keep the visitor's states).
    visits_lanes: bool,
    /// With [`EngineOptions::timeline`], every worker's tiles' times (`None` inside once
    /// there are too many).
    timeline: Option<Mutex<Option<Vec<TileTime>>>>,
}

impl Shared<'_> {
    fn fail(&self, e: Error) {
        let mut slot = self.error.lock().unwrap();
        if slot.is_none() {
            *slot = Some(e);
        }
        self.abort.store(true, Ordering::SeqCst);
    }

    fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// The next band to compute and the band above it.
    fn next_band(&self) -> Option<(Option<Arc<Band>>, Arc<Band>)> {
        let mut st = self.sched.lock().unwrap();
        if st.next >= self.layout.bands() || self.aborted() {
            st.to_consumer = None;
            st.last = None;
            return None;
        }
        // Every run computes at least one band, so a chain of runs always moves on.
        if st.paused || (st.next > self.first && self.pause.is_some_and(|pause| pause())) {
            st.paused = true;
            st.to_consumer = None;
            return None;
        }
        // Wait for a free band slot (bounded memory).
        st.permits.recv().ok()?;
        let lanes = self.lanes.len();
        let band = Arc::new(Band {
            index: st.next,
            tiles: (0..self.layout.strips() * lanes).map(|_| OnceLock::new()).collect(),
            states: if self.visits_lanes {
                (0..self.layout.strips()).map(|_| OnceLock::new()).collect()
            } else {
                Vec::new()
            },
            lanes,
            _permit: Permit(self.permit_tx.clone()),
        });
        st.next += 1;
        if let Some(tx) = &st.to_consumer {
            // The consumer may have stopped (error); then nobody needs the band but the
            // workers below it.
            let _ = tx.send(Arc::clone(&band));
        }
        let prev = st.last.replace(Arc::clone(&band));
        Some((prev, band))
    }

    fn worker(&self, id: usize, output: Workers<'_>, window: Window, progress: &dyn Progress) {
        let mut scratch = Scratch::default();
        let mut counter_scratch = CounterScratch::default();
        let no_consumer = !matches!(output, Workers::Published);
        let strips = self.layout.strips();
        let mut times = WorkerTimes::default();
        let mut timeline = Vec::new();
        loop {
            let asked = Instant::now();
            let next = self.next_band();
            times.waiting_band += asked.elapsed();
            let Some((prev, cur)) = next else { break };
            // Without a consumer the workers watch for cancellation and report progress
            // themselves. The token stops a pausable sweep too, without a frontier; a caller
            // that wants one on a signal reads the signal in its pause test instead.
            if no_consumer && self.cancel.is_cancelled() {
                self.fail(Error::Interrupted);
            }
            for j in 0..strips {
                let started = Instant::now();
                let before = times;
                // Checked per tile too: a band of a very wide board takes long.
                if self.cancel.is_cancelled() {
                    self.fail(Error::Interrupted);
                }
                if self.aborted() {
                    cur.abort_from(j);
                    break;
                }
                if let Workers::Lanes(v) = output {
                    let going = self.lane_tile(id, v, j, prev.as_deref(), &cur, &mut scratch, &mut times);
                    times.computed_since(&before, started);
                    if !going {
                        break;
                    }
                    continue;
                }
                if let Some(p) = &prev
                    && matches!(wait_timed(&p.tiles[j], &mut times.waiting_above), Tile::Aborted)
                {
                    cur.abort_from(j);
                    break;
                }
                let nb = Neighbourhood {
                    layout: &self.layout,
                    j,
                    b: cur.index,
                    above_left: if j > 0 { prev.as_ref().map(|p| p.tiles[j - 1].wait()) } else { None },
                    above: prev.as_ref().map(|p| p.tiles[j].wait()),
                    left: if j > 0 { cur.tiles[j - 1].get() } else { None },
                };
                // A panic must not leave the band half done (the consumer and the worker below
                // would wait on it forever): abort the sweep and re-raise it afterwards.
                let rect = self.layout.rect(j, cur.index);
                // The time in the visitor, for the workers' profile; and when the tile was
                // published, for the timeline (read only when it is asked for).
                let visiting = std::cell::Cell::new(std::time::Duration::ZERO);
                let began = self.timeline.is_some().then(Instant::now);
                let published = std::cell::Cell::new(began);
                let publish = |tile: Tile| {
                    let _ = cur.tiles[j].set(tile);
                    published.set(began.map(|_| Instant::now()));
                };
                let visit = |v: &dyn TileVisitor, tile: &Tile| {
                    if let Some(view) = TileView::new(self.layout.k, tile, &rect, window) {
                        let t = Instant::now();
                        v.visit(id, &view);
                        visiting.set(visiting.get() + t.elapsed());
                    }
                };
                // The tile is published before the visitor sees it: the worker below waits
                // only for the computation, not for the statistics.
                let computed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    if let Workers::Palaces(v) = output {
                        let paths =
                            counted::Paths { counter: self.counter, narrow: self.narrow, skip: self.skip };
                        let (made, visited) = counted::palace_tile(
                            &nb,
                            v,
                            id,
                            window,
                            paths,
                            &self.pools[id],
                            &mut scratch,
                            &mut counter_scratch,
                            |tile| {
                                publish(tile);
                                cur.tiles[j].get().expect("just set")
                            },
                        )?;
                        self.counters.add(made);
                        visiting.set(visiting.get() + visited);
                        return Ok(());
                    }
                    let (tile, made) = compute_tile(
                        &nb,
                        self.narrow,
                        self.arrangement,
                        self.skip,
                        &self.pools[id],
                        &mut scratch,
                    )?;
                    self.counters.add(made);
                    let Workers::Tiles(v) = output else {
                        publish(tile);
                        return Ok(());
                    };
                    // Nobody reads a visited tile's inner cells again: publish its edges, visit
                    // the cells, and let the buffer go back to the pool while it is in cache.
                    let (published, kept) = match tile {
                        Tile::Cells(cells) => (Tile::edges(&cells), Some(Tile::Cells(cells))),
                        other => (other, None),
                    };
                    publish(published);
                    visit(v, kept.as_ref().unwrap_or_else(|| cur.tiles[j].get().expect("just set")));
                    Ok(())
                }));
                times.visiting += visiting.get();
                times.computed_since(&before, started);
                // One tile past MAX_TILES is kept, so that the merge below sees the overflow
                // and records none, without a worker's list growing with the whole sweep.
                if let (Some(began), Some(published)) = (began, published.get())
                    && timeline.len() <= MAX_TILES
                {
                    timeline.push(TileTime::new(cur.index, j, published - began, began.elapsed()));
                }
                match computed {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => {
                        self.fail(e);
                        cur.abort_from(j);
                        break;
                    }
                    Err(payload) => {
                        self.panicked.lock().unwrap().get_or_insert(payload);
                        self.abort.store(true, Ordering::SeqCst);
                        cur.abort_from(j);
                        break;
                    }
                }
            }
            if no_consumer {
                let done = u64::from(self.layout.band_y(cur.index).1);
                // Bands may finish slightly out of order: the bar only moves forward.
                let high = self.progress_rows.fetch_max(done, Ordering::Relaxed).max(done);
                progress.set_position(high);
            }
        }
        self.counters.add_times(&times);
        if let Some(all) = &self.timeline {
            let mut all = all.lock().unwrap();
            if let Some(tiles) = all.as_mut().filter(|t| t.len() + timeline.len() <= MAX_TILES) {
                tiles.append(&mut timeline);
            } else {
                *all = None;
            }
        }
    }
}

impl Shared<'_> {
    /// Lane sweeps: computes tile `j` of band `cur` in every lane, publishes their edges and
    /// shows them, with the states of the tiles above and to the left, to the visitor, whose
    /// state for this tile is then published too. False if the sweep stopped.
    #[allow(clippy::too_many_arguments)]
    fn lane_tile(
        &self,
        id: usize,
        v: &dyn LaneVisitor,
        j: usize,
        prev: Option<&Band>,
        cur: &Band,
        scratch: &mut Scratch,
        times: &mut WorkerTimes,
    ) -> bool {
        let n = self.lanes.len();
        let waited = &mut times.waiting_above;
        if let Some(p) = prev
            && ((0..n).any(|g| matches!(wait_timed(&p.tiles[j * n + g], waited), Tile::Aborted))
                || wait_timed(&p.states[j], waited).is_none())
        {
            cur.abort_from(j);
            return false;
        }
        let b = cur.index;
        let computed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<()> {
            let mut kept: Vec<Option<Tile>> = Vec::with_capacity(n);
            for (g, (layout, _)) in self.lanes.iter().enumerate() {
                let i = j * n + g;
                let nb = Neighbourhood {
                    layout,
                    j,
                    b,
                    above_left: if j > 0 { prev.map(|p| p.tiles[i - n].wait()) } else { None },
                    above: prev.map(|p| p.tiles[i].wait()),
                    left: if j > 0 { cur.tiles[i - n].get() } else { None },
                };
                let (tile, made) =
                    compute_tile(&nb, self.narrow, Arrangement::Rows, self.skip, &self.pools[id], scratch)?;
                self.counters.add(made);
                let (published, keep) = match tile {
                    Tile::Cells(cells) => (Tile::edges(&cells), Some(Tile::Cells(cells))),
                    other => (other, None),
                };
                let _ = cur.tiles[i].set(published);
                kept.push(keep);
            }
            let views: Vec<TileView<'_>> = self
                .lanes
                .iter()
                .enumerate()
                .map(|(g, (layout, window))| {
                    let tile =
                        kept[g].as_ref().unwrap_or_else(|| cur.tiles[j * n + g].get().expect("just set"));
                    TileView::new(layout.k, tile, &layout.rect(j, b), *window)
                        .expect("the lanes' windows cover every tile")
                })
                .collect();
            let t = Instant::now();
            let state = v.visit(
                id,
                &LaneTiles {
                    strip: j,
                    band: b,
                    strips: self.layout.strips(),
                    bands: self.layout.bands(),
                    views: &views,
                    above: prev.and_then(|p| p.states[j].get()).and_then(|s| s.as_deref()),
                    left: if j > 0 { cur.states[j - 1].get().and_then(|s| s.as_deref()) } else { None },
                },
            );
            times.visiting += t.elapsed();
            let _ = cur.states[j].set(Some(state));
            Ok(())
        }));
        match computed {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                self.fail(e);
                cur.abort_from(j);
                false
            }
            Err(payload) => {
                self.panicked.lock().unwrap().get_or_insert(payload);
                self.abort.store(true, Ordering::SeqCst);
                cur.abort_from(j);
                false
            }
        }
    }
}

/// [`wait_spinning`], adding the time it waited to `waited`.
fn wait_timed<'a, T>(cell: &'a OnceLock<T>, waited: &mut std::time::Duration) -> &'a T {
    if let Some(t) = cell.get() {
        return t;
    }
    let start = Instant::now();
    let t = wait_spinning(cell);
    *waited += start.elapsed();
    t
}

/// Waits for a tile (or a state) of the band above. The worker above is usually a fraction of
/// a tile ahead, so spin briefly before sleeping: a futex sleep and wake-up per tile would cost
/// more than the wait itself.
fn wait_spinning<T>(cell: &OnceLock<T>) -> &T {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if let Some(t) = cell.get() {
                return t;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() > std::time::Duration::from_micros(200) {
            return cell.wait();
        }
    }
}

/// Where the sweep's results go.
pub(crate) enum Output<'a> {
    /// The window's rows, in order, to a sink on the calling thread.
    Rows(&'a mut dyn RowSink<Error = Error>),
    /// Every finished tile that meets the window, to a visitor on the worker threads.
    Tiles(&'a dyn TileVisitor),
    /// Counter sweep (the window starts at the origin): every tile's palaces, to a visitor on
    /// the worker threads.
    Palaces(&'a dyn PalaceVisitor, Option<CounterKernel>),
    /// Several games swept together (the window is the first lane's, from the origin): every
    /// tile of all of them, aligned, to a visitor on the worker threads.
    Lanes(&'a dyn LaneVisitor, &'a [Lane]),
}

/// What the workers do with a finished tile.
#[derive(Clone, Copy)]
enum Workers<'a> {
    /// Publish it for the consumer.
    Published,
    /// Show its cells to a visitor, publish its edges.
    Tiles(&'a dyn TileVisitor),
    /// Counter sweep: publish its edges and counters, show its palaces to a visitor.
    Palaces(&'a dyn PalaceVisitor),
    /// Lane sweep: publish every lane's edges, show all lanes' tiles to a visitor.
    Lanes(&'a dyn LaneVisitor),
}

/// How a sweep starts and may stop early (visitor and counter sweeps only).
#[derive(Clone, Copy, Default)]
pub(crate) struct Resume<'a> {
    /// Continue a paused sweep from here (its tiling is used).
    pub start: Option<&'a Frontier>,
    /// Asked before each band is handed out but the first; true pauses the sweep.
    pub pause: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// Runs the sweep of `window` for game `k` and hands the results to `output`. Returns the
/// report and, if the sweep paused before its last band, its frontier.
pub(crate) fn run(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    narrow: Option<NarrowFn>,
    output: Output<'_>,
    progress: &dyn Progress,
    resume: Resume<'_>,
) -> Result<(SweepReport, Option<Frontier>)> {
    let started = Instant::now();
    let threads = opts.resolved_threads();
    let (counter, tally) = match &output {
        Output::Palaces(v, _) => (true, v.wants_counts()),
        _ => (false, false),
    };
    let mut layout = opts.layout(k, window, threads, counter, tally);
    assert!(
        !matches!(output, Output::Rows(_)) || (resume.start.is_none() && resume.pause.is_none()),
        "row sweeps do not pause"
    );
    if let Some(f) = resume.start {
        if let Some(why) = f.unfit(k, window.x1, window.y1) {
            return Err(Error::InvalidArgument {
                function: "Sweep::resume",
                argument: "start",
                value: why,
                expected: "the frontier of a paused sweep of this game, board and tiling",
            });
        }
        layout = Layout::new(k, window.x1, window.y1, f.tile_width, f.band_height);
    }
    // In visitor sweeps a finished band keeps only its tiles' edges and is freed as soon as
    // the workers are done with it: more bands in flight cost little.
    let max_bands = if matches!(output, Output::Rows(_)) { 2 * threads + 2 } else { 4 * threads + 4 };
    let (permit_tx, permit_rx) = sync_channel::<()>(max_bands);
    for _ in 0..max_bands {
        permit_tx.send(()).expect("fresh channel has room");
    }
    let (band_tx, band_rx) = channel::<Arc<Band>>();
    let arrangement = match (&output, opts.kernel.diagonal_lanes()) {
        (Output::Tiles(_), Some(lanes)) => Arrangement::Diagonal(lanes),
        _ => Arrangement::Rows,
    };
    let counter = match output {
        Output::Palaces(_, kernel) => kernel,
        _ => None,
    };
    let lanes: Vec<(Layout, Window)> = match output {
        Output::Lanes(_, lanes) => {
            let w0 = lanes[0].window;
            assert!(
                w0.x0 == 0 && w0.y0 == 0 && w0 == window,
                "the first lane is the window, from the origin"
            );
            lanes
                .iter()
                .map(|l| {
                    let w = l.window;
                    assert!(w.width() == w0.width() && w.height() == w0.height(), "lanes of one size");
                    let lay = Layout::new(l.k, w.x1, w.y1, layout.tile_width, layout.band_height)
                        .shifted(w.x0, w.y0);
                    (lay, w)
                })
                .collect()
        }
        _ => vec![(layout, window)],
    };
    // A resumed sweep starts below the frontier's band, rebuilt as the band above.
    let (first, above) = match resume.start {
        Some(f) => {
            permit_rx.recv().expect("a fresh pool has permits");
            (f.band as usize, Some(Arc::new(frontier_band(f, Permit(permit_tx.clone())))))
        }
        None => (0, None),
    };
    let visits_lanes = matches!(output, Output::Lanes(..));
    let shared = Shared {
        layout,
        lanes,
        visits_lanes,
        pause: resume.pause,
        first,
        narrow,
        counter,
        arrangement,
        skip: opts.skip,
        cancel: opts.cancel.clone(),
        pools: (0..threads).map(|_| Arc::default()).collect(),
        sched: Mutex::new(Scheduler {
            next: first,
            paused: false,
            last: above,
            to_consumer: matches!(output, Output::Rows(_)).then_some(band_tx),
            permits: permit_rx,
        }),
        permit_tx,
        abort: AtomicBool::new(false),
        error: Mutex::new(None),
        panicked: Mutex::new(None),
        counters: Counters::default(),
        progress_rows: AtomicU64::new(u64::from(layout.band_y(first).0.min(window.y1))),
        timeline: (opts.timeline && !visits_lanes).then(|| Mutex::new(Some(Vec::new()))),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("palace-sweep-{i}"))
        .build()
        .map_err(|source| Error::ThreadPool { threads, source })?;
    progress.set_length(u64::from(window.y1));
    progress.set_position(shared.progress_rows.load(Ordering::Relaxed));
    if first > 0 {
        progress.resumed();
    }

    // The visitor's serial time so far: the report gives what this run adds.
    let serial = match output {
        Output::Palaces(v, _) => Some((v, v.serial())),
        _ => None,
    };
    let consumed = match output {
        Output::Rows(sink) => std::thread::scope(|scope| {
            let shared = &shared;
            let workers = scope.spawn(move || {
                pool.broadcast(|ctx| shared.worker(ctx.index(), Workers::Published, window, progress))
            });
            let result = consume(shared, window, band_rx, sink, progress);
            if result.is_err() {
                shared.abort.store(true, Ordering::SeqCst);
            }
            workers.join().expect("sweep worker panicked");
            result
        }),
        Output::Tiles(visitor) => {
            drop(band_rx);
            pool.broadcast(|ctx| shared.worker(ctx.index(), Workers::Tiles(visitor), window, progress));
            Ok(())
        }
        Output::Palaces(visitor, _) => {
            drop(band_rx);
            pool.broadcast(|ctx| shared.worker(ctx.index(), Workers::Palaces(visitor), window, progress));
            Ok(())
        }
        Output::Lanes(visitor, _) => {
            drop(band_rx);
            pool.broadcast(|ctx| shared.worker(ctx.index(), Workers::Lanes(visitor), window, progress));
            Ok(())
        }
    };
    if let Some(payload) = shared.panicked.lock().unwrap().take() {
        std::panic::resume_unwind(payload);
    }
    if let Some(e) = shared.error.lock().unwrap().take() {
        return Err(e);
    }
    consumed?;
    let sched = shared.sched.into_inner().unwrap();
    // The rows of the bands this run handed out (all of them unless it paused or stopped).
    let rows = if sched.next > first {
        layout.band_y(sched.next - 1).1.min(window.y1) - layout.band_y(first).0
    } else {
        0
    };
    let mut report = SweepReport::new(&shared.counters, &layout, threads, window.x1, rows, started.elapsed());
    if let Some((v, before)) = serial {
        report.workers.serial = v.serial().saturating_sub(before);
    }
    if let Some(tiles) = shared.timeline.and_then(|t| t.into_inner().unwrap()) {
        report.timeline = Some(Arc::new(Timeline::new(tiles, layout.strips())));
    }
    // A paused run has handed out at least one band (the pause is not asked before the first).
    let frontier = match sched.last {
        Some(last) if sched.paused && sched.next < layout.bands() => Some(frontier_of(&layout, &last)),
        _ => None,
    };
    Ok((report, frontier))
}

/// The frontier below `band`, the last band a paused sweep finished.
fn frontier_of(layout: &Layout, band: &Band) -> Frontier {
    let k = layout.k;
    let strips = (0..layout.strips())
        .map(|j| {
            let rect = layout.rect(j, band.index);
            let tile = band.tiles[j].get().expect("a paused sweep finishes the bands it began");
            let mut bottom = Vec::new();
            for y in rect.y0.max(rect.y1.saturating_sub(2))..rect.y1 {
                let mut row = vec![0i8; rect.w()];
                tile.copy_row(k, &rect, y, rect.x0, rect.x1, &mut row);
                bottom.extend_from_slice(&row);
            }
            let (c, d_top) = match tile {
                Tile::Edges { leaving: Some(e), .. } => (e.c.clone(), e.d_top.clone()),
                _ => (Vec::new(), Vec::new()),
            };
            FrontierStrip { bottom, c, d_top }
        })
        .collect();
    Frontier {
        k,
        width: layout.width,
        height: layout.height,
        tile_width: layout.tile_width,
        band_height: layout.band_height,
        band: band.index as u32 + 1,
        strips,
    }
}

/// The band a frontier describes, as the band above the first one a resumed sweep computes:
/// each tile holds its last rows and, in counter sweeps, the counters leaving its bottom.
fn frontier_band(f: &Frontier, permit: Permit) -> Band {
    let index = f.band as usize - 1;
    let tiles = f
        .strips
        .iter()
        .map(|s| {
            let leaving = (!s.c.is_empty()).then(|| {
                Box::new(crate::kernel::counter::Edges {
                    r: Vec::new(),
                    d_left: Vec::new(),
                    c: s.c.clone(),
                    d_top: s.d_top.clone(),
                })
            });
            let tile = Tile::Edges { bottom: s.bottom.clone().into(), right: Box::new([]), leaving };
            let cell = OnceLock::new();
            let _ = cell.set(tile);
            cell
        })
        .collect();
    Band { index, tiles, states: Vec::new(), lanes: 1, _permit: permit }
}

/// The consumer of row sweeps: receives bands in order, waits for their tiles, assembles the
/// window's rows and feeds them to the sink. Dropping each band in turn is what frees band
/// slots, so memory stays bounded.
fn consume(
    shared: &Shared,
    window: Window,
    bands: Receiver<Arc<Band>>,
    sink: &mut dyn RowSink<Error = Error>,
    progress: &dyn Progress,
) -> Result<()> {
    let layout = &shared.layout;
    let k = layout.k;
    let first_strip = layout.strip_of(window.x0);
    let last_strip = layout.strip_of(window.x1 - 1);
    let mut row = vec![0i8; window.width() as usize];
    let zeros = vec![0i8; window.width() as usize];
    for band in bands {
        shared.cancel.check()?;
        let (y0, y1) = layout.band_y(band.index);
        // One worker sets a band's tiles left to right (or marks the rest aborted), so once the
        // last is set all are: wait on that one only, to spare a wake-up per tile.
        band.tiles[layout.strips() - 1].wait();
        let mut tiles: Vec<(&Tile, Rect)> = Vec::with_capacity(last_strip + 1 - first_strip);
        for j in 0..layout.strips() {
            let t = band.tiles[j].get().expect("tiles are set in order");
            if matches!(t, Tile::Aborted) {
                return Err(Error::Aborted);
            }
            if (first_strip..=last_strip).contains(&j) {
                tiles.push((t, layout.rect(j, band.index)));
            }
        }
        let ya = y0.max(window.y0);
        let yb = y1.min(window.y1);
        if ya < yb {
            let (ca, cb) = match sink.columns(ya, yb - ya) {
                Some((a, b)) => (a.clamp(window.x0, window.x1), b.clamp(window.x0, window.x1)),
                None => (window.x0, window.x1),
            };
            // Each tile's columns within `ca..cb`, left to right and contiguous.
            let spans: Vec<(&Tile, &Rect, u32, u32)> = tiles
                .iter()
                .map(|(tile, rect)| (*tile, rect, rect.x0.max(ca), rect.x1.min(cb)))
                .filter(|&(_, _, xa, xb)| xa < xb)
                .collect();
            if sink.takes_parts() {
                for y in ya..yb {
                    // Checked per row too: a sink may spend long on one (a wide .npy row, a
                    // zoomed picture).
                    shared.cancel.check()?;
                    // Each tile's range of `row` is its scratch, used where it cannot lend
                    // its own cells.
                    let mut rest = &mut row[..(cb.max(ca) - ca) as usize];
                    let mut parts: Vec<&[i8]> = Vec::with_capacity(spans.len());
                    for &(tile, rect, xa, xb) in &spans {
                        let (mine, tail) = std::mem::take(&mut rest).split_at_mut((xb - xa) as usize);
                        rest = tail;
                        parts.push(tile.row_ref(k, rect, y, xa..xb, &zeros, mine));
                    }
                    sink.row_parts(&RowParts { k, y, x0: ca, parts: &parts })?;
                }
                progress.set_position(u64::from(y1));
                continue;
            }
            for y in ya..yb {
                shared.cancel.check()?;
                let row = &mut row[..(cb.max(ca) - ca) as usize];
                for &(tile, rect, xa, xb) in &spans {
                    tile.copy_row(k, rect, y, xa, xb, &mut row[(xa - ca) as usize..(xb - ca) as usize]);
                }
                sink.row(&Row { k, y, x0: ca, cells: row })?;
            }
        }
        progress.set_position(u64::from(y1));
    }
    Ok(())
}
