//! The thread tracer ([`palace::analysis::threads::trace`]) against a flood fill of the same
//! bitmap, on random bitmaps and on the palaces of small boards by the direct definition; on
//! hand-built threads with known thicknesses, merges and periods; and `palace threads` end to
//! end.

use crate::common;

use assert_cmd::Command;
use palace::analysis::threads::{self, ThreadsReport, fit, trace};
use palace::engine::{Cancel, EngineOptions, Silent};
use palace::labels;
use palace::model::geometry::Window;
use palace::model::reference::direct_values;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use trace::{End, REACH, Traced, Tracer};

/// A bitmap: the set cells of each row, in increasing order.
type Bitmap = Vec<Vec<u32>>;

/// The connected components of `bitmap` under the tracer's adjacency (same or next row, at
/// most `REACH` apart), by breadth-first search over the whole bitmap: each cell's component
/// as the smallest `(y, x)` in it.
fn flood_fill(bitmap: &Bitmap) -> BTreeMap<(u32, u32), (u32, u32)> {
    let cells: BTreeSet<(u32, u32)> =
        bitmap.iter().enumerate().flat_map(|(y, xs)| xs.iter().map(move |&x| (y as u32, x))).collect();
    let mut comp = BTreeMap::new();
    for &start in &cells {
        if comp.contains_key(&start) {
            continue;
        }
        let mut queue = vec![start];
        comp.insert(start, start);
        while let Some((y, x)) = queue.pop() {
            for dy in -1i64..=1 {
                for dx in -i64::from(REACH)..=i64::from(REACH) {
                    let (ny, nx) = (i64::from(y) + dy, i64::from(x) + dx);
                    if ny < 0 || nx < 0 {
                        continue;
                    }
                    let n = (ny as u32, nx as u32);
                    if cells.contains(&n) && !comp.contains_key(&n) {
                        comp.insert(n, start);
                        queue.push(n);
                    }
                }
            }
        }
    }
    comp
}

/// Traces `bitmap` (every section clear) and returns the result with each cell's thread.
fn trace_bitmap(bitmap: &Bitmap) -> (Traced, BTreeMap<(u32, u32), u32>) {
    let mut t = Tracer::default();
    let mut label = BTreeMap::new();
    for (y, xs) in bitmap.iter().enumerate() {
        for &(x, id) in t.line(y as u32, xs, |_, _| true) {
            label.insert((y as u32, x), id);
        }
    }
    (t.finish(), label)
}

/// The tracer's components: threads joined through merges and absorbed pieces.
fn traced_components(traced: &Traced, label: &BTreeMap<(u32, u32), u32>) -> BTreeMap<(u32, u32), (u32, u32)> {
    let mut parent: BTreeMap<u32, u32> = BTreeMap::new();
    fn find(p: &mut BTreeMap<u32, u32>, i: u32) -> u32 {
        let q = *p.get(&i).unwrap_or(&i);
        if q == i { i } else { find(p, q) }
    }
    let mut join = |a: u32, b: u32| {
        let (a, b) = (find(&mut parent, a), find(&mut parent, b));
        if a != b {
            parent.insert(a, b);
        }
    };
    for m in &traced.merges {
        for &i in &m.inputs {
            join(i, m.output);
        }
    }
    for &(piece, into, _) in traced.absorbed.iter().chain(&traced.rejoined) {
        join(piece, into);
    }
    // Each component named by its smallest cell.
    let mut first: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    for (&cell, &id) in label {
        first.entry(find(&mut parent, id)).or_insert(cell);
    }
    label.iter().map(|(&cell, &id)| (cell, first[&find(&mut parent, id)])).collect()
}

/// The tracer's partition of the cells is the flood fill's; a thread with no merge and no
/// absorbed piece has the flood fill's cells per row.
fn check_against_flood_fill(bitmap: &Bitmap) {
    let (traced, label) = trace_bitmap(bitmap);
    let reference = flood_fill(bitmap);
    assert_eq!(traced_components(&traced, &label), reference, "components");
    let mut per_row: BTreeMap<((u32, u32), u32), u32> = BTreeMap::new();
    for (&(y, _), &c) in &reference {
        *per_row.entry((c, y)).or_default() += 1;
    }
    let merged: BTreeSet<u32> =
        traced.merges.iter().flat_map(|m| m.inputs.iter().copied().chain([m.output])).collect();
    let absorbing: BTreeSet<u32> = traced.absorbed.iter().chain(&traced.rejoined).map(|a| a.1).collect();
    for t in &traced.threads {
        if merged.contains(&t.id) || absorbing.contains(&t.id) {
            continue;
        }
        let cell = (t.first_row, t.start_x);
        let c = reference[&cell];
        let mut want: BTreeMap<u32, u64> = BTreeMap::new();
        for y in t.first_row..=t.last_row {
            *want.entry(per_row[&(c, y)]).or_default() += 1;
        }
        assert_eq!(t.thickness, want, "thread {} thickness", t.id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random sparse bitmaps: many small components, merges, absorbed pieces and specks.
    #[test]
    fn tracer_equals_flood_fill_on_random_bitmaps(
        rows in prop::collection::vec(prop::collection::btree_set(0u32..120, 0..14), 1..60),
    ) {
        let bitmap: Bitmap = rows.into_iter().map(|s| s.into_iter().collect()).collect();
        check_against_flood_fill(&bitmap);
    }
}

/// The palaces above the diagonal of small boards, by the direct definition of the game.
#[test]
fn tracer_equals_flood_fill_on_palaces() {
    for (k, n) in [(20u32, 120usize), (60, 200), (100, 300)] {
        let v = direct_values(k, n, n);
        let bitmap: Bitmap =
            (0..n).map(|y| ((y + 1)..n).filter(|&x| v[y * n + x] < 0).map(|x| x as u32).collect()).collect();
        check_against_flood_fill(&bitmap);
    }
}

/// A thread of thickness `t`: `t` cells two apart, moving `step` columns a row from `x`.
fn thread(y: u32, x: u32, t: u32, step: u32) -> Vec<u32> {
    (0..t).map(|i| x + step * y + 2 * i).collect()
}

fn bitmap_of(rows: u32, mut f: impl FnMut(u32) -> Vec<u32>) -> Bitmap {
    (0..rows)
        .map(|y| {
            let mut xs = f(y);
            xs.sort_unstable();
            xs.dedup();
            xs
        })
        .collect()
}

/// Two threads of thickness 2 and 3, the second overtaking the first, merge into one of 5
/// that runs on; every thickness as built, and the merge adds.
#[test]
fn built_merge_adds() {
    // Thread A: thickness 2, 2 columns a row from x = 100. Thread B: thickness 3, 3 columns a
    // row from x = 40; B reaches A's cells near row 57. After the merge, one thread of 5.
    let bitmap = bitmap_of(160, |y| {
        let b = 40 + 3 * y;
        let a = 100 + 2 * y;
        if b + 4 + REACH < a {
            let mut v = thread(y, 100, 2, 2);
            v.extend(thread(y, 40, 3, 3));
            v
        } else {
            // Merged: five cells two apart, moving 3 a row.
            (0..5).map(|i| b + 2 * i).collect()
        }
    });
    check_against_flood_fill(&bitmap);
    let (traced, _) = trace_bitmap(&bitmap);
    assert_eq!(traced.merges.len(), 1, "{:?}", traced.merges);
    let m = &traced.merges[0];
    let by_id: BTreeMap<u32, &trace::Thread> = traced.threads.iter().map(|t| (t.id, t)).collect();
    let mut ins: Vec<u32> = m.inputs.iter().map(|i| by_id[i].mode().unwrap()).collect();
    ins.sort_unstable();
    assert_eq!(ins, [2, 3]);
    let out = by_id[&m.output];
    assert_eq!(out.mode(), Some(5));
    assert_eq!(out.thickness.len(), 1, "constant thickness after the merge: {:?}", out.thickness);
    assert_eq!(out.end, End::Open);
    let report =
        ThreadsReport::new(1, Window::new(0, 0, 1000, 160).unwrap(), REACH, &traced, 2, &Cancel::new())
            .unwrap();
    assert_eq!(report.merge_kinds.len(), 1);
    assert!(report.merge_kinds[0].adds && report.merge_kinds[0].count == 1);
    assert_eq!(report.fibonacci, (3, 3));
}

/// The same merge with every thread living more than 300 rows (the longest of `LIVES`): the
/// merge is counted among the long threads' merges, by kind.
#[test]
fn built_long_merge_is_counted_by_kind() {
    let rows = 800;
    let bitmap = bitmap_of(rows, |y| {
        let (b, a) = (40 + 3 * y, 440 + 2 * y);
        if b + 4 + REACH < a {
            let mut v = thread(y, 440, 2, 2);
            v.extend(thread(y, 40, 3, 3));
            v
        } else {
            (0..5).map(|i| b + 2 * i).collect()
        }
    });
    let (traced, _) = trace_bitmap(&bitmap);
    assert_eq!(traced.merges.len(), 1, "{:?}", traced.merges);
    let report =
        ThreadsReport::new(1, Window::new(0, 0, 3000, rows).unwrap(), REACH, &traced, 2, &Cancel::new())
            .unwrap();
    assert_eq!(report.merges_by_life.last(), Some(&(300, 1, 1)));
    // Three threads of more than 300 rows (2 and 3 before the merge, 5 after it).
    assert_eq!(report.fibonacci_long, (3, 3));
    assert_eq!(report.long_merge_kinds.len(), 1);
    let m = &report.long_merge_kinds[0];
    assert_eq!((m.inputs.as_slice(), m.output, m.adds, m.count), (&[2, 3][..], 5, true, 1));
    // Rows 200..500 only: the same merge, of threads living fewer than 300 rows, is counted
    // among all merges and not among the long threads' ones.
    let short = bitmap[200..500].to_vec();
    let (traced, _) = trace_bitmap(&short);
    let report =
        ThreadsReport::new(1, Window::new(0, 0, 3000, 300).unwrap(), REACH, &traced, 2, &Cancel::new())
            .unwrap();
    assert_eq!(report.merge_kinds.len(), 1, "{:?}", report.merge_kinds);
    assert!(report.long_merge_kinds.is_empty(), "{:?}", report.long_merge_kinds);
}

/// A thread with period 3 rows and shift 8 columns (cells repeating a three-row pattern) is
/// found periodic with slope 3/8 exactly; one moved cell makes it periodic only up to that
/// defect.
#[test]
fn built_periodic_thread() {
    let pattern = [[0u32, 2, 5], [1, 4, 6], [0, 3, 7]];
    let make = |defect: Option<u32>| {
        bitmap_of(900, |y| {
            let base = 10 + 8 * (y / 3);
            let mut v: Vec<u32> = pattern[(y % 3) as usize].iter().map(|&d| base + d).collect();
            if defect == Some(y) {
                v[2] += 1;
            }
            v
        })
    };
    let (traced, _) = trace_bitmap(&make(None));
    assert_eq!(traced.threads.len(), 1);
    let t = &traced.threads[0];
    assert_eq!(t.mode(), Some(3));
    assert_eq!(
        fit::period(&t.tail, threads::MAX_PERIOD, threads::REPEATS),
        Some(fit::Period { p: 3, shift: 8 })
    );
    let f = fit::fit_line(&t.tail).unwrap();
    assert!((f.per_line - 8.0 / 3.0).abs() < 1e-3, "{f:?}");
    let (traced, _) = trace_bitmap(&make(Some(500)));
    let t = &traced.threads[0];
    assert_eq!(fit::period(&t.tail, threads::MAX_PERIOD, threads::REPEATS), None);
    let near = fit::near_period(&t.tail, 8.0 / 3.0, threads::MAX_PERIOD, threads::REPEATS).unwrap();
    assert_eq!(near.period, fit::Period { p: 3, shift: 8 });
    assert_eq!(near.matches, (897 - 2, 897));
}

/// Three threads that run to the window's last row: a straight line (2 columns a row), one
/// jittered by floor(y phi) mod 3 (a Sturmian sequence: no period, but one up to defects) and
/// one jittered by a hash of y. All three run to the edge with a long tail: one
/// periodic, one periodic up to defects, one neither (listed); the innermost come in the
/// order of their ends' distance from the diagonal.
#[test]
fn built_threads_at_the_edge_are_classified() {
    let rows = 700;
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let sturm: Vec<u32> = (0..rows).map(|y| (f64::from(y) * phi).floor() as u32 % 3).collect();
    // MurmurHash3's finaliser: no line, so no period even up to defects.
    let fmix = |y: u64| {
        let z = (y ^ (y >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        let z = (z ^ (z >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        ((z ^ (z >> 33)) % 3) as u32
    };
    let hash: Vec<u32> = (0..rows).map(|y| fmix(u64::from(y) + 1)).collect();
    let bitmap = bitmap_of(rows, |y| {
        let i = y as usize;
        vec![40 + 2 * y, 1000 + y + sturm[i], 2000 + y + hash[i]]
    });
    let (traced, _) = trace_bitmap(&bitmap);
    assert_eq!(traced.threads.len(), 3, "{:?}", traced.threads.len());
    let report =
        ThreadsReport::new(1, Window::new(0, 0, 3000, rows).unwrap(), REACH, &traced, 2, &Cancel::new())
            .unwrap();
    assert_eq!(report.at_edge, (3, 3, 1, 1));
    let listed: Vec<u32> = report.non_periodic.iter().map(|s| s.x.0).collect();
    assert_eq!(listed, [2000 + hash[0]]);
    let firsts: Vec<u32> = report.innermost.iter().map(|s| s.x.0).collect();
    assert_eq!(firsts, [40, 1000 + sturm[0], 2000 + hash[0]]);
    assert_eq!(report.innermost[0].period, Some(fit::Period { p: 1, shift: 2 }));
    assert_eq!(report.innermost[1].period, None);
    // Made from every thread's fits (as `palace threads --csv` makes it), the report is the
    // same: the long threads' fits are taken from them.
    let all = threads::summaries(&traced, 2, &Cancel::new()).unwrap();
    let from = ThreadsReport::from_summaries(
        1,
        Window::new(0, 0, 3000, rows).unwrap(),
        REACH,
        &traced,
        &all,
        2,
        &Cancel::new(),
    )
    .unwrap();
    assert_eq!(serde_json::to_string(&from).unwrap(), serde_json::to_string(&report).unwrap());
}

/// `threads::run` traces exactly the palaces above the diagonal that `regions` labels as the
/// rest (fray, warp, inner sector), with values by the direct definition: the same threads as a tracer fed by
/// hand.
#[test]
fn run_traces_the_labelled_palaces() {
    let (k, n) = (100u32, 320u32);
    let w = Window::new(0, 0, n, n).unwrap();
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    let (traced, _) = threads::run(k, w, REACH, 1, None, false, &opts, &Silent).unwrap();
    let v = direct_values(k, n as usize, n as usize);
    let mut t = Tracer::default();
    let e = i64::from(threads::EDGE);
    labels::label(
        k,
        w,
        &opts,
        &Silent,
        &[],
        |_| (),
        |r| {
            let y = r.y;
            let at = |x: u32| v[(y * n + x) as usize];
            let cells: Vec<u32> =
                (y + 1..n).filter(|&x| r.labels[x as usize].is_rest() && at(x) < 0).collect();
            let rest = |x: i64| x > i64::from(y) && x < i64::from(n) && r.labels[x as usize].is_rest();
            t.line(y, &cells, |a, b| rest(i64::from(a) - e) && rest(i64::from(b) + e));
            Ok(())
        },
    )
    .unwrap();
    let want = t.finish();
    assert!(want.threads.len() > 10, "a board with threads: {}", want.threads.len());
    /// A thread as its rows, cells and thicknesses.
    type Key = (u32, u32, u32, u32, Vec<(u32, u64)>);
    let key = |tr: &Traced| -> Vec<Key> {
        tr.threads
            .iter()
            .map(|t| {
                (
                    t.first_row,
                    t.last_row,
                    t.start_x,
                    t.end_x,
                    t.thickness.iter().map(|(&a, &b)| (a, b)).collect(),
                )
            })
            .collect()
    };
    assert_eq!(key(&traced), key(&want));
    assert_eq!(traced.merges, want.merges);
    // The measures do not depend on how many threads take them.
    let report = |workers| {
        let r = ThreadsReport::new(k, w, REACH, &traced, workers, &Cancel::new()).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    assert_eq!(report(1), report(3));
    // The report made from every thread's fits (as with --csv) is the same.
    let all = threads::summaries(&traced, 2, &Cancel::new()).unwrap();
    let from = ThreadsReport::from_summaries(k, w, REACH, &traced, &all, 2, &Cancel::new()).unwrap();
    assert_eq!(serde_json::to_string(&from).unwrap(), report(2));
    assert!(ThreadsReport::from_summaries(k, w, REACH, &traced, &all[1..], 2, &Cancel::new()).is_err());
    let csv = |workers| {
        let s = threads::summaries(&traced, workers, &Cancel::new()).unwrap();
        let mut b = Vec::new();
        threads::write_csv(&traced, &s, &mut b).unwrap();
        b
    };
    assert_eq!(csv(1), csv(3));
}

/// The threads picture carries a legend strip by default: the picture above it is the bare
/// one (`--no-legend`) pixel for pixel, and the strip has a swatch of every thread colour and
/// of the dimmed picture's colours.
#[test]
fn threads_picture_has_its_legend() {
    let dir = tempfile::tempdir().unwrap();
    let (bare, with) = (dir.path().join("bare.png"), dir.path().join("legend.png"));
    let args = ["threads", "--k", "100", "--size", "400", "--scale", "2", "-q", "-o"];
    let run = |out: &std::path::Path, extra: &[&str]| {
        Command::cargo_bin("palace").unwrap().args(args).arg(out).args(extra).assert().success();
    };
    run(&bare, &["--no-legend"]);
    run(&with, &[]);
    let n = threads::THREAD_RGB.len();
    assert_eq!(threads::legend_key(100, 2).entries.len(), n + 9, "the thread colours and the picture's 9");
    let dim = palace::output::palette::RGB[..9].iter().map(|c| c.map(|v| (u16::from(v) * 2 / 5) as u8));
    let swatches: Vec<[u8; 3]> = threads::THREAD_RGB.iter().copied().chain(dim).collect();
    common::assert_legend_below(&bare, &with, &swatches, "threads");
    // The bare picture shows threads: pixels of the thread colours.
    let (_, _, px) = common::decode_rgb(&bare);
    assert!(px.iter().any(|c| threads::THREAD_RGB.contains(c)), "no thread drawn");
}

/// The command end to end: report, CSV (one line per thread) and picture.
#[test]
fn command_writes_report_csv_and_picture() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("t.csv"), dir.path().join("t.png"));
    let out = Command::cargo_bin("palace")
        .unwrap()
        .args(["threads", "--k", "100", "--size", "400", "--json", "-q", "--csv"])
        .arg(&csv)
        .arg("-o")
        .arg(&png)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let lines = std::fs::read_to_string(&csv).unwrap().lines().count() as u64;
    assert_eq!(report["threads"].as_u64().unwrap() + 1, lines, "a header and one line per thread");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let info = decoder.read_info().unwrap();
    // The picture, then its legend strip below (as wide as the picture, or wider).
    let (w, h) = (info.info().width, info.info().height);
    assert!(w >= 400 && h > 400, "{w} x {h}");
    Command::cargo_bin("palace")
        .unwrap()
        .args(["threads", "--k", "100", "--size", "300", "--scale", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--scale 0"));
}
