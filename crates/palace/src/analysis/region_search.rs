//! `palace compare --region-search R`: for each region of game `A`, the shift under which it
//! best matches game `B` with a fixed offset. The paper's §3.1 says that "the fray, warp,
//! central sector, armpits, and prism are all very sensitive to k, but all the other regions
//! are not, with the exception of the fabric and the rift, which are sensitive only to
//! k mod 3": a region that does not depend on k reappears in game `k + m` moved by a shift
//! that depends only on `m` (the nose moves by `m / 3` along the diagonal, the shoulders by
//! `m` along the borders), and since `v = N - k` is what such regions share, with the offset
//! `m`. A region that depends on k matches no shift better than chance.
//!
//! Every shift within `R` of a centre (each coordinate, shifts `>= 0`) is compared with
//! [`compare::run`], whose per-region counts use game `A`'s labels; for each region this keeps
//! the best shift (ties: the first in row-major order of the shifts, `dy` then `dx`) and the
//! fraction at the centre itself.

use crate::analysis::compare::{self, CompareReport, Comparison};
use crate::engine::{EngineOptions, Progress};
use crate::error::Result;
use crate::labels::{ALL, Region};
use crate::model::geometry::{MAX_SIDE, Window};
use serde::Serialize;

/// The largest search radius (a search runs `(2R + 1)^2` comparisons).
pub const MAX_RADIUS: u32 = 10;

/// One region's best shift.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegionBest {
    /// The region (of game A).
    pub region: Region,
    /// Its cells in the window.
    pub cells: u64,
    /// Cells matching at the centre shift.
    pub centre_matched: u64,
    /// `centre_matched / cells`.
    pub centre_fraction: f64,
    /// The shift with the most matching cells.
    pub best_shift: (u32, u32),
    /// Cells matching at that shift.
    pub best_matched: u64,
    /// `best_matched / cells`.
    pub best_fraction: f64,
}

/// The result of a search.
#[derive(Debug, Clone, Serialize)]
pub struct RegionSearchReport {
    /// Game A.
    pub a: u32,
    /// Game B.
    pub b: u32,
    /// The offset `d` in `N_B = N_A + d`, the same for every shift.
    pub offset: i64,
    /// The window of game A.
    pub window: [u32; 4],
    /// The centre of the search.
    pub centre: (u32, u32),
    /// The search radius.
    pub radius: u32,
    /// Shifts compared.
    pub shifts: u64,
    /// Per region of game A, in [`ALL`] order.
    pub per_region: Vec<RegionBest>,
}

/// The shifts within `radius` of `centre`, each coordinate `>= 0`, in row-major order.
pub fn shifts(centre: (u32, u32), radius: u32) -> Vec<(u32, u32)> {
    let span = |c: u32| c.saturating_sub(radius)..=c.saturating_add(radius);
    span(centre.1).flat_map(|dy| span(centre.0).map(move |dx| (dx, dy))).collect()
}

/// Compares `window` of game `c.a` with game `c.b` at every shift within `radius` of
/// `c.shift`, with offset `c.offset`, and keeps each region's best.
pub fn search(
    c: Comparison,
    window: Window,
    radius: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<RegionSearchReport> {
    if radius > MAX_RADIUS {
        return Err(crate::error::ParameterError::new(crate::error::Param::RegionRadius, radius)
            .bound(crate::error::Bound::AtMost(i64::from(MAX_RADIUS)))
            .text(format!(
                ": at most {MAX_RADIUS} ({} comparisons); use a smaller radius",
                (2 * u64::from(MAX_RADIUS) + 1).pow(2)
            ))
            .into());
    }
    let all = shifts(c.shift, radius);
    let (fx, fy) = (c.shift.0.saturating_add(radius), c.shift.1.saturating_add(radius));
    if u64::from(window.x1()) + u64::from(fx) > u64::from(MAX_SIDE)
        || u64::from(window.y1()) + u64::from(fy) > u64::from(MAX_SIDE)
    {
        return Err(crate::error::ParameterError::new(crate::error::Param::RegionRadius, radius)
            .text(format!(
                ": the shifted window reaches past the largest coordinate, {MAX_SIDE} (2^30); use a smaller radius or shift"
            ))
            .into());
    }
    let mut best: Vec<Option<RegionBest>> = vec![None; ALL.len()];
    for &shift in &all {
        let (r, _) = compare::run(Comparison { shift, ..c }, window, 1, None, opts, progress)?;
        keep_best(&mut best, &r, shift == c.shift);
    }
    Ok(RegionSearchReport {
        a: c.a,
        b: c.b,
        offset: c.offset,
        window: [window.x0(), window.y0(), window.x1(), window.y1()],
        centre: c.shift,
        radius,
        shifts: all.len() as u64,
        per_region: best.into_iter().map(|b| b.expect("one shift at least")).collect(),
    })
}

/// Folds one comparison into the per-region bests.
fn keep_best(best: &mut [Option<RegionBest>], r: &CompareReport, centre: bool) {
    for (slot, m) in best.iter_mut().zip(&r.per_region) {
        let b = slot.get_or_insert(RegionBest {
            region: m.region,
            cells: m.cells,
            centre_matched: 0,
            centre_fraction: 0.0,
            best_shift: r.shift,
            best_matched: m.matched,
            best_fraction: m.fraction,
        });
        if m.matched > b.best_matched {
            (b.best_shift, b.best_matched, b.best_fraction) = (r.shift, m.matched, m.fraction);
        }
        if centre {
            (b.centre_matched, b.centre_fraction) = (m.matched, m.fraction);
        }
    }
}

impl std::fmt::Display for RegionSearchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "window {x0},{y0},{x1},{y1} of game {} against game {}, offset {:+}: {} shifts within {} of ({}, {})",
            self.a, self.b, self.offset, self.shifts, self.radius, self.centre.0, self.centre.1
        )?;
        writeln!(
            f,
            "{:<22} {:>12} {:>10} {:>14} {:>10}",
            "region (of game A)", "cells", "at centre", "best shift", "best"
        )?;
        for r in &self.per_region {
            writeln!(
                f,
                "{:<22} {:>12} {:>9.4}% {:>14} {:>9.4}%",
                r.region.name(),
                r.cells,
                100.0 * r.centre_fraction,
                format!("({}, {})", r.best_shift.0, r.best_shift.1),
                100.0 * r.best_fraction
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;

    #[test]
    fn shifts_stay_non_negative_in_row_major_order() {
        assert_eq!(shifts((0, 1), 1), vec![(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
        assert_eq!(shifts((5, 5), 0), vec![(5, 5)]);
        assert_eq!(shifts((3, 3), 2).len(), 25);
    }

    #[test]
    fn too_large_a_radius_is_refused() {
        let c = Comparison { a: 9, b: 9, shift: (0, 0), offset: 0 };
        let e =
            search(c, Window::new(0, 0, 30, 30).unwrap(), MAX_RADIUS + 1, &EngineOptions::default(), &Silent)
                .unwrap_err();
        let p = e.parameter().expect("a parameter error");
        assert_eq!((p.param, &p.value), (crate::error::Param::RegionRadius, &11u32.into()), "{e}");
    }
}
