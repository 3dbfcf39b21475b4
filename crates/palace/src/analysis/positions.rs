//! The P-positions (palaces) of a game as a list, row by row, and the exact-k-cover check.
//!
//! A row, column or diagonal holds at most `k` palaces (`docs/rule.md`, "Sizes"): the cell after
//! the `k`-th sees `k` palaces on that line alone. Larsson's exact-k-cover property says each
//! holds exactly `k`. [`positions`] finds the palaces of rows `0..rows` of a board wide enough
//! to hold them, by the line counter ([`crate::engine::lines`], which tests only the cells that
//! could still be palaces) or by the tiled sweep of the CA (every cell: the check of the
//! other), hands every palace `(x, y)` to the caller in order of `y`, then `x`, and counts per row,
//! column and diagonal: a row with fewer than `k` palaces is reported (it would be an exception
//! to the property, or a sign that the board was too narrow), and the columns and diagonals that
//! reached `k` within the rows are counted. More than `k` on a line cannot happen; it would stop
//! the run as a bug.
//!
//! ```
//! use palace::analysis::positions::{positions, Method};
//! use palace::engine::{EngineOptions, Silent};
//!
//! let mut found = Vec::new();
//! let report = positions(2, 6, None, Method::Lines, &EngineOptions::default(), &mut |x, y| {
//!     found.push((x, y));
//!     Ok(())
//! }, &Silent)?;
//! assert_eq!(&found[..3], &[(0, 0), (1, 0), (0, 1)]);
//! assert_eq!(report.positions, 12); // two in each of six rows
//! # Ok::<(), palace::Error>(())
//! ```

use crate::engine::lines::LineCounter;
use crate::engine::sink::{Row, RowSink};
use crate::engine::{EngineOptions, PalaceTile, PalaceVisitor, Progress, Sweep, SweepReport, TileKind};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::model::rule::{hood_value, in_hood};
use serde::Serialize;
use std::fmt;

/// How [`positions`] finds the palaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The line counter ([`crate::engine::lines`]): it tests only the cells that could still be
    /// palaces, on one thread; `k <= 255`.
    Lines,
    /// The tiled sweep of the CA: every cell of the board, on the engine's threads.
    Sweep,
}

impl Method {
    /// The method for game `k` when none is asked for: the line counter where it applies.
    pub fn default_for(k: u32) -> Method {
        if k <= crate::engine::lines::MAX_K { Method::Lines } else { Method::Sweep }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Lines => "line counter",
            Method::Sweep => "tiled sweep",
        })
    }
}

/// What [`positions`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionsReport {
    /// The game.
    pub k: u32,
    /// Rows listed: `0..rows`.
    pub rows: u32,
    /// The board's columns: `0..width`.
    pub width: u32,
    /// How the palaces were found.
    pub method: Method,
    /// Cells whose palace number was computed: every cell of the board for the sweep, far
    /// fewer for the line counter.
    pub cells_computed: u64,
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
            "k = {}, rows 0..{} (columns 0..{}; {}, {} cells computed): {} P-positions, the last column used {}",
            self.k,
            self.rows,
            self.width,
            self.method,
            self.cells_computed,
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

/// The bytes [`positions`] holds for a board of `rows` rows and `width` columns, beyond what
/// `emit` keeps: per column and per diagonal a count (a byte for the line counter, four for
/// the sweep, whose bands come on top).
pub fn count_bytes(method: Method, rows: u32, width: u32) -> u64 {
    let lines = 2 * u64::from(width) + u64::from(rows);
    match method {
        // The counts and their index: two least counts a block of 64 (a thirty-second more)
        // and a mask of 64 bits (an eighth more).
        Method::Lines => lines + lines / 32 + lines / 8 + 256,
        Method::Sweep => 4 * lines,
    }
}

/// Takes the palaces row by row, hands them on and counts them per row, column and diagonal.
struct Lister<'a> {
    k: u32,
    rows: u32,
    emit: &'a mut dyn FnMut(u32, u32) -> Result<()>,
    /// P-positions per column, and per diagonal `x - y + rows` (the sweep's; the line counter
    /// keeps its own).
    counts: Option<(Vec<u32>, Vec<u32>)>,
    /// The palaces of the row being read.
    row: Vec<u32>,
    report: PositionsReport,
}

impl<'a> Lister<'a> {
    fn new(
        k: u32,
        rows: u32,
        width: u32,
        method: Method,
        emit: &'a mut dyn FnMut(u32, u32) -> Result<()>,
    ) -> Self {
        Lister {
            k,
            rows,
            emit,
            // The sweep's counts; the line counter keeps its own.
            counts: (method == Method::Sweep)
                .then(|| (vec![0; width as usize], vec![0; width as usize + rows as usize])),
            row: Vec::new(),
            report: PositionsReport {
                k,
                rows,
                width,
                method,
                cells_computed: 0,
                positions: 0,
                full_rows: 0,
                first_short_row: None,
                max_x: None,
                full_columns: 0,
                full_diagonals: 0,
                most_on_a_diagonal: 0,
            },
        }
    }

    /// Takes row `y`'s palaces, `self.row`, in order.
    fn take_row(&mut self, y: u32) -> Result<()> {
        let k = self.k;
        let n = self.row.len() as u32;
        for &x in &self.row {
            (self.emit)(x, y)?;
            if let Some((columns, diagonals)) = &mut self.counts {
                let d = (u64::from(x) + u64::from(self.rows) - u64::from(y)) as usize;
                for (count, line) in [(&mut columns[x as usize], "column"), (&mut diagonals[d], "diagonal")] {
                    *count += 1;
                    if *count > k {
                        return Err(Error::Mismatch(format!(
                            "the {line} through ({x}, {y}) holds more than k = {k} palaces"
                        )));
                    }
                }
            }
        }
        if let Some(&x) = self.row.last() {
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

    /// Counts the full columns and diagonals from the sweep's counts.
    fn finish_counted(&mut self) -> Result<()> {
        let (columns, diagonals) = self.counts.take().expect("the sweep's counts");
        self.finish(&columns, &diagonals)
    }

    /// Counts the full columns and diagonals.
    fn finish<T: Copy + Into<u32>>(&mut self, columns: &[T], diagonals: &[T]) -> Result<()> {
        let k = self.k;
        let most = |v: &[T]| v.iter().map(|&c| c.into()).max().unwrap_or(0);
        if most(columns) > k || most(diagonals) > k {
            return Err(Error::Mismatch(format!("a line holds more than k = {k} palaces")));
        }
        let full = |v: &[T]| v.iter().filter(|&&c| c.into() == k).count() as u64;
        self.report.full_columns = full(columns);
        self.report.full_diagonals = full(diagonals);
        self.report.most_on_a_diagonal = most(diagonals);
        Ok(())
    }
}

impl RowSink for Lister<'_> {
    type Error = crate::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.row.clear();
        // Hood cells hold a negative stand-in: every palace is negative.
        let x0 = row.x0;
        self.row.extend(row.cells.iter().enumerate().filter(|(_, c)| **c < 0).map(|(i, _)| x0 + i as u32));
        self.take_row(row.y)
    }
}

/// Lists the P-positions of rows `0..rows` of game `k` on columns `0..width` (default
/// [`default_width`]) by `method`: `emit(x, y)` receives each, in order of `y`, then `x`.
/// Memory grows with the width and the rows ([`count_bytes`]), not with the positions. The
/// line counter refuses `k > 255` ([`crate::engine::lines::MAX_K`]).
pub fn positions(
    k: u32,
    rows: u32,
    width: Option<u32>,
    method: Method,
    opts: &EngineOptions,
    emit: &mut dyn FnMut(u32, u32) -> Result<()>,
    progress: &dyn Progress,
) -> Result<PositionsReport> {
    let width = board_width(k, rows, width)?;
    let mut lister = Lister::new(k, rows, width, method, emit);
    match method {
        Method::Lines => {
            let mut lines = LineCounter::new(k, rows, width)?;
            progress.set_length(u64::from(rows));
            for y in 0..rows {
                if y % 1024 == 0 {
                    opts.cancel.check()?;
                    progress.set_position(u64::from(y));
                }
                lines.next_row(&mut lister.row);
                lister.take_row(y)?;
            }
            progress.set_position(u64::from(rows));
            lister.report.cells_computed = lines.tested();
            lister.finish(lines.columns(), lines.diagonals())?;
        }
        Method::Sweep => {
            let sweep = Sweep::new(k, Window::new(0, 0, width, rows)?)
                .options(opts)
                .progress(progress)
                .rows(&mut lister)?;
            lister.report.cells_computed = sweep.region_cells;
            lister.finish_counted()?;
        }
    }
    Ok(lister.report)
}

/// The board's width for [`positions`]: `width`, or [`default_width`]; an empty board is
/// refused.
fn board_width(k: u32, rows: u32, width: Option<u32>) -> Result<u32> {
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
    Ok(width)
}

/// What takes a batch of palaces `(x, y)` and the rows now complete.
#[cfg(feature = "gpu")]
pub(crate) type TakeBatch<'a> = dyn FnMut(Vec<(u32, u32)>, u32) -> Result<()> + 'a;

/// [`positions`] by a tiled sweep on another engine (the GPU backend's): `sweep(width, take)`
/// computes the board `[0, width) x [0, rows)` and hands `take` its palaces `(x, y)` in
/// batches, in any order, each with the rows all of whose palaces have been handed over;
/// it returns the cells of the board it determined. The report and the order of `emit` are
/// those of [`Method::Sweep`]. Besides the counts, it holds the palaces of the rows not yet
/// done (4 bytes each) and 24 bytes a row.
#[cfg(feature = "gpu")]
pub(crate) fn positions_by_batches(
    k: u32,
    rows: u32,
    width: Option<u32>,
    emit: &mut dyn FnMut(u32, u32) -> Result<()>,
    sweep: &mut dyn FnMut(u32, &mut TakeBatch<'_>) -> Result<u64>,
) -> Result<PositionsReport> {
    let width = board_width(k, rows, width)?;
    let mut lister = Lister::new(k, rows, width, Method::Sweep, emit);
    let mut by_row: Vec<Vec<u32>> = vec![Vec::new(); rows as usize];
    let mut next = 0u32;
    let mut take = |palaces: Vec<(u32, u32)>, done: u32| -> Result<()> {
        for (x, y) in palaces {
            if y < next || y >= rows || x >= width {
                return Err(Error::Mismatch(format!(
                    "the sweep handed over the palace ({x}, {y}) of a row already done or off the board"
                )));
            }
            by_row[y as usize].push(x);
        }
        while next < done.min(rows) {
            let mut row = std::mem::take(&mut by_row[next as usize]);
            row.sort_unstable();
            lister.row = row;
            lister.take_row(next)?;
            next += 1;
        }
        Ok(())
    };
    let cells = sweep(width, &mut take)?;
    if next < rows {
        return Err(Error::Mismatch(format!("the sweep ended with rows {next}..{rows} not done")));
    }
    lister.report.cells_computed = cells;
    lister.finish_counted()?;
    Ok(lister.report)
}

/// The palace number `N` of the cell `(x, y)` of game `k`, computed by sweeping only the
/// rectangle `[0, x] x [0, y]` it depends on, in the three-counter form ([`Sweep::palaces`]):
/// the counters of every tile but the cell's, whose values alone are computed. The cost is
/// that of `stats --palaces-only` on the rectangle; memory a few bytes per column.
pub fn cell(
    k: u32,
    x: u32,
    y: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(i64, SweepReport)> {
    /// Asks for the values of the one tile that holds the cell, and reads its value there.
    struct One {
        x: u32,
        y: u32,
        v: std::sync::Mutex<Option<i64>>,
    }
    impl PalaceVisitor for One {
        fn visit(&self, _worker: usize, tile: &PalaceTile<'_>) {
            let Some(view) = &tile.values else { return };
            if !(view.x0..view.x1).contains(&self.x) || !(view.y0..view.y1).contains(&self.y) {
                return;
            }
            let (x, y) = (u64::from(self.x), u64::from(self.y));
            let v = match view.kind {
                TileKind::Zero => 0,
                _ if in_hood(view.k, x, y) => hood_value(view.k, x, y),
                TileKind::Hood => unreachable!("a hood tile holds only hood cells"),
                TileKind::Cells { .. } => {
                    let row = view.row(self.y).expect("a tile of cells has rows");
                    i64::from(row[(self.x - view.x0) as usize])
                }
            };
            *self.v.lock().expect("one visit writes it") = Some(v);
        }

        fn wants_values(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> bool {
            (x0..x1).contains(&self.x) && (y0..y1).contains(&self.y)
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
    let one = One { x, y, v: std::sync::Mutex::new(None) };
    let report = Sweep::new(k, Window::new(0, 0, x1, y1)?).options(opts).progress(progress).palaces(&one)?;
    let v = one.v.into_inner().expect("no visit panicked").expect("the cell's tile is visited with values");
    Ok((v + i64::from(k), report))
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
            let mut reports = Vec::new();
            for method in [Method::Lines, Method::Sweep] {
                let mut got = Vec::new();
                let report = positions(
                    k,
                    rows,
                    Some(width),
                    method,
                    &EngineOptions::default(),
                    &mut |x, y| {
                        got.push((x, y));
                        Ok(())
                    },
                    &Silent,
                )
                .unwrap();
                assert_eq!(got, want, "k = {k}, {method}");
                assert_eq!(report.positions, want.len() as u64);
                // Each row holds exactly k on a board this wide.
                assert_eq!(report.first_short_row, None, "k = {k}");
                reports.push(report);
            }
            // The two methods agree on everything but how they worked.
            let [lines, sweep] = &mut reports[..] else { unreachable!() };
            assert!(lines.cells_computed < sweep.cells_computed);
            (lines.method, lines.cells_computed) = (sweep.method, sweep.cells_computed);
            assert_eq!(lines, sweep, "k = {k}");
            for &(x, y) in &[(0, 0), (k, 0), (3, 17), (159, 39), (77, 5)] {
                let (n, _) = cell(k, x, y, &EngineOptions::default(), &Silent).unwrap();
                assert_eq!(n, i64::from(direct[(y * width + x) as usize]), "k = {k} ({x}, {y})");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// One cell by the counter form equals the direct definition wherever the cell falls
        /// in its tile (first or last row or column, a tile of the hood's edge, a quiet one),
        /// for any tiling, thread count and counter kernel.
        #[test]
        fn a_cell_equals_the_definition_for_any_tiling(
            k in 1u32..60,
            x in 0u32..230,
            y in 0u32..170,
            tile in 2u32..70,
            band in 2u32..70,
            threads in 1usize..4,
            wide in proptest::bool::ANY,
        ) {
            let direct = direct_palace_numbers(k, 230, 170);
            let opts = EngineOptions {
                threads,
                tile_width: Some(tile),
                band_height: Some(band),
                kernel: if wide { crate::kernel::KernelChoice::Wide } else { crate::kernel::KernelChoice::Auto },
                ..Default::default()
            };
            let (n, report) = cell(k, x, y, &opts, &Silent).unwrap();
            proptest::prop_assert_eq!(n, i64::from(direct[(y * 230 + x) as usize]), "k = {} ({}, {})", k, x, y);
            proptest::prop_assert_eq!(report.region_cells, u64::from(x + 1) * u64::from(y + 1));
        }
    }

    #[test]
    fn the_line_counter_equals_the_sweep_for_every_small_game() {
        // Every k = 1..40 on 3000 rows of the default width: the same list and report.
        let rows = 3000;
        for k in 1..=40u32 {
            let mut lists = Vec::new();
            let mut reports = Vec::new();
            for method in [Method::Lines, Method::Sweep] {
                let mut got = Vec::new();
                let mut r = positions(
                    k,
                    rows,
                    None,
                    method,
                    &EngineOptions::default(),
                    &mut |x, y| {
                        got.push((x, y));
                        Ok(())
                    },
                    &Silent,
                )
                .unwrap();
                (r.method, r.cells_computed) = (Method::Lines, 0);
                lists.push(got);
                reports.push(r);
            }
            assert!(lists[0] == lists[1], "k = {k}: the lists differ");
            assert_eq!(reports[0], reports[1], "k = {k}");
            assert_eq!(reports[0].first_short_row, None, "k = {k}");
        }
    }

    #[test]
    fn a_board_too_narrow_shows_as_a_short_row() {
        for method in [Method::Lines, Method::Sweep] {
            let report =
                positions(3, 30, Some(12), method, &EngineOptions::default(), &mut |_, _| Ok(()), &Silent)
                    .unwrap();
            let (y, n) = report.first_short_row.expect("a short row");
            assert!(n < 3 && y < 30);
            assert!(report.full_rows < 30);
        }
    }

    #[test]
    fn the_line_counter_refuses_large_games_and_stops_when_cancelled() {
        let opts = EngineOptions::default();
        let e = positions(256, 10, None, Method::Lines, &opts, &mut |_, _| Ok(()), &Silent).unwrap_err();
        assert!(
            matches!(e, Error::Engine(crate::error::EngineError::InvalidArgument { argument: "k", .. })),
            "{e}"
        );
        assert_eq!(Method::default_for(255), Method::Lines);
        assert_eq!(Method::default_for(256), Method::Sweep);
        opts.cancel.cancel();
        let e = positions(7, 5000, None, Method::Lines, &opts, &mut |_, _| Ok(()), &Silent).unwrap_err();
        assert!(e.is_interrupted(), "{e}");
    }
}
