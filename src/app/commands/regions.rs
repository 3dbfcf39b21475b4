//! `palace regions`: every cell labelled with its region, the per-region report and the region
//! map.

use crate::app::error::Result;
use crate::app::flags::{
    BoardArgs, ReferenceArgs, ReportArgs, RunArgs, RunConfig, check_k_plus_3, check_scale,
};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::regions;
use palace::model::geometry::{Board, Window};
use std::path::PathBuf;

/// `palace regions`.
#[derive(Debug, Args)]
pub struct RegionsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// The region map PNG to write.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (the block's top-left cell).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub reference: ReferenceArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare map: no legend strip below it and no junction rings (every pixel is its
    /// region's palette index, written in one pass).
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

/// A validated `palace regions`.
struct Regions {
    reference: bool,
    board: Board,
    window: Window,
    output: Option<PathBuf>,
    scale: u32,
    json: bool,
    run: RunConfig,
    /// The legend and junction rings on the map.
    legend: bool,
}

/// Validates and runs `palace regions`.
pub fn run(a: RegionsArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    check_scale(a.scale)?;
    check_k_plus_3(board.k(), "regions also plays k + 3")?;
    ctx.run(Regions {
        board,
        window,
        output: a.output,
        scale: a.scale,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
        reference: a.reference.reference,
        legend: !a.no_legend,
    })
}

impl Request for Regions {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        Some(memory::board_need(Work::Regions, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Regions { board, window, output, scale, json, run, reference, legend } = self;
        let out = output.as_deref().map(|p| open(p, "--output", "png", &ctx.cancel)).transpose()?;
        let out = out.map(|o| palace::output::legend::MapOutput::new(o, legend));
        let pb = progress::bar(run.quiet, "regions", "rows");
        let go = if reference { regions::run_reference } else { regions::run };
        let (report, path) = go(board.k(), window, scale, out, &run.engine, &pb)?;
        pb.finish_and_clear();
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
