//! The P-positions' branches: grouped by `ln(y/x)` with the gap rule ([`Settings`]), each measured
//! decade by decade, and the report ([`BranchesReport`]).

use crate::analysis::positions::PositionsReport;
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

impl Settings {
    /// Whether `g` can be the grouping's smallest gap of `ln(y/x)`: strictly between 0 and 1.
    pub fn accepts_min_gap(g: f64) -> bool {
        g > 0.0 && g < 1.0
    }
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
    pub exact: super::exact::Recognised,
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
pub(super) fn octaves(rows: u32, settings: &Settings) -> Vec<(u32, u32)> {
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
pub(super) fn gap(settings: &Settings, top: u32) -> f64 {
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
                    let mut s = super::fit::Sums::default();
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
pub(super) fn windows(rows: u32) -> Vec<(u64, u64)> {
    measure_rows(rows).into_iter().map(|y| (y, y / 2)).collect()
}

/// The measurement at `y` from a branch's sums over the rows `y / 2 .. y` and their extremes
/// ([`super::fit::fit`]).
pub(super) fn measurement(
    y: u64,
    s: &super::fit::Sums,
    extremes: impl Iterator<Item = (u32, u32)>,
) -> Option<Measurement> {
    super::fit::fit(s, extremes).map(|f| Measurement {
        y,
        points: s.n(),
        ratio: f.ratio,
        std_error: f.std_error,
        max_residual: f.max_residual,
    })
}

/// What the grouping found of one branch, before the branches are sorted.
pub(super) struct Found1 {
    pub(super) positions: u64,
    /// Its positions in the top octave.
    pub(super) in_top: u64,
    pub(super) from_row: u32,
    pub(super) measurements: Vec<Measurement>,
}

/// The upper positions' counts apart from the branches.
pub(super) struct Counts {
    pub(super) upper: u64,
    pub(super) on_column_zero: u64,
    pub(super) early: u64,
}

/// The report from the branches found (numbered as the grouping numbered them), and each one's
/// number in the report (`None`: measured nowhere, so dropped).
pub(super) fn assemble(
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
                exact: super::exact::recognise(last.ratio, error),
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

/// What [`branches`](crate::analysis::branches::branches) found: the game's positions (the k-cover check) and their branches.
#[derive(Debug, Clone, Serialize)]
pub struct BranchesReport {
    /// The game.
    pub k: u32,
    /// The listing's report: the k-cover check.
    pub cover: PositionsReport,
    /// The closed form of the upper positions checked against them (`k <= 3`).
    pub closed_form: Option<super::closed::Check>,
    /// The branches.
    #[serde(flatten)]
    pub branches: Branches,
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
                writeln!(f, "  continued fraction within the error: {}", super::exact::cf_text(cf))?;
            }
        }
        Ok(())
    }
}
