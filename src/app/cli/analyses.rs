//! The arguments of the analyses (`regions`, `fabric`, `skin`, `survey`, `threads`, `beams`,
//! `grid`, `gliders`) and the validation of those that validate themselves.

use super::*;

/// `palace regions`.
#[derive(Debug, Args)]
pub struct RegionsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// The region map PNG to write.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (the block's top-left cell).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    /// Run the reference implementation (one consumer thread), for testing.
    #[arg(long, hide = true)]
    pub reference: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare map: no legend strip below it and no junction rings (every pixel is its
    /// region's palette index, written in one pass).
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

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
    /// Run the reference implementation (one consumer thread), for testing.
    #[arg(long, hide = true)]
    pub reference: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// `palace skin`.
#[derive(Debug, Args)]
pub struct SkinArgs {
    /// The game, at least 3 (games 1 and 2 have no arm, so no skin).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Follow the skin up to this column (exclusive; K < X <= 1073741824 = 2^30).
    #[arg(long, value_name = "X")]
    pub to: u64,
    /// Write the per-column measurements (x, top, top_v, vertical, diagonal, level) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Plot the vertical thickness against the column to this PNG, one panel per level.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Follow the skin through the CA's row sweep (every cell by the rule; slower): the
    /// reference the default counter sweep is checked against. No checkpoints.
    #[arg(long, conflicts_with_all = ["checkpoint", "resume"])]
    pub rows: bool,
    /// Also record every column's pattern of palace numbers k-2 and k-1 (8 bytes a column, in
    /// memory and checkpoints) and report, per level, whether each period is symmetric under
    /// a half turn and how much of the level the paper's expansion matrices predict from the
    /// level below (§3.4).
    #[arg(long)]
    pub pattern: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// `palace survey`.
#[derive(Debug, Args)]
pub struct SurveyArgs {
    /// The range of k, A..B (both included).
    #[arg(long, value_name = "A..B", value_parser = parse_k_range)]
    pub k: (u32, u32),
    /// Every S-th k from A.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub step: u32,
    /// The board of game k is (F k) x (F k).
    #[arg(long, value_name = "F", default_value_t = 3)]
    pub size_factor: u32,
    /// Write the CSV here (default: standard output; with -o the summary goes to stdout).
    #[arg(long, short, value_name = "FILE.csv")]
    pub output: Option<PathBuf>,
    /// Plot the columns against k to this PNG.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Leave the skin out (its columns empty): faster.
    #[arg(long)]
    pub no_skin: bool,
    /// Label the hottest cell's surroundings and follow the skin only for every D-th k from A
    /// (the costly columns; the others stay empty in the rows between).
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub detail_step: u32,
    /// Print the summary as JSON (with -o).
    #[arg(long, requires = "output")]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--size-factor` of `survey`.
pub const MAX_SIZE_FACTOR: u32 = 64;

/// Parses `A..B` (or a single `A`).
fn parse_k_range(s: &str) -> std::result::Result<(u32, u32), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let (a, b) = (parse_k(a)?, parse_k(b.trim_start_matches('=')).map_err(|e| e.to_string())?);
    if a == 0 || a > b {
        return Err(format!("{s:?}: use A..B with 1 <= A <= B"));
    }
    Ok((a, b))
}

impl SurveyArgs {
    pub(super) fn resolve(self) -> Result<Config> {
        let (from, to) = self.k;
        if self.step == 0 || self.detail_step == 0 {
            let flag = if self.step == 0 { "--step" } else { "--detail-step" };
            return Err(Error::Usage(format!("{flag} 0: use {flag} 1 or more")));
        }
        if self.size_factor == 0 || self.size_factor > MAX_SIZE_FACTOR {
            return Err(Error::Usage(format!(
                "--size-factor {}: use 1..={MAX_SIZE_FACTOR}",
                self.size_factor
            )));
        }
        let side = u64::from(to) * u64::from(self.size_factor);
        if side + 1 > u64::from(MAX_SIDE) || u64::from(to) + 3 > u64::from(palace::model::rule::MAX_K) {
            return Err(Error::Usage(format!(
                "--k {from}..{to} --size-factor {}: the board F k (and game k + 3) must stay within 2^30 sides and k <= {}; use a smaller B",
                self.size_factor,
                palace::model::rule::MAX_K - 3
            )));
        }
        let min_k = palace::analysis::skin::MIN_K;
        if from < min_k && !self.no_skin && !self.run.quiet {
            eprintln!(
                "palace: note: games k < {min_k} have no arm, so no skin: their skin columns stay empty"
            );
        }
        Ok(Config::Survey {
            survey: palace::analysis::survey::SurveyOptions {
                from,
                to,
                step: self.step,
                factor: self.size_factor,
                skin: !self.no_skin,
                detail_step: self.detail_step,
            },
            output: self.output,
            plot: self.plot,
            json: self.json,
            run: self.run.resolve()?,
        })
    }
}

/// `palace threads`.
#[derive(Debug, Args)]
pub struct ThreadsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Write one line per thread (rows, ends, merges, thickness, period, slope) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Draw the threads, one colour each, over the dimmed picture to this PNG.
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (a block with a thread cell shows the thread).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    /// Cells on the same or the next row at most R columns apart belong to one thread.
    #[arg(long, value_name = "R", default_value_t = palace::analysis::threads::trace::REACH)]
    pub reach: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare picture: no legend strip of the colours below it.
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

/// `palace beams`.
#[derive(Debug, Args)]
pub struct BeamsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Rows a beam may skip (pieces in line are also joined across 4 times as many).
    #[arg(long, value_name = "G", default_value_t = palace::analysis::beams::track::GAP)]
    pub gap: u32,
    /// Columns a beam's palace may lie from the line through its last palaces.
    #[arg(long, value_name = "T", default_value_t = palace::analysis::beams::track::TOLERANCE)]
    pub tolerance: u32,
    /// Write every beam's palaces (beam,half,y,x) as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Draw the beams, one colour each, and the other lone palaces over the dimmed picture to
    /// this PNG (kept in memory until the beams are known: at most 2^28 pixels).
    #[arg(long, short, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
    /// One pixel per S x S cells (a block with a beam's palace shows the beam).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub scale: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare picture: no legend strip of the colours below it.
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

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
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

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
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    /// Draw the bare picture: no legend strip of the colours below it.
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

impl GlidersArgs {
    pub(super) fn resolve(self) -> Result<Config> {
        use palace::analysis::gliders::{self as gl, plot, texture::CELL};
        let (board, window) = self.board.resolve()?;
        if board.k < 4 || board.k > palace::model::rule::MAX_K - 3 {
            return Err(Error::Usage(format!(
                "--k {}: gliders labels the fabric, which also plays k + 3; use 4 <= k <= {}",
                board.k,
                palace::model::rule::MAX_K - 3
            )));
        }
        let cell = CELL as u32;
        if self.side % (2 * cell) != cell || self.side > 9 * cell {
            return Err(Error::Usage(format!(
                "--side {}: use an odd multiple of {cell} up to {} (48, 80, 112, 144), so that the window is centred on its map cell",
                self.side,
                9 * cell
            )));
        }
        if !(self.threshold > 0.0 && self.threshold < 1.0) {
            return Err(Error::Usage(format!(
                "--threshold {}: a correlation threshold lies strictly between 0 and 1; use e.g. 0.08",
                self.threshold
            )));
        }
        if !(self.min_life >= 0.0 && self.min_life.is_finite()) {
            return Err(Error::Usage(format!("--min-life {}: use 0 or more (in t = x + y)", self.min_life)));
        }
        if !plot::SCALES.contains(&self.scale) {
            return Err(Error::Usage(format!(
                "--scale {}: the picture draws whole map cells of {cell} x {cell}; use 1, 2, 4, 8 or 16",
                self.scale
            )));
        }
        let params = gl::Params {
            w: (self.side / cell) as usize,
            threshold: self.threshold,
            track: gl::track::TrackParams { min_life: self.min_life, ..Default::default() },
        };
        Ok(Config::Gliders {
            board,
            window,
            params,
            csv: self.csv,
            output: self.output,
            scale: self.scale,
            json: self.json,
            run: self.run.resolve()?,
            legend: !self.no_legend,
        })
    }
}

/// The largest window side of `palace grid`: the pair counts stay exact in f64.
pub const MAX_GRID_SIDE: u32 = 4096;

impl GridArgs {
    pub(super) fn resolve(self) -> Result<Config> {
        if self.k < 4 || self.k > palace::model::rule::MAX_K - 3 {
            return Err(Error::Usage(format!(
                "--k {}: grid labels the fabric, which also plays k + 3; use 4 <= k <= {}",
                self.k,
                palace::model::rule::MAX_K - 3
            )));
        }
        if !(16..=MAX_GRID_SIDE).contains(&self.side) {
            return Err(Error::Usage(format!("--side {}: use 16..={MAX_GRID_SIDE}", self.side)));
        }
        if self.reach == 0 || self.reach > self.side / 2 {
            return Err(Error::Usage(format!(
                "--reach {}: use 1..={} (half the --side)",
                self.reach,
                self.side / 2
            )));
        }
        let nose = (self.k - 1) / 3;
        let at = if self.at.is_empty() {
            palace::analysis::grid::default_distances(self.k, self.side)
        } else {
            self.at
        };
        for &d in &at {
            if d < 2 || u64::from(nose) + u64::from(d) + u64::from(self.side) > u64::from(MAX_SIDE) {
                return Err(Error::Usage(format!(
                    "--at {d}: a distance from the nose must be at least 2 and keep the window within {MAX_SIDE} cells"
                )));
            }
        }
        Ok(Config::Grid {
            k: self.k,
            side: self.side,
            reach: self.reach,
            at,
            output: self.output,
            json: self.json,
            run: self.run.resolve()?,
        })
    }
}
