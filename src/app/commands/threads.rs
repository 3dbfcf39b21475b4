//! `palace threads`: the threads of the upper warp found, followed and measured (paper §3.2,
//! §4 questions 5-7), and drawn over the picture.

use crate::app::error::{Error, Result};
use crate::app::flags::{BoardArgs, LegendArgs, ReportArgs, RunArgs, RunConfig, check_k_plus_3, check_scale};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::threads;
use palace::analysis::threads::MAX_REACH;
use palace::engine::Progress;
use palace::model::geometry::{Board, Window};
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace threads`.
#[derive(Debug, Args)]
pub struct ThreadsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Write one line per thread (rows, ends, merges, thickness, period, slope) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Draw the threads, one colour each, over the dimmed picture to this PNG.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (a block with a thread cell shows the thread).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    /// Cells on the same or the next row at most R columns apart belong to one thread.
    #[arg(long, value_name = "R", default_value_t = palace::analysis::threads::trace::REACH)]
    pub reach: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub legend: LegendArgs,
}

/// A validated `palace threads`.
struct Threads {
    board: Board,
    window: Window,
    /// The per-thread CSV.
    csv: Option<PathBuf>,
    output: Option<PathBuf>,
    scale: u32,
    /// The adjacency reach.
    reach: u32,
    json: bool,
    run: RunConfig,
    /// The legend strip below the picture.
    legend: bool,
}

/// Validates and runs `palace threads`.
pub fn run(a: ThreadsArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    check_scale(a.scale)?;
    check_k_plus_3(board.k(), "threads labels the regions, which also plays k + 3")?;
    if a.reach == 0 || a.reach > MAX_REACH {
        return Err(Error::Usage(format!("--reach {}: use 1..={MAX_REACH} columns", a.reach)));
    }
    ctx.run(Threads {
        board,
        window,
        csv: a.csv,
        output: a.output,
        scale: a.scale,
        reach: a.reach,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
        legend: !a.legend.no_legend,
    })
}

impl Request for Threads {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--csv", self.csv.as_deref()).maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        Some(memory::board_need(Work::Threads, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Threads { board, window, csv, output, scale, reach, json, run, legend } = self;
        let cancel = &ctx.cancel;
        let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
        let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "threads", "rows");
        let (traced, picture) = threads::run(board.k(), window, reach, scale, out, legend, &run.engine, &pb)?;
        // Measuring takes seconds on a large window and heeds the signals too; the outputs
        // are committed only once everything is computed.
        pb.message("measuring the threads");
        let workers = run.engine.resolved_threads();
        let (csv, report) = match csv_out {
            Some(mut o) => {
                // Every thread's fits, for the CSV; the report takes the long threads' from them.
                let summaries = threads::summaries(&traced, workers, cancel)?;
                write_into(&mut o, |f| threads::write_csv(&traced, &summaries, std::io::BufWriter::new(f)))?;
                let report = threads::ThreadsReport::from_summaries(
                    board.k(),
                    window,
                    reach,
                    &traced,
                    &summaries,
                    workers,
                    cancel,
                )?;
                (Some(o), report)
            }
            None => (None, threads::ThreadsReport::new(board.k(), window, reach, &traced, workers, cancel)?),
        };
        pb.finish_and_clear();
        csv.map(AtomicOutput::commit).transpose()?;
        let path = picture.map(AtomicOutput::commit).transpose()?;
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
