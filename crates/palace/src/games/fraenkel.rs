//! Fraenkel's array `A` and the ternary numeration system `U` (A. S. Fraenkel, *Arrays,
//! Numeration Systems and Frankenstein Games*, §1-§2), built from their definitions.
//!
//! * The array (definition (1), (2)): `A_0^n = mex { A_j^i : i < n, j >= 0 }`,
//!   `A_1^n = 2 A_0^n + n`, `A_j^n = 3 A_{j-1}^n - A_{j-2}^n`. [`array()`] builds rows by exactly
//!   that rule: the mex is taken over every entry of the earlier rows below a cap that grows
//!   when the mex reaches it, so no property of the array is assumed.
//! * The system `U` (Theorem I): basis `u_0 = 1, u_1 = 3, u_i = 3 u_{i-1} - u_{i-2}`, digits
//!   0, 1, 2, two 2s always separated by a 0. [`representation`] is the greedy algorithm of §4
//!   (divide by the largest basis element that fits); `is_admissible` tests the special
//!   condition, and `admissible_strings` enumerates every admissible string, the brute force the
//!   greedy is tested against.
//! * [`sweep`] builds the array up to a bound `X` in one streamed pass (a bit set of `X + 1`
//!   bits, the rows' first entries in chunks checked in parallel) and runs the checks of
//!   Theorem 1, Theorem 2 (i)-(iii), Lemmas 1-3 and the existence part of Theorem I on every
//!   entry `<= X`. The texts' statements are checks on the construction's output
//!   ([`crate::games::fraenkel_claims`]), never inputs to it.

use super::fib::BitSet;
use super::watch::Watch;
use rayon::prelude::*;

/// Largest number of rows of the array `A` a run lists.
pub const MAX_FRAENKEL_ROWS: u64 = 1_000_000;

/// How many basis elements fit in `u64`: `u_0 .. u_45` (`u_45 = 7 540 113 804 746 346 429`).
pub const BASIS_LEN: usize = 46;

/// The basis `u_0 = 1, u_1 = 3, u_i = 3 u_{i-1} - u_{i-2}` (Fraenkel §1, before Theorem I).
pub const BASIS: [u64; BASIS_LEN] = {
    let mut u = [0u64; BASIS_LEN];
    u[0] = 1;
    u[1] = 3;
    let mut i = 2;
    while i < BASIS_LEN {
        u[i] = 3 * u[i - 1] - u[i - 2];
        i += 1;
    }
    u
};

/// Most digits a `u64` has over `U`.
pub const MAX_DIGITS: usize = BASIS_LEN;

/// The greedy representation of `n` over `U` into `d` (least significant digit first);
/// returns the number of digits (0 for `n = 0`). Each step takes the largest basis element not
/// above the remainder as often as it fits.
#[inline]
pub(crate) fn greedy_into(n: u64, d: &mut [u8; MAX_DIGITS]) -> usize {
    if n == 0 {
        return 0;
    }
    let top = BASIS.partition_point(|&u| u <= n) - 1;
    let mut r = n;
    for i in (0..=top).rev() {
        // r < u_{i+1} < 3 u_i, so the quotient is 0, 1 or 2 (found without dividing).
        let u = BASIS[i];
        let q = u64::from(r >= u) + u64::from(r >= u.saturating_mul(2));
        d[i] = q as u8;
        r -= q * u;
    }
    debug_assert_eq!(r, 0);
    top + 1
}

/// The greedy representation of `n` over `U`, least significant digit first (empty for 0).
pub fn representation(n: u64) -> Vec<u8> {
    let mut d = [0u8; MAX_DIGITS];
    let len = greedy_into(n, &mut d);
    d[..len].to_vec()
}

/// The representation written the text's way, most significant digit first (`41` -> `"1211"`).
pub fn representation_string(n: u64) -> String {
    representation(n).iter().rev().map(|&d| char::from(b'0' + d)).collect()
}

/// Whether digits (least significant first) satisfy Theorem I: every digit is 0, 1 or 2, and
/// between any two 2s there is a 0.
pub(crate) fn is_admissible(d: &[u8]) -> bool {
    let mut open_two = false;
    for &x in d {
        match x {
            0 => open_two = false,
            1 => {}
            2 if !open_two => open_two = true,
            _ => return false,
        }
    }
    true
}

/// The value `sum d_i u_i` of digits (least significant first), `None` past `u128`.
pub fn value(d: &[u8]) -> Option<u128> {
    d.iter().enumerate().try_fold(0u128, |acc, (i, &x)| {
        acc.checked_add(u128::from(x).checked_mul(u128::from(*BASIS.get(i)?))?)
    })
}

#[cfg(test)]
/// Every admissible digit string of exactly `len` digits (leading zeros allowed), least
/// significant first: the brute force behind the tests of [`representation`].
pub(crate) fn admissible_strings(len: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|s| {
                (0..3u8).filter_map(move |x| {
                    let mut t = s.clone();
                    t.push(x);
                    is_admissible(&t).then_some(t)
                })
            })
            .collect();
    }
    out
}

/// The number of admissible strings of `len` digits and the largest value among them, by a
/// two-state count (state: whether a 2 has been met since the last 0, reading upwards).
pub(crate) fn count_admissible(len: usize) -> (u128, u128) {
    // (count, largest value) of the strings in each state; `None`: no string in that state.
    let (mut free, mut open): ((u128, Option<u128>), (u128, Option<u128>)) = ((1, Some(0)), (0, None));
    let plus = |m: Option<u128>, x: u128| m.map(|v| v + x);
    for &u in &BASIS[..len] {
        let u = u128::from(u);
        // digit 0: either state -> free; digit 1: keeps the state; digit 2: free -> open.
        let new_free = (free.0 + open.0 + free.0, free.1.max(open.1).max(plus(free.1, u)));
        let new_open = (open.0 + free.0, plus(open.1, u).max(plus(free.1, 2 * u)));
        (free, open) = (new_free, new_open);
    }
    (free.0 + open.0, free.1.max(open.1).unwrap_or(0))
}

/// `floor(m phi)`, exactly (`phi` the golden section): `floor((m + sqrt(5 m^2)) / 2)`.
#[inline]
pub(crate) fn floor_phi(m: u64) -> u64 {
    // 5 m^2 and (sqrt(5) m + 1)^2 fit in u64 below 1.9e9.
    if m < 1_900_000_000 {
        let s = 5 * m * m;
        let mut r = (s as f64).sqrt() as u64;
        while r * r > s {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= s {
            r += 1;
        }
        (m + r) / 2
    } else {
        crate::model::wythoff::pair(m).0
    }
}

/// `floor(m phi^2) = m + floor(m phi)`.
#[inline]
pub(crate) fn floor_phi2(m: u64) -> u64 {
    m + floor_phi(m)
}

/// The Fibonacci numbers of the text's §1: `f_0 = 1, f_1 = 2, f_n = f_{n-1} + f_{n-2}`.
pub(crate) fn fib_f(i: usize) -> u64 {
    FIB_F[i]
}

/// `f_0 .. f_89` of [`fib_f`].
const FIB_F: [u64; 90] = {
    let mut f = [0u64; 90];
    f[0] = 1;
    f[1] = 2;
    let mut i = 2;
    while i < 90 {
        f[i] = f[i - 1] + f[i - 2];
        i += 1;
    }
    f
};

/// Rows `0..rows` of the array, columns `0..columns`, built by definition (1), (2).
///
/// The mex of (1) runs over every entry of the earlier rows below a cap; when the mex reaches
/// the cap, the cap doubles and the earlier rows' entries up to the new cap are added (each row
/// is increasing in `j` for `n >= 1`, since `A_1^n = 2 A_0^n + n > A_0^n` and the recurrence
/// then grows). `None` when an asked-for entry exceeds `u64`.
pub fn array(rows: usize, columns: usize) -> Option<Vec<Vec<u64>>> {
    let mut firsts: Vec<u64> = Vec::with_capacity(rows);
    let mut cap: u64 = 64;
    let mut seen = vec![false; cap as usize];
    // Adds row n's entries in [lo, hi) to `seen`.
    fn add(seen: &mut [bool], n: u64, a0: u64, lo: u64, hi: u64) {
        let (mut a, mut b) = (u128::from(a0), 2 * u128::from(a0) + u128::from(n));
        if n == 0 {
            if lo == 0 {
                seen[0] = true;
            }
            return;
        }
        while a < u128::from(hi) {
            if a >= u128::from(lo) {
                seen[a as usize] = true;
            }
            (a, b) = (b, 3 * b - a);
        }
    }
    let mut m = 0u64;
    for n in 0..rows as u64 {
        while m < cap && seen[m as usize] {
            m += 1;
        }
        while m >= cap {
            let new_cap = cap * 2;
            seen.resize(new_cap as usize, false);
            for (i, &a0) in firsts.iter().enumerate() {
                add(&mut seen, i as u64, a0, cap, new_cap);
            }
            cap = new_cap;
            while m < cap && seen[m as usize] {
                m += 1;
            }
        }
        firsts.push(m);
        add(&mut seen, n, m, 0, cap);
    }
    firsts.iter().enumerate().map(|(n, &a0)| row(n as u64, a0, columns)).collect()
}

/// The first `columns` entries of row `n` from its first entry by (2); `None` past `u64`.
pub fn row(n: u64, a0: u64, columns: usize) -> Option<Vec<u64>> {
    let mut out = Vec::with_capacity(columns);
    let (mut a, mut b) = (u128::from(a0), 2 * u128::from(a0) + u128::from(n));
    for _ in 0..columns {
        out.push(u64::try_from(a).ok()?);
        let c = (3 * b).checked_sub(a)?;
        (a, b) = (b, c);
    }
    Some(out)
}

/// Table 1 of the text as printed: `A_j^n` for `n = 0..=10`, `j = 0..=6`.
pub const TABLE_1: [[u64; 7]; 11] = [
    [0, 0, 0, 0, 0, 0, 0],
    [1, 3, 8, 21, 55, 144, 377],
    [2, 6, 16, 42, 110, 288, 754],
    [4, 11, 29, 76, 199, 521, 1364],
    [5, 14, 37, 97, 254, 665, 1741],
    [7, 19, 50, 131, 343, 898, 2351],
    [9, 24, 63, 165, 432, 1131, 2961],
    [10, 27, 71, 186, 487, 1275, 3338],
    [12, 32, 84, 220, 576, 1508, 3948],
    [13, 35, 92, 241, 631, 1652, 4225],
    [15, 40, 105, 275, 720, 1885, 4935],
];

/// Table 2 of the text as printed: the representation of `n = 1..=60` over `U`, most
/// significant digit first (column headers 55, 21, 8, 3, 1).
pub const TABLE_2: [(u64, &str); 60] = [
    (1, "1"),
    (2, "2"),
    (3, "10"),
    (4, "11"),
    (5, "12"),
    (6, "20"),
    (7, "21"),
    (8, "100"),
    (9, "101"),
    (10, "102"),
    (11, "110"),
    (12, "111"),
    (13, "112"),
    (14, "120"),
    (15, "121"),
    (16, "200"),
    (17, "201"),
    (18, "202"),
    (19, "210"),
    (20, "211"),
    (21, "1000"),
    (22, "1001"),
    (23, "1002"),
    (24, "1010"),
    (25, "1011"),
    (26, "1012"),
    (27, "1020"),
    (28, "1021"),
    (29, "1100"),
    (30, "1101"),
    (31, "1102"),
    (32, "1110"),
    (33, "1111"),
    (34, "1112"),
    (35, "1120"),
    (36, "1121"),
    (37, "1200"),
    (38, "1201"),
    (39, "1202"),
    (40, "1210"),
    (41, "1211"),
    (42, "2000"),
    (43, "2001"),
    (44, "2002"),
    (45, "2010"),
    (46, "2011"),
    (47, "2012"),
    (48, "2020"),
    (49, "2021"),
    (50, "2100"),
    (51, "2101"),
    (52, "2102"),
    (53, "2110"),
    (54, "2111"),
    (55, "10000"),
    (56, "10001"),
    (57, "10002"),
    (58, "10010"),
    (59, "10011"),
    (60, "10012"),
];

/// A place in the array: row `n`, column `j`, and the entry there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// Row.
    pub n: u64,
    /// Column.
    pub j: usize,
    /// `A_j^n`.
    pub value: u64,
}

/// What [`sweep`] found: for each property the first entry (smallest row, then column) that
/// breaks it, `None` when none does.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Sweep {
    /// The bound: every entry `<= to` was built and checked.
    pub to: u64,
    /// Rows `n >= 1` with `A_0^n <= to`.
    pub rows: u64,
    /// Entries `<= to` in rows `n >= 1`, over all columns.
    pub entries: u64,
    /// Entries `<= to` per column.
    pub per_column: Vec<u64>,
    /// Theorem 1: an entry met a second time (the second place).
    pub duplicate: Option<Entry>,
    /// Theorem 1: the first integer in `1..=to` no entry equals.
    pub missing: Option<u64>,
    /// Theorem I (existence): an entry whose greedy representation is not admissible or does
    /// not add up to it.
    pub not_admissible: Option<Entry>,
    /// Theorem 1: an entry of column `j` whose representation does not end in exactly `j`
    /// zeros.
    pub wrong_column: Option<Entry>,
    /// Lemma 2: a row whose first entry (the mex) is not reduced.
    pub first_not_reduced: Option<Entry>,
    /// Lemma 1: `A_j^n != 2 A_{j-1}^n + A_{j-2}^n + ... + A_0^n + n`.
    pub lemma_1: Option<Entry>,
    /// Lemma 3: the first `m <= to` with `floor(m phi^2) + 1 != L(m)`.
    pub lemma_3: Option<u64>,
    /// Theorem 2 (i): `A_j^n != floor(A_{j-1}^n phi^2) + 1`.
    pub theorem_2_i_floor: Option<Entry>,
    /// Theorem 2 (i), Lemma 2: `A_j^n != L(A_{j-1}^n)`.
    pub theorem_2_i_shift: Option<Entry>,
    /// Theorem 2 (ii): `A_0^n != floor((n - 1) phi) + 1`.
    pub theorem_2_ii: Option<Entry>,
    /// Theorem 2 (iii): `A_j^{n+1} - A_j^n` not in `{f_2j, f_2j+1}`, or not the one column 0
    /// picks (the place in row `n + 1`).
    pub theorem_2_iii: Option<Entry>,
    /// Theorem 2 (iii): per column, how often the difference was `f_2j` and `f_2j+1`.
    pub differences: Vec<[u64; 2]>,
    /// Seconds.
    pub seconds: f64,
    /// Bytes of the bit set.
    pub bytes: usize,
}

fn first(slot: &mut Option<Entry>, e: Entry) {
    if slot.is_none_or(|s| (e.n, e.j) < (s.n, s.j)) {
        *slot = Some(e);
    }
}

/// Per-chunk findings of the parallel checks.
#[derive(Default)]
struct Found {
    not_admissible: Option<Entry>,
    wrong_column: Option<Entry>,
    first_not_reduced: Option<Entry>,
    lemma_1: Option<Entry>,
    lemma_3: Option<u64>,
    t2i_floor: Option<Entry>,
    t2i_shift: Option<Entry>,
    t2ii: Option<Entry>,
    t2iii: Option<Entry>,
    per_column: Vec<u64>,
    differences: Vec<[u64; 2]>,
}

impl Found {
    fn merge(mut self, o: Found) -> Found {
        for (a, b) in [
            (&mut self.not_admissible, o.not_admissible),
            (&mut self.wrong_column, o.wrong_column),
            (&mut self.first_not_reduced, o.first_not_reduced),
            (&mut self.lemma_1, o.lemma_1),
            (&mut self.t2i_floor, o.t2i_floor),
            (&mut self.t2i_shift, o.t2i_shift),
            (&mut self.t2ii, o.t2ii),
            (&mut self.t2iii, o.t2iii),
        ] {
            if let Some(e) = b {
                first(a, e);
            }
        }
        self.lemma_3 = match (self.lemma_3, o.lemma_3) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        add_counts(&mut self.per_column, &o.per_column);
        if self.differences.len() < o.differences.len() {
            self.differences.resize(o.differences.len(), [0, 0]);
        }
        for (a, b) in self.differences.iter_mut().zip(&o.differences) {
            a[0] += b[0];
            a[1] += b[1];
        }
        self
    }
}

fn add_counts(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The entries `<= to` of row `n >= 1` with first entry `a0`, by (2), into `out`.
#[inline]
pub(crate) fn entries_up_to(n: u64, a0: u64, to: u64, out: &mut Vec<u64>) {
    out.clear();
    let (mut a, mut b) = (u128::from(a0), 2 * u128::from(a0) + u128::from(n));
    while a <= u128::from(to) {
        out.push(a as u64);
        (a, b) = (b, 3 * b - a);
    }
}

/// Checks rows `n0, n0 + 1, ...` (first entries `firsts`, `prev` the first entry of row
/// `n0 - 1`) entry by entry.
fn check_rows(n0: u64, prev: u64, firsts: &[u64], to: u64) -> Found {
    let mut f = Found::default();
    let mut cur = Vec::new();
    let mut before = Vec::new();
    let mut d = [0u8; MAX_DIGITS];
    if n0 > 1 {
        entries_up_to(n0 - 1, prev, to, &mut before);
    }
    for (i, &a0) in firsts.iter().enumerate() {
        let n = n0 + i as u64;
        entries_up_to(n, a0, to, &mut cur);
        if f.per_column.len() < cur.len() {
            f.per_column.resize(cur.len(), 0);
            f.differences.resize(cur.len(), [0, 0]);
        }
        // Theorem 2 (ii).
        if a0 != floor_phi(n - 1) + 1 {
            first(&mut f.t2ii, Entry { n, j: 0, value: a0 });
        }
        let mut prev_shift = 0u64;
        let mut prev_floor = 0u64;
        let mut sum_before = 0u64; // A_0 + ... + A_{j-2}
        let mut kind0 = None;
        for (j, &v) in cur.iter().enumerate() {
            f.per_column[j] += 1;
            let e = Entry { n, j, value: v };
            let len = greedy_into(v, &mut d);
            let digits = &d[..len];
            let total: u128 = digits.iter().zip(&BASIS).map(|(&x, &u)| u128::from(x) * u128::from(u)).sum();
            if !is_admissible(digits) || total != u128::from(v) {
                first(&mut f.not_admissible, e);
            }
            let tz = digits.iter().take_while(|&&x| x == 0).count();
            if tz != j {
                first(&mut f.wrong_column, e);
            }
            if j == 0 && tz != 0 {
                first(&mut f.first_not_reduced, e);
            }
            let shift: u64 = digits.iter().enumerate().map(|(i, &x)| u64::from(x) * BASIS[i + 1]).sum();
            let fl = floor_phi2(v) + 1;
            if shift != fl {
                f.lemma_3 = Some(f.lemma_3.map_or(v, |m| m.min(v)));
            }
            if j >= 1 {
                if v != prev_floor {
                    first(&mut f.t2i_floor, e);
                }
                if v != prev_shift {
                    first(&mut f.t2i_shift, e);
                }
                if j >= 2 {
                    sum_before += cur[j - 2];
                }
                let want = 2 * cur[j - 1] + sum_before + n;
                if v != want {
                    first(&mut f.lemma_1, e);
                }
            }
            prev_shift = shift;
            prev_floor = fl;
            // Theorem 2 (iii), between rows n - 1 and n (row 0 is all zeros).
            let below = if n == 1 { Some(0) } else { before.get(j).copied() };
            if let Some(b) = below {
                let diff = v - b;
                let kind = if diff == fib_f(2 * j) {
                    Some(0)
                } else if diff == fib_f(2 * j + 1) {
                    Some(1)
                } else {
                    None
                };
                match kind {
                    Some(k) => {
                        f.differences[j][k] += 1;
                        if j == 0 {
                            kind0 = Some(k);
                        }
                        if kind0 != Some(k) {
                            first(&mut f.t2iii, e);
                        }
                    }
                    None => first(&mut f.t2iii, e),
                }
            }
        }
        std::mem::swap(&mut cur, &mut before);
    }
    f
}

/// Builds every entry `<= to` of the array by definition (1), (2) and checks each (see
/// [`Sweep`]). Memory: one bit per integer `0..=to`. `progress` is called with the current
/// first entry now and then.
///
/// The construction is sequential (each mex needs every earlier row): rows are made in chunks,
/// their entries marked in the bit set (a bit met twice is a duplicate), and each chunk's rows
/// are then checked in parallel.
pub fn sweep(to: u64, progress: &(dyn Fn(u64) + Sync)) -> Sweep {
    struct Call<'a>(&'a (dyn Fn(u64) + Sync));
    impl crate::engine::Progress for Call<'_> {
        fn set_position(&self, pos: u64) {
            (self.0)(pos)
        }
    }
    let call = Call(progress);
    sweep_watched(to, &Watch::reporting(&call)).expect("an unwatched run is never cancelled")
}

/// [`sweep`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled; its progress is the current first entry, out of `to`.
pub fn sweep_watched(to: u64, watch: &Watch<'_>) -> crate::error::Result<Sweep> {
    let start = std::time::Instant::now();
    let len = usize::try_from(to).expect("the bound fits in memory") + 1;
    let mut bits = BitSet::new(len);
    bits.set(0); // row 0
    let mut s = Sweep { to, ..Sweep::default() };
    let mut found = Found::default();
    let mut next = 1u64; // the smallest integer not yet met
    let mut n = 1u64;
    let mut prev_a0 = 0u64;
    const CHUNK: usize = 1 << 18;
    let mut firsts = Vec::with_capacity(CHUNK);
    let mut row_entries = Vec::new();
    loop {
        firsts.clear();
        let n0 = n;
        while firsts.len() < CHUNK {
            while (next as usize) < len && bits.get(next as usize) {
                next += 1;
            }
            if next > to {
                break;
            }
            let a0 = next;
            entries_up_to(n, a0, to, &mut row_entries);
            for (j, &v) in row_entries.iter().enumerate() {
                if bits.get(v as usize) {
                    first(&mut s.duplicate, Entry { n, j, value: v });
                } else {
                    bits.set(v as usize);
                }
            }
            firsts.push(a0);
            n += 1;
        }
        if firsts.is_empty() {
            break;
        }
        watch.check()?;
        watch.progress().set_position(*firsts.last().expect("a row"));
        let sub = 4096;
        let chunk_found = firsts
            .par_chunks(sub)
            .enumerate()
            .map(|(c, rows)| {
                let start_n = n0 + (c * sub) as u64;
                let prev = if c == 0 { prev_a0 } else { firsts[c * sub - 1] };
                check_rows(start_n, prev, rows, to)
            })
            .reduce(Found::default, Found::merge);
        found = found.merge(chunk_found);
        prev_a0 = *firsts.last().expect("a row");
    }
    s.rows = n - 1;
    s.missing = (1..len).find(|&v| !bits.get(v)).map(|v| v as u64);
    s.entries = found.per_column.iter().sum();
    s.per_column = found.per_column;
    s.not_admissible = found.not_admissible;
    s.wrong_column = found.wrong_column;
    s.first_not_reduced = found.first_not_reduced;
    s.lemma_1 = found.lemma_1;
    s.lemma_3 = found.lemma_3;
    s.theorem_2_i_floor = found.t2i_floor;
    s.theorem_2_i_shift = found.t2i_shift;
    s.theorem_2_ii = found.t2ii;
    s.theorem_2_iii = found.t2iii;
    s.differences = found.differences;
    s.bytes = bits.bytes();
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

#[cfg(test)]
/// The Beatty pair of the proof of Theorem 2 (ii) (Fraenkel 1969, Theorem II): whether
/// `S = {floor(n phi) + 1}` and `T = {floor(n phi^2) + 1}` (`n >= 1`) split `2..=to` (every
/// integer in exactly one); the first integer that breaks it.
pub(crate) fn beatty_split(to: u64) -> Option<u64> {
    beatty_split_watched(to, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// `beatty_split`, stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted)
/// when `watch` is cancelled.
pub fn beatty_split_watched(to: u64, watch: &Watch<'_>) -> crate::error::Result<Option<u64>> {
    let (mut n, mut m) = (1u64, 1u64);
    let (mut s, mut t) = (floor_phi(1) + 1, floor_phi2(1) + 1);
    for v in 2..=to {
        if v.is_multiple_of(1 << 20) {
            watch.check()?;
        }
        let in_s = s == v;
        let in_t = t == v;
        if in_s == in_t {
            return Ok(Some(v));
        }
        if in_s {
            n += 1;
            s = floor_phi(n) + 1;
        } else {
            m += 1;
            t = floor_phi2(m) + 1;
        }
    }
    Ok(None)
}

/// Draws the integers `1..=side^2` (`side = floor(sqrt(A_0^{N-1}))`, `firsts` the first entries
/// `A_0^0 .. A_0^{N-1}`) in a `side x side` grid, left to right and bottom to top, each
/// coloured by the column of the array that holds it (Theorem 1: the number of trailing zeros
/// of its representation over `U`).
pub fn picture(firsts: &[u64], out: crate::output::atomic::AtomicOutput) -> crate::error::Result<()> {
    use super::plot::{Panel, heatmap, viridis};
    let last = *firsts.last().unwrap_or(&1);
    let side = (crate::model::wythoff::isqrt(u128::from(last)) as usize).max(1);
    let m = (side * side) as u64;
    let mut column = vec![u8::MAX; side * side];
    let mut entries = Vec::new();
    for (n, &a0) in firsts.iter().enumerate().skip(1) {
        if a0 > m {
            break;
        }
        entries_up_to(n as u64, a0, m, &mut entries);
        for (j, &v) in entries.iter().enumerate() {
            column[v as usize - 1] = j as u8;
        }
    }
    let top = column.iter().copied().filter(|&c| c != u8::MAX).max().unwrap_or(0).max(1);
    let panel = Panel {
        caption: format!("m = 1..{m}: m = 1 + x + {side} y"),
        width: side,
        height: side,
        axes: ("x".into(), "y".into()),
        cell: Box::new(move |x, y| match column[y * side + x] {
            u8::MAX => [255, 255, 255],
            0 => [20, 20, 20],
            j => viridis(f64::from(j - 1) / f64::from(top.max(2) - 1)),
        }),
    };
    heatmap(
        "Fraenkel's array A splits the positive integers: the column j holding each m",
        &format!("black: column 0 (reduced m); colour: column 1 (purple) to {top} (yellow)"),
        &[panel],
        720,
        out,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text's §1: u_0 = 1, u_1 = 3, then 8, 21, 55, 144, 377 (row 1 of Table 1).
    #[test]
    fn basis_is_row_one_of_table_1() {
        assert!((0..90).all(|i| fib_f(i) == crate::games::fib::weight(i + 1)));
        assert_eq!(&BASIS[..7], &TABLE_1[1]);
        assert_eq!(BASIS[45], 7_540_113_804_746_346_429);
    }

    #[test]
    fn greedy_agrees_with_every_admissible_string() {
        // Brute force: every admissible string of 8 digits, by value.
        let mut by_value = vec![Vec::new(); BASIS[8] as usize + 100];
        for s in admissible_strings(8) {
            let v = value(&s).unwrap() as usize;
            by_value[v].push(s);
        }
        assert_eq!(count_admissible(8), (BASIS[8] as u128, BASIS[8] as u128 - 1));
        for n in 1..BASIS[8] {
            let list = &by_value[n as usize];
            assert_eq!(list.len(), 1, "n = {n}: {list:?}");
            let mut want = list[0].clone();
            while want.last() == Some(&0) {
                want.pop();
            }
            assert_eq!(representation(n), want, "n = {n}");
        }
        assert!(by_value[BASIS[8] as usize..].iter().all(Vec::is_empty));
    }

    #[test]
    fn counts_match_the_enumeration() {
        for len in 0..=9 {
            let all = admissible_strings(len);
            let max = all.iter().map(|s| value(s).unwrap()).max().unwrap();
            assert_eq!(count_admissible(len), (all.len() as u128, max), "len = {len}");
        }
    }

    /// Table 2: "41 = 1211; and 42 = 2000 rather than 1212 ... Similarly, 55 = 10000, not 2112".
    #[test]
    fn text_examples_of_table_2() {
        assert_eq!(representation_string(41), "1211");
        assert_eq!(representation_string(42), "2000");
        assert_eq!(representation_string(55), "10000");
        assert!(!is_admissible(&[2, 1, 2, 1]) && !is_admissible(&[2, 1, 1, 2]));
        for (n, s) in TABLE_2 {
            assert_eq!(representation_string(n), s, "Table 2, n = {n}");
        }
    }

    #[test]
    fn floor_phi_is_exact() {
        for m in (0..200_000u64).chain([1_899_999_999, 1_900_000_000, 3_000_000_000, u32::MAX as u64 * 7]) {
            assert_eq!(floor_phi(m), crate::model::wythoff::pair(m).0, "m = {m}");
        }
    }

    /// Table 1, with the one printed entry that differs: A_6^9 is 3 * 1652 - 631 = 4325 by (2),
    /// printed 4225.
    #[test]
    fn array_against_table_1() {
        let a = array(11, 7).unwrap();
        for n in 0..11 {
            for j in 0..7 {
                if (n, j) == (9, 6) {
                    assert_eq!((TABLE_1[9][6], a[9][6]), (4225, 4325), "the misprint of Table 1");
                } else {
                    assert_eq!(a[n][j], TABLE_1[n][j], "A_{j}^{n}");
                }
            }
        }
    }

    /// The plain construction and the streamed sweep build the same first entries.
    #[test]
    fn sweep_agrees_with_the_plain_construction() {
        let a = array(700, 12).unwrap();
        let s = sweep(1000, &|_| {});
        assert_eq!(s.rows, a.iter().skip(1).filter(|r| r[0] <= 1000).count() as u64);
        let entries = a.iter().skip(1).flat_map(|r| r.iter().filter(|&&v| v <= 1000)).count() as u64;
        assert_eq!(s.entries, 1000);
        assert_eq!(entries, 1000);
        assert!(s.duplicate.is_none() && s.missing.is_none() && s.wrong_column.is_none());
        assert_eq!((s.lemma_1, s.lemma_3, s.theorem_2_iii), (None, None, None));
        assert!(s.theorem_2_i_floor.is_none() && s.theorem_2_i_shift.is_none() && s.theorem_2_ii.is_none());
        assert!(beatty_split(100_000).is_none());
    }

    /// The sweep's checks can fail: a wrong entry is caught.
    #[test]
    fn checks_catch_a_wrong_row() {
        // Row 3 given first entry 3 (not the mex 4): 3 is row 1's A_1.
        let f = check_rows(3, 2, &[3], 100);
        assert_eq!(f.t2ii.map(|e| e.n), Some(3));
        assert_eq!(f.first_not_reduced.map(|e| e.value), Some(3));
        assert_eq!(f.wrong_column.map(|e| (e.n, e.j)), Some((3, 0)));
    }
}
