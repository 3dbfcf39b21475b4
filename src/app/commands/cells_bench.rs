//! `palace bench --cells`: one far cell's value (`palace cell`) against the statistics of the
//! rectangle it depends on (`palace stats` of `[0, x] x [0, y]`), for three cells far from the
//! corner. Both sweep the same rectangle in the three-counter form; the cell's sweep computes
//! one tile's values where the statistics tally every tile's, so its time should stay within
//! about the statistics' (issue: "within about 2T").

use crate::app::commands::timing::{Run, timed};
use crate::app::error::Result;
use crate::app::print::{ExitCode, print_report};
use crate::app::request::{Context, Request};
use palace::analysis::{positions, stats};
use palace::engine::{EngineOptions, Silent};
use serde::Serialize;
use std::fmt;

/// The cells timed: along the arm of k = 40003 at two distances, and the far end of the first
/// column of classical Wythoff Nim (2^30 rows).
pub const CELLS: [(u32, u32, u32); 3] =
    [(40003, 200_000, 60_000), (40003, 1_000_000, 300_000), (1, 0, 1_073_741_823)];

/// A validated `palace bench --cells`.
pub struct CellsBench {
    /// Repetitions of each run.
    pub repeat: usize,
    /// Engine settings (threads, kernel, cancel token).
    pub engine: EngineOptions,
    pub json: bool,
}

/// One cell's timings.
#[derive(Debug, Clone, Serialize)]
pub struct CellTimes {
    pub k: u32,
    pub x: u32,
    pub y: u32,
    /// The cell's palace number.
    #[serde(rename = "N")]
    pub n: i64,
    /// `palace cell` without its region.
    pub cell: Run,
    /// `palace stats` of the rectangle `[0, x] x [0, y]`.
    pub stats: Run,
    /// The cell's best time over the statistics' best time.
    pub cell_over_stats: f64,
}

/// The whole benchmark.
#[derive(Debug, Clone, Serialize)]
pub struct CellsReport {
    /// The CPU's model name, where the operating system tells it.
    pub cpu: Option<String>,
    pub threads: usize,
    pub repeat: usize,
    pub cells: Vec<CellTimes>,
}

impl fmt::Display for CellsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "palace cell against palace stats of the rectangle it depends on, {} threads, best (median) of {}{}",
            self.threads,
            self.repeat,
            self.cpu.as_deref().map(|c| format!(", {c}")).unwrap_or_default()
        )?;
        writeln!(
            f,
            "{:>7} {:>22} {:>8} {:>18} {:>18} {:>11}",
            "k", "cell", "N", "cell s", "stats s", "cell/stats"
        )?;
        for c in &self.cells {
            writeln!(
                f,
                "{:>7} {:>22} {:>8} {:>18} {:>18} {:>11.2}",
                c.k,
                format!("({}, {})", c.x, c.y),
                c.n,
                format!("{:.3} ({:.3})", c.cell.seconds, c.cell.median_seconds),
                format!("{:.3} ({:.3})", c.stats.seconds, c.stats.median_seconds),
                c.cell_over_stats
            )?;
        }
        Ok(())
    }
}

impl Request for CellsBench {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let threads = self.engine.resolved_threads();
        let mut cells = Vec::new();
        for (k, x, y) in CELLS {
            let area = (u64::from(x) + 1) * (u64::from(y) + 1);
            let (n, cell) = timed("cell", threads, area, self.repeat, || {
                Ok(positions::cell(k, x, y, &self.engine, &Silent)?.0)
            })?;
            let (_, stats) = timed("stats", threads, area, self.repeat, || {
                Ok(stats::stats_by_counters(k, x + 1, y + 1, &self.engine, &Silent)?.0)
            })?;
            let cell_over_stats = cell.seconds / stats.seconds;
            cells.push(CellTimes { k, x, y, n, cell, stats, cell_over_stats });
        }
        let report =
            CellsReport { cpu: palace::simd::cpu::model_name(), threads, repeat: self.repeat, cells };
        print_report(self.json, &report)?;
        Ok(0)
    }
}
