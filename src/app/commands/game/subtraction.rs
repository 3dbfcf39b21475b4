//! `palace game subtraction`: the Grundy values of subtraction games (Larsson and Fox's set by
//! default), their file, or the paper's checks.

use super::common::{game_bar, in_pool, print_claims};
use crate::app::error::{Error, Result};
use crate::app::flags::{ReportArgs, RunArgs, RunConfig};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text, wrote};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Silent;
pub use palace::games::subtraction::MAX_SUBTRACTION_TO;
use palace::games::subtraction::SubtractionSet;
use palace::games::watch::Watch;
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace game subtraction`.
#[derive(Debug, Args)]
pub struct SubtractionArgs {
    /// Solve every pile 0..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The subtraction set: a family F(an+b)+c over n >= 1 (F(2n+1)-1, the paper's and the
    /// default; F(2n)-1, F(2n+1), F(n), ...), `paper`, or a list 1,4,12,33. Repeat to survey
    /// several sets: one row each.
    #[arg(long, value_name = "NAME|LIST")]
    pub set: Vec<String>,
    /// Write the values: a uint8 array (.npy, shape (N+1,)) or a picture (.png, --row-length
    /// piles a row), by the file's extension.
    #[arg(long, short, value_name = "FILE.npy|FILE.png")]
    pub output: Option<PathBuf>,
    /// Piles a row of the picture.
    #[arg(long, value_name = "W", default_value_t = 89)]
    pub row_length: usize,
    /// Largest period searched for in the last half of the values (N/2..N).
    #[arg(long, value_name = "P", default_value_t = palace::games::subtraction::DEFAULT_PERIOD_BOUND)]
    pub period_bound: u64,
    /// Run the paper's statements over 0..=N (the paper's set only).
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Validates and runs `palace game subtraction`.
pub fn run(a: SubtractionArgs, ctx: &Context) -> Result<ExitCode> {
    use palace::games::subtraction as sub;
    if a.to > MAX_SUBTRACTION_TO {
        return Err(Error::Usage(format!(
            "--to {}: the values take N/4 bytes (N bytes for sets whose values reach 4); use --to <= {MAX_SUBTRACTION_TO}",
            a.to
        )));
    }
    let specs = if a.set.is_empty() { vec![sub::PAPER_SET.to_string()] } else { a.set };
    let mut sets = Vec::new();
    for spec in &specs {
        sets.push(sub::parse_set(spec, a.to).map_err(|e| Error::Usage(format!("--set {e}")))?);
    }
    if let Some(o) = &a.output {
        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
        if !matches!(ext.as_deref(), Some("npy" | "png")) {
            return Err(Error::Usage(format!(
                "--output {}: the format comes from the extension; name it .npy or .png",
                o.display()
            )));
        }
        if sets.len() > 1 {
            return Err(Error::Usage("--output writes one set's values; give one --set".into()));
        }
    }
    if a.row_length == 0 || a.row_length > 4096 {
        return Err(Error::Usage(format!(
            "--row-length {}: a picture row holds 1 to 4096 piles; use 1 <= --row-length <= 4096",
            a.row_length
        )));
    }
    if a.check && (sets.len() > 1 || !sets[0].is_papers(a.to)) {
        return Err(Error::Usage(format!(
            "--check runs Larsson and Fox's statements about S = {{F(2n+1) - 1}}; drop --set or use --set {}",
            sub::PAPER_SET
        )));
    }
    ctx.run(Subtraction {
        to: a.to,
        sets,
        output: a.output,
        row_length: a.row_length,
        period_bound: a.period_bound,
        check: a.check,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

/// A validated `palace game subtraction`.
struct Subtraction {
    /// The largest pile.
    to: u64,
    /// The sets (one row of the survey each).
    sets: Vec<SubtractionSet>,
    /// Where the values go (.npy or .png).
    output: Option<PathBuf>,
    /// Piles a row of the picture.
    row_length: usize,
    /// The largest period searched.
    period_bound: u64,
    /// Check the paper's claims.
    check: bool,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

impl Request for Subtraction {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let Subtraction { to, sets, output, row_length, period_bound, check, json, run } = self;
        in_pool(&run, || {
            subtraction(to, &sets, output.as_deref(), row_length, period_bound, check, json, &run)
        })
    }
}

/// `game subtraction`: the Grundy values of each set (largest value, counts, period, and for
/// the paper's set Theorem 2's mismatches), the file of one set's values, or the paper's checks.
// One argument per validated flag of the command, as `Subtraction` holds them.
#[allow(clippy::too_many_arguments)]
fn subtraction(
    to: u64,
    sets: &[palace::games::subtraction::SubtractionSet],
    output: Option<&std::path::Path>,
    row_length: usize,
    period_bound: u64,
    check: bool,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::{subtraction as sub, subtraction_claims};
    let cancel = &run.engine.cancel;
    use std::fmt::Write as _;
    // Open the output before computing, so a bad path fails at once.
    let out =
        output.map(|p| AtomicOutput::create_cancellable(p, "--output", &run.engine.cancel)).transpose()?;
    let mut rows = Vec::new();
    let mut text = String::new();
    for set in sets {
        let start = std::time::Instant::now();
        let pb = game_bar(run, &format!("subtraction {}", set.name), "piles");
        let g = sub::solve_watched(&set.members, to, &Watch::new(cancel, &pb))?;
        pb.finish_and_clear();
        let solve_secs = start.elapsed().as_secs_f64();
        let quiet = Watch::new(cancel, &Silent);
        let (period, bound) = sub::find_period_watched(&g, period_bound, &quiet)?;
        if check {
            let list = subtraction_claims::paper_watched(&g, &set.members, period, bound, &quiet)?;
            print_claims(&list, json)?;
            if !run.quiet {
                eprintln!("solved in {solve_secs:.2} s, checked in {:.2} s", start.elapsed().as_secs_f64());
            }
            return Ok(0);
        }
        let papers = set.is_papers(to);
        let mismatches =
            if papers { Some(sub::wythoff_classes_watched(&g, &quiet)?.theorem2_mismatches) } else { None };
        let counts = g.counts();
        let secs = start.elapsed().as_secs_f64();
        if let Some(out) = out {
            let path = out.path().to_path_buf();
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
                sub::picture(&g, &set.name, row_length, 512, out)?;
            } else {
                sub::write_npy(&g, out)?;
            }
            wrote(Some(path), run.quiet);
            return finish_subtraction(&g, set, period, bound, mismatches, secs, json);
        }
        rows.push(serde_json::json!({
            "set": set.name,
            "members": set.members,
            "to": to,
            "max": g.max(),
            "counts": counts,
            "period": period,
            "period_bound": bound,
            "theorem2_mismatches": mismatches,
            "storage": g.storage_name(),
            "switched_at": g.switched_at,
            "seconds": secs,
        }));
        let per = match period {
            Some(p) => format!("period {} from n = {}", p.period, p.from),
            None => format!("none <= {bound}"),
        };
        let head: Vec<String> = set.members.iter().take(8).map(u64::to_string).collect();
        let more = if set.members.len() > 8 { ", ..." } else { "" };
        let _ = writeln!(
            text,
            "{:<14} {{{}{more}}} ({} members)\n{:<14} max {}, counts {:?}, period in n = {}..{to}: {per}{}; {} a value, {secs:.2} s",
            set.name,
            head.join(", "),
            set.members.len(),
            "",
            g.max(),
            counts,
            to / 2,
            mismatches.map_or(String::new(), |m| format!(", Theorem 2 mismatches {m}")),
            g.storage_name(),
        );
    }
    if json {
        let v = if rows.len() == 1 { rows.pop().expect("one row") } else { serde_json::Value::Array(rows) };
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else {
        out_text(&format!("subtraction games, piles 0..{to}\n{text}"))?;
    }
    Ok(0)
}

/// The summary of one set after its file was written.
fn finish_subtraction(
    g: &palace::games::subtraction::Grundy,
    set: &palace::games::subtraction::SubtractionSet,
    period: Option<palace::games::subtraction::Period>,
    bound: u64,
    mismatches: Option<u64>,
    secs: f64,
    json: bool,
) -> Result<ExitCode> {
    let v = serde_json::json!({
        "set": set.name,
        "to": g.to,
        "max": g.max(),
        "counts": g.counts(),
        "period": period,
        "period_bound": bound,
        "theorem2_mismatches": mismatches,
        "seconds": secs,
    });
    if json {
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else {
        out_text(&format!(
            "S = {}, piles 0..{}: max {}, counts {:?}{}",
            set.name,
            g.to,
            g.max(),
            g.counts(),
            mismatches.map_or(String::new(), |m| format!(", Theorem 2 mismatches {m}"))
        ))?;
    }
    Ok(0)
}
