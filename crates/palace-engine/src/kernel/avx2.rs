//! The narrow kernel with AVX2: the lane scheme of [`super::portable`] with 32 rows in one
//! 256-bit register of 8-bit lanes.
//!
//! Per step it computes one anti-diagonal of 32 cells. Instead of recomputing the six
//! neighbours, each new vector `V_t` is *distributed* to the four later steps that read it,
//! through four rolling accumulators, using the form of the rule with the palace terms folded
//! into the operands (`m_z = -1` where `z < 0`, else 0):
//!
//! ```text
//!   g = (a - 3 m_a) - (b - 2 m_b) - (c - 2 m_c) + m_d + (e - m_e) + (f - m_f)
//! ```
//!
//! `V_t` is `e` of step `t + 1`; `S1_t` (`V_t` shifted up one lane, the row above entering lane
//! 0) is `f` of `t + 1`, `d` of `t + 2` and `c` of `t + 3`; `S2_t` (shifted two lanes) is `b` of
//! `t + 3` and `a` of `t + 4`. A lane shift is one `vinserti128`/`vperm2i128` plus one
//! `vpalignr`. Every 32 steps the 32 vectors are transposed in registers into 32 row segments
//! and stored.
//!
//! One step's chain (shift, sign, compensation, accumulation) is about eight cycles long, so
//! two blocks of 32 rows run interleaved: the lower block lags the upper one by 32 steps and
//! takes its two halo rows straight from the upper block's vector of the same iteration.

use super::buf::{Arrangement, HOFF, NARROW_LIMIT, TileBuf, block_halo, left_columns};
use crate::simd::masks::lanes_le;
use std::arch::x86_64::*;

const L: usize = 32;

/// Whether this CPU has AVX2.
pub fn available() -> bool {
    is_x86_feature_detected!("avx2")
}

/// The AVX2 narrow kernel (see [`super::NarrowFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX2 or the buffers do not match `w` and `h`.
pub(crate) fn narrow_tile(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    assert!(available(), "AVX2 kernel on a CPU without AVX2");
    assert_eq!(top.len(), 2 * (w + 2));
    assert_eq!(left.len(), 2 * h);
    assert_eq!((out.width(), out.height()), (w, h));
    let mut btop = vec![0i8; 2 * (w + 2)];
    let mut hal = vec![0i8; HOFF + 2 * (w + L + 8)];
    let mut ok = true;
    for r0 in (0..h).step_by(2 * L) {
        block_halo::<L>(top, left, out, r0, &mut btop, &mut hal);
        // SAFETY: AVX2 is present (asserted above).
        ok &= unsafe { block_pair(&hal, left, w, h, r0, out) };
    }
    ok
}

/// The state of one block of 32 rows.
struct Chain {
    r0: usize,
    rows: usize,
    rowmask: __m256i,
    col2: __m256i,
    col1: __m256i,
    acc: [__m256i; 4],
    range: __m256i,
    /// Diagonal arrangement: where this block's step 0 goes (steps are stored as computed).
    /// With the bytes from there to the buffer's end, for the bounds' debug assertions.
    diag: Option<(*mut i8, usize)>,
}

impl Chain {
    #[target_feature(enable = "avx2")]
    fn new(left: &[i8], r0: usize, rows: usize) -> Self {
        let zero = _mm256_setzero_si256();
        let mut lanes = [0i8; L];
        lanes[..rows].fill(-1);
        let (c2, c1) = left_columns::<L>(left, r0, rows);
        Chain {
            r0,
            rows,
            rowmask: load(&lanes),
            col2: load(&c2),
            col1: load(&c1),
            acc: [zero; 4],
            range: zero,
            diag: None,
        }
    }

    /// The vector of step `t`: the completed accumulator, with lanes outside the tile forced
    /// to the left halo or 0.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn produce(&mut self, t: isize, w: usize) -> __m256i {
        let mut v = if t >= 0 { self.acc[0] } else { _mm256_setzero_si256() };
        if t < L as isize - 1 || t >= w as isize {
            // Lanes with a column in the tile keep their value; the lanes at columns -2 and -1
            // (i = t + 2 and i = t + 1) take the left halo; all others are 0.
            let valid = _mm256_andnot_si256(lanes_le(t - w as isize), lanes_le(t));
            let at1 = _mm256_andnot_si256(lanes_le(t), lanes_le(t + 1));
            let at2 = _mm256_andnot_si256(lanes_le(t + 1), lanes_le(t + 2));
            let inject = _mm256_or_si256(_mm256_and_si256(at1, self.col1), _mm256_and_si256(at2, self.col2));
            v = _mm256_or_si256(_mm256_and_si256(v, valid), inject);
        }
        if self.rows < L {
            v = _mm256_and_si256(v, self.rowmask);
        }
        self.range = _mm256_max_epu8(self.range, _mm256_add_epi8(v, _mm256_set1_epi8(NARROW_LIMIT)));
        v
    }

    /// Distributes `V_t` to steps `t + 1 .. t + 4`. `tmp` has the two halo rows in bytes 14
    /// and 15 of its low half and `V_t`'s low half in its high half.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn distribute(&mut self, v: __m256i, tmp: __m256i) {
        let zero = _mm256_setzero_si256();
        let mv = _mm256_cmpgt_epi8(zero, v);
        let e = _mm256_sub_epi8(v, mv);
        let s1 = _mm256_alignr_epi8::<15>(v, tmp);
        let s2 = _mm256_alignr_epi8::<14>(v, tmp);
        let m1 = _mm256_cmpgt_epi8(zero, s1);
        let m2 = _mm256_cmpgt_epi8(zero, s2);
        let f = _mm256_sub_epi8(s1, m1);
        let c = _mm256_sub_epi8(f, m1);
        let b = _mm256_sub_epi8(_mm256_sub_epi8(s2, m2), m2);
        let a = _mm256_sub_epi8(b, m2);
        let [_, acc2, acc3, acc4] = self.acc;
        self.acc = [
            _mm256_add_epi8(_mm256_add_epi8(acc2, e), f),
            _mm256_add_epi8(acc3, m1),
            _mm256_sub_epi8(_mm256_sub_epi8(acc4, b), c),
            a,
        ];
    }

    /// Keeps `V_t`: stores it in place (diagonal arrangement) or for the transpose (rows);
    /// true when a full (or the last) chunk is ready to transpose.
    #[inline(always)]
    fn keep(&self, chunk: &mut [__m256i; L], v: __m256i, t: isize, last: isize) -> bool {
        if t < 0 {
            return false;
        }
        let s = t as usize;
        if let Some((base, room)) = self.diag {
            debug_assert!((s + 1) * L <= room, "diagonal store of step {s} past the buffer ({room} bytes)");
            // SAFETY: the block holds w + L - 1 steps of L bytes and t < last = w + L - 1.
            unsafe { _mm256_storeu_si256(base.add(s * L).cast(), v) };
            return false;
        }
        chunk[s % L] = v;
        s % L == L - 1 || t == last - 1
    }

    /// Transposes and stores the chunk ending at step `t`.
    ///
    /// # Safety
    /// `base` points to a tile buffer of `len` bytes in the rows arrangement whose row starts
    /// are `col0`, and the chunk's rows lie inside the tile; each row's slack then holds the
    /// 32 bytes stored from its start.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn flush(&self, chunk: &mut [__m256i; L], t: isize, base: *mut i8, len: usize, col0: &[usize]) {
        let s = t as usize;
        // SAFETY: rows r0 + i < h; the columns written lie within the slack `TileBuf::col0` allows.
        unsafe { store_chunk(chunk, base, len, col0, self.r0, self.rows, s - s % L) };
    }

    /// Whether every value stayed within the limit.
    #[target_feature(enable = "avx2")]
    fn in_range(&self) -> bool {
        // All values within the limit <=> every biased byte <= 2 * limit.
        let limit = _mm256_set1_epi8(2 * NARROW_LIMIT);
        let over = _mm256_cmpeq_epi8(_mm256_max_epu8(self.range, limit), limit);
        _mm256_movemask_epi8(over) == -1
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn load(a: &[i8; L]) -> __m256i {
    // SAFETY: reading 32 bytes from a 32-byte array.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

/// Rows `r0 .. r0 + 64` (or fewer): the upper block at steps `t`, the lower one at `t - 32`.
///
/// # Safety
/// The CPU has AVX2; `out` is a `w x h` tile buffer (with the slack `TileBuf` reserves for
/// vector stores) in the rows or `Diagonal(32)` arrangement, `r0 < h`, and `hal` and `left`
/// hold the halo laid out by `interleave_halo` and `wide::wide_tile`.
#[target_feature(enable = "avx2")]
unsafe fn block_pair(hal: &[i8], left: &[i8], w: usize, h: usize, r0: usize, out: &mut TileBuf) -> bool {
    let rows_a = L.min(h - r0);
    let rows_b = L.min(h - r0 - rows_a);
    let mut a = Chain::new(left, r0, rows_a);
    let mut b = Chain::new(left, r0 + rows_a, rows_b);
    // The step vectors awaiting a transpose (rows arrangement), apart from the chains: a
    // chain whose address escaped would keep its accumulators in memory.
    let (mut chunk_a, mut chunk_b) = ([_mm256_setzero_si256(); L], [_mm256_setzero_si256(); L]);
    let diagonal = out.arrangement() == Arrangement::Diagonal(L);
    assert!(diagonal || out.arrangement() == Arrangement::Rows, "unsupported arrangement");
    let col0: Vec<usize> = if diagonal { Vec::new() } else { (0..h).map(|r| out.col0(r)).collect() };
    let (blk_a, blk_b) = if diagonal { (out.block0(r0 / L), out.block0(r0 / L + 1)) } else { (0, 0) };
    let raw = out.raw_mut();
    let len = raw.len();
    let base = raw.as_mut_ptr();
    if diagonal {
        // SAFETY: both offsets lie inside the buffer (block r0 / L + 1 exists when rows_b > 0).
        unsafe {
            a.diag = Some((base.add(blk_a), len - blk_a));
            b.diag = (rows_b > 0).then(|| (base.add(blk_b), len - blk_b));
        }
    }
    let last = (w + L - 1) as isize; // each block's steps run over -4..last
    let end = if rows_b > 0 { last + L as isize } else { last };
    // Steps where both blocks are full and inside the tile's columns (upper block t >= 31,
    // lower block t - 32 >= 31, both below w) need no lane masking: a lean loop with fewer
    // live registers (AVX2 has 16) runs them; the general step handles the edges.
    let (s0, s1) = if rows_a == L && rows_b == L && w as isize > 2 * L as isize - 1 {
        (2 * L as isize - 1, w as isize)
    } else {
        (end, end)
    };
    let step = |t: isize, a: &mut Chain, b: &mut Chain, ca: &mut [__m256i; L], cb: &mut [__m256i; L]| {
        let va = if t < last {
            let v = a.produce(t, w);
            let j = (t + 4) as usize;
            // SAFETY: HOFF + 2j - 14 >= 2 and HOFF + 2j + 2 <= hal.len() for j < w + L + 3.
            let hv = unsafe { _mm_loadu_si128(hal.as_ptr().add(HOFF + 2 * j - 14).cast()) };
            a.distribute(v, _mm256_permute2x128_si256::<0x20>(_mm256_castsi128_si256(hv), v));
            if a.keep(ca, v, t, last) {
                // SAFETY: see `flush`.
                unsafe { a.flush(ca, t, base, len, &col0) };
            }
            v
        } else {
            _mm256_setzero_si256() // past the tile: the upper block's lanes are all 0
        };
        let tb = t - L as isize;
        if rows_b > 0 && tb >= -4 {
            // The lower block's rows -2 and -1 are the upper block's lanes 30 and 31 at step
            // tb + 32 = t: the high half of va.
            let v = b.produce(tb, w);
            b.distribute(v, _mm256_permute2x128_si256::<0x21>(va, v));
            if b.keep(cb, v, tb, last) {
                // SAFETY: see `flush`.
                unsafe { b.flush(cb, tb, base, len, &col0) };
            }
        }
    };
    for t in -4..s0 {
        step(t, &mut a, &mut b, &mut chunk_a, &mut chunk_b);
    }
    let bias = _mm256_set1_epi8(NARROW_LIMIT);
    for t in s0..s1 {
        // `produce` without masks: the completed accumulators themselves.
        let va = a.acc[0];
        let vb = b.acc[0];
        a.range = _mm256_max_epu8(a.range, _mm256_add_epi8(va, bias));
        b.range = _mm256_max_epu8(b.range, _mm256_add_epi8(vb, bias));
        let j = (t + 4) as usize;
        // SAFETY: as in `step`.
        let hv = unsafe { _mm_loadu_si128(hal.as_ptr().add(HOFF + 2 * j - 14).cast()) };
        a.distribute(va, _mm256_permute2x128_si256::<0x20>(_mm256_castsi128_si256(hv), va));
        if a.keep(&mut chunk_a, va, t, last) {
            // SAFETY: see `flush`.
            unsafe { a.flush(&mut chunk_a, t, base, len, &col0) };
        }
        let tb = t - L as isize;
        b.distribute(vb, _mm256_permute2x128_si256::<0x21>(va, vb));
        if b.keep(&mut chunk_b, vb, tb, last) {
            // SAFETY: see `flush`.
            unsafe { b.flush(&mut chunk_b, tb, base, len, &col0) };
        }
    }
    for t in s1.max(s0)..end {
        step(t, &mut a, &mut b, &mut chunk_a, &mut chunk_b);
    }
    a.in_range() && (rows_b == 0 || b.in_range())
}

/// Transposes the 32 step vectors of a chunk starting at step `s0` and stores lane `i` as the
/// row segment of row `r0 + i` starting at column `s0 - i` (out of line: once per 32 steps).
///
/// # Safety
/// `base` points to a buffer of `len` bytes whose row `r` starts at `col0[r]`, and every
/// row `r0 + i` (`i < rows`) has 32 bytes of room from column `s0 - i`.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn store_chunk(
    chunk: &mut [__m256i; L],
    base: *mut i8,
    len: usize,
    col0: &[usize],
    r0: usize,
    rows: usize,
    s0: usize,
) {
    let (lo, hi) = chunk.split_at_mut(16);
    let lo: &mut [__m256i; 16] = lo.try_into().expect("16");
    let hi: &mut [__m256i; 16] = hi.try_into().expect("16");
    // Each half now holds, per 128-bit lane, rows q (low lane) and 16 + q (high lane) over
    // 16 steps: join the two halves' lanes into 32-step rows and store them.
    transpose16_in_lanes(lo);
    transpose16_in_lanes(hi);
    for q in 0..16 {
        for (i, row) in [
            (q, _mm256_permute2x128_si256::<0x20>(lo[q], hi[q])),
            (16 + q, _mm256_permute2x128_si256::<0x31>(lo[q], hi[q])),
        ] {
            if i < rows {
                debug_assert!(col0[r0 + i] + s0 - i + 32 <= len, "row store past the buffer");
                // SAFETY: the caller guarantees the 32 bytes lie inside the row's slack.
                unsafe { _mm256_storeu_si256(base.add(col0[r0 + i] + s0 - i).cast(), row) };
            }
        }
    }
}

/// In-place 32 x 32 byte transpose: afterwards `x[i]` byte `j` is the old `x[j]` byte `i`.
#[cfg(test)]
#[target_feature(enable = "avx2")]
fn transpose32(x: &mut [__m256i; L]) {
    let (lo, hi) = x.split_at_mut(16);
    let lo: &mut [__m256i; 16] = lo.try_into().expect("16");
    let hi: &mut [__m256i; 16] = hi.try_into().expect("16");
    transpose16_in_lanes(lo);
    transpose16_in_lanes(hi);
    let mut out = [_mm256_setzero_si256(); L];
    for q in 0..16 {
        out[q] = _mm256_permute2x128_si256::<0x20>(lo[q], hi[q]);
        out[16 + q] = _mm256_permute2x128_si256::<0x31>(lo[q], hi[q]);
    }
    *x = out;
}

/// Transposes the 16 x 16 byte matrix held in each 128-bit half of `x[0..16]`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn transpose16_in_lanes(x: &mut [__m256i; 16]) {
    let mut a = [_mm256_setzero_si256(); 16];
    for i in 0..8 {
        a[2 * i] = _mm256_unpacklo_epi8(x[2 * i], x[2 * i + 1]);
        a[2 * i + 1] = _mm256_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
    }
    let mut b = [_mm256_setzero_si256(); 16];
    for i in 0..4 {
        b[4 * i] = _mm256_unpacklo_epi16(a[4 * i], a[4 * i + 2]);
        b[4 * i + 1] = _mm256_unpackhi_epi16(a[4 * i], a[4 * i + 2]);
        b[4 * i + 2] = _mm256_unpacklo_epi16(a[4 * i + 1], a[4 * i + 3]);
        b[4 * i + 3] = _mm256_unpackhi_epi16(a[4 * i + 1], a[4 * i + 3]);
    }
    let mut c = [_mm256_setzero_si256(); 16];
    for i in 0..2 {
        for g in 0..4 {
            c[8 * i + 2 * g] = _mm256_unpacklo_epi32(b[8 * i + g], b[8 * i + 4 + g]);
            c[8 * i + 2 * g + 1] = _mm256_unpackhi_epi32(b[8 * i + g], b[8 * i + 4 + g]);
        }
    }
    for m in 0..8 {
        x[2 * m] = _mm256_unpacklo_epi64(c[m], c[8 + m]);
        x[2 * m + 1] = _mm256_unpackhi_epi64(c[m], c[8 + m]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_is_a_transpose() {
        if !available() {
            return;
        }
        let mut m = [[0i8; L]; L];
        for (j, row) in m.iter_mut().enumerate() {
            for (i, v) in row.iter_mut().enumerate() {
                *v = (j * 7 + i * 13) as i8;
            }
        }
        // SAFETY: AVX2 checked above; loads/stores of 32-byte arrays.
        unsafe {
            let mut x = [_mm256_setzero_si256(); L];
            for j in 0..L {
                x[j] = _mm256_loadu_si256(m[j].as_ptr().cast());
            }
            transpose32(&mut x);
            for i in 0..L {
                let mut r = [0i8; L];
                _mm256_storeu_si256(r.as_mut_ptr().cast(), x[i]);
                for j in 0..L {
                    assert_eq!(r[j], m[j][i], "out[{i}][{j}]");
                }
            }
        }
    }
}
