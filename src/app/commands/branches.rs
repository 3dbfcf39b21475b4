//! `palace branches`: its arguments, validation and run in one place. The grouping and the
//! measurements are [`palace::analysis::branches`]'s; this file maps the flags onto them, writes
//! the picture and prints the report.

use crate::app::error::{Error, Result};
use crate::app::flags::{MethodArg, RunArgs, RunConfig, parse_k, parse_side};
use crate::app::memory::{Need, positions_need};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::branches::{self, Settings};
use palace::analysis::positions::{Method, default_width};
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace branches`.
#[derive(Debug, Args)]
pub struct BranchesArgs {
    /// The blocking number k (k = 1 is classical Wythoff Nim).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Group the P-positions of rows 0..N.
    #[arg(long, value_name = "N", value_parser = parse_side, allow_negative_numbers = true)]
    pub rows: u32,
    /// Columns swept (default k + 3N, as `palace positions`).
    #[arg(long, value_name = "W", value_parser = parse_side, allow_negative_numbers = true)]
    pub width: Option<u32>,
    /// The least gap between two branches, as a difference of ln(y/x) (raised to 60/N for
    /// small N).
    #[arg(long, value_name = "G", default_value_t = Settings::default().min_gap)]
    pub min_gap: f64,
    /// Draw the ratio y/x of every position against log10 y, one colour per branch, as a PNG.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// How the P-positions are found, as `palace positions --method`.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace branches`.
struct BranchesRun {
    k: u32,
    rows: u32,
    width: Option<u32>,
    settings: Settings,
    method: Method,
    plot: Option<PathBuf>,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace branches`.
pub fn run(a: BranchesArgs, ctx: &Context) -> Result<ExitCode> {
    ctx.run(a.resolve(ctx)?)
}

impl BranchesArgs {
    /// Checks the request.
    fn resolve(&self, ctx: &Context) -> Result<BranchesRun> {
        if self.k == 0 || self.rows == 0 || self.width == Some(0) {
            return Err(Error::Usage(
                "--k, --rows and --width start at 1; e.g. palace branches --k 5 --rows 100000".into(),
            ));
        }
        if self.width.is_none()
            && default_width(self.k, self.rows) > u64::from(palace::model::geometry::MAX_SIDE)
        {
            return Err(Error::Usage(format!(
                "--rows {}: the default width k + 3 rows exceeds {}; give --width",
                self.rows,
                palace::model::geometry::MAX_SIDE
            )));
        }
        if !Settings::accepts_min_gap(self.min_gap) {
            return Err(Error::Usage(format!(
                "--min-gap {}: give a gap of ln(y/x) between 0 and 1, e.g. 0.01",
                self.min_gap
            )));
        }
        Ok(BranchesRun {
            k: self.k,
            rows: self.rows,
            width: self.width,
            settings: Settings { min_gap: self.min_gap, ..Settings::default() },
            method: self.method.resolve(self.k)?,
            plot: self.plot.clone(),
            json: self.json,
            run: self.run.resolve(&ctx.cancel)?,
        })
    }
}

impl Request for BranchesRun {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--plot", self.plot.as_deref())
    }

    fn need(&self) -> Option<Need> {
        // `resolve` checked that the default width fits.
        let width = self.width.unwrap_or_else(|| default_width(self.k, self.rows) as u32);
        // With --plot the upper positions are kept and grouped: 48 bytes each (the position,
        // its branch and the grouping's indices), at most k / 2 + 1 a row for the games
        // surveyed (`docs/small-k.md`: 0.29 k a row for k = 4..20). Without it, the lowest
        // octaves' positions (8 bytes each, at most three octaves' budgets) and the bins.
        let kept = if self.plot.is_some() {
            48 * u64::from(self.rows) * (u64::from(self.k) / 2 + 1)
        } else {
            3 * 8 * branches::stream::RAW_BUDGET as u64 + (64 << 20)
        };
        Some(positions_need(self.method, self.rows, width, self.run.engine.threads, kept))
    }

    /// Groups the positions, draws the picture and prints the report.
    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let plot = match &self.plot {
            Some(p) => Some(AtomicOutput::create_cancellable(p, "--plot", &ctx.cancel)?),
            None => None,
        };
        let pb = progress::bar(self.run.quiet, "branches", "rows");
        // The picture draws every position: it needs the list.
        let find = if plot.is_some() { branches::branches_listed } else { branches::branches };
        let found = find(self.k, self.rows, self.width, &self.settings, self.method, &self.run.engine, &pb)?;
        pb.finish_and_clear();
        let report = found.report;
        if let (Some(out), Some((positions, member))) = (plot, &found.listed) {
            branches::plot::plot(&report, positions, member, out)?;
        }
        let text = if self.json {
            serde_json::to_string_pretty(&report).expect("serialisable")
        } else {
            report.to_string()
        };
        out_text(&text)?;
        Ok(0)
    }
}
