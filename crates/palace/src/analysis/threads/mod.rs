//! The threads of the upper warp (paper §3.2 and §4, questions 5 to 7): found, followed and
//! measured (`docs/threads.md`).
//!
//! The region traced is the upper warp with the fray and the upper half of the inner sector:
//! the cells above the main diagonal (`x > y`) that `palace regions` labels as the rest
//! ([`crate::labels`]). Its palace cells are traced row by row by the
//! [`trace::Tracer`]: a row of the upper warp is, by the picture's symmetry `v(x, y) = v(y, x)`,
//! a column of the left warp, so a thread's cells per row here are the paper's vertical
//! thickness of the mirrored thread of the left warp. From the traced threads: the
//! distribution of thicknesses (and how many are Fibonacci numbers), whether thicknesses add
//! where threads merge, which threads that run to the region's edge become periodic, and the
//! slopes of the innermost ones with their continued fractions and nearest quadratic
//! irrationals ([`fit`]).

pub mod fit;
pub mod trace;

use crate::engine::{Cancel, EngineOptions, Progress};
use crate::error::{Error, Result};
use crate::labels;
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, StripBelow};
use crate::output::palette;
use crate::output::png::{Aggregate, Downscale, PngStream};
use fit::{LineFit, Period, QuadraticFit};
use serde::Serialize;
use std::collections::BTreeMap;
use trace::{End, Thread, Traced, Tracer};

/// The largest adjacency reach of the tracer, in columns (a reach is `1..=MAX_REACH`).
pub const MAX_REACH: u32 = 64;

/// A section within this many cells of the region's edge (the diagonal, a region label other
/// than the rest's, the window's side) is not clear: the edge may cut it.
pub const EDGE: u32 = 16;

/// Largest period searched for.
pub const MAX_PERIOD: usize = trace::TAIL / 3;

/// A period counts when the tail shows it this many times.
pub const REPEATS: usize = 3;

/// A thread that runs to an edge is classified (periodic or not) when its tail has at least
/// this many lines.
pub const LONG_TAIL: usize = 600;

/// Coefficient bound of the quadratic search.
pub const QUADRATIC_BOUND: i64 = 60;

/// A thread whose tail matches its best period on at least this share of lines is periodic
/// up to defects.
pub const NEAR_SHARE: f64 = 0.95;

/// The least lives (clear rows) the merge check is also reported for.
pub const LIVES: [u64; 4] = [8, 50, 100, 300];

/// The longest of [`LIVES`]: the threads whose merges and thicknesses are also counted by kind.
pub const LONG_LIFE: u64 = LIVES[LIVES.len() - 1];

/// How many of the innermost threads are reported in full.
pub const INNERMOST: usize = 4;

/// One thread's measurements.
#[derive(Debug, Clone, Serialize)]
pub struct ThreadSummary {
    /// Its number.
    pub id: u32,
    /// First and last row.
    pub rows: (u32, u32),
    /// Its first cell (on its first row) and last cell (on its last row).
    pub x: (u32, u32),
    /// How it ended.
    pub end: End,
    /// Whether it ran into the region's edge (its last section not clear) or was still open.
    pub at_edge: bool,
    /// The threads whose merge began it.
    pub parents: Vec<u32>,
    /// Its thickness on most of its clear rows.
    pub thickness: Option<u32>,
    /// Clear rows, and how many of them have that thickness.
    pub clear_rows: (u64, u64),
    /// Rows of its tail (the last run of consecutive clear rows, at most `trace::TAIL`).
    pub tail_rows: usize,
    /// The tail's period, if any up to `MAX_PERIOD` shows `REPEATS` times.
    pub period: Option<Period>,
    /// The tail's best period allowing defects (see [`fit::near_period`]).
    pub near_period: Option<fit::NearPeriod>,
    /// Least squares over the tail: cells along the row per row.
    pub fit: Option<LineFit>,
    /// Its slope in rows per column (`p / shift` when periodic, else `1 / fit`).
    pub slope: Option<f64>,
    /// The slope's standard error (0 when periodic).
    pub slope_stderr: Option<f64>,
    /// The slope's continued fraction (exact when periodic; else its terms while the
    /// convergent is further than two standard errors).
    pub continued_fraction: Vec<i64>,
    /// The nearest quadratic irrational (coefficients up to `QUADRATIC_BOUND`; within two
    /// standard errors counted), for threads without a period.
    pub quadratic: Option<QuadraticFit>,
}

impl ThreadSummary {
    /// [`ThreadSummary::of`], or [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled: the run's
    /// measuring polls its token before each thread (a thread's fits take at most a fraction
    /// of a second).
    fn checked(t: &Thread, quadratic: bool, cancel: &Cancel) -> Result<Self> {
        cancel.check()?;
        Ok(ThreadSummary::of(t, quadratic))
    }

    fn of(t: &Thread, quadratic: bool) -> Self {
        let period = fit::period(&t.tail, MAX_PERIOD, REPEATS);
        let line = fit::fit_line(&t.tail);
        let near = line.and_then(|f| fit::near_period(&t.tail, f.per_line, MAX_PERIOD, REPEATS));
        let (slope, stderr, cf) = match (period, line) {
            (Some(p), _) if p.shift != 0 => (
                Some(f64::from(p.p) / p.shift as f64),
                Some(0.0),
                fit::continued_fraction_exact(i64::from(p.p), p.shift),
            ),
            (_, Some(f)) if f.per_line != 0.0 => {
                let s = 1.0 / f.per_line;
                let e = f.stderr / (f.per_line * f.per_line);
                (Some(s), Some(e), fit::continued_fraction(s, 2.0 * e, 24))
            }
            _ => (None, None, Vec::new()),
        };
        let quadratic = match (quadratic && period.is_none(), slope, stderr) {
            (true, Some(s), Some(e)) => fit::nearest_quadratic(s, QUADRATIC_BOUND, 2.0 * e),
            _ => None,
        };
        let mode = t.mode();
        ThreadSummary {
            id: t.id,
            rows: (t.first_row, t.last_row),
            x: (t.start_x, t.end_x),
            end: t.end,
            at_edge: at_edge(t),
            parents: t.parents.clone(),
            thickness: mode,
            clear_rows: (t.clear_rows(), mode.map_or(0, |m| t.thickness[&m])),
            tail_rows: t.tail.len(),
            period,
            near_period: near,
            fit: line,
            slope,
            slope_stderr: stderr,
            continued_fraction: cf,
            quadratic,
        }
    }
}

/// Whether a thread ran to the region's edge: still open, or vanished with its last section
/// cut by an edge.
fn at_edge(t: &Thread) -> bool {
    match t.end {
        End::Open => true,
        End::Vanished => !t.last_clear,
        End::Merged { .. } => false,
    }
}

/// Threads of one thickness.
#[derive(Debug, Clone, Serialize)]
pub struct ThicknessRow {
    /// The thickness (cells per row).
    pub thickness: u32,
    /// Whether it is a Fibonacci number.
    pub fibonacci: bool,
    /// Threads with this thickness on most of their clear rows.
    pub threads: u64,
    /// Their clear rows.
    pub rows: u64,
}

/// Merges of one kind: input thicknesses (ascending) and the output's.
#[derive(Debug, Clone, Serialize)]
pub struct MergeKind {
    /// The input threads' thicknesses.
    pub inputs: Vec<u32>,
    /// The merged thread's thickness.
    pub output: u32,
    /// Whether the output is the inputs' sum.
    pub adds: bool,
    /// How many merges of this kind.
    pub count: u64,
}

/// The report of `palace threads`.
#[derive(Debug, Clone, Serialize)]
pub struct ThreadsReport {
    /// The game.
    pub k: u32,
    /// The window traced.
    pub window: [u32; 4],
    /// Adjacency reach along the row.
    pub reach: u32,
    /// Rows a piece must live to be a thread.
    pub min_rows: u32,
    /// Threads (pieces of at least `min_rows` rows).
    pub threads: u64,
    /// Pieces that vanished sooner.
    pub specks: u64,
    /// Threads with a thickness (some clear row), by thickness.
    pub thickness: Vec<ThicknessRow>,
    /// Threads with a thickness, and how many of those are Fibonacci numbers.
    pub fibonacci: (u64, u64),
    /// Threads with a thickness and at least [`LONG_LIFE`] clear rows, and how many
    /// of them have a Fibonacci thickness.
    pub fibonacci_long: (u64, u64),
    /// Clear rows of all threads, and how many have their thread's thickness.
    pub steady_rows: (u64, u64),
    /// Merges seen, and the merges whose threads all have a thickness.
    pub merges: (u64, u64),
    /// Threads born as sprouts (strands drifted apart from a thread), and sprouts that
    /// rejoined their thread.
    pub sprouts: (u64, u64),
    /// The measured merges by kind.
    pub merge_kinds: Vec<MergeKind>,
    /// For a least life L (clear rows): the measured merges whose threads (inputs and output)
    /// all have at least L clear rows, and how many of them add.
    pub merges_by_life: Vec<(u64, u64, u64)>,
    /// The measured merges whose threads all have at least [`LONG_LIFE`] clear
    /// rows, by kind.
    pub long_merge_kinds: Vec<MergeKind>,
    /// Threads that run to the edge, those with a tail of at least `LONG_TAIL` rows, and how
    /// many of these are periodic, and periodic up to defects (`NEAR_SHARE`) without being
    /// periodic.
    pub at_edge: (u64, u64, u64, u64),
    /// The threads that run to the edge with a long tail and no period even up to defects.
    pub non_periodic: Vec<ThreadSummary>,
    /// The innermost threads that run to the edge (nearest the diagonal at their end), inner
    /// first.
    pub innermost: Vec<ThreadSummary>,
}

impl ThreadsReport {
    /// Measures what `traced` found in `window` of game `k`, the threads' fits on `workers`
    /// threads; stops with
    /// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled (the fits of the long threads take
    /// seconds on a large window).
    pub fn new(
        k: u32,
        window: Window,
        reach: u32,
        traced: &Traced,
        workers: usize,
        cancel: &Cancel,
    ) -> Result<Self> {
        Self::build(k, window, reach, traced, None, workers, cancel)
    }

    /// [`ThreadsReport::new`] given every thread's [`summaries`] (in the order of
    /// `traced.threads`, as `summaries` returns them), which it takes instead of fitting the
    /// long threads again. The report is the same.
    pub fn from_summaries(
        k: u32,
        window: Window,
        reach: u32,
        traced: &Traced,
        summaries: &[ThreadSummary],
        workers: usize,
        cancel: &Cancel,
    ) -> Result<Self> {
        if summaries.len() != traced.threads.len() {
            return Err(Error::InvalidArgument {
                function: "ThreadsReport::from_summaries",
                argument: "summaries",
                value: summaries.len().to_string(),
                expected: "one summary per traced thread, as `summaries` returns them",
            });
        }
        Self::build(k, window, reach, traced, Some(summaries), workers, cancel)
    }

    fn build(
        k: u32,
        window: Window,
        reach: u32,
        traced: &Traced,
        all: Option<&[ThreadSummary]>,
        workers: usize,
        cancel: &Cancel,
    ) -> Result<Self> {
        let mut by_t: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        let (mut steady, mut clear) = (0, 0);
        let mut fibonacci_long = (0, 0);
        for t in &traced.threads {
            if let Some(m) = t.mode() {
                if t.clear_rows() >= LONG_LIFE {
                    fibonacci_long.0 += 1;
                    fibonacci_long.1 += u64::from(fit::is_fibonacci(m.into()));
                }
                let e = by_t.entry(m).or_default();
                e.0 += 1;
                e.1 += t.clear_rows();
                clear += t.clear_rows();
                steady += t.thickness[&m];
            }
        }
        let thickness: Vec<ThicknessRow> = by_t
            .iter()
            .map(|(&t, &(n, r))| ThicknessRow {
                thickness: t,
                fibonacci: fit::is_fibonacci(t.into()),
                threads: n,
                rows: r,
            })
            .collect();
        let with = thickness.iter().map(|r| r.threads).sum();
        let fib = thickness.iter().filter(|r| r.fibonacci).map(|r| r.threads).sum();
        let by_id: BTreeMap<u32, &Thread> = traced.threads.iter().map(|t| (t.id, t)).collect();
        let mut kinds: BTreeMap<(Vec<u32>, u32), u64> = BTreeMap::new();
        let mut long_kinds: BTreeMap<(Vec<u32>, u32), u64> = BTreeMap::new();
        let mut measured = 0;
        let mut by_life: Vec<(u64, u64, u64)> = LIVES.iter().map(|&l| (l, 0, 0)).collect();
        for m in &traced.merges {
            let ins: Option<Vec<u32>> =
                m.inputs.iter().map(|i| by_id.get(i).and_then(|t| t.mode())).collect();
            let out = by_id.get(&m.output).and_then(|t| t.mode());
            if let (Some(mut ins), Some(out)) = (ins, out) {
                ins.sort_unstable();
                measured += 1;
                let life =
                    m.inputs.iter().chain([&m.output]).map(|i| by_id[i].clear_rows()).min().unwrap_or(0);
                let adds = ins.iter().sum::<u32>() == out;
                for e in by_life.iter_mut().filter(|e| life >= e.0) {
                    e.1 += 1;
                    e.2 += u64::from(adds);
                }
                if life >= LONG_LIFE {
                    *long_kinds.entry((ins.clone(), out)).or_default() += 1;
                }
                *kinds.entry((ins, out)).or_default() += 1;
            }
        }
        let (merge_kinds, long_merge_kinds) = (merge_kinds(kinds), merge_kinds(long_kinds));
        let edge = traced.threads.iter().filter(|t| at_edge(t)).count();
        let long_at: Vec<usize> = (0..traced.threads.len())
            .filter(|&i| at_edge(&traced.threads[i]) && traced.threads[i].tail.len() >= LONG_TAIL)
            .collect();
        let long: Vec<&Thread> = long_at.iter().map(|&i| &traced.threads[i]).collect();
        let pool = super::pool(workers)?;
        // The long threads' plain fits: taken from `all` where given.
        let fitted;
        let summaries: Vec<&ThreadSummary> = match all {
            Some(all) => long_at.iter().map(|&i| &all[i]).collect(),
            None => {
                fitted = measure(&long, false, &pool, cancel)?;
                fitted.iter().collect()
            }
        };
        let periodic = summaries.iter().filter(|s| s.period.is_some()).count() as u64;
        let near = |s: &ThreadSummary| s.near_period.is_some_and(|n| n.share() >= NEAR_SHARE);
        let nearly = summaries.iter().filter(|s| s.period.is_none() && near(s)).count() as u64;
        let non_periodic: Vec<&Thread> = long
            .iter()
            .zip(&summaries)
            .filter(|(_, s)| s.period.is_none() && !near(s))
            .map(|(t, _)| *t)
            .collect();
        let non_periodic = measure(&non_periodic, true, &pool, cancel)?;
        let mut inner = long.clone();
        inner.sort_by_key(|t| (i64::from(t.end_x) - i64::from(t.last_row), t.id));
        inner.truncate(INNERMOST);
        let innermost = measure(&inner, true, &pool, cancel)?;
        Ok(ThreadsReport {
            k,
            window: [window.x0(), window.y0(), window.x1(), window.y1()],
            reach,
            min_rows: trace::MIN_ROWS,
            threads: traced.threads.len() as u64,
            specks: traced.specks,
            thickness,
            fibonacci: (with, fib),
            fibonacci_long,
            steady_rows: (clear, steady),
            merges: (traced.merges.len() as u64, measured),
            sprouts: (
                traced.threads.iter().filter(|t| t.sprout_of.is_some()).count() as u64,
                traced.rejoined.len() as u64,
            ),
            merge_kinds,
            merges_by_life: by_life,
            long_merge_kinds,
            at_edge: (edge as u64, long.len() as u64, periodic, nearly),
            non_periodic,
            innermost,
        })
    }
}

/// Merges counted by (input thicknesses, output thickness), most frequent first.
fn merge_kinds(kinds: BTreeMap<(Vec<u32>, u32), u64>) -> Vec<MergeKind> {
    let mut v: Vec<MergeKind> = kinds
        .into_iter()
        .map(|((inputs, output), count)| MergeKind {
            adds: inputs.iter().sum::<u32>() == output,
            inputs,
            output,
            count,
        })
        .collect();
    v.sort_by(|a, b| b.count.cmp(&a.count).then(a.inputs.cmp(&b.inputs)));
    v
}

fn merge_kind_line(f: &mut std::fmt::Formatter<'_>, m: &MergeKind) -> std::fmt::Result {
    let ins: Vec<String> = m.inputs.iter().map(u32::to_string).collect();
    writeln!(
        f,
        "  {:>14} -> {:<4} {:>7}  {}",
        ins.join(" + "),
        m.output,
        m.count,
        if m.adds { "adds" } else { "does not add" }
    )
}

fn summary_line(f: &mut std::fmt::Formatter<'_>, s: &ThreadSummary) -> std::fmt::Result {
    let t = s.thickness.map_or("-".into(), |t| t.to_string());
    let per = s.period.map_or("none".into(), |p| format!("{} rows, {:+} columns", p.p, p.shift));
    let near = s.near_period.map_or("-".into(), |n| {
        format!(
            "{} rows, {:+} columns on {} of {} rows (slope {:.9})",
            n.period.p,
            n.period.shift,
            n.matches.0,
            n.matches.1,
            f64::from(n.period.p) / n.period.shift as f64
        )
    });
    let slope = match (s.slope, s.slope_stderr) {
        (Some(v), Some(0.0)) => format!("{v:.9} (exact)"),
        (Some(v), Some(e)) => format!("{v:.9} +- {e:.1e}"),
        _ => "-".into(),
    };
    let cf: Vec<String> = s.continued_fraction.iter().map(i64::to_string).collect();
    let cf = match cf.split_first() {
        Some((a0, rest)) => format!("[{a0}; {}]", rest.join(", ")),
        None => "-".into(),
    };
    writeln!(
        f,
        "  thread {:>6}: rows {}..{}, x {}..{}, thickness {t} ({} of {} clear rows), tail {} rows, period {per}; up to defects {near}",
        s.id, s.rows.0, s.rows.1, s.x.0, s.x.1, s.clear_rows.1, s.clear_rows.0, s.tail_rows
    )?;
    write!(f, "      slope {slope} rows per column, continued fraction {cf}")?;
    if let Some(q) = s.quadratic {
        write!(
            f,
            "; nearest quadratic irrational: root {:.9} of {}t^2 {:+}t {:+} (residual {:.1e}; {} roots within 2 s.e.)",
            q.root, q.a, q.b, q.c, q.residual, q.within_tol
        )?;
    }
    writeln!(f)
}

impl std::fmt::Display for ThreadsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, window [{x0}, {x1}) x [{y0}, {y1}): the upper warp and inner sector (x > y, labelled fray, warp or inner sector)",
            self.k
        )?;
        writeln!(
            f,
            "adjacency: same or next row, at most {} columns apart; a thread lives at least {} rows",
            self.reach, self.min_rows
        )?;
        writeln!(f, "threads: {} ({} specks)", self.threads, self.specks)?;
        let (with, fib) = self.fibonacci;
        let (clear, steady) = self.steady_rows;
        writeln!(
            f,
            "thickness (palaces per row; by symmetry the left warp's per column): {fib} of {with} threads Fibonacci; {steady} of {clear} clear rows at their thread's thickness ({:.4}%)",
            100.0 * steady as f64 / clear.max(1) as f64
        )?;
        let (long, long_fib) = self.fibonacci_long;
        writeln!(f, "  among threads of at least {} clear rows: {long_fib} of {long} Fibonacci", LONG_LIFE)?;
        writeln!(f, "  thickness  Fibonacci    threads   clear rows")?;
        for r in &self.thickness {
            writeln!(
                f,
                "  {:>9}  {:>9}  {:>9}  {:>11}",
                r.thickness,
                if r.fibonacci { "yes" } else { "no" },
                r.threads,
                r.rows
            )?;
        }
        writeln!(
            f,
            "sprouts (threads born within {} columns of a thread): {}, of which rejoined their thread: {}",
            trace::SPROUT_FACTOR * self.reach,
            self.sprouts.0,
            self.sprouts.1
        )?;
        let (all, measured) = self.merges;
        let adds: u64 = self.merge_kinds.iter().filter(|m| m.adds).map(|m| m.count).sum();
        writeln!(f, "merges: {all}, {measured} with every thickness known, thickness adds in {adds}")?;
        for &(life, n, adds) in &self.merges_by_life {
            writeln!(f, "  among threads of at least {life} clear rows: {adds} of {n} add")?;
        }
        for m in &self.merge_kinds {
            merge_kind_line(f, m)?;
        }
        writeln!(f, "  by kind, among threads of at least {} clear rows:", LONG_LIFE)?;
        for m in &self.long_merge_kinds {
            merge_kind_line(f, m)?;
        }
        let (edge, long, periodic, nearly) = self.at_edge;
        writeln!(
            f,
            "threads running to the edge: {edge}; with a tail of at least {LONG_TAIL} rows: {long}, of which periodic (period <= {MAX_PERIOD} seen {REPEATS} times): {periodic}, periodic up to defects (>= {:.0}% of rows): {nearly}, neither: {}",
            100.0 * NEAR_SHARE,
            long - periodic - nearly
        )?;
        for s in &self.non_periodic {
            summary_line(f, s)?;
        }
        writeln!(f, "innermost threads running to the edge (inner first):")?;
        writeln!(
            f,
            "  (s.e.: the least-squares fit's standard error over the whole thread; a thread's slope moves by 1e-4 to 6e-4 \
             between stretches of it, so a quadratic \"within 2 s.e.\" is a candidate, not a finding: docs/threads.md)"
        )?;
        for s in &self.innermost {
            summary_line(f, s)?;
        }
        Ok(())
    }
}

/// The measurements of every thread of `traced`, in its order, for [`write_csv`]; stops with
/// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled.
pub fn summaries(traced: &Traced, workers: usize, cancel: &Cancel) -> Result<Vec<ThreadSummary>> {
    let all: Vec<&Thread> = traced.threads.iter().collect();
    measure(&all, false, &super::pool(workers)?, cancel)
}

/// The [`ThreadSummary`] of each of `threads`, in order, measured on `pool` (the fits of one
/// thread take up to a fraction of a second; a window holds hundreds of threads).
fn measure(
    threads: &[&Thread],
    quadratic: bool,
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
) -> Result<Vec<ThreadSummary>> {
    use rayon::prelude::*;
    pool.install(|| threads.par_iter().map(|t| ThreadSummary::checked(t, quadratic, cancel)).collect())
}

/// Writes one line per thread as CSV, given the threads' [`summaries`].
pub fn write_csv(
    traced: &Traced,
    summaries: &[ThreadSummary],
    mut w: impl std::io::Write,
) -> std::io::Result<()> {
    writeln!(
        w,
        "id,first_row,last_row,start_x,end_x,end,merge_row,into,parents,at_edge,thickness,clear_rows,steady_rows,tail_rows,period,shift,near_period,near_shift,near_share,slope"
    )?;
    assert_eq!(summaries.len(), traced.threads.len(), "one summary per thread");
    for (t, s) in traced.threads.iter().zip(summaries) {
        let (end, row, into) = match t.end {
            End::Vanished => ("vanished", String::new(), String::new()),
            End::Open => ("open", String::new(), String::new()),
            End::Merged { row, into } => ("merged", row.to_string(), into.to_string()),
        };
        let parents: Vec<String> = t.parents.iter().map(u32::to_string).collect();
        writeln!(
            w,
            "{},{},{},{},{},{end},{row},{into},{},{},{},{},{},{},{},{},{},{},{},{}",
            t.id,
            t.first_row,
            t.last_row,
            t.start_x,
            t.end_x,
            parents.join(" "),
            s.at_edge,
            s.thickness.map_or(String::new(), |m| m.to_string()),
            s.clear_rows.0,
            s.clear_rows.1,
            s.tail_rows,
            s.period.map_or(String::new(), |p| p.p.to_string()),
            s.period.map_or(String::new(), |p| p.shift.to_string()),
            s.near_period.map_or(String::new(), |n| n.period.p.to_string()),
            s.near_period.map_or(String::new(), |n| n.period.shift.to_string()),
            s.near_period.map_or(String::new(), |n| format!("{:.4}", n.share())),
            s.slope.map_or(String::new(), |v| format!("{v:.12}"))
        )?;
    }
    Ok(())
}

/// Colours of the threads in the picture (cycled by thread number).
pub const THREAD_RGB: [[u8; 3]; 10] = [
    [0xff, 0x30, 0x30],
    [0x30, 0xff, 0x30],
    [0x30, 0xc0, 0xff],
    [0xff, 0xa0, 0x00],
    [0xff, 0x40, 0xff],
    [0x00, 0xff, 0xc0],
    [0xff, 0xff, 0xff],
    [0xa0, 0x80, 0xff],
    [0xff, 0x80, 0x80],
    [0xc0, 0xff, 0x40],
];

/// The picture's palette: the thread colours, then the paper's palette dimmed.
fn plte() -> Vec<u8> {
    let dim = palette::RGB.iter().map(|c| c.map(|v| (u16::from(v) * 2 / 5) as u8));
    THREAD_RGB.iter().copied().chain(dim).flatten().collect()
}

/// The legend of the threads picture at `scale`: the threads' colours (a thread's colour is its
/// number modulo their count, the numbers of the CSV) and the picture's dimmed colours.
pub fn legend_key(k: u32, scale: u32) -> Key {
    let n = THREAD_RGB.len();
    let threads = (0..n).map(|i| (i as u8, format!("thread n = {i} mod {n}")));
    let dimmed =
        palette::NAMES.iter().enumerate().map(|(i, name)| ((n + i) as u8, format!("{name} (dimmed)")));
    Key {
        title: format!(
            "k = {k}: the threads of the upper warp over the picture{}",
            if scale > 1 { ", each block its lowest index" } else { "" }
        ),
        entries: threads.chain(dimmed).collect(),
        points: Vec::new(),
    }
}

/// Traces the threads of `window` of game `k` (see the module's header) with adjacency reach
/// `reach` ([`trace::REACH`] by default) and draws them over the
/// picture to `out` (`scale x scale` cells a pixel, the lowest index of each block, so a block
/// with a thread cell shows a thread), with a legend strip below it ([`legend_key`]) when
/// `legend` holds. Returns the tracer's result and the picture, written but not committed: the
/// caller commits it ([`AtomicOutput::commit`]) once what goes with it (the report, the CSV) is
/// ready, so that a run stopped while measuring leaves no picture behind.
#[allow(clippy::too_many_arguments)]
pub fn run(
    k: u32,
    window: Window,
    reach: u32,
    scale: u32,
    out: Option<AtomicOutput>,
    legend: bool,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(Traced, Option<AtomicOutput>)> {
    let mut png = match out {
        Some(o) => {
            let (w, h) = crate::output::png::picture_size(window, scale);
            let mut text = vec![(
                "Comment".to_string(),
                format!("palace threads, k = {k}, window {window}, scale {scale}"),
            )];
            let lay = legend.then(|| legend::layout(&legend_key(k, scale), &plte(), window, scale));
            let (strip, (fw, fh), pal) = StripBelow::new(lay, (w, h), plte(), &mut text);
            Some((
                PngStream::create(o, fw, fh, pal, text, opts.threads)?,
                Downscale::new(scale, Aggregate::Min, window.width() as usize),
                strip,
            ))
        }
        None => None,
    };
    let mut tracer = Tracer::new(reach);
    let mut line: Vec<u8> = vec![0; window.width() as usize];
    let (x0, x1) = (window.x0(), window.x1());
    labels::label_rows(k, window, opts, progress, |r| {
        let y = r.y;
        let lo = x0.max(y.saturating_add(1));
        let palaces = r.rest_palaces();
        let cells = &palaces[palaces.partition_point(|&x| x < lo)..];
        let rest = |x: i64| x >= i64::from(lo) && x < i64::from(x1) && r.is_rest(x as u32);
        let e = i64::from(EDGE);
        let labels = tracer.line(y, cells, |a, b| rest(i64::from(a) - e) && rest(i64::from(b) + e));
        if let Some((p, down, strip)) = &mut png {
            let row = crate::engine::sink::Row { k, y, x0: 0, cells: r.cells };
            let hood = row.hood_cells().max(x0 as usize);
            palette::indices(&r.cells[x0 as usize..x1 as usize], hood - x0 as usize, &mut line);
            for v in &mut line {
                *v += THREAD_RGB.len() as u8;
            }
            for &(x, id) in labels {
                line[(x - x0) as usize] = (id as usize % THREAD_RGB.len()) as u8;
            }
            if let Some(done) = down.push(&line) {
                strip.push_row(p, done)?;
            }
        }
        Ok(())
    })?;
    let picture = match png {
        Some((mut p, mut down, mut strip)) => {
            if let Some(done) = down.flush() {
                strip.push_row(&mut p, done)?;
            }
            strip.finish(&mut p)?;
            Some(p.finish_file()?)
        }
        None => None,
    };
    Ok((tracer.finish(), picture))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One straight thread open at the window's foot, with a tail long enough to be measured.
    fn one_long_thread() -> Traced {
        let mut tracer = Tracer::new(trace::REACH);
        for y in 0..LONG_TAIL as u32 + 100 {
            tracer.line(y, &[y / 2 + 10, y / 2 + 11], |_, _| true);
        }
        tracer.finish()
    }

    #[test]
    fn measuring_stops_once_the_run_is_cancelled() {
        let traced = one_long_thread();
        let window = Window::new(0, 0, 1000, LONG_TAIL as u32 + 100).unwrap();
        let live = Cancel::new();
        let report = ThreadsReport::new(1, window, trace::REACH, &traced, 2, &live).unwrap();
        assert_eq!(report.at_edge.1, 1, "the thread is measured: {report:?}");
        assert_eq!(summaries(&traced, 2, &live).unwrap().len(), 1);
        let stopped = Cancel::new();
        stopped.cancel();
        let r = ThreadsReport::new(1, window, trace::REACH, &traced, 2, &stopped);
        assert!(matches!(r, Err(ref e) if e.is_interrupted()), "{r:?}");
        assert!(matches!(summaries(&traced, 2, &stopped), Err(ref e) if e.is_interrupted()));
    }
}
