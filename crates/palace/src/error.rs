//! The library's errors: the engine's ([`EngineError`], wrapped), and what the layers of this
//! crate add: outputs (PNG, plots, paths), the analyses, the checkpoints of long runs and the
//! GPU backend, each with its concrete source. Usage errors (a parameter outside what a call
//! accepts, an output path that cannot be used) are kept apart from runtime failures, so that a
//! front end can exit 2 for the former and 1 for the latter; parameters come as data
//! ([`ParameterError`]) that each front end words in its own names.

use std::path::PathBuf;

pub use palace_engine::error::{
    Bound, CheckpointProblem, Error as EngineError, LibraryWords, Param, ParameterError, Part, Value,
    Vocabulary,
};

/// Everything that can go wrong in `palace`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine failed, or refused what it was asked (see [`EngineError`]).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A parameter of an analysis or an output is outside what the call accepts. A usage
    /// error.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// A library function was given an argument it does not accept; nothing was computed. A
    /// usage error.
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
    /// An output path that cannot be written as asked (a folder, a link, a name too long, a
    /// file the run would overwrite); the message names the path by the name the caller gave
    /// it. A usage error.
    #[error("{0}")]
    OutputPath(String),
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
    #[error("drawing the plot {path}: {message}")]
    Plot {
        /// The plot being drawn.
        path: PathBuf,
        /// The plotting library's message (its error type borrows the drawing area).
        message: String,
    },
    /// An input file is not what the reader expects.
    #[error("{path}: {reason}")]
    BadInput {
        /// The file read.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
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
    /// An analysis met data it cannot measure (the board does not have the shape the
    /// analysis follows); the message says where.
    #[error("{0}")]
    Analysis(String),
    /// Two computations that must agree did not: a cross-check found a bug.
    #[error("{0}; this is a bug, please report it")]
    Mismatch(String),
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
    /// The GPU backend was asked for, but this build has none (the cargo feature `gpu` is
    /// off). A usage error.
    #[error("the GPU backend was asked for, but this build of palace has none (the cargo feature gpu)")]
    NoGpu,
    /// This process was started by an MPI launcher as one of `ranks` ranks, but this build has
    /// no MPI backend (the cargo feature `mpi` is off): each rank would run alone. A usage
    /// error.
    #[error(
        "this process is one of {ranks} MPI ranks, but this build of palace has no MPI backend (the cargo feature mpi), so each rank would run the whole command alone"
    )]
    NoMpi {
        /// The ranks the launcher started.
        ranks: usize,
    },
    /// A run was asked of the ranks of an MPI world that does not run over them yet. A usage
    /// error.
    #[error("{what} does not run over MPI ranks yet; run it as one process (without mpirun, or with -np 1)")]
    NotDistributed {
        /// What was asked, in words.
        what: &'static str,
    },
    /// The ranks of an MPI world were given different runs (each rank must be started with the
    /// same command). A usage error.
    #[error(
        "rank {rank} and rank {other} were given different runs ({detail}); start every rank with the same command"
    )]
    RanksDisagree {
        /// The rank that found it.
        rank: usize,
        /// A rank it disagrees with.
        other: usize,
        /// What differs.
        detail: String,
    },
    /// The GPU backend failed: no adapter, a device error, a board too large for the device.
    #[cfg(feature = "gpu")]
    #[error("GPU backend: {0}")]
    Gpu(palace_gpu::GpuError),
}

impl Error {
    /// The engine's [`EngineError::Interrupted`]: a run stopped by its cancel token.
    pub const INTERRUPTED: Error = Error::Engine(EngineError::Interrupted);

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    /// Whether the run was interrupted (by its cancel token), with nothing written.
    pub fn is_interrupted(&self) -> bool {
        matches!(self, Error::Engine(EngineError::Interrupted))
    }

    /// The parameter error this is, the engine's or this crate's.
    pub fn parameter(&self) -> Option<&ParameterError> {
        match self {
            Error::Parameter(p) | Error::Engine(EngineError::Parameter(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether the GPU refused the run for want of memory or of binding size: a smaller board,
    /// or the CPU, is the fix (false in a build without the GPU backend).
    pub fn is_gpu_too_large(&self) -> bool {
        #[cfg(feature = "gpu")]
        return matches!(
            self,
            Error::Gpu(palace_gpu::GpuError::Memory { .. } | palace_gpu::GpuError::TooLarge { .. })
        );
        #[cfg(not(feature = "gpu"))]
        false
    }

    /// Whether this is a usage error (exit code 2) rather than a runtime failure (exit code 1).
    pub fn is_usage(&self) -> bool {
        match self {
            Error::Engine(e) => e.is_usage(),
            Error::Parameter(_)
            | Error::InvalidArgument { .. }
            | Error::OutputPath(_)
            | Error::NoGpu
            | Error::NoMpi { .. }
            | Error::NotDistributed { .. }
            | Error::RanksDisagree { .. } => true,
            _ => false,
        }
    }
}

/// Result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The GPU backend's errors: an interruption and a value out of the tally's range are the
/// engine's own [`EngineError::Interrupted`] and [`EngineError::ValueRange`]; the rest stay GPU
/// errors.
#[cfg(feature = "gpu")]
impl From<palace_gpu::GpuError> for Error {
    fn from(e: palace_gpu::GpuError) -> Self {
        match e {
            palace_gpu::GpuError::Interrupted => Error::INTERRUPTED,
            palace_gpu::GpuError::ValueRange { x, y, v, .. } => {
                EngineError::ValueRange { x: u64::from(x), y: u64::from(y), value: i64::from(v) }.into()
            }
            e => Error::Gpu(e),
        }
    }
}
