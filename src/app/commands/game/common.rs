//! What the games' commands share: a worker pool of `--threads` threads, a progress bar, and
//! the printing of a text's checks.

use crate::app::error::Result;
use crate::app::flags::RunConfig;
use crate::app::print::{ExitCode, out_text};
use crate::app::progress;

/// Runs a game's command on a worker pool of `--threads` threads (every core by default): the
/// games' parallel solvers use the pool they run in.
pub fn in_pool(run: &RunConfig, f: impl FnOnce() -> Result<ExitCode> + Send) -> Result<ExitCode> {
    let threads = run.engine.resolved_threads();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| palace::error::EngineError::ThreadPool { threads, source })?
        .install(f)
}

/// A game's progress bar counting `unit` (hidden with `--quiet` or when stderr is not a
/// terminal).
pub fn game_bar(run: &RunConfig, message: &str, unit: &str) -> progress::Bar {
    progress::bar(run.quiet, message, unit)
}

/// Prints the checks of a text as a table or JSON.
pub fn print_claims(list: &[palace::games::claims::Claim], json: bool) -> Result<()> {
    if json {
        out_text(&serde_json::to_string_pretty(list).expect("serialisable"))
    } else {
        out_text(&palace::games::claims::table(list))
    }
}
