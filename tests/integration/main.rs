//! The binary's integration tests: one binary, one module per area (the commands end to end,
//! the analyses through the command line, the games, reliability), with the helpers they share
//! in `common`. The engine's tests are in `crates/palace-engine/tests`, the library's in
//! `crates/palace/tests`.

mod common;

mod analyses_tiled;
mod beams;
mod branches;
mod cli;
mod compare_search;
mod fraenkel;
mod games;
mod games_signals;
mod gliders;
mod gpu;
mod grid;
mod mpi;
mod positions;
mod region_map;
mod region_search;
mod reliability;
mod series;
mod subtraction;
mod survey;
mod threads;
mod tiles;
