//! Errors of the library. Usage errors (what the user asked for cannot be done as given: bad
//! flags, impossible windows, unwritable paths) are kept apart from runtime failures (I/O,
//! encoders, analyses, failed cross-checks), so the binary can exit 2 for the former and 1 for
//! the latter. Errors of other libraries are kept as sources, not flattened into strings.

use std::path::PathBuf;

use crate::model::geometry::Window;

/// Everything that can go wrong in `palace`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be carried out as given; the message names the flag and the fix.
    #[error("{0}")]
    Usage(String),
    /// A library function was given an argument it does not accept (k = 0, an empty window, a
    /// kernel this CPU lacks, lanes of different sizes); nothing was computed.
    #[error("{function}: {argument} = {value} is not accepted; {expected}")]
    InvalidArgument {
        /// The function called.
        function: &'static str,
        /// The argument refused.
        argument: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A parameter is outside what the call accepts; the data say which and why (the binary
    /// words it in its own flags). A usage error.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// The skin did not end within the rows that bound its columns up to `to`; no result.
    #[error(
        "to = {to}: the skin did not end within {rows} rows, the bound for its columns, which assumes that the outer boundary descends in steps at least 2 columns wide; the run stops without a result"
    )]
    SkinUnfinished {
        /// The last column followed.
        to: u64,
        /// The rows swept.
        rows: u32,
    },
    /// A checkpoint this run cannot continue from: corrupt (a runtime failure), or written by
    /// another version or for another run (usage errors).
    #[error("{}: {problem}", path.display())]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        problem: CheckpointProblem,
    },
    /// A value outside the hood does not fit the engine's 8-bit cell store.
    #[error(
        "the CA value {value} at (x = {x}, y = {y}) lies outside the 8-bit range the fast engine stores \
         (outside the hood values are expected to stay within a few units of 0); \
         no output was written"
    )]
    ValueRange {
        /// Column of the offending cell.
        x: u64,
        /// Row of the offending cell.
        y: u64,
        /// Its exact value.
        value: i64,
    },
    /// An input or output file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// PNG encoding failed.
    #[error("writing PNG {path}: {source}")]
    Png {
        /// The PNG being written.
        path: PathBuf,
        /// The encoder's error (a `png::EncodingError`).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Reading back a PNG failed.
    #[error("decoding PNG {path}: {source}")]
    PngDecode {
        /// The PNG being read.
        path: PathBuf,
        /// The decoder's error (a `png::DecodingError`).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Drawing a plot failed.
    #[error("drawing the plot {path}: {source}")]
    Plot {
        /// The plot being drawn.
        path: PathBuf,
        /// The plotting library's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// An input file is not what the reader expects.
    #[error("{path}: {reason}")]
    BadInput {
        /// The file read.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The worker pool could not be started.
    #[error("cannot start {threads} worker threads: {source}")]
    ThreadPool {
        /// The threads asked for.
        threads: usize,
        /// Why the pool failed.
        source: rayon::ThreadPoolBuildError,
    },
    /// An analysis met data it cannot measure (the board does not have the shape the
    /// analysis follows); the message says where.
    #[error("{0}")]
    Analysis(String),
    /// Two computations that must agree did not: a cross-check found a bug.
    #[error("{0}; this is a bug, please report it")]
    Mismatch(String),
    /// The run was interrupted (Ctrl-C); nothing was written.
    #[error("interrupted; no output was written")]
    Interrupted,
    /// The run was interrupted after writing a checkpoint of its progress.
    #[error(
        "interrupted; the run so far is in the checkpoint {path} ({rows} of {height} rows done), from which it can be resumed"
    )]
    Paused {
        /// The checkpoint.
        path: PathBuf,
        /// Rows done.
        rows: u32,
        /// Rows in all.
        height: u32,
    },
    /// The GPU backend failed: no adapter, a device error, a board too large for the device.
    #[cfg(feature = "gpu")]
    #[error("GPU backend: {0}")]
    Gpu(palace_gpu::GpuError),
    /// The engine stopped because another part of the run failed first.
    #[error("the sweep was aborted")]
    Aborted,
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    /// Whether this is a usage error (exit code 2) rather than a runtime failure (exit code 1).
    pub fn is_usage(&self) -> bool {
        match self {
            Error::Usage(_) | Error::InvalidArgument { .. } | Error::Parameter(_) => true,
            Error::Checkpoint { problem, .. } => !matches!(problem, CheckpointProblem::Corrupt),
            _ => false,
        }
    }
}

/// A parameter outside what a call accepts, as data: which parameter, the value given and the
/// bound it breaks (in the spirit of the `image` crate's `ParameterErrorKind`). The messages use
/// the library's names for the parameters; the binary rewords them with its flags.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParameterError {
    /// k = 0: there is no such game.
    #[error("k = 0 is not a game: k is at least 1 (k = 1 is classical Wythoff Nim)")]
    KZero,
    /// k is so large that palace numbers would not fit int32.
    #[error("k = {k} is too large: palace numbers reach 3k and must fit int32; k <= {max}")]
    KTooLarge {
        /// The k given.
        k: u32,
        /// The largest k accepted.
        max: u32,
    },
    /// A side of the board is 0.
    #[error("the board {side} is 0; width and height are at least 1")]
    SideZero {
        /// `"width"` or `"height"`.
        side: &'static str,
    },
    /// The window is empty.
    #[error("the window {window} is empty; x0 < x1 and y0 < y1 (half-open)")]
    WindowEmpty {
        /// The window given.
        window: Window,
    },
    /// The window reaches past the board.
    #[error("the window {window} lies outside the {width} x {height} board; {}", inside(window, *.width, *.height))]
    WindowOutside {
        /// The window given.
        window: Window,
        /// The board's width.
        width: u32,
        /// The board's height.
        height: u32,
    },
    /// The beams picture at this scale would be too many pixels to keep in memory.
    #[error(
        "scale {scale}: the beams picture of the window would be {width} x {height} pixels, more than the {max} it keeps in memory; scale {min_scale} or more, or a smaller window"
    )]
    PictureTooLarge {
        /// The scale given.
        scale: u32,
        /// The picture's width in pixels.
        width: u32,
        /// The picture's height in pixels.
        height: u32,
        /// The most pixels kept.
        max: u64,
        /// The smallest scale that fits.
        min_scale: u64,
    },
    /// No grid window of the fabric fits in game k.
    #[error("k = {k}: no window of the fabric fits between the nose and 1.25 k")]
    NoGridWindow {
        /// The game.
        k: u32,
    },
    /// The window holds no fabric cell above the diagonal.
    #[error(
        "the window {window} has no cell labelled fabric above the diagonal; the fabric lies along the diagonal from the nose ({nose}, {nose}) to about 1.6 k"
    )]
    NoFabric {
        /// The window given.
        window: Window,
        /// The nose, (k - 1) / 3.
        nose: u32,
    },
    /// The panels' side is 0 or too large to hold in memory.
    #[error("size {size}: the panels are held in memory; size is 1..={max}")]
    PanelSize {
        /// The side given.
        size: u32,
        /// The largest side.
        max: u32,
    },
    /// The game has no arm, so no skin.
    #[error(
        "k = {k}: games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin; k >= {min}"
    )]
    NoArm {
        /// The game.
        k: u32,
        /// The smallest game with a skin.
        min: u32,
    },
    /// The skin cannot be followed to column `to`.
    #[error(
        "to = {to}: the skin starts at the shoulder ({k}, 0) and columns stop at {max}; {k} < to <= {max}"
    )]
    SkinEnd {
        /// The column given.
        to: u64,
        /// The game.
        k: u32,
        /// The largest column.
        max: u32,
    },
    /// The region search's radius is too large.
    #[error("radius {radius}: at most {max}")]
    RegionRadius {
        /// The radius given.
        radius: u32,
        /// The largest radius.
        max: u32,
    },
    /// The region search's shifted window reaches past the largest coordinate.
    #[error("radius {radius}: the shifted window reaches past the largest coordinate, {max} (2^30)")]
    RegionPastSide {
        /// The radius given.
        radius: u32,
        /// The largest coordinate.
        max: u32,
    },
    /// The shift search's centre lies too far from 0.
    #[error("shift ({dx}, {dy}): a shift lies within {max} (2^30) of 0")]
    ShiftTooFar {
        /// The centre's x shift.
        dx: i64,
        /// The centre's y shift.
        dy: i64,
        /// The largest shift.
        max: u32,
    },
    /// Every shift searched moves the window off the board.
    #[error(
        "shift ({dx}, {dy}), radius {radius}: every shift searched moves the window {window} off the board"
    )]
    ShiftsOffBoard {
        /// The centre's x shift.
        dx: i64,
        /// The centre's y shift.
        dy: i64,
        /// The radius given.
        radius: u32,
        /// The window given.
        window: Window,
    },
    /// The shift search would make too many comparisons.
    #[error("radius {radius}: {shifts} shifts of a window of {cells} cells is more than {max} comparisons")]
    SearchTooLarge {
        /// The radius given.
        radius: u32,
        /// The shifts searched.
        shifts: u64,
        /// The cells of the window.
        cells: u64,
        /// The most comparisons.
        max: u64,
    },
    /// The shift search's shifted window reaches past the largest coordinate.
    #[error("radius {radius}: the shifted window reaches past {max}")]
    ShiftPastSide {
        /// The radius given.
        radius: u32,
        /// The largest coordinate.
        max: u32,
    },
    /// No cell of the window lies in the regions searched.
    #[error("no cell of the window {window} of game {k} lies in {regions}")]
    NoRegionCell {
        /// The window given.
        window: Window,
        /// The game.
        k: u32,
        /// The regions, named.
        regions: String,
    },
}

/// Why a checkpoint cannot be continued by this run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointProblem {
    /// Its checksum does not match: the file is corrupt or truncated.
    #[error("the checkpoint is corrupt or truncated (its checksum does not match)")]
    Corrupt,
    /// Another version of palace, or another checkpoint format, wrote it.
    #[error(
        "written by palace {version} (checkpoint format {format}), not by this palace {ours} (format {our_format})"
    )]
    Version {
        /// The version that wrote it.
        version: String,
        /// Its format.
        format: u32,
        /// This version.
        ours: &'static str,
        /// This version's format.
        our_format: u32,
    },
    /// It is the checkpoint of another run.
    #[error("the checkpoint is of the run `{found}`, not of this one, `{tag}`")]
    Run {
        /// The run it was written for.
        found: String,
        /// This run.
        tag: String,
    },
}

/// The bound a window outside a `width x height` board breaks first: `x1 <= width` or `y1 <=
/// height`.
pub fn inside(window: &Window, width: u32, height: u32) -> String {
    if window.x1 > width { format!("x1 <= {width}") } else { format!("y1 <= {height}") }
}

/// Result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The GPU backend's errors: an interruption and a value out of the tally's range are the
/// engine's own [`Error::Interrupted`] and [`Error::ValueRange`]; the rest stay GPU errors.
#[cfg(feature = "gpu")]
impl From<palace_gpu::GpuError> for Error {
    fn from(e: palace_gpu::GpuError) -> Self {
        match e {
            palace_gpu::GpuError::Interrupted => Error::Interrupted,
            palace_gpu::GpuError::ValueRange { x, y, v, .. } => {
                Error::ValueRange { x: u64::from(x), y: u64::from(y), value: i64::from(v) }
            }
            e => Error::Gpu(e),
        }
    }
}
