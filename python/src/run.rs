//! How a call runs: the computation on a worker thread with the GIL released, the calling
//! thread polling Python's signal handlers every [`POLL`] so that Ctrl-C sets the run's
//! [`Cancel`] token, waits for the worker to stop and raises `KeyboardInterrupt`; and the
//! run's [`Progress`] kept in atomics that the calling thread hands to a Python callback
//! between polls (the worker threads never touch Python).

use palace::engine::{Cancel, Progress};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often the calling thread looks at Python's signals and the progress.
const POLL: Duration = Duration::from_millis(50);

/// The progress of one run, written by the workers and read by the calling thread.
#[derive(Debug, Default)]
pub struct Shared {
    len: AtomicU64,
    pos: AtomicU64,
    message: Mutex<Option<String>>,
}

impl Progress for Shared {
    fn set_length(&self, len: u64) {
        self.len.store(len, Ordering::Relaxed);
    }
    fn set_position(&self, pos: u64) {
        self.pos.store(pos, Ordering::Relaxed);
    }
    fn inc(&self, delta: u64) {
        self.pos.fetch_add(delta, Ordering::Relaxed);
    }
    fn message(&self, msg: &str) {
        *self.message.lock().expect("progress message lock") = Some(msg.to_string());
    }
}

impl Shared {
    /// Calls `callback(position, length, message)` with the run's state.
    fn report(&self, callback: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = self.message.lock().expect("progress message lock").take();
        let (pos, len) = (self.pos.load(Ordering::Relaxed), self.len.load(Ordering::Relaxed));
        callback.call1((pos, len, msg))?;
        Ok(())
    }
}

/// Runs `f` with a fresh cancel token and progress receiver on a worker thread, the GIL
/// released; returns its result, or raises `KeyboardInterrupt` (or whatever a signal handler
/// raised) after stopping the worker when a signal arrives; a run that saved a checkpoint as
/// it stopped says so in the `KeyboardInterrupt`'s message. An exception raised by the
/// progress callback stops the run the same way.
pub fn run<T, F>(py: Python<'_>, progress: Option<&Bound<'_, PyAny>>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel, &dyn Progress) -> palace::Result<T> + Send,
{
    let cancel = Cancel::new();
    let shared = Shared::default();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let (c, sh) = (&cancel, &shared);
        let worker = s.spawn(move || {
            let r = f(c, sh);
            // The receiver is gone only after the caller stopped waiting; nothing to tell.
            let _ = tx.send(r);
        });
        let mut rx = Some(rx);
        loop {
            let r = rx.take().expect("receiver");
            let (got, r) = py.detach(move || (r.recv_timeout(POLL), r));
            rx = Some(r);
            let stop = match got {
                Ok(result) => {
                    py.detach(move || worker.join()).map_err(|_| panicked())?;
                    if let Some(cb) = progress {
                        shared.report(cb)?;
                    }
                    return result.map_err(crate::errors::to_py);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The worker ended without sending: it panicked.
                    let _ = py.detach(move || worker.join());
                    return Err(panicked());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    py.check_signals().and_then(|()| progress.map_or(Ok(()), |cb| shared.report(cb)))
                }
            };
            if let Err(e) = stop {
                cancel.cancel();
                // The computation looks at the token between bands (a fraction of a second).
                let _ = py.detach(move || worker.join());
                // A run with a checkpoint saved it before it stopped: Ctrl-C says where.
                if let Some(Ok(Err(paused @ palace::Error::Paused { .. }))) = rx.map(|r| r.try_recv())
                    && e.is_instance_of::<PyKeyboardInterrupt>(py)
                {
                    return Err(PyKeyboardInterrupt::new_err(paused.to_string()));
                }
                return Err(e);
            }
        }
    })
}

fn panicked() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "the computation panicked (a bug in palace; the message is on stderr)",
    )
}
