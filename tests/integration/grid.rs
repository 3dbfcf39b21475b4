//! `palace grid` end to end: the cells it measures are the fabric cells `palace regions`
//! counts in the same window (cells, black cells, palaces), every reported lattice is the
//! lattice of its two vectors, and the usage errors name their flags. The autocorrelation
//! itself is tested against a plain double loop and on hand-built lattices in
//! `crates/palace/src/analysis/grid.rs`.

use assert_cmd::Command;
use serde_json::Value;

fn palace() -> Command {
    Command::cargo_bin("palace").expect("binary")
}

fn json(args: &[&str]) -> Value {
    let out = palace().args(args).arg("--json").arg("-q").assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("JSON")
}

/// The window's fabric as `palace regions` counts it: (cells, cells with v = 0, palaces).
fn regions_fabric(k: u32, w: [u64; 4]) -> (u64, u64, u64) {
    let window = format!("{},{},{},{}", w[0], w[1], w[2], w[3]);
    let r = json(&["regions", "--k", &k.to_string(), "--size", &w[2].to_string(), "--window", &window]);
    let fabric = r["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .find(|e| e[0] == "fabric")
        .map(|e| e[1].clone())
        .expect("fabric");
    let black = fabric["histogram"]
        .as_array()
        .expect("histogram")
        .iter()
        .find(|h| h[0] == 0)
        .map_or(0, |h| h[1].as_u64().expect("count"));
    (fabric["cells"].as_u64().expect("cells"), black, fabric["palaces"].as_u64().expect("palaces"))
}

#[test]
fn grid_measures_the_fabric_that_regions_labels() {
    for (k, d, side) in [(300u32, 128u32, 64u32), (1000, 256, 128), (1000, 700, 96)] {
        let g = json(&[
            "grid",
            "--k",
            &k.to_string(),
            "--at",
            &d.to_string(),
            "--side",
            &side.to_string(),
            "--reach",
            "24",
        ]);
        let w = &g["windows"][0];
        let win: Vec<u64> =
            w["window"].as_array().expect("window").iter().map(|v| v.as_u64().expect("u64")).collect();
        let nose = u64::from((k - 1) / 3);
        let s = u64::from(side.min(d / 2));
        assert_eq!(
            win,
            vec![nose + u64::from(d), nose + u64::from(d) - s, nose + u64::from(d) + s, nose + u64::from(d)]
        );
        let (cells, black, palaces) = regions_fabric(k, [win[0], win[1], win[2], win[3]]);
        assert!(cells > 0, "k = {k}, d = {d}: no fabric");
        assert_eq!(w["fabric_cells"].as_u64(), Some(cells), "k = {k}, d = {d}");
        assert_eq!(w["black"]["cells"].as_u64(), Some(black), "k = {k}, d = {d}");
        assert_eq!(w["palace"]["cells"].as_u64(), Some(palaces), "k = {k}, d = {d}");
        for pattern in ["black", "palace"] {
            let p = &w[pattern];
            let rs: Vec<f64> =
                p["peaks"].as_array().expect("peaks").iter().map(|q| q["r"].as_f64().expect("r")).collect();
            assert!(rs.windows(2).all(|x| x[0] >= x[1]), "peaks sorted: {rs:?}");
            for b in p["lattices"].as_array().expect("lattices") {
                let Some(l) = b["lattice"].as_object() else { continue };
                let v = |n: &str, c: &str| l[n][c].as_i64().expect("coordinate");
                let det = (v("v1", "dx") * v("v2", "dy") - v("v1", "dy") * v("v2", "dx")).abs();
                assert_eq!(l["area"].as_i64(), Some(det));
                let len = |n: &str| ((v(n, "dx").pow(2) + v(n, "dy").pow(2)) as f64).sqrt();
                let (from, to) = (b["band"][0].as_f64().expect("from"), b["band"][1].as_f64().expect("to"));
                for n in ["v1", "v2"] {
                    assert!(from <= len(n) && len(n) < to, "{n} outside its band {from}..{to}");
                }
            }
        }
    }
}

#[test]
fn grid_writes_its_picture_and_names_bad_flags() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("grid.png");
    palace()
        .args(["grid", "--k", "1000", "--at", "200,300", "--side", "64", "--reach", "16", "-q", "-o"])
        .arg(&png)
        .assert()
        .success();
    let bytes = std::fs::read(&png).expect("picture");
    assert_eq!(&bytes[1..4], b"PNG");
    for (args, flag) in [
        (vec!["grid", "--k", "3"], "--k 3"),
        (vec!["grid", "--k", "1000", "--side", "8"], "--side 8"),
        (vec!["grid", "--k", "1000", "--side", "64", "--reach", "40"], "--reach 40"),
        (vec!["grid", "--k", "1000", "--at", "1"], "--at 1"),
        (vec!["grid", "--k", "10"], "no window"),
    ] {
        palace().args(&args).assert().code(2).stderr(predicates::str::contains(flag));
    }
}
