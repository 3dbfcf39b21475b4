//! The one progress-bar factory: a bar on stderr for long runs, hidden when stderr is not a
//! terminal or `--quiet` was given, so pipes and tests stay clean (STYLE.md, after
//! hyperfine's `progress_bar.rs`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar counting `unit` (e.g. "rows"), or a hidden one.
pub fn bar(quiet: bool, message: &str, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    let template = format!(
        "{{msg}} [{{elapsed_precise}}] [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
    );
    pb.set_style(
        ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_message(message.to_string());
    pb
}
