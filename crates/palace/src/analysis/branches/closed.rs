//! Closed forms of the upper P-positions (`x <= y`) of the smallest games, and their check
//! against a game's positions (`docs/small-k.md`, "Closed forms"). With `(a_n, b_n)` Wythoff's
//! pairs (`docs/rule.md`, "Wythoff Nim"):
//!
//! * `k = 1`: `(a_n, b_n)`, `n >= 0` (Wythoff 1907);
//! * `k = 2`: `(0, 0)`, `(0, 1)`, `((y - 1) / 2, y)` for every odd `y >= 3`, and the doubled
//!   pairs moved by (2, 2), `(2 a_n + 2, 2 b_n + 2)`, `n >= 0`;
//! * `k = 3`: `(0, 0)` and `(floor((y - 1) / 2), y)` for every `y >= 1`.
//!
//! The forms for `k = 2` and `3` are read off the computed positions, not taken from a source;
//! [`check`] compares them with a game's positions, and the tests with the direct definition.

use serde::Serialize;

/// Wythoff's pair `(a_n, b_n)` by integers: `a_n = floor((n + isqrt(5 n^2)) / 2)`, `b_n = a_n + n`.
pub(crate) fn wythoff_pair(n: u64) -> (u64, u64) {
    let a = (n + (5 * n * n).isqrt()) / 2;
    (a, a + n)
}

/// The upper positions of rows `0..rows` of game `k` by the closed form, sorted by `y`, then
/// `x`; `None` for `k > 3`.
pub(crate) fn upper_positions(k: u32, rows: u32) -> Option<Vec<(u32, u32)>> {
    let rows = u64::from(rows);
    let mut v: Vec<(u64, u64)> = match k {
        1 => (0..).map(wythoff_pair).take_while(|&(_, b)| b < rows).collect(),
        2 => {
            let mut v = vec![(0, 0), (0, 1)];
            v.extend((3..rows).step_by(2).map(|y| ((y - 1) / 2, y)));
            v.extend(
                (0..).map(wythoff_pair).map(|(a, b)| (2 * a + 2, 2 * b + 2)).take_while(|&(_, y)| y < rows),
            );
            v
        }
        3 => {
            let mut v = vec![(0, 0)];
            v.extend((1..rows).map(|y| ((y - 1) / 2, y)));
            v
        }
        _ => return None,
    };
    v.retain(|&(_, y)| y < rows);
    v.sort_by_key(|&(x, y)| (y, x));
    Some(v.into_iter().map(|(x, y)| (x as u32, y as u32)).collect())
}

/// A closed form checked against a game's upper positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Rows compared: `0..rows`.
    pub rows: u32,
    /// Positions compared.
    pub positions: u64,
    /// The first position (in order of `y`, then `x`) in one list but not the other, and
    /// whether the game has it.
    pub first_difference: Option<((u32, u32), bool)>,
}

/// Compares the closed form of game `k` with its upper positions `pts` (rows `0..rows`,
/// sorted by `y`, then `x`); `None` for `k > 3`.
pub fn check(k: u32, rows: u32, pts: &[(u32, u32)]) -> Option<Check> {
    let want = upper_positions(k, rows)?;
    let key = |p: &(u32, u32)| (p.1, p.0);
    let (mut i, mut j) = (0, 0);
    let mut first_difference = None;
    while i < pts.len() || j < want.len() {
        match (pts.get(i), want.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) => {
                first_difference = Some(if key(a) < key(b) { (*a, true) } else { (*b, false) });
                break;
            }
            (Some(a), None) => {
                first_difference = Some((*a, true));
                break;
            }
            (None, Some(b)) => {
                first_difference = Some((*b, false));
                break;
            }
            (None, None) => break,
        }
    }
    Some(Check { rows, positions: pts.len() as u64, first_difference })
}

/// The upper positions of rows `0..rows` of game `k` by the closed form, in order of `y`, then
/// `x`, one at a time; `None` for `k > 3`. [`upper_positions`] as a stream.
fn stream(k: u32, rows: u32) -> Option<Box<dyn Iterator<Item = (u32, u32)>>> {
    let rows64 = u64::from(rows);
    let small = move |v: Vec<(u64, u64)>| v.into_iter().filter(move |&(_, y)| y < rows64);
    let to32 = |(x, y): (u64, u64)| (x as u32, y as u32);
    Some(match k {
        1 => Box::new((0..).map(wythoff_pair).take_while(move |&(_, b)| b < rows64).map(to32)),
        2 => {
            // Odd rows and the doubled pairs (even rows) never share a row.
            let odd = small(vec![(0, 0), (0, 1)]).chain((3..rows64).step_by(2).map(|y| ((y - 1) / 2, y)));
            let doubled = (0..)
                .map(wythoff_pair)
                .map(|(a, b)| (2 * a + 2, 2 * b + 2))
                .take_while(move |&(_, y)| y < rows64);
            let mut odd = odd.peekable();
            let mut doubled = doubled.peekable();
            Box::new(
                std::iter::from_fn(move || match (odd.peek(), doubled.peek()) {
                    (Some(a), Some(b)) => {
                        if (a.1, a.0) <= (b.1, b.0) {
                            odd.next()
                        } else {
                            doubled.next()
                        }
                    }
                    (Some(_), None) => odd.next(),
                    (None, _) => doubled.next(),
                })
                .map(to32),
            )
        }
        3 => Box::new(small(vec![(0, 0)]).chain((1..rows64).map(|y| ((y - 1) / 2, y))).map(to32)),
        _ => return None,
    })
}

/// [`check`] as the positions stream by: [`take`](Self::take) each upper position, in order of
/// `y`, then `x`, then [`finish`](Self::finish). It holds the next position of the form, not a
/// list.
pub struct Checker {
    rows: u32,
    want: std::iter::Peekable<Box<dyn Iterator<Item = (u32, u32)>>>,
    positions: u64,
    first_difference: Option<((u32, u32), bool)>,
}

impl Checker {
    /// A check of game `k`'s upper positions of rows `0..rows`; `None` for `k > 3`.
    pub fn new(k: u32, rows: u32) -> Option<Self> {
        Some(Checker { rows, want: stream(k, rows)?.peekable(), positions: 0, first_difference: None })
    }

    /// Takes the game's next upper position.
    pub fn take(&mut self, x: u32, y: u32) {
        self.positions += 1;
        if self.first_difference.is_some() {
            return;
        }
        let a = (x, y);
        match self.want.peek() {
            Some(&b) if b == a => {
                self.want.next();
            }
            Some(&b) => {
                self.first_difference = Some(if (a.1, a.0) < (b.1, b.0) { (a, true) } else { (b, false) });
            }
            None => self.first_difference = Some((a, true)),
        }
    }

    /// The check.
    pub fn finish(mut self) -> Check {
        if self.first_difference.is_none()
            && let Some(b) = self.want.next()
        {
            self.first_difference = Some((b, false));
        }
        Check { rows: self.rows, positions: self.positions, first_difference: self.first_difference }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::reference::direct_palace_numbers;

    #[test]
    fn the_closed_forms_are_the_direct_definition() {
        let (rows, width) = (150u32, 160u32);
        for k in 1..=3 {
            let direct = direct_palace_numbers(k, width as usize, rows as usize);
            let want: Vec<(u32, u32)> = (0..rows)
                .flat_map(|y| (0..=y).map(move |x| (x, y)))
                .filter(|&(x, y)| direct[(y * width + x) as usize] < k)
                .collect();
            assert_eq!(upper_positions(k, rows).unwrap(), want, "k = {k}");
            assert_eq!(check(k, rows, &want).unwrap().first_difference, None);
        }
        // Game 4 is not one of them: the check names the first difference.
        let direct = direct_palace_numbers(4, width as usize, rows as usize);
        let four: Vec<(u32, u32)> = (0..rows)
            .flat_map(|y| (0..=y).map(move |x| (x, y)))
            .filter(|&(x, y)| direct[(y * width + x) as usize] < 4)
            .collect();
        assert!(check(3, rows, &four).unwrap().first_difference.is_some());
        assert!(upper_positions(4, rows).is_none());
    }

    /// The check of a list, by [`Checker`].
    fn streamed(k: u32, rows: u32, pts: &[(u32, u32)]) -> Check {
        let mut c = Checker::new(k, rows).unwrap();
        for &(x, y) in pts {
            c.take(x, y);
        }
        c.finish()
    }

    #[test]
    fn the_stream_is_the_list() {
        for k in 1..=3 {
            for rows in [1, 2, 3, 4, 5, 17, 1000, 33333] {
                let want = upper_positions(k, rows).unwrap();
                assert_eq!(stream(k, rows).unwrap().collect::<Vec<_>>(), want, "k = {k}, rows {rows}");
                assert_eq!(streamed(k, rows, &want), check(k, rows, &want).unwrap());
                // Every kind of difference: one removed, one added, one cut off at the end.
                let mut other = want.clone();
                other.remove(other.len() / 2);
                assert_eq!(streamed(k, rows, &other), check(k, rows, &other).unwrap());
                let mut other = want.clone();
                other.insert(other.len() / 2, (0, other[other.len() / 2].1));
                assert_eq!(streamed(k, rows, &other), check(k, rows, &other).unwrap());
                other.pop();
                assert_eq!(streamed(k, rows, &other), check(k, rows, &other).unwrap());
                other.push((rows, rows));
                other.push((rows + 1, rows + 1));
                assert_eq!(streamed(k, rows, &other), check(k, rows, &other).unwrap());
            }
        }
    }

    #[test]
    fn the_check_names_the_first_difference() {
        let mut pts = upper_positions(3, 40).unwrap();
        let removed = pts.remove(10);
        assert_eq!(check(3, 40, &pts).unwrap().first_difference, Some((removed, false)));
        pts.insert(10, removed);
        pts.insert(5, (1, 5));
        assert_eq!(check(3, 40, &pts).unwrap().first_difference, Some(((1, 5), true)));
    }
}
