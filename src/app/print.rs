//! What every command shares at its end: its exit code, and its result written to standard
//! output. A module of its own, below the commands, so that the command modules and the
//! dispatcher in [`crate::app::commands`] import it without importing each other.

/// How a command ended when it did not fail: the process exit code (0, or 1 for a check that
/// found a mismatch).
pub type ExitCode = i32;

/// Writes a command's result to stdout; a closed pipe (`palace stats ... | head`) is not an
/// error.
pub fn out_text(text: &str) -> palace::error::Result<()> {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let r = o
        .write_all(text.as_bytes())
        .and_then(|()| if text.ends_with('\n') { Ok(()) } else { o.write_all(b"\n") });
    match r.and_then(|()| o.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(palace::error::Error::io("standard output", e))
        }
        _ => Ok(()),
    }
}
