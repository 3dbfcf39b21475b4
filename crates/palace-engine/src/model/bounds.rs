//! The bounds of games, boards and windows: what [`Board::new`] and [`Board::check_window`]
//! accept, refused with a typed [`ParameterError`] that every front end words in its own names.
//! Each bound is written here once.

use crate::error::{Bound, Param, ParameterError, Result};
use crate::model::geometry::{Board, MAX_SIDE, Window};
use crate::model::rule::MAX_K;

/// Refuses a game that does not exist (`k = 0`) or whose palace numbers would not fit int32.
pub fn check_k(param: Param, k: u32) -> std::result::Result<(), ParameterError> {
    if k == 0 {
        return Err(ParameterError::new(param, k)
            .bound(Bound::Between(1, i64::from(MAX_K)))
            .text(" is not a game: k is at least 1 (k = 1 is classical Wythoff Nim)"));
    }
    if k > MAX_K {
        return Err(ParameterError::new(param, k)
            .bound(Bound::Between(1, i64::from(MAX_K)))
            .text(" is too large: palace numbers reach 3k and must fit int32; use ")
            .name(param)
            .text(format!(" <= {MAX_K}")));
    }
    Ok(())
}

/// Refuses a board side of 0 or beyond [`MAX_SIDE`].
pub fn check_side(param: Param, v: u32) -> std::result::Result<(), ParameterError> {
    if v == 0 {
        return Err(ParameterError::about(param, v)
            .bound(Bound::Between(1, i64::from(MAX_SIDE)))
            .text(format!("the board {} is 0; give ", param.name()))
            .set(Param::Size, "N")
            .text(" or ")
            .set(Param::Width, "W")
            .text(" ")
            .set(Param::Height, "H")
            .text(" with N, W, H >= 1"));
    }
    if v > MAX_SIDE {
        return Err(ParameterError::new(param, v)
            .bound(Bound::Between(1, i64::from(MAX_SIDE)))
            .text(format!(" is larger than the supported {MAX_SIDE} (2^30)")));
    }
    Ok(())
}

impl Board {
    /// Checks `k` and the sides ([`ParameterError`] names what is wrong).
    pub fn new(k: u32, width: u32, height: u32) -> Result<Self> {
        check_k(Param::K, k)?;
        check_side(Param::Width, width)?;
        check_side(Param::Height, height)?;
        Ok(Board { k, width, height })
    }

    /// Checks that `w` is a non-empty window inside this board.
    pub fn check_window(&self, w: &Window) -> Result<()> {
        if w.x0 >= w.x1 || w.y0 >= w.y1 {
            return Err(ParameterError::new(Param::Window, *w)
                .text(" is empty; give x0 < x1 and y0 < y1 (half-open)")
                .into());
        }
        if w.x1 > self.width || w.y1 > self.height {
            let fix = if w.x1 > self.width {
                format!("x1 <= {}", self.width)
            } else {
                format!("y1 <= {}", self.height)
            };
            return Err(ParameterError::new(Param::Window, *w)
                .bound(Bound::Inside { width: self.width, height: self.height })
                .text(format!(" lies outside the {} x {} board; use {fix}", self.width, self.height))
                .into());
        }
        Ok(())
    }
}
