//! `palace branches` end to end: game 1's single branch of limit phi, recognised; the grouped
//! positions of games the tests do not name in advance add up to the direct definition's upper
//! P-positions; the closed forms of games 2 and 3; the picture; the refusals; and `palace cell`'s
//! region against the labels of the whole board.

use crate::common::{json, palace};
use palace::model::reference::direct_palace_numbers;

const PHI: f64 = 1.618_033_988_749_895;

#[test]
fn wythoff_is_one_branch_of_limit_phi() {
    let r = json(&["branches", "--k", "1", "--rows", "20000", "--json", "-q"]);
    let b = r["branches"].as_array().unwrap();
    assert_eq!(b.len(), 1, "{r}");
    let (limit, error) = (b[0]["limit"].as_f64().unwrap(), b[0]["error"].as_f64().unwrap());
    assert!((limit - PHI).abs() <= error && error < 1e-4, "{limit} +- {error}");
    let form = &b[0]["exact"]["form"];
    assert_eq!(form["form"], "quadratic", "{form}");
    assert_eq!((form["a"].as_i64(), form["b"].as_i64(), form["c"].as_i64()), (Some(1), Some(-1), Some(-1)));
    assert_eq!(form["continued_fraction"], "[1; (1)]");
    // The measurements are at 10^3, 10^4 and N.
    let ys: Vec<u64> =
        b[0]["measurements"].as_array().unwrap().iter().map(|m| m["y"].as_u64().unwrap()).collect();
    assert_eq!(ys, [1000, 10000, 20000]);
    assert_eq!(r["closed_form"]["first_difference"], serde_json::Value::Null);
}

#[test]
fn the_groups_add_up_to_the_direct_definition() {
    // Every game from 2 to 20, on 200 rows.
    let (rows, width) = (200u32, 640u32);
    for k in 2..=20u32 {
        let direct = direct_palace_numbers(k, width as usize, rows as usize);
        let upper = (0..rows)
            .flat_map(|y| (0..=y).map(move |x| (x, y)))
            .filter(|&(x, y)| direct[(y * width + x) as usize] < k);
        let (mut n, mut col0) = (0u64, 0u64);
        for (x, _) in upper {
            n += 1;
            col0 += u64::from(x == 0);
        }
        let r = json(&["branches", "--k", &k.to_string(), "--rows", &rows.to_string(), "--json", "-q"]);
        assert_eq!(r["upper"].as_u64(), Some(n), "k = {k}");
        assert_eq!(r["on_column_zero"].as_u64(), Some(col0), "k = {k}");
        let grouped: u64 =
            r["branches"].as_array().unwrap().iter().map(|b| b["positions"].as_u64().unwrap()).sum();
        let rest = ["early", "ungrouped"].iter().map(|f| r[*f].as_u64().unwrap()).sum::<u64>();
        assert_eq!(grouped + rest + col0, n, "k = {k}");
        let shares: f64 =
            r["branches"].as_array().unwrap().iter().map(|b| b["share"].as_f64().unwrap()).sum();
        assert!((shares - grouped as f64 / n as f64).abs() < 1e-9, "k = {k}");
    }
}

#[test]
fn games_2_and_3_follow_their_closed_forms() {
    for k in ["2", "3"] {
        let r = json(&["branches", "--k", k, "--rows", "300000", "--json", "-q"]);
        assert_eq!(r["closed_form"]["first_difference"], serde_json::Value::Null, "k = {k}");
        assert_eq!(r["cover"]["first_short_row"], serde_json::Value::Null, "k = {k}");
    }
    // Game 4 has no closed form here.
    let r = json(&["branches", "--k", "4", "--rows", "100", "--json", "-q"]);
    assert_eq!(r["closed_form"], serde_json::Value::Null);
}

#[test]
fn the_picture_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.png");
    let out = palace()
        .args(["branches", "--k", "5", "--rows", "3000", "-q", "--plot"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 1400);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 800);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("branch 1"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Only the picture is left in the folder: no temporary file behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn branches_refusals_name_the_flags() {
    for (args, says) in [
        (&["branches", "--k", "3", "--rows", "0"][..], "--rows"),
        (&["branches", "--k", "0", "--rows", "10"], "--k"),
        (&["branches", "--k", "3", "--rows", "10", "--min-gap", "0"], "--min-gap"),
    ] {
        let out = palace().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}");
    }
}

#[test]
fn a_cells_region_is_the_boards_label() {
    // `palace cell` names the region `palace regions` gives the cell on the whole 3k x 3k
    // board (the reference labeller), or says it is undetermined with that region as its
    // neighbourhood's.
    use palace::engine::{EngineOptions, Silent};
    use palace::labels::{Region, label};
    use palace::model::geometry::Window;
    let (k, side) = (90u32, 270u32);
    let mut board = vec![Region::Hood; (side * side) as usize];
    label(
        k,
        Window::new(0, 0, side, side).unwrap(),
        &EngineOptions::default(),
        &Silent,
        &[],
        |_| (),
        |r| {
            board[(r.y * side) as usize..((r.y + 1) * side) as usize].copy_from_slice(&r.labels);
            Ok(())
        },
    )
    .unwrap();
    // Cells of the hood, near it, in the arms, the fabric and far out, then a fixed pseudo-random
    // spread.
    let mut cells = vec![(12u32, 4u32), (10, 5), (30, 200), (200, 30), (150, 150), (60, 61), (249, 100)];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..6 {
        let r = palace::testing::splitmix64(&mut state);
        cells.push(((r % 250) as u32, ((r >> 32) % 250) as u32));
    }
    for (x, y) in cells {
        let r = json(&["cell", "--k", "90", "--at", &format!("{x},{y}"), "--json", "-q"]);
        let want = serde_json::to_value(board[(y * side + x) as usize]).unwrap();
        let got = &r["region"];
        match got["decided"].as_str().unwrap() {
            "hood" => assert_eq!(want, serde_json::to_value(Region::Hood).unwrap(), "({x}, {y})"),
            "labelled" => assert_eq!(got["region"], want, "({x}, {y})"),
            "undetermined" => assert_eq!(got["neighbourhood"], want, "({x}, {y})"),
            d => panic!("{d}"),
        }
    }
    let text = palace().args(["cell", "--k", "90", "--at", "10,5", "-q"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("k = 90, cell (10, 5): N = 20, v = N - k = -70: a P-position (palace), in the hood"),
        "{text}"
    );
    assert!(text.contains("\nregion: hood"), "{text}");
}
