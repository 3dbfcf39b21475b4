//! The P-positions of small games as a list (`palace positions`) and their branches
//! (`palace branches`), found by the library's line counter or its sweep.

use crate::board::{k_arg, threads_arg, u32_arg};
use crate::errors::{to_py, value_error};
use crate::run;
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use palace::analysis::positions::{self as pos, Method};
use palace::engine::EngineOptions;
use pyo3::prelude::*;

/// `method` as the library's [`Method`] for game `k`.
fn method_arg(method: &str, k: u32) -> PyResult<Method> {
    match method {
        "auto" => Ok(Method::default_for(k)),
        "lines" if k > palace::engine::lines::MAX_K => Err(value_error(format!(
            "method = 'lines': the line counter takes k up to {}, not {k}; use method = 'sweep' (or 'auto')",
            palace::engine::lines::MAX_K
        ))),
        "lines" => Ok(Method::Lines),
        "sweep" => Ok(Method::Sweep),
        other => Err(value_error(format!("method = '{other}': method is 'auto', 'lines' or 'sweep'"))),
    }
}

/// `(k, rows, width, method)` checked; `width` defaults to `k + 3 rows`.
fn request(k: i64, rows: i64, width: Option<i64>, method: &str) -> PyResult<(u32, u32, u32, Method)> {
    let k = k_arg(k)?;
    palace::Board::new(k, 1, 1).map_err(to_py)?;
    let side = |name: &str, v: i64| -> PyResult<u32> {
        let max = palace::model::geometry::MAX_SIDE;
        u32_arg(name, v, 1).and_then(|s| {
            if s <= max {
                Ok(s)
            } else {
                Err(value_error(format!("{name} = {v}: {name} is 1..={max} (2**30)")))
            }
        })
    };
    let rows = side("rows", rows)?;
    let width = match width {
        Some(w) => side("width", w)?,
        None => match u32::try_from(pos::default_width(k, rows)) {
            Ok(w) if w <= palace::model::geometry::MAX_SIDE => w,
            _ => {
                return Err(value_error(format!(
                    "rows = {rows}: the default width k + 3 rows exceeds {} (2**30); give width",
                    palace::model::geometry::MAX_SIDE
                )));
            }
        },
    };
    Ok((k, rows, width, method_arg(method, k)?))
}

/// The P-positions of rows `0..rows` of game `k` as an `(n, 2)` int64 array of `(x, y)`,
/// sorted by `y` then `x`, and the report (the k-cover check) as the JSON of `palace positions
/// --json`.
#[pyfunction]
#[pyo3(signature = (k, rows, width=None, method="auto", threads=None, backend="cpu", progress=None))]
#[allow(clippy::too_many_arguments)]
fn positions<'py>(
    py: Python<'py>,
    k: i64,
    rows: i64,
    width: Option<i64>,
    method: &str,
    threads: Option<i64>,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    let on_gpu = crate::backend_arg(backend)?;
    if on_gpu && method == "lines" {
        return Err(value_error(
            "method = 'lines' runs on the CPU: backend = 'gpu' lists the P-positions by the sweep; use method = 'auto' or 'sweep', or backend = 'cpu'",
        ));
    }
    let (k, rows, width, method) = request(k, rows, width, if on_gpu { "sweep" } else { method })?;
    let threads = threads_arg(threads)?;
    let (flat, report) = run::run(py, progress, move |cancel, pb| {
        let opts = EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() };
        let mut flat: Vec<i64> = Vec::new();
        let mut emit = |x: u32, y: u32| {
            flat.extend([i64::from(x), i64::from(y)]);
            Ok(())
        };
        let report = if on_gpu {
            gpu_positions(k, rows, width, &mut emit, pb, cancel)?
        } else {
            pos::positions(k, rows, Some(width), method, &opts, &mut emit, pb)?
        };
        Ok((flat, serde_json::to_string(&report).expect("serialisable")))
    })?;
    let n = flat.len() / 2;
    let a = Array2::from_shape_vec((n, 2), flat).expect("pairs");
    Ok((a.into_pyarray(py).into_any(), report))
}

/// The P-positions by the sweep on the GPU backend (as `palace positions --backend gpu`).
#[cfg(feature = "gpu")]
fn gpu_positions(
    k: u32,
    rows: u32,
    width: u32,
    emit: &mut dyn FnMut(u32, u32) -> palace::Result<()>,
    pb: &dyn palace::engine::Progress,
    cancel: &palace::engine::Cancel,
) -> palace::Result<pos::PositionsReport> {
    let device = palace::gpu::Gpu::open().map_err(palace::Error::Gpu)?;
    let shape = palace::gpu::Shape::default();
    Ok(palace::gpu::positions(&device, k, rows, Some(width), shape, emit, pb, cancel)?.0)
}

#[cfg(not(feature = "gpu"))]
fn gpu_positions(
    _k: u32,
    _rows: u32,
    _width: u32,
    _emit: &mut dyn FnMut(u32, u32) -> palace::Result<()>,
    _pb: &dyn palace::engine::Progress,
    _cancel: &palace::engine::Cancel,
) -> palace::Result<pos::PositionsReport> {
    Err(palace::Error::NoGpu)
}

/// The branches of the upper P-positions of rows `0..rows` of game `k`: the JSON of `palace
/// branches --json`.
#[pyfunction]
#[pyo3(signature = (k, rows, width=None, method="auto", min_gap=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn branches(
    py: Python<'_>,
    k: i64,
    rows: i64,
    width: Option<i64>,
    method: &str,
    min_gap: Option<f64>,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    use palace::analysis::branches::{self as br, Settings};
    let (k, rows, width, method) = request(k, rows, width, method)?;
    let mut settings = Settings::default();
    if let Some(g) = min_gap {
        if !(g > 0.0 && g < 1.0) {
            return Err(value_error(format!(
                "min_gap = {g}: give a gap of ln(y/x) between 0 and 1, e.g. 0.01"
            )));
        }
        settings.min_gap = g;
    }
    let threads = threads_arg(threads)?;
    run::run(py, progress, move |cancel, pb| {
        let opts = EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() };
        let found = br::branches(k, rows, Some(width), &settings, method, &opts, pb)?;
        Ok(serde_json::to_string(&found.report).expect("serialisable"))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(positions, m)?)?;
    m.add_function(wrap_pyfunction!(branches, m)?)?;
    Ok(())
}
