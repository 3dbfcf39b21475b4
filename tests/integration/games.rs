//! End-to-end tests of `palace game`: the JSON keys the commands promise, known answers of the
//! texts through the binary, the files written, and usage errors (exit 2, the flag named, no
//! file left behind).

use crate::common;

use common::{json, palace};
use predicates::prelude::*;

/// Fibonacci nim notes: the first player loses exactly from Fibonacci numbers; from 10 coins
/// the winning first move is 2 (Zeckendorf 10 = 8 + 2).
#[test]
fn fibonacci_nim_json_keys_and_values() {
    let v = json(&["game", "fibonacci-nim", "--to", "30", "--json"]);
    let obj = v.as_object().unwrap();
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["p_positions", "winning_moves"]);
    assert_eq!(v["p_positions"], serde_json::json!([1, 2, 3, 5, 8, 13, 21]));
    assert_eq!(v["winning_moves"]["10"], serde_json::json!([2]));
    assert_eq!(v["winning_moves"]["17"], serde_json::json!([1, 4]));
    assert_eq!(v["winning_moves"]["13"], serde_json::json!([]));
    assert_eq!(v["winning_moves"].as_object().unwrap().len(), 30);
}

#[test]
fn fibonacci_nim_grundy_files() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["png", "npy", "csv"] {
        let out = dir.path().join(format!("g.{ext}"));
        palace().args(["game", "fibonacci-nim", "--to", "40", "--grundy", "-o"]).arg(&out).assert().success();
        let bytes = std::fs::read(&out).unwrap();
        match ext {
            "png" => assert_eq!(&bytes[1..4], b"PNG"),
            "npy" => {
                assert_eq!(&bytes[..6], b"\x93NUMPY");
                let text = String::from_utf8_lossy(&bytes[..128]);
                assert!(text.contains("'<u2'") && text.contains("(40, 40)"), "{text}");
                // G(2, 1) = 0 (a pile of 2 with quota 1 is lost), G(2, 2) = 2.
                let data = &bytes[bytes.len() - 40 * 40 * 2..];
                let g = |n: usize, q: usize| {
                    u16::from_le_bytes([
                        data[2 * ((n - 1) * 40 + q - 1)],
                        data[2 * ((n - 1) * 40 + q - 1) + 1],
                    ])
                };
                assert_eq!((g(2, 1), g(2, 2), g(1, 1)), (0, 2, 1));
            }
            _ => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.starts_with("n,q=1,q=2,"));
                assert!(text.lines().nth(2).unwrap().starts_with("2,0,2,2"));
            }
        }
    }
    let v = json(&["game", "fibonacci-nim", "--to", "8", "--grundy", "--json"]);
    assert_eq!(v["grundy"][7][7], 5, "G(8, 8) = 5");
}

/// Baird-Smith et al.: Player 2 wins the Zeckendorf game for every n != 2.
#[test]
fn zeckendorf_original_winners() {
    let v = json(&["game", "zeckendorf", "--to", "30", "--json"]);
    assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["winners"]);
    let mut want = "2".repeat(30);
    want.replace_range(1..2, "1");
    assert_eq!(v["winners"], want);
}

/// Black-hole paper Theorems 3.1, 4.8 and 5.19 through the binary.
#[test]
fn zeckendorf_black_hole_winners() {
    let w = |m: &str| {
        json(&["game", "zeckendorf", "--to", "64", "--hole", m, "--json"])["winners"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let f2: String = (1..=64).map(|n| if n % 4 == 1 || n % 4 == 2 { '1' } else { '2' }).collect();
    assert_eq!(w("2"), f2);
    let f3: String = (1..=64).map(|n| if [1, 2, 3, 6, 8].contains(&(n % 9)) { '1' } else { '2' }).collect();
    assert_eq!(w("3"), f3);
    let f4: String = (1..=64u32)
        .map(|n| {
            let p2 = [0, 2, 4, 6, 9, 11, 13].contains(&(n % 16)) != [2, 32, 17, 47].contains(&n);
            if p2 { '2' } else { '1' }
        })
        .collect();
    assert_eq!(w("4"), f4);
}

#[test]
fn zeckendorf_positions_table_and_picture() {
    let out = palace()
        .args(["game", "zeckendorf", "--hole", "4", "--positions", "--max-value", "6"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("a,b,c,value,outcome\n0,0,0,0,P\n"));
    // Theorem 5.1: (2, 0, 0) is N; Corollary 5.2: (3, 0, 1) is P.
    assert!(text.contains("\n2,0,0,2,N\n") && text.contains("\n3,0,1,6,P\n"));
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("f4.png");
    palace()
        .args(["game", "zeckendorf", "--hole", "4", "--positions", "--max-value", "40", "-o"])
        .arg(&png)
        .assert()
        .success();
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
}

/// The sources of the refuted claims of `palace game ARGS --check --json`.
fn refuted_sources(args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.extend(["--check", "--json"]);
    json(&all)
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "refuted")
        .map(|c| c["source"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn checks_confirm_the_texts() {
    // Each refutation is a reading refuted on purpose, beside the reading that holds
    // (docs/games-claims.md): the notes' Wythoff-array sentence for every integer sequence (the
    // zero sequence never meets the array), Figure 1 read in its printed order, the remark
    // after Corollary 5.12 as printed, the remark after Theorem 4.7 read per class mod 9.
    assert_eq!(
        refuted_sources(&["game", "fibonacci-nim", "--to", "500"]),
        ["Notes, Wythoff array (literally)"]
    );
    assert_eq!(
        refuted_sources(&["game", "zeckendorf", "--to", "200", "--hole", "4"]),
        ["Remark after Cor. 5.12 (as printed)", "Figure 1 (literal order)"]
    );
    assert_eq!(
        refuted_sources(&["game", "zeckendorf", "--to", "100", "--hole", "3"]),
        ["after Theorem 4.7 (per class)"]
    );
    // Small ranges: the F_4 checks widen to n = 64 (their listed positions reach value 47), and
    // an example beyond the range is "not reached", not refuted.
    palace()
        .args(["game", "zeckendorf", "--to", "10", "--hole", "4", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains("n = 1..64"));
    palace()
        .args(["game", "fibonacci-nim", "--to", "5", "--check"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 refuted, 2 not reached"));
}

/// The side arithmetic of the proof of Theorem 5.19, the notes' negafibonacci sentence and the
/// remark after Theorem 4.7 are checks the program runs.
#[test]
fn side_statements_are_checked() {
    let v = json(&["game", "zeckendorf", "--to", "100", "--hole", "4", "--check", "--json"]);
    let arithmetic: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["source"].as_str().unwrap().starts_with("Theorem 5.19, proof ("))
        .collect();
    assert_eq!(arithmetic.len(), 6);
    assert!(arithmetic.iter().all(|c| c["verdict"] == "confirmed"), "{arithmetic:?}");
    let v = json(&["game", "fibonacci-nim", "--to", "100", "--check", "--json"]);
    let nega: Vec<&serde_json::Value> =
        v.as_array().unwrap().iter().filter(|c| c["source"] == "Notes, negafibonacci coding").collect();
    assert_eq!(nega.len(), 2);
    assert!(nega.iter().all(|c| c["verdict"] == "confirmed"), "{nega:?}");
    let v = json(&["game", "zeckendorf", "--to", "60", "--hole", "3", "--check", "--json"]);
    let remark =
        v.as_array().unwrap().iter().find(|c| c["source"] == "after Theorem 4.7 (per class)").unwrap();
    assert!(remark["note"].as_str().unwrap().starts_with("n = 2 "), "{remark}");
}

/// With --plot, fraenkel-array prints its rows only when asked for.
#[test]
fn fraenkel_array_plot_prints_rows_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("a.png");
    let out = palace()
        .args(["game", "fraenkel-array", "--rows", "50", "-q", "--plot"])
        .arg(&png)
        .assert()
        .success();
    assert!(out.get_output().stdout.is_empty());
    let out = palace()
        .args(["game", "fraenkel-array", "--rows", "50", "--table", "-q", "--plot"])
        .arg(&png)
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&out.get_output().stdout).lines().count(), 51);
}

/// The games take the common flags of every command.
#[test]
fn games_take_the_common_flags() {
    for args in [
        &["game", "fibonacci-nim", "--to", "50"][..],
        &["game", "zeckendorf", "--to", "20", "--hole", "4"],
        &["game", "subtraction", "--to", "1000"],
        &["game", "fraenkel-u", "41"],
        &["game", "frankenstein", "--squares", "8", "--bound", "20"],
    ] {
        palace().args(args).args(["--threads", "1", "--kernel", "wide", "-q"]).assert().success();
    }
    // The bound a refusal names is accepted (the original game: 732, not 2000).
    palace()
        .args(["game", "zeckendorf", "--to", "2001"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use --to <= 732"));
}

#[test]
fn usage_errors_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("g.txt");
    palace()
        .args(["game", "fibonacci-nim", "--to", "10", "--grundy", "-o"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--output").and(predicate::str::contains(".png, .npy or .csv")));
    assert!(!bad.exists());
    palace()
        .args(["game", "zeckendorf", "--to", "10", "--hole", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--hole 1").and(predicate::str::contains("--hole 2 or more")));
    palace()
        .args(["game", "fibonacci-nim", "--to", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--to 0"));
    palace()
        .args(["game", "fibonacci-nim", "--to", "40000", "--grundy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--to <= 30000"));
    palace()
        .args(["game", "zeckendorf", "--to", "100000", "--hole", "6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--to 100000").and(predicate::str::contains("GiB")));
    // --positions needs --max-value (clap's own usage error).
    palace().args(["game", "zeckendorf", "--hole", "4", "--positions"]).assert().code(2);
}
