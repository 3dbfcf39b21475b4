//! The CA rule in band lanes with register blocking, written once over a [`Vector`] of 32
//! byte lanes and instantiated by the portable and the x86 entry points of [`super`].

use crate::kernel::counter::{Lane, Vector};

/// Lanes per vector: bands per block.
pub(crate) const LANES: usize = 32;

/// Buffers reused from tile to tile (per thread, see [`super`]).
#[derive(Debug, Default)]
pub(crate) struct Work {
    /// Per row of the bands: the values of the last two columns of each lane's previous group
    /// (the left halo for a lane at its first group).
    cols: Vec<[Lane; 2]>,
    /// The cells as computed: the vector of band row `r`, pass `t`, column `i` of the group at
    /// `(r * passes + t) * M + i`, and one chunk of 32 vectors of slack for the transpose.
    pub(crate) cells: Vec<Lane>,
}

/// The registers of one pass (a value, never borrowed across the step loop).
#[derive(Clone, Copy)]
struct Regs<V, const M: usize> {
    /// Per column of the group: the partial sums of the cells it computes in the next four
    /// steps (`acc[i][0]` is complete: the cell of the coming step).
    acc: [[V; 4]; M],
    /// Rows -2 and -1 of each column (the band above's last two rows, shifted in).
    up: [[V; 2]; M],
    /// The same for the two columns left of the group.
    upv: [[V; 2]; 2],
    /// Rows `H - 2` and `H - 1` of each column, for the band below in the next pass.
    bot: [[V; 2]; M],
    /// The same for the two columns left of the group.
    botv: [[V; 2]; 2],
    /// The range check of the pass.
    range: V,
}

/// Where the block sits in the tile's halo.
#[derive(Clone, Copy)]
pub(crate) struct Halo<'a> {
    /// Rows `y0 - 2` and `y0 - 1`, each over columns `x0 - 2 .. x0 + stride - 2`.
    pub top: &'a [i8],
    /// The length of one row of `top`.
    pub stride: usize,
    /// The two cells left of each row.
    pub left: &'a [i8],
}

/// Computes the `w x h` block at the tile's top left (`w` a multiple of `M`, `h` a multiple of
/// 32, at least 64) into `work.cells`, and returns whether every value stayed within
/// [`crate::kernel::buf::NARROW_LIMIT`]. The halo must lie within the limit.
#[inline(always)]
pub(crate) fn run<V: Vector, const M: usize>(halo: Halo<'_>, w: usize, h: usize, work: &mut Work) -> bool {
    const { assert!(M >= 2, "the last two columns of a group feed the next group") };
    assert!(w > 0 && w.is_multiple_of(M) && h.is_multiple_of(LANES) && h >= 2 * LANES, "block {w} x {h}");
    assert!(halo.stride >= w + 2 && halo.top.len() >= halo.stride + w + 2 && halo.left.len() >= 2 * h);
    let bh = h / LANES;
    let groups = w / M;
    let passes = groups + LANES - 1;
    let row_stride = passes * M;
    let Work { cols, cells } = work;
    cols.clear();
    cols.resize(bh, [Lane::default(); 2]);
    // Every vector the transpose stores from is written by the passes (the rest lands in
    // columns outside the block), so the buffer is only grown, never cleared.
    let need = bh * row_stride + LANES;
    if cells.len() < need {
        cells.resize(need, Lane::default());
    }
    let zero = V::splat(0);
    let mut regs = Regs {
        acc: [[zero; 4]; M],
        up: [[zero; 2]; M],
        upv: [[zero; 2]; 2],
        bot: [[zero; 2]; M],
        botv: [[zero; 2]; 2],
        range: zero,
    };
    let mut range = zero;
    let top = |q: usize, x: isize| -> u8 { halo.top[q * halo.stride + (x + 2) as usize] as u8 };
    for t in 0..passes {
        // Lane 0 works on group t (while there is one) and reads the tile's top halo; lane j
        // takes the last two rows of lane j - 1, which did this group one pass earlier.
        let first = |q: usize, c: isize| if t < groups { top(q, (t * M) as isize + c) } else { 0 };
        for q in 0..2 {
            for i in 0..M {
                regs.up[i][q] = regs.bot[i][q].shift_in(first(q, i as isize));
            }
            for v in 0..2 {
                regs.upv[v][q] = regs.botv[v][q].shift_in(first(q, v as isize - 2));
            }
        }
        // Band t starts: its two columns left of group 0 are the left halo.
        if t < LANES {
            for (r, c) in cols.iter_mut().enumerate() {
                for (q, lane) in c.iter_mut().enumerate() {
                    lane.0[t] = halo.left[2 * (t * bh + r) + q] as u8;
                }
            }
        }
        regs.range = zero;
        regs = pass::<V, M>(regs, t, bh, cols, cells, row_stride);
        // Lanes j with 0 <= t - j < groups computed cells of the tile.
        let (lo, hi) = ((t + 1).saturating_sub(groups), t.min(LANES - 1));
        let mut mask = Lane::default();
        mask.0[lo..=hi].fill(0xFF);
        range = range.merge_narrow(regs.range.and(V::load(&mask)));
    }
    V::narrow_ok(range)
}

/// One pass: the group's `M` columns, and the two columns left of it read back from `cols`,
/// down all `bh` rows of the band as a skewed wavefront (column `c` handles row `s - c` at
/// step `s`).
#[inline(always)]
fn pass<V: Vector, const M: usize>(
    mut regs: Regs<V, M>,
    t: usize,
    bh: usize,
    cols: &mut [[Lane; 2]],
    cells: &mut [Lane],
    row_stride: usize,
) -> Regs<V, M> {
    assert!(cols.len() == bh && bh >= 2 && cells.len() >= bh * row_stride && (t + 1) * M <= row_stride);
    let m = M as isize;
    let h = bh as isize;
    // Steps where every column (the two read back included) is on a row in 0..bh - 2: no
    // branches. Steps run from -4 (column -2 on row -2) to bh + M - 2 (column M - 1 on row
    // bh - 1).
    let lean0 = (m - 1).min(h + m - 1);
    let lean1 = (h - 4).max(lean0);
    for s in -4..lean0 {
        // SAFETY: asserted above: the rows touched are below bh, the cells within the buffer.
        unsafe { step::<V, M, true>(&mut regs, s, t, bh, cols, cells, row_stride) };
    }
    for s in lean0..lean1 {
        // SAFETY: as above; `s - c` lies in 0..bh - 2 for every column c in -2..M.
        unsafe { step::<V, M, false>(&mut regs, s, t, bh, cols, cells, row_stride) };
    }
    for s in lean1..h + m - 1 {
        // SAFETY: as above.
        unsafe { step::<V, M, true>(&mut regs, s, t, bh, cols, cells, row_stride) };
    }
    regs
}

/// One step of the wavefront. Every column first takes its value (from its completed partial
/// sum, from `cols` for the two columns left of the group, from the band above for rows -2 and
/// -1), then every partial sum moves one step closer, then every value is distributed to the
/// cells that read it (`docs/rule.md`, "The rule", with the palace terms folded into the
/// operands, `m_z = -1` where `z < 0`):
///
/// ```text
///   g = (a - 3 m_a) - (b - 2 m_b) - (c - 2 m_c) + m_d + (e - m_e) + (f - m_f)
/// ```
///
/// The value of column `c` on row `r` is `e` of column `c + 1` on row `r`, `f` of column `c`
/// on row `r + 1`, `d` of column `c + 1` on row `r + 1`, `c` of column `c + 2` on row `r + 1`,
/// `b` of column `c + 1` on row `r + 2` and `a` of column `c + 2` on row `r + 2`: one, one, two,
/// three, three and four steps later. Contributions to rows outside `0..bh` land in partial
/// sums that are never read.
///
/// # Safety
/// `cols.len() == bh`, `cells` holds `bh * row_stride` vectors, `(t + 1) * M <= row_stride`,
/// and unless `EDGE`, every column's row `s - c` lies in `0..bh - 2`.
#[inline(always)]
unsafe fn step<V: Vector, const M: usize, const EDGE: bool>(
    regs: &mut Regs<V, M>,
    s: isize,
    t: usize,
    bh: usize,
    cols: &mut [[Lane; 2]],
    cells: &mut [Lane],
    row_stride: usize,
) {
    let zero = V::splat(0);
    let h = bh as isize;
    let inside = |r: isize| !EDGE || (0..h).contains(&r);
    let mut zv = [zero; 2];
    for (q, z) in zv.iter_mut().enumerate() {
        let r = s + 2 - q as isize;
        if inside(r) {
            debug_assert!((0..h).contains(&r));
            // SAFETY: r < bh = cols.len().
            *z = V::load(unsafe { &cols.get_unchecked(r as usize)[q] });
            if EDGE && r >= h - 2 {
                regs.botv[q][(r + 2 - h) as usize] = *z;
            }
        } else if r == -2 || r == -1 {
            *z = regs.upv[q][(r + 2) as usize];
        }
    }
    let mut zr = [zero; M];
    for (i, z) in zr.iter_mut().enumerate() {
        let r = s - i as isize;
        if inside(r) {
            debug_assert!((0..h).contains(&r));
            let v = regs.acc[i][0];
            *z = v;
            regs.range = v.track_narrow(regs.range);
            // SAFETY: r < bh, so the index is below bh * row_stride; cols has bh rows.
            unsafe {
                v.store(cells.get_unchecked_mut(r as usize * row_stride + t * M + i));
                if i + 2 >= M {
                    v.store(&mut cols.get_unchecked_mut(r as usize)[i + 2 - M]);
                }
            }
            if EDGE && r >= h - 2 {
                regs.bot[i][(r + 2 - h) as usize] = v;
            }
        } else if r == -2 || r == -1 {
            *z = regs.up[i][(r + 2) as usize];
        }
    }
    for a in regs.acc.iter_mut() {
        *a = [a[1], a[2], a[3], zero];
    }
    for (q, &z) in zv.iter().enumerate() {
        distribute::<V, M>(&mut regs.acc, q as isize - 2, z);
    }
    for (i, &z) in zr.iter().enumerate() {
        distribute::<V, M>(&mut regs.acc, i as isize, z);
    }
}

/// Adds the value `z` of column `c` (-2 and -1: the columns left of the group) to the partial
/// sums of the cells in the group that read it (see [`step`]).
#[inline(always)]
fn distribute<V: Vector, const M: usize>(acc: &mut [[V; 4]; M], c: isize, z: V) {
    let m = z.negative();
    let q1 = z.sub(m);
    let q2 = q1.sub(m);
    let q3 = q2.sub(m);
    let mm = M as isize;
    if c >= 0 {
        let a = &mut acc[c as usize];
        a[0] = a[0].add(q1); // f below
    }
    if c + 1 >= 0 && c + 1 < mm {
        let a = &mut acc[(c + 1) as usize];
        a[0] = a[0].add(q1); // e to the right
        a[1] = a[1].add(m); // d
        a[2] = a[2].sub(q2); // b
    }
    if c + 2 >= 0 && c + 2 < mm {
        let a = &mut acc[(c + 2) as usize];
        a[2] = a[2].sub(q2); // c
        a[3] = a[3].add(q3); // a
    }
}
