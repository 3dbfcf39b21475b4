//! Statistics of a window, gathered as a [`RowSink`]: cell and palace counts, the histogram
//! of `v` outside the hood, and the extreme values with the first cell (in row-major order)
//! where each occurs, for the whole window split into the hood and the rest.

use crate::error::Result;
use crate::geometry::Window;
use crate::rule::hood_value;
use crate::sink::{Row, RowSink};
use serde::Serialize;
use std::fmt;

/// An extreme value and the first cell (row-major) where it occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Extreme {
    /// The value `v`.
    pub v: i64,
    /// Column of its first occurrence.
    pub x: u64,
    /// Row of its first occurrence.
    pub y: u64,
}

/// Counts and extremes of one part of the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Part {
    /// Cells in this part.
    pub cells: u64,
    /// Palaces (`v < 0`) in this part.
    pub palaces: u64,
    /// Smallest `v` and where it first occurs.
    pub min: Option<Extreme>,
    /// Largest `v` and where it first occurs.
    pub max: Option<Extreme>,
}

impl Part {
    fn see_min(&mut self, v: i64, x: u64, y: u64) {
        if self.min.is_none_or(|m| v < m.v) {
            self.min = Some(Extreme { v, x, y });
        }
    }
    fn see_max(&mut self, v: i64, x: u64, y: u64) {
        if self.max.is_none_or(|m| v > m.v) {
            self.max = Some(Extreme { v, x, y });
        }
    }
}

/// Statistics of a window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// The game.
    pub k: u32,
    /// The window.
    pub window: [u32; 4],
    /// The whole window.
    pub total: Part,
    /// The hood (closed form) part of the window.
    pub hood: Part,
    /// Everything outside the hood.
    pub rest: Part,
    /// `(v, count)` for every `v` that occurs outside the hood, ascending.
    pub histogram: Vec<(i64, u64)>,
}

/// The statistics sink.
pub struct StatsSink {
    k: u32,
    window: Window,
    hist: Box<[u64; 256]>,
    hood: Part,
    rest_min: Option<Extreme>,
    rest_max: Option<Extreme>,
}

impl StatsSink {
    /// Empty statistics for `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        StatsSink {
            k,
            window,
            hist: Box::new([0; 256]),
            hood: Part::default(),
            rest_min: None,
            rest_max: None,
        }
    }

    /// The finished statistics.
    pub fn finish(self) -> Stats {
        let histogram: Vec<(i64, u64)> = self
            .hist
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(i, &c)| (i as i64 - 128, c))
            .collect();
        let rest = Part {
            cells: histogram.iter().map(|&(_, c)| c).sum(),
            palaces: histogram.iter().filter(|&&(v, _)| v < 0).map(|&(_, c)| c).sum(),
            min: self.rest_min,
            max: self.rest_max,
        };
        let mut total = Part {
            cells: self.hood.cells + rest.cells,
            palaces: self.hood.palaces + rest.palaces,
            min: None,
            max: None,
        };
        // Row-major first occurrence over the whole window.
        let first = |a: Option<Extreme>, b: Option<Extreme>, better: fn(i64, i64) -> bool| match (a, b) {
            (Some(a), Some(b)) => {
                if better(a.v, b.v) || (a.v == b.v && (a.y, a.x) < (b.y, b.x)) {
                    Some(a)
                } else {
                    Some(b)
                }
            }
            (a, None) => a,
            (None, b) => b,
        };
        total.min = first(self.hood.min, rest.min, |a, b| a < b);
        total.max = first(self.hood.max, rest.max, |a, b| a > b);
        let w = self.window;
        Stats { k: self.k, window: [w.x0, w.y0, w.x1, w.y1], total, hood: self.hood, rest, histogram }
    }
}

impl RowSink for StatsSink {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let h = row.hood_cells();
        let y = u64::from(row.y);
        let x0 = u64::from(row.x0);
        if h > 0 {
            // Hood values increase along the row, so the row's extremes are its end cells.
            self.hood.cells += h as u64;
            self.hood.palaces += h as u64;
            self.hood.see_min(hood_value(self.k, x0, y), x0, y);
            let xl = x0 + h as u64 - 1;
            self.hood.see_max(hood_value(self.k, xl, y), xl, y);
        }
        let rest = &row.cells[h..];
        if rest.is_empty() {
            return Ok(());
        }
        // Four interleaved histograms avoid store-to-load stalls on runs of equal values.
        let mut sub = [[0u32; 256]; 4];
        for chunk in rest.chunks(1 << 20) {
            let mut it = chunk.chunks_exact(4);
            for q in &mut it {
                sub[0][q[0] as u8 as usize] += 1;
                sub[1][q[1] as u8 as usize] += 1;
                sub[2][q[2] as u8 as usize] += 1;
                sub[3][q[3] as u8 as usize] += 1;
            }
            for &v in it.remainder() {
                sub[0][v as u8 as usize] += 1;
            }
            for s in &mut sub {
                for (i, c) in s.iter_mut().enumerate() {
                    // stored index is v as u8; histogram index is v + 128
                    self.hist[(i as u8 as i8 as i64 + 128) as usize] += u64::from(*c);
                    *c = 0;
                }
            }
        }
        let lo = *rest.iter().min().expect("non-empty");
        let hi = *rest.iter().max().expect("non-empty");
        if self.rest_min.is_none_or(|m| i64::from(lo) < m.v) {
            let i = rest.iter().position(|&v| v == lo).expect("present");
            self.rest_min = Some(Extreme { v: i64::from(lo), x: x0 + (h + i) as u64, y });
        }
        if self.rest_max.is_none_or(|m| i64::from(hi) > m.v) {
            let i = rest.iter().position(|&v| v == hi).expect("present");
            self.rest_max = Some(Extreme { v: i64::from(hi), x: x0 + (h + i) as u64, y });
        }
        Ok(())
    }
}

fn fmt_ext(e: &Option<Extreme>) -> String {
    match e {
        Some(e) => format!("{:>6} at ({}, {})", e.v, e.x, e.y),
        None => "     - (no cells)".to_string(),
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(f, "k = {}, window [{x0}, {x1}) x [{y0}, {y1}) ({} x {})", self.k, x1 - x0, y1 - y0)?;
        writeln!(
            f,
            "{:<6} {:>14} {:>14} {:>9}   {:<28} max v (first at)",
            "part", "cells", "palaces", "density", "min v (first at)"
        )?;
        for (name, p) in [("total", &self.total), ("hood", &self.hood), ("rest", &self.rest)] {
            let density = if p.cells > 0 { p.palaces as f64 / p.cells as f64 } else { 0.0 };
            writeln!(
                f,
                "{name:<6} {:>14} {:>14} {:>9.6}   {:<28} {}",
                p.cells,
                p.palaces,
                density,
                fmt_ext(&p.min),
                fmt_ext(&p.max)
            )?;
        }
        writeln!(f, "histogram of v outside the hood:")?;
        for (v, c) in &self.histogram {
            let share = if self.rest.cells > 0 { *c as f64 / self.rest.cells as f64 } else { 0.0 };
            writeln!(f, "  v = {v:>4} (N = k{v:+}): {c:>14}  {:>8.4}%", share * 100.0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, sweep};
    use crate::reference::direct_values;

    #[test]
    fn stats_match_a_direct_count() {
        let (k, w, h) = (9u32, 40usize, 33usize);
        let vals = direct_values(k, w, h);
        let win = Window::new(2, 1, 37, 30);
        let mut s = StatsSink::new(k, win);
        sweep(k, win, &EngineOptions::default(), &mut s, &indicatif::ProgressBar::hidden()).unwrap();
        let st = s.finish();
        let mut cells = 0;
        let mut pal = 0;
        let mut hood = 0;
        let mut hist = std::collections::BTreeMap::new();
        let mut min: Option<(i64, u64, u64)> = None;
        for y in win.y0..win.y1 {
            for x in win.x0..win.x1 {
                let v = i64::from(vals[y as usize * w + x as usize]);
                cells += 1;
                pal += u64::from(v < 0);
                if crate::rule::in_hood(k, u64::from(x), u64::from(y)) {
                    hood += 1;
                } else {
                    *hist.entry(v).or_insert(0u64) += 1;
                }
                if min.is_none_or(|m| v < m.0) {
                    min = Some((v, u64::from(x), u64::from(y)));
                }
            }
        }
        assert_eq!(st.total.cells, cells);
        assert_eq!(st.total.palaces, pal);
        assert_eq!(st.hood.cells, hood);
        assert_eq!(st.histogram, hist.into_iter().collect::<Vec<_>>());
        let m = st.total.min.unwrap();
        assert_eq!((m.v, m.x, m.y), min.unwrap());
    }
}
