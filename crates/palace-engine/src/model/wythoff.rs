//! Classical Wythoff Nim (k = 1) in exact integer arithmetic: the P-positions are the pairs
//! `(floor(n phi), floor(n phi^2))` and their mirror images (Wythoff 1907; paper §1). Used to
//! cross-check the engine at k = 1 without floating point.

/// Integer square root: the largest `r` with `r * r <= n`.
pub fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    // Newton's method from an over-estimate; monotone decreasing until it settles.
    let mut x = 1u128 << (128 - n.leading_zeros()).div_ceil(2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// The n-th Wythoff pair `(a_n, b_n) = (floor(n phi), floor(n phi^2))`, exactly:
/// `a_n = floor((n + isqrt(5 n^2)) / 2)` and `b_n = a_n + n` (`docs/rule.md`, "Wythoff Nim (k = 1)").
pub fn pair(n: u64) -> (u64, u64) {
    let n128 = u128::from(n);
    let a = ((n128 + isqrt(5 * n128 * n128)) / 2) as u64;
    (a, a + n)
}

/// Whether `(x, y)` is a P-position of Wythoff Nim, i.e. a Wythoff pair or its mirror.
pub fn is_p_position(x: u64, y: u64) -> bool {
    let (lo, hi) = (x.min(y), x.max(y));
    let n = hi - lo;
    pair(n) == (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_exact() {
        for n in 0u128..10_000 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "n={n}");
        }
        let big = (1u128 << 100) + 12345;
        let r = isqrt(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
    }

    /// OEIS A000201 (lower Wythoff sequence, floor(n phi)) and A001950 (upper Wythoff
    /// sequence, floor(n phi^2)), n = 1..=40, copied as literal data from the OEIS entries.
    const A000201: [u64; 40] = [
        1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 25, 27, 29, 30, 32, 33, 35, 37, 38, 40, 42, 43,
        45, 46, 48, 50, 51, 53, 55, 56, 58, 59, 61, 63, 64,
    ];
    const A001950: [u64; 40] = [
        2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 34, 36, 39, 41, 44, 47, 49, 52, 54, 57, 60, 62, 65, 68,
        70, 73, 75, 78, 81, 83, 86, 89, 91, 94, 96, 99, 102, 104,
    ];

    #[test]
    fn pairs_match_oeis() {
        for n in 1..=40u64 {
            assert_eq!(pair(n), (A000201[n as usize - 1], A001950[n as usize - 1]), "n={n}");
        }
    }

    #[test]
    fn pairs_far_out_are_exact() {
        // floor(n phi) for n = 10^12 is 1618033988749 (phi = 1.6180339887498948...).
        assert_eq!(pair(1_000_000_000_000).0, 1_618_033_988_749);
    }
}
