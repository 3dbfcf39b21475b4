//! The integration tests: one binary, one module per area (the engine against the direct
//! definition, the kernels, the commands end to end, the analyses, the games, reliability),
//! with the helpers they share in `common`.

mod common;

mod analyses;
mod analyses_tiled;
mod beams;
mod branches;
mod cli;
mod compare_search;
mod counter_sweep;
mod engine_vs_direct;
mod fraenkel;
mod game;
mod games;
mod games_signals;
mod gliders;
mod gpu;
mod grid;
mod kernels;
mod paper_fig1;
mod positions;
mod region_map;
mod region_search;
mod reliability;
mod series;
mod skin;
mod skin_pattern;
mod subtraction;
mod survey;
mod threads;
mod tiles;
