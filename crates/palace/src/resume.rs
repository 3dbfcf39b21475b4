//! Long runs that pause and resume: one trait ([`Resumable`]) that every such run implements
//! (the statistics and palace counts of a board, the skin on the CPU and on a GPU), and one
//! driver ([`drive`]) that runs it in segments, saves a checkpoint between them and when a
//! signal asks, and resumes from a saved one. A new driver (a pipeline of processes, say)
//! drives the same runs through the same four steps: [`Resumable::segment`],
//! [`Resumable::encode`], [`Resumable::restore`] and [`Resumable::finish`].
//!
//! A checkpoint is one file ([`Checkpoint`]: a magic line, the format and the program's
//! version, the run's tag, its state, a CRC-32), its state written with the one encoding of
//! [`Writer`] and read back with [`Reader`]. It is written atomically, so a crash leaves the
//! previous checkpoint or none.
//!
//! ```
//! use palace::analysis::stats::{self, PalaceCountRun};
//! use palace::engine::{Cancel, EngineOptions, Silent};
//! use palace::resume::{Checkpoints, drive};
//!
//! // A run without checkpoints is driven in one segment, to the count of one sweep.
//! let opts = EngineOptions::default();
//! let run = PalaceCountRun::new(500, 1500, 1500, &opts, &Silent)?;
//! let (count, _report) = drive(run, &Checkpoints::none(), &Cancel::new())?;
//! assert_eq!(count, stats::palaces(500, 1500, 1500, &opts, &Silent)?.0);
//! # Ok::<(), palace::Error>(())
//! ```

pub use crate::engine::checkpoint::{Checkpoint, Reader, Writer};
use crate::engine::{Cancel, EngineOptions};
use crate::error::{Error, Param, ParameterError, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A run that can stop between its steps (bands of rows, GPU submissions), be saved, and be
/// continued, in this process or another, to the result an uninterrupted run gives.
pub trait Resumable {
    /// What the finished run gives.
    type Output;

    /// Names the run (command, game, board, options that change the result or the state): a
    /// checkpoint of another run is refused.
    fn tag(&self) -> String;

    /// Rows done and rows in all, for the message of a paused run.
    fn rows(&self) -> (u32, u32);

    /// Runs until the run is done (`true`) or, between two steps, `pause` says stop (`false`:
    /// the run can be encoded, or continued by another segment). A run's own cancel token
    /// stops it with [`Error::INTERRUPTED`] within its steps in flight, leaving nothing to save.
    fn segment(&mut self, pause: &(dyn Fn() -> bool + Sync)) -> Result<bool>;

    /// The state of a paused run, everything another process needs to continue it.
    fn encode(&self, w: &mut Writer);

    /// Continues from a state [`Resumable::encode`] wrote for this run; says why not when the
    /// state is malformed or one this run cannot have reached.
    fn restore(&mut self, r: &mut Reader<'_>) -> std::result::Result<(), String>;

    /// The result of the run, once [`Resumable::segment`] said it is done.
    fn finish(self) -> Result<Self::Output>;
}

/// Where a run saves its checkpoints, how often, and which it resumes from; checked when made
/// ([`Checkpoints::new`]), before any work.
#[derive(Debug, Clone, Default)]
pub struct Checkpoints {
    save: Option<PathBuf>,
    every: Duration,
    resume: Option<PathBuf>,
}

impl Checkpoints {
    /// No checkpoint saved, none resumed.
    pub fn none() -> Self {
        Checkpoints::default()
    }

    /// Saves to `save` every `every` (and when the run is stopped), resumes from `resume`.
    /// `save` must be new or the file resumed from (the run replaces it as it goes and removes
    /// it when it finishes), and `resume` a file; anything else is refused now, before any
    /// work.
    pub fn new(save: Option<PathBuf>, every: Duration, resume: Option<PathBuf>) -> Result<Self> {
        if let Some(path) = &resume {
            check_resume(path)?;
        }
        if let Some(path) = &save {
            check_save(path, resume.as_deref())?;
        }
        Ok(Checkpoints { save, every, resume })
    }

    /// The file checkpoints are saved to.
    pub fn save(&self) -> Option<&Path> {
        self.save.as_deref()
    }

    /// The checkpoint resumed from.
    pub fn resume(&self) -> Option<&Path> {
        self.resume.as_deref()
    }

    /// The engine options of the run's segments: `opts`, but where checkpoints are saved with
    /// a cancel token of their own, so that the caller's token (a signal) pauses the run at a
    /// step's end, leaving a state to save, instead of stopping it within its steps.
    pub fn engine(&self, opts: &EngineOptions) -> EngineOptions {
        match self.save {
            Some(_) => EngineOptions { cancel: Cancel::new(), ..opts.clone() },
            None => opts.clone(),
        }
    }

    /// The token the run itself heeds, given the caller's (see [`Checkpoints::engine`]).
    pub fn cancel<'a>(&self, own: &'a Cancel, caller: &'a Cancel) -> &'a Cancel {
        if self.save.is_some() { own } else { caller }
    }

    /// Whether the file saved to is the run's to remove when it finishes from the start: it
    /// is the file the run resumes from.
    fn owns(&self) -> bool {
        self.resume
            .as_deref()
            .zip(self.save.as_deref())
            .is_some_and(|(r, s)| crate::engine::checkpoint::same_file(r, s))
    }
}

/// Refuses a checkpoint to resume from where no file is to be read (nothing there, a folder, a
/// FIFO or a device); what the file holds is checked when it is read.
fn check_resume(path: &Path) -> Result<()> {
    let refuse = |what: &str| -> Result<()> {
        Err(ParameterError::new(Param::Resume, path.display().to_string())
            .text(format!(": {what}; "))
            .name(Param::Resume)
            .text(" takes the checkpoint file that an interrupted run with ")
            .set(Param::Checkpoint, "FILE")
            .text(" saved (the message it printed names it)")
            .into())
    };
    if path.as_os_str().is_empty() {
        return refuse("is empty");
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => refuse("no such file"),
        // Anything else (a folder we may not search) is the read's to report.
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => refuse("is a folder"),
        Ok(m) if !m.is_file() => refuse("is not a regular file (a FIFO, a device or a socket)"),
        Ok(_) => Ok(()),
    }
}

/// Refuses a checkpoint path the run could not own: the run replaces the file at that path
/// with each checkpoint and removes it when it finishes, so the path must be new, or the file
/// the run resumes from. Anything else there (a file that is not a checkpoint, a checkpoint
/// not being resumed, a link, a folder, a FIFO, a device) would be lost or would block the
/// run; and its folder must be writable.
fn check_save(path: &Path, resume: Option<&Path>) -> Result<()> {
    let refuse = |why: ParameterError| -> Result<()> { Err(why.into()) };
    let given = || ParameterError::new(Param::Checkpoint, path.display().to_string());
    let new_name = " a new file name such as run.ckpt";
    if path.as_os_str().is_empty() {
        return refuse(
            ParameterError::about(Param::Checkpoint, "")
                .name(Param::Checkpoint)
                .text(" is empty; give a file name such as run.ckpt"),
        );
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") || path.file_name().is_none() {
        return refuse(given().text(format!(": names a folder; give{new_name}")));
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let kind = meta.file_type();
        if kind.is_symlink() {
            return refuse(given().text(format!(
                ": is a symbolic link; the run replaces and then removes the file at this path, so give the checkpoint's own path or{new_name}"
            )));
        }
        if kind.is_dir() {
            return refuse(given().text(format!(": is a folder; give{new_name} (inside it, if you like)")));
        }
        if !kind.is_file() {
            return refuse(
                given()
                    .text(format!(": is not a regular file (a FIFO, a device or a socket); give{new_name}")),
            );
        }
        if resume.is_some_and(|r| crate::engine::checkpoint::same_file(r, path)) {
            // The run continues this checkpoint, replaces it as it goes and removes it at the end.
        } else if crate::engine::checkpoint::looks_like_checkpoint(path) {
            let shown = path.display().to_string();
            return refuse(
                given()
                    .text(": holds a checkpoint, which this run would overwrite; continue it with ")
                    .set(Param::Resume, shown.clone())
                    .text(" ")
                    .set(Param::Checkpoint, shown)
                    .text(", or delete it (or give a new file name) to start again"),
            );
        } else {
            return refuse(given().text(format!(
                ": exists and is not a palace checkpoint; the run would replace it and remove it when it finishes, so give{new_name}"
            )));
        }
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return refuse(
            given().text(format!(": no such folder as {}; give a file in an existing folder", dir.display())),
        );
    }
    if let Err(e) = tempfile::Builder::new().prefix(".palace-check").tempfile_in(dir) {
        return refuse(
            given()
                .text(format!(": cannot write in {} ({e}); give a file in a writable folder", dir.display())),
        );
    }
    Ok(())
}

/// Runs `run` to its end in segments, as `c` says: each segment pauses when `c`'s interval is
/// up or `stop` is cancelled, and then the run's state goes to `c`'s checkpoint; a run resumed
/// from a checkpoint starts from its state. Stopped by `stop` with a checkpoint to save, it
/// saves it and ends with [`Error::Paused`]; without one, with [`Error::INTERRUPTED`]. The
/// checkpoint is removed once the run finishes.
pub fn drive<R: Resumable>(mut run: R, c: &Checkpoints, stop: &Cancel) -> Result<R::Output> {
    let mut owned = c.owns();
    if let Some(path) = &c.resume {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let saved = Checkpoint::decode(&bytes, &run.tag(), path)?;
        // The checksum says the file is as written, not that what was written is possible.
        let mut r = Reader::new(&saved.state);
        let restored = run.restore(&mut r).and_then(|()| {
            if r.is_empty() { Ok(()) } else { Err("bytes are left after the run's state".into()) }
        });
        if let Err(why) = restored {
            return Err(Error::BadInput {
                path: path.to_path_buf(),
                reason: format!(
                    "the checkpoint's state is impossible for this run ({why}); start the run again without resuming it"
                ),
            });
        }
    }
    loop {
        let deadline = c.save.as_ref().map(|_| Instant::now() + c.every);
        let pause = || stop.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
        if run.segment(&pause)? {
            break;
        }
        let Some(path) = &c.save else {
            // Paused without a checkpoint to save: only a stop does that.
            return Err(Error::INTERRUPTED);
        };
        let mut w = Writer::new();
        run.encode(&mut w);
        let saved = Checkpoint { tag: run.tag(), state: w.into_bytes() };
        crate::output::checkpoint::write(path, &saved)?;
        owned = true;
        if stop.is_cancelled() {
            let (rows, height) = run.rows();
            return Err(Error::Paused { path: path.clone(), rows, height });
        }
    }
    if let Some(path) = c.save.as_ref().filter(|_| owned) {
        // A checkpoint left behind would only mislead.
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    run.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::stats::{self, PalaceCountRun, StatsRun};
    use crate::engine::{Progress, Silent};
    use crate::model::geometry::Board;

    /// Cancels `stop` once its count of positions reached runs out: a signal in the middle of a
    /// run.
    struct StopAfter<'a>(&'a Cancel, std::sync::atomic::AtomicU32);

    impl Progress for StopAfter<'_> {
        fn set_position(&self, _: u64) {
            if self.1.fetch_sub(1, std::sync::atomic::Ordering::Relaxed) == 1 {
                self.0.cancel();
            }
        }
    }

    /// Stopped after a few bands, a run saves its checkpoint and ends paused; resumed from it
    /// (in as many steps as it takes), it ends with the uninterrupted run's result and removes
    /// the checkpoint.
    #[test]
    fn a_stopped_run_resumes_to_the_same_result() {
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("run.ckpt");
        let opts = EngineOptions { threads: 2, band_height: Some(16), ..Default::default() };
        let (k, w, h) = (300, 700, 900);
        let want = stats::palaces(k, w, h, &opts, &Silent).unwrap().0;
        let board = Board::new(k, w, h).unwrap();
        let want_stats = stats::stats(k, board.full(), &opts, &Silent).unwrap().0;
        for stats_run in [false, true] {
            let mut resume = None;
            let mut stops = 0;
            loop {
                let c = Checkpoints::new(Some(ck.clone()), Duration::ZERO, resume.clone()).unwrap();
                let stop = Cancel::new();
                let progress = StopAfter(&stop, 3.into());
                let engine = c.engine(&opts);
                let result = if stats_run {
                    let run = StatsRun::new(board, board.full(), false, &engine, &progress).unwrap();
                    drive(run, &c, &stop).map(|(s, _)| assert_eq!(s, want_stats))
                } else {
                    let run = PalaceCountRun::new(k, w, h, &engine, &progress).unwrap();
                    drive(run, &c, &stop).map(|(n, _)| assert_eq!(n, want))
                };
                match result {
                    Ok(()) => break,
                    Err(Error::Paused { path, rows, height }) => {
                        assert!(path == ck && rows < height && ck.exists(), "{rows} of {height}");
                        resume = Some(ck.clone());
                        stops += 1;
                    }
                    Err(e) => panic!("{e}"),
                }
            }
            assert!(stops > 1, "stopped and resumed");
            assert!(!ck.exists(), "the checkpoint goes when the run ends");
        }
    }

    /// Paths a run could not own, or could not read, are refused before any work: a usage
    /// error naming the parameter.
    #[test]
    fn paths_that_cannot_be_used_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("notes.txt"), b"mine").unwrap();
        let every = Duration::from_secs(60);
        for (save, resume, param) in [
            (Some(d.join("notes.txt")), None, Param::Checkpoint),
            (Some(d.to_path_buf()), None, Param::Checkpoint),
            (Some(d.join("no/such/folder/run.ckpt")), None, Param::Checkpoint),
            (None, Some(d.join("nosuch.ckpt")), Param::Resume),
            (None, Some(d.to_path_buf()), Param::Resume),
        ] {
            let e = Checkpoints::new(save, every, resume).unwrap_err();
            assert!(e.is_usage() && e.parameter().is_some_and(|p| p.param == param), "{e}");
        }
        // A new file, and the checkpoint a run resumes from, are fine.
        Checkpoints::new(Some(d.join("new.ckpt")), every, None).unwrap();
    }
}
