//! The bounds of boards and windows: what [`Board::new`] and [`Board::check_window`] accept,
//! refused with a typed [`ParameterError`] (or, for a side beyond [`MAX_SIDE`], a usage
//! error) that every caller words in its own terms.

use crate::error::{Error, ParameterError, Result};
use crate::model::geometry::{Board, MAX_SIDE, Window};
use crate::model::rule::MAX_K;

impl Board {
    /// Checks `k` and the sides ([`crate::error::ParameterError`] names what is wrong).
    pub fn new(k: u32, width: u32, height: u32) -> Result<Self> {
        if k == 0 {
            return Err(ParameterError::KZero.into());
        }
        if k > MAX_K {
            return Err(ParameterError::KTooLarge { k, max: MAX_K }.into());
        }
        for (side, v) in [("width", width), ("height", height)] {
            if v == 0 {
                return Err(ParameterError::SideZero { side }.into());
            }
            if v > MAX_SIDE {
                return Err(Error::Usage(format!(
                    "the board {side} {v} is larger than the supported {MAX_SIDE}"
                )));
            }
        }
        Ok(Board { k, width, height })
    }

    /// Checks that `w` is a non-empty window inside this board.
    pub fn check_window(&self, w: &Window) -> Result<()> {
        if w.x0 >= w.x1 || w.y0 >= w.y1 {
            return Err(ParameterError::WindowEmpty { window: *w }.into());
        }
        if w.x1 > self.width || w.y1 > self.height {
            return Err(
                ParameterError::WindowOutside { window: *w, width: self.width, height: self.height }.into()
            );
        }
        Ok(())
    }
}
