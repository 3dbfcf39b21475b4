//! The games lab (`palace game ...`) as arrays: Fibonacci nim's outcomes and Grundy values,
//! Larsson and Fox's subtraction games, and Fraenkel's array A, each solved by the library's
//! solvers on a worker pool of `threads` threads, cancellable like the sweeps.

use crate::board::{threads_arg, u64_arg};
use crate::errors::value_error;
use crate::run;
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use palace::games::fibonacci_nim::{MAX_GRUNDY_TO, MAX_NIM_TO};
use palace::games::fraenkel::MAX_FRAENKEL_ROWS;
use palace::games::subtraction::MAX_SUBTRACTION_TO;
use palace::games::watch::Watch;
use pyo3::prelude::*;

/// Runs `f` in a worker pool of `threads` threads (0: one per core), as [`run::run`] runs it.
fn pooled<T, F>(py: Python<'_>, threads: usize, progress: Option<&Bound<'_, PyAny>>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Watch<'_>) -> palace::Result<T> + Send,
{
    run::run(py, progress, move |cancel, pb| {
        // A scoped pool: its threads are joined before the call returns, so none is left
        // running after a result or an interruption.
        rayon::ThreadPoolBuilder::new()
            .num_threads(palace::engine::resolve_threads(threads))
            .build_scoped(|thread| thread.run(), |pool| pool.install(|| f(&Watch::new(cancel, pb))))
            .map_err(|source| palace::error::EngineError::ThreadPool { threads, source })?
    })
}

fn bounded(name: &str, value: i64, min: u64, max: u64) -> PyResult<u64> {
    let v = u64_arg(name, value, min)?;
    if v > max {
        return Err(value_error(format!("{name} = {v}: at most {max}")));
    }
    Ok(v)
}

/// Fibonacci nim from every pile `1..=to`: the P-positions and, per pile, every winning first
/// move (coins taken), as `palace game fibonacci-nim` lists them.
#[pyfunction]
#[pyo3(signature = (to, threads=None, progress=None))]
fn fibonacci_nim<'py>(
    py: Python<'py>,
    to: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>)> {
    use palace::games::fibonacci_nim as nim;
    let to = bounded("to", to, 1, MAX_NIM_TO)? as usize;
    let o = pooled(py, threads_arg(threads)?, progress, move |w| nim::solve_watched(to, w))?;
    let p = o.p_positions().into_pyarray(py).into_any();
    let moves = o.winning_moves.into_iter().map(|m| m.into_pyarray(py).into_any()).collect();
    Ok((p, moves))
}

/// The Grundy values `G(n, q)` of Fibonacci nim for `0 <= n, q <= to` as a `uint16` array
/// indexed `[n, q]` (`G(0, q) = G(n, 0) = 0`: no move).
#[pyfunction]
#[pyo3(signature = (to, threads=None, progress=None))]
fn fibonacci_nim_grundy<'py>(
    py: Python<'py>,
    to: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use palace::games::fibonacci_nim as nim;
    let to = bounded("to", to, 1, MAX_GRUNDY_TO)? as usize;
    let table = pooled(py, threads_arg(threads)?, progress, move |w| {
        let g = nim::grundy_watched(to, w)?;
        let mut a = Array2::<u16>::zeros((to + 1, to + 1));
        for n in 1..=to {
            for q in 1..=to {
                a[[n, q]] = g.get(n, q);
            }
        }
        Ok(a)
    })?;
    Ok(table.into_pyarray(py).into_any())
}

/// The Grundy values of the subtraction game with the set `set` (a family such as
/// `F(2n+1)-1`, `paper`, or a list of moves) for piles `0..=to`, as `uint8`; with the set's
/// name and members, and the period found among the piles `to/2..=to` (`None` if none up to
/// `period_bound`).
#[pyfunction]
#[pyo3(signature = (set, to, period_bound=1_000_000, threads=None, progress=None))]
#[allow(clippy::type_complexity)]
fn subtraction<'py>(
    py: Python<'py>,
    set: &str,
    to: i64,
    period_bound: i64,
    threads: Option<i64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(String, Vec<u64>, Bound<'py, PyAny>, Option<(u64, u64)>)> {
    use palace::games::subtraction as sub;
    let to = bounded("to", to, 1, MAX_SUBTRACTION_TO)?;
    let period_bound = u64_arg("period_bound", period_bound, 1)?;
    let s = sub::parse_set(set, to).map_err(|m| value_error(format!("set = {m}")))?;
    let members = s.members.clone();
    let (values, period) = pooled(py, threads_arg(threads)?, progress, move |w| {
        let g = sub::solve_watched(&members, to, w)?;
        let (period, _) = sub::find_period_watched(&g, period_bound, w)?;
        let n = usize::try_from(to + 1).expect("piles fit the address space");
        let mut values = vec![0u8; n];
        g.fill_bytes(0, &mut values);
        Ok((values, period.map(|p| (p.period, p.from))))
    })?;
    Ok((s.name, s.members, values.into_pyarray(py).into_any(), period))
}

/// Rows `0..rows`, columns `0..columns` of Fraenkel's array A, as `uint64`.
#[pyfunction]
#[pyo3(signature = (rows, columns=8))]
fn fraenkel_array<'py>(py: Python<'py>, rows: i64, columns: i64) -> PyResult<Bound<'py, PyAny>> {
    let rows = bounded("rows", rows, 1, MAX_FRAENKEL_ROWS)? as usize;
    let columns = bounded("columns", columns, 1, palace::games::fraenkel::BASIS_LEN as u64)? as usize;
    let a = run::run(py, None, move |_, _| Ok(palace::games::fraenkel::array(rows, columns)))?;
    let Some(a) = a else {
        return Err(value_error(format!(
            "columns = {columns}: an entry of the first {rows} rows exceeds 64 bits; give fewer columns"
        )));
    };
    let flat: Vec<u64> = a.into_iter().flatten().collect();
    let a = Array2::from_shape_vec((rows, columns), flat).expect("rows of equal length");
    Ok(a.into_pyarray(py).into_any())
}

/// Adds the games' functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fibonacci_nim, m)?)?;
    m.add_function(wrap_pyfunction!(fibonacci_nim_grundy, m)?)?;
    m.add_function(wrap_pyfunction!(subtraction, m)?)?;
    m.add_function(wrap_pyfunction!(fraenkel_array, m)?)?;
    Ok(())
}
