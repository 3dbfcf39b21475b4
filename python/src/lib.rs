//! `palace._palace`: the native half of the Python package `palace`. Each function here takes
//! plain Python values, checks them with messages naming the Python arguments, runs the
//! `palace` library's own code on a worker thread with the GIL released (`run.rs`), and hands
//! back numpy arrays or the library's reports as JSON text, which `palace/__init__.py` turns
//! into dictionaries and dataclasses. The friendly signatures and docstrings live there.

mod board;
mod errors;
mod fill;
mod games;
mod run;
mod small_k;

use board::{board, k_arg, threads_arg, u32_arg, u64_arg};
use errors::{to_py, value_error};
use fill::{Dtype, Fill};
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use palace::Window;
use palace::backend::{Backend, SkinForm, StatsForm};
use palace::engine::{EngineOptions, Sweep};
use palace::resume::Checkpoints;
use pyo3::prelude::*;

/// Engine options for `threads` and the run's cancel token.
fn engine(threads: usize, cancel: &palace::engine::Cancel) -> EngineOptions {
    EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() }
}

/// The window as a tuple `(x0, y0, x1, y1)`.
fn corners(w: Window) -> (u32, u32, u32, u32) {
    (w.x0(), w.y0(), w.x1(), w.y1())
}

/// What [`plan`] returns: `(k, width, height, (x0, y0, x1, y1), dtype)`.
type Plan = (u32, u32, u32, (u32, u32, u32, u32), &'static str);

/// `(k, width, height, window, dtype)` of a values request: the board and window resolved
/// as [`values`] resolves them, and the element type of its array (`"int8"` where every
/// value of the window fits, else `"int32"`, or the one asked for).
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, dtype=None))]
fn plan(
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    dtype: Option<&str>,
) -> PyResult<Plan> {
    let (b, w) = board(k, size, width, height, window)?;
    let d = match dtype_of(b.k(), w, dtype)? {
        Dtype::I8 => "int8",
        Dtype::I32 => "int32",
    };
    Ok((b.k(), b.width(), b.height(), corners(w), d))
}

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
    Ok(match dtype_of(b.k(), w, dtype)? {
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
    let cells = fill::<bool>(py, progress, b.k(), w, threads_arg(threads)?)?;
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

/// The statistics of a window as the JSON of `palace stats --json`: `{"stats": ..., "engine":
/// ...}`, or `{"palaces": ..., "engine": ...}` with `palaces_only`.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, palaces_only=false, by_counters=false, threads=None, backend="cpu", progress=None))]
#[allow(clippy::too_many_arguments)]
fn stats(
    py: Python<'_>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    palaces_only: bool,
    by_counters: bool,
    threads: Option<i64>,
    backend: &str,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    let corner = w.x0() == 0 && w.y0() == 0;
    if (palaces_only || by_counters) && !corner {
        let what = if palaces_only { "palaces_only" } else { "by_counters" };
        return Err(value_error(format!(
            "{what} counts boards from the corner; window = ({}, {}, {}, {}) does not start at (0, 0): give the board with size or width and height",
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
    run::run(py, progress, move |cancel, pb| {
        let backend = backend_of(on_gpu, threads, cancel);
        let none = Checkpoints::none();
        let v = if palaces_only {
            let (count, report) = palace::backend::palace_count(&backend, b, &none, pb, cancel)?;
            serde_json::json!({ "palaces": count, "engine": run_json(&report) })
        } else {
            let (stats, report) = palace::backend::stats(&backend, b, w, form, &none, pb, cancel)?;
            serde_json::json!({ "stats": stats, "engine": run_json(&report) })
        };
        Ok(serde_json::to_string(&v).expect("serialisable"))
    })
}

/// How a run went, as the JSON a report carries: the engine's report, or the GPU's adapter and
/// time.
fn run_json(r: &palace::backend::RunReport) -> serde_json::Value {
    match r {
        palace::backend::RunReport::Cpu(e) => serde_json::to_value(e).expect("serialisable"),
        palace::backend::RunReport::Gpu(g) => {
            serde_json::json!({ "adapter": g.adapter, "elapsed": g.elapsed.as_secs_f64() })
        }
    }
}

/// The backend a call asks for: the CPU engine on `threads` threads, or the GPU.
fn backend_of(on_gpu: bool, threads: usize, cancel: &palace::engine::Cancel) -> Backend {
    if on_gpu { Backend::Gpu(Default::default()) } else { Backend::Cpu(engine(threads, cancel)) }
}

/// Whether `backend` asks for the GPU: `'cpu'` or `'gpu'`, anything else refused.
fn backend_arg(backend: &str) -> PyResult<bool> {
    match backend {
        "cpu" => Ok(false),
        "gpu" => Ok(true),
        other => Err(value_error(format!("backend = '{other}': backend is 'cpu' or 'gpu'"))),
    }
}

/// The skin of game `k` from the shoulder to column `to`: the report as the JSON of
/// `palace skin --json` and the columns of its CSV as arrays `(x, top, top_v, vertical,
/// diagonal, level)`, `level` -1 where the CSV leaves it empty.
#[pyfunction]
#[pyo3(signature = (k, to, threads=None, backend="cpu", progress=None))]
#[allow(clippy::type_complexity)]
fn skin<'py>(
    py: Python<'py>,
    k: i64,
    to: i64,
    threads: Option<i64>,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(String, Vec<Bound<'py, PyAny>>)> {
    use palace::analysis::skin as sk;
    let k = k_arg(k)?;
    let to = u64_arg("to", to, 0)?;
    let threads = threads_arg(threads)?;
    let on_gpu = backend_arg(backend)?;
    let (report, cols) = run::run(py, progress, move |cancel, pb| {
        let backend = backend_of(on_gpu, threads, cancel);
        let none = Checkpoints::none();
        let (report, cols, _) =
            palace::backend::skin(&backend, k, to, false, SkinForm::Counters, &none, pb, cancel)?;
        Ok((serde_json::to_string(&report).expect("serialisable"), cols))
    })?;
    let level: Vec<i16> = cols
        .iter()
        .map(|c| sk::level_of_thickness(c.vertical).map_or(-1, |n| i16::try_from(n).unwrap_or(i16::MAX)))
        .collect();
    let arrays = vec![
        cols.iter().map(|c| c.x).collect::<Vec<u64>>().into_pyarray(py).into_any(),
        cols.iter().map(|c| c.top).collect::<Vec<u32>>().into_pyarray(py).into_any(),
        cols.iter().map(|c| c.top_v).collect::<Vec<i8>>().into_pyarray(py).into_any(),
        cols.iter().map(|c| c.vertical).collect::<Vec<u32>>().into_pyarray(py).into_any(),
        cols.iter().map(|c| c.diagonal).collect::<Vec<u32>>().into_pyarray(py).into_any(),
        level.into_pyarray(py).into_any(),
    ];
    Ok((report, arrays))
}

/// Games `k` and `k2` compared cell by cell (`N_k2(x + dx, y + dy) = N_k(x, y) + offset`):
/// the JSON of `palace compare --json`.
#[pyfunction]
#[pyo3(signature = (k, k2, size=None, width=None, height=None, window=None, shift=(0, 0), offset=0, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn compare(
    py: Python<'_>,
    k: i64,
    k2: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    shift: (i64, i64),
    offset: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    use palace::analysis::compare as cmp;
    let (board_a, w) = board(k, size, width, height, window)?;
    let b = k_arg(k2)
        .and_then(|b| palace::Board::new(b, 1, 1).map_err(to_py))
        .map_err(|e| rename_k(py, e, "k2"))?
        .k();
    let shift = (u32_arg("shift[0]", shift.0, 0)?, u32_arg("shift[1]", shift.1, 0)?);
    let c = cmp::Comparison { a: board_a.k(), b, shift, offset };
    let threads = threads_arg(threads)?;
    run::run(py, progress, move |cancel, pb| {
        let (report, _) = cmp::run(c, w, 1, None, &engine(threads, cancel), pb)?;
        Ok(serde_json::to_string(&report).expect("serialisable"))
    })
}

/// An error about `k` reworded for the argument `name` that gave that game.
fn rename_k(py: Python<'_>, e: PyErr, name: &str) -> PyErr {
    let msg = e.value(py).to_string();
    if let Some(rest) = msg.strip_prefix("k = ") {
        return value_error(format!("{name} = {}", rest.replacen("k is", &format!("{name} is"), 1)));
    }
    e
}

/// The paper's regions of a window: the JSON of `palace regions --json`.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn regions(
    py: Python<'_>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let (b, w) = board(k, size, width, height, window)?;
    let threads = threads_arg(threads)?;
    run::run(py, progress, move |cancel, pb| {
        let (report, _) = palace::analysis::regions::run(b.k(), w, 1, None, &engine(threads, cancel), pb)?;
        Ok(serde_json::to_string(&report).expect("serialisable"))
    })
}

/// The survey of games `start..=stop` by `step` on `(size_factor k)`-sided boards: the rows as
/// the CSV of `palace survey`, and the summary as its JSON.
#[pyfunction]
#[pyo3(signature = (start, stop, step=1, size_factor=3, skin=true, detail_step=1, threads=None, backend="cpu", progress=None))]
#[allow(clippy::too_many_arguments)]
fn survey(
    py: Python<'_>,
    start: i64,
    stop: i64,
    step: i64,
    size_factor: i64,
    skin: bool,
    detail_step: i64,
    threads: Option<i64>,
    backend: &str,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    use palace::analysis::survey as sv;
    let so = sv::SurveyOptions {
        from: u32_arg("k", start, 1)?,
        to: u32_arg("k", stop, 1)?,
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
        let mut csv = Vec::new();
        sv::write_csv(&rows, &mut csv).expect("writing to memory");
        Ok((
            String::from_utf8(csv).expect("UTF-8 CSV"),
            serde_json::to_string(&summary).expect("serialisable"),
        ))
    })
}

/// The threads of a window (`palace threads`): the report as the JSON of `palace threads
/// --json`, and one line per thread as its CSV.
#[pyfunction]
#[pyo3(signature = (k, size=None, width=None, height=None, window=None, reach=4, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn threads(
    py: Python<'_>,
    k: i64,
    size: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    window: Option<(i64, i64, i64, i64)>,
    reach: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
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
    if reach > 64 {
        return Err(value_error(format!("reach = {reach}: reach is 1..=64 columns")));
    }
    let workers = threads_arg(threads)?;
    run::run(py, progress, move |cancel, pb| {
        let opts = engine(workers, cancel);
        let (traced, _) = th::run(b.k(), w, reach, 1, None, false, &opts, pb)?;
        let summaries = th::summaries(&traced, opts.resolved_threads(), cancel)?;
        let mut csv = Vec::new();
        th::write_csv(&traced, &summaries, &mut csv).expect("writing to memory");
        let report = th::ThreadsReport::from_summaries(
            b.k(),
            w,
            reach,
            &traced,
            &summaries,
            opts.resolved_threads(),
            cancel,
        )?;
        Ok((
            serde_json::to_string(&report).expect("serialisable"),
            String::from_utf8(csv).expect("UTF-8 CSV"),
        ))
    })
}

/// A picture of a window in the paper's colours, written as PNG to `path` (atomically: the
/// file appears whole or not at all) and decoded back to RGB when `path` is `None`.
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
    if pw.max(ph) > 1 << 20 || pw * ph > 1 << 36 {
        return Err(value_error(format!(
            "the picture would be {pw} x {ph} pixels, more than 2**20 a side or 2**36 in all; give a larger scale or a smaller window"
        )));
    }
    let threads = threads_arg(threads)?;
    let opts = PngOptions { scale, aggregate, zoom, scheme, threads, legend };
    let k = b.k();
    let scratch = match &path {
        Some(_) => None,
        None => Some(tempfile::tempdir().map_err(|e| to_py(palace::Error::io(std::env::temp_dir(), e)))?),
    };
    let file = match (&path, &scratch) {
        (Some(p), _) => p.clone(),
        (None, Some(d)) => d.path().join("render.png"),
        (None, None) => unreachable!("a scratch directory without a path"),
    };
    let written = run::run(py, progress, move |cancel, pb| {
        let out = AtomicOutput::create_cancellable(&file, "path", cancel)?;
        let mut writer = PngWriter::create(out, k, w, opts)?;
        Sweep::new(k, w).options(&engine(threads, cancel)).progress(pb).rows(&mut writer)?;
        writer.finish()
    })?;
    if path.is_some() {
        return Ok(None);
    }
    let (rgb, (width, height)) = py.detach(|| decode_rgb(&written)).map_err(to_py)?;
    let a = Array2::from_shape_vec((height as usize, width as usize * 3), rgb).expect("RGB rows");
    let a = a.into_shape_with_order((height as usize, width as usize, 3)).expect("three bytes a pixel");
    Ok(Some(a.into_pyarray(py).into_any()))
}

/// The pixels of a PNG as RGB bytes, and its size.
fn decode_rgb(path: &std::path::Path) -> palace::Result<(Vec<u8>, (u32, u32))> {
    let err = |e: png::DecodingError| palace::Error::PngDecode { path: path.to_path_buf(), source: e };
    let file = std::fs::File::open(path).map_err(|e| palace::Error::io(path, e))?;
    let mut dec = png::Decoder::new(std::io::BufReader::new(file));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(err)?;
    let mut buf = vec![0; reader.output_buffer_size().expect("a picture that fits memory")];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0]]).collect(),
        png::ColorType::Indexed => unreachable!("EXPAND turns a palette into RGB"),
    };
    Ok((rgb, (info.width, info.height)))
}

/// The native module.
#[pymodule]
fn _palace(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GPU", cfg!(feature = "gpu"))?;
    m.add("MAX_K", palace::model::rule::MAX_K)?;
    for f in [
        wrap_pyfunction!(plan, m)?,
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
