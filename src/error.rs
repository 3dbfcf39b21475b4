//! Errors of the library. Usage errors (what the user asked for cannot be done as given: bad
//! flags, impossible windows, unwritable paths) are kept apart from runtime failures (I/O,
//! encoders, analyses, failed cross-checks), so the binary can exit 2 for the former and 1 for
//! the latter. Errors of other libraries are kept as sources, not flattened into strings.

use std::path::PathBuf;

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
        /// The encoder's error.
        source: png::EncodingError,
    },
    /// Reading back a PNG failed.
    #[error("decoding PNG {path}: {source}")]
    PngDecode {
        /// The PNG being read.
        path: PathBuf,
        /// The decoder's error.
        source: png::DecodingError,
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
        "interrupted; the run so far is in the checkpoint {path} ({rows} of {height} rows done): continue it with --resume {path}"
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
        matches!(self, Error::Usage(_) | Error::InvalidArgument { .. })
    }
}

/// Result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;
