//! `palace game`: the games lab's games, one module each, solved exactly by exhaustive search;
//! what they share (a worker pool, a progress bar, the table of a text's checks) in `common`.

use crate::app::error::Result;
use crate::app::print::ExitCode;
use crate::app::request::Context;
use clap::{Args, Subcommand};

mod common;
pub mod fibonacci_nim;
pub mod fraenkel_array;
pub mod fraenkel_u;
pub mod frankenstein;
pub mod subtraction;
pub mod zeckendorf;

/// `palace game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// Which game.
    #[command(subcommand)]
    pub game: GameCommand,
}

/// The games.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Fibonacci nim: one pile, the first move takes 1..n-1 coins, every later move at most
    /// twice the previous one; taking the last coin wins.
    ///
    /// Prints, for n = 1..N, who wins from the start and every winning first move; with
    /// --grundy, the Grundy values G(n, q) (q = the current quota) for n, q <= N.
    FibonacciNim(fibonacci_nim::FibonacciNimArgs),
    /// The Zeckendorf game and its black-hole variants (last player to move wins).
    ///
    /// Without --hole: the original game from n pieces in F_1 (columns 1, 2, 3, 5, 8, ...;
    /// moves merge, add, split). With --hole M: the empty-board game with a black hole on F_M
    /// (players alternately place one piece in F_1 or F_{M-1}, then play the moves; a piece
    /// landing on F_M or beyond is removed). Prints the winner for every n = 1..N.
    Zeckendorf(zeckendorf::ZeckendorfArgs),
    /// A subtraction game: a move takes s tokens for some s in the set S (Larsson and Fox's
    /// S = {F(2n+1) - 1} = {1, 4, 12, 33, 88, ...} unless --set names another).
    ///
    /// Computes the Grundy values g(0..N) by the plain mex recursion and prints the largest
    /// value, how many piles have each value and any period of the last half; --check runs the
    /// paper's statements (Lemma 1, Theorem 2 and the steps of their proofs).
    Subtraction(subtraction::SubtractionArgs),
    /// Fraenkel's array A: A_0^n = mex of the earlier rows, A_1^n = 2 A_0^n + n,
    /// A_j^n = 3 A_{j-1}^n - A_{j-2}^n (Fraenkel, Arrays, Numeration Systems and Frankenstein
    /// Games).
    ///
    /// Prints rows 0..N-1; with --check, builds every entry up to X and checks Theorem I,
    /// Theorem 1, Theorem 2 (i)-(iv), Lemmas 1-3 and Tables 1 and 2 of the text.
    FraenkelArray(fraenkel_array::FraenkelArrayArgs),
    /// The representation of each number over Fraenkel's ternary system U (basis 1, 3, 8, 21,
    /// 55, ...; digits 0, 1, 2 with a 0 between any two 2s), most significant digit first.
    FraenkelU(fraenkel_u::FraenkelUArgs),
    /// Frankenstein: coins on a strip with a hole at 0; type I and type II moves (Fraenkel).
    ///
    /// Solves every position on squares 1..N exhaustively and checks Theorem 3 (the P-positions
    /// are the empty strip and the row prefixes of Fraenkel's array): (A) no move between two
    /// claimed positions with squares up to --bound, (B) a move into one from every other
    /// position on the strip.
    Frankenstein(frankenstein::FrankensteinArgs),
}

/// Validates and runs the game named.
pub fn run(a: GameArgs, ctx: &Context) -> Result<ExitCode> {
    match a.game {
        GameCommand::FibonacciNim(a) => fibonacci_nim::run(a, ctx),
        GameCommand::Zeckendorf(a) => zeckendorf::run(a, ctx),
        GameCommand::Subtraction(a) => subtraction::run(a, ctx),
        GameCommand::FraenkelArray(a) => fraenkel_array::run(a, ctx),
        GameCommand::FraenkelU(a) => fraenkel_u::run(a, ctx),
        GameCommand::Frankenstein(a) => frankenstein::run(a, ctx),
    }
}
