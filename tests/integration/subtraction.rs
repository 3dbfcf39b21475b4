//! End-to-end tests of `palace game subtraction`: the JSON keys and values, the survey of
//! several sets, the files written, the paper's checks through the binary, and usage errors
//! (exit 2, the flag named, no file left behind).

use crate::common;

use common::{json, palace};
use predicates::prelude::*;

/// Larsson and Fox, Theorem 2: the values are 0, 1, 2 on B_0, B_0 + 1, AB + 1, so with `B_0`
/// of density 1/phi^2 the counts over 0..=10^5 are those of the three sets.
#[test]
fn papers_game_json() {
    let v = json(&["game", "subtraction", "--to", "100000", "--json"]);
    assert_eq!(v["max"], 2);
    assert_eq!(v["theorem2_mismatches"], 0);
    assert_eq!(v["set"], "F(2n+1)-1");
    assert_eq!(
        v["members"],
        serde_json::json!([1, 4, 12, 33, 88, 232, 609, 1596, 4180, 10945, 28656, 75024])
    );
    assert_eq!(v["period"], serde_json::Value::Null);
    assert_eq!(v["period_bound"], 6250);
    let counts: Vec<u64> = v["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u64>(), 100_001);
    // B_0 = {floor(n phi^2) : n >= 0} has 1 + floor(100000 / phi^2) = 1 + 38196 members <= 10^5
    // (B(38196) = 99998), and so has B_0 + 1.
    assert_eq!(counts[0], 38_197);
    assert_eq!(counts[1], counts[0]);
}

#[test]
fn survey_of_sets() {
    let v = json(&[
        "game",
        "subtraction",
        "--to",
        "20000",
        "--set",
        "F(2n)-1",
        "--set",
        "1,4",
        "--set",
        "F(n)",
        "--json",
    ]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["members"], serde_json::json!([2, 7, 20, 54, 143, 376, 986, 2583, 6764, 17710]));
    // {1, 4}: 0 1 0 1 2 repeating.
    assert_eq!(rows[1]["period"], serde_json::json!({"period": 5, "from": 0}));
    assert_eq!(rows[1]["max"], 2);
    assert_eq!(rows[1]["theorem2_mismatches"], serde_json::Value::Null);
    // F(n) reaches 4 at n = 8 and goes on in bytes.
    assert_eq!(rows[2]["storage"], "1 byte");
    assert_eq!(rows[2]["switched_at"], 8);
    let text = palace()
        .args(["game", "subtraction", "--to", "5000", "--set", "1,4"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(text).unwrap().contains("period 5 from n = 0"));
}

#[test]
fn files() {
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("g.npy");
    palace().args(["game", "subtraction", "--to", "1000", "-o"]).arg(&npy).assert().success();
    let bytes = std::fs::read(&npy).unwrap();
    let data = bytes.len() - 1001;
    assert!(String::from_utf8_lossy(&bytes[..data]).contains("'|u1'"));
    // g(0..12) by hand: 0 1 0 1 2 0 1 0 1 2 0 1 (S = {1, 4, 12, ...}).
    assert_eq!(&bytes[data..data + 12], [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1]);
    let png = dir.path().join("g.png");
    palace().args(["game", "subtraction", "--to", "5000", "-o"]).arg(&png).assert().success();
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
}

#[test]
fn checks_of_the_paper() {
    let v = json(&["game", "subtraction", "--to", "300000", "--check", "--json"]);
    let refuted: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "refuted")
        .map(|c| c["source"].as_str().unwrap())
        .collect();
    // Both are about the printed proofs, not the results (docs/games-claims.md).
    assert_eq!(refuted, ["Lemma 1's proof (as printed)", "Theorem 2's proof, last paragraph"]);
    palace()
        .args(["game", "subtraction", "--to", "10000", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Theorem 2").and(predicate::str::contains("2 refuted")));
}

#[test]
fn usage_errors_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("g.txt");
    palace()
        .args(["game", "subtraction", "--to", "10", "-o"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--output").and(predicate::str::contains(".npy or .png")));
    assert!(!bad.exists());
    palace()
        .args(["game", "subtraction", "--to", "10", "--set", "F(2m)"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--set F(2m)"));
    palace()
        .args(["game", "subtraction", "--to", "100", "--set", "1,2", "--check"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--check"));
    palace()
        .args(["game", "subtraction", "--to", "100000000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--to <= 10000000000"));
}
