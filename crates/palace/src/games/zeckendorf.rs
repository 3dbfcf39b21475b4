//! The Zeckendorf game (Baird-Smith, Epstein, Flint and Miller) and its black-hole variants
//! (Cashman, Miller, Shuffelton and Son, *Black Hole Zeckendorf Games*), solved by exhaustive
//! search.
//!
//! A position is a count vector: `c[i]` pieces in column `F_{i+1}` (weights 1, 2, 3, 5, ...,
//! [`fib::weight`]). The moves (paper §1.1 and §2, labels of §2): **M** merges two `F_1` into
//! one `F_2`; **A_i** adds one `F_i` and one `F_{i+1}` into one `F_{i+2}`; **S_2** splits two
//! `F_2` into `F_1 + F_3`; **S_i** (`i >= 3`) splits two `F_i` into `F_{i-2} + F_{i+1}`. With a
//! black hole on `F_m` the board has the columns `F_1 .. F_{m-1}` and a piece that would land on
//! `F_m` or beyond is removed. The last player to move wins (normal play).
//!
//! Positions of value `<= V` are numbered densely ([`Space`]: by value, then lexicographically
//! by the counts from the highest column down), so the solver keeps two bits per position in
//! [`BitSet`]s, not a hash map. The search is a depth-first search with that memo; it needs
//! no order on the positions because every play is finite (paper Theorem 2.1 and
//! Baird-Smith et al.; the search would not terminate otherwise, and the tests' brute force
//! would overflow its stack).
//!
//! The empty-board game (paper §2, rule 2) puts a placing phase in front: from an empty board
//! and a pile of `n`, the players alternately place one piece in `F_1` or in `F_{m-1}` (paying
//! its weight, only if it fits) until the pile is spent, then go on alternating with the moves
//! above. `empty_board` solves the placing phase by backward induction over the placements,
//! on top of the positions' outcomes.

use super::fib::{self, BitSet};
use crate::error::Result;
use crate::games::watch::Watch;
use rayon::prelude::*;

/// Most columns a board may have (`F_24 = 75025` in the paper's indexing).
pub const MAX_COLUMNS: usize = 24;

/// A position: `c[i]` pieces in column `F_{i+1}`; columns past the board's are 0.
pub type Counts = [u32; MAX_COLUMNS];

/// The columns of a board and what happens past the last one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Columns `F_1 .. F_columns` on the board.
    pub columns: usize,
    /// A piece landing past the last column falls into the black hole `F_{columns+1}` and is
    /// removed. Without a hole such a move is impossible: the original game gets enough columns
    /// that no piece can land past them.
    pub hole: bool,
}

impl Rules {
    /// The black-hole game on `F_m` (`m >= 2`): columns `F_1 .. F_{m-1}`.
    pub fn black_hole(m: usize) -> Self {
        assert!((2..=MAX_COLUMNS + 1).contains(&m), "black hole F_{m} out of range");
        Rules { columns: m - 1, hole: true }
    }

    /// The original game for value `n >= 1`: every column whose weight is at most `n`.
    pub fn original(n: u64) -> Self {
        let columns = fib::fibonacci_up_to(n.max(1)).len();
        assert!(columns <= MAX_COLUMNS, "n = {n} needs more than {MAX_COLUMNS} columns");
        Rules { columns, hole: false }
    }

    /// How many move kinds a position is tried against: M, A_1 .. A_{C-1}, S_2 .. S_C.
    pub(crate) fn move_kinds(&self) -> usize {
        2 * self.columns - 1
    }

    /// The paper's label of move kind `m` (M, A_i, S_i).
    pub fn label(&self, m: usize) -> String {
        let c = self.columns;
        if m == 0 {
            "M".into()
        } else if m < c {
            format!("A{m}")
        } else {
            format!("S{}", m - c + 2)
        }
    }

    /// Applies move kind `m` to `p`, or `None` when it is not possible there.
    #[inline]
    pub fn apply(&self, p: &Counts, m: usize) -> Option<Counts> {
        self.apply_and_fall(p, m).map(|(q, _)| q)
    }

    /// [`Rules::apply`], also saying whether a piece fell into the black hole (the value then
    /// drops by the hole's weight; otherwise it is unchanged).
    #[inline]
    pub(crate) fn apply_and_fall(&self, p: &Counts, m: usize) -> Option<(Counts, bool)> {
        let c = self.columns;
        let mut q = *p;
        // Column index (0-based) the new piece lands on.
        let land = if m == 0 {
            // M: two F_1 into one F_2.
            if q[0] < 2 {
                return None;
            }
            q[0] -= 2;
            1
        } else if m < c {
            // A_m: F_m + F_{m+1} into F_{m+2} (0-based m - 1, m -> m + 1).
            let i = m - 1;
            if q[i] == 0 || q[i + 1] == 0 {
                return None;
            }
            q[i] -= 1;
            q[i + 1] -= 1;
            i + 2
        } else {
            // S_i, i = m - c + 2 >= 2 (0-based s = i - 1).
            let s = m - c + 1;
            if q[s] < 2 {
                return None;
            }
            q[s] -= 2;
            if s == 1 {
                // S_2: 2 F_2 into F_1 + F_3.
                q[0] += 1;
                2
            } else {
                // S_i: 2 F_i into F_{i-2} + F_{i+1}.
                q[s - 2] += 1;
                s + 1
            }
        };
        if land < c {
            q[land] += 1;
            Some((q, false))
        } else {
            assert!(self.hole, "a piece left the board of the original game");
            Some((q, true))
        }
    }

    /// Whether no move is possible from `p`.
    pub fn is_terminal(&self, p: &Counts) -> bool {
        (0..self.move_kinds()).all(|m| self.apply(p, m).is_none())
    }
}

/// The value (weighted sum) of a position.
pub fn value(p: &Counts, columns: usize) -> u64 {
    (0..columns).map(|i| u64::from(p[i]) * fib::weight(i + 1)).sum()
}

/// The positions of values `lo..=hi` on a board of `columns` columns, numbered densely.
#[derive(Debug, Clone)]
pub struct Space {
    columns: usize,
    lo: u64,
    hi: u64,
    weights: Vec<u64>,
    /// `count[j][v]`: positions of value `v` on the first `j + 1` columns.
    count: Vec<Vec<u64>>,
    /// `offset[v - lo]`: the number of the first position of value `v`.
    offset: Vec<u64>,
}

impl Space {
    /// The positions of values `lo..=hi` on `columns` columns.
    pub fn new(columns: usize, lo: u64, hi: u64) -> Self {
        assert!(columns >= 1 && lo <= hi);
        let weights: Vec<u64> = (1..=columns).map(fib::weight).collect();
        let h = hi as usize;
        let mut count = vec![vec![1u64; h + 1]];
        for &w in &weights[1..] {
            let prev = count.last().expect("one row");
            let mut row = prev.clone();
            for v in w as usize..=h {
                row[v] += row[v - w as usize];
            }
            count.push(row);
        }
        let top = &count[columns - 1];
        let mut offset = Vec::with_capacity((hi - lo + 2) as usize);
        let mut acc = 0u64;
        for v in lo..=hi {
            offset.push(acc);
            acc += top[v as usize];
        }
        offset.push(acc);
        Space { columns, lo, hi, weights, count, offset }
    }

    /// How many positions of values `lo..=hi` a board of `columns` columns has, without
    /// building the numbering (saturating at `u64::MAX`; one row of counts in memory).
    pub fn count(columns: usize, lo: u64, hi: u64) -> u64 {
        let h = hi as usize;
        let mut row = vec![1u64; h + 1];
        for i in 2..=columns {
            let w = fib::weight(i) as usize;
            for v in w..=h {
                row[v] = row[v].saturating_add(row[v - w]);
            }
        }
        row[lo as usize..].iter().fold(0u64, |a, &b| a.saturating_add(b))
    }

    /// How many positions.
    pub fn len(&self) -> u64 {
        *self.offset.last().expect("offsets")
    }

    /// Whether there are none (never: every value has at least the all-`F_1` position).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many positions of value `v`.
    pub(crate) fn count_of_value(&self, v: u64) -> u64 {
        self.count[self.columns - 1][v as usize]
    }

    /// The number of position `p` of value `v` (which must lie in `lo..=hi`).
    #[inline]
    pub fn rank(&self, p: &Counts, v: u64) -> usize {
        debug_assert!((self.lo..=self.hi).contains(&v), "value {v} outside {}..={}", self.lo, self.hi);
        let mut rest = v as usize;
        let mut r = self.offset[(v - self.lo) as usize];
        for j in (1..self.columns).rev() {
            let used = p[j] as usize * self.weights[j] as usize;
            let row = &self.count[j];
            r += row[rest] - row[rest - used];
            rest -= used;
        }
        debug_assert_eq!(rest as u32, p[0]);
        r as usize
    }

    /// Calls `f` on every position of value `v`, in [`Space::rank`] order.
    pub fn for_each_of_value(&self, v: u64, f: &mut impl FnMut(&Counts)) {
        fn go(s: &Space, j: usize, rest: u64, p: &mut Counts, f: &mut impl FnMut(&Counts)) {
            if j == 0 {
                p[0] = rest as u32;
                f(p);
                return;
            }
            let w = s.weights[j];
            for c in 0..=rest / w {
                p[j] = c as u32;
                go(s, j - 1, rest - c * w, p, f);
            }
            p[j] = 0;
        }
        let mut p = [0u32; MAX_COLUMNS];
        go(self, self.columns - 1, v, &mut p, f);
    }
}

/// Outcomes of positions, found on demand by a depth-first search with a two-bit memo.
#[derive(Debug, Clone)]
pub struct Solver {
    /// The board and its moves.
    pub rules: Rules,
    space: Space,
    known: BitSet,
    win: BitSet,
}

/// One position on the search's stack: the position, its value and number, the next move kind
/// to try.
struct Frame {
    pos: Counts,
    value: u64,
    idx: usize,
    next: usize,
}

impl Solver {
    /// A solver for the positions of values `lo..=hi` under `rules` (every move keeps the value
    /// or lowers it: pieces only leave through the black hole).
    pub fn new(rules: Rules, lo: u64, hi: u64) -> Self {
        let space = Space::new(rules.columns, lo, hi);
        let len = usize::try_from(space.len()).expect("the positions fit in memory");
        Solver { rules, space, known: BitSet::new(len), win: BitSet::new(len) }
    }

    /// The numbering of the positions.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// How many positions the searches so far have solved.
    pub fn solved(&self) -> u64 {
        self.known.count_ones()
    }

    /// Bytes held by the memo.
    pub fn bytes(&self) -> usize {
        self.known.bytes() + self.win.bytes()
    }

    /// Whether the player to move from `root` wins (an N-position; otherwise a P-position).
    pub fn wins(&mut self, root: &Counts) -> bool {
        self.wins_watched(root, &Watch::NONE).expect("an unwatched search is never cancelled")
    }

    /// [`Solver::wins`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted)
    /// when `watch` is cancelled (polled when a search starts and every [`POLL`] steps of it). A
    /// stopped search leaves the memo as it was before the unfinished positions: the solver
    /// stays usable.
    pub fn wins_watched(&mut self, root: &Counts, watch: &Watch<'_>) -> Result<bool> {
        let Solver { rules, space, known, win } = self;
        let cols = rules.columns;
        let v = value(root, cols);
        let r = space.rank(root, v);
        if known.get(r) {
            return Ok(win.get(r));
        }
        let kinds = rules.move_kinds();
        let hole = if rules.hole { fib::weight(cols + 1) } else { 0 };
        // A look at the token per search too, since a caller may run many short ones.
        watch.check()?;
        let mut stack = vec![Frame { pos: *root, value: v, idx: r, next: 0 }];
        let mut steps = 0u32;
        while let Some(f) = stack.last_mut() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(POLL) {
                // Only finished positions are in the memo, so stopping here keeps it sound.
                watch.check()?;
            }
            let mut found = false;
            let mut child = None;
            while f.next < kinds {
                if let Some((s, fell)) = rules.apply_and_fall(&f.pos, f.next) {
                    let sv = if fell { f.value - hole } else { f.value };
                    debug_assert_eq!(sv, value(&s, cols));
                    let si = space.rank(&s, sv);
                    if !known.get(si) {
                        child = Some(Frame { pos: s, value: sv, idx: si, next: 0 });
                        break;
                    }
                    if !win.get(si) {
                        found = true;
                        break;
                    }
                }
                f.next += 1;
            }
            if let Some(c) = child {
                stack.push(c);
                continue;
            }
            known.set(f.idx);
            if found {
                win.set(f.idx);
            }
            stack.pop();
        }
        Ok(win.get(r))
    }

    /// The moves from `p` (as move kinds) that leave the opponent a P-position.
    pub fn winning_moves(&mut self, p: &Counts) -> Vec<usize> {
        let rules = self.rules;
        (0..rules.move_kinds()).filter(|&m| rules.apply(p, m).is_some_and(|s| !self.wins(&s))).collect()
    }
}

/// How many steps of the search pass between two looks at the cancel token (a few
/// milliseconds' work).
pub const POLL: u32 = 1 << 16;

/// Player 1 or 2.
pub type Player = u8;

/// The original game from `n` pieces in `F_1`: who wins and what the search saw.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OriginalRow {
    /// Pieces.
    pub n: u64,
    /// The winner (1 or 2).
    pub winner: Player,
    /// Positions of value `n` (the state space).
    pub positions: u64,
    /// Positions the search solved.
    pub solved: u64,
    /// P-positions of value `n`, when every position was classified (`census`).
    pub p_positions: Option<u64>,
    /// After the forced opening merge, Player 2's winning replies (paper labels), for `n >= 3`.
    pub winning_replies: Vec<String>,
    /// Seconds the search took.
    pub seconds: f64,
    /// Bytes of the memo.
    pub memo_bytes: usize,
}

/// Solves the original game from `n` pieces in `F_1`; with `census`, classifies every
/// position of value `n` as well.
pub fn original(n: u64, census: bool) -> OriginalRow {
    original_watched(n, census, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`original`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled.
pub(crate) fn original_watched(n: u64, census: bool, watch: &Watch<'_>) -> Result<OriginalRow> {
    let start = std::time::Instant::now();
    let rules = Rules::original(n);
    let mut s = Solver::new(rules, n, n);
    let mut root = [0u32; MAX_COLUMNS];
    root[0] = n as u32;
    let winner = if s.wins_watched(&root, watch)? { 1 } else { 2 };
    let winning_replies = if n >= 3 {
        let after = rules.apply(&root, 0).expect("the opening merge");
        let mut labels = Vec::new();
        for m in 0..rules.move_kinds() {
            if let Some(next) = rules.apply(&after, m)
                && !s.wins_watched(&next, watch)?
            {
                labels.push(rules.label(m));
            }
        }
        labels
    } else {
        Vec::new()
    };
    let p_positions = if census {
        let mut p = 0;
        let mut stopped = Ok(());
        let space = s.space().clone();
        space.for_each_of_value(n, &mut |pos| {
            if stopped.is_ok() {
                match s.wins_watched(pos, watch) {
                    Ok(won) => p += u64::from(!won),
                    Err(e) => stopped = Err(e),
                }
            }
        });
        stopped?;
        Some(p)
    } else {
        None
    };
    Ok(OriginalRow {
        n,
        winner,
        positions: s.space().count_of_value(n),
        solved: s.solved(),
        p_positions,
        winning_replies,
        seconds: start.elapsed().as_secs_f64(),
        memo_bytes: s.bytes(),
    })
}

#[cfg(test)]
/// [`original`] for every `n` in `1..=to`, in parallel (largest first).
pub(crate) fn original_range(to: u64, census: bool) -> Vec<OriginalRow> {
    original_range_watched(to, census, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// `original_range`, stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted)
/// when `watch` is cancelled; its progress counts the piles solved.
pub fn original_range_watched(to: u64, census: bool, watch: &Watch<'_>) -> Result<Vec<OriginalRow>> {
    watch.progress().set_length(to);
    let mut rows: Vec<OriginalRow> = (1..=to)
        .rev()
        .collect::<Vec<_>>()
        .into_par_iter()
        .with_max_len(1)
        .map(|n| {
            let row = original_watched(n, census, watch)?;
            watch.progress().inc(1);
            Ok(row)
        })
        .collect::<Result<_>>()?;
    rows.reverse();
    Ok(rows)
}

/// The empty-board black-hole game on `F_m`, solved for every pile `1..=to`.
#[derive(Debug, Clone)]
pub struct EmptyBoard {
    /// The black hole's column.
    pub m: usize,
    /// `winners[n - 1]`: who wins from a pile of `n`.
    pub winners: Vec<Player>,
    /// The solver of the decomposition phase, with every position it met.
    pub solver: Solver,
}

/// The setup after the placing phase with `j` pieces in the outer column `F_{m-1}` and the
/// rest of `n` in `F_1` (for `m = 2` there is one column, and `j` must be 0).
pub fn setup(m: usize, n: u64, j: u64) -> Counts {
    let mut p = [0u32; MAX_COLUMNS];
    if m == 2 {
        p[0] = n as u32;
    } else {
        let w = fib::weight(m - 1);
        p[0] = (n - j * w) as u32;
        p[m - 2] = j as u32;
    }
    p
}

#[cfg(test)]
/// Solves the empty-board game on `F_m` for every pile `1..=to`: the setups' outcomes by the
/// [`Solver`] (one memo for all piles), then the placing phase of each pile by backward
/// induction over the number of placements ([`placing_phase_bits`]), the piles in parallel.
pub(crate) fn empty_board(m: usize, to: u64) -> EmptyBoard {
    empty_board_watched(m, to, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// `empty_board`, stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled; its progress counts the piles whose setups are solved.
pub fn empty_board_watched(m: usize, to: u64, watch: &Watch<'_>) -> Result<EmptyBoard> {
    let mut solver = Solver::new(Rules::black_hole(m), 0, to);
    let w = if m == 2 { 1 } else { fib::weight(m - 1) };
    watch.progress().set_length(to);
    // setups[n - 1][j]: the first player of the decomposition phase wins setup j of pile n.
    let mut setups: Vec<BitSet> = Vec::with_capacity(to as usize);
    for n in 1..=to {
        let heavy = if m == 2 { 0 } else { n / w };
        let mut b = BitSet::new(heavy as usize + 1);
        for j in 0..=heavy {
            if solver.wins_watched(&setup(m, n, j), watch)? {
                b.set(j as usize);
            }
        }
        setups.push(b);
        watch.progress().set_position(n);
    }
    watch.check()?;
    let winners = (1..=to)
        .into_par_iter()
        .map(|n| {
            let b = &setups[n as usize - 1];
            let first_wins = if m == 2 {
                placing_phase(n, 1, true, &|j| b.get(j as usize))
            } else {
                placing_phase_bits_watched(n, w, b, watch)?
            };
            Ok(if first_wins { 1 } else { 2 })
        })
        .collect::<Result<_>>()?;
    Ok(EmptyBoard { m, winners, solver })
}

#[cfg(test)]
/// [`placing_phase`] for an outer weight `w >= 2`, 64 states a step: level `t`'s states are a
/// bit set over `j`, computed from level `t + 1` by shifts and masks. `setup_wins` has bit `j`
/// set when the first player of the decomposition phase wins the setup with `j` outer pieces.
pub(crate) fn placing_phase_bits(n: u64, w: u64, setup_wins: &BitSet) -> bool {
    placing_phase_bits_watched(n, w, setup_wins, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`placing_phase_bits`], stopping with
/// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when `watch` is cancelled.
pub(crate) fn placing_phase_bits_watched(
    n: u64,
    w: u64,
    setup_wins: &BitSet,
    watch: &Watch<'_>,
) -> Result<bool> {
    assert!(w >= 2);
    let (n, w) = (n as usize, w as usize);
    let bits = n / w + 1;
    let words = bits.div_ceil(64) + 1;
    let mut next = vec![0u64; words];
    let mut cur = vec![0u64; words];
    // Bits j <= x of word k.
    let upto = |x: Option<usize>, k: usize| -> u64 {
        match x {
            None => 0,
            Some(x) if x < 64 * k => 0,
            Some(x) if x >= 64 * k + 63 => u64::MAX,
            Some(x) => (1u64 << (x - 64 * k + 1)) - 1,
        }
    };
    for t in (0..=n).rev() {
        if t.is_multiple_of(1024) {
            watch.check()?;
        }
        let rest = n - t;
        // Pile left is rest - (w - 1) j: at least 1 for j <= a, at least w for j <= b.
        let a = (rest >= 1).then(|| (rest - 1) / (w - 1));
        let b = (rest >= w).then(|| (rest - w) / (w - 1));
        for k in 0..words - 1 {
            let here = next[k];
            let above = (next[k] >> 1) | (next[k + 1] << 63);
            cur[k] = (!here & upto(a, k)) | (!above & upto(b, k));
        }
        if rest.is_multiple_of(w - 1) {
            let j = rest / (w - 1);
            if j < bits && j <= t {
                let bit = 1u64 << (j % 64);
                if setup_wins.get(j) {
                    cur[j / 64] |= bit;
                } else {
                    cur[j / 64] &= !bit;
                }
            }
        }
        std::mem::swap(&mut next, &mut cur);
    }
    Ok(next[0] & 1 == 1)
}

/// Whether the player to move first wins the placing phase of a pile `n`, where a piece costs
/// 1 (column `F_1`) or `w` (the outer column; `single`: there is only `F_1`), and the setup with
/// `j` outer pieces is then won by the player to move exactly when `setup_wins(j)`.
///
/// States are (placements made `t`, outer pieces among them `j`); the pile left is
/// `n - t - (w - 1) j`. Levels `t` are solved from the last down.
pub(crate) fn placing_phase(n: u64, w: u64, single: bool, setup_wins: &dyn Fn(u64) -> bool) -> bool {
    if single {
        // n placements, then the setup (n): the player to move after them wins it or not.
        return setup_wins(0) == n.is_multiple_of(2);
    }
    let n = n as usize;
    let w = w as usize;
    // next[j]: the player to move at level t + 1 with j outer pieces wins.
    let mut next = vec![false; n / w + 2];
    let mut cur = vec![false; n / w + 2];
    for t in (0..=n).rev() {
        for j in 0..=t.min((n - t) / (w - 1).max(1)).min(n / w) {
            let left = n - t - (w - 1) * j;
            if t - j + w * j > n {
                continue;
            }
            cur[j] = if left == 0 {
                setup_wins(j as u64)
            } else {
                (left >= 1 && !next[j]) || (left >= w && !next[j + 1])
            };
        }
        std::mem::swap(&mut next, &mut cur);
    }
    next[0]
}

/// Whether `player` (1 or 2) can force the placing phase of a pile `n` (outer weight `w >= 2`)
/// to end in a setup whose number of outer pieces `j` satisfies `target`, whatever the other
/// player does (paper Theorems 4.7 and 5.18).
pub(crate) fn can_force(n: u64, w: u64, player: Player, target: &dyn Fn(u64) -> bool) -> bool {
    let n = n as usize;
    let w = w as usize;
    let mut next = vec![false; n / w + 2];
    let mut cur = vec![false; n / w + 2];
    for t in (0..=n).rev() {
        // Player 1 places at t = 0, 2, 4, ...
        let forcer_moves = (t % 2 == 0) == (player == 1);
        for j in 0..=t.min(n / w) {
            if t - j + w * j > n {
                continue;
            }
            let left = n - t - (w - 1) * j;
            cur[j] = if left == 0 {
                target(j as u64)
            } else {
                let a = next[j];
                let b = left >= w && next[j + 1];
                if forcer_moves { a || b } else { a && (left < w || b) }
            };
        }
        std::mem::swap(&mut next, &mut cur);
    }
    next[0]
}

#[cfg(test)]
pub(crate) mod brute {
    //! The second, simpler solver: recursion with a hash map, the moves written as a table of
    //! (pieces taken, pieces given) per column, not by [`super::Rules::apply`].
    use std::collections::HashMap;

    /// The moves on `cols` columns with or without a black hole, as (take, give) vectors.
    pub fn moves(cols: usize, hole: bool) -> Vec<(Vec<u32>, Vec<u32>)> {
        let mut out = Vec::new();
        let vec_with = |items: &[(usize, u32)]| {
            let mut v = vec![0u32; cols + 3];
            for &(i, c) in items {
                v[i] += c;
            }
            v
        };
        // Columns 1-based here: index i stands for F_i (index 0 unused).
        out.push((vec_with(&[(1, 2)]), vec_with(&[(2, 1)])));
        for i in 1..cols {
            out.push((vec_with(&[(i, 1), (i + 1, 1)]), vec_with(&[(i + 2, 1)])));
        }
        if cols >= 2 {
            out.push((vec_with(&[(2, 2)]), vec_with(&[(1, 1), (3, 1)])));
        }
        for i in 3..=cols {
            out.push((vec_with(&[(i, 2)]), vec_with(&[(i - 2, 1), (i + 1, 1)])));
        }
        if !hole {
            out.retain(|(_, give)| give[cols + 1..].iter().all(|&g| g == 0));
        }
        out
    }

    /// Whether the player to move wins `p` (1-based: `p[i]` pieces on `F_i`, `p[0] = 0`).
    pub fn wins(p: &[u32], cols: usize, hole: bool, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        if let Some(&w) = memo.get(p) {
            return w;
        }
        let mut w = false;
        for (take, give) in moves(cols, hole) {
            if (1..=cols).all(|i| p[i] >= take[i]) {
                let mut q = p.to_vec();
                for i in 1..=cols {
                    q[i] = q[i] - take[i] + give[i];
                }
                if !wins(&q, cols, hole, memo) {
                    w = true;
                    break;
                }
            }
        }
        memo.insert(p.to_vec(), w);
        w
    }

    /// The empty-board game by plain recursion over (pile left, board), with the player to
    /// move winning or not.
    pub(crate) fn empty_board_first_wins(m: usize, n: u64) -> bool {
        fn go(m: usize, left: u64, a: u32, c: u32, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
            if left == 0 {
                let cols = m - 1;
                let mut p = vec![0u32; cols + 3];
                p[1] += a;
                p[cols] += c;
                return wins(&p, cols, true, memo);
            }
            let w = super::fib::weight(m - 1);
            let mut opts = vec![(left - 1, a + 1, c)];
            if m > 2 && left >= w {
                opts.push((left - w, a, c + 1));
            }
            opts.into_iter().any(|(l, a, c)| !go(m, l, a, c, memo))
        }
        go(m, n, 0, 0, &mut HashMap::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn counts(v: &[u32]) -> Counts {
        let mut p = [0u32; MAX_COLUMNS];
        p[..v.len()].copy_from_slice(v);
        p
    }

    #[test]
    fn ranks_are_dense_and_distinct() {
        let s = Space::new(4, 3, 40);
        let mut seen = vec![false; s.len() as usize];
        for v in 3..=40 {
            let mut last = None;
            s.for_each_of_value(v, &mut |p| {
                let r = s.rank(p, v);
                assert!(!seen[r]);
                seen[r] = true;
                assert!(last.is_none_or(|l| r == l + 1), "enumeration order is rank order");
                last = Some(r);
            });
        }
        assert!(seen.iter().all(|&b| b));
    }

    #[test]
    fn black_hole_positions_agree_with_brute_force() {
        for m in 2..=5usize {
            let cols = m - 1;
            let mut s = Solver::new(Rules::black_hole(m), 0, 24);
            let mut memo = HashMap::new();
            let sp = s.space().clone();
            for v in 0..=24 {
                sp.for_each_of_value(v, &mut |p| {
                    let mut q = vec![0u32; cols + 3];
                    q[1..=cols].copy_from_slice(&p[..cols]);
                    assert_eq!(
                        s.wins(p),
                        brute::wins(&q, cols, true, &mut memo),
                        "m = {m}, {:?}",
                        &p[..cols]
                    );
                });
            }
        }
    }

    #[test]
    fn original_game_agrees_with_brute_force() {
        for n in 1..=28u64 {
            let rules = Rules::original(n);
            let cols = rules.columns;
            let mut s = Solver::new(rules, n, n);
            let mut memo = HashMap::new();
            let sp = s.space().clone();
            sp.for_each_of_value(n, &mut |p| {
                let mut q = vec![0u32; cols + 3];
                q[1..=cols].copy_from_slice(&p[..cols]);
                assert_eq!(s.wins(p), brute::wins(&q, cols, false, &mut memo), "n = {n}, {:?}", &p[..cols]);
            });
        }
    }

    /// Baird-Smith, Epstein, Flint and Miller (quoted in the black-hole paper's abstract and
    /// §1.1): Player 2 wins for every n != 2.
    #[test]
    fn player_two_wins_the_original_game_except_at_two() {
        for row in original_range(40, false) {
            assert_eq!(row.winner, if row.n == 2 { 1 } else { 2 }, "n = {}", row.n);
        }
    }

    #[test]
    fn empty_board_agrees_with_brute_force() {
        for m in 2..=5usize {
            let e = empty_board(m, 30);
            for n in 1..=30u64 {
                let want = if brute::empty_board_first_wins(m, n) { 1 } else { 2 };
                assert_eq!(e.winners[n as usize - 1], want, "m = {m}, n = {n}");
            }
        }
    }

    /// Black-hole paper Theorem 5.1 and Appendix A: (a, 0, 0) is P for a != 2; Corollary 5.4:
    /// (1, 0, 3) is N and (1, 0, c) P otherwise; Theorem 3.1: (a) is P iff a = 0, 1 mod 4.
    #[test]
    fn known_positions_of_the_paper() {
        let mut s = Solver::new(Rules::black_hole(4), 0, 60);
        for a in 0..=40u32 {
            assert_eq!(s.wins(&counts(&[a, 0, 0])), a == 2, "({a}, 0, 0)");
        }
        for c in 0..=15u32 {
            assert_eq!(s.wins(&counts(&[1, 0, c])), c == 3, "(1, 0, {c})");
        }
        let mut s2 = Solver::new(Rules::black_hole(2), 0, 40);
        for a in 0..=40u32 {
            assert_eq!(s2.wins(&counts(&[a])), a % 4 >= 2, "({a})");
        }
    }

    /// Black-hole paper Theorem 5.19: the empty-board F_4 game, n = 1..=64.
    #[test]
    fn empty_board_f4_theorem_5_19() {
        let e = empty_board(4, 64);
        for n in 1..=64u64 {
            let p2 = [0, 2, 4, 6, 9, 11, 13].contains(&(n % 16));
            let mut want = if p2 { 2 } else { 1 };
            if [2, 32, 17, 47].contains(&n) {
                want = 3 - want;
            }
            assert_eq!(e.winners[n as usize - 1], want, "n = {n}");
        }
    }

    #[test]
    fn placing_phase_bits_agrees_with_the_plain_one() {
        // Pseudo-random setup outcomes, every outer weight of the boards up to F_6.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for w in [2u64, 3, 5, 8] {
            for n in 1..=400u64 {
                let mut b = BitSet::new((n / w) as usize + 1);
                for j in 0..=(n / w) as usize {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x & 1 == 1 {
                        b.set(j);
                    }
                }
                let plain = placing_phase(n, w, false, &|j| b.get(j as usize));
                assert_eq!(placing_phase_bits(n, w, &b), plain, "w = {w}, n = {n}");
            }
        }
    }

    #[test]
    fn forcing_the_placing_phase() {
        // Theorem 4.7 (1): for n = 3, 6, 12, 15 (= +-3 mod 9) Player 1 can force (n/3, n/3).
        for n in [3u64, 6, 12, 15, 21, 24] {
            assert!(can_force(n, 2, 1, &|j| j == n / 3), "n = {n}");
        }
        // Nobody can force an impossible setup.
        assert!(!can_force(10, 3, 1, &|_| false));
    }
}
