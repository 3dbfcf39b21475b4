//! The binary's errors: a usage error in the command line's own words (a flag that cannot be
//! taken as given, with the fix), or a failure of the library below, which
//! [`crate::app::errors::message`] words in the flags' names.

/// What a command can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line cannot be carried out as given; the message names the flag and the fix.
    #[error("{0}")]
    Usage(String),
    /// The library failed or refused a parameter.
    #[error(transparent)]
    Lib(#[from] palace::Error),
}

impl Error {
    /// A run stopped by its cancel token (a signal), with nothing written.
    pub const INTERRUPTED: Error = Error::Lib(palace::Error::INTERRUPTED);

    /// An I/O error with the path it concerns.
    pub fn io(path: impl Into<std::path::PathBuf>, source: std::io::Error) -> Self {
        Error::Lib(palace::Error::io(path, source))
    }

    /// Two computations that must agree did not: a bug.
    pub fn mismatch(what: impl Into<String>) -> Self {
        Error::Lib(palace::Error::Mismatch(what.into()))
    }

    /// Whether this is a usage error (exit code 2) rather than a runtime failure (exit code 1).
    pub fn is_usage(&self) -> bool {
        match self {
            Error::Usage(_) => true,
            Error::Lib(e) => e.is_usage(),
        }
    }

    /// Whether a signal stopped the run (with a checkpoint saved, or nothing written).
    pub fn is_stopped(&self) -> bool {
        matches!(self, Error::Lib(e) if e.is_interrupted() || matches!(e, palace::Error::Paused { .. }))
    }
}

impl From<palace::error::EngineError> for Error {
    fn from(e: palace::error::EngineError) -> Self {
        Error::Lib(e.into())
    }
}

impl From<palace::error::ParameterError> for Error {
    fn from(e: palace::error::ParameterError) -> Self {
        Error::Lib(e.into())
    }
}

/// Result type of the commands.
pub type Result<T, E = Error> = std::result::Result<T, E>;
