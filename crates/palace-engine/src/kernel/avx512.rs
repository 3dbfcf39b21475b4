//! The narrow kernel with AVX-512 (BW and VBMI): the scheme of [`super::avx2`] with 64 rows in
//! one 512-bit register.
//!
//! Differences from AVX2: a lane shift with the halo rows entering at the bottom is one
//! two-table byte permute (`vpermt2b`, VBMI) against a broadcast of the halo pair; palace
//! signs are mask registers (`vpmovb2m`), and the palace terms are masked adds.

use super::buf::{Arrangement, HOFF, NARROW_LIMIT, TileBuf, block_halo, left_columns};
use std::arch::x86_64::*;

const L: usize = 64;

/// Whether this CPU has AVX-512 F, BW and VBMI.
pub fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vbmi")
}

/// The AVX-512 narrow kernel (see [`super::NarrowFn`]).
///
/// # Panics
/// Panics if the CPU lacks AVX-512 BW/VBMI or the buffers do not match `w` and `h`.
pub(crate) fn narrow_tile(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool {
    assert!(available(), "AVX-512 kernel on a CPU without AVX-512 BW/VBMI");
    assert_eq!(top.len(), 2 * (w + 2));
    assert_eq!(left.len(), 2 * h);
    assert_eq!((out.width(), out.height()), (w, h));
    let mut btop = vec![0i8; 2 * (w + 2)];
    let mut hal = vec![0i8; HOFF + 2 * (w + L + 8)];
    let diagonal = out.arrangement() == Arrangement::Diagonal(L);
    assert!(diagonal || out.arrangement() == Arrangement::Rows, "unsupported arrangement");
    let col0: Vec<usize> = if diagonal { Vec::new() } else { (0..h).map(|r| out.col0(r)).collect() };
    let mut ok = true;
    for r0 in (0..h).step_by(2 * L) {
        block_halo::<L>(top, left, out, r0, &mut btop, &mut hal);
        // SAFETY: the features are present (asserted above).
        ok &= unsafe { block_pair(&hal, left, w, h, r0, &col0, out) };
    }
    ok
}

/// The lanes `i <= n` as a mask (n may lie anywhere).
#[inline(always)]
fn lanes_le(n: isize) -> u64 {
    if n < 0 {
        0
    } else if n >= 63 {
        !0
    } else {
        (2u64 << n) - 1
    }
}

/// The state of one block of 64 rows.
struct Chain {
    r0: usize,
    rows: usize,
    rowmask: u64,
    col2: __m512i,
    col1: __m512i,
    acc: [__m512i; 4],
    range: __m512i,
    /// Diagonal arrangement: where this block's step 0 goes (steps are stored as computed).
    /// With the bytes from there to the buffer's end, for the bounds' debug assertions.
    diag: Option<(*mut i8, usize)>,
}

impl Chain {
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn new(left: &[i8], r0: usize, rows: usize) -> Self {
        let zero = _mm512_setzero_si512();
        let (c2, c1) = left_columns::<L>(left, r0, rows);
        let rowmask = if rows == L { !0 } else { (1u64 << rows) - 1 };
        Chain { r0, rows, rowmask, col2: load(&c2), col1: load(&c1), acc: [zero; 4], range: zero, diag: None }
    }

    /// The vector of step `t`: the completed accumulator, with lanes outside the tile forced
    /// to the left halo or 0.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn produce(&mut self, t: isize, w: usize) -> __m512i {
        let mut v = if t >= 0 { self.acc[0] } else { _mm512_setzero_si512() };
        if t < L as isize - 1 || t >= w as isize {
            // Lanes with a column in the tile keep their value; the lanes at columns -2 and -1
            // (i = t + 2 and i = t + 1) take the left halo; all others are 0.
            v = _mm512_maskz_mov_epi8(lanes_le(t) & !lanes_le(t - w as isize), v);
            v = _mm512_mask_mov_epi8(v, lanes_le(t + 1) & !lanes_le(t), self.col1);
            v = _mm512_mask_mov_epi8(v, lanes_le(t + 2) & !lanes_le(t + 1), self.col2);
        }
        if self.rows < L {
            v = _mm512_maskz_mov_epi8(self.rowmask, v);
        }
        self.range = _mm512_max_epu8(self.range, _mm512_add_epi8(v, _mm512_set1_epi8(NARROW_LIMIT)));
        v
    }

    /// Distributes `V_t` to steps `t + 1 .. t + 4`. Bytes 62 and 63 of `halo` hold the two
    /// rows above the block (`V_t[-2]`, `V_t[-1]`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn distribute(&mut self, v: __m512i, halo: __m512i, idx1: __m512i, idx2: __m512i) {
        let one = _mm512_set1_epi8(1);
        let s1 = _mm512_permutex2var_epi8(v, idx1, halo);
        let s2 = _mm512_permutex2var_epi8(v, idx2, halo);
        let kv = _mm512_movepi8_mask(v);
        let k1 = _mm512_movepi8_mask(s1);
        let k2 = _mm512_movepi8_mask(s2);
        let e = _mm512_mask_add_epi8(v, kv, v, one);
        let f = _mm512_mask_add_epi8(s1, k1, s1, one);
        let c = _mm512_mask_add_epi8(s1, k1, s1, _mm512_set1_epi8(2));
        let b = _mm512_mask_add_epi8(s2, k2, s2, _mm512_set1_epi8(2));
        let a = _mm512_mask_add_epi8(s2, k2, s2, _mm512_set1_epi8(3));
        let [_, acc2, acc3, acc4] = self.acc;
        self.acc = [
            _mm512_add_epi8(_mm512_add_epi8(acc2, e), f),
            _mm512_mask_sub_epi8(acc3, k1, acc3, one),
            _mm512_sub_epi8(_mm512_sub_epi8(acc4, b), c),
            a,
        ];
    }

    /// Keeps `V_t`: stores it in place (diagonal arrangement) or for the transpose (rows);
    /// true when a full (or the last) chunk is ready to transpose.
    #[inline(always)]
    fn keep(&self, chunk: &mut [__m512i; L], v: __m512i, t: isize, last: isize) -> bool {
        if t < 0 {
            return false;
        }
        let s = t as usize;
        if let Some((base, room)) = self.diag {
            debug_assert!((s + 1) * L <= room, "diagonal store of step {s} past the buffer ({room} bytes)");
            // SAFETY: the block holds w + L - 1 steps of L bytes and t < last = w + L - 1.
            unsafe { _mm512_storeu_si512(base.add(s * L).cast(), v) };
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
    /// 64 bytes stored from its start.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    unsafe fn flush(&self, chunk: &mut [__m512i; L], t: isize, base: *mut i8, len: usize, col0: &[usize]) {
        let s = t as usize;
        // SAFETY: rows r0 + i < h; the columns written lie within the slack `TileBuf::col0` allows.
        unsafe { store_chunk(chunk, base, len, col0, self.r0, self.rows, s - s % L) };
    }

    /// Whether every value stayed within the limit.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn in_range(&self) -> bool {
        _mm512_cmpgt_epu8_mask(self.range, _mm512_set1_epi8(2 * NARROW_LIMIT)) == 0
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn load(a: &[i8; L]) -> __m512i {
    // SAFETY: reading 64 bytes from a 64-byte array.
    unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
}

/// Rows `r0 .. r0 + 128` (or fewer): the upper block at steps `t`, the lower one at `t - 64`,
/// taking its halo rows from the upper block's lanes 62 and 63 of the same iteration.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI; `out` is a `w x h` tile buffer (with the slack
/// `TileBuf` reserves for vector stores) in the rows or `Diagonal(64)` arrangement, `r0 < h`,
/// and `hal` and `left` hold the halo laid out by `interleave_halo` and `wide::wide_tile`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn block_pair(
    hal: &[i8],
    left: &[i8],
    w: usize,
    h: usize,
    r0: usize,
    col0: &[usize],
    out: &mut TileBuf,
) -> bool {
    let rows_a = L.min(h - r0);
    let rows_b = L.min(h - r0 - rows_a);
    let mut a = Chain::new(left, r0, rows_a);
    let mut b = Chain::new(left, r0 + rows_a, rows_b);
    // The step vectors awaiting a transpose (rows arrangement), apart from the chains: a
    // chain whose address escaped would keep its accumulators in memory.
    let (mut chunk_a, mut chunk_b) = ([_mm512_setzero_si512(); L], [_mm512_setzero_si512(); L]);
    // The buffer's pointer is taken once: a second `as_mut_ptr` would invalidate the
    // diagonal pointers derived from the first under Rust's aliasing rules.
    let raw = out.raw_mut();
    let len = raw.len();
    let base = raw.as_mut_ptr();
    if out.arrangement() == Arrangement::Diagonal(L) {
        let (blk_a, blk_b) = (out.block0(r0 / L), out.block0(r0 / L + 1));
        // SAFETY: both offsets lie inside the buffer (block r0 / L + 1 exists when rows_b > 0).
        unsafe {
            a.diag = Some((base.add(blk_a), len - blk_a));
            b.diag = (rows_b > 0).then(|| (base.add(blk_b), len - blk_b));
        }
    }
    // Permute indices: lane j takes lane j - 1 (S1) or j - 2 (S2) of V; the bottom lanes take
    // bytes 62 and 63 of the second table, which hold the rows above the block.
    let mut i1 = [0i8; L];
    let mut i2 = [0i8; L];
    for j in 0..L {
        i1[j] = if j >= 1 { (j - 1) as i8 } else { (64 + 63) as u8 as i8 };
        i2[j] = if j >= 2 { (j - 2) as i8 } else { (64 + 62 + j) as u8 as i8 };
    }
    let (idx1, idx2) = (load(&i1), load(&i2));
    let last = (w + L - 1) as isize; // each block's steps run over -4..last
    let end = if rows_b > 0 { last + L as isize } else { last };
    for t in -4..end {
        let va = if t < last {
            let v = a.produce(t, w);
            let j = HOFF + 2 * (t + 4) as usize;
            // The halo pair (V_t[-2], V_t[-1]) broadcast: bytes 62 and 63 hold it.
            let halo = _mm512_set1_epi16(i16::from_le_bytes([hal[j] as u8, hal[j + 1] as u8]));
            a.distribute(v, halo, idx1, idx2);
            if a.keep(&mut chunk_a, v, t, last) {
                // SAFETY: see `flush`.
                unsafe { a.flush(&mut chunk_a, t, base, len, col0) };
            }
            v
        } else {
            _mm512_setzero_si512() // past the tile: the upper block's lanes are all 0
        };
        let tb = t - L as isize;
        if rows_b > 0 && tb >= -4 {
            let v = b.produce(tb, w);
            b.distribute(v, va, idx1, idx2);
            if b.keep(&mut chunk_b, v, tb, last) {
                // SAFETY: see `flush`.
                unsafe { b.flush(&mut chunk_b, tb, base, len, col0) };
            }
        }
    }
    a.in_range() && (rows_b == 0 || b.in_range())
}

/// Transposes the 64 step vectors of a chunk starting at step `s0` and stores lane `i` as the
/// row segment of row `r0 + i` starting at column `s0 - i` (out of line: once per 64 steps).
///
/// # Safety
/// `base` points to a buffer of `len` bytes whose row `r` starts at `col0[r]`, and every
/// row `r0 + i` (`i < rows`) has 64 bytes of room from column `s0 - i`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline(never)]
unsafe fn store_chunk(
    chunk: &mut [__m512i; L],
    base: *mut i8,
    len: usize,
    col0: &[usize],
    r0: usize,
    rows: usize,
    s0: usize,
) {
    for_each_transposed_row(chunk, |i, row| {
        if i < rows {
            debug_assert!(col0[r0 + i] + s0 - i + 64 <= len, "row store past the buffer");
            // SAFETY: the caller guarantees the 64 bytes lie inside the row's slack.
            unsafe { _mm512_storeu_si512(base.add(col0[r0 + i] + s0 - i).cast(), row) };
        }
    });
}

/// Transposes 64 x 64 bytes (`x[j]` byte `i` becomes byte `j` of row `i`) and hands each
/// row to `f`; `x` is left scrambled.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn for_each_transposed_row(x: &mut [__m512i; L], mut f: impl FnMut(usize, __m512i)) {
    // 16 x 16 transposes inside each 128-bit block of each group of 16 registers ...
    for g in 0..4 {
        let grp: &mut [__m512i; 16] = (&mut x[16 * g..16 * (g + 1)]).try_into().expect("16");
        transpose16_in_blocks(grp);
    }
    // ... then a 4 x 4 transpose of 128-bit blocks across the four groups.
    for q in 0..16 {
        let (g0, g1, g2, g3) = (x[q], x[16 + q], x[32 + q], x[48 + q]);
        let t0 = _mm512_shuffle_i64x2::<0x44>(g0, g1);
        let t1 = _mm512_shuffle_i64x2::<0xEE>(g0, g1);
        let t2 = _mm512_shuffle_i64x2::<0x44>(g2, g3);
        let t3 = _mm512_shuffle_i64x2::<0xEE>(g2, g3);
        f(q, _mm512_shuffle_i64x2::<0x88>(t0, t2));
        f(16 + q, _mm512_shuffle_i64x2::<0xDD>(t0, t2));
        f(32 + q, _mm512_shuffle_i64x2::<0x88>(t1, t3));
        f(48 + q, _mm512_shuffle_i64x2::<0xDD>(t1, t3));
    }
}

/// Transposes the 16 x 16 byte matrix held in each 128-bit block of `x[0..16]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn transpose16_in_blocks(x: &mut [__m512i; 16]) {
    let z = _mm512_setzero_si512();
    let mut a = [z; 16];
    for i in 0..8 {
        a[2 * i] = _mm512_unpacklo_epi8(x[2 * i], x[2 * i + 1]);
        a[2 * i + 1] = _mm512_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
    }
    let mut b = [z; 16];
    for i in 0..4 {
        b[4 * i] = _mm512_unpacklo_epi16(a[4 * i], a[4 * i + 2]);
        b[4 * i + 1] = _mm512_unpackhi_epi16(a[4 * i], a[4 * i + 2]);
        b[4 * i + 2] = _mm512_unpacklo_epi16(a[4 * i + 1], a[4 * i + 3]);
        b[4 * i + 3] = _mm512_unpackhi_epi16(a[4 * i + 1], a[4 * i + 3]);
    }
    let mut c = [z; 16];
    for i in 0..2 {
        for g in 0..4 {
            c[8 * i + 2 * g] = _mm512_unpacklo_epi32(b[8 * i + g], b[8 * i + 4 + g]);
            c[8 * i + 2 * g + 1] = _mm512_unpackhi_epi32(b[8 * i + g], b[8 * i + 4 + g]);
        }
    }
    for m in 0..8 {
        x[2 * m] = _mm512_unpacklo_epi64(c[m], c[8 + m]);
        x[2 * m + 1] = _mm512_unpackhi_epi64(c[m], c[8 + m]);
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
        // SAFETY: features checked above; loads/stores of 64-byte arrays.
        unsafe {
            let mut x = [_mm512_setzero_si512(); L];
            for j in 0..L {
                x[j] = _mm512_loadu_si512(m[j].as_ptr().cast());
            }
            let mut seen = 0u64;
            for_each_transposed_row(&mut x, |i, row| {
                let mut r = [0i8; L];
                _mm512_storeu_si512(r.as_mut_ptr().cast(), row);
                for j in 0..L {
                    assert_eq!(r[j], m[j][i], "out[{i}][{j}]");
                }
                seen |= 1 << i;
            });
            assert_eq!(seen, !0);
        }
    }
}
