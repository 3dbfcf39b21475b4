//! The one progress-bar factory: a bar on stderr for long runs, hidden when stderr is not a
//! terminal or `--quiet` was given, so pipes and tests stay clean (the pattern of hyperfine's
//! `output/progress_bar.rs`). The bar reaches the library through its
//! [`palace::engine::Progress`] trait.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use palace::engine::Progress;
use std::io::IsTerminal;

/// A terminal progress bar, or a hidden one.
pub struct Bar(ProgressBar);

impl Bar {
    /// Removes the bar from the terminal.
    pub fn finish_and_clear(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn set_length(&self, len: u64) {
        self.0.set_length(len);
    }

    fn set_position(&self, pos: u64) {
        self.0.set_position(pos);
    }

    fn inc(&self, delta: u64) {
        self.0.inc(delta);
    }

    fn resumed(&self) {
        self.0.reset_eta();
    }

    fn message(&self, msg: &str) {
        self.0.set_message(msg.to_string());
    }
}

/// A progress bar counting `unit` (e.g. "rows"), or a hidden one.
pub fn bar(quiet: bool, message: &str, unit: &str) -> Bar {
    if quiet || crate::app::print::muted() || !std::io::stderr().is_terminal() {
        return Bar(ProgressBar::hidden());
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
    Bar(pb)
}

/// A progress bar counting cells, with their rate in G cells/s, or a hidden one.
pub fn cells_bar(quiet: bool, message: &str) -> Bar {
    if quiet || !std::io::stderr().is_terminal() {
        return Bar(ProgressBar::hidden());
    }
    let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    let template = "{msg} [{elapsed_precise}] [{bar:24}] {gpos}/{glen} G cells ({rate}, eta {eta})";
    let giga = |v: u64, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{:.1}", v as f64 / 1e9);
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("gpos", move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| giga(s.pos(), w))
        .with_key("glen", move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            giga(s.len().unwrap_or(0), w)
        })
        .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1} G/s", s.per_sec() / 1e9);
        })
        .progress_chars("=> ");
    pb.set_style(style);
    pb.set_message(message.to_string());
    Bar(pb)
}
