//! The band-lane algorithm of [`super`], written once over a [`Vector`] of 32 byte lanes and
//! instantiated by the portable and the x86 kernels.

use super::contract::{BIAS, EdgeValues, Edges, LANES, OUT_OF_RANGE, Outcome, check_sizes};
use crate::simd::histogram;

/// 32 bytes, aligned for vector loads.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
pub(crate) struct Lane(pub [u8; LANES]);

/// 32 byte lanes with the operations the kernel needs (all wrapping).
pub(crate) trait Vector: Copy {
    fn splat(x: u8) -> Self;
    fn load(p: &Lane) -> Self;
    fn store(self, p: &mut Lane);
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    /// -1 (all ones) in the lanes holding a palace (`s < BIAS` as a signed byte), else 0.
    fn palace(self) -> Self;
    /// The lanes moved up by one, `first` into lane 0.
    fn shift_in(self, first: u8) -> Self;
    /// The sum of the 32 bytes.
    fn sum(self) -> u32;
    /// Whether the lean loop gathers a step's sums and ORs them two at a time with
    /// [`Vector::or3`] (where that is one instruction and registers are plenty), or ORs each as
    /// it comes.
    const PAIRED: bool = true;
    /// `self | a | b` (one instruction where the CPU has a three-input logic operation).
    #[inline(always)]
    fn or3(self, a: Self, b: Self) -> Self {
        self.or(a).or(b)
    }
    /// -1 (all ones) in the lanes holding a negative byte, else 0: the CA rule's palace test
    /// (`docs/rule.md`, "The rule"), used by the CA band kernels ([`crate::kernel::band`]).
    fn negative(self) -> Self;
    /// `acc` with this vector's values folded into the narrow range check
    /// ([`crate::kernel::buf::NARROW_LIMIT`]); start from `splat(0)`, combine with
    /// [`Vector::merge_narrow`] and read with [`Vector::narrow_ok`]. By default an OR of `u = v +
    /// 24` and `u + 79`: `v` lies in `-24..=24` exactly when neither has its top bit set.
    #[inline(always)]
    fn track_narrow(self, acc: Self) -> Self {
        let lim = crate::kernel::buf::NARROW_LIMIT as u8;
        let u = self.add(Self::splat(lim));
        acc.or3(u, u.add(Self::splat(127 - 2 * lim)))
    }
    /// Two range checks in one.
    #[inline(always)]
    fn merge_narrow(self, o: Self) -> Self {
        self.or(o)
    }
    /// Whether every value folded into `acc` by [`Vector::track_narrow`] lay within the limit.
    #[inline(always)]
    fn narrow_ok(acc: Self) -> bool {
        let mut l = Lane::default();
        acc.store(&mut l);
        l.0.iter().fold(0, |a, &b| a | b) & 0x80 == 0
    }
    /// Lane `j`.
    #[inline(always)]
    fn lane(self, j: usize) -> u8 {
        let mut l = Lane::default();
        self.store(&mut l);
        l.0[j]
    }
}

/// Buffers a worker reuses from tile to tile, and the optional tally of the values computed.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Per row of the bands: `R` entering the next group's column 0.
    r: Vec<Lane>,
    /// Per row: `D'` entering the next group's column 0.
    d: Vec<Lane>,
    /// Per row, in passes where a band finishes: the values of the group's last two columns.
    cols: Vec<[Lane; 2]>,
    /// With a tally: the sums `s` of the last passes, counted when the buffer is full.
    sums: Vec<Lane>,
    /// The counts of every value computed since the tally was switched on, by `v + 128`.
    counts: Option<Box<[u64; 256]>>,
}

/// Bytes of values gathered before they are counted: a third of a 48 KiB L1 data cache.
const TALLY_BYTES: usize = 16 << 10;

impl Scratch {
    /// Switches the tally on (cleared) or off. While it is on, every kernel run with this
    /// scratch also counts the values `v` of the cells it computes ([`Scratch::counts`]):
    /// statistics without a second pass over the cells. A kernel run that is not valid
    /// ([`Outcome::valid`]) adds nothing, so the counts stay exact whatever falls back.
    pub fn tally(&mut self, on: bool) {
        match (on, self.counts.as_deref_mut()) {
            // A worker's scratch keeps its array from tile to tile.
            (true, Some(c)) => c.fill(0),
            (true, None) => self.counts = Some(Box::new([0; 256])),
            (false, _) => self.counts = None,
        }
    }

    /// The counts of the values computed since [`Scratch::tally`] switched it on, indexed by
    /// `v + 128` (wrapping bytes: exact for the tiles whose [`Outcome::valid`] holds).
    pub fn counts(&self) -> Option<&[u64; 256]> {
        self.counts.as_deref()
    }

    /// Puts back counts saved from [`Scratch::counts`] (the tally must be on).
    pub(crate) fn set_counts(&mut self, counts: [u64; 256]) {
        **self.counts.as_mut().expect("tallying") = counts;
    }

    /// Adds the values of `cells` (`s`, as [`super::reference`] writes them) to the tally.
    pub(crate) fn count_sums(&mut self, cells: &[u8]) {
        if let Some(counts) = self.counts.as_deref_mut() {
            for &s in cells {
                counts[usize::from(s.wrapping_sub(BIAS).wrapping_add(128))] += 1;
            }
        }
    }
}

/// Counts the values in `sums` (whole lanes of `s = v + BIAS`) into `counts`.
fn count_lanes(sums: &mut [Lane], counts: &mut [u64; 256]) {
    // SAFETY: `Lane` is 32 plain bytes (`repr(C)`, no padding), so the lanes are
    // `32 * sums.len()` consecutive initialised bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut(sums.as_mut_ptr().cast::<u8>(), LANES * sums.len()) };
    // Every sum of a valid tile lies in 0..32; the others' counts are thrown away.
    histogram::count_below_32(bytes, BIAS, counts);
}

/// The registers of one pass (a value, never borrowed across the step loop, so that the
/// compiler keeps it in registers).
#[derive(Clone, Copy)]
struct Regs<V, const M: usize> {
    /// `C` of each column, entering its next row.
    c: [V; M],
    /// `R` leaving each column's last cell, for the next column.
    rx: [V; M],
    /// `D'` entering column `i` at its next row (`i >= 1`).
    dw: [V; M],
    /// `D'` leaving column `i` one step ago, on its way to `dw[i + 1]`.
    dh: [V; M],
    /// `D'` leaving each column's last row.
    dbot: [V; M],
    /// The values of the second-to-last row of each column (for the tile's bottom edge).
    vbot0: [V; M],
    /// The values of the last row.
    vbot1: [V; M],
    /// OR of every `s` of the pass.
    acc: V,
}

/// Computes a tile (see [`super::CounterFn`]) with `M` columns per register block, tallying
/// its values if the scratch's tally is on.
#[inline(always)]
pub(crate) fn run<V: Vector, const M: usize>(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    if scratch.counts.is_some() {
        run_tile::<V, M, true>(w, h, edges, values, scratch)
    } else {
        run_tile::<V, M, false>(w, h, edges, values, scratch)
    }
}

/// [`run`], with `TALLY` the values of every pass stored and counted.
#[inline(always)]
fn run_tile<V: Vector, const M: usize, const TALLY: bool>(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    // Column M - 1 writes row r + 1's D' at step r + M - 1, where column 0 reads it from step
    // r + 1 on: the write must come later.
    const { assert!(M >= 3, "column 0 must read a row's D' before column M - 1 writes it") };
    check_sizes(w, h, edges, values);
    assert!(
        w.is_multiple_of(M)
            && h.is_multiple_of(LANES)
            && (2 * LANES..=super::contract::MAX_HEIGHT).contains(&h),
        "tile {w} x {h} does not fit the lanes"
    );
    let bh = h / LANES;
    let groups = w / M;
    let Scratch { r: r_rows, d: d_rows, cols, sums, counts } = scratch;
    // With the tally: the sums of several passes (at least one), counted when full; the
    // lanes a pass leaves idle are set to `BIAS` (v = 0) and taken back from the zeros' count
    // at the end.
    let per_pass = bh * M;
    let passes_per_count = (TALLY_BYTES / (LANES * per_pass)).max(1);
    let mut filled = 0usize;
    let mut idle = 0u64;
    // The tile's counts, added to the scratch's only if the tile is valid.
    let mut tile_counts = [0u64; 256];
    if TALLY {
        sums.clear();
        sums.resize(per_pass * passes_per_count, Lane::default());
    }
    r_rows.clear();
    r_rows.resize(bh, Lane::default());
    d_rows.clear();
    d_rows.resize(bh, Lane::default());
    cols.clear();
    cols.resize(bh, [Lane::default(); 2]);

    let zero = V::splat(0);
    let mut c_exit = [zero; M];
    let mut d_bot = [zero; M];
    let mut d_bot_pp = zero;
    let mut or = zero;
    let mut palaces = 0u64;
    for t in 0..groups + LANES - 1 {
        // Lane 0 reads the tile's top edge; its group is t.
        let top = |v: &[u8], col: usize| if t < groups && col < w { v[col] } else { 0 };
        let mut regs = Regs::<V, M> {
            c: std::array::from_fn(|i| c_exit[i].shift_in(top(&edges.c, t * M + i))),
            rx: [zero; M],
            dw: [zero; M],
            // Column i + 1 takes its first D' from the band above, column i of this group.
            dh: std::array::from_fn(|i| {
                if i + 1 < M { d_bot[i].shift_in(top(&edges.d_top, t * M + i + 1)) } else { zero }
            }),
            dbot: [zero; M],
            vbot0: [zero; M],
            vbot1: [zero; M],
            acc: zero,
        };
        // Column 0's first D' comes from the band above, last column of the group before.
        V::store(d_bot_pp.shift_in(top(&edges.d_top, t * M)), &mut d_rows[0]);
        d_bot_pp = d_bot[M - 1];
        let c_start = regs.c;
        // Band t starts: its rows' R and D' from the tile's left edge.
        if t < LANES {
            for row in 0..bh {
                r_rows[row].0[t] = edges.r[t * bh + row];
                if t > 0 || row > 0 {
                    d_rows[row].0[t] = edges.d_left[t * bh + row];
                }
            }
        }
        // A band finishes in this pass: keep the values of its last two columns.
        let finishing = t + 1 >= groups;
        let here = &mut sums[filled * per_pass..(filled + usize::from(TALLY)) * per_pass];
        regs = if finishing {
            pass::<V, M, true, TALLY>(regs, r_rows, d_rows, cols, here)
        } else {
            pass::<V, M, false, TALLY>(regs, r_rows, d_rows, cols, here)
        };
        // Lanes j with 0 <= t - j < groups computed real cells.
        let lo = (t + 1).saturating_sub(groups);
        let hi = t.min(LANES - 1);
        if TALLY {
            if lo > 0 || hi < LANES - 1 {
                let mut idle_lanes = Lane([BIAS; LANES]);
                idle_lanes.0[lo..=hi].fill(0);
                let mut active = Lane::default();
                active.0[lo..=hi].fill(0xFF);
                let (active, idle_lanes) = (V::load(&active), V::load(&idle_lanes));
                for l in here.iter_mut() {
                    V::load(l).and(active).or(idle_lanes).store(l);
                }
                idle += ((LANES - (hi + 1 - lo)) * per_pass) as u64;
            }
            filled += 1;
            let last = t + 1 == groups + LANES - 1;
            if filled == passes_per_count || last {
                count_lanes(&mut sums[..filled * per_pass], &mut tile_counts);
                filled = 0;
                if last {
                    tile_counts[128] -= idle;
                }
            }
        }
        let mut mask = Lane::default();
        mask.0[lo..=hi].fill(0xFF);
        let mask = V::load(&mask);
        or = or.or(regs.acc.and(mask));
        for (c, start) in regs.c.iter().zip(c_start) {
            palaces += u64::from(c.sub(start).and(mask).sum());
        }
        c_exit = regs.c;
        d_bot = regs.dbot;
        // The last band leaves the tile's bottom edge.
        if t >= LANES - 1 && t - (LANES - 1) < groups {
            let base = (t - (LANES - 1)) * M;
            for i in 0..M {
                edges.c[base + i] = regs.c[i].lane(LANES - 1);
                edges.d_top[base + i] = regs.dbot[i].lane(LANES - 1);
                values.bottom[base + i] = regs.vbot0[i].lane(LANES - 1) as i8;
                values.bottom[w + base + i] = regs.vbot1[i].lane(LANES - 1) as i8;
            }
        }
        // Band j = t + 1 - groups leaves the tile's right edge.
        if finishing && t + 1 - groups < LANES {
            let j = t + 1 - groups;
            for row in 0..bh {
                edges.r[j * bh + row] = r_rows[row].0[j];
                edges.d_left[j * bh + row] =
                    if row + 1 < bh { d_rows[row + 1].0[j] } else { regs.dbot[M - 1].lane(j) };
                for (q, col) in cols[row].iter().enumerate() {
                    values.right[2 * (j * bh + row) + q] = col.0[j] as i8;
                }
            }
        }
    }
    let valid = or.lane_or() & OUT_OF_RANGE == 0;
    if TALLY && valid {
        let counts = counts.as_deref_mut().expect("tallying");
        for (c, t) in counts.iter_mut().zip(tile_counts) {
            *c += t;
        }
    }
    Outcome { valid, palaces }
}

trait LaneOr {
    fn lane_or(self) -> u8;
}

impl<V: Vector> LaneOr for V {
    #[inline(always)]
    fn lane_or(self) -> u8 {
        let mut l = Lane::default();
        self.store(&mut l);
        l.0.iter().fold(0, |a, &b| a | b)
    }
}

/// One pass: `M` columns down all `bh` rows, as a skewed wavefront. With `COLS`, the values of
/// the last two columns are kept per row.
#[inline(always)]
fn pass<V: Vector, const M: usize, const COLS: bool, const TALLY: bool>(
    mut regs: Regs<V, M>,
    r_rows: &mut [Lane],
    d_rows: &mut [Lane],
    cols: &mut [[Lane; 2]],
    sums: &mut [Lane],
) -> Regs<V, M> {
    let bh = r_rows.len();
    assert!(d_rows.len() == bh && cols.len() == bh && (!TALLY || sums.len() == bh * M));
    // Steps where every column is active and none is on the last two rows: the lean loop.
    let lean = M - 1..bh.saturating_sub(2);
    for s in 0..lean.start.min(bh + M - 1) {
        edge_step::<V, M, COLS, TALLY>(&mut regs, s, r_rows, d_rows, cols, sums);
    }
    // Two steps per round: `D'` takes two steps from column to column, so the registers
    // holding it trade places every step, and a round of two needs no moves between them.
    let mut s = lean.start;
    while s + 1 < lean.end {
        // SAFETY: lengths asserted above; `M - 1 <= s` and `s + 1 < lean.end = bh - 2`.
        unsafe {
            lean_step::<V, M, COLS, TALLY>(&mut regs, s, r_rows, d_rows, cols, sums);
            lean_step::<V, M, COLS, TALLY>(&mut regs, s + 1, r_rows, d_rows, cols, sums);
        }
        s += 2;
    }
    if s < lean.end {
        // SAFETY: as above, `s < lean.end`.
        unsafe { lean_step::<V, M, COLS, TALLY>(&mut regs, s, r_rows, d_rows, cols, sums) };
    }
    for s in lean.end.max(lean.start)..bh + M - 1 {
        edge_step::<V, M, COLS, TALLY>(&mut regs, s, r_rows, d_rows, cols, sums);
    }
    regs
}

/// A step of the lean loop: every column active, none on the band's last two rows.
///
/// # Safety
/// As for [`cell`], for rows `s - M + 1 ..= s`: `M - 1 <= s` and `s + 2 < bh`.
#[inline(always)]
unsafe fn lean_step<V: Vector, const M: usize, const COLS: bool, const TALLY: bool>(
    regs: &mut Regs<V, M>,
    s: usize,
    r_rows: &mut [Lane],
    d_rows: &mut [Lane],
    cols: &mut [[Lane; 2]],
    tallied: &mut [Lane],
) {
    let mut sums = [regs.acc; M];
    for i in (0..M).rev() {
        // SAFETY: the caller's promise: `s + 2 < bh` and `i <= M - 1 <= s`, so the row
        // `s - i` and the one after it lie in the band.
        let sum = unsafe { cell::<V, M, COLS, TALLY, false>(regs, i, s - i, r_rows, d_rows, cols, tallied) };
        if V::PAIRED {
            sums[i] = sum;
        } else {
            regs.acc = regs.acc.or(sum);
        }
    }
    if V::PAIRED {
        // The step's sums into the check, two at a time.
        // (Indexed, not sliced: a slice would put the sums in memory.)
        let mut acc = regs.acc;
        let mut i = 0;
        while i + 1 < M {
            acc = acc.or3(sums[i], sums[i + 1]);
            i += 2;
        }
        if i < M {
            acc = acc.or(sums[i]);
        }
        regs.acc = acc;
    }
}

/// A step at the wavefront's ends: only the active columns, with the last rows' bookkeeping.
#[inline(always)]
fn edge_step<V: Vector, const M: usize, const COLS: bool, const TALLY: bool>(
    regs: &mut Regs<V, M>,
    s: usize,
    r_rows: &mut [Lane],
    d_rows: &mut [Lane],
    cols: &mut [[Lane; 2]],
    sums: &mut [Lane],
) {
    let bh = r_rows.len();
    for i in (0..M).rev() {
        if i <= s && s - i < bh {
            // SAFETY: `s - i < bh`, and `pass` asserted the lengths equal.
            let sum = unsafe { cell::<V, M, COLS, TALLY, true>(regs, i, s - i, r_rows, d_rows, cols, sums) };
            regs.acc = regs.acc.or(sum);
        }
    }
}

/// Column `i` computes its cell in row `row` and returns its `s`, for the caller to gather
/// into the check. Columns are visited from the last to the first in a step, so each reads its
/// neighbour's registers before the neighbour moves on.
///
/// With `TALLY` the cell's sum `s` is stored at `sums[row * M + i]`.
///
/// # Safety
/// `r_rows`, `d_rows` and `cols` have the same length `bh`, `row < bh`, and unless `EDGE`,
/// `row + 1 < bh` (the lean steps never reach the last row); with `TALLY`, `sums` holds
/// `bh * M` lanes.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn cell<V: Vector, const M: usize, const COLS: bool, const TALLY: bool, const EDGE: bool>(
    regs: &mut Regs<V, M>,
    i: usize,
    row: usize,
    r_rows: &mut [Lane],
    d_rows: &mut [Lane],
    cols: &mut [[Lane; 2]],
    sums: &mut [Lane],
) -> V {
    let bh = r_rows.len();
    debug_assert!(row < bh && d_rows.len() == bh && cols.len() == bh && (EDGE || row + 1 < bh));
    // SAFETY (all accesses below): `row < bh`, and `row + 1 < bh` where it is used.
    let r_in = if i == 0 { V::load(unsafe { r_rows.get_unchecked(row) }) } else { regs.rx[i - 1] };
    let d_in = if i == 0 { V::load(unsafe { d_rows.get_unchecked(row) }) } else { regs.dw[i] };
    // `C` is added last: its chain from step to step is then add, compare, subtract.
    let s = r_in.add(d_in).add(regs.c[i]);
    let m = s.palace();
    let r_out = r_in.sub(m);
    regs.c[i] = regs.c[i].sub(m);
    let d_out = d_in.sub(m);
    regs.rx[i] = r_out;
    if i + 1 == M {
        r_out.store(unsafe { r_rows.get_unchecked_mut(row) });
        if !EDGE || row + 1 < bh {
            d_out.store(unsafe { d_rows.get_unchecked_mut(row + 1) });
        }
    } else {
        regs.dw[i + 1] = regs.dh[i];
        regs.dh[i] = d_out;
    }
    if COLS && i + 2 >= M {
        s.sub(V::splat(BIAS)).store(unsafe { &mut cols.get_unchecked_mut(row)[i + 2 - M] });
    }
    if TALLY {
        // SAFETY: `row < bh` and `i < M`, so the index is below `bh * M`.
        s.store(unsafe { sums.get_unchecked_mut(row * M + i) });
    }
    if EDGE && row + 2 == bh {
        regs.vbot0[i] = s.sub(V::splat(BIAS));
    }
    if EDGE && row + 1 == bh {
        regs.vbot1[i] = s.sub(V::splat(BIAS));
        regs.dbot[i] = d_out;
    }
    s
}
