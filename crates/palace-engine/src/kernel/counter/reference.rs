//! The three-counter form cell by cell in plain loops: what every band-lane kernel is tested
//! against bit for bit, and what computes the parts of a tile a kernel does not take.

use super::bands::Scratch;
use super::contract::*;

/// [`reference()`], its values added to the scratch's tally if that is on and the tile is
/// valid.
pub(crate) fn reference_tallied(
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
