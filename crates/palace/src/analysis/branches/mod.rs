//! The branches of the upper P-positions: the P-positions `(x, y)` with `0 < x <= y` gather,
//! as `y` grows, along a few rays `y = r x` (Larsson's "sets of aggregation points" of
//! k-Blocking Wythoff Nim; for `k = 1` the single ray of slope `phi`, `docs/rule.md`, "Wythoff
//! Nim"). [`group`] finds the rays and [`branches`] lists the positions of a game with
//! [`crate::analysis::positions::positions`] and groups them.
//!
//! **Grouping** (`docs/small-k.md`, "Branches"). The rows `0..N` are cut into octaves
//! `[N / 2^(j+1), N / 2^j)`, from the top. In the top octave the ratios `y / x` are sorted by
//! their logarithm and cut where two neighbours differ by more than the gap
//! `max(`[`Settings::min_gap`]`, 60 / N)` (a branch whose columns wander by `h` cells spreads by
//! `h / x` in the logarithm, and `x >= N / 6` there); a group with fewer than
//! [`Settings::min_points`] positions is not a branch. Each branch is then followed down the
//! octaves by continuity: a position of the next octave joins the branch whose ratio (its
//! centre in the octave above) lies nearest in the logarithm, when it lies within that
//! branch's spread in the octave above plus the octave's gap; the branch's centre and spread
//! are then taken from the positions it gained. Positions on column 0, below row 16, or near no
//! branch are left out, and counted.
//!
//! **Measuring.** A branch's ratio at `y = Y` is `1 / b` for the least-squares line
//! `x = a + b y` through its positions with `Y / 2 <= y < Y` (a slope, so a constant offset of
//! the columns does not bias it as `y / x` would), for `Y = 10^3, 10^4, ...` up to `N`, and `N`
//! itself. The limit is the last such ratio; its error is the larger of the change since the
//! previous measurement and twice the fit's standard error. The limit is handed to the
//! recogniser ([`exact`]).

pub mod closed;
pub mod exact;
pub mod fit;
pub mod plot;
pub mod stream;

use crate::analysis::positions::{Method, PositionsReport, positions};
use crate::engine::{EngineOptions, Progress};
use crate::error::Result;
use serde::Serialize;
use std::fmt;

/// How positions are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Settings {
    /// The least gap between two branches, as a difference of `ln(y / x)`.
    pub min_gap: f64,
    /// The fewest positions of the top octave that make a branch.
    pub min_points: usize,
    /// Rows below this are not grouped (the start of every game is irregular).
    pub first_row: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { min_gap: 0.01, min_points: 8, first_row: 16 }
    }
}

/// One measurement of a branch's ratio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    /// The measurement is over rows `y / 2 <= row < y`.
    pub y: u64,
    /// The branch's positions there.
    pub points: u64,
    /// `1 / b` of the least-squares line `x = a + b y` through them.
    pub ratio: f64,
    /// The standard error of that ratio.
    pub std_error: f64,
    /// The largest distance, in columns, of a position from the line.
    pub max_residual: f64,
}

/// A branch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Branch {
    /// Positions in the branch, over all rows.
    pub positions: u64,
    /// Their share of the upper positions (`x <= y`) of rows `0..N`.
    pub share: f64,
    /// Positions per row in the top octave (a branch may hold several per row).
    pub per_row: f64,
    /// The rows it was followed down to (its lowest row).
    pub from_row: u32,
    /// Its ratio measured at `y = 10^3, 10^4, ..., N`.
    pub measurements: Vec<Measurement>,
    /// The estimated limit of `y / x`.
    pub limit: f64,
    /// Its error.
    pub error: f64,
    /// What the limit was recognised as.
    pub exact: exact::Recognised,
}

/// What [`group`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Branches {
    /// Rows `0..rows`.
    pub rows: u32,
    /// Upper positions (`x <= y`).
    pub upper: u64,
    /// Of them on column 0.
    pub on_column_zero: u64,
    /// Of them below the first grouped row.
    pub early: u64,
    /// Of them grouped into no branch.
    pub ungrouped: u64,
    /// The branches, by increasing limit.
    pub branches: Vec<Branch>,
    /// The settings used.
    pub settings: Settings,
}

/// The branch of every upper position, in the order given (`None`: in no branch).
pub type Membership = Vec<Option<usize>>;

/// The rows at which ratios are measured: `10^3, 10^4, ...` below `rows`, and `rows`.
pub(crate) fn measure_rows(rows: u32) -> Vec<u64> {
    let mut v: Vec<u64> =
        std::iter::successors(Some(1000u64), |y| Some(y * 10)).take_while(|&y| y < u64::from(rows)).collect();
    v.push(u64::from(rows));
    v
}

/// The octaves of rows `0..rows` from the top, `[lo, hi)`: `[rows / 2^(j+1), rows / 2^j)`, the
/// last cut at the first grouped row.
fn octaves(rows: u32, settings: &Settings) -> Vec<(u32, u32)> {
    let mut octaves = Vec::new();
    let mut hi = rows;
    while hi > settings.first_row {
        let lo = (hi / 2).max(settings.first_row);
        octaves.push((lo, hi));
        hi = lo;
    }
    octaves
}

/// The gap of the octave whose top row is `top`: `max(min_gap, 60 / top)`.
fn gap(settings: &Settings, top: u32) -> f64 {
    settings.min_gap.max(60.0 / f64::from(top.max(1)))
}

/// Groups the upper positions `pts` (`x <= y`, rows `0..rows`) into branches; returns the
/// branches and the branch of every position.
pub fn group(rows: u32, pts: &[(u32, u32)], settings: &Settings) -> (Branches, Membership) {
    let lr = |&(x, y): &(u32, u32)| (f64::from(y) / f64::from(x)).ln();
    let gap = |top: u32| gap(settings, top);
    let mut member: Membership = vec![None; pts.len()];
    let octaves = octaves(rows, settings);
    // Indices of the grouped candidates per octave.
    let mut by_octave: Vec<Vec<usize>> = vec![Vec::new(); octaves.len()];
    for (i, &(x, y)) in pts.iter().enumerate() {
        if x == 0 || y < settings.first_row || x > y {
            continue;
        }
        // Octave j holds [rows / 2^(j+1), rows / 2^j), as computed above.
        if let Some(j) = octaves.iter().position(|&(lo, hi)| (lo..hi).contains(&y)) {
            by_octave[j].push(i);
        }
    }
    // Branch state: (centre, half-spread) of ln(y/x) in the octave last seen.
    let mut state: Vec<Option<(f64, f64)>> = Vec::new();
    let mut from_row: Vec<u32> = Vec::new();
    if let Some(top) = by_octave.first() {
        let mut sorted: Vec<(f64, usize)> = top.iter().map(|&i| (lr(&pts[i]), i)).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let g = gap(octaves[0].1);
        let mut start = 0;
        for end in 1..=sorted.len() {
            if end == sorted.len() || sorted[end].0 - sorted[end - 1].0 > g {
                let grp = &sorted[start..end];
                if grp.len() >= settings.min_points {
                    let b = state.len();
                    for &(_, i) in grp {
                        member[i] = Some(b);
                    }
                    let (lo, hi) = (grp[0].0, grp[grp.len() - 1].0);
                    state.push(Some(((lo + hi) / 2.0, (hi - lo) / 2.0)));
                    from_row.push(octaves[0].0);
                }
                start = end;
            }
        }
    }
    for (j, idx) in by_octave.iter().enumerate().skip(1) {
        let g = gap(octaves[j].1);
        let mut range: Vec<Option<(f64, f64)>> = vec![None; state.len()];
        for &i in idx {
            let v = lr(&pts[i]);
            let near = state
                .iter()
                .enumerate()
                .filter_map(|(b, s)| s.map(|(c, w)| (b, (v - c).abs(), w)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((b, d, w)) = near
                && d <= w + g
            {
                member[i] = Some(b);
                let r = range[b].get_or_insert((v, v));
                *r = (r.0.min(v), r.1.max(v));
            }
        }
        for (b, r) in range.iter().enumerate() {
            state[b] = r.map(|(lo, hi)| ((lo + hi) / 2.0, (hi - lo) / 2.0));
            if r.is_some() {
                from_row[b] = octaves[j].0;
            }
        }
    }
    let upper = pts.iter().filter(|&&(x, y)| x <= y).count() as u64;
    let on_column_zero = pts.iter().filter(|&&(x, _)| x == 0).count() as u64;
    let early = pts.iter().filter(|&&(x, y)| x > 0 && x <= y && y < settings.first_row).count() as u64;
    let windows = windows(rows);
    let top = octaves.first().copied().unwrap_or((0, 1));
    let found: Vec<Found1> = from_row
        .iter()
        .enumerate()
        .map(|(b, &lowest)| {
            let mine: Vec<(u32, u32)> =
                pts.iter().zip(&member).filter(|(_, m)| **m == Some(b)).map(|(p, _)| *p).collect();
            let measurements = windows
                .iter()
                .filter_map(|&(y, lo)| {
                    let win = || mine.iter().filter(|&&(_, py)| (lo..y).contains(&u64::from(py)));
                    let mut s = fit::Sums::default();
                    for &(x, py) in win() {
                        s.add(x, py - lo as u32);
                    }
                    measurement(y, &s, win().map(|&(x, py)| (x, py - lo as u32)))
                })
                .collect();
            Found1 {
                positions: mine.len() as u64,
                in_top: mine.iter().filter(|&&(_, y)| (top.0..top.1).contains(&y)).count() as u64,
                from_row: lowest,
                measurements,
            }
        })
        .collect();
    let counts = Counts { upper, on_column_zero, early };
    let (report, new_index) = assemble(rows, settings, top, counts, found);
    for m in member.iter_mut() {
        *m = m.and_then(|b| new_index[b]);
    }
    (report, member)
}

/// The measurement windows: for each row `y` of [`measure_rows`], the rows `y / 2 .. y`, as
/// `(y, y / 2)`.
fn windows(rows: u32) -> Vec<(u64, u64)> {
    measure_rows(rows).into_iter().map(|y| (y, y / 2)).collect()
}

/// The measurement at `y` from a branch's sums over the rows `y / 2 .. y` and their extremes
/// ([`fit::fit`]).
fn measurement(y: u64, s: &fit::Sums, extremes: impl Iterator<Item = (u32, u32)>) -> Option<Measurement> {
    fit::fit(s, extremes).map(|f| Measurement {
        y,
        points: s.n(),
        ratio: f.ratio,
        std_error: f.std_error,
        max_residual: f.max_residual,
    })
}

/// What the grouping found of one branch, before the branches are sorted.
struct Found1 {
    positions: u64,
    /// Its positions in the top octave.
    in_top: u64,
    from_row: u32,
    measurements: Vec<Measurement>,
}

/// The upper positions' counts apart from the branches.
struct Counts {
    upper: u64,
    on_column_zero: u64,
    early: u64,
}

/// The report from the branches found (numbered as the grouping numbered them), and each one's
/// number in the report (`None`: measured nowhere, so dropped).
fn assemble(
    rows: u32,
    settings: &Settings,
    top: (u32, u32),
    counts: Counts,
    found: Vec<Found1>,
) -> (Branches, Vec<Option<usize>>) {
    let Counts { upper, on_column_zero, early } = counts;
    let n = found.len();
    let mut branches = Vec::new();
    for (b, f) in found.into_iter().enumerate() {
        let measurements = f.measurements;
        let Some(last) = measurements.last() else { continue };
        let change =
            measurements.len().checked_sub(2).map_or(0.0, |i| (last.ratio - measurements[i].ratio).abs());
        let error = change.max(2.0 * last.std_error);
        branches.push((
            b,
            Branch {
                positions: f.positions,
                share: f.positions as f64 / upper.max(1) as f64,
                per_row: f.in_top as f64 / f64::from(top.1 - top.0),
                from_row: f.from_row,
                limit: last.ratio,
                error,
                exact: exact::recognise(last.ratio, error),
                measurements,
            },
        ));
    }
    branches.sort_by(|a, b| a.1.limit.total_cmp(&b.1.limit));
    // Renumber by the sorted order.
    let mut new_index = vec![None; n];
    for (i, (b, _)) in branches.iter().enumerate() {
        new_index[*b] = Some(i);
    }
    let grouped: u64 = branches.iter().map(|(_, b)| b.positions).sum();
    let report = Branches {
        rows,
        upper,
        on_column_zero,
        early,
        ungrouped: upper - on_column_zero - early - grouped,
        branches: branches.into_iter().map(|(_, b)| b).collect(),
        settings: *settings,
    };
    (report, new_index)
}

/// What [`branches`] found: the game's positions (the k-cover check) and their branches.
#[derive(Debug, Clone, Serialize)]
pub struct BranchesReport {
    /// The game.
    pub k: u32,
    /// The listing's report: the k-cover check.
    pub cover: PositionsReport,
    /// The closed form of the upper positions checked against them (`k <= 3`).
    pub closed_form: Option<closed::Check>,
    /// The branches.
    #[serde(flatten)]
    pub branches: Branches,
}

/// What [`branches`] and [`branches_listed`] return: the report, and for [`branches_listed`]
/// the upper positions and the branch of each (for the picture).
#[derive(Debug)]
pub struct Found {
    /// The report.
    pub report: BranchesReport,
    /// The upper positions, sorted by `y`, then `x`, and the branch of each; `None` from
    /// [`branches`], which keeps no list.
    pub listed: Option<(Vec<(u32, u32)>, Membership)>,
}

/// Lists the P-positions of rows `0..rows` of game `k` (columns `0..width`, default
/// [`crate::analysis::positions::default_width`]) and groups the upper ones (`x <= y`) as they
/// come ([`stream::Grouper`]): memory is the line counter's
/// ([`crate::analysis::positions::count_bytes`]) and a bounded amount more. Where the grouping
/// cannot be settled from the bins kept (a bin cut by a boundary of the rule), the positions
/// are listed again and grouped from the list ([`branches_listed`]): the same report.
pub fn branches(
    k: u32,
    rows: u32,
    width: Option<u32>,
    settings: &Settings,
    method: Method,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Found> {
    let mut grouper = stream::Grouper::new(rows, settings);
    let mut closed = closed::Checker::new(k, rows);
    let cover = positions(
        k,
        rows,
        width,
        method,
        opts,
        &mut |x, y| {
            if x <= y {
                grouper.take(x, y);
                if let Some(c) = &mut closed {
                    c.take(x, y);
                }
            }
            Ok(())
        },
        progress,
    )?;
    match grouper.finish() {
        Some(b) => {
            let closed_form = closed.map(closed::Checker::finish);
            Ok(Found { report: BranchesReport { k, cover, closed_form, branches: b }, listed: None })
        }
        None => {
            progress.message("grouping from the list");
            branches_listed(k, rows, width, settings, method, opts, progress)
        }
    }
}

/// [`branches`] from the list of the upper positions, kept (8 bytes each, and the grouping's
/// indices): the plain reference, and the picture's positions.
pub fn branches_listed(
    k: u32,
    rows: u32,
    width: Option<u32>,
    settings: &Settings,
    method: Method,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Found> {
    let mut pts = Vec::new();
    let cover = positions(
        k,
        rows,
        width,
        method,
        opts,
        &mut |x, y| {
            if x <= y {
                pts.push((x, y));
            }
            Ok(())
        },
        progress,
    )?;
    let (b, member) = group(rows, &pts, settings);
    let closed_form = closed::check(k, rows, &pts);
    Ok(Found { report: BranchesReport { k, cover, closed_form, branches: b }, listed: Some((pts, member)) })
}

impl fmt::Display for BranchesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cover)?;
        if let Some(c) = &self.closed_form {
            match c.first_difference {
                None => writeln!(
                    f,
                    "the closed form of game {} (docs/small-k.md) gives exactly these {} upper P-positions",
                    self.k, c.positions
                )?,
                Some(((x, y), game_has)) => writeln!(
                    f,
                    "the closed form of game {} differs first at ({x}, {y}), which {} a P-position",
                    self.k,
                    if game_has {
                        "the game has and the form does not give as"
                    } else {
                        "the form gives but the game does not have as"
                    }
                )?,
            }
        }
        let b = &self.branches;
        writeln!(
            f,
            "upper P-positions (x <= y): {}; on column 0: {}, below row {}: {}, in no branch: {}",
            b.upper, b.on_column_zero, b.settings.first_row, b.early, b.ungrouped
        )?;
        writeln!(f, "{} branch(es) of y/x:", b.branches.len())?;
        for (i, br) in b.branches.iter().enumerate() {
            writeln!(
                f,
                "branch {i}: {} positions ({:.2} %), {:.4} per row near y = {}, followed down to row {}",
                br.positions,
                100.0 * br.share,
                br.per_row,
                b.rows,
                br.from_row
            )?;
            for m in &br.measurements {
                writeln!(
                    f,
                    "  ratio at y = {:>9}: {:.9} (rows {}..{}, {} positions, std error {:.1e}, columns within {:.2} of the line)",
                    m.y,
                    m.ratio,
                    m.y / 2,
                    m.y,
                    m.points,
                    m.std_error,
                    m.max_residual
                )?;
            }
            writeln!(f, "  limit {:.9} +- {:.1e}: {}", br.limit, br.error, br.exact.form)?;
            let cf = &br.exact.continued_fraction;
            if cf.is_empty() {
                // The interval's ends have different integer parts: it holds a whole number.
                writeln!(
                    f,
                    "  continued fraction within the error: no term shared (the interval holds {})",
                    (br.limit + br.error).floor()
                )?;
            } else {
                writeln!(f, "  continued fraction within the error: {}", exact::cf_text(cf))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;
    use crate::model::reference::direct_palace_numbers;

    const PHI: f64 = 1.618_033_988_749_895;

    /// Wythoff's pairs `(floor(n phi), floor(n phi^2))` by integers (`docs/rule.md`).
    fn wythoff(rows: u32) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = (0u64..)
            .map(|n| {
                let s = (5 * n * n).isqrt();
                let a = (n + s) / 2;
                (a as u32, (a + n) as u32)
            })
            .take_while(|&(_, b)| b < rows)
            .collect();
        v.sort_by_key(|&(x, y)| (y, x));
        v
    }

    #[test]
    fn synthetic_branches_are_found_with_their_shares() {
        // Three Beatty rays y = floor(n r) + offset, x = n, for r = sqrt 2, 2 and 3, plus a
        // few stray points; the grouping must find the three, their shares and their limits.
        let rows = 60_000u32;
        let mut pts = Vec::new();
        for (r, off) in [(std::f64::consts::SQRT_2, 3.0), (2.0, 0.0), (3.0, 7.0)] {
            for n in 1u32.. {
                let y = (f64::from(n) * r + off).floor() as u32;
                if y >= rows {
                    break;
                }
                pts.push((n, y));
            }
        }
        let stray = [(5000, 30000), (7000, 7100), (9000, 40000)];
        pts.extend(stray);
        pts.sort_by_key(|&(x, y)| (y, x));
        let (b, member) = group(rows, &pts, &Settings::default());
        assert_eq!(b.branches.len(), 3, "{b:#?}");
        for (br, want) in b.branches.iter().zip([std::f64::consts::SQRT_2, 2.0, 3.0]) {
            assert!((br.limit - want).abs() <= br.error.max(1e-9) + 1e-9, "{} vs {want}", br.limit);
            assert!(br.error < 1e-3);
            let expect = (f64::from(rows) / want) as u64;
            assert!(br.positions.abs_diff(expect) <= 12, "{} vs {expect}", br.positions);
        }
        assert!(matches!(b.branches[0].exact.form, exact::Form::Quadratic { a: 1, b: 0, c: -2, .. }));
        assert!(matches!(b.branches[1].exact.form, exact::Form::Rational { p: 2, q: 1, .. }));
        assert!(matches!(b.branches[2].exact.form, exact::Form::Rational { p: 3, q: 1, .. }));
        // The stray points join no branch.
        for s in stray {
            let i = pts.iter().position(|&p| p == s).unwrap();
            assert_eq!(member[i], None, "{s:?}");
        }
        assert_eq!(b.ungrouped, 3);
    }

    #[test]
    fn wythoff_is_one_branch_of_limit_phi() {
        let rows = 20_000;
        let pts = wythoff(rows);
        let (b, member) = group(rows, &pts, &Settings::default());
        assert_eq!(b.branches.len(), 1);
        let br = &b.branches[0];
        assert!((br.limit - PHI).abs() < 1e-5 && (br.limit - PHI).abs() <= br.error, "{br:?}");
        assert!(matches!(br.exact.form, exact::Form::Quadratic { a: 1, b: -1, c: -1, .. }), "{:?}", br.exact);
        // Every pair with x >= 1 from row 16 on is in it.
        let grouped = member.iter().filter(|m| m.is_some()).count();
        assert_eq!(grouped as u64, pts.iter().filter(|&&(x, y)| x > 0 && y >= 16).count() as u64);
    }

    #[test]
    fn the_games_positions_are_the_direct_definitions() {
        // k = 1 through the engine is Wythoff's pairs; k = 2..6 on a small board agree with
        // the direct definition, branch by branch.
        let rows = 3000;
        let Found { report: r, listed: Some((pts, _)) } = branches_listed(
            1,
            rows,
            None,
            &Settings::default(),
            Method::Lines,
            &EngineOptions::default(),
            &Silent,
        )
        .unwrap() else {
            unreachable!("a list")
        };
        assert_eq!(pts, wythoff(rows));
        assert_eq!(r.branches.branches.len(), 1);
        for k in 2..=6u32 {
            let (rows, width) = (120u32, 400u32);
            let direct = direct_palace_numbers(k, width as usize, rows as usize);
            let want: Vec<(u32, u32)> = (0..rows)
                .flat_map(|y| (0..=y).map(move |x| (x, y)))
                .filter(|&(x, y)| direct[(y * width + x) as usize] < k)
                .collect();
            let settings = Settings { min_points: 4, ..Settings::default() };
            let Found { report: r, listed: Some((pts, member)) } = branches_listed(
                k,
                rows,
                Some(width),
                &settings,
                Method::Lines,
                &EngineOptions::default(),
                &Silent,
            )
            .unwrap() else {
                unreachable!("a list")
            };
            assert_eq!(pts, want, "k = {k}");
            assert_eq!(member.len(), pts.len());
            let sum: u64 = r.branches.branches.iter().map(|b| b.positions).sum();
            let b = &r.branches;
            assert_eq!(sum + b.on_column_zero + b.early + b.ungrouped, b.upper, "k = {k}");
        }
    }

    #[test]
    fn measure_rows_are_decades_then_the_end() {
        assert_eq!(measure_rows(500), vec![500]);
        assert_eq!(measure_rows(1000), vec![1000]);
        assert_eq!(measure_rows(30000), vec![1000, 10000, 30000]);
        assert_eq!(measure_rows(100000), vec![1000, 10000, 100000]);
    }
}
