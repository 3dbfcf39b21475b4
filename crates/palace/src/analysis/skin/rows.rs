//! The skin followed through the CA's row sweep: the reference for [`super::follow`].
//!
//! The sweep covers `[0, X) x [0, Y)` with `Y` from [`super::rows_for`], and the state asks
//! the engine for just the columns around the advancing outer-space boundary. Every cell is
//! computed by the CA; memory grows with `X` alone.

use super::report::{SkinReport, analyse};
use super::state::{Column, SkinState, rows_for};
use crate::engine::sink::{Row, RowSink};
use crate::engine::{EngineOptions, Progress, Sweep, SweepReport};
use crate::error::{Error, Result};
use crate::model::geometry::Window;

/// Feeds the rows of a row sweep to the state machine.
struct Sink(SkinState);

impl RowSink for Sink {
    type Error = crate::Error;

    fn columns(&mut self, _y0: u32, rows: u32) -> Option<(u32, u32)> {
        let (lo, hi) = self.0.columns(rows);
        let max = u64::from(u32::MAX);
        Some((lo.min(max) as u32, hi.min(max) as u32))
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        if self.0.complete() {
            return Ok(());
        }
        let x0 = u64::from(row.x0);
        self.0.row(row.y, |x| x.checked_sub(x0).and_then(|i| row.cells.get(i as usize)).copied())
    }
}

/// Follows the skin of game `k` from the shoulder to column `to` (exclusive, `> k`) through the
/// CA's row sweep (see the module's documentation).
pub fn follow_rows(
    k: u32,
    to: u64,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(SkinReport, Vec<Column>, SweepReport)> {
    follow_rows_with(k, to, false, opts, progress)
}

/// [`follow_rows`], recording the columns' patterns of `v = -2` and `-1` when `patterns` (for
/// the measures of `super::pattern`).
pub fn follow_rows_with(
    k: u32,
    to: u64,
    patterns: bool,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(SkinReport, Vec<Column>, SweepReport)> {
    super::state::check_to(k, to)?;
    let window = Window::new(0, 0, to as u32, rows_for(k, to))?;
    let state = SkinState::new(k, to);
    let mut sink = Sink(if patterns { state.with_patterns() } else { state });
    let mut o = opts.clone();
    // Wide and shallow: thinner bands keep the bands in flight small.
    o.band_height = o.band_height.or(Some(64));
    let report = Sweep::new(k, window).options(&o).progress(progress).rows(&mut sink)?;
    if !sink.0.complete() {
        return Err(Error::SkinUnfinished { to, rows: window.height() });
    }
    Ok((analyse(&sink.0), sink.0.cols, report))
}
