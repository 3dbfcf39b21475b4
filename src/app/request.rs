//! What happens to every command's request between its validation and its work: its outputs
//! are checked ([`Outputs::check`]), its memory weighed against the machine's
//! ([`memory::fits`]), the `PALACE_ISA` cap read, and then it runs. Each command module
//! validates its arguments into a [`Request`] and hands it to [`Context::run`].

use crate::app::error::Result;
use crate::app::memory::{self, Need};
use crate::app::outputs::Outputs;
use crate::app::print::ExitCode;
use palace::backend::World;
use palace::engine::Cancel;

/// What a command runs with: the cancel token that the signal handlers cancel, and the MPI
/// world an MPI launcher started the process in.
#[derive(Debug)]
pub struct Context {
    /// Cancelled by the first SIGINT, SIGTERM or SIGHUP; every run heeds it.
    pub cancel: Cancel,
    /// The MPI world whose ranks share the runs that run over them (`None`: one process).
    pub world: Option<World>,
    /// Stop after the checks of the outputs (the validation's tests).
    validate_only: bool,
}

impl Context {
    /// A context whose requests run, stopped by `cancel`, over the ranks of `world` if any.
    pub fn new(cancel: Cancel, world: Option<World>) -> Self {
        Context { cancel, world, validate_only: false }
    }

    /// A context that validates the requests and checks their outputs, but runs nothing.
    #[cfg(test)]
    pub fn validation() -> Self {
        Context { cancel: Cancel::new(), world: None, validate_only: true }
    }

    /// Checks a validated request's outputs and memory, then runs it.
    pub fn run<R: Request>(&self, request: R) -> Result<ExitCode> {
        request.outputs().check()?;
        if self.validate_only {
            return Ok(0);
        }
        memory::fits(request.need())?;
        palace::simd::cpu::check_env()?;
        request.run(self)
    }
}

/// A validated command: what it writes and holds in memory, and its work.
pub trait Request: Sized {
    /// The files it writes; by default none, and a report on standard output.
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default()
    }

    /// The memory it will need at most; `None` where the command's own bounds suffice (the
    /// games).
    fn need(&self) -> Option<Need> {
        None
    }

    /// Does the work and reports.
    fn run(self, ctx: &Context) -> Result<ExitCode>;
}
