//! The application around the library: the command line and its validation ([`cli`]), what
//! each command does ([`commands`]; `positions` and `cell` in [`positions`], the GPU backend's
//! commands in [`gpu`]), the `bench` command ([`mod@bench`]), what every command prints last
//! ([`mod@print`]), progress bars ([`progress`]) and signal handling ([`signals`]). None of it is
//! exported by the library.

pub mod bench;
pub mod branches;
pub mod cli;
pub mod commands;
pub mod errors;
pub mod gpu;
pub mod memory;
pub mod positions;
pub mod print;
pub mod progress;
pub mod signals;
