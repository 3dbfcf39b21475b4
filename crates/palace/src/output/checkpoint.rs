//! Writing a sweep's checkpoint ([`Checkpoint`], encoded by the engine) to its file
//! atomically, with [`AtomicOutput`]: here rather than in the engine, which imports nothing of
//! the output layer.

use crate::engine::checkpoint::Checkpoint;
use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use std::path::Path;

/// Writes `c` to `path` atomically (a crash leaves the previous checkpoint or none, never a
/// torn one).
/// `flag` names the option that gave the path, for messages.
pub fn write(path: &Path, flag: &str, c: &Checkpoint) -> Result<()> {
    // Lengths are stored in 32 bits: refuse what they cannot hold rather than write a
    // checkpoint that reads back wrong.
    let widest = c.frontier.strips.iter().map(|s| s.bottom.len()).max().unwrap_or(0);
    if c.state.len() > u32::MAX as usize || widest > u32::MAX as usize {
        return Err(Error::Analysis(format!(
            "{flag} {}: the run's state ({} bytes) is too large for a checkpoint (4 GiB at most)",
            path.display(),
            c.state.len()
        )));
    }
    write_bytes(path, flag, &c.encode())
}

/// Writes a checkpoint's `bytes`, encoded by its run, to `path` atomically, as [`write()`] does
/// (the skin on a GPU has a format of its own).
pub fn write_bytes(path: &Path, flag: &str, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    // The path was checked before the run; what changed there since (its folder removed, a
    // FIFO or a folder put in its place) is a failure of the run, not of its arguments.
    let failed = |why: String| Error::Analysis(format!("cannot save the checkpoint: {why}"));
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(failed(format!(
            "{flag} {}: something other than a file is now at this path",
            path.display()
        )));
    }
    let mut out = AtomicOutput::create(path, flag).map_err(|e| match e {
        Error::OutputPath(why) => failed(why),
        e => e,
    })?;
    out.file().write_all(bytes).map_err(|e| Error::io(path, e))?;
    out.commit()?;
    Ok(())
}
