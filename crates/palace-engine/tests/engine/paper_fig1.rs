//! The paper's Fig. 1 and its worked example (Cook, Larsson and Neary, *A Cellular Automaton
//! for Blocking Queen Games*, §1, "Example Game", and the caption of Fig. 1): game 5 on an
//! 11 x 11 board, `(0, 0)` top left. The figure itself prints colours, not numbers; the text
//! states the palace numbers below through the caption's legend (0 dark brown, 1 dark olive,
//! 2 olive, 3 light olive, 4 yellow, 5 black, 6 blue, 7 indigo). They are transcribed here as
//! a fixture and compared with the palace numbers of the exact game solver
//! ([`palace_engine::model::solver`], which knows nothing of palace numbers), of the direct
//! definition and of the engine, cell by cell.

use palace_engine::testing as common;

use palace_engine::engine::EngineOptions;
use palace_engine::model::geometry::Window;
use palace_engine::model::reference::direct_palace_numbers;
use palace_engine::model::solver::p_positions;

const K: u32 = 5;
const SIDE: usize = 11;

/// What the text says of single cells: `(x, y)` and the palace numbers it allows.
const FIXTURE: &[((usize, usize), &[u32], &str)] = &[
    ((3, 3), &[4], "the queen at (3,3), yellow"),
    ((0, 0), &[0], "blocked, dark brown"),
    ((1, 1), &[3], "blocked, light olive"),
    ((0, 3), &[3], "blocked, light olive"),
    ((3, 0), &[3], "blocked, light olive"),
    ((3, 1), &[5, 6], "A's option, black or blue"),
    ((3, 2), &[5, 6], "A's option, black or blue"),
    ((2, 2), &[5, 6], "A's option, black or blue"),
    ((2, 3), &[5, 6], "A's option, black or blue"),
    ((1, 3), &[5, 6], "A's option, black or blue"),
];

/// The squares the queen reaches from `(x, y)`: west, north, north-west.
fn options(x: usize, y: usize) -> Vec<(usize, usize)> {
    let mut o: Vec<(usize, usize)> = (0..x).map(|a| (a, y)).collect();
    o.extend((0..y).map(|b| (x, b)));
    o.extend((1..=x.min(y)).map(|d| (x - d, y - d)));
    o
}

#[test]
fn figure_1_and_its_example_game() {
    // Palace numbers from the exact solver's P-positions: how many the queen sees.
    let p = p_positions(K, SIDE, SIDE);
    let solver: Vec<u32> = (0..SIDE * SIDE)
        .map(|i| options(i % SIDE, i / SIDE).iter().filter(|&&(x, y)| p[y * SIDE + x]).count() as u32)
        .collect();
    // A square is a palace exactly when it sees fewer than k (the caption's rule).
    for (i, &n) in solver.iter().enumerate() {
        assert_eq!(p[i], n < K, "cell ({}, {})", i % SIDE, i / SIDE);
    }
    let direct = direct_palace_numbers(K, SIDE, SIDE);
    let w = Window::new(0, 0, SIDE as u32, SIDE as u32).unwrap();
    let engine: Vec<u32> = common::engine_window(K, w, &EngineOptions::default())
        .iter()
        .map(|&v| u32::try_from(v + i64::from(K)).unwrap())
        .collect();
    assert_eq!(solver, direct, "exact solver against the direct definition");
    assert_eq!(solver, engine, "exact solver against the engine");
    let n = |x: usize, y: usize| solver[y * SIDE + x];
    for &((x, y), allowed, what) in FIXTURE {
        assert!(
            allowed.contains(&n(x, y)),
            "({x}, {y}), {what}: the paper allows {allowed:?}, the game has {}",
            n(x, y)
        );
    }
    // "Regardless of which of these A chooses, B will then have at least five winning moves to
    // choose from (ones marked yellow, or light, medium, or dark olive)": palaces of palace
    // number 1 to 4 among the option's own options.
    for &(x, y) in &[(3, 1), (3, 2), (2, 2), (2, 3), (1, 3)] {
        let wins = options(x, y).iter().filter(|&&(a, b)| (1..=4).contains(&n(a, b))).count();
        assert!(wins >= 5, "from ({x}, {y}) B has {wins} winning moves of palace number 1 to 4");
    }
    // The legend's eight colours cover every palace number of the board, 0 to 7, and all of
    // them occur.
    let mut seen = [false; 8];
    for &v in &solver {
        assert!(v <= 7, "palace number {v} has no colour in the legend");
        seen[v as usize] = true;
    }
    assert_eq!(seen, [true; 8]);
}
