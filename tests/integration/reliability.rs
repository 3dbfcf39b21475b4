//! End-to-end reliability of the `palace` binary: what it does to every kind of output path,
//! how it stops on each signal, that every request has a bound, and that its messages name
//! the flag actually given and the fix.
//!
//! The binary under test is the one cargo builds, or the one named by the environment
//! variable `PALACE_TEST_BIN` (to run these tests against another build).

#![cfg(unix)]

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{bin, kill, listing, spawn};

/// Runs `palace args` in the system's temporary folder, so that nothing it might write by
/// mistake lands in the source tree.
fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .expect("palace runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// `-o FIFO` writes the picture into the pipe and leaves the FIFO a FIFO.
#[test]
fn output_to_a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.png");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            std::fs::File::open(&fifo).unwrap().read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = reader.join().unwrap();
    assert!(is_png(&bytes), "the reader got a PNG");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert_eq!(listing(dir.path()), ["pipe.png"], "no temporary file");
}

/// `-o LINK` follows the link: the target gets the picture, the link stays a link.
#[test]
fn output_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.png");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.path().join("link.png");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(is_png(&std::fs::read(&target).unwrap()), "the target holds the picture");
}

/// `-o` a device node writes into the device and leaves it a device. The node is made with
/// `mknod` in a temporary folder (never the system's own `/dev/null`), which needs root.
#[test]
fn output_to_a_device_node_is_written_in_place() {
    if unsafe_is_root() {
        let dir = tempfile::tempdir().unwrap();
        let null = dir.path().join("null");
        let made = Command::new("mknod").arg(&null).args(["c", "1", "3"]).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mknod failed (a container without device nodes?)");
            return;
        }
        let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", null.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(std::fs::symlink_metadata(&null).unwrap().file_type().is_char_device(), "still a device");
        assert_eq!(listing(dir.path()), ["null"]);
    } else {
        eprintln!("skipped: making a device node with mknod needs root");
    }
}

/// Whether the tests run as root (from `id -u`, so no libc binding is needed).
fn unsafe_is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// An existing mode-600 file is replaced by the picture and keeps mode 600.
#[test]
fn an_existing_file_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("private.png");
    std::fs::write(&p, b"old").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(is_png(&std::fs::read(&p).unwrap()));
    assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
}

/// `-o -` writes to standard output.
#[test]
fn dash_writes_to_standard_output() {
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(is_png(&o.stdout));
}

/// Waits until `ready()` holds, while `child` runs: the tests stop a run at a point it has
/// reached (a temporary output or a checkpoint written, bytes read from its pipe), never after
/// a fixed time, which a fast machine outruns and a slow one never reaches. Fails if the run
/// ends first or nothing happens for five minutes.
fn wait_until(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let t = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before {what}");
        }
        assert!(t.elapsed() < Duration::from_secs(300), "waited five minutes for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Whether `dir` holds a temporary output file or folder (`.NAME.XXXXXX.tmp`).
fn has_temporary(dir: &Path) -> bool {
    listing(dir).iter().any(|n| n.starts_with('.') && n.ends_with(".tmp"))
}

/// Starts `palace args` in `cwd`, waits until `ready()` holds, sends `signal` and returns the
/// output and how long it took to stop after the signal.
fn signal_when(
    args: &[&str],
    cwd: &Path,
    what: &str,
    ready: impl Fn() -> bool,
    signal: &str,
) -> (Output, Duration) {
    let mut child = spawn(args, cwd);
    wait_until(&mut child, what, ready);
    let sent = Instant::now();
    assert!(kill(&child, signal));
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed())
}

/// SIGINT, SIGTERM and SIGHUP each stop a large render within a second, exit 128 + the
/// signal's number, remove the temporary file, and leave the earlier file at the output path
/// untouched.
#[test]
fn each_signal_stops_a_render_and_leaves_the_old_file() {
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("big.png");
        std::fs::write(&out, b"the earlier picture").unwrap();
        let args =
            ["render", "--k", "9999", "--size", "200000", "--scale", "2", "-q", "-o", out.to_str().unwrap()];
        let (o, took) =
            signal_when(&args, dir.path(), "the temporary file", || has_temporary(dir.path()), signal);
        assert_eq!(o.status.code(), Some(128 + number), "SIG{signal}: {}", stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "SIG{signal}: {}", stderr(&o));
        assert!(took < Duration::from_secs(3), "SIG{signal}: took {took:?} to stop");
        assert_eq!(listing(dir.path()), ["big.png"], "SIG{signal}: only the earlier file is left");
        assert_eq!(std::fs::read(&out).unwrap(), b"the earlier picture", "SIG{signal}: untouched");
    }
}

/// A dump a million columns wide stops soon after Ctrl-C, even into a slow reader: it is
/// written into a FIFO read at about 64 MB/s, where one band of 128 rows (512 MB) would take
/// eight seconds and one row (4 MB) takes a sixteenth of a second.
#[test]
fn a_wide_dump_stops_soon_after_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("slow.npy");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let got = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let reader = {
        let (fifo, got) = (fifo.clone(), got.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::File::open(&fifo).unwrap();
            let mut buf = vec![0u8; 1 << 16];
            while let Ok(n @ 1..) = f.read(&mut buf) {
                got.fetch_add(n as u64, std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let args =
        ["dump", "--k", "5", "--width", "1000000", "--height", "60000", "-q", "-o", fifo.to_str().unwrap()];
    // Stopped once the rows are flowing: more than the header and the first rows read.
    let flowing = || got.load(std::sync::atomic::Ordering::SeqCst) > 16 << 20;
    let (o, took) = signal_when(&args, dir.path(), "16 MiB read from the pipe", flowing, "INT");
    reader.join().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(took < Duration::from_secs(2), "took {took:?} to stop");
}

/// Every request has a bound, checked before any work, named with the largest value.
#[test]
fn unbounded_requests_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("x.png");
    let o = o.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (
            vec!["render", "--k", "5", "--size", "100", "--zoom", "10000", "-o", o],
            &["--zoom 10000", "1..=256"],
        ),
        (vec!["render", "--k", "5", "--size", "5000", "--zoom", "256", "-o", o], &["pixels", "--zoom"]),
        (vec!["render", "--k", "5", "--size", "2000000", "-o", o], &["--scale 2"]),
        (vec!["check", "--wythoff-size", "4000000000"], &["--wythoff-size", "20000"]),
        (vec!["bench", "--size", "1000000"], &["--size 1000000", "100000"]),
        (
            vec!["compare", "--k", "5", "--k2", "8", "--size", "10", "--shift", "4000000000,0"],
            &["--shift", "2^30"],
        ),
        (vec!["skin", "--k", "5", "--to", "4000000000"], &["--to", "1073741824"]),
        (vec!["stats", "--k", "5", "--size", "10", "--threads", "5000"], &["--threads 5000", "1024"]),
    ];
    for (args, needles) in cases {
        let t = Instant::now();
        let out = run(&args);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        for n in needles {
            assert!(e.contains(n), "{args:?}: {e:?} lacks {n:?}");
        }
        assert!(t.elapsed() < Duration::from_secs(5), "{args:?} was refused only after {:?}", t.elapsed());
        assert!(listing(dir.path()).is_empty(), "{args:?} left a file");
    }
}

/// `render --scale` bounds the picture, not the board: a 2,000,000-wide board drawn at scale
/// 100 is accepted (and stopped here with Ctrl-C, since it is a long run).
#[test]
fn a_huge_board_at_a_coarse_scale_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("coarse.png");
    let args =
        ["render", "--k", "9999", "--size", "2000000", "--scale", "100", "-q", "-o", out.to_str().unwrap()];
    let (o, _) = signal_when(&args, dir.path(), "the temporary file", || has_temporary(dir.path()), "INT");
    assert_eq!(o.status.code(), Some(130), "accepted and running until interrupted: {}", stderr(&o));
    assert!(listing(dir.path()).is_empty());
}

/// The messages name the flag actually given and the fix.
#[test]
fn messages_name_the_flag_given() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("x.png");
    let o = o.to_str().unwrap();
    let newdir = format!("{}/newdir/", dir.path().display());
    let cases: Vec<(Vec<&str>, &[&str], &[&str])> = vec![
        (
            vec!["render", "--k", "-3", "--size", "10", "-o", o],
            &["--k", "at least 1"],
            &["unexpected argument"],
        ),
        (vec!["stats", "--k", "5", "--size", "10000000000"], &["--size", "1073741824"], &["4294967295"]),
        (vec!["stats", "--k", "5", "--width", "10"], &["--height"], &["--size"]),
        (vec!["dump", "--k", "5", "--size", "300000", "-o", o], &["--size 300000"], &["--window 0,0"]),
        (vec!["render", "--k", "5", "--size", "10", "-o", &newdir], &["names a folder"], &[]),
        (vec!["bench", "--png-dir", "/missing-palace-dir"], &["--png-dir /missing-palace-dir"], &[]),
    ];
    for (args, want, not) in cases {
        let t = Instant::now();
        let out = run(&args);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        for n in want {
            assert!(e.contains(n), "{args:?}: {e:?} lacks {n:?}");
        }
        for n in not {
            assert!(!e.contains(n), "{args:?}: {e:?} has {n:?}");
        }
        assert!(t.elapsed() < Duration::from_secs(5), "{args:?} failed only after {:?}", t.elapsed());
    }
    assert!(listing(dir.path()).is_empty());
}

/// A legal 251-character file name is written; a name whose extension promises another
/// format is written with a warning.
#[test]
fn long_names_work_and_wrong_extensions_warn() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join(format!("{}.png", "a".repeat(247)));
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", long.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(long.exists());
    let jpg = dir.path().join("x.jpg");
    let o = run(&["render", "--k", "5", "--size", "10", "-q", "-o", jpg.to_str().unwrap()]);
    assert!(
        o.status.success() && stderr(&o).contains("warning") && stderr(&o).contains(".png"),
        "{}",
        stderr(&o)
    );
    let npy = dir.path().join("x.png");
    let o = run(&["dump", "--k", "5", "--size", "10", "-q", "-o", npy.to_str().unwrap()]);
    assert!(
        o.status.success() && stderr(&o).contains("warning") && stderr(&o).contains(".npy"),
        "{}",
        stderr(&o)
    );
}

/// More threads than cores: a warning that says so.
#[test]
fn too_many_threads_warns() {
    let o = run(&["stats", "--k", "5", "--size", "50", "--threads", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: --threads 1000 is more than the"), "{}", stderr(&o));
}

mod random_arguments {
    use super::*;
    use proptest::prelude::*;

    const COMMANDS: &[&str] =
        &["render", "dump", "stats", "compare", "regions", "fabric", "skin", "check", "bench"];
    const FLAGS: &[&str] = &[
        "--k",
        "--k2",
        "--size",
        "--width",
        "--height",
        "--window",
        "--scale",
        "--zoom",
        "--threads",
        "--to",
        "--shift",
        "--offset",
        "--max-k",
        "--max-size",
        "--wythoff-size",
        "--repeat",
        "-o",
        "--csv",
        "--plot",
        "--kernel",
        "--palette",
        "--aggregate",
        "--values",
    ];
    const VALUES: &[&str] = &[
        "0",
        "1",
        "3",
        "7",
        "40",
        "-1",
        "-3",
        "256",
        "257",
        "1024",
        "1025",
        "1073741824",
        "1073741825",
        "4294967295",
        "4294967296",
        "10000000000",
        "",
        "0,0,5,5",
        "1,2,3",
        "2,2,1,1",
        "4000000000,0",
        "auto",
        "avx512",
        "nope",
        "min",
        "values",
        "palace",
        "-",
        "out.png",
        "out.npy",
        "out.csv",
        "sub/",
        "/missing/x.png",
    ];

    fn argv() -> impl Strategy<Value = Vec<String>> {
        let long = "x".repeat(300);
        (
            proptest::sample::select(COMMANDS),
            proptest::collection::vec(
                (
                    proptest::sample::select(FLAGS),
                    prop_oneof![proptest::sample::select(VALUES).prop_map(String::from), Just(long)],
                ),
                0..7,
            ),
            any::<bool>(),
        )
            .prop_map(|(cmd, pairs, quiet)| {
                let mut v = vec![cmd.to_string()];
                for (f, val) in pairs {
                    v.push(f.to_string());
                    v.push(val);
                }
                if quiet {
                    v.push("-q".into());
                }
                v
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any argument vector: exit 0, 1 or 2 (or 143 when stopped by SIGTERM after three
        /// seconds, for the valid requests that take long), never a panic, and a failed or
        /// stopped run leaves no file behind.
        #[test]
        fn exits_cleanly_and_leaves_nothing_on_failure(args in argv()) {
            let dir = tempfile::tempdir().unwrap();
            let mut child = spawn(&args, dir.path());
            let t = Instant::now();
            while child.try_wait().unwrap().is_none() && t.elapsed() < Duration::from_secs(3) {
                std::thread::sleep(Duration::from_millis(20));
            }
            if child.try_wait().unwrap().is_none() {
                kill(&child, "TERM");
            }
            let out = child.wait_with_output().unwrap();
            let e = stderr(&out);
            let code = out.status.code();
            prop_assert!(matches!(code, Some(0 | 1 | 2 | 143)), "{args:?}: {code:?} {e}");
            prop_assert!(!e.contains("panicked"), "{args:?}: {e}");
            let left = listing(dir.path());
            prop_assert!(left.iter().all(|n| !n.ends_with(".tmp")), "{args:?} left {left:?}");
            if code != Some(0) {
                prop_assert!(left.is_empty(), "{args:?} failed ({code:?}) and left {left:?}");
            }
        }
    }
}

/// `--threads 1` bounds every pool a render uses: one sweep worker and one deflate worker
/// (counted by thread name in /proc while a large picture is being written).
#[cfg(target_os = "linux")]
#[test]
fn threads_bound_the_png_encoder_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.png");
    let mut child = spawn(
        &["render", "--k", "9999", "--size", "100000", "--threads", "1", "-q", "-o", out.to_str().unwrap()],
        dir.path(),
    );
    let task = PathBuf::from(format!("/proc/{}/task", child.id()));
    let most = std::cell::Cell::new((0, 0));
    let look = || {
        let names: Vec<String> = std::fs::read_dir(&task)
            .map(|d| d.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok()).collect())
            .unwrap_or_default();
        let count = |p: &str| names.iter().filter(|n| n.starts_with(p)).count();
        let (s, d) = most.get();
        most.set((s.max(count("palace-sweep")), d.max(count("palace-deflate"))));
    };
    // Watch until both pools have started (the encoder's once the first rows are done), then
    // a few dozen looks more.
    wait_until(&mut child, "the sweep and the encoder at work", || {
        look();
        most.get().0 > 0 && most.get().1 > 0
    });
    for _ in 0..50 {
        look();
        std::thread::sleep(Duration::from_millis(2));
    }
    let (most_sweep, most_deflate) = most.get();
    kill(&child, "TERM");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143));
    assert_eq!(most_sweep, 1, "sweep workers");
    assert_eq!(most_deflate, 1, "deflate workers");
}

/// Runs `palace args` in `dir`, capturing its output.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin()).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("palace runs")
}

fn palaces_of(o: &Output) -> u64 {
    assert!(o.status.success(), "{}", stderr(o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    v["palaces"]["palaces"].as_u64().expect("a palace count")
}

/// A checkpoint's bytes with its analysis's state (the last `state_len` bytes of the run's
/// state, which ends at the CRC) changed by `change`, under a new, valid CRC: a forged
/// checkpoint.
fn forge(bytes: &[u8], state_len: usize, change: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut b = bytes[..bytes.len() - 4].to_vec();
    let at = b.len() - state_len;
    change(&mut b[at..]);
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

/// A palace count with `--checkpoint`, stopped by SIGINT, SIGTERM or SIGHUP, exits 128 + the
/// signal's number and leaves its checkpoint and no other file; resumed, it ends with the
/// count of an uninterrupted run and removes the checkpoint. A corrupt, truncated or foreign
/// checkpoint is refused with a message that says so.
#[test]
fn a_checkpointed_count_survives_each_signal() {
    let board = ["--k", "40003", "--size", "300000"];
    let count = |extra: &[&str], dir: &Path| {
        let args: Vec<&str> =
            ["stats", "--palaces-only", "--json", "-q"].iter().chain(&board).chain(extra).copied().collect();
        run_in(dir, &args)
    };
    let scratch = tempfile::tempdir().unwrap();
    let want = palaces_of(&count(&[], scratch.path()));
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let dir = tempfile::tempdir().unwrap();
        // A checkpoint after every band, one worker: the first checkpoint comes when a band of
        // some 70 is done, and the signal is sent then.
        let args: Vec<&str> = ["stats", "--palaces-only", "-q", "--checkpoint", "ck.bin", "--every", "0"]
            .iter()
            .chain(&["--threads", "1"])
            .chain(&board)
            .copied()
            .collect();
        let mut child = spawn(&args, dir.path());
        let ck = dir.path().join("ck.bin");
        wait_until(&mut child, "the first checkpoint", || ck.exists());
        assert!(kill(&child, signal));
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(128 + number), "SIG{signal}: {}", stderr(&o));
        assert!(stderr(&o).contains("--resume ck.bin"), "SIG{signal}: {}", stderr(&o));
        assert_eq!(listing(dir.path()), ["ck.bin"], "SIG{signal}: the checkpoint and nothing else");
        let saved = std::fs::read(dir.path().join("ck.bin")).unwrap();
        // Refused: corrupt, truncated, of another game.
        let mut corrupt = saved.clone();
        let mid = corrupt.len() / 2;
        corrupt[mid] ^= 1;
        for (name, bytes) in [("corrupt.bin", &corrupt[..]), ("short.bin", &saved[..saved.len() - 9])] {
            std::fs::write(dir.path().join(name), bytes).unwrap();
            let o = count(&["--resume", name], dir.path());
            assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
            assert!(stderr(&o).contains("corrupt or truncated"), "{name}: {}", stderr(&o));
            std::fs::remove_file(dir.path().join(name)).unwrap();
        }
        // Refused: a count of more palaces than the rows done hold, under a valid checksum.
        let forged = forge(&saved, 8, |state| state.copy_from_slice(&(u64::MAX / 2).to_le_bytes()));
        std::fs::write(dir.path().join("forged.bin"), forged).unwrap();
        let o = count(&["--resume", "forged.bin"], dir.path());
        assert_eq!(o.status.code(), Some(1), "forged: {}", stderr(&o));
        assert!(stderr(&o).contains("impossible"), "forged: {}", stderr(&o));
        std::fs::remove_file(dir.path().join("forged.bin")).unwrap();
        let other: Vec<&str> =
            ["stats", "--palaces-only", "-q", "--resume", "ck.bin", "--k", "40004", "--size", "300000"]
                .to_vec();
        let o = run_in(dir.path(), &other);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("k=40003") && stderr(&o).contains("k=40004"), "{}", stderr(&o));
        // Resumed with further checkpoints: the same count, and the checkpoint is gone.
        let o = count(&["--resume", "ck.bin", "--checkpoint", "ck.bin"], dir.path());
        assert_eq!(palaces_of(&o), want, "SIG{signal}: resumed");
        assert!(listing(dir.path()).is_empty(), "SIG{signal}: {:?}", listing(dir.path()));
    }
}

/// The full statistics with `--checkpoint`: saved after every band, or stopped by SIGTERM and
/// resumed, they equal the uninterrupted run's; a checkpoint of another window is refused.
#[test]
fn checkpointed_statistics_equal_uninterrupted_ones() {
    let board = ["--k", "9999", "--size", "60000", "--window", "100,50,59000,60000"];
    let stats_of = |o: &Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["stats"].take()
    };
    let dir = tempfile::tempdir().unwrap();
    let run_here = |extra: &[&str]| {
        let args: Vec<&str> = ["stats", "--json", "-q"].iter().chain(&board).chain(extra).copied().collect();
        run_in(dir.path(), &args)
    };
    let want = stats_of(&run_here(&[]));
    assert_eq!(
        stats_of(&run_here(&["--checkpoint", "ck.bin", "--every", "0"])),
        want,
        "saved after every band"
    );
    assert!(listing(dir.path()).is_empty());
    // Saved after every band by one worker, and stopped when the first checkpoint appears,
    // with most of the board still to do.
    let args: Vec<&str> = ["stats", "-q", "--checkpoint", "ck.bin", "--every", "0", "--threads", "1"]
        .iter()
        .chain(&board)
        .copied()
        .collect();
    let mut child = spawn(&args, dir.path());
    let ck = dir.path().join("ck.bin");
    wait_until(&mut child, "the first checkpoint", || ck.exists());
    assert!(kill(&child, "TERM"));
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert_eq!(listing(dir.path()), ["ck.bin"]);
    // A forged state (one cell of v = 0 more than the rows done hold) is refused.
    let saved = std::fs::read(dir.path().join("ck.bin")).unwrap();
    // The statistics' state: k, the histogram (after its length), the two parts.
    let state_len = 4 + 8 + 256 * 8 + 2 * (16 + 2 * 25);
    let v0 = 4 + 8 + 128 * 8;
    let forged = forge(&saved, state_len, |state| state[v0] = state[v0].wrapping_add(1));
    std::fs::write(dir.path().join("forged.bin"), forged).unwrap();
    let o = run_here(&["--resume", "forged.bin"]);
    assert_eq!(o.status.code(), Some(1), "forged: {}", stderr(&o));
    assert!(stderr(&o).contains("impossible"), "forged: {}", stderr(&o));
    std::fs::remove_file(dir.path().join("forged.bin")).unwrap();
    let other = run_in(dir.path(), &["stats", "-q", "--resume", "ck.bin", "--k", "9999", "--size", "60000"]);
    assert_eq!(other.status.code(), Some(2), "another window: {}", stderr(&other));
    assert_eq!(stats_of(&run_here(&["--resume", "ck.bin"])), want, "resumed");
}

/// The skin with `--checkpoint`: stopped by SIGTERM, it leaves its checkpoint and no other
/// file (no CSV or plot yet); resumed, its report, CSV and plot are byte-identical to an
/// uninterrupted run's, and the checkpoint is gone. A truncated checkpoint, one of another
/// target and one of another command are refused.
#[test]
fn a_checkpointed_skin_resumes_to_identical_outputs() {
    let skin = ["skin", "--k", "40003", "--to", "640003", "--csv", "s.csv", "--plot", "s.png"];
    let with = |extra: &[&str]| -> Vec<String> { skin.iter().chain(extra).map(|s| s.to_string()).collect() };
    let whole = tempfile::tempdir().unwrap();
    let want = run_in(
        whole.path(),
        &["skin", "--k", "40003", "--to", "640003", "--csv", "s.csv", "--plot", "s.png"],
    );
    assert!(want.status.success(), "{}", stderr(&want));
    let read = |dir: &Path, name: &str| std::fs::read(dir.join(name)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut child =
        spawn(&with(&["-q", "--checkpoint", "ck.bin", "--every", "0", "--threads", "1"]), dir.path());
    let ck = dir.path().join("ck.bin");
    wait_until(&mut child, "the first checkpoint", || ck.exists());
    assert!(kill(&child, "TERM"));
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume ck.bin"), "{}", stderr(&o));
    assert_eq!(listing(dir.path()), ["ck.bin"], "the checkpoint and nothing else");
    let saved = read(dir.path(), "ck.bin");
    std::fs::write(dir.path().join("short.bin"), &saved[..saved.len() - 5]).unwrap();
    let refused = |args: &[&str], code: i32, says: &str| {
        let o = run_in(dir.path(), args);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    };
    refused(
        &["skin", "-q", "--k", "40003", "--to", "640003", "--resume", "short.bin"],
        1,
        "corrupt or truncated",
    );
    std::fs::remove_file(dir.path().join("short.bin")).unwrap();
    // A forged state: more cells needed (the fifth number) than the rows read hold, under a
    // valid checksum.
    let state_len = {
        // The skin's state runs from after the frontier to the CRC, and starts with k and --to.
        let end = saved.len() - 4;
        let head: Vec<u8> = [40003u64, 640003].iter().flat_map(|v| v.to_le_bytes()).collect();
        (16..end).find(|&n| saved[end - n..].starts_with(&head)).expect("the skin's state")
    };
    let forged = forge(&saved, state_len, |state| state[32..40].copy_from_slice(&(1u64 << 60).to_le_bytes()));
    std::fs::write(dir.path().join("forged.bin"), forged).unwrap();
    refused(&["skin", "-q", "--k", "40003", "--to", "640003", "--resume", "forged.bin"], 1, "impossible");
    std::fs::remove_file(dir.path().join("forged.bin")).unwrap();
    refused(&["skin", "-q", "--k", "40003", "--to", "640004", "--resume", "ck.bin"], 2, "to=640003");
    refused(
        &["stats", "--palaces-only", "-q", "--k", "40003", "--size", "640003", "--resume", "ck.bin"],
        2,
        "skin",
    );
    let args = with(&["--resume", "ck.bin", "--checkpoint", "ck.bin", "--every", "0"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run_in(dir.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, want.stdout, "the report");
    for name in ["s.csv", "s.png"] {
        assert!(
            read(dir.path(), name) == read(whole.path(), name),
            "{name} differs from the uninterrupted run's"
        );
    }
    assert_eq!(listing(dir.path()), ["s.csv", "s.png"]);
}

/// `--checkpoint FILE` names a file the run replaces as it saves and removes when it finishes:
/// anything already there that is not the checkpoint the run resumes from (a file of the
/// user's, a checkpoint not resumed, a link, a folder, a FIFO) is refused before any work
/// (exit 2, naming the flag) and left as it was; a run that never saved removes nothing.
#[test]
fn a_checkpoint_path_that_holds_something_else_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("notes.txt"), b"my notes").unwrap();
    std::fs::write(d.join("old.ckpt"), b"palace checkpoint\nof some earlier run").unwrap();
    std::os::unix::fs::symlink("nowhere", d.join("dangling")).unwrap();
    std::os::unix::fs::symlink("notes.txt", d.join("link")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let before = listing(d);
    let cases = [
        ("notes.txt", "not a palace checkpoint"),
        ("old.ckpt", "--resume old.ckpt"),
        ("dangling", "symbolic link"),
        ("link", "symbolic link"),
        ("sub", "is a folder"),
        ("sub/", "names a folder"),
        ("fifo", "not a regular file"),
    ];
    // Boards that would take long: refused at once.
    let commands: [&[&str]; 3] = [
        &["stats", "--k", "9999", "--size", "400000"],
        &["stats", "--palaces-only", "--k", "9999", "--size", "400000"],
        &["skin", "--k", "9999", "--to", "100000000"],
    ];
    for (name, says) in cases {
        for cmd in commands {
            let args: Vec<&str> = cmd.iter().copied().chain(["-q", "--checkpoint", name]).collect();
            let t = Instant::now();
            let o = run_in(d, &args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.contains(&format!("--checkpoint {name}")) && e.contains(says), "{args:?}: {e}");
            assert!(t.elapsed() < Duration::from_secs(5), "{args:?}: refused after {:?}", t.elapsed());
        }
    }
    // A run that finishes before its first save leaves nothing and removes nothing.
    let o = run_in(d, &["stats", "--k", "5", "--size", "10", "-q", "--checkpoint", "new.ckpt"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(d), before, "everything as it was");
    assert_eq!(std::fs::read(d.join("notes.txt")).unwrap(), b"my notes");
}

/// `--resume FILE` where no file is to be read (nothing there, a folder, a FIFO) is a usage
/// error (exit 2) that says what `--resume` takes, before any work.
#[test]
fn a_resume_path_without_a_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let commands: [&[&str]; 3] = [
        &["stats", "--k", "9999", "--size", "400000"],
        &["stats", "--palaces-only", "--k", "9999", "--size", "400000"],
        &["skin", "--k", "9999", "--to", "100000000"],
    ];
    for (name, says) in [
        ("nosuch.ckpt", "no such file"),
        ("sub", "is a folder"),
        (".", "is a folder"),
        ("fifo", "is not a regular file"),
    ] {
        for cmd in commands {
            let args: Vec<&str> = cmd.iter().copied().chain(["-q", "--resume", name]).collect();
            let o = run_in(d, &args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.contains(&format!("--resume {name}: {says}")), "{args:?}: {e}");
            assert!(e.contains("--checkpoint FILE saved"), "{args:?}: {e}");
        }
    }
}

/// Two outputs of one run never share a destination: two flags naming one file (also through
/// another spelling or a link), `-` where the report goes to standard output too, `tiles -o -`
/// and a checkpoint on standard output are refused before any work (exit 2, naming the flags),
/// and nothing is written.
#[test]
fn two_outputs_of_one_run_never_share_a_destination() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("a.csv", d.join("link.png")).unwrap();
    let skin = ["skin", "--k", "50", "--to", "400", "-q"];
    let threads = ["threads", "--k", "50", "--size", "100", "-q"];
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        ([&skin[..], &["--csv", "a.csv", "--plot", "a.csv"]].concat(), &["--csv", "--plot", "a.csv"]),
        ([&skin[..], &["--csv", "a.csv", "--plot", "./a.csv"]].concat(), &["the same file"]),
        (
            [&skin[..], &["--csv", "a.csv", "--plot", "link.png"]].concat(),
            &["--plot link.png", "the same file"],
        ),
        ([&skin[..], &["--csv", "-", "--json"]].concat(), &["--csv -", "standard output"]),
        ([&skin[..], &["--csv", "ck", "--checkpoint", "ck"]].concat(), &["--csv", "--checkpoint"]),
        ([&threads[..], &["-o", "-"]].concat(), &["--output -", "standard output"]),
        ([&threads[..], &["-o", "t.csv", "--csv", "t.csv"]].concat(), &["--csv", "--output"]),
        (vec!["regions", "--k", "50", "--size", "100", "-o", "-"], &["--output -"]),
        (vec!["survey", "--k", "5..6", "-o", "s.csv", "--plot", "s.csv"], &["--output", "--plot"]),
        (vec!["tiles", "--k", "50", "--size", "100", "-o", "-"], &["--output -", "folder"]),
        (vec!["stats", "--k", "50", "--size", "100", "--checkpoint", "-"], &["--checkpoint -"]),
    ];
    for (args, needles) in cases {
        let o = Command::new(bin()).args(&args).current_dir(d).stdin(Stdio::null()).output().unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        for n in needles {
            assert!(e.contains(n), "{args:?}: {e:?} lacks {n:?}");
        }
        assert!(o.stdout.is_empty(), "{args:?} wrote to standard output");
        assert_eq!(listing(d), ["link.png"], "{args:?} wrote a file");
    }
}

/// The first SIGINT, SIGTERM or SIGHUP stops a command of each family, the engine's (render,
/// dump) and the analyses (regions, skin, threads), within a second of the signal, with exit
/// code 128 + its number, the message, and nothing left behind. Each run is long on any
/// machine and is signalled once it has made its temporary output; the checkpointed commands
/// (stats, skin) have their own tests above.
#[test]
fn the_first_signal_stops_each_command_family() {
    let runs: [(&str, &[&str]); 5] = [
        ("render", &["render", "--k", "9999", "--size", "200000", "--scale", "2", "-o", "out.png"]),
        ("dump", &["dump", "--k", "5", "--width", "1000000", "--height", "60000", "-o", "out.npy"]),
        ("regions", &["regions", "--k", "9999", "--size", "100000", "-o", "out.png"]),
        ("skin", &["skin", "--k", "40003", "--to", "20040003", "--csv", "out.csv"]),
        ("threads", &["threads", "--k", "9999", "--size", "100000", "-o", "out.png"]),
    ];
    for (name, args) in runs {
        for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
            let dir = tempfile::tempdir().unwrap();
            let args: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
            let (o, took) =
                signal_when(&args, dir.path(), "the temporary output", || has_temporary(dir.path()), signal);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(128 + number), "{name}, SIG{signal}: {e}");
            assert!(e.contains("interrupted"), "{name}, SIG{signal}: {e}");
            assert!(took < Duration::from_secs(1), "{name}, SIG{signal}: took {took:?} to stop");
            assert!(listing(dir.path()).is_empty(), "{name}, SIG{signal} left {:?}", listing(dir.path()));
        }
    }
}

/// Two signals in quick succession end the run at once, and its temporary file goes too.
#[test]
fn a_second_signal_ends_the_run_at_once_and_leaves_nothing() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["render", "--k", "9999", "--size", "200000", "--scale", "2", "-q", "-o", "out.png"];
        let mut child = spawn(&args, dir.path());
        wait_until(&mut child, "the temporary output", || has_temporary(dir.path()));
        let twice = format!("kill -{signal} {0}; kill -{signal} {0}", child.id());
        assert!(Command::new("sh").args(["-c", &twice]).status().unwrap().success());
        let o = child.wait_with_output().unwrap();
        assert!(o.status.code().is_some_and(|c| c > 128), "SIG{signal}: {:?} {}", o.status, stderr(&o));
        assert!(listing(dir.path()).is_empty(), "SIG{signal} left {:?}", listing(dir.path()));
    }
}

/// A run whose output folder is renamed while it writes still removes its temporary file
/// when stopped.
#[test]
fn the_temporary_file_goes_even_if_its_folder_was_renamed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("pictures")).unwrap();
    let args = ["render", "--k", "9999", "--size", "200000", "--scale", "2", "-q", "-o", "pictures/out.png"];
    let mut child = spawn(&args, dir.path());
    let inside = dir.path().join("pictures");
    wait_until(&mut child, "the temporary output", || has_temporary(&inside));
    std::fs::rename(&inside, dir.path().join("moved")).unwrap();
    assert!(kill(&child, "TERM"));
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert!(listing(&dir.path().join("moved")).is_empty(), "left {:?}", listing(&dir.path().join("moved")));
}

/// An output that is a FIFO no one reads does not make the run deaf: the first signal stops
/// it while it waits for a reader (signalled once its signal thread runs).
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_without_a_reader_does_not_block_the_first_signal() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f.png");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut child = spawn(&["render", "--k", "5", "--size", "10", "-q", "-o", "f.png"], dir.path());
    let task = PathBuf::from(format!("/proc/{}/task", child.id()));
    let listening = || {
        std::fs::read_dir(&task).is_ok_and(|d| {
            d.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok())
                .any(|n| n.starts_with("palace-signals"))
        })
    };
    wait_until(&mut child, "the signal thread", listening);
    let sent = Instant::now();
    assert!(kill(&child, "TERM"));
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert!(sent.elapsed() < Duration::from_secs(1), "took {:?}", sent.elapsed());
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
}

/// Whether `dir` holds a temporary output for `name` (`.NAME.XXXXXX.tmp`) with something in it.
fn has_written_temporary(dir: &Path, name: &str) -> bool {
    listing(dir).iter().any(|n| {
        n.starts_with(&format!(".{name}."))
            && n.ends_with(".tmp")
            && std::fs::metadata(dir.join(n)).is_ok_and(|m| m.len() > 0)
    })
}

/// `palace threads` and `palace beams` heed the first signal after their sweep too: each writes
/// its CSV once the sweep is over, then measures what it traced (seconds on this window) and
/// only then commits its outputs. Signalled once the CSV has bytes, each stops within a second,
/// with nothing left.
#[test]
fn threads_and_beams_stop_soon_after_a_signal_while_measuring() {
    let runs: [&[&str]; 2] = [
        &["threads", "--k", "9999", "--size", "20000"],
        &["beams", "--k", "9999", "--size", "20000", "--scale", "2"],
    ];
    for run in runs {
        let dir = tempfile::tempdir().unwrap();
        let args: Vec<&str> =
            run.iter().copied().chain(["-q", "-o", "out.png", "--csv", "out.csv"]).collect();
        let written = || has_written_temporary(dir.path(), "out.csv");
        let (o, took) = signal_when(&args, dir.path(), "the CSV written", written, "INT");
        assert_eq!(o.status.code(), Some(130), "{}: {}", run[0], stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "{}: {}", run[0], stderr(&o));
        assert!(took < Duration::from_secs(1), "{}: took {took:?} to stop", run[0]);
        assert!(listing(dir.path()).is_empty(), "{} left {:?}", run[0], listing(dir.path()));
    }
}
