//! `palace._palace`: the native half of the Python package `palace`. Each function here takes
//! plain Python values, checks them with messages naming the Python arguments, runs the
//! `palace` library's own code on a worker thread with the GIL released (`run.rs`), and hands
//! back numpy arrays and the library's reports as Python objects built here (`report.rs`,
//! `tables.rs`), which `palace/__init__.py` wraps in its dataclasses. The friendly signatures
//! and docstrings live there.

mod backend;
mod board;
mod errors;
mod fill;
mod games;
mod memory;
mod report;
mod run;
mod small_k;
mod tables;

use backend::{backend_arg, backend_of, engine};
use board::{board, k_arg, threads_arg, u32_arg, u64_arg};
use errors::{to_py, value_error};
use fill::{Dtype, Fill};
use numpy::IntoPyArray;
use numpy::ndarray::{Array2, Array3};
use palace::Window;
use palace::backend::{SkinForm, StatsForm};
use palace::engine::Sweep;
use palace::output::png::{MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE};
use palace::resume::Checkpoints;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn dtype_of(k: u32, w: Window, dtype: Option<&str>) -> PyResult<Dtype> {
    let low = fill::too_low_for_i8(k, w);
    match (dtype, low) {
        (None, None) | (Some("int8"), None) => Ok(Dtype::I8),
        (None, Some(_)) | (Some("int32"), _) => Ok(Dtype::I32),
        (Some("int8"), Some(v)) => Err(value_error(format!(
            "dtype = int8 cannot hold this window: v = {v} at its corner ({}, {}) in the hood; use dtype = int32 or None",
            w.x0(),
            w.y0()
        ))),
        (Some(other), _) => Err(value_error(format!("dtype = {other}: dtype is int8, int32 or None"))),
    }
}

/// The CA values `v = N - k` of a window as a 2-D array (rows `y0..y1`, columns `x0..x1`).
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, threads=None, dtype=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn values<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    threads: Option<i64>,
    dtype: Option<&str>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    let shape = (w.height() as usize, w.width() as usize);
    let dtype = dtype_of(b.k(), w, dtype)?;
    let itemsize = if dtype == Dtype::I8 { 1 } else { 4 };
    memory::fits("the array of values", w.cells(), itemsize, memory::SMALLER_WINDOW)?;
    Ok(match dtype {
        Dtype::I8 => {
            let cells = fill::<i8>(py, progress, b.k(), w, threads)?;
            array(py, shape, cells)?.into_any()
        }
        Dtype::I32 => {
            let cells = fill::<i32>(py, progress, b.k(), w, threads)?;
            array(py, shape, cells)?.into_any()
        }
    })
}

/// Whether each cell of a window is a palace (`v < 0`), as a 2-D bool array.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn palaces<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    memory::fits("the array of palaces", w.cells(), 1, memory::SMALLER_WINDOW)?;
    let cells = fill::<bool>(py, progress, b.k(), w, threads)?;
    Ok(array(py, (w.height() as usize, w.width() as usize), cells)?.into_any())
}

fn fill<T: fill::Cell>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    k: u32,
    w: Window,
    threads: usize,
) -> PyResult<Vec<T>> {
    run::run(py, progress, move |cancel, pb| {
        let mut sink = Fill::<T>::new(w);
        Sweep::new(k, w).options(&engine(threads, cancel)).progress(pb).rows(&mut sink)?;
        Ok(sink.cells)
    })
}

fn array<'py, T: numpy::Element>(
    py: Python<'py>,
    shape: (usize, usize),
    cells: Vec<T>,
) -> PyResult<Bound<'py, numpy::PyArray2<T>>> {
    let a = Array2::from_shape_vec(shape, cells).expect("the buffer holds the window's cells");
    Ok(a.into_pyarray(py))
}

/// What a statistics run found: the statistics of the window, or the palaces of the board.
enum StatsFound {
    Stats(Box<palace::analysis::stats::Stats>),
    Count(palace::analysis::stats::PalaceCount),
}

/// The checkpoints of a run: saved to `checkpoint` every `every` seconds (600 by default) and
/// when the run is interrupted, resumed from `resume`; the library checks the paths.
fn checkpoints(
    checkpoint: Option<std::path::PathBuf>,
    every: Option<f64>,
    resume: Option<std::path::PathBuf>,
) -> PyResult<Checkpoints> {
    let every = match (every, &checkpoint) {
        (None, _) => DEFAULT_EVERY,
        (Some(e), None) => {
            return Err(value_error(format!(
                "every = {e}: every is the time between checkpoints; give checkpoint=FILE too"
            )));
        }
        (Some(e), Some(_)) => match std::time::Duration::try_from_secs_f64(e) {
            Ok(d) => d,
            Err(_) => {
                return Err(value_error(format!("every = {e}: every is a number of seconds, at least 0")));
            }
        },
    };
    Checkpoints::new(checkpoint, every, resume).map_err(to_py)
}

/// The time between two checkpoints unless `every` says otherwise: ten minutes, as the
/// command line's `--every`.
const DEFAULT_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// The statistics of a window, as the keyword arguments of `palace.Stats` (`k`, `window`,
/// `total`, `hood`, `rest`, the histogram as two arrays, `engine`, and `raw`, the report as
/// `palace stats --json` has it); with `palaces_only`, those of `palace.PalaceCount`. With
/// `checkpoint`, the run is saved there as it goes and when interrupted, and `resume`
/// continues a saved run (on the CPU).
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, palaces_only=false, by_counters=false, threads=None, backend="cpu", checkpoint=None, every=None, resume=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn stats<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    palaces_only: bool,
    by_counters: bool,
    threads: Option<i64>,
    backend: &str,
    checkpoint: Option<std::path::PathBuf>,
    every: Option<f64>,
    resume: Option<std::path::PathBuf>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    let corner = w.x0() == 0 && w.y0() == 0;
    // The palace count takes a board, not a window (the statistics by counters refuse a
    // window off the corner themselves).
    if palaces_only && !corner {
        return Err(value_error(format!(
            "palaces_only counts boards from the corner; window = ({}, {}, {}, {}) does not start at (0, 0): give the board with size or width and height",
            w.x0(),
            w.y0(),
            w.x1(),
            w.y1()
        )));
    }
    let on_gpu = backend_arg(backend)?;
    // The three-counter form is the GPU's only one; on the CPU `by_counters` chooses it.
    let form = match (by_counters, on_gpu) {
        (true, _) => StatsForm::Counters,
        (false, true) => StatsForm::Auto,
        (false, false) => StatsForm::Ca,
    };
    let c = checkpoints(checkpoint, every, resume)?;
    let (found, run) = run::run(py, progress, move |cancel, pb| {
        let backend = backend_of(on_gpu, threads, cancel);
        Ok(if palaces_only {
            let (count, run) = palace::backend::palace_count(&backend, b, &c, pb, cancel)?;
            (StatsFound::Count(count), run)
        } else {
            let (stats, run) = palace::backend::stats(&backend, b, w, form, &c, pb, cancel)?;
            (StatsFound::Stats(Box::new(stats)), run)
        })
    })?;
    let engine = report::run(py, &run)?;
    let d = PyDict::new(py);
    match found {
        StatsFound::Count(c) => {
            d.set_item("k", c.k)?;
            d.set_item("width", c.width)?;
            d.set_item("height", c.height)?;
            d.set_item("cells", c.cells)?;
            d.set_item("palaces", c.palaces)?;
        }
        StatsFound::Stats(s) => {
            let raw = PyDict::new(py);
            raw.set_item("stats", report::object(py, &s)?)?;
            raw.set_item("engine", &engine)?;
            d.set_item("k", s.k)?;
            d.set_item("window", report::object(py, &s.window)?)?;
            d.set_item("total", report::object(py, &s.total)?)?;
            d.set_item("hood", report::object(py, &s.hood)?)?;
            d.set_item("rest", report::object(py, &s.rest)?)?;
            let (values, counts): (Vec<i64>, Vec<u64>) = s.histogram.iter().copied().unzip();
            d.set_item("histogram_values", values.into_pyarray(py))?;
            d.set_item("histogram_counts", counts.into_pyarray(py))?;
            d.set_item("raw", raw)?;
        }
    }
    d.set_item("engine", engine)?;
    Ok(d)
}

/// The skin of game `k` from the shoulder to column `to`, as the keyword arguments of
/// `palace.Skin`: `k`, `to`, `columns` (the columns of `palace skin --csv` as arrays: `x`,
/// `top`, `top_v`, `vertical`, `diagonal`, and `level`, -1 where the CSV leaves it empty) and
/// `report` (the report of `palace skin --json`). Checkpointed as [`stats`] is.
#[pyfunction]
#[pyo3(signature = (k, to, threads=None, backend="cpu", checkpoint=None, every=None, resume=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn skin<'py>(
    py: Python<'py>,
    k: i64,
    to: i64,
    threads: Option<i64>,
    backend: &str,
    checkpoint: Option<std::path::PathBuf>,
    every: Option<f64>,
    resume: Option<std::path::PathBuf>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use palace::analysis::skin as sk;
    let k = k_arg(k)?;
    let to = u64_arg("to", to, 0)?;
    let threads = threads_arg(threads)?;
    let on_gpu = backend_arg(backend)?;
    let c = checkpoints(checkpoint, every, resume)?;
    let (found, cols) = run::run(py, progress, move |cancel, pb| {
        let backend = backend_of(on_gpu, threads, cancel);
        let (found, cols, _) =
            palace::backend::skin(&backend, k, to, false, SkinForm::Counters, &c, pb, cancel)?;
        Ok((found, cols))
    })?;
    let level: Vec<i16> = cols
        .iter()
        .map(|c| sk::level_of_thickness(c.vertical).map_or(-1, |n| i16::try_from(n).unwrap_or(i16::MAX)))
        .collect();
    let columns = PyDict::new(py);
    columns.set_item("x", cols.iter().map(|c| c.x).collect::<Vec<u64>>().into_pyarray(py))?;
    columns.set_item("top", cols.iter().map(|c| c.top).collect::<Vec<u32>>().into_pyarray(py))?;
    columns.set_item("top_v", cols.iter().map(|c| c.top_v).collect::<Vec<i8>>().into_pyarray(py))?;
    columns.set_item("vertical", cols.iter().map(|c| c.vertical).collect::<Vec<u32>>().into_pyarray(py))?;
    columns.set_item("diagonal", cols.iter().map(|c| c.diagonal).collect::<Vec<u32>>().into_pyarray(py))?;
    columns.set_item("level", level.into_pyarray(py))?;
    let d = PyDict::new(py);
    d.set_item("k", k)?;
    d.set_item("to", to)?;
    d.set_item("columns", columns)?;
    d.set_item("report", report::object(py, &found)?)?;
    Ok(d)
}

/// Games `k` and `k2` compared cell by cell (`N_k2(x + dx, y + dy) = N_k(x, y) + offset`):
/// the report of `palace compare --json`, as a dict.
#[pyfunction]
#[pyo3(signature = (k, k2, size=None, width=None, height=None, window=None, shift=(0, 0), offset=0, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    k: i64,
    k2: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    shift: (i64, i64),
    offset: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use palace::analysis::compare as cmp;
    let (board_a, w) = board(k, size, width, height, window)?;
    let b = k_arg(k2)
        .and_then(|b| palace::Board::new(b, 1, 1).map_err(to_py))
        .map_err(|e| rename_k(py, e, "k2"))?
        .k();
    let shift = (u32_arg("shift[0]", shift.0, 0)?, u32_arg("shift[1]", shift.1, 0)?);
    let c = cmp::Comparison { a: board_a.k(), b, shift, offset };
    let threads = threads_arg(threads)?;
    let found = run::run(py, progress, move |cancel, pb| {
        let (found, _) = cmp::run(c, w, 1, None, &engine(threads, cancel), pb)?;
        Ok(found)
    })?;
    report::object(py, &found)
}

/// An error about `k` reworded for the argument `name` that gave that game.
fn rename_k(py: Python<'_>, e: PyErr, name: &str) -> PyErr {
    let msg = e.value(py).to_string();
    if let Some(rest) = msg.strip_prefix("k = ") {
        return value_error(format!("{name} = {}", rest.replacen("k is", &format!("{name} is"), 1)));
    }
    e
}

/// The paper's regions of a window: the report of `palace regions --json`, as a dict.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn regions<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    let found = run::run(py, progress, move |cancel, pb| {
        let (found, _) = palace::analysis::regions::run(b.k(), w, 1, None, &engine(threads, cancel), pb)?;
        Ok(found)
    })?;
    report::object(py, &found)
}

/// The survey of games `k.0..=k.1` by `step` on `(size_factor k)`-sided boards: the rows as
/// the columns of `palace survey`'s CSV (a dict of arrays), and the summary of its `--json`
/// (a dict).
#[pyfunction]
#[pyo3(signature = (k, step=1, size_factor=3, skin=true, detail_step=1, threads=None, backend="cpu", progress=None))]
#[allow(clippy::too_many_arguments)]
fn survey<'py>(
    py: Python<'py>,
    k: (i64, i64),
    step: i64,
    size_factor: i64,
    skin: bool,
    detail_step: i64,
    threads: Option<i64>,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyAny>)> {
    use palace::analysis::survey as sv;
    let so = sv::SurveyOptions {
        from: u32_arg("k", k.0, 1)?,
        to: u32_arg("k", k.1, 1)?,
        step: u32_arg("step", step, 1)?,
        factor: u32_arg("size_factor", size_factor, 1)?,
        skin,
        detail_step: u32_arg("detail_step", detail_step, 1)?,
    };
    if so.to < so.from {
        return Err(value_error(format!(
            "k = ({}, {}): the last game is at least the first",
            so.from, so.to
        )));
    }
    if so.to > palace::model::rule::MAX_K {
        return Err(value_error(format!(
            "k = ({}, {}): games go up to {}",
            so.from,
            so.to,
            palace::model::rule::MAX_K
        )));
    }
    let threads = threads_arg(threads)?;
    let on_gpu = backend_arg(backend)?;
    run::run(py, progress, move |cancel, pb| {
        let opts = engine(threads, cancel);
        let rows = palace::backend::survey(&backend_of(on_gpu, threads, cancel), &so, threads, &opts, pb)?;
        let summary = sv::summarise(&rows, so.factor);
        Ok((tables::survey(&rows), summary))
    })
    .and_then(|(rows, summary)| Ok((rows.into_py(py)?, report::object(py, &summary)?)))
}

/// The threads of a window (`palace threads`): the report of `palace threads --json` (a
/// dict), and the columns of its CSV, one entry per thread (a dict of arrays).
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, reach=4, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn threads<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    reach: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
    use palace::analysis::threads as th;
    let (b, w) = board(k, size, width, height, window)?;
    // The region labels play game k + 3 too.
    let max = palace::model::rule::MAX_K - 3;
    if b.k() > max {
        return Err(value_error(format!(
            "k = {}: threads labels the regions, which also plays k + 3; k <= {max}",
            b.k()
        )));
    }
    let reach = u32_arg("reach", reach, 1)?;
    if reach > palace::analysis::threads::MAX_REACH {
        return Err(value_error(format!(
            "reach = {reach}: reach is 1..={} columns",
            palace::analysis::threads::MAX_REACH
        )));
    }
    let workers = threads_arg(threads)?;
    run::run(py, progress, move |cancel, pb| {
        let opts = engine(workers, cancel);
        let (traced, _) = th::run(b.k(), w, reach, 1, None, false, &opts, pb)?;
        let summaries = th::summaries(&traced, opts.resolved_threads(), cancel)?;
        let table = tables::threads(&traced, &summaries);
        let report = th::ThreadsReport::from_summaries(
            b.k(),
            w,
            reach,
            &traced,
            &summaries,
            opts.resolved_threads(),
            cancel,
        )?;
        Ok((report, table))
    })
    .and_then(|(report, table)| Ok((report::object(py, &report)?, table.into_py(py)?)))
}

/// A picture of a window in the paper's colours, written as PNG to `path` (atomically: the
/// file appears whole or not at all), or, when `path` is `None`, drawn in memory and returned
/// as an RGB array: the pixels of that file.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, scale=1, zoom=1, aggregate="mean", scheme="paper", legend=false, path=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn render<'py>(
    py: Python<'py>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    scale: i64,
    zoom: i64,
    aggregate: &str,
    scheme: &str,
    legend: bool,
    path: Option<std::path::PathBuf>,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    use palace::output::atomic::AtomicOutput;
    use palace::output::palette::Scheme;
    use palace::output::png::{Aggregate, PngOptions, PngWriter};
    let (b, w) = board(k, size, width, height, window)?;
    let scale = u32_arg("scale", scale, 1)?;
    let zoom = u32_arg("zoom", zoom, 1)?;
    if zoom > 1 && scale > 1 {
        return Err(value_error("zoom > 1 draws each cell as a block of pixels; give it with scale = 1"));
    }
    let aggregate = match aggregate {
        "mean" => Aggregate::Mean,
        "min" => Aggregate::Min,
        "max" => Aggregate::Max,
        other => {
            return Err(value_error(format!("aggregate = '{other}': aggregate is 'mean', 'min' or 'max'")));
        }
    };
    let scheme = match scheme {
        "paper" => Scheme::Paper,
        "values" => Scheme::Values,
        other => return Err(value_error(format!("scheme = '{other}': scheme is 'paper' or 'values'"))),
    };
    let (pw, ph) = (
        u64::from(w.width().div_ceil(scale)) * u64::from(zoom),
        u64::from(w.height().div_ceil(scale)) * u64::from(zoom),
    );
    // The array (three bytes a pixel) and the bounds of the PNG writer's pictures.
    if pw.max(ph) > MAX_PICTURE_SIDE || pw * ph > MAX_PICTURE_PIXELS {
        return Err(value_error(format!(
            "the picture would be {pw} x {ph} pixels, more than 2**20 a side or 2**36 in all; give a larger scale or a smaller window"
        )));
    }
    let threads = threads_arg(threads)?;
    let opts = PngOptions { scale, aggregate, zoom, scheme, threads, legend };
    let k = b.k();
    let Some(path) = path else {
        // The palette indices and the RGB array: four bytes a pixel (the legend's few rows
        // aside).
        memory::fits("the picture", pw * ph, 4, "give a larger scale or a smaller window")?;
        let picture = run::run(py, progress, move |cancel, pb| {
            let mut writer = PngWriter::in_memory(k, w, opts);
            Sweep::new(k, w).options(&engine(threads, cancel)).progress(pb).rows(&mut writer)?;
            writer.finish()
        })?;
        let (width, height) = picture.size();
        let rgb = py.detach(|| picture.rgb());
        let a =
            Array3::from_shape_vec((height as usize, width as usize, 3), rgb).expect("three bytes a pixel");
        return Ok(Some(a.into_pyarray(py).into_any()));
    };
    run::run(py, progress, move |cancel, pb| {
        let out = AtomicOutput::create_cancellable(&path, "path", cancel)?;
        let mut writer = PngWriter::create(out, k, w, opts)?;
        Sweep::new(k, w).options(&engine(threads, cancel)).progress(pb).rows(&mut writer)?;
        writer.finish()
    })?;
    Ok(None)
}

/// The native module.
#[pymodule]
fn _palace(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GPU", cfg!(feature = "gpu"))?;
    m.add("MAX_K", palace::model::rule::MAX_K)?;
    for f in [
        wrap_pyfunction!(values, m)?,
        wrap_pyfunction!(palaces, m)?,
        wrap_pyfunction!(stats, m)?,
        wrap_pyfunction!(skin, m)?,
        wrap_pyfunction!(compare, m)?,
        wrap_pyfunction!(regions, m)?,
        wrap_pyfunction!(survey, m)?,
        wrap_pyfunction!(threads, m)?,
        wrap_pyfunction!(render, m)?,
    ] {
        m.add_function(f)?;
    }
    games::register(m)?;
    small_k::register(m)?;
    Ok(())
}
