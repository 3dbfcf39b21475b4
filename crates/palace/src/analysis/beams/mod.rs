//! The beams of the inner sector (paper §3.1, "threads that bend into the inner sector, and
//! stop being parallel to the rest of the warp, are often called beams", and §4, question 5):
//! found, followed and measured (`docs/threads.md`, "The beams").
//!
//! The cells looked at are the palaces that `palace regions` labels as the rest (fray, warps,
//! inner sector), above the diagonal (`x > y`, the upper half) and below it (the lower half),
//! each half traced on its own, row by row. In each row the [`track::Selector`] keeps the lone
//! palaces of the inner sector (the beams' cells) and the [`track::Tracker`] strings them into
//! beams; [`measure::BeamSummary`] measures each. By the picture's symmetry `v(x, y) = v(y, x)`
//! a lower beam is an upper one mirrored, traced across instead of along its rows: the report
//! pairs each upper beam with the lower beam holding most of its mirrored cells, a check of
//! the tracing (the labels and values are symmetric; the row-by-row selection and tracking are
//! not).

pub mod measure;
pub mod track;
pub mod weft;

use crate::analysis::threads::THREAD_RGB;
use crate::engine::{Cancel, EngineOptions, Progress};
use crate::error::Result;
use crate::labels;
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, StripBelow};
use crate::output::palette;
use crate::output::png::{Aggregate, Downscale, PngStream};
use measure::BeamSummary;
use serde::Serialize;
use std::collections::HashSet;
use track::{Beam, Selector, Tracked, Tracker};

/// The most pixels the beams picture may have: it is kept in memory until the beams are known.
pub const MAX_PICTURE_PIXELS: u64 = 1 << 28;

/// The tracker's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Rows a beam may skip ([`track::GAP`] by default).
    pub gap: u32,
    /// Columns a beam's cell may lie from its line ([`track::TOLERANCE`] by default).
    pub tolerance: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params { gap: track::GAP, tolerance: track::TOLERANCE }
    }
}

/// What the tracers found in the two halves.
#[derive(Debug, Clone, Default)]
pub struct Beams {
    /// Above the diagonal.
    pub upper: Tracked,
    /// Below it.
    pub lower: Tracked,
    /// The values near the diagonal, for the weft between the centermost beams.
    pub weft: weft::WeftCounts,
}

impl Beams {
    /// Every beam with its number and half: the upper beams first, each half in order of first
    /// row (the numbers of the report, the CSV and the picture).
    pub fn numbered(&self) -> Vec<(u32, &'static str, &Beam)> {
        let upper = self.upper.beams.iter().map(|b| ("upper", b));
        let lower = self.lower.beams.iter().map(|b| ("lower", b));
        upper.chain(lower).enumerate().map(|(i, (h, b))| (i as u32, h, b)).collect()
    }
}

/// One half's beams.
#[derive(Debug, Clone, Serialize)]
pub struct HalfReport {
    /// `upper` (`x > y`) or `lower`.
    pub half: &'static str,
    /// Candidates (lone palaces of the inner sector) seen.
    pub candidates: u64,
    /// Tracks of at least [`track::MIN_PIECE`] cells, before joining.
    pub pieces: u64,
    /// Shorter tracks.
    pub specks: u64,
    /// The beams, centermost first (smallest [`BeamSummary::centre`]).
    pub beams: Vec<BeamSummary>,
}

/// An upper beam and the lower beam holding most of its mirrored cells.
#[derive(Debug, Clone, Serialize)]
pub struct Mirror {
    /// The upper beam.
    pub upper: u32,
    /// The lower beam, if any holds one of its mirrored cells.
    pub lower: Option<u32>,
    /// Cells `(x, y)` of the upper beam whose mirror `(y, x)` is a cell of the lower one.
    pub common: usize,
    /// The upper beam's cells and the lower one's.
    pub cells: (usize, usize),
    /// Their slopes (rows per column) and the product, 1 for mirror images.
    pub slopes: (Option<f64>, Option<f64>),
    /// The product of the slopes.
    pub product: Option<f64>,
}

/// The report of `palace beams`.
#[derive(Debug, Clone, Serialize)]
pub struct BeamsReport {
    /// The game.
    pub k: u32,
    /// The window traced.
    pub window: [u32; 4],
    /// Rows a beam may skip.
    pub gap: u32,
    /// Columns a beam's cell may lie from its line.
    pub tolerance: u32,
    /// Above the diagonal.
    pub upper: HalfReport,
    /// Below it.
    pub lower: HalfReport,
    /// The centermost beams running to the window's edge (smallest
    /// [`BeamSummary::centre`] among those with [`BeamSummary::at_edge`]): upper and lower.
    pub centermost: (Option<u32>, Option<u32>),
    /// Each upper beam (centermost first) and its mirror among the lower beams.
    pub mirrors: Vec<Mirror>,
    /// The weft between the centermost beams and outside them.
    pub weft: Option<weft::WeftReport>,
}

impl BeamsReport {
    /// Measures what the tracers found in `window` of game `k`, the beams on `workers` threads;
    /// stops with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled
    /// (polled before each beam's fits and each upper beam's search for its mirror).
    pub fn new(
        k: u32,
        window: Window,
        params: Params,
        beams: &Beams,
        workers: usize,
        cancel: &Cancel,
    ) -> Result<Self> {
        use rayon::prelude::*;
        let pool = crate::analysis::pool(workers)?;
        let numbered = beams.numbered();
        let heed = || cancel.check();
        let half = |name: &'static str, t: &Tracked| -> Result<HalfReport> {
            let mine: Vec<_> = numbered.iter().filter(|(_, h, _)| *h == name).collect();
            let mut list: Vec<BeamSummary> = pool.install(|| {
                mine.par_iter()
                    .map(|&&(id, h, b)| {
                        heed()?;
                        BeamSummary::measure(b, id, h, window, params.gap, params.tolerance, cancel)
                    })
                    .collect::<Result<_>>()
            })?;
            list.sort_by(|a, b| a.centre.total_cmp(&b.centre).then(a.id.cmp(&b.id)));
            Ok(HalfReport {
                half: name,
                candidates: t.candidates,
                pieces: t.pieces,
                specks: t.specks,
                beams: list,
            })
        };
        let upper = half("upper", &beams.upper)?;
        let lower = half("lower", &beams.lower)?;
        let by_id = |id: u32| numbered[id as usize].2;
        let mirrors = pool.install(|| {
            upper
                .beams
                .par_iter()
                .map(|u| {
                    heed()?;
                    let cells: HashSet<(u32, u32)> = by_id(u.id).cells.iter().copied().collect();
                    let best = lower
                        .beams
                        .iter()
                        .map(|l| {
                            (by_id(l.id).cells.iter().filter(|&&(y, x)| cells.contains(&(x, y))).count(), l)
                        })
                        .filter(|(n, _)| *n > 0)
                        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.id.cmp(&a.1.id)));
                    Ok(Mirror {
                        upper: u.id,
                        lower: best.map(|(_, l)| l.id),
                        common: best.map_or(0, |(n, _)| n),
                        cells: (u.cells, best.map_or(0, |(_, l)| l.cells)),
                        slopes: (u.slope, best.and_then(|(_, l)| l.slope)),
                        product: u.slope.zip(best.and_then(|(_, l)| l.slope)).map(|(a, b)| a * b),
                    })
                })
                .collect::<Result<_>>()
        })?;
        let inner = |h: &HalfReport| h.beams.iter().find(|b| b.at_edge).map(|b| b.id);
        let centermost = (inner(&upper), inner(&lower));
        let weft = match centermost {
            (Some(u), Some(l)) => Some(weft::WeftReport::new(&beams.weft, by_id(u), by_id(l))),
            _ => None,
        };
        Ok(BeamsReport {
            centermost,
            weft,
            k,
            window: [window.x0(), window.y0(), window.x1(), window.y1()],
            gap: params.gap,
            tolerance: params.tolerance,
            upper,
            lower,
            mirrors,
        })
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.digits$}"))
}

fn beam_lines(f: &mut std::fmt::Formatter<'_>, s: &BeamSummary) -> std::fmt::Result {
    writeln!(
        f,
        "  beam {:>3} ({}): rows {}..{}, from ({}, {}) to ({}, {}){}, x - y from {} to {}, {} cells in {} piece(s), {:.4} a row; angle from the diagonal {:.4}",
        s.id,
        s.half,
        s.rows.0,
        s.rows.1,
        s.start.0,
        s.start.1,
        s.end.0,
        s.end.1,
        if s.at_edge { " at the window's edge" } else { "" },
        s.offset.0,
        s.offset.1,
        s.cells,
        s.pieces,
        s.per_row,
        s.centre
    )?;
    let [n0, n1, n2, n3] = s.near;
    writeln!(
        f,
        "      rows followed by palaces within the tolerance of its line: 0: {n0}, 1: {n1}, 2: {n2}, 3 or more: {n3}"
    )?;
    let res = s.residual.map_or("-".into(), |(rms, lo, hi)| format!("rms {rms:.2}, from {lo:.1} to {hi:.1}"));
    writeln!(
        f,
        "      slope (least squares over all cells) {} +- {} rows per column; cells off the line along the row: {res}",
        opt(s.slope, 6),
        s.slope_stderr.map_or("-".into(), |e| format!("{e:.1e}"))
    )?;
    if let Some((lo, hi, sd)) = s.stretch_spread {
        let list: Vec<String> = s.stretches.iter().map(|t| format!("{:.5}", t.slope)).collect();
        writeln!(
            f,
            "      over {} stretches of {} rows: {} (from {lo:.5} to {hi:.5}, standard deviation {sd:.1e})",
            s.stretches.len(),
            s.stretches.first().map_or(0, |t| t.rows.1 - t.rows.0 + 1),
            list.join(", ")
        )?;
    }
    if let Some((a, b)) = s.halves {
        writeln!(
            f,
            "      over its first half (rows {}..{}) {:.6} +- {:.1e}, over its second (rows {}..{}) {:.6} +- {:.1e}",
            a.rows.0, a.rows.1, a.slope, a.stderr, b.rows.0, b.rows.1, b.slope, b.stderr
        )?;
    }
    let (r0, rn) = s.run;
    write!(f, "      longest run of consecutive rows with a cell: {rn} rows from row {r0}")?;
    if let Some(b) = s.balance {
        let per = s.period.map_or("none".into(), |p| format!("{} rows, {:+} columns", p.p, p.shift));
        let near = s.near_period.map_or("-".into(), |n| {
            format!(
                "{} rows, {:+} columns on {} of {} rows",
                n.period.p, n.period.shift, n.matches.0, n.matches.1
            )
        });
        let steps: Vec<String> = s.steps.iter().take(6).map(|(v, n)| format!("{v:+}: {n}")).collect();
        writeln!(f, "; over its last {} rows:", rn.min(crate::analysis::threads::trace::TAIL))?;
        writeln!(f, "      period {per}; up to defects {near}")?;
        writeln!(
            f,
            "      steps x(y+1) - x(y): {} values ({}{}); imbalance {} (at window length {}): {}",
            b.values,
            steps.join(", "),
            if s.steps.len() > 6 { ", ..." } else { "" },
            b.imbalance,
            b.at_length,
            if b.sturmian {
                "balanced with two adjacent values, the step word of a digital straight line"
            } else {
                "not the step word of a digital straight line"
            }
        )?;
    } else {
        writeln!(f, " (too short for the row measures)")?;
    }
    let cf: Vec<String> = s.continued_fraction.iter().map(i64::to_string).collect();
    let cf = match cf.split_first() {
        Some((a0, rest)) => format!("[{a0}; {}]", rest.join(", ")),
        None => "-".into(),
    };
    write!(
        f,
        "      continued fraction {cf} (to within {})",
        s.uncertainty.map_or("-".into(), |u| format!("{u:.1e}"))
    )?;
    if let Some(q) = s.quadratic {
        write!(
            f,
            "; nearest quadratic irrational: root {:.6} of {}t^2 {:+}t {:+} (residual {:.1e}; {} roots within the uncertainty)",
            q.root, q.a, q.b, q.c, q.residual, q.within_tol
        )?;
    }
    writeln!(f)
}

impl std::fmt::Display for BeamsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, window [{x0}, {x1}) x [{y0}, {y1}): the lone palaces of the inner sector (rest cells, at most {} crowded palaces in their {} x {} square), above and below the diagonal",
            self.k,
            track::SQUARE_MAX,
            track::SQUARE,
            track::SQUARE
        )?;
        writeln!(
            f,
            "tracking: cells within {} columns of the beam's line, gaps of at most {} rows, pieces joined across {} rows; a beam has at least {} cells over {} rows",
            self.tolerance,
            self.gap,
            track::JOIN_FACTOR * self.gap,
            track::MIN_CELLS,
            track::MIN_ROWS
        )?;
        for h in [&self.upper, &self.lower] {
            writeln!(
                f,
                "{} half: {} candidates, {} pieces ({} specks), {} beams (centermost first)",
                h.half,
                h.candidates,
                h.pieces,
                h.specks,
                h.beams.len()
            )?;
            for s in &h.beams {
                beam_lines(f, s)?;
            }
        }
        let name = |b: Option<u32>| b.map_or("none".to_string(), |b| format!("beam {b}"));
        writeln!(
            f,
            "centermost beams running to the window's edge: upper {}, lower {}",
            name(self.centermost.0),
            name(self.centermost.1)
        )?;
        if let Some(w) = &self.weft {
            let share = |list: &[(i64, u64)]| {
                let n: u64 = list.iter().map(|p| p.1).sum();
                let parts: Vec<String> = list
                    .iter()
                    .map(|&(v, c)| format!("{v}: {:.2}%", 100.0 * c as f64 / n.max(1) as f64))
                    .collect();
                if n == 0 { "no cells".to_string() } else { format!("{n} cells, v {}", parts.join(", ")) }
            };
            writeln!(
                f,
                "the weft (v of the rest's cells, every {}th row, within {} of the diagonal) in {} stretches of {} rows: between the centermost beams {}; outside them {}",
                weft::STEP,
                weft::REACH,
                w.bands,
                weft::BAND,
                share(&w.between),
                share(&w.outside)
            )?;
        }
        writeln!(f, "mirror images (an upper beam's cells (x, y) as (y, x) among a lower beam's):")?;
        for m in &self.mirrors {
            match m.lower {
                Some(l) => writeln!(
                    f,
                    "  upper beam {} and lower beam {}: {} cells in common of {} and {}; slopes {} and {}, product {}",
                    m.upper,
                    l,
                    m.common,
                    m.cells.0,
                    m.cells.1,
                    opt(m.slopes.0, 6),
                    opt(m.slopes.1, 6),
                    opt(m.product, 6)
                )?,
                None => writeln!(f, "  upper beam {}: no lower beam holds a mirrored cell", m.upper)?,
            }
        }
        Ok(())
    }
}

/// Writes every beam's cells as CSV: `beam,half,y,x`, one line a cell.
pub fn write_csv(beams: &Beams, mut w: impl std::io::Write) -> std::io::Result<()> {
    writeln!(w, "beam,half,y,x")?;
    for (id, half, b) in beams.numbered() {
        for &(y, x) in &b.cells {
            writeln!(w, "{id},{half},{y},{x}")?;
        }
    }
    w.flush()
}

/// A beam's cell is drawn as a square of `2 MARK + 1` pixels a side, so that a beam of one
/// cell a row shows in a picture viewed whole.
pub const MARK: usize = 1;

/// Palette index of the candidates that are in no beam.
const LONE: u8 = THREAD_RGB.len() as u8;

/// The picture's palette: the beam colours, the lone palaces' grey, the paper's palette dimmed.
fn plte() -> Vec<u8> {
    let dim = palette::RGB.iter().map(|c| c.map(|v| (u16::from(v) * 2 / 5) as u8));
    THREAD_RGB.iter().copied().chain([[0x90, 0x90, 0x90]]).chain(dim).flatten().collect()
}

/// The legend of the beams picture at `scale`.
pub fn legend_key(k: u32, scale: u32) -> Key {
    let n = THREAD_RGB.len();
    let beams = (0..n).map(|i| (i as u8, format!("beam n = {i} mod {n}")));
    let lone = [(LONE, "lone palace of the inner sector in no beam".to_string())];
    let dimmed =
        palette::NAMES.iter().enumerate().map(|(i, name)| ((n + 1 + i) as u8, format!("{name} (dimmed)")));
    Key {
        title: format!(
            "k = {k}: the beams of the inner sector over the picture{}, a beam's palace {m} x {m} pixels",
            if scale > 1 { ", each block its lowest index" } else { "" },
            m = 2 * MARK + 1
        ),
        entries: beams.chain(lone).chain(dimmed).collect(),
        points: Vec::new(),
    }
}

/// The pixels of the picture of `window` at `scale`, or the usage error saying the scale is too small.
pub fn picture_pixels(window: Window, scale: u32) -> Result<(u32, u32)> {
    let (w, h) = crate::output::png::picture_size(window, scale);
    if u64::from(w) * u64::from(h) > MAX_PICTURE_PIXELS {
        let side = (window.width().max(window.height()) as u64).div_ceil(1 << 14);
        use crate::error::{Bound, Param, ParameterError};
        return Err(ParameterError::new(Param::Scale, scale)
            .bound(Bound::AtLeast(side as i64))
            .text(format!(
                ": the beams picture of the window would be {w} x {h} pixels, more than the {MAX_PICTURE_PIXELS} it keeps in memory; use "
            ))
            .name(Param::Scale)
            .text(format!(" {side} or more, or a smaller "))
            .name(Param::Window)
            .into());
    }
    Ok((w, h))
}

/// Traces the beams of `window` of game `k` (see the module's header) and, with `out`, draws
/// them over the dimmed picture (`scale x scale` cells a pixel, the lowest index of each
/// block), with a legend strip below it ([`legend_key`]) when `legend` holds. Returns what the
/// tracers found and the picture, written but not committed: the caller commits it
/// ([`AtomicOutput::commit`]) once the report is measured, so that a run stopped while
/// measuring leaves no picture behind.
#[allow(clippy::too_many_arguments)]
pub fn run(
    k: u32,
    window: Window,
    params: Params,
    scale: u32,
    out: Option<AtomicOutput>,
    legend: bool,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(Beams, Option<AtomicOutput>)> {
    let mut pic = match &out {
        Some(_) => {
            let (w, h) = picture_pixels(window, scale)?;
            let down = Downscale::new(scale, Aggregate::Min, window.width() as usize);
            Some((vec![0u8; w as usize * h as usize], w as usize, 0usize, down))
        }
        None => None,
    };
    let (mut sel_up, mut sel_down) = (Selector::default(), Selector::default());
    let (mut up, mut down) =
        (Tracker::new(params.gap, params.tolerance), Tracker::new(params.gap, params.tolerance));
    // The candidates, for the picture (known rows after their row is drawn).
    let mut lone: Vec<(u32, u32)> = Vec::new();
    let drawing = pic.is_some();
    let mut weft = weft::WeftCounts::new(window.y0());
    let mut feed = |t: &mut Tracker, rows: Vec<track::Selected>| {
        for r in rows {
            t.line(r.y, &r.palaces, &r.candidates);
            if drawing {
                lone.extend(r.candidates.iter().map(|&x| (r.y, x)));
            }
        }
    };
    let mut line: Vec<u8> = vec![0; window.width() as usize];
    let (x0, x1) = (window.x0(), window.x1());
    labels::label_rows(k, window, opts, progress, |r| {
        let y = r.y;
        let palaces = r.rest_palaces();
        let (lower, upper) = palaces.split_at(palaces.partition_point(|&x| x < y));
        let upper = upper[upper.partition_point(|&x| x == y)..].to_vec();
        let lower = lower.to_vec();
        if weft.counts_row(y) {
            let reach = weft::REACH as u32;
            let xs = x0.max(y.saturating_sub(reach - 1))..x1.min(y.saturating_add(reach));
            weft.add_row(y, xs, r.cells, |x| r.is_rest(x));
        }
        feed(&mut up, sel_up.push(y, upper));
        feed(&mut down, sel_down.push(y, lower));
        if let Some((pic, w, at, down)) = &mut pic {
            let row = crate::engine::sink::Row { k, y, x0: 0, cells: r.cells };
            let hood = row.hood_cells().max(x0 as usize);
            palette::indices(&r.cells[x0 as usize..x1 as usize], hood - x0 as usize, &mut line);
            for v in &mut line {
                *v += LONE + 1;
            }
            if let Some(done) = down.push(&line) {
                pic[*at * *w..(*at + 1) * *w].copy_from_slice(done);
                *at += 1;
            }
        }
        Ok(())
    })?;
    feed(&mut up, sel_up.finish());
    feed(&mut down, sel_down.finish());
    let beams = Beams { upper: up.finish(), lower: down.finish(), weft };
    let path = match (pic, out) {
        (Some((mut pic, w, mut at, mut down)), Some(o)) => {
            if let Some(done) = down.flush() {
                pic[at * w..(at + 1) * w].copy_from_slice(done);
                at += 1;
            }
            debug_assert_eq!(at * w, pic.len());
            let (s, h) = (scale as usize, pic.len() / w);
            for &(y, x) in &lone {
                let p = &mut pic[(y - window.y0()) as usize / s * w + (x - x0) as usize / s];
                *p = (*p).min(LONE);
            }
            for (id, _, b) in beams.numbered() {
                let c = (id as usize % THREAD_RGB.len()) as u8;
                for &(y, x) in &b.cells {
                    let (px, py) = ((x - x0) as usize / s, (y - window.y0()) as usize / s);
                    for qy in py.saturating_sub(MARK)..(py + MARK + 1).min(h) {
                        for qx in px.saturating_sub(MARK)..(px + MARK + 1).min(w) {
                            let p = &mut pic[qy * w + qx];
                            *p = (*p).min(c);
                        }
                    }
                }
            }
            let mut text = vec![(
                "Comment".to_string(),
                format!("palace beams, k = {k}, window {window}, scale {scale}"),
            )];
            let lay = legend.then(|| legend::layout(&legend_key(k, scale), &plte(), window, scale));
            let (mut strip, (fw, fh), pal) = StripBelow::new(lay, (w as u32, h as u32), plte(), &mut text);
            let mut png = PngStream::create(o, fw, fh, pal, text, opts.threads)?;
            // Encoding the picture takes a second or more on a large window: heed the token.
            for row in pic.chunks(w) {
                opts.cancel.check()?;
                strip.push_row(&mut png, row)?;
            }
            strip.finish(&mut png)?;
            Some(png.finish_file()?)
        }
        _ => None,
    };
    Ok((beams, path))
}
