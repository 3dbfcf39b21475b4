//! Recognising a measured limit: a rational `p/q` or a quadratic irrational (a root of
//! `A t^2 + B t + C = 0`) of small height that lies within the measured error, and the terms of
//! the continued fraction that every value within the error shares.
//!
//! A form is accepted only when it is unlikely to match by chance: the forms of height at most
//! `h` (the match's height) that lie in the unit interval around the value are counted, and the
//! expected number of them within `+-error` of a value drawn at random, `count * 2 * error`,
//! must stay below [`CHANCE`]. A larger error or a larger height makes a coincidence likely, and
//! then the answer is "not recognised", naming the nearest small form, rather than a forced
//! match.

use serde::Serialize;
use std::fmt;

/// The most chance matches tolerated: a form is accepted when fewer than this many forms of its
/// height or less are expected within the error of a random value.
pub const CHANCE: f64 = 0.001;

/// The largest height of a rational tried: `max(|p|, q)`.
pub const MAX_RATIONAL_HEIGHT: i64 = 1000;

/// The largest height of a quadratic tried: `max(|A|, |B|, |C|)`.
pub const MAX_QUADRATIC_HEIGHT: i64 = 30;

/// The most continued-fraction terms shown.
const MAX_TERMS: usize = 24;

/// What a limit was recognised as.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum Form {
    /// `p / q` in lowest terms.
    Rational {
        /// Numerator.
        p: i64,
        /// Denominator, positive.
        q: i64,
        /// The expected number of chance matches of this height or less.
        chance: f64,
    },
    /// The root of `a t^2 + b t + c = 0` (primitive, `a > 0`) within the error, written out.
    Quadratic {
        /// `a`.
        a: i64,
        /// `b`.
        b: i64,
        /// `c`.
        c: i64,
        /// The root as `(p + q sqrt d) / r` with `d` square-free.
        text: String,
        /// Its continued fraction, the periodic part in parentheses.
        continued_fraction: String,
        /// The expected number of chance matches of this height or less.
        chance: f64,
    },
    /// Nothing of small height matches convincingly.
    NotRecognised {
        /// Why: the nearest small form and how likely a chance match of its height was.
        reason: String,
    },
}

/// A recognised (or not) value with the continued-fraction terms its error determines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recognised {
    /// The value.
    pub value: f64,
    /// Its error.
    pub error: f64,
    /// The form.
    pub form: Form,
    /// The continued-fraction terms shared by every value in `[value - error, value + error]`.
    pub continued_fraction: Vec<i64>,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Form::Rational { p, q, .. } => write!(f, "rational {p}/{q}"),
            Form::Quadratic { text, continued_fraction, a, b, c, .. } => {
                write!(f, "quadratic {text} (root of {}; {continued_fraction})", poly_text(*a, *b, *c))
            }
            Form::NotRecognised { reason } => write!(f, "not recognised ({reason})"),
        }
    }
}

impl Form {
    /// The form in a few words: `5/2`, `1 + sqrt 2`, `not recognised`.
    pub fn short(&self) -> String {
        match self {
            Form::Rational { p, q, .. } => format!("{p}/{q}"),
            Form::Quadratic { text, .. } => text.clone(),
            Form::NotRecognised { .. } => "not recognised".into(),
        }
    }
}

/// `a t^2 + b t + c` written plainly: `t^2 - t - 1`, `2t^2 - 6t + 3`.
pub(crate) fn poly_text(a: i64, b: i64, c: i64) -> String {
    let term = |n: i64, t: &str, first: bool| -> String {
        if n == 0 {
            return String::new();
        }
        let sign = match (first, n < 0) {
            (true, true) => "-".to_string(),
            (true, false) => String::new(),
            (false, true) => " - ".into(),
            (false, false) => " + ".into(),
        };
        let m = n.abs();
        if m == 1 && !t.is_empty() { format!("{sign}{t}") } else { format!("{sign}{m}{t}") }
    };
    let s = format!("{}{}{}", term(a, "t^2", true), term(b, "t", a == 0), term(c, "", a == 0 && b == 0));
    if s.is_empty() { "0".into() } else { s }
}

/// `[a0; a1, a2, ...]`.
pub(crate) fn cf_text(terms: &[i64]) -> String {
    match terms.split_first() {
        None => "[]".into(),
        Some((a0, [])) => format!("[{a0}]"),
        Some((a0, rest)) => {
            let rest: Vec<String> = rest.iter().map(i64::to_string).collect();
            format!("[{a0}; {}]", rest.join(", "))
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The continued-fraction terms shared by every value of `[lo, hi]`.
pub(crate) fn shared_terms(lo: f64, hi: f64) -> Vec<i64> {
    let (mut lo, mut hi) = (lo, hi);
    let mut out = Vec::new();
    while out.len() < MAX_TERMS && lo.is_finite() && hi.is_finite() {
        let (a, b) = (lo.floor(), hi.floor());
        if a != b {
            break;
        }
        out.push(a as i64);
        let (fl, fh) = (lo - a, hi - a);
        if fl <= 0.0 || fh <= 0.0 {
            break;
        }
        // 1/x reverses the order.
        (lo, hi) = (1.0 / fh, 1.0 / fl);
    }
    out
}

/// Rationals `p/q` (lowest terms, `max(|p|, q) <= h`) in `[v - 0.5, v + 0.5]`.
fn rationals_near(v: f64, h: i64) -> u64 {
    let mut n = 0;
    for q in 1..=h {
        let lo = ((v - 0.5) * q as f64).ceil() as i64;
        let hi = ((v + 0.5) * q as f64).floor() as i64;
        for p in lo.max(-h)..=hi.min(h) {
            if gcd(p, q) == 1 {
                n += 1;
            }
        }
    }
    n
}

/// `(d, s)` with `n = s^2 d` and `d` square-free.
fn square_free(n: i64) -> (i64, i64) {
    let (mut d, mut s) = (n, 1);
    let mut f = 2;
    while f * f <= d {
        while d % (f * f) == 0 {
            d /= f * f;
            s *= f;
        }
        f += 1;
    }
    (d, s)
}

fn is_square(n: i64) -> bool {
    n >= 0 && {
        let r = (n as f64).sqrt().round() as i64;
        (r - 1..=r + 1).any(|r| r >= 0 && r * r == n)
    }
}

/// The primitive quadratics `(a, b, c, sign)` of height at most `h` with an irrational root
/// (`(-b + sign sqrt(b^2 - 4ac)) / 2a`) in `[v - w, v + w]`, with that root.
fn quadratics_near(v: f64, w: f64, h: i64) -> Vec<((i64, i64, i64, i64), f64)> {
    let mut out = Vec::new();
    for a in 1..=h {
        for b in -h..=h {
            for c in -h..=h {
                let d = b * b - 4 * a * c;
                if d <= 0 || is_square(d) || gcd(gcd(a, b), c) != 1 {
                    continue;
                }
                let s = (d as f64).sqrt();
                for sign in [-1i64, 1] {
                    let t = (-b as f64 + sign as f64 * s) / (2 * a) as f64;
                    if (t - v).abs() <= w {
                        out.push(((a, b, c, sign), t));
                    }
                }
            }
        }
    }
    out
}

/// `(-b + sign sqrt(b^2 - 4ac)) / 2a` written as `(p + q sqrt d) / r`.
fn quadratic_text(a: i64, b: i64, c: i64, sign: i64) -> String {
    let (d, s) = square_free(b * b - 4 * a * c);
    let (mut p, mut q, mut r) = (-b, sign * s, 2 * a);
    let g = gcd(gcd(p, q), r);
    (p, q, r) = (p / g, q / g, r / g);
    let root = match q.abs() {
        1 => format!("sqrt {d}"),
        n => format!("{n} sqrt {d}"),
    };
    let op = if q < 0 { "-" } else { "+" };
    let num =
        if p == 0 { format!("{}{root}", if q < 0 { "-" } else { "" }) } else { format!("{p} {op} {root}") };
    if r == 1 { num } else { format!("({num}) / {r}") }
}

/// The continued fraction of `(-b + sign sqrt D) / 2a`, periodic part in parentheses.
fn quadratic_cf(a: i64, b: i64, c: i64, sign: i64) -> String {
    let dd = i128::from(b * b - 4 * a * c);
    let f = {
        let mut r = (dd as f64).sqrt() as i128;
        while r * r > dd {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= dd {
            r += 1;
        }
        r
    };
    // t = (P + sqrt D) / Q with Q | D - P^2.
    let (mut p, mut q) =
        if sign > 0 { (i128::from(-b), i128::from(2 * a)) } else { (i128::from(b), i128::from(-2 * a)) };
    if (dd - p * p) % q != 0 {
        // Scale so that Q divides D - P^2: (P|Q| + sqrt(D Q^2)) / (Q|Q|).
        return "(not expanded)".into();
    }
    let mut seen: Vec<(i128, i128)> = Vec::new();
    let mut terms: Vec<i128> = Vec::new();
    while terms.len() < 64 {
        if let Some(i) = seen.iter().position(|&s| s == (p, q)) {
            // A purely periodic expansion is written with its first term outside: [1; (1)].
            let (head, per): (Vec<i128>, Vec<i128>) = if i == 0 {
                (vec![terms[0]], terms[1..].iter().chain(&terms[..1]).copied().collect())
            } else {
                (terms[..i].to_vec(), terms[i..].to_vec())
            };
            let per: Vec<String> = per.iter().map(i128::to_string).collect();
            let rest: Vec<String> = head[1..].iter().map(i128::to_string).collect();
            let (a0, head) = (head[0], rest.join(", "));
            let sep = if head.is_empty() { "" } else { ", " };
            return format!("[{a0}; {head}{sep}({})]", per.join(", "));
        }
        seen.push((p, q));
        // floor((P + sqrt D) / Q): with s = sqrt D irrational, floor((P + s) / Q) equals
        // floor((P + floor s) / Q) for Q > 0 and floor((P + floor s + 1) / Q) for Q < 0.
        let t = if q > 0 { (p + f).div_euclid(q) } else { (-(p + f + 1)).div_euclid(-q) };
        terms.push(t);
        p = t * q - p;
        q = (dd - p * p) / q;
    }
    cf_text(&terms.iter().map(|&t| t as i64).collect::<Vec<_>>())
}

/// Recognises `value`, measured to within `error`.
pub(crate) fn recognise(value: f64, error: f64) -> Recognised {
    let error = error.abs();
    let continued_fraction = shared_terms(value - error, value + error);
    let form = form_of(value, error);
    Recognised { value, error, form, continued_fraction }
}

fn form_of(v: f64, e: f64) -> Form {
    if !v.is_finite() || !e.is_finite() {
        return Form::NotRecognised { reason: "no finite value".into() };
    }
    // The smallest-height rational within the error: the rationals of smallest height in an
    // interval are among the intermediate fractions, but a plain scan by denominator is
    // simple and fast enough at these heights.
    let mut best_rational: Option<(i64, i64, i64)> = None;
    for q in 1..=MAX_RATIONAL_HEIGHT {
        if best_rational.is_some_and(|(_, _, h)| q >= h) {
            break;
        }
        let lo = ((v - e) * q as f64).ceil() as i64;
        let hi = ((v + e) * q as f64).floor() as i64;
        for p in lo..=hi {
            if gcd(p, q) != 1 {
                continue;
            }
            let h = p.abs().max(q);
            if h <= MAX_RATIONAL_HEIGHT && best_rational.is_none_or(|(_, _, bh)| h < bh) {
                best_rational = Some((p, q, h));
            }
        }
    }
    if let Some((p, q, h)) = best_rational {
        let chance = rationals_near(v, h) as f64 * 2.0 * e;
        if chance < CHANCE {
            return Form::Rational { p, q, chance };
        }
    }
    let matches = quadratics_near(v, e, MAX_QUADRATIC_HEIGHT);
    let best = matches
        .iter()
        .map(|&((a, b, c, s), t)| (a.max(b.abs()).max(c.abs()), (t - v).abs(), (a, b, c, s)))
        .min_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
    if let Some((h, _, (a, b, c, s))) = best {
        let count = quadratics_near(v, 0.5, h).len() as u64 + rationals_near(v, h);
        let chance = count as f64 * 2.0 * e;
        if chance < CHANCE {
            return Form::Quadratic {
                a,
                b,
                c,
                text: quadratic_text(a, b, c, s),
                continued_fraction: quadratic_cf(a, b, c, s),
                chance,
            };
        }
        let r = best_rational
            .map_or(String::new(), |(p, q, _)| format!("; the rational {p}/{q} is within it too"));
        return Form::NotRecognised {
            reason: format!(
                "{} (height {h}) lies within the error, but {:.3} forms of that height or less would by chance{r}",
                quadratic_text(a, b, c, s),
                chance
            ),
        };
    }
    match best_rational {
        Some((p, q, h)) => Form::NotRecognised {
            reason: format!(
                "{p}/{q} (height {h}) lies within the error, but {:.3} rationals of that height or less would by chance",
                rationals_near(v, h) as f64 * 2.0 * e
            ),
        },
        None => Form::NotRecognised {
            reason: format!(
                "no rational of height <= {MAX_RATIONAL_HEIGHT} nor quadratic of height <= {MAX_QUADRATIC_HEIGHT} within the error"
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHI: f64 = 1.618_033_988_749_895;

    #[test]
    fn known_constants_are_recognised() {
        let r = recognise(PHI + 3e-9, 1e-8);
        match &r.form {
            Form::Quadratic { a, b, c, text, continued_fraction, .. } => {
                assert_eq!((*a, *b, *c), (1, -1, -1));
                assert_eq!(text, "(1 + sqrt 5) / 2");
                assert_eq!(continued_fraction, "[1; (1)]");
            }
            f => panic!("phi: {f:?}"),
        }
        assert!(r.continued_fraction.len() >= 10 && r.continued_fraction.iter().all(|&t| t == 1));
        match recognise(std::f64::consts::SQRT_2, 1e-7).form {
            Form::Quadratic { text, continued_fraction, .. } => {
                assert_eq!(text, "sqrt 2");
                assert_eq!(continued_fraction, "[1; (2)]");
            }
            f => panic!("sqrt 2: {f:?}"),
        }
        match recognise(1.0 + std::f64::consts::SQRT_2, 1e-6).form {
            Form::Quadratic { text, continued_fraction, .. } => {
                assert_eq!(text, "1 + sqrt 2");
                assert_eq!(continued_fraction, "[2; (2)]");
            }
            f => panic!("1 + sqrt 2: {f:?}"),
        }
        match recognise(2.5 - 2e-7, 5e-7).form {
            Form::Rational { p, q, .. } => assert_eq!((p, q), (5, 2)),
            f => panic!("5/2: {f:?}"),
        }
        match recognise(13.0 / 5.0, 1e-5).form {
            Form::Rational { p, q, .. } => assert_eq!((p, q), (13, 5)),
            f => panic!("13/5: {f:?}"),
        }
        // (3 - sqrt 3) / 2 is a root of 2t^2 - 6t + 3.
        match recognise((3.0 - 3f64.sqrt()) / 2.0, 1e-8).form {
            Form::Quadratic { a, b, c, text, .. } => {
                assert_eq!((a, b, c), (2, -6, 3));
                assert_eq!(text, "(3 - sqrt 3) / 2");
            }
            f => panic!("(3 - sqrt 3)/2: {f:?}"),
        }
    }

    #[test]
    fn no_match_is_forced() {
        // pi and e are neither rational nor quadratic; at these errors small forms lie near
        // by chance (355/113 within 2.7e-7 of pi), and the recogniser must say so.
        for (v, e) in [(std::f64::consts::PI, 1e-6), (std::f64::consts::E, 1e-4), (PHI, 0.01)] {
            let r = recognise(v, e);
            assert!(matches!(r.form, Form::NotRecognised { .. }), "{v} +- {e}: {:?}", r.form);
        }
        // phi measured with an error that excludes it is not phi.
        let r = recognise(PHI + 1e-4, 1e-6);
        assert!(!matches!(r.form, Form::Quadratic { a: 1, b: -1, c: -1, .. }), "{:?}", r.form);
    }

    #[test]
    fn shared_terms_follow_the_interval() {
        // 2.5 = [2; 2] = [2; 1, 1]: values on either side of it share the first term only.
        assert_eq!(shared_terms(2.5 - 1e-9, 2.5 + 1e-9), vec![2]);
        assert_eq!(shared_terms(2.6 - 1e-9, 2.6 + 1e-9)[..2], [2, 1]);
        let t = shared_terms(std::f64::consts::PI - 1e-7, std::f64::consts::PI + 1e-7);
        assert_eq!(t[..4], [3, 7, 15, 1]);
        assert_eq!(shared_terms(1.0, 2.0), Vec::<i64>::new());
        assert_eq!(cf_text(&[1, 2, 2]), "[1; 2, 2]");
        assert_eq!(cf_text(&[2]), "[2]");
        assert_eq!(poly_text(1, -1, -1), "t^2 - t - 1");
        assert_eq!(poly_text(2, -6, 3), "2t^2 - 6t + 3");
        assert_eq!(poly_text(1, 0, -2), "t^2 - 2");
    }
}
