//! The engine's one front door: the [`Sweep`] builder, configured, then run in one of its modes.

use super::control::{Cancel, Progress, Silent, Watch};
use super::layout::Lane;
use super::options::*;
use super::report::*;
use super::visit::*;
use crate::engine::sink::RowSink;
use crate::error::{Error, Result};
use crate::kernel::KernelChoice;
use crate::model::geometry::Window;

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
    start: Option<&'a super::checkpoint::Frontier>,
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
    pub fn resume(mut self, start: Option<&'a super::checkpoint::Frontier>) -> Self {
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
    pub(crate) fn check(
        &self,
        function: &'static str,
        resumes: bool,
        pauses: bool,
        lanes: bool,
    ) -> Result<()> {
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

    pub(crate) fn run(
        self,
        output: super::sweep::Output<'_>,
    ) -> Result<(SweepReport, Option<super::checkpoint::Frontier>)> {
        let resume = super::sweep::Resume { start: self.start, pause: self.pause };
        super::sweep::run(self.k, self.window, &self.opts, self.opts.narrow(), output, self.progress, resume)
    }

    /// Feeds the window's rows, top first, to `sink` on the calling thread. A sink's error
    /// stops the sweep and comes back as it was.
    pub fn rows<S: RowSink + ?Sized>(self, sink: &mut S) -> std::result::Result<SweepReport, S::Error> {
        self.check("Sweep::rows", false, false, false)?;
        let mut keeps = super::sink::Keeps { sink, failed: None };
        let r = self.run(super::sweep::Output::Rows(&mut keeps)).map(|r| r.0);
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
        self.run(super::sweep::Output::Tiles(visitor)).map(|r| r.0)
    }

    /// [`Sweep::tiles`] that pauses as [`Sweep::pause_when`] says: returns the frontier of the
    /// last band done when it paused (`None` when the sweep finished). The frontier of a visitor
    /// sweep holds the last band's bottom rows.
    pub fn tiles_pausable(
        self,
        visitor: &dyn TileVisitor,
    ) -> Result<(SweepReport, Option<super::checkpoint::Frontier>)> {
        self.check("Sweep::tiles_pausable", true, true, false)?;
        self.run(super::sweep::Output::Tiles(visitor))
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
        self.run(super::sweep::Output::Lanes(visitor, lanes)).map(|r| r.0)
    }

    /// Sweeps the board `[0, x1) x [0, y1)` (the window must start at the origin) in the
    /// three-counter form ([`crate::kernel::counter`]) and shows every tile's palace count to
    /// `visitor`, on the worker threads, in no particular order. Only palaces come out, no
    /// values: this is the fast path for analyses that need nothing else. The kernel choice
    /// picks the counter kernel (`Wide`: none, every tile by the CA's exact paths).
    pub fn palaces(self, visitor: &dyn PalaceVisitor) -> Result<SweepReport> {
        self.check_board("Sweep::palaces")?;
        self.check("Sweep::palaces", true, false, false)?;
        let output = super::sweep::Output::Palaces(visitor, self.opts.kernel.counter());
        self.run(output).map(|r| r.0)
    }

    /// [`Sweep::palaces`] that pauses as [`Sweep::pause_when`] says and returns the frontier
    /// below the last band done (`None` when the sweep finished). The visitor sees each tile
    /// once over the whole chain of runs, so an analysis whose state is saved with the frontier
    /// ([`checkpoint::Checkpoint`](crate::engine::checkpoint::Checkpoint)) ends with the same result as an uninterrupted sweep. The
    /// token of [`Sweep::cancel`] stops it as it stops any sweep, within the bands in flight and
    /// without a frontier; to save a frontier on a signal, read the signal in the pause test and
    /// give the sweep a token of its own.
    pub fn palaces_pausable(
        self,
        visitor: &dyn PalaceVisitor,
    ) -> Result<(SweepReport, Option<super::checkpoint::Frontier>)> {
        self.check_board("Sweep::palaces_pausable")?;
        self.check("Sweep::palaces_pausable", true, true, false)?;
        let output = super::sweep::Output::Palaces(visitor, self.opts.kernel.counter());
        self.run(output)
    }

    /// [`Sweep::palaces`] computed as the column strips of `strips` (see [`strips`](crate::engine::strips)): each
    /// strip on a thread of its own, sweeping its columns band by band and handing the edge of
    /// each band to the strip on its right over a channel, as the processes of a distributed
    /// sweep would. The visitor sees the strips' tiles, strip `p`'s as worker `p`; the palaces,
    /// the counters leaving the board and the values it asks for are those of
    /// [`Sweep::palaces`]. The options' threads play no part (one per strip); `strips` must
    /// span the window's width.
    pub fn palaces_in_strips(
        self,
        strips: &super::strips::StripPartition,
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
        super::strips::palaces(self.k, self.window.y1, strips, &self.opts, visitor, self.progress)
    }

    /// A counter sweep covers a board: its window starts at the origin.
    pub(crate) fn check_board(&self, function: &'static str) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sink::Collect;
    use crate::model::reference::direct_values;
    use std::time::Duration;

    /// Bad arguments to the public entry points come back as typed errors, not panics.
    #[test]
    pub(crate) fn bad_requests_are_typed_errors() {
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
        let e = crate::engine::lockstep::lockstep(&[], &opts, &Silent, |_| Ok::<(), Error>(())).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument { argument: "lanes", .. }), "{e}");
        let lanes = [
            crate::engine::lockstep::Lane { k: 5, window: Window::new(0, 0, 4, 4).unwrap() },
            crate::engine::lockstep::Lane { k: 6, window: Window::new(0, 0, 5, 4).unwrap() },
        ];
        let e =
            crate::engine::lockstep::lockstep(&lanes, &opts, &Silent, |_| Ok::<(), Error>(())).unwrap_err();
        assert!(e.to_string().contains("one size"), "{e}");
    }

    pub(crate) fn run(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
        let mut c = Collect::default();
        Sweep::new(k, w).options(opts).rows(&mut c).unwrap();
        assert_eq!(c.ys, (w.y0..w.y1).collect::<Vec<_>>(), "rows in order");
        c.values
    }

    pub(crate) fn window_of(full: &[i32], width: usize, w: Window) -> Vec<i64> {
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
    pub(crate) fn a_worker_panic_is_raised_not_hung() {
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
    pub(crate) fn cancelling_one_sweep_leaves_others_alone() {
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
    pub(crate) fn small_tiles_match_direct_definition() {
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
    pub(crate) fn a_timeline_has_every_tile_when_asked() {
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
