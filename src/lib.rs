//! `palace` computes, draws and measures the blocking-queen cellular automaton of Cook,
//! Larsson and Neary (AUTOMATA 2015): the palace numbers of k-Blocking Wythoff Nim.
//!
//! * [`rule`]: the k-independent rule, the initial condition and the closed-form hood;
//! * [`engine`]: the tiled, parallel, bounded-memory sweep that hands rows to a [`sink`];
//! * [`kernel`]: the tile kernels (exact scalar reference and fast narrow ones);
//! * [`reference`]: the direct definition (three counters) and the plain CA, for checking;
//! * [`solver`]: an exact solver of the game itself, by brute force over game states;
//! * the consumers: [`render`] (PNG), [`npy`] (NumPy export), [`stats`];
//! * [`check`]: the cross-check of the engine against the game solver;
//! * [`bench`]: the baseline against the fast engine, timed.
#![warn(missing_docs)]

pub mod bench;
pub mod check;
pub mod cli;
pub mod commands;
pub mod compare;
pub mod cpu;
pub mod deflate;
pub mod engine;
pub mod error;
pub mod fabric;
pub mod geometry;
pub mod histogram;
pub mod interrupt;
pub mod kernel;
pub mod multi;
pub mod npy;
pub mod output;
pub mod palette;
pub mod pngpar;
pub mod progress;
pub mod reference;
pub mod regions;
pub mod render;
pub mod rule;
pub mod sink;
pub mod skin;
pub mod solver;
pub mod stats;
pub mod wythoff;

pub use error::{Error, Result};
pub use geometry::{Board, Window};
