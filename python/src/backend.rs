//! The arguments that choose where a call computes: the engine's options for its threads and
//! its cancel token, and the backend (`'cpu'` or `'gpu'`).

use crate::errors::value_error;
use palace::backend::Backend;
use palace::engine::EngineOptions;
use pyo3::PyResult;

/// Engine options for `threads` and the run's cancel token.
pub(crate) fn engine(threads: usize, cancel: &palace::engine::Cancel) -> EngineOptions {
    EngineOptions { threads, cancel: cancel.clone(), ..EngineOptions::default() }
}

/// The backend a call asks for: the CPU engine on `threads` threads, or the GPU.
pub(crate) fn backend_of(on_gpu: bool, threads: usize, cancel: &palace::engine::Cancel) -> Backend {
    if on_gpu { Backend::Gpu(Default::default()) } else { Backend::Cpu(engine(threads, cancel)) }
}

/// Whether `backend` asks for the GPU: `'cpu'` or `'gpu'`, anything else refused.
pub(crate) fn backend_arg(backend: &str) -> PyResult<bool> {
    match backend {
        "cpu" => Ok(false),
        "gpu" => Ok(true),
        other => Err(value_error(format!("backend = '{other}': backend is 'cpu' or 'gpu'"))),
    }
}
