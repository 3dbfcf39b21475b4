//! The machine's memory against a request's [`Footprint`]: a request that would need more
//! than the memory available now is refused before anything is allocated (exit 2), with the
//! figure it would need and what the machine has.

use crate::app::error::{Error, Result};
use palace::analysis::footprint::{Footprint, Work, footprint};
use palace::analysis::positions::Method;

/// What a request holds in memory, with the words that name it and the fix, for the check
/// against the machine's memory ([`fits`]).
pub struct Need {
    /// The run's footprint.
    pub footprint: Footprint,
    /// The flags that set its width, as given.
    pub what: String,
    /// How to make it smaller.
    pub fix: &'static str,
}

/// The board commands' fix: what makes a sweep's footprint smaller.
pub const BOARD_FIX: &str = "use a narrower board or a --window with a smaller x1 (memory grows with it, not with the height), or fewer --threads";

/// What a sweep of `window` is called in a refusal: the columns it sweeps, and the flags that
/// set them.
pub fn board_what(window: &palace::model::geometry::Window) -> String {
    format!("sweeping {} columns (the --size or --width, or the --window's x1)", window.x1())
}

/// What a sweep of `window` by `threads` workers doing `work` holds, in the words of the board
/// commands.
pub fn board_need(work: Work, window: &palace::model::geometry::Window, threads: usize) -> Need {
    Need {
        footprint: footprint(work, u64::from(window.x1()), threads),
        what: board_what(window),
        fix: BOARD_FIX,
    }
}

/// The memory of listing the P-positions of `rows` rows on `width` columns by `method`, and
/// `kept` bytes more (what the caller keeps of them).
pub fn positions_need(method: Method, rows: u32, width: u32, threads: usize, kept: u64) -> Need {
    use palace::analysis::footprint::FIXED;
    use palace::analysis::positions::count_bytes;
    let counts = count_bytes(method, rows, width);
    let footprint = match method {
        Method::Lines => Footprint { fixed: FIXED, per_column: 0, columns: u64::from(width) },
        // The sweep's row bands, as `dump`'s.
        Method::Sweep => footprint(Work::Dump, u64::from(width), threads),
    };
    Need {
        footprint: footprint.with_fixed(counts.saturating_add(kept)),
        what: format!("{rows} rows of {width} columns"),
        fix: "use fewer --rows or a smaller --width, or fewer --threads",
    }
}

/// The host's memory of listing the P-positions of `rows` rows of game `k` on `width` columns
/// by the sweep on a GPU: the counts per column and diagonal, and the P-positions of the rows
/// not yet complete (at most `k` a row, 4 bytes each, and 24 bytes a row).
pub fn positions_need_gpu(k: u32, rows: u32, width: u32) -> Need {
    use palace::analysis::footprint::FIXED;
    use palace::analysis::positions::count_bytes;
    let pending = (4 * u64::from(k) + 24).saturating_mul(u64::from(rows));
    Need {
        footprint: Footprint { fixed: FIXED, per_column: 0, columns: u64::from(width) }
            .with_fixed(count_bytes(Method::Sweep, rows, width).saturating_add(pending)),
        what: format!("{rows} rows of {width} columns"),
        fix: "use fewer --rows or a smaller --width",
    }
}

/// Refuses, before anything is allocated, a request that would need more memory than the
/// machine has available (exit 2, with both figures); nothing is refused where the machine's
/// memory cannot be read.
pub fn fits(need: Option<Need>) -> Result<()> {
    if let (Some(need), Some((available, total))) = (need, machine()) {
        check(need.footprint, &need.what, need.fix, available, total)?;
    }
    Ok(())
}

/// The machine's memory in bytes: (available now, in all); `None` where it cannot be read
/// (not Linux), and then nothing is refused ([`palace::analysis::footprint::machine_memory`]).
pub fn machine() -> Option<(u64, u64)> {
    palace::analysis::footprint::machine_memory()
}

/// A byte count for people: GiB with one decimal, or MiB.
pub fn human(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1 << 30))
    } else {
        format!("{:.0} MiB", (bytes as f64 / f64::from(1 << 20)).ceil())
    }
}

/// Refuses `fp` if it exceeds `available` bytes (the machine's `total`); `what` names the
/// request and `fix` the flags that shrink it.
pub fn check(fp: Footprint, what: &str, fix: &str, available: u64, total: u64) -> Result<()> {
    let need = fp.bytes();
    if need <= available {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{what} would need up to {} of memory ({} bytes a column over {} columns, plus {}), more than the {} available on this machine ({} in all); {fix}",
        human(need),
        fp.per_column,
        fp.columns,
        human(fp.fixed),
        human(available),
        human(total)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use palace::analysis::footprint::{Work, footprint};

    #[test]
    fn refuses_beyond_the_available_memory_and_says_both_figures() {
        let fp = footprint(Work::Regions, 1 << 30, 2);
        let e = check(fp, "--width 1073741824", "use a narrower --width", 8 << 30, 16 << 30).unwrap_err();
        let m = e.to_string();
        assert!(e.is_usage());
        assert!(
            m.contains("--width 1073741824")
                && m.contains("8.0 GiB available")
                && m.contains("16.0 GiB in all"),
            "{m}"
        );
        assert!(check(footprint(Work::Regions, 1000, 2), "x", "y", 8 << 30, 16 << 30).is_ok());
    }

    #[test]
    fn reads_this_machines_memory() {
        if cfg!(target_os = "linux") {
            let (available, total) = machine().expect("/proc/meminfo");
            assert!(available > 0 && available <= total);
        }
    }
}
