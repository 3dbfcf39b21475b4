//! The branches' picture: the ratio `y / x` of every upper P-position against `log10 y`, one
//! colour per branch (grey for positions in none), with each branch's limit as a line.

use super::group::{BranchesReport, Membership};
use crate::error::Result;
use crate::output::atomic::AtomicOutput;
use crate::output::canvas::{Area, Drawn, font, plot_png};

/// Branch colours, in branch order (repeated past the last).
const COLOURS: [(u8, u8, u8); 8] = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (140, 86, 75),
    (227, 119, 194),
    (23, 190, 207),
];

/// The vertical range shown: around the branches' limits, or `[1, 3]` without a branch.
fn ratio_range(r: &BranchesReport) -> (f64, f64) {
    let limits = r.branches.branches.iter().map(|b| b.limit);
    let lo = limits.clone().fold(f64::INFINITY, f64::min);
    let hi = limits.fold(f64::NEG_INFINITY, f64::max);
    if lo.is_finite() {
        let pad = ((hi - lo) * 0.15).max(0.15);
        ((lo - pad).max(0.95), hi + pad)
    } else {
        (1.0, 3.0)
    }
}

/// Draws the ratio `y / x` of the upper positions `pts` (branch `member[i]`) against `log10 y`
/// and writes an RGB PNG to `out`. Positions outside the ratio range shown are left out; the
/// title says how many.
pub fn plot(r: &BranchesReport, pts: &[(u32, u32)], member: &Membership, out: AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let (w, h) = (1400u32, 800u32);
    let (lo, hi) = ratio_range(r);
    let lg = f64::from(r.branches.rows.max(10)).log10();
    let shown = |&(x, y): &(u32, u32)| {
        x > 0 && y > 0 && {
            let q = f64::from(y) / f64::from(x);
            (lo..=hi).contains(&q)
        }
    };
    let hidden = pts.iter().filter(|p| p.0 > 0 && !shown(p)).count();
    let draw = |root: &Area<'_>| -> Drawn {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "k = {}: y/x of the P-positions with 0 < x <= y, rows 0..{}, one colour per branch ({} outside {lo:.2}..{hi:.2} not shown)",
                    r.k, r.branches.rows, hidden
                ),
                font(16),
            )
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..lg, lo..hi)?;
        chart
            .configure_mesh()
            .x_desc("log10 y")
            .y_desc("y / x")
            .label_style(font(13))
            .axis_desc_style(font(14))
            .draw()?;
        // One mark per pixel and branch: thousands of positions share a pixel.
        let (pw, ph) = (w as usize, h as usize);
        let mut seen = std::collections::HashSet::new();
        let mut marks = Vec::new();
        for (p, m) in pts.iter().zip(member) {
            if !shown(p) {
                continue;
            }
            let (x, y) = (f64::from(p.1).log10(), f64::from(p.1) / f64::from(p.0));
            let cell = ((x / lg * pw as f64) as usize, ((y - lo) / (hi - lo) * ph as f64) as usize);
            if seen.insert((cell, *m)) {
                marks.push((x, y, *m));
            }
        }
        // Positions in no branch first, so that the branches draw over them.
        marks.sort_by_key(|m| m.2.is_some());
        chart.draw_series(marks.iter().map(|&(x, y, m)| {
            let c = m.map_or(RGBColor(170, 170, 170), |b| {
                let (r, g, b) = COLOURS[b % COLOURS.len()];
                RGBColor(r, g, b)
            });
            Circle::new((x, y), 1, ShapeStyle::from(&c).filled())
        }))?;
        for (i, b) in r.branches.branches.iter().enumerate() {
            let (cr, cg, cb) = COLOURS[i % COLOURS.len()];
            let style = ShapeStyle::from(&RGBColor(cr, cg, cb)).stroke_width(1);
            chart
                .draw_series(LineSeries::new([(0.0, b.limit), (lg, b.limit)], style))?
                .label(format!("branch {i}: {:.6} ({})", b.limit, b.exact.form.short()))
                .legend(move |(x, y)| {
                    PathElement::new(
                        [(x, y), (x + 16, y)],
                        ShapeStyle::from(&RGBColor(cr, cg, cb)).stroke_width(3),
                    )
                });
        }
        if !r.branches.branches.is_empty() {
            chart
                .configure_series_labels()
                .label_font(font(13))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperLeft)
                .draw()?;
        }
        Ok(())
    };
    plot_png(out, w, h, draw)
}
