//! Errors in the command line's words: a parameter the library refused is worded with the flag
//! that gave it ([`Flags`], the binary's name table), and an error the user continues with a
//! flag names that flag and the fix. Every other error prints as it is.

use crate::app::error::Error;
use palace::error::{CheckpointProblem, EngineError, Param, Vocabulary};

/// The binary's name table: each library parameter by the flag that gives it.
pub struct Flags;

impl Vocabulary for Flags {
    fn name(&self, p: Param) -> String {
        match p {
            Param::K => "--k",
            Param::K2 => "--k2",
            Param::Size => "--size",
            Param::Width => "--width",
            Param::Height => "--height",
            Param::Window => "--window",
            Param::Threads => "--threads",
            Param::To => "--to",
            Param::Scale => "--scale",
            Param::At => "--at",
            Param::RegionRadius => "--region-search",
            Param::ShiftRadius => "--search-shift",
            Param::Shift => "--shift",
            Param::SearchRegions => "--search-region",
            Param::Rows => "--rows",
            Param::Checkpoint => "--checkpoint",
            Param::Every => "--every",
            Param::Resume => "--resume",
            Param::Zoom => "--zoom",
            Param::Backend => "--backend",
            Param::GpuShape => "--gpu-shape",
            Param::Method => "--method",
            Param::Ca => "--ca",
            p => return format!("--{}", p.name().replace('_', "-")),
        }
        .to_string()
    }
}

/// What `palace: error:` is followed by for `e`.
pub fn message(e: &Error) -> String {
    let Error::Lib(e) = e else { return e.to_string() };
    if let Some(p) = e.parameter() {
        return p.render(&Flags);
    }
    match e {
        palace::Error::SkinUnfinished { to, rows } => format!(
            "--to {to}: the skin did not end within {rows} rows, the bound for its columns, which assumes that the outer boundary descends in steps at least 2 columns wide (docs/skin.md, \"Small games\"); the run stops without a result"
        ),
        palace::Error::Engine(EngineError::Checkpoint { problem, .. }) => {
            let fix = match problem {
                CheckpointProblem::Corrupt => "start the run again without --resume",
                CheckpointProblem::Version { .. } => {
                    "finish it with that version or start again without --resume"
                }
                CheckpointProblem::Run { .. } => {
                    "give the same command and board, or start again without --resume"
                }
                _ => "start again without --resume",
            };
            format!("{e}; {fix}")
        }
        palace::Error::Paused { path, rows, height } => {
            let path = path.display();
            format!(
                "interrupted; the run so far is in the checkpoint {path} ({rows} of {height} rows done): continue it with --resume {path}"
            )
        }
        palace::Error::NoMpi { ranks } => format!(
            "this process is one of {ranks} MPI ranks, but this palace was built without the MPI backend; build it with `cargo build --release --features mpi`, or start it without mpirun"
        ),
        palace::Error::NoGpu => {
            "this palace was built without the GPU backend (--backend gpu, gpu-info); build it with `cargo build --release --features gpu`".into()
        }
        e if e.is_gpu_too_large() => format!("{e}: ask for a smaller board, or compute it with --backend cpu"),
        e => e.to_string(),
    }
}
