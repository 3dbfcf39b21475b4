//! The branches as the rows stream by: [`Grouper`] takes the upper positions in order of `y`,
//! then `x`, and keeps of them only what [`super::group`]'s grouping and measurements read, so
//! that its memory does not grow with the rows (`docs/small-k.md`, "Branches in bounded memory").
//!
//! The grouping reads of an octave's positions only their values `v = ln(y / x)`: the top
//! octave is cut where two neighbours of the sorted values differ by more than the gap `g`,
//! and in every octave below, a position joins the branch whose centre is nearest its `v`
//! if it lies within that branch's spread plus `g`. So an octave's positions can be kept as
//! *bins* of `v`, `[i e, (i + 1) e)` with `e = g / 16`, each with its least and largest `v`, its
//! count, and per measurement window it meets the exact sums of the least-squares fit and the
//! convex hull of its positions ([`super::fit`]): no two values of a bin are a gap apart, so
//! the top octave's cuts fall between bins, at the same values; below, a bin joins one branch
//! as a whole unless a boundary of the rule (a midpoint between two centres, or the end of a
//! branch's reach) lies between its least and its largest value. The octaves with at most
//! [`RAW_BUDGET`] positions (the lowest, where the branches are young and wide) keep their
//! positions as they are. Where a boundary cuts a bin, [`Grouper::finish`] says so (`None`) and
//! the caller groups the list instead ([`super::branches`]); at the survey's sizes no bin is
//! cut.

use super::fit::{Hull, Sums};
use super::group::{Branches, Counts, Found1, Settings, assemble, measurement, windows};
use std::collections::BTreeMap;

/// The most positions an octave keeps as a list before it keeps bins.
pub const RAW_BUDGET: usize = 1 << 20;

/// Bins per gap.
const BINS_PER_GAP: f64 = 16.0;

/// A bin of `v = ln(y / x)` of one octave.
#[derive(Debug, Clone)]
struct Bin {
    min: f64,
    max: f64,
    count: u64,
    /// Per measurement window the bin meets: its index, the sums and the hull.
    windows: Vec<(usize, Sums, Hull)>,
}

/// An octave's positions: as they are, or in bins by `floor(v / e)`.
#[derive(Debug, Clone)]
enum Store {
    Raw(Vec<(u32, u32)>),
    Binned(BTreeMap<i64, Bin>),
}

/// One item of an octave for the grouping: a position, or a bin.
#[derive(Debug, Clone, Copy)]
struct Item {
    min: f64,
    max: f64,
    count: u64,
}

/// The grouping and the measurements of [`super::group`], fed one upper position at a time.
#[derive(Debug, Clone)]
pub struct Grouper {
    rows: u32,
    settings: Settings,
    /// `[lo, hi)` from the top, as in [`super::group`].
    octaves: Vec<(u32, u32)>,
    /// The bin width of each octave.
    widths: Vec<f64>,
    stores: Vec<Store>,
    /// The measurement windows `(y, y / 2)`.
    windows: Vec<(u64, u64)>,
    /// The octave of the last position.
    at: usize,
    upper: u64,
    on_column_zero: u64,
    early: u64,
    budget: usize,
}

/// `ln(y / x)`, as [`super::group`] takes it.
#[inline]
fn lr(x: u32, y: u32) -> f64 {
    (f64::from(y) / f64::from(x)).ln()
}

impl Grouper {
    /// A grouper for the upper positions of rows `0..rows`.
    pub fn new(rows: u32, settings: &Settings) -> Self {
        Self::with_budget(rows, settings, RAW_BUDGET)
    }

    /// [`new`](Self::new) with `budget` positions an octave keeps as a list (the tests use
    /// small ones to exercise the bins).
    pub fn with_budget(rows: u32, settings: &Settings, budget: usize) -> Self {
        let octaves = super::group::octaves(rows, settings);
        let widths = octaves.iter().map(|&(_, hi)| super::group::gap(settings, hi) / BINS_PER_GAP).collect();
        let n = octaves.len();
        Grouper {
            rows,
            settings: *settings,
            at: n.saturating_sub(1),
            octaves,
            widths,
            stores: vec![Store::Raw(Vec::new()); n],
            windows: windows(rows),
            upper: 0,
            on_column_zero: 0,
            early: 0,
            budget,
        }
    }

    /// Takes the upper position `(x, y)` (`x <= y`); positions come in order of `y`, then `x`.
    #[inline]
    pub fn take(&mut self, x: u32, y: u32) {
        debug_assert!(x <= y);
        self.upper += 1;
        if x == 0 {
            self.on_column_zero += 1;
            return;
        }
        if y < self.settings.first_row {
            self.early += 1;
            return;
        }
        // Octaves run from the top; rows come from the bottom.
        while self.at > 0 && y >= self.octaves[self.at].1 {
            self.at -= 1;
        }
        let j = self.at;
        if !(self.octaves[j].0..self.octaves[j].1).contains(&y) {
            return;
        }
        match &mut self.stores[j] {
            Store::Raw(v) => {
                v.push((x, y));
                if v.len() > self.budget {
                    let pts = std::mem::take(v);
                    self.stores[j] = Store::Binned(BTreeMap::new());
                    for (x, y) in pts {
                        self.bin(j, x, y);
                    }
                }
            }
            Store::Binned(_) => self.bin(j, x, y),
        }
    }

    /// Puts `(x, y)` into its bin of octave `j`.
    fn bin(&mut self, j: usize, x: u32, y: u32) {
        let v = lr(x, y);
        let key = (v / self.widths[j]).floor() as i64;
        let Store::Binned(bins) = &mut self.stores[j] else { unreachable!("a binned octave") };
        let bin = bins.entry(key).or_insert(Bin { min: v, max: v, count: 0, windows: Vec::new() });
        bin.min = bin.min.min(v);
        bin.max = bin.max.max(v);
        bin.count += 1;
        for (w, &(wy, lo)) in self.windows.iter().enumerate() {
            if (lo..wy).contains(&u64::from(y)) {
                let y0 = y - lo as u32;
                let at = match bin.windows.iter().position(|e| e.0 == w) {
                    Some(i) => i,
                    None => {
                        bin.windows.push((w, Sums::default(), Hull::default()));
                        bin.windows.len() - 1
                    }
                };
                bin.windows[at].1.add(x, y0);
                bin.windows[at].2.add(x, y0);
            }
        }
    }

    /// The bins kept, and the positions kept as they are.
    pub fn kept(&self) -> (usize, usize) {
        let (mut bins, mut raw) = (0, 0);
        for s in &self.stores {
            match s {
                Store::Raw(v) => raw += v.len(),
                Store::Binned(b) => bins += b.len(),
            }
        }
        (bins, raw)
    }

    /// The items of octave `j`, in increasing `v` (positions with equal `v` in their order).
    fn items(&self, j: usize) -> Vec<Item> {
        match &self.stores[j] {
            Store::Raw(v) => {
                let mut items: Vec<Item> = v
                    .iter()
                    .map(|&(x, y)| {
                        let v = lr(x, y);
                        Item { min: v, max: v, count: 1 }
                    })
                    .collect();
                items.sort_by(|a, b| a.min.total_cmp(&b.min));
                items
            }
            Store::Binned(bins) => {
                bins.values().map(|b| Item { min: b.min, max: b.max, count: b.count }).collect()
            }
        }
    }

    /// The branches, as [`super::group`] finds them from the same positions; `None` where a
    /// boundary of the grouping falls inside a bin.
    pub fn finish(&self) -> Option<Branches> {
        let settings = &self.settings;
        let gap = |j: usize| super::group::gap(settings, self.octaves[j].1);
        // The branch of every item of every octave, as the items of `items` come.
        let mut member: Vec<Vec<Option<usize>>> = Vec::with_capacity(self.octaves.len());
        let mut state: Vec<Option<(f64, f64)>> = Vec::new();
        let mut from_row: Vec<u32> = Vec::new();
        if !self.octaves.is_empty() {
            let items = self.items(0);
            let g = gap(0);
            let mut m = vec![None; items.len()];
            let mut start = 0;
            for end in 1..=items.len() {
                if end == items.len() || items[end].min - items[end - 1].max > g {
                    let grp = &items[start..end];
                    if grp.iter().map(|i| i.count).sum::<u64>() >= settings.min_points as u64 {
                        let b = state.len();
                        m[start..end].fill(Some(b));
                        let (lo, hi) = (grp[0].min, grp[grp.len() - 1].max);
                        state.push(Some(((lo + hi) / 2.0, (hi - lo) / 2.0)));
                        from_row.push(self.octaves[0].0);
                    }
                    start = end;
                }
            }
            member.push(m);
        }
        for j in 1..self.octaves.len() {
            let g = gap(j);
            let items = self.items(j);
            let near = |v: f64| {
                state
                    .iter()
                    .enumerate()
                    .filter_map(|(b, s)| s.map(|(c, w)| (b, (v - c).abs(), w)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .and_then(|(b, d, w)| (d <= w + g).then_some(b))
            };
            // The rule's boundaries: the ends of each branch's reach and the midpoints between
            // centres.
            let live: Vec<(f64, f64)> = state.iter().flatten().copied().collect();
            let mut bounds: Vec<f64> = live.iter().flat_map(|&(c, w)| [c - (w + g), c + (w + g)]).collect();
            for (i, a) in live.iter().enumerate() {
                bounds.extend(live[i + 1..].iter().map(|b| (a.0 + b.0) / 2.0));
            }
            let mut range: Vec<Option<(f64, f64)>> = vec![None; state.len()];
            let mut m = Vec::with_capacity(items.len());
            for it in &items {
                let b = near(it.min);
                if it.max > it.min {
                    let margin = 1e-12 * (1.0 + it.max.abs());
                    if near(it.max) != b
                        || bounds.iter().any(|&p| p >= it.min - margin && p <= it.max + margin)
                    {
                        return None;
                    }
                }
                if let Some(b) = b {
                    let r = range[b].get_or_insert((it.min, it.max));
                    *r = (r.0.min(it.min), r.1.max(it.max));
                }
                m.push(b);
            }
            for (b, r) in range.iter().enumerate() {
                state[b] = r.map(|(lo, hi)| ((lo + hi) / 2.0, (hi - lo) / 2.0));
                if r.is_some() {
                    from_row[b] = self.octaves[j].0;
                }
            }
            member.push(m);
        }
        // The branches' counts, sums and extremes.
        let nb = from_row.len();
        let nw = self.windows.len();
        let mut positions = vec![0u64; nb];
        let mut in_top = vec![0u64; nb];
        let mut sums = vec![vec![Sums::default(); nw]; nb];
        let mut extremes: Vec<Vec<Vec<(u32, u32)>>> = vec![vec![Vec::new(); nw]; nb];
        for (j, store) in self.stores.iter().enumerate() {
            match store {
                Store::Raw(pts) => {
                    // `items` sorted them by `v`; the branch is a function of `v` alone.
                    let mut by_v: Vec<(f64, usize)> = pts.iter().map(|&(x, y)| lr(x, y)).zip(0..).collect();
                    by_v.sort_by(|a, b| a.0.total_cmp(&b.0));
                    for (&(_, i), &b) in by_v.iter().zip(&member[j]) {
                        let Some(b) = b else { continue };
                        let (x, y) = pts[i];
                        positions[b] += 1;
                        in_top[b] += u64::from(j == 0);
                        for (w, &(wy, lo)) in self.windows.iter().enumerate() {
                            if (lo..wy).contains(&u64::from(y)) {
                                sums[b][w].add(x, y - lo as u32);
                                extremes[b][w].push((x, y - lo as u32));
                            }
                        }
                    }
                }
                Store::Binned(bins) => {
                    for (bin, &b) in bins.values().zip(&member[j]) {
                        let Some(b) = b else { continue };
                        positions[b] += bin.count;
                        in_top[b] += if j == 0 { bin.count } else { 0 };
                        for (w, s, h) in &bin.windows {
                            sums[b][*w].merge(s);
                            extremes[b][*w].extend(h.vertices());
                        }
                    }
                }
            }
        }
        let found = (0..nb)
            .map(|b| Found1 {
                positions: positions[b],
                in_top: in_top[b],
                from_row: from_row[b],
                measurements: self
                    .windows
                    .iter()
                    .enumerate()
                    .filter_map(|(w, &(y, _))| measurement(y, &sums[b][w], extremes[b][w].iter().copied()))
                    .collect(),
            })
            .collect();
        let counts = Counts { upper: self.upper, on_column_zero: self.on_column_zero, early: self.early };
        let top = self.octaves.first().copied().unwrap_or((0, 1));
        Some(assemble(self.rows, settings, top, counts, found).0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::group::group;
    use super::*;
    use crate::analysis::positions::{Method, positions};
    use crate::engine::{EngineOptions, Silent};

    /// The upper positions of rows `0..rows` of game `k`.
    fn upper(k: u32, rows: u32) -> Vec<(u32, u32)> {
        let mut pts = Vec::new();
        let mut keep = |x, y| {
            if x <= y {
                pts.push((x, y));
            }
            Ok(())
        };
        positions(k, rows, None, Method::Lines, &EngineOptions::default(), &mut keep, &Silent).unwrap();
        pts
    }

    fn streamed(rows: u32, pts: &[(u32, u32)], settings: &Settings, budget: usize) -> Option<Branches> {
        let mut g = Grouper::with_budget(rows, settings, budget);
        for &(x, y) in pts {
            g.take(x, y);
        }
        g.finish()
    }

    #[test]
    fn the_stream_equals_the_list() {
        // Every game k = 1..40 on row counts around the decades and octaves, with every
        // octave binned (budget 0), the lowest listed (budget 256) and all listed: the report
        // is the list's, bit for bit, wherever the bins settle the grouping (in the lowest
        // rows, where the branches are young and wide, a bin may be cut: then the caller
        // groups the list).
        let settings = Settings::default();
        let (mut settled, mut tried) = (0, 0);
        for k in 1..=40u32 {
            let all = upper(k, 24_000);
            for rows in [10, 17, 100, 999, 1000, 1500, 4096, 15_000, 24_000] {
                let pts: Vec<(u32, u32)> = all.iter().copied().filter(|&(_, y)| y < rows).collect();
                let (want, _) = group(rows, &pts, &settings);
                for budget in [0, 256, usize::MAX] {
                    let got = streamed(rows, &pts, &settings, budget);
                    tried += 1;
                    match got {
                        Some(got) => {
                            settled += 1;
                            assert_eq!(got, want, "k = {k}, rows {rows}, budget {budget}");
                        }
                        None => assert_ne!(budget, usize::MAX, "k = {k}, rows {rows}: nothing binned"),
                    }
                }
            }
        }
        eprintln!("{settled} of {tried} settled");
        assert!(settled * 3 > tried * 2, "{settled} of {tried}");
    }

    #[test]
    fn bins_are_few_on_a_long_run() {
        // Game 7 on 200000 rows with its octaves binned from 4096 positions on: a few bins
        // per branch and octave, and the list's report.
        let rows = 200_000;
        let pts = upper(7, rows);
        let settings = Settings::default();
        let mut g = Grouper::with_budget(rows, &settings, 4096);
        for &(x, y) in &pts {
            g.take(x, y);
        }
        let (bins, raw) = g.kept();
        assert!(bins < 2000 && raw < 3 * 4096, "{bins} bins, {raw} positions");
        assert_eq!(g.finish().unwrap(), group(rows, &pts, &settings).0);
    }
}
