//! An exact solver of k-Blocking Wythoff Nim itself, by brute force over game states, for
//! small boards. It knows nothing of palace numbers or of the CA: it is the independent
//! witness that the engine's palaces really are the game's P-positions.
//!
//! It plays the paper's formulation 2 (§1): one queen and `k - 1` pawns. On your turn you
//! move the queen west, north or north-west to a square without a pawn (she may jump over
//! pawns), then place the `k - 1` pawns wherever you like. The player who cannot move loses.
//!
//! A game state is the queen's square `q` together with the set `B` of the queen's options
//! that are blocked by pawns. Pawns off the queen's lines block nothing, so a placement of the
//! `k - 1` pawns is, as far as the game is concerned, any subset `B` of the options of `q`
//! with `|B| <= k - 1` (the remaining pawns stand elsewhere). Then
//!
//! * `wins(q, B)`: the player to move from `(q, B)` can force a win, which holds when some
//!   unblocked option `m` lets them place pawns so that the opponent then loses:
//!   `wins(q, B) = exists m in options(q) \ B, exists B' (|B'| <= k-1): !wins(m, B')`;
//! * a square `m` is a **P-position** when the player who moves the queen there can win:
//!   `P(m) = exists B' (|B'| <= k-1): !wins(m, B')`.
//!
//! The solver evaluates `wins(m, B')` for every state, enumerating every blocked set of size
//! at most `k - 1` — no shortcut such as "block the palaces" is taken. Since every option of
//! a square lies strictly before it in row-major order, one pass in that order suffices.

use rayon::prelude::*;

/// The P-positions of game `k` on the `width x height` board, row-major.
///
/// # Panics
/// Panics if a square has more than 64 options (boards beyond 22 x 22), which would not be a
/// "small board" anyway.
pub fn p_positions(k: u32, width: usize, height: usize) -> Vec<bool> {
    assert!(k >= 1);
    let mut p = vec![false; width * height];
    for y in 0..height {
        // Squares of one row depend on earlier rows and on squares to their west in the same
        // row, so the row is solved left to right.
        for x in 0..width {
            let opts = options(x, y, width);
            assert!(opts.len() <= 64, "board too large for the exact solver");
            let good: Vec<bool> = opts.iter().map(|&i| p[i]).collect();
            p[y * width + x] = is_p_position(&good, k as usize - 1);
        }
    }
    p
}

/// The squares the queen can move to from `(x, y)`, as row-major indices.
fn options(x: usize, y: usize, width: usize) -> Vec<usize> {
    let mut v = Vec::with_capacity(x + y + x.min(y));
    for i in 1..=x {
        v.push(y * width + x - i);
    }
    for i in 1..=y {
        v.push((y - i) * width + x);
    }
    for i in 1..=x.min(y) {
        v.push((y - i) * width + x - i);
    }
    v
}

/// `P(m)` from the P-flags of `m`'s options: is there a blocked set `B'` of at most `blocks`
/// options such that the opponent, at `(m, B')`, has no winning move?
fn is_p_position(option_is_p: &[bool], blocks: usize) -> bool {
    let n = option_is_p.len();
    // wins(m, B') = some unblocked option is a P-position.
    let wins = |blocked: u64| -> bool { (0..n).any(|i| blocked & (1 << i) == 0 && option_is_p[i]) };
    // Enumerate every subset of the options of size <= blocks, smallest first.
    for size in 0..=blocks.min(n) {
        if any_subset(n, size, &mut |blocked| !wins(blocked)) {
            return true;
        }
    }
    false
}

/// Calls `f` on every `size`-subset of `0..n` (as a bit mask) until it returns true.
fn any_subset(n: usize, size: usize, f: &mut dyn FnMut(u64) -> bool) -> bool {
    fn go(start: usize, n: usize, left: usize, acc: u64, f: &mut dyn FnMut(u64) -> bool) -> bool {
        if left == 0 {
            return f(acc);
        }
        (start..=n - left).any(|i| go(i + 1, n, left - 1, acc | (1 << i), f))
    }
    go(0, n, size, 0, f)
}

/// Solves every game `k in 1..=max_k` on the `size x size` board in parallel.
pub fn solve_many(max_k: u32, size: usize) -> Vec<(u32, Vec<bool>)> {
    (1..=max_k).into_par_iter().map(|k| (k, p_positions(k, size, size))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_all_enumerated() {
        let mut count = 0;
        any_subset(6, 3, &mut |m| {
            assert_eq!(m.count_ones(), 3);
            count += 1;
            false
        });
        assert_eq!(count, 20);
    }

    #[test]
    fn wythoff_first_pairs() {
        // k = 1 is Wythoff Nim: P-positions (0,0), (1,2), (2,1), (3,5), (5,3) on a 6 x 6 board.
        let p = p_positions(1, 6, 6);
        let ps: Vec<(usize, usize)> = (0..36).filter(|&i| p[i]).map(|i| (i % 6, i / 6)).collect();
        assert_eq!(ps, vec![(0, 0), (2, 1), (1, 2), (5, 3), (3, 5)]);
    }

    #[test]
    fn terminal_square_is_p() {
        for k in 1..5 {
            assert!(p_positions(k, 1, 1)[0]);
        }
    }
}
