//! A tile's buffer for the narrow kernels: its cells in the arrangement a kernel writes, the
//! halo gathered from the neighbours, the limit within which 8-bit arithmetic is exact.

use crate::simd::histogram::Run;
use std::sync::{Arc, Mutex, OnceLock};

/// Values the narrow kernels accept as inputs and produce without flagging. With all six
/// inputs within +-24, `|a - b - c + e + f + p| <= 5 * 24 + 5 = 125`, so 8-bit arithmetic is
/// exact and every sign is right.
pub const NARROW_LIMIT: i8 = 24;

/// Row `r` of a tile starts `r % ROW_SKEW` bytes into its stride, so that a vector kernel's
/// stores of lane `i` (row `r0 + i`, columns `s0 - i ..`) all land on the same alignment.
pub const ROW_SKEW: usize = 64;

/// Bytes a vector kernel may write past the end of a row, skew included (AVX-512: up to
/// 125 columns past the row's end plus a skew of at most 63 minus the lane; see the kernels).
pub(crate) const ROW_SLACK: usize = 126;

/// A narrow kernel: computes a `w x h` tile from its 8-bit halo into `out` (in `out`'s
/// arrangement, which must be rows unless the kernel has [`KernelChoice::diagonal_lanes`](crate::kernel::KernelChoice::diagonal_lanes)) and
/// returns
/// `false` if some value left `-NARROW_LIMIT..=NARROW_LIMIT` (the tile must then be recomputed
/// by the wide kernel). The halo layout is that of [`wide::wide_tile`](crate::kernel::wide::wide_tile): `top` holds rows
/// `y0 - 2` and `y0 - 1` over columns `x0 - 2 .. x0 + w`, `left` the two cells left of each
/// row. All halo values must lie within the limit.
pub type NarrowFn = fn(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool;

/// Recycled tile buffers, so tiles are not allocated and zeroed afresh.
#[derive(Debug, Default)]
pub struct BufPool(Mutex<Vec<Box<[i8]>>>);

/// How a [`TileBuf`] arranges its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrangement {
    /// Row-major: row `r` starts at `r * stride + r % ROW_SKEW` from a 64-byte aligned origin,
    /// with slack after it that vector kernels may scribble on (see [`TileBuf::col0`]).
    Rows,
    /// As a vector kernel computes them: blocks of `lanes` rows, each block the sequence of its
    /// steps, step `s` holding lane `i` = the cell at row `block * lanes + i`, column `s - i`.
    /// No transpose is needed; rows are assembled on demand. For consumers that do not care
    /// about order (statistics), and only from the vector kernels.
    Diagonal(usize),
}

/// The cells of a computed tile, `h` rows of `w` values, in one of two [`Arrangement`]s.
#[derive(Debug)]
pub struct TileBuf {
    data: Box<[i8]>,
    origin: usize,
    w: usize,
    h: usize,
    arrangement: Arrangement,
    /// Rows: the row stride. Diagonal: the block stride.
    stride: usize,
    /// Diagonal only: the cells row-major, made on first demand.
    rows: OnceLock<Box<[i8]>>,
    pool: Option<Arc<BufPool>>,
}

impl TileBuf {
    fn layout(w: usize, h: usize, arrangement: Arrangement) -> (usize, usize) {
        match arrangement {
            Arrangement::Rows => {
                let stride = (w + ROW_SLACK).next_multiple_of(64);
                (stride, stride * h + 64)
            }
            Arrangement::Diagonal(lanes) => {
                let stride = (w + lanes - 1) * lanes;
                (stride, stride * h.div_ceil(lanes) + 64)
            }
        }
    }

    fn with_data(
        data: Box<[i8]>,
        w: usize,
        h: usize,
        arrangement: Arrangement,
        pool: Option<Arc<BufPool>>,
    ) -> Self {
        let (stride, _) = Self::layout(w, h, arrangement);
        let origin = data.as_ptr().align_offset(64);
        TileBuf { data, origin, w, h, arrangement, stride, rows: OnceLock::new(), pool }
    }

    /// A fresh zeroed row-major buffer.
    pub fn new(w: usize, h: usize) -> Self {
        Self::arranged(w, h, Arrangement::Rows)
    }

    /// A fresh zeroed buffer in the given arrangement.
    pub fn arranged(w: usize, h: usize, arrangement: Arrangement) -> Self {
        let (_, len) = Self::layout(w, h, arrangement);
        Self::with_data(vec![0i8; len].into_boxed_slice(), w, h, arrangement, None)
    }

    /// A buffer from `pool` (contents unspecified), returned to it on drop.
    pub fn pooled(pool: &Arc<BufPool>, w: usize, h: usize, arrangement: Arrangement) -> Self {
        let (_, need) = Self::layout(w, h, arrangement);
        let recycled = {
            let mut free = pool.0.lock().expect("pool lock");
            free.iter().rposition(|b| b.len() == need).map(|i| free.swap_remove(i))
        };
        let data = recycled.unwrap_or_else(|| vec![0i8; need].into_boxed_slice());
        Self::with_data(data, w, h, arrangement, Some(Arc::clone(pool)))
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.h
    }

    /// How the cells are arranged.
    pub fn arrangement(&self) -> Arrangement {
        self.arrangement
    }

    /// Rows arrangement: offset in the raw buffer of row `r`, column 0. A vector kernel may
    /// write row `r` from `col0(r) - r % ROW_SKEW` to `col0(r) + w + 126 - r % ROW_SKEW`.
    #[inline]
    pub fn col0(&self, r: usize) -> usize {
        debug_assert_eq!(self.arrangement, Arrangement::Rows);
        self.origin + r * self.stride + r % ROW_SKEW
    }

    /// Diagonal arrangement: offset in the raw buffer of block `b`'s step 0.
    #[inline]
    pub(crate) fn block0(&self, b: usize) -> usize {
        debug_assert!(matches!(self.arrangement, Arrangement::Diagonal(_)));
        self.origin + b * self.stride
    }

    /// The cell at row `r`, column `c`.
    #[inline]
    pub fn at(&self, r: usize, c: usize) -> i8 {
        debug_assert!(r < self.h && c < self.w);
        match self.arrangement {
            Arrangement::Rows => self.data[self.col0(r) + c],
            Arrangement::Diagonal(l) => self.data[self.block0(r / l) + (c + r % l) * l + r % l],
        }
    }

    /// The last `min(2, h)` rows, row after row (in the diagonal arrangement both rows are read
    /// in one pass over the last block's steps, not cell by cell).
    pub fn bottom_rows(&self) -> Vec<i8> {
        let (w, h) = (self.w, self.h);
        let r0 = h.saturating_sub(2);
        let mut b = vec![0i8; (h - r0) * w];
        if let Arrangement::Diagonal(l) = self.arrangement
            && h >= 2
            && r0 / l == (h - 1) / l
        {
            // Lanes `la` and `la + 1` of one block: row h - 2 at column c is lane `la` of step
            // `c + la`, row h - 1 lane `la + 1` of step `c + la + 1`.
            let (first, second) = b.split_at_mut(w);
            let (base, la) = (self.block0(r0 / l), r0 % l);
            let at =
                |s: usize| -> [i8; 2] { self.data[base + s * l + la..][..2].try_into().expect("two lanes") };
            let mut prev = at(la);
            for c in 0..w {
                let next = at(c + la + 1);
                first[c] = prev[0];
                second[c] = next[1];
                prev = next;
            }
        } else {
            for (r, out) in (r0..h).zip(b.chunks_exact_mut(w)) {
                self.copy_row(r, 0, w, out);
            }
        }
        b
    }

    /// Copies row `r`, columns `c0..c1`, to `out` (without assembling the whole row).
    pub fn copy_row(&self, r: usize, c0: usize, c1: usize, out: &mut [i8]) {
        match self.arrangement {
            Arrangement::Rows => out.copy_from_slice(&self.row(r)[c0..c1]),
            Arrangement::Diagonal(l) => {
                let (base, lane) = (self.block0(r / l), r % l);
                for (o, c) in out.iter_mut().zip(c0..c1) {
                    *o = self.data[base + (c + lane) * l + lane];
                }
            }
        }
    }

    /// Row `r`, columns `c0..c1`, borrowed: in the rows arrangement only.
    #[inline]
    pub fn row_slice(&self, r: usize, c0: usize, c1: usize) -> Option<&[i8]> {
        match self.arrangement {
            Arrangement::Rows => Some(&self.data[self.col0(r)..][c0..c1]),
            Arrangement::Diagonal(_) => None,
        }
    }

    /// Row `r`. In the diagonal arrangement the first call assembles all rows (kept with the
    /// tile), so call it only where rows are really needed.
    #[inline]
    pub fn row(&self, r: usize) -> &[i8] {
        debug_assert!(r < self.h);
        match self.arrangement {
            Arrangement::Rows => &self.data[self.col0(r)..][..self.w],
            Arrangement::Diagonal(_) => {
                let rows = self.rows.get_or_init(|| {
                    let mut all = vec![0i8; self.w * self.h];
                    for (rr, row) in all.chunks_exact_mut(self.w).enumerate() {
                        self.copy_row(rr, 0, self.w, row);
                    }
                    all.into_boxed_slice()
                });
                &rows[r * self.w..][..self.w]
            }
        }
    }

    /// Row `r`, writable (rows arrangement only).
    #[inline]
    pub(crate) fn row_mut(&mut self, r: usize) -> &mut [i8] {
        assert_eq!(self.arrangement, Arrangement::Rows, "row_mut on a diagonal tile");
        debug_assert!(r < self.h);
        let c = self.col0(r);
        &mut self.data[c..][..self.w]
    }

    /// The raw buffer, for vector kernels (see [`TileBuf::col0`] and [`TileBuf::block0`] for
    /// where they may write).
    #[inline]
    pub(crate) fn raw_mut(&mut self) -> &mut [i8] {
        &mut self.data
    }

    /// Calls `f` on contiguous runs of cells that together cover rows `r0..r1`, columns
    /// `c0..c1` exactly once, in no particular order: for order-independent consumers, without
    /// assembling rows. A run's [`Run::counted`] cells are the covered ones; in the diagonal
    /// arrangement a partial step comes with its whole step around it, for masked vector loads.
    pub fn for_each_run<'s>(
        &'s self,
        r0: usize,
        r1: usize,
        c0: usize,
        c1: usize,
        mut f: impl FnMut(Run<'s>),
    ) {
        match self.arrangement {
            Arrangement::Rows => {
                for r in r0..r1 {
                    f(Run::whole(&self.row(r)[c0..c1]));
                }
            }
            Arrangement::Diagonal(l) => {
                for b in r0 / l..r1.div_ceil(l) {
                    let base = self.block0(b);
                    let top = b * l;
                    // Lanes of this block inside the rows wanted.
                    let (la, lb) = (r0.saturating_sub(top), (r1 - top).min(l));
                    if la >= lb {
                        continue;
                    }
                    let (c0, c1) = (c0 as isize, c1 as isize);
                    let (la, lb) = (la as isize, lb as isize);
                    // Step s holds lanes i with c0 <= s - i < c1: a contiguous range.
                    let lanes = |s: isize| ((s - c1 + 1).max(la), (s - c0 + 1).min(lb));
                    let (first, last) = (c0 + la, c1 - 1 + lb - 1);
                    // Steps whose lanes are the whole block form one contiguous run.
                    let (full0, full1) =
                        if la == 0 && lb == l as isize { (lb - 1 + c0, c1 - 1 + la) } else { (1, 0) };
                    let mut s = first;
                    while s <= last {
                        if s == full0 && full0 <= full1 {
                            let start = base + s as usize * l;
                            f(Run::whole(&self.data[start..start + (full1 - full0 + 1) as usize * l]));
                            s = full1 + 1;
                            continue;
                        }
                        let (a, z) = lanes(s);
                        if a < z {
                            // A partial step: handed over whole, the lanes a..z counted.
                            let start = base + s as usize * l;
                            f(Run { cells: &self.data[start..start + l], lo: a as usize, hi: z as usize });
                        }
                        s += 1;
                    }
                }
            }
        }
    }
}

impl Drop for TileBuf {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            let data = std::mem::take(&mut self.data);
            if let Ok(mut free) = pool.0.lock() {
                free.push(data);
            }
        }
    }
}

/// The two rows above row block `r0` of a tile, as a narrow kernel needs them (layout of the
/// `top` halo): from the tile's own halo for the first block, else from the rows already
/// computed.
pub(crate) fn block_top(top: &[i8], left: &[i8], out: &TileBuf, r0: usize, btop: &mut [i8]) {
    let w = out.width();
    debug_assert_eq!(btop.len(), 2 * (w + 2));
    if r0 == 0 {
        btop.copy_from_slice(top);
        return;
    }
    for q in 0..2 {
        let r = r0 - 2 + q;
        let dst = &mut btop[q * (w + 2)..(q + 1) * (w + 2)];
        dst[0] = left[2 * r];
        dst[1] = left[2 * r + 1];
        out.copy_row(r, 0, w, &mut dst[2..]);
    }
}

/// The interleaved halo of the block pair starting at row `r0` (see [`interleave_halo`]), in
/// `hal`; `btop` is scratch. A vector kernel with `L` lanes storing `out` in the diagonal
/// arrangement already holds the two rows above a later pair side by side: lanes `L - 2` and
/// `L - 1` of the previous block's step `t + L` are exactly the pair of step `t`, so they are
/// copied two bytes at a time instead of assembling the rows and interleaving them.
#[cfg(target_arch = "x86_64")]
pub(crate) fn block_halo<const L: usize>(
    top: &[i8],
    left: &[i8],
    out: &TileBuf,
    r0: usize,
    btop: &mut [i8],
    hal: &mut [i8],
) {
    let w = out.width();
    if r0 == 0 || out.arrangement() != Arrangement::Diagonal(L) {
        block_top(top, left, out, r0, btop);
        interleave_halo(btop, w, hal);
        return;
    }
    // Steps 0 .. w + L - 1 of the previous (full) block are stored; pair j = t + 4 comes from
    // step j + L - 4. The left halo of columns -2 and -1 was injected into those lanes by the
    // kernel, and columns past the tile hold 0, as the interleaved halo wants.
    let base = out.block0(r0 / L - 1);
    let steps = w + L - 1;
    let (front, body) = hal.split_at_mut(HOFF);
    front.fill(0);
    let n = body.len() / 2;
    let stored = n.min(steps - (L - 4));
    last_lane_pairs(&out.data[base..base + steps * L], L, L - 4, &mut body[..2 * stored]);
    body[2 * stored..].fill(0);
}

/// Copies lanes `l - 2` and `l - 1` of the steps `first ..` of a diagonal block `src` (`l`
/// bytes per step) to consecutive pairs of `dst`, as many as `dst` holds.
#[cfg(target_arch = "x86_64")]
pub(crate) fn last_lane_pairs(src: &[i8], l: usize, first: usize, dst: &mut [i8]) {
    let done = if l >= 32 && is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present.
        unsafe { last_pairs_avx2(src, l, first, dst) }
    } else {
        0
    };
    for (i, pair) in dst.chunks_exact_mut(2).enumerate().skip(done) {
        let s = (first + i) * l + l - 2;
        pair.copy_from_slice(&src[s..s + 2]);
    }
}

/// [`last_lane_pairs`] eight steps per round, for as many pairs as whole rounds cover;
/// returns how many were copied.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) fn last_pairs_avx2(src: &[i8], l: usize, first: usize, dst: &mut [i8]) -> usize {
    use std::arch::x86_64::*;
    let rounds = dst.len() / 16;
    assert!(l >= 32 && (first + 8 * rounds) * l <= src.len());
    for r in 0..rounds {
        // Word 15 of the 32 bytes ending each step is the pair wanted; three rounds of
        // unpacking gather the eight words in the upper 128-bit half.
        let v: [__m256i; 8] = std::array::from_fn(|i| {
            let off = (first + 8 * r + i) * l + l - 32;
            // SAFETY: off + 32 <= (first + 8 * rounds) * l <= src.len() (asserted).
            unsafe { _mm256_loadu_si256(src.as_ptr().add(off).cast()) }
        });
        let w01 = _mm256_unpackhi_epi16(v[0], v[1]);
        let w23 = _mm256_unpackhi_epi16(v[2], v[3]);
        let w45 = _mm256_unpackhi_epi16(v[4], v[5]);
        let w67 = _mm256_unpackhi_epi16(v[6], v[7]);
        let d03 = _mm256_unpackhi_epi32(w01, w23);
        let d47 = _mm256_unpackhi_epi32(w45, w67);
        let all = _mm256_extracti128_si256::<1>(_mm256_unpackhi_epi64(d03, d47));
        debug_assert!(16 * r + 16 <= dst.len());
        // SAFETY: 16 * r + 16 <= dst.len().
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(16 * r).cast(), all) };
    }
    rounds * 8
}

/// Offset of step `t = -4` in the interleaved halo (room for a 16-byte load ending there).
#[cfg(target_arch = "x86_64")]
pub(crate) const HOFF: usize = 16;

/// `hal[HOFF + 2 (t + 4)] = V_t[-2] = (t + 2, r0 - 2)` and `hal[HOFF + 2 (t + 4) + 1] =
/// V_t[-1] = (t + 1, r0 - 1)`, 0 beyond the tile.
#[cfg(target_arch = "x86_64")]
pub(crate) fn interleave_halo(btop: &[i8], w: usize, hal: &mut [i8]) {
    let n = w + 2;
    let (up2, up1) = btop.split_at(n);
    assert!(hal.len() >= HOFF + 2 * (n + 1));
    let (front, body) = hal.split_at_mut(HOFF);
    front.fill(0);
    // Pair j = t + 4 holds (up2[j], up1[j - 1]), with up1[-1] and up2[n] outside the halo (0).
    body[0] = up2[0];
    body[1] = 0;
    let mut j = 1;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 is part of x86-64: interleave 16 pairs per step.
        while j + 16 <= n {
            // SAFETY: up2[j..j + 16], up1[j - 1..j + 15] and body[2j..2j + 32] are in bounds.
            unsafe {
                let a = _mm_loadu_si128(up2.as_ptr().add(j).cast());
                let b = _mm_loadu_si128(up1.as_ptr().add(j - 1).cast());
                debug_assert!(2 * j + 32 <= body.len());
                let dst = body.as_mut_ptr().add(2 * j);
                _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi8(a, b));
                _mm_storeu_si128(dst.add(16).cast(), _mm_unpackhi_epi8(a, b));
            }
            j += 16;
        }
    }
    while j < n {
        body[2 * j] = up2[j];
        body[2 * j + 1] = up1[j - 1];
        j += 1;
    }
    body[2 * n] = 0;
    body[2 * n + 1] = up1[n - 1];
    body[2 * n + 2..].fill(0);
}

/// The left halo of a block as lane vectors: lane `i` of the first holds the cell at column
/// -2 of row `r0 + i`, of the second the cell at column -1 (0 for lanes below the tile).
#[cfg(target_arch = "x86_64")]
pub(crate) fn left_columns<const L: usize>(left: &[i8], r0: usize, rows: usize) -> ([i8; L], [i8; L]) {
    let mut c2 = [0i8; L];
    let mut c1 = [0i8; L];
    for i in 0..rows {
        c2[i] = left[2 * (r0 + i)];
        c1[i] = left[2 * (r0 + i) + 1];
    }
    (c2, c1)
}

/// How a narrow kernel's 8-bit lanes lie over a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LaneLayout {
    /// One row per lane, the tile computed along its anti-diagonals (32 rows at once with
    /// AVX2 and plain Rust, 64 with AVX-512).
    Diagonal,
    /// The CA rule in band lanes with register blocking ([`band`](crate::kernel::band)): 3 columns per block with
    /// AVX2, 6 with AVX-512VL.
    Band,
}
