//! `palace skin`: the upper arm's skin followed from the shoulder (k, 0) out to column X (paper
//! §3.4): its thicknesses, levels, periods and steps.

use crate::app::checkpoint::{CheckpointArgs, Checkpointing, SaveEvery, resumable};
use crate::app::error::Result;
use crate::app::flags::{Backend, BackendArg, ReportArgs, RunArgs, RunConfig, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, print_report, summary};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::skin;
use palace::output::atomic::AtomicOutput;
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
    /// Through the CA's row sweep.
    rows: bool,
    /// Record and measure the skin's pattern of k-2 and k-1.
    pattern: bool,
    /// Where the cells are computed (read only by a build with the GPU backend).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    backend: Backend,
    checkpoint: Option<SaveEvery>,
    resume: Option<PathBuf>,
    run: RunConfig,
}

/// Validates and runs `palace skin`.
pub fn run(a: SkinArgs, ctx: &Context) -> Result<ExitCode> {
    // The game was checked by --k's parser; whether it has a skin to follow to --to, here.
    skin::check_to(a.k, a.to)?;
    let (checkpoint, resume) = a.checkpoint.resolve()?;
    let backend = Backend::resolve(a.backend, a.gpu_shape.as_deref())?.whole_words("the skin's tiles")?;
    ctx.run(Skin {
        k: a.k,
        to: a.to,
        csv: a.csv,
        plot: a.plot,
        json: a.report.json,
        rows: a.rows,
        pattern: a.pattern,
        backend,
        checkpoint,
        resume,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Skin {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default()
            .maybe("--csv", self.csv.as_deref())
            .maybe("--plot", self.plot.as_deref())
            .checkpoints(self.checkpoint.as_ref().map(|(p, _)| p.as_path()), self.resume.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let work = if self.rows { Work::SkinRows } else { Work::Skin { pattern: self.pattern } };
        Some(Need {
            footprint: footprint(work, self.to, self.run.engine.threads),
            what: format!("--to {}", self.to),
            fix: "use a smaller --to, or fewer --threads",
        })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Skin { k, to, csv, plot, json, rows, pattern, backend, checkpoint, resume, run } = self;
        let cancel = &ctx.cancel;
        // Check the output paths before the sweep.
        let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
        let plot_out = plot.as_deref().map(|p| open(p, "--plot", "png", cancel)).transpose()?;
        #[cfg(feature = "gpu")]
        if let Backend::Gpu(shape) = backend {
            let mut tiles = palace::gpu::SkinTiles::default();
            let gpu;
            (gpu, tiles.shape) = Backend::open_gpu(shape, tiles.shape)?;
            let pb = progress::cells_bar(run.quiet, "skin (GPU)");
            let (report, cols, g) = gpu_skin(
                &gpu,
                (k, to, pattern),
                tiles,
                &pb,
                (checkpoint.as_ref(), resume.as_deref()),
                cancel,
            )?;
            pb.finish_and_clear();
            super::stats::gpu_summary(&run, &g);
            return finish(&report, &cols, csv_out, plot_out, json);
        }
        let _ = backend;
        let (report, cols, engine) = if rows {
            let pb = progress::bar(run.quiet, "skin (row sweep)", "rows");
            let r = skin::follow_rows_with(k, to, pattern, &run.engine, &pb)?;
            pb.finish_and_clear();
            r
        } else {
            let pb = progress::cells_bar(run.quiet, "skin");
            let c =
                Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag: String::new() };
            let segments = c.engine(&run.engine);
            let f = skin::Follower::new(k, to, &segments, &pb)?;
            let f = if pattern { f.with_patterns() } else { f };
            let c = Checkpointing { tag: f.tag(), ..c };
            let engine = resumable(
                &c,
                f.height(),
                cancel,
                &mut |bytes, _| f.restore(bytes),
                &|| f.encode(),
                &mut |start, pause| f.segment(start, pause),
            )?;
            pb.finish_and_clear();
            let (report, cols) = f.finish()?;
            (report, cols, engine)
        };
        summary(&run, "", &engine);
        finish(&report, &cols, csv_out, plot_out, json)
    }
}

/// The skin on the GPU in segments: each pauses at `save`'s interval or when the run is
/// interrupted, then the run goes to the checkpoint (replaced atomically); a run resumed from
/// one continues it. The checkpoint is removed when the skin is complete.
#[cfg(feature = "gpu")]
fn gpu_skin(
    gpu: &palace::gpu::Gpu,
    (k, to, pattern): (u32, u64, bool),
    tiles: palace::gpu::SkinTiles,
    pb: &dyn palace::engine::Progress,
    (save, resume): (Option<&SaveEvery>, Option<&std::path::Path>),
    cancel: &palace::engine::Cancel,
) -> Result<(skin::SkinReport, Vec<skin::Column>, palace::gpu::GpuRun)> {
    use std::time::Instant;
    // Where checkpoints are saved, a signal pauses the sweep between submissions (the pause
    // test reads it) instead of stopping it.
    let own = palace::engine::Cancel::new();
    let mut g = palace::gpu::GpuSkin::new(
        gpu,
        k,
        to,
        pattern,
        tiles,
        pb,
        if save.is_some() { &own } else { cancel },
    )?;
    let mut owned = crate::app::checkpoint::owns(resume, save);
    if let Some(path) = resume {
        let bytes = std::fs::read(path).map_err(|e| crate::app::error::Error::io(path, e))?;
        g.restore(&bytes).map_err(|why| palace::Error::BadInput {
            path: path.to_path_buf(),
            reason: format!(
                "cannot continue the skin on the GPU from it: {why}; start the run again without --resume"
            ),
        })?;
    }
    loop {
        let deadline = save.map(|(_, every)| Instant::now() + *every);
        let pause = || cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
        if g.segment(&pause)? {
            break;
        }
        let Some((path, _)) = save else {
            return Err(crate::app::error::Error::INTERRUPTED);
        };
        palace::output::checkpoint::write_bytes(path, "--checkpoint", &g.encode())?;
        owned = true;
        if cancel.is_cancelled() {
            return Err(
                palace::Error::Paused { path: path.clone(), rows: g.rows(), height: g.height() }.into()
            );
        }
    }
    crate::app::checkpoint::remove_finished(save, owned)?;
    Ok(g.finish()?)
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
