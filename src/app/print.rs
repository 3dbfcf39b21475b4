//! What every command shares at its end: its exit code, its result written to standard output
//! (a table or JSON), and its lines on standard error (the engine's summary, the files written).

use crate::app::error::Result;
use crate::app::flags::{RunConfig, schedule_threads};
use palace::backend::{GpuRun, RunReport};
use palace::engine::SweepReport;

/// How a command ended when it did not fail: the process exit code (0, or 1 for a check that
/// found a mismatch).
pub type ExitCode = i32;

/// Set on the ranks of an MPI world other than rank 0: they compute their share of a run and
/// write nothing of its result, which rank 0 writes (their errors they report themselves).
static MUTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Mutes this process's results, summaries and progress bars (a rank other than 0).
pub fn mute() {
    MUTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this process's results and summaries are muted ([`mute`]).
pub fn muted() -> bool {
    MUTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// One line on stderr naming the MPI world a run ran over, unless `--quiet`.
pub fn ranks_line(run: &RunConfig, world: &palace::backend::World) {
    if run.quiet || muted() {
        return;
    }
    eprintln!("over {} MPI ranks, one column strip each ({})", world.size(), world.library());
}

/// Writes a command's result to stdout; a closed pipe (`palace stats ... | head`) is not an
/// error.
pub fn out_text(text: &str) -> Result<()> {
    use std::io::Write;
    if muted() {
        return Ok(());
    }
    let mut o = std::io::stdout().lock();
    let r = o
        .write_all(text.as_bytes())
        .and_then(|()| if text.ends_with('\n') { Ok(()) } else { o.write_all(b"\n") });
    match r.and_then(|()| o.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(crate::app::error::Error::io("standard output", e))
        }
        _ => Ok(()),
    }
}

/// Prints a command's report, as JSON or as its table.
pub fn print_report<R: serde::Serialize + std::fmt::Display>(json: bool, report: &R) -> Result<()> {
    if json {
        out_text(&serde_json::to_string_pretty(report).expect("serialisable"))
    } else {
        out_text(&report.to_string())
    }
}

/// Prints an analysis's result: as JSON `{key: result, "engine": report}`, or as its table with
/// the engine's summary on stderr.
pub fn print_with_engine<R: serde::Serialize + std::fmt::Display>(
    json: bool,
    key: &str,
    result: &R,
    run: &RunConfig,
    report: &SweepReport,
) -> Result<()> {
    if json {
        record_profile(report);
        let v = serde_json::json!({ key: result, "engine": report });
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))
    } else {
        out_text(&result.to_string())?;
        summary(run, "", report);
        Ok(())
    }
}

/// Prints a result with how its run went on its backend: the engine's report as
/// [`print_with_engine`] prints it, or the GPU's (`"gpu"` in the JSON, [`gpu_summary`] on
/// stderr).
pub fn print_with_run<R: serde::Serialize + std::fmt::Display>(
    json: bool,
    key: &str,
    result: &R,
    run: &RunConfig,
    report: &RunReport,
) -> Result<()> {
    match report {
        RunReport::Cpu(r) => print_with_engine(json, key, result, run, r),
        RunReport::Gpu(g) if json => {
            let v = serde_json::json!({ key: result, "gpu": g });
            out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))
        }
        RunReport::Gpu(g) => {
            out_text(&result.to_string())?;
            gpu_summary(run, g);
            Ok(())
        }
    }
}

/// A GPU run's line on stderr, unless `--quiet`.
pub fn gpu_summary(run: &RunConfig, g: &GpuRun) {
    if run.quiet || muted() {
        return;
    }
    let secs = g.elapsed.as_secs_f64();
    eprintln!(
        "swept {} cells on {} in {secs:.3} s ({:.2} G cells/s, tiles {}): computed {}, skipped {} (outer space)",
        g.region,
        g.adapter,
        g.region as f64 / secs.max(1e-9) / 1e9,
        g.shape,
        g.computed,
        g.region - g.computed
    );
    if g.sent_back > 0 {
        eprintln!("read back {:.1} MB for the analysis", g.sent_back as f64 / 1e6);
    }
}

/// The summary line of a run on its backend (see [`summary`] and [`gpu_summary`]).
pub fn run_summary(run: &RunConfig, what: &str, report: &RunReport) {
    match report {
        RunReport::Cpu(r) => summary(run, what, r),
        RunReport::Gpu(g) => gpu_summary(run, g),
    }
}

/// Says which picture was written, unless `--quiet`.
pub fn wrote(path: Option<std::path::PathBuf>, quiet: bool) {
    if let Some(p) = path
        && !quiet
        && !muted()
    {
        eprintln!("wrote {}", p.display());
    }
}

/// One line on stderr about what the engine did, unless `--quiet`.
pub fn summary(run: &RunConfig, what: &str, r: &SweepReport) {
    record_profile(r);
    if run.quiet || muted() {
        return;
    }
    let secs = r.elapsed.as_secs_f64();
    eprintln!(
        "{what}{}swept {} cells in {secs:.3} s ({:.2} G cells/s, {} threads): computed {} ({}narrow {}, wide {}), filled {} (hood {}, quiet {})",
        if what.is_empty() { "" } else { "; " },
        r.region_cells,
        r.region_cells as f64 / secs.max(1e-9) / 1e9,
        r.threads,
        r.computed(),
        if r.counter_computed > 0 {
            format!("three counters {}, ", r.counter_computed)
        } else {
            String::new()
        },
        r.narrow_computed,
        r.wide_computed,
        r.filled(),
        r.hood_filled,
        r.zero_filled
    );
    eprintln!("{}", workers_line(r));
}

/// The environment variable naming a file to which every sweep's workers' profile is
/// appended, one JSON line each (`{"threads", "elapsed", "workers"}`), quiet runs included:
/// `bench --series` reads it from its children.
pub const PROFILE_ENV: &str = "PALACE_WORKERS_PROFILE";

/// Appends `r`'s profile to the file [`PROFILE_ENV`] names, if it names one (best effort: a
/// profile that cannot be written is left out, and the bench then shows none).
fn record_profile(r: &SweepReport) {
    let Some(path) = std::env::var_os(PROFILE_ENV) else { return };
    let mut line =
        serde_json::json!({ "threads": r.threads, "elapsed": r.elapsed.as_secs_f64(), "workers": r.workers });
    if let Some(t) = &r.timeline {
        let schedule: serde_json::Map<String, serde_json::Value> = schedule_threads()
            .into_iter()
            .map(|n| (n.to_string(), t.schedule(n).as_secs_f64().into()))
            .collect();
        line["schedule"] = schedule.into();
    }
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, format!("{line}\n").as_bytes()));
}

/// Where the workers' time went, as a share of `threads x elapsed`.
fn workers_line(r: &SweepReport) -> String {
    let w = &r.workers;
    let all = r.threads as f64 * r.elapsed.as_secs_f64();
    let parts = [w.computing, w.visiting, w.waiting_above, w.waiting_band].map(|d| d.as_secs_f64());
    let share = |s: f64| format!("{s:.2} s ({:.0} %)", 100.0 * s / all.max(1e-9));
    format!(
        "workers ({} x {:.3} s): computing {}, in the analysis {}{}, waiting for the band above {}, for the next band {}, idle {}",
        r.threads,
        r.elapsed.as_secs_f64(),
        share(parts[0]),
        share(parts[1]),
        if w.serial.is_zero() {
            String::new()
        } else {
            format!(" (of which one worker at a time {})", share(w.serial.as_secs_f64()))
        },
        share(parts[2]),
        share(parts[3]),
        share((all - parts.iter().sum::<f64>()).max(0.0))
    )
}
