//! The engine's errors: what the engine itself raises. Usage errors (a parameter or argument
//! the engine does not accept, a setting of the environment) are kept apart from runtime
//! failures (a value out of range, a corrupt checkpoint, an interruption), so that a front end
//! can exit 2 for the former and 1 for the latter. The layers above wrap this type in their
//! own (`palace::Error`) and add their failures; this crate knows nothing of them.

mod parameter;

use std::path::PathBuf;

pub use parameter::{Bound, LibraryWords, Param, ParameterError, Part, Value, Vocabulary};

/// Everything the engine can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter is outside what the call accepts; the data say which and why, and each front
    /// end words it in its own names ([`Vocabulary`]). A usage error.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// A library function was given an argument it does not accept (an empty list of lanes, a
    /// kernel this CPU lacks, a builder step for another mode, a frontier of another sweep);
    /// nothing was computed. A usage error.
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
    /// An environment variable the engine reads holds a value it does not accept. A usage
    /// error.
    #[error("{variable}={value:?} is {expected}")]
    Environment {
        /// The variable.
        variable: &'static str,
        /// Its value.
        value: String,
        /// What is accepted.
        expected: &'static str,
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
    /// A checkpoint file is not what the reader expects.
    #[error("{path}: {reason}")]
    BadInput {
        /// The file read.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
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
    /// The worker pool could not be started.
    #[error("cannot start {threads} worker threads: {source}")]
    ThreadPool {
        /// The threads asked for.
        threads: usize,
        /// Why the pool failed.
        source: rayon::ThreadPoolBuildError,
    },
    /// The run was interrupted (its [`Cancel`](crate::engine::Cancel) token was cancelled);
    /// nothing was written.
    #[error("interrupted; no output was written")]
    Interrupted,
    /// A strip of a striped sweep ([`crate::engine::strips`]) got a message from its neighbour
    /// that it cannot use.
    #[error("strip {strip}: {problem}")]
    Strip {
        /// The strip.
        strip: usize,
        /// What was wrong.
        problem: String,
    },
    /// The engine stopped because another part of the run failed first.
    #[error("the sweep was aborted")]
    Aborted,
}

impl Error {
    /// Whether this is a usage error (exit code 2) rather than a runtime failure (exit code 1).
    pub fn is_usage(&self) -> bool {
        match self {
            Error::Parameter(_) | Error::InvalidArgument { .. } | Error::Environment { .. } => true,
            Error::Checkpoint { problem, .. } => !matches!(problem, CheckpointProblem::Corrupt),
            _ => false,
        }
    }
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

/// Result type of the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;
