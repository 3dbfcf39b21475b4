//! How a caller watches and stops a long computation: a [`Progress`] trait it reports to,
//! a [`Cancel`] token it polls between steps, and the [`Watch`] that carries both into a run:
//! the one handle of the engine's sweeps, the games' solvers and the GPU's runs alike.
//!
//! All belong to one run, not to the process: a library user can run two sweeps at once,
//! show progress for one and cancel the other. The `palace` binary implements [`Progress`]
//! with a terminal progress bar and sets its runs' [`Cancel`] tokens from signal handlers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Receives a long computation's progress: a length, then positions or increments in the
/// same unit (rows, columns, boards). Every method does nothing by default, so an
/// implementation overrides only what it shows. Called from worker threads.
pub trait Progress: Sync {
    /// The total the positions count towards.
    fn set_length(&self, _len: u64) {}
    /// The work done so far.
    fn set_position(&self, _pos: u64) {}
    /// `delta` more units done.
    fn inc(&self, _delta: u64) {}
    /// The work before the current position was done earlier (a resumed run): rates and
    /// estimates should count from here.
    fn resumed(&self) {}
    /// What the run is doing now, in a few words (e.g. how far an analysis has got).
    fn message(&self, _msg: &str) {}
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// A cancellation token. Clones share one flag: cancelling any clone cancels the run that
/// holds another. A fresh token (or `Default`) is not cancelled.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A new token, not cancelled.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every run holding this token (or a clone) to stop. Safe to call from a signal
    /// handler's thread.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the run should stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(`[`Error::Interrupted`](crate::error::Error::Interrupted)`)` once cancelled: what
    /// a long computation returns at the points where it looks at the token.
    pub fn check(&self) -> crate::error::Result<()> {
        if self.is_cancelled() { Err(crate::error::Error::Interrupted) } else { Ok(()) }
    }
}

/// A run's cancel token and progress receiver, borrowed for the run: what the engine's
/// sweeps ([`Sweep::watch`](crate::engine::Sweep::watch)), the games' solvers and the GPU's
/// runs take to report how far they are and to stop when asked.
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    cancel: Option<&'a Cancel>,
    progress: &'a dyn Progress,
}

impl std::fmt::Debug for Watch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").field("cancel", &self.cancel).finish_non_exhaustive()
    }
}

impl<'a> Watch<'a> {
    /// Watches nothing: never cancelled, progress shown nowhere.
    pub const NONE: Watch<'static> = Watch { cancel: None, progress: &Silent };

    /// Watches `cancel` and reports to `progress`.
    pub fn new(cancel: &'a Cancel, progress: &'a dyn Progress) -> Self {
        Watch { cancel: Some(cancel), progress }
    }

    /// Reports to `progress`, never cancelled.
    pub fn reporting(progress: &'a dyn Progress) -> Self {
        Watch { cancel: None, progress }
    }

    /// Whether the run was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(Cancel::is_cancelled)
    }

    /// `Err(`[`Error::Interrupted`](crate::error::Error::Interrupted)`)` once the run was
    /// asked to stop.
    pub fn check(&self) -> crate::error::Result<()> {
        self.cancel.map_or(Ok(()), Cancel::check)
    }

    /// Where progress goes.
    pub fn progress(&self) -> &'a dyn Progress {
        self.progress
    }

    /// The token watched, if any.
    pub fn cancel(&self) -> Option<&'a Cancel> {
        self.cancel
    }
}

/// Two tokens are equal when they share one flag.
impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_reports_its_tokens_cancel() {
        let c = Cancel::new();
        let w = Watch::new(&c, &Silent);
        assert!(w.check().is_ok() && !w.is_cancelled());
        c.cancel();
        assert!(matches!(w.check(), Err(crate::error::Error::Interrupted)) && w.is_cancelled());
        assert!(Watch::NONE.check().is_ok() && Watch::reporting(&Silent).cancel().is_none());
    }

    #[test]
    fn clones_share_one_flag_and_fresh_tokens_are_independent() {
        let a = Cancel::new();
        let b = a.clone();
        let other = Cancel::new();
        assert!(!a.is_cancelled() && !b.is_cancelled());
        b.cancel();
        assert!(a.is_cancelled(), "a clone's cancel reaches the original");
        assert!(!other.is_cancelled(), "an unrelated token stays as it was");
        assert_eq!(a, b);
        assert_ne!(a, other);
    }
}
