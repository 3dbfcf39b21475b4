//! `palace bench --series T1,T2,... -- COMMAND ARGS`: how one command scales with its worker
//! threads. The command runs as a child process of this binary with `--threads T -q`, for each
//! `T` of the series, `--repeat` times; the table gives each count's best and median wall time,
//! its speed-up over the best of the fewest threads in the series and its efficiency (speed-up
//! per thread, relative to that count), whatever the series' order. The children's standard outputs must be the same at every count (a
//! command's report does not depend on its threads), or the bench fails.
//!
//! Files the command writes (`-o`, `--csv`, ...) are written again by every run; only standard
//! output is compared.
//!
//! Each child also appends its sweeps' workers' profiles to a file named by
//! [`PROFILE_ENV`](crate::app::print::PROFILE_ENV); the table gives, for each count's best run,
//! where the workers' time went in its sweeps: computing, in the analysis (and of that, the
//! part one worker at a time does), waiting for the band above or for a band, and idle.
//!
//! The children also record their tiles' times ([`SCHEDULE_ENV`](crate::app::flags::SCHEDULE_ENV)),
//! and each profile says how long its sweeps' tiles take scheduled on every count of the series
//! ([`palace::engine::Timeline::schedule`]). From the fewest threads' best run, the table's
//! `allows` column gives the speed-up the sweeps' dependencies alone allow at each count: the
//! measured speed-up falls short of it by what the machine adds (memory traffic, clocks, other
//! tenants), not by the schedule. Taken from one thread, the tiles' times are undisturbed.

use crate::app::error::{Error, Result};
use crate::app::print::{ExitCode, print_report};
use crate::app::request::{Context, Request};
use palace::engine::Cancel;
use serde::Serialize;
use std::fmt;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most entries of a series.
const MAX_SERIES: usize = 64;

/// A validated `palace bench --series`.
pub struct Series {
    /// The thread counts, in the order given.
    threads: Vec<usize>,
    /// The command and its arguments, without `--threads` and `-q`.
    command: Vec<String>,
    repeat: usize,
    json: bool,
    quiet: bool,
}

impl Series {
    /// Checks `--series` and the command after `--`.
    pub fn new(series: &str, command: Vec<String>, repeat: usize, json: bool, quiet: bool) -> Result<Self> {
        let bad = || {
            Error::Usage(format!(
                "--series {series}: give thread counts from 1 to 4096, separated by commas, e.g. --series 1,2,4,8,16"
            ))
        };
        let threads: Vec<usize> = series
            .split(',')
            .map(|t| t.trim().parse::<usize>().ok().filter(|t| (1..=4096).contains(t)).ok_or_else(bad))
            .collect::<Result<_>>()?;
        if threads.is_empty() || threads.len() > MAX_SERIES {
            return Err(bad());
        }
        let Some(first) = command.first() else {
            return Err(Error::Usage(
                "--series: name the command to time after --, e.g. palace bench --series 1,2 -- skin --k 40003 --to 1040003"
                    .into(),
            ));
        };
        if first == "bench" || first.starts_with('-') {
            return Err(Error::Usage(format!(
                "--series: `{first}` is not a command to time; give one after --, e.g. -- stats --k 9999 --size 60000"
            )));
        }
        if let Some(a) = command
            .iter()
            .find(|a| *a == "-q" || *a == "--quiet" || *a == "--threads" || a.starts_with("--threads="))
        {
            return Err(Error::Usage(format!(
                "--series runs the command with --threads T -q itself; leave {a} out of the command"
            )));
        }
        Ok(Series { threads, command, repeat, json, quiet })
    }
}

/// One thread count's runs.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// Worker threads.
    pub threads: usize,
    /// Fastest wall time, seconds.
    pub best_s: f64,
    /// Median wall time, seconds.
    pub median_s: f64,
    /// The best of the fewest threads over this count's.
    pub speedup: f64,
    /// The speed-up per thread, relative to the fewest threads `t0`: `speedup * t0 / threads`.
    pub efficiency: f64,
    /// The speed-up over the fewest threads that the schedule of their best run's tiles allows
    /// at this count (none: a sweep without a timeline, such as a lane sweep's).
    pub allows: Option<f64>,
    /// Where the workers' time went in the best run's sweeps (none: the command ran no sweep
    /// of the CPU engine, or reported none).
    pub profile: Option<Profile>,
}

/// The workers' profile of one run: its sweeps' times added up ([`palace::engine::WorkerTimes`]),
/// in seconds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Profile {
    /// Sweeps reported.
    pub sweeps: usize,
    /// Their wall time.
    pub sweep_s: f64,
    /// Worker time: threads x the sweeps' wall time.
    pub worker_s: f64,
    /// Computing tiles.
    pub computing_s: f64,
    /// In the analysis's visitor.
    pub analysis_s: f64,
    /// Of that, what one worker at a time may do.
    pub serial_s: f64,
    /// Waiting for a tile of the band above.
    pub waiting_above_s: f64,
    /// Getting the next band.
    pub waiting_band_s: f64,
    /// The seconds the sweeps' tiles take scheduled on each thread count of the series, added
    /// up over the sweeps (none if a sweep recorded no timeline).
    pub schedule_s: Option<std::collections::BTreeMap<usize, f64>>,
}

impl Profile {
    /// The profile in the lines a child appended (`{"threads", "elapsed", "workers"}`); `None`
    /// without any.
    fn parse(text: &str) -> Option<Profile> {
        let mut p = Profile { schedule_s: Some(Default::default()), ..Profile::default() };
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
            let f = |key: &str| v["workers"][key].as_f64().unwrap_or(0.0);
            let elapsed = v["elapsed"].as_f64().unwrap_or(0.0);
            p.sweeps += 1;
            p.sweep_s += elapsed;
            p.worker_s += elapsed * v["threads"].as_f64().unwrap_or(1.0);
            p.computing_s += f("computing");
            p.analysis_s += f("visiting");
            p.serial_s += f("serial");
            p.waiting_above_s += f("waiting_above");
            p.waiting_band_s += f("waiting_band");
            match (v["schedule"].as_object(), &mut p.schedule_s) {
                (Some(schedule), Some(sum)) => {
                    for (n, s) in schedule {
                        if let (Ok(n), Some(s)) = (n.parse::<usize>(), s.as_f64()) {
                            *sum.entry(n).or_default() += s;
                        }
                    }
                }
                _ => p.schedule_s = None,
            }
        }
        (p.sweeps > 0).then_some(p)
    }

    /// A share of the worker time, in percent.
    fn pct(&self, s: f64) -> f64 {
        100.0 * s / self.worker_s.max(1e-9)
    }

    /// The worker time left: idle, or between the steps measured.
    fn idle_s(&self) -> f64 {
        (self.worker_s - self.computing_s - self.analysis_s - self.waiting_above_s - self.waiting_band_s)
            .max(0.0)
    }
}

/// What `bench --series` measured.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesReport {
    /// The command timed, as given after `--`.
    pub command: Vec<String>,
    /// Runs per thread count.
    pub repeat: usize,
    /// The cores this process may use.
    pub cores: usize,
    /// One entry per thread count, in the series' order.
    pub points: Vec<Point>,
    /// Whether every run printed the same standard output (always true in a report: the bench
    /// fails otherwise).
    pub same_output: bool,
}

impl fmt::Display for SeriesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "palace {}: best (median) of {} run(s) per thread count, on {} available cores",
            self.command.join(" "),
            self.repeat,
            self.cores
        )?;
        let profiled = self.points.iter().any(|p| p.profile.is_some());
        let scheduled = self.points.iter().any(|p| p.allows.is_some());
        write!(f, "{:>8} {:>10} {:>10} {:>9} {:>11}", "threads", "best", "median", "speed-up", "efficiency")?;
        if scheduled {
            write!(f, " {:>7}", "allows")?;
        }
        if profiled {
            write!(
                f,
                " | {:>8} {:>8} {:>9} {:>7} {:>8} {:>7} {:>6}",
                "sweep", "compute", "analysis", "serial", "w:above", "w:band", "idle"
            )?;
        }
        writeln!(f)?;
        for p in &self.points {
            write!(
                f,
                "{:>8} {:>9.3}s {:>9.3}s {:>8.2}x {:>10.0}%",
                p.threads,
                p.best_s,
                p.median_s,
                p.speedup,
                100.0 * p.efficiency
            )?;
            match p.allows {
                Some(a) => write!(f, " {a:>6.2}x")?,
                None if scheduled => write!(f, " {:>7}", "-")?,
                None => {}
            }
            if let Some(q) = &p.profile {
                write!(
                    f,
                    " | {:>7.3}s {:>7.0}% {:>8.0}% {:>6.0}% {:>7.0}% {:>6.0}% {:>5.0}%",
                    q.sweep_s,
                    q.pct(q.computing_s),
                    q.pct(q.analysis_s),
                    q.pct(q.serial_s),
                    q.pct(q.waiting_above_s),
                    q.pct(q.waiting_band_s),
                    q.pct(q.idle_s())
                )?;
            }
            writeln!(f)?;
        }
        if profiled {
            writeln!(
                f,
                "(the best run's sweeps: their wall time, and where the workers' time in them went, in % of threads x that time; serial is the part of the analysis one worker at a time does)"
            )?;
        }
        if scheduled {
            writeln!(
                f,
                "(allows: the speed-up that the sweeps' tiles, as timed in the best run of the fewest threads, allow when scheduled on each count; the measured speed-up falls short of it by what the machine adds)"
            )?;
        }
        writeln!(f, "standard output: the same at every thread count")
    }
}

impl Request for Series {
    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let exe = std::env::current_exe().map_err(|e| Error::io("the palace binary", e))?;
        let mut points: Vec<Point> = Vec::new();
        let mut first_output: Option<(usize, Vec<u8>)> = None;
        for &t in &self.threads {
            let mut times = Vec::with_capacity(self.repeat);
            let mut best: Option<(f64, Option<Profile>)> = None;
            for i in 0..self.repeat {
                if !self.quiet {
                    eprintln!("bench --series: --threads {t}, run {} of {}", i + 1, self.repeat);
                }
                let (elapsed, out, profile) = run_child(&exe, &self.command, t, &self.threads, &ctx.cancel)?;
                if best.as_ref().is_none_or(|b| elapsed.as_secs_f64() < b.0) {
                    best = Some((elapsed.as_secs_f64(), profile));
                }
                match &first_output {
                    None => first_output = Some((t, out)),
                    Some((t0, o)) if *o != out => {
                        return Err(Error::mismatch(format!(
                            "palace {} printed different output with --threads {t0} and --threads {t}",
                            self.command.join(" ")
                        )));
                    }
                    Some(_) => {}
                }
                times.push(elapsed.as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            let profile = best.and_then(|b| b.1);
            points.push(Point {
                threads: t,
                best_s: times[0],
                median_s: median,
                speedup: 1.0,
                efficiency: 1.0,
                allows: None,
                profile,
            });
        }
        // Relative to the fewest threads, wherever they stand in the series.
        let first = points.iter().min_by_key(|p| p.threads).expect("a count");
        let (t0, b0) = (first.threads, first.best_s);
        let schedule = first.profile.as_ref().and_then(|q| q.schedule_s.clone());
        for p in &mut points {
            p.speedup = b0 / p.best_s;
            p.efficiency = p.speedup * t0 as f64 / p.threads as f64;
            p.allows = schedule.as_ref().and_then(|s| Some(s.get(&t0)? / s.get(&p.threads)?));
        }
        let report = SeriesReport {
            command: self.command,
            repeat: self.repeat,
            cores: palace::engine::available_cores(),
            points,
            same_output: true,
        };
        print_report(self.json, &report)?;
        Ok(0)
    }
}

/// Runs `palace COMMAND --threads T -q` and returns its wall time, standard output and
/// workers' profile (with its sweeps' schedule on each count of `series`); a failed run is an
/// error with the child's message. The child is killed when `cancel` is.
fn run_child(
    exe: &std::path::Path,
    command: &[String],
    threads: usize,
    series: &[usize],
    cancel: &Cancel,
) -> Result<(Duration, Vec<u8>, Option<Profile>)> {
    // The child appends its profile here; removed after the run.
    let profile_file = std::env::temp_dir().join(format!(
        "palace-series-{}-{}.jsonl",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
    ));
    let read_profile = || {
        let p = std::fs::read_to_string(&profile_file).ok().and_then(|t| Profile::parse(&t));
        let _ = std::fs::remove_file(&profile_file);
        p
    };
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args(command)
        .args(["--threads", &threads.to_string(), "-q"])
        .env(crate::app::print::PROFILE_ENV, &profile_file)
        .env(
            crate::app::flags::SCHEDULE_ENV,
            series.iter().map(ToString::to_string).collect::<Vec<_>>().join(","),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io(exe, e))?;
    // Read both pipes on their own threads so that a full pipe never stalls the child.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| Error::io(exe, e))? {
            break s;
        }
        if cancel.is_cancelled() {
            let _ = child.kill();
            let _ = child.wait();
            read_profile();
            return Err(Error::INTERRUPTED);
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = started.elapsed();
    let profile = read_profile();
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    if !status.success() {
        let why = format!(
            "bench --series: palace {} --threads {threads} -q failed ({status}): {}",
            command.join(" "),
            String::from_utf8_lossy(&err).trim()
        );
        // A command the child refused is a usage error here too; any other failure is not.
        return Err(if status.code() == Some(2) {
            Error::Usage(why)
        } else {
            palace::Error::Analysis(why).into()
        });
    }
    Ok((elapsed, out, profile))
}
