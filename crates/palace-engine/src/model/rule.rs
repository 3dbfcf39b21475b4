//! The blocking-queen cellular automaton itself: its k-independent rule, the initial condition
//! that selects the game k, and the closed-form hood.
//!
//! Everything here follows `docs/rule.md`, which makes precise the rule that the paper
//! (Cook, Larsson and Neary, AUTOMATA 2015, §2.1 and Fig. 2) gives as a picture. The engine,
//! the kernels and the references all call these functions, so there is exactly one statement
//! of the rule in the code.
//!
//! Coordinates: `x` is the column (first heap), `y` the row (second heap), `(0, 0)` is the
//! upper-left corner and `y` grows downwards. The CA value is `v = N - k` where `N` is the
//! palace number; a cell is a palace (a P-position) exactly when `v < 0`.

/// Largest `k` accepted anywhere: palace numbers reach `3k`, which must fit the `int32` of the
/// `.npy` export, and all sums inside [`rule`] must fit an `i64` comfortably.
pub const MAX_K: u32 = 700_000_000;

/// `[z]` of `docs/rule.md`, "The rule": 1 when `z` is a palace (negative), else 0.
#[inline(always)]
pub fn palace(z: i64) -> i64 {
    (z < 0) as i64
}

/// The rule `g = a - b - c + e + f + p` with the palace compensation
/// `p = 3[a] - 2[b] - 2[c] - [d] + [e] + [f]` (`docs/rule.md`, "The rule"; paper Fig. 2).
///
/// Neighbours of `g = (x, y)`: `a = (x-2, y-2)`, `b = (x-1, y-2)`, `c = (x-2, y-1)`,
/// `d = (x-1, y-1)`, `e = (x-1, y)`, `f = (x, y-1)`. `d` enters only through its sign.
#[inline(always)]
pub fn rule(a: i64, b: i64, c: i64, d: i64, e: i64, f: i64) -> i64 {
    let p = 3 * palace(a) - 2 * palace(b) - 2 * palace(c) - palace(d) + palace(e) + palace(f);
    a - b - c + e + f + p
}

/// The initial condition for game `k` outside the quadrant (`x < 0` or `y < 0`):
/// `k` where both coordinates are negative, 0 where exactly one is.
#[inline]
pub fn initial(k: u32, x: i64, y: i64) -> i64 {
    debug_assert!(x < 0 || y < 0, "initial() is only defined outside the quadrant");
    if x < 0 && y < 0 { i64::from(k) } else { 0 }
}

/// `max(x, y) + 2 min(x, y)`: inside the hood this is the palace number itself (paper §3.2:
/// one per step of the higher coordinate, two per step of the lower one).
#[inline]
pub(crate) fn hood_key(x: u64, y: u64) -> u64 {
    x.max(y) + 2 * x.min(y)
}

/// Whether `(x, y)` lies in the hood, the closed-form region `max(x, y) + 2 min(x, y) < k`
/// where every cell is a palace (`docs/rule.md`, "Regions with a closed form").
#[inline]
pub fn in_hood(k: u32, x: u64, y: u64) -> bool {
    hood_key(x, y) < u64::from(k)
}

/// The CA value of a hood cell, `max(x, y) + 2 min(x, y) - k` (in `-k..=-1`).
#[inline]
pub fn hood_value(k: u32, x: u64, y: u64) -> i64 {
    debug_assert!(in_hood(k, x, y));
    hood_key(x, y) as i64 - i64::from(k)
}

/// How many cells of row `y` lie in the hood. The hood meets every row in a prefix
/// `0..hood_len(k, y)`, because it is closed under moving left or up.
#[inline]
pub fn hood_len(k: u32, y: u64) -> u64 {
    let k = u64::from(k);
    if y >= k {
        0
    } else if 3 * y < k {
        // x >= y part: x + 2y < k.
        k - 2 * y
    } else {
        // only x < y remains: y + 2x < k.
        (k - y).div_ceil(2)
    }
}

/// What the narrow engine stores for a hood cell: its value clamped into `i8`. The sign (a
/// palace) is always right; consumers that need the exact value use [`hood_value`].
#[inline]
pub fn hood_sentinel(k: u32, x: u64, y: u64) -> i8 {
    hood_value(k, x, y).max(i64::from(i8::MIN)) as i8
}

/// Appends [`hood_sentinel`] of the cells `x0..x1` of row `y` (all in the hood) to `out`.
/// Most stand-ins are `i8::MIN` (the value is below -128); only the last 128 values of each of
/// the row's two linear pieces (`y + 2x` left of the diagonal, `x + 2y` right of it) are
/// computed.
pub fn hood_sentinel_row(k: u32, y: u64, x0: u64, x1: u64, out: &mut Vec<i8>) {
    debug_assert!(x0 >= x1 || in_hood(k, x1 - 1, y));
    let start = out.len();
    out.resize(start + x1.saturating_sub(x0) as usize, i8::MIN);
    // Within each piece the key rises with x (by 2, then by 1): the cells whose value reaches
    // -128 are a suffix of the piece.
    let k = u64::from(k);
    let low = k.saturating_sub(128);
    let left = low.saturating_sub(y).div_ceil(2); // y + 2x >= k - 128
    let right = low.saturating_sub(2 * y); // x + 2y >= k - 128
    for (a, b, first) in [(x0, x1.min(y), left), (x0.max(y), x1, right)] {
        for x in first.max(a)..b {
            out[start + (x - x0) as usize] = hood_sentinel(k as u32, x, y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hood_sentinel_row_equals_the_cells() {
        for k in [1u32, 2, 5, 40, 129, 130, 300, 1000] {
            for y in 0..u64::from(k).min(400) {
                let len = hood_len(k, y);
                for (x0, x1) in [(0, len), (0, len / 2), (len / 3, len), (len / 2, len / 2)] {
                    let mut out = vec![7i8];
                    hood_sentinel_row(k, y, x0, x1, &mut out);
                    let direct: Vec<i8> = (x0..x1).map(|x| hood_sentinel(k, x, y)).collect();
                    assert_eq!(out[1..], direct[..], "k={k} y={y} x0={x0} x1={x1}");
                }
            }
        }
    }

    #[test]
    fn hood_len_matches_membership() {
        for k in 1..40u32 {
            for y in 0..50u64 {
                let direct = (0..200u64).filter(|&x| in_hood(k, x, y)).count() as u64;
                assert_eq!(hood_len(k, y), direct, "k={k} y={y}");
                // and it is a prefix
                for x in 0..direct {
                    assert!(in_hood(k, x, y));
                }
            }
        }
    }

    #[test]
    fn worked_cells_of_the_initial_condition() {
        // v(0, 0) = -k and v(1, 0) = 1 - k (`docs/rule.md`, "The initial condition").
        for k in [1u32, 2, 5, 500] {
            assert_eq!(hood_value(k, 0, 0), -i64::from(k));
            if k > 1 {
                assert_eq!(hood_value(k, 1, 0), 1 - i64::from(k));
            }
        }
        // (0, 0) from the rule and the initial condition: a = k, b = c = d = e = f = 0.
        let k = 7u32;
        // The initial condition is read only at x, y in {-2, -1}; at (0, 0) a = (-2, -2) = k,
        // b = (-1, -2) = k, c = (-2, -1) = k, d = (-1, -1) = k, e = (-1, 0) = 0, f = (0, -1) = 0.
        let g00 = rule(
            initial(k, -2, -2),
            initial(k, -1, -2),
            initial(k, -2, -1),
            initial(k, -1, -1),
            initial(k, -1, 0),
            initial(k, 0, -1),
        );
        assert_eq!(g00, -i64::from(k));
    }

    #[test]
    fn sentinel_keeps_sign() {
        for k in [1u32, 3, 200, 1000, 70000] {
            for (x, y) in [(0u64, 0u64), (1, 0), (0, 1), (3, 2)] {
                if in_hood(k, x, y) {
                    assert!(hood_sentinel(k, x, y) < 0);
                }
            }
        }
    }
}
