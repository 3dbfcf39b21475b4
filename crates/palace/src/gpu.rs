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
    /// Cells of the region, rounded up to whole tiles.
    pub region: u64,
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
