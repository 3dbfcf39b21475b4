//! What the skin's columns say: the levels of the skin and where each begins ([`SkinReport`]),
//! found from the columns by [`analyse`], and the CSV of the columns.

use super::pattern::{self, PatternMeasures};
use super::state::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// One level of the skin as measured.
#[derive(Debug, Clone, Serialize)]
pub struct Level {
    /// The level n.
    pub n: usize,
    /// First column from which the level holds for two horizontal periods.
    pub begins_at: u64,
    /// Columns measured at this level (up to the next level or `--to`).
    pub columns: u64,
    /// Vertical thicknesses seen and how often.
    pub vertical: Vec<(u32, u64)>,
    /// Most common diagonal thickness (paper: f(2n+1)), over the level's columns but its lines.
    pub diagonal: Option<u32>,
    /// Every diagonal thickness over the level's regular columns (vertical thickness `f(2n)`,
    /// not the lines) and how often (claim 19 as a distribution).
    pub diagonals: Vec<(u32, u64)>,
    /// Most common horizontal thickness (paper: f(2n+2)).
    pub horizontal: Option<u32>,
    /// Every horizontal thickness over the rows whose last skin column is a regular column of
    /// the level, and how often. In such a row the palaces left of the skin number exactly
    /// `k` minus this thickness: the outer-space cell right of the skin has `N = k` and sees
    /// no palace north or north-west (the paper's `k - f(2n+3)`, claim 35).
    pub horizontals: Vec<(u32, u64)>,
    /// Most common distance between emitted lines (paper: f(2n+3)).
    pub horizontal_period: Option<u64>,
    /// Most common descent of the top over one horizontal period (paper: f(2n+1)).
    pub vertical_period: Option<u64>,
    /// Least-squares slope of the top against the column (paper: tends to 1/phi^2).
    pub slope: Option<f64>,
    /// Whether every step of the outer boundary is 2 or 3 columns wide (over the level's
    /// longest stretch of regular columns).
    pub steps_2_or_3: bool,
    /// Whether the steps repeat the word `2` expanded n times by `2 -> 23, 3 -> 233`.
    pub step_word_matches: bool,
    /// The step word expected at this level.
    pub step_word: String,
    /// The paper's values for this level: vertical f(2n), diagonal f(2n+1), horizontal f(2n+2),
    /// horizontal period f(2n+3), vertical period f(2n+1).
    pub paper: [u64; 5],
    /// The level's longest stretch of regular columns (vertical thickness `f(2n)` or
    /// `f(2n) + 1`): columns `[from, to)`, over which the steps and the pattern are measured.
    pub regular: (u64, u64),
    /// The pattern of `k - 2` and `k - 1` over the level's regular stretch (symmetry, expansion
    /// from the level below), when the columns' patterns were recorded.
    pub pattern: Option<PatternMeasures>,
}

/// The result of `palace skin`.
#[derive(Debug, Clone, Serialize)]
pub struct SkinReport {
    /// The game.
    pub k: u32,
    /// Last column followed (exclusive).
    pub to: u64,
    /// Rows read.
    pub rows: u32,
    /// Cells left of the boundary over those rows: the cells the skin needs (the sweep's own
    /// figures, which depend on its tiling, go to the engine's report).
    pub cells_needed: u64,
    /// The levels seen, in order.
    pub levels: Vec<Level>,
    /// Columns whose vertical thickness matches no level (transitions).
    pub irregular_columns: u64,
    /// The skin's cells (those of the vertical runs, from each column's top down) by value
    /// `v`, ascending: the paper (§3.4) says they hold palace numbers `k - 2` and `k - 1`, that
    /// is `v = -2` and `-1`.
    pub skin_values: Vec<(i8, u64)>,
    /// The first skin cell (row by row) of each value other than -1 and -2: `(v, x, y)`.
    pub skin_others: Vec<(i8, u64, u32)>,
    /// With `--pattern`: the cells of the horizontal and diagonal runs outside every vertical
    /// run, by value `v`, ascending (each cell once). With the vertical runs' cells they are
    /// every cell of every run the report measures.
    pub outside_values: Option<Vec<(i8, u64)>>,
}

pub(super) fn mode<T: Ord + Copy>(it: impl Iterator<Item = T>) -> Option<T> {
    let mut m = BTreeMap::new();
    for v in it {
        *m.entry(v).or_insert(0u64) += 1;
    }
    m.into_iter().max_by_key(|&(v, c)| (c, std::cmp::Reverse(v))).map(|(v, _)| v)
}

/// The levels of a complete skin and their measures.
pub fn analyse(s: &SkinState) -> SkinReport {
    let (k, to) = (s.k as u32, s.to);
    let cols = &s.cols;
    let levels_of: Vec<Option<usize>> = cols.iter().map(|c| level_of_thickness(c.vertical)).collect();
    // Where each level starts holding for two horizontal periods.
    let mut starts: Vec<(usize, usize)> = Vec::new(); // (n, column index)
    let mut i = 0;
    while i < cols.len() {
        if let Some(n) = levels_of[i] {
            let need = 2 * fib(2 * n + 3) as usize;
            // A level already begun needs no second look (checked first: the scan costs `need`
            // per column).
            let new_level = starts.last().is_none_or(|&(m, _)| m != n);
            let stable =
                new_level && i + need <= cols.len() && levels_of[i..i + need].iter().all(|&l| l == Some(n));
            if stable {
                starts.push((n, i));
                i += need;
                continue;
            }
        }
        i += 1;
    }
    let mut levels: Vec<Level> = Vec::new();
    let mut cores: Vec<(usize, (usize, usize))> = Vec::new();
    for (li, &(n, a)) in starts.iter().enumerate() {
        let b = starts.get(li + 1).map_or(cols.len(), |&(_, b)| b);
        let seg = &cols[a..b];
        let mut vert = BTreeMap::new();
        for c in seg {
            *vert.entry(c.vertical).or_insert(0u64) += 1;
        }
        let line = fib(2 * n) as u32 + 1;
        let lines: Vec<&Column> = seg.iter().filter(|c| c.vertical == line).collect();
        let hp = mode(lines.windows(2).map(|w| w[1].x - w[0].x));
        let vp = hp.and_then(|p| {
            mode(seg.iter().zip(seg.iter().skip(p as usize)).map(|(c, d)| u64::from(d.top - c.top)))
        });
        let (sx, sy) = (seg[0].x as f64, f64::from(seg[0].top));
        let (mut sxx, mut sxy) = (0.0, 0.0);
        for c in seg {
            let (dx, dy) = (c.x as f64 - sx, f64::from(c.top) - sy);
            sxx += dx * dx;
            sxy += dx * dy;
        }
        let slope = (sxx > 0.0).then(|| sxy / sxx);
        // Steps: widths of the runs of equal top rows, over the level's longest stretch of
        // regular columns (the thickening itself is irregular), whole runs only.
        let core = {
            let lv = &levels_of[a..b];
            let (mut best, mut cur) = ((0, 0), 0);
            for (j, l) in lv.iter().enumerate() {
                if *l == Some(n) {
                    cur += 1;
                    if cur > best.1 - best.0 {
                        best = (j + 1 - cur, j + 1);
                    }
                } else {
                    cur = 0;
                }
            }
            cores.push((n, (a + best.0, a + best.1)));
            &seg[best.0..best.1]
        };
        let mut widths = Vec::new();
        let mut run = 1u64;
        for w in core.windows(2) {
            if w[1].top == w[0].top {
                run += 1;
            } else {
                widths.push(run);
                run = 1;
            }
        }
        let inner = if widths.len() > 2 { &widths[1..widths.len() - 1] } else { &[][..] };
        let steps_ok = !inner.is_empty() && inner.iter().all(|&w| w == 2 || w == 3);
        let word: Vec<u64> = step_word(n).iter().map(|&s| u64::from(s)).collect();
        let word_ok = steps_ok
            && inner.len() >= word.len()
            && (0..word.len())
                .any(|phase| inner.iter().enumerate().all(|(j, &w)| w == word[(j + phase) % word.len()]));
        let (ya, yb) = (seg[0].x, seg[seg.len() - 1].x);
        let horizontal =
            mode(s.horizontal.iter().filter(|&&(_, bx, _)| bx >= ya && bx <= yb).map(|&(_, _, r)| r));
        let regular =
            |x: u64| x.checked_sub(s.k).is_some_and(|i| levels_of.get(i as usize) == Some(&Some(n)));
        let mut diagonals = BTreeMap::new();
        // Not the columns whose diagonal run the end of the run at `to` cut short.
        for c in
            seg.iter().filter(|c| u64::from(c.vertical) == fib(2 * n) && c.x + u64::from(c.diagonal) < to)
        {
            *diagonals.entry(c.diagonal).or_insert(0u64) += 1;
        }
        let mut horizontals = BTreeMap::new();
        for &(_, _, r) in s.horizontal.iter().filter(|&&(_, bx, _)| bx > ya && bx <= yb && regular(bx - 1)) {
            *horizontals.entry(r).or_insert(0u64) += 1;
        }
        let pattern = s.patterns.as_deref().map(|p| {
            let (_, core) = *cores.last().expect("pushed above");
            let below = cores.len().checked_sub(2).map(|j| cores[j]).filter(|&(m, _)| m + 1 == n);
            pattern::measure(cols, p, n, core, below)
        });
        levels.push(Level {
            n,
            begins_at: cols[a].x,
            columns: seg.len() as u64,
            vertical: vert.into_iter().collect(),
            diagonal: mode(seg.iter().filter(|c| c.vertical != line).map(|c| c.diagonal)),
            diagonals: diagonals.into_iter().collect(),
            horizontal,
            horizontals: horizontals.into_iter().collect(),
            horizontal_period: hp,
            vertical_period: vp,
            slope,
            steps_2_or_3: steps_ok,
            step_word_matches: word_ok,
            step_word: word.iter().map(|d| d.to_string()).collect(),
            paper: [fib(2 * n), fib(2 * n + 1), fib(2 * n + 2), fib(2 * n + 3), fib(2 * n + 1)],
            regular: {
                let (_, (ca, cb)) = *cores.last().expect("pushed above");
                (cols[ca].x, cols[ca].x + (cb - ca) as u64)
            },
            pattern,
        });
    }
    let irregular = levels_of.iter().filter(|l| l.is_none()).count() as u64;
    let skin_values =
        (0..256usize).filter(|&i| s.values[i] > 0).map(|i| ((i as i16 - 128) as i8, s.values[i])).collect();
    SkinReport {
        k,
        to,
        rows: s.rows,
        cells_needed: s.needed,
        levels,
        irregular_columns: irregular,
        skin_values,
        skin_others: s.others.clone(),
        outside_values: s.patterns.as_ref().map(|_| {
            (0..256usize)
                .filter(|&i| s.outside[i] > 0)
                .map(|i| ((i as i16 - 128) as i8, s.outside[i]))
                .collect()
        }),
    }
}

/// Writes the per-column measurements as CSV.
pub fn write_csv(cols: &[Column], out: &mut impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
    w.write_all(b"x,top,top_v,vertical,diagonal,level\n")?;
    for c in cols {
        write!(w, "{},{},{},{},{},", c.x, c.top, c.top_v, c.vertical, c.diagonal)?;
        match level_of_thickness(c.vertical) {
            Some(n) => writeln!(w, "{n}")?,
            None => writeln!(w)?,
        }
    }
    w.flush()
}

impl std::fmt::Display for SkinReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "skin of the upper arm, k = {}, from the shoulder ({}, 0) to column {} ({} rows, {} cells below outer space)",
            self.k, self.k, self.to, self.rows, self.cells_needed
        )?;
        writeln!(
            f,
            "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  vertical thicknesses seen",
            "n",
            "begins at",
            "columns",
            "vert (paper)",
            "diagonal",
            "horizontal",
            "h period",
            "v period",
            "slope",
            "2/3",
            "word"
        )?;
        for l in &self.levels {
            let o = |v: Option<u64>, p: u64| v.map_or(format!("-/{p}"), |v| format!("{v}/{p}"));
            let vs: Vec<String> = l.vertical.iter().map(|(t, c)| format!("{t}:{c}")).collect();
            writeln!(
                f,
                "{:>3} {:>11} {:>9}  {:>12} {:>9} {:>10} {:>8} {:>8} {:>9}  {:<6} {:<6}  {}",
                l.n,
                l.begins_at,
                l.columns,
                format!("{}(+1)", l.paper[0]),
                o(l.diagonal.map(u64::from), l.paper[1]),
                o(l.horizontal.map(u64::from), l.paper[2]),
                o(l.horizontal_period, l.paper[3]),
                o(l.vertical_period, l.paper[4]),
                l.slope.map_or("-".into(), |s| format!("{s:.5}")),
                if l.steps_2_or_3 { "yes" } else { "no" },
                if l.step_word_matches { "yes" } else { "no" },
                vs.join(" ")
            )?;
        }
        writeln!(
            f,
            "(measured/paper; slope -> 1/phi^2 = {INV_PHI2:.5}; {} columns match no level)",
            self.irregular_columns
        )?;
        let dist = |d: &[(u32, u64)]| d.iter().map(|(t, c)| format!("{t}:{c}")).collect::<Vec<_>>().join(" ");
        for l in &self.levels {
            writeln!(
                f,
                "  n = {}: diagonal thicknesses (regular columns, not lines) {}; horizontal thicknesses (rows) {} (palaces left of the skin: k minus these; paper k - {})",
                l.n,
                dist(&l.diagonals),
                dist(&l.horizontals),
                fib(2 * l.n + 3)
            )?;
            if let Some(p) = &l.pattern {
                write!(
                    f,
                    "         periods {} ({} of {} columns, {} distinct); half-turn symmetric between the lines: shape {}, values {}, values with k-2 and k-1 exchanged {}",
                    p.periods,
                    p.full_periods,
                    l.paper[3],
                    p.distinct_periods,
                    p.symmetric_shape,
                    p.symmetric_values,
                    p.symmetric_exchanged
                )?;
                match &p.expansion {
                    Some(e) => writeln!(
                        f,
                        "; expansion matrices from n = {}: {} of {} steps reproduced, {} of the {} holding a line (alignment {})",
                        e.from, e.reproduced, e.steps, e.line_steps_reproduced, e.line_steps, e.alignment
                    )?,
                    None => writeln!(f)?,
                }
            }
        }
        let values: Vec<String> = self.skin_values.iter().map(|(v, n)| format!("{v}: {n}")).collect();
        writeln!(
            f,
            "skin cells (the vertical runs) by value v: {} (paper: palace numbers k-2 and k-1, v = -2 and -1)",
            values.join(", ")
        )?;
        if let Some(o) = &self.outside_values {
            let o: Vec<String> = o.iter().map(|(v, n)| format!("{v}: {n}")).collect();
            writeln!(
                f,
                "cells of the horizontal and diagonal runs outside the vertical runs, by value v: {}",
                if o.is_empty() { "none".to_string() } else { o.join(", ") }
            )?;
        }
        for &(v, x, y) in &self.skin_others {
            writeln!(
                f,
                "  the first skin cell with v = {v}: ({x}, {y}), column +{} past the shoulder",
                x - u64::from(self.k)
            )?;
        }
        Ok(())
    }
}
