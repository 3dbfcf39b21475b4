//! The files a command writes: the checks before any work (two outputs landing in one place,
//! standard output taken by the report, a folder that cannot be written), and the opening of
//! each output so that a failed run leaves nothing half-written ([`open`]).

use crate::app::error::{Error, Result};
use palace::engine::Cancel;
use palace::output::atomic::AtomicOutput;
use std::path::{Path, PathBuf};

/// The files a run writes, each with the flag that names it (a checkpoint and the one it
/// resumes from included), and whether it also prints a report on standard output.
#[derive(Debug)]
pub struct Outputs<'a> {
    files: Vec<(&'static str, &'a Path)>,
    report: bool,
    folder: bool,
}

impl Default for Outputs<'_> {
    /// No file; a report on standard output.
    fn default() -> Self {
        Outputs { files: Vec::new(), report: true, folder: false }
    }
}

impl<'a> Outputs<'a> {
    /// No file, and nothing else on standard output: the one output may be `-`.
    pub fn no_report() -> Self {
        Outputs { report: false, ..Outputs::default() }
    }

    /// Adds the file that `flag` names.
    pub fn file(mut self, flag: &'static str, path: &'a Path) -> Self {
        self.files.push((flag, path));
        self
    }

    /// Adds the file that `flag` names, if given.
    pub fn maybe(self, flag: &'static str, path: Option<&'a Path>) -> Self {
        match path {
            Some(p) => self.file(flag, p),
            None => self,
        }
    }

    /// Adds the folder that `--output` names (which cannot be standard output).
    pub fn folder(mut self, path: &'a Path) -> Self {
        self.folder = true;
        self.file("--output", path)
    }

    /// Adds a checkpoint and the checkpoint resumed from.
    pub fn checkpoints(self, save: Option<&'a Path>, resume: Option<&'a Path>) -> Self {
        self.maybe("--checkpoint", save).maybe("--resume", resume)
    }

    /// Refuses two outputs of one run that land in one place, which would keep only one of
    /// them or mix them: two flags naming one file (compared after following links, so
    /// `a.png` and `./a.png` are one), or `-` (standard output) where the command also prints
    /// its report there or another output is `-`. A checkpoint may be the file it resumes
    /// from.
    pub fn check(&self) -> Result<()> {
        let report = self.report;
        let mut seen: Vec<(&str, &std::path::Path, PathBuf)> = Vec::new();
        for &(flag, path) in &self.files {
            if path.as_os_str() == "-" {
                if flag == "--output" && self.folder {
                    return Err(Error::Usage(
                        "--output -: tiles writes a folder of files, which cannot go to standard output; give a folder name such as tiles".into(),
                    ));
                }
                if matches!(flag, "--checkpoint" | "--resume") {
                    return Err(Error::Usage(format!(
                        "{flag} -: a checkpoint is a file, not standard output; give a file name such as run.ckpt"
                    )));
                }
                if report {
                    return Err(Error::Usage(format!(
                        "{flag} -: the command prints its report on standard output too, and the two would be mixed; give {flag} a file name"
                    )));
                }
            }
            let resolved = resolve_destination(path);
            for (other, other_path, r) in &seen {
                let resumed =
                    matches!((*other, flag), ("--checkpoint", "--resume") | ("--resume", "--checkpoint"));
                if *r == resolved && !resumed {
                    let same = if *other_path == path {
                        format!("{other} and {flag} both name {}", path.display())
                    } else {
                        format!(
                            "{other} {} and {flag} {} name the same file",
                            other_path.display(),
                            path.display()
                        )
                    };
                    return Err(Error::Usage(format!(
                        "{same}, and one output would overwrite the other; give each its own name"
                    )));
                }
            }
            seen.push((flag, path, resolved));
        }
        Ok(())
    }
}

/// Checks before any work that `dir` is an existing folder this process can write in.
pub fn check_writable_dir(dir: &Path, flag: &str) -> Result<()> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{flag} {}: no such folder; give an existing folder",
            dir.display()
        )));
    }
    tempfile::Builder::new().prefix(".palace-check").tempfile_in(dir).map(drop).map_err(|e| {
        Error::Usage(format!("{flag} {}: cannot write there ({e}); give a writable folder", dir.display()))
    })
}

/// Where an output path lands, for comparing two outputs: `-` stays `-`; links are followed
/// (also to a file yet to be written); the rest is its folder's real path and its name.
fn resolve_destination(path: &std::path::Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return path.to_path_buf();
    }
    let mut path = path.to_path_buf();
    // Follow links by hand, since `canonicalize` refuses one to a file not written yet.
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(to) => path = path.parent().map_or(to.clone(), |d| d.join(&to)),
            Err(_) => break,
        }
    }
    if let Ok(p) = std::fs::canonicalize(&path) {
        return p;
    }
    let path = path.as_path();
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// Opens an output before any computing (see [`AtomicOutput::create`]) and warns when the
/// file's name promises another format than the `ext` it will hold.
pub fn open(path: &Path, flag: &str, ext: &str, cancel: &Cancel) -> Result<AtomicOutput> {
    let out = AtomicOutput::create_cancellable(path, flag, cancel)?;
    if !out.in_place() {
        let given = path.extension().map(|e| e.to_string_lossy().to_lowercase());
        if given.as_deref() != Some(ext) {
            eprintln!(
                "palace: warning: {flag} {}: the file will hold {} data whatever its name; name it .{ext} to say so",
                path.display(),
                ext.to_uppercase()
            );
        }
    }
    Ok(out)
}

/// Writes into an opened output with `write`, an I/O error naming the output's path; the caller
/// commits the output once the run has computed everything.
pub fn write_into(
    out: &mut AtomicOutput,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    let path = out.path().to_path_buf();
    write(out.file()).map_err(|e| Error::io(&path, e))
}
