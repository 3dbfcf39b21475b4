//! `palace compare --search-shift R`: which shift and offset make a window of game `A` match
//! game `B` best. For every shift `(dx, dy)` within `R` of a centre (each coordinate, shifts
//! `>= 0`), the offset `d` is the most common difference `N_B(x + dx, y + dy) - N_A(x, y)`
//! over the window, and the shift's score is how many cells have it. The paper's Fig. 3 says
//! that windows by the nose and by the shoulder of games 100 and 1000 are "identical, without
//! any scaling factor" (§3): the search finds where, and how identical.
//!
//! Plain by design: both windows are swept once with the engine into memory, then every shift
//! is scored cell by cell. The window and the search square are meant to be small (the
//! figure's windows are 100 x 100).

use crate::engine::sink::Collect;
use crate::engine::{EngineOptions, Progress, sweep};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use serde::Serialize;
use std::collections::HashMap;

/// One shift and its best offset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// The shift `(dx, dy)` from A's cell to B's.
    pub shift: (u32, u32),
    /// The most common `N_B - N_A` under this shift.
    pub offset: i64,
    /// Cells with that difference.
    pub matched: u64,
    /// `matched` over the window's cells.
    pub fraction: f64,
}

/// The result of a search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// Game A.
    pub a: u32,
    /// Game B.
    pub b: u32,
    /// The window of game A.
    pub window: [u32; 4],
    /// The centre of the search.
    pub centre: (u32, u32),
    /// The search radius.
    pub radius: u32,
    /// Shifts scored.
    pub shifts: u64,
    /// Cells of the window.
    pub cells: u64,
    /// The best candidates, best first (ties: the smaller shift first), at most five.
    pub best: Vec<Candidate>,
}

/// Largest number of cell comparisons a search may take (window cells times shifts).
pub const MAX_WORK: u64 = 4_000_000_000;

/// Searches the shifts within `radius` of `centre` for the one under which `window` of game
/// `a` best matches game `b`.
pub fn search(
    a: u32,
    b: u32,
    window: Window,
    centre: (u32, u32),
    radius: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<SearchReport> {
    let (x_lo, y_lo) = (centre.0.saturating_sub(radius), centre.1.saturating_sub(radius));
    let (x_hi, y_hi) = (centre.0.saturating_add(radius), centre.1.saturating_add(radius));
    let shifts = u64::from(x_hi - x_lo + 1) * u64::from(y_hi - y_lo + 1);
    let cells = u64::from(window.width()) * u64::from(window.height());
    if shifts.saturating_mul(cells) > MAX_WORK {
        return Err(Error::Usage(format!(
            "--search-shift {radius}: {shifts} shifts of a window of {cells} cells is more than {MAX_WORK} comparisons; use a smaller radius or window"
        )));
    }
    let far = |v: u32, d: u32| {
        v.checked_add(d).filter(|&s| s <= crate::model::geometry::MAX_SIDE).ok_or_else(|| {
            Error::Usage(format!(
                "--search-shift {radius}: the shifted window reaches past {}; use a smaller radius or shift",
                crate::model::geometry::MAX_SIDE
            ))
        })
    };
    let bw = Window::new(window.x0 + x_lo, window.y0 + y_lo, far(window.x1, x_hi)?, far(window.y1, y_hi)?);
    let values = |k: u32, w: Window| -> Result<Vec<i64>> {
        let mut c = Collect::default();
        sweep(k, w, opts, &mut c, progress)?;
        Ok(c.values.iter().map(|&v| v + i64::from(k)).collect())
    };
    let na = values(a, window)?;
    let nb = values(b, bw)?;
    let (aw, bwid) = (window.width() as usize, bw.width() as usize);
    let mut all = Vec::with_capacity(shifts as usize);
    let mut hist: HashMap<i64, u64> = HashMap::new();
    for dy in y_lo..=y_hi {
        for dx in x_lo..=x_hi {
            if opts.cancel.is_cancelled() {
                return Err(Error::Interrupted);
            }
            hist.clear();
            let (ox, oy) = ((dx - x_lo) as usize, (dy - y_lo) as usize);
            for (j, row) in na.chunks_exact(aw).enumerate() {
                let brow = &nb[(j + oy) * bwid + ox..][..aw];
                for (&p, &q) in row.iter().zip(brow) {
                    *hist.entry(q - p).or_insert(0) += 1;
                }
            }
            let (&offset, &matched) =
                hist.iter().max_by_key(|&(&d, &n)| (n, std::cmp::Reverse(d))).expect("a window has cells");
            all.push(Candidate { shift: (dx, dy), offset, matched, fraction: matched as f64 / cells as f64 });
        }
    }
    all.sort_by_key(|c| (std::cmp::Reverse(c.matched), c.shift.0 + c.shift.1, c.shift));
    all.truncate(5);
    Ok(SearchReport {
        a,
        b,
        window: [window.x0, window.y0, window.x1, window.y1],
        centre,
        radius,
        shifts,
        cells,
        best: all,
    })
}

impl std::fmt::Display for SearchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "window {x0},{y0},{x1},{y1} of game {} against game {}: {} shifts within {} of ({}, {}), {} cells each",
            self.a, self.b, self.shifts, self.radius, self.centre.0, self.centre.1, self.cells
        )?;
        writeln!(f, "{:>14} {:>8} {:>10} {:>10}", "shift", "offset", "match", "fraction")?;
        for c in &self.best {
            writeln!(
                f,
                "{:>14} {:>+8} {:>10} {:>9.4}%",
                format!("({}, {})", c.shift.0, c.shift.1),
                c.offset,
                c.matched,
                100.0 * c.fraction
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{Comparison, run};
    use crate::engine::Silent;

    /// Game 497 against 500 (the paper's Fig. 4: shift (1, 1), offset +3 in the hood, the
    /// épaulettes and the fabric) on a window of the hood's tip and the fabric: the search
    /// finds (1, 1) and +3, and its count is the one `palace compare` gives for that shift.
    #[test]
    fn finds_fig_4s_shift_and_agrees_with_compare() {
        let opts = EngineOptions::default();
        let w = Window::new(150, 150, 230, 230);
        let r = search(497, 500, w, (3, 3), 3, &opts, &Silent).unwrap();
        assert_eq!(r.shifts, 49);
        let best = &r.best[0];
        assert_eq!((best.shift, best.offset), ((1, 1), 3));
        assert!(r.best[1].matched < best.matched);
        let c = Comparison { a: 497, b: 500, shift: (1, 1), offset: 3 };
        let (report, _) = run(c, w, 1, None, &opts, &Silent).unwrap();
        assert_eq!(report.matched, best.matched);
        assert_eq!(report.cells, r.cells);
        // And a worse shift's score is compare's too, with its own best offset.
        let other = r.best.iter().find(|c| c.shift != (1, 1)).unwrap();
        let c = Comparison { a: 497, b: 500, shift: other.shift, offset: other.offset };
        assert_eq!(run(c, w, 1, None, &opts, &Silent).unwrap().0.matched, other.matched);
    }

    /// A game against itself: shift (0, 0) and offset 0 match every cell, and no other shift
    /// near it does (the window holds the hood's casing).
    #[test]
    fn a_game_matches_itself_only_in_place() {
        let w = Window::new(20, 20, 60, 60);
        let r = search(90, 90, w, (0, 0), 4, &EngineOptions::default(), &Silent).unwrap();
        assert_eq!(r.shifts, 25);
        assert_eq!((r.best[0].shift, r.best[0].offset, r.best[0].matched), ((0, 0), 0, 1600));
        assert!(r.best[1].matched < 1600);
    }

    #[test]
    fn too_much_work_is_refused() {
        let w = Window::new(0, 0, 1000, 1000);
        let e = search(90, 90, w, (5000, 5000), 1000, &EngineOptions::default(), &Silent).unwrap_err();
        assert!(e.to_string().contains("--search-shift 1000"));
    }
}
