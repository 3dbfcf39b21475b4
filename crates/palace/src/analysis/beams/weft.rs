//! The weft between the centermost beams (paper §3.1: "often the centermost beams will
//! communicate with each other via the weft"): the values `v` of the rest's cells near the
//! diagonal, counted during the sweep by stretch of rows and distance from the diagonal, and
//! after it split into the cells between the upper and lower centermost beams and those
//! outside them (`docs/threads.md`, "The beams").

use super::track::Beam;
use serde::Serialize;

/// Every this many rows is counted.
pub const STEP: u32 = 4;

/// Rows of one stretch.
pub const BAND: u32 = 1024;

/// Columns of one bin of `x - y`.
pub const BIN: i64 = 32;

/// Cells with `|x - y|` below this are counted.
pub const REACH: i64 = 16384;

/// A cell counts as between or outside the beams when it lies this many columns clear of
/// their cells in its stretch of rows.
pub const MARGIN: i64 = 32;

/// Values counted: `v` from -4 to 11 (the ends taking all beyond them).
pub const VALUES: usize = 16;

const V_MIN: i64 = -4;

/// The counts of `v` by stretch of rows and bin of `x - y`.
#[derive(Debug, Clone, Default)]
pub struct WeftCounts {
    y0: u32,
    counts: Vec<[u64; VALUES]>,
}

const BINS: usize = (2 * REACH / BIN) as usize;

impl WeftCounts {
    /// Counts for rows from `y0` on.
    pub fn new(y0: u32) -> Self {
        WeftCounts { y0, counts: Vec::new() }
    }

    /// Whether row `y` is counted.
    pub(crate) fn counts_row(&self, y: u32) -> bool {
        y.is_multiple_of(STEP)
    }

    /// Counts the cell `(x, y)` of value `v`.
    pub fn add(&mut self, x: u32, y: u32, v: i8) {
        let off = i64::from(x) - i64::from(y);
        if off.abs() >= REACH || y < self.y0 {
            return;
        }
        let band = ((y - self.y0) / BAND) as usize;
        let at = band * BINS + ((off + REACH) / BIN) as usize;
        if self.counts.len() <= at {
            self.counts.resize((band + 1) * BINS, [0; VALUES]);
        }
        self.counts[at][slot(v)] += 1;
    }

    /// Counts the cells `(x, y)` for `x` in `xs` (all within [`REACH`] of the diagonal) where
    /// `rest(x)` holds, of values `cells[x]`: as [`WeftCounts::add`] on each, a bin of 32
    /// columns at a time.
    pub fn add_row(&mut self, y: u32, xs: std::ops::Range<u32>, cells: &[i8], rest: impl Fn(u32) -> bool) {
        if y < self.y0 {
            return;
        }
        let band = ((y - self.y0) / BAND) as usize;
        let mut x = xs.start;
        while x < xs.end {
            let off = i64::from(x) - i64::from(y);
            debug_assert!(off.abs() < REACH, "cell ({x}, {y}) within the weft's reach");
            let bin = ((off + REACH) / BIN) as usize;
            // The first column of the next bin.
            let end = (i64::from(y) + (bin as i64 + 1) * BIN - REACH).min(i64::from(xs.end)) as u32;
            let mut here = [0u64; VALUES];
            let mut any = false;
            for c in x..end {
                if rest(c) {
                    here[slot(cells[c as usize])] += 1;
                    any = true;
                }
            }
            if any {
                let at = band * BINS + bin;
                if self.counts.len() <= at {
                    self.counts.resize((band + 1) * BINS, [0; VALUES]);
                }
                for (t, h) in self.counts[at].iter_mut().zip(here) {
                    *t += h;
                }
            }
            x = end;
        }
    }
}

/// The entry of value `v` in a bin's counts.
fn slot(v: i8) -> usize {
    (i64::from(v) - V_MIN).clamp(0, VALUES as i64 - 1) as usize
}

/// The weft between two beams and outside them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WeftReport {
    /// Stretches of [`BAND`] rows in which both beams have cells.
    pub bands: usize,
    /// Cells counted between the beams, by `v` (the first entry `v <= -4`, the last `v >= 11`).
    pub between: Vec<(i64, u64)>,
    /// Cells counted outside them (within [`REACH`] of the diagonal).
    pub outside: Vec<(i64, u64)>,
}

/// The least and largest `x - y` of `beam`'s cells in each stretch of rows (by stretch).
fn spans(beam: &Beam, y0: u32) -> std::collections::BTreeMap<usize, (i64, i64)> {
    let mut m = std::collections::BTreeMap::new();
    for &(y, x) in beam.cells.iter().filter(|c| c.0 >= y0) {
        let off = i64::from(x) - i64::from(y);
        let e = m.entry(((y - y0) / BAND) as usize).or_insert((off, off));
        *e = (e.0.min(off), e.1.max(off));
    }
    m
}

impl WeftReport {
    /// Splits `counts` between the beams `upper` (above the diagonal) and `lower` and outside
    /// them, in the stretches of rows where both have cells: between means at least [`MARGIN`]
    /// columns inside the nearer cells of both in that stretch, outside at least as far beyond
    /// the further cells of either.
    pub fn new(counts: &WeftCounts, upper: &Beam, lower: &Beam) -> Self {
        let (up, low) = (spans(upper, counts.y0), spans(lower, counts.y0));
        let (mut between, mut outside) = ([0u64; VALUES], [0u64; VALUES]);
        let mut bands = 0;
        for (band, &(u_lo, u_hi)) in &up {
            let Some(&(l_lo, l_hi)) = low.get(band) else { continue };
            bands += 1;
            let Some(row) = counts.counts.get(band * BINS..(band + 1) * BINS) else { continue };
            for (i, c) in row.iter().enumerate() {
                let lo = i as i64 * BIN - REACH;
                let hi = lo + BIN;
                let target = if lo >= l_hi + MARGIN && hi <= u_lo - MARGIN {
                    &mut between
                } else if hi <= l_lo - MARGIN || lo >= u_hi + MARGIN {
                    &mut outside
                } else {
                    continue;
                };
                for (t, v) in target.iter_mut().zip(c) {
                    *t += v;
                }
            }
        }
        let list = |a: [u64; VALUES]| -> Vec<(i64, u64)> {
            a.iter().enumerate().filter(|p| *p.1 > 0).map(|(i, &n)| (i as i64 + V_MIN, n)).collect()
        };
        WeftReport { bands, between: list(between), outside: list(outside) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row at a time counts what cell by cell counts: rows in several stretches, from
    /// before `y0` on, with random values and cells of the rest, across the whole reach.
    #[test]
    fn rows_count_as_cells() {
        let mut state = 3u64;
        let mut rng = || crate::testing::splitmix64(&mut state);
        let (mut by_cell, mut by_row) = (WeftCounts::new(100), WeftCounts::new(100));
        for y in (0..5000u32).step_by(37) {
            let r = REACH as u32;
            let (lo, hi) = (y.saturating_sub(r - 1) + (rng() % 50) as u32, y + r - (rng() % 50) as u32);
            let width = (y + r) as usize;
            let cells: Vec<i8> = (0..width).map(|_| (rng() % 24) as i8 - 8).collect();
            let rest: Vec<bool> = (0..width).map(|_| rng() % 3 > 0 || y % 5 == 0).collect();
            let rest = |x: u32| rest[x as usize] && y % 7 != 3;
            for x in lo..hi {
                if rest(x) {
                    by_cell.add(x, y, cells[x as usize]);
                }
            }
            by_row.add_row(y, lo..hi, &cells, rest);
        }
        assert!(by_cell.counts.iter().flatten().sum::<u64>() > 0);
        assert_eq!(by_row.counts, by_cell.counts);
    }

    /// Two straight beams, at offsets `x - y` of 1200 and 700 on rows 0..2048 (the code
    /// does not ask which is above the diagonal): the cells between them (whole bins from 736
    /// to 1152, 32 clear of both) and outside count apart, by value.
    #[test]
    fn weft_between_and_outside() {
        let mut w = WeftCounts::new(0);
        for y in (0..2048u32).filter(|y| y % STEP == 0) {
            assert!(w.counts_row(y));
            for x in y + 100..y + 1800 {
                let off = i64::from(x) - i64::from(y);
                w.add(x, y, if (700..1200).contains(&off) { 2 } else { 1 });
            }
        }
        let beam = |off: u32| Beam {
            cells: (0..10).chain(1000..2048u32).map(|y| (y, y + off)).collect(),
            near: [0; 4],
            pieces: 1,
        };
        let r = WeftReport::new(&w, &beam(1200), &beam(700));
        assert_eq!(r.bands, 2);
        let rows = 2048 / u64::from(STEP);
        assert_eq!(r.between, [(2, rows * 13 * 32)]);
        // Outside: the bins ending at 668 = 700 - 32 or before, from the one of offsets 96..128
        // (cells from 100 on: 28) through 608..640 (16 more); and those starting at
        // 1232 = 1200 + 32 or after, 1248..1280 through 1760..1792 (17) and 1792..1800 (8).
        assert_eq!(r.outside, [(1, rows * (28 + 16 * 32 + 17 * 32 + 8))]);
    }
}
