//! `palace fabric`: the three fabrics (paper Fig. 7), one k of each class mod 3, side by side,
//! and how much of each the later games reproduce.

use crate::app::error::{Error, Result};
use crate::app::flags::{ReferenceArgs, ReportArgs, RunArgs, RunConfig, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::fabric;
use std::path::PathBuf;

/// `palace fabric`.
#[derive(Debug, Args)]
pub struct FabricArgs {
    /// The first of the three consecutive games drawn (k, k+1, k+2 cover every class mod 3).
    #[arg(long, value_name = "K", default_value_t = 998, value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Side of each game's window around its nose.
    #[arg(long, value_name = "N")]
    pub size: u32,
    /// The picture to write.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub reference: ReferenceArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace fabric`.
struct Fabric {
    reference: bool,
    /// The first game.
    k: u32,
    /// The panel side.
    size: u32,
    output: Option<PathBuf>,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace fabric`.
pub fn run(a: FabricArgs, ctx: &Context) -> Result<ExitCode> {
    if a.k < 4 || a.k > 1 << 24 {
        return Err(Error::Usage(format!("--k {}: use 4 <= k <= {} for the fabric", a.k, 1 << 24)));
    }
    if a.size == 0 || a.size > 8192 {
        return Err(Error::Usage(format!("--size {}: the panels are held in memory; use 1..=8192", a.size)));
    }
    ctx.run(Fabric {
        k: a.k,
        size: a.size,
        output: a.output,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
        reference: a.reference.reference,
    })
}

impl Request for Fabric {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let (k, size) = (self.k, self.size);
        // The last game's window lies furthest out; the three panels are held whole.
        let x1 = u64::from((k + 1) / 3) + u64::from(size);
        let panels = 3 * u64::from(size) * u64::from(size);
        Some(Need {
            footprint: footprint(Work::Regions, x1, self.run.engine.threads).with_fixed(panels),
            what: format!("--k {k} --size {size}: sweeps {x1} columns wide (to the third nose and past it)"),
            fix: "use a smaller --k or --size, or fewer --threads",
        })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Fabric { k, size, output, json, run, reference } = self;
        let out = output.as_deref().map(|p| open(p, "--output", "png", &ctx.cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "fabric", "rows");
        let go = if reference { fabric::run_reference } else { fabric::run };
        let (report, path) = go(k, size, out, &run.engine, &pb)?;
        pb.finish_and_clear();
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
