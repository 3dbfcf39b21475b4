//! `palace stats`: count cells and palaces, histogram v outside the hood, find the extremes; on
//! the CPU engine (checkpointed) or on a GPU (`--backend gpu`).

use crate::app::checkpoint::{CheckpointArgs, Checkpointing, SaveEvery, resumable};
use crate::app::error::{Error, Result};
use crate::app::flags::{Backend, BackendArg, BoardArgs, ReportArgs, RunArgs, RunConfig};
use crate::app::memory::{self, Need};
use crate::app::outputs::Outputs;
#[cfg(feature = "gpu")]
use crate::app::print::out_text;
use crate::app::print::{ExitCode, print_with_engine};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::stats;
use palace::engine::{Cancel, Progress, SweepReport};
use palace::model::geometry::{Board, Window};
use std::path::PathBuf;

/// `palace stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Count only the palaces of the whole board, with the three-counter kernels (several
    /// times faster; no histogram, no extremes, no --window).
    #[arg(long)]
    pub palaces_only: bool,
    /// Compute the cells with the CA rule's kernels (the paper's k-independent automaton)
    /// instead of the three-counter form. Without it, a window from the corner (the whole
    /// board by default) is swept in the three-counter form, its values tallied by the kernels
    /// as they go (faster); any other window always uses the CA. Both give the same numbers.
    #[arg(long, conflicts_with = "palaces_only")]
    pub ca: bool,
    /// Where the cells are computed: `cpu`, or `gpu` (compute shaders on a Vulkan, Metal or
    /// DirectX 12 adapter; a build with `--features gpu`; `palace gpu-info` names the adapter).
    /// Both give the same numbers. The GPU computes the three-counter form and keeps no
    /// checkpoints; --threads and --kernel do not affect it.
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
    pub backend: BackendArg,
    /// GPU tile shape LANESxROWSxWIDTH (tuning).
    #[arg(long, value_name = "LxRxW", hide = true)]
    pub gpu_shape: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace stats`.
struct Stats {
    board: Board,
    window: Window,
    /// Palaces only, by a counter sweep.
    palaces_only: bool,
    /// The statistics by a counter sweep (the window starts at the corner).
    by_counters: bool,
    /// Where the cells are computed (read only by a build with the GPU backend).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    backend: Backend,
    checkpoint: Option<SaveEvery>,
    resume: Option<PathBuf>,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace stats`.
pub fn run(a: StatsArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    if a.palaces_only && a.board.window.is_some() {
        return Err(Error::Usage(
            "--palaces-only counts whole boards from the corner; drop --window and give the board with --size or --width/--height".into(),
        ));
    }
    let (checkpoint, resume) = a.checkpoint.resolve()?;
    let backend = Backend::resolve(a.backend, a.gpu_shape.as_deref())?;
    if backend != Backend::Cpu {
        if a.ca {
            return Err(Error::Usage(
                "--ca and --backend gpu: the GPU computes the three-counter form, not the CA rule; drop one of them".into(),
            ));
        }
        if checkpoint.is_some() || resume.is_some() {
            return Err(Error::Usage(
                "--backend gpu keeps no checkpoints; drop --checkpoint and --resume, or use --backend cpu"
                    .into(),
            ));
        }
    }
    ctx.run(Stats {
        board,
        window,
        backend,
        palaces_only: a.palaces_only,
        by_counters: !a.ca && window.x0() == 0 && window.y0() == 0,
        checkpoint,
        resume,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Stats {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default()
            .checkpoints(self.checkpoint.as_ref().map(|(p, _)| p.as_path()), self.resume.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        let work = if self.palaces_only {
            Work::Palaces
        } else if self.by_counters {
            Work::StatsCounters
        } else {
            Work::StatsCa
        };
        Some(memory::board_need(work, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Stats { board, window, palaces_only, by_counters, backend, checkpoint, resume, json, run } = self;
        #[cfg(feature = "gpu")]
        if let Backend::Gpu(shape) = backend {
            return gpu_stats(board.k(), window, palaces_only, shape, json, &run, &ctx.cancel);
        }
        #[cfg(not(feature = "gpu"))]
        let _ = backend;
        let cancel = &ctx.cancel;
        if palaces_only {
            let pb = progress::bar(run.quiet, "palaces", "rows");
            let tag = format!("stats --palaces-only k={} {}x{}", board.k(), window.x1(), window.y1());
            let c = Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag };
            let (count, report) = palaces_resumable(board.k(), window, &c, &run, cancel, &pb)?;
            pb.finish_and_clear();
            print_with_engine(json, "palaces", &count, &run, &report)?;
            return Ok(0);
        }
        let pb = progress::bar(run.quiet, "stats", "rows");
        // The form is in the tag: the two sweeps' frontiers differ.
        let tag = format!(
            "stats k={} {}x{} window {},{},{},{}{}",
            board.k(),
            board.width(),
            board.height(),
            window.x0(),
            window.y0(),
            window.x1(),
            window.y1(),
            if by_counters { " by counters" } else { "" }
        );
        let c = Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag };
        let (stats, report) = stats_resumable(board.k(), window, by_counters, &c, &run, cancel, &pb)?;
        pb.finish_and_clear();
        print_with_engine(json, "stats", &stats, &run, &report)?;
        Ok(0)
    }
}

/// `stats --palaces-only`, checkpointed (see [`resumable`]).
fn palaces_resumable(
    k: u32,
    window: Window,
    c: &Checkpointing<'_>,
    run: &RunConfig,
    cancel: &Cancel,
    progress: &dyn Progress,
) -> Result<(stats::PalaceCount, SweepReport)> {
    let (w, h) = (window.x1(), window.y1());
    let sum = stats::PalaceSum::default();
    let engine = c.engine(&run.engine);
    let report = resumable(
        c,
        h,
        cancel,
        &mut |bytes, frontier| {
            let n = u64::from_le_bytes(bytes.try_into().map_err(|_| "it is not a palace count")?);
            let cells = u64::from(w) * u64::from(frontier.rows_done());
            if n > cells {
                return Err(format!("{n} palaces in the {cells} cells of the rows done"));
            }
            sum.set(n);
            Ok(())
        },
        &|| sum.total().to_le_bytes().to_vec(),
        &mut |start, pause| {
            palace::engine::Sweep::new(k, Window::new(0, 0, w, h)?)
                .options(&engine)
                .progress(progress)
                .resume(start)
                .pause_when(pause)
                .palaces_pausable(&sum)
                .map_err(palace::Error::from)
        },
    )?;
    let cells = u64::from(w) * u64::from(h);
    Ok((stats::PalaceCount { k, width: w, height: h, cells, palaces: sum.total() }, report))
}

/// `stats`, checkpointed (see [`resumable`]): by a counter sweep of the window (which then
/// starts at the corner) or by the CA's sweep.
fn stats_resumable(
    k: u32,
    window: Window,
    by_counters: bool,
    c: &Checkpointing<'_>,
    run: &RunConfig,
    cancel: &Cancel,
    progress: &dyn Progress,
) -> Result<(stats::Stats, SweepReport)> {
    let visitor = stats::StatsVisitor::new(k, run.engine.resolved_threads());
    let engine = c.engine(&run.engine);
    let report = resumable(
        c,
        window.y1(),
        cancel,
        &mut |bytes, frontier| visitor.restore(bytes, window, frontier.rows_done()),
        &|| visitor.encode(),
        &mut |start, pause| {
            if by_counters {
                let (w, h) = (window.x1(), window.y1());
                palace::engine::Sweep::new(k, Window::new(0, 0, w, h)?)
                    .options(&engine)
                    .progress(progress)
                    .resume(start)
                    .pause_when(pause)
                    .palaces_pausable(&visitor)
                    .map_err(palace::Error::from)
            } else {
                palace::engine::Sweep::new(k, window)
                    .options(&engine)
                    .progress(progress)
                    .resume(start)
                    .pause_when(pause)
                    .tiles_pausable(&visitor)
                    .map_err(palace::Error::from)
            }
        },
    )?;
    Ok((visitor.finish(window), report))
}

/// `palace stats --backend gpu`: the statistics of `window` (or, with `palaces_only`, the palace
/// count of the board from its corner), printed as the CPU backend prints them.
#[cfg(feature = "gpu")]
fn gpu_stats(
    k: u32,
    window: Window,
    palaces_only: bool,
    shape: Option<(u32, u32, u32)>,
    json: bool,
    run: &RunConfig,
    cancel: &Cancel,
) -> Result<ExitCode> {
    let (gpu, shape) = Backend::open_gpu(shape, Default::default())?;
    let pb = progress::bar(run.quiet, if palaces_only { "palaces" } else { "stats" }, "tiles");
    let (text, value, g) = if palaces_only {
        let (count, g) = palace::gpu::palace_count(&gpu, k, window.x1(), window.y1(), shape, &pb, cancel)?;
        (count.to_string(), serde_json::json!({ "palaces": count }), g)
    } else {
        let (stats, g) = palace::gpu::stats(&gpu, k, window, shape, &pb, cancel)?;
        (stats.to_string(), serde_json::json!({ "stats": stats }), g)
    };
    pb.finish_and_clear();
    if json {
        let mut v = value;
        v["gpu"] = serde_json::to_value(&g).expect("serialisable");
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else {
        out_text(&text)?;
        gpu_summary(run, &g);
    }
    Ok(0)
}

/// The run's line on stderr, unless `--quiet`.
#[cfg(feature = "gpu")]
pub(crate) fn gpu_summary(run: &RunConfig, g: &palace::gpu::GpuRun) {
    if run.quiet {
        return;
    }
    let secs = g.elapsed.as_secs_f64();
    eprintln!(
        "swept {} cells on {} in {secs:.3} s ({:.2} G cells/s, tiles {}): computed {}, skipped {} (outer space)",
        g.region,
        g.adapter,
        g.region as f64 / secs.max(1e-9) / 1e9,
        g.shape,
        g.computed,
        g.region - g.computed
    );
    if g.sent_back > 0 {
        eprintln!("read back {:.1} MB for the analysis", g.sent_back as f64 / 1e6);
    }
}
