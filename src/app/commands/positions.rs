//! `palace positions`: the P-positions of the first rows, as CSV or `.npy`, and whether each
//! row holds exactly k.

use crate::app::error::{Error, Result};
use crate::app::flags::{BackendArg, MethodArg, RunArgs, RunConfig, backend, parse_k, parse_side};
use crate::app::memory::{Need, positions_need, positions_need_gpu};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, gpu_summary, out_text};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::positions::{self, Method};
use palace::backend::Backend;
use palace::backend::GpuRun;
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
    /// How the P-positions are found (`sweep` is the check of `lines`).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Where the cells are computed: `cpu`, or `gpu` (compute shaders on a Vulkan, Metal or
    /// DirectX 12 adapter; a build with `--features gpu`), which lists the P-positions by the
    /// tiled sweep and gives the same list and report as `--method sweep`. The GPU sends back
    /// only the P-positions; the host holds those of the rows not yet complete.
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
    pub backend: BackendArg,
    /// GPU tile shape LANESxROWSxWIDTH (tuning).
    #[arg(long, value_name = "LxRxW", hide = true)]
    pub gpu_shape: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace positions`.
struct Positions {
    k: u32,
    rows: u32,
    width: u32,
    output: PathBuf,
    /// Whether it is a `.npy` array rather than CSV.
    npy: bool,
    method: Method,
    /// Where the cells are computed (read only by a build with the GPU backend).
    backend: Backend,
    json: bool,
    run: RunConfig,
}

/// Validates and runs `palace positions`.
pub fn run(a: PositionsArgs, ctx: &Context) -> Result<ExitCode> {
    ctx.run(a.resolve(ctx)?)
}

impl PositionsArgs {
    /// Checks the request.
    fn resolve(&self, ctx: &Context) -> Result<Positions> {
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
        let run = self.run.resolve(&ctx.cancel)?;
        let backend = backend(self.backend, self.gpu_shape.as_deref(), &run.engine, ctx.world.as_ref())?;
        let method = match (&backend, self.method) {
            // The GPU lists them by its sweep; --method lines with it is the library's to refuse.
            (Backend::Gpu(_), MethodArg::Auto) => Method::Sweep,
            (_, m) => m.resolve(self.k)?,
        };
        Ok(Positions {
            k: self.k,
            rows: self.rows,
            width,
            output: self.output.clone(),
            npy,
            method,
            backend,
            json: self.json,
            run,
        })
    }
}

impl Request for Positions {
    fn outputs(&self) -> Outputs<'_> {
        // With `-o -` the list takes standard output and the report goes to standard error.
        let o = if self.output.as_os_str() != "-" { Outputs::default() } else { Outputs::no_report() };
        o.file("--output", &self.output)
    }

    fn need(&self) -> Option<Need> {
        Some(match self.backend {
            // Over MPI ranks the library refuses the run before it needs anything.
            Backend::Cpu(_) | Backend::Mpi(_) => {
                positions_need(self.method, self.rows, self.width, self.run.engine.threads, 0)
            }
            Backend::Gpu(_) => positions_need_gpu(self.k, self.rows, self.width),
        })
    }

    /// Lists the P-positions as CSV and prints the report.
    fn run(self, ctx: &Context) -> Result<ExitCode> {
        let mut out = AtomicOutput::create_cancellable(&self.output, "--output", &ctx.cancel)?;
        if self.npy && out.in_place() {
            return Err(Error::Usage(format!(
                "--output {}: a .npy list is finished by rewriting its header (the count), which a pipe cannot take; write CSV there, or name a regular file",
                self.output.display()
            )));
        }
        let pb = match self.backend {
            Backend::Cpu(_) | Backend::Mpi(_) => progress::bar(self.run.quiet, "positions", "rows"),
            Backend::Gpu(_) => progress::bar(self.run.quiet, "positions (GPU)", "tile-diagonals"),
        };
        let (report, gpu_run) = self.list(out.file(), &pb)?;
        pb.finish_and_clear();
        if let Some(g) = &gpu_run {
            gpu_summary(&self.run, g);
        }
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
    ) -> Result<(positions::PositionsReport, Option<GpuRun>)> {
        use palace::output::npy::header_of;
        use std::io::{Seek, SeekFrom};
        let shown = self.output.display().to_string();
        let io = |e| palace::Error::io(&shown, e);
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
            let r = palace::backend::positions(
                &self.backend,
                self.k,
                self.rows,
                Some(self.width),
                self.method,
                &mut emit,
                pb,
                &self.run.engine.cancel,
            )?;
            w.flush().map_err(io)?;
            r
        };
        let (r, gpu_run) = r;
        if self.npy {
            let counted = header_of("<i8", r.positions, 2, header.len());
            debug_assert_eq!(counted.len(), header.len());
            file.seek(SeekFrom::Start(0)).and_then(|_| file.write_all(&counted)).map_err(io)?;
        }
        Ok((r, gpu_run))
    }
}
