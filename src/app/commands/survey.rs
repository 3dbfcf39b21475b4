//! `palace survey`: a range of k on boards of the same relative size, one CSV row per k
//! (docs/survey.md), its plot and its summary.

use crate::app::error::{Error, Result};
use crate::app::flags::{BackendArg, RunArgs, RunConfig, backend, parse_k};
use crate::app::memory::Need;
use crate::app::outputs::{Outputs, open, write_into};
use crate::app::print::{ExitCode, out_text, print_report};
use crate::app::progress;
use crate::app::request::{Context, Request};
use clap::Args;
use palace::analysis::survey::SurveyOptions;
use palace::backend::Backend;
use palace::model::geometry::MAX_SIDE;
use std::path::PathBuf;

/// `palace survey`.
#[derive(Debug, Args)]
pub struct SurveyArgs {
    /// The range of k, A..B (both included).
    #[arg(long, value_name = "A..B", value_parser = parse_k_range)]
    pub k: (u32, u32),
    /// Every S-th k from A.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub step: u32,
    /// The board of game k is (F k) x (F k).
    #[arg(long, value_name = "F", default_value_t = 3)]
    pub size_factor: u32,
    /// Write the CSV here (default: standard output; with -o the summary goes to stdout).
    #[arg(long, short, value_name = "FILE.csv")]
    pub output: Option<PathBuf>,
    /// Plot the columns against k to this PNG.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Leave the skin out (its columns empty): faster.
    #[arg(long)]
    pub no_skin: bool,
    /// Label the hottest cell's surroundings and follow the skin only for every D-th k from A
    /// (the costly columns; the others stay empty in the rows between).
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub detail_step: u32,
    /// Print the summary as JSON (with -o).
    #[arg(long, requires = "output")]
    pub json: bool,
    /// Where the boards are swept: `cpu`, or `gpu` (compute shaders on a Vulkan, Metal or
    /// DirectX 12 adapter; a build with `--features gpu`). Both give the same CSV. On the GPU
    /// each board is tallied and its diagonal and hottest tiles are sent back, and the skin
    /// follows on the GPU; the labels around the hottest cell stay on the CPU threads.
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
    pub backend: BackendArg,
    /// GPU tile shape LANESxROWSxWIDTH, rows a multiple of 4 (tuning).
    #[arg(long, value_name = "LxRxW", hide = true)]
    pub gpu_shape: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--size-factor` of `survey`.
pub const MAX_SIZE_FACTOR: u32 = 64;

/// Parses `A..B` (or a single `A`).
fn parse_k_range(s: &str) -> std::result::Result<(u32, u32), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let (a, b) = (parse_k(a)?, parse_k(b.trim_start_matches('=')).map_err(|e| e.to_string())?);
    if a == 0 || a > b {
        return Err(format!("{s:?}: use A..B with 1 <= A <= B"));
    }
    Ok((a, b))
}

/// Validates and runs `palace survey`.
pub fn run(a: SurveyArgs, ctx: &Context) -> Result<ExitCode> {
    let (from, to) = a.k;
    if a.step == 0 || a.detail_step == 0 {
        let flag = if a.step == 0 { "--step" } else { "--detail-step" };
        return Err(Error::Usage(format!("{flag} 0: use {flag} 1 or more")));
    }
    if a.size_factor == 0 || a.size_factor > MAX_SIZE_FACTOR {
        return Err(Error::Usage(format!("--size-factor {}: use 1..={MAX_SIZE_FACTOR}", a.size_factor)));
    }
    let side = u64::from(to) * u64::from(a.size_factor);
    if side + 1 > u64::from(MAX_SIDE) || u64::from(to) + 3 > u64::from(palace::model::rule::MAX_K) {
        return Err(Error::Usage(format!(
            "--k {from}..{to} --size-factor {}: the board F k (and game k + 3) must stay within 2^30 sides and k <= {}; use a smaller B",
            a.size_factor,
            palace::model::rule::MAX_K - 3
        )));
    }
    let run = a.run.resolve(&ctx.cancel)?;
    let backend = backend(a.backend, a.gpu_shape.as_deref(), &run.engine, ctx.world.as_ref())?;
    let min_k = palace::analysis::skin::MIN_K;
    if from < min_k && !a.no_skin && !a.run.quiet {
        eprintln!("palace: note: games k < {min_k} have no arm, so no skin: their skin columns stay empty");
    }
    ctx.run(Survey {
        survey: SurveyOptions {
            from,
            to,
            step: a.step,
            factor: a.size_factor,
            skin: !a.no_skin,
            detail_step: a.detail_step,
        },
        output: a.output,
        plot: a.plot,
        json: a.json,
        backend,
        run,
    })
}

/// A validated `palace survey`.
struct Survey {
    /// The range, step, board factor.
    survey: SurveyOptions,
    /// The CSV (`None`: the CSV goes to stdout).
    output: Option<PathBuf>,
    plot: Option<PathBuf>,
    /// The summary as JSON.
    json: bool,
    /// Where the boards are swept.
    backend: Backend,
    /// Engine settings (`threads`: how many k at once, and threads per k beyond that).
    run: RunConfig,
}

impl Request for Survey {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref()).maybe("--plot", self.plot.as_deref())
    }

    fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Work, footprint};
        let survey = &self.survey;
        // One board per worker at once, each on its share of the threads: the largest k's
        // board labelled, and its skin followed past the shoulder.
        let (boards, each) =
            palace::analysis::survey::boards_at_once(self.run.engine.threads, survey.ks().len());
        let side = u64::from(survey.to) * u64::from(survey.factor);
        let mut one = footprint(Work::Regions, side, each);
        if survey.skin {
            let skin_to = u64::from(survey.to) + palace::analysis::survey::SKIN_SPANS[2];
            one = one.plus(footprint(Work::Skin { pattern: false }, skin_to, each));
        }
        Some(Need {
            footprint: one.times(boards as u64),
            what: format!("--k ..{} --size-factor {} ({boards} boards at once)", survey.to, survey.factor),
            fix: "use a smaller B or --size-factor, or fewer --threads",
        })
    }

    /// `palace survey`: the rows, the CSV (atomically, or on stdout), the plot and the summary.
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let Survey { survey: so, output, plot, json, backend, run } = self;
        let (so, run) = (&so, &run);
        use palace::analysis::survey as sv;
        let csv_out =
            output.as_deref().map(|p| open(p, "--output", "csv", &run.engine.cancel)).transpose()?;
        let plot_out = plot.as_deref().map(|p| open(p, "--plot", "png", &run.engine.cancel)).transpose()?;
        let pb = progress::bar(run.quiet, "survey", "k");
        let rows = palace::backend::survey(&backend, so, run.engine.threads, &run.engine, &pb)?;
        pb.finish_and_clear();
        let summary = sv::summarise(&rows, so.factor);
        match csv_out {
            Some(mut o) => {
                write_into(&mut o, |f| sv::write_csv(&rows, f))?;
                o.commit()?;
            }
            None => {
                let mut text = Vec::new();
                sv::write_csv(&rows, &mut text).expect("writing to memory");
                out_text(String::from_utf8_lossy(&text).trim_end())?;
            }
        }
        if let Some(o) = plot_out {
            sv::plot(&rows, o)?;
        }
        if output.is_some() || json {
            print_report(json, &summary)?;
        } else if !run.quiet {
            eprint!("{summary}");
        }
        Ok(0)
    }
}
