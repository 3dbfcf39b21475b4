//! The skin's picture: the vertical thickness against the column, one panel per level.

use super::report::SkinReport;
use super::state::{Column, fib};
use crate::error::Result;

/// The columns `[lo, hi)` (counted from the shoulder) each panel shows, and the level it is
/// for: a level from a tenth of its length before it begins (the thickening) to where the next
/// begins; the whole run when no level was seen.
fn panels(r: &SkinReport) -> Vec<(u64, u64, Option<usize>)> {
    let k = u64::from(r.k);
    let end = r.to - k;
    if r.levels.is_empty() {
        return vec![(0, end, None)];
    }
    r.levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let begin = l.begins_at - k;
            let next = r.levels.get(i + 1).map_or(end, |m| m.begins_at - k);
            let lo = if i == 0 { 0 } else { begin.saturating_sub((next - begin) / 10) };
            (lo, next.max(lo + 2), Some(l.n))
        })
        .collect()
}

/// Plots the vertical thickness of the skin against the column counted from the shoulder, one
/// panel per level on a linear axis (a level's columns are about 40 times the previous
/// level's), with the level's Fibonacci thicknesses `f(2n)` and `f(2n) + 1` and where it
/// begins; writes an RGB PNG to `out`.
pub fn plot(r: &SkinReport, cols: &[Column], out: crate::output::atomic::AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let panels = panels(r);
    let (w, ph, top) = (1400u32, 300u32, 40u32);
    let h = top + ph * panels.len() as u32;
    let k = u64::from(r.k);
    let draw = |root: &crate::output::canvas::Area<'_>| -> crate::output::canvas::Drawn {
        root.fill(&WHITE)?;
        let font = crate::output::canvas::font;
        let (title, body) = root.split_vertically(top);
        title.draw(&Text::new(
            format!(
                "skin of the upper arm, k = {}: vertical thickness against columns past the shoulder ({}, 0), one panel per level",
                r.k, r.k
            ),
            (20, 10),
            font(18),
        ))?;
        for (area, &(lo, hi, n)) in body.split_evenly((panels.len(), 1)).iter().zip(&panels) {
            let seg: Vec<&Column> = cols.iter().filter(|c| (lo..hi).contains(&(c.x - k))).collect();
            let want = n.map_or(0, |n| fib(2 * n) as u32 + 1);
            let ymax = seg.iter().map(|c| c.vertical).max().unwrap_or(1).max(want).max(3) + 3;
            let caption = match (n, r.levels.iter().find(|l| Some(l.n) == n)) {
                (Some(n), Some(l)) => format!(
                    "level {n}: from +{} (paper: vertical f({}) = {}, +1 where a line is emitted)",
                    l.begins_at - k,
                    2 * n,
                    fib(2 * n)
                ),
                _ => "no level held for two periods".to_string(),
            };
            let mut chart = ChartBuilder::on(area)
                .caption(caption, font(15))
                .margin(12)
                .x_label_area_size(34)
                .y_label_area_size(50)
                .build_cartesian_2d(lo as f64..hi as f64, 0u32..ymax)?;
            chart
                .configure_mesh()
                .x_desc("columns past the shoulder, x - k")
                .y_desc("vertical thickness")
                .label_style(font(12))
                .axis_desc_style(font(13))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .draw()?;
            for t in (1..12).flat_map(|m| [fib(2 * m), fib(2 * m) + 1]) {
                if t >= u64::from(ymax) {
                    break;
                }
                let grey = if Some(t) == n.map(|n| fib(2 * n)) || Some(t) == n.map(|n| fib(2 * n) + 1) {
                    RGBColor(150, 150, 150)
                } else {
                    RGBColor(225, 225, 225)
                };
                let style = ShapeStyle::from(&grey).stroke_width(1);
                chart.draw_series(LineSeries::new([(lo as f64, t as u32), (hi as f64, t as u32)], style))?;
            }
            if let Some(l) = r.levels.iter().find(|l| Some(l.n) == n) {
                let x = (l.begins_at - k) as f64;
                let style = ShapeStyle::from(&RGBColor(230, 120, 40)).stroke_width(2);
                chart.draw_series(LineSeries::new([(x, 0), (x, ymax)], style))?;
            }
            // One mark per (bucket of columns, thickness) seen.
            let buckets = 1300u64;
            let span = hi - lo;
            let mut seen = std::collections::BTreeSet::new();
            for c in &seg {
                seen.insert(((c.x - k - lo) * buckets / span, c.vertical));
            }
            chart.draw_series(seen.into_iter().map(|(b, t)| {
                let x = lo as f64 + (b as f64 + 0.5) * span as f64 / buckets as f64;
                Circle::new((x, t), 2, ShapeStyle::from(&RGBColor(40, 70, 200)).filled())
            }))?;
        }
        Ok(())
    };
    crate::output::canvas::plot_png(out, w, h, draw)
}
