//! `palace bench`: the baseline and the fast engine on the same board in one process; with
//! `--backend gpu`, the GPU backend's statistics against the CPU engine's.
//!
//! The timed workload is "statistics only": compute every cell of the
//! board and gather the statistics of [`palace::analysis::stats`]. The **baseline** is the plain
//! three-counter dynamic programme of the paper's §1 (`reference::DirectDp`), one cell at a time
//! in row order on one thread, with the same statistics code fed row by row. The **fast engine**
//! is the tiled sweep with the chosen kernel, its statistics gathered by the workers.
//!
//! The **statistics by counters** are the same statistics from the counter form
//! (`stats::stats_by_counters`: the three-counter kernels tally the values they compute), which
//! `palace stats` uses for whole boards; the CA's run above is what it uses for other windows.
//!
//! The **palace-only sweep** is the counter form (`Sweep::palaces`, the three-counter
//! kernels) counting palaces, timed against the same plain programme counting palaces only;
//! both counts must equal the statistics' palace count.
//!
//! Then, untimed, both compute a digest of every cell (a hash of each 64-column row segment,
//! summed so that the order of tiles does not matter). Statistics and digests must be identical,
//! or the command fails.
//!
//! Peak memory is the process's resident high-water mark (`VmHWM`), reset before each run
//! where the kernel allows it (`/proc/self/clear_refs`), so each run's figure is its own.

use super::timing::Timing;
use super::timing::{Run, timed};
use crate::app::error::{Error, Result};
use crate::app::flags::{BackendArg, KernelArg, ReportArgs, RunArgs, RunConfig, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, check_writable_dir};
use crate::app::print::{ExitCode, out_text, print_report};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::stats::{Stats, StatsAcc};
use palace::engine::sink::{Row, RowParts, RowSink};
use palace::engine::{Cancel, EngineOptions, Silent, Sweep, SweepReport, TileView, TileVisitor};
use palace::kernel::KernelChoice;
use palace::model::geometry::Board;
use palace::model::geometry::Window;
use palace::model::reference::DirectDp;
use palace::model::rule::hood_len;
use palace::output::atomic::AtomicOutput;
use palace::output::palette;
use palace::output::png::{PngOptions, PngWriter};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Mutex;

/// Largest board side `bench` times (the baseline takes about 2.5 s at 30000).
pub const MAX_BENCH_SIDE: u32 = 100_000;

/// `palace bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game.
    #[arg(long, value_name = "K", default_value_t = 9999, value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Board side.
    #[arg(long, value_name = "N", default_value_t = 30000)]
    pub size: u32,
    /// Most worker threads to time (the engine is also timed on 1 thread); default: all cores.
    #[arg(long, value_name = "T", default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// The fast engine's kernel.
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// Time every run this many times and report the fastest (and the median).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeat: usize,
    /// Skip the PNG part (the sweep alone against a full-resolution render).
    #[arg(long)]
    pub no_png: bool,
    /// Where the PNG part writes its picture (deleted afterwards); default: the system's
    /// temporary directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_png")]
    pub png_dir: Option<PathBuf>,
    /// Also time `regions` and `compare` on the whole board (most threads) against the
    /// statistics of the same board, and `fabric` (windows of at most 8192) against the
    /// statistics of the boards its three sweeps cover.
    #[arg(long)]
    pub analyses: bool,
    /// `gpu`: time instead the GPU backend's statistics of the board against the CPU engine's
    /// on all threads, checking that both agree (a build with `--features gpu`).
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu, conflicts_with_all = ["analyses", "png_dir"])]
    pub backend: BackendArg,
    /// Instead, time the command given after `--` (e.g. `-- skin --k 40003 --to 1040003`) at
    /// each of these thread counts, comma-separated (e.g. 1,2,4,8,16): best and median of
    /// --repeat runs, speed-up and efficiency, and a check that its output is the same at every
    /// count.
    #[arg(long, value_name = "T1,T2,...", conflicts_with_all = ["analyses", "png_dir", "no_png", "backend", "threads", "kernel", "k", "size"])]
    pub series: Option<String>,
    /// Instead, time `palace cell` on three cells far from the corner (k = 40003 at
    /// (200000, 60000) and (1000000, 300000), k = 1 at (0, 1073741823)) against `palace stats`
    /// of the rectangle each depends on, on --threads threads.
    #[arg(long, conflicts_with_all = ["analyses", "png_dir", "no_png", "backend", "series", "k", "size"])]
    pub cells: bool,
    /// The command `--series` times, after `--`.
    #[arg(last = true, value_name = "COMMAND", requires = "series")]
    pub command: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    /// No progress messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A validated `palace bench` on the CPU.
struct Bench {
    k: u32,
    size: u32,
    /// The thread counts to time.
    threads: Vec<usize>,
    kernel: KernelChoice,
    /// Repetitions per run.
    repeat: usize,
    /// Where the PNG part writes its picture; `None`: no PNG part.
    png_dir: Option<PathBuf>,
    /// Also time `regions`, `compare` and `fabric`.
    analyses: bool,
    json: bool,
    /// No progress messages.
    quiet: bool,
}

/// A validated `palace bench --backend gpu`: the GPU backend's statistics timed against the CPU
/// engine's (a build without the GPU backend refuses it when it runs).
struct BenchGpu {
    k: u32,
    size: u32,
    repeat: usize,
    json: bool,
    /// Engine settings of the CPU runs.
    run: RunConfig,
}

/// Validates and runs `palace bench`.
pub fn run(a: BenchArgs, ctx: &Context) -> Result<ExitCode> {
    if a.repeat == 0 || a.repeat > 100 {
        return Err(Error::Usage(format!("--repeat {}: use 1..=100", a.repeat)));
    }
    if let Some(series) = &a.series {
        return ctx.run(super::series::Series::new(series, a.command, a.repeat, a.report.json, a.quiet)?);
    }
    if a.cells {
        let run = RunArgs {
            threads: a.threads,
            kernel: a.kernel,
            quiet: a.quiet,
            tile_width: None,
            band_height: None,
        }
        .resolve(&ctx.cancel)?;
        return ctx.run(super::cells_bench::CellsBench {
            repeat: a.repeat,
            engine: run.engine,
            json: a.report.json,
        });
    }
    Board::new(a.k, a.size, a.size)?;
    if a.size > MAX_BENCH_SIDE {
        return Err(Error::Usage(format!(
            "--size {}: the baseline would take hours; use --size <= {MAX_BENCH_SIDE}",
            a.size
        )));
    }
    let png_dir = (!a.no_png).then(|| a.png_dir.clone().unwrap_or_else(std::env::temp_dir));
    if let Some(dir) = &png_dir {
        check_writable_dir(dir, "--png-dir")?;
    }
    let run =
        RunArgs { threads: a.threads, kernel: a.kernel, quiet: a.quiet, tile_width: None, band_height: None }
            .resolve(&ctx.cancel)?;
    let most = run.engine.resolved_threads();
    if a.backend == BackendArg::Gpu {
        return ctx.run(BenchGpu { k: a.k, size: a.size, repeat: a.repeat, json: a.report.json, run });
    }
    ctx.run(Bench {
        k: a.k,
        size: a.size,
        threads: vec![1, most],
        kernel: a.kernel.into(),
        repeat: a.repeat,
        png_dir,
        analyses: a.analyses,
        json: a.report.json,
        quiet: a.quiet,
    })
}

impl Request for Bench {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--png-dir", self.png_dir.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let most = self.threads.iter().copied().max().unwrap_or(1);
        let work = if self.analyses { Work::Regions } else { Work::Picture { zoom: 1 } };
        Some(Need {
            footprint: footprint(work, u64::from(self.size), most),
            what: format!("--size {}", self.size),
            fix: "use a smaller --size, or fewer --threads",
        })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let report = {
            let engine =
                EngineOptions { kernel: self.kernel, cancel: ctx.cancel.clone(), ..EngineOptions::default() };
            let parts = Parts { png_dir: self.png_dir.as_deref(), analyses: self.analyses };
            measure(self.k, self.size, &engine, &self.threads, self.repeat, parts, self.quiet)?
        };
        print_report(self.json, &report)?;
        Ok(0)
    }
}

impl Request for BenchGpu {
    /// The statistics of the `size x size` board of game `k` on the GPU and by the CPU engine
    /// (its counter sweep, on all the threads `run` allows), `repeat` times each; the fastest
    /// and the median run of each, and whether the two agree. The device is opened once,
    /// before the runs are timed.
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        use palace::backend::{self, Backend, Device, GpuOptions, StatsForm};
        use palace::resume::Checkpoints;
        let BenchGpu { k, size, repeat, json, run } = self;
        let device = Device::open()?;
        let adapter = device.adapter().summary;
        let gpu = Backend::Gpu(GpuOptions { shape: None, device: Some(device) });
        let cpu = Backend::Cpu(run.engine.clone());
        let board = Board::new(k, size, size)?;
        let cancel = &run.engine.cancel;
        let stats = |on: &Backend| -> Result<palace::analysis::stats::Stats> {
            let none = Checkpoints::none();
            Ok(backend::stats(on, board, board.full(), StatsForm::Counters, &none, &Silent, cancel)?.0)
        };
        let cells = u64::from(size) * u64::from(size);
        let threads = run.engine.resolved_threads();
        let (on_gpu, g) = timed("gpu", 1, cells, repeat, || stats(&gpu))?;
        let (on_cpu, c) = timed("cpu", threads, cells, repeat, || stats(&cpu))?;
        if on_gpu != on_cpu {
            return Err(Error::mismatch(format!(
                "the GPU's statistics of k = {k}, {size} x {size} differ from the CPU's"
            )));
        }
        let (gb, gm, cb, cm) = (g.seconds, g.median_seconds, c.seconds, c.median_seconds);
        let text = if json {
            serde_json::to_string_pretty(&serde_json::json!({
                "k": k, "size": size, "repeat": repeat, "adapter": adapter,
                "gpu_best_s": gb, "gpu_median_s": gm, "cpu_threads": threads, "cpu_best_s": cb,
                "cpu_median_s": cm, "same": true,
            }))
            .expect("serialisable")
        } else {
            format!(
                "stats, k = {k}, {size} x {size}, best (median) of {repeat}:\n  GPU {adapter}: {gb:.3} s ({gm:.3} s), {:.1} G cells/s\n  CPU, {threads} threads: {cb:.3} s ({cm:.3} s), {:.1} G cells/s\n  the same statistics: yes",
                g.cells_per_second / 1e9,
                c.cells_per_second / 1e9
            )
        };
        out_text(&text)?;
        Ok(0)
    }
}

/// Columns per digest segment; tiles must start on multiples of it.
const SEG: usize = 64;

/// Hash of one 64-column segment of row `y` (fewer cells at the window's right edge):
/// independent multiplies of its eight words, mixed with the position. Segments are summed, so
/// the digest does not depend on the order in which tiles finish.
fn segment_hash(y: u64, seg: u64, cells: &[i8]) -> u64 {
    const K: [u64; 8] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
        0x2545_F491_4F6C_DD1D,
    ];
    let mut acc = 0u64;
    let mut words = cells.chunks(8);
    for (k, w) in K.iter().zip(&mut words) {
        let mut b = [0u8; 8];
        for (d, &c) in b.iter_mut().zip(w) {
            *d = c as u8;
        }
        acc = acc.wrapping_add(u64::from_le_bytes(b).wrapping_mul(*k));
    }
    let mut h = acc ^ (y << 24 ^ seg).wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ cells.len() as u64;
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

/// Digest of row `y`'s stored cells from column `x0` on, where `x0` is a multiple of [`SEG`].
fn digest_row(y: u64, x0: u64, cells: &[i8]) -> u64 {
    debug_assert_eq!(x0 % SEG as u64, 0);
    cells
        .chunks(SEG)
        .enumerate()
        .fold(0u64, |d, (i, c)| d.wrapping_add(segment_hash(y, x0 / SEG as u64 + i as u64, c)))
}

/// The digest of every cell, gathered by the workers.
struct DigestVisitor {
    digests: Vec<Mutex<u64>>,
}

impl TileVisitor for DigestVisitor {
    fn visit(&self, worker: usize, t: &TileView<'_>) {
        let mut digest = self.digests[worker].lock().expect("digest lock");
        let mut scratch = Vec::new();
        for y in t.y0..t.y1 {
            let cells = t.row_or(y, &mut scratch);
            *digest = digest.wrapping_add(digest_row(u64::from(y), u64::from(t.x0), cells));
        }
    }
}

/// The whole benchmark.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// The game.
    pub k: u32,
    /// Board side.
    pub size: u32,
    /// The kernel the fast engine used.
    pub kernel: &'static str,
    /// The CA kernel's form in words: the rule in anti-diagonal or band lanes, and the
    /// instruction set ([`KernelChoice::describe`](palace::kernel::KernelChoice::describe)).
    pub ca_kernel: String,
    /// The instruction sets automatic choices used (histogram, deflate; the kernel if auto)
    /// and why ([`palace::simd::cpu::reason`]).
    pub isa: String,
    /// The CPU's model name, where the operating system tells it.
    pub cpu: Option<String>,
    /// The baseline run.
    pub baseline: Run,
    /// The fast runs, by thread count.
    pub fast: Vec<Run>,
    /// Fast (1 thread) cells/s over baseline cells/s.
    pub speedup_1_thread: f64,
    /// Fast (most threads) over fast (1 thread).
    pub thread_scaling: f64,
    /// The statistics by counters, by thread count.
    pub stats_counters: Vec<Run>,
    /// Statistics by counters (1 thread) over the baseline.
    pub stats_counters_speedup_1_thread: f64,
    /// Statistics by counters (most threads) over 1 thread.
    pub stats_counters_thread_scaling: f64,
    /// The counter kernel of the palace-only sweeps (`none`: the CA's exact paths).
    pub counter_kernel: &'static str,
    /// The plain programme counting palaces only.
    pub baseline_palaces: Run,
    /// The palace-only sweeps, by thread count.
    pub palaces: Vec<Run>,
    /// Palace-only sweep (1 thread) over the plain programme counting palaces.
    pub palaces_speedup_1_thread: f64,
    /// Palace-only sweep (most threads) over 1 thread.
    pub palaces_thread_scaling: f64,
    /// Whether every run produced the same statistics, palace count and digest.
    pub outputs_agree: bool,
    /// The statistics (identical across runs when `outputs_agree`).
    pub stats: Stats,
    /// The digest of every cell.
    pub digest: String,
    /// The full-resolution PNG against the sweep alone (absent under `--no-png`).
    pub png: Option<PngBench>,
    /// `regions`, `compare` and `fabric` against the statistics (with `--analyses`).
    pub analyses: Option<AnalysesBench>,
}

/// `palace regions` and `palace compare` on the whole board, on the most threads, against the
/// statistics of the same board on as many threads (the runs of [`BenchReport::fast`] and
/// [`BenchReport::stats_counters`]); `palace fabric` (three games, each swept from the origin
/// to the far corner of its window of at most 8192 x 8192 around the nose) against the
/// statistics of the boards those sweeps cover, at the rates measured on the board. Their outputs are the same from repetition to repetition; that they equal
/// their plain references is what the tests check (`tests/integration/analyses_tiled.rs`).
#[derive(Debug, Clone, Serialize)]
pub struct AnalysesBench {
    /// `palace regions --k K --size N` (labels and report; no map).
    pub regions: Run,
    /// The three games the tiled labeller sweeps for `regions`, with nothing done to their
    /// tiles: the floor of `regions`' approach.
    pub games_only: Run,
    /// Wall-clock time of the games alone over the statistics by counters.
    pub games_only_over_stats: f64,
    /// `palace compare --k K --k2 K+3 --shift 1,1 --offset 3 --size N` (Fig. 4 left).
    pub compare: Run,
    /// Wall-clock time of `regions` over the statistics by counters (`palace stats`).
    pub regions_over_stats: f64,
    /// Wall-clock time of `regions` over the statistics by the CA (`palace stats --ca`).
    pub regions_over_ca_stats: f64,
    /// Wall-clock time of `compare` over the statistics by counters.
    pub compare_over_stats: f64,
    /// Wall-clock time of `compare` over the statistics by the CA.
    pub compare_over_ca_stats: f64,
    /// `palace fabric --k K --size min(N, 8192)` (Fig. 7; no picture); its `cells` are the
    /// cells its three sweeps compute.
    pub fabric: Run,
    /// Wall-clock time of `fabric` over the statistics of its cells by counters, and by the CA.
    pub fabric_over_stats: f64,
    pub fabric_over_ca_stats: f64,
}

/// Times `regions` and `compare` on the whole board `size x size` of game `k`, and `fabric`
/// of the games from `k` with windows of `min(size, 8192)`.
fn analyses(k: u32, size: u32, opts: &EngineOptions, repeat: usize) -> Result<[Run; 4]> {
    use palace::analysis::{compare, fabric, regions};
    use palace::labels;
    let window = palace::model::geometry::Window::new(0, 0, size, size)?;
    let cells = u64::from(size) * u64::from(size);
    let quiet = palace::engine::Silent;
    let (_, r) = timed("regions", opts.threads, cells, repeat, || {
        Ok(as_json(&regions::run(k, window, 1, None, opts, &quiet)?.0))
    })?;
    let (_, games) = timed("  its three games alone", opts.threads, cells, repeat, || {
        Ok(labels::sweep_games_only(k, window, opts, &quiet)?)
    })?;
    let c = compare::Comparison { a: k, b: k + 3, shift: (1, 1), offset: 3 };
    let (_, cmp) = timed("compare (k+3, shift 1,1, +3)", opts.threads, cells, repeat, || {
        Ok(as_json(&compare::run(c, window, 1, None, opts, &quiet)?.0))
    })?;
    let side = size.min(8192);
    let (_, fab) = timed("fabric (3 games)", opts.threads, fabric::swept_cells(k, side)?, repeat, || {
        Ok(as_json(&fabric::run(k, side, None, opts, &quiet)?.0))
    })?;
    Ok([r, games, cmp, fab])
}

/// The optional parts of the benchmark.
#[derive(Debug, Clone, Copy, Default)]
pub struct Parts<'a> {
    /// Where the PNG part writes its picture; `None`: no PNG part.
    pub png_dir: Option<&'a std::path::Path>,
    /// Whether to time `regions` and `compare` ([`AnalysesBench`]).
    pub analyses: bool,
}

/// A report as JSON text: what two repetitions must agree on.
fn as_json<T: Serialize>(report: &T) -> String {
    serde_json::to_string(report).expect("a report serialises")
}

/// The PNG target: a full-resolution picture of the board against the same sweep with its
/// rows thrown away.
#[derive(Debug, Clone, Serialize)]
pub struct PngBench {
    /// The sweep alone: every row of the board handed over in order (in pieces, as to the PNG
    /// writer) and dropped.
    pub sweep: Run,
    /// `palace render`'s work: the same sweep feeding the PNG writer, to a temporary file.
    pub render: Run,
    /// The sweep alone and the render on one thread, when `sweep` and `render` used more.
    pub one_thread: Option<(Run, Run)>,
    /// CPU seconds the render spent beyond the sweep alone (most threads, fastest runs): the
    /// picture's own work of reading the cells again, deflating and writing.
    pub picture_cpu_seconds: f64,
    /// Fastest render over fastest sweep.
    pub ratio: f64,
    /// Median render over median sweep.
    pub median_ratio: f64,
    /// Size of the PNG file.
    pub file_bytes: u64,
    /// Where the file was written (then deleted).
    pub directory: String,
    /// Whether the PNG, decoded by the `png` crate, shows exactly the engine's cells.
    pub decoded_matches: bool,
}

/// Feeds the baseline's rows to `f`, checking `cancel` between rows.
fn baseline_rows(k: u32, size: u32, cancel: &Cancel, mut f: impl FnMut(u64, &[i8])) -> Result<()> {
    let n = size as usize;
    let mut dp = DirectDp::new(k, n);
    let mut row = vec![0i8; n];
    for y in 0..u64::from(size) {
        cancel.check()?;
        let pn = dp.next_row();
        let hood = (hood_len(k, y) as usize).min(n);
        for (x, (c, &p)) in row.iter_mut().zip(pn).enumerate() {
            let v = i64::from(p) - i64::from(k);
            *c = if x < hood {
                v.max(-128) as i8
            } else {
                i8::try_from(v).expect("v outside the hood fits i8")
            };
        }
        f(y, &row);
    }
    Ok(())
}

/// The baseline: the three-counter programme, statistics fed row by row.
pub fn baseline(k: u32, size: u32, cancel: &Cancel) -> Result<Stats> {
    let mut acc = StatsAcc::new(k);
    baseline_rows(k, size, cancel, |y, row| acc.add_segment(y, 0, row))?;
    Ok(acc.finish(Window::new(0, 0, size, size)?))
}

/// The baseline's digest of every cell.
pub fn baseline_digest(k: u32, size: u32, cancel: &Cancel) -> Result<u64> {
    let mut digest = 0u64;
    baseline_rows(k, size, cancel, |y, row| digest = digest.wrapping_add(digest_row(y, 0, row)))?;
    Ok(digest)
}

/// The plain programme counting palaces only: the baseline of the palace-only sweep.
pub fn baseline_palaces(k: u32, size: u32, cancel: &Cancel) -> Result<u64> {
    let mut dp = DirectDp::new(k, size as usize);
    let mut palaces = 0u64;
    for _ in 0..size {
        cancel.check()?;
        palaces += dp.next_row().iter().filter(|&&n| n < k).count() as u64;
    }
    Ok(palaces)
}

/// The palace-only sweep: the counter form, palaces counted by the workers.
pub fn palaces(k: u32, size: u32, opts: &EngineOptions) -> Result<(u64, SweepReport)> {
    Ok(palace::analysis::stats::palaces(k, size, size, opts, &Silent).map(|(c, r)| (c.palaces, r))?)
}

/// The fast engine, statistics on the workers.
pub fn fast(k: u32, size: u32, opts: &EngineOptions) -> Result<(Stats, SweepReport)> {
    Ok(palace::analysis::stats::stats(k, Window::new(0, 0, size, size)?, opts, &Silent)?)
}

/// The statistics by a counter sweep (the kernels' tally).
pub fn fast_counters(k: u32, size: u32, opts: &EngineOptions) -> Result<(Stats, SweepReport)> {
    Ok(palace::analysis::stats::stats_by_counters(k, size, size, opts, &Silent)?)
}

/// The fast engine's digest of every cell.
pub fn fast_digest(k: u32, size: u32, opts: &EngineOptions) -> Result<u64> {
    let window = Window::new(0, 0, size, size)?;
    let visitor = DigestVisitor { digests: (0..opts.resolved_threads()).map(|_| Mutex::new(0)).collect() };
    Sweep::new(k, window).options(opts).tiles(&visitor)?;
    Ok(visitor.digests.into_iter().fold(0u64, |d, m| d.wrapping_add(m.into_inner().expect("digest lock"))))
}

/// A sink that drops every row (the sweep alone). Like the PNG writer it takes rows in pieces,
/// so the two differ by the PNG's work only.
struct Discard;

impl RowSink for Discard {
    type Error = crate::app::error::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        std::hint::black_box(row.cells);
        Ok(())
    }

    fn takes_parts(&self) -> bool {
        true
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<()> {
        std::hint::black_box(row.parts);
        Ok(())
    }
}

/// Compares a decoded PNG, row by row, with the palette indices of the engine's rows.
struct PngCheck<R: std::io::BufRead + std::io::Seek> {
    reader: png::Reader<R>,
    path: std::path::PathBuf,
    indices: Vec<u8>,
    matches: bool,
}

impl<R: std::io::BufRead + std::io::Seek> RowSink for PngCheck<R> {
    type Error = crate::app::error::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        palette::indices(row.cells, row.hood_cells(), &mut self.indices);
        let depth = self.reader.info().bit_depth as u8;
        let decoded = self
            .reader
            .next_row()
            .map_err(|e| palace::Error::PngDecode { path: self.path.clone(), source: e })?;
        let same = decoded.is_some_and(|r| {
            palace::output::png::unpack(r.data(), self.indices.len(), depth) == self.indices
        });
        self.matches &= same;
        Ok(())
    }
}

/// Times the sweep alone (rows handed over and dropped) and the full-resolution render to a
/// temporary file in `dir`, in turns, then decodes the last picture and compares it with the
/// engine's cells (untimed).
pub fn png(
    k: u32,
    size: u32,
    opts: &EngineOptions,
    repeat: usize,
    dir: &std::path::Path,
) -> Result<PngBench> {
    let threads = opts.resolved_threads();
    let one_thread = if threads > 1 {
        let one = EngineOptions { threads: 1, ..opts.clone() };
        let p = png_at(k, size, &one, repeat, dir)?;
        Some((p.sweep, p.render))
    } else {
        None
    };
    Ok(PngBench { one_thread, ..png_at(k, size, opts, repeat, dir)? })
}

/// The PNG part on `opts`'s thread count.
fn png_at(k: u32, size: u32, opts: &EngineOptions, repeat: usize, dir: &std::path::Path) -> Result<PngBench> {
    let window = Window::new(0, 0, size, size)?;
    let cells = u64::from(size) * u64::from(size);
    let threads = opts.resolved_threads();
    let tmp =
        tempfile::Builder::new().prefix("palace-bench").tempdir_in(dir).map_err(|e| Error::io(dir, e))?;
    let path = tmp.path().join("bench.png");
    let mut sweep_t = Timing::new("sweep alone (rows handed over)", threads, cells);
    let mut render_t = Timing::new("render (full-resolution PNG)", threads, cells);
    for _ in 0..repeat.max(1) {
        sweep_t.once(|| Sweep::new(k, window).options(opts).rows(&mut Discard).map(|_| ()))?;
        render_t.once(|| {
            let out = AtomicOutput::create(&path, "bench")?;
            let mut writer = PngWriter::create(out, k, window, PngOptions::default())?;
            Sweep::new(k, window).options(opts).rows(&mut writer)?;
            let written = writer.finish()?;
            std::fs::metadata(&written).map(|m| m.len()).map_err(|e| Error::io(&written, e))
        })?;
    }
    let (_, sweep_run) = sweep_t.finish();
    let (file_bytes, render_run) = render_t.finish();
    let file = std::fs::File::open(&path).map_err(|e| Error::io(&path, e))?;
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| palace::Error::PngDecode { path: path.clone(), source: e })?;
    let mut check = PngCheck { reader, path: path.clone(), indices: vec![0; size as usize], matches: true };
    Sweep::new(k, window).options(opts).rows(&mut check)?;
    Ok(PngBench {
        one_thread: None,
        picture_cpu_seconds: render_run.cpu_seconds - sweep_run.cpu_seconds,
        ratio: render_run.seconds / sweep_run.seconds,
        median_ratio: render_run.median_seconds / sweep_run.median_seconds,
        sweep: sweep_run,
        render: render_run,
        file_bytes,
        directory: dir.display().to_string(),
        decoded_matches: check.matches,
    })
}

/// Runs the whole benchmark: baseline once, the fast engine at 1 thread and at each count in
/// `threads` (ascending, 1 first if absent). `engine` gives the kernel and the cancellation
/// token; its thread count is replaced by each of `threads`.
pub fn measure(
    k: u32,
    size: u32,
    engine: &EngineOptions,
    threads: &[usize],
    repeat: usize,
    parts: Parts<'_>,
    quiet: bool,
) -> Result<BenchReport> {
    let Parts { png_dir, analyses: with_analyses } = parts;
    let kernel = engine.kernel;
    let cells = u64::from(size) * u64::from(size);
    let say = |m: &str| {
        if !quiet {
            eprintln!("{m}");
        }
    };
    say(&format!("baseline: three-counter programme, k = {k}, {size} x {size}, 1 thread ..."));
    let (base_stats, baseline) =
        timed("baseline (three counters)", 1, cells, repeat, || baseline(k, size, &engine.cancel))?;
    let mut counts: Vec<usize> = threads.to_vec();
    if !counts.contains(&1) {
        counts.push(1);
    }
    counts.sort_unstable();
    counts.dedup();
    // The thread counts take turns, repetition by repetition, so that a slow spell of the
    // shared machine hits them alike and the scaling compares like with like.
    say(&format!(
        "fast engine ({}), {} thread(s), in turns ...",
        kernel.resolve().name(),
        counts.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" and ")
    ));
    let mut timings: Vec<(Timing<Stats>, Option<SweepReport>)> =
        counts.iter().map(|&t| (Timing::new("fast engine", t, cells), None)).collect();
    let mut palace_timings: Vec<(Timing<u64>, Option<SweepReport>)> =
        counts.iter().map(|&t| (Timing::new("palace-only sweep", t, cells), None)).collect();
    let mut counter_timings: Vec<(Timing<Stats>, Option<SweepReport>)> =
        counts.iter().map(|&t| (Timing::new("statistics by counters", t, cells), None)).collect();
    for _ in 0..repeat.max(1) {
        for (((timing, report), (ptiming, preport)), (ctiming, creport)) in
            timings.iter_mut().zip(&mut palace_timings).zip(&mut counter_timings)
        {
            let opts = EngineOptions { threads: timing.threads, ..engine.clone() };
            timing.once(|| {
                let (s, rep) = fast(k, size, &opts)?;
                *report = Some(rep);
                Ok(s)
            })?;
            ctiming.once(|| {
                let (s, rep) = fast_counters(k, size, &opts)?;
                *creport = Some(rep);
                Ok(s)
            })?;
            ptiming.once(|| {
                let (n, rep) = palaces(k, size, &opts)?;
                *preport = Some(rep);
                Ok(n)
            })?;
        }
    }
    say(&format!("baseline: three-counter programme counting palaces only, {size} x {size}, 1 thread ..."));
    let (base_palaces, baseline_p) =
        timed("baseline, palaces only", 1, cells, repeat, || baseline_palaces(k, size, &engine.cancel))?;
    let mut fast_runs = Vec::new();
    let mut agree = true;
    for (timing, report) in timings {
        let (s, mut r) = timing.finish();
        agree &= s == base_stats;
        r.engine = report;
        fast_runs.push(r);
    }
    let mut counter_runs = Vec::new();
    for (timing, report) in counter_timings {
        let (s, mut r) = timing.finish();
        agree &= s == base_stats;
        r.engine = report;
        counter_runs.push(r);
    }
    agree &= base_palaces == base_stats.total.palaces;
    let mut palace_runs = Vec::new();
    for (timing, report) in palace_timings {
        let (n, mut r) = timing.finish();
        agree &= n == base_palaces;
        r.engine = report;
        palace_runs.push(r);
    }
    say("verifying: digest of every cell, baseline and fast engine (untimed) ...");
    let base_digest = baseline_digest(k, size, &engine.cancel)?;
    let most = *counts.last().expect("a thread count");
    let opts = EngineOptions { threads: most, ..engine.clone() };
    agree &= fast_digest(k, size, &opts)? == base_digest;
    let png = match png_dir {
        Some(dir) => {
            say(&format!(
                "PNG: sweep alone and full-resolution render, {most} thread(s), in turns (file in {}) ...",
                dir.display()
            ));
            Some(self::png(k, size, &opts, repeat, dir)?)
        }
        None => None,
    };
    let analyses = match with_analyses {
        true => {
            say(&format!("analyses: regions, compare and fabric, {} thread(s) ...", opts.threads));
            let [regions, games_only, compare, fabric] = analyses(k, size, &opts, repeat)?;
            let ca = fast_runs.last().expect("a run").seconds;
            let counters = counter_runs.last().expect("a run").seconds;
            // The statistics' time for fabric's cells, at the rates measured on the board.
            let per_cell = |s: f64| s / (f64::from(size) * f64::from(size));
            let fabric_cells = fabric.cells_per_second * fabric.seconds;
            Some(AnalysesBench {
                fabric_over_stats: fabric.seconds / (per_cell(counters) * fabric_cells),
                fabric_over_ca_stats: fabric.seconds / (per_cell(ca) * fabric_cells),
                fabric,
                regions_over_stats: regions.seconds / counters,
                games_only_over_stats: games_only.seconds / counters,
                games_only,
                regions_over_ca_stats: regions.seconds / ca,
                compare_over_stats: compare.seconds / counters,
                compare_over_ca_stats: compare.seconds / ca,
                regions,
                compare,
            })
        }
        false => None,
    };
    let one = fast_runs.iter().find(|r| r.threads == 1).expect("1-thread run").cells_per_second;
    let most = fast_runs.last().expect("a run").cells_per_second;
    let c_one = counter_runs.iter().find(|r| r.threads == 1).expect("1-thread run").cells_per_second;
    let c_most = counter_runs.last().expect("a run").cells_per_second;
    let p_one = palace_runs.iter().find(|r| r.threads == 1).expect("1-thread run").cells_per_second;
    let p_most = palace_runs.last().expect("a run").cells_per_second;
    let base_rate = baseline.cells_per_second;
    let report = BenchReport {
        k,
        size,
        kernel: kernel.resolve().name(),
        ca_kernel: kernel.describe(),
        isa: palace::simd::cpu::reason(),
        cpu: palace::simd::cpu::model_name(),
        speedup_1_thread: one / baseline.cells_per_second,
        thread_scaling: most / one,
        baseline,
        fast: fast_runs,
        stats_counters_speedup_1_thread: c_one / base_rate,
        stats_counters_thread_scaling: c_most / c_one,
        stats_counters: counter_runs,
        counter_kernel: kernel.counter().map_or("none", |c| c.name),
        palaces_speedup_1_thread: p_one / baseline_p.cells_per_second,
        palaces_thread_scaling: p_most / p_one,
        baseline_palaces: baseline_p,
        palaces: palace_runs,
        outputs_agree: agree,
        stats: base_stats,
        digest: format!("{base_digest:016x}"),
        png,
        analyses,
    };
    if report.png.as_ref().is_some_and(|p| !p.decoded_matches) {
        return Err(Error::mismatch(format!(
            "the rendered PNG differs from the engine's cells (k = {k}, size {size})"
        )));
    }
    if !agree {
        return Err(Error::mismatch(format!(
            "the fast engine's output differs from the baseline's (k = {k}, size {size})"
        )));
    }
    Ok(report)
}

/// One line of the report's table.
fn write_run(f: &mut std::fmt::Formatter<'_>, name: &str, r: &Run) -> std::fmt::Result {
    let rss = r.peak_rss_bytes.map_or("n/a".to_string(), |b| format!("{:.1} MiB", b as f64 / 1048576.0));
    writeln!(
        f,
        "{name:<34} {:>7} {:>9.3} {:>9.3} {:>9.2} {:>12.3} G {rss:>11}",
        r.threads,
        r.seconds,
        r.median_seconds,
        r.cpu_seconds,
        r.cells_per_second / 1e9,
    )
}

/// How a sweep produced its cells.
fn write_cells(f: &mut std::fmt::Formatter<'_>, e: &SweepReport) -> std::fmt::Result {
    let counters = if e.counter_computed > 0 {
        format!("three counters {}, ", e.counter_computed)
    } else {
        String::new()
    };
    writeln!(
        f,
        "cells computed {} ({counters}narrow {}, wide {}), filled {} (hood {}, quiet {})",
        e.computed(),
        e.narrow_computed,
        e.wide_computed,
        e.filled(),
        e.hood_filled,
        e.zero_filled
    )
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "k = {}, board {} x {} ({} cells), statistics only (timed, best of {}); digest of every cell compared (untimed)",
            self.k,
            self.size,
            self.size,
            u64::from(self.size).pow(2),
            self.baseline.repeats
        )?;
        writeln!(f, "cpu: {}; instruction sets: {}", self.cpu.as_deref().unwrap_or("unknown"), self.isa)?;
        writeln!(
            f,
            "kernels: fast engine and PNG part: {}; counter runs: three counters, band lanes ({})",
            self.ca_kernel, self.counter_kernel
        )?;
        writeln!(
            f,
            "{:<34} {:>7} {:>9} {:>9} {:>9} {:>14} {:>11}",
            "run", "threads", "best s", "median s", "cpu s", "cells/s", "peak RSS"
        )?;
        for r in std::iter::once(&self.baseline).chain(&self.fast) {
            let name =
                if r.engine.is_some() { format!("{} ({})", r.name, self.kernel) } else { r.name.clone() };
            write_run(f, &name, r)?;
        }
        writeln!(f, "fast engine, 1 thread / baseline: {:.1}x", self.speedup_1_thread)?;
        if let Some(last) = self.fast.last() {
            writeln!(f, "fast engine, {} threads / 1 thread: {:.2}x", last.threads, self.thread_scaling)?;
            // The same cells cost the same CPU time on any thread count unless the cores were
            // slowed (a busy shared machine) or the workers waited: say so, since the ratio
            // then says more about the machine than about the engine.
            let one = self.fast.first().map_or(f64::NAN, |r| r.cpu_seconds);
            let excess = last.cpu_seconds / one;
            if last.threads > 1 && excess > 1.25 {
                writeln!(
                    f,
                    "note: the {}-thread run took {excess:.2}x the CPU time of the 1-thread run for the same cells (slowed or waiting cores); run again for a fairer ratio",
                    last.threads
                )?;
            }
            if let Some(e) = &last.engine {
                write_cells(f, e)?;
            }
        }
        writeln!(
            f,
            "statistics by counters (three counters, {} kernel, tallied; what `palace stats` uses for whole boards):",
            self.counter_kernel
        )?;
        for r in &self.stats_counters {
            write_run(f, &r.name, r)?;
        }
        writeln!(
            f,
            "statistics by counters, 1 thread / baseline: {:.1}x ({:.2}x the CA's statistics)",
            self.stats_counters_speedup_1_thread,
            self.stats_counters_speedup_1_thread / self.speedup_1_thread
        )?;
        if let Some(last) = self.stats_counters.last() {
            writeln!(
                f,
                "statistics by counters, {} threads / 1 thread: {:.2}x",
                last.threads, self.stats_counters_thread_scaling
            )?;
            if let Some(e) = &last.engine {
                write_cells(f, e)?;
            }
        }
        writeln!(f, "palace-only sweep (three counters, {} kernel):", self.counter_kernel)?;
        for r in std::iter::once(&self.baseline_palaces).chain(&self.palaces) {
            write_run(f, &r.name, r)?;
        }
        writeln!(f, "palace-only sweep, 1 thread / baseline: {:.1}x", self.palaces_speedup_1_thread)?;
        if let Some(last) = self.palaces.last() {
            writeln!(
                f,
                "palace-only sweep, {} threads / 1 thread: {:.2}x",
                last.threads, self.palaces_thread_scaling
            )?;
            if let Some(e) = &last.engine {
                write_cells(f, e)?;
            }
        }
        writeln!(
            f,
            "outputs: {} (digest {}, {} palaces)",
            if self.outputs_agree { "identical" } else { "DIFFER" },
            self.digest,
            self.stats.total.palaces
        )?;
        if let Some(p) = &self.png {
            writeln!(f, "full-resolution PNG (file in {}):", p.directory)?;
            for r in p.one_thread.iter().flat_map(|(s, r)| [s, r]).chain([&p.sweep, &p.render]) {
                write_run(f, &r.name, r)?;
            }
            writeln!(
                f,
                "render / sweep alone: {:.2}x (medians {:.2}x); {:.1} MB, decoded: {}",
                p.ratio,
                p.median_ratio,
                p.file_bytes as f64 / 1e6,
                if p.decoded_matches { "identical to the engine's cells" } else { "DIFFERS" }
            )?;
            // What bounds the render: not the kernels but the picture's own work.
            writeln!(
                f,
                "the render is bound by the picture, not the sweep: {:.2} CPU s beyond the sweep alone to read {} cells again, deflate their scanlines and write {:.1} MB",
                p.picture_cpu_seconds,
                u64::from(self.size).pow(2),
                p.file_bytes as f64 / 1e6
            )?;
        }
        if let Some(a) = &self.analyses {
            writeln!(f, "analyses on the sweep's workers (whole board; outputs equal from run to run):")?;
            for r in [&a.regions, &a.games_only, &a.compare, &a.fabric] {
                write_run(f, &r.name, r)?;
            }
            writeln!(
                f,
                "regions / statistics: {:.1}x (by the CA: {:.1}x; its three games alone: {:.1}x); compare / statistics: {:.1}x (by the CA: {:.1}x); same threads",
                a.regions_over_stats,
                a.regions_over_ca_stats,
                a.games_only_over_stats,
                a.compare_over_stats,
                a.compare_over_ca_stats
            )?;
            writeln!(
                f,
                "fabric / statistics of the boards its three sweeps cover: {:.1}x (by the CA: {:.1}x)",
                a.fabric_over_stats, a.fabric_over_ca_stats
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_notes_when_more_threads_cost_more_cpu() {
        let mut r = measure(50, 200, &EngineOptions::default(), &[1, 2], 1, Parts::default(), true).unwrap();
        assert!(r.outputs_agree);
        r.fast[0].cpu_seconds = 0.10;
        r.fast[1].cpu_seconds = 0.11;
        assert!(!r.to_string().contains("note:"), "{r}");
        r.fast[1].cpu_seconds = 0.15;
        assert!(r.to_string().contains("note: the 2-thread run took 1.50x the CPU time"), "{r}");
    }

    #[test]
    fn baseline_and_fast_agree_on_a_small_board() {
        for k in [1u32, 7, 50] {
            let none = Cancel::new();
            let (s, d) = (baseline(k, 300, &none).unwrap(), baseline_digest(k, 300, &none).unwrap());
            assert_eq!(baseline_palaces(k, 300, &none).unwrap(), s.total.palaces, "k={k}");
            for threads in [1, 2, 3] {
                let opts = EngineOptions {
                    threads,
                    tile_width: Some(64),
                    band_height: Some(32),
                    ..Default::default()
                };
                assert_eq!(fast(k, 300, &opts).unwrap().0, s, "k={k}");
                assert_eq!(palaces(k, 300, &opts).unwrap().0, s.total.palaces, "k={k}");
                assert_eq!(fast_digest(k, 300, &opts).unwrap(), d, "k={k}");
            }
        }
        // The PNG part decodes what it wrote and finds the engine's cells.
        let dir = tempfile::tempdir().unwrap();
        let opts = EngineOptions { threads: 2, ..Default::default() };
        let p = png(9, 700, &opts, 2, dir.path()).unwrap();
        assert!(p.decoded_matches && p.file_bytes > 0 && p.render.repeats == 2);
        let (sweep1, render1) = p.one_thread.expect("2 threads: the 1-thread runs too");
        assert_eq!((sweep1.threads, render1.threads, p.render.threads), (1, 1, 2));
        // The analyses part times the commands' own runs: two repetitions, the same outputs.
        let [r, g, c, f] = analyses(60, 400, &opts, 2).unwrap();
        assert_eq!((r.repeats, g.repeats, c.repeats, f.repeats, r.threads), (2, 2, 2, 2, 2));
        assert!(r.name == "regions" && c.name.starts_with("compare") && r.cpu_seconds >= 0.0);
        // fabric's cells are its three sweeps': games 60, 61, 62 (noses 19, 20, 20, less than
        // 400 / 8 from the corner, so their windows are [0, 400) x [0, 400)).
        assert!(f.name.starts_with("fabric"));
        let cells = (f.cells_per_second * f.seconds).round() as u64;
        assert_eq!(cells, 3 * 400 * 400);
        // Games 1000..=1002: noses 333, windows from 333 - 50 to 683.
        assert_eq!(palace::analysis::fabric::swept_cells(1000, 400).unwrap(), 3 * 683 * 683);
        // The digest sees a one-cell change.
        let row = vec![0i8; 100];
        let mut row2 = row.clone();
        row2[77] = 1;
        assert_ne!(digest_row(5, 0, &row), digest_row(5, 0, &row2));
    }
}
