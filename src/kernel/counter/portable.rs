//! The band-lane algorithm in plain Rust (the compiler vectorises the byte loops), for any CPU.

use super::bands::{Lane, Scratch, Vector, run};
use super::{BIAS, CounterKernel, EdgeValues, Edges, LANES, Outcome};

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
    run::<Bytes, M>(w, h, edges, values, scratch)
}

#[derive(Clone, Copy)]
struct Bytes([u8; LANES]);

impl Bytes {
    #[inline(always)]
    fn zip(mut self, o: Self, f: impl Fn(u8, u8) -> u8) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a = f(*a, b);
        }
        self
    }
}

impl Vector for Bytes {
    #[inline(always)]
    fn splat(x: u8) -> Self {
        Bytes([x; LANES])
    }
    #[inline(always)]
    fn load(p: &Lane) -> Self {
        Bytes(p.0)
    }
    #[inline(always)]
    fn store(self, p: &mut Lane) {
        p.0 = self.0;
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, u8::wrapping_add)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, u8::wrapping_sub)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }
    #[inline(always)]
    fn palace(self) -> Self {
        let mut m = self;
        for s in &mut m.0 {
            // All ones where the signed byte is below BIAS, as the vector compare gives.
            *s = 0u8.wrapping_sub(u8::from((*s as i8) < BIAS as i8));
        }
        m
    }
    #[inline(always)]
    fn shift_in(self, first: u8) -> Self {
        let mut out = [first; LANES];
        out[1..].copy_from_slice(&self.0[..LANES - 1]);
        Bytes(out)
    }
    #[inline(always)]
    fn sum(self) -> u32 {
        self.0.iter().map(|&b| u32::from(b)).sum()
    }
}
