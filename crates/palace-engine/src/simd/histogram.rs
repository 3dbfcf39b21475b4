//! Counting the 8-bit CA values of many row pieces, fast.
//!
//! Outside the hood almost every value lies in `-4..=4` (for k = 9999 on a 30000 x 30000 board
//! all but 1 cell in 100 000). The vector paths count the common nonzero values in 4-bit lane
//! fields, two values per `vpshufb` table lookup (AVX-512: 64 cells per step; AVX2: 32), flag
//! groups holding a value outside that range and count those one by one, and get the zeros as
//! the remainder. The CPU's widest unit is chosen at run time (within `PALACE_ISA`'s cap, see
//! [`crate::simd::cpu`]); the scalar path is the reference they are tested against.

/// Cells to count: `cells[lo..hi]`. The rest of `cells` may be read but is not counted, so a
/// vector path can load whole vectors around a short run and mask off the lanes outside it
/// (the diagonal arrangement's triangles of partial steps are such runs).
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The readable cells around the run.
    pub cells: &'a [i8],
    /// First counted cell.
    pub lo: usize,
    /// One past the last counted cell.
    pub hi: usize,
}

impl<'a> Run<'a> {
    /// All of `cells`.
    pub fn whole(cells: &'a [i8]) -> Self {
        Run { cells, lo: 0, hi: cells.len() }
    }

    /// The counted cells.
    pub fn counted(&self) -> &'a [i8] {
        &self.cells[self.lo..self.hi]
    }
}

/// Adds the values of every slice to `counts`, indexed by `v + 128`.
pub fn count<'a>(rows: impl Iterator<Item = &'a [i8]>, counts: &mut [u64; 256]) {
    count_runs(rows.map(Run::whole), counts);
}

/// Adds the counted values of every run to `counts`, indexed by `v + 128`.
pub fn count_runs<'a>(runs: impl Iterator<Item = Run<'a>>, counts: &mut [u64; 256]) {
    #[cfg(target_arch = "x86_64")]
    {
        let level = crate::simd::cpu::level();
        if level >= crate::simd::cpu::Isa::Avx512 && is_x86_feature_detected!("avx512bw") {
            // SAFETY: the feature is present. Its masked loads need no padding.
            unsafe { x86::count_avx512(runs.map(|r| r.counted()), counts) };
            return;
        }
        if level >= crate::simd::cpu::Isa::Avx2 && is_x86_feature_detected!("avx2") {
            // SAFETY: the feature is present.
            unsafe { x86::count_avx2(runs, counts) };
            return;
        }
    }
    count_portable(runs.map(|r| r.counted()), counts);
}

/// [`count`] on one slice without 512-bit instructions: the AVX2 path where the CPU has it
/// (within `PALACE_ISA`'s cap), else the portable one. For callers interleaving it with
/// 256-bit code, such as the counter kernels' tally, where 512-bit instructions would slow
/// the rest down (the CPU gives up a vector port while they are in flight).
pub fn count_256(cells: &[i8], counts: &mut [u64; 256]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::cpu::level() >= crate::simd::cpu::Isa::Avx2 && is_x86_feature_detected!("avx2") {
        // SAFETY: the feature is present.
        unsafe { x86::count_avx2(std::iter::once(Run::whole(cells)), counts) };
        return;
    }
    count_portable(std::iter::once(cells), counts);
}

/// Adds the values `v = cell - offset` (wrapping, as signed bytes) of `cells` to `counts`,
/// indexed by `v + 128`: the counter kernels' tally, which stores `s = v + BIAS`. Where the CPU
/// has GFNI, AVX-512VL and BITALG (and `PALACE_ISA` does not cap it below `avx512`), 32 cells
/// per step in six 256-bit operations (bit planes by `vgf2p8affineqb`, counted by `vpopcntb`);
/// elsewhere the values are shifted in place and counted by [`count_256`]. `offset` must lie
/// in `4..=123`.
pub fn count_offset(cells: &mut [u8], offset: u8, counts: &mut [u64; 256]) {
    assert!((4..=123).contains(&offset), "offset {offset} outside 4..=123");
    #[cfg(target_arch = "x86_64")]
    if gfni_available() {
        // SAFETY: the features are present.
        unsafe { x86::count_offset_gfni(cells, offset, counts) };
        return;
    }
    for c in cells.iter_mut() {
        *c = c.wrapping_sub(offset);
    }
    // SAFETY: `i8` has the layout of `u8`.
    let values = unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<i8>(), cells.len()) };
    count_256(values, counts);
}

/// Whether [`count_offset`] takes its GFNI path here.
pub fn gfni_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::cpu::{Isa, cap};
        cap().is_none_or(|c| c >= Isa::Avx512)
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("gfni")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512bitalg")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// [`count_offset`] for cells that all lie below 32: the counter kernels' tally, whose sums
/// `s = v + BIAS` stay in `0..32` in every tile they keep (a tile with a sum outside is not
/// valid, and its counts are thrown away). Where the CPU has AVX-512 VBMI besides
/// [`gfni_available`]'s features (and `PALACE_ISA` does not cap it below `avx512`), each cell
/// becomes a one-hot byte by one 32-entry `vpermb` lookup (bits 0 to 6: v = -3, -2, -1, 1, 2,
/// 3, 4; bit 7: any other nonzero v), and the one-hot bytes are added up in bit-sliced
/// counters (Harley-Seal carry-save adders, two `vpternlogd` a vector): about 3.5 operations
/// per 32 cells against [`count_offset`]'s six. Blocks of 512 cells holding a cell of bit 7
/// are counted again one by one. Elsewhere, [`count_offset`].
///
/// Cells at or above 32 are counted as some value, not necessarily theirs (only on the fast
/// path); `offset` must lie in `4..=27`.
pub fn count_below_32(cells: &mut [u8], offset: u8, counts: &mut [u64; 256]) {
    assert!((4..=27).contains(&offset), "offset {offset} outside 4..=27");
    #[cfg(target_arch = "x86_64")]
    if vbmi_available() {
        // SAFETY: the features are present.
        unsafe { x86::count_below_32_hs(cells, offset, counts) };
        return;
    }
    count_offset(cells, offset, counts);
}

/// Whether [`count_below_32`] takes its VBMI path here.
pub(crate) fn vbmi_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        gfni_available() && is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The portable path, for any CPU: plain Rust that the compiler vectorises with the baseline
/// SIMD of the target (SSE2 on x86-64, NEON on aarch64). Each of 32 lanes keeps an 8-bit tally
/// per value of -4..=4 other than 0, added as `(x == c) as u8` and emptied every 255 chunks of
/// 32 cells; a running maximum of `x + 4` (unsigned) flags the groups holding a value outside
/// -4..=4, whose rare cells are then counted one by one. Zeros are the remainder.
pub(crate) fn count_portable<'a>(rows: impl Iterator<Item = &'a [i8]>, counts: &mut [u64; 256]) {
    const W: usize = 32;
    let mut common = [0u64; 8];
    let (mut total, mut rare) = (0u64, 0u64);
    for row in rows {
        total += row.len() as u64;
        let (body, tail) = row.split_at(row.len() / W * W);
        for group in body.chunks(255 * W) {
            let mut acc = [[0u8; W]; 8];
            let mut mx = [0u8; W];
            for chunk in group.chunks_exact(W) {
                let chunk: &[i8; W] = chunk.try_into().expect("32 cells");
                for i in 0..W {
                    let x = chunk[i];
                    mx[i] = mx[i].max((x as u8).wrapping_add(4));
                    for (a, c) in acc.iter_mut().zip(COMMON_WIDE) {
                        a[i] += u8::from(x == c);
                    }
                }
            }
            for (t, a) in common.iter_mut().zip(&acc) {
                *t += a.iter().map(|&n| u64::from(n)).sum::<u64>();
            }
            if mx.iter().any(|&m| m > 8) {
                for &v in group.iter().filter(|v| !(-4..=4).contains(*v)) {
                    counts[(i16::from(v) + 128) as usize] += 1;
                    rare += 1;
                }
            }
        }
        for &v in tail {
            match COMMON_WIDE.iter().position(|&c| c == v) {
                Some(d) => common[d] += 1,
                None if v != 0 => {
                    counts[(i16::from(v) + 128) as usize] += 1;
                    rare += 1;
                }
                None => {}
            }
        }
    }
    finish(total, &COMMON_WIDE, &common, rare, counts);
}

#[cfg(test)]
/// The plain reference.
pub(crate) fn count_scalar<'a>(rows: impl Iterator<Item = &'a [i8]>, counts: &mut [u64; 256]) {
    for row in rows {
        for &v in row {
            counts[(i16::from(v) + 128) as usize] += 1;
        }
    }
}

/// The values counted by the fast paths (the x86 ones two per lookup table); 0 is the
/// remainder. Cells outside `-4..=4` are about 1 in 100 000, so the branch that counts them is
/// almost never taken.
const COMMON_WIDE: [i8; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

/// Folds the vector paths' tallies into `counts`: `common[d]` cells equal `values[d]`, `rare`
/// cells were counted one by one, the rest of `total` are zeros.
fn finish(total: u64, values: &[i8], common: &[u64], rare: u64, counts: &mut [u64; 256]) {
    for (t, c) in values.iter().zip(common) {
        counts[(i16::from(*t) + 128) as usize] += c;
    }
    counts[128] += total - common.iter().sum::<u64>() - rare;
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{COMMON_WIDE, Run, finish};
    use std::arch::x86_64::*;

    /// Chunks between flushes of the 4-bit fields (each field gains at most 1 per chunk).
    const NIBBLE_CHUNKS: u32 = 15;

    /// Chunks of 64 cells checked for rare values at once.
    const GROUP: usize = 15 * 64;

    /// The table entry `vpshufb` reads for `v` (its index is `v + 4`), or none if it reads 0.
    fn slot(v: i8) -> Option<usize> {
        let i = v.wrapping_add(4) as u8;
        (i < 128).then_some(usize::from(i & 15))
    }

    /// The 16-entry `vpshufb` table that counts `a` in the low nibble and `b` in the high one.
    fn nibble_table(a: i8, b: i8) -> [i8; 16] {
        let mut t = [0i8; 16];
        t[slot(a).expect("common")] = 0x01;
        t[slot(b).expect("common")] = 0x10;
        t
    }

    /// Counts the cells of `cells` outside -4..=4 one by one (`rare`), and notes those that a
    /// table lookup also counted as a common value (`aliased`, to be taken back).
    #[cold]
    fn count_rare(cells: &[i8], counts: &mut [u64; 256], rare: &mut u64, aliased: &mut [u64; 8]) {
        for &v in cells.iter().filter(|v| !(-4..=4).contains(*v)) {
            counts[(i16::from(v) + 128) as usize] += 1;
            *rare += 1;
            if let Some(d) = COMMON_WIDE.iter().position(|&c| slot(c) == slot(v)) {
                aliased[d] += 1;
            }
        }
    }

    /// `-1` in the byte lanes `a..z` (`a <= z <= 32`), 0 elsewhere.
    #[target_feature(enable = "avx2")]
    fn lanes_between(a: usize, z: usize) -> __m256i {
        assert!(a <= z && z <= 32);
        let le = crate::simd::masks::lanes_le;
        _mm256_andnot_si256(le(a as isize - 1), le(z as isize - 1))
    }

    /// Adds the counts of every value in `rows` to `counts`, 64 cells per step.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn count_avx512<'a>(rows: impl Iterator<Item = &'a [i8]>, counts: &mut [u64; 256]) {
        // Each byte lane keeps two 4-bit tallies per accumulator, filled by a 16-entry table
        // lookup (`vpshufb` on `v + 4`): `acc[0]` counts -4 (low nibble) and -3 (high nibble),
        // `acc[1]` -2 and -1, and so on. Per 64 cells that is one add, four lookups, four adds
        // and a running maximum, with no mask or branch; every 15 chunks the nibbles are split
        // and summed into 64-bit lanes. A group of 15 chunks whose maximum shows a value outside
        // -4..=4 is rescanned: its rare cells (which may alias a common value's table slot) are
        // counted one by one and the aliased tallies taken back.
        let table = |a: i8, b: i8| -> __m512i {
            let t = nibble_table(a, b);
            // SAFETY: reading 16 bytes from a 16-byte array.
            _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
        };
        let tables: [__m512i; 4] = std::array::from_fn(|i| table(COMMON_WIDE[2 * i], COMMON_WIDE[2 * i + 1]));
        let (nib, four) = (_mm512_set1_epi8(0x0f), _mm512_set1_epi8(4));
        let eight = _mm512_set1_epi8(8);
        let zero = _mm512_setzero_si512();
        // 64-bit lane totals of COMMON_WIDE's values.
        let mut wide = [zero; 8];
        let mut acc = [zero; 4];
        // Tallies to take back: rare cells that aliased a common value's slot.
        let mut aliased = [0u64; 8];
        let (mut total, mut rare, mut pending) = (0u64, 0u64, 0u32);
        let flush = |acc: &mut [__m512i; 4], wide: &mut [__m512i; 8]| {
            for (a, w) in acc.iter_mut().zip(wide.chunks_exact_mut(2)) {
                let low = _mm512_sad_epu8(_mm512_and_si512(*a, nib), zero);
                let high = _mm512_sad_epu8(_mm512_and_si512(_mm512_srli_epi16::<4>(*a), nib), zero);
                w[0] = _mm512_add_epi64(w[0], low);
                w[1] = _mm512_add_epi64(w[1], high);
                *a = zero;
            }
        };
        for row in rows {
            total += row.len() as u64;
            for group in row.chunks(GROUP) {
                // The largest `v + 4` seen, unsigned: above 8 exactly when some `v` leaves -4..=4.
                let mut mx = zero;
                for chunk in group.chunks(64) {
                    let mask: u64 = if chunk.len() == 64 { !0 } else { (1u64 << chunk.len()) - 1 };
                    // SAFETY: masked-off bytes are not read (they load as 0, which no table counts).
                    let v = unsafe { _mm512_maskz_loadu_epi8(mask, chunk.as_ptr()) };
                    let biased = _mm512_add_epi8(v, four);
                    mx = _mm512_max_epu8(mx, biased);
                    for (a, t) in acc.iter_mut().zip(tables) {
                        *a = _mm512_add_epi8(*a, _mm512_shuffle_epi8(t, biased));
                    }
                    pending += 1;
                    if pending == NIBBLE_CHUNKS {
                        flush(&mut acc, &mut wide);
                        pending = 0;
                    }
                }
                if _mm512_cmpgt_epu8_mask(mx, eight) != 0 {
                    count_rare(group, counts, &mut rare, &mut aliased);
                }
            }
        }
        flush(&mut acc, &mut wide);
        let common: [u64; 8] = std::array::from_fn(|d| _mm512_reduce_add_epi64(wide[d]) as u64 - aliased[d]);
        finish(total, &COMMON_WIDE, &common, rare, counts);
    }

    /// Adds the counts of every value in `runs` to `counts`, 32 cells per step.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn count_avx2<'a>(runs: impl Iterator<Item = Run<'a>>, counts: &mut [u64; 256]) {
        // The scheme of `count_avx512` with 32 cells per step: four `vpshufb` lookups of
        // `v + 4` into 4-bit tallies (the table repeated in both 128-bit halves), a running
        // maximum for the rare values, no branch per step. Cells outside a run are zeroed by a
        // lane mask (0 reads slot 4, which no table counts): a short run inside readable
        // vectors is loaded whole, a long run's last cells by a load ending at its end. Only a
        // short run in a short slice is copied into a zeroed vector (a store and a reload: slow).
        let table = |a: i8, b: i8| -> __m256i {
            let t = nibble_table(a, b);
            // SAFETY: reading 16 bytes from a 16-byte array.
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
        };
        let tables: [__m256i; 4] = std::array::from_fn(|i| table(COMMON_WIDE[2 * i], COMMON_WIDE[2 * i + 1]));
        let (nib, four, eight) = (_mm256_set1_epi8(0x0f), _mm256_set1_epi8(4), _mm256_set1_epi8(8));
        let zero = _mm256_setzero_si256();
        let mut wide = [zero; 8];
        let mut acc = [zero; 4];
        let mut aliased = [0u64; 8];
        let (mut total, mut rare) = (0u64, 0u64);
        // Steps added since the last flush (at most NIBBLE_CHUNKS).
        let mut pending = 0u32;
        let flush = |acc: &mut [__m256i; 4], wide: &mut [__m256i; 8]| {
            for (a, w) in acc.iter_mut().zip(wide.chunks_exact_mut(2)) {
                let low = _mm256_sad_epu8(_mm256_and_si256(*a, nib), zero);
                let high = _mm256_sad_epu8(_mm256_and_si256(_mm256_srli_epi16::<4>(*a), nib), zero);
                w[0] = _mm256_add_epi64(w[0], low);
                w[1] = _mm256_add_epi64(w[1], high);
                *a = zero;
            }
        };
        // One step, written out where used: plain code over locals keeps the tallies in
        // registers (a closure holding them would spill them).
        macro_rules! step {
            ($v:expr, $mx:ident) => {{
                let biased = _mm256_add_epi8($v, four);
                $mx = _mm256_max_epu8($mx, biased);
                for (a, t) in acc.iter_mut().zip(tables) {
                    *a = _mm256_add_epi8(*a, _mm256_shuffle_epi8(t, biased));
                }
            }};
        }
        // Counts the cells outside -4..=4 one by one if the maximum shows any.
        macro_rules! rare {
            ($mx:ident, $cells:expr) => {{
                // Some biased byte above 8 (unsigned) <=> some v outside -4..=4.
                let calm = _mm256_cmpeq_epi8(_mm256_max_epu8($mx, eight), eight);
                if _mm256_movemask_epi8(calm) != -1 {
                    count_rare(&$cells, counts, &mut rare, &mut aliased);
                }
            }};
        }
        for run in runs {
            let Run { cells, lo, hi } = run;
            total += (hi - lo) as u64;
            if hi - lo < 32 && cells.len() % 32 == 0 && cells.len() <= 64 {
                // A short run in whole vectors (a diagonal step of 32 or 64 lanes): mask it.
                if pending + 2 > NIBBLE_CHUNKS {
                    flush(&mut acc, &mut wide);
                    pending = 0;
                }
                let mut mx = zero;
                for (ci, chunk) in cells.chunks_exact(32).enumerate() {
                    let (a, z) = (lo.saturating_sub(32 * ci).min(32), hi.saturating_sub(32 * ci).min(32));
                    if a < z {
                        // SAFETY: the chunk holds 32 bytes.
                        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
                        step!(_mm256_and_si256(v, lanes_between(a, z)), mx);
                        pending += 1;
                    }
                }
                rare!(mx, cells[lo..hi]);
                continue;
            }
            let s = &cells[lo..hi];
            let (body, tail) = s.split_at(s.len() / 32 * 32);
            if !body.is_empty() && pending > 0 {
                flush(&mut acc, &mut wide);
                pending = 0;
            }
            for group in body.chunks(GROUP) {
                let mut mx = zero;
                // Pieces of at most 15 steps, each flushed.
                for piece in group.chunks(NIBBLE_CHUNKS as usize * 32) {
                    for chunk in piece.chunks_exact(32) {
                        // SAFETY: the chunk holds 32 bytes.
                        step!(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }, mx);
                    }
                    flush(&mut acc, &mut wide);
                }
                rare!(mx, group);
            }
            if !tail.is_empty() {
                if pending + 1 > NIBBLE_CHUNKS {
                    flush(&mut acc, &mut wide);
                    pending = 0;
                }
                let v = if s.len() >= 32 {
                    // The 32 cells ending the run, those already counted masked off.
                    // SAFETY: s.len() - 32 .. s.len() lies in s.
                    let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(s.len() - 32).cast()) };
                    _mm256_and_si256(v, lanes_between(32 - tail.len(), 32))
                } else {
                    let mut pad = [0i8; 32];
                    pad[..tail.len()].copy_from_slice(tail);
                    // SAFETY: reading 32 bytes from a 32-byte array.
                    unsafe { _mm256_loadu_si256(pad.as_ptr().cast()) }
                };
                let mut mx = zero;
                step!(v, mx);
                pending += 1;
                rare!(mx, tail);
            }
        }
        flush(&mut acc, &mut wide);
        let common: [u64; 8] = std::array::from_fn(|d| {
            let mut lanes = [0u64; 4];
            // SAFETY: storing 32 bytes into a 32-byte array.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), wide[d]) };
            lanes.iter().sum::<u64>() - aliased[d]
        });
        finish(total, &COMMON_WIDE, &common, rare, counts);
    }

    /// [`super::count_offset`] with GFNI: 32 cells per step, counted in bit planes.
    ///
    /// A `vpshufb` lookup on the cell's low nibble turns each cell of the common range
    /// (`v` in -4..=4, so `offset + v` has nine distinct low nibbles and a clear top bit) into
    /// a byte with one bit set for each nonzero value (slot `d` for `COMMON_WIDE[d]`), 0 for
    /// `v = 0`. `vgf2p8affineqb` with the cells as the matrix transposes each 8 x 8 bit block
    /// of eight cells, so that byte `d` of every 64-bit lane holds slot `d`'s bit of its eight
    /// cells; `vpopcntb` counts them and a byte add keeps the tally (at most 8 per step, emptied
    /// every 31 steps). Six operations per 32 cells (lookup, transpose, count, add, and a running
    /// minimum and maximum that flag groups holding a value outside -4..=4: those are counted
    /// again one by one, and their aliases in the slots taken back). Zeros are the remainder.
    ///
    /// # Safety
    /// The CPU has AVX2, GFNI, AVX-512VL and AVX-512 BITALG.
    #[target_feature(enable = "avx2,gfni,avx512f,avx512vl,avx512bitalg")]
    pub(super) unsafe fn count_offset_gfni(cells: &[u8], offset: u8, counts: &mut [u64; 256]) {
        // The slot of each common nonzero value by the low nibble of `offset + v`.
        let mut table = [0u8; 16];
        for (d, &v) in COMMON_WIDE.iter().enumerate() {
            table[usize::from(offset.wrapping_add(v as u8) & 15)] = 1 << d;
        }
        // SAFETY (loads): reading 16 bytes from a 16-byte array.
        let table = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(table.as_ptr().cast()) });
        // Byte j of each lane selects bit j of the matrix rows: the transpose.
        let identity = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let (lo, hi) = (_mm256_set1_epi8((offset - 4) as i8), _mm256_set1_epi8((offset + 4) as i8));
        let mut common = [0u64; 8];
        let (mut rare, mut aliased) = (0u64, [0u64; 8]);
        let (body, tail) = cells.split_at(cells.len() / 32 * 32);
        for group in body.chunks(31 * 32) {
            let mut acc = _mm256_setzero_si256();
            let (mut mn, mut mx) = (_mm256_set1_epi8(-1), _mm256_setzero_si256());
            for chunk in group.chunks_exact(32) {
                // SAFETY: the chunk holds 32 bytes.
                let x = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
                mn = _mm256_min_epu8(mn, x);
                mx = _mm256_max_epu8(mx, x);
                let bits = _mm256_shuffle_epi8(table, x);
                let planes = _mm256_gf2p8affine_epi64_epi8::<0>(identity, bits);
                acc = _mm256_add_epi8(acc, _mm256_popcnt_epi8(planes));
            }
            let mut bytes = [0u8; 32];
            // SAFETY: storing 32 bytes into a 32-byte array.
            unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), acc) };
            for (i, &b) in bytes.iter().enumerate() {
                common[i % 8] += u64::from(b);
            }
            // Some cell below offset - 4 or above offset + 4 (unsigned).
            let calm = _mm256_and_si256(
                _mm256_cmpeq_epi8(_mm256_max_epu8(mn, lo), mn),
                _mm256_cmpeq_epi8(_mm256_min_epu8(mx, hi), mx),
            );
            if _mm256_movemask_epi8(calm) != -1 {
                count_rare_offset(group, offset, counts, &mut rare, &mut aliased);
            }
        }
        for &c in tail {
            let v = c.wrapping_sub(offset) as i8;
            match COMMON_WIDE.iter().position(|&w| w == v) {
                Some(d) => common[d] += 1,
                None if v != 0 => {
                    counts[(i16::from(v) + 128) as usize] += 1;
                    rare += 1;
                }
                None => {}
            }
        }
        let common: [u64; 8] = std::array::from_fn(|d| common[d] - aliased[d]);
        finish(cells.len() as u64, &COMMON_WIDE, &common, rare, counts);
    }

    /// The values of [`count_below_64_hs`]'s one-hot bits 0 to 6; bit 7 stands for every other
    /// nonzero value.
    const SEVEN: [i8; 7] = [-3, -2, -1, 1, 2, 3, 4];

    /// One carry-save adder on bit-sliced counters: `$l` becomes the sum bit of `$l + $a + $b`,
    /// and the carry is the macro's value. (A macro: the adders must stay in registers.)
    macro_rules! csa {
        ($l:ident, $a:expr, $b:expr) => {{
            let (u, a, b) = ($l, $a, $b);
            $l = _mm256_ternarylogic_epi32::<0x96>(u, a, b);
            _mm256_ternarylogic_epi32::<0xE8>(u, a, b)
        }};
    }

    /// Adds `weight` times the bit counts of `bytes` (byte `j` of each 8-byte group: the count
    /// of one-hot bit `j`, as the transpose leaves it) to `slots`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn add_slots(bytes: __m256i, weight: u64, slots: &mut [u64; 8]) {
        let mut b = [0u8; 32];
        // SAFETY: storing 32 bytes into a 32-byte array.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), bytes) };
        for (i, &n) in b.iter().enumerate() {
            slots[i % 8] += weight * u64::from(n);
        }
    }

    /// The one-hot byte of `v` in [`count_below_32_hs`]: bit `d` for `SEVEN[d]`, 0 for 0, bit 7
    /// for every other value.
    fn one_hot(v: i8) -> u8 {
        match SEVEN.iter().position(|&c| c == v) {
            Some(d) => 1 << d,
            None if v == 0 => 0,
            None => 0x80,
        }
    }

    /// [`super::count_below_32`]'s vector path: blocks of 16 vectors through a Harley-Seal tree
    /// of carry-save adders (the counters of 1, 2, 4 and 8 carried from block to block, the
    /// 16s counted per block by transpose and `vpopcntb`), the cells of bit 7 one by one.
    ///
    /// # Safety
    /// The CPU has AVX2, GFNI, AVX-512VL, BW, VBMI and BITALG.
    #[target_feature(enable = "avx2,gfni,avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg")]
    pub(super) unsafe fn count_below_32_hs(cells: &[u8], offset: u8, counts: &mut [u64; 256]) {
        // The one-hot byte of a cell holding i, for i in 0..32, built in registers: 0x80, then
        // each common value's bit and 0's zero where `i - offset` equals it.
        let iota = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
            27, 28, 29, 30, 31,
        );
        let v = _mm256_sub_epi8(iota, _mm256_set1_epi8(offset as i8));
        let mut table = _mm256_set1_epi8(0x80u8 as i8);
        for c in SEVEN.into_iter().chain([0]) {
            let here = _mm256_cmpeq_epi8_mask(v, _mm256_set1_epi8(c));
            table = _mm256_mask_blend_epi8(here, table, _mm256_set1_epi8(one_hot(c) as i8));
        }
        let identity = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let z = _mm256_setzero_si256();
        let (mut ones, mut twos, mut fours, mut eights) = (z, z, z, z);
        // The 16s of up to 31 blocks, per byte (at most 8 a block).
        let mut sixteens_acc = z;
        let mut in_acc = 0;
        let mut slots = [0u64; 8];
        let mut rare = 0u64;
        let blocks = cells.chunks_exact(512);
        let rest = blocks.remainder();
        for block in blocks {
            let p = block.as_ptr();
            // SAFETY: the block holds 16 vectors of 32 bytes.
            let x = |i: usize| unsafe {
                _mm256_permutexvar_epi8(_mm256_loadu_si256(p.add(32 * i).cast()), table)
            };
            // Eight one-hot vectors from `base` into the counters of 1s, 2s and 4s (and their
            // OR into `any`); the value is their carry of 8s.
            let mut any = _mm256_setzero_si256();
            let mut eight = |base: usize| {
                let v: [__m256i; 8] = std::array::from_fn(|i| x(base + i));
                for pair in v.chunks_exact(2) {
                    any = _mm256_ternarylogic_epi32::<0xFE>(any, pair[0], pair[1]);
                }
                let twos_a = csa!(ones, v[0], v[1]);
                let twos_b = csa!(ones, v[2], v[3]);
                let fours_a = csa!(twos, twos_a, twos_b);
                let twos_a = csa!(ones, v[4], v[5]);
                let twos_b = csa!(ones, v[6], v[7]);
                let fours_b = csa!(twos, twos_a, twos_b);
                csa!(fours, fours_a, fours_b)
            };
            let (eights_a, eights_b) = (eight(0), eight(8));
            let sixteens = csa!(eights, eights_a, eights_b);
            let planes = _mm256_gf2p8affine_epi64_epi8::<0>(identity, sixteens);
            sixteens_acc = _mm256_add_epi8(sixteens_acc, _mm256_popcnt_epi8(planes));
            in_acc += 1;
            if in_acc == 31 {
                add_slots(sixteens_acc, 16, &mut slots);
                (sixteens_acc, in_acc) = (z, 0);
            }
            // Bit 7 anywhere in the block: its other values, one by one.
            if _mm256_movemask_epi8(any) != 0 {
                rare += count_bit7(block, offset, counts);
            }
        }
        add_slots(sixteens_acc, 16, &mut slots);
        for (plane, weight) in [(ones, 1), (twos, 2), (fours, 4), (eights, 8)] {
            add_slots(
                _mm256_popcnt_epi8(_mm256_gf2p8affine_epi64_epi8::<0>(identity, plane)),
                weight,
                &mut slots,
            );
        }
        debug_assert_eq!(slots[7], rare, "bit 7 counted in the tree and one by one");
        // The cells after the last whole block, one by one.
        for &c in rest {
            let v = (c & 31).wrapping_sub(offset) as i8;
            match one_hot(v) {
                0 => {}
                0x80 => {
                    counts[usize::from(c.wrapping_sub(offset).wrapping_add(128))] += 1;
                    rare += 1;
                }
                t => slots[t.trailing_zeros() as usize] += 1,
            }
        }
        finish(cells.len() as u64, &SEVEN, &slots[..7], rare, counts);
    }

    /// Counts the cells of `block` whose one-hot byte is bit 7 (their low five bits taken as
    /// the lookup takes them) by their values; returns how many.
    #[cold]
    fn count_bit7(block: &[u8], offset: u8, counts: &mut [u64; 256]) -> u64 {
        let mut n = 0;
        for &c in block {
            if one_hot((c & 31).wrapping_sub(offset) as i8) == 0x80 {
                counts[usize::from(c.wrapping_sub(offset).wrapping_add(128))] += 1;
                n += 1;
            }
        }
        n
    }

    /// [`count_rare`] for cells holding `offset + v`: counts the cells outside -4..=4 one by
    /// one and notes those whose low nibble (and clear top bit) the lookup read as a common
    /// value's slot.
    #[cold]
    fn count_rare_offset(
        cells: &[u8],
        offset: u8,
        counts: &mut [u64; 256],
        rare: &mut u64,
        aliased: &mut [u64; 8],
    ) {
        for &c in cells {
            let v = c.wrapping_sub(offset) as i8;
            if (-4..=4).contains(&v) {
                continue;
            }
            counts[(i16::from(v) + 128) as usize] += 1;
            *rare += 1;
            if c < 128
                && let Some(d) =
                    COMMON_WIDE.iter().position(|&w| (offset.wrapping_add(w as u8) & 15) == c & 15)
            {
                aliased[d] += 1;
            }
        }
    }

    /// Forces the AVX-512 path (for tests on CPUs where the dispatch picks another).
    #[cfg(test)]
    pub(super) fn avx512(runs: &[Run<'_>], counts: &mut [u64; 256]) -> bool {
        if !is_x86_feature_detected!("avx512bw") {
            return false;
        }
        // SAFETY: checked above.
        unsafe { count_avx512(runs.iter().map(|r| r.counted()), counts) };
        true
    }

    /// Forces the AVX2 path (for tests on CPUs that would pick AVX-512).
    #[cfg(test)]
    pub(super) fn avx2(runs: &[Run<'_>], counts: &mut [u64; 256]) -> bool {
        if !is_x86_feature_detected!("avx2") {
            return false;
        }
        // SAFETY: checked above.
        unsafe { count_avx2(runs.iter().copied(), counts) };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded xorshift generator for test data.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn vector_paths_equal_scalar() {
        let mut rnd = xorshift(0x1234_5678_9abc_def1u64);
        for spread in [1u64, 5, 7, 40, 256] {
            let rows: Vec<Vec<i8>> = (0..40)
                .map(|i| {
                    (0..(i * 37 + i * i) % 700)
                        .map(|_| ((rnd() % spread) as i64 - spread as i64 / 2) as i8)
                        .collect()
                })
                .collect();
            let slices: Vec<&[i8]> = rows.iter().map(|r| &r[..]).collect();
            let mut want = [0u64; 256];
            count_scalar(slices.iter().copied(), &mut want);
            let mut got = [0u64; 256];
            count(slices.iter().copied(), &mut got);
            assert_eq!(got, want, "dispatched path, spread {spread}");
            let mut got1 = [0u64; 256];
            count_portable(slices.iter().copied(), &mut got1);
            assert_eq!(got1, want, "portable path, spread {spread}");
            #[cfg(target_arch = "x86_64")]
            {
                let mut got2 = [0u64; 256];
                let runs: Vec<Run<'_>> = slices.iter().map(|s| Run::whole(s)).collect();
                if x86::avx2(&runs, &mut got2) {
                    assert_eq!(got2, want, "AVX2 path, spread {spread}");
                }
                let mut got3 = [0u64; 256];
                if x86::avx512(&runs, &mut got3) {
                    assert_eq!(got3, want, "AVX-512 path, spread {spread}");
                }
            }
        }
        // Long runs of one value fill every lane counter to its limit: they exercise the
        // flushes (every 15 steps: 4-bit fields).
        // Values from 12 on share a table slot with -4..=4 (the lookups read the low 4 bits
        // of v + 4): they must be taken back out.
        for v in (-6i8..=6).chain([12, 13, 16, 20, 100, 124, 127, -100, -128]) {
            let long = vec![v; 64 * 600 + 3];
            let mut want = [0u64; 256];
            want[(i16::from(v) + 128) as usize] = long.len() as u64;
            let mut got = [0u64; 256];
            count(std::iter::once(&long[..]), &mut got);
            assert_eq!(got, want, "run of {v}");
            let mut got1 = [0u64; 256];
            count_portable(std::iter::once(&long[..]), &mut got1);
            assert_eq!(got1, want, "portable path, run of {v}");
            #[cfg(target_arch = "x86_64")]
            {
                let mut got2 = [0u64; 256];
                if x86::avx2(&[Run::whole(&long)], &mut got2) {
                    assert_eq!(got2, want, "AVX2 path, run of {v}");
                }
                let mut got3 = [0u64; 256];
                if x86::avx512(&[Run::whole(&long)], &mut got3) {
                    assert_eq!(got3, want, "AVX-512 path, run of {v}");
                }
            }
        }
    }

    /// The tally's counting of `offset + v` bytes equals the scalar count of `v`, on random
    /// data of every spread, offsets, and long runs of one value (lane tallies filled to their
    /// limit, rare values aliasing a common one's slot), by the GFNI path where the CPU has
    /// it and by the shifted fallback.
    #[test]
    fn offset_counts_equal_scalar() {
        let mut rnd = xorshift(0x0ff5_e7c0_u64);
        let mut cases: Vec<(u8, Vec<u8>)> = Vec::new();
        for offset in [4u8, 32, 100, 123] {
            for spread in [1u64, 5, 9, 13, 40, 256] {
                for len in [0usize, 1, 31, 32, 33, 992, 993, 5000] {
                    let cells = (0..len)
                        .map(|_| offset.wrapping_add(((rnd() % spread) as i64 - spread as i64 / 2) as u8))
                        .collect();
                    cases.push((offset, cells));
                }
            }
            for v in (-6i8..=6).chain([12, 13, 16, 20, 100, 124, 127, -100, -128]) {
                cases.push((offset, vec![offset.wrapping_add(v as u8); 32 * 700 + 5]));
            }
        }
        assert_offset_counts(&cases, "dispatched", &|cells, offset, counts| {
            count_offset(&mut cells.to_vec(), offset, counts);
            true
        });
        #[cfg(target_arch = "x86_64")]
        assert_offset_counts(&cases, "GFNI", &|cells, offset, counts| {
            // SAFETY: the closure runs the path only where the features are present.
            gfni_available() && {
                unsafe { x86::count_offset_gfni(cells, offset, counts) };
                true
            }
        });
    }

    /// A counting path of `cell - offset` (it returns false where the CPU lacks it).
    type OffsetPath<'a> = &'a dyn Fn(&[u8], u8, &mut [u64; 256]) -> bool;

    /// `path` counts every case's cells as the scalar count of `cell - offset` does.
    fn assert_offset_counts(cases: &[(u8, Vec<u8>)], name: &str, path: OffsetPath<'_>) {
        for (offset, cells) in cases {
            let values: Vec<i8> = cells.iter().map(|&c| c.wrapping_sub(*offset) as i8).collect();
            let mut want = [0u64; 256];
            count_scalar(std::iter::once(&values[..]), &mut want);
            let mut got = [0u64; 256];
            if path(cells, *offset, &mut got) {
                assert_eq!(got, want, "{name} path, offset {offset}, {} cells", cells.len());
            }
        }
    }

    /// The tally of sums below 32 equals the scalar count on random data of every spread and
    /// offset, on lengths around the 512-cell blocks, on long runs of each value (the
    /// bit-sliced counters carried through many blocks, the 16s' byte counters flushed, bit 7's
    /// blocks counted again) and on data with a rare value in one block among many.
    #[test]
    fn below_32_counts_equal_scalar() {
        let mut rnd = xorshift(0xb10c_5eed_u64);
        let mut cases: Vec<(u8, Vec<u8>)> = Vec::new();
        for offset in [4u8, 9, 16, 27] {
            for spread in [1u64, 3, 8, 9, 13, 32] {
                for len in [0usize, 1, 31, 32, 511, 512, 513, 16 * 512 + 40, 40 * 512] {
                    let cells = (0..len)
                        .map(|_| {
                            let v = (rnd() % spread) as i64 - spread as i64 / 2;
                            (i64::from(offset) + v).clamp(0, 31) as u8
                        })
                        .collect();
                    cases.push((offset, cells));
                }
            }
            for c in 0..32u8 {
                cases.push((offset, vec![c; 512 * 70 + 17]));
            }
            let mut one_rare = vec![offset; 512 * 40];
            one_rare[512 * 17 + 300] = 31;
            one_rare[512 * 39 + 511] = 0;
            cases.push((offset, one_rare));
        }
        assert_offset_counts(&cases, "dispatched", &|cells, offset, counts| {
            count_below_32(&mut cells.to_vec(), offset, counts);
            true
        });
        #[cfg(target_arch = "x86_64")]
        assert_offset_counts(&cases, "VBMI", &|cells, offset, counts| {
            // SAFETY: the closure runs the path only where the features are present.
            vbmi_available() && {
                unsafe { x86::count_below_32_hs(cells, offset, counts) };
                true
            }
        });
    }

    /// Runs inside readable slices (short runs in 32- and 64-byte steps, long runs, runs of
    /// every length and offset, many in a row so the flushes fall anywhere) count exactly the
    /// run's cells, on every path.
    #[test]
    fn runs_count_only_their_cells() {
        let mut rnd = xorshift(0x0dd_ba11_u64);
        for spread in [3u64, 9, 11, 256] {
            let slices: Vec<Vec<i8>> = (0..300)
                .map(|i| {
                    let len = [32, 64, 96, 5, 40, 700][i % 6];
                    (0..len).map(|_| ((rnd() % spread) as i64 - spread as i64 / 2) as i8).collect()
                })
                .collect();
            let runs: Vec<Run<'_>> = slices
                .iter()
                .map(|c| {
                    let lo = (rnd() % (c.len() as u64 + 1)) as usize;
                    let hi = lo + (rnd() % ((c.len() - lo) as u64 + 1)) as usize;
                    Run { cells: c, lo, hi }
                })
                .collect();
            let mut want = [0u64; 256];
            count_scalar(runs.iter().map(|r| r.counted()), &mut want);
            let mut got = [0u64; 256];
            count_runs(runs.iter().copied(), &mut got);
            assert_eq!(got, want, "dispatched path, spread {spread}");
            let mut got1 = [0u64; 256];
            count_portable(runs.iter().map(|r| r.counted()), &mut got1);
            assert_eq!(got1, want, "portable path, spread {spread}");
            #[cfg(target_arch = "x86_64")]
            {
                let mut got2 = [0u64; 256];
                if x86::avx2(&runs, &mut got2) {
                    assert_eq!(got2, want, "AVX2 path, spread {spread}");
                }
                let mut got3 = [0u64; 256];
                if x86::avx512(&runs, &mut got3) {
                    assert_eq!(got3, want, "AVX-512 path, spread {spread}");
                }
            }
        }
    }
}
