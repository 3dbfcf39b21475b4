//! `palace compare --region-search`: each region's best shift between two games, against
//! matches counted here from the direct definition of the game (the three-counter programme)
//! and game A's region labels, and end to end.

use crate::common;

use common::{json, palace};
use palace::analysis::compare::Comparison;
use palace::analysis::region_search::{self, shifts};
use palace::engine::{EngineOptions, Silent};
use palace::labels::{self, ALL, Region};
use palace::model::geometry::Window;
use palace::model::reference::direct_palace_numbers;

/// Two workers, the fastest kernel.
fn opts() -> EngineOptions {
    common::opts(2, palace::kernel::KernelChoice::Auto)
}

/// Game A's labels on the window from the corner, row-major.
fn labels(k: u32, w: usize, h: usize) -> Vec<Region> {
    let mut out = vec![Region::Hood; w * h];
    let win = Window::new(0, 0, w as u32, h as u32).unwrap();
    labels::label(
        k,
        win,
        &opts(),
        &Silent,
        &[],
        |_| (),
        |r| {
            out[r.y as usize * w..(r.y as usize + 1) * w].copy_from_slice(&r.labels);
            Ok(())
        },
    )
    .unwrap();
    out
}

/// Per region, at every shift within `radius` of `centre`, the cells with
/// `N_b(x + dx, y + dy) = N_a(x, y) + offset` counted on the direct definition; the best
/// shift (the first in row-major order among equals) and the count at the centre.
#[test]
fn each_regions_best_shift_is_the_direct_definitions() {
    let (w, h) = (180usize, 180usize);
    let radius = 1u32;
    for (a, b, centre, offset) in
        [(60u32, 63u32, (1u32, 1u32), 3i64), (60, 61, (1, 0), 1), (61, 60, (0, 0), -1), (60, 62, (1, 1), 2)]
    {
        let lab = labels(a, w, h);
        let na = direct_palace_numbers(a, w, h);
        let (bw, bh) = (w + 3, h + 3);
        let nb = direct_palace_numbers(b, bw, bh);
        let all = shifts(centre, radius);
        // counts[shift][region]
        let counts: Vec<Vec<u64>> = all
            .iter()
            .map(|&(dx, dy)| {
                let mut c = vec![0u64; ALL.len()];
                for y in 0..h {
                    for x in 0..w {
                        let q = nb[(y + dy as usize) * bw + x + dx as usize];
                        if i64::from(q) == i64::from(na[y * w + x]) + offset {
                            c[lab[y * w + x].index()] += 1;
                        }
                    }
                }
                c
            })
            .collect();
        let c = Comparison { a, b, shift: centre, offset };
        let r = region_search::search(
            c,
            Window::new(0, 0, w as u32, h as u32).unwrap(),
            radius,
            &opts(),
            &Silent,
        )
        .unwrap();
        assert_eq!(r.shifts, all.len() as u64);
        let centre_at = all.iter().position(|&s| s == centre).unwrap();
        for (i, got) in r.per_region.iter().enumerate() {
            let cells = lab.iter().filter(|l| l.index() == i).count() as u64;
            let mut best = 0;
            for (j, cs) in counts.iter().enumerate() {
                if cs[i] > counts[best][i] {
                    best = j;
                }
            }
            let what = format!("{a} vs {b}, {}", got.region.name());
            assert_eq!(got.region, ALL[i]);
            assert_eq!(got.cells, cells, "{what}");
            assert_eq!(got.centre_matched, counts[centre_at][i], "{what}");
            assert_eq!((got.best_shift, got.best_matched), (all[best], counts[best][i]), "{what}");
        }
    }
}

/// Hand-derived cases. A game against itself matches every cell in place and nowhere else
/// near it (the hood's casing moves). Game 60 against 63 shifted (1, 1) with +3: the hood
/// matches whole (its closed form N = max + 2 min rises by 3 along the diagonal, and the
/// hood of 63 is that of 60 grown by one cell along the casing), and so do the épaulettes
/// (the paper's Fig. 4 left, claim 16; they are labelled by their periods, not by a
/// comparison).
#[test]
fn a_game_matches_itself_in_place_and_game_k_plus_3_at_one_one() {
    let win = Window::new(0, 0, 150, 150).unwrap();
    let c = Comparison { a: 50, b: 50, shift: (0, 0), offset: 0 };
    let r = region_search::search(c, win, 2, &opts(), &Silent).unwrap();
    assert_eq!(r.shifts, 9);
    for g in r.per_region.iter().filter(|g| g.cells > 0) {
        assert_eq!((g.best_shift, g.best_matched, g.centre_matched), ((0, 0), g.cells, g.cells), "{:?}", g);
    }
    let c = Comparison { a: 60, b: 63, shift: (1, 1), offset: 3 };
    let r = region_search::search(c, Window::new(0, 0, 180, 180).unwrap(), 1, &opts(), &Silent).unwrap();
    for region in [Region::Hood, Region::EpauletteUpper, Region::EpauletteLower] {
        let g = r.per_region.iter().find(|g| g.region == region).unwrap();
        assert!(g.cells > 0, "{region:?}");
        assert_eq!((g.best_shift, g.centre_matched), ((1, 1), g.cells), "{region:?}");
    }
}

#[test]
fn the_command_reports_each_regions_best_shift() {
    let r = json(&[
        "compare",
        "--k",
        "60",
        "--k2",
        "63",
        "--size",
        "180",
        "--shift",
        "1,1",
        "--offset",
        "3",
        "--region-search",
        "1",
        "--json",
    ]);
    assert_eq!(r["shifts"], 9);
    assert_eq!(r["offset"], 3);
    let hood = r["per_region"].as_array().unwrap().iter().find(|g| g["region"] == "hood").unwrap();
    assert_eq!(hood["best_shift"], serde_json::json!([1, 1]));
    assert_eq!(hood["best_fraction"], 1.0);
    let out = palace()
        .args(["compare", "--k", "60", "--k2", "63", "--size", "180", "--shift", "1,1"])
        .args(["--offset", "3", "--region-search", "1"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("9 shifts within 1 of (1, 1)") && text.contains("best shift"), "{text}");
    palace()
        .args(["compare", "--k", "60", "--k2", "63", "--size", "180", "--region-search", "1"])
        .args(["--search-shift", "1"])
        .assert()
        .code(2);
    palace()
        .args(["compare", "--k", "60", "--k2", "63", "--size", "180", "--region-search", "11"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--region-search 11"));
}
