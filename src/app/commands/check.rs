//! `palace check`: the engine cross-checked against an exact solver of the game itself on small
//! boards, and against the Wythoff pairs for k = 1.

use crate::app::error::{Error, Result};
use crate::app::flags::{RunArgs, RunConfig};
use crate::app::memory::Need;
use crate::app::print::{ExitCode, print_report};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;

/// Largest `--wythoff-size` of `check` (its board is swept and every cell compared).
pub const MAX_WYTHOFF_SIDE: u32 = 20_000;

/// `palace check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Play every game k = 1..=K.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub max_k: u32,
    /// Every board from 1 x 1 up to N x N.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_size: u32,
    /// Board side for the k = 1 comparison with the Wythoff pairs.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub wythoff_size: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace check`.
struct Check {
    max_k: u32,
    max_size: u32,
    wythoff_size: u32,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace check`.
pub fn run(a: CheckArgs, ctx: &Context) -> Result<ExitCode> {
    if a.max_k == 0 {
        return Err(Error::Usage("--max-k 0: k starts at 1; use --max-k 1 or more".into()));
    }
    if a.max_size == 0 || a.max_size > 16 {
        return Err(Error::Usage(format!(
            "--max-size {}: the exact solver handles boards from 1 up to 16; use 1..=16",
            a.max_size
        )));
    }
    if a.max_k > 6 {
        return Err(Error::Usage(format!(
            "--max-k {}: the solver enumerates every blocked set, which is too slow beyond k = 6; use --max-k <= 6",
            a.max_k
        )));
    }
    if a.wythoff_size == 0 || a.wythoff_size > MAX_WYTHOFF_SIDE {
        return Err(Error::Usage(format!("--wythoff-size {}: use 1..={MAX_WYTHOFF_SIDE}", a.wythoff_size)));
    }
    ctx.run(Check {
        max_k: a.max_k,
        max_size: a.max_size,
        wythoff_size: a.wythoff_size,
        json: a.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Check {
    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let w = self.wythoff_size;
        Some(Need {
            footprint: footprint(Work::Picture { zoom: 1 }, u64::from(w), self.run.engine.threads),
            what: format!("--wythoff-size {w}"),
            fix: "use a smaller --wythoff-size, or fewer --threads",
        })
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let pb = progress::bar(self.run.quiet, "check", "boards");
        let report = palace::analysis::check::run(
            self.max_k,
            self.max_size,
            self.wythoff_size,
            &self.run.engine,
            &pb,
        )?;
        pb.finish_and_clear();
        print_report(self.json, &report)?;
        Ok(if report.mismatch.is_some() { 1 } else { 0 })
    }
}
