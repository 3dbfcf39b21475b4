//! `palace beams`: the beams of the inner sector found, followed and measured (paper §3.1, §4
//! question 5), and drawn over the picture.

use crate::app::error::{Error, Result};
use crate::app::flags::{BoardArgs, LegendArgs, ReportArgs, RunArgs, RunConfig, check_k_plus_3, check_scale};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::beams;
use palace::engine::Progress;
use palace::model::geometry::{Board, Window};
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace beams`.
#[derive(Debug, Args)]
pub struct BeamsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Rows a beam may skip (pieces in line are also joined across 4 times as many).
    #[arg(long, value_name = "G", default_value_t = palace::analysis::beams::track::GAP)]
    pub gap: u32,
    /// Columns a beam's palace may lie from the line through its last palaces.
    #[arg(long, value_name = "T", default_value_t = palace::analysis::beams::track::TOLERANCE)]
    pub tolerance: u32,
    /// Write every beam's palaces (beam,half,y,x) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Draw the beams, one colour each, and the other lone palaces over the dimmed picture to
    /// this PNG (kept in memory until the beams are known: at most 2^28 pixels).
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (a block with a beam's palace shows the beam).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
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

/// A validated `palace beams`.
struct Beams {
    board: Board,
    window: Window,
    /// The tracker's settings.
    params: beams::Params,
    /// The beams' cells as CSV.
    csv: Option<PathBuf>,
    output: Option<PathBuf>,
    scale: u32,
    json: bool,
    run: RunConfig,
    /// The legend strip below the picture.
    legend: bool,
}

/// Validates and runs `palace beams`.
pub fn run(a: BeamsArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    check_scale(a.scale)?;
    check_k_plus_3(board.k(), "beams labels the regions, which also plays k + 3")?;
    if a.gap == 0 || a.gap > 4096 {
        return Err(Error::Usage(format!("--gap {}: use 1..=4096 rows", a.gap)));
    }
    if a.tolerance == 0 || a.tolerance > 256 {
        return Err(Error::Usage(format!("--tolerance {}: use 1..=256 columns", a.tolerance)));
    }
    if a.output.is_some() {
        beams::picture_pixels(window, a.scale)?;
    }
    ctx.run(Beams {
        board,
        window,
        params: beams::Params { gap: a.gap, tolerance: a.tolerance },
        csv: a.csv,
        output: a.output,
        scale: a.scale,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
        legend: !a.legend.no_legend,
    })
}

impl Request for Beams {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--csv", self.csv.as_deref()).maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        let pixels = match self.output {
            Some(_) => {
                let (w, h) = palace::output::png::picture_size(self.window, self.scale);
                u64::from(w) * u64::from(h)
            }
            None => 0,
        };
        let need = memory::board_need(
            palace::analysis::footprint::Work::Beams,
            &self.window,
            self.run.engine.threads,
        );
        Some(Need { footprint: need.footprint.with_fixed(pixels), ..need })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Beams { board, window, params, csv, output, scale, json, run, legend } = self;
        let cancel = &ctx.cancel;
        let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
        let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "beams", "rows");
        let (found, picture) = beams::run(board.k(), window, params, scale, out, legend, &run.engine, &pb)?;
        // Measuring takes seconds on a large window and heeds the signals too; the outputs
        // are committed only once everything is computed.
        pb.message("measuring the beams");
        let csv = match csv_out {
            Some(mut o) => {
                write_into(&mut o, |f| beams::write_csv(&found, std::io::BufWriter::new(f)))?;
                Some(o)
            }
            None => None,
        };
        let report = beams::BeamsReport::new(
            board.k(),
            window,
            params,
            &found,
            run.engine.resolved_threads(),
            cancel,
        )?;
        pb.finish_and_clear();
        csv.map(AtomicOutput::commit).transpose()?;
        let path = picture.map(AtomicOutput::commit).transpose()?;
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
