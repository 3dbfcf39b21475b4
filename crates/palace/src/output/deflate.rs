//! A fast deflate encoder for PNG scanlines of palette indices.
//!
//! General-purpose deflate (zlib level 1 runs at about 300 MB/s per core here) is many times
//! slower than the sweep that produces the pictures. The pictures have a known shape: large
//! uniform areas (hood, outer space, épaulettes), areas where each row repeats most of the row
//! above (threads and warps), and noise-like textures of three or four colours (the arms). So
//! this encoder looks for two kinds of match only:
//!
//! * **runs** — the same byte again (distance 1), at least [`RUN_MIN`] bytes;
//! * **up** — the bytes of the row above (distance = the scanline stride), at least
//!   [`UP_MIN`] bytes, where the stride fits deflate's 32 KiB window;
//!
//! found 64 bytes at a time from vector compare masks, extended 16 bytes at a time, and
//! chosen greedily. Everything else is a literal. Each piece gets one dynamic-Huffman block
//! built from its own symbol counts (lengths limited to [`MAX_LIT_BITS`] bits, so that the codes
//! of two literals fit one table entry and are written together), and ends with a sync flush
//! (an empty stored block) so that independently encoded pieces concatenate into one stream.
//!
//! The output is ordinary deflate: the tests inflate it with an independent decoder (miniz_oxide
//! through `flate2`) and compare every byte.

/// Shortest run (distance-1 match) taken, in bytes. A power of two (see `runs_of`).
///
/// Short matches cost more time than they save bits: every token is a few unpredictable
/// branches in the parse and in the output. On the k = 9999 picture (30000 x 30000, 4-bit),
/// runs of 4 and up matches of 8 give 133.4 MB at 1.15 GB/s on one core, runs of 8 and up
/// matches of 16 give 134.1 MB at 1.7 GB/s, 16 and 32 give 139.0 MB at 2.0 GB/s.
pub const RUN_MIN: usize = 8;
/// Shortest match with the row above taken, in bytes (its distance costs 12 or 13 extra
/// bits). A power of two.
pub const UP_MIN: usize = 16;
/// Bytes the parse moves on when a 64-byte window holds no match start: every position whose
/// shortest match ends inside the window.
const SCAN_STEP: usize = 65 - if RUN_MIN > UP_MIN { RUN_MIN } else { UP_MIN };
/// Longest match deflate allows.
const MAX_MATCH: usize = 258;
/// Largest distance deflate allows.
pub const MAX_DISTANCE: usize = 32768;
/// Longest literal/length code: two literal codes and their length fit one `u32` table entry.
pub const MAX_LIT_BITS: u8 = 12;
/// Longest distance code.
const MAX_DIST_BITS: u8 = 15;
/// Longest code-length code (deflate's limit).
const MAX_CL_BITS: u8 = 7;

/// The order in which code-length code lengths are sent (RFC 1951, 3.2.7).
const CL_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Length symbol (257..=285), extra bits and their value for a match length 3..=258.
fn length_code(len: usize) -> (usize, u8, u32) {
    debug_assert!((3..=MAX_MATCH).contains(&len));
    if len == 258 {
        return (285, 0, 0);
    }
    const BASE: [u16; 28] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
        195, 227,
    ];
    let i = BASE.partition_point(|&b| usize::from(b) <= len) - 1;
    let extra = if i < 8 { 0 } else { (i / 4 - 1) as u8 };
    (257 + i, extra, (len - usize::from(BASE[i])) as u32)
}

/// [`length_code`] of every length (entries 0..3 unused).
static LENGTH_CODES: std::sync::LazyLock<[(usize, u8, u32); MAX_MATCH + 1]> =
    std::sync::LazyLock::new(|| {
        std::array::from_fn(|len| if len < 3 { (0, 0, 0) } else { length_code(len) })
    });

/// Distance code (0..=29), extra bits and their value for a distance 1..=32768.
fn distance_code(d: usize) -> (usize, u8, u32) {
    debug_assert!((1..=MAX_DISTANCE).contains(&d));
    if d <= 4 {
        return (d - 1, 0, 0);
    }
    let e = (usize::BITS - 1 - (d - 1).leading_zeros()) as usize - 1; // extra bits
    let code = 2 * e + 2 + (((d - 1) >> e) & 1);
    let base = (1 << (e + 1)) + ((((d - 1) >> e) & 1) << e) + 1;
    (code, e as u8, (d - base) as u32)
}

/// Huffman code lengths for `freqs`, none longer than `max_bits`; symbols with a zero count get
/// none (length 0). With a single used symbol it gets length 1.
pub(crate) fn code_lengths(freqs: &[u32], max_bits: u8) -> Vec<u8> {
    let mut lens = vec![0u8; freqs.len()];
    let mut syms: Vec<usize> = (0..freqs.len()).filter(|&s| freqs[s] > 0).collect();
    match syms.len() {
        0 => return lens,
        1 => {
            lens[syms[0]] = 1;
            return lens;
        }
        _ => {}
    }
    assert!(syms.len() <= 1 << max_bits, "too many symbols for {max_bits}-bit codes");
    // Two-queue Huffman over the symbols sorted by count: leaves in `syms`, internal nodes in
    // creation order (their weights never decrease). Depths come from parent links.
    syms.sort_by_key(|&s| (freqs[s], s));
    let n = syms.len();
    let mut weight: Vec<u64> = syms.iter().map(|&s| u64::from(freqs[s])).collect();
    let mut parent = vec![usize::MAX; 2 * n - 1];
    let (mut leaf, mut node) = (0usize, n);
    weight.reserve(n - 1);
    for next in n..2 * n - 1 {
        let mut pick = || {
            let take_leaf = leaf < n && (node >= next || weight[leaf] <= weight[node]);
            if take_leaf {
                leaf += 1;
                leaf - 1
            } else {
                node += 1;
                node - 1
            }
        };
        let (a, b) = (pick(), pick());
        weight.push(weight[a] + weight[b]);
        parent[a] = next;
        parent[b] = next;
    }
    let mut depth = vec![0u32; 2 * n - 1];
    for i in (0..2 * n - 2).rev() {
        depth[i] = depth[parent[i]] + 1;
    }
    // How many codes of each length; lengths over the limit are folded in and the Kraft sum
    // repaired by lengthening the longest codes that may still grow (miniz's method).
    let max = usize::from(max_bits);
    let mut count = vec![0u64; 64];
    for d in &depth[..n] {
        count[(*d as usize).min(63)] += 1;
    }
    for l in max + 1..64 {
        count[max] += count[l];
        count[l] = 0;
    }
    let mut total: u64 = (1..=max).map(|l| count[l] << (max - l)).sum();
    while total > 1 << max {
        count[max] -= 1;
        for l in (1..max).rev() {
            if count[l] > 0 {
                count[l] -= 1;
                count[l + 1] += 2;
                break;
            }
        }
        total -= 1;
    }
    // The most frequent symbols get the shortest codes.
    let mut it = syms.iter().rev();
    for (l, &n) in count.iter().enumerate().take(max + 1).skip(1) {
        for _ in 0..n {
            lens[*it.next().expect("as many lengths as symbols")] = l as u8;
        }
    }
    lens
}

/// Canonical codes for `lens` (RFC 1951, 3.2.2), bit-reversed for LSB-first output.
pub(crate) fn canonical_codes(lens: &[u8]) -> Vec<u16> {
    let mut bl_count = [0u16; 16];
    for &l in lens {
        bl_count[usize::from(l)] += 1;
    }
    bl_count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + bl_count[bits - 1]) << 1;
        next[bits] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// LSB-first bit output into a byte vector.
struct BitWriter {
    out: Vec<u8>,
    bits: u64,
    n: u32,
}

impl BitWriter {
    fn new(out: Vec<u8>) -> Self {
        BitWriter { out, bits: 0, n: 0 }
    }

    /// Appends `len` bits (at most 57 minus what is pending: callers flush after each symbol
    /// group of at most 48 bits).
    #[inline(always)]
    fn put(&mut self, code: u64, len: u32) {
        debug_assert!(self.n + len <= 64 && (len == 64 || code >> len == 0));
        self.bits |= code << self.n;
        self.n += len;
    }

    /// Moves whole pending bytes to the output (leaves fewer than 8 bits pending).
    #[inline(always)]
    fn flush(&mut self) {
        let whole = (self.n / 8) as usize;
        self.out.extend_from_slice(&self.bits.to_le_bytes()[..whole]);
        // `whole` may be 8: shift in two steps so a 64-bit shift is never asked for.
        self.bits = (self.bits >> (whole * 4)) >> (whole * 4);
        self.n -= whole as u32 * 8;
    }

    /// Pads to a byte boundary with zero bits.
    fn align(&mut self) {
        self.flush();
        if self.n > 0 {
            self.out.push(self.bits as u8);
            self.bits = 0;
            self.n = 0;
        }
    }
}

/// One greedy match: `lits` literals from the current position, then a match of `len` bytes
/// (0: none, at the end of the piece) at distance `dist`.
#[derive(Debug, Clone, Copy)]
struct Token {
    lits: u32,
    len: u16,
    up: bool,
}

/// Bit `j` of the result is set when `data[i + j] == data[i + j - d]`, for `j` in `0..64`.
/// Needs `i >= d` and `i + 64 <= data.len()`. `AVX2`: the caller runs with AVX2 enabled.
#[inline(always)]
fn eq_mask<const AVX2: bool>(data: &[u8], i: usize, d: usize) -> u64 {
    assert!(i >= d && i + 64 <= data.len());
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let (a, b) = (data[i..].as_ptr(), data[i - d..].as_ptr());
        if AVX2 {
            // SAFETY: `AVX2` is set only by callers that checked for AVX2; the 32-byte loads
            // at `i`, `i + 32`, `i - d` and `i - d + 32` lie inside `data` (assertion above).
            return unsafe { eq_mask_avx2(a, b) };
        }
        let mut m = 0u64;
        for q in 0..4 {
            // SAFETY: SSE2 is part of x86-64; the 16-byte loads at `i + 16q` and
            // `i - d + 16q` lie inside `data` by the assertion above.
            unsafe {
                let x = _mm_loadu_si128(a.add(16 * q).cast());
                let y = _mm_loadu_si128(b.add(16 * q).cast());
                m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) as u16) << (16 * q);
            }
        }
        m
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (a, b) = (&data[i..i + 64], &data[i - d..i - d + 64]);
        a.iter().zip(b).enumerate().fold(0u64, |m, (j, (x, y))| m | (u64::from(x == y) << j))
    }
}

/// [`eq_mask`] of the 64 bytes at `a` against those at `b`, with AVX2.
///
/// # Safety
/// Needs AVX2, and 64 readable bytes at `a` and at `b`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn eq_mask_avx2(a: *const u8, b: *const u8) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: the caller guarantees the 64 bytes at `a` and `b`.
    unsafe {
        let lo = _mm256_cmpeq_epi8(_mm256_loadu_si256(a.cast()), _mm256_loadu_si256(b.cast()));
        let hi =
            _mm256_cmpeq_epi8(_mm256_loadu_si256(a.add(32).cast()), _mm256_loadu_si256(b.add(32).cast()));
        u64::from(_mm256_movemask_epi8(lo) as u32) | u64::from(_mm256_movemask_epi8(hi) as u32) << 32
    }
}

/// Positions `j` where bits `j .. j + n` of `m` are all set (`n` a power of two; bits past 63
/// count as clear).
#[inline(always)]
fn runs_of(m: u64, n: usize) -> u64 {
    let mut r = m;
    let mut have = 1;
    while have < n {
        r &= r >> have;
        have *= 2;
    }
    r
}

/// How many bytes from `i` on equal those `d` back, up to `MAX_MATCH` and the end.
#[inline]
fn match_len(data: &[u8], i: usize, d: usize) -> usize {
    let limit = MAX_MATCH.min(data.len() - i);
    let mut n = 0;
    while n + 16 <= limit {
        let (a, b) = (&data[i + n..i + n + 16], &data[i + n - d..i + n - d + 16]);
        let x = u128::from_le_bytes(a.try_into().unwrap()) ^ u128::from_le_bytes(b.try_into().unwrap());
        if x != 0 {
            return n + (x.trailing_zeros() / 8) as usize;
        }
        n += 16;
    }
    while n < limit && data[i + n] == data[i + n - d] {
        n += 1;
    }
    n
}

/// The length of the match at `at = i + j` whose equality mask from `i` is `m` (see
/// [`eq_mask`]): read from the mask when it ends inside it, else extended by [`match_len`].
#[inline(always)]
fn mask_len(m: u64, j: u32, data: &[u8], at: usize, d: usize) -> usize {
    // Zeros shifted in at the top become ones here, so `t <= 64 - j`.
    let t = (!(m >> j)).trailing_zeros() as usize;
    if t < 64 - j as usize { t } else { (t + match_len(data, at + t, d)).min(MAX_MATCH) }
}

/// The greedy parse of `data` into tokens. `up` is the distance to the row above, or 0.
#[inline(always)]
fn parse<const AVX2: bool>(data: &[u8], up: usize, tokens: &mut Vec<Token>) {
    tokens.clear();
    let n = data.len();
    let mut lit_start = 0usize;
    let mut i = 1usize; // the first byte is always a literal
    let scan_end = n.saturating_sub(64);
    // Bits 0..SCAN_STEP of the masks below are exact (they read no bit past 63).
    const EXACT: u64 = (1 << SCAN_STEP) - 1;
    while i < n {
        // The next position where a match may start, and the lengths of a run and of an up
        // match there (0: none).
        let (at, run, upl) = if i < scan_end {
            let m_run = eq_mask::<AVX2>(data, i, 1);
            let runs = runs_of(m_run, RUN_MIN) & EXACT;
            let (m_up, ups) = if up > 0 && i >= up {
                let m = eq_mask::<AVX2>(data, i, up);
                (m, runs_of(m, UP_MIN) & EXACT)
            } else {
                (0, 0)
            };
            let cand = runs | ups;
            if cand == 0 {
                i += SCAN_STEP;
                continue;
            }
            let j = cand.trailing_zeros();
            let at = i + j as usize;
            let run = if runs >> j & 1 == 1 { mask_len(m_run, j, data, at, 1) } else { 0 };
            let upl = if ups >> j & 1 == 1 { mask_len(m_up, j, data, at, up) } else { 0 };
            (at, run, upl)
        } else {
            // The tail, byte by byte.
            let run = if data[i] == data[i - 1] { match_len(data, i, 1) } else { 0 };
            let upl = if up > 0 && i >= up && data[i] == data[i - up] { match_len(data, i, up) } else { 0 };
            (i, run, upl)
        };
        // A run costs fewer bits than an up match of the same length (distance code 0, no
        // extra bits): take the up match only when it is clearly longer.
        let (len, is_up) = if upl >= UP_MIN && upl > run + 2 {
            (upl, true)
        } else if run >= RUN_MIN {
            (run, false)
        } else if upl >= UP_MIN {
            (upl, true)
        } else {
            // Only in the tail: no match here.
            i = at + 1;
            continue;
        };
        tokens.push(Token { lits: (at - lit_start) as u32, len: len as u16, up: is_up });
        i = at + len;
        lit_start = i;
    }
    tokens.push(Token { lits: (n - lit_start) as u32, len: 0, up: false });
}

/// Reusable state of the encoder (tables and token buffer).
pub struct PieceEncoder {
    tokens: Vec<Token>,
    /// For every byte pair `a | b << 8`: the codes of `a` then `b` (bits 0..24) and their total
    /// length (bits 24..32).
    pairs: Vec<u32>,
    /// For every byte: its code (bits 0..24) and length (bits 24..32).
    single: [u32; 256],
    /// For every match length: the bits of a run (distance 1) and of an up match.
    run_patterns: [u64; MAX_MATCH + 1],
    up_patterns: [u64; MAX_MATCH + 1],
    /// Whether to run the AVX2 + BMI2 build of the encoder (same output as the portable one).
    avx2: bool,
}

impl Default for PieceEncoder {
    fn default() -> Self {
        PieceEncoder {
            tokens: Vec::new(),
            pairs: vec![0; 1 << 16],
            single: [0; 256],
            run_patterns: [0; MAX_MATCH + 1],
            up_patterns: [0; MAX_MATCH + 1],
            avx2: avx2_detected(),
        }
    }
}

fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::simd::cpu::level() >= crate::simd::cpu::Isa::Avx2
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl PieceEncoder {
    /// An encoder that never uses AVX2 or BMI2 (for tests and comparisons; the output is the
    /// same byte for byte).
    pub fn portable() -> Self {
        PieceEncoder { avx2: false, ..Self::default() }
    }

    #[cfg(test)]
    /// Whether this encoder runs its AVX2 + BMI2 build.
    pub(crate) fn uses_avx2(&self) -> bool {
        self.avx2
    }
}

/// Counts bytes with four interleaved tables (no store-to-load stalls on repeated values).
#[inline(always)]
fn count_bytes(bytes: &[u8], hist: &mut [[u32; 256]; 4]) {
    let mut quads = bytes.chunks_exact(4);
    for q in &mut quads {
        hist[0][usize::from(q[0])] += 1;
        hist[1][usize::from(q[1])] += 1;
        hist[2][usize::from(q[2])] += 1;
        hist[3][usize::from(q[3])] += 1;
    }
    for &b in quads.remainder() {
        hist[0][usize::from(b)] += 1;
    }
}

/// Counts 4 bytes of every 16 (a sample for the Huffman code; see [`PieceEncoder`]).
#[inline(always)]
fn count_sampled(bytes: &[u8], hist: &mut [[u32; 256]; 4]) {
    let mut chunks = bytes.chunks_exact(16);
    for c in &mut chunks {
        count_bytes(&c[..4], hist);
    }
    let rest = chunks.remainder();
    count_bytes(&rest[..rest.len().min(4)], hist);
}

impl PieceEncoder {
    /// Appends to `out` the deflate blocks (not final) that encode `data`, ending byte-aligned
    /// with a sync flush, so that pieces encoded one after another concatenate into one deflate
    /// stream. `stride` is the distance between vertically adjacent bytes (a PNG scanline with
    /// its filter byte): matches with the row above are used when it is at most 32 KiB; pass 0
    /// for none. Matches never reach before the start of `data`.
    pub fn encode(&mut self, data: &[u8], stride: usize, out: Vec<u8>) -> Vec<u8> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where AVX2 and BMI2 were detected.
            return unsafe { self.encode_avx2(data, stride, out) };
        }
        self.encode_with::<false>(data, stride, out)
    }

    /// [`PieceEncoder::encode`] compiled for AVX2 (the masks) and BMI2 (shifts by a register
    /// without the `cl` constraint, which the bit packing is full of).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn encode_avx2(&mut self, data: &[u8], stride: usize, out: Vec<u8>) -> Vec<u8> {
        self.encode_with::<true>(data, stride, out)
    }

    #[inline(always)]
    fn encode_with<const AVX2: bool>(&mut self, data: &[u8], stride: usize, out: Vec<u8>) -> Vec<u8> {
        let up = if stride <= MAX_DISTANCE { stride } else { 0 };
        let mut w = BitWriter::new(out);
        if !data.is_empty() {
            self.block::<AVX2>(data, up, &mut w);
        }
        // Sync flush: an empty stored block, not final, then LEN = 0 and NLEN = 0xffff.
        w.put(0, 3);
        w.align();
        w.out.extend_from_slice(&[0, 0, 0xff, 0xff]);
        w.out
    }

    #[inline(always)]
    fn block<const AVX2: bool>(&mut self, data: &[u8], up: usize, w: &mut BitWriter) {
        parse::<AVX2>(data, up, &mut self.tokens);
        let up_code = (up > 0).then(|| distance_code(up));

        // Symbol counts: the matches' exactly, the literals' from a quarter of them (4 bytes
        // of every 16). Every literal gets a count of at least 1, so every byte has a code and
        // the pair table is complete.
        let mut hist = [[0u32; 256]; 4];
        let mut lit = [0u32; 286];
        let mut dist = [0u32; 30];
        let mut pos = 0usize;
        for t in &self.tokens {
            let lits = t.lits as usize;
            count_sampled(&data[pos..pos + lits], &mut hist);
            pos += lits;
            if t.len > 0 {
                lit[LENGTH_CODES[usize::from(t.len)].0] += 1;
                let d = if t.up { up_code.expect("up matches only with a stride").0 } else { 0 };
                dist[d] += 1;
                pos += usize::from(t.len);
            }
        }
        for b in 0..256 {
            lit[b] = hist.iter().map(|h| h[b]).sum::<u32>().max(1);
        }
        lit[256] = 1; // end of block
        // Two distance codes at least, as some decoders want.
        dist[0] = dist[0].max(1);
        dist[1] = dist[1].max(1);
        let lit_lens = code_lengths(&lit, MAX_LIT_BITS);
        let dist_lens = code_lengths(&dist, MAX_DIST_BITS);
        let lit_codes = canonical_codes(&lit_lens);
        let dist_codes = canonical_codes(&dist_lens);

        write_dynamic_header(w, &lit_lens, &dist_lens);

        for b in 0..256 {
            self.single[b] = u32::from(lit_codes[b]) | u32::from(lit_lens[b]) << 24;
        }
        // Row `b` holds the pairs ending with `b`: contiguous, so the loop vectorises.
        for (row, &sb) in self.pairs.chunks_exact_mut(256).zip(&self.single) {
            let (cb, lb) = (sb & 0xff_ffff, sb >> 24);
            for (p, &sa) in row.iter_mut().zip(&self.single) {
                let (ca, la) = (sa & 0xff_ffff, sa >> 24);
                *p = (ca | cb << la) + ((la + lb) << 24);
            }
        }
        // Every match length's whole bit pattern: length code, its extra bits, distance code,
        // its extra bits (at most 12 + 5 + 15 + 13 = 45 bits) in bits 0..56, the count above.
        let pattern = |len: usize, d: (usize, u8, u32)| -> u64 {
            let (sym, eb, ev) = LENGTH_CODES[len];
            let mut bits = u64::from(lit_codes[sym]);
            let mut n = u32::from(lit_lens[sym]);
            for (code, count) in [(ev, eb), (u32::from(dist_codes[d.0]), dist_lens[d.0]), (d.2, d.1)] {
                bits |= u64::from(code) << n;
                n += u32::from(count);
            }
            bits | u64::from(n) << 56
        };
        for len in 3..=MAX_MATCH {
            self.run_patterns[len] = pattern(len, (0, 0, 0));
            if let Some(c) = up_code {
                self.up_patterns[len] = pattern(len, c);
            }
        }
        self.emit(data, w);
        w.put(u64::from(lit_codes[256]), u32::from(lit_lens[256]));
        w.flush();
    }

    /// Writes the tokens' literals (two per table lookup) and matches.
    #[inline(always)]
    fn emit(&self, data: &[u8], w: &mut BitWriter) {
        // A literal code has at most MAX_LIT_BITS = 12 bits (1.5 bytes a byte), a match at most
        // MATCH_PATTERN_BITS = 45 bits for at least RUN_MIN bytes (checked at compile time
        // beside `MATCH_PATTERN_BITS`): the body takes at most 1.5 bytes a byte, plus the 8
        // bytes every store writes.
        w.out.reserve(data.len() + data.len() / 2 + 64);
        let capacity = w.out.capacity();
        let base = w.out.as_mut_ptr();
        let mut len = w.out.len();
        let (mut bits, mut n) = (w.bits, w.n);
        // Stores the pending bits and keeps the last partial byte's. Every caller has put at
        // most 48 bits on at most 7 pending, so `n < 64` and the shift is defined.
        let mut store = |bits: &mut u64, n: &mut u32| {
            debug_assert!(*n < 64);
            debug_assert!(len + 8 <= capacity, "deflate store past the reservation");
            // SAFETY: the reservation above covers every byte up to `len + 8`; `len` grows by
            // at most as many bytes as bits were put, divided by 8.
            unsafe { std::ptr::write_unaligned(base.add(len).cast::<u64>(), bits.to_le()) };
            len += (*n / 8) as usize;
            *bits >>= *n & !7;
            *n &= 7;
        };
        let mut pos = 0usize;
        for t in &self.tokens {
            let lits = &data[pos..pos + t.lits as usize];
            pos += lits.len();
            let mut quads = lits.chunks_exact(4);
            for q in &mut quads {
                let a = self.pairs[usize::from(u16::from_le_bytes([q[0], q[1]]))];
                let b = self.pairs[usize::from(u16::from_le_bytes([q[2], q[3]]))];
                let ab = u64::from(a & 0xff_ffff) | u64::from(b & 0xff_ffff) << (a >> 24);
                bits |= ab << n;
                n += (a >> 24) + (b >> 24);
                store(&mut bits, &mut n);
            }
            // Up to 3 x 12 bits more, on at most 7 pending.
            for &b in quads.remainder() {
                let s = self.single[usize::from(b)];
                bits |= u64::from(s & 0xff_ffff) << n;
                n += s >> 24;
            }
            store(&mut bits, &mut n);
            if t.len > 0 {
                let table = if t.up { &self.up_patterns } else { &self.run_patterns };
                let m = table[usize::from(t.len)];
                bits |= (m & ((1 << 56) - 1)) << n;
                n += (m >> 56) as u32;
                store(&mut bits, &mut n);
                pos += usize::from(t.len);
            }
        }
        debug_assert_eq!(pos, data.len());
        // SAFETY: every byte below `len` was written by a store.
        unsafe { w.out.set_len(len) };
        w.bits = bits;
        w.n = n;
    }
}

/// Bits of a match's whole pattern at most: a length code (literal/length alphabet, at most
/// `MAX_LIT_BITS`), 5 extra length bits, a distance code (`MAX_DIST_BITS`) and 13 extra
/// distance bits.
const MATCH_PATTERN_BITS: usize = MAX_LIT_BITS as usize + 5 + MAX_DIST_BITS as usize + 13;

/// `emit` reserves 1.5 bytes (12 bits) of output per input byte: that covers a literal, and a
/// match, which covers at least `min(RUN_MIN, UP_MIN)` bytes. If a change to the code-length
/// limits or the shortest match broke this, `emit`'s unchecked stores could run past the
/// reservation, so the build fails instead.
const _: () = {
    let shortest = if RUN_MIN < UP_MIN { RUN_MIN } else { UP_MIN };
    assert!(MAX_LIT_BITS as usize <= 12, "a literal must fit 1.5 bytes");
    assert!(MATCH_PATTERN_BITS <= 12 * shortest, "a match must fit 1.5 bytes per byte it covers");
    assert!(MATCH_PATTERN_BITS <= 56, "a match pattern must fit below the count in bits 56..64");
};

/// Writes a dynamic-Huffman block header (not final) for the given code lengths.
fn write_dynamic_header(w: &mut BitWriter, lit_lens: &[u8], dist_lens: &[u8]) {
    let hlit = lit_lens.iter().rposition(|&l| l > 0).map_or(257, |p| p + 1).max(257);
    let hdist = dist_lens.iter().rposition(|&l| l > 0).map_or(1, |p| p + 1).max(1);
    let all: Vec<u8> = lit_lens[..hlit].iter().chain(&dist_lens[..hdist]).copied().collect();
    // Run-length code the lengths: 16 repeats the previous 3-6 times, 17 and 18 give 3-10 and
    // 11-138 zeros.
    let mut rle: Vec<(u8, u8)> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        let mut run = 1;
        while i + run < all.len() && all[i + run] == l {
            run += 1;
        }
        let mut left = run;
        if l == 0 {
            while left >= 11 {
                let r = left.min(138);
                rle.push((18, (r - 11) as u8));
                left -= r;
            }
            if left >= 3 {
                rle.push((17, (left - 3) as u8));
                left = 0;
            }
        } else {
            rle.push((l, 0));
            left -= 1;
            while left >= 3 {
                let r = left.min(6);
                rle.push((16, (r - 3) as u8));
                left -= r;
            }
        }
        for _ in 0..left {
            rle.push((l, 0));
        }
        i += run;
    }
    let mut cl_freq = [0u32; 19];
    for &(s, _) in &rle {
        cl_freq[usize::from(s)] += 1;
    }
    // zlib rejects an incomplete code-length code, which one used symbol would give.
    if cl_freq.iter().filter(|&&f| f > 0).count() < 2 {
        let spare = if cl_freq[0] == 0 { 0 } else { 18 };
        cl_freq[spare] = 1;
    }
    let cl_lens = code_lengths(&cl_freq, MAX_CL_BITS);
    let cl_codes = canonical_codes(&cl_lens);
    let hclen = CL_ORDER.iter().rposition(|&s| cl_lens[s] > 0).map_or(4, |p| p + 1).max(4);

    w.put(0b100, 3); // BFINAL = 0, BTYPE = 10 (dynamic Huffman)
    w.put((hlit - 257) as u64, 5);
    w.put((hdist - 1) as u64, 5);
    w.put((hclen - 4) as u64, 4);
    w.flush();
    for &s in &CL_ORDER[..hclen] {
        w.put(u64::from(cl_lens[s]), 3);
        w.flush();
    }
    for &(s, extra) in &rle {
        let s = usize::from(s);
        w.put(u64::from(cl_codes[s]), u32::from(cl_lens[s]));
        match s {
            16 => w.put(u64::from(extra), 2),
            17 => w.put(u64::from(extra), 3),
            18 => w.put(u64::from(extra), 7),
            _ => {}
        }
        w.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(stream: &[u8]) -> Vec<u8> {
        // A final empty fixed block closes the stream.
        let mut s = stream.to_vec();
        s.extend_from_slice(&[0x03, 0x00]);
        let mut out = Vec::new();
        flate2::read::DeflateDecoder::new(s.as_slice()).read_to_end(&mut out).expect("valid deflate");
        out
    }

    fn roundtrip(pieces: &[&[u8]], stride: usize) {
        let mut enc = PieceEncoder::default();
        let mut stream = Vec::new();
        for p in pieces {
            stream = enc.encode(p, stride, stream);
        }
        let whole: Vec<u8> = pieces.concat();
        assert!(inflate(&stream) == whole, "round trip of {} bytes, stride {stride}", whole.len());
        // The portable build writes the same bytes as the AVX2 one (where there is one).
        let mut portable = PieceEncoder::portable();
        let mut again = Vec::new();
        for p in pieces {
            again = portable.encode(p, stride, again);
        }
        assert!(
            again == stream,
            "portable and {} encoders differ",
            if enc.uses_avx2() { "AVX2" } else { "default" }
        );
    }

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn codes_of_lengths_and_distances() {
        assert_eq!(length_code(3), (257, 0, 0));
        assert_eq!(length_code(10), (264, 0, 0));
        assert_eq!(length_code(11), (265, 1, 0));
        assert_eq!(length_code(12), (265, 1, 1));
        assert_eq!(length_code(227), (284, 5, 0));
        assert_eq!(length_code(257), (284, 5, 30));
        assert_eq!(length_code(258), (285, 0, 0));
        assert_eq!(distance_code(1), (0, 0, 0));
        assert_eq!(distance_code(4), (3, 0, 0));
        assert_eq!(distance_code(5), (4, 1, 0));
        assert_eq!(distance_code(7), (5, 1, 0));
        assert_eq!(distance_code(15001), (27, 12, 15001 - 12289));
        assert_eq!(distance_code(24577), (29, 13, 0));
        assert_eq!(distance_code(32768), (29, 13, 8191));
    }

    #[test]
    fn code_lengths_are_complete_and_limited() {
        // Fibonacci counts force a deep tree; the limit must hold and Kraft's sum stay 1.
        let mut fib = vec![1u32, 1];
        while fib.len() < 30 {
            let n = fib[fib.len() - 1] + fib[fib.len() - 2];
            fib.push(n);
        }
        for (freqs, max) in
            [(fib.clone(), 7u8), (fib.clone(), 12), (fib, 15), (vec![5, 0, 0, 9], 7), (vec![1; 286], 12)]
        {
            let lens = code_lengths(&freqs, max);
            assert!(lens.iter().all(|&l| l <= max));
            let kraft: f64 = lens.iter().filter(|&&l| l > 0).map(|&l| 0.5f64.powi(i32::from(l))).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "kraft {kraft}");
            for (f, l) in freqs.iter().zip(&lens) {
                assert_eq!(*f > 0, *l > 0);
            }
        }
        assert_eq!(code_lengths(&[0, 3, 0], 7), vec![0, 1, 0]);
    }

    #[test]
    fn round_trips_edge_cases() {
        roundtrip(&[], 0);
        roundtrip(&[b""], 5);
        roundtrip(&[b"a"], 0);
        roundtrip(&[b"aaaa", b"aaaaa"], 0);
        roundtrip(&[&[7u8; 100_000]], 0);
        roundtrip(&[&[0u8; 259], &[0u8; 258], &[1u8; 3]], 7);
        let all: Vec<u8> = (0..=255).collect();
        roundtrip(&[&all, &all, &all], 256);
    }

    /// Random pictures: noise of few colours, runs, rows copied from the row above (with
    /// changes), every stride up to past the window.
    #[test]
    fn round_trips_random_pictures() {
        let mut seed = 0x5eed_u64;
        for case in 0..60 {
            let width = 1 + (xorshift(&mut seed) % 3000) as usize;
            let stride = width + 1;
            let rows = 1 + (xorshift(&mut seed) % 40) as usize;
            let colours = 1 + xorshift(&mut seed) % 6;
            let mut data = Vec::with_capacity(rows * stride);
            for r in 0..rows {
                data.push(0);
                let copy = r > 0 && case % 3 != 0 && xorshift(&mut seed).is_multiple_of(2);
                let mut x = 0;
                while x < width {
                    let run = 1 + (xorshift(&mut seed) % [1, 4, 40, 400][case % 4]) as usize;
                    let v = (xorshift(&mut seed) % colours) as u8 * 17;
                    for _ in 0..run.min(width - x) {
                        let keep = copy && !xorshift(&mut seed).is_multiple_of(50);
                        data.push(if keep { data[data.len() - stride] } else { v });
                        x += 1;
                    }
                }
            }
            let cut = (xorshift(&mut seed) as usize) % (data.len() + 1);
            roundtrip(&[&data[..cut], &data[cut..]], stride);
            roundtrip(&[&data], 0);
        }
        // A stride past the window: no up matches, still correct.
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 40_000 / 7) as u8).collect();
        roundtrip(&[&data], 40_000);
    }
}
