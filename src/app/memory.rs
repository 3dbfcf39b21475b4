//! The machine's memory against a request's [`Footprint`]: a request that would need more
//! than the memory available now is refused before anything is allocated (exit 2), with the
//! figure it would need and what the machine has.

use palace::analysis::footprint::Footprint;
use palace::error::{Error, Result};

/// The machine's memory in bytes: (available now, in all), from `/proc/meminfo`; `None` where
/// it cannot be read (not Linux), and then nothing is refused.
pub fn machine() -> Option<(u64, u64)> {
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
