//! Checkpoints of long runs (`stats`, `skin`): their flags, and the sweep in segments that
//! saves the run's state between them and resumes from a saved one.

use crate::app::error::{Error, Result};
use crate::app::outputs::check_writable_dir;
use clap::Args;
use std::path::PathBuf;

/// A checkpoint file and the time between saves.
pub type SaveEvery = (PathBuf, std::time::Duration);

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
    /// The checkpoint file with the time between saves, and the checkpoint to resume from.
    pub fn resolve(self) -> Result<(Option<SaveEvery>, Option<PathBuf>)> {
        if !(self.every.is_finite() && (0.0..=1e6).contains(&self.every)) {
            return Err(Error::Usage(format!(
                "--every {} is not a number of minutes from 0 to 1000000; give e.g. --every 10",
                self.every
            )));
        }
        if let Some(path) = &self.resume {
            check_resume_path(path)?;
        }
        if let Some(path) = &self.checkpoint {
            // Found out now, not when the first checkpoint is due or when the run ends.
            check_checkpoint_path(path, self.resume.as_deref())?;
            let dir =
                path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            check_writable_dir(dir, "--checkpoint")?;
        }
        let every = std::time::Duration::from_secs_f64(self.every * 60.0);
        Ok((self.checkpoint.map(|p| (p, every)), self.resume))
    }
}

/// Refuses a `--checkpoint` path the run could not own: the run replaces the file at that path
/// with each checkpoint and removes it when it finishes, so the path must be new, or the file
/// the run resumes from (`--resume` naming the same file). Anything else there (a file that is
/// not a checkpoint, a checkpoint not being resumed, a link, a folder, a FIFO, a device) would
/// be lost or would block the run, and is refused before any computing.
fn check_checkpoint_path(path: &std::path::Path, resume: Option<&std::path::Path>) -> Result<()> {
    let shown = path.display();
    let usage = |why: String| Error::Usage(format!("--checkpoint {shown}: {why}"));
    if path.as_os_str().is_empty() {
        return Err(Error::Usage("--checkpoint is empty; give a file name such as run.ckpt".into()));
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") || path.file_name().is_none() {
        return Err(usage("names a folder; give a new file name such as run.ckpt".into()));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        // Nothing there yet (or nothing we may look at: the writability check says so).
        Err(_) => return Ok(()),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(usage(
            "is a symbolic link; the run replaces and then removes the file at this path, so give the checkpoint's own path or a new file name".into(),
        ));
    }
    if kind.is_dir() {
        return Err(usage(
            "is a folder; give a new file name such as run.ckpt (inside it, if you like)".into(),
        ));
    }
    if !kind.is_file() {
        return Err(usage(
            "is not a regular file (a FIFO, a device or a socket); give a new file name such as run.ckpt"
                .into(),
        ));
    }
    if resume.is_some_and(|r| palace::engine::checkpoint::same_file(r, path)) {
        // The run continues this checkpoint, replaces it as it goes and removes it at the end.
        return Ok(());
    }
    if palace::engine::checkpoint::looks_like_checkpoint(path) {
        return Err(usage(format!(
            "holds a checkpoint, which this run would overwrite; continue it with --resume {shown} --checkpoint {shown}, or delete it (or give a new file name) to start again"
        )));
    }
    Err(usage(
        "exists and is not a palace checkpoint; the run would replace it and remove it when it finishes, so give a new file name such as run.ckpt".into(),
    ))
}

/// Refuses a `--resume` path that holds no file to read (missing, a folder, a FIFO or a
/// device) as a usage error: `--resume` takes the checkpoint file a run with `--checkpoint`
/// saved. What the file holds is checked when it is read.
fn check_resume_path(path: &std::path::Path) -> Result<()> {
    let shown = path.display();
    let expects = "--resume takes the checkpoint file that an interrupted run with --checkpoint FILE saved (the message it printed names it)";
    let usage = |what: &str| Err(Error::Usage(format!("--resume {shown}: {what}; {expects}")));
    if path.as_os_str().is_empty() {
        return Err(Error::Usage(format!("--resume is empty; {expects}")));
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => usage("no such file"),
        // Anything else (a folder we may not search) is the read's to report.
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => usage("is a folder"),
        Ok(m) if !m.is_file() => usage("is not a regular file (a FIFO, a device or a socket)"),
        Ok(_) => Ok(()),
    }
}

/// Where a checkpointed run saves and resumes.
pub struct Checkpointing<'a> {
    /// The file and the time between saves.
    pub save: Option<&'a (std::path::PathBuf, std::time::Duration)>,
    /// The checkpoint to continue from.
    pub resume: Option<&'a std::path::Path>,
    /// Names the run (command, game, board).
    pub tag: String,
}

impl Checkpointing<'_> {
    /// The engine options for this run's segments: `engine`'s, but, where a checkpoint is
    /// saved, with a cancel token of their own. The signal then pauses the sweep at a band edge
    /// (the pause test reads it), which leaves a frontier to save, instead of stopping it within
    /// its bands in flight, which would leave none.
    pub fn engine(&self, engine: &palace::engine::EngineOptions) -> palace::engine::EngineOptions {
        match self.save {
            Some(_) => {
                palace::engine::EngineOptions { cancel: palace::engine::Cancel::new(), ..engine.clone() }
            }
            None => engine.clone(),
        }
    }
}

/// Takes a resumed checkpoint's state, given its frontier; says why not if the state is not
/// one this run can have reached by that frontier.
pub type Restore<'a> =
    dyn FnMut(&[u8], &palace::engine::checkpoint::Frontier) -> std::result::Result<(), String> + 'a;

/// One segment of a checkpointed sweep: from a frontier (or the top) until the pause test says
/// stop; returns its report and the frontier where it stopped (none when the sweep is done).
pub type Segment<'a> = dyn FnMut(
        Option<&palace::engine::checkpoint::Frontier>,
        &(dyn Fn() -> bool + Sync),
    ) -> palace::Result<(palace::engine::SweepReport, Option<palace::engine::checkpoint::Frontier>)>
    + 'a;

/// Runs a sweep in segments: each segment pauses at `save`'s interval or when the run is
/// interrupted, then the frontier and the analysis's state (`state`) go to the checkpoint; a
/// run resumed from one starts with its state (`restore`) and frontier. Returns the segments'
/// report, summed.
pub fn resumable(
    c: &Checkpointing<'_>,
    height: u32,
    cancel: &palace::engine::Cancel,
    restore: &mut Restore<'_>,
    state: &dyn Fn() -> Vec<u8>,
    segment: &mut Segment<'_>,
) -> Result<palace::engine::SweepReport> {
    use palace::engine::checkpoint::Checkpoint;
    use std::time::Instant;
    let mut frontier = None;
    let mut owned = owns(c.resume, c.save);
    if let Some(path) = c.resume {
        let bytes = std::fs::read(path).map_err(|e| palace::Error::io(path, e))?;
        let saved = Checkpoint::decode(&bytes, &c.tag, path)?;
        // The checksum says the file is as written, not that what was written is possible.
        if let Err(why) = restore(&saved.state, &saved.frontier) {
            return Err(Error::Lib(palace::Error::BadInput {
                path: path.to_path_buf(),
                reason: format!(
                    "the checkpoint's state is impossible for this run ({why}); start the run again without --resume"
                ),
            }));
        }
        frontier = Some(saved.frontier);
    }
    let mut total: Option<palace::engine::SweepReport> = None;
    loop {
        let deadline = c.save.map(|(_, every)| Instant::now() + *every);
        let pause = || cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
        let (report, next) = segment(frontier.as_ref(), &pause)?;
        total = Some(match total {
            None => report,
            Some(t) => t.then(report),
        });
        let Some(f) = next else { break };
        let rows = f.rows_done();
        if let Some((path, _)) = c.save {
            let saved = Checkpoint { tag: c.tag.clone(), frontier: f, state: state() };
            palace::output::checkpoint::write(path, "--checkpoint", &saved)?;
            owned = true;
            if cancel.is_cancelled() {
                return Err(palace::Error::Paused { path: path.clone(), rows, height }.into());
            }
            frontier = Some(saved.frontier);
        } else if cancel.is_cancelled() {
            return Err(Error::INTERRUPTED);
        } else {
            frontier = Some(f);
        }
    }
    remove_finished(c.save, owned)?;
    Ok(total.expect("at least one segment"))
}

/// Whether the file at `--checkpoint` is the run's to remove when it finishes from the start:
/// it is the file the run resumes from (the command line refused any other file there).
pub fn owns(resume: Option<&std::path::Path>, save: Option<&SaveEvery>) -> bool {
    resume.zip(save).is_some_and(|(r, (s, _))| palace::engine::checkpoint::same_file(r, s))
}

/// Removes the checkpoint of a finished run, if the run `owned` it (resumed from it or wrote
/// it): a checkpoint left behind would only mislead.
pub fn remove_finished(save: Option<&SaveEvery>, owned: bool) -> Result<()> {
    if let Some((path, _)) = save.filter(|_| owned) {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(())
}
