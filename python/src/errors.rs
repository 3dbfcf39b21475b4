//! The library's errors as Python exceptions, worded with the Python arguments: a parameter
//! outside what a call accepts is a `ValueError` naming the argument (`k`, `size`, `window`,
//! `to`, ...), an unreadable or unwritable file an `OSError`, a cancelled run
//! `KeyboardInterrupt`, a board too large for the GPU `MemoryError`, and any other failure a `RuntimeError` with the library's message.
//! No message names a command-line flag.

use palace::Error;
use palace::error::ParameterError;
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

/// The window as Python writes the tuple.
fn tuple(w: &palace::Window) -> String {
    format!("({}, {}, {}, {})", w.x0, w.y0, w.x1, w.y1)
}

/// The Python exception for a library error.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Parameter(p) => value_error(parameter(&p)),
        Error::InvalidArgument { argument, value, expected, .. } => {
            value_error(format!("{argument} = {value} is not accepted; {expected}"))
        }
        Error::Usage(m) => value_error(m),
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        Error::Io { path, source } => {
            let code = source.raw_os_error().unwrap_or(0);
            PyOSError::new_err((code, source.to_string(), path.display().to_string()))
        }
        e @ (Error::Png { .. } | Error::PngDecode { .. } | Error::Plot { .. } | Error::BadInput { .. }) => {
            PyOSError::new_err(e.to_string())
        }
        Error::SkinUnfinished { to, rows } => PyRuntimeError::new_err(format!(
            "to = {to}: the skin did not end within {rows} rows, the bound for its columns, which assumes that the outer boundary descends in steps at least 2 columns wide (docs/skin.md, \"Small games\"); no result"
        )),
        #[cfg(feature = "gpu")]
        e @ Error::Gpu(palace::gpu::GpuError::Memory { .. } | palace::gpu::GpuError::TooLarge { .. }) => {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "{e}: ask for a smaller board, or compute it with backend=\"cpu\""
            ))
        }
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A parameter error worded with the Python argument that gave the parameter.
fn parameter(p: &ParameterError) -> String {
    use ParameterError as P;
    match p {
        P::KZero => "k = 0 is not a game: k is at least 1 (k = 1 is classical Wythoff Nim)".into(),
        P::KTooLarge { k, max } => {
            format!("k = {k} is too large: palace numbers reach 3k and must fit int32; k <= {max}")
        }
        P::SideZero { side } => {
            format!("the board {side} is 0; give size=N or width=W, height=H with N, W, H >= 1")
        }
        P::WindowEmpty { window } => format!(
            "window = {} is empty; give (x0, y0, x1, y1) with x0 < x1 and y0 < y1 (half-open)",
            tuple(window)
        ),
        P::WindowOutside { window, width, height } => {
            let fix = palace::error::inside(window, *width, *height);
            format!("window = {} lies outside the {width} x {height} board; use {fix}", tuple(window))
        }
        P::NoArm { k, min } => format!(
            "k = {k}: games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin to follow; k >= {min}"
        ),
        P::SkinEnd { to, k, max } => format!(
            "to = {to}: the skin starts at the shoulder (k, 0) = ({k}, 0) and columns stop at {max}; give {k} < to <= {max}"
        ),
        P::PanelSize { size, max } => {
            format!("size = {size}: the panels are held in memory; size is 1..={max}")
        }
        P::NoRegionCell { window, k, regions } => format!(
            "no cell of the window {} of game {k} lies in {regions}; give another window",
            tuple(window)
        ),
        // The rest word their parameters with the library's names, which are the Python ones.
        p => p.to_string(),
    }
}
