//! End-to-end tests of the `palace` binary: outputs decode to what the direct definition
//! predicts, and every bad input exits 2 with a message naming the flag and leaves no file.

use crate::common;

use common::direct_window;
use common::palace;
use palace::model::geometry::Window;
use palace::model::rule::in_hood;
use predicates::prelude::*;
use std::path::Path;

/// Width, height, palette and palette indices of an indexed PNG.
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>, Vec<u8>) {
    let png = common::decode_indexed(path);
    (png.width, png.height, png.plte, png.px)
}

fn expected_index(k: u32, x: u32, y: u32, v: i64) -> u8 {
    if in_hood(k, u64::from(x), u64::from(y)) { 0 } else { (v.clamp(-4, 3) + 5) as u8 }
}

#[test]
fn render_tiny_board_decodes_to_the_palette_indices() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k5.png");
    palace()
        .args(["render", "--k", "5", "--width", "23", "--height", "17", "--no-legend", "-o"])
        .arg(&out)
        .assert()
        .success();
    let (w, h, plte, px) = decode_png(&out);
    assert_eq!((w, h), (23, 17));
    assert_eq!(plte, palace::output::palette::plte());
    let vals = direct_window(5, Window::new(0, 0, 23, 17).unwrap());
    for y in 0..17 {
        for x in 0..23 {
            let i = (y * 23 + x) as usize;
            assert_eq!(px[i], expected_index(5, x, y, vals[i]), "({x},{y})");
        }
    }
    // The hood's corner is brown, and (k, 0) is black: the shoulder begins outer space.
    assert_eq!(px[0], 0);
    assert_eq!(px[5], 5);
}

/// The paper's Fig. 1 (k = 5, 11 x 11): colours by palace number, 0 dark brown, 1 dark olive,
/// 2 olive, 3 light olive, 4 yellow, 5 black, 6 blue, 7 indigo; the queen at (3, 3) is yellow.
#[test]
fn figure_1_colours_with_zoom() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fig1.png");
    palace()
        .args([
            "render",
            "--k",
            "5",
            "--size",
            "11",
            "--zoom",
            "3",
            "--palette",
            "values",
            "--no-legend",
            "-q",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let (w, h, _, px) = decode_png(&out);
    assert_eq!((w, h), (33, 33));
    let cell = |x: usize, y: usize| px[(3 * y + 1) * 33 + 3 * x + 1];
    // Row 0: the first five cells are palaces with palace numbers 0..4, then black.
    assert_eq!((0..6).map(|x| cell(x, 0)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(cell(3, 3), 4, "the queen's square (3, 3) is yellow: palace number 4");
    // Each cell is a 3 x 3 block.
    for y in 0..33 {
        for x in 0..33 {
            assert_eq!(px[y * 33 + x], cell(x / 3, y / 3));
        }
    }
}

#[test]
fn render_window_and_scale() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.png");
    palace()
        .args([
            "render",
            "--k",
            "40",
            "--size",
            "200",
            "--window",
            "10,20,110,95",
            "--scale",
            "4",
            "--aggregate",
            "min",
            "--no-legend",
            "-q",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let (w, h, _, px) = decode_png(&out);
    assert_eq!((w, h), (25, 19));
    let win = Window::new(10, 20, 110, 95).unwrap();
    let vals = direct_window(40, win);
    let block = |bx: u32, by: u32| -> Vec<u8> {
        let mut b = Vec::new();
        for y in (by * 4)..((by + 1) * 4).min(75) {
            for x in (bx * 4)..((bx + 1) * 4).min(100) {
                b.push(expected_index(40, x + 10, y + 20, vals[(y * 100 + x) as usize]));
            }
        }
        b
    };
    for by in 0..19u32 {
        for bx in 0..25u32 {
            let m = block(bx, by).into_iter().min().unwrap();
            assert_eq!(px[(by * 25 + bx) as usize], m, "block ({bx},{by})");
        }
    }
    // The default: each block's mean colour, the nearest lattice colour unless the block is of
    // one colour.
    palace()
        .args([
            "render",
            "--k",
            "40",
            "--size",
            "200",
            "--window",
            "10,20,110,95",
            "--scale",
            "4",
            "--no-legend",
            "-q",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let (_, _, _, px) = decode_png(&out);
    let levels = palace::output::palette::MEAN_LEVELS;
    for by in 0..19u32 {
        for bx in 0..25u32 {
            let b = block(bx, by);
            let want = if b.iter().all(|&i| i == b[0]) {
                b[0]
            } else {
                let mut idx = 0u32;
                for (c, l) in levels.into_iter().enumerate() {
                    let sum: f64 =
                        b.iter().map(|&i| f64::from(palace::output::palette::mean_rgb(i)[c])).sum();
                    idx = idx * l + (sum * f64::from(l - 1) / (255.0 * b.len() as f64)).round() as u32;
                }
                palace::output::palette::MEAN_BASE + idx as u8
            };
            assert_eq!(px[(by * 25 + bx) as usize], want, "mean block ({bx},{by})");
        }
    }
}

/// A picture above the parallel encoder's threshold (16 M pixels) decodes to the palette
/// indices the direct definition gives.
#[test]
fn large_render_uses_the_parallel_encoder_correctly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.png");
    let (w, h) = (4200u32, 4100u32);
    assert!(u64::from(w) * u64::from(h) > palace::output::png::PARALLEL_PIXELS);
    palace()
        .args(["render", "--k", "300", "--width", "4200", "--height", "4100", "--no-legend", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    let (pw, ph, _, px) = decode_png(&out);
    assert_eq!((pw, ph), (w, h));
    let vals = direct_window(300, Window::new(0, 0, w, h).unwrap());
    for (i, (&p, &v)) in px.iter().zip(&vals).enumerate() {
        let (x, y) = (i as u32 % w, i as u32 / w);
        assert_eq!(p, expected_index(300, x, y, v), "({x},{y})");
    }
}

/// `render` draws a legend strip below the picture by default: the picture above it is the
/// bare picture (`--no-legend`) pixel for pixel, white to the right where the legend is wider,
/// then a black rule, and the strip shows every colour of the scheme as a swatch. On a tiny
/// board (the picture padded), scaled by the mean (a full palette: the legend draws in its
/// nearest colours) and by the minimum, zoomed with the values' colours, and above the parallel
/// encoder's threshold (4 bits a pixel).
#[test]
fn render_legend_keeps_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 5] = [
        &["--k", "5", "--width", "23", "--height", "17"],
        &["--k", "40", "--size", "200", "--window", "10,20,110,95", "--scale", "4"],
        &["--k", "40", "--size", "400", "--scale", "2", "--aggregate", "min"],
        &["--k", "5", "--size", "11", "--zoom", "3", "--palette", "values"],
        &["--k", "300", "--width", "4200", "--height", "4100"],
    ];
    for args in cases {
        let (bare, with) = (dir.path().join("bare.png"), dir.path().join("legend.png"));
        palace().arg("render").args(args).args(["--no-legend", "-q", "-o"]).arg(&bare).assert().success();
        palace().arg("render").args(args).args(["-q", "-o"]).arg(&with).assert().success();
        // The picture's palette comes first.
        let (plte, lplte) = (decode_png(&bare).2, decode_png(&with).2);
        assert_eq!(&lplte[..plte.len()], &plte[..], "{args:?}");
        let swatches = &palace::output::palette::RGB[..9];
        common::assert_legend_below(&bare, &with, swatches, &format!("{args:?}"));
    }
}

#[test]
fn dump_round_trips_both_value_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let win = Window::new(3, 4, 61, 50).unwrap();
    let want = direct_window(17, win);
    for (kind, shift) in [("ca", 0i64), ("palace", 17)] {
        let out = dir.path().join(format!("{kind}.npy"));
        palace()
            .args([
                "dump",
                "--k",
                "17",
                "--size",
                "64",
                "--window",
                "3,4,61,50",
                "--values",
                kind,
                "-q",
                "-o",
            ])
            .arg(&out)
            .assert()
            .success();
        let arr = palace::output::npy::read(&out).unwrap();
        assert_eq!(arr.shape, (46, 58));
        let got: Vec<i64> = arr.data.iter().map(|&v| i64::from(v)).collect();
        let exp: Vec<i64> = want.iter().map(|v| v + shift).collect();
        assert_eq!(got, exp, "{kind}");
    }
}

#[test]
fn numpy_loads_the_dump_unchanged() {
    let have_numpy = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !have_numpy {
        assert!(
            std::env::var_os("PALACE_REQUIRE_NUMPY").is_none(),
            "PALACE_REQUIRE_NUMPY is set but python3 cannot import numpy"
        );
        eprintln!("numpy not installed: skipping the numpy load check (CI installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.npy");
    palace()
        .args(["dump", "--k", "9", "--width", "41", "--height", "30", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    let want = direct_window(9, Window::new(0, 0, 41, 30).unwrap());
    let sum: i64 = want.iter().sum();
    let script = format!(
        "import numpy as np; a = np.load({:?}); assert a.dtype == np.dtype('<i4'), a.dtype; \
         assert a.shape == (30, 41), a.shape; assert a.flags['C_CONTIGUOUS']; print(int(a.sum()), int(a[0,0]), int(a[29,40]))",
        out.to_str().unwrap()
    );
    let o = std::process::Command::new("python3").args(["-c", &script]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8(o.stdout).unwrap();
    assert_eq!(printed.trim(), format!("{sum} {} {}", want[0], want[want.len() - 1]));
}

/// `PALACE_ISA` caps every automatic choice (kernel, histogram, deflate): each level gives the
/// same statistics and the same PNG file byte for byte, and a bad value is a usage error.
#[test]
fn instruction_set_cap_changes_nothing_but_speed() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for isa in ["avx512", "avx2", "portable"] {
        let stats = palace()
            .env("PALACE_ISA", isa)
            .args(["stats", "--k", "300", "--size", "1500", "--json", "-q"])
            .output()
            .unwrap();
        assert!(stats.status.success(), "{isa}: {}", String::from_utf8_lossy(&stats.stderr));
        let out = dir.path().join(format!("{isa}.png"));
        palace()
            .env("PALACE_ISA", isa)
            .args(["render", "--k", "300", "--width", "4200", "--height", "4100", "-q", "-o"])
            .arg(&out)
            .assert()
            .success();
        let mut json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
        // The report names the kernel and times the run: compare the statistics only.
        seen.push((serde_json::to_vec(&json["stats"].take()).unwrap(), std::fs::read(&out).unwrap()));
    }
    assert!(seen.windows(2).all(|p| p[0] == p[1]), "levels disagree");
    palace()
        .env("PALACE_ISA", "sse9")
        .args(["stats", "--k", "5", "--size", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("PALACE_ISA").and(predicate::str::contains("avx2")));
}

#[test]
fn stats_json_counts() {
    let o = palace().args(["stats", "--k", "20", "--size", "90", "--json", "-q"]).output().unwrap();
    assert!(o.status.success());
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let want = direct_window(20, Window::new(0, 0, 90, 90).unwrap());
    let palaces = want.iter().filter(|&&v| v < 0).count() as u64;
    assert_eq!(j["stats"]["total"]["cells"], 8100);
    assert_eq!(j["stats"]["total"]["palaces"], palaces);
    assert_eq!(j["stats"]["total"]["min"]["v"], -20);
    let max = *want.iter().max().unwrap();
    assert_eq!(j["stats"]["rest"]["max"]["v"], max);
}

#[test]
fn check_passes() {
    palace()
        .args(["check", "--max-k", "3", "--max-size", "7", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("result: all agree"));
}

#[test]
fn every_command_has_help() {
    for c in ["render", "dump", "stats", "check", "bench", "compare", "regions", "fabric", "skin"] {
        palace().args([c, "--help"]).assert().success().stdout(predicate::str::contains("Usage"));
    }
}

/// Ctrl-C stops a sweep with exit code 130 and leaves no output file: in statistics (the
/// workers watch for it, there is no consumer) and in a render (the consumer watches).
#[cfg(unix)]
#[test]
fn ctrl_c_stops_with_130_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.png");
    let runs: [Vec<&str>; 2] = [
        vec!["stats", "--k", "40003", "--size", "400000"],
        vec!["render", "--k", "40003", "--size", "200000", "--quiet", "-o", out.to_str().unwrap()],
    ];
    for args in runs {
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("palace"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Long enough for the handler to be installed and the sweep to start; these boards
        // take many seconds. The shell's own `kill`, so the test needs no procps.
        std::thread::sleep(std::time::Duration::from_millis(700));
        let sent = std::process::Command::new("sh")
            .args(["-c", &format!("kill -INT {}", child.id())])
            .status()
            .unwrap();
        assert!(sent.success());
        let done = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(130), "{args:?}: {stderr}");
        assert!(stderr.contains("interrupted"), "{args:?}: {stderr}");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "{args:?} left a file");
    }
}

/// Each bad input: exit 2, a message naming the flag, and no output file.
#[test]
fn bad_inputs_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bad.png");
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["render", "--k", "0", "--size", "10", "-o", o], "--k 0"),
        (vec!["render", "--k", "abc", "--size", "10", "-o", o], "--k"),
        (vec!["render", "--k", "3", "--size", "0", "-o", o], "--size 0"),
        (vec!["render", "--k", "3", "--width", "0", "--height", "4", "-o", o], "--width 0"),
        (vec!["render", "--k", "3", "--size", "10", "--window", "0,0,11,5", "-o", o], "x1 <= 10"),
        (vec!["render", "--k", "3", "--size", "10", "--window", "4,0,4,5", "-o", o], "empty"),
        (vec!["render", "--k", "3", "--size", "10", "--window", "1,2,3", "-o", o], "--window"),
        (vec!["render", "--k", "3", "--size", "10", "--scale", "0", "-o", o], "--scale 0"),
        (vec!["render", "--k", "3", "--size", "10", "-o", "/nonexistent-dir/x.png"], "--output"),
        (vec!["dump", "--k", "3", "--size", "10", "--values", "nope", "-o", o], "--values"),
        (vec!["render", "--k", "3", "--size", "10"], "--output"),
        (vec!["render", "--k", "3", "--size", "10", "--width", "4", "-o", o], "--size"),
        (vec!["render", "--k", "3", "--size", "10", "--zoom", "0", "-o", o], "--zoom 0"),
        (vec!["compare", "--k", "3", "--k2", "6", "--shift=-1,0", "--size", "10", "-o", o], "--shift"),
        (vec!["compare", "--k", "3", "--k2", "0", "--size", "10", "-o", o], "--k2 0"),
        (vec!["regions", "--k", "3", "--size", "10", "--scale", "0", "-o", o], "--scale 0"),
        (vec!["fabric", "--size", "0", "-o", o], "--size 0"),
        (vec!["skin", "--k", "50", "--to", "50", "--plot", o], "--to 50"),
        (vec!["skin", "--k", "50", "--to", "60", "--plot", "/nonexistent-dir/p.png"], "--plot"),
        (vec!["bench", "--repeat", "0"], "--repeat 0"),
    ];
    for (args, needle) in cases {
        palace().args(&args).assert().code(2).stderr(predicate::str::contains(needle));
        assert!(!out.exists(), "{args:?} left a file");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{args:?} left a temporary file");
    }
    assert!(!Path::new("/nonexistent-dir/x.png").exists());
}

/// `stats --palaces-only` counts what the direct definition counts, on square and oblong
/// boards and every kernel; with a window it is refused, naming the flag.
#[test]
fn stats_palaces_only_counts_the_palaces() {
    for (k, w, h) in [(1u32, 50u32, 50u32), (37, 300, 200), (200, 700, 650)] {
        let want =
            direct_window(k, Window::new(0, 0, w, h).unwrap()).iter().filter(|&&v| v < 0).count() as u64;
        for kernel in ["auto", "wide", "portable"] {
            let out = palace()
                .args(["stats", "--palaces-only", "--json", "-q", "--kernel", kernel, "--k", &k.to_string()])
                .args(["--width", &w.to_string(), "--height", &h.to_string()])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["palaces"]["palaces"], want, "k={k} {w}x{h} {kernel}");
            assert_eq!(v["palaces"]["cells"], u64::from(w) * u64::from(h));
        }
    }
    palace()
        .args(["stats", "--palaces-only", "--k", "9", "--size", "100", "--window", "1,1,5,5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--palaces-only").and(predicate::str::contains("--window")));
}

/// Clap's own errors (an unknown flag, a missing or malformed value) carry the program's
/// prefix `palace: error:` like every other error, keep clap's usage and tip lines, and exit
/// 2; `--help` and `--version` go to stdout and exit 0.
#[test]
fn clap_errors_have_the_program_prefix() {
    for args in [
        vec!["render", "--bogus"],
        vec!["stats", "--k", "5"],
        vec!["stats", "--k", "x", "--size", "10"],
        vec!["no-such-command"],
    ] {
        let out = palace().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("palace: error:"), "{args:?}: {stderr}");
        assert!(stderr.contains("Usage:") || stderr.contains("For more information"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in [vec!["--help"], vec!["--version"], vec!["render", "--help"]] {
        let out = palace().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
    }
}

/// A request whose memory would exceed the machine's is refused before anything is
/// allocated: at once, exit 2, with the figure it would need and the machine's (each needs
/// from 480 GiB, `regions` 2^30 columns wide, to terabytes: more than any machine here has).
#[cfg(target_os = "linux")]
#[test]
fn requests_beyond_the_machines_memory_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("x.npy");
    let runs: [Vec<&str>; 4] = [
        vec!["regions", "--k", "9999", "--width", "1073741824", "--height", "2000"],
        vec!["skin", "--k", "9999", "--to", "1073741824", "--pattern", "--threads", "1024"],
        vec!["threads", "--k", "9999", "--width", "1073741824", "--height", "2000"],
        vec!["dump", "--k", "9999", "--width", "1073741824", "--height", "64", "-o", npy.to_str().unwrap()],
    ];
    for args in runs {
        let started = std::time::Instant::now();
        let out = palace().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("GiB of memory") && stderr.contains("available on this machine"),
            "{args:?}: {stderr}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    assert!(!npy.exists());
}

/// Games 1 and 2 have no arm: `skin` refuses them as a usage error naming the smallest k, and
/// `survey` over them leaves their skin columns empty instead of failing.
#[test]
fn skin_needs_k_3_and_survey_skips_it_below() {
    for k in ["1", "2"] {
        palace().args(["skin", "--k", k, "--to", "100"]).assert().code(2).stderr(
            predicate::str::contains(format!("--k {k}")).and(predicate::str::contains("--k 3 or more")),
        );
    }
    let out = palace().args(["survey", "--k", "1..3", "--size-factor", "3"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no skin"), "{stderr}");
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[0].starts_with("1,") && rows[0].ends_with(",,,0"), "{csv}");
    assert!(rows[1].starts_with("2,") && rows[1].ends_with(",,,0"), "{csv}");
    assert!(!rows[2].ends_with(",,,0"), "k = 3's skin is followed: {csv}");
}
