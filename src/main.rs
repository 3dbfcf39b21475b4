//! The `palace` binary: parse the command line, hand the command to its module (which validates
//! and runs it), and turn the outcome into an exit code (0 success, 1 failure or check mismatch, 2 usage error,
//! 128 + the signal's number when SIGINT, SIGTERM or SIGHUP stopped the run: 130 for Ctrl-C).

mod app;

use app::cli::Cli;
use app::request::Context;
use clap::Parser;
use palace::engine::Cancel;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version go to stdout and exit 0.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprint!("{}", clap_message(&e));
            std::process::exit(2);
        }
    };
    let cancel = Cancel::new();
    let caught = app::signals::install(&cancel);
    let code = match cli.command.run(&Context::new(cancel)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("palace: error: {}", app::errors::message(&e));
            match e {
                e if e.is_stopped() => caught.exit_code(),
                e if e.is_usage() => 2,
                _ => 1,
            }
        }
    };
    std::process::exit(code);
}

/// Clap's message for a malformed command line with the program's own prefix: `palace: error:
/// ...`, as every other error, followed by clap's usage and tip lines. A bare `palace` gets
/// clap's help, which is no error and keeps its own first line.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    if text.starts_with("error:") { format!("palace: {text}") } else { text }
}
