//! The flag groups several commands share (the board, the engine, checkpoints, the backend),
//! the value enums of the command line, and their parsers.

use super::*;

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
    pub(super) fn resolve(self) -> Result<(Option<SaveEvery>, Option<PathBuf>)> {
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
    pub(super) fn resolve(backend: BackendArg, shape: Option<&str>) -> Result<Backend> {
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

/// Engine and reporting settings shared by all commands.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The engine.
    pub engine: EngineOptions,
    /// Suppress progress and summaries.
    pub quiet: bool,
}
