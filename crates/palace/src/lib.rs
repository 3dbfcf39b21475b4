//! `palace` computes, draws and measures the blocking-queen cellular automaton of Cook,
//! Larsson and Neary (AUTOMATA 2015): the palace numbers of k-Blocking Wythoff Nim. The rule
//! and why it holds are specified in `docs/rule.md`.
//!
//! ```
//! use palace::analysis::stats;
//! use palace::engine::{EngineOptions, Silent};
//! use palace::Window;
//!
//! // Statistics of the 1500 x 1500 board of game k = 500 (the README's picture), on every core:
//! // cells, palaces, the extreme values and where they first occur, the values' histogram.
//! let opts = EngineOptions::default();
//! let (s, _report) = stats::stats(500, Window::new(0, 0, 1500, 1500)?, &opts, &Silent)?;
//! // The three-counter form counts the same palaces without computing the values.
//! let (count, _report) = stats::palaces(500, 1500, 1500, &opts, &Silent)?;
//! assert_eq!(s.total.palaces, count.palaces);
//! println!("{s}");
//! # Ok::<(), palace::Error>(())
//! ```
//!
//! It stands on the engine crate, [`palace_engine`], whose modules it re-exports under the
//! same names, so that `palace::engine`, `palace::model`, `palace::kernel` and `palace::simd` are
//! the engine's; [`error`] is this crate's, wrapping the engine's errors. Its own folders are
//! the layers above the engine, each depending only on those above it in this list:
//!
//! * [`output`]: files that appear whole or not at all ([`output::atomic`]), the PNG writers
//!   ([`output::png`], [`output::pngpar`], [`output::deflate`]), the palette and `.npy` export;
//! * [`resume`]: long runs that pause and resume, one trait ([`resume::Resumable`]) and one
//!   driver ([`resume::drive`]) for their checkpoints;
//! * [`labels`]: the region labeller that tells the paper's regions apart, cell by cell, on one
//!   thread ([`labels::label`]) or on the sweep's workers ([`labels::label_tiles`],
//!   [`labels::label_rows`]);
//! * [`analysis`]: what is measured on the sweep: statistics, comparisons of two games,
//!   regions, fabrics, the arm's skin, and the cross-check against the game solver;
//! * [`backend`]: where a run computes its cells, the CPU engine or a GPU, chosen once: the
//!   entry points of the runs that have a GPU path dispatch on [`backend::Backend`];
//! * [`games`]: the neighbouring Fibonacci games (Fibonacci nim, the Zeckendorf game and its
//!   black-hole variants) solved exactly, with the checks of their texts' claims.
//!
//! The command line, the `bench` command, progress bars and signal handling belong to the
//! `palace` binary (`src/app/` at the workspace's root), not to this library: nothing here
//! takes a clap or indicatif type, and there is no process-wide state.
#![warn(missing_docs)]

pub mod analysis;
pub mod backend;
pub mod error;
pub mod games;
pub mod labels;
pub mod output;
pub mod resume;

pub use error::{Error, Result};
/// Helpers the tests of every crate share (a deterministic random stream).
#[doc(hidden)]
pub use palace_engine::testing;
pub use palace_engine::{Board, Window};
pub use palace_engine::{engine, kernel, model, simd};
