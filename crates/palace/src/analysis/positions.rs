//! The P-positions (palaces) of a game as a list, row by row, and the exact-k-cover check.
//!
//! A row, column or diagonal holds at most `k` palaces (`docs/rule.md`, "Sizes"): the cell after
//! the `k`-th sees `k` palaces on that line alone. Larsson's exact-k-cover property says each
//! holds exactly `k`. [`positions`] sweeps rows `0..rows` of a board wide enough to hold them,
//! hands every palace `(x, y)` to the caller in order of `y`, then `x`, and counts per row,
//! column and diagonal: a row with fewer than `k` palaces is reported (it would be an exception
//! to the property, or a sign that the board was too narrow), and the columns and diagonals that
//! reached `k` within the rows are counted. More than `k` on a line cannot happen; it would stop
//! the run as a bug.
//!
//! ```
//! use palace::analysis::positions::positions;
//! use palace::engine::{EngineOptions, Silent};
//!
//! let mut found = Vec::new();
//! let report = positions(2, 6, None, &EngineOptions::default(), &mut |x, y| {
//!     found.push((x, y));
//!     Ok(())
//! }, &Silent)?;
//! assert_eq!(&found[..3], &[(0, 0), (1, 0), (0, 1)]);
//! assert_eq!(report.0.positions, 12); // two in each of six rows
//! # Ok::<(), palace::Error>(())
//! ```

use crate::engine::sink::{Row, RowSink};
use crate::engine::{EngineOptions, Progress, Sweep, SweepReport};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use serde::Serialize;
use std::fmt;

/// What [`positions`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionsReport {
    /// The game.
    pub k: u32,
    /// Rows listed: `0..rows`.
    pub rows: u32,
    /// Columns swept: `0..width`.
    pub width: u32,
    /// P-positions listed.
    pub positions: u64,
    /// Rows holding exactly `k`.
    pub full_rows: u64,
    /// The first row holding fewer than `k`, and how many it holds.
    pub first_short_row: Option<(u32, u32)>,
    /// The largest column of a listed P-position.
    pub max_x: Option<u32>,
    /// Columns that reached `k` P-positions within the rows.
    pub full_columns: u64,
    /// Diagonals `x - y` that reached `k` P-positions within the rows.
    pub full_diagonals: u64,
    /// The most P-positions on one diagonal within the rows.
    pub most_on_a_diagonal: u32,
}

impl fmt::Display for PositionsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "k = {}, rows 0..{} (columns 0..{} swept): {} P-positions, the last column used {}",
            self.k,
            self.rows,
            self.width,
            self.positions,
            self.max_x.map_or("-".into(), |x| x.to_string())
        )?;
        match self.first_short_row {
            None => writeln!(f, "every row holds exactly k = {} P-positions", self.k)?,
            Some((y, n)) => writeln!(
                f,
                "{} of {} rows hold exactly k = {}; row {y} is the first that holds fewer ({n})",
                self.full_rows, self.rows, self.k
            )?,
        }
        writeln!(
            f,
            "columns with k P-positions in these rows: {}; diagonals: {} (the most on one diagonal: {}; no line holds more than k)",
            self.full_columns, self.full_diagonals, self.most_on_a_diagonal
        )
    }
}

/// The width [`positions`] sweeps by default for `rows` rows of game `k`: `k + 3 rows`. The
/// P-positions of row `y` lie left of the arm, at `x < k + phi^2 y` (`phi^2 < 2.62`); a row
/// found short says so, and a wider board can be asked for.
pub fn default_width(k: u32, rows: u32) -> u64 {
    u64::from(k) + 3 * u64::from(rows)
}

struct Lister<'a> {
    k: u32,
    rows: u32,
    emit: &'a mut dyn FnMut(u32, u32) -> Result<()>,
    /// P-positions per column, and per diagonal `x - y + rows`.
    columns: Vec<u32>,
    diagonals: Vec<u32>,
    report: PositionsReport,
}

impl RowSink for Lister<'_> {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let (k, y) = (self.k, row.y);
        let mut n = 0u32;
        for (i, &c) in row.cells.iter().enumerate() {
            // Hood cells hold a negative stand-in: every palace is negative.
            if c >= 0 {
                continue;
            }
            let x = row.x0 + i as u32;
            (self.emit)(x, y)?;
            n += 1;
            let d = (u64::from(x) + u64::from(self.rows) - u64::from(y)) as usize;
            for (count, line) in
                [(&mut self.columns[x as usize], "column"), (&mut self.diagonals[d], "diagonal")]
            {
                *count += 1;
                if *count > k {
                    return Err(Error::Mismatch(format!(
                        "the {line} through ({x}, {y}) holds more than k = {k} palaces"
                    )));
                }
            }
            self.report.max_x = Some(self.report.max_x.map_or(x, |m| m.max(x)));
        }
        if n > k {
            return Err(Error::Mismatch(format!("row {y} holds {n} palaces, more than k = {k}")));
        }
        self.report.positions += u64::from(n);
        if n == k {
            self.report.full_rows += 1;
        } else if self.report.first_short_row.is_none() {
            self.report.first_short_row = Some((y, n));
        }
        Ok(())
    }
}

/// Lists the P-positions of rows `0..rows` of game `k`, sweeping columns `0..width` (default
/// [`default_width`]): `emit(x, y)` receives each, in order of `y`, then `x`. Memory grows with
/// the width only.
pub fn positions(
    k: u32,
    rows: u32,
    width: Option<u32>,
    opts: &EngineOptions,
    emit: &mut dyn FnMut(u32, u32) -> Result<()>,
    progress: &dyn Progress,
) -> Result<(PositionsReport, SweepReport)> {
    let width = match width {
        Some(w) => w,
        None => u32::try_from(default_width(k, rows)).map_err(|_| Error::InvalidArgument {
            function: "positions",
            argument: "rows",
            value: rows.to_string(),
            expected: "k + 3 rows must fit 32 bits; give a width",
        })?,
    };
    if rows == 0 || width == 0 {
        return Err(Error::InvalidArgument {
            function: "positions",
            argument: if rows == 0 { "rows" } else { "width" },
            value: "0".into(),
            expected: "at least 1",
        });
    }
    let mut lister = Lister {
        k,
        rows,
        emit,
        columns: vec![0; width as usize],
        diagonals: vec![0; width as usize + rows as usize],
        report: PositionsReport {
            k,
            rows,
            width,
            positions: 0,
            full_rows: 0,
            first_short_row: None,
            max_x: None,
            full_columns: 0,
            full_diagonals: 0,
            most_on_a_diagonal: 0,
        },
    };
    let sweep_report =
        Sweep::new(k, Window::new(0, 0, width, rows)).options(opts).progress(progress).rows(&mut lister)?;
    let full = |v: &[u32]| v.iter().filter(|&&c| c == k).count() as u64;
    lister.report.full_columns = full(&lister.columns);
    lister.report.full_diagonals = full(&lister.diagonals);
    lister.report.most_on_a_diagonal = lister.diagonals.iter().copied().max().unwrap_or(0);
    Ok((lister.report, sweep_report))
}

/// The palace number `N` of the cell `(x, y)` of game `k`, computed by sweeping only the
/// rectangle `[0, x] x [0, y]` it depends on.
pub fn cell(
    k: u32,
    x: u32,
    y: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(i64, SweepReport)> {
    struct One(Option<i64>);
    impl RowSink for One {
        fn row(&mut self, row: &Row<'_>) -> Result<()> {
            self.0 = Some(row.palace_number(0));
            Ok(())
        }
    }
    let (x1, y1) = (x.checked_add(1), y.checked_add(1));
    let (Some(x1), Some(y1)) = (x1, y1) else {
        return Err(Error::InvalidArgument {
            function: "cell",
            argument: "x, y",
            value: format!("({x}, {y})"),
            expected: "coordinates below 2^32 - 1",
        });
    };
    let mut one = One(None);
    let report = Sweep::new(k, Window::new(x, y, x1, y1)).options(opts).progress(progress).rows(&mut one)?;
    Ok((one.0.expect("the window's one row"), report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;
    use crate::model::reference::direct_palace_numbers;

    #[test]
    fn positions_and_cells_equal_the_direct_definition() {
        for k in [1, 2, 3, 5, 7, 20] {
            let (rows, width) = (40u32, 160u32);
            let direct = direct_palace_numbers(k, width as usize, rows as usize);
            let want: Vec<(u32, u32)> = (0..rows)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .filter(|&(x, y)| direct[(y * width + x) as usize] < k)
                .collect();
            let mut got = Vec::new();
            let (report, _) = positions(
                k,
                rows,
                Some(width),
                &EngineOptions::default(),
                &mut |x, y| {
                    got.push((x, y));
                    Ok(())
                },
                &Silent,
            )
            .unwrap();
            assert_eq!(got, want, "k = {k}");
            assert_eq!(report.positions, want.len() as u64);
            // Each row holds exactly k on a board this wide.
            assert_eq!(report.first_short_row, None, "k = {k}");
            for &(x, y) in &[(0, 0), (k, 0), (3, 17), (159, 39), (77, 5)] {
                let (n, _) = cell(k, x, y, &EngineOptions::default(), &Silent).unwrap();
                assert_eq!(n, i64::from(direct[(y * width + x) as usize]), "k = {k} ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_board_too_narrow_shows_as_a_short_row() {
        let (report, _) =
            positions(3, 30, Some(12), &EngineOptions::default(), &mut |_, _| Ok(()), &Silent).unwrap();
        let (y, n) = report.first_short_row.expect("a short row");
        assert!(n < 3 && y < 30);
        assert!(report.full_rows < 30);
    }
}
