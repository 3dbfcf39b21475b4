//! The `palace` binary: parse the command line, validate it into a configuration, run it, and
//! turn the outcome into an exit code (0 success, 1 failure or check mismatch, 2 usage error,
//! 128 + the signal's number when SIGINT, SIGTERM or SIGHUP stopped the run: 130 for Ctrl-C).

mod app;

use app::cli::Cli;
use clap::Parser;
use palace::Error;
use palace::engine::Cancel;

fn main() {
    let cli = Cli::parse(); // exits 2 with clap's message on malformed arguments
    let cancel = Cancel::new();
    let caught = app::signals::install(&cancel);
    let code = match cli.into_config().and_then(|config| app::commands::run(config, &cancel)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("palace: error: {e}");
            match e {
                Error::Usage(_) => 2,
                Error::Interrupted | Error::Paused { .. } => caught.exit_code(),
                _ => 1,
            }
        }
    };
    std::process::exit(code);
}
