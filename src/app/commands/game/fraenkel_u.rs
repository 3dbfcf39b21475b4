//! `palace game fraenkel-u`: the representation of numbers over Fraenkel's ternary numeration
//! system U.

use crate::app::error::{Error, Result};
use crate::app::flags::RunArgs;
use crate::app::print::{ExitCode, out_text};
use crate::app::request::{Context, Request};
use clap::Args;

/// `palace game fraenkel-u`.
#[derive(Debug, Args)]
pub struct FraenkelUArgs {
    /// The numbers (positive).
    #[arg(value_name = "N", required = true, num_args = 1..)]
    pub numbers: Vec<u64>,
    /// Print JSON: {"representations": [{"n": 41, "digits": "1211"}, ...]}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace game fraenkel-u`.
struct FraenkelU {
    numbers: Vec<u64>,
    json: bool,
}

/// Validates and runs `palace game fraenkel-u`.
pub fn run(a: FraenkelUArgs, ctx: &Context) -> Result<ExitCode> {
    if let Some(n) = a.numbers.iter().find(|&&n| n == 0) {
        return Err(Error::Usage(format!("{n}: the representations are of positive integers; use N >= 1")));
    }
    // The common flags are checked, though this game runs on one thread.
    a.run.resolve(&ctx.cancel)?;
    ctx.run(FraenkelU { numbers: a.numbers, json: a.json })
}

impl Request for FraenkelU {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        fraenkel_u(&self.numbers, self.json)
    }
}

/// `game fraenkel-u`: the representation of each number over U.
fn fraenkel_u(numbers: &[u64], json: bool) -> Result<ExitCode> {
    use palace::games::fraenkel as fr;
    if json {
        let list: Vec<serde_json::Value> = numbers
            .iter()
            .map(|&n| serde_json::json!({ "n": n, "digits": fr::representation_string(n) }))
            .collect();
        out_text(&serde_json::json!({ "representations": list }).to_string())?;
    } else {
        let s: String = numbers.iter().map(|&n| format!("{n} {}\n", fr::representation_string(n))).collect();
        out_text(&s)?;
    }
    Ok(0)
}
