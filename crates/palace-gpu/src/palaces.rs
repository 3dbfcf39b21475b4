//! The P-positions' sweep: the whole board's counters on the GPU, and back to the host only
//! its palaces (`palaces.wgsl`).

use crate::device::{BATCH_DIAGONALS, BATCH_TILES, Gpu, next_budget};
use crate::error::GpuError;
use crate::job::{check_game, region};
use crate::shader::Kernel;
use crate::shape::Shape;
use palace_engine::engine::Watch;

/// A sweep of `[0, width) x [0, height)` of game `k` that lists its palaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PalacesJob {
    /// The game, `1 <= k <= MAX_K` (the engine's bound).
    pub k: u32,
    /// Columns swept.
    pub width: u32,
    /// Rows swept.
    pub height: u32,
    /// The tile shape.
    pub shape: Shape,
    /// Skip the tiles of outer space (exact; off computes every tile, for the tests).
    pub skip: bool,
    /// Pass counters by subgroup shuffles where the adapter allows it (see [`crate::Job`]).
    pub subgroups: bool,
}

/// What one submission found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PalaceBatch {
    /// The palaces `(x, y)` it found, in no particular order.
    pub palaces: Vec<(u32, u32)>,
    /// Every palace of rows `0..rows_done` has been handed over, in this batch or before.
    pub rows_done: u32,
}

/// How a sweep of palaces went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PalaceSweep {
    /// Cells computed: the region, rounded up to whole tiles, less the tiles of outer space
    /// skipped.
    pub computed: u64,
    /// Cells of the region, rounded up to whole tiles.
    pub region: u64,
    /// Palaces listed.
    pub palaces: u64,
}

/// Entries of the palace list at most (8 bytes each): 256 MiB.
const LIST_ENTRIES: u64 = 1 << 25;

impl Gpu {
    /// Sweeps `job`'s board tile-diagonal by tile-diagonal and hands each submission's
    /// palaces to `batch`, with the rows whose palaces are all handed over; `batch` returns
    /// whether to go on. `watch` counts tile-diagonals and is asked whether to stop between
    /// submissions.
    ///
    /// A submission lists at most as many palaces as a row holds (`k`) times the rows it
    /// touches, and at most `k` times the shorter side of each tile it computes; submissions
    /// are sized so that this bound fits the list. Where a single tile-diagonal's bound
    /// exceeds the list and it finds more than the list holds, the run stops with
    /// [`GpuError::TooLarge`], never dropping a palace.
    pub fn palaces(
        &self,
        job: &PalacesJob,
        watch: &Watch<'_>,
        mut batch: impl FnMut(PalaceBatch) -> bool,
    ) -> Result<PalaceSweep, GpuError> {
        job.shape.check()?;
        check_game(job.k)?;
        if job.width == 0 || job.height == 0 {
            return Err(GpuError::Job("the board is empty"));
        }
        let shape = job.shape;
        let (tw, th) = (shape.width, shape.height());
        let (nx, ny) = (job.width.div_ceil(tw), job.height.div_ceil(th));
        let (region_w, region_h) = region(nx, ny, shape)?;
        // The count of a submission's palaces is a 32-bit atomic: no tile-diagonal may hold
        // 2^32 cells (a submission of several holds at most the list's capacity).
        if u64::from(nx.min(ny)) * u64::from(tw) * u64::from(th) >= 1 << 32 {
            return Err(GpuError::Job("a tile-diagonal of the board must hold fewer than 2^32 cells"));
        }
        let k = u64::from(job.k);
        // The list holds what the whole run can find, where that is less than its bound.
        let cap =
            (self.binding / 8).saturating_sub(1).min(LIST_ENTRIES).min(k * u64::from(job.height)).max(1);
        let per_tile = (k * u64::from(tw.min(th))).min(u64::from(tw) * u64::from(th));
        let pipeline = self.pipeline(Kernel::Palaces, shape, job.subgroups)?;
        let skip = job.skip && tw >= 2 && th >= 2;
        let ([rows, cols, list, quiet], diags) = self.arrays(
            [
                ("row counter array", region_h),
                ("column counter array", region_w),
                ("palace list", 2 + 2 * cap),
                ("tile flag array", if skip { 2 * u64::from(nx) } else { 1 }),
            ],
            region_w + region_h,
        )?;
        self.clear(&[&rows, &cols, &quiet]);
        let job_words =
            [job.k, region_h as u32, if skip { nx } else { 0 }, cap as u32, job.width, job.height, 0, 0];
        let bound = self.bind(Kernel::Palaces, &job_words, &[&rows, &cols, &list, &quiet], &diags);

        let diagonals = nx + ny - 1;
        watch.progress().set_length(u64::from(diagonals));
        let mut sweep = PalaceSweep { region: region_w * region_h, ..PalaceSweep::default() };
        let mut tiles_computed = 0u64;
        let mut budget = 64u64;
        let mut d = 0u32;
        while d < diagonals {
            let started = std::time::Instant::now();
            if watch.is_cancelled() {
                return Err(GpuError::Interrupted);
            }
            let first = d;
            let (mut bytes, mut counts, mut tiles) = (Vec::new(), Vec::new(), 0u64);
            // The palaces the batch may find at most: k a row of the tile rows it touches,
            // and per tile k times its shorter side.
            let most = |last: u32, tiles: u64| {
                let touched = last.min(ny - 1) - first.saturating_sub(nx - 1) + 1;
                (tiles * per_tile).min(k * u64::from(th) * u64::from(touched))
            };
            while d < diagonals {
                let count = u64::from(d.min(nx - 1) - d.saturating_sub(ny - 1) + 1);
                if !counts.is_empty()
                    && (counts.len() >= BATCH_DIAGONALS as usize
                        || tiles >= budget
                        || most(d, tiles + count) > cap)
                {
                    break;
                }
                let (_, c) = bound.step_at(d, nx, ny, 0, &mut bytes);
                counts.push(c);
                tiles += count;
                d += 1;
            }
            self.dispatch(&bound, &pipeline, &bytes, &counts, Some((&list, 8)));
            let head = self.read(&list, 8)?;
            let found = u64::from(head[0]);
            if found > cap {
                return Err(GpuError::TooLarge {
                    what: "list of palaces (one submission found more than it holds)",
                    needed: (2 + 2 * found) * 4,
                    allowed: (2 + 2 * cap) * 4,
                });
            }
            tiles_computed += u64::from(head[1]);
            let words = self.read(&list, (2 + 2 * found) * 4)?;
            let palaces: Vec<(u32, u32)> = words[2..].chunks_exact(2).map(|e| (e[0], e[1])).collect();
            sweep.palaces += found;
            let rows_done = (u64::from(d + 1).saturating_sub(u64::from(nx)) * u64::from(th))
                .min(u64::from(job.height)) as u32;
            let go = batch(PalaceBatch { palaces, rows_done });
            budget = next_budget(budget, started.elapsed(), BATCH_TILES);
            watch.progress().set_position(u64::from(d));
            if !go {
                break;
            }
        }
        sweep.computed = tiles_computed * u64::from(tw) * u64::from(th);
        Ok(sweep)
    }
}
