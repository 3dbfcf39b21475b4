//! The cross-check behind `palace check`: the engine's palaces against the exact game solver
//! ([`crate::model::solver`]) on every small board, and against the Wythoff pairs for k = 1.
//!
//! For each `k` the solver plays the game once on the largest board; the engine then sweeps
//! every board `w x h` with `1 <= w, h <= max_size` on its own (a fresh sweep per board, so
//! edges and tiling are exercised on every size), and each of its cells is compared with the
//! solver's verdict. The game on a smaller board is the same game restricted, since moves only
//! go west, north or north-west.

use crate::engine::Progress;
use crate::engine::sink::{Collect, Row, RowSink};
use crate::engine::{EngineOptions, Sweep};
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::solver::solve_many;
use crate::model::wythoff;
use serde::Serialize;

/// The first disagreement found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Which comparison failed.
    pub against: &'static str,
    /// The game.
    pub k: u32,
    /// The board swept, columns x rows.
    pub board: (u32, u32),
    /// The cell.
    pub x: u32,
    /// The cell's row.
    pub y: u32,
    /// The engine's palace number there.
    pub engine_palace_number: i64,
    /// Whether the reference says the cell is a P-position.
    pub reference_says_palace: bool,
}

/// What was compared.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// Largest k played.
    pub max_k: u32,
    /// Largest board side.
    pub max_size: u32,
    /// Boards swept per k.
    pub boards_per_k: u64,
    /// Cells compared with the game solver.
    pub cells_vs_solver: u64,
    /// Cells compared with the Wythoff pairs (k = 1).
    pub cells_vs_wythoff: u64,
    /// P-positions found by the solver on the largest board, per k.
    pub p_positions: Vec<(u32, u64)>,
    /// The first mismatch, if any.
    pub mismatch: Option<Mismatch>,
}

/// Runs the check for `k in 1..=max_k` on every board up to `max_size x max_size`, plus the
/// Wythoff check for k = 1 on a `wythoff_size x wythoff_size` board.
pub fn run(
    max_k: u32,
    max_size: u32,
    wythoff_size: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<CheckReport> {
    let n = max_size as usize;
    // The solver's games run in parallel on a pool of the run's size, not on every core.
    let pool = super::pool(opts.resolved_threads())?;
    let solved = pool.install(|| solve_many(max_k, n));
    opts.cancel.check()?;
    progress.set_length(u64::from(max_k) * u64::from(max_size) * u64::from(max_size) + 1);
    let mut report = CheckReport {
        max_k,
        max_size,
        boards_per_k: u64::from(max_size) * u64::from(max_size),
        cells_vs_solver: 0,
        cells_vs_wythoff: 0,
        p_positions: solved.iter().map(|(k, p)| (*k, p.iter().filter(|&&b| b).count() as u64)).collect(),
        mismatch: None,
    };
    for (k, p) in &solved {
        for h in 1..=max_size {
            for w in 1..=max_size {
                let mut c = Collect::default();
                Sweep::new(*k, Window::new(0, 0, w, h)?).options(opts).rows(&mut c)?;
                for y in 0..h {
                    for x in 0..w {
                        let v = c.values[(y * w + x) as usize];
                        let solver_p = p[y as usize * n + x as usize];
                        report.cells_vs_solver += 1;
                        if (v < 0) != solver_p && report.mismatch.is_none() {
                            report.mismatch = Some(Mismatch {
                                against: "exact game solver",
                                k: *k,
                                board: (w, h),
                                x,
                                y,
                                engine_palace_number: v + i64::from(*k),
                                reference_says_palace: solver_p,
                            });
                        }
                    }
                }
                progress.inc(1);
            }
        }
    }
    // k = 1 is Wythoff Nim: palaces are exactly the Wythoff pairs and their mirrors. The rows
    // are compared as they arrive, so memory stays bounded by the width.
    let s = wythoff_size;
    let mut against = WythoffRows { side: s, cells: 0, mismatch: None };
    Sweep::new(1, Window::new(0, 0, s, s)?).options(opts).rows(&mut against)?;
    report.cells_vs_wythoff = against.cells;
    if report.mismatch.is_none() {
        report.mismatch = against.mismatch;
    }
    progress.inc(1);
    Ok(report)
}

/// Compares each row of the k = 1 board with the Wythoff pairs, keeping the first mismatch.
struct WythoffRows {
    side: u32,
    cells: u64,
    mismatch: Option<Mismatch>,
}

impl RowSink for WythoffRows {
    type Error = crate::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let y = row.y;
        for i in 0..row.cells.len() {
            let x = row.x0 + i as u32;
            let v = row.v(i);
            let wy = wythoff::is_p_position(u64::from(x), u64::from(y));
            self.cells += 1;
            if (v < 0) != wy && self.mismatch.is_none() {
                self.mismatch = Some(Mismatch {
                    against: "Wythoff pairs (k = 1)",
                    k: 1,
                    board: (self.side, self.side),
                    x,
                    y,
                    engine_palace_number: v + 1,
                    reference_says_palace: wy,
                });
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "exact game solver (formulation 2, brute force over queen + blocked-set states) vs engine:"
        )?;
        writeln!(
            f,
            "  k = 1..={}, every board from 1 x 1 to {} x {} ({} boards per k), {} cells compared",
            self.max_k, self.max_size, self.max_size, self.boards_per_k, self.cells_vs_solver
        )?;
        for (k, n) in &self.p_positions {
            writeln!(f, "  k = {k}: {n} P-positions on the {0} x {0} board", self.max_size)?;
        }
        writeln!(
            f,
            "Wythoff pairs (floor(n phi), floor(n phi^2)) vs engine at k = 1: {} cells compared",
            self.cells_vs_wythoff
        )?;
        match &self.mismatch {
            None => writeln!(f, "result: all agree"),
            Some(m) => writeln!(
                f,
                "result: MISMATCH against the {} at k = {}, board {} x {}, cell ({}, {}): engine palace number {} ({}), reference says {}",
                m.against,
                m.k,
                m.board.0,
                m.board.1,
                m.x,
                m.y,
                m.engine_palace_number,
                if m.engine_palace_number < i64::from(m.k) { "palace" } else { "not a palace" },
                if m.reference_says_palace { "palace" } else { "not a palace" }
            ),
        }
    }
}
