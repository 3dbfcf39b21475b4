//! Fibonacci nim (Whinihan 1963): one pile of `n` coins; the first move takes 1 to `n - 1`
//! coins, every later move at most twice the previous one (the quota `q`); whoever takes the
//! last coin wins.
//!
//! A position is `(n, q)`: `n` coins left and at most `q` may be taken. It is solved by
//! exhaustive search, not by the Zeckendorf rule the texts state (that rule is checked against
//! the search in [`crate::games::claims`]). The search stores one number per pile size: the
//! options of `(n, q)` are a subset of those of `(n, q + 1)`, so the player to move wins
//! `(n, q)` exactly when `q` reaches a threshold `t(n)`, the smallest `k` such that taking `k`
//! leaves the opponent a lost position, that is `2k < t(n - k)` (with `t(0)` infinite: nobody
//! can move from an empty pile). Grundy values `G(n, q)`, which sums of piles need, are computed
//! row by row with a running minimum excludant.

use crate::error::Result;
use crate::games::watch::Watch;
use rayon::prelude::*;

/// Largest pile whose winning first moves are listed (listing the winning first moves takes about
/// N^2 / 6 steps).
pub const MAX_NIM_TO: u64 = 1_000_000;
/// Largest pile of the Grundy table (the table takes N^2 bytes).
pub const MAX_GRUNDY_TO: u64 = 30_000;

/// The threshold of an empty pile: no quota lets the player to move win.
pub const NEVER: u32 = u32::MAX;

/// The thresholds `t(0..=max_n)`: the player to move wins `(n, q)` exactly when `q >= t(n)`.
/// `t(0)` is [`NEVER`].
pub fn thresholds(max_n: usize) -> Vec<u32> {
    let mut t = vec![NEVER; max_n + 1];
    for n in 1..=max_n {
        // Taking every coin (k = n) always wins, so the scan ends by k = n.
        t[n] = (1..=n).find(|&k| 2 * k < t[n - k] as usize).expect("taking all wins") as u32;
    }
    t
}

/// Whether the player to move wins `(n, q)`, from the thresholds.
pub fn wins(t: &[u32], n: usize, q: usize) -> bool {
    n > 0 && q >= t[n] as usize
}

/// Who wins Fibonacci nim from the start for every pile `1..=to`, and with which first moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcomes {
    /// The largest pile solved.
    pub to: usize,
    /// The thresholds `t(0..=to)` (see [`thresholds`]).
    pub thresholds: Vec<u32>,
    /// `winning_moves[n]`: every first move (coins taken, `1..=n-1`) from a pile of `n` that
    /// wins; empty exactly when `n` is a P-position (the first player loses). Index 0 is unused.
    pub winning_moves: Vec<Vec<u32>>,
}

impl Outcomes {
    /// The piles `1..=to` from which the first player loses.
    pub fn p_positions(&self) -> Vec<u64> {
        (1..=self.to).filter(|&n| self.winning_moves[n].is_empty()).map(|n| n as u64).collect()
    }
}

/// Solves every pile `1..=to` from the start (quota `n - 1`), listing every winning first
/// move; the lists are found in parallel.
pub fn solve(to: usize) -> Outcomes {
    solve_watched(to, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`solve`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled; its progress counts piles.
pub fn solve_watched(to: usize, watch: &Watch<'_>) -> Result<Outcomes> {
    let t = thresholds(to);
    let progress = watch.progress();
    progress.set_length(to as u64 + 1);
    let winning_moves = (0..to + 1)
        .into_par_iter()
        .with_min_len(64)
        .map(|n| {
            watch.check()?;
            // Taking k leaves (n - k, 2k); k <= n - 1 on the first move. 2k < t(n - k) <= n - k
            // needs 3k < n, so larger k never win and are not looked at.
            let moves = (1..n.saturating_sub(1).min(n / 3) + 1)
                .filter(|&k| k < n && !wins(&t, n - k, 2 * k))
                .map(|k| k as u32)
                .collect();
            progress.inc(1);
            Ok(moves)
        })
        .collect::<Result<Vec<Vec<u32>>>>()?;
    Ok(Outcomes { to, thresholds: t, winning_moves })
}

/// The Grundy values `G(n, q)` for `1 <= n, q <= max`, stored as a triangle (`G(n, q)` for
/// `q >= n` equals `G(n, n)`: the quota cannot exceed the pile), two bytes an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrundyTable {
    /// The largest pile and quota.
    pub max: usize,
    /// Row `n` (quotas `1..=n`) starts at `n (n - 1) / 2`.
    values: Vec<u16>,
}

/// Largest `max` of [`grundy`]: every value is at most the number of options, and must fit 16
/// bits.
pub const MAX_GRUNDY: usize = u16::MAX as usize;

impl GrundyTable {
    /// `G(n, q)`, for `n >= 0`, `q >= 1`; `G(0, q) = 0` (no move).
    pub fn get(&self, n: usize, q: usize) -> u16 {
        if n == 0 {
            return 0;
        }
        let q = q.min(n);
        self.values[n * (n - 1) / 2 + q - 1]
    }

    /// The largest value in the table.
    pub fn max_value(&self) -> u16 {
        self.values.iter().copied().max().unwrap_or(0)
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.values.len() * 2
    }
}

/// Computes the Grundy values `G(n, q)`, `n, q <= max`:
/// `G(n, q) = mex { G(n - k, min(2k, n - k)) : 1 <= k <= min(q, n) }`. Row `n` needs the rows
/// below it only, and along the row the set of options grows by one per quota, so one running
/// mex per row suffices.
///
/// # Panics
/// If `max` exceeds [`MAX_GRUNDY`].
pub fn grundy(max: usize) -> GrundyTable {
    grundy_watched(max, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`grundy`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled; its progress counts rows `n`.
///
/// # Panics
/// If `max` exceeds [`MAX_GRUNDY`].
pub fn grundy_watched(max: usize, watch: &Watch<'_>) -> Result<GrundyTable> {
    assert!(max <= MAX_GRUNDY, "Grundy values are stored in 16 bits");
    watch.progress().set_length(max as u64);
    let mut values = vec![0u16; max * (max + 1) / 2];
    let mut seen = vec![false; max + 2];
    for n in 1..=max {
        if n.is_multiple_of(256) {
            watch.check()?;
            watch.progress().set_position(n as u64);
        }
        seen[..=n + 1].fill(false);
        let mut m = 0usize;
        let row = n * (n - 1) / 2;
        for k in 1..=n {
            let rest = n - k;
            let g =
                if rest == 0 { 0 } else { values[rest * (rest - 1) / 2 + (2 * k).min(rest) - 1] as usize };
            seen[g] = true;
            while seen[m] {
                m += 1;
            }
            values[row + k - 1] = m as u16;
        }
    }
    Ok(GrundyTable { max, values })
}

#[cfg(test)]
pub(crate) mod brute {
    //! The second, simpler solver the fast one is tested against: plain recursion over
    //! `(n, q)` with a memo, the rules read literally.
    use std::collections::HashMap;

    /// Whether the player to move wins `(n, q)`.
    pub fn wins(n: usize, q: usize, memo: &mut HashMap<(usize, usize), bool>) -> bool {
        if let Some(&w) = memo.get(&(n, q)) {
            return w;
        }
        let w = (1..=q.min(n)).any(|k| !wins(n - k, 2 * k, memo));
        memo.insert((n, q), w);
        w
    }

    /// `G(n, q)` with the options listed in full.
    pub fn grundy(n: usize, q: usize, memo: &mut HashMap<(usize, usize), u32>) -> u32 {
        if let Some(&g) = memo.get(&(n, q)) {
            return g;
        }
        let opts: Vec<u32> = (1..=q.min(n)).map(|k| grundy(n - k, 2 * k, memo)).collect();
        let g = super::super::fib::mex(opts);
        memo.insert((n, q), g);
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn thresholds_agree_with_brute_force() {
        let t = thresholds(80);
        let mut memo = HashMap::new();
        for n in 0..=80 {
            for q in 1..=90 {
                assert_eq!(wins(&t, n, q), brute::wins(n, q, &mut memo), "({n}, {q})");
            }
        }
    }

    #[test]
    fn winning_first_moves_agree_with_brute_force() {
        let o = solve(120);
        let mut memo = HashMap::new();
        for n in 1..=120usize {
            let want: Vec<u32> =
                (1..n).filter(|&k| !brute::wins(n - k, 2 * k, &mut memo)).map(|k| k as u32).collect();
            assert_eq!(o.winning_moves[n], want, "n = {n}");
        }
    }

    #[test]
    fn grundy_agrees_with_brute_force() {
        let g = grundy(60);
        let mut memo = HashMap::new();
        for n in 0..=60 {
            for q in 1..=60 {
                assert_eq!(u32::from(g.get(n, q)), brute::grundy(n, q, &mut memo), "G({n}, {q})");
            }
        }
    }

    /// Fibonacci nim notes: the first player loses exactly from Fibonacci numbers; from 10 coins
    /// (Zeckendorf 8 + 2) taking 2 wins.
    #[test]
    fn known_answers_of_the_notes() {
        let o = solve(100);
        assert_eq!(o.p_positions(), [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]);
        assert!(o.winning_moves[10].contains(&2));
        // Zero Grundy values are the lost positions.
        let g = grundy(100);
        for n in 1..=100 {
            for q in 1..=100 {
                assert_eq!(g.get(n, q) == 0, !wins(&o.thresholds, n, q));
            }
        }
    }
}
