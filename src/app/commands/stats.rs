//! `palace stats`: count cells and palaces, histogram v outside the hood, find the extremes; on
//! the CPU engine (checkpointed) or on a GPU (`--backend gpu`).

use crate::app::checkpoint::CheckpointArgs;
use crate::app::error::{Error, Result};
use crate::app::flags::{BackendArg, BoardArgs, ReportArgs, RunArgs, RunConfig, backend};
use crate::app::memory::{self, Need};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, print_with_run, ranks_line};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::backend::{Backend, StatsForm};
use palace::model::geometry::{Board, Window};
use palace::resume::Checkpoints;

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
    form: StatsForm,
    backend: Backend,
    checkpoints: Checkpoints,
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
    let checkpoints = a.checkpoint.resolve()?;
    let run = a.run.resolve(&ctx.cancel)?;
    let backend = backend(a.backend, a.gpu_shape.as_deref(), &run.engine, ctx.world.as_ref())?;
    let form = if a.ca { StatsForm::Ca } else { StatsForm::Auto };
    ctx.run(Stats {
        board,
        window,
        backend,
        palaces_only: a.palaces_only,
        form,
        checkpoints,
        json: a.report.json,
        run,
    })
}

impl Request for Stats {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().checkpoints(self.checkpoints.save(), self.checkpoints.resume())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        let corner = (self.window.x0(), self.window.y0()) == (0, 0);
        let work = if self.palaces_only {
            Work::Palaces
        } else if corner && self.form != StatsForm::Ca {
            Work::StatsCounters
        } else {
            Work::StatsCa
        };
        Some(memory::board_need(work, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Stats { board, window, palaces_only, form, backend, checkpoints, json, run } = self;
        let unit = if matches!(backend, Backend::Gpu(_)) { "tiles" } else { "rows" };
        if palaces_only {
            let pb = progress::bar(run.quiet, "palaces", unit);
            let (count, report) =
                palace::backend::palace_count(&backend, board, &checkpoints, &pb, &ctx.cancel)?;
            pb.finish_and_clear();
            if let Backend::Mpi(m) = &backend {
                ranks_line(&run, &m.world);
            }
            print_with_run(json, "palaces", &count, &run, &report)?;
            return Ok(0);
        }
        let pb = progress::bar(run.quiet, "stats", unit);
        let (stats, report) =
            palace::backend::stats(&backend, board, window, form, &checkpoints, &pb, &ctx.cancel)?;
        pb.finish_and_clear();
        print_with_run(json, "stats", &stats, &run, &report)?;
        Ok(0)
    }
}
