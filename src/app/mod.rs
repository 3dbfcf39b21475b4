//! The application around the library: the command line ([`cli`]), each command in its module
//! ([`commands`]), and what the commands share below them: the flag groups ([`flags`]), the
//! path from a validated request to its run ([`request`]), the checks of the output files
//! ([`outputs`]) and of memory ([`memory`]), checkpoints ([`checkpoint`]), what every command
//! prints ([`mod@print`]), the commands' errors ([`error`]) and their messages in the flags' words ([`errors`]), progress bars ([`progress`])
//! and signal handling ([`signals`]). None of it is exported by the library.

pub mod checkpoint;
pub mod cli;
pub mod commands;
pub mod error;
pub mod errors;
pub mod flags;
pub mod memory;
pub mod outputs;
pub mod print;
pub mod progress;
pub mod request;
pub mod signals;
