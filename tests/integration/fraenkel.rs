//! End-to-end tests of `palace game fraenkel-array`, `fraenkel-u` and `frankenstein`: the JSON
//! keys the commands promise, the literal data of Fraenkel's text (*Arrays, Numeration Systems
//! and Frankenstein Games*, Tables 1 and 2) through the binary, the picture, and usage errors.

use crate::common;

use common::{json, palace};
use predicates::prelude::*;

/// Table 1 of the text, rows 0..10, columns 0..6, except A_6^9: printed 4225, but (2) gives
/// 3 * 1652 - 631 = 4325, which is asserted.
#[test]
fn array_rows_are_table_1() {
    let v = json(&["game", "fraenkel-array", "--rows", "11", "--json"]);
    assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["rows"]);
    assert_eq!(v["rows"][0], serde_json::json!([0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(v["rows"][1], serde_json::json!([1, 3, 8, 21, 55, 144, 377]));
    assert_eq!(v["rows"][3], serde_json::json!([4, 11, 29, 76, 199, 521, 1364]));
    assert_eq!(v["rows"][10], serde_json::json!([15, 40, 105, 275, 720, 1885, 4935]));
    assert_eq!(v["rows"][9][6], 4325, "Table 1 prints 4225");
    let out = palace()
        .args(["game", "fraenkel-array", "--rows", "3", "--columns", "3", "--csv"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text, "n,A_0,A_1,A_2\n0,0,0,0\n1,1,3,8\n2,2,6,16\n");
}

/// Table 2 and the text after Theorem I: 41 = 1211, 42 = 2000 (not 1212), 55 = 10000.
#[test]
fn u_representations() {
    palace()
        .args(["game", "fraenkel-u", "41", "42", "55", "16"])
        .assert()
        .success()
        .stdout("41 1211\n42 2000\n55 10000\n16 200\n");
    let v = json(&["game", "fraenkel-u", "60", "--json"]);
    assert_eq!(v["representations"][0], serde_json::json!({"n": 60, "digits": "10012"}));
}

/// The checks of the array: everything confirmed but Table 1 (A_6^9) and the bound of §4.
#[test]
fn array_check() {
    let v = json(&["game", "fraenkel-array", "--check", "--to", "200000", "--json"]);
    let refuted: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] != "confirmed")
        .map(|c| c["source"].as_str().unwrap())
        .collect();
    assert_eq!(refuted, ["Table 1", "§4"]);
    assert!(v[0]["note"].as_str().unwrap().contains("A_6^9: printed 4225, computed 4325"));
}

#[test]
fn array_picture() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("a.png");
    palace().args(["game", "fraenkel-array", "--rows", "200", "--plot"]).arg(&png).assert().success();
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
}

/// Theorem 3 under the ordered reading on 16 squares: the P-positions are Phi and the row
/// prefixes of the array; under the literal reading (A) fails at (4, 11, 29) -> (1, 3, 8).
#[test]
fn frankenstein_p_positions() {
    let v = json(&["game", "frankenstein", "--squares", "16", "--json"]);
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["p_positions", "violations_a", "violations_b"]
    );
    assert_eq!(
        v["p_positions"],
        serde_json::json!([[], [1, 3], [2, 6], [1, 3, 8], [4, 11], [5, 14], [2, 6, 16]])
    );
    assert_eq!(v["violations_a"], serde_json::json!([]));
    assert_eq!(v["violations_b"], serde_json::json!([]));
    let v =
        json(&["game", "frankenstein", "--squares", "12", "--type2", "literal", "--bound", "40", "--json"]);
    assert_eq!(v["violations_a"][0], serde_json::json!([[4, 11, 29], [1, 3, 8]]));
    assert_eq!(v["violations_b"], serde_json::json!([]));
}

#[test]
fn frankenstein_check() {
    palace()
        .args(["game", "frankenstein", "--squares", "12", "--bound", "60", "--max-sum", "50", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Example (vii) [ordered]").and(predicate::str::contains("refuted")));
    // §1's "the only end position is Phi", "the sum decreases at each move" and the inequality
    // (8) of the proof of Theorem 3 (A) hold.
    let out = palace()
        .args([
            "game",
            "frankenstein",
            "--squares",
            "10",
            "--bound",
            "40",
            "--max-sum",
            "30",
            "--check",
            "--json",
        ])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let side: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            let s = c["source"].as_str().unwrap();
            s.starts_with("§1, the rules") || s == "Proof of Theorem 3 (A), (8)"
        })
        .collect();
    assert_eq!(side.len(), 5);
    assert!(side.iter().all(|c| c["verdict"] == "confirmed"), "{side:?}");
}

#[test]
fn usage_errors_name_the_flag() {
    palace()
        .args(["game", "frankenstein", "--squares", "40"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--squares 40"));
    palace()
        .args(["game", "fraenkel-array", "--rows", "3", "--columns", "50"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--columns 50"));
    palace().args(["game", "fraenkel-u", "0"]).assert().code(2).stderr(predicate::str::contains("N >= 1"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("a.jpg");
    palace()
        .args(["game", "fraenkel-array", "--rows", "3", "--plot"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--plot"));
    assert!(!bad.exists());
}
