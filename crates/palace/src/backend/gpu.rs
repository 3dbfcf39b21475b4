//! The GPU backend (cargo feature `gpu`): statistics and palace counts of a board computed in
//! compute shaders by the `palace-gpu` crate, turned into the same [`Stats`] and
//! [`PalaceCount`] as the CPU engine gives.
//!
//! The GPU computes every cell of the region `[0, x1) x [0, y1)` in the three-counter form
//! with exact 32-bit counts and tallies the window's cells outside the hood; the hood's cells
//! are added by the closed form, as the CPU engine does (`docs/rule.md`, "The hood"). The tests
//! (`tests/integration/gpu.rs`) compare both backends bit for bit.
//!
//! ```no_run
//! use palace::engine::{Cancel, Silent};
//! use palace::backend::gpu::{self, Gpu, Shape};
//! use palace::Window;
//!
//! let gpu = Gpu::open().map_err(palace::Error::Gpu)?;
//! let (stats, run) = gpu::stats(&gpu, 500, Window::new(0, 0, 1500, 1500)?, Shape::default(), &Silent, &Cancel::new())?;
//! println!("{stats}on {} in {:?}", run.adapter, run.elapsed);
//! # Ok::<(), palace::Error>(())
//! ```

pub use super::report::GpuRun;
use crate::analysis::positions::{self, PositionsReport};
use crate::analysis::skin::{self, Column, SkinReport};
use crate::analysis::stats::{Extreme, PalaceCount, Stats, StatsAcc};
use crate::analysis::survey::{self, BoardSweeps, SurveyOptions, SurveyRow};
use crate::engine::checkpoint::{Reader, Writer};
use crate::engine::{Cancel, Progress};
use crate::engine::{EngineOptions, Silent};
use crate::error::Result;
use crate::labels::BLOCK;
use crate::model::geometry::Window;
use crate::model::rule::hood_len;
use crate::resume::Resumable;
pub use palace_gpu::{Adapter, Gpu, GpuError, Shape};
use std::time::{Duration, Instant};

/// A run on `gpu` with tiles of `shape`, nothing computed yet.
fn new_run(gpu: &Gpu, shape: Shape) -> GpuRun {
    GpuRun {
        adapter: gpu.adapter().to_string(),
        shape: shape.to_string(),
        computed: 0,
        region: 0,
        sent_back: 0,
        elapsed: Duration::ZERO,
    }
}

/// Statistics of `window` of game `k`, computed on `gpu` with tiles of `shape`: the same
/// [`Stats`] as [`crate::analysis::stats::stats`] gives. `progress` counts tiles; `cancel` is
/// looked at between dispatches.
pub fn stats(
    gpu: &Gpu,
    k: u32,
    window: Window,
    shape: Shape,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(Stats, GpuRun)> {
    let (stats, run, _) = tally(gpu, k, window, shape, progress, cancel)?;
    Ok((stats, run))
}

/// Runs `f` with a watch that counts on `progress` and stops the run when `cancel` is
/// cancelled.
fn watched<T>(progress: &dyn Progress, cancel: &Cancel, f: impl FnOnce(&palace_gpu::Watch<'_>) -> T) -> T {
    f(&palace_gpu::Watch::new(cancel, progress))
}

/// Tiles `(i, j)`: tile column, tile row.
type Tiles = Vec<(u32, u32)>;

/// [`stats`], and the tiles of `shape` whose window cells outside the hood hold the largest
/// value.
fn tally(
    gpu: &Gpu,
    k: u32,
    window: Window,
    shape: Shape,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(Stats, GpuRun, Tiles)> {
    let job = palace_gpu::Job {
        k,
        window: [window.x0(), window.y0(), window.x1(), window.y1()],
        limit: 128,
        shape,
        skip: true,
        subgroups: true,
    };
    let start = Instant::now();
    let tally = watched(progress, cancel, |watch| gpu.tally(&job, watch))?;
    let run = GpuRun {
        adapter: gpu.adapter().to_string(),
        shape: shape.to_string(),
        computed: tally.computed,
        region: tally.region,
        sent_back: 0,
        elapsed: start.elapsed(),
    };
    let extreme = |c: Option<palace_gpu::Cell>| {
        c.map(|c| Extreme { v: i64::from(c.v), x: u64::from(c.x), y: u64::from(c.y) })
    };
    let mut acc = StatsAcc::new(k);
    acc.add_hood_of(window);
    acc.add_counts_with_extremes(&tally.counts, extreme(tally.min), extreme(tally.max));
    Ok((acc.finish(window), run, tally.max_tiles))
}

/// The survey (as [`crate::analysis::survey::survey`]) with its sweeps on `gpu`, tiles of
/// `shape` (rows per lane a multiple of 4): the same rows. Per board the GPU tallies the
/// board, sends back the tiles along the diagonal and those holding the largest value, does
/// the same for the diagonal of game k + 3, and follows the skin ([`skin()`]); the region
/// labels around the hottest cell are computed on the CPU with `opts`, `threads` sharing the
/// boards as on the CPU.
pub fn survey(
    gpu: &Gpu,
    shape: Shape,
    so: &SurveyOptions,
    threads: usize,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Vec<SurveyRow>> {
    survey::survey_on(so, threads, opts, progress, &GpuSweeps { gpu, shape })
}

/// The survey's sweeps on a GPU.
struct GpuSweeps<'a> {
    gpu: &'a Gpu,
    shape: Shape,
}

impl BoardSweeps for GpuSweeps<'_> {
    fn board(&self, k: u32, n: u32, opts: &EngineOptions) -> Result<survey::Board> {
        let window = Window::new(0, 0, n, n)?;
        let (stats, _, max_tiles) = tally(self.gpu, k, window, self.shape, &Silent, &opts.cancel)?;
        let top = stats.rest.max.filter(|m| m.v >= i64::from(survey::HOT_FLOOR)).map(|m| m.v as i8);
        let mut wanted = band_tiles(self.shape, 0, n);
        if top.is_some() {
            wanted.extend(&max_tiles);
        }
        let cells = TileCells::sweep(self.gpu, k, n, self.shape, &wanted, &opts.cancel)?;
        let hottest = match top {
            None => (i8::MIN, Vec::new()),
            Some(top) => {
                let (w, h) = (self.shape.width, self.shape.height());
                let mut hot = Vec::new();
                for &(i, j) in &max_tiles {
                    for y in j * h..((j + 1) * h).min(n) {
                        let x0 = (i * w).max(hood_len(k, u64::from(y)).min(u64::from(n)) as u32);
                        for x in x0..((i + 1) * w).min(n) {
                            if cells.at(x, y)? == top {
                                hot.push((x, y));
                            }
                        }
                    }
                }
                hot.sort_by_key(|&(x, y)| (y, x));
                (top, hot)
            }
        };
        Ok(survey::Board { stats, hottest, band: cells.band(0, n)? })
    }

    fn band_k3(&self, k: u32, m: u32, opts: &EngineOptions) -> Result<Vec<i8>> {
        let cells = TileCells::sweep(
            self.gpu,
            k + 3,
            m + 1,
            self.shape,
            &band_tiles(self.shape, 1, m),
            &opts.cancel,
        )?;
        cells.band(1, m)
    }

    fn skin(&self, k: u32, to: u64, opts: &EngineOptions) -> Result<SkinReport> {
        Ok(skin(self.gpu, k, to, false, SkinTiles::default(), &Silent, &opts.cancel)?.0)
    }
}

/// The cells of the 8 x 8 blocks along the diagonal of a board shifted by `(off, off)`, `m`
/// cells along, as the survey's CPU sweep lays them out: `(entry, x, y)`, where entry
/// `d * BLOCK + j` is the cell `(BLOCK (d / BLOCK) + j + off, d + off)` (see
/// [`TileCells::band`]).
fn band_cells(off: u32, m: u32) -> impl Iterator<Item = (usize, u32, u32)> {
    let b = BLOCK as u32;
    (0..m).flat_map(move |d| {
        let b0 = d / b * b;
        (0..(b0 + b).min(m) - b0).map(move |j| (d as usize * BLOCK + j as usize, b0 + j + off, d + off))
    })
}

/// The tiles of `shape` holding [`band_cells`].
fn band_tiles(shape: Shape, off: u32, m: u32) -> Vec<(u32, u32)> {
    let (w, h) = (shape.width, shape.height());
    let tiles: std::collections::BTreeSet<_> = band_cells(off, m).map(|(_, x, y)| (x / w, y / h)).collect();
    tiles.into_iter().collect()
}

/// Tiles a GPU sent back ([`Gpu::tiles`]), by tile column and row: their cells, or `None`
/// when quiet.
struct TileCells {
    shape: Shape,
    tiles: std::collections::HashMap<(u32, u32), Option<Vec<i8>>>,
}

impl TileCells {
    /// Sweeps the `side x side` board of game `k` on `gpu` and keeps the tiles `wanted`.
    fn sweep(
        gpu: &Gpu,
        k: u32,
        side: u32,
        shape: Shape,
        wanted: &[(u32, u32)],
        cancel: &Cancel,
    ) -> Result<Self> {
        let job = palace_gpu::TilesJob { k, width: side, height: side, shape, subgroups: true };
        let (kept, _) = watched(&Silent, cancel, |watch| gpu.tiles(&job, wanted, watch))?;
        Ok(TileCells { shape, tiles: kept.into_iter().map(|t| ((t.i, t.j), t.cells)).collect() })
    }

    /// The value of cell `(x, y)`: hood cells hold `max(v, -128)`.
    fn at(&self, x: u32, y: u32) -> Result<i8> {
        let (w, h) = (self.shape.width, self.shape.height());
        match self.tiles.get(&(x / w, y / h)) {
            Some(Some(c)) => Ok(c[self.shape.cell_index(u64::from(x), y)]),
            Some(None) => Ok(0),
            None => {
                Err(crate::Error::Analysis(format!("the GPU did not send back the tile of cell ({x}, {y})")))
            }
        }
    }

    /// The values of [`band_cells`], by entry (0 beyond `m`): the band the survey's CPU sweep
    /// gathers.
    fn band(&self, off: u32, m: u32) -> Result<Vec<i8>> {
        let mut out = vec![0; m as usize * BLOCK];
        for (entry, x, y) in band_cells(off, m) {
            out[entry] = self.at(x, y)?;
        }
        Ok(out)
    }
}

/// The palace count of the `width x height` board of game `k` from its corner, on `gpu`: the
/// same [`PalaceCount`] as the CPU's counter sweep gives.
pub fn palace_count(
    gpu: &Gpu,
    k: u32,
    width: u32,
    height: u32,
    shape: Shape,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(PalaceCount, GpuRun)> {
    let (s, run) = stats(gpu, k, Window::new(0, 0, width, height)?, shape, progress, cancel)?;
    Ok((PalaceCount { k, width, height, cells: s.total.cells, palaces: s.total.palaces }, run))
}

/// The P-positions of rows `0..rows` of game `k` on columns `0..width` (default
/// [`crate::analysis::positions::default_width`]), found by the tiled sweep on `gpu` with
/// tiles of `shape`: `emit(x, y)` receives each in order of `y`, then `x`, and the report is
/// the one [`crate::analysis::positions::positions`] gives with [`Method::Sweep`]. The GPU
/// sends back only the palaces; the host holds those of the rows not yet complete (a row of
/// tiles is complete once the sweep has passed its last tile). `progress` counts
/// tile-diagonals; `cancel` is looked at between submissions.
///
/// [`Method::Sweep`]: crate::analysis::positions::Method::Sweep
#[allow(clippy::too_many_arguments)]
pub fn positions(
    gpu: &Gpu,
    k: u32,
    rows: u32,
    width: Option<u32>,
    shape: Shape,
    emit: &mut dyn FnMut(u32, u32) -> Result<()>,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(PositionsReport, GpuRun)> {
    let start = Instant::now();
    let mut run = new_run(gpu, shape);
    let report = positions::positions_by_batches(k, rows, width, emit, &mut |width, take| {
        let job = palace_gpu::PalacesJob { k, width, height: rows, shape, skip: true, subgroups: true };
        let mut failed = None;
        let sweep = watched(progress, cancel, |watch| {
            gpu.palaces(&job, watch, |b| match take(b.palaces, b.rows_done) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            })
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        run.computed = sweep.computed;
        run.region = sweep.region;
        run.sent_back = sweep.palaces * 8;
        // Every cell of the board is determined: computed, or in a tile of outer space.
        Ok(u64::from(width) * u64::from(rows))
    })?;
    run.elapsed = start.elapsed();
    Ok((report, run))
}

/// Columns left of the arm's boundary whose tiles the GPU sends back for the skin: the skin
/// reads its open vertical and diagonal runs and its horizontal run there, about f(2n+2)
/// columns at level n (144 at level 5, 377 at level 7). A skin that reads further stops with
/// [`crate::Error::Analysis`] naming this reach, never with a short measurement.
pub const SKIN_REACH: u32 = 512;

/// The default tile shape of the skin on a GPU: short tiles keep fewer columns per row near
/// the boundary (a kept tile looks one row of tiles up, and the boundary moves about 2.6
/// columns a row).
pub const SKIN_SHAPE: Shape = Shape { lanes: 32, rows: 4, width: 256 };

/// How the skin's board is cut on the GPU, and how far left of the boundary tiles come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinTiles {
    /// The tile shape (rows per lane a multiple of 4).
    pub shape: Shape,
    /// Columns left of the arm's boundary sent back, at least ([`SKIN_REACH`]).
    pub reach: u32,
}

impl Default for SkinTiles {
    fn default() -> Self {
        SkinTiles { shape: SKIN_SHAPE, reach: SKIN_REACH }
    }
}

/// A row of tiles as the GPU sent them back: tile columns `i0..`, each its cells (column by
/// column), known quiet, or not sent.
#[derive(Default)]
struct TileRow {
    i0: u32,
    tiles: Vec<Sent>,
}

#[derive(Clone)]
enum Sent {
    Missing,
    Quiet,
    Cells(Box<[i8]>),
}

/// What the host knows of the board: the rows of tiles sent back, and per tile-diagonal the
/// tile column from which every tile is quiet.
struct Known {
    shape: Shape,
    rows: std::collections::BTreeMap<u32, TileRow>,
    open: Vec<u32>,
    /// Tile-diagonals computed.
    done: u32,
    /// A cell the skin read that the GPU did not send back.
    missing: std::cell::Cell<Option<(u64, u32)>>,
}

impl Known {
    fn new(shape: Shape) -> Self {
        Known {
            shape,
            rows: Default::default(),
            open: Vec::new(),
            done: 0,
            missing: std::cell::Cell::new(None),
        }
    }

    fn add(&mut self, batch: palace_gpu::SkinBatch) {
        debug_assert_eq!(batch.first as usize, self.open.len());
        self.open.extend(batch.open);
        self.done = batch.done;
        for t in batch.kept {
            let row = self.rows.entry(t.j).or_insert_with(|| TileRow { i0: t.i, tiles: Vec::new() });
            if t.i < row.i0 {
                let more = (row.i0 - t.i) as usize;
                row.tiles.splice(0..0, std::iter::repeat_n(Sent::Missing, more));
                row.i0 = t.i;
            }
            let at = (t.i - row.i0) as usize;
            if row.tiles.len() <= at {
                row.tiles.resize(at + 1, Sent::Missing);
            }
            row.tiles[at] = match t.cells {
                Some(c) => Sent::Cells(c.into_boxed_slice()),
                None => Sent::Quiet,
            };
        }
    }

    /// Whether row `y` can be read with its boundary at `boundary`: every tile it may read
    /// (up to 64 columns past the boundary; the boundary advances 2 or 3 a row) is computed.
    fn ready(&self, y: u32, boundary: u64, diagonals: u32) -> bool {
        let j = y / self.shape.height();
        let i = ((boundary + 64) / u64::from(self.shape.width)) as u32;
        self.done == diagonals || i + j < self.done
    }

    /// The value of cell `(x, y)` of tile row `row` (`self.rows[y / height]`): sent back, or 0
    /// in a tile known quiet; `None` (and the cell noted) where the GPU did not send it.
    fn at(&self, row: Option<&TileRow>, x: u64, y: u32) -> Option<i8> {
        let (w, h) = (self.shape.width, self.shape.height());
        let (i, j) = ((x / u64::from(w)) as u32, y / h);
        let d = (i + j) as usize;
        let sent = row.and_then(|r| i.checked_sub(r.i0).and_then(|a| r.tiles.get(a as usize)));
        match sent {
            Some(Sent::Cells(c)) => Some(c[self.shape.cell_index(x, y)]),
            Some(Sent::Quiet) => Some(0),
            _ if d < self.open.len() && i >= self.open[d] => Some(0),
            _ => {
                if self.missing.get().is_none() {
                    self.missing.set(Some((x, y)));
                }
                None
            }
        }
    }
}

/// The skin of game `k` up to column `to` (as [`crate::analysis::skin::follow`]), its cells
/// computed on `gpu` with `tiles` ([`SkinTiles::default`] unless tuning): the same report and
/// columns as the CPU's counter sweep. The GPU sweeps the whole board and sends back only the
/// tiles near the arm's boundary; a thread on the host reads them row by row into the skin's
/// state while the GPU goes on. `progress` counts the cells below outer space the skin has
/// read; `cancel` is looked at between submissions. [`GpuSkin`] runs it in segments that can
/// be saved and resumed.
pub fn skin(
    gpu: &Gpu,
    k: u32,
    to: u64,
    patterns: bool,
    tiles: SkinTiles,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(SkinReport, Vec<Column>, GpuRun)> {
    let mut run = GpuSkin::new(gpu, k, to, patterns, tiles, progress, cancel)?;
    run.segment(&|| false)?;
    run.finish()
}

/// The skin on a GPU, run in segments ([`Resumable`], driven by [`crate::resume::drive`]):
/// each ends when the skin is complete or, between two submissions, when asked to pause; a
/// paused run's state (the device's counters and flags, the tiles read back but not yet read,
/// and the skin's state) can be saved and continued by another process to the same report
/// and columns.
pub struct GpuSkin<'a> {
    gpu: &'a Gpu,
    job: palace_gpu::SkinJob,
    to: u64,
    patterns: bool,
    progress: &'a dyn Progress,
    cancel: &'a Cancel,
    estimate: std::sync::atomic::AtomicU64,
    state: skin::SkinState,
    known: Known,
    frontier: Option<palace_gpu::SkinFrontier>,
    run: GpuRun,
}

impl<'a> GpuSkin<'a> {
    /// A run of the skin of game `k` to column `to` (see [`skin()`]).
    pub fn new(
        gpu: &'a Gpu,
        k: u32,
        to: u64,
        patterns: bool,
        tiles: SkinTiles,
        progress: &'a dyn Progress,
        cancel: &'a Cancel,
    ) -> Result<Self> {
        skin::check_to(k, to)?;
        let SkinTiles { shape, reach } = tiles;
        let job = palace_gpu::SkinJob {
            k,
            width: to as u32,
            height: skin::rows_for(k, to),
            shape,
            reach,
            subgroups: true,
        };
        let estimate = skin::estimate(k, to);
        progress.set_length(estimate);
        let mut state = skin::SkinState::new(k, to);
        if patterns {
            state = state.with_patterns();
        }
        let run = new_run(gpu, shape);
        Ok(GpuSkin {
            gpu,
            job,
            to,
            patterns,
            progress,
            cancel,
            estimate: estimate.into(),
            state,
            known: Known::new(shape),
            frontier: None,
            run,
        })
    }

    /// Names the run in its checkpoints.
    pub fn tag(&self) -> String {
        let p = if self.patterns { " patterns" } else { "" };
        format!(
            "skin k={} to={}{p} gpu tiles {} reach {}",
            self.job.k, self.to, self.job.shape, self.job.reach
        )
    }

    /// Rows the skin has read.
    pub fn rows(&self) -> u32 {
        self.state.rows()
    }

    /// Rows the sweep covers at most.
    pub fn height(&self) -> u32 {
        self.job.height
    }

    /// Sweeps until the skin is complete (`true`) or, at the end of a submission, `pause` says
    /// stop (`false`: the run can be saved, or continued by another segment).
    pub fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool> {
        use crate::error::Error;
        use std::sync::atomic::{AtomicBool, Ordering};
        let (k, to, job) = (self.job.k, self.to, self.job);
        let diagonals = job.diagonals();
        let state = std::mem::replace(&mut self.state, skin::SkinState::new(k, to));
        let known = std::mem::replace(&mut self.known, Known::new(job.shape));
        let (progress, cancel, estimate) = (self.progress, self.cancel, &self.estimate);
        let stop = AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::sync_channel::<palace_gpu::SkinBatch>(8);
        let started = Instant::now();
        let (swept, (state, known, read)) = std::thread::scope(|scope| {
            let stop = &stop;
            let reader = scope.spawn(move || {
                let (mut state, mut known) = (state, known);
                let read = read_rows(&mut state, &mut known, rx, job, diagonals, progress, estimate, cancel);
                stop.store(true, Ordering::Relaxed);
                (state, known, read)
            });
            // The reader shows the progress: the sweep's watch only looks for a cancel.
            let swept = watched(&Silent, cancel, |watch| {
                self.gpu.skin_sweep(&job, self.frontier.as_ref(), watch, |batch| {
                    if stop.load(Ordering::Relaxed) || tx.send(batch).is_err() {
                        palace_gpu::Flow::Stop
                    } else if pause() {
                        palace_gpu::Flow::Pause
                    } else {
                        palace_gpu::Flow::Go
                    }
                })
            });
            drop(tx);
            (swept, reader.join().expect("the skin's reader panicked"))
        });
        self.state = state;
        self.known = known;
        read?;
        let (swept, frontier) = swept?;
        self.run.computed += swept.computed;
        self.run.region += swept.swept;
        self.run.sent_back += swept.bytes_back;
        self.run.elapsed += started.elapsed();
        if self.state.complete() {
            self.frontier = None;
            return Ok(true);
        }
        match frontier {
            Some(f) => {
                self.frontier = Some(f);
                Ok(false)
            }
            None => Err(Error::SkinUnfinished { to, rows: job.height }),
        }
    }

    /// The report and columns of the complete skin, and how the GPU runs went (summed over
    /// this process's segments).
    pub fn finish(self) -> Result<(SkinReport, Vec<Column>, GpuRun)> {
        if !self.state.complete() {
            return Err(crate::error::Error::Analysis(
                "skin: the sweep ended before the skin was complete".into(),
            ));
        }
        Ok((skin::analyse(&self.state), self.state.columns_measured().to_vec(), self.run))
    }

    /// Writes the paused run: where the sweep stands on the device, the tiles read back and
    /// not yet read, and the skin's state.
    fn write_state(&self, w: &mut Writer) {
        let f = self.frontier.clone().unwrap_or_default();
        w.u32(f.diagonals);
        for v in [&f.rows, &f.cols, &f.diags, &f.quiet, &f.open] {
            w.u32s(v);
        }
        self.state.encode(w);
        w.u64(self.known.rows.len() as u64);
        for (&j, row) in &self.known.rows {
            w.u32s(&[j, row.i0, row.tiles.len() as u32]);
            for t in &row.tiles {
                match t {
                    Sent::Missing => w.u8(0),
                    Sent::Quiet => w.u8(1),
                    Sent::Cells(c) => {
                        w.u8(2);
                        c.iter().for_each(|&v| w.u8(v as u8));
                    }
                }
            }
        }
    }

    /// Continues from what [`GpuSkin::write_state`] wrote for a paused run of the same game,
    /// column, patterns and tiles; says why not if it is not one.
    fn read_state(&mut self, r: &mut Reader<'_>) -> std::result::Result<(), String> {
        let bad = || "it is truncated or malformed".to_string();
        let mut f = palace_gpu::SkinFrontier { diagonals: r.u32().ok_or_else(bad)?, ..Default::default() };
        for v in [&mut f.rows, &mut f.cols, &mut f.diags, &mut f.quiet, &mut f.open] {
            *v = r.u32s().ok_or_else(bad)?;
        }
        if f.diagonals == 0 || !self.job.fits(&f) {
            return Err("its board, tiles or tile-diagonal are not this run's".into());
        }
        let (tw, th) = (self.job.shape.width, self.job.shape.height());
        let state = skin::SkinState::decode_with(self.job.k, self.to, self.patterns, r)
            .ok_or_else(|| "its skin's state is not one of this run".to_string())?;
        if let Some(why) = state.impossible() {
            return Err(why);
        }
        let mut known = Known::new(self.job.shape);
        let rows = r.u64().ok_or_else(bad)?;
        for _ in 0..rows {
            let head = r.u32s().ok_or_else(bad)?;
            let &[j, i0, n] = &head[..] else { return Err(bad()) };
            let mut tiles = Vec::with_capacity(n.min(1 << 20) as usize);
            for _ in 0..n {
                tiles.push(match r.u8().ok_or_else(bad)? {
                    0 => Sent::Missing,
                    1 => Sent::Quiet,
                    2 => Sent::Cells(
                        r.take((tw * th) as usize).ok_or_else(bad)?.iter().map(|&b| b as i8).collect(),
                    ),
                    _ => return Err(bad()),
                });
            }
            known.rows.insert(j, TileRow { i0, tiles });
        }
        known.open = f.open.clone();
        known.done = f.diagonals;
        self.progress.resumed();
        skin::show(self.progress, &self.estimate, self.job.k, &state);
        self.state = state;
        self.known = known;
        self.frontier = Some(f);
        Ok(())
    }
}

impl Resumable for GpuSkin<'_> {
    type Output = (SkinReport, Vec<Column>, GpuRun);

    fn tag(&self) -> String {
        GpuSkin::tag(self)
    }

    fn rows(&self) -> (u32, u32) {
        (self.state.rows(), self.job.height)
    }

    fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool> {
        GpuSkin::segment(self, pause)
    }

    fn encode(&self, w: &mut Writer) {
        self.write_state(w)
    }

    fn restore(&mut self, r: &mut Reader<'_>) -> std::result::Result<(), String> {
        self.read_state(r)
    }

    fn finish(self) -> Result<Self::Output> {
        GpuSkin::finish(self)
    }
}

/// Reads the batches from `rx` into `state`, row by row, as far as the tiles computed allow;
/// stops at the skin's end, on a cancel, or when the sweep sends no more.
#[allow(clippy::too_many_arguments)]
fn read_rows(
    state: &mut skin::SkinState,
    known: &mut Known,
    rx: std::sync::mpsc::Receiver<palace_gpu::SkinBatch>,
    job: palace_gpu::SkinJob,
    diagonals: u32,
    progress: &dyn Progress,
    estimate: &std::sync::atomic::AtomicU64,
    cancel: &Cancel,
) -> Result<()> {
    use crate::error::Error;
    let h = job.shape.height();
    for batch in rx.iter() {
        known.add(batch);
        while !state.complete() && known.ready(state.rows(), state.boundary(), diagonals) {
            let y = state.rows();
            if y >= job.height {
                break;
            }
            // A batch may hold many rows: the reader stops within a fraction of a second of a
            // cancel, as the sweep does.
            if y.is_multiple_of(4096) && cancel.is_cancelled() {
                return Err(Error::INTERRUPTED);
            }
            let row = known.rows.get(&(y / h));
            let read = state.row(y, |x| known.at(row, x, y));
            if let Some((x, y)) = known.missing.get() {
                return Err(Error::Analysis(format!(
                    "skin on the GPU: the skin read cell ({x}, {y}), which the GPU did not send back (it sends the tiles within {} columns left of the arm's boundary); use --backend cpu",
                    job.reach
                )));
            }
            read?;
            let j = state.rows() / h;
            while known.rows.first_key_value().is_some_and(|(&r, _)| r < j) {
                known.rows.pop_first();
            }
        }
        skin::show(progress, estimate, job.k, state);
        if state.complete() {
            break;
        }
    }
    Ok(())
}
