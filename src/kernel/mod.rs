//! Tile kernels: each computes one rectangular tile of the board from its halo (the two rows
//! above it and the two columns to its left, as far back as RULE.md's neighbourhood reaches).
//!
//! * [`wide`] is the plain scalar kernel in exact 64-bit arithmetic. It handles every tile,
//!   including those touching the hood or the initial condition, and it is the reference the
//!   narrow kernels are tested against bit for bit.
//! * The **narrow** kernels compute in 8-bit lanes, 32 or 64 rows at once along the
//!   anti-diagonals: [`portable`] (plain Rust, any CPU), [`avx2`] and [`avx512`] (x86-64, chosen
//!   at run time). Wrapping 8-bit arithmetic is exact for `g = a - b - c + e + f + p` as long as
//!   every value is small enough for its sign to be right (RULE.md); the kernels check that every
//!   value stays within [`NARROW_LIMIT`] and report failure otherwise, and the engine then
//!   recomputes the tile with the wide kernel.
//!
//! The kernel is picked at run time ([`KernelChoice`]); shipped builds never assume a CPU
//! feature at compile time.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod portable;
pub mod wide;

use clap::ValueEnum;
use std::sync::{Arc, Mutex};

/// Values the narrow kernels accept as inputs and produce without flagging. With all six
/// inputs within +-24, `|a - b - c + e + f + p| <= 5 * 24 + 5 = 125`, so 8-bit arithmetic is
/// exact and every sign is right.
pub const NARROW_LIMIT: i8 = 24;

/// Row `r` of a tile starts `r % ROW_SKEW` bytes into its stride, so that a vector kernel's
/// stores of lane `i` (row `r0 + i`, columns `s0 - i ..`) all land on the same alignment.
pub const ROW_SKEW: usize = 64;
/// Bytes a vector kernel may write past the end of a row, skew included (AVX-512: up to
/// 125 columns past the row's end plus a skew of at most 63 minus the lane; see the kernels).
const ROW_SLACK: usize = 126;

/// A narrow kernel: computes a `w x h` tile from its 8-bit halo into `out` and returns
/// `false` if some value left `-NARROW_LIMIT..=NARROW_LIMIT` (the tile must then be recomputed
/// by the wide kernel). The halo layout is that of [`wide::wide_tile`]: `top` holds rows
/// `y0 - 2` and `y0 - 1` over columns `x0 - 2 .. x0 + w`, `left` the two cells left of each
/// row. All halo values must lie within the limit.
pub type NarrowFn = fn(top: &[i8], left: &[i8], w: usize, h: usize, out: &mut TileBuf) -> bool;

/// Recycled tile buffers, so tiles are not allocated and zeroed afresh.
#[derive(Debug, Default)]
pub struct BufPool(Mutex<Vec<Box<[i8]>>>);

/// The cells of a computed tile: `h` rows of `w` values. Row `r` starts at
/// `r * stride + r % ROW_SKEW` from a 64-byte aligned origin, with slack after it that vector
/// kernels may scribble on (see [`TileBuf::col0`]).
#[derive(Debug)]
pub struct TileBuf {
    data: Box<[i8]>,
    origin: usize,
    w: usize,
    h: usize,
    stride: usize,
    pool: Option<Arc<BufPool>>,
}

impl TileBuf {
    fn layout(w: usize, h: usize) -> (usize, usize) {
        let stride = (w + ROW_SLACK).next_multiple_of(64);
        (stride, stride * h + 64)
    }

    fn with_data(data: Box<[i8]>, w: usize, h: usize, pool: Option<Arc<BufPool>>) -> Self {
        let (stride, _) = Self::layout(w, h);
        let origin = data.as_ptr().align_offset(64);
        TileBuf { data, origin, w, h, stride, pool }
    }

    /// A fresh zeroed buffer.
    pub fn new(w: usize, h: usize) -> Self {
        let (_, len) = Self::layout(w, h);
        Self::with_data(vec![0i8; len].into_boxed_slice(), w, h, None)
    }

    /// A buffer from `pool` (contents unspecified), returned to it on drop.
    pub fn pooled(pool: &Arc<BufPool>, w: usize, h: usize) -> Self {
        let (_, need) = Self::layout(w, h);
        let recycled = {
            let mut free = pool.0.lock().expect("pool lock");
            free.iter().position(|b| b.len() == need).map(|i| free.swap_remove(i))
        };
        let data = recycled.unwrap_or_else(|| vec![0i8; need].into_boxed_slice());
        Self::with_data(data, w, h, Some(Arc::clone(pool)))
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.h
    }

    /// Offset in the raw buffer of row `r`, column 0. A vector kernel may write row `r` from
    /// `col0(r) - r % ROW_SKEW` to `col0(r) + w + 126 - r % ROW_SKEW`.
    #[inline]
    pub fn col0(&self, r: usize) -> usize {
        self.origin + r * self.stride + r % ROW_SKEW
    }

    /// Row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> &[i8] {
        debug_assert!(r < self.h);
        &self.data[self.col0(r)..][..self.w]
    }

    /// Row `r`, writable.
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut [i8] {
        debug_assert!(r < self.h);
        let c = self.col0(r);
        &mut self.data[c..][..self.w]
    }

    /// The raw buffer, for vector kernels (see [`TileBuf::col0`] for where they may write).
    #[inline]
    pub fn raw_mut(&mut self) -> &mut [i8] {
        &mut self.data
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
        dst[2..].copy_from_slice(out.row(r));
    }
}

/// Offset of step `t = -4` in the interleaved halo (room for a 16-byte load ending there).
pub(crate) const HOFF: usize = 16;

/// `hal[HOFF + 2 (t + 4)] = V_t[-2] = (t + 2, r0 - 2)` and `hal[HOFF + 2 (t + 4) + 1] =
/// V_t[-1] = (t + 1, r0 - 1)`, 0 beyond the tile.
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
pub(crate) fn left_columns<const L: usize>(left: &[i8], r0: usize, rows: usize) -> ([i8; L], [i8; L]) {
    let mut c2 = [0i8; L];
    let mut c1 = [0i8; L];
    for i in 0..rows {
        c2[i] = left[2 * (r0 + i)];
        c1[i] = left[2 * (r0 + i) + 1];
    }
    (c2, c1)
}

/// Which tile kernel the engine uses outside the hood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum KernelChoice {
    /// The fastest kernel this CPU supports (AVX-512, else AVX2, else portable).
    #[default]
    Auto,
    /// The exact 64-bit scalar kernel everywhere (slow; the reference).
    Wide,
    /// 8-bit lanes in plain Rust, for any CPU.
    Portable,
    /// 8-bit lanes with AVX2 (32 rows at once).
    Avx2,
    /// 8-bit lanes with AVX-512 BW and VBMI (64 rows at once).
    Avx512,
}

impl KernelChoice {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            KernelChoice::Auto => "auto",
            KernelChoice::Wide => "wide",
            KernelChoice::Portable => "portable",
            KernelChoice::Avx2 => "avx2",
            KernelChoice::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the kernel.
    pub fn available(self) -> bool {
        match self {
            KernelChoice::Auto | KernelChoice::Wide | KernelChoice::Portable => true,
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Avx2 => avx2::available(),
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Avx512 => avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            KernelChoice::Avx2 | KernelChoice::Avx512 => false,
        }
    }

    /// The concrete kernel `Auto` stands for on this CPU (other choices stand for themselves).
    pub fn resolve(self) -> KernelChoice {
        match self {
            KernelChoice::Auto => {
                if KernelChoice::Avx512.available() {
                    KernelChoice::Avx512
                } else if KernelChoice::Avx2.available() {
                    KernelChoice::Avx2
                } else {
                    KernelChoice::Portable
                }
            }
            k => k,
        }
    }

    /// The narrow kernel function, or `None` for the wide kernel. Panics if the kernel is not
    /// [`available`](Self::available) (the command line refuses that choice first).
    pub fn narrow_fn(self) -> Option<NarrowFn> {
        match self.resolve() {
            KernelChoice::Wide => None,
            KernelChoice::Portable => Some(portable::narrow_tile as NarrowFn),
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Avx2 => {
                assert!(avx2::available(), "AVX2 kernel requested on a CPU without AVX2");
                Some(avx2::narrow_tile as NarrowFn)
            }
            #[cfg(target_arch = "x86_64")]
            KernelChoice::Avx512 => {
                assert!(avx512::available(), "AVX-512 kernel requested on a CPU without AVX-512 BW/VBMI");
                Some(avx512::narrow_tile as NarrowFn)
            }
            k => panic!("kernel {k:?} is not available on this CPU"),
        }
    }
}

/// Every kernel choice that this CPU can run, `Auto` excluded.
pub fn available_kernels() -> Vec<KernelChoice> {
    KernelChoice::value_variants()
        .iter()
        .copied()
        .filter(|k| *k != KernelChoice::Auto && k.available())
        .collect()
}
