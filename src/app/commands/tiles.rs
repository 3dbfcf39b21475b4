//! `palace tiles`: a Deep Zoom tile pyramid and its viewer page, from one streamed sweep.

use crate::app::error::{Error, Result};
use crate::app::flags::{
    AggregateArg, BoardArgs, MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE, RunArgs, RunConfig, cli_enum,
};
use crate::app::memory::{self, Need};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text, summary};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Sweep;
use palace::model::geometry::{Board, Window};
use palace::output::atomic::AtomicDir;
use palace::output::dzi::{self, DziWriter, TileOptions};
use std::path::PathBuf;

cli_enum! {
    /// `--format`: the tiles' image format.
    FormatArg => TileFormat {
        /// 4-bit indexed PNG with the paper's palette.
        Png,
    }
}

/// The tiles' image format (PNG only; the flag names it for the DZI descriptor's sake).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileFormat {
    /// Indexed PNG.
    Png,
}

/// Smallest and largest `--tile-size`.
pub const TILE_SIZES: std::ops::RangeInclusive<u32> = 16..=4096;

/// `palace tiles`.
#[derive(Debug, Args)]
pub struct TilesArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Tile side in pixels.
    #[arg(long, value_name = "PX", default_value_t = palace::output::dzi::DEFAULT_TILE_SIZE)]
    pub tile_size: u32,
    /// Tile image format.
    #[arg(long, value_enum, default_value_t = FormatArg::Png)]
    pub format: FormatArg,
    /// How each level reduces 2 x 2 blocks of the one below: `mean` (their mean colour, the
    /// default) shows what the cells look like from afar; `min` keeps one-cell palace threads
    /// visible but paints dense regions solid; `max` brings out hot spots.
    #[arg(long, value_enum, default_value_t = AggregateArg::Mean)]
    pub aggregate: AggregateArg,
    /// The folder to write (created; an earlier pyramid there is replaced whole).
    #[arg(long, short, value_name = "DIR")]
    pub output: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace tiles`.
struct Tiles {
    board: Board,
    window: Window,
    tiles: TileOptions,
    output: PathBuf,
    run: RunConfig,
}

/// Validates and runs `palace tiles`.
pub fn run(a: TilesArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    if !TILE_SIZES.contains(&a.tile_size) {
        return Err(Error::Usage(format!(
            "--tile-size {}: tiles are square, this many pixels a side; use {}..={} (256 is usual)",
            a.tile_size,
            TILE_SIZES.start(),
            TILE_SIZES.end()
        )));
    }
    let TileFormat::Png = a.format.into();
    // The deepest level is the picture at full resolution: the bounds of `render`'s
    // pictures apply (each level holds a band of rows, so the width bounds memory).
    let (w, h) = (u64::from(window.width()), u64::from(window.height()));
    if w.max(h) > MAX_PICTURE_SIDE || w * h > MAX_PICTURE_PIXELS {
        return Err(Error::Usage(format!(
            "{}: the deepest level would be {w} x {h} pixels, more than {MAX_PICTURE_SIDE} a side or {MAX_PICTURE_PIXELS} (2^36) in all; draw a --window of it",
            a.board.named()
        )));
    }
    ctx.run(Tiles {
        board,
        window,
        tiles: TileOptions { tile_size: a.tile_size, aggregate: a.aggregate.into(), threads: a.run.threads },
        output: a.output,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Tiles {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().folder(&self.output)
    }

    fn need(&self) -> Option<Need> {
        let work = palace::analysis::footprint::Work::Tiles { tile_size: self.tiles.tile_size };
        Some(Need {
            fix: "use a narrower board or --window, a smaller --tile-size, or fewer --threads",
            ..memory::board_need(work, &self.window, self.run.engine.threads)
        })
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let Tiles { board, window, tiles, output, run } = self;
        let out = AtomicDir::create(&output, "--output", dzi::DZI_NAME)?;
        let mut writer = DziWriter::create(out, board.k(), window, tiles)?;
        let pyramid = writer.pyramid();
        let pb = progress::bar(run.quiet, "tiles", "rows");
        let report = Sweep::new(board.k(), window).options(&run.engine).progress(&pb).rows(&mut writer)?;
        let (path, made) = writer.finish()?;
        pb.finish_and_clear();
        let page = std::path::absolute(path.join("index.html")).unwrap_or_else(|_| path.join("index.html"));
        let msg = format!(
            "wrote {}: {} x {} pixels at the deepest level, {} levels, {} tiles of {} pixels ({} of one colour), {:.1} MiB",
            path.display(),
            pyramid.width,
            pyramid.height,
            made.levels,
            made.tiles,
            pyramid.tile_size,
            made.uniform_tiles,
            made.bytes as f64 / f64::from(1 << 20)
        );
        summary(&run, &msg, &report);
        // Where to point the browser goes to stdout, even with --quiet.
        out_text(&format!("open file://{} in a browser", page.display()))?;
        Ok(0)
    }
}
