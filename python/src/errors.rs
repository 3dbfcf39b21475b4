//! The library's errors as Python exceptions, worded with the Python arguments: a parameter
//! outside what a call accepts is a `ValueError` naming the argument (`k`, `size`, `window`,
//! `to`, ...), an unreadable or unwritable file (or a path where none can be written) an
//! `OSError`, a cancelled run `KeyboardInterrupt`, a board too large for the GPU
//! `MemoryError`, and any other failure a `RuntimeError` with the library's message. No
//! message names a command-line flag.

use palace::Error;
use palace::error::{CheckpointProblem, EngineError, LibraryWords, Param, Value, Vocabulary};
use pyo3::PyErr;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyTypeError, PyValueError};

/// A `ValueError` with `msg`.
pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A `TypeError` with `msg`.
pub fn type_error(msg: impl Into<String>) -> PyErr {
    PyTypeError::new_err(msg.into())
}

/// The Python package's name table: each library parameter by the argument that gives it, a
/// window as a tuple, a setting as `name=value`.
pub struct Args;

impl Vocabulary for Args {
    fn name(&self, p: Param) -> String {
        p.name().to_string()
    }

    fn value(&self, v: &Value) -> String {
        match v {
            // Strings as Python writes them.
            Value::Text(t) => format!("'{t}'"),
            v => LibraryWords.value(v),
        }
    }

    fn given(&self, p: Param, v: &Value) -> String {
        format!("{} = {}", p.name(), self.value(v))
    }

    fn set(&self, p: Param, value: &str) -> String {
        LibraryWords.set(p, value)
    }
}

/// The Python exception for a library error.
pub fn to_py(e: impl Into<Error>) -> PyErr {
    let e = e.into();
    if let Some(p) = e.parameter() {
        return value_error(p.render(&Args));
    }
    if e.is_interrupted() {
        return PyKeyboardInterrupt::new_err("interrupted");
    }
    match e {
        Error::InvalidArgument { argument, value, expected, .. }
        | Error::Engine(EngineError::InvalidArgument { argument, value, expected, .. }) => {
            value_error(format!("{argument} = {value} is not accepted; {expected}"))
        }
        // A checkpoint of another run or another version: the argument that named it is wrong.
        Error::Engine(EngineError::Checkpoint { path, problem }) if problem != CheckpointProblem::Corrupt => {
            value_error(format!("resume = '{}': {problem}", path.display()))
        }
        // A path the picture cannot be written to (no such folder, a folder, a name too long).
        Error::OutputPath(m) => PyOSError::new_err(m),
        Error::NoGpu => value_error(NO_GPU),
        Error::Io { path, source } => {
            let code = source.raw_os_error().unwrap_or(0);
            PyOSError::new_err((code, source.to_string(), path.display().to_string()))
        }
        e @ (Error::Png { .. }
        | Error::PngDecode { .. }
        | Error::Plot { .. }
        | Error::BadInput { .. }
        | Error::Engine(EngineError::BadInput { .. })) => PyOSError::new_err(e.to_string()),
        Error::SkinUnfinished { to, rows } => PyRuntimeError::new_err(format!(
            "to = {to}: the skin did not end within {rows} rows, the bound for its columns, which assumes that the outer boundary descends in steps at least 2 columns wide (docs/skin.md, \"Small games\"); no result"
        )),
        e if e.is_gpu_too_large() => pyo3::exceptions::PyMemoryError::new_err(format!(
            "{e}: ask for a smaller board, or compute it with backend=\"cpu\""
        )),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// What `backend = 'gpu'` says in a build without the GPU backend.
pub const NO_GPU: &str = "backend = 'gpu': this build of palace has no GPU backend (the cargo feature gpu of palace-py; docs/python.md says how to build it); use backend = 'cpu'";
