//! The numbers measured on a beam (`docs/threads.md`, "The beams"): palaces per row, the slope
//! by least squares over the whole beam and over stretches of it, the exact period of its
//! column sequence, its step word's values and balance (a straight line of irrational slope
//! has a Sturmian step word: two adjacent values, balanced), the slope's continued fraction
//! and the nearest quadratic irrational. The fits, periods, continued fractions and quadratic
//! roots are those of the threads ([`crate::analysis::threads::fit`]).

use super::track::Beam;
use crate::analysis::threads::fit::{self, LineFit, NearPeriod, Period, QuadraticFit};
use crate::analysis::threads::trace::{Section, TAIL};
use crate::engine::Cancel;
use crate::error::Result;
use crate::model::geometry::Window;
use serde::Serialize;

/// Stretches the beam is cut into for the slope's spread.
pub const STRETCHES: usize = 8;

/// A stretch needs this many rows.
pub const MIN_STRETCH_ROWS: u32 = 128;

/// Largest period searched for (as for the threads).
pub const MAX_PERIOD: usize = TAIL / 3;

/// A period counts when the run shows it this many times.
pub const REPEATS: usize = 3;

/// The row measures (period, steps, balance) need a run of at least this many consecutive
/// rows with a cell.
pub const MIN_RUN: usize = 64;

/// Coefficient bound of the quadratic search (as for the threads).
pub const QUADRATIC_BOUND: i64 = 60;

/// One stretch of a beam.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stretch {
    /// First and last row.
    pub rows: (u32, u32),
    /// Cells.
    pub cells: usize,
    /// Slope in rows per column.
    pub slope: f64,
    /// Its standard error.
    pub stderr: f64,
}

/// The balance of a step word `d(i) = x(i + 1) - x(i)`: how far its window sums spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Balance {
    /// Distinct step values.
    pub values: usize,
    /// The largest spread, over all window lengths `n`, of the sums of `n` consecutive steps
    /// (`max_i (x(i + n) - x(i)) - min_i (x(i + n) - x(i))`): at most 1 for a balanced word.
    pub imbalance: i64,
    /// A window length where it is reached.
    pub at_length: usize,
    /// Two adjacent step values and an imbalance of at most 1: the step word of a digital
    /// straight line (a Sturmian word for an irrational slope).
    pub sturmian: bool,
}

/// The balance of the steps between consecutive entries of `x` (at least 2).
pub fn balance(x: &[i64]) -> Balance {
    let n = x.len();
    assert!(n >= 2, "a step word needs two cells");
    let mut steps: Vec<i64> = x.windows(2).map(|w| w[1] - w[0]).collect();
    steps.sort_unstable();
    steps.dedup();
    let (mut imbalance, mut at_length) = (0, 1);
    for len in 1..n {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for i in 0..n - len {
            let s = x[i + len] - x[i];
            lo = lo.min(s);
            hi = hi.max(s);
        }
        if hi - lo > imbalance {
            (imbalance, at_length) = (hi - lo, len);
        }
    }
    let adjacent = steps.len() == 2 && steps[1] - steps[0] == 1;
    Balance { values: steps.len(), imbalance, at_length, sturmian: adjacent && imbalance <= 1 }
}

/// One beam's measurements.
#[derive(Debug, Clone, Serialize)]
pub struct BeamSummary {
    /// Its number (the CSV's and the picture's).
    pub id: u32,
    /// Above (`upper`, `x > y`) or below (`lower`) the diagonal.
    pub half: &'static str,
    /// Pieces joined into it.
    pub pieces: u32,
    /// Its cells (at most one a row).
    pub cells: usize,
    /// First and last row.
    pub rows: (u32, u32),
    /// Its first cell `(x, y)`.
    pub start: (u32, u32),
    /// Its last cell `(x, y)`.
    pub end: (u32, u32),
    /// `x - y` at its first and last cell (how far from the diagonal).
    pub offset: (i64, i64),
    /// Whether its last cell lies at the window's right edge (within the tolerance) or bottom
    /// edge (within the gap): it runs out of the window rather than ending inside it.
    pub at_edge: bool,
    /// The median of `|x - y| / (x + y)` over its cells: its angle from the diagonal as seen
    /// from the corner; the centermost beams have the smallest.
    pub centre: f64,
    /// Cells per row from its first row to its last.
    pub per_row: f64,
    /// Rows followed by palaces within the tolerance of its line: 0, 1, 2, 3 or more.
    pub near: [u64; 4],
    /// Least squares `x = a + c y` over all its cells (`c`: columns per row).
    pub fit: Option<LineFit>,
    /// Its slope in rows per column, `1 / c`.
    pub slope: Option<f64>,
    /// The slope's standard error from the fit.
    pub slope_stderr: Option<f64>,
    /// The cells' distance from that line along the row: root mean square, least, largest.
    pub residual: Option<(f64, f64, f64)>,
    /// Its slope over [`STRETCHES`] consecutive stretches of equal rows.
    pub stretches: Vec<Stretch>,
    /// The stretches' slopes: least, largest and standard deviation.
    pub stretch_spread: Option<(f64, f64, f64)>,
    /// Its slope over the first half of its rows and over the second (where the stretches
    /// show a beam settling after its start, the second half's slope is the settled one).
    pub halves: Option<(Stretch, Stretch)>,
    /// Its longest run of consecutive rows with a cell: first row and rows.
    pub run: (u32, usize),
    /// The run's (last [`TAIL`] rows') exact period: `x(y + p) - x(y) = shift` for all its
    /// rows, shown [`REPEATS`] times, `p <= MAX_PERIOD`.
    pub period: Option<Period>,
    /// The run's best period allowing defects.
    pub near_period: Option<NearPeriod>,
    /// The run's steps `x(y + 1) - x(y)`: value and count, commonest first.
    pub steps: Vec<(i64, u64)>,
    /// The run's step word's balance.
    pub balance: Option<Balance>,
    /// The slope's uncertainty used below: the stretches' standard deviation, or twice the
    /// standard error where that is larger (or there are fewer than 2 stretches).
    pub uncertainty: Option<f64>,
    /// The slope's continued fraction: exact for a periodic run (its `p / shift`), else its
    /// terms while the convergent is further than the uncertainty.
    pub continued_fraction: Vec<i64>,
    /// The nearest quadratic irrational (coefficients up to [`QUADRATIC_BOUND`]; those within
    /// the uncertainty counted).
    pub quadratic: Option<QuadraticFit>,
}

fn points(cells: &[(u32, u32)]) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
    cells.iter().map(|&(y, x)| (f64::from(y), f64::from(x)))
}

/// Slope in rows per column and its standard error from a fit in columns per row.
fn slope_of(f: &LineFit) -> Option<(f64, f64)> {
    (f.per_line != 0.0).then(|| (1.0 / f.per_line, f.stderr / (f.per_line * f.per_line)))
}

/// The longest run of consecutive rows in `cells` (sorted by row): its index range.
fn longest_run(cells: &[(u32, u32)]) -> std::ops::Range<usize> {
    let (mut best, mut start) = (0..0, 0);
    for i in 0..cells.len() {
        if i > 0 && cells[i].0 != cells[i - 1].0 + 1 {
            start = i;
        }
        if i + 1 - start > best.len() {
            best = start..i + 1;
        }
    }
    best
}

impl BeamSummary {
    /// Measures `beam` (numbered `id`, in `half`) of `window`, traced with `gap` and
    /// `tolerance` (for [`BeamSummary::at_edge`]).
    pub fn of(beam: &Beam, id: u32, half: &'static str, window: Window, gap: u32, tolerance: u32) -> Self {
        Self::measure(beam, id, half, window, gap, tolerance, &Cancel::new())
            .expect("a fresh token is never cancelled")
    }

    /// [`BeamSummary::of`], stopped with
    /// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled
    /// (the search for the nearest quadratic irrational can take a second or more).
    pub fn measure(
        beam: &Beam,
        id: u32,
        half: &'static str,
        window: Window,
        gap: u32,
        tolerance: u32,
        cancel: &Cancel,
    ) -> Result<Self> {
        let cells = &beam.cells;
        let (first, last) = (cells[0], cells[cells.len() - 1]);
        let line = fit::fit_points(points(cells));
        let fit = line.map(|(f, _)| f);
        let (slope, stderr) = fit.as_ref().and_then(slope_of).unzip();
        let residual = line.map(|(f, a)| {
            let r: Vec<f64> = points(cells).map(|(y, x)| x - a - f.per_line * y).collect();
            let rms = (r.iter().map(|v| v * v).sum::<f64>() / r.len() as f64).sqrt();
            let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (rms, lo, hi)
        });
        let stretches = stretches(beam, STRETCHES);
        let halves = match stretches_of(beam, 2)[..] {
            [a, b] => Some((a, b)),
            _ => None,
        };
        let stretch_spread = (stretches.len() >= 2).then(|| {
            let s: Vec<f64> = stretches.iter().map(|s| s.slope).collect();
            let mean = s.iter().sum::<f64>() / s.len() as f64;
            let sd = (s.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (s.len() - 1) as f64).sqrt();
            (
                s.iter().copied().fold(f64::INFINITY, f64::min),
                s.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                sd,
            )
        });
        let run = longest_run(cells);
        let run_cells = &cells[run.clone()];
        let tail = &run_cells[run_cells.len().saturating_sub(TAIL)..];
        let (mut period, mut near_period, mut steps, mut bal) = (None, None, Vec::new(), None);
        if tail.len() >= MIN_RUN {
            let sections: Vec<Section> = tail
                .iter()
                .map(|&(y, x)| Section { y, first: x, last: x, count: 1, shape: 0, clear: true })
                .collect();
            period = fit::period(&sections, MAX_PERIOD, REPEATS);
            near_period = fit::fit_line(&sections)
                .and_then(|f| fit::near_period(&sections, f.per_line, MAX_PERIOD, REPEATS));
            let xs: Vec<i64> = tail.iter().map(|&(_, x)| i64::from(x)).collect();
            let mut count: std::collections::BTreeMap<i64, u64> = std::collections::BTreeMap::new();
            for w in xs.windows(2) {
                *count.entry(w[1] - w[0]).or_default() += 1;
            }
            steps = count.into_iter().collect();
            steps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            bal = Some(balance(&xs));
        }
        let uncertainty = stderr.map(|e| {
            let two = 2.0 * e;
            stretch_spread.map_or(two, |(_, _, sd)| sd.max(two))
        });
        let (continued_fraction, quadratic) = match (period, slope, uncertainty) {
            (Some(p), _, _) if p.shift != 0 => (fit::continued_fraction_exact(i64::from(p.p), p.shift), None),
            (_, Some(s), Some(u)) => (
                fit::continued_fraction(s, u, 24),
                fit::nearest_quadratic_until(s, QUADRATIC_BOUND, u, cancel)?,
            ),
            _ => (Vec::new(), None),
        };
        let off = |(y, x): (u32, u32)| i64::from(x) - i64::from(y);
        let mut centres: Vec<f64> = cells
            .iter()
            .map(|&(y, x)| (f64::from(x) - f64::from(y)).abs() / (f64::from(x) + f64::from(y)).max(1.0))
            .collect();
        centres.sort_by(f64::total_cmp);
        Ok(BeamSummary {
            id,
            half,
            pieces: beam.pieces,
            cells: cells.len(),
            rows: (first.0, last.0),
            start: (first.1, first.0),
            end: (last.1, last.0),
            offset: (off(first), off(last)),
            at_edge: last.1.saturating_add(tolerance) >= window.x1() - 1
                || last.0.saturating_add(gap) >= window.y1() - 1,
            centre: centres[centres.len() / 2],
            per_row: cells.len() as f64 / f64::from(beam.rows()),
            near: beam.near,
            fit,
            slope,
            slope_stderr: stderr,
            residual,
            stretches,
            stretch_spread,
            halves,
            run: (run_cells[0].0, run_cells.len()),
            period,
            near_period,
            steps,
            balance: bal,
            uncertainty,
            continued_fraction,
            quadratic,
        })
    }
}

/// The beam cut into `count` stretches of equal rows (fewer where a stretch would have fewer
/// than [`MIN_STRETCH_ROWS`] rows), each fitted alone.
fn stretches(beam: &Beam, count: usize) -> Vec<Stretch> {
    let rows = beam.rows();
    let n = (rows / MIN_STRETCH_ROWS).min(count as u32).max(1);
    stretches_of(beam, n as usize)
}

/// The beam cut into `n` stretches of equal rows, each fitted alone (those with fewer than 3
/// cells left out).
fn stretches_of(beam: &Beam, n: usize) -> Vec<Stretch> {
    let (rows, n) = (beam.rows(), n as u32);
    let first = beam.first_row();
    (0..n)
        .filter_map(|i| {
            let (lo, hi) = (first + rows * i / n, first + rows * (i + 1) / n);
            let a = beam.cells.partition_point(|c| c.0 < lo);
            let b = beam.cells.partition_point(|c| c.0 < hi);
            let part = &beam.cells[a..b];
            let (f, _) = fit::fit_points(points(part))?;
            let (slope, stderr) = slope_of(&f)?;
            Some(Stretch { rows: (lo, hi - 1), cells: part.len(), slope, stderr })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// floor(n alpha) for the golden ratio's 1/phi: a Sturmian word, balanced, two values.
    #[test]
    fn a_digital_line_is_balanced() {
        let alpha = (5f64.sqrt() - 1.0) / 2.0 + 2.0;
        let x: Vec<i64> = (0..3000).map(|n| (n as f64 * alpha).floor() as i64).collect();
        let b = balance(&x);
        assert_eq!((b.values, b.imbalance, b.sturmian), (2, 1, true), "{b:?}");
        // One cell moved by one column: unbalanced.
        let mut y = x.clone();
        y[1500] += 1;
        let b = balance(&y);
        assert!(!b.sturmian && b.imbalance >= 2, "{b:?}");
        // Steps 2 and 4 are not adjacent: balanced or not, no digital line of one cell a row.
        let z: Vec<i64> = (0..100).map(|n| 3 * n + if n % 2 == 0 { 0 } else { 1 }).collect();
        assert!(!balance(&z).sturmian);
    }

    /// A constant step is balanced with one value (a rational slope of whole columns).
    #[test]
    fn a_constant_step() {
        let b = balance(&[0, 2, 4, 6, 8]);
        assert_eq!((b.values, b.imbalance), (1, 0));
        assert!(!b.sturmian);
    }

    /// A beam repeating 5 columns every 2 rows (steps 2, 3) is periodic with p = 2, shift = 5:
    /// slope 2/5 exactly, continued fraction [0; 2, 2].
    #[test]
    fn a_periodic_beam() {
        let cells: Vec<(u32, u32)> =
            (0..2000u32).map(|y| (100 + y, 40 + 5 * (y / 2) + 2 * (y % 2))).collect();
        let beam = Beam { cells, near: [0; 4], pieces: 1 };
        let s = BeamSummary::of(&beam, 0, "upper", Window::new(0, 0, 4000, 2100).unwrap(), 64, 28);
        assert_eq!(s.period, Some(Period { p: 2, shift: 5 }));
        assert_eq!(s.continued_fraction, [0, 2, 2]);
        assert!((s.slope.unwrap() - 0.4).abs() < 1e-3, "{:?}", s.slope);
        assert!(s.balance.unwrap().sturmian);
        assert_eq!(s.run, (100, 2000));
        assert_eq!(s.stretches.len(), STRETCHES);
        let (a, b) = s.halves.unwrap();
        assert!((a.slope - 0.4).abs() < 1e-3 && (b.slope - 0.4).abs() < 1e-3, "{a:?} {b:?}");
        assert_eq!((a.rows, b.rows), ((100, 1099), (1100, 2099)));
        // It ends on row 2099, the window's last: at the edge.
        assert!(s.at_edge);
        let s = BeamSummary::of(&beam, 0, "upper", Window::new(0, 0, 6000, 3000).unwrap(), 64, 28);
        assert!(!s.at_edge);
    }
}
