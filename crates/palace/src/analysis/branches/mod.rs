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
pub mod plot;

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

struct Fit {
    ratio: f64,
    std_error: f64,
    max_residual: f64,
}

/// The least-squares line `x = a + b y` through `pts`, as the ratio `1 / b`.
fn fit(pts: &[(u32, u32)]) -> Option<Fit> {
    let n = pts.len() as f64;
    if pts.len() < 3 {
        return None;
    }
    let (mx, my) = pts.iter().fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + f64::from(x), sy + f64::from(y)));
    let (mx, my) = (mx / n, my / n);
    let (mut syy, mut sxy) = (0.0, 0.0);
    for &(x, y) in pts {
        let (dx, dy) = (f64::from(x) - mx, f64::from(y) - my);
        syy += dy * dy;
        sxy += dx * dy;
    }
    if syy == 0.0 || sxy == 0.0 {
        return None;
    }
    let b = sxy / syy;
    let a = mx - b * my;
    let (mut ss, mut max_residual) = (0.0, 0.0f64);
    for &(x, y) in pts {
        let r = f64::from(x) - a - b * f64::from(y);
        ss += r * r;
        max_residual = max_residual.max(r.abs());
    }
    let se_b = (ss / (n - 2.0) / syy).sqrt();
    Some(Fit { ratio: 1.0 / b, std_error: se_b / (b * b), max_residual })
}

/// The rows at which ratios are measured: `10^3, 10^4, ...` below `rows`, and `rows`.
pub(crate) fn measure_rows(rows: u32) -> Vec<u64> {
    let mut v: Vec<u64> =
        std::iter::successors(Some(1000u64), |y| Some(y * 10)).take_while(|&y| y < u64::from(rows)).collect();
    v.push(u64::from(rows));
    v
}

/// Groups the upper positions `pts` (`x <= y`, rows `0..rows`) into branches; returns the
/// branches and the branch of every position.
pub fn group(rows: u32, pts: &[(u32, u32)], settings: &Settings) -> (Branches, Membership) {
    let lr = |&(x, y): &(u32, u32)| (f64::from(y) / f64::from(x)).ln();
    let gap = |top: u32| settings.min_gap.max(60.0 / f64::from(top.max(1)));
    let mut member: Membership = vec![None; pts.len()];
    // Octaves from the top: [lo, hi).
    let mut octaves = Vec::new();
    let mut hi = rows;
    while hi > settings.first_row {
        let lo = (hi / 2).max(settings.first_row);
        octaves.push((lo, hi));
        hi = lo;
    }
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
    let mut branches = Vec::new();
    for (b, &lowest) in from_row.iter().enumerate() {
        let mine: Vec<(u32, u32)> =
            pts.iter().zip(&member).filter(|(_, m)| **m == Some(b)).map(|(p, _)| *p).collect();
        let measurements: Vec<Measurement> = measure_rows(rows)
            .into_iter()
            .filter_map(|y| {
                let win: Vec<(u32, u32)> = mine
                    .iter()
                    .copied()
                    .filter(|&(_, py)| u64::from(py) >= y / 2 && u64::from(py) < y)
                    .collect();
                fit(&win).map(|f| Measurement {
                    y,
                    points: win.len() as u64,
                    ratio: f.ratio,
                    std_error: f.std_error,
                    max_residual: f.max_residual,
                })
            })
            .collect();
        let Some(last) = measurements.last() else { continue };
        let change =
            measurements.len().checked_sub(2).map_or(0.0, |i| (last.ratio - measurements[i].ratio).abs());
        let error = change.max(2.0 * last.std_error);
        let top = octaves[0];
        let in_top = mine.iter().filter(|&&(_, y)| (top.0..top.1).contains(&y)).count();
        branches.push((
            b,
            Branch {
                positions: mine.len() as u64,
                share: mine.len() as f64 / upper.max(1) as f64,
                per_row: in_top as f64 / f64::from(top.1 - top.0),
                from_row: lowest,
                limit: last.ratio,
                error,
                exact: exact::recognise(last.ratio, error),
                measurements,
            },
        ));
    }
    branches.sort_by(|a, b| a.1.limit.total_cmp(&b.1.limit));
    // Renumber the membership by the sorted order.
    let mut new_index = vec![None; state.len()];
    for (n, (b, _)) in branches.iter().enumerate() {
        new_index[*b] = Some(n);
    }
    for m in member.iter_mut() {
        *m = m.and_then(|b| new_index[b]);
    }
    let grouped = member.iter().filter(|m| m.is_some()).count() as u64;
    let report = Branches {
        rows,
        upper,
        on_column_zero,
        early,
        ungrouped: upper - on_column_zero - early - grouped,
        branches: branches.into_iter().map(|(_, b)| b).collect(),
        settings: *settings,
    };
    (report, member)
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

/// What [`branches`] returns: the report, the upper positions and the branch of each (for the
/// picture), and the engine's report.
#[derive(Debug)]
pub struct Found {
    /// The report.
    pub report: BranchesReport,
    /// The upper positions, sorted by `y`, then `x`.
    pub positions: Vec<(u32, u32)>,
    /// The branch of each.
    pub member: Membership,
}

/// Lists the P-positions of rows `0..rows` of game `k` (columns `0..width`, default
/// [`crate::analysis::positions::default_width`]), keeps the upper ones (`x <= y`) and groups
/// them.
pub fn branches(
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
    Ok(Found { report: BranchesReport { k, cover, closed_form, branches: b }, positions: pts, member })
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
        let Found { report: r, positions: pts, .. } =
            branches(1, rows, None, &Settings::default(), Method::Lines, &EngineOptions::default(), &Silent)
                .unwrap();
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
            let Found { report: r, positions: pts, member, .. } =
                branches(k, rows, Some(width), &settings, Method::Lines, &EngineOptions::default(), &Silent)
                    .unwrap();
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
