//! The games lab stops on the first signal: SIGINT, SIGTERM and SIGHUP, sent once to a long
//! `palace game` run, end it within a second with the documented exit code (128 + the signal's
//! number) and leave no output file and no temporary file behind.
//!
//! The signal is sent once the run has reached a condition, not after a delay: its temporary
//! output file (`.NAME.*.tmp`, opened before any computing) exists. The run is one that takes
//! far longer than that on any machine: every position of value up to 2000 on the black-hole
//! board F_4, some 2 * 10^8 positions, solved one by one.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::common::{kill, listing, spawn};

/// Waits until `dir` holds the temporary file of the output `name` (the run has opened its
/// output and is computing), or the run ends; whether the file appeared.
fn wait_for_temporary(child: &mut Child, dir: &Path, name: &str) -> bool {
    let prefix = format!(".{name}.");
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if listing(dir).iter().any(|f| f.starts_with(&prefix) && f.ends_with(".tmp")) {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// Sends `signal` once to a long `palace game` run with an output file, once the run is
/// computing; checks the exit code, the time to stop and that the folder is empty.
fn stops_on(signal: &str, code: i32) {
    let dir = tempfile::tempdir().unwrap();
    let args = ["game", "zeckendorf", "--hole", "4", "--positions", "--max-value", "2000", "-o", "p.png"];
    let mut child = spawn(&args, dir.path());
    assert!(
        wait_for_temporary(&mut child, dir.path(), "p.png"),
        "SIG{signal}: the run ended or never opened its output: {:?}",
        listing(dir.path())
    );
    let sent = Instant::now();
    assert!(kill(&child, signal), "the signal was not delivered");
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "SIG{signal}: {err}");
    assert!(took < Duration::from_secs(1), "SIG{signal}: stopped after {took:?}");
    assert!(err.contains("interrupted; no output was written"), "SIG{signal}: {err}");
    assert!(listing(dir.path()).is_empty(), "SIG{signal} left {:?}", listing(dir.path()));
}

#[test]
fn sigint_stops_a_game_at_once_with_130_and_nothing_left() {
    stops_on("INT", 130);
}

#[test]
fn sigterm_stops_a_game_at_once_with_143_and_nothing_left() {
    stops_on("TERM", 143);
}

#[test]
fn sighup_stops_a_game_at_once_with_129_and_nothing_left() {
    stops_on("HUP", 129);
}

/// A game whose picture goes to a FIFO that nobody reads still stops on the first signal: the
/// output is opened without blocking, looking at the cancel token while it waits for a reader.
/// The signal is sent once the signal thread is listening.
#[test]
fn a_game_writing_to_a_fifo_without_a_reader_stops_on_the_first_signal() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Command::new("mkfifo").arg(dir.path().join("f.png")).status().unwrap().success());
    let mut child = spawn(&["game", "fraenkel-array", "--rows", "10", "--plot", "f.png"], dir.path());
    let task = PathBuf::from(format!("/proc/{}/task", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let listening = std::fs::read_dir(&task).is_ok_and(|d| {
            d.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok())
                .any(|n| n.starts_with("palace-signals"))
        });
        if listening {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
        assert!(Instant::now() < deadline, "the signal thread never started");
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Instant::now();
    assert!(kill(&child, "TERM"), "the signal was not delivered");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(sent.elapsed() < Duration::from_secs(1), "stopped after {:?}", sent.elapsed());
    assert_eq!(listing(dir.path()), ["f.png"], "only the FIFO is left");
}
