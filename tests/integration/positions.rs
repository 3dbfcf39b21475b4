//! `palace positions` and `palace cell` end to end: the list equals the direct definition's
//! palaces, row by row, for games the tests do not name in advance; the report's k-cover check;
//! standard output; the refusals.

use crate::common::palace;
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
