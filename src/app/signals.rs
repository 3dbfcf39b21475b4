//! Signal handling: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`) and SIGHUP (a closed
//! terminal) only cancel the run's [`Cancel`] token and remember which signal came. The
//! sweep checks the token between rows and stops with
//! [`Error::Interrupted`](palace::error::Error::Interrupted); the temporary output files are
//! removed as the run unwinds, and the binary exits with 128 + the signal's number, as a shell
//! reports a process killed by it.
//!
//! A second signal while the run unwinds ends the process at once, without unwinding: the
//! temporary outputs are then removed from the process's list of them
//! ([`palace::output::temporary`]) before it exits.

use palace::engine::Cancel;
use palace::output::temporary::{self, Temporaries};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that stopped the run, if any.
#[derive(Debug, Clone, Default)]
pub struct Caught(Arc<AtomicI32>);

impl Caught {
    /// The number of the first signal received, if one was.
    pub fn signal(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }

    /// The exit code for a run stopped by the caught signal: 128 + its number (130 for
    /// SIGINT), or 130 if the run was interrupted without one.
    pub fn exit_code(&self) -> i32 {
        128 + self.signal().unwrap_or(2)
    }
}

/// Routes SIGINT, SIGTERM and SIGHUP to `cancel` for the rest of the process and returns
/// where the first one is recorded. A second signal of the same kinds while the run is still
/// unwinding ends the process at once with the same exit code.
#[cfg(unix)]
pub fn install(cancel: &Cancel) -> Caught {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let caught = Caught::default();
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        // Without handlers the signals keep their default action: the process ends.
        return caught;
    };
    let (cancel, seen) = (cancel.clone(), caught.clone());
    let live: &'static Temporaries = Box::leak(Box::default());
    temporary::watch(live);
    let spawned = std::thread::Builder::new().name("palace-signals".into()).spawn(move || {
        for sig in signals.forever() {
            if seen.0.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst).is_err() {
                // The second signal: the user insists. Remove the temporary outputs, which
                // the unwinding would have removed, and go.
                live.remove_all();
                eprintln!("palace: error: interrupted again; stopped at once, no output was written");
                std::process::exit(seen.exit_code());
            }
            cancel.cancel();
        }
    });
    if spawned.is_err() {
        eprintln!("palace: warning: could not start the signal thread; signals end the run at once");
    }
    caught
}

/// Routes Ctrl-C to `cancel` (platforms without Unix signals).
#[cfg(not(unix))]
pub fn install(cancel: &Cancel) -> Caught {
    let caught = Caught::default();
    let (cancel, seen) = (cancel.clone(), caught.clone());
    let _ = ctrlc::set_handler(move || {
        let _ = seen.0.compare_exchange(0, 2, Ordering::SeqCst, Ordering::SeqCst);
        cancel.cancel();
    });
    caught
}
