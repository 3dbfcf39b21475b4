//! `palace bench --series`: a command timed at several thread counts, its outputs compared.

use crate::common::{json, palace};
use predicates::prelude::*;

/// Every count of the series gets a row, the fewest threads have speed-up 1 wherever they stand
/// in the series, and the command's output is the same at every count (the report says so only
/// then).
#[test]
fn a_series_times_each_thread_count_and_compares_the_outputs() {
    let v = json(&[
        "bench", "--series", "3,1,2", "--repeat", "2", "--json", "-q", "--", "stats", "--k", "50", "--size",
        "300",
    ]);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.iter().map(|p| p["threads"].as_u64().unwrap()).collect::<Vec<_>>(), [3, 1, 2]);
    assert_eq!(points[1]["speedup"].as_f64(), Some(1.0));
    assert_eq!(points[1]["efficiency"].as_f64(), Some(1.0));
    for p in points {
        let (best, median) = (p["best_s"].as_f64().unwrap(), p["median_s"].as_f64().unwrap());
        assert!(best > 0.0 && best <= median, "{p}");
        let (s, e, t) = (
            p["speedup"].as_f64().unwrap(),
            p["efficiency"].as_f64().unwrap(),
            p["threads"].as_f64().unwrap(),
        );
        assert!((e - s / t).abs() < 1e-12, "{p}");
        // The children's profile: one sweep, its worker time threads x its wall time, parts
        // within it.
        let q = &p["profile"];
        assert_eq!(q["sweeps"], 1, "{p}");
        let (sweep, workers) = (q["sweep_s"].as_f64().unwrap(), q["worker_s"].as_f64().unwrap());
        assert!(sweep > 0.0 && sweep <= best && (workers - t * sweep).abs() < 1e-9, "{p}");
        let parts: f64 = ["computing_s", "analysis_s", "waiting_above_s", "waiting_band_s"]
            .iter()
            .map(|k| q[k].as_f64().unwrap())
            .sum();
        assert!(q["computing_s"].as_f64().unwrap() > 0.0 && parts <= workers + 0.005, "{p}");
        // Its tiles' schedule on every count of the series: one worker within the sweep's
        // wall time on one thread, never slower on more (the earliest band never waits).
        let at = |n: &str| q["schedule_s"][n].as_f64().unwrap_or_else(|| panic!("schedule on {n}: {p}"));
        assert!(at("1") > 0.0 && at("2") <= at("1") && at("3") <= at("1"), "{p}");
        if t == 1.0 {
            assert!(at("1") <= sweep, "{p}");
        }
    }
    // Allowed speed-ups, from the one-thread run's schedule.
    let one = &points[1]["profile"]["schedule_s"];
    for p in points {
        let t = p["threads"].to_string();
        let want = one["1"].as_f64().unwrap() / one[t.as_str()].as_f64().unwrap();
        assert_eq!(p["allows"].as_f64(), Some(want), "{p}");
    }
    assert_eq!(points[1]["allows"].as_f64(), Some(1.0));
    assert_eq!(v["same_output"], true);
    assert_eq!(v["command"], serde_json::json!(["stats", "--k", "50", "--size", "300"]));
    palace()
        .args(["bench", "--series", "1,2", "--repeat", "1", "-q", "--", "skin", "--k", "103", "--to", "2000"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("speed-up")
                .and(predicate::str::contains("analysis"))
                .and(predicate::str::contains("allows"))
                .and(predicate::str::contains("the same at every thread count")),
        );
}

/// Bad series, a missing command, flags the series sets itself and a command that fails are
/// refused, naming what to change.
#[test]
fn bad_series_are_refused_naming_the_flag() {
    let cases: [(&[&str], i32, &str); 6] = [
        (&["--series", "0,2", "--", "stats", "--k", "5", "--size", "9"], 2, "--series 0,2"),
        (&["--series", "1,x", "--", "stats", "--k", "5", "--size", "9"], 2, "thread counts"),
        (&["--series", "1"], 2, "after --"),
        (
            &["--series", "1", "--", "stats", "--k", "5", "--size", "9", "--threads", "2"],
            2,
            "leave --threads out",
        ),
        (&["--series", "1", "--", "stats", "--k", "5", "--size", "9", "-q"], 2, "leave -q out"),
        (&["--series", "1", "--", "stats", "--k", "0", "--size", "9"], 2, "--k 0"),
    ];
    for (args, code, needle) in cases {
        let o = palace().arg("bench").args(args).output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {e}");
        assert!(e.contains(needle), "{args:?}: {e:?} lacks {needle:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
