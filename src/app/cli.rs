//! The command line (clap derive), and its validation into plain configurations.
//!
//! Every check of the user's input happens here, while the parsed arguments are turned into a
//! [`Config`]; the library below trusts its inputs. Messages name the flag and the fix.

use clap::{Args, Parser, Subcommand};
use palace::engine::EngineOptions;
use palace::error::{Error, Result};
use palace::kernel::KernelChoice;
use palace::labels::Region;
use palace::model::geometry::{Board, MAX_SIDE, Window};
use palace::output::dzi::TileOptions;
use palace::output::npy::Values;
use palace::output::palette::Scheme;
use palace::output::png::{Aggregate, PngOptions};
use std::path::PathBuf;

/// Declares the command line's copy of a library enum: the same variants, whose doc comments
/// are their help text, and the conversion into the library's type. The library's enums then
/// need no clap derive.
macro_rules! cli_enum {
    ($(#[$m:meta])* $name:ident => $lib:ident { $($(#[$vm:meta])* $v:ident),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
        pub enum $name {
            $($(#[$vm])* $v),+
        }

        impl From<$name> for $lib {
            fn from(a: $name) -> $lib {
                match a {
                    $($name::$v => $lib::$v),+
                }
            }
        }
    };
}

cli_enum! {
    /// `--kernel`: which tile kernel the engine uses outside the hood.
    KernelArg => KernelChoice {
        /// The fastest kernel for this CPU: AVX-512, else AVX2, else portable; AVX2 on AMD Zen 4,
        /// where it measured faster; never above the `PALACE_ISA` environment variable's cap.
        Auto,
        /// The exact 64-bit scalar kernel everywhere (slow; the reference).
        Wide,
        /// 8-bit lanes in plain Rust, for any CPU.
        Portable,
        /// 8-bit lanes with AVX2 (32 rows at once).
        Avx2,
        /// 8-bit lanes with AVX-512 BW and VBMI (64 rows at once).
        Avx512,
        /// The CA rule in band lanes with register blocking, plain Rust, for any CPU.
        BandPortable,
        /// The CA rule in band lanes with AVX2 (3 columns per register block).
        BandAvx2,
        /// The CA rule in band lanes with AVX-512VL (6 columns per register block).
        BandAvx512,
    }
}

cli_enum! {
    /// `--aggregate`: how `--scale S` combines an `S x S` block into one pixel.
    AggregateArg => Aggregate {
        /// The block's mean colour (its cells' colours averaged): the picture as it looks from
        /// afar, dense regions at their true shade (épaulettes dim olive, weft a blue tint).
        Mean,
        /// The lowest palette index in the block: any hood cell, else the most palace-like cell.
        /// One-cell palace threads stay visible; dense regions look solid yellow.
        Min,
        /// The highest palette index in the block: shows the hottest (highest palace number) cell.
        Max,
    }
}

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

cli_enum! {
    /// `--values`: which numbers `dump` writes.
    ValuesArg => Values {
        /// CA values v = N - k (negative exactly at palaces).
        Ca,
        /// Palace numbers N: how many palaces the queen sees west, north and north-west.
        Palace,
    }
}

/// Largest picture `render` draws, in pixels a side after `--scale` and `--zoom` (a PNG row
/// and its buffers are held in memory).
pub const MAX_PICTURE_SIDE: u64 = 1 << 20;
/// Largest picture `render` draws, in pixels (a 4-bit PNG of 2^36 pixels is over 30 GB).
pub const MAX_PICTURE_PIXELS: u64 = 1 << 36;
/// Largest `--zoom`.
pub const MAX_ZOOM: u32 = 256;
/// Largest `.npy` file `dump` writes, in cells (256 GiB of int32).
pub const MAX_DUMP_CELLS: u64 = 1 << 36;
/// Largest `--wythoff-size` of `check` (its board is swept and every cell compared).
pub const MAX_WYTHOFF_SIDE: u32 = 20_000;
/// Largest board side `bench` times (the baseline takes about 2.5 s at 30000).
pub const MAX_BENCH_SIDE: u32 = 100_000;
/// Most worker threads.
pub const MAX_THREADS: usize = 1024;

/// Parses `--k` and `--k2`: a whole number, at least 1 (0 is left to the board's own check,
/// which explains it), at most [`MAX_K`](palace::model::rule::MAX_K).
pub(crate) fn parse_k(s: &str) -> std::result::Result<u32, String> {
    let max = palace::model::rule::MAX_K;
    match s.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err(format!("k is at least 1 (k = 1 is classical Wythoff Nim); use 1..={max}")),
        Ok(n) if n > i128::from(max) => {
            Err(format!("palace numbers reach 3k and must fit int32; use k <= {max}"))
        }
        Ok(n) => Ok(n as u32),
        Err(_) => Err(format!("not a whole number; k is a whole number from 1 to {max}")),
    }
}

/// Parses a board side (`--size`, `--width`, `--height`): a whole number, at most
/// [`MAX_SIDE`] (0 is left to the board's own check).
pub(crate) fn parse_side(s: &str) -> std::result::Result<u32, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err(format!("a board side is at least 1; use 1..={MAX_SIDE}")),
        Ok(n) if n > i128::from(MAX_SIDE) => {
            Err(format!("a board side is at most {MAX_SIDE} (2^30); use 1..={MAX_SIDE}"))
        }
        Ok(n) => Ok(n as u32),
        Err(_) => Err(format!("not a whole number; a board side is a whole number from 1 to {MAX_SIDE}")),
    }
}

/// Computes, draws and measures the blocking-queen cellular automaton.
///
/// k-Blocking Wythoff Nim is a queen game where the player who just moved may block k-1 of the
/// opponent's next moves. Its palace numbers N (how many winning positions the queen sees
/// looking west, north and north-west) follow one k-independent fourth-order cellular
/// automaton (Cook, Larsson and Neary, AUTOMATA 2015). Coordinates: x is the column, y the row,
/// (0, 0) is the top-left corner; windows are half-open x0,y0,x1,y1.
#[derive(Debug, Parser)]
#[command(name = "palace", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Draw the palace numbers as an 8-bit indexed PNG with the paper's palette.
    ///
    /// Colours: hood dark brown; outside it by v = N - k: v <= -4 dark olive, -3 olive,
    /// -2 light olive, -1 yellow (these are palaces), 0 black, 1 blue, 2 indigo, >= 3 violet.
    /// At full resolution the PNG is streamed row by row; memory grows with the width only.
    Render(RenderArgs),
    /// Write a Deep Zoom tile pyramid and a viewer page, to look at a giant board in a browser.
    ///
    /// The deepest level has one pixel per cell in the paper's palette; each level above
    /// reduces the one below 2x as `render --scale` does (--aggregate). DIR/index.html opens
    /// the pyramid with OpenSeadragon straight from the file system. One streamed sweep;
    /// memory grows with the width only.
    Tiles(TilesArgs),
    /// Export a window as a NumPy .npy array: little-endian int32, shape (rows, columns).
    Dump(DumpArgs),
    /// Count cells and palaces, histogram v outside the hood, and find the extreme values.
    Stats(StatsArgs),
    /// Name the GPU adapter that `--backend gpu` uses (a build with `--features gpu`).
    GpuInfo(GpuInfoArgs),
    /// List the P-positions of the first rows as CSV and check that each row holds exactly k.
    ///
    /// Sorted by y then x; every row, column and diagonal holds at most k P-positions, and the
    /// report says whether each row holds exactly k (Larsson's exact k-cover).
    Positions(crate::app::positions::PositionsArgs),
    /// One cell's palace number N, its value v = N - k and whether it is a P-position.
    Cell(crate::app::positions::CellArgs),
    /// Cross-check the engine against an exact solver of the game itself on small boards.
    ///
    /// Exits 1 if any cell disagrees.
    Check(CheckArgs),
    /// Compare two games cell by cell (the paper's Fig. 4).
    ///
    /// Cell (x, y) of game K matches when N_K2(x + dx, y + dy) = N_K(x, y) + d. Prints the match
    /// fraction overall and per region of game K, and draws game K with non-matching cells
    /// white. The paper's cases: --k 497 --k2 500 --shift 1,1 --offset 3 and --k 499 --k2 500
    /// --shift 1,0 --offset 1.
    Compare(CompareArgs),
    /// Label every cell with its region (hood, outer space, épaulettes, fabric, arms, rifts,
    /// fray, warps, inner sector).
    ///
    /// Hood: closed form. Outer space: quiet v = 0 columns/rows beyond the shoulders.
    /// Épaulettes: the (5,1)/(4,3)-periodic pattern. Rifts: the bands between épaulette and
    /// fabric that keep the period (81,31). Fabric: reproduced by game k+3 shifted (1,1).
    /// Arms: reproduced by game k+1 shifted (1,0) or (0,1). The rest: the fray (12 cells past
    /// the fabric), the inner sector (at most 4 palaces in the 64 x 64 square ending at the
    /// cell), the warps. The tests are decided on 8 x 8 blocks and refined to the cell where a
    /// block is mixed. Prints per-region counts, palace densities and histograms, the
    /// junctions it can locate and the upper rift's width along its length; draws the region
    /// map.
    Regions(RegionsArgs),
    /// The three fabrics (paper Fig. 7): the nose of one k of each class mod 3, side by side.
    ///
    /// Also measures each fabric (cells that game k+3 reproduces shifted by (1,1), on 8 x 8
    /// blocks) and checks that it is a prefix of one infinite fabric: how much of it games
    /// k+6 and k+30, aligned at their noses, reproduce as well.
    Fabric(FabricArgs),
    /// Follow the upper arm's skin from the shoulder (k, 0) out to column X (paper §3.4).
    ///
    /// Measures per column the skin's top row and vertical and diagonal thickness, per row its
    /// horizontal thickness, and from these the skin's levels n (vertical thickness f(2n), or
    /// f(2n)+1 where a line is emitted), where each level begins, its periods, slope and the
    /// step pattern of its outer boundary. Computes only the rows the skin needs.
    Skin(SkinArgs),
    /// Time the baseline (the paper's three-counter programme) against the fast engine.
    ///
    /// Both compute every cell of the board with statistics and a digest; their outputs must
    /// agree. Prints cells per second, the speed-up on one thread, the thread scaling and the
    /// peak memory of each run.
    Bench(BenchArgs),
    /// Solve the games lab's games exactly: Fibonacci nim, the Zeckendorf games, subtraction
    /// games, Fraenkel's array and numeration system U, and Frankenstein.
    ///
    /// Each game is solved by exhaustive search over its rules; `--check` runs every checkable
    /// statement of the texts they come from against the result (docs/games-claims.md). Every
    /// game takes the common flags: --threads sets the worker threads of its parallel parts,
    /// -q/--quiet hides the progress bar and the summaries on stderr, and --kernel is accepted
    /// but has no effect (the games have no tile kernel). The first Ctrl-C, SIGTERM or SIGHUP
    /// stops a run (exit 130, 143, 129) and leaves no output file.
    Game(GameArgs),
    /// Find, follow and measure the threads of the upper warp (paper §3.2, §4 questions 5-7).
    ///
    /// Traces the palaces above the diagonal labelled fray, warp or inner sector (the rest, as
    /// `regions` labels it) row by row: cells on the same or the next row at most 4 columns
    /// apart belong to one thread. Reports the threads' thicknesses (palaces per row, the
    /// left warp's vertical thickness by symmetry) and how many are Fibonacci numbers, whether
    /// thicknesses add where threads merge, which threads running to the edge are periodic,
    /// and the innermost threads' slopes with their continued fractions and nearest quadratic
    /// irrationals. Draws the threads over the picture.
    Threads(ThreadsArgs),
    /// Find, follow and measure the beams of the inner sector (paper §3.1, §4 question 5).
    ///
    /// Keeps the lone palaces of the inner sector (rest palaces with no other within 4 cells on
    /// their row or column, and at most 4 crowded palaces in the 64 x 64 square centred on
    /// them) and strings them into beams, above and below the diagonal: a track follows
    /// the least-squares line through its last cells, taking the nearest palace within
    /// --tolerance columns, and may skip --gap rows; pieces in line are joined. Reports each
    /// beam's palaces per row, its slope over the whole beam and over stretches, the period and
    /// balance (Sturmian or not) of its column sequence, the continued fraction and nearest
    /// quadratic irrational of its slope, and which lower beam is each upper one's mirror image.
    /// Draws the beams over the picture.
    Beams(BeamsArgs),
    /// Survey a range of k on boards of the same relative size, (F k) x (F k): one CSV row per k.
    ///
    /// Columns (docs/survey.md): k,min_v,max_v,max_x,max_y,states (v outside the hood;
    /// (max_x, max_y) the first cell in row-major order holding max_v; states = distinct v),
    /// size (the board's side), max_cells, max_clusters, max_spread (the cells holding max_v), hot_region and
    /// armpit_dist (region labels around the hottest cell), prism (along the diagonal), and
    /// skin2_onset, skin3_onset (where the skin's levels 2 and 3 begin, past the shoulder,
    /// followed beyond the board) with skin_span. All cores busy, one k per core.
    Survey(SurveyArgs),
    /// Measure the grid of the fabric's black cells (paper §3.2) by exact autocorrelation.
    ///
    /// Square windows of the upper fabric (cells that `regions` labels fabric, above the
    /// diagonal), their lower-left corner on the diagonal at (nose + d, nose + d), at several
    /// distances d from the nose. In each, the autocorrelation of the black cells (v = 0) and
    /// of the palaces (v < 0) over every shift up to --reach, counted exactly on bitsets; its
    /// strongest peaks; the lattice of the two strongest non-parallel ones (at least 8 cells
    /// long, 20 degrees apart): the grid cell's vectors, area, size and angles.
    Grid(GridArgs),
    /// Follow the fabric's meta-gliders (paper §3.2): patches of one texture moving through the
    /// large grid.
    ///
    /// The upper fabric (cells that `regions` labels fabric, above the diagonal) in map cells of
    /// 16 x 16; each gets the texture of the --side x --side window around it, from the black
    /// cells' autocorrelation (v = 0, exact counts on bitsets as `grid` counts them) at the small
    /// grid's vectors (13, 9), (9, 13) and at the large grid's two families of threads, shallow
    /// (31, 13) and steep (13, 31): small grid, large grid, steep only, shallow only or neither.
    /// The patches of each texture (8-connected) born past the small grid's zone are followed
    /// through the CA's time t = x + y (anti-diagonals): life, trajectory u = x - y against t,
    /// velocity du/dt, width; judged glider (steady width, centre on a line), static, irregular
    /// or short-lived. Draws the map of textures.
    Gliders(GlidersArgs),
}

/// `palace game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// Which game.
    #[command(subcommand)]
    pub game: GameCommand,
}

/// The games.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Fibonacci nim: one pile, the first move takes 1..n-1 coins, every later move at most
    /// twice the previous one; taking the last coin wins.
    ///
    /// Prints, for n = 1..N, who wins from the start and every winning first move; with
    /// --grundy, the Grundy values G(n, q) (q = the current quota) for n, q <= N.
    FibonacciNim(FibonacciNimArgs),
    /// The Zeckendorf game and its black-hole variants (last player to move wins).
    ///
    /// Without --hole: the original game from n pieces in F_1 (columns 1, 2, 3, 5, 8, ...;
    /// moves merge, add, split). With --hole M: the empty-board game with a black hole on F_M
    /// (players alternately place one piece in F_1 or F_{M-1}, then play the moves; a piece
    /// landing on F_M or beyond is removed). Prints the winner for every n = 1..N.
    Zeckendorf(ZeckendorfArgs),
    /// A subtraction game: a move takes s tokens for some s in the set S (Larsson and Fox's
    /// S = {F(2n+1) - 1} = {1, 4, 12, 33, 88, ...} unless --set names another).
    ///
    /// Computes the Grundy values g(0..N) by the plain mex recursion and prints the largest
    /// value, how many piles have each value and any period of the last half; --check runs the
    /// paper's statements (Lemma 1, Theorem 2 and the steps of their proofs).
    Subtraction(SubtractionArgs),
    /// Fraenkel's array A: A_0^n = mex of the earlier rows, A_1^n = 2 A_0^n + n,
    /// A_j^n = 3 A_{j-1}^n - A_{j-2}^n (Fraenkel, Arrays, Numeration Systems and Frankenstein
    /// Games).
    ///
    /// Prints rows 0..N-1; with --check, builds every entry up to X and checks Theorem I,
    /// Theorem 1, Theorem 2 (i)-(iv), Lemmas 1-3 and Tables 1 and 2 of the text.
    FraenkelArray(FraenkelArrayArgs),
    /// The representation of each number over Fraenkel's ternary system U (basis 1, 3, 8, 21,
    /// 55, ...; digits 0, 1, 2 with a 0 between any two 2s), most significant digit first.
    FraenkelU(FraenkelUArgs),
    /// Frankenstein: coins on a strip with a hole at 0; type I and type II moves (Fraenkel).
    ///
    /// Solves every position on squares 1..N exhaustively and checks Theorem 3 (the P-positions
    /// are the empty strip and the row prefixes of Fraenkel's array): (A) no move between two
    /// claimed positions with squares up to --bound, (B) a move into one from every other
    /// position on the strip.
    Frankenstein(FrankensteinArgs),
}

/// `palace game fibonacci-nim`.
#[derive(Debug, Args)]
pub struct FibonacciNimArgs {
    /// Solve every pile 1..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The Grundy values G(n, q) for n, q <= N instead of the outcomes.
    #[arg(long, conflicts_with = "check")]
    pub grundy: bool,
    /// Write the Grundy table: a heatmap (.png), a uint16 array (.npy) or a table (.csv), by
    /// the file's extension.
    #[arg(long, short, value_name = "FILE.png|FILE.npy|FILE.csv", requires = "grundy")]
    pub output: Option<PathBuf>,
    /// Run every checkable statement of the Fibonacci nim notes over n = 1..N.
    #[arg(long)]
    pub check: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// `palace game zeckendorf`.
#[derive(Debug, Args)]
pub struct ZeckendorfArgs {
    /// Solve every n = 1..=N.
    #[arg(long, value_name = "N", required_unless_present = "positions")]
    pub to: Option<u64>,
    /// A black hole on F_M (M >= 2): the empty-board black-hole game.
    #[arg(long, value_name = "M")]
    pub hole: Option<u64>,
    /// P or N for every position of the F_M board of value <= V, instead of the empty-board
    /// game: as CSV on stdout, or to -o as CSV or as a picture (for M = 4: a against c, one
    /// panel per b).
    #[arg(long, requires_all = ["hole", "max_value"], conflicts_with_all = ["to", "check"])]
    pub positions: bool,
    /// The largest position value of --positions.
    #[arg(long, value_name = "V", requires = "positions")]
    pub max_value: Option<u64>,
    /// The file --positions writes: .csv (every position) or .png (the picture).
    #[arg(long, short, value_name = "FILE.csv|FILE.png", requires = "positions")]
    pub output: Option<PathBuf>,
    /// Without --hole: also classify every position of value n (counts of P-positions).
    #[arg(long, conflicts_with = "hole")]
    pub census: bool,
    /// Run every checkable statement of the black-hole paper for this board over n = 1..N.
    #[arg(long)]
    pub check: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--to` of `game fibonacci-nim` (listing the winning first moves takes about
/// N^2 / 6 steps).
pub const MAX_NIM_TO: u64 = 1_000_000;
/// Largest `--to` of `game fibonacci-nim --grundy` (the table takes N^2 bytes).
pub const MAX_GRUNDY_TO: u64 = 30_000;
/// Most memory a Zeckendorf solver's memo may take, in bytes (two bits per position).
pub const MAX_MEMO_BYTES: u64 = 16 << 30;

/// `palace compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// The second game.
    #[arg(long, value_name = "K2", value_parser = parse_k, allow_negative_numbers = true)]
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
    /// Run the reference implementation (one consumer thread), for testing.
    #[arg(long, hide = true)]
    pub reference: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
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

/// `palace bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game.
    #[arg(long, value_name = "K", default_value_t = 9999, value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// Board side.
    #[arg(long, value_name = "N", default_value_t = 30000)]
    pub size: u32,
    /// Most worker threads to time (the engine is also timed on 1 thread); default: all cores.
    #[arg(long, value_name = "T", default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// The fast engine's kernel.
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// Time every run this many times and report the fastest (and the median).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeat: usize,
    /// Skip the PNG part (the sweep alone against a full-resolution render).
    #[arg(long)]
    pub no_png: bool,
    /// Where the PNG part writes its picture (deleted afterwards); default: the system's
    /// temporary directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_png")]
    pub png_dir: Option<PathBuf>,
    /// Also time `regions` and `compare` on the whole board (most threads) against the
    /// statistics of the same board, and `fabric` (windows of at most 8192) against the
    /// statistics of the boards its three sweeps cover.
    #[arg(long)]
    pub analyses: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// No progress messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which game and which part of its board.
#[derive(Debug, Args, Clone)]
pub struct BoardArgs {
    /// The blocking number k (k = 1 is classical Wythoff Nim).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// A square board N x N (N at most 1073741824 = 2^30).
    #[arg(long, value_name = "N", conflicts_with_all = ["width", "height"], required_unless_present_any = ["width", "height"], value_parser = parse_side, allow_negative_numbers = true)]
    pub size: Option<u32>,
    /// Board width (columns, at most 2^30); needs --height.
    #[arg(long, value_name = "W", requires = "height", value_parser = parse_side, allow_negative_numbers = true)]
    pub width: Option<u32>,
    /// Board height (rows, at most 2^30); needs --width.
    #[arg(long, value_name = "H", requires = "width", value_parser = parse_side, allow_negative_numbers = true)]
    pub height: Option<u32>,
    /// Only this half-open window x0,y0,x1,y1 of the board (default: all of it).
    #[arg(long, value_name = "x0,y0,x1,y1")]
    pub window: Option<Window>,
}

/// How to run the engine.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T", default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// The tile kernel outside the hood.
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// No progress bar and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Tile width in columns (tuning; default chosen from the width and threads).
    #[arg(long, value_name = "W", hide = true)]
    pub tile_width: Option<u32>,
    /// Band height in rows (tuning; default 128).
    #[arg(long, value_name = "H", hide = true)]
    pub band_height: Option<u32>,
}

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

/// A checkpoint file and the time between saves.
pub type SaveEvery = (PathBuf, std::time::Duration);

/// Checkpoints of long runs (`stats`, `skin`).
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// Save the run's progress to FILE every --every minutes and when interrupted (SIGINT,
    /// SIGTERM, SIGHUP), atomically; removed when the run finishes. FILE must be new, or the
    /// file given to --resume.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Minutes between checkpoints (0: after every band of rows).
    #[arg(long, value_name = "MIN", default_value_t = 10.0, requires = "checkpoint")]
    pub every: f64,
    /// Continue the run saved in FILE (the same command and arguments).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

impl CheckpointArgs {
    /// The checkpoint file with the time between saves, and the checkpoint to resume from.
    fn resolve(self) -> Result<(Option<SaveEvery>, Option<PathBuf>)> {
        if !(self.every.is_finite() && (0.0..=1e6).contains(&self.every)) {
            return Err(Error::Usage(format!(
                "--every {} is not a number of minutes from 0 to 1000000; give e.g. --every 10",
                self.every
            )));
        }
        if let Some(path) = &self.checkpoint {
            // Found out now, not when the first checkpoint is due or when the run ends.
            check_checkpoint_path(path, self.resume.as_deref())?;
            let dir =
                path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            check_writable_dir(dir, "--checkpoint")?;
        }
        let every = std::time::Duration::from_secs_f64(self.every * 60.0);
        Ok((self.checkpoint.map(|p| (p, every)), self.resume))
    }
}

/// Refuses a `--checkpoint` path the run could not own: the run replaces the file at that path
/// with each checkpoint and removes it when it finishes, so the path must be new, or the file
/// the run resumes from (`--resume` naming the same file). Anything else there (a file that is
/// not a checkpoint, a checkpoint not being resumed, a link, a folder, a FIFO, a device) would
/// be lost or would block the run, and is refused before any computing.
fn check_checkpoint_path(path: &std::path::Path, resume: Option<&std::path::Path>) -> Result<()> {
    let shown = path.display();
    let usage = |why: String| Error::Usage(format!("--checkpoint {shown}: {why}"));
    if path.as_os_str().is_empty() {
        return Err(Error::Usage("--checkpoint is empty; give a file name such as run.ckpt".into()));
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") || path.file_name().is_none() {
        return Err(usage("names a folder; give a new file name such as run.ckpt".into()));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        // Nothing there yet (or nothing we may look at: the writability check says so).
        Err(_) => return Ok(()),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(usage(
            "is a symbolic link; the run replaces and then removes the file at this path, so give the checkpoint's own path or a new file name".into(),
        ));
    }
    if kind.is_dir() {
        return Err(usage(
            "is a folder; give a new file name such as run.ckpt (inside it, if you like)".into(),
        ));
    }
    if !kind.is_file() {
        return Err(usage(
            "is not a regular file (a FIFO, a device or a socket); give a new file name such as run.ckpt"
                .into(),
        ));
    }
    if resume.is_some_and(|r| palace::engine::checkpoint::same_file(r, path)) {
        // The run continues this checkpoint, replaces it as it goes and removes it at the end.
        return Ok(());
    }
    if palace::engine::checkpoint::looks_like_checkpoint(path) {
        return Err(usage(format!(
            "holds a checkpoint, which this run would overwrite; continue it with --resume {shown} --checkpoint {shown}, or delete it (or give a new file name) to start again"
        )));
    }
    Err(usage(
        "exists and is not a palace checkpoint; the run would replace it and remove it when it finishes, so give a new file name such as run.ckpt".into(),
    ))
}

/// `palace stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub board: BoardArgs,
    /// Count only the palaces of the whole board, with the three-counter kernels (several
    /// times faster; no histogram, no extremes, no --window).
    #[arg(long)]
    pub palaces_only: bool,
    /// Compute the cells with the CA rule's kernels (the paper's k-independent automaton)
    /// instead of the three-counter form. Without it, a window from the corner (the whole
    /// board by default) is swept in the three-counter form, its values tallied by the kernels
    /// as they go (faster); any other window always uses the CA. Both give the same numbers.
    #[arg(long, conflicts_with = "palaces_only")]
    pub ca: bool,
    /// Where the cells are computed: `cpu`, or `gpu` (compute shaders on a Vulkan, Metal or
    /// DirectX 12 adapter; a build with `--features gpu`; `palace gpu-info` names the adapter).
    /// Both give the same numbers. The GPU computes the three-counter form and keeps no
    /// checkpoints; --threads and --kernel do not affect it.
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
    pub backend: BackendArg,
    /// GPU tile shape LANESxROWSxWIDTH (tuning).
    #[arg(long, value_name = "LxRxW", hide = true)]
    pub gpu_shape: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub checkpoint: CheckpointArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// `--backend`: where the cells are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// The CPU engine.
    Cpu,
    /// Compute shaders on a GPU.
    Gpu,
}

/// Where a command computes its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The CPU engine.
    Cpu,
    /// A GPU, with tiles of `(lanes, rows per lane, width)` (`None`: the backend's default).
    Gpu(Option<(u32, u32, u32)>),
}

impl Backend {
    /// `--backend` and `--gpu-shape`, checked against this build.
    fn resolve(backend: BackendArg, shape: Option<&str>) -> Result<Backend> {
        if backend == BackendArg::Cpu {
            if shape.is_some() {
                return Err(Error::Usage(
                    "--gpu-shape tunes --backend gpu; add --backend gpu or drop it".into(),
                ));
            }
            return Ok(Backend::Cpu);
        }
        if !cfg!(feature = "gpu") {
            return Err(Error::Usage(
                "--backend gpu: this palace was built without the GPU backend; build it with `cargo build --release --features gpu`".into(),
            ));
        }
        let Some(shape) = shape else { return Ok(Backend::Gpu(None)) };
        let parts: Vec<Option<u32>> = shape.split('x').map(|p| p.parse().ok()).collect();
        match parts[..] {
            [Some(l), Some(r), Some(w)]
                if (1..=64).contains(&l) && (1..=32).contains(&r) && (1..=512).contains(&w) =>
            {
                Ok(Backend::Gpu(Some((l, r, w))))
            }
            _ => Err(Error::Usage(format!(
                "--gpu-shape {shape}: give LANESxROWSxWIDTH with lanes 1..=64, rows 1..=32 and width 1..=512, e.g. 64x4x256"
            ))),
        }
    }
}

/// `palace gpu-info`.
#[derive(Debug, Args)]
pub struct GpuInfoArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

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

/// A validated request.
#[derive(Debug, Clone)]
pub enum Config {
    /// Draw a picture.
    Render {
        /// Game and board.
        board: Board,
        /// Window drawn.
        window: Window,
        /// Scale and aggregation.
        png: PngOptions,
        /// Output path.
        output: PathBuf,
        /// Engine settings.
        run: RunConfig,
    },
    /// Write a tile pyramid.
    Tiles {
        /// Game and board.
        board: Board,
        /// Window drawn.
        window: Window,
        /// Tile size, aggregation, encoder threads.
        tiles: TileOptions,
        /// Output folder.
        output: PathBuf,
        /// Engine settings.
        run: RunConfig,
    },
    /// Export numbers.
    Dump {
        /// Game and board.
        board: Board,
        /// Window exported.
        window: Window,
        /// Which numbers.
        values: Values,
        /// Output path.
        output: PathBuf,
        /// Engine settings.
        run: RunConfig,
    },
    /// Statistics.
    Stats {
        /// Game and board.
        board: Board,
        /// Window counted.
        window: Window,
        /// Palaces only, by a counter sweep.
        palaces_only: bool,
        /// The statistics by a counter sweep (the window starts at the corner).
        by_counters: bool,
        /// Where the cells are computed (read only by a build with the GPU backend).
        #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
        backend: Backend,
        /// Checkpoints: the file, and the time between them.
        checkpoint: Option<SaveEvery>,
        /// The checkpoint to continue from.
        resume: Option<PathBuf>,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
    },
    /// Name the GPU adapter.
    GpuInfo {
        /// JSON output.
        json: bool,
    },
    /// List P-positions.
    Positions(crate::app::positions::Positions),
    /// One cell.
    Cell(crate::app::positions::Cell),
    /// Compare two games.
    Compare {
        /// The reference implementation.
        reference: bool,
        /// Window of the first game.
        window: Window,
        /// What to compare.
        comparison: palace::analysis::compare::Comparison,
        /// Picture.
        output: Option<PathBuf>,
        /// Picture scale.
        scale: u32,
        /// JSON output.
        json: bool,
        /// Search the shifts within this radius of the comparison's shift instead.
        search_shift: Option<u32>,
        /// The search's centre: `--shift` as given, which may be negative.
        centre: (i64, i64),
        /// The regions of game A whose cells the search scores (all cells when `None`).
        search_region: Option<Vec<Region>>,
        /// Each region's best shift within this radius of the comparison's shift instead.
        region_search: Option<u32>,
        /// Engine settings.
        run: RunConfig,
        /// The legend strip below the picture.
        legend: bool,
    },
    /// Region map.
    Regions {
        /// The reference implementation.
        reference: bool,
        /// Game and board.
        board: Board,
        /// Window.
        window: Window,
        /// Picture.
        output: Option<PathBuf>,
        /// Picture scale.
        scale: u32,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
        /// The legend and junction rings on the map.
        legend: bool,
    },
    /// The three fabrics.
    Fabric {
        /// The reference implementation.
        reference: bool,
        /// First game.
        k: u32,
        /// Panel side.
        size: u32,
        /// Picture.
        output: Option<PathBuf>,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
    },
    /// Skin analysis.
    Skin {
        /// The game.
        k: u32,
        /// Last column (exclusive).
        to: u64,
        /// CSV output.
        csv: Option<PathBuf>,
        /// Plot output.
        plot: Option<PathBuf>,
        /// JSON output.
        json: bool,
        /// Through the CA's row sweep.
        rows: bool,
        /// Record and measure the skin's pattern of k-2 and k-1.
        pattern: bool,
        /// Where to save the run's progress, and how often.
        checkpoint: Option<SaveEvery>,
        /// The checkpoint to continue from.
        resume: Option<PathBuf>,
        /// Engine settings.
        run: RunConfig,
    },
    /// Benchmark.
    Bench {
        /// The game.
        k: u32,
        /// Board side.
        size: u32,
        /// Thread counts to time.
        threads: Vec<usize>,
        /// Kernel.
        kernel: KernelChoice,
        /// Repetitions per run.
        repeat: usize,
        /// Where the PNG part writes its picture; `None`: no PNG part.
        png_dir: Option<PathBuf>,
        /// Also time `regions`, `compare` and `fabric`.
        analyses: bool,
        /// JSON output.
        json: bool,
        /// No progress messages.
        quiet: bool,
    },
    /// Fibonacci nim.
    FibonacciNim {
        /// Largest pile.
        to: u64,
        /// The Grundy table instead of the outcomes.
        grundy: bool,
        /// Where the Grundy table goes.
        output: Option<PathBuf>,
        /// Check the notes' claims.
        check: bool,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// The Zeckendorf game (no hole) or the empty-board black-hole game on F_hole.
    Zeckendorf {
        /// Largest n.
        to: u64,
        /// The black hole's column.
        hole: Option<usize>,
        /// Classify every position of the original game.
        census: bool,
        /// Check the paper's claims.
        check: bool,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// The positions of the F_hole board.
    ZeckendorfPositions {
        /// The black hole's column.
        hole: usize,
        /// Largest value.
        max_value: u64,
        /// Where the table or picture goes.
        output: Option<PathBuf>,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// Threads of the upper warp.
    Threads {
        /// Game and board.
        board: Board,
        /// Window traced.
        window: Window,
        /// Per-thread CSV.
        csv: Option<PathBuf>,
        /// Picture.
        output: Option<PathBuf>,
        /// Picture scale.
        scale: u32,
        /// Adjacency reach.
        reach: u32,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
        /// The legend strip below the picture.
        legend: bool,
    },
    /// Beams of the inner sector.
    Beams {
        /// Game and board.
        board: Board,
        /// Window traced.
        window: Window,
        /// The tracker's settings.
        params: palace::analysis::beams::Params,
        /// The beams' cells as CSV.
        csv: Option<PathBuf>,
        /// Picture.
        output: Option<PathBuf>,
        /// Picture scale.
        scale: u32,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
        /// The legend strip below the picture.
        legend: bool,
    },
    /// Cross-check.
    Check {
        /// Largest k.
        max_k: u32,
        /// Largest board side.
        max_size: u32,
        /// Side of the Wythoff comparison.
        wythoff_size: u32,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
    },
    /// A subtraction game.
    Subtraction {
        /// Largest pile.
        to: u64,
        /// The sets (one row of the survey each).
        sets: Vec<palace::games::subtraction::SubtractionSet>,
        /// Where the values go (.npy or .png).
        output: Option<PathBuf>,
        /// Piles a row of the picture.
        row_length: usize,
        /// Largest period searched.
        period_bound: u64,
        /// Check the paper's claims.
        check: bool,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// Rows of Fraenkel's array.
    FraenkelArray {
        /// Rows 0..rows.
        rows: usize,
        /// Columns 0..columns.
        columns: usize,
        /// JSON output.
        json: bool,
        /// CSV output.
        csv: bool,
        /// The picture.
        plot: Option<PathBuf>,
        /// With `plot`: print the table as well.
        table: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// The checks of Fraenkel's array and system U to a bound.
    FraenkelCheck {
        /// Every entry up to this.
        to: u64,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// Representations over U.
    FraenkelU {
        /// The numbers.
        numbers: Vec<u64>,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// Frankenstein.
    Frankenstein {
        /// Squares 1..squares.
        squares: u32,
        /// The reading of type II; `None` (with `check`): both.
        type2: palace::games::frankenstein::TypeTwo,
        /// Theorem 3 (A) over claimed positions with squares up to this.
        bound: u32,
        /// The text's claims, both readings.
        check: bool,
        /// With `check`: also every position of square sum up to this.
        max_sum: u32,
        /// JSON output.
        json: bool,
        /// Threads and reporting (`--kernel` has no effect on the games).
        run: RunConfig,
    },
    /// The survey across k.
    Survey {
        /// The range, step, board factor.
        survey: palace::analysis::survey::SurveyOptions,
        /// CSV output (`None`: the CSV goes to stdout).
        output: Option<PathBuf>,
        /// Plot output.
        plot: Option<PathBuf>,
        /// JSON summary.
        json: bool,
        /// Engine settings (`threads`: how many k at once).
        run: RunConfig,
    },
    /// The fabric's meta-gliders.
    Gliders {
        /// Game and board.
        board: Board,
        /// Window measured.
        window: Window,
        /// The classifier's and the tracker's settings.
        params: palace::analysis::gliders::Params,
        /// The trajectories as CSV.
        csv: Option<PathBuf>,
        /// Picture.
        output: Option<PathBuf>,
        /// Picture scale.
        scale: u32,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
        /// The legend strip below the picture.
        legend: bool,
    },
    /// The fabric's grid.
    Grid {
        /// The game.
        k: u32,
        /// The largest window side.
        side: u32,
        /// The largest shift.
        reach: u32,
        /// Distances from the nose.
        at: Vec<u32>,
        /// Picture.
        output: Option<PathBuf>,
        /// JSON output.
        json: bool,
        /// Engine settings.
        run: RunConfig,
    },
}

impl Config {
    /// The engine settings of every command that runs the engine; `None` for `bench`, which
    /// builds its own.
    pub fn run_mut(&mut self) -> Option<&mut RunConfig> {
        match self {
            Config::Render { run, .. }
            | Config::Tiles { run, .. }
            | Config::Dump { run, .. }
            | Config::Stats { run, .. }
            | Config::Compare { run, .. }
            | Config::Regions { run, .. }
            | Config::Fabric { run, .. }
            | Config::Skin { run, .. }
            | Config::Threads { run, .. }
            | Config::Beams { run, .. }
            | Config::Check { run, .. }
            | Config::Survey { run, .. }
            | Config::Grid { run, .. }
            | Config::Gliders { run, .. }
            | Config::FibonacciNim { run, .. }
            | Config::Zeckendorf { run, .. }
            | Config::ZeckendorfPositions { run, .. }
            | Config::Subtraction { run, .. }
            | Config::FraenkelArray { run, .. }
            | Config::FraenkelCheck { run, .. }
            | Config::FraenkelU { run, .. }
            | Config::Frankenstein { run, .. } => Some(run),
            Config::Positions(p) => Some(&mut p.run),
            Config::Cell(c) => Some(&mut c.run),
            Config::Bench { .. } | Config::GpuInfo { .. } => None,
        }
    }
}

/// What a request holds in memory, with the words that name it and the fix, for the check
/// against the machine's memory ([`crate::app::memory`]).
pub struct Need {
    /// The run's footprint.
    pub footprint: palace::analysis::footprint::Footprint,
    /// The flags that set its width, as given.
    pub what: String,
    /// How to make it smaller.
    pub fix: &'static str,
}

impl Config {
    /// The memory this request will need at most; `None` for the games (their own bounds
    /// apply) and `bench`'s fixed sizes are included.
    pub fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Footprint, Work, footprint};
        const BOARD: &str = "use a narrower board or a --window with a smaller x1 (memory grows with it, not with the height), or fewer --threads";
        let board =
            |w: &Window| format!("sweeping {} columns (the --size or --width, or the --window's x1)", w.x1);
        let t = |run: &RunConfig| run.engine.threads;
        let cols = |w: &Window| u64::from(w.x1);
        Some(match self {
            Config::Render { window, png, run, .. } => Need {
                footprint: footprint(Work::Picture { zoom: png.zoom }, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Tiles { window, tiles, run, .. } => Need {
                footprint: footprint(Work::Tiles { tile_size: tiles.tile_size }, cols(window), t(run)),
                what: board(window),
                fix: "use a narrower board or --window, a smaller --tile-size, or fewer --threads",
            },
            Config::Dump { window, run, .. } => Need {
                footprint: footprint(Work::Dump, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            // A row sweep, as `dump`'s.
            Config::Positions(p) => Need {
                footprint: footprint(Work::Dump, u64::from(p.width()), t(&p.run)),
                what: format!("{} columns", p.width()),
                fix: "use fewer --rows or a smaller --width, or fewer --threads",
            },
            Config::Cell(c) => Need {
                footprint: footprint(Work::Dump, u64::from(c.width()), t(&c.run)),
                what: format!("{} columns", c.width()),
                fix: "use fewer --threads",
            },
            Config::Stats { window, palaces_only, by_counters, run, .. } => {
                let work = if *palaces_only {
                    Work::Palaces
                } else if *by_counters {
                    Work::StatsCounters
                } else {
                    Work::StatsCa
                };
                Need { footprint: footprint(work, cols(window), t(run)), what: board(window), fix: BOARD }
            }
            Config::Compare { window, comparison, region_search, search_shift, centre, run, .. } => {
                let fp = if let Some(r) = search_shift {
                    // Both windows are swept into memory (8 bytes a cell), B's widened by the
                    // radius each way.
                    let r = u64::from(*r);
                    let (w, h) = (u64::from(window.width()), u64::from(window.height()));
                    let columns = cols(window) + centre.0.unsigned_abs() + r;
                    footprint(Work::Compare, columns, t(run))
                        .with_fixed(8 * (w * h + (w + 2 * r) * (h + 2 * r)))
                } else {
                    let (dx, _) = comparison.shift;
                    let r = u64::from(region_search.unwrap_or(0));
                    // A region search sweeps a game per shift along a row of shifts at once.
                    footprint(Work::Compare, cols(window) + u64::from(dx) + r, t(run)).times(2 * r + 1)
                };
                Need { footprint: fp, what: board(window), fix: BOARD }
            }
            Config::Regions { window, run, .. } => Need {
                footprint: footprint(Work::Regions, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Threads { window, run, .. } => Need {
                footprint: footprint(Work::Threads, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Beams { window, scale, output, run, .. } => {
                let pixels = match output {
                    Some(_) => {
                        let (w, h) = palace::output::png::picture_size(*window, *scale);
                        u64::from(w) * u64::from(h)
                    }
                    None => 0,
                };
                Need {
                    footprint: footprint(Work::Beams, cols(window), t(run)).with_fixed(pixels),
                    what: board(window),
                    fix: BOARD,
                }
            }
            Config::Gliders { window, run, .. } => Need {
                footprint: footprint(Work::Gliders, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Fabric { k, size, run, .. } => {
                // The last game's window lies furthest out; the three panels are held whole.
                let x1 = u64::from((k + 1) / 3) + u64::from(*size);
                let panels = 3 * u64::from(*size) * u64::from(*size);
                Need {
                    footprint: footprint(Work::Regions, x1, t(run)).with_fixed(panels),
                    what: format!(
                        "--k {k} --size {size}: sweeps {x1} columns wide (to the third nose and past it)"
                    ),
                    fix: "use a smaller --k or --size, or fewer --threads",
                }
            }
            Config::Skin { to, pattern, rows, run, .. } => {
                let work = if *rows { Work::SkinRows } else { Work::Skin { pattern: *pattern } };
                Need {
                    footprint: footprint(work, *to, t(run)),
                    what: format!("--to {to}"),
                    fix: "use a smaller --to, or fewer --threads",
                }
            }
            Config::Grid { k, side, at, run, .. } => {
                let x1 = u64::from((k - 1) / 3)
                    + u64::from(at.iter().copied().max().unwrap_or(0))
                    + u64::from(*side);
                let windows = at.len() as u64 * u64::from(*side) * u64::from(*side);
                Need {
                    footprint: footprint(Work::Regions, x1, t(run)).with_fixed(windows),
                    what: format!("--k {k}: sweeps {x1} columns wide (to the farthest window)"),
                    fix: "use a smaller --k, --at or --side, or fewer --threads",
                }
            }
            Config::Survey { survey, run, .. } => {
                // One board per worker at once, each on one thread: the largest k's board
                // labelled, and its skin followed past the shoulder.
                let boards =
                    palace::engine::resolve_threads(run.engine.threads).min(survey.ks().len()).max(1);
                let side = u64::from(survey.to) * u64::from(survey.factor);
                let mut one = footprint(Work::Regions, side, 1);
                if survey.skin {
                    let skin_to = u64::from(survey.to) + palace::analysis::survey::SKIN_SPANS[2];
                    one = one.plus(footprint(Work::Skin { pattern: false }, skin_to, 1));
                }
                Need {
                    footprint: one.times(boards as u64),
                    what: format!(
                        "--k ..{} --size-factor {} ({boards} boards at once)",
                        survey.to, survey.factor
                    ),
                    fix: "use a smaller B or --size-factor, or fewer --threads",
                }
            }
            Config::Check { wythoff_size, run, .. } => Need {
                footprint: footprint(Work::Picture { zoom: 1 }, u64::from(*wythoff_size), t(run)),
                what: format!("--wythoff-size {wythoff_size}"),
                fix: "use a smaller --wythoff-size, or fewer --threads",
            },
            Config::Bench { size, threads, analyses, .. } => {
                let most = threads.iter().copied().max().unwrap_or(1);
                let work = if *analyses { Work::Regions } else { Work::Picture { zoom: 1 } };
                let fp: Footprint = footprint(work, u64::from(*size), most);
                Need {
                    footprint: fp,
                    what: format!("--size {size}"),
                    fix: "use a smaller --size, or fewer --threads",
                }
            }
            _ => return None,
        })
    }
}

/// Engine and reporting settings shared by all commands.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The engine.
    pub engine: EngineOptions,
    /// Suppress progress and summaries.
    pub quiet: bool,
}

impl RunArgs {
    pub(crate) fn resolve(&self) -> Result<RunConfig> {
        if self.threads > MAX_THREADS {
            return Err(Error::Usage(format!(
                "--threads {} is more than {MAX_THREADS}; use fewer",
                self.threads
            )));
        }
        let cores = palace::engine::available_cores();
        if self.threads > cores {
            eprintln!(
                "palace: warning: --threads {} is more than the {cores} cores here; the run will be slower and use more memory than with --threads {cores}",
                self.threads
            );
        }
        let kernel = KernelChoice::from(self.kernel);
        if !kernel.available() {
            return Err(Error::Usage(format!(
                "--kernel {}: this CPU does not support it; use --kernel auto",
                kernel.name()
            )));
        }
        for (flag, v) in [("--tile-width", self.tile_width), ("--band-height", self.band_height)] {
            if v.is_some_and(|v| !(2..=1 << 20).contains(&v)) {
                return Err(Error::Usage(format!("{flag} must lie in 2..=1048576")));
            }
        }
        Ok(RunConfig {
            engine: EngineOptions {
                threads: self.threads,
                kernel,
                tile_width: self.tile_width,
                band_height: self.band_height,
                ..EngineOptions::default()
            },
            quiet: self.quiet,
        })
    }
}

impl BoardArgs {
    /// The flags that chose the cells, as the user gave them (for messages).
    fn named(&self) -> String {
        match (self.window, self.size, self.width, self.height) {
            (Some(w), ..) => format!("--window {w}"),
            (None, Some(n), ..) => format!("--size {n}"),
            (None, None, Some(w), Some(h)) => format!("--width {w} --height {h}"),
            _ => "the board".into(),
        }
    }

    /// The board and window, validated.
    pub fn resolve(&self) -> Result<(Board, Window)> {
        let (w, h) = match (self.size, self.width, self.height) {
            (Some(n), _, _) => (n, n),
            (None, Some(w), Some(h)) => (w, h),
            _ => {
                return Err(Error::Usage("give the board as --size N or as --width W --height H".into()));
            }
        };
        if w == 0 || h == 0 {
            let flag = if self.size.is_some() {
                "--size"
            } else if w == 0 {
                "--width"
            } else {
                "--height"
            };
            return Err(Error::Usage(format!(
                "{flag} 0: the board needs at least one cell; use {flag} 1 or more"
            )));
        }
        let board = Board::new(self.k, w, h)?;
        let window = self.window.unwrap_or(board.full());
        board.check_window(&window)?;
        Ok((board, window))
    }
}

/// The bounds on a rendered picture: they apply to the picture, not to the board, and the
/// message names the flag that changes it.
fn check_picture(window: Window, scale: u32, zoom: u32) -> Result<()> {
    let (w, h) = palace::output::png::picture_size(window, scale);
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

/// Checks before any work that `dir` is an existing folder this process can write in.
fn check_writable_dir(dir: &std::path::Path, flag: &str) -> Result<()> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{flag} {}: no such folder; give an existing folder",
            dir.display()
        )));
    }
    tempfile::Builder::new().prefix(".palace-check").tempfile_in(dir).map(drop).map_err(|e| {
        Error::Usage(format!("{flag} {}: cannot write there ({e}); give a writable folder", dir.display()))
    })
}

/// Largest value `V` of `--max-value` or `--to` on a black-hole board of `columns` columns:
/// beyond it the positions of value `<= V` are too many to number (2^30 values on one column,
/// 2^20 on more).
fn memo_value_limit(columns: usize) -> u64 {
    if columns == 1 { 1 << 30 } else { 1 << 20 }
}

/// The largest `v` that [`check_memo`] accepts for a board of `columns` columns: the largest
/// `v <= memo_value_limit(columns)` whose positions of value `<= v` fit the memo (their count
/// grows with `v`). Rows of counts over `0..=h`, `h` doubled until the memo is full or `h`
/// reaches the limit.
pub fn largest_memo_value(columns: usize) -> u64 {
    let limit = memo_value_limit(columns);
    if columns == 1 {
        // One position per value: 2^30 positions, a 256 MiB memo.
        return limit;
    }
    let mut h = 1usize << 10;
    loop {
        let mut row = vec![1u64; h + 1];
        for i in 2..=columns {
            let w = palace::games::fib::weight(i) as usize;
            for v in w..=h {
                row[v] = row[v].saturating_add(row[v - w]);
            }
        }
        let mut total = 0u64;
        for (v, &c) in row.iter().enumerate() {
            total = total.saturating_add(c);
            if total / 4 > MAX_MEMO_BYTES {
                return v as u64 - 1;
            }
        }
        if h as u64 >= limit {
            return limit;
        }
        h = (2 * h).min(limit as usize);
    }
}

/// Refuses a black-hole board of `columns` columns whose positions of value `<= v` would need
/// a memo beyond [`MAX_MEMO_BYTES`]; the message names the largest value accepted.
fn check_memo(columns: usize, v: u64, flag: &str) -> Result<()> {
    let max = largest_memo_value(columns);
    if v <= max {
        return Ok(());
    }
    let why = if v > memo_value_limit(columns) {
        "the positions would be too many to number".to_string()
    } else {
        format!(
            "the F_{} board has more than {} positions of value <= {v}, whose memo would take more than {} GiB",
            columns + 1,
            MAX_MEMO_BYTES * 4,
            MAX_MEMO_BYTES >> 30
        )
    };
    Err(Error::Usage(format!("{flag} {v}: {why}; use {flag} <= {max} with --hole {}", columns + 1)))
}

/// Positions of value `n` in the original Zeckendorf game from `n` pieces (its memo numbers
/// them: a quarter byte each).
fn original_positions(n: u64) -> u64 {
    let cols = palace::games::fib::fibonacci_up_to(n).len();
    palace::games::zeckendorf::Space::count(cols, n, n)
}

/// The largest `--to` of the original Zeckendorf game whose positions fit the memo (their
/// count grows with `n`; found by bisection below 2000, where they pass 10^14).
pub fn largest_original_to() -> u64 {
    let fits = |n: u64| original_positions(n) / 4 <= MAX_MEMO_BYTES;
    let (mut lo, mut hi) = (1u64, 2000u64); // fits(lo), !fits(hi)
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(mid) { lo = mid } else { hi = mid }
    }
    lo
}

/// Every bound a refusal of `palace game` names ("use ... <= N") is accepted, and one past it
/// refused: validation only, no run.
#[cfg(test)]
mod game_bounds {
    use super::*;
    use proptest::prelude::*;

    /// The commands and flags with a bound; `X` is the value tried, `M` a black hole's column.
    const CASES: &[&[&str]] = &[
        &["game", "zeckendorf", "--to", "X"],
        &["game", "zeckendorf", "--to", "X", "--hole", "M"],
        &["game", "zeckendorf", "--positions", "--hole", "M", "--max-value", "X"],
        &["game", "zeckendorf", "--to", "5", "--hole", "X"],
        &["game", "fibonacci-nim", "--to", "X"],
        &["game", "fibonacci-nim", "--grundy", "--to", "X"],
        &["game", "subtraction", "--to", "X"],
        &["game", "subtraction", "--to", "100", "--row-length", "X"],
        &["game", "fraenkel-array", "--rows", "X"],
        &["game", "fraenkel-array", "--rows", "5", "--columns", "X"],
        &["game", "fraenkel-array", "--check", "--to", "X"],
        &["game", "frankenstein", "--squares", "X"],
        &["game", "frankenstein", "--squares", "5", "--bound", "X"],
        &["game", "frankenstein", "--squares", "5", "--check", "--max-sum", "X"],
    ];

    /// Validates `case` with `X = x` and `M = m`; the refusal's message on failure (clap's
    /// or ours).
    fn validate(case: &[&str], x: u64, m: u64) -> std::result::Result<(), String> {
        let args = std::iter::once("palace".to_string()).chain(case.iter().map(|a| match *a {
            "X" => x.to_string(),
            "M" => m.to_string(),
            a => a.to_string(),
        }));
        let cli = Cli::try_parse_from(args).map_err(|e| e.to_string())?;
        cli.into_config().map(drop).map_err(|e| e.to_string())
    }

    /// The flag and the `N` of "use ... --flag <= N" in a message.
    fn named_bound(msg: &str) -> Option<(String, u64)> {
        let i = msg.rfind("<= ")?;
        let n = msg[i + 3..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()?;
        let flag = msg[..i].split_whitespace().last()?.to_string();
        Some((flag, n))
    }

    /// If `case` with `X = x`, `M = m` is refused with a named bound `N` on the flag of `X` or
    /// `M`: that flag at `N` is accepted and at `N + 1` refused, the other flag kept (another
    /// flag out of its own bounds may still be refused at `N`, by a message naming that flag).
    fn named_bound_holds(case: &[&str], x: u64, m: u64) -> std::result::Result<Option<u64>, String> {
        let Err(msg) = validate(case, x, m) else { return Ok(None) };
        let Some((flag, n)) = named_bound(&msg) else { return Ok(None) };
        let holder = case.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
        let at = |v: u64| match holder {
            Some("X") => validate(case, v, m),
            _ => validate(case, x, v),
        };
        if !matches!(holder, Some("X" | "M")) {
            return Ok(None);
        }
        // At N the flag passes its own checks (another flag given out of its bounds may still be
        // refused, with a message of its own); at N + 1 it is refused for itself.
        let about_flag = |r: &std::result::Result<(), String>| {
            r.as_ref().is_err_and(|e| e.starts_with(&format!("{flag} ")))
        };
        let (at_n, past) = (at(n), at(n + 1));
        if about_flag(&at_n) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, which is refused: {at_n:?}"
            ));
        }
        if !about_flag(&past) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, but {} is not refused for it: {past:?}",
                n + 1
            ));
        }
        Ok(Some(n))
    }

    /// Every case refuses a large value with a bound it names, and the bound holds.
    #[test]
    fn every_game_bound_named_is_the_largest_accepted() {
        for case in CASES {
            for m in [2, 4, 25] {
                let named = [u64::from(u32::MAX), 1 << 40]
                    .into_iter()
                    .map(|x| named_bound_holds(case, x, m))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(
                    named.iter().any(Option::is_some),
                    "{case:?} M = {m}: no bound named for large values"
                );
                // With every other flag in its bounds, the command at N passes validation.
                for n in named.into_iter().flatten() {
                    assert_eq!(validate(case, n, m), Ok(()), "{case:?} X = {n}, M = {m}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        #[test]
        fn any_game_refusal_names_a_bound_that_holds(
            case in 0..CASES.len(),
            x in prop_oneof![0u64..100, 0u64..1 << 20, 0u64..1 << 40],
            m in 2u64..=26,
        ) {
            if let Err(e) = named_bound_holds(CASES[case], x, m) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

fn check_scale(scale: u32) -> Result<()> {
    if scale == 0 {
        return Err(Error::Usage(
            "--scale 0: the scale is the block side in cells; use --scale 1 or more".into(),
        ));
    }
    Ok(())
}

impl Cli {
    /// Validates the parsed arguments into a [`Config`].
    pub fn into_config(self) -> Result<Config> {
        let config = match self.command {
            Command::Render(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if a.zoom == 0 || a.zoom > MAX_ZOOM {
                    return Err(Error::Usage(format!(
                        "--zoom {}: each cell becomes Z x Z pixels; use 1..={MAX_ZOOM}",
                        a.zoom
                    )));
                }
                check_picture(window, a.scale, a.zoom)?;
                Config::Render {
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
                    run: a.run.resolve()?,
                }
            }
            Command::Tiles(a) => {
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
                Config::Tiles {
                    board,
                    window,
                    tiles: TileOptions {
                        tile_size: a.tile_size,
                        aggregate: a.aggregate.into(),
                        threads: a.run.threads,
                    },
                    output: a.output,
                    run: a.run.resolve()?,
                }
            }
            Command::Dump(a) => {
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
                Config::Dump {
                    board,
                    window,
                    values: a.values.into(),
                    output: a.output,
                    run: a.run.resolve()?,
                }
            }
            Command::Stats(a) => {
                let (board, window) = a.board.resolve()?;
                if a.palaces_only && a.board.window.is_some() {
                    return Err(Error::Usage(
                        "--palaces-only counts whole boards from the corner; drop --window and give the board with --size or --width/--height".into(),
                    ));
                }
                let (checkpoint, resume) = a.checkpoint.resolve()?;
                let backend = Backend::resolve(a.backend, a.gpu_shape.as_deref())?;
                if backend != Backend::Cpu {
                    if a.ca {
                        return Err(Error::Usage(
                            "--ca and --backend gpu: the GPU computes the three-counter form, not the CA rule; drop one of them".into(),
                        ));
                    }
                    if checkpoint.is_some() || resume.is_some() {
                        return Err(Error::Usage(
                            "--backend gpu keeps no checkpoints; drop --checkpoint and --resume, or use --backend cpu".into(),
                        ));
                    }
                }
                Config::Stats {
                    board,
                    window,
                    backend,
                    palaces_only: a.palaces_only,
                    by_counters: !a.ca && window.x0 == 0 && window.y0 == 0,
                    checkpoint,
                    resume,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::GpuInfo(a) => Config::GpuInfo { json: a.json },
            Command::Positions(a) => Config::Positions(a.resolve()?),
            Command::Cell(a) => Config::Cell(a.resolve()?),
            Command::Compare(a) => {
                let (board, window) = a.board.resolve()?;
                Board::new(a.k2, 1, 1).map_err(|_| {
                    Error::Usage(format!(
                        "--k2 {} is not a game: use 1 <= k2 <= {}",
                        a.k2,
                        palace::model::rule::MAX_K
                    ))
                })?;
                check_scale(a.scale)?;
                if a.search_region.is_some() && board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: --search-region labels game K, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
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
                    && (u64::from(window.x1) + dx > u64::from(MAX_SIDE)
                        || u64::from(window.y1) + dy > u64::from(MAX_SIDE))
                {
                    return Err(Error::Usage(format!(
                        "--shift {dx},{dy}: the shifted window {},{},{},{} of game K2 reaches past the largest coordinate, {MAX_SIDE} (2^30); use a smaller shift",
                        u64::from(window.x0) + dx,
                        u64::from(window.y0) + dy,
                        u64::from(window.x1) + dx,
                        u64::from(window.y1) + dy
                    )));
                }
                Config::Compare {
                    window,
                    comparison: palace::analysis::compare::Comparison {
                        a: board.k,
                        b: a.k2,
                        shift: (dx as u32, dy as u32),
                        offset: a.offset,
                    },
                    centre: (sx, sy),
                    search_region: a.search_region.map(SearchRegionArg::regions),
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    search_shift: a.search_shift,
                    region_search: a.region_search,
                    run: a.run.resolve()?,
                    reference: a.reference,
                    legend: !a.no_legend,
                }
            }
            Command::Regions(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: regions also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                Config::Regions {
                    board,
                    window,
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    run: a.run.resolve()?,
                    reference: a.reference,
                    legend: !a.no_legend,
                }
            }
            Command::Fabric(a) => {
                if a.k < 4 || a.k > 1 << 24 {
                    return Err(Error::Usage(format!(
                        "--k {}: use 4 <= k <= {} for the fabric",
                        a.k,
                        1 << 24
                    )));
                }
                if a.size == 0 || a.size > 8192 {
                    return Err(Error::Usage(format!(
                        "--size {}: the panels are held in memory; use 1..=8192",
                        a.size
                    )));
                }
                Config::Fabric {
                    k: a.k,
                    size: a.size,
                    output: a.output,
                    json: a.json,
                    run: a.run.resolve()?,
                    reference: a.reference,
                }
            }
            Command::Skin(a) => {
                Board::new(a.k, 1, 1)?;
                let min_k = palace::analysis::skin::MIN_K;
                if a.k < min_k {
                    return Err(Error::Usage(format!(
                        "--k {}: games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin to follow; use --k {min_k} or more",
                        a.k
                    )));
                }
                if a.to <= u64::from(a.k) || a.to > u64::from(MAX_SIDE) {
                    return Err(Error::Usage(format!(
                        "--to {}: the skin starts at the shoulder ({}, 0) and columns stop at 2^30; use {} < X <= {}",
                        a.to, a.k, a.k, MAX_SIDE
                    )));
                }
                let (checkpoint, resume) = a.checkpoint.resolve()?;
                Config::Skin {
                    k: a.k,
                    to: a.to,
                    csv: a.csv,
                    plot: a.plot,
                    json: a.json,
                    rows: a.rows,
                    pattern: a.pattern,
                    checkpoint,
                    resume,
                    run: a.run.resolve()?,
                }
            }
            Command::Bench(a) => {
                Board::new(a.k, a.size, a.size)?;
                if a.size > MAX_BENCH_SIDE {
                    return Err(Error::Usage(format!(
                        "--size {}: the baseline would take hours; use --size <= {MAX_BENCH_SIDE}",
                        a.size
                    )));
                }
                let png_dir = (!a.no_png).then(|| a.png_dir.clone().unwrap_or_else(std::env::temp_dir));
                if let Some(dir) = &png_dir {
                    check_writable_dir(dir, "--png-dir")?;
                }
                let run = RunArgs {
                    threads: a.threads,
                    kernel: a.kernel,
                    quiet: a.quiet,
                    tile_width: None,
                    band_height: None,
                }
                .resolve()?;
                let most = run.engine.resolved_threads();
                if a.repeat == 0 || a.repeat > 100 {
                    return Err(Error::Usage(format!("--repeat {}: use 1..=100", a.repeat)));
                }
                Config::Bench {
                    k: a.k,
                    size: a.size,
                    threads: vec![1, most],
                    kernel: a.kernel.into(),
                    repeat: a.repeat,
                    png_dir,
                    analyses: a.analyses,
                    json: a.json,
                    quiet: a.quiet,
                }
            }
            Command::Game(GameArgs { game: GameCommand::FibonacciNim(a) }) => {
                if a.to == 0 {
                    return Err(Error::Usage("--to 0: the piles start at 1; use --to 1 or more".into()));
                }
                if a.grundy && a.to > MAX_GRUNDY_TO {
                    return Err(Error::Usage(format!(
                        "--to {} with --grundy: the table takes N^2 bytes; use --to <= {MAX_GRUNDY_TO}",
                        a.to
                    )));
                }
                if a.to > MAX_NIM_TO {
                    return Err(Error::Usage(format!(
                        "--to {}: listing every winning first move takes about N^2 / 6 steps; use --to <= {MAX_NIM_TO}",
                        a.to
                    )));
                }
                if let Some(o) = &a.output {
                    let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
                    if !matches!(ext.as_deref(), Some("png" | "npy" | "csv")) {
                        return Err(Error::Usage(format!(
                            "--output {}: the format comes from the extension; name it .png, .npy or .csv",
                            o.display()
                        )));
                    }
                }
                Config::FibonacciNim {
                    to: a.to,
                    grundy: a.grundy,
                    output: a.output,
                    check: a.check,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Game(GameArgs { game: GameCommand::Zeckendorf(a) }) => {
                let hole = match a.hole {
                    None => None,
                    Some(0 | 1) => {
                        return Err(Error::Usage(format!(
                            "--hole {}: on the F_1 board every piece falls into the hole at once (the paper's §3: not playable); use --hole 2 or more",
                            a.hole.unwrap_or(0)
                        )));
                    }
                    Some(m) if m > palace::games::zeckendorf::MAX_COLUMNS as u64 + 1 => {
                        return Err(Error::Usage(format!(
                            "--hole {m}: boards have at most {} columns; use --hole <= {}",
                            palace::games::zeckendorf::MAX_COLUMNS,
                            palace::games::zeckendorf::MAX_COLUMNS + 1
                        )));
                    }
                    Some(m) => Some(m as usize),
                };
                if a.positions {
                    let (Some(m), Some(v)) = (hole, a.max_value) else {
                        return Err(Error::Usage("--positions needs --hole M and --max-value V".into()));
                    };
                    if let Some(o) = &a.output {
                        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
                        if !matches!(ext.as_deref(), Some("png" | "csv")) {
                            return Err(Error::Usage(format!(
                                "--output {}: the format comes from the extension; name it .csv or .png",
                                o.display()
                            )));
                        }
                    }
                    check_memo(m - 1, v, "--max-value")?;
                    Config::ZeckendorfPositions {
                        hole: m,
                        max_value: v,
                        output: a.output,
                        json: a.json,
                        run: a.run.resolve()?,
                    }
                } else {
                    let to = a.to.unwrap_or(0);
                    if to == 0 {
                        return Err(Error::Usage("--to 0: n starts at 1; use --to 1 or more".into()));
                    }
                    match hole {
                        Some(m) => check_memo(m - 1, to, "--to")?,
                        None => {
                            // Above 2000 the count alone is slow; it is far beyond the memo there.
                            let positions = if to > 2000 { u64::MAX } else { original_positions(to) };
                            if positions / 4 > MAX_MEMO_BYTES {
                                let why = if to > 2000 {
                                    "the original game has more than 10^14 positions beyond n = 2000"
                                        .to_string()
                                } else {
                                    format!(
                                        "n = {to} has {positions} positions, whose memo would take {} GiB (more than {})",
                                        (positions / 4) >> 30,
                                        MAX_MEMO_BYTES >> 30
                                    )
                                };
                                return Err(Error::Usage(format!(
                                    "--to {to}: {why}; use --to <= {} (or a black hole, --hole M)",
                                    largest_original_to()
                                )));
                            }
                        }
                    }
                    Config::Zeckendorf {
                        to,
                        hole,
                        census: a.census,
                        check: a.check,
                        json: a.json,
                        run: a.run.resolve()?,
                    }
                }
            }
            Command::Game(GameArgs { game: GameCommand::Subtraction(a) }) => subtraction_config(a)?,
            Command::Game(GameArgs { game: GameCommand::FraenkelArray(a) }) => {
                if a.check {
                    if a.to == 0 || a.to > MAX_FRAENKEL_TO {
                        return Err(Error::Usage(format!(
                            "--to {}: the check keeps one bit per integer up to X; use 1 <= --to <= {MAX_FRAENKEL_TO}",
                            a.to
                        )));
                    }
                    Config::FraenkelCheck { to: a.to, json: a.json, run: a.run.resolve()? }
                } else {
                    let rows = a.rows.unwrap_or(0);
                    if rows == 0 || rows > MAX_FRAENKEL_ROWS {
                        return Err(Error::Usage(format!(
                            "--rows {rows}: use 1 <= --rows <= {MAX_FRAENKEL_ROWS}"
                        )));
                    }
                    if a.columns == 0 || a.columns > palace::games::fraenkel::BASIS_LEN {
                        return Err(Error::Usage(format!(
                            "--columns {}: entries beyond column {} exceed 64 bits; use 1 <= --columns <= {}",
                            a.columns,
                            palace::games::fraenkel::BASIS_LEN - 1,
                            palace::games::fraenkel::BASIS_LEN
                        )));
                    }
                    if let Some(p) = &a.plot
                        && !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
                    {
                        return Err(Error::Usage(format!(
                            "--plot {}: the picture is a PNG; name it .png",
                            p.display()
                        )));
                    }
                    Config::FraenkelArray {
                        rows: rows as usize,
                        columns: a.columns,
                        json: a.json,
                        csv: a.csv,
                        plot: a.plot,
                        table: a.table,
                        run: a.run.resolve()?,
                    }
                }
            }
            Command::Game(GameArgs { game: GameCommand::FraenkelU(a) }) => {
                if let Some(n) = a.numbers.iter().find(|&&n| n == 0) {
                    return Err(Error::Usage(format!(
                        "{n}: the representations are of positive integers; use N >= 1"
                    )));
                }
                Config::FraenkelU { numbers: a.numbers, json: a.json, run: a.run.resolve()? }
            }
            Command::Game(GameArgs { game: GameCommand::Frankenstein(a) }) => {
                if !(2..=MAX_FRANKENSTEIN_SQUARES).contains(&a.squares) {
                    return Err(Error::Usage(format!(
                        "--squares {}: the search visits 2^N positions; use 2 <= --squares <= {MAX_FRANKENSTEIN_SQUARES}",
                        a.squares
                    )));
                }
                if !(2..=MAX_FRANKENSTEIN_BOUND).contains(&a.bound) {
                    return Err(Error::Usage(format!(
                        "--bound {}: (A) tests every pair of claimed positions; use 2 <= --bound <= {MAX_FRANKENSTEIN_BOUND}",
                        a.bound
                    )));
                }
                if !(3..=MAX_FRANKENSTEIN_SUM).contains(&a.max_sum) {
                    return Err(Error::Usage(format!(
                        "--max-sum {}: use 3 <= --max-sum <= {MAX_FRANKENSTEIN_SUM}",
                        a.max_sum
                    )));
                }
                Config::Frankenstein {
                    squares: a.squares,
                    type2: a.type2.into(),
                    bound: a.bound,
                    check: a.check,
                    max_sum: a.max_sum,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Threads(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: threads labels the regions, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                if a.reach == 0 || a.reach > 64 {
                    return Err(Error::Usage(format!("--reach {}: use 1..=64 columns", a.reach)));
                }
                Config::Threads {
                    board,
                    window,
                    csv: a.csv,
                    output: a.output,
                    scale: a.scale,
                    reach: a.reach,
                    json: a.json,
                    run: a.run.resolve()?,
                    legend: !a.no_legend,
                }
            }
            Command::Beams(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: beams labels the regions, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                if a.gap == 0 || a.gap > 4096 {
                    return Err(Error::Usage(format!("--gap {}: use 1..=4096 rows", a.gap)));
                }
                if a.tolerance == 0 || a.tolerance > 256 {
                    return Err(Error::Usage(format!("--tolerance {}: use 1..=256 columns", a.tolerance)));
                }
                if a.output.is_some() {
                    palace::analysis::beams::picture_pixels(window, a.scale)?;
                }
                Config::Beams {
                    board,
                    window,
                    params: palace::analysis::beams::Params { gap: a.gap, tolerance: a.tolerance },
                    csv: a.csv,
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    run: a.run.resolve()?,
                    legend: !a.no_legend,
                }
            }
            Command::Check(a) => {
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
                    return Err(Error::Usage(format!(
                        "--wythoff-size {}: use 1..={MAX_WYTHOFF_SIDE}",
                        a.wythoff_size
                    )));
                }
                Config::Check {
                    max_k: a.max_k,
                    max_size: a.max_size,
                    wythoff_size: a.wythoff_size,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Survey(a) => a.resolve()?,
            Command::Grid(a) => a.resolve()?,
            Command::Gliders(a) => a.resolve()?,
        };
        config.check_destinations()?;
        Ok(config)
    }
}

impl Config {
    /// The files this run writes, each with the flag that names it (a checkpoint and the one
    /// it resumes from included), and whether it also prints a report on standard output.
    fn destinations(&self) -> (Vec<(&'static str, &std::path::Path)>, bool) {
        use std::path::Path;
        fn opt<'a>(flag: &'static str, p: &'a Option<PathBuf>) -> Option<(&'static str, &'a Path)> {
            p.as_deref().map(|p| (flag, p))
        }
        fn saves<'a>(
            c: &'a Option<SaveEvery>,
            r: &'a Option<PathBuf>,
        ) -> [Option<(&'static str, &'a Path)>; 2] {
            [c.as_ref().map(|(p, _)| ("--checkpoint", p.as_path())), opt("--resume", r)]
        }
        let (list, report): (Vec<Option<(&'static str, &Path)>>, bool) = match self {
            Config::Render { output, .. } | Config::Dump { output, .. } => {
                (vec![Some(("--output", output.as_path()))], false)
            }
            Config::Tiles { output, .. } => (vec![Some(("--output", output.as_path()))], true),
            // With `-o -` the list takes standard output and the report goes to standard error.
            Config::Positions(p) => {
                (vec![Some(("--output", p.output.as_path()))], p.output.as_os_str() != "-")
            }
            Config::Stats { checkpoint, resume, .. } => (saves(checkpoint, resume).to_vec(), true),
            Config::Skin { csv, plot, checkpoint, resume, .. } => {
                let mut v = vec![opt("--csv", csv), opt("--plot", plot)];
                v.extend(saves(checkpoint, resume));
                (v, true)
            }
            Config::Compare { output, .. }
            | Config::Regions { output, .. }
            | Config::Fabric { output, .. }
            | Config::Grid { output, .. } => (vec![opt("--output", output)], true),
            Config::Threads { csv, output, .. }
            | Config::Beams { csv, output, .. }
            | Config::Gliders { csv, output, .. } => (vec![opt("--csv", csv), opt("--output", output)], true),
            Config::Survey { output, plot, .. } => (vec![opt("--output", output), opt("--plot", plot)], true),
            Config::Bench { png_dir, .. } => (vec![opt("--png-dir", png_dir)], true),
            Config::FibonacciNim { output, .. }
            | Config::ZeckendorfPositions { output, .. }
            | Config::Subtraction { output, .. } => (vec![opt("--output", output)], true),
            Config::FraenkelArray { plot, .. } => (vec![opt("--plot", plot)], true),
            _ => (Vec::new(), true),
        };
        (list.into_iter().flatten().collect(), report)
    }

    /// Refuses two outputs of one run that land in one place, which would keep only one of
    /// them or mix them: two flags naming one file (compared after following links, so
    /// `a.png` and `./a.png` are one), or `-` (standard output) where the command also prints
    /// its report there or another output is `-`. A checkpoint may be the file it resumes
    /// from.
    fn check_destinations(&self) -> Result<()> {
        let (list, report) = self.destinations();
        let mut seen: Vec<(&str, &std::path::Path, PathBuf)> = Vec::new();
        for (flag, path) in list {
            if path.as_os_str() == "-" {
                if flag == "--output" && matches!(self, Config::Tiles { .. }) {
                    return Err(Error::Usage(
                        "--output -: tiles writes a folder of files, which cannot go to standard output; give a folder name such as tiles".into(),
                    ));
                }
                if matches!(flag, "--checkpoint" | "--resume") {
                    return Err(Error::Usage(format!(
                        "{flag} -: a checkpoint is a file, not standard output; give a file name such as run.ckpt"
                    )));
                }
                if report {
                    return Err(Error::Usage(format!(
                        "{flag} -: the command prints its report on standard output too, and the two would be mixed; give {flag} a file name"
                    )));
                }
            }
            let resolved = resolve_destination(path);
            for (other, other_path, r) in &seen {
                let resumed =
                    matches!((*other, flag), ("--checkpoint", "--resume") | ("--resume", "--checkpoint"));
                if *r == resolved && !resumed {
                    let same = if *other_path == path {
                        format!("{other} and {flag} both name {}", path.display())
                    } else {
                        format!(
                            "{other} {} and {flag} {} name the same file",
                            other_path.display(),
                            path.display()
                        )
                    };
                    return Err(Error::Usage(format!(
                        "{same}, and one output would overwrite the other; give each its own name"
                    )));
                }
            }
            seen.push((flag, path, resolved));
        }
        Ok(())
    }
}

/// Where an output path lands, for comparing two outputs: `-` stays `-`; links are followed
/// (also to a file yet to be written); the rest is its folder's real path and its name.
fn resolve_destination(path: &std::path::Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return path.to_path_buf();
    }
    let mut path = path.to_path_buf();
    // Follow links by hand, since `canonicalize` refuses one to a file not written yet.
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(to) => path = path.parent().map_or(to.clone(), |d| d.join(&to)),
            Err(_) => break,
        }
    }
    if let Ok(p) = std::fs::canonicalize(&path) {
        return p;
    }
    let path = path.as_path();
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
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
    fn resolve(self) -> Result<Config> {
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

/// `palace game subtraction`.
#[derive(Debug, Args)]
pub struct SubtractionArgs {
    /// Solve every pile 0..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The subtraction set: a family F(an+b)+c over n >= 1 (F(2n+1)-1, the paper's and the
    /// default; F(2n)-1, F(2n+1), F(n), ...), `paper`, or a list 1,4,12,33. Repeat to survey
    /// several sets: one row each.
    #[arg(long, value_name = "NAME|LIST")]
    pub set: Vec<String>,
    /// Write the values: a uint8 array (.npy, shape (N+1,)) or a picture (.png, --row-length
    /// piles a row), by the file's extension.
    #[arg(long, short, value_name = "FILE.npy|FILE.png")]
    pub output: Option<PathBuf>,
    /// Piles a row of the picture.
    #[arg(long, value_name = "W", default_value_t = 89)]
    pub row_length: usize,
    /// Largest period searched for in the last half of the values (N/2..N).
    #[arg(long, value_name = "P", default_value_t = palace::games::subtraction::DEFAULT_PERIOD_BOUND)]
    pub period_bound: u64,
    /// Run the paper's statements over 0..=N (the paper's set only).
    #[arg(long)]
    pub check: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--to` of `game subtraction` (the values take N/4 bytes, or N bytes for a set whose
/// values reach 4).
pub const MAX_SUBTRACTION_TO: u64 = 10_000_000_000;

/// Validates `game subtraction`.
fn subtraction_config(a: SubtractionArgs) -> Result<Config> {
    use palace::games::subtraction as sub;
    if a.to > MAX_SUBTRACTION_TO {
        return Err(Error::Usage(format!(
            "--to {}: the values take N/4 bytes (N bytes for sets whose values reach 4); use --to <= {MAX_SUBTRACTION_TO}",
            a.to
        )));
    }
    let specs = if a.set.is_empty() { vec![sub::PAPER_SET.to_string()] } else { a.set };
    let mut sets = Vec::new();
    for spec in &specs {
        sets.push(sub::parse_set(spec, a.to).map_err(|e| Error::Usage(format!("--set {e}")))?);
    }
    if let Some(o) = &a.output {
        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
        if !matches!(ext.as_deref(), Some("npy" | "png")) {
            return Err(Error::Usage(format!(
                "--output {}: the format comes from the extension; name it .npy or .png",
                o.display()
            )));
        }
        if sets.len() > 1 {
            return Err(Error::Usage("--output writes one set's values; give one --set".into()));
        }
    }
    if a.row_length == 0 || a.row_length > 4096 {
        return Err(Error::Usage(format!(
            "--row-length {}: a picture row holds 1 to 4096 piles; use 1 <= --row-length <= 4096",
            a.row_length
        )));
    }
    if a.check && (sets.len() > 1 || !sets[0].is_papers(a.to)) {
        return Err(Error::Usage(format!(
            "--check runs Larsson and Fox's statements about S = {{F(2n+1) - 1}}; drop --set or use --set {}",
            sub::PAPER_SET
        )));
    }
    Ok(Config::Subtraction {
        to: a.to,
        sets,
        output: a.output,
        row_length: a.row_length,
        period_bound: a.period_bound,
        check: a.check,
        json: a.json,
        run: a.run.resolve()?,
    })
}

// `palace game fraenkel-array`, `fraenkel-u` and `frankenstein` (Fraenkel, Arrays,
// Numeration Systems and Frankenstein Games).

/// Largest `--rows` of `game fraenkel-array`.
pub const MAX_FRAENKEL_ROWS: u64 = 1_000_000;
/// Largest `--to` of `game fraenkel-array --check` (one bit per integer: 500 MB).
pub const MAX_FRAENKEL_TO: u64 = 4_000_000_000;
/// Largest `--squares` of `game frankenstein` (2^N positions).
pub const MAX_FRANKENSTEIN_SQUARES: u32 = 32;
/// Largest `--bound` of `game frankenstein` (pairs of claimed positions).
pub const MAX_FRANKENSTEIN_BOUND: u32 = 20_000;
/// Largest `--max-sum` of `game frankenstein --check`.
pub const MAX_FRANKENSTEIN_SUM: u32 = 150;

/// `palace game fraenkel-array`.
#[derive(Debug, Args)]
pub struct FraenkelArrayArgs {
    /// Print rows 0..N-1.
    #[arg(long, value_name = "N", required_unless_present = "check")]
    pub rows: Option<u64>,
    /// Print columns 0..J-1.
    #[arg(long, value_name = "J", default_value_t = 7)]
    pub columns: usize,
    /// Print JSON: {"rows": [[A_0^n, A_1^n, ...], ...]}.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: n,A_0,A_1,...
    #[arg(long)]
    pub csv: bool,
    /// Draw the integers up to A_0^{N-1}, each coloured by the column of A that holds it. With
    /// --plot the rows are printed only when asked for: by --table, --csv or --json.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// With --plot: also print the rows as a table.
    #[arg(long, requires = "plot", conflicts_with_all = ["csv", "json"])]
    pub table: bool,
    /// Check the text's statements on every entry up to X (--to) instead of printing rows.
    #[arg(long, conflicts_with_all = ["rows", "csv", "plot"])]
    pub check: bool,
    /// The bound of --check.
    #[arg(long, value_name = "X", default_value_t = 1_000_000)]
    pub to: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// `palace game fraenkel-u`.
#[derive(Debug, Args)]
pub struct FraenkelUArgs {
    /// The numbers (positive).
    #[arg(value_name = "N", required = true, num_args = 1..)]
    pub numbers: Vec<u64>,
    /// Print JSON: {"representations": [{"n": 41, "digits": "1211"}, ...]}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// The reading of a type II move of Frankenstein.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TypeTwoArg {
    /// The coins keep their order: coin i lands on the i-th new square.
    Ordered,
    /// Coin x_i is shifted by n_i as the text says; the coins may pass each other.
    Literal,
}

impl From<TypeTwoArg> for palace::games::frankenstein::TypeTwo {
    fn from(t: TypeTwoArg) -> Self {
        match t {
            TypeTwoArg::Ordered => Self::Ordered,
            TypeTwoArg::Literal => Self::Literal,
        }
    }
}

/// `palace game frankenstein`.
#[derive(Debug, Args)]
pub struct FrankensteinArgs {
    /// Solve every position on squares 1..N.
    #[arg(long, value_name = "N")]
    pub squares: u32,
    /// The reading of type II moves.
    #[arg(long, value_enum, default_value_t = TypeTwoArg::Ordered)]
    pub type2: TypeTwoArg,
    /// Theorem 3 (A) over the claimed positions with every square <= B.
    #[arg(long, value_name = "B", default_value_t = 1000)]
    pub bound: u32,
    /// Run every checkable statement of the text about the game, under both readings.
    #[arg(long)]
    pub check: bool,
    /// With --check: also solve every position whose squares add up to at most S.
    #[arg(long, value_name = "S", default_value_t = 88)]
    pub max_sum: u32,
    /// Print JSON: {"p_positions": [...], "violations_a": [...], "violations_b": [...]}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
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
    fn resolve(self) -> Result<Config> {
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
    fn resolve(self) -> Result<Config> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// The help of `regions` and `fabric` states the block side the code decides on.
    #[test]
    fn help_states_the_block_side() {
        let b = palace::labels::BLOCK;
        for name in ["regions", "fabric"] {
            let mut cmd = Cli::command();
            let sub = cmd.find_subcommand_mut(name).expect("subcommand");
            let help = sub.render_long_help().to_string();
            assert!(help.contains(&format!("{b} x {b}")), "{name} --help: {help}");
        }
    }

    /// Each bound a message of the engine's and the analyses' commands names, as the command
    /// line that holds the value `{}`, the smallest and the largest value accepted. The games
    /// have their own table.
    fn bounds() -> Vec<(String, u64, u64)> {
        use palace::model::rule::MAX_K;
        let side = u64::from(MAX_SIDE);
        let ck = std::env::temp_dir().join("palace-bounds.ckpt").display().to_string();
        let k3 = u64::from(MAX_K - 3);
        vec![
            ("render --k {} --size 1 -o x.png".into(), 1, u64::from(MAX_K)),
            ("stats --k 5 --size {}".into(), 1, side),
            ("stats --k 5 --width {} --height 3".into(), 1, side),
            ("stats --k 5 --width 3 --height {}".into(), 1, side),
            ("stats --k 5 --size 10 --threads {}".into(), 0, MAX_THREADS as u64),
            (format!("stats --k 5 --size 10 --checkpoint {ck} --every {{}}"), 0, 1_000_000),
            ("render --k 5 --size 1 --zoom {} -o x.png".into(), 1, u64::from(MAX_ZOOM)),
            ("render --k 5 --width {} --height 1 --no-legend -o x.png".into(), 1, MAX_PICTURE_SIDE),
            ("tiles --k 5 --size 10 --tile-size {} -o t".into(), 16, 4096),
            ("tiles --k 5 --width {} --height 1 -o t".into(), 1, MAX_PICTURE_SIDE),
            ("dump --k 5 --width 262144 --height {} -o x.npy".into(), 1, MAX_DUMP_CELLS >> 18),
            ("skin --k 5 --to {}".into(), 6, side),
            ("skin --k {} --to 1000".into(), u64::from(palace::analysis::skin::MIN_K), 999),
            ("regions --k {} --size 10".into(), 1, k3),
            ("threads --k {} --size 10".into(), 1, k3),
            ("threads --k 5 --size 10 --reach {}".into(), 1, 64),
            ("beams --k {} --size 10".into(), 1, k3),
            ("beams --k 5 --size 10 --gap {}".into(), 1, 4096),
            ("beams --k 5 --size 10 --tolerance {}".into(), 1, 256),
            ("compare --k 5 --k2 {} --size 10".into(), 1, u64::from(MAX_K)),
            ("compare --k 5 --k2 6 --size 1 --shift {},0".into(), 0, side - 1),
            ("compare --k 5 --k2 6 --size 10 --shift {},0 --search-shift 1".into(), 0, side),
            ("fabric --k {} --size 10".into(), 4, 1 << 24),
            ("fabric --k 998 --size {}".into(), 1, 8192),
            ("grid --k {} --at 2".into(), 4, k3),
            ("grid --k 9999 --side {} --reach 8".into(), 16, u64::from(MAX_GRID_SIDE)),
            ("gliders --k {} --size 10".into(), 4, k3),
            ("survey --k 5..{} --size-factor 1".into(), 5, k3),
            ("survey --k 5..6 --size-factor {}".into(), 1, u64::from(MAX_SIZE_FACTOR)),
            ("check --max-k {}".into(), 1, 6),
            ("check --max-size {}".into(), 1, 16),
            ("check --wythoff-size {}".into(), 1, u64::from(MAX_WYTHOFF_SIDE)),
            ("bench --size {} --no-png".into(), 1, u64::from(MAX_BENCH_SIDE)),
            ("bench --repeat {} --no-png".into(), 1, 100),
            ("render --k 5 --size 10 --tile-width {} -o x.png".into(), 2, 1 << 20),
        ]
    }

    /// Whether validation accepts the command line `template` with `v` in place of `{}`.
    fn accepts(template: &str, v: u64) -> bool {
        let line = template.replace("{}", &v.to_string());
        let words = std::iter::once("palace").chain(line.split_whitespace());
        Cli::try_parse_from(words)
            .map_err(|e| e.to_string())
            .and_then(|c| c.into_config().map_err(|e| e.to_string()))
            .is_ok()
    }

    /// Every bound is exact: its smallest and largest values are accepted, one below and one
    /// above refused.
    #[test]
    fn every_bound_named_is_accepted_and_one_past_it_refused() {
        for (t, lo, hi) in bounds() {
            assert!(accepts(&t, lo), "{t} with {lo} is refused");
            assert!(accepts(&t, hi), "{t} with {hi} is refused");
            assert!(!accepts(&t, hi + 1), "{t} with {} is accepted", hi + 1);
            if lo > 0 {
                assert!(!accepts(&t, lo - 1), "{t} with {} is accepted", lo - 1);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]
        /// Every value within a bound is accepted and every value past it refused.
        #[test]
        fn values_within_the_bounds_are_accepted(i in 0usize..36, f in 0.0f64..1.0, past in 1u64..1 << 40) {
            let all = bounds();
            let (t, lo, hi) = &all[i % all.len()];
            let v = lo + ((hi - lo) as f64 * f) as u64;
            proptest::prop_assert!(accepts(t, v), "{} with {} is refused", t, v);
            proptest::prop_assert!(!accepts(t, hi + past), "{} with {} is accepted", t, hi + past);
        }
    }

    #[test]
    fn validation_names_the_flag() {
        let parse = |args: &[&str]| Cli::try_parse_from(args).unwrap().into_config().unwrap_err().to_string();
        assert!(parse(&["palace", "render", "--k", "0", "--size", "5", "-o", "x.png"]).contains("--k 0"));
        assert!(parse(&["palace", "render", "--k", "3", "--size", "0", "-o", "x.png"]).contains("--size 0"));
        assert!(
            parse(&["palace", "render", "--k", "3", "--size", "5", "--scale", "0", "-o", "x.png"])
                .contains("--scale 0")
        );
        assert!(
            parse(&["palace", "stats", "--k", "3", "--size", "5", "--window", "0,0,6,5"]).contains("x1 <= 5")
        );
        assert!(
            parse(&["palace", "stats", "--k", "3", "--size", "5", "--window", "2,0,2,5"]).contains("empty")
        );
    }
}
