//! The skin's pattern measures (`palace skin --pattern`, `crates/palace/src/analysis/skin/pattern.rs`) and
//! its per-level distributions against the direct definition ([`DirectDp`]) on game 100 to
//! level 3: the recorded patterns, the horizontal thicknesses and the palaces left of the skin
//! (claim 35 of `docs/paper-claims.md`), the half-turn symmetry of the periods (claim 34), and
//! that the cells of every horizontal and diagonal run lie in the vertical runs whose values
//! the report counts (claim 26).

use palace::analysis::skin::{SkinState, analyse, fib, level_of_thickness};
use palace::model::reference::DirectDp;
use std::collections::BTreeMap;

const K: u32 = 100;
const TO: u64 = 9800;

/// The skin state fed from the direct definition, and the rows' values `v = N - k` it read.
fn direct() -> (SkinState, Vec<Vec<i8>>) {
    let mut dp = DirectDp::new(K, TO as usize);
    let mut s = SkinState::new(K, TO).with_patterns();
    let mut rows = Vec::new();
    let mut y = 0;
    while !s.complete() {
        let row: Vec<i8> =
            dp.next_row().iter().map(|&n| (i64::from(n) - i64::from(K)).clamp(-128, 127) as i8).collect();
        s.row(y, |x| row.get(x as usize).copied()).unwrap();
        rows.push(row);
        y += 1;
    }
    (s, rows)
}

#[test]
fn the_skin_pattern_against_the_direct_definition() {
    let (s, v) = direct();
    let at = |x: u64, y: u32| v[y as usize][x as usize];
    let cols = s.columns_measured();
    let pats = s.patterns().unwrap();
    let col = |x: u64| &cols[(x - u64::from(K)) as usize];
    let in_run = |x: u64, y: u32| {
        let c = col(x);
        y >= c.top && y < c.top + c.vertical
    };
    // The recorded patterns are the values of the vertical runs.
    for (c, &p) in cols.iter().zip(pats) {
        for j in 0..c.vertical {
            let value = at(c.x, c.top + j);
            assert!(value < 0, "({}, {}) in the run", c.x, c.top + j);
            assert_eq!((p >> j) & 1 == 1, value == -2, "column {} cell {j}", c.x);
        }
        assert!(c.top + c.vertical >= v.len() as u32 || at(c.x, c.top + c.vertical) >= 0, "the run ends");
    }
    let report = analyse(&s);
    let regular = |x: u64| report.levels.iter().any(|l| (l.regular.0..l.regular.1).contains(&x));
    // Diagonal runs lie in the vertical runs over the levels' regular stretches; elsewhere (the
    // thickenings, where the skin is not separated from the arm) some reach below them.
    let (mut diagonal_cells, mut outside) = (0u64, BTreeMap::<(u64, u32), i8>::new());
    for c in cols {
        for d in 0..u64::from(c.diagonal) {
            let (x, y) = (c.x + d, c.top + d as u32);
            if !in_run(x, y) {
                assert!(!(regular(c.x) && regular(x)), "diagonal of column {} at +{d}", c.x);
                outside.insert((x, y), at(x, y));
            }
            diagonal_cells += 1;
        }
    }
    // Row by row: the boundary, the horizontal run left of it (in the vertical runs over the
    // regular stretches), and the palaces left of the run, counted directly: k minus the run.
    let mut direct_horizontals: BTreeMap<usize, BTreeMap<u32, u64>> = BTreeMap::new();
    let mut b = u64::from(K);
    let mut rows_checked = 0;
    for (y, row) in v.iter().enumerate() {
        let y = y as u32;
        while b < TO && row[b as usize] != 0 {
            b += 1;
        }
        if b >= TO {
            break;
        }
        let mut run = 0u32;
        while b - u64::from(run) > u64::from(K) && row[(b - u64::from(run) - 1) as usize] < 0 {
            run += 1;
        }
        for x in b - u64::from(run)..b {
            if !in_run(x, y) {
                assert!(!(regular(x) && regular(b - 1)), "row {y}, column {x} of the horizontal run");
                outside.insert((x, y), at(x, y));
            }
        }
        let left = row[..(b - u64::from(run)) as usize].iter().filter(|&&c| c < 0).count() as u32;
        assert_eq!(left, K - run, "row {y}: palaces left of the skin");
        rows_checked += 1;
        if run > 0 {
            for l in &report.levels {
                let last = b - 1;
                let seg = l.begins_at..l.begins_at + l.columns;
                if b > l.begins_at
                    && seg.contains(&last)
                    && level_of_thickness(col(last).vertical) == Some(l.n)
                {
                    *direct_horizontals.entry(l.n).or_default().entry(run).or_default() += 1;
                }
            }
        }
    }
    assert!(rows_checked > 3000 && diagonal_cells > 40_000);
    // The cells of those runs outside the vertical runs, by value, as the report counts them.
    let mut by_value = BTreeMap::<i8, u64>::new();
    for &v in outside.values() {
        *by_value.entry(v).or_default() += 1;
    }
    assert!(!by_value.is_empty());
    assert_eq!(report.outside_values, Some(by_value.into_iter().collect::<Vec<_>>()));
    assert_eq!(report.levels.iter().map(|l| l.n).collect::<Vec<_>>(), vec![1, 2, 3]);
    for l in &report.levels {
        let direct: Vec<(u32, u64)> = direct_horizontals
            .get(&l.n)
            .map(|m| m.iter().map(|(&a, &b)| (a, b)).collect())
            .unwrap_or_default();
        assert_eq!(l.horizontals, direct, "level {}", l.n);
    }
    // The half turn of each period between two lines of the regular stretch, from the values
    // of the cells themselves.
    for l in &report.levels {
        let p = l.pattern.as_ref().unwrap();
        let line = fib(2 * l.n) as u32 + 1;
        let lines: Vec<u64> = (l.regular.0..l.regular.1).filter(|&x| col(x).vertical == line).collect();
        let (mut shape, mut same, mut exchanged) = (0, 0, 0);
        for w in lines.windows(2) {
            let (a, z) = (w[0] + 1, w[1] - 1);
            let cells: BTreeMap<(u64, u32), i8> = (a..=z)
                .flat_map(|x| (col(x).top..col(x).top + col(x).vertical).map(move |y| (x, y)))
                .map(|(x, y)| ((x, y), at(x, y)))
                .collect();
            let centre = col(a).top + col(z).top + col(z).vertical - 1;
            let turned: BTreeMap<(u64, u32), i8> = cells
                .iter()
                .filter_map(|(&(x, y), &c)| Some(((a + z - x, centre.checked_sub(y)?), c)))
                .collect();
            if turned.keys().eq(cells.keys()) {
                shape += 1;
                same += u64::from(turned.iter().all(|(xy, &c)| cells[xy] == c));
                exchanged += u64::from(turned.iter().all(|(xy, &c)| cells[xy] == -3 - c));
            }
        }
        assert_eq!(p.periods, lines.len().saturating_sub(1) as u64, "level {}", l.n);
        assert_eq!(
            (p.symmetric_shape, p.symmetric_values, p.symmetric_exchanged),
            (shape, same, exchanged),
            "level {}",
            l.n
        );
    }
    // What game 100 shows (known from the run above, and the same for every k measured):
    // every period's values are symmetric with k-2 and k-1 exchanged at levels 1 and 3.
    let p3 = report.levels[2].pattern.as_ref().unwrap();
    assert!(p3.periods >= 2 && p3.symmetric_exchanged == p3.periods && p3.symmetric_values == 0);
}
