//! Output files, and folders ([`AtomicDir`]), that appear complete or not at all.
//!
//! What happens depends on what the output path names, and is decided (and checked) in
//! [`AtomicOutput::create`], before any computing starts:
//!
//! * **nothing yet, or a regular file**: everything is written to a hidden temporary file
//!   beside the target (`.NAME.XXXXXX.tmp`) and renamed over it only when the run succeeded.
//!   A failed or interrupted run removes the temporary file and leaves whatever was at the
//!   path untouched. An existing file keeps its permissions (its mode); other hard links to
//!   it keep the old contents, since the name now points to a new file.
//! * **a symbolic link**: it is followed, and its target is written as above; the link stays.
//!   A link to nothing is refused.
//! * **a device or a FIFO** (`/dev/null`, a named pipe): written in place, since such a path
//!   cannot be replaced by a rename. What a failed run already wrote there stays written. A
//!   FIFO is opened without blocking, so that a run waiting for its reader can be cancelled
//!   ([`AtomicOutput::create_cancellable`]).
//! * **`-`**: standard output, in place, unless it is a terminal.
//! * **a folder**, a name ending in `/`, a name too long for the file system, a folder that
//!   does not exist or cannot be written: refused with a usage error naming the output as the caller named it.
//!
//! Temporary files and folders are [`Temporary`]s: removed through a handle on their folder,
//! and listed for a process that must exit at once (see [`super::temporary`]).

use super::temporary::Temporary;
use crate::error::{Error, Result};
use std::fs::{File, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Longest file name (bytes) most file systems accept.
const NAME_MAX: usize = 255;

/// A file being written: to a temporary name renamed into place by [`AtomicOutput::commit`],
/// or in place for devices, FIFOs and standard output. Dropping it without committing deletes
/// the temporary file.
#[derive(Debug)]
pub struct AtomicOutput {
    /// The path as the user gave it (for messages and for [`AtomicOutput::path`]).
    path: PathBuf,
    how: How,
    /// Once cancelled, the output is not committed.
    cancel: Option<crate::engine::Cancel>,
}

#[derive(Debug)]
enum How {
    /// A temporary file in `target`'s folder, renamed over `target` on commit, with `mode`
    /// (the replaced file's permissions) applied first.
    Replace { target: PathBuf, file: File, tmp: Temporary, mode: Option<Permissions> },
    /// Written where it is: a device, a FIFO, standard output.
    InPlace { file: File },
    /// A scratch file ([`AtomicOutput::scratch`]): deleted when dropped, never renamed.
    Scratch { file: File, tmp: Temporary },
}

impl AtomicOutput {
    /// Prepares to write `path`, given by the user as `name` (the flag or argument that named it, quoted in every error). All the
    /// checks of the module documentation happen here.
    pub fn create(path: &Path, name: &str) -> Result<Self> {
        let mut out = Self::create_cancellable(path, name, &crate::engine::Cancel::new())?;
        out.cancel = None;
        Ok(out)
    }

    /// [`AtomicOutput::create`] for a run that `cancel` stops: waiting for a FIFO's reader
    /// ends with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once it is cancelled, and so does
    /// [`AtomicOutput::commit`] (the output does not take its name after a signal, however
    /// far the run got).
    pub fn create_cancellable(path: &Path, name: &str, cancel: &crate::engine::Cancel) -> Result<Self> {
        let mut out = Self::open_checked(path, name, cancel)?;
        out.cancel = Some(cancel.clone());
        Ok(out)
    }

    fn open_checked(path: &Path, name: &str, cancel: &crate::engine::Cancel) -> Result<Self> {
        let shown = path.display();
        let usage = |why: String| Error::OutputPath(format!("{name} {shown}: {why}"));
        if path.as_os_str().is_empty() {
            return Err(Error::OutputPath(format!("{name} is empty; give a file name such as out.png")));
        }
        if path.as_os_str() == "-" {
            return Self::stdout(name);
        }
        let text = path.as_os_str().as_encoded_bytes();
        if text.ends_with(b"/") || path.file_name().is_none() {
            return Err(usage("names a folder; give a file name (inside an existing folder)".into()));
        }
        let name_len = path.file_name().map_or(0, |n| n.as_encoded_bytes().len());
        if name_len > NAME_MAX {
            return Err(usage(format!(
                "the file name is {name_len} bytes long; file systems take at most {NAME_MAX}"
            )));
        }
        // What is at the path now decides how it is written.
        let meta = std::fs::symlink_metadata(path);
        let target = match &meta {
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|_| {
                usage("is a symbolic link to nothing; give the file it should point to".into())
            })?,
            _ => path.to_path_buf(),
        };
        let mode = match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => {
                return Err(usage("is a folder; give a file name inside it".into()));
            }
            Ok(m) if m.is_file() => Some(m.permissions()),
            Ok(_) => {
                // A device, a FIFO or a socket: it cannot be replaced, so write into it.
                let file = open_in_place(&target, cancel).map_err(|e| match e {
                    Error::Io { source, .. } => {
                        usage(format!("cannot be opened for writing ({source}); give a regular file's name"))
                    }
                    e => e,
                })?;
                return Ok(AtomicOutput {
                    path: path.to_path_buf(),
                    how: How::InPlace { file },
                    cancel: None,
                });
            }
            Err(_) => None,
        };
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file_name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // `.NAME.XXXXXX.tmp` names the output it belongs to, where that still fits.
        let prefix =
            if file_name.len() + 12 <= NAME_MAX { format!(".{file_name}.") } else { ".palace.".into() };
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new output is an ordinary file, readable by others like any file we create.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        // Say what went wrong without the temporary file's name, which the user never chose.
        let handle = Temporary::open_dir(&dir);
        let (file, tmp) =
            builder.tempfile_in(&dir).map_err(|e| cannot_write_in(&dir, &e, &usage))?.into_parts();
        let tmp = Temporary::new(handle, own(tmp)?, false);
        Ok(AtomicOutput {
            path: path.to_path_buf(),
            how: How::Replace { target, file, tmp, mode },
            cancel: None,
        })
    }

    /// Standard output, written in place; refused when it is a terminal.
    #[cfg(unix)]
    fn stdout(name: &str) -> Result<Self> {
        use std::io::IsTerminal;
        use std::os::fd::AsFd;
        let out = std::io::stdout();
        if out.is_terminal() {
            return Err(Error::OutputPath(format!(
                "{name} -: standard output is a terminal; redirect it to a file or a pipe (... {name} - > out)"
            )));
        }
        let fd = out.as_fd().try_clone_to_owned().map_err(|e| Error::io("standard output", e))?;
        Ok(AtomicOutput {
            path: PathBuf::from("-"),
            how: How::InPlace { file: File::from(fd) },
            cancel: None,
        })
    }

    /// Standard output is not supported here.
    #[cfg(not(unix))]
    fn stdout(name: &str) -> Result<Self> {
        Err(Error::OutputPath(format!(
            "{name} -: writing to standard output needs a Unix system; give a file name"
        )))
    }

    /// A hidden scratch file for a first draft of this output, to be read back and then
    /// dropped (which deletes it): beside the output (`.NAME.XXXXXX.tmp`, so an interrupted
    /// run leaves the same kind of leftover as any other), or in the system's temporary folder
    /// where the output is written in place. [`AtomicOutput::commit`] on it flushes it and
    /// deletes it too: a scratch file never takes the output's name.
    pub fn scratch(&self) -> Result<AtomicOutput> {
        let (dir, name) = match &self.how {
            How::Replace { target, .. } => (
                match target.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                },
                target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            ),
            _ => (std::env::temp_dir(), "palace".to_string()),
        };
        let prefix = if name.len() + 20 <= NAME_MAX { format!(".{name}.draft.") } else { ".palace.".into() };
        let handle = Temporary::open_dir(&dir);
        let (file, tmp) = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| Error::io(dir.join(&prefix), e))?
            .into_parts();
        let tmp = Temporary::new(handle, own(tmp)?, false);
        Ok(AtomicOutput { path: tmp.path().to_path_buf(), how: How::Scratch { file, tmp }, cancel: None })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the output is written in place (a device, a FIFO, standard output) rather
    /// than renamed into place.
    pub fn in_place(&self) -> bool {
        matches!(self.how, How::InPlace { .. })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut File {
        match &mut self.how {
            How::Replace { file, .. } | How::Scratch { file, .. } | How::InPlace { file } => file,
        }
    }

    /// Flushes the output and, unless it is written in place, renames it into place (with
    /// the replaced file's permissions). Returns the path as given.
    pub fn commit(self) -> Result<PathBuf> {
        if self.cancel.as_ref().is_some_and(crate::engine::Cancel::is_cancelled) {
            return Err(Error::INTERRUPTED);
        }
        let path = self.path;
        match self.how {
            How::InPlace { mut file } => file.flush().map_err(|e| Error::io(&path, e))?,
            How::Scratch { mut file, tmp } => {
                file.flush().map_err(|e| Error::io(&path, e))?;
                drop(tmp);
            }
            How::Replace { target, mut file, tmp, mode } => {
                file.flush().map_err(|e| Error::io(&path, e))?;
                if let Some(mode) = mode {
                    file.set_permissions(mode).map_err(|e| Error::io(&path, e))?;
                }
                // A failed rename (the folder renamed or removed meanwhile) drops `tmp`, which
                // removes the temporary file wherever its folder is now.
                std::fs::rename(tmp.path(), &target).map_err(|e| Error::io(&path, e))?;
                tmp.keep();
            }
        }
        Ok(path)
    }
}

/// A folder being written (a tile pyramid): built in a hidden temporary folder beside the
/// target (`.NAME.XXXXXX.tmp`) and renamed into place by [`AtomicDir::commit`]. Dropping it
/// without committing removes the temporary folder and all it holds, so a failed or
/// interrupted run leaves no half-written folder behind.
///
/// The target may not exist yet, or be an empty folder, or be a folder holding a file named
/// `marker` (an earlier output of the same kind), which is replaced as a whole: the old folder
/// is renamed aside, the new one into place, then the old one removed. Any other existing path
/// is refused with a usage error naming the output as the caller named it, before any computing starts.
#[derive(Debug)]
pub struct AtomicDir {
    path: PathBuf,
    tmp: Temporary,
}

impl AtomicDir {
    /// Prepares to write the folder `path`, given as `name` (quoted in every error); `marker` names the file an
    /// earlier output of the same kind holds.
    pub fn create(path: &Path, name: &str, marker: &str) -> Result<Self> {
        let shown = path.display();
        let usage = |why: String| Error::OutputPath(format!("{name} {shown}: {why}"));
        if path.as_os_str().is_empty() {
            return Err(Error::OutputPath(format!("{name} is empty; give a folder name such as tiles")));
        }
        let Some(name) = path.file_name() else {
            return Err(usage("has no folder name; give one such as tiles".into()));
        };
        let name = name.to_string_lossy().into_owned();
        if name.len() > NAME_MAX {
            return Err(usage(format!(
                "the folder name is {} bytes long; file systems take at most {NAME_MAX}",
                name.len()
            )));
        }
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => {
                let empty = std::fs::read_dir(path).map(|mut d| d.next().is_none()).unwrap_or(false);
                if !empty && !path.join(marker).is_file() {
                    return Err(usage(format!(
                        "exists and is not an earlier output (it holds no {marker}); give a new folder or an empty one"
                    )));
                }
            }
            Ok(_) => return Err(usage("exists and is not a folder; give a folder name".into())),
            Err(_) => {}
        }
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let prefix = if name.len() + 12 <= NAME_MAX { format!(".{name}.") } else { ".palace.".into() };
        let handle = Temporary::open_dir(&dir);
        let tmp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".tmp")
            .tempdir_in(&dir)
            .map_err(|e| cannot_write_in(&dir, &e, &usage))?
            .keep();
        let tmp = Temporary::new(handle, tmp, true);
        #[cfg(unix)]
        {
            // A new output is an ordinary folder, readable by others like any we create.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(tmp.path(), Permissions::from_mode(0o755))
                .map_err(|e| Error::io(tmp.path(), e))?;
        }
        Ok(AtomicDir { path: path.to_path_buf(), tmp })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary folder to write into.
    pub fn dir(&self) -> &Path {
        self.tmp.path()
    }

    /// Renames the folder into place, replacing an earlier one; returns the path as given.
    pub fn commit(self) -> Result<PathBuf> {
        let path = self.path;
        let io = |e| Error::io(&path, e);
        let guard = self.tmp;
        let tmp = guard.path().to_path_buf();
        if std::fs::symlink_metadata(&path).is_ok() {
            // `rename` does not replace a folder that holds files: move the old one aside first.
            let aside = tempfile::Builder::new()
                .prefix(".palace-old.")
                .tempdir_in(tmp.parent().unwrap_or(Path::new(".")))
                .map_err(io)?
                .keep();
            std::fs::rename(&path, aside.join("old")).map_err(io)?;
            std::fs::rename(&tmp, &path).map_err(io)?;
            guard.keep();
            std::fs::remove_dir_all(&aside).map_err(io)?;
        } else {
            std::fs::rename(&tmp, &path).map_err(io)?;
            guard.keep();
        }
        Ok(path)
    }
}

/// Takes the temporary file's removal over from `tempfile` (see [`Temporary`]).
fn own(tmp: tempfile::TempPath) -> Result<PathBuf> {
    let shown = tmp.to_path_buf();
    tmp.keep().map_err(|e| Error::io(shown, e.error))
}

/// Opens a device, FIFO or socket for writing in place. A FIFO without a reader would block
/// the open until one comes, deaf to the run's cancellation: it is opened without blocking,
/// again every 20 ms while it has no reader, until `cancel` says stop
/// ([`EngineError::Interrupted`](crate::error::EngineError::Interrupted)); then the file is made blocking again for the writes.
fn open_in_place(target: &Path, cancel: &crate::engine::Cancel) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        loop {
            match std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(target) {
                Ok(file) => {
                    let fd = file.as_raw_fd();
                    // SAFETY: `fd` is the open file's; F_GETFL and F_SETFL take and return flags.
                    let ok = unsafe {
                        let flags = libc::fcntl(fd, libc::F_GETFL);
                        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
                    };
                    if !ok {
                        return Err(Error::io(target, std::io::Error::last_os_error()));
                    }
                    return Ok(file);
                }
                // ENXIO: a FIFO that no one reads yet.
                Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                    cancel.check()?;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => return Err(Error::io(target, e)),
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = cancel;
        std::fs::OpenOptions::new().write(true).open(target).map_err(|e| Error::io(target, e))
    }
}

/// The error for a temporary file or folder that cannot be created in `dir`, through the
/// caller's `usage` (which names the name and the path given).
fn cannot_write_in(dir: &Path, e: &std::io::Error, usage: &dyn Fn(String) -> Error) -> Error {
    let e = match e.kind() {
        std::io::ErrorKind::NotFound => "no such folder".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        other => other.to_string(),
    };
    usage(format!("cannot write in {} ({e}); choose an existing, writable folder", dir.display()))
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

    #[test]
    fn a_scratch_file_lies_beside_the_output_and_goes_when_dropped() {
        use std::io::{Read, Seek};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("map.png");
        let out = AtomicOutput::create(&p, "-o").unwrap();
        let mut scratch = out.scratch().unwrap();
        assert_eq!(scratch.path().parent(), Some(dir.path()));
        let name = scratch.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".map.png.draft.") && name.ends_with(".tmp"), "{name}");
        scratch.file().write_all(b"draft").unwrap();
        scratch.file().rewind().unwrap();
        let mut back = String::new();
        scratch.file().read_to_string(&mut back).unwrap();
        assert_eq!(back, "draft");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "the output's and the scratch's");
        drop(scratch);
        out.commit().unwrap();
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("map.png")]);
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_mode_and_a_link_is_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("private.bin");
        std::fs::write(&p, b"old").unwrap();
        std::fs::set_permissions(&p, Permissions::from_mode(0o600)).unwrap();
        let mut o = AtomicOutput::create(&p, "-o").unwrap();
        o.file().write_all(b"new").unwrap();
        o.commit().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);

        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        let mut o = AtomicOutput::create(&link, "-o").unwrap();
        o.file().write_all(b"through the link").unwrap();
        o.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read(&p).unwrap(), b"through the link");

        let dangling = dir.path().join("dangling.bin");
        std::os::unix::fs::symlink(dir.path().join("missing/file"), &dangling).unwrap();
        let e = AtomicOutput::create(&dangling, "-o").unwrap_err();
        assert!(e.is_usage() && e.to_string().contains("symbolic link"), "{e}");
    }

    #[test]
    fn folders_and_long_names_are_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        for (p, needle) in [
            (dir.path().to_path_buf(), "is a folder"),
            (dir.path().join("newdir/"), "names a folder"),
            (dir.path().join("n".repeat(300)), "at most 255"),
        ] {
            let e = AtomicOutput::create(&p, "--output").unwrap_err();
            assert!(e.is_usage() && e.to_string().contains(needle), "{}: {e}", p.display());
        }
        // A legal name of 251 bytes works: the temporary name is shortened.
        let p = dir.path().join(format!("{}.png", "n".repeat(247)));
        let mut o = AtomicOutput::create(&p, "--output").unwrap();
        o.file().write_all(b"x").unwrap();
        o.commit().unwrap();
        assert!(p.exists());
    }

    #[test]
    fn a_folder_appears_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pyramid");
        {
            let o = AtomicDir::create(&p, "-o", "board.dzi").unwrap();
            std::fs::write(o.dir().join("part"), b"x").unwrap();
        }
        assert!(!p.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "temporary folder removed");
        let o = AtomicDir::create(&p, "-o", "board.dzi").unwrap();
        std::fs::write(o.dir().join("board.dzi"), b"one").unwrap();
        o.commit().unwrap();
        // An earlier output is replaced as a whole.
        let o = AtomicDir::create(&p, "-o", "board.dzi").unwrap();
        std::fs::write(o.dir().join("board.dzi"), b"two").unwrap();
        o.commit().unwrap();
        assert_eq!(std::fs::read(p.join("board.dzi")).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing left aside");
        // A folder that is something else is refused.
        let other = dir.path().join("photos");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join("cat.jpg"), b"").unwrap();
        let e = AtomicDir::create(&other, "-o", "board.dzi").unwrap_err();
        assert!(e.is_usage() && e.to_string().contains("not an earlier output"), "{e}");
    }
}
