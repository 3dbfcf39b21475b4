//! `palace game zeckendorf`: the Zeckendorf game and its black-hole variants solved, the
//! positions of a black-hole board classified, or the checks of the papers; and the bounds on
//! the solvers' memo.

use super::common::{game_bar, in_pool, print_claims};
use crate::app::error::{Error, Result};
use crate::app::flags::{ReportArgs, RunArgs, RunConfig};
use crate::app::outputs::Outputs;
use crate::app::print::{ExitCode, out_text, wrote};
use crate::app::request::{Context, Request};
use clap::Args;
use palace::engine::Silent;
use palace::games::watch::Watch;
use palace::output::atomic::AtomicOutput;
use std::path::PathBuf;

/// `palace game zeckendorf`.
#[derive(Debug, Args)]
pub struct ZeckendorfArgs {
    /// Solve every n = 1..=N.
    #[arg(long, value_name = "N", required_unless_present = "positions")]
    pub to: Option<u64>,
    /// A black hole on F_M (M >= 2): the empty-board black-hole game.
    #[arg(long, value_name = "M")]
    pub hole: Option<u64>,
    /// P or N for every position of the F_M board of value <= V, instead of the empty-board
    /// game: as CSV on stdout, or to -o as CSV or as a picture (for M = 4: a against c, one
    /// panel per b).
    #[arg(long, requires_all = ["hole", "max_value"], conflicts_with_all = ["to", "check"])]
    pub positions: bool,
    /// The largest position value of --positions.
    #[arg(long, value_name = "V", requires = "positions")]
    pub max_value: Option<u64>,
    /// The file --positions writes: .csv (every position) or .png (the picture).
    #[arg(long, short, value_name = "FILE.csv|FILE.png", requires = "positions")]
    pub output: Option<PathBuf>,
    /// Without --hole: also classify every position of value n (counts of P-positions).
    #[arg(long, conflicts_with = "hole")]
    pub census: bool,
    /// Run every checkable statement of the black-hole paper for this board over n = 1..N.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Most memory a Zeckendorf solver's memo may take, in bytes (two bits per position).
pub const MAX_MEMO_BYTES: u64 = 16 << 30;

/// Largest value `V` of `--max-value` or `--to` on a black-hole board of `columns` columns:
/// beyond it the positions of value `<= V` are too many to number (2^30 values on one column,
/// 2^20 on more).
fn memo_value_limit(columns: usize) -> u64 {
    if columns == 1 { 1 << 30 } else { 1 << 20 }
}

/// The largest `v` that [`check_memo`] accepts for a board of `columns` columns: the largest
/// `v <= memo_value_limit(columns)` whose positions of value `<= v` fit the memo (their count
/// grows with `v`). Rows of counts over `0..=h`, `h` doubled until the memo is full or `h`
/// reaches the limit.
pub fn largest_memo_value(columns: usize) -> u64 {
    let limit = memo_value_limit(columns);
    if columns == 1 {
        // One position per value: 2^30 positions, a 256 MiB memo.
        return limit;
    }
    let mut h = 1usize << 10;
    loop {
        let mut row = vec![1u64; h + 1];
        for i in 2..=columns {
            let w = palace::games::fib::weight(i) as usize;
            for v in w..=h {
                row[v] = row[v].saturating_add(row[v - w]);
            }
        }
        let mut total = 0u64;
        for (v, &c) in row.iter().enumerate() {
            total = total.saturating_add(c);
            if total / 4 > MAX_MEMO_BYTES {
                return v as u64 - 1;
            }
        }
        if h as u64 >= limit {
            return limit;
        }
        h = (2 * h).min(limit as usize);
    }
}

/// Refuses a black-hole board of `columns` columns whose positions of value `<= v` would need
/// a memo beyond [`MAX_MEMO_BYTES`]; the message names the largest value accepted.
fn check_memo(columns: usize, v: u64, flag: &str) -> Result<()> {
    let max = largest_memo_value(columns);
    if v <= max {
        return Ok(());
    }
    let why = if v > memo_value_limit(columns) {
        "the positions would be too many to number".to_string()
    } else {
        format!(
            "the F_{} board has more than {} positions of value <= {v}, whose memo would take more than {} GiB",
            columns + 1,
            MAX_MEMO_BYTES * 4,
            MAX_MEMO_BYTES >> 30
        )
    };
    Err(Error::Usage(format!("{flag} {v}: {why}; use {flag} <= {max} with --hole {}", columns + 1)))
}

/// Positions of value `n` in the original Zeckendorf game from `n` pieces (its memo numbers
/// them: a quarter byte each).
fn original_positions(n: u64) -> u64 {
    let cols = palace::games::fib::fibonacci_up_to(n).len();
    palace::games::zeckendorf::Space::count(cols, n, n)
}

/// The largest `--to` of the original Zeckendorf game whose positions fit the memo (their
/// count grows with `n`; found by bisection below 2000, where they pass 10^14).
pub fn largest_original_to() -> u64 {
    let fits = |n: u64| original_positions(n) / 4 <= MAX_MEMO_BYTES;
    let (mut lo, mut hi) = (1u64, 2000u64); // fits(lo), !fits(hi)
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(mid) { lo = mid } else { hi = mid }
    }
    lo
}

/// Every bound a refusal of `palace game` names ("use ... <= N") is accepted, and one past it
/// refused: validation only, no run.
/// A validated `palace game zeckendorf` (no `--positions`): the original game (no hole) or the
/// empty-board black-hole game on F_hole.
struct Zeckendorf {
    /// The largest n.
    to: u64,
    /// The black hole's column.
    hole: Option<usize>,
    /// Classify every position of the original game.
    census: bool,
    /// Check the paper's claims.
    check: bool,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// A validated `palace game zeckendorf --positions`: the positions of the F_hole board.
struct ZeckendorfPositions {
    /// The black hole's column.
    hole: usize,
    /// The largest value.
    max_value: u64,
    /// Where the table or picture goes.
    output: Option<PathBuf>,
    json: bool,
    /// Threads and reporting (`--kernel` has no effect on the games).
    run: RunConfig,
}

/// Validates and runs `palace game zeckendorf`.
pub fn run(a: ZeckendorfArgs, ctx: &Context) -> Result<ExitCode> {
    let hole = match a.hole {
        None => None,
        Some(0 | 1) => {
            return Err(Error::Usage(format!(
                "--hole {}: on the F_1 board every piece falls into the hole at once (the paper's §3: not playable); use --hole 2 or more",
                a.hole.unwrap_or(0)
            )));
        }
        Some(m) if m > palace::games::zeckendorf::MAX_COLUMNS as u64 + 1 => {
            return Err(Error::Usage(format!(
                "--hole {m}: boards have at most {} columns; use --hole <= {}",
                palace::games::zeckendorf::MAX_COLUMNS,
                palace::games::zeckendorf::MAX_COLUMNS + 1
            )));
        }
        Some(m) => Some(m as usize),
    };
    if a.positions {
        let (Some(m), Some(v)) = (hole, a.max_value) else {
            return Err(Error::Usage("--positions needs --hole M and --max-value V".into()));
        };
        if let Some(o) = &a.output {
            let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
            if !matches!(ext.as_deref(), Some("png" | "csv")) {
                return Err(Error::Usage(format!(
                    "--output {}: the format comes from the extension; name it .csv or .png",
                    o.display()
                )));
            }
        }
        check_memo(m - 1, v, "--max-value")?;
        return ctx.run(ZeckendorfPositions {
            hole: m,
            max_value: v,
            output: a.output,
            json: a.report.json,
            run: a.run.resolve(&ctx.cancel)?,
        });
    }
    let to = a.to.unwrap_or(0);
    if to == 0 {
        return Err(Error::Usage("--to 0: n starts at 1; use --to 1 or more".into()));
    }
    match hole {
        Some(m) => check_memo(m - 1, to, "--to")?,
        None => {
            // Above 2000 the count alone is slow; it is far beyond the memo there.
            let positions = if to > 2000 { u64::MAX } else { original_positions(to) };
            if positions / 4 > MAX_MEMO_BYTES {
                let why = if to > 2000 {
                    "the original game has more than 10^14 positions beyond n = 2000".to_string()
                } else {
                    format!(
                        "n = {to} has {positions} positions, whose memo would take {} GiB (more than {})",
                        (positions / 4) >> 30,
                        MAX_MEMO_BYTES >> 30
                    )
                };
                return Err(Error::Usage(format!(
                    "--to {to}: {why}; use --to <= {} (or a black hole, --hole M)",
                    largest_original_to()
                )));
            }
        }
    }
    ctx.run(Zeckendorf {
        to,
        hole,
        census: a.census,
        check: a.check,
        json: a.report.json,
        run: a.run.resolve(&ctx.cancel)?,
    })
}

impl Request for Zeckendorf {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let Zeckendorf { to, hole, census, check, json, run } = self;
        in_pool(&run, || zeckendorf(to, hole, census, check, json, &run))
    }
}

impl Request for ZeckendorfPositions {
    fn outputs(&self) -> Outputs<'_> {
        Outputs::default().maybe("--output", self.output.as_deref())
    }

    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let ZeckendorfPositions { hole, max_value, output, json, run } = self;
        in_pool(&run, || zeckendorf_positions(hole, max_value, output.as_deref(), json, &run))
    }
}

/// `game zeckendorf` (no `--positions`): the winner for every n, with the search's figures,
/// or the checks of the black-hole paper.
fn zeckendorf(
    to: u64,
    hole: Option<usize>,
    census: bool,
    check: bool,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::games::{claims, zeckendorf as z};
    use std::fmt::Write as _;
    let start = std::time::Instant::now();
    let cancel = &run.engine.cancel;
    let Some(m) = hole else {
        let pb = game_bar(run, "zeckendorf", "piles");
        let rows = z::original_range_watched(to, census, &Watch::new(cancel, &pb))?;
        pb.finish_and_clear();
        let secs = start.elapsed().as_secs_f64();
        if check {
            let list = claims::original(&rows);
            print_claims(&list, json)?;
            return Ok(0);
        }
        let winners: String = rows.iter().map(|r| char::from(b'0' + r.winner)).collect();
        if json {
            out_text(&serde_json::json!({ "winners": winners }).to_string())?;
        } else {
            let mut s = String::from(
                "    n  winner   positions      solved  P-positions  seconds  memo bytes  Player 2's winning replies to the opening merge\n",
            );
            for r in &rows {
                let p = r.p_positions.map_or("-".to_string(), |p| p.to_string());
                let _ = writeln!(
                    s,
                    "{:>5}  {:>6}  {:>10}  {:>10}  {:>11}  {:>7.3}  {:>10}  {}",
                    r.n,
                    r.winner,
                    r.positions,
                    r.solved,
                    p,
                    r.seconds,
                    r.memo_bytes,
                    r.winning_replies.join(" ")
                );
            }
            let _ = writeln!(s, "winners: {winners}\n{secs:.2} s in all");
            out_text(&s)?;
        }
        return Ok(0);
    };
    // The F_4 checks look at listed positions of value up to 47 (Theorem 5.19's tables), so
    // they run over at least n = 1..64.
    let to = if check && m == 4 { to.max(64) } else { to };
    let pb = game_bar(run, &format!("zeckendorf F_{m}"), "piles");
    let mut e = z::empty_board_watched(m, to, &Watch::new(cancel, &pb))?;
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if check {
        let list = claims::black_hole_watched(&mut e, to, &Watch::new(cancel, &Silent))?;
        print_claims(&list, json)?;
        return Ok(0);
    }
    let winners: String = e.winners.iter().map(|&w| char::from(b'0' + w)).collect();
    if json {
        out_text(&serde_json::json!({ "winners": winners }).to_string())?;
    } else {
        let mut s = format!(
            "empty-board black-hole game on F_{m}, n = 1..{to} (character i: the winner for n = i + 1)\n"
        );
        for (i, chunk) in winners.as_bytes().chunks(60).enumerate() {
            let _ = writeln!(s, "{:>6}  {}", i * 60 + 1, std::str::from_utf8(chunk).expect("ascii"));
        }
        let ones = e.winners.iter().filter(|&&w| w == 1).count();
        let _ = writeln!(s, "Player 1 wins {ones} of {to}, Player 2 {}", to as usize - ones);
        match claims::eventual_period(&e.winners) {
            Some((p, start)) => {
                let _ = writeln!(
                    s,
                    "observed: the winners repeat with period {p} from n = {} on (seen {} times up to {to})",
                    start + 1,
                    (to as usize - start) / p
                );
            }
            None => {
                let _ = writeln!(s, "observed: no period seen three times up to {to}");
            }
        }
        let _ = writeln!(
            s,
            "positions solved {} of {} (value <= {to}), memo {} MiB, {secs:.2} s",
            e.solver.solved(),
            e.solver.space().len(),
            e.solver.bytes() >> 20
        );
        out_text(&s)?;
    }
    Ok(0)
}

/// `game zeckendorf --positions`: P or N for every position of value `<= max_value`.
fn zeckendorf_positions(
    m: usize,
    max_value: u64,
    output: Option<&std::path::Path>,
    json: bool,
    run: &RunConfig,
) -> Result<ExitCode> {
    use palace::engine::Progress;
    use palace::games::{plot, zeckendorf as z};
    let out =
        output.map(|p| AtomicOutput::create_cancellable(p, "--output", &run.engine.cancel)).transpose()?;
    let pb = game_bar(run, &format!("positions of F_{m}"), "values");
    pb.set_length(max_value + 1);
    let watch = Watch::new(&run.engine.cancel, &Silent);
    let mut stopped = Ok(());
    let mut s = z::Solver::new(z::Rules::black_hole(m), 0, max_value);
    let space = s.space().clone();
    let cols = m - 1;
    let (mut p, mut n) = (0u64, 0u64);
    let mut csv = String::new();
    let to_stdout = out.is_none() && !json;
    for v in 0..=max_value {
        space.for_each_of_value(v, &mut |pos| {
            if stopped.is_err() {
                return;
            }
            let won = match s.wins_watched(pos, &watch) {
                Ok(won) => won,
                Err(e) => {
                    stopped = Err(e);
                    return;
                }
            };
            if won {
                n += 1
            } else {
                p += 1
            }
            if to_stdout {
                let counts: Vec<String> = pos[..cols].iter().map(u32::to_string).collect();
                csv.push_str(&format!("{},{v},{}\n", counts.join(","), if won { "N" } else { "P" }));
            }
        });
        std::mem::replace(&mut stopped, Ok(()))?;
        pb.set_position(v + 1);
    }
    pb.finish_and_clear();
    if let Some(out) = out {
        let path = out.path().to_path_buf();
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            plot::positions_picture(m, &mut s, max_value, out)?;
        } else {
            plot::positions_csv(m, &mut s, max_value, out)?;
        }
        wrote(Some(path), run.quiet);
    }
    if json {
        let v = serde_json::json!({ "hole": m, "max_value": max_value, "positions": p + n, "p": p, "n": n });
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else if to_stdout {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let head: Vec<String> =
            (0..cols).map(|i| names.get(i).map_or(format!("c{}", i + 1), |s| s.to_string())).collect();
        out_text(&format!("{},value,outcome\n{csv}", head.join(",")))?;
    } else {
        out_text(&format!("F_{m} board, positions of value <= {max_value}: {} ({p} P, {n} N)", p + n))?;
    }
    Ok(0)
}
