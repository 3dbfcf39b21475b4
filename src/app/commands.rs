//! What each command does, given a validated [`Config`]: open the output, build the sink, run
//! the sweep, finish the output, report. The binary calls [`run`] and turns its result into
//! an exit code.

use crate::app::bench;
use crate::app::cli::{Config, RunConfig};
use crate::app::print::{ExitCode, out_text};
use crate::app::progress;
use palace::analysis::beams;
use palace::analysis::check;
use palace::analysis::compare;
use palace::analysis::fabric;
use palace::analysis::gliders;
use palace::analysis::grid;
use palace::analysis::grid_plot;
use palace::analysis::regions;
use palace::analysis::skin;
use palace::analysis::stats;
use palace::analysis::threads;
use palace::engine::{Cancel, EngineOptions, Progress, Silent, Sweep, SweepReport};
use palace::error::Result;
use palace::games::watch::Watch;
use palace::output::atomic::{AtomicDir, AtomicOutput};
use palace::output::dzi::{self, DziWriter};
use palace::output::npy::NpyWriter;
use palace::output::png::{PngWriter, picture_size};

/// Runs a validated request; cancelling `cancel` stops it with
/// [`Error::Interrupted`](palace::error::Error::Interrupted).
pub fn run(mut config: Config, cancel: &Cancel) -> Result<ExitCode> {
    palace::simd::cpu::check_env()?;
    if let Some(run) = config.run_mut() {
        run.engine.cancel = cancel.clone();
    }
    match config {
        Config::Render { board, window, png, output, run } => {
            let out = open(&output, "--output", "png", cancel)?;
            let mut writer = PngWriter::create(out, board.k, window, png)?;
            let pb = progress::bar(run.quiet, "render", "rows");
            let report = Sweep::new(board.k, window).options(&run.engine).progress(&pb).rows(&mut writer)?;
            let (fw, fh) = writer.size();
            let path = writer.finish()?;
            pb.finish_and_clear();
            let (w, h) = picture_size(window, png.scale);
            let (w, h) = (w * png.zoom, h * png.zoom);
            let what = if png.legend {
                format!("{fw} x {fh} pixels: the picture, {w} x {h}, and its legend below")
            } else {
                format!("{w} x {h} pixels")
            };
            summary(&run, &format!("wrote {} ({what})", path.display()), &report);
            Ok(0)
        }
        Config::Tiles { board, window, tiles, output, run } => {
            let out = AtomicDir::create(&output, "--output", dzi::DZI_NAME)?;
            let mut writer = DziWriter::create(out, board.k, window, tiles)?;
            let pyramid = writer.pyramid();
            let pb = progress::bar(run.quiet, "tiles", "rows");
            let report = Sweep::new(board.k, window).options(&run.engine).progress(&pb).rows(&mut writer)?;
            let (path, made) = writer.finish()?;
            pb.finish_and_clear();
            let page =
                std::path::absolute(path.join("index.html")).unwrap_or_else(|_| path.join("index.html"));
            let msg = format!(
                "wrote {}: {} x {} pixels at the deepest level, {} levels, {} tiles of {} pixels ({} of one colour), {:.1} MiB",
                path.display(),
                pyramid.width,
                pyramid.height,
                made.levels,
                made.tiles,
                pyramid.tile_size,
                made.uniform_tiles,
                made.bytes as f64 / f64::from(1 << 20)
            );
            summary(&run, &msg, &report);
            // Where to point the browser goes to stdout, even with --quiet.
            out_text(&format!("open file://{} in a browser", page.display()))?;
            Ok(0)
        }
        Config::Dump { board, window, values, output, run } => {
            let out = open(&output, "--output", "npy", cancel)?;
            let mut writer = NpyWriter::create(out, window, values)?.with_cancel(cancel.clone());
            let pb = progress::bar(run.quiet, "dump", "rows");
            let report = Sweep::new(board.k, window).options(&run.engine).progress(&pb).rows(&mut writer)?;
            let path = writer.finish()?;
            pb.finish_and_clear();
            let msg = format!(
                "wrote {} (int32, shape ({}, {}), {:?} values)",
                path.display(),
                window.height(),
                window.width(),
                values
            );
            summary(&run, &msg, &report);
            Ok(0)
        }
        Config::GpuInfo { json } => crate::app::gpu::info(json),
        #[cfg(feature = "gpu")]
        Config::BenchGpu { k, size, repeat, json, run } => {
            crate::app::gpu::bench(k, size, repeat, json, &run)
        }
        #[cfg(not(feature = "gpu"))]
        Config::BenchGpu { .. } => unreachable!("refused without the feature"),
        Config::Positions(p) => p.run(cancel),
        Config::Cell(c) => c.run(),
        Config::Branches(b) => b.run(cancel),
        #[cfg(feature = "gpu")]
        Config::Stats {
            board,
            window,
            palaces_only,
            backend: crate::app::cli::Backend::Gpu(shape),
            json,
            run,
            ..
        } => crate::app::gpu::stats(board.k, window, palaces_only, shape, json, &run, cancel),
        Config::Stats { board, window, palaces_only: true, checkpoint, resume, json, run, .. } => {
            let pb = progress::bar(run.quiet, "palaces", "rows");
            let tag = format!("stats --palaces-only k={} {}x{}", board.k, window.x1, window.y1);
            let c = Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag };
            let (count, report) = palaces_resumable(board.k, window, &c, &run, cancel, &pb)?;
            pb.finish_and_clear();
            print_with_engine(json, "palaces", &count, &run, &report)?;
            Ok(0)
        }
        Config::Stats { board, window, by_counters, checkpoint, resume, json, run, .. } => {
            let pb = progress::bar(run.quiet, "stats", "rows");
            // The form is in the tag: the two sweeps' frontiers differ.
            let tag = format!(
                "stats k={} {}x{} window {},{},{},{}{}",
                board.k,
                board.width,
                board.height,
                window.x0,
                window.y0,
                window.x1,
                window.y1,
                if by_counters { " by counters" } else { "" }
            );
            let c = Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag };
            let (stats, report) = stats_resumable(board.k, window, by_counters, &c, &run, cancel, &pb)?;
            pb.finish_and_clear();
            print_with_engine(json, "stats", &stats, &run, &report)?;
            Ok(0)
        }
        Config::Compare {
            window,
            comparison: c,
            json,
            search_shift: Some(radius),
            centre,
            search_region,
            run,
            ..
        } => {
            let pb = progress::bar(run.quiet, "compare --search-shift", "rows");
            let only = search_region.as_deref();
            let report = palace::analysis::shift_search::search(
                c.a,
                c.b,
                window,
                centre,
                radius,
                only,
                &run.engine,
                &pb,
            )?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            Ok(0)
        }
        Config::Compare { window, comparison: c, json, region_search: Some(radius), run, .. } => {
            let pb = progress::bar(run.quiet, "compare --region-search", "rows");
            let report = palace::analysis::region_search::search(c, window, radius, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            Ok(0)
        }
        Config::Compare { window, comparison, output, scale, json, run, reference, legend, .. } => {
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let out = out.map(|o| palace::output::legend::MapOutput::new(o, legend));
            let pb = progress::bar(run.quiet, "compare", "rows");
            let go = if reference { compare::run_reference } else { compare::run };
            let (report, path) = go(comparison, window, scale, out, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Regions { board, window, output, scale, json, run, reference, legend } => {
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let out = out.map(|o| palace::output::legend::MapOutput::new(o, legend));
            let pb = progress::bar(run.quiet, "regions", "rows");
            let go = if reference { regions::run_reference } else { regions::run };
            let (report, path) = go(board.k, window, scale, out, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Fabric { k, size, output, json, run, reference } => {
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let pb = progress::bar(run.quiet, "fabric", "rows");
            let go = if reference { fabric::run_reference } else { fabric::run };
            let (report, path) = go(k, size, out, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Skin { k, to, csv, plot, json, rows, pattern, checkpoint, resume, run } => {
            // Check the output paths before the sweep.
            let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
            let plot_out = plot.as_deref().map(|p| open(p, "--plot", "png", cancel)).transpose()?;
            let (report, cols, engine) = if rows {
                let pb = progress::bar(run.quiet, "skin (row sweep)", "rows");
                let r = skin::follow_rows_with(k, to, pattern, &run.engine, &pb)?;
                pb.finish_and_clear();
                r
            } else {
                let pb = progress::cells_bar(run.quiet, "skin");
                let f = skin::Follower::new(k, to, &run.engine, &pb)?;
                let f = if pattern { f.with_patterns() } else { f };
                let c = Checkpointing { save: checkpoint.as_ref(), resume: resume.as_deref(), tag: f.tag() };
                let engine = resumable(
                    &c,
                    f.height(),
                    cancel,
                    &mut |bytes, _| f.restore(bytes),
                    &|| f.encode(),
                    &mut |start, pause| f.segment(start, pause),
                )?;
                pb.finish_and_clear();
                let (report, cols) = f.finish()?;
                (report, cols, engine)
            };
            summary(&run, "", &engine);
            if let Some(mut o) = csv_out {
                let path = o.path().to_path_buf();
                skin::write_csv(&cols, o.file()).map_err(|e| palace::error::Error::io(&path, e))?;
                o.commit()?;
            }
            if let Some(o) = plot_out {
                skin::plot(&report, &cols, o)?;
            }
            print_report(json, &report)?;
            Ok(0)
        }
        Config::Bench { k, size, threads, kernel, repeat, png_dir, analyses, json, quiet } => {
            let report = {
                let engine = EngineOptions { kernel, cancel: cancel.clone(), ..EngineOptions::default() };
                let parts = bench::Parts { png_dir: png_dir.as_deref(), analyses };
                bench::run(k, size, &engine, &threads, repeat, parts, quiet)?
            };
            print_report(json, &report)?;
            Ok(0)
        }
        Config::FibonacciNim { to, grundy, output, check, json, run } => {
            in_pool(&run, || fibonacci_nim(to as usize, grundy, output.as_deref(), check, json, &run))
        }
        Config::Zeckendorf { to, hole, census, check, json, run } => {
            in_pool(&run, || zeckendorf(to, hole, census, check, json, &run))
        }
        Config::ZeckendorfPositions { hole, max_value, output, json, run } => {
            in_pool(&run, || zeckendorf_positions(hole, max_value, output.as_deref(), json, &run))
        }
        Config::Subtraction { to, sets, output, row_length, period_bound, check, json, run } => {
            in_pool(&run, || {
                subtraction(to, &sets, output.as_deref(), row_length, period_bound, check, json, &run)
            })
        }
        Config::FraenkelArray { rows, columns, json, csv, plot, table, run } => {
            in_pool(&run, || fraenkel_array(rows, columns, json, csv, plot.as_deref(), table, &run))
        }
        Config::FraenkelCheck { to, json, run } => in_pool(&run, || fraenkel_check(to, json, &run)),
        Config::FraenkelU { numbers, json, .. } => fraenkel_u(&numbers, json),
        Config::Frankenstein { squares, type2, bound, check, max_sum, json, run } => {
            in_pool(&run, || frankenstein(squares, type2, bound, check, max_sum, json, &run))
        }
        Config::Threads { board, window, csv, output, scale, reach, json, run, legend } => {
            let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let pb = progress::bar(run.quiet, "threads", "rows");
            let (traced, picture) =
                threads::run(board.k, window, reach, scale, out, legend, &run.engine, &pb)?;
            // Measuring takes seconds on a large window and heeds the signals too; the outputs
            // are committed only once everything is computed.
            pb.message("measuring the threads");
            let csv = match csv_out {
                Some(mut o) => {
                    let summaries = threads::summaries(&traced, cancel)?;
                    let p = o.path().to_path_buf();
                    threads::write_csv(&traced, &summaries, std::io::BufWriter::new(o.file()))
                        .map_err(|e| palace::error::Error::io(&p, e))?;
                    Some(o)
                }
                None => None,
            };
            let report = threads::ThreadsReport::new(board.k, window, reach, &traced, cancel)?;
            pb.finish_and_clear();
            csv.map(AtomicOutput::commit).transpose()?;
            let path = picture.map(AtomicOutput::commit).transpose()?;
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Beams { board, window, params, csv, output, scale, json, run, legend } => {
            let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let pb = progress::bar(run.quiet, "beams", "rows");
            let (found, picture) = beams::run(board.k, window, params, scale, out, legend, &run.engine, &pb)?;
            // Measuring takes seconds on a large window and heeds the signals too; the outputs
            // are committed only once everything is computed.
            pb.message("measuring the beams");
            let csv = match csv_out {
                Some(mut o) => {
                    let p = o.path().to_path_buf();
                    beams::write_csv(&found, std::io::BufWriter::new(o.file()))
                        .map_err(|e| palace::error::Error::io(&p, e))?;
                    Some(o)
                }
                None => None,
            };
            let report = beams::BeamsReport::new(board.k, window, params, &found, cancel)?;
            pb.finish_and_clear();
            csv.map(AtomicOutput::commit).transpose()?;
            let path = picture.map(AtomicOutput::commit).transpose()?;
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Check { max_k, max_size, wythoff_size, json, run } => {
            let pb = progress::bar(run.quiet, "check", "boards");
            let report = check::run(max_k, max_size, wythoff_size, &run.engine, &pb)?;
            pb.finish_and_clear();
            print_report(json, &report)?;
            Ok(if report.mismatch.is_some() { 1 } else { 0 })
        }
        Config::Survey { survey: so, output, plot, json, run } => survey(&so, output, plot, json, &run),
        Config::Gliders { board, window, params, csv, output, scale, json, run, legend } => {
            let csv_out = csv.as_deref().map(|p| open(p, "--csv", "csv", cancel)).transpose()?;
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let pb = progress::bar(run.quiet, "gliders", "rows");
            let (report, picture) =
                gliders::run(board.k, window, &params, out.map(|o| (o, scale, legend)), &run.engine, &pb)?;
            pb.finish_and_clear();
            if let Some(mut o) = csv_out {
                let p = o.path().to_path_buf();
                gliders::write_csv(&report, std::io::BufWriter::new(o.file()))
                    .map_err(|e| palace::error::Error::io(&p, e))?;
                o.commit()?;
            }
            let path = picture.map(AtomicOutput::commit).transpose()?;
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
        Config::Grid { k, side, reach, at, output, json, run } => {
            let out = output.as_deref().map(|p| open(p, "--output", "png", cancel)).transpose()?;
            let pb = progress::bar(run.quiet, "grid", "rows");
            let (report, maps) = grid::run(k, side, reach, &at, &run.engine, &pb)?;
            let path = match out {
                Some(o) => {
                    let path = o.path().to_path_buf();
                    grid_plot::draw(&report, &maps, o)?;
                    Some(path)
                }
                None => None,
            };
            pb.finish_and_clear();
            print_report(json, &report)?;
            wrote(path, run.quiet);
            Ok(0)
        }
    }
}

/// `palace survey`: the rows, the CSV (atomically, or on stdout), the plot and the summary.
fn survey(
    so: &palace::analysis::survey::SurveyOptions,
    output: Option<std::path::PathBuf>,
    plot: Option<std::path::PathBuf>,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::analysis::survey as sv;
    let csv_out = output.as_deref().map(|p| open(p, "--output", "csv", &run.engine.cancel)).transpose()?;
    let plot_out = plot.as_deref().map(|p| open(p, "--plot", "png", &run.engine.cancel)).transpose()?;
    let pb = progress::bar(run.quiet, "survey", "k");
    let rows = sv::survey(so, run.engine.threads, &run.engine, &pb)?;
    pb.finish_and_clear();
    let summary = sv::summarise(&rows, so.factor);
    match csv_out {
        Some(mut o) => {
            let path = o.path().to_path_buf();
            sv::write_csv(&rows, o.file()).map_err(|e| palace::error::Error::io(&path, e))?;
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

/// Opens an output before any computing (see [`AtomicOutput::create`]) and warns when the
/// file's name promises another format than the `ext` it will hold.
fn open(path: &std::path::Path, flag: &str, ext: &str, cancel: &Cancel) -> Result<AtomicOutput> {
    let out = AtomicOutput::create_cancellable(path, flag, cancel)?;
    if !out.in_place() {
        let given = path.extension().map(|e| e.to_string_lossy().to_lowercase());
        if given.as_deref() != Some(ext) {
            eprintln!(
                "palace: warning: {flag} {}: the file will hold {} data whatever its name; name it .{ext} to say so",
                path.display(),
                ext.to_uppercase()
            );
        }
    }
    Ok(out)
}

/// Prints a command's report, as JSON or as its table.
fn print_report<R: serde::Serialize + std::fmt::Display>(json: bool, report: &R) -> Result<()> {
    if json {
        out_text(&serde_json::to_string_pretty(report).expect("serialisable"))
    } else {
        out_text(&report.to_string())
    }
}

/// Prints an analysis's result: as JSON `{key: result, "engine": report}`, or as its table with
/// the engine's summary on stderr.
fn print_with_engine<R: serde::Serialize + std::fmt::Display>(
    json: bool,
    key: &str,
    result: &R,
    run: &RunConfig,
    report: &SweepReport,
) -> Result<()> {
    if json {
        let v = serde_json::json!({ key: result, "engine": report });
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))
    } else {
        out_text(&result.to_string())?;
        summary(run, "", report);
        Ok(())
    }
}

/// Says which picture was written, unless `--quiet`.
fn wrote(path: Option<std::path::PathBuf>, quiet: bool) {
    if let Some(p) = path
        && !quiet
    {
        eprintln!("wrote {}", p.display());
    }
}

/// One line on stderr about what the engine did, unless `--quiet`.
fn summary(run: &RunConfig, what: &str, r: &SweepReport) {
    if run.quiet {
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
}

/// Where a checkpointed run saves and resumes.
struct Checkpointing<'a> {
    /// The file and the time between saves.
    save: Option<&'a (std::path::PathBuf, std::time::Duration)>,
    /// The checkpoint to continue from.
    resume: Option<&'a std::path::Path>,
    /// Names the run (command, game, board).
    tag: String,
}

/// Takes a resumed checkpoint's state, given its frontier; says why not if the state is not
/// one this run can have reached by that frontier.
type Restore<'a> =
    dyn FnMut(&[u8], &palace::engine::checkpoint::Frontier) -> std::result::Result<(), String> + 'a;

/// One segment of a checkpointed sweep: from a frontier (or the top) until the pause test says
/// stop; returns its report and the frontier where it stopped (none when the sweep is done).
type Segment<'a> = dyn FnMut(
        Option<&palace::engine::checkpoint::Frontier>,
        &(dyn Fn() -> bool + Sync),
    ) -> Result<(palace::engine::SweepReport, Option<palace::engine::checkpoint::Frontier>)>
    + 'a;

/// Runs a sweep in segments: each segment pauses at `save`'s interval or when the run is
/// interrupted, then the frontier and the analysis's state (`state`) go to the checkpoint; a
/// run resumed from one starts with its state (`restore`) and frontier. Returns the segments'
/// report, summed.
fn resumable(
    c: &Checkpointing<'_>,
    height: u32,
    cancel: &palace::engine::Cancel,
    restore: &mut Restore<'_>,
    state: &dyn Fn() -> Vec<u8>,
    segment: &mut Segment<'_>,
) -> Result<palace::engine::SweepReport> {
    use palace::engine::checkpoint::{self as cp, Checkpoint};
    use std::time::Instant;
    let mut frontier = None;
    // The file at `--checkpoint` is this run's to remove when it finishes only if the run
    // resumed from it or wrote it (the command line refused any other file there).
    let mut owned = c.resume.zip(c.save).is_some_and(|(r, (s, _))| cp::same_file(r, s));
    if let Some(path) = c.resume {
        let bytes = std::fs::read(path).map_err(|e| palace::Error::io(path, e))?;
        let saved = Checkpoint::decode(&bytes, &c.tag, path)?;
        // The checksum says the file is as written, not that what was written is possible.
        if let Err(why) = restore(&saved.state, &saved.frontier) {
            return Err(palace::Error::BadInput {
                path: path.to_path_buf(),
                reason: format!(
                    "the checkpoint's state is impossible for this run ({why}); start the run again without --resume"
                ),
            });
        }
        frontier = Some(saved.frontier);
    }
    let mut total: Option<palace::engine::SweepReport> = None;
    loop {
        let deadline = c.save.map(|(_, every)| Instant::now() + *every);
        let pause = || cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
        let (report, next) = segment(frontier.as_ref(), &pause)?;
        total = Some(match total {
            None => report,
            Some(t) => t.then(report),
        });
        let Some(f) = next else { break };
        let rows = f.rows_done();
        if let Some((path, _)) = c.save {
            let saved = Checkpoint { tag: c.tag.clone(), frontier: f, state: state() };
            palace::output::checkpoint::write(path, "--checkpoint", &saved)?;
            owned = true;
            if cancel.is_cancelled() {
                return Err(palace::Error::Paused { path: path.clone(), rows, height });
            }
            frontier = Some(saved.frontier);
        } else if cancel.is_cancelled() {
            return Err(palace::Error::Interrupted);
        } else {
            frontier = Some(f);
        }
    }
    if let Some((path, _)) = c.save.filter(|_| owned) {
        // The run is finished: a checkpoint left behind would only mislead.
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(palace::Error::io(path, e)),
        }
    }
    Ok(total.expect("at least one segment"))
}

/// `stats --palaces-only`, checkpointed (see [`resumable`]).
fn palaces_resumable(
    k: u32,
    window: palace::model::geometry::Window,
    c: &Checkpointing<'_>,
    run: &RunConfig,
    cancel: &palace::engine::Cancel,
    progress: &dyn palace::engine::Progress,
) -> Result<(stats::PalaceCount, palace::engine::SweepReport)> {
    let (w, h) = (window.x1, window.y1);
    let sum = stats::PalaceSum::default();
    let report = resumable(
        c,
        h,
        cancel,
        &mut |bytes, frontier| {
            let n = u64::from_le_bytes(bytes.try_into().map_err(|_| "it is not a palace count")?);
            let cells = u64::from(w) * u64::from(frontier.rows_done());
            if n > cells {
                return Err(format!("{n} palaces in the {cells} cells of the rows done"));
            }
            sum.set(n);
            Ok(())
        },
        &|| sum.total().to_le_bytes().to_vec(),
        &mut |start, pause| {
            palace::engine::Sweep::new(k, palace::Window::new(0, 0, w, h))
                .options(&run.engine)
                .progress(progress)
                .resume(start)
                .pause_when(pause)
                .palaces_pausable(&sum)
        },
    )?;
    let cells = u64::from(w) * u64::from(h);
    Ok((stats::PalaceCount { k, width: w, height: h, cells, palaces: sum.total() }, report))
}

/// `stats`, checkpointed (see [`resumable`]): by a counter sweep of the window (which then
/// starts at the corner) or by the CA's sweep.
fn stats_resumable(
    k: u32,
    window: palace::model::geometry::Window,
    by_counters: bool,
    c: &Checkpointing<'_>,
    run: &RunConfig,
    cancel: &palace::engine::Cancel,
    progress: &dyn palace::engine::Progress,
) -> Result<(stats::Stats, palace::engine::SweepReport)> {
    let visitor = stats::StatsVisitor::new(k, run.engine.resolved_threads());
    let report = resumable(
        c,
        window.y1,
        cancel,
        &mut |bytes, frontier| visitor.restore(bytes, window, frontier.rows_done()),
        &|| visitor.encode(),
        &mut |start, pause| {
            if by_counters {
                let (w, h) = (window.x1, window.y1);
                palace::engine::Sweep::new(k, palace::Window::new(0, 0, w, h))
                    .options(&run.engine)
                    .progress(progress)
                    .resume(start)
                    .pause_when(pause)
                    .palaces_pausable(&visitor)
            } else {
                palace::engine::Sweep::new(k, window)
                    .options(&run.engine)
                    .progress(progress)
                    .resume(start)
                    .pause_when(pause)
                    .tiles_pausable(&visitor)
            }
        },
    )?;
    Ok((visitor.finish(window), report))
}

/// Runs a game's command on a worker pool of `--threads` threads (every core by default): the
/// games' parallel solvers use the pool they run in.
fn in_pool(run: &RunConfig, f: impl FnOnce() -> Result<ExitCode> + Send) -> Result<ExitCode> {
    let threads = run.engine.resolved_threads();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| palace::error::Error::ThreadPool { threads, source })?
        .install(f)
}

/// A game's progress bar counting `unit` (hidden with `--quiet` or when stderr is not a
/// terminal).
fn game_bar(run: &RunConfig, message: &str, unit: &str) -> progress::Bar {
    progress::bar(run.quiet, message, unit)
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

/// `game zeckendorf` (no `--positions`): the winner for every n, with the search's figures,
/// or the checks of the black-hole paper.
fn zeckendorf(
    to: u64,
    hole: Option<usize>,
    census: bool,
    check: bool,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::{claims, zeckendorf as z};
    use std::fmt::Write as _;
    let start = std::time::Instant::now();
    let cancel = &run.engine.cancel;
    let Some(m) = hole else {
        let pb = game_bar(run, "zeckendorf", "piles");
        let rows = z::original_range_watched(to, census, &Watch::new(cancel, &pb))?;
        pb.finish_and_clear();
        let secs = start.elapsed().as_secs_f64();
        if check {
            let list = claims::original(&rows);
            print_claims(&list, json)?;
            return Ok(0);
        }
        let winners: String = rows.iter().map(|r| char::from(b'0' + r.winner)).collect();
        if json {
            out_text(&serde_json::json!({ "winners": winners }).to_string())?;
        } else {
            let mut s = String::from(
                "    n  winner   positions      solved  P-positions  seconds  memo bytes  Player 2's winning replies to the opening merge\n",
            );
            for r in &rows {
                let p = r.p_positions.map_or("-".to_string(), |p| p.to_string());
                let _ = writeln!(
                    s,
                    "{:>5}  {:>6}  {:>10}  {:>10}  {:>11}  {:>7.3}  {:>10}  {}",
                    r.n,
                    r.winner,
                    r.positions,
                    r.solved,
                    p,
                    r.seconds,
                    r.memo_bytes,
                    r.winning_replies.join(" ")
                );
            }
            let _ = writeln!(s, "winners: {winners}\n{secs:.2} s in all");
            out_text(&s)?;
        }
        return Ok(0);
    };
    // The F_4 checks look at listed positions of value up to 47 (Theorem 5.19's tables), so
    // they run over at least n = 1..64.
    let to = if check && m == 4 { to.max(64) } else { to };
    let pb = game_bar(run, &format!("zeckendorf F_{m}"), "piles");
    let mut e = z::empty_board_watched(m, to, &Watch::new(cancel, &pb))?;
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if check {
        let list = claims::black_hole_watched(&mut e, to, &Watch::new(cancel, &Silent))?;
        print_claims(&list, json)?;
        return Ok(0);
    }
    let winners: String = e.winners.iter().map(|&w| char::from(b'0' + w)).collect();
    if json {
        out_text(&serde_json::json!({ "winners": winners }).to_string())?;
    } else {
        let mut s = format!(
            "empty-board black-hole game on F_{m}, n = 1..{to} (character i: the winner for n = i + 1)\n"
        );
        for (i, chunk) in winners.as_bytes().chunks(60).enumerate() {
            let _ = writeln!(s, "{:>6}  {}", i * 60 + 1, std::str::from_utf8(chunk).expect("ascii"));
        }
        let ones = e.winners.iter().filter(|&&w| w == 1).count();
        let _ = writeln!(s, "Player 1 wins {ones} of {to}, Player 2 {}", to as usize - ones);
        match claims::eventual_period(&e.winners) {
            Some((p, start)) => {
                let _ = writeln!(
                    s,
                    "observed: the winners repeat with period {p} from n = {} on (seen {} times up to {to})",
                    start + 1,
                    (to as usize - start) / p
                );
            }
            None => {
                let _ = writeln!(s, "observed: no period seen three times up to {to}");
            }
        }
        let _ = writeln!(
            s,
            "positions solved {} of {} (value <= {to}), memo {} MiB, {secs:.2} s",
            e.solver.solved(),
            e.solver.space().len(),
            e.solver.bytes() >> 20
        );
        out_text(&s)?;
    }
    Ok(0)
}

/// Prints the checks of a text as a table or JSON.
fn print_claims(list: &[palace::games::claims::Claim], json: bool) -> Result<()> {
    if json {
        out_text(&serde_json::to_string_pretty(list).expect("serialisable"))
    } else {
        out_text(&palace::games::claims::table(list))
    }
}

/// `game zeckendorf --positions`: P or N for every position of value `<= max_value`.
fn zeckendorf_positions(
    m: usize,
    max_value: u64,
    output: Option<&std::path::Path>,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::engine::Progress;
    use palace::games::{plot, zeckendorf as z};
    let out =
        output.map(|p| AtomicOutput::create_cancellable(p, "--output", &run.engine.cancel)).transpose()?;
    let pb = game_bar(run, &format!("positions of F_{m}"), "values");
    pb.set_length(max_value + 1);
    let watch = Watch::new(&run.engine.cancel, &Silent);
    let mut stopped = Ok(());
    let mut s = z::Solver::new(z::Rules::black_hole(m), 0, max_value);
    let space = s.space().clone();
    let cols = m - 1;
    let (mut p, mut n) = (0u64, 0u64);
    let mut csv = String::new();
    let to_stdout = out.is_none() && !json;
    for v in 0..=max_value {
        space.for_each_of_value(v, &mut |pos| {
            if stopped.is_err() {
                return;
            }
            let won = match s.wins_watched(pos, &watch) {
                Ok(won) => won,
                Err(e) => {
                    stopped = Err(e);
                    return;
                }
            };
            if won {
                n += 1
            } else {
                p += 1
            }
            if to_stdout {
                let counts: Vec<String> = pos[..cols].iter().map(u32::to_string).collect();
                csv.push_str(&format!("{},{v},{}\n", counts.join(","), if won { "N" } else { "P" }));
            }
        });
        std::mem::replace(&mut stopped, Ok(()))?;
        pb.set_position(v + 1);
    }
    pb.finish_and_clear();
    if let Some(out) = out {
        let path = out.path().to_path_buf();
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            plot::positions_picture(m, &mut s, max_value, out)?;
        } else {
            plot::positions_csv(m, &mut s, max_value, out)?;
        }
        wrote(Some(path), run.quiet);
    }
    if json {
        let v = serde_json::json!({ "hole": m, "max_value": max_value, "positions": p + n, "p": p, "n": n });
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else if to_stdout {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let head: Vec<String> =
            (0..cols).map(|i| names.get(i).map_or(format!("c{}", i + 1), |s| s.to_string())).collect();
        out_text(&format!("{},value,outcome\n{csv}", head.join(",")))?;
    } else {
        out_text(&format!("F_{m} board, positions of value <= {max_value}: {} ({p} P, {n} N)", p + n))?;
    }
    Ok(0)
}

/// `game subtraction`: the Grundy values of each set (largest value, counts, period, and for
/// the paper's set Theorem 2's mismatches), the file of one set's values, or the paper's checks.
// One argument per validated flag of the command, as `Config::Subtraction` holds them.
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

// `game fraenkel-array`, `fraenkel-u` and `frankenstein` (Fraenkel, Arrays, Numeration Systems
// and Frankenstein Games).

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
        return Err(palace::error::Error::Usage(format!(
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

/// `game fraenkel-u`: the representation of each number over U.
fn fraenkel_u(numbers: &[u64], json: bool) -> Result<ExitCode> {
    use palace::games::fraenkel as fr;
    if json {
        let list: Vec<serde_json::Value> = numbers
            .iter()
            .map(|&n| serde_json::json!({ "n": n, "digits": fr::representation_string(n) }))
            .collect();
        out_text(&serde_json::json!({ "representations": list }).to_string())?;
    } else {
        let s: String = numbers.iter().map(|&n| format!("{n} {}\n", fr::representation_string(n))).collect();
        out_text(&s)?;
    }
    Ok(0)
}

/// `game frankenstein`: every position on squares 1..N solved and Theorem 3 checked; with
/// `check`, the text's claims under both readings.
fn frankenstein(
    squares: u32,
    two: palace::games::frankenstein::TypeTwo,
    bound: u32,
    check: bool,
    max_sum: u32,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::frankenstein::{self as fk, TypeTwo};
    use palace::games::{claims, fraenkel_claims as fc};
    use std::fmt::Write as _;
    let start = std::time::Instant::now();
    let cancel = &run.engine.cancel;
    let solve = |two: TypeTwo| {
        let claimed: Vec<u64> = fk::claimed(squares).iter().map(|x| fk::mask_of(x)).collect();
        let pb = game_bar(run, &format!("frankenstein {}", two.name()), "positions");
        let sol = fk::solve_squares_watched(squares, two, &claimed, &Watch::new(cancel, &pb));
        pb.finish_and_clear();
        sol
    };
    let within = |two: TypeTwo| {
        let a = fk::moves_within(&fk::claimed(bound), two);
        cancel.check().map(|()| a)
    };
    if check {
        let mut list = fc::tables()[..0].to_vec();
        for two in [TypeTwo::Ordered, TypeTwo::Literal] {
            let sq = solve(two)?;
            let sums =
                fk::solve_sum_watched(max_sum, two, &fk::claimed(max_sum), &Watch::new(cancel, &Silent))?;
            list.extend(fc::examples(two, &sq, &sums));
            list.extend(fc::theorem_3(two, &sq, &sums, &within(two)?, bound));
            list.extend(fc::play_ends(two, fc::PLAY_ENDS_SQUARES));
            if run.quiet {
                continue;
            }
            eprintln!(
                "{}: squares 1..{squares} solved in {:.1} s, square sums <= {max_sum} in {:.1} s",
                two.name(),
                sq.seconds,
                sums.seconds
            );
        }
        list.push(fc::inequality_8(fc::INEQUALITY_8_ROWS));
        cancel.check()?;
        if json {
            out_text(&serde_json::to_string_pretty(&list).expect("serialisable"))?;
        } else {
            out_text(&claims::table(&list))?;
        }
        if !run.quiet {
            eprintln!("checked in {:.1} s", start.elapsed().as_secs_f64());
        }
        return Ok(0);
    }
    let sol = solve(two)?;
    let a = within(two)?;
    let p: Vec<Vec<u32>> = sol.p_masks.iter().map(|&m| fk::squares_of(m)).collect();
    let b: Vec<Vec<u32>> = sol.without_move_into_claimed.iter().map(|&m| fk::squares_of(m)).collect();
    if json {
        let v = serde_json::json!({ "p_positions": p, "violations_a": a, "violations_b": b });
        out_text(&v.to_string())?;
    } else {
        let claimed: Vec<u64> = fk::claimed(squares).iter().map(|x| fk::mask_of(x)).collect();
        let mut s = format!(
            "Frankenstein, type II {}: every position on squares 1..{squares} ({} positions) solved in {:.1} s\n{} P-positions:\n",
            two.name(),
            sol.positions,
            sol.seconds,
            p.len()
        );
        for (x, &m) in p.iter().zip(&sol.p_masks) {
            let _ = writeln!(
                s,
                "  {x:?}{}",
                if claimed.contains(&m) { "" } else { "  (not claimed by Theorem 3)" }
            );
        }
        let missing: Vec<Vec<u32>> =
            claimed.iter().filter(|m| !sol.p_masks.contains(m)).map(|&m| fk::squares_of(m)).collect();
        let _ = writeln!(s, "claimed by Theorem 3 but N: {missing:?}");
        let _ = writeln!(
            s,
            "Theorem 3 (A), claimed positions with squares <= {bound}: {} moves between two of them{}",
            a.len(),
            a.iter().take(5).map(|(x, y)| format!(" {x:?} -> {y:?}")).collect::<String>()
        );
        let _ = writeln!(
            s,
            "Theorem 3 (B), squares 1..{squares}: {} positions without a move into a claimed one{}",
            b.len(),
            b.iter().take(5).map(|x| format!(" {x:?}")).collect::<String>()
        );
        let _ = writeln!(
            s,
            "Theorem 3 under the {} reading: {}",
            two.name(),
            if a.is_empty() && b.is_empty() { "confirmed in this range" } else { "refuted" }
        );
        out_text(&s)?;
    }
    Ok(0)
}
