//! `palace skin`: the upper arm's skin followed from the shoulder (k, 0) out to column X (paper
//! §3.4): its thicknesses, levels, periods and steps.

use crate::app::checkpoint::CheckpointArgs;
use crate::app::error::Result;
use crate::app::flags::{BackendArg, ReportArgs, RunArgs, RunConfig, backend, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, print_report, run_summary};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::skin;
use palace::backend::{Backend, SkinForm};
use palace::output::atomic::AtomicOutput;
use palace::resume::Checkpoints;
use std::path::PathBuf;

/// `palace skin`.
#[derive(Debug, Args)]
pub struct SkinArgs {
    /// The game, at least 3 (games 1 and 2 have no arm, so no skin).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Follow the skin up to this column (exclusive; K < X <= 1073741824 = 2^30).
    #[arg(long, value_name = "X")]
    pub to: u64,
    /// Write the per-column measurements (x, top, top_v, vertical, diagonal, level) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Plot the vertical thickness against the column to this PNG, one panel per level.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    /// Follow the skin through the CA's row sweep (every cell by the rule; slower): the
    /// reference the default counter sweep is checked against. No checkpoints.
    #[arg(long, conflicts_with_all = ["checkpoint", "resume"])]
    pub rows: bool,
    /// Also record every column's pattern of palace numbers k-2 and k-1 (8 bytes a column, in
    /// memory and checkpoints) and report, per level, whether each period is symmetric under
    /// a half turn and how much of the level the paper's expansion matrices predict from the
    /// level below (§3.4).
    #[arg(long)]
    pub pattern: bool,
    /// Where the cells are computed: `cpu`, or `gpu` (compute shaders on a Vulkan, Metal or
    /// DirectX 12 adapter; a build with `--features gpu`). Both give the same report and CSV.
    /// The GPU sweeps the whole board and sends back only the tiles near the arm's boundary;
    /// --checkpoint saves the device's counters and the skin's state between submissions, and
    /// --threads and --kernel do not affect it.
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu, conflicts_with = "rows")]
    pub backend: BackendArg,
    /// GPU tile shape LANESxROWSxWIDTH, rows a multiple of 4 (tuning).
    #[arg(long, value_name = "LxRxW", hide = true)]
    pub gpu_shape: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace skin`.
struct Skin {
    k: u32,
    /// The last column (exclusive).
    to: u64,
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    json: bool,
    /// Through the counter sweep or the CA's row sweep.
    form: SkinForm,
    /// Record and measure the skin's pattern of k-2 and k-1.
    pattern: bool,
    backend: Backend,
    checkpoints: Checkpoints,
    run: RunConfig,
}

/// Validates and runs `palace skin`.
pub fn run(a: SkinArgs, ctx: &Context) -> Result<ExitCode> {
    // The game was checked by --k's parser; whether it has a skin to follow to --to, here.
    skin::check_to(a.k, a.to)?;
    let checkpoints = a.checkpoint.resolve()?;
    let run = a.run.resolve(&ctx.cancel)?;
    ctx.run(Skin {
        k: a.k,
        to: a.to,
        csv: a.csv,
        plot: a.plot,
        json: a.report.json,
        form: if a.rows { SkinForm::Rows } else { SkinForm::Counters },
        pattern: a.pattern,
        backend: backend(a.backend, a.gpu_shape.as_deref(), &run.engine, ctx.world.as_ref())?,
        checkpoints,
        run,
    })
}

impl Request for Skin {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default()
            .maybe("--csv", self.csv.as_deref())
            .maybe("--plot", self.plot.as_deref())
            .checkpoints(self.checkpoints.save(), self.checkpoints.resume())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let work = match self.form {
            SkinForm::Rows => Work::SkinRows,
            SkinForm::Counters => Work::Skin { pattern: self.pattern },
        };
        Some(Need {
            footprint: footprint(work, self.to, self.run.engine.threads),
            what: format!("--to {}", self.to),
            fix: "use a smaller --to, or fewer --threads",
        })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Skin { k, to, csv, plot, json, form, pattern, backend, checkpoints, run } = self;
        let cancel = &ctx.cancel;
        // Check the output paths before the sweep.
        let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
        let plot_out = plot.as_deref().map(|p| open(p, "--plot", "png", cancel)).transpose()?;
        let pb = match (form, &backend) {
            (SkinForm::Rows, _) => progress::bar(run.quiet, "skin (row sweep)", "rows"),
            (_, Backend::Gpu(_)) => progress::cells_bar(run.quiet, "skin (GPU)"),
            _ => progress::cells_bar(run.quiet, "skin"),
        };
        let (report, cols, r) =
            palace::backend::skin(&backend, k, to, pattern, form, &checkpoints, &pb, cancel)?;
        pb.finish_and_clear();
        run_summary(&run, "", &r);
        finish(&report, &cols, csv_out, plot_out, json)
    }
}

/// Writes the skin's CSV and plot and prints its report.
fn finish(
    report: &skin::SkinReport,
    cols: &[skin::Column],
    csv_out: Option<AtomicOutput>,
    plot_out: Option<AtomicOutput>,
    json: bool,
) -> Result<ExitCode> {
    if let Some(mut o) = csv_out {
        write_into(&mut o, |f| skin::write_csv(cols, f))?;
        o.commit()?;
    }
    if let Some(o) = plot_out {
        skin::plot(report, cols, o)?;
    }
    print_report(json, report)?;
    Ok(0)
}
