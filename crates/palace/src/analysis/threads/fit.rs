//! The numbers measured on a traced thread's tail: its period, its slope by least squares,
//! the slope's continued fraction and the nearest root of a small integer quadratic
//! (`docs/threads.md`, "Measurements").

use super::trace::Section;
use crate::engine::Cancel;
use crate::error::Result;
use serde::Serialize;

/// Whether `n` is a Fibonacci number (1, 2, 3, 5, 8, ...).
pub(crate) fn is_fibonacci(n: u64) -> bool {
    let (mut a, mut b) = (1u64, 2u64);
    if n == 1 {
        return true;
    }
    while b < n {
        (a, b) = (b, a + b);
    }
    b == n
}

/// A period of a run of sections: every section `p` lines on is the same set of cells moved
/// `shift` cells along the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    /// Lines per period.
    pub p: u32,
    /// Cells moved along the line per period.
    pub shift: i64,
}

/// The smallest period `p <= max_p` of `tail` (consecutive lines) that holds over the whole
/// tail and that the tail shows at least `repeats` times (`p * repeats <= tail.len()`).
pub fn period(tail: &[Section], max_p: usize, repeats: usize) -> Option<Period> {
    let n = tail.len();
    debug_assert!(tail.windows(2).all(|w| w[1].y == w[0].y + 1), "consecutive lines");
    (1..=max_p.min(n / repeats.max(1))).find_map(|p| {
        let shift = i64::from(tail[p].first) - i64::from(tail[0].first);
        tail.iter()
            .zip(&tail[p..])
            .all(|(a, b)| {
                a.count == b.count && a.shape == b.shape && i64::from(b.first) - i64::from(a.first) == shift
            })
            .then_some(Period { p: p as u32, shift })
    })
}

/// The best period of a run that may have defects: the `p <= max_p` (shown at least `repeats`
/// times) and the shift (one of the two whole numbers nearest `per_line * p`) for which the
/// most lines `i` have line `i + p` equal to line `i` moved by the shift.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NearPeriod {
    /// The period.
    pub period: Period,
    /// Lines `i` (with `i + p` in the run) that match, and all such lines.
    pub matches: (usize, usize),
}

impl NearPeriod {
    /// The share of lines that match.
    pub fn share(&self) -> f64 {
        self.matches.0 as f64 / self.matches.1.max(1) as f64
    }
}

/// The [`NearPeriod`] of `tail` given its cells per line `per_line` (from [`fit_line`]); ties
/// go to the smaller period.
///
/// Every period is tried on every pair of lines `p` apart, so the pairs are compared as two
/// arrays of 32-bit numbers that the compiler vectorises: each line's set of cells as a number
/// (equal numbers for equal counts and shapes) and its first cell. Differences of first cells
/// below `2^31` are exact in 32 bits, so a shift is compared there when it fits in 32 bits and
/// counts no match when it does not; a tail with a first cell at `2^31` or beyond is measured
/// by [`near_period_plain`].
pub fn near_period(tail: &[Section], per_line: f64, max_p: usize, repeats: usize) -> Option<NearPeriod> {
    let n = tail.len();
    if tail.iter().any(|s| s.first > i32::MAX as u32) {
        return near_period_plain(tail, per_line, max_p, repeats);
    }
    let mut sets: Vec<(u32, u64)> = tail.iter().map(|s| (s.count, s.shape)).collect();
    sets.sort_unstable();
    sets.dedup();
    let set: Vec<u32> = tail
        .iter()
        .map(|s| sets.binary_search(&(s.count, s.shape)).expect("a set of the tail") as u32)
        .collect();
    let first: Vec<u32> = tail.iter().map(|s| s.first).collect();
    let mut best: Option<NearPeriod> = None;
    for p in 1..=max_p.min(n / repeats.max(1)) {
        let guess = per_line * p as f64;
        let shifts = [guess.floor() as i64, guess.ceil() as i64];
        // A shift outside 32 bits matches no difference of two first cells below 2^31.
        let want = shifts.map(|s| i32::try_from(s).ok().map(|s| s as u32));
        let matches = pairs_matching(&set[..n - p], &set[p..], &first[..n - p], &first[p..], want);
        for (shift, m) in shifts.into_iter().zip(matches) {
            if best.is_none_or(|b| m * b.matches.1 > b.matches.0 * (n - p)) {
                best = Some(NearPeriod { period: Period { p: p as u32, shift }, matches: (m, n - p) });
            }
        }
    }
    best
}

/// For each of the two shifts in `want` (`None`: one that matches nothing), the pairs `i` with
/// `set_a[i] == set_b[i]` and `first_b[i] - first_a[i]` equal to it in 32 bits.
fn pairs_matching(
    set_a: &[u32],
    set_b: &[u32],
    first_a: &[u32],
    first_b: &[u32],
    want: [Option<u32>; 2],
) -> [usize; 2] {
    // A shift that matches nothing is counted as 0, and its count dropped below.
    let (s0, s1) = (want[0].unwrap_or(0), want[1].unwrap_or(0));
    let mut m = [0usize; 2];
    // 32-bit counters a chunk at a time, so that the loop stays in 32-bit lanes.
    const CHUNK: usize = 1 << 16;
    let chunks =
        set_a.chunks(CHUNK).zip(set_b.chunks(CHUNK)).zip(first_a.chunks(CHUNK).zip(first_b.chunks(CHUNK)));
    for ((sa, sb), (fa, fb)) in chunks {
        let (mut c0, mut c1) = (0u32, 0u32);
        for (((&sa, &sb), &fa), &fb) in sa.iter().zip(sb).zip(fa).zip(fb) {
            let same = sa == sb;
            let d = fb.wrapping_sub(fa);
            c0 += u32::from(same & (d == s0));
            c1 += u32::from(same & (d == s1));
        }
        m[0] += c0 as usize;
        m[1] += c1 as usize;
    }
    for (m, w) in m.iter_mut().zip(&want) {
        if w.is_none() {
            *m = 0;
        }
    }
    m
}

/// [`near_period`] section by section: the definition, which the fast search is tested
/// against and which measures tails beyond its 32 bits.
pub fn near_period_plain(
    tail: &[Section],
    per_line: f64,
    max_p: usize,
    repeats: usize,
) -> Option<NearPeriod> {
    let n = tail.len();
    let mut best: Option<NearPeriod> = None;
    for p in 1..=max_p.min(n / repeats.max(1)) {
        let guess = per_line * p as f64;
        let shifts = [guess.floor() as i64, guess.ceil() as i64];
        // Both shifts counted in one pass over the pairs.
        let mut matches = [0usize; 2];
        for (a, b) in tail.iter().zip(&tail[p..]) {
            if a.count == b.count && a.shape == b.shape {
                let d = i64::from(b.first) - i64::from(a.first);
                matches[0] += usize::from(d == shifts[0]);
                matches[1] += usize::from(d == shifts[1]);
            }
        }
        for (shift, m) in shifts.into_iter().zip(matches) {
            if best.is_none_or(|b| m * b.matches.1 > b.matches.0 * (n - p)) {
                best = Some(NearPeriod { period: Period { p: p as u32, shift }, matches: (m, n - p) });
            }
        }
    }
    best
}

/// A least-squares line `x = a + c y` through the centres of the sections.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LineFit {
    /// Cells along the line per line (`c`).
    pub per_line: f64,
    /// Its standard error.
    pub stderr: f64,
    /// Sections fitted.
    pub points: usize,
}

/// Fits `x = a + c y` to the sections' centres `(first + last) / 2`; `None` for fewer than 3.
pub fn fit_line(tail: &[Section]) -> Option<LineFit> {
    let pts = tail.iter().map(|s| (f64::from(s.y), (f64::from(s.first) + f64::from(s.last)) / 2.0));
    fit_points(pts).map(|(f, _)| f)
}

/// Fits `x = a + c y` to the points `(y, x)` by least squares: the fit and the line's value
/// `a` at `y = 0`; `None` for fewer than 3 points or points all on one line `y`.
pub(crate) fn fit_points(points: impl Iterator<Item = (f64, f64)> + Clone) -> Option<(LineFit, f64)> {
    let mut pts = points.clone();
    let (y0, x0) = pts.next()?;
    let n = points.clone().count();
    if n < 3 {
        return None;
    }
    let nf = n as f64;
    // Centred on the first point, so that large coordinates lose no precision.
    let pts = || points.clone().map(|(y, x)| (y - y0, x - x0));
    let (my, mx) = pts().fold((0.0, 0.0), |(a, b), (y, x)| (a + y / nf, b + x / nf));
    let (syy, sxy) =
        pts().fold((0.0, 0.0), |(a, b), (y, x)| (a + (y - my) * (y - my), b + (y - my) * (x - mx)));
    if syy == 0.0 {
        return None;
    }
    let c = sxy / syy;
    let a = mx - c * my;
    let rss: f64 = pts().map(|(y, x)| (x - a - c * y).powi(2)).sum();
    let stderr = (rss / (nf - 2.0) / syy).sqrt();
    Some((LineFit { per_line: c, stderr, points: n }, a + x0 - c * y0))
}

/// The continued fraction `[a0; a1, a2, ...]` of `x`, its terms taken while the convergent
/// still differs from `x` by more than `tol` (at most `max_terms`).
pub fn continued_fraction(x: f64, tol: f64, max_terms: usize) -> Vec<i64> {
    let mut terms = Vec::new();
    let mut r = x;
    // Convergents h/k.
    let (mut h0, mut h1, mut k0, mut k1) = (1.0f64, 0.0f64, 0.0f64, 1.0f64);
    while terms.len() < max_terms {
        let a = r.floor();
        terms.push(a as i64);
        let (h, k) = (a * h0 + h1, a * k0 + k1);
        (h1, h0, k1, k0) = (h0, h, k0, k);
        if (h / k - x).abs() <= tol || r - a == 0.0 {
            break;
        }
        r = 1.0 / (r - a);
    }
    terms
}

/// The continued fraction of the rational `num / den` (exact).
pub(crate) fn continued_fraction_exact(mut num: i64, mut den: i64) -> Vec<i64> {
    assert!(den != 0);
    if den < 0 {
        (num, den) = (-num, -den);
    }
    let mut terms = Vec::new();
    while den != 0 {
        let a = num.div_euclid(den);
        terms.push(a);
        (num, den) = (den, num - a * den);
    }
    terms
}

/// A root of `a t^2 + b t + c` with integer coefficients whose discriminant is not a square
/// (a quadratic irrational).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct QuadraticFit {
    /// `a` (positive).
    pub a: i64,
    /// `b`.
    pub b: i64,
    /// `c`.
    pub c: i64,
    /// The root nearest the value.
    pub root: f64,
    /// `root - value`.
    pub residual: f64,
    /// How many such roots (of polynomials within the bound, counted once each) lie within
    /// `tol` of the value: how much one fit means.
    pub within_tol: usize,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn is_square(n: i64) -> bool {
    n >= 0 && {
        let r = (n as f64).sqrt().round() as i64;
        (r - 1..=r + 1).any(|s| s >= 0 && s * s == n)
    }
}

/// The root nearest `value` among the irrational roots of `a t^2 + b t + c` with
/// `1 <= a <= bound`, `|b|, |c| <= bound`, coefficients without a common factor; and how many
/// distinct such roots lie within `tol` of `value`.
pub fn nearest_quadratic(value: f64, bound: i64, tol: f64) -> Option<QuadraticFit> {
    nearest_quadratic_until(value, bound, tol, &Cancel::new()).expect("a fresh token is never cancelled")
}

/// [`nearest_quadratic`], stopped with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled
/// (polled for each leading coefficient). The polynomials and their roots do not depend on
/// `value`: they are listed once per bound (and kept for the next call) and each
/// search runs down the list, in the order and with the arithmetic of
/// [`nearest_quadratic_plain`], so it finds the same fit.
pub(crate) fn nearest_quadratic_until(
    value: f64,
    bound: i64,
    tol: f64,
    cancel: &Cancel,
) -> Result<Option<QuadraticFit>> {
    let list = Quadratics::of(bound, cancel)?;
    let mut best: Option<(usize, usize, f64)> = None;
    let mut near = Distinct::default();
    for w in list.starts.windows(2) {
        cancel.check()?;
        for (i, roots) in list.roots[w[0]..w[1]].iter().enumerate() {
            for (j, &root) in roots.iter().enumerate() {
                let residual = root - value;
                if residual.abs() <= tol {
                    near.add(root);
                }
                if best.is_none_or(|(_, _, r)| residual.abs() < r.abs()) {
                    best = Some((w[0] + i, j, residual));
                }
            }
        }
    }
    Ok(best.map(|(i, j, residual)| {
        let (a, b, c) = list.polys[i];
        QuadraticFit {
            a: i64::from(a),
            b: i64::from(b),
            c: i64::from(c),
            root: list.roots[i][j],
            residual,
            within_tol: near.0.len(),
        }
    }))
}

/// Roots counted once each: a root is added unless one added before lies within `1e-12` of it
/// (`|r - root| < 1e-12` in floating point, as [`nearest_quadratic_plain`] tests it against
/// every root before). The roots are kept in order, so only those within `2e-12`, a window
/// that holds every root the test can accept, are tested: a wide tolerance accepts tens of
/// thousands of roots, and testing each against all before took seconds.
#[derive(Default)]
struct Distinct(std::collections::BTreeMap<u64, f64>);

impl Distinct {
    fn add(&mut self, root: f64) {
        let window = order_key(root - 2e-12)..=order_key(root + 2e-12);
        if !self.0.range(window).any(|(_, &r)| (r - root).abs() < 1e-12) {
            self.0.insert(order_key(root), root);
        }
    }
}

/// A key whose order is `f64::total_cmp`'s.
fn order_key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

/// The polynomials [`nearest_quadratic`] searches for one bound, in its order: every
/// `a t^2 + b t + c` with `1 <= a <= bound`, `|b|, |c| <= bound`, coefficients without a common
/// factor and a discriminant that is positive and not a square, with its two roots (`+` first).
struct Quadratics {
    bound: i64,
    polys: Vec<(i32, i32, i32)>,
    roots: Vec<[f64; 2]>,
    /// Where the polynomials of each leading coefficient begin, and the end.
    starts: Vec<usize>,
}

impl Quadratics {
    /// The list for `bound`: the one kept from the last call if it has that bound, else made
    /// now (polling `cancel` for each leading coefficient) and kept. Searches on many threads
    /// wait for the one that makes it.
    fn of(bound: i64, cancel: &Cancel) -> Result<std::sync::Arc<Quadratics>> {
        static KEPT: std::sync::Mutex<Option<std::sync::Arc<Quadratics>>> = std::sync::Mutex::new(None);
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = kept.as_ref().filter(|q| q.bound == bound) {
            return Ok(q.clone());
        }
        let coefficient = |v: i64| i32::try_from(v).expect("a bound of the quadratic search within 32 bits");
        let mut q = Quadratics { bound, polys: Vec::new(), roots: Vec::new(), starts: vec![0] };
        for a in 1..=bound {
            cancel.check()?;
            for b in -bound..=bound {
                for c in -bound..=bound {
                    if let Some(roots) = irrational_roots(a, b, c) {
                        q.polys.push((coefficient(a), coefficient(b), coefficient(c)));
                        q.roots.push(roots);
                    }
                }
            }
            q.starts.push(q.polys.len());
        }
        let q = std::sync::Arc::new(q);
        *kept = Some(q.clone());
        Ok(q)
    }
}

/// The two roots (`+` first) of `a t^2 + b t + c` if they are irrational and the coefficients
/// have no common factor: the polynomials the quadratic search runs through.
fn irrational_roots(a: i64, b: i64, c: i64) -> Option<[f64; 2]> {
    let disc = b * b - 4 * a * c;
    if disc <= 0 || is_square(disc) || gcd(gcd(a, b), c) != 1 {
        return None;
    }
    let s = (disc as f64).sqrt();
    Some([(-(b as f64) + s) / (2.0 * a as f64), (-(b as f64) - s) / (2.0 * a as f64)])
}

/// [`nearest_quadratic`] polynomial by polynomial: the definition, which the search over the
/// kept list is tested against.
pub fn nearest_quadratic_plain(value: f64, bound: i64, tol: f64) -> Option<QuadraticFit> {
    let mut best: Option<QuadraticFit> = None;
    let mut near: Vec<f64> = Vec::new();
    for a in 1..=bound {
        for b in -bound..=bound {
            for c in -bound..=bound {
                let Some(roots) = irrational_roots(a, b, c) else { continue };
                for root in roots {
                    let residual = root - value;
                    if residual.abs() <= tol && !near.iter().any(|&r| (r - root).abs() < 1e-12) {
                        near.push(root);
                    }
                    if best.is_none_or(|f| residual.abs() < f.residual.abs()) {
                        best = Some(QuadraticFit { a, b, c, root, residual, within_tol: 0 });
                    }
                }
            }
        }
    }
    best.map(|f| QuadraticFit { within_tol: near.len(), ..f })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sec(y: u32, first: u32, count: u32, shape: u64) -> Section {
        Section { y, first, last: first + 2 * count, count, shape, clear: true }
    }

    #[test]
    fn fibonacci_numbers() {
        let fib: Vec<u64> = (1..=100).filter(|&n| is_fibonacci(n)).collect();
        assert_eq!(fib, [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]);
    }

    /// A run moving 5 cells every 2 lines, alternating two shapes: period 2, shift 5; one
    /// section changed breaks every period.
    #[test]
    fn periods_of_built_runs() {
        let run: Vec<Section> =
            (0..40).map(|i| sec(100 + i, 7 + 5 * (i / 2) + (i % 2), 3, u64::from(i % 2))).collect();
        assert_eq!(period(&run, 10, 3), Some(Period { p: 2, shift: 5 }));
        let mut broken = run.clone();
        broken[33].shape = 9;
        assert_eq!(period(&broken, 10, 3), None);
        // Too short to show period 2 three times.
        assert_eq!(period(&run[..5], 10, 3), None);
    }

    /// The same run with two defects: no exact period, period 2 up to the defects.
    #[test]
    fn near_period_survives_defects() {
        let mut run: Vec<Section> =
            (0..40).map(|i| sec(100 + i, 7 + 5 * (i / 2) + (i % 2), 3, u64::from(i % 2))).collect();
        run[10].count = 2;
        run[25].shape = 7;
        assert_eq!(period(&run, 10, 3), None);
        let f = fit_line(&run).unwrap();
        let near = near_period(&run, f.per_line, 10, 3).unwrap();
        assert_eq!(near.period, Period { p: 2, shift: 5 });
        // Each defect spoils the pairs (i, i + 2) on both sides of it.
        assert_eq!(near.matches, (38 - 4, 38));
    }

    /// The search counts both shifts of each period in one pass: the same result as counting
    /// each shift on its own, over random runs with few shapes and steps (many ties).
    #[test]
    fn near_period_equals_one_pass_per_shift() {
        let plain = |tail: &[Section], per_line: f64, max_p: usize| {
            let n = tail.len();
            let mut best: Option<NearPeriod> = None;
            for p in 1..=max_p.min(n / 3) {
                let guess = per_line * p as f64;
                for shift in [guess.floor() as i64, guess.ceil() as i64] {
                    let m = tail
                        .iter()
                        .zip(&tail[p..])
                        .filter(|(a, b)| {
                            a.count == b.count
                                && a.shape == b.shape
                                && i64::from(b.first) - i64::from(a.first) == shift
                        })
                        .count();
                    if best.is_none_or(|b| m * b.matches.1 > b.matches.0 * (n - p)) {
                        best =
                            Some(NearPeriod { period: Period { p: p as u32, shift }, matches: (m, n - p) });
                    }
                }
            }
            best
        };
        let mut state = 7u64;
        let mut rng = || crate::testing::splitmix64(&mut state);
        for case in 0..200 {
            let n = 3 + (rng() % 120) as u32;
            let mut x = 0u32;
            let run: Vec<Section> = (0..n)
                .map(|i| {
                    x += 1 + (rng() % 3) as u32;
                    sec(i, x, 1 + (rng() % 2) as u32, rng() % 2)
                })
                .collect();
            let per_line = fit_line(&run).map_or(2.0, |f| f.per_line);
            let max_p = 1 + (rng() % 40) as usize;
            assert_eq!(near_period(&run, per_line, max_p, 3), plain(&run, per_line, max_p), "case {case}");
        }
    }

    /// The search over 32-bit arrays against the definition: runs with few sets and steps
    /// (many ties), long ones, first cells near `2^31` and beyond (the plain search's), and
    /// slopes whose shifts leave 32 bits.
    #[test]
    fn near_period_equals_the_plain_search() {
        let mut state = 11u64;
        let mut rng = || crate::testing::splitmix64(&mut state);
        for case in 0..300 {
            let n = 3 + (rng() % if case % 10 == 0 { 3000 } else { 200 }) as u32;
            let mut x = match case % 4 {
                0 => 0u32,
                1 => i32::MAX as u32 - 2000,
                2 => u32::MAX - 40_000,
                _ => (rng() % 1_000_000) as u32,
            };
            let step = 1 + (rng() % 4) as u32;
            let run: Vec<Section> = (0..n)
                .map(|i| {
                    x = x.saturating_add(1 + (rng() % u64::from(step)) as u32);
                    sec(i, x, 1 + (rng() % 2) as u32, rng() % 3)
                })
                .collect();
            let per_line = match case % 7 {
                0 => 1e12,
                1 => -3e11,
                _ => fit_line(&run).map_or(2.0, |f| f.per_line),
            };
            let max_p = 1 + (rng() % 60) as usize;
            assert_eq!(
                near_period(&run, per_line, max_p, 3),
                near_period_plain(&run, per_line, max_p, 3),
                "case {case}"
            );
        }
    }

    /// The search down the kept list finds what the definition finds, for values near
    /// quadratic irrationals, rationals and others, tolerances wide and narrow, and bounds
    /// asked in turn (so the kept list is replaced).
    #[test]
    fn nearest_quadratic_equals_the_plain_search() {
        let mut state = 5u64;
        let mut rng = || crate::testing::splitmix64(&mut state);
        for case in 0..40 {
            let bound = [4, 9, 13][case % 3];
            let value = match case % 4 {
                0 => (3.0 - 5f64.sqrt()) / 2.0 + 1e-10,
                1 => 0.375,
                _ => (rng() % 20_000) as f64 / 1000.0 - 10.0,
            };
            let tol = [1e-9, 1e-3, 0.05, 0.5][case % 4];
            assert_eq!(
                nearest_quadratic(value, bound, tol),
                nearest_quadratic_plain(value, bound, tol),
                "case {case}"
            );
        }
    }

    #[test]
    fn line_fit_of_a_straight_run() {
        let run: Vec<Section> = (0..50).map(|i| sec(i, 3 * i, 1, 0)).collect();
        let f = fit_line(&run).unwrap();
        assert!((f.per_line - 3.0).abs() < 1e-12 && f.stderr < 1e-9, "{f:?}");
    }

    #[test]
    fn continued_fractions() {
        assert_eq!(continued_fraction_exact(13, 34), [0, 2, 1, 1, 1, 1, 2]);
        assert_eq!(continued_fraction_exact(-7, 3), [-3, 1, 2]);
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let cf = continued_fraction(phi, 1e-9, 60);
        assert!(cf.len() > 15 && cf[..cf.len() - 1].iter().all(|&a| a == 1), "{cf:?}");
        // 3/8 = [0; 2, 1, 2] = [0; 2, 1, 1, 1]: rounding may give either form.
        let cf = continued_fraction(0.375, 1e-12, 60);
        let value =
            cf.iter().rev().fold(None, |acc: Option<f64>, &a| Some(a as f64 + acc.map_or(0.0, |r| 1.0 / r)));
        assert!((value.unwrap() - 0.375).abs() < 1e-12, "{cf:?}");
    }

    /// 1/phi^2 = (3 - sqrt 5)/2 is a root of t^2 - 3t + 1; sqrt 2 of t^2 - 2.
    #[test]
    fn quadratic_roots_found() {
        let v = (3.0 - 5f64.sqrt()) / 2.0;
        let f = nearest_quadratic(v + 1e-9, 5, 1e-6).unwrap();
        assert_eq!((f.a, f.b, f.c), (1, -3, 1));
        assert!(f.within_tol >= 1);
        let f = nearest_quadratic(2f64.sqrt(), 3, 1e-9).unwrap();
        assert_eq!((f.a, f.b, f.c), (1, 0, -2));
    }
}
