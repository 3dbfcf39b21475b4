//! The tiled labeller's per-row work as byte-wide loops over whole rows, so that it
//! vectorises (compiled for AVX2 inside `label_tile`): the inner sector's square as window
//! sums of saturating bytes, the fray as distances in bytes (per column down the rows, per row
//! from a window OR across it), and the blocks' statistics from per-column reductions over a
//! block row. Each helper computes what the plain per-cell code of the reference labeller
//! (`Labeler`) computes, and is tested against it or against a plain loop.

use super::classify::{BlockFacts, F_HOOD, F_OUTER, F_UNTESTABLE, FABRIC, REST, V_ALL, mask};
use super::region::{BLOCK, FRAY_WIDTH, INNER_MAX, INNER_WINDOW, Region};

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

/// The tile path's split of a row's rest into fray, warps and inner sector, the work done
/// only over the stretch that holds the rest. `col_pal` holds the palaces of the inner
/// sector's square per column, from `INNER_WINDOW - 1` columns before the row's first cell
/// (cell `i`'s square is `col_pal[i..i + INNER_WINDOW]`); `row_d` and `col_d` are as in
/// [`split_rest_bytes`]. `sums`, `near` and `tmp` are scratch.
#[inline(always)]
pub(super) fn split_row(
    labels: &mut [u8],
    col_pal: &[u8],
    (x0, y): (u64, u64),
    row_d: &mut u8,
    col_d: &mut [u8],
    (sums, near, tmp): (&mut Vec<u8>, &mut Vec<u8>, &mut Vec<u8>),
) {
    let (Some(a), Some(last)) = (first_of(labels, REST), last_of(labels, REST)) else {
        fabric_distances(labels, col_d);
        *row_d = row_distance(labels, *row_d);
        return;
    };
    // The cells before the rest's first cell that its fray test looks back to, then the
    // stretch from there to the rest's last cell, then the cells after it.
    let (a, b) = (a.saturating_sub(FRAY), last + 1);
    fabric_distances(&labels[..a], &mut col_d[..a]);
    let mut d = row_distance(&labels[..a], *row_d);
    let m = window_sums(&col_pal[a..b + INNER_WINDOW - 1], sums, tmp);
    debug_assert_eq!(m, b - a);
    split_rest_bytes(
        &mut labels[a..b],
        &sums[..b - a],
        (x0 + a as u64, y),
        &mut d,
        &mut col_d[a..b],
        (near, tmp),
    );
    fabric_distances(&labels[b..], &mut col_d[b..]);
    *row_d = row_distance(&labels[b..], d);
}

/// Chunks in which [`first_of`] and [`last_of`] look for a byte.
const CHUNK: usize = 32;

/// The first index of `b` in `s`, looked for a chunk at a time (a scan byte by byte, as
/// `position` compiles to, took more time than the whole split).
#[inline(always)]
pub(super) fn first_of(s: &[u8], b: u8) -> Option<usize> {
    let any = |c: &[u8]| c.iter().fold(false, |a, &x| a | (x == b));
    let mut chunks = s.chunks_exact(CHUNK);
    for (i, c) in chunks.by_ref().enumerate() {
        if any(c) {
            return c.iter().position(|&x| x == b).map(|p| i * CHUNK + p);
        }
    }
    let r = chunks.remainder();
    r.iter().position(|&x| x == b).map(|p| s.len() - r.len() + p)
}

/// The last index of `b` in `s`, looked for a chunk at a time from the end.
#[inline(always)]
pub(super) fn last_of(s: &[u8], b: u8) -> Option<usize> {
    let any = |c: &[u8]| c.iter().fold(false, |a, &x| a | (x == b));
    let mut chunks = s.rchunks_exact(CHUNK);
    for (i, c) in chunks.by_ref().enumerate() {
        if any(c) {
            return c.iter().rposition(|&x| x == b).map(|p| s.len() - (i + 1) * CHUNK + p);
        }
    }
    chunks.remainder().iter().rposition(|&x| x == b)
}

/// The index into [`ALL`](super::region::ALL) of the rest's first region: the rest (fray, warps, inner
/// sector) is every region from it on.
pub(super) const FIRST_REST: u8 = Region::Fray as u8;

/// Appends to `out`, in order, `x0 + i` for every `i` where `cells[i] < 0` (a palace) and
/// `labels[i]` (an index into [`ALL`](super::region::ALL)) is a region of the rest: the cells that the
/// analyses following the rest's palaces (threads, beams) read. Eight cells at a time: the
/// top bit of each byte of the cells' word is the sign, and the top bit of each byte of the
/// labels' word plus `128 - FIRST_REST` in every byte is set where the label is at least
/// [`FIRST_REST`] (the labels are below 13, so no byte carries into the next).
pub(super) fn rest_palaces(cells: &[i8], labels: &[u8], x0: u32, out: &mut Vec<u32>) {
    const _: () = assert!(super::region::ALL.len() + 128 - (FIRST_REST as usize) < 256);
    const TOP: u64 = u64::from_le_bytes([0x80; 8]);
    const ADD: u64 = u64::from_le_bytes([128 - FIRST_REST; 8]);
    debug_assert_eq!(cells.len(), labels.len());
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let signs = |c: &[i8]| u64::from_le_bytes(<[i8; 8]>::try_from(c).expect("8 cells").map(|v| v as u8));
    let mut c8 = cells.chunks_exact(8);
    let mut l8 = labels.chunks_exact(8);
    let mut x = x0;
    for (c, l) in c8.by_ref().zip(l8.by_ref()) {
        let mut hits = signs(c) & (word(l) + ADD) & TOP;
        while hits != 0 {
            out.push(x + hits.trailing_zeros() / 8);
            hits &= hits - 1;
        }
        x += 8;
    }
    for (i, (&c, &l)) in c8.remainder().iter().zip(l8.remainder()).enumerate() {
        if c < 0 && l >= FIRST_REST {
            out.push(x + i as u32);
        }
    }
}

/// `col_d` of [`split_rest_bytes`] moved on by the row `labels` where no cell is the rest.
#[inline(always)]
fn fabric_distances(labels: &[u8], col_d: &mut [u8]) {
    for (cd, &l) in col_d.iter_mut().zip(labels) {
        *cd = cd.saturating_add(1) & mask(l != FABRIC);
    }
}

/// The distance from the last fabric cell up to the end of the cells `labels`, given the
/// distance `d` up to the cell before them (as `row_d` of [`split_rest_bytes`]).
#[inline(always)]
fn row_distance(labels: &[u8], d: u8) -> u8 {
    // Only whether the last fabric cell lies within FRAY_WIDTH matters: the last FRAY cells,
    // or the distance carried over.
    let n = labels.len();
    let tail = n.saturating_sub(FRAY);
    match labels[tail..].iter().rposition(|&l| l == FABRIC) {
        Some(p) => (n - 1 - tail - p) as u8,
        None if tail > 0 => FAR,
        None => (usize::from(d) + n).min(usize::from(FAR)) as u8,
    }
}

/// The tile path's split of a row's rest into fray, warps and inner sector: what
/// `split_rest` does with the last fabric cell as an `Option` per row and column, with
/// distances in bytes instead. `sparse[i]` is the count of palaces in cell `i`'s square
/// (saturated; the square is sparse when it is at most [`INNER_MAX`]). `row_d` is the
/// distance from the row's last fabric cell left of the row (column `x0 - 1 - row_d`) to
/// column `x0 - 1`; it comes back for column `x0 + n - 1`. `col_d[i]` is the distance from
/// column `x0 + i`'s last fabric row to row `y - 1`, and comes back for row `y`. A distance
/// past [`FRAY_WIDTH`], or none, may be any value from `FRAY_WIDTH + 1` to [`FAR`]. `near`
/// and `tmp` are scratch.
#[inline(always)]
pub(super) fn split_rest_bytes(
    labels: &mut [u8],
    sparse: &[u8],
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
        let (l, sp, cd) = (&mut labels[range.clone()], &sparse[range.clone()], &mut col_d[range.clone()]);
        fray_cells(l, sp, cd, (&o8[range.clone()], &o4[range]), by, warp);
    }
    *row_d = row_distance(labels, *row_d);
}

/// The cells of [`split_rest_bytes`] on one side of the diagonal (or on it): `near8[i] |
/// near4[i]` says whether a fabric cell lies within [`FRAY_WIDTH`] to the left (looked at
/// when `by_row`), `col_d` the distances up the columns (looked at when `by_col`, and updated
/// always); a rest cell far from both is inner sector where its square is sparse, else `warp`.
#[inline(always)]
fn fray_cells(
    l: &mut [u8],
    sp: &[u8],
    cd: &mut [u8],
    (near8, near4): (&[u8], &[u8]),
    (by_row, by_col): (bool, bool),
    warp: u8,
) {
    let m = l.len();
    let (sp, cd, r8, r4) = (&sp[..m], &mut cd[..m], &near8[..m], &near4[..m]);
    // Selections by masks of 0 or 0xff: the vectoriser takes these, not `if` chains.
    let (by_row, by_col) = (mask(by_row), mask(by_col));
    const FRAY_L: u8 = Region::Fray as u8;
    const INNER_L: u8 = Region::InnerSector as u8;
    for i in 0..m {
        let li = l[i];
        let t = cd[i].saturating_add(1);
        cd[i] = t & mask(li != FABRIC);
        let near = (by_row & mask((r8[i] | r4[i]) != 0)) | (by_col & mask(t <= FRAY_WIDTH as u8));
        let r = warp ^ ((warp ^ INNER_L) & mask(sp[i] <= INNER_MAX as u8));
        let r = r ^ ((r ^ FRAY_L) & near);
        l[i] = li ^ ((li ^ r) & mask(li == REST));
    }
}

/// Per-column reductions of a block row: OR and AND of the flags (with the cells' value
/// classes, `value_bits`), down each column.
#[derive(Default)]
pub(super) struct ColumnStats {
    pub(super) or: Vec<u16>,
    pub(super) and: Vec<u16>,
}

impl ColumnStats {
    /// Reduces `rows` rows of `flags` (stride `fs`), `n` columns.
    #[inline(always)]
    pub(super) fn reduce(&mut self, flags: &[u16], fs: usize, rows: usize, n: usize) {
        let ColumnStats { or, and } = self;
        // The first row copied in (no memset: `resize` to a value calls it per block row).
        if or.len() != n {
            or.resize(n, 0);
            and.resize(n, 0);
        }
        or.copy_from_slice(&flags[..n]);
        and.copy_from_slice(&flags[..n]);
        for r in 1..rows {
            for ((o, a), &g) in or.iter_mut().zip(and.iter_mut()).zip(&flags[r * fs..r * fs + n]) {
                *o |= g;
                *a &= g;
            }
        }
    }

    /// The facts of the block over columns `cols` of the reduced rows, when they follow from
    /// the reductions: no cell of the block in the hood, outer space or untestable (and not
    /// every value -2 or less), or all of them in outer space, or all in the hood. `None` when
    /// the block needs its cells counted one by one; and the OR of its flags.
    #[inline(always)]
    pub(super) fn block(&self, cols: std::ops::Range<usize>) -> (Option<BlockFacts>, u16) {
        // A whole block as arrays of BLOCK values, so that the folds unroll; a narrower last
        // block of the tile as slices.
        let (or, and) = match (
            <&[u16; BLOCK]>::try_from(&self.or[cols.clone()]),
            <&[u16; BLOCK]>::try_from(&self.and[cols.clone()]),
        ) {
            (Ok(o), Ok(a)) => (o.iter().fold(0, |a, &b| a | b), a.iter().fold(!0, |a, &b| a & b)),
            _ => (
                self.or[cols.clone()].iter().fold(0, |a, &b| a | b),
                self.and[cols].iter().fold(!0, |a, &b| a & b),
            ),
        };
        let s = if or & (F_HOOD | F_OUTER | F_UNTESTABLE) == 0 {
            BlockFacts::of_candidates(or, and)
        } else if (and & F_OUTER != 0 && or & F_HOOD == 0) || and & F_HOOD != 0 {
            Some(BlockFacts::EMPTY)
        } else {
            None
        };
        (s, or & !V_ALL)
    }
}

#[cfg(test)]
mod tests {
    use super::super::classify::{BlockStats, EP_UP, F_SMALL, F_SPARSE, HOOD, split_rest, value_bits};
    use super::*;
    use proptest::prelude::*;

    /// A plain pseudo-random sequence for the test data.
    fn rng(mut s: u64) -> impl FnMut() -> u64 {
        move || crate::testing::splitmix64(&mut s)
    }

    /// The rest is the regions from [`FIRST_REST`] on, as [`Region::is_rest`] says.
    #[test]
    fn the_rest_is_the_last_regions() {
        for (i, r) in super::super::region::ALL.iter().enumerate() {
            assert_eq!(r.is_rest(), i >= usize::from(FIRST_REST), "{r:?}");
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
        fn rest_palaces_are_the_plain_filter(seed: u64, len in 0usize..300, x0 in 0u32..1000, dense in 1u64..40) {
            // Palaces and the rest's labels, sparse or dense, so that chunks with and without
            // a hit and with a palace outside the rest (or the rest without a palace) occur.
            let mut r = rng(seed);
            let cell = |r: &mut dyn FnMut() -> u64| {
                if r().is_multiple_of(dense) { -((r() % 3) as i8) - 1 } else { (r() % 4) as i8 }
            };
            let cells: Vec<i8> = (0..len).map(|_| cell(&mut r)).collect();
            let labels: Vec<u8> = (0..len).map(|_| (r() % super::super::region::ALL.len() as u64) as u8).collect();
            let mut got = vec![7];
            rest_palaces(&cells, &labels, x0, &mut got);
            let rest_palace = |i: &usize| cells[*i] < 0 && Region::from_index(labels[*i]).is_rest();
            let plain: Vec<u32> = std::iter::once(7).chain((0..len).filter(rest_palace).map(|i| x0 + i as u32)).collect();
            prop_assert_eq!(got, plain);
        }

        #[test]
        fn the_split_in_bytes_equals_the_plain_split(
            seed: u64,
            width in 1usize..160,
            rows in 1usize..40,
            y0 in 0u64..120,
            cuts in proptest::collection::vec(1usize..40, 1..6),
            fabric in 1u64..8,
        ) {
            // Labels as refinement leaves them: rest, fabric (one cell in `fabric`), and others;
            // some rows without the rest, some with it in a stretch only.
            let mut r = rng(seed);
            let labels: Vec<Vec<u8>> = (0..rows)
                .map(|_| {
                    let kind = r() % 4;
                    let (a, b) = ((r() % width as u64) as usize, (r() % width as u64) as usize);
                    (0..width)
                        .map(|x| match r() % 8 {
                            0 => HOOD,
                            1 => EP_UP,
                            v if v < 1 + fabric => FABRIC,
                            _ if kind == 0 => EP_UP,
                            _ if kind == 1 && !(a.min(b)..=a.max(b)).contains(&x) => HOOD,
                            _ => REST,
                        })
                        .collect()
                })
                .collect();
            // The palaces per column of the inner sector's square, from INNER_WINDOW - 1
            // columns before the row: mostly none, so that squares of at most INNER_MAX occur.
            let pal: Vec<Vec<u8>> = (0..rows)
                .map(|_| {
                    (0..width + INNER_WINDOW - 1)
                        .map(|_| if r().is_multiple_of(40) { (r() % 3) as u8 } else { 0 })
                        .collect()
                })
                .collect();
            // The plain split, row after row over the whole width, with the squares summed.
            let mut want = labels.clone();
            let mut cols = vec![None; width];
            for (y, (l, p)) in want.iter_mut().zip(&pal).enumerate() {
                let f: Vec<u16> = (0..width)
                    .map(|x| {
                        let sum: u32 = p[x..x + INNER_WINDOW].iter().map(|&c| u32::from(c)).sum();
                        if sum <= INNER_MAX { F_SPARSE } else { 0 }
                    })
                    .collect();
                split_rest(l, &f, 0, y0 + y as u64, &mut None, &mut cols);
            }
            // In bytes, tile after tile (strips of the widths `cuts`, repeated), each tile
            // all its rows.
            let mut got = labels.clone();
            let mut row_d = vec![FAR; rows];
            let mut col_d = vec![FAR; width];
            let (mut sums, mut near, mut tmp) = (Vec::new(), Vec::new(), Vec::new());
            let mut x0 = 0;
            for &cut in cuts.iter().cycle() {
                if x0 >= width {
                    break;
                }
                let x1 = (x0 + cut).min(width);
                for (y, (l, p)) in got.iter_mut().zip(&pal).enumerate() {
                    split_row(
                        &mut l[x0..x1],
                        &p[x0..x1 + INNER_WINDOW - 1],
                        (x0 as u64, y0 + y as u64),
                        &mut row_d[y],
                        &mut col_d[x0..x1],
                        (&mut sums, &mut near, &mut tmp),
                    );
                }
                x0 = x1;
            }
            prop_assert_eq!(got, want);
        }

        #[test]
        fn first_and_last_of_equal_the_plain_search(
            len in 0usize..200,
            at in proptest::collection::vec(0usize..200, 0..3),
        ) {
            let mut s = vec![0u8; len];
            for &a in &at {
                if a < len {
                    s[a] = REST;
                }
            }
            prop_assert_eq!(first_of(&s, REST), s.iter().position(|&b| b == REST));
            prop_assert_eq!(last_of(&s, REST), s.iter().rposition(|&b| b == REST));
        }


        #[test]
        fn column_stats_give_the_blocks_statistics(
            seed: u64,
            rows in 1usize..=8,
            n in 1usize..40,
            kind in 0u64..5,
            values in 0u64..6,
        ) {
            // Flags from a few patterns: free, some hood / outer / untestable cells, all outer,
            // all hood.
            let mut r = rng(seed);
            let stride = n + 3;
            let flags: Vec<u16> = (0..rows * stride)
                .map(|_| {
                    let f = (r() & 0xffff) as u16 & !(F_HOOD | F_OUTER | F_UNTESTABLE | V_ALL);
                    match kind {
                        0 => f,
                        1 => [f, f | F_OUTER, f | F_UNTESTABLE, F_HOOD][(r() % 4) as usize],
                        2 => f | F_OUTER,
                        3 => F_HOOD,
                        _ => if r().is_multiple_of(2) { F_HOOD } else { f | F_OUTER },
                    }
                })
                .collect();
            // Values from a few patterns: any small value, the épaulette's -1..1, one value
            // (negative or not), no palace, values of -2 or less, and one value with some -1.
            let one = (r() % 5) as i8 - 3;
            let cells: Vec<i8> = (0..rows * stride)
                .map(|_| match values {
                    0 => (r() % 9) as i8 - 4,
                    1 => (r() % 3) as i8 - 1,
                    2 => one,
                    3 => (r() % 4) as i8,
                    4 => -2 - (r() % 2) as i8,
                    _ => if r().is_multiple_of(8) { -1 } else { one },
                })
                .collect();
            // The tile path adds the value classes to the flags of the cells it computes, and
            // F_SMALL says |v| <= 1.
            let with_values: Vec<u16> = flags
                .iter()
                .zip(&cells)
                .map(|(&f, &v)| {
                    if f & F_HOOD != 0 {
                        f
                    } else {
                        (f & !F_SMALL) | value_bits(v) | if v.abs() <= 1 { F_SMALL } else { 0 }
                    }
                })
                .collect();
            let mut cs = ColumnStats::default();
            cs.reduce(&with_values, stride, rows, n);
            let (a, b) = (n / 3, n);
            let (quick, any) = cs.block(a..b);
            let mut plain = BlockStats::new();
            let mut or = 0;
            for row in 0..rows {
                for c in a..b {
                    plain.add(with_values[row * stride + c] & !V_ALL, cells[row * stride + c]);
                    or |= with_values[row * stride + c] & !V_ALL;
                }
            }
            prop_assert_eq!(any, or);
            // Where the reductions decide the block, they give exactly what the plain count gives.
            if let Some(q) = quick {
                prop_assert_eq!(q, plain.facts());
            }
            let all_low = (0..rows).all(|row| (a..b).all(|c| cells[row * stride + c] <= -2));
            prop_assert!(quick.is_some() || kind == 1 || kind == 4 || all_low);
        }

    }
}
