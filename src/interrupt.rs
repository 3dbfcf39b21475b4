//! Ctrl-C handling: the binary installs a handler that only raises a flag; the sweep checks it
//! between bands and stops with [`Error::Interrupted`](crate::error::Error::Interrupted), so the
//! temporary output file is removed and nothing is left at the output path.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether an interrupt was requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Requests that running sweeps stop.
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Installs the Ctrl-C handler (once; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(request);
}
