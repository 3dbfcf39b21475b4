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
mod group;
pub mod plot;
pub mod stream;

pub use group::{Branch, Branches, BranchesReport, Measurement, Membership, Settings, group};

use crate::analysis::positions::{Method, positions};
use crate::engine::{EngineOptions, Progress};
use crate::error::Result;

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

#[cfg(test)]
mod tests {
    use super::group::*;
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
