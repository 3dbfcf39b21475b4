//! Errors of the library. Usage errors (bad flags, impossible windows, unwritable paths) are
//! kept apart from runtime failures so the binary can exit 2 for the former and 1 for the
//! latter (STYLE.md, "Errors").

use std::path::PathBuf;

/// Everything that can go wrong in `palace`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be carried out as given; the message names the flag and the fix.
    #[error("{0}")]
    Usage(String),
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
    #[error("writing PNG {path}: {message}")]
    Png {
        /// The PNG being written.
        path: PathBuf,
        /// The encoder's message.
        message: String,
    },
    /// The run was interrupted (Ctrl-C); nothing was written.
    #[error("interrupted; no output was written")]
    Interrupted,
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
        matches!(self, Error::Usage(_))
    }
}

/// Result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;
