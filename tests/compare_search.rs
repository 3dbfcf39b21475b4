//! `palace compare --search-shift` end to end: the paper's Fig. 3 window by the nose (games 100
//! and 1000 agree there "without any scaling factor", §3), and its usage errors.

mod common;

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
