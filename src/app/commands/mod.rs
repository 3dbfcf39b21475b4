//! The commands, one module each: its clap arguments, their validation into a request, and
//! its run ([`crate::app::request`] checks each request's outputs and memory in between). The
//! games are under [`game`].

pub mod beams;
pub mod bench;
pub mod branches;
pub mod cell;
pub mod cells_bench;
pub mod check;
pub mod compare;
pub mod dump;
pub mod fabric;
pub mod game;
pub mod gliders;
pub mod gpu_info;
pub mod grid;
pub mod positions;
pub mod regions;
pub mod render;
pub mod series;
pub mod skin;
pub mod stats;
pub mod survey;
pub mod threads;
pub mod tiles;
pub mod timing;
