//! `palace-engine` computes the palace numbers of k-Blocking Wythoff Nim by the fourth-order
//! cellular automaton of Cook, Larsson and Neary (AUTOMATA 2015), exactly and in bounded
//! memory. It is the lowest floor of `palace`: the `palace` library (outputs, analyses, the
//! games lab) and the `palace` binary stand on it, and re-export its modules under the same
//! names (`palace::engine` is this crate's [`engine`]).
//!
//! The folders are the layers, each depending only on those above it in this list:
//!
//! * [`error`]: the engine's error type ([`Error`]), with the typed parameter errors
//!   ([`error::ParameterError`]) that every front end words in its own names;
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
//!   progress and cancels a run.
//!
//! How a sweep is cut into bands and tiles, the frontier protocol and the kernels' exactness
//! argument are in the design notes beside the engine's code, `src/engine/README.md`.
#![warn(missing_docs)]

pub mod engine;
pub mod error;
pub mod kernel;
pub mod model;
pub mod simd;
#[doc(hidden)]
pub mod testing;

pub use error::{Error, Result};
pub use model::geometry::{Board, Corners, Window};
