//! The three-counter kernels: the game's direct definition (`docs/rule.md`, "Palace number")
//! in wrapping 8-bit lanes, 32 horizontal bands of a tile at once.
//!
//! # The form
//!
//! Every cell carries three counters: `R`, the palaces west of it in its row, `C`, north in its
//! column, and `D'`, north-west on its diagonal, stored as `D - k + BIAS` with
//! [`BIAS`]` = 16`. Their sum `s = R + C + D' = v + 16`, where `v = N - k` is the CA value.
//! The cell is a palace when `v < 0`, i.e. `s < 16`, and then each counter grows by one
//! along its line. All three are kept modulo 256 (wrapping bytes): `s` is then right modulo
//! 256, so it is `v + 16` itself whenever `v` lies in `-16..=15` (outside the hood `v` stays
//! within `-4..=15` on every board measured, up to k = 40003 on 120000 x 120000; a tile that
//! holds a larger value only takes the exact path). Per vector of 32 cells
//! that is two adds, one compare, three subtracts (the compare's mask is -1 on palaces) and
//! one OR that gathers every `s` for the check below: 7 operations, against at least 9 for
//! the CA rule.
//!
//! # Why a tile whose every `s` lies in `0..=31` is exact
//!
//! Each tile is checked as a whole: the OR of every `s` it computed must have its top three
//! bits clear ([`OUT_OF_RANGE`]), i.e. every wrapped `v` lies in `-16..=15`. (A range of 32
//! values lets the statistics' tally classify every `s` by one 32-entry table lookup.) The CA rule proves that such a tile
//! is exact, provided the cells its rule neighbourhood reads outside the tile (the two rows
//! above it and the two columns to its left, the halo) also lie in `-16..=15`, which the engine
//! checks before it uses this kernel. By induction over the cells in the order the rule
//! computes them: if the six neighbours of `g` hold their true values, all within `-16..=15`,
//! then `g = a - b - c + e + f + p` with `|p| <= 5`, so the true `v(g)` lies in `-85..=85`.
//! The kernel's counters are right modulo 256 (their increments are the true palaces so far),
//! so its wrapped `v(g)` is the true one modulo 256. If that wrapped value lies in `-16..=15`,
//! the true value is the only number in `-85..=85` congruent to it (the others are at
//! least 240 away), so the cell's value and its sign are right. A tile that fails the check
//! is recomputed exactly by the engine.
//!
//! # The band-lane layout
//!
//! A tile of `h = 32 H` rows is cut into 32 bands of `H` rows; lane `j` of a vector holds band
//! `j`, and one vector holds row `r` of every band. Lane `j` runs one group of `M` columns
//! behind lane `j - 1`: in pass `t` it computes group `t - j`, all `H` rows of it, so the
//! counters a band's first row needs (`C` and `D'` leaving the band above) were produced by
//! the lane above one pass earlier and enter by a one-lane shift per column and pass. `R` and
//! every other `C` and `D'` stay in their lane.
//!
//! Within a pass the `M` columns walk down the rows as a skewed wavefront, column `i` being
//! `i` rows behind column 0, so the `M` cells of a step are independent and every counter
//! handed between them stays in a register: `R` from column `i - 1` of the step before, `C`
//! from the cell above, `D'` from column `i - 1` two steps before. Only column 0 reads, and
//! column `M - 1` writes, the per-row `R` and `D'` of the band (one load and one store each
//! per row and pass).
//!
//! The palace count comes from the `C` counters: a column's palaces within a band are its `C`
//! on leaving the band minus its `C` on entering (at most `H`, so exact in a byte).
//!
//! [`reference()`] is the same arithmetic cell by cell in plain loops; every instance of the
//! band-lane algorithm is tested against it bit for bit, and the engine's sweeps against
//! the exact definition.

mod bands;
pub mod portable;
#[cfg(target_arch = "x86_64")]
pub mod x86;

pub use bands::Scratch;
pub(crate) use bands::{Lane, Vector};

/// Lanes per vector: bands per tile.
pub const LANES: usize = 32;

/// Added to `D - k` so that `s = R + C + D'` is `v + BIAS`, in `0..2 * BIAS` when `v` is
/// small.
pub const BIAS: u8 = 16;

/// The bits of `s` that are all clear exactly when `s` lies in `0..2 * BIAS`: a tile whose
/// OR of every `s` has none of them is valid.
pub const OUT_OF_RANGE: u8 = !(2 * BIAS - 1);

const _: () = assert!(BIAS.is_power_of_two() && OUT_OF_RANGE == 0xE0);

/// The largest tile height the lane kernels take: `H <= 255` keeps a column's palaces within
/// one band below 256.
pub const MAX_HEIGHT: usize = LANES * 255;

/// Counters entering a `w x h` tile; the kernel replaces each by the counters leaving it.
///
/// On entry (all modulo 256): `r[row]` is `R` of the cell `(row, 0)`; `d_left[row]` is `D'` of
/// the cell `(row, 0)` (for `row = 0` it must equal `d_top[0]`); `c[col]` is `C` of the cell
/// `(0, col)`; `d_top[col]` is `D'` of the cell `(0, col)`.
///
/// On return: `r[row]` is `R` just right of the tile, at `(row, w)`; `d_left[row]` is `D'` of
/// `(row + 1, w)`, the diagonal leaving `(row, w - 1)`; `c[col]` is `C` just below the tile,
/// at `(h, col)`; `d_top[col]` is `D'` of `(h, col + 1)`, the diagonal leaving `(h - 1, col)`.
/// (The cell `(h, w)` appears twice, as `d_left[h - 1]` and `d_top[w - 1]`.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edges {
    /// `R` per row.
    pub r: Vec<u8>,
    /// `D'` per row, entering from the left / leaving to the right.
    pub d_left: Vec<u8>,
    /// `C` per column.
    pub c: Vec<u8>,
    /// `D'` per column, entering from above / leaving below.
    pub d_top: Vec<u8>,
}

/// The CA values (`s - BIAS`, wrapping) of a tile's last two rows and last two columns, what
/// the rule's neighbourhood of the tiles below and to the right reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EdgeValues {
    /// Rows `h - 2` and `h - 1`, `w` cells each, one after the other.
    pub bottom: Vec<i8>,
    /// Columns `w - 2` and `w - 1` of each row, interleaved (`2 h` cells).
    pub right: Vec<i8>,
}

impl EdgeValues {
    /// Room for a `w x h` tile.
    pub fn sized(w: usize, h: usize) -> Self {
        EdgeValues { bottom: vec![0; 2 * w], right: vec![0; 2 * h] }
    }
}

/// What a tile's computation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Every `s` lay in `0..2 * BIAS`: with a checked halo, every value and palace is exact.
    pub valid: bool,
    /// Palaces in the tile (exact when `valid`).
    pub palaces: u64,
}

/// A lane kernel: computes a `w x h` tile from `edges` (replaced by the leaving counters), and
/// writes the edge values to `values`. `w` must be a multiple of [`CounterKernel::group`] and
/// `h` a multiple of 32, at least 64 (two rows per band) and at most [`MAX_HEIGHT`].
pub type CounterFn =
    fn(w: usize, h: usize, edges: &mut Edges, values: &mut EdgeValues, scratch: &mut Scratch) -> Outcome;

/// One instance of the band-lane algorithm.
#[derive(Debug, Clone, Copy)]
pub struct CounterKernel {
    /// A short name for reports.
    pub name: &'static str,
    /// Columns per register block (`M`); tile widths must be multiples of it.
    pub group: usize,
    /// The entry point.
    pub run: CounterFn,
}

impl CounterKernel {
    /// Whether this kernel takes a `w x h` tile.
    pub fn fits(&self, w: usize, h: usize) -> bool {
        w > 0
            && w.is_multiple_of(self.group)
            && h.is_multiple_of(LANES)
            && (2 * LANES..=MAX_HEIGHT).contains(&h)
    }
}

/// The fastest counter kernel for this CPU, within `PALACE_ISA`'s cap
/// ([`crate::simd::cpu`]).
pub fn best() -> CounterKernel {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::cpu::{Isa, level};
        if level() >= Isa::Avx512 && x86::avx512vl_available() {
            return x86::AVX512VL;
        }
        if level() >= Isa::Avx2 && x86::avx2_available() {
            return x86::AVX2;
        }
    }
    portable::PORTABLE
}

/// Every counter kernel this CPU can run (regardless of `PALACE_ISA`).
pub fn available() -> Vec<CounterKernel> {
    #[cfg(target_arch = "x86_64")]
    return runnable(portable::PORTABLE, x86::AVX2, x86::AVX512VL);
    #[cfg(not(target_arch = "x86_64"))]
    vec![portable::PORTABLE]
}

/// Of a family of band-lane kernels (these counters, and the CA rule's in
/// [`crate::kernel::band`]), the ones this CPU can run: the portable one, then the AVX2 and the
/// AVX-512VL ones where it has them.
#[cfg(target_arch = "x86_64")]
pub(crate) fn runnable<T>(portable: T, avx2: T, avx512vl: T) -> Vec<T> {
    let mut all = vec![portable];
    if x86::avx2_available() {
        all.push(avx2);
    }
    if x86::avx512vl_available() {
        all.push(avx512vl);
    }
    all
}

impl CounterKernel {
    /// Computes a tile of any size: the largest block at its top left that the kernel takes
    /// with the kernel, the columns right of it and the rows below it with [`reference()`] (at
    /// most `group - 1` columns and 63 rows). The result is the reference's, bit for bit, and
    /// so is the tally where the scratch keeps one ([`Scratch::tally`]) and the tile is valid;
    /// a tile that is not valid adds nothing to the tally.
    pub(crate) fn tile_any(
        &self,
        w: usize,
        h: usize,
        edges: &mut Edges,
        values: &mut EdgeValues,
        scratch: &mut Scratch,
    ) -> Outcome {
        check_sizes(w, h, edges, values);
        let wk = w - w % self.group;
        let hk = if h >= 2 * LANES { (h - h % LANES).min(MAX_HEIGHT) } else { 0 };
        if wk == 0 || hk == 0 {
            return reference_tallied(w, h, edges, values, scratch);
        }
        let before = scratch.counts().copied();
        let out = self.tile_parts(w, h, wk, hk, edges, values, scratch);
        if !out.valid
            && let Some(before) = before
        {
            scratch.set_counts(before);
        }
        out
    }

    /// [`CounterKernel::tile_any`] for a tile of at least one kernel block, `wk x hk` at its top
    /// left; the parts' tallies are added as they go.
    #[allow(clippy::too_many_arguments)]
    fn tile_parts(
        &self,
        w: usize,
        h: usize,
        wk: usize,
        hk: usize,
        edges: &mut Edges,
        values: &mut EdgeValues,
        scratch: &mut Scratch,
    ) -> Outcome {
        let (wb, hc) = (w - wk, h - hk);
        // A: the kernel's block.
        let mut a = Edges {
            r: edges.r[..hk].to_vec(),
            d_left: edges.d_left[..hk].to_vec(),
            c: edges.c[..wk].to_vec(),
            d_top: edges.d_top[..wk].to_vec(),
        };
        let mut va = EdgeValues::sized(wk, hk);
        let oa = (self.run)(wk, hk, &mut a, &mut va, scratch);
        // B: the columns right of A, rows 0..hk.
        let (mut b, mut vb, mut ob) =
            (Edges::default(), EdgeValues::default(), Outcome { valid: true, palaces: 0 });
        if wb > 0 {
            let mut d_left = vec![edges.d_top[wk]];
            d_left.extend_from_slice(&a.d_left[..hk - 1]);
            b = Edges {
                r: a.r.clone(),
                d_left,
                c: edges.c[wk..].to_vec(),
                d_top: edges.d_top[wk..].to_vec(),
            };
            vb = EdgeValues::sized(wb, hk);
            ob = reference_tallied(wb, hk, &mut b, &mut vb, scratch);
        }
        // The counters on row hk, columns 0..w, and what leaves the right edge above it.
        let c_mid: Vec<u8> = a.c.iter().chain(&b.c).copied().collect();
        let d_mid: Vec<u8> = a.d_top.iter().chain(&b.d_top).copied().collect();
        let (r_top, dl_top) = if wb > 0 { (b.r, b.d_left) } else { (a.r, a.d_left) };
        let mut bottom_mid = vec![0i8; 2 * w];
        for q in 0..2 {
            bottom_mid[q * w..q * w + wk].copy_from_slice(&va.bottom[q * wk..(q + 1) * wk]);
            if wb > 0 {
                bottom_mid[q * w + wk..(q + 1) * w].copy_from_slice(&vb.bottom[q * wb..(q + 1) * wb]);
            }
        }
        for row in 0..hk {
            for q in 0..2 {
                // Column w - 2 + q: in B where B has it, else in A's last columns.
                let col = w - 2 + q;
                values.right[2 * row + q] = if col >= wk {
                    vb.right[2 * row + col + 2 - wb - wk]
                } else {
                    va.right[2 * row + col + 2 - wk]
                };
            }
        }
        let mut out = Outcome { valid: oa.valid && ob.valid, palaces: oa.palaces + ob.palaces };
        if hc == 0 {
            (edges.r, edges.d_left, edges.c, edges.d_top) = (r_top, dl_top, c_mid, d_mid);
            values.bottom = bottom_mid;
            return out;
        }
        // C: the rows below, all columns.
        let mut d_top = vec![edges.d_left[hk]];
        d_top.extend_from_slice(&d_mid[..w - 1]);
        let mut c = Edges { r: edges.r[hk..].to_vec(), d_left: edges.d_left[hk..].to_vec(), c: c_mid, d_top };
        let mut vc = EdgeValues::sized(w, hc);
        let oc = reference_tallied(w, hc, &mut c, &mut vc, scratch);
        out = Outcome { valid: out.valid && oc.valid, palaces: out.palaces + oc.palaces };
        values.right[2 * hk..].copy_from_slice(&vc.right);
        if hc >= 2 {
            values.bottom = vc.bottom;
        } else {
            values.bottom[..w].copy_from_slice(&bottom_mid[w..]);
            values.bottom[w..].copy_from_slice(&vc.bottom[w..]);
        }
        edges.r = r_top.into_iter().chain(c.r).collect();
        edges.d_left = dl_top.into_iter().chain(c.d_left).collect();
        edges.c = c.c;
        edges.d_top = c.d_top;
        out
    }
}

/// [`reference()`], its values added to the scratch's tally if that is on and the tile is
/// valid.
fn reference_tallied(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    if scratch.counts().is_none() {
        return reference(w, h, edges, values, None);
    }
    let mut cells = vec![0u8; w * h];
    let out = reference(w, h, edges, values, Some(&mut cells));
    if out.valid {
        scratch.count_sums(&cells);
    }
    out
}

/// The three-counter arithmetic cell by cell, in plain loops: the reference the lane kernels
/// equal bit for bit, whatever the input. Takes any `w, h >= 1`. With `cells`, also writes
/// every cell's `s` row by row.
pub fn reference(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    mut cells: Option<&mut [u8]>,
) -> Outcome {
    check_sizes(w, h, edges, values);
    let mut or = 0u8;
    let mut palaces = 0u64;
    // D' entering each cell of the current row, and of the next.
    let mut d_cur: Vec<u8> = edges.d_top.clone();
    let mut d_next = vec![0u8; w];
    for row in 0..h {
        if row > 0 {
            d_cur[0] = edges.d_left[row];
        }
        let mut r = edges.r[row];
        for col in 0..w {
            let s = r.wrapping_add(edges.c[col]).wrapping_add(d_cur[col]);
            or |= s;
            let p = u8::from((s as i8) < BIAS as i8);
            palaces += u64::from(p);
            r = r.wrapping_add(p);
            edges.c[col] = edges.c[col].wrapping_add(p);
            let d_out = d_cur[col].wrapping_add(p);
            if col + 1 < w {
                d_next[col + 1] = d_out;
            } else {
                edges.d_left[row] = d_out;
            }
            if row + 2 >= h {
                values.bottom[(row + 2 - h) * w + col] = s.wrapping_sub(BIAS) as i8;
            }
            if col + 2 >= w {
                values.right[2 * row + col + 2 - w] = s.wrapping_sub(BIAS) as i8;
            }
            if let Some(cells) = cells.as_deref_mut() {
                cells[row * w + col] = s;
            }
            if row + 1 == h {
                edges.d_top[col] = d_out;
            }
        }
        edges.r[row] = r;
        std::mem::swap(&mut d_cur, &mut d_next);
    }
    Outcome { valid: or & OUT_OF_RANGE == 0, palaces }
}

/// The counters entering the `w x h` tile at `(x0, y0)` of game `k`, by the direct definition
/// (a plain row-by-row count over `[0, x0 + w) x [0, y0 + h)`): for tests and benchmarks.
pub fn entering_by_definition(k: u32, x0: usize, y0: usize, w: usize, h: usize) -> Edges {
    let width = x0 + w;
    let dp = |d: u32| d.wrapping_sub(k).wrapping_add(u32::from(BIAS)) as u8;
    // col[x]: palaces north of the current row; diag[x]: on the diagonal ending at (x, y - 1).
    let (mut col, mut diag) = (vec![0u32; width], vec![0u32; width]);
    let mut e = Edges::default();
    for y in 0..y0 + h {
        let d_at = |diag: &[u32], x: usize| if x == 0 { 0 } else { diag[x - 1] };
        if y == y0 {
            e.c = col[x0..].iter().map(|&c| c as u8).collect();
            e.d_top = (x0..width).map(|x| dp(d_at(&diag, x))).collect();
        }
        if y >= y0 {
            e.d_left.push(dp(d_at(&diag, x0)));
        }
        let (mut west, mut carry) = (0u32, 0u32);
        for x in 0..width {
            if y >= y0 && x == x0 {
                e.r.push(west as u8);
            }
            let p = u32::from(col[x] + west + carry < k);
            west += p;
            col[x] += p;
            carry = std::mem::replace(&mut diag[x], carry + p);
        }
    }
    e
}

fn check_sizes(w: usize, h: usize, edges: &Edges, values: &EdgeValues) {
    assert!(w >= 1 && h >= 1, "an empty tile");
    assert_eq!((edges.r.len(), edges.d_left.len()), (h, h), "row counters");
    assert_eq!((edges.c.len(), edges.d_top.len()), (w, w), "column counters");
    assert_eq!((values.bottom.len(), values.right.len()), (2 * w, 2 * h), "edge values");
}

#[cfg(test)]
pub(crate) mod tests;
