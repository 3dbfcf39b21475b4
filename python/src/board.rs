//! The Python arguments that choose the cells (`k`, `size` or `width` and `height`, `window`,
//! `threads`) checked and turned into the library's [`Board`] and [`Window`], with messages
//! naming the arguments. Integers arrive as `i64` so that a negative or huge value is a
//! `ValueError` naming its argument rather than an `OverflowError` from the conversion.

use crate::errors::{to_py, type_error, value_error};
use palace::model::geometry::MAX_SIDE;
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

/// `k` as the library takes it; its bounds are the library's ([`Board::new`]).
pub fn k_arg(k: i64) -> PyResult<u32> {
    u32::try_from(k).map_err(|_| {
        value_error(format!(
            "k = {k}: k is a game from 1 to {} (k = 1 is classical Wythoff Nim)",
            palace::model::rule::MAX_K
        ))
    })
}

/// The worker threads: `None` or 0 means one per core.
pub fn threads_arg(threads: Option<i64>) -> PyResult<usize> {
    match threads {
        None => Ok(0),
        Some(t) => usize::try_from(t).ok().filter(|&t| t <= 4096).ok_or_else(|| {
            value_error(format!("threads = {t}: threads is 0..=4096 (0 or None: one per core)"))
        }),
    }
}

/// The board and window of a call, validated by the library.
pub fn board(
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
) -> PyResult<(Board, Window)> {
    let side = |name: &str, v: i64| -> PyResult<u32> {
        match u32::try_from(v) {
            Ok(s) if (1..=MAX_SIDE).contains(&s) => Ok(s),
            _ => {
                Err(value_error(format!("{name} = {v}: a side of the board is 1..={MAX_SIDE} (2**30) cells")))
            }
        }
    };
    let (w, h) = match (size, width, height) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(type_error("give the board as size=N or as width=W, height=H, not both"));
        }
        (Some(n), None, None) => (side("size", n)?, side("size", n)?),
        (None, Some(w), Some(h)) => (side("width", w)?, side("height", h)?),
        (None, Some(_), None) | (None, None, Some(_)) => {
            return Err(type_error("give both width and height (or size=N for a square board)"));
        }
        (None, None, None) => match window {
            // A window alone: the board is the smallest that holds it.
            Some((_, _, x1, y1)) => (side("window's x1", x1)?, side("window's y1", y1)?),
            None => return Err(type_error("give the board as size=N or as width=W, height=H")),
        },
    };
    let board = Board::new(k_arg(k)?, w, h).map_err(to_py)?;
    let window = match window {
        None => board.full(),
        Some((x0, y0, x1, y1)) => {
            let c = |v: i64| {
                u32::try_from(v).map_err(|_| {
                    value_error(format!(
                        "window = ({x0}, {y0}, {x1}, {y1}): corners are integers from 0 to {MAX_SIDE}"
                    ))
                })
            };
            Window::new(c(x0)?, c(y0)?, c(x1)?, c(y1)?)
        }
    };
    board.check_window(&window).map_err(to_py)?;
    Ok((board, window))
}
