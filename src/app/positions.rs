//! `palace positions` and `palace cell`: each command's arguments, validation and run in one
//! place.

use crate::app::cli::flags::{RunArgs, RunConfig, parse_k, parse_side};
use crate::app::print::{ExitCode, out_text};
use crate::app::progress;
use clap::Args;
use palace::analysis::positions;
use palace::engine::Cancel;
use palace::error::{Error, Result};
use palace::output::atomic::AtomicOutput;
use std::io::Write;
use std::path::PathBuf;

/// `palace positions`.
#[derive(Debug, Args)]
pub struct PositionsArgs {
    /// The blocking number k (k = 1 is classical Wythoff Nim).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// List the P-positions of rows 0..N.
    #[arg(long, value_name = "N", value_parser = parse_side, allow_negative_numbers = true)]
    pub rows: u32,
    /// Columns swept (default k + 3N: every P-position of row y lies left of the arm, at
    /// x < k + 2.62 y). A row found holding fewer than k says so.
    #[arg(long, value_name = "W", value_parser = parse_side, allow_negative_numbers = true)]
    pub width: Option<u32>,
    /// The file to write, sorted by y then x: CSV with the header `x,y`, or, when the name
    /// ends in .npy, an (n, 2) int64 NumPy array; `-` writes CSV to standard output.
    #[arg(long, short, value_name = "FILE.csv|FILE.npy")]
    pub output: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace positions`.
#[derive(Debug, Clone)]
pub struct Positions {
    k: u32,
    rows: u32,
    width: u32,
    /// The output file.
    pub output: PathBuf,
    /// Whether it is a `.npy` array rather than CSV.
    npy: bool,
    json: bool,
    /// Engine settings.
    pub run: RunConfig,
}

impl PositionsArgs {
    /// Checks the request.
    pub fn resolve(&self) -> Result<Positions> {
        if self.k == 0 || self.rows == 0 || self.width == Some(0) {
            return Err(Error::Usage(
                "--k, --rows and --width start at 1; e.g. palace positions --k 7 --rows 1000 -o p7.csv"
                    .into(),
            ));
        }
        let npy = self.output.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"));
        let width = match self.width {
            Some(w) => w,
            None => match u32::try_from(positions::default_width(self.k, self.rows)) {
                Ok(w) if w <= palace::model::geometry::MAX_SIDE => w,
                _ => {
                    return Err(Error::Usage(format!(
                        "--rows {}: the default width k + 3 rows exceeds {}; give --width",
                        self.rows,
                        palace::model::geometry::MAX_SIDE
                    )));
                }
            },
        };
        Ok(Positions {
            k: self.k,
            rows: self.rows,
            width,
            output: self.output.clone(),
            npy,
            json: self.json,
            run: self.run.resolve()?,
        })
    }
}

impl Positions {
    /// The columns swept (for the memory estimate).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Lists the P-positions as CSV and prints the report.
    pub fn run(self, cancel: &Cancel) -> Result<ExitCode> {
        let mut out = AtomicOutput::create_cancellable(&self.output, "--output", cancel)?;
        if self.npy && out.in_place() {
            return Err(Error::Usage(format!(
                "--output {}: a .npy list is finished by rewriting its header (the count), which a pipe cannot take; write CSV there, or name a regular file",
                self.output.display()
            )));
        }
        let pb = progress::bar(self.run.quiet, "positions", "rows");
        let (report, _) = self.list(out.file(), &pb)?;
        pb.finish_and_clear();
        let to_stdout = out.in_place() && self.output.as_os_str() == "-";
        out.commit()?;
        let text = if self.json {
            serde_json::to_string_pretty(&report).expect("serialisable")
        } else {
            report.to_string()
        };
        if to_stdout {
            // The list went to standard output: the report goes to standard error.
            if !self.run.quiet {
                eprint!("{text}");
            }
        } else {
            out_text(&text)?;
        }
        Ok(0)
    }
}

impl Positions {
    /// Writes the list to `file`: CSV, or an `(n, 2)` int64 array whose header, written first
    /// for the most positions the rows can hold, is rewritten with the count found, padded to
    /// the same length.
    fn list(
        &self,
        file: &mut std::fs::File,
        pb: &dyn palace::engine::Progress,
    ) -> Result<(positions::PositionsReport, palace::engine::SweepReport)> {
        use palace::output::npy::header_of;
        use std::io::{Seek, SeekFrom};
        let shown = self.output.display().to_string();
        let io = |e| Error::io(&shown, e);
        let header = if self.npy {
            header_of("<i8", u64::from(self.k) * u64::from(self.rows), 2, 0)
        } else {
            b"x,y\n".to_vec()
        };
        let r = {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *file);
            w.write_all(&header).map_err(io)?;
            let mut emit = |x: u32, y: u32| {
                if self.npy {
                    w.write_all(&i64::from(x).to_le_bytes())
                        .and_then(|()| w.write_all(&i64::from(y).to_le_bytes()))
                } else {
                    writeln!(w, "{x},{y}")
                }
                .map_err(io)
            };
            let r =
                positions::positions(self.k, self.rows, Some(self.width), &self.run.engine, &mut emit, pb)?;
            w.flush().map_err(io)?;
            r
        };
        if self.npy {
            let counted = header_of("<i8", r.0.positions, 2, header.len());
            debug_assert_eq!(counted.len(), header.len());
            file.seek(SeekFrom::Start(0)).and_then(|_| file.write_all(&counted)).map_err(io)?;
        }
        Ok(r)
    }
}

/// `palace cell`.
#[derive(Debug, Args)]
pub struct CellArgs {
    /// The blocking number k (k = 1 is classical Wythoff Nim).
    #[arg(long, value_name = "K", value_parser = parse_k, allow_negative_numbers = true)]
    pub k: u32,
    /// The cell: column x, row y.
    #[arg(long, value_name = "x,y")]
    pub at: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace cell`.
#[derive(Debug, Clone)]
pub struct Cell {
    k: u32,
    x: u32,
    y: u32,
    json: bool,
    /// Engine settings.
    pub run: RunConfig,
}

impl CellArgs {
    /// Checks the request.
    pub fn resolve(&self) -> Result<Cell> {
        let bad = || {
            Error::Usage(format!(
                "--at {}: give the column and the row as x,y, each from 0 to {}, e.g. --at 1000,250",
                self.at,
                palace::model::geometry::MAX_SIDE - 1
            ))
        };
        let parts: Vec<&str> = self.at.split(',').map(str::trim).collect();
        let [x, y] = parts[..] else { return Err(bad()) };
        let (Ok(x), Ok(y)) = (x.parse::<u32>(), y.parse::<u32>()) else { return Err(bad()) };
        if x >= palace::model::geometry::MAX_SIDE || y >= palace::model::geometry::MAX_SIDE {
            return Err(bad());
        }
        if self.k == 0 {
            return Err(Error::Usage("--k 0: k starts at 1; use --k 1 or more".into()));
        }
        Ok(Cell { k: self.k, x, y, json: self.json, run: self.run.resolve()? })
    }
}

impl Cell {
    /// The columns swept (for the memory estimate): the region's neighbourhood.
    pub fn width(&self) -> u32 {
        palace::analysis::cell_region::neighbourhood_end(self.x)
    }

    /// Prints the cell's palace number, value and kind, and its region
    /// ([`palace::analysis::cell_region`]).
    pub fn run(self) -> Result<ExitCode> {
        let pb = progress::bar(self.run.quiet, "cell", "rows");
        let (n, _) = positions::cell(self.k, self.x, self.y, &self.run.engine, &pb)?;
        pb.finish_and_clear();
        let (k, x, y) = (i64::from(self.k), u64::from(self.x), u64::from(self.y));
        let v = n - k;
        let hood = palace::model::rule::in_hood(self.k, x, y);
        let pb = progress::bar(self.run.quiet, "cell's region", "rows");
        let region = palace::analysis::cell_region::region(self.k, self.x, self.y, &self.run.engine, &pb)?;
        pb.finish_and_clear();
        let text = if self.json {
            serde_json::to_string_pretty(&serde_json::json!({
                "k": k, "x": x, "y": y, "N": n, "v": v, "p_position": v < 0, "hood": hood,
                "region": region,
            }))
            .expect("serialisable")
        } else {
            format!(
                "k = {k}, cell ({x}, {y}): N = {n}, v = N - k = {v}: {}{}\nregion: {region}",
                if v < 0 { "a P-position (palace)" } else { "an N-position" },
                if hood { ", in the hood (N = max(x, y) + 2 min(x, y))" } else { ", outside the hood" }
            )
        };
        out_text(&text)?;
        Ok(0)
    }
}
