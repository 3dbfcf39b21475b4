//! What a sweep reports: its [`SweepReport`], the [`Counters`] of its tiles and the
//! [`WorkerTimes`] of its workers.

use super::layout::Layout;
use super::tile::Made;
use super::timeline::Timeline;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

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
    pub(crate) fn add(&self, made: Made) {
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
    pub(crate) fn add_times(&self, t: &WorkerTimes) {
        for (c, d) in self.times.iter().zip([t.computing, t.visiting, t.waiting_above, t.waiting_band]) {
            c.fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
        }
    }

    pub(crate) fn times(&self) -> WorkerTimes {
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
    /// Of `visiting`, the work only one worker at a time may do ([`PalaceVisitor::serial`](crate::engine::PalaceVisitor::serial)):
    /// when it nears the wall time, that work bounds the sweep.
    #[serde(serialize_with = "ser_secs")]
    pub serial: Duration,
}

impl WorkerTimes {
    /// Adds the time since `started` less what `before` (this worker's times when it started)
    /// has since gained in waiting and visiting to `computing`.
    pub(crate) fn computed_since(&mut self, before: &WorkerTimes, started: std::time::Instant) {
        let other =
            (self.waiting_above + self.visiting).saturating_sub(before.waiting_above + before.visiting);
        self.computing += started.elapsed().saturating_sub(other);
    }

    /// The sum of two runs' times.
    pub(crate) fn plus(self, o: WorkerTimes) -> WorkerTimes {
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
    /// Every tile's times, where [`EngineOptions::timeline`](crate::engine::EngineOptions::timeline) asked for them.
    #[serde(skip)]
    pub timeline: Option<std::sync::Arc<Timeline>>,
}

pub(crate) fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl SweepReport {
    /// The report of a run that swept rows `rows` of `[0, x1)`.
    pub(crate) fn new(
        c: &Counters,
        layout: &Layout,
        threads: usize,
        x1: u32,
        rows: u32,
        elapsed: Duration,
    ) -> Self {
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

    /// The report of a run so far: `next` after the segments before it, if any (see
    /// [`SweepReport::then`]).
    pub fn after(earlier: Option<SweepReport>, next: SweepReport) -> SweepReport {
        match earlier {
            Some(r) => r.then(next),
            None => next,
        }
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
