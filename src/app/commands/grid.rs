//! `palace grid`: the grid of the fabric's black cells (paper §3.2) measured by exact
//! autocorrelation in windows along the diagonal, and its maps drawn.

use crate::app::error::{Error, Result};
use crate::app::flags::{ReportArgs, RunArgs, RunConfig, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::{grid, grid_plot};
use palace::model::geometry::MAX_SIDE;
use std::path::PathBuf;

/// `palace grid`.
#[derive(Debug, Args)]
pub struct GridArgs {
    /// The game (its fabric reaches about 1.28 k along the diagonal from the nose).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Window side (near the nose, where the fabric is narrow, d / 2 at distance d).
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub side: u32,
    /// The largest shift measured, each coordinate (at most half the side).
    #[arg(long, value_name = "R", default_value_t = 128)]
    pub reach: u32,
    /// Distances from the nose, comma-separated (default: 128, 192, 256, 384, 512, ... while
    /// the window ends before 1.25 k).
    #[arg(long, value_name = "D,D,...", value_delimiter = ',')]
    pub at: Vec<u32>,
    /// Draw the black cells' autocorrelation maps with the measured lattices to this PNG.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// The largest window side of `palace grid`: the pair counts stay exact in f64.
pub const MAX_GRID_SIDE: u32 = 4096;

/// Validates and runs `palace grid`.
pub fn run(a: GridArgs, ctx: &Context) -> Result<ExitCode> {
    if a.k < 4 || a.k > palace::model::rule::MAX_K - 3 {
        return Err(Error::Usage(format!(
            "--k {}: grid labels the fabric, which also plays k + 3; use 4 <= k <= {}",
            a.k,
            palace::model::rule::MAX_K - 3
        )));
    }
    if !(16..=MAX_GRID_SIDE).contains(&a.side) {
        return Err(Error::Usage(format!("--side {}: use 16..={MAX_GRID_SIDE}", a.side)));
    }
    if a.reach == 0 || a.reach > a.side / 2 {
        return Err(Error::Usage(format!("--reach {}: use 1..={} (half the --side)", a.reach, a.side / 2)));
    }
    let nose = (a.k - 1) / 3;
    let at = if a.at.is_empty() { palace::analysis::grid::default_distances(a.k, a.side) } else { a.at };
    for &d in &at {
        if d < 2 || u64::from(nose) + u64::from(d) + u64::from(a.side) > u64::from(MAX_SIDE) {
            return Err(Error::Usage(format!(
                "--at {d}: a distance from the nose must be at least 2 and keep the window within {MAX_SIDE} cells"
            )));
        }
    }
    ctx.run(Grid {
        k: a.k,
        side: a.side,
        reach: a.reach,
        at,
        output: a.output,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

/// A validated `palace grid`.
struct Grid {
    k: u32,
    /// The window side.
    side: u32,
    /// The largest shift.
    reach: u32,
    /// Distances from the nose.
    at: Vec<u32>,
    output: Option<PathBuf>,
    json: bool,
    run: RunConfig,
}

impl Request for Grid {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let (k, side, at) = (self.k, self.side, &self.at);
        let x1 = u64::from((k - 1) / 3) + u64::from(at.iter().copied().max().unwrap_or(0)) + u64::from(side);
        let windows = at.len() as u64 * u64::from(side) * u64::from(side);
        Some(Need {
            footprint: footprint(Work::Regions, x1, self.run.engine.threads).with_fixed(windows),
            what: format!("--k {k}: sweeps {x1} columns wide (to the farthest window)"),
            fix: "use a smaller --k, --at or --side, or fewer --threads",
        })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Grid { k, side, reach, at, output, json, run } = self;
        let out = output.as_deref().map(|p| open(p, "--output", "png", &ctx.cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "grid", "rows");
        let (report, maps) = grid::run(k, side, reach, &at, &run.engine, &pb)?;
        let path = match out {
            Some(o) => {
                let path = o.path().to_path_buf();
                grid_plot::draw(&report, &maps, o)?;
                Some(path)
            }
            None => None,
        };
        pb.finish_and_clear();
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
