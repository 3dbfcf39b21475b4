//! `palace` computes, draws and measures the blocking-queen cellular automaton of Cook,
//! Larsson and Neary (AUTOMATA 2015): the palace numbers of k-Blocking Wythoff Nim. The rule
//! and why it holds are specified in `docs/rule.md`.
//!
//! The folders are the layers, each depending only on those above it in this list:
//!
//! * [`model`]: the mathematics: the k-independent [`model::rule`], boards and windows
//!   ([`model::geometry`]), the plain references every fast path is tested against
//!   ([`model::reference`]), an exact solver of the game ([`model::solver`]) and classical
//!   Wythoff Nim ([`model::wythoff`]);
//! * [`simd`]: instruction-set detection ([`simd::cpu`], `PALACE_ISA`) and the value
//!   histogram ([`simd::histogram`]);
//! * [`kernel`]: the tile kernels: the exact scalar one and the fast narrow ones (portable,
//!   AVX2, AVX-512);
//! * [`engine`]: the tiled, parallel, bounded-memory sweep that hands rows to a
//!   [`engine::sink::RowSink`] or tiles to a [`engine::TileVisitor`], several games in
//!   lockstep ([`engine::lockstep`]), and the [`engine::control`] through which a caller sees
//!   progress and cancels a run;
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
//! `palace` binary (`src/app/`), not to this library: nothing here takes a clap or indicatif
//! type, and there is no process-wide state.
#![warn(missing_docs)]

pub mod analysis;
pub mod engine;
pub mod error;
pub mod games;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod kernel;
pub mod labels;
pub mod model;
pub mod output;
pub mod simd;
#[cfg(test)]
mod testing;

pub use error::{Error, Result};
pub use model::geometry::{Board, Window};
