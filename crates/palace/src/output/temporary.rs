//! The temporary files and folders outputs are written to before they take their names
//! ([`super::atomic`]), and their removal when a run fails or is stopped.
//!
//! A [`Temporary`] keeps an open handle on the folder it was made in and removes itself
//! through that handle (`unlinkat` on Unix), so it goes even if the folder was renamed or
//! moved while the run wrote it. A temporary folder (a tile pyramid) is removed through
//! `/proc/self/fd` where there is one (Linux), else by its path.
//!
//! A process that must end at once, without unwinding (the `palace` binary on a second
//! signal), can still remove them: it hands [`watch`] a [`Temporaries`] list, which then holds
//! every temporary of the process while it exists, and calls [`Temporaries::remove_all`]
//! before it exits. Without a list nothing is recorded: a library user's runs stay
//! independent.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A temporary file or folder, removed when dropped unless [`Temporary::keep`] was called.
#[derive(Debug)]
pub struct Temporary {
    /// The folder it lies in, open (none where folders cannot be opened).
    dir: Option<Arc<File>>,
    /// Its name in that folder.
    name: OsString,
    /// Its path when it was made.
    path: PathBuf,
    /// Whether it is a folder.
    is_dir: bool,
    /// Its entry in the watching list, if any.
    id: Option<u64>,
}

impl Temporary {
    /// Takes charge of the file or folder just made at `path` (in the folder `dir`, whose
    /// handle `dir_handle` is, if it could be opened).
    pub(crate) fn new(dir_handle: Option<Arc<File>>, path: PathBuf, is_dir: bool) -> Temporary {
        let name = path.file_name().map(OsString::from).unwrap_or_default();
        let mut t = Temporary { dir: dir_handle, name, path, is_dir, id: None };
        if let Some(list) = WATCH.get() {
            t.id = list.add(&t);
        }
        t
    }

    /// Opens the folder `dir` for [`Temporary::new`] (none where that is not possible).
    pub(crate) fn open_dir(dir: &Path) -> Option<Arc<File>> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
                .open(dir)
                .ok()
                .map(Arc::new)
        }
        #[cfg(not(unix))]
        {
            let _ = dir;
            None
        }
    }

    /// Its path when it was made.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// No longer removes it (it was renamed into place).
    pub fn keep(mut self) {
        self.forget();
    }

    fn forget(&mut self) {
        if let (Some(id), Some(list)) = (self.id.take(), WATCH.get()) {
            list.drop_entry(id);
        }
        self.name.clear();
    }

    /// Removes it now.
    fn remove(&self) {
        remove(self.dir.as_deref(), &self.name, &self.path, self.is_dir);
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.name.is_empty() {
            self.remove();
            self.forget();
        }
    }
}

/// Removes `name` in the folder `dir` (whose path was `path`'s parent).
fn remove(dir: Option<&File>, name: &OsString, path: &Path, is_dir: bool) {
    #[cfg(unix)]
    if let Some(dir) = dir {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let fd = dir.as_raw_fd();
        if is_dir {
            // Through the folder's handle, wherever the folder is now.
            let through = PathBuf::from(format!("/proc/self/fd/{fd}")).join(name);
            if std::fs::remove_dir_all(&through).is_ok() {
                return;
            }
        } else if let Ok(c) = std::ffi::CString::new(name.as_bytes()) {
            // SAFETY: `fd` is an open folder for as long as `dir` lives; `c` is a valid C string.
            if unsafe { libc::unlinkat(fd, c.as_ptr(), 0) } == 0 {
                return;
            }
        }
    }
    let _ = (dir, name);
    let _ = if is_dir { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
}

/// The temporaries of a process, for [`watch`].
#[derive(Debug, Default)]
pub struct Temporaries {
    live: Mutex<(HashMap<u64, Entry>, bool)>,
    next: AtomicU64,
}

#[derive(Debug)]
struct Entry {
    dir: Option<Arc<File>>,
    name: OsString,
    path: PathBuf,
    is_dir: bool,
}

impl Temporaries {
    fn add(&self, t: &Temporary) -> Option<u64> {
        let mut g = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if g.1 {
            // The process is ending: this one goes at once.
            remove(t.dir.as_deref(), &t.name, &t.path, t.is_dir);
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let e = Entry { dir: t.dir.clone(), name: t.name.clone(), path: t.path.clone(), is_dir: t.is_dir };
        g.0.insert(id, e);
        Some(id)
    }

    fn drop_entry(&self, id: u64) {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).0.remove(&id);
    }

    /// Removes every temporary that exists now, and any made from now on as soon as it is
    /// made: for a process about to exit without unwinding.
    pub fn remove_all(&self) {
        let mut g = self.live.lock().unwrap_or_else(|e| e.into_inner());
        g.1 = true;
        for (_, e) in g.0.drain() {
            remove(e.dir.as_deref(), &e.name, &e.path, e.is_dir);
        }
    }

    /// How many temporaries exist now.
    pub fn len(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).0.len()
    }

    /// Whether none exists now.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

static WATCH: OnceLock<&'static Temporaries> = OnceLock::new();

/// Records every temporary of this process in `list` from now on (the first call wins; the
/// `palace` binary makes it once, at start).
pub fn watch(list: &'static Temporaries) {
    let _ = WATCH.set(list);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary file goes when dropped, even after its folder was renamed.
    #[test]
    fn a_temporary_file_goes_even_from_a_renamed_folder() {
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("a");
        std::fs::create_dir(&dir).unwrap();
        let path = dir.join(".x.tmp");
        std::fs::write(&path, b"partial").unwrap();
        let t = Temporary::new(Temporary::open_dir(&dir), path, false);
        std::fs::rename(&dir, top.path().join("b")).unwrap();
        drop(t);
        assert_eq!(std::fs::read_dir(top.path().join("b")).unwrap().count(), 0);
    }

    /// So does a temporary folder with files in it (where `/proc/self/fd` exists).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_temporary_folder_goes_even_from_a_renamed_folder() {
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("a");
        std::fs::create_dir_all(dir.join(".t.tmp/level")).unwrap();
        std::fs::write(dir.join(".t.tmp/level/0.png"), b"x").unwrap();
        let t = Temporary::new(Temporary::open_dir(&dir), dir.join(".t.tmp"), true);
        std::fs::rename(&dir, top.path().join("b")).unwrap();
        drop(t);
        assert_eq!(std::fs::read_dir(top.path().join("b")).unwrap().count(), 0);
    }

    /// A kept temporary stays.
    #[test]
    fn a_kept_temporary_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, b"done").unwrap();
        Temporary::new(Temporary::open_dir(dir.path()), path.clone(), false).keep();
        assert!(path.exists());
    }
}
