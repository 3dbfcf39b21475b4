//! The skin's pattern of palace numbers `k - 2` and `k - 1` (paper §3.4), measured per level
//! from the columns' recorded patterns ([`super::SkinState::with_patterns`]).
//!
//! Two statements of §3.4 are checked here:
//!
//! * **Rotational symmetry** (claim 34 of `docs/paper-claims.md`): "this pattern is
//!   rotationally symmetric within each period (between the columns that produce the vertical
//!   lines)". For each pair of consecutive line columns `L1 < L2` of a level, the cells of the
//!   vertical runs of the columns strictly between them are turned a half turn about the
//!   period's centre, the point that takes the top of column `L1 + 1` to the bottom of column
//!   `L2 - 1`; the period's **shape** is symmetric when the turned cells are the same cells,
//!   its **values** when each turned cell also has the same value.
//! * **The expansion matrices** (claim 27): at each thickening every cell of the level-`n`
//!   pattern becomes a block of 2 or 3 columns by 2 or 3 rows, one of four matrices for `-2`
//!   and four for `-1`; "the widths are determined by the step pattern". A level-`n` period has
//!   `f(2n+3)` columns and the level-`(n+1)` step word `f(2n+3)` steps, so column `i` of the
//!   period becomes step `i` of level `n + 1`, of width 2 or 3. The check predicts each step of
//!   the measured level-`(n+1)` skin from the measured level-`n` column: the column's cells,
//!   top down, become blocks stacked top down, each the paper's matrix for the cell's value and
//!   the step's width, of a height 2 or 3 chosen (the paper fixes the heights only partly) so
//!   that the stack reproduces the step's cells if any choice does. The heights are chosen per
//!   column: the paper's further condition, that the blocks from one row share a row, is not
//!   imposed. The report counts, for the best of the `f(2n+3)` alignments of the period's
//!   columns to the steps, how many steps are reproduced exactly.

use super::state::{Column, fib};
use serde::Serialize;

/// The pattern measures of one level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatternMeasures {
    /// Periods examined: pairs of consecutive line columns (vertical thickness `f(2n) + 1`)
    /// within the level's longest stretch of regular columns.
    pub periods: u64,
    /// Of those, periods `f(2n+3)` columns long.
    pub full_periods: u64,
    /// Periods whose shape (the cells of the columns strictly between the lines) is symmetric
    /// under the half turn about its centre.
    pub symmetric_shape: u64,
    /// Periods whose values are symmetric too.
    pub symmetric_values: u64,
    /// Periods whose values are symmetric with `k - 2` and `k - 1` exchanged: the turned cell
    /// of a `-2` holds `-1` and the other way round.
    pub symmetric_exchanged: u64,
    /// Distinct patterns among the full periods (each column's top relative to the first
    /// column's, its thickness and its values).
    pub distinct_periods: u64,
    /// The expansion from the level below, if both were measured.
    pub expansion: Option<Expansion>,
}

/// The check of the expansion matrices from level `n - 1` to level `n`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expansion {
    /// The level expanded (`n - 1`).
    pub from: usize,
    /// Steps predicted: one level-`(n-1)` period, `f(2n+1)` columns.
    pub steps: u64,
    /// Steps whose cells the expansion reproduces exactly, for the best alignment.
    pub reproduced: u64,
    /// Of the steps, those holding a line column of level `n` (thickness `f(2n) + 1`).
    pub line_steps: u64,
    /// Of those, the ones reproduced.
    pub line_steps_reproduced: u64,
    /// The best alignment: the period's column that becomes the first step examined.
    pub alignment: u64,
}

/// A column's cells top down: `-2` or `-1` (a cell deeper than 63 rows reads as `-1`).
fn cells(c: &Column, pattern: u64) -> impl Iterator<Item = i8> + '_ {
    (0..c.vertical).map(move |j| if j < 64 && (pattern >> j) & 1 == 1 { -2 } else { -1 })
}

/// Whether the columns `[a, b]` (indices) form a pattern symmetric under the half turn:
/// `(shape, values, values with -2 and -1 exchanged)`.
fn half_turn(cols: &[Column], pats: &[u64], a: usize, b: usize) -> (bool, bool, bool) {
    let y = |i: usize| i64::from(cols[i].top);
    let centre = y(a) + y(b) + i64::from(cols[b].vertical) - 1;
    let (mut values, mut exchanged) = (true, true);
    for i in a..=b {
        let j = a + b - i;
        if cols[i].vertical != cols[j].vertical || y(i) + y(j) + i64::from(cols[j].vertical) - 1 != centre {
            return (false, false, false);
        }
        let mine: Vec<i8> = cells(&cols[i], pats[i]).collect();
        let theirs: Vec<i8> = cells(&cols[j], pats[j]).collect();
        values &= mine.iter().eq(theirs.iter().rev());
        exchanged &= mine.iter().copied().eq(theirs.iter().rev().map(|&v| -3 - v));
    }
    (true, values, exchanged)
}

/// The paper's expansion matrix for a cell of value `v` (`-2` or `-1`) of `h` rows and `w`
/// columns (2 or 3 each), rows top down (§3.4).
pub fn matrix(v: i8, h: usize, w: usize) -> Option<&'static [&'static [i8]]> {
    const A: [&[&[i8]]; 4] = [
        &[&[-2, -1], &[-2, -2]],
        &[&[-2, -2, -1], &[-2, -2, -2]],
        &[&[-1, -1], &[-2, -1], &[-2, -2]],
        &[&[-2, -2, -1], &[-2, -2, -2], &[-2, -1, -1]],
    ];
    const B: [&[&[i8]]; 4] = [
        &[&[-1, -1], &[-2, -1]],
        &[&[-2, -2, -1], &[-2, -1, -1]],
        &[&[-1, -1], &[-2, -1], &[-1, -1]],
        &[&[-2, -2, -1], &[-1, -1, -1], &[-2, -1, -1]],
    ];
    let i = match (h, w) {
        (2, 2) => 0,
        (2, 3) => 1,
        (3, 2) => 2,
        (3, 3) => 3,
        _ => return None,
    };
    match v {
        -2 => Some(A[i]),
        -1 => Some(B[i]),
        _ => None,
    }
}

/// Whether blocks for `cell` (top down), of heights 2 or 3, stacked, reproduce `step` (its
/// columns' cells top down, all from the same top row) over the rows all its columns have.
pub(crate) fn expands_to(cell: &[i8], step: &[Vec<i8>]) -> bool {
    let w = step.len();
    let height = step.iter().map(Vec::len).min().unwrap_or(0);
    // reach[r]: the blocks of the cells so far can cover rows [0, r) exactly.
    let mut reach = vec![false; height + 1];
    reach[0] = true;
    for &v in cell {
        let mut next = vec![false; height + 1];
        for r in (0..=height).filter(|&r| reach[r]) {
            for h in [2, 3] {
                let Some(m) = matrix(v, h, w) else { continue };
                if r + h <= height && (0..h).all(|dr| (0..w).all(|dc| step[dc][r + dr] == m[dr][dc])) {
                    next[r + h] = true;
                }
            }
        }
        reach = next;
    }
    reach[height]
}

/// The level's stretch of regular columns `[a, b)` (indices), its lines and periods.
fn lines(cols: &[Column], n: usize, (a, b): (usize, usize)) -> Vec<usize> {
    let line = fib(2 * n) as u32 + 1;
    (a..b).filter(|&i| cols[i].vertical == line).collect()
}

/// The pattern measures of level `n` over its regular stretch `core` (column indices), with
/// the level below (`below`: its `n - 1` and regular stretch) for the expansion check.
pub fn measure(
    cols: &[Column],
    pats: &[u64],
    n: usize,
    core: (usize, usize),
    below: Option<(usize, (usize, usize))>,
) -> PatternMeasures {
    let ls = lines(cols, n, core);
    let period = fib(2 * n + 3) as usize;
    let (mut periods, mut full, mut shape, mut values, mut exchanged) = (0, 0, 0, 0, 0);
    let mut distinct = std::collections::BTreeSet::new();
    for w in ls.windows(2) {
        let (l1, l2) = (w[0], w[1]);
        periods += 1;
        if l2 - l1 == period {
            full += 1;
            let t0 = i64::from(cols[l1].top);
            let key: Vec<(i64, u32, u64)> =
                (l1..l2).map(|i| (i64::from(cols[i].top) - t0, cols[i].vertical, pats[i])).collect();
            distinct.insert(key);
        }
        if l2 >= l1 + 2 {
            let (s, v, e) = half_turn(cols, pats, l1 + 1, l2 - 1);
            shape += u64::from(s);
            values += u64::from(v);
            exchanged += u64::from(e);
        }
    }
    let expansion = below.and_then(|(m, bcore)| expansion(cols, pats, m, bcore, n, core, &ls));
    PatternMeasures {
        periods,
        full_periods: full,
        symmetric_shape: shape,
        symmetric_values: values,
        symmetric_exchanged: exchanged,
        distinct_periods: distinct.len() as u64,
        expansion,
    }
}

/// The expansion check from level `m` (stretch `mcore`) to level `n = m + 1` (stretch
/// `core`, lines `ls`); `None` if either lacks a full period.
fn expansion(
    cols: &[Column],
    pats: &[u64],
    m: usize,
    mcore: (usize, usize),
    n: usize,
    core: (usize, usize),
    ls: &[usize],
) -> Option<Expansion> {
    let p = fib(2 * m + 3) as usize;
    let from = lines(cols, m, mcore).windows(2).find(|w| w[1] - w[0] == p)?[0];
    let column: Vec<Vec<i8>> = (from..from + p).map(|i| cells(&cols[i], pats[i]).collect()).collect();
    // The level-n steps: runs of equal tops over the stretch, whole runs only, from the first
    // line (a period examined from a line).
    let start = *ls.first()?;
    let mut steps: Vec<(usize, usize)> = Vec::new();
    let mut i = start;
    while i < core.1 {
        let mut j = i + 1;
        while j < core.1 && cols[j].top == cols[i].top {
            j += 1;
        }
        if j == core.1 {
            break;
        }
        steps.push((i, j));
        i = j;
    }
    // Steps from the first one that starts a run (the line may sit inside a step).
    let steps = steps.get(1..1 + p)?;
    let step_cells: Vec<Vec<Vec<i8>>> =
        steps.iter().map(|&(a, b)| (a..b).map(|i| cells(&cols[i], pats[i]).collect()).collect()).collect();
    debug_assert_eq!(super::state::step_word(n).len(), p, "one step per column of the period below");
    let line = fib(2 * n) as u32 + 1;
    let has_line: Vec<bool> = steps.iter().map(|&(a, b)| (a..b).any(|i| cols[i].vertical == line)).collect();
    let mut best: Option<Expansion> = None;
    for align in 0..p {
        let ok: Vec<bool> = step_cells
            .iter()
            .enumerate()
            .map(|(s, step)| expands_to(&column[(s + align) % p], step))
            .collect();
        let reproduced = ok.iter().filter(|&&o| o).count() as u64;
        if best.as_ref().is_none_or(|b| reproduced > b.reproduced) {
            best = Some(Expansion {
                from: m,
                steps: p as u64,
                reproduced,
                line_steps: has_line.iter().filter(|&&l| l).count() as u64,
                line_steps_reproduced: ok.iter().zip(&has_line).filter(|&(&o, &l)| o && l).count() as u64,
                alignment: align as u64,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_have_their_sizes_and_values() {
        for v in [-2i8, -1] {
            for h in [2, 3] {
                for w in [2, 3] {
                    let m = matrix(v, h, w).unwrap();
                    assert_eq!(m.len(), h);
                    assert!(m.iter().all(|r| r.len() == w && r.iter().all(|&x| x == -1 || x == -2)));
                }
            }
        }
        assert!(matrix(-3, 2, 2).is_none() && matrix(-1, 4, 2).is_none());
    }

    #[test]
    fn a_stack_of_blocks_is_found_and_a_wrong_one_refused() {
        // -2 then -1 with heights 3 and 2, width 2: the 3x2 block of -2 over the 2x2 block of -1.
        let col0 = vec![-1, -2, -2, -1, -2];
        let col1 = vec![-1, -1, -2, -1, -1];
        assert!(expands_to(&[-2, -1], &[col0.clone(), col1.clone()]));
        assert!(!expands_to(&[-1, -1], &[col0.clone(), col1.clone()]));
        assert!(!expands_to(&[-2], &[col0, col1]));
    }

    fn col(x: u64, top: u32, vertical: u32) -> Column {
        Column { x, top, top_v: -1, vertical, diagonal: 0 }
    }

    #[test]
    fn half_turns() {
        // Three columns descending by one row each, two cells each: symmetric in shape; values
        // -2,-1 | -1,-1 | -1,-2 are symmetric, -2,-1 | -1,-1 | -2,-1 are not.
        let cols = [col(0, 0, 2), col(1, 1, 2), col(2, 2, 2)];
        assert_eq!(half_turn(&cols, &[0b01, 0b00, 0b10], 0, 2), (true, true, false));
        assert_eq!(half_turn(&cols, &[0b01, 0b00, 0b01], 0, 2), (true, false, false));
        // -2,-1 | -2,-1 | -2,-1 turned is -1,-2 in every column: symmetric with -2 and -1
        // exchanged.
        assert_eq!(half_turn(&cols, &[0b01, 0b01, 0b01], 0, 2), (true, false, true));
        let skew = [col(0, 0, 2), col(1, 2, 2), col(2, 2, 2)];
        assert_eq!(half_turn(&skew, &[0, 0, 0], 0, 2), (false, false, false));
    }
}
