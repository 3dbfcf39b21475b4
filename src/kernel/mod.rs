//! Tile kernels: each computes one rectangular tile of the board from its halo (the two rows
//! above it and the two columns to its left, RULE.md's neighbourhood reaching back two steps).
//!
//! * [`wide`] is the plain scalar kernel in exact 64-bit arithmetic; it handles every tile,
//!   including those touching the hood or the initial condition, and it is the reference
//!   the narrow kernels are tested against bit for bit.
//!
//! The kernel to use is picked at run time ([`KernelChoice`]); shipped builds never assume a
//! CPU feature at compile time.

pub mod wide;

use clap::ValueEnum;

/// Which tile kernel the engine uses outside the hood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum KernelChoice {
    /// The fastest kernel this CPU supports.
    #[default]
    Auto,
    /// The exact 64-bit scalar kernel everywhere (slow; the reference).
    Wide,
}

impl KernelChoice {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            KernelChoice::Auto => "auto",
            KernelChoice::Wide => "wide",
        }
    }
}
