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
    // Under an MPI launcher, the ranks of its world share the runs that run over them; rank 0
    // writes every result, and a rank that fails or panics stops them all.
    let world = match palace::backend::World::join() {
        Ok(world) => world,
        Err(e) => {
            eprintln!("palace: error: {}", app::errors::message(&e.into()));
            std::process::exit(2);
        }
    };
    if let Some(w) = &world {
        if w.rank() != 0 {
            app::print::mute();
        }
        let (w, report) = (w.clone(), std::panic::take_hook());
        std::panic::set_hook(Box::new(move |info| {
            // One write, so that the ranks' lines do not interleave.
            let line = format!("palace: rank {} of {} panicked; stopping every rank\n", w.rank(), w.size());
            eprint!("{line}");
            report(info);
            w.abort(101);
        }));
    }
    let cancel = Cancel::new();
    let caught = app::signals::install(&cancel);
    // Every rank must run the same command, or they would wait for each other forever.
    let agreed = match &world {
        Some(w) => {
            let args: Vec<u8> = std::env::args_os()
                .skip(1)
                .flat_map(|a| a.as_encoded_bytes().iter().copied().chain([0]).collect::<Vec<u8>>())
                .collect();
            w.agree(&args, "command lines").map_err(app::error::Error::from)
        }
        None => Ok(()),
    };
    let code = match agreed.and_then(|()| cli.command.run(&Context::new(cancel, world.clone()))) {
        Ok(code) => code,
        Err(e) => {
            let code = match &e {
                e if e.is_stopped() => caught.exit_code(),
                e if e.is_usage() => 2,
                _ => 1,
            };
            match &world {
                // Its neighbours would wait for it forever: the whole job stops.
                Some(w) => {
                    let line = format!(
                        "palace: error on rank {} of {}: {}\n",
                        w.rank(),
                        w.size(),
                        app::errors::message(&e)
                    );
                    eprint!("{line}");
                    w.abort(code);
                }
                None => eprintln!("palace: error: {}", app::errors::message(&e)),
            }
            code
        }
    };
    if let Some(w) = world {
        // The hook holds a clone of the world: dropped with it, so that MPI is finalised here.
        drop(std::panic::take_hook());
        w.leave();
    }
    std::process::exit(code);
}

/// Clap's message for a malformed command line with the program's own prefix: `palace: error:
/// ...`, as every other error, followed by clap's usage and tip lines. A bare `palace` gets
/// clap's help, which is no error and keeps its own first line.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    if text.starts_with("error:") { format!("palace: {text}") } else { text }
}
