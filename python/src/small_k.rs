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
/// sorted by `y` then `x`, and the report (the k-cover check) of `palace positions --json`, as
/// a dict.
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
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let on_gpu = crate::backend::backend_arg(backend)?;
    // The GPU lists them by its sweep; method = 'lines' with it is the library's to refuse.
    let method = if on_gpu && method == "auto" { "sweep" } else { method };
    let (k, rows, width, method) = request(k, rows, width, method)?;
    let threads = threads_arg(threads)?;
    // The array of k P-positions a row, two int64 each.
    let fix = "give fewer rows";
    crate::memory::fits(
        &format!("the positions of {rows} rows of game {k}"),
        2 * u64::from(k) * u64::from(rows),
        8,
        fix,
    )?;
    let (flat, report) = run::run(py, progress, move |cancel, pb| {
        let opts = EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() };
        let mut flat: Vec<i64> = Vec::new();
        let mut emit = |x: u32, y: u32| {
            flat.extend([i64::from(x), i64::from(y)]);
            Ok(())
        };
        let backend = if on_gpu {
            palace::backend::Backend::Gpu(Default::default())
        } else {
            palace::backend::Backend::Cpu(opts)
        };
        let (report, _) =
            palace::backend::positions(&backend, k, rows, Some(width), method, &mut emit, pb, cancel)?;
        Ok((flat, report))
    })?;
    let n = flat.len() / 2;
    let a = Array2::from_shape_vec((n, 2), flat).expect("pairs");
    Ok((a.into_pyarray(py).into_any(), crate::report::object(py, &report)?))
}

/// The branches of the upper P-positions of rows `0..rows` of game `k`: the report of `palace
/// branches --json`, as a dict.
#[pyfunction]
#[pyo3(signature = (k, rows, width=None, method="auto", min_gap=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn branches<'py>(
    py: Python<'py>,
    k: i64,
    rows: i64,
    width: Option<i64>,
    method: &str,
    min_gap: Option<f64>,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use palace::analysis::branches::{self as br, Settings};
    let (k, rows, width, method) = request(k, rows, width, method)?;
    let mut settings = Settings::default();
    if let Some(g) = min_gap {
        if !Settings::accepts_min_gap(g) {
            return Err(value_error(format!(
                "min_gap = {g}: give a gap of ln(y/x) between 0 and 1, e.g. 0.01"
            )));
        }
        settings.min_gap = g;
    }
    let threads = threads_arg(threads)?;
    let found = run::run(py, progress, move |cancel, pb| {
        let opts = EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() };
        Ok(br::branches(k, rows, Some(width), &settings, method, &opts, pb)?.report)
    })?;
    crate::report::object(py, &found)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(positions, m)?)?;
    m.add_function(wrap_pyfunction!(branches, m)?)?;
    Ok(())
}
