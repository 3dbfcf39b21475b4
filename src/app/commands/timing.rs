//! Timing a run: the fastest and the median of repeated runs, with their CPU time and peak
//! memory, for `palace bench` and `palace bench --cells`.

use crate::app::error::{Error, Result};
use palace::engine::SweepReport;
use serde::Serialize;
use std::time::{Duration, Instant};

/// One timed run.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    /// What ran.
    pub name: String,
    /// Worker threads (1 for the baseline).
    pub threads: usize,
    /// Wall-clock seconds of the fastest repetition.
    pub seconds: f64,
    /// Median wall-clock seconds over the repetitions.
    pub median_seconds: f64,
    /// Repetitions timed.
    pub repeats: usize,
    /// CPU seconds of the whole process during the fastest repetition (all threads).
    pub cpu_seconds: f64,
    /// Board cells per wall-clock second, fastest repetition.
    pub cells_per_second: f64,
    /// Peak resident memory during the run, in bytes (None where the OS does not tell).
    pub peak_rss_bytes: Option<u64>,
    /// The engine's report (fast runs only).
    pub engine: Option<SweepReport>,
}

/// Process CPU time (user + system) from `/proc/self/stat`, if available.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // The kernel reports USER_HZ ticks, 100 per second on Linux.
    Some(Duration::from_millis(ticks * 10))
}

/// Resets the resident high-water mark (Linux >= 4.0); false if that is not possible.
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The resident high-water mark in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Repeated timings of one configuration: the fastest run (the least disturbed by the rest of
/// the machine) and the median. Every run's output must be the same.
pub(super) struct Timing<T> {
    name: String,
    pub(super) threads: usize,
    cells: u64,
    best: Option<(T, Run)>,
    times: Vec<f64>,
}

impl<T: PartialEq> Timing<T> {
    pub(super) fn new(name: &str, threads: usize, cells: u64) -> Self {
        Timing { name: name.to_string(), threads, cells, best: None, times: Vec::new() }
    }

    /// Times one run of `f`.
    pub(super) fn once(&mut self, f: impl FnOnce() -> Result<T>) -> Result<()> {
        let can_reset = reset_peak_rss();
        let cpu0 = cpu_time();
        let t0 = Instant::now();
        let out = f()?;
        let secs = t0.elapsed().as_secs_f64();
        let cpu = match (cpu0, cpu_time()) {
            (Some(a), Some(b)) => (b - a).as_secs_f64(),
            _ => f64::NAN,
        };
        self.times.push(secs);
        let run = Run {
            name: self.name.clone(),
            threads: self.threads,
            seconds: secs,
            median_seconds: secs,
            repeats: 1,
            cpu_seconds: cpu,
            cells_per_second: self.cells as f64 / secs,
            peak_rss_bytes: if can_reset { peak_rss() } else { None },
            engine: None,
        };
        match &self.best {
            Some((o, _)) if *o != out => {
                return Err(Error::mismatch(format!("{}: two runs gave different outputs", self.name)));
            }
            Some((_, b)) if b.seconds <= secs => {}
            _ => self.best = Some((out, run)),
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> (T, Run) {
        self.times.sort_by(f64::total_cmp);
        let (out, mut run) = self.best.expect("at least one run");
        run.median_seconds = self.times[self.times.len() / 2];
        run.repeats = self.times.len();
        (out, run)
    }
}

/// Runs `f` `repeat` times (see [`Timing`]).
pub(crate) fn timed<T: PartialEq>(
    name: &str,
    threads: usize,
    cells: u64,
    repeat: usize,
    mut f: impl FnMut() -> Result<T>,
) -> Result<(T, Run)> {
    let mut t = Timing::new(name, threads, cells);
    for _ in 0..repeat.max(1) {
        t.once(&mut f)?;
    }
    Ok(t.finish())
}
