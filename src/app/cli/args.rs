//! The arguments of the board commands: `render`, `tiles`, `dump`, `stats`, `compare`,
//! `bench`, `gpu-info` and `check`.

use super::*;

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
    /// `gpu`: time instead the GPU backend's statistics of the board against the CPU engine's
    /// on all threads, checking that both agree (a build with `--features gpu`).
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu, conflicts_with_all = ["analyses", "png_dir"])]
    pub backend: BackendArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// No progress messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
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
