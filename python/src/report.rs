//! The library's reports as Python objects, built here from their Rust types: a report type's
//! fields become a `dict` in the order the type declares them (the order of the command
//! line's JSON), sequences `list`s, fixed-size pairs and arrays `tuple`s, `None` for what is
//! absent; and the column tables of `survey` and `threads` become `dict`s of numpy arrays
//! ([`Table`]). Nothing crosses the boundary as text.

use numpy::{IntoPyArray, PyArray1};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;

/// `value` as a Python object (dicts, lists, tuples, numbers, strings, `None`).
pub fn object<'py, T: Serialize + ?Sized>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// How a run went: the engine's report (cells per path, threads, seconds, the workers' time),
/// or the GPU's adapter and time.
pub fn run<'py>(py: Python<'py>, r: &palace::backend::RunReport) -> PyResult<Bound<'py, PyAny>> {
    match r {
        palace::backend::RunReport::Cpu(e) => object(py, e),
        palace::backend::RunReport::Gpu(g) => {
            let d = PyDict::new(py);
            d.set_item("adapter", object(py, &g.adapter)?)?;
            d.set_item("elapsed", g.elapsed.as_secs_f64())?;
            Ok(d.into_any())
        }
    }
}

/// A column of a [`Table`].
pub enum Column {
    /// Whole numbers, some absent: an `int64` array where none is, else an object array with
    /// `None` in the gaps.
    Int(Vec<Option<i64>>),
    /// Numbers, some absent: a `float64` array where none is, else an object array.
    Float(Vec<Option<f64>>),
    /// Yes or no: a `bool` array.
    Bool(Vec<bool>),
    /// Words, some absent: an object array of `str` and `None`.
    Text(Vec<Option<String>>),
    /// A list of whole numbers per entry: an object array of `list`s.
    Ints(Vec<Vec<i64>>),
}

/// Columns by name, in order, each with an entry per row; made on the worker thread, turned
/// into numpy arrays with the GIL ([`Table::into_py`]).
#[derive(Default)]
pub struct Table(Vec<(&'static str, Column)>);

impl Table {
    /// Adds the column `name`.
    pub fn column(mut self, name: &'static str, c: Column) -> Self {
        self.0.push((name, c));
        self
    }

    /// A `dict` of the columns as numpy arrays, in order.
    pub fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        for (name, c) in self.0 {
            let a = match c {
                Column::Int(v) => whole_or_gaps(py, v)?,
                Column::Float(v) => whole_or_gaps(py, v)?,
                Column::Bool(v) => v.into_pyarray(py).into_any(),
                Column::Text(v) => objects(py, v)?,
                Column::Ints(v) => objects(py, v)?,
            };
            d.set_item(name, a)?;
        }
        Ok(d)
    }
}

/// A numeric array where every entry is there, else an object array with `None` in the gaps.
fn whole_or_gaps<'py, T>(py: Python<'py>, v: Vec<Option<T>>) -> PyResult<Bound<'py, PyAny>>
where
    T: numpy::Element + IntoPyObject<'py>,
{
    if v.iter().all(Option::is_some) {
        return Ok(v.into_iter().flatten().collect::<Vec<T>>().into_pyarray(py).into_any());
    }
    objects(py, v)
}

/// An object array of the entries as Python objects.
fn objects<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: Vec<T>) -> PyResult<Bound<'py, PyAny>> {
    let items = v.into_iter().map(|x| x.into_py_any(py)).collect::<PyResult<Vec<Py<PyAny>>>>()?;
    Ok(PyArray1::from_vec(py, items).into_any())
}
