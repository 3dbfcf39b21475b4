//! The checkable statements of the two texts, run against the solvers (`docs/games-claims.md`
//! lists them with their verdicts and ranges).
//!
//! The texts: the Fibonacci nim notes (an encyclopaedia-style summary of Fibonacci nim and the
//! notions around it) and Cashman, Miller, Shuffelton and Son, *Black Hole Zeckendorf Games*
//! (2025), cited here by theorem, corollary, lemma and appendix number. Each check states the
//! claim, the range it was run over and the verdict: confirmed, or refuted with the first
//! counterexample met. The solvers know nothing of these statements.

use super::fib::{self, fibonacci_code, is_fibonacci, smallest_zeckendorf_term, zeckendorf};
use super::fibonacci_nim::{self as nim, Outcomes};
use super::watch::Watch;
use super::zeckendorf::{self as z, Counts, EmptyBoard, MAX_COLUMNS, OriginalRow, Player, Rules, Solver};

/// One statement of a text and what the computation found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Claim {
    /// Where the text says it (theorem number, paragraph).
    pub source: String,
    /// The statement, as implemented.
    pub claim: String,
    /// The range it was checked over.
    pub range: String,
    /// `confirmed`, `refuted`, or `not reached` (an example the claim promises lies beyond the
    /// range).
    pub verdict: &'static str,
    /// The first counterexample, when refuted; an example, where the claim is existential.
    pub note: Option<String>,
}

/// A claim checked over `range`: refuted with `counterexample` if there is one, else
/// confirmed.
pub(crate) fn claim(source: &str, text: &str, range: &str, counterexample: Option<String>) -> Claim {
    Claim {
        source: source.into(),
        claim: text.into(),
        range: range.into(),
        verdict: if counterexample.is_some() { "refuted" } else { "confirmed" },
        note: counterexample,
    }
}

/// Formats claims as the table `--check` prints.
pub fn table(claims: &[Claim]) -> String {
    let mut s = String::new();
    for c in claims {
        s.push_str(&format!(
            "{:<22} {}\n{:<22} range: {}\n{:<22} {}",
            c.source, c.claim, "", c.range, "", c.verdict
        ));
        if let Some(n) = &c.note {
            s.push_str(&format!(": {n}"));
        }
        s.push_str("\n\n");
    }
    let count = |v: &str| claims.iter().filter(|c| c.verdict == v).count();
    s.push_str(&format!(
        "{} claims: {} confirmed, {} refuted",
        claims.len(),
        count("confirmed"),
        count("refuted")
    ));
    if count("not reached") > 0 {
        s.push_str(&format!(", {} not reached in this range", count("not reached")));
    }
    s.push('\n');
    s
}

/// The first `n` in `range` where `bad(n)` holds, as a counterexample.
fn first(
    range: impl IntoIterator<Item = usize>,
    mut bad: impl FnMut(usize) -> bool,
    what: &str,
) -> Option<String> {
    range.into_iter().find(|&n| bad(n)).map(|n| format!("{what} = {n}"))
}

/// The note of the claim about 10 coins when the piles stop short of 10.
pub const TEN_NOT_REACHED: &str = "the piles stop short of 10";

/// The claims of the Fibonacci nim notes, over piles `1..=to` and Grundy values to `grundy_to`.
pub fn fibonacci_nim(o: &Outcomes, g: &nim::GrundyTable) -> Vec<Claim> {
    let to = o.to;
    let t = &o.thresholds;
    let r = format!("n = 1..{to}");
    let mut out = vec![
        claim(
            "Notes, par. 1 and 8",
            "the first player wins from n coins iff n is not a Fibonacci number",
            &r,
            first(1..=to, |n| o.winning_moves[n].is_empty() != is_fibonacci(n as u64), "n"),
        ),
        claim(
            "Notes, par. 7",
            "the player to move wins (n, q) iff q >= the smallest term of n's Zeckendorf representation",
            &format!("n = 1..{to}, every quota q"),
            first(1..=to, |n| u64::from(t[n]) != smallest_zeckendorf_term(n as u64), "n"),
        ),
        claim(
            "Notes, par. 7",
            "in a won position, taking all the coins (when allowed) or else the smallest Zeckendorf term wins",
            &format!("n = 1..{to}, every q >= t(n)"),
            first(
                1..=to,
                |n| {
                    let z = smallest_zeckendorf_term(n as u64) as usize;
                    z < n && nim::wins(t, n - z, 2 * z)
                },
                "n",
            ),
        ),
        claim(
            "Notes, par. 7",
            "after that move the new quota is below the smallest Zeckendorf term of what remains",
            &r,
            first(
                1..=to,
                |n| {
                    let z = smallest_zeckendorf_term(n as u64);
                    z < n as u64 && 2 * z >= smallest_zeckendorf_term(n as u64 - z)
                },
                "n",
            ),
        ),
        claim(
            "Notes, par. 7",
            "from a lost position every move leads to a won one",
            &format!("n = 1..{to}, every q < t(n)"),
            first(1..=to, |n| (1..t[n] as usize).any(|k| k <= n && !nim::wins(t, n - k, 2 * k)), "n"),
        ),
    ];
    let multi = (1..=to).find(|&n| o.winning_moves[n].len() > 1);
    out.push(Claim {
        source: "Notes, par. 7".into(),
        claim: "other winning moves than the smallest Zeckendorf term may exist".into(),
        range: r.clone(),
        // An existential claim is not refuted by a range too small to show an example.
        verdict: if multi.is_some() { "confirmed" } else { "not reached" },
        note: multi.map(|n| {
            let many = (1..=to).filter(|&n| o.winning_moves[n].len() > 1).count();
            format!(
                "first at n = {n} (winning first moves {:?}); {many} piles have more than one",
                o.winning_moves[n]
            )
        }),
    });
    let ten = (to >= 10).then(|| o.winning_moves[10].clone());
    out.push(claim(
        "Notes, par. 5 and 8",
        "10 = 8 + 2 in Zeckendorf form (also 5 + 5, 5 + 3 + 2); the first player wins 10 coins by taking 2",
        "n = 10",
        match &ten {
            Some(m) if zeckendorf(10) == [8, 2] && m.contains(&2) => None,
            Some(m) => Some(format!("winning first moves at 10: {m:?}")),
            None => None,
        },
    ));
    if ten.is_none()
        && let Some(last) = out.last_mut()
    {
        last.verdict = "not reached";
        last.note = Some(TEN_NOT_REACHED.into());
    }
    if let Some(m) = ten
        && let Some(last) = out.last_mut()
    {
        last.note = Some(format!("all winning first moves from 10: {m:?}"));
    }
    // Zeckendorf's theorem: exactly one representation by distinct non-consecutive Fibonacci
    // numbers, and the greedy algorithm finds it.
    let reps = zeckendorf_counts(to as u64);
    out.push(claim(
        "Notes, par. 5",
        "every n has exactly one representation as a sum of distinct, non-consecutive Fibonacci numbers, found greedily",
        &r,
        first(
            1..=to,
            |n| {
                let z = zeckendorf(n as u64);
                let fibs = fib::fibonacci_up_to(n as u64);
                let idx: Vec<usize> = z.iter().map(|f| fibs.iter().position(|g| g == f).expect("fib")).collect();
                reps[n] != 1 || idx.windows(2).any(|w| w[0] - w[1] < 2) || z.iter().sum::<u64>() != n as u64
            },
            "n",
        ),
    ));
    out.push(claim(
        "Notes, Fibonacci coding",
        "each code word ends with \"11\" and contains no other \"11\"",
        &r,
        first(
            1..=to,
            |n| {
                let c = fibonacci_code(n as u64);
                !c.ends_with("11") || c[..c.len() - 1].contains("11")
            },
            "n",
        ),
    ));
    let gm = g.max;
    out.push(claim(
        "Notes, par. 9 (Grundy values)",
        "G(n, q) = 0 exactly at the lost positions",
        &format!("n, q = 1..{gm}"),
        first(1..=gm.min(to), |n| (1..=gm).any(|q| (g.get(n, q) == 0) == nim::wins(t, n, q)), "n"),
    ));
    let side = gm.min(12);
    out.push(claim(
        "Notes, par. 9 (Sprague-Grundy)",
        "a sum of two piles (each with its own quota) is lost exactly when G(n1, q1) xor G(n2, q2) = 0",
        &format!("n1, n2, q1, q2 = 1..{side} (against a brute-force search of the sum)"),
        two_pile_counterexample(g, side),
    ));
    out.extend(wythoff_array_claims(WYTHOFF_ARRAY_TO));
    out.extend(negafibonacci_claims(NEGAFIBONACCI_DIGITS, NEGAFIBONACCI_TO));
    out
}

/// Entries of the Wythoff array checked by `wythoff_array_claims`.
pub const WYTHOFF_ARRAY_TO: u64 = 1_000_000;
/// Starting pairs `(s0, s1)`, `|s0|, |s1| <= ` this, of the Fibonacci-recurrent sequences
/// `wythoff_array_claims` looks for in the array.
pub const WYTHOFF_SEQUENCES_BOX: i64 = 30;

/// The Wythoff array's entries up to `to`, row by row: row `n >= 1` starts
/// `floor(floor(n phi) phi), floor(floor(n phi) phi^2)` (Morrison's definition, in exact integer
/// arithmetic: the Wythoff pair of `floor(n phi)`) and goes on by `x_{k+2} = x_{k+1} + x_k`.
/// Rows are cut where their entries pass `to`; rows whose first entry passes it are left out.
pub(crate) fn wythoff_array(to: u64) -> Vec<Vec<u64>> {
    let mut rows = Vec::new();
    for n in 1u64.. {
        let (a, b) = crate::model::wythoff::pair(crate::model::wythoff::pair(n).0);
        if a > to {
            break;
        }
        let mut row = vec![a];
        let (mut x, mut y) = (a, b);
        while y <= to {
            row.push(y);
            (x, y) = (y, x + y);
        }
        rows.push(row);
    }
    rows
}

/// The notes' sentence on the Wythoff array: "Every positive integer occurs exactly once in the
/// array, and every integer sequence defined by the Fibonacci recurrence can be derived by
/// shifting a row of the array". The first half over every integer `1..=to`; the second over
/// the sequences started by the pairs in a box, literally (every integer sequence) and for the
/// sequences that become positive (the zero sequence and those that turn negative for good
/// never meet the array, whose entries are positive).
pub(crate) fn wythoff_array_claims(to: u64) -> Vec<Claim> {
    let rows = wythoff_array(to);
    let mut seen = vec![0u8; to as usize + 1];
    let mut at = vec![(0usize, 0usize); to as usize + 1];
    for (r, row) in rows.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            seen[x as usize] = seen[x as usize].saturating_add(1);
            at[x as usize] = (r, c);
        }
    }
    let once =
        (1..=to).find(|&x| seen[x as usize] != 1).map(|x| format!("{x} occurs {} times", seen[x as usize]));
    // What becomes of the sequence from (s0, s1): `Some(true)` once two consecutive terms are
    // consecutive entries of one row (it then follows that row), `Some(false)` once two
    // consecutive terms are both <= 0 (then every later term is), `None` if it passes the
    // checked entries first.
    let joins = |s0: i64, s1: i64| -> Option<bool> {
        let (mut x, mut y) = (s0, s1);
        loop {
            if x <= 0 && y <= 0 {
                return Some(false);
            }
            if x > 0 && y > x {
                if y as u64 > to {
                    return None;
                }
                let (r, c) = at[x as usize];
                if rows[r].get(c + 1) == Some(&(y as u64)) {
                    return Some(true);
                }
            }
            (x, y) = (y, x + y);
        }
    };
    let bx = WYTHOFF_SEQUENCES_BOX;
    let mut pairs: Vec<(i64, i64)> = (-bx..=bx).flat_map(|a| (-bx..=bx).map(move |b| (a, b))).collect();
    // Nearest the origin first: the first counterexample is the simplest.
    pairs.sort_by_key(|&(a, b)| (a.abs() + b.abs(), a, b));
    let fates: Vec<((i64, i64), Option<bool>)> = pairs.iter().map(|&(a, b)| ((a, b), joins(a, b))).collect();
    let literal = fates.iter().find(|(_, f)| *f != Some(true)).map(|&((a, b), f)| match f {
        Some(false) => format!("the sequence from ({a}, {b}) never meets the array (no two consecutive terms are positive: every later term is <= 0)"),
        _ => format!("the sequence from ({a}, {b}) does not join a row below {to}"),
    });
    let positive: Vec<&((i64, i64), Option<bool>)> =
        fates.iter().filter(|(_, f)| *f != Some(false)).collect();
    let checked = positive.len();
    let bad_positive = positive
        .iter()
        .find(|(_, f)| f.is_none())
        .map(|((a, b), _)| format!("the sequence from ({a}, {b}) does not join a row below {to}"));
    let range = format!("starting pairs (s0, s1) with |s0|, |s1| <= {bx}, entries <= {to}");
    vec![
        claim(
            "Notes, Wythoff array",
            "every positive integer occurs exactly once in the Wythoff array",
            &format!("every integer 1..{to} ({} rows)", rows.len()),
            once,
        ),
        claim(
            "Notes, Wythoff array (literally)",
            "every integer sequence defined by the Fibonacci recurrence is a row of the array shifted (from some term on)",
            &range,
            literal,
        ),
        claim(
            "Notes, Wythoff array (positive sequences)",
            "every Fibonacci-recurrent integer sequence whose terms become positive is, from some term on, a row of the array",
            &format!("{range}: the {checked} sequences that become positive"),
            bad_positive,
        ),
    ]
}

/// Digits of the negafibonacci representations `negafibonacci_claims` enumerates.
pub const NEGAFIBONACCI_DIGITS: usize = 22;
/// Integers `-N..=N` whose negafibonacci representations `negafibonacci_claims` counts.
pub const NEGAFIBONACCI_TO: i64 = 5000;

/// The notes' sentence on negafibonacci coding: it "encodes nonzero integers", "allows both
/// positive and negative integers to be represented", and "all codes end with 11 and have no 11
/// before the end". Every digit string of up to `digits` digits with no two adjacent 1s and a
/// last digit 1 is read as `sum d_k F_{-k}` (`F_{-1} = 1, F_{-2} = -1, F_{-3} = 2, ...`, from the
/// recurrence run backwards); every nonzero integer of `-to..=to` must have exactly one, and its
/// code word (the digits from `F_{-1}` up, then a 1) must end in 11 with no 11 before.
pub(crate) fn negafibonacci_claims(digits: usize, to: i64) -> Vec<Claim> {
    // F_{-k} for k = 1..=digits, by F_{j} = F_{j+2} - F_{j+1} from F_1 = 1, F_0 = 0.
    let mut neg = Vec::with_capacity(digits);
    let (mut hi, mut lo) = (1i64, 0i64); // F_{j+1}, F_j for j = 0
    for _ in 0..digits {
        let next = hi - lo; // F_{j-1} = F_{j+1} - F_j
        (hi, lo) = (lo, next);
        neg.push(lo);
    }
    let mut count = vec![0u32; (2 * to + 1) as usize];
    let mut bad_code = None;
    let mut zero = false;
    // Strings with no two adjacent 1s, the last (highest) digit 1, by depth-first search.
    fn go(
        k: usize,
        prev_one: bool,
        value: i64,
        code: &mut String,
        neg: &[i64],
        f: &mut dyn FnMut(i64, &str),
    ) {
        if prev_one {
            f(value, code);
        }
        if k == neg.len() {
            return;
        }
        code.push('0');
        go(k + 1, false, value, code, neg, f);
        code.pop();
        if !prev_one {
            code.push('1');
            go(k + 1, true, value + neg[k], code, neg, f);
            code.pop();
        }
    }
    let mut code = String::new();
    go(0, false, 0, &mut code, &neg, &mut |v, c| {
        if v == 0 {
            zero = true;
        }
        if v.abs() <= to {
            count[(v + to) as usize] += 1;
        }
        let word = format!("{c}1");
        if bad_code.is_none() && (!word.ends_with("11") || word[..word.len() - 1].contains("11")) {
            bad_code = Some(format!("{v}: {word}"));
        }
    });
    let once = (-to..=to)
        .filter(|&x| x != 0)
        .find(|&x| count[(x + to) as usize] != 1)
        .map(|x| format!("{x} has {} representations", count[(x + to) as usize]));
    let range = format!("every digit string of up to {digits} digits; integers -{to}..{to}");
    vec![
        claim(
            "Notes, negafibonacci coding",
            "every nonzero integer, positive or negative, has exactly one representation as a sum of distinct non-consecutive negafibonacci numbers F_{-k} (and 0 none)",
            &range,
            once.or_else(|| zero.then(|| "0 has a representation".to_string())),
        ),
        claim(
            "Notes, negafibonacci coding",
            "all codes end with \"11\" and have no \"11\" before the end",
            &range,
            bad_code,
        ),
    ]
}

/// How many ways each `n <= to` is a sum of distinct, non-consecutive Fibonacci numbers.
fn zeckendorf_counts(to: u64) -> Vec<u64> {
    let fibs = fib::fibonacci_up_to(to.max(1));
    let n = to as usize;
    // free[v]: representations of v with the terms so far, the last term not used;
    // used[v]: with the last term used.
    let mut free = vec![0u64; n + 1];
    let mut used = vec![0u64; n + 1];
    free[0] = 1;
    for &f in &fibs {
        let f = f as usize;
        let mut nf = vec![0u64; n + 1];
        let mut nu = vec![0u64; n + 1];
        for v in 0..=n {
            nf[v] = free[v] + used[v];
            if v >= f {
                nu[v] = free[v - f];
            }
        }
        free = nf;
        used = nu;
    }
    (0..=n).map(|v| free[v] + used[v]).collect()
}

/// Plays the sum of two Fibonacci nim piles by brute force and compares with the xor rule.
fn two_pile_counterexample(g: &nim::GrundyTable, side: usize) -> Option<String> {
    use std::collections::HashMap;
    fn wins(s: (usize, usize, usize, usize), memo: &mut HashMap<(usize, usize, usize, usize), bool>) -> bool {
        if let Some(&w) = memo.get(&s) {
            return w;
        }
        let (n1, q1, n2, q2) = s;
        let w = (1..=q1.min(n1)).any(|k| !wins((n1 - k, 2 * k, n2, q2), memo))
            || (1..=q2.min(n2)).any(|k| !wins((n1, q1, n2 - k, 2 * k), memo));
        memo.insert(s, w);
        w
    }
    let mut memo = HashMap::new();
    for n1 in 1..=side {
        for q1 in 1..=side {
            for n2 in 1..=side {
                for q2 in 1..=side {
                    let x = g.get(n1, q1) ^ g.get(n2, q2);
                    if wins((n1, q1, n2, q2), &mut memo) != (x != 0) {
                        return Some(format!("piles ({n1}, q {q1}) + ({n2}, q {q2})"));
                    }
                }
            }
        }
    }
    None
}

/// A position on `m - 1` columns from its counts.
fn pos(c: &[u32]) -> Counts {
    let mut p = [0u32; MAX_COLUMNS];
    p[..c.len()].copy_from_slice(c);
    p
}

/// Checks "for every position (a, b, c) of the F_4 board with `b` fixed and value `<= v`, the
/// outcome is N when `expect_n(a, c)` is `Some(true)`, P when `Some(false)`" (no claim for
/// `None`).
fn f4_family(
    s: &mut Solver,
    v: u64,
    b: u32,
    source: &str,
    text: &str,
    expect_n: impl Fn(u64, u64) -> Option<bool>,
    watch: &Watch<'_>,
) -> Claim {
    // Every position of the range is counted and checked; the first counterexample is kept.
    let mut bad = None;
    let mut checked = 0u64;
    for c in 0..=(v.saturating_sub(2 * u64::from(b))) / 3 {
        if watch.is_cancelled() {
            break;
        }
        for a in 0..=v.saturating_sub(2 * u64::from(b) + 3 * c) {
            if let Some(want) = expect_n(a, c) {
                checked += 1;
                if bad.is_none()
                    && s.wins_watched(&pos(&[a as u32, b, c as u32]), watch).unwrap_or(false) != want
                {
                    bad = Some(format!("({a}, {b}, {c}) is {}", if want { "P" } else { "N" }));
                }
            }
        }
    }
    claim(
        source,
        text,
        &format!("({}) of value <= {v}: {checked} positions", if b == 0 { "a, 0, c" } else { "a, 1, c" }),
        bad,
    )
}

/// Theorem 2.1 and the possible outcomes of §2 on the board of `F_m`: every move keeps the value
/// modulo `F_m` and never raises it, and the positions without a move are exactly the
/// Zeckendorf decompositions of `0 .. F_m - 1` (one each), so every play from value `n` ends at
/// the decomposition of `n mod F_m`.
fn theorem_2_1(m: usize, s: &Solver, v: u64, watch: &Watch<'_>) -> Claim {
    let rules = Rules::black_hole(m);
    let cols = rules.columns;
    let fm = fib::weight(m);
    let mut bad = None;
    let mut terminals: Vec<Vec<u32>> = Vec::new();
    for val in 0..=v {
        if watch.is_cancelled() {
            break;
        }
        s.space().for_each_of_value(val, &mut |p| {
            if bad.is_some() {
                return;
            }
            let mut any = false;
            for k in 0..rules.move_kinds() {
                if let Some(q) = rules.apply(p, k) {
                    any = true;
                    let w = z::value(&q, cols);
                    if w > val || !(val - w).is_multiple_of(fm) {
                        bad = Some(format!("move {} from {:?}", rules.label(k), &p[..cols]));
                    }
                }
            }
            if !any {
                terminals.push(p[..cols].to_vec());
            }
        });
    }
    if bad.is_none() {
        let want: Vec<Vec<u32>> = (0..fm.min(v + 1))
            .map(|n| {
                let mut c = vec![0u32; cols];
                for t in zeckendorf(n) {
                    let i = (1..=cols).find(|&i| fib::weight(i) == t).expect("a column");
                    c[i - 1] += 1;
                }
                c
            })
            .collect();
        let mut got = terminals.clone();
        got.sort();
        let mut w = want.clone();
        w.sort();
        if got != w {
            bad = Some(format!(
                "positions without a move: {got:?}, Zeckendorf decompositions below F_{m}: {w:?}"
            ));
        }
    }
    let listed = if bad.is_none() { Some(format!("the end positions: {terminals:?}")) } else { None };
    let mut c = claim(
        "Theorem 2.1, §2",
        &format!("on the F_{m} board every play ends at the Zeckendorf decomposition of n mod F_{m} = {fm}"),
        &format!("every position of value <= {v}"),
        bad,
    );
    if c.note.is_none() {
        c.note = listed;
    }
    c
}

/// The smallest eventual period of `seq`: `(period, start)` with `seq[i] = seq[i + period]` for
/// every `i >= start` (0-based), seen at least three times over and over at least half of the
/// sequence; `None` if there is none.
pub fn eventual_period(seq: &[Player]) -> Option<(usize, usize)> {
    let len = seq.len();
    (1..=len / 3)
        .filter_map(|p| {
            let mut start = len - p;
            while start > 0 && seq[start - 1] == seq[start - 1 + p] {
                start -= 1;
            }
            (len - start >= (3 * p).max(len / 2)).then_some((p, start))
        })
        .next()
}

/// The claims about the empty-board games and positions on the board of `F_m` (`m = 2, 3, 4`;
/// for other `m` only Theorem 2.1), over positions of value `<= to` and piles `1..=to` (`e`
/// solved to `to`; for `m = 4`, `to >= 64`: the listed positions reach value 47).
///
/// # Panics
/// For `m = 4` and `to < 64`.
pub fn black_hole(e: &mut EmptyBoard, to: u64) -> Vec<Claim> {
    black_hole_watched(e, to, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`black_hole`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled (the loops over positions look at it row by row).
///
/// # Panics
/// For `m = 4` and `to < 64`.
pub fn black_hole_watched(
    e: &mut EmptyBoard,
    to: u64,
    watch: &Watch<'_>,
) -> crate::error::Result<Vec<Claim>> {
    let m = e.m;
    let v = to;
    let winners = e.winners.clone();
    let s = &mut e.solver;
    let mut out = vec![theorem_2_1(m, s, v.min(if m >= 5 { 200 } else { v }), watch)];
    let rn = format!("n = 1..{to}");
    let winner_check = |src: &str, text: &str, want: &dyn Fn(u64) -> Player| {
        claim(src, text, &rn, first(1..=to as usize, |n| winners[n - 1] != want(n as u64), "n"))
    };
    match m {
        2 => {
            let mut bad = None;
            for a in 0..=v as u32 {
                if watch.is_cancelled() {
                    break;
                }
                if s.wins_watched(&pos(&[a]), watch).unwrap_or(false) != (a % 4 >= 2) {
                    bad = Some(format!("({a})"));
                    break;
                }
            }
            out.push(claim("Theorem 3.1", "(a) is P iff a = 0, 1 mod 4", &format!("a = 0..{v}"), bad));
            out.push(winner_check(
                "Theorem 3.1",
                "empty board F_2: Player 1 wins iff n = 1, 2 mod 4",
                &|n| if n % 4 == 1 || n % 4 == 2 { 1 } else { 2 },
            ));
        }
        3 => {
            let mut check = |src: &str, text: &str, f: &dyn Fn(u64, u64) -> Option<bool>| {
                let mut bad = None;
                let mut checked = 0;
                for b in 0..=v / 2 {
                    if watch.is_cancelled() {
                        break;
                    }
                    for a in 0..=v - 2 * b {
                        if let Some(want_n) = f(a, b) {
                            checked += 1;
                            if bad.is_none()
                                && s.wins_watched(&pos(&[a as u32, b as u32]), watch).unwrap_or(false)
                                    != want_n
                            {
                                bad = Some(format!("({a}, {b}) is {}", if want_n { "P" } else { "N" }));
                            }
                        }
                    }
                }
                claim(src, text, &format!("(a, b) of value <= {v}: {checked} positions"), bad)
            };
            out.push(check("Theorem 4.1", "(a, 0) and (0, b) are P when a, b = 0, 1 mod 3", &|a, b| {
                ((b == 0 && a % 3 <= 1) || (a == 0 && b % 3 <= 1)).then_some(false)
            }));
            out.push(check("Theorem 4.2", "(a, 0) and (0, b) are N when a, b = 2 mod 3", &|a, b| {
                ((b == 0 && a % 3 == 2) || (a == 0 && b % 3 == 2)).then_some(true)
            }));
            out.push(check("Corollary 4.3", "(3 alpha, 1) and (1, 3 beta) are P", &|a, b| {
                ((b == 1 && a % 3 == 0) || (a == 1 && b % 3 == 0)).then_some(false)
            }));
            out.push(check("Theorem 4.4", "(a, b) is P when a = b = 0 mod 3", &|a, b| {
                (a % 3 == 0 && b % 3 == 0).then_some(false)
            }));
            out.push(check("Theorem 4.5", "(a, b) is P when (a, b) = (1, 0) or (0, 1) mod 3", &|a, b| {
                matches!((a % 3, b % 3), (1, 0) | (0, 1)).then_some(false)
            }));
            out.push(check("Theorem 4.6", "(a, b) is N in the six other classes mod 3", &|a, b| {
                (!matches!((a % 3, b % 3), (0, 0) | (1, 0) | (0, 1))).then_some(true)
            }));
            type Forced = (&'static str, &'static [u64], Player, fn(u64) -> Vec<u64>);
            let forced: [Forced; 7] = [
                ("(1)", &[3, 6], 1, |n| vec![n / 3]),
                ("(2)", &[0], 2, |n| vec![n / 3]),
                ("(3)", &[1], 1, |n| vec![(n - 1) / 3]),
                ("(4)", &[4, 7], 2, |n| vec![(n - 1) / 3]),
                ("(5)", &[2], 1, |n| vec![(n - 2) / 3 + 1]),
                ("(6)", &[8], 1, |n| vec![(n - 2) / 3]),
                ("(7)", &[5], 2, |n| vec![(n - 2) / 3, (n - 2) / 3 + 1]),
            ];
            let fto = to.min(600);
            for (part, classes, player, target) in forced {
                let bad = (1..=fto).filter(|n| classes.contains(&(n % 9))).find(|&n| {
                    if watch.is_cancelled() {
                        return true;
                    }
                    let t = target(n);
                    !z::can_force(n, 2, player, &|j| t.contains(&j))
                });
                out.push(claim(
                    &format!("Theorem 4.7 {part}"),
                    &format!(
                        "for n = {classes:?} mod 9 Player {player} can force the setup(s) with b = {}",
                        match part {
                            "(1)" | "(2)" => "n/3",
                            "(3)" | "(4)" => "(n-1)/3",
                            "(5)" => "(n-2)/3 + 1",
                            "(6)" => "(n-2)/3",
                            _ => "(n-2)/3 or (n-2)/3 + 1",
                        }
                    ),
                    &format!("n = 1..{fto}"),
                    bad.map(|n| format!("n = {n}")),
                ));
            }
            out.extend(only_setups_forced(to.min(90)));
            out.push(winner_check(
                "Theorem 4.8, §1.2.2",
                "empty board F_3: Player 1 wins iff n = 1, 2, 3, 6, 8 mod 9",
                &|n| if [1, 2, 3, 6, 8].contains(&(n % 9)) { 1 } else { 2 },
            ));
        }
        4 => {
            assert!(to >= 64, "the F_4 checks need piles up to 64");
            out.extend(f4_claims(s, v, &winners, to, watch));
        }
        _ => {}
    }
    // A cancelled run's claims are unfinished: none is returned.
    watch.check()?;
    Ok(out)
}

/// `x >= y + d`.
fn ge(x: u64, y: u64, d: i64) -> bool {
    x as i64 >= y as i64 + d
}

/// `x <= y + d`.
fn le(x: u64, y: u64, d: i64) -> bool {
    x as i64 <= y as i64 + d
}

/// The setups Theorem 4.7 lists for a pile `n` of the `F_3` game: the player it names for `n`'s
/// class mod 9, and the numbers `b` of `F_2` pieces of the setups.
fn theorem_4_7(n: u64) -> (Player, Vec<u64>) {
    match n % 9 {
        3 | 6 => (1, vec![n / 3]),
        0 => (2, vec![n / 3]),
        1 => (1, vec![(n - 1) / 3]),
        4 | 7 => (2, vec![(n - 1) / 3]),
        2 => (1, vec![(n - 2) / 3 + 1]),
        8 => (1, vec![(n - 2) / 3]),
        _ => (2, vec![(n - 2) / 3, (n - 2) / 3 + 1]),
    }
}

/// The remark after Theorem 4.7, "these are the only setups that can be forced", under its two
/// readings, over piles `1..=to` of the `F_3` game: for each pile and each player, every setup
/// `(n - 2b, b)` that player can force by itself ([`z::can_force`] with the one target `b`).
/// Per class mod 9: the player Theorem 4.7 names forces no setup beyond the one(s) it lists for
/// that class. Per residue mod 3: no player forces a setup beyond those the theorem lists for
/// some class of the same residue mod 3 (the setups `b = n/3`; `(n-1)/3`; `(n-2)/3`,
/// `(n-2)/3 + 1`).
fn only_setups_forced(to: u64) -> Vec<Claim> {
    let forced = |n: u64, player: Player| -> Vec<u64> {
        (0..=n / 2).filter(|&b| z::can_force(n, 2, player, &|j| j == b)).collect()
    };
    let (mut per_class, mut per_residue) = (None, None);
    for n in 1..=to {
        let (named, listed) = theorem_4_7(n);
        let by: [Vec<u64>; 2] = [forced(n, 1), forced(n, 2)];
        if per_class.is_none()
            && let Some(b) = by[named as usize - 1].iter().find(|b| !listed.contains(b))
        {
            per_class = Some(format!(
                "n = {n} (= {} mod 9): Player {named} can also force ({}, {b}); the theorem lists b = {listed:?}",
                n % 9,
                n - 2 * b
            ));
        }
        let forms: Vec<u64> = match n % 3 {
            0 => vec![n / 3],
            1 => vec![(n - 1) / 3],
            _ => vec![(n - 2) / 3, (n - 2) / 3 + 1],
        };
        if per_residue.is_none() {
            for (p, list) in by.iter().enumerate() {
                if let Some(b) = list.iter().find(|b| !forms.contains(b)) {
                    per_residue = Some(format!("n = {n}: Player {} can force ({}, {b})", p + 1, n - 2 * b));
                    break;
                }
            }
        }
    }
    let range = format!("n = 1..{to}, every setup (n - 2b, b), both players");
    vec![
        claim(
            "after Theorem 4.7 (per class)",
            "these are the only setups that can be forced: for each class of n mod 9 the player Theorem 4.7 names can force no setup but the one(s) it lists for that class",
            &range,
            per_class,
        ),
        claim(
            "after Theorem 4.7 (per residue)",
            "these are the only setups that can be forced: whatever n, no player can force a setup outside those Theorem 4.7 lists for n's residue mod 3 (b = n/3; (n-1)/3; (n-2)/3 or (n-2)/3 + 1)",
            &range,
            per_residue,
        ),
    ]
}

/// The side arithmetic of the proof of Theorem 5.19: for each case, "for all x >= x0 there is
/// no alpha <= gamma with 3 alpha + k1 = x + da and 4 gamma + k3 = x + dc" (`0 <= k1 <= 2`,
/// `0 <= k3 <= 3`), checked by trying every `alpha <= gamma` for `x = 0..=to`; also whether
/// `x0` is the least bound that works (the note gives the last `x` with a solution).
fn theorem_5_19_arithmetic(to: u64) -> Vec<Claim> {
    // (case, x, the offsets of a and c from x, the proof's bound x0)
    let cases: [(&str, &str, u64, u64, u64); 6] = [
        ("n = 0 mod 4", "x = n/4: 3 alpha + k1 = x = 4 gamma + k3", 0, 0, 9),
        ("n = 1 mod 4", "x = (n-1)/4: 3 alpha + k1 = x + 1, 4 gamma + k3 = x", 1, 0, 5),
        ("n = 2 mod 4", "x = (n-2)/4: 3 alpha + k1 = x + 2, 4 gamma + k3 = x", 2, 0, 1),
        ("n = 3, 7 mod 16", "x = (n-3)/4: 3 alpha + k1 = x + 3, 4 gamma + k3 = x", 3, 0, 0),
        ("n = 15 mod 16", "x = (n-3)/4: 3 alpha + k1 = x, 4 gamma + k3 = x + 1", 0, 1, 12),
        ("n = 11 mod 16", "x = (n-3)/4: 3 alpha + k1 = x + 3, 4 gamma + k3 = x", 3, 0, 0),
    ];
    let solvable = |a: u64, c: u64| -> bool {
        // alpha = (a - k1) / 3, gamma = (c - k3) / 4 for the k that divide.
        (0..=2u64.min(a)).any(|k1| {
            (a - k1).is_multiple_of(3)
                && (0..=3u64.min(c)).any(|k3| (c - k3).is_multiple_of(4) && (a - k1) / 3 <= (c - k3) / 4)
        })
    };
    cases
        .iter()
        .map(|&(case, text, da, dc, x0)| {
            let last = (0..=to).rev().find(|&x| solvable(x + da, x + dc));
            let bad = last.filter(|&x| x >= x0).map(|x| format!("x = {x} has a solution"));
            let note = match last {
                Some(x) if x + 1 < x0 => format!("; the least bound that works is x >= {}", x + 1),
                None if x0 > 0 => "; it holds for every x >= 0".to_string(),
                _ => String::new(),
            };
            let mut c = claim(
                &format!("Theorem 5.19, proof ({case})"),
                &format!("for all x >= {x0} no alpha <= gamma with {text} (0 <= k1 <= 2, 0 <= k3 <= 3)"),
                &format!("x = 0..{to}, every alpha <= gamma"),
                bad,
            );
            if c.note.is_none() && !note.is_empty() {
                c.note = Some(note.trim_start_matches("; ").to_string());
            }
            c
        })
        .collect()
}

/// The claims of §5 (the board of `F_4`).
fn f4_claims(s: &mut Solver, v: u64, winners: &[Player], to: u64, watch: &Watch<'_>) -> Vec<Claim> {
    let mut out = Vec::new();
    let (al, ga) = (|a: u64| a / 3, |c: u64| c / 4);
    let n_if = |cond: bool| cond.then_some(true);
    let p_if = |cond: bool| cond.then_some(false);
    macro_rules! fam {
        ($b:expr, $src:expr, $text:expr, $f:expr) => {
            out.push(f4_family(s, v, $b, $src, $text, $f, watch))
        };
    }
    fam!(0, "Theorem 5.1, App. A", "(a, 0, 0) is P for a != 2 (and N for a = 2)", |a, c| (c == 0)
        .then_some(a == 2));
    fam!(0, "Corollary 5.2", "(a, 0, 1) is P for all a", |_, c| p_if(c == 1));
    fam!(0, "Corollary 5.2", "(a, 0, 2) is N for all a != 1", |a, c| n_if(c == 2 && a != 1));
    fam!(0, "Corollary 5.2", "(a, 0, 3) is N for all a", |_, c| n_if(c == 3));
    fam!(1, "Corollary 5.2", "(a, 1, 1) and (a, 1, 2) are N for all a", |_, c| n_if(c == 1 || c == 2));
    fam!(0, "Theorem 5.3 (read F_4)", "(0, 0, c) is N for c != 0, 1, 5 (and P for c = 0, 1, 5)", |a, c| {
        (a == 0).then_some(![0, 1, 5].contains(&c))
    });
    fam!(0, "Corollary 5.4, App. B", "(1, 0, c) is P for c != 3 (and N for c = 3)", |a, c| (a == 1)
        .then_some(c == 3));
    fam!(1, "Corollary 5.4", "(0, 1, c) is P for c != 1, 2, 6", |a, c| p_if(
        a == 0 && ![1, 2, 6].contains(&c)
    ));
    fam!(0, "Corollary 5.4", "(2, 0, c) is N for c != 1", |a, c| n_if(a == 2 && c != 1));
    fam!(1, "Corollary 5.4", "(1, 1, c) and (2, 1, c) are N for all c", |a, c| {
        let _ = c;
        n_if(a == 1 || a == 2)
    });
    fam!(1, "Lemma 5.5, Lemma 5.16", "(3 alpha + k1, 1, c) is N for k1 = 1, 2", |a, _| n_if(a % 3 != 0));
    fam!(0, "Lemma 5.7, Lemma 5.14 (1)", "(3 alpha, 0, 4 gamma) is P for alpha >= gamma", |a, c| {
        p_if(a % 3 == 0 && c % 4 == 0 && al(a) >= ga(c))
    });
    fam!(1, "Corollary 5.8", "(3 alpha, 1, 4 gamma + 1) is N for alpha >= gamma", |a, c| {
        n_if(a % 3 == 0 && c % 4 == 1 && al(a) >= ga(c))
    });
    fam!(1, "Corollary 5.8, Lemma 5.16", "(3 alpha, 1, 4 gamma) is N for alpha >= gamma + 1", |a, c| {
        n_if(a % 3 == 0 && c % 4 == 0 && ge(al(a), ga(c), 1))
    });
    fam!(0, "Corollary 5.9 (1)", "(3 alpha + k1, 0, 4 gamma) is P for alpha >= gamma + 1", |a, c| {
        p_if(c % 4 == 0 && ge(al(a), ga(c), 1))
    });
    fam!(0, "Corollary 5.9 (2)", "(3 alpha + k1, 0, 4 gamma + 1) is P for alpha >= gamma", |a, c| {
        p_if(c % 4 == 1 && al(a) >= ga(c))
    });
    fam!(0, "Corollary 5.9 (3)", "(3 alpha + k1, 0, 4 gamma + 2) is N for alpha >= gamma + 1", |a, c| {
        n_if(c % 4 == 2 && ge(al(a), ga(c), 1))
    });
    fam!(0, "Corollary 5.9 (4)", "(3 alpha + k1, 0, 4 gamma + 3) is N for alpha >= gamma", |a, c| {
        n_if(c % 4 == 3 && al(a) >= ga(c))
    });
    fam!(1, "Corollary 5.10", "(3 alpha, 1, 4 gamma + 2) is N for alpha >= gamma", |a, c| {
        n_if(a % 3 == 0 && c % 4 == 2 && al(a) >= ga(c))
    });
    fam!(1, "Corollary 5.10", "(3 alpha, 1, 4 gamma + 3) is N for alpha >= gamma + 3", |a, c| {
        n_if(a % 3 == 0 && c % 4 == 3 && ge(al(a), ga(c), 3))
    });
    fam!(1, "Lemma 5.11", "(3 alpha, 1, 4 gamma + k3) is P for alpha <= gamma - 2", |a, c| {
        p_if(a % 3 == 0 && le(al(a), ga(c), -2))
    });
    fam!(1, "Corollary 5.12", "(3 alpha, 1, 4 alpha) is P", |a, c| p_if(
        a % 3 == 0 && c % 4 == 0 && al(a) == ga(c)
    ));
    for (k3, p_upto) in [(0u64, 0i64), (1, -1), (2, -2), (3, 2)] {
        fam!(
            1,
            &format!("Theorem 5.13 ({})", k3 + 1),
            &format!(
                "(3 alpha, 1, 4 gamma + {k3}) is P for alpha <= gamma {p_upto:+} and N for alpha >= gamma {:+}",
                p_upto + 1
            ),
            move |a, c| (a % 3 == 0 && c % 4 == k3).then_some(!le(al(a), ga(c), p_upto))
        );
    }
    fam!(
        1,
        "Remark after Cor. 5.12 (as printed)",
        "(3 alpha, 1, 4 gamma + k3) is P for alpha >= gamma + 3",
        |a, c| { p_if(a % 3 == 0 && ge(al(a), ga(c), 3)) }
    );
    fam!(
        1,
        "Remark after Cor. 5.12 (corrected)",
        "(3 alpha, 1, 4 gamma + k3) is N for alpha >= gamma + 3",
        |a, c| { n_if(a % 3 == 0 && ge(al(a), ga(c), 3)) }
    );
    fam!(
        0,
        "Lemma 5.14 (2), Thm 5.15 (4b)",
        "(3 alpha + 1, 0, 4 gamma) is P for all alpha, gamma",
        |a, c| { p_if(a % 3 == 1 && c % 4 == 0) }
    );
    // Theorems 5.15 (P) and 5.17 (N): (k1, k3, P-part, N-part).
    type Cond = fn(u64, u64) -> bool;
    let parts: [(&str, u64, u64, bool, Cond); 18] = [
        ("5.15 (1a)", 0, 1, false, |x, y| ge(x, y, -1)),
        ("5.15 (1b)", 1, 1, false, |_, _| true),
        ("5.15 (1c)", 2, 1, false, |x, y| x >= y),
        ("5.15 (2a)", 1, 2, false, |x, y| x <= y),
        ("5.15 (3a)", 1, 3, false, |x, y| le(x, y, -1)),
        ("5.15 (4a)", 0, 0, false, |x, y| x >= y),
        ("5.15 (4b)", 1, 0, false, |_, _| true),
        ("5.15 (4c)", 2, 0, false, |x, y| ge(x, y, 1)),
        ("5.17 (1a)", 0, 1, true, |x, y| le(x, y, -2)),
        ("5.17 (1b)", 2, 1, true, |x, y| le(x, y, -1)),
        ("5.17 (2a)", 0, 2, true, |_, _| true),
        ("5.17 (2b)", 1, 2, true, |x, y| ge(x, y, 1)),
        ("5.17 (2c)", 2, 2, true, |_, _| true),
        ("5.17 (3a)", 0, 3, true, |_, _| true),
        ("5.17 (3b)", 1, 3, true, |x, y| x >= y),
        ("5.17 (3c)", 2, 3, true, |_, _| true),
        ("5.17 (4a)", 0, 0, true, |x, y| le(x, y, -1)),
        ("5.17 (4b)", 2, 0, true, |x, y| x <= y),
    ];
    for (name, k1, k3, n, cond) in parts {
        let cname = match name {
            "5.15 (1a)" => "alpha >= gamma - 1",
            "5.15 (1c)" | "5.15 (4a)" | "5.17 (3b)" => "alpha >= gamma",
            "5.15 (2a)" | "5.17 (4b)" => "alpha <= gamma",
            "5.15 (3a)" | "5.17 (1b)" | "5.17 (4a)" => "alpha <= gamma - 1",
            "5.15 (4c)" | "5.17 (2b)" => "alpha >= gamma + 1",
            "5.17 (1a)" => "alpha <= gamma - 2",
            _ => "all alpha, gamma",
        };
        fam!(
            0,
            &format!("Theorem {name}"),
            &format!("(3 alpha + {k1}, 0, 4 gamma + {k3}) is {} for {cname}", if n { "N" } else { "P" }),
            move |a, c| (a % 3 == k1 && c % 4 == k3 && cond(al(a), ga(c))).then_some(n)
        );
    }
    // Figure 1 as the union of Theorems 5.15 and 5.17 (which cover every (a, 0, c)).
    let fig = move |a: u64, c: u64| -> bool {
        let (x, y) = (al(a), ga(c));
        match (c % 4, a % 3) {
            (0, 0) => x < y,
            (0, 1) | (1, 1) => false,
            (0, _) => !ge(x, y, 1),
            (1, 0) => !ge(x, y, -1),
            (1, _) => x < y,
            (2, 1) => x > y,
            (3, 1) => !le(x, y, -1),
            _ => true,
        }
    };
    fam!(
        0,
        "Figure 1 (as Thms 5.15, 5.17)",
        "the outcome of every (a, 0, c) by a mod 3, c mod 4 and alpha, gamma",
        move |a, c| { Some(fig(a, c)) }
    );
    // Figure 1 read literally: the first condition of each two-condition cell is P.
    let literal = move |a: u64, c: u64| -> Option<bool> {
        let (x, y) = (al(a), ga(c));
        Some(match (c % 4, a % 3) {
            (0, 0) => x < y,
            (0, 2) => !ge(x, y, 1),
            (1, 0) => !ge(x, y, -1),
            (1, 2) => x < y,
            (2, 1) => !ge(x, y, 1),
            (3, 1) => x < y,
            _ => return None,
        })
    };
    fam!(
        0,
        "Figure 1 (literal order)",
        "in each cell with two conditions the first one gives the P-positions",
        literal
    );
    // Appendix C: single positions, and the moves the trees show.
    let mut bad = None;
    let singles: [(&[u32], bool); 17] = [
        (&[1, 1, 4], true),
        (&[0, 0, 5], false),
        (&[4, 1, 3], true),
        (&[7, 1, 2], true),
        (&[10, 1, 1], true),
        (&[13, 1, 0], true),
        (&[5, 0, 0], false),
        (&[10, 0, 0], false),
        (&[7, 0, 1], false),
        (&[12, 0, 1], false),
        (&[2, 1, 2], true),
        (&[5, 1, 1], true),
        (&[8, 1, 0], true),
        (&[2, 0, 1], false),
        (&[1, 0, 2], false),
        (&[1, 0, 4], false),
        (&[1, 0, 8], false),
    ];
    for (p, n) in singles {
        if s.wins_watched(&pos(p), watch).unwrap_or(false) != n {
            bad = Some(format!("{p:?} is {}", if n { "P" } else { "N" }));
        }
    }
    let rules = Rules::black_hole(4);
    for (from, kind, to_) in
        [([2u32, 1, 2], 2usize, [2u32, 0, 1]), ([5, 1, 1], 2, [5, 0, 0]), ([8, 1, 0], 1, [7, 0, 1])]
    {
        if rules.apply(&pos(&from), kind) != Some(pos(&to_)) {
            bad = Some(format!("{from:?} --{}--> {to_:?} is not a move", rules.label(kind)));
        }
    }
    out.push(claim(
        "Appendices B and C",
        "the listed positions are P or N as stated ((1,1,4), (4,1,3), (7,1,2), (10,1,1), (13,1,0), (2,1,2), (5,1,1), (8,1,0) N; (0,0,5), (5,0,0), (10,0,0), (7,0,1), (12,0,1), (2,0,1), (1,0,2), (1,0,4), (1,0,8) P), with the moves A2, A2, A1 of the last trees",
        "17 positions, 3 moves",
        bad,
    ));
    // Theorem 5.18: forcing setups (a, 0, c) = (n - 3j, 0, j).
    let fto = to.min(400);
    let force = |p: Player, t: &[u64], n: u64| z::can_force(n, 3, p, &|j| t.contains(&j));
    type Row = (&'static str, u64, fn(u64) -> u64);
    let rows: [Row; 3] = [("(1)", 0, |n| n / 4), ("(2)", 1, |n| (n - 1) / 4), ("(3)", 2, |n| (n - 2) / 4)];
    for (part, r, j) in rows {
        let bad = (1..=fto).filter(|n| n % 4 == r).find(|&n| !(force(1, &[j(n)], n) || force(2, &[j(n)], n)));
        out.push(claim(
            &format!("Theorem 5.18 {part}"),
            &format!(
                "for n = {r} mod 4 one player can force the setup with c = {}",
                ["n/4", "(n-1)/4", "(n-2)/4"][r as usize]
            ),
            &format!("n = 1..{fto}"),
            bad.map(|n| format!("n = {n}")),
        ));
    }
    let bad = (3..=fto).filter(|n| n % 4 == 3).find(|&n| {
        let (x, y) = ((n - 3) / 4, (n - 3) / 4 + 1);
        !(force(1, &[x], n)
            && force(1, &[y], n)
            && force(2, &[x, y], n)
            && !force(2, &[x], n)
            && !force(2, &[y], n))
    });
    out.push(claim(
        "Theorem 5.18 (4)",
        "for n = 3 mod 4 Player 1 can force c = (n-3)/4 and can force c = (n-3)/4 + 1; Player 2 can force one of the two but not either one",
        &format!("n = 1..{fto}"),
        bad.map(|n| format!("n = {n}")),
    ));
    let rn = format!("n = 1..{to}");
    out.push(claim(
        "Theorem 5.19, §1.2.3",
        "empty board F_4: Player 2 wins iff n = 0, 2, 4, 6, 9, 11, 13 mod 16, except that Player 1 wins n = 2, 32 and Player 2 wins n = 17, 47",
        &rn,
        first(
            1..=to as usize,
            |n| {
                let nn = n as u64;
                let mut want = if [0, 2, 4, 6, 9, 11, 13].contains(&(nn % 16)) { 2 } else { 1 };
                if [2, 32, 17, 47].contains(&nn) {
                    want = 3 - want;
                }
                winners[n - 1] != want
            },
            "n",
        ),
    ));
    // The tables in the proof of Theorem 5.19: (n, setup, winner, the cited part's P/N).
    let table: [(u64, [u32; 3], Player, bool); 19] = [
        (4, [1, 0, 1], 2, false),
        (8, [2, 0, 2], 1, true),
        (12, [3, 0, 3], 1, true),
        (16, [4, 0, 4], 2, false),
        (20, [5, 0, 5], 2, false),
        (24, [6, 0, 6], 1, true),
        (28, [7, 0, 7], 1, true),
        (32, [8, 0, 8], 1, true),
        (1, [1, 0, 0], 1, false),
        (5, [2, 0, 1], 1, false),
        (9, [3, 0, 2], 2, true),
        (13, [4, 0, 3], 2, true),
        (17, [5, 0, 4], 2, true),
        (15, [3, 0, 4], 1, false),
        (31, [7, 0, 8], 1, false),
        (47, [11, 0, 12], 2, true),
        (47, [14, 0, 11], 2, true),
        (11, [2, 0, 3], 2, true),
        (27, [6, 0, 7], 2, true),
    ];
    let mut bad = None;
    for (n, p, w, is_n) in table.iter().chain(&[(43u64, [10u32, 0, 11], 2 as Player, true)]) {
        if s.wins_watched(&pos(p), watch).unwrap_or(false) != *is_n
            || (*n <= to && winners[*n as usize - 1] != *w)
        {
            bad = Some(format!("n = {n}, setup {p:?}"));
            break;
        }
    }
    out.push(claim(
        "Theorem 5.19, proof tables",
        "each listed setup is P or N as its cited part says, and the listed player wins n",
        "the 20 rows of the four tables",
        bad,
    ));
    out.extend(theorem_5_19_arithmetic(to));
    out
}

/// The claims about the original Zeckendorf game, from solved rows.
pub fn original(rows: &[OriginalRow]) -> Vec<Claim> {
    let to = rows.len();
    let mut out = vec![claim(
        "Abstract, §1.1 (Baird-Smith et al.)",
        "Player 2 wins the Zeckendorf game from n pieces in F_1 for every n != 2",
        &format!("n = 1..{to}"),
        rows.iter().find(|r| r.winner != if r.n == 2 { 1 } else { 2 }).map(|r| format!("n = {}", r.n)),
    )];
    // Playable, and ends at the Zeckendorf decomposition: the one position of value n without a
    // move is the decomposition (checked on the whole space up to a size).
    let lim = (to as u64).min(80);
    let mut bad = None;
    for n in 1..=lim {
        let rules = Rules::original(n);
        let sp = z::Space::new(rules.columns, n, n);
        let mut ends = Vec::new();
        sp.for_each_of_value(n, &mut |p| {
            if rules.is_terminal(p) {
                ends.push(p[..rules.columns].to_vec());
            }
        });
        let mut want = vec![0u32; rules.columns];
        for t in zeckendorf(n) {
            want[(1..=rules.columns).find(|&i| fib::weight(i) == t).expect("column") - 1] += 1;
        }
        if ends != [want] {
            bad = Some(format!("n = {n}: positions without a move {ends:?}"));
            break;
        }
    }
    out.push(claim(
        "§1.1 (Baird-Smith et al.)",
        "the only position of value n without a move is the Zeckendorf decomposition of n (so every play ends there)",
        &format!("every position of value n, n = 1..{lim}"),
        bad,
    ));
    out
}
