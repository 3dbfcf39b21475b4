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
        (&["cell", "--k", "3", "--at", "5"], "--at"),
        (&["cell", "--k", "3", "--at", "-1,4"], "--at"),
    ] {
        let out = palace().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}");
    }
}
