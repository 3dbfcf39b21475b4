//! The skin's sweep: the whole board's counters on the GPU, and back to the host only the
//! tiles near the arm's boundary, whose cells the skin reads (`skin.wgsl`).

use crate::device::{BATCH_DIAGONALS, Gpu, bytes_to_words, next_budget};
use crate::error::GpuError;
use crate::job::{check_game, region};
use crate::shader::Kernel;
use crate::shape::Shape;
use palace_engine::engine::Watch;

/// A sweep of `[0, width) x [0, height)` of game `k` that keeps the tiles near the arm's
/// boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinJob {
    /// The game, `1 <= k <= MAX_K` (the engine's bound).
    pub k: u32,
    /// Columns swept.
    pub width: u32,
    /// Rows swept.
    pub height: u32,
    /// The tile shape; its rows per lane must be a multiple of 4.
    pub shape: Shape,
    /// Columns left of the boundary whose tiles are kept, at least: a tile is kept when the
    /// tile `ceil(reach / width) + 1` tile columns right of it, that many tile rows and one
    /// more up, is quiet (outer space) or off the board.
    pub reach: u32,
    /// Pass counters by subgroup shuffles where the adapter allows it (see [`crate::Job`]).
    pub subgroups: bool,
}

impl SkinJob {
    fn check(&self) -> Result<(), GpuError> {
        self.shape.check()?;
        if !self.shape.rows.is_multiple_of(4) {
            return Err(GpuError::Shape {
                shape: self.shape,
                why: "the skin's tiles need rows per lane a multiple of 4 (four cells a word)",
            });
        }
        if self.shape.width < 2 || self.shape.height() < 2 {
            return Err(GpuError::Shape {
                shape: self.shape,
                why: "the skin's tiles need 2 x 2 cells at least",
            });
        }
        check_game(self.k)?;
        if self.width == 0 || self.height == 0 {
            return Err(GpuError::Job("the board is empty"));
        }
        Ok(())
    }

    /// How many tiles right (and one more up) a kept tile looks.
    pub fn look_ahead(&self) -> u32 {
        self.reach.div_ceil(self.shape.width) + 1
    }

    /// Tiles per row of tiles, and rows of tiles.
    pub fn tiles(&self) -> (u32, u32) {
        (self.width.div_ceil(self.shape.width), self.height.div_ceil(self.shape.height()))
    }

    /// The tile-diagonals of the board.
    pub fn diagonals(&self) -> u32 {
        let (nx, ny) = self.tiles();
        nx + ny - 1
    }

    /// Whether `f` is a frontier of this job's board and tiles, between its first and last
    /// tile-diagonal: each of its arrays has the length the sweep keeps on the device.
    pub fn fits(&self, f: &SkinFrontier) -> bool {
        let (nx, ny) = self.tiles();
        let (w, h) =
            (u64::from(nx) * u64::from(self.shape.width), u64::from(ny) * u64::from(self.shape.height()));
        let lengths = [
            (f.rows.len(), h),
            (f.cols.len(), w),
            (f.diags.len(), w + h),
            (f.quiet.len(), 4 * u64::from(nx)),
            (f.open.len(), u64::from(f.diagonals)),
        ];
        f.diagonals < self.diagonals() && lengths.iter().all(|&(a, b)| a as u64 == b)
    }
}

/// A tile sent back to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptTile {
    /// Its tile column: it covers columns `i * width ..`.
    pub i: u32,
    /// Its tile row: it covers rows `j * height ..`.
    pub j: u32,
    /// Its cells' values `v = N - k`, column by column (`shape.height()` a column); hood cells
    /// hold `max(v, -128)`. `None` when every cell is 0 (the tile is quiet).
    pub cells: Option<Vec<i8>>,
}

/// What one submission computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinBatch {
    /// Tile-diagonals `0..done` are computed.
    pub done: u32,
    /// The first tile-diagonal of this batch.
    pub first: u32,
    /// For the tile-diagonals `first..done`: every tile `(i, j)` with `i >= open[i + j - first]`
    /// is quiet (all its cells are 0).
    pub open: Vec<u32>,
    /// The tiles kept.
    pub kept: Vec<KeptTile>,
}

/// Whether the sweep goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Compute the next batch.
    Go,
    /// Stop here.
    Stop,
    /// Stop here and return the frontier, from which another sweep of the same job continues.
    Pause,
}

/// Where a skin sweep stands between two submissions: what the device holds. A sweep started
/// from it ([`Gpu::skin_sweep`]) continues as if it had not stopped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkinFrontier {
    /// Tile-diagonals `0..diagonals` are computed.
    pub diagonals: u32,
    /// `R` per row of the region (rounded up to whole tiles).
    pub rows: Vec<u32>,
    /// `C` per column of the region.
    pub cols: Vec<u32>,
    /// `D` per diagonal of the region (`x - y` at `x - y + height`).
    pub diags: Vec<u32>,
    /// The quiet flags of the last four rows of tiles.
    pub quiet: Vec<u32>,
    /// `open` of the tile-diagonals computed.
    pub open: Vec<u32>,
}

/// How a skin sweep went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SkinSweep {
    /// Tile-diagonals computed.
    pub diagonals: u32,
    /// Cells of the tile-diagonals swept (whole tiles): the board's, unless the sweep stopped
    /// early.
    pub swept: u64,
    /// Cells computed (whole tiles), not skipped as outer space.
    pub computed: u64,
    /// Tiles sent back.
    pub kept: u64,
    /// Bytes sent back.
    pub bytes_back: u64,
}

/// Tiles per submission at most: most tiles of a skin's tile-diagonal lie in outer space and
/// return at once, so submissions hold more tiles than the tally's.
const SKIN_BATCH_TILES: u64 = 1 << 22;

/// The header words before the slots' headers in `meta`.
const META: u64 = 8;

/// A sweep of `[0, width) x [0, height)` of game `k` that sends back the tiles asked for
/// ([`Gpu::tiles`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TilesJob {
    /// The game, `1 <= k <= MAX_K` (the engine's bound).
    pub k: u32,
    /// Columns swept.
    pub width: u32,
    /// Rows swept.
    pub height: u32,
    /// The tile shape; its rows per lane must be a multiple of 4.
    pub shape: Shape,
    /// Pass counters by subgroup shuffles where the adapter allows it (see [`crate::Job`]).
    pub subgroups: bool,
}

/// The tiles a sweep keeps when they are listed: a bit per tile, and how many per
/// tile-diagonal.
struct Listed {
    mask: Vec<u32>,
    per_diagonal: Vec<u32>,
}

impl Gpu {
    /// Sweeps `job`'s board tile-diagonal by tile-diagonal, from the top or from `from`, and
    /// hands each submission's kept tiles to `batch`, which may stop or pause the sweep (a
    /// pause returns the frontier). `watch` counts tile-diagonals and is asked whether to stop
    /// between submissions.
    pub fn skin_sweep(
        &self,
        job: &SkinJob,
        from: Option<&SkinFrontier>,
        watch: &Watch<'_>,
        batch: impl FnMut(SkinBatch) -> Flow,
    ) -> Result<(SkinSweep, Option<SkinFrontier>), GpuError> {
        self.sweep_keeping(job, None, from, watch, batch)
    }

    /// Sweeps `job`'s board up to the last tile-diagonal that holds a tile of `wanted` (tile
    /// column, tile row) and returns each of those tiles once, in no particular order: its
    /// cells' values, or `None` when it holds only v = 0 and no palace. `watch` counts
    /// tile-diagonals and is asked whether to stop between submissions.
    pub fn tiles(
        &self,
        job: &TilesJob,
        wanted: &[(u32, u32)],
        watch: &Watch<'_>,
    ) -> Result<(Vec<KeptTile>, SkinSweep), GpuError> {
        let job = SkinJob {
            k: job.k,
            width: job.width,
            height: job.height,
            shape: job.shape,
            reach: 0,
            subgroups: job.subgroups,
        };
        job.check()?;
        let (nx, ny) = job.tiles();
        let tiles = u64::from(nx) * u64::from(ny);
        if tiles >= 1 << 32 {
            return Err(GpuError::Job("a sweep that lists its tiles must have fewer than 2^32 tiles"));
        }
        let mut listed = Listed {
            mask: vec![0; tiles.div_ceil(32) as usize],
            per_diagonal: vec![0; job.diagonals() as usize],
        };
        let mut last = 0;
        for &(i, j) in wanted {
            if i >= nx || j >= ny {
                return Err(GpuError::Job("a tile asked for lies outside the board"));
            }
            let t = j * nx + i;
            if listed.mask[(t / 32) as usize] & (1 << (t % 32)) == 0 {
                listed.mask[(t / 32) as usize] |= 1 << (t % 32);
                listed.per_diagonal[(i + j) as usize] += 1;
                last = last.max(i + j + 1);
            }
        }
        let mut kept = Vec::new();
        if last == 0 {
            return Ok((kept, SkinSweep::default()));
        }
        let (sweep, _) = self.sweep_keeping(&job, Some(&listed), None, watch, |b| {
            kept.extend(b.kept);
            if b.done >= last { Flow::Stop } else { Flow::Go }
        })?;
        Ok((kept, sweep))
    }

    /// The sweep of [`Gpu::skin_sweep`] and [`Gpu::tiles`]: keeping the tiles near the arm's
    /// boundary, or those `listed`.
    fn sweep_keeping(
        &self,
        job: &SkinJob,
        listed: Option<&Listed>,
        from: Option<&SkinFrontier>,
        watch: &Watch<'_>,
        mut batch: impl FnMut(SkinBatch) -> Flow,
    ) -> Result<(SkinSweep, Option<SkinFrontier>), GpuError> {
        job.check()?;
        let shape = job.shape;
        let (tw, th) = (shape.width, shape.height());
        let (nx, ny) = job.tiles();
        let (region_w, region_h) = region(nx, ny, shape)?;
        let pipeline = self.pipeline(Kernel::Skin, shape, job.subgroups)?;
        let diagonals = job.diagonals();
        let tile_words = u64::from(tw) * u64::from(th) / 4;
        let slots = (self.binding.min(256 << 20) / (tile_words * 4)).clamp(1, 4096);
        let ([rows, cols, quiet, open, meta, cells, want], diags) = self.arrays(
            [
                ("row counter array", region_h),
                ("column counter array", region_w),
                ("tile flag array", 4 * u64::from(nx)),
                ("open tile array", u64::from(diagonals)),
                ("kept tile headers", META + 4 * (slots + 1)),
                ("kept tile cells", slots * tile_words),
                ("tile list", listed.map_or(1, |l| l.mask.len() as u64)),
            ],
            region_w + region_h,
        )?;
        if let Some(l) = listed {
            self.write_words(&want, 0, &l.mask);
        }
        self.clear(&[&rows, &cols, &quiet, &open, &meta]);
        let mut d = 0u32;
        if let Some(f) = from {
            if !job.fits(f) {
                return Err(GpuError::Job("the frontier is not one of this board and tile shape"));
            }
            diags.write(self, &f.diags);
            for (buffer, words) in [(&rows, &f.rows), (&cols, &f.cols), (&quiet, &f.quiet), (&open, &f.open)]
            {
                self.write_words(buffer, 0, words);
            }
            d = f.diagonals;
        }
        let keep_a = if listed.is_some() { 0 } else { job.look_ahead() };
        let job_words = [job.k, region_h as u32, nx, ny, keep_a, slots as u32, 0, 0];
        let bound =
            self.bind(Kernel::Skin, &job_words, &[&rows, &cols, &quiet, &open, &meta, &cells, &want], &diags);

        watch.progress().set_length(u64::from(diagonals));
        let mut sweep = SkinSweep::default();
        let mut budget = 64u64;
        // Kept tiles per tile-diagonal, the most seen in a batch (rounded up).
        let mut per_diagonal = 4u64;
        while d < diagonals {
            let started = std::time::Instant::now();
            if watch.is_cancelled() {
                return Err(GpuError::Interrupted);
            }
            let first = d;
            let mut bytes = Vec::new();
            let mut counts = Vec::new();
            let mut n = 0u64;
            // Listed tiles kept so far in the batch.
            let mut listed_kept = 0u64;
            // At least one tile-diagonal, even if it keeps more tiles than the slots hold.
            let fits = |batch: usize, listed_kept: u64, d: u32| match listed {
                Some(l) => listed_kept + u64::from(l.per_diagonal[d as usize]) <= slots,
                None => (batch as u64 + 1) * (2 * per_diagonal + 2) <= slots,
            };
            while d < diagonals
                && (counts.is_empty()
                    || (counts.len() < BATCH_DIAGONALS as usize
                        && n < budget
                        && fits(counts.len(), listed_kept, d)))
            {
                listed_kept += listed.map_or(0, |l| u64::from(l.per_diagonal[d as usize]));
                let (_, count) = bound.step_at(d, nx, ny, 0, &mut bytes);
                counts.push(count);
                n += u64::from(count);
                d += 1;
            }
            self.dispatch(&bound, &pipeline, &bytes, &counts, Some((&meta, META * 4)));
            let head = self.read(&meta, META * 4)?;
            let taken = u64::from(head[0]);
            if head[1] != 0 {
                return Err(GpuError::ValueRange { x: head[2], y: head[3], v: head[4] as i32, limit: 128 });
            }
            if taken > slots {
                return Err(GpuError::TooLarge {
                    what: "buffer of kept tiles (one submission kept more tiles than it holds)",
                    needed: taken * tile_words * 4,
                    allowed: slots * tile_words * 4,
                });
            }
            sweep.computed += u64::from(head[5]) * u64::from(tw) * u64::from(th);
            sweep.swept += counts.iter().map(|&c| u64::from(c)).sum::<u64>() * u64::from(tw) * u64::from(th);
            let ndiag = d - first;
            per_diagonal = per_diagonal.max(taken.div_ceil(u64::from(ndiag)));
            let mut back = self.read_ranges(&[
                (&meta, META * 4, taken * 16),
                (&open, u64::from(first) * 4, u64::from(ndiag) * 4),
                (&cells, 0, taken * tile_words * 4),
            ])?;
            let data = back.pop().expect("three ranges");
            let open_words = back.pop().expect("three ranges");
            let headers = back.pop().expect("three ranges");
            sweep.bytes_back += data.len() as u64;
            let headers = bytes_to_words(&headers);
            let kept = (0..taken as usize)
                .map(|s| {
                    let w = |o: usize| headers[4 * s + o];
                    let cells = (w(2) == 1).then(|| {
                        let bytes = &data[s * tile_words as usize * 4..][..tile_words as usize * 4];
                        bytes.iter().map(|&b| b as i8).collect()
                    });
                    KeptTile { i: w(0), j: w(1), cells }
                })
                .collect();
            sweep.kept += taken;
            sweep.diagonals = d;
            let flow = batch(SkinBatch { done: d, first, open: bytes_to_words(&open_words), kept });
            budget = next_budget(budget, started.elapsed(), SKIN_BATCH_TILES);
            watch.progress().set_position(u64::from(d));
            if flow == Flow::Stop {
                break;
            }
            if flow == Flow::Pause && d < diagonals {
                let mut ranges = vec![
                    (&rows, 0, region_h * 4),
                    (&cols, 0, region_w * 4),
                    (&quiet, 0, 16 * u64::from(nx)),
                    (&open, 0, u64::from(d) * 4),
                ];
                ranges.extend(diags.ranges(0, region_w + region_h));
                let mut back = self.read_ranges(&ranges)?.into_iter().map(|b| bytes_to_words(&b));
                let mut next = || back.next().expect("a range");
                let (rows, cols, quiet, open) = (next(), next(), next(), next());
                let diags = back.flatten().collect();
                let frontier = SkinFrontier { diagonals: d, rows, cols, diags, quiet, open };
                return Ok((sweep, Some(frontier)));
            }
        }
        Ok((sweep, None))
    }
}
