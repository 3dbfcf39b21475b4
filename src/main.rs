//! The `palace` binary: parse the command line, validate it into a configuration, run it, and
//! turn the outcome into an exit code (0 success, 1 failure or check mismatch, 2 usage error,
//! 130 interrupted).

use clap::Parser;
use palace::Error;
use palace::cli::Cli;

fn main() {
    let cli = Cli::parse(); // exits 2 with clap's message on malformed arguments
    palace::interrupt::install();
    let code = match cli.into_config().and_then(palace::commands::run) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("palace: error: {e}");
            match e {
                Error::Usage(_) => 2,
                Error::Interrupted => 130,
                _ => 1,
            }
        }
    };
    std::process::exit(code);
}
