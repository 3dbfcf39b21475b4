//! `palace gliders`: the fabric's meta-gliders (paper §3.2) classified, followed and judged,
//! and the map of textures drawn.

use crate::app::error::{Error, Result};
use crate::app::flags::{BoardArgs, LegendArgs, ReportArgs, RunArgs, RunConfig};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::gliders;
use palace::model::geometry::{Board, Window};
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace gliders`.
#[derive(Debug, Args)]
pub struct GlidersArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// The classifier's window side in cells: an odd multiple of 16 (48, 80, 112, 144), so that
    /// the window is centred on its map cell.
    #[arg(long, value_name = "S", default_value_t = 80)]
    pub side: u32,
    /// The correlation a grid's vectors must reach for the window to hold that grid.
    #[arg(long, value_name = "R", default_value_t = palace::analysis::gliders::classify::THRESHOLD)]
    pub threshold: f32,
    /// The least life (extent in t = x + y) of a patch that is judged.
    #[arg(long, value_name = "T", default_value_t = palace::analysis::gliders::track::MIN_LIFE)]
    pub min_life: f64,
    /// Write the judged patches' trajectories as CSV, one row per slice:
    /// patch,texture,kind,t,u,width,cells (patch = index into the JSON's patches).
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Draw the map of textures, glider patches darker, to this PNG.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells: 1, 2, 4, 8 or 16 (one pixel per map cell).
    #[arg(long, value_name = "S", default_value_t = 16)]
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

/// Validates and runs `palace gliders`.
pub fn run(a: GlidersArgs, ctx: &Context) -> Result<ExitCode> {
    use palace::analysis::gliders::{self as gl, plot, texture::CELL};
    let (board, window) = a.board.resolve()?;
    if board.k() < 4 || board.k() > palace::model::rule::MAX_K - 3 {
        return Err(Error::Usage(format!(
            "--k {}: gliders labels the fabric, which also plays k + 3; use 4 <= k <= {}",
            board.k(),
            palace::model::rule::MAX_K - 3
        )));
    }
    let cell = CELL as u32;
    if a.side % (2 * cell) != cell || a.side > 9 * cell {
        return Err(Error::Usage(format!(
            "--side {}: use an odd multiple of {cell} up to {} (48, 80, 112, 144), so that the window is centred on its map cell",
            a.side,
            9 * cell
        )));
    }
    if !(a.threshold > 0.0 && a.threshold < 1.0) {
        return Err(Error::Usage(format!(
            "--threshold {}: a correlation threshold lies strictly between 0 and 1; use e.g. 0.08",
            a.threshold
        )));
    }
    if !(a.min_life >= 0.0 && a.min_life.is_finite()) {
        return Err(Error::Usage(format!("--min-life {}: use 0 or more (in t = x + y)", a.min_life)));
    }
    if !plot::SCALES.contains(&a.scale) {
        return Err(Error::Usage(format!(
            "--scale {}: the picture draws whole map cells of {cell} x {cell}; use 1, 2, 4, 8 or 16",
            a.scale
        )));
    }
    let params = gl::Params {
        w: (a.side / cell) as usize,
        threshold: a.threshold,
        track: gl::track::TrackParams { min_life: a.min_life, ..Default::default() },
    };
    ctx.run(Gliders {
        board,
        window,
        params,
        csv: a.csv,
        output: a.output,
        scale: a.scale,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
        legend: !a.legend.no_legend,
    })
}

/// A validated `palace gliders`.
struct Gliders {
    board: Board,
    window: Window,
    /// The classifier's and the tracker's settings.
    params: gliders::Params,
    /// The trajectories as CSV.
    csv: Option<PathBuf>,
    output: Option<PathBuf>,
    scale: u32,
    json: bool,
    run: RunConfig,
    /// The legend strip below the picture.
    legend: bool,
}

impl Request for Gliders {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--csv", self.csv.as_deref()).maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        Some(memory::board_need(Work::Gliders, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Gliders { board, window, params, csv, output, scale, json, run, legend } = self;
        let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", &ctx.cancel)).transpose()?;
        let out = output.as_deref().map(|p| open(p, "--output", "png", &ctx.cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "gliders", "rows");
        let (report, picture) =
            gliders::run(board.k(), window, &params, out.map(|o| (o, scale, legend)), &run.engine, &pb)?;
        pb.finish_and_clear();
        if let Some(mut o) = csv_out {
            write_into(&mut o, |f| gliders::write_csv(&report, std::io::BufWriter::new(f)))?;
            o.commit()?;
        }
        let path = picture.map(AtomicOutput::commit).transpose()?;
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
