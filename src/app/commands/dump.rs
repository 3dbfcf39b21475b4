//! `palace dump`: a window exported as a NumPy `.npy` array of int32.

use crate::app::error::{Error, Result};
use crate::app::flags::{BoardArgs, RunArgs, RunConfig, cli_enum};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, summary};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Sweep;
use palace::model::geometry::{Board, Window};
use palace::output::npy::{NpyWriter, Values};
use std::path::PathBuf;

cli_enum! {
    /// `--values`: which numbers `dump` writes.
    ValuesArg => Values {
        /// CA values v = N - k (negative exactly at palaces).
        Ca,
        /// Palace numbers N: how many palaces the queen sees west, north and north-west.
        Palace,
    }
}

/// Largest `.npy` file `dump` writes, in cells (256 GiB of int32).
pub const MAX_DUMP_CELLS: u64 = 1 << 36;

/// `palace dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Which numbers to write.
    #[arg(long, value_enum, default_value_t = ValuesArg::Ca)]
    pub values: ValuesArg,
    /// The .npy file to write.
    #[arg(long, short, value_name = "FILE.npy")]
    pub output: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace dump`.
struct Dump {
    board: Board,
    window: Window,
    values: Values,
    output: PathBuf,
    run: RunConfig,
}

/// Validates and runs `palace dump`.
pub fn run(a: DumpArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    let cells = window.cells();
    if cells > MAX_DUMP_CELLS {
        let what = a.board.named();
        return Err(Error::Usage(format!(
            "{what}: {cells} cells would make a {} GiB .npy file, more than the {} GiB (2^36 cells) dump writes; choose a smaller board or a --window",
            (cells * 4) >> 30,
            (MAX_DUMP_CELLS * 4) >> 30
        )));
    }
    ctx.run(Dump {
        board,
        window,
        values: a.values.into(),
        output: a.output,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Dump {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::no_report().file("--output", &self.output)
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::Work;
        Some(memory::board_need(Work::Dump, &self.window, self.run.engine.threads))
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Dump { board, window, values, output, run } = self;
        let out = open(&output, "--output", "npy", &ctx.cancel)?;
        let mut writer = NpyWriter::create(out, window, values)?.with_cancel(ctx.cancel.clone());
        let pb = progress::bar(run.quiet, "dump", "rows");
        let report = Sweep::new(board.k(), window).options(&run.engine).progress(&pb).rows(&mut writer)?;
        let path = writer.finish()?;
        pb.finish_and_clear();
        let msg = format!(
            "wrote {} (int32, shape ({}, {}), {:?} values)",
            path.display(),
            window.height(),
            window.width(),
            values
        );
        summary(&run, &msg, &report);
        Ok(0)
    }
}
