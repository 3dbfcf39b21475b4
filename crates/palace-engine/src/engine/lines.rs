//! The line counter: the palaces of rows `0, 1, 2, ...` from the number of palaces on each
//! column and diagonal, visiting only the cells that could still be palaces.
//!
//! ```
//! use palace_engine::engine::lines::LineCounter;
//!
//! // Game 2 on a board 20 columns wide: the palaces of the first three rows.
//! let mut lines = LineCounter::new(2, 3, 20)?;
//! let mut row = Vec::new();
//! lines.next_row(&mut row);
//! assert_eq!(row, [0, 1]);
//! lines.next_row(&mut row);
//! assert_eq!(row, [0, 3]);
//! lines.next_row(&mut row);
//! assert_eq!(row, [2, 5]);
//! # Ok::<(), palace_engine::Error>(())
//! ```
//!
//! # Why it is exact
//!
//! `N(x, y) = H + V + D` counts the palaces west of `(x, y)` in its row (`H`), north of it in
//! its column (`V`) and north-west of it on its diagonal `x - y` (`D`), and `(x, y)` is a
//! palace exactly when `N < k` (`docs/rule.md`, "The game"). The counter keeps, for every
//! column and every diagonal, the number of palaces found on it in the rows done, and fills
//! row `y` from west to east, `H` being the palaces found in the row so far. Row `y` is done
//! when, by induction, every palace of the rows above is counted; then for every cell of the
//! row, `V` and `D` are its column's and its diagonal's counts (a palace of row `y` is on
//! neither, since a row meets a column or a diagonal once), and `H` is the number found west
//! of it, provided none was missed west of it. The counter finds the first cell east of the
//! last palace found with `V + D < k - H` and so with `N < k`, which is the next palace: every
//! cell it passes has `N >= k`. It passes cells in two ways, both exact:
//!
//! * a block of columns is passed when a lower bound of `V + D` over the block (below) is at
//!   least `k - H`;
//! * once the row holds `k` palaces, every cell east of the last has `N >= H = k`, so the row
//!   ends there.
//!
//! `N` of a cell depends only on cells north and west of it, so a board cut at `width`
//! columns has the same palaces in those columns as the infinite one. A row that reaches
//! `width` with fewer than `k` palaces is returned short; the caller decides whether that
//! means the board was too narrow.
//!
//! # The search
//!
//! The counts of the columns, and of the diagonals, are each kept in a `MinIndex`: the
//! counts, then for every block of 64, of 64 blocks of 64, and so on, the least count of its
//! even and of its odd indices; and for every block of 64 its least count and the mask of the
//! counts at that least. A count that grows updates them while they change. A block of `64^l`
//! columns starting at `x0` meets the diagonals of the cells `x0 .. x0 + 64^l` of row `y`, which
//! lie in at most two blocks of the diagonals' level `l`, and the column `x` meets the diagonal
//! `x - y`, whose index (`x - y + rows`) has the parity of `x` exactly when `rows - y` is even.
//! Two lower bounds of `V + D` over the block follow:
//!
//! * for each parity of `x`, the least count of the block's columns of that parity plus the
//!   lesser least count, in the two diagonal blocks, of the diagonals those columns meet; the
//!   lesser of the two;
//! * for a block of 64 columns, its least count `c` plus the least count `d` of the 64
//!   diagonals it meets, plus 1 when no column at `c` meets a diagonal at `d` (the masks, the
//!   diagonals' shifted into line, share no bit): every cell then has one count above its
//!   least.
//!
//! The search for the first cell at or after `x` with `V + D < t` climbs from `x` as a search
//! in one tree would, and looks into a block only when the larger of its bounds is below `t`;
//! at level 0 it sums 16 cells at a time. A bound is not always the least sum, so a block
//! looked into may hold no such cell, and the search goes on to the next. The parities matter
//! where a branch of ratio 2 holds a position every other row (`k = 2`): the columns and the
//! diagonals then alternate between two counts out of step. The masks matter where a column
//! holds one count fewer exactly where its diagonal holds one more (`k = 6` and `10`).
//!
//! Counts never exceed `k` (a line with `k` palaces gets no more), so for `k <= 255` they fit a
//! byte, and their sums are taken saturating at 255, which keeps every comparison with a
//! bound `t <= k` exact. Larger games are refused with [`Error::InvalidArgument`] (the tiled
//! sweep serves them).
//!
//! # Cost
//!
//! For small `k` the palaces of row `y` lie along a few rays `x = y / r` and their mirror
//! images `x = r y` (`docs/small-k.md`). Between the rays the columns and the diagonals hold
//! counts whose sums are too large, block by block, so a row costs a few hundred sums and a
//! few climbs rather than the `3N` cells of the tiled sweep's row: rows `0..10^6` of game 7
//! take a second where the sweep takes many minutes (`docs/small-k.md`, "Reach"). Where only
//! the masks of the blocks of 64 pass a stretch (`k = 6` and `10`), the search computes one
//! bound per 64 columns of it, so a row's time grows with `y` there. Memory is one byte per
//! column and per diagonal, `2 width + rows` bytes, a thirty-second more for the least counts
//! and an eighth more for the masks.
//!
use crate::error::{Error, Result};

/// The largest `k` the counter takes: counts are bytes.
pub const MAX_K: u32 = u8::MAX as u32;

/// Fanout of a [`MinIndex`]: every entry of a level is the least of 64 of the level below.
const FAN: usize = 1 << FAN_BITS;
const FAN_BITS: u32 = 6;

/// The residue classes of the indices a [`MinIndex`] keeps apart: each block's least count is
/// kept per class of `i mod CLASSES`.
const CLASSES: usize = 2;

/// Counts with the least of every [`FAN`] of them, of every `FAN` of those, and so on, each
/// block's least kept per residue class of the index mod [`CLASSES`]; counts only grow.
#[derive(Debug, Clone)]
struct MinIndex {
    /// `levels[0]` are the counts; `levels[l][CLASSES b + c]`, for `l >= 1`, is the least
    /// count at the indices `i` of block `b` of level `l` (`FAN^l b <= i < FAN^l (b + 1)`) with
    /// `i mod CLASSES = c`, 255 where the block holds none. The last level has one block.
    levels: Vec<Vec<u8>>,
    /// For every block of [`FAN`] counts, which of its counts are its least (of either class):
    /// bit `i` for the count `FAN b + i`. Never empty, so the least is the count at any bit.
    at_least: Vec<u64>,
}

impl MinIndex {
    /// `n` counts, all 0.
    fn new(n: usize) -> Self {
        let mut levels = vec![vec![0u8; n]];
        let (mut len, mut span) = (n, 1usize);
        while len > 1 {
            len = len.div_ceil(FAN);
            span *= FAN;
            // Blocks too short to hold every class (only the last can be) hold 255 there.
            let level = (0..len * CLASSES)
                .map(|e| {
                    let (b, c) = (e / CLASSES, e % CLASSES);
                    if b * span + c < n { 0 } else { u8::MAX }
                })
                .collect();
            levels.push(level);
        }
        let blocks = n.div_ceil(FAN);
        let at_least = (0..blocks).map(|b| Self::bits(n.min((b + 1) * FAN) - b * FAN)).collect();
        MinIndex { levels, at_least }
    }

    /// The mask of the first `n <= 64` bits.
    fn bits(n: usize) -> u64 {
        if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
    }

    /// The least count of the block of [`FAN`] counts `b`, and the mask of the counts that are
    /// that least; 255 and none past the end.
    #[inline]
    fn least_of(&self, b: usize) -> (u8, u64) {
        match self.at_least.get(b) {
            Some(&at) => (self.levels[0][b * FAN + at.trailing_zeros() as usize], at),
            None => (u8::MAX, 0),
        }
    }

    /// The number of counts.
    fn len(&self) -> usize {
        self.levels[0].len()
    }

    /// The number of blocks of level `l`.
    fn blocks(&self, l: usize) -> usize {
        if l == 0 { self.len() } else { self.levels[l].len() / CLASSES }
    }

    #[cfg(test)]
    /// The count at `i`.
    #[inline]
    fn get(&self, i: usize) -> u8 {
        self.levels[0][i]
    }

    /// The counts.
    fn counts(&self) -> &[u8] {
        &self.levels[0]
    }

    /// Adds 1 to the count at `i`, which must be below 255.
    fn increment(&mut self, i: usize) {
        let class = i % CLASSES;
        let mut old = self.levels[0][i];
        self.levels[0][i] = old + 1;
        // The count was at its block's least exactly when its bit is set.
        let (b, bit) = (i / FAN, 1u64 << (i % FAN));
        if self.at_least[b] & bit != 0 {
            self.at_least[b] &= !bit;
            if self.at_least[b] == 0 {
                let block = &self.levels[0][b * FAN..self.levels[0].len().min((b + 1) * FAN)];
                let least = *block.iter().min().expect("a block");
                self.at_least[b] =
                    block.iter().enumerate().filter(|(_, c)| **c == least).map(|(j, _)| 1u64 << j).sum();
            }
        }
        let mut i = i;
        for l in 1..self.levels.len() {
            let b = i / FAN;
            let least = self.levels[l][b * CLASSES + class];
            if least != old {
                // The block held a smaller count of the class elsewhere: its least is unchanged.
                return;
            }
            let now = if l == 1 {
                let counts = &self.levels[0];
                let start = b * FAN;
                let first = start + (class + CLASSES - start % CLASSES) % CLASSES;
                (first..counts.len().min(start + FAN)).step_by(CLASSES).map(|j| counts[j]).min()
            } else {
                let below = &self.levels[l - 1];
                let blocks = below.len() / CLASSES;
                (b * FAN..blocks.min((b + 1) * FAN)).map(|c| below[c * CLASSES + class]).min()
            }
            .expect("the block holds the index");
            if now == least {
                return;
            }
            self.levels[l][b * CLASSES + class] = now;
            old = least;
            i = b;
        }
    }
}

/// The counts of the columns and of the diagonals of one board, searched together.
#[derive(Debug, Clone)]
struct Lines {
    columns: MinIndex,
    /// The diagonal `x - y` at `x - y + rows`.
    diagonals: MinIndex,
}

impl Lines {
    /// The first column `x >= from` with `columns[x] + diagonals[x + shift] < bound`, and the
    /// number of cells whose sum was taken on the way: climbs from `from` level by level, and
    /// looks into a block only when its lower bounds (`search`, and the module
    /// documentation's "The search") are below `bound`.
    fn next_sum_below(&self, from: usize, shift: usize, bound: u8) -> (Option<usize>, u64) {
        let mut summed = 0;
        let mut p = from;
        for l in 0..self.columns.levels.len() {
            let blocks = self.columns.blocks(l);
            if p >= blocks {
                break;
            }
            let end = blocks.min((p / FAN + 1) * FAN);
            if let Some(x) = self.search(l, p, end, shift, bound, &mut summed) {
                return (Some(x), summed);
            }
            p = p / FAN + 1;
        }
        (None, summed)
    }

    /// The first column with a sum below `bound` under the entries `start..end` of the
    /// columns' level `l`: at level 0 the columns themselves, above it the blocks whose lower
    /// bound is below `bound`, looked into in turn.
    fn search(
        &self,
        l: usize,
        start: usize,
        end: usize,
        shift: usize,
        bound: u8,
        summed: &mut u64,
    ) -> Option<usize> {
        if l == 0 {
            return self.first_sum_below(start, end, shift, bound, summed);
        }
        let columns = &self.columns.levels[l];
        let diagonals = &self.diagonals.levels[l];
        // The diagonals of the block `j` start in the diagonals' block `j + q`, `r` into it;
        // the column class `c` meets the diagonal class `(c + shift) mod CLASSES`.
        let span_bits = FAN_BITS * l as u32;
        let (q, r) = (shift >> span_bits, shift & ((1 << span_bits) - 1));
        let at =
            |block: usize, class: usize| diagonals.get(block * CLASSES + class).copied().unwrap_or(u8::MAX);
        let below = self.columns.blocks(l - 1);
        for j in start..end {
            let mut lower = u8::MAX;
            for c in 0..CLASSES {
                let dc = (c + shift) % CLASSES;
                let d = if r == 0 { at(j + q, dc) } else { at(j + q, dc).min(at(j + q + 1, dc)) };
                lower = lower.min(columns[j * CLASSES + c].saturating_add(d));
            }
            if l == 1 && lower < bound {
                lower = lower.max(self.aligned_bound(j, q, r));
            }
            if lower < bound {
                let (s, e) = (j * FAN, below.min((j + 1) * FAN));
                if let Some(x) = self.search(l - 1, s, e, shift, bound, summed) {
                    return Some(x);
                }
            }
        }
        None
    }

    /// A lower bound of `columns[x] + diagonals[x + shift]` over the block of [`FAN`] columns
    /// `j`, whose diagonals start `r` into the diagonals' block `j + q`: the least column
    /// count plus the least diagonal count the block meets, and 1 more when no column at its
    /// least meets a diagonal at its least (every cell then has one of the two above its
    /// least).
    #[inline]
    fn aligned_bound(&self, j: usize, q: usize, r: usize) -> u8 {
        let (c, at_c) = self.columns.least_of(j);
        let (da, at_a) = self.diagonals.least_of(j + q);
        let (db, at_b) = if r == 0 { (u8::MAX, 0) } else { self.diagonals.least_of(j + q + 1) };
        let d = da.min(db);
        // Bit i: the diagonal of the block's column i is at the least.
        let mut at_d = 0;
        if da == d {
            at_d |= at_a >> r;
        }
        if r > 0 && db == d {
            at_d |= at_b << (FAN - r);
        }
        c.saturating_add(d).saturating_add(u8::from(at_c & at_d == 0))
    }

    /// The first column of `start..end` with `columns[x] + diagonals[x + shift] < bound`,
    /// summing 16 cells at a time.
    #[inline]
    fn first_sum_below(
        &self,
        start: usize,
        end: usize,
        shift: usize,
        bound: u8,
        summed: &mut u64,
    ) -> Option<usize> {
        const LANES: usize = 16;
        let columns = &self.columns.levels[0][start..end];
        let diagonals = &self.diagonals.levels[0][start + shift..end + shift];
        for (i, (c, d)) in columns.chunks(LANES).zip(diagonals.chunks(LANES)).enumerate() {
            let mut below = 0u32;
            if let (Ok(c), Ok(d)) = (<&[u8; LANES]>::try_from(c), <&[u8; LANES]>::try_from(d)) {
                for lane in 0..LANES {
                    below |= u32::from(c[lane].saturating_add(d[lane]) < bound) << lane;
                }
            } else {
                for (lane, (&c, &d)) in c.iter().zip(d).enumerate() {
                    below |= u32::from(c.saturating_add(d) < bound) << lane;
                }
            }
            if below != 0 {
                let lane = below.trailing_zeros() as usize;
                // The cells up to the palace count as computed; those after it in the chunk
                // were summed but not needed.
                *summed += lane as u64 + 1;
                return Some(start + i * LANES + lane);
            }
            *summed += c.len() as u64;
        }
        None
    }
}

/// The palaces of rows `0, 1, 2, ...` of game `k` on a board `width` columns wide, row by row.
/// The module documentation says why it is exact.
#[derive(Debug, Clone)]
pub struct LineCounter {
    k: u8,
    rows: u32,
    /// Palaces per column and per diagonal.
    lines: Lines,
    /// The next row.
    y: u32,
    /// Cells whose `N` was computed.
    tested: u64,
}

impl LineCounter {
    /// A counter for rows `0..rows` of game `k`, columns `0..width`. Refuses `k = 0`,
    /// `k >` [`MAX_K`] and an empty board.
    pub fn new(k: u32, rows: u32, width: u32) -> Result<Self> {
        let refuse = |argument, value: u32, expected| {
            Err(Error::InvalidArgument {
                function: "LineCounter::new",
                argument,
                value: value.to_string(),
                expected,
            })
        };
        if k == 0 || k > MAX_K {
            return refuse("k", k, "1 to 255 (the tiled sweep takes larger games)");
        }
        if rows == 0 || width == 0 {
            return refuse(if rows == 0 { "rows" } else { "width" }, 0, "at least 1");
        }
        Ok(LineCounter {
            k: k as u8,
            rows,
            lines: Lines {
                columns: MinIndex::new(width as usize),
                diagonals: MinIndex::new(width as usize + rows as usize),
            },
            y: 0,
            tested: 0,
        })
    }

    /// The row [`next_row`](Self::next_row) fills next.
    pub fn y(&self) -> u32 {
        self.y
    }

    /// The board's width.
    pub fn width(&self) -> u32 {
        self.lines.columns.len() as u32
    }

    /// Cells whose palace number was computed so far (the others were jumped over).
    pub fn tested(&self) -> u64 {
        self.tested
    }

    /// Palaces per column in the rows done.
    pub fn columns(&self) -> &[u8] {
        self.lines.columns.counts()
    }

    /// Palaces per diagonal in the rows done: the diagonal `x - y = d` at `d + rows`.
    pub fn diagonals(&self) -> &[u8] {
        self.lines.diagonals.counts()
    }

    #[cfg(test)]
    /// The palaces north (`V`) and north-west (`D`) of `(x, y)` for the next row `y`: with the
    /// palaces west of it in that row, its palace number. `x` must lie on the board.
    pub(crate) fn north_and_north_west(&self, x: u32) -> (u32, u32) {
        let d = x as usize + self.rows as usize - self.y as usize;
        (u32::from(self.lines.columns.get(x as usize)), u32::from(self.lines.diagonals.get(d)))
    }

    /// Fills `row` with the columns of the palaces of the next row, in order, and moves on. It
    /// holds `k` of them unless the board's width cut the row short. Panics past the last row.
    pub fn next_row(&mut self, row: &mut Vec<u32>) {
        assert!(self.y < self.rows, "LineCounter: row {} of 0..{}", self.y, self.rows);
        row.clear();
        let k = self.k;
        // The diagonal of (x, y) is at x + shift.
        let shift = self.rows as usize - self.y as usize;
        let mut found = 0u8;
        let mut x = 0usize;
        while found < k {
            let (next, summed) = self.lines.next_sum_below(x, shift, k - found);
            self.tested += summed;
            let Some(palace) = next else { break };
            row.push(palace as u32);
            found += 1;
            self.lines.columns.increment(palace);
            self.lines.diagonals.increment(palace + shift);
            x = palace + 1;
        }
        self.y += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::reference::direct_palace_numbers;

    #[test]
    fn the_search_finds_the_first_sum_below_the_bound() {
        // Random counts on lengths around the fanout's powers, against a plain scan, with the
        // counts grown one at a time through the index.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for (width, rows) in
            [(1, 1), (2, 70), (63, 5), (64, 64), (65, 200), (4095, 3), (4097, 5000), (9000, 300)]
        {
            let mut lines = Lines { columns: MinIndex::new(width), diagonals: MinIndex::new(width + rows) };
            let (mut columns, mut diagonals) = (vec![0u8; width], vec![0u8; width + rows]);
            for _ in 0..2 * (width + rows) {
                // Grow counts in runs, so that whole blocks reach the same count.
                for (plain, index) in
                    [(&mut columns, &mut lines.columns), (&mut diagonals, &mut lines.diagonals)]
                {
                    let (start, run) = (rand(plain.len() as u64) as usize, 1 + rand(200) as usize);
                    for (i, count) in plain.iter_mut().enumerate().skip(start).take(run) {
                        if *count < 9 {
                            *count += 1;
                            index.increment(i);
                        }
                    }
                }
                let shift = 1 + rand(rows as u64) as usize;
                let from = rand(width as u64 + 2) as usize;
                let bound = rand(20) as u8;
                let want = (from..width).find(|&x| columns[x] + diagonals[x + shift] < bound);
                let (got, summed) = lines.next_sum_below(from, shift, bound);
                assert_eq!(got, want, "{width} x {rows}: from {from}, shift {shift}, bound {bound}");
                assert!(summed <= width.saturating_sub(from) as u64);
            }
            assert_eq!(lines.columns.counts(), &columns[..]);
            assert_eq!(lines.diagonals.counts(), &diagonals[..]);
            for (b, block) in columns.chunks(FAN).enumerate() {
                let least = *block.iter().min().unwrap();
                let at: u64 =
                    block.iter().enumerate().filter(|(_, c)| **c == least).map(|(i, _)| 1 << i).sum();
                assert_eq!(lines.columns.least_of(b), (least, at), "block {b}");
            }
            for (l, level) in lines.columns.levels.iter().enumerate().skip(1) {
                let span = FAN.pow(l as u32);
                for (e, &least) in level.iter().enumerate() {
                    let (j, c) = (e / CLASSES, e % CLASSES);
                    let block = j * span..width.min((j + 1) * span);
                    let want =
                        block.filter(|i| i % CLASSES == c).map(|i| columns[i]).min().unwrap_or(u8::MAX);
                    assert_eq!(least, want, "level {l}, block {j}, class {c}");
                }
            }
        }
    }

    #[test]
    fn rows_are_the_direct_definition() {
        for k in [1, 2, 3, 4, 7, 20, 60] {
            let (rows, width) = (70u32, 200u32);
            let direct = direct_palace_numbers(k, width as usize, rows as usize);
            let mut lines = LineCounter::new(k, rows, width).unwrap();
            let mut row = Vec::new();
            for y in 0..rows {
                for x in 0..width {
                    let (v, d) = lines.north_and_north_west(x);
                    let mut west = 0;
                    for x0 in 0..x {
                        west += u32::from(direct[(y * width + x0) as usize] < k);
                    }
                    assert_eq!(west + v + d, direct[(y * width + x) as usize], "k = {k} ({x}, {y})");
                }
                lines.next_row(&mut row);
                let want: Vec<u32> = (0..width).filter(|&x| direct[(y * width + x) as usize] < k).collect();
                assert_eq!(row, want, "k = {k}, row {y}");
            }
            assert!(lines.tested() < u64::from(rows) * u64::from(width));
        }
    }

    #[test]
    fn a_narrow_board_cuts_rows_short_and_large_games_are_refused() {
        let mut lines = LineCounter::new(3, 40, 10).unwrap();
        let mut row = Vec::new();
        let mut short = false;
        for _ in 0..40 {
            lines.next_row(&mut row);
            short |= row.len() < 3;
        }
        assert!(short);
        assert!(matches!(LineCounter::new(256, 10, 10), Err(Error::InvalidArgument { argument: "k", .. })));
        assert!(matches!(LineCounter::new(0, 10, 10), Err(Error::InvalidArgument { argument: "k", .. })));
        assert!(matches!(LineCounter::new(3, 0, 10), Err(Error::InvalidArgument { argument: "rows", .. })));
    }
}
