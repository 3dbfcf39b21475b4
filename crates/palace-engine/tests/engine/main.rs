//! The engine's integration tests: every kernel against the exact wide kernel, the sweeps
//! against the direct definition on many games, windows, tilings, thread counts and kernels, the
//! counter sweep with its pauses, and the paper's Fig. 1. One binary, a module per area; the
//! helpers they share are in `palace_engine::testing`.

mod counter_sweep;
mod engine_vs_direct;
mod kernels;
mod paper_fig1;
mod strips;
