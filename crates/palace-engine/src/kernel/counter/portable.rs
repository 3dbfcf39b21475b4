//! The band-lane algorithm in plain Rust for any CPU: the 32 byte lanes as four 64-bit words,
//! with SIMD-within-a-register arithmetic (the byte-array version was not vectorised by the
//! compiler and ran no faster than the plain programme).

use super::bands::{Lane, Scratch, Vector, run};
use super::contract::{BIAS, EdgeValues, Edges, LANES, Outcome};
use super::tile::CounterKernel;

/// Columns per register block.
const M: usize = 4;

/// The portable counter kernel.
pub const PORTABLE: CounterKernel = CounterKernel { name: "portable", group: M, run: tile };

/// Computes a tile (see [`super::CounterFn`]).
pub fn tile(
    w: usize,
    h: usize,
    edges: &mut Edges,
    values: &mut EdgeValues,
    scratch: &mut Scratch,
) -> Outcome {
    run::<Words, M>(w, h, edges, values, scratch)
}

const WORDS: usize = LANES / 8;
/// The low seven bits of every byte.
const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The top bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// Bit 4 of every byte.
const BIT4: u64 = 0x1010_1010_1010_1010;

/// 32 byte lanes, lane `j` in byte `j % 8` (little-endian) of word `j / 8`.
#[derive(Clone, Copy)]
pub(crate) struct Words([u64; WORDS]);

impl Words {
    #[inline(always)]
    fn map2(self, o: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Words(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }
}

/// Bytewise wrapping `a + b`: the low seven bits add without carrying out of the byte, the top
/// bit is the sum of the top bits and that carry.
#[inline(always)]
fn add8(a: u64, b: u64) -> u64 {
    ((a & LOW) + (b & LOW)) ^ ((a ^ b) & HIGH)
}

/// Bytewise wrapping `a - b`: each byte's top bit set before subtracting the low seven bits of
/// `b` absorbs the borrow.
#[inline(always)]
fn sub8(a: u64, b: u64) -> u64 {
    ((a | HIGH) - (b & LOW)) ^ ((a ^ !b) & HIGH)
}

/// 0xFF in the bytes that hold a palace (`s < BIAS` as a signed byte: bit 7 set, or bits 6, 5
/// and 4 all clear), 0 elsewhere.
#[inline(always)]
fn palace8(s: u64) -> u64 {
    const { assert!(BIAS == 16, "the bit test below is for a bias of 16") };
    // Bit 4 of each byte: bit 7 (shifted down by 3), or none of bits 6, 5 and 4 (shifted down
    // by 2, 1 and 0). Shifting down moves the next byte's low bits into this byte's top bits
    // only, never into bit 4.
    let p = ((s >> 3) | !((s >> 2) | (s >> 1) | s)) & BIT4;
    let ones = p >> 4;
    (ones << 8).wrapping_sub(ones)
}

/// 0xFF in the bytes that are negative (top bit set), 0 elsewhere.
#[inline(always)]
fn negative8(s: u64) -> u64 {
    let ones = (s & HIGH) >> 7;
    (ones << 8).wrapping_sub(ones)
}

impl Vector for Words {
    const PAIRED: bool = false;

    #[inline(always)]
    fn splat(x: u8) -> Self {
        Words([u64::from(x) * 0x0101_0101_0101_0101; WORDS])
    }
    #[inline(always)]
    fn load(p: &Lane) -> Self {
        Words(std::array::from_fn(|i| u64::from_le_bytes(p.0[8 * i..8 * i + 8].try_into().expect("8 bytes"))))
    }
    #[inline(always)]
    fn store(self, p: &mut Lane) {
        for (i, w) in self.0.iter().enumerate() {
            p.0[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.map2(o, add8)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.map2(o, sub8)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.map2(o, |a, b| a | b)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.map2(o, |a, b| a & b)
    }
    #[inline(always)]
    fn palace(self) -> Self {
        Words(self.0.map(palace8))
    }
    #[inline(always)]
    fn negative(self) -> Self {
        Words(self.0.map(negative8))
    }
    #[inline(always)]
    fn shift_in(self, first: u8) -> Self {
        let w = self.0;
        Words(std::array::from_fn(|i| (w[i] << 8) | if i == 0 { u64::from(first) } else { w[i - 1] >> 56 }))
    }
    #[inline(always)]
    fn sum(self) -> u32 {
        self.0.iter().flat_map(|w| w.to_le_bytes()).map(u32::from).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word operations equal the byte operations on every pair of bytes, in every byte
    /// position.
    #[test]
    fn word_operations_are_bytewise() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for pos in [0, 3, 7] {
                    let at = |x: u8| u64::from(x) << (8 * pos);
                    // Neighbouring bytes hold other values, to catch carries and borrows.
                    let noise = 0x5A5A_5A5A_5A5A_5A5Au64 & !(0xFF << (8 * pos));
                    let get = |w: u64| (w >> (8 * pos)) as u8;
                    assert_eq!(get(add8(at(a) | noise, at(b) | noise)), a.wrapping_add(b));
                    assert_eq!(get(sub8(at(a) | noise, at(b) | noise)), a.wrapping_sub(b));
                    let m = palace8(at(a) | noise);
                    assert_eq!(get(m), if (a as i8) < BIAS as i8 { 0xFF } else { 0 }, "{a}");
                    let n = negative8(at(a) | noise);
                    assert_eq!(get(n), if (a as i8) < 0 { 0xFF } else { 0 }, "{a}");
                    assert_eq!(n & !(0xFFu64 << (8 * pos)), negative8(noise) & !(0xFFu64 << (8 * pos)));
                    // The other bytes' masks are their own.
                    let others = !(0xFFu64 << (8 * pos));
                    assert_eq!(m & others, palace8(noise) & others);
                }
            }
        }
    }
}
