//! The Python arguments that choose the cells (`k`, `size` or `width` and `height`, `window`,
//! `threads`) checked and turned into the library's [`Board`] and [`Window`], with messages
//! naming the arguments. Integers arrive as `i64` so that a negative or huge value is a
//! `ValueError` naming its argument rather than an `OverflowError` from the conversion.

use crate::errors::{to_py, type_error, value_error};
use palace::error::Param;
use palace::model::bounds::{check_corners, check_k, check_side, check_threads};
use palace::{Board, Window};
use pyo3::PyResult;

/// `value` as a `u32` argument named `name`, at least `min`.
pub fn u32_arg(name: &str, value: i64, min: u32) -> PyResult<u32> {
    match u32::try_from(value) {
        Ok(v) if v >= min => Ok(v),
        _ => Err(value_error(format!("{name} = {value}: {name} is an integer from {min} to {}", u32::MAX))),
    }
}

/// `value` as a `u64` argument named `name`, at least `min`.
pub fn u64_arg(name: &str, value: i64, min: u64) -> PyResult<u64> {
    match u64::try_from(value) {
        Ok(v) if v >= min => Ok(v),
        _ => Err(value_error(format!("{name} = {value}: {name} is an integer, at least {min}"))),
    }
}

/// `k` as the library takes it, within the library's bounds ([`check_k`]).
pub fn k_arg(k: i64) -> PyResult<u32> {
    check_k(Param::K, k).map_err(to_py)
}

/// The worker threads: `None` or 0 means one per core; the library's bounds ([`check_threads`]).
pub fn threads_arg(threads: Option<i64>) -> PyResult<usize> {
    check_threads(threads.unwrap_or(0)).map_err(to_py)
}

/// The board and window of a call, validated by the library.
pub fn board(
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
) -> PyResult<(Board, Window)> {
    let side = |param: Param, v: i64| check_side(param, v).map_err(to_py);
    let corners = window.map(|(x0, y0, x1, y1)| check_corners(x0, y0, x1, y1).map_err(to_py)).transpose()?;
    let (w, h) = match (size, width, height) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(type_error("give the board as size=N or as width=W, height=H, not both"));
        }
        (Some(n), None, None) => (side(Param::Size, n)?, side(Param::Size, n)?),
        (None, Some(w), Some(h)) => (side(Param::Width, w)?, side(Param::Height, h)?),
        (None, Some(_), None) | (None, None, Some(_)) => {
            return Err(type_error("give both width and height (or size=N for a square board)"));
        }
        (None, None, None) => match corners {
            // A window alone: the board is the smallest that holds it.
            Some(c) => (side(Param::Width, i64::from(c.x1))?, side(Param::Height, i64::from(c.y1))?),
            None => return Err(type_error("give the board as size=N or as width=W, height=H")),
        },
    };
    let board = Board::new(k_arg(k)?, w, h).map_err(to_py)?;
    let window = match corners {
        None => board.full(),
        Some(c) => board.window(c).map_err(to_py)?,
    };
    Ok((board, window))
}
