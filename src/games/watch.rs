//! How a caller watches and stops a long game computation: a [`Watch`] carries the run's
//! [`Cancel`] token and its [`Progress`] receiver into the solvers, which poll the token between
//! steps short enough to stop within a fraction of a second and report their progress in the
//! unit they name.
//!
//! The solvers print nothing and know no command line: a cancelled run ends with
//! [`Error::Interrupted`], and the caller decides what to say. [`Watch::NONE`] watches nothing;
//! the solvers' plain entry points (`solve`, `wins`, ...) run under it.

use crate::engine::{Cancel, Progress, Silent};
use crate::error::{Error, Result};

/// A run's cancel token and progress receiver, borrowed for the run.
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

    /// `Err(Error::Interrupted)` once the run was asked to stop.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() { Err(Error::Interrupted) } else { Ok(()) }
    }

    /// Where progress goes.
    pub fn progress(&self) -> &'a dyn Progress {
        self.progress
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_reports_its_tokens_cancel() {
        let c = Cancel::new();
        let w = Watch::new(&c, &Silent);
        assert!(w.check().is_ok());
        c.cancel();
        assert!(matches!(w.check(), Err(Error::Interrupted)));
        assert!(Watch::NONE.check().is_ok());
    }
}
