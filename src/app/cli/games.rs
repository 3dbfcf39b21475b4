//! The arguments of `palace game`'s subcommands, their bounds, and the bounds on the
//! Zeckendorf solvers' memo.

use super::*;

/// `palace game fibonacci-nim`.
#[derive(Debug, Args)]
pub struct FibonacciNimArgs {
    /// Solve every pile 1..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The Grundy values G(n, q) for n, q <= N instead of the outcomes.
    #[arg(long, conflicts_with = "check")]
    pub grundy: bool,
    /// Write the Grundy table: a heatmap (.png), a uint16 array (.npy) or a table (.csv), by
    /// the file's extension.
    #[arg(long, short, value_name = "FILE.png|FILE.npy|FILE.csv", requires = "grundy")]
    pub output: Option<PathBuf>,
    /// Run every checkable statement of the Fibonacci nim notes over n = 1..N.
    #[arg(long)]
    pub check: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

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
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--to` of `game fibonacci-nim` (listing the winning first moves takes about
/// N^2 / 6 steps).
pub const MAX_NIM_TO: u64 = 1_000_000;
/// Largest `--to` of `game fibonacci-nim --grundy` (the table takes N^2 bytes).
pub const MAX_GRUNDY_TO: u64 = 30_000;
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
pub(super) fn check_memo(columns: usize, v: u64, flag: &str) -> Result<()> {
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
pub(super) fn original_positions(n: u64) -> u64 {
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
#[cfg(test)]
mod game_bounds {
    use super::*;
    use proptest::prelude::*;

    /// The commands and flags with a bound; `X` is the value tried, `M` a black hole's column.
    const CASES: &[&[&str]] = &[
        &["game", "zeckendorf", "--to", "X"],
        &["game", "zeckendorf", "--to", "X", "--hole", "M"],
        &["game", "zeckendorf", "--positions", "--hole", "M", "--max-value", "X"],
        &["game", "zeckendorf", "--to", "5", "--hole", "X"],
        &["game", "fibonacci-nim", "--to", "X"],
        &["game", "fibonacci-nim", "--grundy", "--to", "X"],
        &["game", "subtraction", "--to", "X"],
        &["game", "subtraction", "--to", "100", "--row-length", "X"],
        &["game", "fraenkel-array", "--rows", "X"],
        &["game", "fraenkel-array", "--rows", "5", "--columns", "X"],
        &["game", "fraenkel-array", "--check", "--to", "X"],
        &["game", "frankenstein", "--squares", "X"],
        &["game", "frankenstein", "--squares", "5", "--bound", "X"],
        &["game", "frankenstein", "--squares", "5", "--check", "--max-sum", "X"],
    ];

    /// Validates `case` with `X = x` and `M = m`; the refusal's message on failure (clap's
    /// or ours).
    fn validate(case: &[&str], x: u64, m: u64) -> std::result::Result<(), String> {
        let args = std::iter::once("palace".to_string()).chain(case.iter().map(|a| match *a {
            "X" => x.to_string(),
            "M" => m.to_string(),
            a => a.to_string(),
        }));
        let cli = Cli::try_parse_from(args).map_err(|e| e.to_string())?;
        cli.into_config().map(drop).map_err(|e| crate::app::errors::message(&e))
    }

    /// The flag and the `N` of "use ... --flag <= N" in a message.
    fn named_bound(msg: &str) -> Option<(String, u64)> {
        let i = msg.rfind("<= ")?;
        let n = msg[i + 3..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()?;
        let flag = msg[..i].split_whitespace().last()?.to_string();
        Some((flag, n))
    }

    /// If `case` with `X = x`, `M = m` is refused with a named bound `N` on the flag of `X` or
    /// `M`: that flag at `N` is accepted and at `N + 1` refused, the other flag kept (another
    /// flag out of its own bounds may still be refused at `N`, by a message naming that flag).
    fn named_bound_holds(case: &[&str], x: u64, m: u64) -> std::result::Result<Option<u64>, String> {
        let Err(msg) = validate(case, x, m) else { return Ok(None) };
        let Some((flag, n)) = named_bound(&msg) else { return Ok(None) };
        let holder = case.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
        let at = |v: u64| match holder {
            Some("X") => validate(case, v, m),
            _ => validate(case, x, v),
        };
        if !matches!(holder, Some("X" | "M")) {
            return Ok(None);
        }
        // At N the flag passes its own checks (another flag given out of its bounds may still be
        // refused, with a message of its own); at N + 1 it is refused for itself.
        let about_flag = |r: &std::result::Result<(), String>| {
            r.as_ref().is_err_and(|e| e.starts_with(&format!("{flag} ")))
        };
        let (at_n, past) = (at(n), at(n + 1));
        if about_flag(&at_n) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, which is refused: {at_n:?}"
            ));
        }
        if !about_flag(&past) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, but {} is not refused for it: {past:?}",
                n + 1
            ));
        }
        Ok(Some(n))
    }

    /// Every case refuses a large value with a bound it names, and the bound holds.
    #[test]
    fn every_game_bound_named_is_the_largest_accepted() {
        for case in CASES {
            for m in [2, 4, 25] {
                let named = [u64::from(u32::MAX), 1 << 40]
                    .into_iter()
                    .map(|x| named_bound_holds(case, x, m))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(
                    named.iter().any(Option::is_some),
                    "{case:?} M = {m}: no bound named for large values"
                );
                // With every other flag in its bounds, the command at N passes validation.
                for n in named.into_iter().flatten() {
                    assert_eq!(validate(case, n, m), Ok(()), "{case:?} X = {n}, M = {m}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        #[test]
        fn any_game_refusal_names_a_bound_that_holds(
            case in 0..CASES.len(),
            x in prop_oneof![0u64..100, 0u64..1 << 20, 0u64..1 << 40],
            m in 2u64..=26,
        ) {
            if let Err(e) = named_bound_holds(CASES[case], x, m) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

/// `palace game subtraction`.
#[derive(Debug, Args)]
pub struct SubtractionArgs {
    /// Solve every pile 0..=N.
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// The subtraction set: a family F(an+b)+c over n >= 1 (F(2n+1)-1, the paper's and the
    /// default; F(2n)-1, F(2n+1), F(n), ...), `paper`, or a list 1,4,12,33. Repeat to survey
    /// several sets: one row each.
    #[arg(long, value_name = "NAME|LIST")]
    pub set: Vec<String>,
    /// Write the values: a uint8 array (.npy, shape (N+1,)) or a picture (.png, --row-length
    /// piles a row), by the file's extension.
    #[arg(long, short, value_name = "FILE.npy|FILE.png")]
    pub output: Option<PathBuf>,
    /// Piles a row of the picture.
    #[arg(long, value_name = "W", default_value_t = 89)]
    pub row_length: usize,
    /// Largest period searched for in the last half of the values (N/2..N).
    #[arg(long, value_name = "P", default_value_t = palace::games::subtraction::DEFAULT_PERIOD_BOUND)]
    pub period_bound: u64,
    /// Run the paper's statements over 0..=N (the paper's set only).
    #[arg(long)]
    pub check: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Largest `--to` of `game subtraction` (the values take N/4 bytes, or N bytes for a set whose
/// values reach 4).
pub const MAX_SUBTRACTION_TO: u64 = 10_000_000_000;

/// Validates `game subtraction`.
pub(super) fn subtraction_config(a: SubtractionArgs) -> Result<Config> {
    use palace::games::subtraction as sub;
    if a.to > MAX_SUBTRACTION_TO {
        return Err(Error::Usage(format!(
            "--to {}: the values take N/4 bytes (N bytes for sets whose values reach 4); use --to <= {MAX_SUBTRACTION_TO}",
            a.to
        )));
    }
    let specs = if a.set.is_empty() { vec![sub::PAPER_SET.to_string()] } else { a.set };
    let mut sets = Vec::new();
    for spec in &specs {
        sets.push(sub::parse_set(spec, a.to).map_err(|e| Error::Usage(format!("--set {e}")))?);
    }
    if let Some(o) = &a.output {
        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
        if !matches!(ext.as_deref(), Some("npy" | "png")) {
            return Err(Error::Usage(format!(
                "--output {}: the format comes from the extension; name it .npy or .png",
                o.display()
            )));
        }
        if sets.len() > 1 {
            return Err(Error::Usage("--output writes one set's values; give one --set".into()));
        }
    }
    if a.row_length == 0 || a.row_length > 4096 {
        return Err(Error::Usage(format!(
            "--row-length {}: a picture row holds 1 to 4096 piles; use 1 <= --row-length <= 4096",
            a.row_length
        )));
    }
    if a.check && (sets.len() > 1 || !sets[0].is_papers(a.to)) {
        return Err(Error::Usage(format!(
            "--check runs Larsson and Fox's statements about S = {{F(2n+1) - 1}}; drop --set or use --set {}",
            sub::PAPER_SET
        )));
    }
    Ok(Config::Subtraction {
        to: a.to,
        sets,
        output: a.output,
        row_length: a.row_length,
        period_bound: a.period_bound,
        check: a.check,
        json: a.json,
        run: a.run.resolve()?,
    })
}

// `palace game fraenkel-array`, `fraenkel-u` and `frankenstein` (Fraenkel, Arrays,
// Numeration Systems and Frankenstein Games).

/// Largest `--rows` of `game fraenkel-array`.
pub const MAX_FRAENKEL_ROWS: u64 = 1_000_000;
/// Largest `--to` of `game fraenkel-array --check` (one bit per integer: 500 MB).
pub const MAX_FRAENKEL_TO: u64 = 4_000_000_000;
/// Largest `--squares` of `game frankenstein` (2^N positions).
pub const MAX_FRANKENSTEIN_SQUARES: u32 = 32;
/// Largest `--bound` of `game frankenstein` (pairs of claimed positions).
pub const MAX_FRANKENSTEIN_BOUND: u32 = 20_000;
/// Largest `--max-sum` of `game frankenstein --check`.
pub const MAX_FRANKENSTEIN_SUM: u32 = 150;

/// `palace game fraenkel-array`.
#[derive(Debug, Args)]
pub struct FraenkelArrayArgs {
    /// Print rows 0..N-1.
    #[arg(long, value_name = "N", required_unless_present = "check")]
    pub rows: Option<u64>,
    /// Print columns 0..J-1.
    #[arg(long, value_name = "J", default_value_t = 7)]
    pub columns: usize,
    /// Print JSON: {"rows": [[A_0^n, A_1^n, ...], ...]}.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: n,A_0,A_1,...
    #[arg(long)]
    pub csv: bool,
    /// Draw the integers up to A_0^{N-1}, each coloured by the column of A that holds it. With
    /// --plot the rows are printed only when asked for: by --table, --csv or --json.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// With --plot: also print the rows as a table.
    #[arg(long, requires = "plot", conflicts_with_all = ["csv", "json"])]
    pub table: bool,
    /// Check the text's statements on every entry up to X (--to) instead of printing rows.
    #[arg(long, conflicts_with_all = ["rows", "csv", "plot"])]
    pub check: bool,
    /// The bound of --check.
    #[arg(long, value_name = "X", default_value_t = 1_000_000)]
    pub to: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

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
