//! The least-squares line `x = a + b y` of a branch's positions in one measurement window, from
//! exact integer sums (`docs/small-k.md`, "Branches"), so that the sums can be kept as the rows
//! stream by ([`super::stream`]) and give the same fit, bit for bit, as the list of positions.
//!
//! With `n` positions and the sums `Sx, Sy, Sxx, Sxy, Syy` (`y` counted from the window's first
//! row, which moves no slope), the centred sums times `n` are the integers
//! `Dyy = n Syy - Sy^2`, `Dxy = n Sxy - Sx Sy`, `Dxx = n Sxx - Sx^2`, and
//!
//! * the slope is `b = Dxy / Dyy`, the ratio `1 / b = Dyy / Dxy`;
//! * the residual of `(x, y)` is `E / (n Dyy)` with `E = Dyy (n x - Sx) - Dxy (n y - Sy)`;
//! * the residuals' sum of squares is `(Dxx Dyy - Dxy^2) / (n Dyy)`, so the slope's standard
//!   error is `sqrt((Dxx Dyy - Dxy^2) / (n - 2)) / Dyy`.
//!
//! The `D`s are exact in `i128`, their products in 256 bits (`Wide`); each is rounded to `f64`
//! once, at the end. The largest residual is the largest `|E|`, an exact integer, over the
//! positions, or over the vertices of their convex hull ([`Hull`]), which hold the extremes of
//! every linear function of them: both give the same integer, and so the same `f64`.
//!
//! The `D`s stay below `2^127` while `n^2` times the largest `x^2` (or `y^2` in the window)
//! does, e.g. `2^32` positions below column `2^31`; past that the fit is taken in `f64` from
//! the same sums (the list and the stream still agree).

/// Exact running sums of positions `(x, y)` of one window, `y` counted from the window's first
/// row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sums {
    n: u64,
    sx: u128,
    sy: u128,
    sxx: u128,
    sxy: u128,
    syy: u128,
}

impl Sums {
    /// Adds the position `(x, y)`, `y` counted from the window's first row.
    #[inline]
    pub fn add(&mut self, x: u32, y: u32) {
        let (x, y) = (u128::from(x), u128::from(y));
        self.n += 1;
        self.sx += x;
        self.sy += y;
        self.sxx += x * x;
        self.sxy += x * y;
        self.syy += y * y;
    }

    /// Adds the sums of other positions.
    pub fn merge(&mut self, o: &Sums) {
        self.n += o.n;
        self.sx += o.sx;
        self.sy += o.sy;
        self.sxx += o.sxx;
        self.sxy += o.sxy;
        self.syy += o.syy;
    }

    /// The number of positions.
    pub fn n(&self) -> u64 {
        self.n
    }
}

/// The convex hull of points `(y, x)` added in order of `y`, then `x` (Andrew's monotone chain),
/// without collinear points: the lower and the upper chain.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hull {
    lower: Vec<(u32, u32)>,
    upper: Vec<(u32, u32)>,
}

/// `(a - o) x (b - o)` of points `(y, x)`.
fn cross(o: (u32, u32), a: (u32, u32), b: (u32, u32)) -> i128 {
    let d =
        |p: (u32, u32), q: (u32, u32)| (i128::from(q.0) - i128::from(p.0), i128::from(q.1) - i128::from(p.1));
    let (a, b) = (d(o, a), d(o, b));
    a.0 * b.1 - a.1 * b.0
}

impl Hull {
    /// Adds the position `(x, y)`; it must come after (in `y`, then `x`) those added before.
    #[inline]
    pub fn add(&mut self, x: u32, y: u32) {
        let p = (y, x);
        while self.lower.len() >= 2
            && cross(self.lower[self.lower.len() - 2], self.lower[self.lower.len() - 1], p) <= 0
        {
            self.lower.pop();
        }
        self.lower.push(p);
        while self.upper.len() >= 2
            && cross(self.upper[self.upper.len() - 2], self.upper[self.upper.len() - 1], p) >= 0
        {
            self.upper.pop();
        }
        self.upper.push(p);
    }

    /// The hull's vertices as positions `(x, y)` (a vertex may come twice).
    pub fn vertices(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.lower.iter().chain(&self.upper).map(|&(y, x)| (x, y))
    }

    /// The number of vertices kept.
    pub fn len(&self) -> usize {
        self.lower.len() + self.upper.len()
    }

    /// Whether no point was added.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }
}

/// A signed 256-bit integer, two's complement: the products of two `i128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Wide {
    hi: i128,
    lo: u128,
}

impl Wide {
    /// `a b`, exactly.
    fn mul(a: i128, b: i128) -> Wide {
        let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
        let (a1, a0) = (ua >> 64, ua & u128::from(u64::MAX));
        let (b1, b0) = (ub >> 64, ub & u128::from(u64::MAX));
        let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
        let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
        let lo = (p00 & u128::from(u64::MAX)) | (mid << 64);
        let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
        let w = Wide { hi: hi as i128, lo };
        if (a < 0) != (b < 0) { w.neg() } else { w }
    }

    fn neg(self) -> Wide {
        let (lo, carry) = (!self.lo).overflowing_add(1);
        Wide { hi: (!self.hi).wrapping_add(i128::from(carry)), lo }
    }

    fn sub(self, o: Wide) -> Wide {
        let (lo, borrow) = self.lo.overflowing_sub(o.lo);
        Wide { hi: self.hi.wrapping_sub(o.hi).wrapping_sub(i128::from(borrow)), lo }
    }

    fn abs(self) -> Wide {
        if self.hi < 0 { self.neg() } else { self }
    }

    /// Rounded to `f64` (the same value for the same integer).
    fn to_f64(self) -> f64 {
        if self.hi < 0 {
            return -self.neg().to_f64();
        }
        self.hi as f64 * 2f64.powi(128) + self.lo as f64
    }
}

/// A fitted line: the ratio `1 / b`, its standard error and the largest distance, in columns,
/// of a position from the line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// `1 / b`.
    pub ratio: f64,
    /// Its standard error.
    pub std_error: f64,
    /// The largest `|x - a - b y|`.
    pub max_residual: f64,
}

/// The centred sums times `n`, exact where they fit.
fn centred(s: &Sums) -> Option<(i128, i128, i128)> {
    let n = i128::from(s.n);
    let (sx, sy) = (i128::try_from(s.sx).ok()?, i128::try_from(s.sy).ok()?);
    let d = |sab: u128, a: i128, b: i128| -> Option<i128> {
        n.checked_mul(i128::try_from(sab).ok()?)?.checked_sub(a.checked_mul(b)?)
    };
    Some((d(s.sxx, sx, sx)?, d(s.sxy, sx, sy)?, d(s.syy, sy, sy)?))
}

/// The line through the positions summed in `s`; `extremes` are the positions, or a set holding
/// the vertices of their convex hull (`y` counted from the window's first row, as in `s`).
/// `None` with fewer than 3 positions or a slope of 0 or infinity.
pub fn fit(s: &Sums, extremes: impl Iterator<Item = (u32, u32)>) -> Option<Fit> {
    if s.n < 3 {
        return None;
    }
    let nf = s.n as f64;
    let Some((dxx, dxy, dyy)) = centred(s) else { return fit_f64(s, extremes) };
    if dyy == 0 || dxy == 0 {
        return None;
    }
    let (dxyf, dyyf) = (dxy as f64, dyy as f64);
    let b = dxyf / dyyf;
    let num = Wide::mul(dxx, dyy).sub(Wide::mul(dxy, dxy)).to_f64().max(0.0);
    let se_b = (num / (nf - 2.0)).sqrt() / dyyf;
    let (n, sx, sy) = (i128::from(s.n), s.sx as i128, s.sy as i128);
    let mut most = Wide { hi: 0, lo: 0 };
    for (x, y) in extremes {
        let e = Wide::mul(dyy, n * i128::from(x) - sx).sub(Wide::mul(dxy, n * i128::from(y) - sy)).abs();
        if (e.hi, e.lo) > (most.hi, most.lo) {
            most = e;
        }
    }
    Some(Fit { ratio: dyyf / dxyf, std_error: se_b / (b * b), max_residual: most.to_f64() / (nf * dyyf) })
}

/// [`fit`] in `f64` from the sums, for sums past `i128`.
fn fit_f64(s: &Sums, extremes: impl Iterator<Item = (u32, u32)>) -> Option<Fit> {
    let nf = s.n as f64;
    let (mx, my) = (s.sx as f64 / nf, s.sy as f64 / nf);
    let syy = s.syy as f64 - my * s.sy as f64;
    let sxy = s.sxy as f64 - my * s.sx as f64;
    let sxx = s.sxx as f64 - mx * s.sx as f64;
    if syy == 0.0 || sxy == 0.0 {
        return None;
    }
    let b = sxy / syy;
    let a = mx - b * my;
    let ss = (sxx - b * sxy).max(0.0);
    let se_b = (ss / (nf - 2.0) / syy).sqrt();
    let max_residual = extremes.map(|(x, y)| (f64::from(x) - a - b * f64::from(y)).abs()).fold(0.0, f64::max);
    Some(Fit { ratio: 1.0 / b, std_error: se_b / (b * b), max_residual })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_products_are_exact() {
        let cases = [(3i128, -7i128), (i128::MAX, 2), (-(1i128 << 100), 1i128 << 90), (0, 5), (-1, -1)];
        for (a, b) in cases {
            let w = Wide::mul(a, b);
            let want = a as f64 * b as f64;
            assert!((w.to_f64() - want).abs() <= want.abs() * 1e-15, "{a} {b}");
        }
        let (a, b) = (123_456_789_012_345_678_901i128, 98_765_432_109_876_543_210i128);
        let d = Wide::mul(a, b).sub(Wide::mul(a, b - 1));
        assert_eq!(d, Wide { hi: 0, lo: a as u128 });
        assert_eq!(Wide::mul(-5, 3).abs(), Wide::mul(5, 3));
    }

    #[test]
    fn the_hull_holds_the_extremes_of_every_line() {
        let mut seed = 7u64;
        let mut pts = Vec::new();
        for y in 0..3000u32 {
            for _ in 0..2 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pts.push((y * 2 / 5 + (seed >> 60) as u32, y));
            }
        }
        pts.sort_by_key(|&(x, y)| (y, x));
        pts.dedup();
        let mut hull = Hull::default();
        let mut s = Sums::default();
        for &(x, y) in &pts {
            hull.add(x, y);
            s.add(x, y);
        }
        assert!(hull.len() < 100, "{}", hull.len());
        let all = fit(&s, pts.iter().copied()).unwrap();
        let some = fit(&s, hull.vertices()).unwrap();
        assert_eq!(all, some);
        assert!((all.ratio - 2.5).abs() < 1e-2);
    }
}
