//! The application around the library: the command line and its validation ([`cli`]), what
//! each command does ([`commands`]), the `bench` command ([`bench`]), progress bars
//! ([`progress`]) and signal handling ([`signals`]). None of it is exported by the library.

pub mod bench;
pub mod cli;
pub mod commands;
pub mod gpu;
pub mod memory;
pub mod positions;
pub mod print;
pub mod progress;
pub mod signals;
