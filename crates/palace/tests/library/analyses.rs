//! The analyses of the paper's §3 (compare, regions, fabric, skin) on small boards, against
//! values each test computes itself from the direct definition (the three-counter programme),
//! never copied from the commands' output.

use palace::analysis::compare::{self, Comparison};
use palace::analysis::fabric;
use palace::analysis::regions;
use palace::analysis::skin::{self, fib};
use palace::engine::EngineOptions;
use palace::labels::{self, ALL, Region};
use palace::model::geometry::Window;
use palace::model::reference::{DirectDp, direct_palace_numbers};
use palace::model::rule::in_hood;
use palace::testing as common;
use std::collections::{BTreeMap, BTreeSet};

/// Two workers, the fastest kernel.
fn opts() -> EngineOptions {
    common::opts(2, palace::kernel::KernelChoice::Auto)
}

/// Palace numbers of game k on a board, as a closure.
fn game(k: u32, w: usize, h: usize) -> impl Fn(usize, usize) -> i64 {
    let n = direct_palace_numbers(k, w, h);
    move |x, y| i64::from(n[y * w + x])
}

/// Fig. 4 on small games: every cell's match computed here, and the hood's share.
#[test]
fn compare_counts_matches_like_the_definition() {
    for (a, b, shift, offset) in
        [(47u32, 50u32, (1u32, 1u32), 3i64), (49, 50, (1, 0), 1), (30, 31, (0, 1), 1)]
    {
        let (w, h) = (160usize, 150usize);
        let win = Window::new(0, 0, w as u32, h as u32).unwrap();
        let c = Comparison { a, b, shift, offset };
        let (rep, _) = compare::run(c, win, 1, None, &opts(), &palace::engine::Silent).unwrap();
        let na = game(a, w, h);
        let nb = game(b, w + 2, h + 2);
        let (mut matched, mut hood, mut hood_matched) = (0u64, 0u64, 0u64);
        for y in 0..h {
            for x in 0..w {
                let m = nb(x + shift.0 as usize, y + shift.1 as usize) == na(x, y) + offset;
                matched += u64::from(m);
                if in_hood(a, x as u64, y as u64) {
                    hood += 1;
                    hood_matched += u64::from(m);
                }
            }
        }
        assert_eq!(rep.cells, (w * h) as u64);
        assert_eq!(rep.matched, matched, "{a} vs {b}");
        let hood_rep = rep.per_region.iter().find(|r| r.region == Region::Hood).unwrap();
        assert_eq!((hood_rep.cells, hood_rep.matched), (hood, hood_matched), "{a} vs {b} hood");
        if shift == (1, 1) {
            // Fig. 4 left: the hood matches perfectly.
            assert_eq!(hood_matched, hood);
        } else {
            // Fig. 4 right: half of the hood (the side the shift runs along) matches.
            let frac = hood_matched as f64 / hood as f64;
            assert!((0.45..0.56).contains(&frac), "half the hood: {frac}");
        }
    }
}

/// The region labels of a window from the corner (`win.x0 = win.y0 = 0`), row-major.
fn labels_of(k: u32, win: Window) -> Vec<Region> {
    let w = win.x1() as usize;
    let mut labels = vec![Region::InnerSector; w * win.y1() as usize];
    labels::label(
        k,
        win,
        &opts(),
        &palace::engine::Silent,
        &[],
        |_| (),
        |r| {
            labels[r.y as usize * w..(r.y as usize + 1) * w].copy_from_slice(&r.labels);
            Ok(())
        },
    )
    .unwrap();
    labels
}

/// Region labels: hood and outer space against their definitions, the épaulettes' periods,
/// values and proportions (§3.2), the fabric and arm invariances, and the mirror symmetry.
#[test]
fn regions_have_the_papers_properties() {
    let k = 150u32;
    let (w, h) = (464usize, 464usize);
    let win = Window::new(0, 0, w as u32, h as u32).unwrap();
    let labels = labels_of(k, win);
    let n = game(k, w + 2, h + 2);
    let n1 = game(k + 1, w + 2, h + 2);
    let n3 = game(k + 3, w + 2, h + 2);
    let v = |x: usize, y: usize| n(x, y) - i64::from(k);
    let lab = |x: usize, y: usize| labels[y * w + x];
    // The lattice of the periods (5, 1) and (4, 3) has index 11: cell (x, y) lies in class
    // (3x - 4y) mod 11, and a periodic region has one value per class.
    let mut class_values: Vec<std::collections::BTreeSet<i64>> = vec![Default::default(); 11];
    for y in 0..h {
        for x in 0..w {
            let l = lab(x, y);
            // Hood: the closed form.
            assert_eq!(l == Region::Hood, in_hood(k, x as u64, y as u64), "hood at ({x},{y})");
            // Outer space: all zero from the top (x >= k) or from the left (y >= k).
            let from_top = x >= k as usize && (0..=y).all(|yy| v(x, yy) == 0);
            let from_left = y >= k as usize && (0..=x).all(|xx| v(xx, y) == 0);
            if l != Region::Hood {
                assert_eq!(l == Region::OuterSpace, from_top || from_left, "outer space at ({x},{y})");
            }
            // Mirror symmetry of the labels (blocks align with rows and columns).
            assert_eq!(lab(y, x), l.mirror(), "symmetry at ({x},{y})");
            match l {
                Region::EpauletteLower => {
                    // Periods (5, 1) and (4, 3), palace numbers k-1, k, k+1.
                    assert!((-1..=1).contains(&v(x, y)));
                    // (Cells whose period partners fall in the hood, along the casing, are not
                    // required to repeat.)
                    if x >= 5
                        && y >= 3
                        && !in_hood(k, x as u64 - 5, y as u64 - 1)
                        && !in_hood(k, x as u64 - 4, y as u64 - 3)
                    {
                        assert_eq!(v(x, y), v(x - 5, y - 1), "period (5,1) at ({x},{y})");
                        assert_eq!(v(x, y), v(x - 4, y - 3), "period (4,3) at ({x},{y})");
                        class_values[(3 * x as i64 - 4 * y as i64).rem_euclid(11) as usize].insert(v(x, y));
                    }
                }
                Region::Fabric => assert_eq!(n3(x + 1, y + 1), n(x, y) + 3, "fabric at ({x},{y})"),
                Region::ArmUpper => assert_eq!(n1(x + 1, y), n(x, y) + 1, "upper arm at ({x},{y})"),
                Region::ArmLower => assert_eq!(n1(x, y + 1), n(x, y) + 1, "lower arm at ({x},{y})"),
                _ => {}
            }
        }
    }
    // In the épaulette's periodic region of 11 cells, k-1 appears 5 times, k and k+1 3 times.
    assert!(class_values.iter().all(|s| s.len() == 1), "one value per class: {class_values:?}");
    let mut counts = [0; 3];
    for s in &class_values {
        counts[(s.first().unwrap() + 1) as usize] += 1;
    }
    assert_eq!(counts, [5, 3, 3], "palace numbers k-1, k, k+1 over one period");
    // The rift: the épaulette's period (81, 31) (mirrored (31, 81)) holds, its partner off the
    // hood; the rest: fray within 12 cells past a fabric cell (along the row above the
    // diagonal, the column below it), inner sector with at most 4 palaces in the 64 x 64 square
    // ending at the cell (palaces counted here from the direct definition), warps otherwise.
    let (dx, dy) = (labels::RIFT_DX, labels::RIFT_DY);
    let mut pal = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        for x in 0..w {
            pal[(y + 1) * (w + 1) + x + 1] =
                u32::from(n(x, y) < i64::from(k)) + pal[y * (w + 1) + x + 1] + pal[(y + 1) * (w + 1) + x]
                    - pal[y * (w + 1) + x];
        }
    }
    let q = labels::INNER_WINDOW;
    let square = |x: usize, y: usize| {
        let (xa, ya) = ((x + 1).saturating_sub(q), (y + 1).saturating_sub(q));
        let at = |x: usize, y: usize| pal[y * (w + 1) + x];
        at(x + 1, y + 1) + at(xa, ya) - at(xa, y + 1) - at(x + 1, ya)
    };
    let mut seen = std::collections::BTreeMap::new();
    for y in 0..h {
        for x in 0..w {
            let l = lab(x, y);
            *seen.entry(l).or_insert(0u64) += 1;
            match l {
                Region::RiftUpper => {
                    assert!(x >= dx && y >= dy && !in_hood(k, (x - dx) as u64, (y - dy) as u64));
                    assert_eq!(v(x, y), v(x - dx, y - dy), "upper rift at ({x},{y})");
                }
                Region::RiftLower => {
                    assert!(x >= dy && y >= dx && !in_hood(k, (x - dy) as u64, (y - dx) as u64));
                    assert_eq!(v(x, y), v(x - dy, y - dx), "lower rift at ({x},{y})");
                }
                l if l.is_rest() => {
                    let f = labels::FRAY_WIDTH as usize;
                    let row = (x.saturating_sub(f)..x).any(|xx| lab(xx, y) == Region::Fabric);
                    let col = (y.saturating_sub(f)..y).any(|yy| lab(x, yy) == Region::Fabric);
                    let want = if (x >= y && row) || (x <= y && col) {
                        Region::Fray
                    } else if square(x, y) <= labels::INNER_MAX || x == y {
                        Region::InnerSector
                    } else if x > y {
                        Region::WarpUpper
                    } else {
                        Region::WarpLower
                    };
                    assert_eq!(l, want, "rest at ({x},{y})");
                }
                _ => {}
            }
        }
    }
    // Every region is there (the checks above are not empty).
    for r in ALL {
        assert!(seen.get(&r).copied().unwrap_or(0) > 0, "no {r:?} on the board");
    }
    // Refined to the cell, the fabric, the épaulettes and the arms are each one piece (no stray
    // blocks): one 4-connected component per label. (The rift is not: near the nose it is a
    // cell or two wide and breaks into pieces, 11 of them here.)
    for r in
        [Region::Fabric, Region::EpauletteUpper, Region::EpauletteLower, Region::ArmUpper, Region::ArmLower]
    {
        let mut comp = vec![false; w * h];
        let mut pieces = 0;
        for start in 0..w * h {
            if labels[start] != r || comp[start] {
                continue;
            }
            pieces += 1;
            let mut stack = vec![start];
            comp[start] = true;
            while let Some(i) = stack.pop() {
                let (x, y) = (i % w, i / w);
                let nb = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
                for (a, b) in nb {
                    if a < w && b < h && labels[b * w + a] == r && !comp[b * w + a] {
                        comp[b * w + a] = true;
                        stack.push(b * w + a);
                    }
                }
            }
        }
        assert_eq!(pieces, 1, "{r:?} in {pieces} pieces");
    }
    for r in ALL {
        assert!(labels.contains(&r), "{r:?} present");
    }
    // The borders of these labels, counted here cell by cell, against the report's (the tiled
    // labeller's), on the whole board and in a window that cuts every region.
    for win in [win, Window::new(37, 20, 400, 431).unwrap()] {
        let (rep, _) = regions::run(k, win, 1, None, &opts(), &palace::engine::Silent).unwrap();
        let plain = plain_borders(&labels, w, win);
        let got: BTreeMap<BorderKey, PlainBorder> = rep
            .borders
            .iter()
            .map(|b| {
                let key = (b.a, b.b, b.half.map(|h| h == regions::borders::Half::Upper));
                let steps = (b.rows.1 - b.rows.0 + 1) + (b.columns.1 - b.columns.0 + 1);
                let per_step = (b.row_edges + b.column_edges) as f64 / steps as f64;
                assert!((b.per_step - per_step).abs() < 1e-12, "{b:?}");
                (
                    key,
                    PlainBorder {
                        edges: [b.row_edges, b.column_edges],
                        xs: b.columns,
                        ys: b.rows,
                        ends: b.ends,
                    },
                )
            })
            .collect();
        assert_eq!(got, plain, "borders of window {win}");
        // The paper's seven borders are all there, in both halves (or both mirror images).
        let named: BTreeSet<&str> = rep.borders.iter().filter_map(|b| b.paper).collect();
        assert_eq!(named.len(), 7, "{named:?}");
    }
}

/// A border as the plain count gives it: the pair of regions (in [`ALL`]'s order) and, for two
/// regions that are their own mirror images (on both sides of the diagonal), whether the edges
/// lie above the diagonal.
type BorderKey = (Region, Region, Option<bool>);

/// The plain count of a border: edges between neighbours in a row and in a column, the
/// columns and rows of the cells beside them, and the corners where exactly one of its edges
/// meets.
#[derive(Debug, PartialEq)]
struct PlainBorder {
    edges: [u64; 2],
    xs: (u64, u64),
    ys: (u64, u64),
    ends: u64,
}

/// The borders of `labels` (a board `w` wide) in `win`, by a double loop over its cells. An
/// edge's midpoint, in doubled coordinates, decides its half of the board.
fn plain_borders(labels: &[Region], w: usize, win: Window) -> BTreeMap<BorderKey, PlainBorder> {
    let lab = |x: i64, y: i64| labels[y as usize * w + x as usize];
    let inside = |x: i64, y: i64| win.contains(x as u64, y as u64);
    // The key of the edge between cells p and q (neighbours), if they differ.
    let key = |p: (i64, i64), q: (i64, i64)| -> Option<BorderKey> {
        let (a, b) = (lab(p.0, p.1), lab(q.0, q.1));
        if a == b {
            return None;
        }
        let both = a.mirror() == a && b.mirror() == b;
        Some((a.min(b), a.max(b), both.then_some(p.0 + q.0 > p.1 + q.1)))
    };
    let mut out: BTreeMap<BorderKey, PlainBorder> = BTreeMap::new();
    fn entry(out: &mut BTreeMap<BorderKey, PlainBorder>, k: BorderKey) -> &mut PlainBorder {
        out.entry(k).or_insert(PlainBorder { edges: [0; 2], xs: (u64::MAX, 0), ys: (u64::MAX, 0), ends: 0 })
    }
    let (x0, y0, x1, y1) =
        (i64::from(win.x0()), i64::from(win.y0()), i64::from(win.x1()), i64::from(win.y1()));
    for y in y0..y1 {
        for x in x0..x1 {
            for (dir, p) in [(0, (x + 1, y)), (1, (x, y + 1))] {
                if !inside(p.0, p.1) {
                    continue;
                }
                if let Some(k) = key((x, y), p) {
                    let e = entry(&mut out, k);
                    e.edges[dir] += 1;
                    e.xs = (e.xs.0.min(x as u64), e.xs.1.max(p.0 as u64));
                    e.ys = (e.ys.0.min(y as u64), e.ys.1.max(p.1 as u64));
                }
            }
            // The corner below and right of (x, y), with all four cells in the window.
            if inside(x + 1, y + 1) {
                let (c, r, d, rd) = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1));
                let edges = [key(c, r), key(d, rd), key(c, d), key(r, rd)];
                for k in edges.iter().flatten() {
                    if edges.iter().flatten().filter(|&j| j == k).count() == 1 {
                        entry(&mut out, *k).ends += 1;
                    }
                }
            }
        }
    }
    out
}

/// The fabric's prefix check counts what the definition says, and the nose is where the
/// hood ends on the diagonal.
#[test]
fn fabric_prefix_counts_and_noses() {
    let size = 180u32;
    let (rep, _) = fabric::run(60, size, None, &opts(), &palace::engine::Silent).unwrap();
    assert_eq!(rep.classes.iter().map(|c| c.class).collect::<Vec<_>>(), vec![0, 1, 2]);
    for c in &rep.classes {
        let k = c.k;
        let m = u64::from(c.nose);
        assert!(in_hood(k, m, m) && !in_hood(k, m + 1, m + 1), "nose of k = {k}");
        // Recount the agreement over the fabric cells from the labels and the direct definition.
        let win = Window::new(c.window[0], c.window[1], c.window[2], c.window[3]).unwrap();
        let (w, h) = (win.x1() as usize + 12, win.y1() as usize + 12);
        let n = game(k, w, h);
        let far: Vec<_> = fabric::PREFIX_STEPS.iter().map(|&s| (s, game(k + s, w, h))).collect();
        let mut fab = 0u64;
        let mut agree = vec![0u64; far.len()];
        labels::label(
            k,
            win,
            &opts(),
            &palace::engine::Silent,
            &[],
            |_| (),
            |r| {
                for x in win.x0() as usize..win.x1() as usize {
                    if r.labels[x] == Region::Fabric {
                        fab += 1;
                        let y = r.y as usize;
                        for ((s, g), a) in far.iter().zip(agree.iter_mut()) {
                            let d = (*s / 3) as usize;
                            *a += u64::from(g(x + d, y + d) == n(x, y) + i64::from(*s));
                        }
                    }
                }
                Ok(())
            },
        )
        .unwrap();
        assert!(fab > 1000, "k = {k}: a fabric was found");
        assert_eq!(c.fabric_cells, fab);
        let got: Vec<u64> = c.prefix_agreement.iter().map(|&(_, a)| a).collect();
        assert_eq!(got, agree, "k = {k}");
    }
}

/// The skin of k = 500 over its first 9000 columns: the command's per-column tops and
/// thicknesses, through the counter sweep and the row sweep, against a plain scan of the
/// direct definition, and the paper's first levels.
#[test]
fn skin_follows_the_first_levels() {
    let k = 500u32;
    let to = 9500u64;
    let (rep, cols, _) = skin::follow(k, to, &opts(), &palace::engine::Silent).unwrap();
    let (rep_rows, cols_rows, _) = skin::follow_rows(k, to, &opts(), &palace::engine::Silent).unwrap();
    assert_eq!(cols, cols_rows, "counter sweep and row sweep");
    assert_eq!(rep.to_string(), rep_rows.to_string());
    // Independent scan, row by row with the three-counter programme.
    let w = to as usize;
    let mut dp = DirectDp::new(k, w);
    let mut top = vec![None::<u32>; w];
    let mut vert = vec![0u32; w];
    let mut open = vec![false; w];
    let mut zero = vec![true; w];
    // The skin's cells (the vertical runs) by value.
    let mut values = std::collections::BTreeMap::<i64, u64>::new();
    // The first skin cell of each value other than -1 and -2, row by row.
    let mut others: Vec<(i64, u64, u32)> = Vec::new();
    let mut see = |v: i64, x: usize, y: u32, values: &mut std::collections::BTreeMap<i64, u64>| {
        let n = values.entry(v).or_default();
        if *n == 0 && v != -1 && v != -2 {
            others.push((v, x as u64, y));
        }
        *n += 1;
    };
    for y in 0..rep.rows {
        let row = dp.next_row();
        for x in k as usize..w {
            let v = i64::from(row[x]) - i64::from(k);
            if zero[x] {
                if v != 0 {
                    zero[x] = false;
                    top[x] = Some(y);
                    vert[x] = u32::from(v < 0);
                    open[x] = v < 0;
                    if v < 0 {
                        see(v, x, y, &mut values);
                    }
                }
            } else if open[x] {
                if v < 0 {
                    vert[x] += 1;
                    see(v, x, y, &mut values);
                } else {
                    open[x] = false;
                }
            }
        }
    }
    assert_eq!(cols.len(), w - k as usize);
    let got: Vec<(i64, u64)> = rep.skin_values.iter().map(|&(v, n)| (i64::from(v), n)).collect();
    assert_eq!(got, values.into_iter().collect::<Vec<_>>(), "the skin's cells by value");
    let got: Vec<(i64, u64, u32)> = rep.skin_others.iter().map(|&(v, x, y)| (i64::from(v), x, y)).collect();
    assert_eq!(got, others, "the first skin cell of each other value");
    for c in &cols {
        assert_eq!(Some(c.top), top[c.x as usize], "top of column {}", c.x);
        assert_eq!(c.vertical, vert[c.x as usize], "vertical thickness of column {}", c.x);
    }
    // The paper (§3.4): n = 1 at the shoulder, n = 2 after about 200 columns, n = 3 after
    // about 7700; at level n the vertical thickness is f(2n), or f(2n) + 1 where a line is
    // emitted once per horizontal period f(2n + 3).
    let levels: Vec<usize> = rep.levels.iter().map(|l| l.n).collect();
    assert_eq!(levels, vec![1, 2, 3]);
    let begin = |n: usize| rep.levels.iter().find(|l| l.n == n).unwrap().begins_at - u64::from(k);
    assert!((150..250).contains(&begin(2)), "n = 2 after about 200 columns: {}", begin(2));
    assert!((7000..8500).contains(&begin(3)), "n = 3 after about 7700 columns: {}", begin(3));
    // From the independent scan: in level 2 the thicknesses are 3 and 4, lines 13 apart, and
    // one horizontal period descends f(5) = 5 rows.
    let (a, b) = ((u64::from(k) + begin(2)) as usize, (u64::from(k) + begin(3)) as usize);
    // The level's first period still carries the thickening from level 1; skip it.
    let core = a + 2 * fib(7) as usize..b - 800;
    assert!(core.clone().all(|x| vert[x] == 3 || vert[x] == 4));
    let lines: Vec<usize> = core.clone().filter(|&x| vert[x] == fib(4) as u32 + 1).collect();
    assert!(
        lines.len() > 100 && lines.windows(2).all(|p| p[1] - p[0] == fib(7) as usize),
        "lines f(7) = 13 apart"
    );
    assert!(core.clone().all(|x| top[x + 13].unwrap() - top[x].unwrap() == fib(5) as u32));
    let l2 = rep.levels.iter().find(|l| l.n == 2).unwrap();
    assert_eq!((l2.horizontal_period, l2.vertical_period), (Some(13), Some(5)));
}

/// A progress that records what it was told and checks the position never passes the length.
#[derive(Default)]
struct Recorder(std::sync::Mutex<(u64, u64, bool)>);

impl palace::engine::Progress for Recorder {
    fn set_length(&self, len: u64) {
        self.0.lock().unwrap().0 = len;
    }
    fn set_position(&self, pos: u64) {
        let mut g = self.0.lock().unwrap();
        g.1 = pos;
        g.2 |= pos > g.0;
    }
    fn inc(&self, delta: u64) {
        let mut g = self.0.lock().unwrap();
        g.1 += delta;
        g.2 |= g.1 > g.0;
    }
}

/// `fabric` sweeps three games one after another: its progress runs once from 0 to its
/// length, ending there, and never past it.
#[test]
fn fabric_progress_ends_at_its_length() {
    let p = Recorder::default();
    fabric::run(60, 120, None, &opts(), &p).unwrap();
    let (len, pos, overran) = *p.0.lock().unwrap();
    assert!(!overran, "position passed the length");
    assert!(len > 0 && pos == len, "ended at {pos} of {len}");
}

/// The armpits `palace regions` names are where the rifts end, found here from the labels
/// cell by cell; all four regions that meet there (§3.1: épaulette, arm, fabric with its rift,
/// and the rest) lie within 48 cells of each (the rift is up to 40 cells wide where it ends,
/// for k = 500); the lower armpit mirrors the upper one; and a
/// window that cuts the rift names no armpit.
#[test]
fn armpits_are_where_the_rifts_end_and_the_four_regions_meet() {
    for k in [150u32, 300, 500] {
        let n = 3 * k as usize;
        let win = Window::new(0, 0, n as u32, n as u32).unwrap();
        let labels = labels_of(k, win);
        let lab = |x: usize, y: usize| labels[y * n + x];
        // The upper rift's last column and its lowest cell there.
        let (mut ax, mut ay) = (0, 0);
        for y in 0..n {
            for x in 0..n {
                if lab(x, y) == Region::RiftUpper && (x, y) > (ax, ay) {
                    (ax, ay) = (x, y);
                }
            }
        }
        let (rep, _) = regions::run(k, win, 1, None, &opts(), &palace::engine::Silent).unwrap();
        let at =
            |name: &str| rep.junctions.iter().find(|j| j.name == name).map(|j| (j.x as usize, j.y as usize));
        assert_eq!(at("armpit (upper)"), Some((ax, ay)), "k = {k}");
        assert_eq!(at("armpit (lower)"), Some((ay, ax)), "k = {k}");
        let groups: [&[Region]; 4] = [
            &[Region::EpauletteUpper],
            &[Region::ArmUpper],
            &[Region::Fabric, Region::RiftUpper],
            &[Region::Fray, Region::WarpUpper, Region::InnerSector],
        ];
        for g in groups {
            let near = (ay.saturating_sub(48)..(ay + 49).min(n))
                .any(|y| (ax.saturating_sub(48)..(ax + 49).min(n)).any(|x| g.contains(&lab(x, y))));
            assert!(near, "k = {k}: {g:?} within 48 of the armpit ({ax}, {ay})");
        }
        // The hottest cells are listed apart.
        assert!(rep.hottest.iter().all(|j| j.name.starts_with("hottest")), "{:?}", rep.hottest);
        // A window whose last column cuts the rift (the rift's last column is the window's).
        let cut = Window::new(0, 0, ax as u32 + 1, n as u32).unwrap();
        let (rep, _) = regions::run(k, cut, 1, None, &opts(), &palace::engine::Silent).unwrap();
        assert!(rep.junctions.iter().all(|j| j.name != "armpit (upper)"), "k = {k}: {:?}", rep.junctions);
    }
}

/// The labels keep the picture's mirror symmetry, `v(x, y) = v(y, x)`, on square boards from
/// the corner: the label of (y, x) is the mirror image of the label of (x, y) for every cell,
/// also where a block halved by the diagonal passes both sides' tests or hands its label on.
#[test]
fn labels_are_mirror_symmetric() {
    for k in [150u32, 300, 301, 302, 500, 700, 1001] {
        let n = 3 * k as usize;
        let labels = labels_of(k, Window::new(0, 0, n as u32, n as u32).unwrap());
        let mut wrong = 0;
        for y in 0..n {
            for x in y..n {
                wrong += usize::from(labels[x * n + y] != labels[y * n + x].mirror());
            }
        }
        assert_eq!(wrong, 0, "k = {k}: cells whose mirror image has another label");
    }
}

/// §3.2: "the hood is exactly the region where every move is a winning move, because all
/// possible further moves can be blocked". The queen's moves from (x, y), counted one by one
/// (west, north, north-west), are fewer than k exactly on the hood's closed form, so the
/// blocker can block them all; and every hood cell is a palace (N < k) by the direct
/// definition of the game, so a move into the hood wins.
#[test]
fn the_hood_is_where_every_move_can_be_blocked() {
    for k in [1u32, 2, 5, 12, 40, 99] {
        let n = 3 * k as usize + 6;
        let palace = game(k, n, n);
        for y in 0..n {
            for x in 0..n {
                let mut moves = 0u64;
                for d in 1..=x.max(y) {
                    moves += u64::from(d <= x) + u64::from(d <= y) + u64::from(d <= x && d <= y);
                }
                let hood = in_hood(k, x as u64, y as u64);
                assert_eq!(hood, moves < u64::from(k), "k = {k}, ({x}, {y}): {moves} moves");
                if hood {
                    assert!(palace(x, y) < i64::from(k), "k = {k}, ({x}, {y}) in the hood is a palace");
                }
            }
        }
    }
}
