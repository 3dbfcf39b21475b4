//! `palace compare --search-shift` end to end: the paper's Fig. 3 window by the nose (games 100
//! and 1000 agree there "without any scaling factor", §3), and its usage errors.

use crate::common;

use common::{json, palace};

#[test]
fn the_nose_windows_of_games_100_and_1000_are_identical() {
    let r = json(&[
        "compare",
        "--k",
        "100",
        "--k2",
        "1000",
        "--size",
        "300",
        "--window",
        "8,8,108,108",
        "--shift",
        "300,300",
        "--search-shift",
        "3",
        "--json",
    ]);
    assert_eq!(r["shifts"], 49);
    let best = &r["best"][0];
    assert_eq!(best["shift"], serde_json::json!([300, 300]));
    assert_eq!(best["offset"], 900);
    assert_eq!(best["matched"], 10000);
    assert!(r["best"][1]["matched"].as_u64().unwrap() < 10000);
}

#[test]
fn a_search_draws_no_picture() {
    palace()
        .args([
            "compare",
            "--k",
            "100",
            "--k2",
            "1000",
            "--size",
            "300",
            "--search-shift",
            "3",
            "-o",
            "x.png",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--search-shift"));
}

/// `--search-region` scores only the cells of game K's window that `palace regions` puts in
/// the region: by the fabric's definition (game k + 3 reproduces it shifted by (1, 1), Fig. 4)
/// all of them match game 500 at (1, 1) with +3, while the whole window, with the fray and
/// the upper warp past the fabric, does not; the count is that of `palace regions`.
#[test]
fn a_search_scores_only_the_region_asked_for() {
    let base = ["compare", "--k", "497", "--k2", "500", "--size", "1500", "--window", "760,700,860,800"];
    let region = |r: &serde_json::Value, name: &str| {
        r["regions"].as_array().unwrap().iter().find(|e| e[0] == name).unwrap()[1]["cells"].as_u64().unwrap()
    };
    let labels = json(&["regions", "--k", "497", "--size", "1500", "--window", "760,700,860,800", "--json"]);
    let fabric = region(&labels, "fabric");
    assert!(fabric > 0 && fabric < 10000, "a window of fabric and more: {fabric}");
    let search = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--shift", "1,1", "--search-shift", "2", "--json"]);
        args.extend_from_slice(extra);
        json(&args)
    };
    let r = search(&["--search-region", "fabric"]);
    assert_eq!(r["regions"], serde_json::json!(["fabric"]));
    assert_eq!(r["cells"], fabric);
    let best = &r["best"][0];
    assert_eq!(
        (best["shift"].clone(), best["offset"].clone()),
        (serde_json::json!([1, 1]), serde_json::json!(3))
    );
    assert_eq!(best["matched"], fabric);
    let all = search(&[]);
    assert_eq!(all["cells"], 10000);
    assert_eq!(all["regions"], serde_json::json!([]));
    assert!(all["best"][0]["fraction"].as_f64().unwrap() < 0.9);
    // The chance level: every shift's fraction averaged, below the best.
    let (mean, sd) = (all["mean_fraction"].as_f64().unwrap(), all["sd_fraction"].as_f64().unwrap());
    assert!(mean < all["best"][0]["fraction"].as_f64().unwrap() && sd > 0.0);
}

/// A shift with a negative coordinate: the lower épaulette's period (5, 1) - (4, 3) = (1, -2)
/// (§3.2) matches a window inside it (k = 500) on every cell with offset 0.
#[test]
fn a_search_takes_a_shift_of_both_signs() {
    let r = json(&[
        "compare",
        "--k",
        "500",
        "--k2",
        "500",
        "--size",
        "1500",
        "--window",
        "100,300,130,330",
        "--shift",
        "1,-2",
        "--search-shift",
        "0",
        "--json",
    ]);
    assert_eq!(r["shifts"], 1);
    assert_eq!(r["best"][0]["shift"], serde_json::json!([1, -2]));
    assert_eq!(r["best"][0]["matched"], 900);
    assert_eq!(r["best"][0]["offset"], 0);
}

#[test]
fn a_negative_shift_or_a_region_needs_a_search() {
    let base = ["compare", "--k", "500", "--k2", "500", "--size", "1500"];
    palace()
        .args(base)
        .args(["--shift", "-1,0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--shift -1,0: a negative shift only with --search-shift"));
    palace()
        .args(base)
        .args(["--search-region", "fabric"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--search-shift"));
    palace()
        .args(base)
        .args(["--window", "0,0,40,40", "--search-shift", "1", "--search-region", "inner-sector"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--search-region: no cell of the window 0,0,40,40 of game 500 lies in inner sector",
        ));
}
