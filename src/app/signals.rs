//! Ctrl-C handling: the handler only cancels the run's [`Cancel`] token; the sweep checks it
//! between bands and stops with [`Error::Interrupted`](palace::error::Error::Interrupted), so
//! the temporary output file is removed and nothing is left at the output path.

use palace::engine::Cancel;

/// Installs the Ctrl-C handler, which cancels `cancel` (once per process; a second call
/// leaves the first handler in place).
pub fn install(cancel: &Cancel) {
    let cancel = cancel.clone();
    let _ = ctrlc::set_handler(move || cancel.cancel());
}
