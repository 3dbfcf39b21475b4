//! Writing a run's checkpoint ([`Checkpoint`], encoded by the engine) to its file atomically,
//! with [`AtomicOutput`]: here rather than in the engine, which imports nothing of the output
//! layer.

use crate::engine::checkpoint::Checkpoint;
use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use std::path::Path;

/// Writes `c` to `path` atomically (a crash leaves the previous checkpoint or none, never a
/// torn one).
pub fn write(path: &Path, c: &Checkpoint) -> Result<()> {
    use std::io::Write;
    // The path was checked before the run; what changed there since (its folder removed, a
    // FIFO or a folder put in its place) is a failure of the run, not of its arguments.
    let failed = |why: String| Error::Analysis(format!("cannot save the checkpoint: {why}"));
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(failed(format!("{}: something other than a file is now at this path", path.display())));
    }
    let mut out = AtomicOutput::create(path, "the checkpoint").map_err(|e| match e {
        Error::OutputPath(why) => failed(why),
        e => e,
    })?;
    out.file().write_all(&c.encode()).map_err(|e| Error::io(path, e))?;
    out.commit()?;
    Ok(())
}
