//! What a sweep hands out: the visitors of its tiles ([`TileVisitor`], [`PalaceVisitor`],
//! [`LaneVisitor`]) and the views they get ([`TileView`], [`PalaceTile`], [`LaneTiles`],
//! [`KeptTile`]).

use crate::model::geometry::Window;
use std::time::Duration;

/// What a [`LaneVisitor`] leaves for the tiles below and to the right of the one it visited.
pub type LaneState = Box<dyn std::any::Any + Send + Sync>;

/// An analysis run by the workers on the aligned tiles of several games (see [`Sweep::lanes`](crate::engine::Sweep::lanes)).
pub trait LaneVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with tile `(strip, band)` of every lane; returns
    /// the state the tiles below and to the right will see.
    fn visit(&self, worker: usize, tiles: &LaneTiles<'_>) -> LaneState;
}

/// Tile `(strip, band)` of every lane of a [`Sweep::lanes`](crate::engine::Sweep::lanes).
pub struct LaneTiles<'a> {
    /// The strip (column of tiles).
    pub strip: usize,
    /// The band (row of tiles).
    pub band: usize,
    /// Strips in a band.
    pub strips: usize,
    /// Bands in the sweep.
    pub bands: usize,
    /// One view per lane, in the lanes' order, each in its own board's coordinates.
    pub views: &'a [TileView<'a>],
    /// The state of the tile above (`None` in the first band).
    pub above: Option<&'a (dyn std::any::Any + Send + Sync)>,
    /// The state of the tile to the left (`None` in the first strip).
    pub left: Option<&'a (dyn std::any::Any + Send + Sync)>,
}

/// An analysis of the palaces of a counter sweep (see [`Sweep::palaces`](crate::engine::Sweep::palaces)).
pub trait PalaceVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with each finished tile.
    fn visit(&self, worker: usize, tile: &PalaceTile<'_>);

    /// Whether the visitor needs the values of the tile `[x0, x1) x [y0, y1)` and not only its
    /// palaces (asked before the tile is computed): such a tile is computed by the CA's paths,
    /// as in [`Sweep::tiles`](crate::engine::Sweep::tiles), and comes with [`PalaceTile::values`]. For the few tiles an
    /// analysis looks into, such as those along a boundary it follows.
    fn wants_values(&self, _x0: u32, _y0: u32, _x1: u32, _y1: u32) -> bool {
        false
    }

    /// Whether the visitor needs the counts of every tile's values (statistics): a tile the
    /// counter kernel computes then tallies its values as it goes and comes with
    /// [`PalaceTile::counts`] (and, along the hood, [`PalaceTile::pieces`] with the cells the
    /// kernel did not compute); every other tile (the hood, quiet tiles, tiles the kernel cannot
    /// take) comes with [`PalaceTile::values`]. Exactly one of counts and values is given.
    fn wants_counts(&self) -> bool {
        false
    }

    /// With [`PalaceVisitor::wants_counts`]: asked once a counter tile's counts are known
    /// (indexed by `v + 128`), whether the visitor needs the tile's values instead, for
    /// instance to find where an extreme value first occurs. Such a tile is computed again by
    /// the CA's paths and comes with its values and without counts.
    fn wants_values_too(&self, _x0: u32, _y0: u32, _x1: u32, _y1: u32, _counts: &[u64; 256]) -> bool {
        false
    }

    /// The time the visitor has spent so far, inside [`PalaceVisitor::visit`], on work only one
    /// worker at a time may do (a consumer it runs under a lock): the sweep reports what it
    /// adds as [`WorkerTimes::serial`](crate::engine::WorkerTimes::serial). The default: none.
    fn serial(&self) -> Duration {
        Duration::ZERO
    }
}

/// One finished tile of a counter sweep: the rectangle `[x0, x1) x [y0, y1)`.
pub struct PalaceTile<'a> {
    /// The game.
    pub k: u32,
    /// First column.
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    /// Palaces in the tile.
    pub palaces: u64,
    /// The counters leaving the tile, modulo 256 (see [`crate::kernel::counter::Edges`]).
    pub leaving: &'a crate::kernel::counter::Edges,
    /// The tile's values, where [`PalaceVisitor::wants_values`] asked for them (or
    /// [`PalaceVisitor::wants_counts`], for the tiles it gets no counts of).
    pub values: Option<TileView<'a>>,
    /// The same values, for a visitor that reads them after its visit: cloning it keeps the
    /// tile alive, without copying its cells (`Some` exactly when `values` is).
    pub kept: Option<&'a KeptTile>,
    /// The counts of the tile's values by `v + 128`, where [`PalaceVisitor::wants_counts`]
    /// asked for them and the counter kernel computed the tile (or part of it).
    pub counts: Option<&'a [u64; 256]>,
    /// With `counts`, the cells of the tile that the counter kernel did not compute (the exact
    /// parts of a tile along the hood), which the counts leave out.
    pub pieces: &'a [TileView<'a>],
}

/// An analysis run by the workers on every finished tile (see [`Sweep::tiles`](crate::engine::Sweep::tiles)).
pub trait TileVisitor: Sync {
    /// Called by worker `worker` (`0..threads`) with the part of a tile inside the window.
    fn visit(&self, worker: usize, tile: &TileView<'_>);
}

/// A finished tile's values that a [`PalaceVisitor`] keeps past its visit
/// ([`PalaceTile::kept`]). Clones share the tile; its buffer goes back to the worker that
/// computed it when the last clone is dropped.
#[derive(Clone)]
pub struct KeptTile(std::sync::Arc<Kept>);

pub(crate) struct Kept {
    k: u32,
    tile: super::tile::Tile,
    rect: super::layout::Rect,
    window: Window,
}

impl KeptTile {
    /// The tile's part inside the window, or `None` if it has none.
    pub(crate) fn new(
        k: u32,
        tile: super::tile::Tile,
        rect: super::layout::Rect,
        window: Window,
    ) -> Option<Self> {
        TileView::new(k, &tile, &rect, window)?;
        Some(KeptTile(std::sync::Arc::new(Kept { k, tile, rect, window })))
    }

    /// The tile's values, as [`PalaceTile::values`] shows them.
    pub fn view(&self) -> TileView<'_> {
        let Kept { k, tile, rect, window } = &*self.0;
        TileView::new(*k, tile, rect, *window).expect("a kept tile meets the window")
    }
}

/// The part of a finished tile that lies inside the window: rows `y0..y1`, columns `x0..x1`.
pub struct TileView<'a> {
    /// The game.
    pub k: u32,
    /// First column (board coordinates).
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    /// What the tile holds.
    pub kind: TileKind<'a>,
}

/// What a [`TileView`] holds.
pub enum TileKind<'a> {
    /// Every cell is 0 (quiet outer space).
    Zero,
    /// Every cell lies in the hood (values by the closed form).
    Hood,
    /// Computed cells; [`TileView::row`] gives them.
    Cells {
        /// The tile's buffer.
        buf: &'a crate::kernel::TileBuf,
        /// The tile's own first column and row (the buffer's origin).
        origin: (u32, u32),
    },
}

impl<'a> TileView<'a> {
    pub(crate) fn new(
        k: u32,
        tile: &'a super::tile::Tile,
        rect: &super::layout::Rect,
        window: Window,
    ) -> Option<Self> {
        let (x0, x1) = (rect.x0.max(window.x0), rect.x1.min(window.x1));
        let (y0, y1) = (rect.y0.max(window.y0), rect.y1.min(window.y1));
        if x0 >= x1 || y0 >= y1 {
            return None;
        }
        let kind = match tile {
            super::tile::Tile::Zero => TileKind::Zero,
            super::tile::Tile::Hood => TileKind::Hood,
            super::tile::Tile::Cells(buf) => TileKind::Cells { buf, origin: (rect.x0, rect.y0) },
            super::tile::Tile::Aborted => return None,
            super::tile::Tile::Edges { .. } => {
                unreachable!("a tile is visited before it is cut to its edges")
            }
        };
        Some(TileView { k, x0, x1, y0, y1, kind })
    }

    /// The stored cells of row `y` over `x0..x1` (hood cells hold their sign-preserving
    /// stand-in, as in [`Row`](crate::engine::sink::Row)); `None` for [`TileKind::Zero`] and
    /// [`TileKind::Hood`] tiles.
    pub fn row(&self, y: u32) -> Option<&'a [i8]> {
        match self.kind {
            TileKind::Cells { buf, origin: (tx, ty) } => {
                Some(&buf.row((y - ty) as usize)[(self.x0 - tx) as usize..(self.x1 - tx) as usize])
            }
            _ => None,
        }
    }

    /// The stored cells of row `y` over `x0..x1` whatever the tile's kind: borrowed from the
    /// tile, or written to `scratch` (zeros, or the hood's stand-ins).
    pub fn row_or<'s>(&'s self, y: u32, scratch: &'s mut Vec<i8>) -> &'s [i8] {
        if let Some(r) = self.row(y) {
            return r;
        }
        scratch.clear();
        match self.kind {
            TileKind::Hood => crate::model::rule::hood_sentinel_row(
                self.k,
                u64::from(y),
                u64::from(self.x0),
                u64::from(self.x1),
                scratch,
            ),
            _ => scratch.resize((self.x1 - self.x0) as usize, 0),
        }
        scratch
    }
}
