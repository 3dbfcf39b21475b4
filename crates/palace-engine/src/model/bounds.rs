//! The bounds of games, boards, windows and thread counts: what [`check_k`], [`Board::new`],
//! [`Board::window`] and [`Window::new`] accept, refused with a typed [`ParameterError`] that
//! every front end words in its own names. Each bound is written here once; the front ends
//! (the command line, Python) parse their numbers and hand them here.

use crate::error::{Bound, Param, ParameterError};
use crate::model::geometry::{Board, Corners, MAX_SIDE, Window};
use crate::model::rule::MAX_K;

/// Most worker threads a run may ask for.
pub const MAX_THREADS: usize = 1024;

/// A parameter's result: the value accepted, or why not.
pub type Checked<T> = std::result::Result<T, ParameterError>;

/// Game `k` as `param` gives it: from 1 (a game) to [`MAX_K`] (palace numbers reach `3k` and
/// must fit int32).
pub fn check_k(param: Param, k: i64) -> Checked<u32> {
    let bound = Bound::Between(1, i64::from(MAX_K));
    if k < 1 {
        return Err(ParameterError::new(param, k)
            .bound(bound)
            .text(" is not a game: k is at least 1 (k = 1 is classical Wythoff Nim)"));
    }
    if k > i64::from(MAX_K) {
        return Err(ParameterError::new(param, k)
            .bound(bound)
            .text(" is too large: palace numbers reach 3k and must fit int32; use ")
            .name(param)
            .text(format!(" <= {MAX_K}")));
    }
    Ok(k as u32)
}

/// A side of the board (`param`: [`Param::Size`], [`Param::Width`] or [`Param::Height`]): from
/// 1 to [`MAX_SIDE`].
pub fn check_side(param: Param, v: i64) -> Checked<u32> {
    let bound = Bound::Between(1, i64::from(MAX_SIDE));
    if v < 1 {
        return Err(ParameterError::new(param, v)
            .bound(bound)
            .text(": the board needs at least one cell; use ")
            .name(param)
            .text(" 1 or more"));
    }
    if v > i64::from(MAX_SIDE) {
        return Err(ParameterError::new(param, v)
            .bound(bound)
            .text(format!(" is larger than the supported {MAX_SIDE} (2^30); use "))
            .name(param)
            .text(format!(" <= {MAX_SIDE}")));
    }
    Ok(v as u32)
}

/// Worker threads: 0 (one per core) to [`MAX_THREADS`].
pub fn check_threads(threads: i64) -> Checked<usize> {
    if !(0..=MAX_THREADS as i64).contains(&threads) {
        return Err(ParameterError::new(Param::Threads, threads)
            .bound(Bound::Between(0, MAX_THREADS as i64))
            .text(format!(": worker threads are 0 (one per core) to {MAX_THREADS}; use fewer")));
    }
    Ok(threads as usize)
}

/// Four corners as given, each from 0 to [`MAX_SIDE`]: a [`Corners`] to check as a window.
pub fn check_corners(x0: i64, y0: i64, x1: i64, y1: i64) -> Checked<Corners> {
    let c = |v: i64| u32::try_from(v).ok().filter(|&v| v <= MAX_SIDE);
    match (c(x0), c(y0), c(x1), c(y1)) {
        (Some(x0), Some(y0), Some(x1), Some(y1)) => Ok(Corners { x0, y0, x1, y1 }),
        _ => Err(ParameterError::new(
            Param::Window,
            crate::error::Value::Text(format!("({x0}, {y0}, {x1}, {y1})")),
        )
        .bound(Bound::Between(0, i64::from(MAX_SIDE)))
        .text(format!(": corners are whole numbers from 0 to {MAX_SIDE} (2^30)"))),
    }
}

impl Board {
    /// The board of game `k` with `width` columns and `height` rows, each checked
    /// ([`check_k`], [`check_side`]).
    pub fn new(k: u32, width: u32, height: u32) -> Checked<Self> {
        let k = check_k(Param::K, i64::from(k))?;
        let width = check_side(Param::Width, i64::from(width))?;
        let height = check_side(Param::Height, i64::from(height))?;
        Ok(Board { k, width, height })
    }

    /// The window of this board with corners `c`: non-empty and inside the board.
    pub fn window(&self, c: Corners) -> Checked<Window> {
        let window = Window::new(c.x0, c.y0, c.x1, c.y1)?;
        if c.x1 > self.width || c.y1 > self.height {
            let fix = if c.x1 > self.width {
                format!("x1 <= {}", self.width)
            } else {
                format!("y1 <= {}", self.height)
            };
            return Err(ParameterError::new(Param::Window, window)
                .bound(Bound::Inside { width: self.width, height: self.height })
                .text(format!(" lies outside the {} x {} board; use {fix}", self.width, self.height)));
        }
        Ok(window)
    }
}

impl Window {
    /// The window `[x0, x1) x [y0, y1)`: at least one cell, and `x1, y1 <= MAX_SIDE`.
    pub fn new(x0: u32, y0: u32, x1: u32, y1: u32) -> Checked<Self> {
        let w = Window { x0, y0, x1, y1 };
        if x0 >= x1 || y0 >= y1 {
            return Err(
                ParameterError::new(Param::Window, w).text(" is empty; give x0 < x1 and y0 < y1 (half-open)")
            );
        }
        if x1 > MAX_SIDE || y1 > MAX_SIDE {
            return Err(ParameterError::new(Param::Window, w)
                .bound(Bound::Inside { width: MAX_SIDE, height: MAX_SIDE })
                .text(format!(" reaches past the largest side, {MAX_SIDE} (2^30)")));
        }
        Ok(w)
    }

    /// The board `[0, width) x [0, height)` as a window.
    pub fn board(width: u32, height: u32) -> Checked<Self> {
        Window::new(0, 0, width, height)
    }
}
