//! The two plain references every fast path is tested against.
//!
//! * [`DirectDp`] is the *direct definition*: the paper's §1 dynamic programme that counts the
//!   palaces seen north, west and north-west with three counters per cell. It never uses the
//!   CA rule, so agreement with it checks the rule, the initial condition and the engine at
//!   once. It is also the speed baseline of the `bench` command.
//! * [`ReferenceCa`] is the CA rule (`docs/rule.md`) applied one cell at a time in row order, in
//!   exact 64-bit arithmetic, with no closed forms and no skipping. It is the scalar reference
//!   beside the fast kernels.
//!
//! Both sweep row by row and keep only O(width) state.

use crate::model::rule::{initial, rule};

/// The three-counter dynamic programme of the paper's §1, one row at a time.
///
/// For row `y` it keeps, per column, the palaces seen north (`col`) and the palaces on the
/// north-west diagonal through the cell above-left (`diag`), and one running counter for the
/// palaces seen west.
#[derive(Debug, Clone)]
pub struct DirectDp {
    k: u32,
    y: u64,
    /// `col[x]`: palaces at `(x, y')` with `y' < y`.
    col: Vec<u32>,
    /// `diag[x]`: palaces at `(x - i, y - 1 - i)`, `i >= 0` (the diagonal ending at `(x, y-1)`).
    diag: Vec<u32>,
    /// The palace numbers of the row just computed.
    row: Vec<u32>,
}

impl DirectDp {
    /// A programme for game `k` on a board `width` columns wide, about to compute row 0.
    pub fn new(k: u32, width: usize) -> Self {
        DirectDp { k, y: 0, col: vec![0; width], diag: vec![0; width], row: vec![0; width] }
    }

    /// The row the next call to [`DirectDp::next_row`] computes.
    pub fn y(&self) -> u64 {
        self.y
    }

    /// Computes the next row and returns its palace numbers `N(x, y)`.
    pub fn next_row(&mut self) -> &[u32] {
        let k = self.k;
        let mut west = 0u32;
        // `carry` is the old diag[x - 1]: the diagonal through (x - 1, y - 1).
        let mut carry = 0u32;
        for x in 0..self.col.len() {
            let n = self.col[x] + west + carry;
            let p = u32::from(n < k);
            self.row[x] = n;
            west += p;
            self.col[x] += p;
            carry = std::mem::replace(&mut self.diag[x], carry + p);
        }
        self.y += 1;
        &self.row
    }
}

/// Every cell's palace and its three counters by the direct definition, over a whole board:
/// `r`, `c` and `d` are the palaces west, north and north-west of the cell (row-major). The
/// reference the counter sweeps are checked against; `O(width x height)` memory.
#[derive(Debug, Clone)]
pub struct DirectCounters {
    /// The game.
    pub k: u32,
    /// Board width.
    pub width: usize,
    /// Whether each cell is a palace.
    pub palace: Vec<bool>,
    /// Palaces west of each cell.
    pub r: Vec<u32>,
    /// Palaces north.
    pub c: Vec<u32>,
    /// Palaces north-west.
    pub d: Vec<u32>,
}

impl DirectCounters {
    /// The counters of the `width x height` board of game `k`.
    pub fn new(k: u32, width: usize, height: usize) -> Self {
        let w = width;
        let palace: Vec<bool> = direct_values(k, width, height).iter().map(|&v| v < 0).collect();
        let p = |i: usize| u32::from(palace[i]);
        let (mut r, mut c, mut d) = (vec![0; w * height], vec![0; w * height], vec![0; w * height]);
        for y in 0..height {
            for x in 0..w {
                let i = y * w + x;
                if x > 0 {
                    r[i] = r[i - 1] + p(i - 1);
                }
                if y > 0 {
                    c[i] = c[i - w] + p(i - w);
                }
                if x > 0 && y > 0 {
                    d[i] = d[i - w - 1] + p(i - w - 1);
                }
            }
        }
        DirectCounters { k, width, palace, r, c, d }
    }

    /// `D - k + bias` of the cell `(x, y)`, modulo 256 (the counter kernels' `D'`).
    pub fn d_biased(&self, x: usize, y: usize, bias: u8) -> u8 {
        (self.d[y * self.width + x].wrapping_sub(self.k).wrapping_add(u32::from(bias))) as u8
    }
}

/// The palace numbers `N(x, y)` of the `width x height` board, row-major, by the direct
/// definition.
pub fn direct_palace_numbers(k: u32, width: usize, height: usize) -> Vec<u32> {
    let mut dp = DirectDp::new(k, width);
    let mut out = Vec::with_capacity(width * height);
    for _ in 0..height {
        out.extend_from_slice(dp.next_row());
    }
    out
}

/// The CA values `v = N - k` of the `width x height` board, row-major, by the direct
/// definition.
pub fn direct_values(k: u32, width: usize, height: usize) -> Vec<i32> {
    direct_palace_numbers(k, width, height).into_iter().map(|n| n as i32 - k as i32).collect()
}

/// The CA rule applied cell by cell in row order, in exact arithmetic, from the initial
/// condition for `k`.
#[derive(Debug, Clone)]
pub struct ReferenceCa {
    k: u32,
    y: i64,
    /// Rows `y - 2` and `y - 1`, each with the two boundary columns `x = -2, -1` in front.
    up2: Vec<i64>,
    up1: Vec<i64>,
    cur: Vec<i64>,
}

impl ReferenceCa {
    /// A reference sweep for game `k` on a board `width` columns wide, about to compute row 0.
    pub fn new(k: u32, width: usize) -> Self {
        let boundary_row =
            |y: i64| -> Vec<i64> { (0..width + 2).map(|i| initial(k, i as i64 - 2, y)).collect() };
        ReferenceCa { k, y: 0, up2: boundary_row(-2), up1: boundary_row(-1), cur: vec![0; width + 2] }
    }

    /// Computes the next row and returns its CA values (without the boundary columns).
    pub fn next_row(&mut self) -> &[i64] {
        let y = self.y;
        self.cur[0] = initial(self.k, -2, y);
        self.cur[1] = initial(self.k, -1, y);
        for i in 2..self.cur.len() {
            self.cur[i] = rule(
                self.up2[i - 2],
                self.up2[i - 1],
                self.up1[i - 2],
                self.up1[i - 1],
                self.cur[i - 1],
                self.up1[i],
            );
        }
        std::mem::swap(&mut self.up2, &mut self.up1);
        std::mem::swap(&mut self.up1, &mut self.cur);
        self.y += 1;
        &self.up1[2..]
    }
}

/// The CA values of the `width x height` board, row-major, by the reference CA.
pub fn reference_values(k: u32, width: usize, height: usize) -> Vec<i32> {
    let mut ca = ReferenceCa::new(k, width);
    let mut out = Vec::with_capacity(width * height);
    for _ in 0..height {
        out.extend(ca.next_row().iter().map(|&v| i32::try_from(v).expect("v fits i32")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Palace numbers by brute force straight from the definition: look along each line.
    fn brute(k: u32, w: usize, h: usize) -> Vec<u32> {
        let mut n = vec![0u32; w * h];
        let mut pal = vec![false; w * h];
        for y in 0..h {
            for x in 0..w {
                let mut c = 0;
                for i in 1..=x {
                    c += u32::from(pal[y * w + x - i]);
                }
                for i in 1..=y {
                    c += u32::from(pal[(y - i) * w + x]);
                }
                for i in 1..=x.min(y) {
                    c += u32::from(pal[(y - i) * w + x - i]);
                }
                n[y * w + x] = c;
                pal[y * w + x] = c < k;
            }
        }
        n
    }

    #[test]
    fn dp_equals_brute_force() {
        for k in 1..=7 {
            assert_eq!(direct_palace_numbers(k, 23, 19), brute(k, 23, 19), "k={k}");
        }
    }

    #[test]
    fn rule_equals_direct_definition_small() {
        for k in 1..=9 {
            assert_eq!(reference_values(k, 40, 33), direct_values(k, 40, 33), "k={k}");
        }
    }

    #[test]
    fn figure_1_game_5() {
        // Paper Fig. 1 (k = 5): from (3, 3) player B blocks (0,0), (1,1), (0,3), (3,0), which
        // must be palaces, and the options (3,1), (3,2), (2,2), (2,3), (1,3) are not palaces.
        let n = direct_palace_numbers(5, 11, 11);
        let at = |x: usize, y: usize| n[y * 11 + x];
        for (x, y) in [(0, 0), (1, 1), (0, 3), (3, 0)] {
            assert!(at(x, y) < 5, "({x},{y}) should be a palace");
        }
        for (x, y) in [(3, 1), (3, 2), (2, 2), (2, 3), (1, 3)] {
            assert!(at(x, y) >= 5, "({x},{y}) should not be a palace");
        }
        // The queen at (3, 3) is yellow in Fig. 1: palace number 4, the four blocked palaces.
        assert_eq!(at(3, 3), 4);
    }
}
