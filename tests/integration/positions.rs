//! `palace positions` and `palace cell` end to end: the list equals the direct definition's
//! palaces, row by row, for games the tests do not name in advance; the report's k-cover check;
//! standard output; the refusals.

use crate::common::{json, palace};
use palace::model::reference::direct_palace_numbers;

fn direct_positions(k: u32, rows: u32, width: u32) -> String {
    let n = direct_palace_numbers(k, width as usize, rows as usize);
    let mut s = String::from("x,y\n");
    for y in 0..rows {
        for x in 0..width {
            if n[(y * width + x) as usize] < k {
                s += &format!("{x},{y}\n");
            }
        }
    }
    s
}

#[test]
fn the_list_equals_the_definition_and_each_row_holds_k() {
    let dir = tempfile::tempdir().unwrap();
    // Games picked from the clock: not known when the test is written.
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    for k in [1 + seed % 20, 1 + (seed / 20) % 20, 2] {
        let rows = 120;
        let path = dir.path().join(format!("p{k}.csv"));
        let out = palace()
            .args(["positions", "--k", &k.to_string(), "--rows", &rows.to_string(), "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "k = {k}: {}", String::from_utf8_lossy(&out.stderr));
        let got = std::fs::read_to_string(&path).unwrap();
        assert_eq!(got, direct_positions(k, rows, k + 3 * rows), "k = {k}");
        assert_eq!(got.lines().count() as u32, 1 + k * rows, "k = {k}");
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(report.contains(&format!("every row holds exactly k = {k} P-positions")), "{report}");
    }
}

/// The list and the JSON report of `palace positions` with `args`.
fn list(args: &[&str]) -> (Vec<u8>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.csv");
    let out = palace().arg("positions").args(args).args(["--json", "-q", "-o"]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    (std::fs::read(&path).unwrap(), serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn the_line_counter_equals_the_tiled_sweep_far_from_the_corner() {
    // Games picked from the clock, small and large, on boards the direct definition is too
    // slow for; and a narrow board, whose rows run short.
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let games = [
        (1 + seed % 20, 6000, None),
        (21 + (seed / 20) % 235, 2500, None),
        (7, 5000, Some(9000)),
        (255, 1500, None),
    ];
    for (k, rows, width) in games {
        let (k, rows) = (k.to_string(), rows.to_string());
        let mut args = vec!["--k", &k, "--rows", &rows];
        let width = width.map(|w: u32| w.to_string());
        if let Some(w) = &width {
            args.extend(["--width", w]);
        }
        let (lines, mut by_lines) = list(&[&args[..], &["--method", "lines"]].concat());
        let (sweep, mut by_sweep) = list(&[&args[..], &["--method", "sweep"]].concat());
        assert!(lines == sweep, "k = {k}, {rows} rows: the lists differ");
        assert_eq!(by_lines["method"], "lines");
        assert_eq!(by_sweep["method"], "sweep");
        assert!(by_lines["cells_computed"].as_u64() < by_sweep["cells_computed"].as_u64(), "{by_lines}");
        for r in [&mut by_lines, &mut by_sweep] {
            r.as_object_mut().unwrap().retain(|key, _| key != "method" && key != "cells_computed");
        }
        assert_eq!(by_lines, by_sweep, "k = {k}, {rows} rows");
        assert_eq!(by_lines["first_short_row"].is_null(), width.is_none(), "{by_lines}");
    }
    // Without --method, the line counter up to k = 255 and the sweep above.
    assert_eq!(list(&["--k", "255", "--rows", "50"]).1["method"], "lines");
    assert_eq!(list(&["--k", "256", "--rows", "50"]).1["method"], "sweep");
}

#[test]
fn the_list_can_go_to_standard_output_and_the_report_to_json() {
    let out = palace().args(["positions", "--k", "3", "--rows", "10", "-o", "-", "-q"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), direct_positions(3, 10, 33));
    let dir = tempfile::tempdir().unwrap();
    let out = palace()
        .args(["positions", "--k", "3", "--rows", "30", "--width", "12", "--json", "-o"])
        .arg(dir.path().join("p.csv"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Twelve columns are too few for thirty rows: the first short row is reported.
    assert!(r["first_short_row"].is_array(), "{r}");
    assert!(r["full_rows"].as_u64().unwrap() < 30);
}

#[test]
fn one_cell_equals_the_definition() {
    let k = 40;
    let n = direct_palace_numbers(k, 200, 120);
    for (x, y) in [(0u32, 0u32), (39, 0), (40, 0), (150, 17), (61, 119), (199, 3)] {
        let out = palace()
            .args(["cell", "--k", "40", "--at", &format!("{x},{y}"), "--json", "-q"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want = n[(y * 200 + x) as usize];
        assert_eq!(r["N"].as_u64(), Some(u64::from(want)), "({x}, {y})");
        assert_eq!(r["p_position"].as_bool(), Some(want < k));
    }
}

/// `cell` (the counter form, one tile's values) against `dump` (the CA's row sweep) on cells
/// picked at random in windows near the origin, in the hood, far along both arms, in outer space
/// beyond the skin, across the skin's edge and in the inner sector.
#[test]
fn cells_equal_the_dump_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let mut state =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    // (k, window x0, y0, what): 48 x 40 windows.
    let places = [
        (40u32, 0u32, 0u32, "near the origin"),
        (500, 0, 100, "the hood"),
        // The arm of game 300 meets column 24000 at row 9083, its skin's first cell.
        (300, 24000, 9110, "the upper arm, far out"),
        (300, 9110, 24000, "the lower arm, far out"),
        (300, 24000, 60, "outer space beyond the skin"),
        (300, 24000, 9060, "across the skin's edge"),
        (300, 5000, 5000, "the inner sector"),
        (300, 24000, 16000, "the inner sector, far out"),
        (7, 3000, 1200, "a small game, far out"),
    ];
    for (k, x0, y0, what) in places {
        let (x1, y1) = (x0 + 48, y0 + 40);
        let npy = dir.path().join("w.npy");
        let window = format!("{x0},{y0},{x1},{y1}");
        palace()
            .args(["dump", "--k", &k.to_string(), "--width", &x1.to_string(), "--height", &y1.to_string()])
            .args(["--window", &window, "--values", "palace", "-q", "-o"])
            .arg(&npy)
            .assert()
            .success();
        let arr = palace::output::npy::read(&npy).unwrap();
        for _ in 0..4 {
            let r = palace::testing::splitmix64(&mut state);
            let (x, y) = (x0 + (r % 48) as u32, y0 + ((r >> 32) % 40) as u32);
            let out = palace()
                .args(["cell", "--k", &k.to_string(), "--at", &format!("{x},{y}"), "--json", "-q"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
            let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let want = i64::from(arr.data[((y - y0) * 48 + (x - x0)) as usize]);
            assert_eq!(r["N"].as_i64(), Some(want), "k = {k}, ({x}, {y}), {what}");
            assert_eq!(r["v"].as_i64(), Some(want - i64::from(k)), "k = {k}, ({x}, {y}), {what}");
            assert_eq!(r["p_position"].as_bool(), Some(want < i64::from(k)));
        }
    }
}

/// Far from the corner the region is labelled only when asked for: the answer says what
/// labelling would sweep, and `--region` labels it.
#[test]
fn far_cells_label_their_region_when_asked() {
    let r = json(&["cell", "--k", "300", "--at", "300000,200", "--json", "-q"]);
    assert_eq!(r["region"]["decided"], "not_labelled", "{r}");
    let cells = r["region"]["cells_to_label"].as_u64().unwrap();
    assert!(cells > 6 * 300001 * 201, "{r}");
    let out = palace().args(["cell", "--k", "300", "--at", "300000,200", "-q"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("region: not labelled") && text.contains("--region"), "{text}");
    let r = json(&["cell", "--k", "300", "--at", "300000,200", "--region", "--json", "-q"]);
    assert_eq!(r["region"]["decided"], "labelled", "{r}");
    assert_eq!(r["region"]["region"], "outer-space", "{r}");
    // Near the corner it is labelled without being asked.
    let r = json(&["cell", "--k", "300", "--at", "400,500", "--json", "-q"]);
    assert_ne!(r["region"]["decided"], "not_labelled", "{r}");
}

#[test]
fn refusals_name_the_flags() {
    for (args, says) in [
        (&["positions", "--k", "3", "--rows", "0", "-o", "-"][..], "--rows"),
        (&["positions", "--k", "256", "--rows", "10", "--method", "lines", "-o", "-"], "--method sweep"),
        (&["cell", "--k", "3", "--at", "5"], "--at"),
        (&["cell", "--k", "3", "--at", "-1,4"], "--at"),
    ] {
        let out = palace().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}");
    }
}

#[test]
fn the_list_as_npy_is_an_n_by_2_int64_array() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.npy");
    let out =
        palace().args(["positions", "--k", "4", "--rows", "50", "-q", "-o"]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&path).unwrap();
    let header_len = 10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = String::from_utf8_lossy(&bytes[10..header_len]);
    assert!(header.contains("'descr': '<i8'") && header.contains("'shape': (200, 2)"), "{header}");
    assert_eq!(header_len % 64, 0);
    let pairs: Vec<String> = bytes[header_len..]
        .chunks_exact(16)
        .map(|c| {
            let x = i64::from_le_bytes(c[..8].try_into().unwrap());
            let y = i64::from_le_bytes(c[8..].try_into().unwrap());
            format!("{x},{y}\n")
        })
        .collect();
    assert_eq!(format!("x,y\n{}", pairs.concat()), direct_positions(4, 50, 154));
    if std::env::var_os("PALACE_REQUIRE_NUMPY").is_some()
        || std::process::Command::new("python3")
            .arg("-c")
            .arg("import numpy")
            .status()
            .is_ok_and(|s| s.success())
    {
        let check = format!(
            "import numpy as n; a = n.load({:?}); assert a.shape == (200, 2) and a.dtype == n.int64, a.shape; assert (a[:, 1] == n.repeat(n.arange(50), 4)).all()",
            path.to_str().unwrap()
        );
        let s = std::process::Command::new("python3").args(["-c", &check]).status().unwrap();
        assert!(s.success(), "numpy.load refused the list");
    }
}
