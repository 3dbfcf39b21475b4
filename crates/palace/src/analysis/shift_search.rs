//! `palace compare --search-shift R`: which shift and offset make a window of game `A` match
//! game `B` best. For every shift `(dx, dy)` within `R` of a centre (each coordinate; a shift
//! may be negative as long as the shifted window stays on the board, `x0 + dx >= 0`), the
//! offset `d` is the most common difference `N_B(x + dx, y + dy) - N_A(x, y)` over the window,
//! and the shift's score is how many cells have it. The paper's Fig. 3 says that windows by the
//! nose and by the shoulder of games 100 and 1000 are "identical, without any scaling factor"
//! (§3): the search finds where, and how identical.
//!
//! The scores of all the shifts searched give the level a window reaches by chance: their mean
//! and standard deviation are reported with the best, so that a best far above the rest (a
//! copy, as in Fig. 3) is told from the largest of many chance scores (two windows that share
//! only the distribution of their values). §4's question on the inner sectors is answered with
//! it (`docs/inner-sectors.md`).
//!
//! Plain by design: both windows are swept once with the engine into memory, then every shift
//! is scored cell by cell. The window and the search square are meant to be small (the
//! figure's windows are 100 x 100).

use crate::engine::sink::Collect;
use crate::engine::{EngineOptions, Progress, Sweep};
use crate::error::{Bound, Error, Param, ParameterError, Result};
use crate::labels::{self, Region};
use crate::model::geometry::{MAX_SIDE, Window};
use serde::Serialize;
use std::collections::HashMap;

/// One shift and its best offset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// The shift `(dx, dy)` from A's cell to B's.
    pub shift: (i64, i64),
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
    pub centre: (i64, i64),
    /// The search radius.
    pub radius: u32,
    /// Shifts scored.
    pub shifts: u64,
    /// The regions of game A whose cells are scored (`palace regions`' labels); empty when
    /// every cell of the window is.
    pub regions: Vec<Region>,
    /// Cells of the window scored.
    pub cells: u64,
    /// The mean of every scored shift's `fraction` (the level of chance, near the best when
    /// no shift stands out).
    pub mean_fraction: f64,
    /// Their standard deviation (over all the shifts, as a population).
    pub sd_fraction: f64,
    /// The best candidates, best first (ties: the smaller `|dx| + |dy|` first, then the
    /// smaller shift), at most five.
    pub best: Vec<Candidate>,
}

impl SearchReport {
    /// How many standard deviations the best fraction lies above the mean (0 when every shift
    /// scores alike).
    pub(crate) fn best_z(&self) -> f64 {
        let best = self.best.first().map_or(0.0, |c| c.fraction);
        if self.sd_fraction > 0.0 { (best - self.mean_fraction) / self.sd_fraction } else { 0.0 }
    }
}

/// Largest number of cell comparisons a search may take (window cells times shifts).
pub const MAX_WORK: u64 = 4_000_000_000;

/// Widest range of differences `N_B - N_A` counted in a flat table; wider ranges (windows
/// reaching into the hood, where N runs from 0 to k) are counted in a hash map.
const DENSE_RANGE: i64 = 1 << 16;

/// Searches the shifts within `radius` of `centre` for the one under which `window` of game
/// `a` best matches game `b`. Shifts that would put the window of game `b` left of column 0
/// or above row 0 are left out. With `only`, just the cells of the window that
/// [`labels::label`] puts in one of those regions of game `a` are scored (the search's
/// `--search-region`); game `a` must then leave room for `k + 3`, which the labels play.
#[allow(clippy::too_many_arguments)]
pub fn search(
    a: u32,
    b: u32,
    window: Window,
    centre: (i64, i64),
    radius: u32,
    only: Option<&[Region]>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<SearchReport> {
    let r = i64::from(radius);
    let side = i64::from(MAX_SIDE);
    if centre.0.abs() > side || centre.1.abs() > side {
        return Err(ParameterError::new(Param::Shift, centre)
            .bound(Bound::Between(-side, side))
            .text(format!(": a shift lies within {MAX_SIDE} (2^30) of 0; use a smaller shift"))
            .into());
    }
    // Every shift keeps the shifted window on the board: x0 + dx >= 0, y0 + dy >= 0.
    let (x_lo, y_lo) =
        ((centre.0 - r).max(-i64::from(window.x0())), (centre.1 - r).max(-i64::from(window.y0())));
    let (x_hi, y_hi) = (centre.0 + r, centre.1 + r);
    if x_lo > x_hi || y_lo > y_hi {
        return Err(ParameterError::new(Param::Shift, centre)
            .text(" ")
            .set(Param::ShiftRadius, radius.to_string())
            .text(": every shift searched moves the window ")
            .value(window)
            .text(" off the board (left of column 0 or above row 0); use a larger shift or radius")
            .into());
    }
    let shifts = (x_hi - x_lo + 1) as u64 * (y_hi - y_lo + 1) as u64;
    let cells = u64::from(window.width()) * u64::from(window.height());
    if shifts.saturating_mul(cells) > MAX_WORK {
        return Err(ParameterError::new(Param::ShiftRadius, radius)
            .text(format!(
                ": {shifts} shifts of a window of {cells} cells is more than {MAX_WORK} comparisons; use a smaller radius or window"
            ))
            .into());
    }
    let far =
        |v: u32, d: i64| {
            u32::try_from(i64::from(v) + d).ok().filter(|&s| s <= MAX_SIDE).ok_or_else(|| {
                Error::from(ParameterError::new(Param::ShiftRadius, radius).text(format!(
                    ": the shifted window reaches past {MAX_SIDE}; use a smaller radius or shift"
                )))
            })
        };
    let bw = Window::new(
        far(window.x0(), x_lo)?,
        far(window.y0(), y_lo)?,
        far(window.x1(), x_hi)?,
        far(window.y1(), y_hi)?,
    )?;
    let values = |k: u32, w: Window| -> Result<Vec<i64>> {
        let mut c = Collect::default();
        Sweep::new(k, w).options(opts).progress(progress).rows(&mut c)?;
        Ok(c.values.iter().map(|&v| v + i64::from(k)).collect())
    };
    let scored = match only {
        Some(set) => Some(scored_cells(a, window, set, opts, progress)?),
        None => None,
    };
    let na = values(a, window)?;
    let nb = values(b, bw)?;
    let (aw, bwid) = (window.width() as usize, bw.width() as usize);
    // Each scored cell of A: its N and the index of its partner in B's window at the smallest
    // shift (x_lo, y_lo); a shift adds one index offset to every partner.
    let pairs: Vec<(i64, usize)> = na
        .iter()
        .enumerate()
        .filter(|&(i, _)| scored.as_ref().is_none_or(|m| m[i]))
        .map(|(i, &p)| (p, (i / aw) * bwid + i % aw))
        .collect();
    let cells = pairs.len() as u64;
    if cells == 0 {
        return Err(ParameterError::about(Param::SearchRegions, names(only.unwrap_or_default()))
            .name(Param::SearchRegions)
            .text(": no cell of the window ")
            .value(window)
            .text(format!(" of game {a} lies in {}; use another window", names(only.unwrap_or_default())))
            .into());
    }
    let mut counter = Counter::new(&na, &nb);
    let mut all = Vec::with_capacity(shifts as usize);
    for dy in y_lo..=y_hi {
        for dx in x_lo..=x_hi {
            opts.cancel.check()?;
            let base = (dy - y_lo) as usize * bwid + (dx - x_lo) as usize;
            let (offset, matched) = counter.most_common(pairs.iter().map(|&(p, j)| nb[base + j] - p));
            all.push(Candidate { shift: (dx, dy), offset, matched, fraction: matched as f64 / cells as f64 });
        }
    }
    let n = all.len() as f64;
    let mean_fraction = all.iter().map(|c| c.fraction).sum::<f64>() / n;
    let sd_fraction = (all.iter().map(|c| (c.fraction - mean_fraction).powi(2)).sum::<f64>() / n).sqrt();
    all.sort_by_key(|c| (std::cmp::Reverse(c.matched), c.shift.0.abs() + c.shift.1.abs(), c.shift));
    all.truncate(5);
    Ok(SearchReport {
        a,
        b,
        window: [window.x0(), window.y0(), window.x1(), window.y1()],
        centre,
        radius,
        shifts,
        regions: only.map(<[Region]>::to_vec).unwrap_or_default(),
        cells,
        mean_fraction,
        sd_fraction,
        best: all,
    })
}

/// Which cells of `window` (row-major) game `k`'s region labels put in `set`.
fn scored_cells(
    k: u32,
    window: Window,
    set: &[Region],
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Vec<bool>> {
    let mut mask = Vec::with_capacity(window.width() as usize * window.height() as usize);
    labels::label(
        k,
        window,
        opts,
        progress,
        &[],
        |_| (),
        |row| {
            let labels = &row.labels[window.x0() as usize..window.x1() as usize];
            mask.extend(labels.iter().map(|r| set.contains(r)));
            Ok(())
        },
    )?;
    Ok(mask)
}

/// The regions' names, comma-separated.
fn names(set: &[Region]) -> String {
    set.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
}

/// Counts the differences `N_B - N_A` of one shift: in a flat table when the two windows'
/// values leave a narrow range of differences, else in a hash map. Both give the most common
/// difference, the smallest of equally common ones.
enum Counter {
    Dense { lo: i64, table: Vec<u64> },
    Sparse(HashMap<i64, u64>),
}

impl Counter {
    fn new(na: &[i64], nb: &[i64]) -> Self {
        let range = |v: &[i64]| (v.iter().copied().min().unwrap_or(0), v.iter().copied().max().unwrap_or(0));
        let ((a_lo, a_hi), (b_lo, b_hi)) = (range(na), range(nb));
        let (lo, hi) = (b_lo - a_hi, b_hi - a_lo);
        if hi - lo < DENSE_RANGE {
            Counter::Dense { lo, table: vec![0; (hi - lo + 1) as usize] }
        } else {
            Counter::Sparse(HashMap::new())
        }
    }

    /// The most common of the differences and its count.
    fn most_common(&mut self, diffs: impl Iterator<Item = i64>) -> (i64, u64) {
        match self {
            Counter::Dense { lo, table } => {
                table.fill(0);
                for d in diffs {
                    table[(d - *lo) as usize] += 1;
                }
                // The first of the largest counts: the smallest difference among ties.
                let (i, &n) = table
                    .iter()
                    .enumerate()
                    .fold((0, &0), |best, (i, n)| if n > best.1 { (i, n) } else { best });
                (*lo + i as i64, n)
            }
            Counter::Sparse(hist) => {
                hist.clear();
                for d in diffs {
                    *hist.entry(d).or_insert(0) += 1;
                }
                let (&offset, &matched) = hist
                    .iter()
                    .max_by_key(|&(&d, &n)| (n, std::cmp::Reverse(d)))
                    .expect("a window has cells");
                (offset, matched)
            }
        }
    }
}

impl std::fmt::Display for SearchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "window {x0},{y0},{x1},{y1} of game {} against game {}: {} shifts within {} of ({}, {}), {} cells each{}",
            self.a,
            self.b,
            self.shifts,
            self.radius,
            self.centre.0,
            self.centre.1,
            self.cells,
            if self.regions.is_empty() {
                String::new()
            } else {
                format!(" (those of {})", names(&self.regions))
            }
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
        writeln!(
            f,
            "over all {} shifts: mean {:.4}%, standard deviation {:.4}%; the best lies {:.1} standard deviations above the mean",
            self.shifts,
            100.0 * self.mean_fraction,
            100.0 * self.sd_fraction,
            self.best_z()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{Comparison, run};
    use crate::engine::Silent;
    use crate::model::reference::direct_values;

    /// Game 497 against 500 (the paper's Fig. 4: shift (1, 1), offset +3 in the hood, the
    /// épaulettes and the fabric) on a window of the hood's tip and the fabric: the search
    /// finds (1, 1) and +3, and its count is the one `palace compare` gives for that shift.
    #[test]
    fn finds_fig_4s_shift_and_agrees_with_compare() {
        let opts = EngineOptions::default();
        let w = Window::new(150, 150, 230, 230).unwrap();
        let r = search(497, 500, w, (3, 3), 3, None, &opts, &Silent).unwrap();
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
        let shift = (u32::try_from(other.shift.0).unwrap(), u32::try_from(other.shift.1).unwrap());
        let c = Comparison { a: 497, b: 500, shift, offset: other.offset };
        assert_eq!(run(c, w, 1, None, &opts, &Silent).unwrap().0.matched, other.matched);
    }

    /// A game against itself: shift (0, 0) and offset 0 match every cell, and no other shift
    /// within 4 of it, negative ones included, does (the window holds the hood's casing).
    #[test]
    fn a_game_matches_itself_only_in_place() {
        let w = Window::new(20, 20, 60, 60).unwrap();
        let r = search(90, 90, w, (0, 0), 4, None, &EngineOptions::default(), &Silent).unwrap();
        assert_eq!(r.shifts, 81, "negative shifts too: the window leaves room");
        assert_eq!((r.best[0].shift, r.best[0].offset, r.best[0].matched), ((0, 0), 0, 1600));
        assert!(r.best[1].matched < 1600);
    }

    /// The same pairs of cells from the other side: game 500 against 497 with the shift
    /// (-1, -1) and offset -3 is game 497's window moved by (-1, -1) against 500 with (1, 1)
    /// and +3, which `palace compare` counts.
    #[test]
    fn a_negative_shift_is_the_other_game_seen_from_the_first() {
        let opts = EngineOptions::default();
        let w = Window::new(151, 151, 231, 231).unwrap();
        let r = search(500, 497, w, (-3, -3), 3, None, &opts, &Silent).unwrap();
        assert_eq!(r.shifts, 49);
        assert_eq!((r.best[0].shift, r.best[0].offset), ((-1, -1), -3));
        let c = Comparison { a: 497, b: 500, shift: (1, 1), offset: 3 };
        let (report, _) = run(c, Window::new(150, 150, 230, 230).unwrap(), 1, None, &opts, &Silent).unwrap();
        assert_eq!(r.best[0].matched, report.matched);
    }

    /// The lower épaulette has the periods (5, 1) and (4, 3) (§3.2), so also (1, -2) and
    /// (2, -4), shifts with coordinates of both signs: a window inside it (k = 500) matches
    /// itself there on every cell, as at (0, 0), and at no other shift within 2 of (1, -2).
    #[test]
    fn the_lower_epaulettes_period_of_both_signs_is_found() {
        let w = Window::new(100, 300, 130, 330).unwrap();
        let r = search(500, 500, w, (1, -2), 2, None, &EngineOptions::default(), &Silent).unwrap();
        let full: Vec<_> = r.best.iter().filter(|c| c.matched == 900).map(|c| (c.shift, c.offset)).collect();
        assert_eq!(full, vec![((0, 0), 0), ((1, -2), 0), ((2, -4), 0)]);
    }

    /// Every field against a search done by hand on the direct definition of the game
    /// (`model::reference::direct_values`): each shift's most common difference `N_B - N_A`
    /// (the smallest among equals), the five best, and the mean and standard deviation of all
    /// the shifts' fractions; the window reaches into the hood, the centre has a negative
    /// coordinate and the shifts are cut at column 0.
    #[test]
    fn the_search_and_its_chance_level_agree_with_a_plain_count() {
        let (a, b, n) = (20u32, 23u32, 48usize);
        let (va, vb) = (direct_values(a, n, n), direct_values(b, n, n));
        let at = |v: &[i32], k: u32, x: i64, y: i64| i64::from(v[y as usize * n + x as usize]) + i64::from(k);
        let w = Window::new(3, 10, 19, 22).unwrap();
        let hood = |x: u32, y: u32| x.max(y) + 2 * x.min(y) < a;
        for only in [None, Some(&[Region::Hood][..])] {
            let r = search(a, b, w, (-2, 4), 6, only, &EngineOptions::default(), &Silent).unwrap();
            let mut all = Vec::new();
            for dy in -2..=10i64 {
                for dx in -3..=4i64 {
                    let mut hist = std::collections::BTreeMap::new();
                    for y in w.y0()..w.y1() {
                        for x in w.x0()..w.x1() {
                            if only.is_some() && !hood(x, y) {
                                continue;
                            }
                            let (x, y) = (i64::from(x), i64::from(y));
                            *hist.entry(at(&vb, b, x + dx, y + dy) - at(&va, a, x, y)).or_insert(0u64) += 1;
                        }
                    }
                    let cells: u64 = hist.values().sum();
                    let top = *hist.values().max().unwrap();
                    let offset = *hist.iter().find(|&(_, &c)| c == top).unwrap().0;
                    all.push(((dx, dy), offset, top, top as f64 / cells as f64, cells));
                }
            }
            assert_eq!(r.shifts, all.len() as u64, "x from -3 (column 0), y from -2");
            assert_eq!(r.cells, all[0].4);
            assert_eq!(
                r.cells,
                if only.is_some() {
                    (w.x0()..w.x1())
                        .flat_map(|x| (w.y0()..w.y1()).map(move |y| (x, y)))
                        .filter(|&(x, y)| hood(x, y))
                        .count() as u64
                } else {
                    16 * 12
                }
            );
            let mean = all.iter().map(|c| c.3).sum::<f64>() / all.len() as f64;
            let sd = (all.iter().map(|c| (c.3 - mean).powi(2)).sum::<f64>() / all.len() as f64).sqrt();
            assert!((r.mean_fraction - mean).abs() < 1e-12 && (r.sd_fraction - sd).abs() < 1e-12);
            all.sort_by_key(|c| (std::cmp::Reverse(c.2), c.0.0.abs() + c.0.1.abs(), c.0));
            let want: Vec<_> = all[..5].iter().map(|c| (c.0, c.1, c.2)).collect();
            let got: Vec<_> = r.best.iter().map(|c| (c.shift, c.offset, c.matched)).collect();
            assert_eq!(got, want);
            assert!((r.best_z() - (all[0].3 - mean) / sd).abs() < 1e-9);
        }
    }

    /// The flat table and the hash map count alike, ties going to the smallest difference.
    #[test]
    fn both_counters_agree() {
        let diffs = [5i64, -3, 7, -3, 5, 2, 9, 2];
        let mut dense = Counter::Dense { lo: -3, table: vec![0; 13] };
        let mut sparse = Counter::Sparse(HashMap::new());
        assert_eq!(dense.most_common(diffs.iter().copied()), (-3, 2));
        assert_eq!(sparse.most_common(diffs.iter().copied()), (-3, 2));
        // A window reaching deep into the hood has differences too wide for the table.
        let (na, nb) = (vec![0i64, 1 << 20], vec![5i64, 7]);
        assert!(matches!(Counter::new(&na, &nb), Counter::Sparse(_)));
        assert!(matches!(Counter::new(&nb, &nb), Counter::Dense { .. }));
    }

    #[test]
    fn shifts_off_the_board_or_regions_without_cells_are_refused() {
        let opts = EngineOptions::default();
        let w = Window::new(10, 10, 20, 20).unwrap();
        let e = search(90, 90, w, (-40, 0), 5, None, &opts, &Silent).unwrap_err();
        let p = e.parameter().expect("a parameter error");
        assert_eq!((p.param, &p.value), (Param::Shift, &(-40i64, 0i64).into()), "{e}");
        assert!(p.params().contains(&Param::ShiftRadius) && e.to_string().contains("off the board"), "{e}");
        let e = search(90, 90, w, (0, 0), 1, Some(&[Region::InnerSector]), &opts, &Silent).unwrap_err();
        let p = e.parameter().expect("a parameter error");
        assert_eq!(p.param, Param::SearchRegions, "{e}");
        assert!(matches!(&p.value, crate::error::Value::Text(t) if t.contains("inner sector")), "{e}");
    }

    #[test]
    fn too_much_work_is_refused() {
        let w = Window::new(0, 0, 1000, 1000).unwrap();
        let e = search(90, 90, w, (5000, 5000), 1000, None, &EngineOptions::default(), &Silent).unwrap_err();
        let p = e.parameter().expect("a parameter error");
        assert_eq!((p.param, &p.value), (Param::ShiftRadius, &1000u32.into()), "{e}");
    }
}
