//! Output files that appear complete or not at all: everything is written to a temporary
//! file beside the target and renamed into place only when the run succeeded. A failed or
//! interrupted run leaves nothing at the output path.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// A file being written to a temporary name, renamed to `path` by [`AtomicOutput::commit`].
/// Dropping it without committing deletes the temporary file.
#[derive(Debug)]
pub struct AtomicOutput {
    path: PathBuf,
    tmp: NamedTempFile,
}

impl AtomicOutput {
    /// Prepares to write `path`. Fails with a usage error naming `flag` when the directory
    /// does not exist or is not writable, or when `path` is a directory: this is checked before
    /// any computing starts.
    pub fn create(path: &Path, flag: &str) -> Result<Self> {
        if path.as_os_str().is_empty() {
            return Err(Error::Usage(format!("{flag} is empty; give a file name such as out.png")));
        }
        if path.is_dir() {
            return Err(Error::Usage(format!(
                "{flag} {} is a directory; give a file name inside it",
                path.display()
            )));
        }
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A finished output is an ordinary file, readable by others like any file we create.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        let tmp = builder.tempfile_in(&dir).map_err(|e| {
            // Say what went wrong without the temporary file's name, which the user never chose.
            let e = match e.kind() {
                std::io::ErrorKind::NotFound => "no such directory".to_string(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                other => other.to_string(),
            };
            Error::Usage(format!(
                "{flag} {}: cannot write in {} ({e}); choose an existing, writable directory",
                path.display(),
                dir.display()
            ))
        })?;
        Ok(AtomicOutput { path: path.to_path_buf(), tmp })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file to write to.
    pub fn file(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// Flushes and renames the temporary file to the final path.
    pub fn commit(mut self) -> Result<PathBuf> {
        self.tmp.as_file_mut().flush().map_err(|e| Error::io(&self.path, e))?;
        let path = self.path;
        self.tmp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_until_commit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.bin");
        let mut o = AtomicOutput::create(&p, "-o").unwrap();
        o.file().write_all(b"hello").unwrap();
        assert!(!p.exists());
        o.commit().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"hello");
        let p2 = dir.path().join("y.bin");
        {
            let mut o = AtomicOutput::create(&p2, "-o").unwrap();
            o.file().write_all(b"partial").unwrap();
        }
        assert!(!p2.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "temporary file removed");
        let bad = AtomicOutput::create(Path::new("/nonexistent-dir/x.png"), "-o").unwrap_err();
        assert!(bad.is_usage() && bad.to_string().contains("-o"), "{bad}");
    }
}
