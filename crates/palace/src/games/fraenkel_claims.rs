//! The checkable statements of A. S. Fraenkel, *Arrays, Numeration Systems and Frankenstein
//! Games*, run against the array, the numeration system and the game solvers
//! (`docs/games-claims.md` lists them with their verdicts). Cited by section, theorem, lemma,
//! table and example number. Each check states the claim, the range it was run over and the
//! verdict: confirmed, or refuted with the counterexample (for the tables: every entry that
//! differs). The constructions and solvers know nothing of these statements.

use super::claims::{Claim, claim};
use super::fraenkel::{self as fr, BASIS, Sweep, TABLE_1, TABLE_2};
use super::frankenstein::{self as fk, SquaresSolution, SumSolution, TypeTwo};

fn at(e: Option<fr::Entry>) -> Option<String> {
    e.map(|e| format!("A_{}^{} = {}", e.j, e.n, e.value))
}

/// The largest `m` with `u_m - 1 <= to`: every `n < u_m` is covered by the counting argument.
fn covered_length(to: u64) -> usize {
    (1..fr::BASIS_LEN).rev().find(|&m| BASIS[m] - 1 <= to).unwrap_or(0)
}

/// The tables of the text against the computation: Table 1 entry by entry, Table 2 line by line.
pub fn tables() -> Vec<Claim> {
    let a = fr::array(11, 7).expect("small entries");
    let mut diff = Vec::new();
    for (n, row) in TABLE_1.iter().enumerate() {
        for (j, &printed) in row.iter().enumerate() {
            if a[n][j] != printed {
                diff.push(format!("A_{j}^{n}: printed {printed}, computed {}", a[n][j]));
            }
        }
    }
    let t1 = claim(
        "Table 1",
        "the entries A_j^n, n = 0..10, j = 0..6, are those of definition (1), (2)",
        "all 77 entries",
        (!diff.is_empty()).then(|| diff.join("; ")),
    );
    let diff: Vec<String> = TABLE_2
        .iter()
        .filter(|(n, s)| fr::representation_string(*n) != *s)
        .map(|(n, s)| format!("{n}: printed {s}, computed {}", fr::representation_string(*n)))
        .collect();
    let t2 = claim(
        "Table 2",
        "the representations of n = 1..60 over U are those printed",
        "all 60 lines",
        (!diff.is_empty()).then(|| diff.join("; ")),
    );
    let bad = [(41u64, "1211"), (42, "2000"), (55, "10000")]
        .iter()
        .find(|(n, s)| fr::representation_string(*n) != *s)
        .map(|(n, _)| format!("{n} = {}", fr::representation_string(*n)))
        .or_else(|| {
            // 1212 and 2112 add up to 42 and 55 but break the special condition.
            let v = |s: &str| fr::value(&s.bytes().rev().map(|b| b - b'0').collect::<Vec<_>>());
            let ok = v("1212") == Some(42)
                && v("2112") == Some(55)
                && !fr::is_admissible(&[2, 1, 2, 1])
                && !fr::is_admissible(&[2, 1, 1, 2]);
            (!ok).then(|| "1212 or 2112 is admissible or does not add up".into())
        });
    let t3 = claim(
        "§1, after Theorem I",
        "41 = 1211; 42 = 2000 rather than 1212, and 55 = 10000, not 2112, because of the special condition",
        "n = 41, 42, 55",
        bad,
    );
    vec![t1, t2, t3]
}

/// The claims about the array and `U`, from a [`Sweep`] to `s.to` (`beatty`: the first
/// failure of the Beatty split to the same bound).
pub fn array(s: &Sweep, beatty: Option<u64>) -> Vec<Claim> {
    let to = s.to;
    let r = format!("every entry <= {to} ({} rows, {} entries)", s.rows, s.entries);
    let mut out = tables();
    out.push(claim(
        "Theorem I (existence), §4",
        "the greedy algorithm gives every n a representation with digits 0, 1, 2 and a 0 between any two 2s",
        &format!("n = 1..{to}"),
        at(s.not_admissible),
    ));
    let m = covered_length(to);
    let bad_count = (1..fr::BASIS_LEN)
        .find(|&m| fr::count_admissible(m) != (u128::from(BASIS[m]), u128::from(BASIS[m]) - 1));
    out.push(claim(
        "Theorem I (uniqueness)",
        "the representation is unique: there are exactly u_m admissible strings of m digits, all of value < u_m, so with existence on 0..u_m - 1 each value has one",
        &format!("counted for m = 1..45; with existence, every n < u_{m} = {}", BASIS[m]),
        bad_count.map(|m| format!("m = {m}: (count, largest value) = {:?}", fr::count_admissible(m))),
    ));
    out.push(claim(
        "Theorem 1, §5 (c)",
        "A is a splitting of Z+: every positive integer appears exactly once",
        &format!("every integer 1..{to} ({} rows with A_0^n <= {to})", s.rows),
        s.duplicate
            .map(|e| format!("{} met twice (again at A_{}^{})", e.value, e.j, e.n))
            .or(s.missing.map(|v| format!("{v} never met"))),
    ));
    out.push(claim(
        "Theorem 1",
        "column A_j consists of the integers whose representation ends in exactly j zeros; A_0^n is reduced",
        &r,
        at(s.wrong_column),
    ));
    out.push(claim(
        "Lemma 1, §5 (b)",
        "A_j^n = 2 A_{j-1}^n + A_{j-2}^n + ... + A_0^n + n (j, n >= 1)",
        &r,
        at(s.lemma_1),
    ));
    out.push(claim(
        "Lemma 2",
        "A_0^n (the mex) is the smallest reduced number not in the earlier rows, and A_{j+1}^n = L(A_j^n)",
        &r,
        at(s.first_not_reduced).or(at(s.theorem_2_i_shift)),
    ));
    out.push(claim(
        "Lemma 3",
        "L(m) = floor(m phi^2) + 1 for every m >= 1",
        &format!("m = 1..{to}"),
        s.lemma_3.map(|m| format!("m = {m}")),
    ));
    out.push(claim(
        "Theorem 2 (i), §5 (d)",
        "A_j^n = floor(A_{j-1}^n phi^2) + 1 = L(A_{j-1}^n) (j, n >= 1)",
        &r,
        at(s.theorem_2_i_floor).or(at(s.theorem_2_i_shift)),
    ));
    out.push(claim(
        "Theorem 2 (ii)",
        "A_0^n = floor((n - 1) phi) + 1 for n >= 1",
        &format!("n = 1..{}", s.rows),
        at(s.theorem_2_ii),
    ));
    out.push(claim(
        "Theorem 2 (iii)",
        "A_j^{n+1} - A_j^n is f_2j or f_2j+1 (f = 1, 2, 3, 5, ...), f_2j exactly when A_0^{n+1} - A_0^n = f_0",
        &format!("{r}, every pair of rows"),
        at(s.theorem_2_iii),
    ));
    // Columns with at least 10 differences in range; the last few columns hold too few entries.
    let cols: Vec<usize> =
        (0..s.differences.len()).filter(|&j| s.differences[j].iter().sum::<u64>() >= 10).collect();
    let both: Vec<usize> =
        cols.iter().copied().filter(|&j| s.differences[j].iter().all(|&c| c > 0)).collect();
    let counts: Vec<String> = s
        .differences
        .iter()
        .enumerate()
        .take(6)
        .map(|(j, c)| format!("j = {j}: f_2j {} times, f_2j+1 {} times", c[0], c[1]))
        .collect();
    out.push(Claim {
        source: "Theorem 2 (iii)".into(),
        claim: "for fixed j each of f_2j, f_2j+1 is assumed (for infinitely many n: only the occurrences in range can be counted)"
            .into(),
        range: format!("{r}, the columns with at least 10 differences in range"),
        verdict: if !cols.is_empty() && both.len() == cols.len() { "confirmed" } else { "not reached" },
        note: Some(format!(
            "both seen in columns j = 0..{}; {}",
            both.last().copied().unwrap_or(0),
            counts.join(", ")
        )),
    });
    // Theorem 2 (iv): by Lemma 4's (6), floor(n alpha + gamma) has differences floor(alpha) and
    // ceil(alpha) only; two differences f_2j, f_2j+1 that are 2 or more apart are a witness.
    let witnessed: Vec<usize> =
        both.iter().copied().filter(|&j| j >= 1 && fr::fib_f(2 * j + 1) - fr::fib_f(2 * j) >= 2).collect();
    out.push(Claim {
        source: "Theorem 2 (iv)".into(),
        claim: "for j >= 1 no real alpha, gamma give A_j^n = floor(n alpha + gamma) for all n".into(),
        range: r.clone(),
        verdict: if witnessed.is_empty() { "not reached" } else { "confirmed" },
        note: Some(format!(
            "witnessed for j = 1..{}: both differences f_2j, f_2j+1 occur and differ by f_2j-1 >= 2, which (6) of Lemma 4 forbids",
            witnessed.last().copied().unwrap_or(0)
        )),
    });
    out.push(claim(
        "Proof of Theorem 2 ([Fra1969])",
        "S = {floor(n phi) + 1} and T = {floor(n phi^2) + 1} (n >= 1) split Z+ \\ {1}",
        &format!("every integer 2..{to}"),
        beatty.map(|v| format!("{v}")),
    ));
    out.extend(basis_claims());
    out.extend(section_4(to.min(1_000_000)));
    out
}

/// The claims about the basis and the recurrences (§1, (5), §5).
pub(crate) fn basis_claims() -> Vec<Claim> {
    let mut out = Vec::new();
    out.push(claim(
        "§1, before Theorem 2",
        "u_i = f_2i: the basis elements are the even-indexed Fibonacci numbers",
        "i = 0..44",
        (0..45).find(|&i| BASIS[i] != fr::fib_f(2 * i)).map(|i| format!("i = {i}")),
    ));
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    out.push(claim(
        "(5), proof of Lemma 3",
        "u_n = (phi^(2n+2) - phi^(-(2n+2))) / sqrt 5",
        "n = 0..40, relative error below 1e-12",
        (0..=40)
            .find(|&n| {
                let e = 2.0 * n as f64 + 2.0;
                let v = (phi.powf(e) - phi.powf(-e)) / 5f64.sqrt();
                ((v - BASIS[n] as f64) / BASIS[n] as f64).abs() > 1e-12
            })
            .map(|n| format!("n = {n}")),
    ));
    out.push(claim(
        "§5 (I)",
        "u_n^2 - u_{n-1} u_{n+1} = 1 for all n",
        "n = 1..44",
        (1..45)
            .find(|&n| {
                let (a, b, c) = (i128::from(BASIS[n]), i128::from(BASIS[n - 1]), i128::from(BASIS[n + 1]));
                a * a - b * c != 1
            })
            .map(|n| format!("n = {n}")),
    ));
    out.push(claim(
        "§5 (I)",
        "the convergents u_{n+1} / u_n of 3 - 1/(3 - 1/(3 - ...)) converge to phi^2",
        "n = 0..44: decreasing (u_n^2 > u_{n-1} u_{n+1}, exactly), within 1e-14 of phi^2 from n = 20",
        (0..44)
            .find(|&n| {
                let q = BASIS[n + 1] as f64 / BASIS[n] as f64;
                let decreasing = n == 0
                    || u128::from(BASIS[n]) * u128::from(BASIS[n])
                        > u128::from(BASIS[n - 1]) * u128::from(BASIS[n + 1]);
                !decreasing || (n >= 20 && (q - phi * phi).abs() > 1e-14)
            })
            .map(|n| format!("n = {n}")),
    ));
    // sqrt 2 = [1; 2, 2, ...]: numerators p_k = 2 p_{k-1} + p_{k-2}, p_{-1} = 1, p_0 = 1.
    let mut p = vec![1i128, 3];
    while p.len() < 40 {
        let k = p.len();
        p.push(2 * p[k - 1] + p[k - 2]);
    }
    let even: Vec<i128> = p.iter().step_by(2).copied().collect();
    out.push(claim(
        "§5 (II)",
        "the numerators of the even-indexed convergents of sqrt 2 = [1; 2, 2, ...] are 1, 7, 41, 239, ... and satisfy f_{n+1} = 6 f_n - f_{n-1}",
        "the first 20 even-indexed convergents",
        if even[..4] != [1, 7, 41, 239] {
            Some(format!("{:?}", &even[..4]))
        } else {
            (1..even.len() - 1)
                .find(|&i| even[i + 1] != 6 * even[i] - even[i - 1])
                .map(|i| format!("index {}", 2 * i))
        },
    ));
    out
}

/// The claims of §4 about where a square `x_0` lies in the array, over the entries `<= to`.
pub(crate) fn section_4(to: u64) -> Vec<Claim> {
    let rows = fr::array(to as usize + 2, 1).expect("first entries fit");
    let (mut bad_n, mut bad_n1, mut bad_j) = (None, None, None);
    let mut count_bad = 0u64;
    let mut entries = Vec::new();
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    for (n, r) in rows.iter().enumerate().skip(1) {
        if r[0] > to {
            break;
        }
        let n = n as u64;
        fr::entries_up_to(n, r[0], to, &mut entries);
        for (j, &x0) in entries.iter().enumerate() {
            // n <= x0 (phi - 1) <=> n + x0 <= x0 phi <=> n + x0 <= floor(x0 phi) (irrational).
            if n + x0 > fr::floor_phi(x0) {
                count_bad += 1;
                bad_n.get_or_insert((x0, n, j));
            }
            if n + x0 > fr::floor_phi(x0) + 1 {
                bad_n1.get_or_insert((x0, n, j));
            }
            let bound = 0.5 * ((5f64.sqrt() * (x0 as f64 + 1.0)).ln() / phi.ln()) - 1.0;
            if (j as f64) >= bound {
                bad_j.get_or_insert((x0, n, j));
            }
        }
    }
    let show = |b: Option<(u64, u64, usize)>| b.map(|(x, n, j)| format!("x_0 = {x} = A_{j}^{n}"));
    vec![
        Claim {
            source: "§4".into(),
            claim: "to place x_0 in the array, A_j^n is needed only for n <= x_0 (phi - 1) (by Theorem 2 (ii))".into(),
            range: format!("every x_0 <= {to}"),
            verdict: if bad_n.is_some() { "refuted" } else { "confirmed" },
            note: bad_n.map(|(x, n, j)| {
                format!(
                    "x_0 = {x} = A_{j}^{n} has n > x_0 (phi - 1); {count_bad} of the {to} integers, every x_0 of column 0 among them (A_0^n = floor((n-1) phi) + 1 gives x_0 (phi - 1) < n); n <= x_0 (phi - 1) + 1 holds{}",
                    match bad_n1 {
                        None => " for all".to_string(),
                        Some(b) => format!(" except {}", show(Some(b)).unwrap_or_default()),
                    }
                )
            }),
        },
        claim(
            "§4, with (5)",
            "x_0 = A_j^n implies j < (1/2) log_phi(sqrt 5 (x_0 + 1)) - 1",
            &format!("every x_0 <= {to}"),
            show(bad_j),
        ),
    ]
}

fn render(x: &[u32]) -> String {
    if x.is_empty() {
        "Phi".into()
    } else {
        format!("({})", x.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
    }
}

/// Squares of the strip over which [`play_ends`] replays every move.
pub const PLAY_ENDS_SQUARES: u32 = 9;

/// §1, after the rules: "the only end position is Phi" and "the sum of the occupied square
/// numbers decreases at each move", for one reading: every position on squares `1..=squares`
/// (at least two coins) has a follower, and every follower (from the reference generator that
/// replays the rules coin by coin) has a smaller sum of occupied squares and is no spinster.
pub fn play_ends(two: TypeTwo, squares: u32) -> Vec<Claim> {
    let rd = two.name();
    let (mut stuck, mut not_lower, mut positions) = (None, None, 0u64);
    for mask in 0u64..1 << squares {
        let x = fk::squares_of(mask << 1);
        if x.len() < 2 {
            continue;
        }
        positions += 1;
        let f = fk::followers_literal(&x, two);
        if f.is_empty() && stuck.is_none() {
            stuck = Some(format!("{x:?} has no move"));
        }
        let sum: u32 = x.iter().sum();
        if not_lower.is_none()
            && let Some(y) = f.iter().find(|y| y.iter().sum::<u32>() >= sum || y.len() == 1)
        {
            not_lower = Some(format!("{x:?} -> {y:?}"));
        }
    }
    let range = format!("every position on squares 1..{squares} ({positions} positions), every move");
    vec![
        claim(
            &format!("§1, the rules [{rd}]"),
            "the only end position is Phi: every other position has a move",
            &range,
            stuck,
        ),
        claim(
            &format!("§1, the rules [{rd}]"),
            "the sum of the occupied square numbers decreases at each move (and no move leaves a spinster)",
            &range,
            not_lower,
        ),
    ]
}

/// Rows over which [`inequality_8`] is checked.
pub const INEQUALITY_8_ROWS: usize = 10_000;
/// Columns over which [`inequality_8`] is checked (their entries fit 64 bits in those rows).
pub const INEQUALITY_8_COLUMNS: usize = 16;

/// The inequality (8) in the proof of Theorem 3 (A): `A_{k-1}^n = 2 A_{k-2}^n +
/// sum_{i <= k-3} A_i^n + n > 2 A_{k-2}^n + sum_{i <= k-3} A_i^n` for every row `n >= 1` and
/// `k >= 2`, over the rows `1..rows` and the columns whose entries fit 64 bits.
pub fn inequality_8(rows: usize) -> Claim {
    let a = fr::array(rows, INEQUALITY_8_COLUMNS).unwrap_or_default();
    let mut bad = None;
    let mut checked = 0u64;
    'rows: for (n, row) in a.iter().enumerate().skip(1) {
        let mut below = 0u128; // sum_{i <= k-3} A_i^n
        for k in 2..=row.len() {
            let (top, second) = (u128::from(row[k - 1]), u128::from(row[k - 2]));
            let rhs = 2 * second + below;
            checked += 1;
            if top != rhs + n as u128 || top <= rhs {
                bad = Some(format!("n = {n}, k = {k}: A_(k-1) = {top}, 2 A_(k-2) + sum = {rhs}"));
                break 'rows;
            }
            below += second;
        }
    }
    if checked == 0 {
        bad = Some("no entries in range".into());
    }
    claim(
        "Proof of Theorem 3 (A), (8)",
        "A_{k-1}^n = 2 A_{k-2}^n + A_0^n + ... + A_{k-3}^n + n > 2 A_{k-2}^n + A_0^n + ... + A_{k-3}^n (Lemma 1), so a type II move to Phi breaks (4)",
        &format!("rows n = 1..{}, k = 2..{INEQUALITY_8_COLUMNS} ({checked} pairs)", rows.saturating_sub(1)),
        bad,
    )
}

/// The examples of §1 and the example in the proof of Theorem 3 (A), for one reading;
/// `squares` and `sums` are the solutions the P-statements are read from.
pub fn examples(two: TypeTwo, squares: &SquaresSolution, sums: &SumSolution) -> Vec<Claim> {
    let mv = |x: &[u32], y: &[u32]| fk::is_move(x, y, two);
    let is_p_sq = |x: &[u32]| squares.p_masks.binary_search(&fk::mask_of(x)).is_ok();
    let is_p_sum = |x: &[u32]| sums.p_positions.iter().any(|p| p == x);
    let rd = two.name();
    let mut out = Vec::new();
    let f13 = fk::followers_literal(&[1, 3], two);
    let want: std::collections::BTreeSet<Vec<u32>> = [vec![1, 2]].into_iter().collect();
    out.push(claim(
        &format!("Example (i) [{rd}]"),
        "from (1, 3) the only move is to (1, 2) ((1, 3) -> Phi breaks (4)); from (1, 2) the next player moves to Phi",
        "(1, 3), (1, 2)",
        (f13 != want || !mv(&[1, 2], &[]) || mv(&[1, 3], &[]))
            .then(|| format!("followers of (1, 3): {:?}", f13)),
    ));
    out.push(claim(
        &format!("Example (ii) [{rd}]"),
        "(1, 3, 7) -> Phi is a move (4) holds with equality: 7 = 2 * 3 + 1",
        "(1, 3, 7)",
        (!mv(&[1, 3, 7], &[]) || mv(&[1, 3, 8], &[])).then(|| "no".into()),
    ));
    let f138 = fk::followers_literal(&[1, 3, 8], two);
    let only_8 = f138.iter().filter(|y| y.contains(&1) && y.contains(&3)).find(|y| !mv(y, &[]));
    let any = f138.iter().find(|y| !mv(y, &[]) && !mv(y, &[1, 3]));
    out.push(claim(
        &format!("Example (iii) [{rd}]"),
        "(1, 3, 8) -> (1, 3) is no move; after a move of the coin at 8 alone the next player moves to Phi; player II wins from (1, 3, 8)",
        &format!("the {} followers of (1, 3, 8)", f138.len()),
        if f138.contains(&vec![1, 3]) {
            Some("(1, 3, 8) -> (1, 3) is a move".into())
        } else if let Some(y) = only_8 {
            Some(format!("{} has no move to Phi", render(y)))
        } else if !is_p_sq(&[1, 3, 8]) {
            Some("(1, 3, 8) is N".into())
        } else {
            None
        },
    ));
    out.push(claim(
        &format!("Example (iii) [{rd}]"),
        "player II wins from (1, 3, 8) either by moving directly to Phi or by moving first to (1, 3)",
        &format!("the {} followers of (1, 3, 8)", f138.len()),
        any.map(|y| {
            let list: Vec<String> =
                f138.iter().filter(|y| !mv(y, &[]) && !mv(y, &[1, 3])).map(|y| render(y)).collect();
            format!(
                "from {} (first: {}) neither is a move; player II wins there by another move{}",
                list.join(", "),
                render(y),
                if mv(y, &[2, 6]) { " (to (2, 6))" } else { "" }
            )
        }),
    ));
    out.push(claim(
        &format!("Example (iv) [{rd}]"),
        "(6, 8, 100) -> (1, 3, 8) is a move (100 -> 1, 6 -> 3) and wins: (1, 3, 8) is P",
        "the move; (1, 3, 8) solved",
        (!mv(&[6, 8, 100], &[1, 3, 8]) || !is_p_sq(&[1, 3, 8])).then(|| "no".into()),
    ));
    out.push(claim(
        &format!("Example (v) [{rd}]"),
        "(8, 19) -> (1, 3, 8) is a move of type (b) (19 -> (1, 3)) and wins",
        "the move; (1, 3, 8) solved",
        (!mv(&[8, 19], &[1, 3, 8]) || !is_p_sq(&[1, 3, 8])).then(|| "no".into()),
    ));
    let reached = sums.max_sum >= 88;
    let target_p = is_p_sum(&[1, 3, 8, 21, 55]);
    let printed_p = is_p_sum(&[1, 3, 8, 55]);
    out.push(Claim {
        source: format!("Example (vi) [{rd}]"),
        claim: "(55, 56, 200) -> (1, 3, 8, 21, 55) is a winning move, by (a) 200 -> 8 and (b) 56 -> (1, 3)".into(),
        range: format!("the move; positions of square sum <= {} solved", sums.max_sum),
        verdict: if !mv(&[55, 56, 200], &[1, 3, 8, 21, 55]) || (reached && !target_p) {
            "refuted"
        } else if reached {
            "confirmed"
        } else {
            "not reached"
        },
        note: Some(format!(
            "the move exists and (1, 3, 8, 21, 55) is {}; but the parts printed (200 -> 8, 56 -> (1, 3)) give (1, 3, 8, 55) (a move: {}; {}): the (b) part must also place 21 (56 -> (1, 3, 21), 1 + 3 + 21 = 25 < 56)",
            if reached { if target_p { "P" } else { "N" } } else { "unsolved (sum 88)" },
            mv(&[55, 56, 200], &[1, 3, 8, 55]),
            if sums.max_sum >= 67 {
                if printed_p { "P" } else { "N" }
            } else {
                "unsolved"
            }
        )),
    });
    out.push(claim(
        &format!("Example (vii) [{rd}]"),
        "player II wins from (2, 6)",
        "(2, 6) solved",
        (!is_p_sq(&[2, 6])).then(|| "(2, 6) is N".into()),
    ));
    out.push(claim(
        &format!("Proof of Theorem 3 (A) [{rd}]"),
        "(2, 6, 16) -> (4, 11) is no move (it would take A_0^n to 0 without emptying the strip)",
        "the pair",
        mv(&[2, 6, 16], &[4, 11]).then(|| "it is a move".into()),
    ));
    out
}

/// Theorem 3 for one reading: the solvers' P-positions against the claimed set, (A) over the
/// claimed positions with squares up to `bound`, (B) on the strip and by square sum.
pub fn theorem_3(
    two: TypeTwo,
    squares: &SquaresSolution,
    sums: &SumSolution,
    within: &[(Vec<u32>, Vec<u32>)],
    bound: u32,
) -> Vec<Claim> {
    let rd = two.name();
    let n = squares.squares;
    let claimed_sq: Vec<u64> = fk::claimed(n)
        .iter()
        .map(|x| fk::mask_of(x))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let diff = |p: &[u64]| -> Option<String> {
        let extra: Vec<String> = p
            .iter()
            .filter(|m| !claimed_sq.contains(m))
            .take(5)
            .map(|&m| render(&fk::squares_of(m)))
            .collect();
        let lost: Vec<String> = claimed_sq
            .iter()
            .filter(|m| !p.contains(m))
            .take(5)
            .map(|&m| render(&fk::squares_of(m)))
            .collect();
        (!extra.is_empty() || !lost.is_empty())
            .then(|| format!("P but not claimed: {extra:?}; claimed but N: {lost:?}"))
    };
    let claimed_sum: Vec<Vec<u32>> =
        fk::claimed(sums.max_sum).into_iter().filter(|x| x.iter().sum::<u32>() <= sums.max_sum).collect();
    let sum_diff = {
        let extra: Vec<String> =
            sums.p_positions.iter().filter(|x| !claimed_sum.contains(x)).take(5).map(|x| render(x)).collect();
        let lost: Vec<String> =
            claimed_sum.iter().filter(|x| !sums.p_positions.contains(x)).take(5).map(|x| render(x)).collect();
        (!extra.is_empty() || !lost.is_empty())
            .then(|| format!("P but not claimed: {extra:?}; claimed but N: {lost:?}"))
    };
    vec![
        claim(
            &format!("Theorem 3 [{rd}]"),
            "the P-positions are Phi and the row prefixes (A_0^n, ..., A_{k-1}^n), k >= 2",
            &format!(
                "every position on squares 1..{n} ({} positions, {} P)",
                squares.positions,
                squares.p_masks.len()
            ),
            diff(&squares.p_masks),
        ),
        claim(
            &format!("Theorem 3 [{rd}]"),
            "the same, by square sum",
            &format!(
                "every position of square sum <= {} ({} positions, {} P)",
                sums.max_sum,
                sums.positions,
                sums.p_positions.len()
            ),
            sum_diff,
        ),
        claim(
            &format!("Theorem 3 (A) [{rd}]"),
            "no move leads from a claimed position to a claimed position",
            &format!("every pair of claimed positions with squares <= {bound}"),
            (!within.is_empty()).then(|| {
                let list: Vec<String> =
                    within.iter().take(5).map(|(x, y)| format!("{} -> {}", render(x), render(y))).collect();
                format!("{} moves, first {}", within.len(), list.join(", "))
            }),
        ),
        claim(
            &format!("Theorem 3 (B) [{rd}]"),
            "from every other position some move leads to a claimed position",
            &format!(
                "every position on squares 1..{n}, and every position of square sum <= {}",
                sums.max_sum
            ),
            (!squares.without_move_into_claimed.is_empty() || !sums.without_move_into_claimed.is_empty())
                .then(|| {
                    let mut l: Vec<String> = squares
                        .without_move_into_claimed
                        .iter()
                        .take(5)
                        .map(|&m| render(&fk::squares_of(m)))
                        .collect();
                    l.extend(sums.without_move_into_claimed.iter().take(5).map(|x| render(x)));
                    format!(
                        "{} positions on the strip and {} by sum have none, first {}",
                        squares.without_move_into_claimed.len(),
                        sums.without_move_into_claimed.len(),
                        l.join(", ")
                    )
                }),
        ),
    ]
}
