//! The mathematics the rest is built on: the automaton's rule, boards and windows, the plain
//! references, and the games themselves. Nothing here is optimised; everything fast elsewhere
//! is tested against it.

pub mod bounds;
pub mod geometry;
pub mod reference;
pub mod rule;
pub mod solver;
pub mod wythoff;
