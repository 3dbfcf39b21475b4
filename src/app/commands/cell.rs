//! `palace cell`: one cell's palace number N, its value v = N - k and whether it is a
//! P-position.

use crate::app::error::{Error, Result};
use crate::app::flags::{RunArgs, RunConfig, parse_k};
use crate::app::memory::Need;
use crate::app::print::{ExitCode, out_text};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::{cell_region, positions};

/// The most cells `palace cell` labels for the region without `--region`: about a second of
/// labelling on two cores where the board is densest.
const REGION_BY_DEFAULT: u64 = 1 << 28;

/// `palace cell`.
#[derive(Debug, Args)]
pub struct CellArgs {
    /// The blocking number k (k = 1 is classical Wythoff Nim).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// The cell: column x, row y.
    #[arg(long, value_name = "x,y")]
    pub at: String,
    /// Also label the cell's region, however far the cell lies (two labelled sweeps of three
    /// games over the rectangle from the corner; the cost is printed before they start).
    /// Without it the region is labelled only where that sweeps at most 2^28 cells.
    #[arg(long)]
    pub region: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace cell`.
struct Cell {
    k: u32,
    x: u32,
    y: u32,
    /// Label the region: asked for with `--region`, or cheap enough.
    region: bool,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace cell`.
pub fn run(a: CellArgs, ctx: &Context) -> Result<ExitCode> {
    ctx.run(a.resolve(ctx)?)
}

impl CellArgs {
    /// Checks the request.
    fn resolve(&self, ctx: &Context) -> Result<Cell> {
        let bad = || {
            Error::Usage(format!(
                "--at {}: give the column and the row as x,y, each from 0 to {}, e.g. --at 1000,250",
                self.at,
                palace::model::geometry::MAX_SIDE - 1
            ))
        };
        let parts: Vec<&str> = self.at.split(',').map(str::trim).collect();
        let [x, y] = parts[..] else { return Err(bad()) };
        let (Ok(x), Ok(y)) = (x.parse::<u32>(), y.parse::<u32>()) else { return Err(bad()) };
        if x >= palace::model::geometry::MAX_SIDE || y >= palace::model::geometry::MAX_SIDE {
            return Err(bad());
        }
        if self.k == 0 {
            return Err(Error::Usage("--k 0: k starts at 1; use --k 1 or more".into()));
        }
        let region = self.region || cell_region::labelled_cells(self.k, x, y) <= REGION_BY_DEFAULT;
        Ok(Cell { k: self.k, x, y, region, json: self.json, run: self.run.resolve(&ctx.cancel)? })
    }
}

impl Request for Cell {
    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let threads = self.run.engine.threads;
        // The value: a counter sweep to the cell's column. The region, after it: the
        // labeller's sweep over the neighbourhood's columns, wider and more per column.
        let (footprint, what) = if self.region {
            let width = cell_region::neighbourhood_end(self.x);
            (
                footprint(Work::Regions, u64::from(width), threads),
                format!("labelling {width} columns for the region"),
            )
        } else {
            (
                footprint(Work::Palaces, u64::from(self.x) + 1, threads),
                format!("{} columns", u64::from(self.x) + 1),
            )
        };
        Some(Need { footprint, what, fix: "use fewer --threads, or drop --region" })
    }

    /// Prints the cell's palace number, value and kind, and its region
    /// ([`palace::analysis::cell_region`]) where it is labelled.
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let pb = progress::bar(self.run.quiet, "cell", "rows");
        let (n, _) = positions::cell(self.k, self.x, self.y, &self.run.engine, &pb)?;
        pb.finish_and_clear();
        let (k, x, y) = (i64::from(self.k), u64::from(self.x), u64::from(self.y));
        let v = n - k;
        let hood = palace::model::rule::in_hood(self.k, x, y);
        let cells = cell_region::labelled_cells(self.k, self.x, self.y);
        let region = if self.region {
            if cells > REGION_BY_DEFAULT && !self.run.quiet {
                eprintln!(
                    "palace: labelling the region: two sweeps of three games, {cells} cells ({:.1e}) from the corner",
                    cells as f64
                );
            }
            let pb = progress::bar(self.run.quiet, "cell's region", "rows");
            let region = cell_region::region(self.k, self.x, self.y, &self.run.engine, &pb)?;
            pb.finish_and_clear();
            Some(region)
        } else {
            None
        };
        let text = if self.json {
            let region = match &region {
                Some(r) => serde_json::to_value(r).expect("serialisable"),
                None => serde_json::json!({ "decided": "not_labelled", "cells_to_label": cells }),
            };
            serde_json::to_string_pretty(&serde_json::json!({
                "k": k, "x": x, "y": y, "N": n, "v": v, "p_position": v < 0, "hood": hood,
                "region": region,
            }))
            .expect("serialisable")
        } else {
            let region = match &region {
                Some(r) => r.to_string(),
                None => format!(
                    "not labelled: the labels are decided from the corner, two sweeps of three games over {cells} cells ({:.1e}); add --region to label it",
                    cells as f64
                ),
            };
            format!(
                "k = {k}, cell ({x}, {y}): N = {n}, v = N - k = {v}: {}{}\nregion: {region}",
                if v < 0 { "a P-position (palace)" } else { "an N-position" },
                if hood { ", in the hood (N = max(x, y) + 2 min(x, y))" } else { ", outside the hood" }
            )
        };
        out_text(&text)?;
        Ok(0)
    }
}
