//! How a caller watches and stops a long game computation: the engine's [`Watch`] carries the
//! run's [`Cancel`](crate::engine::Cancel) token and its [`Progress`](crate::engine::Progress)
//! receiver into the solvers, which poll the token between steps short enough to stop within a
//! fraction of a second and report their progress in the unit they name.
//!
//! The solvers print nothing and know no command line: a cancelled run ends with
//! [`EngineError::Interrupted`](crate::error::EngineError::Interrupted), and the caller decides
//! what to say. [`Watch::NONE`] watches nothing; the solvers' plain entry points (`solve`,
//! `wins`, ...) run under it.

pub use crate::engine::Watch;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cancel, Silent};
    use crate::error::Result;

    /// A library user stops any solver by its token: each returns `Interrupted`, and a run
    /// with a fresh token beside it is not affected.
    #[test]
    fn every_solver_stops_on_its_token() {
        use crate::games::{fibonacci_nim, fraenkel, frankenstein, subtraction, zeckendorf};
        let stopped = Cancel::new();
        stopped.cancel();
        let w = Watch::new(&stopped, &Silent);
        let interrupted = |r: Result<()>| assert!(matches!(r, Err(ref e) if e.is_interrupted()));
        interrupted(fibonacci_nim::solve_watched(1000, &w).map(drop));
        interrupted(fibonacci_nim::grundy_watched(1000, &w).map(drop));
        interrupted(zeckendorf::original_range_watched(20, false, &w).map(drop));
        interrupted(zeckendorf::empty_board_watched(4, 200, &w).map(drop));
        interrupted(subtraction::solve_watched(&[1, 4, 12], 1 << 20, &w).map(drop));
        interrupted(fraenkel::sweep_watched(1 << 20, &w).map(drop));
        interrupted(
            frankenstein::solve_squares_watched(10, frankenstein::TypeTwo::Ordered, &[], &w).map(drop),
        );
        interrupted(frankenstein::solve_sum_watched(20, frankenstein::TypeTwo::Ordered, &[], &w).map(drop));
        let mut e = zeckendorf::empty_board(4, 64);
        interrupted(crate::games::claims::black_hole_watched(&mut e, 64, &w).map(drop));
        // The memo of a stopped search stays sound: the same solver answers as a fresh one.
        let mut s = zeckendorf::Solver::new(zeckendorf::Rules::black_hole(4), 0, 60);
        let mut root = [0u32; zeckendorf::MAX_COLUMNS];
        root[0] = 60;
        interrupted(s.wins_watched(&root, &w).map(drop));
        let mut fresh = zeckendorf::Solver::new(zeckendorf::Rules::black_hole(4), 0, 60);
        assert_eq!(s.wins(&root), fresh.wins(&root));
        let other = Cancel::new();
        assert!(fibonacci_nim::solve_watched(100, &Watch::new(&other, &Silent)).is_ok());
    }
}
