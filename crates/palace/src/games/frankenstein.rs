//! The game *Frankenstein* (A. S. Fraenkel, *Arrays, Numeration Systems and Frankenstein
//! Games*, §1 and §3), solved by exhaustive search.
//!
//! Coins lie on squares `1, 2, ...` of a strip, at most one a square; square 0 is a hole. A
//! position is the set of occupied squares; a single coin (a *spinster*) is never a position.
//! From `X = (x_0 < ... < x_{k-1})`, `k >= 2`, the moves are (§1, `docs/games.md` gives the
//! readings in full):
//!
//! * **Type I.** (a) shift between 1 and `k - 1` coins left, each to an unoccupied lower square
//!   or into the hole, at least one of them onto a positive square; (b) move one coin on square
//!   `m` into the hole and place new coins on unoccupied squares `j_1, ..., j_l` with
//!   `0 < j_1 + ... + j_l < m`; a move is (a), (b) or both, and at least one coin stays where it
//!   is (the proof of Theorem 3 (A) and example (vii) need this of the combined move).
//! * **Type II.** Shift every coin, coin `x_i` by `n_i`, `0 < n_0 <= ... <= n_{k-1}`, all onto
//!   positive squares or all into the hole, with (4): `n_{k-1} <= 2 n_{k-2} + n_{k-3} + ... +
//!   n_0`. [`TypeTwo::Ordered`] also asks that the coins keep their order; [`TypeTwo::Literal`]
//!   lets them pass each other.
//!
//! Moves of several coins are sequential (§1): the shifted coins move right to left, each onto a
//! square unoccupied at that moment. So no square is vacated and refilled in one move: a type I
//! move leaves `Y = (X \ S) + E` with `S = X \ Y` the moved coins and `E = Y \ X` the new squares,
//! and a type II move lands on squares outside `X`. `is_move` and `is_move_mask` test a move
//! `X -> Y` by that description; `followers_literal` generates the followers by replaying the
//! rules coin by coin, the reference both are tested against on small strips.
//!
//! The solvers (`solve_squares`, `solve_sum`) are plain searches by (7) of §3: a position is
//! P exactly when no follower is P. Every move lowers the occupied squares' sum and, read as a
//! bit mask, the position, so positions are visited in either order and each is tested for a
//! move into every P-position already found. Theorem 3 is checked on their output
//! ([`crate::games::fraenkel_claims`]), never used by them.

use crate::error::Result;
use crate::games::watch::Watch;
use rayon::prelude::*;
use std::collections::BTreeSet;

/// The two readings of a type II move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TypeTwo {
    /// The coins keep their order: coin `x_i` lands on the `i`-th smallest new square.
    Ordered,
    /// Coin `x_i` is shifted by `n_i`; the coins may pass each other.
    Literal,
}

impl TypeTwo {
    /// The reading's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TypeTwo::Ordered => "ordered",
            TypeTwo::Literal => "literal",
        }
    }
}

/// Most squares the bit-mask solver handles (bit `i` is square `i`).
pub const MAX_SQUARES: u32 = 62;

/// Condition (4) for shifts `n_0 <= ... <= n_{k-1}` whose sum is `total`:
/// `n_{k-1} <= 2 n_{k-2} + (total - n_{k-1} - n_{k-2})`.
#[inline]
fn condition_4(last: u64, second_last: u64, total: u64) -> bool {
    2 * last <= second_last + total
}

/// Whether the shifts `x_i - y_i` are positive, non-decreasing and satisfy (4).
fn shifts_ok(x: &[u32], y: &[u32]) -> bool {
    let k = x.len();
    let mut prev = 0u64;
    let mut total = 0u64;
    for (&a, &b) in x.iter().zip(y) {
        if b >= a {
            return false;
        }
        let n = u64::from(a - b);
        if n < prev {
            return false;
        }
        prev = n;
        total += n;
    }
    condition_4(u64::from(x[k - 1] - y[k - 1]), u64::from(x[k - 2] - y[k - 2]), total)
}

/// Type II, literal reading: is there a bijection coin `x_i` -> new square with shifts
/// `n_0 <= ... <= n_{k-1}` satisfying (4)? Backtracking over the coins from the left.
fn literal_two(x: &[u32], y: &[u32]) -> bool {
    let k = x.len();
    let (sx, sy): (u64, u64) = (x.iter().map(|&v| u64::from(v)).sum(), y.iter().map(|&v| u64::from(v)).sum());
    if sy >= sx {
        return false;
    }
    let total = sx - sy;
    fn go(x: &[u32], y: &[u32], i: usize, used: &mut [bool], shifts: &mut [u64], total: u64) -> bool {
        let k = x.len();
        if i == k {
            return condition_4(shifts[k - 1], shifts[k - 2], total);
        }
        let lo = if i == 0 { 1 } else { shifts[i - 1] };
        for t in 0..k {
            if used[t] || y[t] >= x[i] {
                continue;
            }
            let n = u64::from(x[i] - y[t]);
            if n < lo {
                continue;
            }
            used[t] = true;
            shifts[i] = n;
            if go(x, y, i + 1, used, shifts, total) {
                return true;
            }
            used[t] = false;
        }
        false
    }
    let mut used = vec![false; k];
    let mut shifts = vec![0u64; k];
    go(x, y, 0, &mut used, &mut shifts, total)
}

/// Whether `e` (increasing) can be matched into `s` (increasing), each `e` to a larger `s`,
/// distinct: the `i`-th largest of `e` below the `i`-th largest of `s` (Hall's condition).
fn matches(e: &[u32], s: &[u32]) -> bool {
    e.len() <= s.len() && e.iter().rev().zip(s.iter().rev()).all(|(a, b)| a < b)
}

/// Whether some nonempty `C`, a proper subset of `e` with sum below `b` made of elements below
/// `b`, leaves `e \ C` matchable into `rest`.
fn split_off(e: &[u32], b: u32, rest: &[u32]) -> bool {
    fn go(e: &[u32], b: u32, rest: &[u32], i: usize, sum: u32, chosen: &mut Vec<bool>, any: bool) -> bool {
        if any && chosen.iter().any(|&c| !c) {
            let t: Vec<u32> = e.iter().zip(chosen.iter()).filter(|&(_, &c)| !c).map(|(&v, _)| v).collect();
            if matches(&t, rest) {
                return true;
            }
        }
        for j in i..e.len() {
            if sum + e[j] >= b {
                break;
            }
            chosen[j] = true;
            if go(e, b, rest, j + 1, sum + e[j], chosen, true) {
                return true;
            }
            chosen[j] = false;
        }
        false
    }
    let mut chosen = vec![false; e.len()];
    go(e, b, rest, 0, 0, &mut chosen, false)
}

/// Whether `X -> Y` is a type I move (`x` and `y` increasing).
fn type_one(x: &[u32], y: &[u32]) -> bool {
    let (mut s, mut e) = (Vec::new(), Vec::new());
    let mut fixed = 0usize;
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        match (x.get(i), y.get(j)) {
            (Some(a), Some(b)) if a == b => {
                fixed += 1;
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                s.push(*a);
                i += 1;
            }
            (Some(a), None) => {
                s.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                e.push(*b);
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    if fixed == 0 || s.is_empty() || e.is_empty() {
        return false;
    }
    // (a) alone: every new square filled by a larger moved coin, the others into the hole.
    if matches(&e, &s) {
        return true;
    }
    // (b) alone: the one moved coin pays for the new coins.
    if s.len() == 1 {
        return e.iter().map(|&v| u64::from(v)).sum::<u64>() < u64::from(s[0]);
    }
    // (a) and (b): coin b pays for part C of the new squares, the other moved coins fill the rest.
    (0..s.len()).any(|bi| {
        let rest: Vec<u32> = s.iter().enumerate().filter(|&(i, _)| i != bi).map(|(_, &v)| v).collect();
        split_off(&e, s[bi], &rest)
    })
}

/// Whether `X -> Y` is a move of Frankenstein (`x`, `y` increasing squares `>= 1`).
pub(crate) fn is_move(x: &[u32], y: &[u32], two: TypeTwo) -> bool {
    let k = x.len();
    if k < 2 || y.len() == 1 {
        return false;
    }
    if y.is_empty() {
        // Type II into the hole: n_i = x_i.
        let total: u64 = x.iter().map(|&v| u64::from(v)).sum();
        return condition_4(u64::from(x[k - 1]), u64::from(x[k - 2]), total);
    }
    if type_one(x, y) {
        return true;
    }
    // Type II keeping k: every coin lands on a square outside X.
    if y.len() != k || y.iter().any(|v| x.binary_search(v).is_ok()) {
        return false;
    }
    match two {
        TypeTwo::Ordered => shifts_ok(x, y),
        TypeTwo::Literal => literal_two(x, y),
    }
}

/// The squares of a mask, increasing.
pub fn squares_of(mut m: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(m.count_ones() as usize);
    while m != 0 {
        out.push(m.trailing_zeros());
        m &= m - 1;
    }
    out
}

/// The mask of squares.
pub fn mask_of(squares: &[u32]) -> u64 {
    squares.iter().fold(0, |m, &s| m | 1 << s)
}

#[inline]
fn top(m: u64) -> u32 {
    63 - m.leading_zeros()
}

/// [`matches`] on masks.
#[inline]
fn matches_mask(mut e: u64, mut s: u64) -> bool {
    if e.count_ones() > s.count_ones() {
        return false;
    }
    while e != 0 {
        let (a, b) = (top(e), top(s));
        if b <= a {
            return false;
        }
        e ^= 1 << a;
        s ^= 1 << b;
    }
    true
}

/// [`split_off`] on masks: `c` collects the paying coins' squares, ascending from `from`.
fn split_off_mask(e: u64, b: u32, rest: u64, c: u64, sum: u32, from: u32) -> bool {
    if c != 0 && c != e && matches_mask(e & !c, rest) {
        return true;
    }
    let mut cand = e & !c & (u64::MAX << from);
    while cand != 0 {
        let v = cand.trailing_zeros();
        if sum + v >= b {
            return false;
        }
        if split_off_mask(e, b, rest, c | 1 << v, sum + v, v + 1) {
            return true;
        }
        cand &= cand - 1;
    }
    false
}

#[inline]
fn mask_sum(mut m: u64) -> u32 {
    let mut s = 0;
    while m != 0 {
        s += m.trailing_zeros();
        m &= m - 1;
    }
    s
}

/// [`is_move`] on bit masks (bit `i` = square `i`, bit 0 unused), the solver's fast path.
#[inline]
pub(crate) fn is_move_mask(x: u64, y: u64, two: TypeTwo) -> bool {
    let k = x.count_ones();
    if k < 2 || y.count_ones() == 1 || y >= x {
        return false;
    }
    if y == 0 {
        let hi = top(x);
        let second = top(x ^ 1 << hi);
        return condition_4(u64::from(hi), u64::from(second), u64::from(mask_sum(x)));
    }
    let (f, s, e) = (x & y, x & !y, y & !x);
    if f != 0 {
        if e == 0 {
            return false;
        }
        if matches_mask(e, s) {
            return true;
        }
        if s.count_ones() == 1 {
            return mask_sum(e) < s.trailing_zeros();
        }
        let mut bs = s;
        while bs != 0 {
            let b = bs.trailing_zeros();
            if split_off_mask(e, b, s ^ 1 << b, 0, 0, 0) {
                return true;
            }
            bs &= bs - 1;
        }
        return false;
    }
    if y.count_ones() != k {
        return false;
    }
    let (xs, ys) = (squares_of(x), squares_of(y));
    match two {
        TypeTwo::Ordered => shifts_ok(&xs, &ys),
        TypeTwo::Literal => literal_two(&xs, &ys),
    }
}

/// Every follower of `x` (squares below 128), generated by replaying the rules of §1 coin by
/// coin: the reference generator. Type I: every nonempty proper subset of coins, with or
/// without one of them as the (b) coin, shifted right to left, each onto a square unoccupied
/// at that moment or into the hole (the (b) coin into the hole, placing new coins on free
/// squares of sum below its square). Type II: every shift sequence `n_0 <= ... <= n_{k-1}`
/// applied right to left under the same occupancy rule, all into the hole or none, with (4).
pub(crate) fn followers_literal(x: &[u32], two: TypeTwo) -> BTreeSet<Vec<u32>> {
    let k = x.len();
    let mut out = BTreeSet::new();
    if k < 2 {
        return out;
    }
    assert!(x.iter().all(|&v| (1..128).contains(&v)), "the reference generator handles squares 1..127");
    let start: u128 = x.iter().fold(0, |m, &v| m | 1u128 << v);
    let as_vec = |occ: u128| (1..128u32).filter(|&v| occ >> v & 1 == 1).collect::<Vec<u32>>();
    // Type I.
    for sub in 1u32..(1 << k) - 1 {
        let moved: Vec<u32> = (0..k).rev().filter(|&i| sub >> i & 1 == 1).map(|i| x[i]).collect();
        for b in std::iter::once(None).chain(moved.iter().map(|&v| Some(v))) {
            let has_a = moved.len() > usize::from(b.is_some());
            type_one_steps(&moved, 0, b, start, 0, &mut |occ, positive| {
                if !has_a || positive > 0 {
                    out.insert(as_vec(occ));
                }
            });
        }
    }
    // Type II.
    let mut shifts = vec![0u32; k];
    let mut targets = vec![0u32; k];
    type_two_steps(x, k, u32::MAX, start, &mut shifts, &mut targets, &mut |shifts, targets, occ| {
        let all_zero = targets.iter().all(|&t| t == 0);
        let all_pos = targets.iter().all(|&t| t > 0);
        if !(all_zero || all_pos) {
            return;
        }
        let total: u64 = shifts.iter().map(|&n| u64::from(n)).sum();
        if !condition_4(u64::from(shifts[k - 1]), u64::from(shifts[k - 2]), total) {
            return;
        }
        if two == TypeTwo::Ordered && all_pos && targets.windows(2).any(|w| w[0] >= w[1]) {
            return;
        }
        out.insert(as_vec(occ));
    });
    out
}

/// Shifts `moved[i..]` (right to left); `positive` counts (a) coins landed on a square.
fn type_one_steps(
    moved: &[u32],
    i: usize,
    b: Option<u32>,
    occ: u128,
    positive: u32,
    emit: &mut dyn FnMut(u128, u32),
) {
    let Some(&c) = moved.get(i) else {
        emit(occ, positive);
        return;
    };
    let occ = occ & !(1u128 << c);
    if b == Some(c) {
        // Into the hole, paying for new coins on free squares of total below c.
        fn place(c: u32, from: u32, sum: u32, occ: u128, any: bool, k: &mut dyn FnMut(u128)) {
            if any {
                k(occ);
            }
            for v in from..c {
                if sum + v >= c {
                    break;
                }
                if occ >> v & 1 == 0 {
                    place(c, v + 1, sum + v, occ | 1u128 << v, true, k);
                }
            }
        }
        place(c, 1, 0, occ, false, &mut |o| type_one_steps(moved, i + 1, b, o, positive, emit));
    } else {
        type_one_steps(moved, i + 1, b, occ, positive, emit);
        for t in 1..c {
            if occ >> t & 1 == 0 {
                type_one_steps(moved, i + 1, b, occ | 1u128 << t, positive + 1, emit);
            }
        }
    }
}

/// What a finished type II replay hands on: the shifts, the new squares, the occupancy.
type TypeTwoEmit<'a> = dyn FnMut(&[u32], &[u32], u128) + 'a;

/// Shifts coins `x[..i]` right to left, coin `i - 1` by at most `cap`.
fn type_two_steps(
    x: &[u32],
    i: usize,
    cap: u32,
    occ: u128,
    shifts: &mut [u32],
    targets: &mut [u32],
    emit: &mut TypeTwoEmit<'_>,
) {
    if i == 0 {
        emit(shifts, targets, occ);
        return;
    }
    let c = x[i - 1];
    let occ = occ & !(1u128 << c);
    for n in 1..=cap.min(c) {
        let t = c - n;
        if t > 0 && occ >> t & 1 == 1 {
            continue;
        }
        shifts[i - 1] = n;
        targets[i - 1] = t;
        let next = if t > 0 { occ | 1u128 << t } else { occ };
        type_two_steps(x, i - 1, n, next, shifts, targets, emit);
    }
}

#[cfg(test)]
/// The second, simpler solver: recursion over coin vectors with a hash map, the followers from
/// [`followers_literal`]. Whether the player to move from `x` wins.
pub(crate) fn wins_brute(
    x: &[u32],
    two: TypeTwo,
    memo: &mut std::collections::HashMap<Vec<u32>, bool>,
) -> bool {
    if let Some(&w) = memo.get(x) {
        return w;
    }
    let w = followers_literal(x, two).iter().any(|y| !wins_brute(y, two, memo));
    memo.insert(x.to_vec(), w);
    w
}

/// The outcome of every position on squares `1..=squares`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SquaresSolution {
    /// The strip's squares.
    pub squares: u32,
    /// The reading of type II.
    pub type2: TypeTwo,
    /// The P-positions, as masks (bit `i` = square `i`), increasing.
    pub p_masks: Vec<u64>,
    /// Positions (the empty strip and every set of at least two squares).
    pub positions: u64,
    /// Positions with no move into a claimed position (`claimed` of `solve_squares`) that are
    /// not claimed themselves.
    pub without_move_into_claimed: Vec<u64>,
    /// Seconds.
    pub seconds: f64,
}

#[cfg(test)]
/// Solves every position on squares `1..=squares` by (7), visiting the positions as
/// increasing masks (every move lowers the mask: its highest vacated square lies above every
/// square it fills). Also lists the positions outside `claimed` (masks) with no move into
/// `claimed` — Theorem 3 (B) when `claimed` is the text's set. `progress` gets the fraction
/// done.
pub(crate) fn solve_squares(
    squares: u32,
    two: TypeTwo,
    claimed: &[u64],
    progress: &(dyn Fn(f64) + Sync),
) -> SquaresSolution {
    struct Call<'a>(&'a (dyn Fn(f64) + Sync), u64);
    impl crate::engine::Progress for Call<'_> {
        fn set_position(&self, pos: u64) {
            (self.0)(pos as f64 / self.1 as f64)
        }
    }
    let call = Call(progress, 1u64 << squares);
    solve_squares_watched(squares, two, claimed, &Watch::reporting(&call))
        .expect("an unwatched run is never cancelled")
}

/// `solve_squares`, stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted)
/// when `watch` is cancelled; its progress counts masks, out of `2^squares`.
pub fn solve_squares_watched(
    squares: u32,
    two: TypeTwo,
    claimed: &[u64],
    watch: &Watch<'_>,
) -> Result<SquaresSolution> {
    assert!(squares <= MAX_SQUARES);
    let start = std::time::Instant::now();
    let total = 1u64 << squares;
    watch.progress().set_length(total);
    let claimed_set: std::collections::HashSet<u64> = claimed.iter().copied().collect();
    let mut p: Vec<u64> = Vec::new();
    let mut without = Vec::new();
    let chunk = 1u64 << 18;
    let mut lo = 0u64;
    while lo < total {
        watch.check()?;
        let hi = (lo + chunk).min(total);
        let known = p.clone();
        // In parallel: positions of the chunk with no move into an earlier P-position, and the
        // (B) failures.
        let (cands, bad): (Vec<u64>, Vec<u64>) = (lo as usize..hi as usize)
            .into_par_iter()
            .with_min_len(1024)
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut c, mut b), idx| {
                    let x = (idx as u64) << 1;
                    if x.count_ones() != 1 {
                        if !known.iter().any(|&y| is_move_mask(x, y, two)) {
                            c.push(x);
                        }
                        if !claimed_set.contains(&x) && !claimed.iter().any(|&y| is_move_mask(x, y, two)) {
                            b.push(x);
                        }
                    }
                    (c, b)
                },
            )
            .reduce(
                || (Vec::new(), Vec::new()),
                |(mut c1, mut b1), (c2, b2)| {
                    c1.extend(c2);
                    b1.extend(b2);
                    (c1, b1)
                },
            );
        let mut cands = cands;
        cands.sort_unstable();
        let first_new = p.len();
        for x in cands {
            if !p[first_new..].iter().any(|&y| is_move_mask(x, y, two)) {
                p.push(x);
            }
        }
        let mut bad = bad;
        bad.sort_unstable();
        without.extend(bad);
        lo = hi;
        watch.progress().set_position(lo);
    }
    let positions = total - u64::from(squares);
    Ok(SquaresSolution {
        squares,
        type2: two,
        p_masks: p,
        positions,
        without_move_into_claimed: without,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The outcome of every position whose squares add up to at most a bound.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SumSolution {
    /// The bound on the sum of the occupied squares.
    pub max_sum: u32,
    /// The reading of type II.
    pub type2: TypeTwo,
    /// The P-positions, by increasing sum.
    pub p_positions: Vec<Vec<u32>>,
    /// Positions.
    pub positions: u64,
    /// Positions outside `claimed` with no move into it.
    pub without_move_into_claimed: Vec<Vec<u32>>,
    /// Seconds.
    pub seconds: f64,
}

/// Calls `f` on every set of distinct positive integers of sum `s` whose largest element is
/// `largest` (increasing).
fn sets_with_sum(s: u32, largest: u32, f: &mut dyn FnMut(&[u32])) {
    fn go(rest: u32, below: u32, stack: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        if rest == 0 {
            let v: Vec<u32> = stack.iter().rev().copied().collect();
            f(&v);
            return;
        }
        for p in (1..below.min(rest + 1)).rev() {
            // The parts below p add up to at most p (p - 1) / 2.
            if p * (p + 1) / 2 < rest {
                break;
            }
            stack.push(p);
            go(rest - p, p, stack, f);
            stack.pop();
        }
    }
    let mut stack = vec![largest];
    go(s - largest, largest, &mut stack, f);
}

#[cfg(test)]
/// Solves every position whose occupied squares add up to at most `max_sum` by (7), by
/// increasing sum (every move lowers the sum, so one sum's positions depend only on smaller
/// sums and are solved in parallel). Also lists the positions outside `claimed` with no move
/// into it.
pub(crate) fn solve_sum(max_sum: u32, two: TypeTwo, claimed: &[Vec<u32>]) -> SumSolution {
    solve_sum_watched(max_sum, two, claimed, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// `solve_sum`, stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled; its progress counts the sums done.
pub fn solve_sum_watched(
    max_sum: u32,
    two: TypeTwo,
    claimed: &[Vec<u32>],
    watch: &Watch<'_>,
) -> Result<SumSolution> {
    let start = std::time::Instant::now();
    let mut p: Vec<Vec<u32>> = vec![Vec::new()];
    let mut without = Vec::new();
    let mut positions = 1u64;
    let claimed_set: BTreeSet<&Vec<u32>> = claimed.iter().collect();
    watch.progress().set_length(u64::from(max_sum));
    for s in 3..=max_sum {
        watch.check()?;
        watch.progress().set_position(u64::from(s));
        let known = p.clone();
        // Per largest square: new P-positions, (B) failures, positions.
        type Level = (Vec<Vec<u32>>, Vec<Vec<u32>>, u64);
        let found: Vec<Level> = (1..s)
            .into_par_iter()
            .map(|largest| {
                let (mut np, mut bad, mut count) = (Vec::new(), Vec::new(), 0u64);
                sets_with_sum(s, largest, &mut |x| {
                    // A cancelled run's levels are thrown away: skip the work.
                    if x.len() < 2 || watch.is_cancelled() {
                        return;
                    }
                    count += 1;
                    if !known.iter().any(|y| is_move(x, y, two)) {
                        np.push(x.to_vec());
                    }
                    let xv = x.to_vec();
                    if !claimed_set.contains(&xv) && !claimed.iter().any(|y| is_move(x, y, two)) {
                        bad.push(xv);
                    }
                });
                (np, bad, count)
            })
            .collect();
        for (np, bad, count) in found {
            p.extend(np);
            without.extend(bad);
            positions += count;
        }
    }
    watch.check()?;
    Ok(SumSolution {
        max_sum,
        type2: two,
        p_positions: p,
        positions,
        without_move_into_claimed: without,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The positions Theorem 3 names with every square at most `bound`: the empty strip and the
/// row prefixes `(A_0^n, ..., A_{k-1}^n)`, `n >= 1`, `k >= 2`, increasing by first square.
pub fn claimed(bound: u32) -> Vec<Vec<u32>> {
    let rows = super::fraenkel::array(bound as usize + 2, 1).expect("first entries fit");
    let mut out = vec![Vec::new()];
    for (n, r) in rows.iter().enumerate().skip(1) {
        if r[0] > u64::from(bound) {
            break;
        }
        let entries: Vec<u32> = (0..)
            .map_while(|j| {
                let v = *super::fraenkel::row(n as u64, r[0], j + 1)?.last()?;
                (v <= u64::from(bound)).then_some(v as u32)
            })
            .collect();
        for k in 2..=entries.len() {
            out.push(entries[..k].to_vec());
        }
    }
    out
}

/// Theorem 3 (A): every pair `(X, Y)` of `claimed` positions with a move `X -> Y`.
pub fn moves_within(claimed: &[Vec<u32>], two: TypeTwo) -> Vec<(Vec<u32>, Vec<u32>)> {
    let sums: Vec<u64> = claimed.iter().map(|x| x.iter().map(|&v| u64::from(v)).sum()).collect();
    (0..claimed.len())
        .into_par_iter()
        .flat_map_iter(|i| {
            let x = &claimed[i];
            let sums = &sums;
            (0..claimed.len())
                .filter(move |&j| sums[j] < sums[i] && is_move(x, &claimed[j], two))
                .map(move |j| (x.clone(), claimed[j].clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_positions(n: u32) -> Vec<u64> {
        (0..1u64 << n).map(|i| i << 1).filter(|m| m.count_ones() != 1).collect()
    }

    /// The move tests agree with the reference generator on every pair of positions on 8 squares.
    #[test]
    fn move_tests_agree_with_the_generator() {
        for two in [TypeTwo::Ordered, TypeTwo::Literal] {
            let all = all_positions(8);
            for &x in &all {
                let xs = squares_of(x);
                let followers = followers_literal(&xs, two);
                for &y in &all {
                    let ys = squares_of(y);
                    let m = is_move_mask(x, y, two);
                    assert_eq!(m, followers.contains(&ys), "{xs:?} -> {ys:?} ({two:?})");
                    assert_eq!(m, is_move(&xs, &ys, two), "{xs:?} -> {ys:?} ({two:?})");
                }
                assert!(followers.iter().all(|y| y.iter().all(|&v| v >= 1) && mask_of(y) < x));
            }
        }
    }

    /// The exhaustive solver and the brute force agree on every position of 9 squares.
    #[test]
    fn solver_agrees_with_the_brute_force() {
        for two in [TypeTwo::Ordered, TypeTwo::Literal] {
            let sol = solve_squares(9, two, &[], &|_| {});
            let mut memo = std::collections::HashMap::new();
            for x in all_positions(9) {
                let p = sol.p_masks.binary_search(&x).is_ok();
                assert_eq!(p, !wins_brute(&squares_of(x), two, &mut memo), "{:?}", squares_of(x));
            }
            let by_sum = solve_sum(20, two, &[]);
            for x in &by_sum.p_positions {
                if x.iter().all(|&v| v <= 9) {
                    assert!(sol.p_masks.contains(&mask_of(x)), "{x:?}");
                }
            }
            for &m in &sol.p_masks {
                let x = squares_of(m);
                if x.iter().sum::<u32>() <= 20 {
                    assert!(by_sum.p_positions.contains(&x), "{x:?}");
                }
            }
        }
    }

    const BOTH: [TypeTwo; 2] = [TypeTwo::Ordered, TypeTwo::Literal];

    /// Fraenkel §1, Example (i): from (1, 3) "the only possible move is to (1, 2)"
    /// ((1, 3) -> Phi breaks (4), 1 and 3 alone are spinsters); from (1, 2) Phi is a move.
    #[test]
    fn example_i() {
        for two in BOTH {
            let want: BTreeSet<Vec<u32>> = [vec![1, 2]].into_iter().collect();
            assert_eq!(followers_literal(&[1, 3], two), want);
            assert!(is_move(&[1, 2], &[], two) && !is_move(&[1, 3], &[], two));
            assert!(!is_move(&[1, 3], &[1], two) && !is_move(&[1, 3], &[3], two));
        }
    }

    /// Example (ii): "(1, 3, 7) -> Phi ... satisfies (4) (with equality)": 7 = 2 * 3 + 1.
    #[test]
    fn example_ii() {
        for two in BOTH {
            assert!(is_move(&[1, 3, 7], &[], two) && is_move_mask(mask_of(&[1, 3, 7]), 0, two));
            assert!(!is_move(&[1, 3, 8], &[], two));
        }
    }

    /// Example (iii): (1, 3, 8) -> (1, 3) "is not permitted by the second part of I(a)"; after a
    /// move of the coin at 8 alone the next player moves to Phi; (1, 3, 8) is a P-position.
    #[test]
    fn example_iii() {
        for two in BOTH {
            let f = followers_literal(&[1, 3, 8], two);
            assert!(!f.contains(&vec![1, 3]) && !is_move(&[1, 3, 8], &[1, 3], two));
            for y in f.iter().filter(|y| y.contains(&1) && y.contains(&3)) {
                assert!(is_move(y, &[], two), "{y:?}");
            }
            // "either by moving directly to Phi or by moving first to (1, 3)": not from every
            // follower. From (2, 8) (3 -> 2, 1 -> 0) neither is a move; player II wins by
            // moving to (2, 6), the P-position of example (vii).
            let other: Vec<&Vec<u32>> =
                f.iter().filter(|y| !is_move(y, &[], two) && !is_move(y, &[1, 3], two)).collect();
            assert_eq!(other, [&vec![2, 8]], "computed, against the text's wording");
            assert!(is_move(&[2, 8], &[2, 6], two));
            let sol = solve_squares(8, two, &[], &|_| {});
            assert!(sol.p_masks.contains(&mask_of(&[1, 3, 8])));
        }
    }

    /// Example (iv): (6, 8, 100) -> (1, 3, 8) "involves (a): 100 -> 1, 6 -> 3"; Example (v):
    /// (8, 19) -> (1, 3, 8) "is of type (b): 19 -> (1, 3)" (one moved coin cannot fill two new
    /// squares by (a)).
    #[test]
    fn examples_iv_and_v() {
        for two in BOTH {
            assert!(is_move(&[6, 8, 100], &[1, 3, 8], two));
            assert!(is_move(&[8, 19], &[1, 3, 8], two));
            assert!(!matches(&[1, 3], &[19]));
        }
        let f = followers_literal(&[8, 19], TypeTwo::Ordered);
        assert!(f.contains(&vec![1, 3, 8]));
    }

    /// Example (vi): (55, 56, 200) -> (1, 3, 8, 21, 55) "is a winning move (involving both (a):
    /// 200 -> 8 and (b): (56 -> (1, 3)))". The move exists, with (b) placing 21 as well
    /// (56 -> (1, 3, 21), 1 + 3 + 21 < 56); the two parts as printed give (1, 3, 8, 55), an
    /// N-position. The target is P by the search over every position of square sum <= 88.
    #[test]
    fn example_vi() {
        let two = TypeTwo::Ordered;
        assert!(is_move(&[55, 56, 200], &[1, 3, 8, 21, 55], two));
        assert!(is_move(&[55, 56, 200], &[1, 3, 8, 55], two));
        let sums = solve_sum(88, two, &[]);
        assert!(sums.p_positions.contains(&vec![1, 3, 8, 21, 55]));
        assert!(!sums.p_positions.contains(&vec![1, 3, 8, 55]));
    }

    /// Example (vii): "player II can win from the position (2, 6)". It also fixes the reading of
    /// a combined (a) + (b) move: if both coins could move, 6 -> 3 with 2 -> 0 placing 1
    /// (1 < 2) would reach the P-position (1, 3).
    #[test]
    fn example_vii() {
        for two in BOTH {
            let sol = solve_squares(7, two, &[], &|_| {});
            assert!(sol.p_masks.contains(&mask_of(&[2, 6])));
            assert!(!is_move(&[2, 6], &[1, 3], two));
            assert!(!followers_literal(&[2, 6], two).contains(&vec![1, 3]));
        }
    }

    /// Under the literal reading of type II the coins may pass each other: (4, 11, 29) ->
    /// (1, 3, 8) by 4 -> 3, 11 -> 1, 29 -> 8 (shifts 1 <= 10 <= 21, and 21 <= 2 * 10 + 1), a move
    /// between two positions Theorem 3 calls P. Keeping the order it is no move.
    #[test]
    fn literal_reading_passes_coins() {
        assert!(is_move(&[4, 11, 29], &[1, 3, 8], TypeTwo::Literal));
        assert!(followers_literal(&[4, 11, 29], TypeTwo::Literal).contains(&vec![1, 3, 8]));
        assert!(!is_move(&[4, 11, 29], &[1, 3, 8], TypeTwo::Ordered));
        assert!(!followers_literal(&[4, 11, 29], TypeTwo::Ordered).contains(&vec![1, 3, 8]));
    }

    #[test]
    fn sets_with_sum_lists_each_once() {
        let mut all = Vec::new();
        for largest in 1..=10 {
            sets_with_sum(10, largest, &mut |x| all.push(x.to_vec()));
        }
        // The partitions of 10 into distinct parts: q(10) = 10.
        assert_eq!(all.len(), 10);
        assert!(all.iter().all(|x| x.iter().sum::<u32>() == 10 && x.windows(2).all(|w| w[0] < w[1])));
    }

    #[test]
    fn claimed_positions_start_with_the_rows() {
        let w = claimed(30);
        assert_eq!(&w[..5], &[vec![], vec![1, 3], vec![1, 3, 8], vec![1, 3, 8, 21], vec![2, 6]]);
        assert!(w.contains(&vec![10, 27]) && !w.contains(&vec![12, 32]));
    }
}
