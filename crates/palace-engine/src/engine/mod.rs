//! The engine: computes any window of any board with the CA, in memory bounded by the width,
//! and hands the window's rows out in order to a [`RowSink`](crate::engine::sink::RowSink).
//!
//! The region `[0, x1) x [0, y1)` that the window depends on is cut into tiles (`layout`),
//! each tile is classified and computed (`tile`, with the kernels of [`crate::kernel`]), and
//! the tiles are swept by a pool of workers in a staggered wavefront (`sweep`). Cells outside
//! the window are computed as needed but never stored beyond the few bands in flight. A
//! counter sweep may also run as column strips that exchange only their edges ([`strips`]),
//! the seam of a sweep over several processes.
//!
//! `src/engine/README.md` is the design note: how a sweep is cut into bands and tiles, the
//! wavefront, which kernel computes which tile and why every path is exact, the frontier
//! protocol that pauses and resumes a sweep, and the strips.

pub mod checkpoint;
pub mod control;
mod counted;
mod front;
mod layout;
pub mod lines;
pub mod lockstep;
mod options;
mod report;
pub mod sink;
pub mod strips;
mod sweep;
mod tile;
pub mod timeline;
mod visit;

pub use control::{Cancel, Progress, Silent, Watch};
pub use front::Sweep;
pub use layout::Lane;
pub use options::{EngineOptions, available_cores, resolve_threads};
pub use report::{SweepReport, WorkerTimes};
pub use timeline::Timeline;
pub use visit::{
    KeptTile, LaneState, LaneTiles, LaneVisitor, PalaceTile, PalaceVisitor, TileKind, TileView, TileVisitor,
};
