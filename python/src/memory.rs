//! The one check of an array against the machine's memory: an array the package would hand
//! back (values, palaces, P-positions, a picture) larger than the memory available now
//! ([`palace::analysis::footprint::machine_memory`]) is refused with a `ValueError` before it
//! is computed, instead of the process being killed half way.

use crate::errors::value_error;
use pyo3::PyResult;

/// Refuses `what`, `items` entries of `itemsize` bytes, where it exceeds the memory available;
/// `fix` says how to ask for less. Nothing is refused where the memory cannot be read.
pub fn fits(what: &str, items: u64, itemsize: u64, fix: &str) -> PyResult<()> {
    let Some((available, _)) = palace::analysis::footprint::machine_memory() else {
        return Ok(());
    };
    let need = items.saturating_mul(itemsize);
    if need <= available {
        return Ok(());
    }
    let gib = |b: u64| b as f64 / f64::from(1 << 30);
    let s = if itemsize > 1 { "s" } else { "" };
    Err(value_error(format!(
        "{what} would take {:.1} GiB ({items} entries of {itemsize} byte{s}), more than the {:.1} GiB of memory available; {fix}",
        gib(need),
        gib(available)
    )))
}

/// How to ask for a smaller array of a board.
pub const SMALLER_WINDOW: &str = "give a smaller window (window=(x0, y0, x1, y1)) or board";
