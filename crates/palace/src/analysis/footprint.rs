//! How much memory a run will hold, known before it starts, so that a caller can refuse a
//! request the machine cannot hold instead of being killed half way.
//!
//! The engine keeps a bounded number of bands of rows alive (`2T + 2` in row sweeps, `4T + 4`
//! in visitor sweeps, `T` the worker threads; `crates/palace-engine/src/engine/sweep.rs`), so a run's memory is a
//! fixed part plus a part per column of the region it sweeps, `[0, x1)`: it never grows with
//! the height. The figures per column below are upper bounds of the peak resident memory
//! measured on boards whose bottom rows are busy across the whole width (no outer space to skip),
//! rounded up by a quarter; `docs/memory.md` gives the measurements and the command that
//! repeats them.

use serde::Serialize;

/// A run's memory: `fixed + per_column * columns` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Footprint {
    /// Bytes whatever the width (buffers, tables, the program itself).
    pub fixed: u64,
    /// Bytes per column swept.
    pub per_column: u64,
    /// Columns swept.
    pub columns: u64,
}

impl Footprint {
    /// The bytes the run needs at most (saturating).
    pub fn bytes(&self) -> u64 {
        self.fixed.saturating_add(self.per_column.saturating_mul(self.columns))
    }

    /// This run and `other` at once (both held together).
    pub fn plus(self, other: Footprint) -> Footprint {
        // Expressed over the wider of the two: the per-column parts add on the narrower.
        let columns = self.columns.max(other.columns).max(1);
        let extra = self.bytes().saturating_add(other.bytes());
        let per_column = self.per_column + other.per_column;
        let fixed = extra.saturating_sub(per_column.saturating_mul(columns));
        Footprint { fixed, per_column, columns }
    }

    /// The same run `n` times at once (the survey's boards).
    pub fn times(self, n: u64) -> Footprint {
        Footprint {
            fixed: self.fixed.saturating_mul(n),
            per_column: self.per_column.saturating_mul(n),
            columns: self.columns,
        }
    }

    /// Adds `bytes` to the fixed part (a picture held whole, a table).
    pub fn with_fixed(self, bytes: u64) -> Footprint {
        Footprint { fixed: self.fixed.saturating_add(bytes), ..self }
    }
}

/// The kinds of run, by what they hold per column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A picture streamed row by row (`output::png`): the row sweep's bands and the encoder's
    /// rows; `zoom` pixels a cell.
    Picture {
        /// Pixels a side per cell.
        zoom: u32,
    },
    /// A tile pyramid (`output::dzi`): each level holds a row of tiles.
    Tiles {
        /// The tiles' side in pixels.
        tile_size: u32,
    },
    /// A `.npy` export: the row sweep's bands and an int32 row.
    Dump,
    /// Statistics in the three-counter form (a window from the corner).
    StatsCounters,
    /// Statistics by the CA's kernels on the workers (a visitor sweep).
    StatsCa,
    /// Palace counts by a counter sweep.
    Palaces,
    /// The skin by a counter sweep: the columns measured are the width.
    Skin {
        /// Each column's pattern of k-2 and k-1 (8 bytes more a column).
        pattern: bool,
    },
    /// The skin by the CA's row sweep.
    SkinRows,
    /// The regions (several games swept together on the workers, labelled on blocks).
    Regions,
    /// Two games compared (swept together on the workers).
    Compare,
    /// The warp's threads (the regions, and the palaces traced row by row).
    Threads,
    /// The inner sector's beams (the regions, and the lone palaces traced).
    Beams,
    /// The fabric's meta-gliders (the regions, and the map of textures).
    Gliders,
}

impl Work {
    /// Bytes per column for `threads` workers: `(a, b)` with `a + b * threads`.
    fn per_column_terms(self) -> (u64, u64) {
        match self {
            Work::Picture { zoom } => (480 + 16 * u64::from(zoom), 320),
            Work::Tiles { tile_size } => (2 * u64::from(tile_size) + 320, 4 * u64::from(tile_size) + 320),
            Work::Dump => (480, 320),
            Work::StatsCounters | Work::Palaces => (16, 16),
            Work::StatsCa => (8, 8),
            Work::Skin { pattern } => (96 + if pattern { 40 } else { 0 }, 16),
            Work::SkinRows => (250, 160),
            Work::Regions | Work::Compare => (160, 160),
            Work::Threads => (1700, 900),
            Work::Beams => (1200, 1200),
            Work::Gliders => (200, 200),
        }
    }

    /// Bytes each worker holds whatever the width: the skin's tiles with values (up to six of
    /// 4092 x 2048 cells a band, kept until the band is read, and their buffers in the
    /// worker's pool); none for the other kinds.
    pub(crate) fn per_thread(self) -> u64 {
        match self {
            Work::Skin { .. } => SKIN_PER_THREAD,
            _ => 0,
        }
    }

    /// The bytes per column of this work on `threads` workers (0 is taken as 1).
    pub fn per_column(self, threads: usize) -> u64 {
        let (a, b) = self.per_column_terms();
        a + b * threads.max(1) as u64
    }
}

/// The fixed part every run holds: the program, its thread stacks and small tables.
pub const FIXED: u64 = 64 << 20;

/// [`Work::per_thread`] of the skin: 52 MB a thread measured, rounded up by a quarter.
const SKIN_PER_THREAD: u64 = 64 << 20;

/// The footprint of `work` over `columns` columns on `threads` workers (0: one per core).
pub fn footprint(work: Work, columns: u64, threads: usize) -> Footprint {
    let threads = crate::engine::resolve_threads(threads);
    let fixed = FIXED + work.per_thread() * threads as u64;
    Footprint { fixed, per_column: work.per_column(threads), columns }
}

/// The machine's memory in bytes: (available now, in all), from `/proc/meminfo`; `None` where
/// it cannot be read (not Linux), and then a caller refuses nothing. What a request is checked
/// against before it allocates (the binary's refusals, the Python package's arrays).
pub fn machine_memory() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| {
        text.lines().find_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            rest.split_whitespace().next()?.parse::<u64>().ok().map(|kib| kib * 1024)
        })
    };
    let total = field("MemTotal")?;
    Some((field("MemAvailable").unwrap_or(total), total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_grow_with_the_width_and_saturate() {
        let a = footprint(Work::Regions, 1000, 2);
        let b = footprint(Work::Regions, 2000, 2);
        assert_eq!(b.bytes() - a.bytes(), 1000 * Work::Regions.per_column(2));
        assert_eq!(footprint(Work::Regions, u64::MAX, 2).bytes(), u64::MAX);
        let both = a.plus(b);
        assert_eq!(both.bytes(), a.bytes() + b.bytes());
        assert_eq!(a.times(3).bytes(), 3 * a.bytes());
    }

    /// The skin's workers each hold its tiles with values, whatever the width.
    #[test]
    fn the_skin_holds_a_part_per_thread() {
        let skin = Work::Skin { pattern: false };
        let (one, sixteen) = (footprint(skin, 1 << 20, 1), footprint(skin, 1 << 20, 16));
        assert_eq!(one.fixed, FIXED + (64 << 20));
        assert_eq!(sixteen.fixed - one.fixed, 15 * (64 << 20));
        assert_eq!(footprint(Work::Regions, 1 << 20, 16).fixed, FIXED);
    }
}
