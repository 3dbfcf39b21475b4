//! The pieces the Fibonacci games share: the Fibonacci numbers in the indexing of the texts,
//! Zeckendorf representations, the minimum excludant and a packed bit set.
//!
//! The black-hole paper (Cashman, Miller, Shuffelton and Son, *Black Hole Zeckendorf Games*,
//! §1.1) indexes the Fibonacci numbers `F_1 = 1, F_2 = 2, F_{k+1} = F_k + F_{k-1}`, so that
//! every column of a Zeckendorf board has a distinct weight; [`weight`] follows it.

/// The weight of column `F_i` (`i >= 1`) in the black-hole paper's indexing: 1, 2, 3, 5, 8, ...
///
/// # Panics
/// If `i` is 0 or the weight overflows `u64` (`i > 91`).
pub fn weight(i: usize) -> u64 {
    assert!((1..=91).contains(&i), "column F_{i} is not a column (1..=91)");
    let (mut a, mut b) = (1u64, 2u64);
    for _ in 1..i {
        (a, b) = (b, a + b);
    }
    a
}

/// The distinct Fibonacci numbers 1, 2, 3, 5, ... up to and including `max`.
pub fn fibonacci_up_to(max: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let (mut a, mut b) = (1u64, 2u64);
    while a <= max {
        out.push(a);
        let Some(c) = a.checked_add(b) else { break };
        (a, b) = (b, c);
    }
    out
}

/// Whether `n` is a Fibonacci number (1, 2, 3, 5, 8, ...).
pub(crate) fn is_fibonacci(n: u64) -> bool {
    fibonacci_up_to(n).last() == Some(&n)
}

/// The Zeckendorf representation of `n >= 1` by the greedy algorithm (repeatedly subtract the
/// largest Fibonacci number that fits), largest term first. Empty for `n = 0`.
pub fn zeckendorf(n: u64) -> Vec<u64> {
    let fibs = fibonacci_up_to(n);
    let mut rest = n;
    let mut out = Vec::new();
    for &f in fibs.iter().rev() {
        if f <= rest {
            out.push(f);
            rest -= f;
        }
    }
    out
}

/// The smallest term of the Zeckendorf representation of `n >= 1`.
pub(crate) fn smallest_zeckendorf_term(n: u64) -> u64 {
    *zeckendorf(n).last().expect("n >= 1")
}

/// The Fibonacci coding of `n >= 1`: bit `i` (first character = `F_1 = 1`) says whether `F_{i+1}`
/// is in the Zeckendorf representation, followed by a closing `1`.
pub(crate) fn fibonacci_code(n: u64) -> String {
    let fibs = fibonacci_up_to(n);
    let terms = zeckendorf(n);
    let top = fibs.iter().position(|&f| f == terms[0]).expect("a Fibonacci number");
    let mut s: String = fibs[..=top].iter().map(|f| if terms.contains(f) { '1' } else { '0' }).collect();
    s.push('1');
    s
}

/// The minimum excludant: the smallest natural number not in `values`.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<bool> = Vec::new();
    for v in values {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// A fixed-size set of bits packed 64 to a word: one bit per game position where the positions
/// are numbered densely (8 positions per byte, no per-entry overhead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    /// `len` bits, all clear.
    pub fn new(len: usize) -> Self {
        BitSet { words: vec![0; len.div_ceil(64)], len }
    }

    /// How many bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set has no bits at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Sets bit `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        debug_assert!(i < self.len);
        self.words[i >> 6] |= 1 << (i & 63);
    }

    /// How many bits are set.
    pub(crate) fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_the_papers_indexing() {
        // Black-hole paper §1.1: F_1 = 1, F_2 = 2, F_{k+1} = F_k + F_{k-1}; F_4 = 5, F_5 = 8.
        let w: Vec<u64> = (1..=8).map(weight).collect();
        assert_eq!(w, [1, 2, 3, 5, 8, 13, 21, 34]);
        assert_eq!(fibonacci_up_to(21), [1, 2, 3, 5, 8, 13, 21]);
        assert!(is_fibonacci(89) && !is_fibonacci(90) && !is_fibonacci(0));
    }

    #[test]
    fn zeckendorf_of_ten_is_eight_plus_two() {
        // Fibonacci nim notes: "the Zeckendorf representation of 10 is 8 + 2".
        assert_eq!(zeckendorf(10), [8, 2]);
        assert_eq!(smallest_zeckendorf_term(10), 2);
        assert_eq!(zeckendorf(1), [1]);
        assert_eq!(zeckendorf(0), Vec::<u64>::new());
    }

    #[test]
    fn fibonacci_codes() {
        // 1 = F_1 -> "11"; 4 = 3 + 1 -> "1011"; 11 = 8 + 3 -> "001011".
        assert_eq!(fibonacci_code(1), "11");
        assert_eq!(fibonacci_code(4), "1011");
        assert_eq!(fibonacci_code(11), "001011");
    }

    #[test]
    fn mex_and_bits() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1]), 3);
        let mut b = BitSet::new(130);
        b.set(0);
        b.set(129);
        assert!(b.get(0) && b.get(129) && !b.get(64));
        assert_eq!(b.count_ones(), 2);
    }
}
