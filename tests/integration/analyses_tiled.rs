//! `regions`, `compare` and `fabric` on the sweep's workers against their reference
//! implementations on one consumer thread (a lockstep of row sweeps): the same reports (the
//! regions' borders among them) and the same pictures, byte for byte, for many games, boards,
//! windows, tilings and thread counts.

use palace::analysis::compare::{self, Comparison};
use palace::analysis::fabric;
use palace::analysis::regions;
use palace::analysis::regions::borders::Half;
use palace::engine::{EngineOptions, Silent};
use palace::labels;
use palace::model::geometry::Window;
use palace::output::atomic::AtomicOutput;
use proptest::prelude::*;
use std::path::Path;

fn opts(threads: usize, tile: Option<(u32, u32)>) -> EngineOptions {
    EngineOptions {
        threads,
        tile_width: tile.map(|t| t.0),
        band_height: tile.map(|t| t.1),
        ..EngineOptions::default()
    }
}

fn out(dir: &Path, name: &str) -> AtomicOutput {
    AtomicOutput::create(&dir.join(name), "--output").unwrap()
}

fn read(p: Option<std::path::PathBuf>) -> Vec<u8> {
    std::fs::read(p.expect("a picture")).unwrap()
}

/// The regions report (table and JSON) and map of both implementations.
fn same_regions(k: u32, window: Window, scale: u32, o: &EngineOptions) {
    let dir = tempfile::tempdir().unwrap();
    let reference = regions::run_reference(
        k,
        window,
        scale,
        Some(out(dir.path(), "a.png").into()),
        &opts(2, None),
        &Silent,
    )
    .unwrap();
    let fast = regions::run(k, window, scale, Some(out(dir.path(), "b.png").into()), o, &Silent).unwrap();
    let what = format!("k = {k}, window {window}, scale {scale}, {o:?}");
    same_outputs(&fast, reference, &what);
    // On a square board from the corner the labels are symmetric: each region has as many
    // cells as its mirror image.
    if window.x0() == 0 && window.y0() == 0 && window.x1() == window.y1() {
        for (r, s) in &fast.0.regions {
            let m = fast.0.regions.iter().find(|(q, _)| *q == r.mirror()).unwrap();
            assert_eq!(s.cells, m.1.cells, "{what}: {r:?} against its mirror");
        }
        // And each border is the mirror image of its mirror pair's (of its other half's, for two
        // regions on both sides of the diagonal): rows and columns swapped.
        for b in &fast.0.borders {
            let (a, c) = (b.a.mirror().min(b.b.mirror()), b.a.mirror().max(b.b.mirror()));
            let half = b.half.map(|h| if h == Half::Upper { Half::Lower } else { Half::Upper });
            let m = fast.0.borders.iter().find(|m| (m.a, m.b, m.half) == (a, c, half));
            let m = m.unwrap_or_else(|| panic!("{what}: no mirror image of {b:?}"));
            assert_eq!(
                (m.row_edges, m.column_edges, m.rows, m.columns, m.ends),
                (b.column_edges, b.row_edges, b.columns, b.rows, b.ends),
                "{what}: {b:?} against its mirror image"
            );
        }
    }
}

fn same_compare(c: Comparison, window: Window, scale: u32, o: &EngineOptions) {
    let dir = tempfile::tempdir().unwrap();
    let reference = compare::run_reference(
        c,
        window,
        scale,
        Some(out(dir.path(), "a.png").into()),
        &opts(2, None),
        &Silent,
    )
    .unwrap();
    let fast = compare::run(c, window, scale, Some(out(dir.path(), "b.png").into()), o, &Silent).unwrap();
    let what = format!("{c:?}, window {window}, scale {scale}, {o:?}");
    same_outputs(&fast, reference, &what);
}

/// The same report (table and JSON) and the same picture, byte for byte.
fn same_outputs<R: std::fmt::Display + serde::Serialize>(
    fast: &(R, Option<std::path::PathBuf>),
    reference: (R, Option<std::path::PathBuf>),
    what: &str,
) {
    assert_eq!(fast.0.to_string(), reference.0.to_string(), "{what}");
    assert_eq!(
        serde_json::to_string(&fast.0).unwrap(),
        serde_json::to_string(&reference.0).unwrap(),
        "{what}"
    );
    assert!(read(fast.1.clone()) == read(reference.1), "{what}: the pictures differ");
}

#[test]
fn regions_of_the_papers_boards() {
    for k in [1u32, 2, 3, 5, 30, 100, 150, 500] {
        let n = (3 * k).clamp(40, 1500);
        for threads in [1, 2, 3] {
            same_regions(k, Window::new(0, 0, n, n).unwrap(), 1, &opts(threads, None));
        }
    }
    // Borders between tiles: small tiles, so that most borders cross many tiles.
    same_regions(150, Window::new(0, 0, 464, 464).unwrap(), 1, &opts(3, Some((24, 16))));
    same_regions(500, Window::new(0, 0, 1500, 1500).unwrap(), 3, &opts(2, None));
}

#[test]
fn compare_of_the_papers_cases() {
    for (a, b, shift, offset) in [
        (497u32, 500u32, (1u32, 1u32), 3i64),
        (499, 500, (1, 0), 1),
        (500, 500, (81, 31), 0),
        (30, 31, (0, 1), 1),
    ] {
        let c = Comparison { a, b, shift, offset };
        same_compare(c, Window::new(0, 0, 1500, 1500).unwrap(), 1, &opts(2, None));
    }
}

#[test]
fn fabric_of_small_games() {
    for (k0, size) in [(60u32, 180u32), (4, 40), (998, 300)] {
        let dir = tempfile::tempdir().unwrap();
        for threads in [1, 2] {
            let reference =
                fabric::run_reference(k0, size, Some(out(dir.path(), "a.png")), &opts(2, None), &Silent)
                    .unwrap();
            let fast =
                fabric::run(k0, size, Some(out(dir.path(), "b.png")), &opts(threads, None), &Silent).unwrap();
            assert_eq!(fast.0.to_string(), reference.0.to_string(), "k = {k0}, size {size}");
            assert_eq!(serde_json::to_string(&fast.0).unwrap(), serde_json::to_string(&reference.0).unwrap());
            assert!(read(fast.1) == read(reference.1), "k = {k0}: the pictures differ");
        }
    }
}

/// `labels::label_rows` (the tiled labeller, rows in order) against `labels::label` (the
/// reference): the same rows, labels, and cells outside the hood.
fn same_rows(k: u32, window: Window, o: &EngineOptions) {
    let mut want = Vec::new();
    labels::label(
        k,
        window,
        &opts(1, None),
        &Silent,
        &[],
        |_| (),
        |r| {
            want.push((r.y, r.labels.clone(), r.cells.clone()));
            Ok(())
        },
    )
    .unwrap();
    let mut got = Vec::new();
    labels::label_rows(k, window, o, &Silent, |r| {
        let palaces: Vec<u32> =
            (window.x0()..window.x1()).filter(|&x| r.label(x).is_rest() && r.cells[x as usize] < 0).collect();
        assert_eq!(
            r.rest_palaces(),
            palaces,
            "k = {k}, window {window}, {o:?}: palaces of the rest in row {}",
            r.y
        );
        assert!((0..window.x1()).all(|x| r.is_rest(x) == r.label(x).is_rest()));
        got.push((r.y, r.labels(), r.cells.to_vec()));
        Ok(())
    })
    .unwrap();
    let what = format!("k = {k}, window {window}, {o:?}");
    assert_eq!(got.len(), want.len(), "{what}: rows");
    for ((y, l, c), (wy, wl, wc)) in got.iter().zip(&want) {
        assert_eq!((y, l), (wy, wl), "{what}: labels of row {wy}");
        let hood = palace::model::rule::hood_len(k, u64::from(*y)).min(c.len() as u64) as usize;
        assert_eq!(&c[hood..], &wc[hood..], "{what}: cells of row {wy}");
    }
}

#[test]
fn labelled_rows_stop_where_the_consumer_fails() {
    // The error of the row consumer comes back, and no row after the failing one is seen.
    let mut seen = 0;
    let e = labels::label_rows(
        300,
        Window::new(0, 0, 900, 900).unwrap(),
        &opts(2, Some((64, 16))),
        &Silent,
        |r| {
            seen += 1;
            if r.y == 100 { Err(palace::error::Error::Analysis("stop".into())) } else { Ok(()) }
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("stop"), "{e}");
    assert_eq!(seen, 101);
}

/// A window inside an `n x n` board from four fractions.
fn window(n: u32, f: [f64; 4]) -> Window {
    let at = |f: f64| ((f * f64::from(n)) as u32).min(n - 1);
    let (xa, xb) = (at(f[0]).min(at(f[1])), at(f[0]).max(at(f[1])) + 1);
    let (ya, yb) = (at(f[2]).min(at(f[3])), at(f[2]).max(at(f[3])) + 1);
    Window::new(xa, ya, xb, yb).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn regions_equal_the_reference(
        k in 1u32..400,
        side in 1u32..4,
        f in proptest::array::uniform4(0.0f64..1.0),
        threads in 1usize..4,
        tile in proptest::option::of((2u32..300, 2u32..200)),
        scale in 1u32..4,
    ) {
        let n = (k * side).clamp(16, 900);
        same_regions(k, window(n, f), scale, &opts(threads, tile));
    }

    #[test]
    fn labelled_rows_equal_the_reference(
        k in 1u32..400,
        side in 1u32..4,
        f in proptest::array::uniform4(0.0f64..1.0),
        threads in 1usize..4,
        tile in proptest::option::of((2u32..300, 2u32..200)),
    ) {
        let n = (k * side).clamp(16, 900);
        same_rows(k, window(n, f), &opts(threads, tile));
    }

    #[test]
    fn compare_equals_the_reference(
        a in 1u32..300,
        db in 0u32..8,
        shift in (0u32..40, 0u32..40),
        offset in -8i64..8,
        f in proptest::array::uniform4(0.0f64..1.0),
        threads in 1usize..4,
        tile in proptest::option::of((2u32..300, 2u32..200)),
        scale in 1u32..3,
    ) {
        let n = (3 * a).clamp(16, 700);
        let c = Comparison { a, b: a + db, shift, offset };
        same_compare(c, window(n, f), scale, &opts(threads, tile));
    }
}

#[test]
fn compare_narrow_window() {
    let c = Comparison { a: 38, b: 38, shift: (0, 0), offset: 0 };
    same_compare(c, Window::new(0, 24, 1, 77).unwrap(), 1, &opts(1, Some((2, 2))));
}

/// The hidden `--reference` flag runs the reference implementation: the commands print the
/// same with and without it.
#[test]
fn the_reference_flag_prints_the_same() {
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("palace").unwrap().args(args).arg("-q").output().unwrap();
        assert!(out.status.success(), "{args:?}");
        out.stdout
    };
    for args in [
        &["regions", "--k", "60", "--size", "200"][..],
        &["compare", "--k", "57", "--k2", "60", "--shift", "1,1", "--offset", "3", "--size", "200"],
        &["fabric", "--k", "30", "--size", "64"],
    ] {
        let mut reference = args.to_vec();
        reference.push("--reference");
        assert_eq!(run(args), run(&reference), "{args:?}");
    }
}
