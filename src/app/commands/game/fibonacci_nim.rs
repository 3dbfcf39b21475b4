//! `palace game fibonacci-nim`: Fibonacci nim solved (who wins from each pile, every winning
//! first move), its Grundy table, or the checks of the notes.

use super::common::{game_bar, in_pool};
use crate::app::error::{Error, Result};
use crate::app::flags::{ReportArgs, RunArgs, RunConfig};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text, wrote};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Silent;
pub use palace::games::fibonacci_nim::{MAX_GRUNDY_TO, MAX_NIM_TO};
use palace::games::watch::Watch;
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace game fibonacci-nim`.
#[derive(Debug, Args)]
pub struct FibonacciNimArgs {
    /// Solve every pile 1..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The Grundy values G(n, q) for n, q <= N instead of the outcomes.
    #[arg(long, conflicts_with = "check")]
    pub grundy: bool,
    /// Write the Grundy table: a heatmap (.png), a uint16 array (.npy) or a table (.csv), by
    /// the file's extension.
    #[arg(long, short, value_name = "FILE.png|FILE.npy|FILE.csv", requires = "grundy")]
    pub output: Option<PathBuf>,
    /// Run every checkable statement of the Fibonacci nim notes over n = 1..N.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace game fibonacci-nim`.
struct FibonacciNim {
    /// The largest pile.
    to: u64,
    /// The Grundy table instead of the outcomes.
    grundy: bool,
    /// Where the Grundy table goes.
    output: Option<PathBuf>,
    /// Check the notes' claims.
    check: bool,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// Validates and runs `palace game fibonacci-nim`.
pub fn run(a: FibonacciNimArgs, ctx: &Context) -> Result<ExitCode> {
    if a.to == 0 {
        return Err(Error::Usage("--to 0: the piles start at 1; use --to 1 or more".into()));
    }
    if a.grundy && a.to > MAX_GRUNDY_TO {
        return Err(Error::Usage(format!(
            "--to {} with --grundy: the table takes N^2 bytes; use --to <= {MAX_GRUNDY_TO}",
            a.to
        )));
    }
    if a.to > MAX_NIM_TO {
        return Err(Error::Usage(format!(
            "--to {}: listing every winning first move takes about N^2 / 6 steps; use --to <= {MAX_NIM_TO}",
            a.to
        )));
    }
    if let Some(o) = &a.output {
        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
        if !matches!(ext.as_deref(), Some("png" | "npy" | "csv")) {
            return Err(Error::Usage(format!(
                "--output {}: the format comes from the extension; name it .png, .npy or .csv",
                o.display()
            )));
        }
    }
    ctx.run(FibonacciNim {
        to: a.to,
        grundy: a.grundy,
        output: a.output,
        check: a.check,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for FibonacciNim {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let FibonacciNim { to, grundy, output, check, json, run } = self;
        in_pool(&run, || fibonacci_nim(to as usize, grundy, output.as_deref(), check, json, &run))
    }
}

/// `game fibonacci-nim`: outcomes and winning first moves, the Grundy table, or the checks of
/// the notes.
fn fibonacci_nim(
    to: usize,
    grundy: bool,
    output: Option<&std::path::Path>,
    check: bool,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::{claims, fibonacci_nim as nim, plot};
    use std::fmt::Write as _;
    let start = std::time::Instant::now();
    let cancel = &run.engine.cancel;
    if check {
        let pb = game_bar(run, "fibonacci nim", "piles");
        let o = nim::solve_watched(to, &Watch::new(cancel, &pb))?;
        pb.finish_and_clear();
        let g = nim::grundy_watched(to.min(1000), &Watch::new(cancel, &Silent))?;
        let mut list = claims::fibonacci_nim(&o, &g);
        // The library's note says the piles stop short of 10; say which flag reaches it.
        for c in list.iter_mut().filter(|c| c.note.as_deref() == Some(claims::TEN_NOT_REACHED)) {
            c.note = Some("run with --to 10 or more".into());
        }
        if json {
            out_text(&serde_json::to_string_pretty(&list).expect("serialisable"))?;
        } else {
            out_text(&claims::table(&list))?;
        }
        if !run.quiet {
            eprintln!("checked in {:.2} s", start.elapsed().as_secs_f64());
        }
        return Ok(0);
    }
    if grundy {
        // Open the output before computing, so a bad path fails at once.
        let out = output
            .map(|p| AtomicOutput::create_cancellable(p, "--output", &run.engine.cancel))
            .transpose()?;
        let pb = game_bar(run, "grundy values", "rows");
        let g = nim::grundy_watched(to, &Watch::new(cancel, &pb))?;
        pb.finish_and_clear();
        let secs = start.elapsed().as_secs_f64();
        let zeros = (1..=to).map(|n| (1..=n).filter(|&q| g.get(n, q) == 0).count()).sum::<usize>();
        if let Some(out) = out {
            let path = out.path().to_path_buf();
            match path.extension().map(|e| e.to_string_lossy().to_lowercase()).as_deref() {
                Some("png") => plot::grundy_picture(&g, out)?,
                Some("npy") => plot::grundy_npy(&g, out)?,
                _ => plot::grundy_csv(&g, out)?,
            }
            wrote(Some(path), run.quiet);
        }
        if json {
            let rows: Option<Vec<Vec<u16>>> =
                (to <= 200).then(|| (1..=to).map(|n| (1..=to).map(|q| g.get(n, q)).collect()).collect());
            let v = serde_json::json!({ "to": to, "max_value": g.max_value(), "grundy": rows });
            out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
        } else {
            let mut s = format!(
                "Grundy values G(n, q) of Fibonacci nim for n, q = 1..{to}: largest value {}, {zeros} lost positions (n, q <= n) with G = 0; {secs:.2} s, table {} MiB\n",
                g.max_value(),
                g.bytes() >> 20
            );
            if to <= 24 {
                s.push_str("  n\\q");
                for q in 1..=to {
                    let _ = write!(s, "{q:>4}");
                }
                s.push('\n');
                for n in 1..=to {
                    let _ = write!(s, "{n:>5}");
                    for q in 1..=to {
                        let _ = write!(s, "{:>4}", g.get(n, q));
                    }
                    s.push('\n');
                }
            }
            out_text(&s)?;
        }
        return Ok(0);
    }
    let pb = game_bar(run, "fibonacci nim", "piles");
    let o = nim::solve_watched(to, &Watch::new(cancel, &pb))?;
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if json {
        let moves: serde_json::Map<String, serde_json::Value> =
            (1..=to).map(|n| (n.to_string(), serde_json::json!(o.winning_moves[n]))).collect();
        let v = serde_json::json!({ "p_positions": o.p_positions(), "winning_moves": moves });
        out_text(&serde_json::to_string(&v).expect("serialisable"))?;
    } else {
        let mut s = String::from("     n  winner  winning first moves (coins taken)\n");
        for n in 1..=to {
            let m = &o.winning_moves[n];
            let who = if m.is_empty() { 2 } else { 1 };
            let list = m.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
            let _ = writeln!(s, "{n:>6}  {who:>6}  {list}");
        }
        let _ =
            writeln!(s, "{} P-positions (second player wins) in 1..{to}; {secs:.2} s", o.p_positions().len());
        out_text(&s)?;
    }
    Ok(0)
}
