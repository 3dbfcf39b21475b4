//! The command line (clap derive), and its validation into plain configurations.
//!
//! Every check of the user's input happens here, while the parsed arguments are turned into a
//! [`Config`]; the library below trusts its inputs. Messages name the flag and the fix.
//!
//! The parts: the commands ([`Cli`], [`Command`]) here; the shared flag groups and value enums
//! in `flags`; each command's arguments in `args` (the board commands), `analyses` and `games`;
//! the validated requests in `config`; the validation in `resolve`; the memory needs and the
//! checks of the output files in `need`.

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

mod analyses;
mod args;
mod config;
pub mod flags;
mod games;
mod need;
mod resolve;

pub use analyses::*;
pub use args::*;
pub use config::*;
pub use flags::*;
pub use games::*;
pub use need::*;

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
    /// Group the P-positions with x <= y into branches of y/x and measure each one's limit.
    ///
    /// Each branch: its share of the positions, its ratio (least squares over rows Y/2..Y) at
    /// Y = 10^3, 10^4, ..., N, the estimated limit with its error, and the limit's exact form
    /// where one of small height matches within the error and is unlikely by chance.
    Branches(crate::app::branches::BranchesArgs),
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
