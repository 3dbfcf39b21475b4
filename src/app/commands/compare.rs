//! `palace compare`: two games compared cell by cell (the paper's Fig. 4), or searched over
//! shifts (`--search-shift`, the paper's Fig. 3) and per region (`--region-search`).

use crate::app::error::{Error, Result};
use crate::app::flags::{
    BoardArgs, ReferenceArgs, ReportArgs, RunArgs, RunConfig, check_k_plus_3, check_scale, parse_k2,
};
use crate::app::memory::{self, Need};
use crate::app::outputs::{Outputs, open};
use crate::app::print::{ExitCode, print_report, wrote};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::compare::{self, Comparison};
use palace::labels::Region;
use palace::model::geometry::{MAX_SIDE, Window};
use std::path::PathBuf;

/// A shift `dx,dy` between two games' cells (negative coordinates only for `--search-shift`,
/// which the validation checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shift(pub i64, pub i64);

impl std::str::FromStr for Shift {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let (a, b) = s.split_once(',').ok_or_else(|| format!("expected dx,dy, got {s:?}"))?;
        let p =
            |t: &str| {
                t.trim().parse::<i64>().ok().filter(|v| v.unsigned_abs() <= u64::from(MAX_SIDE)).ok_or_else(
                    || format!("{t:?} is not a whole number from -{MAX_SIDE} to {MAX_SIDE} (2^30)"),
                )
            };
        Ok(Shift(p(a)?, p(b)?))
    }
}

/// `palace compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// The second game.
    #[arg(long, value_name = "K2", value_parser = parse_k2, allow_negative_numbers = true)]
    pub k2: u32,
    /// Shift dx,dy from a cell of game K to the cell of game K2 it is compared with (>= 0;
    /// with --search-shift the search's centre, which may be negative).
    #[arg(long, value_name = "dx,dy", default_value = "0,0", allow_hyphen_values = true)]
    pub shift: Shift,
    /// Offset d: a cell matches when N_K2 = N_K + d.
    #[arg(long, value_name = "d", default_value_t = 0, allow_negative_numbers = true)]
    pub offset: i64,
    /// Draw game K with non-matching cells white to this PNG.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (the block's top-left cell).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub reference: ReferenceArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    /// Instead of one comparison, search every shift within R of --shift (each coordinate,
    /// negative shifts too) and give each its most common offset N_K2 - N_K; report the best
    /// and, as the level of chance, the mean and standard deviation over all the shifts (the
    /// paper's Fig. 3).
    #[arg(long, value_name = "R", conflicts_with_all = ["output", "reference", "offset"])]
    pub search_shift: Option<u32>,
    /// With --search-shift: score only the cells of game K's window in these regions (the
    /// labels of `palace regions`).
    #[arg(long, value_enum, value_name = "REGION", requires = "search_shift")]
    pub search_region: Option<SearchRegionArg>,
    /// Instead of one comparison, compare at every shift within R of --shift (each
    /// coordinate, at most 10) with the one --offset, and report for each region of game K its
    /// best shift and match fraction, and its fraction at --shift (which regions depend on k).
    #[arg(long, value_name = "R", conflicts_with_all = ["output", "reference", "search_shift"])]
    pub region_search: Option<u32>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare picture: no legend strip of the colours below it (every pixel is a
    /// cell's, written in one pass).
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

/// `compare --search-region`: which cells of game K's window a search scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchRegionArg {
    /// The rest: the fray, both warps and the inner sector (what no invariance claims).
    Rest,
    /// The inner sector.
    InnerSector,
    /// The fray and both warps.
    Warps,
    /// The fabric.
    Fabric,
    /// Both arms.
    Arms,
}

impl SearchRegionArg {
    /// The library's regions it stands for.
    pub fn regions(self) -> Vec<Region> {
        match self {
            SearchRegionArg::Rest => {
                vec![Region::Fray, Region::WarpUpper, Region::WarpLower, Region::InnerSector]
            }
            SearchRegionArg::InnerSector => vec![Region::InnerSector],
            SearchRegionArg::Warps => vec![Region::Fray, Region::WarpUpper, Region::WarpLower],
            SearchRegionArg::Fabric => vec![Region::Fabric],
            SearchRegionArg::Arms => vec![Region::ArmUpper, Region::ArmLower],
        }
    }
}

/// A validated `palace compare`.
struct Compare {
    reference: bool,
    /// The window of the first game.
    window: Window,
    comparison: Comparison,
    output: Option<PathBuf>,
    scale: u32,
    json: bool,
    /// Search the shifts within this radius of the comparison's shift instead.
    search_shift: Option<u32>,
    /// The search's centre: `--shift` as given, which may be negative.
    centre: (i64, i64),
    /// The regions of game A whose cells the search scores (all cells when `None`).
    search_region: Option<Vec<Region>>,
    /// Each region's best shift within this radius of the comparison's shift instead.
    region_search: Option<u32>,
    run: RunConfig,
    /// The legend strip below the picture.
    legend: bool,
}

/// Validates and runs `palace compare`.
pub fn run(a: CompareArgs, ctx: &Context) -> Result<ExitCode> {
    let (board, window) = a.board.resolve()?;
    check_scale(a.scale)?;
    if a.search_region.is_some() {
        check_k_plus_3(board.k(), "--search-region labels game K, which also plays k + 3")?;
    }
    let Shift(sx, sy) = a.shift;
    if a.search_shift.is_none() && (sx < 0 || sy < 0) {
        return Err(Error::Usage(format!(
            "--shift {sx},{sy}: a negative shift only with --search-shift; to compare once, swap --k and --k2 and negate --shift and --offset"
        )));
    }
    // The search checks its own shifts (negative ones included); here the shift of
    // one comparison or of a region search.
    let (dx, dy) = (sx.max(0) as u64, sy.max(0) as u64);
    if a.search_shift.is_none()
        && (u64::from(window.x1()) + dx > u64::from(MAX_SIDE)
            || u64::from(window.y1()) + dy > u64::from(MAX_SIDE))
    {
        return Err(Error::Usage(format!(
            "--shift {dx},{dy}: the shifted window {},{},{},{} of game K2 reaches past the largest coordinate, {MAX_SIDE} (2^30); use a smaller shift",
            u64::from(window.x0()) + dx,
            u64::from(window.y0()) + dy,
            u64::from(window.x1()) + dx,
            u64::from(window.y1()) + dy
        )));
    }
    ctx.run(Compare {
        window,
        comparison: Comparison { a: board.k(), b: a.k2, shift: (dx as u32, dy as u32), offset: a.offset },
        centre: (sx, sy),
        search_region: a.search_region.map(SearchRegionArg::regions),
        output: a.output,
        scale: a.scale,
        json: a.report.json,
        search_shift: a.search_shift,
        region_search: a.region_search,
        run: a.run.resolve(&ctx.cancel)?,
        reference: a.reference.reference,
        legend: !a.no_legend,
    })
}

impl Request for Compare {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let window = &self.window;
        let (cols, t) = (u64::from(window.x1()), self.run.engine.threads);
        let fp = if let Some(r) = self.search_shift {
            // Both windows are swept into memory (8 bytes a cell), B's widened by the
            // radius each way.
            let r = u64::from(r);
            let (w, h) = (u64::from(window.width()), u64::from(window.height()));
            let columns = cols + self.centre.0.unsigned_abs() + r;
            footprint(Work::Compare, columns, t).with_fixed(8 * (w * h + (w + 2 * r) * (h + 2 * r)))
        } else {
            let (dx, _) = self.comparison.shift;
            let r = u64::from(self.region_search.unwrap_or(0));
            // A region search sweeps a game per shift along a row of shifts at once.
            footprint(Work::Compare, cols + u64::from(dx) + r, t).times(2 * r + 1)
        };
        Some(Need { footprint: fp, what: memory::board_what(window), fix: memory::BOARD_FIX })
    }

    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let Compare { window, comparison: c, json, run, .. } = self;
        if let Some(radius) = self.search_shift {
            let pb = progress::bar(run.quiet, "compare --search-shift", "rows");
            let only = self.search_region.as_deref();
            let report = palace::analysis::shift_search::search(
                c.a,
                c.b,
                window,
                self.centre,
                radius,
                only,
                &run.engine,
                &pb,
            )?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            return Ok(0);
        }
        if let Some(radius) = self.region_search {
            let pb = progress::bar(run.quiet, "compare --region-search", "rows");
            let report = palace::analysis::region_search::search(c, window, radius, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            return Ok(0);
        }
        let out = self.output.as_deref().map(|p| open(p, "--output", "png", &ctx.cancel)).transpose()?;
        let out = out.map(|o| palace::output::legend::MapOutput::new(o, self.legend));
        let pb = progress::bar(run.quiet, "compare", "rows");
        let go = if self.reference { compare::run_reference } else { compare::run };
        let (report, path) = go(c, window, self.scale, out, &run.engine, &pb)?;
        pb.finish_and_clear();
        print_report(json, &report)?;
        wrote(path, run.quiet);
        Ok(0)
    }
}
