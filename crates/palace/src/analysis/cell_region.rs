//! The region of one cell (`palace cell`), as `palace regions` labels it ([`crate::labels`]).
//!
//! The hood is decided by its closed form. Any other label is decided on the 8 x 8 block that
//! holds the cell, from the cells left of and above it and from games `k + 1` and `k + 3` one
//! cell further right and down: it needs a neighbourhood of the cell, not only the rectangle
//! `[0, x] x [0, y]` its value depends on. [`region`] labels two boards from the corner: the
//! rectangle itself, and the rectangle grown to the end of the cell's block and one block more
//! (which holds everything the label reads, so a larger board labels the cell the same). When
//! the two agree the region is reported; when they differ the region is undetermined from the
//! rectangle, and the answer says so and what the neighbourhood gives.
//!
//! A block's label continues the labels of the blocks left of and above it, so no smaller board
//! than one from the corner decides it: the region costs two labelled sweeps of about
//! `(x + 1) x (y + 1)` cells of three games each ([`labelled_cells`]), far more than the cell's
//! value ([`crate::analysis::positions::cell`]), which `palace cell` therefore labels only when
//! asked or when the board is small.

use crate::engine::{EngineOptions, Progress};
use crate::error::Result;
use crate::labels::{BLOCK, Region, label_tiles};
use crate::model::geometry::Window;
use crate::model::rule::in_hood;
use serde::Serialize;
use std::fmt;

/// A cell's region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "decided", rename_all = "snake_case")]
pub enum CellRegion {
    /// In the hood, by its closed form `max(x, y) + 2 min(x, y) < k`.
    Hood,
    /// The labeller gives this region from the rectangle `[0, x] x [0, y]` and from the
    /// neighbourhood alike.
    Labelled {
        /// The region.
        region: Region,
    },
    /// The rectangle does not decide the label: it differs from the neighbourhood's.
    Undetermined {
        /// What the rectangle alone gives.
        rectangle: Region,
        /// What the neighbourhood (the cell's block completed, and one block more) gives.
        neighbourhood: Region,
    },
}

impl fmt::Display for CellRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellRegion::Hood => write!(f, "hood (closed form max(x, y) + 2 min(x, y) < k)"),
            CellRegion::Labelled { region } => write!(f, "{}", region.name()),
            CellRegion::Undetermined { rectangle, neighbourhood } => write!(
                f,
                "undetermined: the labeller decides on 8 x 8 blocks, and the cells it depends on do not decide the block (they give {}, the block completed with one block more gives {})",
                rectangle.name(),
                neighbourhood.name()
            ),
        }
    }
}

/// The label of `(x, y)` on the board `[0, x1) x [0, y1)` of game `k`, by the tiled labeller
/// on the sweep's workers ([`label_tiles`]): the tile that holds the cell is read, no row is
/// kept.
fn label_on(
    k: u32,
    x: u32,
    y: u32,
    x1: u32,
    y1: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Region> {
    let found = label_tiles(
        k,
        Window::new(0, 0, x1, y1)?,
        opts,
        progress,
        &[],
        || None,
        |found, t| {
            if (t.x0..t.x1).contains(&x) && (t.y0..t.y1).contains(&y) {
                *found = Some(Region::from_index(t.labels(y)[(x - t.x0) as usize]));
            }
        },
    )?;
    Ok(found.into_iter().flatten().next().expect("the cell's tile is labelled"))
}

/// The cells [`region`] labels for the cell `(x, y)`, over the three games the labeller sweeps:
/// the rectangle `[0, x] x [0, y]` and the neighbourhood (0 in the hood, which is decided by
/// its closed form). What the region costs, to be told before it is asked for.
pub fn labelled_cells(k: u32, x: u32, y: u32) -> u64 {
    if in_hood(k, u64::from(x), u64::from(y)) {
        return 0;
    }
    let rectangle = (u64::from(x) + 1) * (u64::from(y) + 1);
    let neighbourhood = u64::from(neighbourhood_end(x)) * u64::from(neighbourhood_end(y));
    3 * (rectangle + neighbourhood)
}

/// The side of the neighbourhood that holds everything the label of coordinate `c` reads: the
/// end of its block, and one block more.
pub fn neighbourhood_end(c: u32) -> u32 {
    let b = BLOCK as u32;
    (c / b + 2) * b
}

/// The region of cell `(x, y)` of game `k`.
pub fn region(k: u32, x: u32, y: u32, opts: &EngineOptions, progress: &dyn Progress) -> Result<CellRegion> {
    if in_hood(k, u64::from(x), u64::from(y)) {
        return Ok(CellRegion::Hood);
    }
    let rectangle = label_on(k, x, y, x + 1, y + 1, opts, progress)?;
    let neighbourhood = label_on(k, x, y, neighbourhood_end(x), neighbourhood_end(y), opts, progress)?;
    Ok(if rectangle == neighbourhood {
        CellRegion::Labelled { region: rectangle }
    } else {
        CellRegion::Undetermined { rectangle, neighbourhood }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;
    use crate::labels::label;

    #[test]
    fn cells_get_the_label_of_a_larger_board() {
        // The whole 3k x 3k board labelled once, as `palace regions` labels it; each cell asked
        // alone gets the same region, or is undetermined with the board's region as its
        // neighbourhood's.
        let k = 60u32;
        let side = 3 * k;
        let mut board = vec![Region::Hood; (side * side) as usize];
        label(
            k,
            Window::new(0, 0, side, side).unwrap(),
            &EngineOptions::default(),
            &Silent,
            &[],
            |_| (),
            |r| {
                board[(r.y * side) as usize..((r.y + 1) * side) as usize].copy_from_slice(&r.labels);
                Ok(())
            },
        )
        .unwrap();
        let (mut labelled, mut undetermined) = (0, 0);
        for (x, y) in [
            (3, 4),
            (70, 2),
            (2, 70),
            (100, 40),
            (40, 100),
            (61, 60),
            (150, 20),
            (120, 121),
            (97, 13),
            (13, 97),
            (170, 170),
            (25, 55),
        ] {
            let want = board[(y * side + x) as usize];
            match region(k, x, y, &EngineOptions::default(), &Silent).unwrap() {
                CellRegion::Hood => assert!(in_hood(k, u64::from(x), u64::from(y)) && want == Region::Hood),
                CellRegion::Labelled { region } => {
                    assert_eq!(region, want, "({x}, {y})");
                    labelled += 1;
                }
                CellRegion::Undetermined { neighbourhood, rectangle } => {
                    assert_eq!(neighbourhood, want, "({x}, {y})");
                    assert_ne!(rectangle, neighbourhood);
                    undetermined += 1;
                }
            }
        }
        assert!(labelled >= 6, "{labelled} labelled, {undetermined} undetermined");
    }
}
