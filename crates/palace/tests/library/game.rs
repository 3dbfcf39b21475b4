//! The engine against the game itself: the exact brute-force solver of formulation 2 on small
//! boards, and the Wythoff pairs for k = 1 (exact integers and literal OEIS data).

use palace::testing as common;

use common::*;
use palace::analysis::check;
use palace::kernel::KernelChoice;
use palace::model::geometry::Window;
use palace::model::solver::p_positions;
use palace::model::wythoff;

#[test]
fn p_positions_equal_solver_on_every_board_up_to_9x9() {
    for k in 1..=4u32 {
        let solved = p_positions(k, 9, 9);
        for h in 1..=9u32 {
            for w in 1..=9u32 {
                let vals = engine_window(k, Window::new(0, 0, w, h).unwrap(), &opts(2, KernelChoice::Auto));
                for y in 0..h {
                    for x in 0..w {
                        let engine_p = vals[(y * w + x) as usize] < 0;
                        assert_eq!(
                            engine_p,
                            solved[(y * 9 + x) as usize],
                            "k={k} board {w}x{h} cell ({x},{y})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn solver_on_rectangular_boards_restricts_consistently() {
    // Solving a 12 x 7 board gives the same verdicts as the corner of a 12 x 12 board.
    for k in 1..=3u32 {
        let a = p_positions(k, 12, 7);
        let b = p_positions(k, 12, 12);
        assert_eq!(a[..], b[..12 * 7], "k={k}");
        let vals = engine_window(k, Window::new(0, 0, 12, 12).unwrap(), &opts(1, KernelChoice::Auto));
        let engine: Vec<bool> = vals.iter().map(|&v| v < 0).collect();
        assert_eq!(engine, b, "k={k} engine vs solver on 12 x 12");
    }
}

#[test]
fn check_command_library_passes() {
    let r = check::run(3, 6, 200, &opts(2, KernelChoice::Auto), &palace::engine::Silent).unwrap();
    assert!(r.mismatch.is_none(), "{r}");
    assert_eq!(r.cells_vs_solver, 3 * (1..=6u64).flat_map(|h| (1..=6u64).map(move |w| w * h)).sum::<u64>());
}

#[test]
fn k1_palaces_are_the_wythoff_pairs() {
    let n = 2000u32;
    let vals = engine_window(1, Window::new(0, 0, n, n).unwrap(), &opts(2, KernelChoice::Auto));
    let mut expected = vec![false; (n * n) as usize];
    for m in 0.. {
        let (a, b) = wythoff::pair(m);
        if a >= u64::from(n) {
            break;
        }
        if b < u64::from(n) {
            expected[(b * u64::from(n) + a) as usize] = true;
            expected[(a * u64::from(n) + b) as usize] = true;
        }
    }
    let engine: Vec<bool> = vals.iter().map(|&v| v < 0).collect();
    assert_eq!(engine, expected);
    // Row 0 holds exactly one palace, (0, 0); the first pairs literally (OEIS A000201/A001950).
    let lower = [1u32, 3, 4, 6, 8, 9, 11, 12, 14, 16];
    let upper = [2u32, 5, 7, 10, 13, 15, 18, 20, 23, 26];
    for (a, b) in lower.iter().zip(&upper) {
        assert!(vals[(b * n + a) as usize] < 0 && vals[(a * n + b) as usize] < 0, "({a},{b})");
    }
}
