//! A counter kernel's handle ([`CounterKernel`]) and a tile of any size with it: the largest
//! block the kernel takes, the rest by the reference.

use super::bands::Scratch;
use super::contract::*;
use super::reference::*;

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
