//! `palace game frankenstein`: Frankenstein (Fraenkel) solved on squares 1..N and Theorem 3
//! checked, or every checkable statement of the text under both readings of type II moves.

use super::common::{game_bar, in_pool};
use crate::app::error::{Error, Result};
use crate::app::flags::{RunArgs, RunConfig};
use crate::app::print::{ExitCode, out_text};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Silent;
use palace::games::watch::Watch;

/// Largest `--squares` of `game frankenstein` (2^N positions).
pub const MAX_FRANKENSTEIN_SQUARES: u32 = 32;
/// Largest `--bound` of `game frankenstein` (pairs of claimed positions).
pub const MAX_FRANKENSTEIN_BOUND: u32 = 20_000;
/// Largest `--max-sum` of `game frankenstein --check`.
pub const MAX_FRANKENSTEIN_SUM: u32 = 150;

/// The reading of a type II move of Frankenstein.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TypeTwoArg {
    /// The coins keep their order: coin i lands on the i-th new square.
    Ordered,
    /// Coin x_i is shifted by n_i as the text says; the coins may pass each other.
    Literal,
}

impl From<TypeTwoArg> for palace::games::frankenstein::TypeTwo {
    fn from(t: TypeTwoArg) -> Self {
        match t {
            TypeTwoArg::Ordered => Self::Ordered,
            TypeTwoArg::Literal => Self::Literal,
        }
    }
}

/// `palace game frankenstein`.
#[derive(Debug, Args)]
pub struct FrankensteinArgs {
    /// Solve every position on squares 1..N.
    #[arg(long, value_name = "N")]
    pub squares: u32,
    /// The reading of type II moves.
    #[arg(long, value_enum, default_value_t = TypeTwoArg::Ordered)]
    pub type2: TypeTwoArg,
    /// Theorem 3 (A) over the claimed positions with every square <= B.
    #[arg(long, value_name = "B", default_value_t = 1000)]
    pub bound: u32,
    /// Run every checkable statement of the text about the game, under both readings.
    #[arg(long)]
    pub check: bool,
    /// With --check: also solve every position whose squares add up to at most S.
    #[arg(long, value_name = "S", default_value_t = 88)]
    pub max_sum: u32,
    /// Print JSON: {"p_positions": [...], "violations_a": [...], "violations_b": [...]}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// A validated `palace game frankenstein`.
struct Frankenstein {
    /// Squares 1..squares.
    squares: u32,
    /// The reading of type II.
    type2: palace::games::frankenstein::TypeTwo,
    /// Theorem 3 (A) over claimed positions with squares up to this.
    bound: u32,
    /// The text's claims, both readings.
    check: bool,
    /// With `check`: also every position of square sum up to this.
    max_sum: u32,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// Validates and runs `palace game frankenstein`.
pub fn run(a: FrankensteinArgs, ctx: &Context) -> Result<ExitCode> {
    if !(2..=MAX_FRANKENSTEIN_SQUARES).contains(&a.squares) {
        return Err(Error::Usage(format!(
            "--squares {}: the search visits 2^N positions; use 2 <= --squares <= {MAX_FRANKENSTEIN_SQUARES}",
            a.squares
        )));
    }
    if !(2..=MAX_FRANKENSTEIN_BOUND).contains(&a.bound) {
        return Err(Error::Usage(format!(
            "--bound {}: (A) tests every pair of claimed positions; use 2 <= --bound <= {MAX_FRANKENSTEIN_BOUND}",
            a.bound
        )));
    }
    if !(3..=MAX_FRANKENSTEIN_SUM).contains(&a.max_sum) {
        return Err(Error::Usage(format!(
            "--max-sum {}: use 3 <= --max-sum <= {MAX_FRANKENSTEIN_SUM}",
            a.max_sum
        )));
    }
    ctx.run(Frankenstein {
        squares: a.squares,
        type2: a.type2.into(),
        bound: a.bound,
        check: a.check,
        max_sum: a.max_sum,
        json: a.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Frankenstein {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let Frankenstein { squares, type2, bound, check, max_sum, json, run } = self;
        in_pool(&run, || frankenstein(squares, type2, bound, check, max_sum, json, &run))
    }
}

/// `game frankenstein`: every position on squares 1..N solved and Theorem 3 checked; with
/// `check`, the text's claims under both readings.
fn frankenstein(
    squares: u32,
    two: palace::games::frankenstein::TypeTwo,
    bound: u32,
    check: bool,
    max_sum: u32,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::frankenstein::{self as fk, TypeTwo};
    use palace::games::{claims, fraenkel_claims as fc};
    use std::fmt::Write as _;
    let start = std::time::Instant::now();
    let cancel = &run.engine.cancel;
    let solve = |two: TypeTwo| {
        let claimed: Vec<u64> = fk::claimed(squares).iter().map(|x| fk::mask_of(x)).collect();
        let pb = game_bar(run, &format!("frankenstein {}", two.name()), "positions");
        let sol = fk::solve_squares_watched(squares, two, &claimed, &Watch::new(cancel, &pb));
        pb.finish_and_clear();
        sol
    };
    let within = |two: TypeTwo| {
        let a = fk::moves_within(&fk::claimed(bound), two);
        cancel.check().map(|()| a)
    };
    if check {
        let mut list = fc::tables()[..0].to_vec();
        for two in [TypeTwo::Ordered, TypeTwo::Literal] {
            let sq = solve(two)?;
            let sums =
                fk::solve_sum_watched(max_sum, two, &fk::claimed(max_sum), &Watch::new(cancel, &Silent))?;
            list.extend(fc::examples(two, &sq, &sums));
            list.extend(fc::theorem_3(two, &sq, &sums, &within(two)?, bound));
            list.extend(fc::play_ends(two, fc::PLAY_ENDS_SQUARES));
            if run.quiet {
                continue;
            }
            eprintln!(
                "{}: squares 1..{squares} solved in {:.1} s, square sums <= {max_sum} in {:.1} s",
                two.name(),
                sq.seconds,
                sums.seconds
            );
        }
        list.push(fc::inequality_8(fc::INEQUALITY_8_ROWS));
        cancel.check()?;
        if json {
            out_text(&serde_json::to_string_pretty(&list).expect("serialisable"))?;
        } else {
            out_text(&claims::table(&list))?;
        }
        if !run.quiet {
            eprintln!("checked in {:.1} s", start.elapsed().as_secs_f64());
        }
        return Ok(0);
    }
    let sol = solve(two)?;
    let a = within(two)?;
    let p: Vec<Vec<u32>> = sol.p_masks.iter().map(|&m| fk::squares_of(m)).collect();
    let b: Vec<Vec<u32>> = sol.without_move_into_claimed.iter().map(|&m| fk::squares_of(m)).collect();
    if json {
        let v = serde_json::json!({ "p_positions": p, "violations_a": a, "violations_b": b });
        out_text(&v.to_string())?;
    } else {
        let claimed: Vec<u64> = fk::claimed(squares).iter().map(|x| fk::mask_of(x)).collect();
        let mut s = format!(
            "Frankenstein, type II {}: every position on squares 1..{squares} ({} positions) solved in {:.1} s\n{} P-positions:\n",
            two.name(),
            sol.positions,
            sol.seconds,
            p.len()
        );
        for (x, &m) in p.iter().zip(&sol.p_masks) {
            let _ = writeln!(
                s,
                "  {x:?}{}",
                if claimed.contains(&m) { "" } else { "  (not claimed by Theorem 3)" }
            );
        }
        let missing: Vec<Vec<u32>> =
            claimed.iter().filter(|m| !sol.p_masks.contains(m)).map(|&m| fk::squares_of(m)).collect();
        let _ = writeln!(s, "claimed by Theorem 3 but N: {missing:?}");
        let _ = writeln!(
            s,
            "Theorem 3 (A), claimed positions with squares <= {bound}: {} moves between two of them{}",
            a.len(),
            a.iter().take(5).map(|(x, y)| format!(" {x:?} -> {y:?}")).collect::<String>()
        );
        let _ = writeln!(
            s,
            "Theorem 3 (B), squares 1..{squares}: {} positions without a move into a claimed one{}",
            b.len(),
            b.iter().take(5).map(|x| format!(" {x:?}")).collect::<String>()
        );
        let _ = writeln!(
            s,
            "Theorem 3 under the {} reading: {}",
            two.name(),
            if a.is_empty() && b.is_empty() { "confirmed in this range" } else { "refuted" }
        );
        out_text(&s)?;
    }
    Ok(0)
}
