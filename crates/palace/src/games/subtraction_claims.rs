//! The checkable statements of Larsson and Fox, *An Aperiodic Subtraction Game of
//! Nim-Dimension Two* (§1, §2, Lemma 1, Theorem 2 and the steps of their proofs), run against
//! the solver's output ([`crate::games::subtraction`]) and against the Zeckendorf
//! representations they are phrased in (`docs/games-claims.md`).
//!
//! The paper indexes `F_1 = F_2 = 1` ([`FIB`]); a Zeckendorf representation uses distinct,
//! non-consecutive indices `>= 2`, and `z_1(x) < z_2(x) < ...` are its indices. Representations
//! are bit masks here: bit `i` set when `F_i` is a term. `A(n) = floor(n phi)`,
//! `B(n) = floor(n phi^2)`, `AB(n) = 2 A(n) + n`; `B_0 = {B(n) : n >= 0}`, `B_0 + 1`,
//! `AB + 1 = {AB(n) + 1 : n >= 1}` (the paper's `B_0 (+) 1`, `AB (+) 1`).
//!
//! Lemma 1 and Theorem 2 run over the whole range `0..=to` (`wythoff_classes`); the
//! statements about representations over `0..=min(to, ZECKENDORF_RANGE)`.

use super::claims::{Claim, claim};
use super::subtraction::{BeattyA, Classes, FIB, Grundy, Period, wythoff_classes_watched};
use super::watch::Watch;
use crate::model::wythoff;

/// The largest number the statements about Zeckendorf representations are checked to.
pub const ZECKENDORF_RANGE: u64 = 10_000_000;

/// The largest number whose least-odd representations are counted (they must be unique).
pub const LEAST_ODD_COUNT_RANGE: u64 = 100_000;

/// The Zeckendorf representation of `x` as a bit mask of indices `>= 2` (greedy: the largest
/// Fibonacci number that fits, then the rest).
pub(crate) fn zeckendorf_bits(mut x: u64) -> u128 {
    let mut bits = 0u128;
    let mut i = FIB.partition_point(|&f| f <= x);
    while x > 0 {
        i -= 1;
        if i >= 2 && FIB[i] <= x {
            x -= FIB[i];
            bits |= 1 << i;
        }
    }
    bits
}

/// The number a bit mask of indices stands for.
pub fn value(bits: u128) -> u64 {
    (0..94).filter(|&i| bits >> i & 1 == 1).map(|i| FIB[i]).sum()
}

/// `z_1`: the smallest index.
fn z1(bits: u128) -> u32 {
    bits.trailing_zeros()
}

/// `z_2`: the second smallest index (128 when there is none).
fn z2(bits: u128) -> u32 {
    (bits & bits.wrapping_sub(1)).trailing_zeros()
}

/// The least-odd representation (Silber's second canonical one) from the Zeckendorf one: an
/// even smallest index `2k` is replaced by `2k - 1, 2k - 3, ..., 1`
/// (`F_{2k} = F_{2k-1} + F_{2k-3} + ... + F_1`).
pub(crate) fn least_odd_bits(z: u128) -> u128 {
    let k = z1(z);
    if z == 0 || k % 2 == 1 {
        return z;
    }
    let mut out = z & !(1u128 << k);
    let mut i = k - 1;
    loop {
        out |= 1 << i;
        if i == 1 {
            break;
        }
        i -= 2;
    }
    out
}

/// How many ways each `n <= to` is a sum of `F_i` with distinct, non-consecutive indices
/// `i >= 1` whose smallest index is odd (the least-odd representations).
fn least_odd_counts(to: u64) -> Vec<u64> {
    let n = to as usize;
    // none: nothing used yet (only the value 0); last: index i - 1 used; gap: some index used,
    // index i - 1 not.
    let mut last = vec![0u64; n + 1];
    let mut gap = vec![0u64; n + 1];
    for (i, &f) in FIB.iter().enumerate().skip(1) {
        let f = f as usize;
        if f > n {
            break;
        }
        let mut nl = vec![0u64; n + 1];
        let mut ng = vec![0u64; n + 1];
        for v in 0..=n {
            ng[v] = gap[v] + last[v];
            if v >= f {
                nl[v] = gap[v - f];
            }
        }
        if i % 2 == 1 {
            nl[f] += 1;
        }
        last = nl;
        gap = ng;
    }
    (0..=n).map(|v| last[v] + gap[v]).collect()
}

/// The class of every `p <= to` by the paper's sets, listed one by one: 0 for `B_0`, 1 for
/// `B_0 + 1`, 2 for `AB + 1`, 9 for none (a later set overwrites).
fn classes_listed(to: u64) -> Vec<u8> {
    let mut cls = vec![9u8; to as usize + 1];
    let mut it = BeattyA::at(0);
    while it.b() <= to {
        cls[it.b() as usize] = 0;
        if it.b() < to {
            cls[it.b() as usize + 1] = 1;
        }
        if it.n >= 1 && 2 * it.a + it.n < to {
            cls[(2 * it.a + it.n + 1) as usize] = 2;
        }
        it.step();
    }
    // AB(n) + 1 grows faster than B(n): the loop above already reached every one <= to.
    cls
}

/// The first `x` in `0..=to` where `bad` holds.
fn first(to: u64, mut bad: impl FnMut(u64) -> bool, what: &str) -> Option<String> {
    (0..=to).find(|&x| bad(x)).map(|x| format!("{what} = {x}"))
}

/// The proof of Theorem 2, last part: for `p` in `AB + 1` it names `i` with
/// `alpha = p - (F_{2i+1} - 1)` in `B_0`, by cases on `a = p - 1`. Returns `(i, z_1(alpha) the
/// text predicts)`, or `None` in a case the text does not treat.
fn proof_choice(p: u64) -> Option<(usize, Option<u32>)> {
    let a = p - 1;
    let za = zeckendorf_bits(a);
    // "we may define z_1(a) = F_{2k+2}, with k >= 1" (the index 2k + 2).
    let k = (z1(za) as usize - 2) / 2;
    if k > 1 {
        return Some((k, Some(if k == 2 { 5 } else { 3 })));
    }
    let c = a + FIB[3];
    if let Some(l) = (1..47).find(|&l| FIB[2 * l + 1] == c) {
        return Some((l, None));
    }
    // a = y + F_4; m = z_1(y).
    let m = z1(zeckendorf_bits(a - FIB[4])) as usize;
    if m % 2 == 1 {
        Some(((m - 1) / 2, Some(5)))
    } else if m >= 8 {
        Some(((m - 2) / 2, Some(if m == 8 { 7 } else { 5 })))
    } else {
        None
    }
}

/// Every checkable statement of the paper, from the values `g` of its game over `0..=to` and
/// the period search's answer (`period`, searched up to `bound` in the last half).
pub fn paper(g: &Grundy, members: &[u64], period: Option<Period>, bound: u64) -> Vec<Claim> {
    paper_watched(g, members, period, bound, &Watch::NONE).expect("an unwatched run is never cancelled")
}

/// [`paper`], stopping with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) when
/// `watch` is cancelled.
pub fn paper_watched(
    g: &Grundy,
    members: &[u64],
    period: Option<Period>,
    bound: u64,
    watch: &Watch<'_>,
) -> crate::error::Result<Vec<Claim>> {
    let c: Classes = wythoff_classes_watched(g, watch)?;
    watch.check()?;
    Ok(paper_with(g, &c, members, period, bound))
}

/// [`paper`] from the values' classes.
fn paper_with(g: &Grundy, c: &Classes, members: &[u64], period: Option<Period>, bound: u64) -> Vec<Claim> {
    let to = g.to;
    let all = format!("n = 0..{to}");
    let counts = g.counts();
    let mut out = Vec::new();

    // §2: the set.
    let want_head = [1u64, 4, 12];
    out.push(claim(
        "§2, abstract",
        "S = {F_{2n+1} - 1 : n >= 1} = {1, 4, 12, ...}",
        &format!("the {} members <= {to}", members.len()),
        (members.len() >= 3 && members[..3] != want_head)
            .then(|| format!("the set begins {:?}", &members[..3])),
    ));
    if let Some(last) = out.last_mut() {
        last.note = last.note.clone().or_else(|| Some(format!("members: {members:?}")));
    }

    // §2, main result: ternary and aperiodic; footnote 2: nim-dimension two.
    out.push(claim(
        "§2, abstract (ternary)",
        "the Sprague-Grundy values take exactly the values 0, 1, 2",
        &all,
        (counts.len() != 3 || counts.contains(&0)).then(|| format!("value counts {counts:?}")),
    ));
    let mut group = vec![0u8];
    for v in 0..counts.len() as u8 {
        if counts[v as usize] > 0 {
            for x in group.clone() {
                if !group.contains(&(x ^ v)) {
                    group.push(x ^ v);
                }
            }
        }
    }
    out.push(claim(
        "§1, footnote 2",
        "the nim-values generate a group of order four (nim-dimension two)",
        &all,
        (group.len() != 4).then(|| format!("the group generated has order {}", group.len())),
    ));
    let h = to / 2;
    out.push(Claim {
        source: "§2, abstract (aperiodic)".into(),
        claim: "the sequence of Sprague-Grundy values is aperiodic".into(),
        range: format!("no period p <= {bound} over n = {h}..{to} (the last half)"),
        verdict: if period.is_some() { "refuted" } else { "confirmed" },
        note: period.map(|p| format!("period {} from n = {}", p.period, p.from)).or_else(|| {
            Some(format!(
                "no period up to {bound}, a period having to fit {} times in the last half (the Fibonacci numbers are near-periods); aperiodicity itself is not decidable on a finite range",
                super::subtraction::MIN_REPEATS
            ))
        }),
    });

    // Lemma 1 and Theorem 2, the whole range.
    out.push(claim(
        "Lemma 1",
        "B_0, B_0 + 1 and AB + 1 partition the nonnegative integers",
        &all,
        c.first_lemma1_counterexample.map(|p| {
            format!("n = {p} ({} uncovered, {} in two sets)", c.lemma1_uncovered, c.lemma1_overlaps)
        }),
    ));
    if let Some(last) = out.last_mut().filter(|l| l.note.is_none()) {
        last.note = Some(format!("sizes {} + {} + {} = {}", c.sizes[0], c.sizes[1], c.sizes[2], to + 1));
    }
    out.push(claim(
        "Theorem 2",
        "g(p) = 0 on B_0, g(p) = 1 on B_0 + 1, g(p) = 2 on AB + 1",
        &all,
        c.first_theorem2_mismatch
            .map(|p| format!("p = {p}, g = {} ({} mismatches)", g.get(p), c.theorem2_mismatches)),
    ));
    if let Some(last) = out.last_mut().filter(|l| l.note.is_none()) {
        last.note = Some(format!("0 mismatches; value counts {counts:?}"));
    }
    out.push(claim(
        "§1, Lemma 1's proof (Wythoff)",
        "A and B_0 partition the nonnegative integers",
        &all,
        (c.wythoff_a_b0 > 0).then(|| format!("{} integers in both or neither", c.wythoff_a_b0)),
    ));
    out.push(claim(
        "Lemma 1's proof (as printed)",
        "the sets B + 1 (n >= 1) and AB + 1 partition the set A",
        &all,
        c.first_a_split_as_printed.map(|p| {
            format!("{p} is in A but in neither ({} such integers): B_0 + 1 is meant, as the proof's last sentence shows", c.a_split_as_printed)
        }),
    ));
    out.push(claim(
        "Lemma 1's proof (corrected)",
        "the sets B_0 + 1 and AB + 1 partition the set A",
        &all,
        (c.a_split > 0).then(|| format!("{} integers", c.a_split)),
    ));

    // §1: A(B(n)) = A(n) + B(n).
    let nmax = (to / 3).clamp(1, 1_000_000);
    out.push(claim(
        "§1",
        "AB(n) = A(B(n)) = A(n) + B(n) = 2 floor(n phi) + n (A(n) = floor(n phi), B(n) = floor(n phi^2))",
        &format!("n = 1..{nmax}"),
        first(
            nmax,
            |n| {
                let (a, b) = wythoff::pair(n);
                n >= 1 && (wythoff::pair(b).0 != a + b || a + b != 2 * a + n)
            },
            "n",
        ),
    ));

    // Statements about representations, over 0..=zr.
    let zr = to.min(ZECKENDORF_RANGE);
    let zrange = format!("x = 0..{zr}");
    let cls = classes_listed(zr);
    let in_a = |x: u64| x >= 1 && cls[x as usize] != 0; // A = positive integers outside B_0
    let zs: Vec<u128> = (0..=zr).map(zeckendorf_bits).collect();
    let zb = |x: u64| zs[x as usize];
    out.push(claim(
        "§1 (Silber)",
        "x is in A iff the smallest index z_1(x) of its Zeckendorf representation is even",
        &zrange,
        first(zr, |x| x >= 1 && in_a(x) != z1(zb(x)).is_multiple_of(2), "x"),
    ));
    out.push(claim(
        "§1, (1) in Theorem 2's proof",
        "B contains exactly the numbers with z_1 >= 3 odd",
        &zrange,
        first(zr, |x| x >= 1 && (cls[x as usize] == 0) != (z1(zb(x)) % 2 == 1 && z1(zb(x)) >= 3), "x"),
    ));
    // Left shifts, over n with B(n) <= zr.
    let mut shift_bad = [None, None, None, None];
    let mut it = BeattyA::at(1);
    while it.b() <= zr {
        let (n, a, b) = (it.n, it.a, it.b());
        let ab = 2 * a + n;
        let checks = [
            value(zb(a) << 1) != b,
            value(least_odd_bits(zb(n)) << 1) != a,
            least_odd_bits(zb(b)) != zb(b),
            ab <= zr && value(zb(b) << 1) != ab,
        ];
        for (slot, bad) in shift_bad.iter_mut().zip(checks) {
            if bad && slot.is_none() {
                *slot = Some(format!("n = {n}"));
            }
        }
        it.step();
    }
    let nrange = format!("n with B(n) <= {zr}");
    out.push(claim(
        "§1",
        "B(n) is the left-shift of the Zeckendorf representation of A(n)",
        &nrange,
        shift_bad[0].clone(),
    ));
    out.push(claim(
        "§1",
        "A(n) is the left-shift of the least-odd representation of n",
        &nrange,
        shift_bad[1].clone(),
    ));
    let lr = zr.min(LEAST_ODD_COUNT_RANGE);
    let counts_lo = least_odd_counts(lr);
    out.push(claim(
        "§1 (Silber)",
        "every positive integer has exactly one least-odd representation (smallest index odd, no two consecutive indices)",
        &format!("x = 1..{lr} (representations counted)"),
        first(lr, |x| x >= 1 && counts_lo[x as usize] != 1, "x"),
    ));
    out.push(claim(
        "Lemma 1's proof",
        "the least-odd representation of B(n) is its Zeckendorf representation",
        &nrange,
        shift_bad[2].clone(),
    ));
    out.push(claim(
        "Lemma 1's proof",
        "AB(n) is the left-shift of the Zeckendorf representation of B(n)",
        &format!("n with AB(n) <= {zr}"),
        shift_bad[3].clone(),
    ));
    out.push(claim(
        "Lemma 1's proof",
        "numbers in AB + 1 have z_1 = 2 and z_2 >= 4 even",
        &zrange,
        first(
            zr,
            |x| cls[x as usize] == 2 && !(z1(zb(x)) == 2 && z2(zb(x)) >= 4 && z2(zb(x)).is_multiple_of(2)),
            "x",
        ),
    ));
    out.push(claim(
        "Lemma 1's proof",
        "B_0 + 1 contains every number with z_1 >= 4 even",
        &zrange,
        first(zr, |x| x >= 1 && z1(zb(x)) >= 4 && z1(zb(x)).is_multiple_of(2) && cls[x as usize] != 1, "x"),
    ));
    out.push(claim(
        "Lemma 1's proof",
        "B + 1 contains every number with z_1 = 2 and z_2 >= 5 odd, and B_0 + 1 the number with just z_1 = 2 (that is 1)",
        &zrange,
        first(
            zr,
            |x| {
                let z = zb(x);
                (x >= 2 && z1(z) == 2 && z2(z) >= 5 && z2(z) % 2 == 1 && z2(z) < 128 && cls[x as usize] != 1)
                    || (z == 1 << 2 && cls[x as usize] != 1)
            },
            "x",
        ),
    ));

    // Fibonacci identities the proofs use, every index that fits u64.
    let sum = |idx: &mut dyn Iterator<Item = usize>| idx.map(|i| FIB[i]).sum::<u64>();
    let mut bad = None;
    for k in 2..=46usize {
        // F_{2k} = F_{2k-1} + F_{2k-3} + ... + F_3 + 1 (F_4 = F_3 + 1, F_6 = F_5 + F_3 + 1).
        if FIB[2 * k] != sum(&mut (1..k).map(|j| 2 * j + 1)) + 1
            || FIB[2 * k] - FIB[2] != sum(&mut (1..k).map(|j| 2 * j + 1))
        {
            bad = Some(format!("k = {k}"));
        }
        for i in 1..k {
            // (2): F_{2j+1} - F_{2i+1} = F_{2j} + F_{2j-2} + ... + F_{2i+2}, j = k > i.
            if 2 * k < 93 && FIB[2 * k + 1] - FIB[2 * i + 1] != sum(&mut (i + 1..=k).map(|j| 2 * j)) {
                bad = Some(format!("(2) with j = {k}, i = {i}"));
            }
        }
    }
    if FIB[6] + FIB[3] - FIB[5] != FIB[5] {
        bad = Some("F_6 + F_3 - F_5".into());
    }
    out.push(claim(
        "§2, Lemma 1's and Theorem 2's proofs",
        "F_4 = F_3 + 1, F_6 = F_5 + F_3 + 1 and so on; (2) F_{2j+1} - F_{2i+1} = F_{2j} + F_{2j-2} + ... + F_{2i+2}; F_{2k} - F_2 = F_{2k-1} + ... + F_3; F_6 + F_3 - F_5 = F_5",
        "every index up to 93",
        bad,
    ));

    // The steps of Theorem 2's proof, on the sets listed one by one (not on g).
    let s: Vec<u64> = members.iter().copied().filter(|&x| x <= zr).collect();
    let followers = |p: u64| s.iter().take_while(move |&&x| x <= p).map(move |&x| p - x);
    let class = |x: u64| cls[x as usize];
    let prange = format!("p = 0..{zr}");
    out.push(claim(
        "Theorem 2's proof",
        "no follower of a p in B_0 is in B_0",
        &prange,
        first(zr, |p| class(p) == 0 && followers(p).any(|q| class(q) == 0), "p"),
    ));
    out.push(claim(
        "Theorem 2's proof",
        "p in B_0 + 1 has the follower p - 1 in B_0 and no follower in B_0 + 1",
        &prange,
        first(zr, |p| class(p) == 1 && (class(p - 1) != 0 || followers(p).any(|q| class(q) == 1)), "p"),
    ));
    out.push(claim(
        "Theorem 2's proof",
        "p in AB + 1 has no follower in AB + 1, the follower p - (F_3 - 1) = p - 1 in B_0 + 1, and a follower in B_0",
        &prange,
        first(
            zr,
            |p| {
                class(p) == 2
                    && (followers(p).any(|q| class(q) == 2)
                        || class(p - 1) != 1
                        || !followers(p).any(|q| class(q) == 0))
            },
            "p",
        ),
    ));
    // The proof's choice of i for the follower in B_0.
    let (mut wrong, mut untreated, mut treated) = (None, Vec::new(), 0u64);
    for p in 1..=zr {
        if class(p) != 2 {
            continue;
        }
        match proof_choice(p) {
            None => untreated.push(p),
            Some((i, z)) => {
                treated += 1;
                let sub = FIB[2 * i + 1] - 1;
                let ok = sub <= p && class(p - sub) == 0 && z.is_none_or(|z| z1(zb(p - sub)) == z);
                if !ok && wrong.is_none() {
                    wrong = Some(p);
                }
            }
        }
    }
    // In the untreated case, does i = l, with z_1(a + F_3) = 2l + 1 (the proof's own l), work?
    let l_fails = untreated.iter().find(|&&p| {
        let l = (z1(zb(p + 1)) as usize - 1) / 2;
        let sub = FIB[2 * l + 1] - 1;
        !(sub <= p && class(p - sub) == 0)
    });
    let note = match (wrong, untreated.first()) {
        (Some(p), _) => Some(format!("p = {p}: the named i does not give alpha in B_0 with the stated z_1")),
        (None, Some(&p)) => Some(format!(
            "the cases leave out k = 1 with m = 6 (y's smallest term F_6): {} of the {} piles in AB + 1, first p = {p} (a = {} = {}); there i = l (z_1(a + F_3) = 2l + 1) {}; the {treated} treated piles are confirmed",
            untreated.len(),
            untreated.len() as u64 + treated,
            p - 1,
            terms(zb(p - 1)),
            match l_fails {
                None => "works for every one of them".to_string(),
                Some(q) => format!("fails first at p = {q}"),
            }
        )),
        (None, None) => None,
    };
    out.push(claim(
        "Theorem 2's proof, last paragraph",
        "for p in AB + 1 the cases k > 1 (i = k), a + F_3 = F_{2l+1} (i = l), m odd (i = (m-1)/2) and m >= 8 even (2i+1 = m-1) give alpha = p - (F_{2i+1} - 1) in B_0 with z_1(alpha) = 5 (k = 2), 3 (k > 2), 5 (m odd), 5 or 7 (m = 8)",
        &prange,
        note,
    ));
    out
}

/// `F_8 + F_6 + F_4` for a representation.
fn terms(bits: u128) -> String {
    (0..128).rev().filter(|&i| bits >> i & 1 == 1).map(|i| format!("F_{i}")).collect::<Vec<_>>().join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::subtraction::{find_period, paper_members, solve};

    #[test]
    fn representations() {
        // Larsson and Fox §1: F_4 = F_3 + 1, F_6 = F_5 + F_3 + 1 (3 = 2 + 1, 8 = 5 + 2 + 1).
        assert_eq!(zeckendorf_bits(4), 1 << 4 | 1 << 2);
        assert_eq!(zeckendorf_bits(8), 1 << 6);
        assert_eq!(least_odd_bits(1 << 6), 1 << 5 | 1 << 3 | 1 << 1);
        assert_eq!(value(least_odd_bits(1 << 6)), 8);
        assert_eq!(zeckendorf_bits(0), 0);
        for x in 0..5000 {
            let z = zeckendorf_bits(x);
            assert_eq!(value(z), x);
            assert_eq!(z & (z >> 1), 0, "non-consecutive");
            assert_eq!(z & 3, 0, "indices >= 2");
            assert_eq!(value(least_odd_bits(z)), x);
        }
        let c = least_odd_counts(1000);
        assert!(c[1..].iter().all(|&n| n == 1));
    }

    /// The proof's cases leave out p = 46 (a = 45 = F_9 + F_6 + F_4, a + F_3 = 47 = F_9 + F_7,
    /// y = 42 = F_9 + F_6: m = 6) and p = 67 (a = 66 = F_10 + F_6 + F_4): with i = 2 the follower
    /// 63 = F_10 + F_6 of 67 is in A, not B_0; the follower in B_0 is 67 - 33 = 34 = F_9.
    #[test]
    fn the_untreated_case() {
        assert_eq!(proof_choice(46), None);
        assert_eq!(proof_choice(67), None);
        assert_eq!(zeckendorf_bits(66), 1 << 10 | 1 << 6 | 1 << 4);
        // 4 = AB(1) + 1: a = 3 = F_4, k = 1, a + F_3 = 5 = F_5: i = 2, alpha = 0.
        assert_eq!(proof_choice(4), Some((2, None)));
    }

    #[test]
    fn every_claim_of_the_paper() {
        let to = 200_000;
        let m = paper_members(to);
        let g = solve(&m, to);
        let (p, bound) = find_period(&g, 2000);
        let list = paper(&g, &m, p, bound);
        let refuted: Vec<&str> =
            list.iter().filter(|c| c.verdict == "refuted").map(|c| c.source.as_str()).collect();
        assert_eq!(refuted, ["Lemma 1's proof (as printed)", "Theorem 2's proof, last paragraph"]);
        let last = list.iter().find(|c| c.source == "Theorem 2's proof, last paragraph").unwrap();
        assert!(last.note.as_deref().is_some_and(|n| n.contains("first p = 46")), "{:?}", last.note);
        // Another set's values refute Theorem 2 and the ternary claim.
        let g = solve(&[1, 2, 3], 1000);
        let list = paper(&g, &m, None, 10);
        let t2 = list.iter().find(|c| c.source == "Theorem 2").unwrap();
        assert_eq!(t2.verdict, "refuted");
    }
}
