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
//! use palace::gpu::{self, Gpu, Shape};
//! use palace::Window;
//!
//! let gpu = Gpu::open().map_err(palace::Error::Gpu)?;
//! let (stats, run) = gpu::stats(&gpu, 500, Window::new(0, 0, 1500, 1500), Shape::default(), &Silent, &Cancel::new())?;
//! println!("{stats}on {} in {:?}", run.adapter, run.elapsed);
//! # Ok::<(), palace::Error>(())
//! ```

use crate::analysis::skin::{self, Column, SkinReport};
use crate::analysis::stats::{Extreme, PalaceCount, Stats, StatsAcc};
use crate::engine::{Cancel, Progress};
use crate::error::Result;
use crate::model::geometry::Window;
pub use palace_gpu::{Adapter, Gpu, GpuError, Shape};
use std::time::{Duration, Instant};

/// How a GPU run went.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GpuRun {
    /// The adapter, in words.
    pub adapter: String,
    /// The tile shape, `lanes x rows x width`.
    pub shape: String,
    /// Cells computed: the region, rounded up to whole tiles, less the tiles of outer space
    /// skipped.
    pub computed: u64,
    /// Cells of the region, rounded up to whole tiles (for the skin, of the tile-diagonals
    /// swept before the skin was complete).
    pub region: u64,
    /// Bytes read back from the GPU for the analysis (the skin's tiles near the boundary).
    pub sent_back: u64,
    /// Wall time of the sweep.
    pub elapsed: Duration,
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
    let job = palace_gpu::Job {
        k,
        window: [window.x0, window.y0, window.x1, window.y1],
        limit: 128,
        shape,
        skip: true,
        subgroups: true,
    };
    let start = Instant::now();
    let set_length = |n: u64| progress.set_length(n);
    let set_position = |n: u64| progress.set_position(n);
    let cancelled = || cancel.is_cancelled();
    let watch = palace_gpu::Watch {
        start: Some(&set_length),
        done: Some(&set_position),
        cancelled: Some(&cancelled),
    };
    let tally = gpu.tally(&job, &watch)?;
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
    Ok((acc.finish(window), run))
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
    let (s, run) = stats(gpu, k, Window::new(0, 0, width, height), shape, progress, cancel)?;
    Ok((PalaceCount { k, width, height, cells: s.total.cells, palaces: s.total.palaces }, run))
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
            Some(Sent::Cells(c)) => Some(c[((x % u64::from(w)) * u64::from(h)) as usize + (y % h) as usize]),
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
/// columns as the CPU's counter sweep. The GPU sweeps the whole
/// board and sends back only the tiles near the arm's boundary; a thread on the host reads
/// them row by row into the skin's state while the GPU goes on. `progress` counts the cells
/// below outer space the skin has read; `cancel` is looked at between submissions.
pub fn skin(
    gpu: &Gpu,
    k: u32,
    to: u64,
    patterns: bool,
    tiles: SkinTiles,
    progress: &dyn Progress,
    cancel: &Cancel,
) -> Result<(SkinReport, Vec<Column>, GpuRun)> {
    let SkinTiles { shape, reach } = tiles;
    use crate::error::Error;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    skin::check_to(k, to)?;
    let job = palace_gpu::SkinJob {
        k,
        width: to as u32,
        height: skin::rows_for(k, to),
        shape,
        reach,
        subgroups: true,
    };
    let diagonals = job.width.div_ceil(shape.width) + job.height.div_ceil(shape.height()) - 1;
    let estimate = AtomicU64::new(skin::estimate(k, to));
    progress.set_length(estimate.load(Ordering::Relaxed));
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::sync_channel::<palace_gpu::SkinBatch>(8);
    let (swept, state) = std::thread::scope(|scope| {
        let (stop, estimate) = (&stop, &estimate);
        let reader = scope.spawn(move || -> Result<skin::SkinState> {
            let mut state = skin::SkinState::new(k, to);
            if patterns {
                state = state.with_patterns();
            }
            let mut known = Known {
                shape,
                rows: Default::default(),
                open: Vec::new(),
                done: 0,
                missing: std::cell::Cell::new(None),
            };
            let result = (|| {
                for batch in rx.iter() {
                    known.add(batch);
                    while !state.complete() && known.ready(state.rows(), state.boundary(), diagonals) {
                        let y = state.rows();
                        if y >= job.height {
                            break;
                        }
                        // A batch may hold many rows: the reader stops within a fraction of a
                        // second of a cancel, as the sweep does.
                        if y.is_multiple_of(4096) && cancel.is_cancelled() {
                            return Err(Error::Interrupted);
                        }
                        let row = known.rows.get(&(y / shape.height()));
                        let read = state.row(y, |x| known.at(row, x, y));
                        if let Some((x, y)) = known.missing.get() {
                            return Err(Error::Analysis(format!(
                                "skin on the GPU: the skin read cell ({x}, {y}), which the GPU did not send back (it sends the tiles within {reach} columns left of the arm's boundary); use --backend cpu"
                            )));
                        }
                        read?;
                        let j = state.rows() / shape.height();
                        while known.rows.first_key_value().is_some_and(|(&r, _)| r < j) {
                            known.rows.pop_first();
                        }
                    }
                    skin::show(progress, estimate, k, &state);
                    if state.complete() {
                        break;
                    }
                }
                Ok(())
            })();
            stop.store(true, Ordering::Relaxed);
            result.map(|()| state)
        });
        let cancelled = || cancel.is_cancelled();
        let watch = palace_gpu::Watch { start: None, done: None, cancelled: Some(&cancelled) };
        let swept = gpu.skin_sweep(&job, &watch, |batch| {
            if stop.load(Ordering::Relaxed) || tx.send(batch).is_err() {
                palace_gpu::Flow::Stop
            } else {
                palace_gpu::Flow::Go
            }
        });
        drop(tx);
        (swept, reader.join().expect("the skin's reader panicked"))
    });
    let state = state?;
    let swept = swept?;
    if !state.complete() {
        return Err(Error::SkinUnfinished { to, rows: job.height });
    }
    let run = GpuRun {
        adapter: gpu.adapter().to_string(),
        shape: shape.to_string(),
        computed: swept.computed,
        region: swept.swept,
        sent_back: swept.bytes_back,
        elapsed: start.elapsed(),
    };
    Ok((skin::analyse(&state), state.columns_measured().to_vec(), run))
}
