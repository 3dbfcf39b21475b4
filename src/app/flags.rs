//! The flag groups several commands share (the board, the engine, the report, the backend),
//! the value enums they take, their parsers and their validation. Each command's own flags live
//! in its module under [`crate::app::commands`], which flattens these groups in.

use crate::app::error::{Error, Result};
use crate::app::errors::Flags;
use clap::Args;
use palace::backend::{Backend, GpuOptions, MpiOptions, TileShape, World};
use palace::engine::{Cancel, EngineOptions};
use palace::error::Param;
use palace::kernel::KernelChoice;
use palace::model::geometry::{Board, Corners, MAX_SIDE, Window};
use palace::output::png::Aggregate;

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
pub(crate) use cli_enum;

/// `--kernel`: which tile kernel the engine uses outside the hood. The library's
/// [`KernelChoice`] has two axes (the lanes' layout and the instruction set); the flag keeps one
/// flat list of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KernelArg {
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

impl From<KernelArg> for KernelChoice {
    fn from(a: KernelArg) -> KernelChoice {
        match a {
            KernelArg::Auto => KernelChoice::Auto,
            KernelArg::Wide => KernelChoice::Wide,
            KernelArg::Portable => KernelChoice::PORTABLE,
            KernelArg::Avx2 => KernelChoice::AVX2,
            KernelArg::Avx512 => KernelChoice::AVX512,
            KernelArg::BandPortable => KernelChoice::BAND_PORTABLE,
            KernelArg::BandAvx2 => KernelChoice::BAND_AVX2,
            KernelArg::BandAvx512 => KernelChoice::BAND_AVX512,
        }
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

pub use palace::output::png::{MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE};
/// A whole number as typed, for the library's bounds to judge: beyond `i64` it saturates, so
/// that a huge value is refused as too large rather than as not a number.
fn whole(s: &str) -> std::result::Result<i64, String> {
    let t = s.trim();
    match t.parse::<i128>() {
        Ok(n) => Ok(n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64),
        Err(_) if !t.is_empty() && t.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) => {
            Ok(if t.starts_with('-') { i64::MIN } else { i64::MAX })
        }
        Err(_) => Err(format!("{t:?} is not a whole number")),
    }
}

/// Parses `--k`: a whole number within the library's bounds
/// ([`check_k`](palace::model::bounds::check_k)), refused in the flag's words.
pub fn parse_k(s: &str) -> std::result::Result<u32, String> {
    palace::model::bounds::check_k(Param::K, whole(s)?).map_err(|e| e.render(&Flags))
}

/// Parses `--k2`, as [`parse_k`].
pub fn parse_k2(s: &str) -> std::result::Result<u32, String> {
    palace::model::bounds::check_k(Param::K2, whole(s)?).map_err(|e| e.render(&Flags))
}

/// Parses a board side (`--size`, `--width`, `--height`): a whole number, at most
/// [`MAX_SIDE`]; 0 and other values below 1 are left to [`BoardArgs::resolve`], which names
/// the flag given.
pub fn parse_side(s: &str) -> std::result::Result<u32, String> {
    let n = whole(s)?;
    if n <= 0 {
        return Ok(0);
    }
    palace::model::bounds::check_side(Param::Size, n)
        .map_err(|_| format!("a board side is at most {MAX_SIDE} (2^30); use 1..={MAX_SIDE}"))
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
    pub window: Option<Corners>,
}

/// `--json`: the report as JSON, for the commands whose report is otherwise a table.
#[derive(Debug, Args, Clone, Copy)]
pub struct ReportArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `--no-legend`, for the analyses that draw their findings over the picture (`--output`).
#[derive(Debug, Args, Clone, Copy)]
pub struct LegendArgs {
    /// Draw the bare picture: no legend strip of the colours below it.
    #[arg(long, requires = "output")]
    pub no_legend: bool,
}

/// `--reference` (hidden), for the analyses that keep a reference implementation to test
/// against.
#[derive(Debug, Args, Clone, Copy)]
pub struct ReferenceArgs {
    /// Run the reference implementation (one consumer thread), for testing.
    #[arg(long, hide = true)]
    pub reference: bool,
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

/// `--method` of `positions` and `branches`: how the P-positions are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// The line counter for k up to 255, the sweep above.
    Auto,
    /// The line counter: tests only the cells that could still be P-positions, from the
    /// P-positions counted on each column and diagonal (k up to 255; one thread).
    Lines,
    /// The tiled sweep of the CA: every cell of the board (any k; every thread).
    Sweep,
}

impl MethodArg {
    /// The method for game `k`.
    pub fn resolve(self, k: u32) -> Result<palace::analysis::positions::Method> {
        use palace::analysis::positions::Method;
        match self {
            MethodArg::Auto => Ok(Method::default_for(k)),
            MethodArg::Lines if k > palace::engine::lines::MAX_K => Err(Error::Usage(format!(
                "--method lines: the line counter takes k up to {}, not {k}; use --method sweep (or leave --method out)",
                palace::engine::lines::MAX_K
            ))),
            MethodArg::Lines => Ok(Method::Lines),
            MethodArg::Sweep => Ok(Method::Sweep),
        }
    }
}

/// `--backend`: where the cells are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// The CPU engine.
    Cpu,
    /// Compute shaders on a GPU.
    Gpu,
}

/// `--backend` and `--gpu-shape` as the library's [`Backend`]: the CPU engine with `engine`'s
/// options, or a GPU with the tile shape given; over the ranks of `world` where an MPI launcher
/// started the process in one, each rank on that backend. Whether this build has a GPU is the
/// library's to say when the run starts ([`palace::Error::NoGpu`]), and so is what runs over
/// the ranks ([`palace::Error::NotDistributed`]).
pub fn backend(
    arg: BackendArg,
    shape: Option<&str>,
    engine: &EngineOptions,
    world: Option<&World>,
) -> Result<Backend> {
    let each = one_backend(arg, shape, engine)?;
    Ok(match world {
        Some(w) => Backend::Mpi(MpiOptions { world: w.clone(), each_rank: Box::new(each) }),
        None => each,
    })
}

/// The backend of one process.
fn one_backend(arg: BackendArg, shape: Option<&str>, engine: &EngineOptions) -> Result<Backend> {
    match (arg, shape) {
        (BackendArg::Cpu, Some(_)) => {
            Err(Error::Usage("--gpu-shape tunes --backend gpu; add --backend gpu or drop it".into()))
        }
        (BackendArg::Cpu, None) => Ok(Backend::Cpu(engine.clone())),
        (BackendArg::Gpu, shape) => {
            let shape = shape
                .map(|s| {
                    s.parse::<TileShape>().map_err(|why| Error::Usage(format!("--gpu-shape {s}: {why}")))
                })
                .transpose()?;
            Ok(Backend::Gpu(GpuOptions { shape, device: None }))
        }
    }
}

/// Thread counts, separated by commas: when set, every sweep records its tiles' times
/// ([`palace::engine::Timeline`]) and its profile line gives, under `"schedule"`, the seconds
/// they take scheduled on each count. `bench --series` sets it for its children.
pub const SCHEDULE_ENV: &str = "PALACE_SCHEDULE_THREADS";

/// The thread counts [`SCHEDULE_ENV`] names (none if unset; entries that are not counts are
/// left out).
pub fn schedule_threads() -> Vec<usize> {
    std::env::var(SCHEDULE_ENV)
        .map(|v| v.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_default()
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
    /// The engine settings, validated; the engine stops when `cancel` is cancelled.
    pub fn resolve(&self, cancel: &Cancel) -> Result<RunConfig> {
        palace::model::bounds::check_threads(self.threads as i64)?;
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
                cancel: cancel.clone(),
                // Only for `bench --series`, which reads the tiles' schedule from its children.
                timeline: std::env::var_os(SCHEDULE_ENV).is_some(),
                ..EngineOptions::default()
            },
            quiet: self.quiet,
        })
    }
}

impl BoardArgs {
    /// The flags that chose the cells, as the user gave them (for messages).
    pub fn named(&self) -> String {
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
        // A side below 1 is refused in the words of the flag that gave it.
        let sides = match self.size {
            Some(_) => [(Param::Size, w)].to_vec(),
            None => vec![(Param::Width, w), (Param::Height, h)],
        };
        for (param, v) in sides {
            palace::model::bounds::check_side(param, i64::from(v))?;
        }
        let board = Board::new(self.k, w, h)?;
        let window = match self.window {
            Some(c) => board.window(c)?,
            None => board.full(),
        };
        Ok((board, window))
    }
}

/// Refuses `--scale 0`.
pub fn check_scale(scale: u32) -> Result<()> {
    if scale == 0 {
        return Err(Error::Usage(
            "--scale 0: the scale is the block side in cells; use --scale 1 or more".into(),
        ));
    }
    Ok(())
}

/// Refuses a game `k` whose command also plays game k + 3 (it labels the regions): `what` says
/// why, as "regions also plays k + 3".
pub fn check_k_plus_3(k: u32, what: &str) -> Result<()> {
    let max = palace::model::rule::MAX_K - 3;
    if k > max {
        return Err(Error::Usage(format!("--k {k}: {what}; use --k <= {max}")));
    }
    Ok(())
}
