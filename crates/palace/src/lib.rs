//! `palace` computes, draws and measures the blocking-queen cellular automaton of Cook,
//! Larsson and Neary (AUTOMATA 2015): the palace numbers of k-Blocking Wythoff Nim. The rule
//! and why it holds are specified in `docs/rule.md`.
//!
//! It stands on the engine crate, [`palace_engine`], whose modules it re-exports under the
//! same names, so that `palace::engine`, `palace::model`, `palace::kernel`, `palace::simd` and
//! `palace::error` are the engine's. Its own folders are the layers above the engine, each
//! depending only on those above it in this list:
//!
//! * [`output`]: files that appear whole or not at all ([`output::atomic`]), the PNG writers
//!   ([`output::png`], [`output::pngpar`], [`output::deflate`]), the palette and `.npy` export;
//! * [`labels`]: the region labeller that tells the paper's regions apart, cell by cell, on one
//!   thread ([`labels::label`]) or on the sweep's workers ([`labels::label_tiles`],
//!   [`labels::label_rows`]);
//! * [`analysis`]: what is measured on the sweep: statistics, comparisons of two games,
//!   regions, fabrics, the arm's skin, and the cross-check against the game solver;
//! * [`games`]: the neighbouring Fibonacci games (Fibonacci nim, the Zeckendorf game and its
//!   black-hole variants) solved exactly, with the checks of their texts' claims.
//!
//! The command line, the `bench` command, progress bars and signal handling belong to the
//! `palace` binary (`src/app/` at the workspace's root), not to this library: nothing here
//! takes a clap or indicatif type, and there is no process-wide state.
#![warn(missing_docs)]

pub mod analysis;
pub mod games;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod labels;
pub mod output;

#[cfg(test)]
pub(crate) use palace_engine::testing;
pub use palace_engine::{Board, Error, Result, Window};
pub use palace_engine::{engine, error, kernel, model, simd};
