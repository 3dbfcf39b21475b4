//! The skin of the upper arm (paper §3.4) followed from the shoulder at `(k, 0)` to column `X`.
//!
//! Per column `x >= k`: the skin's **top** is the first row below outer space (the first cell
//! of the column that is not 0), its **vertical thickness** the number of palaces from there
//! down, its **diagonal thickness** the run of palaces from the top cell along (1, 1). Per row:
//! the **horizontal thickness** is the run of palaces left of the outer-space boundary.
//!
//! The paper: at level `n` the skin has vertical thickness `f(2n)` (`f(2n) + 1` in the column
//! where it emits a vertical line), diagonal thickness `f(2n+1)`, horizontal thickness
//! `f(2n+2)`, horizontal period `f(2n+3)` and vertical period `f(2n+1)` (Fibonacci,
//! `f(1) = f(2) = 1`); the outer boundary descends in steps of 2 and 3 columns whose pattern
//! expands by `2 -> 23, 3 -> 233` at each thickening, and the skin's slope tends to `1/phi^2`.
//! Levels n = 1, 2, 3 were seen, changing after about 200 and 7700 columns.
//!
//! One state machine, [`SkinState`], reads the rows in order and follows the boundary and the
//! open runs. Two sweeps feed it:
//!
//! * [`follow`] and [`Follower`]: a counter sweep ([`Sweep::palaces`](crate::engine::Sweep::palaces))
//!   of the rows the skin needs, at the three-counter kernels' speed, asking for the values of
//!   only the tiles around the advancing boundary; it pauses and resumes through checkpoints.
//! * [`follow_rows`]: the CA's row sweep with the columns around the boundary
//!   assembled row by row; the reference the counter sweep is tested against.

mod pattern;
mod plot;
mod report;
mod rows;
mod state;
mod sweep;

pub use pattern::PatternMeasures;
pub use plot::plot;
pub use rows::{follow_rows, follow_rows_with};
pub use sweep::{Follower, SkinRun, follow};
#[cfg(feature = "gpu")]
pub(crate) use sweep::{estimate, show};

pub use report::{Level, SkinReport, analyse, write_csv};
pub use state::{Column, INV_PHI2, MIN_K, SkinState, check_to, fib, level_of_thickness, rows_for};

#[cfg(test)]
mod tests {
    use super::state::*;
    use crate::engine::checkpoint::{Reader, Writer};

    /// A state's bytes.
    fn encoded(s: &SkinState) -> Vec<u8> {
        let mut w = Writer::new();
        s.encode(&mut w);
        w.into_bytes()
    }

    /// A state read back from all of `bytes`, or none.
    fn decoded(k: u32, to: u64, patterns: bool, bytes: &[u8]) -> Option<SkinState> {
        let mut r = Reader::new(bytes);
        SkinState::decode_with(k, to, patterns, &mut r).filter(|_| r.is_empty())
    }

    #[test]
    fn fibonacci_and_words() {
        assert_eq!((1..=10).map(fib).collect::<Vec<_>>(), vec![1, 1, 2, 3, 5, 8, 13, 21, 34, 55]);
        assert_eq!(level_of_thickness(1), Some(1));
        assert_eq!(level_of_thickness(2), Some(1));
        assert_eq!(level_of_thickness(3), Some(2));
        assert_eq!(level_of_thickness(9), Some(3));
        assert_eq!(level_of_thickness(5), None);
        // The definition, t = f(2n) or f(2n) + 1, for every thickness up to level 12.
        for t in 0..=fib(24) as u32 + 2 {
            let by_definition =
                (1..30).find(|&n| u64::from(t) == fib(2 * n) || u64::from(t) == fib(2 * n) + 1);
            assert_eq!(level_of_thickness(t), by_definition, "thickness {t}");
        }
        assert_eq!(step_word(1), vec![2, 3]);
        assert_eq!(step_word(2), vec![2, 3, 2, 3, 3]);
        // Each word spans f(2n+3) columns in f(2n+1) steps (the periods of §3.4).
        for n in 1..8 {
            let w = step_word(n);
            assert_eq!(w.iter().map(|&s| u64::from(s)).sum::<u64>(), fib(2 * n + 3));
            assert_eq!(w.len() as u64, fib(2 * n + 1));
        }
    }

    /// The state of game 60 after each of its first rows, fed from the direct definition:
    /// its bytes read back to the same state, and every truncation of them is refused.
    #[test]
    fn states_read_back_from_their_bytes() {
        let (k, to) = (60u32, 700u64);
        let mut dp = crate::model::reference::DirectDp::new(k, to as usize);
        let mut s = SkinState::new(k, to);
        for y in 0..200u32 {
            let row: Vec<i8> =
                dp.next_row().iter().map(|&n| (i64::from(n) - i64::from(k)).clamp(-128, 127) as i8).collect();
            s.row(y, |x| row.get(x as usize).copied()).unwrap();
            if y % 37 == 0 || y == 199 {
                let bytes = encoded(&s);
                assert_eq!(decoded(k, to, false, &bytes).as_ref(), Some(&s), "row {y}");
                assert!(decoded(k + 1, to, false, &bytes).is_none());
                for cut in [0, 1, 8, bytes.len() / 2, bytes.len() - 1] {
                    assert!(decoded(k, to, false, &bytes[..cut]).is_none(), "row {y}, cut at {cut}");
                }
                let mut longer = bytes.clone();
                longer.push(0);
                assert!(decoded(k, to, false, &longer).is_none());
            }
        }
        assert!(!s.columns_measured().is_empty() && s.rows() == 200);
    }

    /// With the columns' patterns recorded, the bytes carry them too, and a state is read
    /// back only as what it is.
    #[test]
    fn states_with_patterns_read_back() {
        let (k, to) = (60u32, 700u64);
        let mut dp = crate::model::reference::DirectDp::new(k, to as usize);
        let mut s = SkinState::new(k, to).with_patterns();
        for y in 0..300u32 {
            let row: Vec<i8> =
                dp.next_row().iter().map(|&n| (i64::from(n) - i64::from(k)).clamp(-128, 127) as i8).collect();
            s.row(y, |x| row.get(x as usize).copied()).unwrap();
        }
        assert!(s.patterns().unwrap().iter().any(|&p| p != 0));
        let bytes = encoded(&s);
        assert_eq!(decoded(k, to, true, &bytes).as_ref(), Some(&s));
        assert!(decoded(k, to, false, &bytes).is_none());
        assert!(decoded(k, to, true, &bytes[..bytes.len() - 8]).is_none());
    }
}
