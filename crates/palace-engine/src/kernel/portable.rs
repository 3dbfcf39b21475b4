//! The narrow kernel in plain Rust, for any CPU, and the statement of the lane scheme that
//! the AVX2 and AVX-512 kernels implement with intrinsics.
//!
//! A tile is computed in blocks of `L` rows. Lane `i` of the block handles row `r0 + i`, and at
//! step `s` it computes column `c = s - i`: all lanes of one step lie on one anti-diagonal, so
//! they are independent (`docs/rule.md`, "Time and the diamond grid": the cells of one anti-diagonal are independent). Writing
//! `V_t[i]` for the value lane `i` produced at step `t`, and extending it to the two rows above
//! the block (`V_t[-1]` is the cell `(t + 1, r0 - 1)`, `V_t[-2]` the cell `(t + 2, r0 - 2)`),
//! the six neighbours of lane `i` at step `s` are
//!
//! ```text
//!   a = V_{s-4}[i-2]   b = V_{s-3}[i-2]   c = V_{s-3}[i-1]
//!   d = V_{s-2}[i-1]   e = V_{s-1}[i]     f = V_{s-1}[i-1]
//! ```
//!
//! so a step needs the last four steps' vectors shifted by zero, one or two lanes, with the
//! two halo rows entering at the bottom lanes. Lanes whose column lies left of the tile take
//! the left halo, lanes right of it or below the tile are held at 0.

use super::buf::{Arrangement, NARROW_LIMIT, NarrowFn, TileBuf, block_top};

/// Lanes (rows) per block.
const L: usize = 32;

/// The rule in wrapping 8-bit arithmetic (exact while the operands are within the limit).
#[inline(always)]
fn rule8(a: i8, b: i8, c: i8, d: i8, e: i8, f: i8) -> i8 {
    let n = |z: i8| (z < 0) as i8;
    let p = 3 * n(a) - 2 * n(b) - 2 * n(c) - n(d) + n(e) + n(f);
    a.wrapping_sub(b).wrapping_sub(c).wrapping_add(e).wrapping_add(f).wrapping_add(p)
}

/// The portable narrow kernel (see [`NarrowFn`]).
pub(crate) fn narrow_tile(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    let _: NarrowFn = narrow_tile;
    assert_eq!(top.len(), 2 * (w + 2));
    assert_eq!(left.len(), 2 * h);
    assert_eq!((out.width(), out.height()), (w, h));
    let mut btop = vec![0i8; 2 * (w + 2)];
    let mut ok = true;
    for r0 in (0..h).step_by(L) {
        block_top(top, left, out, r0, &mut btop);
        ok &= block(&btop, left, w, h, r0, out);
    }
    ok
}

/// One block of up to `L` rows starting at `r0`, stored in `out`'s arrangement: rows, or the
/// steps as computed (diagonal, 32 lanes).
fn block(btop: &[i8], left: &[i8], w: usize, h: usize, r0: usize, out: &mut TileBuf) -> bool {
    let rows = L.min(h - r0);
    let diagonal = out.arrangement() == Arrangement::Diagonal(L);
    assert!(diagonal || out.arrangement() == Arrangement::Rows, "unsupported arrangement");
    // Where row r0 + i, column 0 lies (rows), or where step 0 lies (diagonal).
    let col0: Vec<usize> = if diagonal { Vec::new() } else { (r0..r0 + rows).map(|r| out.col0(r)).collect() };
    let step0 = if diagonal { out.block0(r0 / L) } else { 0 };
    let data = out.raw_mut();
    let (up2, up1) = btop.split_at(w + 2);
    // ring[t mod 5] = [V_t[-2], V_t[-1], V_t[0], ..., V_t[L-1]]
    let mut ring = [[0i8; L + 2]; 5];
    let slot = |t: isize| (t + 10) as usize % 5;
    let lim = NARROW_LIMIT;
    let mut ok = true;
    for t in -4..(w + L - 1) as isize {
        let mut g = [0i8; L];
        if t >= 0 {
            let (va, vb, vd, ve) =
                (&ring[slot(t - 4)], &ring[slot(t - 3)], &ring[slot(t - 2)], &ring[slot(t - 1)]);
            for i in 0..L {
                // V[i - j] lives at index i + 2 - j of a ring entry.
                g[i] = rule8(va[i], vb[i], vb[i + 1], vd[i + 1], ve[i + 2], ve[i + 1]);
            }
        }
        let ragged = t < L as isize - 1 || t >= w as isize || rows < L;
        if ragged {
            for (i, gi) in g.iter_mut().enumerate() {
                let c = t - i as isize;
                if i >= rows || c >= w as isize || c < -2 {
                    *gi = 0;
                } else if c < 0 {
                    *gi = left[2 * (r0 + i) + (c + 2) as usize];
                }
            }
        }
        for &v in &g {
            ok &= (-lim..=lim).contains(&v);
        }
        let e = &mut ring[slot(t)];
        // V_t[-2] = (t + 2, r0 - 2) and V_t[-1] = (t + 1, r0 - 1), halo index = column + 2.
        e[0] = up2.get((t + 4) as usize).copied().unwrap_or(0);
        e[1] = up1.get((t + 3) as usize).copied().unwrap_or(0);
        e[2..].copy_from_slice(&g);
        if t < 0 {
            continue;
        }
        if diagonal {
            // Step t as computed (lanes outside the tile hold what the vector kernels store).
            data[step0 + t as usize * L..][..L].copy_from_slice(&g);
            continue;
        }
        // Scatter the step into the rows.
        for (i, (&v, &c0)) in g.iter().zip(&col0).enumerate() {
            let c = t - i as isize;
            if (0..w as isize).contains(&c) {
                data[c0 + c as usize] = v;
            }
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule8_matches_rule_in_range() {
        let vals = [-24i8, -7, -2, -1, 0, 1, 3, 24];
        for &a in &vals {
            for &b in &vals {
                for &c in &vals {
                    for &d in &vals {
                        for &e in &vals {
                            for &f in &vals {
                                let w = crate::model::rule::rule(
                                    a.into(),
                                    b.into(),
                                    c.into(),
                                    d.into(),
                                    e.into(),
                                    f.into(),
                                );
                                assert_eq!(i64::from(rule8(a, b, c, d, e, f)), w);
                            }
                        }
                    }
                }
            }
        }
    }
}
