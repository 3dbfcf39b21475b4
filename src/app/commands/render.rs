//! `palace render`: the palace numbers as an 8-bit indexed PNG with the paper's palette.

use crate::app::error::{Error, Result};
use crate::app::flags::{
    AggregateArg, BoardArgs, MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE, RunArgs, RunConfig, check_scale, cli_enum,
};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, summary};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Sweep;
use palace::model::geometry::{Board, Window};
use palace::output::palette::Scheme;
use palace::output::png::{PngOptions, PngWriter, picture_size};
use std::path::PathBuf;

cli_enum! {
    /// `--palette`: how cells are coloured.
    SchemeArg => Scheme {
        /// The hood dark brown, every other cell by its value v (the pictures of Fig. 3 to 8).
        Paper,
        /// Every cell by its value, hood included: v <= -5 dark brown, then the olives, yellow,
        /// black, blue, indigo, violet — the colours of the paper's Fig. 1 (k = 5).
        Values,
    }
}

/// Largest `--zoom`.
pub const MAX_ZOOM: u32 = 256;

/// `palace render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Draw each S x S block of cells as one pixel.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    /// How a block is combined under --scale: `mean` (its mean colour) shows what the cells
    /// look like from afar; `min` keeps one-cell palace threads visible but paints dense regions
    /// solid; `max` brings out hot spots.
    #[arg(long, value_enum, default_value_t = AggregateArg::Mean)]
    pub aggregate: AggregateArg,
    /// Draw each cell as Z x Z pixels (for small boards such as the paper's Fig. 1).
    #[arg(long, value_name = "Z", default_value_t = 1, conflicts_with = "scale")]
    pub zoom: u32,
    /// Colour scheme.
    #[arg(long, value_enum, default_value_t = SchemeArg::Paper)]
    pub palette: SchemeArg,
    /// The PNG file to write.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare picture: no legend strip of the colours below it (every pixel is a
    /// cell's, or a block's).
    #[arg(long)]
    pub no_legend: bool,
}

/// A validated `palace render`.
struct Render {
    board: Board,
    window: Window,
    png: PngOptions,
    output: PathBuf,
    run: RunConfig,
}

/// Validates and runs `palace render`.
pub fn run(a: RenderArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    check_scale(a.scale)?;
    if a.zoom == 0 || a.zoom > MAX_ZOOM {
        return Err(Error::Usage(format!(
            "--zoom {}: each cell becomes Z x Z pixels; use 1..={MAX_ZOOM}",
            a.zoom
        )));
    }
    check_picture(window, a.scale, a.zoom)?;
    ctx.run(Render {
        board,
        window,
        png: PngOptions {
            scale: a.scale,
            aggregate: a.aggregate.into(),
            zoom: a.zoom,
            scheme: a.palette.into(),
            threads: a.run.threads,
            legend: !a.no_legend,
        },
        output: a.output,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

/// The bounds on a rendered picture: they apply to the picture, not to the board, and the
/// message names the flag that changes it.
fn check_picture(window: Window, scale: u32, zoom: u32) -> Result<()> {
    let (w, h) = picture_size(window, scale);
    let (w, h) = (u64::from(w) * u64::from(zoom), u64::from(h) * u64::from(zoom));
    let fix = if zoom > 1 {
        "use a smaller --zoom".to_string()
    } else {
        let need = u64::from(window.width().max(window.height())).div_ceil(MAX_PICTURE_SIDE).max(2);
        format!("draw it smaller with --scale {need} or more, or draw a --window")
    };
    if w.max(h) > MAX_PICTURE_SIDE {
        return Err(Error::Usage(format!(
            "the picture would be {w} x {h} pixels, more than {MAX_PICTURE_SIDE} a side; {fix}"
        )));
    }
    if w * h > MAX_PICTURE_PIXELS {
        return Err(Error::Usage(format!(
            "the picture would be {w} x {h} = {} pixels, more than {MAX_PICTURE_PIXELS} (2^36); {fix}",
            w * h
        )));
    }
    Ok(())
}

impl Request for Render {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::no_report().file("--output", &self.output)
    }

    fn need(&self) -> Option<Need> {
        let work = palace::analysis::footprint::Work::Picture { zoom: self.png.zoom };
        Some(memory::board_need(work, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Render { board, window, png, output, run } = self;
        let out = open(&output, "--output", "png", &ctx.cancel)?;
        let mut writer = PngWriter::create(out, board.k(), window, png)?;
        let pb = progress::bar(run.quiet, "render", "rows");
        let report = Sweep::new(board.k(), window).options(&run.engine).progress(&pb).rows(&mut writer)?;
        let (fw, fh) = writer.size();
        let path = writer.finish()?;
        pb.finish_and_clear();
        let (w, h) = picture_size(window, png.scale);
        let (w, h) = (w * png.zoom, h * png.zoom);
        let what = if png.legend {
            format!("{fw} x {fh} pixels: the picture, {w} x {h}, and its legend below")
        } else {
            format!("{w} x {h} pixels")
        };
        summary(&run, &format!("wrote {} ({what})", path.display()), &report);
        Ok(0)
    }
}
