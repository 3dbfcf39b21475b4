//! `palace game fraenkel-array`: rows of Fraenkel's array A (Fraenkel, Arrays, Numeration
//! Systems and Frankenstein Games) as a table, CSV, JSON or a picture, or the checks of the
//! text's statements about it.

use super::common::{game_bar, in_pool};
use crate::app::error::{Error, Result};
use crate::app::flags::{RunArgs, RunConfig};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text, wrote};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Silent;
pub use palace::games::fraenkel::MAX_FRAENKEL_ROWS;
use palace::games::watch::Watch;
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// Largest `--to` of `game fraenkel-array --check` (one bit per integer: 500 MB).
pub const MAX_FRAENKEL_TO: u64 = 4_000_000_000;

/// `palace game fraenkel-array`.
#[derive(Debug, Args)]
pub struct FraenkelArrayArgs {
    /// Print rows 0..N-1.
    #[arg(long, value_name = "N", required_unless_present = "check")]
    pub rows: Option<u64>,
    /// Print columns 0..J-1.
    #[arg(long, value_name = "J", default_value_t = 7)]
    pub columns: usize,
    /// Print JSON: {"rows": [[A_0^n, A_1^n, ...], ...]}.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: n,A_0,A_1,...
    #[arg(long)]
    pub csv: bool,
    /// Draw the integers up to A_0^{N-1}, each coloured by the column of A that holds it. With
    /// --plot the rows are printed only when asked for: by --table, --csv or --json.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// With --plot: also print the rows as a table.
    #[arg(long, requires = "plot", conflicts_with_all = ["csv", "json"])]
    pub table: bool,
    /// Check the text's statements on every entry up to X (--to) instead of printing rows.
    #[arg(long, conflicts_with_all = ["rows", "csv", "plot"])]
    pub check: bool,
    /// The bound of --check.
    #[arg(long, value_name = "X", default_value_t = 1_000_000)]
    pub to: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace game fraenkel-array`: rows of the array.
struct FraenkelArray {
    /// Rows 0..rows.
    rows: usize,
    /// Columns 0..columns.
    columns: usize,
    json: bool,
    csv: bool,
    /// The picture.
    plot: Option<PathBuf>,
    /// With `plot`: print the table as well.
    table: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// A validated `palace game fraenkel-array --check`: the checks of the array and of system U
/// to a bound.
struct FraenkelCheck {
    /// Every entry up to this.
    to: u64,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// Validates and runs `palace game fraenkel-array`.
pub fn run(a: FraenkelArrayArgs, ctx: &Context) -> Result<ExitCode> {
    if a.check {
        if a.to == 0 || a.to > MAX_FRAENKEL_TO {
            return Err(Error::Usage(format!(
                "--to {}: the check keeps one bit per integer up to X; use 1 <= --to <= {MAX_FRAENKEL_TO}",
                a.to
            )));
        }
        return ctx.run(FraenkelCheck { to: a.to, json: a.json, run: a.run.resolve(&ctx.cancel)? });
    }
    let rows = a.rows.unwrap_or(0);
    if rows == 0 || rows > MAX_FRAENKEL_ROWS {
        return Err(Error::Usage(format!("--rows {rows}: use 1 <= --rows <= {MAX_FRAENKEL_ROWS}")));
    }
    if a.columns == 0 || a.columns > palace::games::fraenkel::BASIS_LEN {
        return Err(Error::Usage(format!(
            "--columns {}: entries beyond column {} exceed 64 bits; use 1 <= --columns <= {}",
            a.columns,
            palace::games::fraenkel::BASIS_LEN - 1,
            palace::games::fraenkel::BASIS_LEN
        )));
    }
    if let Some(p) = &a.plot
        && !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err(Error::Usage(format!("--plot {}: the picture is a PNG; name it .png", p.display())));
    }
    ctx.run(FraenkelArray {
        rows: rows as usize,
        columns: a.columns,
        json: a.json,
        csv: a.csv,
        plot: a.plot,
        table: a.table,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for FraenkelArray {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--plot", self.plot.as_deref())
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let FraenkelArray { rows, columns, json, csv, plot, table, run } = self;
        in_pool(&run, || fraenkel_array(rows, columns, json, csv, plot.as_deref(), table, &run))
    }
}

impl Request for FraenkelCheck {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let FraenkelCheck { to, json, run } = self;
        in_pool(&run, || fraenkel_check(to, json, &run))
    }
}

/// `game fraenkel-array`: rows of the array as a table, CSV or JSON, and the picture.
fn fraenkel_array(
    rows: usize,
    columns: usize,
    json: bool,
    csv: bool,
    plot: Option<&std::path::Path>,
    table: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::fraenkel as fr;
    use std::fmt::Write as _;
    let out = plot.map(|p| AtomicOutput::create_cancellable(p, "--plot", &run.engine.cancel)).transpose()?;
    let drawn = out.is_some();
    let Some(a) = fr::array(rows, columns) else {
        return Err(Error::Usage(format!(
            "--columns {columns}: an entry of the first {rows} rows exceeds 64 bits; use fewer columns"
        )));
    };
    if let Some(out) = out {
        let path = out.path().to_path_buf();
        let firsts: Vec<u64> = a.iter().map(|r| r[0]).collect();
        fr::picture(&firsts, out)?;
        wrote(Some(path), run.quiet);
    }
    if json {
        out_text(&serde_json::json!({ "rows": a }).to_string())?;
    } else if csv {
        let mut s = String::from("n");
        for j in 0..columns {
            let _ = write!(s, ",A_{j}");
        }
        s.push('\n');
        for (n, r) in a.iter().enumerate() {
            let _ = writeln!(s, "{n},{}", r.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        }
        out_text(&s)?;
    } else if !drawn || table {
        let width = a.iter().flatten().map(|v| v.to_string().len()).max().unwrap_or(1).max(4);
        let mut s = format!("{:>7}", "n");
        for j in 0..columns {
            let _ = write!(s, " {:>width$}", format!("A_{j}"));
        }
        s.push('\n');
        for (n, r) in a.iter().enumerate() {
            let _ = write!(s, "{n:>7}");
            for v in r {
                let _ = write!(s, " {v:>width$}");
            }
            s.push('\n');
        }
        out_text(&s)?;
    }
    Ok(0)
}

/// `game fraenkel-array --check`: the streamed sweep to `to` and every claim about the array.
fn fraenkel_check(to: u64, json: bool, run: &RunConfig) -> Result<ExitCode> {
    use palace::engine::Progress;
    use palace::games::{claims, fraenkel as fr, fraenkel_claims as fc};
    let start = std::time::Instant::now();
    let pb = game_bar(run, "array", "");
    pb.set_length(to);
    let s = fr::sweep_watched(to, &Watch::new(&run.engine.cancel, &pb))?;
    pb.finish_and_clear();
    let beatty = fr::beatty_split_watched(to, &Watch::new(&run.engine.cancel, &Silent))?;
    let list = fc::array(&s, beatty);
    if json {
        out_text(&serde_json::to_string_pretty(&list).expect("serialisable"))?;
    } else {
        out_text(&claims::table(&list))?;
    }
    if run.quiet {
        return Ok(0);
    }
    eprintln!(
        "built and checked {} entries in {} rows up to {to} in {:.1} s (sweep {:.1} s, bit set {} MiB); per column: {:?}",
        s.entries,
        s.rows,
        start.elapsed().as_secs_f64(),
        s.seconds,
        s.bytes >> 20,
        s.per_column
    );
    Ok(0)
}
