//! The skin of the upper arm (paper §3.4) followed from the shoulder at `(k, 0)` to column `X`.
//!
//! Per column `x >= k`: the skin's **top** is the first row below outer space (the first cell
//! of the column that is not 0), its **vertical thickness** the number of palaces from there
//! down, its **diagonal thickness** the run of palaces from the top cell along (1, 1). Per row:
//! the **horizontal thickness** is the run of palaces left of the outer-space boundary.
//!
//! The paper: at level `n` the skin has vertical thickness `f(2n)` (`f(2n) + 1` in the column
//! where it emits a vertical line), diagonal thickness `f(2n+1)`, horizontal thickness
//! `f(2n+2)`, horizontal period `f(2n+3)` and vertical period `f(2n+1)` (Fibonacci,
//! `f(1) = f(2) = 1`); the outer boundary descends in steps of 2 and 3 columns whose pattern
//! expands by `2 -> 23, 3 -> 233` at each thickening, and the skin's slope tends to `1/phi^2`.
//! Levels n = 1, 2, 3 were seen, changing after about 200 and 7700 columns.
//!
//! The sweep covers only the band of rows the skin needs, `[0, X) x [0, Y)` with `Y` a little
//! more than `(X - k) / phi^2` (widened and retried if the skin reaches the bottom), and the
//! sink asks the engine for just the columns around the advancing outer-space boundary (it
//! advances about 2.6 columns per row; the sink fails loudly if it ever outruns the columns
//! asked for). Memory grows with `X` alone.

use crate::engine::Progress;
use crate::engine::sink::{Row, RowSink};
use crate::engine::{EngineOptions, SweepReport, sweep};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// How far left of the boundary rows are assembled: room for horizontal thicknesses up to
/// f(2n+2) = 2584 (level 8).
const HORIZONTAL_REACH: u64 = 4096;

/// `1 / phi^2`, the slope the skin approaches.
pub const INV_PHI2: f64 = 0.381_966_011_250_105_1;

/// Fibonacci numbers with `f(1) = f(2) = 1` (index 0 is 0).
pub fn fib(i: usize) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..i {
        (a, b) = (b, a + b);
    }
    a
}

/// The level `n` whose vertical thickness is `t`: `t = f(2n)` or `f(2n) + 1`, if any.
pub fn level_of_thickness(t: u32) -> Option<usize> {
    (1..30).find(|&n| u64::from(t) == fib(2 * n) || u64::from(t) == fib(2 * n) + 1)
}

/// The step word of level `n`: `2` expanded `n` times by `2 -> 23, 3 -> 233`.
pub fn step_word(n: usize) -> Vec<u8> {
    let mut w = vec![2u8];
    for _ in 0..n {
        w = w.iter().flat_map(|&s| if s == 2 { vec![2, 3] } else { vec![2, 3, 3] }).collect();
    }
    w
}

/// What the sweep saw in one column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The column.
    pub x: u64,
    /// Row of the first cell below outer space.
    pub top: u32,
    /// Its CA value (a palace is negative).
    pub top_v: i8,
    /// Palaces from the top cell down.
    pub vertical: u32,
    /// Palaces from the top cell along (1, 1).
    pub diagonal: u32,
}

/// Streams rows, following the skin.
struct SkinSink {
    k: u64,
    to: u64,
    /// First column still in outer space (all 0 from row 0), i.e. the boundary.
    boundary: u64,
    /// Columns `k..` done so far (their top found).
    cols: Vec<Column>,
    /// Columns whose vertical run is still growing.
    vertical_open: VecDeque<usize>,
    /// Diagonal runs still growing: (column index, current x).
    diagonal_open: Vec<(usize, u64)>,
    /// Horizontal thickness per row: (row, boundary column, run).
    horizontal: Vec<(u32, u64, u32)>,
    /// Rows seen.
    rows: u32,
}

impl SkinSink {
    fn new(k: u32, to: u64) -> Self {
        let k = u64::from(k);
        SkinSink {
            k,
            to,
            boundary: k,
            cols: Vec::new(),
            vertical_open: VecDeque::new(),
            diagonal_open: Vec::new(),
            horizontal: Vec::new(),
            rows: 0,
        }
    }

    /// Whether every column's skin has been measured completely.
    fn complete(&self) -> bool {
        self.boundary >= self.to && self.vertical_open.is_empty() && self.diagonal_open.is_empty()
    }
}

impl RowSink for SkinSink {
    fn columns(&mut self, _y0: u32, rows: u32) -> Option<(u32, u32)> {
        // Open runs lie left of the boundary. The boundary advances about 2.6 columns per row
        // (the skin's slope tends to 1/phi^2); leave room for four per row and more.
        let lo = self
            .vertical_open
            .front()
            .map(|&i| self.cols[i].x)
            .into_iter()
            .chain(self.diagonal_open.iter().map(|&(_, x)| x))
            .min()
            .unwrap_or(self.boundary)
            .min(self.boundary)
            .saturating_sub(HORIZONTAL_REACH);
        let hi = self.boundary + 4 * u64::from(rows) + HORIZONTAL_REACH;
        Some((lo.min(u64::from(u32::MAX)) as u32, hi.min(u64::from(u32::MAX)) as u32))
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let y = row.y;
        let x0 = u64::from(row.x0);
        let at =
            |x: u64| -> Option<i8> { x.checked_sub(x0).and_then(|i| row.cells.get(i as usize)).copied() };
        let palace = |x: u64| at(x).is_some_and(|v| v < 0);
        // Vertical runs.
        let mut still = VecDeque::with_capacity(self.vertical_open.len());
        for &i in &self.vertical_open {
            if palace(self.cols[i].x) {
                self.cols[i].vertical += 1;
                still.push_back(i);
            }
        }
        self.vertical_open = still;
        // Diagonal runs: the run of column i is at (x, y) this row.
        let cols = &mut self.cols;
        self.diagonal_open.retain_mut(|(i, x)| {
            *x += 1;
            if *x < self.to && palace(*x) {
                cols[*i].diagonal += 1;
                true
            } else {
                false
            }
        });
        // New tops: the boundary advances over the cells of this row that are not 0.
        while self.boundary < self.to {
            let Some(v) = at(self.boundary) else {
                return Err(Error::Analysis(format!(
                    "skin: in row {y} the arm's boundary ran past column {}, beyond the columns followed; the skin cannot be followed here",
                    self.boundary
                )));
            };
            if v == 0 {
                break;
            }
            let i = self.cols.len();
            self.cols.push(Column {
                x: self.boundary,
                top: y,
                top_v: v,
                vertical: u32::from(v < 0),
                diagonal: u32::from(v < 0),
            });
            if v < 0 {
                self.vertical_open.push_back(i);
                self.diagonal_open.push((i, self.boundary));
            }
            self.boundary += 1;
        }
        // The rule reaches two cells: nothing right of the boundary may be non-zero.
        for x in self.boundary..(self.boundary + 3).min(self.to) {
            if at(x).is_some_and(|v| v != 0) {
                return Err(Error::Analysis(format!(
                    "skin: outer space is not a prefix in row {y} (cell ({x}, {y}) is not 0); the skin cannot be followed"
                )));
            }
        }
        // Horizontal thickness: palaces left of the boundary in this row.
        if self.boundary < self.to {
            let mut run = 0u32;
            let mut x = self.boundary;
            while x > self.k && palace(x - 1) {
                run += 1;
                x -= 1;
            }
            if x > self.k && at(x - 1).is_none() {
                return Err(Error::Mismatch(format!(
                    "skin: row {y}: the horizontal run left the columns assembled"
                )));
            }
            self.horizontal.push((y, self.boundary, run));
        }
        self.rows = self.rows.max(y + 1);
        Ok(())
    }
}

/// One level of the skin as measured.
#[derive(Debug, Clone, Serialize)]
pub struct Level {
    /// The level n.
    pub n: usize,
    /// First column from which the level holds for two horizontal periods.
    pub begins_at: u64,
    /// Columns measured at this level (up to the next level or `--to`).
    pub columns: u64,
    /// Vertical thicknesses seen and how often.
    pub vertical: Vec<(u32, u64)>,
    /// Most common diagonal thickness (paper: f(2n+1)).
    pub diagonal: Option<u32>,
    /// Most common horizontal thickness (paper: f(2n+2)).
    pub horizontal: Option<u32>,
    /// Most common distance between emitted lines (paper: f(2n+3)).
    pub horizontal_period: Option<u64>,
    /// Most common descent of the top over one horizontal period (paper: f(2n+1)).
    pub vertical_period: Option<u64>,
    /// Least-squares slope of the top against the column (paper: tends to 1/phi^2).
    pub slope: Option<f64>,
    /// Whether every step of the outer boundary is 2 or 3 columns wide (over the level's
    /// longest stretch of regular columns).
    pub steps_2_or_3: bool,
    /// Whether the steps repeat the word `2` expanded n times by `2 -> 23, 3 -> 233`.
    pub step_word_matches: bool,
    /// The step word expected at this level.
    pub step_word: String,
    /// The paper's values for this level: vertical f(2n), diagonal f(2n+1), horizontal f(2n+2),
    /// horizontal period f(2n+3), vertical period f(2n+1).
    pub paper: [u64; 5],
}

/// The result of `palace skin`.
#[derive(Debug, Clone, Serialize)]
pub struct SkinReport {
    /// The game.
    pub k: u32,
    /// Last column followed (exclusive).
    pub to: u64,
    /// Rows computed.
    pub rows: u32,
    /// Cells swept.
    pub cells_swept: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// The levels seen, in order.
    pub levels: Vec<Level>,
    /// Columns whose vertical thickness matches no level (transitions).
    pub irregular_columns: u64,
    /// The engine's report of the last sweep.
    pub engine: Option<SweepReport>,
}

/// Follows the skin of game `k` from the shoulder to column `to` (exclusive, `> k`).
pub fn follow(
    k: u32,
    to: u64,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(SkinReport, Vec<Column>)> {
    if to <= u64::from(k) || to > u64::from(u32::MAX) {
        return Err(Error::Usage(format!(
            "--to {to}: the skin starts at the shoulder (k, 0) = ({k}, 0); use --to > {k}"
        )));
    }
    let started = std::time::Instant::now();
    let span = (to - u64::from(k)) as f64;
    let mut height = (span * 0.45) as u64 + 256;
    for _attempt in 0..4 {
        let window = Window::new(0, 0, to as u32, height.min(u64::from(u32::MAX)) as u32);
        let mut sink = SkinSink::new(k, to);
        let mut o = opts.clone();
        // Wide and shallow: thinner bands keep the bands in flight small.
        o.band_height = o.band_height.or(Some(64));
        let report = sweep(k, window, &o, &mut sink, progress)?;
        if sink.complete() {
            let rep = analyse(k, to, &sink, started.elapsed().as_secs_f64(), Some(report));
            return Ok((rep, sink.cols));
        }
        height = height * 3 / 2 + 256;
    }
    Err(Error::Analysis(format!("--to {to}: the skin did not end within {height} rows; this is unexpected")))
}

fn mode<T: Ord + Copy>(it: impl Iterator<Item = T>) -> Option<T> {
    let mut m = BTreeMap::new();
    for v in it {
        *m.entry(v).or_insert(0u64) += 1;
    }
    m.into_iter().max_by_key(|&(v, c)| (c, std::cmp::Reverse(v))).map(|(v, _)| v)
}

fn analyse(k: u32, to: u64, s: &SkinSink, seconds: f64, engine: Option<SweepReport>) -> SkinReport {
    let cols = &s.cols;
    let levels_of: Vec<Option<usize>> = cols.iter().map(|c| level_of_thickness(c.vertical)).collect();
    // Where each level starts holding for two horizontal periods.
    let mut starts: Vec<(usize, usize)> = Vec::new(); // (n, column index)
    let mut i = 0;
    while i < cols.len() {
        if let Some(n) = levels_of[i] {
            let need = 2 * fib(2 * n + 3) as usize;
            let stable = i + need <= cols.len() && levels_of[i..i + need].iter().all(|&l| l == Some(n));
            if stable && starts.last().is_none_or(|&(m, _)| m != n) {
                starts.push((n, i));
                i += need;
                continue;
            }
        }
        i += 1;
    }
    let mut levels = Vec::new();
    for (li, &(n, a)) in starts.iter().enumerate() {
        let b = starts.get(li + 1).map_or(cols.len(), |&(_, b)| b);
        let seg = &cols[a..b];
        let mut vert = BTreeMap::new();
        for c in seg {
            *vert.entry(c.vertical).or_insert(0u64) += 1;
        }
        let line = fib(2 * n) as u32 + 1;
        let lines: Vec<&Column> = seg.iter().filter(|c| c.vertical == line).collect();
        let hp = mode(lines.windows(2).map(|w| w[1].x - w[0].x));
        let vp = hp.and_then(|p| {
            mode(seg.iter().zip(seg.iter().skip(p as usize)).map(|(c, d)| u64::from(d.top - c.top)))
        });
        let (sx, sy) = (seg[0].x as f64, f64::from(seg[0].top));
        let (mut sxx, mut sxy) = (0.0, 0.0);
        for c in seg {
            let (dx, dy) = (c.x as f64 - sx, f64::from(c.top) - sy);
            sxx += dx * dx;
            sxy += dx * dy;
        }
        let slope = (sxx > 0.0).then(|| sxy / sxx);
        // Steps: widths of the runs of equal top rows, over the level's longest stretch of
        // regular columns (the thickening itself is irregular), whole runs only.
        let core = {
            let lv = &levels_of[a..b];
            let (mut best, mut cur) = ((0, 0), 0);
            for (j, l) in lv.iter().enumerate() {
                if *l == Some(n) {
                    cur += 1;
                    if cur > best.1 - best.0 {
                        best = (j + 1 - cur, j + 1);
                    }
                } else {
                    cur = 0;
                }
            }
            &seg[best.0..best.1]
        };
        let mut widths = Vec::new();
        let mut run = 1u64;
        for w in core.windows(2) {
            if w[1].top == w[0].top {
                run += 1;
            } else {
                widths.push(run);
                run = 1;
            }
        }
        let inner = if widths.len() > 2 { &widths[1..widths.len() - 1] } else { &[][..] };
        let steps_ok = !inner.is_empty() && inner.iter().all(|&w| w == 2 || w == 3);
        let word: Vec<u64> = step_word(n).iter().map(|&s| u64::from(s)).collect();
        let word_ok = steps_ok
            && inner.len() >= word.len()
            && (0..word.len())
                .any(|phase| inner.iter().enumerate().all(|(j, &w)| w == word[(j + phase) % word.len()]));
        let (ya, yb) = (seg[0].x, seg[seg.len() - 1].x);
        let horizontal =
            mode(s.horizontal.iter().filter(|&&(_, bx, _)| bx >= ya && bx <= yb).map(|&(_, _, r)| r));
        levels.push(Level {
            n,
            begins_at: cols[a].x,
            columns: seg.len() as u64,
            vertical: vert.into_iter().collect(),
            diagonal: mode(seg.iter().filter(|c| c.vertical != line).map(|c| c.diagonal)),
            horizontal,
            horizontal_period: hp,
            vertical_period: vp,
            slope,
            steps_2_or_3: steps_ok,
            step_word_matches: word_ok,
            step_word: word.iter().map(|d| d.to_string()).collect(),
            paper: [fib(2 * n), fib(2 * n + 1), fib(2 * n + 2), fib(2 * n + 3), fib(2 * n + 1)],
        });
    }
    let irregular = levels_of.iter().filter(|l| l.is_none()).count() as u64;
    let cells = engine.as_ref().map_or(0, |e| e.region_cells);
    SkinReport {
        k,
        to,
        rows: s.rows,
        cells_swept: cells,
        seconds,
        levels,
        irregular_columns: irregular,
        engine,
    }
}

/// The font of the plots (DejaVu Sans Mono, Bitstream Vera licence, see
/// `src/assets/DejaVu-LICENSE`), embedded so plotting needs no system fonts.
static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Plots the vertical thickness of the skin against the column counted from the shoulder, on
/// a log axis, with the Fibonacci thicknesses `f(2n)` of the levels and where each level
/// begins; writes an RGB PNG to `out`.
pub fn plot(r: &SkinReport, cols: &[Column], mut out: crate::output::atomic::AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let (w, h) = (1400u32, 800u32);
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    let k = u64::from(r.k);
    let span = (r.to - k).max(2) as f64;
    let ymax = cols.iter().map(|c| c.vertical).max().unwrap_or(1).max(3) + 2;
    let mut draw = || -> std::result::Result<(), Box<dyn std::error::Error>> {
        let _ = plotters::style::register_font("palace-mono", FontStyle::Normal, FONT);
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        root.fill(&WHITE)?;
        let font = |size: u32| ("palace-mono", size).into_font();
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("skin of the upper arm, k = {}: vertical thickness against columns past the shoulder ({}, 0)", r.k, r.k),
                font(20),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d((1f64..span).log_scale(), 0u32..ymax)?;
        chart
            .configure_mesh()
            .x_desc("columns past the shoulder, x - k (log scale)")
            .y_desc("vertical thickness (palaces)")
            .label_style(font(14))
            .axis_desc_style(font(16))
            .draw()?;
        // Reference thicknesses f(2n), f(2n) + 1.
        for n in 1..10 {
            let t = fib(2 * n);
            if t + 1 >= u64::from(ymax) {
                break;
            }
            let style = ShapeStyle::from(&RGBColor(200, 200, 200)).stroke_width(1);
            chart.draw_series(LineSeries::new([(1.0, t as u32), (span, t as u32)], style))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("f({}) = {t}  (n = {n})", 2 * n),
                (1.05, t as u32),
                font(13).color(&RGBColor(110, 110, 110)),
            )))?;
        }
        // Where each level begins.
        for l in &r.levels {
            let x = (l.begins_at - k + 1) as f64;
            let style = ShapeStyle::from(&RGBColor(230, 120, 40)).stroke_width(2);
            chart.draw_series(LineSeries::new([(x, 0), (x, ymax)], style))?;
            // Labels right of the line, or left of it near the right edge.
            let lx = if x.ln() > 0.8 * span.ln() { x / span.powf(0.12) } else { x * 1.05 };
            chart.draw_series(std::iter::once(Text::new(
                format!("n = {} from {}", l.n, l.begins_at - k),
                (lx, ymax - 1 - l.n as u32 % 2),
                font(14).color(&RGBColor(200, 90, 20)),
            )))?;
        }
        // The measurements, one mark per (log-spaced bucket, thickness) seen.
        let buckets = 1200usize;
        let mut seen = std::collections::BTreeSet::new();
        for c in cols {
            let d = (c.x - k + 1) as f64;
            let b = ((d.ln() / span.ln()) * buckets as f64) as usize;
            seen.insert((b, c.vertical));
        }
        chart.draw_series(seen.into_iter().map(|(b, t)| {
            let x = (span.ln() * (b as f64 + 0.5) / buckets as f64).exp();
            Circle::new((x, t), 2, ShapeStyle::from(&RGBColor(40, 70, 200)).filled())
        }))?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| Error::Plot { path: out.path().to_path_buf(), source: e.to_string().into() })?;
    let path = out.path().to_path_buf();
    {
        let mut enc = png::Encoder::new(std::io::BufWriter::new(out.file()), w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(|e| Error::Png { path: path.clone(), source: e })?;
        wr.write_image_data(&rgb).map_err(|e| Error::Png { path: path.clone(), source: e })?;
        wr.finish().map_err(|e| Error::Png { path: path.clone(), source: e })?;
    }
    out.commit()?;
    Ok(())
}

/// Writes the per-column measurements as CSV.
pub fn csv(cols: &[Column]) -> String {
    let mut s = String::from("x,top,top_v,vertical,diagonal,level\n");
    for c in cols {
        let lvl = level_of_thickness(c.vertical).map_or(String::new(), |n| n.to_string());
        s.push_str(&format!("{},{},{},{},{},{}\n", c.x, c.top, c.top_v, c.vertical, c.diagonal, lvl));
    }
    s
}

impl std::fmt::Display for SkinReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "skin of the upper arm, k = {}, from the shoulder ({}, 0) to column {} ({} rows, {} cells swept, {:.2} s)",
            self.k, self.k, self.to, self.rows, self.cells_swept, self.seconds
        )?;
        writeln!(
            f,
            "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  vertical thicknesses seen",
            "n",
            "begins at",
            "columns",
            "vert (paper)",
            "diagonal",
            "horizontal",
            "h period",
            "v period",
            "slope",
            "2/3",
            "word"
        )?;
        for l in &self.levels {
            let o = |v: Option<u64>, p: u64| v.map_or(format!("-/{p}"), |v| format!("{v}/{p}"));
            let vs: Vec<String> = l.vertical.iter().map(|(t, c)| format!("{t}:{c}")).collect();
            writeln!(
                f,
                "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  {}",
                l.n,
                l.begins_at,
                l.columns,
                format!("{}(+1)", l.paper[0]),
                o(l.diagonal.map(u64::from), l.paper[1]),
                o(l.horizontal.map(u64::from), l.paper[2]),
                o(l.horizontal_period, l.paper[3]),
                o(l.vertical_period, l.paper[4]),
                l.slope.map_or("-".into(), |s| format!("{s:.5}")),
                if l.steps_2_or_3 { "yes" } else { "no" },
                if l.step_word_matches { "yes" } else { "no" },
                vs.join(" ")
            )?;
        }
        writeln!(
            f,
            "(measured/paper; slope -> 1/phi^2 = {INV_PHI2:.5}; {} columns match no level)",
            self.irregular_columns
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fibonacci_and_words() {
        assert_eq!((1..=10).map(fib).collect::<Vec<_>>(), vec![1, 1, 2, 3, 5, 8, 13, 21, 34, 55]);
        assert_eq!(level_of_thickness(1), Some(1));
        assert_eq!(level_of_thickness(2), Some(1));
        assert_eq!(level_of_thickness(3), Some(2));
        assert_eq!(level_of_thickness(9), Some(3));
        assert_eq!(level_of_thickness(5), None);
        assert_eq!(step_word(1), vec![2, 3]);
        assert_eq!(step_word(2), vec![2, 3, 2, 3, 3]);
        // Each word spans f(2n+3) columns in f(2n+1) steps (the periods of §3.4).
        for n in 1..8 {
            let w = step_word(n);
            assert_eq!(w.iter().map(|&s| u64::from(s)).sum::<u64>(), fib(2 * n + 3));
            assert_eq!(w.len() as u64, fib(2 * n + 1));
        }
    }
}
