//! The checkpoint flags of long runs (`stats`, `skin`): `--checkpoint`, `--every` and
//! `--resume`, turned into the library's [`Checkpoints`], which checks the paths and whose
//! driver ([`palace::resume::drive`]) runs the segments.

use crate::app::error::{Error, Result};
use clap::Args;
use palace::resume::Checkpoints;
use std::path::PathBuf;

/// Checkpoints of long runs (`stats`, `skin`).
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// Save the run's progress to FILE every --every minutes and when interrupted (SIGINT,
    /// SIGTERM, SIGHUP), atomically; removed when the run finishes. FILE must be new, or the
    /// file given to --resume.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Minutes between checkpoints (0: after every band of rows).
    #[arg(long, value_name = "MIN", default_value_t = 10.0, requires = "checkpoint")]
    pub every: f64,
    /// Continue the run saved in FILE (the same command and arguments).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

impl CheckpointArgs {
    /// The checkpoints, their paths checked before any work.
    pub fn resolve(self) -> Result<Checkpoints> {
        if !(self.every.is_finite() && (0.0..=1e6).contains(&self.every)) {
            return Err(Error::Usage(format!(
                "--every {} is not a number of minutes from 0 to 1000000; give e.g. --every 10",
                self.every
            )));
        }
        let every = std::time::Duration::from_secs_f64(self.every * 60.0);
        Ok(Checkpoints::new(self.checkpoint, every, self.resume)?)
    }
}
