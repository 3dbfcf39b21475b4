//! The neighbouring games of k-Blocking Wythoff Nim whose analysis runs through the golden
//! ratio and Zeckendorf representations, solved exactly by exhaustive search:
//!
//! * [`fibonacci_nim`]: Fibonacci nim, its outcomes, winning first moves and Grundy values;
//! * [`zeckendorf`]: the Zeckendorf game and its black-hole and empty-board variants;
//! * [`claims`]: every checkable statement of the two texts the games come from, run against
//!   the solvers (`docs/games-claims.md`);
//! * [`plot`]: the pictures and data files of the tables;
//! * [`fib`]: what they share (Fibonacci numbers, Zeckendorf representations, mex, bit sets);
//! * [`watch`]: how a caller cancels a long solve and follows its progress.
//!
//! The solvers contain no formula from the texts: each is a plain game search over the rules,
//! tested against a second, simpler brute force; the texts' theorems are checks run on the
//! solvers' output, never inputs to them.

pub mod claims;
pub mod fib;
pub mod fibonacci_nim;
pub mod plot;
pub mod watch;
pub mod zeckendorf;

// Larsson and Fox's aperiodic subtraction game (`palace game subtraction`).
pub mod subtraction;
pub mod subtraction_claims;

// Fraenkel, *Arrays, Numeration Systems and Frankenstein Games*: the array A, the numeration
// system U, the game Frankenstein and the text's checkable statements.
pub mod fraenkel;
pub mod fraenkel_claims;
pub mod frankenstein;
