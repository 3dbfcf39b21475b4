//! The tiled labeller's per-row work as byte-wide loops over whole rows, so that it
//! vectorises (compiled for AVX2 inside `label_tile`): the inner sector's square as window
//! sums of saturating bytes, the fray as distances in bytes (per column down the rows, per row
//! from a window OR across it), and the blocks' statistics from per-column reductions over a
//! block row. Each helper computes what the plain per-cell code of the reference labeller
//! (`Labeler`) computes, and is tested against it or against a plain loop.

use super::{
    BlockStats, F_HOOD, F_OUTER, F_SPARSE, F_UNTESTABLE, FABRIC, FRAY_WIDTH, INNER_WINDOW, REST, Region,
};

/// A fray distance that is no distance: no fabric cell yet, or one farther than any that
/// matters (distances past [`FRAY_WIDTH`] may come out as any value from there up to this).
pub(super) const FAR: u8 = u8::MAX;

/// [`FRAY_WIDTH`] as an index.
const FRAY: usize = FRAY_WIDTH as usize;

/// The window sums of the inner sector's square across a row: `out[i]` is the sum of
/// `c[i..i + INNER_WINDOW]`, or 255 where it exceeds 255, for the `c.len() + 1 - INNER_WINDOW`
/// values `i` this returns (`c.len() >= INNER_WINDOW`; `out` may hold more). Sums of doubling
/// spans of saturating bytes: a sum of two saturated partial sums is the saturated sum, so
/// every value up to 254 is exact (the test `pal <= INNER_MAX` needs only up to 5). `tmp` is
/// scratch.
#[inline(always)]
pub(super) fn window_sums(c: &[u8], out: &mut Vec<u8>, tmp: &mut Vec<u8>) -> usize {
    const _: () = assert!(INNER_WINDOW.is_power_of_two());
    at_least(out, c.len());
    at_least(tmp, c.len());
    let mut n = pairs(c, 1, out, u8::saturating_add);
    let mut span = 2;
    while span < INNER_WINDOW {
        // out holds the sums of `span` bytes; tmp gets those of `2 * span`.
        n = pairs(&out[..n], span, tmp, u8::saturating_add);
        std::mem::swap(out, tmp);
        span *= 2;
    }
    n
}

/// Makes `v` at least `len` long (its values are overwritten before they are read).
#[inline(always)]
fn at_least(v: &mut Vec<u8>, len: usize) {
    if v.len() < len {
        v.resize(len, 0);
    }
}

/// `dst[i] = f(src[i], src[i + span])` for the `src.len() - span` values `i` it returns. A
/// loop over slices, not `extend`: `extend` may stay a call outside the AVX2 function.
#[inline(always)]
fn pairs(src: &[u8], span: usize, dst: &mut [u8], f: impl Fn(u8, u8) -> u8) -> usize {
    let n = src.len() - span;
    for (d, (&a, &b)) in dst[..n].iter_mut().zip(src.iter().zip(&src[span..])) {
        *d = f(a, b);
    }
    n
}

/// The tile path's split of a row's rest into fray, warps and inner sector: what
/// `split_rest` does with the last fabric cell as an `Option` per row and column, with
/// distances in bytes instead. `row_d` is the distance from the row's last fabric cell left
/// of the row (column `x0 - 1 - row_d`) to column `x0 - 1`; it comes back for column
/// `x0 + n - 1`. `col_d[i]` is the distance from column `x0 + i`'s last fabric row to row
/// `y - 1`, and comes back for row `y`. A distance past [`FRAY_WIDTH`], or none, may be any
/// value from `FRAY_WIDTH + 1` to [`FAR`]. `near` and `tmp` are scratch.
#[inline(always)]
pub(super) fn split_rest_bytes(
    labels: &mut [u8],
    flags: &[u16],
    (x0, y): (u64, u64),
    row_d: &mut u8,
    col_d: &mut [u8],
    (near, tmp): (&mut Vec<u8>, &mut Vec<u8>),
) {
    let n = labels.len();
    // near[j] for j < FRAY: the columns before the row (only the last fabric one is known);
    // then 1 at the row's fabric cells. A cell i is within FRAY_WIDTH of a fabric cell to its
    // left when one of near[i..i + FRAY] is set: an OR over spans 2, 4, 8, then 8 and 4.
    at_least(near, FRAY + n);
    at_least(tmp, FRAY + n);
    near[..FRAY].fill(0);
    if usize::from(*row_d) < FRAY {
        near[FRAY - 1 - usize::from(*row_d)] = 1;
    }
    for (d, &l) in near[FRAY..FRAY + n].iter_mut().zip(labels.iter()) {
        *d = u8::from(l == FABRIC);
    }
    let or = |a: u8, b: u8| a | b;
    let m = pairs(&near[..FRAY + n], 1, tmp, or); // spans of 2
    let m = pairs(&tmp[..m], 2, near, or); // 4
    let m8 = pairs(&near[..m], 4, tmp, or); // 8
    let (o8, o4) = (&tmp[..m8], &near[8..m]);
    // Cells left of the diagonal (x < y) look up their column, cells right of it along their
    // row, the diagonal's cell both ways and is inner sector when neither finds the fabric.
    let lower = (y.saturating_sub(x0)).min(n as u64) as usize;
    let diag = lower + usize::from(y >= x0 && y - x0 < n as u64);
    for (range, by, warp) in [
        (0..lower, (false, true), Region::WarpLower as u8),
        (lower..diag, (true, true), Region::InnerSector as u8),
        (diag..n, (true, false), Region::WarpUpper as u8),
    ] {
        let (l, f, cd) = (&mut labels[range.clone()], &flags[range.clone()], &mut col_d[range.clone()]);
        fray_cells(l, f, cd, (&o8[range.clone()], &o4[range]), by, warp);
    }
    // Only whether the last fabric cell lies within FRAY_WIDTH matters: the row's last
    // FRAY cells, or the distance carried over.
    let tail = n.saturating_sub(FRAY);
    *row_d = match labels[tail..].iter().rposition(|&l| l == FABRIC) {
        Some(p) => (n - 1 - tail - p) as u8,
        None if tail > 0 => FAR,
        None => (usize::from(*row_d) + n).min(usize::from(FAR)) as u8,
    };
}

/// The cells of [`split_rest_bytes`] on one side of the diagonal (or on it): `near8[i] |
/// near4[i]` says whether a fabric cell lies within [`FRAY_WIDTH`] to the left (looked at
/// when `by_row`), `col_d` the distances up the columns (looked at when `by_col`, and updated
/// always); a rest cell far from both is inner sector where its square is sparse, else `warp`.
#[inline(always)]
fn fray_cells(
    l: &mut [u8],
    f: &[u16],
    cd: &mut [u8],
    (near8, near4): (&[u8], &[u8]),
    (by_row, by_col): (bool, bool),
    warp: u8,
) {
    let m = l.len();
    let (f, cd, r8, r4) = (&f[..m], &mut cd[..m], &near8[..m], &near4[..m]);
    // Selections by masks of 0 or 0xff: the vectoriser takes these, not `if` chains.
    let (by_row, by_col) = (mask(by_row), mask(by_col));
    const FRAY_L: u8 = Region::Fray as u8;
    const INNER_L: u8 = Region::InnerSector as u8;
    for i in 0..m {
        let li = l[i];
        let t = cd[i].saturating_add(1);
        cd[i] = t & mask(li != FABRIC);
        let near = (by_row & mask((r8[i] | r4[i]) != 0)) | (by_col & mask(t <= FRAY_WIDTH as u8));
        let r = warp ^ ((warp ^ INNER_L) & mask(f[i] & F_SPARSE != 0));
        let r = r ^ ((r ^ FRAY_L) & near);
        l[i] = li ^ ((li ^ r) & mask(li == REST));
    }
}

/// 0xff for `true`, 0 for `false`.
#[inline(always)]
fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// Per-column reductions of a block row: OR and AND of the flags, least and greatest value,
/// down each column.
#[derive(Default)]
pub(super) struct ColumnStats {
    pub(super) or: Vec<u16>,
    pub(super) and: Vec<u16>,
    pub(super) lo: Vec<i8>,
    pub(super) hi: Vec<i8>,
}

impl ColumnStats {
    /// Reduces `rows` rows of `flags` (stride `fs`) and `cells` (stride `cs`), `n` columns.
    #[inline(always)]
    pub(super) fn reduce(
        &mut self,
        flags: &[u16],
        fs: usize,
        cells: &[i8],
        cs: usize,
        rows: usize,
        n: usize,
    ) {
        let ColumnStats { or, and, lo, hi } = self;
        or.clear();
        or.extend_from_slice(&flags[..n]);
        and.clear();
        and.extend_from_slice(&flags[..n]);
        lo.clear();
        lo.extend_from_slice(&cells[..n]);
        hi.clear();
        hi.extend_from_slice(&cells[..n]);
        for r in 1..rows {
            let (f, v) = (&flags[r * fs..r * fs + n], &cells[r * cs..r * cs + n]);
            for ((o, a), &g) in or.iter_mut().zip(and.iter_mut()).zip(f) {
                *o |= g;
                *a &= g;
            }
            for ((l, h), &c) in lo.iter_mut().zip(hi.iter_mut()).zip(v) {
                *l = (*l).min(c);
                *h = (*h).max(c);
            }
        }
    }

    /// The statistics of the block over columns `cols` of the reduced rows (`rows` of them),
    /// when they follow from the reductions: no cell of the block in the hood, outer space or
    /// untestable, or all of them in outer space, or all in the hood. `None` when the block
    /// needs its cells counted one by one, and the OR of its flags.
    #[inline(always)]
    pub(super) fn block(&self, cols: std::ops::Range<usize>, rows: usize) -> (Option<BlockStats>, u16) {
        let or = self.or[cols.clone()].iter().fold(0, |a, &b| a | b);
        let and = self.and[cols.clone()].iter().fold(!0, |a, &b| a & b);
        let lo = self.lo[cols.clone()].iter().fold(i8::MAX, |a, &b| a.min(b));
        let hi = self.hi[cols.clone()].iter().fold(i8::MIN, |a, &b| a.max(b));
        let s = if or & (F_HOOD | F_OUTER | F_UNTESTABLE) == 0 {
            let cand = (rows * cols.len()) as u32;
            Some(BlockStats { cand, tested: cand, all: and, per: and, lo, hi, hood: false })
        } else if and & F_OUTER != 0 && or & F_HOOD == 0 {
            Some(BlockStats::new())
        } else if and & F_HOOD != 0 {
            Some(BlockStats { hood: true, ..BlockStats::new() })
        } else {
            None
        };
        (s, or)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EP_UP, HOOD, split_rest};
    use super::*;
    use proptest::prelude::*;

    /// A plain pseudo-random sequence for the test data.
    fn rng(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }

    proptest! {
        #[test]
        fn window_sums_equal_the_plain_sums(seed: u64, len in INNER_WINDOW..300, big in 0u64..4) {
            // Column counts up to 64 (the real ones), mostly small, sometimes all large.
            let mut r = rng(seed);
            let c: Vec<u8> = (0..len).map(|_| (r() % (2 + 21 * big)).min(64) as u8).collect();
            // Scratch left longer than needed, as a row of another tile leaves it.
            let (mut out, mut tmp) = (vec![9; 400], vec![7; 3]);
            let m = window_sums(&c, &mut out, &mut tmp);
            let plain: Vec<u8> = c
                .windows(INNER_WINDOW)
                .map(|w| w.iter().map(|&v| u32::from(v)).sum::<u32>().min(255) as u8)
                .collect();
            prop_assert_eq!(&out[..m], &plain[..]);
        }

        #[test]
        fn the_fray_in_bytes_equals_the_plain_split(
            seed: u64,
            width in 1usize..160,
            rows in 1usize..40,
            y0 in 0u64..120,
            cuts in proptest::collection::vec(1usize..40, 1..6),
            fabric in 1u64..8,
        ) {
            // Labels as refinement leaves them: rest, fabric (one cell in `fabric`), and others.
            let mut r = rng(seed);
            let labels: Vec<Vec<u8>> = (0..rows)
                .map(|_| {
                    (0..width)
                        .map(|_| match r() % 8 {
                            0 => HOOD,
                            1 => EP_UP,
                            v if v < 1 + fabric => FABRIC,
                            _ => REST,
                        })
                        .collect()
                })
                .collect();
            let flags: Vec<Vec<u16>> =
                (0..rows).map(|_| (0..width).map(|_| if r().is_multiple_of(3) { F_SPARSE } else { 0 }).collect()).collect();
            // The plain split, row after row over the whole width.
            let mut want = labels.clone();
            let mut cols = vec![None; width];
            for (y, (l, f)) in want.iter_mut().zip(&flags).enumerate() {
                split_rest(l, f, 0, y0 + y as u64, &mut None, &mut cols);
            }
            // In bytes, tile after tile (strips of the widths `cuts`, repeated), each tile
            // all its rows.
            let mut got = labels.clone();
            let mut row_d = vec![FAR; rows];
            let mut col_d = vec![FAR; width];
            let (mut near, mut tmp) = (Vec::new(), Vec::new());
            let mut x0 = 0;
            for &cut in cuts.iter().cycle() {
                if x0 >= width {
                    break;
                }
                let x1 = (x0 + cut).min(width);
                for (y, (l, f)) in got.iter_mut().zip(&flags).enumerate() {
                    split_rest_bytes(
                        &mut l[x0..x1],
                        &f[x0..x1],
                        (x0 as u64, y0 + y as u64),
                        &mut row_d[y],
                        &mut col_d[x0..x1],
                        (&mut near, &mut tmp),
                    );
                }
                x0 = x1;
            }
            prop_assert_eq!(got, want);
        }

        #[test]
        fn column_stats_give_the_blocks_statistics(
            seed: u64,
            rows in 1usize..=8,
            n in 1usize..40,
            kind in 0u64..5,
        ) {
            // Flags from a few patterns: free, some hood / outer / untestable cells, all outer,
            // all hood.
            let mut r = rng(seed);
            let stride = n + 3;
            let flags: Vec<u16> = (0..rows * stride)
                .map(|_| {
                    let f = (r() & 0xffff) as u16 & !(F_HOOD | F_OUTER | F_UNTESTABLE);
                    match kind {
                        0 => f,
                        1 => [f, f | F_OUTER, f | F_UNTESTABLE, F_HOOD][(r() % 4) as usize],
                        2 => f | F_OUTER,
                        3 => F_HOOD,
                        _ => if r().is_multiple_of(2) { F_HOOD } else { f | F_OUTER },
                    }
                })
                .collect();
            let cells: Vec<i8> = (0..rows * stride).map(|_| (r() % 7) as i8 - 3).collect();
            let mut cs = ColumnStats::default();
            cs.reduce(&flags, stride, &cells, stride, rows, n);
            let (a, b) = (n / 3, n);
            let (quick, any) = cs.block(a..b, rows);
            let mut plain = BlockStats::new();
            let mut or = 0;
            for row in 0..rows {
                for c in a..b {
                    plain.add(flags[row * stride + c], cells[row * stride + c]);
                    or |= flags[row * stride + c];
                }
            }
            prop_assert_eq!(any, or);
            // Where the reductions decide the block, they give exactly what the plain count gives.
            if let Some(q) = quick {
                let key = |s: &BlockStats| (s.cand, s.tested, s.all, s.per, s.lo, s.hi, s.hood);
                prop_assert_eq!(key(&q), key(&plain));
            }
            prop_assert!(quick.is_some() || kind == 1 || kind == 4);
        }
    }
}
