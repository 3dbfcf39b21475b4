//! The blocking-queen automaton's three-counter sweep in compute shaders.
//!
//! `palace-gpu` computes the cells of a board of k-Blocking Wythoff Nim on a GPU, through
//! [`wgpu`] (Vulkan, Metal or DirectX 12; in CI, Mesa's software Vulkan), and tallies the values
//! of a window of it: the histogram of `v = N - k` outside the hood, and the first cell in
//! row-major order of its smallest and largest value. It knows nothing of the `palace`
//! library: the `palace` crate turns a [`Tally`] into its statistics and checks every result
//! against its CPU engine.
//!
//! ```no_run
//! use palace_gpu::{Gpu, Job, Shape, Watch};
//!
//! let gpu = Gpu::open()?;
//! println!("adapter: {}", gpu.adapter());
//! // Game 500 on a 1500 x 1500 board, the whole board as the window.
//! let job = Job::board(500, 1500, 1500, Shape::default());
//! let tally = gpu.tally(&job, &Watch::NONE)?;
//! let palaces: u64 = tally.counts[..128].iter().sum();
//! println!("{palaces} palaces outside the hood; smallest value {:?}", tally.min);
//! # Ok::<(), palace_gpu::GpuError>(())
//! ```
//!
//! # How a board is cut
//!
//! The region `[0, width) x [0, height)` that the window depends on is rounded up to whole
//! tiles of [`Shape::width`] columns and [`Shape::height`] rows. Tile `(i, j)` reads only the
//! counters left by tiles `(i - 1, j)` and `(i, j - 1)`, so the tiles of one anti-diagonal
//! `i + j = d` are independent: one dispatch computes them all, and the dispatches run in
//! order of `d`. See `src/tally.wgsl` for the work inside a tile.
//!
//! # Exactness
//!
//! The counters are exact 32-bit counts (a line holds at most `k` palaces, and `3k` fits 32
//! bits for every accepted `k`), so every cell's `N` and sign are exact, hood included. Only
//! the tally is narrow: it holds values in `-limit..limit` ([`Job::limit`], at most 128, the
//! range of the CPU engine's bytes). A cell of the window outside the hood whose value lies
//! beyond it stops the run with [`GpuError::ValueRange`], naming the first such cell in
//! row-major order; nothing wraps silently.

mod device;
mod error;
mod job;
mod palaces;
mod shader;
mod shape;
mod skin;

pub use device::{Adapter, Gpu};
pub use error::GpuError;
pub use job::{Cell, Job, Tally};
pub use palaces::{PalaceBatch, PalaceSweep, PalacesJob};
pub use shape::Shape;
pub use skin::{Flow, KeptTile, SkinBatch, SkinFrontier, SkinJob, SkinSweep, TilesJob};

/// The caller's watch of a run (the engine's one handle): progress in tiles (its length, then
/// the tiles done), and the cancel token, looked at between submissions.
pub use palace_engine::engine::Watch;
