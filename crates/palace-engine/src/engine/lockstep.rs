//! Several sweeps in lockstep: games (or windows) that are compared cell by cell, such as the
//! paper's Fig. 4 comparisons of k = 497 with k = 500. Each sweep runs on its own thread with
//! its own worker pool and hands its rows through a small bounded channel; the caller sees
//! the i-th row of every sweep together. Memory stays bounded by the widths.

use super::control::Progress;
use super::front::Sweep;
use super::options::EngineOptions;
use super::report::SweepReport;
pub use crate::engine::layout::Lane;
use crate::engine::sink::{Row, RowSink};
use crate::error::{Error, Result};

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// An owned row, sent between threads.
struct OwnedRow {
    y: u32,
    cells: Vec<i8>,
}

/// Sends every row into a channel (and stops quietly when the receiver is gone).
struct Forward {
    tx: SyncSender<OwnedRow>,
    recycle: Receiver<Vec<i8>>,
}

impl RowSink for Forward {
    type Error = Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let mut cells = self.recycle.try_recv().unwrap_or_default();
        cells.clear();
        cells.extend_from_slice(row.cells);
        self.tx.send(OwnedRow { y: row.y, cells }).map_err(|_| Error::Aborted)
    }
}

/// Runs the sweeps of `lanes` together and calls `f` with their `i`-th rows, for every row of
/// the windows in order. Each sweep gets `opts` with its share of the threads. Returns the
/// sweeps' reports; an error of `f` stops them and comes back as it was.
pub fn lockstep<E: From<Error>>(
    lanes: &[Lane],
    opts: &EngineOptions,
    progress: &dyn Progress,
    mut f: impl FnMut(&[Row<'_>]) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<SweepReport>, E> {
    super::options::check_lanes("lockstep", lanes, opts)?;
    let h = lanes[0].window.height();
    // Each sweep gets an equal share of the threads: oversubscribed pools would spin.
    let threads = (opts.resolved_threads() / lanes.len()).max(1);
    let sub = EngineOptions { threads, ..opts.clone() };
    progress.set_length(u64::from(h));
    std::thread::scope(|scope| {
        let mut rxs = Vec::new();
        let mut back = Vec::new();
        let mut handles = Vec::new();
        for lane in lanes {
            let (tx, rx) = sync_channel::<OwnedRow>(64);
            let (recycle_tx, recycle_rx) = sync_channel::<Vec<i8>>(64);
            let sub = &sub;
            let lane = *lane;
            handles.push(scope.spawn(move || {
                let mut fwd = Forward { tx, recycle: recycle_rx };
                Sweep::new(lane.k, lane.window).options(sub).rows(&mut fwd)
            }));
            rxs.push(rx);
            back.push(recycle_tx);
        }
        let mut result: std::result::Result<(), E> = Ok(());
        let mut got: Vec<OwnedRow> = Vec::with_capacity(lanes.len());
        for i in 0..h {
            if opts.cancel.is_cancelled() {
                result = Err(Error::Interrupted.into());
                break;
            }
            got.clear();
            for rx in &rxs {
                match rx.recv() {
                    Ok(r) => got.push(r),
                    Err(_) => break, // that sweep failed: its error is collected below
                }
            }
            if got.len() < lanes.len() {
                break;
            }
            let rows: Vec<Row<'_>> = got
                .iter()
                .zip(lanes)
                .map(|(r, l)| Row { k: l.k, y: r.y, x0: l.window.x0, cells: &r.cells })
                .collect();
            if let Err(e) = f(&rows) {
                result = Err(e);
                break;
            }
            progress.set_position(u64::from(i) + 1);
            for (r, b) in got.drain(..).zip(&back) {
                let _ = b.try_send(r.cells);
            }
        }
        // Dropping the receivers stops the other sweeps if we stopped early.
        drop(rxs);
        let mut reports = Vec::new();
        for hnd in handles {
            match hnd.join().expect("sweep thread panicked") {
                Ok(r) => reports.push(r),
                Err(Error::Aborted) => {}
                Err(e) => {
                    if result.is_ok() {
                        result = Err(e.into());
                    }
                }
            }
        }
        result.map(|()| reports)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::control::Silent;
    use crate::model::geometry::Window;
    use crate::model::reference::direct_values;

    #[test]
    fn lockstep_rows_line_up() {
        let a = Lane { k: 17, window: Window::new(3, 5, 63, 45).unwrap() };
        let b = Lane { k: 20, window: Window::new(4, 6, 64, 46).unwrap() };
        let va = direct_values(17, 63, 45);
        let vb = direct_values(20, 64, 46);
        let mut seen = 0;
        let opts = EngineOptions { threads: 2, ..Default::default() };
        lockstep(&[a, b], &opts, &Silent, |rows| {
            let (ra, rb) = (&rows[0], &rows[1]);
            assert_eq!(ra.y + 1, rb.y);
            for i in 0..ra.cells.len() {
                let (xa, ya) = (3 + i, ra.y as usize);
                assert_eq!(ra.v(i), i64::from(va[ya * 63 + xa]));
                assert_eq!(rb.v(i), i64::from(vb[(ya + 1) * 64 + xa + 1]));
            }
            seen += 1;
            Ok::<(), Error>(())
        })
        .unwrap();
        assert_eq!(seen, 40);
    }
}
