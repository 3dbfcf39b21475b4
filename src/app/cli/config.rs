//! The validated requests ([`Config`]) and the engine settings they share ([`RunConfig`]).

use super::*;

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
    /// Branches of the P-positions.
    Branches(crate::app::branches::BranchesRun),
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
    /// The GPU backend's statistics timed against the CPU engine's (read only by a build with
    /// the GPU backend; without it the request is refused).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    BenchGpu {
        /// The game.
        k: u32,
        /// Board side.
        size: u32,
        /// Repetitions per run.
        repeat: usize,
        /// JSON output.
        json: bool,
        /// Engine settings of the CPU runs.
        run: RunConfig,
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
            Config::Branches(b) => Some(&mut b.run),
            Config::BenchGpu { run, .. } => Some(run),
            Config::Bench { .. } | Config::GpuInfo { .. } => None,
        }
    }
}
